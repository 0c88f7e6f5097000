"""The issue's survival bar, checked at full size (20,000 games per cell).

Survival (all 5 Battles) must fall Normal > Heroic > Legendary for the default bot and two
players, with 95% Wilson intervals that do not overlap. The runs are deterministic (fixed
seed), so this is an exact check of the shipped engine, content and default bot.
"""

import pytest

import simlib

GAMES = 20_000
SEED = 2026


@pytest.mark.slow
def test_survival_falls_with_the_map():
    runs = [simlib.run("terminus", preset=p, settings={"players": 2}, games=GAMES, seed=SEED,
                       progress=False) for p in ("normal", "heroic", "legendary")]
    s = simlib.Results.concat(runs).summary(by="preset").set_index("preset")
    rate = s["win_rate"].to_dict()
    assert s.loc["heroic", "win_hi"] < s.loc["normal", "win_lo"], rate
    assert s.loc["legendary", "win_hi"] < s.loc["heroic", "win_lo"], rate
