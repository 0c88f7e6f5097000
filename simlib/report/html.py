"""A self-contained HTML report: tables and charts embedded as base64 PNG, inline CSS.

The report reads a playthrough DataFrame and the run's metadata only; it knows no game.
Everything is rendered in memory first and then written atomically (temporary file in the
target folder, then ``os.replace``), so a failure never leaves a half-written report.
"""

from __future__ import annotations

import base64
import contextlib
import html as _html
import json
import os
import tempfile
from collections.abc import Callable, Hashable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd
from matplotlib.figure import Figure

from simlib.report import charts, tables

__all__ = ["build_report", "SECTIONS"]

#: Section headings, in the order they appear (optional ones only when their data is given).
SECTIONS = (
    "How to reproduce",
    "Summary",
    "Difficulty curves",
    "Outcome shares",
    "Game length",
    "Units still in play by round",
    "Means of measures",
)

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
"""


def _e(text: Any) -> str:
    return _html.escape(str(text), quote=True)


def _table_html(formatted: pd.DataFrame, label_columns: Sequence[Hashable] = ()) -> str:
    """Render a table of strings (from ``tables.format_table``); non-label cells right-aligned."""
    labels = {str(c) for c in label_columns}
    head = "".join(f"<th>{_e(c)}</th>" for c in formatted.columns)
    body = []
    for row in formatted.itertuples(index=False, name=None):
        cells = "".join(
            f"<td>{_e(v)}</td>" if str(c) in labels else f'<td class="num">{_e(v)}</td>'
            for c, v in zip(formatted.columns, row, strict=True)
        )
        body.append(f"<tr>{cells}</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def _chart_html(draw: Callable[[Any], Any], alt: str, figsize=(7.5, 4.5)) -> str:
    """Draw on a fresh (non-pyplot) figure, return it as an ``<img>`` and free the figure."""
    fig = Figure(figsize=figsize, layout="constrained")
    try:
        draw(fig.add_subplot())
        png = charts.fig_to_png_bytes(fig)
    finally:
        fig.clear()
    data = base64.b64encode(png).decode("ascii")
    return f'<img class="chart" src="data:image/png;base64,{data}" alt="{_e(alt)}">'


def _meta_html(meta: Mapping[str, Any]) -> str:
    items = []
    for key, value in meta.items():
        if isinstance(value, (Mapping, list, tuple)):
            shown = json.dumps(value, default=str, ensure_ascii=False)
            items.append(f"<dt>{_e(key)}</dt><dd><code>{_e(shown)}</code></dd>")
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
) -> str:
    by = group_by or None
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(title)}</title><style>{_CSS}</style></head><body>",
        f"<h1>{_e(title)}</h1>",
        f'<p class="note">{len(df):,} playthroughs. Intervals are 95% Wilson score '
        "intervals on the win rate.</p>",
        f"<h2>{_e(SECTIONS[0])}</h2>",
        _meta_html(meta),
    ]

    summ = tables.summary(df, by=by, outcomes=outcomes)
    out += [f"<h2>{_e(SECTIONS[1])}</h2>", _table_html(tables.format_table(summ), group_by)]

    if sweep_params:
        out.append(f"<h2>{_e(SECTIONS[2])}</h2>")
        for param in sweep_params:
            rest = [c for c in group_by if c != param]
            curve = tables.summary(df, by=[*rest, param], outcomes=outcomes)
            hue = rest or None
            out.append(f"<h3>win rate by {_e(param)}</h3>")

            def draw_curve(ax: Any, curve: Any = curve, param: str = param, hue: Any = hue) -> Any:
                return charts.difficulty_curve(curve, x=param, hue=hue, ax=ax)

            out.append(_chart_html(draw_curve, alt=f"win rate by {param}"))

    if outcomes:
        width = min(20.0, max(7.5, 0.45 * len(summ) + 4.0))
        out.append(f"<h2>{_e(SECTIONS[3])}</h2>")
        out.append(
            _chart_html(
                lambda ax: charts.outcome_bars(
                    summ, x=by, outcomes=outcomes, ax=ax, colors=outcome_colors
                ),
                alt="outcome shares",
                figsize=(width, 4.5),
            )
        )

    if "rounds" in df.columns:
        first = group_by[0] if group_by else None
        out.append(f"<h2>{_e(SECTIONS[4])}</h2>")
        out.append(
            _chart_html(
                lambda ax: charts.rounds_histogram(df, by=first, ax=ax),
                alt="rounds histogram",
            )
        )

    if leave_columns:
        out.append(f"<h2>{_e(SECTIONS[5])}</h2>")
        out.append(
            _chart_html(
                lambda ax: charts.remaining_by_round(
                    df, leave_columns, by=by, ax=ax, ylabel=remaining_label
                ),
                alt=remaining_label + " by round",
            )
        )

    if measure_columns:
        avg = tables.means(df, measure_columns, by=by)
        out += [
            f"<h2>{_e(SECTIONS[6])}</h2>",
            '<p class="note">Mean per playthrough; "games" is the number of '
            "playthroughs in the group.</p>",
            _table_html(tables.format_table(avg), group_by),
        ]

    out.append("</body></html>")
    return "\n".join(out)


def build_report(
    df: pd.DataFrame,
    path: str | os.PathLike,
    *,
    title: str,
    meta: Mapping[str, Any],
    group_by: Sequence[Hashable] = (),
    sweep_params: Sequence[Hashable] = (),
    outcomes: Sequence[Hashable] | None = None,
    leave_columns: Sequence[Hashable] = (),
    measure_columns: Sequence[Hashable] = (),
    outcome_colors: Mapping[Hashable, Any] | Sequence[Any] | None = None,
    remaining_label: str = "units still in play",
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
    group_by : sequence of str, default ()
        Columns the summary, outcome bars, survival chart and means are grouped by; the
        rounds histogram uses the first one.
    sweep_params : sequence of str, default ()
        Settings to draw a difficulty curve for (x = the setting, one line per value of
        the other ``group_by`` columns combined).
    outcomes : sequence of str, optional
        Outcome order; default as in :func:`simlib.report.tables.summary`.
    leave_columns : sequence of str, default ()
        Leave-round columns for the "still in play by round" chart (sentinels as in
        :func:`simlib.report.charts.remaining_by_round_table`); no chart when empty.
    measure_columns : sequence of str, default ()
        Measures averaged in the last table; no table when empty.
    outcome_colors : mapping or sequence, optional
        Colours of the outcome bars.
    remaining_label : str, default "units still in play"
        What a unit is, in the game's words, for the survival chart.

    Returns
    -------
    pathlib.Path
        The path written.

    """
    path = Path(path)
    group_by = tables.group_columns(list(group_by))
    sweep_params = list(sweep_params)
    needed = [*group_by, *sweep_params, *leave_columns, *measure_columns]
    missing = [c for c in needed if c not in df.columns]
    if missing:
        raise KeyError(
            f"build_report: column(s) {', '.join(map(repr, missing))} not in the results; "
            f"available columns are {', '.join(map(str, df.columns))}"
        )
    document = _render(
        df,
        title=title,
        meta=meta,
        group_by=group_by,
        sweep_params=sweep_params,
        outcomes=tables.outcome_order(df, outcomes),
        leave_columns=list(leave_columns),
        measure_columns=list(measure_columns),
        outcome_colors=outcome_colors,
        remaining_label=remaining_label,
    )

    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(document)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    return path
