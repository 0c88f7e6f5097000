"""Shared pieces of the checklist-coverage tests: a checklist's ids, and the ids tests cite.

A checklist (``shared/rules/<game>-checklist.md``) numbers each rule as ``**XX-nnn**``; a
test cites one as ``XX-nnn`` in a comment or ``xx_nnn`` / ``xxnnn`` in its name. A range
such as ``XX-113..137`` cites its first id only unless a game's test counts ranges
(``ranges=True``: every id in between).
"""

from __future__ import annotations

import re
from pathlib import Path


def cite_pattern(prefix: str) -> re.Pattern[str]:
    """The regex of a cite of ``prefix`` ids; group 1 is the three-digit number."""
    return re.compile(rf"(?<![A-Za-z]){prefix}[-_]?(\d{{3}})(?!\d)", re.IGNORECASE)


def checklist_ids(text: str, prefix: str) -> list[str]:
    """The ``prefix`` ids a checklist's text defines, in order."""
    return [f"{prefix}-{n}" for n in re.findall(rf"\*\*{prefix}-(\d{{3}})\*\*", text)]


def range_pattern(prefix: str) -> re.Pattern[str]:
    """The regex of a range ``XX-166..170``; groups 1 and 2 are its ends."""
    return re.compile(rf"(?<![A-Za-z]){prefix}-(\d{{3}})\.\.(\d{{3}})(?!\d)")


def cited_ids(folder: Path, skip: Path, prefix: str, ranges: bool = False) -> set[str]:
    """The ``prefix`` ids cited by the text files under ``folder``, ``skip`` aside."""
    cite = cite_pattern(prefix)
    span = range_pattern(prefix)
    cited: set[str] = set()
    for path in sorted(folder.rglob("*")):
        if not path.is_file() or path.resolve() == skip.resolve() or "__pycache__" in path.parts:
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        cited.update(f"{prefix}-{n}" for n in cite.findall(text))
        if ranges:
            for lo, hi in span.findall(text):
                cited.update(f"{prefix}-{n:03d}" for n in range(int(lo), int(hi) + 1))
    return cited
