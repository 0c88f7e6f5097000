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
from _common import print_rates, run_snippet  # noqa: E402

WORKER = r"""
import json, os, sys, time, statistics
import numpy as np
import numba
from simlib.games.registry import get_game

n, reps, threads = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
jit = os.environ.get("NUMBA_DISABLE_JIT") != "1"
if threads and jit:
    numba.set_num_threads(threads)
g = get_game("terraria")
compiled = g.compile(g.resolve("medium", {"players": 2}))
bot = g.bot(None)
bp = np.array(list(bot.params.values()), dtype=np.float64)

def timed(fn):
    fn(min(n, 8))  # warm-up (compile or cache load)
    out = []
    for _ in range(reps):
        t = time.perf_counter(); fn(n); out.append(time.perf_counter() - t)
    return statistics.median(out)

sec = timed(lambda k: g.play_batch(compiled, bot.id, bp, 0, 0, k))
print(json.dumps({"rate": n / sec, "layer": numba.threading_layer() if jit else "-"}))
"""

END_TO_END = r"""
import time, sys, json
t = time.perf_counter()
import simlib
res = simlib.run("terraria", preset="medium", settings={"players": 2},
                 games=int(sys.argv[1]), seed=1, progress=False)
el = time.perf_counter() - t
print(json.dumps({"seconds": el, "win": float(res.df["win"].mean())}))
"""


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
    py = run_snippet(WORKER, [20 if quick else 60, 3, 0], {"NUMBA_DISABLE_JIT": "1"})
    rows.append(("games/s, plain Python", py["rate"], "-"))
    for th in (1, 2):
        r = run_snippet(WORKER, [n, reps, th])
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
