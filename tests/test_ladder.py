"""The skill ladder (``simlib.ladder``, ``simlib ladder``) on the ladder toy game.

The toy's search bot takes the gamble with a chance known exactly
(``toygame.search_gamble_chance``), so every rung's win chance is exact
(``toygame.ladder_win_chance``) and the ladder's table, steps and headroom are checked
against it. Checks of a random quantity use a bound of 4.5 standard errors: each has a
false-alarm chance below 7e-6 (about 1e-4 over the file); the seeds are fixed, so a pass
is repeatable.
"""

from __future__ import annotations

import json
import math
import shutil
from itertools import product
from math import comb
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from frames import assert_same_games
from toygame import (
    GAME,
    LADDER_GAME,
    LadderToyGame,
    ladder_win_chance,
    register_ladder_toy,
    register_toy,
    search_gamble_chance,
)

import simlib
from simlib.cli import main
from simlib.core.ladder import LADDER_FILE, RUNG_DIR, Ladder
from simlib.errors import SimlibInputError
from simlib.games.registry import register
from simlib.report.tables import ladder_text

register_toy()
register_ladder_toy()

N = 4000
BUDGETS = [0, 4, 16]
PRESETS = ["normal", "hard", "trap"]
TIMING = ["sec_per_game", "games_per_sec"]


def exact(preset: str, bot: str, budget: int = 0, settings: dict | None = None) -> float:
    v = LADDER_GAME.resolve(preset, settings)
    return ladder_win_chance(v["p"], v["gamble"], v["max_rounds"], v["majority"], bot, budget)


@pytest.fixture(scope="module")
def lad() -> Ladder:
    return simlib.ladder("toyladder", presets=PRESETS, budgets=BUDGETS, games=N, seed=11,
                         progress=False)


def test_exact_helpers_match_brute_force():
    # P(Bin(b, g) > Bin(b, p)) by enumerating both counts; the toy's exact chances rest on it
    for p, g, b in [(0.5, 0.6, 3), (0.4, 0.45, 5), (0.5, 0.4, 4), (0.3, 0.9, 1)]:
        brute = sum(
            comb(b, i) * p**i * (1 - p) ** (b - i) * comb(b, j) * g**j * (1 - g) ** (b - j)
            for i, j in product(range(b + 1), repeat=2)
            if j > i
        )
        assert search_gamble_chance(p, g, b) == pytest.approx(brute, rel=1e-12)
    assert search_gamble_chance(0.5, 0.6, 0) == 0.0
    # a game of 1 round: won with the round chance itself
    r = 0.5 + search_gamble_chance(0.5, 0.6, 4) * 0.1
    assert ladder_win_chance(0.5, 0.6, 1, True, "search", 4) == pytest.approx(r)


def test_table_matches_exact_chances(lad):
    t = lad.table()
    assert list(t["preset"].unique()) == PRESETS
    rungs = ["steady", "gambler", "search@0", "search@4", "search@16"]
    assert list(t["rung"]) == rungs * len(PRESETS)
    assert list(t["budget"].astype(object).where(t["budget"].notna(), None)) == [
        None, None, 0, 4, 16] * len(PRESETS)
    assert (t["games"] == N).all()
    for row in t.itertuples():
        want = exact(row.preset, row.bot, 0 if pd.isna(row.budget) else int(row.budget))
        se = math.sqrt(want * (1 - want) / N)
        assert abs(row.win_rate - want) <= 4.5 * se, (row.preset, row.rung, row.win_rate, want)
        assert row.win_rate == row.wins / N
        assert row.win_lo < row.win_rate < row.win_hi
        assert row.sec_per_game > 0 and row.games_per_sec == pytest.approx(1 / row.sec_per_game)


def test_budget_zero_plays_like_the_default_bot(lad):
    for preset in PRESETS:
        a = lad.rung(preset, "steady").results.df
        b = lad.rung(preset, "search", 0).results.df
        assert_same_games(a, b)
    s = lad.steps()
    zero = s[(s["rung"] == "search@0") & (s["against"] == "steady")]
    assert len(zero) == len(PRESETS)
    assert (zero["diff"] == 0).all() and (zero["discordant"] == 0).all()
    assert (zero["discordant_against"] == 0).all() and (zero["p_value"] == 1).all()


def test_rungs_are_simlib_run(lad):
    # every rung is exactly what simlib.run gives for the same arguments
    df = simlib.run("toyladder", preset="hard", settings={}, bot="search",
                    bot_params={"budget": 16}, games=N, seed=11, progress=False).df
    pd.testing.assert_frame_equal(lad.rung("hard", "search", 16).results.df, df)
    df = simlib.run("toyladder", preset="trap", bot="gambler", games=N, seed=11,
                    progress=False).df
    pd.testing.assert_frame_equal(lad.rung("trap", "gambler").results.df, df)


def test_steps_are_paired_differences(lad):
    s = lad.steps()
    t = lad.table().set_index(["preset", "rung"])["win_rate"]
    for preset in PRESETS:
        mine = s[s["preset"] == preset]
        pairs = list(zip(mine["rung"], mine["against"], mine["kind"], strict=True))
        assert pairs == [
            ("gambler", "steady", "vs default"),
            ("search@0", "steady", "vs default"),
            ("search@4", "search@0", "next budget"),
            ("search@4", "steady", "vs default"),
            ("search@16", "search@4", "next budget"),
            ("search@16", "steady", "vs default"),
        ]
    for row in s.itertuples():
        a = lad.rung(row.preset, *_rung(row.rung)).results.df["win"].to_numpy()
        b = lad.rung(row.preset, *_rung(row.against)).results.df["win"].to_numpy()
        assert row.discordant == int(np.sum(a & ~b))
        assert row.discordant_against == int(np.sum(~a & b))
        assert row.rate == t[(row.preset, row.rung)]
        assert row.diff == pytest.approx(row.rate - row.against_rate, abs=1e-15)
        assert row.diff_lo <= row.diff <= row.diff_hi
        # the exact difference of win chances lies in the interval (95%, so check loosely:
        # the 4.5-se bound on the paired difference, se from the discordant games)
        want = exact(row.preset, *_exact_args(row.rung)) - exact(row.preset,
                                                                  *_exact_args(row.against))
        se = math.sqrt((row.discordant + row.discordant_against) / N**2 + 1e-12)
        assert abs(row.diff - want) <= 4.5 * se + 1e-9, (row, want)


def _rung(label: str) -> tuple[str, int | None]:
    if "@" in label:
        bot, budget = label.split("@")
        return bot, int(budget)
    return label, None


def _exact_args(label: str) -> tuple[str, int]:
    bot, budget = _rung(label)
    return bot, budget or 0


def test_the_gamble_is_coupled_with_the_steady_action(lad):
    # with the gamble better (normal, hard) a search game wins whenever steady wins it: the
    # same draw wins the round under either action, so the search never loses a game steady
    # wins; on the trap preset it never wins one steady loses
    s = lad.steps()
    vs = s[(s["kind"] == "vs default") & s["rung"].str.startswith("search")]
    assert (vs[vs["preset"] != "trap"]["discordant_against"] == 0).all()
    assert (vs[vs["preset"] == "trap"]["discordant"] == 0).all()


def test_headroom(lad):
    h = lad.headroom().set_index("preset")
    t = lad.table()
    for preset in PRESETS:
        row = h.loc[preset]
        search = t[(t["preset"] == preset) & t["budget"].notna()]
        best = search.loc[search["win_rate"].idxmax()]
        assert row["best_budget"] == best["budget"] and row["best_rate"] == best["win_rate"]
        assert row["default_bot"] == "steady"
        assert row["default_rate"] == t[(t["preset"] == preset) & (t["rung"] == "steady")][
            "win_rate"].iloc[0]
        assert row["diff"] == pytest.approx(row["best_rate"] - row["default_rate"], abs=1e-15)
        assert row["top_budget"] == 16
    # exact chances: the gamble pays on normal and hard, so more budget is better (the
    # exact gaps between budgets are several standard errors of the paired difference);
    # on trap the gamble is worse and budget 0 (= steady) is the best search rung
    assert h.loc["normal", "best_budget"] == 16 and h.loc["hard", "best_budget"] == 16
    assert h.loc["trap", "best_budget"] == 0 and h.loc["trap", "diff"] == 0
    assert h.loc["normal", "diff_lo"] > 0.1 and h.loc["trap", "top_diff_hi"] < 0


def test_same_seed_same_ladder_on_any_chunking_and_threads(lad):
    other = simlib.ladder("toyladder", presets=PRESETS, budgets=BUDGETS, games=N, seed=11,
                          progress=False, threads=1, chunk_size=777)
    pd.testing.assert_frame_equal(other.table().drop(columns=TIMING),
                                  lad.table().drop(columns=TIMING))
    pd.testing.assert_frame_equal(other.steps(), lad.steps())
    different = simlib.ladder("toyladder", presets=["normal"], budgets=[4], games=N, seed=12,
                              progress=False)
    assert not different.rung("normal", "search", 4).results.df.equals(
        lad.rung("normal", "search", 4).results.df)


def test_ladder_settings_and_settings_reach_every_rung():
    class Short(LadderToyGame):
        name = "toyladder_short"

        def ladder_settings(self):
            return {"max_rounds": 3, "gamble": 0.9}

    g = Short()
    register(g)
    lad = simlib.ladder(g, budgets=[0, 2], games=500, seed=1, settings={"gamble": 0.7},
                        progress=False)
    for r in lad.rungs:
        assert r.results.meta["settings"]["max_rounds"] == 3
        assert r.results.meta["settings"]["gamble"] == 0.7
    assert lad.ladder_settings == {"max_rounds": 3, "gamble": 0.9}
    assert lad.settings == {"gamble": 0.7}


def test_resume_and_extend(tmp_path):
    out = tmp_path / "lad"
    kw = dict(presets=["normal", "trap"], budgets=[0, 8], seed=5, progress=False)
    first = simlib.ladder("toyladder", games=600, out=out, chunk_size=200, **kw)
    stored = json.loads((out / LADDER_FILE).read_text())
    assert stored["complete"] and stored["games"] == 600 and len(stored["rungs"]) == 8
    assert [r["name"] for r in stored["rungs"]][:2] == [
        "preset=normal,bot=steady", "preset=normal,bot=gambler"]
    assert stored["table"][0]["rung"] == "steady" and len(stored["headroom"]) == 2
    # lose a chunk of one rung and the whole of another: rerunning plays only those
    rung = out / RUNG_DIR / "preset=trap,bot=search,budget=8"
    chunks = sorted((rung / "chunks").iterdir())
    chunks[1].unlink()
    shutil.rmtree(out / RUNG_DIR / "preset=normal,bot=gambler")
    again = simlib.ladder("toyladder", games=600, out=out, **kw)
    pd.testing.assert_frame_equal(again.table().drop(columns=TIMING),
                                  first.table().drop(columns=TIMING))
    again_stored = json.loads((out / LADDER_FILE).read_text())
    times = {r["name"]: r for r in again_stored["rungs"]}
    old = {r["name"]: r for r in stored["rungs"]}
    assert times["preset=trap,bot=search,budget=8"]["games_timed"] == 800  # 600 + 200 again
    assert times["preset=normal,bot=gambler"]["games_timed"] == 600  # its folder was new
    assert times["preset=normal,bot=steady"] == old["preset=normal,bot=steady"]  # not replayed
    # extending: the first 600 games are kept, 400 more played
    more = simlib.ladder("toyladder", games=1000, out=out, **kw)
    fresh = simlib.ladder("toyladder", games=1000, **kw)
    pd.testing.assert_frame_equal(more.table().drop(columns=TIMING),
                                  fresh.table().drop(columns=TIMING))
    loaded = Ladder.load(out)
    pd.testing.assert_frame_equal(loaded.table(), more.table())
    pd.testing.assert_frame_equal(loaded.headroom(), more.headroom())


@pytest.mark.parametrize(
    "change, key",
    [
        ({"budgets": [0, 4]}, "budgets"),
        ({"seed": 6}, "seed"),
        ({"presets": ["normal"]}, "presets"),
        ({"bots": ["steady"]}, "bots"),
        ({"settings": {"max_rounds": 7}}, "settings"),
    ],
)
def test_a_different_ladder_folder_is_refused_untouched(tmp_path, change, key):
    out = tmp_path / "lad"
    kw = dict(presets=["normal", "trap"], budgets=[0, 8], seed=5, games=200, progress=False)
    simlib.ladder("toyladder", out=out, **kw)
    before = {p: p.stat().st_mtime_ns for p in out.rglob("*")}
    with pytest.raises(SimlibInputError, match=f"holds a different ladder \\({key}:"):
        simlib.ladder("toyladder", out=out, **{**kw, **change})
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*")} == before


def test_a_foreign_folder_is_refused(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(SimlibInputError, match="holds no skill ladder"):
        simlib.ladder("toyladder", games=10, out=tmp_path, progress=False)
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]
    run_dir = tmp_path / "run"
    simlib.run("toyladder", games=10, out=run_dir, progress=False)
    with pytest.raises(SimlibInputError, match="holds no skill ladder"):
        simlib.ladder("toyladder", games=10, out=run_dir, progress=False)


@pytest.mark.parametrize(
    "budgets, shown",
    [([-1], "-1"), ([65], "65"), ([2.5], "2.5"), (["4"], "'4'"), ("4", "'4'"), ([True], "True"),
     ([], "none given"), ([4, 4], "4 is listed twice")],
)
def test_bad_budgets(budgets, shown):
    with pytest.raises(SimlibInputError) as err:
        simlib.ladder("toyladder", budgets=budgets, games=10)
    msg = str(err.value)
    assert msg.startswith("budgets:") and shown in msg
    assert "integers from 0 to 64" in msg and "\n" not in msg


def test_game_without_search_has_no_ladder():
    with pytest.raises(SimlibInputError, match="toy has no 'search' bot, so no skill ladder; "
                                               "its bots: steady, bold"):
        simlib.ladder("toy", games=10)
    assert GAME.name == "toy"


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"bots": ["search"]}, "bots: 'search' is the ladder's own rung"),
        ({"bots": ["bold"]}, "bots: 'bold' is not a scripted bot here; allowed: steady, gambler"),
        ({"presets": ["expert"]}, "presets: 'expert' is not a preset here"),
        ({"games": 0}, "games: 0 is not allowed"),
        ({"settings": {"p": 2}}, "setting 'p'"),
        ({"threads": 0}, "threads"),
        ({"colour": 1}, "ladder: unexpected argument 'colour'"),
    ],
)
def test_bad_input(kwargs, match):
    with pytest.raises(SimlibInputError, match=match):
        simlib.ladder("toyladder", **{"games": 10, **kwargs})


def test_default_bot_is_always_a_rung():
    lad = simlib.ladder("toyladder", bots=["gambler"], budgets=[2], games=50, progress=False)
    assert [r.label for r in lad.rungs] == ["steady", "gambler", "search@2"]
    assert lad.bots == ["steady", "gambler"]


def test_unsorted_budgets_climb_in_order():
    lad = simlib.ladder("toyladder", budgets=[8, 0, 2], games=50, progress=False)
    assert lad.budgets == [0, 2, 8]
    assert [r.label for r in lad.rungs][-3:] == ["search@0", "search@2", "search@8"]


# --- the command line -------------------------------------------------------------------------
def run_cli(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def test_cli_ladder_prints_tables_and_writes_report(tmp_path, capsys):
    report = tmp_path / "ladder.html"
    code, out, err = run_cli(
        capsys, "ladder", "toyladder", "--preset", "normal", "--preset", "trap", "--budgets",
        "0,4", "--games", 500, "--seed", 3, "--set", "max_rounds=7", "--out", tmp_path / "lad",
        "--report", report, "--no-progress",
    )
    assert code == 0, err
    for text in ("skill ladder, 500 games per rung, seed 3, budgets 0, 4", "search@4",
                 "gambler", "next budget", "vs default", "headroom", "readings: majority=true "
                 "(TOY-001)", "95% Wilson CI"):
        assert text in out, text
    page = report.read_text()
    assert "<h2>Skill ladder</h2>" in page and "data:image/png;base64," in page
    assert "TOY-001" in page and "simlib ladder toyladder --preset normal" in page
    lad = Ladder.load(tmp_path / "lad")
    assert lad.presets == ["normal", "trap"] and lad.budgets == [0, 4]
    assert all(r.results.meta["settings"]["max_rounds"] == 7 for r in lad.rungs)
    # the same command again resumes (nothing to play) and prints the same rates
    code, again, _ = run_cli(
        capsys, "ladder", "toyladder", "--preset", "normal", "--preset", "trap", "--budgets",
        "0,4", "--games", 500, "--seed", 3, "--set", "max_rounds=7", "--out", tmp_path / "lad",
        "--no-progress",
    )
    assert code == 0 and again.splitlines()[:13] == out.splitlines()[:13]


@pytest.mark.parametrize(
    "argv, fragments",
    [
        (["ladder", "toyladder", "--budgets", "0,99", "--games", "10"], ["budgets: 99",
                                                                          "from 0 to 64"]),
        (["ladder", "toyladder", "--budgets", "0,x", "--games", "10"], ["--budgets", "'x'"]),
        (["ladder", "toyladder", "--budgets", "", "--games", "10"], ["--budgets"]),
        (["ladder", "toy", "--games", "10"], ["toy has no 'search' bot"]),
        (["ladder", "chess", "--games", "10"], ["game 'chess' is not known"]),
        (["ladder", "toyladder", "--preset", "expert", "--games", "10"], ["presets: 'expert'"]),
        (["ladder", "toyladder", "--games", "10", "--set", "p=3"], ["setting 'p'"]),
        (["ladder", "toyladder"], ["--games"]),
        (["ladder", "toyladder", "--games", "10", "--bot", "search"], ["bots: 'search'"]),
    ],
)
def test_cli_ladder_bad_input(capsys, tmp_path, argv, fragments):
    code, _, err = run_cli(capsys, *argv, "--out", tmp_path / "x")
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("simlib: error: "), err
    for f in fragments:
        assert f in lines[0], lines[0]
    assert not (tmp_path / "x").exists()


def test_cli_report_of_a_ladder_folder(tmp_path, capsys):
    simlib.ladder("toyladder", budgets=[0, 2], games=100, out=tmp_path / "lad", progress=False)
    code, out, err = run_cli(capsys, "report", tmp_path / "lad")
    assert code == 0, err
    assert "<h2>Skill ladder</h2>" in (tmp_path / "lad" / "report.html").read_text()


def test_python_dash_m_simlib(tmp_path):
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "simlib", "ladder", "toy", "--games", "5"],
                         capture_output=True, text=True, timeout=300,
                         env={**__import__("os").environ, "SIMLIB_EXTRA_GAMES": "toygame:GAME",
                              "PYTHONPATH": f"{Path(__file__).parent}:{Path(__file__).parents[1]}"})
    assert out.returncode == 2 and "toy has no 'search' bot" in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


# --- experiments with a ladder ----------------------------------------------------------------
def ladder_toml(tmp_path: Path, ladder: str = "", name: str = "exp", top: str = "") -> Path:
    """An experiment file: ``top`` is a top-level line, ``ladder`` a [ladder] table."""
    path = tmp_path / f"{name}.toml"
    path.write_text(
        f'title = "ladder toy"\ngame = "toyladder"\ngames = 300\nseed = 4\n'
        f'out = "{tmp_path / name}"\npresets = ["normal", "hard"]\n{top}\n'
        f"[settings]\nmax_rounds = 7\n{ladder}\n"
    )
    return path


def test_experiment_with_a_ladder_list(tmp_path, capsys):
    from simlib.experiment import load_experiment, run_experiment

    path = ladder_toml(tmp_path, top="ladder = [0, 4]")
    exp = load_experiment(path)
    assert exp.ladder is not None and exp.ladder.budgets == [0, 4]
    assert exp.ladder.presets == ["normal", "hard"] and exp.ladder.games == 300
    run_experiment(exp, progress=False)
    lad = Ladder.load(tmp_path / "exp" / "ladder")
    assert [r.label for r in lad.rungs][:4] == ["steady", "gambler", "search@0", "search@4"]
    assert all(r.results.meta["settings"]["max_rounds"] == 7 for r in lad.rungs)
    assert all(r.results.meta["seed"] == 4 for r in lad.rungs)
    page = (tmp_path / "exp" / "report.html").read_text()
    assert "<h2>Skill ladder</h2>" in page and "search@4" in page
    record = json.loads((tmp_path / "exp" / "experiment.json").read_text())
    assert record["ladder"]["budgets"] == [0, 4] and record["ladder"]["games"] == 300
    # the command line prints the ladder too, and 'simlib report' keeps its section
    code = main(["experiment", str(path), "--no-progress"])
    out = capsys.readouterr().out
    assert code == 0 and "skill ladder, 300 games per rung" in out
    (tmp_path / "exp" / "report.html").unlink()
    assert main(["report", str(tmp_path / "exp")]) == 0
    assert "<h2>Skill ladder</h2>" in (tmp_path / "exp" / "report.html").read_text()


def test_experiment_with_a_ladder_table(tmp_path):
    from simlib.experiment import load_experiment, run_experiment

    path = ladder_toml(tmp_path, '[ladder]\nbudgets = [2, 0]\ngames = 150\npresets = ["trap"]\n'
                                 'bots = ["steady"]')
    exp = load_experiment(path)
    assert exp.ladder.budgets == [0, 2] and exp.ladder.games == 150
    res = run_experiment(exp, progress=False)
    assert len(res.df) == 600  # the cells keep their own games
    lad = Ladder.load(tmp_path / "exp" / "ladder")
    assert [r.label for r in lad.rungs] == ["steady", "search@0", "search@2"]
    assert lad.presets == ["trap"] and all(len(r.results.df) == 150 for r in lad.rungs)
    # the same file again resumes; another ladder in the same folder is refused untouched
    run_experiment(load_experiment(path), progress=False)
    other = ladder_toml(tmp_path, "[ladder]\nbudgets = [0, 3]\ngames = 150\n"
                                  'presets = ["trap"]\nbots = ["steady"]', name="exp")
    with pytest.raises(SimlibInputError, match="holds a different ladder \\(budgets:"):
        run_experiment(load_experiment(other), progress=False)


@pytest.mark.parametrize(
    "ladder, match",
    [
        ("ladder = [0, 99]", r"\[ladder\] budgets: 99 is not allowed"),
        ('ladder = "big"', "'ladder' must be a list of search budgets"),
        ("[ladder]\nrungs = 3", "unknown key 'ladder.rungs'; allowed: budgets, games"),
        ("[ladder]\ngames = 0", r"\[ladder\] games: 0 is not allowed"),
        ('[ladder]\nbots = ["search"]', r"\[ladder\] bots: 'search'"),
    ],
)
def test_experiment_ladder_bad_input(tmp_path, ladder, match):
    from simlib.experiment import load_experiment

    if ladder.startswith("ladder ="):
        path = ladder_toml(tmp_path, top=ladder)
    else:
        path = ladder_toml(tmp_path, ladder)
    with pytest.raises(SimlibInputError, match=match):
        load_experiment(path)


def test_experiment_ladder_needs_a_search_bot(tmp_path):
    from simlib.experiment import load_experiment

    path = tmp_path / "toy.toml"
    path.write_text('game = "toy"\ngames = 10\nladder = [0, 4]\n')
    with pytest.raises(SimlibInputError, match=r"\[ladder\] toy has no 'search' bot"):
        load_experiment(path)


def test_an_interrupted_ladder_loads_as_partial(tmp_path):
    out = tmp_path / "lad"
    simlib.ladder("toyladder", budgets=[0, 2], games=400, out=out, chunk_size=100,
                  progress=False)
    chunk = sorted((out / RUNG_DIR / "preset=normal,bot=search,budget=2" / "chunks").iterdir())
    chunk[-1].unlink()
    lad = Ladder.load(out)
    assert not lad.complete and "(partial:" in ladder_text(lad)
    assert lad.table()["games"].tolist() == [400, 400, 400, 300]
    shutil.rmtree(out / RUNG_DIR / "preset=normal,bot=gambler")
    with pytest.raises(SimlibInputError, match="is unfinished"):
        Ladder.load(out)
    with pytest.raises(SimlibInputError, match="is not a ladder folder"):
        Ladder.load(tmp_path)


def test_dask_backend_equals_local(lad):
    # one LocalCluster for the whole ladder (made and closed by the ladder itself)
    pytest.importorskip("dask.distributed")
    from test_runner import time_limit

    with time_limit(240):
        other = simlib.ladder("toyladder", presets=["hard"], budgets=[0, 4], games=N, seed=11,
                              progress=False, backend="dask")
    want = lad.table()
    want = want[(want["preset"] == "hard") & want["rung"].isin(
        ["steady", "gambler", "search@0", "search@4"])].reset_index(drop=True)
    pd.testing.assert_frame_equal(other.table().drop(columns=TIMING),
                                  want.drop(columns=TIMING))
