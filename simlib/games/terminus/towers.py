"""Tower rules shared by the engine and the bots.

Stats, legal targets, build, upgrade, sell and blessings. Every helper names the arrays it
writes; none draws random numbers.
"""

from __future__ import annotations

from simlib.core.jit import njit
from simlib.games.terminus.state import (
    BLC,
    BSC,
    DKC,
    LINE,
    MAX_BLESS,
    PLC,
    RACE,
    SITE,
    TSC,
    TWC,
)


@njit(refcount=False)  # borrows its arrays (see state.py)
def tower_stats_nb(tw, bl, lv, bless, s, battle, wave_index):
    """Effective stats of the tower on site ``s`` for a shot now.

    Returns ``(damage, range, rate, poison, slow, flying, poison_up)``: the level's printed
    stats (TB-017), plus every active blessing on it (TB-226/228: x Battle, stacking), plus
    Combust (TB-148/149) and Falconry (TB-152), then Fear halves the damage, rounded down,
    after all bonuses (TB-172/173). A Petrified or Sabotaged tower has rate 0 (TB-174).
    """
    r = tw[s, TWC.RACE]
    li = tw[s, TWC.LINE]
    k = tw[s, TWC.LEVEL] - 1
    dmg = lv[r, li, k, TSC.DMG]
    rng = lv[r, li, k, TSC.RANGE]
    rate = lv[r, li, k, TSC.RATE]
    pup = 0
    for j in range(MAX_BLESS):
        if bl[j, BLC.ALIVE] == 0:
            break  # blessings are packed at the front (compact_bl_nb)
        if bl[j, BLC.TARGET] != s:
            continue
        src = bl[j, BLC.SOURCE]
        if src >= 0 and tw[src, TWC.READY] > wave_index:
            continue  # TB-025: a Treefolk Holy tower still growing
        br = bl[j, BLC.RACE]
        dmg += bless[br, BSC.DMG_PER_B] * battle
        rng += bless[br, BSC.RANGE]
        rate += bless[br, BSC.RATE]
        if bless[br, BSC.POISON_UP] != 0:
            pup = 1
    if tw[s, TWC.COMBUST] != 0:
        dmg += (1 if r == RACE.HUMANS else 2) * battle
    if tw[s, TWC.FALCONRY] != 0:
        rng += battle
    if tw[s, TWC.FEAR] != 0:
        dmg = dmg // 2
    if tw[s, TWC.PETRIFY] != 0 or tw[s, TWC.SABOTAGED] != 0:
        rate = 0
    return (dmg, rng, rate, lv[r, li, k, TSC.POISON], lv[r, li, k, TSC.SLOW],
            lv[r, li, k, TSC.FLY], pup)


@njit(refcount=False)  # borrows its arrays (see state.py)
def legal_target_nb(dk, d, fly_ok):
    """True when a tower that may (``fly_ok`` 1) or may not shoot flyers can hit ``d``."""
    return fly_ok != 0 or dk[d, DKC.FLY] == 0  # TB-009, TB-010


@njit(refcount=False)  # borrows its arrays (see state.py)
def count_targets_nb(dk, occ, sdist, s, rng, fly_ok, path_len):
    """Number of Drakka a tower on site ``s`` could target with range ``rng`` (TB-093)."""
    n = 0
    for q in range(path_len):
        if sdist[s, q] > rng:
            continue
        g = occ[0, q]
        f = occ[1, q]
        if g >= 0 and legal_target_nb(dk, g, fly_ok):
            n += 1
        if f >= 0 and f != g and legal_target_nb(dk, f, fly_ok):
            n += 1
    return n


@njit(refcount=False)  # borrows its arrays (see state.py)
def site_allows_nb(sites, site, race, line):
    """True when a tower of ``race`` and ``line`` may stand on ``site`` (TB-020..024, 109)."""
    kind = sites[site, 2]
    if line != LINE.HOLY:
        return kind == SITE.SPOT
    if kind == SITE.SPOT:
        return False
    if race == RACE.DWARVES:
        return kind == SITE.ROCK
    if race == RACE.ELVES:
        return kind == SITE.TREE
    return True


@njit(refcount=False)  # borrows its arrays (see state.py)
def build_cost_nb(lv, sites, race, line, site, clear_fee):
    """GP to build level 1 of ``line`` on ``site`` (TB-015, TB-023 Human clearing fee)."""
    cost = lv[race, line, 0, TSC.COST]
    if line == LINE.HOLY and race == RACE.HUMANS and sites[site, 2] != SITE.SPOT:
        cost += clear_fee
    return cost


@njit(refcount=False)  # borrows its arrays (see state.py)
def owned_nb(tw, n_sites, seat, line):
    """Towers of ``line`` owned by ``seat``."""
    n = 0
    for s in range(n_sites):
        if tw[s, TWC.ALIVE] != 0 and tw[s, TWC.OWNER] == seat and tw[s, TWC.LINE] == line:
            n += 1
    return n


@njit(refcount=False)  # borrows its arrays (see state.py)
def build_nb(tw, pl, lv, sites, seat, line, site, clear_fee, ready):
    """``seat`` pays and places level 1 of its race's ``line`` on the empty ``site``.

    ``ready``: the Wave index from which a Holy tower's blessings count (TB-025). Writes
    ``tw`` and ``pl`` (GP, towers built). The caller checks legality and GP.
    """
    race = pl[seat, PLC.RACE]
    cost = build_cost_nb(lv, sites, race, line, site, clear_fee)
    pl[seat, PLC.GP] -= cost
    pl[seat, PLC.TOWERS_BUILT] += 1
    for c in range(TWC.N):
        tw[site, c] = 0
    tw[site, TWC.ALIVE] = 1
    tw[site, TWC.OWNER] = seat
    tw[site, TWC.RACE] = race
    tw[site, TWC.LINE] = line
    tw[site, TWC.LEVEL] = 1
    tw[site, TWC.READY] = ready
    tw[site, TWC.PAID] = cost


@njit(refcount=False)  # borrows its arrays (see state.py)
def upgrade_cost_nb(tw, lv, nlv, site):
    """GP of the next level of the tower on ``site`` (TB-111), or -1 at the top level."""
    r = tw[site, TWC.RACE]
    li = tw[site, TWC.LINE]
    k = tw[site, TWC.LEVEL]
    if k >= nlv[r, li]:
        return -1
    return lv[r, li, k, TSC.COST]


@njit(refcount=False)  # borrows its arrays (see state.py)
def upgrade_nb(tw, pl, lv, nlv, site, payer, free):
    """Raise the tower on ``site`` one level; ``payer`` pays unless ``free`` (Renovate)."""
    cost = upgrade_cost_nb(tw, lv, nlv, site)
    if cost < 0:
        return False
    if free == 0:
        pl[payer, PLC.GP] -= cost
        tw[site, TWC.PAID] += cost
    tw[site, TWC.LEVEL] += 1
    return True


@njit(refcount=False)  # borrows its arrays (see state.py)
def sell_value_nb(tw, lv, site, rule):
    """GP back for destroying the tower on ``site``: half its value, down to 5 (TB-113/114)."""
    if rule == 0:
        value = lv[tw[site, TWC.RACE], tw[site, TWC.LINE], tw[site, TWC.LEVEL] - 1, TSC.COST]
    else:
        value = tw[site, TWC.PAID]
    return (value // 2) // 5 * 5


@njit(refcount=False)  # borrows its arrays (see state.py)
def unbless_nb(bl, site):
    """Remove every blessing on tower ``site`` or coming from Holy tower ``site`` (TB-115)."""
    for j in range(MAX_BLESS):
        if bl[j, BLC.ALIVE] != 0 and (bl[j, BLC.TARGET] == site or bl[j, BLC.SOURCE] == site):
            bl[j, BLC.ALIVE] = 0
    compact_bl_nb(bl)


@njit(refcount=False)  # borrows its arrays (see state.py)
def remove_source_nb(bl, site):
    """Take back the blessings Holy tower ``site`` bestowed (to re-assign them, TB-227)."""
    for j in range(MAX_BLESS):
        if bl[j, BLC.ALIVE] != 0 and bl[j, BLC.SOURCE] == site:
            bl[j, BLC.ALIVE] = 0
    compact_bl_nb(bl)


@njit(refcount=False)  # borrows its arrays (see state.py)
def compact_bl_nb(bl):
    """Pack the blessings in play at the front of ``bl`` (written), keeping their order."""
    k = 0
    for j in range(MAX_BLESS):
        if bl[j, BLC.ALIVE] != 0:
            if j != k:
                for c in range(BLC.N):
                    bl[k, c] = bl[j, c]
                bl[j, BLC.ALIVE] = 0
            k += 1


@njit(refcount=False)  # borrows its arrays (see state.py)
def sell_nb(tw, bl, pl, lv, site, rule):
    """The owner destroys the tower on ``site`` for its sell value.

    Writes ``tw``, ``bl``, ``pl``. Returns the GP received.
    """
    seat = tw[site, TWC.OWNER]
    gp = sell_value_nb(tw, lv, site, rule)
    pl[seat, PLC.GP] += gp
    pl[seat, PLC.SOLD_WAVE] = 1
    unbless_nb(bl, site)
    for c in range(TWC.N):
        tw[site, c] = 0
    return gp


@njit(refcount=False)  # borrows its arrays (see state.py)
def add_blessing_nb(bl, source, target, race):
    """Put a ``race`` blessing from ``source`` (Holy site or -1) on tower ``target``."""
    for j in range(MAX_BLESS):
        if bl[j, BLC.ALIVE] == 0:
            bl[j, BLC.ALIVE] = 1
            bl[j, BLC.SOURCE] = source
            bl[j, BLC.TARGET] = target
            bl[j, BLC.RACE] = race
            return True
    return False


@njit(refcount=False)  # borrows its arrays (see state.py)
def tower_levels_nb(tw, n_sites, seat):
    """Sum of the levels of the towers ``seat`` owns (TB-200)."""
    n = 0
    for s in range(n_sites):
        if tw[s, TWC.ALIVE] != 0 and tw[s, TWC.OWNER] == seat:
            n += tw[s, TWC.LEVEL]
    return n
