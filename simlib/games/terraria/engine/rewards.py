"""Terraria coins, rewards and objectives (rulebook: Objectives, Completing Objectives).

What a player gains: coins (:func:`gain_coins_nb`, :func:`spend_coins_nb`), equipment and
armor taken from the supply (:func:`take_equip_nb`, :func:`take_armor_nb`; armor is worn at
once, :func:`wear_armor_nb`), and the rewards of chests, objectives, loot and food
(:func:`give_reward_nb`); :func:`check_objectives_nb` runs after every action and completes
the objectives it finds met. Every other action module builds on these.
"""

from __future__ import annotations

from simlib.core.jit import njit
from simlib.core.rng import randint_nb
from simlib.games.terraria.engine import cards, life
from simlib.games.terraria.state import (
    AR,
    CF,
    CH,
    CNT,
    EQ,
    OB,
    OUT,
    RK,
    RU,
    RW,
    SHOP,
    SUP,
    G,
)

__all__ = [
    "wear_armor_nb",
    "spend_coins_nb",
    "gain_coins_nb",
    "take_equip_nb",
    "take_armor_nb",
    "give_reward_nb",
    "check_objectives_nb",
]


@njit(refcount=False)
def wear_armor_nb(st, tab, p, a):
    """Player ``p`` wears armor set ``a`` (-1: none); maxima follow its bonuses (TR-216)."""
    ch = st.chars[p]
    old = ch[CH.ARMOR]
    if old >= 0:
        ch[CH.MAXHP] -= tab.armor[old, AR.HP]
        ch[CH.MAXMANA] -= tab.armor[old, AR.MANA]
    ch[CH.ARMOR] = a
    if a >= 0:
        ch[CH.MAXHP] += tab.armor[a, AR.HP]
        ch[CH.MAXMANA] += tab.armor[a, AR.MANA]
    ch[CH.HP] = min(ch[CH.HP], ch[CH.MAXHP])
    ch[CH.MANA] = min(ch[CH.MANA], ch[CH.MAXMANA])


@njit(refcount=False)
def spend_coins_nb(st, p, n):
    """Pay ``n`` coins: this turn's coin icons first, then the dial (TR-101). False if short."""
    ch = st.chars[p]
    if ch[CH.TCOIN] + ch[CH.COINS] < n:
        return False
    t = min(ch[CH.TCOIN], n)
    ch[CH.TCOIN] -= t
    ch[CH.COINS] -= n - t
    return True


@njit(refcount=False)
def gain_coins_nb(st, p, n):
    """Coins onto ``p``'s dial, up to 25 (TR-195); the excess to teammates (TR-196, TR-197).

    What passes 25 goes to teammates with room (``life.team_gain_coins_nb``); what none has
    room for is lost.
    """
    st.cnt[CNT.COINS] += life.team_gain_coins_nb(st, p, n)


@njit(refcount=False)
def take_equip_nb(st, tab, p, e):
    """``p`` gets equipment card ``e``; it goes on top of its slot (TR-206, TR-211)."""
    st.owned[p, e] += 1
    st.chars[p, CH.WEAPON + tab.equip[e, EQ.SLOT]] = e


@njit(refcount=False)
def take_armor_nb(st, tab, p, a):
    """``p`` gets armor set ``a`` and wears it (TR-214: the old set is kept)."""
    st.owned[p, tab.equip.shape[0] + a] += 1
    wear_armor_nb(st, tab, p, a)


@njit(refcount=False)
def give_reward_nb(st, tab, p, kind, rid, amount):
    """Player ``p`` receives one reward (TR-159: each kind follows its normal rules)."""
    ch = st.chars[p]
    if kind == RK.COINS:
        gain_coins_nb(st, p, amount)
    elif kind == RK.RESOURCE:
        st.cnt[CNT.RES + rid] += life.team_gain_nb(st, p, rid, amount)
    elif kind == RK.EQUIP:
        if st.supply[SUP.EQUIP, rid] > 0:
            st.supply[SUP.EQUIP, rid] -= 1
            take_equip_nb(st, tab, p, rid)
    elif kind == RK.ARMOR:
        if st.supply[SUP.ARMOR, rid] > 0:
            st.supply[SUP.ARMOR, rid] -= 1
            take_armor_nb(st, tab, p, rid)
    elif kind == RK.CONSUMABLE:
        for _ in range(max(amount, 1)):
            if st.supply[SUP.CONSUMABLE, rid] > 0:  # TR-388
                st.supply[SUP.CONSUMABLE, rid] -= 1
                st.held[p, rid] += 1
    elif kind == RK.CHEST_CARD:
        # the top card of the level's face-down chest action deck: a random card of level
        # ``rid`` among the copies still in the supply (TR-014, TR-159; one rng draw)
        left = 0
        for c in range(tab.cards.shape[0]):
            if tab.cards[c, CF.SHOP] == SHOP.CHEST and tab.cards[c, CF.LEVEL] == rid:
                left += st.supply[SUP.CARDS, c]
        if left > 0:
            j = randint_nb(left, st.rng)
            for c in range(tab.cards.shape[0]):
                if tab.cards[c, CF.SHOP] == SHOP.CHEST and tab.cards[c, CF.LEVEL] == rid:
                    if j < st.supply[SUP.CARDS, c]:
                        cards.gain_card_nb(st, p, c)
                        break
                    j -= st.supply[SUP.CARDS, c]
    elif kind == RK.HEAL:
        heal = min(amount, ch[CH.MAXHP] - ch[CH.HP])
        if heal > 0 and ch[CH.IN_WORLD]:
            ch[CH.HP] += heal
            ch[CH.HEALED] += heal
    elif kind == RK.MAXHP:
        room = tab.rules[RU.MAX_HP] - ch[CH.MAXHP]
        add = min(amount, max(room, 0))
        ch[CH.MAXHP] += add
        if ch[CH.IN_WORLD]:
            ch[CH.HP] = ch[CH.MAXHP]
    elif kind == RK.MAXMANA:
        room = tab.rules[RU.MAX_MANA] - ch[CH.MAXMANA]
        ch[CH.MAXMANA] += min(amount, max(room, 0))
        ch[CH.MANA] = ch[CH.MAXMANA]
    elif kind == RK.ROPE:
        ch[CH.ROPES] += amount
    elif kind == RK.MANA:  # TR-357, TR-355: regained up to the maximum
        ch[CH.MANA] = min(ch[CH.MAXMANA], ch[CH.MANA] + amount)


@njit(refcount=False)
def check_objectives_nb(st, tab, p):
    """Complete every current objective whose counter has reached its amount (TR-059..065).

    Called after every action and at cleanup (TR-064); one check may complete several
    objectives of a chain in turn. An ALL reward goes to every player, a SHARED one to
    player ``p`` (whose action completed it; at cleanup the round's first player).
    Completing the needed chains wins at once (TR-424).
    """
    g = st.g
    if g[G.OVER] != 0:
        return
    players = g[G.PLAYERS]
    for chain in range(4):
        while g[G.OBJ + chain] < 10:
            o = chain * 10 + g[G.OBJ + chain]
            row = tab.objectives[o]
            if st.cnt[row[OB.COUNTER] + row[OB.PARAM]] < row[OB.AMOUNT]:
                break
            g[G.OBJ + chain] += 1
            kind = row[OB.REWARD + RW.KIND]
            if row[OB.SHARED]:
                give_reward_nb(st, tab, p, kind, row[OB.REWARD + RW.ID], row[OB.REWARD + RW.AMOUNT])
            else:
                for q in range(players):
                    give_reward_nb(
                        st, tab, q, kind, row[OB.REWARD + RW.ID], row[OB.REWARD + RW.AMOUNT]
                    )
            if g[G.OBJ + chain] == 10:
                g[G.CHAINS] += 1
                if g[G.CHAINS] >= g[G.CHAINS_NEEDED]:
                    g[G.OVER] = OUT.WON_OBJECTIVES
                    return
