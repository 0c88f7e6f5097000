"""TOML experiment files: a grid of presets x bots x settings, run, saved and reported.

An experiment file answers one question a designer asks. Example::

    title = "Sub Terra: how hard is each difficulty?"
    game = "subterra"
    games = 100000                  # playthroughs per cell
    seed = 2026                     # every cell uses this seed: common random numbers
    out = "results/subterra_difficulty"
    bots = ["explorer", "cautious"]            # optional; default: the game's default bot
    presets = ["normal", "advanced", "expert"] # optional; default: the game's default preset

    [grid]                  # optional; each key a setting, each value a list of values
    cavers = [4, 5, 6]

    [settings]              # optional; fixed setting overrides for every cell
    hazard_cards = 18

    [bot_params.explorer]   # optional; parameter overrides for one of the bots above
    risk = 0.3

    [report]                # optional; how report.html groups the results
    sweep = ["cavers"]      # numeric grid keys drawn as difficulty curves
    group_by = ["preset"]   # columns the tables and charts are grouped by
    effects = ["preset", "cavers"]  # factors ranked by how much they move the win rate
                            # (default: every varied column when two or more vary; [] = none)

Keys
----
``title`` (str), ``description`` (str), ``game`` (str, required), ``games`` (int >= 1,
required: playthroughs per cell), ``seed`` (int, 0 <= seed < 2**63, default 0), ``out``
(folder; a relative path is relative to the **current working directory**, not to the TOML
file; default ``results/<file name without .toml>``), ``bots`` and ``presets`` (lists of
names), ``chunk_size`` (int, optional), ``precision`` (float in (0, 0.5), optional: each
cell plays until its win rate's anytime-valid 95% interval is at most ±precision, with
``games`` as the cap; see ``simlib.run``), and the tables ``grid``, ``settings``,
``bot_params`` and ``report``. Any other key is refused.

The cells are every combination of ``presets`` x ``bots`` x the ``grid`` values, named like
``preset=normal,bot=explorer,cavers=4``. Every cell's settings are resolved and checked
before anything runs, so a bad value fails at once, naming the key.

Output folder ``out``::

    out/experiment.json     the definition, the command that reproduces it, complete flag
    out/cells/<cell>/       one resumable run folder per cell (see ``simlib.core.runner``)
    out/results.parquet     all cells stacked: the game's columns, then preset, bot and one
                            column per grid key (written when every cell is done)
    out/results.json        metadata of the stacked results (read by ``Results.load``)
    out/report.html         tables and charts (``simlib.report.html.build_report``)

Running the same file again resumes: finished chunks are never recomputed. An ``out``
folder holding a different experiment (another game, seed, bots, presets, grid, settings
or bot parameters) is refused untouched; changing ``games`` extends or truncates each cell.

Skill ladder
------------
``ladder = [0, 4, 16]`` (search budgets) or a table::

    [ladder]
    budgets = [0, 4, 16, 64]        # the search bot's budgets (default 0, 4, 16)
    games = 400                     # games per rung (default: the experiment's games)
    presets = ["normal"]            # default: the experiment's presets
    bots = ["explorer"]             # scripted bots (default: every bot except search)

adds the game's skill ladder (:func:`simlib.ladder`) to the experiment: it plays each
preset with the experiment's ``seed`` and fixed ``[settings]`` (grid values are not crossed
with it) in ``out/ladder/`` (resumable, refused when it holds another ladder), and
``report.html`` gets a "Skill ladder" section. A game without a ``search`` bot, or a budget
outside its bounds, fails at load time.

Exact tables
------------
A game may offer exact tables computed without playthroughs (``Game.tables()``, listed by
``simlib games GAME``). A file with ``table = "NAME"`` computes one instead::

    title = "Terraria: combat table"
    game = "terraria"
    table = "combat"                # one of the game's tables
    out = "results/terraria_combat"

    [options]                       # optional; keyword arguments of the table
    attack_bonus = 1
    weapons = ["copper_shortsword", "wooden_bow"]

Keys: ``title``, ``description``, ``game``, ``table`` (required), ``options`` and ``out``
(as above). Each option is checked against the table's declared type and range, then the
options together (e.g. ids against the data), before anything is computed or written: an
unknown option or a bad value fails with one line naming it. The playthrough keys
(``games``, ``seed``, ``bots``, ``presets``, ``grid``, ``settings``, ``bot_params``,
``chunk_size``, ``report``) are **refused**, not ignored: a table has no playthroughs, and
a grid or a bot silently dropped would let a designer believe it applied.

Output folder ``out``::

    out/experiment.json     the definition (game, table, every option's value) and command
    out/table.parquet       the table (a meaningful index becomes leading columns)
    out/table.csv           the same, as text
    out/report.html         a self-contained page: title, description, command, the table

Running the file again recomputes the table and rewrites the same files (same bytes for
the same definition and data). An ``out`` folder holding any other experiment (another
game, table or option values, or playthroughs) is refused untouched.
"""

from __future__ import annotations

import itertools
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, overload

import pandas as pd

from simlib.core.checks import (
    check_games,
    check_int,
    check_precision,
    check_run_options,
    check_seed,
)
from simlib.core.cluster import shared_cluster
from simlib.core.game import Game, TableSpec
from simlib.core.outdir import existing_record, same_identity
from simlib.core.results import (
    EXPERIMENT_FILE,
    Results,
    atomic_write_bytes,
    atomic_write_json,
    atomic_write_parquet,
    jsonable,
    read_json,
    value_label,
    value_text,
)
from simlib.core.runner import RunPlan, check_out, execute_plan, resolve_run
from simlib.errors import SimlibInputError
from simlib.games.registry import get_game

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

__all__ = [
    "Experiment",
    "TableExperiment",
    "Cell",
    "load_experiment",
    "experiment_from_dict",
    "run_experiment",
    "run_table_experiment",
]

TOP_KEYS: tuple[str, ...] = (
    "title",
    "description",
    "game",
    "games",
    "seed",
    "out",
    "bots",
    "presets",
    "chunk_size",
    "grid",
    "settings",
    "bot_params",
    "report",
    "precision",
)
REPORT_KEYS = ("sweep", "group_by", "effects")
TABLE_KEYS = ("title", "description", "game", "table", "options", "out")
# What must match for a rerun of a table experiment to rewrite its out folder.
TABLE_IDENTITY_KEYS = ("game", "table", "options")
TABLE_PARQUET = "table.parquet"
TABLE_CSV = "table.csv"
REPORT_FILE = "report.html"
# What must match for a rerun to reuse an out folder (games may change: cells extend).
IDENTITY_KEYS = ("game", "seed", "presets", "bots", "grid", "settings", "bot_params")

# The skill ladder an experiment may add (``ladder = [0, 4, 16]`` or a [ladder] table).
TOP_KEYS = (*TOP_KEYS, "ladder")
LADDER_KEYS = ("budgets", "games", "presets", "bots")
LADDER_DIR = "ladder"



@dataclass(frozen=True)
class Cell:
    """One combination of preset, bot and grid values, resolved and ready to run."""

    name: str
    preset: str
    bot: str
    grid: dict[str, Any]
    plan: RunPlan


@dataclass
class Experiment:
    """A validated experiment definition (see the module docstring for the TOML schema)."""

    title: str
    game: str
    games: int
    seed: int
    out: Path
    bots: list[str]
    presets: list[str]
    grid: dict[str, list[Any]]
    settings: dict[str, Any]
    bot_params: dict[str, dict[str, float]]
    report: dict[str, list[str]]
    cells: list[Cell]
    description: str = ""
    chunk_size: int | None = None
    #: The skill ladder to play beside the cells (``simlib.core.ladder.LadderPlan``).
    ladder: Any = None
    path: Path | None = None
    source: dict[str, Any] = field(default_factory=dict)
    precision: float | None = None
    #: ``games`` / ``out`` given over the file's own (``simlib experiment FILE --games N``)
    overrides: dict[str, Any] = field(default_factory=dict)

    def definition(self) -> dict[str, Any]:
        """Return the definition as plain JSON data (what ``experiment.json`` stores)."""
        return jsonable(
            {
                "precision": self.precision,
                "title": self.title,
                "description": self.description,
                "game": self.game,
                "games": self.games,
                "seed": self.seed,
                "out": str(self.out),
                "bots": self.bots,
                "presets": self.presets,
                "grid": self.grid,
                "settings": self.settings,
                "bot_params": self.bot_params,
                "report": self.report,
                "chunk_size": self.chunk_size,
            }
        )

    def command(self) -> str:
        """Return the command line that runs (or resumes) this experiment."""
        if not self.path:
            return "simlib.run_experiment(...)"
        return f"simlib experiment {self.path}" + override_options(self.overrides)

    def group_by(self) -> list[str]:
        """Return the report's group columns: ``[report] group_by`` or each varying one."""
        if "group_by" in self.report:
            return list(self.report["group_by"])
        dims = [("preset", self.presets), ("bot", self.bots), *self.grid.items()]
        return [name for name, values in dims if len(values) > 1]

    def effect_factors(self) -> list[str]:
        """Return the factors ranked in the report's "What moves the win rate".

        ``[report] effects`` when given, else every varied column (preset, bot, grid keys)
        when at least two vary.
        """
        if "effects" in self.report:
            return list(self.report["effects"])
        dims = [("preset", self.presets), ("bot", self.bots), *self.grid.items()]
        varied = [name for name, values in dims if len(values) > 1]
        return varied if len(varied) >= 2 else []

    def sweep_params(self) -> list[str]:
        """Return the settings drawn as curves: ``[report] sweep`` or numeric grid keys."""
        if "sweep" in self.report:
            return list(self.report["sweep"])
        return [k for k, v in self.grid.items() if len(v) > 1 and _numeric(v)]

    def __repr__(self) -> str:
        return (
            f"Experiment({self.title!r}, game={self.game}, {len(self.cells)} cells x "
            f"{self.games:,} games, out='{self.out}')"
        )


@dataclass
class TableExperiment:
    """A validated exact-table experiment (``table = NAME``; see the module docstring).

    ``options`` holds every option's value (defaults filled in), as the table receives it.
    """

    title: str
    game: str
    table: str
    options: dict[str, Any]
    out: Path
    spec: TableSpec = field(repr=False)
    description: str = ""
    path: Path | None = None
    source: dict[str, Any] = field(default_factory=dict)

    def definition(self) -> dict[str, Any]:
        """Return the definition as plain JSON data (what ``experiment.json`` stores)."""
        return jsonable(
            {
                "kind": "table",
                "title": self.title,
                "description": self.description,
                "game": self.game,
                "table": self.table,
                "options": self.options,
                "out": str(self.out),
            }
        )

    def command(self) -> str:
        """Return the command line that computes this table again."""
        return f"simlib experiment {self.path}" if self.path else "simlib.run_experiment(...)"


def under_cwd(path: Path) -> bool:
    """Whether ``path`` lies under the current folder (then it is shown relative to it)."""
    try:
        path.resolve().relative_to(Path.cwd().resolve())
    except ValueError:
        return False
    return True


def _beside(value: Any, base: Path | None) -> Any:
    """A data-file setting written in an experiment file, read from the file's folder.

    ``"default"`` and absolute paths stay; a relative path is joined to ``base`` and shown
    relative to the current folder when it lies under it (``experiments/x.toml`` from the
    repository's root), absolute otherwise.
    """
    if base is None or not isinstance(value, str) or value == "default":
        return value
    target = Path(value).expanduser()
    if target.is_absolute():
        return value
    joined = Path(os.path.normpath(base / target))
    return os.path.relpath(joined) if under_cwd(joined) else str(joined)


def _numeric(values: list) -> bool:
    return all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)


# --- loading and validation ---------------------------------------------------------------
def _out_of(value: Any, fail) -> Path:
    """The ``out`` key as a path (``~`` expanded); a non-path is a one-line error."""
    from simlib.core.checks import out_folder

    try:
        folder = out_folder(value, "'out'")
    except SimlibInputError as err:
        raise fail(str(err)) from None
    assert folder is not None
    return folder


def override_options(overrides: dict[str, Any]) -> str:
    """The command-line options that give ``overrides`` again (`` --games N --out DIR``)."""
    return "".join(f" --{k} {v}" for k, v in overrides.items())


def load_experiment(
    path: str | os.PathLike,
    *,
    games: int | None = None,
    out: str | os.PathLike | None = None,
) -> Experiment | TableExperiment:
    """Read and validate an experiment TOML file; every cell is resolved before returning.

    A file with ``table = NAME`` gives a :class:`TableExperiment` (options resolved and
    checked), any other an :class:`Experiment`. ``games`` and ``out`` replace the file's
    own (a quick trial of a large study: ``games=2000, out="results/trial"``), checked
    as the file's would be.

    Raises
    ------
    SimlibInputError
        A missing or malformed file (with tomllib's line and column), an unknown key at any
        level, an unknown game, preset, bot, setting or bot parameter, or a bad value:
        one line naming the key and what is allowed.

    """
    p = Path(path)
    try:
        raw = p.read_bytes()
    except FileNotFoundError:
        raise SimlibInputError(f"experiment file '{path}' does not exist") from None
    except IsADirectoryError:
        raise SimlibInputError(
            f"experiment file '{path}' is a folder; expected a .toml file"
        ) from None
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise SimlibInputError(f"{path}: not a UTF-8 text file; expected TOML") from None
    except tomllib.TOMLDecodeError as err:
        raise SimlibInputError(f"{path}: malformed TOML: {err}") from None
    overrides: dict[str, Any] = {}
    if games is not None:
        overrides["games"] = games
    if out is not None:
        overrides["out"] = str(out)
    data.update(overrides)
    exp = experiment_from_dict(data, path=p)
    if overrides and hasattr(exp, "overrides"):
        exp.overrides = overrides
    return exp


def experiment_from_dict(
    data: dict[str, Any], path: str | os.PathLike | None = None
) -> Experiment | TableExperiment:
    """Validate an experiment given as a dict (the parsed TOML); see :func:`load_experiment`."""
    src = str(path) if path is not None else "experiment"
    if not isinstance(data, dict):
        raise SimlibInputError(f"{src}: expected a TOML table of keys")
    if data.get("kind") == "overview" or "study" in data:
        from simlib.overview import overview_from_dict

        return overview_from_dict(data, path)  # type: ignore[return-value]
    if "table" in data:
        return _table_experiment(data, path)
    return _ExperimentReader(data, path).experiment()


class _ExperimentReader:
    """Reads a playthrough experiment's keys one step at a time, each refused in one line.

    Every message starts with the file's name (``src``); paths written in the file are
    read from the file's own folder (``base``), whatever the current folder.
    """

    def __init__(self, data: dict[str, Any], path: str | os.PathLike | None) -> None:
        self.data = data
        self.path = path
        self.src = str(path) if path is not None else "experiment"
        self.base = Path(path).expanduser().resolve().parent if path is not None else None

    def fail(self, msg: str) -> SimlibInputError:
        """The error to raise: ``msg`` prefixed with the file's name."""
        return SimlibInputError(f"{self.src}: {msg}")

    def experiment(self) -> Experiment:
        """The whole experiment: top keys, settings, grid, bot parameters, report, cells."""
        data = self.data
        if "options" in data:
            raise self.fail(
                "'options' belongs to an exact-table experiment; add table = \"NAME\" (see "
                "'simlib games GAME' for a game's tables) or remove [options]"
            )
        self.check_keys(data, TOP_KEYS, "")
        for key in ("game", "games"):
            if key not in data:
                raise self.fail(f"missing key '{key}'")
        for key in ("title", "description", "game", "out"):
            if key in data and not isinstance(data[key], str):
                raise self.fail(f"'{key}' must be a string")
        try:
            self.game: Game = get_game(data["game"])
            games = check_games(data["games"])
            seed = check_seed(data.get("seed", 0))
            chunk_size = (
                check_int("chunk_size", data["chunk_size"], 1) if "chunk_size" in data else None
            )
            precision = check_precision(data["precision"]) if "precision" in data else None
        except SimlibInputError as err:
            raise self.fail(str(err)) from None
        game = self.game
        presets = self.names("presets", game.default_preset, list(game.presets), "preset")
        bots = self.names("bots", game.default_bot, [b.name for b in game.bots], "bot")
        settings = {k: self.coerce("settings", k, v) for k, v in self.table("settings").items()}
        grid = self.grid(settings)
        bot_params = self.bot_params(bots)
        cells = self.cells(presets, bots, grid, settings, bot_params, games, seed)
        return Experiment(
            title=data.get("title", f"{game.title or game.name} experiment"),
            description=data.get("description", ""),
            game=game.name,
            games=games,
            seed=seed,
            out=self.out(),
            bots=bots,
            presets=presets,
            grid=grid,
            settings=settings,
            bot_params=bot_params,
            report=self.report(grid),
            cells=cells,
            chunk_size=chunk_size,
            ladder=_ladder_plan(data, game, presets, settings, seed, games, self.fail),
            path=Path(self.path) if self.path is not None else None,
            source=data,
            precision=precision,
        )

    def check_keys(self, table: dict, allowed: tuple[str, ...], where: str) -> None:
        """Refuse a key of ``table`` not in ``allowed`` (``where`` prefixes its name)."""
        for key in table:
            if key not in allowed:
                raise self.fail(f"unknown key '{where}{key}'; allowed: {', '.join(allowed)}")

    def names(self, key: str, default: str, known: list[str], what: str) -> list[str]:
        """A non-empty list of distinct known names (presets, bots); ``[default]`` if absent."""
        if key not in self.data:
            return [default]
        value = self.data[key]
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
            raise self.fail(
                f"'{key}' must be a non-empty list of {what} names, e.g. "
                f'{key} = ["{known[0] if known else default}"]'
            )
        for v in value:
            if v not in known:
                raise self.fail(
                    f"{what} '{v}' in '{key}' is not a {what} of {self.game.name}; "
                    f"allowed: {', '.join(known)}"
                )
        dup = [v for v in value if value.count(v) > 1]
        if dup:
            raise self.fail(f"{what} '{dup[0]}' appears twice in '{key}'")
        return list(value)

    def table(self, key: str) -> dict:
        """The TOML table ``[key]`` (empty when absent)."""
        value = self.data.get(key, {})
        if not isinstance(value, dict):
            raise self.fail(f"'{key}' must be a table ([{key}]), not a {type(value).__name__}")
        return value

    def coerce(self, where: str, key: str, value: Any) -> Any:
        """A setting's value from table ``where``, checked; a data file read beside the file."""
        setting_names = [s.name for s in self.game.settings]
        if key not in setting_names:
            raise self.fail(
                f"'{where}.{key}' is not a setting of {self.game.name}; "
                f"allowed: {', '.join(setting_names)}"
            )
        try:
            value = self.game.setting(key).coerce(value)
        except SimlibInputError as err:
            raise self.fail(f"[{where}] {err}") from None
        return _beside(value, self.base) if self.game.setting(key).file else value

    def grid(self, settings: dict[str, Any]) -> dict[str, list]:
        """``[grid]``: each setting's non-empty list of distinct values, not also fixed."""
        grid: dict[str, list] = {}
        for key, values in self.table("grid").items():
            if not isinstance(values, list) or not values:
                raise self.fail(
                    f"'grid.{key}' must be a non-empty list of values, e.g. {key} = [1, 2]")
            if key in settings:
                raise self.fail(f"setting '{key}' is in both [grid] and [settings]; keep one")
            coerced = [self.coerce("grid", key, v) for v in values]
            labels = [value_text(v) for v in coerced]
            dup = [lab for lab in labels if labels.count(lab) > 1]
            if dup:
                raise self.fail(f"'grid.{key}' lists {dup[0]} twice")
            grid[key] = coerced
        return grid

    def bot_params(self, bots: list[str]) -> dict[str, dict[str, float]]:
        """``[bot_params.BOT]``: parameters of this experiment's bots, checked."""
        out: dict[str, dict[str, float]] = {}
        for bot_name, params in self.table("bot_params").items():
            if bot_name not in bots:
                raise self.fail(
                    f"'bot_params.{bot_name}': '{bot_name}' is not one of this experiment's "
                    f"bots; allowed: {', '.join(bots)}"
                )
            if not isinstance(params, dict):
                raise self.fail(f"'bot_params.{bot_name}' must be a table of parameter = number")
            try:
                full = self.game.bot(bot_name).resolve_params(params)
            except SimlibInputError as err:
                raise self.fail(f"[bot_params.{bot_name}] {err}") from None
            out[bot_name] = {k: full[k] for k in params}
        return out

    def report(self, grid: dict[str, list]) -> dict[str, list[str]]:
        """``[report]``: the columns to group, sweep and rank effects by."""
        report = self.table("report")
        self.check_keys(report, REPORT_KEYS, "report.")
        out: dict[str, list[str]] = {}
        columns = ["preset", "bot", *grid]
        for key in REPORT_KEYS:
            if key not in report:
                continue
            value = report[key]
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise self.fail(f"'report.{key}' must be a list of column names")
            allowed = list(grid) if key == "sweep" else columns
            for v in value:
                if v not in allowed:
                    what = "numeric grid keys" if key == "sweep" else "columns"
                    raise self.fail(
                        f"'report.{key}': '{v}' is not allowed; {what}: "
                        f"{', '.join(allowed) or 'none (the grid is empty)'}"
                    )
                if key == "sweep" and not _numeric(grid[v]):
                    raise self.fail(
                        f"'report.sweep': '{v}' has non-numeric values; only numbers can "
                        "be drawn as a curve"
                    )
            out[key] = list(value)
        return out

    def out(self) -> Path:
        """``out``, read from the file's folder; default ``results/<file name>``."""
        if "out" in self.data:
            out = _out_of(self.data["out"], self.fail)
        else:
            out = Path("results") / (Path(self.path).stem if self.path is not None
                                     else "experiment")
        if self.base is not None and not out.is_absolute():
            joined = Path(os.path.normpath(self.base / out))
            out = Path(os.path.relpath(joined)) if under_cwd(joined) else joined
        return out

    def cells(self, presets, bots, grid, settings, bot_params, games, seed) -> list[Cell]:
        """One resolved run per preset x bot x grid combination, named by its values."""
        cells = []
        grid_keys = list(grid)
        for preset, bot in itertools.product(presets, bots):
            for combo in itertools.product(*(grid[k] for k in grid_keys)):
                cell_grid = dict(zip(grid_keys, combo, strict=True))
                name = ",".join(
                    [f"preset={value_label(preset)}", f"bot={value_label(bot)}"]
                    + [f"{k}={value_label(v)}" for k, v in cell_grid.items()]
                )
                try:
                    plan = resolve_run(
                        self.game,
                        preset=preset,
                        settings={**settings, **cell_grid},
                        bot=bot,
                        bot_params=bot_params.get(bot),
                        games=games,
                        seed=seed,
                    )
                except SimlibInputError as err:
                    raise self.fail(f"cell {name}: {err}") from None
                cells.append(Cell(name, preset, bot, cell_grid, plan))
        return cells


def _ladder_plan(data, game, presets, settings, seed, games, fail):
    """The experiment's ``ladder`` (a list of budgets or a [ladder] table), resolved, or None.

    The ladder plays each of the experiment's presets (or ``ladder.presets``) with its fixed
    ``[settings]`` and seed; grid values are not crossed with it.
    """
    from simlib.core.ladder import DEFAULT_BUDGETS, resolve_ladder

    if "ladder" not in data:
        return None
    spec = data["ladder"]
    if isinstance(spec, list):
        spec = {"budgets": spec}
    if not isinstance(spec, dict):
        raise fail(
            "'ladder' must be a list of search budgets (ladder = [0, 4, 16]) or a table "
            "([ladder] with budgets = [...] and games = N)"
        )
    for key in spec:
        if key not in LADDER_KEYS:
            raise fail(f"unknown key 'ladder.{key}'; allowed: {', '.join(LADDER_KEYS)}")
    try:
        return resolve_ladder(
            game,
            presets=spec.get("presets", presets),
            budgets=spec.get("budgets", DEFAULT_BUDGETS),
            games=spec.get("games", games),
            seed=seed,
            settings=settings,
            bots=spec.get("bots"),
        )
    except SimlibInputError as err:
        raise fail(f"[ladder] {err}") from None


def _table_experiment(data: dict[str, Any], path: str | os.PathLike | None) -> TableExperiment:
    """Validate a ``table = NAME`` experiment (see the module docstring)."""
    src = str(path) if path is not None else "experiment"

    def fail(msg: str) -> SimlibInputError:
        return SimlibInputError(f"{src}: {msg}")

    for key in data:
        if key in TOP_KEYS:
            if key not in TABLE_KEYS:
                raise fail(
                    f"'{key}' does not apply to a table experiment (table = "
                    f"{data['table']!r} computes exact values, no playthroughs); remove "
                    f"'{key}', or remove 'table' to run playthroughs"
                )
        elif key not in TABLE_KEYS:
            raise fail(f"unknown key '{key}'; allowed: {', '.join(TABLE_KEYS)}")
    if "game" not in data:
        raise fail("missing key 'game'")
    for key in ("title", "description", "game", "table", "out"):
        if key in data and not isinstance(data[key], str):
            raise fail(f"'{key}' must be a string")
    try:
        game: Game = get_game(data["game"])
        name = data["table"]
        spec = game.table(name)
    except SimlibInputError as err:
        raise fail(str(err)) from None
    given = data.get("options", {})
    if not isinstance(given, dict):
        raise fail(f"'options' must be a table ([options]), not a {type(given).__name__}")
    allowed = [o.name for o in spec.options]
    for key in given:
        if key not in allowed:
            raise fail(
                f"unknown key 'options.{key}': not an option of table '{name}'; "
                f"allowed: {', '.join(allowed) or 'none'}"
            )
    try:
        options = spec.resolve(given)
    except SimlibInputError as err:
        raise fail(f"[options] {err}") from None
    out = (
        _out_of(data["out"], fail)
        if "out" in data
        else Path("results") / (Path(path).stem if path is not None else "experiment")
    )
    return TableExperiment(
        title=data.get("title", f"{game.title or game.name}: {name} table"),
        description=data.get("description", spec.description),
        game=game.name,
        table=name,
        options=options,
        out=out,
        spec=spec,
        path=Path(path) if path is not None else None,
        source=data,
    )


# --- running --------------------------------------------------------------------------------
def _check_out_folder(exp: Experiment) -> dict | None:
    stored = _stored_experiment(exp.out)
    if stored is None:
        return None
    old = stored["experiment"]
    if old.get("kind", "playthroughs") != "playthroughs":
        raise SimlibInputError(
            f"out folder '{exp.out}' holds an exact-table experiment (table "
            f"{value_text(old.get('table'))}); set 'out' to another folder"
        )
    same_identity(exp.out, old, exp.definition(), IDENTITY_KEYS, "experiment",
                  "set 'out' to another folder or restore the definition", "in this file")
    return stored


def _stored_experiment(out: Path) -> dict | None:
    """The ``experiment.json`` in ``out`` (None: a new folder); refuse a foreign folder."""
    stored = existing_record(out, EXPERIMENT_FILE, "simlib experiment",
                             fix="set 'out' to a new or empty folder")
    if stored is not None and not isinstance(stored.get("experiment"), dict):
        raise SimlibInputError(
            f"'{out / EXPERIMENT_FILE}' is not an experiment file written by simlib")
    return stored


@overload
def run_experiment(
    exp: Experiment,
    progress: bool | None = None,
    backend: str = "local",
    scheduler: Any = None,
    threads: int | None = None,
) -> Results: ...


@overload
def run_experiment(
    exp: TableExperiment,
    progress: bool | None = None,
    backend: str = "local",
    scheduler: Any = None,
    threads: int | None = None,
) -> pd.DataFrame: ...


@overload
def run_experiment(
    exp: str | os.PathLike,
    progress: bool | None = None,
    backend: str = "local",
    scheduler: Any = None,
    threads: int | None = None,
) -> Results | pd.DataFrame: ...


def run_experiment(
    exp: Experiment | TableExperiment | str | os.PathLike,
    progress: bool | None = None,
    backend: str = "local",
    scheduler: Any = None,
    threads: int | None = None,
) -> Results | pd.DataFrame:
    """Run every cell of an experiment (resumable), then save the results and a report.

    Parameters
    ----------
    exp : Experiment, TableExperiment or path
        A loaded experiment or the path of its TOML file.
    progress, backend, scheduler, threads
        As in :func:`simlib.run`; a Dask cluster is shared by all cells. An exact table
        is computed in this process: these are checked, then have nothing to do.

    Returns
    -------
    Results or pandas.DataFrame
        All cells stacked, with columns ``preset``, ``bot`` and one per grid key; for a
        ``table = NAME`` experiment the table (see :func:`run_table_experiment`).

    """
    from simlib.overview import Overview, run_overview
    from simlib.report import html

    if not isinstance(exp, (Experiment, TableExperiment, Overview)):
        exp = load_experiment(exp)
    if isinstance(exp, Overview):
        return run_overview(exp, progress, backend, scheduler, threads)
    if isinstance(exp, TableExperiment):
        check_run_options(backend, scheduler, None, progress, threads)
        return run_table_experiment(exp)
    check_run_options(backend, scheduler, exp.chunk_size, progress, threads)
    _check_out_folder(exp)
    cell_dirs = [exp.out / "cells" / cell.name for cell in exp.cells]
    for cell, folder in zip(exp.cells, cell_dirs, strict=True):
        check_out(folder, cell.plan)
    if exp.ladder is not None:
        from simlib.core.ladder import check_ladder_out

        check_ladder_out(exp.ladder, exp.out / LADDER_DIR)

    exp.out.mkdir(parents=True, exist_ok=True)
    layout = {
        "group_by": exp.group_by(),
        "sweep_params": exp.sweep_params(),
        "effects": exp.effect_factors(),
    }
    record = {
        "simlib_experiment": 1,
        "experiment": exp.definition(),
        "source": str(exp.path) if exp.path else None,
        "command": exp.command(),
        "cells": [c.name for c in exp.cells],
        "report": layout,
        "complete": False,
    }
    from simlib import __version__

    record["simlib_version"] = __version__
    if exp.ladder is not None:
        record["ladder"] = {**exp.ladder.identity(), "games": exp.ladder.games}
    atomic_write_json(exp.out / EXPERIMENT_FILE, record)

    run_kwargs = {"backend": backend, "scheduler": scheduler, "threads": threads}
    with shared_cluster(run_kwargs) as shared:  # one cluster for every cell and the ladder
        parts = []
        for i, (cell, folder) in enumerate(zip(exp.cells, cell_dirs, strict=True)):
            desc = f"[{i + 1}/{len(exp.cells)}] {cell.name}"
            parts.append(
                execute_plan(
                    cell.plan,
                    precision=exp.precision,
                    chunk_size=exp.chunk_size,
                    out=folder,
                    progress=progress,
                    desc=desc,
                    **shared,
                )
            )
        lad = _run_ladder(exp, progress, shared["backend"], shared["scheduler"],
                          shared["threads"])

    res = Results.concat(parts, include=list(exp.grid))
    res.meta.update(
        {
            "title": exp.title,
            "command": exp.command(),
            "presets": exp.presets,
            "bots": exp.bots,
            "grid": jsonable(exp.grid),
            "bot_params": jsonable(exp.bot_params),
            "games_per_cell": exp.games,
            "report": layout,
        }
    )
    res.save(exp.out, overwrite=True)  # the experiment's own folder: its last results
    game = get_game(exp.game)
    report_meta = {
        "game": exp.game,
        "presets": exp.presets,
        "bots": exp.bots,
        "grid": jsonable(exp.grid),
        "settings": jsonable(exp.settings),
        "bot_params": jsonable(exp.bot_params),
        "seed": exp.seed,
        "games per cell": exp.games
        if exp.precision is None
        else f"to ±{100 * exp.precision:g} points (anytime 95% interval), at most {exp.games:,}",
        "engine version": game.engine_version,
        "simlib version": __version__,
        "command": exp.command(),
    }
    html.build_report(
        res.df,
        exp.out / "report.html",
        title=exp.title,
        meta=report_meta,
        group_by=exp.group_by(),
        sweep_params=exp.sweep_params(),
        effect_factors=exp.effect_factors(),
        spec=game.report_spec(game.context(exp.cells[0].plan.compile_values())),
        anytime_prior=res.anytime_prior(exp.group_by()),
        ladder=lad,
    )
    record["complete"] = True
    atomic_write_json(exp.out / EXPERIMENT_FILE, record)
    return res


def _run_ladder(exp: Experiment, progress, backend, scheduler, threads):
    """Play the experiment's ladder in ``out/ladder`` (resumable); ``None`` without one."""
    if exp.ladder is None:
        return None
    from simlib.core.ladder import run_ladder

    return run_ladder(
        exp.ladder,
        out=exp.out / LADDER_DIR,
        progress=progress,
        backend=backend,
        scheduler=scheduler,
        threads=threads,
        chunk_size=exp.chunk_size,
    )


# --- exact tables ---------------------------------------------------------------------------
def _check_table_out(exp: TableExperiment) -> None:
    """Refuse an ``out`` that is a file, a foreign folder or another experiment's folder."""
    stored = _stored_experiment(exp.out)
    if stored is None:
        return
    old = stored["experiment"]
    if old.get("kind") != "table":
        raise SimlibInputError(
            f"out folder '{exp.out}' holds a playthrough experiment; set 'out' to another "
            "folder"
        )
    same_identity(exp.out, old, exp.definition(), TABLE_IDENTITY_KEYS, "table",
                  "set 'out' to another folder or delete that one", "in this file")


def _table_meta(definition: dict[str, Any], command: str, version: str) -> dict[str, Any]:
    return {
        "game": definition.get("game"),
        "table": definition.get("table"),
        "options": definition.get("options"),
        "simlib version": version,
        "command": command,
    }


def run_table_experiment(exp: TableExperiment | str | os.PathLike) -> pd.DataFrame:
    """Compute an exact table and write it with its definition and an HTML page.

    Parameters
    ----------
    exp : TableExperiment or path
        A loaded ``table = NAME`` experiment or the path of its TOML file.

    Returns
    -------
    pandas.DataFrame
        The table as written to ``table.parquet`` (a meaningful index moved into
        columns, column names as strings: :func:`simlib.report.tables.flat_table`).

    Raises
    ------
    SimlibInputError
        A file that is not a table experiment, bad options, or an ``out`` folder holding
        something else; nothing is written then.

    """
    from simlib import __version__
    from simlib.report import html, tables

    if not isinstance(exp, TableExperiment):
        loaded = load_experiment(exp)
        if not isinstance(loaded, TableExperiment):
            raise SimlibInputError(
                f"{exp}: not an exact-table experiment (it has no 'table' key); "
                "run it with run_experiment"
            )
        exp = loaded
    _check_table_out(exp)
    flat = tables.flat_table(exp.spec.compute(exp.options))

    exp.out.mkdir(parents=True, exist_ok=True)
    definition = exp.definition()
    record = {
        "simlib_experiment": 1,
        "kind": "table",
        "experiment": definition,
        "source": str(exp.path) if exp.path else None,
        "command": exp.command(),
        "rows": len(flat),
        "columns": list(flat.columns),
        "simlib_version": __version__,
        "complete": False,
    }
    atomic_write_json(exp.out / EXPERIMENT_FILE, record)
    atomic_write_parquet(flat, exp.out / TABLE_PARQUET)
    atomic_write_bytes(exp.out / TABLE_CSV, flat.to_csv(index=False).encode("utf-8"))
    html.build_table_report(
        flat,
        exp.out / REPORT_FILE,
        title=exp.title,
        description=exp.description,
        meta=_table_meta(definition, exp.command(), __version__),
        files=f"{TABLE_CSV} and {TABLE_PARQUET}",
    )
    record["complete"] = True
    atomic_write_json(exp.out / EXPERIMENT_FILE, record)
    return flat


def table_report(folder: str | os.PathLike, path: str | os.PathLike | None = None,
                 title: str | None = None) -> Path:
    """Rebuild the HTML page of a finished table experiment folder from its files.

    Returns the page written (default ``folder/report.html``). Raises ``SimlibInputError``
    when ``folder`` is not a finished table experiment.
    """
    from simlib.report import html

    folder = Path(folder)
    record = read_json(folder / EXPERIMENT_FILE, "experiment file")
    definition = record.get("experiment")
    if not isinstance(definition, dict) or definition.get("kind") != "table":
        raise SimlibInputError(f"'{folder}' is not an exact-table experiment folder")
    if not record.get("complete") or not (folder / TABLE_PARQUET).is_file():
        raise SimlibInputError(
            f"table experiment folder '{folder}' is unfinished; run the experiment again"
        )
    df = pd.read_parquet(folder / TABLE_PARQUET)
    target = Path(path) if path is not None else folder / REPORT_FILE
    return html.build_table_report(
        df,
        target,
        title=title or str(definition.get("title") or definition.get("table")),
        description=str(definition.get("description") or ""),
        meta=_table_meta(
            definition, str(record.get("command")), str(record.get("simlib_version"))
        ),
        files=f"{TABLE_CSV} and {TABLE_PARQUET}",
    )
