"""Terraria player actions on the board: moving, digging, chopping, chests, platforms, ropes.

Rulebook: Movement, Falling, Discovering the World, Opening Chests, Trees and Cacti, Digging
Blocks, Platforms and Ropes.

Each action takes ``(st, tab, p, ...)``, returns False and changes nothing when it is not
allowed, and after it :func:`settle_nb` resolves falls, cobwebs and discoveries. The
geometry (steps, gravity, digging, ropes, platforms) is ``movement.py``; this module holds the
costs, the yields and what follows an action (objectives checked, enemies spawned on the
tiles discovered).
"""

from __future__ import annotations

import numpy as np

from simlib.core.jit import njit
from simlib.core.rng import randint_nb
from simlib.games.terraria.engine import bosses, foes, life
from simlib.games.terraria.engine.movement import (
    T,
    can_place_platform_nb,
    chop_nb,
    dig_nb,
    place_platform_nb,
    place_rope_nb,
    rope_move_nb,
    step_nb,
)
from simlib.games.terraria.engine.rewards import check_objectives_nb, give_reward_nb
from simlib.games.terraria.state import (
    AR,
    CH,
    CNT,
    EQ,
    FEAT,
    LAYERS,
    PC,
    RK,
    RU,
    RW,
    SQ,
    SUP,
    TILE_COLS,
    TP,
    G,
    P,
)

__all__ = [
    "can_act_nb",
    "settle_nb",
    "step_action_nb",
    "rope_action_nb",
    "dig_action_nb",
    "chop_action_nb",
    "collect_action_nb",
    "place_platform_action_nb",
    "place_rope_action_nb",
    "reward_value_nb",
    "best_chest_card_nb",
    "open_chest_nb",
]


@njit(refcount=False)
def can_act_nb(st, p):
    """True while the game goes on and ``p`` is in the world (a dead character acts not)."""
    return st.g[G.OVER] == 0 and st.chars[p, CH.IN_WORLD] != 0


@njit(refcount=False)
def settle_nb(st, tab, p):
    """Resolve what the last movement action of player ``p`` caused (written into ``st``).

    Fall damage for every character that fell (TR-127..133; deaths at once), Cobwebs
    collected by ``p`` (TR-232, TR-135), tiles discovered (counters, minimap tokens, and
    enemies spawned on their spawn points, TR-308), the deepest layer reached.
    """
    life.resolve_falls_nb(st, tab, 0)  # TR-127..133
    if st.g[G.OVER] != 0:
        return
    webs = st.tally[T.COBWEBS]
    if webs > 0 and st.chars[p, CH.IN_WORLD]:
        got = life.team_gain_nb(st, p, tab.rules[RU.COBWEB], webs)
        st.cnt[CNT.RES + tab.rules[RU.COBWEB]] += got
    n_disc = min(st.tally[T.DISCOVERED], st.disc.shape[0])
    if n_disc > 0:
        st.cnt[CNT.TILES] += n_disc
        flipped = 0
        for s in range(st.mini.shape[1]):
            flipped += st.mini[1, s]
        st.cnt[CNT.BIOMES] = flipped
        st.tally[:] = 0
        foes.spawn_discovered_nb(st, tab, n_disc)
    h = st.grid.shape[1] // LAYERS
    for q in range(st.g[G.PLAYERS]):
        if st.chars[q, CH.IN_WORLD]:
            layer = st.pieces[q, PC.ROW] // h + 1
            if layer > st.cnt[CNT.LAYER]:
                st.cnt[CNT.LAYER] = layer
    st.tally[:] = 0


@njit(refcount=False)
def step_action_nb(st, tab, p, dr, dc):
    """Spend 1 action point to move 1 square (TR-113..125); then settle falls and finds."""
    if not can_act_nb(st, p) or st.chars[p, CH.AP] < 1:
        return False
    st.tally[:] = 0
    if not step_nb(st.grid, st.tiles, st.mini, st.pieces, p, dr, dc, st.falls, st.disc, st.tally):
        return False
    st.chars[p, CH.AP] -= 1
    settle_nb(st, tab, p)
    check_objectives_nb(st, tab, p)
    return True


@njit(refcount=False)
def rope_action_nb(st, tab, p, rr, cc, target):
    """Climb the rope hanging from (rr, cc) to row ``target`` (1 AP per 2 squares, TR-228)."""
    if not can_act_nb(st, p):
        return False
    d = abs(target - st.pieces[p, PC.ROW])
    if (d + 1) // 2 > st.chars[p, CH.AP]:
        return False
    st.tally[:] = 0
    spent = rope_move_nb(
        st.grid, st.tiles, st.mini, st.pieces, p, rr, cc, target, st.falls, st.disc, st.tally
    )
    if spent < 0:
        return False
    st.chars[p, CH.AP] -= spent
    settle_nb(st, tab, p)
    check_objectives_nb(st, tab, p)
    return True


@njit(refcount=False)
def dig_action_nb(st, tab, p, r, c):
    """Dig the adjacent block at (r, c) with the pickaxe (TR-170..182).

    Dig already converted this turn is spent first; otherwise 1 action point is converted
    into the pickaxe's dig (TR-182: the rest waits for another block). A finished block's
    resource goes into the inventory unless structural (TR-176, TR-177); bosses triggered by
    breaking a special block are noted for the enemy turn.
    """
    if not can_act_nb(st, p):
        return False
    ch = st.chars[p]
    if ch[CH.DIG] <= 0:
        pick = ch[CH.PICK]
        if pick < 0 or ch[CH.AP] < 1 or tab.equip[pick, EQ.DIG] <= 0:
            return False
        s = st.grid[P.SQ, r, c]
        if s != SQ.BLOCK and s != SQ.HALF:
            return False
        if abs(r - st.pieces[p, PC.ROW]) > 1 or abs(c - st.pieces[p, PC.COL]) > 1:
            return False
        ch[CH.AP] -= 1
        ch[CH.DIG] += tab.equip[pick, EQ.DIG]
    feat = st.grid[P.FEAT, r, c]
    st.tally[:] = 0
    spent, done, res = dig_nb(
        st.grid,
        st.tiles,
        st.mini,
        st.pieces,
        p,
        r,
        c,
        ch[CH.DIG],
        tab.res_dig,
        st.falls,
        st.disc,
        st.tally,
    )
    if spent < 0:
        return False
    ch[CH.DIG] -= spent
    if done:
        st.cnt[CNT.BLOCKS_DUG] += 1
        st.g[G.SIGHT] += 1  # an open square now (``sight_epoch_nb``)
        if res > 0 and tab.res_struct[res] == 0:
            st.cnt[CNT.RES + res] += life.team_gain_nb(st, p, res, 1)
        bosses.broke_block_nb(st, tab, p, r, c, feat)  # TR-392, TR-394, TR-395
    settle_nb(st, tab, p)
    check_objectives_nb(st, tab, p)
    return True


@njit(refcount=False)
def chop_action_nb(st, tab, p, r, c):
    """Chop the tree or cactus shown at (r, c) with the axe (TR-161..169); Wood when done.

    A chop square covered by a piece or a house cannot be chopped (TR-164, TR-237): no
    action point is converted for it.
    """
    if not can_act_nb(st, p):
        return False
    ch = st.chars[p]
    if ch[CH.CHOP] <= 0:
        axe = ch[CH.AXE]
        if axe < 0 or ch[CH.AP] < 1 or tab.equip[axe, EQ.CHOP] <= 0:
            return False
        f = st.grid[P.FEAT, r, c]
        if not f & FEAT.TREE or f & (FEAT.ACORN | FEAT.HOUSE) or st.grid[P.OCC, r, c] != 0:
            return False
        if abs(r - st.pieces[p, PC.ROW]) > 1 or abs(c - st.pieces[p, PC.COL]) > 1:
            return False
        ch[CH.AP] -= 1
        ch[CH.CHOP] += tab.equip[axe, EQ.CHOP]
    spent, wood = chop_nb(st.grid, st.tiles, st.pieces, p, r, c, ch[CH.CHOP])
    if spent < 0:
        return False
    ch[CH.CHOP] -= spent
    if wood > 0:
        st.cnt[CNT.RES + tab.rules[RU.WOOD]] += life.team_gain_nb(
            st, p, tab.rules[RU.WOOD], wood
        )
        st.cnt[CNT.TREES] += 1
    check_objectives_nb(st, tab, p)
    return True


@njit(refcount=False)
def collect_action_nb(st, tab, p, k):
    """Collect the adjacent life crystal or fallen star ``k`` (free, TR-305, TR-306, TR-359).

    A character standing on the token falls when it is taken (:func:`settle_nb`).
    """
    if not can_act_nb(st, p):
        return False
    ok = foes.collect_token_nb(st, tab, p, k) > 0
    if ok:
        settle_nb(st, tab, p)
        check_objectives_nb(st, tab, p)
    return ok


@njit(refcount=False)
def place_platform_action_nb(st, tab, p, slot):
    """Pay 1 Wood for a platform at position ``slot`` of the diagram (TR-221..224)."""
    if not can_act_nb(st, p):
        return False
    wood = tab.rules[RU.WOOD]
    if life.inventory_count_nb(st, p, wood) < 1:
        return False
    if not can_place_platform_nb(st.grid, st.tiles, st.pieces, p, tab.plat_pos, slot):
        return False
    place_platform_nb(st.grid, st.tiles, st.pieces, p, tab.plat_pos, slot)
    life.inventory_take_nb(st, p, wood, 1)
    st.cnt[CNT.PLATFORMS] += 1
    check_objectives_nb(st, tab, p)
    return True


@njit(refcount=False)
def place_rope_action_nb(st, tab, p, rr, cc):
    """Place a rope token next to ``p``: a held token (Journey) or 1 Cobweb (TR-225, 226)."""
    if not can_act_nb(st, p):
        return False
    web = tab.rules[RU.COBWEB]
    held = st.chars[p, CH.ROPES] > 0
    if not held and life.inventory_count_nb(st, p, web) < 1:
        return False
    if not place_rope_nb(st.grid, st.tiles, st.pieces, p, rr, cc):
        return False
    if held:
        st.chars[p, CH.ROPES] -= 1
    else:
        life.inventory_take_nb(st, p, web, 1)
    st.cnt[CNT.ROPES] += 1
    check_objectives_nb(st, tab, p)
    return True


@njit(refcount=False)
def reward_value_nb(tab, rw):
    """A rough worth of a reward to the bots (they pick chest cards by it)."""
    kind = rw[RW.KIND]
    if kind == RK.EQUIP:
        return 20 + 5 * tab.equip[rw[RW.ID], EQ.TIER]
    if kind == RK.ARMOR:
        return 20 + 5 * tab.armor[rw[RW.ID], AR.TIER]
    if kind == RK.CHEST_CARD:
        return 10 + 3 * rw[RW.ID]
    if kind == RK.MAXHP or kind == RK.MAXMANA:
        return 15 * rw[RW.AMOUNT]
    if kind == RK.COINS:
        return rw[RW.AMOUNT]
    if kind == RK.RESOURCE:
        return 2 * rw[RW.AMOUNT]
    if kind == RK.NONE:
        return 0
    return 5 + rw[RW.AMOUNT]


@njit(refcount=False)
def best_chest_card_nb(st, tab, cand, n, layer):
    """Index into ``cand`` of the drawn chest card whose reward is worth most (a bot rule)."""
    best = 0
    bv = -1
    for i in range(n):
        v = reward_value_nb(tab, tab.chest_reward[cand[i], layer])
        if v > bv:
            bv = v
            best = i
    return best


@njit
def open_chest_nb(st, tab, p, r, c):
    """Open the adjacent chest at (r, c) for 1 action point (TR-154..160).

    A chest under a house cannot be opened: the tile hides it (TR-235 reading).
    """
    if not can_act_nb(st, p) or st.chars[p, CH.AP] < 1:
        return False
    f = st.grid[P.FEAT, r, c]
    if not f & FEAT.CHEST or f & (FEAT.OPENED | FEAT.HOUSE):
        return False
    pr = st.pieces[p, PC.ROW]
    pc = st.pieces[p, PC.COL]
    if abs(r - pr) > 1 or abs(c - pc) > 1:
        return False
    st.chars[p, CH.AP] -= 1
    h = st.grid.shape[1] // LAYERS
    w = st.grid.shape[2] // TILE_COLS
    biome = st.tiles[TP.BIOME, pr // h, pc // w]  # the biome the character is in (TR-155)
    layer = r // h  # the chest's layer (TR-156)
    want = st.grid[P.VAL, r, c]
    # draw ``want`` cards at random from that biome's chest deck (TR-155, TR-160)
    cand = np.empty(8, np.int16)
    n = 0
    for _ in range(min(want, 8)):
        left = 0
        for i in range(tab.chest_biome.shape[0]):
            if tab.chest_biome[i] == biome and st.supply[SUP.CHEST, i] == 1:
                left += 1
        if left == 0:
            break
        j = randint_nb(left, st.rng)
        for i in range(tab.chest_biome.shape[0]):
            if tab.chest_biome[i] == biome and st.supply[SUP.CHEST, i] == 1:
                if j == 0:
                    cand[n] = i
                    st.supply[SUP.CHEST, i] = 2  # drawn, in hand
                    n += 1
                    break
                j -= 1
    st.grid[P.FEAT, r, c] |= FEAT.OPENED  # TR-158
    st.cnt[CNT.CHESTS] += 1
    if n > 0:
        best = best_chest_card_nb(st, tab, cand, n, layer)
        for i in range(n):
            st.supply[SUP.CHEST, cand[i]] = 0 if i == best else 1  # TR-157
        rw = tab.chest_reward[cand[best], layer]
        give_reward_nb(st, tab, p, rw[RW.KIND], rw[RW.ID], rw[RW.AMOUNT])
    check_objectives_nb(st, tab, p)
    return True
