"""Run playthroughs: chunking, seeding, backends, progress, checkpoints, sweeps, comparisons.

A playthrough is identified by ``(seed, game_index)``; the game's kernel derives its random
stream from those two numbers alone. The runner therefore only has to hand each chunk the
right ``start`` index: the row of game ``i`` is the same whatever the chunk size, thread
count or backend, and a resumed run equals an uninterrupted one row for row.

Run folder (``out=DIR``)::

    DIR/run.json        configuration (game, engine_version, preset, resolved settings, bot,
                        bot params, seed), games requested, outcomes, ``complete``
    DIR/chunks/games-{start:012d}-{stop:012d}.parquet
                        the rows of game indices [start, stop), one file per finished chunk,
                        each written atomically (temp file + rename) as soon as it finishes

Calling :func:`run` again with the same ``out`` and the same configuration resumes: only the
missing index ranges are played (any chunk size). More ``games`` extends the run, fewer
returns the first ``games`` rows. A different configuration is refused and the folder is
left untouched.
"""

from __future__ import annotations

import functools
import itertools
import json
import math
import os
import sys
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from simlib.core import cluster
from simlib.core.checks import (
    RUN_KWARGS,
    check_games,
    check_precision,
    check_run_kwargs,
    check_run_options,
    check_seed,
    max_threads,
    out_folder,
)
from simlib.core.datafile import DataSnapshot, materialize, snapshot
from simlib.core.folderlock import folder_lock
from simlib.core.game import Bot, Game
from simlib.core.outdir import existing_record
from simlib.core.results import (
    CHUNK_DIR,
    RUN_FILE,
    RUN_FORMAT,
    SWEEP_FILE,
    DamagedChunk,
    Results,
    atomic_write_json,
    atomic_write_parquet,
    chunk_name,
    concat_frames,
    iter_chunk_frames,
    jsonable,
    list_chunks,
    missing_ranges,
    normalize_frame,
    present_ranges,
    read_run_config,
    run_meta,
    set_damaged_aside,
    simlib_version,
    sort_games,
    value_label,
    value_text,
)
from simlib.errors import SimlibInputError, SimlibRunError
from simlib.games.registry import get_game

__all__ = [
    "run",
    "sweep",
    "compare",
    "compare_to_precision",
    "Comparisons",
    "split_cells",
    "DEFAULT_CHUNK_SIZE",
    "PRECISION_LOOK",
    "play_chunk",
]

#: Games per chunk when ``chunk_size`` is not given (local backend). A chunk is the unit of
#: progress updates and checkpoints: large enough that per-chunk overhead (a kernel launch,
#: a DataFrame, a parquet file) is negligible, small enough that an interrupted run loses
#: little and the progress bar moves every second or so for a fast game.
DEFAULT_CHUNK_SIZE = 200_000
#: Smallest default chunk on the dask backend, which aims at 4 chunks per worker
#: (:func:`dask_chunk_size`).
DASK_MIN_CHUNK_SIZE = 10_000
#: Seconds before an automatic progress bar appears (short runs stay quiet).
PROGRESS_DELAY = 2.0
#: Most values one sweep takes (each is a whole run): more is a typo in a range, and a
#: range is refused before its values are built.
MAX_SWEEP_VALUES = 1000

#: Games between two looks of a run to a precision: the stopping rule checks its interval
#: after games 1000, 2000, ... (and at the cap), whatever the chunk size or backend, so
#: the game count it stops at is a function of the seed alone.
PRECISION_LOOK = 1000


# --- resolving a run ------------------------------------------------------------------------
@dataclass
class RunPlan:
    """A fully resolved and validated run configuration."""

    game: Game
    preset: str
    values: dict[str, Any]
    bot: Bot
    params: dict[str, float]
    seed: int
    games: int
    #: The data files the settings name (``Setting.file``), as read when the run was resolved.
    data_files: dict[str, DataSnapshot] = field(default_factory=dict)
    #: Values of the settings left ``None`` for the game to derive (``Game.derived``).
    derived: dict[str, Any] = field(default_factory=dict)

    def config(self) -> dict[str, Any]:
        """Return the configuration a run folder must match to be resumed (JSON types)."""
        cfg = {
            "game": self.game.name,
            "engine_version": self.game.engine_version,
            "preset": self.preset,
            "settings": self.values,
            "bot": self.bot.name,
            "bot_params": self.params,
            "seed": self.seed,
        }
        if self.data_files:
            cfg["data_files"] = {k: snap.sha256 for k, snap in self.data_files.items()}
        return json.loads(json.dumps(jsonable(cfg)))

    def compile_values(self) -> dict[str, Any]:
        """The settings with each data file replaced by its content-addressed copy.

        Every backend compiles from these, so the games played are the bytes the run
        recorded, whatever happens to the original file or whichever process plays them.
        """
        return {**self.values, **{k: materialize(s) for k, s in self.data_files.items()}}

    def run_file(self, games: int, complete: bool) -> dict[str, Any]:
        """Contents of ``run.json``."""
        return {
            "simlib_run": RUN_FORMAT,
            **self.config(),
            "games": games,
            "complete": complete,
            "title": self.game.title or self.game.name,
            "outcomes": list(self.game.outcomes),
            "simlib_version": simlib_version(),
            **({"derived": jsonable(self.derived)} if self.derived else {}),
        }


def resolve_run(
    game: str | Game,
    *,
    preset: str | None = None,
    settings: dict[str, Any] | None = None,
    bot: str | None = None,
    bot_params: dict[str, Any] | None = None,
    games: Any,
    seed: Any = 0,
) -> RunPlan:
    """Validate and resolve everything a run needs; raise ``SimlibInputError`` on bad input."""
    g = get_game(game)
    if settings is not None and not isinstance(settings, dict):
        raise SimlibInputError(
            f"settings: expected a dict of setting name -> value, not {type(settings).__name__}"
        )
    if bot_params is not None and not isinstance(bot_params, dict):
        raise SimlibInputError(
            f"bot_params: expected a dict of parameter name -> number, not "
            f"{type(bot_params).__name__}"
        )
    values = g.resolve(preset, settings)
    b = g.bot(bot)
    params = b.resolve_params(bot_params)
    games = check_games(games)
    seed = check_seed(seed)
    data_files = {
        s.name: snapshot(values[s.name], f"setting '{s.name}'")
        for s in g.settings
        if s.file and isinstance(values.get(s.name), str) and values[s.name] != "default"
    }
    return RunPlan(
        g,
        g.default_preset if preset is None else preset,
        values,
        b,
        params,
        seed,
        games,
        data_files,
        dict(g.derived(values)),
    )


def _dict_difference(old: dict, new: dict, missing: Any) -> tuple[str, Any, Any] | None:
    """The first key (``new``'s order, then ``old``'s extras) whose values differ."""
    for key in list(new) + [k for k in old if k not in new]:
        if old.get(key, missing) != new.get(key, missing):
            return key, old.get(key, missing), new.get(key, missing)
    return None


def _first_difference(stored: dict, new: dict) -> tuple[str, Any, Any] | None:
    for key in ("game", "engine_version", "preset"):
        if stored.get(key) != new[key]:
            return key, stored.get(key), new[key]
    diff = _dict_difference(stored.get("settings") or {}, new["settings"], "<unset>")
    if diff is not None:
        return diff
    if stored.get("bot") != new["bot"]:
        return "bot", stored.get("bot"), new["bot"]
    diff = _dict_difference(stored.get("bot_params") or {}, new["bot_params"], "<unset>")
    if diff is not None:
        return f"bot.{diff[0]}", diff[1], diff[2]
    if stored.get("seed") != new["seed"]:
        return "seed", stored.get("seed"), new["seed"]
    diff = _dict_difference(stored.get("data_files") or {}, new.get("data_files") or {}, None)
    if diff is not None:
        return f"data_files.{diff[0]}", diff[1], diff[2]
    return None


def check_out(out: str | os.PathLike, plan: RunPlan) -> dict | None:
    """Check that ``out`` may hold ``plan``'s run, touching nothing.

    Returns the stored ``run.json`` when the folder holds the same configuration (resume),
    ``None`` when the folder is new or empty. Raises ``SimlibInputError`` otherwise.
    """
    folder = Path(out)
    if existing_record(folder, RUN_FILE, "simlib run") is not None:
        stored = read_run_config(folder)
        diff = _first_difference(stored, plan.config())
        if diff is not None:
            key, old, new = diff
            if key == "game":
                raise SimlibInputError(
                    f"out folder '{out}' holds a run of {old}; this call runs {new}. "
                    "Use another folder or the same configuration."
                )
            if key.startswith("data_files."):
                name = key.split(".", 1)[1]
                path = plan.values.get(name)
                if old is None:
                    raise SimlibInputError(
                        f"out folder '{out}' holds a run of {stored['game']} that recorded no "
                        f"content hash for {name}='{path}', so the file cannot be checked "
                        "against it; use another folder"
                    )
                raise SimlibInputError(
                    f"out folder '{out}' holds a run of {stored['game']} played with another "
                    f"content of {name}='{path}' (sha256 {str(old)[:12]}, the file now "
                    f"{str(new)[:12]}): the file changed since. Use another folder or restore "
                    "the file."
                )
            raise SimlibInputError(
                f"out folder '{out}' holds a run of {stored['game']} with "
                f"{key}={value_text(old)}; this call has {key}={value_text(new)}. Use another "
                "folder or the same configuration."
            )
        return stored
    return None


def _chunks(ranges: Sequence[tuple[int, int]], size: int) -> list[tuple[int, int]]:
    return [(a, min(a + size, stop)) for start, stop in ranges for a in range(start, stop, size)]


# --- progress -------------------------------------------------------------------------------
def _say_compiling(game: Game, progress: bool | None) -> None:
    """Say on stderr that a first run compiles the game's kernels.

    A silent minute looks like a hang. Quiet when progress is off.
    """
    from simlib.core import jit

    quiet = progress is False or (progress is None and os.environ.get("SIMLIB_PROGRESS") == "0")
    module = type(game).__module__
    if quiet or not module.startswith("simlib.games.") or not jit.cache_is_cold(module):
        return
    about = f", about {game.compile_seconds} s" if game.compile_seconds else ""
    print(
        f"simlib: compiling the kernels of {game.title or game.name} (first run only{about})...",
        file=sys.stderr,
        flush=True,
    )


def _progress_bar(progress: bool | None, total: int, initial: int, desc: str | None):
    from tqdm import tqdm

    if progress is None:
        disable = os.environ.get("SIMLIB_PROGRESS") == "0"
        delay = PROGRESS_DELAY
    else:
        disable, delay = not progress, 0.0
    return tqdm(
        total=total,
        initial=initial,
        unit="games",
        unit_scale=True,
        file=sys.stderr,
        desc=desc,
        delay=delay,
        disable=disable,
        dynamic_ncols=True,
        smoothing=0.1,
    )


# --- dask -----------------------------------------------------------------------------------
_WORKER_GAMES: dict[str, Game] = {}


@functools.lru_cache(maxsize=16)
def _compiled_for(key: str) -> tuple:
    spec = json.loads(key)
    return _WORKER_GAMES[spec["game"]].compile(spec["settings"])


def play_chunk(
    game: str | Game,
    values: dict[str, Any],
    bot: str,
    params: dict[str, float],
    seed: int,
    start: int,
    count: int,
    threads: int | None = None,
) -> pd.DataFrame:
    """Play games ``start .. start+count-1`` and return their DataFrame (a Dask task).

    Takes plain data (the game by name or as a picklable ``Game``) so a worker needs only
    simlib installed. Compiled settings are cached per worker process, keyed by the game,
    its engine version and the resolved settings. ``threads`` (default: every core numba
    may use) plays the chunk's blocks.
    """
    g = get_game(game)
    _WORKER_GAMES[g.name] = g
    values = {
        k: materialize(v) if isinstance(v, DataSnapshot) else v for k, v in values.items()
    }
    key = json.dumps(
        jsonable({"game": g.name, "engine_version": g.engine_version, "settings": values}),
        sort_keys=True,
    )
    compiled = _compiled_for(key)
    param_vec = np.array(list(params.values()), dtype=np.float64)
    threads = max_threads() if threads is None else min(threads, max_threads())
    records = g.play_batch(compiled, g.bot(bot).id, param_vec, seed, start, count, threads)
    return normalize_frame(g.records_to_frame(records, g.context(values)), g.outcomes)


# --- the run --------------------------------------------------------------------------------
def run(
    game: str | Game,
    *,
    preset: str | None = None,
    settings: dict[str, Any] | None = None,
    bot: str | None = None,
    bot_params: dict[str, Any] | None = None,
    games: int,
    seed: int = 0,
    backend: str = "local",
    scheduler: Any = None,
    chunk_size: int | None = None,
    out: str | os.PathLike | None = None,
    progress: bool | None = None,
    threads: int | None = None,
    precision: float | None = None,
    keep_df: bool = True,
) -> Results:
    """Play ``games`` playthroughs of ``game`` and return their :class:`Results`.

    Parameters
    ----------
    game : str or Game
        Registry name (``simlib.games()``) or a ``Game`` object.
    preset : str, optional
        Preset name; the game's default preset if omitted.
    settings : dict, optional
        Setting overrides applied over the preset (strings are parsed).
    bot : str, optional
        Bot name; the game's default bot if omitted.
    bot_params : dict, optional
        Bot parameter overrides.
    games : int
        Number of playthroughs, game indices ``0 .. games-1``.
    seed : int
        Run seed, ``0 <= seed < 2**63``. Game ``i``'s outcome depends only on
        ``(seed, i)``: the same seed under two settings gives common random numbers.
    backend : {"local", "dask"}
        ``"local"``: numba threads on this machine. ``"dask"``: one task per chunk on a
        Dask distributed cluster; identical rows for the same seed.
    scheduler : str or dask.distributed.Client, optional
        Dask only: a scheduler address (``"tcp://host:8786"``), a ``Client``, or ``None``
        for a LocalCluster (one single-threaded worker process per core) for this run.
    chunk_size : int, optional
        Games per chunk (the unit of progress and checkpoints). Default
        ``min(games, DEFAULT_CHUNK_SIZE)`` locally; on dask about four chunks per worker.
    out : path, optional
        Run folder for checkpoints; an interrupted run called again resumes there.
    progress : bool, optional
        ``True`` always show a progress bar on stderr, ``False`` never, ``None``
        (default) show it once a run lasts more than 2 s unless ``SIMLIB_PROGRESS=0``.
    threads : int, optional
        Threads that play this run's games (``1 .. NUMBA_NUM_THREADS``; default: all), handed
        to the block scheduler (:func:`simlib.core.blocks.run_blocks`); no global setting
        changes. On dask: threads per task on the workers (default 1 on the automatic
        LocalCluster).
    precision : float, optional
        Play until the win rate's anytime-valid 95% interval
        (:func:`simlib.core.stats.confidence_sequence`, prior tuned for this precision) has
        a half-width of at most ``precision`` (0.01 = ±1 point), with ``games`` as the cap.
        The interval is looked at every :data:`PRECISION_LOOK` games, so the games played
        are always the prefix ``0 .. n-1`` and ``n`` depends only on the configuration and
        the seed (not on chunking, backend or a resume). ``meta["stopping"]`` records the
        precision, the prior, the cap, the ``n`` it stopped at and why, and the interval.
    keep_df : bool
        ``False`` (needs ``out``): keep no rows in memory, so a run of any size is bounded
        by disk, not memory. The result is lazy (:meth:`Results.load` with ``lazy=True``):
        ``summary()`` reads one chunk at a time, ``df`` reads the folder on first use.
        With ``True`` (default) a run whose rows would not fit in this machine's memory
        stops after its first chunk with one line saying so (the chunk kept in ``out``).

    Returns
    -------
    Results
        ``df`` sorted by ``game_index``; ``meta`` with the resolved configuration.

    Raises
    ------
    SimlibInputError
        Bad input (naming the argument and what is allowed), or an ``out`` folder that
        holds something else.

    """
    plan = resolve_run(
        game,
        preset=preset,
        settings=settings,
        bot=bot,
        bot_params=bot_params,
        games=games,
        seed=seed,
    )
    if not isinstance(keep_df, bool):
        raise SimlibInputError(f"keep_df: expected True or False, not {keep_df!r}")
    if not keep_df and out is None:
        raise SimlibInputError("keep_df=False: needs out=DIR (the rows are kept on disk only)")
    if not keep_df and precision is not None:
        raise SimlibInputError("keep_df=False: not with precision (it reads every look's rows)")
    options = {} if keep_df else {"keep_df": False}
    return execute_plan(
        plan,
        precision=precision,
        backend=backend,
        scheduler=scheduler,
        chunk_size=chunk_size,
        out=out_folder(out),
        progress=progress,
        threads=threads,
        **options,
    )


def execute_plan(plan: RunPlan, *, precision: float | None = None, **options: Any) -> Results:
    """Run ``plan`` for its ``games`` (:func:`execute`), or to ``precision`` with them as cap."""
    if precision is None:
        return execute(plan, **options)
    return execute_to_precision(plan, precision, **options)


def stopping_rule(precision: float, confidence: float = 0.95) -> dict[str, Any]:
    """The parameters of a run to ``precision`` (validated), as ``meta["stopping"]`` holds."""
    from simlib.core import stats

    precision = check_precision(precision)
    return {
        "precision": precision,
        "confidence": confidence,
        "look": PRECISION_LOOK,
        "prior_games": stats.cs_prior_games(precision, confidence),
        "interval": "anytime-valid confidence sequence (Robbins' beta-binomial mixture)",
    }


def find_stop(
    wins: np.ndarray, rule: dict[str, Any], cap: int, first: int = 0
) -> tuple[int | None, tuple[float, float]]:
    """First look ``n`` (a multiple of the look, or ``cap``) after ``first`` that stops.

    ``wins`` holds the outcomes of games ``0 .. len(wins)-1``. Returns ``(n, (lo, hi))``
    for the first look ``n <= len(wins)`` whose confidence sequence has a half-width of at
    most the precision (``cap`` always stops), or ``(None, last interval)``.
    """
    from simlib.core import stats

    cum = np.cumsum(wins, dtype=np.int64)
    look = int(rule["look"])
    looks = list(range(look, min(cap, len(wins)) + 1, look))
    if len(wins) >= cap and (not looks or looks[-1] != cap):
        looks.append(cap)
    interval = (0.0, 1.0)
    for n in looks:
        if n <= first:
            continue
        interval = stats.confidence_sequence(
            int(cum[n - 1]), n, rule["confidence"], prior_games=rule["prior_games"]
        )
        if (interval[1] - interval[0]) / 2.0 <= rule["precision"] or n >= cap:
            return n, interval
    return None, interval


def _next_stage(done: int, wins: np.ndarray, rule: dict[str, Any], cap: int) -> int:
    """Games to have played after the next stage: a guess at the stopping n, on looks."""
    from simlib.core import stats

    look = int(rule["look"])
    h = rule["precision"]
    # Where the sequence reaches h at rate p: the tuning formula of cs_prior_games scaled
    # by p (1 - p) / (1/4), and 10% more. Only a schedule: the stop is decided per look.
    n_worst = stats._cs_tuning(h, rule["confidence"])[1]
    p = float(np.mean(wins)) if len(wins) else 0.5
    guess = 1.1 * n_worst * max(4.0 * p * (1.0 - p), 0.02) if len(wins) else n_worst / 4.0
    target = max(done + look, math.ceil(guess / look) * look)
    return min(cap, target)


def execute_to_precision(plan: RunPlan, precision: float, **options: Any) -> Results:
    """Run ``plan`` until the anytime interval reaches ``precision`` (cap ``plan.games``).

    Plays in stages (a guess at the stopping game count each time); every stage only plays
    the games not yet played (into ``out``, or a temporary folder when ``out`` is None),
    and every look up to the stage's end is checked in order, so the stage sizes never
    change where the run stops.
    """
    import shutil
    import tempfile

    rule = stopping_rule(precision)
    out = out_folder(options.pop("out", None))
    tmp = Path(tempfile.mkdtemp(prefix="simlib-precision-")) if out is None else None
    folder = Path(out) if out is not None else tmp / "run"  # type: ignore[operator]
    try:
        res, stopping = _stages(plan, rule, folder, options)
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
    meta = dict(res.meta)
    meta.update(
        {
            "games": stopping["games"],
            "games_present": len(res.df),
            "complete": True,
            "stopping": stopping,
            "out": str(out) if out is not None else None,
        }
    )
    if out is not None:
        stored = read_run_config(folder)
        stored.update({"games": stopping["games"], "complete": True, "stopping": stopping})
        atomic_write_json(folder / RUN_FILE, stored)
    return Results(res.df, meta)


def _stages(
    plan: RunPlan, rule: dict[str, Any], folder: Path, options: dict[str, Any]
) -> tuple[Results, dict[str, Any]]:
    from dataclasses import replace

    cap = plan.games
    stop: int | None = None
    checked = 0
    wins = np.zeros(0, dtype=bool)
    interval = (0.0, 1.0)
    res = None
    while stop is None:
        stage = _next_stage(checked, wins, rule, cap)
        res = execute(replace(plan, games=stage), out=folder, **options)
        wins = res.df["win"].to_numpy(dtype=bool)
        stop, interval = find_stop(wins, rule, cap, checked)
        checked = stage
    assert res is not None
    df = res.df.iloc[:stop].reset_index(drop=True) if stop < len(res.df) else res.df
    half = (interval[1] - interval[0]) / 2.0
    stopping = {
        **rule,
        "cap": cap,
        "games": stop,
        "stopped": "precision" if half <= rule["precision"] else "cap",
        "win_lo": interval[0],
        "win_hi": interval[1],
    }
    return Results(df, res.meta), stopping


@dataclass
class PrecisionComparison:
    """Two settings played on the same seeds until their difference was known to a precision.

    Attributes
    ----------
    a, b : Results
        The two arms, games ``0 .. n-1`` each (game ``i`` on the same random stream).
    sequence : simlib.core.stats.PairedSequence
        The anytime-valid interval on ``rate_a - rate_b`` where the run stopped.
    comparison : simlib.core.stats.Comparison
        The fixed-n paired comparison of the same games (Newcombe interval, McNemar p);
        its interval is only valid for a fixed game count, shown for reference.
    precision : float
        Target half-width of the difference.
    stopped : str
        ``"precision"`` or ``"cap"``.
    unpaired_games : int or None
        Games per arm the same anytime interval would need on independent arms (different
        seeds) to reach the precision at the observed rates
        (:func:`unpaired_games_needed`): an estimate from the rates, not a run; None if
        beyond ``10**9``.

    """

    a: Results
    b: Results
    sequence: Any
    comparison: Any
    precision: float
    stopped: str
    unpaired_games: int | None

    @property
    def games(self) -> int:
        """Games played per arm."""
        return int(self.sequence.n)

    def __str__(self) -> str:
        """A short paragraph: the difference, its anytime interval, the games it took."""
        s = self.sequence
        saving = (
            f"; an unpaired comparison would need about {self.unpaired_games:,} games per arm"
            if self.unpaired_games
            else ""
        )
        return (
            f"A {self.comparison.rate_a:.1%} vs B {self.comparison.rate_b:.1%}: difference "
            f"{100 * s.diff:+.2f} pp, {100 * s.confidence:g}% anytime CI "
            f"[{100 * s.diff_lo:+.2f}, {100 * s.diff_hi:+.2f}] pp after {s.n:,} paired games "
            f"per arm (stopped: {self.stopped}, target ±{100 * self.precision:g} pp){saving}"
        )


def unpaired_games_needed(
    rate_a: float,
    rate_b: float,
    precision: float,
    confidence: float = 0.95,
    seed: int = 0,
    limit: int = 2**24,
) -> int | None:
    """Games per arm the same anytime interval needs when the arms are independent.

    :func:`~simlib.core.stats.paired_difference_sequence` is valid for any pairing of two
    streams of independent games, including two runs on different seeds, where the pairs
    disagree far more often than under common random numbers. This simulates two
    independent Bernoulli streams at the given rates (numpy, ``seed``) and returns the
    first look (multiple of :data:`PRECISION_LOOK`) at which their interval reaches
    ``precision``: an estimate of the like-for-like unpaired cost, not a run of the game.
    None if not reached within ``limit`` games.
    """
    from simlib.core import stats

    rng = np.random.default_rng(seed)
    n = 1 << 14
    while n <= limit:
        a = rng.random(n) < rate_a
        b = rng.random(n) < rate_b
        lo, hi = stats.paired_difference_sequence(a, b, confidence, precision)
        looks = np.arange(PRECISION_LOOK, n + 1, PRECISION_LOOK)
        ok = np.nonzero((hi[looks - 1] - lo[looks - 1]) / 2.0 <= precision)[0]
        if ok.size:
            return int(looks[ok[0]])
        n *= 4
    return None


_ARM_KEYS = ("preset", "settings", "bot", "bot_params")


def compare_to_precision(
    game: str | Game,
    a: dict[str, Any],
    b: dict[str, Any],
    precision: float,
    *,
    games: int = 1_000_000,
    seed: int = 0,
    confidence: float = 0.95,
    **run_kwargs: Any,
) -> PrecisionComparison:
    """Play two configurations on the same seeds until their win-rate difference is known.

    Both arms play games ``0, 1, 2, ...`` of ``seed`` (common random numbers) and the
    anytime-valid interval on the paired difference (an empirical-Bernstein confidence
    sequence, :func:`simlib.core.stats.paired_difference_sequence`) is looked at every
    :data:`PRECISION_LOOK` games; play stops at the first look where its half-width is at
    most ``precision``, or at ``games`` per arm. Only the discordant games (one arm won,
    the other lost) carry the difference, so when the outcomes are correlated this stops
    far sooner than an unpaired comparison would; ``unpaired_games`` says how much sooner.

    Parameters
    ----------
    game : str or Game
        The game.
    a, b : dict
        Each arm's configuration: any of ``preset``, ``settings``, ``bot``, ``bot_params``
        (as in :func:`run`).
    precision : float
        Target half-width of the difference, in (0, 0.5).
    games : int, default 1,000,000
        Cap on games per arm.
    seed : int, default 0
        The seed both arms share.
    confidence : float, default 0.95
        Level of the anytime interval.
    **run_kwargs
        ``backend``, ``scheduler``, ``chunk_size``, ``progress``, ``threads``.

    Returns
    -------
    PrecisionComparison

    """
    from dataclasses import replace

    from simlib.core import stats

    precision = check_precision(precision)
    confidence = stats._check_level(confidence, "confidence")
    unknown = set(run_kwargs) - set(RUN_KWARGS)
    if unknown:
        raise SimlibInputError(
            f"compare_to_precision: unexpected argument '{sorted(unknown)[0]}'; allowed extra "
            "arguments: " + ", ".join(RUN_KWARGS)
        )
    plans = []
    for name, arm in (("a", a), ("b", b)):
        if not isinstance(arm, dict):
            raise SimlibInputError(
                f"{name}: expected a dict with any of {', '.join(_ARM_KEYS)}, not "
                f"{type(arm).__name__}"
            )
        extra = [k for k in arm if k not in _ARM_KEYS]
        if extra:
            raise SimlibInputError(
                f"{name}: unknown key '{extra[0]}'; allowed: {', '.join(_ARM_KEYS)}"
            )
        plans.append(resolve_run(game, games=games, seed=seed, **arm))
    import shutil
    import tempfile

    cap = plans[0].games
    look = PRECISION_LOOK
    tmp = Path(tempfile.mkdtemp(prefix="simlib-compare-"))
    try:
        checked, stop, seq = 0, None, None
        wins_a = wins_b = np.zeros(0, dtype=bool)
        res_a = res_b = None
        while stop is None:
            stage = _paired_stage(checked, wins_a, wins_b, precision, cap)
            res_a = execute(replace(plans[0], games=stage), out=tmp / "a", **run_kwargs)
            res_b = execute(replace(plans[1], games=stage), out=tmp / "b", **run_kwargs)
            wins_a = res_a.df["win"].to_numpy(dtype=bool)
            wins_b = res_b.df["win"].to_numpy(dtype=bool)
            lo, hi = stats.paired_difference_sequence(wins_a, wins_b, confidence, precision)
            looks = [n for n in range(look, stage + 1, look) if n > checked]
            if stage >= cap and (not looks or looks[-1] != cap):
                looks.append(cap)
            for n in looks:
                if (hi[n - 1] - lo[n - 1]) / 2.0 <= precision or n >= cap:
                    stop = n
                    seq = stats.paired_confidence_sequence(
                        wins_a[:n], wins_b[:n], confidence, precision
                    )
                    break
            checked = stage
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    assert res_a is not None and res_b is not None and seq is not None and stop is not None
    arms = []
    for res in (res_a, res_b):
        meta = {**res.meta, "games": stop, "games_present": stop, "complete": True, "out": None}
        arms.append(Results(res.df.iloc[:stop].reset_index(drop=True), meta))
    fixed = stats.compare_paired(
        arms[0].df["win"].to_numpy(bool), arms[1].df["win"].to_numpy(bool), confidence
    )
    return PrecisionComparison(
        a=arms[0],
        b=arms[1],
        sequence=seq,
        comparison=fixed,
        precision=precision,
        stopped="precision" if seq.half_width <= precision else "cap",
        unpaired_games=unpaired_games_needed(fixed.rate_a, fixed.rate_b, precision, confidence),
    )


def _paired_stage(
    done: int, wins_a: np.ndarray, wins_b: np.ndarray, precision: float, cap: int
) -> int:
    """Next stage end for a paired comparison: a guess from the discordant share so far."""
    look = PRECISION_LOOK
    if done == 0:
        return min(cap, 4 * look)
    # The half-width scales like sqrt(var(win_a - win_b) / n); 2x the fixed-n count
    # covers the tuned sequence's premium. Only a schedule: the stop is decided look by look.
    d = wins_a.astype(float) - wins_b.astype(float)
    var = max(float(np.var(d)), 1e-3)
    guess = 2.0 * var * (1.96 / precision) ** 2
    target = max(done + look, min(4 * done, math.ceil(guess / look) * look))
    return min(cap, target)


def execute(
    plan: RunPlan,
    *,
    backend: str = "local",
    scheduler: Any = None,
    chunk_size: int | None = None,
    out: str | os.PathLike | None = None,
    progress: bool | None = None,
    threads: int | None = None,
    desc: str | None = None,
    keep_df: bool = True,
) -> Results:
    """Run a resolved :class:`RunPlan` (see :func:`run` for the arguments).

    A run folder is locked (:func:`simlib.core.folderlock.folder_lock`) while the run
    writes it, and its configuration is checked again under the lock, so a second writer
    is refused instead of mixing its chunks with the first one's.
    """
    check_run_options(backend, scheduler, chunk_size, progress, threads)
    args = (plan, backend, scheduler, chunk_size, progress, threads, desc)
    folder = out_folder(out)
    if folder is None:
        return _execute(*args, None, True)
    check_out(folder, plan)
    folder.mkdir(parents=True, exist_ok=True)
    with folder_lock(folder):
        return _execute(*args, folder, keep_df)


def _execute(
    plan: RunPlan,
    backend: str,
    scheduler: Any,
    chunk_size: int | None,
    progress: bool | None,
    threads: int | None,
    desc: str | None,
    folder: Path | None,
    keep_df: bool,
) -> Results:
    games = plan.games
    stored = check_out(folder, plan) if folder is not None else None

    stored_games = stored["games"] if stored else 0
    target = max(games, stored_games)
    chunks_on_disk = list_chunks(folder) if stored and folder is not None else []
    old_frames: list[pd.DataFrame] = []
    if chunks_on_disk:
        assert folder is not None
        damaged: list[DamagedChunk] = []
        if keep_df:
            old_frames = list(
                iter_chunk_frames(
                    folder, games, plan.game.outcomes, chunks_on_disk, damaged=damaged
                )
            )
        else:  # checked one at a time (two columns), not kept
            for _ in iter_chunk_frames(
                folder, games, plan.game.outcomes, chunks_on_disk, damaged=damaged, columns=[]
            ):
                pass
        for bad in damaged:
            set_damaged_aside(folder, bad)
        gone = {bad.path for bad in damaged}
        chunks_on_disk = [c for c in chunks_on_disk if c[2] not in gone]
    present = present_ranges(chunks_on_disk, games)
    todo_ranges = missing_ranges(present, games)
    done = games - sum(b - a for a, b in todo_ranges)

    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / CHUNK_DIR).mkdir(exist_ok=True)
        all_done = not missing_ranges(present_ranges(chunks_on_disk, target), target)
        _write_run_file(folder, plan, stored, target, all_done)

    frames: list[pd.DataFrame] = []
    checked_room: list[bool] = []

    def finish_chunk(start: int, stop: int, frame: pd.DataFrame) -> None:
        if len(frame) != stop - start or (
            len(frame)
            and (frame["game_index"].iloc[0] != start or frame["game_index"].iloc[-1] != stop - 1)
        ):
            raise RuntimeError(
                f"{plan.game.name}: play_batch(start={start}, count={stop - start}) returned "
                f"{len(frame)} rows not covering game indices {start}..{stop - 1}"
            )
        if folder is not None:
            atomic_write_parquet(frame, folder / CHUNK_DIR / chunk_name(start, stop))
        if not checked_room:
            checked_room.append(True)
            _check_room(plan, frame, games, folder, keep_df)
        if keep_df:
            frames.append(frame)
        bar.update(stop - start)

    if backend == "local" and todo_ranges:
        _say_compiling(plan.game, progress)
    bar = _progress_bar(progress, games, done, desc)
    try:
        if backend == "local":
            if todo_ranges:
                size = chunk_size or min(games, DEFAULT_CHUNK_SIZE)
                values = plan.compile_values()
                compiled = plan.game.compile(values)
                ctx = plan.game.context(values)
                param_vec = np.array(list(plan.params.values()), dtype=np.float64)
                for start, stop in _chunks(todo_ranges, size):
                    records = plan.game.play_batch(
                        compiled, plan.bot.id, param_vec, plan.seed, start, stop - start,
                        threads or max_threads(),
                    )
                    frame = normalize_frame(plan.game.records_to_frame(records, ctx),
                                            plan.game.outcomes)
                    finish_chunk(start, stop, frame)
        elif todo_ranges:
            _run_dask(plan, todo_ranges, scheduler, chunk_size, threads, finish_chunk, folder)
    finally:
        bar.close()

    if folder is not None:
        on_disk = list_chunks(folder)
        frames = old_frames + frames
        all_done = not missing_ranges(present_ranges(on_disk, target), target)
        _write_run_file(folder, plan, read_run_config(folder), target, all_done)
    cfg = plan.config()
    cfg["title"] = plan.game.title or plan.game.name
    cfg["outcomes"] = list(plan.game.outcomes)
    if plan.derived:
        cfg["derived"] = jsonable(plan.derived)
    if not keep_df:
        assert folder is not None
        held = sum(b - a for a, b in present_ranges(list_chunks(folder), games))
        return Results(None, run_meta(cfg, games, held, str(folder)), source=folder)
    df = sort_games(concat_frames(frames, plan.game.outcomes))
    return Results(df, run_meta(cfg, games, len(df), str(folder) if folder else None))


#: Share of the machine's available memory a run's rows may take (``keep_df=True``), and
#: of the out folder's free disk its chunks may take.
ROOM_SHARE = 0.8


def _available_memory() -> int | None:
    """Bytes of memory available to a new allocation (Linux ``MemAvailable``), or None."""
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def _check_room(plan, frame: pd.DataFrame, games: int, folder: Path | None, keep_df: bool) -> None:
    """After the first chunk: stop before the run's rows fill memory or its chunks the disk.

    The first chunk's size a game, times the games still to play, against
    :data:`ROOM_SHARE` of what is free. The chunk is already kept in ``out``.
    """
    rows = max(1, len(frame))
    left = max(0, games - rows)
    kept = f"; the chunk played is kept in {folder}" if folder is not None else ""
    if keep_df:
        need = int(frame.memory_usage(index=False, deep=True).sum() / rows * games)
        free = _available_memory()
        if free is not None and need > ROOM_SHARE * free:
            raise SimlibRunError(
                f"games: {games:,} games need about {need / 2**30:.1f} GiB of memory for their "
                f"rows and {free / 2**30:.1f} GiB is available; give out=DIR with "
                f"keep_df=False (at the command line --out DIR: it keeps only the summary "
                f"in memory), or fewer games{kept}"
            )
    if folder is not None and left:
        import shutil

        written = (folder / CHUNK_DIR / chunk_name(int(frame["game_index"].iloc[0]),
                                                   int(frame["game_index"].iloc[-1]) + 1))
        size = written.stat().st_size if written.is_file() else 0
        need = int(size / rows * left)
        free = shutil.disk_usage(folder).free
        if need > ROOM_SHARE * free:
            raise SimlibRunError(
                f"games: the {left:,} games still to play need about {need / 2**30:.1f} GiB "
                f"of disk in {folder} and {free / 2**30:.1f} GiB is free; free some space or "
                f"play fewer games{kept}"
            )


def _write_run_file(
    folder: Path, plan: RunPlan, stored: dict | None, games: int, complete: bool
) -> None:
    """(Re)write ``run.json`` when it is new or its ``games`` / ``complete`` change."""
    if stored is None or stored.get("games") != games or stored.get("complete") != complete:
        atomic_write_json(folder / RUN_FILE, plan.run_file(games, complete))


def dask_chunk_size(games: int, workers: int) -> int:
    """Games per chunk on ``workers`` Dask workers: every worker gets as many chunks.

    Up to 4 chunks a worker (a lost worker then costs a quarter of its share), fewer when
    chunks would fall below :data:`DASK_MIN_CHUNK_SIZE` games, never more than
    :data:`DEFAULT_CHUNK_SIZE`. A count of chunks that is not a multiple of the workers
    leaves workers idle at the end (5 chunks on 2 workers: one plays 3, the other waits).
    """
    per_worker = max(1, min(4, games // max(1, workers * DASK_MIN_CHUNK_SIZE)))
    return max(1, min(DEFAULT_CHUNK_SIZE, math.ceil(games / (workers * per_worker))))


def _run_dask(plan, ranges, scheduler, chunk_size, threads, finish_chunk, folder) -> None:
    with cluster.dask_client(scheduler) as (client, local):
        if threads is None and local is not None:
            threads = 1
        if chunk_size is None:
            chunk_size = dask_chunk_size(plan.games, cluster.n_workers(client))
        todo = _chunks(ranges, chunk_size)
        token = uuid.uuid4().hex[:12]
        # Workers get the data files' bytes, never a path to reopen in their own folder.
        values = {**plan.values, **plan.data_files}
        where = {}
        futures = []
        try:
            for start, stop in todo:
                fut = client.submit(
                    play_chunk,
                    plan.game,
                    values,
                    plan.bot.name,
                    plan.params,
                    plan.seed,
                    start,
                    stop - start,
                    threads,
                    key=f"simlib-{plan.game.name}-{token}-{start}",
                    pure=False,
                )
                futures.append(fut)
                where[fut.key] = (start, stop)
            for fut in cluster.completed(client, futures, where, folder, len(futures)):
                start, stop = where[fut.key]
                frame = normalize_frame(fut.result(), plan.game.outcomes)
                fut.release()
                finish_chunk(start, stop, frame)
        except BaseException:
            for fut in futures:
                fut.cancel()
            raise


# --- sweeps ---------------------------------------------------------------------------------
def sweep(
    game: str | Game,
    param: str,
    values: Iterable[Any],
    *,
    preset: str | None = None,
    settings: dict[str, Any] | None = None,
    bot: str | None = None,
    bot_params: dict[str, Any] | None = None,
    games: int,
    seed: int = 0,
    out: str | os.PathLike | None = None,
    **run_kwargs: Any,
) -> Results:
    """Run the same configuration for each value of one setting or bot parameter.

    Every value is run with the same ``seed``, so game ``i`` sees the same random stream
    under each value (common random numbers): differences between values are paired.

    Parameters
    ----------
    game : str or Game
        Registry name or ``Game`` object.
    param : str
        A setting name (``"hazard_cards"``) or a bot parameter prefixed with ``"bot."``
        (``"bot.risk"``).
    values : iterable
        The values to run, in order; each is checked (and converted) like the setting.
    preset, settings, bot, bot_params, games, seed
        As in :func:`run`; fixed for every value.
    out : path, optional
        Each value is stored in the run folder ``out/<param>=<value>/`` (resumable), listed
        in ``out/sweep.json``; ``Results.load(out)`` reads the whole sweep back.
    **run_kwargs
        ``backend``, ``scheduler``, ``chunk_size``, ``progress``, ``threads`` as in
        :func:`run`.

    Returns
    -------
    Results
        The runs stacked, with a column named ``param`` holding each row's value (plus
        ``preset`` and ``bot``); ``meta["sweep"] = param``.

    """
    unknown = set(run_kwargs) - set(RUN_KWARGS)
    if unknown:
        raise SimlibInputError(
            f"sweep: unexpected argument '{sorted(unknown)[0]}'; allowed extra arguments: "
            + ", ".join(RUN_KWARGS)
        )
    g = get_game(game)
    if not isinstance(param, str) or not param:
        raise SimlibInputError("param: expected a setting name or 'bot.<parameter>'")
    out = out_folder(out)
    settings = dict(settings or {})
    bot_params = dict(bot_params or {})
    coerced = _sweep_values(g, param, values, bot, settings, bot_params)
    plans = []
    for v in coerced:
        if param.startswith("bot."):
            plan = resolve_run(g, preset=preset, settings=settings, bot=bot,
                               bot_params={**bot_params, param[4:]: v}, games=games, seed=seed)
        else:
            plan = resolve_run(g, preset=preset, settings={**settings, param: v}, bot=bot,
                               bot_params=bot_params, games=games, seed=seed)
        folder = Path(out) / f"{param}={value_label(v)}" if out is not None else None
        if folder is not None:
            check_out(folder, plan)
        plans.append((v, plan, folder))
    check_run_kwargs(run_kwargs)
    if out is not None:
        _check_sweep_folder(Path(out), param)
        Path(out).mkdir(parents=True, exist_ok=True)
        atomic_write_json(
            Path(out) / SWEEP_FILE,
            {
                "simlib_sweep": 1,
                "game": g.name,
                "param": param,
                "values": coerced,
                "cells": [folder.name for _, _, folder in plans if folder is not None],
            },
        )
    with cluster.shared_cluster(run_kwargs) as shared:  # one cluster for every value
        parts = [
            execute(plan, out=folder, desc=f"{param}={value_text(v)}", **shared)
            for v, plan, folder in plans
        ]
    res = Results.concat(parts, include=[param])
    res.meta["sweep"] = param
    return res


def _sweep_values(g: Game, param: str, values: Iterable[Any], bot: str | None,
                  settings: dict[str, Any], bot_params: dict[str, Any]) -> list[Any]:
    """The swept values, each checked like the setting (or bot parameter) it sets.

    Refused in one line: a string or non-iterable, no values, more than
    :data:`MAX_SWEEP_VALUES`, an unknown name, a name also fixed in ``settings`` /
    ``bot_params``, a value given twice, or two values whose folder names would clash.
    """
    if isinstance(values, (str, bytes)):
        raise SimlibInputError(f"values: expected a list of values for '{param}', not a string")
    try:
        values = list(itertools.islice(values, MAX_SWEEP_VALUES + 1))
    except TypeError:
        raise SimlibInputError(f"values: expected a list of values for '{param}'") from None
    if not values:
        raise SimlibInputError(f"values: no values given for '{param}'")
    if len(values) > MAX_SWEEP_VALUES:
        raise SimlibInputError(
            f"values: more than {MAX_SWEEP_VALUES:,} values for '{param}'; a sweep takes at "
            f"most {MAX_SWEEP_VALUES:,} (each value is a whole run)"
        )
    if param.startswith("bot."):
        key = param[4:]
        b = g.bot(bot)
        if key not in b.params:
            allowed = ", ".join(f"bot.{k}" for k in b.params) or "none"
            raise SimlibInputError(
                f"param: '{param}' is not a parameter of bot '{b.name}'; allowed: {allowed}"
            )
        if key in bot_params:
            raise SimlibInputError(f"param: '{param}' is swept; do not also fix it in bot_params")
        coerced = [b.resolve_params({key: v})[key] for v in values]
    else:
        setting = g.setting(param)
        if param in settings:
            raise SimlibInputError(f"param: '{param}' is swept; do not also fix it in settings")
        coerced = [setting.coerce(v) for v in values]
    seen: set[str] = set()
    folders: dict[str, Any] = {}
    for v in coerced:
        label = value_text(v)
        if label in seen:
            raise SimlibInputError(f"values: {label} appears twice for '{param}'")
        seen.add(label)
        name = value_label(v)
        if name in folders:
            raise SimlibInputError(
                f"values: {value_text(folders[name])} and {label} for '{param}' would share the "
                f"folder name '{param}={name}'; use values that differ in letters or digits"
            )
        folders[name] = v
    return coerced


def _check_sweep_folder(folder: Path, param: str) -> None:
    """Refuse a sweep ``out`` folder that holds something other than sweep runs."""
    if (folder / RUN_FILE).exists() and not (folder / SWEEP_FILE).exists():
        raise SimlibInputError(
            f"out folder '{folder}' holds a single run; a sweep needs its own folder"
        )
    existing_record(folder, SWEEP_FILE, "simlib sweep",
                    also_allowed=lambda p: p.is_dir() and "=" in p.name)


# --- comparisons ----------------------------------------------------------------------------
def compare(
    a: Results | str | os.PathLike,
    b: Any,
    *others: Any,
    confidence: float = 0.95,
):
    """Compare win rates: two runs, or one baseline against several runs or cells.

    ``a`` and each other argument are :class:`Results` or folders :meth:`Results.load`
    reads. When two runs were played with the same seed, game ``i`` saw the same random
    stream in both, so the comparison is paired (exact McNemar test on the discordant
    games), which is much narrower: on all games when both played the same ones, else on
    the games both played (a 20,000- and a 5,000-game run of one seed: the first 5,000;
    ``n`` says how many). Otherwise it is unpaired (two independent proportions).

    A sweep, an experiment or any combined results is never pooled into one rate: each
    of its cells is compared on its own. With more than one comparison the result is a
    :class:`Comparisons` table with Holm-adjusted p-values
    (:func:`simlib.core.stats.holm`). The baseline ``a`` must be a single run.

    Parameters
    ----------
    a : Results or path
        The baseline: one run.
    b, *others : Results, path, or a list of them
        The runs (or sweeps / experiments, compared cell by cell) to set against ``a``.
    confidence : float, default 0.95
        Confidence level of the intervals.

    Returns
    -------
    simlib.core.stats.Comparison or Comparisons
        One pair of single runs: a ``Comparison`` with ``diff = rate(a) - rate(b)`` (prints
        as a one-paragraph summary; ``to_dict()`` gives the numbers). Otherwise a
        ``Comparisons`` whose rows are ``diff = rate(cell) - rate(a)``.

    """
    from simlib.core import stats

    if others and isinstance(others[0], float) and not isinstance(b, (list, tuple)):
        # compare(a, b, 0.9): the old positional confidence
        if len(others) == 1:
            confidence, others = others[0], ()
    items: list[Any] = []
    for item in (b, *others):
        items.extend(item if isinstance(item, (list, tuple)) else [item])
    base = a if isinstance(a, Results) else Results.load(a)
    if len(base.meta.get("cells") or []) > 1:
        raise SimlibInputError(
            f"compare: the baseline holds {len(base.meta['cells'])} cells ({base!r}); it must "
            "be one run: pass one cell's folder (e.g. DIR/cells/NAME or DIR/PARAM=VALUE)"
        )
    labelled: list[tuple[str, Results]] = []
    many = len(items) > 1
    for item in items:
        res = item if isinstance(item, Results) else Results.load(item)
        name = str(item) if not isinstance(item, Results) else _run_label(res)
        cells = split_cells(res)
        if len(cells) == 1:
            labelled.append((name, cells[0][1]))
        else:
            many = True
            labelled.extend((f"{name}: {label}", part) for label, part in cells)
    for name, r in [("a", base), *labelled]:
        if len(r.df) == 0 or "win" not in r.df.columns:
            raise SimlibInputError(f"compare: results {name} holds no games")
        if r.meta.get("game") != base.meta.get("game"):
            raise SimlibInputError(
                f"compare: {name} holds {r.meta.get('game')} games and the baseline "
                f"{base.meta.get('game')} games; compare runs of one game"
            )
    if not many:
        return _compare_two(base, labelled[0][1], confidence)
    rows = []
    for name, r in labelled:
        c = _compare_two(r, base, confidence)
        rows.append({"run": name, **c.to_dict(), "paired": c.paired})
    table = pd.DataFrame(rows)
    table["p_holm"] = stats.holm(table["p_value"].to_numpy(dtype=float))
    return Comparisons(table, _run_label(base), confidence)


def _compare_two(ra: Results, rb: Results, confidence: float):
    from simlib.core import stats

    wins_a = ra.df["win"].to_numpy(dtype=bool)
    wins_b = rb.df["win"].to_numpy(dtype=bool)
    if is_paired(ra, rb):
        return stats.compare_paired(wins_a, wins_b, confidence=confidence)
    common = common_games(ra, rb)
    if common is not None:
        # same seed, different game counts: the games both played saw the same random
        # stream; a paired test on them is far narrower than an unpaired one on all
        ia, ib = common
        return stats.compare_paired(wins_a[ia], wins_b[ib], confidence=confidence)
    return stats.compare_unpaired(
        int(wins_a.sum()), len(wins_a), int(wins_b.sum()), len(wins_b), confidence=confidence
    )


def _run_label(res: Results) -> str:
    m = res.meta
    if m.get("cells"):
        return f"{m.get('game')} ({len(m['cells'])} cells)"
    parts = [f"preset={m.get('preset')}", f"bot={m.get('bot')}"]
    return ",".join(parts)


def reproduce_command(meta: Mapping[str, Any]) -> str | None:
    """The ``simlib run`` (or ``simlib sweep``) command that plays these games again.

    Built from a single run's or a sweep's ``meta``: its preset and bot, every setting and
    bot parameter that differs from the preset's and bot's own, games, seed, precision and
    folder. ``None`` for combined results that are not a sweep (an experiment records its
    own command) or a game not registered here.
    """
    import shlex

    try:
        g = get_game(str(meta.get("game")))
    except SimlibInputError:
        return None
    param = meta.get("sweep")
    if "cells" in meta:
        if not param or not meta["cells"]:
            return None
        cells = meta["cells"]
        key = str(param)
        values = [
            (c.get("bot_params") or {}).get(key[4:]) if key.startswith("bot.")
            else (c.get("settings") or {}).get(key)
            for c in cells
        ]
        base = dict(cells[0])
        parts = ["simlib", "sweep", g.name, "--param", key,
                 "--values", ",".join(value_text(v) for v in values)]
    else:
        base = dict(meta)
        parts = ["simlib", "run", g.name]
    preset = base.get("preset") or g.default_preset
    parts += ["--preset", str(preset)]
    try:
        defaults = g.resolve(preset, {})
    except SimlibInputError:
        defaults = {}
    for k, v in (base.get("settings") or {}).items():
        if k != param and (k not in defaults or defaults[k] != v):
            parts += ["--set", f"{k}={value_text(v)}"]
    bot_name = base.get("bot") or g.default_bot
    parts += ["--bot", str(bot_name)]
    try:
        bot_defaults = dict(g.bot(bot_name).params)
    except SimlibInputError:
        bot_defaults = {}
    for k, v in (base.get("bot_params") or {}).items():
        if f"bot.{k}" != param and bot_defaults.get(k) != v:
            parts += ["--bot-param", f"{k}={value_text(v)}"]
    stopping = base.get("stopping")
    games = base.get("games")
    if isinstance(stopping, dict) and "precision" in stopping:
        parts += ["--precision", value_text(stopping["precision"])]
        games = stopping.get("cap", games)
    parts += ["--games", str(games), "--seed", str(base.get("seed", 0))]
    out = meta.get("out") if "cells" not in meta else None
    if out:
        parts += ["--out", str(out)]
    return shlex.join(parts)


def split_cells(res: Results) -> list[tuple[str, Results]]:
    """Split combined results (a sweep, an experiment) back into its single runs.

    Returns ``(label, Results)`` pairs, one per part in order, each label naming the part's
    values of the varying columns (``preset=hard,cavers=5``); a single run is returned as
    the one pair ``("", res)``.
    """
    cells = res.meta.get("cells")
    if not cells:
        return [("", res)]
    lengths = [int(c.get("games_present", c.get("games", 0))) for c in cells]
    if sum(lengths) != len(res.df):
        raise SimlibInputError(
            "compare: these combined results do not record each cell's games; load the "
            "cells' folders one by one"
        )
    varying = list(res.meta.get("varying") or [])
    out: list[tuple[str, Results]] = []
    start = 0
    for cell, n in zip(cells, lengths, strict=True):
        df = res.df.iloc[start : start + n].reset_index(drop=True)
        start += n
        values = []
        for col in varying:
            if col in ("preset", "bot", "seed", "engine_version"):
                values.append(f"{col}={cell.get(col)}")
            elif col.startswith("bot."):
                values.append(f"{col}={value_text((cell.get('bot_params') or {}).get(col[4:]))}")
            else:
                values.append(f"{col}={value_text((cell.get('settings') or {}).get(col))}")
        out.append((",".join(values) or f"cell {len(out) + 1}", Results(df, dict(cell))))
    return out


class Comparisons:
    """One baseline against several runs: a row per run, with Holm-adjusted p-values.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per compared run: ``run``, then the :class:`~simlib.core.stats.Comparison`
        fields with ``a`` = the run and ``b`` = the baseline (``diff = rate - baseline``),
        ``paired`` and ``p_holm`` (Holm's step-down adjustment over all rows: reject where
        ``p_holm < alpha`` and the family-wise error rate stays at ``alpha``).
    baseline : str
        What the baseline is.
    confidence : float
        Level of the intervals (each interval is unadjusted).

    """

    def __init__(self, table: pd.DataFrame, baseline: str, confidence: float):
        self.table = table
        self.baseline = baseline
        self.confidence = confidence

    def __len__(self) -> int:
        """Number of comparisons."""
        return len(self.table)

    def __str__(self) -> str:
        """An aligned text table: run, win rate, difference with CI, p and Holm p."""
        t = self.table
        conf = f"{100 * self.confidence:g}% CI"

        def p_text(p: float) -> str:
            return "< 1e-300" if p == 0 else (f"{p:.1e}" if p < 1e-3 else f"{p:.3g}")

        shown = pd.DataFrame(
            {
                "run": t["run"],
                "games": [f"{n:,}" for n in t["n_a"]],
                "win rate": [f"{r:.1%}" for r in t["rate_a"]],
                "vs baseline": [f"{100 * d:+.1f} pp" for d in t["diff"]],
                conf: [
                    f"[{100 * lo:+.1f}, {100 * hi:+.1f}]"
                    for lo, hi in zip(t["diff_lo"], t["diff_hi"], strict=True)
                ],
                "p": [p_text(p) for p in t["p_value"]],
                "Holm p": [p_text(p) for p in t["p_holm"]],
                "test": t["method"],
            }
        )
        base_rate = t["rate_b"].iloc[0] if len(t) else float("nan")
        head = (
            f"baseline {self.baseline}: win rate {base_rate:.1%}; {len(t)} comparisons, "
            "p-values Holm-adjusted for the family"
        )
        return head + "\n" + shown.to_string(index=False)

    def __repr__(self) -> str:
        return f"Comparisons({len(self)} runs against {self.baseline})"


def common_games(a: Results, b: Results) -> tuple[np.ndarray, np.ndarray] | None:
    """Row positions of the games ``a`` and ``b`` both played, when they share a seed.

    ``None`` when the seeds differ (or are unknown), a run repeats a game index, or no game
    is common. Two runs of one seed and different lengths share their common prefix.
    """
    seed_a, seed_b = a.meta.get("seed"), b.meta.get("seed")
    if seed_a is None or seed_a != seed_b:
        return None
    ia = a.df["game_index"].to_numpy()
    ib = b.df["game_index"].to_numpy()
    if len(np.unique(ia)) != len(ia) or len(np.unique(ib)) != len(ib):
        return None
    _, pos_a, pos_b = np.intersect1d(ia, ib, assume_unique=True, return_indices=True)
    return (pos_a, pos_b) if len(pos_a) else None


def is_paired(a: Results, b: Results) -> bool:
    """Return True when ``a`` and ``b`` share a seed and the same (unique) game indices."""
    seed_a, seed_b = a.meta.get("seed"), b.meta.get("seed")
    if seed_a is None or seed_a != seed_b:
        return False
    ia = a.df["game_index"].to_numpy()
    ib = b.df["game_index"].to_numpy()
    return ia.shape == ib.shape and bool(np.array_equal(ia, ib)) and len(np.unique(ia)) == len(ia)
