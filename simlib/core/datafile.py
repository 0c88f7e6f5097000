"""Content tables in TOML: read a data file, lay a designer's file over the defaults.

Errors are one line naming the file. Game-agnostic: each game validates its own tables.
"""

from __future__ import annotations

import copy
import hashlib
import os
import tempfile
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

try:
    import tomllib
except ModuleNotFoundError:  # Python < 3.11
    import tomli as tomllib  # type: ignore[no-redef]

from simlib.errors import SimlibInputError

__all__ = [
    "read_bytes",
    "read_toml",
    "merge_tables",
    "file_stamp",
    "DataSnapshot",
    "snapshot",
    "materialize",
    "load_tables",
]


def read_bytes(path: str | Path, what: str = "data file") -> bytes:
    """The bytes of ``path``; any failure is a ``SimlibInputError`` naming it."""
    try:
        return Path(path).read_bytes()
    except FileNotFoundError:
        raise SimlibInputError(f"{what} '{path}' does not exist") from None
    except IsADirectoryError:
        raise SimlibInputError(f"{what} '{path}' is a folder; expected a .toml file") from None
    except OSError as err:
        raise SimlibInputError(f"{what} '{path}' cannot be read: {err.strerror}") from None


def read_toml(path: str | Path, what: str = "data file") -> dict[str, Any]:
    """Parse the TOML file ``path``; any failure is a ``SimlibInputError`` naming it."""
    return _parse(read_bytes(path, what), path, what)


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


@dataclass(frozen=True)
class DataSnapshot:
    """The content of a data file as a run read it: the path given, its SHA-256, the bytes."""

    path: str
    sha256: str
    content: bytes


def snapshot(path: str | Path, what: str = "data file") -> DataSnapshot:
    """Read ``path`` once (``~`` expanded) and return its content with its SHA-256.

    A missing or unreadable file is a one-line ``SimlibInputError`` naming ``what``.
    """
    content = read_bytes(Path(path).expanduser(), f"{what}: data file")
    return DataSnapshot(str(path), hashlib.sha256(content).hexdigest(), content)


def _store_dir() -> Path:
    return Path(os.environ.get("SIMLIB_DATA_STORE") or Path(tempfile.gettempdir()) / "simlib-data")


def materialize(snap: DataSnapshot) -> str:
    """Write ``snap`` into a content-addressed store and return the path of that copy.

    The copy lives at ``<store>/<sha256>/<file name>``, so a game that caches a parsed file
    by its path caches by content, and a process (a Dask worker) that never saw the
    original file reads exactly the bytes the run recorded. ``SIMLIB_DATA_STORE`` moves the
    store (default: the system's temp folder).
    """
    folder = _store_dir() / snap.sha256
    target = folder / (Path(snap.path).name or "data.toml")
    try:
        if target.is_file() and hashlib.sha256(target.read_bytes()).hexdigest() == snap.sha256:
            return str(target)
        folder.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(f".{target.name}.tmp-{os.getpid()}")
        tmp.write_bytes(snap.content)
        os.replace(tmp, target)
    except OSError as err:
        raise SimlibInputError(
            f"data file '{snap.path}': cannot write its copy under '{folder}': {err.strerror} "
            "(set SIMLIB_DATA_STORE to a writable folder)"
        ) from None
    return str(target)


_TABLES: OrderedDict[tuple, dict[str, Any]] = OrderedDict()
_TABLES_MAX = 32


def load_tables(
    defaults: str | Path,
    path: str | Path | None,
    validate: Callable[[dict[str, Any], str], None],
    replace: tuple[str, ...] = (),
) -> dict[str, Any]:
    """A game's content tables: ``defaults`` with ``path`` laid on top, validated, cached.

    The cache keys on the two files' contents (SHA-256), never on their names or times:
    an edited file is read again, and two paths to the same bytes share one entry.
    ``validate(data, where)`` raises a one-line ``SimlibInputError`` on a bad value;
    ``where`` names the file to blame (``"data file 'my.toml'"``, or ``"the default data
    file '...'"`` when no file is given). The same dict is returned to every caller with
    the same contents: treat it as read-only. A top-level table named in ``replace`` that
    ``path`` holds replaces the default's whole instead of being merged key by key (a
    designer's deck list stands alone).
    """
    base = read_bytes(defaults, "default data file")
    given = path not in (None, "", "default")
    over = read_bytes(Path(str(path)).expanduser(), "data file") if given else b""
    key = (validate, hashlib.sha256(base).digest(), hashlib.sha256(over).digest(), given,
           tuple(replace))
    if key in _TABLES:
        _TABLES.move_to_end(key)
        return _TABLES[key]
    data = _parse(base, defaults, "default data file")
    where = f"the default data file '{defaults}'"
    if given:
        table = _parse(over, path, "data file")
        whole = {k: table[k] for k in replace if k in table}
        data = merge_tables(data, {k: v for k, v in table.items() if k not in whole})
        data.update(copy.deepcopy(whole))
        where = f"data file '{path}'"
    validate(data, where)
    _TABLES[key] = data
    if len(_TABLES) > _TABLES_MAX:
        _TABLES.popitem(last=False)
    return data


def _parse(content: bytes, path: Any, what: str) -> dict[str, Any]:
    try:
        return tomllib.loads(content.decode("utf-8"))
    except tomllib.TOMLDecodeError as err:
        raise SimlibInputError(f"{what} '{path}' is not valid TOML: {err}") from None
    except UnicodeDecodeError:
        raise SimlibInputError(f"{what} '{path}' is not UTF-8 text") from None
