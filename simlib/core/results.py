"""Results: the per-playthrough DataFrame of a run plus the metadata that reproduces it.

Folders on disk
---------------
A **run folder** (``simlib.run(..., out=DIR)``)::

    DIR/run.json                                      configuration, games requested, complete
    DIR/chunks/games-000000000000-000000200000.parquet  rows for game indices [start, stop)
    DIR/chunks/...                                    one file per finished chunk

A **saved results folder** (:meth:`Results.save`)::

    DIR/results.parquet                               the DataFrame
    DIR/results.json                                  the metadata

A **sweep folder** (``simlib.sweep(..., out=DIR)``) holds ``DIR/sweep.json`` (the swept
parameter and the value folders) and one run folder ``DIR/<param>=<value>/`` per value.

An **experiment folder** (:func:`simlib.run_experiment`) is a saved results folder plus
``experiment.json`` (the definition), ``report.html`` and ``cells/<cell>/`` run folders.

:meth:`Results.load` reads all three, including a run that was interrupted (the rows
present, ``meta["complete"] = False``).
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypedDict

import numpy as np
import pandas as pd

from simlib.errors import SimlibInputError

__all__ = ["Results"]

RUN_FILE = "run.json"
CHUNK_DIR = "chunks"
RESULTS_FILE = "results.parquet"
RESULTS_META = "results.json"
EXPERIMENT_FILE = "experiment.json"
SWEEP_FILE = "sweep.json"
RUN_FORMAT = 1
CHUNK_RE = re.compile(r"^games-(\d{12})-(\d{12})\.parquet$")

# Keys of a single run's configuration, in the order messages name them.
CONFIG_KEYS = ("game", "engine_version", "preset", "settings", "bot", "bot_params", "seed")


# --- small file helpers (shared with the runner and experiments) ----------------------
def simlib_version() -> str:
    """Return simlib's version string."""
    from simlib import __version__

    return __version__


def jsonable(obj: Any) -> Any:
    """Return ``obj`` with numpy scalars, tuples and paths turned into plain JSON types."""
    if isinstance(obj, dict):
        return {str(k): jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [jsonable(v) for v in obj]
    if isinstance(obj, (np.bool_, bool)):
        return bool(obj)
    if isinstance(obj, np.integer):
        return int(obj)
    if isinstance(obj, np.floating):
        return float(obj)
    if isinstance(obj, Path):
        return str(obj)
    return obj


def value_text(value: Any) -> str:
    """A setting's value as a designer types it: text as it is, else JSON (``true``, ``4``)."""
    if isinstance(value, str):
        return value
    return json.dumps(jsonable(value))


def value_label(value: Any) -> str:
    """A value as a folder name's part: :func:`value_text` with other characters as ``_``."""
    text = value_text(value)
    return "".join(c if c.isalnum() or c in "._-+" else "_" for c in text)


def _tmp_name(path: Path) -> Path:
    return path.with_name(f".{path.name}.tmp-{os.getpid()}")


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically: a temp file in the same folder, then rename."""
    path = Path(path)
    tmp = _tmp_name(path)
    try:
        with open(tmp, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except OSError as err:  # named on the file asked for, not the temporary one
        tmp.unlink(missing_ok=True)
        raise OSError(err.errno, err.strerror, str(path)) from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def atomic_write_json(path: Path, obj: Any) -> None:
    """Write ``obj`` as indented JSON to ``path`` atomically."""
    text = json.dumps(jsonable(obj), indent=2, allow_nan=False) + "\n"
    atomic_write_bytes(path, text.encode("utf-8"))


def atomic_write_parquet(df: pd.DataFrame, path: Path) -> None:
    """Write ``df`` (without its index) to ``path`` atomically."""
    path = Path(path)
    tmp = _tmp_name(path)
    try:
        with open(tmp, "wb") as fh:
            df.to_parquet(fh, index=False)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except OSError as err:  # named on the file asked for, not the temporary one
        tmp.unlink(missing_ok=True)
        raise OSError(err.errno, err.strerror, str(path)) from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def read_json(path: Path, what: str) -> dict:
    """Read a JSON object written by simlib, or raise a one-line ``SimlibInputError``."""
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise SimlibInputError(
            f"'{path}' is unreadable ({err}); it is not a {what} written by simlib"
        ) from None
    if not isinstance(data, dict):
        raise SimlibInputError(f"'{path}' is not a {what} written by simlib")
    return data


def chunk_name(start: int, stop: int) -> str:
    """File name of the chunk holding game indices ``[start, stop)``."""
    return f"games-{start:012d}-{stop:012d}.parquet"


def list_chunks(folder: Path) -> list[tuple[int, int, Path]]:
    """Return ``(start, stop, path)`` of every finished chunk in a run folder, sorted."""
    chunk_dir = Path(folder) / CHUNK_DIR
    if not chunk_dir.is_dir():
        return []
    found = []
    for entry in os.scandir(chunk_dir):
        m = CHUNK_RE.match(entry.name)
        if m:
            start, stop = int(m.group(1)), int(m.group(2))
            if stop > start:
                found.append((start, stop, Path(entry.path)))
    return sorted(found)


def present_ranges(chunks: Iterable[tuple[int, int, Any]], games: int) -> list[tuple[int, int]]:
    """Merge chunk ranges into sorted disjoint ranges, clipped to ``[0, games)``."""
    merged: list[list[int]] = []
    for start, stop, _ in sorted(chunks, key=lambda c: (c[0], c[1])):
        start, stop = max(0, start), min(games, stop)
        if stop <= start:
            continue
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], stop)
        else:
            merged.append([start, stop])
    return [(a, b) for a, b in merged]


def missing_ranges(present: Sequence[tuple[int, int]], games: int) -> list[tuple[int, int]]:
    """Return the ranges of ``[0, games)`` not covered by the sorted disjoint ``present``."""
    out = []
    pos = 0
    for start, stop in present:
        if start > pos:
            out.append((pos, start))
        pos = max(pos, stop)
    if pos < games:
        out.append((pos, games))
    return out


def normalize_frame(df: pd.DataFrame, outcomes: Sequence[str] | None) -> pd.DataFrame:
    """Give categorical columns canonical dtypes; ``outcome`` gets exactly ``outcomes``.

    Frames built in different chunks, read back from parquet or produced by another
    process then compare equal and concatenate without falling back to ``object``.
    """
    changes = {}
    for col in df.columns:
        dtype = df[col].dtype
        if col == "outcome" and outcomes:
            want = pd.CategoricalDtype(list(outcomes), ordered=False)
        elif isinstance(dtype, pd.CategoricalDtype):
            want = pd.CategoricalDtype(list(dtype.categories), ordered=dtype.ordered)
        else:
            continue
        same = (
            isinstance(dtype, pd.CategoricalDtype)
            and dtype == want
            and list(dtype.categories) == list(want.categories)
            and dtype.categories.dtype == want.categories.dtype
        )
        if not same:
            changes[col] = df[col].astype(want)
    return df.assign(**changes) if changes else df


def concat_frames(frames: Sequence[pd.DataFrame], outcomes: Sequence[str] | None) -> pd.DataFrame:
    """Concatenate frames keeping categorical columns categorical (categories unioned)."""
    frames = [f for f in frames if f is not None]
    if not frames:
        return pd.DataFrame()
    cat_cols = []
    for f in frames:
        for col in f.columns:
            if isinstance(f[col].dtype, pd.CategoricalDtype) and col not in cat_cols:
                cat_cols.append(col)
    for col in cat_cols:
        if col == "outcome" and outcomes:
            dtype = pd.CategoricalDtype(list(outcomes))
        else:
            cats: list = []
            for f in frames:
                if col in f.columns:
                    values = (
                        f[col].cat.categories
                        if isinstance(f[col].dtype, pd.CategoricalDtype)
                        else pd.unique(f[col].dropna())
                    )
                    cats.extend(c for c in values if c not in cats)
            dtype = pd.CategoricalDtype(cats)
        frames = [
            f.assign(**{col: f[col].astype(dtype)}) if col in f.columns else f for f in frames
        ]
    df = pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]
    return normalize_frame(df, outcomes)


def sort_games(df: pd.DataFrame) -> pd.DataFrame:
    """Sort by ``game_index`` (stable), drop repeated indices, reset the index."""
    if len(df) and not df["game_index"].is_monotonic_increasing:
        df = df.sort_values("game_index", kind="stable")
    if len(df) and df["game_index"].duplicated().any():
        df = df.drop_duplicates("game_index", keep="first")
    return df.reset_index(drop=True)


DAMAGED_DIR = "damaged"


class DamagedChunk(Exception):
    """A chunk file that cannot be read or does not hold exactly its games."""

    def __init__(self, path: Path, reason: str):
        super().__init__(f"chunk '{path}' is damaged: {reason}")
        self.path = path
        self.reason = reason


def read_chunk(
    path: Path, start: int, stop: int, columns: Sequence[str] | None = None
) -> pd.DataFrame:
    """Read one chunk and check it holds exactly games ``start .. stop - 1``, in order.

    ``columns`` reads only those columns (and ``game_index``, always: it is checked).

    Raises
    ------
    DamagedChunk
        If the file cannot be read as parquet (truncated, empty, not parquet) or its rows
        are not exactly its games (another chunk's rows, rows missing or repeated).

    """
    wanted = None if columns is None else list(dict.fromkeys(["game_index", "win", *columns]))
    try:
        frame = pd.read_parquet(path, columns=wanted)
    except Exception as err:  # pyarrow raises several types for a broken file
        raise DamagedChunk(path, f"not readable ({type(err).__name__})") from None
    if "game_index" not in frame.columns or "win" not in frame.columns:
        raise DamagedChunk(path, "no game_index or win column")
    if columns is not None and "win" not in columns:
        frame = frame.drop(columns="win")
    index = frame["game_index"].to_numpy()
    if len(index) != stop - start or not np.array_equal(index, np.arange(start, stop)):
        raise DamagedChunk(path, f"its rows are not exactly games {start}..{stop - 1}")
    return frame


def set_damaged_aside(folder: Path, damaged: DamagedChunk) -> Path:
    """Move a damaged chunk into ``<folder>/damaged/`` (kept for inspection) and say so."""
    target_dir = Path(folder) / DAMAGED_DIR
    target_dir.mkdir(exist_ok=True)
    target = target_dir / damaged.path.name
    n = 1
    while target.exists():
        target = target_dir / f"{damaged.path.name}.{n}"
        n += 1
    os.replace(damaged.path, target)
    print(f"simlib: warning: {damaged}; moved to '{target}', its games are played again",
          file=sys.stderr)
    return target


def iter_chunk_frames(
    folder: Path,
    games: int,
    outcomes: Sequence[str] | None,
    chunks: Sequence[tuple[int, int, Path]] | None = None,
    *,
    damaged: list[DamagedChunk] | None = None,
    columns: Sequence[str] | None = None,
    first: int = 0,
) -> Iterable[pd.DataFrame]:
    """Yield the chunk frames of a run folder overlapping ``[first, games)`` (rows clipped).

    One chunk is in memory at a time. ``columns`` reads only those columns (plus
    ``game_index``). A damaged chunk (:func:`read_chunk`) is skipped with a warning on
    stderr, so the run reads as partial; when ``damaged`` is a list it is appended there
    instead, silently, for the caller to handle (the runner sets it aside and replays it).
    """
    for start, stop, path in list_chunks(folder) if chunks is None else chunks:
        if start >= games or stop <= first:
            continue
        try:
            frame = read_chunk(path, start, stop, columns)
        except DamagedChunk as err:
            if damaged is not None:
                damaged.append(err)
            else:
                print(f"simlib: warning: {err}; skipped (its games are missing: run again "
                      "to replay them)", file=sys.stderr)
            continue
        if stop > games or start < first:
            index = frame["game_index"]
            frame = frame[(index >= first) & (index < games)]
        yield normalize_frame(frame, outcomes)


#: Columns every single run's frame gets from its ``meta`` (not stored in its chunks).
RUN_COLUMNS = ("preset", "bot")


def with_run_columns(
    df: pd.DataFrame, meta: Mapping[str, Any], columns: Sequence[str] | None = None
) -> pd.DataFrame:
    """A single run's frame with its ``preset`` and ``bot`` as one-level categorical columns.

    Every ``Results.df`` carries them, so ``summary(by="bot")`` or a concatenation reads
    the same whether the frame is one run or many; a frame read with ``columns`` gets only
    those it names. Combined results (``meta["cells"]``) and frames that already have the
    column are returned as they are.
    """
    if "cells" in meta:
        return df
    added = {
        col: pd.Categorical.from_codes(np.zeros(len(df), dtype=np.int8), categories=[value])
        for col in RUN_COLUMNS
        if col not in df.columns
        and isinstance(value := meta.get(col), str)
        and (columns is None or col in columns)
    }
    return df.assign(**added) if added else df


class Meta(TypedDict, total=False):
    """What a :class:`Results` knows of the games behind its rows (``Results.meta``).

    Written by :func:`run_meta` (a single run), :meth:`Results.concat` (combined runs),
    the runner (runs to a precision, sweeps), experiments and :meth:`Results.load`; stored
    beside the rows as JSON. Every key is optional to a reader: use ``meta.get``.
    """

    # --- a single run (run_meta)
    game: str
    title: str
    engine_version: str | None
    preset: str
    settings: dict[str, Any]  # every setting, resolved; combined: those common to all parts
    bot: str
    bot_params: dict[str, float]
    seed: int | None
    games: int  # asked for
    games_present: int  # held
    complete: bool
    outcomes: list[str]
    simlib_version: str
    out: str | None  # the run folder, when the run has one
    stopping: dict[str, Any]  # a run to a precision: its rule and where it stopped
    data_files: dict[str, str]  # data-file setting -> sha256 of the content played
    derived: dict[str, Any]  # settings left to the tables, with the value they took
    games_window: list[int]  # Results.load(games=...): the window read
    # --- combined runs (Results.concat, experiments, sweeps)
    cells: list[dict[str, Any]]  # each part's own meta
    varying: list[str]  # the columns whose value differs across the parts
    cells_present: int
    cells_total: int
    sweep: str  # the swept setting or bot parameter
    report: dict[str, Any]  # an experiment's report layout (group_by, sweep_params, ...)
    command: str
    presets: list[str]
    bots: list[str]
    grid: dict[str, Any]
    games_per_cell: int


def run_meta(cfg: dict, games: int, games_present: int, out: str | None) -> Meta:
    """Build a single run's ``meta`` from its configuration."""
    return {
        "game": cfg["game"],
        "title": cfg.get("title", cfg["game"]),
        "engine_version": cfg["engine_version"],
        "preset": cfg["preset"],
        "settings": dict(cfg["settings"]),
        "bot": cfg["bot"],
        "bot_params": dict(cfg["bot_params"]),
        "seed": cfg["seed"],
        "games": games,
        "games_present": games_present,
        "complete": games_present >= games,
        "outcomes": list(cfg.get("outcomes", [])),
        "simlib_version": simlib_version(),
        "out": out,
        **({"stopping": dict(cfg["stopping"])} if isinstance(cfg.get("stopping"), dict) else {}),
        **({"data_files": dict(cfg["data_files"])} if cfg.get("data_files") else {}),
        **({"derived": dict(cfg["derived"])} if isinstance(cfg.get("derived"), dict) else {}),
    }


def _check_columns_arg(columns: Any) -> list[str] | None:
    if columns is None:
        return None
    if isinstance(columns, str):
        columns = [columns]
    if not isinstance(columns, (list, tuple)) or not all(isinstance(c, str) for c in columns):
        raise SimlibInputError("columns: expected a list of column names (str)")
    return list(columns)


def _chunk_columns(chunks: Sequence[tuple[int, int, Path]]) -> list[str] | None:
    """The column names of a run's chunk files, from its first chunk's schema.

    None when there is no chunk or it cannot be read (reading the frames then says so).
    """
    if not chunks:
        return None
    import pyarrow.parquet as pq

    try:
        return list(pq.read_schema(chunks[0][2]).names)
    except Exception:  # noqa: BLE001 - pyarrow raises several types for a broken file
        return None


def _run_columns_arg(folder: Path, columns: Sequence[str]) -> list[str]:
    """``columns`` of a run folder's load, checked against its chunks' schema.

    Returns the names to read from the chunk files (``preset`` and ``bot`` come from the
    run's configuration, not its chunks). An unknown name is a one-line error.
    """
    names = _chunk_columns(list_chunks(folder))
    if names is not None:
        allowed = [*names, *RUN_COLUMNS]
        unknown = [c for c in columns if c not in allowed]
        if unknown:
            raise SimlibInputError(
                f"columns: no column {unknown[0]!r} in run '{folder}'; allowed: "
                f"{', '.join(allowed)}"
            )
    return [c for c in columns if c not in RUN_COLUMNS]


def _check_games_arg(games: Any) -> tuple[int, int] | None:
    """``games`` of :meth:`Results.load` as a ``(start, stop)`` window."""
    def whole(v: Any) -> bool:
        return bool(isinstance(v, (int, np.integer)) and not isinstance(v, bool) and v >= 0)

    if games is None:
        return None
    if whole(games):
        return (0, int(games))
    if isinstance(games, (tuple, list)) and len(games) == 2 and all(whole(v) for v in games):
        if games[0] < games[1]:
            return (int(games[0]), int(games[1]))
    raise SimlibInputError(
        f"games: {games!r} is not allowed; expected a count N >= 0 (the first N games) or "
        "(start, stop) with 0 <= start < stop"
    )


# --- Results ------------------------------------------------------------------------------
class Results:
    """The rows of one run (or of several runs combined) and the metadata behind them.

    Attributes
    ----------
    df : pandas.DataFrame
        One row per playthrough: the game's columns (``game_index, win, outcome, rounds``,
        then measures), sorted by ``game_index`` within each run, then ``preset`` and
        ``bot`` (categorical). Combined results add a column per setting or bot parameter
        (``bot.<name>``) that differs across the parts.
    meta : Meta
        ``game, title, engine_version, preset, settings (fully resolved), bot, bot_params,
        seed, games, games_present, complete, outcomes, simlib_version``; combined results
        instead hold ``cells`` (each part's meta) and ``varying`` (the columns whose value
        differs across parts), with the settings common to all parts in ``settings``
        (:class:`Meta` lists every key).

    """

    def __init__(
        self,
        df: pd.DataFrame | None,
        meta: Meta | dict[str, Any],
        *,
        source: str | os.PathLike | None = None,
        columns: Sequence[str] | None = None,
    ):
        if df is None and source is None:
            raise ValueError("Results: a df or a run folder (source) to read it from")
        self._df = None if df is None else with_run_columns(df, meta, columns)
        self.meta: Meta = meta  # type: ignore[assignment]
        #: The run folder a lazy ``df`` is read from (``Results.load(..., lazy=True)`` and
        #: ``simlib.run(..., out=DIR, keep_df=False)``); None once the rows are in memory.
        self.source = None if source is None else Path(source)
        self._columns = None if columns is None else list(columns)

    @property
    def df(self) -> pd.DataFrame:
        """One row per playthrough (read from ``source`` on first use when lazy)."""
        if self._df is None:
            assert self.source is not None
            cfg = read_run_config(self.source)
            outcomes = cfg.get("outcomes")
            read = None if self._columns is None else [
                c for c in self._columns if c not in RUN_COLUMNS
            ]
            frames = list(iter_chunk_frames(self.source, cfg["games"], outcomes, columns=read))
            self._df = with_run_columns(
                sort_games(concat_frames(frames, outcomes)), self.meta, self._columns
            )
        return self._df

    @df.setter
    def df(self, value: pd.DataFrame) -> None:
        self._df = value

    @property
    def in_memory(self) -> bool:
        """Whether the rows are in memory (False for a lazy run not read yet)."""
        return self._df is not None

    def __len__(self) -> int:
        """Playthroughs held (counted from the run folder, without reading it, when lazy)."""
        if self._df is None:
            return int(self.meta.get("games_present", 0))
        return len(self._df)

    # --- views ------------------------------------------------------------------------
    @property
    def outcomes(self) -> list[str]:
        """The game's outcome categories in display order."""
        return list(self.meta.get("outcomes") or [])

    def summary(self, by: str | Sequence[str] | None = None) -> pd.DataFrame:
        """Win rate with its 95% Wilson interval, outcome shares and mean rounds.

        Parameters
        ----------
        by : str or list of str, optional
            Columns to group by (e.g. a swept setting, ``"preset"``, ``"bot"``).

        """
        from simlib.core import summary as tables

        prior = self.anytime_prior(by)
        if self._df is None and prior is None:
            return self._streamed_summary(by)
        return tables.summary(self.df, by=by, outcomes=self.outcomes or None, anytime_prior=prior)

    def _streamed_summary(self, by: str | Sequence[str] | None) -> pd.DataFrame:
        """:meth:`summary` of a lazy run, one chunk in memory at a time.

        Each chunk's counts (games, wins, outcome counts, the sum of rounds) are added up
        and the rates and Wilson intervals computed once from the totals: the same table
        as from the whole frame.
        """
        from simlib.core import summary as tables
        from simlib.core.stats import wilson_interval

        assert self.source is not None
        keys = [] if by is None else ([by] if isinstance(by, str) else list(by))
        chunks = list_chunks(self.source)
        if not chunks:
            return tables.summary(self.df, by=by, outcomes=self.outcomes or None)
        stored = _chunk_columns(chunks)  # None: a damaged first chunk, the frame path says so
        names = set(stored) if stored is not None else {"win", "outcome", "rounds", *keys}
        names |= {c for c in RUN_COLUMNS if isinstance(self.meta.get(c), str)}
        missing = [k for k in keys if k not in names]
        if missing:
            raise SimlibInputError(
                f"by: no column {missing[0]!r} in this run; allowed: {', '.join(sorted(names))}"
            )
        need = [
            c for c in ("win", "outcome", "rounds", *keys) if c in names and c not in RUN_COLUMNS
        ]
        cfg = read_run_config(self.source)
        parts = [
            tables.summary(with_run_columns(frame, self.meta), by=by,
                           outcomes=self.outcomes or None)
            for frame in iter_chunk_frames(
                self.source, cfg["games"], cfg.get("outcomes"), chunks, columns=need
            )
            if len(frame)
        ]
        if not parts:
            return tables.summary(self.df, by=by, outcomes=self.outcomes or None)
        every = pd.concat(parts, ignore_index=True)
        shares = [c for c in every.columns if c.startswith("share_")]
        counted = ["n", "wins", *shares] + (["mean_rounds"] if "mean_rounds" in every else [])
        totals = every[counted].astype(float).copy()
        for col in counted[2:]:  # shares and the mean back to counts and a sum
            totals[col] = (every[col] * every["n"]).round()
        if keys:
            totals[keys] = every[keys]
            totals = totals.groupby(keys, observed=True, sort=True).sum().reset_index()
        else:
            totals = totals.sum().to_frame().T
        n = totals["n"].to_numpy().astype(np.int64)
        wins = totals["wins"].to_numpy().astype(np.int64)
        out = totals[keys].copy() if keys else pd.DataFrame(index=range(1))
        out["n"] = n
        out["wins"] = wins
        out["win_rate"] = wins / n
        lo, hi = wilson_interval(wins, n, confidence=0.95)
        out["win_lo"] = np.asarray(lo, dtype=float)
        out["win_hi"] = np.asarray(hi, dtype=float)
        for col in counted[2:]:
            out[col] = totals[col].to_numpy() / n
        out.attrs["confidence"] = 0.95
        return out.reset_index(drop=True)

    def anytime_prior(self, by: str | Sequence[str] | None = None) -> float | None:
        """Prior scale of the stopping rule when grouping by ``by`` gives runs that stopped.

        A run to a precision (``meta["stopping"]``) is summarised with its anytime-valid
        interval. For combined results that needs every part to have used the same rule and
        each group of ``by`` to be one part; otherwise ``None``.
        """
        cells = self.meta.get("cells")
        if cells is None:
            rule = self.meta.get("stopping")
            return float(rule["prior_games"]) if by is None and rule else None
        rules = [c.get("stopping") for c in cells]
        if not rules or not all(rules):
            return None
        priors = {float(r["prior_games"]) for r in rules if r}
        keys = [by] if isinstance(by, str) else list(by or [])
        varying = [c for c in self.meta.get("varying", []) if c in self.df.columns]
        if len(priors) != 1 or len(varying) != len(self.meta.get("varying", [])):
            return None
        if not keys:
            return priors.pop() if len(cells) == 1 else None
        if any(k not in self.df.columns for k in keys):
            return None
        # each group must be exactly one part: grouping by the varying columns as well
        # must not split any group
        finer = self.df.groupby(list(dict.fromkeys(keys + varying)), observed=True).ngroups
        if finer != self.df.groupby(keys, observed=True).ngroups:
            return None
        return priors.pop()

    def __repr__(self) -> str:
        m = self.meta
        n = len(self)
        if "cells" in m:
            varying = ", ".join(m.get("varying", [])) or "nothing"
            text = (
                f"Results({m.get('game')}, {len(m['cells'])} cells, {n:,} games, varying: {varying}"
            )
        else:
            text = (
                f"Results({m.get('game')}, {n:,} games, preset={m.get('preset')}, "
                f"bot={m.get('bot')}, seed={m.get('seed')}"
            )
        if not m.get("complete", True):
            text += f", partial: {n:,} of {m.get('games', n):,} games"
            if "cells_total" in m:
                text += f" ({m['cells_present']} of {m['cells_total']} cells started)"
        return text + ")"

    def _repr_html_(self) -> str:
        """A notebook's view: what the results are, then their summary table.

        Combined results are summarised by the columns that vary.
        """
        import html

        from simlib.core import summary as tables

        by = [c for c in self.meta.get("varying") or [] if c in self.df.columns] or None
        shown = tables.format_table(self.summary(by=by))
        return (
            f"<div><p><code>{html.escape(repr(self))}</code></p>"
            f"{shown.to_html(index=False, border=0)}</div>"
        )

    # --- disk ---------------------------------------------------------------------------
    def save(self, path: str | os.PathLike, *, overwrite: bool = False) -> Path:
        """Write ``results.parquet`` and ``results.json`` into folder ``path`` (created).

        Both files are written atomically. Returns the folder. A run folder (one holding
        ``run.json``) is refused: its chunks already are the stored results. A folder that
        already holds results (or any ``results.parquet``) is refused unless
        ``overwrite=True``.
        """
        if not isinstance(path, (str, os.PathLike)):
            raise SimlibInputError(
                f"path: expected a folder path (str or os.PathLike), not {type(path).__name__}"
            )
        folder = Path(path).expanduser()
        if folder.exists() and not folder.is_dir():
            raise SimlibInputError(f"cannot save results to '{path}': it is a file, not a folder")
        if (folder / RUN_FILE).exists():
            raise SimlibInputError(
                f"cannot save results to '{path}': it is a run folder (its chunks already "
                "hold the results); choose another folder"
            )
        taken = [f for f in (RESULTS_FILE, RESULTS_META) if (folder / f).exists()]
        if taken and not overwrite:
            raise SimlibInputError(
                f"cannot save results to '{path}': it already holds {taken[0]}; pass "
                "overwrite=True to replace it, or choose another folder"
            )
        folder.mkdir(parents=True, exist_ok=True)
        atomic_write_parquet(self.df, folder / RESULTS_FILE)
        atomic_write_json(folder / RESULTS_META, {"simlib_results": RUN_FORMAT, "meta": self.meta})
        return folder

    @classmethod
    def load(
        cls,
        path: str | os.PathLike,
        *,
        columns: Sequence[str] | None = None,
        games: int | tuple[int, int] | None = None,
        lazy: bool = False,
    ) -> Results:
        """Read a run folder (finished or partial), a sweep, an experiment or saved results.

        A partial run gives the rows present with ``meta["complete"] = False`` and
        ``meta["games_present"]``. Anything else raises ``SimlibInputError``.

        Parameters
        ----------
        path : path
            The folder.
        columns : list of str, optional
            Read only these columns (``game_index`` always comes too): a large run's
            ``win`` and ``outcome`` need a fraction of its memory. ``preset`` and ``bot``
            may be named (they come from the run's configuration). An unknown name is an
            error naming the columns there are.
        games : int or (start, stop), optional
            Read only the first ``games`` playthroughs, or games ``start .. stop - 1``;
            only the chunk files holding them are opened.
        lazy : bool
            A run folder only: read nothing now. ``summary()`` then reads one chunk at a
            time (memory bounded by a chunk, not the run) and ``df`` is read on first use.

        """
        columns = _check_columns_arg(columns)
        window = _check_games_arg(games)
        if not isinstance(path, (str, os.PathLike)):
            raise SimlibInputError(
                f"path: expected a folder path (str or os.PathLike), not {type(path).__name__}"
            )
        folder = Path(path).expanduser()
        if lazy and not (folder / RUN_FILE).is_file():
            raise SimlibInputError(
                f"lazy: only a run folder (one holding {RUN_FILE}) can be read lazily; "
                f"'{path}' is not one"
            )
        if (columns is not None or window is not None) and folder.is_dir():
            return cls._load_part(folder, columns, window, lazy)
        if not folder.exists():
            raise SimlibInputError(f"results folder '{path}' does not exist")
        if not folder.is_dir():
            raise SimlibInputError(
                f"'{path}' is not a folder; expected a run or experiment folder written by simlib"
            )
        if (folder / RUN_FILE).is_file():
            return cls._load_run(folder, lazy=lazy)
        if (folder / EXPERIMENT_FILE).is_file():
            record = read_json(folder / EXPERIMENT_FILE, "experiment file")
            definition = record.get("experiment")
            if isinstance(definition, dict) and definition.get("kind") == "table":
                raise SimlibInputError(
                    f"'{path}' holds an exact table, not playthroughs: read its table.parquet "
                    "(or table.csv); 'simlib report' rebuilds its report.html"
                )
            if not (record.get("complete") and (folder / RESULTS_META).is_file()):
                return cls._load_experiment_cells(folder, record)
        if (folder / SWEEP_FILE).is_file():
            return cls._load_sweep(folder)
        if (folder / RESULTS_META).is_file():
            return cls._load_saved(folder)
        raise SimlibInputError(
            f"'{path}' is not a simlib results folder: it has no {RUN_FILE}, {RESULTS_META}, "
            f"{SWEEP_FILE} or {EXPERIMENT_FILE}"
        )

    @classmethod
    def _load_run(
        cls,
        folder: Path,
        columns: Sequence[str] | None = None,
        window: tuple[int, int] | None = None,
        lazy: bool = False,
    ) -> Results:
        cfg = read_run_config(folder)
        games = cfg["games"]
        outcomes = cfg.get("outcomes")
        first, last = (0, games) if window is None else (window[0], min(window[1], games))
        read = None if columns is None else _run_columns_arg(folder, columns)
        if lazy:
            present = present_ranges(list_chunks(folder), games)
            held = sum(max(0, min(b, last) - max(a, first)) for a, b in present)
            meta = run_meta(cfg, games, held, str(folder))
            return cls(None, meta, source=folder, columns=columns)
        frames = list(iter_chunk_frames(folder, last, outcomes, columns=read, first=first))
        df = sort_games(concat_frames(frames, outcomes))
        meta = run_meta(cfg, games, len(df), str(folder))
        if window is not None:
            meta["games_window"] = [first, last]
            meta["complete"] = len(df) >= max(0, last - first)
        return cls(df, meta, columns=columns)

    @classmethod
    def _load_part(
        cls,
        folder: Path,
        columns: Sequence[str] | None,
        window: tuple[int, int] | None,
        lazy: bool,
    ) -> Results:
        """:meth:`load` with ``columns`` or ``games``: a run folder or saved results."""
        if (folder / RUN_FILE).is_file():
            if lazy and window is not None:
                raise SimlibInputError("games: not with lazy=True (a lazy run reads all games)")
            return cls._load_run(folder, columns, window, lazy)
        if (folder / RESULTS_META).is_file() and (folder / RESULTS_FILE).is_file():
            whole = cls._load_saved(folder, columns)
            if window is not None and "game_index" in whole.df.columns:
                index = whole.df["game_index"]
                whole.df = whole.df[(index >= window[0]) & (index < window[1])].reset_index(
                    drop=True
                )
            return whole
        raise SimlibInputError(
            f"columns, games: only for a run folder or saved results; '{folder}' is "
            "neither (load it whole)"
        )

    @classmethod
    def _load_saved(cls, folder: Path, columns: Sequence[str] | None = None) -> Results:
        data = read_json(folder / RESULTS_META, "results file")
        if "meta" not in data or not isinstance(data["meta"], dict):
            raise SimlibInputError(
                f"'{folder / RESULTS_META}' is not a results file written by simlib"
            )
        meta = data["meta"]
        if not (folder / RESULTS_FILE).is_file():
            raise SimlibInputError(f"results folder '{folder}' has no {RESULTS_FILE}")
        path = folder / RESULTS_FILE
        if columns is not None:
            import pyarrow.parquet as pq

            names = pq.read_schema(path).names
            unknown = [c for c in columns if c not in names]
            if unknown:
                raise SimlibInputError(
                    f"columns: no column {unknown[0]!r} in '{path}'; allowed: {', '.join(names)}"
                )
            columns = [c for c in names if c in set(columns) | {"game_index"}]
        df = normalize_frame(pd.read_parquet(path, columns=columns), meta.get("outcomes"))
        return cls(df, meta)

    @classmethod
    def _load_experiment_cells(cls, folder: Path, data: dict) -> Results:
        definition = data.get("experiment") or {}
        include = list((definition.get("grid") or {}).keys())
        parts = []
        for name in data.get("cells") or []:
            cell = folder / "cells" / name
            if (cell / RUN_FILE).is_file():
                parts.append(cls._load_run(cell))
        if not parts:
            raise SimlibInputError(
                f"experiment folder '{folder}' holds no finished chunks yet; run the experiment"
            )
        res = cls.concat(parts, include=include)
        res.meta["complete"] = False
        names = list(data.get("cells") or [])
        per_cell = definition.get("games")
        if isinstance(per_cell, int) and not isinstance(per_cell, bool):
            # cells not started yet count with the games the experiment asks of each
            res.meta["games"] += per_cell * (len(names) - len(parts))
        res.meta["cells_present"] = len(parts)
        res.meta["cells_total"] = len(names)
        res.meta["title"] = str(definition.get("title", res.meta.get("title")))
        if isinstance(data.get("report"), dict):
            res.meta["report"] = data["report"]
        return res

    @classmethod
    def _load_sweep(cls, folder: Path) -> Results:
        data = read_json(folder / SWEEP_FILE, "sweep file")
        param = data.get("param")
        if not isinstance(param, str) or not isinstance(data.get("cells"), list):
            raise SimlibInputError(f"'{folder / SWEEP_FILE}' is not a sweep file written by simlib")
        parts = [
            cls._load_run(folder / name)
            for name in data["cells"]
            if (folder / name / RUN_FILE).is_file()
        ]
        if not parts:
            raise SimlibInputError(f"sweep folder '{folder}' holds no finished runs yet")
        res = cls.concat(parts, include=[param])
        res.meta["sweep"] = param
        return res

    # --- combining ----------------------------------------------------------------------
    @classmethod
    def concat(cls, parts: Sequence[Results], *, include: Iterable[str] = ()) -> Results:
        """Stack single runs of one game into one Results.

        Adds columns ``preset`` and ``bot`` and one column per setting (its name) or bot
        parameter (``bot.<name>``) whose value differs across ``parts`` (or is named in
        ``include``), placed after the game's own columns; also ``seed`` and
        ``engine_version`` should they differ. A game that already records a setting in a
        column of that name (Sub Terra's ``cavers``, ``hazard_cards``) keeps its own column.
        ``meta["varying"]`` names the columns whose value differs across the parts.
        """
        parts = list(parts)
        if not parts:
            raise SimlibInputError("Results.concat needs at least one Results")
        for part in parts:
            if not isinstance(part, Results):
                raise SimlibInputError(
                    f"Results.concat takes Results objects, not {type(part).__name__}"
                )
            if "cells" in part.meta:
                raise SimlibInputError(
                    f"Results.concat takes single runs; this part is already combined ({part!r})"
                )
        games = {p.meta.get("game") for p in parts}
        if len(games) > 1:
            raise SimlibInputError(
                f"Results.concat needs runs of one game; got {', '.join(sorted(map(str, games)))}"
            )
        metas = [p.meta for p in parts]
        include = list(include)

        def differs(values: list) -> bool:
            first = json.dumps(jsonable(values[0]), sort_keys=True)
            return any(json.dumps(jsonable(v), sort_keys=True) != first for v in values[1:])

        columns: dict[str, list] = {
            "preset": [m.get("preset") for m in metas],
            "bot": [m.get("bot") for m in metas],
        }
        varying = [c for c in ("preset", "bot") if differs(columns[c])]
        common_settings = {}
        setting_keys: list[str] = []
        for m in metas:
            setting_keys.extend(k for k in m.get("settings", {}) if k not in setting_keys)
        for key in setting_keys:
            values = [m.get("settings", {}).get(key) for m in metas]
            if differs(values):
                varying.append(key)
                columns[key] = values
            else:
                common_settings[key] = values[0]
                if key in include:
                    columns[key] = values
        param_keys: list[str] = []
        for m in metas:
            param_keys.extend(k for k in m.get("bot_params", {}) if k not in param_keys)
        for key in param_keys:
            values = [m.get("bot_params", {}).get(key) for m in metas]
            col = f"bot.{key}"
            if differs(values):
                varying.append(col)
                columns[col] = values
            elif col in include:
                columns[col] = values
        for key in ("seed", "engine_version"):
            values = [m.get(key) for m in metas]
            if differs(values):
                varying.append(key)
                columns[key] = values

        lengths = np.array([len(p.df) for p in parts], dtype=np.int64)
        part_idx = np.repeat(np.arange(len(parts)), lengths)
        outcomes = metas[0].get("outcomes")
        df = concat_frames([p.df for p in parts], outcomes)
        added = {}
        for col, values in columns.items():
            if col in df.columns:
                # The game records this itself (e.g. Sub Terra's ``cavers`` and the deck
                # size actually dealt as ``hazard_cards``); its own column is kept.
                continue
            if all(isinstance(v, str) for v in values):
                cats = list(dict.fromkeys(values))
                codes = np.array([cats.index(v) for v in values], dtype=np.int32)[part_idx]
                added[col] = pd.Categorical.from_codes(codes, categories=cats)
            else:
                added[col] = pd.Series(values).iloc[part_idx].to_numpy()
        df = df.assign(**added) if added else df

        seeds = [m.get("seed") for m in metas]
        versions = [m.get("engine_version") for m in metas]
        meta = {
            "game": metas[0].get("game"),
            "title": metas[0].get("title", metas[0].get("game")),
            "engine_version": versions[0] if not differs(versions) else None,
            "seed": seeds[0] if not differs(seeds) else None,
            "settings": common_settings,
            "games": int(sum(int(m.get("games", n)) for m, n in zip(metas, lengths, strict=True))),
            "games_present": int(lengths.sum()),
            "complete": all(m.get("complete", True) for m in metas),
            "outcomes": list(outcomes or []),
            "simlib_version": simlib_version(),
            "cells": [dict(m) for m in metas],
            "varying": varying,
        }
        return cls(df, meta)


def read_run_config(folder: Path) -> dict:
    """Read and check a run folder's ``run.json``."""
    path = Path(folder) / RUN_FILE
    cfg = read_json(path, "run file")
    needed = (*CONFIG_KEYS, "games")
    if cfg.get("simlib_run") != RUN_FORMAT or any(k not in cfg for k in needed):
        raise SimlibInputError(
            f"'{path}' is not a run file written by this version of simlib "
            f"(expected keys {', '.join(needed)})"
        )
    return cfg
