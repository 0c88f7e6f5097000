"""Runs to a precision: the anytime-valid confidence sequence, the stopping rule, resume.

The coverage tests watch simulated Bernoulli streams with a known rate after every batch
and count the streams whose interval ever excludes the rate: a confidence sequence must
keep that share at or below 5% (Ville's inequality), where a fixed-n interval watched the
same way does not.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as st
from scipy.special import betaln
from toygame import register_toy

import simlib
from simlib.cli import main
from simlib.core import stats
from simlib.core.results import Results
from simlib.core.runner import PRECISION_LOOK, compare_to_precision, unpaired_games_needed
from simlib.errors import SimlibInputError
from simlib.experiment import load_experiment, run_experiment

register_toy()


def log_ratio(p, k, n, r):
    """Robbins' mixture log likelihood ratio, written out independently of stats.py."""
    a, b = r * p, r * (1 - p)
    return betaln(a + k, b + n - k) - betaln(a, b) - k * np.log(p) - (n - k) * np.log1p(-p)


# --- the sequence itself ------------------------------------------------------------------
@pytest.mark.parametrize("k,n", [(0, 50), (3, 10), (500, 1000), (4100, 10000), (9990, 10000)])
@pytest.mark.parametrize("prior", [50.0, 1246.4, 2804.4])
def test_interval_is_the_set_of_rates_not_rejected(k, n, prior):
    lo, hi = stats.confidence_sequence(k, n, prior_games=prior)
    grid = np.linspace(1e-6, 1 - 1e-6, 4001)
    inside = log_ratio(grid, k, n, prior) < math.log(20.0)
    assert inside.any()
    # every grid rate inside the set lies within [lo, hi], every one outside lies outside
    np.testing.assert_array_equal(inside, (grid >= lo - 1e-9) & (grid <= hi + 1e-9))


def test_wider_than_wilson_and_shrinks():
    for n in (1000, 10000, 100000):
        lo, hi = stats.confidence_sequence(n // 3, n)
        wlo, whi = stats.wilson_interval(n // 3, n)
        assert lo < wlo and hi > whi
    widths = [
        np.subtract(*stats.confidence_sequence(n // 2, n)[::-1]) for n in (10**3, 10**4, 10**5)
    ]
    assert widths[0] > widths[1] > widths[2]


def test_prior_tuned_for_precision():
    # tightest at the target: at the n where the tuned sequence reaches ±1.5 points, a
    # prior tuned for ±0.5 or ±5 points is wider
    r = stats.cs_prior_games(0.015)
    n = 10000
    widths = {}
    for h in (0.005, 0.015, 0.05):
        lo, hi = stats.confidence_sequence(n // 2, n, prior_games=stats.cs_prior_games(h))
        widths[h] = hi - lo
    assert widths[0.015] < widths[0.005] and widths[0.015] < widths[0.05]
    # the tuning's worst-case game count n* = r / x is where the half-width at p = 1/2
    # reaches the target (the normal approximation it was derived from: within 5%)
    x, n_star = stats._cs_tuning(0.015, 0.95)
    assert math.log((1 + x) / x) + 2 * math.log(20) == pytest.approx(1 / x)
    assert r == pytest.approx(x * n_star)
    m = int(n_star)
    lo, hi = stats.confidence_sequence(m // 2, m, prior_games=r)
    assert (hi - lo) / 2 == pytest.approx(0.015, rel=0.05)


def test_array_input_and_edges():
    lo, hi = stats.confidence_sequence(np.array([0, 5, 10]), 10)
    assert lo[0] == 0.0 and hi[2] == 1.0 and lo.shape == (3,)
    assert stats.confidence_sequence(0, 0) == (0.0, 1.0)


def test_coverage_under_optional_stopping():
    """Streams of known rate, looked at after every batch of 100 games up to 20,000.

    The share of streams whose sequence ever excludes the true rate must be <= 5%. With
    2,000 streams per rate, if the true miss rate were exactly 5% the count would exceed
    the bound (the 99.9th percentile of Binomial(2000, 0.05)) with chance 0.1%: that is
    the test's false-alarm rate per rate (the seed is fixed, so the test is
    deterministic). A Wilson interval watched the same way must fail the same check,
    which shows the check can fail.
    """
    rng = np.random.default_rng(20261202)
    streams, looks, batch = 2000, 200, 100
    n = np.arange(1, looks + 1) * batch
    r = stats.cs_prior_games(0.01)
    bound = int(st.binom.ppf(0.999, streams, 0.05))
    for p in (0.08, 0.35, 0.5, 0.8):
        k = np.cumsum(rng.binomial(batch, p, size=(streams, looks)), axis=1)
        miss = (log_ratio(p, k, n, r) >= math.log(20.0)).any(axis=1)
        assert miss.sum() <= bound, (p, miss.sum(), bound)
        wlo, whi = stats.wilson_interval(k, n)
        wilson_miss = ((p < wlo) | (p > whi)).any(axis=1)
        assert wilson_miss.sum() > bound, (p, wilson_miss.sum())
    # the closed-form check above is the function's own decision on a sample of looks
    for i in range(0, streams, 97):
        lo, hi = stats.confidence_sequence(int(k[i, -1]), int(n[-1]), prior_games=r)
        assert (lo <= 0.8 <= hi) == bool(log_ratio(0.8, k[i, -1], n[-1], r) < math.log(20.0))


def test_paired_sequence_coverage():
    """Paired streams (correlated outcomes) of known difference, watched after every game.

    600 streams of 5,000 paired games per scenario; false-alarm rate as above (0.1% per
    scenario if the true miss rate were 5%), for the default and the precision-tuned
    sequence. The fixed-n Newcombe interval watched every 500 games must fail the check.
    """
    rng = np.random.default_rng(7)
    streams, games = 600, 5000
    bound = int(st.binom.ppf(0.999, streams, 0.05))
    for p_both, p_a_only, p_b_only in ((0.3, 0.05, 0.03), (0.2, 0.1, 0.1), (0.0, 0.0, 0.02)):
        diff = p_a_only - p_b_only
        misses = tuned_misses = newcombe_misses = 0
        for _ in range(streams):
            u = rng.random(games)
            a = (u < p_both + p_a_only)
            b = (u < p_both) | ((u >= p_both + p_a_only) & (u < p_both + p_a_only + p_b_only))
            lo, hi = stats.paired_difference_sequence(a, b)
            misses += bool(((lo > diff) | (hi < diff)).any())
            tlo, thi = stats.paired_difference_sequence(a, b, precision=0.01)
            tuned_misses += bool(((tlo > diff) | (thi < diff)).any())
            if p_both:
                for n in range(100, games + 1, 500):
                    c = stats.compare_paired(a[:n], b[:n])
                    if not c.diff_lo <= diff <= c.diff_hi:
                        newcombe_misses += 1
                        break
        assert misses <= bound, (diff, misses)
        assert tuned_misses <= bound, (diff, tuned_misses)
        seq = stats.paired_confidence_sequence(a, b)
        assert (seq.diff_lo, seq.diff_hi) == (lo[-1], hi[-1])
        assert seq.only_a == int(np.count_nonzero(a & ~b))
        if p_both == 0.3:
            assert newcombe_misses > bound, newcombe_misses


def test_bounded_mean_sequence_bad_input():
    with pytest.raises(SimlibInputError):
        stats.bounded_mean_sequence([0.5, 1.5])


def test_holm_matches_statsmodels_definition():
    p = np.array([0.01, 0.04, 0.03, 0.2, 0.001])
    got = stats.holm(p)
    order = np.argsort(p)
    m = len(p)
    expected = np.empty(m)
    running = 0.0
    for i, j in enumerate(order):
        running = max(running, min(1.0, (m - i) * p[j]))
        expected[j] = running
    np.testing.assert_allclose(got, expected)
    np.testing.assert_allclose(stats.holm([0.5]), [0.5])
    assert stats.holm([]).size == 0
    with pytest.raises(SimlibInputError):
        stats.holm([0.1, 1.5])


# --- runs to a precision ----------------------------------------------------------------
def test_run_stops_deterministically_across_chunk_sizes():
    runs = [
        simlib.run("toy", games=100_000, seed=3, precision=0.02, chunk_size=cs, progress=False)
        for cs in (None, 333, 4000)
    ]
    first = runs[0]
    rule = first.meta["stopping"]
    n = rule["games"]
    assert rule["stopped"] == "precision" and n % PRECISION_LOOK == 0 and n < 100_000
    assert (rule["win_hi"] - rule["win_lo"]) / 2 <= 0.02
    for other in runs[1:]:
        pd.testing.assert_frame_equal(first.df, other.df)
        assert other.meta["stopping"] == rule
    fixed = simlib.run("toy", games=n, seed=3, progress=False)
    pd.testing.assert_frame_equal(first.df, fixed.df)
    # the look before n had not reached the precision
    k = int(fixed.df["win"].iloc[: n - PRECISION_LOOK].sum())
    lo, hi = stats.confidence_sequence(k, n - PRECISION_LOOK, prior_games=rule["prior_games"])
    assert (hi - lo) / 2 > 0.02
    lo, hi = stats.confidence_sequence(
        int(fixed.df["win"].sum()), n, prior_games=rule["prior_games"]
    )
    assert (lo, hi) == (rule["win_lo"], rule["win_hi"])


def test_cap_stops_and_says_so():
    res = simlib.run("toy", games=2500, seed=1, precision=0.005, progress=False)
    assert len(res.df) == 2500 and res.meta["stopping"]["stopped"] == "cap"


def test_resume_stops_at_the_same_n(tmp_path):
    ref = simlib.run("toy", games=50_000, seed=5, precision=0.02, progress=False)
    out = tmp_path / "run"
    # a partial earlier run in the folder (as if interrupted), then the run to precision
    simlib.run("toy", games=1500, seed=5, out=out, chunk_size=700, progress=False)
    res = simlib.run("toy", games=50_000, seed=5, precision=0.02, out=out, progress=False)
    pd.testing.assert_frame_equal(ref.df, res.df)
    again = simlib.run("toy", games=50_000, seed=5, precision=0.02, out=out, progress=False)
    pd.testing.assert_frame_equal(ref.df, again.df)
    loaded = Results.load(out)
    pd.testing.assert_frame_equal(ref.df, loaded.df)
    assert loaded.meta["stopping"]["games"] == len(ref.df)
    assert "anytime_lo" in loaded.summary().columns
    assert "anytime_lo" not in simlib.run("toy", games=500, progress=False).summary().columns


@pytest.mark.parametrize("bad", [0, 0.5, -0.1, 0.7, "0.01", True])
def test_bad_precision(bad):
    with pytest.raises(SimlibInputError, match="precision"):
        simlib.run("toy", games=1000, precision=bad, progress=False)


def test_cli_precision(capsys):
    assert main(["run", "toy", "--games", "50000", "--precision", "0.03", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "stopped after" in out and "anytime CI" in out
    for bad in ("0.5", "0", "x"):
        assert main(["run", "toy", "--precision", bad]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("simlib: error: --precision")


def test_experiment_precision_per_cell(tmp_path, capsys):
    path = tmp_path / "exp.toml"
    path.write_text(
        f'game = "toy"\ngames = 40000\nprecision = 0.03\nseed = 2\npresets = ["easy", "hard"]\n'
        f'out = "{(tmp_path / "out").as_posix()}"\n'
    )
    res = run_experiment(load_experiment(path), progress=False)
    cells = res.meta["cells"]
    assert all(c["stopping"]["stopped"] == "precision" for c in cells)
    for c in cells:
        alone = simlib.run("toy", preset=c["preset"], games=40000, seed=2, precision=0.03,
                           progress=False)
        assert alone.meta["stopping"]["games"] == c["stopping"]["games"]
    summ = res.summary(by="preset")
    assert "anytime_lo" in summ.columns
    html = (tmp_path / "out" / "report.html").read_text()
    assert "anytime" in html
    bad = tmp_path / "bad.toml"
    bad.write_text('game = "toy"\ngames = 100\nprecision = 0.6\n')
    assert main(["experiment", str(bad)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "precision" in err[0]


# --- paired stopping -------------------------------------------------------------------------
def test_compare_to_precision_pairs_and_saves():
    cmp = compare_to_precision(
        "toy", {"preset": "normal"}, {"settings": {"p": 0.53}}, 0.01, seed=4, progress=False
    )
    s = cmp.sequence
    assert cmp.stopped == "precision" and s.half_width <= 0.01
    assert s.n == len(cmp.a.df) == len(cmp.b.df) and s.n % PRECISION_LOOK == 0
    np.testing.assert_array_equal(cmp.a.df["game_index"], np.arange(s.n))
    # the toy game is coupled in p: B wins every game A wins, so only B-only games differ
    assert s.only_a == 0 and cmp.comparison.paired
    assert cmp.unpaired_games is not None and cmp.unpaired_games > 3 * s.n
    again = compare_to_precision(
        "toy", {"preset": "normal"}, {"settings": {"p": 0.53}}, 0.01, seed=4, chunk_size=999,
        progress=False,
    )
    assert again.sequence == s
    assert "anytime CI" in str(cmp)


def test_unpaired_equivalent_is_monotone_in_precision():
    coarse = unpaired_games_needed(0.4, 0.45, 0.02)
    fine = unpaired_games_needed(0.4, 0.45, 0.01)
    assert coarse is not None and fine is not None and fine > 3 * coarse


def test_compare_to_precision_bad_input():
    with pytest.raises(SimlibInputError, match="precision"):
        compare_to_precision("toy", {}, {}, 0.0)
    with pytest.raises(SimlibInputError, match="unknown key 'games'"):
        compare_to_precision("toy", {"games": 3}, {}, 0.01)
