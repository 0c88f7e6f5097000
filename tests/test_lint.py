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


# a merge left a conflict inside a docstring once, where neither Python nor the linters see it
CONFLICT = ("<" * 7 + " ", "=" * 7 + "\n", ">" * 7 + " ")


def conflict_lines(paths, root=ROOT):
    """``(path, line number)`` of every line that starts with a merge-conflict marker."""
    hits = []
    for path in paths:
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        for i, line in enumerate(text.splitlines(keepends=True), 1):
            if line.startswith(CONFLICT) or line == "=" * 7:
                hits.append((str(path.relative_to(root)), i))
    return hits


def test_no_merge_conflict_markers():
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    if out.returncode != 0:
        pytest.skip("not a git checkout")
    paths = [ROOT / p for p in out.stdout.split() if (ROOT / p).is_file()]
    assert conflict_lines(paths) == []


def test_conflict_check_finds_markers(tmp_path):
    f = tmp_path / "m.py"
    f.write_text('"""doc\n' + "<" * 7 + " HEAD\na\n" + "=" * 7 + "\nb\n" + ">" * 7 + ' x\n"""\n')
    assert conflict_lines([f], root=tmp_path) == [("m.py", 2), ("m.py", 4), ("m.py", 6)]
