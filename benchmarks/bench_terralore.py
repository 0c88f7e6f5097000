"""Terralore throughput: matches/s at 1 and 2 threads, against plain Python.

Every figure is the median of several runs in the same warm process; the plain-Python
figure runs the very same code with ``NUMBA_DISABLE_JIT=1`` in a subprocess. The end-to-end
line times ``simlib.run`` on 1,000,000 matches (the default mirror match) in a fresh
process, once with an empty numba cache (compile included) and once with it filled. The
bar (issue 5): 1,000,000 matches in under 60 s on the 2-core machine.

Usage::

    python benchmarks/bench_terralore.py            # full (a few minutes)
    python benchmarks/bench_terralore.py --quick    # smaller counts, no 1M run
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import GAMES_WORKER, game_args, print_rates, run_snippet  # noqa: E402

END_TO_END = r"""
import time, sys
t = time.perf_counter()
import simlib
res = simlib.run("terralore", games=int(sys.argv[1]), seed=1, progress=False)
el = time.perf_counter() - t
print(f'{{"seconds": {el}, "seat0": {res.df["win"].mean()}}}')
"""


def _rate(n, reps, threads, env=None):
    """Games/s of the default bot in a fresh process (``benchmarks/_common.GAMES_WORKER``)."""
    return run_snippet(GAMES_WORKER, game_args("terralore", None, {}, n, reps, threads, 50), env)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args(argv)
    quick = args.quick
    reps = 3 if quick else 5
    n = 50_000 if quick else 300_000
    print(f"machine: {os.cpu_count()} logical CPUs; python {sys.version.split()[0]}")
    print("Terralore, default mirror match (balanced deck, value bot); medians of", reps,
          "runs\n")
    rows = []
    py = _rate(200 if quick else 1000, 3, 0, {"NUMBA_DISABLE_JIT": "1"})
    rows.append(("matches/s, plain Python", py["rate"], "-"))
    for th in (1, 2):
        r = _rate(n, reps, th)
        rows.append((f"matches/s, numba, {th} thread{'s' if th > 1 else ''} ({r['layer']})",
                     r["rate"], f"{r['rate'] / py['rate']:.0f}x"))
    print_rates(rows, "rate")
    if not quick:
        print("\n1,000,000 matches through simlib.run (fresh process, wall clock):")
        with tempfile.TemporaryDirectory() as cache:
            cold = run_snippet(END_TO_END, [1_000_000], {"NUMBA_CACHE_DIR": cache})
            warm = run_snippet(END_TO_END, [1_000_000], {"NUMBA_CACHE_DIR": cache})
        print(f"  empty numba cache (compile included): {cold['seconds']:.1f} s")
        print(f"  warm numba cache:                     {warm['seconds']:.1f} s")
        bar = "met" if warm["seconds"] < 60 else "NOT met"
        print(f"  bar (under 60 s): {bar}; seat 0 win share {cold['seat0']:.4f} "
              f"({'identical' if cold['seat0'] == warm['seat0'] else 'DIFFERENT'} both runs)")


if __name__ == "__main__":
    main()
