"""Terraria's difficulty bars (4,000 games per cell: intervals about +-1.5 points).

For the default bot and two players, the win rate must fall Easy > Medium > Hard with 95%
Wilson intervals apart and each step at least 10 points (the calibration's target, see
``data/objectives.toml``), and the modes must order Journey >= standard >= Enchanted Sundial
(on Medium, the default preset; both steps are also significant by the paired exact McNemar
test, since the runs share a seed). The runs are deterministic (fixed seed), so these are
exact checks of the shipped engine, content and default bot, not random tests.

Both checks need the Medium standard cell: it is played once (same call, same rows) and
kept for the module, which saves a sixth of the two tests' games.
"""

import functools

import pytest

import simlib

GAMES = 4_000
SEED = 2026


@functools.cache
def _run(preset, mode="standard"):
    return simlib.run("terraria", preset=preset, settings={"players": 2, "mode": mode},
                      games=GAMES, seed=SEED, progress=False)


@pytest.mark.slow
def test_win_rate_falls_easy_medium_hard():
    runs = [_run(p) for p in ("easy", "medium", "hard")]
    s = simlib.Results.concat(runs).summary(by="preset").set_index("preset")
    rate = s["win_rate"].to_dict()
    assert s.loc["medium", "win_hi"] < s.loc["easy", "win_lo"], rate
    assert s.loc["hard", "win_hi"] < s.loc["medium", "win_lo"], rate
    assert rate["easy"] - rate["medium"] >= 0.10 and rate["medium"] - rate["hard"] >= 0.10, rate


@pytest.mark.slow
def test_journey_standard_sundial_order():
    journey, standard, sundial = (_run("medium", m)
                                  for m in ("journey", "standard", "enchanted_sundial"))
    for better, worse in ((journey, standard), (standard, sundial)):
        c = simlib.compare(better, worse)
        assert c.paired
        assert c.diff_lo > 0, str(c)  # also p < 0.05 (two-sided)
