"""Terraria preparation: the first phase of every round after the first.

Rulebook: Rounds, Preparation.

The time track advances (sunrise and sunset: night enemies leave, trees regrow, mana and
coins come back, the Skull spawns), and the players' choices at sunrise come from the bots
(:func:`from_bots_sunrise_nb`).
"""

from __future__ import annotations

from simlib.core.jit import njit
from simlib.games.terraria.engine import cards, foes, life
from simlib.games.terraria.engine.movement import (
    sunrise_trees_nb,
)
from simlib.games.terraria.state import (
    BP_COIN_ASK,
    CF,
    CH,
    CO,
    NPC,
    OUT,
    PILE,
    SHOP,
    STATION,
    SUP,
    TT,
    G,
)

__all__ = [
    "preparation_nb",
    "from_bots_sunrise_nb",
]


@njit(refcount=False)
def preparation_nb(st, tab, bot_ids, bp):
    """Preparation (TR-080..090): the sunrise steps on a sunrise space, then skull spawns."""
    g = st.g
    space = g[G.TIME]
    if tab.time_track[space, TT.SUNRISE]:
        g[G.DAY] += 1
        g[G.TOKENS] -= 1  # TR-081
        if g[G.TOKENS] <= 0:
            g[G.OVER] = OUT.OUT_OF_TIME  # TR-426
            return
        sunrise_trees_nb(st.grid)  # TR-082
        foes.sunrise_foes_nb(st, tab)  # TR-083..085
        g[G.BOTTLE] = 0  # TR-086, TR-254
        g[G.COOKED] = 0
        if g[G.STATIONS] & STATION.COOKING_POT:
            g[G.COOK_LEFT] = 15  # TR-087
        # NPC sunrise powers (TR-088, TR-376..383): the bots' choices
        if g[G.NPCS] & (1 << NPC.DRYAD):
            g[G.DRYAD_DIE] = 1
        for p in range(g[G.PLAYERS]):
            from_bots_sunrise_nb(st, tab, p, bot_ids, bp)
            st.chars[p, CH.MANA] = st.chars[p, CH.MAXMANA]  # TR-089
    if tab.time_track[space, TT.SKULL]:
        foes.skull_spawn_nb(st, tab)  # TR-090, TR-309


@njit(refcount=False)
def from_bots_sunrise_nb(st, tab, p, bot_ids, bp):
    """Goblin Tinkerer and Demolitionist powers for player ``p`` (rules for their choices).

    The Goblin Tinkerer lets ``p`` scrap one card (TR-380): a debuff card if any is in the
    draw or discard pile, else nothing. The Demolitionist sells one bomb (10 coins) when
    ``p`` has at least 20 coins (TR-382, TR-383: one purchase per player); a player short of
    20 by at most the bot's ``coin_ask`` (``bp[BP_COIN_ASK]``) first gets the rest from its
    teammates (``life.top_up_coins_nb``, TR-197).
    """
    g = st.g
    if g[G.NPCS] & (1 << NPC.GOBLIN):
        done = False
        for pile in (PILE.DISCARD, PILE.DRAW):
            if done:
                break
            for i in range(st.npile[p, pile]):
                if tab.cards[st.deck[p, pile, i], CF.SHOP] == SHOP.DEBUFF:
                    cards.scrap_card_nb(st, tab, p, pile, i)
                    done = True
                    break
    if not g[G.NPCS] & (1 << NPC.DEMOLITIONIST):
        return
    bomb = _bomb_for_sale_nb(st, tab)
    if bomb < 0:
        return
    if st.chars[p, CH.COINS] < 20 and bp.shape[0] > BP_COIN_ASK:
        life.top_up_coins_nb(st, p, 20, int(bp[BP_COIN_ASK]))
    if st.chars[p, CH.COINS] >= 20:
        st.chars[p, CH.COINS] -= tab.consumables[bomb, CO.DEMOLITION]
        st.supply[SUP.CONSUMABLE, bomb] -= 1
        st.held[p, bomb] += 1


@njit(refcount=False)
def _bomb_for_sale_nb(st, tab):
    """The Demolitionist's 10-coin bomb left in the supply (its first in data order), -1 none."""
    for c in range(tab.consumables.shape[0]):
        if tab.consumables[c, CO.DEMOLITION] == 10 and st.supply[SUP.CONSUMABLE, c] > 0:
            return c
    return -1
