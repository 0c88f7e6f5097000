"""Suite-wide pytest settings.

The suite runs in parallel worker processes (pytest-xdist, ``-n auto --dist loadfile`` in
pyproject.toml): most of its time is numba compiling each game's kernels and tests that run
on one thread, so a second process uses the core the first leaves idle (measured on the
2-core machine: 13 min 52 s against 19 min 59 s one process at a time, the same hour).
``--dist loadfile`` keeps each test file in one process, so the cells a file's tests share
(``functools.cache`` in the bar tests) are still played once. ``pytest -n 0`` runs in one
process (for ``--pdb`` and the like).
"""

from __future__ import annotations

import os

import pytest

# Each worker compiles and holds every game's kernels (up to ~2 GB resident at the peak):
# more than four gains little and costs memory on a big machine.
MAX_WORKERS = 4


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config):
    """Workers for ``-n auto``: one per CPU this process may use, at most ``MAX_WORKERS``.

    ``PYTEST_XDIST_AUTO_NUM_WORKERS`` still decides when it is set (xdist's own hook).
    """
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cpus = os.cpu_count() or 1
    return max(1, min(cpus, MAX_WORKERS))
