"""Runs bounded by disk, not memory: keep_df=False, lazy loading, column and game windows."""

from __future__ import annotations

import pandas as pd
import pytest
from toygame import register_toy

import simlib
from simlib import cli
from simlib.core import runner
from simlib.core.results import Results
from simlib.errors import SimlibInputError, SimlibRunError

register_toy()

N = 2_000
SEED = 11


@pytest.fixture(scope="module")
def whole():
    return simlib.run("toy", games=N, seed=SEED, progress=False)


def test_keep_df_false_holds_no_rows_and_gives_the_same_summary(tmp_path, whole):
    out = tmp_path / "run"
    res = simlib.run("toy", games=N, seed=SEED, chunk_size=300, out=out, keep_df=False,
                     progress=False)
    assert not res.in_memory and len(res) == N
    # the summary is added up chunk by chunk, never from the whole frame
    pd.testing.assert_frame_equal(res.summary(), whole.summary(), check_exact=False, rtol=1e-12)
    assert not res.in_memory
    for by in ("outcome", "rounds", ["outcome", "rounds"]):
        pd.testing.assert_frame_equal(res.summary(by=by), whole.summary(by=by),
                                      check_exact=False, rtol=1e-12)
    assert not res.in_memory
    # df is read on first use, and is the same rows
    pd.testing.assert_frame_equal(res.df, whole.df)
    assert res.in_memory


def test_keep_df_false_keeps_no_frame_while_running(tmp_path, monkeypatch):
    # the chunks list of the run stays empty: frames are written, not held
    held = []
    real_concat = runner.concat_frames

    def spy(frames, outcomes):
        held.append(len(frames))
        return real_concat(frames, outcomes)

    monkeypatch.setattr(runner, "concat_frames", spy)
    simlib.run("toy", games=N, seed=SEED, chunk_size=300, out=tmp_path / "r", keep_df=False,
               progress=False)
    assert held == []  # nothing was concatenated: no frame was ever built for the run


def test_keep_df_input_errors(tmp_path):
    with pytest.raises(SimlibInputError, match="keep_df=False: needs out=DIR"):
        simlib.run("toy", games=10, keep_df=False)
    with pytest.raises(SimlibInputError, match="keep_df: expected True or False"):
        simlib.run("toy", games=10, keep_df="no", out=tmp_path / "x")
    with pytest.raises(SimlibInputError, match="not with precision"):
        simlib.run("toy", games=10, keep_df=False, out=tmp_path / "y", precision=0.05)


def test_load_columns_and_game_windows(tmp_path, whole):
    out = tmp_path / "run"
    simlib.run("toy", games=N, seed=SEED, chunk_size=300, out=out, progress=False)
    part = Results.load(out, columns=["win"])
    assert list(part.df.columns) == ["game_index", "win"]
    pd.testing.assert_frame_equal(part.df, whole.df[["game_index", "win"]])
    window = Results.load(out, games=(250, 950))
    pd.testing.assert_frame_equal(
        window.df, whole.df.iloc[250:950].reset_index(drop=True)
    )
    assert window.meta["complete"] is True and window.meta["games_window"] == [250, 950]
    first = Results.load(out, games=100, columns=["outcome"])
    pd.testing.assert_frame_equal(first.df, whole.df[["game_index", "outcome"]].iloc[:100])
    lazy = Results.load(out, lazy=True)
    assert not lazy.in_memory and len(lazy) == N
    pd.testing.assert_frame_equal(lazy.summary(), whole.summary(), check_exact=False, rtol=1e-12)


def test_load_window_opens_only_the_chunks_it_needs(tmp_path, monkeypatch):
    out = tmp_path / "run"
    simlib.run("toy", games=N, seed=SEED, chunk_size=300, out=out, progress=False)
    opened = []
    real = pd.read_parquet

    def spy(path, *args, **kwargs):
        opened.append(str(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(pd, "read_parquet", spy)
    Results.load(out, games=(310, 590))
    assert len(opened) == 1 and "000000000300" in opened[0]


@pytest.mark.parametrize("bad", [-1, (5, 5), (3, 1), "10", (1, 2, 3), True, 1.5])
def test_load_games_window_errors(tmp_path, bad):
    out = tmp_path / "run"
    simlib.run("toy", games=20, seed=SEED, out=out, progress=False)
    with pytest.raises(SimlibInputError, match="games: .* is not allowed"):
        Results.load(out, games=bad)


def test_load_column_errors(tmp_path, whole):
    saved = whole.save(tmp_path / "saved")
    with pytest.raises(SimlibInputError, match="columns: no column 'nope'"):
        Results.load(saved, columns=["nope"])
    with pytest.raises(SimlibInputError, match="columns: expected a list"):
        Results.load(saved, columns=[1])
    with pytest.raises(SimlibInputError, match="lazy: only a run folder"):
        Results.load(saved, lazy=True)


def test_load_column_errors_in_a_run_folder(tmp_path):
    # an unknown column is the user's mistake, not a damaged chunk: one line, nothing moved
    out = tmp_path / "run"
    simlib.run("toy", games=20, seed=SEED, out=out, progress=False)
    with pytest.raises(SimlibInputError, match="columns: no column 'nope' in run .*allowed: "
                       "game_index, win, .*preset, bot"):
        Results.load(out, columns=["nope"])
    assert not (out / "damaged").exists()
    assert list(Results.load(out, columns=["bot"]).df.columns) == ["game_index", "bot"]


def test_every_single_run_has_its_preset_and_bot(tmp_path, whole):
    # in memory, lazy and loaded: the same two categorical columns, so grouping by them
    # works on one run as on many
    out = tmp_path / "run"
    simlib.run("toy", preset="hard", bot="bold", games=600, seed=SEED, chunk_size=200, out=out,
               progress=False)
    for res in (Results.load(out), Results.load(out, lazy=True)):
        by_bot = res.summary(by="bot")
        assert list(by_bot["bot"]) == ["bold"] and int(by_bot["n"].iloc[0]) == 600
        assert list(res.summary(by=["preset", "bot"])["preset"]) == ["hard"]
        assert list(res.df["preset"].cat.categories) == ["hard"]
        assert (res.df["bot"] == "bold").all()
    assert {"preset", "bot"} <= set(whole.df.columns)
    assert list(Results.load(out, columns=["win"]).df.columns) == ["game_index", "win"]


def test_a_run_whose_rows_cannot_fit_in_memory_stops_after_one_chunk(tmp_path, monkeypatch):
    monkeypatch.setattr(runner, "_available_memory", lambda: 50_000)  # bytes
    out = tmp_path / "big"
    with pytest.raises(SimlibRunError, match=r"games: 20,000 games need about .* GiB of memory"
                                             r".*keep_df=False.*kept in"):
        simlib.run("toy", games=20_000, seed=SEED, chunk_size=500, out=out, progress=False)
    assert len(list((out / "chunks").iterdir())) == 1
    # the same run bounded by disk goes through, resuming from the chunk kept
    res = simlib.run("toy", games=20_000, seed=SEED, chunk_size=500, out=out, keep_df=False,
                     progress=False)
    assert len(res) == 20_000


def test_a_run_whose_chunks_cannot_fit_on_disk_stops_before_filling_it(tmp_path, monkeypatch):
    import shutil
    from collections import namedtuple

    usage = namedtuple("usage", "total used free")
    monkeypatch.setattr(shutil, "disk_usage", lambda path: usage(10**6, 10**6 - 2_000, 2_000))
    with pytest.raises(SimlibRunError, match=r"the 19,500 games still to play need about"):
        simlib.run("toy", games=20_000, seed=SEED, chunk_size=500, out=tmp_path / "d",
                   keep_df=False, progress=False)


def test_cli_run_with_out_keeps_only_the_summary(tmp_path, capsys, monkeypatch):
    seen = {}
    real = runner.execute_plan

    def spy(plan, **options):
        res = real(plan, **options)
        seen["in_memory"] = res.in_memory
        return res

    monkeypatch.setattr(runner, "execute_plan", spy)
    code = cli.main(["run", "toy", "--games", "500", "--out", str(tmp_path / "c"),
                     "--no-progress"])
    assert code == 0 and seen["in_memory"] is False
    assert "500 games" in capsys.readouterr().out
