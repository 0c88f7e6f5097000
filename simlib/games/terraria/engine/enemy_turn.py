"""Terraria enemy turn: the third phase of a round.

Rulebook: Enemy Spawning and the Enemy Turn, Bosses.

Pending bosses spawn, then every enemy moves and attacks (``foes.py``) and every boss in play
moves, uses its special ability and ends its turn (``bosses.py``); enemies spawn on tiles
discovered by the enemies' moves.
"""

from __future__ import annotations

from simlib.core.jit import njit
from simlib.games.terraria.engine import bosses, foes
from simlib.games.terraria.engine.movement import (
    T,
)
from simlib.games.terraria.state import (
    CNT,
    MAX_BOSSES,
    G,
)

__all__ = [
    "enemy_turn_nb",
]


@njit(refcount=False)
def enemy_turn_nb(st, tab):
    """The enemy turn (TR-315, TR-316).

    Every pending boss spawns, every boss's special ability fires, every enemy moves, each
    boss moves, attacks resolve in range bands, each boss's behaviour deck advances. The
    bosses go in boss id order at each step (``bosses`` module docstring, TR-406).
    """
    bosses.spawn_pending_bosses_nb(st, tab)  # TR-398, several at once (TR-316)
    if st.g[G.OVER] != 0:
        return
    n_bosses = min(tab.bosses.shape[0], MAX_BOSSES)
    for b in range(n_bosses):  # every special first, before any other enemy acts (TR-406)
        if bosses.in_play_nb(st, b):
            bosses.boss_special_nb(st, tab, b)
            if st.g[G.OVER] != 0:
                return
    foes.enemy_moves_nb(st, tab)
    if st.g[G.OVER] != 0:
        return
    short = 0
    ranged = 0
    for b in range(n_bosses):
        if not bosses.in_play_nb(st, b):
            continue
        move, sh, rg = bosses.boss_flags_nb(st, tab, b)
        short |= sh << b
        ranged |= rg << b
        if move:
            bosses.boss_move_nb(st, tab, b)
            if st.g[G.OVER] != 0:
                return
            _spawn_on_disc_nb(st, tab)
    for b in range(n_bosses):  # a card that spawns instead of shooting (TR-408)
        bosses.boss_ranged_spawn_nb(st, tab, b)
    foes.enemy_attacks_nb(st, tab, short, ranged)
    if st.g[G.OVER] != 0:
        return
    for b in range(n_bosses):
        bosses.boss_end_turn_nb(st, tab, b)  # TR-409, TR-410 (a boss not in play: nothing)


@njit(refcount=False)
def _spawn_on_disc_nb(st, tab):
    """Spawn on tiles a displaced character discovered (TR-144, TR-308)."""
    n = min(st.tally[T.DISCOVERED], st.disc.shape[0])
    st.tally[:] = 0
    if n > 0:
        st.cnt[CNT.TILES] += n
        foes.spawn_discovered_nb(st, tab, n)
