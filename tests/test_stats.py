"""Tests for simlib.core.stats against closed formulas, scipy and published values."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as sps

from simlib.core.stats import (
    Comparison,
    clopper_pearson_interval,
    compare,
    compare_paired,
    compare_unpaired,
    games_needed,
    games_needed_for_difference,
    wilson_interval,
)
from simlib.errors import SimlibInputError

Z95 = 1.959963984540054  # norm.ppf(0.975)


def wilson_textbook(k, n, z=Z95):
    """Wilson interval written the textbook way: centre +/- half-width."""
    centre = (k + z * z / 2) / (n + z * z)
    half = z / (n + z * z) * math.sqrt(k * (n - k) / n + z * z / 4)
    return centre - half, centre + half


def paired_arrays(both, only_a, only_b, neither):
    """Outcome arrays for a paired 2x2 table (shuffled order must not matter)."""
    a = np.repeat([True, True, False, False], [both, only_a, only_b, neither])
    b = np.repeat([True, False, True, False], [both, only_a, only_b, neither])
    return a, b


def mcnemar_exact(b, c):
    """Two-sided exact McNemar p-value from first principles (math.comb)."""
    m = b + c
    tail = sum(math.comb(m, i) for i in range(min(b, c) + 1)) / 2**m
    return min(1.0, 2 * tail)


# ----------------------------------------------------------------------------- Wilson


def test_z_constant_is_scipy_quantile():
    assert Z95 == pytest.approx(sps.norm.ppf(0.975), abs=1e-15)


@pytest.mark.parametrize("n", [1, 2, 3, 5, 10, 17])
def test_wilson_matches_textbook_formula_for_every_k(n):
    for k in range(n + 1):
        lo, hi = wilson_interval(k, n)
        ref_lo, ref_hi = wilson_textbook(k, n)
        assert lo == pytest.approx(ref_lo, abs=1e-14)
        assert hi == pytest.approx(ref_hi, abs=1e-14)


def test_wilson_exact_ends():
    for n in [1, 7, 100, 10**6, 10**9]:
        assert wilson_interval(0, n)[0] == 0.0
        assert wilson_interval(n, n)[1] == 1.0
        # Closed form at k = 0: hi = z^2 / (n + z^2).
        assert wilson_interval(0, n)[1] == pytest.approx(Z95**2 / (n + Z95**2), rel=1e-12)


@pytest.mark.parametrize(
    ("k", "n", "lo", "hi"),
    [
        # Newcombe (1998), Stat. Med. 17:857-872, worked examples, Wilson score method.
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_wilson_published_values(k, n, lo, hi):
    got = wilson_interval(k, n)
    np.testing.assert_allclose(got, (lo, hi), atol=5e-5)


def test_wilson_small_k_large_n_is_accurate():
    # The textbook form loses digits to cancellation here; compare to a stable root.
    k, n = 3, 10**9
    z = Z95
    # Lower bound is the smaller root of (n+z^2) p^2 - (2k+z^2) p + k^2/n = 0.
    a, b, c = n + z * z, 2 * k + z * z, k * k / n
    ref_lo = 2 * c / (b + math.sqrt(b * b - 4 * a * c))  # stable form of the smaller root
    lo, _ = wilson_interval(k, n)
    assert lo == pytest.approx(ref_lo, rel=1e-12)


def test_wilson_symmetry():
    for n in [1, 4, 9, 50, 263]:
        k = np.arange(n + 1)
        lo, hi = wilson_interval(k, n)
        lo_mirror, hi_mirror = wilson_interval(n - k, n)
        np.testing.assert_allclose(lo, 1 - hi_mirror, rtol=0, atol=1e-14)
        np.testing.assert_allclose(hi, 1 - lo_mirror, rtol=0, atol=1e-14)


def test_wilson_vectorised_matches_scalar_and_handles_n_zero():
    k = np.array([0, 3, 5, 0, 7])
    n = np.array([10, 10, 5, 0, 100])
    lo, hi = wilson_interval(k, n)
    assert isinstance(lo, np.ndarray) and lo.shape == (5,)
    for i in range(5):
        if n[i] == 0:
            assert np.isnan(lo[i]) and np.isnan(hi[i])
        else:
            assert (lo[i], hi[i]) == wilson_interval(int(k[i]), int(n[i]))
    # Broadcasting a scalar n, and the scalar n == 0 case.
    lo2, hi2 = wilson_interval(np.array([[0, 1], [2, 3]]), 3)
    assert lo2.shape == (2, 2)
    lo0, hi0 = wilson_interval(0, 0)
    assert math.isnan(lo0) and math.isnan(hi0)
    assert isinstance(wilson_interval(1, 2)[0], float)


def test_wilson_confidence_changes_width():
    lo90, hi90 = wilson_interval(30, 100, confidence=0.90)
    lo99, hi99 = wilson_interval(30, 100, confidence=0.99)
    z90 = sps.norm.ppf(0.95)
    np.testing.assert_allclose((lo90, hi90), wilson_textbook(30, 100, z90), atol=1e-14)
    assert hi99 - lo99 > hi90 - lo90


def test_wilson_exact_coverage_n50():
    # Coverage computed exactly: sum of binomial pmf over the k whose interval holds p.
    n = 50
    k = np.arange(n + 1)
    lo, hi = wilson_interval(k, n)
    grid = np.linspace(0.01, 0.99, 99)
    coverage = np.array([sps.binom.pmf(k, n, p)[(lo <= p) & (p <= hi)].sum() for p in grid])
    assert 0.93 <= coverage.mean() <= 0.97
    # Wilson is not exact: some p are under-covered (this is why CP exists).
    assert coverage.min() < 0.95


# --------------------------------------------------------------------- Clopper-Pearson


@pytest.mark.parametrize("n", [1, 2, 5, 13, 40, 263])
@pytest.mark.parametrize("confidence", [0.9, 0.95, 0.99])
def test_clopper_pearson_matches_scipy_binomtest(n, confidence):
    for k in range(n + 1):
        ref = sps.binomtest(k, n).proportion_ci(confidence_level=confidence, method="exact")
        got = clopper_pearson_interval(k, n, confidence=confidence)
        np.testing.assert_allclose(got, (ref.low, ref.high), rtol=0, atol=1e-12)


def test_clopper_pearson_endpoints_have_tail_alpha_over_2():
    alpha = 0.05
    for n in [3, 10, 57]:
        for k in range(1, n):
            lo, hi = clopper_pearson_interval(k, n)
            assert abs(sps.binom.cdf(k, n, hi) - alpha / 2) < 1e-9
            assert abs(sps.binom.sf(k - 1, n, lo) - alpha / 2) < 1e-9


def test_clopper_pearson_ends_vectorised_and_empty():
    lo, hi = clopper_pearson_interval(np.array([0, 4, 4, 0]), np.array([4, 4, 9, 0]))
    assert lo[0] == 0.0 and hi[1] == 1.0
    assert np.isnan(lo[3]) and np.isnan(hi[3])
    assert 0 < lo[2] < 4 / 9 < hi[2] < 1


def test_clopper_pearson_contains_point_estimate_and_wilson():
    n = 30
    k = np.arange(n + 1)
    cp_lo, cp_hi = clopper_pearson_interval(k, n)
    w_lo, w_hi = wilson_interval(k, n)
    assert np.all(cp_lo <= k / n) and np.all(k / n <= cp_hi)
    # CP is the conservative one: it contains Wilson here.
    assert np.all(cp_lo <= w_lo + 1e-15) and np.all(w_hi <= cp_hi + 1e-15)


def test_clopper_pearson_exact_coverage_never_below_nominal():
    n = 40
    k = np.arange(n + 1)
    lo, hi = clopper_pearson_interval(k, n)
    for p in np.linspace(0.005, 0.995, 199):
        cov = sps.binom.pmf(k, n, p)[(lo <= p) & (p <= hi)].sum()
        assert cov >= 0.95 - 1e-12


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 10**7).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_intervals_are_ordered(kn):
    k, n = kn
    for lo, hi in (wilson_interval(k, n), clopper_pearson_interval(k, n)):
        assert 0.0 <= lo <= k / n <= hi <= 1.0


# -------------------------------------------------------------------------- unpaired


def pooled_z_p(k_a, n_a, k_b, n_b):
    pool = (k_a + k_b) / (n_a + n_b)
    se = math.sqrt(pool * (1 - pool) * (1 / n_a + 1 / n_b))
    return 2 * sps.norm.sf(abs(k_a / n_a - k_b / n_b) / se)


@pytest.mark.parametrize(
    ("k_a", "n_a", "k_b", "n_b"),
    [(56, 70, 48, 80), (412, 1000, 389, 1000), (4100, 10000, 4300, 11000), (30, 60, 30, 60)],
)
def test_unpaired_p_value_is_pooled_z_test(k_a, n_a, k_b, n_b):
    c = compare_unpaired(k_a, n_a, k_b, n_b)
    assert c.method == "unpaired, pooled z-test"
    assert c.p_value == pytest.approx(pooled_z_p(k_a, n_a, k_b, n_b), rel=1e-10)
    # The z-test squared is Pearson's chi-square without continuity correction.
    table = [[k_a, n_a - k_a], [k_b, n_b - k_b]]
    chi2 = sps.chi2_contingency(table, correction=False)
    assert c.p_value == pytest.approx(chi2.pvalue, rel=1e-8)


def test_unpaired_small_counts_use_fisher():
    # Expected counts 5.5 / 4.5: below 5, so Fisher's exact test.
    c = compare_unpaired(3, 10, 8, 10)
    assert c.method == "unpaired, Fisher exact"

    # Independent two-sided Fisher: sum hypergeometric probabilities <= the observed one.
    def hyper(x):
        return math.comb(10, x) * math.comb(10, 11 - x) / math.comb(20, 11)

    p_obs = hyper(3)
    ref = sum(hyper(x) for x in range(1, 11) if hyper(x) <= p_obs * (1 + 1e-7))
    assert c.p_value == pytest.approx(ref, rel=1e-12)
    assert c.p_value == pytest.approx(sps.fisher_exact([[3, 7], [8, 2]])[1], rel=1e-12)
    # No wins at all: no evidence of a difference.
    assert compare_unpaired(0, 50, 0, 70).p_value == 1.0


@pytest.mark.parametrize(
    ("k_a", "n_a", "k_b", "n_b", "lo", "hi"),
    [
        # Newcombe (1998), Stat. Med. 17:873-890, worked examples, method 10.
        (56, 70, 48, 80, 0.0524, 0.3339),
        (9, 10, 3, 10, 0.1705, 0.8090),
        (5, 56, 0, 29, -0.0381, 0.1926),
        (0, 10, 0, 20, -0.1611, 0.2775),
        (10, 10, 0, 20, 0.6791, 1.0),
    ],
)
def test_unpaired_newcombe_published(k_a, n_a, k_b, n_b, lo, hi):
    c = compare_unpaired(k_a, n_a, k_b, n_b)
    assert c.diff == pytest.approx(k_a / n_a - k_b / n_b, abs=1e-15)
    np.testing.assert_allclose((c.diff_lo, c.diff_hi), (lo, hi), atol=5e-5)


def test_unpaired_newcombe_matches_formula_from_wilson():
    k_a, n_a, k_b, n_b = 412, 1000, 389, 950
    la, ua = wilson_textbook(k_a, n_a)
    lb, ub = wilson_textbook(k_b, n_b)
    pa, pb = k_a / n_a, k_b / n_b
    c = compare_unpaired(k_a, n_a, k_b, n_b)
    assert c.diff_lo == pytest.approx(pa - pb - math.sqrt((pa - la) ** 2 + (ub - pb) ** 2))
    assert c.diff_hi == pytest.approx(pa - pb + math.sqrt((ua - pa) ** 2 + (pb - lb) ** 2))
    assert c.n_a == n_a and c.n_b == n_b and c.discordant_a is None


# ---------------------------------------------------------------------------- paired


@pytest.mark.parametrize(
    ("cells", "lo", "hi"),
    [
        # Newcombe (1998), Stat. Med. 17:2635-2650, worked examples, method 10
        # (cells: both won, only A won, only B won, both lost).
        ((36, 12, 2, 0), 0.0569, 0.3404),
        ((18, 12, 2, 18), 0.0562, 0.3290),
        ((53, 0, 0, 1), -0.0729, 0.0729),
        ((0, 30, 0, 0), 0.8395, 1.0),
    ],
)
def test_paired_newcombe_published(cells, lo, hi):
    c = compare_paired(*paired_arrays(*cells))
    both, only_a, only_b, neither = cells
    n = sum(cells)
    assert c.diff == pytest.approx((only_a - only_b) / n, abs=1e-15)
    assert (c.discordant_a, c.discordant_b, c.n_a, c.n_b) == (only_a, only_b, n, n)
    np.testing.assert_allclose((c.diff_lo, c.diff_hi), (lo, hi), atol=5e-5)


@pytest.mark.parametrize(("b", "c"), [(10, 2), (2, 10), (5, 5), (0, 7), (1, 0), (40, 25)])
def test_paired_exact_mcnemar(b, c):
    res = compare_paired(*paired_arrays(100, b, c, 80))
    assert res.p_value == pytest.approx(mcnemar_exact(b, c), rel=1e-12)
    assert res.p_value == pytest.approx(sps.binomtest(min(b, c), b + c, 0.5).pvalue, rel=1e-12)
    assert res.method == "paired, exact McNemar"


def test_paired_mcnemar_hand_value():
    res = compare_paired(*paired_arrays(50, 10, 2, 38))
    # 2 * (C(12,0) + C(12,1) + C(12,2)) / 2^12 = 2 * 79 / 4096
    assert res.p_value == pytest.approx(158 / 4096, rel=1e-12)
    assert res.p_value == pytest.approx(0.0385742, abs=1e-7)


def test_paired_no_discordant_games():
    res = compare_paired(*paired_arrays(30, 0, 0, 20))
    assert res.p_value == 1.0
    assert res.diff == 0.0
    assert res.diff_lo < 0 < res.diff_hi


def test_paired_accepts_ints_and_series_and_ignores_order():
    a, b = paired_arrays(40, 9, 3, 48)
    ref = compare_paired(a, b)
    perm = np.random.default_rng(1).permutation(a.size)
    assert compare_paired(a[perm], b[perm]) == ref
    assert compare_paired(a.astype(int), b.astype(float)) == ref
    assert compare_paired(pd.Series(a), pd.Series(b)) == ref


def test_paired_narrower_than_unpaired_on_correlated_games():
    # Strongly correlated outcomes, same marginal rates as the unpaired call.
    a, b = paired_arrays(400, 60, 40, 500)
    paired = compare_paired(a, b)
    unpaired = compare_unpaired(int(a.sum()), a.size, int(b.sum()), b.size)
    assert paired.diff == pytest.approx(unpaired.diff, abs=1e-15)
    assert paired.diff_lo <= paired.diff <= paired.diff_hi
    assert paired.diff_hi - paired.diff_lo < 0.75 * (unpaired.diff_hi - unpaired.diff_lo)
    assert paired.p_value < unpaired.p_value


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 300), st.integers(0, 60), st.integers(0, 60), st.integers(0, 300))
def test_paired_swap_symmetry_and_containment(both, only_a, only_b, neither):
    if both + only_a + only_b + neither == 0:
        return
    a, b = paired_arrays(both, only_a, only_b, neither)
    ab = compare_paired(a, b)
    ba = compare_paired(b, a)
    assert ba.diff == -ab.diff
    assert ba.p_value == ab.p_value
    assert ba.diff_lo == pytest.approx(-ab.diff_hi, abs=1e-12)
    assert ba.diff_hi == pytest.approx(-ab.diff_lo, abs=1e-12)
    assert (ba.discordant_a, ba.discordant_b) == (ab.discordant_b, ab.discordant_a)
    assert -1.0 <= ab.diff_lo <= ab.diff <= ab.diff_hi <= 1.0


# ----------------------------------------------------------- compare / Comparison


def test_compare_dispatches():
    a, b = paired_arrays(40, 9, 3, 48)
    assert compare(a, b, paired=True) == compare_paired(a, b)
    assert compare(a, b, paired=False) == compare_unpaired(49, 100, 43, 100)
    short = compare(a[:70], b, paired=False)
    assert (short.n_a, short.n_b) == (70, 100)
    with pytest.raises(SimlibInputError, match="paired"):
        compare(a, b, paired="yes")


def test_comparison_str_and_dict():
    a, b = paired_arrays(300, 120, 40, 540)
    c = compare_paired(a, b)
    text = str(c)
    assert "\n" not in text
    assert text.startswith("A 42.0% vs B 34.0%: difference +8.0 pp, 95% CI [+")
    assert "(paired, exact McNemar, n = 1000)" in text
    assert f"p = {c.p_value:.1e}" in text
    d = c.to_dict()
    assert d["discordant_a"] == 120 and d["method"] == c.method
    assert Comparison(**d) == c
    u = str(compare_unpaired(56, 70, 48, 80))
    assert u == (
        "A 80.0% vs B 60.0%: difference +20.0 pp, 95% CI [+5.2, +33.4] pp, "
        "p = 0.00805 (unpaired, pooled z-test, n_a = 70, n_b = 80)"
    )
    assert "p = 1 " in str(compare_paired(*paired_arrays(3, 0, 0, 3)))


def test_comparison_is_frozen():
    c = compare_unpaired(1, 2, 1, 2)
    with pytest.raises(AttributeError):
        c.diff = 0.5  # type: ignore[misc]


# ------------------------------------------------------------------------ sample size


def wilson_half_width(n, p, z=Z95):
    return z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))


def test_games_needed_known_value():
    n = games_needed(0.01)
    assert abs(n - 9604) <= 5  # normal approximation: 1.96^2 * 0.25 / 0.01^2
    # At p = 1/2 the Wilson half-width is z / (2 sqrt(n + z^2)): n >= z^2/(4h^2) - z^2.
    assert n == math.ceil(Z95**2 / (4 * 0.01**2) - Z95**2) == 9600


@pytest.mark.parametrize("h", [0.3, 0.1, 0.05, 0.02, 0.01, 0.003, 0.0005])
@pytest.mark.parametrize("p", [0.0, 0.01, 0.1, 0.3, 0.5, 0.93, 1.0])
def test_games_needed_is_smallest(h, p):
    n = games_needed(h, p)
    assert wilson_half_width(n, p) <= h
    if n > 1:
        assert wilson_half_width(n - 1, p) > h


def test_games_needed_agrees_with_wilson_interval_at_integer_counts():
    n = games_needed(0.02, p=0.25, confidence=0.9)
    for m in (n, n - 1):
        if m % 4 == 0:
            lo, hi = wilson_interval(m // 4, m, confidence=0.9)
            assert ((hi - lo) / 2 <= 0.02) == (m == n)
    assert games_needed(0.02, 0.5, confidence=0.99) > games_needed(0.02, 0.5)


def test_games_needed_for_difference_formula():
    # Fleiss: 0.5 vs 0.6, alpha 0.05 two-sided, power 0.8 -> 388 per arm.
    assert games_needed_for_difference(0.1) == 388
    assert games_needed_for_difference(-0.1, p=0.6) == 388
    za, zb = sps.norm.ppf(0.995), sps.norm.ppf(0.9)
    p1, p2 = 0.3, 0.32
    pb = (p1 + p2) / 2
    ref = za * math.sqrt(2 * pb * (1 - pb)) + zb * math.sqrt(p1 * (1 - p1) + p2 * (1 - p2))
    ref = math.ceil(ref**2 / 0.02**2)
    assert games_needed_for_difference(0.02, p=0.3, confidence=0.99, power=0.9) == ref


def test_games_needed_for_difference_gives_stated_power():
    # The approximate power of the pooled z-test at the returned n reaches the target.
    n = games_needed_for_difference(0.03, p=0.4)
    p1, p2 = 0.4, 0.43
    pb = (p1 + p2) / 2

    def power(m):
        se0 = math.sqrt(2 * pb * (1 - pb) / m)
        se1 = math.sqrt((p1 * (1 - p1) + p2 * (1 - p2)) / m)
        return sps.norm.cdf((0.03 - Z95 * se0) / se1)

    assert power(n) >= 0.8 > power(n - 1)


# ------------------------------------------------------------------------- bad input


@pytest.mark.parametrize("fn", [wilson_interval, clopper_pearson_interval])
@pytest.mark.parametrize(
    ("args", "kwargs", "match"),
    [
        ((5, 3), {}, "k"),
        ((-1, 3), {}, "k"),
        ((1, -2), {}, "n"),
        ((1.5, 3), {}, "k"),
        ((1, np.nan), {}, "n"),
        (("a", 3), {}, "k"),
        ((np.array([1, 2]), np.array([3, 4, 5])), {}, "shape"),
        ((1, 3), {"confidence": 0.0}, "confidence"),
        ((1, 3), {"confidence": 1.0}, "confidence"),
        ((1, 3), {"confidence": 95}, "confidence"),
        ((1, 3), {"confidence": "0.95"}, "confidence"),
    ],
)
def test_interval_bad_input(fn, args, kwargs, match):
    with pytest.raises(SimlibInputError, match=match):
        fn(*args, **kwargs)


@pytest.mark.parametrize(
    ("args", "match"),
    [
        ((5, 0, 1, 2), "n_a"),
        ((3, 2, 1, 2), "k_a"),
        ((1, 2, 1.5, 2), "k_b"),
        ((1, 2, 1, -1), "n_b"),
        ((1, 2, True, 2), "k_b"),
    ],
)
def test_unpaired_bad_input(args, match):
    with pytest.raises(SimlibInputError, match=match):
        compare_unpaired(*args)
    with pytest.raises(SimlibInputError, match="confidence"):
        compare_unpaired(1, 2, 1, 2, confidence=1.2)


def test_paired_bad_input():
    a = np.array([True, False, True])
    with pytest.raises(SimlibInputError, match="lengths 3 and 2"):
        compare_paired(a, a[:2])
    with pytest.raises(SimlibInputError, match="wins_b"):
        compare_paired(a, np.array([0, 1, 2]))
    with pytest.raises(SimlibInputError, match="wins_a"):
        compare_paired(np.array([np.nan, 1, 0]), a)
    with pytest.raises(SimlibInputError, match="wins_a"):
        compare_paired(np.ones((3, 1), bool), a)
    with pytest.raises(SimlibInputError, match="empty"):
        compare_paired([], [])
    with pytest.raises(SimlibInputError, match="wins_a"):
        compare_paired(["win", "loss", "win"], a)
    with pytest.raises(SimlibInputError, match="confidence"):
        compare_paired(a, a, confidence=-0.1)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"half_width": 0.0}, "half_width"),
        ({"half_width": 0.5}, "half_width"),
        ({"half_width": -0.01}, "half_width"),
        ({"half_width": "0.01"}, "half_width"),
        ({"half_width": 0.01, "p": 1.5}, "p "),
        ({"half_width": 0.01, "p": -0.1}, "p "),
        ({"half_width": 0.01, "confidence": 1.0}, "confidence"),
        ({"half_width": 0.01, "confidence": 0}, "confidence"),
    ],
)
def test_games_needed_bad_input(kwargs, match):
    with pytest.raises(SimlibInputError, match=match):
        games_needed(**kwargs)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"diff": 0.0}, "diff"),
        ({"diff": 0.2, "p": 0.9}, "p \\+ diff"),
        ({"diff": -0.2, "p": 0.1}, "p \\+ diff"),
        ({"diff": 0.1, "p": 2.0}, "p "),
        ({"diff": 0.1, "power": 1.0}, "power"),
        ({"diff": 0.1, "confidence": 0.0}, "confidence"),
    ],
)
def test_games_needed_for_difference_bad_input(kwargs, match):
    with pytest.raises(SimlibInputError, match=match):
        games_needed_for_difference(**kwargs)


def test_error_messages_are_one_line():
    for call in (
        lambda: wilson_interval(5, 3),
        lambda: games_needed(0.7),
        lambda: compare_paired([True], [True, False]),
    ):
        with pytest.raises(SimlibInputError) as info:
            call()
        assert "\n" not in str(info.value)
