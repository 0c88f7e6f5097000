"""Terraria world and movement kernels: worlds generated/s and movement actions/s.

There is no playable Terraria game yet, so this measures the foundations a playthrough
pays for: ``generate_world_nb`` (one game's world: the evil biome, the minimap order and
85 tile draws, copied square by square) and the movement kernels (``step_nb`` with its
falls, ``dig_nb``, ``fall_hurts_nb``) driven by a random explorer: each game places 2
characters on the butterfly squares and makes ``actions`` random actions (a step in a
random direction, or 1 dig on a random neighbour), rolling fall damage for every fall.

Every figure is the median of several timed runs in one warm process; the plain-Python
figure runs the very same kernels with ``NUMBA_DISABLE_JIT=1`` in a subprocess.

Usage::

    python benchmarks/bench_terraria_world.py            # about half a minute
    python benchmarks/bench_terraria_world.py --quick    # a few seconds
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np

from simlib.core.jit import njit
from simlib.core.rng import randint_nb, seed_state_nb
from simlib.games.terraria.compile import compile_world, load_world
from simlib.games.terraria.engine import movement as mv
from simlib.games.terraria.engine import world
from simlib.games.terraria.state import FEAT, KIND, PC, P


@njit
def explore_nb(tpl, stock, stock_n, start, res_dig, seed, games, actions, out):
    """Generate ``games`` worlds and make ``actions`` random actions in each.

    ``out`` int64 (4,) written: falls, fall damage, discoveries, successful actions.
    """
    h = tpl.shape[2]
    w = tpl.shape[3]
    grid = np.zeros((P.N, 5 * h, 17 * w), dtype=np.int16)
    tiles = np.zeros((3, 5, 17), dtype=np.int16)
    mini = np.zeros((2, 4), dtype=np.int16)
    drawn = np.zeros_like(stock)
    pieces = np.zeros((2, PC.N), dtype=np.int16)
    falls = np.zeros((16, 3), dtype=np.int16)
    disc = np.zeros((64, 2), dtype=np.int16)
    tally = np.zeros(mv.T.N, dtype=np.int32)
    defense = np.array([4], dtype=np.int64)
    state = np.zeros(4, dtype=np.uint64)
    for g in range(games):
        seed_state_nb(seed, g, state)
        world.generate_world_nb(tpl, stock, stock_n, start, -1, grid, tiles, mini, drawn, state)
        placed = 0
        for r in range(h):
            for c in range(8 * w, 9 * w):
                if placed < 2 and grid[P.FEAT, r, c] & FEAT.BUTTERFLY:
                    mv.place_piece_nb(
                        grid, tiles, mini, pieces, placed, KIND.CHARACTER, r, c, falls, disc, tally
                    )
                    placed += 1
        for _ in range(actions):
            tally[:] = 0
            k = randint_nb(2, state)
            d = randint_nb(8, state)
            dr = d // 3 - 1
            dc = d % 3 - 1
            if d >= 6:  # the bottom row of directions digs instead
                dr = 1
                dc = d - 7
                ok = (
                    mv.dig_nb(
                        grid,
                        tiles,
                        mini,
                        pieces,
                        k,
                        pieces[k, PC.ROW] + dr,
                        pieces[k, PC.COL] + dc,
                        1,
                        res_dig,
                        falls,
                        disc,
                        tally,
                    )[0]
                    >= 0
                )
            else:
                if d == 4:
                    dr = -1
                    dc = 0
                ok = mv.step_nb(grid, tiles, mini, pieces, k, dr, dc, falls, disc, tally)
            out[3] += ok
            for i in range(min(tally[mv.T.FALLS], falls.shape[0])):
                out[0] += 1
                out[1] += mv.fall_hurts_nb(defense, falls[i, 1], falls[i, 2] != 0, True, state)
            out[2] += tally[mv.T.DISCOVERED]
    return out


def measure(games: int, actions: int, reps: int) -> dict[str, float]:
    """Median seconds for ``games`` worlds with ``actions`` actions each, and the counts."""
    wc = compile_world(load_world())
    args = (wc[0], wc[1], wc[2], wc[3], wc[4])
    out = np.zeros(4, dtype=np.int64)
    explore_nb(*args, np.uint64(1), 2, actions, out)  # warm-up (compile or cache load)
    times = []
    for _ in range(reps):
        out[:] = 0
        t = time.perf_counter()
        explore_nb(*args, np.uint64(1), games, actions, out)
        times.append(time.perf_counter() - t)
    sec = statistics.median(times)
    return {
        "sec": sec,
        "games_per_s": games / sec,
        "actions_per_s": games * actions / sec,
        "falls": int(out[0]),
        "fall_damage": int(out[1]),
        "discovered": int(out[2]),
        "done": int(out[3]),
    }


def main() -> None:
    """Print the figures (JSON lines when ``--worker``)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--worker", nargs=3, type=int, metavar=("GAMES", "ACTIONS", "REPS"))
    a = ap.parse_args()
    if a.worker:
        print(json.dumps(measure(*a.worker)))
        return
    games = 2_000 if a.quick else 20_000
    for actions in (0, 100):
        jit = measure(games, actions, 3)
        env = dict(os.environ, NUMBA_DISABLE_JIT="1")
        small = max(20, games // 200)
        out = subprocess.run(
            [sys.executable, __file__, "--worker", str(small), str(actions), "1"],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        plain = json.loads(out.stdout.strip().splitlines()[-1])
        what = "world only" if actions == 0 else f"world + {actions} actions"
        print(
            f"{what:>22}: numba {jit['games_per_s']:>11,.0f} games/s "
            f"({jit['actions_per_s']:,.0f} actions/s; falls {jit['falls']}, "
            f"hurt {jit['fall_damage']}, discovered {jit['discovered']}); plain Python "
            f"{plain['games_per_s']:,.1f} games/s; ratio "
            f"{jit['games_per_s'] / plain['games_per_s']:,.0f}x"
        )


if __name__ == "__main__":
    main()
