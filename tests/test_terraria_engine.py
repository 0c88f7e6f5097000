"""Terraria engine: setup, the round, the player's actions, crafting, houses, NPCs, objectives.

Scenario tests on a real game set up by ``setup.setup_nb`` from the default content, with
the state edited by hand where a scenario needs it. Each test cites the checklist lines it
checks.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest

from simlib.games.terraria import GAME
from simlib.games.terraria.compile import table_names
from simlib.games.terraria.engine import (
    actions,
    attack,
    cards,
    cleanup,
    crafting,
    enemy_turn,
    life,
    npcs,
    preparation,
    rewards,
    setup,
)
from simlib.games.terraria.state import (
    BO,
    BOSS_ROW,
    BOSS_SPAWN,
    CF,
    CH,
    CNT,
    EQ,
    FEAT,
    HA,
    KIND,
    LAYERS,
    NPC,
    OB,
    OUT,
    PC,
    PILE,
    RK,
    ROLE,
    RU,
    SQ,
    STATION,
    SUP,
    TILE_COLS,
    TP,
    TT,
    G,
    P,
)

GUIDE = 1 << NPC.GUIDE  # spawned from setup (TR-069)


@functools.cache
def _compiled(mode="standard", players=2, chains=2):
    vals = GAME.resolve(None, {"mode": mode, "players": players, "chains_needed": chains})
    return GAME.compile(vals)


@functools.cache
def names():
    return table_names()


def ident(table, name):
    return names()[table].index(name)


def new_game(seed=3, index=0, **kw):
    tab, cfg = _compiled(**kw)
    st = setup.alloc_state_nb(tab)
    setup.setup_nb(st, tab, cfg, np.uint64(seed), index)
    return st, tab, cfg


def give(st, p, res_name, n):
    from simlib.games.terraria.engine import life

    return life.inventory_add_nb(st, p, ident("resources", res_name), n)


# --- setup --------------------------------------------------------------------------------------
def test_setup_characters_decks_and_pools():
    # TR-036, TR-037, TR-041, TR-048, TR-051, TR-052, TR-053, TR-054, TR-067, TR-068, TR-185,
    # TR-287
    st, tab, cfg = new_game()
    g = st.g
    assert g[G.TOKENS] == 7 and g[G.TOMBS] == 4 and g[G.TIME] == 0 and g[G.DAY] == 1
    assert tab.time_track[0, TT.SUNRISE] == 1  # the token starts on the sunrise space
    h = st.grid.shape[1] // LAYERS
    w = st.grid.shape[2] // TILE_COLS
    for p in range(2):
        ch = st.chars[p]
        assert ch[CH.HP] == ch[CH.MAXHP] == 5 and ch[CH.SLOTS] == 4 and ch[CH.COINS] == 0
        assert cards.cards_held_nb(st, p) == 8 and st.npile[p, PILE.DRAW] == 8
        assert st.pieces[p, PC.KIND] == KIND.CHARACTER
        r, c = st.pieces[p, PC.ROW], st.pieces[p, PC.COL]
        assert st.grid[P.FEAT, r, c] & FEAT.BUTTERFLY  # TR-053
        assert r // h == 0 and c // w == 8  # the central Surface Forest tile
        for s, slot in enumerate(("copper_shortsword", "copper_axe", "copper_pickaxe")):
            assert names()["equipment"][ch[CH.WEAPON + s]] == slot  # TR-051
    assert (st.pieces[0, PC.ROW], st.pieces[0, PC.COL]) != (
        st.pieces[1, PC.ROW],
        st.pieces[1, PC.COL],
    )
    assert st.tiles[TP.KNOWN].sum() == 4  # the 3 Surface Forest tiles and the Underground one


def test_setup_places_the_two_starting_enemies():  # TR-039
    st, tab, cfg = new_game()
    enemies = [k for k in range(4, st.pieces.shape[0]) if st.pieces[k, PC.KIND] != KIND.NONE]
    assert len(enemies) == 2
    h = st.grid.shape[1] // LAYERS
    for k in enemies:
        assert st.pieces[k, PC.ROLE] == ROLE.ENEMY
        # a Forest Surface day token (tray section 0 = Forest x Surface), on a spawn square
        s, slot = st.pieces[k, PC.SECTION], st.pieces[k, PC.TSLOT]
        assert s == 0 and tab.tray_night[s, slot] == 0 and st.tray[s, slot] == 1
        r, c = st.pieces[k, PC.ROW], st.pieces[k, PC.COL]
        assert r // h == 0 and st.grid[P.FEAT, r, c] & FEAT.SPAWN


def test_the_starting_hand_limit_is_four():  # TR-092, TR-047, TR-207
    # "At the start of the game, a player's hand limit is 4 cards", whatever the character
    st, tab, cfg = new_game()
    for card in range(tab.characters.shape[0]):
        st.chars[0, CH.CARD] = card
        assert cards.hand_limit_nb(st, tab, 0) == 4
    assert cards.draw_hand_nb(st, 0, cards.hand_limit_nb(st, tab, 0), False) == 4
    # an equipment card's draw bonus counts only on top of its slot (data: +1)
    shackle = ident("equipment", "shackle")
    assert tab.equip[shackle, EQ.DRAW] == 1
    st.chars[1, CH.OTHER] = shackle
    assert cards.hand_limit_nb(st, tab, 1) == 5


def test_journey_mode_setup():  # TR-430..434
    st, tab, cfg = new_game(mode="journey")
    assert st.g[G.TOMBS] == -1 and st.g[G.TOKENS] == 9 and st.g[G.FALL_DAMAGE] == 0
    for p in range(2):
        ch = st.chars[p]
        got = {names()["equipment"][ch[CH.WEAPON + s]] for s in range(3)}
        assert got == {"iron_shortsword", "iron_axe", "iron_pickaxe"}
        assert ch[CH.ROPES] == 2


@pytest.mark.parametrize("mode", ["standard", "journey"])
@pytest.mark.parametrize("players", [2, 4])
def test_the_starting_equipment_comes_out_of_the_supply(mode, players):  # TR-432, TR-051
    # Journey's Iron Shortsword, Axe and Pickaxe are the supply's cards (4 copies each in the
    # default data), not new ones: what the players hold is one fewer to craft each
    st, tab, cfg = new_game(mode=mode, players=players)
    start = tab.start_equip[1 if mode == "journey" else 0]
    for e in start:
        assert int(st.owned[:players, e].sum()) == players
        assert st.supply[SUP.EQUIP, e] == tab.equip[e, EQ.COPIES] - players
    others = [e for e in range(tab.equip.shape[0]) if e not in set(start.tolist())]
    np.testing.assert_array_equal(st.supply[SUP.EQUIP, others], tab.equip[others, EQ.COPIES])
    if mode == "journey":  # with all 4 iron sets out, no player can craft an Iron Axe
        axe = ident("equipment", "iron_axe")
        assert (st.supply[SUP.EQUIP, axe] == 0) == (players == 4)


def test_a_supply_too_small_for_the_starting_equipment_is_refused():  # TR-432
    from simlib.errors import SimlibInputError
    from simlib.games.terraria import settings
    from simlib.games.terraria.compile import check_start_equipment

    tab, _ = GAME.compile(GAME.resolve(None, {"mode": "journey"}))  # a fresh copy
    eff = settings.effective(GAME.resolve(None, {"mode": "journey", "players": 4}))
    check_start_equipment(tab, eff, "default")  # 4 copies each: enough
    tab.equip[ident("equipment", "iron_axe"), EQ.COPIES] = 3
    with pytest.raises(SimlibInputError, match=r"start_equipment\.journey .*'iron_axe' .*3 copies"):
        check_start_equipment(tab, eff, "default")
    eff = settings.effective(GAME.resolve(None, {"mode": "journey", "players": 3}))
    check_start_equipment(tab, eff, "default")


def test_sundial_and_horseshoe():  # TR-436, TR-437
    st, _, _ = new_game(mode="enchanted_sundial")
    assert st.g[G.TOKENS] == 5 and st.g[G.FALL_DAMAGE] == 1
    st, _, _ = new_game(mode="lucky_horseshoe")
    assert st.g[G.TOKENS] == 7 and st.g[G.FALL_DAMAGE] == 0


# --- time -----------------------------------------------------------------------------------
def test_sunrise_discards_a_time_token_and_the_last_ends_the_game():  # TR-080, TR-081, TR-426
    st, tab, cfg = new_game()
    bp = np.zeros(12)
    st.g[G.TIME] = 0
    preparation.preparation_nb(st, tab, 0, bp)
    assert st.g[G.TOKENS] == 6 and st.g[G.DAY] == 2 and st.g[G.OVER] == 0
    st.g[G.TOKENS] = 1
    preparation.preparation_nb(st, tab, 0, bp)
    assert st.g[G.TOKENS] == 0 and st.g[G.OVER] == OUT.OUT_OF_TIME


def test_sunrise_refills_mana_and_regrows_trees():  # TR-082, TR-089
    st, tab, cfg = new_game()
    st.chars[0, CH.MANA] = 0
    rr, cc = np.nonzero(st.grid[P.FEAT] & FEAT.TREE)
    st.grid[P.FEAT, rr[0], cc[0]] |= FEAT.ACORN
    preparation.preparation_nb(st, tab, 0, np.zeros(12))
    assert st.chars[0, CH.MANA] == st.chars[0, CH.MAXMANA]
    assert not st.grid[P.FEAT, rr[0], cc[0]] & FEAT.ACORN


def test_cleanup_advances_the_time_token_and_wraps():  # TR-353, TR-105, TR-104
    st, tab, cfg = new_game()
    n = tab.time_track.shape[0]
    st.g[G.ROUND] = 1
    st.g[G.TIME] = n - 1
    st.chars[0, CH.AP] = 3
    cards.draw_hand_nb(st, 0, 4, False)
    cards.play_card_nb(st, tab, 0, 0, False)
    cleanup.cleanup_nb(st, tab)
    assert st.g[G.TIME] == 0 and st.chars[0, CH.AP] == 0
    assert st.npile[0, PILE.PLAY] == 0 and st.npile[0, PILE.HAND] == 0


# --- objectives ----------------------------------------------------------------------------
def test_objectives_complete_in_order_with_rewards_and_win():
    # TR-059, TR-060, TR-062, TR-063, TR-065, TR-424
    st, tab, cfg = new_game(chains=1)
    o = tab.objectives[0]  # the first Dig objective
    assert o[OB.CHAIN] == 0
    st.cnt[o[OB.COUNTER] + o[OB.PARAM]] = o[OB.AMOUNT] - 1
    rewards.check_objectives_nb(st, tab, 0)
    assert st.g[G.OBJ] == 0
    coins = st.chars[:2, CH.COINS].copy()
    st.cnt[o[OB.COUNTER] + o[OB.PARAM]] = o[OB.AMOUNT]
    rewards.check_objectives_nb(st, tab, 0)
    assert st.g[G.OBJ] >= 1
    if o[OB.REWARD + 0] == RK.COINS and not o[OB.SHARED]:  # an ALL reward: every player
        assert (st.chars[:2, CH.COINS] == coins + o[OB.REWARD + 2]).all()
    # whole-game counters: meeting all ten at once completes the chain and wins Easy
    for i in range(10):
        row = tab.objectives[i]
        st.cnt[row[OB.COUNTER] + row[OB.PARAM]] = max(
            st.cnt[row[OB.COUNTER] + row[OB.PARAM]], row[OB.AMOUNT]
        )
    rewards.check_objectives_nb(st, tab, 0)
    assert st.g[G.OBJ] == 10 and st.g[G.CHAINS] == 1 and st.g[G.OVER] == OUT.WON_OBJECTIVES


def test_medium_needs_two_chains():  # TR-420, TR-422
    st, tab, cfg = new_game(chains=2)
    for i in range(10):
        row = tab.objectives[i]
        st.cnt[row[OB.COUNTER] + row[OB.PARAM]] = max(
            st.cnt[row[OB.COUNTER] + row[OB.PARAM]], row[OB.AMOUNT]
        )
    rewards.check_objectives_nb(st, tab, 0)
    assert st.g[G.CHAINS] == 1 and st.g[G.OVER] == 0


# --- houses, stations, crafting -------------------------------------------------------------
def _clear_area(st, p):
    """Air around character p on its row and the row above, ground below."""
    r, c = st.pieces[p, PC.ROW], st.pieces[p, PC.COL]
    for rr in (r - 1, r):
        for cc in range(c - 3, c + 4):
            if st.grid[P.OCC, rr, cc] == 0:
                st.grid[P.SQ, rr, cc] = SQ.AIR
                st.grid[P.FEAT, rr, cc] &= FEAT.BUTTERFLY | FEAT.SPAWN
    for cc in range(c - 3, c + 4):
        st.grid[P.SQ, r + 1, cc] = SQ.BLOCK
    return r, c


def test_building_the_workbench_house():  # TR-233..236, TR-241, TR-248, TR-198
    st, tab, cfg = new_game()
    hid = ident("houses", "workbench")
    r, c = _clear_area(st, 0)
    st.pieces[1, PC.KIND]  # the other character may donate
    assert not crafting.can_build_nb(st, tab, 0, hid)  # no wood yet
    give(st, 1, "wood", 5)  # all from the other player's inventory (TR-198)
    assert crafting.can_build_nb(st, tab, 0, hid)
    w, h = tab.houses[hid, 0], tab.houses[hid, 1]
    assert not crafting.build_house_nb(st, tab, 0, hid, r - h + 1, c - 20)  # not adjacent
    ok = any(crafting.build_house_nb(st, tab, 0, hid, r - h + 1, cc) for cc in (c + 1, c - w))
    assert ok
    assert st.g[G.STATIONS] & STATION.WORKBENCH and st.cnt[CNT.HOUSES] == 1
    assert st.house_at[0, HA.ID] == hid and st.g[G.FREE_HOUSES] == 1
    hr, hc = st.house_at[0, HA.ROW], st.house_at[0, HA.COL]
    assert st.grid[P.FEAT, hr, hc] & FEAT.HOUSE
    assert not crafting.can_build_nb(st, tab, 0, hid)  # one workbench house (TR-234)


def test_anvil_house_needs_the_workbench():  # TR-249
    st, tab, cfg = new_game()
    hid = ident("houses", "anvil_furnace")
    for res in ("wood", "stone", "iron"):
        give(st, 0, res, 5)
    assert not crafting.can_build_nb(st, tab, 0, hid)
    st.g[G.STATIONS] |= STATION.WORKBENCH
    assert crafting.can_build_nb(st, tab, 0, hid)


def test_crafting_needs_its_station_and_pays_the_recipe():  # TR-200, TR-201, TR-204, TR-213
    st, tab, cfg = new_game()
    axe = ident("equipment", "iron_axe")
    assert tab.equip[axe, EQ.STATION] & STATION.ANVIL  # printed: needs an anvil
    give(st, 0, "wood", 1)
    give(st, 0, "iron", 2)
    assert not crafting.can_craft_nb(st, tab, 0, 0, axe)
    st.g[G.STATIONS] |= STATION.ANVIL | STATION.WORKBENCH
    assert crafting.craft_nb(st, tab, 0, 0, axe)
    from simlib.games.terraria.engine import life

    assert life.inventory_count_nb(st, 0, ident("resources", "iron")) == 0
    assert st.chars[0, CH.AXE] == axe and st.cnt[CNT.CRAFTED] == 1  # TR-206
    wood = ident("armor", "wood")
    give(st, 0, "wood", 1)
    assert crafting.craft_nb(st, tab, 0, 1, wood) and st.chars[0, CH.ARMOR] == wood  # TR-214


def test_a_non_craftable_card_is_never_crafted():  # TR-203
    st, tab, cfg = new_game()
    st.g[G.STATIONS] = 255
    for e in range(tab.equip.shape[0]):
        if not tab.equip[e, EQ.CRAFTABLE]:
            assert not crafting.can_craft_nb(st, tab, 0, 0, e)


# --- NPCs -------------------------------------------------------------------------------------
def test_npcs_need_their_criteria_and_a_free_house():  # TR-364..366, TR-370, TR-372
    st, tab, cfg = new_game()
    st.chars[0, CH.COINS] = 10
    st.g[G.DIED] = 1
    npcs.check_npcs_nb(st, tab)
    assert st.g[G.NPCS] == GUIDE  # no house: only the Guide, spawned from setup (TR-069)
    st.g[G.HOUSES] = 1
    st.g[G.FREE_HOUSES] = 1
    st.house_at[0, HA.ID] = 0
    st.house_at[0, HA.NPC] = -1
    npcs.check_npcs_nb(st, tab)
    assert st.g[G.NPCS] == GUIDE | 1 << NPC.NURSE and st.g[G.FREE_HOUSES] == 0  # Nurse first
    st.g[G.FREE_HOUSES] = 1
    st.chars[0, CH.COINS] = 0
    npcs.check_npcs_nb(st, tab)
    assert not st.g[G.NPCS] & (1 << NPC.MERCHANT)  # criteria read at cleanup (TR-367)
    st.chars[1, CH.COINS] = 10
    npcs.check_npcs_nb(st, tab)
    assert st.g[G.NPCS] & (1 << NPC.MERCHANT)
    assert st.cnt[CNT.NPC + NPC.MERCHANT] == 1


def test_goblin_tinkerer_needs_the_six_forest_cavern_tiles():  # TR-379
    st, tab, cfg = new_game()
    assert not npcs.npc_ready_nb(st, tab, NPC.GOBLIN)
    st.tiles[TP.KNOWN, 2:4, 7:10] = 1
    assert npcs.npc_ready_nb(st, tab, NPC.GOBLIN)


# --- buying, slots, nurse ---------------------------------------------------------------------
def test_guide_and_merchant_cards():  # TR-071, TR-072, TR-096, TR-369, TR-373
    st, tab, cfg = new_game()
    em = ident("cards", "explore_more")
    price = tab.cards[em, CF.PRICE]
    st.chars[0, CH.COINS] = price
    assert npcs.buy_card_nb(st, tab, 0, em)
    assert st.chars[0, CH.COINS] == 0
    assert em in st.deck[0, PILE.DISCARD, : st.npile[0, PILE.DISCARD]]
    st.chars[0, CH.COINS] = 25
    assert not npcs.buy_card_nb(st, tab, 0, -1)  # no Merchant yet
    st.g[G.NPCS] |= 1 << NPC.MERCHANT
    assert npcs.buy_card_nb(st, tab, 0, -1) and st.chars[0, CH.COINS] == 17


def test_card_coins_are_spent_before_the_dial():  # TR-101
    st, tab, cfg = new_game()
    em = ident("cards", "explore_more")
    st.chars[0, CH.TCOIN] = 2
    st.chars[0, CH.COINS] = tab.cards[em, CF.PRICE]
    assert npcs.buy_card_nb(st, tab, 0, em)
    assert st.chars[0, CH.TCOIN] == 0 and st.chars[0, CH.COINS] == 2


def test_inventory_slots_are_bought_in_order():  # TR-186, TR-187
    st, tab, cfg = new_game()
    st.chars[0, CH.COINS] = 25
    assert npcs.buy_slot_nb(st, tab, 0) and st.chars[0, CH.SLOTS] == 5
    assert st.chars[0, CH.COINS] == 25 - tab.rules[RU.SLOT5_PRICE]
    assert not npcs.buy_slot_nb(st, tab, 0)  # 25 for the 6th
    st.chars[0, CH.COINS] = 25
    assert npcs.buy_slot_nb(st, tab, 0) and st.chars[0, CH.SLOTS] == 6
    assert not npcs.buy_slot_nb(st, tab, 0)


def test_the_nurse_heals_and_scraps_debuffs():  # TR-371
    st, tab, cfg = new_game()
    poison = next(c for c in range(tab.cards.shape[0]) if tab.cards[c, CF.SHOP] == 5)
    cards.push_debuff_nb(st, 0, poison)
    st.chars[0, CH.HP] = 1
    st.chars[0, CH.COINS] = 15
    assert not npcs.nurse_nb(st, tab, 0)  # not spawned
    st.g[G.NPCS] |= 1 << NPC.NURSE
    assert npcs.nurse_nb(st, tab, 0)
    assert st.chars[0, CH.HP] == st.chars[0, CH.MAXHP] and st.chars[0, CH.COINS] == 0
    assert cards.cards_held_nb(st, 0) == 8


def test_coins_cap_at_25():  # TR-195, TR-196
    st, tab, cfg = new_game()
    rewards.gain_coins_nb(st, 0, 40)
    assert st.chars[0, CH.COINS] == 25


# --- actions --------------------------------------------------------------------------------
def test_a_step_costs_an_action_point():  # TR-098, TR-113
    st, tab, cfg = new_game()
    assert not actions.step_action_nb(st, tab, 0, 0, 1)  # no action points
    st.chars[0, CH.AP] = 1
    moved = actions.step_action_nb(st, tab, 0, 0, 1) or actions.step_action_nb(st, tab, 0, 0, -1)
    assert moved and st.chars[0, CH.AP] == 0


def test_a_step_onto_a_new_tile_spawns_on_its_spawn_points():  # TR-308, TR-144, TR-145
    st, tab, cfg = new_game()
    h = st.grid.shape[1] // LAYERS
    w = st.grid.shape[2] // TILE_COLS
    r, c = st.pieces[0, PC.ROW], st.pieces[0, PC.COL]
    assert c // w == 8 and st.tiles[TP.KNOWN, 0, 6] == 0 and st.tiles[TP.KNOWN, 1, 7] == 0
    # clear level ground from the character to the first column of tile 7
    for cc in range(7 * w + w - 1, c):
        st.grid[P.SQ, r, cc] = SQ.AIR
        st.grid[P.SQ, r + 1, cc] = SQ.BLOCK
        assert st.grid[P.OCC, r, cc] == 0
    new_tiles = ((0, 6), (1, 7))  # entering tile (0, 7): the gaps left of it and below it
    points = [
        (rr, cc)
        for la, tc in new_tiles
        for rr in range(la * h, la * h + h)
        for cc in range(tc * w, tc * w + w)
        if st.grid[P.FEAT, rr, cc] & FEAT.SPAWN and st.grid[P.SQ, rr, cc] != SQ.BLOCK
    ]
    assert len(points) >= 2
    before = {k for k in range(4, st.pieces.shape[0]) if st.pieces[k, PC.KIND] != KIND.NONE}
    st.chars[0, CH.AP] = c - (7 * w + w - 1)
    for _ in range(c - (7 * w + w - 1)):
        assert actions.step_action_nb(st, tab, 0, 0, -1)
    assert st.pieces[0, PC.COL] // w == 7
    assert all(st.tiles[TP.KNOWN, la, tc] for la, tc in new_tiles)
    new = {k for k in range(4, st.pieces.shape[0]) if st.pieces[k, PC.KIND] != KIND.NONE}
    new -= before
    # at once, one token on each spawn point of the new tiles (a walker may drop below it)
    assert len(new) == len(points)
    got = sorted((int(st.pieces[k, PC.SECTION]) % LAYERS, int(st.pieces[k, PC.COL])) for k in new)
    assert got == sorted((rr // h, cc) for rr, cc in points)


def test_opening_a_chest():  # TR-154, TR-157, TR-158
    st, tab, cfg = new_game()
    r, c = st.pieces[0, PC.ROW], st.pieces[0, PC.COL]
    cc = c + 1 if st.grid[P.OCC, r, c + 1] == 0 else c - 1
    st.grid[P.SQ, r, cc] = SQ.AIR
    st.grid[P.FEAT, r, cc] = FEAT.CHEST
    st.grid[P.VAL, r, cc] = 2
    assert not actions.open_chest_nb(st, tab, 0, r, cc)  # costs an action point
    st.chars[0, CH.AP] = 1
    before = int((st.supply[SUP.CHEST] == 1).sum())
    assert actions.open_chest_nb(st, tab, 0, r, cc)
    assert st.grid[P.FEAT, r, cc] & FEAT.OPENED and st.cnt[CNT.CHESTS] == 1
    assert int((st.supply[SUP.CHEST] == 1).sum()) == before - 1  # one card leaves the game
    st.chars[0, CH.AP] = 1
    assert not actions.open_chest_nb(st, tab, 0, r, cc)  # never twice


def test_attacks_need_range_and_an_action_point():  # TR-258, TR-260, TR-271
    st, tab, cfg = new_game()
    foe = next(k for k in range(4, 44) if st.pieces[k, PC.KIND] != KIND.NONE)
    st.chars[0, CH.AP] = 1
    far = max(
        abs(st.pieces[foe, PC.ROW] - st.pieces[0, PC.ROW]),
        abs(st.pieces[foe, PC.COL] - st.pieces[0, PC.COL]),
    )
    if far > 1:  # the copper shortsword reaches adjacent squares only
        assert attack.attack_action_nb(st, tab, 0, foe) == -1
        assert st.chars[0, CH.AP] == 1


@pytest.mark.parametrize("seed", [1, 2])
def test_whole_games_keep_the_invariants(seed):  # TR-188, TR-195, TR-288, TR-355
    vals = GAME.resolve("medium", {"players": 3, "check_invariants": True})
    comp = GAME.compile(vals)
    bot = GAME.bot(None)
    bp = np.array(list(bot.params.values()), dtype=np.float64)
    rec = GAME.play_batch(comp, bot.id, bp, seed, 0, 12)
    df = GAME.records_to_frame(rec)
    assert df["outcome"].notna().all()
    assert (df["day"] >= 1).all() and (df["deaths"] >= 0).all()
    lost = df["outcome"].isin(["out_of_time", "out_of_respawns"])
    assert (df.loc[~lost, "win"]).all() and not df.loc[lost, "win"].any()


# --- the round's phases -----------------------------------------------------------------------
def test_round_one_skips_preparation_and_seven_sunrises_end_the_game():
    # TR-078, TR-068, TR-081, TR-426, TR-077
    vals = GAME.resolve("hard", {"players": 2})
    tab, cfg = GAME.compile(vals)
    bot = GAME.bot(None)
    bp = np.array(list(bot.params.values()), dtype=np.float64)
    df = GAME.records_to_frame(GAME.play_batch((tab, cfg), bot.id, bp, 4, 0, 24))
    spaces = tab.time_track.shape[0]
    late = df[df["outcome"] == "out_of_time"]
    assert len(late) > 0
    # the first sunrise preparation is round 1 + spaces; the 7th discards the last token
    assert (late["rounds"] == 7 * spaces + 1).all() and (late["day"] == 8).all()


def test_a_pending_boss_enters_play_as_the_enemy_turn_begins():  # TR-398, TR-409, TR-316
    st, tab, cfg = new_game()
    king = next(
        b for b in range(tab.bosses.shape[0]) if tab.bosses[b, BO.SPAWN] == BOSS_SPAWN.SLIMES
    )
    st.g[G.SLIMES] = tab.rules[RU.KING_SLIME]  # the 8th slime was slain this player turn
    st.g[G.PENDING] = 1 << king
    assert st.g[G.IN_PLAY] == 0
    enemy_turn.enemy_turn_nb(st, tab)
    assert st.g[G.OVER] == 0
    assert st.g[G.IN_PLAY] == 1 << king and st.g[G.PENDING] == 0
    k = BOSS_ROW + king
    assert st.pieces[k, PC.KIND] != KIND.NONE and st.pieces[k, PC.ROLE] == ROLE.BOSS
    # it acted in this enemy turn: after the attacks its face-up Behaviour card was discarded
    assert st.g[G.BEHAV_AT + king] == 1


def test_records_name_every_outcome_and_measure():  # TR-428, TR-429
    df = GAME.records_to_frame(
        GAME.play_batch(
            _compiled(), 0, np.array(list(GAME.bot("explorer").params.values())), 1, 0, 4
        )
    )
    assert list(df["outcome"].cat.categories) == [
        "won_objectives",
        "won_wall_of_flesh",
        "out_of_time",
        "out_of_respawns",
    ]
    for col in (
        "chains",
        "objectives",
        "day",
        "deaths",
        "falls",
        "fall_damage",
        "duels",
        "bosses",
        "deepest_layer",
        "mobbed",
        "fall_deaths",
        "mob_deaths",
        "gifts",
        "coins_traded",
        "resources_traded",
        "bottle_potions",
        "food_eaten",
    ):
        assert col in df.columns


def test_cleanup_checks_objectives_then_npcs_then_moves_time():
    # TR-349, TR-350, TR-351, TR-352, TR-365
    st, tab, cfg = new_game()
    st.g[G.ROUND] = 1
    o = tab.objectives[10]  # Fight objective 1
    st.cnt[o[OB.COUNTER] + o[OB.PARAM]] = o[OB.AMOUNT]
    st.chars[1, CH.COINS] = 12
    st.g[G.HOUSES] = 1
    st.g[G.FREE_HOUSES] = 1
    st.house_at[0, HA.ID] = 0
    st.house_at[0, HA.NPC] = -1
    cleanup.cleanup_nb(st, tab)
    assert st.g[G.OBJ + 1] >= 1  # checked at cleanup (TR-064 also checks after actions)
    assert st.g[G.NPCS] & (1 << NPC.MERCHANT) and st.house_at[0, HA.NPC] == NPC.MERCHANT
    assert st.g[G.TIME] == 1
    st.chars[1, CH.COINS] = 0
    cleanup.cleanup_nb(st, tab)
    assert st.g[G.NPCS] & (1 << NPC.MERCHANT)  # an NPC never unspawns (TR-366)


def test_one_npc_per_house_in_table_order():  # TR-247, TR-364, TR-368
    st, tab, cfg = new_game()
    st.g[G.DIED] = 1
    st.chars[0, CH.COINS] = 10
    st.g[G.HOUSES] = 1
    st.g[G.FREE_HOUSES] = 1
    st.house_at[0, HA.ID] = 0
    st.house_at[0, HA.NPC] = -1
    npcs.check_npcs_nb(st, tab)
    assert st.g[G.NPCS] == GUIDE | 1 << NPC.NURSE and st.cnt[CNT.NPCS] == 1


def test_sunrise_resets_the_houses_and_fires_npc_powers():
    # TR-086, TR-087, TR-088, TR-376, TR-380, TR-356
    st, tab, cfg = new_game()
    st.g[G.BOTTLE] = 1
    st.g[G.COOKED] = 3
    st.g[G.STATIONS] |= STATION.COOKING_POT
    st.g[G.COOK_LEFT] = 0
    st.g[G.NPCS] |= (1 << NPC.DRYAD) | (1 << NPC.GOBLIN)
    poison = next(c for c in range(tab.cards.shape[0]) if tab.cards[c, CF.SHOP] == 5)
    cards.gain_card_nb(st, 0, poison)  # a debuff in the discard pile
    preparation.preparation_nb(st, tab, 0, np.zeros(16))
    assert st.g[G.BOTTLE] == 0 and st.g[G.COOKED] == 0 and st.g[G.COOK_LEFT] == 15
    assert st.g[G.DRYAD_DIE] == 1
    assert poison not in st.deck[0, PILE.DISCARD, : st.npile[0, PILE.DISCARD]]  # scrapped


def test_platforms_cost_a_wood_and_ropes_a_cobweb():  # TR-221, TR-225, TR-226
    st, tab, cfg = new_game()
    assert not actions.place_platform_action_nb(st, tab, 0, 0)
    give(st, 0, "wood", 1)
    placed = any(
        actions.place_platform_action_nb(st, tab, 0, s) for s in range(tab.plat_pos.shape[0])
    )
    assert placed and st.cnt[CNT.PLATFORMS] == 1
    r, c = st.pieces[0, PC.ROW], st.pieces[0, PC.COL]
    assert not actions.place_rope_action_nb(st, tab, 0, r - 1, c)
    give(st, 0, "cobweb", 1)
    assert actions.place_rope_action_nb(st, tab, 0, r - 1, c) and st.cnt[CNT.ROPES] == 1


def test_before_drawing_the_best_owned_gear_goes_on_top():  # TR-091, TR-208, TR-218
    from simlib.games.terraria import bots

    st, tab, cfg = new_game()
    iron = ident("equipment", "iron_pickaxe")
    st.owned[0, iron] += 1
    wood = ident("armor", "wood")
    st.owned[0, tab.equip.shape[0] + wood] += 1
    bots.gear_up_nb(st, tab, 0)
    assert st.chars[0, CH.PICK] == iron and st.chars[0, CH.ARMOR] == wood


def test_a_shared_reward_is_given_once():  # TR-061, TR-060
    st, tab, cfg = new_game()
    i = next(
        i
        for i in range(40)
        if tab.objectives[i, OB.SHARED] and tab.objectives[i, OB.REWARD] == RK.CONSUMABLE
    )
    row = tab.objectives[i]
    st.g[G.OBJ + i // 10] = i % 10  # make it the chain's current objective
    cid = row[OB.REWARD + 1]
    st.cnt[row[OB.COUNTER] + row[OB.PARAM]] = row[OB.AMOUNT]
    rewards.check_objectives_nb(st, tab, 1)
    assert st.held[1, cid] >= 1 and st.held[0, cid] == 0  # once, to the completing player


def test_objectives_are_checked_after_an_action():  # TR-064, TR-065, TR-063
    st, tab, cfg = new_game()
    o = tab.objectives[0]
    st.cnt[o[OB.COUNTER] + o[OB.PARAM]] = o[OB.AMOUNT]  # met before the action: whole game
    st.chars[0, CH.AP] = 2
    moved = actions.step_action_nb(st, tab, 0, 0, 1) or actions.step_action_nb(st, tab, 0, 0, -1)
    assert moved and st.g[G.OBJ] >= 1
    assert st.g[G.CHAINS] == 0  # a chain counts only once all 10 are done


def test_a_debuff_card_played_costs_health_and_can_kill():  # TR-289, TR-290
    st, tab, cfg = new_game()
    st.chars[0, CH.HP] = 1
    life.lose_health_nb(st, tab, 0, 1)
    assert st.chars[0, CH.IN_WORLD] == 0 and st.g[G.TOMBS] == 3
