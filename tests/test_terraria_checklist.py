"""Which Terraria checklist lines (TR-nnn) the tests cite, and that every cite is real.

The checklist is ``shared/rules/terraria-checklist.md`` (beside the repository). The engine
is being built in slices, so most ids are not cited yet; this test fails when a test cites
an id the checklist does not have, or when the number of cited ids falls below
``CITED_MIN`` (raise it as slices land, so coverage can only grow). The uncited ids are
printed (``pytest -s``).
"""

from __future__ import annotations

import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent
CHECKLIST = TESTS.parent / ".." / "shared" / "rules" / "terraria-checklist.md"
CITED_MIN = 429

CITE = re.compile(r"(?<![A-Za-z])TR[-_]?(\d{3})(?!\d)", re.IGNORECASE)


def checklist_ids(text: str) -> list[str]:
    return [f"TR-{n}" for n in re.findall(r"\*\*TR-(\d{3})\*\*", text)]


def cited_ids(folder: Path, skip: Path) -> set[str]:
    cited: set[str] = set()
    for path in sorted(folder.glob("*.py")):
        if path.resolve() == skip.resolve():
            continue
        # a range such as "TR-113..137" cites its first id only: each id needs its own cite
        cited.update(f"TR-{n}" for n in CITE.findall(path.read_text(encoding="utf-8")))
    return cited


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
