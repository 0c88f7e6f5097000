"""The overview: every game's difficulty steps at a stated precision, in one experiment.

An overview file runs one small experiment per game, every cell to the same precision
(``simlib.run(..., precision=...)``), and writes one report that a designer starts with:
each game's difficulty steps with their anytime-valid intervals, the paired difference
between consecutive steps, and the assumptions the figures rest on (engine version, bot
and parameters, data tables, the readings of open rules in force). Example::

    title = "simlib overview: how hard is each difficulty?"
    kind = "overview"
    precision = 0.015          # each cell to ±1.5 points (anytime 95% interval)
    games = 33000              # cap per cell
    max_games = 400000         # refused if cells x games could exceed this
    seed = 2026
    out = "results/overview"

    [[study]]                  # one per game: the keys of an experiment file except
    game = "subterra"          # games, seed, precision, out (those are the overview's)
    presets = ["normal", "advanced", "expert"]

    [[study]]
    game = "terralore"
    [study.grid]
    bot1 = ["aggressive", "value", "defensive"]

Output folder ``out``: ``overview.json`` (definition, command, complete flag),
``<game>/`` one experiment folder per study (resumable, as ``simlib experiment``),
``steps.csv`` (one row per cell), ``differences.csv`` (consecutive steps) and
``report.html``. Running the file again resumes every study.
"""

from __future__ import annotations

import html as _html
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from simlib.core.results import atomic_write_bytes, atomic_write_json, jsonable, read_json
from simlib.errors import SimlibInputError

__all__ = ["Overview", "overview_from_dict", "run_overview", "OVERVIEW_KEYS"]

OVERVIEW_KEYS = (
    "title", "description", "kind", "precision", "games", "max_games", "seed", "out", "study",
)
STUDY_KEYS = ("game", "bots", "presets", "grid", "settings", "bot_params", "chunk_size",
              "report", "title", "description")
OVERVIEW_FILE = "overview.json"


@dataclass
class Overview:
    """A validated overview definition: one :class:`~simlib.experiment.Experiment` per game."""

    title: str
    precision: float
    games: int
    max_games: int
    seed: int
    out: Path
    studies: list[Any]
    description: str = ""
    path: Path | None = None
    source: dict[str, Any] = field(default_factory=dict)

    @property
    def cells(self) -> list[Any]:
        """Every cell of every study."""
        return [c for s in self.studies for c in s.cells]

    def command(self) -> str:
        """The command that runs (or resumes) this overview."""
        return f"simlib experiment {self.path}" if self.path else "simlib.run_experiment(...)"

    def definition(self) -> dict[str, Any]:
        """The definition as plain JSON data."""
        return jsonable(
            {
                "kind": "overview",
                "title": self.title,
                "precision": self.precision,
                "games": self.games,
                "max_games": self.max_games,
                "seed": self.seed,
                "out": str(self.out),
                "studies": [s.definition() for s in self.studies],
            }
        )


def overview_from_dict(data: dict[str, Any], path: str | os.PathLike | None = None) -> Overview:
    """Validate an overview (the parsed TOML); see the module docstring."""
    from simlib.core.checks import MAX_GAMES, check_games, check_int, check_precision, check_seed
    from simlib.experiment import Experiment, experiment_from_dict, under_cwd

    src = str(path) if path is not None else "overview"

    def fail(msg: str) -> SimlibInputError:
        return SimlibInputError(f"{src}: {msg}")

    for key in data:
        if key not in OVERVIEW_KEYS:
            raise fail(f"unknown key '{key}'; allowed: {', '.join(OVERVIEW_KEYS)}")
    if data.get("kind", "overview") != "overview":
        raise fail(f"'kind' must be \"overview\", got {data.get('kind')!r}")
    for key in ("precision", "games", "study"):
        if key not in data:
            raise fail(f"missing key '{key}'")
    try:
        precision = check_precision(data["precision"])
        games = check_games(data["games"])
        seed = check_seed(data.get("seed", 0))
        max_games = check_int("max_games", data.get("max_games", MAX_GAMES), 1)
    except SimlibInputError as err:
        raise fail(str(err)) from None
    for key in ("title", "description", "out"):
        if key in data and not isinstance(data[key], str):
            raise fail(f"'{key}' must be a string")
    studies_raw = data["study"]
    if not isinstance(studies_raw, list) or not studies_raw:
        raise fail("'study' must be one or more [[study]] tables")
    out = Path(data["out"]).expanduser() if "out" in data else Path("results") / (
        Path(path).stem if path is not None else "overview"
    )
    if path is not None and not out.is_absolute():
        # read from the overview file's own folder, whatever the current folder
        joined = Path(os.path.normpath(Path(path).expanduser().resolve().parent / out))
        out = Path(os.path.relpath(joined)) if under_cwd(joined) else joined
    studies: list[Experiment] = []
    seen: set[str] = set()
    for i, raw in enumerate(studies_raw):
        if not isinstance(raw, dict):
            raise fail(f"study {i + 1} must be a table ([[study]])")
        for key in raw:
            if key not in STUDY_KEYS:
                raise fail(
                    f"unknown key 'study.{key}' (study {i + 1}); allowed: {', '.join(STUDY_KEYS)}"
                    " (games, seed, precision and out are the overview's)"
                )
        game = raw.get("game")
        if not isinstance(game, str):
            raise fail(f"study {i + 1}: missing key 'game'")
        if game in seen:
            raise fail(f"study {i + 1}: game '{game}' appears twice; one study per game")
        seen.add(game)
        exp = experiment_from_dict(
            {**raw, "games": games, "seed": seed, "precision": precision,
             "out": str((out / game).resolve())},
            path=f"{src} [study {game}]",
        )
        assert isinstance(exp, Experiment)
        exp.out = out / game
        exp.path = Path(path) if path is not None else None
        studies.append(exp)
    cells = sum(len(s.cells) for s in studies)
    if cells * games > max_games:
        raise fail(
            f"{cells} cells x games = {games:,} could play {cells * games:,} games, over "
            f"max_games = {max_games:,}; lower 'games' (the cap per cell) to at most "
            f"{max_games // cells:,}"
        )
    return Overview(
        title=data.get("title", "simlib overview"),
        description=data.get("description", ""),
        precision=precision,
        games=games,
        max_games=max_games,
        seed=seed,
        out=out,
        studies=studies,
        path=Path(path) if path is not None else None,
        source=data,
    )


def _check_out(ov: Overview) -> None:
    out = ov.out
    if not out.exists():
        return
    if not out.is_dir():
        raise SimlibInputError(f"out folder '{out}' is a file; expected a folder")
    stored = out / OVERVIEW_FILE
    if stored.is_file():
        old = read_json(stored, "overview file").get("overview") or {}
        if old.get("seed") != ov.seed or [s.get("game") for s in old.get("studies", [])] != [
            s.game for s in ov.studies
        ]:
            raise SimlibInputError(
                f"out folder '{out}' holds a different overview (seed or games differ); set "
                "'out' to another folder or restore the definition"
            )
        return
    if any(out.iterdir()):
        raise SimlibInputError(
            f"out folder '{out}' is not empty and holds no simlib overview (no {OVERVIEW_FILE}); "
            "set 'out' to a new or empty folder"
        )


def run_overview(
    ov: Overview,
    progress: bool | None = None,
    backend: str = "local",
    scheduler: Any = None,
    threads: int | None = None,
) -> dict[str, pd.DataFrame]:
    """Run every study (resumable), then write the steps, differences and the report.

    Returns ``{"steps": ..., "differences": ..., "assumptions": ...}`` DataFrames.
    """
    from simlib import __version__
    from simlib.experiment import run_experiment

    _check_out(ov)
    ov.out.mkdir(parents=True, exist_ok=True)
    record = {
        "simlib_overview": 1,
        "overview": ov.definition(),
        "command": ov.command(),
        "simlib_version": __version__,
        "complete": False,
    }
    atomic_write_json(ov.out / OVERVIEW_FILE, record)
    results = []
    for study in ov.studies:
        results.append(
            run_experiment(study, progress=progress, backend=backend, scheduler=scheduler,
                           threads=threads)
        )
    tables = overview_tables(ov, results)
    atomic_write_bytes(ov.out / "steps.csv", tables["steps"].to_csv(index=False).encode())
    atomic_write_bytes(
        ov.out / "differences.csv", tables["differences"].to_csv(index=False).encode()
    )
    atomic_write_bytes(ov.out / "report.html", _report(ov, tables).encode("utf-8"))
    record["complete"] = True
    record["games_played"] = int(tables["steps"]["n"].sum())
    atomic_write_json(ov.out / OVERVIEW_FILE, record)
    return tables


def _label(study: Any, cell: Any) -> str:
    parts = []
    if len(study.presets) > 1:
        parts.append(cell.preset)
    if len(study.bots) > 1:
        parts.append(cell.bot)
    parts += [f"{k}={v}" for k, v in cell.grid.items()]
    return ", ".join(parts) or cell.preset


def overview_tables(ov: Overview, results: list[Any]) -> dict[str, pd.DataFrame]:
    """Steps (one row per cell), consecutive paired differences and the assumptions."""
    from simlib.core import stats
    from simlib.core.runner import split_cells
    from simlib.games.registry import get_game

    steps, diffs, assumptions = [], [], []
    for study, res in zip(ov.studies, results, strict=True):
        parts = [part for _, part in split_cells(res)]
        game = get_game(study.game)
        prev = None
        for cell, part in zip(study.cells, parts, strict=True):
            rule = part.meta.get("stopping") or {}
            wins = part.df["win"].to_numpy(dtype=bool)
            n, k = len(wins), int(wins.sum())
            lo, hi = stats.confidence_sequence(k, n, prior_games=rule.get("prior_games"))
            label = _label(study, cell)
            steps.append(
                {
                    "game": study.game,
                    "step": label,
                    "bot": cell.bot,
                    "n": n,
                    "stopped": rule.get("stopped", "fixed"),
                    "win_rate": k / n,
                    "anytime_lo": lo,
                    "anytime_hi": hi,
                }
            )
            if prev is not None:
                p_label, p_wins = prev
                m = min(len(p_wins), n)
                a, b = wins[:m], p_wins[:m]
                seq = stats.paired_confidence_sequence(a, b, precision=ov.precision)
                diffs.append(
                    {
                        "game": study.game,
                        "from": p_label,
                        "to": label,
                        "paired_games": m,
                        "diff": seq.diff,
                        "diff_lo": seq.diff_lo,
                        "diff_hi": seq.diff_hi,
                        "discordant": seq.only_a + seq.only_b,
                    }
                )
            prev = (label, wins)
        values = study.cells[0].plan.values
        readings = [
            f"{s.name} = {values.get(s.name)!r} ({s.reading})" for s in game.readings()
        ]
        bots = sorted({c.bot for c in study.cells})
        assumptions.append(
            {
                "game": study.game,
                "engine_version": game.engine_version,
                "bots": ", ".join(
                    f"{b} ({', '.join(f'{k}={v:g}' for k, v in game.bot(b).resolve_params(study.bot_params.get(b)).items()) or 'no parameters'})"  # noqa: E501
                    for b in bots
                ),
                "data": str(values.get("data", "built in")),
                "readings": "; ".join(readings) or "none declared",
                "settings": ", ".join(f"{k}={v}" for k, v in study.settings.items()) or "preset",
            }
        )
    return {
        "steps": pd.DataFrame(steps),
        "differences": pd.DataFrame(diffs),
        "assumptions": pd.DataFrame(assumptions),
    }


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _steps_chart(steps: pd.DataFrame) -> list[str]:
    """Each game's steps as points with their anytime intervals, one panel per game."""
    from simlib.report import charts, html

    games = list(dict.fromkeys(steps["game"]))
    ncols = min(4, len(games))
    nrows = -(-len(games) // ncols)

    def fill(fig: Any) -> None:
        def panel(ax: Any, game: Any) -> None:
            charts.step_intervals(steps[steps["game"] == game], x="step", ax=ax,
                                  lo="anytime_lo", hi="anytime_hi", ci_label="95% anytime CI")

        charts.small_multiples(fig, games, panel, ncols=ncols, sharex=False, sharey=False,
                               title="Win rate at each step (95% anytime intervals)")

    return [
        "<h2>Win rate at each step</h2>",
        html.figure_img(fill, alt="win rate at each step, one panel per game",
                        figsize=(min(11.0, 2.7 * ncols + 0.6), 3.2 * nrows + 0.6)),
    ]


def _report(ov: Overview, t: dict[str, pd.DataFrame]) -> str:
    e = _html.escape
    steps, diffs, assume = t["steps"], t["differences"], t["assumptions"]
    out = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>{e(ov.title)}</title>",
        "<style>body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em}"
        "table{border-collapse:collapse;margin:0.5em 0 1.5em}td,th{border:1px solid #ccc;"
        "padding:3px 8px;text-align:right}td:first-child,th:first-child{text-align:left}"
        ".note{color:#555}img.chart{max-width:100%;height:auto;display:block}"
        "</style></head><body>",
        f"<h1>{e(ov.title)}</h1>",
        f"<p class='note'>{e(ov.description)}</p>" if ov.description else "",
        f"<p class='note'>Each step played games 0, 1, 2, ... of seed {ov.seed} until its win "
        f"rate's anytime-valid 95% interval (a confidence sequence: valid although the game "
        f"count depends on the results) was at most ±{100 * ov.precision:g} points, at most "
        f"{ov.games:,} games; {int(steps['n'].sum()):,} playthroughs in all. Steps of one "
        "game share the seed, so game i is the same deal at every step and the differences "
        "are paired (on the games both steps played, with an anytime-valid interval). "
        f"Command: <code>{e(ov.command())}</code>. Each game's full report is in its "
        "folder.</p>",
        "<h2>Difficulty steps</h2>",
    ]
    for game, rows in steps.groupby("game", sort=False):
        out.append(f"<h3>{e(str(game))} (<a href='{e(str(game))}/report.html'>report</a>)</h3>")
        out.append("<table><tr><th>step</th><th>bot</th><th>games</th><th>win rate</th>"
                   "<th>95% anytime CI</th><th>stopped</th></tr>")
        for _, r in rows.iterrows():
            out.append(
                f"<tr><td>{e(r['step'])}</td><td>{e(r['bot'])}</td><td>{r['n']:,}</td>"
                f"<td>{_pct(r['win_rate'])}</td><td>[{_pct(r['anytime_lo'])}, "
                f"{_pct(r['anytime_hi'])}]</td><td>{e(r['stopped'])}</td></tr>"
            )
        out.append("</table>")
    out += _steps_chart(steps)
    out.append("<h2>Paired differences between consecutive steps</h2>")
    out.append("<table><tr><th>game</th><th>from</th><th>to</th><th>paired games</th>"
               "<th>difference (to - from)</th><th>95% anytime CI</th><th>discordant games</th>"
               "</tr>")
    for _, r in diffs.iterrows():
        out.append(
            f"<tr><td>{e(r['game'])}</td><td>{e(r['from'])}</td><td>{e(r['to'])}</td>"
            f"<td>{r['paired_games']:,}</td><td>{100 * r['diff']:+.1f} pp</td>"
            f"<td>[{100 * r['diff_lo']:+.1f}, {100 * r['diff_hi']:+.1f}] pp</td>"
            f"<td>{r['discordant']:,}</td></tr>"
        )
    out.append("</table>")
    out.append(
        "<h2>Assumptions in force</h2><p class='note'>A figure is a product of the rules "
        "engine, the bot, the data tables and the readings of open rules. Content the "
        "rulebooks do not print comes from each game's data files (illustrative defaults "
        "where they say so); the readings are the rulebook's most literal unless set.</p>"
    )
    cols = list(assume.columns)
    out.append("<table><tr>" + "".join(f"<th>{e(c)}</th>" for c in cols) + "</tr>")
    for _, r in assume.iterrows():
        out.append("<tr>" + "".join(f"<td>{e(str(r[c]))}</td>" for c in cols) + "</tr>")
    out.append("</table></body></html>")
    return "\n".join(out)
