"""Terraria enemies (``simlib.games.terraria.foes``): tray, spawning, sunrise, wounds and loot,
collecting tokens, the enemy turn's moves and attacks.

Checklist ids (``shared/rules/terraria-checklist.md``) are cited beside each rule tested. The
enemy attack step is checked against a plain-Python reference written from the rules
(:func:`ref_attacks`, hypothesis), and the rolls against exact duel distributions.
"""

from __future__ import annotations

import numpy as np
from terraria_foes_helpers import (
    EYE,
    SLIME,
    WORM,
    ZOMBIE,
    Game,
    tables,
)

from simlib.core.rng import randint_nb
from simlib.games.terraria import foes
from simlib.games.terraria.layout import (
    BOSS_ROW,
    EN,
    ENEMY_ROW,
    ROLE,
    G,
)
from simlib.games.terraria.movement import T
from simlib.games.terraria.state import BIOME, FEAT, KIND, LAYERS, PC, TP, P

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


def test_a_spawn_draws_a_token_of_the_time_of_day_and_places_it():  # TR-310
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
