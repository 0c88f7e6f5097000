"""Terraria enemy movement: rule scenarios and a plain-Python reference (hypothesis).

Checklist ids (``shared/rules/terraria-checklist.md``) are cited beside each rule tested. The
reference plans with the movement reference ``terraria_helpers.Ref`` (its step rules and
surfaces) and its own flying rules, by layers of a breadth-first search over sets.
"""

from __future__ import annotations

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from terraria_helpers import COLS, ROWS, H, Ref, W, buffers, drawn_world, generated

from simlib.games.terraria.engine import enemy as en
from simlib.games.terraria.engine import movement as mv
from simlib.games.terraria.engine import sight
from simlib.games.terraria.state import FEAT, KIND, PC, SQ, TP, P

CH, WALK, FLY, WORM = KIND.CHARACTER, KIND.WALKER, KIND.FLYER, KIND.WORM
TOP, LEFT = 6, 30
SOLID = (SQ.BLOCK, SQ.HALF)


def no_memo():
    """An empty line-of-sight memo (``sight.sees_memo_nb``): each call asks afresh."""
    return np.full((1, 4), -1, dtype=np.int32)


class Board:
    def __init__(self, rows, top=TOP, left=LEFT, known=True):
        self.grid, self.tiles, self.mini = drawn_world(rows, top, left, known)
        self.pieces, self.falls, self.disc, self.tally = buffers()
        self.scratch = en.alloc_scratch(ROWS, COLS)
        self.top, self.left = top, left

    def put(self, k, kind, i, j):
        return mv.place_piece_nb(
            self.grid, self.tiles, self.mini, self.pieces, k, kind,
            self.top + i, self.left + j, self.falls, self.disc, self.tally,
        )  # fmt: skip

    def where(self, k):
        return (int(self.pieces[k, PC.ROW]) - self.top, int(self.pieces[k, PC.COL]) - self.left)

    def move(self, k, movement):
        dist, how, queue, path = self.scratch
        return en.move_enemy_nb(
            self.grid, self.tiles, self.mini, self.pieces, k, movement, dist, how, queue, path,
            self.falls, self.disc, self.tally, no_memo(), 0,
        )  # fmt: skip

    def plan(self, k, target, steps):
        dist, how, queue, _ = self.scratch
        return tuple(
            int(v)
            for v in en.plan_nb(
                self.grid, self.tiles, self.pieces, k, target, steps, dist, how, queue
            )
        )


# --- plain-Python reference -------------------------------------------------------------------
def ref_plan(board, k, target, steps):
    ref = Ref(board.grid, board.tiles, board.mini, board.pieces)
    kind, r0, c0 = ref.pieces[k][:3]
    ref.unstand(k)
    tr, tc = ref.pieces[target][1:3]

    def ok(r, c, dr, dc):
        nr, nc = r + dr, c + dc
        if not ref.on_table(nr, nc) or ref.feat[nr][nc] & FEAT.HOUSE:
            return False  # TR-244
        if kind == WALK:
            return ref.step_ok(r, c, dr, dc)  # TR-325
        if kind == WORM:  # TR-328: through blocks, at most one open square in a row
            return ref.sq[nr][nc] in SOLID or ref.sq[r][c] in SOLID
        if (dr, dc) == (0, 0) or ref.sq[nr][nc] == SQ.BLOCK:
            return False
        if dr == -1 and ref.sq[nr][nc] == SQ.HALF:
            return False
        if dr and dc:
            x, y = c + (dc > 0), r + (dr > 0)
            if ref.touches(nr, c, x, y) and ref.touches(r, nc, x, y):
                return False
        return True

    def land(r, c):
        while kind == WALK and not ref.on_surface(r, c):  # TR-326; flyers never fall (TR-327)
            r += 1
        return r

    seen = {(r0, c0): 0}
    frontier = [(r0, c0)]
    for d in range(1, steps + 1):
        nxt = []
        for r, c in frontier:
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    if ok(r, c, dr, dc):
                        sq = (land(r + dr, c + dc), c + dc)
                        if sq not in seen:
                            seen[sq] = d
                            nxt.append(sq)
        frontier = nxt
    best = min(
        (max(abs(r - tr), abs(c - tc)), (r - tr) ** 2 + (c - tc) ** 2, d, r, c)
        for (r, c), d in seen.items()
        if (r, c) not in ref.standing  # TR-119: ends only in an empty square
        and (kind != WORM or ref.sq[r][c] in SOLID or ref.on_surface(r, c))  # TR-329
    )
    return best[3], best[4], best[2]


# --- scenarios --------------------------------------------------------------------------------
GROUND = "#" * 12


def test_a_walker_walks_then_falls_off_a_ledge_without_choosing_to_stop():  # TR-325, TR-326
    b = Board(["............", "####........", "####........", "############"])
    assert b.put(0, WALK, 0, 1)
    assert b.put(1, CH, 2, 7)
    assert sight.sees_nb(b.grid, b.tiles, TOP, LEFT + 1, TOP + 2, LEFT + 7)
    assert b.move(0, 4) == 4
    # step right to (0,2), (0,3), then off the ledge to (0,4), which drops to (2,4), then (2,5)
    assert b.where(0) == (2, 5)
    assert b.tally[mv.T.FALLS] == 1
    assert tuple(b.falls[0]) == (0, 2, 0)  # a 2-square fall (no damage roll for enemies)


def test_a_flyer_crosses_a_pit_and_stays_in_the_air():  # TR-327
    b = Board(["............", "............", "##.......###", "##.......###", GROUND])
    assert b.put(0, FLY, 1, 1)
    assert b.put(1, CH, 1, 10)
    assert b.plan(0, 1, 5) == (TOP + 1, LEFT + 6, 5)
    assert b.move(0, 5) == 5
    assert b.where(0) == (1, 6)
    assert not mv.supported_nb(b.grid, b.tiles, TOP + 1, LEFT + 6)  # hanging in the air


def test_an_enemy_stops_as_close_as_it_can_leaving_movement_unused():  # TR-323, TR-119
    b = Board(["............", GROUND])
    assert b.put(0, WALK, 0, 2)
    assert b.put(1, CH, 0, 5)
    assert b.move(0, 6) == 2
    assert b.where(0) == (0, 4)  # beside the character; it cannot end in its square


def test_how_far_an_enemy_moves():  # TR-319, TR-320, TR-321
    wall = ["...#........", "...#........", "...#........", "...#........", GROUND]
    b = Board(wall, top=0, left=0)  # inside tile (0, 0) and (0, 1) (tiles are 6 wide)
    assert b.put(0, WALK, 3, 1)
    assert b.put(1, CH, 3, 5)
    assert not sight.sees_nb(b.grid, b.tiles, 3, 1, 3, 5)
    # TR-319: no sight, character on the orthogonally adjacent tile: 1 square
    assert en.moves_allowed_nb(b.grid, b.tiles, b.pieces, 0, 4, no_memo(), 0) == 1
    # movement 0 never moves
    assert en.moves_allowed_nb(b.grid, b.tiles, b.pieces, 0, 0, no_memo(), 0) == 0
    b.grid[P.SQ, 0:4, 3] = SQ.AIR
    # TR-320: it sees
    assert en.moves_allowed_nb(b.grid, b.tiles, b.pieces, 0, 4, no_memo(), 0) == 4
    # TR-321: no sight and the character two tiles away: it stays
    b2 = Board(["." * 17 + "#", GROUND + "######"], top=3, left=0)
    b2.grid[P.SQ, 0:5, 17] = SQ.BLOCK
    assert b2.put(0, WALK, 0, 1)
    assert b2.put(1, CH, 0, 12 + 6)  # tile column 3
    assert not sight.sees_nb(b2.grid, b2.tiles, 3, 1, 3, 18)
    assert en.moves_allowed_nb(b2.grid, b2.tiles, b2.pieces, 0, 4, no_memo(), 0) == 0
    assert b2.move(0, 4) == 0 and b2.where(0) == (0, 1)


def ref_moves_allowed(grid, tiles, pieces, k, movement):
    """Plain-Python TR-319..321: squares enemy ``k`` may move (sight asked of ``sees_nb``)."""
    if movement < 1:
        return 0
    r, c = int(pieces[k, PC.ROW]), int(pieces[k, PC.COL])
    chars = []
    for j in range(pieces.shape[0]):
        if pieces[j, PC.KIND] != CH:
            continue
        cr, cc = int(pieces[j, PC.ROW]), int(pieces[j, PC.COL])
        if tiles[TP.KNOWN, cr // H, cc // W] and grid[P.FEAT, cr, cc] & FEAT.HOUSE:
            continue  # TR-244, TR-245: inside a house
        chars.append((cr, cc))
    if any(sight.sees_nb(grid, tiles, r, c, cr, cc) for cr, cc in chars):
        return movement  # TR-320
    if any(abs(cr // H - r // H) + abs(cc // W - c // W) <= 1 for cr, cc in chars):
        return 1  # TR-319
    return 0  # TR-321


@settings(max_examples=500, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    e=st.tuples(st.integers(0, ROWS - 1), st.integers(0, COLS - 1)),
    offsets=st.lists(
        st.tuples(
            st.one_of(st.integers(-2 * H - 1, 2 * H + 1), st.sampled_from([-2 * H + 1, 2 * H - 1])),
            st.one_of(st.integers(-2 * W - 1, 2 * W + 1), st.sampled_from([-2 * W + 1, 2 * W - 1])),
        ),
        min_size=1, max_size=3,
    ),
    houses=st.integers(0, 3),
    movement=st.integers(0, 4),
)
def test_moves_allowed_matches_the_reference(seed, e, offsets, houses, movement):
    # TR-319..321, characters up to a square beyond two tiles away: the kernel skips the
    # tile test for a character two tile heights or widths away (a guard off by one, or
    # one that skipped a nearer character, fails here)
    grid, tiles, _ = generated(seed, 0, reveal_all=True)
    pieces = buffers()[0]
    pieces[0, PC.KIND], pieces[0, PC.ROW], pieces[0, PC.COL] = FLY, e[0], e[1]
    for i, (dr, dc) in enumerate(offsets):
        r = min(max(e[0] + dr, 0), ROWS - 1)
        c = min(max(e[1] + dc, 0), COLS - 1)
        pieces[i + 1, PC.KIND], pieces[i + 1, PC.ROW], pieces[i + 1, PC.COL] = CH, r, c
        if i < houses:
            grid[P.FEAT, r, c] |= FEAT.HOUSE
    got = en.moves_allowed_nb(grid, tiles, pieces, 0, movement, no_memo(), 0)
    assert got == ref_moves_allowed(grid, tiles, pieces, 0, movement)


def test_a_tie_between_characters_goes_to_the_lowest_index():  # TR-322
    b = Board(["............", GROUND])
    assert b.put(0, FLY, 0, 5)
    assert b.put(1, CH, 0, 2)
    assert b.put(2, CH, 0, 8)
    assert en.nearest_character_nb(b.grid, b.tiles, b.pieces, 0) == 1
    assert b.move(0, 3) == 2 and b.where(0) == (0, 3)


def test_a_character_inside_a_house_is_no_enemys_target():  # TR-244, TR-245
    b = Board(["............", GROUND])
    assert b.put(0, FLY, 0, 5)
    assert b.put(1, CH, 0, 4)  # beside the enemy, but it goes into a house
    assert b.put(2, CH, 0, 10)
    b.grid[P.FEAT, TOP, LEFT + 3 : LEFT + 5] |= FEAT.HOUSE
    assert en.nearest_character_nb(b.grid, b.tiles, b.pieces, 0) == 2
    assert b.move(0, 3) == 3 and b.where(0) == (0, 8)  # off after the one outside
    b.grid[P.OCC, TOP, LEFT + 10] = 0  # character 2 leaves the world
    b.pieces[2, PC.KIND] = 0
    assert en.nearest_character_nb(b.grid, b.tiles, b.pieces, 0) == -1
    # the one left is hidden: it draws no move (neither sight nor its tile, TR-319)
    assert en.moves_allowed_nb(b.grid, b.tiles, b.pieces, 0, 4, no_memo(), 0) == 0
    assert b.move(0, 3) == 0 and b.where(0) == (0, 8)
    b.grid[P.FEAT, TOP, LEFT + 3 : LEFT + 5] = 0  # without the house it comes back
    assert en.nearest_character_nb(b.grid, b.tiles, b.pieces, 0) == 1
    assert b.move(0, 3) == 3 and b.where(0) == (0, 5)


def test_enemies_never_enter_a_house():  # TR-244
    b = Board(["............", GROUND])
    b.grid[P.FEAT, TOP, LEFT + 3 : LEFT + 5] |= FEAT.HOUSE  # one square tall: seen over
    assert b.put(0, FLY, 0, 1)
    assert b.put(1, CH, 0, 8)
    assert b.move(0, 2) == 2
    assert b.where(0) == (-1, 3)  # not (0, 3), the house square, which would be nearer
    b.grid[P.FEAT, TOP, LEFT + 3 : LEFT + 5] = 0
    b.grid[P.OCC, TOP - 1, LEFT + 3] = 0
    b.pieces[0, PC.ROW], b.pieces[0, PC.COL] = TOP, LEFT + 1
    b.grid[P.OCC, TOP, LEFT + 1] = 1
    assert b.move(0, 2) == 2 and b.where(0) == (0, 3)  # without the house


def test_enemy_moves_discover_nothing():  # TR-148
    b = Board(["." * 12, GROUND], top=3, left=0)
    assert b.put(0, WALK, 0, 4)
    assert b.put(1, CH, 0, 10)
    assert b.move(0, 4) == 4 and b.where(0) == (0, 8)  # crosses into tile column 1
    assert b.tally[mv.T.DISCOVERED] == 0


def test_a_worm_burrows_through_blocks_and_ends_in_one_or_on_a_surface():  # TR-328, TR-329
    b = Board(["............", "............", "############", "############"])
    assert b.put(0, WORM, 1, 1)
    assert b.put(1, CH, 1, 8)
    # on the ground it may not slither along open air (2 open squares in a row) ...
    assert b.plan(0, 1, 1) == (TOP + 2, LEFT + 2, 1)  # ... so it dives into the ground
    assert b.move(0, 6) == 6
    assert b.where(0) == (1, 7)  # under the ground for 5 steps, up beside the character
    assert b.tally[mv.T.FALLS] == 0


def burrowed(row1):
    """A worm inside the left end of a 1-high band of blocks (row 1), a character on it."""
    b = Board(["............", row1, "............", "............", GROUND])
    b.pieces[0, :4] = (WORM, TOP + 1, LEFT + 1, 0)
    b.grid[P.OCC, TOP + 1, LEFT + 1] = 1
    assert b.put(1, CH, 0, 10)
    return b


def test_a_worm_crosses_a_one_square_gap_but_not_a_wider_one():  # TR-328, TR-329
    b = burrowed("####.#######")
    assert b.move(0, 6) == 6
    assert b.where(0) == (0, 7)  # through the gap at column 4, out on top of the band
    b = burrowed("####..######")
    r, c, s = b.plan(0, 1, 6)
    # it cannot cross two open squares, nor end in the air over the gap: it waits on the
    # band's near end, as close as it can get
    assert (r - TOP, c - LEFT) == (0, 3)
    assert b.move(0, 6) == s and b.where(0) == (0, 3)


# --- the kernel against the reference ---------------------------------------------------------
@settings(max_examples=150, deadline=None)
@given(
    cells=st.lists(st.sampled_from("......#/=H"), min_size=8 * 12, max_size=8 * 12),
    kind=st.sampled_from([WALK, FLY, WORM]),
    spots=st.lists(st.tuples(st.integers(0, 7), st.integers(0, 11)), min_size=3, max_size=3),
    steps=st.integers(1, 6),
)
def test_plan_and_move_match_the_reference(cells, kind, spots, steps):  # TR-323, TR-326..329
    rows = ["".join(cells[i * 12 : (i + 1) * 12]).replace("H", ".") for i in range(8)]
    b = Board(rows + [GROUND])
    for i, ch in enumerate(cells):
        if ch == "H":
            b.grid[P.FEAT, TOP + i // 12, LEFT + i % 12] |= FEAT.HOUSE
    assume(b.put(0, kind, *spots[0]))
    assume(b.put(1, CH, *spots[1]))
    assume(b.put(2, CH, *spots[2]))
    target = en.nearest_character_nb(b.grid, b.tiles, b.pieces, 0)
    outside = [k for k in (1, 2) if not b.grid[P.FEAT, b.pieces[k, PC.ROW], b.pieces[k, PC.COL]]
               & FEAT.HOUSE]  # TR-244, TR-245: characters inside houses are no targets
    near = {k: max(abs(int(b.pieces[k, PC.ROW]) - int(b.pieces[0, PC.ROW])),
                   abs(int(b.pieces[k, PC.COL]) - int(b.pieces[0, PC.COL]))) for k in outside}
    assert target == (min(outside, key=lambda k: (near[k], k)) if outside else -1)
    if target < 0:
        assert b.move(0, steps) == 0
        return
    want = ref_plan(b, 0, target, steps)
    got = b.plan(0, target, steps)
    assert (got[0], got[1], got[2]) == want
    assert b.grid[P.OCC, b.pieces[0, PC.ROW], b.pieces[0, PC.COL]] == 1  # plan restores OCC
    # carrying the plan out ends where planned when nothing is stacked on the enemy
    if b.grid[P.OCC, b.pieces[0, PC.ROW] - 1, b.pieces[0, PC.COL]] == 0:
        allowed = en.moves_allowed_nb(b.grid, b.tiles, b.pieces, 0, steps, no_memo(), 0)
        want2 = ref_plan(b, 0, target, allowed) if allowed else None
        taken = b.move(0, steps)
        if want2 is None:
            assert taken == 0
        else:
            assert taken == want2[2]
            assert (int(b.pieces[0, PC.ROW]), int(b.pieces[0, PC.COL])) == want2[:2]
