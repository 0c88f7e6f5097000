"""The overview: several games' difficulty steps at one precision, with one report."""

from __future__ import annotations

from pathlib import Path

import pytest
from toygame import register_handicap_toy, register_toy

from simlib.cli import main
from simlib.core import stats
from simlib.errors import SimlibInputError
from simlib.experiment import load_experiment, run_experiment
from simlib.overview import Overview

register_toy()
register_handicap_toy()

REPO = Path(__file__).resolve().parents[1]


def toml(tmp_path: Path, body: str = "", games: int = 30000) -> Path:
    path = tmp_path / "ov.toml"
    path.write_text(
        f'kind = "overview"\nprecision = 0.03\ngames = {games}\nmax_games = 200000\n'
        f'seed = 4\nout = "{(tmp_path / "out").as_posix()}"\n'
        '[[study]]\ngame = "toy"\npresets = ["easy", "normal", "hard"]\n'
        '[[study]]\ngame = "toy_handicap"\n[study.grid]\nhandicap = [0, 5]\n' + body
    )
    return path


def test_overview_runs_reports_and_resumes(tmp_path, capsys):
    path = toml(tmp_path)
    ov = load_experiment(path)
    assert isinstance(ov, Overview) and len(ov.cells) == 5
    t = run_experiment(ov, progress=False)
    steps, diffs = t["steps"], t["differences"]
    assert list(steps["step"]) == ["easy", "normal", "hard", "handicap=0", "handicap=5"]
    assert (steps["stopped"] == "precision").all()
    assert ((steps["anytime_hi"] - steps["anytime_lo"]) / 2 <= 0.03).all()
    assert len(diffs) == 3 and (diffs["diff"] < 0).all()  # each step is harder
    # toy is coupled in p: a harder step never wins a game the easier one lost
    first = diffs.iloc[0]
    assert first["paired_games"] == min(steps["n"].iloc[0], steps["n"].iloc[1])
    m = int(first["paired_games"])
    seq = stats.paired_confidence_sequence([False] * m, [True] * int(first["discordant"])
                                           + [False] * (m - int(first["discordant"])))
    assert seq.diff == pytest.approx(first["diff"])
    html = (tmp_path / "out" / "report.html").read_text()
    for text in ("Difficulty steps", "Paired differences", "Assumptions in force", "anytime"):
        assert text in html
    assert (tmp_path / "out" / "toy" / "report.html").is_file()
    assert main(["experiment", str(path), "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "paired differences" in out and "handicap=5" in out


@pytest.mark.parametrize(
    "body,games,fragment",
    [
        ("", 50000, "over max_games"),
        ('[[study]]\ngame = "toy"\n', 100, "appears twice"),
        ('[[study]]\ngame = "toy"\ngames = 5\n', 100, "study.games"),
    ],
)
def test_bad_overview(tmp_path, body, games, fragment):
    with pytest.raises(SimlibInputError, match=fragment):
        load_experiment(toml(tmp_path, body, games))


def test_shipped_overview_is_within_budget():
    ov = load_experiment(REPO / "experiments" / "overview.toml")
    assert isinstance(ov, Overview)
    assert ov.precision == 0.015 and len(ov.cells) * ov.games <= 400_000
    assert [s.game for s in ov.studies] == ["subterra", "terraria", "terminus", "terralore"]
