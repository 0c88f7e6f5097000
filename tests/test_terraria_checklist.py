"""Which Terraria checklist lines (TR-nnn) the tests cite, and that every cite is real.

The checklist is ``shared/rules/terraria-checklist.md`` (beside the repository). The engine
is being built in slices, so most ids are not cited yet; this test fails when a test cites
an id the checklist does not have, or when the number of cited ids falls below
``CITED_MIN`` (raise it as slices land, so coverage can only grow). The uncited ids are
printed (``pytest -s``).
"""

from __future__ import annotations

from pathlib import Path

from checklist_helpers import checklist_ids as _checklist_ids
from checklist_helpers import cite_pattern
from checklist_helpers import cited_ids as _cited_ids

TESTS = Path(__file__).resolve().parent
CHECKLIST = TESTS.parent / ".." / "shared" / "rules" / "terraria-checklist.md"
CITED_MIN = 438

CITE = cite_pattern("TR")


def checklist_ids(text: str) -> list[str]:
    return _checklist_ids(text, "TR")


def cited_ids(folder: Path, skip: Path) -> set[str]:
    return _cited_ids(folder, skip, "TR")


def test_every_cite_is_a_checklist_id_and_coverage_only_grows():
    ids = checklist_ids(CHECKLIST.read_text(encoding="utf-8"))
    assert len(ids) > 400 and len(set(ids)) == len(ids)
    cited = cited_ids(TESTS, Path(__file__))
    unknown = sorted(cited - set(ids))
    assert not unknown, f"tests cite ids the checklist lacks: {unknown}"
    uncited = [i for i in ids if i not in cited]
    print(
        f"\n{len(cited)} of {len(ids)} Terraria checklist ids cited; uncited: " + ", ".join(uncited)
    )
    assert len(cited) >= CITED_MIN


def test_cite_pattern_rejects_near_misses(tmp_path):
    (tmp_path / "t.py").write_text("# TR-012, tr_013, TR-020..022, XTR-030, TR-0400\n")
    assert cited_ids(tmp_path, tmp_path / "none.py") == {"TR-012", "TR-013", "TR-020"}
