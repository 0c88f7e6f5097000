"""NUMBA_DISABLE_JIT=1 runs the very same Terminus engine as plain Python, same results."""

import json
import os
import subprocess
import sys

import numpy as np

from simlib.games.registry import get_game

SETTINGS = {"players": 4, "race0": "humans", "race1": "dwarves", "race2": "elves",
            "race3": "treefolk", "class1": "political", "check_invariants": True}
CODE = f"""
import json, warnings
warnings.filterwarnings("ignore")
import numpy as np
from simlib.games.registry import get_game
g = get_game("terminus")
p = g.compile(g.resolve("legendary", {SETTINGS!r}))
b = g.bot("petitioner")
r = g.play_batch(p, b.id, np.array(list(b.params.values())), 11, 100, 3)
print(json.dumps({{k: r[k].tolist() for k in r.dtype.names}}))
"""


def test_plain_python_matches_numba():
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-c", CODE], env=env, capture_output=True,
                         text=True, timeout=600, check=True)
    plain = json.loads(out.stdout.strip().splitlines()[-1])
    g = get_game("terminus")
    p = g.compile(g.resolve("legendary", SETTINGS))
    b = g.bot("petitioner")
    r = g.play_batch(p, b.id, np.array(list(b.params.values())), 11, 100, 3)
    for name in r.dtype.names:
        np.testing.assert_array_equal(np.asarray(plain[name]), r[name], err_msg=name)
    assert (r["invariant_violations"] == 0).all()
