"""Terraria rule fixes: covered trees and chests, what a house may cover and hang on, the
Guide spawned from setup, chest action cards drawn at random, and summoning.

Scenario tests in the style of ``test_terraria_rules_world`` (a real game from the default
content with a hand-drawn world) and ``test_terraria_rules_turn`` (the small arena tables).
Each test failed on the engine before its fix and cites the checklist lines it checks
(``shared/rules/terraria-checklist.md``).
"""

from __future__ import annotations

import numpy as np
import pytest
from test_terraria_engine import ident, new_game
from test_terraria_rules_turn import MINIONS, STAFF_A, STAFF_B, TWIN, arena
from test_terraria_rules_world import LEFT, TOP, at, house_scene, put, res, scene

from simlib.games.terraria import bots
from simlib.games.terraria.engine import actions, attack, crafting, life, magic, rewards
from simlib.games.terraria.engine import movement as mv
from simlib.games.terraria.engine.sight import sees_nb
from simlib.games.terraria.state import (
    CF,
    CH,
    CNT,
    ENEMY_ROW,
    EQ,
    FEAT,
    KIND,
    NPC,
    OB,
    OUT,
    PC,
    PILE,
    RK,
    RW,
    SHOP,
    SQ,
    SUP,
    G,
    P,
    replace,
)


# --- TR-237 / TR-164: a chop square under a house ---------------------------------------------
def test_a_tree_under_a_house_stays_unchoppable_after_its_acorn_goes_back():
    # TR-237, TR-164, TR-238: the house takes the Acorn back but still hides the chop value
    st, tab, hid = house_scene(["........", "........", "...T....", "########"])
    tree = (TOP + 2, LEFT + 3)
    st.chars[0, CH.AP] = 3  # the Copper Axe: 1 chop a point, the tree needs 3
    for _ in range(3):
        assert actions.chop_action_nb(st, tab, 0, *tree)
    assert st.grid[P.FEAT][tree] & FEAT.ACORN and st.cnt[CNT.TREES] == 1
    assert crafting.build_house_nb(st, tab, 0, hid, TOP + 1, LEFT + 3)
    assert st.grid[P.FEAT][tree] == FEAT.TREE | FEAT.HOUSE | FEAT.PLATFORM  # Acorn back
    wood = life.inventory_count_nb(st, 0, res("wood"))
    st.chars[0, CH.AP] = 1
    assert not actions.chop_action_nb(st, tab, 0, *tree)  # no point converted for it
    assert st.chars[0, CH.AP] == 1 and st.chars[0, CH.CHOP] == 0
    st.chars[0, CH.CHOP] = 2  # chop already converted (an Iron Axe's second chop)
    assert not actions.chop_action_nb(st, tab, 0, *tree)
    assert st.chars[0, CH.CHOP] == 2 and st.grid[P.PROG][tree] == 0
    assert mv.chop_nb(st.grid, st.tiles, st.pieces, 0, *tree, 3) == (-1, 0)
    mv.sunrise_trees_nb(st.grid)  # a new day: still covered
    assert mv.chop_nb(st.grid, st.tiles, st.pieces, 0, *tree, 3) == (-1, 0)
    assert life.inventory_count_nb(st, 0, res("wood")) == wood and st.cnt[CNT.TREES] == 1


def test_the_bots_do_not_seek_a_tree_or_chest_under_a_house():  # TR-237, TR-235
    st, tab, hid = house_scene(["........", "........", "...T....", "########"])
    tree = (TOP + 2, LEFT + 3)
    chest = (TOP + 1, LEFT + 3)
    st.grid[P.FEAT][chest] |= FEAT.CHEST
    st.grid[P.VAL][chest] = 1
    bp = np.zeros(bots.BP.N)
    bp[bots.BP.WOOD] = 10.0
    bp[bots.BP.CHEST] = 7.0

    def value(r, c):
        return bots._square_value_nb(
            st.grid, st.tiles, st.pieces, tab.enemies, tab.res_dig, tab.res_struct, r, c, bp, True
        )

    here = (TOP + 2, LEFT + 2)
    assert value(*here) == 17.0  # beside the tree and the chest
    assert crafting.build_house_nb(st, tab, 0, hid, TOP + 1, LEFT + 3)
    assert value(*here) == 0.0
    assert not st.grid[P.FEAT][tree] & FEAT.ACORN
    st.chars[0, CH.AP] = 2
    bp_turn = np.zeros(bots.BP.N)
    bp_turn[: len(bots.PARAM_NAMES)] = bots.BOTS["builder"][1]
    bp_turn[bots.BP.WOOD_TARGET] = 99.0  # short of wood: a free tree would be chopped
    assert not bots._adjacent_acts_nb(st, tab, 0, bp_turn)
    assert st.chars[0, CH.AP] == 2 and st.grid[P.PROG][tree] == 0


# --- TR-116, TR-136: the bots' path search and the searcher's own piece -------------------------
def test_the_bots_search_does_not_stand_on_the_searchers_own_piece():  # TR-116, TR-136
    # A piece holds up the square above it (a stack, TR-136), but not the piece's own: once
    # it steps, its square is empty. The search counted it and planned a step straight up
    # into open air, over and over: the step falls back (TR-116) and costs a point each time.
    st, tab = scene(["......", "......", "######"])
    put(st, 0, 1, 1)
    put(st, 1, 1, 3)  # a teammate
    st.chars[0, CH.AP] = 2
    n = bots.search_nb(st, tab, 0, 4, 2)
    assert n > 0 and st.bdist[TOP + 1, LEFT + 1] == 0
    assert st.bdist[TOP, LEFT + 1] == -1  # straight up over itself: it would fall back
    assert st.bdist[TOP, LEFT + 3] == 2  # on the teammate's head, a stack (TR-136)
    assert st.grid[P.OCC, TOP + 1, LEFT + 1] == 1  # its piece is back in its square
    assert actions.step_action_nb(st, tab, 0, -1, 0)  # the step the search refused...
    assert (st.pieces[0, PC.ROW], st.pieces[0, PC.COL]) == (TOP + 1, LEFT + 1)  # ...falls back
    assert st.chars[0, CH.AP] == 1


# --- TR-235: what a house may cover -------------------------------------------------------------
UNDER = ("half", "lava", "chest", "opened", "rope", "cobweb", "tunnel")


@pytest.mark.parametrize("under", UNDER)
def test_a_house_covers_any_square_without_a_block_or_a_piece(under):  # TR-235, TR-119
    st, tab, hid = house_scene()
    sq = (TOP + 2, LEFT + 3)  # the lower left square of the house at (1, 3)
    if under == "half":
        st.grid[P.SQ][sq] = SQ.HALF
        st.grid[P.PROG][sq] = 0
    elif under == "lava":
        st.grid[P.SQ][sq] = SQ.LAVA
    elif under in ("chest", "opened"):
        st.grid[P.FEAT][sq] |= FEAT.CHEST | (FEAT.OPENED if under == "opened" else 0)
        st.grid[P.VAL][sq] = 2
    elif under == "rope":
        st.grid[P.FEAT][sq] |= FEAT.ROPE
    elif under == "cobweb":
        st.grid[P.FEAT][sq] |= FEAT.COBWEB
    else:
        st.grid[P.FEAT][sq] |= FEAT.TUNNEL
    assert crafting.build_house_nb(st, tab, 0, hid, TOP + 1, LEFT + 3)
    assert st.grid[P.FEAT][sq] & FEAT.HOUSE and st.grid[P.FEAT][sq] & FEAT.PLATFORM
    # sight through the house is blocked whatever lies under it (TR-246)
    assert not sees_nb(st.grid, st.tiles, TOP + 2, LEFT + 2, TOP + 2, LEFT + 5)
    st.chars[0, CH.AP] = 3
    if under == "half":  # covered for good: open like the rest of the house, never dug
        assert st.grid[P.SQ][sq] == SQ.AIR
        assert not actions.dig_action_nb(st, tab, 0, *sq)
        assert st.chars[0, CH.AP] == 3
    elif under == "lava":
        assert st.grid[P.SQ][sq] == SQ.LAVA  # lava stays (TR-184: not a block)
    elif under == "chest":  # its card count is hidden: it cannot be opened
        assert not actions.open_chest_nb(st, tab, 0, *sq)
        assert st.chars[0, CH.AP] == 3 and st.cnt[CNT.CHESTS] == 0
        assert not st.grid[P.FEAT][sq] & FEAT.OPENED
    elif under == "rope":
        assert st.grid[P.FEAT][sq] & FEAT.ROPE  # the rope still hangs from its token
    # characters go through the house door to door whatever it covers (TR-242)
    for j in (3, 4, 5):
        assert actions.step_action_nb(st, tab, 0, 0, 1)
        assert at(st, 0) == (2, j)
    if under == "cobweb":  # the cobweb square still gives a Cobweb (TR-232)
        assert life.inventory_count_nb(st, 0, res("cobweb")) == 1


def test_a_half_block_under_a_house_no_longer_stops_a_step_up():  # TR-235, TR-242, TR-117
    st, tab, hid = house_scene()
    up = (TOP + 1, LEFT + 3)  # the house's upper storey, up-right of the character
    st.grid[P.SQ][up] = SQ.HALF
    st.chars[0, CH.AP] = 1
    assert crafting.build_house_nb(st, tab, 0, hid, TOP + 1, LEFT + 3)
    assert actions.step_action_nb(st, tab, 0, -1, 1)
    assert at(st, 0) == (1, 3)  # on the floor between the storeys


@pytest.mark.parametrize("what", ["block", "character", "enemy", "house"])
def test_a_house_never_covers_a_block_a_piece_or_another_house(what):  # TR-235, TR-119
    st, tab, hid = house_scene()
    sq = (TOP + 2, LEFT + 3)
    if what == "block":
        st.grid[P.SQ][sq] = SQ.BLOCK
    elif what == "character":
        put(st, 1, 2, 3)
    elif what == "enemy":
        k = ENEMY_ROW
        assert mv.place_piece_nb(
            st.grid, st.tiles, st.mini, st.pieces, k, KIND.WALKER, *sq, st.falls, st.disc,
            st.tally,
        )  # fmt: skip
    else:
        st.grid[P.FEAT][sq] |= FEAT.HOUSE | FEAT.PLATFORM
    assert not crafting.house_fits_nb(st, tab, 0, hid, TOP + 1, LEFT + 3)
    assert not crafting.build_house_nb(st, tab, 0, hid, TOP + 1, LEFT + 3)
    assert st.g[G.HOUSES] == 0 and life.inventory_count_nb(st, 0, res("wood")) == 5


# --- TR-239: a house needs room, not support ---------------------------------------------------
def test_a_house_hangs_where_there_is_room_with_nothing_under_it():  # TR-239, TR-240, TR-241
    st, tab, hid = house_scene([".......", ".......", ".......", "##....."], i=2, j=1)
    assert at(st, 0) == (2, 1)
    for j in (2, 3):  # nothing under the house's bottom row
        assert st.grid[P.SQ, TOP + 3, LEFT + j] == SQ.AIR
    assert crafting.build_house_nb(st, tab, 0, hid, TOP + 1, LEFT + 2)
    assert st.g[G.HOUSES] == 1
    st.chars[0, CH.AP] = 2
    assert actions.step_action_nb(st, tab, 0, 0, 1)  # in by its door: its floor holds
    assert at(st, 0) == (2, 2)
    assert actions.step_action_nb(st, tab, 0, 0, 1)
    assert at(st, 0) == (2, 3) and st.chars[0, CH.FALLS] == 0


# --- TR-069: the Guide is spawned from setup ----------------------------------------------------
def test_the_guide_counts_as_spawned_from_setup():  # TR-069, TR-070, TR-065
    st, tab, _ = new_game()
    assert st.g[G.NPCS] == 1 << NPC.GUIDE
    assert st.cnt[CNT.NPC + NPC.GUIDE] == 1
    assert st.cnt[CNT.NPC + NPC.NURSE : CNT.NPC + NPC.N].tolist() == [0] * (NPC.N - 1)
    assert st.cnt[CNT.NPCS] == 0  # "npcs_spawned" counts the NPCs the players spawn
    # an objective "npc_spawned guide" completes at its first check
    obj = np.zeros((40, OB.N), dtype=np.int16)
    obj[:, OB.AMOUNT] = 30000
    obj[:, OB.COUNTER] = CNT.BLOCKS_DUG
    obj[0, OB.COUNTER] = CNT.NPC
    obj[0, OB.PARAM] = NPC.GUIDE
    obj[0, OB.AMOUNT] = 1
    obj[0, OB.REWARD + RW.KIND] = RK.NONE
    rewards.check_objectives_nb(st, replace(tab, objectives=obj), 0)
    assert st.g[G.OBJ] == 1
    # the default "Spawn an NPC" objective does not: the Guide is not one the players spawn
    spawn = [o for o in range(40) if tab.objectives[o, OB.COUNTER] == CNT.NPCS]
    assert spawn and all(st.cnt[CNT.NPCS] < tab.objectives[o, OB.AMOUNT] for o in spawn)


# --- TR-159 / TR-014: a chest action card reward ------------------------------------------------
def _gained(st, p=0):
    n = st.npile[p, PILE.DISCARD]
    return int(st.deck[p, PILE.DISCARD, n - 1]) if n else -1


def test_a_chest_card_reward_is_a_random_card_of_its_level():  # TR-159, TR-014
    tab = new_game()[1]
    level1 = [
        c
        for c in range(tab.cards.shape[0])
        if tab.cards[c, CF.SHOP] == SHOP.CHEST and tab.cards[c, CF.LEVEL] == 1
    ]
    assert sorted(level1) == sorted([ident("cards", "torch"), ident("cards", "lucky_coin")])
    got = []
    for seed in range(12):
        st, tab, _ = new_game(seed=seed)
        before = st.supply[SUP.CARDS].copy()
        rewards.give_reward_nb(st, tab, 0, RK.CHEST_CARD, 1, 1)
        c = _gained(st)
        assert c in level1
        diff = before - st.supply[SUP.CARDS]
        assert diff[c] == 1 and diff.sum() == 1  # the card left the supply
        got.append(c)
    assert set(got) == set(level1)  # not always the first card of the level in data order
    # deterministic by seed
    st, tab, _ = new_game(seed=5)
    rewards.give_reward_nb(st, tab, 0, RK.CHEST_CARD, 1, 1)
    assert _gained(st) == got[5]


def test_a_chest_card_draw_follows_the_copies_left():  # TR-159, TR-014, TR-026
    st, tab, _ = new_game(seed=1)
    torch, coin = ident("cards", "torch"), ident("cards", "lucky_coin")
    copies = (int(tab.cards[torch, CF.COPIES]), int(tab.cards[coin, CF.COPIES]))
    assert copies == (4, 3)
    n = 700
    hits = 0
    for _ in range(n):  # a full level-1 deck each time: Torch 4 in 7
        st.supply[SUP.CARDS, torch], st.supply[SUP.CARDS, coin] = copies
        st.npile[0, PILE.DISCARD] = 0
        rewards.give_reward_nb(st, tab, 0, RK.CHEST_CARD, 1, 1)
        hits += _gained(st) == torch
    assert abs(hits / n - 4 / 7) < 0.06  # 3.2 standard errors
    st.supply[SUP.CARDS, torch] = 0  # only Lucky Coins left
    for _ in range(3):
        st.npile[0, PILE.DISCARD] = 0
        rewards.give_reward_nb(st, tab, 0, RK.CHEST_CARD, 1, 1)
        assert _gained(st) == coin
    st.supply[SUP.CARDS, coin] = 0  # none left: nothing, and no draw of the generator
    st.npile[0, PILE.DISCARD] = 0
    rng = st.rng.copy()
    rewards.give_reward_nb(st, tab, 0, RK.CHEST_CARD, 1, 1)
    assert st.npile[0, PILE.DISCARD] == 0 and (st.rng == rng).all()


# --- TR-360..363: summoning ---------------------------------------------------------------------
def _summoner(g, p, staff, mana=6):
    g.st.chars[p, CH.MAXMANA] = mana
    g.st.chars[p, CH.MANA] = mana
    g.st.chars[p, CH.OTHER] = staff


def test_only_a_character_that_can_act_summons():  # TR-360
    g = arena()
    g.character(0, 1, 1)
    _summoner(g, 0, STAFF_A)
    g.st.chars[0, CH.IN_WORLD] = 0  # dead, waiting to respawn
    assert not magic.summon_nb(g.st, g.tab, 0)
    g.st.chars[0, CH.IN_WORLD] = 1
    g.st.g[G.OVER] = OUT.OUT_OF_TIME  # the game is over
    assert not magic.summon_nb(g.st, g.tab, 0)
    assert g.st.chars[0, CH.MINION] == -1 and g.st.chars[0, CH.MANA] == 6
    g.st.g[G.OVER] = 0
    assert magic.summon_nb(g.st, g.tab, 0)
    assert g.st.chars[0, CH.MINION] == 0 and g.st.chars[0, CH.MANA] == 4


def test_a_minion_needs_a_card_left_in_the_supply():  # TR-360, TR-362, TR-363, TR-018
    g = arena()
    tab = replace(g.tab, minion_copies=np.array([1, 4], dtype=np.int16))
    g.character(0, 1, 1)
    g.character(1, 1, 4)
    _summoner(g, 0, STAFF_A)
    _summoner(g, 1, STAFF_A)
    assert magic.summon_nb(g.st, tab, 0)
    assert not magic.summon_nb(g.st, tab, 1)  # the only Minion A card is taken
    assert g.st.chars[1, CH.MINION] == -1 and g.st.chars[1, CH.MANA] == 6
    g.st.chars[0, CH.OTHER] = STAFF_B  # player 0 replaces it: the card goes back
    assert magic.summon_nb(g.st, tab, 0) and g.st.chars[0, CH.MINION] == 1
    assert magic.summon_nb(g.st, tab, 1) and g.st.chars[1, CH.MINION] == 0
    g.st.chars[0, CH.OTHER] = STAFF_A  # now player 1 holds it
    assert not magic.summon_nb(g.st, tab, 0) and g.st.chars[0, CH.MINION] == 1
    life.die_nb(g.st, tab, 1)  # a dead character's minion card goes back (TR-363)
    assert g.st.chars[1, CH.MINION] == -1
    assert magic.summon_nb(g.st, tab, 0) and g.st.chars[0, CH.MINION] == 0
    # the default content: 4 of each kind, so the supply never runs out for 4 players
    _, dtab, _ = new_game()
    assert dtab.minion_copies.tolist() == [4, 4, 4]


def test_a_staff_of_the_current_minion_does_not_hide_the_weapons():  # TR-360, TR-362
    g = arena()
    eq = g.tab.equip.copy()
    eq[TWIN, EQ.MINION] = 1  # a weapon that summons minion 1
    eq[TWIN, EQ.MANA] = 1
    tab = replace(g.tab, equip=eq)
    g.character(0, 1, 1)
    _summoner(g, 0, STAFF_A)
    g.st.chars[0, CH.WEAPON] = TWIN
    assert magic.summon_nb(g.st, tab, 0)  # the Other card first
    assert g.st.chars[0, CH.MINION] == 0 and g.st.chars[0, CH.MANA] == 4
    assert magic.summon_nb(g.st, tab, 0)  # its minion is summoned: the weapon's is next
    assert g.st.chars[0, CH.MINION] == 1 and g.st.chars[0, CH.MANA] == 3
    g.st.chars[0, CH.ATK] = 0
    assert attack.attack_icons_nb(g.st, tab, 0) == MINIONS[1]
