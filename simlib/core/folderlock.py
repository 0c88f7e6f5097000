"""An exclusive lock on a results folder, so two writers never mix their chunks.

The lock is ``DIR/.simlib-lock``, held with ``flock`` for as long as a run writes the
folder. The operating system drops the lock when its process ends, however it ends, so a
lock cannot go stale: a file left with a holder's details but no lock on it is the trace of
a process that died (kill -9, a crash), and the next writer takes it over with a message.
The file stays in the folder (removing it would let a third writer lock a new file while a
second still waits on the old one); its content names the holder while it holds the lock
and is emptied when it lets go.

On a platform without ``fcntl`` (Windows) the lock is not taken.
"""

from __future__ import annotations

import json
import os
import socket
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from simlib.errors import SimlibInputError

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

__all__ = ["LOCK_FILE", "folder_lock"]

LOCK_FILE = ".simlib-lock"


def _holder(text: str) -> dict | None:
    try:
        data = json.loads(text)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def _describe(holder: dict | None) -> str:
    if not holder:
        return "another process"
    since = holder.get("since")
    when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(since)) if since else "?"
    return f"process {holder.get('pid', '?')} on {holder.get('host', '?')} (since {when})"


@contextmanager
def folder_lock(folder: str | os.PathLike, what: str = "out folder") -> Iterator[None]:
    """Hold the folder's lock for the ``with`` block; refuse with one line if it is held.

    ``folder`` must exist. A lock left by a process that has ended is taken over with a
    one-line message on stderr.
    """
    if fcntl is None:  # pragma: no cover - Windows
        yield
        return
    path = Path(folder) / LOCK_FILE
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as err:
        raise SimlibInputError(
            f"{what} '{folder}': cannot create its lock file: {err.strerror}"
        ) from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(os.pread(fd, 4096, 0).decode("utf-8", "replace"))
            raise SimlibInputError(
                f"{what} '{folder}' is being written by {_describe(holder)}; wait for it to "
                "finish or use another folder"
            ) from None
        left = _holder(os.pread(fd, 4096, 0).decode("utf-8", "replace"))
        if left:
            print(
                f"simlib: {what} '{folder}': taking over the lock left by {_describe(left)}, "
                "which has ended",
                file=sys.stderr,
            )
        mine = {"pid": os.getpid(), "host": socket.gethostname(), "since": time.time()}
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps(mine).encode("utf-8"), 0)
        try:
            yield
        finally:
            os.ftruncate(fd, 0)
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)
