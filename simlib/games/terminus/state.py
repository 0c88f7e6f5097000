"""Terminus Breach TD game state: array layouts and constants shared by the rules and bots.

A game's state is a handful of int arrays allocated once per block of games
(:func:`alloc_nb`) and reset by ``setup_nb`` for every game:

- ``dk`` int32 (MAX_DRAKKA, DK.N): one row per Drakka card of the game (all five Battle
  decks and the five bosses), columns ``DK``; ``DK.WHERE`` says which pile it is in.
- ``occ`` int32 (2, MAX_PATH): the Drakka standing on each path square, row 0 ground,
  row 1 flying, ``-1`` when free. A boss fills its whole square: it is written in both rows.
- ``tw`` int32 (MAX_SITES, TW.N): the tower standing on each site (one tower per site,
  TB-110), columns ``TW``; ``TW.ALIVE`` is 0 on an empty site.
- ``bl`` int32 (MAX_BLESS, BL.N): blessings in play, columns ``BL``.
- ``pl`` int64 (MAX_PLAYERS, PL.N): one row per seat, columns ``PL``.
- ``hand`` int32 (MAX_PLAYERS, MAX_HAND, 2): Imperial cards held (card, Wave gained).
- ``fdeck`` int32 (2, MAX_FDECK): the Favor draw pile (row 0) and discard pile (row 1).
- ``deck`` int32 (MAX_DECK,): the current Battle's deck in draw order (``dk`` rows).
- ``gs`` int64 (GS.N,): Battle, Wave, panic, pointers, flags, the tallies and the log of
  this Wave's face-up kills (so the Resolve phase need not scan every card).
- ``scr`` int64 (SCR_N, MAX_SITES + MAX_PATH): scratch rows for bots and phases.

Path squares are numbered from the entrance (0) to the square next to the breach
(``path_len - 1``); a Drakka off the path has position ``-1``.

Every rules kernel compiles with ``njit(refcount=False)``: none creates an array (state is
allocated by :func:`alloc_nb`, which keeps reference counting), so the atomic reference
counts numba would otherwise take on every array argument of every call are skipped.
They cost about two thirds of the run time.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from simlib.core.jit import njit

MAX_PLAYERS = 4
MAX_PATH = 64
MAX_SITES = 64
MAX_DECK = 48
N_BATTLES = 5
WAVES_PER_BATTLE = 3  # TB-003 (ruling), TB-004
MAX_DRAKKA = N_BATTLES * MAX_DECK + N_BATTLES
MAX_LEVEL = 4
MAX_BLESS = 128
MAX_HAND = 48
MAX_FDECK = 128
N_RACES = 4
N_CLASSES = 3
N_LINES = 3
SCR_N = 4
MAX_EXTRA_WAVES = 64  # clear-the-board waves after Battle 5 (TB-214); every Drakka moves
KLOG_MAX = 64  # face-up kills logged per Wave (more are found by a scan)
# Wraps a constant argument of a jitted call: numba compiles a separate specialization of
# the callee for each literal int it is called with (trade_nb four times, one per row).
I64 = np.int64


class Where(NamedTuple):
    """Piles a Drakka card can be in (column ``DK.WHERE``)."""

    UNUSED: int = 0  # in a later Battle's deck
    DECK: int = 1  # in the current Battle's deck at the start of the path
    PATH: int = 2
    LEAKED: int = 3  # made it through (raised panic)
    TRAMPLED: int = 4  # trample discard pile
    DEAD: int = 5  # in a player's Dead Drakka area
    GRAVE: int = 6  # a player's Graveyard (moved there at the Lull)
    BOX: int = 7  # returned to the box at the Lull
    WAITING: int = 8  # a boss waiting off the path for a free square (TB-089)


WHERE = Where()


class DK(NamedTuple):
    """Columns of the Drakka table ``dk``."""

    CARD: int = 0
    WHERE: int = 1
    POS: int = 2
    DMG: int = 3
    POISON: int = 4
    POISON_SRC: int = 5  # seat whose tower placed or last raised the Poison token
    SLOW: int = 6
    APATHY: int = 7
    KILLER: int = 8
    FACEUP: int = 9  # 1: in the Dead Drakka area, bounty not yet collected
    BATTLE: int = 10
    SPEED: int = 11
    TOUGH: int = 12
    BOUNTY: int = 13
    THREAT: int = 14
    FLY: int = 15
    BOSS: int = 16
    HASTE: int = 17  # extra speed for this Advance (boss d20 result)
    SPY_DMG: int = 18
    CARNAGE_DMG: int = 19
    N: int = 20


class Card(NamedTuple):
    """Columns of the compiled Drakka card table."""

    SPEED: int = 0
    TOUGH: int = 1
    BOUNTY: int = 2
    THREAT: int = 3
    FLY: int = 4
    BOSS: int = 5
    SPY_DMG: int = 6
    CARNAGE_DMG: int = 7
    FACTION: int = 8
    N: int = 9


class Line(NamedTuple):
    """The three tower types of every race (TB-008)."""

    AIR_GROUND: int = 0
    HEAVY_GROUND: int = 1
    HOLY: int = 2


class Site(NamedTuple):
    """Kinds of squares a tower can stand on."""

    SPOT: int = 0
    ROCK: int = 1
    TREE: int = 2


class Race(NamedTuple):
    """Races, in the rulebook's order of mention in setup."""

    DWARVES: int = 0
    ELVES: int = 1
    TREEFOLK: int = 2
    HUMANS: int = 3


class Klass(NamedTuple):
    """Character classes."""

    MILITARY: int = 0
    POLITICAL: int = 1
    SPIRITUAL: int = 2


class Imp(NamedTuple):
    """Imperial cards: Favors 0..4, Sanctions 5..7 (TB-116)."""

    SPY: int = 0
    TAX: int = 1
    COMBUST: int = 2
    FALCONRY: int = 3
    APATHY: int = 4
    RENOVATE: int = 5
    CARNAGE: int = 6
    INVOCATION: int = 7


class TS(NamedTuple):
    """Columns of the tower level table ``lv`` (race, line, level-1, TS)."""

    COST: int = 0
    DMG: int = 1
    RANGE: int = 2
    RATE: int = 3
    FLY: int = 4
    POISON: int = 5
    SLOW: int = 6
    BLESS: int = 7  # Holy towers: blessings bestowed at this level
    N: int = 8


class BS(NamedTuple):
    """Columns of the blessing table (one blessing per race)."""

    DMG_PER_B: int = 0  # + this x B Damage per shot (TB-007, TB-226)
    RANGE: int = 1
    RATE: int = 2
    POISON_UP: int = 3  # 1: a hit from a tower with this blessing upgrades Poison one step
    N: int = 4


class BossFx(NamedTuple):
    """Effects a boss d20 result can have (boss table data)."""

    NONE: int = 0
    FEAR: int = 1  # Fear token on the N towers nearest the boss
    PETRIFY: int = 2  # Petrify token on the N towers nearest the boss
    HEAL: int = 3  # the boss removes N damage
    HASTE: int = 4  # the boss moves N extra squares this Advance


class TW(NamedTuple):
    """Columns of the tower table ``tw`` (one row per site)."""

    ALIVE: int = 0
    OWNER: int = 1
    RACE: int = 2
    LINE: int = 3
    LEVEL: int = 4
    READY: int = 5  # global Wave index from which a Holy tower's blessings count
    COMBUST: int = 6
    FALCONRY: int = 7
    FEAR: int = 8
    PETRIFY: int = 9
    SABOTAGED: int = 10
    PAID: int = 11  # total GP paid for the tower (TB-114 alternative)
    SHOTS: int = 12  # shots left this Defend phase
    N: int = 13


class BL(NamedTuple):
    """Columns of the blessing table ``bl``."""

    ALIVE: int = 0
    SOURCE: int = 1  # Holy tower site, or -1 for an Invocation blessing
    TARGET: int = 2
    RACE: int = 3
    N: int = 4


class PL(NamedTuple):
    """Columns of the player table ``pl``."""

    RACE: int = 0
    CLASS: int = 1
    GP: int = 2
    VP: int = 3
    PETITIONS: int = 4
    KILLED_WAVE: int = 5  # Drakka this player killed this Wave (bounty or not)
    KILLS: int = 6  # Graveyard + Dead Drakka (TB-232)
    BOSS_KILLS: int = 7
    LEVEL: int = 8
    SPY_PLAYED: int = 9
    TAX_PLAYED: int = 10
    FAVORS_GAINED: int = 11
    PETITIONS_GAINED: int = 12
    BOUNTY_GP: int = 13
    TOWERS_BUILT: int = 14
    BOUGHT_WAVE: int = 15  # Favor bought this Wave
    REDRAW_BATTLE: int = 16  # Battle in which the discard-and-redraw was used
    SOLD_WAVE: int = 17  # a tower destroyed this Develop phase
    HAND_N: int = 18
    VP_BOUGHT: int = 19
    CRYSTALS: int = 20
    BATTLE_KILLS: int = 21  # kills in the Battle so far (Lull step 1)
    HELD: int = 22  # 22..24: Charged Crystals held, White / Pink / Red (crystals='keep')
    N: int = 25


class GS(NamedTuple):
    """Slots of the game scalars ``gs``."""

    BATTLE: int = 0
    WAVE: int = 1
    WAVE_INDEX: int = 2  # 0-based count of Waves started
    ACTIVE: int = 3
    FIRST: int = 4
    PANIC: int = 5
    LEAKS: int = 6
    TRAMPLED: int = 7
    KILLS: int = 8
    BOSS_KILLS: int = 9
    N_PLAYERS: int = 10
    PATH_LEN: int = 11
    N_SITES: int = 12
    N_DRAKKA: int = 13
    DRAW_PTR: int = 14
    DECK_N: int = 15
    FD_N: int = 16  # cards in the Favor draw pile
    FD_DISC: int = 17  # cards in the Favor discard pile
    SANC: int = 18  # 18..20: Renovate, Carnage, Invocation left in the supply
    OVER: int = 21
    RETREAT: int = 22
    VIOLATIONS: int = 23
    BOSS_WAIT: int = 24  # dk row of a boss waiting off the path, -1 if none
    ADV_STEPS: int = 25  # Drakka moves made (advance + draw), for the benchmarks
    EXTRA_WAVES: int = 26
    POISON_KILLS: int = 27
    CARNAGE_KILLS: int = 28
    SPY_KILLS: int = 29
    FAVORS_PLAYED: int = 30
    SANCTIONS_PLAYED: int = 31
    PANIC_B: int = 32  # 32..36 panic after each Battle, -1 if not reached
    LEAKS_B: int = 37  # 37..41
    TRAMPLED_B: int = 42  # 42..46
    FIRST_LEAK_WAVE: int = 47
    KLOG_N: int = 48  # entries in the kill log of this Wave
    KLOG: int = 49  # 49..112: dk rows killed this Wave with Bounty due (face-up cards)
    SOLD: int = 113  # towers destroyed for GP (TB-113)
    OPENER: int = 114  # seat that won the setup's initiative roll (TB-053): it built first
    N: int = 115


WHERE_NAMES = ("unused", "deck", "path", "leaked", "trampled", "dead", "grave", "box", "waiting")
RACE_NAMES = ("dwarves", "elves", "treefolk", "humans")
CLASS_NAMES = ("military", "political", "spiritual")
LINE_NAMES = ("air_ground", "heavy_ground", "holy")
IMP_NAMES = ("spy", "tax_collector", "combust", "falconry", "apathy", "renovate", "carnage",
             "invocation")
BOSS_FX_NAMES = ("none", "fear", "petrify", "heal", "haste")

WHERE_ = WHERE
DKC = DK()
CARD = Card()
LINE = Line()
SITE = Site()
RACE = Race()
KLASS = Klass()
IMP = Imp()
TSC = TS()
BSC = BS()
BFX = BossFx()
TWC = TW()
BLC = BL()
PLC = PL()
GSC = GS()


@njit
def alloc_nb():
    """Allocate one game's state arrays (see the module docstring for the layouts)."""
    dk = np.zeros((MAX_DRAKKA, DKC.N), np.int32)
    occ = np.full((2, MAX_PATH), -1, np.int32)
    tw = np.zeros((MAX_SITES, TWC.N), np.int32)
    bl = np.zeros((MAX_BLESS, BLC.N), np.int32)
    pl = np.zeros((MAX_PLAYERS, PLC.N), np.int64)
    hand = np.zeros((MAX_PLAYERS, MAX_HAND, 2), np.int32)
    fdeck = np.zeros((2, MAX_FDECK), np.int32)
    deck = np.zeros(MAX_DECK, np.int32)
    gs = np.zeros(GSC.N, np.int64)
    scr = np.zeros((SCR_N, MAX_SITES + MAX_PATH), np.int64)
    return dk, occ, tw, bl, pl, hand, fdeck, deck, gs, scr


def alloc():
    """Python helper for tests: :func:`alloc_nb` as a tuple of fresh arrays."""
    return alloc_nb()


@njit(refcount=False)  # borrows its arrays
def copy_state_nb(dk, occ, tw, bl, pl, hand, fdeck, deck, gs, rng,
                  dk2, occ2, tw2, bl2, pl2, hand2, fdeck2, deck2, gs2, rng2):
    """Copy one game's state and generator state into a second set of arrays (written).

    The ``*2`` arrays come from :func:`alloc_nb` (and ``rng2`` is a uint64[4]); after the
    copy, playing on from either set gives the same game. Only the live rows of ``dk`` are
    copied (``gs[N_DRAKKA]``); the rest of every array is copied whole. Element loops, as a
    borrowing kernel may not allocate the temporary a slice assignment takes.
    """
    for d in range(gs[GSC.N_DRAKKA]):
        for c in range(dk.shape[1]):
            dk2[d, c] = dk[d, c]
    for r in range(occ.shape[0]):
        for c in range(occ.shape[1]):
            occ2[r, c] = occ[r, c]
    for r in range(tw.shape[0]):
        for c in range(tw.shape[1]):
            tw2[r, c] = tw[r, c]
    for r in range(bl.shape[0]):
        for c in range(bl.shape[1]):
            bl2[r, c] = bl[r, c]
    for r in range(pl.shape[0]):
        for c in range(pl.shape[1]):
            pl2[r, c] = pl[r, c]
    for r in range(hand.shape[0]):
        for c in range(hand.shape[1]):
            hand2[r, c, 0] = hand[r, c, 0]
            hand2[r, c, 1] = hand[r, c, 1]
    for r in range(fdeck.shape[0]):
        for c in range(fdeck.shape[1]):
            fdeck2[r, c] = fdeck[r, c]
    for c in range(deck.shape[0]):
        deck2[c] = deck[c]
    for c in range(gs.shape[0]):
        gs2[c] = gs[c]
    for c in range(rng.shape[0]):
        rng2[c] = rng[c]
