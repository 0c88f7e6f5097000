"""Sub Terra game state: array layouts, constants and the geometry queries rules share.

A game's state is a handful of int arrays allocated once per game (see :func:`alloc_nb`):

- ``tl`` int32 (MAX_TILES, TF.N): one row per placed tile (columns ``TF``).
- ``nb`` int32 (MAX_TILES, 4): the connected neighbour through each side, ``-1`` if none.
- ``grid`` int32 (GRID * GRID,): tile index at each grid cell, ``-1`` when empty.
- ``cv`` int32 (MAX_CAVERS, CF.N): one row per caver seat (columns ``CF``).
- ``hz`` int32 (MAX_HORRORS,): the tile of each horror piece, ``-1`` when in the supply.
- ``gs`` int64 (GF.N,): the round, stack and deck positions, flags and the tallies.
- ``stack`` int32 (STACK_MAX, 3): the tile stack (type, shape mask, cave-in faces).
- ``deck`` int32 (DECK_MAX,): hazard card ids, the Out of Time card is not stored.
- ``scratch`` int32 (SC.N, MAX_TILES): search distance / parent / queue rows and bot scratch.

Sides are numbered N=0, E=1, S=2, W=3; a tile's open sides are a 4-bit mask.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from simlib.core.jit import njit

MAX_TILES = 72  # start + 64 cave tiles + exit, with room for designer-sized stacks
STACK_MAX = 70
DECK_MAX = 64
MAX_CAVERS = 8
MAX_HORRORS = 3  # rulebook: "at most three horrors in the cave"
HORROR_RANGE = 7  # rulebook: "within seven steps"
GRID = 2 * MAX_TILES + 3
CENTER = MAX_TILES + 1
MAX_ROUNDS = 200  # safety cap; every game ends long before (Out of Time removes cavers)


class Compiled(NamedTuple):
    """The compiled settings ``params`` the kernels read (``compile.compile_settings``)."""

    cfg: np.ndarray  # int64 (CFG.N,): the scalar settings, slots ``Cfg``
    stack_base: np.ndarray  # int32 (n, 3): the cave tiles: type, shape mask, cave-in faces
    pool: np.ndarray  # int32 (m,): ids of the hazard cards the difficulty keeps
    cards: np.ndarray  # int32 (30, 2): per card id: hazard type, severe (0/1)
    effects: np.ndarray  # int32 (2, EF.N): effect row for plain (0) and severe (1) cards
    boards: np.ndarray  # int32 (8, 5): per board: rank, health, ability, its cost and value
    team: np.ndarray  # int32 (n_cavers,): board of each seat, or all -1 for a random team
    # float64 (5, 2): pool cards by hazard type and severe (0/1), the bots' public
    # knowledge of the deck, counted once
    pool_counts: np.ndarray
    tile_mix: np.ndarray  # int64 (11,): cave tiles in the printed stack by tile type


class Cfg(NamedTuple):
    """Slots of the scalar settings ``params.cfg``."""

    CAVERS: int = 0
    DECK: int = 1
    EXIT_DEPTH: int = 2  # the exit is shuffled into the bottom EXIT_DEPTH tiles of the stack
    OOT_RULE: int = 3  # 0 = as the card says (default), 1 = as the rule text says
    START_SHAPE: int = 4
    EXIT_SHAPE: int = 5
    EXPLOSIVES: int = 6
    ROPES: int = 7
    START_SEAT: int = 8  # -1 = random starting caver (ST-044)
    CHECK: int = 9
    HORROR_ORDER: int = 10  # 0 = slot order, 1 = the starting caver's choice (ST-203)
    N: int = 11


CFG = Cfg()


class Tile(NamedTuple):
    """Tile types (column ``TF.TYPE``)."""

    START: int = 0
    EXIT: int = 1
    PLAIN: int = 2
    WATER: int = 3
    GAS: int = 4
    CAVE_IN: int = 5
    HORROR: int = 6
    SQUEEZE: int = 7
    LEDGE: int = 8
    SLIDE: int = 9
    ROUGH: int = 10


TILE = Tile()
TILE_NAMES = ("start", "exit", "plain", "water", "gas", "cave_in", "horror", "squeeze",
              "ledge", "slide", "rough")
N_TILE_TYPES = len(TILE_NAMES)


class Shape(NamedTuple):
    """Open-side masks of the five shapes at rotation 0 (N=1, E=2, S=4, W=8)."""

    CROSS: int = 0b1111
    T: int = 0b0111
    STRAIGHT: int = 0b0101
    CORNER: int = 0b0011
    DEAD_END: int = 0b0001


SHAPE = Shape()
SHAPE_NAMES = ("cross", "t", "straight", "corner", "dead_end")


class TF(NamedTuple):
    """Columns of the tile table ``tl``."""

    TYPE: int = 0
    X: int = 1
    Y: int = 2
    OPEN: int = 3  # open-side mask after rotation and explosives
    BLAST: int = 4  # sides carrying an explosives token
    FLOOD: int = 5
    RUBBLE: int = 6
    ROPE: int = 7
    FACES: int = 8  # cave-in die faces as bits 1..6
    ARROW: int = 9  # ledge/slide: side the arrow points to (away from the revealer)
    HORRORS: int = 10  # horror pieces on the tile
    FREE: int = 11  # sides facing an empty grid cell (revealable if also open)
    N: int = 12


TFC = TF()


class CF(NamedTuple):
    """Columns of the caver table ``cv``."""

    BOARD: int = 0
    RANK: int = 1
    HP: int = 2
    MAXHP: int = 3
    TILE: int = 4
    SIDE: int = 5  # on a ledge/slide: the side entered by (-1 elsewhere)
    REMOVED: int = 6
    HIDDEN: int = 7
    ABILITY: int = 8
    AB_COST: int = 9
    AB_VALUE: int = 10
    LEAVE: int = 11  # round the caver left play (-1 still in play)
    N: int = 12


CFC = CF()


class Ability(NamedTuple):
    """Caver ability kinds (column ``CF.ABILITY``)."""

    NONE: int = 0
    EXPLOSIVES: int = 1
    EXTRA_HEAL: int = 2
    CHEAP_MOVE: int = 3
    CHEAP_RUN: int = 4
    CHEAP_HEAL: int = 5
    CHEAP_SWIM: int = 6
    CHEAP_SQUEEZE: int = 7
    CHEAP_DIG: int = 8
    CHEAP_ROPE: int = 9
    CHEAP_HIDE: int = 10


ABILITY = Ability()
ABILITY_NAMES = ("none", "explosives", "extra_heal", "cheap_move", "cheap_run", "cheap_heal",
                 "cheap_swim", "cheap_squeeze", "cheap_dig", "cheap_rope", "cheap_hide")


class Action(NamedTuple):
    """Action codes chosen by bots and carried out by the engine."""

    END: int = 0
    REVEAL: int = 1
    MOVE: int = 2
    EXPLORE: int = 3
    RUN: int = 4
    HEAL: int = 5
    SWIM: int = 6
    SQUEEZE: int = 7
    DIG: int = 8
    ROPE: int = 9
    HIDE: int = 10
    EXPLOSIVES: int = 11


ACTION = Action()
# Rulebook, Action Phase: Reveal/Move/Explore 1 point, Run/Heal/Swim/Squeeze/Dig/Place
# Rope/Hide 2 points; the Engineer's explosives cost is the board's ability_cost.
BASE_COST = np.array([0, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2], dtype=np.int64)
# ability kind -> the action it cheapens
CHEAPENS = np.array([-1, -1, -1, 2, 4, 5, 6, 7, 8, 9, 10], dtype=np.int64)


class Hazard(NamedTuple):
    """Hazard card types."""

    TREMOR: int = 0
    FLOOD: int = 1
    GAS: int = 2
    CAVE_IN: int = 3
    HORROR: int = 4


HAZARD = Hazard()
HAZARD_NAMES = ("tremor", "flood", "gas", "cave_in", "horror")


class EF(NamedTuple):
    """Columns of a hazard effect row (plain or severe)."""

    TREMOR_DAMAGE: int = 0
    FLOOD_DAMAGE: int = 1
    GAS_DAMAGE: int = 2
    GAS_ENTRY_DAMAGE: int = 3
    CAVE_IN_ROLLS: int = 4
    CAVE_IN_DAMAGE: int = 5
    HORROR_STEPS: int = 6
    HORROR_SPAWNS: int = 7
    N: int = 8


EFC = EF()
EFFECT_NAMES = ("tremor_damage", "flood_damage", "gas_damage", "gas_entry_damage",
                "cave_in_rolls", "cave_in_damage", "horror_steps", "horror_spawns")


class GF(NamedTuple):
    """Slots of the global state vector ``gs``."""

    N_TILES: int = 0
    STACK_POS: int = 1
    STACK_N: int = 2
    DECK_POS: int = 3
    DECK_N: int = 4
    ROUND: int = 5
    GAS_ACTIVE: int = 6  # entry damage while a Gas card is in force, else 0
    OUT_OF_TIME: int = 7
    START: int = 8  # seat holding the starting-caver marker
    N_CAVERS: int = 9
    EXIT_TILE: int = 10
    EXPLOSIVES_LEFT: int = 11
    ROPES_LEFT: int = 12
    EXIT_ROUND: int = 13
    FRONTIER: int = 14  # open sides facing an empty grid cell
    N_HORRORS: int = 15
    OVER: int = 16
    N_FLOODED: int = 17
    N_RUBBLE: int = 18
    DMG_TREMOR: int = 19
    DMG_FLOOD: int = 20
    DMG_GAS: int = 21
    DMG_CAVE_IN: int = 22
    DMG_HORROR: int = 23
    DMG_EXERT: int = 24
    DMG_ROUGH: int = 25
    DMG_OUT_OF_TIME: int = 26
    HORROR_KOS: int = 27
    KNOCKOUTS: int = 28
    EXERTIONS: int = 29
    OOT_REMOVED: int = 30
    HEALS: int = 31
    DIGS: int = 32
    ROPES_PLACED: int = 33
    HIDES: int = 34
    DISCARDS: int = 35
    MAX_HORRORS_SEEN: int = 36
    EXPLOSIVES_USED: int = 37
    SEVERE_DRAWN: int = 38
    HORRORS_SPAWNED: int = 39
    VIOLATIONS: int = 40  # invariant breaches seen when checking is on (tests)
    CHECK: int = 41  # 1 = check invariants after every step
    ACTIONS: int = 42  # 12 slots: actions taken, by action code
    LAID: int = 54  # 11 slots: tiles laid, by tile type
    PHASE: int = 65  # where the game stands (engine.PH_*): a game can stop and go on
    TURN_K: int = 66  # the action phase: the turn of the K-th caver from the marker
    TURN_AP: int = 67  # action points left in the turn being played
    TURN_EXERTED: int = 68  # 1 once the caver has exerted this turn
    TURN_ITER: int = 69  # decisions asked for in this turn (at most 12)
    HORROR_ORDER: int = 70  # 0 = slot order, 1 = the starting caver orders them (ST-203)
    N: int = 71


GFC = GF()

# Damage causes -> the tally slot they add to.
CAUSE_TREMOR = GFC.DMG_TREMOR
CAUSE_FLOOD = GFC.DMG_FLOOD
CAUSE_GAS = GFC.DMG_GAS
CAUSE_CAVE_IN = GFC.DMG_CAVE_IN
CAUSE_HORROR = GFC.DMG_HORROR
CAUSE_EXERT = GFC.DMG_EXERT
CAUSE_ROUGH = GFC.DMG_ROUGH
CAUSE_OUT_OF_TIME = GFC.DMG_OUT_OF_TIME


class SC(NamedTuple):
    """Rows of the scratch array."""

    DIST: int = 0
    PARENT: int = 1
    QUEUE: int = 2
    HDIST: int = 3  # distance to the nearest horror
    DIST2: int = 4
    PARENT2: int = 5
    BLOCKED: int = 6
    PATH: int = 7
    KEYS: int = 8  # keys of the searches the bots keep (see bots.goal_searches_nb)
    EXIT_DIST: int = 9  # steps to the exit, kept
    EXIT_PARENT: int = 10
    FBUF: int = 11  # rows 11..16 seen as a (3, MAX_TILES) float64 buffer (bots.decide_nb)
    # route steps through each tile, and the rope detours (bots.fill_pass_costs_nb)
    PASS_COST: int = 17
    DETOUR: int = 18
    DETOUR_SIDES: int = 19
    N: int = 20


SCR = SC()

DX = np.array([0, 1, 0, -1], dtype=np.int64)
DY = np.array([-1, 0, 1, 0], dtype=np.int64)


@njit(refcount=False)
def opp_nb(d):
    """The side facing side ``d`` on the neighbouring tile."""
    return (d + 2) & 3


@njit(refcount=False)
def rotate_mask_nb(mask, r):
    """Rotate a 4-bit open-side mask clockwise by ``r`` quarter turns."""
    r = r & 3
    return ((mask << r) | (mask >> (4 - r))) & 15


@njit(refcount=False)
def cell_of_nb(x, y):
    """Grid cell index of (x, y)."""
    return y * GRID + x


@njit(refcount=False)
def neighbour_cell_nb(tl, t, d):
    """Grid cell beside tile ``t`` through side ``d``."""
    return cell_of_nb(tl[t, TFC.X] + DX[d], tl[t, TFC.Y] + DY[d])


def alloc():
    """Allocate one game's state arrays (Python helper for tests; kernels use alloc_nb)."""
    return alloc_nb()


@njit
def alloc_nb():
    """Allocate one game's state arrays: ``(tl, nb, grid, cv, hz, gs, stack, deck, scratch)``.

    ``grid`` starts empty (all -1); everything else is reset by the engine's setup.
    """
    tl = np.zeros((MAX_TILES, TFC.N), np.int32)
    nb = np.full((MAX_TILES, 4), -1, np.int32)
    grid = np.full(GRID * GRID, -1, np.int32)
    cv = np.zeros((MAX_CAVERS, CFC.N), np.int32)
    hz = np.full(MAX_HORRORS, -1, np.int32)
    gs = np.zeros(GFC.N, np.int64)
    stack = np.zeros((STACK_MAX, 3), np.int32)
    deck = np.zeros(DECK_MAX, np.int32)
    scratch = np.zeros((SCR.N, MAX_TILES), np.int32)
    return tl, nb, grid, cv, hz, gs, stack, deck, scratch


@njit(refcount=False)
def is_victim_nb(cv, gs, c):
    """Can caver ``c`` be chosen as a horror's closest victim (ST-191..193)?"""
    return (
        c < gs[GFC.N_CAVERS]
        and cv[c, CFC.REMOVED] == 0
        and cv[c, CFC.HP] > 0
        and cv[c, CFC.HIDDEN] == 0
        and cv[c, CFC.TILE] != gs[GFC.EXIT_TILE]
    )


@njit(refcount=False)
def side_to_nb(tl, a, b):
    """The side of tile ``a`` that faces orthogonal neighbour ``b`` (-1 if not adjacent)."""
    dx = tl[b, TFC.X] - tl[a, TFC.X]
    dy = tl[b, TFC.Y] - tl[a, TFC.Y]
    for d in range(4):
        if DX[d] == dx and DY[d] == dy:
            return d
    return -1


@njit(refcount=False)
def can_leave_nb(tl, cv, c, d):
    """May caver ``c`` leave their tile through side ``d`` (walls, ledges, slides)?

    A ledge may not be crossed without a rope; a slide may be crossed only along its
    arrow without one (ST-163, ST-168). A caver on such a tile stands on the side they
    entered by and may always leave that way (ST-170); every movement obeys this (ST-171).
    """
    t = cv[c, CFC.TILE]
    if (tl[t, TFC.OPEN] >> d) & 1 == 0:
        return False
    ty = tl[t, TFC.TYPE]
    if ty != TILE.LEDGE and ty != TILE.SLIDE:
        return True
    side = cv[c, CFC.SIDE]
    if side < 0 or d == side or tl[t, TFC.ROPE] != 0:
        return True
    if ty == TILE.SLIDE and d == tl[t, TFC.ARROW]:
        return True  # crossing along the arrow
    return False


@njit(refcount=False)
def needs_rope_nb(tl, cv, c, d):
    """Would leaving through open side ``d`` cross an unroped ledge or slide the wrong way?"""
    t = cv[c, CFC.TILE]
    return (tl[t, TFC.OPEN] >> d) & 1 == 1 and not can_leave_nb(tl, cv, c, d)


@njit(refcount=False)
def action_cost_nb(cv, c, action):
    """Action points caver ``c`` pays for ``action`` (board abilities may cheapen one)."""
    ab = cv[c, CFC.ABILITY]
    if action == ACTION.EXPLOSIVES:
        return cv[c, CFC.AB_COST]
    if ab > 0 and CHEAPENS[ab] == action:
        return cv[c, CFC.AB_COST]
    return BASE_COST[action]
