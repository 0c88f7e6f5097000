"""Building, upgrading and Renovating towers, and placing a Holy tower's blessings.

Part of the Terminus Breach TD engine (see ``engine/__init__.py``).
"""

from __future__ import annotations

from simlib.core.jit import njit
from simlib.games.terminus import bots
from simlib.games.terminus.engine.config import (
    CFG_CLEAR_FEE,
    CFG_HOLY_DELAY,
    CFG_SITES,
)
from simlib.games.terminus.state import (
    BLC,
    GSC,
    I64,
    LINE,
    MAX_BLESS,
    PLC,
    TSC,
    TWC,
)
from simlib.games.terminus.towers import (
    add_blessing_nb,
    build_nb,
    remove_source_nb,
    upgrade_nb,
)


@njit(refcount=False)  # borrows its arrays (see state.py)
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


@njit(refcount=False)  # borrows its arrays (see state.py)
def blessings_from_nb(bl, site):
    """Blessings Holy tower ``site`` has in play."""
    n = 0
    for j in range(MAX_BLESS):
        if bl[j, BLC.ALIVE] == 0:
            break
        if bl[j, BLC.SOURCE] == site:
            n += 1
    return n


@njit(refcount=False)  # borrows its arrays (see state.py)
def renovate_nb(tw, bl, pl, lv, nlv, cover, n_sites, seat, site):
    """Renovate: the tower on ``site`` rises one level for free (TB-155)."""
    if not upgrade_nb(tw, pl, lv, nlv, site, seat, I64(1)):
        return False
    if tw[site, TWC.LINE] == LINE.HOLY:
        place_blessings_nb(tw, bl, lv, cover, n_sites, site, tw[site, TWC.OWNER])
    return True


@njit(refcount=False)  # borrows its arrays (see state.py)
def holy_ready_nb(cfg, race, wave_index):
    """Wave index from which a new Holy tower blesses (TB-024/025: Treefolk wait)."""
    if race == 2:  # Treefolk
        return wave_index + cfg[CFG_HOLY_DELAY]
    return wave_index


@njit(refcount=False)  # borrows its arrays (see state.py)
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


@njit(refcount=False)  # borrows its arrays (see state.py)
def do_upgrade_nb(tw, bl, pl, gs, params, seat, site):
    """``seat`` pays the next level of its tower on ``site``.

    ``seat`` pays the next level of its tower on ``site`` (TB-111); a Holy tower's blessings are re-
    assigned (TB-227).
    """
    cfg = params[0]
    cover = params[4]
    lv = params[5]
    nlv = params[6]
    upgrade_nb(tw, pl, lv, nlv, site, seat, I64(0))
    if tw[site, TWC.LINE] == LINE.HOLY:
        place_blessings_nb(tw, bl, lv, cover, cfg[CFG_SITES], site, seat)

