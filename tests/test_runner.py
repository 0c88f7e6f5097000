"""Runner: determinism across chunking/threads/backends, checkpoints, sweeps, comparisons."""

from __future__ import annotations

import contextlib
import json
import signal
import time
from pathlib import Path

import numba
import numpy as np
import pandas as pd
import pytest
from toygame import GAME, OUTCOMES, register_toy

import simlib
from simlib import cli
from simlib.core import cluster as cluster_mod
from simlib.core import runner
from simlib.core.results import Results
from simlib.errors import SimlibInputError, SimlibRunError

register_toy()

N = 2000
SEED = 11


@pytest.fixture(scope="module")
def reference() -> Results:
    return simlib.run("toy", games=N, seed=SEED, progress=False)


def snapshot(folder: Path) -> dict:
    """Bytes and mtimes of every file under ``folder`` (to prove nothing was touched)."""
    out = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            out[str(path)] = (path.read_bytes(), path.stat().st_mtime_ns)
        else:
            out[str(path)] = ("dir", path.stat().st_mtime_ns)
    return out


class CountingPlayBatch:
    """Wraps ``GAME.play_batch``; counts calls and games; may raise on call number ``fail``."""

    def __init__(self, fail: int | None = None, exc: type[BaseException] = KeyboardInterrupt):
        self.calls = 0
        self.games = 0
        self.fail = fail
        self.exc = exc
        self.inner = type(GAME).play_batch

    def __call__(self, compiled, bot_id, bot_params, seed, start, count, threads=1):
        self.calls += 1
        if self.fail is not None and self.calls == self.fail:
            raise self.exc()
        self.games += count
        return self.inner(GAME, compiled, bot_id, bot_params, seed, start, count, threads)


@pytest.fixture
def counting(monkeypatch):
    def install(fail=None):
        counter = CountingPlayBatch(fail)
        monkeypatch.setattr(GAME, "play_batch", counter)
        return counter

    return install


# --- determinism ----------------------------------------------------------------------------
def test_reference_frame_shape(reference):
    df = reference.df
    # the game's columns, then the run's preset and bot (from its configuration)
    assert list(df.columns) == [
        "game_index", "win", "outcome", "rounds", "rounds_won", "preset", "bot"
    ]
    assert list(df["preset"].cat.categories) == ["normal"] and (df["bot"] == "steady").all()
    np.testing.assert_array_equal(df["game_index"].to_numpy(), np.arange(N))
    assert list(df["outcome"].cat.categories) == list(OUTCOMES)
    assert df["rounds"].dtype == np.int16 and df["win"].dtype == bool
    assert (df["win"] == (df["outcome"] == "win")).all()
    assert 0.2 < df["win"].mean() < 0.6
    m = reference.meta
    assert m["game"] == "toy" and m["seed"] == SEED and m["games"] == N and m["complete"]
    assert m["settings"] == {"p": 0.5, "max_rounds": 10}
    assert m["bot"] == "steady" and m["bot_params"] == {"risk": 0.0}
    assert m["preset"] == "normal" and m["engine_version"] == "1"
    assert "toy" in repr(reference) and "2,000" in repr(reference)


@pytest.mark.parametrize("chunk_size", [1, 7, 1000, None])
def test_same_seed_same_rows_whatever_the_chunking(reference, chunk_size):
    games = 300 if chunk_size == 1 else N
    res = simlib.run("toy", games=games, seed=SEED, chunk_size=chunk_size, progress=False)
    pd.testing.assert_frame_equal(res.df, reference.df.iloc[:games])


def test_frame_equality_check_can_fail(reference):
    other = simlib.run("toy", games=N, seed=SEED + 1, progress=False)
    assert not other.df["win"].equals(reference.df["win"])
    with pytest.raises(AssertionError):
        pd.testing.assert_frame_equal(other.df, reference.df)


@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="needs 2 numba threads")
def test_thread_count_does_not_change_rows(reference):
    before = numba.get_num_threads()
    one = simlib.run("toy", games=N, seed=SEED, threads=1, progress=False)
    assert numba.get_num_threads() == before
    two = simlib.run("toy", games=N, seed=SEED, threads=2, chunk_size=333, progress=False)
    pd.testing.assert_frame_equal(one.df, reference.df)
    pd.testing.assert_frame_equal(two.df, reference.df)


def test_presets_bots_and_params_change_outcomes(reference):
    easy = simlib.run("toy", preset="easy", games=N, seed=SEED, progress=False)
    bold = simlib.run(
        "toy", bot="bold", bot_params={"risk": 1.0}, games=N, seed=SEED, progress=False
    )
    assert easy.meta["settings"]["p"] == 0.6
    assert easy.df["win"].sum() > reference.df["win"].sum()
    assert bold.meta["bot_params"] == {"risk": 1.0}
    assert not bold.df["rounds"].equals(reference.df["rounds"])


# --- checkpoints and resume -----------------------------------------------------------------
def test_checkpoint_folder_layout_and_load(tmp_path, reference):
    out = tmp_path / "run"
    res = simlib.run("toy", games=N, seed=SEED, chunk_size=500, out=out, progress=False)
    pd.testing.assert_frame_equal(res.df, reference.df)
    names = sorted(p.name for p in (out / "chunks").iterdir())
    assert names == [f"games-{a:012d}-{a + 500:012d}.parquet" for a in range(0, N, 500)]
    cfg = json.loads((out / "run.json").read_text())
    assert cfg["complete"] is True and cfg["games"] == N and cfg["seed"] == SEED
    assert cfg["settings"] == {"p": 0.5, "max_rounds": 10} and cfg["game"] == "toy"
    loaded = Results.load(out)
    pd.testing.assert_frame_equal(loaded.df, reference.df)
    assert loaded.meta["complete"] and loaded.meta["games_present"] == N


def test_resume_after_deleted_chunks_with_other_chunk_size(tmp_path, reference, counting):
    out = tmp_path / "run"
    simlib.run("toy", games=N, seed=SEED, chunk_size=300, out=out, progress=False)
    for name in (
        "games-000000000300-000000000600.parquet",
        "games-000000001800-000000002000.parquet",
    ):
        (out / "chunks" / name).unlink()
    counter = counting()
    res = simlib.run("toy", games=N, seed=SEED, chunk_size=170, out=out, progress=False)
    assert counter.games == 500
    pd.testing.assert_frame_equal(res.df, reference.df)
    pd.testing.assert_frame_equal(Results.load(out).df, reference.df)


def test_interrupted_run_keeps_finished_chunks_and_resumes(tmp_path, reference, counting):
    out = tmp_path / "run"
    counting(fail=3)
    with pytest.raises(KeyboardInterrupt):
        simlib.run("toy", games=N, seed=SEED, chunk_size=250, out=out, progress=False)
    files = sorted(p.name for p in (out / "chunks").iterdir())
    assert files == [
        "games-000000000000-000000000250.parquet",
        "games-000000000250-000000000500.parquet",
    ]
    assert json.loads((out / "run.json").read_text())["complete"] is False

    partial = Results.load(out)
    assert partial.meta["complete"] is False
    assert partial.meta["games_present"] == 500 and partial.meta["games"] == N
    pd.testing.assert_frame_equal(partial.df, reference.df.iloc[:500])
    assert "partial" in repr(partial)

    counter = counting()
    res = simlib.run("toy", games=N, seed=SEED, chunk_size=333, out=out, progress=False)
    assert counter.games == N - 500
    pd.testing.assert_frame_equal(res.df, reference.df)
    assert json.loads((out / "run.json").read_text())["complete"] is True


def test_interrupt_while_writing_leaves_no_partial_chunk(tmp_path, monkeypatch):
    out = tmp_path / "run"
    real = pd.DataFrame.to_parquet
    calls = {"n": 0}

    def flaky(self, *args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 2:
            real(self, *args, **kwargs)
            raise KeyboardInterrupt
        return real(self, *args, **kwargs)

    monkeypatch.setattr(pd.DataFrame, "to_parquet", flaky)
    with pytest.raises(KeyboardInterrupt):
        simlib.run("toy", games=1000, seed=SEED, chunk_size=400, out=out, progress=False)
    assert [p.name for p in (out / "chunks").iterdir()] == [
        "games-000000000000-000000000400.parquet"
    ]


def test_more_games_extend_fewer_games_truncate(tmp_path, reference, counting):
    out = tmp_path / "run"
    simlib.run("toy", games=1000, seed=SEED, out=out, progress=False)
    counter = counting()
    res = simlib.run("toy", games=N, seed=SEED, out=out, progress=False)
    assert counter.games == N - 1000
    pd.testing.assert_frame_equal(res.df, reference.df)
    counter = counting()
    small = simlib.run("toy", games=700, seed=SEED, out=out, progress=False)
    assert counter.calls == 0
    pd.testing.assert_frame_equal(small.df, reference.df.iloc[:700])
    assert small.meta["games"] == 700
    assert json.loads((out / "run.json").read_text())["games"] == N


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        ({"seed": SEED + 1}, f"seed={SEED}; this call has seed={SEED + 1}"),
        ({"settings": {"p": 0.7}}, "p=0.5; this call has p=0.7"),
        ({"preset": "easy"}, "preset=normal; this call has preset=easy"),
        ({"bot": "bold"}, "bot=steady; this call has bot=bold"),
        ({"bot_params": {"risk": 0.5}}, "bot.risk=0.0; this call has bot.risk=0.5"),
    ],
)
def test_other_configuration_refused_untouched(tmp_path, change, fragment):
    out = tmp_path / "run"
    simlib.run("toy", games=500, seed=SEED, out=out, progress=False)
    before = snapshot(out)
    kwargs = {"games": 500, "seed": SEED, **change}
    with pytest.raises(SimlibInputError) as info:
        simlib.run("toy", out=out, progress=False, **kwargs)
    message = str(info.value)
    assert fragment in message and str(out) in message
    assert "Use another folder" in message and "\n" not in message
    assert snapshot(out) == before


def test_foreign_folder_refused_untouched(tmp_path):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("my notes")
    before = snapshot(out)
    with pytest.raises(SimlibInputError, match="no simlib run"):
        simlib.run("toy", games=100, out=out, progress=False)
    assert snapshot(out) == before
    a_file = tmp_path / "file"
    a_file.write_text("x")
    with pytest.raises(SimlibInputError, match="is a file"):
        simlib.run("toy", games=100, out=a_file, progress=False)


def test_engine_version_change_refused(tmp_path, monkeypatch):
    out = tmp_path / "run"
    simlib.run("toy", games=100, out=out, progress=False)
    monkeypatch.setattr(GAME, "engine_version", "2")
    with pytest.raises(SimlibInputError, match="engine_version"):
        simlib.run("toy", games=100, out=out, progress=False)


def test_empty_existing_folder_is_used(tmp_path, reference):
    out = tmp_path / "empty"
    out.mkdir()
    res = simlib.run("toy", games=N, seed=SEED, out=out, progress=False)
    pd.testing.assert_frame_equal(res.df, reference.df)


def test_bad_input_creates_no_folder(tmp_path):
    out = tmp_path / "never"
    with pytest.raises(SimlibInputError):
        simlib.run("toy", settings={"p": 3}, games=10, out=out)
    assert not out.exists()


# --- Results --------------------------------------------------------------------------------
def test_results_load_rejects_foreign_and_missing(tmp_path):
    with pytest.raises(SimlibInputError, match="does not exist"):
        Results.load(tmp_path / "nope")
    (tmp_path / "x.txt").write_text("hello")
    with pytest.raises(SimlibInputError, match="not a simlib results folder"):
        Results.load(tmp_path)
    with pytest.raises(SimlibInputError, match="not a folder"):
        Results.load(tmp_path / "x.txt")
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "run.json").write_text("{not json")
    with pytest.raises(SimlibInputError, match="unreadable"):
        Results.load(bad)


def test_results_save_and_load_roundtrip(tmp_path, reference):
    sw = simlib.sweep("toy", "p", [0.4, 0.6], games=300, seed=3, progress=False)
    for res in (reference, sw):
        folder = res.save(tmp_path / f"saved{len(res.df)}")
        back = Results.load(folder)
        pd.testing.assert_frame_equal(back.df, res.df)
        assert back.meta == json.loads(json.dumps(res.meta))


def test_results_save_does_not_overwrite_unless_asked(tmp_path, reference):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "results.parquet").write_bytes(b"someone else's table")
    with pytest.raises(SimlibInputError, match="already holds results.parquet; pass overwrite"):
        reference.save(folder)
    assert (folder / "results.parquet").read_bytes() == b"someone else's table"
    reference.save(folder, overwrite=True)
    pd.testing.assert_frame_equal(Results.load(folder).df, reference.df)
    with pytest.raises(SimlibInputError, match="path: expected a folder path"):
        reference.save(123)


def test_concat_adds_varying_columns_after_game_columns():
    a = simlib.run("toy", games=100, seed=1, progress=False)
    b = simlib.run("toy", preset="easy", bot="bold", games=50, seed=1, progress=False)
    both = Results.concat([a, b])
    assert list(both.df.columns) == [
        "game_index",
        "win",
        "outcome",
        "rounds",
        "rounds_won",
        "preset",
        "bot",
        "p",
        "bot.risk",
    ]
    assert both.meta["varying"] == ["preset", "bot", "p", "bot.risk"]
    assert len(both.meta["cells"]) == 2 and len(both.df) == 150
    assert list(both.df["preset"].cat.categories) == ["normal", "easy"]
    np.testing.assert_array_equal(both.df["p"].to_numpy(), [0.5] * 100 + [0.6] * 50)
    assert both.df["outcome"].dtype == a.df["outcome"].dtype
    assert both.meta["settings"] == {"max_rounds": 10}
    with pytest.raises(SimlibInputError):
        Results.concat([])


def test_concat_keeps_a_column_the_game_records_itself():
    a = simlib.run("toy", games=20, seed=1, progress=False)
    b = simlib.run("toy", settings={"p": 0.6}, games=20, seed=1, progress=False)
    a.df["p"] = 0.5  # as if the game recorded the setting in its own column
    b.df["p"] = 0.6
    both = Results.concat([a, b])
    assert both.meta["varying"] == ["p"]
    assert list(both.df.columns).count("p") == 1
    assert list(both.df.columns)[-3:] == ["preset", "bot", "p"]  # p was added after them
    np.testing.assert_array_equal(both.df["p"].to_numpy(), [0.5] * 20 + [0.6] * 20)


def test_summary_delegates_to_report_tables(reference):
    summ = reference.summary()
    assert int(summ["n"].iloc[0]) == N
    assert int(summ["wins"].iloc[0]) == int(reference.df["win"].sum())
    assert "share_win" in summ.columns and "share_loss" in summ.columns


# --- sweeps and comparisons -----------------------------------------------------------------
def test_sweep_uses_common_random_numbers():
    sw = simlib.sweep("toy", "p", [0.5, 0.6], games=N, seed=SEED, progress=False)
    df = sw.df
    assert sw.meta["varying"] == ["p"] and sw.meta["sweep"] == "p"
    low = df[df["p"] == 0.5].set_index("game_index")
    high = df[df["p"] == 0.6].set_index("game_index")
    assert len(low) == len(high) == N
    # Each round draws one uniform, won when u < p: a higher p wins a superset of rounds.
    assert (high["win"].astype(int) >= low["win"].astype(int)).all()
    assert (high["win"] != low["win"]).any()
    single = simlib.run("toy", settings={"p": 0.6}, games=N, seed=SEED, progress=False)
    pd.testing.assert_frame_equal(high.reset_index()[single.df.columns.tolist()], single.df)


def test_sweep_bot_param_and_resume(tmp_path, counting):
    out = tmp_path / "sweep"
    sw = simlib.sweep(
        "toy", "bot.risk", [0.0, 1.0], bot="bold", games=400, seed=2, out=out, progress=False
    )
    assert "bot.risk" in sw.df.columns
    assert sorted(p.name for p in out.iterdir()) == ["bot.risk=0.0", "bot.risk=1.0", "sweep.json"]
    loaded = Results.load(out)
    pd.testing.assert_frame_equal(loaded.df, sw.df)
    assert loaded.meta["sweep"] == "bot.risk" and loaded.meta["varying"] == ["bot.risk"]
    counter = counting()
    again = simlib.sweep(
        "toy", "bot.risk", [0.0, 1.0], bot="bold", games=400, seed=2, out=out, progress=False
    )
    assert counter.calls == 0
    pd.testing.assert_frame_equal(again.df, sw.df)


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({"param": "nope", "values": [1]}, "'nope'"),
        ({"param": "bot.nope", "values": [1]}, "bot.nope"),
        ({"param": "p", "values": []}, "values"),
        ({"param": "p", "values": [0.5, 2.0]}, "setting 'p'"),
        ({"param": "p", "values": [0.5, 0.5]}, "twice"),
        ({"param": "p", "values": [0.5], "settings": {"p": 0.4}}, "swept"),
    ],
)
def test_sweep_bad_input(kwargs, fragment, tmp_path):
    with pytest.raises(SimlibInputError) as info:
        simlib.sweep("toy", games=10, out=tmp_path / "s", **kwargs)
    assert fragment in str(info.value)
    assert not (tmp_path / "s").exists()


def test_sweep_refuses_foreign_folder(tmp_path):
    out = tmp_path / "sweep"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    with pytest.raises(SimlibInputError, match="holds no simlib sweep .* e.g. .notes.txt"):
        simlib.sweep("toy", "p", [0.4], games=10, out=out, progress=False)
    assert [p.name for p in out.iterdir()] == ["notes.txt"]
    run_dir = tmp_path / "run"
    simlib.run("toy", games=10, out=run_dir, progress=False)
    with pytest.raises(SimlibInputError, match="single run"):
        simlib.sweep("toy", "p", [0.4], games=10, out=run_dir, progress=False)


def test_compare_paired_when_seeds_match(tmp_path):
    a = simlib.run("toy", games=N, seed=5, out=tmp_path / "a", progress=False)
    b = simlib.run("toy", preset="easy", games=N, seed=5, out=tmp_path / "b", progress=False)
    c = simlib.run("toy", preset="easy", games=N, seed=6, progress=False)
    paired = simlib.compare(a, b)
    assert paired.paired
    assert paired.diff == pytest.approx(a.df["win"].mean() - b.df["win"].mean())
    assert not simlib.compare(a, c).paired
    from_folders = simlib.compare(tmp_path / "a", tmp_path / "b")
    assert from_folders.to_dict() == paired.to_dict()
    assert "paired" in str(paired)


def test_compare_pairs_the_common_prefix_of_two_lengths_on_one_seed():
    long = simlib.run("toy", games=N, seed=5, progress=False)
    short = simlib.run("toy", preset="easy", games=N // 4, seed=5, progress=False)
    got = simlib.compare(long, short)
    assert got.paired and got.n_a == got.n_b == N // 4
    head = long.df["win"].iloc[: N // 4].to_numpy()
    want = simlib.core.stats.compare_paired(head, short.df["win"].to_numpy())
    assert got.to_dict() == want.to_dict()
    other_seed = simlib.run("toy", preset="easy", games=N // 4, seed=6, progress=False)
    assert not simlib.compare(long, other_seed).paired


# --- bad input ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({"games": 0}, "games"),
        ({"games": 1.5}, "games"),
        ({"games": True}, "games"),
        ({"seed": -1}, "seed"),
        ({"seed": 2**63}, "seed"),
        ({"backend": "gpu"}, "backend"),
        ({"bot_params": {"nope": 1}}, "'nope'"),
        ({"bot_params": {"risk": 2}}, "risk"),
        ({"chunk_size": 0}, "chunk_size"),
        ({"threads": 0}, "threads"),
        ({"threads": 10_000}, "threads"),
        ({"preset": "insane"}, "preset 'insane'"),
        ({"bot": "nobody"}, "bot 'nobody'"),
        ({"settings": {"colour": 1}}, "setting 'colour'"),
        ({"settings": {"max_rounds": 99}}, "max_rounds"),
        ({"scheduler": "tcp://x:1"}, "scheduler"),
        ({"progress": "yes"}, "progress"),
    ],
)
def test_run_bad_input(kwargs, fragment):
    kwargs = {"games": 10, **kwargs}
    with pytest.raises(SimlibInputError) as info:
        simlib.run("toy", **kwargs)
    assert fragment in str(info.value)
    assert "\n" not in str(info.value)


def test_unknown_game():
    with pytest.raises(SimlibInputError, match="game 'chess' is not known"):
        simlib.run("chess", games=10)


def test_progress_bar_on_stderr(capsys):
    simlib.run("toy", games=500, chunk_size=100, progress=True)
    err = capsys.readouterr().err
    assert "games" in err and "500" in err
    simlib.run("toy", games=500, progress=False)
    assert capsys.readouterr().err == ""


# --- dask -----------------------------------------------------------------------------------
@contextlib.contextmanager
def time_limit(seconds: int):
    """Fail (instead of hanging) if the block takes longer than ``seconds`` (Unix only)."""
    if not hasattr(signal, "SIGALRM"):
        yield
        return

    def on_alarm(signum, frame):
        raise TimeoutError(f"dask test exceeded {seconds} s")

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def test_dask_backend_equals_local(reference, tmp_path, monkeypatch):
    distributed = pytest.importorskip("dask.distributed")
    with time_limit(120):
        cluster = distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        )
        client = distributed.Client(cluster, set_as_default=False)
        try:
            auto = simlib.run(
                "toy", games=N, seed=SEED, backend="dask", scheduler=client, progress=False
            )
            pd.testing.assert_frame_equal(auto.df, reference.df)
            out = tmp_path / "dask_run"
            small = simlib.run(
                "toy",
                games=N,
                seed=SEED,
                backend="dask",
                scheduler=client,
                chunk_size=137,
                out=out,
                progress=False,
            )
            pd.testing.assert_frame_equal(small.df, reference.df)
            pd.testing.assert_frame_equal(Results.load(out).df, reference.df)
            assert len(list((out / "chunks").iterdir())) == -(-N // 137)
        finally:
            client.close()
            cluster.close()
        monkeypatch.setattr(cluster_mod, "DASK_CONNECT_TIMEOUT", 1)
        with pytest.raises(SimlibInputError, match="scheduler: cannot connect"):
            simlib.run("toy", games=10, backend="dask", scheduler="tcp://127.0.0.1:9")


def test_dask_run_with_no_worker_left_stops_with_one_line_and_keeps_chunks(tmp_path, monkeypatch):
    # the cluster loses its only worker after the first chunk: the run must not wait forever
    distributed = pytest.importorskip("dask.distributed")
    monkeypatch.setattr(cluster_mod, "DASK_NO_WORKERS_TIMEOUT", 1)
    out = tmp_path / "lost"
    with time_limit(90):
        cluster = distributed.LocalCluster(
            n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None
        )
        client = distributed.Client(cluster, set_as_default=False)
        real_write = runner.atomic_write_parquet
        written = []

        def write_then_lose_the_worker(frame, path):
            real_write(frame, path)
            written.append(path)
            if len(written) == 1:
                for worker in list(cluster.workers.values()):
                    client.sync(worker.close)

        monkeypatch.setattr(runner, "atomic_write_parquet", write_then_lose_the_worker)
        game_class = type(GAME)
        real_play = game_class.play_batch

        def slow_play(self, *args):  # toy chunks are microseconds: give the loss a moment
            time.sleep(0.3)
            return real_play(self, *args)

        monkeypatch.setattr(game_class, "play_batch", slow_play)
        try:
            with pytest.raises(SimlibRunError, match=r"no worker connected .* for 1 s; "
                                                     r"\d+ of 8 chunks are finished and saved"):
                simlib.run("toy", games=80, chunk_size=10, seed=SEED, backend="dask",
                           scheduler=client, out=out, progress=False)
        finally:
            client.close()
            cluster.close()
    kept = Results.load(out)
    assert 10 <= len(kept.df) < 80
    monkeypatch.setattr(runner, "atomic_write_parquet", real_write)
    resumed = simlib.run("toy", games=80, chunk_size=10, seed=SEED, out=out, progress=False)
    assert len(resumed.df) == 80


def test_cli_says_a_lost_cluster_in_one_line_with_status_1(tmp_path, monkeypatch, capsys):
    distributed = pytest.importorskip("dask.distributed")
    monkeypatch.setattr(cluster_mod, "DASK_NO_WORKERS_TIMEOUT", 0.5)
    with time_limit(60):
        cluster = distributed.LocalCluster(n_workers=0, processes=False, dashboard_address=None)
        try:
            code = cli.main(["run", "toy", "--games", "20", "--backend", "dask",
                             "--scheduler", cluster.scheduler_address, "--no-progress"])
        finally:
            cluster.close()
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 1
    assert len(err) == 1 and err[0].startswith("simlib: error: dask: no worker connected")
    assert "nothing was saved" in err[0]


def test_local_cluster_that_cannot_start_names_the_main_guard(monkeypatch):
    distributed = pytest.importorskip("dask.distributed")

    def failing_cluster(*args, **kwargs):
        raise RuntimeError("Nanny failed to start.")

    monkeypatch.setattr(distributed, "LocalCluster", failing_cluster)
    with pytest.raises(SimlibInputError, match=r'if __name__ == "__main__":'):
        simlib.run("toy", games=10, backend="dask", progress=False)


@pytest.mark.parametrize("address", ["nonsense", "tcp://host", "tcp://host:0", "tcp://host:x1",
                                     "http://host:8786", "tcp://host:８７８６"])
def test_scheduler_address_that_cannot_be_one_is_refused_before_connecting(address):
    pytest.importorskip("dask.distributed")
    with time_limit(5):
        with pytest.raises(SimlibInputError, match="is not a Dask scheduler address"):
            simlib.run("toy", games=10, backend="dask", scheduler=address, progress=False)


def test_failed_connection_leaves_nothing_behind():
    # a server that answers with junk (as a proxy does): the half-made Client used to stall
    # 10 s when collected and print "Exception ignored in Client.__del__" after our line
    pytest.importorskip("dask.distributed")
    import socket
    import subprocess
    import sys
    import threading

    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]

    def answer_with_junk():
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            conn.sendall(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n")

    threading.Thread(target=answer_with_junk, daemon=True).start()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "simlib", "run", "terralore", "--games", "10",
             "--backend", "dask", "--scheduler", f"tcp://127.0.0.1:{port}"],
            capture_output=True, text=True, timeout=60, cwd=Path(__file__).parents[1],
        )
    finally:
        server.close()
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"simlib: error: scheduler: cannot connect to 'tcp://127.0.0.1:{port}' (the reply was "
        "not a Dask scheduler's); expected the address of a running Dask scheduler, e.g. "
        "tcp://host:8786"
    ]


def test_cold_cache_detection_and_the_compiling_line(tmp_path, monkeypatch, capsys):
    from simlib.core import jit

    monkeypatch.setattr(jit, "cache_dir", lambda: str(tmp_path))
    monkeypatch.setattr(numba.config, "DISABLE_JIT", False)
    monkeypatch.delenv("SIMLIB_PROGRESS", raising=False)  # CI sets it to 0 (quiet)
    assert jit.cache_is_cold("simlib.games.subterra")
    (tmp_path / "terraria_1f2e").mkdir()
    (tmp_path / "terraria_1f2e" / "engine.play-10.py311.nbi").write_bytes(b"")
    assert jit.cache_is_cold("simlib.games.subterra")
    assert not jit.cache_is_cold("simlib.games.terraria")

    class Packaged(type(GAME)):
        compile_seconds = 42

    Packaged.__module__ = "simlib.games.subterra"
    game = Packaged()
    runner._say_compiling(game, None)
    assert capsys.readouterr().err == (
        f"simlib: compiling the kernels of {game.title or game.name} (first run only, about "
        "42 s)...\n"
    )
    runner._say_compiling(game, False)
    monkeypatch.setenv("SIMLIB_PROGRESS", "0")
    runner._say_compiling(game, None)
    (tmp_path / "subterra_9a9a").mkdir()
    (tmp_path / "subterra_9a9a" / "engine.play-10.py311.nbi").write_bytes(b"")
    monkeypatch.delenv("SIMLIB_PROGRESS")
    runner._say_compiling(game, None)  # warm now
    assert capsys.readouterr().err == ""


def test_a_run_and_a_sweep_report_the_command_that_plays_them_again(tmp_path, capsys):
    # the report's command, run as it is printed, plays exactly the same games
    import shlex

    first = tmp_path / "a"
    assert cli.main(["run", "toy", "--preset", "hard", "--bot", "bold", "--bot-param",
                     "risk=0.8", "--set", "max_rounds=7", "--games", "300", "--seed", "5",
                     "--out", str(first), "--no-progress"]) == 0
    want = runner.reproduce_command(Results.load(first).meta)
    assert want == (f"simlib run toy --preset hard --set max_rounds=7 --bot bold --bot-param "
                    f"risk=0.8 --games 300 --seed 5 --out {shlex.quote(str(first))}")
    assert cli.main(["report", str(first)]) == 0
    assert f"<pre>{want}</pre>" in (first / "report.html").read_text()
    again = tmp_path / "b"
    args = shlex.split(want)[1:]
    args[args.index("--out") + 1] = str(again)
    assert cli.main([*args, "--no-progress"]) == 0
    pd.testing.assert_frame_equal(Results.load(again).df, Results.load(first).df)

    sweep_dir = tmp_path / "sweep"
    assert cli.main(["sweep", "toy", "--param", "p", "--values", "0.3,0.6", "--games", "100",
                     "--seed", "2", "--out", str(sweep_dir), "--no-progress"]) == 0
    command = runner.reproduce_command(Results.load(sweep_dir).meta)
    assert command == "simlib sweep toy --param p --values 0.3,0.6 --preset normal --bot steady "\
        "--games 100 --seed 2"
    assert cli.main(["report", str(sweep_dir)]) == 0
    assert f"<pre>{command}</pre>" in (sweep_dir / "report.html").read_text()
    capsys.readouterr()


def test_every_shipped_game_says_how_long_its_first_compile_takes():
    # the first-run line names a duration for every game simlib ships (measured by
    # benchmarks/bench_compile.py; a game without one would print no figure)
    from simlib.games.registry import get_game

    for name in ("subterra", "terraria", "terminus", "terralore"):
        seconds = get_game(name).compile_seconds
        assert isinstance(seconds, int) and 10 <= seconds <= 600, (name, seconds)


def test_results_show_themselves_in_a_notebook(reference):
    shown = reference._repr_html_()
    assert shown.startswith("<div><p><code>Results(toy, ")
    assert "<table" in shown and "win rate" in shown and f"{len(reference.df):,}" in shown
    sw = simlib.sweep("toy", "p", [0.3, 0.6], games=200, seed=3, progress=False)
    many = sw._repr_html_()
    assert many.count("</tr>") == 3  # the header and one row per value


@pytest.mark.parametrize("games,workers", [(200_000, 2), (50_000, 2), (5_000, 2), (50_001, 3),
                                           (10**7, 2), (1, 4), (7, 1)])
def test_dask_chunks_give_every_worker_as_many_chunks(games, workers):
    size = runner.dask_chunk_size(games, workers)
    chunks = -(-games // size)
    assert 1 <= size <= runner.DEFAULT_CHUNK_SIZE
    if chunks <= 4 * workers:  # below the chunk-size cap every worker plays the same count
        assert chunks % workers == 0 or games < workers
    # 50,000 games on 2 workers: 4 chunks, not 5 (one worker waited for the fifth)
    if (games, workers) == (50_000, 2):
        assert chunks == 4
