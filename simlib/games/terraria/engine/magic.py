"""Terraria magic, mana, minions and consumables, and the houses' bonus tokens.

Rulebook: Magic, Mana and Minions, Consumables, Houses.

:func:`summon_nb` summons a minion for mana, :func:`use_consumable_nb` plays a consumable
(the Magic Mirror's recall, :func:`recall_nb`; the Guide Voodoo Doll), :func:`use_bottle_nb`
and :func:`eat_food_nb` take a house's bonus tokens, and :func:`armor_mana_nb` is the mana
worn armor gives back mid-day.
"""

from __future__ import annotations

from simlib.core.jit import njit
from simlib.games.terraria.engine import bosses, cards, life
from simlib.games.terraria.engine.actions import can_act_nb, settle_nb
from simlib.games.terraria.engine.movement import (
    remove_piece_nb,
)
from simlib.games.terraria.engine.rewards import check_objectives_nb, give_reward_nb
from simlib.games.terraria.state import (
    AR,
    CF,
    CH,
    CO,
    EQ,
    PILE,
    RW,
    SHOP,
    SLOT,
    STATION,
    SUP,
    G,
)

__all__ = [
    "summon_nb",
    "use_consumable_nb",
    "use_mirror_nb",
    "recall_nb",
    "use_bottle_nb",
    "eat_food_nb",
    "armor_mana_nb",
]


@njit(refcount=False)
def summon_nb(st, tab, p):
    """Pay mana to summon the minion of ``p``'s top Other or weapon card (TR-360..363).

    Only a character that can act summons (on the world, game running). The top Other card
    is tried first, then the top weapon: a card is passed over when its minion is the one
    ``p`` already has (TR-362: summoning replaces only with a different type), when ``p``
    lacks its mana, or when no card of that minion is left in the supply: ``tab.
    minion_copies`` of each kind (TR-018, TR-026) less those on the characters (a card
    discarded at death or on replacement is back in the supply, TR-363). Writes
    ``chars[p]`` (MANA, MINION); returns True when a minion was summoned.
    """
    if not can_act_nb(st, p):
        return False
    ch = st.chars[p]
    for s in (SLOT.OTHER, SLOT.WEAPON):
        e = ch[CH.WEAPON + s]
        if e < 0:
            continue
        m = tab.equip[e, EQ.MINION]
        if m < 0 or m == ch[CH.MINION] or ch[CH.MANA] < tab.equip[e, EQ.MANA]:
            continue
        out = 0
        for q in range(st.g[G.PLAYERS]):
            if st.chars[q, CH.MINION] == m:
                out += 1
        if out >= tab.minion_copies[m]:
            continue
        ch[CH.MANA] -= tab.equip[e, EQ.MANA]
        ch[CH.MINION] = m
        return True
    return False


@njit(refcount=False)
def use_consumable_nb(st, tab, p, c):
    """Discard consumable ``c`` for its effect (TR-386..390); it returns to the deck."""
    if not can_act_nb(st, p) or st.held[p, c] <= 0:
        return False
    row = tab.consumables[c]
    if row[CO.VOODOO]:
        if not bosses.use_voodoo_nb(st, tab, p):
            return False
    st.held[p, c] -= 1
    st.supply[SUP.CONSUMABLE, c] += 1  # TR-387
    ch = st.chars[p]
    heal = min(row[CO.HEAL], ch[CH.MAXHP] - ch[CH.HP])
    if heal > 0:
        ch[CH.HP] += heal
        ch[CH.HEALED] += heal
    ch[CH.MANA] = min(ch[CH.MAXMANA], ch[CH.MANA] + row[CO.MANA])
    ch[CH.DEF] += row[CO.DEF]
    ch[CH.ATK] += row[CO.ATK]
    ch[CH.AP] += row[CO.AP]
    ch[CH.DIG] += row[CO.DIG]
    if row[CO.CURE]:
        i = 0
        while i < st.npile[p, PILE.HAND]:
            if tab.cards[st.deck[p, PILE.HAND, i], CF.SHOP] == SHOP.DEBUFF:
                cards.scrap_card_nb(st, tab, p, PILE.HAND, i)
            else:
                i += 1
    if row[CO.RECALL]:
        recall_nb(st, tab, p)
    return True


@njit(refcount=False)
def use_mirror_nb(st, tab, p):
    """``p`` uses a Magic Mirror played this turn: back to the Surface Forest or a bed (TR-389).

    A card with the ``recall`` flag gives its player one such recall when played
    (``cards.play_card_nb``), to use at any point of that turn (a free action) or lose at
    cleanup. Returns True if ``p`` was recalled.
    """
    ch = st.chars[p]
    if ch[CH.MIRROR] <= 0 or not ch[CH.IN_WORLD]:
        return False
    if not recall_nb(st, tab, p):
        return False
    ch[CH.MIRROR] -= 1
    return True


@njit(refcount=False)
def recall_nb(st, tab, p):
    """Move ``p`` to the Surface Forest or a bed house (TR-389, TR-256); False if none."""
    r, c = life.respawn_square_nb(st, tab)
    if r < 0:
        return False
    st.tally[:] = 0
    remove_piece_nb(st.grid, st.tiles, st.mini, st.pieces, p, st.falls, st.disc, st.tally)
    life.place_character_nb(st, p, r, c)
    settle_nb(st, tab, p)
    return True


@njit(refcount=False)
def use_bottle_nb(st, tab, p, which):
    """Player ``p`` flips the placed bottle's potion token and takes potion ``which``.

    TR-253: once a day, one player of the team takes a Healing, Greater Luck or Magic Power
    potion (the consumables flagged ``CO.BOTTLE``) if a copy is left in the supply (TR-388).
    Allowed when the placed bottle house stands anywhere (TR-257: no need to stand near
    it), nobody has used the bottle today (TR-254: only "used today" is tracked,
    ``g[G.BOTTLE]``, cleared at sunrise by :func:`preparation_nb`, TR-086) and ``p`` is on
    the world in a game still playing.

    Writes ``st.supply[SUP.CONSUMABLE, which]`` (-1), ``st.held[p, which]`` (+1),
    ``st.g[G.BOTTLE]`` (1) and ``st.chars[p, CH.BOTTLED]`` (+1). Returns 1, or 0 when not
    allowed (nothing changed).
    """
    if not can_act_nb(st, p):
        return 0
    g = st.g
    if not g[G.STATIONS] & STATION.BOTTLE or g[G.BOTTLE] != 0:
        return 0
    if which < 0 or which >= tab.consumables.shape[0]:
        return 0
    if tab.consumables[which, CO.BOTTLE] == 0 or st.supply[SUP.CONSUMABLE, which] <= 0:
        return 0
    st.supply[SUP.CONSUMABLE, which] -= 1
    st.held[p, which] += 1
    g[G.BOTTLE] = 1
    st.chars[p, CH.BOTTLED] += 1
    return 1


@njit(refcount=False)
def eat_food_nb(st, tab, p, token):
    """Player ``p`` eats food buff token ``token`` of the cooking pot house (TR-255).

    Allowed when the cooking pot house stands anywhere (TR-257), the token is still uneaten
    today (bit ``token`` of ``g[G.COOK_LEFT]``), ``p`` has not eaten today (bit ``p`` of
    ``g[G.COOKED]``; both reset at sunrise, TR-087) and ``p`` is on the world in a game
    still playing. The token's bonus (``tab.food[token]``, a reward: health, mana
    regained (TR-357), coins, a rope, ...) is collected at once through
    :func:`give_reward_nb`, then objectives are checked (TR-064).

    Writes ``st.g[G.COOK_LEFT]``, ``st.g[G.COOKED]``, ``st.chars[p, CH.EATEN]`` (+1) and
    whatever the reward changes. Returns 1, or 0 when not allowed (nothing changed).
    """
    if not can_act_nb(st, p):
        return 0
    g = st.g
    if not g[G.STATIONS] & STATION.COOKING_POT:
        return 0
    if token < 0 or token >= tab.food.shape[0]:
        return 0
    if not g[G.COOK_LEFT] & (1 << token) or g[G.COOKED] & (1 << p):
        return 0
    g[G.COOK_LEFT] &= ~(1 << token)
    g[G.COOKED] |= 1 << p
    st.chars[p, CH.EATEN] += 1
    rw = tab.food[token]
    give_reward_nb(st, tab, p, rw[RW.KIND], rw[RW.ID], rw[RW.AMOUNT])
    check_objectives_nb(st, tab, p)
    return 1


@njit(refcount=False)
def armor_mana_nb(st, tab, p):
    """At the start of ``p``'s turn its worn armor set regains ``AR.REGEN`` mana (TR-357).

    Up to the maximum (TR-355); nothing without armor or off the world. Writes
    ``st.chars[p, CH.MANA]``. Returns the mana regained.
    """
    ch = st.chars[p]
    a = ch[CH.ARMOR]
    if a < 0 or ch[CH.IN_WORLD] == 0:
        return 0
    add = min(tab.armor[a, AR.REGEN], ch[CH.MAXMANA] - ch[CH.MANA])
    if add <= 0:
        return 0
    ch[CH.MANA] += add
    return add
