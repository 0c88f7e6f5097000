"""Checks of what a caller passes: one clear line naming the key and what is allowed.

Every entry point (``simlib.run``, sweeps, experiments, ladders, the command line) checks
its numbers, execution options and folders with these, so the same input gets the same
message wherever it is given.
"""

from __future__ import annotations

import os
from numbers import Real
from pathlib import Path
from typing import Any

import numpy as np

from simlib.errors import SimlibInputError

__all__ = [
    "BACKENDS",
    "MAX_GAMES",
    "check_games",
    "check_int",
    "check_precision",
    "check_run_kwargs",
    "check_run_options",
    "check_seed",
    "max_threads",
    "out_folder",
]

#: Largest number of games in one run (chunk file names hold 12 digits).
MAX_GAMES = 10**12 - 1
#: Where a run's games are played.
BACKENDS = ("local", "dask")
#: Execution keywords a run, sweep or ladder passes through to :func:`simlib.run`.
RUN_KWARGS = ("backend", "scheduler", "chunk_size", "progress", "threads")


def max_threads() -> int:
    """The most threads numba may use in this process (NUMBA_NUM_THREADS)."""
    import numba

    return int(numba.config.NUMBA_NUM_THREADS)  # type: ignore[attr-defined]


def check_int(
    name: str, value: Any, lo: int, hi: int | None = None, hi_text: str | None = None
) -> int:
    """Return ``value`` as an int in ``lo .. hi``, or raise ``SimlibInputError`` naming ``name``.

    A float with no fraction is taken; a bool never is. ``hi_text`` is how the message
    writes ``hi`` (``"10**12 - 1"``).
    """
    if hi is None:
        allowed = f"an integer >= {lo}"
    else:
        allowed = f"an integer from {lo} to {hi_text or hi}"
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        if isinstance(value, (float, np.floating)) and float(value).is_integer():
            value = int(value)
        else:
            raise SimlibInputError(f"{name}: {value!r} is not allowed; expected {allowed}")
    value = int(value)
    if value < lo or (hi is not None and value > hi):
        raise SimlibInputError(f"{name}: {value} is not allowed; expected {allowed}")
    return value


def out_folder(out: Any, key: str = "out") -> Path | None:
    """Check an ``out`` argument and return it as a path (``~`` expanded), or None."""
    if out is None:
        return None
    if isinstance(out, bool) or not isinstance(out, (str, os.PathLike)):
        raise SimlibInputError(
            f"{key}: expected a folder path (a str or path), got {type(out).__name__} {out!r}"
        )
    text = os.fspath(out)
    if not isinstance(text, str) or not text.strip():
        raise SimlibInputError(f"{key}: expected a folder path, got {out!r}")
    return Path(text).expanduser()


def check_run_kwargs(run_kwargs: dict[str, Any]) -> None:
    """Check the execution keywords (as :func:`run` takes them) a caller passes through."""
    check_run_options(
        run_kwargs.get("backend", "local"),
        run_kwargs.get("scheduler"),
        run_kwargs.get("chunk_size"),
        run_kwargs.get("progress"),
        run_kwargs.get("threads"),
    )


def check_run_options(backend, scheduler, chunk_size, progress, threads) -> None:
    """Check a run's execution options (see :func:`simlib.run`); raise naming the key."""
    if backend not in BACKENDS:
        raise SimlibInputError(
            f"backend: {backend!r} is not allowed; expected one of {', '.join(BACKENDS)}"
        )
    if scheduler is not None and backend != "dask":
        raise SimlibInputError("scheduler: only used with backend='dask'")
    if chunk_size is not None:
        check_int("chunk_size", chunk_size, 1)
    if threads is not None:
        check_int("threads", threads, 1, max_threads())
    if progress not in (None, True, False):
        raise SimlibInputError(
            f"progress: {progress!r} is not allowed; expected True, False or None (automatic)"
        )


def check_precision(precision: Any, name: str = "precision") -> float:
    """Return ``precision`` as a float in (0, 0.5), or raise naming ``name``."""
    if isinstance(precision, bool) or not isinstance(precision, Real):
        raise SimlibInputError(
            f"{name}: {precision!r} is not allowed; expected a half-width in (0, 0.5), "
            "e.g. 0.01 for ±1 point"
        )
    value = float(precision)
    if not 0.0 < value < 0.5:
        raise SimlibInputError(
            f"{name}: {value:g} is not allowed; expected a half-width strictly between 0 "
            "and 0.5, e.g. 0.01 for ±1 point"
        )
    return value


def check_games(value: Any, key: str = "games") -> int:
    """A number of games: an integer from 1 to :data:`MAX_GAMES`."""
    return check_int(key, value, 1, MAX_GAMES, "10**12 - 1")


def check_seed(value: Any, key: str = "seed") -> int:
    """A seed: an integer from 0 to 2**63 - 1."""
    return check_int(key, value, 0, 2**63 - 1, "2**63 - 1")
