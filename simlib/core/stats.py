"""Honest intervals and comparisons for win rates (binomial proportions).

A win rate from ``n`` simulated games is a binomial proportion ``k / n``. This module gives
its confidence interval (Wilson score, or the exact Clopper-Pearson interval), compares two
win rates (paired when both runs used the same seed, so game ``i`` saw the same random
stream under both settings; unpaired otherwise), and says how many games a question needs.

Conventions
-----------
* ``confidence`` is the two-sided confidence level, ``0 < confidence < 1`` (0.95 = 95 %).
* A comparison's difference is ``diff = rate_a - rate_b``: positive means A wins more often.
* Every function validates its input and raises :class:`simlib.errors.SimlibInputError`
  with a one-line message naming the offending argument.

References
----------
.. [1] E. B. Wilson, "Probable inference, the law of succession, and statistical
   inference", J. Am. Stat. Assoc. 22 (1927) 209-212.
.. [2] C. J. Clopper and E. S. Pearson, "The use of confidence or fiducial limits
   illustrated in the case of the binomial", Biometrika 26 (1934) 404-413.
.. [3] R. G. Newcombe, "Interval estimation for the difference between independent
   proportions: comparison of eleven methods", Stat. Med. 17 (1998) 873-890.
.. [4] R. G. Newcombe, "Improved confidence intervals for the difference between binomial
   proportions based on paired data", Stat. Med. 17 (1998) 2635-2650.
.. [5] J. L. Fleiss, B. Levin and M. C. Paik, "Statistical Methods for Rates and
   Proportions", 3rd ed., Wiley (2003), section 4.2.
.. [6] H. Robbins, "Statistical methods related to the law of the iterated logarithm",
   Ann. Math. Statist. 41 (1970) 1397-1409.
.. [7] S. R. Howard, A. Ramdas, J. McAuliffe and J. Sekhon, "Time-uniform, nonparametric,
   nonasymptotic confidence sequences", Ann. Statist. 49 (2021) 1055-1080.
.. [8] S. Holm, "A simple sequentially rejective multiple test procedure", Scand. J.
   Statist. 6 (1979) 65-70.
.. [9] I. Waudby-Smith and A. Ramdas, "Estimating means of bounded random variables by
   betting", J. R. Stat. Soc. B 86 (2024) 1-27.

"""

from __future__ import annotations

import dataclasses
import math
from numbers import Real
from typing import Any

import numpy as np
from scipy import stats as _st

from simlib.core.checks import check_precision
from simlib.errors import SimlibInputError

__all__ = [
    "Comparison",
    "wilson_interval",
    "clopper_pearson_interval",
    "compare_unpaired",
    "compare_paired",
    "compare",
    "games_needed",
    "games_needed_for_difference",
    "confidence_sequence",
    "cs_prior_games",
    "paired_confidence_sequence",
    "paired_difference_sequence",
    "bounded_mean_sequence",
    "holm",
]

# Below this expected cell count the pooled z-test's normal approximation is not trusted and
# compare_unpaired switches to Fisher's exact test (the classical Cochran rule).
_MIN_EXPECTED = 5.0


# --------------------------------------------------------------------------- validation


def _check_level(value: Any, name: str) -> float:
    """Return ``value`` as a float strictly between 0 and 1, or raise naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, Real):
        raise SimlibInputError(f"{name} must be a number between 0 and 1, got {value!r}")
    value = float(value)
    if not 0.0 < value < 1.0:
        raise SimlibInputError(f"{name} must be strictly between 0 and 1, got {value:g}")
    return value


def _z(confidence: float) -> float:
    """Two-sided standard normal quantile for ``confidence`` (1.959964 for 0.95)."""
    # isf keeps full precision for confidence close to 1, where 0.5 + c/2 rounds.
    return float(_st.norm.isf((1.0 - confidence) / 2.0))


def _counts(k: Any, n: Any) -> tuple[np.ndarray, np.ndarray, bool]:
    """Validate win counts ``k`` out of ``n`` games; return float arrays, broadcast.

    The third value is True when both inputs were scalars (the caller returns floats).
    """
    try:
        k_arr = np.asarray(k, dtype=float)
        n_arr = np.asarray(n, dtype=float)
    except (TypeError, ValueError):
        raise SimlibInputError(
            f"k and n must be whole numbers of games, got k={k!r}, n={n!r}"
        ) from None
    scalar = k_arr.ndim == 0 and n_arr.ndim == 0
    try:
        k_arr, n_arr = np.broadcast_arrays(k_arr, n_arr)
    except ValueError:
        raise SimlibInputError(
            f"k and n must have matching shapes, got {k_arr.shape} and {n_arr.shape}"
        ) from None
    for name, arr in (("k", k_arr), ("n", n_arr)):
        if not np.all(np.isfinite(arr)) or np.any(arr != np.floor(arr)):
            raise SimlibInputError(f"{name} must be a whole number of games, got {arr!r}")
    if np.any(n_arr < 0):
        raise SimlibInputError(f"n (games played) must be >= 0, got {n!r}")
    if np.any(k_arr < 0) or np.any(k_arr > n_arr):
        raise SimlibInputError(f"k (wins) must be between 0 and n, got k={k!r}, n={n!r}")
    return k_arr, n_arr, scalar


def _outcomes(x: Any, name: str) -> np.ndarray:
    """Validate a 1-D sequence of game outcomes (bool, or 0/1) and return a bool array."""
    if hasattr(x, "to_numpy"):  # pandas Series / Index
        x = x.to_numpy()
    arr = np.asarray(x)
    if arr.ndim != 1:
        raise SimlibInputError(
            f"{name} must be a 1-D array of game outcomes, got shape {arr.shape}"
        )
    if arr.size == 0:
        raise SimlibInputError(f"{name} is empty: pass at least one game outcome")
    if arr.dtype == bool:
        return arr
    if arr.dtype.kind not in "iuf" or not np.all((arr == 0) | (arr == 1)):
        raise SimlibInputError(
            f"{name} must hold booleans (True = win) or 0/1, got dtype {arr.dtype}"
        )
    return arr.astype(bool)


# ---------------------------------------------------------------------------- intervals


def _wilson_arrays(k: np.ndarray, n: np.ndarray, z: float) -> tuple[np.ndarray, np.ndarray]:
    """Wilson bounds for validated float arrays ``k``, ``n`` (nan where ``n == 0``)."""
    z2 = z * z
    with np.errstate(divide="ignore", invalid="ignore"):
        hi = (2.0 * k + z2 + z * np.sqrt(z2 + 4.0 * k * (n - k) / n)) / (2.0 * (n + z2))
        # The bounds are the roots of (n + z^2) p^2 - (2k + z^2) p + k^2/n = 0, so
        # lo * hi = k^2 / (n (n + z^2)). Dividing avoids the cancellation of
        # "centre - half-width" when k is small and n large.
        lo = k * k / (n * (n + z2) * hi)
    lo = np.where(k == 0, 0.0, lo)
    hi = np.where(k == n, 1.0, hi)
    empty = n == 0
    lo = np.where(empty, np.nan, np.clip(lo, 0.0, 1.0))
    hi = np.where(empty, np.nan, np.clip(hi, 0.0, 1.0))
    return lo, hi


def wilson_interval(k: Any, n: Any, confidence: float = 0.95) -> tuple[Any, Any]:
    r"""Wilson score interval for a win rate of ``k`` wins in ``n`` games.

    The interval is the set of true rates ``p`` for which the observed rate is within
    ``z`` standard errors (computed at ``p``, not at ``k/n``) [1]_:

    .. math:: \frac{k + z^2/2}{n + z^2} \pm
              \frac{z}{n + z^2}\sqrt{\frac{k (n - k)}{n} + \frac{z^2}{4}}

    Parameters
    ----------
    k : int or array_like of int
        Wins, ``0 <= k <= n``.
    n : int or array_like of int
        Games played, ``n >= 0``. Broadcast against ``k``.
    confidence : float, default 0.95
        Two-sided confidence level, strictly between 0 and 1.

    Returns
    -------
    lo, hi : float or ndarray of float
        Lower and upper bounds, within [0, 1]; ``lo`` is exactly 0 where ``k == 0`` and
        ``hi`` exactly 1 where ``k == n``. Both are nan where ``n == 0``. Floats when ``k``
        and ``n`` are scalars, arrays of the broadcast shape otherwise.

    Raises
    ------
    SimlibInputError
        If ``k`` or ``n`` is not a whole number, ``k`` is outside ``[0, n]``, or
        ``confidence`` is not strictly between 0 and 1.

    Examples
    --------
    >>> lo, hi = wilson_interval(81, 263)
    >>> round(lo, 4), round(hi, 4)
    (0.2553, 0.3662)

    """
    z = _z(_check_level(confidence, "confidence"))
    k_arr, n_arr, scalar = _counts(k, n)
    lo, hi = _wilson_arrays(k_arr, n_arr, z)
    if scalar:
        return float(lo), float(hi)
    return lo, hi


def clopper_pearson_interval(k: Any, n: Any, confidence: float = 0.95) -> tuple[Any, Any]:
    """Exact (Clopper-Pearson) interval for a win rate of ``k`` wins in ``n`` games.

    The bounds invert two one-sided binomial tests of size ``alpha/2`` each, with
    ``alpha = 1 - confidence`` [2]_: ``lo`` solves ``P(X >= k | lo) = alpha/2`` and ``hi``
    solves ``P(X <= k | hi) = alpha/2``, i.e. ``lo = Beta(alpha/2; k, n-k+1)`` and
    ``hi = Beta(1 - alpha/2; k+1, n-k)`` (``scipy.stats.beta.ppf``). Coverage is at least
    ``confidence`` for every true rate, at the price of a wider interval than Wilson's.

    Parameters
    ----------
    k : int or array_like of int
        Wins, ``0 <= k <= n``.
    n : int or array_like of int
        Games played, ``n >= 0``. Broadcast against ``k``.
    confidence : float, default 0.95
        Two-sided confidence level, strictly between 0 and 1.

    Returns
    -------
    lo, hi : float or ndarray of float
        ``lo`` is 0 where ``k == 0``, ``hi`` is 1 where ``k == n``; nan where ``n == 0``.
        Floats when ``k`` and ``n`` are scalars, arrays otherwise.

    Raises
    ------
    SimlibInputError
        On the same bad inputs as :func:`wilson_interval`.

    """
    alpha = 1.0 - _check_level(confidence, "confidence")
    k_arr, n_arr, scalar = _counts(k, n)
    # Substitute harmless shape parameters where a bound is fixed (k == 0 or k == n) or the
    # interval undefined (n == 0), so beta.ppf never sees a zero shape.
    lo_ok = k_arr > 0
    hi_ok = k_arr < n_arr
    lo = _st.beta.ppf(
        alpha / 2.0, np.where(lo_ok, k_arr, 1.0), np.where(lo_ok, n_arr - k_arr + 1.0, 1.0)
    )
    hi = _st.beta.ppf(
        1.0 - alpha / 2.0, np.where(hi_ok, k_arr + 1.0, 1.0), np.where(hi_ok, n_arr - k_arr, 1.0)
    )
    lo = np.where(lo_ok, lo, 0.0)
    hi = np.where(hi_ok, hi, 1.0)
    empty = n_arr == 0
    lo = np.where(empty, np.nan, lo)
    hi = np.where(empty, np.nan, hi)
    if scalar:
        return float(lo), float(hi)
    return lo, hi


# --------------------------------------------------------------------------- comparisons


@dataclasses.dataclass(frozen=True)
class Comparison:
    """The difference between two win rates, with its interval and p-value.

    Attributes
    ----------
    method : str
        How the p-value was computed: ``"paired, exact McNemar"``,
        ``"unpaired, pooled z-test"`` or ``"unpaired, Fisher exact"``. The interval is always
        Newcombe's score-based method 10 (paired [4]_ or unpaired [3]_ version).
    n_a, n_b : int
        Games behind each rate (equal when paired).
    rate_a, rate_b : float
        Observed win rates.
    diff : float
        ``rate_a - rate_b``: positive when A wins more often.
    diff_lo, diff_hi : float
        Confidence interval for the true ``rate_a - rate_b``.
    p_value : float
        Two-sided p-value for "the true rates are equal".
    confidence : float
        Confidence level of ``[diff_lo, diff_hi]``.
    discordant_a, discordant_b : int or None
        Paired only: games A won and B lost, and games B won and A lost. Only these games
        carry information about the difference; None for unpaired comparisons.

    """

    method: str
    n_a: int
    n_b: int
    rate_a: float
    rate_b: float
    diff: float
    diff_lo: float
    diff_hi: float
    p_value: float
    confidence: float
    discordant_a: int | None = None
    discordant_b: int | None = None

    @property
    def paired(self) -> bool:
        """True when the comparison used paired (same seed, same game index) games."""
        return self.discordant_a is not None

    def to_dict(self) -> dict[str, Any]:
        """Return the fields as a plain dict (JSON-friendly: str, int, float, None)."""
        return dataclasses.asdict(self)

    def __str__(self) -> str:
        """One line, e.g. ``A 41.2% vs B 38.9%: difference +2.3 pp, 95% CI [...] ...``."""
        if self.p_value == 0.0:
            p_text = "p < 1e-300"
        elif self.p_value < 1e-3:
            p_text = f"p = {self.p_value:.1e}"
        else:
            p_text = f"p = {self.p_value:.3g}"
        if self.paired:
            n_text = f"n = {self.n_a}"
        else:
            n_text = f"n_a = {self.n_a}, n_b = {self.n_b}"
        return (
            f"A {self.rate_a:.1%} vs B {self.rate_b:.1%}: "
            f"difference {100 * self.diff:+.1f} pp, "
            f"{100 * self.confidence:g}% CI [{100 * self.diff_lo:+.1f}, "
            f"{100 * self.diff_hi:+.1f}] pp, {p_text} ({self.method}, {n_text})"
        )


def _check_games(k: Any, n: Any, k_name: str, n_name: str) -> tuple[int, int]:
    """Validate one arm's scalar win count and game count; return Python ints."""
    for name, value in ((k_name, k), (n_name, n)):
        if isinstance(value, bool) or not isinstance(value, Real) or value != math.floor(value):
            raise SimlibInputError(f"{name} must be a whole number of games, got {value!r}")
    k, n = int(k), int(n)
    if n < 1:
        raise SimlibInputError(f"{n_name} must be at least 1 game, got {n}")
    if not 0 <= k <= n:
        raise SimlibInputError(f"{k_name} must be between 0 and {n_name} = {n}, got {k}")
    return k, n


def compare_unpaired(
    k_a: int, n_a: int, k_b: int, n_b: int, confidence: float = 0.95
) -> Comparison:
    r"""Compare two independent win rates, ``k_a / n_a`` against ``k_b / n_b``.

    Use this when the two runs did not share seeds (or used different game counts); for
    runs with common random numbers :func:`compare_paired` is narrower and still valid.

    Interval: Newcombe's hybrid score method (method 10 of [3]_), built from the Wilson
    intervals ``[l_a, u_a]`` and ``[l_b, u_b]`` of the two rates:

    .. math:: \text{lo} = D - \sqrt{(p_a - l_a)^2 + (u_b - p_b)^2}, \quad
              \text{hi} = D + \sqrt{(u_a - p_a)^2 + (p_b - l_b)^2}

    with ``D = p_a - p_b``. It stays inside [-1, 1] and behaves well near 0 and 1.

    P-value: the two-sided pooled two-proportion z-test (``z = D / se`` with the pooled
    rate in ``se``; the same as Pearson's chi-square without continuity correction). When
    any expected cell count of the 2x2 table (wins/losses by arm, under equal rates) is
    below 5, the normal approximation is not trusted and Fisher's exact test
    (``scipy.stats.fisher_exact``, two-sided) is used instead; ``method`` says which.

    Parameters
    ----------
    k_a, n_a : int
        Wins and games of arm A (``n_a >= 1``).
    k_b, n_b : int
        Wins and games of arm B (``n_b >= 1``).
    confidence : float, default 0.95
        Confidence level of the interval, strictly between 0 and 1.

    Returns
    -------
    Comparison
        With ``diff = k_a/n_a - k_b/n_b`` and ``discordant_a = discordant_b = None``.

    Raises
    ------
    SimlibInputError
        If a count is not a whole number, a game count is below 1, wins exceed games, or
        ``confidence`` is not strictly between 0 and 1.

    """
    confidence = _check_level(confidence, "confidence")
    k_a, n_a = _check_games(k_a, n_a, "k_a", "n_a")
    k_b, n_b = _check_games(k_b, n_b, "k_b", "n_b")
    z = _z(confidence)
    p_a, p_b = k_a / n_a, k_b / n_b
    diff = p_a - p_b
    (l_a, l_b), (u_a, u_b) = _wilson_arrays(
        np.array([k_a, k_b], dtype=float), np.array([n_a, n_b], dtype=float), z
    )
    lo = diff - math.hypot(p_a - l_a, u_b - p_b)
    hi = diff + math.hypot(u_a - p_a, p_b - l_b)

    wins, losses, total = k_a + k_b, (n_a - k_a) + (n_b - k_b), n_a + n_b
    min_expected = min(n_a, n_b) * min(wins, losses) / total
    if min_expected < _MIN_EXPECTED:
        table = [[k_a, n_a - k_a], [k_b, n_b - k_b]]
        p_value = float(_st.fisher_exact(table, alternative="two-sided")[1])
        method = "unpaired, Fisher exact"
    else:
        pooled = wins / total
        se = math.sqrt(pooled * (1.0 - pooled) * (1.0 / n_a + 1.0 / n_b))
        p_value = float(2.0 * _st.norm.sf(abs(diff) / se))
        method = "unpaired, pooled z-test"
    return Comparison(
        method=method,
        n_a=n_a,
        n_b=n_b,
        rate_a=p_a,
        rate_b=p_b,
        diff=diff,
        diff_lo=float(max(-1.0, lo)),
        diff_hi=float(min(1.0, hi)),
        p_value=min(1.0, p_value),
        confidence=confidence,
    )


def _compare_paired_counts(
    both: int, only_a: int, only_b: int, neither: int, confidence: float
) -> Comparison:
    """Paired comparison from the four cells of the paired 2x2 table (validated ints)."""
    n = both + only_a + only_b + neither
    z = _z(confidence)
    p_a, p_b = (both + only_a) / n, (both + only_b) / n
    diff = (only_a - only_b) / n
    (l_a, l_b), (u_a, u_b) = _wilson_arrays(
        np.array([both + only_a, both + only_b], dtype=float), np.array([n, n], dtype=float), z
    )
    # Newcombe's phi with its continuity correction; Python ints keep the products exact
    # (they overflow int64 beyond about 55 000 games).
    margins = (both + only_a) * (only_b + neither) * (both + only_b) * (only_a + neither)
    if margins == 0:
        phi = 0.0
    else:
        cross = both * neither - only_a * only_b
        if cross > n / 2:
            num = cross - n / 2
        elif cross >= 0:
            num = 0.0
        else:
            num = float(cross)
        phi = num / math.sqrt(margins)
    da_lo, db_hi = p_a - l_a, u_b - p_b
    da_hi, db_lo = u_a - p_a, p_b - l_b
    delta = math.sqrt(max(0.0, da_lo**2 - 2.0 * phi * da_lo * db_hi + db_hi**2))
    eps = math.sqrt(max(0.0, da_hi**2 - 2.0 * phi * da_hi * db_lo + db_lo**2))

    discordant = only_a + only_b
    if discordant == 0:
        p_value = 1.0
    else:
        p_value = float(_st.binomtest(min(only_a, only_b), discordant, 0.5).pvalue)
    return Comparison(
        method="paired, exact McNemar",
        n_a=n,
        n_b=n,
        rate_a=p_a,
        rate_b=p_b,
        diff=diff,
        diff_lo=float(max(-1.0, diff - delta)),
        diff_hi=float(min(1.0, diff + eps)),
        p_value=min(1.0, p_value),
        confidence=confidence,
        discordant_a=only_a,
        discordant_b=only_b,
    )


def compare_paired(wins_a: Any, wins_b: Any, confidence: float = 0.95) -> Comparison:
    r"""Compare two win rates measured on the same games (common random numbers).

    ``wins_a[i]`` and ``wins_b[i]`` are the outcomes of game ``i`` under settings A and B run
    with the same seed, so both saw the same random stream. Games both settings won or both
    lost say nothing about the difference; the ``discordant_a`` games (A won, B lost) and
    ``discordant_b`` games (B won, A lost) carry all of it. When the outcomes are positively
    correlated this interval is much narrower than the unpaired one.

    Let ``n`` games split into ``a`` (both won), ``b = discordant_a``, ``c = discordant_b``
    and ``d`` (both lost); ``p_a = (a+b)/n``, ``p_b = (a+c)/n``, ``D = (b-c)/n``, and
    ``[l_a, u_a]``, ``[l_b, u_b]`` the Wilson intervals of the two marginal rates.

    Interval: Newcombe's method 10 for paired data [4]_,

    .. math:: \text{lo} = D - \sqrt{(p_a - l_a)^2 - 2\phi (p_a - l_a)(u_b - p_b)
              + (u_b - p_b)^2}

    .. math:: \text{hi} = D + \sqrt{(u_a - p_a)^2 - 2\phi (u_a - p_a)(p_b - l_b)
              + (p_b - l_b)^2}

    where ``phi`` is the correlation of the two outcomes with Newcombe's continuity
    correction: with ``A = ad - bc`` and ``M = (a+b)(c+d)(a+c)(b+d)``,
    ``phi = (A - n/2) / sqrt(M)`` if ``A > n/2``, ``0`` if ``0 <= A <= n/2``,
    ``A / sqrt(M)`` if ``A < 0``, and ``0`` if ``M = 0``. This reproduces the worked
    examples of [4]_ (e.g. a, b, c, d = 36, 12, 2, 0 gives 0.0569 to 0.3404).

    P-value: exact McNemar test, i.e. the two-sided binomial test of ``min(b, c)`` successes
    in ``b + c`` trials with probability 1/2 (``scipy.stats.binomtest``); 1 when there are
    no discordant games.

    Parameters
    ----------
    wins_a, wins_b : array_like of bool
        Outcomes (True or 1 = win) aligned by game index; 1-D, equal, non-zero length.
        pandas Series are accepted (their index is ignored: alignment is by position).
    confidence : float, default 0.95
        Confidence level of the interval, strictly between 0 and 1.

    Returns
    -------
    Comparison
        With ``n_a == n_b == len(wins_a)`` and the discordant counts filled in.

    Raises
    ------
    SimlibInputError
        If the arrays differ in length, are empty or not 1-D, hold values other than
        booleans or 0/1, or ``confidence`` is not strictly between 0 and 1.

    """
    confidence = _check_level(confidence, "confidence")
    a = _outcomes(wins_a, "wins_a")
    b = _outcomes(wins_b, "wins_b")
    if a.shape != b.shape:
        raise SimlibInputError(
            f"wins_a and wins_b must cover the same games: lengths {a.size} and {b.size} "
            "differ (use compare_unpaired for runs of different sizes)"
        )
    both = int(np.count_nonzero(a & b))
    only_a = int(np.count_nonzero(a & ~b))
    only_b = int(np.count_nonzero(~a & b))
    neither = a.size - both - only_a - only_b
    return _compare_paired_counts(both, only_a, only_b, neither, confidence)


def compare(a: Any, b: Any, *, paired: bool, confidence: float = 0.95) -> Comparison:
    """Compare the win rates of two runs given their per-game outcomes.

    Parameters
    ----------
    a, b : array_like of bool or pandas.Series
        Per-game outcomes (True or 1 = win) of runs A and B, 1-D and non-empty.
    paired : bool
        True when game ``i`` of both runs used the same seed and game index (common random
        numbers): :func:`compare_paired` is used, and the lengths must match. False treats
        the runs as independent samples: :func:`compare_unpaired` on the win counts.
    confidence : float, default 0.95
        Confidence level of the interval, strictly between 0 and 1.

    Returns
    -------
    Comparison
        ``diff = rate(a) - rate(b)``.

    Raises
    ------
    SimlibInputError
        If ``paired`` is not a bool, or on the errors of the function it delegates to.

    """
    if not isinstance(paired, (bool, np.bool_)):
        raise SimlibInputError(f"paired must be True or False, got {paired!r}")
    if paired:
        return compare_paired(a, b, confidence=confidence)
    a_arr = _outcomes(a, "a")
    b_arr = _outcomes(b, "b")
    return compare_unpaired(
        int(np.count_nonzero(a_arr)),
        a_arr.size,
        int(np.count_nonzero(b_arr)),
        b_arr.size,
        confidence=confidence,
    )


# --------------------------------------------------------------------------- sample size


def _wilson_half_width(n: int, p: float, z: float) -> float:
    """Half-width of the Wilson interval at observed rate ``p`` after ``n`` games."""
    return z * math.sqrt(n * p * (1.0 - p) + z * z / 4.0) / (n + z * z)


def games_needed(half_width: float, p: float = 0.5, confidence: float = 0.95) -> int:
    """Smallest number of games whose Wilson interval is at most ``±half_width`` wide.

    The half-width of the Wilson interval at observed rate ``p`` after ``n`` games is
    ``h(n) = z sqrt(n p (1-p) + z^2/4) / (n + z^2)``, which decreases in ``n`` (``h(0) =
    0.5``). The normal-approximation answer ``z^2 p (1-p) / h^2`` is close for ``p`` near
    1/2 but far off near 0 or 1, so the start is the exact real root of
    ``h(n) = half_width`` (a quadratic in ``n``); the result is then checked and stepped
    against ``h`` itself, so ``h(result) <= half_width < h(result - 1)`` holds exactly.

    Parameters
    ----------
    half_width : float
        Wanted half-width as a proportion (0.01 = ±1 percentage point), in (0, 0.5).
    p : float, default 0.5
        Expected win rate, in [0, 1]. 0.5 is the worst case.
    confidence : float, default 0.95
        Confidence level, strictly between 0 and 1.

    Returns
    -------
    int
        The number of games, at least 1.

    Raises
    ------
    SimlibInputError
        If an argument is outside its range.

    Examples
    --------
    >>> games_needed(0.01)
    9600

    """
    if isinstance(half_width, bool) or not isinstance(half_width, Real):
        raise SimlibInputError(f"half_width must be a number in (0, 0.5), got {half_width!r}")
    if not 0.0 < half_width < 0.5:
        raise SimlibInputError(
            f"half_width must be strictly between 0 and 0.5 (0.01 = ±1 pp), got {half_width:g}"
        )
    if isinstance(p, bool) or not isinstance(p, Real) or not 0.0 <= p <= 1.0:
        raise SimlibInputError(f"p (expected win rate) must be between 0 and 1, got {p!r}")
    z = _z(_check_level(confidence, "confidence"))
    h, p = float(half_width), float(p)
    z2 = z * z
    # h(n) <= h  <=>  h^2 n^2 + (2 h^2 z^2 - z^2 p(1-p)) n + z^4 (h^2 - 1/4) >= 0; the
    # constant term is negative (h < 1/2), so there is exactly one positive root.
    qa = h * h
    qb = 2.0 * h * h * z2 - z2 * p * (1.0 - p)
    qc = z2 * z2 * (h * h - 0.25)
    root = (-qb + math.sqrt(qb * qb - 4.0 * qa * qc)) / (2.0 * qa)
    n = max(1, math.ceil(root))
    while _wilson_half_width(n, p, z) > h:
        n += 1
    while n > 1 and _wilson_half_width(n - 1, p, z) <= h:
        n -= 1
    return n


def games_needed_for_difference(
    diff: float, p: float = 0.5, confidence: float = 0.95, power: float = 0.8
) -> int:
    r"""Games per arm for an unpaired comparison to detect a difference of ``diff``.

    The standard normal-approximation sample size for the two-sided pooled two-proportion
    z-test with equal arms (Fleiss, Levin and Paik [5]_, without continuity correction):

    .. math:: n = \frac{\left(z_{1-\alpha/2}\sqrt{2\bar p(1-\bar p)}
              + z_{\text{power}}\sqrt{p_1(1-p_1) + p_2(1-p_2)}\right)^2}{(p_1 - p_2)^2}

    with ``p_1 = p``, ``p_2 = p + diff``, ``\bar p = (p_1 + p_2)/2`` and
    ``alpha = 1 - confidence``, rounded up. Paired runs (common random numbers) usually
    need far fewer games; this count is then a conservative upper bound.

    Parameters
    ----------
    diff : float
        Smallest difference in win rate worth detecting (0.02 = 2 pp); non-zero, and
        ``p + diff`` must lie in [0, 1]. Only its size matters for the result.
    p : float, default 0.5
        Win rate of the baseline arm, in [0, 1].
    confidence : float, default 0.95
        ``1 - alpha``, where ``alpha`` is the two-sided significance level.
    power : float, default 0.8
        Wanted probability of a significant result when the true difference is ``diff``.

    Returns
    -------
    int
        Games per arm (the total is twice this).

    Raises
    ------
    SimlibInputError
        If an argument is outside its range.

    Examples
    --------
    >>> games_needed_for_difference(0.1)
    388

    """
    if isinstance(diff, bool) or not isinstance(diff, Real) or not 0.0 < abs(diff) <= 1.0:
        raise SimlibInputError(f"diff must be a non-zero win-rate difference, got {diff!r}")
    if isinstance(p, bool) or not isinstance(p, Real) or not 0.0 <= p <= 1.0:
        raise SimlibInputError(f"p (baseline win rate) must be between 0 and 1, got {p!r}")
    p1, p2 = float(p), float(p) + float(diff)
    if not 0.0 <= p2 <= 1.0:
        raise SimlibInputError(
            f"p + diff must be a win rate between 0 and 1, got {p1:g} + {float(diff):g}"
        )
    z_alpha = _z(_check_level(confidence, "confidence"))
    z_beta = float(_st.norm.ppf(_check_level(power, "power")))
    p_bar = (p1 + p2) / 2.0
    root_n = z_alpha * math.sqrt(2.0 * p_bar * (1.0 - p_bar)) + z_beta * math.sqrt(
        p1 * (1.0 - p1) + p2 * (1.0 - p2)
    )
    # root_n <= 0 only for power so low (below 1/2) that a single game suffices. The tiny
    # tolerance keeps float noise from pushing an exact integer up by one.
    root_n = max(root_n, 0.0)
    return max(1, math.ceil(root_n * root_n / (p1 - p2) ** 2 - 1e-9))


# ------------------------------------------------------------- anytime-valid sequences

#: Half-width the default prior scale of :func:`confidence_sequence` is tuned for (±1 pp).
CS_DEFAULT_PRECISION = 0.01



def cs_prior_games(precision: float = CS_DEFAULT_PRECISION, confidence: float = 0.95) -> float:
    r"""Prior scale (in games) that makes :func:`confidence_sequence` tightest at ``precision``.

    The mixture's width behaves like the normal-mixture boundary of Robbins [6]_: with a
    prior worth ``r`` games, the half-width after ``n`` games is about
    ``sqrt(v (n + r) log((n + r) / (r alpha^2))) / n`` (``v = p (1 - p)``). For a fixed
    target the ratio ``x = r / n`` that minimises it solves
    ``log((1 + x) / (x alpha^2)) = 1 / x`` (``x = 0.122`` at 95%); the ``n`` at which the
    half-width reaches ``precision`` at the worst case ``v = 1/4`` is then
    ``n* = (1 + x) log((1 + x) / (x alpha^2)) / (4 precision^2)``, and ``r = x n*``.
    This only tunes the width: the coverage holds for any ``r``.

    Parameters
    ----------
    precision : float, default 0.01
        Target half-width, in (0, 0.5).
    confidence : float, default 0.95
        Confidence level, strictly between 0 and 1.

    Returns
    -------
    float
        ``r``, e.g. about 2,800 games for ±1 point at 95%.

    """
    x, n_star = _cs_tuning(check_precision(precision), _check_level(confidence, "confidence"))
    return x * n_star


def _cs_tuning(h: float, confidence: float) -> tuple[float, float]:
    """``(x, n*)`` of :func:`cs_prior_games`: prior ratio and worst-case stopping games."""
    from scipy.optimize import brentq

    log_a2 = -2.0 * math.log(1.0 - confidence)

    def f(x: float) -> float:
        return math.log((1.0 + x) / x) + log_a2 - 1.0 / x

    x = float(brentq(f, 1e-6, 10.0))
    n_star = (1.0 + x) * (math.log((1.0 + x) / x) + log_a2) / (4.0 * h * h)
    return x, n_star


def _log_mixture_ratio(p: float, k: float, n: float, r: float) -> float:
    """Log of Robbins' beta-binomial mixture likelihood ratio against the rate ``p``."""
    from scipy.special import betaln

    a, b = r * p, r * (1.0 - p)
    return float(
        betaln(a + k, b + n - k) - betaln(a, b) - k * math.log(p) - (n - k) * math.log1p(-p)
    )


def _cs_bounds(k: float, n: float, alpha: float, r: float) -> tuple[float, float]:
    """Bounds of ``{p : mixture ratio < 1/alpha}`` for one validated ``k``, ``n``."""
    from scipy.optimize import brentq

    if n == 0:
        return 0.0, 1.0
    level = math.log(1.0 / alpha)
    eps = 1e-12
    centre = min(max(k / n, eps), 1.0 - eps)

    def g(p: float) -> float:
        return _log_mixture_ratio(p, k, n, r) - level

    # The observed rate maximises the likelihood, so the ratio is <= 1 there (inside the set).
    lo = 0.0 if g(eps) < 0 else float(brentq(g, eps, centre, xtol=1e-12))
    hi = 1.0 if g(1.0 - eps) < 0 else float(brentq(g, centre, 1.0 - eps, xtol=1e-12))
    return (0.0 if k == 0 else lo), (1.0 if k == n else hi)


def confidence_sequence(
    k: Any,
    n: Any,
    confidence: float = 0.95,
    *,
    precision: float | None = None,
    prior_games: float | None = None,
) -> tuple[Any, Any]:
    r"""Anytime-valid interval for a win rate: valid however the number of games was chosen.

    A fixed-n interval (Wilson, Clopper-Pearson) covers the true rate 95% of the time only
    when ``n`` was fixed in advance. A run that looks at its interval after every batch
    and stops once it is narrow enough needs a *confidence sequence*: intervals that cover
    the true rate at every ``n`` at once with probability ``confidence``, so any
    data-dependent stopping rule keeps the guarantee.

    This is Robbins' beta-binomial mixture [6]_ [7]_: for each candidate rate ``p`` the
    mixture likelihood ratio

    .. math:: M_n(p) = \frac{B(r p + k,\ r (1-p) + n - k) / B(r p,\ r (1-p))}
              {p^k (1-p)^{n-k}}

    (the Beta(``r p``, ``r (1-p)``) prior has mean ``p`` and is worth ``r`` games) is a
    nonnegative martingale with ``M_0 = 1`` when ``p`` is the true rate, so by Ville's
    inequality ``P(M_n(p) >= 1/alpha for some n) <= alpha``. The sequence is
    ``{p : M_n(p) < 1/alpha}``, an interval around ``k/n`` found by root finding.

    Parameters
    ----------
    k, n : int or array_like of int
        Wins and games so far (``0 <= k <= n``), broadcast together.
    confidence : float, default 0.95
        Level of the whole sequence, strictly between 0 and 1.
    precision : float, optional
        Half-width the sequence should reach soonest; sets ``prior_games`` with
        :func:`cs_prior_games`. Default 0.01 (±1 point).
    prior_games : float, optional
        The prior scale ``r`` itself (> 0), overriding ``precision``. Any fixed choice is
        valid; a stopping rule must use the same ``r`` at every look.

    Returns
    -------
    lo, hi : float or ndarray of float
        ``(0, 1)`` where ``n == 0``; ``lo`` is 0 where ``k == 0`` and ``hi`` 1 where
        ``k == n``. Floats for scalar input.

    Examples
    --------
    >>> lo, hi = confidence_sequence(5000, 10000)
    >>> round(lo, 3), round(hi, 3)
    (0.485, 0.515)

    """
    confidence = _check_level(confidence, "confidence")
    k_arr, n_arr, scalar = _counts(k, n)
    r = _prior(precision, prior_games, confidence)
    alpha = 1.0 - confidence
    lo = np.empty(k_arr.shape)
    hi = np.empty(k_arr.shape)
    for idx in np.ndindex(k_arr.shape):
        lo[idx], hi[idx] = _cs_bounds(float(k_arr[idx]), float(n_arr[idx]), alpha, r)
    if scalar:
        return float(lo), float(hi)
    return lo, hi


def _prior(precision: Any, prior_games: Any, confidence: float) -> float:
    if prior_games is not None:
        if (
            isinstance(prior_games, bool)
            or not isinstance(prior_games, Real)
            or not math.isfinite(prior_games)
            or prior_games <= 0
        ):
            raise SimlibInputError(f"prior_games must be a number > 0, got {prior_games!r}")
        return float(prior_games)
    return cs_prior_games(CS_DEFAULT_PRECISION if precision is None else precision, confidence)


@dataclasses.dataclass(frozen=True)
class PairedSequence:
    """An anytime-valid interval on a paired difference ``rate_a - rate_b``.

    Attributes
    ----------
    n : int
        Games (each played under both A and B on the same seed and index).
    only_a, only_b : int
        Discordant games: A won and B lost, B won and A lost.
    diff, diff_lo, diff_hi : float
        ``(only_a - only_b) / n`` and its interval, valid at ``confidence`` at every ``n``.
    confidence : float
        Level of the sequence.

    """

    n: int
    only_a: int
    only_b: int
    diff: float
    diff_lo: float
    diff_hi: float
    confidence: float

    @property
    def half_width(self) -> float:
        """Half the interval's width."""
        return (self.diff_hi - self.diff_lo) / 2.0


def bounded_mean_sequence(
    x: Any, confidence: float = 0.95, precision: float | None = None
) -> tuple[np.ndarray, np.ndarray]:
    r"""Anytime-valid interval on the mean of a stream of values in [0, 1], after every value.

    The predictable plug-in empirical-Bernstein confidence sequence of Waudby-Smith and
    Ramdas [9]_ (their Theorem 2): with the running mean and variance
    ``mu_t = (1/2 + sum x_i) / (t + 1)``, ``s2_t = (1/4 + sum (x_i - mu_i)^2) / (t + 1)``,
    the bets ``lambda_t = min(sqrt(2 log(2/alpha) / (s2_{t-1} t log(1 + t))), 1/2)``, and
    ``psi(l) = (-log(1 - l) - l) / 4``, ``v_t = 4 (x_t - mu_{t-1})^2``, the interval after
    ``t`` values is

    .. math:: rac{\sum \lambda_i x_i}{\sum \lambda_i} \pm
              rac{\log(2/lpha) + \sum v_i \psi(\lambda_i)}{\sum \lambda_i}

    It covers the mean at every ``t`` at once with probability ``confidence`` for any
    i.i.d. stream bounded in [0, 1], and its width follows the stream's variance: a paired
    difference of two win rates (``x = (win_a - win_b + 1) / 2``) is narrow when the two
    runs disagree on few games.

    With ``precision`` the bets are tuned for that half-width instead: constant bets
    ``lambda`` give a half-width of about ``log(2/alpha) / (t lambda) + s2 lambda / 2``,
    smallest at ``sqrt(2 log(2/alpha) s2 / t)``, which reaches ``precision`` at
    ``t* = 2 log(2/alpha) s2 / precision^2`` with ``lambda = precision / s2``; so
    ``lambda_t = min(precision / s2_{t-1}, 1/2)``, still predictable (the past and a
    constant) and so still valid, and about 1.9 times the games a fixed-n normal interval
    needs at 95% instead of four to five times at large ``t``.

    Parameters
    ----------
    x : array_like of float
        The stream, values in [0, 1], in the order they arrived.
    confidence : float, default 0.95
        Level of the sequence.
    precision : float, optional
        Half-width (on the mean of ``x``) to be tightest at, in (0, 0.5).

    Returns
    -------
    lo, hi : ndarray of float
        The bounds after each value (``lo[t-1]``, ``hi[t-1]`` after ``t`` values), clipped
        to [0, 1].

    """
    confidence = _check_level(confidence, "confidence")
    x = np.asarray(x, dtype=float)
    if x.ndim != 1 or (x.size and (np.nanmin(x) < 0 or np.nanmax(x) > 1 or np.isnan(x).any())):
        raise SimlibInputError("x must be a 1-D stream of values in [0, 1]")
    alpha = 1.0 - confidence
    log2a = math.log(2.0 / alpha)
    t = np.arange(1, x.size + 1, dtype=float)
    mu = (0.5 + np.cumsum(x)) / (t + 1.0)  # mu_t, including x_t
    mu_prev = np.concatenate(([0.5], mu[:-1]))
    s2 = (0.25 + np.cumsum((x - mu) ** 2)) / (t + 1.0)
    s2_prev = np.concatenate(([0.25], s2[:-1]))
    if precision is None:
        lam = np.minimum(np.sqrt(2.0 * log2a / (s2_prev * t * np.log1p(t))), 0.5)
    else:
        lam = np.minimum(check_precision(precision) / s2_prev, 0.5)
    psi = (-np.log1p(-lam) - lam) / 4.0
    v = 4.0 * (x - mu_prev) ** 2
    sum_lam = np.cumsum(lam)
    centre = np.cumsum(lam * x) / sum_lam
    half = (log2a + np.cumsum(v * psi)) / sum_lam
    return np.clip(centre - half, 0.0, 1.0), np.clip(centre + half, 0.0, 1.0)


def paired_difference_sequence(
    wins_a: Any, wins_b: Any, confidence: float = 0.95, precision: float | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Anytime-valid bounds on ``rate_a - rate_b`` after every paired game.

    Game ``i`` gives ``d_i = win_a[i] - win_b[i]`` in {-1, 0, 1}; the mean of
    ``(d + 1) / 2`` gets :func:`bounded_mean_sequence`, mapped back to the difference.
    Valid for any pairing of two streams of independent games (common random numbers or
    not); narrow when the pairs rarely disagree. ``precision`` (a half-width of the
    difference) tunes the sequence to be tightest there.
    """
    a = _outcomes(wins_a, "wins_a")
    b = _outcomes(wins_b, "wins_b")
    if a.shape != b.shape:
        raise SimlibInputError(
            f"wins_a and wins_b must cover the same games: lengths {a.size} and {b.size} differ"
        )
    tuned = None if precision is None else check_precision(precision) / 2.0
    lo, hi = bounded_mean_sequence(
        (a.astype(float) - b.astype(float) + 1.0) / 2.0, confidence, tuned
    )
    return 2.0 * lo - 1.0, 2.0 * hi - 1.0


def paired_confidence_sequence(
    wins_a: Any, wins_b: Any, confidence: float = 0.95, precision: float | None = None
) -> PairedSequence:
    """Anytime-valid interval on ``rate_a - rate_b`` after all the paired games given.

    The last value of :func:`paired_difference_sequence`, with the discordant counts.

    Parameters
    ----------
    wins_a, wins_b : array_like of bool
        Outcomes of the same games (same seed and index) under A and under B, in order.
    confidence : float, default 0.95
        Level of the sequence.
    precision : float, optional
        The half-width it was tuned for (as in :func:`paired_difference_sequence`).

    Returns
    -------
    PairedSequence

    """
    lo, hi = paired_difference_sequence(wins_a, wins_b, confidence, precision)
    a = _outcomes(wins_a, "wins_a")
    b = _outcomes(wins_b, "wins_b")
    only_a = int(np.count_nonzero(a & ~b))
    only_b = int(np.count_nonzero(~a & b))
    return PairedSequence(
        n=a.size,
        only_a=only_a,
        only_b=only_b,
        diff=(only_a - only_b) / a.size,
        diff_lo=float(max(-1.0, lo[-1])),
        diff_hi=float(min(1.0, hi[-1])),
        confidence=_check_level(confidence, "confidence"),
    )


def holm(p_values: Any) -> np.ndarray:
    """Holm's step-down adjustment of p-values for many comparisons [8]_.

    Sort the ``m`` p-values ascending, multiply the ``i``-th smallest (from 0) by
    ``m - i``, take the running maximum and cap at 1. Rejecting the adjusted p-values
    below ``alpha`` controls the family-wise error rate at ``alpha`` under any dependence.

    Parameters
    ----------
    p_values : array_like of float
        Raw p-values in [0, 1], 1-D (may be empty).

    Returns
    -------
    numpy.ndarray
        Adjusted p-values in the input order.

    Examples
    --------
    >>> holm([0.01, 0.04, 0.03]).round(2).tolist()
    [0.03, 0.06, 0.06]

    """
    p = np.asarray(p_values, dtype=float)
    if p.ndim != 1:
        raise SimlibInputError(f"p_values must be 1-D, got shape {p.shape}")
    if np.any(~np.isfinite(p)) or np.any((p < 0) | (p > 1)):
        raise SimlibInputError("p_values must lie between 0 and 1")
    m = p.size
    order = np.argsort(p, kind="stable")
    scaled = p[order] * (m - np.arange(m))
    adjusted = np.minimum(1.0, np.maximum.accumulate(scaled)) if m else scaled
    out = np.empty(m)
    out[order] = adjusted
    return out
