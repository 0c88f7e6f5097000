"""The Resolve phase: Bounty or a Petition, Tax Collectors, trades, Favors, redraws.

Part of the Terminus Breach TD engine (see ``engine/__init__.py``).
"""

from __future__ import annotations

from simlib.core.jit import njit
from simlib.core.rng import uniform_nb
from simlib.games.terminus import bots
from simlib.games.terminus.engine.cards import (
    discard_favor_nb,
    gain_favor_nb,
    gain_sanction_nb,
    hand_take_nb,
    play_tax_nb,
    playable_nb,
)
from simlib.games.terminus.engine.config import (
    CFG_FAVOR_PRICE,
)
from simlib.games.terminus.engine.levels import (
    level_due_nb,
    level_up_nb,
)
from simlib.games.terminus.state import (
    DKC,
    GSC,
    I64,
    IMP,
    KLOG_MAX,
    MAX_HAND,
    N_BATTLES,
    PLC,
    WHERE,
)


@njit(refcount=False)  # borrows its arrays (see state.py)
def collect_nb(dk, pl, gs, seat):
    """Resolve for ``seat``: Bounty or a Petition.

    Resolve for ``seat``: the Bounty of every face-up card in its Dead Drakka area if it killed this
    Wave (TB-099), else one Petition (TB-100). Returns the GP collected.
    """
    if pl[seat, PLC.KILLED_WAVE] == 0:
        pl[seat, PLC.PETITIONS] += 1
        pl[seat, PLC.PETITIONS_GAINED] += 1
        return 0
    gp = 0
    n = gs[GSC.KLOG_N]
    if n <= KLOG_MAX:  # the Wave's face-up kills are all in the log
        for k in range(n):
            d = gs[GSC.KLOG + k]
            if dk[d, DKC.KILLER] == seat and dk[d, DKC.FACEUP] != 0:
                gp += dk[d, DKC.BOUNTY]
                dk[d, DKC.FACEUP] = 0
    else:
        for d in range(gs[GSC.N_DRAKKA]):
            if dk[d, DKC.WHERE] == WHERE.DEAD and dk[d, DKC.KILLER] == seat and \
                    dk[d, DKC.FACEUP] != 0:
                gp += dk[d, DKC.BOUNTY]
                dk[d, DKC.FACEUP] = 0
    pl[seat, PLC.GP] += gp
    pl[seat, PLC.BOUNTY_GP] += gp
    return gp


@njit(refcount=False)  # borrows its arrays (see state.py)
def trade_nb(hand, fdeck, pl, gs, seat, row, card, rng):
    """Trade Petitions for Imperial cards.

    Trade Petitions (TB-102..107): row 0: 2 -> 1 Favor, 1: 3 -> 3 Favors, 2: 5 -> 5 Favors, 3: 5 ->
    1 Sanction ``card``. Returns False if not allowed.
    """
    need = (2, 3, 5, 5)[row]
    if pl[seat, PLC.PETITIONS] < need:
        return False
    if row == 3:
        if not gain_sanction_nb(hand, pl, gs, seat, card):
            return False
        pl[seat, PLC.PETITIONS] -= need
        return True
    pl[seat, PLC.PETITIONS] -= need
    for _ in range((1, 3, 5)[row]):
        gain_favor_nb(hand, fdeck, pl, gs, seat, rng)
    return True


@njit(refcount=False)  # borrows its arrays (see state.py)
def redraw_nb(hand, fdeck, pl, gs, seat, n_discard, rng):
    """The discard-and-redraw of ``seat``.

    Discard-and-redraw (TB-121), once per Battle: discard ``n_discard`` Falconry/Apathy cards, draw
    one fewer. Returns the cards drawn.
    """
    if pl[seat, PLC.REDRAW_BATTLE] == gs[GSC.BATTLE] or n_discard <= 0:
        return 0
    pl[seat, PLC.REDRAW_BATTLE] = gs[GSC.BATTLE]
    gone = 0
    i = 0
    while i < pl[seat, PLC.HAND_N] and gone < n_discard:
        c = hand[seat, i, 0]
        if c == IMP.FALCONRY or c == IMP.APATHY:
            hand_take_nb(hand, pl, seat, i)
            discard_favor_nb(fdeck, gs, c)
            gone += 1
        else:
            i += 1
    drawn = 0
    for _ in range(gone - 1):
        if gain_favor_nb(hand, fdeck, pl, gs, seat, rng) >= 0:
            drawn += 1
    return drawn


@njit(refcount=False)  # borrows its arrays (see state.py)
def resolve_phase_nb(dk, occ, tw, bl, pl, hand, fdeck, gs, params, bot_id, bp, rng):
    """The Resolve phase.

    Resolve: Bounty or a Petition, Tax Collectors, Petition trades, buying a Favor (TB-117/118), the
    discard-and-redraw, then level-ups.
    """
    resolve_seats_nb(dk, occ, tw, bl, pl, hand, fdeck, gs, params, I64(0), gs[GSC.N_PLAYERS],
                     bot_id, bp, rng)


@njit(refcount=False)  # borrows its arrays (see state.py)
def resolve_seats_nb(dk, occ, tw, bl, pl, hand, fdeck, gs, params, k_lo, k_hi, bot_id, bp, rng):
    """The Resolve phase of the seats ``k_lo .. k_hi - 1`` places after the active player.

    The seats resolve one after another and share nothing but the state, so the phase is
    the same played in one call or seat by seat (the search bot decides seat by seat).
    """
    n = gs[GSC.N_PLAYERS]
    for k in range(k_lo, k_hi):
        seat = (gs[GSC.ACTIVE] + k) % n
        resolve_seat_nb(dk, occ, tw, bl, pl, hand, fdeck, gs, params, seat, I64(0), bot_id, bp,
                        rng)


@njit(refcount=False)  # borrows its arrays (see state.py)
def resolve_seat_nb(dk, occ, tw, bl, pl, hand, fdeck, gs, params, seat, stage, bot_id, bp, rng):
    """The Resolve phase of one ``seat``.

    ``stage`` 0: all of it (:func:`resolve_cards_nb`, the bot's Favor purchase, then the
    redraw and level-ups); 1: only what follows the Favor purchase (a search bot decided
    the purchase itself).
    """
    if stage == 0:
        resolve_cards_nb(dk, pl, hand, fdeck, gs, params, seat, bot_id, rng)
        favor_rule_nb(hand, fdeck, pl, gs, params[0], seat, bp, rng)
    resolve_after_nb(dk, occ, tw, bl, pl, hand, fdeck, gs, params, seat, bot_id, bp, rng)


@njit(refcount=False)  # borrows its arrays (see state.py)
def resolve_cards_nb(dk, pl, hand, fdeck, gs, params, seat, bot_id, rng):
    """Resolve for ``seat`` up to buying a Favor: Bounty or a Petition, Tax, trades."""
    cfg = params[0]
    wi = gs[GSC.WAVE_INDEX]
    collect_nb(dk, pl, gs, seat)
    for _ in range(MAX_HAND):
        i = playable_nb(hand, pl, seat, IMP.TAX, wi)
        if i < 0:
            break
        play_tax_nb(hand, fdeck, pl, gs, cfg, seat, i)
    supply = gs[GSC.SANC:GSC.SANC + 3]
    for _ in range(8):
        p = pl[seat, PLC.PETITIONS]
        if p < 2:
            break
        held = 0
        for j in range(pl[seat, PLC.HAND_N]):
            if hand[seat, j, 0] >= IMP.RENOVATE:
                held += 1
        if p >= 5 and held == 0:
            c = bots.sanction_pick_nb(bot_id, supply)
            if c >= 0 and trade_nb(hand, fdeck, pl, gs, seat, I64(3), c, rng):
                continue
        if p >= 5:
            trade_nb(hand, fdeck, pl, gs, seat, I64(2), I64(-1), rng)
        elif p >= 3:
            trade_nb(hand, fdeck, pl, gs, seat, I64(1), I64(-1), rng)
        elif p >= 2 and bot_id == bots.PETITIONER:
            trade_nb(hand, fdeck, pl, gs, seat, I64(0), I64(-1), rng)
        else:
            break


@njit(refcount=False)  # borrows its arrays (see state.py)
def favor_price_nb(cfg, gs):
    """GP a Favor costs in the current Battle (TB-117)."""
    price = cfg[CFG_FAVOR_PRICE] * gs[GSC.BATTLE]
    return price


@njit(refcount=False)  # borrows its arrays (see state.py)
def favor_open_nb(pl, gs, cfg, seat, reserve):
    """True when ``seat`` may still buy a Favor this Wave (TB-118) and keep ``reserve`` GP."""
    return pl[seat, PLC.BOUGHT_WAVE] == 0 and \
        pl[seat, PLC.GP] - favor_price_nb(cfg, gs) >= reserve


@njit(refcount=False)  # borrows its arrays (see state.py)
def buy_favor_nb(hand, fdeck, pl, gs, cfg, seat, rng):
    """``seat`` buys a Favor (TB-117/118): draws it blind and pays, if a card is left."""
    if gain_favor_nb(hand, fdeck, pl, gs, seat, rng) >= 0:
        pl[seat, PLC.GP] -= favor_price_nb(cfg, gs)
        pl[seat, PLC.BOUGHT_WAVE] = 1


@njit(refcount=False)  # borrows its arrays (see state.py)
def favor_rule_nb(hand, fdeck, pl, gs, cfg, seat, bp, rng):
    """The scripted bots' Favor purchase, when affordable.

    With chance ``favor_buy`` in Battles 1-4 and ``favor_late`` in Battle 5 and the
    clear-the-board Waves, where GP kept only tallies as VP at the end.
    """
    chance = bp[bots.P_FAVOR] if gs[GSC.BATTLE] < N_BATTLES else bp[bots.P_FAVOR_LATE]
    if favor_open_nb(pl, gs, cfg, seat, bp[bots.P_RESERVE]) and chance > 0.0 and \
            uniform_nb(rng) < chance:
        buy_favor_nb(hand, fdeck, pl, gs, cfg, seat, rng)


@njit(refcount=False)  # borrows its arrays (see state.py)
def resolve_after_nb(dk, occ, tw, bl, pl, hand, fdeck, gs, params, seat, bot_id, bp, rng):
    """Resolve for ``seat`` after buying a Favor: the discard-and-redraw, level-ups."""
    cfg = params[0]
    redraw_nb(hand, fdeck, pl, gs, seat, bots.redraw_count_nb(
        hand[seat], pl[seat, PLC.HAND_N], bot_id), rng)
    if level_due_nb(tw, pl, cfg, params[15], seat):
        level_up_nb(dk, occ, tw, bl, pl, hand, fdeck, gs, params, seat, bot_id, bp, rng)
