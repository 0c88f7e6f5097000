"""Terraria trading and gifts: resources, coins, equipment and armor changing hands.

Scenario tests on games set up by ``setup.setup_nb`` from the default content, edited by hand
where a scenario needs it. Rules: TR-197 (resources and coins, any time, into the receiver's
room), TR-199 (open: consumables are not traded), TR-209 / TR-210 (equipment given before
either player draws, never after), TR-219 / TR-220 (the same for armor sets). The bots' use of
them is in ``bots.gift_phase_nb``, ``bots.make_room_nb`` and ``life.top_up_coins_nb``.
"""

from __future__ import annotations

import functools
import importlib
import json
import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import numpy as np
from test_terraria_engine import ident, names

from simlib.games.terraria import GAME, bots, engine
from simlib.games.terraria.engine import actions, cards, crafting, life, preparation, rewards, setup
from simlib.games.terraria.state import (
    AR,
    BP_COIN_ASK,
    CH,
    CNT,
    MAX_WEIGHTS,
    NPC,
    PC,
    RU,
    SLOT,
    SQ,
    SUP,
    G,
    P,
)

ROOT = Path(__file__).resolve().parents[1]


@functools.cache
def engine_modules():
    """Every module of the Terraria engine package."""
    return [importlib.import_module(f"{engine.__name__}.{m.name}")
            for m in pkgutil.iter_modules(engine.__path__)]


def _compiled(players=2):
    vals = GAME.resolve(None, {"players": players})
    return GAME.compile(vals)


def res(name):
    return ident("resources", name)


def new_game(players=2, seed=3):
    tab, cfg = _compiled(players)
    st = setup.alloc_state_nb(tab)
    setup.setup_nb(st, tab, cfg, np.uint64(seed), 0)
    return st, tab


def fill(st, p, slots):
    """Set player ``p``'s slots to ``[(resource name, units), ...]``, the rest empty."""
    st.inv[p, :, :] = 0
    for s, (name, n) in enumerate(slots):
        st.inv[p, s, 0] = res(name)
        st.inv[p, s, 1] = n


def slots_of(st, p):
    return [(names()["resources"][int(t)], int(n)) for t, n in st.inv[p] if n > 0]


def bot_params(name="builder"):
    return np.array(list(GAME.bot(name).params.values()), dtype=np.float64)


def weights(st, tab, p):
    """The bot's working weights for ``p``'s turn (``bots.turn_weights_nb``)."""
    w = np.zeros(MAX_WEIGHTS)[: bots.BP.N]
    bots.turn_weights_nb(st, tab, p, bot_params(), w)
    return w


# --- resources (TR-197) ---------------------------------------------------------------------
def test_resources_go_only_into_the_receivers_room_the_rest_stay():  # TR-197, TR-188
    st, tab = new_game()
    fill(st, 0, [("wood", 5), ("wood", 2)])
    fill(st, 1, [("stone", 5), ("stone", 5), ("stone", 5), ("wood", 2)])
    assert life.room_for_nb(st, 1, res("wood")) == 3
    assert life.give_resources_nb(st, 0, 1, res("wood"), 7) == 3
    assert slots_of(st, 0) == [("wood", 4)]  # the smallest slot went first; 4 stay
    assert slots_of(st, 1) == [("stone", 5)] * 3 + [("wood", 5)]
    assert st.chars[0, CH.RES_TRADED] == 3 and st.chars[1, CH.RES_TRADED] == 0
    # no room for a new type: nothing moves and nothing of the receiver's is replaced
    fill(st, 0, [("iron", 2)])
    assert life.room_for_nb(st, 1, res("iron")) == 0
    assert life.give_resources_nb(st, 0, 1, res("iron"), 2) == 0
    assert slots_of(st, 0) == [("iron", 2)]
    assert slots_of(st, 1) == [("stone", 5)] * 3 + [("wood", 5)]
    # only what the giver holds; never to oneself
    st.inv[1, 3, :] = 0
    assert life.give_resources_nb(st, 0, 1, res("iron"), 5) == 2
    assert slots_of(st, 0) == [] and ("iron", 2) in slots_of(st, 1)
    assert life.give_resources_nb(st, 1, 1, res("iron"), 1) == 0
    assert st.chars[0, CH.RES_TRADED] == 5


def test_resources_a_player_has_no_room_for_go_to_a_teammate_first():  # TR-197, TR-193
    st, tab = new_game(players=3)
    full = [("stone", 5), ("copper", 1), ("iron", 5), ("silver", 5)]
    fill(st, 0, full)
    fill(st, 1, [("gel", 5), ("gel", 5), ("gel", 5), ("wood", 3)])
    fill(st, 2, [("gel", 5), ("gel", 5), ("wood", 4)])
    # wood: player 0 has no room; player 2 has the most room (5 + 1), then player 1 (2)
    assert life.team_gain_nb(st, 0, res("wood"), 8) == 8
    assert slots_of(st, 0) == full  # the Copper was not replaced (TR-193 not needed)
    assert life.inventory_count_nb(st, 2, res("wood")) == 10
    assert life.inventory_count_nb(st, 1, res("wood")) == 5
    assert st.chars[0, CH.RES_TRADED] == 8
    # no room anywhere: the player's own rule decides (a new type replaces the fewest units)
    assert life.team_gain_nb(st, 0, res("gold"), 2) == 2
    assert ("gold", 2) in slots_of(st, 0) and ("copper", 1) not in slots_of(st, 0)
    assert st.chars[0, CH.RES_TRADED] == 8


def test_team_gain_is_the_inventory_rule_for_a_lone_player():  # TR-192, TR-193
    st, tab = new_game(players=1)
    for n in (1, 3):
        fill(st, 0, [("stone", 5), ("copper", 2), ("iron", 5), ("silver", 5)])
        ref = st.inv.copy()
        got_ref = life.inventory_add_nb(st, 0, res("wood"), n)
        after = st.inv.copy()
        st.inv[:] = ref
        assert life.team_gain_nb(st, 0, res("wood"), n) == got_ref
        np.testing.assert_array_equal(st.inv, after)
    assert st.chars[0, CH.RES_TRADED] == 0


def test_a_dug_unit_goes_to_the_teammate_with_room():  # TR-197, TR-176
    st, tab = new_game()
    r, c = int(st.pieces[0, PC.ROW]), int(st.pieces[0, PC.COL])
    c += 1 if st.grid[P.OCC, r, c + 1] == 0 else -1  # a free square beside the character
    st.grid[P.SQ, r, c] = SQ.BLOCK  # becomes a Copper block
    st.grid[P.RES, r, c] = res("copper")
    st.grid[P.PROG, r, c] = 0
    full = [("stone", 5), ("wood", 5), ("iron", 5), ("silver", 5)]
    fill(st, 0, full)
    st.chars[0, CH.AP] = 5
    assert bots.make_room_nb(st, tab, 0, res("copper"), weights(st, tab, 0))  # on the team
    assert slots_of(st, 0) == full  # nothing given up
    while st.grid[P.SQ, r, c] == SQ.BLOCK and st.chars[0, CH.AP] > 0:
        assert actions.dig_action_nb(st, tab, 0, r, c)
    assert slots_of(st, 0) == full and slots_of(st, 1) == [("copper", 1)]
    assert st.cnt[CNT.RES + res("copper")] == 1 and st.chars[0, CH.RES_TRADED] == 1


def test_making_room_passes_a_slot_to_a_teammate_before_losing_one():  # TR-197, TR-193
    st, tab = new_game()
    fill(st, 0, [("stone", 5), ("gel", 2), ("iron", 5), ("silver", 5)])
    fill(st, 1, [("stone", 5), ("gel", 3), ("wood", 5), ("wood", 5)])  # room for gel only
    assert bots.make_room_nb(st, tab, 0, res("gold"), weights(st, tab, 0))
    assert slots_of(st, 0) == [("stone", 5), ("iron", 5), ("silver", 5)]
    assert ("gel", 5) in slots_of(st, 1) and st.chars[0, CH.RES_TRADED] == 2


# --- coins (TR-197, TR-195) -----------------------------------------------------------------
def test_coins_move_only_up_to_the_receivers_25():  # TR-197, TR-195
    st, tab = new_game()
    st.chars[0, CH.COINS] = 20
    st.chars[1, CH.COINS] = 22
    assert life.give_coins_nb(st, 0, 1, 10) == 3
    assert st.chars[0, CH.COINS] == 17 and st.chars[1, CH.COINS] == 25
    assert life.give_coins_nb(st, 0, 1, 1) == 0  # a full dial takes nothing; nothing is lost
    assert st.chars[0, CH.COINS] == 17 and st.chars[0, CH.COINS_TRADED] == 3
    # this turn's coin icons are not on the dial and serve only their owner (TR-079)
    st.chars[1, CH.COINS] = 0
    st.chars[1, CH.TCOIN] = 6
    assert life.give_coins_nb(st, 1, 0, 6) == 0
    assert st.chars[1, CH.TCOIN] == 6 and st.chars[0, CH.COINS] == 17


def test_coins_past_25_go_to_the_richest_teammate_with_room():  # TR-197, TR-196
    st, tab = new_game(players=3)
    st.chars[0, CH.COINS] = 22
    st.chars[1, CH.COINS] = 10
    st.chars[2, CH.COINS] = 20
    rewards.gain_coins_nb(st, 0, 10)
    assert list(st.chars[:3, CH.COINS]) == [25, 12, 25]  # 3 kept, 5 to the richest, 2 next
    assert st.cnt[CNT.COINS] == 10 and st.chars[0, CH.COINS_TRADED] == 7
    rewards.gain_coins_nb(st, 0, 20)  # only 13 fit anywhere: the rest is lost (TR-196)
    assert list(st.chars[:3, CH.COINS]) == [25, 25, 25] and st.cnt[CNT.COINS] == 23


def test_a_purchase_short_of_a_few_coins_is_topped_up_by_the_richest():  # TR-197, TR-371
    st, tab = new_game(players=3)
    st.chars[0, CH.COINS] = 10
    st.chars[0, CH.TCOIN] = 2
    st.chars[1, CH.COINS] = 4
    st.chars[2, CH.COINS] = 9
    assert not life.top_up_coins_nb(st, 0, 18, 5)  # short by 6 > 5: nothing moves
    assert list(st.chars[:3, CH.COINS]) == [10, 4, 9]
    assert life.top_up_coins_nb(st, 0, 15, 5)
    assert list(st.chars[:3, CH.COINS]) == [13, 4, 6] and st.chars[2, CH.COINS_TRADED] == 3
    st.chars[1, CH.COINS] = 0
    st.chars[2, CH.COINS] = 1
    assert not life.top_up_coins_nb(st, 0, 17, 5)  # the teammates hold too little
    # the bot pays the Nurse with a teammate's coins
    st.chars[0, CH.HP] = 1
    st.chars[0, CH.TCOIN] = 0
    st.chars[0, CH.COINS] = 12
    st.chars[1, CH.COINS] = 20
    st.g[G.NPCS] |= 1 << NPC.NURSE
    bots._heal_nb(st, tab, 0, bot_params())
    assert st.chars[0, CH.HP] == st.chars[0, CH.MAXHP]
    assert st.chars[0, CH.COINS] == 0 and st.chars[1, CH.COINS] == 20 - 3
    assert tab.rules[RU.NURSE_PRICE] == 15


def test_the_demolitionists_bomb_with_a_teammates_coins():  # TR-197, TR-382
    st, tab = new_game()
    bomb = ident("consumables", "bomb")
    st.g[G.NPCS] |= (1 << NPC.MERCHANT) | (1 << NPC.DEMOLITIONIST)
    st.chars[0, CH.COINS] = 17
    st.chars[1, CH.COINS] = 10
    left = st.supply[SUP.CONSUMABLE, bomb]
    preparation.from_bots_sunrise_nb(st, tab, 0, 0, bot_params())
    assert st.chars[0, CH.COINS] == 10 and st.chars[1, CH.COINS] == 7
    assert st.held[0, bomb] == 1 and st.supply[SUP.CONSUMABLE, bomb] == left - 1
    st.chars[0, CH.COINS] = 14  # short by 6 > coin_ask: no top-up, no bomb
    preparation.from_bots_sunrise_nb(st, tab, 0, 0, bot_params())
    assert st.chars[0, CH.COINS] == 14 and st.held[0, bomb] == 1


# --- consumables (TR-199) ------------------------------------------------------------------
def test_consumables_never_change_hands():  # TR-199
    st, tab = new_game()
    potion = ident("consumables", "healing_potion")
    st.held[0, potion] = 2
    held = st.held.copy()
    st.owned[0, tab.equip.shape[0] + ident("armor", "wood")] += 1
    bots.gift_phase_nb(st, tab, bot_params())
    st.chars[0, CH.COINS] = 25
    rewards.gain_coins_nb(st, 0, 5)
    life.team_gain_nb(st, 0, res("wood"), 3)
    np.testing.assert_array_equal(st.held, held)
    for mod in (*engine_modules(), bots):
        assert not [n for n in dir(mod) if "give" in n and "consumable" in n]


# --- equipment (TR-209, TR-210) ------------------------------------------------------------
def test_equipment_is_given_before_drawing_and_the_next_best_goes_on_top():  # TR-209, TR-206
    st, tab = new_game()
    copper = ident("equipment", "copper_pickaxe")
    iron = ident("equipment", "iron_pickaxe")
    gold = ident("equipment", "gold_pickaxe")
    st.owned[0, iron] += 1
    st.owned[0, gold] += 1
    st.chars[0, CH.PICK] = gold
    assert crafting.can_give_gear_nb(st, 0, 1)
    assert crafting.give_equip_nb(st, tab, 0, 1, gold) == 1
    assert st.owned[0, gold] == 0 and st.chars[0, CH.PICK] == iron  # the best left
    assert st.owned[1, gold] == 1 and st.chars[1, CH.PICK] == gold  # on top (TR-206)
    assert st.owned[1, copper] == 1 and st.chars[0, CH.GIFTS] == 1
    assert crafting.give_equip_nb(st, tab, 0, 1, gold) == 0  # owns no copy any more
    # a card not on top leaves the top alone; the last card of a slot leaves it empty
    assert crafting.give_equip_nb(st, tab, 0, 1, copper) == 1 and st.chars[0, CH.PICK] == iron
    assert crafting.give_equip_nb(st, tab, 0, 1, iron) == 1 and st.chars[0, CH.PICK] == -1
    assert st.chars[0, CH.GIFTS] == 3 and st.owned[1, iron] == 1
    assert crafting.give_equip_nb(st, tab, 0, 0, copper) == 0  # not to oneself


def test_no_gift_once_either_player_has_drawn():  # TR-209, TR-210
    st, tab = new_game(players=3)
    iron = ident("equipment", "iron_axe")
    st.owned[0, iron] += 1
    cards.draw_hand_nb(st, 1, 4, False)
    owned = st.owned.copy()
    chars = st.chars.copy()
    assert crafting.give_equip_nb(st, tab, 0, 1, iron) == 0  # the receiver has drawn
    copper = ident("equipment", "copper_axe")
    assert crafting.give_equip_nb(st, tab, 1, 0, copper) == 0  # the giver has drawn
    np.testing.assert_array_equal(st.owned, owned)
    np.testing.assert_array_equal(st.chars, chars)
    assert crafting.give_equip_nb(st, tab, 0, 2, iron) == 1  # neither of these two has drawn
    cards.draw_hand_nb(st, 2, 4, False)
    assert crafting.give_equip_nb(st, tab, 2, 0, iron) == 0
    # a player who has drawn keeps its top cards until its next turn (TR-210)
    st.owned[1, ident("equipment", "gold_axe")] += 1
    bots.gear_up_nb(st, tab, 1)
    assert st.chars[1, CH.AXE] == copper
    st.g[G.DRAWN] = 0  # the next round
    bots.gear_up_nb(st, tab, 1)
    assert st.chars[1, CH.AXE] == ident("equipment", "gold_axe")
    assert crafting.give_equip_nb(st, tab, 2, 0, iron) == 1
    st.g[G.OVER] = 1
    assert not crafting.can_give_gear_nb(st, 0, 2)


# --- armor (TR-219, TR-220) ----------------------------------------------------------------
def test_armor_given_before_drawing_leaves_the_giver_unarmored():  # TR-219, TR-214, TR-216
    st, tab = new_game()
    n_eq = tab.equip.shape[0]
    wood = ident("armor", "wood")
    iron = ident("armor", "iron")
    assert tab.armor[iron, AR.HP] == 1  # worn, it adds 1 to the maximum health
    rewards.take_armor_nb(st, tab, 0, wood)
    rewards.take_armor_nb(st, tab, 0, iron)
    st.chars[0, CH.HP] = st.chars[0, CH.MAXHP]
    assert st.chars[0, CH.MAXHP] == 6 and st.chars[0, CH.ARMOR] == iron
    assert crafting.give_armor_nb(st, tab, 0, 1, iron) == 1
    assert st.chars[0, CH.ARMOR] == -1  # no armor worn until it puts on another (TR-218)
    assert st.chars[0, CH.MAXHP] == 5 and st.chars[0, CH.HP] == 5
    assert st.owned[0, n_eq + iron] == 0 and st.owned[0, n_eq + wood] == 1
    assert st.chars[1, CH.ARMOR] == iron and st.owned[1, n_eq + iron] == 1
    assert st.chars[1, CH.MAXHP] == 6 and st.chars[1, CH.HP] == 5
    # a set not worn: the giver keeps what it wears
    rewards.take_armor_nb(st, tab, 0, iron)
    assert crafting.give_armor_nb(st, tab, 0, 1, wood) == 1 and st.chars[0, CH.ARMOR] == iron
    assert st.chars[1, CH.ARMOR] == wood  # the new set is worn (TR-214), iron still owned
    assert st.chars[0, CH.GIFTS] == 2


def test_no_armor_gift_once_either_player_has_drawn():  # TR-219, TR-220
    st, tab = new_game()
    wood = ident("armor", "wood")
    rewards.take_armor_nb(st, tab, 0, wood)
    cards.draw_hand_nb(st, 0, 4, False)
    assert crafting.give_armor_nb(st, tab, 0, 1, wood) == 0
    assert st.chars[0, CH.ARMOR] == wood and st.chars[1, CH.ARMOR] == -1
    assert st.chars[0, CH.GIFTS] == 0
    st.owned[0, tab.equip.shape[0] + ident("armor", "gold")] += 1
    bots.gear_up_nb(st, tab, 0)  # no swap after drawing (TR-220)
    assert st.chars[0, CH.ARMOR] == wood


# --- the bots' gift phase ------------------------------------------------------------------
def test_the_gift_phase_gives_spare_armor_to_the_unarmored_teammate():  # TR-219, TR-209
    st, tab = new_game(players=3)
    n_eq = tab.equip.shape[0]
    wood, copper, gold = (ident("armor", a) for a in ("wood", "copper", "gold"))
    rewards.take_armor_nb(st, tab, 0, copper)
    rewards.take_armor_nb(st, tab, 0, gold)  # wears gold (tier 4); copper (tier 2) is spare
    rewards.take_armor_nb(st, tab, 2, wood)  # player 2 wears wood (tier 1), player 1 none
    bp = bot_params()
    bots.gift_phase_nb(st, tab, bp)
    assert st.chars[1, CH.ARMOR] == copper and st.owned[1, n_eq + copper] == 1
    assert st.chars[0, CH.ARMOR] == gold and st.owned[0, n_eq + copper] == 0
    assert st.chars[2, CH.ARMOR] == wood
    assert st.chars[0, CH.GIFTS] == 1 and st.chars[:3, CH.GIFTS].sum() == 1
    # the worn set is never given, and a gain below gift_min is not worth a gift
    st2, _ = new_game(players=3)
    rewards.take_armor_nb(st2, tab, 0, copper)
    rewards.take_armor_nb(st2, tab, 0, gold)
    bp[bots.BP.GIFT_MIN] = 4
    bots.gift_phase_nb(st2, tab, bp)
    assert st2.chars[:3, CH.GIFTS].sum() == 0 and st2.chars[1, CH.ARMOR] == -1


def test_the_gift_phase_gives_spare_equipment_to_whoever_gains_most():  # TR-209, TR-208
    st, tab = new_game(players=3)
    iron = ident("equipment", "iron_pickaxe")
    gold = ident("equipment", "gold_pickaxe")
    boots = ident("equipment", "hermes_boots")
    claws = ident("equipment", "feral_claws")
    st.owned[0, iron] += 1
    st.owned[0, gold] += 1
    st.chars[0, CH.PICK] = gold  # iron (tier 1) is spare; copper (tier 0) too
    st.owned[1, iron] += 1  # player 1 has iron too: only player 2 gains from it
    st.owned[2, claws] += 1
    st.chars[2, CH.OTHER] = claws
    st.owned[2, boots] += 1  # a spare Other card (tier 1) for the players with none
    bots.gift_phase_nb(st, tab, bot_params())
    assert st.chars[2, CH.PICK] == iron and st.owned[0, iron] == 0
    assert st.chars[0, CH.PICK] == gold and st.chars[1, CH.PICK] == ident(
        "equipment", "copper_pickaxe"
    )  # player 1 had not put its iron on top yet: it does before drawing (TR-208)
    assert st.chars[0, CH.WEAPON + SLOT.OTHER] == boots and st.owned[2, boots] == 0
    assert st.chars[2, CH.OTHER] == claws
    assert st.chars[:3, CH.GIFTS].tolist() == [1, 0, 1]
    bots.gift_phase_nb(st, tab, bot_params())  # nothing left worth giving
    assert st.chars[:3, CH.GIFTS].tolist() == [1, 0, 1]


def test_no_gift_phase_after_a_draw():  # TR-210, TR-220
    st, tab = new_game()
    n_eq = tab.equip.shape[0]
    rewards.take_armor_nb(st, tab, 0, ident("armor", "wood"))
    rewards.take_armor_nb(st, tab, 0, ident("armor", "iron"))
    cards.draw_hand_nb(st, 0, 4, False)
    bots.gift_phase_nb(st, tab, bot_params())
    assert st.chars[1, CH.ARMOR] == -1 and st.owned[1, n_eq:].sum() == 0


# --- parameters and records --------------------------------------------------------------------
def test_the_engine_reads_coin_ask_where_the_bots_put_it():
    assert bots.BP.COIN_ASK == BP_COIN_ASK == bots.PARAM_NAMES.index("coin_ask")
    assert bots.BP.GIFT_MIN == bots.PARAM_NAMES.index("gift_min")
    assert bots.BP.TARGET_RES == len(bots.PARAM_NAMES) and bots.BP.N <= MAX_WEIGHTS
    for _bid, defaults, _ in bots.BOTS.values():
        assert len(defaults) == len(bots.PARAM_NAMES)
        lo, hi = bots.PARAM_BOUNDS["coin_ask"]
        assert lo <= defaults[bots.BP.COIN_ASK] <= hi


def test_records_count_gifts_and_trades():  # TR-197, TR-209, TR-219
    bp = bot_params()
    vals = GAME.resolve("medium", {"players": 3, "check_invariants": True})
    df = GAME.records_to_frame(GAME.play_batch(GAME.compile(vals), 1, bp, 7, 0, 24))
    for col in ("gifts", "coins_traded", "resources_traded"):
        assert col in df.columns and (df[col] >= 0).all()
    assert df["resources_traded"].sum() > 0 and df["coins_traded"].sum() > 0
    solo = GAME.records_to_frame(GAME.play_batch(_compiled(1), 1, bp, 7, 0, 8))
    assert (solo[["gifts", "coins_traded", "resources_traded"]] == 0).all().all()


SCENARIO = """
import json, warnings
warnings.filterwarnings("ignore")
import numpy as np
from simlib.games.terraria import GAME, bots
from simlib.games.terraria.engine import actions, cards, crafting, life, preparation, rewards, setup
from simlib.games.terraria.state import CH
tab, cfg = GAME.compile(GAME.resolve(None, {"players": 3}))
st = setup.alloc_state_nb(tab)
setup.setup_nb(st, tab, cfg, np.uint64(5), 0)
bp = np.array(list(GAME.bot("builder").params.values()), dtype=np.float64)
n_eq = tab.equip.shape[0]
rewards.take_armor_nb(st, tab, 0, 1)
rewards.take_armor_nb(st, tab, 0, 4)
st.owned[0, 23] += 1
st.owned[0, 24] += 1
st.chars[0, CH.PICK] = 24
bots.gift_phase_nb(st, tab, bp)
st.inv[0, :4, 0] = [1, 2, 3, 4]
st.inv[0, :4, 1] = [5, 1, 5, 5]
life.team_gain_nb(st, 0, 17, 12)
st.chars[0, CH.COINS] = 23
rewards.gain_coins_nb(st, 0, 9)
life.top_up_coins_nb(st, 1, 15, 5)
cards.draw_hand_nb(st, 2, 4, False)
out = [crafting.give_equip_nb(st, tab, 2, 0, 22), life.give_resources_nb(st, 1, 2, 17, 3)]
print(json.dumps([out, st.chars[:3].tolist(), st.inv[:3].tolist(), st.owned[:3].tolist()]))
"""


def _run(disable):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    if disable:
        env["NUMBA_DISABLE_JIT"] = "1"
    else:
        env.pop("NUMBA_DISABLE_JIT", None)
    out = subprocess.run([sys.executable, "-c", SCENARIO], env=env, cwd=ROOT,
                         capture_output=True, text=True, timeout=900, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_trading_plain_python_matches_numba():  # TR-197, TR-209, TR-219
    plain = _run(True)
    jit = _run(False)
    assert plain == jit
    gifts = [row[CH.GIFTS] for row in jit[1]]
    assert sum(gifts) == 2 and jit[0] == [0, 3]  # player 2 has drawn: no gear moves
