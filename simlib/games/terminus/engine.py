"""Terminus Breach TD rules and the batch kernel.

Setup, the five phases of a Wave, Imperial cards, bosses, crystals, the Lull, the end of
the game, the records.

Every helper takes the state arrays it reads or writes (see ``state.py``), then the
compiled settings ``params``, then the bot, then the generator state ``rng`` last.
Rule ids (TB-nnn) refer to ``shared/rules/terminus-checklist.md``; the readings of open
items are in this package's docstring (``__init__.py``).
"""

from __future__ import annotations

import numpy as np

from simlib.core.jit import njit, njit_parallel, prange
from simlib.core.rng import d6_nb, randint_nb, seed_state_nb, shuffle_nb, uniform_nb
from simlib.games.terminus import bots
from simlib.games.terminus.move import (
    advance_all_nb,
    draw_moves_nb,
    is_dead_nb,
    kill_nb,
)
from simlib.games.terminus.state import (
    BFX,
    BLC,
    CARD,
    DKC,
    GSC,
    IMP,
    KLOG_MAX,
    LINE,
    MAX_BLESS,
    MAX_EXTRA_WAVES,
    MAX_HAND,
    MAX_PATH,
    MAX_PLAYERS,
    N_BATTLES,
    PLC,
    TSC,
    TWC,
    WAVES_PER_BATTLE,
    WHERE,
    alloc_nb,
)
from simlib.games.terminus.towers import (
    add_blessing_nb,
    build_cost_nb,
    build_nb,
    remove_source_nb,
    sell_nb,
    site_allows_nb,
    tower_levels_nb,
    tower_stats_nb,
    upgrade_cost_nb,
    upgrade_nb,
)

# --- compiled settings: the tuple ``params`` --------------------------------------------
# params = (cfg, near, sites, sdist, cover, lv, nlv, copies, bless, cards, decks, deck_len,
#           boss_card, boss_d20, favors, cls, crystals, seats, slow_down, worth, bcost,
#           min_build)
#   cfg      int64 (CFG_N,)             scalar settings and printed tables, slots below
#   near     int32 (MAX_SITES, 16, MAX_PATH) path squares within range r of each site,
#                                       front-most first (``cover[s, r]`` of them)
#   sites    int32 (MAX_SITES, 3)       x, y, kind (spot / rock / tree) of each site
#   sdist    int32 (MAX_SITES, MAX_PATH) Chebyshev distance site -> path square (TB-014)
#   cover    int32 (MAX_SITES, 16)      path squares within range r of each site
#   lv       int32 (4, 3, MAX_LEVEL, TS.N) tower levels per race and line
#   nlv, copies int32 (4, 3)            levels per line; tower cards per line
#   bless    int32 (4, BS.N)            blessing per race
#   cards    int32 (n, CARD.N)          Drakka and boss cards
#   decks    int32 (5, MAX_DECK), deck_len int32 (5,)  Battle decks (card ids)
#   boss_card int32 (5,), boss_d20 int32 (5, 20, 2)  boss per Battle and its d20 table
#   favors   int32 (5,)                 copies of each Favor in the Favor deck
#   cls      int32 (3, 10), crystals int32 (3, 3, 3)  class level charts
#   seats    int32 (MAX_PLAYERS, 2)     race and class of each seat
#   slow_down int32 (5,)                Slow token after use, by value (TB-187/189)
#   worth    float64 (4, 3, MAX_LEVEL, MAX_SITES), bcost int32 (4, 3, MAX_SITES),
#   min_build int32 (4, 3): the Develop bots' static tables (``compile.worth_table``)
CFG_PLAYERS = 0
CFG_PATH_LEN = 1
CFG_SITES = 2
CFG_TOUGH_RULE = 3
CFG_POISON_CREDIT = 4
CFG_PANIC_START = 5
CFG_PANIC_LIMIT = 6
CFG_CLEAR_BOARD = 7
CFG_SELL_RULE = 8
CFG_HOLY_DELAY = 9
CFG_CLEAR_FEE = 10
CFG_ALLOWANCE = 11
CFG_FAVOR_PRICE = 12
CFG_VP_PRICE = 13
CFG_SANCTIONS = 14
CFG_CHECK = 15
CFG_SHARED_TIE = 16
CFG_DRAW_MOD = 17  # 17..21
CFG_TAX = 22  # 22..26
CFG_NET_CARDS = 27  # 27..29
CFG_NET_VP = 30  # 30..32
CFG_CHEST_GP = 33  # 33..35
CFG_LEVEL_VP = 36  # 36..38
CFG_SLOW_DOWN = 39  # 39..43
CFG_SLOW_SET = 44  # 44..48
CFG_CHEAP = 49  # 49..52: cheapest tower price per race
CFG_LINEUP = 53  # 0: races and classes as set; 1: dealt at random each game
CFG_N = 54

OUTCOME_NAMES = ("victory", "retreat")
N_COUNTERS = 7
POISON_STEP = (0, 3, 3, 10, 10, 10, 10, 10, 10, 10, 10)  # TB-182: 1 -> 3 -> 10


# --- Imperial cards ---------------------------------------------------------------------
@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
def hand_add_nb(hand, pl, seat, card, wave_index):
    """Give ``seat`` the Imperial card ``card``, gained in Wave ``wave_index`` (TB-120)."""
    n = pl[seat, PLC.HAND_N]
    if n >= MAX_HAND:
        return False
    hand[seat, n, 0] = card
    hand[seat, n, 1] = wave_index
    pl[seat, PLC.HAND_N] = n + 1
    return True


@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
def playable_nb(hand, pl, seat, card, wave_index):
    """Index in ``seat``'s hand of a ``card`` gained before this Wave (TB-120), or -1."""
    for i in range(pl[seat, PLC.HAND_N]):
        if hand[seat, i, 0] == card and hand[seat, i, 1] < wave_index:
            return i
    return -1


@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
def hand_take_nb(hand, pl, seat, i):
    """Remove card ``i`` from ``seat``'s hand (keeps the order of the rest); returns it."""
    card = hand[seat, i, 0]
    n = pl[seat, PLC.HAND_N]
    for j in range(i, n - 1):
        hand[seat, j, 0] = hand[seat, j + 1, 0]
        hand[seat, j, 1] = hand[seat, j + 1, 1]
    pl[seat, PLC.HAND_N] = n - 1
    return card


@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
def discard_favor_nb(fdeck, gs, card):
    """A Favor goes onto the Favor discard pile."""
    fdeck[1, gs[GSC.FD_DISC]] = card
    gs[GSC.FD_DISC] += 1


@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
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


@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
def gain_sanction_nb(hand, pl, gs, seat, card):
    """``seat`` takes Sanction ``card`` from the supply if one is left (TB-122)."""
    k = GSC.SANC + card - IMP.RENOVATE
    if gs[k] <= 0:
        return False
    if not hand_add_nb(hand, pl, seat, card, gs[GSC.WAVE_INDEX]):
        return False
    gs[k] -= 1
    return True


@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
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


@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
def tier_nb(count, cfg):
    """Spy Network / War Chest tier reached by ``count`` cards played (TB-134..137)."""
    t = 0
    for k in range(3):
        if count >= cfg[CFG_NET_CARDS + k]:
            t = k + 1
    return t


@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
def play_tax_nb(hand, fdeck, pl, gs, cfg, seat, i):
    """Play a Tax Collector: GP by the current Battle at once (TB-138..142)."""
    play_nb(hand, fdeck, pl, gs, seat, i)
    gp = cfg[CFG_TAX + gs[GSC.BATTLE] - 1]
    pl[seat, PLC.GP] += gp
    return gp


@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
def spy_execute_nb(dk, occ, pl, gs, seat, d, tough_rule):
    """Execute Drakka ``d`` with a Spy.

    Execute ``d``: killed with no Bounty (TB-126, TB-128); a boss takes its Spy damage instead
    (TB-127).
    """
    if dk[d, DKC.BOSS] != 0:
        dk[d, DKC.DMG] += dk[d, DKC.SPY_DMG]
        if is_dead_nb(dk[d, DKC.DMG], dk[d, DKC.TOUGH], tough_rule):
            kill_nb(dk, occ, pl, gs, d, seat, 0)
            gs[GSC.SPY_KILLS] += 1
        return
    kill_nb(dk, occ, pl, gs, d, seat, 0)
    gs[GSC.SPY_KILLS] += 1


@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
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
            kill_nb(dk, occ, pl, gs, d, seat, 1)
            kills += 1
    gs[GSC.CARNAGE_KILLS] += kills
    return kills


@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
def apathy_nb(dk, occ, q):
    """Apathy on square ``q``: its non-boss Drakka move 1 next Advance (TB-153, TB-162)."""
    n = 0
    for row in range(2):
        d = occ[row, q]
        if d >= 0 and dk[d, DKC.BOSS] == 0:
            dk[d, DKC.APATHY] = 1
            n += 1
    return n


@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
def place_blessings_nb(tw, bl, lv, cover, n_sites, site, seat):
    """(Re-)assign the blessings of Holy tower ``site``.

    (Re-)assign the blessings of Holy tower ``site`` (TB-227): as many as its level gives, each on
    the table's best shooting tower (TB-228/229).
    """
    remove_source_nb(bl, site)
    race = tw[site, TWC.RACE]
    n = lv[race, LINE.HOLY, tw[site, TWC.LEVEL] - 1, TSC.BLESS]
    for _ in range(n):
        t = bots.bless_target_nb(tw, lv, cover, n_sites, seat)
        if t < 0:
            return
        add_blessing_nb(bl, site, t, race)


@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
def blessings_from_nb(bl, site):
    """Blessings Holy tower ``site`` has in play."""
    n = 0
    for j in range(MAX_BLESS):
        if bl[j, BLC.ALIVE] == 0:
            break
        if bl[j, BLC.SOURCE] == site:
            n += 1
    return n


@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
def renovate_nb(tw, bl, pl, lv, nlv, cover, n_sites, seat, site):
    """Renovate: the tower on ``site`` rises one level for free (TB-155)."""
    if not upgrade_nb(tw, pl, lv, nlv, site, seat, 1):
        return False
    if tw[site, TWC.LINE] == LINE.HOLY:
        place_blessings_nb(tw, bl, lv, cover, n_sites, site, tw[site, TWC.OWNER])
    return True


# --- character levels and crystals ------------------------------------------------------
@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
def progress_nb(tw, pl, cfg, cls, n_sites, seat):
    """A character's progress toward its next level: the class chart's weighted counters."""
    c = pl[seat, PLC.CLASS]
    v = (cls[c, 0] * pl[seat, PLC.KILLS] + cls[c, 1] * (pl[seat, PLC.BOUNTY_GP] // 10)
         + cls[c, 2] * pl[seat, PLC.PETITIONS_GAINED] + cls[c, 3] * pl[seat, PLC.FAVORS_GAINED]
         + cls[c, 4] * tier_nb(pl[seat, PLC.SPY_PLAYED], cfg)
         + cls[c, 5] * tier_nb(pl[seat, PLC.TAX_PLAYED], cfg))
    if cls[c, 6] != 0:
        v += cls[c, 6] * tower_levels_nb(tw, n_sites, seat)
    return v


@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
def level_due_nb(tw, pl, cfg, cls, seat):
    """True when ``seat``'s progress has reached its next level (then call level_up_nb)."""
    lvl = pl[seat, PLC.LEVEL]
    if lvl >= 3:
        return False
    v = progress_nb(tw, pl, cfg, cls, cfg[CFG_SITES], seat)
    return v >= cls[pl[seat, PLC.CLASS], N_COUNTERS + lvl]


@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
def level_up_nb(dk, occ, tw, bl, pl, hand, fdeck, gs, params, seat, bot_id, bp, rng):
    """Raise ``seat``'s character level and spend the new crystals.

    The level rises to what the progress reached (TB-190, TB-197: 0 to 3), and each new
    level's Charged Crystals are spent at once (TB-191..195).
    """
    cfg = params[0]
    cls = params[15]
    crystals = params[16]
    n_sites = cfg[CFG_SITES]
    c = pl[seat, PLC.CLASS]
    v = progress_nb(tw, pl, cfg, cls, n_sites, seat)
    while pl[seat, PLC.LEVEL] < 3 and v >= cls[c, N_COUNTERS + pl[seat, PLC.LEVEL]]:
        pl[seat, PLC.LEVEL] += 1
        k = pl[seat, PLC.LEVEL] - 1
        for colour in range(3):
            for _ in range(crystals[c, k, colour]):
                pl[seat, PLC.CRYSTALS] += 1
                use_crystal_nb(dk, occ, tw, bl, pl, hand, fdeck, gs, params, seat, colour,
                               bot_id, bp, rng)


@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
def use_crystal_nb(dk, occ, tw, bl, pl, hand, fdeck, gs, params, seat, colour, bot_id, bp,
                   rng):
    """Spend one Charged Crystal of ``colour`` (0 White, 1 Pink, 2 Red) on one option.

    White: 2 Petitions / 1 Favor / 1-square Carnage; Pink: 3 Petitions / 3 Favors /
    2-square Carnage; Red: 5 Favors / Renovate / 3-square Carnage (TB-193..195). The bot
    casts the Carnage when Drakka threaten to get through, else Renovates with a Red
    crystal, else takes Petitions (petitioner, White) or Favors.
    """
    cfg = params[0]
    cover = params[4]
    lv = params[5]
    nlv = params[6]
    path_len = cfg[CFG_PATH_LEN]
    k = colour + 1
    if bots.danger_nb(dk, occ, path_len) > 0:
        a, w = bots.carnage_window_nb(dk, occ, path_len, k)
        if a >= 0:
            carnage_nb(dk, occ, pl, gs, seat, a, k, path_len, cfg[CFG_TOUGH_RULE])
            return
    if colour == 2:
        s = bots.renovate_target_nb(tw, lv, nlv, cfg[CFG_SITES], seat)
        if s >= 0:
            renovate_nb(tw, bl, pl, lv, nlv, cover, cfg[CFG_SITES], seat, s)
            return
    if colour < 2 and bot_id == bots.PETITIONER:
        pl[seat, PLC.PETITIONS] += colour + 2
        pl[seat, PLC.PETITIONS_GAINED] += colour + 2
        return
    n = 1 if colour == 0 else (3 if colour == 1 else 5)
    for _ in range(n):
        gain_favor_nb(hand, fdeck, pl, gs, seat, rng)


# --- setup, initiative, battles ---------------------------------------------------------
@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
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


@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
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


@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
def boss_row_nb(gs, b):
    """``dk`` row of Battle ``b``'s boss (they follow the deck cards)."""
    return gs[GSC.N_DRAKKA] - N_BATTLES + b - 1


@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
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
            pl[s, PLC.CLASS] = randint_nb(3, rng)
        else:
            pl[s, PLC.RACE] = seats[s, 0]
            pl[s, PLC.CLASS] = seats[s, 1]
        pl[s, PLC.GP] = share
        pl[s, PLC.REDRAW_BATTLE] = 0
    first = initiative_nb(gs, n, rng)
    gs[GSC.ACTIVE] = first
    start_battle_nb(dk, deck, gs, 1, rng)  # TB-061
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


@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
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


@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
def holy_ready_nb(cfg, race, wave_index):
    """Wave index from which a new Holy tower blesses (TB-024/025: Treefolk wait)."""
    if race == 2:  # Treefolk
        return wave_index + cfg[CFG_HOLY_DELAY]
    return wave_index


@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
def do_build_nb(tw, bl, pl, gs, params, seat, line, site):
    """``seat`` builds ``line`` on ``site`` (TB-109) and places a Holy tower's blessings."""
    cfg = params[0]
    sites = params[2]
    cover = params[4]
    lv = params[5]
    build_nb(tw, pl, lv, sites, seat, line, site, cfg[CFG_CLEAR_FEE],
             holy_ready_nb(cfg, pl[seat, PLC.RACE], gs[GSC.WAVE_INDEX]))
    if line == LINE.HOLY:
        place_blessings_nb(tw, bl, lv, cover, cfg[CFG_SITES], site, seat)


@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
def do_upgrade_nb(tw, bl, pl, gs, params, seat, site):
    """``seat`` pays the next level of its tower on ``site``.

    ``seat`` pays the next level of its tower on ``site`` (TB-111); a Holy tower's blessings are re-
    assigned (TB-227).
    """
    cfg = params[0]
    cover = params[4]
    lv = params[5]
    nlv = params[6]
    upgrade_nb(tw, pl, lv, nlv, site, seat, 0)
    if tw[site, TWC.LINE] == LINE.HOLY:
        place_blessings_nb(tw, bl, lv, cover, cfg[CFG_SITES], site, seat)


@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
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
                    build_cost_nb(lv, sites, race, LINE.AIR_GROUND, s, 0) <= pl[seat, PLC.GP]:
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


# --- the phases ---------------------------------------------------------------------------
@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
def boss_rolls_nb(dk, occ, tw, gs, params, rng):
    """TB-065: one d20 per boss on the path, each result applied at once (TB-163, TB-177)."""
    cfg = params[0]
    sdist = params[3]
    boss_d20 = params[13]
    n_sites = cfg[CFG_SITES]
    for b in range(1, N_BATTLES + 1):
        d = boss_row_nb(gs, b)
        if dk[d, DKC.WHERE] != WHERE.PATH:
            continue
        roll = randint_nb(20, rng)
        fx = boss_d20[b - 1, roll, 0]
        n = boss_d20[b - 1, roll, 1]
        if fx == BFX.HEAL:
            dk[d, DKC.DMG] = max(0, dk[d, DKC.DMG] - n)
        elif fx == BFX.HASTE:
            dk[d, DKC.HASTE] = n
        elif fx == BFX.FEAR or fx == BFX.PETRIFY:
            col = TWC.FEAR if fx == BFX.FEAR else TWC.PETRIFY
            q = dk[d, DKC.POS]
            for _ in range(n):
                best = -1
                for s in range(n_sites):
                    if tw[s, TWC.ALIVE] == 0 or tw[s, TWC.LINE] == LINE.HOLY or tw[s, col] != 0:
                        continue
                    if best < 0 or sdist[s, q] < sdist[best, q]:
                        best = s
                if best < 0:
                    break
                tw[best, col] = 1


@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
def advance_phase_nb(dk, occ, tw, pl, gs, params, rng):
    """Advance: boss d20 rolls, then every Drakka moves, front-most first."""
    cfg = params[0]
    slow_down = params[18]
    boss_rolls_nb(dk, occ, tw, gs, params, rng)
    advance_all_nb(dk, occ, pl, gs, cfg[CFG_PATH_LEN], slow_down, cfg[CFG_TOUGH_RULE],
                   cfg[CFG_POISON_CREDIT], cfg[CFG_PANIC_LIMIT])


@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
def draw_count_nb(cfg, battle, roll):
    """Drakka drawn: the d6 ``roll`` plus the Battle's Draw modifier (TB-078..084)."""
    return roll + cfg[CFG_DRAW_MOD + battle - 1]


@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
def draw_phase_nb(dk, occ, gs, deck, params, rng):
    """Draw: the active player rolls the d6; in Wave 3 the boss enters first (TB-085)."""
    cfg = params[0]
    roll = d6_nb(rng)
    n = draw_count_nb(cfg, gs[GSC.BATTLE], roll)
    boss = gs[GSC.BOSS_WAIT]
    if gs[GSC.WAVE] == WAVES_PER_BATTLE and boss < 0:
        d = boss_row_nb(gs, gs[GSC.BATTLE])
        if dk[d, DKC.WHERE] == WHERE.DECK:
            boss = d
    return draw_moves_nb(dk, occ, gs, deck, n, boss, cfg[CFG_PATH_LEN], cfg[CFG_PANIC_LIMIT])


@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
def hit_nb(dk, occ, pl, gs, d, seat, dmg, poison, slow, pup, tough_rule, cfg):
    """A shot of ``seat``'s tower hits Drakka ``d``.

    A shot of ``seat``'s tower hits ``d``: damage counters (TB-096), Poison and Slow tokens
    (TB-179..182, TB-185..189), and the kill (TB-097). Returns True on a kill.
    """
    dk[d, DKC.DMG] += dmg
    if is_dead_nb(dk[d, DKC.DMG], dk[d, DKC.TOUGH], tough_rule):
        kill_nb(dk, occ, pl, gs, d, seat, 1)
        return True
    cur = dk[d, DKC.POISON]
    new = cur
    if poison > cur:
        new = poison  # TB-180: a higher value replaces the token
    if pup != 0 and (poison > 0 or cur > 0):
        up = POISON_STEP[cur] if cur > 0 else poison
        if up > new:
            new = up  # TB-182: a blessed hit raises the token one step
    if new != cur:
        dk[d, DKC.POISON] = new
        dk[d, DKC.POISON_SRC] = seat
    if slow > 0:
        v = cfg[CFG_SLOW_SET + slow]
        if v > dk[d, DKC.SLOW]:
            dk[d, DKC.SLOW] = v  # TB-188/189: replenished to the hit's value if higher
    return False


@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
def fire_tower_nb(dk, occ, tw, bl, pl, gs, cfg, near, cover, sdist, lv, bless, s, bp):
    """Tower ``s`` fires its shots.

    Tower ``s`` fires every shot its Rate allows while a legal target is left (TB-091..093, TB-098).
    Returns the shots fired. Takes the few tables it reads, not ``params``: it runs for every
    tower in every Wave, and a call copies its arguments.
    """
    dmg, rng_, rate, poison, slow, fly, pup = tower_stats_nb(
        tw, bl, lv, bless, s, gs[GSC.BATTLE], gs[GSC.WAVE_INDEX])
    seat = tw[s, TWC.OWNER]
    shots = 0
    for _ in range(rate):
        d = bots.target_nb(dk, occ, near, cover, sdist, s, rng_, fly, dmg, cfg[CFG_PATH_LEN],
                           cfg[CFG_TOUGH_RULE], bp)
        if d < 0:
            break
        hit_nb(dk, occ, pl, gs, d, seat, dmg, poison, slow, pup, cfg[CFG_TOUGH_RULE], cfg)
        shots += 1
    return shots


@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
def defend_cards_nb(dk, occ, tw, bl, pl, hand, fdeck, gs, params, seat, bot_id, bp, rng):
    """Cards ``seat`` plays as its Defend turn starts.

    Cards ``seat`` plays as its Defend turn starts: Carnage, Spy (Execute or Sabotage), Combust,
    Falconry (TB-124).
    """
    cfg = params[0]
    sdist = params[3]
    lv = params[5]
    wi = gs[GSC.WAVE_INDEX]
    path_len = cfg[CFG_PATH_LEN]
    n_sites = cfg[CFG_SITES]
    i = playable_nb(hand, pl, seat, IMP.CARNAGE, wi)
    if i >= 0:
        a, w = bots.carnage_window_nb(dk, occ, path_len, 3)
        if a >= 0 and (w >= 4.0 or bots.danger_nb(dk, occ, path_len) > 0):
            play_nb(hand, fdeck, pl, gs, seat, i)
            carnage_nb(dk, occ, pl, gs, seat, a, 3, path_len, cfg[CFG_TOUGH_RULE])
    for _ in range(MAX_HAND):
        i = playable_nb(hand, pl, seat, IMP.SPY, wi)
        if i < 0:
            break
        d = bots.spy_target_nb(dk, occ, tw, sdist, n_sites, path_len, seat)
        if d < 0:
            break
        play_nb(hand, fdeck, pl, gs, seat, i)
        if not countered_nb(hand, fdeck, pl, gs, -1, seat, wi):
            spy_execute_nb(dk, occ, pl, gs, seat, d, cfg[CFG_TOUGH_RULE])
    for card in (IMP.COMBUST, IMP.FALCONRY):
        i = playable_nb(hand, pl, seat, card, wi)
        if i >= 0:
            s = bots.boost_tower_nb(tw, dk, occ, sdist, lv, n_sites, path_len, seat)
            if s >= 0:
                play_nb(hand, fdeck, pl, gs, seat, i)
                tw[s, TWC.COMBUST if card == IMP.COMBUST else TWC.FALCONRY] = 1


@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
def holds_defend_card_nb(hand, pl, seat, wave_index):
    """True when ``seat`` holds a playable Carnage, Spy, Combust or Falconry."""
    for i in range(pl[seat, PLC.HAND_N]):
        c = hand[seat, i, 0]
        if hand[seat, i, 1] < wave_index and (c == IMP.SPY or c == IMP.COMBUST or
                                              c == IMP.FALCONRY or c == IMP.CARNAGE):
            return True
    return False


@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
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


@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
def sabotage_nb(dk, occ, tw, pl, hand, fdeck, gs, params, victim, bot_id, bp, rng):
    """Rivals' Sabotage before ``victim`` fires.

    Before ``victim`` fires, each rival may Sabotage one of its towers that could fire
    (TB-129..131), with the bot's ``sabotage`` chance; the victim may counter (TB-132).
    """
    cfg = params[0]
    sdist = params[3]
    lv = params[5]
    if bp[bots.P_SABOTAGE] <= 0.0:
        return
    n = gs[GSC.N_PLAYERS]
    wi = gs[GSC.WAVE_INDEX]
    for k in range(1, n):
        spy = (victim + k) % n
        i = playable_nb(hand, pl, spy, IMP.SPY, wi)
        if i < 0 or uniform_nb(rng) >= bp[bots.P_SABOTAGE]:
            continue
        s = bots.sabotage_target_nb(tw, dk, occ, sdist, lv, cfg[CFG_SITES], cfg[CFG_PATH_LEN],
                                    victim)
        if s < 0:
            continue
        play_nb(hand, fdeck, pl, gs, spy, i)
        if not countered_nb(hand, fdeck, pl, gs, victim, spy, wi):
            tw[s, TWC.SABOTAGED] = 1


@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
def defend_phase_nb(dk, occ, tw, bl, pl, hand, fdeck, gs, params, bot_id, bp, rng):
    """The Defend phase.

    Defend: from the active player clockwise, each player plays cards and fires all their towers
    (TB-090, TB-095: in site order); tokens of one Defend phase then end.
    """
    cfg = params[0]
    near = params[1]
    sdist = params[3]
    cover = params[4]
    lv = params[5]
    bless = params[8]
    n = gs[GSC.N_PLAYERS]
    n_sites = cfg[CFG_SITES]
    for k in range(n):
        seat = (gs[GSC.ACTIVE] + k) % n
        if bp[bots.P_SABOTAGE] > 0.0:
            sabotage_nb(dk, occ, tw, pl, hand, fdeck, gs, params, seat, bot_id, bp, rng)
        if holds_defend_card_nb(hand, pl, seat, gs[GSC.WAVE_INDEX]):
            defend_cards_nb(dk, occ, tw, bl, pl, hand, fdeck, gs, params, seat, bot_id, bp,
                            rng)
        for s in range(n_sites):
            if tw[s, TWC.ALIVE] != 0 and tw[s, TWC.OWNER] == seat and \
                    tw[s, TWC.LINE] != LINE.HOLY:
                fire_tower_nb(dk, occ, tw, bl, pl, gs, cfg, near, cover, sdist, lv, bless, s,
                              bp)
    for s in range(n_sites):  # TB-150, TB-152, TB-175
        tw[s, TWC.FEAR] = 0
        tw[s, TWC.PETRIFY] = 0
        tw[s, TWC.COMBUST] = 0
        tw[s, TWC.FALCONRY] = 0


@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
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


@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
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


@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
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


@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
def resolve_phase_nb(dk, occ, tw, bl, pl, hand, fdeck, gs, params, bot_id, bp, rng):
    """The Resolve phase.

    Resolve: Bounty or a Petition, Tax Collectors, Petition trades, buying a Favor (TB-117/118), the
    discard-and-redraw, then level-ups.
    """
    cfg = params[0]
    n = gs[GSC.N_PLAYERS]
    wi = gs[GSC.WAVE_INDEX]
    for k in range(n):
        seat = (gs[GSC.ACTIVE] + k) % n
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
                if c >= 0 and trade_nb(hand, fdeck, pl, gs, seat, 3, c, rng):
                    continue
            if p >= 5:
                trade_nb(hand, fdeck, pl, gs, seat, 2, -1, rng)
            elif p >= 3:
                trade_nb(hand, fdeck, pl, gs, seat, 1, -1, rng)
            elif p >= 2 and bot_id == bots.PETITIONER:
                trade_nb(hand, fdeck, pl, gs, seat, 0, -1, rng)
            else:
                break
        price = cfg[CFG_FAVOR_PRICE] * gs[GSC.BATTLE]
        if pl[seat, PLC.BOUGHT_WAVE] == 0 and pl[seat, PLC.GP] - price >= bp[bots.P_RESERVE] \
                and bp[bots.P_FAVOR] > 0.0 and uniform_nb(rng) < bp[bots.P_FAVOR]:
            if gain_favor_nb(hand, fdeck, pl, gs, seat, rng) >= 0:
                pl[seat, PLC.GP] -= price
                pl[seat, PLC.BOUGHT_WAVE] = 1
        redraw_nb(hand, fdeck, pl, gs, seat, bots.redraw_count_nb(
            hand[seat], pl[seat, PLC.HAND_N], bot_id), rng)
        if level_due_nb(tw, pl, cfg, params[15], seat):
            level_up_nb(dk, occ, tw, bl, pl, hand, fdeck, gs, params, seat, bot_id, bp, rng)


@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
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
                add_blessing_nb(bl, -1, t, pl[seat, PLC.RACE])  # TB-159
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


# --- the Lull and the end ---------------------------------------------------------------
@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
def tally_nb(tw, pl, gs, cfg, final, bp):
    """Lull step 1: the tally.

    Lull step 1 (TB-199..203): 1 VP per kill this Battle, 1 VP per tower level, the Spy Network VP,
    the War Chest GP, then VP bought at 100 GP each (all GP if ``final``, else the bot's ``vp_buy``
    share).
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
        if final != 0:
            buy = pl[seat, PLC.GP] // price
        else:
            buy = int(bp[bots.P_VP] * pl[seat, PLC.GP]) // price
        pl[seat, PLC.GP] -= buy * price
        pl[seat, PLC.VP] += buy
        pl[seat, PLC.VP_BOUGHT] += buy
        pl[seat, PLC.BATTLE_KILLS] = 0


@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
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


@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
def lull_nb(dk, tw, pl, deck, gs, params, b, bp, rng):
    """The Lull after Battle ``b`` (TB-006, TB-198..210)."""
    cfg = params[0]
    tally_nb(tw, pl, gs, cfg, 0, bp)
    clear_piles_nb(dk, gs)
    start_battle_nb(dk, deck, gs, b + 1, rng)
    if b == 2 or b == 4:  # TB-210
        initiative_nb(gs, gs[GSC.N_PLAYERS], rng)


@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
def final_scoring_nb(tw, pl, gs, cfg, bp):
    """End of game: the last tally (TB-211/219), character-level VP (TB-215..218)."""
    tally_nb(tw, pl, gs, cfg, 1, bp)
    for seat in range(gs[GSC.N_PLAYERS]):
        lvl = pl[seat, PLC.LEVEL]
        if lvl > 0:
            pl[seat, PLC.VP] += cfg[CFG_LEVEL_VP + lvl - 1]


@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
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


@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
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


@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
def over_nb(gs, cfg):
    """TB-213: the retreat, the moment the panic reaches the limit."""
    if gs[GSC.PANIC] >= cfg[CFG_PANIC_LIMIT]:
        gs[GSC.OVER] = 1
        gs[GSC.RETREAT] = 1
        return True
    return False


@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
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


@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
def play_wave_nb(dk, occ, tw, bl, pl, hand, fdeck, deck, gs, params, draw, bot_id, bp, rng):
    """One Wave: Advance, Draw (if ``draw``), Defend, Resolve, Develop (TB-005)."""
    cfg = params[0]
    start_wave_nb(gs)
    advance_phase_nb(dk, occ, tw, pl, gs, params, rng)
    if over_nb(gs, cfg):
        return
    if draw != 0:
        draw_phase_nb(dk, occ, gs, deck, params, rng)
        if over_nb(gs, cfg):
            return
    defend_phase_nb(dk, occ, tw, bl, pl, hand, fdeck, gs, params, bot_id, bp, rng)
    resolve_phase_nb(dk, occ, tw, bl, pl, hand, fdeck, gs, params, bot_id, bp, rng)
    develop_phase_nb(dk, occ, tw, bl, pl, hand, fdeck, gs, params, bot_id, bp, rng)
    end_wave_nb(dk, tw, pl, gs, cfg[CFG_SITES])
    if cfg[CFG_CHECK] != 0:
        check_invariants_nb(dk, occ, tw, bl, pl, gs, params)


@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
def on_path_nb(dk, gs):
    """Drakka still on the path."""
    n = 0
    for d in range(gs[GSC.N_DRAKKA]):
        if dk[d, DKC.WHERE] == WHERE.PATH:
            n += 1
    return n


@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
def play_battles_nb(dk, occ, tw, bl, pl, hand, fdeck, deck, gs, params, bot_id, bp, rng):
    """Battles 1..5 of 3 Waves with a Lull between (TB-002/003), then clear the board."""
    cfg = params[0]
    for b in range(1, N_BATTLES + 1):
        for w in range(1, WAVES_PER_BATTLE + 1):
            gs[GSC.WAVE] = w
            play_wave_nb(dk, occ, tw, bl, pl, hand, fdeck, deck, gs, params, 1, bot_id, bp,
                         rng)
            if gs[GSC.OVER] != 0:
                gs[GSC.PANIC_B + b - 1] = gs[GSC.PANIC]
                return
        gs[GSC.PANIC_B + b - 1] = gs[GSC.PANIC]
        if b < N_BATTLES:
            lull_nb(dk, tw, pl, deck, gs, params, b, bp, rng)
    if cfg[CFG_CLEAR_BOARD] != 0:  # TB-214
        for _ in range(MAX_EXTRA_WAVES):
            if on_path_nb(dk, gs) == 0:
                break
            gs[GSC.EXTRA_WAVES] += 1
            gs[GSC.WAVE] = WAVES_PER_BATTLE + gs[GSC.EXTRA_WAVES]
            play_wave_nb(dk, occ, tw, bl, pl, hand, fdeck, deck, gs, params, 0, bot_id, bp,
                         rng)
            if gs[GSC.OVER] != 0:
                break
        gs[GSC.PANIC_B + N_BATTLES - 1] = gs[GSC.PANIC]
    gs[GSC.OVER] = 1


@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
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


# --- records and the batch ----------------------------------------------------------------
record_dt = np.dtype(
    [
        ("game_index", np.int64),
        ("win", np.bool_),
        ("outcome", np.int8),
        ("rounds", np.int16),
        ("battle_reached", np.int8),
        ("wave_reached", np.int8),
        ("players", np.int8),
        ("panic", np.int16),
        ("leaks", np.int16),
        ("trampled", np.int16),
        ("kills", np.int16),
        ("boss_kills", np.int8),
        ("poison_kills", np.int16),
        ("carnage_kills", np.int16),
        ("spy_kills", np.int16),
        ("favors_played", np.int16),
        ("sanctions_played", np.int16),
        ("extra_waves", np.int16),
        ("towers_sold", np.int16),
        ("first_leak_wave", np.int16),
        ("drakka_left", np.int16),
        ("vp_winner", np.int8),
        ("shared_win", np.bool_),
        ("advance_steps", np.int32),
        ("invariant_violations", np.int32),
        ("panic_b", np.int16, (N_BATTLES,)),
        ("leaks_b", np.int16, (N_BATTLES,)),
        ("trampled_b", np.int16, (N_BATTLES,)),
        ("race", np.int8, (MAX_PLAYERS,)),
        ("klass", np.int8, (MAX_PLAYERS,)),
        ("vp", np.int32, (MAX_PLAYERS,)),
        ("gp", np.int32, (MAX_PLAYERS,)),
        ("towers", np.int16, (MAX_PLAYERS,)),
        ("level", np.int8, (MAX_PLAYERS,)),
        ("seat_kills", np.int16, (MAX_PLAYERS,)),
    ],
    align=True,
)


@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
def write_record_nb(dk, pl, gs, rec, game_index):
    """Fill one record from the final state. ``rec`` is a record of ``record_dt``."""
    n = gs[GSC.N_PLAYERS]
    retreat = gs[GSC.RETREAT] != 0
    rec["game_index"] = game_index
    rec["win"] = not retreat
    rec["outcome"] = 1 if retreat else 0
    rec["rounds"] = gs[GSC.WAVE_INDEX] + 1
    rec["battle_reached"] = gs[GSC.BATTLE]
    rec["wave_reached"] = gs[GSC.WAVE]
    rec["players"] = n
    rec["panic"] = gs[GSC.PANIC]
    rec["leaks"] = gs[GSC.LEAKS]
    rec["trampled"] = gs[GSC.TRAMPLED]
    rec["kills"] = gs[GSC.KILLS]
    rec["boss_kills"] = gs[GSC.BOSS_KILLS]
    rec["poison_kills"] = gs[GSC.POISON_KILLS]
    rec["carnage_kills"] = gs[GSC.CARNAGE_KILLS]
    rec["spy_kills"] = gs[GSC.SPY_KILLS]
    rec["favors_played"] = gs[GSC.FAVORS_PLAYED]
    rec["sanctions_played"] = gs[GSC.SANCTIONS_PLAYED]
    rec["extra_waves"] = gs[GSC.EXTRA_WAVES]
    rec["towers_sold"] = gs[GSC.SOLD]
    rec["first_leak_wave"] = gs[GSC.FIRST_LEAK_WAVE]
    rec["drakka_left"] = on_path_nb(dk, gs)
    mask = winners_nb(pl, n)
    first = -1
    count = 0
    for s in range(n):
        if (mask >> s) & 1:
            count += 1
            if first < 0:
                first = s
    rec["vp_winner"] = first
    rec["shared_win"] = count > 1
    rec["advance_steps"] = gs[GSC.ADV_STEPS]
    rec["invariant_violations"] = gs[GSC.VIOLATIONS]
    for b in range(N_BATTLES):
        rec["panic_b"][b] = gs[GSC.PANIC_B + b]
        rec["leaks_b"][b] = gs[GSC.LEAKS_B + b]
        rec["trampled_b"][b] = gs[GSC.TRAMPLED_B + b]
    for s in range(MAX_PLAYERS):
        if s < n:
            rec["race"][s] = pl[s, PLC.RACE]
            rec["klass"][s] = pl[s, PLC.CLASS]
            rec["vp"][s] = pl[s, PLC.VP]
            rec["gp"][s] = pl[s, PLC.GP]
            rec["towers"][s] = pl[s, PLC.TOWERS_BUILT]
            rec["level"][s] = pl[s, PLC.LEVEL]
            rec["seat_kills"][s] = pl[s, PLC.KILLS]
        else:
            rec["race"][s] = -1
            rec["klass"][s] = -1
            rec["vp"][s] = -1
            rec["gp"][s] = -1
            rec["towers"][s] = -1
            rec["level"][s] = -1
            rec["seat_kills"][s] = -1


@njit(_nrt=False)  # no array is created: no reference counting (see state.py)
def play_one_nb(dk, occ, tw, bl, pl, hand, fdeck, deck, gs, params, bot_id, bp, seed,
                game_index, rec, rng):
    """Play game ``game_index`` of run ``seed`` on preallocated state; fill ``rec``."""
    seed_state_nb(seed, game_index, rng)
    setup_nb(dk, occ, tw, bl, pl, hand, fdeck, deck, gs, params, bot_id, bp, rng)
    play_battles_nb(dk, occ, tw, bl, pl, hand, fdeck, deck, gs, params, bot_id, bp, rng)
    final_scoring_nb(tw, pl, gs, params[0], bp)
    if params[0][CFG_CHECK] != 0:
        check_invariants_nb(dk, occ, tw, bl, pl, gs, params)
    write_record_nb(dk, pl, gs, rec, game_index)


@njit_parallel
def play_batch_nb(params, bot_id, bp, seed, start, out, block):
    """Play games ``start .. start+len(out)-1`` in parallel into ``out`` (written).

    Games are dealt in blocks of ``block``; each block allocates its state once and
    reuses it, so no game allocates. Each game's stream depends on (seed, index) only.
    """
    count = out.shape[0]
    n_blocks = (count + block - 1) // block
    for b in prange(n_blocks):
        dk, occ, tw, bl, pl, hand, fdeck, deck, gs, scr = alloc_nb()
        rng = np.zeros(4, np.uint64)
        lo = b * block
        hi = min(count, lo + block)
        for i in range(lo, hi):
            play_one_nb(dk, occ, tw, bl, pl, hand, fdeck, deck, gs, params, bot_id, bp, seed,
                        start + i, out[i], rng)

