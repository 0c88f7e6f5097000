"""The single jit factory: every kernel in simlib is compiled through :func:`njit`.

``NUMBA_DISABLE_JIT=1`` turns every kernel back into plain Python, which is how the
benchmarks measure the plain-Python baseline and how kernels are debugged.

This module uses numba's public API: ``numba.njit`` with ``cache=True``, ``nogil=True``
and ``fastmath=False`` (so no compiled kernel changes an arithmetic result). What numba's
public API cannot do but pays for itself (at least 10% more games/s or a 10% shorter cold
compile, measured) lives in :mod:`simlib.core._numba_compat`, which is used with the numba
releases CI tests and replaced by this public path, with one warning, under any other:

- ``njit(refcount=False)``: the kernel *borrows* the arrays and StructRefs it is passed
  instead of counting references to them (numba counts each with an atomic add and
  subtract; passed down a game's call tree, that took a third to four fifths of a game's
  time). It must neither allocate (numba refuses to compile that) nor return an array (the
  factory refuses it: the caller would release a reference that was never taken), and must
  not assign a StructRef field (the counts of the old and new value would be skipped;
  ``tests/test_jit.py`` checks that no kernel does). ``tests/test_refcount.py`` plays every
  game with numba's allocation statistics on and checks that nothing leaks. Every kernel
  that reads ``st`` / ``tab`` and neither allocates nor returns an array borrows.
- Each kernel is two dispatchers of the same code (:class:`Kernel`): the one Python calls,
  and one that other kernels call, compiled without Python wrappers into a library that is
  only linked into its callers', so a game's call tree is optimised and emitted once.
- Calls between kernels compile for plain argument types (a callee compiled once for
  ``int64`` rather than once per constant or integer width its callers pass).

On the public path ``refcount=False`` is a hint only: the kernel counts references;
records are the same either way.

Numba caches compiled kernels on disk, and checks a cached kernel against its own file
only: after an edit to ``bots.py``, a kernel in ``play.py`` that calls into it would load
from the cache with the old bot compiled in, and a run would silently play the old rules.
So simlib keeps its kernels in a folder per version of its source, named by a hash of every
``.py`` file of the package and numba's version (:func:`source_key`, :func:`cache_dir`):
under numba's own ``CACHE_DIR`` (``$NUMBA_CACHE_DIR``) when that is set, else the user's
cache folder (``$XDG_CACHE_HOME`` or ``~/.cache``) under ``simlib/numba``. Where that folder
cannot be written numba falls back to ``__pycache__`` beside the source, as without simlib.

Nothing of this happens at import (STYLE 12): a :class:`Kernel` makes its numba dispatchers
at first use, the hash is taken at the first compile, and numba's ``CACHE_DIR`` is set only
for the moment a dispatcher is made (numba reads it then, to choose the dispatcher's cache
folder) and put back at once: numba code outside simlib keeps its own cache folder (only a
dispatcher another thread made in that same instant would share simlib's). That is numba's
public setting, where a per-kernel cache locator would have needed numba's private caching
module;
``tests/test_jit.py`` checks that an edit to a callee's module is not served stale, and that
numba's own cache would have served it.
"""

from __future__ import annotations

import functools
import hashlib
import os
import threading
import types as pytypes
from pathlib import Path
from typing import Any

import numba

from simlib.core import _numba_compat

__all__ = [
    "Kernel",
    "cache_dir",
    "cache_is_cold",
    "njit",
    "source_key",
]


def source_key(root: str | os.PathLike[str] | None = None) -> str:
    """A hash of the ``.py`` files under ``root`` (default: the simlib package), names included."""
    base = Path(root) if root is not None else Path(__file__).resolve().parents[1]
    h = hashlib.sha256()
    for path in sorted(base.rglob("*.py")):
        h.update(path.relative_to(base).as_posix().encode())
        h.update(b"\0")
        h.update(path.read_bytes())
        h.update(b"\0")
    return h.hexdigest()[:16]


_LOCK = threading.RLock()


@functools.cache
def cache_dir() -> str:
    """Where this version of simlib's kernels are cached (see the module docstring).

    Worked out once, at the first compile or the first call: numba's own ``CACHE_DIR``
    (``$NUMBA_CACHE_DIR``) when set, else ``$XDG_CACHE_HOME`` or ``~/.cache``, then
    ``simlib/numba/simlib-<source_key()>-numba<version>`` (``-public`` added on numba's
    public path): numba's cache index tells neither the numba release nor the options a
    kernel was compiled with apart, so each gets its own folder.
    """
    user = numba.config.CACHE_DIR  # type: ignore[attr-defined]
    if user:
        root = Path(user)
    else:
        xdg = os.environ.get("XDG_CACHE_HOME")
        root = (Path(xdg) if xdg else Path.home() / ".cache") / "simlib" / "numba"
    path = "" if _numba_compat.ACTIVE else "-public"  # the two paths compile differently
    return str(root / f"simlib-{source_key()}-numba{numba.__version__}{path}")


def _dispatcher(f: Any, opts: dict[str, Any]) -> Any:
    """``numba.njit(**opts)(f)``, its on-disk cache (if any) in :func:`cache_dir`.

    Numba picks a dispatcher's cache folder from ``numba.config.CACHE_DIR`` when the
    dispatcher is made, so it is set for that moment and put back: no other numba code in
    the process sees simlib's folder.
    """
    if not opts.get("cache"):
        return numba.njit(**opts)(f)
    where = cache_dir()
    with _LOCK:
        saved = numba.config.CACHE_DIR  # type: ignore[attr-defined]
        numba.config.CACHE_DIR = where  # type: ignore[attr-defined]
        try:
            return numba.njit(**opts)(f)
        finally:
            numba.config.CACHE_DIR = saved  # type: ignore[attr-defined]


def cache_is_cold(module: str) -> bool:
    """Whether no kernel of package ``module`` (``simlib.games.subterra``) is cached yet.

    Numba caches a source folder's kernels in ``cache_dir()/<folder>_<hash>/*.nbi``; none
    for the game's folder (or a subfolder) means its first run compiles them all. Always
    False under ``NUMBA_DISABLE_JIT=1`` (nothing is compiled).
    """
    if numba.config.DISABLE_JIT:  # type: ignore[attr-defined]
        return False
    leaf = module.rsplit(".", 1)[-1]
    root = Path(cache_dir())
    return not root.is_dir() or not any(root.glob(f"{leaf}_*/*.nbi"))


def _twin(f: Any) -> Any:
    """A copy of ``f`` (same code and globals) under its own name, so its cache files differ."""
    g = pytypes.FunctionType(f.__code__, f.__globals__, f.__name__, f.__defaults__,
                             f.__closure__)
    g.__kwdefaults__ = f.__kwdefaults__
    g.__module__ = f.__module__
    g.__doc__ = f.__doc__
    g.__qualname__ = f"{f.__qualname__}__inner"
    return g


class Kernel:
    """A compiled kernel: the numba dispatchers of one function, made on first use.

    Numba sees this object as ``inner`` (``_numba_type_``, the hook numba's own typed
    containers use), the dispatcher other kernels compile against; called from Python it
    runs ``outer``. On the public path (:data:`simlib.core._numba_compat.ACTIVE` False)
    they are one dispatcher. Otherwise ``inner`` is a twin without Python wrappers that
    compiles into a link-only library (see :mod:`simlib.core._numba_compat`). Both are
    made at first use, not when the kernel is declared, so that importing a game compiles
    and hashes nothing; attributes (``signatures``, ``py_func``, ...) are ``inner``'s.
    """

    def __init__(self, f: Any, opts: dict[str, Any], refcount: bool = True,
                 llvm_inline: bool = False) -> None:
        functools.update_wrapper(self, f)
        self._opts = opts
        self._refcount = refcount
        self._llvm_inline = llvm_inline
        self._inner: Any = None
        self._outer: Any = None

    @property
    def _numba_type_(self) -> Any:
        return self.inner._numba_type_

    @property
    def inner(self) -> Any:
        """The dispatcher other kernels call (made on first use)."""
        if self._inner is None:
            if not _numba_compat.ACTIVE:
                return self.outer
            with _LOCK:
                if self._inner is None:
                    opts = dict(self._opts, **_numba_compat.borrowing_options(self._refcount))
                    twin = _twin(self.__wrapped__)
                    if self._llvm_inline:
                        _numba_compat.mark_always_inline(twin)
                    self._inner = _numba_compat.plain_calls(
                        _dispatcher(twin, _numba_compat.inner_options(opts)))
        return self._inner

    @property
    def outer(self) -> Any:
        """The dispatcher Python calls (compiled with the wrappers, on first use).

        Made once under a lock: a run's first blocks call it from several threads at once,
        and two dispatchers would each compile the whole kernel.
        """
        if self._outer is None:
            with _LOCK:
                if self._outer is None:
                    opts = self._opts
                    if _numba_compat.ACTIVE:
                        opts = _numba_compat.outer_options(
                            dict(opts, **_numba_compat.borrowing_options(self._refcount)))
                    self._outer = _dispatcher(self.__wrapped__, opts)
        return self._outer

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Run the kernel from Python (``outer``)."""
        return self.outer(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name in ("_inner", "_outer"):
            raise AttributeError(name)
        return getattr(self.inner, name)

    def __repr__(self) -> str:
        return f"<simlib kernel {self.__qualname__}>"


def njit(fn=None, *, refcount: bool = True, llvm_inline: bool = False, **kwargs):
    """Compile ``fn`` in nopython mode with an on-disk cache (``cache=True``).

    ``refcount=False``: the kernel borrows the arrays it is passed; it must neither
    allocate nor return an array (see the module docstring). ``llvm_inline=True``: every
    kernel that calls it gets its code in place of the call (LLVM's ``alwaysinline``,
    :func:`simlib.core._numba_compat.mark_always_inline`). Both are hints: on numba's
    public path (an untested numba) the kernel counts references and is called, with the
    same results.
    Other keywords go to ``numba.njit``. Returns a :class:`Kernel` (or ``fn`` itself under
    ``NUMBA_DISABLE_JIT=1``).
    """
    opts = {"cache": True, "nogil": True, "fastmath": False}
    opts.update(kwargs)

    def make(f):
        if numba.config.DISABLE_JIT:
            return f
        return Kernel(f, opts, refcount=refcount, llvm_inline=llvm_inline)

    return make if fn is None else make(fn)
