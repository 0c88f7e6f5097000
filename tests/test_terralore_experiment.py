"""The shipped Terralore meta experiment: every deck against every deck from both seats,
and its report with the matchup heatmap, first-player advantage and per-card win rates."""

import sys
from pathlib import Path

import pandas as pd

from simlib.experiment import experiment_from_dict, load_experiment, run_experiment
from simlib.report import html

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
FILE = ROOT / "experiments" / "terralore_meta.toml"


def test_meta_experiment_covers_every_pairing_from_both_seats():
    exp = load_experiment(FILE)
    decks = exp.grid["deck0"]
    assert exp.game == "terralore" and exp.grid["deck1"] == decks and len(decks) >= 5
    assert len(exp.cells) == len(decks) ** 2


def test_meta_experiment_runs_and_reports(tmp_path):
    d = tomllib.loads(FILE.read_text())
    d["games"] = 200
    d["ladder"]["games"] = 40  # the shipped ladder, on fewer games
    d["out"] = str(tmp_path / "meta")
    res = run_experiment(experiment_from_dict(d), progress=False)
    df = res.df
    assert len(df) == 200 * 25
    pairs = set(zip(df["deck0"].astype(str), df["deck1"].astype(str), strict=True))
    assert ("fire_rush", "stone_wall") in pairs and ("stone_wall", "fire_rush") in pairs
    text = (tmp_path / "meta" / "report.html").read_text()
    for h in html.TWO_SEAT_SECTIONS:
        assert f"<h2>{h}</h2>" in text
    assert "Gaia Titan" in text  # card names, not ids
    for h in ("Outcome shares", "Game length", "Skill ladder"):
        assert f"<h2>{h}</h2>" in text
    assert isinstance(df["outcome"].dtype, pd.CategoricalDtype)


def test_cli_run_then_report_shows_the_two_seat_sections(tmp_path, capsys):
    from simlib.cli import main

    out = tmp_path / "run"
    assert main(["run", "terralore", "--games", "400", "--set", "deck0=fire_rush",
                 "--set", "bot1=defensive", "--no-progress", "--out", str(out)]) == 0
    assert main(["report", str(out)]) == 0
    text = (out / "report.html").read_text()
    for h in html.TWO_SEAT_SECTIONS:
        assert f"<h2>{h}</h2>" in text
    assert main(["run", "terralore", "--set", "deck1=nope", "--games", "10"]) == 2
    assert "deck1" in capsys.readouterr().err
