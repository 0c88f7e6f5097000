"""Hand-made Sub Terra caves for the rule tests.

A :class:`Cave` owns one game's state arrays (``state.alloc_nb``) with no tile laid, lets a
test lay tiles at grid offsets from ``state.CENTER``, seat cavers with chosen rank, health
and tile, place horrors, stack tiles and hazard cards, and call the engine's helpers.

Skill checks are forced with :func:`rng_for`: it searches generator states
``new_state(SEED, i)`` until the next skill checks come out as asked.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np

from simlib.core.jit import njit
from simlib.core.rng import new_state, seed_state_nb, skill_check_nb
from simlib.games.registry import get_game
from simlib.games.subterra import bots, engine, search, state
from simlib.games.subterra.state import (
    ABILITY,
    CENTER,
    CFC,
    GFC,
    MAX_CAVERS,
    MAX_HORRORS,
    TFC,
    TILE,
)

GAME = get_game("subterra")
N, E, S, W = 0, 1, 2, 3
SEED = 20240611


def mask(*sides: int) -> int:
    """Open-side mask with the given sides open."""
    m = 0
    for d in sides:
        m |= 1 << d
    return m


ALL = mask(N, E, S, W)
BOT = GAME.bot("explorer")
BOT_ID = BOT.id
# Bot parameters only pass through the engine helpers used here (tile rotation, horror
# path and spawn tie-breaks); no test depends on their values.
BP = np.array(list(BOT.params.values()), dtype=np.float64)


@functools.lru_cache(maxsize=64)
def compiled(preset: str = "normal", **overrides) -> tuple:
    """The kernel's ``params`` tuple for ``preset`` with setting ``overrides`` (cached:
    callers must not write to it)."""
    return GAME.compile(GAME.resolve(preset, overrides))


def rng_for(*outcomes: bool, seed: int = SEED) -> np.ndarray:
    """A generator state whose next skill checks give ``outcomes`` (True = success)."""
    for i in range(100_000):
        rng = new_state(seed, i)
        probe = rng.copy()
        if all(bool(skill_check_nb(probe)) == want for want in outcomes):
            return rng
    raise AssertionError(f"no generator state gives {outcomes}")  # pragma: no cover


class Cave:
    """One game's state arrays, empty, with helpers to build a scenario by hand."""

    def __init__(self, n_cavers: int = 4, params: tuple | None = None):
        (self.tl, self.nb, self.grid, self.cv, self.hz, self.gs, self.stack, self.deck,
         self.scratch) = state.alloc_nb()
        self.params = compiled() if params is None else params
        gs = self.gs
        gs[GFC.N_CAVERS] = n_cavers
        gs[GFC.EXIT_TILE] = -1
        gs[GFC.EXIT_ROUND] = -1
        gs[GFC.ROPES_LEFT] = 6
        gs[GFC.EXPLOSIVES_LEFT] = 3
        for c in range(MAX_CAVERS):
            self.cv[c, :] = 0
            self.cv[c, CFC.REMOVED] = 1
            self.cv[c, CFC.LEAVE] = -2
            self.cv[c, CFC.SIDE] = -1

    # --- building -------------------------------------------------------------------
    def tile(self, x: int, y: int, ty: int = TILE.PLAIN, open_mask: int = ALL,
             faces: Sequence[int] = (), arrow: int = -1) -> int:
        """Lay a tile at offset (x, y) from the centre; return its index."""
        f = 0
        for v in faces:
            f |= 1 << v
        return int(engine.place_tile_nb(self.tl, self.nb, self.grid, self.gs, CENTER + x,
                                        CENTER + y, ty, open_mask, f, arrow))

    def exit(self, x: int, y: int, open_mask: int = ALL) -> int:
        """Lay the exit tile at (x, y) and record it as the exit."""
        t = self.tile(x, y, TILE.EXIT, open_mask)
        self.gs[GFC.EXIT_TILE] = t
        return t

    def caver(self, c: int, tile: int, hp: int = 3, maxhp: int = 3, rank: int | None = None,
              ability: int = ABILITY.NONE, ab_cost: int = 0, ab_value: int = 0,
              side: int = -1) -> int:
        """Seat caver ``c`` on ``tile`` (rank defaults to ``c + 1``)."""
        cv = self.cv
        cv[c, :] = 0
        cv[c, CFC.BOARD] = c
        cv[c, CFC.RANK] = c + 1 if rank is None else rank
        cv[c, CFC.HP] = hp
        cv[c, CFC.MAXHP] = maxhp
        cv[c, CFC.TILE] = tile
        cv[c, CFC.SIDE] = side
        cv[c, CFC.ABILITY] = ability
        cv[c, CFC.AB_COST] = ab_cost
        cv[c, CFC.AB_VALUE] = ab_value
        cv[c, CFC.LEAVE] = -1
        return c

    def horror(self, tile: int) -> int:
        """Put a horror piece on ``tile``; return its slot."""
        for h in range(MAX_HORRORS):
            if self.hz[h] < 0:
                self.hz[h] = tile
                self.tl[tile, TFC.HORRORS] += 1
                self.gs[GFC.N_HORRORS] += 1
                return h
        raise AssertionError("all horror pieces are in the cave")

    def set_stack(self, rows: Sequence[tuple[int, int, int]]) -> None:
        """Stack tiles, top first: rows ``(type, open mask, cave-in face bits)``."""
        for k, row in enumerate(rows):
            self.stack[k, :] = row
        self.gs[GFC.STACK_POS] = 0
        self.gs[GFC.STACK_N] = len(rows)

    def set_deck(self, cards: Sequence[int]) -> None:
        """Hazard deck, top first (card ids into ``params[3]``); Out of Time is implied."""
        for k, card in enumerate(cards):
            self.deck[k] = card
        self.gs[GFC.DECK_POS] = 0
        self.gs[GFC.DECK_N] = len(cards)

    # --- queries --------------------------------------------------------------------
    def hp(self, c: int) -> int:
        return int(self.cv[c, CFC.HP])

    def at(self, c: int) -> int:
        return int(self.cv[c, CFC.TILE])

    def at_xy(self, x: int, y: int) -> int:
        """Index of the tile at offset (x, y), -1 if none."""
        return int(self.grid[state.cell_of_nb(CENTER + x, CENTER + y)])

    def true_frontier(self) -> int:
        """Open sides facing an empty cell, counted from scratch."""
        f = 0
        for t in range(int(self.gs[GFC.N_TILES])):
            for d in range(4):
                if (self.tl[t, TFC.OPEN] >> d) & 1 and \
                        self.grid[state.neighbour_cell_nb(self.tl, t, d)] < 0:
                    f += 1
        return f

    def snapshot(self) -> tuple[np.ndarray, ...]:
        return tuple(a.copy() for a in (self.tl, self.nb, self.grid, self.cv, self.hz,
                                         self.gs))

    # --- engine calls ---------------------------------------------------------------
    def act(self, c: int, action: int, arg: int = 0, rng: np.ndarray | None = None) -> bool:
        """``engine.do_action_nb`` for caver ``c``."""
        rng = new_state(SEED, 0) if rng is None else rng
        return bool(engine.do_action_nb(self.tl, self.nb, self.grid, self.cv, self.hz, self.gs,
                                        self.stack, self.scratch, self.params, c, action, arg,
                                        BOT_ID, BP, rng))

    def reveal(self, c: int, d: int, rng: np.ndarray | None = None) -> int:
        """``engine.reveal_nb`` for caver ``c`` through side ``d``; the new tile or -1."""
        rng = new_state(SEED, 0) if rng is None else rng
        return int(engine.reveal_nb(self.tl, self.nb, self.grid, self.cv, self.hz, self.gs,
                                    self.stack, self.scratch, self.params, c, d, BOT_ID, BP,
                                    rng))

    def move_horrors(self) -> None:
        engine.move_all_horrors_nb(self.tl, self.nb, self.cv, self.hz, self.gs, self.scratch,
                                   BOT_ID, BP)

    def move_horror(self, h: int) -> None:
        engine.move_horror_nb(self.tl, self.nb, self.cv, self.hz, self.gs, self.scratch, h,
                              BOT_ID, BP)

    def spawn(self) -> int:
        return int(engine.spawn_horror_nb(self.tl, self.nb, self.cv, self.hz, self.gs,
                                          self.scratch, BOT_ID, BP))

    def closest_victim(self, tile: int) -> tuple[int, int]:
        v, d = engine.closest_victim_nb(self.tl, self.nb, self.cv, self.gs, self.scratch, tile)
        return int(v), int(d)

    def resolve(self, card: int, rng: np.ndarray | None = None) -> None:
        """Resolve hazard card id ``card`` with ``engine.resolve_card_nb``."""
        rng = new_state(SEED, 0) if rng is None else rng
        engine.resolve_card_nb(self.tl, self.nb, self.cv, self.hz, self.gs, self.scratch,
                               self.params, card, BOT_ID, BP, rng)

    def hazard_phase(self, rng: np.ndarray | None = None) -> None:
        rng = new_state(SEED, 0) if rng is None else rng
        engine.hazard_phase_nb(self.tl, self.nb, self.cv, self.hz, self.gs, self.deck,
                               self.scratch, self.params, BOT_ID, BP, rng)

    def take_turn(self, c: int, rng: np.ndarray | None = None) -> None:
        rng = new_state(SEED, 0) if rng is None else rng
        engine.take_turn_nb(self.tl, self.nb, self.grid, self.cv, self.hz, self.gs,
                            self.stack, self.scratch, self.params, c, BOT_ID, BP, rng)

    def game_over(self) -> bool:
        return bool(engine.game_over_nb(self.cv, self.gs))

    def record(self, game_index: int = 0) -> np.void:
        rec = np.zeros(1, dtype=engine.record_dt)
        engine.write_record_nb(self.tl, self.cv, self.gs, rec[0], game_index)
        return rec[0]


def card_id(params: tuple, kind: int, severe: bool = False) -> int:
    """The id of a hazard card of ``kind`` (``state.HAZARD``) and severity in ``params``."""
    cards = params[3]
    for i in range(cards.shape[0]):
        if cards[i, 0] == kind and cards[i, 1] == int(severe):
            return i
    raise AssertionError(f"no card of kind {kind}, severe={severe}")


@njit
def play_split_nb(params, seed, game_index, stop_at, out):
    """Play a game with ``explorer``, copying it at decision ``stop_at`` and going on twice.

    The game is played through ``engine.advance_nb`` stopping at every decision (as the
    search bot plays). Before decision ``stop_at`` the state and the generator state are
    copied (``engine.copy_state_nb``); the original goes on decision by decision, the copy
    with ``engine.play_rounds_nb``. ``out[0]`` gets the original's record, ``out[1]`` the
    copy's. Returns ``(split, grid_ok)``: the decision copied at (-1 when the game ended
    before it) and whether ``engine.undo_grid_nb`` restored the copy's grid to the
    original's at the split.
    """
    tl, nb, grid, cv, hz, gs, stack, deck, scratch = state.alloc_nb()
    tl2, nb2, grid2, cv2, hz2, gs2, stack2, deck2, scratch2 = state.alloc_nb()
    grid0 = grid.copy()
    rng = np.zeros(4, np.uint64)
    rng2 = np.zeros(4, np.uint64)
    seed_state_nb(seed, game_index, rng)
    bots.forget_nb(scratch)
    engine.setup_nb(tl, nb, grid, cv, hz, gs, stack, deck, params, rng)
    bp = search.SCRIPTED_BP[0]
    k = 0
    split = -1
    n0 = 0
    while engine.advance_nb(tl, nb, grid, cv, hz, gs, stack, deck, scratch, params, 0, bp,
                            rng, True):
        if k == stop_at:
            engine.copy_state_nb(tl, nb, grid, cv, hz, gs, stack, deck, scratch, tl2, nb2,
                                 grid2, cv2, hz2, gs2, stack2, deck2, scratch2, True)
            for j in range(4):
                rng2[j] = rng[j]
            grid0[:] = grid
            n0 = gs[GFC.N_TILES]
            split = k
        c = engine.turn_caver_nb(gs)
        a, g, w = bots.decide_nb(tl, nb, grid, cv, hz, gs, scratch, params, c,
                                 gs[GFC.TURN_AP], gs[GFC.TURN_EXERTED] != 0, 0, bp)
        engine.decide_act_nb(tl, nb, grid, cv, hz, gs, stack, scratch, params, a, g, w, 0,
                             bp, rng)
        k += 1
    engine.write_record_nb(tl, cv, gs, out[0], game_index)
    grid_ok = True
    if split >= 0:
        engine.play_rounds_nb(tl2, nb2, grid2, cv2, hz2, gs2, stack2, deck2, scratch2,
                              params, 0, bp, rng2)
        engine.write_record_nb(tl2, cv2, gs2, out[1], game_index)
        engine.undo_grid_nb(tl2, grid2, gs2, n0)
        grid_ok = np.array_equal(grid2, grid0)
    return split, grid_ok
