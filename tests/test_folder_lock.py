"""One writer per run folder: a second one is refused, a dead one's lock is taken over."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest
from toygame import register_toy

import simlib
from simlib.cli import main
from simlib.core.folderlock import LOCK_FILE, folder_lock
from simlib.errors import SimlibInputError

register_toy()

HOLD = textwrap.dedent(
    """
    import sys, time
    from simlib.core.folderlock import folder_lock
    with folder_lock(sys.argv[1]):
        print("held", flush=True)
        sys.stdin.readline()
    """
)


@pytest.fixture
def held(tmp_path):
    """A folder whose lock another process holds until the test ends."""
    folder = tmp_path / "run"
    folder.mkdir()
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(folder)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout.readline().strip() == "held"
        yield folder, proc.pid
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)


def test_second_writer_is_refused_and_writes_nothing(held):
    folder, pid = held
    with pytest.raises(SimlibInputError) as err:
        simlib.run("toy", games=100, seed=1, out=folder, progress=False)
    msg = str(err.value)
    assert "\n" not in msg and "is being written by" in msg and f"process {pid}" in msg
    assert sorted(p.name for p in folder.iterdir()) == [LOCK_FILE]


def test_second_writer_at_the_command_line_exits_2(held, capsys):
    folder, _ = held
    code = main(["run", "toy", "--games", "100", "--out", str(folder)])
    err = capsys.readouterr().err
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and "being written by" in err


def test_lock_of_an_ended_process_is_taken_over(tmp_path, capsys):
    folder = tmp_path / "run"
    folder.mkdir()
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    dead = int(done.stdout)
    (folder / LOCK_FILE).write_text(json.dumps({"pid": dead, "host": "h", "since": 0}))
    res = simlib.run("toy", games=100, seed=1, out=folder, progress=False)
    assert len(res.df) == 100
    err = capsys.readouterr().err
    assert f"taking over the lock left by process {dead}" in err
    assert (folder / LOCK_FILE).read_text() == ""  # let go at the end


def test_lock_is_released_after_an_error(tmp_path):
    folder = tmp_path / "run"
    folder.mkdir()
    with pytest.raises(RuntimeError):
        with folder_lock(folder):
            raise RuntimeError("boom")
    with folder_lock(folder):
        pass


def test_same_process_second_lock_is_refused(tmp_path):
    folder = tmp_path / "run"
    folder.mkdir()
    with folder_lock(folder):
        with pytest.raises(SimlibInputError, match="is being written by process"):
            with folder_lock(folder):
                pass


def test_a_finished_run_resumes(tmp_path):
    out = tmp_path / "run"
    first = simlib.run("toy", games=100, seed=1, out=out, progress=False)
    again = simlib.run("toy", games=200, seed=1, out=out, progress=False)
    assert again.df.iloc[:100].equals(first.df)
