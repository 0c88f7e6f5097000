"""The rule-mutant harness (``tests/mutation/``): its data, its runner, and a rotating subset.

Every mutant must name a real checklist id and still apply to the tree (not stale); the
runner must reject bad data with one line naming the key, never edit the working tree, and
tell killed from survived. ``test_rotating_subset_is_killed`` runs a few mutants of each
game, a different few at every commit, so a weakened test is noticed within CI's time (in
``test_mutation_subset.py``); the whole set runs with ``python tests/mutation/run.py --all``.
"""

from __future__ import annotations

import hashlib
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
RUN_PY = TESTS / "mutation" / "run.py"

_spec = importlib.util.spec_from_file_location("simlib_mutation_run", RUN_PY)
run = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = run
_spec.loader.exec_module(run)

MIN_MUTANTS = 30  # per game
@pytest.fixture(scope="module", params=run.GAMES)
def game(request):
    return run.load(request.param)


def test_every_game_has_enough_mutants(game):
    assert len(game.mutants) >= MIN_MUTANTS, f"{game.game}: {len(game.mutants)} mutants"


def test_every_mutant_names_a_checklist_id(game):
    ids = run.checklist_ids(game)
    if ids is None:
        pytest.skip(f"checklist not found at {run.checklist_path(game)} (beside the repo)")
    assert ids == {f"{game.prefix}-{i:03d}" for i in range(1, len(ids) + 1)} and len(ids) >= 50
    unknown = [m.id for m in game.mutants if m.rule not in ids]
    assert not unknown, f"mutants naming no {game.checklist} id: {unknown}"


def test_no_mutant_is_stale(game):
    stale = {m.id: run.staleness(m) for m in game.mutants}
    stale = {k: v for k, v in stale.items() if v}
    assert not stale, f"stale mutants (rewrite them against the code): {stale}"


def test_mutants_edit_the_games_rules_only(game):
    folder = f"simlib/games/{game.game}/"
    outside = [m.id for m in game.mutants if not m.file.startswith(folder)]
    assert not outside, f"mutants outside {folder}: {outside}"


def test_every_test_and_killer_exists(game):
    for test in game.tests:
        assert (ROOT / test).is_file(), test
        assert "_bars" not in test and "python_mode" not in test, f"{test} is too slow"
    for m in game.mutants:
        for killer in m.killers:
            path, _, name = killer.partition("::")
            assert (ROOT / path).is_file(), f"{m.id}: {killer}"
            assert path in game.tests, f"{m.id}: killer {path} is not in the game's tests"
            head = name.split("[")[0]
            assert f"def {head}(" in (ROOT / path).read_text(encoding="utf-8"), (
                f"{m.id}: no test {head} in {path}")


def test_mutants_are_spread_over_the_rules(game):
    rules = {m.rule for m in game.mutants}
    assert len(rules) >= len(game.mutants) * 2 // 3, "too many mutants of the same rules"


# --- the runner -----------------------------------------------------------------------------

GOOD = """
game = "toy"
prefix = "TY"
checklist = "toy-checklist.md"
tests = ["tests/test_toy.py"]

[[mutant]]
name = "off-by-one"
rule = "TY-001"
file = "pkg/rules.py"
find = "limit = 7"
replace = "limit = 8"
why = "the hand limit is 8"
killers = ["tests/test_toy.py::test_limit"]
"""


def _write(tmp_path, text, game="toy"):
    (tmp_path / f"{game}.toml").write_text(text, encoding="utf-8")


def test_load_reads_a_good_file(tmp_path):
    _write(tmp_path, GOOD)
    gm = run.load("toy", tmp_path)
    assert gm.prefix == "TY" and gm.tests == ("tests/test_toy.py",)
    (m,) = gm.mutants
    assert (m.id, m.find, m.replace, m.killers) == ("TY-001:off-by-one", "limit = 7",
                                                    "limit = 8",
                                                    ("tests/test_toy.py::test_limit",))


@pytest.mark.parametrize(("edit", "key"), [
    (('rule = "TY-001"', 'rule = "ST-001"'), "'rule'"),
    (('rule = "TY-001"', 'rule = "TY-1"'), "'rule'"),
    (('name = "off-by-one"', 'name = "Off By One"'), "'name'"),
    (('replace = "limit = 8"', 'replace = "limit = 7"'), "'replace'"),
    (('why = "the hand limit is 8"', 'why = ""'), "'why'"),
    (('why = "the hand limit is 8"', 'whyy = "x"'), "'whyy'"),
    (('tests = ["tests/test_toy.py"]', "tests = []"), "'tests'"),
    (('prefix = "TY"', 'prefix = "ty"'), "'prefix'"),
    (('game = "toy"', 'game = "other"'), "'game'"),
    (('file = "pkg/rules.py"', "file = 3"), "'file'"),
    (("[[mutant]]", "[[mutant]"), "not valid TOML"),
    (('killers = ["tests/test_toy.py::test_limit"]', "killers = []"), "'killers'"),
    (('killers = ["tests/test_toy.py::test_limit"]', ""), "'killers'"),
])
def test_load_names_the_bad_key(tmp_path, edit, key):
    old, new = edit
    assert old in GOOD
    _write(tmp_path, GOOD.replace(old, new))
    with pytest.raises(run.BadInput, match=key):
        run.load("toy", tmp_path)


def test_load_rejects_a_name_used_twice(tmp_path):
    second = GOOD[GOOD.index("[[mutant]]"):].replace('rule = "TY-001"', 'rule = "TY-002"')
    _write(tmp_path, GOOD + second)
    with pytest.raises(run.BadInput, match="used twice"):
        run.load("toy", tmp_path)


def test_staleness_needs_exactly_one_match(tmp_path):
    _write(tmp_path, GOOD)
    (m,) = run.load("toy", tmp_path).mutants
    assert "does not exist" in run.staleness(m, tmp_path)
    (tmp_path / "pkg").mkdir()
    rules = tmp_path / "pkg" / "rules.py"
    rules.write_text("limit = 7\n")
    assert run.staleness(m, tmp_path) is None
    rules.write_text("limit = 7\nlimit = 7\n")
    assert "2 times" in run.staleness(m, tmp_path)
    rules.write_text("limit = 9\n")
    assert "0 times" in run.staleness(m, tmp_path)


@pytest.mark.parametrize(("n", "k"), [(30, 3), (31, 5), (7, 7), (5, 9), (33, 1)])
def test_subset_rotation_covers_every_mutant(n, k):
    items = tuple(range(n))
    seen = [0] * n
    for rotation in range(n):
        picked = run.subset(items, k, rotation)
        assert len(picked) == min(k, n) and len(set(picked)) == len(picked)
        for i in picked:
            seen[i] += 1
    assert seen == [min(k, n)] * n  # n rotations take every mutant equally often
    assert run.subset(items, k, 4) == run.subset(items, k, 4 + n)


def test_summary_counts_each_status():
    m = run.Mutant("terralore", "x", "TL-001", "f", "a", "b", "w", ())
    results = [run.Result(m, s, "", 0.0) for s in ("killed", "killed", "survived", "stale")]
    table = run.summary(results)
    row = next(line for line in table.splitlines() if line.startswith("terralore"))
    assert row.split() == ["terralore", "4", "2", "1", "1", "0", "0"]


def _toy_tree(tmp_path):
    """A tiny package with one rule and one test of it, as its own git-less tree."""
    root = tmp_path / "tree"
    (root / "pkg").mkdir(parents=True)
    (root / "tests").mkdir()
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "rules.py").write_text("def limit():\n    return 7\n\n\ndef other():\n"
                                           "    return 1\n")
    (root / "tests" / "test_toy.py").write_text(
        "from pkg.rules import limit\n\n\ndef test_limit():\n    assert limit() == 7\n")
    (root / "pyproject.toml").write_text("[tool.pytest.ini_options]\n")
    return root


def _toy_game(find, replace):
    m = run.Mutant("toy", "m", "TY-001", "pkg/rules.py", find, replace, "w",
                   ("tests/test_toy.py::test_limit",))
    return m, run.GameMutants("toy", "TY", "toy.md", ("tests/test_toy.py",), (m,))


def _digest(root):
    return {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in root.rglob("*.py")}


def test_run_mutant_kills_survives_and_leaves_the_tree_alone(tmp_path, monkeypatch):
    # the copy must import its own package; a toy tree has no simlib, so skip that check
    monkeypatch.setattr(run, "check_imports_copy", lambda repo, cache: None)
    root = _toy_tree(tmp_path)
    before = _digest(root)
    files = run.tree_files(root)
    m, gm = _toy_game("return 7", "return 8")
    killed = run.run_mutant(m, gm, root, files, timeout=120)
    assert killed.status == "killed" and "test_limit" in killed.detail
    m, gm = _toy_game("return 1", "return 2")
    assert run.run_mutant(m, gm, root, files, timeout=120).status == "survived"
    assert run.run_mutant(m, gm, root, files, timeout=120, quick=True).status == "survived"
    m, gm = _toy_game("return 7", "return 8")
    assert run.run_mutant(m, gm, root, files, timeout=120, quick=True).status == "killed"
    m, gm = _toy_game("return 9", "return 2")
    assert run.run_mutant(m, gm, root, files, timeout=120).status == "stale"
    m, gm = _toy_game("return 7", "return (")
    assert run.run_mutant(m, gm, root, files, timeout=120).status in ("killed", "broken")
    assert _digest(root) == before


def test_command_line_bad_input_is_one_line_and_exit_2():
    for argv in (["nogame"], [], ["subterra", "--all"], ["terralore", "--only", "TL-999:x"],
                 ["terralore", "--jobs", "0"]):
        out = subprocess.run([sys.executable, str(RUN_PY), *argv], capture_output=True,
                             text=True, cwd=ROOT)
        assert out.returncode == 2, (argv, out.stderr)
        lines = out.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), (argv, out.stderr)


def test_copy_imports_its_own_simlib(tmp_path):
    files = [f for f in run.tree_files(ROOT) if f.parts[0] == "simlib"]
    repo = run.copy_tree(ROOT, tmp_path, files)
    run.check_imports_copy(repo, tmp_path / "cache")  # raises when it would not
