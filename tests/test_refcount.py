"""Kernels compiled with ``refcount=False`` borrow their arrays: nothing leaks or is freed twice.

A batch of games of every registered game runs in a fresh process with numba's allocation
statistics on; every block the batch allocates (game state, scratch, StructRefs) must be
freed again by the time it returns. A borrowing kernel that kept or returned a reference
would show as a block never freed, or as more frees than allocations.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

JIT = os.environ.get("NUMBA_DISABLE_JIT") != "1"

SCRIPT = r"""
import json, sys
import numpy as np
from numba.core.runtime import rtsys
from simlib.games.registry import get_game, game_names

out = {}
for name in game_names():
    g = get_game(name)
    compiled = g.compile(g.resolve(None, {}))
    for bot in g.bots:
        params = dict(bot.params)
        if "budget" in params and bot.name == "search":
            params["budget"] = 2.0  # a few rollouts exercise the copies; 16 would take minutes
        bp = np.array(list(params.values()), dtype=np.float64)
        g.play_batch(compiled, bot.id, bp, 3, 0, 2)  # compile or load first
        before = rtsys.get_allocation_stats()
        g.play_batch(compiled, bot.id, bp, 3, 0, int(sys.argv[1]))
        after = rtsys.get_allocation_stats()
        out[f"{name}/{bot.name}"] = [
            (after.alloc - before.alloc) - (after.free - before.free),
            (after.mi_alloc - before.mi_alloc) - (after.mi_free - before.mi_free),
            after.alloc - before.alloc,
        ]
print(json.dumps(out))
"""


@pytest.mark.skipif(not JIT, reason="compiled kernels only")
def test_every_game_frees_what_it_allocates():
    env = dict(os.environ, NUMBA_NRT_STATS="1")
    run = subprocess.run([sys.executable, "-c", SCRIPT, "40"], env=env, capture_output=True,
                         text=True, check=False)
    assert run.returncode == 0, run.stderr[-3000:]
    stats = json.loads(run.stdout.strip().splitlines()[-1])
    assert len(stats) >= 12  # four games, three bots each
    for key, (blocks, meminfos, allocated) in stats.items():
        assert allocated > 0, key  # the statistics are on and the batch allocated its state
        assert (blocks, meminfos) == (0, 0), key
