"""A damaged chunk file is found on read: readers skip it with a warning, a run replays it.

Three kinds of damage: a truncated file, an empty file, and a file holding another chunk's
rows. The reference is a clean run of the toy game on the same seed.
"""

from __future__ import annotations

import shutil

import pandas as pd
import pytest
from toygame import register_toy

import simlib
from simlib.cli import main
from simlib.core.results import CHUNK_DIR, DAMAGED_DIR, Results, list_chunks

register_toy()

SEED = 5
N = 1000
CHUNK = 250


def _run(out=None, games=N):
    return simlib.run("toy", games=games, seed=SEED, chunk_size=CHUNK, out=out, progress=False)


def _damage(folder, how):
    chunks = list_chunks(folder)
    start, stop, path = chunks[1]
    if how == "truncated":
        data = path.read_bytes()
        path.write_bytes(data[: len(data) // 2])
    elif how == "empty":
        path.write_bytes(b"")
    else:  # another chunk's rows under this chunk's name
        shutil.copyfile(chunks[2][2], path)
    return start, stop, path


@pytest.fixture(scope="module")
def clean():
    return _run().df


@pytest.mark.parametrize("how", ["truncated", "empty", "other_rows"])
def test_readers_skip_a_damaged_chunk_with_a_warning(tmp_path, capsys, clean, how):
    out = tmp_path / "run"
    _run(out)
    start, stop, path = _damage(out, how)
    res = Results.load(out)
    err = capsys.readouterr().err
    assert f"chunk '{path}' is damaged" in err and "skipped" in err
    assert res.meta["complete"] is False and res.meta["games_present"] == N - CHUNK
    expected = clean[(clean["game_index"] < start) | (clean["game_index"] >= stop)]
    pd.testing.assert_frame_equal(res.df, expected.reset_index(drop=True))
    assert path.exists()  # a reader never moves files

    assert main(["report", str(out), "--out", str(tmp_path / "r.html")]) == 0
    printed = capsys.readouterr()
    assert "is damaged" in printed.err and "partial run" in printed.out


@pytest.mark.parametrize("how", ["truncated", "empty", "other_rows"])
def test_a_run_sets_a_damaged_chunk_aside_and_replays_it(tmp_path, capsys, clean, how):
    out = tmp_path / "run"
    _run(out)
    _, _, path = _damage(out, how)
    capsys.readouterr()
    again = _run(out)
    err = capsys.readouterr().err
    assert "is damaged" in err and "played again" in err
    pd.testing.assert_frame_equal(again.df, clean)
    moved = list((out / DAMAGED_DIR).iterdir())
    assert [p.name for p in moved] == [path.name]
    assert len(list((out / CHUNK_DIR).iterdir())) == N // CHUNK
    loaded = Results.load(out)
    assert loaded.meta["complete"] is True
    pd.testing.assert_frame_equal(loaded.df, clean)
    assert "damaged" not in capsys.readouterr().err
