"""Inputs that were silently taken or failed late: each is now one line, before any work."""

from __future__ import annotations

import time

import pytest
from toygame import register_data_toy, register_toy

import simlib
from simlib.cli import main, parse_values
from simlib.core.runner import MAX_SWEEP_VALUES
from simlib.errors import SimlibInputError
from simlib.experiment import load_experiment

register_toy()
register_data_toy()


@pytest.mark.parametrize("spec", ["0:1000000000000", "0:1e9:1e-6", "0:1001"])
def test_a_huge_sweep_range_is_refused_before_it_is_built(spec):
    t0 = time.process_time()
    with pytest.raises(SimlibInputError, match=f"at most {MAX_SWEEP_VALUES:,}"):
        parse_values(spec)
    assert time.process_time() - t0 < 1.0  # not built: a list of 10**12 would never end
    assert len(parse_values(f"0:{MAX_SWEEP_VALUES}")) == MAX_SWEEP_VALUES


def test_the_api_sweep_takes_a_bounded_number_of_values():
    def forever():
        while True:
            yield 5

    with pytest.raises(SimlibInputError, match="more than 1,000 values"):
        simlib.sweep("toy", "max_rounds", forever(), games=10, progress=False)


def test_two_values_sharing_a_folder_name_are_refused_before_running(tmp_path):
    (tmp_path / "d").mkdir()
    a, b = tmp_path / "d" / "a.toml", tmp_path / "d_a.toml"
    for f in (a, b):
        f.write_text("p = 0.5\n")
    values = [str(a), str(b)]
    with pytest.raises(SimlibInputError, match="would share the folder name"):
        simlib.sweep("toy_data", "data", values, games=10, out=tmp_path / "sw", progress=False)
    assert not (tmp_path / "sw").exists()


def test_a_setting_given_twice_is_refused(capsys):
    code = main(["run", "toy", "--set", "max_rounds=4", "--set", "max_rounds=6", "--games", "5"])
    assert code == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "'max_rounds' is given twice" in err


@pytest.mark.parametrize("value", [True, False])
def test_a_boolean_is_not_a_bot_parameter_number(value):
    with pytest.raises(SimlibInputError, match="bot parameter 'risk'"):
        simlib.run("toy", bot="bold", bot_params={"risk": value}, games=5, progress=False)


def test_runs_of_two_games_are_not_compared(tmp_path):
    a = simlib.run("toy", games=50, seed=1, out=tmp_path / "a", progress=False)
    b = simlib.run("toy_data", games=50, seed=1, out=tmp_path / "b", progress=False)
    with pytest.raises(SimlibInputError, match="compare runs of one game"):
        simlib.compare(a, b)
    assert main(["compare", str(tmp_path / "a"), str(tmp_path / "b")]) == 2


def test_out_expands_the_home_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    simlib.run("toy", games=20, out="~/x", progress=False)
    assert (tmp_path / "home" / "x" / "run.json").is_file()
    assert not (tmp_path / "~").exists()


@pytest.mark.parametrize("out", [123, True, ""])
def test_out_must_be_a_path(out):
    with pytest.raises(SimlibInputError, match="out: expected a folder path"):
        simlib.run("toy", games=5, out=out, progress=False)


def test_experiment_out(tmp_path, monkeypatch):
    path = tmp_path / "e.toml"
    path.write_text('game = "toy"\ngames = 5\nout = 123\n')
    with pytest.raises(SimlibInputError, match="'out' must be a string") as err:
        load_experiment(path)
    assert str(path) in str(err.value)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    path.write_text('game = "toy"\ngames = 5\nout = "~/e"\n')
    assert load_experiment(path).out == tmp_path / "home" / "e"


@pytest.mark.parametrize("preset", [["normal"], {"a": 1}, 3])
def test_a_preset_that_is_not_a_name_is_one_line(preset):
    # a list used to raise "TypeError: unhashable type: 'list'"
    with pytest.raises(SimlibInputError, match="is not a preset of toy; allowed"):
        simlib.run("toy", preset=preset, games=10, progress=False)
