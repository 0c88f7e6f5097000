"""The issue's difficulty bars, checked at full size (100,000 games per cell).

Win rate (any medal) must fall Normal > Advanced > Expert and rise with the hazard deck,
with 95% Wilson intervals that do not overlap. The runs are deterministic (fixed seed), so
these are exact checks of the shipped engine and default bot, not random tests.
"""

import pytest

import simlib

GAMES = 100_000
SEED = 2026


def _intervals(res, by):
    s = res.summary(by=by).set_index(by)
    return s["win_lo"], s["win_hi"], s["win_rate"]


@pytest.mark.slow
def test_win_rate_falls_with_difficulty():
    runs = [simlib.run("subterra", preset=p, games=GAMES, seed=SEED, progress=False)
            for p in ("normal", "advanced", "expert")]
    lo, hi, rate = _intervals(simlib.Results.concat(runs), "preset")
    assert hi["advanced"] < lo["normal"], rate.to_dict()
    assert hi["expert"] < lo["advanced"], rate.to_dict()


@pytest.mark.slow
def test_win_rate_rises_with_hazard_cards():
    sw = simlib.sweep("subterra", "hazard_cards", [16, 20, 24], games=GAMES, seed=SEED,
                      progress=False)
    lo, hi, rate = _intervals(sw, "hazard_cards")
    assert hi[16] < lo[20], rate.to_dict()
    assert hi[20] < lo[24], rate.to_dict()
