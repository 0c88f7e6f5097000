"""A self-contained HTML report: tables and charts embedded as base64 PNG, inline CSS.

The report reads a playthrough DataFrame and the run's metadata only; it knows no game.
:func:`build_table_report` does the same for one exact table (``table = NAME`` experiments).
Everything is rendered in memory first and then written atomically (temporary file in the
target folder, then ``os.replace``), so a failure never leaves a half-written report.
"""

from __future__ import annotations

import base64
import contextlib
import html as _html
import json
import os
import struct
import tempfile
from collections.abc import Callable, Hashable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd
from matplotlib.figure import Figure

from simlib.core.game import ReportSpec
from simlib.report import charts, effects, tables

__all__ = [
    "build_report",
    "build_table_report",
    "build_ladder_report",
    "SECTIONS",
    "TWO_SEAT_SECTIONS",
    "TABLE_SECTIONS",
    "LADDER_SECTION",
]

#: Section headings, in the order they appear (optional ones only when their data is given).
SECTIONS = (
    "How to reproduce",
    "Summary",
    "What moves the win rate",
    "Difficulty curves",
    "Outcome shares",
    "Game length",
    "When games end",
    "Units still in play by round",
    "What causes it",
    "Means of measures",
)
#: Sections of two-seat games, shown when their columns are given (after the summary).
TWO_SEAT_SECTIONS = (
    "Matchups",
    "First-player advantage",
    "Win rate by card",
)

#: Heading of the skill ladder section (``build_report(ladder=...)``, ``build_ladder_report``).
LADDER_SECTION = "Skill ladder"
#: Heading under "How to reproduce" listing the open readings a run used.
READINGS_HEADING = "Readings"

#: Section headings of an exact table's report, in order.
TABLE_SECTIONS = ("How to reproduce", "Table")

_CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 2rem auto;
       max-width: 1100px; padding: 0 1rem; color: #222; line-height: 1.4; }
h1 { border-bottom: 2px solid #444; padding-bottom: .3rem; }
h2 { margin-top: 2.2rem; border-bottom: 1px solid #ccc; padding-bottom: .2rem; }
table { border-collapse: collapse; margin: .8rem 0; font-size: .9rem; }
th, td { border: 1px solid #ddd; padding: .25rem .6rem; }
th { background: #f3f3f3; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
tbody tr:nth-child(even) { background: #fafafa; }
dl.meta { display: grid; grid-template-columns: max-content auto; gap: .2rem 1rem; }
dl.meta dt { font-weight: 600; }
dl.meta dd { margin: 0; }
pre { background: #f6f6f6; padding: .6rem; overflow-x: auto; font-size: .85rem; }
img.chart { max-width: 100%; height: auto; display: block; margin: .6rem 0; }
p.note { color: #555; font-size: .9rem; }
p.banner { background: #fff3cd; border: 1px solid #e0c36c; padding: .5rem .8rem; }
div.scroll { overflow-x: auto; max-width: 100%; }
td.num { white-space: nowrap; }
"""


def _e(text: Any) -> str:
    return _html.escape(str(text), quote=True)


def _table_html(formatted: pd.DataFrame, label_columns: Sequence[Hashable] = ()) -> str:
    """Render a table of strings (from ``tables.format_table``); non-label cells right-aligned."""
    labels = {str(c) for c in label_columns}

    def header(col: Hashable) -> str:
        # group columns keep the names a designer types (settings, bot.<param>); other
        # columns get a reader's label with the column's own name on hover
        shown = str(col) if str(col) in labels else tables.column_label(col)
        hover = f' title="{_e(col)}"' if shown != str(col) else ""
        return f"<th{hover}>{_e(shown)}</th>"

    head = "".join(header(c) for c in formatted.columns)
    body = []
    for row in formatted.itertuples(index=False, name=None):
        cells = "".join(
            f"<td>{_e(v)}</td>" if str(c) in labels else f'<td class="num">{_e(v)}</td>'
            for c, v in zip(formatted.columns, row, strict=True)
        )
        body.append(f"<tr>{cells}</tr>")
    return (
        f'<div class="scroll"><table><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table></div>"
    )


def _chart_html(draw: Callable[[Any], Any], alt: str, figsize=(7.5, 4.5)) -> str:
    """Draw on one axes of a fresh (non-pyplot) figure; return it as an ``<img>``."""
    return figure_img(lambda fig: draw(fig.add_subplot()), alt, figsize)


def figure_img(fill: Callable[[Figure], Any], alt: str, figsize=(7.5, 4.5)) -> str:
    """Fill a fresh (non-pyplot) figure, return it as an ``<img>`` and free the figure.

    The image carries ``data-plot-share``: the share of its pixels inside its plot panels
    (a legend or labels that squeeze the plot into a strip show as a small share).
    """
    fig = Figure(figsize=figsize, layout="constrained")
    try:
        fill(fig)
        png = charts.fig_to_png_bytes(fig)
        width, height = struct.unpack(">II", png[16:24])  # the PNG header's IHDR size
        scale = 100 / fig.dpi  # fig_to_png_bytes renders at 100 dpi
        plot = sum(
            ax.get_window_extent().width * ax.get_window_extent().height * scale**2
            for ax in fig.axes
            if ax.get_visible() and ax.get_label() != "<colorbar>"
        )
        share = plot / (width * height) if width and height else 0.0
    finally:
        fig.clear()
    data = base64.b64encode(png).decode("ascii")
    return (
        f'<img class="chart" src="data:image/png;base64,{data}" alt="{_e(alt)}" '
        f'width="{width}" height="{height}" data-plot-share="{share:.3f}">'
    )


#: Most panels one small-multiples chart holds; more are shown as a table.
MAX_PANELS = 12


def _panel_split(cols: Sequence[Hashable]) -> tuple[Hashable | None, list[Hashable]]:
    """Split the group columns of a chart of one line per group into panels and lines.

    One panel per level of the first column and a line per group of the rest, or one
    panel when there is a single column.
    """
    cols = list(cols)
    if len(cols) >= 2:
        return cols[0], cols[1:]
    return None, cols


def _lines_html(
    table: pd.DataFrame,
    cols: Sequence[Hashable],
    draw: Callable[..., Any],
    *,
    alt: str,
    title: str,
    fallback: Callable[[], str],
    ylim: tuple[float, float] | None = None,
) -> str:
    """A line chart of ``table``, one line per group of ``cols``, as small multiples.

    ``draw(ax, rows, line_cols, colors=..., legend=..., ylim=...)`` draws one panel. With
    more lines in a panel than :data:`charts.MAX_LINES` (or more panels than
    :data:`MAX_PANELS`) the chart could not be read: ``fallback()`` gives a table instead.
    """
    panel_col, line_cols = _panel_split(cols)
    panels = tables.ordered_levels(table[panel_col]) if panel_col is not None else [None]
    labels = tables.group_labels(tables.group_codes(table, line_cols)[1]) if line_cols else []
    if panel_col is None:
        per_panel = len(labels)
    else:  # a panel may hold fewer lines than the whole chart (a grid with gaps)
        per_panel = max(
            len(tables.group_codes(table[table[panel_col] == lev], line_cols)[1])
            for lev in panels
        )
    if per_panel > charts.MAX_LINES or len(panels) > MAX_PANELS:
        what = (
            f"{per_panel} lines per panel" if per_panel > charts.MAX_LINES
            else f"{len(panels)} panels"
        )
        return (
            f'<p class="note">{_e(title)}: {what} are more than a chart can show; the '
            "values as a table instead.</p>" + fallback()
        )
    colors = dict(zip(labels, charts.line_colors(len(labels)), strict=True))
    if panel_col is None:
        return figure_img(
            lambda fig: draw(fig.add_subplot(), table, line_cols, colors=colors, legend=True,
                             ylim=ylim),
            alt=alt,
        )
    ncols = min(3, len(panels))
    nrows = -(-len(panels) // ncols)
    figsize = (min(11.0, 3.3 * ncols + 2.4), 3.0 * nrows + 0.9)

    def fill(fig: Figure) -> None:
        def panel(ax: Any, level: Any) -> None:
            rows = table[table[panel_col] == level]
            draw(ax, rows, line_cols, colors=colors, legend=False, ylim=ylim)

        charts.small_multiples(
            fig, panels, panel, ncols=ncols, title=f"{title}, one panel per {panel_col}",
            legend_title=" / ".join(map(str, line_cols)) or None,
        )

    return figure_img(fill, alt=alt, figsize=figsize)


def _shown_meta(meta: Mapping[str, Any]) -> dict[str, Any]:
    """``meta`` with each derived setting's value in its place (``22 (derived)``)."""
    shown = dict(meta)
    derived = shown.pop("derived", None)
    settings = shown.get("settings")
    if isinstance(derived, Mapping) and isinstance(settings, Mapping):
        shown["settings"] = {
            **settings,
            **{k: f"{v} (derived)" for k, v in derived.items() if settings.get(k) is None},
        }
    elif derived:
        shown["derived"] = derived
    return shown


def _meta_html(meta: Mapping[str, Any]) -> str:
    meta = _shown_meta(meta)
    items = []
    for key, value in meta.items():
        if isinstance(value, (Mapping, list, tuple)):
            shown = json.dumps(value, default=str, ensure_ascii=False)
            items.append(f"<dt>{_e(key)}</dt><dd><code>{_e(shown)}</code></dd>")
        elif isinstance(value, int) and not isinstance(value, bool) and "seed" not in key:
            items.append(f"<dt>{_e(key)}</dt><dd>{value:,}</dd>")  # counts: 2,000
        else:
            items.append(f"<dt>{_e(key)}</dt><dd>{_e(value)}</dd>")
    parts = [f'<dl class="meta">{"".join(items)}</dl>']
    command = meta.get("command")
    if command:
        if not isinstance(command, str):
            command = " ".join(map(str, command))
        parts.append(f"<p>Run again with:</p><pre>{_e(command)}</pre>")
    full = json.dumps(dict(meta), indent=2, default=str, ensure_ascii=False)
    parts.append(f"<p>All settings as JSON:</p><pre>{_e(full)}</pre>")
    return "\n".join(parts)


def _render(
    df: pd.DataFrame,
    *,
    title: str,
    meta: Mapping[str, Any],
    group_by: list,
    sweep_params: list,
    outcomes: list,
    leave_columns: list,
    measure_columns: list,
    outcome_colors,
    remaining_label: str,
    readings: Sequence[Mapping[str, Any]] = (),
    ladder: Any = None,
    time_column: Hashable | None = None,
    causes: Sequence[tuple[str, Hashable | None, Sequence[Hashable]]] = (),
    matchup: Sequence[Hashable] | None = None,
    first_column: Hashable | None = None,
    card_masks: Sequence[Sequence[Hashable]] | None = None,
    card_labels: Sequence[Hashable] | None = None,
    anytime_prior: float | None = None,
    effect_factors: Sequence[Hashable] = (),
) -> str:
    by = group_by or None
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(title)}</title><style>{_CSS}</style></head><body>",
        f"<h1>{_e(title)}</h1>",
        *_incomplete_html(meta),
        f'<p class="note">{_e(_compared(df, group_by))}{len(df):,} playthroughs. Intervals '
        "are 95% Wilson score intervals on the win rate. How to reproduce these games is at "
        "the end.</p>",
    ]
    # headline first: the answer, then charts and details; how to reproduce it last
    reproduce = [f"<h2>{_e(SECTIONS[0])}</h2>", _meta_html(meta), *_readings_html(readings, df)]

    summ = tables.summary(df, by=by, outcomes=outcomes, anytime_prior=anytime_prior)
    out += [f"<h2>{_e(SECTIONS[1])}</h2>", _table_html(tables.format_table(summ), group_by)]
    if anytime_prior is not None:
        out.append(
            '<p class="note">Each group played until its win rate was known to the stated '
            "precision, so its game count depends on its results: the anytime interval "
            "(Robbins' beta-binomial mixture confidence sequence, prior worth "
            f"{anytime_prior:,.0f} games) is the one that stays valid after such stopping; "
            "the Wilson interval beside it is only valid for a fixed game count.</p>"
        )
    out += _effects_html(df, effect_factors)
    out += _two_seat_html(df, matchup, first_column, card_masks, card_labels)

    if sweep_params:
        out.append(f"<h2>{_e(SECTIONS[3])}</h2>")
        for param in sweep_params:
            rest = [c for c in group_by if c != param]
            curve = tables.summary(df, by=[*rest, param], outcomes=outcomes)
            out.append(f"<h3>win rate by {_e(param)}</h3>")

            def draw_curve(ax: Any, rows: Any, line_cols: Any, param: Any = param,
                           **kw: Any) -> Any:
                return charts.difficulty_curve(rows, x=param, hue=line_cols or None, ax=ax,
                                               **kw)

            def curve_table(curve: pd.DataFrame = curve, param: Hashable = param) -> str:
                return _table_html(tables.format_table(curve), [*group_by, param])

            out.append(
                _lines_html(
                    curve, rest, draw_curve, alt=f"win rate by {param}",
                    title=f"Win rate by {param}",
                    ylim=charts.fit_rate_ylim(curve["win_lo"], curve["win_hi"]),
                    fallback=curve_table,
                )
            )

    if outcomes:
        out.append(f"<h2>{_e(SECTIONS[4])}</h2>")
        out.append(_outcomes_html(summ, list(group_by), outcomes, outcome_colors))

    if "rounds" in df.columns:
        first = group_by[0] if group_by else None
        out.append(f"<h2>{_e(SECTIONS[5])}</h2>")
        out.append(
            _chart_html(
                lambda ax: charts.rounds_histogram(df, by=first, ax=ax),
                alt="rounds histogram",
            )
        )

    if time_column is not None and outcomes:
        ends = tables.end_times(df, time_column, outcomes, by=by)
        out += [
            f"<h2>{_e(SECTIONS[6])}</h2>",
            _chart_html(
                lambda ax: charts.end_time_bars(
                    df, time_column, outcomes, ax=ax, colors=outcome_colors
                ),
                alt=f"when games end, by {time_column}",
                figsize=(9.0, 4.5),
            ),
            f'<p class="note">Games ending each way, with their mean {_e(time_column)} in '
            "brackets.</p>",
            _table_html(tables.format_end_times(ends, group_by), group_by),
        ]

    if leave_columns:
        out.append(f"<h2>{_e(SECTIONS[7])}</h2>")
        out.append(_remaining_html(df, leave_columns, list(group_by), remaining_label))

    if causes:
        out.append(f"<h2>{_e(SECTIONS[8])}</h2>")
        for label, total, parts in causes:
            shares = tables.cause_shares(df, parts, total=total, by=by)
            out += [
                f"<h3>{_e(label)}</h3>",
                f'<p class="note">Share of {_e(total or "the total")} from each cause, over '
                "the group's games, with a 95% interval (delta method over games)."
                + (' "other" is what the named causes leave.' if total is not None else "")
                + "</p>",
                _table_html(tables.format_causes(shares, group_by), group_by),
            ]

    if measure_columns:
        avg = tables.means(df, measure_columns, by=by)
        out += [
            f"<h2>{_e(SECTIONS[9])}</h2>",
            '<p class="note">Mean per playthrough; "games" is the number of '
            "playthroughs in the group.</p>",
            _table_html(tables.format_table(avg), group_by),
        ]

    if ladder is not None:
        out += _ladder_html(ladder)
    out += reproduce
    out.append("</body></html>")
    return "\n".join(out)


#: Most bars one panel of the outcome chart holds (the summary table above has them all).
MAX_BARS = 30


def _outcomes_html(summ: pd.DataFrame, group_by: list, outcomes: Sequence[Hashable],
                   colors: Any) -> str:
    """Outcome shares as stacked bars: one panel per level of the first group column."""
    panel_col, bar_cols = _panel_split(group_by)
    if panel_col is None:
        if len(summ) > MAX_BARS:
            return (f'<p class="note">{len(summ)} groups are more bars than a chart can '
                    "show; the summary table above has every outcome share.</p>")
        width = min(11.0, max(7.5, 0.45 * len(summ) + 4.0))
        return _chart_html(
            lambda ax: charts.outcome_bars(summ, x=group_by or None, outcomes=outcomes, ax=ax,
                                           colors=colors),
            alt="outcome shares", figsize=(width, 4.5),
        )
    panels = tables.ordered_levels(summ[panel_col])
    per_panel = max(int((summ[panel_col] == lev).sum()) for lev in panels)
    if per_panel > MAX_BARS or len(panels) > MAX_PANELS:
        return (f'<p class="note">{per_panel} bars in each of {len(panels)} panels are more '
                "than a chart can show; the summary table above has every outcome share.</p>")
    ncols = min(3, len(panels))
    nrows = -(-len(panels) // ncols)
    width = min(11.0, ncols * max(2.5, 0.35 * per_panel + 0.8) + 1.6)

    def fill(fig: Figure) -> None:
        def panel(ax: Any, level: Any) -> None:
            charts.outcome_bars(summ[summ[panel_col] == level], x=bar_cols, outcomes=outcomes,
                                ax=ax, colors=colors, legend=False)

        charts.small_multiples(fig, panels, panel, ncols=ncols, legend_title="outcome",
                               title=f"Outcome shares, one panel per {panel_col}",
                               sharex=False)

    return figure_img(fill, alt="outcome shares", figsize=(width, 3.4 * nrows + 1.0))


def _remaining_html(
    df: pd.DataFrame, leave_columns: Sequence[Hashable], group_by: list, label: str
) -> str:
    """Units still in play by round: small multiples, or a table of selected rounds."""
    table = charts.remaining_by_round_table(df, leave_columns, by=group_by or None)
    top = float(table["mean_remaining"].max()) if len(table) else 1.0
    ylim = (0.0, 1.05 * top if top > 0 else 1.0)
    panel_col, _ = _panel_split(group_by)
    # each panel's games; the table of means is computed on them (the sentinels need rows)
    frames = {None: df} if panel_col is None else {
        lev: df[df[panel_col] == lev] for lev in tables.ordered_levels(df[panel_col])
    }

    def draw(ax: Any, rows: Any, line_cols: Any, **kw: Any) -> Any:
        level = None if panel_col is None else rows[panel_col].iloc[0]
        return charts.remaining_by_round(frames[level], leave_columns, by=line_cols or None,
                                         ax=ax, ylabel=label, **kw)

    def fallback() -> str:
        rounds = sorted(table["round"].unique())
        step = max(1, -(-len(rounds) // 12))
        shown = table[table["round"].isin(rounds[::step])]
        wide = shown.pivot_table(index=group_by or None, columns="round",
                                 values="mean_remaining", observed=True) if group_by else (
            shown.set_index("round")["mean_remaining"].to_frame().T)
        wide.columns = [f"round {int(r)}" for r in wide.columns]
        wide = wide.reset_index() if group_by else wide
        return _table_html(tables.format_table(wide), group_by)

    return _lines_html(table, group_by, draw, alt=label + " by round",
                       title=f"{label[:1].upper()}{label[1:]} by round", ylim=ylim,
                       fallback=fallback)


def _compared(df: pd.DataFrame, group_by: Sequence[Hashable]) -> str:
    """Say what the report compares, for its first line: ``Compared: preset × bot (9 groups).``."""
    cols = [c for c in group_by if c in df.columns]
    if not cols:
        return ""
    groups = len(tables.group_codes(df, cols)[1])
    return f"Compared: {' × '.join(map(str, cols))} ({groups:,} groups). "


def _incomplete_html(meta: Mapping[str, Any]) -> list[str]:
    """A banner over a report of a study that has not finished (or nothing)."""
    if meta.get("complete", True):
        return []
    games, present = meta.get("games"), meta.get("games_present")
    cells = (
        f"{meta['cells_present']} of {meta['cells_total']} cells started, "
        if "cells_total" in meta
        else ""
    )
    held = f"{present:,} of {games:,} games" if isinstance(games, int) and isinstance(
        present, int) else "some games"
    return [
        f'<p class="banner"><strong>Incomplete:</strong> {_e(cells)}{_e(held)}. Run the same '
        "command again to finish it; figures below are from the games played so far.</p>"
    ]


def _effects_html(df: pd.DataFrame, factors: Sequence[Hashable]) -> list[str]:
    """The "What moves the win rate" section: each factor's changes, ranked (or nothing)."""
    if not factors:
        return []
    table = effects.factor_effects(df, factors)
    if table.empty:
        return []
    ranking = effects.rank_effects(table)
    paired = bool(table["method"].str.startswith("paired").all())
    return [
        f"<h2>{_e(SECTIONS[2])}</h2>",
        '<p class="note">Each factor the study varied, one level at a time against its '
        "baseline (its first level), within every combination of the other factors' levels; "
        "ranked by the mean change over those combinations. Changes are in percentage "
        "points of the win rate with a 95% interval "
        + ("(paired: the cells share a seed, so they played the same random games; exact "
           "McNemar test)" if paired else "(paired where two cells share their games, "
           "else unpaired)")
        + '; "clear in" counts the combinations whose Holm-adjusted p-value (over every '
        "comparison below) is under 0.05.</p>",
        _chart_html(lambda ax: charts.effects_chart(table, ranking, ax=ax),
                    alt="what moves the win rate", figsize=(7.5, 0.55 * len(ranking) + 1.8)),
        _table_html(effects.format_ranking(ranking), ["rank", "change"]),
        "<details><summary>Every comparison</summary>",
        _table_html(effects.format_effects(table), ["change", "within", "method"]),
        "</details>",
    ]


def _pct_cell(v: float) -> str:
    return "" if pd.isna(v) else f"{100 * v:.1f}%"


def _two_seat_html(df, matchup, first_column, card_masks, card_labels) -> list[str]:
    """Matchup heatmap and table, first-player advantage, per-card win rates."""
    out: list[str] = []
    if matchup:
        row, col, winner = matchup
        mt = tables.matchup_table(df, row, col, winner=winner)
        n_keys = len(set(mt["player"].astype(str)))
        side = min(16.0, max(5.0, 1.3 * n_keys + 2.5))
        out += [
            f"<h2>{_e(TWO_SEAT_SECTIONS[0])}</h2>",
            f'<p class="note">Win rate of the row ({_e(row)} of one seat) against the column '
            f"({_e(col)} of the other), pooling the games it played from either seat; draws "
            "count half a win. A mirror cell shows how often seat 0 won it.</p>",
            _chart_html(lambda ax: charts.matchup_heatmap(mt, ax=ax), alt="matchup heatmap",
                        figsize=(side, 0.8 * side)),
        ]
        shown = mt[["player", "opponent", "n", "from_seat0", "wins", "draws", "losses"]].copy()
        shown["win rate"] = [_pct_cell(v) for v in mt["win_rate"]]
        shown["95% CI"] = [f"[{_pct_cell(a)}, {_pct_cell(b)}]"
                           for a, b in zip(mt["win_lo"], mt["win_hi"], strict=True)]
        out.append(_table_html(shown.astype(str), ["player", "opponent"]))
    if first_column is not None:
        winner = matchup[2] if matchup else "winner"
        sa = tables.seat_advantage(df, first_column, winner=winner)
        r = sa.iloc[0]
        out += [
            f"<h2>{_e(TWO_SEAT_SECTIONS[1])}</h2>",
            f"<p>The first player ({_e(first_column)}) won {_pct_cell(r['win_rate'])} of "
            f"{int(r['n']):,} games (draws half; 95% CI [{_pct_cell(r['win_lo'])}, "
            f"{_pct_cell(r['win_hi'])}]; 50% = no advantage; {int(r['draws']):,} draws).</p>",
        ]
    if card_masks:
        winner = matchup[2] if matchup else "winner"
        cw = tables.card_win_rates(df, card_masks, winner=winner, labels=card_labels)
        if len(cw):
            out += [
                f"<h2>{_e(TWO_SEAT_SECTIONS[2])}</h2>",
                '<p class="note">Each seat of each game is one observation: the win rate of '
                "seats that played the card against seats that did not (draws half). A "
                "large gap flags a card to look at; it is not proof of its power alone "
                "(better decks play more cards, longer games show more).</p>",
                _chart_html(lambda ax: charts.card_win_rate_chart(cw, ax=ax),
                            alt="win rate by card",
                            figsize=(8.0, max(3.0, 0.22 * len(cw) + 1.2))),
            ]
            shown = cw[["item", "n_played", "n_not"]].copy()
            shown["played"] = [_pct_cell(v) for v in cw["win_rate_played"]]
            shown["95% CI"] = [f"[{_pct_cell(a)}, {_pct_cell(b)}]"
                               for a, b in zip(cw["played_lo"], cw["played_hi"], strict=True)]
            shown["not played"] = [_pct_cell(v) for v in cw["win_rate_not"]]
            shown["difference"] = [f"{100 * v:+.1f}" for v in cw["difference"]]
            out.append(_table_html(shown.astype(str), ["item"]))
    return out


def build_report(
    df: pd.DataFrame,
    path: str | os.PathLike,
    *,
    title: str,
    meta: Mapping[str, Any],
    spec: ReportSpec | None = None,
    group_by: Sequence[Hashable] = (),
    sweep_params: Sequence[Hashable] = (),
    effect_factors: Sequence[Hashable] = (),
    anytime_prior: float | None = None,
    ladder: Any = None,
    outcome_colors: Mapping[Hashable, Any] | Sequence[Any] | None = None,
) -> Path:
    """Write one self-contained HTML report of a set of playthroughs.

    Parameters
    ----------
    df : pandas.DataFrame
        One row per playthrough with at least ``win``, ``outcome`` and ``rounds``.
    path : str or path-like
        Target file. Its folder is created if needed. Written atomically.
    title : str
        Report title.
    meta : mapping
        How to reproduce the run (game, presets, settings, bots, seed, games per cell,
        simlib version, command), shown as a definition list and as JSON.
    spec : simlib.core.game.ReportSpec, optional
        What the game's report shows beyond the standard tables (``Game.report_spec``):

        - ``outcomes``: outcome order (default as in :func:`simlib.report.tables.summary`);
        - ``leave_columns``: leave-round columns of the "still in play by round" chart
          (sentinels as in :func:`simlib.report.charts.remaining_by_round_table`), what a
          unit is in ``remaining_label``;
        - ``measure_columns``: measures averaged in the last table;
        - ``time_column``: the game's time measure (``rounds``, a day track); adds "When
          games end" (:func:`simlib.report.tables.end_times`);
        - ``causes``: ``(label, total, parts)`` breakdowns of a total by cause (``total``
          a column or ``None``: the parts are the whole); adds "What causes it"
          (:func:`simlib.report.tables.cause_shares`);
        - ``matchup``: two-seat games, the columns of what seat 0 and seat 1 brought and
          of the winning seat (-1 a draw); adds a matchup heatmap and table
          (:func:`simlib.report.tables.matchup_table`), skipped when a column is missing;
        - ``first_column``: the seat that went first; adds its win rate with a CI;
        - ``card_masks`` / ``card_labels``: per seat, bitmask columns of the items used,
          and the items' names; adds per-item win rates
          (:func:`simlib.report.tables.card_win_rates`), skipped when a column is missing;
        - ``readings``: the open readings the run used, listed under "How to reproduce"
          (a reading that is a column of ``df``, varied across cells, shows its values
          there).

        Default: the plain report.
    group_by : sequence of str, default ()
        Columns the summary, outcome bars, survival chart and means are grouped by; the
        rounds histogram uses the first one.
    sweep_params : sequence of str, default ()
        Settings to draw a difficulty curve for (x = the setting, one line per value of
        the other ``group_by`` columns combined).
    effect_factors : sequence of str, default ()
        The columns a study varied; adds "What moves the win rate": each level's change
        against its factor's baseline within the other factors' levels, ranked
        (:mod:`simlib.report.effects`). Factors with one level are left out.
    anytime_prior : float, optional
        Runs to a precision: the prior scale of their stopping rule; the summary then
        shows each group's anytime-valid interval
        (:func:`simlib.report.tables.summary`).
    ladder : simlib.core.ladder.Ladder, optional
        Adds the "Skill ladder" section (chart and tables) at the end.
    outcome_colors : mapping or sequence, optional
        Colours of the outcome bars.

    Returns
    -------
    pathlib.Path
        The path written.

    """
    path = report_file(path)
    # the plain report (no game) has no "When games end" section
    time_column: Hashable | None = None if spec is None else spec.time_column
    spec = ReportSpec() if spec is None else spec
    leave_columns, measure_columns = spec.leave_columns, spec.measure_columns
    matchup: Sequence[Hashable] | None = spec.matchup
    first_column: Hashable | None = spec.first_column
    card_masks: Sequence[Sequence[Hashable]] | None = spec.card_masks or None
    group_by = tables.group_columns(list(group_by))
    sweep_params = list(sweep_params)
    causes = [(str(label), total, tuple(parts)) for label, total, parts in spec.causes]
    effect_factors = list(effect_factors)
    needed = [*group_by, *sweep_params, *leave_columns, *measure_columns, *effect_factors,
              *([time_column] if time_column is not None else []),
              *(c for _, total, parts in causes for c in (*parts, *([total] if total else [])))]
    missing = [c for c in needed if c not in df.columns]
    if missing:
        raise KeyError(
            f"build_report: column(s) {', '.join(map(repr, missing))} not in the results; "
            f"available columns are {', '.join(map(str, df.columns))}"
        )
    if matchup and any(c not in df.columns for c in matchup):
        matchup = None
    if first_column is not None and first_column not in df.columns:
        first_column = None
    if card_masks and any(c not in df.columns for seat in card_masks for c in seat):
        card_masks = None
    if (matchup[2] if matchup else "winner") not in df.columns:
        first_column = None
        card_masks = None
    document = _render(
        df,
        title=title,
        meta=meta,
        group_by=group_by,
        sweep_params=sweep_params,
        outcomes=tables.outcome_order(df, spec.outcomes or None),
        leave_columns=list(leave_columns),
        measure_columns=list(measure_columns),
        outcome_colors=outcome_colors,
        remaining_label=spec.remaining_label,
        readings=list(spec.readings),
        ladder=ladder,
        time_column=time_column,
        causes=causes,
        matchup=matchup,
        first_column=first_column,
        card_masks=card_masks,
        card_labels=list(spec.card_labels) or None,
        anytime_prior=anytime_prior,
        effect_factors=effect_factors,
    )

    _write_atomic(path, document)
    return path


def report_file(path: str | os.PathLike) -> Path:
    """The file a report given ``path`` is written to: ``path/report.html`` for a folder."""
    path = Path(path).expanduser()
    return path / "report.html" if path.is_dir() else path


def _write_atomic(path: Path, document: str) -> None:
    """Write ``document`` to ``path``: a temporary file in the same folder, then rename.

    A failure is reported on ``path`` (the file asked for), never on the temporary file.
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as err:
        raise OSError(err.errno, err.strerror, str(path)) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(document)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except OSError as err:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise OSError(err.errno, err.strerror, str(path)) from None
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def build_table_report(
    df: pd.DataFrame,
    path: str | os.PathLike,
    *,
    title: str,
    description: str = "",
    meta: Mapping[str, Any],
    max_rows: int = 5000,
    files: str = "",
) -> Path:
    """Write one self-contained HTML page showing an exact table.

    Parameters
    ----------
    df : pandas.DataFrame
        The table; a meaningful index is shown as leading columns (:func:`tables.flat_table`).
    path : str or path-like
        Target file. Its folder is created if needed. Written atomically.
    title : str
        Page title.
    description : str, default ""
        What a row is and what the columns hold, shown under the title.
    meta : mapping
        How to reproduce the table (game, table, options, simlib version, ``command``),
        shown as a definition list, the command to run again, and JSON.
    max_rows : int, default 5000
        Rows shown at most; a longer table shows its first ``max_rows`` rows and says so
        (the CSV and parquet files beside the report hold every row).
    files : str, default ""
        Where the full-precision table lives (e.g. ``"table.csv and table.parquet"``),
        named in the notes.

    Returns
    -------
    pathlib.Path
        The path written.

    """
    path = report_file(path)
    flat = tables.flat_table(df)
    shown = flat.head(max_rows)
    labels = [c for c in flat.columns if not pd.api.types.is_numeric_dtype(flat[c])]
    n = len(flat)
    where = f" ({files})" if files else ""
    if n > len(shown):
        count = f"The first {len(shown):,} of {n:,} rows are shown; the full table{where} "
        count += "holds them all."
    else:
        count = f"{n:,} rows."
    precision = f"; {files} hold full precision" if files else ""
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(title)}</title><style>{_CSS}</style></head><body>",
        f"<h1>{_e(title)}</h1>",
    ]
    if description:
        out.append(f"<p>{_e(description)}</p>")
    out += [
        f'<p class="note">Exact values, computed without playthroughs. {_e(count)} Numbers '
        f"are shown to 4 decimals{_e(precision)}.</p>",
        f"<h2>{_e(TABLE_SECTIONS[0])}</h2>",
        _meta_html(meta),
        f"<h2>{_e(TABLE_SECTIONS[1])}</h2>",
        _table_html(tables.format_values(shown), labels),
        "</body></html>",
    ]
    _write_atomic(path, "\n".join(out))
    return path


# --- readings and the skill ladder ----------------------------------------------------------
def _reading_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _readings_html(
    readings: Sequence[Mapping[str, Any]], df: pd.DataFrame | None = None
) -> list[str]:
    """The "Readings" list: each open reading's setting, rule id and the value used."""
    if not readings:
        return []
    rows = []
    for r in readings:
        name = str(r["name"])
        value = _reading_value(r["value"])
        if df is not None and name in df.columns:
            seen = list(dict.fromkeys(df[name].astype(object)))
            value = ", ".join(_reading_value(v) for v in seen)
            if len(seen) > 1:
                value = f"varies: {value} (column {name})"
        rows.append({"setting": name, "rule": str(r["rule"]), "value": value,
                     "alternative": str(r.get("help", ""))})
    return [
        f"<h3>{_e(READINGS_HEADING)}</h3>",
        '<p class="note">Settings that settle an open rule of the rulebook, and the value '
        "these games were played with (the default is the most literal reading).</p>",
        _table_html(pd.DataFrame(rows, dtype=object), ["setting", "rule", "value", "alternative"]),
    ]


def _ladder_html(ladder: Any) -> list[str]:
    """The "Skill ladder" section: chart, rung table, steps and headroom."""
    table = ladder.table()
    n = max(1, len(ladder.presets))
    return [
        f"<h2>{_e(LADDER_SECTION)}</h2>",
        f'<p class="note">The same {ladder.games:,} games (seed {ladder.seed}) per rung: the '
        f"scripted bots, and the search bot at budgets {_e(', '.join(map(str, ladder.budgets)))}"
        f". Differences are paired (same game indices): Newcombe's 95% interval and the exact "
        "McNemar p-value. Time per game is measured after a warm-up, so compiling is "
        "excluded.</p>",
        _chart_html(lambda ax: charts.ladder_chart(table, ax=ax), alt="skill ladder",
                    figsize=(7.5, 4.0 + 0.2 * n)),
        "<h3>Rungs</h3>",
        _table_html(tables.format_ladder_table(table), ["preset", "rung", "budget"]),
        "<h3>Headroom</h3>",
        '<p class="note">How much of each figure is the bot: the default bot against the best '
        "search rung. The best rung is picked on the same games, so its difference leans high "
        "when rungs are close; the largest budget is not picked.</p>",
        _table_html(tables.format_headroom(ladder.headroom()), ["preset"]),
        "<h3>Steps</h3>",
        _table_html(tables.format_ladder_steps(ladder.steps()), ["preset", "rung", "against",
                                                                 "kind"]),
    ]


def build_ladder_report(ladder: Any, path: str | os.PathLike, *, title: str | None = None) -> Path:
    """Write a self-contained HTML page of one skill ladder (:func:`simlib.ladder`).

    Parameters
    ----------
    ladder : simlib.core.ladder.Ladder
        The played ladder.
    path : str or path-like
        Target file; its folder is created if needed. Written atomically.
    title : str, optional
        Page title (default ``"<game title>: skill ladder"``).

    Returns
    -------
    pathlib.Path
        The path written.

    """
    path = report_file(path)
    title = title or f"{ladder.title}: skill ladder"
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(title)}</title><style>{_CSS}</style></head><body>",
        f"<h1>{_e(title)}</h1>",
        f"<h2>{_e(SECTIONS[0])}</h2>",
        _meta_html(ladder.meta()),
        *_readings_html(ladder.readings),
        *_ladder_html(ladder),
        "</body></html>",
    ]
    _write_atomic(path, "\n".join(out))
    return path
