"""Terminus Breach TD: same seed, same rows, whatever the chunking or thread count."""

import numpy as np
import pandas as pd
import pytest
from frames import game_rows

import simlib
from simlib.games.registry import get_game

N = 500
SEED = 4242
SETTINGS = {"players": 3, "race0": "treefolk", "race1": "elves", "race2": "dwarves"}


@pytest.fixture(scope="module")
def reference():
    return simlib.run("terminus", preset="heroic", settings=SETTINGS, bot="petitioner",
                      games=N, seed=SEED, progress=False)


@pytest.mark.parametrize("chunk_size", [1, 7, 256])
def test_chunking_does_not_change_rows(reference, chunk_size):
    small = 60 if chunk_size == 1 else N
    res = simlib.run("terminus", preset="heroic", settings=SETTINGS, bot="petitioner",
                     games=small, seed=SEED, chunk_size=chunk_size, progress=False)
    pd.testing.assert_frame_equal(res.df, reference.df.iloc[:small])


def test_threads_do_not_change_rows(reference):
    for threads in (1, 2):
        res = simlib.run("terminus", preset="heroic", settings=SETTINGS, bot="petitioner",
                         games=N, seed=SEED, threads=threads, progress=False)
        pd.testing.assert_frame_equal(res.df, reference.df)


def test_game_rows_depend_on_index_not_position(reference):
    g = get_game("terminus")
    params = g.compile(g.resolve("heroic", SETTINGS))
    bot = g.bot("petitioner")
    bp = np.array(list(bot.params.values()))
    part = g.records_to_frame(g.play_batch(params, bot.id, bp, SEED, 250, 250))
    whole = game_rows(reference.df.iloc[250:].reset_index(drop=True))
    pd.testing.assert_frame_equal(part, whole)


def test_seed_changes_rows(reference):
    other = simlib.run("terminus", preset="heroic", settings=SETTINGS, bot="petitioner",
                       games=N, seed=SEED + 1, progress=False)
    assert not other.df.equals(reference.df)


def test_frame_columns(reference):
    df = reference.df
    for col in ("win", "outcome", "rounds", "battle_reached", "wave_reached", "leaks",
                "trampled", "kills", "boss_kills", "vp_winner", "shared_win",
                *(f"panic_b{b}" for b in range(1, 6)), *(f"leaks_b{b}" for b in range(1, 6)),
                *(f"trampled_b{b}" for b in range(1, 6)),
                *(f"{c}_{s}" for c in ("race", "class", "vp", "gp", "towers") for s in range(4))):
        assert col in df.columns, col
    assert set(df["outcome"].cat.categories) == {"victory", "retreat"}
    assert (df["win"] == (df["outcome"] == "victory")).all()
    assert (df["race_0"] == "treefolk").all() and (df["race_3"] == "none").all()
    assert (df["class_1"] == "spiritual").all()
    # panic after each Battle: -1 only for Battles never reached
    for b in range(1, 6):
        reached = df["battle_reached"] >= b
        assert (df.loc[reached, f"panic_b{b}"] >= 0).all()
        assert (df.loc[~reached, f"panic_b{b}"] == -1).all()
    # the VP winner has the most VP
    vp = df[["vp_0", "vp_1", "vp_2"]].to_numpy()
    assert (vp[np.arange(len(df)), df["vp_winner"].to_numpy()] == vp.max(1)).all()


def test_dask_local_cluster_gives_the_same_rows(reference):
    distributed = pytest.importorskip("dask.distributed")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None)
    client = distributed.Client(cluster, set_as_default=False)
    try:
        res = simlib.run("terminus", preset="heroic", settings=SETTINGS, bot="petitioner",
                         games=N, seed=SEED, backend="dask", scheduler=client, chunk_size=111,
                         progress=False)
        pd.testing.assert_frame_equal(res.df, reference.df)
    finally:
        client.close()
        cluster.close()
