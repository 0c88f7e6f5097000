"""The ``simlib`` command.

Subcommands::

    simlib games [GAME]                      list games, or one game's presets, settings, bots
    simlib run GAME [options]                run playthroughs, print the summary table
    simlib sweep GAME --param KEY --values V [options]
                                             run each value of one setting (or bot.<param>)
    simlib experiment FILE.toml              run a TOML experiment, save results and a report
    simlib compare BASE OTHER...             compare win rates (paired if seeds match); a
                                             sweep or experiment is compared cell by cell,
                                             several with Holm-adjusted p-values
    simlib solve GAME --param P --target 0.5 [--range LO:HI]
                                             the value of a setting giving a target win rate
    simlib sensitivity GAME --param KEY=LOW:HIGH ... [--method oat|sobol]
                                             rank settings by their effect on the win rate
    simlib report DIR [--out FILE.html]      build an HTML report from a run or experiment
    simlib ladder GAME --games N [--budgets 0,4,16] [--preset P ...]
                                             skill ladder: scripted bots and the search bot

``--values`` is either a comma-separated list (``12,15,18``) or a range ``start:stop`` or
``start:stop:step`` with Python's semantics: ``stop`` is excluded, so ``12:25`` is 12..24
and ``12:25:3`` is 12, 15, 18, 21, 24. Float ranges need a step (``0.3:0.71:0.1``).

Bad input (an unknown game, preset, bot or key, a value out of range, a malformed TOML, a
foreign output folder) prints one line ``simlib: error: <message>`` on stderr and exits with
status 2. Ctrl-C exits with status 130; finished chunks stay in the ``--out`` folder and
the same command resumes.

Environment
-----------
``SIMLIB_EXTRA_GAMES``
    Plug-in games: comma-separated ``module:attribute`` entries, each naming a ``Game``
    object (or class) to register before the command runs, e.g.
    ``SIMLIB_EXTRA_GAMES=mygames.dice:GAME``.
``SIMLIB_PROGRESS=0``
    Never show progress bars (same as ``--no-progress``).
"""

from __future__ import annotations

import argparse
import functools
import importlib
import math
import os
import re
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from simlib.errors import SimlibInputError, SimlibRunError

__all__ = ["main"]

DEFAULT_GAMES = 10_000


class _UsageError(Exception):
    """A command-line usage error raised by the argument parser instead of exiting."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # noqa: D102 - argparse hook
        raise _UsageError(f"{message} (see '{self.prog} --help')")


# --- helpers --------------------------------------------------------------------------------
def load_extra_games(spec: str | None = None) -> list[str]:
    """Register the plug-in games named in ``SIMLIB_EXTRA_GAMES`` (``module:attr,...``).

    Returns the names registered. Raises ``SimlibInputError`` for an entry that cannot be
    imported or does not name a ``Game``.
    """
    from simlib.core.game import Game
    from simlib.games.registry import register

    spec = os.environ.get("SIMLIB_EXTRA_GAMES", "") if spec is None else spec
    names = []
    for entry in filter(None, (e.strip() for e in spec.split(","))):
        module, _, attr = entry.partition(":")
        hint = "expected comma-separated module:attribute entries naming Game objects"
        if not module or not attr:
            raise SimlibInputError(f"SIMLIB_EXTRA_GAMES entry '{entry}' is malformed; {hint}")
        try:
            obj = getattr(importlib.import_module(module), attr)
        except (ImportError, AttributeError) as err:
            raise SimlibInputError(
                f"SIMLIB_EXTRA_GAMES entry '{entry}': cannot load it ({err}); {hint}"
            ) from None
        if isinstance(obj, type) and issubclass(obj, Game):
            obj = obj()
        if not isinstance(obj, Game):
            raise SimlibInputError(
                f"SIMLIB_EXTRA_GAMES entry '{entry}' is a {type(obj).__name__}, not a Game; {hint}"
            )
        register(obj)
        names.append(obj.name)
    return names


def _pairs(items: list[str] | None, option: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise SimlibInputError(
                f"{option} '{item}': expected KEY=VALUE, e.g. {option} "
                f"{key or 'name'}=VALUE (see 'simlib games GAME' for the keys)"
            )
        if key in out:
            raise SimlibInputError(
                f"{option} '{key}' is given twice ({key}={out[key]} and {key}={value.strip()}); "
                "give each key once"
            )
        out[key] = value.strip()
    return out


def _number(text: str, option: str) -> int | float:
    text = text.strip()
    try:
        return int(text)
    except ValueError:
        pass
    try:
        value = float(text)
    except ValueError:
        raise SimlibInputError(f"{option}: '{text}' is not a number") from None
    if not math.isfinite(value):
        raise SimlibInputError(f"{option}: '{text}' is not a finite number")
    return value


def parse_values(spec: str) -> list[Any]:
    """Parse ``--values``: ``a,b,c`` (strings, converted later) or ``start:stop[:step]``.

    Ranges follow Python's ``range``: ``stop`` is excluded (``12:25`` is 12..24). Float
    ranges need an explicit step.
    """
    spec = spec.strip()
    if ":" in spec:
        parts = spec.split(":")
        if len(parts) not in (2, 3) or not all(p.strip() for p in parts):
            raise SimlibInputError(
                f"--values '{spec}': expected start:stop or start:stop:step, e.g. 12:25:3"
            )
        nums = [_number(p, "--values") for p in parts]
        if len(nums) == 3 and nums[2] == 0:
            raise SimlibInputError(f"--values '{spec}': the step must not be 0")
        if all(isinstance(n, int) for n in nums):
            span = range(*(int(n) for n in nums))
            _check_sweep_size(spec, len(span))
            values: list[Any] = list(span)
        else:
            if len(nums) == 2:
                raise SimlibInputError(
                    f"--values '{spec}': a range of non-integers needs a step, e.g. 0.3:0.71:0.1"
                )
            start, stop, step = (float(n) for n in nums)
            count = max(0, math.ceil((stop - start) / step - 1e-9))
            _check_sweep_size(spec, count)
            values = [round(start + k * step, 12) for k in range(count)]
        if not values:
            raise SimlibInputError(
                f"--values '{spec}' is empty (the stop value is excluded, as in Python's range)"
            )
        return values
    values = [v.strip() for v in spec.split(",") if v.strip()]
    if not values:
        raise SimlibInputError("--values: no values given; e.g. --values 4,5,6 or 12:25")
    _check_sweep_size(spec, len(values))
    return values


def _check_sweep_size(spec: str, count: int) -> None:
    """Refuse a sweep of more points than ``MAX_SWEEP_VALUES`` before building it."""
    from simlib.core.runner import MAX_SWEEP_VALUES

    if count > MAX_SWEEP_VALUES:
        raise SimlibInputError(
            f"--values '{spec}': {count:,} values; a sweep takes at most "
            f"{MAX_SWEEP_VALUES:,} (each value is a whole run): use a coarser step"
        )


def _table(res, by=None, fmt: str = "table") -> str:
    from simlib.report import tables

    return tables.render(res.summary(by=by or None), fmt)


def _say(args):
    """``print`` for the lines around a result.

    On stderr when the result is for a program (``--format csv|json|markdown``), so stdout
    holds the table alone.
    """
    if getattr(args, "format", "table") == "table":
        return print
    return functools.partial(print, file=sys.stderr)


def _add_format_option(p: argparse.ArgumentParser) -> None:
    from simlib.report.tables import FORMATS

    p.add_argument(
        "--format",
        choices=FORMATS,
        default="table",
        help="how the result is printed: an aligned table (default), csv or json (raw "
        "numbers, alone on stdout) or markdown",
    )


def _describe_run(res) -> str:
    m = res.meta
    games = m.get("games_present", len(res))
    return (
        f"{m.get('title', m.get('game'))}: preset {m.get('preset')}, bot {m.get('bot')}, "
        f"{games:,} games, seed {m.get('seed')}"
    )


def _describe_stop(rule: dict) -> str:
    """One line: where a run to a precision stopped, and why."""
    why = (
        f"its anytime interval reached ±{100 * rule['precision']:g} points"
        if rule["stopped"] == "precision"
        else f"it reached the cap of {rule['cap']:,} games before ±{100 * rule['precision']:g} "
        "points"
    )
    return (
        f"stopped after {rule['games']:,} games: {why} (looked every {rule['look']:,} games; "
        f"{100 * rule['confidence']:g}% anytime CI [{100 * rule['win_lo']:.1f}%, "
        f"{100 * rule['win_hi']:.1f}%])"
    )


def _precision(text: str) -> float:
    """``--precision``: a half-width in (0, 0.5)."""
    from simlib.core.checks import check_precision

    try:
        value = float(text)
    except ValueError:
        raise SimlibInputError(
            f"--precision: '{text}' is not a number; expected a half-width in (0, 0.5), "
            "e.g. 0.01 for ±1 point"
        ) from None
    return check_precision(value, "--precision")


def _backend(args) -> str:
    if args.backend is None:
        return "dask" if args.scheduler else "local"
    return args.backend


# --- commands -------------------------------------------------------------------------------
def _cmd_games(args, state) -> int:
    from simlib.games.registry import game_names, get_game

    if args.game is None:
        for name in game_names():
            try:
                g = get_game(name)
            except Exception as err:  # noqa: BLE001 - list the others even if one is broken
                print(f"{name:<12} (cannot be loaded: {' '.join(str(err).split())})")
                continue
            print(f"{name:<12} {g.title}")
            print(f"{'':<12} presets: {', '.join(g.presets)} (default {g.default_preset})")
            print(f"{'':<12} bots: {', '.join(b.name for b in g.bots)} (default {g.default_bot})")
            if g.tables():
                print(f"{'':<12} exact tables: {', '.join(g.tables())}")
            if g.readings():
                shown = ", ".join(f"{s.name} ({s.reading})" for s in g.readings())
                print(f"{'':<12} readings: {shown}")
        print("\n'simlib games GAME' lists a game's settings, presets and bots.")
        return 0
    d = get_game(args.game).describe()
    g = get_game(args.game)
    print(f"{d['name']}: {d['title']}")
    print(f"outcomes: {', '.join(d['outcomes'])}")
    print(f"\npresets (default {d['default_preset']}):")
    for name, overrides in g.presets.items():
        shown = ", ".join(f"{k}={v}" for k, v in overrides.items()) or "the defaults"
        print(f"  {name:<14} {shown}")
    print("\nsettings (--set KEY=VALUE):")
    width = max([len(s["name"]) for s in d["settings"]] + [4])
    for s in d["settings"]:
        default = "derived" if s["default"] is None else s["default"]
        print(f"  {s['name']:<{width}}  default {default}; {s['allowed']}")
        if s["help"]:
            print(f"  {'':<{width}}  {s['help']}")
    print(f"\nbots (--bot NAME, default {d['default_bot']}; --bot-param KEY=VALUE):")
    for b in g.bots:
        print(f"  {b.name:<14} {b.help}")
        for key, value in b.params.items():
            lo, hi = b.param_bounds.get(key, (-math.inf, math.inf))
            bounds = f" from {lo:g} to {hi:g}" if math.isfinite(lo) and math.isfinite(hi) else ""
            help_text = b.param_help.get(key, "")
            print(
                f"  {'':<14}   {key} = {value:g}{bounds}"
                + (f"  ({help_text})" if help_text else "")
            )
    _print_readings(d)
    if d["tables"]:
        print("\nexact tables (an experiment file with table = NAME and [options]):")
        for t in d["tables"]:
            print(f"  {t['name']:<14} {t['description']}")
            for o in t["options"]:
                default = "not set" if o["default"] is None else o["default"]
                print(f"  {'':<14}   {o['name']} (default {default}; {o['allowed']})")
                if o["help"]:
                    print(f"  {'':<14}     {o['help']}")
    return 0


def _print_readings(described: dict[str, Any]) -> None:
    """The "readings" section of ``simlib games GAME``: settings that settle an open rule."""
    readings = described.get("readings") or []
    if not readings:
        return
    print("\nreadings (settings that settle an open rule; default = the most literal reading):")
    width = max([len(r["name"]) for r in readings] + [4])
    for r in readings:
        print(f"  {r['name']:<{width}}  rule {r['rule']}; default {_value_text(r['default'])}")
        if r["help"]:
            print(f"  {'':<{width}}  {r['help']}")


def _value_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "derived" if value is None else str(value)


def _readings_line(game_name: Any, settings: Any, swept: tuple[str, ...] = ()) -> str | None:
    """``readings: name=value (RULE), ...`` for a run's resolved settings, or None.

    A reading in ``swept`` (a swept setting or grid key) shows ``varies``.
    """
    from simlib.games.registry import get_game

    try:
        g = get_game(str(game_name))
    except SimlibInputError:
        return None
    values = settings if isinstance(settings, dict) else {}
    parts = []
    for s in g.readings():
        if s.name in swept:
            value = "varies"
        else:
            value = _value_text(values.get(s.name, s.default))
        parts.append(f"{s.name}={value} ({s.reading})")
    return "readings: " + ", ".join(parts) if parts else None


def _run_options(args) -> dict[str, Any]:
    return {
        "backend": _backend(args),
        "scheduler": args.scheduler,
        "chunk_size": args.chunk_size,
        "threads": args.threads,
        "progress": False if args.no_progress else None,
    }


def _cmd_run(args, state) -> int:
    from simlib.core.runner import run

    if args.save and not args.out:
        import time

        args.out = str(Path("results") / f"{args.game}-{time.strftime('%Y%m%d-%H%M%S')}")
    state["out"] = args.out
    if args.precision is not None:
        args.precision = _precision(args.precision)
    res = run(
        args.game,
        preset=args.preset,
        settings=_pairs(args.set, "--set"),
        bot=args.bot,
        bot_params=_pairs(args.bot_param, "--bot-param"),
        games=args.games,
        seed=args.seed,
        out=args.out,
        precision=args.precision,
        # with --out the rows live in the folder: only the summary is needed here, so a run
        # of any size is bounded by disk (keep_df=False)
        keep_df=not (args.out and args.precision is None),
        **_run_options(args),
    )
    say = _say(args)
    say(_describe_run(res))
    if "stopping" in res.meta:
        say(_describe_stop(res.meta["stopping"]))
    print(_table(res, fmt=args.format))
    line = _readings_line(res.meta.get("game"), res.meta.get("settings"))
    if line:
        say(line)
    if args.out:
        say(f"\nresults saved in {args.out} (load with simlib.Results.load({str(args.out)!r}))")
    return 0


def _cmd_sweep(args, state) -> int:
    from simlib.core.runner import sweep

    values = parse_values(args.values)
    state["out"] = args.out
    res = sweep(
        args.game,
        args.param,
        values,
        preset=args.preset,
        settings=_pairs(args.set, "--set"),
        bot=args.bot,
        bot_params=_pairs(args.bot_param, "--bot-param"),
        games=args.games,
        seed=args.seed,
        out=args.out,
        **_run_options(args),
    )
    cell = res.meta["cells"][0]
    say = _say(args)
    say(
        f"{res.meta.get('title', res.meta.get('game'))}: sweep of {args.param} over "
        f"{len(values)} values, preset {cell.get('preset')}, bot {cell.get('bot')}, "
        f"{cell.get('games'):,} games each, seed {res.meta.get('seed')}"
    )
    print(_table(res, by=args.param, fmt=args.format))
    line = _readings_line(res.meta.get("game"), res.meta.get("settings"), swept=(args.param,))
    if line:
        say(line)
    if args.out:
        say(
            f"\nresults saved in {args.out} (one run folder per value; load with "
            f"simlib.Results.load({str(args.out)!r}))"
        )
    return 0


def _cmd_experiment(args, state) -> int:
    from simlib.experiment import TableExperiment, load_experiment, run_experiment

    exp = load_experiment(args.file, games=args.games, out=args.out)
    state["out"] = str(exp.out)
    if isinstance(exp, TableExperiment):
        return _table_experiment(exp, args)
    from simlib.overview import Overview

    if isinstance(exp, Overview):
        return _overview(exp, args)
    res = run_experiment(
        exp,
        progress=False if args.no_progress else None,
        backend=_backend(args),
        scheduler=args.scheduler,
        threads=args.threads,
    )
    say = _say(args)
    if exp.precision is None:
        say(f"{exp.title}: {len(exp.cells)} cells x {exp.games:,} games, seed {exp.seed}")
    else:
        say(
            f"{exp.title}: {len(exp.cells)} cells, each to ±{100 * exp.precision:g} points "
            f"(anytime 95% interval, at most {exp.games:,} games), seed {exp.seed}; "
            f"{len(res.df):,} games in all"
        )
    print(_table(res, by=exp.group_by(), fmt=args.format))
    varies = tuple(
        k for k in exp.cells[0].plan.values
        if len({repr(c.plan.values.get(k)) for c in exp.cells}) > 1
    )
    line = _readings_line(exp.game, exp.cells[0].plan.values, swept=varies)
    if line:
        say(line)
    if exp.ladder is not None:
        from simlib.core.ladder import Ladder
        from simlib.experiment import LADDER_DIR
        from simlib.report.tables import ladder_text

        say()
        say(ladder_text(Ladder.load(exp.out / LADDER_DIR)))
    say(f"\nresults: {exp.out / 'results.parquet'}")
    say(f"report:  {exp.out / 'report.html'}")
    return 0


def _overview(ov, args) -> int:
    """Run an overview file: print each game's steps and differences, and the files."""
    from simlib.overview import run_overview

    t = run_overview(
        ov,
        progress=False if args.no_progress else None,
        backend=_backend(args),
        scheduler=args.scheduler,
        threads=args.threads,
    )
    steps, diffs = t["steps"], t["differences"]
    print(
        f"{ov.title}: {len(steps)} steps in {len(ov.studies)} games, each to "
        f"±{100 * ov.precision:g} points (anytime 95% interval, at most {ov.games:,} games), "
        f"seed {ov.seed}; {int(steps['n'].sum()):,} playthroughs"
    )
    shown = steps.assign(
        win=[f"{100 * r:.1f}%" for r in steps["win_rate"]],
        ci=[f"[{100 * a:.1f}%, {100 * b:.1f}%]"
            for a, b in zip(steps["anytime_lo"], steps["anytime_hi"], strict=True)],
    )[["game", "step", "bot", "n", "win", "ci", "stopped"]].rename(
        columns={"n": "games", "win": "win rate", "ci": "95% anytime CI"}
    )
    with pd_display():
        print(shown.to_string(index=False))
        if len(diffs):
            d = diffs.assign(
                difference=[f"{100 * x:+.1f} pp" for x in diffs["diff"]],
                ci=[f"[{100 * a:+.1f}, {100 * b:+.1f}]"
                    for a, b in zip(diffs["diff_lo"], diffs["diff_hi"], strict=True)],
            )[["game", "from", "to", "paired_games", "difference", "ci"]]
            print("\npaired differences between consecutive steps (95% anytime CI, pp):")
            print(d.to_string(index=False))
    print(f"\nreport:  {ov.out / 'report.html'}")
    return 0


def _table_experiment(exp, args) -> int:
    """Compute a ``table = NAME`` experiment: print its size, first rows and files."""
    from simlib.core.checks import check_run_options
    from simlib.experiment import REPORT_FILE, TABLE_CSV, TABLE_PARQUET, run_table_experiment

    check_run_options(_backend(args), args.scheduler, None, None, args.threads)
    df = run_table_experiment(exp)
    print(f"{exp.title}: exact table '{exp.table}' of {exp.game}, {len(df):,} rows")
    with pd_display():
        print(df.head(10).to_string(index=False))
    if len(df) > 10:
        print(f"... {len(df) - 10:,} more rows")
    print(f"\ntable:   {exp.out / TABLE_PARQUET}")
    print(f"         {exp.out / TABLE_CSV}")
    print(f"report:  {exp.out / REPORT_FILE}")
    return 0


def pd_display():
    """Context in which pandas prints wide tables on a terminal without wrapping them."""
    import pandas as pd

    return pd.option_context("display.width", 200, "display.max_columns", 40)


def _cmd_compare(args, state) -> int:
    from simlib.core.results import Results
    from simlib.core.runner import compare

    a = Results.load(args.a)
    others = [Results.load(b) for b in args.b]
    result = compare(a, *others, confidence=args.confidence)
    if len(args.b) == 1 and not hasattr(result, "table"):
        print(f"A: {args.a}  {a!r}")
        print(f"B: {args.b[0]}  {others[0]!r}")
        print(result)
        return 0
    print(f"baseline: {args.a}  {a!r}")
    for b, res in zip(args.b, others, strict=True):
        print(f"vs:       {b}  {res!r}")
    print(result)
    return 0


def _parse_range(spec: str | None, option: str = "--range") -> tuple[Any, Any]:
    """``lo:hi`` (numbers) -> (lo, hi); None -> (None, None)."""
    if spec is None:
        return None, None
    parts = spec.split(":")
    if len(parts) != 2 or not all(p.strip() for p in parts):
        raise SimlibInputError(f"{option} '{spec}': expected low:high, e.g. 12:24")
    lo, hi = (_number(p, option) for p in parts)
    if lo >= hi:
        raise SimlibInputError(f"{option} '{spec}': low must be below high")
    return lo, hi


def _float_arg(text: str, option: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise SimlibInputError(f"{option}: '{text}' is not a number") from None
    return value


def _cmd_solve(args, state) -> int:
    from simlib.core.solve import solve

    target = _float_arg(args.target, "--target")
    if not 0 < target < 1:
        raise SimlibInputError(
            f"--target: {args.target} is not allowed; expected a win rate strictly between 0 "
            "and 1, e.g. 0.5"
        )
    lo, hi = _parse_range(args.range)
    sol = solve(
        args.game,
        args.param,
        target,
        preset=args.preset,
        settings=_pairs(args.set, "--set"),
        bot=args.bot,
        bot_params=_pairs(args.bot_param, "--bot-param"),
        seed=args.seed,
        precision=_precision(args.precision),
        lo=lo,
        hi=hi,
        games=args.games,
        **_run_options(args),
    )
    print(sol)
    with pd_display():
        print(sol.curve.to_string(index=False))
    return 0


def _param_ranges(items: list[str]) -> dict[str, tuple[Any, Any]]:
    """``--param KEY=low:high`` (numbers, or two values of a reading) -> dict."""
    out: dict[str, tuple[Any, Any]] = {}
    for item in items:
        key, sep, spec = item.partition("=")
        key = key.strip()
        parts = spec.split(":")
        if not sep or not key or len(parts) != 2 or not all(p.strip() for p in parts):
            raise SimlibInputError(
                f"--param '{item}': expected KEY=low:high, e.g. --param hazard_cards=14:22 "
                "(a reading: KEY=value:other)"
            )
        values: list[Any] = []
        for part in parts:
            try:
                values.append(_number(part, "--param"))
            except SimlibInputError:
                values.append(part.strip())
        if key in out:
            raise SimlibInputError(f"--param '{key}' is given twice")
        out[key] = (values[0], values[1])
    return out


def _cmd_sensitivity(args, state) -> int:
    from simlib.core.sensitivity import sensitivity

    result = sensitivity(
        args.game,
        _param_ranges(args.param),
        args.method,
        preset=args.preset,
        settings=_pairs(args.set, "--set"),
        bot=args.bot,
        bot_params=_pairs(args.bot_param, "--bot-param"),
        seed=args.seed,
        precision=_precision(args.precision),
        games=args.games,
        samples=args.samples,
        **_run_options(args),
    )
    print(result)
    if args.chart:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        from simlib.report import charts

        if result.method != "oat":
            raise SimlibInputError("--chart: the tornado chart draws one-at-a-time effects")
        ax = charts.tornado(result.table)
        ax.figure.savefig(args.chart, dpi=100)
        plt.close(ax.figure)
        print(f"chart written to {args.chart}")
    return 0


def _is_table_folder(folder: Path) -> bool:
    """True when ``folder`` holds an exact-table experiment (its experiment.json says so)."""
    from simlib.core.results import EXPERIMENT_FILE, read_json

    if not (folder / EXPERIMENT_FILE).is_file():
        return False
    definition = read_json(folder / EXPERIMENT_FILE, "experiment file").get("experiment")
    return isinstance(definition, dict) and definition.get("kind") == "table"


def _report_spec(game, meta: Mapping[str, Any]):
    """What ``game``'s report shows for the run ``meta`` describes.

    A game not registered here gets the plain report, with the outcome order the run
    recorded.
    """
    from simlib.core.game import ReportSpec

    if game is None:
        return ReportSpec(outcomes=tuple(meta.get("outcomes") or ()))
    settings = meta.get("settings")
    return game.report_spec(game.context(settings if isinstance(settings, dict) else None))


def _cmd_report(args, state) -> int:
    from simlib.core.ladder import LADDER_FILE
    from simlib.core.results import Results
    from simlib.games.registry import get_game
    from simlib.report import html

    if (Path(args.dir) / LADDER_FILE).is_file():
        return _ladder_report(Path(args.dir), args)
    if _is_table_folder(Path(args.dir)):
        from simlib.experiment import table_report

        path = table_report(args.dir, args.out, args.title)
        print(f"report written to {path}")
        return 0
    res = Results.load(args.dir)
    meta = res.meta
    try:
        game = get_game(str(meta.get("game")))
    except SimlibInputError:
        game = None  # a plug-in game not registered here: report without its extra columns
    # An experiment stores how to group its report; otherwise group by whatever varies.
    report_meta = meta.get("report")
    layout: dict[str, Any] = report_meta if isinstance(report_meta, dict) else {}
    varying = list(layout.get("group_by", meta.get("varying", [])))
    numeric_settings = list(
        layout.get(
            "sweep_params",
            [
                c
                for c in varying
                if c not in ("preset", "bot", "seed", "engine_version")
                and c in res.df.columns
                and res.df[c].dtype.kind in "if"
            ],
        )
    )
    path = Path(args.out) if args.out else Path(args.dir) / "report.html"
    shown = {k: v for k, v in meta.items() if k not in ("cells", "out")}
    if not shown.get("command"):
        from simlib.core.runner import reproduce_command

        command = reproduce_command(meta)
        if command:
            shown["command"] = command
    ladder_dir = Path(args.dir) / "ladder"
    lad = None
    if (ladder_dir / LADDER_FILE).is_file():  # an experiment with a skill ladder
        from simlib.core.ladder import Ladder

        lad = Ladder.load(ladder_dir)
    path = html.build_report(
        res.df,
        path,
        title=args.title or meta.get("title") or str(meta.get("game")),
        meta=shown,
        group_by=varying,
        sweep_params=numeric_settings,
        effect_factors=[c for c in layout.get("effects", []) if c in res.df.columns],
        spec=_report_spec(game, meta),
        anytime_prior=res.anytime_prior(varying or None),
        ladder=lad,
    )
    if not meta.get("complete", True):
        cells = (
            f", {meta['cells_present']} of {meta['cells_total']} cells started"
            if "cells_total" in meta
            else ""
        )
        print(
            f"note: {args.dir} holds a partial run ({len(res.df):,} of {meta.get('games'):,} "
            f"games{cells})"
        )
    print(f"report written to {path}")
    return 0


def parse_budgets(spec: str) -> list[int]:
    """Parse ``--budgets``: comma-separated integers (``0,4,16,64``)."""
    items = [v.strip() for v in spec.split(",")]
    if not any(items):
        raise SimlibInputError("--budgets: no budgets given; e.g. --budgets 0,4,16,64")
    out = []
    for item in items:
        try:
            out.append(int(item))
        except ValueError:
            raise SimlibInputError(
                f"--budgets: {item!r} is not an integer; expected comma-separated integers, "
                "e.g. --budgets 0,4,16,64"
            ) from None
    return out


def _cmd_warmup(args, state) -> int:
    from simlib.core.warmup import warmup
    from simlib.games.registry import game_names, get_game

    names = args.game or game_names()
    games = [get_game(name) for name in names]  # an unknown name: one line, nothing compiled
    for game in games:
        about = f" (about {game.compile_seconds} s cold)" if game.compile_seconds else ""
        print(f"{game.title or game.name}: compiling{about}...", flush=True)
        (done,) = warmup([game.name])
        print(f"  {done.kernels} block kernel{'s' if done.kernels != 1 else ''} ready in "
              f"{done.seconds:.1f} s", flush=True)
    return 0


def _cmd_ladder(args, state) -> int:
    from simlib.core.ladder import DEFAULT_BUDGETS, ladder

    budgets = parse_budgets(args.budgets) if args.budgets is not None else DEFAULT_BUDGETS
    state["out"] = args.out
    lad = ladder(
        args.game,
        presets=args.preset,
        budgets=budgets,
        games=args.games,
        seed=args.seed,
        settings=_pairs(args.set, "--set"),
        bots=args.bot,
        out=args.out,
        **_run_options(args),
    )
    from simlib.report.tables import ladder_text

    print(ladder_text(lad))
    if args.out:
        print(f"\nladder saved in {args.out} (load with simlib.core.ladder.Ladder.load)")
    if args.report:
        from simlib.report.html import build_ladder_report

        path = build_ladder_report(lad, args.report)
        print(f"report written to {path}")
    return 0


def _ladder_report(folder: Path, args) -> int:
    from simlib.core.ladder import Ladder
    from simlib.report.html import build_ladder_report

    path = build_ladder_report(
        Ladder.load(folder), Path(args.out) if args.out else folder / "report.html",
        title=args.title,
    )
    print(f"report written to {path}")
    return 0


# --- parser ---------------------------------------------------------------------------------
def _add_run_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", help="game name (see 'simlib games')")
    p.add_argument("--preset", help="preset name (default: the game's default preset)")
    p.add_argument(
        "--set", action="append", metavar="KEY=VALUE", help="setting override, repeatable"
    )
    p.add_argument("--bot", help="bot name (default: the game's default bot)")
    p.add_argument(
        "--bot-param",
        action="append",
        metavar="KEY=VALUE",
        help="bot parameter override, repeatable",
    )
    p.add_argument(
        "--games",
        type=ascii_int,
        default=DEFAULT_GAMES,
        help=f"playthroughs (default {DEFAULT_GAMES:,})",
    )
    p.add_argument("--seed", type=ascii_int, default=0, help="run seed (default 0)")
    _add_backend_options(p)
    p.add_argument("--chunk-size", type=ascii_int, help="games per chunk (checkpoint unit)")
    p.add_argument("--out", help="folder for resumable checkpoints")


def _add_config_options(p: argparse.ArgumentParser) -> None:
    """Game, preset, settings, bot and seed (what solve and sensitivity hold fixed)."""
    p.add_argument("game", help="game name (see 'simlib games')")
    p.add_argument("--preset", help="preset name (default: the game's default preset)")
    p.add_argument(
        "--set", action="append", metavar="KEY=VALUE", help="setting override, repeatable"
    )
    p.add_argument("--bot", help="bot name (default: the game's default bot)")
    p.add_argument(
        "--bot-param", action="append", metavar="KEY=VALUE", help="bot parameter override"
    )
    p.add_argument("--seed", type=ascii_int, default=0, help="run seed (default 0)")
    _add_backend_options(p)
    p.add_argument("--chunk-size", type=ascii_int, help="games per chunk")


def _add_backend_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--backend",
        choices=("local", "dask"),
        help="local numba threads (default) or a Dask cluster",
    )
    p.add_argument(
        "--scheduler",
        metavar="ADDR",
        help="Dask scheduler address, e.g. tcp://host:8786 (implies --backend dask; "
        "default with --backend dask: a local cluster)",
    )
    p.add_argument("--threads", type=ascii_int, help="numba threads (default: all cores)")
    p.add_argument("--no-progress", action="store_true", help="never show a progress bar")


def build_parser() -> argparse.ArgumentParser:
    """Return the ``simlib`` argument parser."""
    from simlib import __version__

    parser = _Parser(
        prog="simlib",
        description="Monte Carlo playthroughs of tabletop games by scripted bots.",
    )
    parser.add_argument("--version", action="version", version=f"simlib {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("games", help="list games, presets, settings and bots")
    p.add_argument("game", nargs="?", help="show this game in detail")
    p.set_defaults(func=_cmd_games)

    p = sub.add_parser("run", help="run playthroughs and print the summary")
    _add_run_options(p)
    _add_format_option(p)
    p.add_argument(
        "--save",
        action="store_true",
        help="keep the results: in --out, or by default in results/GAME-YYYYMMDD-HHMMSS",
    )
    p.add_argument(
        "--precision",
        type=str,
        help="play until the anytime 95%% interval is at most +-this (e.g. 0.01); "
        "--games is then the cap",
    )
    p.set_defaults(func=_cmd_run)

    p = sub.add_parser("sweep", help="run each value of one setting with the same seed")
    _add_run_options(p)
    _add_format_option(p)
    p.add_argument(
        "--param", required=True, help="setting to sweep, or bot.<parameter> for a bot parameter"
    )
    p.add_argument(
        "--values",
        required=True,
        help="a,b,c or start:stop[:step] (stop excluded, as in Python's range)",
    )
    p.set_defaults(func=_cmd_sweep)

    p = sub.add_parser("solve", help="find the value of a setting that gives a target win rate")
    _add_config_options(p)
    p.add_argument("--param", required=True, help="numeric setting, or bot.<parameter>")
    p.add_argument("--target", default="0.5", help="win rate sought, in (0, 1) (default 0.5)")
    p.add_argument("--range", metavar="LO:HI", help="values searched (default: its bounds)")
    p.add_argument(
        "--precision", default="0.01", help="+- on each point's win rate (default 0.01)"
    )
    p.add_argument("--games", type=ascii_int, help="games per point (default: from --precision)")
    p.set_defaults(func=_cmd_solve)

    p = sub.add_parser("sensitivity", help="rank settings by how much they move the win rate")
    _add_config_options(p)
    p.add_argument(
        "--param",
        action="append",
        required=True,
        metavar="KEY=LOW:HIGH",
        help="a setting or bot.<parameter> and its range (a reading: KEY=value:other); "
        "repeatable",
    )
    p.add_argument("--method", choices=("oat", "sobol"), default="oat",
                   help="oat: one at a time (default); sobol: Sobol indices via SALib")
    p.add_argument("--precision", default="0.01",
                   help="+- on each configuration's win rate (default 0.01)")
    p.add_argument(
        "--games", type=ascii_int, help="games per configuration (default: from --precision)"
    )
    p.add_argument("--samples", type=ascii_int, default=64,
                   help="sobol: SALib's base sample size, a power of 2 (default 64)")
    p.add_argument("--chart", metavar="FILE.png", help="oat: write the tornado chart here")
    p.set_defaults(func=_cmd_sensitivity)

    p = sub.add_parser("experiment", help="run a TOML experiment file")
    p.add_argument("file", help="experiment .toml file")
    p.add_argument("--games", type=ascii_int, help="games per cell instead of the file's (a trial)")
    p.add_argument("--out", help="results folder instead of the file's")
    _add_format_option(p)
    _add_backend_options(p)
    p.set_defaults(func=_cmd_experiment)

    p = sub.add_parser(
        "compare",
        help="compare win rates: two runs, or a baseline against runs, sweeps or experiments "
        "(cell by cell, Holm-adjusted)",
    )
    p.add_argument("a", metavar="BASE", help="the baseline: one run folder")
    p.add_argument("b", metavar="OTHER", nargs="+", help="run, sweep or experiment folders")
    p.add_argument(
        "--confidence",
        type=ascii_float,
        default=0.95,
        help="confidence level of the interval (default 0.95)",
    )
    p.set_defaults(func=_cmd_compare)

    p = sub.add_parser("report", help="build an HTML report from a run or experiment folder")
    p.add_argument("dir", metavar="DIR")
    p.add_argument("--out", metavar="FILE.html", help="report file (default DIR/report.html)")
    p.add_argument("--title", help="report title")
    p.set_defaults(func=_cmd_report)

    p = sub.add_parser(
        "warmup", help="compile the games' kernels ahead of a first run (cached on disk)"
    )
    p.add_argument("game", nargs="*", help="games to compile (default: every game)")
    p.set_defaults(func=_cmd_warmup)

    p = sub.add_parser(
        "ladder", help="skill ladder: scripted bots and the search bot at rising budgets"
    )
    p.add_argument("game", help="game name (a game with a 'search' bot)")
    p.add_argument(
        "--preset", action="append", help="preset to climb, repeatable (default: the default)"
    )
    p.add_argument(
        "--budgets", metavar="B,B,...", help="search budgets, e.g. 0,4,16,64 (default 0,4,16)"
    )
    p.add_argument(
        "--bot", action="append", help="scripted bot, repeatable (default: every scripted bot)"
    )
    p.add_argument(
        "--set", action="append", metavar="KEY=VALUE", help="setting override, repeatable"
    )
    p.add_argument("--games", type=ascii_int, required=True, help="games per rung")
    p.add_argument("--seed", type=ascii_int, default=0, help="seed of every rung (default 0)")
    _add_backend_options(p)
    p.add_argument("--chunk-size", type=ascii_int, help="games per chunk (checkpoint unit)")
    p.add_argument("--out", help="folder for the resumable ladder (one run folder per rung)")
    p.add_argument("--report", metavar="FILE.html", help="write the ladder's HTML report")
    p.set_defaults(func=_cmd_ladder)
    return parser


_INT_RE = re.compile(r"[+-]?[0-9]+")
_FLOAT_RE = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")


def ascii_int(text: str) -> int:
    """An option's integer: ASCII digits only (``int`` also takes '١٢' and ' 12')."""
    if not _INT_RE.fullmatch(text):
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer (ASCII digits, e.g. 2000)")
    return int(text)


def ascii_float(text: str) -> float:
    """An option's number: ASCII digits, a point and an exponent only."""
    if not _FLOAT_RE.fullmatch(text):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number (ASCII, e.g. 0.95)")
    return float(text)


def _error(message: str) -> int:
    print(f"simlib: error: {' '.join(str(message).split())}", file=sys.stderr)
    return 2


def main(argv: list[str] | None = None) -> int:
    """Run the ``simlib`` command with ``argv`` (default ``sys.argv[1:]``); return the status."""
    state: dict[str, Any] = {}
    try:
        args = build_parser().parse_args(argv)
        load_extra_games()
        return int(args.func(args, state) or 0)
    except (SimlibInputError, _UsageError) as err:
        return _error(str(err))
    except SimlibRunError as err:
        _error(str(err))
        return 1
    except OSError as err:
        if err.filename is not None and err.strerror:
            return _error(f"{err.strerror}: '{err.filename}'")
        return _error(str(err) or type(err).__name__)
    except KeyboardInterrupt:
        out = state.get("out")
        if out:
            print(
                f"simlib: interrupted; finished chunks are saved in {out}, run the same "
                "command to resume",
                file=sys.stderr,
            )
        else:
            print("simlib: interrupted", file=sys.stderr)
        return 130
    except SystemExit as exc:  # --help and --version
        code = exc.code
        return code if isinstance(code, int) else (0 if code is None else 2)


if __name__ == "__main__":
    raise SystemExit(main())
