"""Content tables in TOML: read a data file, lay a designer's file over the defaults.

Errors are one line naming the file. Game-agnostic: each game validates its own tables.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

try:
    import tomllib
except ModuleNotFoundError:  # Python < 3.11
    import tomli as tomllib  # type: ignore[no-redef]

from simlib.errors import SimlibInputError

__all__ = ["read_toml", "merge_tables", "file_stamp"]


def read_toml(path: str | Path, what: str = "data file") -> dict[str, Any]:
    """Parse the TOML file ``path``; any failure is a ``SimlibInputError`` naming it."""
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        raise SimlibInputError(f"{what} '{path}' does not exist") from None
    except IsADirectoryError:
        raise SimlibInputError(f"{what} '{path}' is a folder; expected a .toml file") from None
    except OSError as err:
        raise SimlibInputError(f"{what} '{path}' cannot be read: {err.strerror}") from None
    except tomllib.TOMLDecodeError as err:
        raise SimlibInputError(f"{what} '{path}' is not valid TOML: {err}") from None
    except UnicodeDecodeError:
        raise SimlibInputError(f"{what} '{path}' is not UTF-8 text") from None


def merge_tables(base: dict, over: dict) -> dict:
    """Return ``base`` with ``over`` laid on top (neither argument is changed).

    Tables merge key by key; any other value is replaced.
    """
    out = copy.deepcopy(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merge_tables(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def file_stamp(path: str | Path | None) -> tuple[int, int] | None:
    """``(modification time in ns, size)`` of ``path``, or None when there is no such file.

    Loaders that cache a parsed file by its name add the stamp to the cache key, so an
    edited file is read again.
    """
    if path is None:
        return None
    try:
        st = Path(path).stat()
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size)
