"""Terraria bots: scripted players who cooperate as a team (TR-003, TR-079).

Every bot plays the same turn loop with its own weights (``bp``, a float64 vector in
``PARAM_NAMES`` order):

1. Before drawing: the best owned card on top of each equipment slot and the best owned
   armor set worn (by the data's ``TIER``; TR-208, TR-218).
2. Draw a hand (the ready slot's card is taken only if it is not a debuff), then play:
   a debuff card is put into the ready slot instead when the slot is free of another
   debuff (TR-108..111: it never comes back unless drawn), the rest are played; a card with
   a choice gives defence when an enemy is within ``guard_range`` squares, else option A.
3. Free actions: Nurse when health is at most ``heal_at``, healing consumables, buy
   inventory slots and cards, craft every better item the team can pay for, build the next
   house whose stations are standing where it fits beside the character.
4. Action points: collect adjacent crystals and stars; attack what the weapon reaches when
   the fight weight says so (lowest wounds left first; the boss first); open an adjacent
   chest; chop an adjacent tree while Wood is short; dig an adjacent resource block;
   otherwise walk (digging where it must) toward the best goal of a cost-bounded search:
   each square scores ``explore`` x new tiles its tile would reveal + ``deep`` x its layer +
   ``chest`` / ``mine`` / ``wood`` / ``fight`` for what is next to it, divided by
   ``1 + cost``. The plan is kept for the turn and re-made only when an action fails.

Bots: ``explorer`` (tiles, depth and chests first), ``builder`` (the default and the
strongest: wood, houses and gear first) and ``fighter`` (hunts enemies and bosses). All
read the current objectives (:func:`turn_weights_nb`): each player pushes one of the
chains the team still needs hardest (player ``p`` the ``p mod needed``-th most advanced).
"""

from __future__ import annotations

from typing import NamedTuple

from simlib.core.jit import njit
from simlib.games.terraria import bosses, cards, engine, life
from simlib.games.terraria.layout import (
    AR,
    CF,
    CH,
    CNT,
    CO,
    EN,
    EQ,
    HO,
    MAX_PLAYERS,
    MAX_WEIGHTS,
    N_PIECES,
    NPC,
    OB,
    PILE,
    ROLE,
    RU,
    SHOP,
    SUP,
    G,
)
from simlib.games.terraria.movement import can_step_nb, supported_nb
from simlib.games.terraria.state import FEAT, KIND, LAYERS, PC, SQ, TILE_COLS, TP, P

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
    "fall_penalty": "path cost added per square of a fall beyond the first (the damage it can "
    "do and the climb back; priced in every mode)",
    "buy_reserve": "coins kept back when buying action cards",
    "objective_boost": "how much the current objectives multiply their goal weights",
    "depth_base": "deepest layer (0 Surface .. 4 Underworld) sought with no armor; each "
    "armor tier allows one more",
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
    # the turn's working vector adds these (not parameters)
    TARGET_RES: int = 14  # a resource the current objectives ask for (0: none)
    MAX_LAYER: int = 15  # deepest layer index sought this turn
    PLATFORMS: int = 16  # 1: an objective asks for platforms
    ROPES: int = 17  # 1: an objective asks for ropes
    N: int = 18


BP = _Bp()
assert BP.N <= MAX_WEIGHTS  # noqa: S101 - the weights live in st.wts

# name -> (id, defaults in PARAM_NAMES order, description)
BOTS = {
    "explorer": (
        0,
        (10.0, 4.0, 12.0, 6.0, 4.0, 3.0, 3.0, 2.0, 6.0, 12.0, 6.0, 4.0, 8.0, 0.0),
        "objective rush: discovers tiles, goes deep, opens chests, mines on the way",
    ),
    "builder": (
        1,
        (5.0, 2.0, 8.0, 10.0, 10.0, 2.0, 3.0, 2.0, 12.0, 12.0, 6.0, 8.0, 8.0, 0.0),
        "gears up first: wood and ore, houses and crafting, then explores",
    ),
    "fighter": (
        2,
        (6.0, 3.0, 8.0, 4.0, 3.0, 12.0, 4.0, 2.0, 6.0, 12.0, 6.0, 4.0, 8.0, 0.0),
        "hunts enemies and bosses, keeps the team's fight chain moving",
    ),
}


# --- before drawing ----------------------------------------------------------------------------
@njit
def gear_up_nb(st, tab, p):
    """Best owned equipment on top of each slot and best owned armor worn (TR-208, TR-218)."""
    n_eq = tab.equip.shape[0]
    ch = st.chars[p]
    for s in range(4):
        best = ch[CH.WEAPON + s]
        bt = -1 if best < 0 else tab.equip[best, EQ.TIER]
        for e in range(n_eq):
            if st.owned[p, e] > 0 and tab.equip[e, EQ.SLOT] == s and tab.equip[e, EQ.TIER] > bt:
                best = e
                bt = tab.equip[e, EQ.TIER]
        ch[CH.WEAPON + s] = best
    best = ch[CH.ARMOR]
    bt = -1 if best < 0 else tab.armor[best, AR.TIER]
    for a in range(tab.armor.shape[0]):
        if st.owned[p, n_eq + a] > 0 and tab.armor[a, AR.TIER] > bt:
            best = a
            bt = tab.armor[a, AR.TIER]
    if best != ch[CH.ARMOR]:
        engine._wear_armor_nb(st, tab, p, best)


@njit
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


@njit
def draw_and_play_nb(st, tab, p, bp):
    """Draw the hand and play it (TR-091..112). Returns False if the character died."""
    limit = engine.hand_limit_nb(st, tab, p)
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
            engine.lose_health_nb(st, tab, p, hurt)
            if not st.chars[p, CH.IN_WORLD] or st.g[G.OVER] != 0:
                return False
    return True


# --- free actions ---------------------------------------------------------------------------
@njit
def _heal_nb(st, tab, p, bp):
    ch = st.chars[p]
    if ch[CH.HP] > bp[BP.HEAL_AT] or ch[CH.HP] >= ch[CH.MAXHP]:
        return
    for c in range(tab.consumables.shape[0]):
        if st.held[p, c] > 0 and tab.consumables[c, CO.HEAL] > 0:
            engine.use_consumable_nb(st, tab, p, c)
            if ch[CH.HP] > bp[BP.HEAL_AT]:
                return
    if st.g[G.NPCS] & (1 << NPC.NURSE):
        engine.nurse_nb(st, tab, p)


@njit
def _team_wood_nb(st, tab):
    n = 0
    wood = tab.rules[RU.WOOD]
    for q in range(st.g[G.PLAYERS]):
        n += life.count_units_nb(st.inv, st.chars, q, wood)
    return n


@njit
def _worth_crafting_nb(st, tab, p, kind, item):
    """Cheap pre-check before ``engine.can_craft_nb``.

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
        return engine.team_has_nb(st.inv, st.chars, g[G.PLAYERS], tab.equip_recipe[item])
    row = tab.armor[item]
    top = st.chars[p, CH.ARMOR]
    if top >= 0 and tab.armor[top, AR.TIER] >= row[AR.TIER]:
        return False
    if not row[AR.CRAFTABLE] or st.supply[SUP.ARMOR, item] <= 0:
        return False
    if (g[G.STATIONS] & row[AR.STATION]) != row[AR.STATION]:
        return False
    return engine.team_has_nb(st.inv, st.chars, g[G.PLAYERS], tab.armor_recipe[item])


@njit
def craft_all_nb(st, tab, p):
    """Craft every item that beats what ``p`` has on top of its slot / wears (by tier)."""
    for e in range(tab.equip.shape[0]):
        if _worth_crafting_nb(st, tab, p, 0, e):
            engine.craft_nb(st, tab, p, 0, e)
    for a in range(tab.armor.shape[0]):
        if _worth_crafting_nb(st, tab, p, 1, a):
            engine.craft_nb(st, tab, p, 1, a)


@njit
def build_all_nb(st, tab, p):
    """Build every house the team can pay for, in data order, where one fits beside ``p``."""
    if not st.chars[p, CH.IN_WORLD]:
        return
    r0 = st.pieces[p, PC.ROW]
    c0 = st.pieces[p, PC.COL]
    for hid in range(tab.houses.shape[0]):
        if not engine.can_build_nb(st, tab, p, hid):
            continue
        wd = tab.houses[hid, HO.W]
        ht = tab.houses[hid, HO.H]
        done = False
        for r in range(r0 - ht, r0 + 2):
            if done:
                break
            for c in range(c0 - wd, c0 + 2):
                if engine.house_fits_nb(st, tab, p, hid, r, c):
                    engine.build_house_nb(st, tab, p, hid, r, c)
                    done = True
                    break


@njit
def shop_nb(st, tab, p, bp):
    """Buy inventory slots when full, then action cards while coins last past the reserve."""
    ch = st.chars[p]
    full = True
    for s in range(ch[CH.SLOTS]):
        if st.inv[p, s, 1] == 0:
            full = False
    if full and ch[CH.SLOTS] < 6:
        engine.buy_slot_nb(st, tab, p)
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
            if ch[CH.COINS] + ch[CH.TCOIN] >= 15 + reserve:
                best = -2
            elif ch[CH.COINS] + ch[CH.TCOIN] >= 8 + reserve and best < 0:
                best = -1
        if best == -3:
            return
        if not engine.buy_card_nb(st, tab, p, best):
            return


@njit
def free_actions_nb(st, tab, p, bp):
    """The free actions of a turn (no action points): heal, shop, craft, build."""
    if not st.chars[p, CH.IN_WORLD] or st.g[G.OVER] != 0:
        return
    _heal_nb(st, tab, p, bp)
    shop_nb(st, tab, p, bp)
    craft_all_nb(st, tab, p)
    build_all_nb(st, tab, p)
    engine.summon_nb(st, tab, p)


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

    The hot helpers of the search take plain arrays: a numba call that passes the whole
    ``State`` / ``Tables`` costs microseconds.
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
def _known_nb(grid, tiles, r, c):
    rows = grid.shape[1]
    cols = grid.shape[2]
    if r < 0 or c < 0 or r >= rows or c >= cols:
        return False
    return tiles[TP.KNOWN, r // (rows // LAYERS), c // (cols // TILE_COLS)] != 0


@njit
def search_nb(st, tab, p, budget, fall_pen):
    """Cheapest action-point cost from ``p`` to every square it can stand in (bounded).

    Writes ``st.bdist`` (cost, -1 unreached) and ``st.bfrom`` (``(from_square * 9 + hop) * 2
    + dug``: the square the cheapest way came from, the hop's direction ``(dr + 1) * 3 + dc
    + 1``, and 1 if it dug a block on the way). Steps cost 1, a
    dug block its dig in action points plus the step, a fall ``fall_pen`` per square beyond
    the first. Falls are priced even where they cannot hurt (Journey, Lucky Horseshoe): a
    long drop is also a climb back, and a bot that dropped freely went deeper than its
    armor sooner and died more (measured: Lucky Horseshoe lost 7 pp to standard on Medium,
    with ten times the games out of respawns). A bucket queue by cost, nodes up to ``budget``.
    """
    pick = st.chars[p, CH.PICK]
    rate = tab.equip[pick, EQ.DIG] if pick >= 0 else 0
    r0 = st.pieces[p, PC.ROW]
    c0 = st.pieces[p, PC.COL]
    return _search_nb(
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


@njit(refcount=False)
def _search_nb(grid, tiles, res_dig, rate, r0, c0, budget, fall_pen, bdist, bfrom, q):
    """:func:`search_nb` on plain arrays."""
    rows = grid.shape[1]
    cols = grid.shape[2]
    bdist[:, :] = -1
    cap = q.shape[0] // 2
    bdist[r0, c0] = 0
    bfrom[r0, c0] = -1
    n = 1
    q[0] = r0 * cols + c0
    q[1] = 0
    for level in range(budget + 1):
        i = 0
        while i < n:
            node = q[2 * i]
            cost = q[2 * i + 1]
            i += 1
            if cost != level:
                continue
            r = node // cols
            c = node % cols
            if bdist[r, c] != cost:
                continue
            for dr in range(-1, 2):
                for dc in range(-1, 2):
                    if dr == 0 and dc == 0:
                        continue
                    tr = r + dr
                    tc = c + dc
                    if not _known_nb(grid, tiles, tr, tc):
                        continue
                    s = grid[P.SQ, tr, tc]
                    dug = 0
                    if s == SQ.LAVA:
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
                        q[2 * n] = lr * cols + tc
                        q[2 * n + 1] = nc_
                        n += 1
    return n


@njit(refcount=False)
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


@njit(refcount=False)
def _square_value_nb(grid, tiles, pieces, res_dig, res_struct, r, c, bp, wood_short):
    """What standing in (r, c) is worth to ``p`` (see the module docstring)."""
    h = grid.shape[1] // LAYERS
    layer = r // h
    deep = min(layer, bp[BP.MAX_LAYER])
    over = max(0.0, layer - bp[BP.MAX_LAYER])
    v = bp[BP.EXPLORE] * _tile_gain_nb(grid, tiles, r, c) + bp[BP.DEEP] * (deep - 3 * over)
    if over > 0:
        v -= bp[BP.EXPLORE] * _tile_gain_nb(grid, tiles, r, c)
    rows = grid.shape[1]
    cols = grid.shape[2]
    for dr in range(-1, 2):
        for dc in range(-1, 2):
            tr = r + dr
            tc = c + dc
            if (dr == 0 and dc == 0) or tr < 0 or tc < 0 or tr >= rows or tc >= cols:
                continue
            f = grid[P.FEAT, tr, tc]
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
                if role == ROLE.ENEMY or role == ROLE.BOSS:
                    v += bp[BP.FIGHT]
                elif role == ROLE.CRYSTAL or role == ROLE.STAR:
                    v += bp[BP.CHEST]
    return v


@njit
def pick_goal_nb(st, tab, p, bp, n):
    """The square of best value per cost among those the last search reached (-1: none)."""
    wood_short = _team_wood_nb(st, tab) < bp[BP.WOOD_TARGET]
    return _pick_goal_nb(st.grid, st.tiles, st.pieces, st.bdist, st.bqueue, tab.res_dig,
                         tab.res_struct, st.pieces[p, PC.ROW], st.pieces[p, PC.COL], bp, n,
                         wood_short)


@njit(refcount=False)
def _pick_goal_nb(grid, tiles, pieces, bdist, bqueue, res_dig, res_struct, r0, c0, bp, n,
                  wood_short):
    """:func:`pick_goal_nb` on plain arrays."""
    cols = grid.shape[2]
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
        v = _square_value_nb(grid, tiles, pieces, res_dig, res_struct, r, c, bp,
                             wood_short) / (1.0 + d)
        if v > bv:
            bv = v
            best = node
    return best


@njit
def first_move_nb(st, p, goal):
    """The first hop ``(dr, dc, dug)`` on the cheapest way to ``goal``; ``dr = -2``: none."""
    cols = st.grid.shape[2]
    here = st.pieces[p, PC.ROW] * cols + st.pieces[p, PC.COL]
    node = goal
    for _ in range(st.bdist.size):
        f = st.bfrom[node // cols, node % cols]
        if f < 0:
            return -2, 0, 0
        dug = f % 2
        hop = (f // 2) % 9
        prev = f // 18
        if prev == here:
            return hop // 3 - 1, hop % 3 - 1, dug
        node = prev
    return -2, 0, 0


# --- action points --------------------------------------------------------------------------
@njit
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
                    if engine.collect_action_nb(st, tab, p, k):
                        return True
    if bosses.spend_lenses_nb(st, tab, p):  # at an altar with 3 lenses: Eye of Cthulhu
        return True
    for c_ in range(tab.consumables.shape[0]):  # the Guide Voodoo Doll next to lava
        if st.held[p, c_] > 0 and tab.consumables[c_, CO.VOODOO]:
            if engine.use_consumable_nb(st, tab, p, c_):
                return True
    ch = st.chars[p]
    fight = bp[BP.FIGHT] > 0
    if fight and (ch[CH.AP] > 0 or ch[CH.MANA] > 0):
        best = -1
        bl = 1 << 20
        pieces = st.pieces  # read once: each read of a struct field is reference-counted
        chars = st.chars
        grid = st.grid
        tiles = st.tiles
        equip = tab.equip
        enemies = tab.enemies
        for k in range(MAX_PLAYERS, N_PIECES):
            if pieces[k, PC.KIND] == KIND.NONE:
                continue
            if not engine.weapon_reaches_nb(pieces, chars, grid, tiles, equip, p, k):
                continue
            if pieces[k, PC.ROLE] == ROLE.BOSS:
                best = k
                break
            left = enemies[pieces[k, PC.TYPE], EN.WOUNDS] - pieces[k, PC.WOUNDS]
            if left < bl:
                bl = left
                best = k
        if best >= 0 and engine.attack_action_nb(st, tab, p, best) >= 0:
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
                if engine.open_chest_nb(st, tab, p, tr, tc):
                    return True
            if wood_short and f & FEAT.TREE and not f & (FEAT.ACORN | FEAT.HOUSE):
                if engine.chop_action_nb(st, tab, p, tr, tc):
                    return True
            res = st.grid[P.RES, tr, tc]
            if res > 0 and st.grid[P.SQ, tr, tc] == SQ.BLOCK and tab.res_struct[res] == 0:
                if bp[BP.MINE] > 0 and make_room_nb(st, tab, p, res, bp):
                    if engine.dig_action_nb(st, tab, p, tr, tc):
                        return True
    return False


@njit
def spend_points_nb(st, tab, p, bp):
    """Spend ``p``'s action points (and converted dig/chop) as the module docstring says."""
    cols = st.grid.shape[2]
    budget = int(bp[BP.BUDGET])
    fall_pen = int(bp[BP.FALL])
    goal = -1
    fails = 0
    for _ in range(64):
        if st.g[G.OVER] != 0 or not st.chars[p, CH.IN_WORLD]:
            return
        if _adjacent_acts_nb(st, tab, p, bp):
            continue
        ch = st.chars[p]
        if ch[CH.AP] < 1 and ch[CH.DIG] <= 0:
            return
        if goal < 0:
            n = search_nb(st, tab, p, budget, fall_pen)
            goal = pick_goal_nb(st, tab, p, bp, n)
            if goal < 0:
                return
        dr, dc, dug = first_move_nb(st, p, goal)
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
            ok = engine.dig_action_nb(st, tab, p, tr, tc)  # digging below drops p in
        elif dr == 1 and dc == 0:
            ok = False
        else:
            ok = engine.step_action_nb(st, tab, p, dr, dc)
        if not ok:
            goal = -1
            fails += 1
            if fails > 3:
                return
        elif st.pieces[p, PC.ROW] * cols + st.pieces[p, PC.COL] == goal:
            goal = -1
        elif (
            st.chars[p, CH.IN_WORLD]
            and (st.pieces[p, PC.ROW] != tr or st.pieces[p, PC.COL] != tc)
            and not dug
        ):
            goal = -1  # a fall or a stack moved p off the plan


# --- the current objectives -----------------------------------------------------------------
@njit
def turn_weights_nb(st, tab, p, bp, w):
    """The turn's working weights ``w``: ``bp`` with the current objectives' goals boosted.

    For each chain's current objective (TR-056) the matching goal weight is multiplied by
    ``objective_boost``: tiles and biomes -> explore; a layer -> deep (and the depth cap
    rises to it); chests -> chest; a resource -> that resource's blocks (Wood -> trees);
    enemies and slimes -> fight; life crystals and fallen stars -> the chest weight (tokens
    are valued like chests); platforms and ropes -> placed as free actions. The depth cap is
    ``depth_base`` plus the worn armor's tier.
    """
    for i in range(bp.shape[0]):
        w[i] = bp[i]
    a = st.chars[p, CH.ARMOR]
    w[BP.MAX_LAYER] = bp[BP.DEPTH] + (tab.armor[a, AR.TIER] if a >= 0 else 0)
    w[BP.TARGET_RES] = 0
    w[BP.PLATFORMS] = 0
    w[BP.ROPES] = 0
    g = st.g
    # the team splits the chains it needs: player p pushes the (p mod needed)-th most
    # advanced unfinished chain harder (boost squared), the others at the plain boost
    need = max(1, g[G.CHAINS_NEEDED] - g[G.CHAINS])
    want = p % need
    focus = -1
    taken = 0  # bits of chains already ranked
    for _ in range(want + 1):
        best = -1
        for chain in range(4):
            if g[G.OBJ + chain] >= 10 or taken & (1 << chain):
                continue
            if best < 0 or g[G.OBJ + chain] > g[G.OBJ + best]:
                best = chain
        if best < 0:
            break
        focus = best
        taken |= 1 << best
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
    w[BP.MAX_LAYER] = min(max(w[BP.MAX_LAYER], 0), LAYERS - 1)


@njit
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


@njit
def make_room_nb(st, tab, p, res, w):
    """Empty the slots of the least valued resource held when a wanted ``res`` has no room.

    The players' choice of TR-193 (all units of the type given up are lost, TR-194): the
    type whose units are worth least in total (:func:`_res_worth_nb`) goes, if that is less
    than one unit of ``res`` is worth. Returns True when ``res`` now has room.
    """
    slots = st.chars[p, CH.SLOTS]
    for s in range(slots):
        if st.inv[p, s, 1] == 0 or (st.inv[p, s, 0] == res and st.inv[p, s, 1] < 5):
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


@njit
def place_for_objectives_nb(st, tab, p, w):
    """Place platforms or ropes while an objective asks for them (TR-221, TR-225).

    Free actions, paid with ``p``'s Wood or Cobwebs (or held rope tokens).
    """
    if w[BP.PLATFORMS]:
        for slot in range(tab.plat_pos.shape[0]):
            if life.count_units_nb(st.inv, st.chars, p, tab.rules[RU.WOOD]) < 1:
                break
            engine.place_platform_action_nb(st, tab, p, slot)
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
                    engine.place_rope_action_nb(st, tab, p, rr, cc)


# --- the whole turn ----------------------------------------------------------------------------
@njit
def player_turn_nb(st, tab, p, bot_id, bp):
    """Player ``p``'s turn (TR-091..112 and the actions), by the bot's weights."""
    if st.g[G.OVER] != 0:
        return
    if not st.chars[p, CH.IN_WORLD]:
        life.respawn_nb(st, tab, p)  # TR-299
        engine.settle_nb(st, tab, p)
        if st.g[G.OVER] != 0:
            return
    w = st.wts[:BP.N]  # one game's scratch, not allocated each turn
    w[:] = 0.0
    turn_weights_nb(st, tab, p, bp, w)
    gear_up_nb(st, tab, p)
    if not draw_and_play_nb(st, tab, p, w):
        return
    free_actions_nb(st, tab, p, w)
    place_for_objectives_nb(st, tab, p, w)
    spend_points_nb(st, tab, p, w)
    free_actions_nb(st, tab, p, w)
    place_for_objectives_nb(st, tab, p, w)
    _ = bot_id
