"""Sub Terra throughput: games/s, BFS calls/s and the RNG rate, against plain Python.

Every figure is the median of several runs, each in the same warm process; the plain-Python
figures run the very same code with ``NUMBA_DISABLE_JIT=1`` in a subprocess. Games/s are
given by wall clock and by CPU time (``time.process_time``: games per CPU-second times the
threads), which holds up better when other work shares the machine. The start-up lines time
a one-game ``simlib.run`` in a fresh process with an empty numba cache (the cold compile)
and again with the cache filled. The end-to-end line (full mode) times ``simlib.run`` on
1,000,000 games in a fresh process, once with an empty numba cache (compile included) and
once with the cache filled.

Usage::

    python benchmarks/bench_subterra.py            # full (several minutes)
    python benchmarks/bench_subterra.py --quick    # smaller counts, no 1M run
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import run_snippet  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

WORKER = r"""
import json, os, sys, time, statistics
import numpy as np
import numba
from simlib.games.registry import get_game
from numba import njit  # code passed with -c has no file, so these loops cannot be cached
from simlib.core.rng import d6_nb, seed_state_nb
from simlib.core.paths import bfs_fill_nb
from simlib.games.subterra import engine
from simlib.games.subterra.state import GFC, alloc_nb
from simlib.core.rng import new_state

what, n, reps, threads = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
if os.environ.get("NUMBA_DISABLE_JIT") == "1":
    threads = 1  # plain Python holds the GIL: more threads only interleave
elif not threads:
    threads = numba.config.NUMBA_NUM_THREADS
g = get_game("subterra")
params = g.compile(g.resolve("normal", {"cavers": 4}))
bot = g.bot(None)
bp = np.array(list(bot.params.values()), dtype=np.float64)

def timed(fn):
    fn(min(n, 50))  # warm-up (compile or cache load)
    out = []
    for _ in range(reps):
        t = time.perf_counter(); fn(n); out.append(time.perf_counter() - t)
    return statistics.median(out)

if what == "games":
    cpu = []

    def batch(k):
        c = time.process_time()
        g.play_batch(params, bot.id, bp, 0, 0, k, threads)
        if k == n:
            cpu.append(time.process_time() - c)

    sec = timed(batch)
    print(json.dumps({"rate": n / sec, "cpu_rate": n / statistics.median(cpu) * max(threads, 1)}))
elif what == "bfs":
    # a realistic cave: the one left at the end of game 0
    tl, nb, grid, cv, hz, gs, stack, deck, scratch = alloc_nb()
    rng = new_state(0, 0)
    engine.play_one_nb(tl, nb, grid, cv, hz, gs, stack, deck, scratch, params, bot.id, bp, 0, 0,
                       np.zeros(1, engine.record_dt)[0], rng)
    ntile = int(gs[GFC.N_TILES])
    dist = np.empty(nb.shape[0], np.int32); first = np.empty_like(dist); q = np.empty_like(dist)
    blocked = np.zeros(0, np.bool_)

    def loop(k):
        for i in range(k):
            bfs_fill_nb(nb, ntile, i % ntile, blocked, -1, dist, first, q)

    @njit
    def loop_nb(nb, ntile, k, blocked, dist, first, q):
        for i in range(k):
            bfs_fill_nb(nb, ntile, i % ntile, blocked, -1, dist, first, q)

    if os.environ.get("NUMBA_DISABLE_JIT") == "1":
        sec = timed(loop)
    else:
        sec = timed(lambda k: loop_nb(nb, ntile, k, blocked, dist, first, q))
    print(json.dumps({"rate": n / sec, "tiles": ntile}))
elif what == "rng":
    @njit
    def rolls(k):
        s = np.zeros(4, np.uint64); seed_state_nb(0, 0, s); t = 0
        for i in range(k):
            t += d6_nb(s)
        return t
    sec = timed(rolls)
    print(json.dumps({"rate": n / sec}))
"""

START = r"""
import time, sys
t = time.perf_counter(); c = time.process_time()
import simlib
simlib.run("subterra", games=1, seed=1, progress=False)
print(f'{{"seconds": {time.perf_counter() - t}, "cpu": {time.process_time() - c}}}')
"""

END_TO_END = r"""
import time, sys
t = time.perf_counter()
import simlib
res = simlib.run("subterra", games=int(sys.argv[1]), seed=1, progress=False)
el = time.perf_counter() - t
print(f'{{"seconds": {el}, "win_rate": {res.df["win"].mean()}}}')
"""


CHUNKS = r"""
import time, sys, json
import simlib
n = int(sys.argv[1])
simlib.run("subterra", games=2_000, seed=1, progress=False)  # compile or load the cache
out = {}
for size in (10_000, 50_000, 200_000):
    t = time.perf_counter()
    simlib.run("subterra", games=n, seed=1, chunk_size=size, progress=False)
    out[size] = n / (time.perf_counter() - t)
print(json.dumps({"rates": out}))
"""


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args(argv)
    quick = args.quick
    reps = 3 if quick else 5
    n_games = 20_000 if quick else 100_000
    print(f"machine: {os.cpu_count()} logical CPUs; python {sys.version.split()[0]}")
    print("Sub Terra, Normal, 4 cavers, default bot; medians of", reps, "runs")
    print("threads: Python threads over serial nogil kernels, 64 games a block "
          "(simlib.core.blocks; no numba threading layer)\n")

    rows = []
    py = run_snippet(WORKER, ["games", 40 if quick else 100, 3, 0], {"NUMBA_DISABLE_JIT": "1"})
    rows.append(("games/s, plain Python", py["rate"], "-"))
    for th in (1, 2):
        r = run_snippet(WORKER, ["games", n_games, reps, th])
        rows.append((f"games/s, numba, {th} thread{'s' if th > 1 else ''} (wall)", r["rate"],
                     f"{r['rate'] / py['rate']:.0f}x"))
        rows.append((f"games/s, numba, {th} thread{'s' if th > 1 else ''} (CPU time)",
                     r["cpu_rate"], "-"))
    bpy = run_snippet(WORKER, ["bfs", 2_000 if quick else 20_000, 3, 1], {"NUMBA_DISABLE_JIT": "1"})
    bnb = run_snippet(WORKER, ["bfs", 2_000_000, reps, 1])
    rows.append((f"BFS calls/s, plain Python ({bpy['tiles']}-tile cave)", bpy["rate"], "-"))
    rows.append((f"BFS calls/s, numba ({bnb['tiles']}-tile cave)", bnb["rate"],
                 f"{bnb['rate'] / bpy['rate']:.0f}x"))
    rpy = run_snippet(WORKER, ["rng", 200_000, 3, 1], {"NUMBA_DISABLE_JIT": "1"})
    rnb = run_snippet(WORKER, ["rng", 100_000_000, reps, 1])
    rows.append(("d6 rolls/s, plain Python", rpy["rate"], "-"))
    rows.append(("d6 rolls/s, numba", rnb["rate"], f"{rnb['rate'] / rpy['rate']:.0f}x"))

    width = max(len(r[0]) for r in rows)
    print(f"{'measure':<{width}}  {'rate':>14}  {'vs Python':>9}")
    for name, rate, ratio in rows:
        print(f"{name:<{width}}  {rate:>14,.0f}  {ratio:>9}")
    print("\nstart-up, one game through simlib.run in a fresh process:")
    with tempfile.TemporaryDirectory() as cache:
        cold = run_snippet(START, [], {"NUMBA_CACHE_DIR": cache})
        warm = run_snippet(START, [], {"NUMBA_CACHE_DIR": cache})
    print(f"  empty numba cache (cold compile): {cold['seconds']:.1f} s wall, "
          f"{cold['cpu']:.1f} s CPU")
    print(f"  warm numba cache:                 {warm['seconds']:.1f} s wall, "
          f"{warm['cpu']:.1f} s CPU")

    if not quick:
        print("\nchunk size (games per kernel call) through simlib.run, 2 threads, 200,000 "
              "games:")
        r = run_snippet(CHUNKS, [200_000])
        cells = ", ".join(f"{int(k):,}: {v:,.0f}/s" for k, v in r["rates"].items())
        print(f"  {cells}")
        print("\n1,000,000 games through simlib.run (fresh process, wall clock):")
        with tempfile.TemporaryDirectory() as cache:
            cold = run_snippet(END_TO_END, [1_000_000], {"NUMBA_CACHE_DIR": cache})
            warm = run_snippet(END_TO_END, [1_000_000], {"NUMBA_CACHE_DIR": cache})
        print(f"  empty numba cache (compile included): {cold['seconds']:.1f} s")
        print(f"  warm numba cache:                     {warm['seconds']:.1f} s")
        print(f"  win rate {cold['win_rate']:.4f} (same seed both runs: "
              f"{'identical' if cold['win_rate'] == warm['win_rate'] else 'DIFFERENT'})")


if __name__ == "__main__":
    main()
