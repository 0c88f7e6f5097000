"""Terraria playthroughs: setup, the round, the player's actions and the record of a game.

The round is preparation, player turn, enemy turn and cleanup; the actions include
crafting, houses, NPCs and objectives.

The kernels take ``(st, tab, ...)``: ``st`` a :class:`~simlib.games.terraria.state.State`
(one game's arrays, allocated once per block of games by :func:`alloc_state_nb`) and ``tab``
the compiled :class:`~simlib.games.terraria.state.Tables`. The enemy tray, spawning, the
enemy turn and death live in ``foes.py`` and ``life.py``; bosses in ``bosses.py``; decks in
``cards.py``; the players' decisions in ``bots.py``. This module holds the rules of the
player's own actions (each returns False and changes nothing when not allowed) and the flow
of the game. Readings are in the package docstring.
"""

from __future__ import annotations

import numpy as np

from simlib.core.dice import duel_nb
from simlib.core.jit import njit
from simlib.core.rng import randint_nb, seed_state_nb
from simlib.games.terraria import bosses, cards, foes, life, sight
from simlib.games.terraria.movement import (
    T,
    can_place_platform_nb,
    chop_nb,
    dig_nb,
    place_piece_nb,
    place_platform_nb,
    place_rope_nb,
    remove_piece_nb,
    rope_move_nb,
    step_nb,
    sunrise_trees_nb,
)
from simlib.games.terraria.sight import reach_nb, sees_memo_nb, sees_nb
from simlib.games.terraria.state import (
    AR,
    BIOME,
    BO,
    BOSS_ROW,
    BOSS_SPAWN,
    BP_COIN_ASK,
    CC,
    CF,
    CFG,
    CH,
    CNT,
    CO,
    COIN_CAP,
    EN,
    EQ,
    FEAT,
    FOREST_COLUMNS,
    HA,
    HO,
    KIND,
    LAYERS,
    MAX_BOSSES,
    MAX_CARDS,
    MAX_HOUSES,
    MAX_PLAYERS,
    MAX_SLOTS,
    MAX_WEIGHTS,
    N_PIECES,
    NPC,
    OB,
    OUT,
    PC,
    PILE,
    RK,
    ROLE,
    RU,
    RW,
    SECTIONS,
    SEEN_SLOTS,
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
    StateRef,
    on_table_nb,
)
from simlib.games.terraria.world import generate_world_nb

__all__ = [
    "CFG",
    "alloc_state_nb",
    "copy_state_nb",
    "setup_nb",
    "hand_limit_nb",
    "lose_health_nb",
    "boss_loot_nb",
    "step_action_nb",
    "dig_action_nb",
    "chop_action_nb",
    "attack_action_nb",
    "open_chest_nb",
    "craft_nb",
    "build_house_nb",
    "buy_card_nb",
    "buy_slot_nb",
    "nurse_nb",
    "use_consumable_nb",
    "place_platform_action_nb",
    "place_rope_action_nb",
    "check_objectives_nb",
    "check_npcs_nb",
    "preparation_nb",
    "enemy_turn_nb",
    "cleanup_nb",
    "give_reward_nb",
    "can_give_gear_nb",
    "give_equip_nb",
    "give_armor_nb",
    "best_owned_equip_nb",
    "use_bottle_nb",
    "eat_food_nb",
    "armor_mana_nb",
]


# --- allocation and setup -----------------------------------------------------------------
@njit
def alloc_state_nb(tab):
    """One game's arrays, sized from the compiled tables (see ``state.State``)."""
    h = tab.tpl.shape[2]
    w = tab.tpl.shape[3]
    rows = LAYERS * h
    cols = TILE_COLS * w
    n_eq = tab.equip.shape[0]
    n_ar = tab.armor.shape[0]
    k = max(tab.cards.shape[0], n_eq, n_ar, tab.consumables.shape[0], tab.chest_biome.shape[0])
    return StateRef(
        np.zeros((P.N, rows, cols), np.int16),
        np.zeros((TP.N, LAYERS, TILE_COLS), np.int16),
        np.zeros((2, 4), np.int16),
        np.zeros((N_PIECES, PC.N), np.int16),
        np.zeros(G.N, np.int32),
        np.zeros((MAX_PLAYERS, CH.N), np.int32),
        np.zeros((MAX_PLAYERS, MAX_SLOTS, 2), np.int16),
        np.zeros((MAX_PLAYERS, PILE.N, MAX_CARDS), np.int16),
        np.zeros((MAX_PLAYERS, PILE.N), np.int16),
        np.full(MAX_PLAYERS, -1, np.int16),
        np.zeros((MAX_PLAYERS, n_eq + n_ar), np.int16),
        np.zeros((MAX_PLAYERS, tab.consumables.shape[0]), np.int16),
        np.zeros((SUP.N, k), np.int16),
        np.zeros(CNT.N, np.int32),
        np.zeros((SECTIONS, tab.tray_tok.shape[1]), np.int16),
        np.full((MAX_HOUSES, HA.N), -1, np.int16),
        np.zeros((64, 3), np.int16),
        np.zeros((64, 2), np.int16),
        np.zeros(T.N, np.int32),
        np.zeros((rows, cols), np.int16),
        np.zeros((rows, cols), np.int16),
        np.zeros((rows * cols, 2), np.int16),
        np.zeros(64, np.int16),
        np.zeros(4, np.uint64),
        np.zeros((tab.stock.shape[0], tab.stock.shape[1], tab.stock.shape[2]), np.int16),
        np.zeros((rows, cols), np.int32),
        np.zeros((rows, cols), np.int32),
        np.zeros(rows * cols * 4, np.int32),
        np.zeros(MAX_WEIGHTS, np.float64),
        np.full((SEEN_SLOTS, 4), -1, np.int32),
    )


@njit
def copy_state_nb(src, dst):
    """Copy every array of game state ``src`` into ``dst`` (written; same table shapes).

    ``dst`` comes from :func:`alloc_state_nb` for the same tables. The copy holds the whole
    game, the generator state ``rng`` and the scratch included, so ``play.play_on_nb`` from
    a turn boundary plays the copy on exactly as it would the original; a search bot gives
    the copy a generator of its own (and resamples what the players cannot see) first.
    """
    dst.grid[...] = src.grid
    dst.tiles[...] = src.tiles
    dst.mini[...] = src.mini
    dst.pieces[...] = src.pieces
    dst.g[...] = src.g
    dst.chars[...] = src.chars
    dst.inv[...] = src.inv
    dst.deck[...] = src.deck
    dst.npile[...] = src.npile
    dst.ready[...] = src.ready
    dst.owned[...] = src.owned
    dst.held[...] = src.held
    dst.supply[...] = src.supply
    dst.cnt[...] = src.cnt
    dst.tray[...] = src.tray
    dst.house_at[...] = src.house_at
    dst.falls[...] = src.falls
    dst.disc[...] = src.disc
    dst.tally[...] = src.tally
    dst.dist[...] = src.dist
    dst.how[...] = src.how
    dst.queue[...] = src.queue
    dst.path[...] = src.path
    dst.rng[...] = src.rng
    dst.drawn[...] = src.drawn
    dst.bdist[...] = src.bdist
    dst.bfrom[...] = src.bfrom
    dst.bqueue[...] = src.bqueue
    dst.wts[...] = src.wts
    dst.seen[...] = src.seen


@njit(refcount=False)
def _wear_armor_nb(st, tab, p, a):
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
def setup_nb(st, tab, cfg, seed, index):
    """Set up game ``index``: world, table state, characters, decks (rulebook Setup)."""
    seed_state_nb(seed, index, st.rng)
    players = cfg[CFG.PLAYERS]
    evil = generate_world_nb(
        tab.tpl,
        tab.stock,
        tab.stock_n,
        tab.start,
        cfg[CFG.EVIL],
        st.grid,
        st.tiles,
        st.mini,
        st.drawn,
        st.rng,
    )
    st.pieces[:, :] = 0
    st.pieces[:, PC.SECTION] = -1
    st.g[:] = 0
    st.seen[:, :] = -1  # a new world: nothing seen yet
    g = st.g
    g[G.PLAYERS] = players
    g[G.CHAINS_NEEDED] = cfg[CFG.CHAINS]
    g[G.TOKENS] = cfg[CFG.TOKENS]  # TR-068, TR-431, TR-437
    g[G.TOMBS] = cfg[CFG.TOMBS]  # TR-067, TR-430
    g[G.FALL_DAMAGE] = cfg[CFG.FALL_DAMAGE]
    g[G.MOB_DEBUFF] = cfg[CFG.MOB_DEBUFF]
    g[G.EVIL] = 0 if evil == BIOME.CORRUPTION else 1
    g[G.DAY] = 1
    g[G.ROUND] = 0
    g[G.TIME] = 0  # the sunrise space (TR-041)
    st.cnt[:] = 0
    st.cnt[CNT.TILES] = 4
    st.cnt[CNT.LAYER] = 1
    # the Guide is always spawned (TR-069): his bit and his own counter from the start;
    # ``CNT.NPCS`` counts the NPCs the players spawn, so it leaves him out
    g[G.NPCS] = 1 << NPC.GUIDE
    st.cnt[CNT.NPC + NPC.GUIDE] = 1
    st.house_at[:, :] = -1
    # supplies
    st.supply[:, :] = 0
    for c in range(tab.cards.shape[0]):
        st.supply[SUP.CARDS, c] = tab.cards[c, CF.COPIES]
    for e in range(tab.equip.shape[0]):
        st.supply[SUP.EQUIP, e] = tab.equip[e, EQ.COPIES]
    for a in range(tab.armor.shape[0]):
        st.supply[SUP.ARMOR, a] = tab.armor[a, AR.COPIES]
    for c in range(tab.consumables.shape[0]):
        st.supply[SUP.CONSUMABLE, c] = tab.consumables[c, CO.COPIES]
    for c in range(tab.chest_biome.shape[0]):
        st.supply[SUP.CHEST, c] = 1
    foes.reset_tray_nb(st, tab)
    # characters (TR-046..049): a character card each (the players' choice: cards in order)
    st.chars[:, :] = 0
    st.inv[:, :, :] = 0
    st.owned[:, :] = 0
    st.held[:, :] = 0
    st.npile[:, :] = 0
    st.ready[:] = -1
    iron = 1 if cfg[CFG.IRON] else 0
    for p in range(players):
        ch = st.chars[p]
        card = p % tab.characters.shape[0]
        ch[CH.CARD] = card
        ch[CH.MAXHP] = tab.characters[card, CC.HP]
        ch[CH.HP] = ch[CH.MAXHP]
        ch[CH.MAXMANA] = tab.characters[card, CC.MANA]
        ch[CH.MANA] = ch[CH.MAXMANA]
        ch[CH.SLOTS] = 4  # TR-185
        ch[CH.ARMOR] = -1
        ch[CH.MINION] = -1
        ch[CH.OTHER] = -1
        for s in range(3):  # weapon, axe, pickaxe (TR-051; Journey: iron, TR-432, TR-433)
            e = tab.start_equip[iron, s]
            ch[CH.WEAPON + s] = e
            st.owned[p, e] += 1
            # the card comes out of the supply (``compile`` checks there are enough): a
            # Journey player's Iron Axe is one fewer left to craft
            st.supply[SUP.EQUIP, e] -= 1
        ch[CH.ROPES] = cfg[CFG.ROPES]  # TR-434
        cards.setup_deck_nb(st, tab, p)
    # the starting enemies: one Forest Surface day token on each of the 2 spawn squares of
    # the Surface Forest tiles (TR-036..037), then the characters on butterfly squares (TR-053)
    h = st.grid.shape[1] // LAYERS
    w = st.grid.shape[2] // TILE_COLS
    c0 = FOREST_COLUMNS[1] * w
    for r in range(h):  # the spawn squares of the 3 Surface Forest tiles
        for c in range(FOREST_COLUMNS[0] * w, (FOREST_COLUMNS[2] + 1) * w):
            if st.grid[P.FEAT, r, c] & FEAT.SPAWN and st.grid[P.OCC, r, c] == 0:
                foes.spawn_at_nb(st, tab, r, c)
    placed = 0
    for r in range(h):
        for c in range(c0, c0 + w):
            if placed < players and st.grid[P.FEAT, r, c] & FEAT.BUTTERFLY:
                if st.grid[P.OCC, r, c] == 0:
                    st.pieces[placed, PC.ROLE] = ROLE.CHARACTER
                    _place_character_nb(st, tab, placed, r, c)
                    st.chars[placed, CH.IN_WORLD] = 1
                    placed += 1
    r = 0
    while placed < players and r < h:  # fewer free butterflies than players: any square
        for c in range(c0, c0 + w):
            if placed < players and st.grid[P.SQ, r, c] == SQ.AIR and st.grid[P.OCC, r, c] == 0:
                st.pieces[placed, PC.ROLE] = ROLE.CHARACTER
                _place_character_nb(st, tab, placed, r, c)
                st.chars[placed, CH.IN_WORLD] = 1
                placed += 1
        r += 1
    _clear_events_nb(st)


@njit(refcount=False)
def _clear_events_nb(st):
    st.tally[:] = 0


@njit(refcount=False)
def _place_character_nb(st, tab, p, r, c):
    place_piece_nb(
        st.grid,
        st.tiles,
        st.mini,
        st.pieces,
        p,
        KIND.CHARACTER,
        r,
        c,
        st.falls,
        st.disc,
        st.tally,
    )


# --- derived numbers -----------------------------------------------------------------------
@njit(refcount=False)
def hand_limit_nb(st, tab, p):
    """Character card's hand limit plus the bonuses of top equipment and worn armor (TR-092)."""
    ch = st.chars[p]
    n = tab.characters[ch[CH.CARD], CC.HAND]
    for s in range(4):
        e = ch[CH.WEAPON + s]
        if e >= 0:
            n += tab.equip[e, EQ.DRAW]
    if ch[CH.ARMOR] >= 0:
        n += tab.armor[ch[CH.ARMOR], AR.DRAW]
    return n


@njit(refcount=False)
def attack_icons_nb(st, tab, p):
    """Attack icons of ``p``: cards in play, minion and worn armor (TR-276, TR-361)."""
    ch = st.chars[p]
    n = ch[CH.ATK]
    if ch[CH.MINION] >= 0:
        n += tab.minions[ch[CH.MINION]]
    if ch[CH.ARMOR] >= 0:
        n += tab.armor[ch[CH.ARMOR], AR.ATK]
    return n


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


# --- after every action: falls, cobwebs, discoveries ------------------------------------------
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


# --- the player's actions -------------------------------------------------------------------
@njit(refcount=False)
def _can_act_nb(st, p):
    return st.g[G.OVER] == 0 and st.chars[p, CH.IN_WORLD] != 0


@njit(refcount=False)
def step_action_nb(st, tab, p, dr, dc):
    """Spend 1 action point to move 1 square (TR-113..125); then settle falls and finds."""
    if not _can_act_nb(st, p) or st.chars[p, CH.AP] < 1:
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
    if not _can_act_nb(st, p):
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
    if not _can_act_nb(st, p):
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
    if not _can_act_nb(st, p):
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


@njit
def target_defense_nb(st, tab, k):
    """Defence dice of the enemy or boss piece ``k`` (a view)."""
    if st.pieces[k, PC.ROLE] == ROLE.BOSS:
        b = st.pieces[k, PC.TYPE]
        d0 = bosses.form_col_nb(BO.DEF0, st.g[G.FORM + b])
        return tab.bosses[b, d0 : d0 + bosses.boss_stat_nb(st, tab, b, BO.NDEF)]
    e = st.pieces[k, PC.TYPE]
    return tab.enemies[e, EN.DEF0 : EN.DEF0 + tab.enemies[e, EN.NDEF]]


@njit(refcount=False)
def sight_epoch_nb(st):
    """What line of sight depends on, as one number (the ``seen`` memo's epoch).

    Squares block by their kind and houses, on discovered tiles only (``sight``): the
    epoch changes with every block dug out or house built (``G.SIGHT``) and every tile
    discovered (``sight.sight_epoch_nb``). Read only.
    """
    return sight.sight_epoch_nb(st.tiles, st.g[G.SIGHT])


@njit(refcount=False)
def sight_changed_nb(st):
    """A new sight epoch: call after editing blocks or houses by hand (tests, tools).

    The engine's own digs and houses do this themselves; without it the ``seen`` memo
    would go on answering for the world as it was (``check_invariants_nb`` catches that).
    """
    st.g[G.SIGHT] += 1


@njit(refcount=False)
def can_attack_nb(st, tab, p, k):
    """True when ``p``'s weapon reaches enemy or boss ``k`` now (TR-258..272), costs aside."""
    return weapon_reaches_nb(
        st.pieces, st.chars, st.grid, st.tiles, tab.equip, st.seen, sight_epoch_nb(st), p, k
    )


@njit(refcount=False)
def weapon_reaches_nb(pieces, chars, grid, tiles, equip, seen, epoch, p, k):
    """:func:`can_attack_nb` on plain arrays (for loops over the pieces).

    Line of sight goes through the ``seen`` memo at ``epoch`` (``sight.sees_memo_nb``). A
    weapon without the line-of-sight icon needs no sight but cannot hit through a house
    (``sight.sees_nb`` with ``houses_only``): not from inside one at an enemy outside, nor
    across one (TR-243, TR-269).
    """
    role = pieces[k, PC.ROLE]
    if role != ROLE.ENEMY and role != ROLE.BOSS:
        return False
    if pieces[k, PC.KIND] == KIND.NONE:
        return False
    w = chars[p, CH.WEAPON]
    if w < 0:
        return False
    h = grid.shape[1] // LAYERS
    wd = grid.shape[2] // TILE_COLS
    ar = pieces[p, PC.ROW]
    ac = pieces[p, PC.COL]
    br = pieces[k, PC.ROW]
    bc = pieces[k, PC.COL]
    if not reach_nb(ar, ac, br, bc, h, wd) & equip[w, EQ.RANGE]:
        return False
    if equip[w, EQ.LOS] and not sees_memo_nb(seen, epoch, grid, tiles, ar, ac, br, bc):
        return False
    if not equip[w, EQ.LOS] and not sees_nb(grid, tiles, ar, ac, br, bc, True):
        return False  # no line-of-sight icon, but still not through a house (TR-243)
    return True


@njit(refcount=False)
def attack_action_nb(st, tab, p, k):
    """One attack with the top weapon on piece ``k`` (TR-258..283, TR-354, TR-412).

    Costs 1 action point, or the weapon's mana for a magic weapon. Attack icons all go onto
    one die (TR-277, via ``core.dice.duel_nb``). A defeated enemy leaves the world, and
    whoever stood on it falls (TR-126..133: :func:`settle_nb`). Returns the wounds
    inflicted, -1 if the attack is not allowed.
    """
    if not _can_act_nb(st, p) or not can_attack_nb(st, tab, p, k):
        return -1
    ch = st.chars[p]
    w = ch[CH.WEAPON]
    mana = tab.equip[w, EQ.MANA]
    if mana > 0:
        if ch[CH.MANA] < mana:
            return -1
        ch[CH.MANA] -= mana
    else:
        if ch[CH.AP] < 1:
            return -1
        ch[CH.AP] -= 1
    dice = tab.equip[w, EQ.ATK0 : EQ.ATK0 + tab.equip[w, EQ.NATK]]
    wounds = duel_nb(dice, target_defense_nb(st, tab, k), attack_icons_nb(st, tab, p), 0, st.rng)
    ch[CH.DUELS] += 1
    if wounds > 0:
        if st.pieces[k, PC.ROLE] == ROLE.BOSS:
            b = st.pieces[k, PC.TYPE]
            if bosses.wound_boss_nb(st, tab, p, b, wounds) == 2:
                boss_loot_nb(st, tab, b)  # TR-417, TR-419
                settle_nb(st, tab, p)
        else:
            foes.wound_enemy_nb(st, tab, p, k, wounds)
            settle_nb(st, tab, p)
    check_objectives_nb(st, tab, p)
    return wounds


@njit(refcount=False)
def collect_action_nb(st, tab, p, k):
    """Collect the adjacent life crystal or fallen star ``k`` (free, TR-305, TR-306, TR-359).

    A character standing on the token falls when it is taken (:func:`settle_nb`).
    """
    if not _can_act_nb(st, p):
        return False
    ok = foes.collect_token_nb(st, tab, p, k) > 0
    if ok:
        settle_nb(st, tab, p)
        check_objectives_nb(st, tab, p)
    return ok


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
    if not _can_act_nb(st, p):
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


@njit
def open_chest_nb(st, tab, p, r, c):
    """Open the adjacent chest at (r, c) for 1 action point (TR-154..160).

    A chest under a house cannot be opened: the tile hides it (TR-235 reading).
    """
    if not _can_act_nb(st, p) or st.chars[p, CH.AP] < 1:
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


# --- crafting, building, buying ---------------------------------------------------------------
@njit(refcount=False)
def _team_has_nb(st, tab, p, recipe):
    """True when ``p`` plus donations from the others can pay ``recipe`` (TR-198)."""
    return team_has_nb(st.inv, st.chars, st.g[G.PLAYERS], recipe)


@njit(refcount=False)
def team_has_nb(inv, chars, players, recipe):
    """:func:`_team_has_nb` on the arrays (cheap to call in a loop)."""
    for i in range(recipe.shape[0]):
        res = recipe[i, 0]
        if res <= 0:
            continue
        have = 0
        for q in range(players):
            have += life.count_units_nb(inv, chars, q, res)
        if have < recipe[i, 1]:
            return False
    return True


@njit(refcount=False)
def _team_pay_nb(st, tab, p, recipe):
    """Pay ``recipe``: from ``p`` first, then from the others in seat order (TR-198)."""
    for i in range(recipe.shape[0]):
        res = recipe[i, 0]
        need = recipe[i, 1]
        if res <= 0:
            continue
        q = p
        for _ in range(st.g[G.PLAYERS]):
            if need <= 0:
                break
            take = min(need, life.inventory_count_nb(st, q, res))
            if take > 0:
                life.inventory_take_nb(st, q, res, take)
                need -= take
            q = (q + 1) % st.g[G.PLAYERS]


@njit(refcount=False)
def _stations_ok_nb(st, need):
    return (st.g[G.STATIONS] & need) == need


@njit(refcount=False)
def can_craft_nb(st, tab, p, kind, item):
    """True when ``p`` may craft equipment (kind 0) or armor (kind 1) ``item`` now."""
    if kind == 0:
        row = tab.equip[item]
        if not row[EQ.CRAFTABLE] or st.supply[SUP.EQUIP, item] <= 0:  # TR-203
            return False
        if not _stations_ok_nb(st, row[EQ.STATION]):  # TR-201
            return False
        ev = row[EQ.EVIL]
        if ev != 0 and ev - 1 != st.g[G.EVIL]:
            return False
        return _team_has_nb(st, tab, p, tab.equip_recipe[item])
    row = tab.armor[item]
    if not row[AR.CRAFTABLE] or st.supply[SUP.ARMOR, item] <= 0:
        return False
    if not _stations_ok_nb(st, row[AR.STATION]):  # TR-212
        return False
    ev = row[AR.EVIL]
    if ev != 0 and ev - 1 != st.g[G.EVIL]:
        return False
    return _team_has_nb(st, tab, p, tab.armor_recipe[item])


@njit(refcount=False)
def _take_equip_nb(st, tab, p, e):
    """``p`` gets equipment card ``e``; it goes on top of its slot (TR-206, TR-211)."""
    st.owned[p, e] += 1
    st.chars[p, CH.WEAPON + tab.equip[e, EQ.SLOT]] = e


@njit(refcount=False)
def _take_armor_nb(st, tab, p, a):
    """``p`` gets armor set ``a`` and wears it (TR-214: the old set is kept)."""
    st.owned[p, tab.equip.shape[0] + a] += 1
    _wear_armor_nb(st, tab, p, a)


@njit(refcount=False)
def best_owned_equip_nb(st, tab, p, slot):
    """The best equipment card of ``slot`` that ``p`` owns, -1 when none. Read only.

    The highest tier; ties: the lowest id.
    """
    best = -1
    bt = -1
    for e in range(tab.equip.shape[0]):
        if st.owned[p, e] > 0 and tab.equip[e, EQ.SLOT] == slot and tab.equip[e, EQ.TIER] > bt:
            best = e
            bt = tab.equip[e, EQ.TIER]
    return best


@njit(refcount=False)
def can_give_gear_nb(st, p, q):
    """True while ``p`` may give ``q`` an equipment card or an armor set. Read only.

    The game is on, ``p`` and ``q`` are two different players of it, and neither has drawn
    this round (``g[G.DRAWN]``): gifts happen at the start of the turn, before either
    player draws, and once a player has drawn its gear is fixed until its next turn
    (TR-209, TR-210, TR-219, TR-220).
    """
    g = st.g
    players = g[G.PLAYERS]
    if g[G.OVER] != 0 or p == q or p < 0 or q < 0 or p >= players or q >= players:
        return False
    return (g[G.DRAWN] & ((1 << p) | (1 << q))) == 0


@njit(refcount=False)
def give_equip_nb(st, tab, p, q, e):
    """Player ``p`` gives player ``q`` one copy of equipment card ``e`` (TR-209, TR-210).

    Refused (returns 0, nothing changes) outside the gift window (:func:`can_give_gear_nb`)
    or when ``p`` owns no copy. ``p`` loses the copy; when it was on top of its slot and
    ``p`` has no other copy, ``p``'s best other card of that slot (:func:`best_owned_equip_nb`)
    comes to the top, or the slot is empty (-1). ``q`` owns it and, as any new card, it goes
    on top of ``q``'s slot (TR-206; ``q`` may swap before drawing, TR-208). A minion already
    summoned stays (TR-363: only death or another summon ends it). Writes ``st.owned``,
    ``st.chars`` (the slots, ``p``'s ``CH.GIFTS``). Returns 1 when given.
    """
    if not can_give_gear_nb(st, p, q) or e < 0 or st.owned[p, e] <= 0:
        return 0
    st.owned[p, e] -= 1
    slot = tab.equip[e, EQ.SLOT]
    if st.chars[p, CH.WEAPON + slot] == e and st.owned[p, e] == 0:
        st.chars[p, CH.WEAPON + slot] = best_owned_equip_nb(st, tab, p, slot)
    _take_equip_nb(st, tab, q, e)
    st.chars[p, CH.GIFTS] += 1
    return 1


@njit(refcount=False)
def give_armor_nb(st, tab, p, q, a):
    """Player ``p`` gives player ``q`` one copy of armor set ``a`` (TR-219, TR-220).

    Refused (returns 0, nothing changes) outside the gift window (:func:`can_give_gear_nb`)
    or when ``p`` owns no copy. ``p`` loses the copy; when ``p`` wore it and has no other
    copy, ``p`` wears no armor (the character card's defence and maxima; ``p`` may put on
    another set it owns before drawing, TR-218). ``q`` owns it and wears it, as any new set
    (TR-214: the set it wore is set aside, still owned). Writes ``st.owned``, ``st.chars``
    (armor, maxima, health and mana capped, ``p``'s ``CH.GIFTS``). Returns 1 when given.
    """
    col = tab.equip.shape[0] + a
    if not can_give_gear_nb(st, p, q) or a < 0 or st.owned[p, col] <= 0:
        return 0
    st.owned[p, col] -= 1
    if st.chars[p, CH.ARMOR] == a and st.owned[p, col] == 0:
        _wear_armor_nb(st, tab, p, -1)
    _take_armor_nb(st, tab, q, a)
    st.chars[p, CH.GIFTS] += 1
    return 1


@njit(refcount=False)
def craft_nb(st, tab, p, kind, item):
    """Craft equipment (kind 0, TR-200..211) or an armor set (kind 1, TR-212..216)."""
    if not _can_act_nb(st, p) or not can_craft_nb(st, tab, p, kind, item):
        return False
    if kind == 0:
        _team_pay_nb(st, tab, p, tab.equip_recipe[item])
        st.supply[SUP.EQUIP, item] -= 1
        _take_equip_nb(st, tab, p, item)
        st.cnt[CNT.CRAFTED] += 1
    else:
        _team_pay_nb(st, tab, p, tab.armor_recipe[item])
        st.supply[SUP.ARMOR, item] -= 1
        _take_armor_nb(st, tab, p, item)
        st.cnt[CNT.ARMORS] += 1
    check_objectives_nb(st, tab, p)
    return True


@njit(refcount=False)
def house_fits_nb(st, tab, p, hid, r, c):
    """True when house ``hid`` can stand with its top-left square at (r, c) (TR-235, TR-239).

    Every square it covers is on a discovered tile and empty in the rulebook's sense: no
    full block, character or enemy (TR-119); half blocks, lava, tunnels, chests, ropes,
    cobwebs, trees and platforms may be covered, another house may not (tiles do not
    overlap). One square is adjacent to ``p``. Nothing need be under it: the rulebook asks
    only for room (TR-239). Read only.
    """
    wd = tab.houses[hid, HO.W]
    ht = tab.houses[hid, HO.H]
    rows = st.grid.shape[1]
    cols = st.grid.shape[2]
    if r < 0 or c < 0 or r + ht > rows or c + wd > cols:
        return False
    pr = st.pieces[p, PC.ROW]
    pc = st.pieces[p, PC.COL]
    near = False
    for i in range(r, r + ht):
        for j in range(c, c + wd):
            if not on_table_nb(st.grid, st.tiles, i, j):
                return False
            if st.grid[P.SQ, i, j] == SQ.BLOCK or st.grid[P.OCC, i, j] != 0:
                return False
            if st.grid[P.FEAT, i, j] & FEAT.HOUSE:
                return False
            if max(abs(i - pr), abs(j - pc)) == 1:
                near = True
    return near


@njit(refcount=False)
def can_build_nb(st, tab, p, hid):
    """True when house ``hid`` may be built now, placement aside (TR-233, TR-234, TR-252)."""
    built = st.cnt[CNT.HOUSE + hid]
    if built >= tab.houses[hid, HO.COPIES]:
        return False
    if not _stations_ok_nb(st, tab.houses[hid, HO.NEEDS]):
        return False
    if tab.houses[hid, HO.GATED]:
        ok = False
        n_eq = tab.equip.shape[0]
        for q in range(st.g[G.PLAYERS]):
            for e in range(n_eq):
                if tab.equip[e, EQ.GATE] and st.owned[q, e] > 0:
                    ok = True
        if not ok:
            return False
    if st.g[G.HOUSES] >= MAX_HOUSES:
        return False
    return _team_has_nb(st, tab, p, tab.house_recipe[hid])


@njit(refcount=False)
def build_house_nb(st, tab, p, hid, r, c):
    """Build house ``hid`` with its top-left square at (r, c) (TR-233..257).

    The house squares get ``FEAT.HOUSE`` (they block sight and enemies, TR-243..246) and a
    floor on every square and on the square above its roof (walkable like platforms,
    TR-241, TR-242); covered platforms and Acorns go back (TR-236, TR-238). A covered half
    block is under the tile for good (TR-240): its square becomes open air like the rest of
    the house (``SQ.AIR``, no dig progress), so it is walked through and no longer dug.
    """
    if not _can_act_nb(st, p) or not can_build_nb(st, tab, p, hid):
        return False
    if not house_fits_nb(st, tab, p, hid, r, c):
        return False
    _team_pay_nb(st, tab, p, tab.house_recipe[hid])
    wd = tab.houses[hid, HO.W]
    ht = tab.houses[hid, HO.H]
    for i in range(r, r + ht):
        for j in range(c, c + wd):
            f = st.grid[P.FEAT, i, j]
            f &= ~FEAT.ACORN
            st.grid[P.FEAT, i, j] = f | FEAT.HOUSE | FEAT.PLATFORM
            if st.grid[P.SQ, i, j] == SQ.HALF:  # covered (TR-235 reading)
                st.grid[P.SQ, i, j] = SQ.AIR
                st.grid[P.PROG, i, j] = 0
    if r > 0:
        for j in range(c, c + wd):
            if st.grid[P.SQ, r - 1, j] == SQ.AIR:
                st.grid[P.FEAT, r - 1, j] |= FEAT.PLATFORM
    n = st.g[G.HOUSES]
    st.house_at[n, HA.ID] = hid
    st.house_at[n, HA.ROW] = r
    st.house_at[n, HA.COL] = c
    st.house_at[n, HA.NPC] = -1
    st.g[G.HOUSES] = n + 1
    st.g[G.SIGHT] += 1  # house squares block sight (``sight_epoch_nb``)
    st.g[G.FREE_HOUSES] += 1
    prov = tab.houses[hid, HO.PROVIDES]
    st.g[G.STATIONS] |= prov
    if prov & STATION.BED:
        st.g[G.BEDS] += 1
    if prov & STATION.COOKING_POT:
        st.g[G.COOK_LEFT] = 15
    st.cnt[CNT.HOUSES] += 1
    st.cnt[CNT.HOUSE + hid] += 1
    check_objectives_nb(st, tab, p)
    return True


@njit(refcount=False)
def buy_card_nb(st, tab, p, shop):
    """Buy an action card from the Guide or the Merchant.

    ``shop`` is a card id of a Guide pile, or -1 for the Merchant's 8-coin pile and -2 for
    its 15-coin pile (their top card, TR-374).

    TR-369, TR-372, TR-373; the card goes to the discard pile (TR-096).
    """
    if not _can_act_nb(st, p):
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
    if not _can_act_nb(st, p) or not st.g[G.NPCS] & (1 << NPC.NURSE):
        return False
    if not spend_coins_nb(st, p, tab.rules[RU.NURSE_PRICE]):
        return False
    ch = st.chars[p]
    ch[CH.HEALED] += ch[CH.MAXHP] - ch[CH.HP]
    ch[CH.HP] = ch[CH.MAXHP]
    cards.scrap_debuffs_nb(st, tab, p)
    return True


@njit(refcount=False)
def use_consumable_nb(st, tab, p, c):
    """Discard consumable ``c`` for its effect (TR-386..390); it returns to the deck."""
    if not _can_act_nb(st, p) or st.held[p, c] <= 0:
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
def recall_nb(st, tab, p):
    """Move ``p`` to the Surface Forest or a bed house (TR-389, TR-256)."""
    r, c = life.respawn_square_nb(st, tab)
    if r < 0:
        return
    st.tally[:] = 0
    remove_piece_nb(st.grid, st.tiles, st.mini, st.pieces, p, st.falls, st.disc, st.tally)
    life._place_character_nb(st, p, r, c)
    settle_nb(st, tab, p)


@njit(refcount=False)
def place_platform_action_nb(st, tab, p, slot):
    """Pay 1 Wood for a platform at position ``slot`` of the diagram (TR-221..224)."""
    if not _can_act_nb(st, p):
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
    if not _can_act_nb(st, p):
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


# --- rewards and objectives ---------------------------------------------------------------
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
            _take_equip_nb(st, tab, p, rid)
    elif kind == RK.ARMOR:
        if st.supply[SUP.ARMOR, rid] > 0:
            st.supply[SUP.ARMOR, rid] -= 1
            _take_armor_nb(st, tab, p, rid)
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


# --- the round -----------------------------------------------------------------------------
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
    g[G.TIME] = (g[G.TIME] + 1) % tab.time_track.shape[0]  # TR-353


@njit(refcount=False)
def check_invariants_nb(st, tab):
    """Raise (an exception in a kernel) when a state invariant is broken (tests)."""
    g = st.g
    for p in range(g[G.PLAYERS]):
        ch = st.chars[p]
        if ch[CH.HP] < 0 or ch[CH.HP] > ch[CH.MAXHP]:
            raise ValueError("health out of bounds")
        if ch[CH.MANA] < 0 or ch[CH.MANA] > ch[CH.MAXMANA]:
            raise ValueError("mana out of bounds")
        if ch[CH.COINS] < 0 or ch[CH.COINS] > COIN_CAP:
            raise ValueError("coins out of bounds")
        if ch[CH.SLOTS] < 4 or ch[CH.SLOTS] > MAX_SLOTS:
            raise ValueError("slots out of bounds")
        for s in range(MAX_SLOTS):
            if st.inv[p, s, 1] < 0 or st.inv[p, s, 1] > 5:
                raise ValueError("slot count out of bounds")
            if s >= ch[CH.SLOTS] and st.inv[p, s, 1] != 0:
                raise ValueError("resource in a locked slot")
        for s in range(ch[CH.SLOTS]):
            for t in range(s + 1, ch[CH.SLOTS]):
                if st.inv[p, s, 1] > 0 and st.inv[p, t, 1] > 0:
                    if st.inv[p, s, 0] == st.inv[p, t, 0] and st.inv[p, s, 1] < 5:
                        if st.inv[p, t, 1] < 5:
                            raise ValueError("two part-filled slots of one resource")
    # cards are conserved: every card is in a player's piles or the supply
    for c in range(tab.cards.shape[0]):
        n = st.supply[SUP.CARDS, c]
        for p in range(g[G.PLAYERS]):
            for pile in range(PILE.N):
                for i in range(st.npile[p, pile]):
                    if st.deck[p, pile, i] == c:
                        n += 1
            if st.ready[p] == c:
                n += 1
        start = 0
        for i in range(tab.start_deck.shape[0]):
            if tab.start_deck[i] == c:
                start += g[G.PLAYERS]
        # only debuff cards are ever scrapped here, and they return to their pile (TR-384)
        if n != tab.cards[c, CF.COPIES] + start:
            raise ValueError("action cards not conserved")
    for k in range(N_PIECES):
        if st.pieces[k, PC.KIND] != KIND.NONE:
            r = st.pieces[k, PC.ROW]
            c = st.pieces[k, PC.COL]
            if st.grid[P.SQ, r, c] == SQ.BLOCK and st.pieces[k, PC.KIND] != KIND.WORM:
                if st.pieces[k, PC.ROLE] != ROLE.BOSS:
                    raise ValueError("piece inside a block")
    for b in range(MAX_BOSSES):
        if bosses.in_play_nb(st, b) != (st.pieces[BOSS_ROW + b, PC.KIND] != KIND.NONE):
            raise ValueError("a boss piece without its boss in play, or the other way round")
    # every remembered line-of-sight answer of the current epoch is still the answer
    epoch = sight_epoch_nb(st)
    cols = st.grid.shape[2]
    for s in range(st.seen.shape[0]):
        if st.seen[s, 0] >= 0 and st.seen[s, 2] == epoch:
            a = st.seen[s, 0]
            b = st.seen[s, 1]
            ans = sees_nb(st.grid, st.tiles, a // cols, a % cols, b // cols, b % cols)
            if ans != (st.seen[s, 3] != 0):
                raise ValueError("a remembered line of sight is out of date")


@njit(refcount=False)
def lose_health_nb(st, tab, p, n):
    """``p`` loses ``n`` health (a debuff card played, data); at 0 it dies (TR-290)."""
    if n <= 0 or not st.chars[p, CH.IN_WORLD]:
        return
    st.chars[p, CH.HP] = max(0, st.chars[p, CH.HP] - n)
    if st.chars[p, CH.HP] == 0:
        life.die_nb(st, tab, p)
        life.resolve_falls_nb(st, tab, 0)


@njit
def boss_loot_nb(st, tab, b):
    """Hand out boss ``b``'s Loot card (``bosses.boss_loot_nb`` splits it, TR-417, TR-419)."""
    out = np.zeros((4 * 4, 4), np.int32)
    n = bosses.boss_loot_nb(st, tab, b, out)
    for i in range(n):
        give_reward_nb(st, tab, out[i, 0], out[i, 1], out[i, 2], out[i, 3])
    for q in range(MAX_PLAYERS):
        st.chars[q, CH.BOSS_TOKENS + b] = 0


# --- house bonus tokens and mana regained mid-day ------------------------------------------
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
    if not _can_act_nb(st, p):
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
    if not _can_act_nb(st, p):
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
