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
from simlib.games.terraria import world
wc = world.compile_world(world.load_world())
out = np.zeros(4, dtype=np.int64)
explore_nb(wc[0], wc[1], wc[2], wc[3], wc[4], np.uint64(5), 6, 150, out)
print(json.dumps(out.tolist()))
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
    np.testing.assert_array_equal(plain, jit)
    assert jit[0] > 0 and jit[2] > 0 and jit[3] > 0  # falls, discoveries and moves happened
