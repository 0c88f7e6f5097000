"""sensitivity: a known ranking on a synthetic game, and SALib's Sobol indices on Ishigami."""

from __future__ import annotations

import math

import matplotlib
import numpy as np
import pytest
from toygame import exact_win_chance, register_handicap_toy, register_toy

import simlib
from simlib.cli import main
from simlib.core.sensitivity import sobol_indices
from simlib.errors import SimlibInputError
from simlib.report import charts

matplotlib.use("Agg")
register_toy()
register_handicap_toy()

RANGES = {"p": (0.45, 0.55), "handicap": (0, 2), "bot.risk": (0.0, 0.2)}


def exact(p: float, handicap: int = 0, risk: float = 0.0) -> float:
    """Exact win chance of the toy game (10 rounds, steady bot)."""
    return exact_win_chance(p - 0.01 * handicap, 10, "steady", risk)[0]


def test_oat_recovers_known_ranking_and_effects():
    """Exact effects: p +25.1 pp, handicap -4.9 pp, bot.risk +2.4 pp (at p = 0.5).

    9,600 paired games per configuration: the effects' paired sd is under 0.003, and the
    gaps between them are over 2 pp (over seven sd: false-alarm rate below 1e-9); the
    0.01 bound on each effect's error is over three sd (false-alarm rate below 0.3%).
    """
    want = {
        "p": exact(0.55) - exact(0.45),
        "handicap": exact(0.5, 2) - exact(0.5, 0),
        "bot.risk": exact(0.5, 0, 0.2) - exact(0.5),
    }
    res = simlib.sensitivity("toy_handicap", RANGES, seed=3, progress=False)
    t = res.table
    assert list(t["param"]) == ["p", "handicap", "bot.risk"]
    for _, row in t.iterrows():
        assert abs(row["effect"] - want[row["param"]]) < 0.01
        assert row["effect_lo"] <= row["effect"] <= row["effect_hi"]
        assert row["effect_hi"] - row["effect_lo"] < 0.02
    assert (t["rate_base"] == t["rate_base"].iloc[0]).all()
    assert t.loc[t["param"] == "handicap", "base"].item() == 0
    assert (t["p_holm"] >= t["p_value"]).all()
    ax = charts.tornado(t)
    assert len(ax.patches) == 3 and "baseline" in ax.get_title()


def test_sobol_indices_match_ishigami():
    """SALib's documented Ishigami values (a=7, b=0.1): S1 0.3139, 0.4424, 0; ST 0.5576,
    0.4424, 0.2437. With N = 2**13 base points the estimators' sd is about 0.01: the 0.03
    tolerance is three sd (false-alarm rate under 1% per index; the sampler is seeded).
    """
    from SALib.test_functions import Ishigami

    bounds = [(-math.pi, math.pi)] * 3
    table, points = sobol_indices(Ishigami.evaluate, ["x1", "x2", "x3"], 2**13,
                                  bounds=bounds, seed=1)
    np.testing.assert_allclose(table["S1"], [0.3139, 0.4424, 0.0], atol=0.03)
    np.testing.assert_allclose(table["ST"], [0.5576, 0.4424, 0.2437], atol=0.03)
    assert len(points) == 2**13 * 5


def test_sobol_on_the_game_ranks_p_first():
    res = simlib.sensitivity("toy", {"p": (0.3, 0.7), "bot.risk": (0.0, 0.2)}, "sobol",
                             games=400, samples=16, seed=2, progress=False)
    t = res.table
    assert list(t["param"]) == ["p", "bot.risk"]
    assert t["ST"].iloc[0] > 0.8 and t["ST"].iloc[1] < 0.1
    assert len(res.samples) == 16 * 4 and res.samples["p"].between(0.3, 0.7).all()


def test_reading_as_a_two_valued_parameter():
    """A reading (a choice setting) moves between its two values; the rows say which."""
    res = simlib.sensitivity(
        "subterra", {"out_of_time_rule": ("card", "rulebook"), "ropes": (0, 6)}, games=300,
        progress=False,
    )
    row = res.table.set_index("param").loc["out_of_time_rule"]
    assert (row["low"], row["high"], row["base"]) == ("card", "rulebook", "card")
    alone = simlib.run("subterra", settings={"out_of_time_rule": "rulebook"}, games=300,
                       progress=False)
    assert row["rate_high"] == alone.df["win"].mean()
    with pytest.raises(SimlibInputError, match="same value"):
        simlib.sensitivity("subterra", {"out_of_time_rule": ("card", "card")}, games=10,
                           progress=False)


@pytest.mark.parametrize(
    "params,method,fragment",
    [
        ({"p": (0.6, 0.4)}, "oat", "low < high"),
        ({"p": (0.4, 0.4)}, "oat", "low < high"),
        ({"p": ("a", 0.4)}, "oat", "must be a number"),
        ({"nope": (0, 1)}, "oat", "nope"),
        ({"p": (0.4,)}, "oat", "pair"),
        ({}, "oat", "params"),
        ({"p": (0.4, 0.6)}, "morris", "method"),
    ],
)
def test_bad_input(params, method, fragment):
    with pytest.raises(SimlibInputError, match=fragment):
        simlib.sensitivity("toy", params, method, games=100, progress=False)


def test_cli(tmp_path, capsys):
    chart = tmp_path / "t.png"
    assert main(["sensitivity", "toy", "--param", "p=0.4:0.6", "--param", "bot.risk=0:0.5",
                 "--games", "1000", "--chart", str(chart), "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "effect" in out and chart.is_file()
    for argv, fragment in [
        (["--param", "p=0.6:0.4"], "low < high"),
        (["--param", "p=x"], "KEY=low:high"),
        (["--param", "p=a:b"], "must be a number"),
    ]:
        assert main(["sensitivity", "toy", "--games", "100", "--no-progress", *argv]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and fragment in err[0], err
