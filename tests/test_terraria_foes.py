"""Terraria enemies (``simlib.games.terraria.engine.foes``): tray, spawning, sunrise, wounds and
loot, collecting tokens, the enemy turn's moves and attacks.

Checklist ids (``shared/rules/terraria-checklist.md``) are cited beside each rule tested. The
enemy attack step is checked against a plain-Python reference written from the rules
(:func:`ref_attacks`, hypothesis), and the rolls against exact duel distributions.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from terraria_foes_helpers import (
    ARCHER,
    EYE,
    GEL,
    LENS,
    SLIME,
    VOODOO_DEMON,
    WORM,
    ZOMBIE,
    Game,
    enemy_row,
    tables,
)

from simlib.core.dice import duel_distribution, mob_attack
from simlib.core.rng import randint_nb
from simlib.games.terraria.engine import foes, life
from simlib.games.terraria.engine.movement import T
from simlib.games.terraria.engine.sight import reach_nb, sees_nb
from simlib.games.terraria.state import (
    AR,
    BIOME,
    BOSS_ROW,
    CC,
    CF,
    CH,
    CNT,
    DEBUFF,
    EN,
    ENEMY_ROW,
    FEAT,
    KIND,
    LAYERS,
    N_PIECES,
    OUT,
    PC,
    PILE,
    ROLE,
    RU,
    SUP,
    TP,
    G,
    P,
)

E0 = ENEMY_ROW
OPEN = ["............", "############"]  # surface layer (top=0): tray section 0


def surface(rows=OPEN, **kw):
    return Game(rows, top=0, left=42, **kw)


# --- the tray and spawning ---------------------------------------------------------------------
def test_sections_are_biome_by_layer_and_ocean_has_none():  # TR-028, TR-029
    assert foes.section_index(BIOME.FOREST, 0) == 0
    assert foes.section_index(BIOME.CRIMSON, LAYERS - 1) == 29
    g = surface()
    assert foes.section_nb(g.st, 3, 44) == 0
    assert foes.section_nb(g.st, 7, 44) == 1  # underground layer
    g.st.tiles[TP.BIOME, 0, 7] = BIOME.JUNGLE
    assert foes.section_nb(g.st, 3, 44) == BIOME.JUNGLE * LAYERS
    g.st.tiles[TP.BIOME, 0, 7] = BIOME.OCEAN
    assert foes.section_nb(g.st, 3, 44) == -1
    assert foes.spawn_at_nb(g.st, g.tab, 0, 44) == -1  # nothing spawns on the ocean


def test_reset_tray_puts_every_token_back():  # TR-030
    g = surface()
    g.st.tray[0, :3] = (1, 2, 2)
    foes.reset_tray_nb(g.st, g.tab)
    assert not g.st.tray.any()


def test_a_spawn_draws_a_token_of_the_time_of_day_and_places_it():  # TR-310, TR-031
    for time, expect in ((0, {SLIME}), (2, {ZOMBIE, -3})):
        seen = set()
        for seed in range(12):
            g = surface(seed=seed)
            g.st.g[G.TIME] = time
            k = foes.spawn_at_nb(g.st, g.tab, 0, 44)
            assert k == E0
            s = g.st.pieces[k]
            assert g.where(k) == (0, 2)
            assert s[PC.SECTION] == 0 and g.st.tray[0, s[PC.TSLOT]] == foes.IN_WORLD
            assert s[PC.TYPE] == g.tab.tray_tok[0, s[PC.TSLOT]]
            assert g.tab.tray_night[0, s[PC.TSLOT]] == (time == 2)
            if s[PC.TYPE] >= 0:
                assert s[PC.ROLE] == ROLE.ENEMY
                assert s[PC.KIND] == g.tab.enemies[s[PC.TYPE], EN.KIND]
            else:
                assert s[PC.ROLE] == ROLE.STAR and s[PC.KIND] == KIND.TOKEN  # TR-358
            assert s[PC.WOUNDS] == 0
            assert g.st.grid[P.OCC, 0, 44] == k + 1
            seen.add(int(s[PC.TYPE]))
        assert seen == expect


def test_the_draw_is_uniform_over_the_tokens_left():  # TR-030, TR-310
    tray = {0: [(SLIME, 0), (EYE, 0), (WORM, 0), (ZOMBIE, 1)]}
    for seed in range(30):
        g = surface(tab=tables(tray=tray), seed=seed)
        g.st.tray[0, 1] = foes.IN_WORLD  # the Eye is already out
        state = g.st.rng.copy()
        j = randint_nb(2, state)  # the reference draw: 2 day tokens left, slots 0 and 2
        k = foes.spawn_at_nb(g.st, g.tab, 0, 44)
        assert g.st.pieces[k, PC.TSLOT] == (0, 2)[j]
        np.testing.assert_array_equal(g.st.rng, state)  # exactly one draw


def test_an_empty_section_takes_back_its_discards_first():  # TR-311, TR-032
    g = surface()
    g.st.tray[0, 0] = foes.IN_WORLD
    g.st.tray[0, 1] = foes.DISCARDED
    g.st.tray[0, 3] = foes.DISCARDED  # a night token: back in the tray too
    k = foes.spawn_at_nb(g.st, g.tab, 0, 44)
    assert g.st.pieces[k, PC.TSLOT] == 1
    assert list(g.st.tray[0, :4]) == [1, 1, 0, 0]


def test_nothing_spawns_when_the_section_has_no_token_of_that_time():  # TR-312
    g = surface()
    g.st.tray[0, :2] = foes.IN_WORLD
    assert foes.spawn_at_nb(g.st, g.tab, 0, 44) == -1
    state = g.st.rng.copy()
    g.st.tiles[TP.BIOME, 0, 7] = BIOME.DESERT  # a section with no tokens at all
    assert foes.spawn_at_nb(g.st, g.tab, 0, 45) == -1
    np.testing.assert_array_equal(g.st.rng, state)  # no draw was made


def test_a_covered_spawn_point_spawns_nothing():  # TR-313
    g = surface()
    g.character(0, 0, 2)
    assert foes.spawn_at_nb(g.st, g.tab, 0, 44) == -1  # a character on it
    g.st.grid[P.FEAT, 0, 46] |= FEAT.HOUSE
    assert foes.spawn_at_nb(g.st, g.tab, 0, 46) == -1  # under a house
    assert foes.spawn_at_nb(g.st, g.tab, 1, 46) == -1  # a block
    assert not g.st.tray.any()


def test_a_walker_spawned_over_a_tunnel_falls_a_flyer_does_not():  # TR-314, TR-126
    rows = ["..........", "##.#######", "##.#######", "##########"]
    tray = {0: [(SLIME, 0)], 1: [(EYE, 0)]}
    g = surface(rows, tab=tables(tray=tray))
    g.st.grid[P.FEAT, 1:3, 44] |= FEAT.TUNNEL
    k = foes.spawn_at_nb(g.st, g.tab, 0, 44)
    assert g.where(k) == (2, 2) and g.st.tally[T.FALLS] == 1
    g2 = Game(["....", "####"], top=5, left=42, tab=tables(tray=tray))  # Underground
    g2.st.grid[P.SQ, 6, 42:46] = 0
    k = foes.spawn_at_nb(g2.st, g2.tab, 5, 43)
    assert g2.st.pieces[k, PC.KIND] == KIND.FLYER and g2.where(k) == (0, 1)


def test_the_world_holds_at_most_40_enemy_tokens():  # TR-026
    tray = {0: [(SLIME, 0)] * 16}
    g = Game(["." * 48, "#" * 48], top=0, left=42, tab=tables(tray=tray))
    g.st.pieces[E0:BOSS_ROW, PC.KIND] = KIND.TOKEN  # every enemy row in use
    assert foes.spawn_at_nb(g.st, g.tab, 0, 44) == -1
    g.st.pieces[BOSS_ROW - 1, PC.KIND] = KIND.NONE
    assert foes.spawn_at_nb(g.st, g.tab, 0, 44) == BOSS_ROW - 1


def spawn_points(g, squares):
    for r, c in squares:
        g.st.grid[P.FEAT, r, c] |= FEAT.SPAWN


def test_a_newly_discovered_tile_spawns_on_each_of_its_spawn_points():  # TR-308
    tray = {0: [(SLIME, 0)] * 6}
    g = Game(["." * 18, "#" * 18], top=0, left=42, tab=tables(tray=tray))
    spawn_points(g, [(0, 43), (0, 45), (0, 50)])  # two on tile (0, 7), one on (0, 8)
    g.st.disc[0] = (0, 8)
    g.st.disc[1] = (0, 7)
    assert foes.spawn_discovered_nb(g.st, g.tab, 1) == 1
    assert g.where(E0) == (0, 8)
    assert foes.spawn_discovered_nb(g.st, g.tab, 2) == 2  # (0, 8) is covered now
    assert [g.where(k) for k in (E0 + 1, E0 + 2)] == [(0, 1), (0, 3)]


def test_skull_spawns_on_visible_points_of_character_tiles_and_their_neighbours():
    # TR-309, TR-313, TR-090
    tray = {0: [(SLIME, 0)] * 8, 1: [(SLIME, 0)] * 8}
    rows = ["." * 24, "#" * 24, "#" * 24, "#" * 24, "#" * 24] + [".." * 12, "#" * 24]
    g = Game(rows, top=0, left=36, tab=tables(tray=tray))
    # tiles (0, 6) .. (0, 9) on the surface, (1, 6) .. (1, 9) underground
    points = [(0, 37), (0, 43), (0, 49), (0, 55), (5, 37), (5, 43), (5, 49), (5, 50)]
    spawn_points(g, points)
    g.character(0, 0, 13)  # tile (0, 8): spawns there, on (0, 7), (0, 9) and (1, 8)
    g.st.g[G.TIME] = 0  # sunrise, no skull
    assert foes.skull_spawn_nb(g.st, g.tab) == 0
    g.st.g[G.TIME] = 1  # a skull space
    n = foes.skull_spawn_nb(g.st, g.tab)
    placed = sorted(
        (int(g.st.pieces[k, PC.ROW]), int(g.st.pieces[k, PC.COL])) for k in range(E0, E0 + n)
    )
    assert placed == [(0, 43), (0, 55), (5, 49), (5, 50)]  # (0, 49) is the character's
    g.st.tiles[TP.KNOWN, 1, 8] = 0  # an undiscovered tile never spawns
    for k in range(E0, E0 + n):
        foes.remove_token_nb(g.st, g.tab, k)
    assert foes.skull_spawn_nb(g.st, g.tab) == 2


def test_sunrise_removes_night_enemies_and_fallen_stars_only():  # TR-083, TR-084, TR-085
    tray = {5: [(SLIME, 0), (ZOMBIE, 1), (-3, 1), (-2, 1), (-2, 0)]}
    g = Game(["......", "######"], top=5, left=42, tab=tables(tray=tray))
    for i, e in enumerate([SLIME, ZOMBIE, -3, -2, -2]):
        g.enemy(E0 + i, e, 0, i, section=5, slot=i, wounds=1 if i < 2 else 0)
    assert foes.sunrise_foes_nb(g.st, g.tab) == 2
    kinds = [int(g.st.pieces[E0 + i, PC.KIND]) for i in range(5)]
    assert kinds == [KIND.WALKER, KIND.NONE, KIND.NONE, KIND.TOKEN, KIND.TOKEN]
    assert list(g.st.tray[5, :5]) == [1, 2, 2, 1, 1]  # to the section's discard area
    assert g.st.pieces[E0 + 1, PC.WOUNDS] == 0 and g.st.pieces[E0, PC.WOUNDS] == 1
    assert g.st.grid[P.OCC, 5, 43] == 0


def test_removing_a_token_drops_what_stands_on_it():  # TR-137, TR-032
    g = Game([".", ".", ".", "#"], left=31)
    g.enemy(E0, SLIME, 2, 0, section=1, slot=0)
    g.character(0, 0, 0)
    assert g.where(0) == (1, 0)
    g.st.tally[T.FALLS] = 0
    assert foes.remove_token_nb(g.st, g.tab, E0) == 1
    assert g.where(0) == (2, 0) and g.st.tally[T.FALLS] == 1
    assert g.st.tray[1, 0] == foes.DISCARDED
    assert foes.remove_token_nb(g.st, g.tab, E0) == 0


# --- wounds and loot ---------------------------------------------------------------------------
def test_wounds_stay_on_an_enemy_until_its_wound_value():  # TR-280, TR-281, TR-283
    g = surface()
    g.character(0, 0, 0)
    g.enemy(E0, ZOMBIE, 0, 5, section=0, slot=2)  # 2 wounds to defeat
    assert foes.wound_enemy_nb(g.st, g.tab, 0, E0, 1) == 0
    assert g.st.pieces[E0, PC.WOUNDS] == 1 and g.st.pieces[E0, PC.KIND] == KIND.WALKER
    assert foes.wound_enemy_nb(g.st, g.tab, 0, E0, 3) == 1  # the extra wounds are wasted
    assert g.st.pieces[E0, PC.KIND] == KIND.NONE and g.st.tray[0, 2] == foes.DISCARDED
    assert g.st.grid[P.OCC, 0, 47] == 0
    assert g.st.chars[0, CH.COINS] == 2 and g.st.chars[0, CH.KILLS] == 1
    assert g.st.cnt[CNT.ENEMIES] == 1 and g.st.cnt[CNT.COINS] == 2
    assert foes.wound_enemy_nb(g.st, g.tab, 0, E0, 1) == -1  # nothing there any more


def test_loot_goes_to_the_player_who_defeats_it():  # TR-282, TR-195, TR-196
    g = surface()
    g.character(1, 0, 0)
    g.st.chars[1, CH.COINS] = 24
    g.enemy(E0, EYE, 0, 5)
    assert foes.wound_enemy_nb(g.st, g.tab, 1, E0, 1) == 1
    assert g.st.chars[1, CH.COINS] == 25  # 1 of 1 coin fits
    assert life.inventory_count_nb(g.st, 1, LENS) == 1  # the lens drop (TR-397)
    assert g.st.cnt[CNT.RES + LENS] == 1 and g.st.cnt[CNT.COINS] == 1
    assert g.st.chars[0, CH.KILLS] == 0 and g.st.chars[1, CH.KILLS] == 1


def test_the_voodoo_demon_drops_the_guide_voodoo_doll():  # TR-390, TR-388
    g = surface()
    g.character(0, 0, 0)
    for k in (E0, E0 + 1):
        g.enemy(k, VOODOO_DEMON, 0, 4 + 2 * (k - E0))
    assert foes.wound_enemy_nb(g.st, g.tab, 0, E0, 3) == 1
    assert list(g.st.held[0]) == [0, 1] and g.st.supply[SUP.CONSUMABLE, 1] == 0
    assert g.st.chars[0, CH.COINS] == 9
    assert foes.wound_enemy_nb(g.st, g.tab, 0, E0 + 1, 3) == 1
    assert list(g.st.held[0]) == [0, 1]  # no copy left: nothing gained


def test_slimes_advance_the_meter_and_call_king_slime():  # TR-075, TR-076, TR-391, TR-400
    g = Game(["." * 12, "#" * 12], top=0, left=42)
    g.character(0, 0, 0)
    for i in range(9):
        g.enemy(E0, SLIME, 0, 5)
        assert foes.wound_enemy_nb(g.st, g.tab, 0, E0, 1) == 1
        assert g.st.g[G.SLIMES] == min(i + 1, 8)
        assert g.st.g[G.PENDING] == (1 if i >= 7 else 0)  # King Slime is boss 0
    assert g.st.cnt[CNT.SLIMES] == 9 and life.inventory_count_nb(g.st, 0, GEL) == 9
    g.st.g[G.SPAWNED] = 1
    g.st.g[G.SLIMES] = 3
    g.enemy(E0, SLIME, 0, 5)
    foes.wound_enemy_nb(g.st, g.tab, 0, E0, 1)
    assert g.st.g[G.SLIMES] == 3  # the meter stops once King Slime has spawned
    g.enemy(E0, ZOMBIE, 0, 5)
    foes.wound_enemy_nb(g.st, g.tab, 0, E0, 2)
    assert g.st.cnt[CNT.SLIMES] == 10 and g.st.cnt[CNT.ENEMIES] == 11


def test_tokens_and_the_boss_are_not_wounded_here():  # TR-307
    g = surface()
    g.character(0, 0, 0)
    g.enemy(E0, -2, 0, 3)
    g.st.pieces[BOSS_ROW, PC.KIND] = KIND.WALKER
    g.st.pieces[BOSS_ROW, PC.ROLE] = ROLE.BOSS
    assert foes.wound_enemy_nb(g.st, g.tab, 0, E0, 1) == -1
    assert foes.wound_enemy_nb(g.st, g.tab, 0, BOSS_ROW, 1) == -1
    assert g.st.pieces[E0, PC.WOUNDS] == 0


def test_collecting_a_life_crystal_or_a_fallen_star():  # TR-304, TR-305, TR-306, TR-359
    g = surface()
    g.character(0, 0, 2, hp=2)
    g.st.chars[0, CH.MAXHP] = 5
    g.st.chars[0, CH.MAXMANA] = 3
    g.enemy(E0, -2, 0, 3, section=1, slot=4)
    g.enemy(E0 + 1, -3, 0, 1, section=0, slot=3)
    g.enemy(E0 + 2, -2, 0, 6)
    assert foes.collect_token_nb(g.st, g.tab, 0, E0 + 2) == -1  # not adjacent
    assert foes.collect_token_nb(g.st, g.tab, 0, E0) == 1
    assert g.st.chars[0, CH.MAXHP] == 6 and g.st.chars[0, CH.HP] == 6
    assert g.st.tray[1, 4] == foes.DISCARDED and g.st.pieces[E0, PC.KIND] == KIND.NONE
    assert foes.collect_token_nb(g.st, g.tab, 0, E0 + 1) == 1
    assert g.st.chars[0, CH.MAXMANA] == 4 and g.st.chars[0, CH.MANA] == 4
    assert g.st.cnt[CNT.CRYSTALS] == 1 and g.st.cnt[CNT.STARS] == 1
    assert g.st.chars[0, CH.AP] == 0  # free


def test_extensions_stop_at_the_data_maximum():  # TR-305
    g = surface()
    g.character(0, 0, 2, hp=1)
    g.st.chars[0, CH.MAXHP] = g.tab.rules[RU.MAX_HP]
    g.enemy(E0, -2, 0, 3)
    assert foes.collect_token_nb(g.st, g.tab, 0, E0) == 1
    assert g.st.chars[0, CH.MAXHP] == g.tab.rules[RU.MAX_HP] == g.st.chars[0, CH.HP]


def test_enemies_are_not_collected():  # TR-307
    g = surface()
    g.character(0, 0, 2)
    g.enemy(E0, SLIME, 0, 3)
    assert foes.collect_token_nb(g.st, g.tab, 0, E0) == -1


# --- the enemy turn: moves ---------------------------------------------------------------------
def test_the_enemy_nearest_a_character_moves_first():  # TR-317, TR-324
    runner = enemy_row([6], 1, movement=2)
    tab = tables(enemies=np.array([enemy_row([4], 1), runner]))
    g = Game(["######", "......", "######"], top=5, left=42, tab=tab)
    g.character(0, 1, 0)
    g.enemy(E0 + 3, 0, 1, 2)  # nearer (2 squares), movement 1, in a higher row
    g.enemy(E0, 1, 1, 3)  # farther, movement 2: it would pass and take square 1 if first
    foes.enemy_moves_nb(g.st, g.tab)
    assert g.where(E0 + 3) == (1, 1) and g.where(E0) == (1, 2)


def test_an_enemy_with_movement_0_never_moves():  # TR-318
    g = surface()
    g.character(0, 0, 0)
    g.enemy(E0, ARCHER, 0, 6)
    assert foes.enemy_moves_nb(g.st, g.tab) == 0 and g.where(E0) == (0, 6)


def test_removing_a_token_gives_no_loot():  # TR-142
    g = surface()
    g.character(0, 0, 0)
    g.enemy(E0, SLIME, 0, 3, section=0, slot=1)
    foes.remove_token_nb(g.st, g.tab, E0)  # e.g. killed by a boss's displacement
    assert g.st.tray[0, 1] == foes.DISCARDED and g.st.chars[0, CH.COINS] == 0
    assert g.st.g[G.SLIMES] == 0 and g.st.cnt[CNT.ENEMIES] == 0


def test_tokens_and_the_boss_do_not_move_here():  # TR-307, TR-316
    g = surface()
    g.character(0, 0, 0)
    g.enemy(E0, -2, 0, 4)
    r, c = g.sq(0, 8)
    g.st.pieces[BOSS_ROW] = (KIND.WALKER, r, c, 0, ROLE.BOSS, 0, 0, -1, -1)
    g.st.grid[P.OCC, r, c] = BOSS_ROW + 1
    g.st.g[G.IN_PLAY] = 1
    assert foes.enemy_moves_nb(g.st, g.tab) == 0
    assert g.where(E0) == (0, 4) and g.where(BOSS_ROW) == (0, 8)


# --- the enemy turn: attacks -------------------------------------------------------------------
def ref_attacks(g, boss_short=0, boss_ranged=0):
    """The enemy attack step from the rules, on copies; returns what the kernel should leave.

    ``boss_short`` / ``boss_ranged``: the bosses whose card makes that attack (bit per id).

    Draws come from a copy of the game's generator in the order the module docstring of
    ``foes`` states (defence dice, the Dryad's die, the attack dice); sight and range use the
    tested ``sight`` kernels. Decks are empty but for the draw pile, so a death shuffles
    nothing; pieces stand in distinct columns, so nothing falls.
    """
    st, tab = g.st, g.tab
    rng = st.rng.copy()
    hp = [int(x) for x in st.chars[:, CH.HP]]
    alive = [bool(st.chars[p, CH.IN_WORLD]) for p in range(4)]
    duels, taken, mobbed, deaths = (
        [int(x) for x in st.chars[:, col]]
        for col in (CH.DUELS, CH.WOUNDS_TAKEN, CH.MOBBED, CH.DEATHS)
    )
    draw = [list(st.deck[p, PILE.DRAW, : st.npile[p, PILE.DRAW]]) for p in range(4)]
    supply = st.supply[SUP.CARDS].copy()
    tombs, over, dryad = int(st.g[G.TOMBS]), int(st.g[G.OVER]), bool(st.g[G.DRYAD_DIE])

    def stats(k):
        """(dice, ranges, debuff) of enemy or boss row k (boss b is row BOSS_ROW + b)."""
        t = st.pieces[k, PC.TYPE]
        if k >= BOSS_ROW:
            row = tab.bosses[t]
            off = 15 if st.g[G.FORM + t] != 0 else 0
            n = row[4 + off]
            return [int(x) for x in row[5 + off : 5 + off + n]], row[8 + off], row[17 + off]
        row = tab.enemies[t]
        return (
            [int(x) for x in row[EN.ATK0 : EN.ATK0 + row[EN.NATK]]],
            row[EN.RANGE],
            row[EN.DEBUFF],
        )

    attackers = [
        k
        for k in range(E0, BOSS_ROW)
        if st.pieces[k, PC.KIND] != KIND.NONE and st.pieces[k, PC.ROLE] == ROLE.ENEMY
    ]
    for b in range(N_PIECES - BOSS_ROW):  # the bosses last, in id order (TR-335 reading)
        if st.pieces[BOSS_ROW + b, PC.KIND] != KIND.NONE and st.g[G.IN_PLAY] >> b & 1:
            if (boss_short | boss_ranged) >> b & 1:
                attackers.append(BOSS_ROW + b)

    def band(k, p):
        _, ranges, _ = stats(k)
        er, ec = st.pieces[k, PC.ROW], st.pieces[k, PC.COL]
        cr, cc = st.pieces[p, PC.ROW], st.pieces[p, PC.COL]
        adjacent = max(abs(er - cr), abs(ec - cc)) == 1
        near_tile = abs(er // 5 - cr // 5) <= 1 and abs(ec // 6 - cc // 6) <= 1
        if adjacent:
            b = 3 if ranges & 1 else 0  # only short range reaches an adjacent square
        elif ranges & 4:
            b = 1
        elif ranges & 2 and near_tile:
            b = 2
        else:
            b = 0
        assert (b != 0) == bool(reach_nb(er, ec, cr, cc, 5, 6) & ranges)
        if k >= BOSS_ROW:
            bit = k - BOSS_ROW
            mask = boss_short if b == 3 else boss_ranged
            if b and not mask >> bit & 1:
                return 0
        return b if b and sees_nb(st.grid, st.tiles, er, ec, cr, cc) else 0

    def roll(p, pool, debuff, mob):
        nonlocal tombs, over, dryad
        a = st.chars[p, CH.ARMOR]
        if a >= 0:
            dd = tab.armor[a, AR.DEF0 : AR.DEF0 + tab.armor[a, AR.NDEF]]
        else:
            c = st.chars[p, CH.CARD]
            dd = tab.characters[c, CC.DEF0 : CC.DEF0 + tab.characters[c, CC.NDEF]]
        high = max(int(randint_nb(int(d), rng)) + 1 for d in dd)
        if dryad and len(pool) >= hp[p]:
            dryad = False
            high = max(high, int(randint_nb(int(tab.rules[RU.DRYAD_DIE]), rng)) + 1)
        high += int(st.chars[p, CH.DEF]) + (int(tab.armor[a, AR.DEF]) if a >= 0 else 0)
        hits = sum(int(randint_nb(d, rng)) + 1 >= high for d in pool)
        lost = min(hits, hp[p])
        hp[p] -= lost
        duels[p] += 1
        taken[p] += lost
        mobbed[p] += mob
        if hp[p] == 0:
            alive[p] = False
            deaths[p] += 1
            if tombs == 0:
                over = OUT.OUT_OF_RESPAWNS
            elif tombs > 0:
                tombs -= 1
        immune = a >= 0 and tab.armor[a, AR.IMMUNE] & (1 << debuff)
        if debuff and not immune:
            card = [i for i in range(len(tab.cards)) if tab.cards[i, CF.DEBUFF] == debuff][0]
            for _ in range(lost):
                if supply[card] > 0:
                    supply[card] -= 1
                    draw[p].append(card)
        return lost

    total = 0
    for b in (1, 2):
        for k in attackers:
            for p in range(4):
                if over or not alive[p] or band(k, p) != b:
                    continue
                dice, _, debuff = stats(k)
                total += roll(p, dice, debuff, False)
    for p in range(4):
        if over or not alive[p]:
            continue
        members = [k for k in attackers if band(k, p) == 3]
        if not members:
            continue
        pools = [stats(k)[0] for k in members]
        strength = [(max(d), d.count(max(d))) for d in pools]
        tied = [i for i, s in enumerate(strength) if s == max(strength)]
        lead = min(tied, key=lambda i: (sum(pools[i]) - min(pools[i]), members[i]))
        pool = pools[lead] + [min(d) for i, d in enumerate(pools) if i != lead]
        assert pool == mob_attack(pools, leader=lead)  # the core mob rule agrees
        total += roll(p, pool, stats(members[lead])[2], len(members) > 1)
    return dict(
        total=total, hp=hp, alive=alive, duels=duels, taken=taken, mobbed=mobbed,
        deaths=deaths, draw=draw, supply=supply, tombs=tombs, over=over, dryad=int(dryad),
        rng=rng,
    )  # fmt: skip


def check_attacks(g, boss_short=0, boss_ranged=0, want=None):
    if want is None:
        want = ref_attacks(g, boss_short, boss_ranged)
    got = foes.enemy_attacks_nb(g.st, g.tab, boss_short, boss_ranged)
    st = g.st
    assert got == want["total"]
    assert st.chars[:, CH.HP].tolist() == want["hp"]
    assert [bool(x) for x in st.chars[:, CH.IN_WORLD]] == want["alive"]
    assert st.chars[:, CH.DUELS].tolist() == want["duels"]
    assert st.chars[:, CH.WOUNDS_TAKEN].tolist() == want["taken"]
    assert st.chars[:, CH.MOBBED].tolist() == want["mobbed"]
    assert st.chars[:, CH.DEATHS].tolist() == want["deaths"]
    for p in range(4):
        assert st.deck[p, PILE.DRAW, : st.npile[p, PILE.DRAW]].tolist() == want["draw"][p]
    np.testing.assert_array_equal(st.supply[SUP.CARDS], want["supply"])
    assert (st.g[G.TOMBS], st.g[G.OVER], st.g[G.DRYAD_DIE]) == (
        want["tombs"], want["over"], want["dryad"],
    )  # fmt: skip
    np.testing.assert_array_equal(st.rng, want["rng"])
    return want


def certain(g):
    """Characters roll a d1 for defence: every attack die hits."""
    g.tab.characters[:, CC.DEF0] = 1
    return g


def test_the_reference_comparison_can_fail():  # a comparison helper must be able to fail
    g = surface()
    g.character(0, 0, 0)
    g.enemy(E0, SLIME, 0, 1)
    g.st.chars[0, CH.HP] = 4
    want = ref_attacks(g)
    g.st.chars[0, CH.HP] = 5  # the kernel now sees another health
    with pytest.raises(AssertionError):
        check_attacks(g, want=want)
    assert want["duels"][0] == 1


def test_an_enemy_attacks_every_character_in_range_and_sight_once():  # TR-332, TR-333
    g = certain(surface(["." * 18, "#" * 18]))
    g.character(0, 0, 0)
    g.character(1, 0, 6)
    g.character(2, 0, 15)
    g.enemy(E0, ARCHER, 0, 3)  # long + medium range, 2 dice
    w = check_attacks(g)
    assert w["duels"] == [1, 1, 1, 0] and w["taken"] == [2, 2, 2, 0]
    assert w["draw"][0] == [2, 2]  # On Fire! cards: one per health lost (TR-342)


def test_ranges_reach_as_weapon_ranges_do():  # TR-333, TR-336
    medium = enemy_row([6], 2)
    short = enemy_row([6], 1)
    g = certain(Game(["." * 18, "#" * 18], top=0, left=42, tab=tables(
        enemies=np.array([medium, short]))))  # fmt: skip
    g.character(0, 0, 0)  # tile 7: the medium enemy on tile 9 cannot reach it
    g.character(1, 0, 12)  # tile 9, adjacent: medium range cannot hit it either
    g.character(2, 0, 9)  # tile 8, not adjacent: hit
    g.enemy(E0, 0, 0, 13)
    g.enemy(E0 + 1, 1, 0, 5)  # short range: only the adjacent character (none here)
    w = check_attacks(g)
    assert w["duels"] == [0, 0, 1, 0]


def test_long_then_medium_then_short():  # TR-334, TR-290
    # each band's enemy carries its own debuff, so the one debuff card added names the
    # enemy that attacked first (the killing blow's debuffs are still added, TR-303)
    tab = tables(enemies=np.array([
        enemy_row([4], 1, debuff=DEBUFF.FROZEN),
        enemy_row([8], 2, debuff=DEBUFF.POISONED),
        enemy_row([6], 4, debuff=DEBUFF.ON_FIRE),
    ]))  # fmt: skip
    for order in ((0, 1, 2), (2, 1, 0), (1, 2, 0)):  # rows in every order: bands decide
        g = certain(Game(["." * 12, "#" * 12], top=0, left=42, tab=tab))
        g.character(0, 0, 5, hp=1)
        g.enemy(E0 + order[0], 0, 0, 4)  # short
        g.enemy(E0 + order[1], 1, 0, 8)  # medium
        g.enemy(E0 + order[2], 2, 0, 10)  # long: attacks first and kills
        state = g.st.rng.copy()
        w = check_attacks(g)
        assert w["duels"][0] == 1 and not w["alive"][0]
        assert w["draw"][0] == [DEBUFF.ON_FIRE]  # its card (card i has debuff i here)
        randint_nb(1, state)
        randint_nb(6, state)  # exactly one roll was made: the d1 defence and the long d6
        np.testing.assert_array_equal(g.st.rng, state)
    # without the long-range enemy, medium attacks before short
    g = certain(Game(["." * 12, "#" * 12], top=0, left=42, tab=tab))
    g.character(0, 0, 5, hp=1)
    g.enemy(E0, 0, 0, 4)
    g.enemy(E0 + 1, 1, 0, 8)
    w = check_attacks(g)
    assert w["duels"][0] == 1 and w["draw"][0] == [DEBUFF.POISONED]  # the medium d8 killed


def test_a_dead_character_is_not_attacked_again():  # TR-298, TR-290
    g = certain(surface())
    g.tab.characters[:, CC.DEF0] = 1
    g.character(0, 0, 5, hp=1)
    g.enemy(E0, ARCHER, 0, 0)
    g.enemy(E0 + 1, ARCHER, 0, 9)
    w = check_attacks(g)
    assert w["duels"][0] == 1 and g.st.chars[0, CH.HP] == 0


def test_a_character_dropped_by_a_death_is_attacked_where_it_lands():  # TR-137, TR-332
    g = certain(surface(["......."] * 4 + ["#######"]))
    g.character(0, 3, 0, hp=1)
    g.character(1, 0, 0)  # stands on character 0
    assert g.where(1) == (2, 0)
    g.enemy(E0, WORM, 4, 1)  # in the floor: beside (3, 0), not beside (2, 0)
    g.enemy(E0 + 1, ARCHER, 3, 6)  # long range: kills 0 first, then shoots 1
    foes.enemy_attacks_nb(g.st, g.tab, 0, 0)
    assert g.where(1) == (3, 0) and g.st.chars[1, CH.FALLS] == 1
    assert g.st.chars[1, CH.DUELS] == 2 and g.st.chars[1, CH.HP] == 5 - 2 - 2
    assert g.st.chars[0, CH.DUELS] == 1


def test_the_strongest_adjacent_enemy_leads_the_mob():  # TR-343, TR-344, TR-346, TR-336
    tab = tables(
        enemies=np.array(
            [
                enemy_row([8, 4], 1),
                enemy_row([8, 8, 4], 1, debuff=3),
                enemy_row([12], 2),
                enemy_row([6, 6], 1, debuff=1),
            ]
        )
    )
    g = Game(["." * 12, "#" * 12], top=0, left=42, tab=tab)  # fmt: skip
    g.character(0, 0, 5)
    g.enemy(E0, 0, 0, 4)
    g.enemy(E0 + 1, 1, 0, 6)  # two d8: leads; lends nothing
    g.st.pieces[E0 + 2] = g.st.pieces[E0 + 1]  # a medium-range enemy adjacent: not a member
    g.st.pieces[E0 + 2, PC.TYPE] = 2
    g.st.pieces[E0 + 2, PC.ROW] -= 1
    w = check_attacks(g)
    assert w["mobbed"][0] == 1 and w["duels"][0] == 1
    assert set(w["draw"][0]) <= {3}  # the leader's debuff (Frozen)


def test_mobs_are_worked_out_per_character():  # TR-347
    g = certain(surface())
    g.character(0, 0, 3)
    g.character(1, 0, 5)
    g.enemy(E0, SLIME, 0, 4)  # beside both: leads against 0, lends its d4 against 1
    g.enemy(E0 + 1, EYE, 0, 6)  # beside 1 only
    g.enemy(E0 + 2, WORM, 0, 8)  # beside neither
    w = check_attacks(g)
    assert w["duels"][:2] == [1, 1] and w["mobbed"][:2] == [0, 1]
    assert w["taken"][:2] == [1, 2]


def test_a_mob_lender_adds_its_smallest_die():  # TR-346, TR-343
    # the leader [6, 6] outranks [6, 4] (more of the largest die); the lender adds only its
    # d4. Defence: a d1 and 4 icons, so only a 5 or 6 hits: the d4 never can, its d6 could.
    tab = tables(enemies=np.array([enemy_row([6, 6], 1), enemy_row([6, 4], 1)]))
    lost = set()
    for seed in range(40):
        g = Game(["." * 12, "#" * 12], top=0, left=42, tab=tab, seed=seed)
        g.tab.characters[:, CC.DEF0] = 1
        g.character(0, 0, 5, defence=4)
        g.enemy(E0, 1, 0, 4)  # the lender in the lower row
        g.enemy(E0 + 1, 0, 0, 6)
        state = g.st.rng.copy()
        randint_nb(1, state)  # the defence die
        hits = sum(int(randint_nb(d, state)) + 1 >= 5 for d in (6, 6, 4))  # the pool
        w = check_attacks(g)
        assert w["taken"][0] == hits and w["mobbed"][0] == 1
        np.testing.assert_array_equal(g.st.rng, state)
        lost.add(hits)
    assert lost == {0, 1, 2}  # the lender's die never hit, both d6 of the leader did


def test_a_full_tie_gives_the_lead_to_the_weakest_pool():  # TR-345
    tab = tables(
        enemies=np.array([enemy_row([8, 6, 6], 1, debuff=1), enemy_row([8, 4], 1, debuff=2)])
    )
    g = certain(Game(["." * 12, "#" * 12], top=0, left=42, tab=tab))
    g.character(0, 0, 5)
    g.enemy(E0, 0, 0, 4)
    g.enemy(E0 + 1, 1, 0, 6)
    w = check_attacks(g)
    # equal on d8 and its count: [8, 4] lends 4 and adds 4 more, [8, 6, 6] lends 6 and adds
    # 14: [8, 4] leads (On Fire!) with the 6 of the other; 3 dice, all hit
    assert w["taken"][0] == 3 and w["draw"][0] == [2, 2, 2]


def test_adjacent_squares_always_see_each_other_so_every_short_neighbour_joins():  # TR-348
    rows = ["....", ".#..", "####"]
    g = certain(Game(rows, top=2, left=42))
    g.character(0, 1, 2)
    g.enemy(E0, EYE, 0, 1)  # diagonal, past the corner of a block: still in sight
    g.st.grid[P.FEAT, 2, 44] |= FEAT.HOUSE  # a house and a block around the shared corner
    assert sees_nb(g.st.grid, g.st.tiles, 2, 43, 3, 44)
    w = check_attacks(g)
    assert w["duels"][0] == 1 and w["taken"][0] == 1


def test_houses_block_enemy_attacks():  # TR-245, TR-246
    for wall, hit in ((range(2, 3), 2), (range(0, 3), 0)):
        g = certain(surface(["." * 8, "." * 8, "." * 8, "#" * 8]))
        g.character(0, 2, 0)
        g.enemy(E0, ARCHER, 2, 6)
        for i in wall:  # a house square between them, or a house wall up to the sky
            g.st.grid[P.FEAT, i, 45] |= FEAT.HOUSE
        assert foes.enemy_attacks_nb(g.st, g.tab, 0, 0) == hit


def test_no_enemy_attacks_a_character_inside_a_house():  # TR-245, TR-243
    for house in (False, True):
        g = certain(surface(["." * 8, "." * 8, "." * 8, "#" * 8]))
        g.character(0, 2, 3)
        g.enemy(E0, EYE, 2, 4)  # beside it: short range, through the door
        g.enemy(E0 + 1, ARCHER, 2, 6)  # farther along the ground: long range
        if house:  # one square tall, two wide: the character is inside
            g.st.grid[P.FEAT, 2, 44:46] |= FEAT.HOUSE | FEAT.PLATFORM
        w = check_attacks(g)
        assert w["duels"][0] == (0 if house else 2)


def test_crystals_and_stars_never_attack():  # TR-307
    g = certain(surface())
    g.character(0, 0, 5)
    g.enemy(E0, -2, 0, 4)
    g.enemy(E0 + 1, -3, 0, 6)
    assert foes.enemy_attacks_nb(g.st, g.tab, 0, 0) == 0
    assert g.st.chars[0, CH.DUELS] == 0


def test_debuffs_respect_immunity_and_the_supply():  # TR-342, TR-217, TR-026
    g = certain(surface())
    g.tab.armor[1, AR.DEF0] = 1
    g.character(0, 0, 2, armor=1)  # immune to Poisoned
    g.character(1, 0, 8)
    g.enemy(E0, EYE, 0, 3)  # Poisoned, 1 die
    g.enemy(E0 + 1, EYE, 0, 9)
    w = check_attacks(g)  # cards are left: only the immune character gets none
    assert w["taken"][:2] == [1, 1] and w["draw"][:2] == [[], [DEBUFF.POISONED]]
    assert g.st.supply[SUP.CARDS, DEBUFF.POISONED] == 7
    g2 = certain(surface())
    g2.character(0, 0, 2)
    g2.enemy(E0, EYE, 0, 3)
    g2.st.supply[SUP.CARDS, DEBUFF.POISONED] = 0  # no Poisoned card left: none is added
    w = check_attacks(g2)
    assert w["taken"][0] == 1 and w["draw"][0] == []


def test_a_killing_blow_still_adds_its_debuffs_after_the_death_shuffle():  # TR-303, TR-292
    g = certain(surface())
    g.character(0, 0, 2, hp=2)
    g.st.deck[0, PILE.DRAW, :2] = (4, 4)
    g.st.npile[0, PILE.DRAW] = 2
    g.enemy(E0, ARCHER, 0, 6)  # 2 dice, On Fire!
    w = check_attacks(g)
    assert not w["alive"][0] and w["draw"][0] == [4, 4, 2, 2]
    assert g.st.g[G.TOMBS] == 7


def test_the_last_tombstone_ends_the_enemy_turn():  # TR-427, TR-296
    g = certain(surface(tombs=0))
    g.character(0, 0, 2, hp=1)
    g.character(1, 0, 9, hp=1)
    g.enemy(E0, ARCHER, 0, 5)
    w = check_attacks(g)
    assert w["over"] == OUT.OUT_OF_RESPAWNS and w["duels"] == [1, 0, 0, 0]


def test_the_dryad_die_defends_once_when_a_roll_could_kill():  # TR-377, TR-378
    g = surface()
    g.st.g[G.DRYAD_DIE] = 1
    g.character(0, 0, 2, hp=5)
    g.character(1, 0, 8, hp=1)
    g.enemy(E0, EYE, 0, 3)  # 1 die against 5 health: the die is kept
    g.enemy(E0 + 1, EYE, 0, 9)  # 1 die against 1 health: used
    w = check_attacks(g)
    assert w["dryad"] == 0 and w["duels"][:2] == [1, 1]


def test_the_boss_joins_mobs_and_shoots_when_its_card_says():  # TR-411, TR-405, TR-407
    g = certain(surface(["." * 18, "#" * 18]))
    g.character(0, 0, 5)
    g.enemy(E0, SLIME, 0, 4)
    r, c = g.sq(0, 6)
    g.st.pieces[BOSS_ROW + 1] = (KIND.WALKER, r, c, 0, ROLE.BOSS, 1, 0, -1, -1)
    g.st.grid[P.OCC, r, c] = BOSS_ROW + 2
    g.st.g[G.IN_PLAY] = 1 << 1
    w = check_attacks(g, boss_short=0)
    assert w["taken"][0] == 1  # the slime alone
    g.st.chars[0, CH.HP] = 5
    w = check_attacks(g, boss_short=1)  # boss 0's card (the counts add up): not this boss's
    assert w["taken"][0] == 1 + 1 and w["mobbed"][0] == 0
    g.st.chars[0, CH.HP] = 5
    w = check_attacks(g, boss_short=1 << 1)
    assert w["mobbed"][0] == 1 and w["taken"][0] == 2 + 2  # boss d12 leads + slime's d4
    g.st.g[G.FORM + 1] = 1  # Form B: d12 d6, short and long, On Fire!
    g.st.chars[0, CH.HP] = 5
    g.st.pieces[E0, PC.KIND] = KIND.NONE
    g.st.grid[P.OCC, g.sq(0, 4)[0], g.sq(0, 4)[1]] = 0
    g.character(1, 0, 15)
    w = check_attacks(g, boss_ranged=1 << 1)
    assert w["duels"][:2] == [3, 1] and w["draw"][1] == [2, 2]  # 0 is adjacent: no short


@settings(max_examples=120, deadline=None)
@given(
    st.data(),
    st.integers(1, 4),
    st.integers(1, 8),
    st.integers(0, 2),
    st.integers(0, 2),
    st.integers(0, 2**32),
)
def test_enemy_attacks_agree_with_the_reference(data, n_chars, n_enemies, n_bosses, tombs, seed):
    # TR-332, TR-334, TR-335, TR-336, TR-337, TR-338, TR-339, TR-340, TR-341, TR-342,
    # TR-343, TR-344, TR-346, TR-347, TR-286, TR-288, TR-106 (icons count in every roll)
    rows = [
        "..................",
        "....#.......#.....",
        "........=.........",
        "......//.....#....",
        "##################",
    ]
    g = Game(rows, top=0, left=42, seed=seed, tombs=tombs)
    cols = data.draw(st.permutations(range(18)))
    for p in range(n_chars):
        g.character(p, 0, cols[p], hp=data.draw(st.integers(1, 5)),
                    card=data.draw(st.integers(0, 1)), armor=data.draw(st.integers(-1, 1)),
                    defence=data.draw(st.integers(0, 2)))  # fmt: skip
        g.st.deck[p, PILE.DRAW, 0] = 0
        g.st.npile[p, PILE.DRAW] = 1
    for i in range(n_enemies):
        j = cols[n_chars + i]
        e = data.draw(st.sampled_from([SLIME, ZOMBIE, EYE, ARCHER, VOODOO_DEMON, WORM, -2]))
        g.enemy(E0 + 3 * i, e, data.draw(st.integers(0, 2)), j)
    g.st.g[G.DRYAD_DIE] = data.draw(st.integers(0, 1))
    g.st.supply[SUP.CARDS, 1:4] = data.draw(st.integers(0, 3))
    short = ranged = 0
    # no boss, one (either id) or both in play at once (TR-316), each by its own card and form
    ids = data.draw(st.sampled_from([(0,), (1,)])) if n_bosses == 1 else tuple(range(n_bosses))
    for i, b in enumerate(ids):
        r, c = g.sq(0, cols[n_chars + n_enemies + i])
        g.st.pieces[BOSS_ROW + b] = (KIND.FLYER, r, c, 0, ROLE.BOSS, b, 0, -1, -1)
        g.st.grid[P.OCC, r, c] = BOSS_ROW + b + 1
        g.st.g[G.IN_PLAY] |= 1 << b
        g.st.g[G.FORM + b] = data.draw(st.integers(0, 1))
        short |= data.draw(st.integers(0, 1)) << b
        ranged |= data.draw(st.integers(0, 1)) << b
    w = check_attacks(g, short, ranged)
    event(f"rolls {min(sum(w['duels']), 3)}")
    event(f"mobs {min(sum(w['mobbed']), 2)}")
    event(f"deaths {min(sum(w['deaths']), 2)}")


def run_rolls(g, n, hp=20):
    """Run the attack step ``n`` times on the same board; count health lost per run."""
    counts = np.zeros(8, dtype=np.int64)
    for _ in range(n):
        g.st.chars[0, CH.HP] = hp
        g.st.npile[0, PILE.DRAW] = 0
        g.st.supply[SUP.CARDS, 1:4] = 8
        counts[foes.enemy_attacks_nb(g.st, g.tab, 0, 0)] += 1
    return counts


def within(counts, pmf):
    """Every count within 5 standard deviations of n * p (false alarm < 1e-5 per check)."""
    n = counts.sum()
    for k, p in enumerate(pmf):
        sd = max(np.sqrt(n * p * (1 - p)), 1e-9)
        assert abs(counts[k] - n * p) <= 5 * sd + 1e-9, (k, counts[k], n * p)
    assert counts[len(pmf) :].sum() == 0


def test_one_enemy_roll_follows_the_exact_duel_distribution():  # TR-001, TR-339, TR-341, TR-286
    g = surface()
    g.character(0, 0, 2, armor=0, defence=1)  # d6 + d4, one defence icon
    g.enemy(E0, ARCHER, 0, 6)  # d6 + d4
    within(run_rolls(g, 6000), duel_distribution([6, 4], [6, 4], 0, 1))


def test_a_worn_armor_sets_defence_icons_join_the_cards_icons():  # TR-286
    # rulebook, Defence Icons: "Some action cards, armor sets and consumables will provide
    # defence icons"; all of them go onto the one highest defence die
    g = surface()
    g.tab.armor[0, AR.DEF] = 2
    g.character(0, 0, 2, armor=0, defence=1)  # d6 + d4, 1 icon in play + 2 on the set
    g.enemy(E0, ARCHER, 0, 6)  # d6 + d4
    within(run_rolls(g, 6000), duel_distribution([6, 4], [6, 4], 0, 3))


def test_a_mob_roll_follows_the_exact_distribution_of_its_pool():  # TR-343, TR-346
    g = surface()
    g.character(0, 0, 5)  # d4
    g.enemy(E0, SLIME, 0, 4)  # d4
    g.enemy(E0 + 1, EYE, 0, 6)  # d8: leads
    g.enemy(E0 + 2, WORM, 1, 5)  # d6 d6, in the block under the character
    pool = mob_attack([[4], [8], [6, 6]])
    assert pool == [8, 4, 6]
    within(run_rolls(g, 6000), duel_distribution(pool, [4]))
