"""Terraria bots: scripted players who cooperate as a team (TR-003, TR-079).

Every bot plays the same turn loop with its own weights (``bp``, a float64 vector in
``PARAM_NAMES`` order):

0. At the start of the round, before anyone draws (:func:`gift_phase_nb`, TR-209, TR-219):
   an equipment card or armor set its owner does not use goes to the teammate whose best
   card of that slot (best set) it beats by the most tiers (at least ``gift_min``).
1. Before drawing: the best owned card on top of each equipment slot and the best owned
   armor set worn (by the data's ``TIER``; TR-208, TR-218), except that a weapon without
   short range gives way to the best owned one with it while an enemy or boss stands
   next to the character (TR-260); the worn set regains its ``mana_regen``
   (``magic.armor_mana_nb``, TR-357).
2. Draw a hand (the ready slot's card is taken only if it is not a debuff), then play:
   a debuff card is put into the ready slot instead when the slot is free of another
   debuff (TR-108..111: it never comes back unless drawn), the rest are played; a card with
   a choice gives defence when an enemy is within ``guard_range`` squares, else option A.
3. Free actions: the house bonuses (:func:`house_bonuses_nb`: the placed bottle's potion
   when needed, a Healing one first; the food token that helps most, at once when needed,
   else on the day's last turn; Greater Luck or Magic Power drunk when a fight or mana
   calls for them), Nurse when health is at most ``heal_at``, healing consumables, buy
   inventory slots and cards, craft every better item the team can pay for, build the next
   house whose stations are standing where it fits beside the character. A purchase the bot
   wants (the Nurse, an inventory slot, a Merchant card, at sunrise the Demolitionist's
   bomb) that it is short of by at most ``coin_ask`` coins is topped up by the richest
   teammates (``life.top_up_coins_nb``, TR-197).
4. Action points: collect adjacent crystals and stars; spend lenses at an altar and the
   Guide Voodoo Doll next to lava; attack what the weapon reaches when the fight weight
   says so (a boss first, :func:`boss_target_nb`: the Wall of Flesh, else the boss with
   the fewest wound tokens left; then the enemy with the fewest wounds left); open an
   adjacent chest; chop an adjacent tree while Wood is short; dig an adjacent resource
   block; otherwise walk (digging where it must) toward the best goal of a cost-bounded
   search: each square scores ``explore`` x new tiles its tile would reveal + ``deep`` x
   its layer + ``chest`` / ``mine`` / ``wood`` / ``fight`` for what is next to it (an
   enemy or boss only for a weapon with short range: a ranged one cannot hit a
   neighbour), plus the Fight goals below, divided by ``1 + cost``. The plan is kept
   while each step lands where the search said it would; at the goal the next one is the
   best square beyond it on the same search's tree (priced by the cost beyond it), and a
   new search is made only when nothing there is worth going to, or an action fails or
   ends elsewhere. The search does not count the bot's
   own piece as holding anything up (it leaves its square when it steps; counting it
   planned steps straight up into open air, a fall back, and the same plan again).
   Before digging a resource it has no room for, the bot counts on a teammate with room
   (what a player has no room for goes to teammates first, ``life.team_gain_nb``), else
   passes a slot's units to teammates with room for them, and only then gives up a type
   (:func:`make_room_nb`).

Bots: ``explorer`` (tiles, depth and chests first), ``builder`` (the default and the
strongest on Hard: wood, houses and gear first) and ``fighter`` (hunts enemies and
bosses). All read the current objectives (:func:`turn_weights_nb`): the team chooses the
chains it still needs, the most advanced first, and each player pushes one of them
hardest (player ``p`` the ``p mod needed``-th most advanced).

Bosses. Several may be in play at once (``bosses`` module docstring). The Fight chain's
boss objectives are goals when the team chose the Fight chain (:func:`fight_goal_nb`): a
boss it asks for that is in play is worth ``BP.BOSS`` more beside it; one still to call is
called: King Slime by slimes (``BP.SLIME`` beside a slime), the Eye of Cthulhu by lenses
(``BP.LENS`` beside an enemy that drops them, until the team holds 3; then the player
holding most takes the others' lenses, :func:`pool_lenses_nb`, and goes to an altar,
``BP.ALTAR``). The player who pushes the Fight chain travels to where that is done when it
is beyond its own layer (``BP.TRAVEL``: each row nearer outweighs any other goal; on the
way it digs no resource and attacks only what the goal asks for). A character the bosses
in play could knock out in one enemy turn flees them (:func:`flee_weight_nb`: it attacks
no boss and no square beside one is worth going to).
"""

from __future__ import annotations

from typing import NamedTuple

from simlib.core.jit import njit
from simlib.games.terraria.engine import (
    actions,
    attack,
    bosses,
    cards,
    crafting,
    life,
    magic,
    npcs,
    rewards,
)
from simlib.games.terraria.engine.movement import can_step_nb, supported_nb
from simlib.games.terraria.state import (
    AR,
    BO,
    BOSS_ROW,
    BOSS_SPAWN,
    BP_COIN_ASK,
    CF,
    CH,
    CNT,
    CO,
    COIN_CAP,
    EN,
    EQ,
    FEAT,
    HO,
    KIND,
    LAYERS,
    MAX_BOSSES,
    MAX_PLAYERS,
    MAX_WEIGHTS,
    N_PIECES,
    NPC,
    OB,
    PC,
    PILE,
    RANGE,
    RK,
    ROLE,
    RU,
    RW,
    SHOP,
    SLOT,
    SQ,
    STATION,
    SUP,
    TILE_COLS,
    TP,
    TT,
    G,
    P,
    on_table_nb,
)

PARAM_NAMES = (
    "explore",
    "deep",
    "chest",
    "mine",
    "wood",
    "fight",
    "guard_range",
    "heal_at",
    "wood_target",
    "budget",
    "fall_penalty",
    "buy_reserve",
    "objective_boost",
    "depth_base",
    "coin_ask",
    "gift_min",
    "fall_safe",
)
PARAM_HELP = {
    "explore": "goal weight per undiscovered tile a square's tile would reveal",
    "deep": "goal weight per layer of depth",
    "chest": "goal weight of a square next to an unopened chest",
    "mine": "goal weight of a square next to a resource block",
    "wood": "goal weight of a square next to a tree while Wood is short",
    "fight": "goal weight of a square next to an enemy; >0 also attacks anything in reach",
    "guard_range": "take defence from a choice card when an enemy is this close (squares)",
    "heal_at": "pay the Nurse or drink a potion at or below this health",
    "wood_target": "Wood the team keeps in stock (houses, platforms)",
    "budget": "action-point cost bound of the path search",
    "fall_penalty": "path cost added per square of a fall beyond the first where falls can "
    "hurt (the damage it can do and the climb back)",
    "buy_reserve": "coins kept back when buying action cards",
    "objective_boost": "how much the current objectives multiply their goal weights",
    "depth_base": "deepest layer (0 Surface .. 4 Underworld) sought with no armor; each "
    "armor tier allows one more",
    "coin_ask": "most coins a player takes from its teammates to complete a purchase it wants "
    "(Nurse, inventory slot, Merchant card, Demolitionist's bomb)",
    "gift_min": "tiers a spare equipment card or armor set must beat a teammate's best by to "
    "be given to it at the start of the round",
    "fall_safe": "path cost added per square of a fall beyond the first where falls cannot "
    "hurt (Journey, Lucky Horseshoe: the climb back only)",
}
PARAM_BOUNDS = {
    "explore": (0.0, 100.0),
    "deep": (0.0, 100.0),
    "chest": (0.0, 100.0),
    "mine": (0.0, 100.0),
    "wood": (0.0, 100.0),
    "fight": (0.0, 100.0),
    "guard_range": (0.0, 20.0),
    "heal_at": (0.0, 10.0),
    "wood_target": (0.0, 30.0),
    "budget": (2.0, 40.0),
    "fall_penalty": (0.0, 10.0),
    "buy_reserve": (0.0, 25.0),
    "objective_boost": (1.0, 20.0),
    "depth_base": (0.0, 4.0),
    "coin_ask": (0.0, 25.0),
    "gift_min": (1.0, 20.0),
    "fall_safe": (0.0, 10.0),
}


class _Bp(NamedTuple):
    """Indices of ``bp`` (``PARAM_NAMES`` order)."""

    EXPLORE: int = 0
    DEEP: int = 1
    CHEST: int = 2
    MINE: int = 3
    WOOD: int = 4
    FIGHT: int = 5
    GUARD: int = 6
    HEAL_AT: int = 7
    WOOD_TARGET: int = 8
    BUDGET: int = 9
    FALL: int = 10
    RESERVE: int = 11
    BOOST: int = 12
    DEPTH: int = 13
    COIN_ASK: int = BP_COIN_ASK  # also read by the engine (``state.BP_COIN_ASK``)
    GIFT_MIN: int = 15
    FALL_SAFE: int = 16
    # the turn's working vector adds these (not parameters)
    TARGET_RES: int = 17  # a resource the current objectives ask for (0: none)
    MAX_LAYER: int = 18  # deepest layer index sought this turn
    PLATFORMS: int = 19  # 1: an objective asks for platforms
    ROPES: int = 20  # 1: an objective asks for ropes
    FLEE: int = 21  # > 0: a square next to a boss costs this (the character is too weak)
    BOSS: int = 22  # a square next to a boss is worth this more (a Fight goal)
    SLIME: int = 23  # a square next to a slime is worth this more (King Slime's meter)
    LENS: int = 24  # a square next to an enemy that drops lenses is worth this more
    ALTAR: int = 25  # a square on or next to an altar is worth this (lenses to spend)
    LENS_RES: int = 26  # the Lens's resource id (``RU.LENS``), for ``LENS``
    MELEE: int = 27  # 1: the weapon on top has short range (it hits what stands beside it)
    TRAVEL: int = 28  # > 0: each row a square lies nearer ``TO_ROW`` than ``FROM_ROW`` is
    #                   worth this (a Fight goal out of the search's reach, up or down)
    TO_ROW: int = 29  # the row the bot travels to
    FROM_ROW: int = 30  # the row the bot searches from (set before each search)
    N: int = 31


BP = _Bp()
assert BP.N <= MAX_WEIGHTS  # noqa: S101 - the weights live in st.wts

# ``fall_safe`` of every bot: where falls cannot hurt (Journey, Lucky Horseshoe) a fall is
# priced by ``fall_safe`` instead of ``fall_penalty``. Measured with 1,000 games a cell,
# 2 players, seed 2026, paired by seed (simlib.compare), the change against 6 in win-rate
# points: Hard Lucky Horseshoe, builder 3 -1.0 [-2.7, +0.7], 1 -2.6 [-5.2, -0.04], 8 -0.5
# [-1.4, +0.4], 10 -0.9 [-1.9, +0.1]; fighter 10 -1.0 [-1.9, -0.2]; explorer, Journey and
# Medium within noise both ways (none better than 6 at p < 0.05). In standard mode
# ``fall_penalty`` 8 or 10 moved no bot by more than 0.4 points on Medium or Hard. So the
# climb back alone is worth the price of a fall in these modes, and the default stays 6
# (records unchanged): falls are too rarely harmful on this content for the mode to pay.
FALL_SAFE = 6.0

# What each row nearer the row a Fight goal calls a player to is worth (``BP.TRAVEL``): more
# than any other goal, so the player who pushes the Fight chain goes there first.
TRAVEL = 1000.0

# name -> (id, defaults in PARAM_NAMES order, description)
# The search budget is 10 action points, not 12: the path search is a large share of a
# game's time, and the smaller bound moved the win rates within noise (paired by seed).
BOTS = {
    "explorer": (
        0,
        (10.0, 4.0, 12.0, 6.0, 4.0, 3.0, 3.0, 2.0, 6.0, 10.0, 6.0, 4.0, 8.0, 0.0,
         5.0, 1.0, FALL_SAFE),
        "objective rush: discovers tiles, goes deep, opens chests, mines on the way",
    ),
    "builder": (
        1,
        (5.0, 2.0, 8.0, 10.0, 10.0, 2.0, 3.0, 2.0, 12.0, 10.0, 6.0, 8.0, 8.0, 0.0,
         5.0, 1.0, FALL_SAFE),
        "gears up first: wood and ore, houses and crafting, then explores",
    ),
    "fighter": (
        2,
        (6.0, 3.0, 8.0, 4.0, 3.0, 12.0, 4.0, 2.0, 6.0, 10.0, 6.0, 4.0, 8.0, 0.0,
         5.0, 1.0, FALL_SAFE),
        "hunts enemies and bosses, keeps the team's fight chain moving",
    ),
}


# --- before drawing ----------------------------------------------------------------------------
@njit(refcount=False)
def gear_up_nb(st, tab, p):
    """Best owned equipment on top of each slot and best owned armor worn (TR-208, TR-218).

    The best by tier, except on the Sword slot when an enemy or boss stands next to ``p``
    and that weapon has no short range (it cannot hit a neighbour, TR-260): then the best
    owned weapon with short range, if any. Nothing changes once ``p`` has drawn this round
    (TR-210, TR-220).
    """
    if st.g[G.DRAWN] & (1 << p):
        return
    ch = st.chars[p]
    for s in range(4):
        ch[CH.WEAPON + s] = _best_gear_nb(st, tab, p, s)
    w = ch[CH.WEAPON]
    if w >= 0 and tab.equip[w, EQ.RANGE] & RANGE.SHORT == 0 and _enemy_near_nb(st, p, 1):
        best = -1
        bt = -1
        for e in range(tab.equip.shape[0]):
            if st.owned[p, e] <= 0 or tab.equip[e, EQ.SLOT] != SLOT.WEAPON:
                continue
            if tab.equip[e, EQ.RANGE] & RANGE.SHORT and tab.equip[e, EQ.TIER] > bt:
                best = e
                bt = tab.equip[e, EQ.TIER]
        if best >= 0:
            ch[CH.WEAPON] = best
    col = _best_gear_nb(st, tab, p, 4)
    best = col - tab.equip.shape[0] if col >= 0 else -1
    if best != ch[CH.ARMOR]:
        rewards.wear_armor_nb(st, tab, p, best)


@njit(refcount=False)
def _best_gear_nb(st, tab, q, slot):
    """The ``st.owned`` column :func:`gear_up_nb` puts on top of ``q``'s ``slot``.

    ``slot`` 0..3 an equipment slot (``SLOT``), 4 the armor: the highest tier owned, the
    card on top (set worn) kept on a tie; -1 when ``q`` owns none. Read only.
    """
    n_eq = tab.equip.shape[0]
    if slot < 4:
        best = st.chars[q, CH.WEAPON + slot]
        bt = -1 if best < 0 else tab.equip[best, EQ.TIER]
        for e in range(n_eq):
            if st.owned[q, e] > 0 and tab.equip[e, EQ.SLOT] == slot and tab.equip[e, EQ.TIER] > bt:
                best = e
                bt = tab.equip[e, EQ.TIER]
        return best
    best = st.chars[q, CH.ARMOR]
    bt = -1 if best < 0 else tab.armor[best, AR.TIER]
    for a in range(tab.armor.shape[0]):
        if st.owned[q, n_eq + a] > 0 and tab.armor[a, AR.TIER] > bt:
            best = a
            bt = tab.armor[a, AR.TIER]
    return -1 if best < 0 else n_eq + best


@njit(refcount=False)
def _gear_tier_nb(tab, col):
    """Tier of ``st.owned`` column ``col`` (an equipment card, then the armor sets); -1 for -1."""
    n_eq = tab.equip.shape[0]
    if col < 0:
        return -1
    if col < n_eq:
        return tab.equip[col, EQ.TIER]
    return tab.armor[col - n_eq, AR.TIER]


@njit(refcount=False)
def gift_phase_nb(st, tab, bp):
    """The round's gifts of equipment and armor, before anyone draws (TR-209, TR-219).

    A copy is spare when its owner would not use it: every copy it owns of a card or set
    except the one :func:`gear_up_nb` puts on top (wears). Among all spare copies and
    teammates, the gift that raises the receiver's best card of that slot (best set) by the
    most tiers is made (``crafting.give_equip_nb`` / ``give_armor_nb``; ties: lowest giver,
    card, receiver), when that gain is at least ``gift_min``; then the next, until none is
    left. Writes what those kernels write.
    """
    g = st.g
    players = g[G.PLAYERS]
    if players < 2 or g[G.OVER] != 0:
        return
    n_eq = tab.equip.shape[0]
    n_all = n_eq + tab.armor.shape[0]
    least = max(1.0, bp[BP.GIFT_MIN])
    for _ in range(8 * players):
        bg = 0
        giver = -1
        item = -1
        recv = -1
        for p in range(players):
            for i in range(n_all):
                if st.owned[p, i] <= 0:
                    continue
                slot = tab.equip[i, EQ.SLOT] if i < n_eq else 4
                spare = st.owned[p, i]
                if _best_gear_nb(st, tab, p, slot) == i:
                    spare -= 1
                if spare <= 0:
                    continue
                tier = _gear_tier_nb(tab, i)
                for q in range(players):
                    if not crafting.can_give_gear_nb(st, p, q):
                        continue
                    gain = tier - _gear_tier_nb(tab, _best_gear_nb(st, tab, q, slot))
                    if gain >= least and gain > bg:
                        bg = gain
                        giver = p
                        item = i
                        recv = q
        if giver < 0:
            return
        if item < n_eq:
            done = crafting.give_equip_nb(st, tab, giver, recv, item)
        else:
            done = crafting.give_armor_nb(st, tab, giver, recv, item - n_eq)
        if done == 0:
            return


@njit(refcount=False)
def _enemy_near_nb(st, p, radius):
    r = st.pieces[p, PC.ROW]
    c = st.pieces[p, PC.COL]
    for k in range(MAX_PLAYERS, N_PIECES):
        role = st.pieces[k, PC.ROLE]
        if st.pieces[k, PC.KIND] == KIND.NONE or (role != ROLE.ENEMY and role != ROLE.BOSS):
            continue
        if max(abs(st.pieces[k, PC.ROW] - r), abs(st.pieces[k, PC.COL] - c)) <= radius:
            return True
    return False


@njit(refcount=False)
def draw_and_play_nb(st, tab, p, bp):
    """Draw the hand and play it (TR-091..112). Returns False if the character died."""
    limit = cards.hand_limit_nb(st, tab, p)
    rd = st.ready[p]
    take = rd >= 0 and tab.cards[rd, CF.SHOP] != SHOP.DEBUFF
    cards.draw_hand_nb(st, p, limit, take)
    guard = _enemy_near_nb(st, p, int(bp[BP.GUARD]))
    readied = False
    while st.npile[p, PILE.HAND] > 0:
        card = st.deck[p, PILE.HAND, 0]
        if tab.cards[card, CF.SHOP] == SHOP.DEBUFF and not readied:
            rd = st.ready[p]
            if rd < 0 or tab.cards[rd, CF.SHOP] != SHOP.DEBUFF:
                cards.ready_card_nb(st, p, 0)
                readied = True
                continue
        hurt = cards.play_card_nb(st, tab, p, 0, guard)
        if hurt > 0:
            life.lose_health_nb(st, tab, p, hurt)
            if not st.chars[p, CH.IN_WORLD] or st.g[G.OVER] != 0:
                return False
    return True


# --- free actions ---------------------------------------------------------------------------
@njit(refcount=False)
def _heal_nb(st, tab, p, bp):
    ch = st.chars[p]
    if ch[CH.HP] > bp[BP.HEAL_AT] or ch[CH.HP] >= ch[CH.MAXHP]:
        return
    for c in range(tab.consumables.shape[0]):
        if st.held[p, c] > 0 and tab.consumables[c, CO.HEAL] > 0:
            magic.use_consumable_nb(st, tab, p, c)
            if ch[CH.HP] > bp[BP.HEAL_AT]:
                return
    if st.g[G.NPCS] & (1 << NPC.NURSE):
        life.top_up_coins_nb(st, p, tab.rules[RU.NURSE_PRICE], int(bp[BP.COIN_ASK]))
        npcs.nurse_nb(st, tab, p)


@njit(refcount=False)
def _team_wood_nb(st, tab):
    n = 0
    wood = tab.rules[RU.WOOD]
    for q in range(st.g[G.PLAYERS]):
        n += life.count_units_nb(st.inv, st.chars, q, wood)
    return n


@njit(refcount=False, llvm_inline=True)
def _worth_crafting_nb(st, tab, p, kind, item):
    """Cheap pre-check before ``crafting.can_craft_nb``.

    Better than what ``p`` uses, on sale, its stations standing and the team holding the
    recipe.
    """
    g = st.g
    if kind == 0:
        row = tab.equip[item]
        top = st.chars[p, CH.WEAPON + row[EQ.SLOT]]
        if top >= 0 and tab.equip[top, EQ.TIER] >= row[EQ.TIER]:
            return False
        if not row[EQ.CRAFTABLE] or st.supply[SUP.EQUIP, item] <= 0:
            return False
        if (g[G.STATIONS] & row[EQ.STATION]) != row[EQ.STATION]:
            return False
        return crafting.team_has_nb(st.inv, st.chars, g[G.PLAYERS], tab.equip_recipe[item])
    row = tab.armor[item]
    top = st.chars[p, CH.ARMOR]
    if top >= 0 and tab.armor[top, AR.TIER] >= row[AR.TIER]:
        return False
    if not row[AR.CRAFTABLE] or st.supply[SUP.ARMOR, item] <= 0:
        return False
    if (g[G.STATIONS] & row[AR.STATION]) != row[AR.STATION]:
        return False
    return crafting.team_has_nb(st.inv, st.chars, g[G.PLAYERS], tab.armor_recipe[item])


@njit(refcount=False)
def craft_all_nb(st, tab, p):
    """Craft every item that beats what ``p`` has on top of its slot / wears (by tier)."""
    for e in range(tab.equip.shape[0]):
        if _worth_crafting_nb(st, tab, p, 0, e):
            crafting.craft_nb(st, tab, p, 0, e)
    for a in range(tab.armor.shape[0]):
        if _worth_crafting_nb(st, tab, p, 1, a):
            crafting.craft_nb(st, tab, p, 1, a)


@njit(refcount=False)
def build_all_nb(st, tab, p):
    """Build every house the team can pay for, in data order, where one fits beside ``p``."""
    if not st.chars[p, CH.IN_WORLD]:
        return
    r0 = st.pieces[p, PC.ROW]
    c0 = st.pieces[p, PC.COL]
    for hid in range(tab.houses.shape[0]):
        if not crafting.can_build_nb(st, tab, p, hid):
            continue
        wd = tab.houses[hid, HO.W]
        ht = tab.houses[hid, HO.H]
        done = False
        for r in range(r0 - ht, r0 + 2):
            if done:
                break
            for c in range(c0 - wd, c0 + 2):
                if crafting.house_fits_nb(st, tab, p, hid, r, c):
                    crafting.build_house_nb(st, tab, p, hid, r, c)
                    done = True
                    break


@njit(refcount=False)
def shop_nb(st, tab, p, bp):
    """Buy inventory slots when full, then action cards while coins last past the reserve.

    A slot, or a Merchant card with the reserve kept, that ``p`` is short of by at most
    ``coin_ask`` coins is topped up by its teammates first (``life.top_up_coins_nb``).
    """
    ch = st.chars[p]
    ask = int(bp[BP.COIN_ASK])
    full = True
    for s in range(ch[CH.SLOTS]):
        if st.inv[p, s, 1] == 0:
            full = False
    if full and ch[CH.SLOTS] < 6:
        price = tab.rules[RU.SLOT5_PRICE] if ch[CH.SLOTS] == 4 else tab.rules[RU.SLOT6_PRICE]
        life.top_up_coins_nb(st, p, price, ask)
        npcs.buy_slot_nb(st, tab, p)
    reserve = int(bp[BP.RESERVE])
    for _ in range(4):
        best = -3
        bv = 0
        for c in range(tab.cards.shape[0]):
            if tab.cards[c, CF.SHOP] != SHOP.GUIDE or st.supply[SUP.CARDS, c] <= 0:
                continue
            v = 3 * tab.cards[c, CF.AP] + tab.cards[c, CF.DEF] + tab.cards[c, CF.HEAL]
            v += 2 * tab.cards[c, CF.DRAW] + tab.cards[c, CF.ATK]
            if tab.cards[c, CF.PRICE] + reserve <= ch[CH.COINS] + ch[CH.TCOIN] and v > bv:
                best = c
                bv = v
        if st.g[G.NPCS] & (1 << NPC.MERCHANT):
            if life.top_up_coins_nb(st, p, 15 + reserve, ask):
                best = -2
            elif best < 0 and life.top_up_coins_nb(st, p, 8 + reserve, ask):
                best = -1
        if best == -3:
            return
        if not npcs.buy_card_nb(st, tab, p, best):
            return


@njit(refcount=False)
def free_actions_nb(st, tab, p, bp):
    """The free actions of a turn (no action points): house bonuses, heal, shop, craft, build."""
    if not st.chars[p, CH.IN_WORLD] or st.g[G.OVER] != 0:
        return
    house_bonuses_nb(st, tab, p, bp)
    _heal_nb(st, tab, p, bp)
    shop_nb(st, tab, p, bp)
    craft_all_nb(st, tab, p)
    build_all_nb(st, tab, p)
    magic.summon_nb(st, tab, p)


# --- house bonuses: the placed bottle and the cooking pot (TR-253, TR-255) -------------------
@njit(refcount=False)
def mana_hungry_nb(st, tab, p):
    """True when ``p`` has a use for more mana now.

    Below its maximum with a magic weapon on top (mana per attack, TR-354), or with a
    minion staff whose minion it cannot pay to summon yet (the staff
    :func:`magic.summon_nb` would use, TR-360).
    """
    ch = st.chars[p]
    if ch[CH.MANA] >= ch[CH.MAXMANA]:
        return False
    w = ch[CH.WEAPON]
    if w >= 0 and tab.equip[w, EQ.MANA] > 0 and tab.equip[w, EQ.MINION] < 0:
        return True
    for s in (SLOT.OTHER, SLOT.WEAPON):
        e = ch[CH.WEAPON + s]
        if e >= 0 and tab.equip[e, EQ.MINION] >= 0:
            return ch[CH.MINION] != tab.equip[e, EQ.MINION] and ch[CH.MANA] < tab.equip[e, EQ.MANA]
    return False


@njit(refcount=False)
def _last_turn_of_day_nb(st, tab):
    """True when the next time track space is a sunrise (today's bonuses are lost then)."""
    n = tab.time_track.shape[0]
    return tab.time_track[(st.g[G.TIME] + 1) % n, TT.SUNRISE] != 0


@njit(refcount=False)
def food_value_nb(st, tab, p, token, w):
    """What eating food token ``token`` is worth to ``p`` now (0.0: nothing).

    Health and mana count only up to the maxima (mana only for a mana-hungry character:
    :func:`mana_hungry_nb`), coins only up to the dial's 25, a rope only while an objective
    asks for ropes; anything else by ``actions.reward_value_nb``.
    """
    ch = st.chars[p]
    kind = tab.food[token, RW.KIND]
    n = tab.food[token, RW.AMOUNT]
    if kind == RK.NONE:
        return 0.0
    if kind == RK.HEAL:
        return 2.0 * max(min(n, ch[CH.MAXHP] - ch[CH.HP]), 0)
    if kind == RK.MANA:
        if not mana_hungry_nb(st, tab, p):
            return 0.0
        return 2.0 * max(min(n, ch[CH.MAXMANA] - ch[CH.MANA]), 0)
    if kind == RK.COINS:
        return 0.5 * max(min(n, COIN_CAP - ch[CH.COINS]), 0)
    if kind == RK.ROPE:
        return 1.0 * n if w[BP.ROPES] else 0.1 * n
    return 0.1 * actions.reward_value_nb(tab, tab.food[token])


@njit(refcount=False)
def eat_best_nb(st, tab, p, w):
    """Eat the food token worth most to ``p`` (:func:`food_value_nb`), once a day (TR-255).

    Eaten at once when it is needed: a health token that heals in full or ``p`` is at or
    below ``heal_at``, or a mana token for a mana-hungry ``p``; otherwise the best token
    worth anything waits for the day's last turn (a later turn today may need it more).
    Returns 1 if ``p`` ate.
    """
    g = st.g
    if not g[G.STATIONS] & STATION.COOKING_POT or g[G.COOKED] & (1 << p):
        return 0
    best = -1
    bv = 0.0
    for t in range(tab.food.shape[0]):
        if g[G.COOK_LEFT] & (1 << t):
            v = food_value_nb(st, tab, p, t, w)
            if v > bv:
                bv = v
                best = t
    if best < 0:
        return 0
    ch = st.chars[p]
    kind = tab.food[best, RW.KIND]
    n = tab.food[best, RW.AMOUNT]
    need = False
    if kind == RK.HEAL:
        need = ch[CH.MAXHP] - ch[CH.HP] >= n or ch[CH.HP] <= w[BP.HEAL_AT]
    elif kind == RK.MANA:
        need = True  # valued above 0 only when mana-hungry
    if need or _last_turn_of_day_nb(st, tab):
        return magic.eat_food_nb(st, tab, p, best)
    return 0


@njit(refcount=False)
def _bottle_pick_nb(st, tab, kind):
    """The bottle potion of ``kind`` (0 health, 1 mana, 2 other) left in the supply, -1 none.

    Of several, the one that heals most / gives most mana / gives most icons.
    """
    best = -1
    bv = -1
    for c in range(tab.consumables.shape[0]):
        row = tab.consumables[c]
        if row[CO.BOTTLE] == 0 or st.supply[SUP.CONSUMABLE, c] <= 0:
            continue
        if row[CO.HEAL] > 0:
            k = 0
            v = row[CO.HEAL]
        elif row[CO.MANA] > 0:
            k = 1
            v = row[CO.MANA]
        else:
            k = 2
            v = row[CO.ATK] + row[CO.DEF] + row[CO.AP]
        if k == kind and v > bv:
            bv = v
            best = c
    return best


@njit(refcount=False)
def take_bottle_nb(st, tab, p, w):
    """Take the placed bottle's potion for ``p`` when ``p`` needs it (TR-253, once a day).

    A Healing potion when ``p`` is at or below ``heal_at`` or holds no healing consumable
    (a reserve), else Magic Power when ``p`` is mana-hungry (:func:`mana_hungry_nb`), else
    nothing until the day's last turn, then Greater Luck. If the wanted kind is gone from
    the supply, the next in the order health, other, mana. The bottle serves the whole team
    once a day, so a player with no need leaves it to a teammate. Returns 1 if taken.
    """
    g = st.g
    if not g[G.STATIONS] & STATION.BOTTLE or g[G.BOTTLE] != 0:
        return 0
    ch = st.chars[p]
    reserve = False
    for c in range(tab.consumables.shape[0]):
        if st.held[p, c] > 0 and tab.consumables[c, CO.HEAL] > 0:
            reserve = True
    hurt = ch[CH.HP] <= w[BP.HEAL_AT] and ch[CH.HP] < ch[CH.MAXHP]
    if hurt or not reserve:
        want = 0
    elif mana_hungry_nb(st, tab, p):
        want = 1
    elif _last_turn_of_day_nb(st, tab):
        want = 2
    else:
        return 0
    c = _bottle_pick_nb(st, tab, want)
    if c < 0 and want != 2:
        c = _bottle_pick_nb(st, tab, 2)
    if c < 0 and want != 1:
        c = _bottle_pick_nb(st, tab, 1)
    if c < 0 and want != 0:
        c = _bottle_pick_nb(st, tab, 0)
    if c < 0:
        return 0
    return magic.use_bottle_nb(st, tab, p, c)


@njit(refcount=False)
def drink_potions_nb(st, tab, p, w):
    """Drink one held bottle potion that does not heal (healing is :func:`_heal_nb`'s).

    A potion giving mana when ``p`` is mana-hungry; one giving attack or defence icons
    when an enemy is within ``guard_range`` squares (its icons serve this turn's attacks
    and, for defence, the enemy turn: TR-105). Returns 1 if one was drunk.
    """
    near = -1
    for c in range(tab.consumables.shape[0]):
        if st.held[p, c] <= 0:
            continue
        row = tab.consumables[c]
        if row[CO.BOTTLE] == 0 or row[CO.HEAL] > 0:
            continue
        use = row[CO.MANA] > 0 and mana_hungry_nb(st, tab, p)
        if not use and (row[CO.ATK] > 0 or row[CO.DEF] > 0):
            if near < 0:
                near = 1 if _enemy_near_nb(st, p, int(w[BP.GUARD])) else 0
            use = near == 1
        if use and magic.use_consumable_nb(st, tab, p, c):
            return 1
    return 0


@njit(refcount=False)
def house_bonuses_nb(st, tab, p, w):
    """The placed bottle and the cooking pot for ``p`` (free actions; TR-253..257, TR-357).

    Take the bottle's potion (:func:`take_bottle_nb`), eat a food token
    (:func:`eat_best_nb`), drink a bottle potion the moment calls for
    (:func:`drink_potions_nb`). Neither house needs ``p`` beside it (TR-257).
    """
    if not st.chars[p, CH.IN_WORLD] or st.g[G.OVER] != 0:
        return
    take_bottle_nb(st, tab, p, w)
    eat_best_nb(st, tab, p, w)
    drink_potions_nb(st, tab, p, w)


# --- the path search ----------------------------------------------------------------------
@njit(refcount=False)
def _landing_nb(grid, tiles, r, c):
    """Row where a piece stepping into (r, c) ends after falling (walls of air only)."""
    while not supported_nb(grid, tiles, r, c):
        r += 1
    return r


@njit(refcount=False)
def _dig_ap_nb(grid, res_dig, rate, r, c):
    """Action points to dig the block at (r, c) at ``rate`` dig per point (-1: cannot).

    The hot helpers of the search take plain arrays, not the whole ``State`` / ``Tables``.
    """
    if rate <= 0:
        return -1
    s = grid[P.SQ, r, c]
    if s == SQ.HALF:
        cost = 1
    elif s == SQ.BLOCK:
        cost = res_dig[grid[P.RES, r, c]]
    else:
        return -1
    cost -= grid[P.PROG, r, c]
    return (cost + rate - 1) // rate


@njit(refcount=False)
def search_nb(st, tab, p, budget, fall_pen):
    """Cheapest action-point cost from ``p`` to every square it can stand in (bounded).

    Writes ``st.bdist`` (cost, -1 unreached) and ``st.bfrom`` (``(from_square * 9 + hop) * 2
    + dug``: the square the cheapest way came from, the hop's direction ``(dr + 1) * 3 + dc
    + 1``, and 1 if it dug a block on the way). Steps cost 1, a
    dug block its dig in action points plus the step, a fall ``fall_pen`` per square beyond
    the first. The caller prices falls by the mode (``spend_points_nb``: ``fall_penalty``
    where falls hurt, ``fall_safe`` where they cannot); a long drop is also a climb back,
    and a bot that dropped freely went deeper than its armor sooner and died more
    (measured: with falls free of charge Lucky Horseshoe lost 7 pp to standard on Medium,
    with ten times the games out of respawns). Squares are expanded by cost, one level
    at a time up to ``budget``, in the order the queue reached them.
    ``p``'s own piece is taken out of ``P.OCC`` for the search and put back after it.
    """
    pick = st.chars[p, CH.PICK]
    rate = tab.equip[pick, EQ.DIG] if pick >= 0 else 0
    r0 = st.pieces[p, PC.ROW]
    c0 = st.pieces[p, PC.COL]
    # ``p`` is not in its own way: once it moves, the square it leaves is empty, so its own
    # piece holds nothing up (a step straight up onto it would fall back)
    occ = st.grid[P.OCC, r0, c0]
    st.grid[P.OCC, r0, c0] = 0
    n = _search_nb(
        st.grid,
        st.tiles,
        tab.res_dig,
        rate,
        r0,
        c0,
        budget,
        fall_pen,
        st.bdist,
        st.bfrom,
        st.bqueue,
    )
    st.grid[P.OCC, r0, c0] = occ
    return n


@njit(refcount=False)
def _search_nb(grid, tiles, res_dig, rate, r0, c0, budget, fall_pen, bdist, bfrom, q):
    """:func:`search_nb` on plain arrays.

    ``q`` lists the squares reached in the order they were reached (pairs ``square, cost``,
    a square again each time a cheaper way in is found; :func:`pick_goal_nb` reads it).
    Each cost level is expanded in that order; to find a level's entries without
    rescanning the whole list at every level, the entries of each level are chained in a
    list kept at the far end of ``q`` (head and tail of each level, then the next entry of
    each entry, growing down). When the pairs would reach the chains (never with the
    bots' budgets: it takes a third of ``q``), the search goes on scanning ``q`` from the
    entry after the one it is expanding, as it would have without the chains: the same
    squares in the same order either way, and an entry beyond half of ``q`` is dropped.
    """
    rows = grid.shape[1]
    cols = grid.shape[2]
    bdist[:, :] = -1
    cap = q.shape[0] // 2
    bdist[r0, c0] = 0
    bfrom[r0, c0] = -1
    n = 1
    q[0] = r0 * cols + c0
    q[1] = 0
    # the chains: head of level k at q[top - k], its tail at q[top - levels - k], the next
    # entry after entry i at q[link - i] (-1: none); pairs are chained while n < lim
    levels = budget + 1
    top = q.shape[0] - 1
    link = top - 2 * levels
    lim = link // 3 if link > 0 else 0
    linked = lim >= 1 and levels >= 1
    if linked:
        for k in range(levels):
            q[top - k] = -1
        q[top] = 0
        q[top - levels] = 0
        q[link] = -1
    for level in range(budget + 1):
        i = q[top - level] if linked else 0
        while (i >= 0) if linked else (i < n):
            cur = i
            node = q[2 * cur]
            cost = q[2 * cur + 1]
            r = node // cols
            c = node % cols
            if cost == level and bdist[r, c] == cost:
                # at the budget only a dig straight down can cost nothing more (every
                # other hop costs at least its step; falls add ``fall_pen`` >= 0 each): the
                # others need not be looked at (the last level holds the most squares)
                last = cost == budget and fall_pen >= 0
                for dr in range(-1, 2):
                    for dc in range(-1, 2):
                        if dr == 0 and dc == 0:
                            continue
                        if last and (dr != 1 or dc != 0):
                            continue
                        tr = r + dr
                        tc = c + dc
                        if not on_table_nb(grid, tiles, tr, tc):
                            continue
                        s = grid[P.SQ, tr, tc]
                        dug = 0
                        if s == SQ.LAVA:
                            continue
                        # a square already reached at no more than this hop would cost needs
                        # no hop worked out (a third of them on the bots' searches): every
                        # square reached but the start is one a hop into ends in, with no
                        # fall (air or a half block a piece stands on, a block dug where it
                        # stops; the grid does not change during the search), so the hop
                        # costs at least its step, or a dig straight down its points only
                        old = bdist[tr, tc]
                        if (
                            old >= 0
                            and old <= cost + (0 if dr == 1 and dc == 0 else 1)
                            and (tr != r0 or tc != c0)
                        ):
                            continue
                        if s == SQ.BLOCK or (s == SQ.HALF and dr < 0):
                            ap = _dig_ap_nb(grid, res_dig, rate, tr, tc)
                            if ap < 0:
                                continue
                            add = ap + (0 if dr == 1 and dc == 0 else 1)
                            dug = 1
                            lr = tr
                            if tr + 1 < rows and grid[P.SQ, tr + 1, tc] == SQ.AIR:
                                lr = (
                                    _landing_nb(grid, tiles, tr + 1, tc)
                                    if not supported_nb(grid, tiles, tr, tc)
                                    else tr
                                )
                        else:
                            if dr == 1 and dc == 0:
                                continue
                            if not can_step_nb(grid, tiles, r, c, dr, dc):
                                continue
                            add = 1
                            lr = _landing_nb(grid, tiles, tr, tc)
                        if lr - tr > 1:
                            add += fall_pen * (lr - tr - 1)
                        nc_ = cost + add
                        if nc_ > budget:
                            continue
                        old = bdist[lr, tc]
                        if old >= 0 and old <= nc_:
                            continue
                        bdist[lr, tc] = nc_
                        bfrom[lr, tc] = ((r * cols + c) * 9 + (dr + 1) * 3 + dc + 1) * 2 + dug
                        if n < cap:
                            if linked and n >= lim:
                                linked = False  # the pairs reach the chains: scan from here
                            q[2 * n] = lr * cols + tc
                            q[2 * n + 1] = nc_
                            if linked:
                                q[link - n] = -1
                                if q[top - nc_] < 0:
                                    q[top - nc_] = n
                                else:
                                    q[link - q[top - levels - nc_]] = n
                                q[top - levels - nc_] = n
                            n += 1
            # read after the expansion: a dig straight down may chain an entry of this level
            i = q[link - cur] if linked else cur + 1
    return n


@njit(refcount=False, llvm_inline=True)
def _tile_gain_nb(grid, tiles, r, c):
    """Undiscovered tile positions that entering the tile of (r, c) would reveal."""
    h = grid.shape[1] // LAYERS
    w = grid.shape[2] // TILE_COLS
    la = r // h
    tc = c // w
    n = 0
    if la > 0 and tiles[TP.KNOWN, la - 1, tc] == 0:
        n += 1
    if la < LAYERS - 1 and tiles[TP.KNOWN, la + 1, tc] == 0:
        n += 1
    if tc > 0 and tiles[TP.KNOWN, la, tc - 1] == 0:
        n += 1
    if tc < TILE_COLS - 1 and tiles[TP.KNOWN, la, tc + 1] == 0:
        n += 1
    return n


@njit(refcount=False, llvm_inline=True)
def _square_value_nb(grid, tiles, pieces, enemies, res_dig, res_struct, r, c, bp, wood_short):
    """What standing in (r, c) is worth to ``p`` (see the module docstring).

    ``enemies`` is the bestiary (``tab.enemies``: which enemies are slimes or drop lenses).
    """
    h = grid.shape[1] // LAYERS
    layer = r // h
    deep = min(layer, bp[BP.MAX_LAYER])
    over = max(0.0, layer - bp[BP.MAX_LAYER])
    v = bp[BP.EXPLORE] * _tile_gain_nb(grid, tiles, r, c) + bp[BP.DEEP] * (deep - 3 * over)
    if over > 0:
        v -= bp[BP.EXPLORE] * _tile_gain_nb(grid, tiles, r, c)
    if bp[BP.TRAVEL] > 0:
        v += bp[BP.TRAVEL] * (abs(bp[BP.FROM_ROW] - bp[BP.TO_ROW]) - abs(r - bp[BP.TO_ROW]))
    rows = grid.shape[1]
    cols = grid.shape[2]
    altar = bp[BP.ALTAR] > 0 and grid[P.FEAT, r, c] & FEAT.ALTAR != 0  # on it (TR-397)
    for dr in range(-1, 2):
        for dc in range(-1, 2):
            tr = r + dr
            tc = c + dc
            if (dr == 0 and dc == 0) or tr < 0 or tc < 0 or tr >= rows or tc >= cols:
                continue
            f = grid[P.FEAT, tr, tc]
            if f & FEAT.ALTAR:
                altar = bp[BP.ALTAR] > 0
            if f & FEAT.CHEST and not f & (FEAT.OPENED | FEAT.HOUSE):  # TR-235 reading
                v += bp[BP.CHEST]
            if wood_short and f & FEAT.TREE and not f & (FEAT.ACORN | FEAT.HOUSE):  # TR-237
                v += bp[BP.WOOD]
            res = grid[P.RES, tr, tc]
            if res > 0 and grid[P.SQ, tr, tc] == SQ.BLOCK and res_struct[res] == 0:
                m = bp[BP.MINE] * (1 + res_dig[res] // 2)
                if res == bp[BP.TARGET_RES]:
                    m *= bp[BP.BOOST]
                v += m
            k = grid[P.OCC, tr, tc] - 1
            if k >= MAX_PLAYERS:
                role = pieces[k, PC.ROLE]
                if role == ROLE.BOSS:
                    if bp[BP.FLEE] > 0:
                        v -= bp[BP.FLEE]
                    elif bp[BP.MELEE] != 0:  # a ranged weapon cannot hit it from here
                        v += bp[BP.FIGHT] + bp[BP.BOSS]
                elif role == ROLE.ENEMY and bp[BP.MELEE] != 0:
                    v += bp[BP.FIGHT]
                    e = pieces[k, PC.TYPE]
                    if enemies[e, EN.SLIME] != 0:
                        v += bp[BP.SLIME]
                    if enemies[e, EN.LOOT_RES] > 0 and enemies[e, EN.LOOT_RES] == bp[BP.LENS_RES]:
                        v += bp[BP.LENS]
                elif role == ROLE.CRYSTAL or role == ROLE.STAR:
                    v += bp[BP.CHEST]
    if altar:
        v += bp[BP.ALTAR]
    return v


@njit(refcount=False)
def pick_goal_nb(st, tab, p, bp, n, under=-1):
    """The square of best value per cost among those the last search reached (-1: none).

    ``under`` >= 0: only squares whose cheapest way in that search passes through the
    square ``under`` (where ``p`` stands now), at their cost beyond it.
    """
    wood_short = _team_wood_nb(st, tab) < bp[BP.WOOD_TARGET]
    return _pick_goal_nb(st.grid, st.tiles, st.pieces, tab.enemies, st.bdist, st.bfrom,
                         st.bqueue, tab.res_dig, tab.res_struct, st.pieces[p, PC.ROW],
                         st.pieces[p, PC.COL], bp, n, wood_short, under)


@njit(refcount=False)
def _pick_goal_nb(grid, tiles, pieces, enemies, bdist, bfrom, bqueue, res_dig, res_struct, r0,
                  c0, bp, n, wood_short, under):
    """:func:`pick_goal_nb` on plain arrays."""
    cols = grid.shape[2]
    d0 = 0
    if under >= 0:
        d0 = bdist[under // cols, under % cols]
    best = -1
    bv = 0.0
    for i in range(n):
        node = bqueue[2 * i]
        r = node // cols
        c = node % cols
        d = bdist[r, c]
        if d != bqueue[2 * i + 1] or (r == r0 and c == c0):
            continue
        if grid[P.OCC, r, c] != 0:
            continue  # cannot end there (TR-119)
        if under >= 0:
            if d <= d0:
                continue
            up = bfrom[r, c] // 18  # up the cheapest way back, to ``under`` or past it
            while up != under and up >= 0 and bdist[up // cols, up % cols] > d0:
                up = bfrom[up // cols, up % cols] // 18
            if up != under:
                continue
        v = _square_value_nb(grid, tiles, pieces, enemies, res_dig, res_struct, r, c, bp,
                             wood_short) / (1.0 + d - d0)
        if v > bv:
            bv = v
            best = node
    return best


@njit(refcount=False)
def first_move_nb(st, p, goal):
    """The first hop ``(dr, dc, dug, to)`` on the cheapest way to ``goal``; ``dr = -2``: none.

    ``to`` is the square the search reached by that hop (below the square stepped into
    when the step ends in a fall).
    """
    cols = st.grid.shape[2]
    here = st.pieces[p, PC.ROW] * cols + st.pieces[p, PC.COL]
    node = goal
    for _ in range(st.bdist.size):
        f = st.bfrom[node // cols, node % cols]
        if f < 0:
            return -2, 0, 0, -1
        dug = f % 2
        hop = (f // 2) % 9
        prev = f // 18
        if prev == here:
            return hop // 3 - 1, hop % 3 - 1, dug, node
        node = prev
    return -2, 0, 0, -1


# --- action points --------------------------------------------------------------------------
@njit(refcount=False)
def boss_target_nb(st, tab, p, bp):
    """The boss ``p`` attacks first: its ``pieces`` row, -1 for none (read only).

    Among the bosses its weapon reaches now: the Wall of Flesh (its defeat wins the game),
    else the one with the fewest wound tokens left to defeat it (:func:`boss_left_nb`: the
    sooner one falls, the sooner its attacks stop), ties the lower id. None while ``p``
    flees the bosses (``bp[BP.FLEE] > 0``).
    """
    if bp[BP.FLEE] > 0:
        return -1
    best = -1
    bl = 1 << 20
    epoch = -1  # found when first needed (most turns no boss is in play)
    for k in range(BOSS_ROW, N_PIECES):
        if st.pieces[k, PC.KIND] == KIND.NONE or st.pieces[k, PC.ROLE] != ROLE.BOSS:
            continue
        b = st.pieces[k, PC.TYPE]
        left = boss_left_nb(st, tab, b)
        if tab.bosses[b, BO.WIN] != 0:
            left -= 1 << 10
        if left >= bl:
            continue
        if epoch < 0:
            epoch = attack.sight_epoch_nb(st)
        if attack.weapon_reaches_nb(st.pieces, st.chars, st.grid, st.tiles, tab.equip, st.seen,
                                    epoch, p, k):  # fmt: skip
            bl = left
            best = k
    return best


@njit(refcount=False)
def _wanted_enemy_nb(enemies, e, bp):
    """True when bestiary enemy ``e`` is one a Fight goal asks for (a slime, a lens)."""
    if bp[BP.SLIME] > 0 and enemies[e, EN.SLIME] != 0:
        return True
    res = enemies[e, EN.LOOT_RES]
    return bp[BP.LENS] > 0 and res > 0 and res == bp[BP.LENS_RES]


@njit(refcount=False)
def _adjacent_acts_nb(st, tab, p, bp):
    """One action on something next to ``p`` (or in weapon reach). True if one was taken."""
    r = st.pieces[p, PC.ROW]
    c = st.pieces[p, PC.COL]
    rows = st.grid.shape[1]
    cols = st.grid.shape[2]
    # crystals and stars (free)
    for dr in range(-1, 2):
        for dc in range(-1, 2):
            tr = r + dr
            tc = c + dc
            if tr < 0 or tc < 0 or tr >= rows or tc >= cols:
                continue
            k = st.grid[P.OCC, tr, tc] - 1
            if k >= MAX_PLAYERS:
                role = st.pieces[k, PC.ROLE]
                if role == ROLE.CRYSTAL or role == ROLE.STAR:
                    if actions.collect_action_nb(st, tab, p, k):
                        return True
    if bosses.spend_lenses_nb(st, tab, p):  # at an altar with 3 lenses: Eye of Cthulhu
        return True
    for c_ in range(tab.consumables.shape[0]):  # the Guide Voodoo Doll next to lava
        if st.held[p, c_] > 0 and tab.consumables[c_, CO.VOODOO]:
            if magic.use_consumable_nb(st, tab, p, c_):
                return True
    ch = st.chars[p]
    fight = bp[BP.FIGHT] > 0
    if fight and (ch[CH.AP] > 0 or ch[CH.MANA] > 0):
        bl = 1 << 20
        pieces = st.pieces  # read once
        chars = st.chars
        grid = st.grid
        tiles = st.tiles
        equip = tab.equip
        enemies = tab.enemies
        seen = st.seen
        epoch = -1  # found when first needed (the sight epoch: a pass over the tiles)
        # a boss in reach first (:func:`boss_target_nb`); else the enemy in reach with the
        # fewest wounds left (the first such): an enemy with no fewer wounds left than the
        # best so far cannot be chosen, so its reach and line of sight (the costly part)
        # are not looked at
        best = boss_target_nb(st, tab, p, bp)
        travelling = bp[BP.TRAVEL] > 0
        for k in range(MAX_PLAYERS, BOSS_ROW if best < 0 else MAX_PLAYERS):
            if pieces[k, PC.KIND] == KIND.NONE or pieces[k, PC.ROLE] != ROLE.ENEMY:
                continue
            if travelling and not _wanted_enemy_nb(enemies, pieces[k, PC.TYPE], bp):
                continue  # on its way, a bot spends no point on what it does not want
            left = enemies[pieces[k, PC.TYPE], EN.WOUNDS] - pieces[k, PC.WOUNDS]
            if left >= bl:
                continue
            if epoch < 0:
                epoch = attack.sight_epoch_nb(st)
            if not attack.weapon_reaches_nb(pieces, chars, grid, tiles, equip, seen, epoch, p, k):
                continue
            bl = left
            best = k
        if best >= 0 and attack.attack_action_nb(st, tab, p, best) >= 0:
            return True
    if ch[CH.AP] < 1 and ch[CH.DIG] <= 0 and ch[CH.CHOP] <= 0:
        return False
    wood_short = _team_wood_nb(st, tab) < bp[BP.WOOD_TARGET]
    for dr in range(-1, 2):
        for dc in range(-1, 2):
            tr = r + dr
            tc = c + dc
            if (dr == 0 and dc == 0) or tr < 0 or tc < 0 or tr >= rows or tc >= cols:
                continue
            f = st.grid[P.FEAT, tr, tc]
            if f & FEAT.CHEST and not f & (FEAT.OPENED | FEAT.HOUSE) and ch[CH.AP] > 0:
                if actions.open_chest_nb(st, tab, p, tr, tc):
                    return True
            if wood_short and f & FEAT.TREE and not f & (FEAT.ACORN | FEAT.HOUSE):
                if actions.chop_action_nb(st, tab, p, tr, tc):
                    return True
            res = st.grid[P.RES, tr, tc]
            if res > 0 and st.grid[P.SQ, tr, tc] == SQ.BLOCK and tab.res_struct[res] == 0:
                if bp[BP.MINE] > 0 and bp[BP.TRAVEL] <= 0 and make_room_nb(st, tab, p, res, bp):
                    if actions.dig_action_nb(st, tab, p, tr, tc):
                        return True
    return False


@njit(refcount=False)
def spend_points_nb(st, tab, p, bp):
    """Spend ``p``'s action points (and converted dig/chop) as the module docstring says."""
    cols = st.grid.shape[2]
    budget = int(bp[BP.BUDGET])
    # a fall's price follows the mode's fall rules (TR-435, TR-436: no fall damage in
    # Journey and Lucky Horseshoe, where only the climb back is left to price)
    fall_pen = int(bp[BP.FALL] if st.g[G.FALL_DAMAGE] != 0 else bp[BP.FALL_SAFE])
    goal = -1
    fails = 0
    n = 0
    reached = -1  # the goal just reached, on the last search's tree (-1: none)
    for _ in range(64):
        if st.g[G.OVER] != 0 or not st.chars[p, CH.IN_WORLD]:
            return
        if _adjacent_acts_nb(st, tab, p, bp):
            continue
        ch = st.chars[p]
        if ch[CH.AP] < 1 and ch[CH.DIG] <= 0:
            return
        if goal < 0 and reached == st.pieces[p, PC.ROW] * cols + st.pieces[p, PC.COL]:
            # still where the last goal was reached: go on beyond it on that search's tree
            goal = pick_goal_nb(st, tab, p, bp, n, reached)
        reached = -1
        if goal < 0:
            bp[BP.FROM_ROW] = st.pieces[p, PC.ROW]
            n = search_nb(st, tab, p, budget, fall_pen)
            goal = pick_goal_nb(st, tab, p, bp, n, -1)
            if goal < 0:
                return
        dr, dc, dug, to = first_move_nb(st, p, goal)
        if dr < -1:
            goal = -1
            fails += 1
            if fails > 3:
                return
            continue
        r = st.pieces[p, PC.ROW]
        c = st.pieces[p, PC.COL]
        tr = r + dr
        tc = c + dc
        sq = st.grid[P.SQ, tr, tc]
        if dug and (sq == SQ.BLOCK or sq == SQ.HALF):
            ok = actions.dig_action_nb(st, tab, p, tr, tc)  # digging below drops p in
        elif dr == 1 and dc == 0:
            ok = False
        else:
            ok = actions.step_action_nb(st, tab, p, dr, dc)
        if not ok:
            goal = -1
            fails += 1
            if fails > 3:
                return
        elif st.pieces[p, PC.ROW] * cols + st.pieces[p, PC.COL] == goal:
            reached = goal
            goal = -1
        elif (
            st.chars[p, CH.IN_WORLD]
            and st.pieces[p, PC.ROW] * cols + st.pieces[p, PC.COL] != to
            and not dug
        ):
            goal = -1  # it did not land where the search did (a stack, a cobweb): off the plan


# --- the current objectives -----------------------------------------------------------------
@njit(refcount=False)
def turn_weights_nb(st, tab, p, bp, w):
    """The turn's working weights ``w``: ``bp`` with the current objectives' goals boosted.

    For each chain's current objective (TR-056) the matching goal weight is multiplied by
    ``objective_boost``: tiles and biomes -> explore; a layer -> deep (and the depth cap
    rises to it); chests -> chest; a resource -> that resource's blocks (Wood -> trees);
    enemies and slimes -> fight; life crystals and fallen stars -> the chest weight (tokens
    are valued like chests); platforms and ropes -> placed as free actions. The depth cap is
    ``depth_base`` plus the worn armor's tier. When the Fight chain is one of the chains the
    team chose (the ``needed`` most advanced) and its current objective asks for a boss,
    the way to that boss is a goal too (:func:`fight_goal_nb`). With bosses in play, a
    character they could knock out flees them (:func:`flee_weight_nb`).
    """
    for i in range(bp.shape[0]):
        w[i] = bp[i]
    a = st.chars[p, CH.ARMOR]
    w[BP.MAX_LAYER] = bp[BP.DEPTH] + (tab.armor[a, AR.TIER] if a >= 0 else 0)
    w[BP.TARGET_RES] = 0
    w[BP.PLATFORMS] = 0
    w[BP.ROPES] = 0
    w[BP.FLEE] = 0
    w[BP.BOSS] = 0
    w[BP.SLIME] = 0
    w[BP.LENS] = 0
    w[BP.ALTAR] = 0
    w[BP.LENS_RES] = tab.rules[RU.LENS]
    wp = st.chars[p, CH.WEAPON]
    w[BP.MELEE] = 1.0 if wp >= 0 and tab.equip[wp, EQ.RANGE] & RANGE.SHORT else 0.0
    g = st.g
    # the team splits the chains it needs: player p pushes the (p mod needed)-th most
    # advanced unfinished chain harder (boost squared), the others at the plain boost
    need = max(1, g[G.CHAINS_NEEDED] - g[G.CHAINS])
    want = p % need
    focus = -1
    taken = 0  # bits of chains already ranked: the chains the team chose
    for i in range(need):
        best = -1
        for chain in range(4):
            if g[G.OBJ + chain] >= 10 or taken & (1 << chain):
                continue
            if best < 0 or g[G.OBJ + chain] > g[G.OBJ + best]:
                best = chain
        if best < 0:
            break
        if i == want:
            focus = best
        taken |= 1 << best
    to_row = -1
    ceiling = False
    for chain in range(4):
        at = g[G.OBJ + chain]
        if at >= 10:
            continue
        boost = bp[BP.BOOST] * (bp[BP.BOOST] if chain == focus else 1.0)
        row = tab.objectives[chain * 10 + at]
        cnt = row[OB.COUNTER]
        if cnt == CNT.TILES or cnt == CNT.BIOMES:
            w[BP.EXPLORE] *= boost
        elif cnt == CNT.LAYER:
            w[BP.DEEP] *= boost
            w[BP.MAX_LAYER] = max(w[BP.MAX_LAYER], row[OB.AMOUNT] - 1)
        elif cnt == CNT.CHESTS:
            w[BP.CHEST] *= boost
        elif cnt == CNT.RES:
            res = row[OB.PARAM]
            if res == tab.rules[RU.WOOD]:
                w[BP.WOOD] *= boost
                w[BP.WOOD_TARGET] += row[OB.AMOUNT]
            elif res == tab.rules[RU.GEL] or res == tab.rules[RU.LENS]:
                w[BP.FIGHT] = max(w[BP.FIGHT], 1.0) * boost
            else:
                w[BP.TARGET_RES] = res
                w[BP.MINE] *= boost
        elif cnt == CNT.BLOCKS_DUG:
            w[BP.MINE] *= boost
        elif cnt == CNT.ENEMIES or cnt == CNT.SLIMES:
            w[BP.FIGHT] = max(w[BP.FIGHT], 1.0) * boost
        elif cnt == CNT.TREES:
            w[BP.WOOD] *= boost
            w[BP.WOOD_TARGET] += 2
        elif cnt == CNT.CRYSTALS or cnt == CNT.STARS:
            w[BP.CHEST] *= boost
        elif cnt == CNT.PLATFORMS:
            w[BP.PLATFORMS] = 1
        elif cnt == CNT.ROPES:
            w[BP.ROPES] = 1
        elif (cnt == CNT.BOSS or cnt == CNT.BOSSES) and taken & (1 << chain):
            weight = max(bp[BP.FIGHT], 1.0) * boost
            to, stay = fight_goal_nb(st, tab, p, w, row, weight)
            if chain == focus:
                to_row = to
                ceiling = stay
    w[BP.TRAVEL] = 0
    w[BP.TO_ROW] = 0
    if to_row >= 0:  # the chain p pushes calls it to where its boss's criterion is met
        h = st.grid.shape[1] // LAYERS
        r = st.pieces[p, PC.ROW]
        if ceiling:  # up to that layer, and no deeper while there
            w[BP.MAX_LAYER] = min(w[BP.MAX_LAYER], to_row // h)
            far = r // h > to_row // h
        else:  # to that row, however deep
            w[BP.MAX_LAYER] = max(w[BP.MAX_LAYER], to_row // h)
            far = abs(r - to_row) > 1
        if far:
            w[BP.TRAVEL] = TRAVEL
            w[BP.TO_ROW] = to_row
    w[BP.MAX_LAYER] = min(max(w[BP.MAX_LAYER], 0), LAYERS - 1)
    w[BP.FLEE] = flee_weight_nb(st, tab, p)


@njit(refcount=False)
def boss_left_nb(st, tab, b):
    """Wound tokens still to take off boss ``b`` (in play) to defeat it. Read only."""
    left = st.g[G.BOSS_LEFT + b]
    if st.g[G.FORM + b] == 0:
        left += tab.bosses[b, bosses.form_col_nb(BO.WOUNDS, 1)]
    return left


@njit(refcount=False)
def flee_weight_nb(st, tab, p):
    """What a square next to a boss costs ``p`` this turn: 1000.0 to flee, else 0.0.

    ``p`` flees the bosses in play when they could take all its health in one enemy turn
    were it next to them all: a mob of bosses is its strongest member's dice plus one die
    of each other (TR-344..346), each die at most 1 health, so ``p`` flees at or below
    ``dice of the boss with most + bosses - 1`` health. A fleeing bot attacks no boss and
    no square next to one is worth going to (the cost outweighs any goal). Read only.
    """
    live = st.g[G.IN_PLAY]
    if live == 0:
        return 0.0
    n = 0
    top = 0
    for b in range(MAX_BOSSES):
        if (live >> b) & 1:
            n += 1
            top = max(top, bosses.boss_stat_nb(st, tab, b, BO.NATK))
    return 1000.0 if st.chars[p, CH.HP] <= top + n - 1 else 0.0


@njit(refcount=False)
def _boss_of_nb(tab, code, evil):
    """Boss id whose criterion is ``code`` in a world of ``evil`` (0 Corruption), -1 none."""
    for b in range(min(tab.bosses.shape[0], MAX_BOSSES)):
        ev = tab.bosses[b, BO.EVIL]
        if tab.bosses[b, BO.SPAWN] == code and (ev == 0 or ev == evil + 1):
            return b
    return -1


@njit(refcount=False)
def team_lenses_nb(st, tab):
    """``(lenses the team holds, the player holding most: ties the lower number)``."""
    lens = tab.rules[RU.LENS]
    total = 0
    most = -1
    mn = 0
    for q in range(st.g[G.PLAYERS]):
        n = life.count_units_nb(st.inv, st.chars, q, lens)
        total += n
        if n > mn:
            mn = n
            most = q
    return total, most


@njit(refcount=False)
def fight_goal_nb(st, tab, p, w, row, weight):
    """The goals of a current Fight objective that asks for a boss (``row``, written ``w``).

    ``row`` is the objective (counter ``boss_defeated`` of a boss, or ``bosses_defeated``:
    any boss). A boss it asks for that is in play: every square next to a boss is worth
    ``weight`` more (``BP.BOSS``). One not yet pending, in play or defeated is called up
    (TR-391, TR-393): King Slime by slimes (squares next to a slime, ``BP.SLIME``), the Eye
    of Cthulhu by lenses, fought from enemies that drop them (``BP.LENS``) until the team
    holds the number needed, then spent at an altar by the player holding most
    (``BP.ALTAR``; its teammates hand it theirs, :func:`pool_lenses_nb`). Bosses of other
    criteria (a hive's larva, an orb) are left to the bots' digging.

    Returns ``(row, stay)``: where the player who pushes the Fight chain goes
    (``turn_weights_nb``), -1 for nowhere. For slimes or lenses the bottom row of the
    deepest layer at or above its own whose tray sections hold such enemies
    (:func:`layer_with_nb`), with ``stay`` True: it goes up to that layer and no deeper
    while there (``BP.MAX_LAYER``); for an altar the row of the nearest altar on the
    world, with ``stay`` False.
    """
    g = st.g
    avail = ~(g[G.SPAWNED] | g[G.PENDING] | g[G.DEFEATED])
    if row[OB.COUNTER] == CNT.BOSS:
        asks = 1 << row[OB.PARAM]
    else:
        asks = (1 << min(tab.bosses.shape[0], MAX_BOSSES)) - 1
    if g[G.IN_PLAY] & asks:
        w[BP.BOSS] = weight
        return -1, True
    h = st.grid.shape[1] // LAYERS
    here = st.pieces[p, PC.ROW] // h
    to = -1
    stay = True
    king = _boss_of_nb(tab, BOSS_SPAWN.SLIMES, g[G.EVIL])
    if king >= 0 and (asks & avail) >> king & 1:
        w[BP.SLIME] = weight
        la = layer_with_nb(tab, here, EN.SLIME, 1)
        if la >= 0:
            to = la * h + h - 1
    eye = _boss_of_nb(tab, BOSS_SPAWN.LENSES, g[G.EVIL])
    if eye >= 0 and (asks & avail) >> eye & 1:
        total, most = team_lenses_nb(st, tab)
        if total < tab.rules[RU.LENSES]:
            w[BP.LENS] = weight
            la = layer_with_nb(tab, here, EN.LOOT_RES, tab.rules[RU.LENS])
            if to < 0 and la >= 0:
                to = la * h + h - 1
        elif most == p:
            w[BP.ALTAR] = weight
            to = nearest_altar_row_nb(st, p)
            stay = False
    return to, stay


@njit(refcount=False)
def layer_with_nb(tab, here, col, value):
    """The deepest layer at or above ``here`` whose tray holds an enemy with ``col == value``.

    ``col`` a bestiary column (``EN.SLIME`` with 1: slimes; ``EN.LOOT_RES`` with the Lens:
    lens droppers); any biome, day or night token. -1 when none does. Read only.
    """
    for la in range(here, -1, -1):
        for b in range(tab.tray_tok.shape[0] // LAYERS):
            s = b * LAYERS + la
            for i in range(tab.tray_n[s]):
                e = tab.tray_tok[s, i]
                if e >= 0 and tab.enemies[e, col] == value:
                    return la
    return -1


@njit(refcount=False)
def nearest_altar_row_nb(st, p):
    """Row of the altar square on the world nearest ``p`` (in squares), -1 for none."""
    best = -1
    bd = 1 << 30
    r0 = st.pieces[p, PC.ROW]
    c0 = st.pieces[p, PC.COL]
    for r in range(st.grid.shape[1]):
        for c in range(st.grid.shape[2]):
            if st.grid[P.FEAT, r, c] & FEAT.ALTAR and on_table_nb(st.grid, st.tiles, r, c):
                d = max(abs(r - r0), abs(c - c0))
                if d < bd:
                    bd = d
                    best = r
    return best


@njit(refcount=False)
def recall_on_the_way_nb(st, tab, p, w):
    """A travelling ``p`` (``w[BP.TRAVEL] > 0``) recalls when it helps.

    The recall goes to the Surface Forest or the deepest bed house (TR-389,
    ``life.respawn_square_nb``); ``p`` takes it when that square is at least a layer nearer
    the row it travels to: with a Magic Mirror played this turn (``magic.use_mirror_nb``,
    lost at cleanup anyway) before a recall consumable (``magic.use_consumable_nb``, kept
    for later otherwise). Both are free actions. Returns 1 if ``p`` recalled.
    """
    if w[BP.TRAVEL] <= 0 or not st.chars[p, CH.IN_WORLD]:
        return 0
    mirror = st.chars[p, CH.MIRROR] > 0
    potion = -1
    for c in range(tab.consumables.shape[0]):
        if st.held[p, c] > 0 and tab.consumables[c, CO.RECALL] != 0:
            potion = c
            break
    if not mirror and potion < 0:
        return 0
    r, _ = life.respawn_square_nb(st, tab)
    if r < 0:
        return 0
    to = w[BP.TO_ROW]
    h = st.grid.shape[1] // LAYERS
    if abs(r - to) + h > abs(st.pieces[p, PC.ROW] - to):
        return 0
    if mirror:
        return 1 if magic.use_mirror_nb(st, tab, p) else 0
    return 1 if magic.use_consumable_nb(st, tab, p, potion) else 0


@njit(refcount=False)
def pool_lenses_nb(st, tab, p, w):
    """``p``, going to an altar (``w[BP.ALTAR] > 0``), takes its teammates' lenses (TR-197).

    Each teammate gives ``p`` its lenses, as many as ``p`` has room for, until ``p`` holds
    the number an altar asks (``RU.LENSES``). Writes what ``life.give_resources_nb`` writes.
    """
    if w[BP.ALTAR] <= 0:
        return
    lens = tab.rules[RU.LENS]
    need = tab.rules[RU.LENSES]
    for q in range(st.g[G.PLAYERS]):
        have = life.count_units_nb(st.inv, st.chars, p, lens)
        if have >= need:
            return
        if q != p:
            life.give_resources_nb(st, q, p, lens, need - have)


@njit(refcount=False)
def _res_worth_nb(tab, res, w):
    """How much the bots value one unit of resource ``res`` (to choose what to give up)."""
    if res <= 0:
        return 0.0
    if res == w[BP.TARGET_RES]:
        return 50.0
    if res == tab.rules[RU.WOOD]:
        return 3.0
    if res == tab.rules[RU.COBWEB]:
        return 3.0 if w[BP.ROPES] else 0.5
    if res == tab.rules[RU.LENS]:
        return 4.0
    if res < tab.res_dig.shape[0]:
        return 1.0 + tab.res_dig[res] if tab.res_dig[res] > 1 else 1.0
    return 1.0


@njit(refcount=False)
def make_room_nb(st, tab, p, res, w):
    """Make room for a wanted ``res``: on the team first, else by giving up a type.

    A teammate with room for ``res`` takes what ``p`` has no room for
    (``life.team_gain_nb``), so nothing needs to go. Else ``p`` passes the units of one of
    its slots to teammates with room for that type (TR-197; the slot with fewest units
    first), which frees the slot. Else the players' choice of TR-193 (all units of the type
    given up are lost, TR-194): the type whose units are worth least in total
    (:func:`_res_worth_nb`) goes, if that is less than one unit of ``res`` is worth.
    Returns True when ``res`` now has room on the team.
    """
    slots = st.chars[p, CH.SLOTS]
    for s in range(slots):
        if st.inv[p, s, 1] == 0 or (st.inv[p, s, 0] == res and st.inv[p, s, 1] < 5):
            return True
    players = st.g[G.PLAYERS]
    for q in range(players):
        if q != p and life.room_for_nb(st, q, res) > 0:
            return True
    if players > 1 and _pass_a_slot_nb(st, p):
        return True
    worst = -1
    wv = 1e9
    for s in range(slots):
        t = st.inv[p, s, 0]
        v = _res_worth_nb(tab, t, w) * life.count_units_nb(st.inv, st.chars, p, t)
        if v < wv:
            wv = v
            worst = t
    if worst < 0 or wv >= _res_worth_nb(tab, res, w):
        return False
    for s in range(slots):
        if st.inv[p, s, 0] == worst:
            st.inv[p, s, 0] = 0
            st.inv[p, s, 1] = 0
    return True


@njit(refcount=False)
def _pass_a_slot_nb(st, p):
    """``p`` gives the units of its smallest slot whose type teammates have room for.

    The units go to the teammate with most room for them, then the next (TR-197). Returns
    True when a slot of ``p`` was emptied.
    """
    players = st.g[G.PLAYERS]
    pick = -1
    pick_n = 6
    for s in range(st.chars[p, CH.SLOTS]):
        t = st.inv[p, s, 0]
        u = st.inv[p, s, 1]
        if u <= 0 or u >= pick_n:
            continue
        room = 0
        for q in range(players):
            if q != p:
                room += life.room_for_nb(st, q, t)
        if room >= u:
            pick = s
            pick_n = u
    if pick < 0:
        return False
    t = st.inv[p, pick, 0]
    left = pick_n
    while left > 0:
        best, br = life.roomiest_teammate_nb(st, p, t)
        if best < 0:
            break
        left -= life.give_resources_nb(st, p, best, t, min(left, br))
    return left == 0


@njit(refcount=False)
def place_for_objectives_nb(st, tab, p, w):
    """Place platforms or ropes while an objective asks for them (TR-221, TR-225).

    Free actions, paid with ``p``'s Wood or Cobwebs (or held rope tokens).
    """
    if w[BP.PLATFORMS]:
        for slot in range(tab.plat_pos.shape[0]):
            if life.count_units_nb(st.inv, st.chars, p, tab.rules[RU.WOOD]) < 1:
                break
            actions.place_platform_action_nb(st, tab, p, slot)
    if w[BP.ROPES]:
        r = st.pieces[p, PC.ROW]
        c = st.pieces[p, PC.COL]
        for dr in range(-1, 2):
            for dc in range(-1, 2):
                if dr == 0 and dc == 0:
                    continue
                if (
                    st.chars[p, CH.ROPES] <= 0
                    and life.count_units_nb(st.inv, st.chars, p, tab.rules[RU.COBWEB]) < 1
                ):
                    return
                rr = r + dr
                cc = c + dc
                if 0 <= rr < st.grid.shape[1] and 0 <= cc < st.grid.shape[2]:
                    actions.place_rope_action_nb(st, tab, p, rr, cc)


# --- the whole turn ----------------------------------------------------------------------------
@njit(refcount=False)
def player_turn_nb(st, tab, p, bot_id, bp):
    """Player ``p``'s turn (TR-091..112 and the actions), by the bot's weights."""
    if st.g[G.OVER] != 0:
        return
    if not st.chars[p, CH.IN_WORLD]:
        life.respawn_nb(st, tab, p)  # TR-299
        actions.settle_nb(st, tab, p)
        if st.g[G.OVER] != 0:
            return
    w = st.wts[:BP.N]  # one game's scratch, not allocated each turn
    w[:] = 0.0
    gear_up_nb(st, tab, p)  # first: the weights read the weapon and armor on top
    turn_weights_nb(st, tab, p, bp, w)
    magic.armor_mana_nb(st, tab, p)  # TR-357: the worn set's mana at the start of the turn
    if not draw_and_play_nb(st, tab, p, w):
        return
    free_actions_nb(st, tab, p, w)
    place_for_objectives_nb(st, tab, p, w)
    pool_lenses_nb(st, tab, p, w)
    recall_on_the_way_nb(st, tab, p, w)
    spend_points_nb(st, tab, p, w)
    free_actions_nb(st, tab, p, w)
    place_for_objectives_nb(st, tab, p, w)
    _ = bot_id
