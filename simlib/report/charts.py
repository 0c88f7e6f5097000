"""Charts over summary tables and playthrough DataFrames (matplotlib).

Every plot takes ``ax=None`` and returns the ``Axes`` it drew on; with ``ax=None`` a new
pyplot figure is made (so notebooks show it inline). Nothing here sets global rcParams,
calls ``plt.show`` or knows a game: charts read DataFrames only. Titles and axis labels
name the setting, the metric and the interval.
"""

from __future__ import annotations

import io
from collections.abc import Hashable, Mapping, Sequence

import numpy as np
import pandas as pd
from matplotlib.ticker import MaxNLocator, PercentFormatter

from simlib.report.effects import change_label
from simlib.report.tables import (
    group_codes,
    group_columns,
    group_labels,
    ordered_levels,
    outcome_order,
)

__all__ = [
    "difficulty_curve",
    "outcome_bars",
    "rounds_histogram",
    "end_time_bars",
    "remaining_by_round",
    "remaining_by_round_table",
    "ladder_chart",
    "heatmap",
    "matchup_heatmap",
    "card_win_rate_chart",
    "tornado",
    "effects_chart",
    "fig_to_png_bytes",
    "line_colors",
    "fit_rate_ylim",
    "small_multiples",
    "step_intervals",
    "MAX_LINES",
]

#: Most lines one panel of a line chart draws; a report shows a table instead of more.
MAX_LINES = 10

#: Leave-round sentinel: the unit never left play (still in play at the end).
NEVER_LEFT = -1
#: Leave-round sentinel: the unit was not in this game.
NOT_PRESENT = -2


def _new_ax(ax, figsize=(7.0, 4.5)):
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    _, ax = plt.subplots(figsize=figsize, layout="constrained")
    return ax


def _conf_label(table: pd.DataFrame) -> str:
    conf = table.attrs.get("confidence", 0.95)
    return f"{100 * conf:g}% Wilson CI"


def _names(cols: Sequence[Hashable]) -> str:
    return " / ".join(map(str, cols))


def _percent_y(ax, ylim=(0.0, 1.0)) -> None:
    ax.set_ylim(*ylim)
    span = ylim[1] - ylim[0]
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0 if span >= 0.1 else 1))


def line_colors(n: int) -> list:
    """``n`` colours, none repeated: tab10 up to 10, tab20 up to 20, else spaced on turbo."""
    from matplotlib import colormaps

    if n <= 10:
        return [colormaps["tab10"](i) for i in range(n)]
    if n <= 20:
        return [colormaps["tab20"](i) for i in range(n)]
    return [colormaps["turbo"](v) for v in np.linspace(0.05, 0.95, n)]


def fit_rate_ylim(lo, hi, pad: float = 0.08, least: float = 0.05) -> tuple[float, float]:
    """A win-rate axis that holds every interval band ``[lo, hi]``, padded, inside [0, 1].

    The range is at least ``least`` wide (so a flat curve is not magnified into noise);
    ``pad`` is the share of the span added above and below.
    """
    lo = np.asarray(lo, dtype=float)
    hi = np.asarray(hi, dtype=float)
    finite = np.concatenate([lo[np.isfinite(lo)], hi[np.isfinite(hi)]])
    if not finite.size:
        return (0.0, 1.0)
    a, b = float(finite.min()), float(finite.max())
    if b - a < least:
        mid = (a + b) / 2
        a, b = mid - least / 2, mid + least / 2
    span = b - a
    a, b = a - pad * span, b + pad * span
    if a < 0.0:
        a, b = 0.0, min(1.0, b - a)
    if b > 1.0:
        a, b = max(0.0, a - (b - 1.0)), 1.0
    return (a, b)


def _legend_outside(ax, title=None) -> None:
    """The axes' legend to the right of the plot, so it never covers or squeezes it."""
    ax.legend(title=title, fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0),
              borderaxespad=0.0)


def _color_of(colors, name, g, n):
    """Colour of line ``g`` (named ``name``) of ``n``: from ``colors`` or non-repeating.

    A lone line without a given colour takes matplotlib's next colour (None), so curves
    overlaid by several calls on one axes still differ.
    """
    if isinstance(colors, Mapping) and name in colors:
        return colors[name]
    return line_colors(n)[g] if n > 1 else None


def small_multiples(fig, levels, draw, *, ncols: int = 3, title=None, legend_title=None,
                    sharex: bool = True, sharey: bool = True):
    """One panel per level, in a grid on ``fig``, with one legend outside the panels.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The (empty) figure to fill; ``layout="constrained"`` keeps the legend outside.
    levels : sequence
        One panel per level, in order.
    draw : callable
        ``draw(ax, level)`` draws one panel (with ``legend=False``).
    ncols : int, default 3
        Panels per row.
    title : str, optional
        The figure's title (each panel is titled with its level).
    legend_title : str, optional
        Title of the shared legend (the lines' grouping), drawn right of the panels from
        the labels of every panel (each once).
    sharex, sharey : bool, default True
        One x (y) axis for all panels, so their positions (heights) compare.

    Returns
    -------
    list of matplotlib.axes.Axes
        The panels, one per level.

    """
    levels = list(levels)
    ncols = max(1, min(ncols, len(levels)))
    nrows = -(-len(levels) // ncols)
    grid = fig.subplots(nrows, ncols, sharex=sharex, sharey=sharey, squeeze=False)
    panels = []
    for i, level in enumerate(levels):
        ax = grid[i // ncols][i % ncols]
        draw(ax, level)
        ax.set_title(str(level), fontsize="medium")
        if i % ncols:  # the row's first panel names the y axis
            ax.set_ylabel("")
        if i + ncols < len(levels):
            if sharex:
                ax.set_xlabel("")
        else:  # the lowest panel of its column shows the x axis, even above an empty slot
            ax.xaxis.set_tick_params(labelbottom=True)
        panels.append(ax)
    for ax in grid.flat[len(levels):]:
        ax.set_visible(False)
    handles, labels = [], []
    for ax in panels:
        for h, lab in zip(*ax.get_legend_handles_labels(), strict=True):
            if lab not in labels and not lab.startswith("_"):
                handles.append(h)
                labels.append(lab)
    if labels:
        fig.legend(handles, labels, title=legend_title, fontsize="small",
                   loc="outside right upper")
    if title:
        fig.suptitle(title)
    return panels


def _outcome_color(colors, name, j):
    """The colour of outcome ``name`` (``j``-th in order): from a mapping, a list or none."""
    if isinstance(colors, Mapping):
        return colors.get(name)
    return list(colors)[j] if colors is not None else None


def difficulty_curve(summary, x, hue=None, ax=None, label=None, *, colors=None, legend=True,
                     ylim=None, **style):
    """Plot win rate against a swept setting, with a shaded confidence band.

    Parameters
    ----------
    summary : pandas.DataFrame
        Output of :func:`simlib.report.tables.summary` grouped by at least ``x`` (and
        ``hue``), with columns ``win_rate``, ``win_lo``, ``win_hi``.
    x : str
        The swept setting. Numeric settings are placed at their values; others
        (strings, categoricals) at evenly spaced positions in their natural order.
    hue : str or list of str, optional
        Column(s) splitting the curves, one line per value (several columns are combined
        into one label like ``"expert / cautious"``).
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.
    label : str, optional
        Legend label of the single line when ``hue`` is None (for overlaying calls).
    colors : mapping, optional
        Colour per curve label (so small multiples colour a level alike in every panel);
        other curves take non-repeating colours (:func:`line_colors`).
    legend : bool, default True
        Draw the legend (right of the plot); small multiples draw one for all panels.
    ylim : (float, float), optional
        The win-rate axis; default: fitted to the interval bands (:func:`fit_rate_ylim`).

    **style
        Keywords for matplotlib's ``plot`` (each line), over the chart's
        defaults (``color``, ``linewidth``, ``alpha``, ...).

    Returns
    -------
    matplotlib.axes.Axes
        The axes drawn on: one line and one band per curve.

    """
    ax = _new_ax(ax)
    hue_cols = group_columns(hue)
    table = summary
    xvals = table[x]
    numeric = pd.api.types.is_numeric_dtype(xvals) and not pd.api.types.is_bool_dtype(xvals)
    numeric = numeric and not isinstance(xvals.dtype, pd.CategoricalDtype)
    if numeric:
        pos = xvals.to_numpy(dtype=float)
    else:
        order = ordered_levels(xvals)
        index = {v: i for i, v in enumerate(order)}
        pos = np.array([index.get(v, np.nan) for v in xvals.astype(object)], dtype=float)

    if hue_cols:
        codes, keys = group_codes(table, hue_cols)
        names = group_labels(keys)
    else:
        codes = np.zeros(len(table), dtype=np.intp)
        names = [label]

    rate = table["win_rate"].to_numpy(dtype=float)
    lo = table["win_lo"].to_numpy(dtype=float)
    hi = table["win_hi"].to_numpy(dtype=float)
    for g, name in enumerate(names):
        rows = np.flatnonzero(codes == g)
        rows = rows[np.argsort(pos[rows], kind="stable")]
        color = _color_of(colors, name, g, len(names))
        (line,) = ax.plot(
            pos[rows],
            rate[rows],
            **{"marker": "o", "markersize": 3.5, "color": color, **style, "label": name},
        )
        ax.fill_between(
            pos[rows], lo[rows], hi[rows], color=line.get_color(), alpha=0.2, linewidth=0
        )

    if not numeric:
        ax.set_xticks(range(len(order)))
        ax.set_xticklabels([str(v) for v in order])
    elif pd.api.types.is_integer_dtype(xvals):
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    _percent_y(ax, fit_rate_ylim(lo, hi) if ylim is None else ylim)
    ax.set_xlabel(str(x))
    ax.set_ylabel(f"win rate ({_conf_label(summary)})")
    title = f"Win rate by {x}"
    if hue_cols:
        title += f", one line per {_names(hue_cols)}"
    ax.set_title(f"{title} (band: {_conf_label(summary)})")
    if legend and (hue_cols or label is not None):
        _legend_outside(ax, _names(hue_cols) if hue_cols else None)
    ax.grid(True, alpha=0.3)
    return ax


def step_intervals(table, x, ax=None, value="win_rate", lo="win_lo", hi="win_hi",
                   ci_label="95% CI", **style):
    """Win rate at each step (a row of ``table``, in order) as a point with its interval.

    Parameters
    ----------
    table : pandas.DataFrame
        One row per step with the columns ``x``, ``value``, ``lo`` and ``hi``.
    x : str
        The step's label column, placed evenly in the table's order.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.
    value, lo, hi : str
        The rate and its interval's bounds (shares in [0, 1]).
    ci_label : str, default "95% CI"
        What the interval is, for the axis label.

    **style
        Keywords for matplotlib's ``errorbar``, over the chart's defaults.

    Returns
    -------
    matplotlib.axes.Axes
        The axes drawn on: one point and error bar per row, the axis fitted to the bars.

    """
    ax = _new_ax(ax)
    rate = table[value].to_numpy(dtype=float)
    low = table[lo].to_numpy(dtype=float)
    high = table[hi].to_numpy(dtype=float)
    pos = np.arange(len(table))
    ax.errorbar(pos, rate, yerr=[rate - low, high - rate],
                **{"fmt": "o", "capsize": 4, "color": line_colors(1)[0], **style})
    labels = [str(v) for v in table[x]]
    long = max((len(v) for v in labels), default=0) * len(labels) > 30
    ax.set_xticks(pos)
    ax.set_xticklabels(labels, rotation=30 if long else 0, ha="right" if long else "center")
    ax.set_xlim(-0.5, len(table) - 0.5)
    _percent_y(ax, fit_rate_ylim(low, high))
    ax.set_ylabel(f"win rate ({ci_label})")
    ax.grid(True, axis="y", alpha=0.3)
    return ax


def outcome_bars(summary, x, outcomes, ax=None, colors=None, *, legend=True, **style):
    """Stacked bars of outcome shares per group.

    Parameters
    ----------
    summary : pandas.DataFrame
        Output of :func:`simlib.report.tables.summary` with ``share_<outcome>`` columns.
    x : str, list of str or None
        Group column(s) along the x axis; several are combined into one label per bar
        (``"normal / 4"``). ``None`` draws every row of ``summary`` as "all games".
    outcomes : sequence of str or None
        Outcomes to stack, bottom to top. ``None`` takes every ``share_*`` column in order.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.
    colors : mapping or sequence, optional
        Colour per outcome (dict keyed by outcome, or a list in ``outcomes`` order).
    legend : bool, default True
        Draw the legend (right of the plot).

    **style
        Keywords for matplotlib's ``bar`` (each outcome's bars), over the chart's
        defaults (``color``, ``linewidth``, ``alpha``, ...).

    Returns
    -------
    matplotlib.axes.Axes
        The axes drawn on: ``len(summary) * len(outcomes)`` bar patches and a legend.

    """
    ax = _new_ax(ax)
    x_cols = group_columns(x)
    if outcomes is None:
        outcomes = [
            c[len("share_") :]
            for c in summary.columns
            if isinstance(c, str) and c.startswith("share_")
        ]
    outcomes = list(outcomes)
    missing = [o for o in outcomes if f"share_{o}" not in summary.columns]
    if missing:
        raise KeyError(
            f"outcome_bars: no share column for outcome(s) {missing}; "
            "pass the outcomes the summary was built with"
        )
    labels = group_labels(summary[x_cols]) if x_cols else ["all games"] * len(summary)
    pos = np.arange(len(summary))
    bottom = np.zeros(len(summary))
    for j, name in enumerate(outcomes):
        color = _outcome_color(colors, name, j)
        share = np.nan_to_num(summary[f"share_{name}"].to_numpy(dtype=float))
        ax.bar(
            pos,
            share,
            bottom=bottom,
            **{
                "width": 0.8,
                "color": color,
                "edgecolor": "white",
                "linewidth": 0.5,
                **style,
                "label": str(name),
            },
        )
        bottom += share
    ax.set_xticks(pos)
    long = len(labels) > 6 or max((len(s) for s in labels), default=0) > 10
    ax.set_xticklabels(labels, rotation=45 if long else 0, ha="right" if long else "center")
    _percent_y(ax)
    ax.set_ylabel("share of games")
    ax.set_xlabel(_names(x_cols) if x_cols else "")
    ax.set_title(f"Outcome shares by {_names(x_cols)}" if x_cols else "Outcome shares")
    if legend:
        _legend_outside(ax, "outcome")
    return ax


def rounds_histogram(df, by=None, ax=None, column="rounds", **style):
    """Histogram of an integer column (game length) as shares of games, unit-width bins.

    Parameters
    ----------
    df : pandas.DataFrame
        One row per playthrough with an integer column ``column``.
    by : str or list of str, optional
        Group column(s); each group is drawn as its own outline, normalised to its own
        number of games.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.
    column : str, default "rounds"
        The integer measure to histogram. Missing values are ignored.

    **style
        Keywords for matplotlib's ``stairs``, over the chart's
        defaults (``color``, ``linewidth``, ``alpha``, ...).

    Returns
    -------
    matplotlib.axes.Axes
        The axes drawn on: one step patch per group (one filled patch without ``by``).

    """
    ax = _new_ax(ax)
    by_cols = group_columns(by)
    codes, keys = group_codes(df, by_cols)
    values = df[column].to_numpy(dtype=float, na_value=np.nan)
    ok = ~np.isnan(values)
    codes, values = codes[ok], np.rint(values[ok]).astype(np.int64)
    n_groups = len(keys)
    if len(values):
        vmin, vmax = int(values.min()), int(values.max())
    else:
        vmin = vmax = 0
    width = vmax - vmin + 1
    counts = np.bincount(codes * width + (values - vmin), minlength=n_groups * width)
    counts = counts.reshape(n_groups, width)
    edges = np.arange(vmin, vmax + 2) - 0.5
    names = group_labels(keys) if by_cols else [f"all games (n={len(values):,})"]
    for g, name in enumerate(names):
        total = counts[g].sum()
        share = counts[g] / total if total else counts[g].astype(float)
        if by_cols:
            color = line_colors(len(names))[g]
            ax.stairs(share, edges, **{"linewidth": 1.5, "color": color, **style, "label": name})
        else:
            ax.stairs(share, edges, **{"fill": True, "alpha": 0.6, **style, "label": name})
    ax.set_xlabel(str(column))
    ax.set_ylabel("share of games")
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))  # auto decimals: shares can be small
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylim(bottom=0.0)
    title = f"Distribution of {column}"
    if by_cols:
        title += f" by {_names(by_cols)}"
        _legend_outside(ax, _names(by_cols))
    ax.set_title(title + " (share of games)")
    return ax


def end_time_bars(df, column, outcomes=None, ax=None, colors=None, **style):
    """When games end: stacked bars of the share of games ending at each ``column`` value.

    Parameters
    ----------
    df : pandas.DataFrame
        One row per playthrough with ``outcome`` and an integer column ``column``.
    column : str
        The time measure (``rounds``, a day track, ...). Missing values are ignored.
    outcomes : sequence, optional
        Outcomes to stack, bottom to top; default as in
        :func:`simlib.report.tables.summary`.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.
    colors : mapping or sequence, optional
        Colour per outcome (dict keyed by outcome, or a list in ``outcomes`` order).
    legend : bool, default True
        Draw the legend (right of the plot).

    **style
        Keywords for matplotlib's ``bar``, over the chart's
        defaults (``color``, ``linewidth``, ``alpha``, ...).

    Returns
    -------
    matplotlib.axes.Axes
        The axes drawn on: one bar per ``column`` value and outcome; the bars of all
        outcomes together sum to 1 (every game ends once).

    """
    ax = _new_ax(ax)
    outcomes = outcome_order(df, outcomes)
    values = df[column].to_numpy(dtype=float, na_value=np.nan)
    ok = ~np.isnan(values)
    times = np.rint(values[ok]).astype(np.int64)
    outcome = df["outcome"].astype(object).to_numpy()[ok]
    n = len(times)
    vmin = int(times.min()) if n else 0
    vmax = int(times.max()) if n else 0
    pos = np.arange(vmin, vmax + 1)
    bottom = np.zeros(len(pos))
    for j, name in enumerate(outcomes):
        color = _outcome_color(colors, name, j)
        pick = outcome == name
        share = np.bincount(times[pick] - vmin, minlength=len(pos)) / max(n, 1)
        ax.bar(pos, share, bottom=bottom, **{"width": 0.85, "color": color,
               "edgecolor": "white", "linewidth": 0.5, **style, "label": str(name)})
        bottom += share
    ax.set_xlabel(str(column))
    ax.set_ylabel("share of games")
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_title(f"When games end, by {column} and outcome (all {n:,} games)")
    ax.legend(title="outcome", fontsize="small", loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return ax


def remaining_by_round_table(df, leave_columns, by=None, max_round=None):
    """Mean number of units still in play at each round, per group.

    Each column in ``leave_columns`` holds, per playthrough, the round at which one unit
    left play (escaped or was removed). Sentinels: ``-1`` means the unit never left (it
    was still in play at the end); ``-2`` (or any other negative value, or NaN) means the
    unit was not in this game. At round ``r`` a present unit counts if its leave round is
    greater than ``r`` or it never left.

    Parameters
    ----------
    df : pandas.DataFrame
        One row per playthrough.
    leave_columns : sequence of str
        One column per unit slot with the leave round or a sentinel.
    by : str or list of str, optional
        Group columns, ordered as in :func:`simlib.report.tables.summary`.
    max_round : int, optional
        Last round of the table. Default: the largest of ``df["rounds"]`` (if present) and
        the leave rounds.

    Returns
    -------
    pandas.DataFrame
        Group columns, ``round`` (0 .. max_round) and ``mean_remaining`` (mean over the
        group's playthroughs), one row per group and round.

    """
    cols = group_columns(leave_columns)
    missing = [c for c in cols if c not in df.columns]
    if missing:
        raise KeyError(f"remaining_by_round: leave column(s) {missing} not in the DataFrame")
    codes, keys = group_codes(df, by)
    n_groups = len(keys)
    n = np.bincount(codes, minlength=n_groups)
    leaves = [df[c].to_numpy(dtype=float, na_value=np.nan) for c in cols]

    if max_round is None:
        # NaN compares False with everything, so NaN counts as "not present" throughout.
        tops = [np.max(v, where=v >= 0, initial=0.0) for v in leaves]
        max_round = int(max(tops, default=0.0))
        if "rounds" in df.columns and len(df):
            rmax = df["rounds"].max()
            if pd.notna(rmax):
                max_round = max(max_round, int(rmax))
    max_round = int(max_round)
    width = max_round + 2  # bins 0..max_round, and one for "after max_round"

    never_per_group = np.zeros(n_groups)
    hist = np.zeros(n_groups * width)
    for v in leaves:
        never_per_group += np.bincount(codes[v == NEVER_LEFT], minlength=n_groups)
        left = v >= 0
        # For integer rounds r, "leave > r" is "floor(leave) > r".
        bins = np.minimum(np.floor(v[left]), max_round + 1).astype(np.int64)
        hist += np.bincount(codes[left] * width + bins, minlength=n_groups * width)
    hist = hist.reshape(n_groups, width)
    # later[g, r] = number of units in group g leaving at a round > r.
    later = np.cumsum(hist[:, ::-1], axis=1)[:, ::-1][:, 1:]
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = (later + never_per_group[:, None]) / n[:, None]

    rounds = np.arange(max_round + 1)
    out = keys.loc[np.repeat(np.arange(n_groups), len(rounds))].reset_index(drop=True)
    out["round"] = np.tile(rounds, n_groups)
    out["mean_remaining"] = mean.reshape(-1)
    return out


def remaining_by_round(df, leave_columns, by=None, ax=None, ylabel="units still in play",
                       *, colors=None, legend=True, ylim=None, **style):
    """Plot the mean number of units still in play at each round, one line per group.

    Parameters
    ----------
    df : pandas.DataFrame
        One row per playthrough; see :func:`remaining_by_round_table` for the sentinels.
    leave_columns : sequence of str
        One column per unit slot with its leave round.
    by : str or list of str, optional
        Group column(s); one line per group.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.
    ylabel : str, default "units still in play"
        What a unit is, in the game's words (e.g. "cavers still in the cave").
    colors : mapping, optional
        Colour per group label; other groups take non-repeating colours.
    legend : bool, default True
        Draw the legend (right of the plot).
    ylim : (float, float), optional
        The y axis; default from 0 to just above the largest mean.

    **style
        Keywords for matplotlib's ``plot`` (each line), over the chart's
        defaults (``color``, ``linewidth``, ``alpha``, ...).

    Returns
    -------
    matplotlib.axes.Axes
        The axes drawn on: one line per group.

    """
    ax = _new_ax(ax)
    by_cols = group_columns(by)
    table = remaining_by_round_table(df, leave_columns, by=by_cols)
    codes, keys = group_codes(table, by_cols)
    names = group_labels(keys) if by_cols else ["all games"]
    r = table["round"].to_numpy()
    m = table["mean_remaining"].to_numpy(dtype=float)
    for g, name in enumerate(names):
        rows = codes == g
        color = _color_of(colors, name, g, len(names))
        ax.plot(r[rows], m[rows],
                **{"drawstyle": "steps-post", "color": color, **style, "label": name})
    ax.set_xlabel("round")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylabel(f"{ylabel} (mean per game)")
    if ylim is None:
        top = float(np.nanmax(m)) if np.isfinite(m).any() else 1.0
        ylim = (0.0, 1.05 * top if top > 0 else 1.0)
    ax.set_ylim(*ylim)
    title = f"{ylabel[:1].upper()}{ylabel[1:]} by round (mean per game)"
    if by_cols:
        title += f", by {_names(by_cols)}"
        if legend:
            _legend_outside(ax, _names(by_cols))
    ax.set_title(title)
    ax.grid(True, alpha=0.3)
    return ax


def _is_rate(name: str) -> bool:
    return name.endswith("rate") or name.startswith("share_")


def heatmap(table, row, col, value="win_rate", lo="win_lo", hi="win_hi", ax=None, **style):
    """Annotated heatmap of a value over two group columns, e.g. a matchup table.

    Parameters
    ----------
    table : pandas.DataFrame
        One row per (``row``, ``col``) pair, e.g. a summary by ``[row, col]``.
    row, col : str
        Columns giving the heatmap rows and columns (natural order).
    value : str, default "win_rate"
        The value coloured and printed in each cell. Rates and shares (names ending in
        ``rate`` or starting with ``share_``) print as percent on a 0–1 scale.
    lo, hi : str or None, default "win_lo", "win_hi"
        Interval columns printed under the value as ``[40–42]``; ``None`` or absent
        columns print the value only.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.

    **style
        Keywords for matplotlib's ``imshow`` (e.g. ``cmap``), over the chart's
        defaults (``color``, ``linewidth``, ``alpha``, ...).

    Returns
    -------
    matplotlib.axes.Axes
        The axes drawn on, one text per cell that has a value.

    """
    ax = _new_ax(ax)
    if table.duplicated([row, col]).any():
        raise ValueError(
            f"heatmap: several rows share the same ({row}, {col}); "
            f"summarise by [{row!r}, {col!r}] first"
        )
    rows = ordered_levels(table[row])
    cols = ordered_levels(table[col])
    ri = pd.Index(rows).get_indexer(table[row].astype(object))
    ci = pd.Index(cols).get_indexer(table[col].astype(object))
    ok = (ri >= 0) & (ci >= 0)
    grid = np.full((len(rows), len(cols)), np.nan)
    grid[ri[ok], ci[ok]] = table[value].to_numpy(dtype=float)[ok]
    has_ci = lo is not None and hi is not None and lo in table.columns and hi in table.columns
    if has_ci:
        glo = np.full_like(grid, np.nan)
        ghi = np.full_like(grid, np.nan)
        glo[ri[ok], ci[ok]] = table[lo].to_numpy(dtype=float)[ok]
        ghi[ri[ok], ci[ok]] = table[hi].to_numpy(dtype=float)[ok]
    rate = _is_rate(str(value))

    kw = {"vmin": 0.0, "vmax": 1.0} if rate else {}
    im = ax.imshow(np.ma.masked_invalid(grid), **{"cmap": "RdYlGn", "aspect": "auto", **kw,
                                                   **style})
    cbar = ax.figure.colorbar(im, ax=ax)
    if rate:
        cbar.ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    for i in range(len(rows)):
        for j in range(len(cols)):
            v = grid[i, j]
            if np.isnan(v):
                continue
            text = f"{100 * v:.0f}%" if rate else f"{v:.3g}"
            if has_ci and not np.isnan(glo[i, j]):
                if rate:
                    text += f"\n[{100 * glo[i, j]:.0f}–{100 * ghi[i, j]:.0f}]"
                else:
                    text += f"\n[{glo[i, j]:.3g}–{ghi[i, j]:.3g}]"
            ax.text(j, i, text, ha="center", va="center", fontsize="small")
    ax.set_xticks(range(len(cols)))
    ax.set_xticklabels([str(c) for c in cols])
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([str(r) for r in rows])
    ax.set_xlabel(str(col))
    ax.set_ylabel(str(row))
    metric = str(value).replace("_", " ")
    interval = f", {_conf_label(table)} in brackets" if has_ci else ""
    ax.set_title(f"{metric} by {row} and {col}{interval}")
    return ax


def matchup_heatmap(table, row="player", col="opponent", ax=None, **style):
    """Heatmap of a matchup table: win rate of the row against the column, CI in each cell.

    Parameters
    ----------
    table : pandas.DataFrame
        From :func:`simlib.report.tables.matchup_table` (columns ``row``, ``col``,
        ``win_rate``, ``win_lo``, ``win_hi``).
    row, col : str, default "player", "opponent"
        The key columns.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.

    **style
        Keywords for matplotlib's ``imshow`` (e.g. ``cmap``), over the chart's
        defaults (``color``, ``linewidth``, ``alpha``, ...).

    Returns
    -------
    matplotlib.axes.Axes

    """
    ax = heatmap(table, row, col, value="win_rate", lo="win_lo", hi="win_hi", ax=ax, **style)
    ax.set_title(f"win rate of {row} (rows) against {col} (columns), both seats, draws "
                 f"half; {_conf_label(table)} in brackets")
    ax.tick_params(axis="x", labelrotation=30)
    return ax


def card_win_rate_chart(table, ax=None, top=None, **style):
    """Per-card win rate when played (with CI) against when not played.

    Parameters
    ----------
    table : pandas.DataFrame
        From :func:`simlib.report.tables.card_win_rates`.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure sized to the number of cards is made if omitted.
    top : int, optional
        Show only the ``top`` cards with the largest and the ``top`` with the smallest
        difference.

    **style
        Keywords for matplotlib's ``errorbar`` (the played rates), over the chart's
        defaults (``color``, ``linewidth``, ``alpha``, ...).

    Returns
    -------
    matplotlib.axes.Axes

    """
    t = table.sort_values("difference", ascending=False, kind="stable")
    if top is not None and len(t) > 2 * top:
        t = pd.concat([t.head(top), t.tail(top)])
    if ax is None:
        ax = _new_ax(None, figsize=(7.5, max(3.0, 0.22 * len(t) + 1.2)))
    y = np.arange(len(t))[::-1]
    rate = t["win_rate_played"].to_numpy(dtype=float)
    err = np.vstack([rate - t["played_lo"].to_numpy(dtype=float),
                     t["played_hi"].to_numpy(dtype=float) - rate])
    ax.errorbar(rate, y, xerr=err, **{"fmt": "o", "color": "C0", "ms": 4, "capsize": 2,
                **style, "label": "played (seat-games that played it)"})
    ax.plot(t["win_rate_not"].to_numpy(dtype=float), y, "|", color="C3", ms=9,
            label="not played")
    ax.axvline(0.5, color="grey", lw=0.8, ls="--")
    ax.set_yticks(y)
    ax.set_yticklabels([str(v) for v in t["item"]], fontsize="small")
    ax.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_xlabel(f"win rate (draws half), {_conf_label(t)}")
    ax.set_title("win rate by card: played against not played, largest gap first")
    ax.legend(fontsize="small", loc="lower right")
    ax.grid(True, axis="x", alpha=0.3)
    return ax


_SCRIPTED_MARKERS = ("s", "^", "D", "v", "P", "X", "<", ">")


def ladder_chart(table, ax=None, **style):
    """Plot win rate against search budget, one line per preset, with interval error bars.

    Parameters
    ----------
    table : pandas.DataFrame
        :meth:`simlib.core.ladder.Ladder.table`: ``preset, rung, bot, budget`` (``<NA>``
        for a scripted bot), ``win_rate, win_lo, win_hi``.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.

    **style
        Keywords for matplotlib's ``errorbar`` (the search bot's line), over the chart's
        defaults (``color``, ``linewidth``, ``alpha``, ...).

    Returns
    -------
    matplotlib.axes.Axes
        Budgets sit at evenly spaced positions (labelled with their values); the scripted
        bots are labelled points in a "scripted" column left of them, in their preset's
        colour.

    """
    ax = _new_ax(ax)
    search = table[table["budget"].notna()]
    scripted = table[table["budget"].isna()]
    budgets = sorted({int(b) for b in search["budget"]})
    pos = {b: i for i, b in enumerate(budgets)}
    bots = list(dict.fromkeys(scripted["bot"].astype(str)))
    presets = list(dict.fromkeys(table["preset"].astype(str)))
    width = 0.5 / max(1, len(presets))
    for k, preset in enumerate(presets):
        rows = search[search["preset"].astype(str) == preset].sort_values("budget")
        x = np.array([pos[int(b)] for b in rows["budget"]], dtype=float)
        rate = rows["win_rate"].to_numpy(dtype=float)
        err = np.vstack([rate - rows["win_lo"].to_numpy(dtype=float),
                         rows["win_hi"].to_numpy(dtype=float) - rate])
        line = ax.errorbar(x, rate, yerr=err, **{"marker": "o", "markersize": 4, "capsize": 3,
                           **style, "label": f"{preset}: search"})
        color = line[0].get_color()
        mine = scripted[scripted["preset"].astype(str) == preset]
        for j, bot in enumerate(bots):
            r = mine[mine["bot"].astype(str) == bot]
            if not len(r):
                continue
            xs = -1.0 + (k - (len(presets) - 1) / 2) * width
            y = float(r["win_rate"].iloc[0])
            e = [[y - float(r["win_lo"].iloc[0])], [float(r["win_hi"].iloc[0]) - y]]
            ax.errorbar([xs], [y], yerr=e, marker=_SCRIPTED_MARKERS[j % len(_SCRIPTED_MARKERS)],
                        color=color, markersize=5, capsize=2, linestyle="none",
                        markerfacecolor="white")
            ax.annotate(bot, (xs, y), xytext=(4, 2), textcoords="offset points", fontsize=7,
                        color=color)
    ticks = ([-1] if len(scripted) else []) + list(range(len(budgets)))
    ax.set_xticks(ticks)
    ax.set_xticklabels((["scripted"] if len(scripted) else []) + [str(b) for b in budgets])
    _percent_y(ax)
    ax.set_xlabel("search budget (scripted bots at the left, hollow markers)")
    ax.set_ylabel(f"win rate ({_conf_label(table)})")
    ax.set_title(f"Skill ladder: win rate by search budget (bars: {_conf_label(table)})")
    ax.legend(title="preset", fontsize="small")
    ax.grid(True, alpha=0.3)
    return ax


def fig_to_png_bytes(fig, dpi=100):
    """Render a figure (or the figure of an Axes) to PNG bytes.

    Parameters
    ----------
    fig : matplotlib.figure.Figure or matplotlib.axes.Axes
        What to render.
    dpi : int, default 100
        Resolution.

    Returns
    -------
    bytes
        The PNG file content. The ``Software`` metadata (which carries a URL) is omitted.

    """
    fig = getattr(fig, "figure", fig) if not hasattr(fig, "savefig") else fig
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, bbox_inches="tight", metadata={"Software": None})
    return buf.getvalue()


def tornado(table, ax=None, label="win rate", **style):
    """Tornado chart of one-at-a-time effects (:func:`simlib.sensitivity`, ``method="oat"``).

    One horizontal bar per parameter from its win rate at ``low`` to its win rate at
    ``high``, largest effect on top, drawn around the baseline win rate (vertical line);
    whiskers are the 95% paired interval of the effect, placed at the ``high`` end.

    Parameters
    ----------
    table : pandas.DataFrame
        With ``param``, ``low``, ``high``, ``rate_low``, ``rate_high``, ``rate_base``,
        ``effect_lo``, ``effect_hi``.
    ax : matplotlib Axes, optional
        Where to draw; a new figure if omitted.
    label : str
        What the x axis measures.

    **style
        Keywords for matplotlib's ``barh``, over the chart's
        defaults (``color``, ``linewidth``, ``alpha``, ...).

    Returns
    -------
    matplotlib.axes.Axes

    """
    t = table.iloc[::-1].reset_index(drop=True)
    ax = _new_ax(ax, figsize=(7.5, 0.5 * len(t) + 1.8))
    y = np.arange(len(t))
    left = np.minimum(t["rate_low"], t["rate_high"])
    width = np.abs(t["rate_high"] - t["rate_low"])
    colors = np.where(t["rate_high"] >= t["rate_low"], "#3b7dd8", "#d8703b")
    ax.barh(y, width, left=left, **{"color": colors, "height": 0.6, **style})
    err_lo = t["rate_low"] + t["effect_lo"]
    err_hi = t["rate_low"] + t["effect_hi"]
    ax.hlines(y, err_lo, err_hi, color="black", linewidth=1.2)
    base = float(t["rate_base"].iloc[0]) if len(t) else 0.5
    ax.axvline(base, color="grey", linestyle="--", linewidth=1)
    ax.set_yticks(y, [f"{p}  ({lo} → {hi})" for p, lo, hi in zip(t["param"], t["low"], t["high"],
                                                                  strict=True)])
    ax.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_xlabel(f"{label} at low → high (blue: rises, orange: falls; line: 95% paired CI "
                  "of the effect)")
    ax.set_title(f"What moves the {label} (baseline {base:.1%})")
    return ax


def effects_chart(effects, ranking, ax=None, **style):
    """Forest plot of the changes a grid's factors make (:mod:`simlib.report.effects`).

    One row per change (a factor's level against its baseline), largest mean change on
    top; a dot per stratum (the other factors' levels) at its change in win rate, with its
    interval as a line, and a black tick at the mean over the strata.

    Parameters
    ----------
    effects : pandas.DataFrame
        :func:`simlib.report.effects.factor_effects`.
    ranking : pandas.DataFrame
        :func:`simlib.report.effects.rank_effects` of the same table (sets the row order).
    ax : matplotlib Axes, optional
        Where to draw; a new figure if omitted.

    **style
        Keywords for matplotlib's ``plot`` (each change's points), over the chart's
        defaults (``color``, ``linewidth``, ``alpha``, ...).

    Returns
    -------
    matplotlib.axes.Axes

    """
    n = len(ranking)
    ax = _new_ax(ax, figsize=(7.5, 0.55 * n + 1.8))
    conf = effects.attrs.get("confidence", 0.95)
    labels = []
    palette = ("#3b7dd8", "#d8703b", "#3ba35b", "#8a4fc8", "#c83b5b", "#6b6b6b")
    factors = list(pd.unique(ranking["factor"]))
    colours = {f: palette[j % len(palette)] for j, f in enumerate(factors)}
    for i, row in enumerate(ranking.itertuples(index=False)):
        y = n - 1 - i
        part = effects[(effects["factor"] == row.factor) & (effects["baseline"] == row.baseline)
                       & (effects["level"] == row.level)]
        k = len(part)
        offsets = np.linspace(-0.25, 0.25, k) if k > 1 else np.zeros(1)
        colour = colours[row.factor]
        ax.hlines(y + offsets, part["diff_lo"], part["diff_hi"], color=colour, linewidth=1.2)
        ax.plot(part["diff"], y + offsets, "o", **{"color": colour, "markersize": 4, **style})
        ax.plot([row.mean_diff], [y], "|", color="black", markersize=16, markeredgewidth=2)
        labels.append(change_label(row.factor, row.baseline, row.level))
    ax.set_yticks(np.arange(n)[::-1], labels)
    ax.axvline(0.0, color="grey", linestyle="--", linewidth=1)
    ax.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_xlabel(f"change in win rate (dot: one cell of the other factors, line: its "
                  f"{100 * conf:g}% CI; tick: mean)")
    ax.set_title("What moves the win rate most (colour: the factor varied)")
    return ax
