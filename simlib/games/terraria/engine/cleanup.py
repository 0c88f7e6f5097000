"""Terraria cleanup (rulebook: Cleanup, Winning the Game): the last phase of a round.

Boss criteria are checked, NPCs move in, objectives are checked, and the cards of the round
are put away (``cards.end_round_cards_nb``).
"""

from __future__ import annotations

from simlib.core.jit import njit
from simlib.games.terraria.engine import bosses, cards
from simlib.games.terraria.engine.npcs import check_npcs_nb
from simlib.games.terraria.engine.rewards import check_objectives_nb
from simlib.games.terraria.state import (
    CH,
    G,
)

__all__ = [
    "cleanup_nb",
]


@njit(refcount=False)
def cleanup_nb(st, tab):
    """Cleanup (TR-349..353): objectives, NPCs, boss criteria, cards, the time token."""
    g = st.g
    first = (g[G.ROUND] - 1) % g[G.PLAYERS]
    check_objectives_nb(st, tab, first)  # TR-350
    if g[G.OVER] != 0:
        return
    check_npcs_nb(st, tab)  # TR-351
    bosses.check_boss_criteria_nb(st, tab)  # TR-352, TR-399
    for p in range(g[G.PLAYERS]):
        cards.end_round_cards_nb(st, p)  # TR-105
        ch = st.chars[p]
        ch[CH.AP] = 0  # TR-104
        ch[CH.DEF] = 0
        ch[CH.ATK] = 0
        ch[CH.TCOIN] = 0
        ch[CH.DIG] = 0
        ch[CH.CHOP] = 0
        ch[CH.MIRROR] = 0  # a Magic Mirror not used this turn is lost with its card
    g[G.TIME] = (g[G.TIME] + 1) % tab.time_track.shape[0]  # TR-353
