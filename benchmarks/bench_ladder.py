"""Skill ladder throughput: games/s of the search bot per budget, as a ratio to budget 0.

For every game that has a ``search`` bot (games without one are listed as skipped), plays
the ladder with the default bot and the search bot at each budget on one thread
(``simlib.ladder(..., threads=1)``) and prints the ladder's own timing: games/s after an
untimed warm-up (compiling excluded), the ratio to budget 0, and the minutes 400 games per
rung at that budget take (the speed bar of the search bot: 400 games per rung at budget 16
within minutes on the 2-core machine). Win rates are printed beside, with their 95% Wilson
interval, so a figure shows which games it timed.

Usage::

    python benchmarks/bench_ladder.py                          # every game, budgets 0,4,16
    python benchmarks/bench_ladder.py --game subterra --budgets 0,4,16,64 --games 100
    SIMLIB_EXTRA_GAMES=toygame:LADDER_GAME PYTHONPATH=tests:. \\
        python benchmarks/bench_ladder.py --game toyladder     # the test suite's toy game
"""

from __future__ import annotations

import argparse
import os
import sys

os.environ.setdefault("SIMLIB_PROGRESS", "0")

#: Games the ladder is sized for when estimating the time of a rung.
RUNG_GAMES = 400


def main(argv=None) -> int:
    """Run the benchmark; return the exit status."""
    import simlib
    from simlib.cli import load_extra_games, parse_budgets
    from simlib.core.ladder import SEARCH_BOT
    from simlib.games.registry import game_names, get_game

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", action="append", help="game (repeatable; default every game)")
    p.add_argument("--budgets", default="0,4,16", help="search budgets (default 0,4,16)")
    p.add_argument("--games", type=int, default=100, help="games per rung (default 100)")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    load_extra_games()
    budgets = parse_budgets(args.budgets)
    names = args.game or [n for n in game_names() if not n.startswith("toy")]
    print(f"skill ladder throughput: 1 thread, {args.games} games per rung, seed {args.seed}, "
          "default preset; games/s after a warm-up")
    for name in names:
        g = get_game(name)
        if SEARCH_BOT not in [b.name for b in g.bots]:
            print(f"\n{name}: skipped (no '{SEARCH_BOT}' bot)")
            continue
        lad = simlib.ladder(name, budgets=budgets, games=args.games, seed=args.seed,
                            bots=[g.default_bot], threads=1, progress=False)
        t = lad.table()
        base = t[t["budget"] == budgets[0]]["games_per_sec"].iloc[0]
        print(f"\n{name} ({g.title}), preset {lad.presets[0]}:")
        print(f"  {'rung':<12} {'games/s':>10} {'vs budget ' + str(budgets[0]):>14} "
              f"{'min/400 games':>14}  win rate [95% CI]")
        for row in t.itertuples():
            ratio = f"{row.games_per_sec / base:.3f}" if base > 0 else "n/a"
            minutes = RUNG_GAMES * row.sec_per_game / 60.0
            print(f"  {row.rung:<12} {row.games_per_sec:>10,.1f} {ratio:>14} {minutes:>14.2f}  "
                  f"{row.win_rate:.1%} [{row.win_lo:.1%}, {row.win_hi:.1%}]")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    raise SystemExit(main())
