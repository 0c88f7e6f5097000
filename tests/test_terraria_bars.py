"""Terraria's difficulty bars (4,000 games per cell: intervals about +-1.5 points).

The calibration's targets (``data/objectives.toml``), for the default bot and two players
in standard mode:

- the win rate falls Easy > Medium > Hard, each step at least 10 points with 95% Wilson
  intervals apart, and every interval lies between 10% and 90%, Easy's upper end below
  88% (the margin);
- every objective chain (Dig, Fight, Explore, Build) is completed in at least 5% of the
  wins of some preset: the lower end of the 95% Wilson interval of that share;
- the Wall of Flesh wins under half of the games won on every preset: the upper end of the
  95% Wilson interval of its share of the wins;

and the modes order Journey >= standard >= Enchanted Sundial on Medium, the default preset
(both steps also significant by the paired exact McNemar test, since the runs share a
seed).

The runs are deterministic (fixed seed), so these are exact checks of the shipped engine,
content and default bot. As statistical statements, each has a false-alarm rate (the chance
that a run of this size with another seed fails it while the true rates are those measured
at 5,000 games a preset, ``docs/terraria.md``), from the normal approximation of each
estimate: below 1e-11 for every bar. The margins, in standard errors of a 4,000-game
run, from the measured rate to where the bar would fail: the Fight chain's share of Hard
wins (14.2% of about 920 wins; the bar fails below 6.4%, where the interval's lower end
falls under 5%): 6.8; Easy's upper end (80.8%; fails above 87.0%): 9.9; the Wall of
Flesh's share of Hard wins (28.3%; fails above 46.7%): 12; Hard's lower end (23.0%;
fails below 11.0%): 18; the steps of at least 10 points (26.8 and 31.0 points): 17 and
20; the modes' steps (19.7 and 32.4 points, paired): over 15.

Every check needs the three presets' standard cells and the Medium Journey and Sundial
cells: each is played once (same call, same rows) and kept for the module.
"""

import functools

import pytest

import simlib
from simlib.core.stats import wilson_interval

GAMES = 4_000
SEED = 2026
PRESETS = ("easy", "medium", "hard")
CHAINS = ("dig", "fight", "explore", "build")


@functools.cache
def _run(preset, mode="standard"):
    return simlib.run("terraria", preset=preset, settings={"players": 2, "mode": mode},
                      games=GAMES, seed=SEED, progress=False)


@pytest.mark.slow
def test_win_rate_falls_easy_medium_hard():
    runs = [_run(p) for p in PRESETS]
    s = simlib.Results.concat(runs).summary(by="preset").set_index("preset")
    rate = s["win_rate"].to_dict()
    assert s.loc["medium", "win_hi"] < s.loc["easy", "win_lo"], rate
    assert s.loc["hard", "win_hi"] < s.loc["medium", "win_lo"], rate
    assert rate["easy"] - rate["medium"] >= 0.10 and rate["medium"] - rate["hard"] >= 0.10, rate
    assert (s["win_lo"] > 0.10).all() and (s["win_hi"] < 0.90).all(), rate
    assert s.loc["easy", "win_hi"] < 0.88, rate


def _shares_of_wins(preset):
    """Per route, ``(lower, upper)`` 95% Wilson bounds of its share of ``preset``'s wins."""
    wins = _run(preset).df
    wins = wins[wins["win"]]
    n = len(wins)
    counts = {c: int((wins[f"objectives_{c}"] >= 10).sum()) for c in CHAINS}
    counts["wall_of_flesh"] = int((wins["outcome"] == "won_wall_of_flesh").sum())
    return {k: tuple(float(x) for x in wilson_interval(v, n)) for k, v in counts.items()}


@pytest.mark.slow
def test_every_chain_is_completed_in_some_wins():
    shares = {p: _shares_of_wins(p) for p in PRESETS}
    for chain in CHAINS:
        best = max(shares[p][chain][0] for p in PRESETS)
        assert best >= 0.05, (chain, {p: shares[p][chain] for p in PRESETS})


@pytest.mark.slow
def test_the_wall_of_flesh_is_under_half_of_the_wins():
    for p in PRESETS:
        lo, hi = _shares_of_wins(p)["wall_of_flesh"]
        assert hi < 0.5, (p, lo, hi)


@pytest.mark.slow
def test_journey_standard_sundial_order():
    journey, standard, sundial = (_run("medium", m)
                                  for m in ("journey", "standard", "enchanted_sundial"))
    for better, worse in ((journey, standard), (standard, sundial)):
        c = simlib.compare(better, worse)
        assert c.paired
        assert c.diff_lo > 0, str(c)  # also p < 0.05 (two-sided)
