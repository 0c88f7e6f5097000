"""One Wave of five phases, the Battles, the end of the game and the invariants.

Part of the Terminus Breach TD engine (see ``engine/__init__.py``).
"""

from __future__ import annotations

from simlib.core.jit import njit
from simlib.games.terminus.engine.advance import (
    advance_phase_nb,
    draw_phase_nb,
)
from simlib.games.terminus.engine.config import (
    CFG_CHECK,
    CFG_CLEAR_BOARD,
    CFG_PANIC_LIMIT,
    CFG_PATH_LEN,
    CFG_SANCTIONS,
    CFG_SITES,
    CFG_TOUGH_RULE,
)
from simlib.games.terminus.engine.defend import (
    defend_phase_nb,
)
from simlib.games.terminus.engine.develop import (
    develop_phase_nb,
)
from simlib.games.terminus.engine.lull import (
    lull_nb,
)
from simlib.games.terminus.engine.resolve import (
    resolve_phase_nb,
)
from simlib.games.terminus.move import is_dead_nb
from simlib.games.terminus.state import (
    BLC,
    DKC,
    GSC,
    I64,
    KLOG_MAX,
    LINE,
    MAX_BLESS,
    MAX_EXTRA_WAVES,
    MAX_PATH,
    N_BATTLES,
    PLC,
    TWC,
    WAVES_PER_BATTLE,
    WHERE,
)


@njit(refcount=False)  # borrows its arrays (see state.py)
def end_wave_nb(dk, tw, pl, gs, n_sites):
    """Per-Wave markers end: kills this Wave, Favor bought, tower sold, Sabotage."""
    # the kill log keeps the face-up cards not yet collected (a crystal's Carnage after
    # its caster's Resolve): they pay in the next Resolve, as a scan of every card would
    n = gs[GSC.KLOG_N]
    k = 0
    if n <= KLOG_MAX:
        for j in range(n):
            d = gs[GSC.KLOG + j]
            if dk[d, DKC.WHERE] == WHERE.DEAD and dk[d, DKC.FACEUP] != 0:
                gs[GSC.KLOG + k] = d
                k += 1
    else:
        for d in range(gs[GSC.N_DRAKKA]):
            if dk[d, DKC.WHERE] == WHERE.DEAD and dk[d, DKC.FACEUP] != 0:
                if k < KLOG_MAX:
                    gs[GSC.KLOG + k] = d
                k += 1
    gs[GSC.KLOG_N] = k
    for s in range(gs[GSC.N_PLAYERS]):
        pl[s, PLC.KILLED_WAVE] = 0
        pl[s, PLC.BOUGHT_WAVE] = 0
        pl[s, PLC.SOLD_WAVE] = 0
    for s in range(n_sites):
        tw[s, TWC.SABOTAGED] = 0


@njit(refcount=False)  # borrows its arrays (see state.py)
def over_nb(gs, cfg):
    """TB-213: the retreat, the moment the panic reaches the limit."""
    if gs[GSC.PANIC] >= cfg[CFG_PANIC_LIMIT]:
        gs[GSC.OVER] = 1
        gs[GSC.RETREAT] = 1
        return True
    return False


@njit(refcount=False)  # borrows its arrays (see state.py)
def start_wave_nb(gs):
    """Start a Wave.

    TB-062/063: the Wave marker moves on; the active player is the initiative winner after a roll,
    else the next seat clockwise.
    """
    gs[GSC.WAVE_INDEX] += 1
    if gs[GSC.FIRST] >= 0:
        gs[GSC.ACTIVE] = gs[GSC.FIRST]
        gs[GSC.FIRST] = -1
    else:
        gs[GSC.ACTIVE] = (gs[GSC.ACTIVE] + 1) % gs[GSC.N_PLAYERS]


@njit(refcount=False)  # borrows its arrays (see state.py)
def wave_front_nb(dk, occ, tw, pl, deck, gs, params, draw, rng):
    """A Wave up to its Defend phase: start, Advance, Draw (if ``draw``).

    Returns True when the panic forced the retreat (the Wave stops there).
    """
    cfg = params[0]
    start_wave_nb(gs)
    advance_phase_nb(dk, occ, tw, pl, gs, params, rng)
    if over_nb(gs, cfg):
        return True
    if draw != 0:
        draw_phase_nb(dk, occ, gs, deck, params, rng)
        if over_nb(gs, cfg):
            return True
    return False


@njit(refcount=False)  # borrows its arrays (see state.py)
def wave_end_nb(dk, occ, tw, bl, pl, gs, params):
    """The end of a Wave after its Develop phase: the per-Wave markers, the invariants."""
    cfg = params[0]
    end_wave_nb(dk, tw, pl, gs, cfg[CFG_SITES])
    if cfg[CFG_CHECK] != 0:
        check_invariants_nb(dk, occ, tw, bl, pl, gs, params)


@njit(refcount=False)  # borrows its arrays (see state.py)
def play_wave_nb(dk, occ, tw, bl, pl, hand, fdeck, deck, gs, params, draw, bot_id, bp, rng):
    """One Wave: Advance, Draw (if ``draw``), Defend, Resolve, Develop (TB-005)."""
    if wave_front_nb(dk, occ, tw, pl, deck, gs, params, draw, rng):
        return
    defend_phase_nb(dk, occ, tw, bl, pl, hand, fdeck, gs, params, bot_id, bp, rng)
    resolve_phase_nb(dk, occ, tw, bl, pl, hand, fdeck, gs, params, bot_id, bp, rng)
    develop_phase_nb(dk, occ, tw, bl, pl, hand, fdeck, gs, params, bot_id, bp, rng)
    wave_end_nb(dk, occ, tw, bl, pl, gs, params)


@njit(refcount=False)  # borrows its arrays (see state.py)
def on_path_nb(dk, gs):
    """Drakka still on the path."""
    n = 0
    for d in range(gs[GSC.N_DRAKKA]):
        if dk[d, DKC.WHERE] == WHERE.PATH:
            n += 1
    return n


@njit(refcount=False)  # borrows its arrays (see state.py)
def next_wave_nb(dk, tw, pl, deck, gs, params, b, w, bp, rng):
    """After Wave ``w`` of Battle ``b`` was played: the Lull if due; the next Wave or the end.

    ``w`` 1-3 are a Battle's Waves (TB-002/003); ``w`` > 3 (with ``b`` 5) are the
    clear-the-board Waves after Battle 5 (TB-214, setting ``clear_board``), played while
    Drakka stand on the path. Records the panic after each Battle. Returns the next
    ``(battle, wave)``, or ``(0, 0)`` when the game is over (``gs[OVER]`` set).
    """
    cfg = params[0]
    if w <= WAVES_PER_BATTLE:
        if gs[GSC.OVER] != 0:
            gs[GSC.PANIC_B + b - 1] = gs[GSC.PANIC]
            return 0, 0
        if w < WAVES_PER_BATTLE:
            return b, w + 1
        gs[GSC.PANIC_B + b - 1] = gs[GSC.PANIC]
        if b < N_BATTLES:
            lull_nb(dk, tw, pl, deck, gs, params, b, bp, rng)
            return b + 1, 1
        if cfg[CFG_CLEAR_BOARD] == 0:
            gs[GSC.OVER] = 1
            return 0, 0
    elif gs[GSC.OVER] != 0:
        gs[GSC.PANIC_B + N_BATTLES - 1] = gs[GSC.PANIC]
        return 0, 0
    if gs[GSC.EXTRA_WAVES] >= MAX_EXTRA_WAVES or on_path_nb(dk, gs) == 0:
        gs[GSC.PANIC_B + N_BATTLES - 1] = gs[GSC.PANIC]
        gs[GSC.OVER] = 1
        return 0, 0
    gs[GSC.EXTRA_WAVES] += 1
    return N_BATTLES, WAVES_PER_BATTLE + gs[GSC.EXTRA_WAVES]


@njit(refcount=False)  # borrows its arrays (see state.py)
def play_from_nb(dk, occ, tw, bl, pl, hand, fdeck, deck, gs, params, b, w, bot_id, bp, rng):
    """Play the game on from the start of Wave ``w`` of Battle ``b`` to its end.

    ``(b, w)`` as :func:`next_wave_nb` returns it; ``b`` 0 plays nothing.
    """
    while b > 0:
        gs[GSC.WAVE] = w
        play_wave_nb(dk, occ, tw, bl, pl, hand, fdeck, deck, gs, params,
                     I64(1) if w <= WAVES_PER_BATTLE else I64(0), bot_id, bp, rng)
        b, w = next_wave_nb(dk, tw, pl, deck, gs, params, b, w, bp, rng)


@njit(refcount=False)  # borrows its arrays (see state.py)
def play_battles_nb(dk, occ, tw, bl, pl, hand, fdeck, deck, gs, params, bot_id, bp, rng):
    """Battles 1..5 of 3 Waves with a Lull between (TB-002/003), then clear the board."""
    play_from_nb(dk, occ, tw, bl, pl, hand, fdeck, deck, gs, params, I64(1), I64(1), bot_id, bp,
                 rng)


@njit(refcount=False)  # borrows its arrays (see state.py)
def check_invariants_nb(dk, occ, tw, bl, pl, gs, params):
    """Count invariant breaches into ``gs[VIOLATIONS]``: occupancy, piles, GP, blessings."""
    cfg = params[0]
    bad = 0
    path_len = cfg[CFG_PATH_LEN]
    for d in range(gs[GSC.N_DRAKKA]):
        w = dk[d, DKC.WHERE]
        q = dk[d, DKC.POS]
        if w == WHERE.PATH:
            if q < 0 or q >= path_len:
                bad += 1
            elif dk[d, DKC.BOSS] != 0:
                if occ[0, q] != d or occ[1, q] != d:
                    bad += 1
            elif occ[dk[d, DKC.FLY], q] != d:
                bad += 1
            if is_dead_nb(dk[d, DKC.DMG], dk[d, DKC.TOUGH], cfg[CFG_TOUGH_RULE]):
                bad += 1
        elif q != -1:
            bad += 1
    for row in range(2):
        for q in range(MAX_PATH):
            d = occ[row, q]
            if d >= 0 and (q >= path_len or dk[d, DKC.POS] != q or
                           dk[d, DKC.WHERE] != WHERE.PATH):
                bad += 1
    for s in range(gs[GSC.N_PLAYERS]):
        if pl[s, PLC.GP] < 0 or pl[s, PLC.PETITIONS] < 0 or pl[s, PLC.LEVEL] > 3:
            bad += 1
    for j in range(MAX_BLESS):
        if bl[j, BLC.ALIVE] != 0:
            t = bl[j, BLC.TARGET]
            if tw[t, TWC.ALIVE] == 0 or tw[t, TWC.LINE] == LINE.HOLY:
                bad += 1
    for k in range(3):
        if gs[GSC.SANC + k] < 0 or gs[GSC.SANC + k] > cfg[CFG_SANCTIONS]:
            bad += 1
    gs[GSC.VIOLATIONS] += bad

