"""solve: the value of a setting that gives a target win rate, on a game with a known root."""

from __future__ import annotations

import pytest
from scipy.optimize import brentq
from toygame import exact_win_chance, register_handicap_toy, register_toy

import simlib
from simlib.cli import main
from simlib.errors import SimlibInputError

register_toy()
register_handicap_toy()


def test_finds_planted_real_root():
    """The toy game's exact win chance in ``p`` (10 rounds, steady bot) crosses 0.5 at p*.

    Each point plays 9,600 games (sd of a rate 0.005); near p* the win chance rises about
    2.4 per unit of p, so the sample root's sd is about 0.002: the 0.01 bound is five sd
    (false-alarm rate below 1e-6). The interval is pointwise 95% (fixed seed: deterministic).
    """
    root = brentq(lambda p: exact_win_chance(p, 10, "steady", 0.0)[0] - 0.5, 0.3, 0.8)
    sol = simlib.solve("toy", "p", 0.5, seed=5, progress=False)
    assert abs(sol.value - root) < 0.01
    assert sol.interval[0] <= root <= sol.interval[1]
    assert sol.interval[1] - sol.interval[0] < 0.03
    a, b = sol.bracket
    assert a["win_rate"] <= 0.5 <= b["win_rate"]
    assert sol.games == 9600 and (sol.curve["n"] == 9600).all()
    assert sol.curve["p"].is_monotonic_increasing and len(sol.curve) >= 4


def test_integer_returns_the_bracket():
    """handicap h plays p = 0.5 - 0.01 h: the target halfway between two exact rates.

    38,411 games per point (precision 0.005): sd 0.0023, and the target sits over 0.01
    from either exact rate (0.0099 or more), over four sd (false-alarm rate below 1e-4 per end).
    """
    exact = [exact_win_chance(0.5 - 0.01 * h, 10, "steady", 0.0)[0] for h in range(0, 41)]
    h0 = 6
    target = (exact[h0] + exact[h0 + 1]) / 2
    assert exact[h0] - target > 0.0099
    sol = simlib.solve("toy_handicap", "handicap", target, settings={"p": 0.5}, precision=0.005,
                       hi=40, seed=1, progress=False)
    assert [p["value"] for p in sol.bracket] == [h0, h0 + 1]
    assert sol.value in (h0, h0 + 1) and isinstance(sol.value, int)
    assert sol.interval[0] <= h0 and sol.interval[1] >= h0 + 1


def test_bot_parameter_and_common_random_numbers():
    sol = simlib.solve("toy", "bot.risk", 0.35, bot="bold", games=3000, seed=2,
                       progress=False)
    assert 0.0 <= sol.value <= 1.0
    # every point used the same seed: the first point equals a plain run on that seed
    row = sol.curve.iloc[0]
    res = simlib.run("toy", bot="bold", bot_params={"risk": row["bot.risk"]}, games=3000,
                     seed=2, progress=False)
    assert int(res.df["win"].sum()) == row["wins"]


def test_refuses_unbracketed_target_with_both_rates():
    with pytest.raises(SimlibInputError) as err:
        simlib.solve("toy", "p", 0.5, lo=0.0, hi=0.3, games=2000, progress=False)
    msg = str(err.value)
    assert "not bracketed" in msg and "at 0 and" in msg and "0.0%" in msg


@pytest.mark.parametrize(
    "kwargs,fragment",
    [
        ({"target": 1.0}, "target"),
        ({"target": 0}, "target"),
        ({"param": "nope"}, "nope"),
        ({"lo": 0.6, "hi": 0.4}, "low < high"),
        ({"lo": 0.5, "hi": 0.5}, "low < high"),
        ({"precision": 0.5}, "precision"),
        ({"lo": -1.0}, "outside its bounds"),
    ],
)
def test_bad_input(kwargs, fragment):
    args = {"param": "p", "target": 0.5, **kwargs}
    with pytest.raises(SimlibInputError, match=fragment):
        simlib.solve("toy", args.pop("param"), args.pop("target"), progress=False, **args)


def test_non_numeric_param_refused():
    with pytest.raises(SimlibInputError, match="not numeric"):
        simlib.solve("subterra", "difficulty", 0.5, progress=False)


def test_cli(capsys):
    assert main(["solve", "toy", "--param", "p", "--target", "0.4", "--games", "2000",
                 "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "p = " in out and "win_rate" in out
    for argv, fragment in [
        (["--target", "1.5"], "--target"),
        (["--target", "x"], "--target"),
        (["--range", "0.6:0.2"], "--range"),
        (["--range", "a:b"], "--range"),
        (["--precision", "0"], "--precision"),
        (["--param", "max_rounds", "--range", "1:2", "--target", "0.99"], "not bracketed"),
    ]:
        base = ["solve", "toy", "--param", "p", "--games", "500", "--no-progress"]
        assert main(base + argv) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and fragment in err[0], err
