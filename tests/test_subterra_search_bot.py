"""Sub Terra's ``search`` bot: budget 0 is explorer, determinism, copies, hidden info, bounds."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from frames import assert_same_games, game_rows
from scipy import stats
from subterra_helpers import play_split_nb

import simlib
from simlib.core.rng import new_state
from simlib.errors import SimlibInputError
from simlib.games.registry import get_game
from simlib.games.subterra import bots, engine, search, state
from simlib.games.subterra.state import CFG, GFC, TILE

GAME = get_game("subterra")


def run(bot, games, seed=5, preset="normal", **kw):
    return simlib.run("subterra", preset=preset, bot=bot, games=games, seed=seed,
                      progress=False, **kw).df


@pytest.mark.parametrize("preset", ["normal", "expert"])
def test_budget_zero_plays_exactly_as_explorer(preset):
    a = run("explorer", 48, preset=preset)
    b = run("search", 48, preset=preset, bot_params={"budget": 0})
    assert_same_games(a, b)


@pytest.fixture(scope="module")
def search4():
    return run("search", 24, seed=9, bot_params={"budget": 4})


def test_same_seed_same_records_any_chunking_and_threads(search4):
    again = run("search", 24, seed=9, bot_params={"budget": 4}, chunk_size=5, threads=1)
    pd.testing.assert_frame_equal(again, search4)
    two = run("search", 24, seed=9, bot_params={"budget": 4}, chunk_size=24, threads=2)
    pd.testing.assert_frame_equal(two, search4)
    # a game's record depends on its index only
    params = GAME.compile(GAME.resolve("normal", {}))
    part = GAME.records_to_frame(GAME.play_batch(params, search.SEARCH_BOT,
                                                 np.array([4.0]), 9, 17, 7))
    whole = game_rows(search4.iloc[17:].reset_index(drop=True))
    pd.testing.assert_frame_equal(part, whole)


def test_search_changes_play():
    # the search bot is not explorer under another name: at budget 4 some games differ
    a = run("explorer", 24, seed=9)
    b = run("search", 24, seed=9, bot_params={"budget": 4})
    assert not a.drop(columns="game_index").equals(b.drop(columns="game_index"))


@pytest.mark.parametrize("preset", ["normal", "expert"])
def test_a_copy_goes_on_exactly_as_the_original(preset):
    # copy_state_nb + the generator state, taken before any decision of any game, goes on
    # with the default bot to the very record the original reaches, which is the record
    # of the ordinary run; undo_grid_nb then restores the copy's grid
    params = GAME.compile(GAME.resolve(preset, {}))
    ref = run("explorer", 6, seed=31, preset=preset)
    splits = 0
    for g in range(6):
        for stop_at in (0, 1, 2, 7, 19, 44, 90, 150):
            out = np.zeros(2, dtype=engine.record_dt)
            split, grid_ok = play_split_nb(params, np.uint64(31), g, stop_at, out)
            got = GAME.records_to_frame(out[:1])
            assert_same_games(got, ref.iloc[g:g + 1].reset_index(drop=True))
            if split < 0:
                continue
            splits += 1
            assert grid_ok
            for name in engine.record_dt.names:
                np.testing.assert_array_equal(out[1][name], out[0][name], err_msg=name)
    assert splits >= 30


def mid_game(preset="normal", seed=3, game=0, rounds=4):
    """A state after ``rounds`` rounds of an explorer game (Python: ``Cave``-free)."""
    params = GAME.compile(GAME.resolve(preset, {}))
    arrays = state.alloc()
    tl, nb, grid, cv, hz, gs, stack, deck, scratch = arrays
    rng = new_state(seed, game)
    engine.setup_nb(tl, nb, grid, cv, hz, gs, stack, deck, params, rng)
    bp = search.SCRIPTED_BP[0]
    while gs[GFC.ROUND] < rounds and engine.advance_nb(
            tl, nb, grid, cv, hz, gs, stack, deck, scratch, params, 0, bp, rng, True):
        c = engine.turn_caver_nb(gs)
        a, g, w = bots.decide_nb(tl, nb, grid, cv, hz, gs, scratch, params, c,
                                 gs[GFC.TURN_AP], gs[GFC.TURN_EXERTED] != 0, 0, bp)
        engine.decide_act_nb(tl, nb, grid, cv, hz, gs, stack, scratch, params, a, g, w, 0,
                             bp, rng)
    return params, arrays


@pytest.mark.parametrize("game", range(8))
def test_resampling_keeps_what_the_players_know(game):
    params, (tl, nb, grid, cv, hz, gs, stack, deck, scratch) = mid_game(game=game, rounds=3)
    p, n = int(gs[GFC.STACK_POS]), int(gs[GFC.STACK_N])
    dp, dn = int(gs[GFC.DECK_POS]), int(gs[GFC.DECK_N])
    assert 0 < p < n and 0 < dp < dn
    depth = int(params[0][CFG.EXIT_DEPTH])
    pool = sorted(params[2].tolist())
    tmp_stack = np.zeros_like(stack)
    tmp_cards = np.zeros(len(pool) + 1, np.int32)
    exits = []
    for k in range(40):
        s2, d2 = stack.copy(), deck.copy()
        search.resample_hidden_nb(gs, s2, d2, params, tmp_stack, tmp_cards,
                                  new_state(77, k))
        # what was drawn stays; the unseen tiles are the same tiles in some order
        np.testing.assert_array_equal(s2[:p], stack[:p])
        assert sorted(map(tuple, s2[p:n])) == sorted(map(tuple, stack[p:n]))
        if gs[GFC.EXIT_TILE] < 0:
            where = [i for i in range(p, n) if s2[i, 0] == TILE.EXIT]
            assert len(where) == 1 and where[0] >= n - depth
            exits.append(where[0])
        # the cards turned over stay; the unseen ones come from the pool less those
        np.testing.assert_array_equal(d2[:dp], deck[:dp])
        rest = list(pool)
        for card in deck[:dp].tolist():
            rest.remove(card)
        for card in d2[dp:dn].tolist():
            rest.remove(card)  # raises if a card is dealt twice or never was in the pool
    if exits:
        assert len(set(exits)) > 1 or n - max(p, n - depth) == 1


def test_search_not_worse_than_explorer_paired():
    # One-sided exact sign test on the games the two bots split (McNemar): if search@16
    # were at least as good as explorer, the chance of this failing is below 0.1%.
    a = run("explorer", 60, seed=2027)
    b = run("search", 60, seed=2027, bot_params={"budget": 16})
    exp_only = int((a.win & ~b.win).sum())
    search_only = int((b.win & ~a.win).sum())
    if exp_only + search_only:
        p = stats.binomtest(exp_only, exp_only + search_only, 0.5,
                            alternative="greater").pvalue
        assert p > 0.001, (exp_only, search_only)


@pytest.mark.parametrize("budget", [-1, 1025, 2.5, "many"])
def test_bad_budget_is_one_line(budget):
    with pytest.raises(SimlibInputError) as err:
        run("search", 2, bot_params={"budget": budget})
    msg = str(err.value)
    assert "budget" in msg and "\n" not in msg


def test_search_is_listed_with_its_budget():
    bot = GAME.bot("search")
    assert bot.params == {"budget": 16.0} and bot.param_bounds["budget"] == (0.0, 1024.0)
