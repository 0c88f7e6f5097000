"""Terraria NPCs (rulebook: Houses, NPCs and their shops): who moves in and what they sell.

:func:`check_npcs_nb` moves an NPC into a free house once its condition is met
(:func:`npc_ready_nb`); the shops sell cards (:func:`buy_card_nb`) and card slots
(:func:`buy_slot_nb`), and the Nurse scraps debuff cards (:func:`nurse_nb`).
"""

from __future__ import annotations

from simlib.core.jit import njit
from simlib.core.rng import randint_nb
from simlib.games.terraria.engine import cards
from simlib.games.terraria.engine.actions import can_act_nb
from simlib.games.terraria.engine.rewards import check_objectives_nb, spend_coins_nb
from simlib.games.terraria.state import (
    BO,
    BOSS_SPAWN,
    CF,
    CH,
    CNT,
    CO,
    FOREST_COLUMNS,
    HA,
    MAX_SLOTS,
    NPC,
    RU,
    SHOP,
    SUP,
    TP,
    G,
)

__all__ = [
    "buy_card_nb",
    "buy_slot_nb",
    "nurse_nb",
    "npc_ready_nb",
    "check_npcs_nb",
]


@njit(refcount=False)
def buy_card_nb(st, tab, p, shop):
    """Buy an action card from the Guide or the Merchant.

    ``shop`` is a card id of a Guide pile, or -1 for the Merchant's 8-coin pile and -2 for
    its 15-coin pile (their top card, TR-374).

    TR-369, TR-372, TR-373; the card goes to the discard pile (TR-096).
    """
    if not can_act_nb(st, p):
        return False
    if shop >= 0:
        card = shop
        if tab.cards[card, CF.SHOP] != SHOP.GUIDE or st.supply[SUP.CARDS, card] <= 0:
            return False
    else:
        if not st.g[G.NPCS] & (1 << NPC.MERCHANT):
            return False
        pile = SHOP.MERCHANT_8 if shop == -1 else SHOP.MERCHANT_15
        left = 0
        for c in range(tab.cards.shape[0]):
            if tab.cards[c, CF.SHOP] == pile:
                left += st.supply[SUP.CARDS, c]
        if left == 0:
            return False
        j = randint_nb(left, st.rng)  # the face-down pile's top card
        card = -1
        for c in range(tab.cards.shape[0]):
            if tab.cards[c, CF.SHOP] == pile:
                if j < st.supply[SUP.CARDS, c]:
                    card = c
                    break
                j -= st.supply[SUP.CARDS, c]
    if cards.cards_held_nb(st, p) >= st.deck.shape[2]:
        return False
    if not spend_coins_nb(st, p, tab.cards[card, CF.PRICE]):
        return False
    cards.gain_card_nb(st, p, card)
    st.cnt[CNT.CARDS_BOUGHT] += 1
    check_objectives_nb(st, tab, p)
    return True


@njit(refcount=False)
def buy_slot_nb(st, tab, p):
    """Buy the next inventory slot: the 5th for 15 coins, then the 6th for 25 (TR-186, 187)."""
    ch = st.chars[p]
    if ch[CH.SLOTS] >= MAX_SLOTS:
        return False
    price = tab.rules[RU.SLOT5_PRICE] if ch[CH.SLOTS] == 4 else tab.rules[RU.SLOT6_PRICE]
    if not spend_coins_nb(st, p, price):
        return False
    ch[CH.SLOTS] += 1
    return True


@njit(refcount=False)
def nurse_nb(st, tab, p):
    """Pay the Nurse: full health and every debuff card scrapped (TR-371)."""
    if not can_act_nb(st, p) or not st.g[G.NPCS] & (1 << NPC.NURSE):
        return False
    if not spend_coins_nb(st, p, tab.rules[RU.NURSE_PRICE]):
        return False
    ch = st.chars[p]
    ch[CH.HEALED] += ch[CH.MAXHP] - ch[CH.HP]
    ch[CH.HP] = ch[CH.MAXHP]
    cards.scrap_debuffs_nb(st, tab, p)
    return True


@njit(refcount=False)
def _boss_defeated_of_nb(st, tab, spawn):
    for b in range(tab.bosses.shape[0]):
        if tab.bosses[b, BO.SPAWN] == spawn and st.g[G.DEFEATED] & (1 << b):
            return True
    return False


@njit(refcount=False)
def npc_ready_nb(st, tab, npc):
    """True when NPC ``npc``'s criteria other than a free house are met (TR-370..381)."""
    g = st.g
    players = g[G.PLAYERS]
    if npc == NPC.NURSE:
        if g[G.DIED]:
            return True
        for q in range(players):
            if st.chars[q, CH.MAXHP] >= tab.rules[RU.NURSE_HP]:
                return True
        return False
    if npc == NPC.MERCHANT:
        for q in range(players):
            if st.chars[q, CH.COINS] >= tab.rules[RU.MERCHANT_COINS]:
                return True
        return False
    if npc == NPC.DRYAD:
        return (
            _boss_defeated_of_nb(st, tab, BOSS_SPAWN.LENSES)
            or _boss_defeated_of_nb(st, tab, BOSS_SPAWN.SHADOW_ORB)
            or _boss_defeated_of_nb(st, tab, BOSS_SPAWN.CRIMSON_HEART)
        )
    if npc == NPC.GOBLIN:
        for layer in (2, 3):
            for tc in FOREST_COLUMNS:
                if st.tiles[TP.KNOWN, layer, tc] == 0:
                    return False
        return True
    if npc == NPC.DEMOLITIONIST:
        if not g[G.NPCS] & (1 << NPC.MERCHANT):
            return False
        for q in range(players):
            for c in range(tab.consumables.shape[0]):
                if st.held[q, c] > 0 and tab.consumables[c, CO.DEMOLITION] > 0:
                    return True
        return False
    return False


@njit(refcount=False)
def check_npcs_nb(st, tab):
    """Cleanup step 3: spawn NPCs whose criteria are met, one per free house (TR-364..368).

    When more qualify than houses are free, they move in in the table's order (Nurse,
    Merchant, Dryad, Goblin Tinkerer, Demolitionist): the players' choice made by a rule.
    """
    g = st.g
    for npc in range(1, NPC.N):
        if g[G.FREE_HOUSES] <= 0:
            return
        if g[G.NPCS] & (1 << npc):
            continue
        if not npc_ready_nb(st, tab, npc):
            continue
        g[G.NPCS] |= 1 << npc
        g[G.FREE_HOUSES] -= 1
        for i in range(g[G.HOUSES]):
            if st.house_at[i, HA.NPC] < 0:
                st.house_at[i, HA.NPC] = npc
                break
        st.cnt[CNT.NPCS] += 1
        st.cnt[CNT.NPC + npc] = 1
