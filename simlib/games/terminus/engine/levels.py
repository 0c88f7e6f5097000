"""Character levels and Charged Crystals (TB-190..197).

Part of the Terminus Breach TD engine (see ``engine/__init__.py``).
"""

from __future__ import annotations

from simlib.core.jit import njit
from simlib.games.terminus import bots
from simlib.games.terminus.engine.build import (
    renovate_nb,
)
from simlib.games.terminus.engine.cards import (
    carnage_nb,
    gain_favor_nb,
    tier_nb,
)
from simlib.games.terminus.engine.config import (
    CFG_CRYSTAL_KEEP,
    CFG_PATH_LEN,
    CFG_SITES,
    CFG_TOUGH_RULE,
    N_COUNTERS,
)
from simlib.games.terminus.state import (
    PLC,
)
from simlib.games.terminus.towers import (
    tower_levels_nb,
)


@njit(refcount=False)  # borrows its arrays (see state.py)
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


@njit(refcount=False)  # borrows its arrays (see state.py)
def level_due_nb(tw, pl, cfg, cls, seat):
    """True when ``seat``'s progress has reached its next level (then call level_up_nb)."""
    lvl = pl[seat, PLC.LEVEL]
    if lvl >= 3:
        return False
    v = progress_nb(tw, pl, cfg, cls, cfg[CFG_SITES], seat)
    return v >= cls[pl[seat, PLC.CLASS], N_COUNTERS + lvl]


@njit(refcount=False)  # borrows its arrays (see state.py)
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
                if cfg[CFG_CRYSTAL_KEEP] != 0:  # TB-191 alternative: held until they pay
                    pl[seat, PLC.HELD + colour] += 1
                else:
                    use_crystal_nb(dk, occ, tw, bl, pl, hand, fdeck, gs, params, seat, colour,
                                   bot_id, bp, rng)


@njit(refcount=False)  # borrows its arrays (see state.py)
def spend_held_nb(dk, occ, tw, bl, pl, hand, fdeck, gs, params, seat, bot_id, bp, rng):
    """Spend ``seat``'s held Charged Crystals (setting ``crystals = "keep"``, TB-191).

    They are kept until Drakka threaten to get through (``bots.danger_nb``), then all
    spent, Red first, as :func:`use_crystal_nb` chooses. Returns the crystals spent.
    """
    if bots.danger_nb(dk, occ, params[0][CFG_PATH_LEN]) <= 0:
        return 0
    spent = 0
    for colour in (2, 1, 0):
        while pl[seat, PLC.HELD + colour] > 0:
            pl[seat, PLC.HELD + colour] -= 1
            use_crystal_nb(dk, occ, tw, bl, pl, hand, fdeck, gs, params, seat, colour,
                           bot_id, bp, rng)
            spent += 1
    return spent


@njit(refcount=False)  # borrows its arrays (see state.py)
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

