"""Terraria throughput: games/s at 1 and 2 threads, against the same code as plain Python.

Every figure is the median of several runs in the same warm process; the plain-Python
figure runs the very same code with ``NUMBA_DISABLE_JIT=1`` in a subprocess. The
end-to-end lines time ``simlib.run`` on 100,000 two-player Medium games (the default bot)
in a fresh process, once with an empty numba cache (compile included) and once with it
filled. The bar (issue 3): 100,000 in under 60 s compile included; aim: 1,000,000 in
under 5 minutes.

Usage::

    python benchmarks/bench_terraria.py            # full (several minutes)
    python benchmarks/bench_terraria.py --quick    # smaller counts, no end-to-end run
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import GAMES_WORKER, game_args, print_rates, run_snippet  # noqa: E402

END_TO_END = r"""
import time, sys, json
t = time.perf_counter()
import simlib
res = simlib.run("terraria", preset="medium", settings={"players": 2},
                 games=int(sys.argv[1]), seed=1, progress=False)
el = time.perf_counter() - t
print(json.dumps({"seconds": el, "win": float(res.df["win"].mean())}))
"""


def _rate(n, reps, threads, env=None):
    """Games/s of the default bot in a fresh process (``benchmarks/_common.GAMES_WORKER``)."""
    args = game_args("terraria", "medium", {"players": 2}, n, reps, threads, 8)
    return run_snippet(GAMES_WORKER, args, env)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args(argv)
    quick = args.quick
    reps = 3 if quick else 5
    n = 2_000 if quick else 20_000
    print(f"machine: {os.cpu_count()} logical CPUs; python {sys.version.split()[0]}")
    print("Terraria, Medium, 2 players, default bot; medians of", reps, "runs\n")
    rows = []
    py = _rate(20 if quick else 60, 3, 0, {"NUMBA_DISABLE_JIT": "1"})
    rows.append(("games/s, plain Python", py["rate"], "-"))
    for th in (1, 2):
        r = _rate(n, reps, th)
        rows.append((f"games/s, numba, {th} thread{'s' if th > 1 else ''} ({r['layer']})",
                     r["rate"], f"{r['rate'] / py['rate']:.0f}x"))
    print_rates(rows, "games/s")
    if not quick:
        print("\n100,000 games through simlib.run (fresh process, wall clock):")
        with tempfile.TemporaryDirectory() as cache:
            cold = run_snippet(END_TO_END, [100_000], {"NUMBA_CACHE_DIR": cache})
            warm = run_snippet(END_TO_END, [100_000], {"NUMBA_CACHE_DIR": cache})
        print(f"  empty numba cache (compile included): {cold['seconds']:.1f} s")
        print(f"  warm numba cache:                     {warm['seconds']:.1f} s")
        bar = "met" if cold["seconds"] < 60 else "NOT met"
        same = "identical" if cold["win"] == warm["win"] else "DIFFERENT"
        print(f"  bar (under 60 s, compile included): {bar}; win rate {cold['win']:.4f} "
              f"({same} both runs)")


if __name__ == "__main__":
    main()
