"""The Terraria world: tables, the fixed tile set, the per-game generator and discovery.

Checklist ids (``shared/rules/terraria-checklist.md``) are cited beside each rule tested.
"""

import itertools
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from simlib.core.rng import new_state, randint_nb, shuffle_nb
from simlib.errors import SimlibInputError
from simlib.games.terraria.compile import (
    PHYSICAL_TILES,
    START_KEYS,
    WORLD_FILE,
    compile_world,
    load_world,
    physical_tiles,
    tile_text,
)
from simlib.games.terraria.engine import world
from simlib.games.terraria.settings import resolve
from simlib.games.terraria.state import (
    BIOME,
    COLUMN_SLOT,
    FEAT,
    LAYER_NAMES,
    LAYERS,
    SQ,
    TILE_COLS,
    TP,
    P,
    alloc_world,
)

DATA = load_world()
WC = compile_world(DATA)
TPL, STOCK, STOCK_N, START, RES_DIG, RES_STRUCT, PLAT_POS = WC
H, W = DATA["world"]["tile_rows"], DATA["world"]["tile_cols"]


def generate(seed, index, evil=-1):
    grid, tiles, mini = alloc_world(H, W)
    drawn = np.zeros_like(STOCK)
    state = new_state(seed, index)
    ev = world.generate_world_nb(TPL, STOCK, STOCK_N, START, evil, grid, tiles, mini, drawn, state)
    return ev, grid, tiles, mini, state


def ref_generate(seed, index, evil=-1):
    """Plain-Python reference of the generator: same stream, same draws."""
    state = new_state(seed, index)
    if evil < 0:
        evil = BIOME.CORRUPTION + randint_nb(2, state)
    tokens = np.array([BIOME.JUNGLE, BIOME.DESERT, BIOME.SNOW, evil], dtype=np.int16)
    shuffle_nb(tokens, 4, state)
    biome = (
        [BIOME.OCEAN]
        + [tokens[0]] * 3
        + [tokens[1]] * 3
        + [BIOME.FOREST] * 3
        + [tokens[2]] * 3
        + [tokens[3]] * 3
        + [BIOME.OCEAN]
    )
    left = {
        (b, lay): list(STOCK[b, lay, : STOCK_N[b, lay]]) for b in range(7) for lay in range(LAYERS)
    }
    layout = np.zeros((LAYERS, TILE_COLS), dtype=int)
    for lay in range(LAYERS):
        for tc in range(TILE_COLS):
            b = biome[tc]
            if lay == 0 and b == BIOME.FOREST:
                layout[lay, tc] = START[tc - 7]
            elif lay == 1 and tc == 8:
                layout[lay, tc] = START[3]
            else:
                pool = left[(b, lay)]
                # the kernel's lazy Fisher-Yates: a uniform pick among the tiles left, the
                # picked one swapped to the front of the remainder
                j = randint_nb(len(pool), state)
                layout[lay, tc] = pool[j]
                pool[j] = pool[0]
                pool.pop(0)
    return evil, tokens, np.array(biome), layout, state


# --- tables -----------------------------------------------------------------------------------
def test_world_file_is_marked_illustrative_and_quotes_the_rulebook():
    # TR-004: what the rulebook does not print is an illustrative default, and says so
    text = WORLD_FILE.read_text(encoding="utf-8")
    assert "ILLUSTRATIVE DEFAULTS" in text
    quotes = (
        "86 biome tiles",
        "Copper takes 2 dig to dig, whereas Gold takes 3 dig to dig",
        "Each biome is a column 3 biome tiles wide",
    )
    for quote in quotes:
        assert quote in text
    path = (Path(__file__).resolve().parent.parent.parent / "shared" / "rules"
            / "terraria-the-board-game.txt")
    if not path.is_file():
        pytest.skip(f"rulebook not found at {path}")
    rulebook = path.read_text(encoding="utf-8")
    for quote in quotes:
        assert quote in rulebook


def test_tile_set_has_86_physical_tiles():
    # TR-006: 86 biome tiles (the split per biome and layer is data)
    assert physical_tiles(DATA) == PHYSICAL_TILES == 86


def test_printed_dig_costs():
    # TR-173: Copper 2, Gold 3; TR-172: a plain block 1
    names = list(DATA["resources"])
    assert RES_DIG[0] == 1
    assert RES_DIG[names.index("copper") + 1] == 2
    assert RES_DIG[names.index("gold") + 1] == 3


def test_starting_tiles():
    # TR-053: 4 butterflies on the central Surface Forest tile; TR-038: its platform;
    # TR-039: 2 spawn points on the starting tiles
    centre = TPL[:, START[1]]
    assert np.count_nonzero(centre[2] & FEAT.BUTTERFLY) == 4
    assert np.count_nonzero(centre[2] & FEAT.PLATFORM) == 1
    spawns = sum(np.count_nonzero(TPL[2, START[k]] & FEAT.SPAWN) for k in range(4))
    assert spawns == 2
    names = list(DATA["resources"])
    letters = {names.index(n) + 1: ch for ch, n in DATA["legend"].items()}
    for k, key in enumerate(START_KEYS):
        assert tile_text(TPL[:, START[k]], letters) == DATA["start_tiles"][key]


def test_compiled_tile_set_is_fixed_by_the_data():
    again = compile_world(load_world())
    for a, b in zip(WC, again, strict=True):
        np.testing.assert_array_equal(a, b)


def test_templates_are_well_formed():
    # TR-035: blocks, half blocks, resource blocks, trees with chop values, chests with card
    # counts, cobwebs, spawn points; lava only in the Underworld (TR-184)
    kinds = TPL[0]
    assert set(np.unique(kinds)) <= {SQ.AIR, SQ.BLOCK, SQ.HALF, SQ.LAVA}
    res, feat, val = TPL[1], TPL[2], TPL[3]
    assert np.all(res[kinds != SQ.BLOCK] == 0)  # only full blocks carry resource icons
    assert np.all(res <= len(DATA["resources"]))
    on_air = FEAT.COBWEB | FEAT.SPAWN | FEAT.CHEST | FEAT.TREE | FEAT.BUTTERFLY
    assert np.all((feat & on_air)[kinds == SQ.BLOCK] == 0)
    assert np.all(val[(feat & (FEAT.CHEST | FEAT.TREE)) != 0] >= 1)
    assert np.all(val[(feat & (FEAT.CHEST | FEAT.TREE)) == 0] == 0)
    for b in range(7):
        for lay in range(LAYERS):
            for k in range(STOCK_N[b, lay]):
                t = STOCK[b, lay, k]
                has_lava = np.any(kinds[t] == SQ.LAVA)
                assert has_lava == (lay == 4)
                if lay > 0:
                    assert not np.any(feat[t] & FEAT.TREE)  # trees grow on the Surface
    for kind in (SQ.BLOCK, SQ.HALF, SQ.AIR):
        assert np.any(kinds == kind)
    for flag in (FEAT.COBWEB, FEAT.SPAWN, FEAT.CHEST, FEAT.TREE):
        assert np.any(feat & flag)
    assert np.any(res > 0)


def _write(tmp_path, text):
    p = tmp_path / "w.toml"
    p.write_text(text, encoding="utf-8")
    return str(p)


@pytest.mark.parametrize(
    "text, words",
    [
        ("[stock]\nforest=[3,3,3,3,3]\n", "must have exactly the keys"),
        ("[world]\ntile_rows=2\ntile_cols=6\ntile_seed=1\n", "world.tile_rows"),
        ("[bogus]\nx=1\n", "unknown table 'bogus'"),
        ("[legend]\nB='stone'\n", "legend: key 'B'"),
        ("[legend]\nq='mithril'\n", "'mithril' is not in [resources]"),
        ("[resources.stone]\ndig=0\nstructural=false\n", "resources.stone.dig"),
    ],
)
def test_bad_world_tables_give_one_line(tmp_path, text, words):
    # TR-004: the data file is validated like any other input
    with pytest.raises(SimlibInputError) as err:
        load_world(_write(tmp_path, text))
    assert words in str(err.value) and "\n" not in str(err.value)


def test_a_stock_too_small_to_fill_the_world_is_refused(tmp_path):
    # TR-153: every biome x layer stock must fill its 3 positions (ocean: 2)
    stock = "\n".join(
        f"{b} = [3, 3, 3, 3, 3]" for b in ("forest", "desert", "snow", "corruption", "crimson")
    )
    text = "[stock]\n" + stock + "\njungle = [3, 3, 2, 3, 3]\nocean = [2, 2, 2, 2, 2]\n"
    with pytest.raises(SimlibInputError, match="jungle: upper_cavern holds 2 tiles"):
        load_world(_write(tmp_path, text))


def test_a_designer_file_replaces_world_and_combat_tables(tmp_path):
    start = DATA["start_tiles"]
    rows = {k: [r + "." for r in v] for k, v in start.items()}
    lines = ["[world]", "tile_rows = 5", "tile_cols = 7", "tile_seed = 5", "[start_tiles]"]
    lines += [f"{k} = {v!r}".replace("'", '"') for k, v in rows.items()]
    lines += ["[enemy_dice]", "sizes = [4, 6, 8, 10, 12, 20]"]
    path = _write(tmp_path, "\n".join(lines) + "\n")
    data = load_world(path)
    assert data["world"]["tile_cols"] == 7 and data["stock"] == DATA["stock"]
    tpl = compile_world(data)[0]
    assert tpl.shape[-1] == 7
    values = resolve("easy", {"data": path})  # the setting validates both loaders
    assert values["data"] == path


# --- generated worlds -------------------------------------------------------------------------
N_SEEDS = 400


def test_generated_worlds_follow_the_rulebook_structure():
    evils = []
    for i in range(N_SEEDS):
        ev, grid, tiles, mini, _ = generate(7, i)
        evils.append(ev)
        biome = tiles[TP.BIOME]
        # TR-143: Surface, Underground, Upper Cavern, Lower Cavern, Underworld, top down
        assert LAYER_NAMES == (
            "surface",
            "underground",
            "upper_cavern",
            "lower_cavern",
            "underworld",
        )
        # TR-033: 5 layers x 17 columns; each column one biome on every layer (TR-151)
        assert biome.shape == (LAYERS, TILE_COLS)
        assert np.all(biome == biome[0])
        row = biome[0]
        # TR-034 / TR-152: ocean at both ends, forest in the 3 central columns
        assert row[0] == row[16] == BIOME.OCEAN
        assert list(row[7:10]) == [BIOME.FOREST] * 3
        # TR-043: Jungle, Desert, Snow and the evil biome, one per '?' space, 3 columns each
        groups = [row[1:4], row[4:7], row[10:13], row[13:16]]
        for g, slot in zip(groups, range(4), strict=True):
            assert len(set(g)) == 1 and g[0] == mini[0, slot]
        assert sorted(mini[0]) == sorted([BIOME.JUNGLE, BIOME.DESERT, BIOME.SNOW, ev])
        # TR-040 / TR-042: one of Crimson or Corruption, the other takes no part
        assert ev in (BIOME.CORRUPTION, BIOME.CRIMSON)
        other = BIOME.CRIMSON if ev == BIOME.CORRUPTION else BIOME.CORRUPTION
        assert not np.any(biome == other)
        # TR-044: every minimap token starts face down
        assert np.all(mini[1] == 0)
        # TR-036 / TR-037: only the 3 Surface Forest tiles and the starting Underground tile
        known = np.argwhere(tiles[TP.KNOWN] == 1)
        assert sorted(map(tuple, known)) == [(0, 7), (0, 8), (0, 9), (1, 8)]
        assert list(tiles[TP.TPL, 0, 7:10]) == list(START[:3])
        assert tiles[TP.TPL, 1, 8] == START[3]
        # TR-149: every other position holds a tile of its own biome and layer's stock, and
        # no physical tile is laid twice
        seen = set()
        for lay in range(LAYERS):
            for tc in range(TILE_COLS):
                t = int(tiles[TP.TPL, lay, tc])
                assert t not in seen
                seen.add(t)
                if (lay, tc) in ((0, 7), (0, 8), (0, 9), (1, 8)):
                    continue
                b = biome[lay, tc]
                assert t in STOCK[b, lay, : STOCK_N[b, lay]]
                # the squares are the template's squares
                sub = grid[:4, lay * H : (lay + 1) * H, tc * W : (tc + 1) * W]
                np.testing.assert_array_equal(sub, TPL[:, t])
        assert not np.any(grid[P.PROG]) and not np.any(grid[P.OCC])
        # TR-038: the platform on the central Surface Forest tile; TR-184: lava only below
        assert np.count_nonzero(grid[P.FEAT, :H] & FEAT.PLATFORM) == 1
        assert not np.any(grid[P.SQ, : 4 * H] == SQ.LAVA)
        assert np.any(grid[P.SQ, 4 * H :] == SQ.LAVA)
    assert 0 < evils.count(BIOME.CRIMSON) < N_SEEDS


@pytest.mark.parametrize("index", range(25))
def test_generator_matches_plain_python_reference(index):
    ev, grid, tiles, mini, state = generate(11, index, evil=-1 if index % 3 else BIOME.CRIMSON)
    ref_ev, tokens, biome, layout, ref_state = ref_generate(
        11, index, evil=-1 if index % 3 else BIOME.CRIMSON
    )
    assert ev == ref_ev
    np.testing.assert_array_equal(mini[0], tokens)
    np.testing.assert_array_equal(tiles[TP.BIOME, 0], biome)
    np.testing.assert_array_equal(tiles[TP.TPL], layout)
    np.testing.assert_array_equal(state, ref_state)  # the same number of draws


def test_determinism_by_seed_and_index():
    a = generate(5, 17)
    b = generate(5, 17)
    for x, y in zip(a[1:], b[1:], strict=True):
        np.testing.assert_array_equal(x, y)
    # a game's world depends on (seed, index) only: reusing the arrays changes nothing
    grid, tiles, mini = alloc_world(H, W)
    drawn = np.zeros_like(STOCK)
    for idx in (3, 17):
        world.generate_world_nb(
            TPL, STOCK, STOCK_N, START, -1, grid, tiles, mini, drawn, new_state(5, idx)
        )
    np.testing.assert_array_equal(grid, a[1])
    np.testing.assert_array_equal(tiles, a[2])
    differ = sum(not np.array_equal(generate(5, i)[2], a[2]) for i in range(18, 28))
    assert differ == 10


def test_evil_biome_and_minimap_order_are_uniform():
    # TR-040 (a fair choice per game), TR-043 (the 4 tokens shuffled face down).
    # Chi-square tests at a 1e-4 false-alarm rate each (fixed seed: the result is fixed).
    n = 6000
    perms = {p: 0 for p in itertools.permutations(range(4))}
    crimson = 0
    for i in range(n):
        ev, _, _, mini, _ = generate(99, i)
        crimson += ev == BIOME.CRIMSON
        order = tuple(int(x) for x in mini[0])
        key = tuple({BIOME.JUNGLE: 0, BIOME.DESERT: 1, BIOME.SNOW: 2}.get(b, 3) for b in order)
        perms[key] += 1
    assert stats.binomtest(crimson, n, 0.5).pvalue > 1e-4
    assert stats.chisquare(list(perms.values())).pvalue > 1e-4


def test_tile_draws_are_uniform_over_the_stock():
    # TR-149: each position gets a uniformly random tile of its stock (1e-4 false alarm)
    n = 3000
    counts = np.zeros(3, dtype=int)
    stock = list(STOCK[BIOME.FOREST, 2, :3])
    for i in range(n):
        _, _, tiles, _, _ = generate(123, i)
        counts[stock.index(tiles[TP.TPL, 2, 8])] += 1
    assert stats.chisquare(counts).pvalue > 1e-4


# --- discovery --------------------------------------------------------------------------------
def ref_discover(known, faceup, layer, tcol):
    """Plain-Python reference of the discovery check (rulebook: Discovering the World)."""
    found = []
    for dl, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        nl, nc = layer + dl, tcol + dc
        if not (0 <= nl < LAYERS and 0 <= nc < TILE_COLS) or known[nl][nc]:
            continue
        slot = int(COLUMN_SLOT[nc])
        if slot >= 0:
            faceup[slot] = 1
        known[nl][nc] = 1
        found.append((nl, nc))
    return found


def test_discovery_from_the_starting_tiles():
    _, _, tiles, mini, _ = generate(1, 0)
    out = np.zeros((4, 2), dtype=np.int16)
    # entering the left Surface Forest tile: below and to the left (TR-145); nothing above
    # the Surface (TR-146); the inner-left minimap token flips (TR-150)
    n = world.discover_nb(tiles, mini, 0, 7, out)
    assert sorted(map(tuple, out[:n])) == [(0, 6), (1, 7)]
    assert list(mini[1]) == [0, 1, 0, 0]
    # again: nothing new
    assert world.discover_nb(tiles, mini, 0, 7, out) == 0
    # the starting Underground tile: left, right and below; never diagonal (TR-147)
    n = world.discover_nb(tiles, mini, 1, 8, out)
    assert sorted(map(tuple, out[:n])) == [(1, 9), (2, 8)]
    assert tiles[TP.KNOWN, 1, 6] == 0 and tiles[TP.KNOWN, 2, 7] == 0


def test_discovery_stops_at_the_ocean_and_the_underworld():
    # TR-146: nothing beyond the leftmost (ocean) column or below the Underworld
    _, _, tiles, mini, _ = generate(1, 1)
    tiles[TP.KNOWN] = 1
    tiles[TP.KNOWN, 4, 0] = 1
    out = np.zeros((4, 2), dtype=np.int16)
    tiles[TP.KNOWN, 3, 0] = 0
    n = world.discover_nb(tiles, mini, 4, 0, out)
    assert n == 1 and tuple(out[0]) == (3, 0)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, LAYERS - 1), st.integers(0, TILE_COLS - 1)),
        min_size=1,
        max_size=40,
    ),
    st.integers(0, 1000),
)
def test_discovery_kernel_matches_reference(path, index):
    _, _, tiles, mini, _ = generate(3, index)
    known = tiles[TP.KNOWN].tolist()
    faceup = mini[1].tolist()
    out = np.zeros((4, 2), dtype=np.int16)
    for layer, tcol in path:
        n = world.discover_nb(tiles, mini, layer, tcol, out)
        expect = ref_discover(known, faceup, layer, tcol)
        assert [tuple(x) for x in out[:n].tolist()] == expect
        assert tiles[TP.KNOWN].tolist() == known
        assert mini[1].tolist() == faceup
    # TR-151: a face-up token stays face up; a discovered non-forest, non-ocean column
    # always has its token face up
    for tc in range(TILE_COLS):
        slot = COLUMN_SLOT[tc]
        if slot >= 0 and tiles[TP.KNOWN, :, tc].any():
            assert mini[1, slot] == 1
