"""Imperial cards: the hand, the Favor deck, the Sanction supply and the cards' effects.

Part of the Terminus Breach TD engine (see ``engine/__init__.py``).
"""

from __future__ import annotations

from simlib.core.jit import njit
from simlib.core.rng import shuffle_nb
from simlib.games.terminus.engine.config import (
    CFG_NET_CARDS,
    CFG_TAX,
)
from simlib.games.terminus.move import is_dead_nb, kill_nb
from simlib.games.terminus.state import (
    DKC,
    GSC,
    I64,
    IMP,
    MAX_HAND,
    PLC,
)


@njit(refcount=False)  # borrows its arrays (see state.py)
def hand_add_nb(hand, pl, seat, card, wave_index):
    """Give ``seat`` the Imperial card ``card``, gained in Wave ``wave_index`` (TB-120)."""
    n = pl[seat, PLC.HAND_N]
    if n >= MAX_HAND:
        return False
    hand[seat, n, 0] = card
    hand[seat, n, 1] = wave_index
    pl[seat, PLC.HAND_N] = n + 1
    return True


@njit(refcount=False)  # borrows its arrays (see state.py)
def playable_nb(hand, pl, seat, card, wave_index):
    """Index in ``seat``'s hand of a ``card`` gained before this Wave (TB-120), or -1."""
    for i in range(pl[seat, PLC.HAND_N]):
        if hand[seat, i, 0] == card and hand[seat, i, 1] < wave_index:
            return i
    return -1


@njit(refcount=False)  # borrows its arrays (see state.py)
def hand_take_nb(hand, pl, seat, i):
    """Remove card ``i`` from ``seat``'s hand (keeps the order of the rest); returns it."""
    card = hand[seat, i, 0]
    n = pl[seat, PLC.HAND_N]
    for j in range(i, n - 1):
        hand[seat, j, 0] = hand[seat, j + 1, 0]
        hand[seat, j, 1] = hand[seat, j + 1, 1]
    pl[seat, PLC.HAND_N] = n - 1
    return card


@njit(refcount=False)  # borrows its arrays (see state.py)
def discard_favor_nb(fdeck, gs, card):
    """A Favor goes onto the Favor discard pile."""
    fdeck[1, gs[GSC.FD_DISC]] = card
    gs[GSC.FD_DISC] += 1


@njit(refcount=False)  # borrows its arrays (see state.py)
def gain_favor_nb(hand, fdeck, pl, gs, seat, rng):
    """``seat`` draws the top Favor (TB-119), reshuffling the discards when the pile is out.

    Returns the card, or -1 when every Favor is in someone's hand. Writes ``hand``,
    ``fdeck``, ``pl``, ``gs``, ``rng``.
    """
    if gs[GSC.FD_N] == 0:
        for k in range(gs[GSC.FD_DISC]):
            fdeck[0, k] = fdeck[1, k]
        gs[GSC.FD_N] = gs[GSC.FD_DISC]
        gs[GSC.FD_DISC] = 0
        shuffle_nb(fdeck[0], gs[GSC.FD_N], rng)
    if gs[GSC.FD_N] == 0:
        return -1
    gs[GSC.FD_N] -= 1
    card = fdeck[0, gs[GSC.FD_N]]
    if not hand_add_nb(hand, pl, seat, card, gs[GSC.WAVE_INDEX]):
        discard_favor_nb(fdeck, gs, card)
        return -1
    pl[seat, PLC.FAVORS_GAINED] += 1
    return card


@njit(refcount=False)  # borrows its arrays (see state.py)
def gain_sanction_nb(hand, pl, gs, seat, card):
    """``seat`` takes Sanction ``card`` from the supply if one is left (TB-122)."""
    k = GSC.SANC + card - IMP.RENOVATE
    if gs[k] <= 0:
        return False
    if not hand_add_nb(hand, pl, seat, card, gs[GSC.WAVE_INDEX]):
        return False
    gs[k] -= 1
    return True


@njit(refcount=False)  # borrows its arrays (see state.py)
def play_nb(hand, fdeck, pl, gs, seat, i):
    """``seat`` plays hand card ``i``.

    ``seat`` plays hand card ``i``: a Favor goes to the discard pile, a Sanction back to the supply
    (TB-123); a Spy or Tax Collector counts toward its network (TB-133).
    """
    card = hand_take_nb(hand, pl, seat, i)
    if card <= IMP.APATHY:
        discard_favor_nb(fdeck, gs, card)
        gs[GSC.FAVORS_PLAYED] += 1
    else:
        gs[GSC.SANC + card - IMP.RENOVATE] += 1
        gs[GSC.SANCTIONS_PLAYED] += 1
    if card == IMP.SPY:
        pl[seat, PLC.SPY_PLAYED] += 1
    elif card == IMP.TAX:
        pl[seat, PLC.TAX_PLAYED] += 1
    return card


@njit(refcount=False)  # borrows its arrays (see state.py)
def tier_nb(count, cfg):
    """Spy Network / War Chest tier reached by ``count`` cards played (TB-134..137)."""
    t = 0
    for k in range(3):
        if count >= cfg[CFG_NET_CARDS + k]:
            t = k + 1
    return t


@njit(refcount=False)  # borrows its arrays (see state.py)
def play_tax_nb(hand, fdeck, pl, gs, cfg, seat, i):
    """Play a Tax Collector: GP by the current Battle at once (TB-138..142)."""
    play_nb(hand, fdeck, pl, gs, seat, i)
    gp = cfg[CFG_TAX + gs[GSC.BATTLE] - 1]
    pl[seat, PLC.GP] += gp
    return gp


@njit(refcount=False)  # borrows its arrays (see state.py)
def spy_execute_nb(dk, occ, pl, gs, seat, d, tough_rule):
    """Execute Drakka ``d`` with a Spy.

    Execute ``d``: killed with no Bounty (TB-126, TB-128); a boss takes its Spy damage instead
    (TB-127).
    """
    if dk[d, DKC.BOSS] != 0:
        dk[d, DKC.DMG] += dk[d, DKC.SPY_DMG]
        if is_dead_nb(dk[d, DKC.DMG], dk[d, DKC.TOUGH], tough_rule):
            kill_nb(dk, occ, pl, gs, d, seat, I64(0))
            gs[GSC.SPY_KILLS] += 1
        return
    kill_nb(dk, occ, pl, gs, d, seat, I64(0))
    gs[GSC.SPY_KILLS] += 1


@njit(refcount=False)  # borrows its arrays (see state.py)
def carnage_nb(dk, occ, pl, gs, seat, a, k, path_len, tough_rule):
    """Carnage on path squares ``a ..

    a+k-1`` (side-connected, TB-230/231): every non-boss Drakka there dies, paying Bounty
    (TB-156/157); a boss takes its Carnage damage (TB-158, TB-171). Returns the kills.
    """
    kills = 0
    for q in range(a, min(a + k, path_len)):
        for row in range(2):
            d = occ[row, q]
            if d < 0:
                continue
            if dk[d, DKC.BOSS] != 0:
                if row == 1:
                    continue
                dk[d, DKC.DMG] += dk[d, DKC.CARNAGE_DMG]
                if not is_dead_nb(dk[d, DKC.DMG], dk[d, DKC.TOUGH], tough_rule):
                    continue
            kill_nb(dk, occ, pl, gs, d, seat, I64(1))
            kills += 1
    gs[GSC.CARNAGE_KILLS] += kills
    return kills


@njit(refcount=False)  # borrows its arrays (see state.py)
def apathy_nb(dk, occ, q):
    """Apathy on square ``q``: its non-boss Drakka move 1 next Advance (TB-153, TB-162)."""
    n = 0
    for row in range(2):
        d = occ[row, q]
        if d >= 0 and dk[d, DKC.BOSS] == 0:
            dk[d, DKC.APATHY] = 1
            n += 1
    return n


@njit(refcount=False)  # borrows its arrays (see state.py)
def countered_nb(hand, fdeck, pl, gs, victim, spy_player, wi):
    """Let the victim of a Spy cancel it with a Spy (TB-132).

    TB-132: the ``victim`` of a Spy (-1: no one's own card is targeted)

    may cancel it with a Spy of their own; the bots always do. Returns True if cancelled.
    """
    if victim < 0:
        return False
    j = playable_nb(hand, pl, victim, IMP.SPY, wi)
    if j < 0:
        return False
    play_nb(hand, fdeck, pl, gs, victim, j)
    return True

