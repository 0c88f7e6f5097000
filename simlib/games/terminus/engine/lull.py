"""The Lull between Battles and the final scoring (TB-198..222).

Part of the Terminus Breach TD engine (see ``engine/__init__.py``).
"""

from __future__ import annotations

from simlib.core.jit import njit
from simlib.games.terminus import bots
from simlib.games.terminus.engine.cards import (
    tier_nb,
)
from simlib.games.terminus.engine.config import (
    CFG_CHEST_GP,
    CFG_FINAL_ALL,
    CFG_LEVEL_VP,
    CFG_NET_VP,
    CFG_SITES,
    CFG_VP_PRICE,
)
from simlib.games.terminus.engine.setup import (
    initiative_nb,
    start_battle_nb,
)
from simlib.games.terminus.state import (
    DKC,
    GSC,
    I64,
    PLC,
    WHERE,
)
from simlib.games.terminus.towers import (
    tower_levels_nb,
)


@njit(refcount=False)  # borrows its arrays (see state.py)
def tally_nb(tw, pl, gs, cfg, final, bp):
    """Lull step 1: the tally.

    Lull step 1 (TB-199..203): 1 VP per kill this Battle, 1 VP per tower level, the Spy Network VP,
    the War Chest GP, then VP bought at 100 GP each: the bot's ``vp_buy`` share of its GP (at the
    final tally too, TB-203/211; all GP there with ``final_vp_buy = "all"``).
    """
    n = gs[GSC.N_PLAYERS]
    for seat in range(n):
        vp = pl[seat, PLC.BATTLE_KILLS] + tower_levels_nb(tw, cfg[CFG_SITES], seat)
        t = tier_nb(pl[seat, PLC.SPY_PLAYED], cfg)
        if t > 0:
            vp += cfg[CFG_NET_VP + t - 1]
        t = tier_nb(pl[seat, PLC.TAX_PLAYED], cfg)
        if t > 0:
            pl[seat, PLC.GP] += cfg[CFG_CHEST_GP + t - 1]
        pl[seat, PLC.VP] += vp
        price = cfg[CFG_VP_PRICE]
        if final != 0 and cfg[CFG_FINAL_ALL] != 0:
            buy = pl[seat, PLC.GP] // price
        else:
            buy = int(bp[bots.P_VP] * pl[seat, PLC.GP]) // price
        pl[seat, PLC.GP] -= buy * price
        pl[seat, PLC.VP] += buy
        pl[seat, PLC.VP_BOUGHT] += buy
        pl[seat, PLC.BATTLE_KILLS] = 0


@njit(refcount=False)  # borrows its arrays (see state.py)
def clear_piles_nb(dk, gs):
    """Lull step 2: the piles.

    Lull step 2 (TB-204..207): Dead Drakka to the Graveyard; the trample pile, the undrawn deck, a
    waiting boss and the Drakka that got through back to the box. Drakka still on the path stay
    there (TB-208).
    """
    for d in range(gs[GSC.N_DRAKKA]):
        w = dk[d, DKC.WHERE]
        if w == WHERE.DEAD:
            dk[d, DKC.WHERE] = WHERE.GRAVE if dk[d, DKC.KILLER] >= 0 else WHERE.BOX
            dk[d, DKC.FACEUP] = 0
        elif w == WHERE.TRAMPLED or w == WHERE.DECK or w == WHERE.LEAKED or \
                w == WHERE.WAITING:
            dk[d, DKC.WHERE] = WHERE.BOX
    gs[GSC.BOSS_WAIT] = -1
    gs[GSC.DECK_N] = 0
    gs[GSC.DRAW_PTR] = 0


@njit(refcount=False)  # borrows its arrays (see state.py)
def lull_nb(dk, tw, pl, deck, gs, params, b, bp, rng):
    """The Lull after Battle ``b`` (TB-006, TB-198..210)."""
    cfg = params[0]
    tally_nb(tw, pl, gs, cfg, I64(0), bp)
    clear_piles_nb(dk, gs)
    start_battle_nb(dk, deck, gs, b + 1, rng)
    if b == 2 or b == 4:  # TB-210
        initiative_nb(gs, gs[GSC.N_PLAYERS], rng)


@njit(refcount=False)  # borrows its arrays (see state.py)
def final_scoring_nb(tw, pl, gs, cfg, bp):
    """End of game: the last tally (TB-211/219), character-level VP (TB-215..218)."""
    tally_nb(tw, pl, gs, cfg, I64(1), bp)
    for seat in range(gs[GSC.N_PLAYERS]):
        lvl = pl[seat, PLC.LEVEL]
        if lvl > 0:
            pl[seat, PLC.VP] += cfg[CFG_LEVEL_VP + lvl - 1]


@njit(refcount=False)  # borrows its arrays (see state.py)
def winners_nb(pl, n):
    """Bit mask of the winners: most VP, then most GP, then shared (TB-220..222)."""
    mask = 0
    best_vp = -1
    best_gp = -1
    for s in range(n):
        vp = pl[s, PLC.VP]
        gp = pl[s, PLC.GP]
        if vp > best_vp or (vp == best_vp and gp > best_gp):
            best_vp = vp
            best_gp = gp
            mask = 1 << s
        elif vp == best_vp and gp == best_gp:
            mask |= 1 << s
    return mask

