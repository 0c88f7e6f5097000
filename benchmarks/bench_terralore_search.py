"""Terralore search bot: games/s per budget, and the headroom over ``value``.

Each rung is one ladder rung as the skill ladder plays it: seat 0 the rung's bot, seat 1
``value`` (``Game.ladder_settings()``), the same seeds for every rung, so the differences
between rungs are paired (Newcombe's paired interval, exact McNemar p-value). Games/s is
the wall clock of ``simlib.run`` on the default threads, numba cache warm (a first short
run compiles).

Usage::

    python benchmarks/bench_terralore_search.py                 # 400 games, budgets 0,4,16
    python benchmarks/bench_terralore_search.py --games 100 --budgets 0,4
    python benchmarks/bench_terralore_search.py --deck0 fire_rush --deck1 balanced
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numba

import simlib
from simlib.core.stats import compare_paired, wilson_interval
from simlib.games.registry import get_game


def rung(budget, games, seed, settings):
    """One rung: (label, results frame, seconds). Budget -1 is ``value`` itself."""
    bot, params = ("value", {}) if budget < 0 else ("search", {"budget": budget})
    s = {**get_game("terralore").ladder_settings(), **settings}
    t = time.perf_counter()
    df = simlib.run("terralore", settings=s, bot=bot, bot_params=params, games=games,
                    seed=seed, progress=False).df
    label = "value" if budget < 0 else f"search@{budget}"
    return label, df, time.perf_counter() - t


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--budgets", default="0,4,16")
    ap.add_argument("--deck0", default="default")
    ap.add_argument("--deck1", default="default")
    args = ap.parse_args(argv)
    budgets = [int(b) for b in args.budgets.split(",")]
    settings = {"deck0": args.deck0, "deck1": args.deck1}
    print(f"machine: {os.cpu_count()} logical CPUs, {numba.get_num_threads()} numba threads; "
          f"python {sys.version.split()[0]}")
    print(f"Terralore, seat 0 the rung's bot, seat 1 value; decks {args.deck0} / "
          f"{args.deck1}; {args.games} games, seed {args.seed}\n")
    for b in sorted(set(budgets)):  # compile every kernel before timing
        rung(b if b > 0 else 0, 2, 1, settings)
    rung(-1, 2, 1, settings)
    base_label, base, base_t = rung(-1, args.games, args.seed, settings)
    rows = [(base_label, base, base_t)]
    rows += [rung(b, args.games, args.seed, settings) for b in budgets]
    print(f"{'bot at seat 0':<12} {'win':>6} {'95% Wilson':>15} {'draws':>6} "
          f"{'cards':>6} {'vs value (paired 95%)':>24} {'games/s':>9}")
    for label, df, sec in rows:
        n = len(df)
        k = int(df["win"].sum())
        lo, hi = wilson_interval(k, n)
        draws = float((df["winner"] < 0).mean())
        if label == base_label:
            vs = "-"
        else:
            c = compare_paired(df["win"].to_numpy(bool), base["win"].to_numpy(bool))
            vs = f"{c.diff:+.3f} [{c.diff_lo:+.3f}, {c.diff_hi:+.3f}]"
        print(f"{label:<12} {k / n:>6.3f} {f'[{lo:.3f}, {hi:.3f}]':>15} {draws:>6.3f} "
              f"{df['cards_played0'].mean():>6.2f} {vs:>24} {n / sec:>9.1f}")


if __name__ == "__main__":
    main()
