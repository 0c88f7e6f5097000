"""The bots' path search (``bots._search_nb``) against a plain-Python Dijkstra (hypothesis).

The search is among the hottest Terraria kernels (about 15% of a game's time, measured by
running each search twice). The reference takes its hops from the movement reference in
``terraria_helpers`` (steps, falls, digs, written from the rules) and the prices from
``bots.search_nb``'s docstring (a step 1, a dig its action points plus the step, a fall
``fall_pen`` per square beyond the first), and finds the cheapest cost to every square
within ``budget`` with a binary heap.
"""

from __future__ import annotations

import heapq

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from terraria_helpers import (
    COLS,
    RES_DIG,
    RES_STRUCT,
    ROWS,
    Ref,
    buffers,
    drawn_world,
    generated,
)

from simlib.games.terraria import bots
from simlib.games.terraria.state import EN, N_PIECES, PC, SQ, P

ENEMIES = np.zeros((2, EN.N), np.int16)  # a bestiary (no pieces stand in these searches)


def _dig_ap(ref, rate, r, c):
    if rate <= 0:
        return -1
    s = ref.sq[r][c]
    if s == SQ.HALF:
        cost = 1
    elif s == SQ.BLOCK:
        cost = int(RES_DIG[ref.res[r][c]])
    else:
        return -1
    cost -= ref.prog[r][c]
    return -(-cost // rate)


def _landing(ref, r, c):
    while not ref.on_surface(r, c):
        r += 1
    return r


def ref_hops(ref, rate, fall_pen, r, c):
    """Every hop from (r, c): ``((row, col) it ends in, cost, dr, dc, dug)``."""
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if dr == 0 and dc == 0:
                continue
            tr, tc = r + dr, c + dc
            if not ref.on_table(tr, tc) or ref.sq[tr][tc] == SQ.LAVA:
                continue
            s = ref.sq[tr][tc]
            if s == SQ.BLOCK or (s == SQ.HALF and dr < 0):
                ap = _dig_ap(ref, rate, tr, tc)
                if ap < 0:
                    continue
                cost = ap + (0 if (dr, dc) == (1, 0) else 1)  # digging down drops you in
                lr = tr
                if tr + 1 < ROWS and ref.sq[tr + 1][tc] == SQ.AIR and not ref.on_surface(tr, tc):
                    lr = _landing(ref, tr + 1, tc)
                dug = 1
            else:
                if not ref.step_ok(r, c, dr, dc):
                    continue
                cost = 1
                lr = _landing(ref, tr, tc)
                dug = 0
            if lr - tr > 1:
                cost += fall_pen * (lr - tr - 1)
            yield (lr, tc), cost, dr, dc, dug


def ref_search(ref, rate, r0, c0, budget, fall_pen):
    """Cheapest cost from (r0, c0) to every square within ``budget`` (a dict)."""
    best = {(r0, c0): 0}
    heap = [(0, r0, c0)]
    while heap:
        d, r, c = heapq.heappop(heap)
        if d != best[(r, c)]:
            continue
        for sq, cost, _, _, _ in ref_hops(ref, rate, fall_pen, r, c):
            nd = d + cost
            if nd <= budget and (sq not in best or nd < best[sq]):
                best[sq] = nd
                heapq.heappush(heap, (nd, *sq))
    return best


def ref_queue_search(ref, rate, r0, c0, budget, fall_pen, qlen):
    """The kernel's own order, in plain Python: ``(n, queue pairs, bdist, bfrom)``.

    Levels 0 .. ``budget`` in turn; each level expands, in queue order, the entries of that
    cost still at their square's cost (a dig straight down may add one to the level being
    expanded: it is expanded in that level); each hop, in ``ref_hops`` order, that makes a
    square cheaper writes its cost and way in and appends the square to the queue, unless
    the queue (``qlen // 2`` pairs) is full. Ties keep the first way found, so ``bfrom`` and
    the queue's order (the bots' tie-break among goals) depend on the expansion order.
    """
    cap = qlen // 2
    bdist = {(r0, c0): 0}
    bfrom = {(r0, c0): -1}
    queue = [(r0 * COLS + c0, 0)]
    for level in range(budget + 1):
        i = 0
        while i < len(queue):  # the queue grows while it is read
            node, cost = queue[i]
            i += 1
            r, c = divmod(node, COLS)
            if cost != level or bdist[(r, c)] != cost:
                continue
            for sq, add, dr, dc, dug in ref_hops(ref, rate, fall_pen, r, c):
                nd = cost + add
                if nd > budget or (sq in bdist and bdist[sq] <= nd):
                    continue
                bdist[sq] = nd
                bfrom[sq] = ((r * COLS + c) * 9 + (dr + 1) * 3 + dc + 1) * 2 + dug
                if len(queue) < cap:
                    queue.append((sq[0] * COLS + sq[1], nd))
    return len(queue), queue, bdist, bfrom


def run_search(grid, tiles, rate, r0, c0, budget, fall_pen, qlen=ROWS * COLS * 4):
    bdist = np.zeros((ROWS, COLS), np.int32)
    bfrom = np.zeros((ROWS, COLS), np.int32)
    q = np.zeros(qlen, np.int32)  # as engine.alloc_state_nb by default (ROWS * COLS * 4)
    n = bots._search_nb(grid, tiles, RES_DIG, rate, r0, c0, budget, fall_pen, bdist, bfrom, q)
    return bdist, bfrom, q, n


def check_against_reference(grid, tiles, mini, rate, r0, c0, budget, fall_pen):
    ref = Ref(grid, tiles, mini, buffers(1)[0])
    bdist, bfrom, q, n = run_search(grid, tiles, rate, r0, c0, budget, fall_pen)
    want = ref_search(ref, rate, r0, c0, budget, fall_pen)
    got = {(r, c): int(bdist[r, c]) for r in range(ROWS) for c in range(COLS) if bdist[r, c] >= 0}
    assert got == want
    # each square's recorded hop comes from a square one hop cheaper (the route is real)
    for (r, c), d in got.items():
        if (r, c) == (r0, c0):
            assert bfrom[r, c] == -1
            continue
        f = int(bfrom[r, c])
        dug, hop, prev = f % 2, (f // 2) % 9, f // 18
        pr, pc = divmod(prev, COLS)
        dr, dc = hop // 3 - 1, hop % 3 - 1
        hops = {
            (h[2], h[3]): (h[0], h[1], h[4])
            for h in ref_hops(ref, rate, fall_pen, pr, pc)
        }
        assert hops[(dr, dc)] == ((r, c), d - got[(pr, pc)], dug)
    # the queue lists every reached square at its final cost (the bots pick goals from it)
    listed = {
        divmod(int(q[2 * i]), COLS)
        for i in range(n)
        if bdist.flat[q[2 * i]] == q[2 * i + 1]
    }
    assert listed == set(got)
    assert n < 2 * ROWS * COLS  # no entry was dropped
    return got


def test_search_on_flat_ground_and_a_dig():
    # a hand-checked case: flat ground with one block on it; a pickaxe digging 1 a point
    grid, tiles, mini = drawn_world(
        [
            "..........",
            ".....#....",
            "##########",
            "##########",
        ],
        top=10,
        left=20,
    )
    got = check_against_reference(grid, tiles, mini, 1, 11, 22, 4, 2)
    assert got[(11, 21)] == 1 and got[(11, 23)] == 1 and got[(11, 24)] == 2
    assert got[(10, 25)] == 3  # up and over the block
    assert got[(12, 22)] == 1  # dig the floor below (dirt: 1 point) and drop in


def open_squares(ref):
    """The squares a piece may stand in, on discovered tiles, in reading order."""
    return [
        (r, c)
        for r in range(ROWS)
        for c in range(COLS)
        if ref.on_table(r, c) and ref.sq[r][c] not in (SQ.BLOCK, SQ.LAVA)
    ]


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 10_000),
    st.booleans(),
    st.integers(0, ROWS * COLS - 1),
    st.integers(0, 3),
    st.integers(2, 40),  # the bots' whole budget range
    st.integers(0, 4),
)
def test_search_kernel_matches_reference(index, reveal, start, rate, budget, fall_pen):
    grid, tiles, mini = generated(31, index, reveal_all=reveal)
    r0, c0 = divmod(start, COLS)
    ref = Ref(grid, tiles, mini, buffers(1)[0])
    if not ref.on_table(r0, c0) or ref.sq[r0][c0] in (SQ.BLOCK, SQ.LAVA):
        # start from the first open known square in reading order from there
        cells = open_squares(ref)
        r0, c0 = cells[start % len(cells)]
    check_against_reference(grid, tiles, mini, rate, r0, c0, budget, fall_pen)


def _up(bfrom, node):
    """The square the search reached ``node`` from (-1: the root)."""
    f = int(bfrom.flat[node])
    return f // 18 if f >= 0 else -1


def ref_pick(grid, tiles, pieces, bdist, bfrom, q, n, r0, c0, bp, under):
    """Plain-Python goal pick: best value per cost, the first in the queue on a tie.

    With ``under`` >= 0, only squares whose recorded way back passes through ``under``,
    at their cost beyond it.
    """
    cols = grid.shape[2]
    d0 = int(bdist.flat[under]) if under >= 0 else 0
    best, bv = -1, 0.0
    for i in range(n):
        node = int(q[2 * i])
        r, c = divmod(node, cols)
        d = int(bdist[r, c])
        if d != q[2 * i + 1] or (r, c) == (r0, c0) or grid[P.OCC, r, c] != 0:
            continue
        if under >= 0:
            chain, up = [], node
            while up >= 0:
                chain.append(up)
                up = _up(bfrom, up)
            if under not in chain[1:]:
                continue
        v = bots._square_value_nb(grid, tiles, pieces, ENEMIES, RES_DIG, RES_STRUCT, r, c, bp,
                                  True)  # fmt: skip
        v /= 1.0 + d - d0
        if v > bv:
            best, bv = node, v
    return best


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 3), st.integers(0, 10_000))
def test_goal_pick_beyond_a_reached_goal_matches_reference(index, rate, pick):
    # the bots go on from a reached goal along the same search's tree (``under``): only the
    # squares the search reached through it, priced by the cost beyond it
    grid, tiles, mini = generated(37, index, reveal_all=True)
    cells = [(r, c) for r in range(ROWS) for c in range(COLS)
             if grid[P.SQ, r, c] not in (SQ.BLOCK, SQ.LAVA)]
    r0, c0 = cells[index % len(cells)]
    bdist, bfrom, q, n = run_search(grid, tiles, rate, r0, c0, 9, 2)
    pieces = np.zeros((N_PIECES, PC.N), np.int16)
    defaults = bots.BOTS["explorer"][1]
    bp = np.zeros(bots.BP.N)  # the parameters, then the turn's derived weights
    bp[: len(defaults)] = defaults
    bp[bots.BP.WOOD_TARGET] = 99.0
    reached = [int(q[2 * i]) for i in range(n) if bdist.flat[q[2 * i]] == q[2 * i + 1]]
    below = dict.fromkeys(reached, 0)  # squares reached through each square
    for node in reached:
        up = _up(bfrom, node)
        while up >= 0:
            below[up] += 1
            up = _up(bfrom, up)
    inner = [u for u in reached if below[u] >= 3 and bdist.flat[u] > 0] or reached
    for under in (-1, inner[pick % len(inner)]):
        want = ref_pick(grid, tiles, pieces, bdist, bfrom, q, n, r0, c0, bp, under)
        got = bots._pick_goal_nb(grid, tiles, pieces, ENEMIES, bdist, bfrom, q, RES_DIG,
                                 RES_STRUCT, r0, c0, bp, n, True, under)  # fmt: skip
        assert got == want


def test_a_dig_straight_down_at_the_budget_still_counts():
    # at the budget only a dig straight down can add nothing (a block dug through already:
    # progress at its full dig cost, 0 points left); the search skips every other hop there,
    # and must not skip this one
    grid, tiles, mini = drawn_world(
        [
            "..........",
            "##########",
            "##########",
        ],
        top=10,
        left=20,
    )
    r0, c0 = 10, 24
    grid[P.PROG, r0 + 1, c0] = RES_DIG[grid[P.RES, r0 + 1, c0]]
    for budget in (0, 1, 3):
        got = check_against_reference(grid, tiles, mini, 1, r0, c0, budget, 2)
        assert got[(r0 + 1, c0)] == 0


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 10_000),
    st.booleans(),
    st.integers(0, ROWS * COLS - 1),
    st.integers(1, 3),
    st.integers(2, 40),
    st.integers(0, 4),
    st.one_of(st.just(ROWS * COLS * 4), st.integers(2, 700)),  # the root pair at least
    st.integers(0, 3),
)
def test_search_expands_in_the_reference_order(index, reveal, start, rate, budget, fall_pen,
                                               qlen, worn):
    # not only the costs: the queue (pairs in the order reached), the ways in (first found
    # on a tie) and the count must be those of the level-by-level scan in queue order, the
    # bots' goals and first moves read them. Short queues (up to 700 ints) make the kernel
    # leave its per-level chains for the plain scan part way (its pairs would reach the
    # chains at the far end of the queue) and drop entries past half the queue. ``worn`` > 0:
    # every ``worn + 1``-th block is dug through already (no point left: a dig straight
    # down then costs nothing, the one hop that can)
    grid, tiles, mini = generated(41, index, reveal_all=reveal)
    if worn:
        blocks = np.flatnonzero(grid[P.SQ] == SQ.BLOCK)[index % (worn + 1) :: worn + 1]
        grid[P.PROG].flat[blocks] = RES_DIG[grid[P.RES].flat[blocks]]
    ref = Ref(grid, tiles, mini, buffers(1)[0])
    cells = open_squares(ref)
    r0, c0 = cells[start % len(cells)]
    n_want, queue, dist, came = ref_queue_search(ref, rate, r0, c0, budget, fall_pen, qlen)
    bdist, bfrom, q, n = run_search(grid, tiles, rate, r0, c0, budget, fall_pen, qlen)
    assert n == n_want
    assert [(int(q[2 * i]), int(q[2 * i + 1])) for i in range(n)] == queue
    got = {(r, c): int(bdist[r, c]) for r in range(ROWS) for c in range(COLS) if bdist[r, c] >= 0}
    assert got == dist
    assert {sq: int(bfrom[sq]) for sq in got} == came


def test_search_leaves_its_chains_part_way_and_drops_past_half_the_queue():
    # the per-level chains live at the far end of the queue: a queue too short for them
    # and all the pairs makes the kernel go on with the plain scan part way through a
    # level (first case: every pair still fits), and one shorter still drops entries
    # (second case); both must match the reference's order exactly
    grid, tiles, mini = generated(43, 7, reveal_all=True)
    ref = Ref(grid, tiles, mini, buffers(1)[0])
    cells = [(r, c) for r in range(ROWS) for c in range(COLS)
             if grid[P.SQ, r, c] not in (SQ.BLOCK, SQ.LAVA)]
    budget, fall_pen = 20, 2
    r0, c0 = max(cells, key=lambda sq: len(ref_search(ref, 1, *sq, budget, fall_pen)))
    n_full = run_search(grid, tiles, 1, r0, c0, budget, fall_pen)[3]
    assert n_full >= 60  # a search big enough to leave its chains well before its end
    for qlen in (2 * n_full + 2, n_full):  # chains end near 2/3 of the way; cap at half
        chained = (qlen - 1 - 2 * (budget + 1)) // 3  # as the kernel's ``lim``
        assert chained < min(n_full, qlen // 2)
        n_want, queue, dist, came = ref_queue_search(ref, 1, r0, c0, budget, fall_pen, qlen)
        bdist, bfrom, q, n = run_search(grid, tiles, 1, r0, c0, budget, fall_pen, qlen)
        assert n == n_want == min(n_full, qlen // 2)
        assert [(int(q[2 * i]), int(q[2 * i + 1])) for i in range(n)] == queue
        got = {(r, c): int(bdist[r, c]) for r in range(ROWS) for c in range(COLS)
               if bdist[r, c] >= 0}
        assert got == dist
        assert {sq: int(bfrom[sq]) for sq in got} == came


def test_a_negative_budget_reaches_only_the_start():
    # no level to expand: the start alone, and nothing written past the queue's end (the
    # queue is a view of a longer buffer whose tail must keep its marks)
    grid, tiles, mini = drawn_world(["..........", "##########"], top=10, left=20)
    size = ROWS * COLS * 4
    for budget in (-1, -3):
        buf = np.full(size + 16, -7, np.int32)
        buf[:size] = 0
        bdist = np.zeros((ROWS, COLS), np.int32)
        bfrom = np.zeros((ROWS, COLS), np.int32)
        q = buf[:size]
        n = bots._search_nb(grid, tiles, RES_DIG, 1, 10, 22, budget, 2, bdist, bfrom, q)
        assert n == 1 and (q[0], q[1]) == (10 * COLS + 22, 0)
        assert np.flatnonzero(bdist >= 0).tolist() == [10 * COLS + 22]
        assert (buf[size:] == -7).all()
