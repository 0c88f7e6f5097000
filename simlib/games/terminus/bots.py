"""Scripted Terminus Breach TD players: every choice the rules leave to a player.

All seats of a table play the same bot (chosen by id) with the same float parameters
``bp`` (names in ``PARAM_NAMES``). Each bot wants the table to survive (it shoots the
Drakka nearest the breach and spends on defence) while chasing its own VPs in its own way:

- ``killer``: the greedy bounty killer: its shots go first to Drakka they kill, the richest
  Bounty first; it builds damage and rarely touches Imperial cards.
- ``petitioner``: buys a Favor every Wave it can, trades Petitions, plays every Imperial
  card (Spy for networks, Tax Collector for war chests).
- ``builder``: upgrades before building, builds Holy towers and places blessings on the
  table's best towers, takes Renovate and Invocation; it always shoots the Drakka nearest
  the breach (``greed`` 0). It keeps its GP for towers in Battles 1-4 and buys a Favor
  every Wave it can afford one from Battle 5 on (``favor_buy`` 0, ``favor_late`` 1), when
  GP kept only tallies as VP at the end (the search bot's choices showed it: with the
  old 10% chance in every Wave it survived Legendary 70% of games, with this 89%).

Every bot also watches the table's anti-air (``air``): Heavy Ground towers can never shoot
a flyer (TB-010), yet per GP they look the best buys; while Build Spots are short and less
than ``air`` of the table's shooting worth can hit flyers, a bot builds and raises only
lines that can. With ``sell`` > 0 a bot whose table is badly short of anti-air (share below
``sell``) and has no free spot destroys its weakest Heavy Ground tower (TB-113) and builds
Air & Ground on that spot in the same Develop phase.

Functions take the state arrays they read, then params, then ``bp``; they return choices
and write nothing unless they say so.
"""

from __future__ import annotations

import numpy as np

from simlib.core.jit import njit
from simlib.games.terminus.move import is_dead_nb
from simlib.games.terminus.state import (
    DKC,
    IMP,
    LINE,
    PLC,
    TSC,
    TWC,
)
from simlib.games.terminus.towers import (
    count_targets_nb,
    legal_target_nb,
    upgrade_cost_nb,
)

PARAM_NAMES = ("front", "greed", "reserve", "upgrade", "holy", "favor_buy", "vp_buy",
               "sabotage", "heavy", "air", "sell", "favor_late")
PARAM_HELP = {
    "front": "weight of a target's progress along the path (shoot the front-most)",
    "greed": "weight of a killing shot's Bounty in target choice",
    "reserve": "GP kept back when building and buying",
    "upgrade": "preference for upgrades over new towers (multiplies their value by 1 + x)",
    "holy": "weight of Holy towers and blessings when developing",
    "favor_buy": "chance of buying a Favor in a Wave of Battles 1-4 when it is affordable",
    "vp_buy": "share of GP turned into VP at the Lulls before the final tally",
    "sabotage": "chance of sabotaging a rival's tower with a Spy (else Execute)",
    "heavy": "weight of Heavy Ground towers against Air & Ground ones",
    "air": "share of the table's shooting worth that must be able to hit flying Drakka "
           "before the bot builds or upgrades Heavy Ground (0: never checked)",
    "sell": "anti-air share of the table below which a bot with no free spot sells its "
            "lowest-level Heavy Ground tower and rebuilds Air & Ground there (0: never)",
    "favor_late": "chance of buying a Favor in a Wave of Battle 5 and the clear-the-board "
                  "Waves when it is affordable (GP left at the end only tallies as VP)",
}
PARAM_BOUNDS = {
    "front": (0.0, 10.0), "greed": (0.0, 10.0), "reserve": (0.0, 2000.0),
    "upgrade": (0.0, 10.0), "holy": (0.0, 10.0), "favor_buy": (0.0, 1.0),
    "vp_buy": (0.0, 1.0), "sabotage": (0.0, 1.0), "heavy": (0.0, 10.0),
    "air": (0.0, 1.0), "sell": (0.0, 1.0), "favor_late": (0.0, 1.0),
}
BOTS = {
    "builder": (0, (1.0, 0.0, 0.0, 1.5, 1.0, 0.0, 0.1, 0.0, 1.0, 0.5, 0.5, 1.0),
                "upgrades before building, builds Holy towers and blesses the best towers; "
                "buys a Favor every Wave from Battle 5 on, none before"),
    "killer": (1, (0.4, 1.0, 0.0, 0.5, 0.0, 0.0, 0.3, 0.0, 1.0, 0.5, 0.0, 0.0),
               "greedy bounty killer: shoots what it can kill for the richest Bounty"),
    "petitioner": (2, (1.0, 0.2, 0.0, 0.8, 0.3, 1.0, 0.2, 0.0, 0.8, 0.5, 0.3, 1.0),
                   "buys and trades for Imperial cards and plays them all"),
}
BUILDER, KILLER, PETITIONER = 0, 1, 2
(P_FRONT, P_GREED, P_RESERVE, P_UPGRADE, P_HOLY, P_FAVOR, P_VP, P_SABOTAGE, P_HEAVY, P_AIR,
 P_SELL, P_FAVOR_LATE) = range(12)


@njit(refcount=False)  # borrows its arrays (see state.py)
def target_nb(dk, occ, near, cover, sdist, s, rng, fly_ok, dmg, path_len, tough_rule, bp):
    """The Drakka a shot of tower ``s`` goes to (TB-094), or -1 when none is legal.

    Score: ``front`` x progress along the path, plus ``greed`` x (0.5 + Bounty / 100) when
    the shot kills. Ties go to the front-most. Candidates are the squares within ``rng``
    of the site (``near``/``cover``, front-most first; a longer range scans the path).
    """
    best = -1
    best_score = -1.0
    front = bp[P_FRONT]
    greed = bp[P_GREED]
    rmax = cover.shape[1] - 1
    n = cover[s, rng] if rng < rmax else path_len
    fast = greed <= 0.0 and front > 0.0  # the first legal Drakka, front-most, wins
    for k in range(n):
        q = near[s, rng, k] if rng < rmax else path_len - 1 - k
        if rng >= rmax and sdist[s, q] > rng:
            continue
        for row in range(2):
            d = occ[row, q]
            if d < 0 or (row == 1 and d == occ[0, q]) or not legal_target_nb(dk, d, fly_ok):
                continue
            if fast:
                return d
            score = front * (q + 1) / path_len
            if greed > 0.0 and is_dead_nb(dk[d, DKC.DMG] + dmg, dk[d, DKC.TOUGH], tough_rule):
                score += greed * (0.5 + dk[d, DKC.BOUNTY] / 100.0)
            if score > best_score:
                best_score = score
                best = d
    return best


@njit(refcount=False)  # borrows its arrays (see state.py)
def tower_value_nb(lv, cov, race, line, level):
    """Rough worth of a shooting tower level.

    Rough worth of a shooting tower level: (damage + poison + slow)

    x rate x squares covered (``cov``: squares within range r of its site, by r).
    """
    rng = lv[race, line, level - 1, TSC.RANGE]
    if rng >= cov.shape[0]:
        rng = cov.shape[0] - 1
    dmg = lv[race, line, level - 1, TSC.DMG] + lv[race, line, level - 1, TSC.POISON] + \
        lv[race, line, level - 1, TSC.SLOW]
    return float(dmg * lv[race, line, level - 1, TSC.RATE] * cov[rng])


@njit(refcount=False)  # borrows its arrays (see state.py)
def anti_air_share_nb(tw, worth, lv, n_sites):
    """Share of the table's shooting worth that can hit flying Drakka, and that worth.

    Every standing shooting tower counts (any owner: the table survives together) with
    its ``worth`` at its site and level; the share is -1.0 while no shooting tower stands.
    Returns ``(share, total)``.
    """
    air = 0.0
    total = 0.0
    for s in range(n_sites):
        if tw[s, TWC.ALIVE] == 0 or tw[s, TWC.LINE] == LINE.HOLY:
            continue
        r = tw[s, TWC.RACE]
        li = tw[s, TWC.LINE]
        k = tw[s, TWC.LEVEL] - 1
        w = worth[r, li, k, s]
        total += w
        if lv[r, li, k, TSC.FLY] != 0:
            air += w
    if total <= 0.0:
        return -1.0, total
    return air / total, total


@njit(refcount=False)  # borrows its arrays (see state.py)
def spots_short_nb(tw, pl, bcost, copies, n_sites, n_players):
    """True when Build Spots are short: no more free than Air & Ground towers still to come.

    The table's characters could still build that many Air & Ground towers, so a Heavy
    Ground tower built now may take the spot of a needed anti-air tower. (With one player
    the 4 + 3 tower cards fit every shipped map, so a lone character is never held back.)
    """
    free = 0
    for s in range(n_sites):
        if tw[s, TWC.ALIVE] == 0 and bcost[0, LINE.AIR_GROUND, s] >= 0:
            free += 1
    left = 0
    for p in range(n_players):
        left += copies[pl[p, PLC.RACE], LINE.AIR_GROUND]
    for s in range(n_sites):
        if tw[s, TWC.ALIVE] != 0 and tw[s, TWC.LINE] == LINE.AIR_GROUND:
            left -= 1
    return free <= left


@njit(refcount=False)  # borrows its arrays (see state.py)
def air_open_nb(tw, bcost, lv, nlv, copies, n_sites, seat, race):
    """True when ``seat`` could still add anti-air, whatever its GP (it may save for it).

    It can raise one of its towers that hit flyers to the next level, or build its
    flyer-capable line on a free site.
    """
    own = 0
    free = False
    for s in range(n_sites):
        if tw[s, TWC.ALIVE] == 0:
            if bcost[race, LINE.AIR_GROUND, s] >= 0:
                free = True
            continue
        if tw[s, TWC.OWNER] != seat or tw[s, TWC.LINE] != LINE.AIR_GROUND:
            continue
        own += 1
        k = tw[s, TWC.LEVEL]
        if k < nlv[race, LINE.AIR_GROUND] and lv[race, LINE.AIR_GROUND, k, TSC.FLY] != 0:
            return True
    return free and own < copies[race, LINE.AIR_GROUND] and \
        lv[race, LINE.AIR_GROUND, 0, TSC.FLY] != 0


@njit(refcount=False)  # borrows its arrays (see state.py)
def develop_choice_nb(tw, pl, worth, bcost, min_build, lv, nlv, copies, n_sites, seat,
                      cheapest, n_players, bp):
    """Best single Develop action for ``seat``: ``(kind, site, line)``.

    kind 0: nothing worth its GP; 1: build ``line`` on ``site``; 2: upgrade ``site``.
    Value per GP: a build is worth ``worth`` (damage x rate x squares covered, see
    ``compile.worth_table``; Heavy Ground weighted by ``heavy``, Holy by ``holy``) over its
    cost ``bcost`` (-1: not allowed there); an upgrade its gain, times 1 + ``upgrade``.
    ``cheapest``: the race's cheapest price, below which nothing is looked at;
    ``min_build[race, line]``: the cheapest site to build that line on (whether one is free
    is not checked, so the bound only skips scans that could find nothing affordable).
    """
    race = pl[seat, PLC.RACE]
    gp = pl[seat, PLC.GP] - int(bp[P_RESERVE])
    best_kind = 0
    best_site = -1
    best_line = -1
    if gp < cheapest:
        return best_kind, best_site, best_line
    best = 0.0
    own0 = 0
    own1 = 0
    own2 = 0
    low = 1 << 30  # the lowest price of anything this seat could do: if above its GP, stop
    for s in range(n_sites):
        if tw[s, TWC.ALIVE] != 0 and tw[s, TWC.OWNER] == seat:
            li = tw[s, TWC.LINE]
            if li == 0:
                own0 += 1
            elif li == 1:
                own1 += 1
            else:
                own2 += 1
            k = tw[s, TWC.LEVEL]
            if k < nlv[race, li] and lv[race, li, k, TSC.COST] < low:
                low = lv[race, li, k, TSC.COST]
    for li in range(3):
        own = own0 if li == 0 else (own1 if li == 1 else own2)
        if own < copies[race, li] and min_build[race, li] < low:
            low = min_build[race, li]
    if gp < low:
        return best_kind, best_site, best_line
    up = 1.0 + bp[P_UPGRADE]
    wl1 = bp[P_HEAVY]
    wl2 = bp[P_HOLY]
    # flight-blind valuation over-builds Heavy Ground, which can never shoot the flyers
    # that cause most of the panic: while less than ``air`` of the table's shooting worth
    # can hit flyers (or nothing shoots yet), lines that cannot are not developed
    no_ground = False
    if bp[P_AIR] > 0.0:
        share, _ = anti_air_share_nb(tw, worth, lv, n_sites)
        no_ground = share < bp[P_AIR] and air_open_nb(tw, bcost, lv, nlv, copies, n_sites,
                                                       seat, race) and \
            spots_short_nb(tw, pl, bcost, copies, n_sites, n_players)
    for s in range(n_sites):
        if tw[s, TWC.ALIVE] != 0:
            if tw[s, TWC.OWNER] != seat:
                continue
            li = tw[s, TWC.LINE]
            k = tw[s, TWC.LEVEL]
            if k >= nlv[race, li]:
                continue
            cost = lv[race, li, k, TSC.COST]
            if cost > gp:
                continue
            if no_ground and li != LINE.HOLY and lv[race, li, k, TSC.FLY] == 0:
                continue
            gain = worth[race, li, k, s] - worth[race, li, k - 1, s]
            if li == LINE.HOLY:
                gain = wl2 * (gain + 8.0)
            elif li == LINE.HEAVY_GROUND:
                gain *= wl1
            v = gain * up / cost
            if v > best:
                best, best_kind, best_site, best_line = v, 2, s, li
            continue
        for li in range(3):
            cost = bcost[race, li, s]
            if cost < 0 or cost > gp:
                continue
            own = own0 if li == 0 else (own1 if li == 1 else own2)
            if own >= copies[race, li]:
                continue
            if no_ground and li != LINE.HOLY and lv[race, li, 0, TSC.FLY] == 0:
                continue
            v = worth[race, li, 0, s] / cost
            if li == LINE.HOLY:
                v *= wl2
            elif li == LINE.HEAVY_GROUND:
                v *= wl1
            if v > best:
                best, best_kind, best_site, best_line = v, 1, s, li
    return best_kind, best_site, best_line


@njit(refcount=False)  # borrows its arrays (see state.py)
def sell_choice_nb(tw, pl, worth, bcost, lv, copies, n_sites, seat, bp):
    """A Heavy Ground tower ``seat`` should destroy to rebuild Air & Ground there, or -1.

    TB-113 lets a player destroy one of its towers in the Develop phase. The bot does it
    when the table is badly short of anti-air (less than ``sell`` of its shooting worth can
    hit flyers), no Build Spot is free for a new Air & Ground tower, ``seat`` still has an
    Air & Ground card, and the sale leaves it enough GP (above ``reserve``) to rebuild at
    once. It gives up its lowest-level Heavy Ground tower, on the spot where an Air &
    Ground tower is worth most (the key spot). Reads only; the engine sells and builds.
    """
    if bp[P_SELL] <= 0.0 or pl[seat, PLC.SOLD_WAVE] != 0:
        return -1
    race = pl[seat, PLC.RACE]
    if lv[race, LINE.AIR_GROUND, 0, TSC.FLY] == 0:
        return -1
    own_air = 0
    for s in range(n_sites):
        if tw[s, TWC.ALIVE] == 0:
            if bcost[race, LINE.AIR_GROUND, s] >= 0:
                return -1  # a free spot: build there instead
            continue
        if tw[s, TWC.OWNER] == seat and tw[s, TWC.LINE] == LINE.AIR_GROUND:
            own_air += 1
    if own_air >= copies[race, LINE.AIR_GROUND]:
        return -1
    share, _ = anti_air_share_nb(tw, worth, lv, n_sites)
    if share < 0.0 or share >= bp[P_SELL]:
        return -1
    best = -1
    best_lvl = 1 << 30
    best_w = -1.0
    for s in range(n_sites):
        if tw[s, TWC.ALIVE] == 0 or tw[s, TWC.OWNER] != seat or \
                tw[s, TWC.LINE] != LINE.HEAVY_GROUND:
            continue
        k = tw[s, TWC.LEVEL]
        w = worth[race, LINE.AIR_GROUND, 0, s]
        if k < best_lvl or (k == best_lvl and w > best_w):
            best, best_lvl, best_w = s, k, w
    if best < 0:
        return -1
    back = (lv[race, LINE.HEAVY_GROUND, best_lvl - 1, TSC.COST] // 2) // 5 * 5
    if pl[seat, PLC.GP] + back - bcost[race, LINE.AIR_GROUND, best] < bp[P_RESERVE]:
        return -1
    return best


@njit(refcount=False)  # borrows its arrays (see state.py)
def bless_target_nb(tw, lv, cover, n_sites, seat):
    """The shooting tower a blessing from ``seat`` goes to (TB-229: any owner), or -1.

    The tower with the most damage x rate x squares covered; ``seat``'s own first on ties.
    """
    best = -1
    best_v = -1.0
    for s in range(n_sites):
        if tw[s, TWC.ALIVE] == 0 or tw[s, TWC.LINE] == LINE.HOLY:
            continue
        v = tower_value_nb(lv, cover[s], tw[s, TWC.RACE], tw[s, TWC.LINE], tw[s, TWC.LEVEL])
        if tw[s, TWC.OWNER] == seat:
            v += 0.5
        if v > best_v:
            best_v = v
            best = s
    return best


@njit(refcount=False)  # borrows its arrays (see state.py)
def renovate_target_nb(tw, lv, nlv, n_sites, seat):
    """The tower a Renovate upgrades: ``seat``'s own with the dearest next level, or -1."""
    best = -1
    best_c = 0
    for s in range(n_sites):
        if tw[s, TWC.ALIVE] == 0 or tw[s, TWC.OWNER] != seat:
            continue
        c = upgrade_cost_nb(tw, lv, nlv, s)
        if c > best_c:
            best_c = c
            best = s
    return best


@njit(refcount=False)  # borrows its arrays (see state.py)
def carnage_window_nb(dk, occ, path_len, k):
    """Start of the ``k`` consecutive path squares (connected, TB-230) worth a Carnage.

    Worth: Threat of the Drakka there weighted by progress; a boss counts its Carnage
    damage / 10. Returns ``(start, worth)``.
    """
    best = -1
    best_w = 0.0
    if k > path_len:
        k = path_len
    for a in range(path_len - k + 1):
        w = 0.0
        for q in range(a, a + k):
            for row in range(2):
                d = occ[row, q]
                if d < 0 or (row == 1 and d == occ[0, q]):
                    continue
                if dk[d, DKC.BOSS] != 0:
                    w += dk[d, DKC.CARNAGE_DMG] / 10.0
                else:
                    w += dk[d, DKC.THREAT] * (1.0 + q / path_len)
        if w > best_w:
            best_w = w
            best = a
    return best, best_w


@njit(refcount=False)  # borrows its arrays (see state.py)
def danger_nb(dk, occ, path_len):
    """Threat that would get through in the next Advance if nothing were done."""
    t = 0
    for q in range(path_len):
        for row in range(2):
            d = occ[row, q]
            if d < 0 or (row == 1 and d == occ[0, q]):
                continue
            if dk[d, DKC.SPEED] + dk[d, DKC.HASTE] > path_len - 1 - q:
                t += dk[d, DKC.THREAT]
    return t


@njit(refcount=False)  # borrows its arrays (see state.py)
def apathy_square_nb(dk, occ, path_len):
    """The square an Apathy targets: most Threat that would get through, or -1."""
    best = -1
    best_t = 0
    for q in range(path_len):
        t = 0
        for row in range(2):
            d = occ[row, q]
            if d < 0 or dk[d, DKC.BOSS] != 0:
                continue  # TB-162: bosses are immune
            if dk[d, DKC.SPEED] > path_len - 1 - q:
                t += dk[d, DKC.THREAT]
        if t > best_t:
            best_t = t
            best = q
    return best


@njit(refcount=False)  # borrows its arrays (see state.py)
def spy_target_nb(dk, occ, tw, sdist, n_sites, path_len, seat):
    """A Drakka within 1 square of any of ``seat``'s towers to Execute (TB-126), or -1.

    The front-most; a boss (which takes Spy damage, TB-127) only if nothing else is there.
    """
    boss = -1
    for q in range(path_len - 1, -1, -1):
        near = False
        for s in range(n_sites):
            if tw[s, TWC.ALIVE] != 0 and tw[s, TWC.OWNER] == seat and sdist[s, q] <= 1:
                near = True
                break
        if not near:
            continue
        for row in range(2):
            d = occ[row, q]
            if d < 0:
                continue
            if dk[d, DKC.BOSS] != 0:
                if boss < 0:
                    boss = d
                continue
            return d
    return boss


@njit(refcount=False)  # borrows its arrays (see state.py)
def boost_tower_nb(tw, dk, occ, sdist, lv, n_sites, path_len, seat):
    """``seat``'s shooting tower with the most legal targets (Combust/Falconry), or -1."""
    best = -1
    best_n = 0
    for s in range(n_sites):
        if tw[s, TWC.ALIVE] == 0 or tw[s, TWC.OWNER] != seat or tw[s, TWC.LINE] == LINE.HOLY:
            continue
        k = tw[s, TWC.LEVEL] - 1
        r = tw[s, TWC.RACE]
        li = tw[s, TWC.LINE]
        n = count_targets_nb(dk, occ, sdist, s, lv[r, li, k, TSC.RANGE] + 1,
                             lv[r, li, k, TSC.FLY], path_len)
        if n > best_n:
            best_n = n
            best = s
    return best


@njit(refcount=False)  # borrows its arrays (see state.py)
def sabotage_target_nb(tw, dk, occ, sdist, lv, n_sites, path_len, victim):
    """A tower of ``victim`` that could fire now (TB-131), the one with most targets, or -1."""
    best = -1
    best_n = 0
    for s in range(n_sites):
        if tw[s, TWC.ALIVE] == 0 or tw[s, TWC.OWNER] != victim or tw[s, TWC.LINE] == LINE.HOLY:
            continue
        if tw[s, TWC.PETRIFY] != 0 or tw[s, TWC.SABOTAGED] != 0:
            continue  # TB-176
        k = tw[s, TWC.LEVEL] - 1
        r = tw[s, TWC.RACE]
        li = tw[s, TWC.LINE]
        n = count_targets_nb(dk, occ, sdist, s, lv[r, li, k, TSC.RANGE],
                             lv[r, li, k, TSC.FLY], path_len)
        if n > best_n:
            best_n = n
            best = s
    return best


@njit(refcount=False)  # borrows its arrays (see state.py)
def sanction_pick_nb(bot_id, supply):
    """Which Sanction to take from ``supply`` (counts of Renovate, Carnage, Invocation)."""
    if bot_id == BUILDER:
        order = (IMP.RENOVATE, IMP.INVOCATION, IMP.CARNAGE)
    else:
        order = (IMP.CARNAGE, IMP.RENOVATE, IMP.INVOCATION)
    for c in order:
        if supply[c - IMP.RENOVATE] > 0:
            return c
    return -1


@njit(refcount=False)  # borrows its arrays (see state.py)
def redraw_count_nb(hand, n_hand, bot_id):
    """How many weak Favors (Falconry, Apathy) to discard in the discard-and-redraw.

    TB-121: discarding N draws N - 1, so only 2 or more are worth discarding.
    """
    weak = 0
    for i in range(n_hand):
        if hand[i, 0] == IMP.FALCONRY or hand[i, 0] == IMP.APATHY:
            weak += 1
    if bot_id == PETITIONER and weak >= 2:
        return weak
    if weak >= 3:
        return weak
    return 0


def param_vector(bot_name: str, overrides: dict | None = None) -> np.ndarray:
    """Python helper: the parameter vector of ``bot_name`` with ``overrides`` applied."""
    _, defaults, _ = BOTS[bot_name]
    out = dict(zip(PARAM_NAMES, defaults, strict=True))
    out.update(overrides or {})
    return np.array([out[k] for k in PARAM_NAMES], np.float64)

