"""Terraria boss kernels: boss turns/s (special, move with displacement, fall damage, cards).

Each game generates a world (every tile revealed), places 3 characters and 3 enemies near
the first one, makes a boss pending (King Slime, a walker, or Eye of Cthulhu, a flyer, in
turn) with its trigger square next to the first character, spawns it, and plays ``turns``
boss turns: ``boss_special_nb``, ``boss_move_nb`` (displacing pieces, settling fall damage)
and ``boss_end_turn_nb``. The tables are the hand-made ones of the boss tests
(``tests/terraria_boss_helpers.py``).

Every figure is the median of several timed runs in one warm process; the plain-Python
figure runs the very same kernels with ``NUMBA_DISABLE_JIT=1`` in a subprocess.

Usage::

    python benchmarks/bench_terraria_bosses.py            # about half a minute
    python benchmarks/bench_terraria_bosses.py --quick    # a few seconds
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from terraria_boss_helpers import make_state, make_tables  # noqa: E402

from simlib.core.jit import njit  # noqa: E402
from simlib.core.rng import randint_nb, seed_state_nb  # noqa: E402
from simlib.games.terraria.engine import bosses, world  # noqa: E402
from simlib.games.terraria.engine import movement as mv  # noqa: E402
from simlib.games.terraria.state import BOSS_ROW, CH, KIND, MAX_PLAYERS, PC, ROLE, TP, G  # noqa: E402

EYE, KING = 2, 0  # boss ids of the hand-made table


@njit
def _put_nb(st, k, kind, r, c):
    rows = st.grid.shape[1]
    cols = st.grid.shape[2]
    if r < 0 or r >= rows or c < 0 or c >= cols:
        return False
    return mv.place_piece_nb(
        st.grid, st.tiles, st.mini, st.pieces, k, kind, r, c, st.falls, st.disc, st.tally
    )


@njit
def boss_turns_nb(st, tab, seed, games, turns, out):
    """``out`` int64 (4,) added to: boss turns played, squares moved, character falls, hurts."""
    rows = st.grid.shape[1]
    cols = st.grid.shape[2]
    for game in range(games):
        seed_state_nb(seed, game, st.rng)
        world.generate_world_nb(
            tab.tpl, tab.stock, tab.stock_n, tab.start, -1, st.grid, st.tiles, st.mini,
            st.drawn, st.rng,
        )  # fmt: skip
        st.tiles[TP.KNOWN, :, :] = 1
        st.pieces[:, :] = 0
        st.g[:] = 0
        st.g[G.PLAYERS] = 3
        st.g[G.TOMBS] = -1
        st.g[G.FALL_DAMAGE] = 1
        for p in range(MAX_PLAYERS):
            st.chars[p, CH.HP] = 5
            st.chars[p, CH.IN_WORLD] = 0
            st.chars[p, CH.FALLS] = 0
            st.chars[p, CH.FALL_DMG] = 0
        for k in range(6):
            kind = KIND.CHARACTER if k < 3 else KIND.WALKER + (k - 3)
            row = k if k < 3 else k + 1  # characters 0..2, enemies 4..6
            for _ in range(200):
                if k == 0:
                    r = randint_nb(rows, st.rng)
                    c = randint_nb(cols, st.rng)
                else:
                    r = st.pieces[0, PC.ROW] + randint_nb(9, st.rng) - 4
                    c = st.pieces[0, PC.COL] + randint_nb(9, st.rng) - 4
                st.tally[mv.T.FALLS] = 0
                if _put_nb(st, row, kind, r, c):
                    if k < 3:
                        st.chars[row, CH.IN_WORLD] = 1
                    else:
                        st.pieces[row, PC.ROLE] = ROLE.ENEMY
                        st.pieces[row, PC.SECTION] = -1
                    break
        b = KING if game % 2 == 0 else EYE
        st.g[G.PENDING] = 1 << b
        row, col = int(st.pieces[0, PC.ROW]), int(st.pieces[0, PC.COL])
        st.g[G.TRIGGER + b] = row * bosses.PACK + col + 1
        st.tally[:] = 0
        if bosses.spawn_pending_bosses_nb(st, tab) == 0:
            continue
        for _ in range(turns):
            if st.g[G.OVER] != 0:
                break
            bosses.boss_special_nb(st, tab, b)
            out[1] += bosses.boss_move_nb(st, tab, b)
            bosses.boss_end_turn_nb(st, tab, b)
            st.tally[mv.T.DISCOVERED] = 0
            out[0] += 1
        for p in range(3):
            out[2] += st.chars[p, CH.FALLS]
            out[3] += st.chars[p, CH.FALL_DMG]
        if st.pieces[BOSS_ROW + b, PC.KIND] != KIND.NONE:
            st.pieces[BOSS_ROW + b, PC.KIND] = KIND.NONE


def _state():
    return make_state(["."], 0, 0, players=3), make_tables()


def run(games: int, turns: int, seed: int = 1) -> tuple[float, list[int]]:
    st, tab = _state()
    out = np.zeros(4, dtype=np.int64)
    t = time.perf_counter()
    boss_turns_nb(st, tab, np.uint64(seed), games, turns, out)
    return time.perf_counter() - t, out.tolist()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--plain", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    games = 40 if args.quick else 400
    turns = 10
    if args.plain:
        dt, out = run(max(4, games // 20), turns)
        print(json.dumps({"seconds": dt, "out": out}))
        return
    run(2, 2)  # compile
    times = []
    for _ in range(3 if args.quick else 5):
        dt, out = run(games, turns)
        times.append(dt)
    dt = statistics.median(times)
    rate = out[0] / dt
    print(f"boss turns: {out[0]} in {dt:.3f} s = {rate:,.0f} turns/s (numba, median)")
    print(f"  squares moved {out[1]}, character falls {out[2]}, fall damage {out[3]}")
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONPATH=str(ROOT))
    res = subprocess.run(
        [sys.executable, __file__, "--plain", *(["--quick"] if args.quick else [])],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    plain = json.loads(res.stdout.strip().splitlines()[-1])
    prate = plain["out"][0] / plain["seconds"]
    print(f"plain Python: {prate:,.0f} turns/s; numba is {rate / prate:,.0f}x faster")


if __name__ == "__main__":
    main()
