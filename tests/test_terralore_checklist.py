"""Which Terralore checklist lines (TL-nnn) no test cites.

The checklist is ``shared/rules/terralore-checklist.md`` (beside the repository). Every
``**TL-nnn**`` id in it is looked up in the files of ``tests/`` other than this one, as
``TL-nnn`` (or ``tl_nnn`` / ``tlnnn`` in a test name). The uncited ids are printed; the test
fails when an uncited id has no reason below or their number grows past ``UNCITED_MAX``,
so the list can only shrink.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from checklist_helpers import checklist_ids as _checklist_ids
from checklist_helpers import cite_pattern
from checklist_helpers import cited_ids as _cited_ids

TESTS = Path(__file__).resolve().parent
CHECKLIST = TESTS.parent / ".." / "shared" / "rules" / "terralore-checklist.md"

UNCITED: dict[str, str] = {}
UNCITED_MAX = len(UNCITED)  # lower it whenever an id gains a test

CITE = cite_pattern("TL")


def checklist_ids(text: str) -> list[str]:
    return _checklist_ids(text, "TL")


def cited_ids(folder: Path, skip: Path) -> set[str]:
    return _cited_ids(folder, skip, "TL")


def test_cite_pattern_can_fail():
    assert CITE.findall("# TL-028 TL-039") == ["028", "039"]
    assert CITE.findall("def test_tl_013_x(): test_tl014()") == ["013", "014"]
    assert CITE.findall("HTL-028 TL-0281 TL-02") == []


def test_checklist_ids_are_cited():
    if not CHECKLIST.is_file():
        pytest.skip(f"checklist not found at {CHECKLIST} (it lives beside the repository)")
    ids = checklist_ids(CHECKLIST.read_text(encoding="utf-8"))
    assert ids == [f"TL-{i:03d}" for i in range(1, len(ids) + 1)] and len(ids) >= 88
    cited = cited_ids(TESTS, Path(__file__))
    uncited = [i for i in ids if i not in cited]
    print(f"{len(uncited)} of {len(ids)} checklist ids not cited by any test: "
          + ", ".join(uncited))
    assert set(uncited) <= set(UNCITED), (
        f"ids lost their tests or have no stated reason: {sorted(set(uncited) - set(UNCITED))}")
    assert len(uncited) <= UNCITED_MAX
