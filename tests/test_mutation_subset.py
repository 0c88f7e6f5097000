"""A rotating few rule mutants of each game, run on every CI: their killers must still fail.

``tests/mutation/run.py GAME --subset K --quick`` applies K mutants of the game, spread
through its data file and shifted by HEAD's commit count (so successive commits cover
every mutant), each in its own copy of the tree, and runs only the tests named as its
killers. A test weakened until it no longer guards its rule fails here within a few
commits. The whole set (every mutant against the game's whole tests) is
``python tests/mutation/run.py --all``. This file is apart from ``test_mutation.py`` so the
suite's workers run it beside the rest.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
RUN_PY = TESTS / "mutation" / "run.py"
CI_PER_GAME = 5  # mutants per game in the rotating subset
GAMES = ("subterra", "terraria", "terminus", "terralore")


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_rotating_subset_is_killed(name):
    out = subprocess.run(
        [sys.executable, str(RUN_PY), name, "--subset", str(CI_PER_GAME), "--quick",
         "--timeout", "900"],
        capture_output=True, text=True, cwd=TESTS.parent)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
