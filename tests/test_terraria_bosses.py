"""Terraria bosses: criteria, spawning, behaviour, displacement, wounds, loot; world squares.

Checklist ids (``shared/rules/terraria-checklist.md``) are cited beside each rule tested.
Tables are hand-made (``terraria_boss_helpers``); the displacement step is checked against a
plain-Python reference built on the movement reference ``terraria_helpers.Ref``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as hst
from terraria_boss_helpers import (
    BRAIN,
    DOLL,
    EATER,
    EYE,
    KING,
    LENS,
    QUEEN,
    WALL,
    make_state,
    make_tables,
    put,
    where,
)
from terraria_helpers import DATA, RES_DIG, H, Ref, W, generated

from simlib.core.rng import new_state, shuffle_nb
from simlib.errors import SimlibInputError
from simlib.games.terraria.compile import load_world
from simlib.games.terraria.engine import bosses as bs
from simlib.games.terraria.engine import enemy as en
from simlib.games.terraria.engine import enemy_turn, foes
from simlib.games.terraria.engine import movement as mv
from simlib.games.terraria.state import (
    BH,
    BIOME,
    BO,
    BOSS_ROW,
    CH,
    CNT,
    EN,
    FEAT,
    KIND,
    OUT,
    PC,
    RK,
    ROLE,
    SQ,
    SUP,
    TP,
    G,
    P,
)

CHAR, WALK, FLY, WORM = KIND.CHARACTER, KIND.WALKER, KIND.FLYER, KIND.WORM
TOP, LEFT = 6, 30
FLAT = ["." * 14] * 3 + ["#" * 14]  # columns 30..43: ground on row 9, pieces stand on row 8
RES = list(DATA["resources"])


def row(b):
    """The ``pieces`` row of boss ``b``."""
    return BOSS_ROW + b


def deck(st, b):
    """Boss ``b``'s behaviour deck order (a view of ``g``)."""
    return st.g[G.BEHAV + 3 * b : G.BEHAV + 3 * b + 3]


def setup_boss(st, tab, b, kind, r, c, order=(0, 1, 2)):
    """Put boss ``b`` in play at (r, c) (it falls if it walks) with a known behaviour order."""
    st.g[G.IN_PLAY] |= 1 << b
    st.g[G.FORM + b] = 0
    st.g[G.BOSS_LEFT + b] = tab.bosses[b, BO.WOUNDS]
    deck(st, b)[:] = order
    st.g[G.BEHAV_AT + b] = 0
    st.g[G.SPAWNED] |= 1 << b
    return put(st, row(b), kind, r, c, role=ROLE.BOSS, btype=b)


def stock_tray(st, tab, section=1):
    """Three day tokens (walking enemies) in a tray section (1: Forest, Underground)."""
    tab.enemies[:, EN.KIND] = WALK
    tab.enemies[:, EN.WOUNDS] = 1
    tab.tray_tok[section, :3] = (0, 1, 0)
    tab.tray_n[section] = 3
    st.tray[section, :] = 0


def trigger_block(st, r, c, res, flag):
    st.grid[P.SQ, r, c] = SQ.BLOCK
    st.grid[P.RES, r, c] = RES.index(res) + 1
    st.grid[P.FEAT, r, c] |= flag


# --- criteria and spawning --------------------------------------------------------------------
def test_king_slime_spawns_after_eight_slimes_once():
    st, tab = make_state(FLAT, TOP, LEFT), make_tables()
    put(st, 0, CHAR, 8, 33)
    put(st, 1, CHAR, 8, 35)
    # TR-074: the meter starts at 0; TR-075: each slime advances it by 1
    for i in range(7):
        assert foes.slime_slain_nb(st, tab) == 1 and st.g[G.SLIMES] == i + 1
    assert bs.check_boss_criteria_nb(st, tab) == 0
    # TR-076 / TR-391: the 8th slime makes King Slime pending
    assert foes.slime_slain_nb(st, tab) == 1
    assert st.g[G.PENDING] == 1 << KING and st.g[G.TRIGGER + KING] == 0
    # TR-400: the meter stops once King Slime is pending
    assert foes.slime_slain_nb(st, tab) == 0 and st.g[G.SLIMES] == 8
    ref = st.rng.copy()
    # TR-398: it enters play when the enemy turn begins
    assert bs.spawn_pending_bosses_nb(st, tab) == 1 << KING
    # TR-403 (reading): nearest empty square to the lowest-numbered character (8, 33):
    # ring 1, topmost then leftmost, is (7, 32); a walking boss falls to the ground
    assert where(st, row(KING)) == (8, 32)
    assert st.pieces[row(KING), PC.KIND] == WALK
    assert st.pieces[row(KING), PC.ROLE] == ROLE.BOSS and st.pieces[row(KING), PC.TYPE] == KING
    assert st.grid[P.OCC, 8, 32] == row(KING) + 1
    # TR-401: Form A with its wound tokens
    assert st.g[G.IN_PLAY] == 1 << KING and st.g[G.FORM + KING] == 0
    assert st.g[G.BOSS_LEFT + KING] == tab.bosses[KING, BO.WOUNDS] == 3
    # TR-402: the 3 behaviour cards shuffled (2 draws), the top one face up
    order = np.arange(3, dtype=np.int32)
    shuffle_nb(order, 3, ref)
    np.testing.assert_array_equal(deck(st, KING), order)
    np.testing.assert_array_equal(st.rng, ref)
    assert st.g[G.BEHAV_AT + KING] == 0
    assert st.g[G.SPAWNED] == 1 << KING and st.g[G.PENDING] == 0
    # TR-400: each boss spawns at most once
    st.g[G.SLIMES] = 30
    assert bs.check_boss_criteria_nb(st, tab) == 0


def test_breaking_the_bee_larva_spawns_queen_bee_there():
    st, tab = make_state(FLAT, TOP, LEFT), make_tables()
    put(st, 0, CHAR, 8, 33)
    trigger_block(st, 8, 34, "bee_larva", FEAT.LARVA)
    cost = int(RES_DIG[RES.index("bee_larva") + 1])
    assert cost == DATA["resources"]["bee_larva"]["dig"] == 2  # the dig cost is data
    args = (st.grid, st.tiles, st.mini, st.pieces, 0, 8, 34)
    assert mv.dig_nb(*args, 1, RES_DIG, st.falls, st.disc, st.tally)[1] == 0  # not broken yet
    assert st.grid[P.FEAT, 8, 34] & FEAT.LARVA
    feat = int(st.grid[P.FEAT, 8, 34])
    spent, done, res = mv.dig_nb(*args, 1, RES_DIG, st.falls, st.disc, st.tally)
    assert done == 1 and res == RES.index("bee_larva") + 1
    assert DATA["resources"]["bee_larva"]["structural"]  # discarded, never in an inventory
    # TR-392: breaking the larva makes Queen Bee pending, its square the trigger
    assert bs.broke_block_nb(st, tab, 0, 8, 34, feat) == QUEEN
    assert st.g[G.PENDING] == 1 << QUEEN
    assert st.g[G.TRIGGER + QUEEN] == 8 * bs.PACK + 34 + 1
    assert not st.grid[P.FEAT, 8, 34] & FEAT.LARVA
    assert bs.broke_block_nb(st, tab, 0, 8, 35, 0) == -1  # a plain block triggers nothing
    assert bs.spawn_pending_bosses_nb(st, tab) == 1 << QUEEN
    assert where(st, row(QUEEN)) == (8, 34)  # TR-403 (reading): the broken block's square


@pytest.mark.parametrize("evil, boss", [(0, EATER), (1, BRAIN)])
def test_shadow_orb_or_crimson_heart_by_world(evil, boss):
    st, tab = make_state(FLAT, TOP, LEFT), make_tables()
    st.g[G.EVIL] = evil
    put(st, 0, CHAR, 8, 33)
    trigger_block(st, 7, 34, "shadow_orb" if evil == 0 else "crimson_heart", FEAT.ORB)
    feat = int(st.grid[P.FEAT, 7, 34])
    dug = mv.dig_nb(st.grid, st.tiles, st.mini, st.pieces, 0, 7, 34, 9, RES_DIG,
                    st.falls, st.disc, st.tally)  # fmt: skip
    assert dug[1] == 1
    # TR-394: Shadow Orb -> Eater of Worlds (Corruption only); TR-395: Crimson Heart -> Brain
    # of Cthulhu (Crimson only); TR-040: the other evil biome's boss takes no part
    assert bs.broke_block_nb(st, tab, 0, 7, 34, feat) == boss
    assert st.g[G.PENDING] == 1 << boss
    other = BRAIN if boss == EATER else EATER
    assert bs._boss_for_nb(st, tab, int(tab.bosses[other, BO.SPAWN])) == -1


def test_lenses_spent_at_an_altar():
    st, tab = make_state(FLAT, TOP, LEFT), make_tables()
    st.grid[P.FEAT, 8, 36] |= FEAT.ALTAR
    put(st, 0, CHAR, 8, 33)
    put(st, 1, CHAR, 8, 35)
    st.inv[0, 0] = (LENS, 3)
    # TR-397 (reading): the spender must be next to the altar
    assert not bs.spend_lenses_nb(st, tab, 0)
    np.testing.assert_array_equal(st.inv[0, 0], (LENS, 3))
    st.inv[1, 0] = (LENS, 2)
    assert not bs.spend_lenses_nb(st, tab, 1)  # 2 lenses are not enough (TR-393: 3)
    st.inv[1, 2] = (LENS, 2)
    st.inv[1, 1] = (5, 4)
    # TR-393: 3 lenses at the altar (a diagonal or side neighbour counts, TR-124)
    assert bs.spend_lenses_nb(st, tab, 1)
    np.testing.assert_array_equal(st.inv[1], [[0, 0], [5, 4], [LENS, 1], [0, 0], [0, 0], [0, 0]])
    assert st.g[G.PENDING] == 1 << EYE and st.g[G.TRIGGER + EYE] == 8 * bs.PACK + 36 + 1
    st.inv[1, 0] = (LENS, 5)
    assert not bs.spend_lenses_nb(st, tab, 1)  # TR-400: once only; lenses kept
    assert st.inv[1, 0, 1] == 5
    assert bs.spawn_pending_bosses_nb(st, tab) == 1 << EYE
    assert where(st, row(EYE)) == (8, 36)  # on the altar square (flying)


def test_voodoo_doll_next_to_lava():
    st, tab = make_state(FLAT, TOP, LEFT), make_tables()
    st.grid[P.SQ, 8, 38] = SQ.LAVA
    put(st, 0, CHAR, 8, 33)
    put(st, 1, CHAR, 8, 37)
    st.held[0, DOLL] = 1
    assert not bs.use_voodoo_nb(st, tab, 0)  # no lava next to it
    assert not bs.use_voodoo_nb(st, tab, 1)  # next to lava without the doll
    st.held[1, DOLL] = 1
    # TR-396: discarding the doll next to lava (the engine's consumable action discards it
    # to the consumables deck, TR-387, when this allows it)
    assert bs.use_voodoo_nb(st, tab, 1)
    assert st.held[1, DOLL] == 1 and st.supply[SUP.CONSUMABLE, DOLL] == 0
    assert st.g[G.PENDING] == 1 << WALL and st.g[G.TRIGGER + WALL] == 8 * bs.PACK + 38 + 1
    assert not bs.use_voodoo_nb(st, tab, 1)  # TR-400: once only


def test_every_pending_boss_spawns_at_once():
    st, tab = make_state(FLAT, TOP, LEFT), make_tables()
    put(st, 0, CHAR, 8, 33)
    trigger_block(st, 8, 38, "bee_larva", FEAT.LARVA)
    assert bs.broke_block_nb(st, tab, 0, 8, 38, FEAT.LARVA) == QUEEN
    st.g[G.SLIMES] = 8
    bs.check_boss_criteria_nb(st, tab)
    assert st.g[G.PENDING] == (1 << QUEEN) | (1 << KING)
    # TR-398, TR-316: every boss whose criterion was met enters play as the enemy turn
    # begins; nothing limits the bosses in play (reading: in boss id order, each placed
    # around the earlier ones)
    ref = st.rng.copy()
    assert bs.spawn_pending_bosses_nb(st, tab) == (1 << QUEEN) | (1 << KING)
    assert st.g[G.IN_PLAY] == (1 << QUEEN) | (1 << KING) and st.g[G.PENDING] == 0
    assert where(st, row(KING)) == (8, 32) and where(st, row(QUEEN)) == (7, 37)
    for b in (KING, QUEEN):  # TR-401, TR-402: each its own card, tokens and deck
        order = np.arange(3, dtype=np.int32)
        shuffle_nb(order, 3, ref)
        np.testing.assert_array_equal(deck(st, b), order)
        assert st.g[G.BOSS_LEFT + b] == tab.bosses[b, BO.WOUNDS] and st.g[G.FORM + b] == 0
    assert bs.spawn_pending_bosses_nb(st, tab) == 0
    # TR-412, TR-419: each boss's wound tokens are its own; defeating one leaves the other
    assert bs.wound_boss_nb(st, tab, 0, KING, 5) == 2
    assert bs.wound_boss_nb(st, tab, 1, QUEEN, 1) == 0
    assert st.chars[0, CH.BOSS_TOKENS + KING] == 5 and st.chars[0, CH.BOSS_TOKENS + QUEEN] == 0
    assert st.chars[1, CH.BOSS_TOKENS + QUEEN] == 1
    assert st.g[G.IN_PLAY] == 1 << QUEEN and st.pieces[row(KING), PC.KIND] == KIND.NONE
    assert st.g[G.BOSS_LEFT + QUEEN] == tab.bosses[QUEEN, BO.WOUNDS] - 1
    assert st.g[G.SPAWNED] == (1 << QUEEN) | (1 << KING)
    # TR-418: the defeat stays recorded in its counter, for whenever its Fight objective is
    # current
    assert st.cnt[CNT.BOSS + KING] == 1 and st.cnt[CNT.BOSS + QUEEN] == 0


def _two_bosses_called(index):
    """King Slime (the 8th slime) and Queen Bee (a broken larva) called in one round."""
    st, tab = make_state(FLAT, TOP, LEFT, index=index), make_tables()
    put(st, 0, CHAR, 8, 33)
    put(st, 1, CHAR, 8, 39)
    trigger_block(st, 8, 42, "bee_larva", FEAT.LARVA)
    bs.broke_block_nb(st, tab, 1, 8, 42, FEAT.LARVA)
    st.g[G.SLIMES] = 8
    bs.check_boss_criteria_nb(st, tab)
    return st, tab


def test_two_bosses_called_in_one_round_both_act_at_the_next_enemy_turn():
    # TR-316, TR-398: both enter play as the enemy turn begins, and each acts on its own
    # face-up Behaviour card (TR-405, TR-407): it moves only if its own card says move;
    # each turns its own next card after the attacks (TR-409). Games where the two top
    # cards disagree on moving tell a boss acting on the other's card apart.
    seen = set()
    for index in range(40):
        st, tab = _two_bosses_called(index)
        ref = st.rng.copy()
        first = {}
        for b in (KING, QUEEN):
            order = np.arange(3, dtype=np.int32)
            shuffle_nb(order, 3, ref)
            first[b] = int(order[0])
        moves = {b: bool(tab.behaviour[b, first[b], BH.MOVE]) for b in (KING, QUEEN)}
        enemy_turn.enemy_turn_nb(st, tab)
        assert st.g[G.IN_PLAY] == (1 << KING) | (1 << QUEEN) and st.g[G.PENDING] == 0
        assert int(deck(st, KING)[0]) == first[KING] and int(deck(st, QUEEN)[0]) == first[QUEEN]
        assert st.g[G.BEHAV_AT + KING] == 1 and st.g[G.BEHAV_AT + QUEEN] == 1
        # where each spawned (TR-403): King Slime beside character 0, Queen Bee beside the
        # larva's block; it is still there unless its own card moved it
        assert (where(st, row(KING)) != (8, 32)) == moves[KING], index
        assert (where(st, row(QUEEN)) != (7, 41)) == moves[QUEEN], index
        seen.add((moves[KING], moves[QUEEN]))
    assert {(True, False), (False, True)} <= seen


def test_spawn_position_is_the_nearest_empty_square():
    st, tab = make_state(["......", "..##..", "..#...", "######"], TOP, LEFT), make_tables()
    put(st, 0, CHAR, 8, 30)
    st.g[G.PENDING] = 1 << EYE
    st.g[G.TRIGGER + EYE] = 8 * bs.PACK + 32 + 1  # a block: ring 1 from it holds (7, 31) first
    st.grid[P.OCC, 7, 31] = 3  # say a piece stands there: the next in order is taken
    assert bs.spawn_pending_bosses_nb(st, tab) == 1 << EYE
    assert where(st, row(EYE)) == (8, 31)  # TR-403 (reading): ring 1, top down, left right


# --- behaviour ----------------------------------------------------------------------------------
def test_behaviour_deck_turns_and_reshuffles():
    st, tab = make_state(FLAT, TOP, LEFT), make_tables()
    put(st, 0, CHAR, 8, 33)
    setup_boss(st, tab, KING, WALK, 8, 30, order=(2, 0, 1))
    seen = []
    for _ in range(3):
        card = deck(st, KING)[st.g[G.BEHAV_AT + KING]]
        seen.append(int(card))
        # TR-405: the face-up card says what the boss does
        move, short, ranged = tab.behaviour[KING, card, BH.MOVE :]
        assert bs.boss_flags_nb(st, tab, KING) == (move, short, int(ranged == 1))
        bs.boss_end_turn_nb(st, tab, KING)  # TR-409: discard it, turn the next
    assert seen == [2, 0, 1]
    # TR-410: out of cards: the 3 discards are shuffled into a new deck
    ref = new_state(0, 0)
    order = np.array([2, 0, 1], dtype=np.int32)
    shuffle_nb(order, 3, ref)
    assert st.g[G.BEHAV_AT + KING] == 0
    np.testing.assert_array_equal(deck(st, KING), order)
    np.testing.assert_array_equal(st.rng, ref)


def test_not_applicable_move_and_spawn_instead_of_ranged():
    st, tab = make_state(FLAT, TOP, LEFT), make_tables()
    put(st, 0, CHAR, 8, 35)
    setup_boss(st, tab, KING, WALK, 8, 32, order=(2, 0, 1))
    stock_tray(st, tab)
    # TR-407: card 2's move is N/A, so the boss stays; TR-408: it spawns an enemy instead
    # of a ranged attack (no ranged attack) and attacks at short range
    assert bs.boss_flags_nb(st, tab, KING) == (0, 1, 0)
    assert bs.boss_move_nb(st, tab, KING) == 0 and where(st, row(KING)) == (8, 32)
    assert bs.boss_ranged_spawn_nb(st, tab, KING) == 1
    # next to the boss: the first free neighbour, top down (it falls to the ground)
    assert st.pieces[4, PC.ROLE] == ROLE.ENEMY and where(st, 4) == (8, 31)
    assert st.pieces[4, PC.SECTION] == 1 and st.tray[1, st.pieces[4, PC.TSLOT]] == 1
    bs.boss_end_turn_nb(st, tab, KING)
    assert bs.boss_flags_nb(st, tab, KING) == (1, 1, 0)
    assert bs.boss_ranged_spawn_nb(st, tab, KING) == 0
    assert bs.boss_move_nb(st, tab, KING) == 2 and where(st, row(KING)) == (8, 34)
    assert bs.boss_flags_nb(make_state(FLAT, TOP, LEFT), tab, KING) == (0, 0, 0)  # no boss
    assert bs.boss_flags_nb(st, tab, QUEEN) == (0, 0, 0)  # another boss: not in play


def test_special_abilities_fire_first_when_the_card_says():
    tab = make_tables()
    # TR-406: SPAWN puts enemies next to the boss; card 1 has no special
    st = make_state(FLAT, TOP, LEFT)
    stock_tray(st, tab)
    put(st, 0, CHAR, 8, 35)
    setup_boss(st, tab, KING, WALK, 8, 32, order=(1, 0, 2))
    assert bs.boss_special_nb(st, tab, KING) == 0
    bs.boss_end_turn_nb(st, tab, KING)
    assert bs.boss_special_nb(st, tab, KING) == 2
    # each in the first free neighbour, top down: (7, 31); the first falls to the ground,
    # the second lands on it
    assert sorted([where(st, 4), where(st, 5)]) == [(7, 31), (8, 31)]
    # HEAL puts wound tokens back, never above the form's count
    st = make_state(FLAT, TOP, LEFT)
    put(st, 0, CHAR, 8, 35)
    setup_boss(st, tab, EYE, FLY, 8, 30)
    bs.wound_boss_nb(st, tab, 0, EYE, 3)
    assert st.g[G.BOSS_LEFT + EYE] == 1
    assert bs.boss_special_nb(st, tab, EYE) == 0 and st.g[G.BOSS_LEFT + EYE] == 3
    bs.boss_special_nb(st, tab, EYE)
    assert st.g[G.BOSS_LEFT + EYE] == 4
    # BURN: every character on the boss's tile loses health; one at 1 health dies
    st = make_state(FLAT, TOP, LEFT)
    st.g[G.EVIL] = 1
    put(st, 0, CHAR, 8, 31)
    put(st, 1, CHAR, 8, 37)  # the next tile (tile columns are 6 squares wide)
    put(st, 2, CHAR, 8, 34)
    st.chars[2, CH.HP] = 1
    st.chars[2, CH.COINS] = 7
    setup_boss(st, tab, BRAIN, FLY, 7, 33)
    bs.boss_special_nb(st, tab, BRAIN)
    assert list(st.chars[:3, CH.HP]) == [4, 5, 0]
    # the death (placeholder for life.die_nb): off the world, coins halved, a tombstone
    assert st.chars[2, CH.IN_WORLD] == 0 and st.pieces[2, PC.KIND] == KIND.NONE
    assert st.chars[2, CH.DEATHS] == 1 and st.chars[2, CH.COINS] == 4
    assert st.g[G.TOMBS] == 3 and st.g[G.DIED] == 1


def test_every_boss_special_fires_before_the_enemies_move():
    # TR-406, TR-316: with several bosses in play, every one whose face-up card says so
    # fires its special ability first thing in the enemy turn (reading: in boss id order)
    tab = make_tables()
    st = make_state(FLAT, TOP, LEFT)
    stock_tray(st, tab)
    put(st, 0, CHAR, 8, 41)
    setup_boss(st, tab, KING, WALK, 8, 31, order=(0, 1, 2))  # card 0: SPAWN 2
    setup_boss(st, tab, EYE, FLY, 6, 36, order=(0, 1, 2))  # card 0: HEAL 2
    bs.wound_boss_nb(st, tab, 0, EYE, 3)
    assert st.g[G.BOSS_LEFT + EYE] == 1
    enemy_turn.enemy_turn_nb(st, tab)
    assert st.g[G.BOSS_LEFT + EYE] == 3  # the Eye healed
    spawned = [k for k in range(4, BOSS_ROW) if st.pieces[k, PC.ROLE] == ROLE.ENEMY
               and st.pieces[k, PC.KIND] != KIND.NONE]  # fmt: skip
    assert len(spawned) == 2  # King Slime summoned two
    assert st.g[G.BEHAV_AT + KING] == 1 and st.g[G.BEHAV_AT + EYE] == 1


@pytest.mark.parametrize("charge", [False, True])
def test_charge_adds_squares_to_the_move(charge):
    tab = make_tables()
    st = make_state(FLAT, TOP, LEFT)
    put(st, 0, CHAR, 8, 41)
    setup_boss(st, tab, QUEEN, FLY, 8, 31, order=(0, 1, 2) if charge else (1, 0, 2))
    bs.boss_special_nb(st, tab, QUEEN)
    assert st.g[G.BOSS_EXTRA + QUEEN] == (2 if charge else 0)
    moved = bs.boss_move_nb(st, tab, QUEEN)
    assert moved == (5 if charge else 3)  # Queen Bee's movement is 3 (TR-405)
    assert where(st, row(QUEEN)) == (8, 31 + moved)
    assert st.g[G.BOSS_EXTRA + QUEEN] == 0


# --- displacement -------------------------------------------------------------------------------
def test_boss_displaces_a_character_to_a_free_side():
    st, tab = make_state(FLAT, TOP, LEFT), make_tables()
    put(st, 0, CHAR, 8, 32)
    put(st, 1, CHAR, 8, 34)
    setup_boss(st, tab, KING, WALK, 8, 30)
    # TR-139: the boss moves as close as it can: into the nearest character's square; that
    # character goes to a free horizontal or diagonal neighbour (left first: the square the
    # boss has just left counts as empty)
    assert bs.boss_move_nb(st, tab, KING) == 2
    assert where(st, row(KING)) == (8, 32)
    assert where(st, 0) == (8, 31)
    assert where(st, 1) == (8, 34)
    assert st.grid[P.OCC, 8, 31] == 1 and st.grid[P.OCC, 8, 32] == row(KING) + 1
    assert st.chars[0, CH.HP] == 5


PILLAR = ["......", "..#...", "..#...", "..#...", "######"]  # top of the pillar: row 7


@pytest.mark.parametrize("index", range(8))
def test_displaced_character_falls_and_rolls_fall_damage(index):
    st, tab = make_state(PILLAR, TOP, LEFT, index=index), make_tables()
    put(st, 0, CHAR, 6, 32)  # stands on the pillar
    setup_boss(st, tab, QUEEN, FLY, 6, 31)
    ref = st.rng.copy()
    assert bs.boss_move_nb(st, tab, QUEEN) == 1 and where(st, row(QUEEN)) == (6, 32)
    # TR-140: every free square means a fall; the shortest is 2 (down-left, then down-right:
    # down-left first); the character falls to the ground and rolls fall damage (TR-128,
    # TR-129: its defence dice, a d6 here, total <= 2 squares loses 1 health)
    assert where(st, 0) == (9, 31)
    hurt = int(mv.fall_hurts_nb(np.array([6]), 2, False, True, ref))
    np.testing.assert_array_equal(st.rng, ref)
    assert st.chars[0, CH.HP] == 5 - hurt and st.chars[0, CH.FALL_DMG] == hurt
    assert st.chars[0, CH.FALLS] == 1
    assert st.tally[mv.T.FALLS] == 0  # the boss's move settled (consumed) its fall events


def test_displacement_prefers_a_cobweb_landing_and_no_damage_modes():
    st, tab = make_state(PILLAR, TOP, LEFT), make_tables()
    st.grid[P.FEAT, 9, 33] |= FEAT.COBWEB
    put(st, 0, CHAR, 6, 32)
    setup_boss(st, tab, QUEEN, FLY, 6, 31)
    ref = st.rng.copy()
    bs.boss_move_nb(st, tab, QUEEN)
    # a 3-square fall into a cobweb beats a risky 2-square fall (TR-130: no damage, no roll)
    assert where(st, 0) == (9, 33)
    assert st.chars[0, CH.HP] == 5 and st.chars[0, CH.FALLS] == 1
    np.testing.assert_array_equal(st.rng, ref)
    # TR-436: Lucky Horseshoe (no fall damage): a 2-square fall never hurts
    for index in range(6):
        st = make_state(PILLAR, TOP, LEFT, index=index)
        st.g[G.FALL_DAMAGE] = 0
        put(st, 0, CHAR, 6, 32)
        setup_boss(st, tab, QUEEN, FLY, 6, 31)
        bs.boss_move_nb(st, tab, QUEEN)
        assert where(st, 0) == (9, 31) and st.chars[0, CH.HP] == 5


POCKET = ["###", "#.#", "###"]  # one open square, (7, 31)


def _worm_in_block(st, r, c):
    st.g[G.IN_PLAY] = 1 << EATER
    st.g[G.BOSS_LEFT + EATER] = 4
    k = row(EATER)
    st.pieces[k, PC.KIND] = WORM
    st.pieces[k, PC.ROW] = r
    st.pieces[k, PC.COL] = c
    st.pieces[k, PC.ROLE] = ROLE.BOSS
    st.pieces[k, PC.TYPE] = EATER
    st.grid[P.OCC, r, c] = k + 1


@pytest.mark.parametrize("tombs", [3, 0])
def test_boxed_in_character_is_killed(tombs):
    st, tab = make_state(POCKET, TOP, LEFT), make_tables()
    put(st, 0, CHAR, 7, 31)
    st.chars[0, CH.COINS] = 9
    st.g[G.TOMBS] = tombs
    _worm_in_block(st, 7, 30)  # the worm boss comes out of the block to its left
    assert bs.boss_step_nb(st, tab, EATER, 0, 1)
    # TR-141: no free horizontal or diagonal neighbour: killed; it dies as usual
    assert where(st, row(EATER)) == (7, 31) and st.grid[P.OCC, 7, 31] == row(EATER) + 1
    assert st.pieces[0, PC.KIND] == KIND.NONE and st.chars[0, CH.IN_WORLD] == 0
    assert st.chars[0, CH.HP] == 0 and st.chars[0, CH.DEATHS] == 1
    assert st.chars[0, CH.COINS] == 5  # half of 9, rounded down, lost
    if tombs:
        assert st.g[G.TOMBS] == tombs - 1 and st.g[G.OVER] == 0
    else:
        assert st.g[G.OVER] == OUT.OUT_OF_RESPAWNS  # TR-427: no tombstone left


def test_boxed_in_enemy_goes_to_the_tray_discard_without_loot():
    st, tab = make_state(POCKET, TOP, LEFT), make_tables()
    put(st, 5, WALK, 7, 31, role=ROLE.ENEMY, btype=1, section=3, tslot=5)
    st.tray[3, 5] = 1
    st.g[G.SLIMES] = 2
    _worm_in_block(st, 7, 30)
    before = st.chars.copy()
    assert bs.boss_step_nb(st, tab, EATER, 0, 1)
    # TR-141 / TR-142 (reading): killed, to its tray section's discard area, no loot, no
    # slime counted
    assert st.pieces[5, PC.KIND] == KIND.NONE and st.tray[3, 5] == 2
    assert st.g[G.SLIMES] == 2 and not np.any(st.cnt)
    np.testing.assert_array_equal(st.chars, before)


def test_displaced_flying_enemy_does_not_fall_walking_one_does():
    for kind, row in ((FLY, 6), (WALK, 8)):
        st, tab = make_state(FLAT, TOP, LEFT), make_tables()
        put(st, 0, CHAR, 8, 35)
        if kind == WALK:  # a walker needs something to stand on up there
            st.grid[P.SQ, 7, 33] = SQ.BLOCK
        put(st, 5, kind, 6, 33, role=ROLE.ENEMY)
        setup_boss(st, tab, QUEEN, FLY, 5, 32)
        st.tally[:] = 0
        assert bs.boss_step_nb(st, tab, QUEEN, 1, 1)  # down-right, into the enemy's square
        # TR-140: a flying enemy goes to the first free neighbour (left) and stays in the
        # air; a walking one to the shortest fall (down-left, 1 square) and falls (TR-131:
        # enemies take no fall damage)
        assert where(st, 5) == (row, 32)
        assert st.tally[mv.T.FALLS] == (1 if kind == WALK else 0)


def test_ordinary_enemies_never_displace():
    # TR-138: only bosses displace; an enemy moving toward a character stops beside it
    st = make_state(FLAT, TOP, LEFT)
    put(st, 0, CHAR, 8, 33)
    put(st, 5, WALK, 8, 30, role=ROLE.ENEMY)
    en.move_enemy_nb(st.grid, st.tiles, st.mini, st.pieces, 5, 5, st.dist, st.how, st.queue,
                     st.path, st.falls, st.disc, st.tally, st.seen, 0)  # fmt: skip
    assert where(st, 0) == (8, 33) and where(st, 5) == (8, 32)


# --- wounds, defeat and loot ----------------------------------------------------------------------
def test_wounds_form_b_carry_over_and_defeat():
    st, tab = make_state(FLAT, TOP, LEFT), make_tables()
    put(st, 0, CHAR, 8, 35)
    put(st, 1, CHAR, 8, 37)
    setup_boss(st, tab, KING, WALK, 8, 30)
    # TR-412: each wound takes a token off the card and gives it to the attacker
    assert bs.wound_boss_nb(st, tab, 0, KING, 2) == 0
    assert st.g[G.BOSS_LEFT + KING] == 1 and st.chars[0, CH.BOSS_TOKENS + KING] == 2
    # TR-413 / TR-414: the wound that empties Form A flips the card to Form B's count (2);
    # the rest of the attack comes off Form B
    assert bs.wound_boss_nb(st, tab, 1, KING, 2) == 1
    assert st.g[G.FORM + KING] == 1 and st.g[G.BOSS_LEFT + KING] == 1
    assert st.chars[1, CH.BOSS_TOKENS + KING] == 2
    # Form B's stats are in force (its movement is one more here)
    assert bs.boss_stat_nb(st, tab, KING, BO.MOVEMENT) == 3
    assert tab.bosses[KING, bs.form_col_nb(BO.MOVEMENT, 1)] == 3
    # TR-415: the last Form B token defeats it; extra wounds are lost
    assert bs.wound_boss_nb(st, tab, 0, KING, 3) == 2
    assert st.chars[0, CH.BOSS_TOKENS + KING] == 3
    assert st.g[G.DEFEATED] == 1 << KING and st.g[G.IN_PLAY] == 0
    # TR-417: the defeat completes the Fight objective tied to it (its counter)
    assert st.cnt[CNT.BOSS + KING] == 1 and st.cnt[CNT.BOSSES] == 1
    assert st.pieces[row(KING), PC.KIND] == KIND.NONE and st.grid[P.OCC, 8, 30] == 0
    assert st.g[G.OVER] == 0
    assert bs.wound_boss_nb(st, tab, 0, KING, 1) == 0  # no boss in play


def test_boss_numbers_come_from_the_tables():
    # TR-404: wound counts, movement, special ability and behaviour deck are data
    st, tab = make_state(FLAT, TOP, LEFT), make_tables()
    tab.bosses[KING, BO.WOUNDS] = 1
    tab.bosses[KING, bs.form_col_nb(BO.WOUNDS, 1)] = 4
    tab.bosses[KING, BO.MOVEMENT] = 5
    tab.bosses[KING, bs.form_col_nb(BO.SPECIAL, 1)] = 2  # Form B: SPECIAL.HEAL
    tab.bosses[KING, bs.form_col_nb(BO.SPECIAL_N, 1)] = 1
    tab.behaviour[KING, :, BH.SPECIAL] = 1
    put(st, 0, CHAR, 8, 41)
    setup_boss(st, tab, KING, WALK, 8, 30)
    assert st.g[G.BOSS_LEFT + KING] == 1
    assert bs.boss_move_nb(st, tab, KING) == 5 and where(st, row(KING)) == (8, 35)
    assert bs.wound_boss_nb(st, tab, 0, KING, 2) == 1 and st.g[G.BOSS_LEFT + KING] == 3
    assert bs.boss_special_nb(st, tab, KING) == 0 and st.g[G.BOSS_LEFT + KING] == 4


def test_wall_of_flesh_defeat_wins_at_once():
    st, tab = make_state(FLAT, TOP, LEFT), make_tables()
    put(st, 0, CHAR, 8, 35)
    setup_boss(st, tab, WALL, WALK, 8, 30)
    assert bs.wound_boss_nb(st, tab, 0, WALL, 5) == 1
    assert st.g[G.OVER] == 0
    assert bs.wound_boss_nb(st, tab, 0, WALL, 4) == 2
    assert st.g[G.OVER] == OUT.WON_WALL_OF_FLESH  # TR-425


def test_loot_split_by_wound_tokens():
    st, tab = make_state(FLAT, TOP, LEFT, players=3), make_tables()
    st.chars[:3, CH.BOSS_TOKENS + KING] = [1, 3, 3]
    st.chars[:3, CH.BOSS_TOKENS + QUEEN] = [9, 0, 0]  # another boss's battle: no say here
    out = np.zeros((16, 4), dtype=np.int64)
    n = bs.boss_loot_nb(st, tab, KING, out)
    # TR-419 (rule): ranked by wound tokens, most first, ties to the lower number: 1, 2, 0;
    # 10 coins split 4 / 3 / 3 in that order; the other entries dealt in turn
    assert n == 5
    np.testing.assert_array_equal(
        out[:n],
        [
            [1, RK.COINS, 0, 4],
            [2, RK.COINS, 0, 3],
            [0, RK.COINS, 0, 3],
            [1, RK.EQUIP, 3, 1],
            [2, RK.CONSUMABLE, 1, 1],
        ],
    )


# --- the displacement step against a plain-Python reference ------------------------------------
DISPLACE = ((0, -1), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1))


def ref_displace(ref, j, killed):
    kind, r, c = ref.pieces[j][:3]
    best, bkey = None, None
    for dr, dc in DISPLACE:
        nr, nc = r + dr, c + dc
        if not ref.on_table(nr, nc) or ref.sq[nr][nc] == SQ.BLOCK or (nr, nc) in ref.standing:
            continue
        if kind != CHAR and ref.feat[nr][nc] & FEAT.HOUSE:
            continue
        fall = 0
        if kind != FLY:
            while not ref.on_surface(nr + fall, nc):
                fall += 1
        risky = kind == CHAR and fall >= 2 and not ref.feat[nr + fall][nc] & FEAT.COBWEB
        key = (risky, fall)
        if bkey is None or key < bkey:
            best, bkey = (nr, nc), key
    if best is None:
        ref.pieces[j] = None
        killed.append(j)
        return
    ref.pieces[j][3] = 0
    ref.enter(j, *best)
    ref.settle(j, 0 if kind == FLY else ref.drop(j))


def ref_boss_step(ref, k, dr, dc, killed):
    kind, r, c = ref.pieces[k][:3]
    was = ref.unstand(k)
    nr, nc = r + dr, c + dc
    j = ref.standing.pop((nr, nc), None)
    if j is not None:
        ref_displace(ref, j, killed)
    ref.pieces[k][1:3] = [nr, nc]
    if kind == WALK:
        ref.drop(k)
    ref.standing.setdefault(tuple(ref.pieces[k][1:3]), k)
    if was:
        ref.topple(r - 1, c)
    if j is not None:
        ref.topple(nr - 1, nc)


@settings(max_examples=400, deadline=None)
@given(
    seed=hst.integers(0, 2**32 - 1),
    density=hst.floats(0.0, 0.9),
    n_pieces=hst.integers(2, 12),
    bkind=hst.sampled_from([WALK, FLY, WORM]),
)
def test_boss_step_matches_reference(seed, density, n_pieces, bkind):
    # random worlds from open (pieces fall when displaced) to cramped (no free square: kills)
    rng = np.random.default_rng(seed)
    cells = np.where(rng.random((6, 7)) < density, "#", rng.choice(list("../=w"), (6, 7)))
    # the boss, and a piece in the square of its step (held up by a block below it)
    bi, bj = int(rng.integers(1, 5)), int(rng.integers(1, 6))
    d = int(rng.integers(8))
    vi, vj = bi + int(en.DIRS[d, 0]), bj + int(en.DIRS[d, 1])
    cells[bi, bj] = "#" if bkind == WORM and rng.random() < 0.5 else "."
    cells[vi, vj] = "."
    if vi + 1 < 6 and (vi + 1, vj) != (bi, bj):
        cells[vi + 1, vj] = "#"
    rows = ["".join(r) for r in cells]
    spots = [(vi, vj, int(rng.choice([CHAR, WALK, FLY])))]
    spots += [
        (int(rng.integers(6)), int(rng.integers(7)), int(rng.choice([CHAR, WALK, FLY])))
        for _ in range(n_pieces)
    ]
    boss = (bi, bj, bkind)
    # TR-139 / TR-140 / TR-141: the displacement step (choice, fall, kill) as a reference
    rows = [*rows, "#######"]
    st, tab = make_state(rows, TOP, LEFT), make_tables()
    chars = enemies = 0
    for i, j, kind in spots:
        if st.grid[P.SQ, TOP + i, LEFT + j] == SQ.BLOCK or st.grid[P.OCC, TOP + i, LEFT + j]:
            continue
        if kind == CHAR and chars < 4:
            put(st, chars, CHAR, TOP + i, LEFT + j)
            chars += 1
        elif kind != CHAR:
            put(st, 4 + enemies, kind, TOP + i, LEFT + j, role=ROLE.ENEMY, section=2,
                tslot=enemies)  # fmt: skip
            enemies += 1
    bi, bj, bkind = boss
    r, c = TOP + bi, LEFT + bj
    assume(st.grid[P.OCC, r, c] == 0 and (bkind == WORM or st.grid[P.SQ, r, c] != SQ.BLOCK))
    st.g[G.IN_PLAY] = 1 << KING
    st.pieces[row(KING), PC.KIND] = bkind
    st.pieces[row(KING), PC.ROW] = r
    st.pieces[row(KING), PC.COL] = c
    st.pieces[row(KING), PC.ROLE] = ROLE.BOSS
    st.grid[P.OCC, r, c] = row(KING) + 1
    # the step: the first allowed direction from ``d`` on that enters an occupied square
    for t in range(8):
        dr, dc = (int(x) for x in en.DIRS[(d + t) % 8])
        ok = en.enemy_can_step_nb(st.grid, st.tiles, bkind, r, c, dr, dc)
        if ok and st.grid[P.OCC, r + dr, c + dc]:
            break
    else:
        assume(False)
    st.tally[:] = 0
    ref = Ref(st.grid, st.tiles, st.mini, st.pieces)
    killed = []
    ref_boss_step(ref, row(KING), dr, dc, killed)
    assert bs.boss_step_nb(st, tab, KING, dr, dc)
    for k, p in enumerate(ref.pieces):
        if p is None:
            assert st.pieces[k, PC.KIND] == KIND.NONE, k
        else:
            assert (int(st.pieces[k, PC.ROW]), int(st.pieces[k, PC.COL])) == (p[1], p[2]), k
    occ = {(int(a), int(b)): int(st.grid[P.OCC, a, b]) - 1 for a, b in np.argwhere(st.grid[P.OCC])}
    assert occ == ref.standing
    n = int(st.tally[mv.T.FALLS])
    assert [tuple(int(x) for x in f) for f in st.falls[:n]] == ref.falls
    for k in killed:
        if k < 4:
            assert st.chars[k, CH.IN_WORLD] == 0 and st.chars[k, CH.DEATHS] == 1
        else:
            assert st.tray[2, k - 4] == 2


# --- the world's trigger squares ----------------------------------------------------------------
def test_every_default_world_has_its_boss_squares():
    # where altars stand is illustrative data (world.toml [boss_squares.altar]); which altar
    # it is (Demon or Crimson) follows the world's evil biome (TR-393)
    altar_biomes = {
        getattr(BIOME, name.upper())
        for name in load_world(None)["boss_squares"]["altar"]["biomes"]
    }
    for index in range(40):
        grid, tiles, _ = generated(3, index, reveal_all=True)
        biome = tiles[TP.BIOME][0]
        evil = BIOME.CORRUPTION if BIOME.CORRUPTION in biome else BIOME.CRIMSON
        found = {"larva": 0, "altar": 0, "orb": 0}
        for lay in range(5):
            for tc in range(17):
                f = grid[P.FEAT, lay * H : (lay + 1) * H, tc * W : (tc + 1) * W]
                sq = grid[P.SQ, lay * H : (lay + 1) * H, tc * W : (tc + 1) * W]
                b = biome[tc]
                if np.any(f & FEAT.LARVA):
                    # TR-392: the Bee Larva is a block in the Underground Jungle
                    assert b == BIOME.JUNGLE and lay == 1
                    assert np.all(sq[(f & FEAT.LARVA) != 0] == SQ.BLOCK)
                    found["larva"] += 1
                if np.any(f & FEAT.ALTAR):
                    # TR-393: an altar below the Surface, in a biome the data lists
                    assert b in altar_biomes and 1 <= lay <= 3
                    assert np.all(sq[(f & FEAT.ALTAR) != 0] == SQ.AIR)
                    found["altar"] += 1
                if np.any(f & FEAT.ORB):
                    # TR-394 / TR-395: Shadow Orbs / Crimson Hearts in the evil caverns
                    assert b == evil and lay in (2, 3)
                    found["orb"] += 1
        assert found["larva"] >= 1 and found["altar"] >= 1 and found["orb"] >= 1, found
    # the blocks' resources say which one it is
    names = list(DATA["resources"])
    assert {"bee_larva", "shadow_orb", "crimson_heart"} <= set(names)


def test_boss_squares_table_is_validated(tmp_path):
    # TR-004: one line naming the key and what is allowed
    p = tmp_path / "w.toml"
    p.write_text('[boss_squares.larva]\nresource = "bee_larva"\nbiomes = ["jungle"]\n'
                 'layers = ["underground"]\nper_stock = 4\n', encoding="utf-8")  # fmt: skip
    with pytest.raises(SimlibInputError) as err:
        load_world(str(p))
    msg = str(err.value)
    assert "boss_squares.larva.per_stock" in msg and "0 to 3" in msg and "\n" not in msg
    p.write_text("[boss_squares.hive]\nper_stock = 1\n", encoding="utf-8")
    with pytest.raises(SimlibInputError, match="larva, altar, orb, heart"):
        load_world(str(p))


# --- plain Python (NUMBA_DISABLE_JIT=1) gives the same results --------------------------------
ROOT = Path(__file__).resolve().parents[1]
SCRIPT = """
import json, sys, warnings
warnings.filterwarnings("ignore")
sys.path.insert(0, "tests")
from terraria_boss_helpers import make_state, make_tables, put, LENS, KING, EYE
from simlib.games.terraria.state import FEAT, P
from simlib.games.terraria.engine import bosses as bs
from simlib.games.terraria.state import BOSS_ROW, CH, G
from simlib.games.terraria.state import KIND
rows = ["." * 10, "....#.....", "....#.....", "." * 10, "#" * 10]
out = []
for index in range(8):
    st, tab = make_state(rows, 6, 30, players=3, index=index), make_tables()
    put(st, 0, KIND.CHARACTER, 6, 34)
    put(st, 1, KIND.CHARACTER, 9, 38)
    put(st, 2, KIND.CHARACTER, 9, 31)
    if index % 2:  # lenses at an altar next to character 1 (trigger square from int16 rows)
        st.grid[P.FEAT, 9, 37] |= FEAT.ALTAR
        st.inv[1, 0] = (LENS, 3)
        assert bs.spend_lenses_nb(st, tab, 1)
    else:
        st.g[G.SLIMES] = 8
        bs.check_boss_criteria_nb(st, tab)
    b = KING if index % 2 == 0 else EYE
    bs.spawn_pending_bosses_nb(st, tab)
    for turn in range(5):
        bs.boss_special_nb(st, tab, b)
        bs.boss_move_nb(st, tab, b)
        bs.boss_end_turn_nb(st, tab, b)
    bs.wound_boss_nb(st, tab, 1, b, 4)
    out.append([st.g.tolist(), st.chars[:, [CH.HP, CH.FALLS, CH.FALL_DMG]].tolist(),
                st.pieces[:, :3].tolist(), st.rng.tolist()])
print(json.dumps(out))
"""


def _run(disable):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    if disable:
        env["NUMBA_DISABLE_JIT"] = "1"
    res = subprocess.run([sys.executable, "-c", SCRIPT], env=env, cwd=ROOT, capture_output=True,
                         text=True, timeout=900, check=True)  # fmt: skip
    return json.loads(res.stdout.strip().splitlines()[-1])


def test_plain_python_matches_numba():
    plain, jit = _run(True), _run(False)
    assert plain == jit
    assert any(g[G.SPAWNED] for g, *_ in jit)
