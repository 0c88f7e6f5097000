"""Sub Terra's difficulty bars (20,000 games per cell).

Win rate (any medal) must fall Normal > Advanced > Expert and rise with the hazard deck,
with 95% Wilson intervals that do not overlap and each step significant by the paired
exact McNemar test (the runs share a seed). The steps are 6 to 12 points, the intervals
about +-0.6. The runs are deterministic (fixed seed), so these are exact checks of the
shipped engine and default bot, not random tests.

The hazard sweep is taken round Normal's printed deck for 4 cavers (22 of the pool's 25
cards), so its middle cell is the Normal cell of the difficulty check: the same games
(same settings, seed and bot give the same rows), played once and kept for the module.
"""

import functools

import pytest

import simlib

GAMES = 20_000
SEED = 2026


def _intervals(res, by):
    s = res.summary(by=by).set_index(by)
    return s["win_lo"], s["win_hi"], s["win_rate"]


@functools.cache
def _run(preset="normal", hazard_cards=None):
    settings = {} if hazard_cards is None else {"hazard_cards": hazard_cards}
    return simlib.run("subterra", preset=preset, settings=settings, games=GAMES, seed=SEED,
                      progress=False)


@pytest.mark.slow
def test_win_rate_falls_with_difficulty():
    runs = [_run(p) for p in ("normal", "advanced", "expert")]
    lo, hi, rate = _intervals(simlib.Results.concat(runs), "preset")
    assert hi["advanced"] < lo["normal"], rate.to_dict()
    assert hi["expert"] < lo["advanced"], rate.to_dict()
    _paired_steps(runs)


def _paired_steps(runs):
    for easier, harder in zip(runs[:-1], runs[1:], strict=True):
        c = simlib.compare(easier, harder)
        assert c.paired and c.diff_lo > 0, str(c)


@pytest.mark.slow
def test_win_rate_rises_with_hazard_cards():
    normal = _run()
    assert set(normal.df["hazard_cards"]) == {22}  # the printed deck: the shared cell
    sw = simlib.Results.concat([_run(hazard_cards=19), normal, _run(hazard_cards=25)])
    lo, hi, rate = _intervals(sw, "hazard_cards")
    assert hi[19] < lo[22], rate.to_dict()
    assert hi[22] < lo[25], rate.to_dict()
    _paired_steps([_run(hazard_cards=25), normal, _run(hazard_cards=19)])
