"""Terralore game state: array layouts, card-table columns and the small queries rules share.

A game's state is three arrays allocated once per block of games (:func:`alloc_nb`):

- ``S`` int32 (2, W): one row per seat holding every per-seat table at a fixed offset
  (one array, so helper calls pass one reference; see ``Off``):
  ``S[s, X]`` for the scalars ``PS.X`` (castle HP, deck pointer, counts, landmark);
  ``S[s, DECK_AT + j]`` instance ids in draw order (``PS.DECK_TOP`` is the next);
  ``S[s, HAND_AT + k]`` instance ids in hand (``PS.HAND_N`` of them);
  ``S[s, LANE_AT + p * LMAX + k]`` the creatures of seat ``s`` in physical lane ``p``,
  with ``BONUS_AT`` (point modifier, boost/weaken) and ``HID_AT`` (1 while face-down)
  at the same positions; ``S[s, TRAP_AT + p * TMAX + t]`` face-down traps;
  ``S[s, GRAVE_AT + g]`` the graveyard (``PS.GRAVE_N``); and per instance ``i``:
  ``INST_AT`` (card id: 0..19 the deck, 20.. tokens), ``ZONE_AT`` (``ZONE``), ``PTS_AT``
  (printed points, synergy applied), ``AMT_AT`` (effect amount, synergy applied);
  ``S[s, PLAYS_AT + 2 j]`` / ``+ 2 j + 1`` the j-th card placed this turn and its lane.
- ``gs`` int64 (GS.N,): turn, winner, cause, first player, reveal opener, tallies.
- ``played`` uint64 (2, NW): bit ``c`` set when the seat played deck card id ``c``.

Lanes are physical: lane ``p`` is seat ``p``'s defending lane and seat ``1 - p``'s
attacking lane (TL-033/034). So seat ``s`` defends in lane ``s`` and attacks in ``1 - s``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from simlib.core.jit import njit

DECK = 20  # TL-003: every deck holds exactly 20 cards
HMAX = 16  # largest hand_limit a designer may set
LMAX = 8  # largest lane_size a designer may set
TMAX = 4  # face-down traps a seat may keep in one lane
MAX_TOKENS = 24  # tokens one seat may create in a game (more fizzle)
NI = DECK + MAX_TOKENS  # card instances per seat
PMAX = 24  # cards one seat may place in one turn
MAX_CARDS = 128  # card pool size the played-card bitmasks cover
NW = MAX_CARDS // 64
MAX_TURNS = 60  # safety cap; decks run out by turn 10 with the default draws


class CardType(NamedTuple):
    """Card types (column ``CF.TYPE``), TL-005."""

    CREATURE: int = 0
    SKILL: int = 1
    LANDMARK: int = 2
    TRAP: int = 3
    TOKEN: int = 4


CTYPE = CardType()
TYPE_NAMES = ("creature", "skill", "landmark", "trap", "token")
AFFINITY_NAMES = ("fire", "water", "wind", "darkness", "light", "lightning", "earth", "nature")
RARITY_NAMES = ("common", "uncommon", "rare", "epic", "legendary")


class Effect(NamedTuple):
    """The effect vocabulary (column ``CF.EFFECT``); ``n`` is the card's amount.

    One-shot effects resolve when the card is revealed (creatures, skills) or when a trap
    springs; landmark effects (``LM_*``) act in every Counting Phase while it stands.
    """

    NONE: int = 0
    DAMAGE: int = 1  # deal n damage to the opponent's castle
    HEAL: int = 2  # heal your castle by n (never above its starting HP, TL-063)
    DESTROY: int = 3  # destroy the opponent's strongest face-up creature here
    EXILE: int = 4  # exile the opponent's strongest face-up creature here
    BOOST: int = 5  # your other face-up creatures here get +n points while they stay
    WEAKEN: int = 6  # the opponent's face-up creatures here get -n points
    DRAW: int = 7  # draw n cards (hand limit applies; an empty deck gives nothing)
    SUMMON: int = 8  # put n copies of the token card ``token`` here as your creatures
    MILL: int = 9  # the top n cards of the opponent's deck go to their graveyard
    RAISE: int = 10  # return your n best creature cards from the graveyard to your hand
    GIVE_TOKEN: int = 11  # put n copies of the token card ``token`` into your hand
    LM_LANE_BOOST: int = 12  # landmark: your creatures here count n more points
    LM_AFFINITY_BOOST: int = 13  # landmark: your creatures of affinity ``arg`` count n more
    LM_HEAL: int = 14  # landmark: heal your castle by n after each counting
    LM_DAMAGE: int = 15  # landmark: deal n damage to the opponent's castle at each counting


EFFECT = Effect()
EFFECT_NAMES = ("none", "damage", "heal", "destroy", "exile", "boost", "weaken", "draw",
                "summon", "mill", "raise", "give_token", "lm_lane_boost",
                "lm_affinity_boost", "lm_heal", "lm_damage")


class Trigger(NamedTuple):
    """Trap triggers (column ``CF.TRIGGER``), TL-085."""

    NONE: int = 0
    ATTACKED: int = 1  # counting: the opponent's attack here beats your defence here
    ENEMY_CREATURE: int = 2  # an opponent's creature is revealed here


TRIGGER = Trigger()
TRIGGER_NAMES = ("none", "attacked", "enemy_creature")


class Synergy(NamedTuple):
    """Synergy requirements (column ``CF.SYN_KIND``) over the full deck list (TL-083/084)."""

    NONE: int = 0
    AFFINITY: int = 1  # every card of the deck has affinity ``syn_arg``
    MAX_COST: int = 2  # every card of the deck costs at most ``syn_arg``
    MAX_RARITY: int = 3  # no card of the deck is rarer than rarity ``syn_arg``


SYNERGY = Synergy()
SYNERGY_NAMES = ("none", "affinity", "max_cost", "max_rarity")


class CF(NamedTuple):
    """Columns of the card table ``cards`` (int32, one row per card id)."""

    TYPE: int = 0
    ACTS: int = 1  # what a token acts as: CREATURE or SKILL; other cards: their TYPE
    COST: int = 2
    POINTS: int = 3
    AFF: int = 4
    RARITY: int = 5
    EFFECT: int = 6
    AMOUNT: int = 7
    TOKEN: int = 8  # card id a SUMMON / GIVE_TOKEN creates, -1 if none
    ARG: int = 9  # LM_AFFINITY_BOOST: the affinity
    TRIGGER: int = 10
    SYN_KIND: int = 11
    SYN_ARG: int = 12
    SYN_BONUS: int = 13  # points (creatures) or amount (others) added when the synergy holds
    N: int = 14


CFC = CF()


class PSlot(NamedTuple):
    """Columns of the per-seat table ``ps``."""

    HP: int = 0
    DECK_TOP: int = 1
    HAND_N: int = 2
    LANE_N: int = 3  # + physical lane (two columns)
    TRAP_N: int = 5  # + physical lane (two columns)
    LANDMARK: int = 7  # instance, -1 if none
    LM_LANE: int = 8
    GRAVE_N: int = 9
    EXILE_N: int = 10  # deck cards exiled
    BANISH_N: int = 11  # tokens banished
    TOKENS: int = 12  # tokens created so far (next token instance = DECK + TOKENS)
    N_PLAYS: int = 13
    OUT: int = 14  # 1 once the seat had to draw from an empty deck
    PLAYED_N: int = 15  # cards played from hand over the game
    DAMAGE_TAKEN: int = 16
    OVERKILL: int = 17  # damage dealt beyond 0 HP (the TL-062 'overkill' reading)
    N: int = 18


PS = PSlot()


class Zone(NamedTuple):
    """Where a card instance is (array ``zone``)."""

    NONE: int = 0  # token not created yet
    DECK: int = 1
    HAND: int = 2
    LANE: int = 3
    TRAP: int = 4
    LANDMARK: int = 5
    GRAVE: int = 6
    EXILE: int = 7
    BANISHED: int = 8
    LIMBO: int = 9  # a skill between its placement and its resolution


ZONE = Zone()


class GSlot(NamedTuple):
    """Slots of the game scalars ``gs``."""

    TURN: int = 0
    WINNER: int = 1  # 0, 1, -1 draw, -2 still playing
    CAUSE: int = 2
    FIRST: int = 3  # the round-1 die winner (first in the reveal order)
    OPENER: int = 4  # this turn's "losing player" (opens the reveal order)
    VIOL: int = 5  # invariant breaches counted when checking is on
    CHECK: int = 6
    DIE_ROLLS: int = 7
    BOTH_FALL: int = 8  # 1: both castles at 0 are told apart by the damage beyond 0 (TL-062)
    N: int = 9


GS = GSlot()


class Cause(NamedTuple):
    """How a match ended (the ``outcome`` column)."""

    CASTLE: int = 0
    DECK_OUT: int = 1
    TIEBREAK: int = 2
    DRAW: int = 3


CAUSE = Cause()
CAUSE_NAMES = ("castle", "deck_out", "tiebreak", "draw")


DECK_AT = PS.N
HAND_AT = DECK_AT + DECK
LANE_AT = HAND_AT + HMAX
BONUS_AT = LANE_AT + 2 * LMAX
HID_AT = BONUS_AT + 2 * LMAX
TRAP_AT = HID_AT + 2 * LMAX
GRAVE_AT = TRAP_AT + 2 * TMAX
INST_AT = GRAVE_AT + NI
ZONE_AT = INST_AT + NI
PTS_AT = ZONE_AT + NI
AMT_AT = PTS_AT + NI
PLAYS_AT = AMT_AT + NI
W = PLAYS_AT + 2 * PMAX


@njit
def alloc_nb():
    """Allocate one game's state: ``S`` int32 (2, W), ``gs`` int64, ``played`` uint64."""
    return np.zeros((2, W), np.int32), np.zeros(GS.N, np.int64), np.zeros((2, NW), np.uint64)


@njit(inline="always")
def landmark_bonus_nb(S, cards, s, p, c):
    """Points seat ``s``'s landmark adds to its creature of card ``c`` in lane ``p``."""
    lm = S[s, PS.LANDMARK]
    if lm < 0:
        return 0
    lc = S[s, INST_AT + lm]
    e = cards[lc, CFC.EFFECT]
    if e == EFFECT.LM_LANE_BOOST and S[s, PS.LM_LANE] == p:
        return S[s, AMT_AT + lm]
    if e == EFFECT.LM_AFFINITY_BOOST and cards[c, CFC.AFF] == cards[lc, CFC.ARG]:
        return S[s, AMT_AT + lm]
    return 0


@njit(inline="always")
def creature_points_nb(S, cards, s, p, k):
    """Points of seat ``s``'s creature in slot ``k`` of lane ``p`` (never below 0)."""
    i = S[s, LANE_AT + p * LMAX + k]
    v = (S[s, PTS_AT + i] + S[s, BONUS_AT + p * LMAX + k]
         + landmark_bonus_nb(S, cards, s, p, S[s, INST_AT + i]))
    return v if v > 0 else 0


@njit(inline="always")
def lane_total_nb(S, cards, s, p, face_up_only):
    """Sum of seat ``s``'s creature points in lane ``p`` (TL-056/057)."""
    t = 0
    for k in range(S[s, PS.LANE_N + p]):
        if face_up_only and S[s, HID_AT + p * LMAX + k] != 0:
            continue
        t += creature_points_nb(S, cards, s, p, k)
    return t


@njit(refcount=False)
def field_points_nb(S, cards, s):
    """Total points of seat ``s``'s creatures in both lanes (TL-076)."""
    return lane_total_nb(S, cards, s, 0, False) + lane_total_nb(S, cards, s, 1, False)


@njit(inline="always")
def strongest_nb(S, cards, s, p):
    """Slot of seat ``s``'s strongest face-up creature in lane ``p`` (-1 if none).

    Ties go to the creature played earliest (lowest slot).
    """
    best = -1
    bv = -1
    for k in range(S[s, PS.LANE_N + p]):
        if S[s, HID_AT + p * LMAX + k] != 0:
            continue
        v = creature_points_nb(S, cards, s, p, k)
        if v > bv:
            bv = v
            best = k
    return best
