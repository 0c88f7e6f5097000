"""Terraria movement with gravity, falls and fall damage, stacks, rope, platforms, digging and
chopping: rule scenarios, a plain-Python reference (hypothesis) and exact fall odds.

Checklist ids (``shared/rules/terraria-checklist.md``) are cited beside each rule tested.
Worlds are drawn by hand with ``drawn_world`` (row 10 of the world is used as "ground").
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from terraria_helpers import (
    PLAT_POS,
    RES_DIG,
    ROWS,
    Ref,
    buffers,
    drawn_world,
    generated,
)

from simlib.core.dice import fall_damage_probability
from simlib.core.rng import new_state, randint_nb
from simlib.games.terraria.engine import movement as mv
from simlib.games.terraria.state import FEAT, KIND, PC, SQ, TP, P

CH, WALK, FLY = KIND.CHARACTER, KIND.WALKER, KIND.FLYER


class Board:
    """A hand-drawn world with its buffers, and shorthand for the kernels."""

    def __init__(self, rows, top=6, left=30, known=True):
        self.grid, self.tiles, self.mini = drawn_world(rows, top, left, known)
        self.pieces, self.falls, self.disc, self.tally = buffers()
        self.top, self.left = top, left

    def at(self, i, j):
        return self.top + i, self.left + j

    def put(self, k, kind, i, j):
        r, c = self.at(i, j)
        return mv.place_piece_nb(
            self.grid,
            self.tiles,
            self.mini,
            self.pieces,
            k,
            kind,
            r,
            c,
            self.falls,
            self.disc,
            self.tally,
        )

    def step(self, k, dr, dc):
        return mv.step_nb(
            self.grid,
            self.tiles,
            self.mini,
            self.pieces,
            k,
            dr,
            dc,
            self.falls,
            self.disc,
            self.tally,
        )

    def where(self, k):
        return (int(self.pieces[k, PC.ROW]) - self.top, int(self.pieces[k, PC.COL]) - self.left)

    def fall_events(self):
        return [tuple(int(v) for v in f) for f in self.falls[: self.tally[mv.T.FALLS]]]


# --- steps ------------------------------------------------------------------------------------
def test_walking_on_flat_ground_costs_one_step_per_square():
    # TR-113 one action point = one step to an adjacent square; TR-114 sideways
    b = Board(["......", "......", "######"])
    assert b.put(0, CH, 1, 1)
    assert b.step(0, 0, 1) and b.where(0) == (1, 2)
    assert b.step(0, 0, -1) and b.where(0) == (1, 1)
    assert b.tally[mv.T.SQUARES] == 2 and b.tally[mv.T.FALLS] == 0


def test_no_straight_down_step_and_no_standing_still():
    # TR-115: no paid straight-down step
    b = Board(["......", "......", "######"])
    b.put(0, CH, 0, 1)
    assert b.where(0) == (1, 1)  # placed in the air: it falls to the ground
    b.step(0, -1, 0)  # up into the air and back down
    assert not mv.can_step_nb(b.grid, b.tiles, *b.at(1, 1), 1, 0)
    assert not mv.can_step_nb(b.grid, b.tiles, *b.at(1, 1), 0, 0)


def test_step_up_a_one_block_ledge_diagonally():
    # TR-114 diagonal steps; TR-116 the step ends on the top of a block
    b = Board(["......", "..#...", "######"])
    b.put(0, CH, 1, 1)
    assert b.step(0, -1, 1) and b.where(0) == (0, 2)
    assert b.tally[mv.T.FALLS] == 0


def test_blocks_cannot_be_entered():
    # TR-122: no piece enters a full block
    b = Board(["......", "..#...", "######"])
    b.put(0, CH, 1, 1)
    assert not b.step(0, 0, 1)
    assert b.where(0) == (1, 1) and b.tally[mv.T.SQUARES] == 0


def test_stepping_over_a_gap_falls():
    # TR-116 / TR-125: a step not ending on a surface falls straight down, for free
    b = Board(["......", ".#....", "......", "......", "......", "######"])
    b.put(0, CH, 0, 1)  # stands on the shelf
    assert b.where(0) == (0, 1) and b.tally[mv.T.FALLS] == 0
    assert b.step(0, 0, 1)
    assert b.where(0) == (4, 2)
    assert b.fall_events() == [(0, 4, 0)]
    assert b.tally[mv.T.SQUARES] == 1  # the fall is free


def test_half_block_is_a_ramp_and_can_be_stood_in():
    # TR-117: the slope of a half block is walked like a ramp; a half-block square is stood in
    b = Board(["......", "......", "../#..", "######"])
    b.put(0, CH, 2, 1)
    assert b.step(0, 0, 1) and b.where(0) == (2, 2)  # into the half block, no fall
    assert mv.supported_nb(b.grid, b.tiles, *b.at(2, 2))
    assert b.step(0, -1, 1) and b.where(0) == (1, 3)  # up the ramp onto the next level
    assert b.tally[mv.T.FALLS] == 0
    # the slope holds a piece up by itself: a half block with open air under it
    d = Board(["......", "../...", ".#....", "......", "######"])
    d.put(0, CH, 1, 1)  # on the block at (2, 1)
    assert mv.supported_nb(d.grid, d.tiles, *d.at(1, 2))
    assert d.step(0, 0, 1) and d.where(0) == (1, 2)  # into the half block: it does not fall
    assert d.tally[mv.T.FALLS] == 0 and not mv.supported_nb(d.grid, d.tiles, *d.at(2, 2))
    # (below it a piece would fall: the half block alone is the surface)
    # but never up into a half block through its solid lower half
    c = Board(["......", "../...", "......", "######"])
    c.put(0, CH, 2, 2)
    assert not mv.can_step_nb(c.grid, c.tiles, *c.at(2, 2), -1, 0)
    assert not mv.can_step_nb(c.grid, c.tiles, *c.at(2, 1), -1, 1)
    assert mv.can_step_nb(c.grid, c.tiles, *c.at(1, 1), 0, 1)  # level: onto the slope


def test_diagonal_between_touching_blocks_is_refused():
    # TR-118: a diagonal step between two blocks only if their surfaces do not touch
    b = Board(["......", "..#...", ".#....", "######"])
    # from (2, 2)... (2, 2) is air under the block at (1, 2) and beside (2, 1)
    b.put(0, CH, 2, 2)
    assert not b.step(0, -1, -1)  # between (1, 2) and (2, 1): they touch at the corner
    assert b.where(0) == (2, 2)
    # a half block below the corner does not touch it: (2, 1) a half block
    b.grid[P.SQ, b.top + 2, b.left + 1] = SQ.HALF
    assert mv.can_step_nb(b.grid, b.tiles, *b.at(2, 2), -1, -1)
    # but a half block above the corner does: (1, 2) half, (2, 1) full
    b.grid[P.SQ, b.top + 2, b.left + 1] = SQ.BLOCK
    b.grid[P.SQ, b.top + 1, b.left + 2] = SQ.HALF
    assert not mv.can_step_nb(b.grid, b.tiles, *b.at(2, 2), -1, -1)


def test_platforms_are_stepped_up_through_never_dropped_through():
    # TR-115 and TR-224: a platform is a surface; up through it, never down through it;
    # TR-120: a square holding a platform may be entered and ended in
    b = Board(["......", "..=...", "......", "######"])
    b.put(0, CH, 2, 2)
    assert b.step(0, -1, 0) and b.where(0) == (1, 2)  # now stands on the platform
    assert b.tally[mv.T.FALLS] == 0
    assert b.step(0, 0, 1) and b.where(0) == (2, 3)  # walked off its edge: falls 1
    assert b.fall_events() == [(0, 1, 0)]
    c = Board(["......", "...=..", "..#...", "######"])
    c.put(0, CH, 0, 2)  # stands on the block at (2, 2)
    assert c.where(0) == (1, 2)
    assert not c.step(0, 1, 1)  # would drop through the platform beside it
    assert c.step(0, 0, 1) and c.where(0) == (1, 3)  # walks onto it instead


def test_undiscovered_tiles_cannot_be_entered():
    # TR-036: only placed tiles exist on the table
    b = Board(["......", "######"], top=3, left=44)
    b.put(0, CH, 0, 3)  # column 47, the last of tile column 7
    b.tiles[TP.KNOWN, 0, 8] = 0  # columns 48..53 not on the table
    assert not b.step(0, 0, 1)
    # an enemy at the bottom of a placed tile whose lower neighbour is not placed stays put
    c = Board(["......"], top=4, left=42)
    c.tiles[TP.KNOWN, 1, 7] = 0
    assert c.put(1, WALK, 0, 1) and c.where(1) == (0, 1) and c.tally[mv.T.FALLS] == 0
    assert not c.put(2, WALK, 1, 1)  # nor is anything placed there


def test_pass_through_pieces_but_end_only_in_an_empty_square():
    # TR-119 end in an empty square; TR-121 pass through characters and enemies
    b = Board(["......", "######"])
    b.put(0, CH, 0, 0)
    b.put(1, WALK, 0, 1)
    assert b.step(0, 0, 1) and b.where(0) == (0, 1)
    assert not mv.can_end_nb(b.grid, b.pieces, 0)
    assert b.grid[P.OCC][b.at(0, 1)] == 2  # the square still belongs to the enemy
    assert b.step(0, 0, 1) and mv.can_end_nb(b.grid, b.pieces, 0)
    assert b.grid[P.OCC][b.at(0, 2)] == 1


# --- stacks -----------------------------------------------------------------------------------
def test_falling_onto_a_piece_forms_a_stack_and_it_collapses():
    # TR-123 / TR-136: a falling piece stops above another; TR-137: when the lower one moves
    # away the pieces above fall, flying enemies excepted
    b = Board([".....", ".....", ".....", ".....", "#####"])
    b.put(0, WALK, 3, 2)
    b.put(1, CH, 0, 2)
    assert b.where(1) == (2, 2)
    b.put(2, CH, 0, 2)
    assert b.where(2) == (1, 2)
    b.tally[:] = 0
    assert b.step(0, 0, 1)  # the bottom enemy walks away
    assert b.where(1) == (3, 2) and b.where(2) == (2, 2)
    assert b.fall_events() == [(1, 1, 0), (2, 1, 0)]
    # a flying enemy holds its place and what stands on it
    c = Board([".....", ".....", ".....", "#####"])
    c.put(0, WALK, 2, 2)
    c.put(1, FLY, 1, 2)
    c.put(2, CH, 0, 2)
    c.step(0, 0, 1)
    assert c.where(1) == (1, 2) and c.where(2) == (0, 2)


def test_removing_a_piece_drops_the_stack():
    # TR-126 / TR-137
    b = Board([".....", ".....", "#####"])
    b.put(0, WALK, 1, 1)
    b.put(1, CH, 0, 1)
    mv.remove_piece_nb(b.grid, b.tiles, b.mini, b.pieces, 0, b.falls, b.disc, b.tally)
    assert b.pieces[0, PC.KIND] == KIND.NONE and b.where(1) == (1, 1)


# --- falls and fall damage --------------------------------------------------------------------
def test_cobwebs_are_collected_moving_and_falling_and_stay():
    # TR-232 each move into or through a cobweb square collects one; TR-135 falling too
    b = Board(["..w...", ".#....", "..w...", "..w...", "######"])
    b.put(0, CH, 0, 1)  # stands on the shelf
    assert b.tally[mv.T.COBWEBS] == 0
    assert b.step(0, 0, 1)  # into the cobweb at (0, 2), then falls through (2, 2) to (3, 2)
    assert b.where(0) == (3, 2)
    assert b.tally[mv.T.COBWEBS] == 3
    assert b.fall_events() == [(0, 3, 1)]  # landed in a cobweb: TR-130
    assert b.grid[P.FEAT][b.at(2, 2)] & FEAT.COBWEB  # never used up


@pytest.mark.parametrize("mode_damage", [True, False])
def test_fall_damage_rules(mode_damage):
    # TR-127 a fall of 1 or less never rolls; TR-129 total <= squares loses 1 health;
    # TR-130 a cobweb landing never hurts; TR-435/TR-436 Journey and Lucky Horseshoe ignore
    # fall damage (mode_damage False)
    d4 = np.array([4], dtype=np.int64)
    state = new_state(1, 2)
    before = state.copy()
    assert mv.fall_hurts_nb(d4, 1, False, mode_damage, state) == 0
    assert mv.fall_hurts_nb(d4, 0, False, mode_damage, state) == 0
    np.testing.assert_array_equal(state, before)  # no dice rolled
    assert mv.fall_hurts_nb(d4, 50, True, mode_damage, state) == 0  # cobweb
    assert mv.fall_hurts_nb(d4, 4, False, mode_damage, state) == (1 if mode_damage else 0)
    # a d4 always totals <= 4: a 4-square fall always hurts in a standard game


@pytest.mark.parametrize(
    "dice, squares", [([4], 2), ([4], 3), ([6], 4), ([6, 4], 5), ([8, 8], 9), ([12], 2)]
)
def test_fall_damage_frequency_matches_exact_probability(dice, squares):
    # TR-128 / TR-129 against core.dice's exact probability; binomial test, false-alarm
    # rate 1e-4 per case (fixed seed, so the outcome is fixed)
    defense = np.array(dice, dtype=np.int64)
    state = new_state(2024, squares)
    n = 20000
    hits = sum(mv.fall_hurts_nb(defense, squares, False, True, state) for _ in range(n))
    p = fall_damage_probability(dice, squares)
    assert stats.binomtest(hits, n, p).pvalue > 1e-4


def test_walker_falls_are_reported_like_characters():
    # TR-126: enemies fall too; whether a fall hurts is decided only for characters by
    # fall_hurts_nb (TR-131: enemies never take fall damage -- the engine never rolls it)
    b = Board(["......", "......", "......", "######"])
    b.put(0, WALK, 0, 1)
    assert b.fall_events() == [(0, 2, 0)]
    assert b.tally[mv.T.COBWEBS] == 0


# --- discovery by movement --------------------------------------------------------------------
def test_entering_a_new_tile_by_a_step_discovers():
    # TR-144 every tile entered by a character; TR-148 enemies never discover
    grid, tiles, mini = generated(4, 0)
    pieces, falls, disc, tally = buffers()
    w = 6
    row = 2  # the ground of the starting Surface Forest tiles (data/world.toml)
    assert mv.place_piece_nb(grid, tiles, mini, pieces, 1, WALK, row, 8 * w, falls, disc, tally)
    assert mv.step_nb(grid, tiles, mini, pieces, 1, 0, -1, falls, disc, tally)
    assert tally[mv.T.DISCOVERED] == 0 and tiles[TP.KNOWN, 0, 6] == 0  # enemy: nothing
    mv.remove_piece_nb(grid, tiles, mini, pieces, 1, falls, disc, tally)
    assert mv.place_piece_nb(grid, tiles, mini, pieces, 0, CH, row, 8 * w, falls, disc, tally)
    assert mv.step_nb(grid, tiles, mini, pieces, 0, 0, -1, falls, disc, tally)
    found = sorted(tuple(int(v) for v in d) for d in disc[: tally[mv.T.DISCOVERED]])
    assert found == [(0, 6), (1, 7)]
    assert mini[1, 1] == 1


def test_falling_into_a_new_tile_discovers():
    # TR-144: by any means, a fall included; TR-180 digging beneath the digger drops it
    b = Board(["......", "######"], top=3, left=48)
    b.tiles[TP.KNOWN] = 0
    b.tiles[TP.KNOWN, 0, 8] = 1
    b.tiles[TP.KNOWN, 1, 8] = 1
    b.put(0, CH, 0, 1)
    spent, done, res = mv.dig_nb(
        b.grid, b.tiles, b.mini, b.pieces, 0, *b.at(1, 1), 1, RES_DIG, b.falls, b.disc, b.tally
    )
    assert (spent, done, res) == (1, 1, 0)
    assert b.pieces[0, PC.ROW] == ROWS - 1  # nothing below in this drawn world
    found = {tuple(int(v) for v in d) for d in b.disc[: b.tally[mv.T.DISCOVERED]]}
    # each tile fallen into discovers its neighbours: the layers below appear one by one
    assert {(2, 8), (3, 8), (4, 8), (1, 7), (1, 9), (4, 7), (4, 9)} <= found
    assert b.fall_events() == [(0, ROWS - 1 - 3, 0)]


# --- rope and platforms -----------------------------------------------------------------------
def test_rope_placement_climbing_and_letting_go():
    # TR-226 placed in an adjacent empty square; TR-227 hangs to the first solid block;
    # TR-120 squares holding a rope may be entered and ended in;
    # TR-228 1 action point per 2 squares; TR-231 an odd square costs a full point;
    # TR-229 stop partway; TR-230 let go and fall
    rows = ["......", "......", "......", "......", "......", "......", "######"]
    b = Board(rows, top=2)
    b.put(0, CH, 5, 1)
    assert not mv.place_rope_nb(b.grid, b.tiles, b.pieces, 0, *b.at(5, 3))  # not adjacent
    assert mv.place_rope_nb(b.grid, b.tiles, b.pieces, 0, *b.at(4, 2))
    assert not mv.place_rope_nb(b.grid, b.tiles, b.pieces, 0, *b.at(4, 2))  # one per square
    assert mv.rope_bottom_nb(b.grid, *b.at(4, 2)) == b.at(5, 2)[0]
    b.grid[P.FEAT][b.at(4, 2)] &= ~FEAT.ROPE
    b.grid[P.FEAT][b.at(0, 1)] |= FEAT.ROPE  # a rope hanging above the character instead
    r0, c0 = b.at(0, 1)
    assert (
        mv.rope_move_nb(
            b.grid, b.tiles, b.mini, b.pieces, 0, r0, c0, r0 + 2, b.falls, b.disc, b.tally
        )
        == 2
    )  # 3 squares: 2 action points
    assert b.where(0) == (2, 1) and b.pieces[0, PC.ROPE] == 1
    assert b.tally[mv.T.FALLS] == 0  # holding on
    assert (
        mv.rope_move_nb(b.grid, b.tiles, b.mini, b.pieces, 0, r0, c0, r0, b.falls, b.disc, b.tally)
        == 1
    )
    assert b.where(0) == (0, 1)
    n = mv.let_go_nb(b.grid, b.tiles, b.mini, b.pieces, 0, b.falls, b.disc, b.tally)
    assert n == 5 and b.where(0) == (5, 1) and b.fall_events() == [(0, 5, 0)]
    # not from outside the rope's column
    assert (
        mv.rope_move_nb(
            b.grid, b.tiles, b.mini, b.pieces, 0, r0, c0 + 1, r0, b.falls, b.disc, b.tally
        )
        == -1
    )


def test_platform_placement():
    # TR-222 one of the positions of the diagram (data); TR-223 never on the upper or lower
    # edge of a full block or the lower edge of a half block
    b = Board(["......", "......", "######"])
    b.put(0, CH, 1, 2)
    slots = {tuple(int(v) for v in p): i for i, p in enumerate(PLAT_POS)}
    # floor of its own square = the upper edge of the block below: refused
    assert not mv.can_place_platform_nb(b.grid, b.tiles, b.pieces, 0, PLAT_POS, slots[(0, 0)])
    # its ceiling: fine, then the character steps up onto it
    assert mv.place_platform_nb(b.grid, b.tiles, b.pieces, 0, PLAT_POS, slots[(-1, 0)])
    assert not mv.place_platform_nb(b.grid, b.tiles, b.pieces, 0, PLAT_POS, slots[(-1, 0)])
    assert b.step(0, -1, 0) and b.where(0) == (0, 2) and b.tally[mv.T.FALLS] == 0
    # beside a half block: not on its lower edge
    b.grid[P.SQ][b.at(0, 3)] = SQ.HALF
    assert not mv.can_place_platform_nb(b.grid, b.tiles, b.pieces, 0, PLAT_POS, slots[(0, 1)])
    b.grid[P.SQ][b.at(0, 1)] = SQ.BLOCK
    assert not mv.can_place_platform_nb(b.grid, b.tiles, b.pieces, 0, PLAT_POS, slots[(0, -1)])


# --- digging and chopping ---------------------------------------------------------------------
def test_digging_costs_tunnels_and_partial_progress():
    # TR-171 adjacent; TR-172 plain 1 dig; TR-173 copper 2, gold 3; TR-175 partial dig is
    # kept and anyone may finish it; TR-178 a dug block is a tunnel; TR-179 digging never
    # moves the digger; TR-181 / TR-182 dig spent in parts; TR-176 (open) partial dig
    # persists and the piece spending the final dig takes the yield; TR-120 a tunnel square
    # may be entered
    b = Board(["......", "......", "#cg#..", "######"])
    b.put(0, CH, 1, 1)
    b.put(1, CH, 1, 2)
    args = (b.grid, b.tiles, b.mini, b.pieces)
    tail = (RES_DIG, b.falls, b.disc, b.tally)
    assert mv.dig_nb(*args, 0, *b.at(2, 4), 1, *tail)[0] == -1  # air
    assert mv.dig_nb(*args, 0, *b.at(3, 4), 1, *tail)[0] == -1  # not adjacent
    cu = b.at(2, 1)
    assert mv.dig_nb(*args, 1, *cu, 1, *tail) == (1, 0, 0)  # half way through copper
    assert b.grid[P.PROG][cu] == 1
    spent, done, res = mv.dig_nb(*args, 0, *cu, 5, *tail)  # another player finishes it
    assert (spent, done) == (1, 1) and res > 0
    assert b.grid[P.SQ][cu] == SQ.AIR and b.grid[P.FEAT][cu] & FEAT.TUNNEL
    # the character stood on the copper: it fell into the tunnel (TR-180)
    assert b.where(0) == (2, 1) and b.fall_events() == [(0, 1, 0)]
    gold = b.at(2, 2)
    assert mv.dig_nb(*args, 0, *gold, 2, *tail) == (2, 0, 0)
    assert mv.dig_nb(*args, 0, *gold, 2, *tail)[:2] == (1, 1)  # 3 in all
    assert b.where(1) == (2, 2)  # the other character fell in too


def test_chopping_trees():
    # TR-162 adjacent to the chop square; TR-163 chop value = wood; TR-164 covered: no;
    # TR-166 an Acorn until sunrise; TR-167 partial chop kept; TR-168 chop spent in parts;
    # TR-082 sunrise clears them
    b = Board(["......", "..T...", "######"])
    b.put(0, CH, 1, 1)
    args = (b.grid, b.tiles, b.pieces)
    tree = b.at(1, 2)
    assert mv.chop_nb(*args, 0, *tree, 2) == (2, 0)
    assert mv.chop_nb(*args, 0, *tree, 5) == (1, 3)  # finished: 3 wood
    assert b.grid[P.FEAT][tree] & FEAT.ACORN
    assert mv.chop_nb(*args, 0, *tree, 1) == (-1, 0)
    mv.sunrise_trees_nb(b.grid)
    assert not b.grid[P.FEAT][tree] & FEAT.ACORN
    assert mv.chop_nb(*args, 0, *tree, 1) == (1, 0)
    b.put(1, WALK, 1, 2)  # an enemy token covers the chop square
    assert mv.chop_nb(*args, 0, *tree, 1) == (-1, 0)
    mv.sunrise_trees_nb(b.grid)
    assert b.grid[P.PROG][tree] == 0


# --- kernel vs reference ----------------------------------------------------------------------
ACTIONS = st.lists(
    st.tuples(
        st.integers(0, 5),
        st.integers(0, 3),
        st.integers(-1, 1),
        st.integers(-1, 1),
        st.integers(0, 5),
    ),
    min_size=1,
    max_size=80,
)


def test_reference_check_can_fail():
    # STYLE 8: the home-made comparison rejects a world that differs
    grid, tiles, mini = generated(1, 1)
    pieces, falls, disc, tally = buffers(2)
    ref = Ref(grid, tiles, mini, pieces)
    ref.check(grid, tiles, mini, pieces, falls, disc, tally)
    for change in ("square", "piece", "tally", "known"):
        g2, t2, p2, ta2 = grid.copy(), tiles.copy(), pieces.copy(), tally.copy()
        if change == "square":
            g2[P.SQ, 3, 3] = SQ.HALF if g2[P.SQ, 3, 3] != SQ.HALF else SQ.AIR
        elif change == "piece":
            p2[0, :4] = (CH, 2, 48, 0)
        elif change == "tally":
            ta2[0] = 1
        else:
            t2[TP.KNOWN, 4, 4] = 1
        with pytest.raises(AssertionError):
            ref.check(g2, t2, mini, p2, falls, disc, ta2)


@settings(max_examples=120, deadline=None)
@given(
    st.integers(0, 10_000),
    st.booleans(),
    st.lists(
        st.tuples(st.integers(0, 3), st.integers(0, 24), st.integers(30, 71)),
        min_size=1,
        max_size=5,
    ),
    ACTIONS,
)
def test_movement_kernels_match_reference(index, reveal, placements, actions):
    # Steps, falls, stacks, discovery, dig, chop, rope and platforms through random play on
    # random worlds; the rules are cited by the scenario tests above
    grid, tiles, mini = generated(77, index, reveal_all=reveal)
    pieces, falls, disc, tally = buffers(len(placements))
    ref = Ref(grid, tiles, mini, pieces)
    kinds = (CH, CH, WALK, FLY)
    for k, (kind_i, r, c) in enumerate(placements):
        if not reveal:
            r = min(r, 9)
            c = 42 + (c % 18)
        kind = kinds[kind_i]
        got = mv.place_piece_nb(grid, tiles, mini, pieces, k, kind, r, c, falls, disc, tally)
        assert got == ref.place(k, kind, r, c)
    ref.check(grid, tiles, mini, pieces, falls, disc, tally)
    n = len(placements)
    for kind_i, k, dr, dc, amount in actions:
        k = k % n
        tally[:] = 0
        ref.cobwebs = ref.squares = 0
        ref.falls, ref.disc = [], []
        if pieces[k, PC.KIND] == KIND.NONE:
            continue
        r, c = int(pieces[k, PC.ROW]), int(pieces[k, PC.COL])
        if kind_i <= 1:
            got = mv.step_nb(grid, tiles, mini, pieces, k, dr, dc, falls, disc, tally)
            assert got == ref.step(k, dr, dc)
        elif kind_i == 2:
            got = mv.dig_nb(
                grid, tiles, mini, pieces, k, r + dr, c + dc, amount, RES_DIG, falls, disc, tally
            )
            assert tuple(got) == ref.dig(k, r + dr, c + dc, amount)
        elif kind_i == 3:
            got = mv.chop_nb(grid, tiles, pieces, k, r + dr, c + dc, amount)
            assert tuple(got) == ref.chop(k, r + dr, c + dc, amount)
        elif kind_i == 4:
            if dr == 0 and dc == 0:
                got = mv.let_go_nb(grid, tiles, mini, pieces, k, falls, disc, tally)
                assert got == ref.let_go(k)
            elif dc != 0:
                got = mv.place_rope_nb(grid, tiles, pieces, k, r + dr, c + dc)
                assert got == ref.rope(k, r + dr, c + dc)
            else:
                # climb the rope hanging over this column (a rope just above is hung first)
                if r > 0:
                    got = mv.place_rope_nb(grid, tiles, pieces, k, r - 1, c)
                    assert got == ref.rope(k, r - 1, c)
                rr = r
                while rr >= 0 and not grid[P.FEAT, rr, c] & FEAT.ROPE:
                    rr -= 1
                if rr >= 0:
                    bottom = mv.rope_bottom_nb(grid, rr, c)
                    assert bottom == ref.rope_end(rr, c)
                    target = rr + amount % (bottom - rr + 1) if dr >= 0 else rr
                    got = mv.rope_move_nb(
                        grid, tiles, mini, pieces, k, rr, c, target, falls, disc, tally
                    )
                    assert got == ref.climb(k, rr, c, target)
        else:
            slot = amount % len(PLAT_POS)
            got = mv.place_platform_nb(grid, tiles, pieces, k, PLAT_POS, slot)
            assert got == ref.platform(k, slot)
        ref.check(grid, tiles, mini, pieces, falls, disc, tally)
        # invariants: pieces never inside a full block; a registered piece stands on a
        # surface unless it flies or holds a rope
        for j in range(n):
            if pieces[j, PC.KIND] == KIND.NONE:
                continue
            pr, pc = int(pieces[j, PC.ROW]), int(pieces[j, PC.COL])
            assert grid[P.SQ, pr, pc] != SQ.BLOCK
            if pieces[j, PC.KIND] != FLY and pieces[j, PC.ROPE] == 0:
                assert mv.supported_nb(grid, tiles, pr, pc)


def test_a_character_placed_on_a_tile_discovers_around_it():
    # TR-144: entering a tile by any means (respawn or placement included)
    grid, tiles, mini = generated(4, 1)
    pieces, falls, disc, tally = buffers()
    assert mv.place_piece_nb(grid, tiles, mini, pieces, 0, CH, 2, 9 * 6 + 2, falls, disc, tally)
    found = sorted(tuple(int(v) for v in d) for d in disc[: tally[mv.T.DISCOVERED]])
    assert found == [(0, 10), (1, 9)]
    assert mini[1, 2] == 1  # the inner-right minimap token


def test_adjacent_means_all_eight_neighbours():
    # TR-124 (open): diagonal neighbours are adjacent for digging, chopping and rope
    b = Board(["......", "....T.", "...#..", "######"])
    b.put(0, CH, 1, 2)
    args = (b.grid, b.tiles, b.mini, b.pieces)
    tail = (RES_DIG, b.falls, b.disc, b.tally)
    assert mv.dig_nb(*args, 0, *b.at(2, 3), 1, *tail)[:2] == (1, 1)  # diagonally below
    assert mv.chop_nb(b.grid, b.tiles, b.pieces, 0, *b.at(1, 4), 1) == (-1, 0)  # 2 away
    assert mv.step_nb(*args, 0, 0, 1, b.falls, b.disc, b.tally)
    assert mv.chop_nb(b.grid, b.tiles, b.pieces, 0, *b.at(1, 4), 1)[0] == 1
    assert b.where(0) == (2, 3)  # fell into the dug square
    assert mv.place_rope_nb(b.grid, b.tiles, b.pieces, 0, *b.at(1, 2))  # diagonally above


# --- setup squares and fall damage applied ----------------------------------------------------
def test_butterfly_squares_take_up_to_four_characters():
    # TR-053: characters start on the 4 butterfly squares of the central Surface Forest
    # tile, never two on one square
    grid, tiles, mini = generated(8, 3)
    out = np.zeros((8, 2), dtype=np.int16)
    n = mv.butterfly_squares_nb(grid, out)
    assert n == 4
    pieces, falls, disc, tally = buffers()
    for k in range(4):
        r, c = int(out[k, 0]), int(out[k, 1])
        assert 8 * 6 <= c < 9 * 6 and r < 5  # the central Surface Forest tile
        assert mv.place_piece_nb(grid, tiles, mini, pieces, k, CH, r, c, falls, disc, tally)
        assert (pieces[k, PC.ROW], pieces[k, PC.COL]) == (r, c)  # standing: no fall
    assert tally[mv.T.FALLS] == 0
    assert not mv.place_piece_nb(
        grid, tiles, mini, pieces, 4, CH, int(out[0, 0]), int(out[0, 1]), falls, disc, tally
    )


def ref_fall_damage(events, kinds, dice, health, on, state):
    """Plain-Python fall damage: the rulebook's Fall Damage paragraph, same stream."""
    health = list(health)
    counts = [0, 0, 0]
    for k, squares, web in events:
        if kinds[k] != CH:
            continue  # enemies do not take fall damage
        counts[0] += 1
        if health[k] <= 0 or not on or web or squares <= 1:
            continue
        total = sum(randint_nb(d, state) + 1 for d in dice[k])
        if total <= squares:
            health[k] -= 1
            counts[1] += 1
            counts[2] += health[k] == 0
    return health, counts


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 3), st.integers(1, 12), st.booleans()), max_size=12),
    st.lists(
        st.lists(st.sampled_from([4, 6, 8, 12]), min_size=1, max_size=3), min_size=3, max_size=3
    ),
    st.lists(st.integers(0, 3), min_size=3, max_size=3),
    st.booleans(),
    st.integers(0, 2**32),
)
def test_apply_fall_damage_matches_reference(events, dice, health, on, seed):
    # TR-127..TR-133 (TR-127, TR-128, TR-129, TR-130, TR-131, TR-132: health is the only
    # thing touched, TR-133: falls can bring a character to 0), TR-435/TR-436 (on=False)
    pieces = np.zeros((4, PC.N), dtype=np.int16)
    kinds = [CH, CH, CH, WALK]
    pieces[:, PC.KIND] = kinds
    falls = np.array([(k, s, int(w)) for k, s, w in events] or [(0, 0, 0)], dtype=np.int16)
    defense = np.zeros((4, 3), dtype=np.int64)
    n_def = np.zeros(4, dtype=np.int64)
    for k, dk in enumerate(dice):
        defense[k, : len(dk)] = dk
        n_def[k] = len(dk)
    hp = np.array(health + [2], dtype=np.int64)
    state = new_state(seed, 3)
    ref_state = state.copy()
    counts = np.zeros(3, dtype=np.int64)
    dead = mv.apply_fall_damage_nb(
        falls, len(events), pieces, defense, n_def, hp, on, state, counts
    )
    ref_hp, ref_counts = ref_fall_damage(events, kinds, dice + [[4]], health + [2], on, ref_state)
    assert hp.tolist() == ref_hp and counts.tolist() == ref_counts
    assert dead == ref_counts[2]
    np.testing.assert_array_equal(state, ref_state)
    assert hp[3] == 2  # the walking enemy is never hurt
    if not on:
        assert hp.tolist()[:3] == health
