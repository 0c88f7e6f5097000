"""Open readings: ``simlib games`` lists them, and every run, sweep and experiment states them.

The ladder toy game (``tests/toygame.py``) has one reading, ``majority`` (rule TOY-001): a
win needs more than half of ``max_rounds`` round wins (the literal reading) or, with
``majority = false``, half rounded up.
"""

from __future__ import annotations

import math
import re

import pytest
from toygame import GAME, LADDER_GAME, ladder_win_chance, register_ladder_toy, register_toy

import simlib
from simlib.cli import main
from simlib.experiment import load_experiment, run_experiment
from simlib.report.tables import ladder_text

register_toy()
register_ladder_toy()


def run_cli(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def readings_rows(page: str) -> list[list[str]]:
    """The rows of the report's "Readings" table (setting, rule, value, alternative)."""
    m = re.search(r"<h3>Readings</h3>.*?<table>(.*?)</table>", page, re.S)
    assert m, "no Readings table in the report"
    rows = re.findall(r"<tr>(.*?)</tr>", m.group(1), re.S)
    return [re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", r, re.S) for r in rows[1:]]


def test_game_lists_its_readings():
    (s,) = LADDER_GAME.readings()
    assert s.name == "majority" and s.reading == "TOY-001" and s.default is True
    assert LADDER_GAME.describe()["readings"] == [
        {"name": "majority", "rule": "TOY-001", "default": True, "help": s.help}
    ]
    assert GAME.readings() == () and GAME.readings_used(GAME.context()) == ()
    assert LADDER_GAME.readings_used(LADDER_GAME.context({"majority": False})) == (
        {"name": "majority", "rule": "TOY-001", "value": False, "help": s.help},
    )
    # a run that did not say plays the literal default
    assert LADDER_GAME.readings_used(LADDER_GAME.context())[0]["value"] is True
    assert LADDER_GAME.report_spec().readings == LADDER_GAME.readings_used(LADDER_GAME.context())


def test_the_reading_is_played():
    # TOY-001: with 10 rounds the literal reading needs 6 round wins, the other 5
    for majority in (True, False):
        df = simlib.run("toyladder", settings={"max_rounds": 10, "majority": majority},
                        games=4000, seed=2, progress=False).df
        want = ladder_win_chance(0.5, 0.6, 10, majority, "steady")
        assert abs(df["win"].mean() - want) <= 4.5 * math.sqrt(want * (1 - want) / 4000)
        assert df[df["win"]]["rounds_won"].eq(6 if majority else 5).all()


def test_simlib_games_prints_readings(capsys):
    code, out, _ = run_cli(capsys, "games", "toyladder")
    assert code == 0
    section = out.split("\nreadings (")[1]
    assert "majority  rule TOY-001; default true" in section
    assert "false: half, rounded up" in section
    code, out, _ = run_cli(capsys, "games")
    assert code == 0 and "readings: majority (TOY-001)" in out
    code, out, _ = run_cli(capsys, "games", "toy")
    assert code == 0 and "\nreadings (" not in out


def test_run_states_its_readings(tmp_path, capsys):
    code, out, err = run_cli(capsys, "run", "toyladder", "--set", "majority=false", "--games",
                             200, "--out", tmp_path / "run", "--no-progress")
    assert code == 0, err
    assert "readings: majority=false (TOY-001)" in out
    code, _, err = run_cli(capsys, "report", tmp_path / "run")
    assert code == 0, err
    rows = readings_rows((tmp_path / "run" / "report.html").read_text())
    assert [r[:3] for r in rows] == [["majority", "TOY-001", "false"]]


def test_sweep_states_a_varying_reading(tmp_path, capsys):
    code, out, err = run_cli(capsys, "sweep", "toyladder", "--param", "majority", "--values",
                             "true,false", "--games", 100, "--out", tmp_path / "sw",
                             "--no-progress")
    assert code == 0, err
    assert "readings: majority=varies (TOY-001)" in out
    code, _, err = run_cli(capsys, "report", tmp_path / "sw")
    assert code == 0, err
    rows = readings_rows((tmp_path / "sw" / "report.html").read_text())
    assert rows[0][:3] == ["majority", "TOY-001", "varies: true, false (column majority)"]
    # a sweep of another setting states the reading's single value
    code, out, err = run_cli(capsys, "sweep", "toyladder", "--param", "p", "--values",
                             "0.4,0.5", "--games", 100, "--no-progress")
    assert code == 0 and "readings: majority=true (TOY-001)" in out


def test_experiment_report_states_its_readings(tmp_path, capsys):
    path = tmp_path / "exp.toml"
    path.write_text(f'game = "toyladder"\ngames = 100\nout = "{tmp_path / "exp"}"\n'
                    '[settings]\nmajority = false\n')
    run_experiment(load_experiment(path), progress=False)
    rows = readings_rows((tmp_path / "exp" / "report.html").read_text())
    assert [r[:3] for r in rows] == [["majority", "TOY-001", "false"]]
    code, out, err = run_cli(capsys, "experiment", path, "--no-progress")
    assert code == 0 and "readings: majority=false (TOY-001)" in out
    # a grid over the reading: the report and the command line say it varies
    grid = tmp_path / "grid.toml"
    grid.write_text(f'game = "toyladder"\ngames = 100\nout = "{tmp_path / "grid"}"\n'
                    '[grid]\nmajority = [true, false]\n')
    code, out, err = run_cli(capsys, "experiment", grid, "--no-progress")
    assert code == 0 and "readings: majority=varies (TOY-001)" in out
    rows = readings_rows((tmp_path / "grid" / "report.html").read_text())
    assert rows[0][2] == "varies: true, false (column majority)"


def test_ladder_states_its_readings(tmp_path):
    from simlib.report.html import build_ladder_report

    lad = simlib.ladder("toyladder", budgets=[0], games=50, settings={"majority": False},
                        progress=False)
    assert lad.readings == [{"name": "majority", "rule": "TOY-001", "value": False,
                             "help": LADDER_GAME.setting("majority").help}]
    assert "readings: majority=false (TOY-001)" in ladder_text(lad)
    rows = readings_rows(build_ladder_report(lad, tmp_path / "l.html").read_text())
    assert [r[:3] for r in rows] == [["majority", "TOY-001", "false"]]


def test_a_game_without_readings_has_no_readings_table(tmp_path):
    simlib.run("toy", games=50, out=tmp_path / "run", progress=False)
    assert main(["report", str(tmp_path / "run")]) == 0
    assert "<h3>Readings</h3>" not in (tmp_path / "run" / "report.html").read_text()


@pytest.mark.parametrize("value", ["maybe", "2"])
def test_a_bad_reading_value_is_one_line(capsys, value):
    code, _, err = run_cli(capsys, "run", "toyladder", "--set", f"majority={value}", "--games",
                           10)
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "setting 'majority'" in err and "true or false" in err
