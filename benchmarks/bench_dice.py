"""Dice kernels: sampled duels/s and exact distributions/s, numba against plain Python.

Every figure is the median of several timed runs in one warm process; the plain-Python
figures run the very same kernels with ``NUMBA_DISABLE_JIT=1`` in a subprocess.

Measures, for a few pools (attack vs defence, bonus icons):

- sampled duels/s: ``sample_duels_nb`` (one ``duel_nb`` per duel, one generator stream);
- sampled falls/s: ``sample_falls_nb``;
- exact distributions/s: ``duel_pmf_nb`` called in a jitted loop (what an engine or table
  builder pays per distribution), the public ``duel_distribution`` (validation included),
  and ``duel_fractions`` (exact rationals with Python integers).

Usage::

    python benchmarks/bench_dice.py            # full (about a minute)
    python benchmarks/bench_dice.py --quick    # smaller counts (a few seconds)
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

WORKER = r"""
import json, os, sys, time, statistics
import numpy as np
from simlib.core import dice

what, n, reps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
attack = np.array(json.loads(sys.argv[4]), np.int64)
defense = np.array(json.loads(sys.argv[5]), np.int64)
ab, db = int(sys.argv[6]), int(sys.argv[7])
plain = os.environ.get("NUMBA_DISABLE_JIT") == "1"

def timed(fn):
    fn(min(n, 20))  # warm-up (compile or cache load)
    out = []
    for _ in range(reps):
        t = time.perf_counter(); fn(n); out.append(time.perf_counter() - t)
    return statistics.median(out)

if what == "duels":
    counts = np.zeros(attack.shape[0] + 1, np.int64)
    sec = timed(lambda k: dice.sample_duels_nb(attack, defense, ab, db, np.uint64(1), k, counts))
elif what == "falls":
    sec = timed(lambda k: dice.sample_falls_nb(defense, 7, np.uint64(1), k))
elif what == "pmf_kernel":
    out = np.empty(attack.shape[0] + 1)
    if plain:
        def loop(k):
            for _ in range(k):
                dice.duel_pmf_nb(attack, defense, ab, db, out)
        sec = timed(loop)
    else:
        from numba import njit  # code passed with -c has no file, so this loop is not cached

        @njit
        def loop_nb(k, attack, defense, ab, db, out):
            for _ in range(k):
                dice.duel_pmf_nb(attack, defense, ab, db, out)
        sec = timed(lambda k: loop_nb(k, attack, defense, ab, db, out))
elif what == "public":
    a, d = attack.tolist(), defense.tolist()
    def loop(k):
        for _ in range(k):
            dice.duel_distribution(a, d, ab, db)
    sec = timed(loop)
elif what == "fractions":
    a, d = attack.tolist(), defense.tolist()
    def loop(k):
        for _ in range(k):
            dice.duel_fractions(a, d, ab, db)
    sec = timed(loop)
print(json.dumps({"rate": n / sec}))
"""

POOLS = [
    # name, attack, defence, attack bonus, defence bonus
    ("d6 vs d6", [6], [6], 0, 0),
    ("2d6+2 vs d8", [6, 6], [8], 2, 0),
    ("d12 d8 d4 +1 vs 2d6 +1", [12, 8, 4], [6, 6], 1, 1),
    ("mob 8d8 vs 3d12 +2", [8] * 8, [12, 12, 12], 0, 2),
    ("2d20 vs d20 +3", [20, 20], [20], 0, 3),
]


def _run(args, env_extra=None, timeout=1800):
    env = dict(os.environ)
    env.pop("NUMBA_DISABLE_JIT", None)
    env.update(env_extra or {})
    # plain-Python mode warns on the generator's intended uint64 wrap-around
    out = subprocess.run(
        [sys.executable, "-W", "ignore::RuntimeWarning", "-c", WORKER, *map(str, args)],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if out.returncode != 0:
        raise RuntimeError(out.stderr[-2000:])
    return json.loads(out.stdout.strip().splitlines()[-1])["rate"]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="smaller counts, 3 runs each")
    args = ap.parse_args(argv)
    quick = args.quick
    reps = 3 if quick else 5
    scale = 1 if quick else 10
    plain_jit = {"NUMBA_DISABLE_JIT": "1"}
    print(
        f"machine: {os.cpu_count()} logical CPUs; python {sys.version.split()[0]}; "
        f"one thread; medians of {reps} runs\n"
    )
    rows = []
    for name, a, d, ab, db in POOLS:
        pool = [json.dumps(a), json.dumps(d), ab, db]
        nb = _run(["duels", 2_000_000 * scale, reps, *pool])
        py = _run(["duels", 4_000 * scale, reps, *pool], plain_jit)
        rows.append((f"{name}: sampled duels/s", nb, py))
        nb = _run(["pmf_kernel", 200_000 * scale, reps, *pool])
        py = _run(["pmf_kernel", 200 * scale, reps, *pool], plain_jit)
        rows.append((f"{name}: exact distributions/s, kernel", nb, py))
        pub = _run(["public", 5_000 * scale, reps, *pool])
        rows.append((f"{name}: exact distributions/s, duel_distribution()", pub, None))
        fr = _run(["fractions", 500 * scale, reps, *pool])
        rows.append((f"{name}: exact distributions/s, duel_fractions()", fr, None))
    pool = [json.dumps([6]), json.dumps([6, 6]), 0, 0]
    rows.append(
        (
            "2d6 fall of 7: sampled falls/s",
            _run(["falls", 2_000_000 * scale, reps, *pool]),
            _run(["falls", 4_000 * scale, reps, *pool], plain_jit),
        )
    )

    width = max(len(r[0]) for r in rows)
    print(f"{'measure':<{width}}  {'numba':>14}  {'plain Python':>13}  {'ratio':>7}")
    for name, nb, py in rows:
        py_s = f"{py:>13,.0f}" if py else f"{'-':>13}"
        ratio = f"{nb / py:>6,.0f}x" if py else f"{'-':>7}"
        print(f"{name:<{width}}  {nb:>14,.0f}  {py_s}  {ratio}")
    print(
        "\n'plain Python' runs the same kernels with NUMBA_DISABLE_JIT=1; duel_distribution()"
        "\nand duel_fractions() are Python entry points (validation; integers for fractions)."
    )


if __name__ == "__main__":
    main()
