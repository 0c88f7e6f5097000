"""Setup, initiative and the start of each Battle.

Part of the Terminus Breach TD engine (see ``engine/__init__.py``).
"""

from __future__ import annotations

from simlib.core.jit import njit
from simlib.core.rng import d6_nb, randint_nb, shuffle_nb
from simlib.games.terminus import bots
from simlib.games.terminus.engine.build import (
    do_build_nb,
    do_upgrade_nb,
)
from simlib.games.terminus.engine.config import (
    CFG_ALLOWANCE,
    CFG_CHEAP,
    CFG_LINEUP,
    CFG_PANIC_START,
    CFG_PATH_LEN,
    CFG_PLAYERS,
    CFG_SANCTIONS,
    CFG_SITES,
)
from simlib.games.terminus.state import (
    CARD,
    DKC,
    GSC,
    I64,
    LINE,
    N_BATTLES,
    PLC,
    TWC,
    WHERE,
)
from simlib.games.terminus.towers import (
    build_cost_nb,
    site_allows_nb,
    upgrade_cost_nb,
)


@njit(refcount=False)  # borrows its arrays (see state.py)
def initiative_nb(gs, n, rng):
    """Everyone rolls the d6; only the players tied for highest roll again (TB-053/054).

    Writes ``gs[FIRST]`` and returns the winner. Rolls are packed 3 bits a seat.
    """
    tied = (1 << n) - 1
    while True:
        best = 0
        rolls = 0
        for s in range(n):
            if (tied >> s) & 1:
                r = d6_nb(rng)
                rolls |= r << (3 * s)
                if r > best:
                    best = r
        count = 0
        winner = -1
        for s in range(n):
            if (tied >> s) & 1 and ((rolls >> (3 * s)) & 7) == best:
                count += 1
                winner = s
            else:
                tied &= ~(1 << s)
        if count == 1:
            gs[GSC.FIRST] = winner
            return winner


@njit(refcount=False)  # borrows its arrays (see state.py)
def start_battle_nb(dk, deck, gs, b, rng):
    """Battle ``b``'s deck is shuffled and placed at the start of the path (TB-048, 209)."""
    gs[GSC.BATTLE] = b
    n = 0
    for d in range(gs[GSC.N_DRAKKA]):
        if dk[d, DKC.BATTLE] == b and dk[d, DKC.WHERE] == WHERE.UNUSED:
            dk[d, DKC.WHERE] = WHERE.DECK
            if dk[d, DKC.BOSS] == 0:
                deck[n] = d
                n += 1
    shuffle_nb(deck, n, rng)
    gs[GSC.DECK_N] = n
    gs[GSC.DRAW_PTR] = 0


@njit(refcount=False)  # borrows its arrays (see state.py)
def boss_row_nb(gs, b):
    """``dk`` row of Battle ``b``'s boss (they follow the deck cards)."""
    return gs[GSC.N_DRAKKA] - N_BATTLES + b - 1


@njit(refcount=False)  # borrows its arrays (see state.py)
def setup_nb(dk, occ, tw, bl, pl, hand, fdeck, deck, gs, params, bot_id, bp, rng):
    """Reset the state and play the setup: decks, allowance, initiative, builds."""
    cfg = params[0]
    cards = params[9]
    decks = params[10]
    deck_len = params[11]
    boss_card = params[12]
    favors = params[14]
    seats = params[17]
    dk[:, :] = 0
    occ[:, :] = -1
    tw[:, :] = 0
    bl[:, :] = 0
    pl[:, :] = 0
    hand[:, :, :] = 0
    gs[:] = 0
    n = cfg[CFG_PLAYERS]
    gs[GSC.N_PLAYERS] = n
    gs[GSC.PATH_LEN] = cfg[CFG_PATH_LEN]
    gs[GSC.N_SITES] = cfg[CFG_SITES]
    gs[GSC.PANIC] = cfg[CFG_PANIC_START]  # TB-038
    gs[GSC.BOSS_WAIT] = -1
    gs[GSC.FIRST_LEAK_WAVE] = -1
    gs[GSC.WAVE_INDEX] = -1
    for b in range(N_BATTLES):
        gs[GSC.PANIC_B + b] = -1
    nd = 0
    for b in range(N_BATTLES):  # TB-027: five decks
        for k in range(deck_len[b]):
            _card_row_nb(dk, cards, nd, decks[b, k], b + 1)
            nd += 1
    for b in range(N_BATTLES):
        _card_row_nb(dk, cards, nd, boss_card[b], b + 1)
        nd += 1
    gs[GSC.N_DRAKKA] = nd
    nf = 0
    for c in range(5):
        for _ in range(favors[c]):
            fdeck[0, nf] = c
            nf += 1
    shuffle_nb(fdeck[0], nf, rng)
    gs[GSC.FD_N] = nf
    for k in range(3):
        gs[GSC.SANC + k] = cfg[CFG_SANCTIONS]
    share = cfg[CFG_ALLOWANCE] // n  # TB-049..052
    left = 15  # races not yet dealt (bit mask), for a random lineup
    for s in range(n):
        if cfg[CFG_LINEUP] != 0:
            k = randint_nb(4 - s, rng)  # the k-th race still free, then a class
            for r in range(4):
                if (left >> r) & 1:
                    if k == 0:
                        pl[s, PLC.RACE] = r
                        left &= ~(1 << r)
                        break
                    k -= 1
            pl[s, PLC.CLASS] = randint_nb(I64(3), rng)
        else:
            pl[s, PLC.RACE] = seats[s, 0]
            pl[s, PLC.CLASS] = seats[s, 1]
        pl[s, PLC.GP] = share
        pl[s, PLC.REDRAW_BATTLE] = 0
    first = initiative_nb(gs, n, rng)
    gs[GSC.ACTIVE] = first
    gs[GSC.OPENER] = first
    start_battle_nb(dk, deck, gs, I64(1), rng)  # TB-061
    # TB-055..059: the printed build order, in turn order from the first player
    if n == 1:
        order = (0, 0, 0, 0)
    elif n == 2:
        order = (0, 1, 1, 0)
    elif n == 3:
        order = (0, 1, 2, 2)
    else:
        order = (0, 1, 2, 3)
    for i in range(4):
        seat = (first + order[i]) % n
        later = 0
        for j in range(i + 1, 4):
            if (first + order[j]) % n == seat:
                later += 1
        setup_build_nb(tw, bl, pl, gs, params, seat, later, bp)


@njit(refcount=False)  # borrows its arrays (see state.py)
def _card_row_nb(dk, cards, d, card, battle):
    dk[d, DKC.CARD] = card
    dk[d, DKC.WHERE] = WHERE.UNUSED
    dk[d, DKC.POS] = -1
    dk[d, DKC.KILLER] = -1
    dk[d, DKC.POISON_SRC] = -1
    dk[d, DKC.BATTLE] = battle
    dk[d, DKC.SPEED] = cards[card, CARD.SPEED]
    dk[d, DKC.TOUGH] = cards[card, CARD.TOUGH]
    dk[d, DKC.BOUNTY] = cards[card, CARD.BOUNTY]
    dk[d, DKC.THREAT] = cards[card, CARD.THREAT]
    dk[d, DKC.FLY] = cards[card, CARD.FLY]
    dk[d, DKC.BOSS] = cards[card, CARD.BOSS]
    dk[d, DKC.SPY_DMG] = cards[card, CARD.SPY_DMG]
    dk[d, DKC.CARNAGE_DMG] = cards[card, CARD.CARNAGE_DMG]


@njit(refcount=False)  # borrows its arrays (see state.py)
def setup_build_nb(tw, bl, pl, gs, params, seat, later, bp):
    """One setup build of ``seat``.

    One setup build (TB-055): one tower, then upgrades of it as the bot wishes, keeping 25 GP for
    each of the seat's ``later`` setup builds.
    """
    cfg = params[0]
    sites = params[2]
    lv = params[5]
    nlv = params[6]
    copies = params[7]
    n_sites = cfg[CFG_SITES]
    keep = 25 * later
    pl[seat, PLC.GP] -= keep
    kind, site, line = bots.develop_choice_nb(tw, pl, params[19], params[20], params[21], lv,
                                              nlv, copies, n_sites, seat,
                                              cfg[CFG_CHEAP + pl[seat, PLC.RACE]],
                                              gs[GSC.N_PLAYERS], bp)
    if kind == 1:
        do_build_nb(tw, bl, pl, gs, params, seat, line, site)
    elif kind == 0 or kind == 2:
        # nothing new worth it: build the cheapest legal tower if affordable
        for s in range(n_sites):
            if tw[s, TWC.ALIVE] != 0:
                continue
            race = pl[seat, PLC.RACE]
            if site_allows_nb(sites, s, race, LINE.AIR_GROUND) and \
                    build_cost_nb(lv, sites, race, LINE.AIR_GROUND, s, I64(0)) <= pl[seat, PLC.GP]:
                site = s
                do_build_nb(tw, bl, pl, gs, params, seat, LINE.AIR_GROUND, s)
                break
    if site >= 0 and tw[site, TWC.ALIVE] != 0 and tw[site, TWC.OWNER] == seat:
        for _ in range(8):
            c = upgrade_cost_nb(tw, lv, nlv, site)
            if c < 0 or c > pl[seat, PLC.GP] - bp[bots.P_RESERVE] or bp[bots.P_UPGRADE] < 0.5:
                break
            do_upgrade_nb(tw, bl, pl, gs, params, seat, site)
    pl[seat, PLC.GP] += keep

