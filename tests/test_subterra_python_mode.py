"""NUMBA_DISABLE_JIT=1 runs the very same engine as plain Python, with the same results."""

import json
import os
import subprocess
import sys

import numpy as np

from simlib.games.registry import get_game

CODE = """
import json, warnings
warnings.filterwarnings("ignore")
import numpy as np
from simlib.games.registry import get_game
g = get_game("subterra")
p = g.compile(g.resolve("expert", {"cavers": 6}))
b = g.bot("racer")
r = g.play_batch(p, b.id, np.array(list(b.params.values())), 11, 100, 6)
print(json.dumps({k: r[k].tolist() for k in r.dtype.names}))
"""


def test_plain_python_matches_numba():
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-c", CODE], env=env, capture_output=True,
                         text=True, timeout=600, check=True)
    plain = json.loads(out.stdout.strip().splitlines()[-1])
    g = get_game("subterra")
    p = g.compile(g.resolve("expert", {"cavers": 6}))
    b = g.bot("racer")
    r = g.play_batch(p, b.id, np.array(list(b.params.values())), 11, 100, 6)
    for name in r.dtype.names:
        np.testing.assert_array_equal(np.asarray(plain[name]), r[name], err_msg=name)
