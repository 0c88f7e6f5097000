"""Terraria rules of setup, chests, chopping and digging, houses, NPCs and shops.

Scenario tests that drive the engine's kernels on a real game (``setup.setup_nb`` from the
default content, ``test_terraria_engine.new_game``), its world replaced by a hand-drawn one
where a scenario needs exact squares (:func:`scene`). Each test cites the checklist lines
(``shared/rules/terraria-checklist.md``) it checks.
"""

from __future__ import annotations

import numpy as np
import pytest
from terraria_helpers import H, W, drawn_world, generated
from test_terraria_engine import GUIDE, _clear_area, ident, names, new_game

from simlib.core.rng import new_state
from simlib.games.terraria.compile import compile_world, load_world
from simlib.games.terraria.engine import (
    actions,
    attack,
    bosses,
    checks,
    cleanup,
    crafting,
    life,
    npcs,
    preparation,
    sight,
)
from simlib.games.terraria.engine.movement import place_piece_nb, supported_nb
from simlib.games.terraria.state import (
    BIOME,
    BO,
    BOSS_ROW,
    BOSS_SPAWN,
    CF,
    CH,
    CNT,
    CO,
    EQ,
    FEAT,
    HA,
    KIND,
    LAYERS,
    NPC,
    PC,
    PILE,
    RK,
    ROLE,
    RW,
    SHOP,
    SQ,
    SUP,
    TILE_COLS,
    TP,
    G,
    P,
    replace,
)

TOP, LEFT = 1, 30  # where scenes are drawn: tile column 5, its left edge at column 30


def res(name):
    return ident("resources", name)


def scene(rows, top=TOP, left=LEFT, players=2, seed=3):
    """A real game whose world is the hand-drawn ``rows`` (every tile known, all Forest).

    No piece is on the world; objectives are put out of reach (every chain marked done) so
    that no reward changes what a test measures.
    """
    st, tab, _ = new_game(seed=seed, players=players)
    grid, tiles, mini = drawn_world(rows, top, left)
    st.grid[:] = grid
    st.tiles[:] = tiles
    st.mini[:] = mini
    st.pieces[:, :] = 0
    st.pieces[:, PC.SECTION] = -1
    st.chars[:, CH.IN_WORLD] = 0
    st.g[G.OBJ : G.OBJ + 4] = 10
    return st, tab


def crowd_teammates(st):
    """Leave the other players no room for units or coins (4 full Stone slots, 25 coins).

    Gains a player has no room for go first to teammates with room (TR-197,
    ``tests/test_terraria_trade.py``); with none, one player's inventory rules decide.
    """
    for q in range(1, int(st.g[G.PLAYERS])):
        st.inv[q, :4] = (res("stone"), 5)
        st.inv[q, 4:] = (0, 0)
        st.chars[q, CH.COINS] = 25


def put(st, p, i, j, top=TOP, left=LEFT):
    """Character ``p`` onto square (i, j) of the drawn rows (it falls as placed)."""
    r, c = top + i, left + j
    assert place_piece_nb(
        st.grid, st.tiles, st.mini, st.pieces, p, KIND.CHARACTER, r, c, st.falls, st.disc,
        st.tally,
    )  # fmt: skip
    st.pieces[p, PC.ROLE] = ROLE.CHARACTER
    st.chars[p, CH.IN_WORLD] = 1
    st.tally[:] = 0


def at(st, p, top=TOP, left=LEFT):
    return int(st.pieces[p, PC.ROW]) - top, int(st.pieces[p, PC.COL]) - left


def slots(st, p=0):
    return [tuple(int(v) for v in s) for s in st.inv[p]]


# --- setup -------------------------------------------------------------------------------
def test_setup_inventory_four_empty_dice_and_two_locked_slots():  # TR-050
    st, tab, _ = new_game(players=3)
    for p in range(3):
        assert st.chars[p, CH.SLOTS] == 4
        assert slots(st, p) == [(0, 0)] * 6  # every die at 0: every slot free
    # the 5th and 6th slots stay locked: 30 Stone fill the 4 open slots only
    assert life.inventory_add_nb(st, 0, res("stone"), 30) == 20
    assert slots(st, 0) == [(res("stone"), 5)] * 4 + [(0, 0)] * 2


def test_setup_coins_start_at_zero():  # TR-054 (open): 0 coins on the dial
    st, _, _ = new_game(players=4)
    assert st.chars[:4, CH.COINS].tolist() == [0, 0, 0, 0]
    assert st.chars[:4, CH.TCOIN].tolist() == [0, 0, 0, 0]
    assert st.cnt[CNT.COINS] == 0


def test_the_guide_starts_spawned_and_needs_no_house():  # TR-069
    st, tab, _ = new_game()
    assert st.g[G.HOUSES] == 0 and st.g[G.FREE_HOUSES] == 0
    em = ident("cards", "explore_more")
    st.chars[0, CH.COINS] = tab.cards[em, CF.PRICE]
    assert npcs.buy_card_nb(st, tab, 0, em)  # his power works with no house at all
    # a free house is never taken by the Guide: with no other NPC ready it stays free
    st.g[G.HOUSES] = 1
    st.g[G.FREE_HOUSES] = 1
    st.house_at[0, HA.ID] = 0
    st.house_at[0, HA.NPC] = -1
    npcs.check_npcs_nb(st, tab)
    assert st.g[G.FREE_HOUSES] == 1 and st.house_at[0, HA.NPC] == -1
    assert st.cnt[CNT.NPCS] == 0


def test_the_other_five_npcs_start_unspawned():  # TR-070
    st, tab, _ = new_game()
    assert st.g[G.NPCS] == GUIDE  # the Guide alone is spawned (TR-069)
    assert st.cnt[CNT.NPC : CNT.NPC + NPC.N].tolist() == [1] + [0] * (NPC.N - 1)
    st.chars[0, CH.COINS] = 25
    st.chars[0, CH.HP] = 1
    assert not npcs.nurse_nb(st, tab, 0)  # Nurse
    assert not npcs.buy_card_nb(st, tab, 0, -1)  # Merchant
    assert not npcs.buy_card_nb(st, tab, 0, -2)
    assert st.chars[0, CH.COINS] == 25 and st.chars[0, CH.HP] == 1
    st.chars[0, CH.COINS] = 25
    preparation.preparation_nb(st, tab, 0, np.zeros(16))  # a sunrise: no NPC power fires
    assert st.g[G.DRYAD_DIE] == 0  # Dryad
    assert st.chars[0, CH.COINS] == 25 and st.held[0].sum() == 0  # Demolitionist
    assert st.g[G.NPCS] == GUIDE


def test_npc_card_piles_are_public_before_they_can_be_bought():  # TR-073
    """Every NPC pile's contents are in the shared supply from setup, Merchant piles too.

    The Merchant's face-down piles can be looked through (their contents are known, not
    their order): the supply holds every copy of each Merchant card before the Merchant
    spawns, and a purchase takes exactly the bought card out of it.
    """
    st, tab, _ = new_game()
    assert not st.g[G.NPCS] & (1 << NPC.MERCHANT)
    for c in range(tab.cards.shape[0]):
        if tab.cards[c, CF.SHOP] in (SHOP.GUIDE, SHOP.MERCHANT_8, SHOP.MERCHANT_15):
            assert st.supply[SUP.CARDS, c] == tab.cards[c, CF.COPIES] > 0
    piles = {
        s: {names()["cards"][c]: int(st.supply[SUP.CARDS, c])
            for c in range(tab.cards.shape[0]) if tab.cards[c, CF.SHOP] == s}
        for s in (SHOP.MERCHANT_8, SHOP.MERCHANT_15)
    }  # fmt: skip
    assert piles == {
        SHOP.MERCHANT_8: {"swiftness": 2, "ironskin": 2, "spelunker": 2},
        SHOP.MERCHANT_15: {"endurance": 2, "wrath": 2, "treasure_hunter": 2},
    }
    before = st.supply[SUP.CARDS].copy()
    st.g[G.NPCS] |= 1 << NPC.MERCHANT
    st.chars[0, CH.COINS] = 8
    assert npcs.buy_card_nb(st, tab, 0, -1)
    got = st.deck[0, PILE.DISCARD, st.npile[0, PILE.DISCARD] - 1]
    diff = before - st.supply[SUP.CARDS]
    assert diff[got] == 1 and diff.sum() == 1


# --- resources ---------------------------------------------------------------------------
def test_resource_dice_are_counters_never_rolled():  # TR-002
    st, tab = scene(["..", "c.", "##"])
    put(st, 0, 1, 1)
    rng = st.rng.copy()
    wood, copper = res("wood"), res("copper")
    assert life.inventory_add_nb(st, 0, wood, 7) == 7
    assert life.inventory_take_nb(st, 0, wood, 1) == 1
    st.chars[0, CH.AP] = 2
    assert actions.dig_action_nb(st, tab, 0, TOP + 1, LEFT)  # 1 of copper's 2 dig
    assert actions.dig_action_nb(st, tab, 0, TOP + 1, LEFT)  # finished: +1 Copper
    assert slots(st) == [(wood, 5), (wood, 1), (copper, 1), (0, 0), (0, 0), (0, 0)]
    assert (st.rng == rng).all()  # no die was rolled for any of it
    # each slot is one counter of one type, 0..5
    assert life.inventory_add_nb(st, 0, copper, 9) == 9
    assert slots(st)[:4] == [(wood, 5), (wood, 1), (copper, 5), (copper, 5)]


# --- chests --------------------------------------------------------------------------------
# A hand-made chest deck: Forest cards A, B, C worth 1, 2, 3 coins, a Desert card D worth 10.
A, B, C, D = range(4)


def chest_tables(tab, rewards=None):
    """``tab`` with the chest deck above (or one Forest card per reward in ``rewards``)."""
    if rewards is None:
        biome = [BIOME.FOREST] * 3 + [BIOME.DESERT]
        rewards = [(RK.COINS, 0, 1), (RK.COINS, 0, 2), (RK.COINS, 0, 3), (RK.COINS, 0, 10)]
    else:
        biome = [BIOME.FOREST] * len(rewards)
    rw = np.zeros((len(rewards), LAYERS, RW.N), dtype=np.int16)
    for i, r in enumerate(rewards):
        rw[i, :] = r  # the same reward on every layer
    return replace(tab, chest_biome=np.array(biome, dtype=np.int16), chest_reward=rw)


def chest_scene(value, char_col=1, chest_col=2, biome_right=BIOME.FOREST, rewards=None):
    """A character beside a chest of ``value`` on the Surface.

    Columns 0..5 of the drawing are tile 5 (Forest), columns 6..8 tile 6 (``biome_right``).
    Returns ``(st, tab, r, c)`` with (r, c) the chest's square.
    """
    st, tab = scene([".........", "#########"])
    tab = chest_tables(tab, rewards)
    st.tiles[TP.BIOME, 0, 6] = biome_right
    st.supply[SUP.CHEST, :] = 0
    st.supply[SUP.CHEST, : tab.chest_biome.shape[0]] = 1
    put(st, 0, 0, char_col)
    r, c = TOP, LEFT + chest_col
    st.grid[P.FEAT, r, c] |= FEAT.CHEST
    st.grid[P.VAL, r, c] = value
    st.chars[0, CH.AP] = 1
    return st, tab, r, c


def chest_supply(st, n=4):
    return st.supply[SUP.CHEST, :n].tolist()


def test_a_chest_draws_its_value_from_the_deck_of_the_openers_biome():  # TR-155
    # value 3: all three Forest cards are drawn, so the best (C) is always the one taken
    for seed in range(4):
        st, tab, r, c = chest_scene(3)
        st.rng[:] = new_state(seed, 0)
        assert actions.open_chest_nb(st, tab, 0, r, c)
        assert st.chars[0, CH.COINS] == 3 and chest_supply(st) == [1, 1, 0, 1]
    # the character stands on a Desert tile, the chest on the Forest tile beside it: the
    # Desert deck is used (the biome the character is in, not the chest's)
    st, tab, r, c = chest_scene(3, char_col=6, chest_col=5, biome_right=BIOME.DESERT)
    assert st.tiles[TP.BIOME, 0, (LEFT + 6) // W] == BIOME.DESERT
    assert st.tiles[TP.BIOME, 0, (LEFT + 5) // W] == BIOME.FOREST
    assert actions.open_chest_nb(st, tab, 0, r, c)
    assert st.chars[0, CH.COINS] == 10 and chest_supply(st) == [1, 1, 1, 0]
    # and the other way round: a Forest character opening a chest on a Desert tile
    st, tab, r, c = chest_scene(1, char_col=5, chest_col=6, biome_right=BIOME.DESERT)
    assert actions.open_chest_nb(st, tab, 0, r, c)
    assert st.chars[0, CH.COINS] in (1, 2, 3) and chest_supply(st)[D] == 1
    assert sum(chest_supply(st)[:3]) == 2
    # value 1 draws one card (any of the three); value 2 draws two (never A, the worst)
    taken1, taken2 = set(), set()
    for seed in range(12):
        for value, taken in ((1, taken1), (2, taken2)):
            st, tab, r, c = chest_scene(value)
            st.rng[:] = new_state(seed, 0)
            assert actions.open_chest_nb(st, tab, 0, r, c)
            taken.add(int(st.chars[0, CH.COINS]))
            assert sum(chest_supply(st)[:3]) == 2  # one card left the game, the rest back
    assert taken1 == {1, 2, 3} and taken2 == {2, 3}


def test_a_chest_with_too_few_cards_left_draws_what_remains():  # TR-160 (open)
    st, tab, r, c = chest_scene(3)
    st.supply[SUP.CHEST, B] = 0  # B and C already gone: only A is left in the Forest deck
    st.supply[SUP.CHEST, C] = 0
    assert actions.open_chest_nb(st, tab, 0, r, c)
    assert st.chars[0, CH.COINS] == 1 and chest_supply(st) == [0, 0, 0, 1]
    # an empty deck: the chest is opened for nothing (the action point is spent)
    st.chars[0, CH.AP] = 1
    r2, c2 = r, c - 2
    st.grid[P.FEAT, r2, c2] |= FEAT.CHEST
    st.grid[P.VAL, r2, c2] = 2
    assert actions.open_chest_nb(st, tab, 0, r2, c2)
    assert st.chars[0, CH.AP] == 0 and st.chars[0, CH.COINS] == 1
    assert st.grid[P.FEAT, r2, c2] & FEAT.OPENED and st.cnt[CNT.CHESTS] == 2
    assert chest_supply(st) == [0, 0, 0, 1]
    # cards drawn and not taken go back and can be drawn again
    st, tab, r, c = chest_scene(3)
    assert actions.open_chest_nb(st, tab, 0, r, c)  # takes C; A and B go back
    assert chest_supply(st) == [1, 1, 0, 1]
    st.chars[0, CH.AP] = 1
    st.grid[P.FEAT, r, c - 2] |= FEAT.CHEST
    st.grid[P.VAL, r, c - 2] = 2
    assert actions.open_chest_nb(st, tab, 0, r, c - 2)  # A and B again: takes B
    assert st.chars[0, CH.COINS] == 3 + 2 and chest_supply(st) == [1, 0, 0, 1]


def open_one(reward, coins=0, inv=None):
    """Open a value-1 chest whose only card gives ``reward``; returns the state."""
    st, tab, r, c = chest_scene(1, rewards=[reward])
    st.chars[0, CH.COINS] = coins
    if inv is not None:
        st.inv[0, : len(inv)] = inv
    crowd_teammates(st)
    assert actions.open_chest_nb(st, tab, 0, r, c)
    return st, tab


def test_chest_rewards_follow_their_normal_rules():  # TR-159
    wood, stone, gel = res("wood"), res("stone"), res("gel")
    # coins up to the 25 cap
    st, _ = open_one((RK.COINS, 0, 30), coins=10)
    assert st.chars[0, CH.COINS] == 25 and st.cnt[CNT.COINS] == 15
    # resources into the inventory slots: a part-filled slot first, then a free one
    st, _ = open_one((RK.RESOURCE, wood, 4), inv=[(wood, 3)])
    assert slots(st)[:3] == [(wood, 5), (wood, 2), (0, 0)] and st.cnt[CNT.RES + wood] == 4
    # a new type with no free slot replaces the type with fewest units, if it loses less
    full = [(stone, 5), (gel, 1), (stone, 5), (stone, 5)]
    st, _ = open_one((RK.RESOURCE, wood, 3), inv=full)
    assert slots(st)[:4] == [(stone, 5), (wood, 3), (stone, 5), (stone, 5)]
    st, _ = open_one((RK.RESOURCE, wood, 1), inv=full)  # 1 Wood for 1 Gel: declined
    assert slots(st)[:4] == full and st.cnt[CNT.RES + wood] == 0
    # an action card of that level (a random one left, tests/test_terraria_fixes.py) to
    # the discard pile
    st, tab = open_one((RK.CHEST_CARD, 1, 1))
    card = st.deck[0, PILE.DISCARD, 0]
    assert st.npile[0, PILE.DISCARD] == 1
    assert tab.cards[card, CF.SHOP] == SHOP.CHEST and tab.cards[card, CF.LEVEL] == 1
    assert st.npile[0, PILE.HAND] == 0 and st.npile[0, PILE.DRAW] == 8
    assert st.supply[SUP.CARDS, card] == tab.cards[card, CF.COPIES] - 1
    # equipment on top of its slot, armor worn, a consumable held
    pick = ident("equipment", "iron_pickaxe")
    st, tab = open_one((RK.EQUIP, pick, 1))
    assert st.chars[0, CH.PICK] == pick and st.owned[0, pick] == 1
    assert st.owned[0, ident("equipment", "copper_pickaxe")] == 1  # the old one is kept
    wood_armor = ident("armor", "wood")
    st, tab = open_one((RK.ARMOR, wood_armor, 1))
    assert st.chars[0, CH.ARMOR] == wood_armor
    assert st.owned[0, tab.equip.shape[0] + wood_armor] == 1
    potion = ident("consumables", "healing_potion")
    st, tab = open_one((RK.CONSUMABLE, potion, 1))
    assert st.held[0, potion] == 1
    assert st.supply[SUP.CONSUMABLE, potion] == tab.consumables[potion, CO.COPIES] - 1


def test_chest_and_boss_equipment_goes_on_its_slot_like_crafted():  # TR-211
    pick = ident("equipment", "iron_pickaxe")
    spear = ident("equipment", "spear")

    def gear(st, tab):
        return (
            [int(st.chars[0, CH.WEAPON + s]) for s in range(4)],
            int(st.owned[0, pick]),
            int(st.supply[SUP.EQUIP, pick]),
        )

    # crafted
    st, tab = scene([".", "#"])
    put(st, 0, 0, 0)
    st.g[G.STATIONS] = 255
    life.inventory_add_nb(st, 0, res("wood"), 1)
    life.inventory_add_nb(st, 0, res("iron"), 3)
    assert crafting.craft_nb(st, tab, 0, 0, pick)
    crafted = gear(st, tab)
    copies = tab.equip[pick, EQ.COPIES]
    start = [int(st.chars[0, CH.WEAPON]), int(st.chars[0, CH.AXE])]
    assert crafted == (start + [pick, -1], 1, copies - 1)
    # from a chest
    st, tab = open_one((RK.EQUIP, pick, 1))
    assert gear(st, tab) == crafted
    # from a boss's Loot card
    st, tab = scene([".", "#"])
    put(st, 0, 0, 0)
    loot = np.zeros_like(tab.boss_loot)
    loot[0, 0] = (RK.EQUIP, pick, 1)
    tab = replace(tab, boss_loot=loot)
    st.chars[0, CH.BOSS_TOKENS] = 3  # boss 0's wound tokens
    attack.boss_loot_nb(st, tab, 0)
    assert gear(st, tab) == crafted
    # a weapon goes on the Sword slot the same way
    st, tab = open_one((RK.EQUIP, spear, 1))
    assert st.chars[0, CH.WEAPON] == spear and st.owned[0, spear] == 1


# --- chopping and digging --------------------------------------------------------------------
def chop_scene(inv):
    st, tab = scene(["...", ".T.", "###"])  # a tree of chop value 3 at (1, 1)
    put(st, 0, 1, 0)
    st.inv[0, : len(inv)] = inv
    st.chars[0, CH.AP] = 3
    crowd_teammates(st)
    return st, tab


def chop_down(st, tab):
    for _ in range(3):  # the Copper Axe: 1 chop per action point
        assert actions.chop_action_nb(st, tab, 0, TOP + 1, LEFT + 1)
    assert st.chars[0, CH.AP] == 0 and st.grid[P.FEAT, TOP + 1, LEFT + 1] & FEAT.ACORN
    assert st.cnt[CNT.TREES] == 1


def test_wood_from_a_chopped_tree_goes_into_the_choppers_inventory():  # TR-165
    wood, stone, gel = res("wood"), res("stone"), res("gel")
    st, tab = chop_scene([(wood, 4)])
    assert actions.chop_action_nb(st, tab, 0, TOP + 1, LEFT + 1)
    assert actions.chop_action_nb(st, tab, 0, TOP + 1, LEFT + 1)
    assert slots(st)[:2] == [(wood, 4), (0, 0)]  # nothing until the tree is finished
    assert actions.chop_action_nb(st, tab, 0, TOP + 1, LEFT + 1)
    assert slots(st)[:3] == [(wood, 5), (wood, 2), (0, 0)] and st.cnt[CNT.RES + wood] == 3
    assert slots(st, 1) == [(stone, 5)] * 4 + [(0, 0)] * 2  # the other player gets nothing
    # no free slot: the new type replaces the one with fewest units (1 Gel for 3 Wood)
    st, tab = chop_scene([(stone, 5), (gel, 1), (stone, 5), (stone, 5)])
    chop_down(st, tab)
    assert slots(st)[:4] == [(stone, 5), (wood, 3), (stone, 5), (stone, 5)]
    # ... but not at a loss: 3 Wood for 4 Gel is declined (the tree is still chopped)
    full = [(stone, 5), (gel, 4), (stone, 5), (stone, 5)]
    st, tab = chop_scene(full)
    chop_down(st, tab)
    assert slots(st)[:4] == full and st.cnt[CNT.RES + wood] == 0


def test_cacti_are_chopped_like_trees():  # TR-169
    """The Desert's plant is the cactus (``world.toml``); it is a chop square like a tree."""
    data = load_world()
    assert data["biome_terrain"]["desert"]["plant"] == "cactus"
    st, tab, _ = new_game(seed=5)
    st.tiles[TP.KNOWN] = 1  # the whole generated world on the table, no piece on it
    st.pieces[:, :] = 0
    st.pieces[:, PC.SECTION] = -1
    st.grid[P.OCC] = 0
    st.chars[:, CH.IN_WORLD] = 0
    st.g[G.OBJ : G.OBJ + 4] = 10
    h, w = st.grid.shape[1] // LAYERS, st.grid.shape[2] // TILE_COLS
    beside = [
        (int(r), int(c), dc)
        for r, c in zip(*np.nonzero(st.grid[P.FEAT] & FEAT.TREE), strict=True)
        for dc in (-1, 1)
        if st.tiles[TP.BIOME, r // h, c // w] == BIOME.DESERT
        and st.grid[P.SQ, r, c + dc] == SQ.AIR
        and supported_nb(st.grid, st.tiles, r, c + dc)
    ]
    assert len(beside) > 0
    r, c, dc = beside[0]
    put(st, 0, r, c + dc, top=0, left=0)  # a character standing beside the cactus
    assert (st.pieces[0, PC.ROW], st.pieces[0, PC.COL]) == (r, c + dc)
    value = int(st.grid[P.VAL, r, c])
    st.chars[0, CH.AP] = value
    st.inv[0] = 0
    for _ in range(value):
        assert actions.chop_action_nb(st, tab, 0, r, c)
    assert st.grid[P.FEAT, r, c] & FEAT.ACORN and st.cnt[CNT.TREES] == 1
    assert life.inventory_count_nb(st, 0, res("wood")) == value
    st.chars[0, CH.AP] = 1
    assert not actions.chop_action_nb(st, tab, 0, r, c)  # chopped until sunrise
    preparation.preparation_nb(st, tab, 0, np.zeros(16))
    assert not st.grid[P.FEAT, r, c] & FEAT.ACORN  # regrown like a tree


def dig_scene(inv):
    st, tab = scene(["...", ".c.", "###"])  # a copper block (2 dig) at (1, 1)
    put(st, 0, 1, 0)
    st.inv[0, : len(inv)] = inv
    st.chars[0, CH.AP] = 2
    crowd_teammates(st)
    return st, tab


def test_a_finished_icon_block_adds_one_to_the_diggers_die():  # TR-174
    copper, stone, gel = res("copper"), res("stone"), res("gel")
    st, tab = dig_scene([(copper, 4)])
    assert tab.res_dig[copper] == 2
    assert actions.dig_action_nb(st, tab, 0, TOP + 1, LEFT + 1)
    assert slots(st)[:2] == [(copper, 4), (0, 0)] and st.grid[P.PROG, TOP + 1, LEFT + 1] == 1
    assert actions.dig_action_nb(st, tab, 0, TOP + 1, LEFT + 1)
    assert slots(st)[:2] == [(copper, 5), (0, 0)] and st.cnt[CNT.RES + copper] == 1
    assert st.grid[P.SQ, TOP + 1, LEFT + 1] == SQ.AIR and st.cnt[CNT.BLOCKS_DUG] == 1
    # a full die: the next unit goes into a free slot
    st, tab = dig_scene([(copper, 5)])
    for _ in range(2):
        assert actions.dig_action_nb(st, tab, 0, TOP + 1, LEFT + 1)
    assert slots(st)[:2] == [(copper, 5), (copper, 1)]
    # no free slot and every held type has at least 1 unit: the unit is declined
    full = [(stone, 5), (gel, 1), (stone, 5), (stone, 5)]
    st, tab = dig_scene(full)
    for _ in range(2):
        assert actions.dig_action_nb(st, tab, 0, TOP + 1, LEFT + 1)
    assert slots(st)[:4] == full and st.cnt[CNT.RES + copper] == 0
    assert st.cnt[CNT.BLOCKS_DUG] == 1


@pytest.mark.parametrize(
    ("flag", "resource", "evil", "boss"),
    [
        (FEAT.LARVA, "bee_larva", 0, "queen_bee"),
        (FEAT.ORB, "shadow_orb", 0, "eater_of_worlds"),
        (FEAT.ORB, "crimson_heart", 1, "brain_of_cthulhu"),
    ],
)
def test_boss_objects_are_dug_like_blocks(flag, resource, evil, boss):
    # TR-183 (open): dig while adjacent, the dig cost is the object's resource's (data)
    st, tab = scene(["....", "..#.", "####"])
    r, c = TOP + 1, LEFT + 2
    rid = res(resource)
    st.grid[P.RES, r, c] = rid
    st.grid[P.FEAT, r, c] |= flag
    st.g[G.EVIL] = evil
    cost = int(tab.res_dig[rid])
    assert cost == {"bee_larva": 2, "shadow_orb": 3, "crimson_heart": 3}[resource]
    put(st, 1, 1, 0)  # two squares away: not adjacent
    st.chars[1, CH.AP] = cost
    assert not actions.dig_action_nb(st, tab, 1, r, c)
    assert st.chars[1, CH.AP] == cost and st.grid[P.PROG, r, c] == 0
    put(st, 0, 1, 1)
    st.chars[0, CH.AP] = cost
    for k in range(cost):
        assert st.g[G.PENDING] == 0 and st.grid[P.SQ, r, c] == SQ.BLOCK
        assert actions.dig_action_nb(st, tab, 0, r, c)
        assert st.grid[P.PROG, r, c] == (k + 1) % cost
    b = names()["bosses"].index(boss)
    assert st.grid[P.SQ, r, c] == SQ.AIR and st.grid[P.FEAT, r, c] & FEAT.TUNNEL
    assert not st.grid[P.FEAT, r, c] & flag
    assert st.g[G.PENDING] == 1 << b and st.chars[0, CH.AP] == 0
    assert slots(st) == [(0, 0)] * 6 and st.cnt[CNT.BLOCKS_DUG] == 1  # structural


# --- houses ----------------------------------------------------------------------------------
WORKBENCH_ROWS = [".......", ".......", ".......", "#######"]


def house_scene(rows=WORKBENCH_ROWS, i=2, j=2, top=TOP, left=LEFT):
    """Character 0 at (i, j) of ``rows`` with the Wood for the workbench house."""
    st, tab = scene(rows, top=top, left=left)
    put(st, 0, i, j, top=top, left=left)
    life.inventory_add_nb(st, 0, res("wood"), 5)
    return st, tab, ident("houses", "workbench")


def test_a_house_may_cover_platforms():  # TR-236
    """A platform does not stop a house; under it the house's own floor is walked on."""
    st, tab, hid = house_scene()
    assert actions.place_platform_action_nb(st, tab, 0, 5)  # up-right: the floor of (1, 3)
    assert st.grid[P.FEAT, TOP + 1, LEFT + 3] == FEAT.PLATFORM
    assert st.cnt[CNT.PLATFORMS] == 1
    assert crafting.build_house_nb(st, tab, 0, hid, TOP + 1, LEFT + 3)
    for i, j in ((1, 3), (1, 4), (2, 3), (2, 4)):
        assert st.grid[P.FEAT, TOP + i, LEFT + j] == FEAT.HOUSE | FEAT.PLATFORM


def test_acorns_covered_by_a_house_go_back():  # TR-238
    st, tab, hid = house_scene(["T......", "...T...", "...T...", "#######"], i=2, j=2)
    for j in (0, 3):
        for i in range(3):
            if st.grid[P.FEAT, TOP + i, LEFT + j] & FEAT.TREE:
                st.grid[P.FEAT, TOP + i, LEFT + j] |= FEAT.ACORN
    assert crafting.build_house_nb(st, tab, 0, hid, TOP + 1, LEFT + 3)
    for i in (1, 2):  # under the house: the Acorns are gone
        assert st.grid[P.FEAT, TOP + i, LEFT + 3] == FEAT.TREE | FEAT.HOUSE | FEAT.PLATFORM
    assert st.grid[P.FEAT, TOP, LEFT] == FEAT.TREE | FEAT.ACORN  # elsewhere they stay


@pytest.mark.parametrize("layer", range(LAYERS))
def test_a_house_can_be_built_in_a_dug_tunnel_on_any_layer(layer):  # TR-239
    rows = ["######", "#.####", "#.####", "######"]
    top = layer * H + 1
    st, tab, hid = house_scene(rows, i=2, j=1, top=top)
    st.chars[0, CH.AP] = 6
    assert not crafting.build_house_nb(st, tab, 0, hid, top + 1, LEFT + 2)  # solid rock
    for i, j in ((1, 2), (2, 2)):
        assert actions.dig_action_nb(st, tab, 0, top + i, LEFT + j)
    assert actions.step_action_nb(st, tab, 0, 0, 1)
    for i, j in ((1, 3), (2, 3)):
        assert actions.dig_action_nb(st, tab, 0, top + i, LEFT + j)
    assert actions.step_action_nb(st, tab, 0, 0, -1)
    assert st.chars[0, CH.AP] == 0 and at(st, 0, top=top) == (2, 1)
    assert crafting.build_house_nb(st, tab, 0, hid, top + 1, LEFT + 2)
    assert (st.house_at[0, HA.ROW], st.house_at[0, HA.COL]) == (top + 1, LEFT + 2)
    assert (top + 1) // H == layer
    for i, j in ((1, 2), (1, 3), (2, 2), (2, 3)):
        f = st.grid[P.FEAT, top + i, LEFT + j]
        assert f == FEAT.TUNNEL | FEAT.HOUSE | FEAT.PLATFORM


def built_house():
    st, tab, hid = house_scene()
    assert crafting.build_house_nb(st, tab, 0, hid, TOP + 1, LEFT + 3)
    return st, tab


def house_squares(st):
    return [
        (i, j)
        for i in range(st.grid.shape[1])
        for j in range(st.grid.shape[2])
        if st.grid[P.FEAT, i, j] & FEAT.HOUSE
    ]


def test_a_house_never_moves():  # TR-240
    """Its tile stays put even when the ground under it is dug away (houses have no weight)."""
    st, tab = built_house()
    where = house_squares(st)
    assert where == [(TOP + i, LEFT + j) for i in (1, 2) for j in (3, 4)]
    st.chars[0, CH.AP] = 3
    assert actions.dig_action_nb(st, tab, 0, TOP + 3, LEFT + 3)  # the blocks under the house
    assert actions.step_action_nb(st, tab, 0, 0, 1)  # into the house
    assert actions.dig_action_nb(st, tab, 0, TOP + 3, LEFT + 4)
    assert st.grid[P.SQ, TOP + 3, LEFT + 3] == st.grid[P.SQ, TOP + 3, LEFT + 4] == SQ.AIR
    assert at(st, 0) == (2, 3)  # the house's floor holds the character up
    st.g[G.ROUND] = 1
    cleanup.cleanup_nb(st, tab)
    st.g[G.TIME] = 0
    preparation.preparation_nb(st, tab, 0, np.zeros(16))
    assert house_squares(st) == where
    assert st.house_at[0, [HA.ROW, HA.COL]].tolist() == [TOP + 1, LEFT + 3]


def test_a_houses_floors_and_roof_are_walked_on_like_platforms():  # TR-241
    st, tab = built_house()
    st.g[G.FALL_DAMAGE] = 0  # the last step falls off the roof: no roll wanted here
    st.chars[0, CH.AP] = 4
    assert actions.step_action_nb(st, tab, 0, -1, 1)  # up into the house's upper storey
    assert at(st, 0) == (1, 3)  # it stands on the floor between the storeys
    assert actions.step_action_nb(st, tab, 0, -1, 1)  # up onto the roof
    assert at(st, 0) == (0, 4)  # it stands on the roof
    assert actions.step_action_nb(st, tab, 0, 0, -1)  # along the roof
    assert at(st, 0) == (0, 3)
    assert actions.step_action_nb(st, tab, 0, 0, -1)  # off the roof: a fall to the ground
    assert at(st, 0) == (2, 2) and st.chars[0, CH.AP] == 0


def test_characters_walk_through_a_house_door_to_door():  # TR-242
    st, tab = built_house()
    st.chars[0, CH.AP] = 3
    for j in (3, 4, 5):  # in by the left door, through, out by the right door
        assert actions.step_action_nb(st, tab, 0, 0, 1)
        assert at(st, 0) == (2, j)
    assert st.chars[0, CH.AP] == 0


# --- NPCs and shops ----------------------------------------------------------------------
def free_house(st):
    st.g[G.HOUSES] = 1
    st.g[G.FREE_HOUSES] = 1
    st.house_at[0, HA.ID] = 0
    st.house_at[0, HA.NPC] = -1


def test_merchant_cards_come_off_the_top_of_a_face_down_pile():  # TR-374 (open)
    first = set()
    for seed in range(8):
        st, tab, _ = new_game(seed=seed)
        st.g[G.NPCS] |= 1 << NPC.MERCHANT
        bought = []
        for _ in range(6):  # the whole 8-coin pile
            st.chars[0, CH.COINS] = 8
            assert npcs.buy_card_nb(st, tab, 0, -1)
            assert st.chars[0, CH.COINS] == 0
            bought.append(names()["cards"][st.deck[0, PILE.DISCARD, st.npile[0, PILE.DISCARD] - 1]])
        assert sorted(bought) == ["ironskin"] * 2 + ["spelunker"] * 2 + ["swiftness"] * 2
        first.add(bought[0])
        st.chars[0, CH.COINS] = 8
        assert not npcs.buy_card_nb(st, tab, 0, -1)  # the pile is empty
        assert st.chars[0, CH.COINS] == 8
        st.chars[0, CH.COINS] = 15
        assert npcs.buy_card_nb(st, tab, 0, -2) and st.chars[0, CH.COINS] == 0
        card = st.deck[0, PILE.DISCARD, st.npile[0, PILE.DISCARD] - 1]
        assert tab.cards[card, CF.SHOP] == SHOP.MERCHANT_15
    assert first == {"ironskin", "spelunker", "swiftness"}  # drawn at random, not picked


def test_dryad_criteria():  # TR-375
    st, tab, _ = new_game()
    ready = {}
    for b in range(tab.bosses.shape[0]):
        st.g[G.DEFEATED] = 1 << b
        ready[names()["bosses"][b]] = bool(npcs.npc_ready_nb(st, tab, NPC.DRYAD))
    assert ready == {
        "king_slime": False,
        "queen_bee": False,
        "eye_of_cthulhu": True,
        "eater_of_worlds": True,
        "brain_of_cthulhu": True,
        "wall_of_flesh": False,
    }
    assert {tab.bosses[b, BO.SPAWN] for b in range(6) if ready[names()["bosses"][b]]} == {
        BOSS_SPAWN.LENSES,
        BOSS_SPAWN.SHADOW_ORB,
        BOSS_SPAWN.CRIMSON_HEART,
    }
    st.g[G.DEFEATED] = 1 << names()["bosses"].index("brain_of_cthulhu")
    npcs.check_npcs_nb(st, tab)
    assert st.g[G.NPCS] == GUIDE  # no house free
    free_house(st)
    npcs.check_npcs_nb(st, tab)
    assert st.g[G.NPCS] == GUIDE | 1 << NPC.DRYAD and st.house_at[0, HA.NPC] == NPC.DRYAD


def test_demolitionist_criteria():  # TR-381
    st, tab, _ = new_game()
    bomb = ident("consumables", "bomb")
    red = ident("consumables", "red_potion")
    other = ident("consumables", "healing_potion")
    st.held[1, bomb] = 1
    assert not npcs.npc_ready_nb(st, tab, NPC.DEMOLITIONIST)  # no Merchant yet
    st.g[G.NPCS] |= 1 << NPC.MERCHANT
    assert npcs.npc_ready_nb(st, tab, NPC.DEMOLITIONIST)  # any character's bomb
    st.held[1, bomb] = 0
    st.held[0, other] = 3
    assert not npcs.npc_ready_nb(st, tab, NPC.DEMOLITIONIST)
    st.held[0, red] = 1
    assert npcs.npc_ready_nb(st, tab, NPC.DEMOLITIONIST)
    npcs.check_npcs_nb(st, tab)
    assert st.g[G.NPCS] == GUIDE | 1 << NPC.MERCHANT  # no house free
    free_house(st)
    npcs.check_npcs_nb(st, tab)
    assert st.g[G.NPCS] == GUIDE | (1 << NPC.MERCHANT) | (1 << NPC.DEMOLITIONIST)
    assert st.house_at[0, HA.NPC] == NPC.DEMOLITIONIST and st.g[G.FREE_HOUSES] == 0


def test_one_demolitionist_purchase_per_player_per_sunrise():  # TR-383 (open)
    st, tab, _ = new_game(players=3)
    bomb = ident("consumables", "bomb")
    assert tab.consumables[bomb, CO.DEMOLITION] == 10
    st.g[G.NPCS] |= (1 << NPC.MERCHANT) | (1 << NPC.DEMOLITIONIST)
    st.chars[:3, CH.COINS] = [25, 25, 19]
    left = int(st.supply[SUP.CONSUMABLE, bomb])
    assert left >= 3
    preparation.preparation_nb(st, tab, 0, np.zeros(16))
    assert st.held[:3, bomb].tolist() == [1, 1, 0]  # one each though 25 coins pay for two
    assert st.chars[:3, CH.COINS].tolist() == [15, 15, 19]
    assert st.supply[SUP.CONSUMABLE, bomb] == left - 2
    assert st.held[:3].sum() == 2  # nothing else bought


def test_the_nurse_and_the_shops_serve_any_number_of_times_while_coins_last():
    # TR-385 (open)
    st, tab, _ = new_game()
    em = ident("cards", "explore_more")
    price = int(tab.cards[em, CF.PRICE])
    st.chars[0, CH.COINS] = 25
    n = 0
    while npcs.buy_card_nb(st, tab, 0, em):
        n += 1
    assert n == 25 // price and st.chars[0, CH.COINS] == 25 % price
    st.g[G.NPCS] |= (1 << NPC.NURSE) | (1 << NPC.MERCHANT)
    st.chars[0, CH.COINS] = 25
    st.chars[0, CH.TCOIN] = 5
    st.chars[0, CH.HP] = 1
    assert npcs.nurse_nb(st, tab, 0) and st.chars[0, CH.HP] == st.chars[0, CH.MAXHP]
    st.chars[0, CH.HP] = 2
    assert npcs.nurse_nb(st, tab, 0) and st.chars[0, CH.HP] == st.chars[0, CH.MAXHP]
    assert st.chars[0, CH.COINS] + st.chars[0, CH.TCOIN] == 0
    assert not npcs.nurse_nb(st, tab, 0)  # out of coins
    st.chars[0, CH.COINS] = 24
    assert npcs.buy_card_nb(st, tab, 0, -1) and npcs.buy_card_nb(st, tab, 0, -2)
    assert st.chars[0, CH.COINS] == 1
    # a character off the world (dead, waiting to respawn) does not shop
    st.chars[1, CH.IN_WORLD] = 0
    st.chars[1, CH.COINS] = 25
    assert not npcs.buy_card_nb(st, tab, 1, em) and not npcs.nurse_nb(st, tab, 1)


# --- components ---------------------------------------------------------------------------
def test_no_world_holds_more_chests_than_the_23_opened_chest_tokens():  # TR-015
    """The engine marks an opened chest with a flag rather than counting tokens; the tile
    set never puts more than 23 chests into one world, so the tokens never run out."""
    from terraria_helpers import STOCK, STOCK_N, TPL

    def chests(t):
        return int(((TPL[2, t] & FEAT.CHEST) > 0).sum())

    per_biome = [
        sum(chests(STOCK[b, la, k]) for la in range(LAYERS) for k in range(STOCK_N[b, la]))
        for b in range(BIOME.N)
    ]
    start = compile_world(load_world())[3]
    extra = sum(chests(t) for t in start if t not in STOCK[BIOME.FOREST, 0])
    most = sum(per_biome) - min(per_biome[BIOME.CORRUPTION], per_biome[BIOME.CRIMSON]) + extra
    assert most <= 23
    for seed in range(6):
        grid, _, _ = generated(seed, 0)
        assert int(((grid[P.FEAT] & FEAT.CHEST) > 0).sum()) <= most


def test_a_boss_is_as_strong_however_damaged_until_form_b():  # TR-416
    """Parts taken off a boss miniature change nothing: only the Information card's Form B
    does. The boss's dice, movement and abilities depend on its form, not its wounds."""
    st, tab = scene(["......", "######"])
    put(st, 0, 0, 1)
    b = names()["bosses"].index("eye_of_cthulhu")
    st.g[G.PENDING] = 1 << b
    assert bosses.spawn_pending_bosses_nb(st, tab) == 1 << b
    cols = list(range(BO.WOUNDS, BO.DEBUFF + 1))

    def stats():
        return [int(bosses.boss_stat_nb(st, tab, b, col)) for col in cols] + [
            int(v) for v in attack.target_defense_nb(st, tab, BOSS_ROW + b)
        ]

    form_a = stats()
    assert form_a[: len(cols)] == tab.bosses[b, BO.WOUNDS : BO.DEBUFF + 1].tolist()
    fb = BO.FORM_B - BO.WOUNDS
    form_b = tab.bosses[b, BO.WOUNDS + fb : BO.DEBUFF + fb + 1].tolist()
    assert form_b != form_a[: len(cols)]  # the card's Form B does change the boss
    wounds = int(tab.bosses[b, BO.WOUNDS])
    for k in range(wounds - 1):
        assert bosses.wound_boss_nb(st, tab, 0, b, 1) == 0
        assert st.g[G.BOSS_LEFT + b] == wounds - 1 - k and stats() == form_a
    assert bosses.wound_boss_nb(st, tab, 0, b, 1) == 1  # Form B
    assert stats()[: len(cols)] == form_b
    assert bosses.wound_boss_nb(st, tab, 0, b, 1) == 0
    assert stats()[: len(cols)] == form_b


# --- remembered line of sight ------------------------------------------------------------
def test_the_sight_epoch_moves_with_every_dig_house_and_discovery():  # TR-266, TR-246
    # the engine remembers line-of-sight answers per epoch (``sight.sees_memo_nb``): every
    # change to what blocks sight must give a new epoch, or a stale answer would be used
    st, tab = scene(["..", "c.", "##"])
    put(st, 0, 1, 1)
    st.chars[0, CH.AP] = 2
    e0 = attack.sight_epoch_nb(st)
    assert actions.dig_action_nb(st, tab, 0, TOP + 1, LEFT)  # 1 of copper's 2 dig: no change
    assert attack.sight_epoch_nb(st) == e0
    assert actions.dig_action_nb(st, tab, 0, TOP + 1, LEFT)  # dug out: open air now
    e1 = attack.sight_epoch_nb(st)
    assert e1 != e0
    st.tiles[TP.KNOWN, 4, 0] = 0  # a tile position not yet discovered...
    e2 = attack.sight_epoch_nb(st)
    st.tiles[TP.KNOWN, 4, 0] = 1  # ...discovered
    assert attack.sight_epoch_nb(st) != e2
    st2, tab2, _ = new_game()
    hid = ident("houses", "workbench")
    r, c = _clear_area(st2, 0)
    life.inventory_add_nb(st2, 1, res("wood"), 5)
    e3 = attack.sight_epoch_nb(st2)
    w, h = tab2.houses[hid, 0], tab2.houses[hid, 1]
    assert any(crafting.build_house_nb(st2, tab2, 0, hid, r - h + 1, cc) for cc in (c + 1, c - w))
    assert attack.sight_epoch_nb(st2) != e3  # house squares block sight (TR-246)


def test_the_invariant_check_finds_a_stale_sight_answer():
    st, tab, _ = new_game()
    checks.check_invariants_nb(st, tab)
    cols = st.grid.shape[2]
    a = (int(st.pieces[0, PC.ROW]), int(st.pieces[0, PC.COL]))
    b = (a[0], a[1] + 3)
    truth = sight.sees_nb(st.grid, st.tiles, a[0], a[1], b[0], b[1])
    epoch = attack.sight_epoch_nb(st)
    st.seen[0] = (a[0] * cols + a[1], b[0] * cols + b[1], epoch, 1 - int(truth))
    with pytest.raises(ValueError, match="line of sight"):
        checks.check_invariants_nb(st, tab)
    st.seen[0, 3] = int(truth)
    checks.check_invariants_nb(st, tab)
    st.seen[0] = (a[0] * cols + a[1], b[0] * cols + b[1], epoch - 1, 1 - int(truth))
    checks.check_invariants_nb(st, tab)  # another epoch's answer is never read
