"""Which Terminus Breach TD checklist lines (TB-nnn) no test cites.

The checklist is ``shared/rules/terminus-checklist.md`` (beside the repository). Every
``**TB-nnn**`` id in it is looked up in the files of ``tests/`` other than this one, as
``TB-nnn`` (or ``tb_nnn`` / ``tbnnn`` in a test name). The uncited ids are printed; the test
fails only when an uncited id has no reason in ``UNCITED`` below, so the list can only
shrink.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from checklist_helpers import checklist_ids as _checklist_ids
from checklist_helpers import cite_pattern, range_pattern
from checklist_helpers import cited_ids as _cited_ids

TESTS = Path(__file__).resolve().parent
CHECKLIST = TESTS.parent / ".." / "shared" / "rules" / "terminus-checklist.md"

UNCITED: dict[str, str] = {}
UNCITED_MAX = len(UNCITED)  # lower it whenever an id gains a test

CITE = cite_pattern("TB")
RANGE = range_pattern("TB")  # "TB-166..170" cites every id in between


def checklist_ids(text: str) -> list[str]:
    return _checklist_ids(text, "TB")


def cited_ids(folder: Path, skip: Path) -> set[str]:
    return _cited_ids(folder, skip, "TB", ranges=True)


def test_cite_pattern_can_fail():
    assert CITE.findall("# TB-028 TB-039") == ["028", "039"]
    assert CITE.findall("def test_tb_113_x(): test_tb114()") == ["113", "114"]
    assert CITE.findall("STB-028 TB-0281 TB-02") == []
    assert RANGE.findall("TB-166..170 and TB-1..2") == [("166", "170")]


def test_checklist_ids_are_cited():
    if not CHECKLIST.is_file():
        pytest.skip(f"checklist not found at {CHECKLIST} (it lives beside the repository)")
    ids = checklist_ids(CHECKLIST.read_text(encoding="utf-8"))
    assert ids == [f"TB-{i:03d}" for i in range(1, len(ids) + 1)] and len(ids) >= 200
    cited = cited_ids(TESTS, Path(__file__))
    uncited = [i for i in ids if i not in cited]
    print(f"{len(uncited)} of {len(ids)} checklist ids not cited by any test: "
          + ", ".join(uncited))
    assert set(uncited) <= set(UNCITED), (
        f"ids lost their tests or have no stated reason: {sorted(set(uncited) - set(UNCITED))}")
    assert len(uncited) <= UNCITED_MAX
