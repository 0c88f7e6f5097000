"""Which factor of a grid moves the win rate most: changes against a baseline, ranked.

An experiment that varies several things at once (the difficulty and an invented content
table, say) asks which of them matters more. :func:`factor_effects` answers one level at a
time: for every factor, every level other than its baseline and every combination of the
other factors' levels (a *stratum*), the change in win rate from the baseline level to
that level with its interval. Cells run on one seed play the same game indices with the
same random streams, so their comparison is paired (exact McNemar, Newcombe's paired
interval); otherwise it is unpaired (Newcombe's hybrid score interval).
:func:`rank_effects` folds the strata together and sorts the changes by size, so the
difficulty's own steps and the assumptions' effects can be read side by side.

The module reads a playthrough DataFrame only; it knows no game.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence

import numpy as np
import pandas as pd

from simlib.core import stats
from simlib.report.tables import ordered_levels

__all__ = ["factor_effects", "rank_effects", "format_ranking", "format_effects", "change_label"]

_EFFECT_COLUMNS = (
    "factor", "baseline", "level", "stratum", "games", "rate_base", "rate_level",
    "diff", "diff_lo", "diff_hi", "p_value", "p_holm", "method",
)


def _stratum_label(others: Sequence[Hashable], key: tuple) -> str:
    if not others:
        return "all games"
    return ", ".join(f"{o}={v}" for o, v in zip(others, key, strict=True))


def _compare(base: pd.DataFrame, other: pd.DataFrame, confidence: float) -> stats.Comparison:
    """Compare ``other``'s win rate with ``base``'s, paired when they share game indices."""
    if "game_index" in base.columns and len(base) == len(other):
        a = base.sort_values("game_index", kind="stable")
        b = other.sort_values("game_index", kind="stable")
        ia, ib = a["game_index"].to_numpy(), b["game_index"].to_numpy()
        if np.array_equal(ia, ib) and len(np.unique(ia)) == len(ia):
            return stats.compare_paired(
                b["win"].to_numpy(dtype=bool), a["win"].to_numpy(dtype=bool), confidence
            )
    return stats.compare_unpaired(
        int(other["win"].sum()), len(other), int(base["win"].sum()), len(base), confidence
    )


def factor_effects(
    df: pd.DataFrame,
    factors: Sequence[Hashable],
    *,
    baselines: Mapping[Hashable, object] | None = None,
    confidence: float = 0.95,
) -> pd.DataFrame:
    """Change in win rate from each factor's baseline level to each of its other levels.

    Parameters
    ----------
    df : pandas.DataFrame
        One row per playthrough with ``win``, the ``factors`` columns and, for paired
        comparisons, ``game_index``.
    factors : sequence of str
        The columns varied by the experiment (``preset``, a grid setting, ...). A factor
        with one level has no effect and is left out.
    baselines : mapping, optional
        Baseline level per factor; default the first level (category order for a
        categorical column, the smallest number for a numeric one, else the level seen
        first in ``df``).
    confidence : float, default 0.95
        Level of each interval.

    Returns
    -------
    pandas.DataFrame
        One row per (factor, level, stratum): ``factor``, ``baseline``, ``level``,
        ``stratum`` (the other factors' levels, e.g. ``"preset=normal"``), ``games`` (of
        the level's cell), ``rate_base``, ``rate_level``, ``diff = rate_level -
        rate_base`` with ``diff_lo``/``diff_hi``, ``p_value``, ``p_holm`` (Holm-adjusted
        over every row of the table) and ``method`` (paired or unpaired).

    Raises
    ------
    KeyError
        If a factor column or ``win`` is missing.

    """
    factors = list(factors)
    missing = [c for c in [*factors, "win"] if c not in df.columns]
    if missing:
        raise KeyError(
            f"factor_effects: column(s) {', '.join(map(repr, missing))} not in the results; "
            f"available columns are {', '.join(map(str, df.columns))}"
        )
    baselines = dict(baselines or {})
    levels = {f: ordered_levels(df[f]) for f in factors}
    varied = [f for f in factors if len(levels[f]) > 1]
    rows = []
    for f in varied:
        base_level = baselines.get(f, levels[f][0])
        if base_level not in levels[f]:
            raise KeyError(f"factor_effects: baseline {base_level!r} is not a level of {f!r}")
        others = [g for g in varied if g != f]
        groups = [((), df)] if not others else df.groupby(others, observed=True, sort=False)
        for key, part in groups:
            key = key if isinstance(key, tuple) else (key,)
            base = part[part[f] == base_level]
            if base.empty:
                continue
            for level in levels[f]:
                if level == base_level:
                    continue
                cell = part[part[f] == level]
                if cell.empty:
                    continue
                c = _compare(base, cell, confidence)
                rows.append({
                    "factor": str(f), "baseline": base_level, "level": level,
                    "stratum": _stratum_label(others, key), "games": len(cell),
                    "rate_base": c.rate_b, "rate_level": c.rate_a, "diff": c.diff,
                    "diff_lo": c.diff_lo, "diff_hi": c.diff_hi, "p_value": c.p_value,
                    "method": c.method,
                })
    out = pd.DataFrame(rows, columns=[c for c in _EFFECT_COLUMNS if c != "p_holm"])
    out.insert(out.columns.get_loc("p_value") + 1, "p_holm",
               stats.holm(out["p_value"].to_numpy(dtype=float)) if len(out) else [])
    out.attrs["confidence"] = confidence
    return out


def rank_effects(effects: pd.DataFrame) -> pd.DataFrame:
    """Fold :func:`factor_effects` over the strata and sort by the size of the change.

    Returns
    -------
    pandas.DataFrame
        One row per (factor, level), largest mean absolute change first: ``factor``,
        ``baseline``, ``level``, ``strata`` (how many), ``mean_diff`` (mean change over the
        strata), ``min_diff``/``min_lo``/``min_hi`` and ``max_diff``/``max_lo``/``max_hi``
        (the smallest and largest change with their intervals) and ``clear`` (strata whose
        Holm-adjusted p-value is below ``1 - confidence``).

    """
    conf = effects.attrs.get("confidence", 0.95)
    rows = []
    for (factor, base, level), part in effects.groupby(
        ["factor", "baseline", "level"], sort=False, observed=True
    ):
        lo_row = part.loc[part["diff"].idxmin()]
        hi_row = part.loc[part["diff"].idxmax()]
        rows.append({
            "factor": factor, "baseline": base, "level": level, "strata": len(part),
            "mean_diff": float(part["diff"].mean()),
            "min_diff": float(lo_row["diff"]), "min_lo": float(lo_row["diff_lo"]),
            "min_hi": float(lo_row["diff_hi"]),
            "max_diff": float(hi_row["diff"]), "max_lo": float(hi_row["diff_lo"]),
            "max_hi": float(hi_row["diff_hi"]),
            "clear": int((part["p_holm"] < 1.0 - conf).sum()),
        })
    out = pd.DataFrame(rows)
    if len(out):
        order = np.argsort(-out["mean_diff"].abs().to_numpy(), kind="stable")
        out = out.iloc[order].reset_index(drop=True)
    out.attrs["confidence"] = conf
    return out


def _level(value: object) -> str:
    """A level's label: a data file's path shortened to its file name."""
    text = str(value)
    return text.rsplit("/", 1)[-1] if isinstance(value, str) else text


def change_label(factor: object, base: object, level: object) -> str:
    """Label of one change, e.g. ``"data: default → alt.toml"`` (paths shortened)."""
    return f"{factor}: {_level(base)} → {_level(level)}"


def _pts(x: float) -> str:
    return f"{100 * x:+.1f}"


def _pts_ci(d: float, lo: float, hi: float) -> str:
    return f"{_pts(d)} [{_pts(lo)}, {_pts(hi)}]"


def format_ranking(ranking: pd.DataFrame) -> pd.DataFrame:
    """Format :func:`rank_effects` as strings (changes in percentage points)."""
    conf = ranking.attrs.get("confidence", 0.95)
    ci = f"{100 * conf:g}% CI"
    out = {
        "rank": [str(i + 1) for i in range(len(ranking))],
        "change": [change_label(f, b, lv) for f, b, lv in
                   zip(ranking["factor"], ranking["baseline"], ranking["level"], strict=True)],
        "mean change (points)": [_pts(d) for d in ranking["mean_diff"]],
        f"smallest change [{ci}]": [
            _pts_ci(d, lo, hi) for d, lo, hi in
            zip(ranking["min_diff"], ranking["min_lo"], ranking["min_hi"], strict=True)],
        f"largest change [{ci}]": [
            _pts_ci(d, lo, hi) for d, lo, hi in
            zip(ranking["max_diff"], ranking["max_lo"], ranking["max_hi"], strict=True)],
        "clear in": [f"{c} of {n}" for c, n in
                     zip(ranking["clear"], ranking["strata"], strict=True)],
    }
    return pd.DataFrame(out, dtype=object)


def format_effects(effects: pd.DataFrame) -> pd.DataFrame:
    """Format :func:`factor_effects` as strings, one row per comparison."""
    conf = effects.attrs.get("confidence", 0.95)
    out = {
        "change": [change_label(f, b, lv) for f, b, lv in
                   zip(effects["factor"], effects["baseline"], effects["level"], strict=True)],
        "within": list(effects["stratum"]),
        "games": [f"{n:,}" for n in effects["games"]],
        "baseline win rate": [f"{100 * r:.1f}%" for r in effects["rate_base"]],
        "win rate": [f"{100 * r:.1f}%" for r in effects["rate_level"]],
        f"change, points [{100 * conf:g}% CI]": [
            _pts_ci(d, lo, hi) for d, lo, hi in
            zip(effects["diff"], effects["diff_lo"], effects["diff_hi"], strict=True)],
        "p (Holm)": [f"{p:.2g}" if p >= 1e-4 else "<1e-4" for p in effects["p_holm"]],
        "method": list(effects["method"]),
    }
    return pd.DataFrame(out, dtype=object)
