"""Exact tables as experiments (``table = NAME``): declaration, validation, outputs, CLI.

The toy game (``tests/toygame.py``) declares one exact table, ``win_chance``; it is checked
against brute force and against the game's own playthroughs, then run as an experiment.
"""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from toygame import GAME, exact_win_chance, register_toy

import simlib
from simlib.cli import main
from simlib.core.game import Game, TableOption, TableSpec
from simlib.core.results import Results
from simlib.errors import SimlibInputError
from simlib.experiment import (
    Experiment,
    TableExperiment,
    load_experiment,
    run_experiment,
    run_table_experiment,
)
from simlib.games.registry import register
from simlib.report import html, tables
from simlib.report.tables import column_label

register_toy()

FILES = ("experiment.json", "report.html", "table.csv", "table.parquet")


def write_toml(tmp_path: Path, body: str, name: str = "table.toml") -> Path:
    path = tmp_path / name
    path.write_text(body)
    return path


def toy_table_toml(tmp_path: Path, options: str = "", extra: str = "", out: str = "out") -> Path:
    return write_toml(
        tmp_path,
        f"""
title = "Toy: exact win chance"
description = "How often the bold bot wins, exactly."
game = "toy"
table = "win_chance"
out = "{tmp_path / out}"
{extra}
[options]
p = [0.25, 0.5]
max_rounds = [3, 7]
bot = "bold"
{options}
""",
    )


def run_cli(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def assert_one_line_error(code: int, err: str, *fragments: str) -> None:
    assert code == 2
    lines = err.strip("\n").splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("simlib: error: ") and "Traceback" not in err
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


def contents(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


# --- the toy table is right -------------------------------------------------------------------
def brute_force_win_chance(p: float, max_rounds: int, bot: str, risk: float) -> tuple[float, float]:
    """Every sequence of round results (won / bust / neither), played out by the rules."""
    # one draw u ~ U[0, 1) a round: u >= bust_at busts (tested first), u < threshold wins
    threshold = min(1.0, p * (1.0 + (0.1 if bot == "steady" else 0.2) * risk))
    bust_at = 1.0 - 0.1 * risk if bot == "bold" else 1.0
    win_round, bust = min(threshold, bust_at), 1.0 - bust_at
    chance = {"W": win_round, "B": bust, "N": 1.0 - win_round - bust}
    need = max_rounds // 2 + 1
    won = busted = 0.0
    for seq in itertools.product("WBN", repeat=max_rounds):
        prob = math.prod(chance[s] for s in seq)
        wins = 0
        for s in seq:
            if s == "B":
                busted += prob
                break
            if s == "W":
                wins += 1
                if wins >= need:
                    won += prob
                    break
    return won, busted


@pytest.mark.parametrize(
    ("p", "max_rounds", "bot", "risk"),
    [(0.5, 1, "steady", 0.0), (0.3, 5, "steady", 1.0), (0.5, 6, "bold", 0.5),
     (0.9, 7, "bold", 1.0), (0.0, 3, "bold", 0.7), (1.0, 4, "steady", 0.2)],
)
def test_toy_exact_win_chance_matches_brute_force(p, max_rounds, bot, risk):
    np.testing.assert_allclose(
        exact_win_chance(p, max_rounds, bot, risk),
        brute_force_win_chance(p, max_rounds, bot, risk),
        rtol=0,
        atol=1e-12,
    )


def test_toy_exact_win_chance_matches_playthroughs():
    # 20,000 games of the real kernel per row; the bound is 4.5 binomial standard errors
    # (two-sided false-alarm rate 7e-6 per row, 5e-5 for the 8 rows), on a fixed seed.
    # p = 0.8 at risk 1 makes the bold bot's win threshold (0.96) pass its bust line (0.9).
    n = 20_000
    table = GAME.tables()["win_chance"]
    df = table.compute(table.resolve({"p": [0.3, 0.5], "max_rounds": [4, 9], "bot": "bold"}))
    assert (df["risk"] == 0.5).all()  # not set: the bold bot's default risk
    risky = table.resolve({"p": [0.5, 0.8], "max_rounds": [4, 9], "bot": "bold", "risk": 1.0})
    df = pd.concat([df, table.compute(risky)], ignore_index=True)
    assert len(df) == 8
    for row in df.itertuples():
        res = simlib.run("toy", settings={"p": row.p, "max_rounds": row.max_rounds}, bot="bold",
                         bot_params={"risk": row.risk}, games=n, seed=11, progress=False)
        sd = math.sqrt(row.win_chance * (1 - row.win_chance) / n)
        assert abs(res.df["win"].mean() - row.win_chance) <= 4.5 * sd + 1e-12, row


# --- declaring tables (core.game) -------------------------------------------------------------
def test_table_option_coerces_and_describes():
    p = TableOption("p", float, (0.5,), "chances", lo=0.0, hi=1.0, many=True)
    assert p.coerce([0, 0.25, "1"]) == [0.0, 0.25, 1.0]
    assert p.allowed() == "a non-empty list, each a number from 0 to 1"
    for bad, fragment in [([], "non-empty list"), (0.5, "non-empty list"), ([0.2, 2.0], "2.0"),
                          ([0.1, 0.1], "listed twice"), ([None], "None"), ("0.5", "'0.5'")]:
        with pytest.raises(SimlibInputError, match="option 'p'") as info:
            p.coerce(bad)
        assert fragment in str(info.value)
    names = TableOption("ids", str, None, "ids", many=True)
    assert names.coerce(None) is None and names.coerce(["a", "b"]) == ["a", "b"]
    assert names.allowed() == "a non-empty list of names"
    with pytest.raises(SimlibInputError, match="option 'ids'"):
        names.coerce(["a", 3])
    one = TableOption("bot", str, "steady", "bot", choices=("steady", "bold"))
    assert one.coerce("bold") == "bold"
    with pytest.raises(SimlibInputError, match="option 'bot': 'wild' is not allowed; expected "
                                               "one of steady, bold"):
        one.coerce("wild")
    # a Setting still speaks of settings
    with pytest.raises(SimlibInputError, match="^setting 'p'"):
        GAME.setting("p").coerce(3)


def test_table_spec_resolve_and_game_lookup():
    spec = GAME.table("win_chance")
    assert spec.resolve() == {"p": [0.4, 0.5, 0.6], "max_rounds": [5, 9], "bot": "steady",
                              "risk": None}
    assert spec.resolve({"risk": 0.5})["risk"] == 0.5
    with pytest.raises(SimlibInputError, match="option 'colour' is not an option of this "
                                               "table; allowed: p, max_rounds, bot, risk"):
        spec.resolve({"colour": 1})
    with pytest.raises(SimlibInputError, match="table 'odds' is not a table of toy; allowed: "
                                               "win_chance"):
        GAME.table("odds")
    assert Game().tables() == {}
    with pytest.raises(SimlibInputError, match="offers no exact tables"):
        Game().table("odds")
    described = GAME.describe()["tables"]
    assert described[0]["name"] == "win_chance"
    assert described[0]["options"][0] == {
        "name": "p", "default": [0.4, 0.5, 0.6], "help": "chances a round is won",
        "allowed": "a non-empty list, each a number from 0 to 1",
    }
    # the check hook sees every value and its error passes through
    seen = []

    def check(values):
        seen.append(dict(values))
        if values["n"] > 3:
            raise SimlibInputError("option 'n': at most 3 with this data")

    checked = TableSpec(lambda n: pd.DataFrame({"n": [n]}), "n", (TableOption("n", int, 1, "n"),),
                        check)
    assert checked.resolve({"n": 2}) == {"n": 2} and seen == [{"n": 2}]
    with pytest.raises(SimlibInputError, match="at most 3"):
        checked.resolve({"n": 4})
    with pytest.raises(TypeError, match="not a DataFrame"):
        TableSpec(lambda: [1, 2], "list").compute({})


# --- running a table experiment ---------------------------------------------------------------
def test_load_gives_a_table_experiment(tmp_path):
    exp = load_experiment(toy_table_toml(tmp_path, options="risk = 1.0"))
    assert isinstance(exp, TableExperiment)
    assert exp.table == "win_chance" and exp.game == "toy"
    assert exp.options == {"p": [0.25, 0.5], "max_rounds": [3, 7], "bot": "bold", "risk": 1.0}
    assert exp.command() == f"simlib experiment {tmp_path / 'table.toml'}"
    # no description given: the table's own one-line description is used
    plain = write_toml(tmp_path, 'game = "toy"\ntable = "win_chance"\n', "plain.toml")
    exp = load_experiment(plain)
    assert exp.description == GAME.table("win_chance").description
    assert exp.out == Path("results") / "plain"
    assert exp.title == "Toy coin game: win_chance table"
    assert exp.options["p"] == [0.4, 0.5, 0.6]


def test_run_writes_table_definition_and_report(tmp_path):
    toml = toy_table_toml(tmp_path)
    out = tmp_path / "out"
    df = run_experiment(toml)
    assert sorted(p.name for p in out.iterdir()) == sorted(FILES)

    expected = GAME.table("win_chance").compute(
        {"p": [0.25, 0.5], "max_rounds": [3, 7], "bot": "bold", "risk": None}
    )
    pd.testing.assert_frame_equal(df, expected)
    assert list(df["max_rounds"]) == [3, 7, 3, 7]
    np.testing.assert_allclose(df["win_chance"], [exact_win_chance(p, n, "bold", 0.5)[0]
                                                  for p in (0.25, 0.5) for n in (3, 7)])
    pd.testing.assert_frame_equal(pd.read_parquet(out / "table.parquet"), df)
    pd.testing.assert_frame_equal(pd.read_csv(out / "table.csv"), df, check_exact=True)

    record = json.loads((out / "experiment.json").read_text())
    assert record["kind"] == "table" and record["complete"] is True
    assert record["command"] == f"simlib experiment {toml}"
    assert record["rows"] == 4 and record["columns"] == list(df.columns)
    assert record["experiment"]["table"] == "win_chance"
    assert record["experiment"]["options"] == {
        "p": [0.25, 0.5], "max_rounds": [3, 7], "bot": "bold", "risk": None,
    }

    page = (out / "report.html").read_text()
    assert "<title>Toy: exact win chance</title>" in page
    assert "How often the bold bot wins, exactly." in page
    assert f"simlib experiment {toml}" in page
    assert "<h2>How to reproduce</h2>" in page and "<h2>Table</h2>" in page
    assert "4 rows." in page
    assert "<script" not in page and "http" not in page  # self-contained
    # value columns get a reader's label with the column's own name on hover
    head = "".join(
        f"<th>{c}</th>" if column_label(c) == c else f'<th title="{c}">{column_label(c)}</th>'
        for c in df.columns
    )
    assert head in page and '<th title="max_rounds">max rounds</th>' in page
    for row in df.itertuples(index=False):
        cells = (
            f'<td class="num">{row.p:.4f}</td><td class="num">{row.max_rounds}</td>'
            f'<td>bold</td><td class="num">0.5000</td><td class="num">{row.win_chance:.4f}'
            f'</td><td class="num">{row.bust_chance:.4f}</td>'
        )
        assert f"<tr>{cells}</tr>" in page, cells

    # a playthrough folder loader refuses the folder clearly
    with pytest.raises(SimlibInputError, match="holds an exact table, not playthroughs"):
        Results.load(out)


def test_rerun_is_idempotent_and_other_folders_are_refused(tmp_path):
    toml = toy_table_toml(tmp_path)
    out = tmp_path / "out"
    first = run_table_experiment(toml)
    before = contents(out)
    second = run_table_experiment(load_experiment(toml))
    pd.testing.assert_frame_equal(first, second)
    assert contents(out) == before  # same bytes in every file

    changed = toy_table_toml(tmp_path, options="risk = 0.9")
    with pytest.raises(SimlibInputError, match="holds a different table .options"):
        run_experiment(changed)
    assert contents(out) == before

    # a playthrough experiment may not write into the table's folder, nor the reverse
    runs = write_toml(tmp_path, f'game = "toy"\ngames = 50\nout = "{out}"\n', "runs.toml")
    with pytest.raises(SimlibInputError, match="holds an exact-table experiment"):
        run_experiment(runs)
    assert contents(out) == before
    run_out = tmp_path / "runs"
    run_experiment(write_toml(tmp_path, f'game = "toy"\ngames = 50\nout = "{run_out}"\n',
                              "runs2.toml"), progress=False)
    with pytest.raises(SimlibInputError, match="holds a playthrough experiment"):
        run_experiment(toy_table_toml(tmp_path, out="runs"))

    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("mine")
    with pytest.raises(SimlibInputError, match="not empty and holds no simlib experiment"):
        run_experiment(toy_table_toml(tmp_path, out="foreign"))
    assert [p.name for p in foreign.iterdir()] == ["notes.txt"]
    (tmp_path / "a_file").write_text("x")
    with pytest.raises(SimlibInputError, match="is a file"):
        run_experiment(toy_table_toml(tmp_path, out="a_file"))
    with pytest.raises(SimlibInputError, match="not an exact-table experiment"):
        run_table_experiment(runs)


@pytest.mark.parametrize(
    ("options", "extra", "fragments"),
    [
        ("colour = 1", "", ["unknown key 'options.colour'", "allowed: p, max_rounds, bot, risk"]),
        ("risk = 2.0", "", ["[options] option 'risk': 2.0 is not allowed", "from 0 to 1"]),
        ('risk = "high"', "", ["option 'risk'", "a number from 0 to 1"]),
        ("", 'seed = 3', ["'seed' does not apply"]),
    ],
)
def test_bad_options_one_line_nothing_written(tmp_path, options, extra, fragments):
    toml = toy_table_toml(tmp_path, options=options, extra=extra)
    with pytest.raises(SimlibInputError) as info:
        run_experiment(toml)
    message = str(info.value)
    assert "\n" not in message and message.startswith(str(toml))
    for fragment in fragments:
        assert fragment in message, message
    assert not (tmp_path / "out").exists()


BAD_FILES = [
    # option values
    ('table = "win_chance"\n[options]\np = 0.5\n', ["option 'p'", "a non-empty list"]),
    ('table = "win_chance"\n[options]\np = []\n', ["option 'p'", "a non-empty list"]),
    ('table = "win_chance"\n[options]\np = [0.5, 1.5]\n', ["option 'p': item 1.5"]),
    ('table = "win_chance"\n[options]\np = [0.5, 0.5]\n', ["option 'p'", "listed twice"]),
    ('table = "win_chance"\n[options]\nmax_rounds = [2.5]\n', ["option 'max_rounds'",
                                                               "an integer from 1 to 50"]),
    ('table = "win_chance"\n[options]\nbot = "wild"\n', ["option 'bot'", "one of steady, bold"]),
    ('table = "win_chance"\noptions = 3\n', ["'options' must be a table"]),
    # the table itself
    ('table = "odds"\n', ["table 'odds' is not a table of toy; allowed: win_chance"]),
    ("table = 3\n", ["'table' must be a string"]),
    # playthrough keys are refused, not ignored
    ('table = "win_chance"\ngames = 100\n', ["'games' does not apply to a table experiment"]),
    ('table = "win_chance"\nseed = 1\n', ["'seed' does not apply"]),
    ('table = "win_chance"\nbots = ["bold"]\n', ["'bots' does not apply"]),
    ('table = "win_chance"\npresets = ["easy"]\n', ["'presets' does not apply"]),
    ('table = "win_chance"\n[grid]\np = [0.1]\n', ["'grid' does not apply"]),
    ('table = "win_chance"\n[settings]\np = 0.1\n', ["'settings' does not apply"]),
    ('table = "win_chance"\n[report]\n', ["'report' does not apply"]),
    ('table = "win_chance"\ncolour = 1\n', ["unknown key 'colour'", "allowed: title"]),
    # options without a table
    ("games = 10\n[options]\np = [0.5]\n", ["'options' belongs to an exact-table experiment"]),
]


@pytest.mark.parametrize(("body", "fragments"), BAD_FILES)
def test_bad_table_files(tmp_path, body, fragments):
    out = tmp_path / "out"
    toml = write_toml(tmp_path, f'game = "toy"\nout = "{out}"\n' + body)
    with pytest.raises(SimlibInputError) as info:
        load_experiment(toml)
    message = str(info.value)
    assert "\n" not in message
    for fragment in fragments:
        assert fragment in message, message
    assert not out.exists()


def test_game_without_tables_is_refused(tmp_path):
    class NoTables(type(GAME)):  # type: ignore[misc]
        name = "toy_no_tables"

        def tables(self):
            return {}

    register(NoTables())
    toml = write_toml(tmp_path, 'game = "toy_no_tables"\ntable = "win_chance"\n')
    with pytest.raises(SimlibInputError, match="toy_no_tables offers no exact tables"):
        load_experiment(toml)
    # and its playthrough experiments are untouched by the table machinery
    exp = load_experiment(
        write_toml(tmp_path, 'game = "toy_no_tables"\ngames = 10\n', "runs.toml")
    )
    assert isinstance(exp, Experiment) and exp.games == 10


# --- report helpers ---------------------------------------------------------------------------
def test_flat_table_and_formatting():
    by_armor = pd.DataFrame({2: [0.0, 0.5], 3: [1e-6, 1.0]}, index=pd.Index(["a", "b"],
                                                                             name="armor"))
    flat = tables.flat_table(by_armor)
    assert list(flat.columns) == ["armor", "2", "3"] and list(flat["armor"]) == ["a", "b"]
    plain = pd.DataFrame({"x": [1, 2]})
    assert list(tables.flat_table(plain).columns) == ["x"]
    shifted = pd.DataFrame({"x": [1, 2]}, index=[5, 6])
    assert list(tables.flat_table(shifted).columns) == ["index", "x"]
    with pytest.raises(ValueError, match="appear twice"):
        tables.flat_table(pd.DataFrame({1: [1], "1": [2]}))
    shown = tables.format_values(
        pd.DataFrame({"f": [0.0, 1e-6, 0.123456, 2e6, np.nan], "i": [1, 12345, -3, 0, 7],
                      "b": [True, False, True, True, False], "s": ["x", "y", "z", "w", "v"]})
    )
    assert list(shown["f"]) == ["0.0000", "1.000e-06", "0.1235", "2.000e+06", ""]
    assert list(shown["i"]) == ["1", "12,345", "-3", "0", "7"]
    assert list(shown["b"]) == ["yes", "no", "yes", "yes", "no"]


def test_table_report_shows_at_most_max_rows(tmp_path):
    df = pd.DataFrame({"k": range(30), "v": np.linspace(0, 1, 30)})
    page = html.build_table_report(df, tmp_path / "r.html", title="T <1>", meta={"command": "c"},
                                   max_rows=10, files="t.csv").read_text()
    assert page.count("<tr>") == 11  # header and 10 rows
    assert "The first 10 of 30 rows are shown; the full table (t.csv) holds them all." in page
    assert "<h1>T &lt;1&gt;</h1>" in page and "<pre>c</pre>" in page


# --- command line -----------------------------------------------------------------------------
def test_cli_table_experiment_report_and_games(tmp_path, capsys):
    toml = toy_table_toml(tmp_path)
    out = tmp_path / "out"
    code, text, err = run_cli(capsys, "experiment", toml)
    assert code == 0, err
    assert "exact table 'win_chance' of toy, 4 rows" in text
    assert str(out / "table.csv") in text and str(out / "report.html") in text
    assert "win_chance" in text.splitlines()[1]  # the first rows are printed
    before = contents(out)
    assert run_cli(capsys, "experiment", toml)[0] == 0
    assert contents(out) == before

    (out / "report.html").unlink()
    code, text, err = run_cli(capsys, "report", out)
    assert code == 0, err
    assert contents(out) == before  # rebuilt from the files: the same page
    code, text, _ = run_cli(capsys, "report", out, "--out", tmp_path / "r.html", "--title", "Mine")
    assert code == 0 and "<h1>Mine</h1>" in (tmp_path / "r.html").read_text()

    code, text, _ = run_cli(capsys, "games", "toy")
    assert code == 0 and "exact tables" in text and "win_chance" in text
    assert "p (default [0.4, 0.5, 0.6]; a non-empty list, each a number from 0 to 1)" in text
    code, text, _ = run_cli(capsys, "games")
    assert "exact tables: win_chance" in text


@pytest.mark.parametrize(
    ("body", "fragments"),
    [
        ('table = "win_chance"\n[options]\nrisk = -1\n', ["option 'risk'", "from 0 to 1"]),
        ('table = "win_chance"\n[options]\nnerve = 1\n', ["unknown key 'options.nerve'"]),
        ('table = "win_chance"\ngames = 5\n', ["'games' does not apply"]),
        ('table = "nope"\n', ["table 'nope'", "win_chance"]),
    ],
)
def test_cli_bad_table_input_exits_2(tmp_path, capsys, body, fragments):
    out = tmp_path / "out"
    toml = write_toml(tmp_path, f'game = "toy"\nout = "{out}"\n' + body)
    code, _, err = run_cli(capsys, "experiment", toml)
    assert_one_line_error(code, err, str(toml), *fragments)
    assert not out.exists()


def test_cli_backend_options_checked_for_tables(tmp_path, capsys):
    toml = toy_table_toml(tmp_path)
    code, _, err = run_cli(capsys, "experiment", toml, "--threads", "0")
    assert_one_line_error(code, err, "threads")
    assert not (tmp_path / "out").exists()
