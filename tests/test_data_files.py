"""A run is tied to the content of its data files, not to their paths.

The toy game ``toy_data`` reads ``p`` from a data file through a path-keyed cache. Its
games equal the plain toy game's at the same ``p`` row for row, which gives every check
here an exact reference.
"""

from __future__ import annotations

import json
import os

import pandas as pd
import pytest
from frames import assert_same_games
from toygame import register_data_toy, register_toy

import simlib
from simlib.cli import main
from simlib.core import runner
from simlib.core.datafile import snapshot
from simlib.errors import SimlibInputError

register_toy()
register_data_toy()

SEED = 11
N = 600


def write_p(path, p: float) -> None:
    path.write_text(f"p = {p}\n", encoding="utf-8")


def toy_rows(p: float, games: int = N):
    return simlib.run("toy", settings={"p": p}, games=games, seed=SEED, progress=False).df


def data_rows(path, games: int = N, **kw):
    res = simlib.run(
        "toy_data", settings={"data": str(path)}, games=games, seed=SEED, progress=False, **kw
    )
    return res


def test_run_plays_the_file_content(tmp_path):
    d = tmp_path / "d.toml"
    write_p(d, 0.7)
    pd.testing.assert_frame_equal(data_rows(d).df, toy_rows(0.7))


def test_an_edit_between_two_runs_in_one_process_is_played(tmp_path):
    # The game's own cache is keyed by path; the runner compiles from a copy named by the
    # content's hash, so the second run sees the edit.
    d = tmp_path / "d.toml"
    write_p(d, 0.7)
    first = data_rows(d).df
    write_p(d, 0.3)
    second = data_rows(d).df
    pd.testing.assert_frame_equal(first, toy_rows(0.7))
    pd.testing.assert_frame_equal(second, toy_rows(0.3))


def test_run_json_records_the_content_hash(tmp_path):
    d = tmp_path / "d.toml"
    write_p(d, 0.7)
    res = data_rows(d, out=tmp_path / "run")
    stored = json.loads((tmp_path / "run" / "run.json").read_text())
    assert stored["data_files"] == {"data": snapshot(d).sha256}
    assert res.meta["data_files"] == stored["data_files"]


def test_resume_with_an_edited_file_is_refused_untouched(tmp_path):
    d, out = tmp_path / "d.toml", tmp_path / "run"
    write_p(d, 0.7)
    data_rows(d, games=300, out=out)
    before = sorted(p.name for p in (out / "chunks").iterdir())
    write_p(d, 0.1)
    with pytest.raises(SimlibInputError) as err:
        data_rows(d, games=N, out=out)
    msg = str(err.value)
    assert "\n" not in msg
    assert str(d) in msg and "changed" in msg
    assert sorted(p.name for p in (out / "chunks").iterdir()) == before


def test_resume_with_the_same_content_rewritten_is_accepted(tmp_path):
    d, out = tmp_path / "d.toml", tmp_path / "run"
    write_p(d, 0.7)
    data_rows(d, games=300, out=out)
    write_p(d, 0.7)  # a new modification time, the same bytes
    os.utime(d, (1, 1))
    pd.testing.assert_frame_equal(data_rows(d, out=out).df, toy_rows(0.7))


def test_a_folder_without_a_hash_record_is_refused(tmp_path):
    d, out = tmp_path / "d.toml", tmp_path / "run"
    write_p(d, 0.7)
    data_rows(d, games=300, out=out)
    run_file = out / "run.json"
    stored = json.loads(run_file.read_text())
    del stored["data_files"]
    run_file.write_text(json.dumps(stored))
    with pytest.raises(SimlibInputError, match="recorded no content hash"):
        data_rows(d, out=out)


def test_default_data_records_no_hash(tmp_path):
    simlib.run("toy_data", games=50, seed=SEED, out=tmp_path / "run", progress=False)
    assert "data_files" not in json.loads((tmp_path / "run" / "run.json").read_text())


def test_missing_file_is_one_line(tmp_path):
    with pytest.raises(SimlibInputError, match="setting 'data': data file .* does not exist"):
        data_rows(tmp_path / "nope.toml")


def test_a_worker_gets_the_content_not_the_path(tmp_path, monkeypatch):
    # What the Dask backend submits: the game, the settings with the file's snapshot in
    # place of its path. The worker plays it although the original file is gone and the
    # worker runs in another folder.
    d = tmp_path / "d.toml"
    write_p(d, 0.7)
    plan = runner.resolve_run("toy_data", settings={"data": str(d)}, games=N, seed=SEED)
    values = {**plan.values, "data": plan.data_files["data"]}
    d.unlink()
    monkeypatch.chdir(tmp_path.parent)
    frame = runner.play_chunk("toy_data", values, plan.bot.name, plan.params, SEED, 0, N)
    assert_same_games(frame, toy_rows(0.7))


def test_cli_resume_with_an_edited_file_exits_2(tmp_path, capsys):
    d, out = tmp_path / "d.toml", tmp_path / "run"
    write_p(d, 0.7)
    args = ["run", "toy_data", "--set", f"data={d}", "--games", "200", "--out", str(out)]
    assert main(args) == 0
    write_p(d, 0.2)
    capsys.readouterr()
    assert main(args) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert "changed" in err
