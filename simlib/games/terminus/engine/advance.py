"""The Advance and Draw phases: boss d20 rolls, the moves, the Draw count.

Part of the Terminus Breach TD engine (see ``engine/__init__.py``).
"""

from __future__ import annotations

from simlib.core.jit import njit
from simlib.core.rng import d6_nb, randint_nb
from simlib.games.terminus.engine.config import (
    CFG_DRAW_MOD,
    CFG_PANIC_LIMIT,
    CFG_PATH_LEN,
    CFG_POISON_CREDIT,
    CFG_SITES,
    CFG_TOUGH_RULE,
)
from simlib.games.terminus.engine.setup import (
    boss_row_nb,
)
from simlib.games.terminus.move import advance_all_nb, draw_moves_nb
from simlib.games.terminus.state import (
    BFX,
    DKC,
    GSC,
    I64,
    LINE,
    N_BATTLES,
    TWC,
    WAVES_PER_BATTLE,
    WHERE,
)


@njit(refcount=False)  # borrows its arrays (see state.py)
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
        roll = randint_nb(I64(20), rng)
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


@njit(refcount=False)  # borrows its arrays (see state.py)
def advance_phase_nb(dk, occ, tw, pl, gs, params, rng):
    """Advance: boss d20 rolls, then every Drakka moves, front-most first."""
    cfg = params[0]
    slow_down = params[18]
    boss_rolls_nb(dk, occ, tw, gs, params, rng)
    advance_all_nb(dk, occ, pl, gs, cfg[CFG_PATH_LEN], slow_down, cfg[CFG_TOUGH_RULE],
                   cfg[CFG_POISON_CREDIT], cfg[CFG_PANIC_LIMIT])


@njit(refcount=False)  # borrows its arrays (see state.py)
def draw_count_nb(cfg, battle, roll):
    """Drakka drawn: the d6 ``roll`` plus the Battle's Draw modifier (TB-078..084)."""
    return roll + cfg[CFG_DRAW_MOD + battle - 1]


@njit(refcount=False)  # borrows its arrays (see state.py)
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

