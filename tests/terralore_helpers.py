"""Hand-made Terralore boards for the rule tests.

A :class:`Board` owns one game's state (``state.alloc_nb``) reset with both decks in list
order and full castles, and lets a test take cards off the top of a seat's deck into the
hand, the lanes, the trap row, the landmark slot or the graveyard, *as any card of the
pool* (the instance keeps its place in the accounting, only its card changes), then call
the engine's helpers and read the result back by card name.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from simlib.core.rng import new_state
from simlib.games.registry import get_game
from simlib.games.terralore import compile as tl_compile
from simlib.games.terralore import engine
from simlib.games.terralore.state import (
    AMT_AT,
    BONUS_AT,
    CFC,
    DECK,
    DECK_AT,
    GRAVE_AT,
    GS,
    HAND_AT,
    HID_AT,
    HMAX,
    INST_AT,
    LANE_AT,
    LMAX,
    PS,
    PTS_AT,
    TMAX,
    TRAP_AT,
    ZONE,
    ZONE_AT,
    alloc_nb,
    field_points_nb,
    lane_total_nb,
)

GAME = get_game("terralore")
# The rule tests name cards and rely on their printed values: they read a frozen pool, not
# the illustrative defaults, which move when they are recalibrated.
POOL = str(Path(__file__).parent / "data" / "terralore_rules_pool.toml")
DATA = tl_compile.load_data(POOL)
NAMES = tl_compile.card_names(DATA)
BOTS = {b.name: b for b in GAME.bots}


def cid(name: str) -> int:
    """Card id of ``name`` in the rule tests' pool (``POOL``)."""
    return NAMES.index(name)


def bot_params(name: str = "value", **over) -> np.ndarray:
    """Parameter vector of bot ``name`` with ``over`` changed."""
    p = dict(BOTS[name].params)
    p.update(over)
    return np.array(list(p.values()), dtype=np.float64)


PASSIVE = bot_params("value", min_score=1e9)  # a bot that never plays a card


class Board:
    """One game's state, set up by hand."""

    def __init__(self, **settings):
        settings.setdefault("data", POOL)
        self.values = GAME.resolve(None, settings)
        self.params = GAME.compile(self.values)[0]
        self.cfg, self.cards = self.params[0], self.params[1]
        self.S, self.gs, self.played = alloc_nb()
        engine.reset_nb(self.S, self.gs, self.played, self.params)
        self.gs[GS.TURN] = 2
        self.pay = np.zeros(HMAX, np.int32)
        self.ctx = np.zeros(16, np.float64)

    # --- building -------------------------------------------------------------------------
    def _fresh(self, s: int, name: str | None) -> int:
        S = self.S
        top = S[s, PS.DECK_TOP]
        assert top < DECK, "no card left in the deck to take"
        i = int(S[s, DECK_AT + top])
        S[s, PS.DECK_TOP] = top + 1
        if name is not None:
            self.set_card(s, i, name)
        return i

    def set_card(self, s: int, i: int, name: str) -> None:
        """Make instance ``i`` of seat ``s`` the card ``name`` (printed values)."""
        c = cid(name)
        self.S[s, INST_AT + i] = c
        self.S[s, PTS_AT + i] = self.cards[c, CFC.POINTS]
        self.S[s, AMT_AT + i] = self.cards[c, CFC.AMOUNT]

    def hand(self, s: int, *names: str) -> list[int]:
        """Put cards into seat ``s``'s hand (no hand limit check); returns the instances."""
        out = []
        for name in names:
            i = self._fresh(s, name)
            n = self.S[s, PS.HAND_N]
            self.S[s, HAND_AT + n] = i
            self.S[s, PS.HAND_N] = n + 1
            self.S[s, ZONE_AT + i] = ZONE.HAND
            out.append(i)
        return out

    def creature(self, s: int, p: int, name: str, face_down: bool = False,
                 bonus: int = 0) -> int:
        """Put a creature on the field in seat ``s``'s lane ``p``."""
        i = self._fresh(s, name)
        k = engine.put_creature_nb(self.S, s, p, i, face_down)
        self.S[s, BONUS_AT + p * LMAX + k] = bonus
        return i

    def trap(self, s: int, p: int, name: str) -> int:
        """Set a face-down trap of seat ``s`` in lane ``p``."""
        i = self._fresh(s, name)
        t = self.S[s, PS.TRAP_N + p]
        self.S[s, TRAP_AT + p * TMAX + t] = i
        self.S[s, PS.TRAP_N + p] = t + 1
        self.S[s, ZONE_AT + i] = ZONE.TRAP
        return i

    def landmark(self, s: int, p: int, name: str) -> int:
        """Give seat ``s`` a standing landmark in lane ``p``."""
        i = self._fresh(s, name)
        self.S[s, PS.LANDMARK] = i
        self.S[s, PS.LM_LANE] = p
        self.S[s, ZONE_AT + i] = ZONE.LANDMARK
        return i

    def deck_left(self, s: int, n: int) -> None:
        """Leave only ``n`` cards in seat ``s``'s deck (the others go to the graveyard)."""
        while DECK - self.S[s, PS.DECK_TOP] > n:
            engine.to_grave_nb(self.S, s, self._fresh(s, None))

    def next_draws(self, s: int, *names: str) -> None:
        """Make the next cards seat ``s`` draws be ``names``, in order."""
        top = self.S[s, PS.DECK_TOP]
        for j, name in enumerate(names):
            self.set_card(s, int(self.S[s, DECK_AT + top + j]), name)

    def hp(self, s: int, v: int | None = None) -> int:
        if v is not None:
            self.S[s, PS.HP] = v
        return int(self.S[s, PS.HP])

    # --- acting ---------------------------------------------------------------------------
    def place(self, s: int, i: int, p: int, pay=(), victim: int = -1) -> None:
        """Seat ``s`` plays hand instance ``i`` into lane ``p`` paying with ``pay``."""
        pay = np.array(list(pay) + [0] * (HMAX - len(pay)), dtype=np.int32)
        n = int(self.cards[self.S[s, INST_AT + i], CFC.COST])
        engine.place_card_nb(self.S, self.played, self.cards, self.cfg, s, i, p, pay, n,
                             victim)

    def reveal(self, rng: np.ndarray | None = None) -> int:
        rng = new_state(1, 0) if rng is None else rng
        return engine.reveal_phase_nb(self.S, self.gs, self.cards, self.cfg, rng)

    def count(self, opener: int = 0) -> None:
        engine.counting_phase_nb(self.S, self.cards, self.cfg, opener)

    def play_phase(self, s: int, bp: np.ndarray, bot: int = 2) -> None:
        engine.play_phase_nb(self.S, self.played, self.cards, self.cfg, s, bot, bp, self.pay,
                             self.ctx)

    # --- reading --------------------------------------------------------------------------
    def name(self, s: int, i: int) -> str:
        return NAMES[self.S[s, INST_AT + i]]

    def lane(self, s: int, p: int) -> list[str]:
        return [self.name(s, self.S[s, LANE_AT + p * LMAX + k])
                for k in range(self.S[s, PS.LANE_N + p])]

    def hidden(self, s: int, p: int) -> list[int]:
        return [int(self.S[s, HID_AT + p * LMAX + k]) for k in range(self.S[s, PS.LANE_N + p])]

    def hand_names(self, s: int) -> list[str]:
        return [self.name(s, self.S[s, HAND_AT + k]) for k in range(self.S[s, PS.HAND_N])]

    def grave(self, s: int) -> list[str]:
        return [self.name(s, self.S[s, GRAVE_AT + k]) for k in range(self.S[s, PS.GRAVE_N])]

    def traps(self, s: int, p: int) -> list[str]:
        return [self.name(s, self.S[s, TRAP_AT + p * TMAX + t])
                for t in range(self.S[s, PS.TRAP_N + p])]

    def zone(self, s: int, i: int) -> int:
        return int(self.S[s, ZONE_AT + i])

    def total(self, s: int, p: int, face_up_only: bool = False) -> int:
        return int(lane_total_nb(self.S, self.cards, s, p, face_up_only))

    def field(self, s: int) -> int:
        return int(field_points_nb(self.S, self.cards, s))

    def breaches(self) -> int:
        return int(engine.count_breaches_nb(self.S, self.cfg))

    def ps(self, s: int, key: str) -> int:
        return int(self.S[s, getattr(PS, key)])


def face_down(board: Board, s: int, p: int, name: str) -> int:
    """Place ``name`` face-down for seat ``s`` in lane ``p`` this turn without paying."""
    from simlib.games.terralore.state import CTYPE, PLAYS_AT

    S = board.S
    i = board._fresh(s, name)
    kind = board.cards[cid(name), CFC.ACTS]
    if kind == CTYPE.CREATURE:
        engine.put_creature_nb(S, s, p, i, True)
    elif kind == CTYPE.TRAP:
        t = S[s, PS.TRAP_N + p]
        S[s, TRAP_AT + p * TMAX + t] = i
        S[s, PS.TRAP_N + p] = t + 1
        S[s, ZONE_AT + i] = ZONE.TRAP
    else:
        S[s, ZONE_AT + i] = ZONE.LIMBO
    n = S[s, PS.N_PLAYS]
    S[s, PLAYS_AT + 2 * n] = i
    S[s, PLAYS_AT + 2 * n + 1] = p
    S[s, PS.N_PLAYS] = n + 1
    return i
