"""NUMBA_DISABLE_JIT=1 runs the same Terraria world and movement kernels as plain Python,
with the same results (the benchmark's explorer: worlds, random steps and digs, falls)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]

CODE = """
import json, sys, warnings
warnings.filterwarnings("ignore")
import numpy as np
sys.path.insert(0, "benchmarks")
from bench_terraria_world import explore_nb
from simlib.games.terraria.compile import compile_world, load_world
wc = compile_world(load_world())
out = np.zeros(4, dtype=np.int64)
explore_nb(wc[0], wc[1], wc[2], wc[3], wc[4], np.uint64(5), 6, 150, out)
print(json.dumps(out.tolist()))
"""


def _run(disable, code=CODE):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    if disable:
        env["NUMBA_DISABLE_JIT"] = "1"
    out = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_plain_python_matches_numba():
    plain = _run(True)
    jit = _run(False)
    np.testing.assert_array_equal(plain, jit)
    assert jit[0] > 0 and jit[2] > 0 and jit[3] > 0  # falls, discoveries and moves happened


SIGHT_CODE = """
import json, sys, warnings
warnings.filterwarnings("ignore")
import numpy as np
from simlib.core.rng import new_state
from simlib.games.terraria.engine import enemy, movement, sight, world
from simlib.games.terraria.compile import compile_world, load_world
from simlib.games.terraria.state import KIND, LAYERS, TILE_COLS, TP, alloc_world
data = load_world()
tpl, stock, stock_n, start = compile_world(data)[:4]
h, w = data["world"]["tile_rows"], data["world"]["tile_cols"]
grid, tiles, mini = alloc_world(h, w)
world.generate_world_nb(tpl, stock, stock_n, start, -1, grid, tiles, mini,
                        np.zeros_like(stock), new_state(3, 0))
tiles[TP.KNOWN] = 1
rows, cols = grid.shape[1], grid.shape[2]
rng = np.random.default_rng(11)
seen = [int(sight.sees_nb(grid, tiles, *rng.integers(0, [rows, cols, rows, cols])))
        for _ in range(300)]
pieces = np.zeros((8, 4), dtype=np.int16)
falls = np.zeros((64, 3), dtype=np.int16)
disc = np.zeros((64, 2), dtype=np.int16)
tally = np.zeros(4, dtype=np.int32)
dist, how, queue, path = enemy.alloc_scratch(rows, cols)
placed = 0
for k, kind in enumerate([KIND.CHARACTER, KIND.CHARACTER, KIND.WALKER, KIND.FLYER, KIND.WORM]):
    while True:  # characters anywhere, enemies within 6 squares of the first character
        r, c = rng.integers(0, [rows, cols]) if k < 2 else pieces[0, 1:3] + rng.integers(-6, 7, 2)
        if 0 <= r < rows and 0 <= c < cols and movement.place_piece_nb(
                grid, tiles, mini, pieces, k, kind, r, c, falls, disc, tally):
            break
memo = np.full((1, 4), -1, dtype=np.int32)
moves = [int(enemy.move_enemy_nb(grid, tiles, mini, pieces, k, 3, dist, how, queue, path,
                                 falls, disc, tally, memo, i)) for i in range(4) for k in (2, 3, 4)]
print(json.dumps([seen, moves, pieces.tolist()]))
"""


def test_sight_and_enemy_moves_plain_python_match_numba():
    plain = _run(True, SIGHT_CODE)
    jit = _run(False, SIGHT_CODE)
    assert plain == jit
    assert 0 < sum(jit[0]) < len(jit[0])  # some pairs see each other, some do not
    assert sum(jit[1]) > 0  # enemies moved
