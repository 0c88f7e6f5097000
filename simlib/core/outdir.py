"""The one guard of an output folder: what it may hold before a study writes into it.

Every writer keeps a record file in its folder (``run.json``, ``sweep.json``,
``ladder.json``, ``experiment.json``). A folder that does not exist, or is empty, is new;
one that holds the writer's record is the same study resumed when the record's identity
matches the call's; anything else is refused with one line naming the folder, before
anything is written.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from simlib.core.folderlock import LOCK_FILE
from simlib.core.results import read_json, value_text
from simlib.errors import SimlibInputError

__all__ = ["existing_record", "same_identity"]


def existing_record(
    folder: Path,
    record: str,
    what: str,
    *,
    fix: str = "use a new or empty folder",
    also_allowed: Callable[[Path], bool] | None = None,
) -> dict[str, Any] | None:
    """The record ``folder`` holds, or ``None`` when the folder is new; refuse anything else.

    Parameters
    ----------
    folder : Path
        The output folder.
    record : str
        The writer's record file (``"run.json"``).
    what : str
        What the folder should hold, in the user's words (``"simlib run"``), for messages.
    fix : str
        What the user should do instead, ending the message.
    also_allowed : callable, optional
        Entries a folder without the record may hold and still count as new (a sweep's
        ``param=value`` run folders). The lock file of a run in progress always may.

    Returns
    -------
    dict or None
        The record as read (``read_json``), or ``None`` for a missing or empty folder.

    Raises
    ------
    SimlibInputError
        ``folder`` is a file, or holds something other than ``record`` and what is allowed.

    """
    if not folder.exists():
        return None
    if not folder.is_dir():
        raise SimlibInputError(f"out folder '{folder}' is a file; expected a folder")
    if (folder / record).is_file():
        return read_json(folder / record, f"{what} file")
    foreign = [p for p in folder.iterdir()
               if p.name != LOCK_FILE and not (also_allowed is not None and also_allowed(p))]
    if foreign:
        raise SimlibInputError(
            f"out folder '{folder}' is not empty and holds no {what} (no {record}; e.g. "
            f"'{foreign[0].name}'); {fix}"
        )
    return None


def same_identity(
    folder: Path,
    stored: Mapping[str, Any],
    new: Mapping[str, Any],
    keys: Iterable[str],
    what: str,
    fix: str = "use another folder or the same configuration",
    here: str = "in this call",
) -> None:
    """Refuse a folder whose stored identity differs from the call's at any of ``keys``.

    The message names the first key that differs and both values: "out folder 'F' holds a
    different ladder (budgets: [0, 4] there, [0, 8] in this call); ...".
    """
    for key in keys:
        if stored.get(key) != new.get(key):
            raise SimlibInputError(
                f"out folder '{folder}' holds a different {what} ({key}: "
                f"{value_text(stored.get(key))} there, {value_text(new.get(key))} {here}); "
                f"{fix}"
            )
