"""The style gate (STYLE.md 15): ruff lint and mypy on the Python layer, run by the test
suite so CI fails on either. Both tools come with the ``test`` extra."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(*args):
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)


def test_ruff_clean():
    pytest.importorskip("ruff")
    out = _run("ruff", "check", "--output-format", "concise", "simlib", "tests", "benchmarks")
    assert out.returncode == 0, out.stdout + out.stderr


def test_mypy_clean():
    pytest.importorskip("mypy")
    out = _run("mypy")
    assert out.returncode == 0, out.stdout + out.stderr


def test_ruff_gate_can_fail(tmp_path):
    # the gate must reject a bad file, or the test above proves nothing
    pytest.importorskip("ruff")
    bad = tmp_path / "bad.py"
    bad.write_text("import os\n")
    out = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", str(bad)],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode != 0 and "F401" in out.stdout
