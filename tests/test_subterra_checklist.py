"""Which Sub Terra checklist lines (ST-nnn) no test cites.

The checklist is ``shared/rules/sub-terra-checklist.md`` (beside the repository). Every
``**ST-nnn**`` id in it is looked up in the files of ``tests/`` other than this one, as
``ST-nnn`` (or ``st_nnn`` / ``stnnn`` in a test name). The uncited ids are printed; the test
fails only when their number grows past ``UNCITED_MAX`` or an uncited id has no reason
below, so the list can only shrink.

Ids no test cites, and why (``UNCITED``):

- ST-012: the starting-caver, horror and gas reminder markers are state slots
  (``gs[START]``, ``gs[N_HORRORS]``, ``gs[GAS_ACTIVE]``); "no effect of their own" is not
  observable beyond the rules they record, which ST-125/ST-143 test.
- ST-045, ST-046: the engine has no notion of players, only cavers (ST-047..049 tested).
- ST-066: no board ability is passive (every ability is an action or an action's cost), so
  there is nothing that could keep working while unconscious.
- ST-071, ST-072, ST-074, ST-077, ST-079: the turn loop (``take_turn_nb``) asks the bot for
  every action and for exerting; turn order, the 2-point budget, acting after seeing the
  last result, losing unspent points and combining the exert point with a normal point
  cannot be observed without depending on bot decisions (bots.py is being rewritten).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from checklist_helpers import checklist_ids as _checklist_ids
from checklist_helpers import cite_pattern
from checklist_helpers import cited_ids as _cited_ids

TESTS = Path(__file__).resolve().parent
CHECKLIST = TESTS.parent / ".." / "shared" / "rules" / "sub-terra-checklist.md"

UNCITED = {
    "ST-012": "reminder markers are state slots with no effect of their own",
    "ST-045": "the engine has no notion of players",
    "ST-046": "the engine has no notion of players",
    "ST-066": "no board ability is passive",
}
UNCITED_MAX = len(UNCITED)  # lower it whenever an id gains a test

CITE = cite_pattern("ST")


def checklist_ids(text: str) -> list[str]:
    return _checklist_ids(text, "ST")


def cited_ids(folder: Path, skip: Path) -> set[str]:
    return _cited_ids(folder, skip, "ST")


def test_cite_pattern_can_fail():
    # the matcher finds real citations and rejects look-alikes
    assert CITE.findall("# ST-028 ST-039") == ["028", "039"]
    assert CITE.findall("def test_st_113_x(): test_st114()") == ["113", "114"]
    assert CITE.findall("FIRST-028 ST-0281 ST-02") == []


def test_checklist_ids_are_cited():
    if not CHECKLIST.is_file():
        pytest.skip(f"checklist not found at {CHECKLIST} (it lives beside the repository)")
    ids = checklist_ids(CHECKLIST.read_text(encoding="utf-8"))
    assert ids == [f"ST-{i:03d}" for i in range(1, len(ids) + 1)] and len(ids) >= 200
    cited = cited_ids(TESTS, Path(__file__))
    uncited = [i for i in ids if i not in cited]
    print(f"{len(uncited)} of {len(ids)} checklist ids not cited by any test: "
          + ", ".join(uncited))
    assert set(uncited) <= set(UNCITED), (
        f"ids lost their tests or have no stated reason: {sorted(set(uncited) - set(UNCITED))}")
    assert len(uncited) <= UNCITED_MAX
