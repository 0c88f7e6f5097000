"""Sub Terra: same seed, same rows, whatever the chunking, threads or backend."""

import numpy as np
import pandas as pd
import pytest
from frames import game_rows

import simlib
from simlib.core.results import Results

N = 600
SEED = 4242


@pytest.fixture(scope="module")
def reference():
    return simlib.run("subterra", preset="advanced", settings={"cavers": 5}, bot="cautious",
                      games=N, seed=SEED, progress=False)


@pytest.mark.parametrize("chunk_size", [1, 7, 256])
def test_chunking_does_not_change_rows(reference, chunk_size):
    small = 97 if chunk_size == 1 else N  # chunk_size 1 is slow only in Python overhead
    res = simlib.run("subterra", preset="advanced", settings={"cavers": 5}, bot="cautious",
                     games=small, seed=SEED, chunk_size=chunk_size, progress=False)
    pd.testing.assert_frame_equal(res.df, reference.df.iloc[:small])


def test_threads_do_not_change_rows(reference):
    for threads in (1, 2):
        res = simlib.run("subterra", preset="advanced", settings={"cavers": 5}, bot="cautious",
                         games=N, seed=SEED, threads=threads, progress=False)
        pd.testing.assert_frame_equal(res.df, reference.df)


def test_game_rows_depend_on_index_not_position(reference):
    # games 300..599 played alone equal the same rows of the full run
    from simlib.games.registry import get_game

    g = get_game("subterra")
    params = g.compile(g.resolve("advanced", {"cavers": 5}))
    bot = g.bot("cautious")
    bp = np.array(list(bot.params.values()))
    part = g.records_to_frame(g.play_batch(params, bot.id, bp, SEED, 300, 300))
    whole = game_rows(reference.df.iloc[300:].reset_index(drop=True))
    pd.testing.assert_frame_equal(part, whole)


def test_seed_changes_rows(reference):
    other = simlib.run("subterra", preset="advanced", settings={"cavers": 5}, bot="cautious",
                       games=N, seed=SEED + 1, progress=False)
    assert not other.df.equals(reference.df)


def test_interrupted_run_resumes_to_the_same_rows(reference, tmp_path, monkeypatch):
    from simlib.games.subterra import SubTerra

    calls = {"n": 0}
    real = SubTerra.play_batch

    def flaky(self, *args):
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt
        return real(self, *args)

    out = tmp_path / "run"
    monkeypatch.setattr(SubTerra, "play_batch", flaky)
    with pytest.raises(KeyboardInterrupt):
        simlib.run("subterra", preset="advanced", settings={"cavers": 5}, bot="cautious",
                   games=N, seed=SEED, chunk_size=100, out=out, progress=False)
    partial = Results.load(out)
    assert len(partial.df) == 200 and partial.meta["complete"] is False
    monkeypatch.setattr(SubTerra, "play_batch", real)
    done = simlib.run("subterra", preset="advanced", settings={"cavers": 5}, bot="cautious",
                      games=N, seed=SEED, chunk_size=64, out=out, progress=False)
    pd.testing.assert_frame_equal(done.df, reference.df)


def test_dask_local_cluster_gives_the_same_rows(reference):
    distributed = pytest.importorskip("dask.distributed")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None)
    client = distributed.Client(cluster, set_as_default=False)
    try:
        for chunk in (None, 111):
            res = simlib.run("subterra", preset="advanced", settings={"cavers": 5},
                             bot="cautious", games=N, seed=SEED, backend="dask",
                             scheduler=client, chunk_size=chunk, progress=False)
            pd.testing.assert_frame_equal(res.df, reference.df)
    finally:
        client.close()
        cluster.close()
