"""Shared pieces of the benchmark scripts: run a code snippet in a fresh Python process."""

from __future__ import annotations

import json
import os
import subprocess
import sys


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
