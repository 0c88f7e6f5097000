"""Shared checks of the data-file validation tests: a refusal is one line naming the file."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from simlib.errors import SimlibInputError


def assert_refused_in_one_line(
    load: Callable[[str], object], path: Path, body: str, fragments: Sequence[str]
) -> None:
    """Write ``body`` to ``path``; ``load(path)`` must refuse it in one line naming the data
    file and holding every one of ``fragments``."""
    path.write_text(body, encoding="utf-8")
    with pytest.raises(SimlibInputError) as err:
        load(str(path))
    message = str(err.value)
    assert "\n" not in message and f"data file '{path}'" in message, message
    for fragment in fragments:
        assert fragment in message, message
