"""Cold compile of each game: one game through ``simlib.run`` in a fresh process.

Usage::

    python benchmarks/bench_compile.py [GAME ...]

For each game (default: every registered game) a new interpreter plays one game of the
default preset and bot with an empty numba cache (the first run a user sees), then again
with the cache it filled (a warm start). Prints wall and CPU seconds of both, with the
figure the game declares for the first-run message (``Game.compile_seconds``), so a
change that moves the compile time shows beside the number users are told. One thread:
numba compiles on one core whatever the machine has.
"""

from __future__ import annotations

import sys
import tempfile

from _common import run_snippet, source_commit

START = r"""
import sys, time
t = time.perf_counter(); c = time.process_time()
import simlib
simlib.run(sys.argv[1], games=1, seed=1, progress=False, threads=1)
print(f'{{"seconds": {time.perf_counter() - t}, "cpu": {time.process_time() - c}}}')
"""


def measure(name: str) -> dict:
    """Cold and warm start of ``name``: ``{"cold": {...}, "warm": {...}}``.

    Each is ``{"seconds": wall, "cpu": CPU}`` of a fresh interpreter that imports simlib
    and plays one game (:data:`START`); both share a new numba cache, empty for the cold
    one and filled by it for the warm one. ``bench_cost.py`` reports the same figures.
    """
    with tempfile.TemporaryDirectory() as cache:
        env = {"NUMBA_CACHE_DIR": cache, "SIMLIB_PROGRESS": "0"}
        cold = run_snippet(START, [name], env)
        warm = run_snippet(START, [name], env)
    return {"cold": cold, "warm": warm}


def main(argv: list[str]) -> int:
    import argparse

    from simlib.games.registry import game_names, get_game

    ap = argparse.ArgumentParser(description="Cold compile of each game (one game, fresh process).")
    ap.add_argument("game", nargs="*",
                    help=f"games to measure (default: all of {', '.join(game_names())})")
    args = ap.parse_args(argv)
    unknown = [n for n in args.game if n not in game_names()]
    if unknown:
        ap.error(f"unknown game {unknown[0]!r}; allowed: {', '.join(game_names())}")
    names = args.game or list(game_names())
    print(f"cold compile, one game of the default preset and bot (commit {source_commit()})")
    print(f"{'game':<10}  {'cold wall':>9}  {'cold CPU':>8}  {'warm wall':>9}  {'declared':>8}")
    for name in names:
        starts = measure(name)
        cold, warm = starts["cold"], starts["warm"]
        declared = get_game(name).compile_seconds
        print(f"{name:<10}  {cold['seconds']:>8.0f}s  {cold['cpu']:>7.0f}s  "
              f"{warm['seconds']:>8.1f}s  {str(declared or '-') + ('s' if declared else ''):>8}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
