"""The Develop phase: Sanctions, selling, builds and upgrades, blessings, Apathy.

Part of the Terminus Breach TD engine (see ``engine/__init__.py``).
"""

from __future__ import annotations

from simlib.core.jit import njit
from simlib.games.terminus import bots
from simlib.games.terminus.engine.build import (
    blessings_from_nb,
    do_build_nb,
    do_upgrade_nb,
    place_blessings_nb,
    renovate_nb,
)
from simlib.games.terminus.engine.cards import (
    apathy_nb,
    play_nb,
    playable_nb,
)
from simlib.games.terminus.engine.config import (
    CFG_CHEAP,
    CFG_PATH_LEN,
    CFG_SELL_RULE,
    CFG_SITES,
)
from simlib.games.terminus.engine.levels import (
    level_due_nb,
    level_up_nb,
)
from simlib.games.terminus.state import (
    GSC,
    I64,
    IMP,
    LINE,
    PLC,
    TSC,
    TWC,
)
from simlib.games.terminus.towers import (
    add_blessing_nb,
    sell_nb,
)


@njit(refcount=False)  # borrows its arrays (see state.py)
def develop_phase_nb(dk, occ, tw, bl, pl, hand, fdeck, gs, params, bot_id, bp, rng):
    """The Develop phase.

    Develop: from the active player clockwise (TB-108), Renovate and Invocation, builds and upgrades
    while the bot finds them worth their GP (TB-112), missing blessings, then an Apathy for the next
    Advance.
    """
    cfg = params[0]
    cover = params[4]
    lv = params[5]
    nlv = params[6]
    copies = params[7]
    n = gs[GSC.N_PLAYERS]
    wi = gs[GSC.WAVE_INDEX]
    n_sites = cfg[CFG_SITES]
    for k in range(n):
        seat = (gs[GSC.ACTIVE] + k) % n
        i = playable_nb(hand, pl, seat, IMP.RENOVATE, wi)
        if i >= 0:
            s = bots.renovate_target_nb(tw, lv, nlv, n_sites, seat)
            if s >= 0:
                play_nb(hand, fdeck, pl, gs, seat, i)
                renovate_nb(tw, bl, pl, lv, nlv, cover, n_sites, seat, s)
        i = playable_nb(hand, pl, seat, IMP.INVOCATION, wi)
        if i >= 0:
            t = bots.bless_target_nb(tw, lv, cover, n_sites, seat)
            if t >= 0:
                play_nb(hand, fdeck, pl, gs, seat, i)
                add_blessing_nb(bl, I64(-1), t, pl[seat, PLC.RACE])  # TB-159
        if bp[bots.P_SELL] > 0.0:
            s = bots.sell_choice_nb(tw, pl, params[19], params[20], lv, copies, n_sites, seat,
                                    bp)
            if s >= 0:  # TB-113: destroy a weak tower, rebuild anti-air on its spot
                sell_nb(tw, bl, pl, lv, s, cfg[CFG_SELL_RULE])
                gs[GSC.SOLD] += 1
                do_build_nb(tw, bl, pl, gs, params, seat, LINE.AIR_GROUND, s)
        for _ in range(32):
            kind, site, line = bots.develop_choice_nb(
                tw, pl, params[19], params[20], params[21], lv, nlv, copies, n_sites, seat,
                cfg[CFG_CHEAP + pl[seat, PLC.RACE]], n, bp)
            if kind == 0:
                break
            if kind == 1:
                do_build_nb(tw, bl, pl, gs, params, seat, line, site)
            else:
                do_upgrade_nb(tw, bl, pl, gs, params, seat, site)
        for s in range(n_sites):
            if tw[s, TWC.ALIVE] != 0 and tw[s, TWC.OWNER] == seat and \
                    tw[s, TWC.LINE] == LINE.HOLY and blessings_from_nb(bl, s) < lv[
                        tw[s, TWC.RACE], LINE.HOLY, tw[s, TWC.LEVEL] - 1, TSC.BLESS]:
                place_blessings_nb(tw, bl, lv, cover, n_sites, s, seat)
        i = playable_nb(hand, pl, seat, IMP.APATHY, wi)
        if i >= 0:
            q = bots.apathy_square_nb(dk, occ, cfg[CFG_PATH_LEN])
            if q >= 0:
                play_nb(hand, fdeck, pl, gs, seat, i)
                apathy_nb(dk, occ, q)
        if level_due_nb(tw, pl, cfg, params[15], seat):
            level_up_nb(dk, occ, tw, bl, pl, hand, fdeck, gs, params, seat, bot_id, bp, rng)

