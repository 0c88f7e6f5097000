"""The summary of a set of playthroughs: win rate with its interval, outcome shares, mean rounds.

Reads a pandas DataFrame with one row per playthrough (at least ``win``; ``outcome`` and
``rounds`` when present) and knows nothing about any game. Grouping is done once with
``groupby(..., observed=True)`` to get a group code per row; the counts are then
``np.bincount`` over those codes, so millions of rows take well under a second.
:func:`format_table` shows a summary as strings (percentages, intervals on one line).

:class:`simlib.Results` summarises with these; :mod:`simlib.report.tables` builds the
report's other tables on the same grouping.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import numpy as np
import pandas as pd

__all__ = [
    "format_table",
    "group_codes",
    "group_columns",
    "group_labels",
    "ordered_levels",
    "outcome_order",
    "summary",
    "to_text",
]

#: Columns :func:`summary` produces that are not group columns (``share_*`` aside).
_STAT_COLUMNS = ("n", "wins", "win_rate", "win_lo", "win_hi", "mean_rounds")


def group_columns(by: Hashable | Sequence[Hashable] | None) -> list[Hashable]:
    """Normalise a ``by`` argument to a list of column names.

    Parameters
    ----------
    by : None, str or sequence of str
        ``None`` (no grouping), one column name, or a list/tuple of names.

    Returns
    -------
    list
        The column names, possibly empty.

    """
    if by is None:
        return []
    if isinstance(by, (str, bytes)) or not isinstance(by, Sequence):
        return [by]
    return list(by)


def _check_columns(df: pd.DataFrame, columns: Sequence[Hashable], role: str) -> None:
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise KeyError(
            f"{role}: column(s) {', '.join(map(repr, missing))} not in the DataFrame; "
            f"available columns are {', '.join(map(str, df.columns))}"
        )


def group_codes(df: pd.DataFrame, by: Hashable | Sequence[Hashable] | None):
    """Return a group number per row and the group keys, in natural group order.

    Parameters
    ----------
    df : pandas.DataFrame
        One row per playthrough.
    by : None, str or sequence of str
        Group columns. Categorical columns keep their category order (only observed
        categories appear); other columns sort ascending. Missing keys form their own group
        (sorted last) rather than silently dropping playthroughs.

    Returns
    -------
    codes : numpy.ndarray of intp, shape (len(df),)
        Group number ``0 .. n_groups - 1`` of each row.
    keys : pandas.DataFrame, shape (n_groups, len(by))
        The group columns (dtypes kept), row ``i`` describing group ``i``. With ``by=None``
        one row and no columns.

    """
    cols = group_columns(by)
    if not cols:
        return np.zeros(len(df), dtype=np.intp), pd.DataFrame(index=pd.RangeIndex(1))
    _check_columns(df, cols, "by")
    grouped = df.groupby(cols, observed=True, sort=True, dropna=False)
    codes = grouped.ngroup().to_numpy().astype(np.intp, copy=False)
    keys = grouped.size().index.to_frame(index=False)
    keys.columns = cols
    return codes, keys


def group_labels(keys: pd.DataFrame, sep: str = " / ") -> list[str]:
    """Combine the group columns of each row into one label, e.g. ``"normal / 4"``.

    Parameters
    ----------
    keys : pandas.DataFrame
        Group columns only, one row per group.
    sep : str, default " / "
        Separator between the values of the columns.

    Returns
    -------
    list of str
        One label per row; ``"all games"`` for each row when there are no columns.

    """
    if keys.shape[1] == 0:
        return ["all games"] * len(keys)
    parts = [keys[c].astype(object).map(str).tolist() for c in keys.columns]
    return [sep.join(vals) for vals in zip(*parts, strict=True)]


def ordered_levels(values: pd.Series) -> list:
    """Distinct values in natural order: categorical order, numbers ascending, else first seen."""
    if isinstance(values.dtype, pd.CategoricalDtype):
        present = set(pd.unique(values.dropna()))
        return [c for c in values.cat.categories if c in present]
    uniq = pd.unique(values.dropna())
    if pd.api.types.is_numeric_dtype(values):
        return sorted(uniq.tolist())
    return list(uniq)


def outcome_order(df: pd.DataFrame, outcomes: Sequence[Hashable] | None = None) -> list:
    """Return the outcome categories in display order.

    Parameters
    ----------
    df : pandas.DataFrame
        Has an ``outcome`` column (string or categorical).
    outcomes : sequence, optional
        Explicit order; returned as a list unchanged when given.

    Returns
    -------
    list
        ``outcomes`` if given, else the categorical order of ``df["outcome"]`` if it is
        categorical, else the sorted distinct non-missing values.

    """
    if outcomes is not None:
        return list(outcomes)
    if "outcome" not in df.columns:
        return []
    col = df["outcome"]
    if isinstance(col.dtype, pd.CategoricalDtype):
        return list(col.cat.categories)
    return sorted(pd.unique(col.dropna()).tolist(), key=str)


def _positions(values: pd.Series, order: list) -> np.ndarray:
    """Position of each value in ``order`` (-1 where absent), without hashing every row twice."""
    index = pd.Index(order, dtype=object)
    if not index.is_unique:
        raise ValueError(f"outcomes must be distinct, got {order}")
    if isinstance(values.dtype, pd.CategoricalDtype):
        # Map the few categories, then index by the integer codes.
        lookup = np.append(index.get_indexer(values.cat.categories.astype(object)), -1)
        return lookup[values.cat.codes.to_numpy()].astype(np.intp, copy=False)
    return index.get_indexer(values.astype(object)).astype(np.intp, copy=False)


def summary(
    df: pd.DataFrame,
    by: Hashable | Sequence[Hashable] | None = None,
    outcomes: Sequence[Hashable] | None = None,
    confidence: float = 0.95,
    anytime_prior: float | None = None,
) -> pd.DataFrame:
    """Win rate with a Wilson interval, outcome shares and mean rounds, per group.

    Parameters
    ----------
    df : pandas.DataFrame
        One row per playthrough with columns ``win`` (bool), ``outcome`` (str or
        categorical) and ``rounds`` (int). ``outcome`` and ``rounds`` may be absent, in
        which case their columns are left out.
    by : None, str or sequence of str, optional
        Group columns. Groups come out in the natural order of these columns (categorical
        order, numbers ascending, strings sorted).
    outcomes : sequence, optional
        Outcome categories to report, in this order. Default: the categorical order of
        ``outcome`` if categorical, else its sorted values.
    confidence : float, default 0.95
        Confidence level of the Wilson score interval on the win rate.
    anytime_prior : float, optional
        For runs that stopped on their data (``simlib.run(..., precision=...)``): the
        prior scale of their stopping rule (``meta["stopping"]["prior_games"]``). Adds
        ``anytime_lo`` and ``anytime_hi``, the anytime-valid interval
        (:func:`simlib.core.stats.confidence_sequence`) that stays valid after stopping;
        meaningful only when each group is one such run.

    Returns
    -------
    pandas.DataFrame
        One row per group (one row for ``by=None``) with the group columns first, then
        ``n``, ``wins``, ``win_rate``, ``win_lo``, ``win_hi`` (then ``anytime_lo``,
        ``anytime_hi`` if asked), ``share_<outcome>`` for each outcome, and
        ``mean_rounds``. ``attrs["confidence"]`` records the level.

    """
    from simlib.core.stats import wilson_interval

    _check_columns(df, ["win"], "summary")
    codes, keys = group_codes(df, by)
    n_groups = len(keys)

    n = np.bincount(codes, minlength=n_groups).astype(np.int64)
    win = df["win"].to_numpy(dtype=bool, na_value=False)
    wins = np.bincount(codes[win], minlength=n_groups).astype(np.int64)

    out = keys.copy()
    out["n"] = n
    out["wins"] = wins
    with np.errstate(invalid="ignore", divide="ignore"):
        out["win_rate"] = wins / n
    lo = np.full(n_groups, np.nan)
    hi = np.full(n_groups, np.nan)
    seen = n > 0
    if seen.any():
        lo_s, hi_s = wilson_interval(wins[seen], n[seen], confidence=confidence)
        lo[seen] = np.asarray(lo_s, dtype=float)
        hi[seen] = np.asarray(hi_s, dtype=float)
    out["win_lo"] = lo
    out["win_hi"] = hi
    if anytime_prior is not None:
        from simlib.core.stats import confidence_sequence

        a_lo, a_hi = confidence_sequence(
            wins, n, confidence=confidence, prior_games=anytime_prior
        )
        out["anytime_lo"] = np.where(seen, a_lo, np.nan)
        out["anytime_hi"] = np.where(seen, a_hi, np.nan)

    if "outcome" in df.columns:
        order = outcome_order(df, outcomes)
        k = len(order)
        oc = _positions(df["outcome"], order)
        known = oc >= 0
        counts = np.bincount(codes[known] * k + oc[known], minlength=n_groups * k).reshape(
            n_groups, k
        )
        with np.errstate(invalid="ignore", divide="ignore"):
            shares = counts / n[:, None]
        for j, name in enumerate(order):
            out[f"share_{name}"] = shares[:, j]
    elif outcomes is not None:
        raise KeyError("summary: outcomes were given but the DataFrame has no 'outcome' column")

    if "rounds" in df.columns:
        rounds = df["rounds"].to_numpy(dtype=float, na_value=np.nan)
        ok = ~np.isnan(rounds)
        total = np.bincount(codes[ok], weights=rounds[ok], minlength=n_groups)
        count = np.bincount(codes[ok], minlength=n_groups)
        with np.errstate(invalid="ignore", divide="ignore"):
            out["mean_rounds"] = total / count

    out.attrs["confidence"] = confidence
    return out.reset_index(drop=True)


def _pct(x: float) -> str:
    return "n/a" if pd.isna(x) else f"{100.0 * x:.1f}%"


def _count(x) -> str:
    return "n/a" if pd.isna(x) else f"{int(x):,}"


def _number(x, decimals: int = 2) -> str:
    if pd.isna(x):
        return "n/a"
    if isinstance(x, (bool, np.bool_)):
        return str(bool(x))
    if isinstance(x, (int, np.integer)):
        return f"{int(x):,}"
    return f"{float(x):,.{decimals}f}"


def _numbers(values: pd.Series) -> list[str]:
    """Format one numeric column with the same number of decimals in every row."""
    if pd.api.types.is_integer_dtype(values) or pd.api.types.is_bool_dtype(values):
        return [_number(v) for v in values.astype(object)]
    finite = values.to_numpy(dtype=float, na_value=np.nan)
    finite = np.abs(finite[np.isfinite(finite)])
    top = finite.max() if finite.size else 0.0
    decimals = 1 if top >= 1000 else 2 if top >= 1 else 3
    return [_number(v, decimals) for v in values]


def format_table(summary_df: pd.DataFrame) -> pd.DataFrame:
    """Format a :func:`summary` (or :func:`means`) table as strings for display.

    Parameters
    ----------
    summary_df : pandas.DataFrame
        Output of :func:`summary` or :func:`means`.

    Returns
    -------
    pandas.DataFrame
        All cells as strings: group columns as they are; ``n`` → ``"games"`` and ``wins``
        with thousands separators; ``win_rate`` → ``"win rate"`` like ``"41.2%"``;
        ``win_lo``/``win_hi`` → one column ``"95% Wilson CI"`` like ``"[40.9%, 41.5%]"``;
        ``share_<o>`` → ``"<o>"`` share in percent; ``mean_rounds`` → ``"mean rounds"``;
        other numbers with the same decimals down a column.

    """
    conf = summary_df.attrs.get("confidence", 0.95)
    ci_name = f"{100 * conf:g}% Wilson CI"
    out: dict[str, list[str]] = {}
    for col in summary_df.columns:
        values = summary_df[col]
        if col == "n":
            out["games"] = [_count(v) for v in values]
        elif col == "wins":
            out["wins"] = [_count(v) for v in values]
        elif col == "win_rate":
            out["win rate"] = [_pct(v) for v in values]
        elif col == "win_lo" and "win_hi" in summary_df.columns:
            out[ci_name] = [
                "n/a" if pd.isna(lo) else f"[{_pct(lo)}, {_pct(hi)}]"
                for lo, hi in zip(values, summary_df["win_hi"], strict=True)
            ]
        elif col == "win_hi" and "win_lo" in summary_df.columns:
            continue
        elif col == "anytime_lo" and "anytime_hi" in summary_df.columns:
            out[f"{100 * conf:g}% anytime CI"] = [
                "n/a" if pd.isna(lo) else f"[{_pct(lo)}, {_pct(hi)}]"
                for lo, hi in zip(values, summary_df["anytime_hi"], strict=True)
            ]
        elif col == "anytime_hi" and "anytime_lo" in summary_df.columns:
            continue
        elif isinstance(col, str) and col.startswith("share_"):
            out[col[len("share_") :]] = [_pct(v) for v in values]
        elif col == "mean_rounds":
            out["mean rounds"] = _numbers(values)
        elif pd.api.types.is_numeric_dtype(values) and not isinstance(
            values.dtype, pd.CategoricalDtype
        ):
            out[str(col)] = _numbers(values)
        else:
            out[str(col)] = [str(v) for v in values.astype(object)]
    return pd.DataFrame(out, index=summary_df.index, dtype=object)


def to_text(summary_df: pd.DataFrame) -> str:
    """Render a :func:`summary` table as plain text for a terminal.

    Parameters
    ----------
    summary_df : pandas.DataFrame
        Output of :func:`summary` or :func:`means`.

    Returns
    -------
    str
        The :func:`format_table` of it as an aligned text table without the index.

    """
    return format_table(summary_df).to_string(index=False)
