"""Terminus Breach TD throughput: games/s and Drakka advance steps/s, against plain Python.

Every figure is the median of several runs, each in the same warm process; the plain-Python
figures run the very same code with ``NUMBA_DISABLE_JIT=1`` in a subprocess. Rates are
wall clock (``perf_counter``) and CPU time of the process (``process_time``, 1 thread
only): on a shared machine the CPU-time figure is what the code costs, the wall-clock one
what a user waits. The end-to-end line times ``simlib.run`` on 1,000,000 two-player Normal
games in a fresh process, once with an empty numba cache (compile included) and once with
the cache filled.

The advance figure replays the Advance phase of a mid-game board (the board after Battle 3
of game 0, restored before every phase, restore included) and counts Drakka moves.

Usage::

    python benchmarks/bench_terminus.py            # full (a few minutes)
    python benchmarks/bench_terminus.py --quick    # smaller counts, no 1M run
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import run_snippet  # noqa: E402

WORKER = r"""
import json, os, sys, time, statistics
import numpy as np
import numba
from numba import njit  # code passed with -c has no file, so these loops cannot be cached
from simlib.games.registry import get_game
from simlib.games.terminus import engine
from simlib.games.terminus.move import advance_all_nb
from simlib.games.terminus.state import GSC, alloc
from simlib.core.rng import new_state

what, n, reps, threads = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
plain = os.environ.get("NUMBA_DISABLE_JIT") == "1"
if plain:
    threads = 1  # plain Python holds the GIL: more threads only interleave
elif not threads:
    threads = numba.config.NUMBA_NUM_THREADS
g = get_game("terminus")
params = g.compile(g.resolve("normal", {"players": 2}))
bot = g.bot(None)
bp = np.array(list(bot.params.values()), dtype=np.float64)

def timed(fn):
    fn(min(n, 50))  # warm-up (compile or cache load)
    wall, cpu = [], []
    for _ in range(reps):
        t, c = time.perf_counter(), time.process_time()
        fn(n)
        wall.append(time.perf_counter() - t); cpu.append(time.process_time() - c)
    return statistics.median(wall), statistics.median(cpu)

if what == "games":
    wall, cpu = timed(lambda k: g.play_batch(params, bot.id, bp, 0, 0, k, threads))
    layer = "Python threads, nogil blocks" if not plain else "-"
    print(json.dumps({"rate": n / wall, "cpu_rate": n / cpu, "layer": layer}))
elif what == "advance":
    dk, occ, tw, bl, pl, hand, fdeck, deck, gs, scr = alloc()
    rng = new_state(0, 0)
    engine.setup_nb(dk, occ, tw, bl, pl, hand, fdeck, deck, gs, params, bot.id, bp, rng)
    for b in range(1, 4):
        for w in range(1, 4):
            gs[GSC.WAVE] = w
            engine.play_wave_nb(dk, occ, tw, bl, pl, hand, fdeck, deck, gs, params, 1, bot.id,
                                bp, rng)
        if b < 3:
            engine.lull_nb(dk, tw, pl, deck, gs, params, b, bp, rng)
    cfg, slow = params[0], params[18]
    path_len = int(cfg[engine.CFG_PATH_LEN])
    dk0, occ0 = dk.copy(), occ.copy()
    on_path = int((dk0[:, 1] == 2).sum())

    def loop(k):
        for _ in range(k):
            dk[:, :] = dk0
            occ[:, :] = occ0
            gs[GSC.PANIC] = 0
            advance_all_nb(dk, occ, pl, gs, path_len, slow, 0, 1, 1 << 30)

    @njit
    def loop_nb(dk, occ, dk0, occ0, pl, gs, path_len, slow, k):
        for _ in range(k):
            dk[:, :] = dk0
            occ[:, :] = occ0
            gs[5] = 0
            advance_all_nb(dk, occ, pl, gs, path_len, slow, 0, 1, 1 << 30)

    gs[GSC.ADV_STEPS] = 0
    if plain:
        loop(1)
    else:
        loop_nb(dk, occ, dk0, occ0, pl, gs, path_len, slow, 1)
    per_phase = int(gs[GSC.ADV_STEPS])
    if plain:
        wall, cpu = timed(loop)
    else:
        wall, cpu = timed(lambda k: loop_nb(dk, occ, dk0, occ0, pl, gs, path_len, slow, k))
    print(json.dumps({"rate": n * per_phase / wall, "cpu_rate": n * per_phase / cpu,
                      "drakka": on_path, "steps": per_phase}))
"""

END_TO_END = r"""
import time, sys
t = time.perf_counter()
import simlib
res = simlib.run("terminus", settings={"players": 2}, games=int(sys.argv[1]), seed=1,
                 progress=False)
el = time.perf_counter() - t
print(f'{{"seconds": {el}, "win_rate": {res.df["win"].mean()}}}')
"""


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args(argv)
    quick = args.quick
    reps = 3 if quick else 5
    n_games = 20_000 if quick else 100_000
    print(f"machine: {os.cpu_count()} logical CPUs; python {sys.version.split()[0]}")
    print("Terminus Breach TD, Normal, 2 players, default bot; medians of", reps, "runs\n")

    rows = []
    py = run_snippet(WORKER, ["games", 10 if quick else 40, 3, 0], {"NUMBA_DISABLE_JIT": "1"})
    rows.append(("games/s, plain Python", py["rate"], py["cpu_rate"], "-"))
    for th in (1, 2):
        r = run_snippet(WORKER, ["games", n_games, reps, th])
        rows.append((f"games/s, numba, {th} thread{'s' if th > 1 else ''} ({r['layer']})",
                     r["rate"], r["cpu_rate"] if th == 1 else float("nan"),
                     f"{r['rate'] / py['rate']:.0f}x"))
    apy = run_snippet(WORKER, ["advance", 50 if quick else 300, 3, 1], {"NUMBA_DISABLE_JIT": "1"})
    anb = run_snippet(WORKER, ["advance", 200_000 if quick else 1_000_000, reps, 1])
    label = f"advance steps/s ({anb['drakka']} Drakka on the path, {anb['steps']} moves)"
    rows.append((label + ", plain Python", apy["rate"], apy["cpu_rate"], "-"))
    rows.append((label + ", numba", anb["rate"], anb["cpu_rate"],
                 f"{anb['rate'] / apy['rate']:.0f}x"))

    width = max(len(r[0]) for r in rows)
    print(f"{'measure':<{width}}  {'wall rate':>12}  {'CPU rate':>12}  {'vs Python':>9}")
    for name, rate, cpu, ratio in rows:
        cpu_s = "-" if cpu != cpu else f"{cpu:,.0f}"
        print(f"{name:<{width}}  {rate:>12,.0f}  {cpu_s:>12}  {ratio:>9}")

    if not quick:
        print("\n1,000,000 two-player Normal games through simlib.run (fresh process, wall):")
        with tempfile.TemporaryDirectory() as cache:
            cold = run_snippet(END_TO_END, [1_000_000], {"NUMBA_CACHE_DIR": cache})
            warm = run_snippet(END_TO_END, [1_000_000], {"NUMBA_CACHE_DIR": cache})
        print(f"  empty numba cache (compile included): {cold['seconds']:.1f} s")
        print(f"  warm numba cache:                     {warm['seconds']:.1f} s")
        print(f"  win rate {cold['win_rate']:.4f} (same seed both runs: "
              f"{'identical' if cold['win_rate'] == warm['win_rate'] else 'DIFFERENT'})")


if __name__ == "__main__":
    main()
