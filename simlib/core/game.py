"""The interface every game offers the runner, the command line and the reports.

Nothing here knows any game's rules: a game module subclasses :class:`Game`, describes its
settings, presets and bots, and supplies three steps (every other hook has a default):

- :meth:`Game.compile`: resolved settings -> the tuple of numpy arrays its kernels read;
- :meth:`Game.batch_kernel`: which block kernel plays a bot, with its leading arguments
  (:class:`BatchKernel`); the shared :meth:`Game.play_batch` allocates the records and
  deals the blocks to threads;
- :attr:`Game.record_dt`: the record of one game, which the shared
  :meth:`Game.records_to_frame` turns into rows (a game names the categories of its coded
  fields and how its array fields spread into columns, :meth:`Game.frame_field`).

What a run's frame and report need beyond the records comes in a :class:`RunContext`
(the run's resolved settings), never from process-wide state; what a report shows beyond
the standard tables is a :class:`ReportSpec` (:meth:`Game.report_spec`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

import numpy as np
import pandas as pd

from simlib.core.blocks import play_blocks
from simlib.errors import SimlibInputError

__all__ = [
    "BatchKernel",
    "Bot",
    "Game",
    "ReportSpec",
    "RunContext",
    "Setting",
    "TableOption",
    "TableSpec",
]


@dataclass(frozen=True)
class Setting:
    """One setting a designer may change.

    ``kind`` is ``int``, ``float``, ``bool`` or ``str``. Numbers are bounded by ``lo`` and
    ``hi`` (inclusive, ``None`` for open); strings by ``choices``. ``default`` may be
    ``None`` when the value is derived from others (e.g. a deck size read from a table).
    ``reading`` names the checklist id (``"TB-214"``) of an open rule this setting settles:
    its default is the rulebook's most literal reading and ``help`` names the alternative.
    ``file`` marks a data-file setting: its value is ``"default"`` (the game's embedded
    tables) or the path of a file. A run records the file's content hash (resuming with an
    edited file is refused) and Dask workers receive the file's content, never a path to
    reopen.
    """

    name: str
    kind: type
    default: Any
    help: str
    lo: float | None = None
    hi: float | None = None
    choices: tuple[str, ...] | None = None
    reading: str = ""
    file: bool = False

    #: What messages call this value ("setting 'p': ...").
    what: ClassVar[str] = "setting"

    def allowed(self) -> str:
        """Describe the allowed values in words, for messages and ``simlib games``."""
        if self.kind is bool:
            return "true or false"
        if self.choices is not None:
            return "one of " + ", ".join(self.choices)
        if self.kind is str:
            return "text"
        kind = "an integer" if self.kind is int else "a number"
        if self.lo is not None and self.hi is not None:
            return f"{kind} from {_fmt(self.lo)} to {_fmt(self.hi)}"
        if self.lo is not None:
            return f"{kind} >= {_fmt(self.lo)}"
        if self.hi is not None:
            return f"{kind} <= {_fmt(self.hi)}"
        return kind

    def coerce(self, value: Any) -> Any:
        """Return ``value`` converted to this setting's kind, or raise ``SimlibInputError``.

        Strings (from the command line or TOML) are parsed; out-of-range values refused.
        """
        bad = SimlibInputError(
            f"{self.what} '{self.name}': {value!r} is not allowed; expected {self.allowed()}"
        )
        if value is None:
            if self.default is None:
                return None
            raise bad
        if self.kind is bool:
            if isinstance(value, (bool, np.bool_)):
                return bool(value)
            if isinstance(value, str) and value.lower() in ("true", "yes", "1", "on"):
                return True
            if isinstance(value, str) and value.lower() in ("false", "no", "0", "off"):
                return False
            if isinstance(value, (int, np.integer)) and value in (0, 1):
                return bool(value)
            raise bad
        if self.kind is str:
            if not isinstance(value, str) or (self.choices and value not in self.choices):
                raise bad
            return value
        if isinstance(value, (bool, np.bool_)):
            raise bad
        num: int | float
        try:
            if self.kind is int:
                if isinstance(value, str):
                    num = int(value.strip())
                elif isinstance(value, (float, np.floating)):
                    if not float(value).is_integer():
                        raise bad
                    num = int(value)
                else:
                    num = int(value)
            else:
                num = float(value)
                if not math.isfinite(num):
                    raise bad
        except (TypeError, ValueError):
            raise bad from None
        if (self.lo is not None and num < self.lo) or (self.hi is not None and num > self.hi):
            raise bad
        return num


def _fmt(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


@dataclass(frozen=True)
class Bot:
    """A scripted policy: an integer id for the kernel and named float parameters."""

    name: str
    id: int
    help: str
    params: dict[str, float] = field(default_factory=dict)
    param_help: dict[str, str] = field(default_factory=dict)
    param_bounds: dict[str, tuple[float, float]] = field(default_factory=dict)

    def resolve_params(self, overrides: dict[str, Any] | None) -> dict[str, float]:
        """Return the full parameter dict (defaults updated by ``overrides``), validated."""
        out = dict(self.params)
        for key, value in (overrides or {}).items():
            if key not in self.params:
                allowed = ", ".join(self.params) or "none"
                raise SimlibInputError(
                    f"bot parameter '{key}' is not a parameter of bot '{self.name}'; "
                    f"allowed: {allowed}"
                )
            lo, hi = self.param_bounds.get(key, (-math.inf, math.inf))
            try:
                # a boolean is not a number here (true would silently become 1.0)
                num = math.nan if isinstance(value, (bool, np.bool_)) else float(value)
            except (TypeError, ValueError, OverflowError):
                num = math.nan
            if not math.isfinite(num) or not lo <= num <= hi:
                raise SimlibInputError(
                    f"bot parameter '{key}': {value!r} is not allowed; "
                    f"expected a number from {_fmt(lo)} to {_fmt(hi)}"
                )
            out[key] = num
        return out


@dataclass(frozen=True)
class TableOption(Setting):
    """One keyword argument of an exact table, checked like a :class:`Setting`.

    With ``many=True`` the value is a non-empty list of distinct items, each checked
    against ``kind``, ``lo``, ``hi`` and ``choices``; ``default`` is then ``None`` or a
    tuple. ``default=None`` means "leave it to the table" (e.g. every weapon in the data).
    """

    many: bool = False

    what: ClassVar[str] = "option"

    def allowed(self) -> str:
        """Describe the allowed values in words, for messages and ``simlib games``."""
        if not self.many:
            return super().allowed()
        item = replace(self, many=False).allowed()
        if self.kind is str and self.choices is None:
            return "a non-empty list of names"
        return f"a non-empty list, each {item}"

    def coerce(self, value: Any) -> Any:
        """Return ``value`` converted (a list when ``many``), or raise ``SimlibInputError``."""
        if not self.many:
            return super().coerce(value)
        if value is None and self.default is None:
            return None
        if not isinstance(value, (list, tuple)) or not value:
            raise SimlibInputError(
                f"option '{self.name}': {value!r} is not allowed; expected {self.allowed()}"
            )
        item = replace(self, many=False, default=0)  # a default that lets no None through
        out = []
        for v in value:
            try:
                out.append(item.coerce(v))
            except SimlibInputError:
                raise SimlibInputError(
                    f"option '{self.name}': item {v!r} is not allowed; expected "
                    f"{self.allowed()}"
                ) from None
        dup = [v for v in out if out.count(v) > 1]
        if dup:
            raise SimlibInputError(f"option '{self.name}': {dup[0]!r} is listed twice")
        return out


@dataclass(frozen=True)
class TableSpec:
    """An exact table a game computes without playthroughs (``table = NAME`` experiments).

    Attributes
    ----------
    build : callable
        ``build(**values) -> pandas.DataFrame``, called with every option by name.
    description : str
        One line saying what a row is and what the columns hold.
    options : tuple of TableOption
        The keyword arguments ``build`` accepts, with their types, ranges and defaults.
    check : callable, optional
        ``check(values)`` checks options against each other or against data (e.g. ids in
        a data file) and raises ``SimlibInputError`` naming the option; it runs before
        anything is computed or written.

    """

    build: Callable[..., pd.DataFrame]
    description: str
    options: tuple[TableOption, ...] = ()
    check: Callable[[dict[str, Any]], None] | None = None

    def option(self, name: str) -> TableOption:
        """Return the option called ``name`` or raise a clear error."""
        for o in self.options:
            if o.name == name:
                return o
        allowed = ", ".join(o.name for o in self.options) or "none"
        raise SimlibInputError(
            f"option '{name}' is not an option of this table; allowed: {allowed}"
        )

    def resolve(self, overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Return every option's value: the defaults updated by ``overrides``, validated.

        Each value is checked on its own (:meth:`TableOption.coerce`), then all together
        (``check``). Raises ``SimlibInputError`` naming the option on bad input.
        """
        values = {
            o.name: (list(o.default) if o.many and o.default is not None else o.default)
            for o in self.options
        }
        for key, value in (overrides or {}).items():
            values[key] = self.option(key).coerce(value)
        if self.check is not None:
            self.check(values)
        return values

    def compute(self, values: Mapping[str, Any]) -> pd.DataFrame:
        """Build the table from resolved ``values`` (see :meth:`resolve`)."""
        df = self.build(**values)
        if not isinstance(df, pd.DataFrame):
            raise TypeError(f"table build function returned {type(df).__name__}, not a DataFrame")
        return df


@dataclass(frozen=True)
class RunContext:
    """What a game's frame and report hooks may know of the run beyond its records.

    Attributes
    ----------
    values : mapping
        The run's resolved settings (:meth:`Game.resolve`). A data-file setting
        (``Setting.file``) holds ``"default"`` or a path whose content is the run's (the
        runner's content-addressed copy, so the names read from it are the ones played).
        Empty when unknown (a report of rows alone): hooks then read the defaults.

    """

    values: Mapping[str, Any] = field(default_factory=dict)

    def get(self, name: str, default: Any = None) -> Any:
        """The run's value of setting ``name``, or ``default`` when the run did not say."""
        return self.values.get(name, default)


@dataclass(frozen=True)
class BatchKernel:
    """How a game plays a block of games with one bot (see :meth:`Game.batch_kernel`).

    ``kernel(*args, seed, first_index, records)`` plays the games ``first_index ..
    first_index + len(records) - 1`` of run ``seed`` (``uint64``) into ``records`` (a
    slice of the batch's record array); it must be ``nogil`` for threads to help. ``block``
    is the number of games a thread takes at a time.
    """

    kernel: Callable[..., object]
    args: tuple
    block: int


@dataclass(frozen=True)
class ReportSpec:
    """What a game's report shows beyond the standard tables (:meth:`Game.report_spec`).

    Attributes
    ----------
    outcomes : tuple of str
        The outcome categories in display order.
    leave_columns : tuple of str
        Per unit, the round it left play (the "still in play by round" chart).
    remaining_label : str
        What that chart counts ("cavers still in the cave").
    measure_columns : tuple of str
        Columns of the means table.
    time_column : str
        The column of the "When games end" section.
    causes : tuple
        ``(label, total column or None, part columns)`` triples of "What causes it".
    matchup : tuple of str or None
        A two-seat game: seat 0's and seat 1's entity columns and the winner column.
    first_column : str or None
        A two-seat game: the column of the seat that went first.
    card_masks : tuple of tuple of str
        A two-seat game: per seat, the bitmask columns of the items it used.
    card_labels : tuple of str
        Item names by bit position of ``card_masks``.
    readings : tuple of dict
        The open readings the run used (:meth:`Game.readings_used`).

    """

    outcomes: tuple[str, ...] = ()
    leave_columns: tuple[str, ...] = ()
    remaining_label: str = "units still in play"
    measure_columns: tuple[str, ...] = ()
    time_column: str = "rounds"
    causes: tuple[tuple[str, str | None, tuple[str, ...]], ...] = ()
    matchup: tuple[str, str, str] | None = None
    first_column: str | None = None
    card_masks: tuple[tuple[str, ...], ...] = ()
    card_labels: tuple[str, ...] = ()
    readings: tuple[dict[str, Any], ...] = ()


class Game:
    """Base class of a game spec. Subclasses fill the class attributes and methods.

    Attributes
    ----------
    name : str
        Registry name (``"subterra"``).
    title : str
        Human title.
    engine_version : str
        Bumped whenever a rule or bot change alters outcomes; stored with every run so a
        resumed run never mixes chunks from two engines.
    settings : tuple of Setting
        Every setting a designer may change, with ranges.
    presets : dict
        Preset name -> dict of setting overrides applied over the defaults.
    default_preset : str
    bots : tuple of Bot
    default_bot : str
    outcomes : tuple of str
        The categories of the ``outcome`` column, in display order.
    record_dt : numpy.dtype
        The record of one game (``align=True``): ``game_index``, ``win``, ``outcome``
        (a code into ``outcomes``), ``rounds``, then the game's measures.

    The report hooks (:class:`ReportSpec` has their meaning): ``leave_columns``,
    ``remaining_label``, ``measure_columns``, ``time_column``, ``causes``,
    ``matchup_columns``, ``first_column``, ``card_mask_columns`` and :meth:`item_labels`.

    """

    name: str = ""
    title: str = ""
    engine_version: str = "0"
    settings: tuple[Setting, ...] = ()
    presets: dict[str, dict[str, Any]] = {}
    default_preset: str = ""
    bots: tuple[Bot, ...] = ()
    default_bot: str = ""
    outcomes: tuple[str, ...] = ()
    record_dt: np.dtype = np.dtype([])
    #: About how long a first run compiles the game's kernels (seconds on one core; the
    #: benchmarks measure it), said in the "compiling" line; None: not stated.
    compile_seconds: int | None = None

    # --- what the report shows beyond the standard tables (ReportSpec) ---------------
    leave_columns: tuple[str, ...] = ()
    remaining_label: str = "units still in play"
    measure_columns: tuple[str, ...] = ()
    time_column: str = "rounds"
    causes: tuple[tuple[str, str | None, tuple[str, ...]], ...] = ()
    matchup_columns: tuple[str, str, str] | None = None
    first_column: str | None = None
    card_mask_columns: tuple[tuple[str, ...], ...] = ()

    # --- lookup helpers -------------------------------------------------------------
    def setting(self, name: str) -> Setting:
        """Return the :class:`Setting` called ``name`` or raise a clear error."""
        for s in self.settings:
            if s.name == name:
                return s
        allowed = ", ".join(s.name for s in self.settings)
        raise SimlibInputError(
            f"setting '{name}' is not a setting of {self.name}; allowed: {allowed}"
        )

    def bot(self, name: str | None) -> Bot:
        """Return the :class:`Bot` called ``name`` (default bot for ``None``)."""
        name = self.default_bot if name is None else name
        for b in self.bots:
            if b.name == name:
                return b
        allowed = ", ".join(b.name for b in self.bots)
        raise SimlibInputError(f"bot '{name}' is not a bot of {self.name}; allowed: {allowed}")

    def resolve(self, preset: str | None, overrides: dict[str, Any] | None) -> dict[str, Any]:
        """Return every setting's value: defaults, then the preset, then ``overrides``.

        Values are validated one by one (``Setting.coerce``) and then together
        (:meth:`validate`). Raises ``SimlibInputError`` naming the key on bad input.
        """
        preset = self.default_preset if preset is None else preset
        if not isinstance(preset, str) or preset not in self.presets:
            allowed = ", ".join(self.presets)
            raise SimlibInputError(
                f"preset '{preset}' is not a preset of {self.name}; allowed: {allowed}"
            )
        values = {s.name: s.default for s in self.settings}
        values.update(self.presets[preset])
        for key, value in (overrides or {}).items():
            values[key] = self.setting(key).coerce(value)
        values = {k: self.setting(k).coerce(v) for k, v in values.items()}
        self.validate(values)
        return values

    def readings(self) -> tuple[Setting, ...]:
        """The settings that settle an open rule (``Setting.reading``), in declared order."""
        return tuple(s for s in self.settings if s.reading)

    def ladder_settings(self) -> dict[str, Any]:
        """Setting overrides every rung of a skill ladder plays under (default: none).

        A game whose bots are chosen per seat by settings (a two-player game) names here
        the opponent the ladder's bots play against, so every rung faces the same one.
        """
        return {}

    def table(self, name: str) -> TableSpec:
        """Return the exact table called ``name`` (see :meth:`tables`) or raise a clear error."""
        tables = self.tables()
        if name in tables:
            return tables[name]
        if not tables:
            raise SimlibInputError(f"table '{name}': {self.name} offers no exact tables")
        raise SimlibInputError(
            f"table '{name}' is not a table of {self.name}; allowed: {', '.join(tables)}"
        )

    # --- to be provided by each game ----------------------------------------------
    def tables(self) -> dict[str, TableSpec]:
        """Exact tables this game computes without playthroughs: name -> :class:`TableSpec`.

        An experiment file with ``table = NAME`` computes one (``simlib.experiment``).
        The default is none.
        """
        return {}

    def validate(self, values: dict[str, Any]) -> None:
        """Check settings against each other; raise ``SimlibInputError`` if inconsistent."""

    def derived(self, values: dict[str, Any]) -> dict[str, Any]:
        """The values a run uses for settings left ``None`` to be derived from others.

        ``values`` are resolved settings. A setting whose default is ``None`` because the
        game reads it from a table (Sub Terra's ``hazard_cards``) is named here with the
        value it takes, so the run's record and report show what was played. Default: none.
        """
        return {}

    def compile(self, values: dict[str, Any]) -> tuple:
        """Turn resolved settings into the tuple of numpy arrays the kernel reads."""
        raise NotImplementedError

    def batch_kernel(
        self, compiled: tuple, bot_id: int, bot_params: np.ndarray
    ) -> BatchKernel:
        """The block kernel that plays bot ``bot_id`` on ``compiled`` settings.

        ``bot_params`` is the bot's parameter vector (float64). Returns the kernel with its
        leading arguments (:class:`BatchKernel`). Raise ``SimlibInputError`` for a
        parameter value the kernel cannot take.
        """
        raise NotImplementedError

    def play_batch(
        self, compiled: tuple, bot_id: int, bot_params: np.ndarray, seed: int, start: int,
        count: int, threads: int = 1,
    ) -> np.ndarray:
        """Play games ``start .. start+count-1``; return their records (``record_dt``).

        The games are dealt to ``threads`` threads a block at a time
        (:func:`simlib.core.blocks.play_blocks`); the records do not depend on it.
        """
        out = np.zeros(int(count), dtype=self.record_dt)
        bp = np.ascontiguousarray(bot_params, dtype=np.float64)
        batch = self.batch_kernel(compiled, int(bot_id), bp)
        return play_blocks(batch.kernel, batch.args, seed, start, out, batch.block, threads)

    def context(self, values: Mapping[str, Any] | None = None) -> RunContext:
        """The :class:`RunContext` of a run with resolved settings ``values`` (or unknown)."""
        return RunContext(dict(values) if values else {})

    def frame_field(
        self, name: str, values: np.ndarray, ctx: RunContext
    ) -> Mapping[str, Any] | None:
        """The frame columns of record field ``name`` when the default does not fit.

        Return ``{column: values}`` (e.g. a category from codes, a per-seat array spread
        into columns), or ``None`` for the default: ``outcome`` as a category of
        :attr:`outcomes`, a field of shape ``(n, k)`` as columns ``name_0 .. name_{k-1}``,
        any other field as it is.
        """
        return None

    def finish_frame(self, cols: dict[str, Any], records: np.ndarray, ctx: RunContext) -> None:
        """Add columns computed from several fields to ``cols`` (in place). Default: none."""

    def records_to_frame(self, records: np.ndarray, ctx: RunContext | None = None) -> pd.DataFrame:
        """Turn records into a DataFrame: ``game_index, win, outcome, rounds`` then measures.

        Each field becomes columns by :meth:`frame_field` (or the default it describes),
        then :meth:`finish_frame` adds the columns computed from several fields. ``ctx``
        is the run's context (:meth:`context`; default: the default settings).
        """
        ctx = self.context() if ctx is None else ctx
        cols: dict[str, Any] = {}
        for name in records.dtype.names or ():
            v = records[name]
            own = self.frame_field(name, v, ctx)
            if own is not None:
                cols.update(own)
            elif name == "outcome":
                cols[name] = pd.Categorical.from_codes(v.astype(np.int64),
                                                       categories=list(self.outcomes))
            elif v.ndim == 2:
                for i in range(v.shape[1]):
                    cols[f"{name}_{i}"] = v[:, i]
            else:
                cols[name] = v
        self.finish_frame(cols, records, ctx)
        return pd.DataFrame(cols)

    # --- the report -----------------------------------------------------------------
    def item_labels(self, ctx: RunContext) -> tuple[str, ...]:
        """Item names by bit position of ``card_mask_columns`` (e.g. card names). Default: none."""
        return ()

    def readings_used(self, ctx: RunContext) -> tuple[dict[str, Any], ...]:
        """The open readings (:meth:`readings`) a run used: ``name, rule, value, help``.

        ``value`` is the run's value when ``ctx`` holds it, else the setting's default (the
        rulebook's most literal reading).
        """
        return tuple(
            {"name": s.name, "rule": s.reading, "value": ctx.get(s.name, s.default),
             "help": s.help}
            for s in self.readings()
        )

    def report_spec(self, ctx: RunContext | None = None) -> ReportSpec:
        """What this game's report shows beyond the standard tables, for the run ``ctx``."""
        ctx = self.context() if ctx is None else ctx
        masks = tuple(tuple(seat) for seat in self.card_mask_columns)
        return ReportSpec(
            outcomes=tuple(self.outcomes),
            leave_columns=tuple(self.leave_columns),
            remaining_label=self.remaining_label,
            measure_columns=tuple(self.measure_columns),
            time_column=self.time_column,
            causes=tuple(self.causes),
            matchup=tuple(self.matchup_columns) if self.matchup_columns else None,  # type: ignore[arg-type]
            first_column=self.first_column,
            card_masks=masks,
            card_labels=tuple(self.item_labels(ctx)) if masks else (),
            readings=self.readings_used(ctx),
        )

    def describe(self) -> dict[str, Any]:
        """Everything ``simlib games`` prints about this game, as plain data."""
        return {
            "name": self.name,
            "title": self.title,
            "presets": list(self.presets),
            "default_preset": self.default_preset,
            "settings": [
                {"name": s.name, "default": s.default, "allowed": s.allowed(), "help": s.help}
                for s in self.settings
            ],
            "bots": [
                {"name": b.name, "help": b.help, "params": dict(b.params)} for b in self.bots
            ],
            "readings": [
                {"name": s.name, "rule": s.reading, "default": s.default, "help": s.help}
                for s in self.readings()
            ],
            "default_bot": self.default_bot,
            "outcomes": list(self.outcomes),
            "tables": [
                {
                    "name": name,
                    "description": spec.description,
                    "options": [
                        {
                            "name": o.name,
                            "default": (
                                list(o.default) if isinstance(o.default, tuple) else o.default
                            ),
                            "allowed": o.allowed(),
                            "help": o.help,
                        }
                        for o in spec.options
                    ],
                }
                for name, spec in self.tables().items()
            ],
        }
