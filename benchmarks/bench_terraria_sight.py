"""Terraria line of sight and enemy movement kernels: sight checks/s and enemy moves/s.

Each game generates a world (every tile revealed) and then makes ``checks`` ``sees_nb``
calls between a random square and a square at most ``reach`` away in rows and columns
(``reach`` 6: within a tile or two, as enemies near a character are; 30: across the
world, as long-range attacks are), and ``moves`` enemy moves (a walker, a flyer and a
worm placed within 6 squares of a character, each moved with movement 3 in turn).

Every figure is the median of several timed runs in one warm process; the plain-Python
figure runs the very same kernels with ``NUMBA_DISABLE_JIT=1`` in a subprocess.

Usage::

    python benchmarks/bench_terraria_sight.py            # about half a minute
    python benchmarks/bench_terraria_sight.py --quick    # a few seconds
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
from simlib.games.terraria.engine import enemy, sight, world
from simlib.games.terraria.engine import movement as mv
from simlib.games.terraria.state import KIND, PC, TP, P


@njit
def sight_nb(tpl, stock, stock_n, start, seed, games, checks, reach, out):
    """``out`` int64 (2,) written: checks made, checks that see."""
    h = tpl.shape[2]
    w = tpl.shape[3]
    grid = np.zeros((P.N, 5 * h, 17 * w), dtype=np.int16)
    tiles = np.zeros((3, 5, 17), dtype=np.int16)
    mini = np.zeros((2, 4), dtype=np.int16)
    drawn = np.zeros_like(stock)
    state = np.zeros(4, dtype=np.uint64)
    rows = 5 * h
    cols = 17 * w
    for g in range(games):
        seed_state_nb(seed, g, state)
        world.generate_world_nb(tpl, stock, stock_n, start, -1, grid, tiles, mini, drawn, state)
        tiles[TP.KNOWN, :, :] = 1
        for _ in range(checks):
            ar = randint_nb(rows, state)
            ac = randint_nb(cols, state)
            br = min(max(ar + (randint_nb(2 * reach + 1, state) - reach), 0), rows - 1)
            bc = min(max(ac + (randint_nb(2 * reach + 1, state) - reach), 0), cols - 1)
            out[0] += 1
            if sight.sees_nb(grid, tiles, ar, ac, br, bc):
                out[1] += 1


@njit
def moves_nb(tpl, stock, stock_n, start, seed, games, rounds, out):
    """``out`` int64 (2,) written: enemy moves made, squares moved."""
    h = tpl.shape[2]
    w = tpl.shape[3]
    rows = 5 * h
    cols = 17 * w
    grid = np.zeros((P.N, rows, cols), dtype=np.int16)
    tiles = np.zeros((3, 5, 17), dtype=np.int16)
    mini = np.zeros((2, 4), dtype=np.int16)
    drawn = np.zeros_like(stock)
    state = np.zeros(4, dtype=np.uint64)
    pieces = np.zeros((4, PC.N), dtype=np.int16)
    falls = np.zeros((16, 3), dtype=np.int16)
    disc = np.zeros((64, 2), dtype=np.int16)
    tally = np.zeros(mv.T.N, dtype=np.int32)
    dist = np.zeros((rows, cols), dtype=np.int16)
    how = np.zeros((rows, cols), dtype=np.int16)
    queue = np.zeros((rows * cols, 2), dtype=np.int16)
    path = np.zeros(16, dtype=np.int16)
    for g in range(games):
        seed_state_nb(seed, g, state)
        world.generate_world_nb(tpl, stock, stock_n, start, -1, grid, tiles, mini, drawn, state)
        tiles[TP.KNOWN, :, :] = 1
        pieces[:, :] = 0
        tally[:] = 0
        for k in range(4):
            kind = KIND.CHARACTER + k  # character, walker, flyer, worm
            for _ in range(200):
                if k == 0:
                    r = randint_nb(rows, state)
                    c = randint_nb(cols, state)
                else:
                    r = pieces[0, PC.ROW] + (randint_nb(13, state) - 6)
                    c = pieces[0, PC.COL] + (randint_nb(13, state) - 6)
                if 0 <= r < rows and 0 <= c < cols:
                    tally[mv.T.FALLS] = 0
                    if mv.place_piece_nb(
                        grid, tiles, mini, pieces, k, kind, r, c, falls, disc, tally
                    ):
                        break
        for _ in range(rounds):
            for k in range(1, 4):
                if pieces[k, PC.KIND] == KIND.NONE:
                    continue
                tally[mv.T.FALLS] = 0
                n = enemy.move_enemy_nb(
                    grid, tiles, mini, pieces, k, 3, dist, how, queue, path, falls, disc, tally
                )
                out[0] += 1
                out[1] += max(n, 0)
        # clear this game's pieces from the world for the next one
        for k in range(4):
            if pieces[k, PC.KIND] != KIND.NONE:
                grid[P.OCC, pieces[k, PC.ROW], pieces[k, PC.COL]] = 0


def _wc():
    tpl, stock, stock_n, start = compile_world(load_world())[:4]
    return tpl, stock, stock_n, start


def measure(games: int, checks: int, rounds: int, repeats: int) -> dict[str, float]:
    wc = _wc()
    res: dict[str, float] = {}
    for reach in (6, 30):
        out = np.zeros(2, dtype=np.int64)
        sight_nb(*wc, np.uint64(1), 1, 10, reach, out)  # compile
        times = []
        for _ in range(repeats):
            out[:] = 0
            t = time.perf_counter()
            sight_nb(*wc, np.uint64(1), games, checks, reach, out)
            times.append(time.perf_counter() - t)
        res[f"sight_checks_per_s_reach{reach}"] = out[0] / statistics.median(times)
        res[f"seen_fraction_reach{reach}"] = out[1] / out[0]
    out = np.zeros(2, dtype=np.int64)
    moves_nb(*wc, np.uint64(2), 1, 1, out)
    times = []
    for _ in range(repeats):
        out[:] = 0
        t = time.perf_counter()
        moves_nb(*wc, np.uint64(2), games, rounds, out)
        times.append(time.perf_counter() - t)
    res["enemy_moves_per_s"] = out[0] / statistics.median(times)
    res["squares_per_move"] = out[1] / out[0]
    return res


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--plain", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    games, checks, rounds, repeats = (20, 200, 10, 3) if args.quick else (100, 1000, 20, 5)
    if args.plain:
        print(json.dumps(measure(2, checks // 10, 2, 1)))
        return
    jit = measure(games, checks, rounds, repeats)
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    plain = json.loads(
        subprocess.run(
            [sys.executable, __file__, "--plain"] + (["--quick"] if args.quick else []),
            env=env,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    for key, v in jit.items():
        if "per_s" in key:
            print(
                f"{key:32s} {v:14,.0f}   plain Python {plain[key]:12,.0f}   x{v / plain[key]:.0f}"
            )
        else:
            print(f"{key:32s} {v:14.3f}")


if __name__ == "__main__":
    main()
