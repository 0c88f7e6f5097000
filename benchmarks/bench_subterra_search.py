"""Sub Terra search bot throughput: games/s per budget on one thread, and the ratio to explorer.

The search bot plays every seat and spends ``budget`` explorer rollouts per decision (see
``simlib/games/subterra/search.py``), so its games are slower than the scripted bots' by
roughly the rollouts a game needs. Each figure is the median of ``--reps`` timed batches in
one warm process (one thread), by wall clock and by CPU time
(``time.process_time``), which holds up better when other work shares the machine.

Usage::

    python benchmarks/bench_subterra_search.py                  # budgets 0,4,16,64
    python benchmarks/bench_subterra_search.py --quick          # budgets 0,4,16, fewer games
    python benchmarks/bench_subterra_search.py --preset expert --budgets 0,16
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from simlib.games.registry import get_game


def rate(game, params, bot_id, bp, n, reps):
    """Median games/s (wall, CPU) over ``reps`` batches of ``n`` games, after a warm-up."""
    game.play_batch(params, bot_id, bp, 1, 0, 2)  # compile or load the cache
    wall, cpu = [], []
    for r in range(reps):
        t, c = time.perf_counter(), time.process_time()
        game.play_batch(params, bot_id, bp, 7, r * n, n)
        wall.append(n / (time.perf_counter() - t))
        cpu.append(n / max(time.process_time() - c, 1e-9))
    return statistics.median(wall), statistics.median(cpu)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preset", default="normal")
    ap.add_argument("--budgets", default=None, help="comma-separated budgets")
    ap.add_argument("--games", type=int, default=None, help="games per timed batch")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    budgets = [int(b) for b in (args.budgets or ("0,4,16" if args.quick else "0,4,16,64"))
               .split(",")]
    g = get_game("subterra")
    params = g.compile(g.resolve(args.preset, {}))
    explorer = g.bot("explorer")
    bp0 = np.array(list(explorer.params.values()), dtype=np.float64)
    n0 = args.games or (200 if args.quick else 1000)
    base, base_cpu = rate(g, params, explorer.id, bp0, n0, args.reps)
    print(f"Sub Terra {args.preset}, 1 thread, median of {args.reps} batches")
    print(f"{'bot':<10} {'budget':>6} {'games/s':>10} {'CPU games/s':>12} {'x explorer':>11}")
    print(f"{'explorer':<10} {'-':>6} {base:>10.1f} {base_cpu:>12.1f} {1.0:>11.4f}")
    search = g.bot("search")
    for b in budgets:
        n = args.games or max(4, int((40 if args.quick else 100) / (1 + b / 4)))
        w, c = rate(g, params, search.id, np.array([float(b)]), n, args.reps)
        print(f"{'search':<10} {b:>6} {w:>10.2f} {c:>12.2f} {c / base_cpu:>11.4f}")


if __name__ == "__main__":
    main()
