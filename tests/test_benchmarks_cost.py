"""benchmarks/bench_cost.py runs and prints what it promises, so it cannot rot.

Its quickest modes only (a handful of games, one round, no cold compile; about 20 s with
a warm numba cache); nothing here asserts a speed: timings on a shared machine are not a
test. The scale-out mode does check that the local backend and LocalClusters of 1 and 2
workers give identical rows.
"""

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numba
import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "benchmarks" / "bench_cost.py"


def _bench(*args, timeout=600):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("NUMBA_DISABLE_JIT", None)
    return subprocess.run([sys.executable, str(SCRIPT), *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=timeout)


def _head_commit():
    out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    return out.stdout.strip() if out.returncode == 0 else None


def _positive(x):
    return isinstance(x, float) and math.isfinite(x) and x > 0


def _bench_module():
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        import bench_cost
    finally:
        sys.path.remove(str(SCRIPT.parent))
    return bench_cost


def test_cost_quickest_mode(capsys):
    out = _bench("--only", "terralore", "--games", "20", "--rounds", "1", "--no-compile",
                 "--format", "json")
    assert out.returncode == 0, out.stderr[-3000:]
    data = json.loads(out.stdout)
    head = _head_commit()
    if head is not None:
        assert data["commit"] in (head, head + "+dirty")
    assert data["numba"] == numba.__version__
    assert data["threads"] == ([1, 2] if data["numba_num_threads"] >= 2 else [1])
    assert list(data["games"]) == ["terralore"]
    row = data["games"]["terralore"]
    assert row["games"] == 20 and row["setting"] == "standard mirror"
    assert len(row["kops"]) == len(row["cal_mops"]) == len(row["rate1"]) == 1
    assert len(row["rate2"]) == (1 if 2 in data["threads"] else 0)
    for key in ("kops_median", "rate1_median", "python_rate", "python_kops", "vs_python"):
        assert _positive(row[key]), (key, row[key])
    assert row["kops_median"] == row["kops"][0]
    assert "start" not in row  # --no-compile

    # the table prints the same figures
    bench = _bench_module()
    bench.print_costs(data)
    text = capsys.readouterr().out
    assert f"commit {data['commit']}" in text and f"numba {data['numba']}" in text
    line = next(ln for ln in text.splitlines() if ln.startswith("terralore "))
    assert "standard mirror" in line and f"{row['rate1_median']:,.0f}" in line


@pytest.mark.parametrize("args, key", [(["--rounds", "0"], "--rounds"),
                                       (["--games", "-1"], "--games"),
                                       (["--scale-out", "--chunk-size", "0"], "--chunk-size"),
                                       (["--only", "chess"], "--only")])
def test_bad_options_one_line(args, key):
    out = _bench(*args, timeout=120)
    assert out.returncode == 2
    assert "Traceback" not in out.stderr and key in out.stderr.splitlines()[-1]


def test_scale_out_quickest_mode():
    pytest.importorskip("dask.distributed")
    out = _bench("--scale-out", "--games", "200", "--chunk-size", "100", "--format", "json")
    assert out.returncode == 0, out.stderr[-3000:]
    data = json.loads(out.stdout)
    assert data["game"] == "subterra" and data["games"] == 200 and data["chunk_size"] == 100
    runs = {r["run"]: r for r in data["runs"]}
    assert {"local, 1 thread", "dask, 1 worker", "dask, 2 workers"} <= set(runs)
    assert runs["local, 1 thread"]["efficiency"] == 1.0
    for run in data["runs"][1:]:
        assert run["identical"] is True, run["run"]
    for k, name in ((1, "dask, 1 worker"), (2, "dask, 2 workers")):
        run = runs[name]
        assert run["workers"] == k and run["chunks"] == 2
        assert sum(w["tasks"] for w in run["tasks"].values()) == 2
        assert _positive(run["rate"]) and _positive(run["efficiency"])
