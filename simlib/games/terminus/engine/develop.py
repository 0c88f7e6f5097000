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
    develop_seats_nb(dk, occ, tw, bl, pl, hand, fdeck, gs, params, I64(0), gs[GSC.N_PLAYERS],
                     bot_id, bp, rng)


@njit(refcount=False)  # borrows its arrays (see state.py)
def develop_seats_nb(dk, occ, tw, bl, pl, hand, fdeck, gs, params, k_lo, k_hi, bot_id, bp, rng):
    """The Develop phase of the seats ``k_lo .. k_hi - 1`` places after the active player.

    As :func:`develop_phase_nb`, seat by seat (the search bot decides seat by seat).
    """
    n = gs[GSC.N_PLAYERS]
    for k in range(k_lo, k_hi):
        seat = (gs[GSC.ACTIVE] + k) % n
        develop_seat_nb(dk, occ, tw, bl, pl, hand, fdeck, gs, params, seat, I64(0), bot_id, bp,
                        rng)


@njit(refcount=False)  # borrows its arrays (see state.py)
def develop_seat_nb(dk, occ, tw, bl, pl, hand, fdeck, gs, params, seat, stage, bot_id, bp, rng):
    """The Develop phase of one ``seat`` from ``stage`` on.

    ``stage`` 0: all of it (Renovate and Invocation, the bot's sale, its builds and
    upgrades, then :func:`develop_after_nb`); 1: from the builds and upgrades on; 2: only
    :func:`develop_after_nb`. A search bot makes the earlier choices itself.
    """
    if stage == 0:
        develop_cards_nb(tw, bl, pl, hand, fdeck, gs, params, seat)
        if bp[bots.P_SELL] > 0.0:
            s = sell_pick_nb(tw, pl, params, seat, bp)
            if s >= 0:
                sell_rebuild_nb(tw, bl, pl, gs, params, seat, s)
    if stage <= 1:
        for _ in range(32):
            kind, site, line = develop_pick_nb(tw, pl, gs, params, seat, bp)
            if kind == 0:
                break
            develop_act_nb(tw, bl, pl, gs, params, seat, kind, site, line)
    develop_after_nb(dk, occ, tw, bl, pl, hand, fdeck, gs, params, seat, bot_id, bp, rng)


@njit(refcount=False)  # borrows its arrays (see state.py)
def develop_cards_nb(tw, bl, pl, hand, fdeck, gs, params, seat):
    """Develop for ``seat``: Renovate and Invocation (TB-124), on the bots' targets."""
    cover = params[4]
    lv = params[5]
    nlv = params[6]
    n_sites = params[0][CFG_SITES]
    wi = gs[GSC.WAVE_INDEX]
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


@njit(refcount=False)  # borrows its arrays (see state.py)
def sell_pick_nb(tw, pl, params, seat, bp):
    """The tower the bot ``bp`` would sell to rebuild Air & Ground there, or -1."""
    return bots.sell_choice_nb(tw, pl, params[19], params[20], params[5], params[7],
                               params[0][CFG_SITES], seat, bp)


@njit(refcount=False)  # borrows its arrays (see state.py)
def sell_rebuild_nb(tw, bl, pl, gs, params, seat, s):
    """TB-113: ``seat`` destroys its tower on site ``s`` and builds Air & Ground there."""
    sell_nb(tw, bl, pl, params[5], s, params[0][CFG_SELL_RULE])
    gs[GSC.SOLD] += 1
    do_build_nb(tw, bl, pl, gs, params, seat, LINE.AIR_GROUND, s)


@njit(refcount=False)  # borrows its arrays (see state.py)
def develop_pick_nb(tw, pl, gs, params, seat, bp):
    """The build or upgrade the bot ``bp`` would make next: ``(kind, site, line)``.

    kind 0: none (see ``bots.develop_choice_nb``).
    """
    cfg = params[0]
    return bots.develop_choice_nb(
        tw, pl, params[19], params[20], params[21], params[5], params[6], params[7],
        cfg[CFG_SITES], seat, cfg[CFG_CHEAP + pl[seat, PLC.RACE]], gs[GSC.N_PLAYERS], bp)


@njit(refcount=False)  # borrows its arrays (see state.py)
def develop_act_nb(tw, bl, pl, gs, params, seat, kind, site, line):
    """Make one Develop choice of :func:`develop_pick_nb` (kind 1 a build, 2 an upgrade)."""
    if kind == 1:
        do_build_nb(tw, bl, pl, gs, params, seat, line, site)
    else:
        do_upgrade_nb(tw, bl, pl, gs, params, seat, site)


@njit(refcount=False)  # borrows its arrays (see state.py)
def develop_after_nb(dk, occ, tw, bl, pl, hand, fdeck, gs, params, seat, bot_id, bp, rng):
    """Develop for ``seat`` after its builds: missing blessings, Apathy, level-ups."""
    cfg = params[0]
    cover = params[4]
    lv = params[5]
    n_sites = cfg[CFG_SITES]
    wi = gs[GSC.WAVE_INDEX]
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
