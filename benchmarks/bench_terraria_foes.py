"""Terraria enemy turn (``foes.enemy_moves_nb`` + ``foes.enemy_attacks_nb``): enemy turns/s.

Each board is a generated world (every tile revealed) with 2 characters and ``enemies``
enemy tokens (walkers, flyers, worms, a ranged enemy; hand-made bestiary rows, as the
content tables are not compiled yet) placed within 6 squares of the first character. The
timed kernel runs ``turns`` enemy turns on the board: every enemy moves, then the attack
step (long, medium, short bands and mobs) with dice; characters have health enough never to
die, and their draw piles are emptied between turns so debuffs keep going on them.

Every figure is the median of several timed runs in one warm process; the plain-Python
figure runs the very same kernels with ``NUMBA_DISABLE_JIT=1`` in a subprocess.

Usage::

    python benchmarks/bench_terraria_foes.py            # about half a minute
    python benchmarks/bench_terraria_foes.py --quick    # a few seconds
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
from simlib.core.rng import new_state
from simlib.games.terraria import state as L
from simlib.games.terraria.compile import compile_world, load_world
from simlib.games.terraria.engine import enemy, foes, world
from simlib.games.terraria.engine.movement import T, place_piece_nb
from simlib.games.terraria.state import KIND, PC, TP, alloc_world


def _row(atk, ranges, kind, movement, debuff=0):
    row = np.zeros(L.EN.N, dtype=np.int16)
    row[L.EN.NATK] = len(atk)
    row[L.EN.ATK0 : L.EN.ATK0 + len(atk)] = atk
    row[L.EN.RANGE] = ranges
    row[L.EN.NDEF] = 1
    row[L.EN.DEF0] = 6
    row[L.EN.WOUNDS] = 1
    row[L.EN.MOVEMENT] = movement
    row[L.EN.KIND] = kind
    row[L.EN.DEBUFF] = debuff
    return row


def tables(wc) -> L.Tables:
    """Hand-made content: 4 bestiary rows, 3 debuff cards, one character card."""
    z = np.zeros
    enemies = np.array(
        [
            _row([6], 1, KIND.WALKER, 1),
            _row([8], 1, KIND.FLYER, 2, 1),
            _row([6, 6], 1, KIND.WORM, 2, 3),
            _row([6, 4], 6, KIND.WALKER, 0, 2),
        ]
    )
    cards = z((4, L.CF.N), np.int16)
    cards[1:, L.CF.SHOP] = L.SHOP.DEBUFF
    cards[1:, L.CF.DEBUFF] = (1, 2, 3)
    characters = z((1, L.CC.N), np.int16)
    characters[0, L.CC.NDEF], characters[0, L.CC.DEF0] = 1, 6
    rules = z(L.RU.N, np.int16)
    rules[L.RU.DRYAD_DIE] = 6
    return L.Tables(
        *wc, rules=rules, cards=cards, start_deck=z(8, np.int16),
        equip=z((1, L.EQ.N), np.int16), equip_recipe=z((1, 4, 2), np.int16),
        start_equip=z((2, 3), np.int16), armor=z((1, L.AR.N), np.int16),
        armor_recipe=z((1, 4, 2), np.int16), minions=z(1, np.int16), characters=characters,
        consumables=z((1, L.CO.N), np.int16), houses=z((1, L.HO.N), np.int16),
        house_recipe=z((1, 4, 2), np.int16), food=z((4, L.RW.N), np.int16),
        objectives=z((40, L.OB.N), np.int16), enemies=enemies,
        tray_tok=z((L.SECTIONS, 4), np.int16), tray_night=z((L.SECTIONS, 4), np.int16),
        tray_n=z(L.SECTIONS, np.int16), chest_biome=z(1, np.int16),
        chest_reward=z((1, 5, L.RW.N), np.int16), bosses=z((1, L.BO.N), np.int16),
        behaviour=z((1, 3, L.BH.N), np.int16), boss_loot=z((1, 4, L.RW.N), np.int16),
        time_track=z((1, L.TT.N), np.int16),
    )  # fmt: skip


def board(wc, data, seed: int, n_enemies: int) -> L.State:
    """A generated world, every tile revealed, 2 characters and ``n_enemies`` enemies."""
    h, w = data["world"]["tile_rows"], data["world"]["tile_cols"]
    grid, tiles, mini = alloc_world(h, w)
    rng = new_state(seed, 0)
    world.generate_world_nb(*wc[:4], -1, grid, tiles, mini, np.zeros_like(wc[1]), rng)
    tiles[TP.KNOWN] = 1
    rows, cols = grid.shape[1], grid.shape[2]
    dist, how, queue, path = enemy.alloc_scratch(rows, cols)
    g = np.zeros(L.G.N, dtype=np.int32)
    g[L.G.TOMBS] = -1
    chars = np.zeros((L.MAX_PLAYERS, L.CH.N), dtype=np.int32)
    chars[:, L.CH.ARMOR] = -1
    st = L.State(
        grid=grid, tiles=tiles, mini=mini, pieces=np.zeros((L.N_PIECES, PC.N), np.int16), g=g,
        chars=chars, inv=np.zeros((4, 6, 2), np.int16), deck=np.zeros((4, 4, 64), np.int16),
        npile=np.zeros((4, 4), np.int16), ready=np.full(4, -1, np.int16),
        owned=np.zeros((4, 1), np.int16), held=np.zeros((4, 1), np.int16),
        supply=np.zeros((L.SUP.N, 8), np.int16), cnt=np.zeros(L.CNT.N, np.int32),
        tray=np.zeros((L.SECTIONS, 4), np.int16),
        house_at=np.full((L.MAX_HOUSES, L.HA.N), -1, np.int16),
        falls=np.zeros((256, 3), np.int16), disc=np.zeros((64, 2), np.int16),
        tally=np.zeros(T.N, np.int32), dist=dist, how=how, queue=queue, path=path, rng=rng,
    )  # fmt: skip
    pick = np.random.default_rng(seed)
    placed = 0
    while placed < 2:
        r, c = pick.integers(0, [rows, cols])
        if placed == 1:
            r, c = st.pieces[0, PC.ROW] + pick.integers(-3, 4), st.pieces[0, PC.COL] + 4
        if 0 <= r < rows and 0 <= c < cols and place_piece_nb(
            grid, tiles, mini, st.pieces, placed, KIND.CHARACTER, r, c, st.falls, st.disc,
            st.tally,
        ):  # fmt: skip
            chars[placed, L.CH.IN_WORLD] = 1
            placed += 1
    k = L.ENEMY_ROW
    for _ in range(2000):
        if k == L.ENEMY_ROW + n_enemies:
            break
        e = (k - L.ENEMY_ROW) % 4
        kind = int(tables_enemies_kind[e])
        r = st.pieces[0, PC.ROW] + pick.integers(-6, 7)
        c = st.pieces[0, PC.COL] + pick.integers(-6, 7)
        if (
            0 <= r < rows
            and 0 <= c < cols
            and place_piece_nb(
                grid, tiles, mini, st.pieces, k, kind, r, c, st.falls, st.disc, st.tally
            )
        ):
            st.pieces[k, PC.ROLE] = L.ROLE.ENEMY
            st.pieces[k, PC.TYPE] = e
            k += 1
    return st


tables_enemies_kind = (KIND.WALKER, KIND.FLYER, KIND.WORM, KIND.WALKER)


@njit
def turns_nb(st, tab, turns, out):
    """``turns`` enemy turns on one board; ``out`` int64 (3,) += turns, squares, health lost."""
    for _ in range(turns):
        for p in range(L.MAX_PLAYERS):
            st.chars[p, L.CH.HP] = 1000
        st.npile[:, L.PILE.DRAW] = 0
        st.supply[L.SUP.CARDS, :] = 8
        st.tally[T.FALLS] = 0
        out[0] += 1
        out[1] += foes.enemy_moves_nb(st, tab)
        out[2] += foes.enemy_attacks_nb(st, tab, 0, 0)


def measure(boards: int, turns: int, n_enemies: int, repeats: int) -> dict[str, float]:
    data = load_world()
    wc = compile_world(data)
    tab = tables(wc)
    out = np.zeros(3, dtype=np.int64)
    turns_nb(board(wc, data, 0, n_enemies), tab, 1, out)  # compile
    times = []
    for _ in range(repeats):
        sts = [board(wc, data, s, n_enemies) for s in range(boards)]
        out[:] = 0
        t = time.perf_counter()
        for st in sts:
            turns_nb(st, tab, turns, out)
        times.append(time.perf_counter() - t)
    dt = statistics.median(times)
    return {
        "enemy_turns_per_s": out[0] / dt,
        "enemy_activations_per_s": out[0] * n_enemies / dt,
        "squares_per_turn": out[1] / out[0],
        "health_lost_per_turn": out[2] / out[0],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--enemies", type=int, default=10)
    ap.add_argument("--plain", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    boards, turns, repeats = (10, 20, 3) if args.quick else (40, 50, 5)
    if args.plain:
        print(json.dumps(measure(2, 5, args.enemies, 1)))
        return
    jit = measure(boards, turns, args.enemies, repeats)
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    cmd = [sys.executable, __file__, "--plain", "--enemies", str(args.enemies)]
    plain = json.loads(
        subprocess.run(
            cmd + (["--quick"] if args.quick else []), env=env, capture_output=True, text=True,
            check=True,
        ).stdout.strip()
    )  # fmt: skip
    print(f"enemy turn with {args.enemies} enemies and 2 characters")
    for key, v in jit.items():
        if "per_s" in key:
            print(
                f"{key:28s} {v:14,.0f}   plain Python {plain[key]:12,.1f}   x{v / plain[key]:.0f}"
            )
        else:
            print(f"{key:28s} {v:14.3f}")


if __name__ == "__main__":
    main()
