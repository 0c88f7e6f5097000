"""Terminus Breach TD as a simlib game: settings, data overrides, bots, the command line."""

from __future__ import annotations

import numpy as np
import pytest

import simlib
from simlib.cli import main
from simlib.errors import SimlibInputError
from simlib.games.registry import game_names, get_game
from simlib.games.terminus import compile as tc

G = get_game("terminus")


def test_registered_with_presets_bots_and_outcomes():
    assert "terminus" in game_names()
    assert set(G.presets) == {"normal", "heroic", "legendary"}
    assert {b.name for b in G.bots} == {"builder", "killer", "petitioner", "search"}
    assert G.outcomes == ("victory", "retreat")
    for b in G.bots:
        assert all(isinstance(v, float) for v in b.params.values())
        assert len(b.params) >= 8 or b.name == 'search'


@pytest.mark.parametrize("key,value,fragment", [
    ("map", "hard", "setting 'map'"),
    ("race1", "orcs", "setting 'race1'"),
    ("class0", "rogue", "setting 'class0'"),
    ("players", 7, "setting 'players'"),
    ("draw_modifier", "1,2,x,4,5", "setting 'draw_modifier'"),
    ("slow_ladder", "4211", "setting 'slow_ladder'"),
])
def test_bad_settings_name_the_key(key, value, fragment):
    with pytest.raises(SimlibInputError, match=fragment):
        G.resolve("normal", {key: value})


def test_bot_parameter_bounds():
    with pytest.raises(SimlibInputError, match="favor_buy"):
        G.bot("petitioner").resolve_params({"favor_buy": 2})
    with pytest.raises(SimlibInputError, match="not a parameter"):
        G.bot("builder").resolve_params({"nerve": 1})


def test_data_override_file(tmp_path):
    # a designer's file may hold only what it changes; bad entries name table and key
    bad = tmp_path / "bad.toml"
    bad.write_text("[drakka]\ngoblin_runner = { faction = 'Troop', stats = [0, 3, 5, 1, 0] }\n")
    with pytest.raises(SimlibInputError, match="drakka.goblin_runner.stats"):
        G.resolve("normal", {"data": str(bad)})
    unknown = tmp_path / "unknown.toml"
    unknown.write_text("[dragons]\nx = 1\n")
    with pytest.raises(SimlibInputError, match="unknown table 'dragons'"):
        G.resolve("normal", {"data": str(unknown)})
    with pytest.raises(SimlibInputError, match="does not exist"):
        G.resolve("normal", {"data": str(tmp_path / "missing.toml")})
    # faster Drakka get through more often: the override is used
    fast = tmp_path / "fast.toml"
    fast.write_text("[drakka]\n" + "\n".join(
        f"{n} = {{ faction = '{c['faction']}', stats = [{c['stats'][0] + 3}, "
        f"{c['stats'][1]}, {c['stats'][2]}, {c['stats'][3]}, {c['stats'][4]}] }}"
        for n, c in tc.load_data("default")["drakka"].items()) + "\n")
    base = simlib.run("terminus", games=400, seed=2, progress=False)
    quick = simlib.run("terminus", settings={"data": str(fast)}, games=400, seed=2,
                       progress=False)
    assert quick.df["leaks"].mean() > base.df["leaks"].mean()


def test_cli_run_and_one_line_errors(capsys, tmp_path):
    code = main(["run", "terminus", "--preset", "legendary", "--games", "300", "--set",
                 "players=1", "--set", "race0=elves", "--bot", "killer", "--out",
                 str(tmp_path / "r")])
    out = capsys.readouterr().out
    assert code == 0 and "Terminus Breach TD" in out and "legendary" in out
    code = main(["run", "terminus", "--games", "10", "--set", "race1=humans"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "race1" in err[0] and "Traceback" not in err[0]


def test_each_bot_plays_differently():
    rows = {}
    for name in ("builder", "killer", "petitioner"):
        rows[name] = simlib.run("terminus", bot=name, games=300, seed=5, progress=False).df
    assert rows["petitioner"]["favors_played"].mean() > rows["killer"]["favors_played"].mean()
    assert not rows["builder"]["vp_0"].equals(rows["killer"]["vp_0"])


def test_records_per_seat_and_battle():
    p = G.compile(G.resolve("normal", {"players": 1, "race0": "treefolk"}))
    b = G.bot("builder")
    r = G.play_batch(p, b.id, np.array(list(b.params.values())), 1, 0, 200)
    assert (r["race"][:, 0] == 2).all() and (r["race"][:, 1:] == -1).all()
    assert (r["vp_winner"] == 0).all()
    assert (r["poison_kills"] > 0).any()  # Treefolk towers poison


def test_random_lineup_deals_distinct_races():
    # TB-041 under lineup=random: distinct races each game, every race and class dealt
    p = G.compile(G.resolve("normal", {"players": 3, "lineup": "random",
                                       "race0": "elves", "race1": "elves"}))
    b = G.bot("builder")
    r = G.play_batch(p, b.id, np.array(list(b.params.values())), 1, 0, 1200)
    races = r["race"][:, :3]
    assert all(len(set(row)) == 3 for row in races.tolist())
    counts = np.bincount(races.ravel(), minlength=4)
    # each race is dealt 3/4 of the time: 900 of 1200 games, 5 sigma band (~1e-6 alarm)
    assert np.all(np.abs(counts - 900) < 5 * np.sqrt(1200 * 0.75 * 0.25))
    assert set(np.unique(r["klass"][:, :3])) == {0, 1, 2}
    df = G.records_to_frame(r)
    won = df["vp_winner"].to_numpy()
    assert (df["winner_race"].cat.codes.to_numpy() == races[np.arange(1200), won]).all()


@pytest.mark.parametrize("name", ["terminus_maps.toml", "terminus_races.toml",
                                  "terminus_calibration.toml"])
def test_shipped_experiments_run_small(name, tmp_path):
    # the shipped files parse and run end to end (reduced to 40 games a cell here)
    from pathlib import Path

    import tomllib

    from simlib.experiment import experiment_from_dict, run_experiment

    src = Path(__file__).resolve().parents[1] / "experiments" / name
    data = tomllib.loads(src.read_text())
    data["games"] = 40
    data["out"] = str(tmp_path / "out")
    res = run_experiment(experiment_from_dict(data), progress=False)
    assert len(res.df) == 40 * len(res.df.groupby(["preset", "bot", *data.get("grid", {})],
                                                 observed=True))
    assert (tmp_path / "out" / "report.html").is_file()
