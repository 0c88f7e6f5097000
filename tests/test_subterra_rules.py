"""Sub Terra rule tests: every checklist line the engine implements, on hand-made caves.

Ids (ST-nnn) refer to ``shared/rules/sub-terra-checklist.md``. Each test cites the ids it
checks in a ``# ST-nnn`` comment. Bot decisions are never relied on, except the documented
tie-breaks ``horror_step_choice_nb`` and ``spawn_choice_nb``.

Statistical checks use fixed seeds (so they are deterministic) and bounds whose false-alarm
rate under a correct engine is stated beside each one.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats
from subterra_helpers import (
    BOT_ID,
    BP,
    GAME,
    SEED,
    Cave,
    E,
    N,
    S,
    W,
    card_id,
    compiled,
    mask,
    rng_for,
)

import simlib
from simlib import cli
from simlib.core.rng import d6_nb, new_state, skill_check_nb
from simlib.errors import SimlibInputError
from simlib.games.subterra import compile as st_compile
from simlib.games.subterra import engine, state
from simlib.games.subterra.state import (
    ABILITY,
    ACTION,
    BASE_COST,
    CENTER,
    CFC,
    CFG,
    EFC,
    GFC,
    HAZARD,
    HORROR_RANGE,
    MAX_CAVERS,
    MAX_HORRORS,
    MAX_ROUNDS,
    SHAPE,
    TFC,
    TILE,
)

DATA = st_compile.load_data("default")
DIFFS = ("normal", "advanced", "expert")
# Rulebook, Setup step 5 (ST-028..036).
DECK_TABLE = {
    (4, "normal"): 22, (4, "advanced"): 20, (4, "expert"): 18,
    (5, "normal"): 19, (5, "advanced"): 17, (5, "expert"): 15,
    (6, "normal"): 17, (6, "advanced"): 15, (6, "expert"): 13,
}
# Rulebook, Cave Tiles: 64 cave tiles by type.
TILE_COUNTS = {TILE.PLAIN: 16, TILE.WATER: 8, TILE.GAS: 8, TILE.CAVE_IN: 12, TILE.HORROR: 8,
               TILE.SQUEEZE: 3, TILE.LEDGE: 3, TILE.SLIDE: 3, TILE.ROUGH: 3}
ICON_REMOVES = {"normal": {"normal"}, "advanced": {"advanced"},
                "expert": {"advanced", "expert"}}  # which icons leave the pool (ST-023..025)
ALPHA = 1e-4  # false-alarm rate of each chi-square / binomial test below


def run_args(*sides: int) -> int:
    """Pack up to three sides into Run's argument (side + 1, three bits each)."""
    arg = 0
    for k, d in enumerate(sides):
        arg |= (d + 1) << (3 * k)
    return arg


def line(cave: Cave, n: int, y: int = 0, types: dict[int, int] | None = None) -> list[int]:
    """Lay ``n`` cross tiles along a row (x = 0 .. n-1); ``types`` overrides some types."""
    types = types or {}
    return [cave.tile(x, y, types.get(x, TILE.PLAIN)) for x in range(n)]


def setup_game(params: tuple, i: int):
    """Run ``engine.setup_nb`` for game ``i``; returns the state arrays."""
    arrs = state.alloc_nb()
    tl, nb, grid, cv, hz, gs, stack, deck, scratch = arrs
    engine.setup_nb(tl, nb, grid, cv, hz, gs, stack, deck, params, new_state(SEED, i))
    return arrs


# =========================================================================================
# Components and content tables
# =========================================================================================
def test_tile_stack_contents():
    # ST-001 ST-151 ST-152 ST-154 ST-155 ST-157 ST-158 ST-159 ST-165 ST-172 ST-147
    base = compiled()[1]
    assert base.shape == (64, 3)
    types, counts = np.unique(base[:, 0], return_counts=True)
    assert dict(zip(types.tolist(), counts.tolist(), strict=True)) == TILE_COUNTS
    assert TILE.START not in types and TILE.EXIT not in types
    # shapes: every tile is one of the five shapes at rotation 0, in the data's numbers
    masks = (SHAPE.CROSS, SHAPE.T, SHAPE.STRAIGHT, SHAPE.CORNER, SHAPE.DEAD_END)
    for ty, name in enumerate(state.TILE_NAMES):
        if ty < TILE.PLAIN:
            continue
        row = DATA["tiles"][name]
        got = [int(np.sum((base[:, 0] == ty) & (base[:, 1] == m))) for m in masks]
        assert got == row[1:], name
    # ledge, slide (ST-161) and squeeze are straight
    for ty in (TILE.LEDGE, TILE.SLIDE):
        np.testing.assert_array_equal(base[base[:, 0] == ty, 1], SHAPE.STRAIGHT)


def test_cave_in_faces():
    # ST-156 ST-005: two die numbers per cave-in tile, each number on exactly four tiles
    base = compiled()[1]
    faces = base[base[:, 0] == TILE.CAVE_IN, 2]
    assert len(faces) == 12
    per_tile = [bin(int(f)).count("1") for f in faces]
    assert per_tile == [2] * 12
    assert np.all((faces & 1) == 0) and np.all(faces < (1 << 7))  # only bits 1..6
    per_face = [int(np.sum((faces >> v) & 1)) for v in range(1, 7)]
    assert per_face == [4] * 6
    # no other tile type carries faces
    assert np.all(base[base[:, 0] != TILE.CAVE_IN, 2] == 0)


def test_hazard_cards_composition():
    # ST-003 ST-041 ST-042 ST-134: 30 cards, 5 plain per type + one severe per type
    params = compiled()
    cards = params[3]
    assert cards.shape == (30, 2)
    for kind in range(5):
        assert np.sum((cards[:, 0] == kind) & (cards[:, 1] == 0)) == 5
        assert np.sum((cards[:, 0] == kind) & (cards[:, 1] == 1)) == 1
    icons = [c[2] for c in DATA["hazards"]["cards"]]
    for i, card in enumerate(DATA["hazards"]["cards"]):
        if card[1]:
            assert icons[i] == "normal"  # every severe card: "remove for Normal"


@pytest.mark.parametrize("difficulty", DIFFS)
def test_pool_removal_icons(difficulty):
    # ST-022 ST-023 ST-024 ST-025 ST-026 ST-134
    params = compiled(difficulty)
    pool = params[2]
    icons = [c[2] for c in DATA["hazards"]["cards"]]
    expected = [i for i, icon in enumerate(icons) if icon not in ICON_REMOVES[difficulty]]
    np.testing.assert_array_equal(np.sort(pool), expected)
    kept = {icons[i] for i in pool}
    # a card leaves only when its icon names the difficulty (ST-026)
    if difficulty == "normal":
        assert kept == {"", "advanced", "expert"}
    elif difficulty == "advanced":
        assert kept == {"", "normal", "expert"}
    else:
        assert kept == {"", "normal"}
    severe_in_pool = int(params[3][pool, 1].sum())
    assert severe_in_pool == (0 if difficulty == "normal" else 5)  # ST-134
    assert len(pool) == {"normal": 25, "advanced": 27, "expert": 23}[difficulty]


def test_difficulty_is_one_of_three():
    # ST-022
    assert GAME.setting("difficulty").choices == DIFFS
    with pytest.raises(SimlibInputError, match="difficulty"):
        GAME.resolve("normal", {"difficulty": "hard"})


@pytest.mark.parametrize("cavers,difficulty", sorted(DECK_TABLE))
@pytest.mark.parametrize("bonus", [False, True])
def test_deck_size_table(cavers, difficulty, bonus):
    # ST-027 ST-028 ST-029 ST-030 ST-031 ST-032 ST-033 ST-034 ST-035 ST-036 ST-039 ST-040
    # ST-042 ST-047 ST-048: size by cavers x difficulty; +3 with first_game_bonus; the pool
    # is always big enough (resolve refuses a deck larger than the pool)
    want = DECK_TABLE[cavers, difficulty] + (3 if bonus else 0)
    params = compiled(difficulty, cavers=cavers, first_game_bonus=bonus)
    assert params[0][CFG.DECK] == want
    assert len(params[2]) >= want
    for i in range(3):
        tl, nb, grid, cv, hz, gs, stack, deck, scratch = setup_game(params, i)
        # ST-003 ST-037 ST-038: Out of Time is not stored (it is implied beneath the deck);
        # the deck is `want` distinct pool cards
        assert gs[GFC.DECK_N] == want and gs[GFC.DECK_POS] == 0
        dealt = deck[:want]
        assert len(set(dealt.tolist())) == want
        assert set(dealt.tolist()) <= set(params[2].tolist())


@pytest.mark.parametrize("bonus", [False, True])
def test_the_dealt_deck_size_is_recorded_with_the_run(tmp_path, bonus):
    # a deck left to the table is stored with the size it takes (run.json "derived", the
    # report's settings), the same size the kernel deals; a deck given is not "derived"
    want = DECK_TABLE[5, "advanced"] + (3 if bonus else 0)
    values = GAME.resolve("advanced", {"cavers": 5, "first_game_bonus": bonus})
    assert values["hazard_cards"] is None
    assert GAME.derived(values) == {"hazard_cards": want}
    assert GAME.compile(values)[0][CFG.DECK] == want
    out = tmp_path / "run"
    res = simlib.run("subterra", preset="advanced", settings={"cavers": 5,
                     "first_game_bonus": bonus}, games=5, seed=1, out=out, progress=False)
    assert res.meta["derived"] == {"hazard_cards": want}
    assert (res.df["hazard_cards"] == want).all()
    assert simlib.Results.load(out).meta["derived"] == {"hazard_cards": want}
    assert cli.main(["report", str(out)]) == 0
    assert f"&quot;hazard_cards&quot;: &quot;{want} (derived)&quot;" in (
        out / "report.html").read_text()
    given = GAME.resolve("advanced", {"cavers": 5, "hazard_cards": 9})
    assert GAME.derived(given) == {}


def test_deck_is_a_uniform_hand_of_the_pool():
    # ST-027 ST-038 ST-136: each pool card is dealt with chance deck/pool, and the number of
    # severe cards dealt on Advanced is hypergeometric (severe cards are not forced in)
    params = compiled("advanced", cavers=4)
    pool = params[2]
    n_deck = 20
    n = 3000
    hits = np.zeros(30, np.int64)
    severe = np.zeros(n, np.int64)
    for i in range(n):
        *_, gs, stack, deck, scratch = setup_game(params, i)
        hits[deck[:n_deck]] += 1
        severe[i] = params[3][deck[:n_deck], 1].sum()
    assert hits[np.setdiff1d(np.arange(30), pool)].sum() == 0
    p = n_deck / len(pool)
    # two-sided binomial per card, Bonferroni over the 27 pool cards: false alarm < ALPHA
    for card in pool:
        assert stats.binomtest(int(hits[card]), n, p).pvalue > ALPHA / len(pool)
    hyper = stats.hypergeom(len(pool), 5, n_deck)
    observed = np.bincount(severe, minlength=6)
    expected = hyper.pmf(np.arange(6)) * n
    # pool the rare low counts (0..2) into one cell for the chi-square
    obs = np.array([observed[:3].sum(), *observed[3:]])
    exp = np.array([expected[:3].sum(), *expected[3:]])
    assert stats.chisquare(obs, exp).pvalue > ALPHA
    assert observed[5] < n and observed[:5].sum() > 0  # some decks lack a severe card


def test_component_supplies():
    # ST-004 ST-007 ST-008 ST-009 ST-013 ST-010
    values = GAME.resolve("normal", {})
    assert values["ropes"] == 6 and values["explosives"] == 3
    assert MAX_HORRORS == 3 and MAX_CAVERS == 8
    params = compiled()
    boards = params[5]
    assert boards.shape[0] == 8
    np.testing.assert_array_equal(np.sort(boards[:, 0]), np.arange(1, 9))  # ranks 1..8
    with pytest.raises(SimlibInputError):
        GAME.resolve("normal", {"cavers": 9, "hazard_cards": 10})
    *_, gs, stack, deck, scratch = setup_game(params, 0)
    assert gs[GFC.ROPES_LEFT] == 6 and gs[GFC.EXPLOSIVES_LEFT] == 3
    # 20 health markers: any table team of 4 to 6 default boards needs at most 20
    health = sorted((b["health"] for b in DATA["cavers"]), reverse=True)
    assert sum(health[:6]) <= 20


def test_ranks_must_be_distinct(tmp_path):
    # ST-013: a data file giving two boards the same rank is refused
    lines = []
    for b in DATA["cavers"]:
        lines += ["[[cavers]]", f'name = "{b["name"]}"', "rank = 1", f"health = {b['health']}",
                  f'ability = "{b["ability"]}"', f"ability_cost = {b['ability_cost']}",
                  f"ability_value = {b['ability_value']}", ""]
    path = tmp_path / "same_rank.toml"
    path.write_text("\n".join(lines))
    with pytest.raises(SimlibInputError, match="rank"):
        GAME.resolve("normal", {"data": str(path)})


def test_caver_counts_accepted():
    # ST-047 ST-049: 4, 5 or 6 cavers; other counts only with hazard_cards given
    for n in (4, 5, 6):
        GAME.resolve("normal", {"cavers": n})
    for n in (1, 2, 3, 7, 8):
        with pytest.raises(SimlibInputError, match="cavers"):
            GAME.resolve("normal", {"cavers": n})
        values = GAME.resolve("normal", {"cavers": n, "hazard_cards": 12})
        assert GAME.compile(values)[0][CFG.DECK] == 12


def test_severe_effects_are_worse_and_plain_effects_as_printed():
    # ST-135 ST-119 ST-121 ST-124 ST-125 ST-128 ST-129 ST-131 ST-132
    eff = compiled()[4]
    plain, severe = eff[0], eff[1]
    assert plain[EFC.TREMOR_DAMAGE] == 1
    assert plain[EFC.FLOOD_DAMAGE] == 1
    assert plain[EFC.GAS_DAMAGE] == 2 and plain[EFC.GAS_ENTRY_DAMAGE] == 2
    assert plain[EFC.CAVE_IN_ROLLS] == 1 and plain[EFC.CAVE_IN_DAMAGE] == 3
    assert plain[EFC.HORROR_STEPS] == 1 and plain[EFC.HORROR_SPAWNS] == 1
    by_type = {
        HAZARD.TREMOR: [EFC.TREMOR_DAMAGE], HAZARD.FLOOD: [EFC.FLOOD_DAMAGE],
        HAZARD.GAS: [EFC.GAS_DAMAGE, EFC.GAS_ENTRY_DAMAGE],
        HAZARD.CAVE_IN: [EFC.CAVE_IN_ROLLS, EFC.CAVE_IN_DAMAGE],
        HAZARD.HORROR: [EFC.HORROR_STEPS, EFC.HORROR_SPAWNS],
    }
    for cols in by_type.values():
        assert all(severe[k] >= plain[k] for k in cols)
        assert any(severe[k] > plain[k] for k in cols)


# =========================================================================================
# Setup
# =========================================================================================
def test_setup_cavers_and_start_tile():
    # ST-002 ST-015 ST-016 ST-017 ST-018 ST-148
    params = compiled(cavers=5)
    tl, nb, grid, cv, hz, gs, stack, deck, scratch = setup_game(params, 1)
    assert gs[GFC.N_TILES] == 1
    assert tl[0, TFC.TYPE] == TILE.START
    assert (tl[0, TFC.X], tl[0, TFC.Y]) == (CENTER, CENTER)
    assert grid[state.cell_of_nb(CENTER, CENTER)] == 0
    boards = params[5]
    for c in range(5):
        assert cv[c, CFC.TILE] == 0 and cv[c, CFC.REMOVED] == 0
        assert cv[c, CFC.BOARD] == c  # the default team, seat order
        assert cv[c, CFC.HP] == cv[c, CFC.MAXHP] == boards[c, 1]
        assert cv[c, CFC.RANK] == boards[c, 0]
    assert cv[4, CFC.MAXHP] == 4  # the Brute board has 4 health spaces (per-board setting)
    for c in range(5, MAX_CAVERS):
        assert cv[c, CFC.REMOVED] == 1 and cv[c, CFC.LEAVE] == -2
    assert np.all(hz == -1) and gs[GFC.N_HORRORS] == 0
    # the health setting overrides every board (ST-016)
    tl, nb, grid, cv, hz, gs, stack, deck, scratch = setup_game(compiled(health=5), 1)
    np.testing.assert_array_equal(cv[:4, CFC.HP], 5)
    np.testing.assert_array_equal(cv[:4, CFC.MAXHP], 5)
    # a random team draws distinct boards
    for i in range(20):
        *_, cv, hz, gs, stack, deck, scratch = setup_game(compiled(team="random", cavers=6), i)
        assert len(set(cv[:6, CFC.BOARD].tolist())) == 6


def test_setup_stack_composition_and_exit_position():
    # ST-001 ST-002 ST-019 ST-020 ST-021
    params = compiled()
    base = params[1]
    base_rows = sorted(map(tuple, base.tolist()))
    n = 6000
    exit_pos = np.zeros(n, np.int64)
    top = np.zeros(n, np.int64)
    for i in range(n):
        *_, gs, stack, deck, scratch = setup_game(params, i)
        assert gs[GFC.STACK_N] == 65 and gs[GFC.STACK_POS] == 0
        rows = stack[:65]
        is_exit = rows[:, 0] == TILE.EXIT
        assert is_exit.sum() == 1
        if i < 200:  # the 64 other rows are exactly the cave tiles
            assert sorted(map(tuple, rows[~is_exit].tolist())) == base_rows
        exit_pos[i] = np.flatnonzero(is_exit)[0]
        top[i] = rows[0, 0]
    # the exit is one of the bottom six of 65 (60th..65th from the top), uniformly:
    # chi-square with 5 degrees of freedom, false alarm ALPHA
    assert exit_pos.min() >= 59 and exit_pos.max() <= 64
    counts = np.bincount(exit_pos - 59, minlength=6)
    assert stats.chisquare(counts).pvalue > ALPHA
    # the 64 tiles are shuffled: the top tile's type follows the tile counts
    types = sorted(TILE_COUNTS)
    obs = np.array([np.sum(top == t) for t in types])
    exp = np.array([TILE_COUNTS[t] / 64 * n for t in types])
    assert stats.chisquare(obs, exp).pvalue > ALPHA
    # exit_depth = 1 puts the exit last
    params1 = compiled(exit_depth=1)
    for i in range(20):
        *_, gs, stack, deck, scratch = setup_game(params1, i)
        assert stack[64, 0] == TILE.EXIT


def test_starting_caver_marker():
    # ST-043 ST-044: random first starting caver (uniform), or fixed by start_seat
    params = compiled(cavers=5)
    n = 3000
    seats = np.array([setup_game(params, i)[5][GFC.START] for i in range(n)])
    assert seats.min() >= 0 and seats.max() <= 4
    assert stats.chisquare(np.bincount(seats, minlength=5)).pvalue > ALPHA
    params = compiled(cavers=5, start_seat=3)
    for i in range(10):
        assert setup_game(params, i)[5][GFC.START] == 3


# =========================================================================================
# Skill checks and dice
# =========================================================================================
def test_skill_check_is_d6_at_least_4():
    # ST-011 ST-069 ST-070
    n = 4000
    faces = np.zeros(7, np.int64)
    wins = 0
    for i in range(n):
        s = new_state(SEED, i)
        ok = bool(skill_check_nb(s.copy()))
        face = int(d6_nb(s.copy()))
        assert ok == (face >= 4)
        faces[face] += 1
        wins += ok
    assert faces[0] == 0
    assert stats.chisquare(faces[1:]).pvalue > ALPHA
    assert stats.binomtest(wins, n, 0.5).pvalue > ALPHA


# =========================================================================================
# Actions
# =========================================================================================
def test_action_costs():
    # ST-073 ST-082 ST-088 ST-092 ST-095 ST-097 ST-100 ST-102 ST-105 ST-107 ST-110 ST-014
    want = {ACTION.REVEAL: 1, ACTION.MOVE: 1, ACTION.EXPLORE: 1, ACTION.RUN: 2,
            ACTION.HEAL: 2, ACTION.SWIM: 2, ACTION.SQUEEZE: 2, ACTION.DIG: 2,
            ACTION.ROPE: 2, ACTION.HIDE: 2}
    cave = Cave(4)
    t = cave.tile(0, 0, TILE.START)
    cave.caver(0, t)
    for action, cost in want.items():
        assert BASE_COST[action] == cost
        assert state.action_cost_nb(cave.cv, 0, action) == cost
    # a board ability cheapens exactly one action kind (ST-014)
    cave.caver(1, t, ability=ABILITY.CHEAP_SWIM, ab_cost=1)
    for action, cost in want.items():
        got = state.action_cost_nb(cave.cv, 1, action)
        assert got == (1 if action == ACTION.SWIM else cost)
    cave.caver(2, t, ability=ABILITY.EXPLOSIVES, ab_cost=2)
    assert state.action_cost_nb(cave.cv, 2, ACTION.EXPLOSIVES) == 2


def test_reveal_places_top_tile_connected_without_moving():
    # ST-083 ST-084 ST-085 ST-087 ST-145 ST-146
    cave = Cave(1)
    s0 = cave.tile(0, 0, TILE.START)
    cave.caver(0, s0)
    cave.set_stack([(TILE.GAS, SHAPE.CORNER, 0), (TILE.PLAIN, SHAPE.CROSS, 0)])
    assert cave.act(0, ACTION.REVEAL, E)
    t = cave.at_xy(1, 0)
    assert t == 1 and cave.tl[t, TFC.TYPE] == TILE.GAS
    assert (cave.tl[t, TFC.OPEN] >> W) & 1  # open towards the revealer
    assert cave.nb[s0, E] == t and cave.nb[t, W] == s0
    assert cave.at(0) == s0  # Reveal does not move the caver
    assert cave.gs[GFC.STACK_POS] == 1
    # an occupied position cannot be revealed into
    assert not cave.act(0, ACTION.REVEAL, E)
    assert cave.gs[GFC.STACK_POS] == 1
    # a wall cannot be revealed through
    cave2 = Cave(1)
    s1 = cave2.tile(0, 0, TILE.START, mask(N))
    cave2.caver(0, s1)
    cave2.set_stack([(TILE.PLAIN, SHAPE.CROSS, 0)])
    assert not cave2.act(0, ACTION.REVEAL, E)
    assert cave2.at_xy(1, 0) == -1


def test_reveal_only_needs_the_connection_to_the_revealer():
    # ST-086 ST-146: a dead end laid beside another tile's open side is legal; no link there
    cave = Cave(1)
    s0 = cave.tile(0, 0, TILE.START)
    north = cave.tile(1, -1, TILE.PLAIN, mask(S, N))  # its south side faces the new cell
    cave.caver(0, s0)
    cave.set_stack([(TILE.PLAIN, SHAPE.DEAD_END, 0)])
    t = cave.reveal(0, E)
    assert t >= 0 and cave.tl[t, TFC.OPEN] == mask(W)
    assert cave.nb[t, N] == -1 and cave.nb[north, S] == -1
    # diagonal neighbours are never linked
    diag = cave.tile(1, 1, TILE.PLAIN)
    assert diag not in cave.nb[s0].tolist()


def test_reveal_properties_over_whole_stacks():
    # ST-084 ST-085 ST-145 ST-146 ST-160 ST-161 ST-166 ST-174: reveal the real shuffled
    # stack from random tiles and sides; every placement is legal whatever the rotation
    params = compiled()
    for g in range(12):
        tl, nb, grid, cv, hz, gs, stack, deck, scratch = setup_game(params, 100 + g)
        cave = Cave(1, params)
        cave.tl, cave.nb, cave.grid, cave.cv, cave.hz, cave.gs = tl, nb, grid, cv, hz, gs
        cave.stack = stack
        pick = np.random.default_rng(g)
        for c in range(1, MAX_CAVERS):
            cv[c, CFC.REMOVED] = 1
        gs[GFC.N_CAVERS] = 1
        while gs[GFC.STACK_POS] < gs[GFC.STACK_N]:
            options = [(t, d) for t in range(int(gs[GFC.N_TILES])) for d in range(4)
                       if (tl[t, TFC.OPEN] >> d) & 1
                       and grid[state.neighbour_cell_nb(tl, t, d)] < 0]
            if not options:
                break
            t0, d = options[pick.integers(len(options))]
            cv[0, CFC.TILE] = t0
            cv[0, CFC.SIDE] = -1
            n_before = int(gs[GFC.N_TILES])
            new = cave.reveal(0, d)
            if new < 0:
                break
            assert new == n_before
            row = stack[gs[GFC.STACK_POS] - 1]
            ty = tl[new, TFC.TYPE]
            assert ty == row[0] and tl[new, TFC.FACES] == row[2]
            need = (d + 2) & 3
            assert (tl[new, TFC.X], tl[new, TFC.Y]) == (tl[t0, TFC.X] + state.DX[d],
                                                      tl[t0, TFC.Y] + state.DY[d])
            assert (tl[new, TFC.OPEN] >> need) & 1 and nb[t0, d] == new
            if ty in (TILE.LEDGE, TILE.SLIDE):
                assert tl[new, TFC.ARROW] == d
                assert tl[new, TFC.OPEN] == mask(d, need)
            else:
                rots = {int(state.rotate_mask_nb(row[1], r)) for r in range(4)}
                assert int(tl[new, TFC.OPEN]) in rots
            if ty == TILE.EXIT:
                assert gs[GFC.EXIT_TILE] == new
            assert gs[GFC.FRONTIER] == cave.true_frontier()
            assert gs[GFC.FRONTIER] > 0 or ty == TILE.EXIT
        # links are exactly the pairs of orthogonal neighbours open towards each other
        for t in range(int(gs[GFC.N_TILES])):
            for d in range(4):
                u = grid[state.neighbour_cell_nb(tl, t, d)]
                linked = u >= 0 and (tl[t, TFC.OPEN] >> d) & 1 and \
                    (tl[u, TFC.OPEN] >> ((d + 2) & 3)) & 1
                assert nb[t, d] == (u if linked else -1)


def test_move_restrictions():
    # ST-088 ST-089 ST-090 ST-091 ST-100 ST-101 ST-102 ST-103 ST-104 ST-146 ST-075 ST-153
    cave = Cave(1)
    a = cave.tile(0, 0, TILE.START)
    b = cave.tile(1, 0, TILE.PLAIN)
    water = cave.tile(0, 1, TILE.WATER)
    sq = cave.tile(-1, 0, TILE.SQUEEZE, mask(E, W))
    rub = cave.tile(0, -1, TILE.CAVE_IN, faces=(1, 2))
    cave.tl[rub, TFC.RUBBLE] = 1
    cave.gs[GFC.N_RUBBLE] = 1
    walled = cave.tile(-1, -1, TILE.PLAIN, mask(N))  # touches nothing open
    cave.caver(0, a)
    # plain tile: Move yes, Swim/Squeeze no; the same action may be repeated (ST-075)
    assert not cave.act(0, ACTION.SWIM, E) and not cave.act(0, ACTION.SQUEEZE, E)
    assert cave.act(0, ACTION.MOVE, E) and cave.at(0) == b
    assert cave.act(0, ACTION.MOVE, W) and cave.at(0) == a
    # unflooded water is an ordinary tile (ST-153); Swim needs a flood marker (ST-101)
    assert not cave.act(0, ACTION.SWIM, S)
    assert cave.act(0, ACTION.MOVE, S) and cave.at(0) == water
    assert cave.act(0, ACTION.MOVE, N)
    cave.tl[water, TFC.FLOOD] = 1
    assert not cave.act(0, ACTION.MOVE, S) and not cave.act(0, ACTION.SQUEEZE, S)
    assert cave.at(0) == a
    assert cave.act(0, ACTION.SWIM, S) and cave.at(0) == water
    assert cave.act(0, ACTION.MOVE, N) and cave.at(0) == a  # leaving a flood by Move
    # squeeze: only by Squeeze (ST-090 ST-102 ST-103), left by Move (ST-104)
    assert not cave.act(0, ACTION.MOVE, W) and not cave.act(0, ACTION.SWIM, W)
    assert cave.act(0, ACTION.SQUEEZE, W) and cave.at(0) == sq
    assert not cave.act(0, ACTION.SQUEEZE, E)  # Squeeze only enters squeeze tiles
    assert cave.act(0, ACTION.MOVE, E) and cave.at(0) == a
    # rubble: nothing enters (ST-091); a caver on rubble may leave (ST-104)
    for action in (ACTION.MOVE, ACTION.SWIM, ACTION.SQUEEZE):
        assert not cave.act(0, action, N)
    cave.caver(0, rub)
    assert cave.act(0, ACTION.MOVE, S) and cave.at(0) == a
    # walls and diagonals (ST-146)
    assert cave.nb[walled].tolist() == [-1, -1, -1, -1]
    cave.caver(0, b)
    assert not cave.act(0, ACTION.MOVE, N) and not cave.act(0, ACTION.MOVE, E)
    assert cave.at(0) == b


def test_explore_moves_in_whatever_the_tile():
    # ST-092 ST-093 ST-103: Explore always ends on the new tile, a squeeze included
    cave = Cave(1)
    s0 = cave.tile(0, 0, TILE.START)
    cave.caver(0, s0)
    cave.set_stack([(TILE.SQUEEZE, SHAPE.STRAIGHT, 0)])
    assert cave.act(0, ACTION.EXPLORE, E)
    t = cave.at_xy(1, 0)
    assert cave.at(0) == t and cave.tl[t, TFC.TYPE] == TILE.SQUEEZE
    assert cave.gs[GFC.STACK_POS] == 1


def test_explore_triggers_entry_effects():
    # ST-094 ST-125 ST-126 ST-173: active gas and rough terrain hit on Explore too
    cave = Cave(1)
    s0 = cave.tile(0, 0, TILE.START)
    cave.caver(0, s0)
    cave.set_stack([(TILE.GAS, SHAPE.CROSS, 0)])
    cave.gs[GFC.GAS_ACTIVE] = 2
    assert cave.act(0, ACTION.EXPLORE, E)
    assert cave.hp(0) == 1 and cave.gs[GFC.DMG_GAS] == 2
    for outcome, hp in ((False, 2), (True, 3)):
        cave = Cave(1)
        s0 = cave.tile(0, 0, TILE.START)
        cave.caver(0, s0)
        cave.set_stack([(TILE.ROUGH, SHAPE.CROSS, 0)])
        assert cave.act(0, ACTION.EXPLORE, E, rng_for(outcome))
        assert cave.hp(0) == hp and cave.gs[GFC.DMG_ROUGH] == 3 - hp


def test_rough_terrain_on_every_entry():
    # ST-173: a skill check on each entry (Move and Run steps), 1 health on a failure
    cave = Cave(1)
    tiles = line(cave, 4, types={1: TILE.ROUGH, 3: TILE.ROUGH})
    cave.caver(0, tiles[0])
    assert cave.act(0, ACTION.MOVE, E, rng_for(False))
    assert cave.hp(0) == 2
    assert cave.act(0, ACTION.MOVE, W) and cave.hp(0) == 2  # leaving costs nothing
    assert cave.act(0, ACTION.RUN, run_args(E, E, E), rng_for(False, False))
    assert cave.at(0) == tiles[3] and cave.hp(0) == 0
    # success costs nothing; the rate of failures is 1/2
    losses = 0
    n = 2000
    for i in range(n):
        cave.caver(0, tiles[0])
        cave.act(0, ACTION.MOVE, E, new_state(SEED + 1, i))
        losses += 3 - cave.hp(0)
    assert stats.binomtest(losses, n, 0.5).pvalue > ALPHA


def test_gas_entry_only_while_a_gas_card_is_in_force():
    # ST-125 ST-127
    cave = Cave(1)
    a, g = line(cave, 2, types={1: TILE.GAS})
    cave.caver(0, a)
    assert cave.act(0, ACTION.MOVE, E) and cave.hp(0) == 3  # no gas card yet
    assert cave.act(0, ACTION.MOVE, W)
    cave.gs[GFC.GAS_ACTIVE] = 2
    assert cave.act(0, ACTION.MOVE, E) and cave.hp(0) == 1


def test_run():
    # ST-095 ST-096 ST-067
    cave = Cave(1)
    tiles = line(cave, 5)
    cave.caver(0, tiles[0])
    assert cave.act(0, ACTION.RUN, run_args(E, E, E)) and cave.at(0) == tiles[3]
    cave.caver(0, tiles[0])
    assert cave.act(0, ACTION.RUN, run_args(E, E)) and cave.at(0) == tiles[2]  # up to 3
    # every step obeys Move: a flooded, squeeze or rubble tile stops the run
    for ty, marker in ((TILE.WATER, TFC.FLOOD), (TILE.SQUEEZE, None), (TILE.CAVE_IN, TFC.RUBBLE)):
        cave = Cave(1)
        tiles = line(cave, 4, types={2: ty})
        if marker is not None:
            cave.tl[tiles[2], marker] = 1
        cave.caver(0, tiles[0])
        assert cave.act(0, ACTION.RUN, run_args(E, E, E)) and cave.at(0) == tiles[1]
        cave.caver(0, tiles[1])
        assert not cave.act(0, ACTION.RUN, run_args(E, E)) and cave.at(0) == tiles[1]
    # entry effects on every step; knocked out on the way, the run stops (ST-067)
    cave = Cave(1)
    tiles = line(cave, 4, types={1: TILE.GAS, 2: TILE.GAS})
    cave.gs[GFC.GAS_ACTIVE] = 2
    cave.caver(0, tiles[0], hp=3)
    assert cave.act(0, ACTION.RUN, run_args(E, E, E))
    assert cave.at(0) == tiles[2] and cave.hp(0) == 0


def test_heal():
    # ST-097 ST-098 ST-099 ST-068 ST-063 ST-014
    cave = Cave(4)
    a, b = line(cave, 2)
    cave.caver(0, a, hp=1)
    cave.caver(1, a, hp=0)
    cave.caver(2, b, hp=1)
    cave.caver(3, a, hp=3)
    assert not state.is_victim_nb(cave.cv, cave.gs, 1)  # unconscious
    assert cave.act(0, ACTION.HEAL, 0) and cave.hp(0) == 2
    assert cave.act(0, ACTION.HEAL, 1) and cave.hp(1) == 1
    assert state.is_victim_nb(cave.cv, cave.gs, 1)  # conscious again at once (ST-068)
    assert not cave.act(0, ACTION.HEAL, 2) and cave.hp(2) == 1  # another tile
    assert cave.act(0, ACTION.HEAL, 3) and cave.hp(3) == 3  # never above the start
    assert cave.gs[GFC.HEALS] == 3
    # a board with extra healing still stops at the start health
    cave.caver(0, a, hp=1, ability=ABILITY.EXTRA_HEAL, ab_cost=2, ab_value=2)
    assert cave.act(0, ACTION.HEAL, 0) and cave.hp(0) == 3
    assert cave.act(0, ACTION.HEAL, 1) and cave.hp(1) == 3


def test_dig():
    # ST-105 ST-106 ST-091
    cave = Cave(1)
    a, k, far = line(cave, 3, types={1: TILE.CAVE_IN, 2: TILE.CAVE_IN})
    cave.tl[k, TFC.FACES] = 1 << 3
    walled = cave.tile(0, 1, TILE.CAVE_IN, mask(S))  # beside a, not connected
    for t in (k, far, walled):
        cave.tl[t, TFC.RUBBLE] = 1
    cave.gs[GFC.N_RUBBLE] = 3
    cave.caver(0, a)
    assert not cave.act(0, ACTION.DIG, far)  # two steps away
    assert not cave.act(0, ACTION.DIG, walled)  # behind a wall
    assert not cave.act(0, ACTION.DIG, a)  # no rubble here
    assert not cave.act(0, ACTION.MOVE, E)
    assert cave.act(0, ACTION.DIG, k) and cave.tl[k, TFC.RUBBLE] == 0
    assert cave.gs[GFC.N_RUBBLE] == 2
    assert cave.act(0, ACTION.MOVE, E) and cave.at(0) == k  # enterable again
    cave.tl[k, TFC.RUBBLE] = 1
    cave.gs[GFC.N_RUBBLE] += 1
    assert cave.act(0, ACTION.DIG, k) and cave.tl[k, TFC.RUBBLE] == 0  # own tile
    # a later matching cave-in roll buries it again
    engine.hazard_cave_in_nb(cave.tl, cave.cv, cave.gs, 3, 3)
    assert cave.tl[k, TFC.RUBBLE] == 1 and cave.hp(0) == 0


def test_place_rope():
    # ST-107 ST-108 ST-109 ST-007
    cave = Cave(1)
    a = cave.tile(0, 0, TILE.START)
    ledge = cave.tile(1, 0, TILE.LEDGE, mask(E, W), arrow=E)
    slide = cave.tile(0, 1, TILE.SLIDE, mask(N, S), arrow=S)
    cave.caver(0, a)
    assert not cave.act(0, ACTION.ROPE, 0, rng_for(True))  # not a ledge or slide
    cave.caver(0, ledge, side=W)
    assert cave.act(0, ACTION.ROPE, 0, rng_for(False))  # failed check: points spent
    assert cave.tl[ledge, TFC.ROPE] == 0 and cave.gs[GFC.ROPES_LEFT] == 6
    assert cave.act(0, ACTION.ROPE, 0, rng_for(True))
    assert cave.tl[ledge, TFC.ROPE] == 1 and cave.gs[GFC.ROPES_LEFT] == 5
    assert not cave.act(0, ACTION.ROPE, 0, rng_for(True))  # one rope per tile
    cave.caver(0, slide, side=N)
    cave.gs[GFC.ROPES_LEFT] = 0
    assert not cave.act(0, ACTION.ROPE, 0, rng_for(True))  # the supply is empty
    cave.gs[GFC.ROPES_LEFT] = 1
    assert cave.act(0, ACTION.ROPE, 0, rng_for(True)) and cave.tl[slide, TFC.ROPE] == 1
    # the rope stays for the rest of the game (hazard phases do not touch it)
    params = cave.params
    for kind in range(5):
        cave.resolve(card_id(params, kind))
    assert cave.tl[ledge, TFC.ROPE] == 1 and cave.tl[slide, TFC.ROPE] == 1


def test_hide():
    # ST-110 ST-111 ST-192
    cave = Cave(2)
    h, a, b = line(cave, 3)
    cave.caver(0, a, rank=1)
    cave.caver(1, b, rank=2)
    assert cave.act(0, ACTION.HIDE, 0, rng_for(False))
    assert cave.cv[0, CFC.HIDDEN] == 0 and cave.closest_victim(h) == (0, 1)
    assert cave.act(0, ACTION.HIDE, 0, rng_for(True))
    assert cave.cv[0, CFC.HIDDEN] == 1
    assert cave.closest_victim(h) == (1, 2)
    assert cave.gs[GFC.HIDES] == 2
    # hidden cavers are not spawn targets either
    cave.cv[1, CFC.HIDDEN] = 1
    assert cave.closest_victim(h) == (-1, -1)
    cave.tl[h, TFC.TYPE] = TILE.HORROR
    assert cave.spawn() == -1


# =========================================================================================
# Ledges, slides, ropes
# =========================================================================================
def test_can_leave_ledge_and_slide():
    # ST-162 ST-163 ST-164 ST-167 ST-168 ST-169 ST-170
    cave = Cave(1)
    ledge = cave.tile(0, 0, TILE.LEDGE, mask(E, W), arrow=E)
    slide = cave.tile(0, 2, TILE.SLIDE, mask(E, W), arrow=E)
    c = cave.caver(0, ledge)
    cv, tl = cave.cv, cave.tl
    for side in (W, E):  # either side: back is free, across is not (either direction)
        cv[c, CFC.SIDE] = side
        assert state.can_leave_nb(tl, cv, c, side)
        assert not state.can_leave_nb(tl, cv, c, (side + 2) & 3)
        assert not state.can_leave_nb(tl, cv, c, N)  # a wall
    tl[ledge, TFC.ROPE] = 1
    for side in (W, E):
        cv[c, CFC.SIDE] = side
        assert state.can_leave_nb(tl, cv, c, (side + 2) & 3)
    cave.caver(0, slide, side=W)
    assert state.can_leave_nb(tl, cv, c, E)  # along the arrow
    assert state.can_leave_nb(tl, cv, c, W)
    cv[c, CFC.SIDE] = E
    assert not state.can_leave_nb(tl, cv, c, W)  # back against the arrow
    assert state.can_leave_nb(tl, cv, c, E)
    tl[slide, TFC.ROPE] = 1
    assert state.can_leave_nb(tl, cv, c, W)


def test_ledge_crossing_by_actions():
    # ST-162 ST-163 ST-164 ST-170 ST-171: Move, Run, Reveal, Explore, Swim all obey it
    cave = Cave(1)
    a = cave.tile(-1, 0, TILE.PLAIN)
    ledge = cave.tile(0, 0, TILE.LEDGE, mask(E, W), arrow=E)
    cave.caver(0, a)
    cave.set_stack([(TILE.PLAIN, SHAPE.CROSS, 0)] * 3)
    assert cave.act(0, ACTION.MOVE, E) and cave.at(0) == ledge
    assert cave.cv[0, CFC.SIDE] == W
    assert not cave.act(0, ACTION.REVEAL, E) and not cave.act(0, ACTION.EXPLORE, E)
    assert cave.gs[GFC.STACK_POS] == 0
    water = cave.tile(1, 0, TILE.WATER)
    cave.tl[water, TFC.FLOOD] = 1
    assert not cave.act(0, ACTION.SWIM, E)
    cave.tl[water, TFC.FLOOD] = 0
    assert not cave.act(0, ACTION.MOVE, E)
    cave.caver(0, a)
    assert cave.act(0, ACTION.RUN, run_args(E, E, E)) and cave.at(0) == ledge
    assert cave.act(0, ACTION.MOVE, W) and cave.at(0) == a  # back the way in
    # entered from the far side: crossing westwards is barred too
    cave.caver(0, water)
    assert cave.act(0, ACTION.MOVE, W) and cave.cv[0, CFC.SIDE] == E
    assert not cave.act(0, ACTION.MOVE, W)
    # with a rope the ledge is crossed freely
    assert cave.act(0, ACTION.ROPE, 0, rng_for(True))
    assert cave.act(0, ACTION.MOVE, W) and cave.at(0) == a
    assert cave.act(0, ACTION.RUN, run_args(E, E)) and cave.at(0) == water


def test_slide_crossing_by_actions():
    # ST-167 ST-168 ST-169
    cave = Cave(1)
    a = cave.tile(-1, 0, TILE.PLAIN)
    slide = cave.tile(0, 0, TILE.SLIDE, mask(E, W), arrow=E)
    b = cave.tile(1, 0, TILE.PLAIN)
    cave.caver(0, a)
    assert cave.act(0, ACTION.RUN, run_args(E, E)) and cave.at(0) == b  # down the slide
    assert cave.act(0, ACTION.MOVE, W) and cave.at(0) == slide  # enter from either side
    assert not cave.act(0, ACTION.MOVE, W)  # not back up without a rope
    assert cave.act(0, ACTION.ROPE, 0, rng_for(True))
    assert cave.act(0, ACTION.MOVE, W) and cave.at(0) == a


@pytest.mark.parametrize("ty", [TILE.LEDGE, TILE.SLIDE])
@pytest.mark.parametrize("d", [N, E, S, W])
def test_ledge_and_slide_laid_along_the_arrow(ty, d):
    # ST-160 ST-161 ST-166: straight along the arrow, arrow pointing away from the revealer
    cave = Cave(1)
    s0 = cave.tile(0, 0, TILE.START)
    cave.caver(0, s0)
    cave.set_stack([(ty, SHAPE.STRAIGHT, 0)])
    assert cave.act(0, ACTION.EXPLORE, d)
    t = cave.at(0)
    assert cave.tl[t, TFC.TYPE] == ty and cave.tl[t, TFC.ARROW] == d
    assert cave.tl[t, TFC.OPEN] == mask(d, (d + 2) & 3)
    assert cave.cv[0, CFC.SIDE] == (d + 2) & 3  # standing on the revealer's side


def test_horrors_ignore_ledges():
    # ST-171 ST-115: a horror crosses an unroped ledge against a caver standing behind it
    cave = Cave(1)
    h = cave.tile(-1, 0, TILE.PLAIN)
    cave.tile(0, 0, TILE.LEDGE, mask(E, W), arrow=E)
    b = cave.tile(1, 0, TILE.PLAIN)
    cave.caver(0, b)
    assert cave.closest_victim(h) == (0, 2)


# =========================================================================================
# Redraws and the empty stack
# =========================================================================================
def test_redraw_when_no_open_side_would_remain():
    # ST-174 ST-175
    cave = Cave(1)
    s0 = cave.tile(0, 0, TILE.START, mask(E))
    cave.caver(0, s0)
    cave.set_stack([(TILE.PLAIN, SHAPE.DEAD_END, 0), (TILE.HORROR, SHAPE.DEAD_END, 0),
                    (TILE.GAS, SHAPE.CROSS, 0)])
    t = cave.reveal(0, E)
    assert t == 1 and cave.tl[t, TFC.TYPE] == TILE.GAS
    assert cave.gs[GFC.DISCARDS] == 2 and cave.gs[GFC.STACK_POS] == 3
    # a tile with a legal rotation keeping an open side is not discarded
    cave = Cave(1)
    s0 = cave.tile(0, 0, TILE.START, mask(E))
    cave.caver(0, s0)
    cave.set_stack([(TILE.PLAIN, SHAPE.CORNER, 0)])
    t = cave.reveal(0, E)
    assert t == 1 and cave.gs[GFC.DISCARDS] == 0
    assert cave.tl[t, TFC.OPEN] in (mask(W, N), mask(W, S))
    # a dead end is fine while another open side remains elsewhere
    cave = Cave(1)
    s0 = cave.tile(0, 0, TILE.START, mask(E, S))
    cave.caver(0, s0)
    cave.set_stack([(TILE.PLAIN, SHAPE.DEAD_END, 0)])
    assert cave.reveal(0, E) == 1 and cave.gs[GFC.DISCARDS] == 0
    # the exit is never discarded
    cave = Cave(1)
    s0 = cave.tile(0, 0, TILE.START, mask(E))
    cave.caver(0, s0)
    cave.set_stack([(TILE.EXIT, SHAPE.DEAD_END, 0)])
    t = cave.reveal(0, E)
    assert t == 1 and cave.gs[GFC.EXIT_TILE] == t and cave.gs[GFC.DISCARDS] == 0


def test_empty_stack():
    # ST-176
    cave = Cave(1)
    s0 = cave.tile(0, 0, TILE.START)
    cave.caver(0, s0)
    cave.set_stack([])
    assert cave.reveal(0, E) == -1
    assert not cave.act(0, ACTION.REVEAL, E) and not cave.act(0, ACTION.EXPLORE, E)
    assert cave.at(0) == s0 and cave.gs[GFC.N_TILES] == 1
    # a stack of tiles that must all be discarded runs out the same way
    cave = Cave(1)
    s0 = cave.tile(0, 0, TILE.START, mask(E))
    cave.caver(0, s0)
    cave.set_stack([(TILE.PLAIN, SHAPE.DEAD_END, 0)] * 2)
    assert not cave.act(0, ACTION.EXPLORE, E) and cave.gs[GFC.DISCARDS] == 2
    assert cave.at(0) == s0


# =========================================================================================
# Explosives
# =========================================================================================
def engineer_cave():
    cave = Cave(2)
    a = cave.tile(0, 0, TILE.START, mask(N))
    cave.caver(0, a, ability=ABILITY.EXPLOSIVES, ab_cost=2, rank=1)
    cave.caver(1, a, rank=2)
    return cave, a


def test_explosives_only_the_engineer():
    # ST-076 ST-177
    cave, a = engineer_cave()
    assert not cave.act(1, ACTION.EXPLOSIVES, E)
    assert cave.tl[a, TFC.OPEN] == mask(N)
    assert cave.act(0, ACTION.EXPLOSIVES, E)


def test_explosives_open_a_wall_facing_a_gap():
    # ST-179 ST-180 ST-183
    cave, a = engineer_cave()
    assert not cave.act(0, ACTION.EXPLOSIVES, N)  # an open side is not a wall
    assert cave.act(0, ACTION.EXPLOSIVES, E)
    assert cave.tl[a, TFC.OPEN] == mask(N, E) and cave.tl[a, TFC.BLAST] == mask(E)
    assert cave.gs[GFC.EXPLOSIVES_LEFT] == 2
    assert cave.gs[GFC.FRONTIER] == cave.true_frontier() == 2
    # a tile later laid in the gap is opened there too, whatever its rotation
    cave.set_stack([(TILE.PLAIN, SHAPE.DEAD_END, 0)])
    assert cave.act(0, ACTION.EXPLORE, E)
    t = cave.at(0)
    assert (cave.tl[t, TFC.OPEN] >> W) & 1 and cave.nb[a, E] == t
    assert cave.tl[a, TFC.BLAST] == mask(E)  # the token stays
    assert cave.gs[GFC.FRONTIER] == cave.true_frontier()


def test_explosives_connect_two_walled_tiles():
    # ST-178 ST-180 ST-182: both walls open, the tiles link, horrors count the new step
    cave, a = engineer_cave()
    b = cave.tile(1, 0, TILE.PLAIN, mask(N))
    assert cave.closest_victim(b) == (-1, -1)
    assert cave.act(0, ACTION.EXPLOSIVES, E)
    assert cave.nb[a, E] == b and cave.nb[b, W] == a
    assert (cave.tl[b, TFC.OPEN] >> W) & 1 and (cave.tl[b, TFC.BLAST] >> W) & 1
    assert cave.closest_victim(b) == (0, 1)
    assert cave.act(1, ACTION.MOVE, E) and cave.at(1) == b
    assert cave.gs[GFC.FRONTIER] == cave.true_frontier()


def test_explosives_supply():
    # ST-181
    cave = Cave(1)
    a = cave.tile(0, 0, TILE.START, 0)
    cave.caver(0, a, ability=ABILITY.EXPLOSIVES, ab_cost=2)
    for d in (N, E, S):
        assert cave.act(0, ACTION.EXPLOSIVES, d)
    assert cave.gs[GFC.EXPLOSIVES_LEFT] == 0 and cave.gs[GFC.EXPLOSIVES_USED] == 3
    assert not cave.act(0, ACTION.EXPLOSIVES, W)
    assert cave.tl[a, TFC.OPEN] == mask(N, E, S)


def test_explosives_keep_the_frontier_count():
    # ST-178 ST-174
    cave, a = engineer_cave()
    cave.tile(1, 0, TILE.PLAIN, mask(W, N))  # its west side is open, a's east is a wall
    assert cave.gs[GFC.FRONTIER] == cave.true_frontier() == 2
    assert cave.act(0, ACTION.EXPLOSIVES, E)
    assert cave.gs[GFC.FRONTIER] == cave.true_frontier()


def test_explosives_frontier_error_causes_a_wrong_discard():
    # ST-174 ST-178: the start tile is open north and south; a dead end east of it faces
    # the start's east wall. After blasting that wall, revealing a dead end to the north
    # still leaves the south side open, so the dead end must be laid, not discarded.
    cave = Cave(1)
    a = cave.tile(0, 0, TILE.START, mask(N, S))
    cave.tile(1, 0, TILE.PLAIN, mask(W))
    cave.caver(0, a, ability=ABILITY.EXPLOSIVES, ab_cost=2)
    assert cave.act(0, ACTION.EXPLOSIVES, E)
    assert cave.true_frontier() == 2
    cave.set_stack([(TILE.PLAIN, SHAPE.DEAD_END, 0), (TILE.GAS, SHAPE.CROSS, 0)])
    t = cave.reveal(0, N)
    assert cave.gs[GFC.DISCARDS] == 0 and cave.tl[t, TFC.TYPE] == TILE.PLAIN


def test_explosives_blast_the_neighbours_wall():
    # ST-178
    cave = Cave(1)
    a = cave.tile(0, 0, TILE.START, mask(N, E))
    b = cave.tile(1, 0, TILE.PLAIN, mask(N))
    cave.caver(0, a, ability=ABILITY.EXPLOSIVES, ab_cost=2)
    assert cave.nb[a, E] == -1
    assert cave.act(0, ACTION.EXPLOSIVES, E)
    assert cave.nb[a, E] == b and cave.nb[b, W] == a


# =========================================================================================
# Damage, unconsciousness, exit immunity
# =========================================================================================
def test_damage_floor_and_exit_immunity():
    # ST-063 ST-064 ST-149
    cave = Cave(2)
    a = cave.tile(0, 0, TILE.START)
    ex = cave.exit(1, 0)
    cave.caver(0, a, hp=2)
    cave.caver(1, ex, hp=2)
    lost = engine.damage_nb(cave.tl, cave.cv, cave.gs, 0, 5, state.CAUSE_CAVE_IN)
    assert lost == 2 and cave.hp(0) == 0 and cave.gs[GFC.DMG_CAVE_IN] == 2
    assert cave.gs[GFC.KNOCKOUTS] == 1
    for cause in (state.CAUSE_TREMOR, state.CAUSE_FLOOD, state.CAUSE_GAS, state.CAUSE_CAVE_IN,
                  state.CAUSE_HORROR, state.CAUSE_EXERT, state.CAUSE_ROUGH,
                  state.CAUSE_OUT_OF_TIME):
        assert engine.damage_nb(cave.tl, cave.cv, cave.gs, 1, 3, cause) == 0
    assert cave.hp(1) == 2
    # a horror striking the exit tile harms no one there
    engine.horror_strikes_tile_nb(cave.tl, cave.cv, cave.gs, ex)
    assert cave.hp(1) == 2


def test_unconscious_and_removed_cavers_pass():
    # ST-063 ST-065 ST-142: their turn changes nothing (the bot is never asked)
    cave = Cave(2)
    a, b = line(cave, 2)
    cave.caver(0, a, hp=0)
    cave.caver(1, a, hp=3)
    cave.cv[1, CFC.REMOVED] = 1
    cave.set_stack([(TILE.PLAIN, SHAPE.CROSS, 0)])
    for c in (0, 1):
        before = cave.snapshot()
        cave.take_turn(c)
        for x, y in zip(before, cave.snapshot(), strict=True):
            np.testing.assert_array_equal(x, y)


def test_exit_is_an_ordinary_tile_for_movement():
    # ST-056
    cave = Cave(1)
    a = cave.tile(0, 0, TILE.START)
    ex = cave.exit(1, 0)
    cave.caver(0, a)
    assert cave.act(0, ACTION.MOVE, E) and cave.at(0) == ex
    assert cave.act(0, ACTION.MOVE, W) and cave.at(0) == a


# =========================================================================================
# Hazards
# =========================================================================================
def test_tremor_only_conscious_cavers_roll():
    # ST-119 ST-149
    params = compiled()
    tremor = card_id(params, HAZARD.TREMOR)
    for first, hp in ((True, 3), (False, 2)):
        cave = Cave(2)
        a = cave.tile(0, 0, TILE.START)
        cave.caver(0, a, hp=0)
        cave.caver(1, a, hp=3)
        # an unconscious caver rolling first would use up `first` and shift caver 1's roll
        cave.resolve(tremor, rng_for(first, not first))
        assert cave.hp(0) == 0 and cave.hp(1) == hp
    cave = Cave(1)
    ex = cave.exit(0, 0)
    cave.caver(0, ex, hp=3)
    cave.resolve(tremor, rng_for(False))
    assert cave.hp(0) == 3
    # severe tremor: 2 health
    cave = Cave(1)
    cave.caver(0, cave.tile(0, 0, TILE.START), hp=3)
    cave.resolve(card_id(params, HAZARD.TREMOR, severe=True), rng_for(False))
    assert cave.hp(0) == 1 and cave.gs[GFC.DMG_TREMOR] == 2


def test_flood():
    # ST-120 ST-121 ST-122 ST-123 ST-153 ST-006 ST-117
    params = compiled()
    flood = card_id(params, HAZARD.FLOOD)
    cave = Cave(3)
    w1, w2, p = line(cave, 3, types={0: TILE.WATER, 1: TILE.WATER})
    cave.caver(0, w1)
    cave.caver(1, w2, hp=1)
    cave.caver(2, p)
    cave.set_deck([flood, card_id(params, HAZARD.TREMOR), flood])
    cave.hazard_phase()
    assert cave.gs[GFC.DECK_POS] == 1
    assert cave.tl[w1, TFC.FLOOD] == 1 and cave.tl[w2, TFC.FLOOD] == 1
    assert cave.tl[p, TFC.FLOOD] == 0 and cave.gs[GFC.N_FLOODED] == 2
    assert (cave.hp(0), cave.hp(1), cave.hp(2)) == (2, 0, 3)
    # a water tile laid afterwards is dry until the next flood; markers never leave
    w3 = cave.tile(3, 0, TILE.WATER)
    assert cave.tl[w3, TFC.FLOOD] == 0
    cave.hazard_phase(rng_for(True, True))  # the tremor card
    assert cave.tl[w1, TFC.FLOOD] == 1 and cave.tl[w3, TFC.FLOOD] == 0
    cave.caver(2, w3)
    cave.hazard_phase()  # second flood: w3 floods; everyone on any flooded tile loses 1
    assert cave.tl[w3, TFC.FLOOD] == 1 and cave.gs[GFC.N_FLOODED] == 3
    assert (cave.hp(0), cave.hp(1), cave.hp(2)) == (1, 0, 2)
    assert cave.gs[GFC.DMG_FLOOD] == 1 + 1 + 1 + 1
    # severe flood: 2 health
    cave = Cave(1)
    cave.caver(0, cave.tile(0, 0, TILE.WATER))
    cave.resolve(card_id(params, HAZARD.FLOOD, severe=True))
    assert cave.hp(0) == 1


def test_flood_markers_never_exceed_water_tiles():
    # ST-006 ST-005: markers go on water tiles only, at most one each
    params = compiled()
    cave = Cave(1)
    cave.caver(0, cave.tile(0, 0, TILE.START))
    for x in range(1, 9):
        cave.tile(x, 0, TILE.WATER)
    for x in range(1, 13):
        cave.tile(x, 1, TILE.CAVE_IN, faces=(1, 2, 3, 4, 5, 6))
    for _ in range(3):
        cave.resolve(card_id(params, HAZARD.FLOOD))
        cave.resolve(card_id(params, HAZARD.CAVE_IN, severe=True))
    assert cave.gs[GFC.N_FLOODED] == 8 and cave.gs[GFC.N_RUBBLE] == 12
    np.testing.assert_array_equal(cave.tl[:21, TFC.FLOOD], [0] + [1] * 8 + [0] * 12)
    cave.gs[GFC.CHECK] = 1
    engine.check_invariants_nb(cave.tl, cave.cv, cave.hz, cave.gs)
    assert cave.gs[GFC.VIOLATIONS] == 0


def test_gas_card():
    # ST-124 ST-125 ST-127 ST-148
    params = compiled()
    gas = card_id(params, HAZARD.GAS)
    cave = Cave(3)
    s0, g1, g2 = line(cave, 3, types={0: TILE.START, 1: TILE.GAS, 2: TILE.GAS})
    cave.caver(0, g1)
    cave.caver(1, s0)
    cave.caver(2, s0)
    cave.set_deck([gas, card_id(params, HAZARD.FLOOD)])
    cave.hazard_phase()
    assert (cave.hp(0), cave.hp(1), cave.hp(2)) == (1, 3, 3)
    assert cave.gs[GFC.GAS_ACTIVE] == 2
    # until the next hazard phase, entering gas costs 2
    assert cave.act(1, ACTION.MOVE, E) and cave.hp(1) == 1
    assert cave.act(1, ACTION.MOVE, E) and cave.hp(1) == 0
    assert cave.gs[GFC.DMG_GAS] == 2 + 2 + 1
    cave.hazard_phase()  # the flood card: gas no longer in force
    assert cave.gs[GFC.GAS_ACTIVE] == 0
    assert cave.act(2, ACTION.MOVE, E) and cave.hp(2) == 3
    # severe gas
    cave = Cave(1)
    cave.caver(0, cave.tile(0, 0, TILE.GAS), hp=3)
    cave.resolve(card_id(params, HAZARD.GAS, severe=True))
    assert cave.hp(0) == 0 and cave.gs[GFC.GAS_ACTIVE] == params[4][1][EFC.GAS_ENTRY_DAMAGE]


def test_cave_in_buries_matching_faces_only():
    # ST-128 ST-129 ST-130 ST-064
    cave = Cave(4)
    k12 = cave.tile(0, 0, TILE.CAVE_IN, faces=(1, 2))
    k34 = cave.tile(1, 0, TILE.CAVE_IN, faces=(3, 4))
    k15 = cave.tile(2, 0, TILE.CAVE_IN, faces=(1, 5))
    p = cave.tile(3, 0, TILE.PLAIN)
    cave.tl[k15, TFC.RUBBLE] = 1  # already buried
    cave.gs[GFC.N_RUBBLE] = 1
    cave.caver(0, k12, hp=2)
    cave.caver(1, k34)
    cave.caver(2, k15)
    cave.caver(3, p)
    engine.hazard_cave_in_nb(cave.tl, cave.cv, cave.gs, 1, 3)
    np.testing.assert_array_equal(cave.tl[[k12, k34, k15, p], TFC.RUBBLE], [1, 0, 1, 0])
    assert cave.gs[GFC.N_RUBBLE] == 2
    assert [cave.hp(c) for c in range(4)] == [0, 3, 3, 3]
    assert cave.gs[GFC.DMG_CAVE_IN] == 2
    engine.hazard_cave_in_nb(cave.tl, cave.cv, cave.gs, 4, 3)
    assert cave.tl[k34, TFC.RUBBLE] == 1 and cave.hp(1) == 0


def test_cave_in_roll_is_a_fair_die():
    # ST-011 ST-128: one roll buries exactly the tile of one face, each face 1/6;
    # the severe card rolls twice
    params = compiled()
    plain = card_id(params, HAZARD.CAVE_IN)
    severe = card_id(params, HAZARD.CAVE_IN, severe=True)
    cave = Cave(1)
    cave.caver(0, cave.tile(0, 5, TILE.START))
    tiles = [cave.tile(v, 0, TILE.CAVE_IN, faces=(v,)) for v in range(1, 7)]
    n = 3000
    counts = np.zeros(6, np.int64)
    two = 0
    for i in range(n):
        cave.tl[tiles, TFC.RUBBLE] = 0
        cave.gs[GFC.N_RUBBLE] = 0
        cave.resolve(plain, new_state(SEED, i))
        buried = cave.tl[tiles, TFC.RUBBLE]
        assert buried.sum() == 1
        counts += buried
        cave.tl[tiles, TFC.RUBBLE] = 0
        cave.gs[GFC.N_RUBBLE] = 0
        cave.resolve(severe, new_state(SEED + 7, i))
        k = int(cave.tl[tiles, TFC.RUBBLE].sum())
        assert k in (1, 2)
        two += k == 2
    assert stats.chisquare(counts).pvalue > ALPHA
    assert stats.binomtest(two, n, 5 / 6).pvalue > ALPHA


def horror_line(n: int = 7, ht: int = 5):
    """A row of n cross tiles with a horror tile at x = ``ht``."""
    cave = Cave(2)
    tiles = line(cave, n, types={ht: TILE.HORROR})
    return cave, tiles


def test_horror_card_moves_then_spawns():
    # ST-131 ST-132 ST-133 ST-184
    params = compiled()
    cave, t = horror_line()
    cave.caver(0, t[3])
    cave.horror(t[0])
    cave.resolve(card_id(params, HAZARD.HORROR))
    # the old horror stepped once; the new one sits on the horror tile and did not move
    assert sorted(cave.hz.tolist()) == sorted([t[1], t[5], -1])
    assert cave.gs[GFC.N_HORRORS] == 2 and cave.gs[GFC.HORRORS_SPAWNED] == 1
    assert cave.tl[t[5], TFC.HORRORS] == 1 and cave.tl[t[1], TFC.HORRORS] == 1
    # severe: two steps for every horror first
    cave, t = horror_line()
    cave.caver(0, t[3])
    cave.horror(t[0])
    cave.resolve(card_id(params, HAZARD.HORROR, severe=True))
    assert sorted(cave.hz.tolist()) == sorted([t[2], t[5], -1])


def test_horror_card_with_three_horrors_spawns_none():
    # ST-009 ST-185 ST-194
    params = compiled()
    cave, t = horror_line(9, 8)
    cave.caver(0, t[4])
    for x in (0, 1, 2):
        cave.horror(t[x])
    assert cave.spawn() == -1
    cave.resolve(card_id(params, HAZARD.HORROR))
    assert cave.gs[GFC.N_HORRORS] == 3 and cave.tl[t[8], TFC.HORRORS] == 0
    assert cave.gs[GFC.HORRORS_SPAWNED] == 0


def test_hazard_phase_draws_one_card_then_out_of_time():
    # ST-037 ST-117 ST-118 ST-137 ST-138
    params = compiled()
    cave = Cave(1)
    cave.caver(0, cave.tile(0, 0, TILE.START), hp=3)
    cave.set_deck([card_id(params, HAZARD.FLOOD)] * 3)
    for k in range(1, 4):
        cave.hazard_phase()
        assert cave.gs[GFC.DECK_POS] == k and cave.gs[GFC.OUT_OF_TIME] == 0
    cave.hazard_phase(rng_for(True))
    assert cave.gs[GFC.OUT_OF_TIME] == 1 and cave.gs[GFC.DECK_POS] == 3
    assert cave.cv[0, CFC.REMOVED] == 0
    cave.hazard_phase(rng_for(False))  # and again in every later hazard phase
    assert cave.cv[0, CFC.REMOVED] == 1 and cave.gs[GFC.DECK_POS] == 3


# =========================================================================================
# Out of Time
# =========================================================================================
def test_out_of_time_card_reading():
    # ST-139 ST-140 ST-141 ST-142 ST-149
    cave = Cave(5)
    a = cave.tile(0, 0, TILE.START)
    ex = cave.exit(1, 0)
    cave.gs[GFC.ROUND] = 23
    cave.caver(0, ex, hp=2)  # on the exit: no roll, stays
    cave.caver(1, a, hp=0)  # unconscious: no roll, removed
    cave.caver(2, a, hp=3)  # fails: loses all, removed
    cave.caver(3, a, hp=1)  # passes: stays
    cave.caver(4, ex, hp=0)  # unconscious on the exit: out of the cave, stays
    # if the exit or unconscious cavers rolled, caver 2 would take the `True`
    engine.out_of_time_nb(cave.tl, cave.cv, cave.gs, 0, rng_for(False, True, False, False))
    np.testing.assert_array_equal(cave.cv[:5, CFC.REMOVED], [0, 1, 1, 0, 0])
    np.testing.assert_array_equal(cave.cv[:5, CFC.HP], [2, 0, 0, 1, 0])
    assert cave.cv[1, CFC.LEAVE] == 23 and cave.cv[2, CFC.LEAVE] == 23
    assert cave.gs[GFC.OOT_REMOVED] == 2 and cave.gs[GFC.DMG_OUT_OF_TIME] == 3
    # a removed caver is out for good: no heal, no damage, no victim (ST-142)
    cave.caver(3, a, hp=3)
    assert not cave.act(3, ACTION.HEAL, 2)
    assert engine.damage_nb(cave.tl, cave.cv, cave.gs, 2, 1, state.CAUSE_TREMOR) == 0
    assert not state.is_victim_nb(cave.cv, cave.gs, 2)


def test_out_of_time_rulebook_reading():
    # ST-141: every caver off the exit rolls, conscious or not; failures are removed
    cave = Cave(4)
    a = cave.tile(0, 0, TILE.START)
    ex = cave.exit(1, 0)
    cave.gs[GFC.ROUND] = 9
    cave.caver(0, ex, hp=2)
    cave.caver(1, a, hp=0)
    cave.caver(2, a, hp=3)
    cave.caver(3, a, hp=0)
    engine.out_of_time_nb(cave.tl, cave.cv, cave.gs, 1, rng_for(True, False, False))
    np.testing.assert_array_equal(cave.cv[:4, CFC.REMOVED], [0, 0, 1, 1])
    np.testing.assert_array_equal(cave.cv[:4, CFC.HP], [2, 0, 3, 0])
    assert cave.gs[GFC.OOT_REMOVED] == 2 and cave.cv[2, CFC.LEAVE] == 9
    # the setting picks the reading
    assert compiled(out_of_time_rule="rulebook")[0][CFG.OOT_RULE] == 1
    assert compiled()[0][CFG.OOT_RULE] == 0


@pytest.mark.parametrize("rule", [0, 1])
def test_out_of_time_removal_counts(rule):
    # ST-139 ST-140 ST-141: with 4 conscious cavers off the exit, removals ~ Binomial(4, 1/2)
    n = 3000
    removed = np.zeros(n, np.int64)
    cave = Cave(4)
    a = cave.tile(0, 0, TILE.START)
    for i in range(n):
        for c in range(4):
            cave.caver(c, a)
        cave.gs[GFC.OOT_REMOVED] = 0
        engine.out_of_time_nb(cave.tl, cave.cv, cave.gs, rule, new_state(SEED + rule, i))
        removed[i] = cave.gs[GFC.OOT_REMOVED]
        assert removed[i] == cave.cv[:4, CFC.REMOVED].sum()
    observed = np.bincount(removed, minlength=5)
    assert stats.chisquare(observed, stats.binom(4, 0.5).pmf(np.arange(5)) * n).pvalue > ALPHA


def test_rounds_in_a_sealed_cave_until_out_of_time():
    # ST-050 ST-053 ST-117 ST-118 ST-137 ST-138 ST-140: four cavers on a sealed start tile
    # with an empty stack can only pass, heal at full health or hide (no effect without
    # horrors); a deck of 5 floods on no water does nothing. Out of Time comes in round 6
    # and again every round until no caver is left.
    params = compiled()
    flood = card_id(params, HAZARD.FLOOD)
    later = 0
    for g in range(12):
        cave = Cave(4, params)
        s0 = cave.tile(0, 0, TILE.START, 0)
        for c in range(4):
            cave.caver(c, s0, hp=10, maxhp=10)
        cave.set_deck([flood] * 5)
        cave.set_stack([])
        engine.play_rounds_nb(cave.tl, cave.nb, cave.grid, cave.cv, cave.hz, cave.gs,
                              cave.stack, cave.deck, cave.scratch, params, BOT_ID, BP,
                              new_state(SEED, g))
        gs = cave.gs
        assert gs[GFC.OVER] == 1 and gs[GFC.OUT_OF_TIME] == 1
        assert gs[GFC.DECK_POS] == 5  # one card per round, none after Out of Time
        leave = cave.cv[:4, CFC.LEAVE]
        assert np.all(cave.cv[:4, CFC.REMOVED] == 1) and gs[GFC.OOT_REMOVED] == 4
        assert leave.min() >= 6 and leave.max() == gs[GFC.ROUND]
        later += leave.max() > 6
    assert later > 0  # Out of Time acted in later rounds too


# =========================================================================================
# Horrors
# =========================================================================================
def test_closest_victim_counts_steps_through_open_sides_only():
    # ST-187 ST-115 ST-114: a wall between neighbours forces the long way round
    cave = Cave(1)
    a = cave.tile(0, 0, TILE.PLAIN, mask(S))
    b = cave.tile(1, 0, TILE.HORROR, mask(S))
    c = cave.tile(0, 1, TILE.WATER, mask(N, E))
    d = cave.tile(1, 1, TILE.CAVE_IN, mask(N, W))
    cave.tl[c, TFC.FLOOD] = 1
    cave.tl[d, TFC.RUBBLE] = 1
    cave.caver(0, a)
    assert cave.closest_victim(b) == (0, 3)
    h = cave.horror(b)
    cave.move_horror(h)
    assert cave.hz[h] == d  # through the rubble
    cave.move_horror(h)
    assert cave.hz[h] == c  # through the flood
    cave.move_horror(h)
    assert cave.hz[h] == a and cave.hp(0) == 0  # ST-116


def test_horror_passes_every_obstacle_tile():
    # ST-115 ST-187 ST-201: squeeze, ledge, slide against the arrow, flood, rubble
    cave = Cave(1)
    types = {1: TILE.SQUEEZE, 2: TILE.LEDGE, 3: TILE.SLIDE, 4: TILE.WATER, 5: TILE.CAVE_IN}
    t = [cave.tile(x, 0, types.get(x, TILE.PLAIN), mask(E, W),
                   arrow={2: E, 3: W}.get(x, -1)) for x in range(7)]
    cave.tl[t[4], TFC.FLOOD] = 1
    cave.tl[t[5], TFC.RUBBLE] = 1
    cave.caver(0, t[6])
    h = cave.horror(t[0])
    for step in range(1, 7):
        assert cave.closest_victim(cave.hz[h]) == (0, 7 - step)
        cave.move_horror(h)
        assert cave.hz[h] == t[step]  # exactly one tile along the shortest path
    assert cave.hp(0) == 0 and cave.gs[GFC.HORROR_KOS] == 1


def test_victim_ties_go_to_the_lowest_rank():
    # ST-188 ST-189 ST-190
    cave = Cave(3)
    t = line(cave, 5)
    cave.caver(0, t[0], rank=5)
    cave.caver(1, t[4], rank=2)
    cave.caver(2, t[4], rank=7)
    assert cave.closest_victim(t[2]) == (1, 2)
    cave.cv[0, CFC.RANK] = 1
    assert cave.closest_victim(t[2]) == (0, 2)
    assert cave.closest_victim(t[3]) == (1, 1)  # fewer steps beats rank


def test_victim_exclusions():
    # ST-191 ST-192 ST-193 ST-150 ST-063
    cave = Cave(4)
    t = line(cave, 6, types={5: TILE.EXIT})
    cave.gs[GFC.EXIT_TILE] = t[5]
    cave.caver(0, t[1], hp=0)  # unconscious
    cave.caver(1, t[2])
    cave.cv[1, CFC.HIDDEN] = 1
    cave.caver(2, t[5])  # on the exit
    cave.caver(3, t[4])
    assert cave.closest_victim(t[0]) == (3, 4)
    cave.cv[3, CFC.REMOVED] = 1
    assert cave.closest_victim(t[0]) == (-1, -1)
    # the exit caver is no target for spawning either
    cave.tl[t[3], TFC.TYPE] = TILE.HORROR
    assert cave.spawn() == -1


def test_seven_step_limit_and_removal():
    # ST-114 ST-200 ST-186
    cave = Cave(1)
    t = line(cave, 9)
    cave.caver(0, t[7])
    h = cave.horror(t[0])
    assert cave.closest_victim(t[0]) == (0, HORROR_RANGE)
    cave.move_horror(h)
    assert cave.hz[h] == t[1]
    cave.caver(0, t[8])
    cave.hz[h] = t[0]
    cave.tl[t[1], TFC.HORRORS] = 0
    cave.tl[t[0], TFC.HORRORS] = 1
    assert cave.closest_victim(t[0]) == (-1, -1)
    cave.move_horror(h)
    assert cave.hz[h] == -1 and cave.gs[GFC.N_HORRORS] == 0
    assert cave.tl[t[0], TFC.HORRORS] == 0
    # no victim at all: removed too; the piece returns to the supply and can spawn again
    cave.tl[t[6], TFC.TYPE] = TILE.HORROR
    assert cave.spawn() == t[6] and cave.gs[GFC.N_HORRORS] == 1
    cave.cv[0, CFC.HP] = 0
    cave.move_horrors()
    assert np.all(cave.hz == -1) and cave.gs[GFC.N_HORRORS] == 0


def test_horror_phase_needs_horrors():
    # ST-113
    cave = Cave(1)
    t = line(cave, 3)
    cave.caver(0, t[2])
    before = cave.snapshot()
    cave.move_horrors()
    for x, y in zip(before, cave.snapshot(), strict=True):
        np.testing.assert_array_equal(x, y)


def test_horror_strikes():
    # ST-116 ST-112: moving in, spawning onto, and a caver walking in; hidden cavers too
    cave = Cave(3)
    t = line(cave, 4)
    cave.caver(0, t[3], rank=1)
    cave.caver(1, t[1], rank=2)
    cave.cv[1, CFC.HIDDEN] = 1  # hidden: not the target, but in the horror's way
    h = cave.horror(t[0])
    cave.move_horror(h)
    assert cave.hz[h] == t[1] and cave.hp(1) == 0 and cave.hp(0) == 3
    assert cave.gs[GFC.HORROR_KOS] == 1 and cave.gs[GFC.DMG_HORROR] == 3
    # a caver stepping onto a horror's tile
    cave.caver(2, t[2], rank=3)
    assert cave.act(2, ACTION.MOVE, W) and cave.hp(2) == 0
    # spawning onto a caver
    cave2 = Cave(1)
    ht = cave2.tile(0, 0, TILE.HORROR)
    cave2.caver(0, ht)
    assert cave2.spawn() == ht and cave2.hp(0) == 0


def test_spawn_rules():
    # ST-157 ST-184 ST-195 ST-196 ST-197 ST-198
    cave = Cave(1)
    t = line(cave, 9, types={0: TILE.HORROR, 8: TILE.HORROR})
    cave.caver(0, t[6])
    assert cave.spawn() == t[8]  # the nearer horror tile (2 steps) ...
    assert cave.spawn() == t[0]  # ... then the only free one (6 steps)
    assert cave.spawn() == -1  # both horror tiles hold a horror
    # within 7 steps only
    cave = Cave(1)
    t = line(cave, 9, types={0: TILE.HORROR})
    cave.caver(0, t[8])
    assert cave.spawn() == -1
    cave.caver(0, t[7])
    assert cave.spawn() == t[0]
    # only horror tiles
    cave = Cave(1)
    t = line(cave, 3)
    cave.caver(0, t[1])
    assert cave.spawn() == -1
    # the distance is to each tile's own closest victim
    cave = Cave(2)
    t = line(cave, 9, types={1: TILE.HORROR, 5: TILE.HORROR})
    cave.caver(0, t[3], rank=1)  # 2 from both
    cave.caver(1, t[6], rank=2)  # 1 from tile 5
    assert cave.spawn() == t[5]
    # a tie between candidate tiles: the lowest tile index (ST-198 reading)
    cave = Cave(1)
    t = line(cave, 5, types={0: TILE.HORROR, 4: TILE.HORROR})
    cave.caver(0, t[2])
    assert cave.spawn() == min(t[0], t[4])


def test_horrors_move_one_at_a_time():
    # ST-199 ST-203: slot order; the second horror sees the first one's knock-out
    cave = Cave(2)
    t = line(cave, 7)
    cave.caver(0, t[3], rank=1)
    cave.caver(1, t[6], rank=2)
    h0 = cave.horror(t[2])
    h1 = cave.horror(t[4])
    cave.move_horrors()
    assert cave.hz[h0] == t[3] and cave.hp(0) == 0
    assert cave.hz[h1] == t[5]  # chased caver 1, caver 0 being out


def test_horrors_may_share_a_tile():
    # ST-204
    cave = Cave(1)
    mid = cave.tile(0, 0, TILE.PLAIN)
    left = cave.tile(-1, 0, TILE.PLAIN, mask(E))
    right = cave.tile(1, 0, TILE.PLAIN, mask(W))
    below = cave.tile(0, 1, TILE.PLAIN, mask(N))
    cave.caver(0, below)
    h0 = cave.horror(left)
    h1 = cave.horror(right)
    cave.move_horrors()
    assert cave.hz[h0] == cave.hz[h1] == mid and cave.tl[mid, TFC.HORRORS] == 2


def test_victim_picks_among_equal_first_steps():
    # ST-051 ST-202: documented choice of horror_step_choice_nb: the step with fewest
    # other cavers on it, then the lowest side number
    def square():
        cave = Cave(2)
        a = cave.tile(0, 0, TILE.PLAIN, mask(E, S))
        b = cave.tile(1, 0, TILE.PLAIN, mask(W, S))
        c = cave.tile(0, 1, TILE.PLAIN, mask(N, E))
        d = cave.tile(1, 1, TILE.PLAIN, mask(N, W))
        return cave, a, b, c, d

    cave, a, b, c, d = square()
    cave.caver(0, d)
    h = cave.horror(a)
    cave.move_horror(h)
    assert cave.hz[h] == b  # E (1) before S (2)
    cave, a, b, c, d = square()
    cave.caver(0, d, rank=1)
    cave.caver(1, b, rank=2)
    cave.cv[1, CFC.HIDDEN] = 1
    h = cave.horror(a)
    cave.move_horror(h)
    assert cave.hz[h] == c and cave.hp(1) == 3  # around the hidden caver


# =========================================================================================
# Game end, medals, end phase
# =========================================================================================
def test_game_over():
    # ST-052 ST-053 ST-054
    cave = Cave(3)
    a = cave.tile(0, 0, TILE.START)
    ex = cave.exit(1, 0)
    for c in range(3):
        cave.caver(c, a)
    assert not cave.game_over()
    cave.caver(0, ex)
    cave.caver(1, ex)
    assert not cave.game_over()
    cave.caver(2, ex)
    assert cave.game_over()  # everyone on the exit
    cave.caver(2, a, hp=0)
    assert cave.game_over()  # the only one left in the cave is unconscious
    cave.caver(2, a, hp=1)
    cave.cv[2, CFC.REMOVED] = 1
    assert cave.game_over()  # removed cavers do not count
    cave = Cave(2)
    a = cave.tile(0, 0, TILE.START)
    cave.caver(0, a, hp=0)
    cave.caver(1, a, hp=0)
    assert cave.game_over()  # nobody conscious, no exit yet


@pytest.mark.parametrize("cavers", [4, 5, 6])
def test_medals_from_left_behind(cavers):
    # ST-057 ST-058 ST-059 ST-060 ST-061 ST-062 ST-142
    for escaped in range(cavers + 1):
        cave = Cave(cavers)
        a = cave.tile(0, 0, TILE.START)
        ex = cave.exit(1, 0)
        cave.gs[GFC.ROUND] = 21
        cave.gs[GFC.DECK_N] = 17
        for c in range(cavers):
            cave.caver(c, ex if c < escaped else a, hp=0 if c % 2 else 2)
        removed = cavers - 1 if escaped < cavers else -1  # one left-behind caver removed
        if removed >= 0:
            cave.cv[removed, CFC.REMOVED] = 1
            cave.cv[removed, CFC.LEAVE] = 19
        rec = cave.record(7)
        left = cavers - escaped
        assert rec["left_behind"] == left and rec["escaped"] == escaped
        assert rec["outcome"] == min(left, 3)
        assert engine.OUTCOME_NAMES[rec["outcome"]] == ("gold", "silver", "bronze",
                                                        "defeat")[min(left, 3)]
        assert rec["win"] == (left < 3)
        assert rec["cavers"] == cavers and rec["rounds"] == 21 and rec["hazard_cards"] == 17
        want = [21] * escaped + [-1] * left + [-2] * (MAX_CAVERS - cavers)
        if removed >= 0:
            want[removed] = 19
        np.testing.assert_array_equal(rec["leave_round"], want)


def test_record_tallies():
    # ST-062: damage by hazard type and horror knock-outs reach the record
    cave = Cave(2)
    a = cave.tile(0, 0, TILE.GAS)
    cave.caver(0, a)
    cave.caver(1, a)
    engine.hazard_gas_nb(cave.tl, cave.cv, cave.gs, 2, 2)
    engine.horror_strikes_tile_nb(cave.tl, cave.cv, cave.gs, a)
    rec = cave.record()
    assert rec["dmg_gas"] == 4 and rec["dmg_horror"] == 2
    assert rec["horror_knockouts"] == 2 and rec["knockouts"] == 2


def test_next_seat_skips_removed_cavers():
    # ST-143 ST-144
    cave = Cave(4)
    a = cave.tile(0, 0, TILE.START)
    for c in range(4):
        cave.caver(c, a, hp=0 if c == 2 else 3)
    ns = engine.next_seat_nb
    assert [ns(cave.cv, cave.gs, s) for s in range(4)] == [1, 2, 3, 0]  # clockwise, wraps
    cave.cv[1, CFC.REMOVED] = 1
    cave.cv[3, CFC.REMOVED] = 1
    assert ns(cave.cv, cave.gs, 0) == 2  # unconscious cavers are still in the game
    assert ns(cave.cv, cave.gs, 2) == 0
    cave.cv[2, CFC.REMOVED] = 1
    assert ns(cave.cv, cave.gs, 0) == 0


# =========================================================================================
# Whole games
# =========================================================================================
def play(preset: str, cavers: int, n: int, bot=None, **overrides) -> np.ndarray:
    values = GAME.resolve(preset, {"cavers": cavers, "check_invariants": True, **overrides})
    params = GAME.compile(values)
    b = GAME.bot(bot)
    bp = np.array(list(b.params.values()), dtype=np.float64)
    return GAME.play_batch(params, b.id, bp, SEED, 0, n)


def check_records(rec: np.ndarray, cavers: int, deck: int) -> None:
    """Consistency of whole-game records (see the test below for the rule ids)."""
    n = len(rec)
    np.testing.assert_array_equal(rec["invariant_violations"], 0)
    np.testing.assert_array_equal(rec["cavers"], cavers)
    np.testing.assert_array_equal(rec["hazard_cards"], deck)
    np.testing.assert_array_equal(rec["escaped"] + rec["left_behind"], cavers)
    np.testing.assert_array_equal(rec["outcome"], np.minimum(rec["left_behind"], 3))
    np.testing.assert_array_equal(rec["win"], rec["outcome"] != 3)
    assert rec["max_horrors"].max() <= MAX_HORRORS
    assert np.all(rec["rounds"] >= 1) and np.all(rec["rounds"] < MAX_ROUNDS)
    oot = rec["out_of_time"]
    assert np.all(rec["rounds"][oot] >= deck + 1)
    assert np.all(rec["rounds"][~oot] <= deck + 1)
    assert np.all(rec["out_of_time_deaths"][~oot] == 0)
    assert np.all(rec["out_of_time_deaths"] <= rec["left_behind"])
    assert np.all(rec["tiles_revealed"] <= 65)
    er = rec["exit_revealed_round"]
    assert np.all((er == -1) | ((er >= 1) & (er <= rec["rounds"])))
    assert np.all(rec["escaped"][er == -1] == 0)
    lr = rec["leave_round"]
    np.testing.assert_array_equal(lr[:, cavers:], -2)
    seated = lr[:, :cavers]
    np.testing.assert_array_equal((seated == -1).sum(1),
                                  rec["left_behind"] - rec["out_of_time_deaths"])
    np.testing.assert_array_equal((seated >= 1).sum(1),
                                  rec["escaped"] + rec["out_of_time_deaths"])
    rounds = rec["rounds"][:, None]
    # escaped: the round they reached the exit; removed: an Out of Time round
    assert np.all((seated < 0) | ((seated >= 1) & (seated <= rounds)))
    removed_rounds = np.where(seated >= deck + 1, 1, 0).sum(1)
    assert np.all(removed_rounds >= rec["out_of_time_deaths"])
    assert np.all(rec["horror_knockouts"] <= rec["knockouts"])
    assert np.all(rec["explosives_used"] <= 3) and np.all(rec["ropes_placed"] <= 6)
    # exert: at most one per turn, 1 health on a failed check (ST-078 ST-080 ST-081)
    assert np.all(rec["exertions"] <= rec["rounds"] * cavers)
    assert np.all(rec["dmg_exert"] <= rec["exertions"])
    ex, lost = int(rec["exertions"].sum()), int(rec["dmg_exert"].sum())
    if ex > 0:  # at most half fail (knocked-out or exit cavers lose nothing): one-sided
        assert stats.binom(ex, 0.5).sf(lost - 1) > ALPHA
    severe = rec["severe_cards"]
    assert np.all(severe <= np.minimum(rec["rounds"], deck))
    assert n > 0


@pytest.mark.parametrize("preset", DIFFS)
@pytest.mark.parametrize("cavers", [4, 5, 6])
def test_whole_games_are_consistent(preset, cavers):
    # ST-050 ST-057 ST-058 ST-059 ST-060 ST-061 ST-062 ST-064 ST-078 ST-080 ST-081 ST-118
    # ST-137 ST-138 ST-142 ST-185 ST-005 ST-006
    rec = play(preset, cavers, 3000)
    check_records(rec, cavers, DECK_TABLE[cavers, preset])
    if preset == "normal":
        assert rec["severe_cards"].sum() == 0  # ST-134
    for b in GAME.bots[1:]:
        # the search bot plays the same rules at ~500x the cost a game: a few games suffice
        n = 20 if b.name == "search" else 300
        check_records(play(preset, cavers, n, b.name), cavers, DECK_TABLE[cavers, preset])


def test_whole_games_rulebook_out_of_time():
    # ST-141
    rec = play("normal", 4, 2000, out_of_time_rule="rulebook")
    check_records(rec, 4, 22)


def test_games_end_only_when_the_end_condition_holds():
    # ST-052 ST-053 ST-057 ST-064: replay games on our own arrays; read the end state in
    # plain Python: every caver still in the game is on the exit or unconscious (ST-052/053),
    # and the record's left-behind count is the cavers not standing on the exit (ST-057)
    params = compiled(check_invariants=True)
    tl, nb, grid, cv, hz, gs, stack, deck, scratch = state.alloc_nb()
    rec = np.zeros(1, dtype=engine.record_dt)
    rng = np.zeros(4, np.uint64)
    for i in range(300):
        engine.play_one_nb(tl, nb, grid, cv, hz, gs, stack, deck, scratch, params, BOT_ID, BP,
                           SEED, i, rec[0], rng)
        assert gs[GFC.OVER] == 1 and gs[GFC.ROUND] < MAX_ROUNDS
        ex = int(gs[GFC.EXIT_TILE])
        rows = [(int(cv[c, CFC.REMOVED]), int(cv[c, CFC.HP]), int(cv[c, CFC.TILE]))
                for c in range(4)]
        still_acting = [c for c, (rem, hp, t) in enumerate(rows)
                        if rem == 0 and hp > 0 and t != ex]
        assert still_acting == [], (i, rows)
        on_exit = sum(1 for rem, hp, t in rows if rem == 0 and t == ex)
        assert rec[0]["escaped"] == on_exit and rec[0]["left_behind"] == 4 - on_exit
        hp, mx = cv[:4, CFC.HP], cv[:4, CFC.MAXHP]
        assert np.all((hp >= 0) & (hp <= mx))
        assert gs[GFC.N_HORRORS] == np.sum(hz >= 0) <= MAX_HORRORS
        assert gs[GFC.VIOLATIONS] == 0
        assert np.all(grid == -1)  # play_one_nb empties the grid again
