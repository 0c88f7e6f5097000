"""Terraria bots with bosses: several bosses in play (targeting, fleeing) and Fight goals.

Scenes are real games from the default content on a hand-drawn world
(``test_terraria_rules_world.scene``). The bots' choices are the players' (TR-003); what
is tested is that they are the documented ones (``simlib/games/terraria/bots.py``).
"""

from __future__ import annotations

import numpy as np
from terraria_helpers import H
from test_terraria_engine import ident
from test_terraria_rules_world import LEFT, TOP, put, res, scene

from simlib.games.terraria import bots
from simlib.games.terraria.engine import actions, cards, cleanup, life, magic
from simlib.games.terraria.engine.movement import place_piece_nb
from simlib.games.terraria.state import (
    BO,
    BOSS_ROW,
    CH,
    CNT,
    EN,
    ENEMY_ROW,
    FEAT,
    KIND,
    LAYERS,
    OB,
    PC,
    PILE,
    ROLE,
    SQ,
    G,
    P,
)

FLAT = ["........", "........", "########"]  # pieces stand on row 1


def boss(st, tab, name, i, j, left=None, form=0):
    """Boss ``name`` in play at square (i, j) of the scene; its ``pieces`` row."""
    b = ident("bosses", name)
    k = BOSS_ROW + b
    assert place_piece_nb(st.grid, st.tiles, st.mini, st.pieces, k, tab.bosses[b, BO.KIND],
                          TOP + i, LEFT + j, st.falls, st.disc, st.tally)  # fmt: skip
    st.tally[:] = 0
    st.pieces[k, PC.ROLE] = ROLE.BOSS
    st.pieces[k, PC.TYPE] = b
    st.g[G.IN_PLAY] |= 1 << b
    st.g[G.SPAWNED] |= 1 << b
    st.g[G.FORM + b] = form
    wounds = tab.bosses[b, bots.bosses.form_col_nb(BO.WOUNDS, form)]
    st.g[G.BOSS_LEFT + b] = wounds if left is None else left
    return k


def weights(st, tab, p, bot="builder"):
    """The bot's working weights for ``p``'s turn."""
    w = np.zeros(bots.BP.N)
    bots.turn_weights_nb(st, tab, p, np.array(bots.BOTS[bot][1], dtype=np.float64), w)
    return w


# --- several bosses in play -------------------------------------------------------------------
def test_the_bot_attacks_the_wall_of_flesh_first_then_the_boss_nearest_defeat():
    st, tab = scene(FLAT)
    put(st, 0, 1, 3)  # the Copper Shortsword: short range (TR-260)
    king = boss(st, tab, "king_slime", 1, 2)
    eye = boss(st, tab, "eye_of_cthulhu", 0, 3)
    w = weights(st, tab, 0)
    # both in reach: King Slime has fewer wound tokens left to defeat it (Form A 6 + Form B 5
    # against the Eye's 7 + 6)
    assert bots.boss_target_nb(st, tab, 0, w) == king
    b = ident("bosses", "eye_of_cthulhu")
    st.g[G.FORM + b] = 1
    st.g[G.BOSS_LEFT + b] = 2  # the Eye is two wounds from defeat now
    assert bots.boss_target_nb(st, tab, 0, w) == eye
    wall = boss(st, tab, "wall_of_flesh", 1, 4)
    assert bots.boss_target_nb(st, tab, 0, w) == wall  # its defeat wins the game (TR-425)
    w[bots.BP.FLEE] = 1000.0
    assert bots.boss_target_nb(st, tab, 0, w) == -1  # a fleeing bot attacks no boss


def test_the_bot_flees_bosses_that_could_knock_it_out():
    st, tab = scene(FLAT)
    put(st, 0, 1, 3)
    st.chars[0, CH.HP] = 3
    boss(st, tab, "king_slime", 1, 5)  # Form A: one attack die
    assert bots.flee_weight_nb(st, tab, 0) == 0.0  # one die cannot take 3 health
    boss(st, tab, "eye_of_cthulhu", 0, 6)  # two dice; a mob of both: 2 + 1 dice (TR-346)
    assert bots.flee_weight_nb(st, tab, 0) == 1000.0
    w = weights(st, tab, 0)
    assert w[bots.BP.FLEE] == 1000.0
    st.chars[0, CH.HP] = 4
    assert weights(st, tab, 0)[bots.BP.FLEE] == 0.0

    def value(j, w):
        return bots._square_value_nb(st.grid, st.tiles, st.pieces, tab.enemies, tab.res_dig,
                                     tab.res_struct, TOP + 1, LEFT + j, w, True)  # fmt: skip

    w = weights(st, tab, 0)
    w[bots.BP.FIGHT] = 5.0
    # beside King Slime: worth fighting from, unless fleeing
    assert value(4, w) > value(2, w)
    w[bots.BP.FLEE] = 1000.0
    assert value(4, w) < 0 <= value(2, w)


def test_a_ranged_weapon_gives_way_to_a_short_one_beside_an_enemy():  # TR-208, TR-260
    st, tab = scene(FLAT)
    put(st, 0, 1, 3)
    bow = ident("equipment", "gold_bow")
    sword = ident("equipment", "copper_shortsword")
    st.owned[0, bow] = 1
    st.g[G.DRAWN] = 0
    bots.gear_up_nb(st, tab, 0)
    assert st.chars[0, CH.WEAPON] == bow  # the best by tier
    assert weights(st, tab, 0)[bots.BP.MELEE] == 0.0
    boss(st, tab, "king_slime", 1, 4)
    bots.gear_up_nb(st, tab, 0)
    assert st.chars[0, CH.WEAPON] == sword  # a bow cannot hit a neighbour
    assert weights(st, tab, 0)[bots.BP.MELEE] == 1.0
    st.g[G.DRAWN] = 1  # TR-210: once drawn, nothing changes
    st.chars[0, CH.WEAPON] = bow
    bots.gear_up_nb(st, tab, 0)
    assert st.chars[0, CH.WEAPON] == bow


# --- the Fight chain's bosses --------------------------------------------------------------------
def fight_objective(tab, boss_name):
    """Index in the Fight chain of the objective to defeat ``boss_name`` (the data's)."""
    rows = tab.objectives[10:20]
    b = ident("bosses", boss_name)
    return next(i for i in range(10) if rows[i, OB.COUNTER] == CNT.BOSS and rows[i, OB.PARAM] == b)


def fight_scene(top=TOP, boss_name="king_slime", needed=2, build=1):
    """Players 0 and 1 on the world; the Fight chain's current objective defeats a boss.

    Its objectives before that one are done, 2 of Dig, 1 of Explore and ``build`` of Build.
    """
    st, tab = scene(FLAT, top=top)
    put(st, 0, 1, 2, top=top)
    put(st, 1, 1, 5, top=top)
    st.g[G.OBJ : G.OBJ + 4] = (2, fight_objective(tab, boss_name), 1, build)
    st.g[G.CHAINS] = 0
    st.g[G.CHAINS_NEEDED] = needed
    return st, tab


def test_king_slime_objective_sends_the_team_after_slimes():
    st, tab = fight_scene()  # Fight's current objective: Defeat King Slime; Fight, Dig chosen
    builder = bots.BOTS["builder"][1]
    boost = builder[bots.BP.BOOST]
    fight = max(builder[bots.BP.FIGHT], 1.0)
    w0, w1 = weights(st, tab, 0), weights(st, tab, 1)
    # player 0 pushes Fight (the most advanced chain): boost squared; player 1 Dig
    assert w0[bots.BP.SLIME] == fight * boost * boost
    assert w1[bots.BP.SLIME] == fight * boost
    assert w0[bots.BP.LENS] == w0[bots.BP.ALTAR] == w0[bots.BP.BOSS] == 0
    # a slime beside a square makes it worth that much more
    slime = ident("bestiary", "green_slime")
    k = ENEMY_ROW
    assert place_piece_nb(st.grid, st.tiles, st.mini, st.pieces, k, KIND.WALKER, TOP + 1,
                          LEFT + 7, st.falls, st.disc, st.tally)  # fmt: skip
    st.pieces[k, PC.ROLE] = ROLE.ENEMY
    st.pieces[k, PC.TYPE] = slime
    assert tab.enemies[slime, EN.SLIME] == 1

    def value(j, w):
        return bots._square_value_nb(st.grid, st.tiles, st.pieces, tab.enemies, tab.res_dig,
                                     tab.res_struct, TOP + 1, LEFT + j, w, True)  # fmt: skip

    assert w0[bots.BP.MELEE] == 1.0  # the Copper Shortsword
    gain = value(6, w0) - value(4, w0)
    assert gain == w0[bots.BP.FIGHT] + w0[bots.BP.SLIME]
    # once King Slime is in play, the boss itself is the goal
    boss(st, tab, "king_slime", 1, 0)
    w0 = weights(st, tab, 0)
    assert w0[bots.BP.BOSS] == fight * boost * boost and w0[bots.BP.SLIME] == 0
    # Fight not among the chosen chains (Easy: Build is the most advanced): no Fight goal
    st, tab = fight_scene(needed=1, build=9)
    assert weights(st, tab, 0)[bots.BP.SLIME] == 0 and weights(st, tab, 1)[bots.BP.SLIME] == 0


def test_the_eye_objective_hunts_lenses_then_spends_them_at_an_altar():  # TR-393, TR-397
    top = 2 * H + 1  # the Upper Cavern
    st, tab = fight_scene(top=top, boss_name="eye_of_cthulhu")
    lens = res("lens")
    w0 = weights(st, tab, 0)
    assert w0[bots.BP.LENS] > 0 and w0[bots.BP.ALTAR] == 0
    # Demon Eyes (the lens droppers) are Surface enemies: the player pushing Fight heads
    # for the Surface's bottom row from the Upper Cavern
    assert bots.layer_with_nb(tab, 2, EN.LOOT_RES, lens) == 0
    assert w0[bots.BP.TRAVEL] > 0 and w0[bots.BP.TO_ROW] == H - 1
    assert weights(st, tab, 1)[bots.BP.TRAVEL] == 0  # player 1 pushes Dig
    # three lenses on the team: the player holding most goes to the altar, taking the rest
    life.inventory_add_nb(st, 0, lens, 1)
    life.inventory_add_nb(st, 1, lens, 2)
    w0, w1 = weights(st, tab, 0), weights(st, tab, 1)
    assert w0[bots.BP.LENS] == w1[bots.BP.LENS] == 0
    assert w1[bots.BP.ALTAR] > 0 and w0[bots.BP.ALTAR] == 0
    bots.pool_lenses_nb(st, tab, 1, w1)
    assert life.count_units_nb(st.inv, st.chars, 1, lens) == 3
    assert life.count_units_nb(st.inv, st.chars, 0, lens) == 0
    # an altar beside a square makes it worth ``ALTAR`` more (on it counts too)
    altar = (top + 1, LEFT + 7)
    st.grid[P.FEAT][altar] |= FEAT.ALTAR

    def value(r, c):
        return bots._square_value_nb(st.grid, st.tiles, st.pieces, tab.enemies, tab.res_dig,
                                     tab.res_struct, r, c, w1, True)  # fmt: skip

    assert value(top + 1, LEFT + 6) - value(top + 1, LEFT + 3) == w1[bots.BP.ALTAR]
    assert bots.nearest_altar_row_nb(st, 1) == top + 1
    # there, the lenses are spent and the Eye is pending (TR-393)
    st.chars[1, CH.AP] = 1
    actions.step_action_nb(st, tab, 1, 0, 1)
    assert st.pieces[1, PC.COL] == LEFT + 6
    assert bots._adjacent_acts_nb(st, tab, 1, w1)
    assert st.g[G.PENDING] >> ident("bosses", "eye_of_cthulhu") & 1
    assert LAYERS * H == st.grid.shape[1]


def test_a_travelling_bot_drinks_a_recall_potion_that_takes_it_nearer():  # TR-389
    top = 3 * H + 1  # the Lower Cavern
    st, tab = fight_scene(top=top, boss_name="eye_of_cthulhu")
    st.grid[P.SQ, H, :] = SQ.BLOCK  # ground under the Surface
    recall = ident("consumables", "recall_potion")
    w0 = weights(st, tab, 0)
    assert w0[bots.BP.TRAVEL] > 0 and w0[bots.BP.TO_ROW] == H - 1  # up for lenses
    assert bots.recall_on_the_way_nb(st, tab, 0, w0) == 0  # none held
    st.held[0, recall] = 1
    w1 = weights(st, tab, 1)
    assert w1[bots.BP.TRAVEL] == 0 and bots.recall_on_the_way_nb(st, tab, 1, w1) == 0
    assert bots.recall_on_the_way_nb(st, tab, 0, w0) == 1
    assert st.held[0, recall] == 0 and st.pieces[0, PC.ROW] == H - 1  # the Surface Forest


def _hand_mirror(st, p):
    """Put a Magic Mirror into ``p``'s hand and play it (TR-389)."""
    mirror = ident("cards", "magic_mirror")
    st.deck[p, PILE.HAND, st.npile[p, PILE.HAND]] = mirror
    st.npile[p, PILE.HAND] += 1
    return mirror


def test_a_played_magic_mirror_recalls_once_that_turn():  # TR-389, TR-256
    top = 3 * H + 1  # the Lower Cavern
    st, tab = fight_scene(top=top, boss_name="eye_of_cthulhu")
    st.grid[P.SQ, H, :] = SQ.BLOCK  # ground under the Surface
    assert not magic.use_mirror_nb(st, tab, 0)  # no mirror played
    _hand_mirror(st, 0)
    cards.play_card_nb(st, tab, 0, st.npile[0, PILE.HAND] - 1, False)
    assert st.chars[0, CH.MIRROR] == 1
    row = st.pieces[0, PC.ROW]
    assert magic.use_mirror_nb(st, tab, 0)
    assert st.pieces[0, PC.ROW] == H - 1 and row != H - 1  # the Surface Forest
    assert st.chars[0, CH.MIRROR] == 0 and not magic.use_mirror_nb(st, tab, 0)  # once


def test_an_unused_magic_mirror_is_lost_at_cleanup():  # TR-389, TR-104
    st, tab = fight_scene(top=3 * H + 1, boss_name="eye_of_cthulhu")
    _hand_mirror(st, 0)
    cards.play_card_nb(st, tab, 0, st.npile[0, PILE.HAND] - 1, False)
    assert st.chars[0, CH.MIRROR] == 1
    cleanup.cleanup_nb(st, tab)
    assert st.chars[0, CH.MIRROR] == 0


def test_a_travelling_bot_recalls_with_its_mirror_before_a_potion():  # TR-389
    top = 3 * H + 1
    st, tab = fight_scene(top=top, boss_name="eye_of_cthulhu")
    st.grid[P.SQ, H, :] = SQ.BLOCK
    recall = ident("consumables", "recall_potion")
    st.held[0, recall] = 1
    _hand_mirror(st, 0)
    cards.play_card_nb(st, tab, 0, st.npile[0, PILE.HAND] - 1, False)
    w0 = weights(st, tab, 0)
    assert w0[bots.BP.TRAVEL] > 0 and w0[bots.BP.TO_ROW] == H - 1  # up for lenses
    assert bots.recall_on_the_way_nb(st, tab, 0, w0) == 1
    assert st.pieces[0, PC.ROW] == H - 1
    assert st.chars[0, CH.MIRROR] == 0 and st.held[0, recall] == 1  # the potion is kept
