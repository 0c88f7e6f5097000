"""The bots' goal search against plain Python (hypothesis).

The search is Sub Terra's hottest kernel (over a quarter of a game's time): the bots price
each tile (``bots.fill_pass_costs_nb``) and ``core.paths.goal_routes_nb`` searches. A route
is priced by the tiles it enters: 1 a tile, more for a flooded, squeeze or buried one, more
for a horror's tile, and ROPE_STEPS more to cross an unroped ledge (or a slide against its
arrow) on the way. A slide's price depends on which way the route leaves it, so the kernel
is a label-correcting search whose result follows its queue order; the reference below is
that algorithm written with a deque and dicts, pricing the tiles from the cave itself.
Where no unroped ledge or slide lies in the cave the price of a route is a plain sum and a
textbook Dijkstra must give the same steps.
"""

from __future__ import annotations

import heapq
from collections import deque

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from test_subterra_horrors import build

from simlib.games.subterra import bots
from simlib.games.subterra.state import GFC, MAX_TILES, SCR, TFC, TILE


@st.composite
def searches(draw):
    """A random cave with ledges, slides, ropes, floods, rubble, horrors, and random goals.

    Tiles are packed tightly and mostly open, so that routes are long and cross ledges and
    slides often.
    """
    n = draw(st.integers(6, 30))
    cells = draw(st.lists(st.tuples(st.integers(-2, 3), st.integers(-2, 3)), min_size=n,
                          max_size=n, unique=True))
    masks = draw(st.lists(st.sampled_from([15, 15, 15, 7, 11, 13, 14, 5, 10]), min_size=n,
                          max_size=n))
    types = draw(st.lists(st.sampled_from([TILE.PLAIN, TILE.HORROR, TILE.WATER, TILE.SQUEEZE]),
                          min_size=n, max_size=n))
    horrors = draw(st.lists(st.integers(0, n - 1), max_size=3))
    cave = (cells, masks, types, [0], [3], [False], [1], horrors, -1)
    kinds = draw(st.lists(st.sampled_from([0, 0, 0, 1, 1, 2, 2, 3, 4, 5]), min_size=n,
                          max_size=n))
    arrows = draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    goals = draw(st.lists(st.sampled_from([-1, -1, -1, 0, 0, 1, 2, 4, 6]), min_size=n,
                          max_size=n))
    weights = draw(st.tuples(st.integers(1, 5), st.integers(1, 5), st.integers(1, 6)))
    return cave, kinds, arrows, goals, weights


def setup(search):
    cave, kinds, arrows, goals, weights = search
    tl, nb, grid, cv, hz, gs, scratch = build(cave)
    n = int(gs[GFC.N_TILES])
    for u, (k, a) in enumerate(zip(kinds, arrows, strict=True)):
        if k == 1:
            tl[u, TFC.TYPE] = TILE.LEDGE
        elif k == 2:
            tl[u, TFC.TYPE] = TILE.SLIDE
        elif k == 3:
            tl[u, TFC.TYPE] = TILE.LEDGE if a < 2 else TILE.SLIDE
            tl[u, TFC.ROPE] = 1
        elif k == 4:
            tl[u, TFC.FLOOD] = 1
        elif k == 5:
            tl[u, TFC.RUBBLE] = 1
        tl[u, TFC.ARROW] = a
    if all(g < 0 for g in goals):
        goals = [0] + list(goals[1:])
    return tl, nb, n, goals, weights


def side(tl, a, b):
    """Side of tile ``a`` that faces tile ``b`` (0 up, 1 right, 2 down, 3 left)."""
    dx = tl[b, TFC.X] - tl[a, TFC.X]
    dy = tl[b, TFC.Y] - tl[a, TFC.Y]
    return 0 if dy < 0 else (1 if dx > 0 else (2 if dy > 0 else 3))


def weight(tl, a, pa, w_swim, w_sq, w_dig):
    """Steps it costs to enter tile ``a`` on a route that goes on to ``pa`` (-1: none)."""
    if tl[a, TFC.RUBBLE]:
        w = w_dig
    elif tl[a, TFC.FLOOD]:
        w = w_swim
    elif tl[a, TFC.TYPE] == TILE.SQUEEZE:
        w = w_sq
    else:
        w = 1
    if tl[a, TFC.HORRORS] > 0:
        w += bots.HORROR_STEPS
    ty = tl[a, TFC.TYPE]
    if pa >= 0 and ty in (TILE.LEDGE, TILE.SLIDE) and tl[a, TFC.ROPE] == 0:
        if ty == TILE.LEDGE or side(tl, a, pa) != tl[a, TFC.ARROW]:
            w += bots.ROPE_STEPS
    return w


def ref_search(tl, nb, n, goals, w_swim, w_sq, w_dig):
    """The label-correcting search: a FIFO of tiles, each at most once in it."""
    dist = {u: g for u, g in enumerate(goals) if g >= 0}
    parent = {}
    queue = deque(u for u in range(n) if u in dist)
    queued = set(queue)
    while queue:
        a = queue.popleft()
        queued.discard(a)
        pa = parent.get(a, -1)
        nd = dist[a] + weight(tl, a, pa, w_swim, w_sq, w_dig)
        for d in range(4):
            v = int(nb[a, d])
            if v < 0 or v == pa:
                continue
            if v not in dist or nd < dist[v]:
                dist[v] = nd
                parent[v] = a
                if v not in queued:
                    queued.add(v)
                    queue.append(v)
    return dist, parent


def dijkstra(tl, nb, n, goals, w_swim, w_sq, w_dig):
    best = {u: g for u, g in enumerate(goals) if g >= 0}
    heap = [(g, u) for u, g in best.items()]
    heapq.heapify(heap)
    while heap:
        d, a = heapq.heappop(heap)
        if d != best[a]:
            continue
        nd = d + weight(tl, a, -1, w_swim, w_sq, w_dig)
        for k in range(4):
            v = int(nb[a, k])
            if v >= 0 and (v not in best or nd < best[v]):
                best[v] = nd
                heapq.heappush(heap, (nd, v))
    return best


def run_kernel(tl, nb, n, goals, weights):
    """The bots' search as a decision runs it: pass costs filled, then the core kernel."""
    scratch = np.zeros((SCR.N, MAX_TILES), np.int32)
    bots.fill_pass_costs_nb(tl, 0, n, *weights, scratch[SCR.PASS_COST], scratch[SCR.DETOUR],
                            scratch[SCR.DETOUR_SIDES])
    dist = np.full(MAX_TILES, -1, np.int32)
    dist[:n] = goals[:n]
    parent = np.zeros(MAX_TILES, np.int32)
    bots.goal_search_nb(nb, scratch, n, dist, parent)
    got = {u: int(dist[u]) for u in range(n) if dist[u] >= 0}
    par = {u: int(parent[u]) for u in range(n) if parent[u] >= 0}
    return got, par


@settings(max_examples=150, deadline=None)
@given(searches())
def test_goal_search_matches_reference(search):
    tl, nb, n, goals, weights = setup(search)
    got, par = run_kernel(tl, nb, n, goals, weights)
    want, want_par = ref_search(tl, nb, n, goals, *weights)
    assert got == want
    assert par == want_par


@settings(max_examples=150, deadline=None)
@given(searches())
def test_goal_search_is_shortest_without_crossings(search):
    tl, nb, n, goals, weights = setup(search)
    for u in range(n):  # no unroped ledge or slide: a route's price is a plain sum
        if tl[u, TFC.TYPE] in (TILE.LEDGE, TILE.SLIDE):
            tl[u, TFC.ROPE] = 1
    got, par = run_kernel(tl, nb, n, goals, weights)
    assert got == dijkstra(tl, nb, n, goals, *weights)
    for v, a in par.items():  # each tile's next step is on a cheapest route
        assert got[v] == got[a] + weight(tl, a, -1, *weights)


def test_goal_search_by_hand():
    # a row of four tiles, the goal at the east end; the second tile is flooded
    cave = ([(0, 0), (1, 0), (2, 0), (3, 0)], [15] * 4, [TILE.PLAIN] * 4, [0], [3], [False],
            [1], [], -1)
    tl, nb, grid, cv, hz, gs, scratch = build(cave)
    tl[1, TFC.FLOOD] = 1
    got, par = run_kernel(tl, nb, 4, [-1, -1, -1, 0], (3, 2, 4))
    assert got == {3: 0, 2: 1, 1: 2, 0: 5}  # entering the flooded tile costs w_swim = 3
    assert par == {2: 3, 1: 2, 0: 1}


@settings(max_examples=100, deadline=None)
@given(searches(), st.integers(0, 30))
def test_pass_costs_filled_in_two_parts_are_the_whole(search, split):
    # the bots fill only the tiles laid since (``bots.kept_pass_costs_nb``): each tile's
    # costs are its own
    tl, nb, n, goals, weights = setup(search)
    k = min(split, n)
    whole = np.zeros((SCR.N, MAX_TILES), np.int32)
    parts = np.full((SCR.N, MAX_TILES), -5, np.int32)
    rows = (SCR.PASS_COST, SCR.DETOUR, SCR.DETOUR_SIDES)
    bots.fill_pass_costs_nb(tl, 0, n, *weights, *(whole[r] for r in rows))
    bots.fill_pass_costs_nb(tl, 0, k, *weights, *(parts[r] for r in rows))
    assert (parts[SCR.PASS_COST, k:] == -5).all()
    bots.fill_pass_costs_nb(tl, k, n, *weights, *(parts[r] for r in rows))
    for r in rows:
        np.testing.assert_array_equal(parts[r, :n], whole[r, :n])
