"""NUMBA_DISABLE_JIT=1 runs the Terraria enemy-turn and life kernels as plain Python with the
same results: the benchmark's boards (moves and attacks), then a short game on a hand-made
board (spawning by day and night, skull spawns, moves, attacks with deaths, respawns,
wounds and loot, sunrise)."""

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
sys.path[:0] = ["benchmarks", "tests"]
import bench_terraria_foes as b
from simlib.games.terraria.engine import foes, life
from simlib.games.terraria.compile import compile_world, load_world
from simlib.games.terraria.state import CH, ENEMY_ROW, G
from simlib.games.terraria.state import FEAT, KIND, PC, P
from terraria_foes_helpers import Game, tables
out = {}
data = load_world()
wc = compile_world(data)
tab = b.tables(wc)
for seed in (1, 2):
    st = b.board(wc, data, seed, 8)
    acc = np.zeros(3, dtype=np.int64)
    b.turns_nb(st, tab, 4, acc)
    out[f"board{seed}"] = [acc.tolist(), st.pieces.tolist(), st.rng.tolist()]
tray = {0: [(0, 0), (0, 0), (2, 0), (1, 1), (-3, 1), (2, 1)]}
g = Game(["." * 18, "." * 18, "#" * 18], top=0, left=42, tab=tables(tray=tray), seed=9, tombs=3)
for c in (43, 47, 52, 56):
    g.st.grid[P.FEAT, 1, c] |= FEAT.SPAWN
g.character(0, 1, 3, hp=2)
g.character(1, 1, 12, hp=1)
g.st.chars[:, CH.MAXHP] = 4
log = []
for rnd in range(8):
    g.st.g[G.TIME] = rnd % 4
    if rnd % 4 == 0:
        log.append(int(foes.sunrise_foes_nb(g.st, g.tab)))
    log.append(int(foes.skull_spawn_nb(g.st, g.tab)))
    for p in range(2):
        log.append(int(life.respawn_nb(g.st, g.tab, p)))
        if g.st.chars[p, CH.IN_WORLD]:
            for k in range(ENEMY_ROW, ENEMY_ROW + 6):
                if g.st.pieces[k, PC.KIND] != KIND.NONE and abs(
                        int(g.st.pieces[k, PC.COL]) - int(g.st.pieces[p, PC.COL])) <= 1:
                    log.append(int(foes.wound_enemy_nb(g.st, g.tab, p, k, 1)))
                    log.append(int(foes.collect_token_nb(g.st, g.tab, p, k)))
    log.append(int(foes.enemy_moves_nb(g.st, g.tab)))
    log.append(int(foes.enemy_attacks_nb(g.st, g.tab, 0, 0)))
out["game"] = [log, g.st.pieces.tolist(), g.st.chars.tolist(), g.st.tray.tolist(),
               g.st.g.tolist(), g.st.cnt.tolist(), g.st.deck.tolist(), g.st.rng.tolist()]
print(json.dumps(out))
"""


def _run(disable):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    if disable:
        env["NUMBA_DISABLE_JIT"] = "1"
    out = subprocess.run(
        [sys.executable, "-c", CODE],
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
    assert plain.keys() == jit.keys()
    for key in jit:
        for a, b in zip(plain[key], jit[key], strict=True):
            np.testing.assert_array_equal(np.array(a), np.array(b), err_msg=key)
    log = jit["game"][0]
    chars = np.array(jit["game"][2])
    assert sum(x > 0 for x in log) > 10  # spawns, kills and attacks happened
    assert chars[:2, 21].sum() > 0  # CH.DEATHS: somebody died (and respawned)
    assert jit["board1"][0][2] > 0  # health was lost on the benchmark board
