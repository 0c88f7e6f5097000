"""Terraria's ``search`` bot (``search.py``) and the state copy it plays forward from.

- budget 0 plays ``builder`` itself, game for game;
- the same seed gives the same rows on any chunking and 1 or 2 threads;
- a state copied at a turn boundary (its generator with it) and played on by the default
  bot ends exactly where the original game ends, at every boundary tried;
- the hidden-information redeal keeps everything the players can see and redeals only what
  they cannot (and it does redeal);
- a paired check that the search bot is not worse than ``builder`` on Hard beyond a sign
  test's stated false-alarm rate;
- a bad budget is one line naming it.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from frames import assert_same_games

import simlib
from simlib.core.rng import seed_state_nb
from simlib.errors import SimlibInputError
from simlib.games.terraria import GAME, SEARCH_ID, bots, search
from simlib.games.terraria.engine import setup
from simlib.games.terraria.engine.batch import play_on_nb, record_nb
from simlib.games.terraria.state import LAYERS, PILE, TILE_COLS, TP, G, P, record_dt

SEED = 2026


def _compiled(preset="hard"):
    return GAME.compile(GAME.resolve(preset, {}))


def _run(bot, games, preset="hard", **kw):
    return simlib.run("terraria", preset=preset, bot=bot, games=games, seed=SEED,
                      progress=False, **kw)


def test_search_id_and_plans():
    assert SEARCH_ID == search.SEARCH_ID
    assert [b.name for b in GAME.bots][-1] == "search"
    assert search.PLANS[0] == GAME.default_bot  # the rollout policy wins ties
    m = search.plan_matrix()
    assert m.shape == (3, len(bots.PARAM_NAMES))
    np.testing.assert_array_equal(m[0], bots.BOTS["builder"][1])


def test_budget_zero_plays_builder():
    a = _run("builder", 24).df
    b = _run("search", 24, bot_params={"budget": 0}).df
    assert_same_games(a, b)


def test_same_rows_on_any_chunking_and_thread_count():
    kw = {"bot_params": {"budget": 1}, "preset": "medium"}
    a = _run("search", 6, chunk_size=6, threads=1, **kw).df
    b = _run("search", 6, chunk_size=2, threads=2, **kw).df
    c = _run("search", 6, chunk_size=5, threads=2, **kw).df
    pd.testing.assert_frame_equal(a, b)
    pd.testing.assert_frame_equal(a, c)


def _play_to(tab, cfg, bp, index, rnd, seat):
    st = setup.alloc_state_nb(tab)
    setup.setup_nb(st, tab, cfg, np.uint64(SEED), index)
    hit = play_on_nb(st, tab, cfg, 1, bp, -1, rnd, seat)
    return st, hit


def _record(st, tab, index):
    rec = np.zeros(1, dtype=record_dt)
    record_nb(st, tab, index, rec[0])
    return rec


@pytest.mark.parametrize(("index", "rnd", "seat"), [(0, 1, 0), (1, 3, 1), (2, 6, 0), (3, 9, 1)])
def test_a_copy_at_a_turn_boundary_plays_on_to_the_same_end(index, rnd, seat):
    tab, cfg = _compiled("hard")
    bp = np.array(bots.BOTS["builder"][1], dtype=np.float64)
    whole = _run("builder", index + 1).df.iloc[[index]].reset_index(drop=True)
    st, hit = _play_to(tab, cfg, bp, index, rnd, seat)
    assert hit  # the game was still on at that boundary
    assert st.g[G.ROUND] == rnd
    sim = setup.alloc_state_nb(tab)
    setup.copy_state_nb(st, sim)
    np.testing.assert_array_equal(sim.rng, st.rng)
    assert not play_on_nb(sim, tab, cfg, 1, bp, seat, 0, 0)
    assert not play_on_nb(st, tab, cfg, 1, bp, seat, 0, 0)
    a = GAME.records_to_frame(_record(st, tab, index))
    b = GAME.records_to_frame(_record(sim, tab, index))
    pd.testing.assert_frame_equal(a, b)
    assert_same_games(a, whole)  # stopping and resuming changed nothing


def test_a_copy_with_another_generator_plays_another_game():
    # the check above can fail: a copy whose generator differs ends differently
    tab, cfg = _compiled("hard")
    bp = np.array(bots.BOTS["builder"][1], dtype=np.float64)
    ends = set()
    for k in range(6):
        st, _ = _play_to(tab, cfg, bp, 0, 2, 0)
        seed_state_nb(99, k, st.rng)
        play_on_nb(st, tab, cfg, 1, bp, 0, 0, 0)
        ends.add(tuple(_record(st, tab, 0)[0].tolist()[1:]))
    assert len(ends) > 1


def _hidden_positions(st):
    return [(la, tc) for la in range(LAYERS) for tc in range(TILE_COLS)
            if st.tiles[TP.KNOWN, la, tc] == 0]


def _tile_squares(st, tab, la, tc):
    h, w = tab.tpl.shape[2], tab.tpl.shape[3]
    return st.grid[:, la * h:(la + 1) * h, tc * w:(tc + 1) * w]


def test_undiscovered_tiles_are_pristine_at_turn_boundaries():
    # what resample_hidden_nb relies on: an undiscovered tile is its template as laid
    tab, cfg = _compiled("hard")
    bp = np.array(bots.BOTS["builder"][1], dtype=np.float64)
    checked = 0
    for index, rnd in ((0, 4), (1, 8), (2, 12), (4, 16)):
        st, hit = _play_to(tab, cfg, bp, index, rnd, 1)
        if not hit:
            continue
        for la, tc in _hidden_positions(st):
            sq = _tile_squares(st, tab, la, tc)
            t = st.tiles[TP.TPL, la, tc]
            for plane in (P.SQ, P.RES, P.FEAT, P.VAL):
                np.testing.assert_array_equal(sq[plane], tab.tpl[plane, t])
            assert not sq[P.PROG].any() and not sq[P.OCC].any()
            checked += 1
    assert checked > 50


def test_the_redeal_keeps_what_is_seen_and_redeals_what_is_not():
    tab, cfg = _compiled("hard")
    bp = np.array(bots.BOTS["builder"][1], dtype=np.float64)
    st, hit = _play_to(tab, cfg, bp, 1, 5, 0)
    assert hit
    hidden = _hidden_positions(st)
    moved_tiles = 0
    moved_decks = 0
    for k in range(8):
        sim = setup.alloc_state_nb(tab)
        setup.copy_state_nb(st, sim)
        seed_state_nb(7, k, sim.rng)
        search.resample_hidden_nb(sim, tab)
        np.testing.assert_array_equal(sim.tiles[TP.KNOWN], st.tiles[TP.KNOWN])
        np.testing.assert_array_equal(sim.mini[1], st.mini[1])
        up = st.mini[1] != 0
        np.testing.assert_array_equal(sim.mini[0][up], st.mini[0][up])
        assert sorted(sim.mini[0]) == sorted(st.mini[0])
        for la in range(LAYERS):
            for tc in range(TILE_COLS):
                if st.tiles[TP.KNOWN, la, tc]:
                    np.testing.assert_array_equal(_tile_squares(sim, tab, la, tc),
                                                  _tile_squares(st, tab, la, tc))
                    assert sim.tiles[TP.TPL, la, tc] == st.tiles[TP.TPL, la, tc]
        moved_tiles += sum(sim.tiles[TP.TPL, la, tc] != st.tiles[TP.TPL, la, tc]
                           for la, tc in hidden)
        # no tile is laid twice, and every tile laid comes from its biome and layer stock
        laid = sim.tiles[TP.TPL].ravel()
        stocked = set(tab.stock[tab.stock >= 0].tolist()) | set(tab.start.tolist())
        assert len(set(laid.tolist())) == laid.size
        assert set(laid.tolist()) <= stocked
        for p in range(st.g[G.PLAYERS]):
            n = st.npile[p, PILE.DRAW]
            a, b = st.deck[p, PILE.DRAW, :n], sim.deck[p, PILE.DRAW, :n]
            assert sorted(a.tolist()) == sorted(b.tolist())
            moved_decks += int((a != b).any())
            np.testing.assert_array_equal(sim.deck[p, PILE.DISCARD], st.deck[p, PILE.DISCARD])
        np.testing.assert_array_equal(sim.pieces, st.pieces)
        np.testing.assert_array_equal(sim.chars, st.chars)
    assert moved_tiles > 0 and moved_decks > 0


def _sign_tail(worse: int, better: int) -> float:
    """P(X >= worse) for X ~ Binomial(worse + better, 1/2): a one-sided exact sign test."""
    n = worse + better
    return sum(math.comb(n, i) for i in range(worse, n + 1)) / 2.0**n


def test_search_is_not_worse_than_builder_on_hard():
    # paired by seed: a game builder wins and search loses counts against search. Under
    # "search is as good as builder" those discordant games split evenly, so the exact
    # sign test below raises a false alarm at most 1 time in 1,000.
    n = 24
    a = _run("builder", n).df["win"].to_numpy()
    b = _run("search", n, bot_params={"budget": 2}).df["win"].to_numpy()
    worse = int((a & ~b).sum())
    better = int((b & ~a).sum())
    assert _sign_tail(worse, better) > 1e-3, (worse, better)


def test_the_sign_test_rejects_a_clear_loss():
    assert _sign_tail(12, 0) < 1e-3
    assert _sign_tail(3, 3) > 0.5


@pytest.mark.parametrize("budget", [-1, 1025, 2.5, "many"])
def test_a_bad_budget_is_one_line(budget):
    with pytest.raises(SimlibInputError) as err:
        _run("search", 2, bot_params={"budget": budget})
    msg = str(err.value)
    assert "budget" in msg and "\n" not in msg
    assert "1024" in msg
