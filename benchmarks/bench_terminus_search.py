"""Terminus Breach TD search bot: games/s per budget, and the headroom over the builder.

For each preset the script plays the same games (seed, game indices 0..N-1) with the
default scripted bot ``builder`` and with the ``search`` bot at each budget, and prints

- games/s per budget (wall clock of ``simlib.run`` after a warm-up run that compiles or
  loads the kernels; the machine's threads, ``--threads`` to fix them);
- the table of the README: survival (win rate) with its 95% Wilson interval and the
  paired difference from the builder (``simlib.compare``, same seeds: paired) with its
  95% interval.

Usage::

    python benchmarks/bench_terminus_search.py                 # 400 games, budgets 4,16
    python benchmarks/bench_terminus_search.py --quick         # 40 games, budgets 0,4
    python benchmarks/bench_terminus_search.py --games 400 --budgets 4,16 --seed 2026 \
        --set clear_board=true --set final_vp_buy=all      # the README table
"""

from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("SIMLIB_PROGRESS", "0")

import simlib  # noqa: E402
from simlib.core.stats import wilson_interval  # noqa: E402


def main() -> None:
    """Run the ladder and print its rates and table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--budgets", default="4,16")
    ap.add_argument("--presets", default="normal,heroic,legendary")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="a game setting for every run (repeatable), e.g. clear_board=true")
    ap.add_argument("--quick", action="store_true", help="40 games, budgets 0 and 4")
    a = ap.parse_args()
    games, budgets = a.games, [int(b) for b in a.budgets.split(",")]
    if a.quick:
        games, budgets = 40, [0, 4]
    presets = a.presets.split(",")
    settings: dict[str, object] = {}
    for item in a.set:
        key, _, value = item.partition("=")
        settings[key] = {"true": True, "false": False}.get(value.lower(), value)

    def run(preset: str, bot: str, params: dict | None, n: int) -> simlib.Results:
        return simlib.run("terminus", preset=preset, settings=settings, bot=bot,
                          bot_params=params, games=n, seed=a.seed, threads=a.threads,
                          progress=False)

    run(presets[0], "search", {"budget": 1}, 2)  # compile or load the kernels
    rows = []
    rates: dict[str, list[float]] = {"builder": []}
    for preset in presets:
        t = time.perf_counter()
        base = run(preset, "builder", None, games)
        rates["builder"].append(games / (time.perf_counter() - t))
        rows.append((preset, "builder", "-", base, None))
        for budget in budgets:
            t = time.perf_counter()
            res = run(preset, "search", {"budget": budget}, games)
            rates.setdefault(f"search {budget}", []).append(games / (time.perf_counter() - t))
            rows.append((preset, "search", str(budget), res, simlib.compare(res, base)))
    print(f"games/s (Terminus, 2 players, {games} games per preset, "
          f"{a.threads or 'all'} threads, presets {', '.join(presets)}):")
    for name, r in rates.items():
        print(f"  {name:<12} " + "  ".join(f"{x:,.1f}" for x in r))
    print()
    print("| map | bot | budget | survival | 95% CI | search - builder (paired) | 95% CI |"
          "\n|---|---|---|---|---|---|---|")
    for preset, bot, budget, res, cmp in rows:
        w = res.df["win"].to_numpy(bool)
        lo, hi = wilson_interval(int(w.sum()), len(w))
        diff = "-" if cmp is None else f"{100 * cmp.diff:+.1f} pp"
        ci = "-" if cmp is None else f"[{100 * cmp.diff_lo:+.1f}, {100 * cmp.diff_hi:+.1f}]"
        print(f"| {preset} | {bot} | {budget} | {100 * w.mean():.1f}% | "
              f"[{100 * lo:.1f}%, {100 * hi:.1f}%] | {diff} | {ci} |")


if __name__ == "__main__":
    main()
