"""Terraria's search bot: games/s per budget, beside the default bot ``builder``.

A search game plays, at every turn, ``budget`` rollouts of each of 3 candidate plans to the
end of the game (fewer where racing or twin turns save some), so its cost grows about
linearly with the budget and with the game's length. Each figure is one timed batch of
``--games`` games (seed 0, 2 players) in one warm process, after a warm-up batch of 2.

Usage::

    python benchmarks/bench_terraria_search.py                       # medium, budgets 0,2,8
    python benchmarks/bench_terraria_search.py --preset hard --budgets 0,2,4 --games 8
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def main() -> None:
    """Print games/s of the search bot at each budget (and of builder)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preset", default="medium")
    ap.add_argument("--budgets", default="0,2,8")
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--threads", type=int, default=0, help="numba threads (0: default)")
    args = ap.parse_args()
    import numba

    from simlib.games.registry import get_game

    threads = args.threads or numba.config.NUMBA_NUM_THREADS
    g = get_game("terraria")
    compiled = g.compile(g.resolve(args.preset, {}))
    builder = g.bot("builder")
    bp = np.array(list(builder.params.values()), dtype=np.float64)
    search = g.bot("search")
    rows = [("builder", builder.id, bp)]
    rows += [(f"search budget {b}", search.id, np.array([float(b)]))
             for b in (int(x) for x in args.budgets.split(","))]
    print(f"terraria {args.preset}, {args.games} games a row, "
          f"{threads} threads")
    print(f"{'bot':<20} {'games/s':>10} {'s/game':>10}")
    for name, bid, params in rows:
        g.play_batch(compiled, bid, params, 0, 0, 2)  # compile or load from cache
        t = time.perf_counter()
        g.play_batch(compiled, bid, params, 0, 0, args.games, threads)
        dt = time.perf_counter() - t
        print(f"{name:<20} {args.games / dt:>10.3f} {dt / args.games:>10.3f}", flush=True)


if __name__ == "__main__":
    main()
