"""Tables over playthrough DataFrames: the summary, means, end times, causes, matchups.

Every function here reads a pandas DataFrame with one row per playthrough (at least the
columns ``win``, ``outcome`` and ``rounds``) and knows nothing about any game. The summary
itself (win rate with CI, outcome shares, mean rounds) and its display format live in
:mod:`simlib.core.summary`, which :class:`simlib.Results` uses; they are offered here too.

Two helpers serve exact tables (``table = NAME`` experiments) instead: :func:`flat_table`
(any DataFrame to plain columns for parquet and CSV) and :func:`format_values`.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from simlib.core.results import value_text
from simlib.core.summary import (
    _check_columns,
    _count,
    _numbers,
    _pct,
    format_table,
    group_codes,
    group_columns,
    group_labels,
    ordered_levels,
    outcome_order,
    summary,
    to_text,
)

__all__ = [
    "summary",
    "matchup_table",
    "seat_advantage",
    "card_win_rates",
    "means",
    "end_times",
    "cause_shares",
    "format_end_times",
    "format_causes",
    "format_table",
    "to_text",
    "outcome_order",
    "group_columns",
    "group_codes",
    "group_labels",
    "ordered_levels",
    "flat_table",
    "format_values",
    "format_ladder_table",
    "format_ladder_steps",
    "format_headroom",
    "ladder_text",
    "readings_text",
]

def means(
    df: pd.DataFrame,
    columns: Sequence[Hashable],
    by: Hashable | Sequence[Hashable] | None = None,
) -> pd.DataFrame:
    """Mean of each measure column per group, with the number of playthroughs.

    Parameters
    ----------
    df : pandas.DataFrame
        One row per playthrough.
    columns : sequence of str
        Numeric (or bool) measure columns to average. Missing values are skipped.
    by : None, str or sequence of str, optional
        Group columns, ordered as in :func:`summary`.

    Returns
    -------
    pandas.DataFrame
        Group columns, ``n``, then one column per measure (same name) holding its mean.

    """
    columns = group_columns(columns)
    _check_columns(df, columns, "means")
    codes, keys = group_codes(df, by)
    n_groups = len(keys)
    out = keys.copy()
    out["n"] = np.bincount(codes, minlength=n_groups).astype(np.int64)
    for col in columns:
        values = df[col].to_numpy(dtype=float, na_value=np.nan)
        ok = ~np.isnan(values)
        total = np.bincount(codes[ok], weights=values[ok], minlength=n_groups)
        count = np.bincount(codes[ok], minlength=n_groups)
        with np.errstate(invalid="ignore", divide="ignore"):
            out[col] = total / count
    return out.reset_index(drop=True)


def end_times(
    df: pd.DataFrame,
    column: Hashable,
    outcomes: Sequence[Hashable] | None = None,
    by: Hashable | Sequence[Hashable] | None = None,
) -> pd.DataFrame:
    """When games end, by outcome: per group, how many games end each way and their mean time.

    Parameters
    ----------
    df : pandas.DataFrame
        One row per playthrough with ``outcome`` and ``column``.
    column : str
        The game's time measure (``rounds``, a day track, ...).
    outcomes : sequence, optional
        Outcome order; default as in :func:`summary`.
    by : None, str or sequence of str, optional
        Group columns, ordered as in :func:`summary`.

    Returns
    -------
    pandas.DataFrame
        Group columns, ``n``, then per outcome ``o``: ``n_<o>`` (games ending that way) and
        ``mean_<o>`` (their mean ``column``; NaN when none). ``attrs["column"]`` names the
        time measure.

    """
    _check_columns(df, ["outcome", column], "end_times")
    outcomes = outcome_order(df, outcomes)
    codes, keys = group_codes(df, by)
    n_groups = len(keys)
    out = keys.copy()
    out["n"] = np.bincount(codes, minlength=n_groups).astype(np.int64)
    time = df[column].to_numpy(dtype=float, na_value=np.nan)
    outcome = df["outcome"].astype(object).to_numpy()
    for o in outcomes:
        pick = (outcome == o) & ~np.isnan(time)
        count = np.bincount(codes[pick], minlength=n_groups)
        total = np.bincount(codes[pick], weights=time[pick], minlength=n_groups)
        out[f"n_{o}"] = count.astype(np.int64)
        with np.errstate(invalid="ignore", divide="ignore"):
            out[f"mean_{o}"] = np.where(count > 0, total / np.maximum(count, 1), np.nan)
    out = out.reset_index(drop=True)
    out.attrs["column"] = column
    return out


def cause_shares(
    df: pd.DataFrame,
    parts: Sequence[Hashable],
    total: Hashable | None = None,
    by: Hashable | Sequence[Hashable] | None = None,
    confidence: float = 0.95,
) -> pd.DataFrame:
    """What share of a total each cause makes up, per group, with a confidence interval.

    The share of part ``p`` is ``sum(p) / sum(total)`` over the group's games (``total``
    ``None``: the sum of the parts). Games are the independent units, so the interval is
    the delta-method (linearised ratio) interval over games, not one that treats each
    unit of the total (each death, each point of health) as independent; it is clipped to
    [0, 1].

    Parameters
    ----------
    df : pandas.DataFrame
        One row per playthrough.
    parts : sequence of str
        Columns counting the total's causes (deaths by a fall, health lost to gas, ...).
    total : str, optional
        Column of the total the parts belong to; parts may leave some of it unexplained
        (reported as ``other``). ``None``: the parts are the whole.
    by : None, str or sequence of str, optional
        Group columns, ordered as in :func:`summary`.
    confidence : float, default 0.95
        Two-sided confidence of the intervals.

    Returns
    -------
    pandas.DataFrame
        Group columns, ``n``, ``mean_total`` (per game), then per part (and ``other`` when
        ``total`` is given) ``share_<p>``, ``share_<p>_lo``, ``share_<p>_hi``; NaN where the
        group's total is 0. ``attrs``: ``total``, ``parts``, ``confidence``.

    """
    from scipy import stats as _st

    parts = group_columns(parts)
    cols = [*parts, *([total] if total is not None else [])]
    _check_columns(df, cols, "cause_shares")
    codes, keys = group_codes(df, by)
    n_groups = len(keys)
    out = keys.copy()
    n = np.bincount(codes, minlength=n_groups).astype(np.int64)
    out["n"] = n
    values = {c: df[c].to_numpy(dtype=float, na_value=0.0) for c in cols}
    x = values[total] if total is not None else np.sum([values[c] for c in parts], axis=0)
    sx = np.bincount(codes, weights=x, minlength=n_groups)
    with np.errstate(invalid="ignore", divide="ignore"):
        out["mean_total"] = sx / n
    z = float(_st.norm.ppf(0.5 + confidence / 2.0))
    named = [(str(p), values[p]) for p in parts]
    if total is not None:
        named.append(("other", x - np.sum([values[p] for p in parts], axis=0)))
    for name, y in named:
        sy = np.bincount(codes, weights=y, minlength=n_groups)
        with np.errstate(invalid="ignore", divide="ignore"):
            r = np.where(sx > 0, sy / sx, np.nan)
            resid = y - r[codes] * x
            ss = np.bincount(codes, weights=resid * resid, minlength=n_groups)
            se = np.sqrt(ss * n / np.maximum(n - 1, 1)) / sx
        out[f"share_{name}"] = r
        out[f"share_{name}_lo"] = np.clip(r - z * se, 0.0, 1.0)
        out[f"share_{name}_hi"] = np.clip(r + z * se, 0.0, 1.0)
    out = out.reset_index(drop=True)
    out.attrs.update(total=total, parts=[n for n, _ in named], confidence=confidence)
    return out


def format_end_times(table: pd.DataFrame, group_by: Sequence[Hashable] = ()) -> pd.DataFrame:
    """:func:`end_times` as display strings: per outcome, "games (mean time)"."""
    column = table.attrs.get("column", "time")
    out: dict[str, list[str]] = {str(c): [str(v) for v in table[c]] for c in group_by}
    out["games"] = [_count(v) for v in table["n"]]
    for col in table.columns:
        if isinstance(col, str) and col.startswith("n_"):
            o = col[2:]
            out[f"{o}: games (mean {column})"] = [
                f"{int(k):,}" + ("" if k == 0 else f" ({m:.1f})")
                for k, m in zip(table[col], table[f"mean_{o}"], strict=True)
            ]
    return pd.DataFrame(out, dtype=object)


def format_causes(table: pd.DataFrame, group_by: Sequence[Hashable] = ()) -> pd.DataFrame:
    """:func:`cause_shares` as display strings: per cause, "share [lo, hi]"."""
    total = table.attrs.get("total") or "total"
    out: dict[str, list[str]] = {str(c): [str(v) for v in table[c]] for c in group_by}
    out["games"] = [_count(v) for v in table["n"]]
    out[f"{total} per game"] = _numbers(table["mean_total"])
    for name in table.attrs.get("parts", []):
        out[name] = [
            "n/a" if pd.isna(r) else f"{_pct(r)} [{_pct(lo)}, {_pct(hi)}]"
            for r, lo, hi in zip(table[f"share_{name}"], table[f"share_{name}_lo"],
                                 table[f"share_{name}_hi"], strict=True)
        ]
    return pd.DataFrame(out, dtype=object)


#: Abbreviations in column names, spelled out in report headers (the raw name stays on hover).
_WORDS = {"dmg": "damage", "gp": "GP", "vp": "VP", "hp": "HP", "avg": "mean", "n": "number of"}


def column_label(name: Hashable) -> str:
    """A reader's label for a column name: ``dmg_cave_in`` -> ``damage cave in``.

    Underscores become spaces, common abbreviations are spelled out and a trailing number
    is set apart (``hp0`` -> ``HP 0``). Names with spaces (already labels) are unchanged.
    """
    text = str(name)
    if " " in text or not text:
        return text
    words = []
    for word in text.replace("_", " ").split():
        m = re.fullmatch(r"([A-Za-z]+)(\d+)", word)
        stem, num = (m.group(1), m.group(2)) if m else (word, "")
        words.append(_WORDS.get(stem.lower(), stem) + (f" {num}" if num else ""))
    return " ".join(words)


#: Formats :func:`render` writes.
FORMATS = ("table", "csv", "json", "markdown")


def render(summary_df: pd.DataFrame, fmt: str = "table") -> str:
    """Write a :func:`summary` table for a terminal or another program.

    ``table``: aligned text (:func:`to_text`); ``markdown``: the same formatted cells as a
    Markdown table; ``csv`` and ``json`` (a list of records): the raw numbers, for a
    spreadsheet or a script.
    """
    if fmt == "table":
        return to_text(summary_df)
    if fmt == "csv":
        return summary_df.to_csv(index=False).rstrip("\n")
    if fmt == "json":
        return summary_df.to_json(orient="records", double_precision=15)
    if fmt == "markdown":
        shown = format_table(summary_df)

        def cell(v: object) -> str:
            return str(v).replace("|", "\\|")

        lines = ["| " + " | ".join(cell(c) for c in shown.columns) + " |",
                 "|" + "|".join("---" for _ in shown.columns) + "|"]
        lines += ["| " + " | ".join(cell(v) for v in row) + " |"
                  for row in shown.itertuples(index=False)]
        return "\n".join(lines)
    raise ValueError(f"format: {fmt!r}; allowed: {', '.join(FORMATS)}")


# --- two-player tables ------------------------------------------------------------------------
def _scores(winner: np.ndarray, seat: int) -> np.ndarray:
    """Score of ``seat`` per game: 1 for a win, 1/2 for a draw (``winner == -1``), else 0."""
    return np.where(winner == seat, 1.0, np.where(winner == -1, 0.5, 0.0))


def _wilson_columns(score: np.ndarray, n: np.ndarray, confidence: float):
    """Wilson score bounds for ``score`` successes in ``n`` games (nan where ``n == 0``).

    A draw counts half a win, so ``score`` may be fractional; the formula is used as is,
    which is conservative (a draw varies less than a coin flip).
    """
    from scipy.stats import norm

    z = float(norm.ppf(0.5 + confidence / 2.0))
    score = np.asarray(score, dtype=float)
    n = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        k = np.clip(score, 0.0, n)
        denom = n + z * z
        center = (k + z * z / 2.0) / denom
        half = z / denom * np.sqrt(np.maximum(k * (n - k) / n, 0.0) + z * z / 4.0)
        lo = np.where(k <= 0, 0.0, np.clip(center - half, 0.0, 1.0))
        hi = np.where(k >= n, 1.0, np.clip(center + half, 0.0, 1.0))
    lo = np.where(n > 0, lo, np.nan)
    hi = np.where(n > 0, hi, np.nan)
    return lo, hi


def matchup_table(
    df: pd.DataFrame,
    row: Hashable,
    col: Hashable,
    winner: Hashable = "winner",
    confidence: float = 0.95,
    names: tuple[str, str] = ("player", "opponent"),
) -> pd.DataFrame:
    """Win rate of each entity against each other, from both seats, with Wilson intervals.

    For a two-seat game: ``row`` names what seat 0 brought (a deck, a bot), ``col`` what
    seat 1 brought, ``winner`` the winning seat (0, 1, or -1 for a draw). A game of X (seat
    0) against Y (seat 1) counts for X against Y from seat 0 and for Y against X from seat
    1, so each cell pools both seat orders. A mirror cell (X against X) counts each game
    once, from seat 0: it shows the seat-0 advantage. Draws count half a win.

    Parameters
    ----------
    df : pandas.DataFrame
        One row per game with columns ``row``, ``col`` and ``winner``.
    row, col, winner : str
        Column names.
    confidence : float, default 0.95
        Level of the Wilson score intervals.
    names : (str, str), default ("player", "opponent")
        Names of the two key columns of the result.

    Returns
    -------
    pandas.DataFrame
        One row per (player, opponent) pair seen, in natural order: the two key columns,
        ``n`` (games), ``wins``, ``draws``, ``losses``, ``from_seat0`` (games played from
        seat 0), ``win_rate`` ((wins + draws / 2) / n), ``win_lo`` and ``win_hi``.
        ``attrs["confidence"]`` records the level.

    """
    _check_columns(df, [row, col, winner], "matchup_table")
    a = df[row].astype(object).to_numpy()
    b = df[col].astype(object).to_numpy()
    w = df[winner].to_numpy(dtype=np.int64)
    mirror = a == b
    keep = ~mirror
    player = np.concatenate([a, b[keep]])
    opponent = np.concatenate([b, a[keep]])
    res = np.concatenate([np.where(w == 0, 1, np.where(w == -1, 0, -1)),
                          np.where(w[keep] == 1, 1, np.where(w[keep] == -1, 0, -1))])
    seat0 = np.concatenate([np.ones(len(a), bool), np.zeros(int(keep.sum()), bool)])
    long = pd.DataFrame({names[0]: player, names[1]: opponent, "_res": res, "_s0": seat0})
    for k in names:
        values = _natural(pd.concat([df[row], df[col]], ignore_index=True))
        long[k] = pd.Categorical(long[k], categories=values)
    codes, keys = group_codes(long, list(names))
    m = len(keys)
    r = long["_res"].to_numpy()
    n = np.bincount(codes, minlength=m).astype(np.int64)
    wins = np.bincount(codes[r == 1], minlength=m).astype(np.int64)
    draws = np.bincount(codes[r == 0], minlength=m).astype(np.int64)
    out = keys.copy()
    out["n"] = n
    out["wins"] = wins
    out["draws"] = draws
    out["losses"] = n - wins - draws
    out["from_seat0"] = np.bincount(codes[long["_s0"].to_numpy()], minlength=m).astype(np.int64)
    score = wins + 0.5 * draws
    with np.errstate(invalid="ignore", divide="ignore"):
        out["win_rate"] = score / n
    out["win_lo"], out["win_hi"] = _wilson_columns(score, n, confidence)
    out.attrs["confidence"] = confidence
    return out.reset_index(drop=True)


def _natural(values: pd.Series) -> list:
    if isinstance(values.dtype, pd.CategoricalDtype):
        present = set(values.dropna().astype(object))
        return [c for c in values.cat.categories if c in present]
    return sorted(values.dropna().unique().tolist())


def seat_advantage(
    df: pd.DataFrame,
    seat: Hashable,
    winner: Hashable = "winner",
    by: Hashable | Sequence[Hashable] | None = None,
    confidence: float = 0.95,
) -> pd.DataFrame:
    """How often the seat named in column ``seat`` (e.g. the first player) wins.

    Parameters
    ----------
    df : pandas.DataFrame
        One row per game with columns ``seat`` (a seat number per game) and ``winner``
        (the winning seat, -1 for a draw).
    seat, winner : str
        Column names.
    by : None, str or sequence of str, optional
        Group columns.
    confidence : float, default 0.95
        Level of the Wilson score interval.

    Returns
    -------
    pandas.DataFrame
        One row per group: the group columns, ``n``, ``wins``, ``draws``, ``win_rate``
        ((wins + draws / 2) / n, 0.5 = no advantage), ``win_lo``, ``win_hi``.

    """
    _check_columns(df, [seat, winner], "seat_advantage")
    codes, keys = group_codes(df, by)
    m = len(keys)
    w = df[winner].to_numpy(dtype=np.int64)
    s = df[seat].to_numpy(dtype=np.int64)
    n = np.bincount(codes, minlength=m).astype(np.int64)
    wins = np.bincount(codes[w == s], minlength=m).astype(np.int64)
    draws = np.bincount(codes[w == -1], minlength=m).astype(np.int64)
    out = keys.copy()
    out["n"] = n
    out["wins"] = wins
    out["draws"] = draws
    score = wins + 0.5 * draws
    with np.errstate(invalid="ignore", divide="ignore"):
        out["win_rate"] = score / n
    out["win_lo"], out["win_hi"] = _wilson_columns(score, n, confidence)
    out.attrs["confidence"] = confidence
    return out.reset_index(drop=True)


def card_win_rates(
    df: pd.DataFrame,
    mask_columns: Sequence[Sequence[Hashable]],
    winner: Hashable = "winner",
    labels: Sequence[Hashable] | None = None,
    confidence: float = 0.95,
) -> pd.DataFrame:
    """Per item (a card), the win rate of seats that used it against seats that did not.

    Each seat of a game is one observation. ``mask_columns[s]`` lists seat ``s``'s integer
    bitmask columns: bit ``b`` of the ``w``-th column is set when that seat used item
    ``64 w + b``. A seat wins when ``winner == s``; draws count half a win.

    Parameters
    ----------
    df : pandas.DataFrame
        One row per game.
    mask_columns : sequence (per seat) of sequences of str
        The bitmask columns of each seat, lowest item ids first (int64 or uint64).
    winner : str, default "winner"
        The winning seat (-1 for a draw).
    labels : sequence, optional
        Item names by item id; default ``"item <id>"``.
    confidence : float, default 0.95
        Level of the Wilson score intervals.

    Returns
    -------
    pandas.DataFrame
        One row per item used at least once: ``item``, ``id``, ``n_played``,
        ``win_rate_played``, ``played_lo``, ``played_hi``, ``n_not``,
        ``win_rate_not``, ``not_lo``, ``not_hi`` and ``difference`` (played minus not),
        sorted by ``difference``, largest first. ``attrs["confidence"]`` records the level.

    """
    cols = [c for seat in mask_columns for c in seat]
    _check_columns(df, [*cols, winner], "card_win_rates")
    w = df[winner].to_numpy(dtype=np.int64)
    n_words = max(len(seat) for seat in mask_columns)
    n_items = 64 * n_words
    n_played = np.zeros(n_items, np.int64)
    s_played = np.zeros(n_items)
    total_n = 0
    total_s = 0.0
    for s, seat_cols in enumerate(mask_columns):
        score = _scores(w, s)
        total_n += len(score)
        total_s += float(score.sum())
        for k, c in enumerate(seat_cols):
            m = df[c].to_numpy().view(np.uint64)
            for b in range(64):
                hit = ((m >> np.uint64(b)) & np.uint64(1)).astype(bool)
                cnt = int(hit.sum())
                if cnt:
                    n_played[64 * k + b] += cnt
                    s_played[64 * k + b] += float(score[hit].sum())
    ids = np.flatnonzero(n_played)
    n_not = total_n - n_played[ids]
    s_not = total_s - s_played[ids]
    out = pd.DataFrame({
        "item": [labels[int(i)] if labels is not None and i < len(labels) else f"item {i}"
                 for i in ids],
        "id": ids,
        "n_played": n_played[ids],
    })
    with np.errstate(invalid="ignore", divide="ignore"):
        out["win_rate_played"] = s_played[ids] / n_played[ids]
        out["played_lo"], out["played_hi"] = _wilson_columns(s_played[ids], n_played[ids],
                                                             confidence)
        out["n_not"] = n_not
        out["win_rate_not"] = s_not / n_not
    out["not_lo"], out["not_hi"] = _wilson_columns(s_not, n_not, confidence)
    out["difference"] = out["win_rate_played"] - out["win_rate_not"]
    out = out.sort_values(["difference", "id"], ascending=[False, True], kind="stable")
    out = out.reset_index(drop=True)
    out.attrs["confidence"] = confidence
    return out


# --- exact tables ---------------------------------------------------------------------------
def flat_table(df: pd.DataFrame) -> pd.DataFrame:
    """Return ``df`` with a meaningful index moved into columns and string column names.

    A default index (an unnamed ``0 .. n-1`` range) is dropped; any other index (named, or
    labels such as armor ids) becomes leading column(s), so parquet, CSV and HTML show the
    same columns. Column names become strings (a multi-level name is joined with ``_``).

    Raises
    ------
    ValueError
        Two columns end up with the same name.

    """
    out = df.copy()
    plain = (
        isinstance(out.index, pd.RangeIndex)
        and out.index.start == 0
        and out.index.step == 1
        and out.index.name is None
    )
    out = out.reset_index(drop=True) if plain else out.reset_index()
    names = [
        "_".join(map(str, c)) if isinstance(c, tuple) else str(c) for c in out.columns
    ]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise ValueError(f"flat_table: column name(s) {', '.join(dup)} appear twice")
    out.columns = names
    return out


def _value_cell(v) -> str:
    if v is None or (isinstance(v, float) and np.isnan(v)):
        return ""
    if isinstance(v, (bool, np.bool_)):
        return "yes" if v else "no"
    if isinstance(v, (int, np.integer)):
        return f"{int(v):,}" if abs(int(v)) >= 10_000 else str(int(v))
    if isinstance(v, (float, np.floating)):
        x = float(v)
        if x == 0.0 or 1e-4 <= abs(x) < 1e6:
            return f"{x:.4f}"
        return f"{x:.3e}"
    return str(v)


def format_values(df: pd.DataFrame) -> pd.DataFrame:
    """Format a flat table's cells as strings for display.

    Floats get 4 decimals (scientific notation below 1e-4 or from 1e6, so a small chance
    never shows as 0.0000 unless it is 0); integers stay whole (thousands separators from
    10,000); booleans read yes/no; missing values are blank; anything else is ``str``.
    """
    return pd.DataFrame(
        {c: [_value_cell(v) for v in df[c].tolist()] for c in df.columns}, columns=df.columns
    )


# --- skill ladder -----------------------------------------------------------------------------
def _pp(x: float) -> str:
    return "n/a" if pd.isna(x) else f"{100.0 * x:+.1f}"


def _p_value(p: float) -> str:
    if pd.isna(p):
        return "n/a"
    if p == 0.0:
        return "< 1e-300"
    return f"{p:.1e}" if p < 1e-3 else f"{p:.3g}"


def _seconds(s: float) -> str:
    if pd.isna(s):
        return "n/a"
    if s >= 1.0:
        return f"{s:.2f} s"
    if s >= 1e-3:
        return f"{1e3 * s:.2f} ms"
    return f"{1e6 * s:.1f} us"


def format_ladder_table(table: pd.DataFrame) -> pd.DataFrame:
    """Format :meth:`simlib.core.ladder.Ladder.table` as strings for display."""
    return pd.DataFrame(
        {
            "preset": table["preset"].astype(str),
            "rung": table["rung"].astype(str),
            "budget": ["scripted" if pd.isna(b) else str(int(b)) for b in table["budget"]],
            "games": [_count(v) for v in table["games"]],
            "wins": [_count(v) for v in table["wins"]],
            "win rate": [_pct(v) for v in table["win_rate"]],
            "95% Wilson CI": [
                f"[{_pct(lo)}, {_pct(hi)}]"
                for lo, hi in zip(table["win_lo"], table["win_hi"], strict=True)
            ],
            "time per game": [_seconds(v) for v in table["sec_per_game"]],
        },
        dtype=object,
    )


def format_ladder_steps(steps: pd.DataFrame) -> pd.DataFrame:
    """Format :meth:`simlib.core.ladder.Ladder.steps` as strings (differences in points)."""
    return pd.DataFrame(
        {
            "preset": steps["preset"].astype(str),
            "rung": steps["rung"].astype(str),
            "against": steps["against"].astype(str),
            "kind": steps["kind"].astype(str),
            "rates": [
                f"{_pct(a)} vs {_pct(b)}"
                for a, b in zip(steps["rate"], steps["against_rate"], strict=True)
            ],
            "difference (pp)": [_pp(v) for v in steps["diff"]],
            "95% CI (pp)": [
                f"[{_pp(lo)}, {_pp(hi)}]"
                for lo, hi in zip(steps["diff_lo"], steps["diff_hi"], strict=True)
            ],
            "p": [_p_value(v) for v in steps["p_value"]],
            "discordant": [
                f"{_count(a)} / {_count(b)}"
                for a, b in zip(steps["discordant"], steps["discordant_against"], strict=True)
            ],
        },
        dtype=object,
    )


def format_headroom(headroom: pd.DataFrame) -> pd.DataFrame:
    """Format :meth:`simlib.core.ladder.Ladder.headroom` as strings for display."""
    return pd.DataFrame(
        {
            "preset": headroom["preset"].astype(str),
            "default bot": [
                f"{b} {_pct(r)} [{_pct(lo)}, {_pct(hi)}]"
                for b, r, lo, hi in zip(headroom["default_bot"], headroom["default_rate"],
                                        headroom["default_lo"], headroom["default_hi"],
                                        strict=True)
            ],
            "best search": [
                f"@{int(b)} {_pct(r)} [{_pct(lo)}, {_pct(hi)}]"
                for b, r, lo, hi in zip(headroom["best_budget"], headroom["best_rate"],
                                        headroom["best_lo"], headroom["best_hi"], strict=True)
            ],
            "headroom (pp)": [_pp(v) for v in headroom["diff"]],
            "95% CI (pp)": [
                f"[{_pp(lo)}, {_pp(hi)}]"
                for lo, hi in zip(headroom["diff_lo"], headroom["diff_hi"], strict=True)
            ],
            "p": [_p_value(v) for v in headroom["p_value"]],
            "largest budget": [
                f"@{int(b)} {_pct(r)} ({_pp(d)} pp)"
                for b, r, d in zip(headroom["top_budget"], headroom["top_rate"],
                                   headroom["top_diff"], strict=True)
            ],
        },
        dtype=object,
    )


def ladder_text(lad) -> str:
    """A skill ladder's three tables as aligned text (what ``simlib ladder`` prints).

    ``lad`` is a :class:`simlib.core.ladder.Ladder`.
    """

    def text(df: pd.DataFrame) -> str:
        return df.to_string(index=False)

    parts = [
        f"{lad.title}: skill ladder, {lad.games:,} games per rung, seed {lad.seed}, "
        f"budgets {', '.join(map(str, lad.budgets))}"
        + ("" if lad.complete else " (partial: some rungs hold fewer games; run again)"),
        "",
        "rungs (win rate with 95% Wilson interval; seconds per game after a warm-up):",
        text(format_ladder_table(lad.table())),
        "",
        "steps (paired differences, 95% Newcombe interval, exact McNemar p):",
        text(format_ladder_steps(lad.steps())),
        "",
        "headroom (best search rung against the default bot, paired):",
        text(format_headroom(lad.headroom())),
    ]
    if lad.readings:
        parts += ["", "readings: " + readings_text(lad.readings)]
    return "\n".join(parts)


def readings_text(readings: Sequence[Mapping[str, Any]]) -> str:
    """``name=value (rule)`` for each reading, comma-separated."""
    return ", ".join(f"{r['name']}={value_text(r['value'])} ({r['rule']})" for r in readings)
