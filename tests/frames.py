"""Comparing playthrough frames by the games' own columns."""

from __future__ import annotations

import hashlib

import numpy as np
import pandas as pd

from simlib.core.results import RUN_COLUMNS


def game_rows(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` without the run's ``preset`` and ``bot`` columns (``Results.df`` adds them).

    Two bots that play the same games (a search at budget 0 and the bot it falls back to)
    or a frame built from records compare on what the games recorded.
    """
    return df.drop(columns=[c for c in RUN_COLUMNS if c in df.columns])


def assert_same_games(a: pd.DataFrame, b: pd.DataFrame, **kwargs) -> None:
    """``pandas.testing.assert_frame_equal`` over :func:`game_rows` of both frames."""
    pd.testing.assert_frame_equal(game_rows(a), game_rows(b), **kwargs)


def records_digest(records: np.ndarray) -> str:
    """sha1 over a record array's fields, one after another (padding bytes left out).

    The record fingerprints (``test_*_fingerprints.py``) store these per cell.
    """
    h = hashlib.sha1()
    for name in records.dtype.names or ():
        h.update(name.encode())
        h.update(np.ascontiguousarray(records[name]).tobytes())
    return h.hexdigest()
