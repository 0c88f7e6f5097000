"""Shared pieces of the benchmark scripts: run a code snippet in a fresh Python process."""

from __future__ import annotations

import json
import os
import subprocess
import sys

GAMES_WORKER = r"""
import json, os, sys, time, statistics
import numpy as np
import numba
from simlib.games.registry import get_game

game, preset, settings = sys.argv[1], sys.argv[2] or None, json.loads(sys.argv[3])
n, reps, threads, warm = (int(a) for a in sys.argv[4:8])
jit = os.environ.get("NUMBA_DISABLE_JIT") != "1"
if not jit:
    threads = 1  # plain Python holds the GIL: more threads only interleave
elif not threads:
    threads = numba.config.NUMBA_NUM_THREADS
g = get_game(game)
compiled = g.compile(g.resolve(preset, settings))
bot = g.bot(None)
bp = np.array(list(bot.params.values()), dtype=np.float64)
g.play_batch(compiled, bot.id, bp, 0, 0, min(n, warm), threads)  # warm-up (compile or cache load)
out = []
for _ in range(reps):
    t = time.perf_counter(); g.play_batch(compiled, bot.id, bp, 0, 0, n, threads)
    out.append(time.perf_counter() - t)
print(json.dumps({"rate": n / statistics.median(out),
                  "layer": "Python threads, nogil blocks" if jit else "-"}))
"""
"""Games/s of a game's default bot: argv ``game preset settings_json n reps threads warm``.

The median of ``reps`` batches of ``n`` games in one process, after a warm-up batch of
``min(n, warm)``; ``threads`` 0: every core numba may use.
"""


def game_args(game: str, preset: str | None, settings: dict, n: int, reps: int, threads: int,
              warm: int) -> list:
    """The argv of :data:`GAMES_WORKER`."""
    return [game, preset or "", json.dumps(settings), n, reps, threads, warm]


def run_snippet(code: str, args, env_extra=None, timeout: int = 3600) -> dict:
    """Run ``code`` with ``args`` in a new interpreter; return its last stdout line as JSON.

    ``NUMBA_DISABLE_JIT`` is cleared unless ``env_extra`` sets it; plain-Python mode's
    warnings about the generator's intended uint64 wrap-around are silenced.
    """
    env = dict(os.environ)
    env.pop("NUMBA_DISABLE_JIT", None)
    env.update(env_extra or {})
    out = subprocess.run(
        [sys.executable, "-W", "ignore::RuntimeWarning", "-c", code, *map(str, args)],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if out.returncode != 0:
        raise RuntimeError(out.stderr[-2000:])
    return json.loads(out.stdout.strip().splitlines()[-1])


def print_rates(rows, unit: str) -> None:
    """Print ``(name, rate, ratio)`` rows as an aligned table."""
    width = max(len(r[0]) for r in rows)
    print(f"{'measure':<{width}}  {unit:>12}  {'vs Python':>9}")
    for name, rate, ratio in rows:
        print(f"{name:<{width}}  {rate:>12,.0f}  {ratio:>9}")


def source_commit() -> str:
    """The commit of the simlib tree this interpreter imports, ``+dirty`` when it differs.

    Dirty: a tracked file changed (staged or not) or a new, unignored file under ``simlib/``
    (the numba cache is keyed by that source, so either changes what runs). ``unknown``
    outside a git checkout.
    """
    from pathlib import Path

    import simlib

    root = Path(simlib.__file__).resolve().parent.parent

    def git(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True,
                              check=False)

    head = git("rev-parse", "HEAD")
    if head.returncode != 0:
        return "unknown"
    changed = git("diff", "--quiet", "HEAD", "--").returncode != 0
    new = git("ls-files", "--others", "--exclude-standard", "--", "simlib").stdout.strip()
    return head.stdout.strip() + ("+dirty" if changed or new else "")
