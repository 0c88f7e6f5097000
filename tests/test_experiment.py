"""TOML experiments: validation up front, run, save, report, resume, refusal."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from toygame import GAME, register_toy

import simlib
from simlib.core.results import Results
from simlib.errors import SimlibInputError
from simlib.experiment import load_experiment, run_experiment

register_toy()

GAMES = 500


def write_toml(tmp_path: Path, body: str, name: str = "exp.toml") -> Path:
    path = tmp_path / name
    path.write_text(body)
    return path


def toy_toml(tmp_path: Path, seed: int = 7, extra: str = "") -> Path:
    out = tmp_path / "out"
    return write_toml(
        tmp_path,
        f"""
title = "Toy: difficulty by preset, bot and length"
game = "toy"
games = {GAMES}
seed = {seed}
out = "{out}"
bots = ["steady", "bold"]
presets = ["easy", "hard"]
{extra}
[grid]
max_rounds = [5, 9]

[settings]

[bot_params.bold]
risk = 0.8

[report]
sweep = ["max_rounds"]
""",
    )


class Counter:
    def __init__(self):
        self.calls = 0
        self.inner = type(GAME).play_batch

    def __call__(self, *args):
        self.calls += 1
        return self.inner(GAME, *args)


def snapshot(folder: Path) -> dict:
    return {
        str(p): (p.read_bytes() if p.is_file() else b"", p.stat().st_mtime_ns)
        for p in sorted(folder.rglob("*"))
    }


def test_load_validates_and_resolves_every_cell(tmp_path):
    exp = load_experiment(toy_toml(tmp_path))
    assert exp.game == "toy" and exp.games == GAMES and exp.seed == 7
    assert len(exp.cells) == 8
    assert exp.cells[0].name == "preset=easy,bot=steady,max_rounds=5"
    assert exp.cells[-1].name == "preset=hard,bot=bold,max_rounds=9"
    bold_hard_9 = exp.cells[-1].plan
    assert bold_hard_9.values == {"p": 0.4, "max_rounds": 9}
    assert bold_hard_9.params == {"risk": 0.8}
    assert exp.cells[0].plan.params == {"risk": 0.0}
    assert exp.group_by() == ["preset", "bot", "max_rounds"]
    assert exp.sweep_params() == ["max_rounds"]
    assert exp.effect_factors() == ["preset", "bot", "max_rounds"]
    assert "8 cells" in repr(exp)


def test_run_save_report_and_resume(tmp_path, monkeypatch):
    exp = load_experiment(toy_toml(tmp_path))
    res = run_experiment(exp, progress=False)
    out = tmp_path / "out"
    df = pd.read_parquet(out / "results.parquet")
    assert len(df) == 8 * GAMES == len(res.df)
    # the game's columns, then preset, bot and every setting / bot parameter that varies
    # (p follows the preset, bot.risk the bot), grid keys always
    assert list(df.columns) == [
        "game_index",
        "win",
        "outcome",
        "rounds",
        "rounds_won",
        "preset",
        "bot",
        "p",
        "max_rounds",
        "bot.risk",
    ]
    assert (out / "report.html").stat().st_size > 1000
    record = json.loads((out / "experiment.json").read_text())
    assert record["complete"] is True and record["experiment"]["seed"] == 7
    assert record["command"].startswith("simlib experiment ")
    assert len(list((out / "cells").iterdir())) == 8

    # each cell equals a plain run with the same configuration (same seed: paired cells)
    cell = res.df[
        (res.df["preset"] == "hard") & (res.df["bot"] == "bold") & (res.df["max_rounds"] == 9)
    ]
    single = simlib.run(
        "toy",
        preset="hard",
        bot="bold",
        bot_params={"risk": 0.8},
        settings={"max_rounds": 9},
        games=GAMES,
        seed=7,
        progress=False,
    )
    game_columns = [c for c in single.df.columns if c not in ("preset", "bot")]
    pd.testing.assert_frame_equal(
        cell[game_columns].reset_index(drop=True), single.df[game_columns]
    )

    loaded = Results.load(out)
    pd.testing.assert_frame_equal(loaded.df, res.df)
    assert loaded.meta["varying"] == ["preset", "bot", "p", "max_rounds", "bot.risk"]
    assert loaded.meta["report"] == {
        "group_by": ["preset", "bot", "max_rounds"],
        "sweep_params": ["max_rounds"],
        "effects": ["preset", "bot", "max_rounds"],
    }
    assert "<h2>What moves the win rate</h2>" in (out / "report.html").read_text()
    from simlib.cli import main

    assert main(["report", str(out), "--out", str(tmp_path / "again.html")]) == 0
    assert "<h2>What moves the win rate</h2>" in (tmp_path / "again.html").read_text()

    counter = Counter()
    monkeypatch.setattr(GAME, "play_batch", counter)
    again = run_experiment(toy_toml(tmp_path), progress=False)
    assert counter.calls == 0
    pd.testing.assert_frame_equal(again.df, res.df)


def test_interrupted_experiment_resumes(tmp_path, monkeypatch):
    path = toy_toml(tmp_path)
    ref_dir = tmp_path / "ref"
    ref_dir.mkdir()
    reference = run_experiment(toy_toml(ref_dir), progress=False)
    calls = {"n": 0}
    inner = type(GAME).play_batch

    def flaky(*args):
        calls["n"] += 1
        if calls["n"] == 4:
            raise KeyboardInterrupt
        return inner(GAME, *args)

    monkeypatch.setattr(GAME, "play_batch", flaky)
    with pytest.raises(KeyboardInterrupt):
        run_experiment(path, progress=False)
    partial = Results.load(tmp_path / "out")
    assert partial.meta["complete"] is False and len(partial.df) == 3 * GAMES
    # the cells not started yet count in the games asked for (it read "3 of 3" before)
    total = partial.meta["cells_total"]
    assert partial.meta["cells_present"] == 4 and total > 4  # the 4th was interrupted
    assert partial.meta["games"] == total * GAMES
    assert f"partial: {3 * GAMES:,} of {total * GAMES:,} games (4 of {total} cells" in repr(partial)
    monkeypatch.setattr(GAME, "play_batch", Counter())
    res = run_experiment(path, progress=False)
    assert GAME.play_batch.calls == 5
    pd.testing.assert_frame_equal(res.df, reference.df)


def test_other_experiment_refused_untouched(tmp_path):
    run_experiment(toy_toml(tmp_path), progress=False)
    out = tmp_path / "out"
    before = snapshot(out)
    other = toy_toml(tmp_path, seed=8)
    with pytest.raises(SimlibInputError) as info:
        run_experiment(other, progress=False)
    message = str(info.value)
    assert "different experiment" in message and "seed" in message and str(out) in message
    assert snapshot(out) == before


def test_foreign_out_folder_refused(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    with pytest.raises(SimlibInputError, match="no simlib experiment"):
        run_experiment(toy_toml(tmp_path), progress=False)
    assert [p.name for p in out.iterdir()] == ["keep.txt"]


BASE = 'game = "toy"\ngames = 100\n'


@pytest.mark.parametrize(
    ("body", "fragments"),
    [
        ('game = "toy"\ngames = \nseed = 1\n', ["malformed TOML", "line 2"]),
        (BASE + "gmaes = 5\n", ["unknown key 'gmaes'", "games"]),
        ('game = "chess"\ngames = 10\n', ["game 'chess' is not known", "toy"]),
        ('game = "toy"\n', ["missing key 'games'"]),
        ("games = 10\n", ["missing key 'game'"]),
        ('game = "toy"\ngames = 0\n', ["games", "from 1 to"]),
        ('game = "toy"\ngames = "many"\n', ["games"]),
        (BASE + "seed = -1\n", ["seed"]),
        (BASE + 'presets = ["insane"]\n', ["preset 'insane'", "easy"]),
        (BASE + "presets = []\n", ["presets"]),
        (BASE + 'bots = ["nobody"]\n', ["bot 'nobody'", "steady"]),
        (BASE + 'bots = ["bold", "bold"]\n', ["twice"]),
        (BASE + "[grid]\ncolour = [1, 2]\n", ["grid.colour", "max_rounds"]),
        (BASE + "[grid]\nmax_rounds = 5\n", ["grid.max_rounds", "list"]),
        (BASE + "[grid]\nmax_rounds = [5, 99]\n", ["max_rounds", "from 1 to 50"]),
        (BASE + "[grid]\np = [0.5, 0.5]\n", ["twice"]),
        (BASE + "[settings]\ncolour = 1\n", ["settings.colour"]),
        (BASE + "[settings]\np = 1.5\n", ["setting 'p'", "from 0 to 1"]),
        (BASE + "[settings]\np = 0.5\n[grid]\np = [0.4]\n", ["both"]),
        (BASE + "[bot_params.bold]\nrisk = 0.2\n", ["bot_params.bold", "steady"]),
        (BASE + "[bot_params.steady]\nnerve = 0.2\n", ["'nerve'", "risk"]),
        (BASE + "[bot_params.steady]\nrisk = 7\n", ["risk", "from 0 to 1"]),
        (BASE + "[report]\ncolour = 1\n", ["unknown key 'report.colour'"]),
        (BASE + '[report]\nsweep = ["p"]\n', ["report.sweep", "'p'"]),
        (BASE + '[report]\ngroup_by = ["colour"]\n', ["report.group_by", "'colour'"]),
        (BASE + '[report]\neffects = ["colour"]\n', ["report.effects", "'colour'"]),
        (BASE + "[report]\neffects = true\n", ["report.effects", "list of column names"]),
        (BASE + "settings = 3\n", ["'settings' must be a table"]),
    ],
)
def test_validation_errors(tmp_path, body, fragments):
    path = write_toml(tmp_path, body)
    with pytest.raises(SimlibInputError) as info:
        load_experiment(path)
    message = str(info.value)
    assert "\n" not in message and str(path) in message
    for fragment in fragments:
        assert fragment in message, message


def test_missing_file():
    with pytest.raises(SimlibInputError, match="does not exist"):
        load_experiment("/nonexistent/exp.toml")


def test_default_out_is_relative_to_cwd(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    exp = load_experiment(write_toml(tmp_path, BASE, name="study.toml"))
    assert exp.out == Path("results") / "study"
    assert len(exp.cells) == 1 and exp.cells[0].name == "preset=normal,bot=steady"


@pytest.mark.parametrize("name", ["subterra", "terraria", "terralore", "terminus"])
def test_every_game_report_spec_names_real_columns(name, tmp_path):
    # the report sections a game asks for (time, causes, leave rounds, measures, seats)
    # must name columns its rows have, or its experiment report would fail at the end
    from simlib.games.registry import get_game
    from simlib.report import html

    game = get_game(name)
    res = simlib.run(name, games=6, seed=3, progress=False)
    spec = game.report_spec()
    cols = set(res.df.columns)
    assert spec.time_column in cols and set(spec.outcomes) == set(res.df["outcome"].cat.categories)
    for _label, total, parts in spec.causes:
        assert {*parts, *([total] if total else [])} <= cols
    assert set(spec.leave_columns) <= cols and set(spec.measure_columns) <= cols
    assert set(spec.matchup or ()) <= cols and {spec.first_column} - {None} <= cols
    assert {c for seat in spec.card_masks for c in seat} <= cols
    assert len(spec.card_labels) == (len(game.item_labels(game.context())) if spec.card_masks
                                     else 0)
    path = html.build_report(res.df, tmp_path / "r.html", title=name, meta={}, spec=spec)
    text = path.read_text(encoding="utf-8")
    assert "<h2>When games end</h2>" in text
    assert ("<h2>What causes it</h2>" in text) == bool(spec.causes)


def test_paths_in_an_experiment_file_are_read_from_its_folder(tmp_path, monkeypatch):
    from toygame import register_data_toy

    register_data_toy()
    study = tmp_path / "study"
    study.mkdir()
    (study / "mine.toml").write_text("p = 0.9\n", encoding="utf-8")
    path = study / "e.toml"
    path.write_text(
        'game = "toy_data"\ngames = 200\nseed = 1\nout = "res"\n'
        '[grid]\ndata = ["default", "mine.toml"]\n', encoding="utf-8"
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)  # the file's folder, not this one, anchors its paths
    exp = load_experiment(path)
    assert exp.out == study / "res"
    assert [c.plan.values["data"] for c in exp.cells] == ["default", str(study / "mine.toml")]
    monkeypatch.chdir(tmp_path)  # under the current folder: shown relative to it
    exp = load_experiment(Path("study") / "e.toml")
    assert exp.out == Path("study/res")
    assert exp.cells[1].plan.values["data"] == "study/mine.toml"
