"""The single jit factory: every kernel in simlib is compiled through these decorators.

``NUMBA_DISABLE_JIT=1`` turns every kernel back into plain Python, which is how the
benchmarks measure the plain-Python baseline and how kernels are debugged.

Calls between kernels are compiled for plain argument types: numba would otherwise compile
a callee once more for every constant it is passed (``damage_nb(..., CAUSE_GAS)`` and
``damage_nb(..., CAUSE_FLOOD)`` become two compiled functions, and a value that starts as
a constant before a loop compiles its callees twice). Signed integers narrower than 64
bits are passed on as int64 for the same reason: a callee handed a square's row read from
an ``int16`` array in one place and a computed ``int64`` in another was compiled for both
(Terraria compiled 323 kernels, 86 of them such copies; now 237, and its cold compile
fell from 122 to 90 s; records unchanged). Numba's arithmetic widens them anyway
(``int16 + int16`` is int64), so results are the same. A kernel that needs a literal
argument still gets one: if the plain types do not compile, the literal ones are used.

``njit(refcount=False)`` compiles a kernel without numba's reference counting. Numba
counts references to every array (and StructRef) a kernel is passed, takes a view of or
reads from a StructRef, with an atomic add and subtract each time. Passed down through a
game's call tree, that counting took a third of Sub Terra's time, over half of
Terralore's and four fifths of Terraria's (measured with perf). A kernel compiled without
it *borrows* what it is given, which is sound when it neither allocates nor returns an
array: numba refuses to compile an allocation there, a call from another kernel to one
that returns an array or StructRef is refused here (the caller would release a reference
that was never taken), and ``tests/test_refcount.py`` checks that batches of every
registered game allocate and free the same number of blocks.
Every other kernel states ``_nrt=True`` outright, so that it never inherits the setting
from whichever kernel happened to compile it first.

The on-disk cache is kept per version of simlib's source. Numba checks a cached kernel
against its own file only: after an edit to ``bots.py``, a kernel in ``play.py`` that calls
into it would load from the cache with the old bot compiled in, and a run would silently
play the old rules. So numba's cache directory is set, before any kernel is declared, to a
folder named by a hash of every ``.py`` file of the package (:func:`source_key`): under
``$NUMBA_CACHE_DIR`` when that is set, else the user's cache folder
(``$XDG_CACHE_HOME`` or ``~/.cache``) under ``simlib/numba``. Where that folder cannot be
written numba falls back to ``__pycache__`` beside the source, as without simlib.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

import numba
from numba.core import errors, types

__all__ = ["holds_reference", "njit", "source_key"]


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


def _cache_root() -> Path:
    user = os.environ.get("NUMBA_CACHE_DIR")
    if user:
        return Path(user)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "simlib" / "numba"


CACHE_DIR = str(_cache_root() / f"simlib-{source_key()}")
"""Where this version of simlib's kernels are cached (see the module docstring)."""
numba.config.CACHE_DIR = CACHE_DIR  # type: ignore[attr-defined]  # read as each kernel is declared


def holds_reference(ty: Any) -> bool:
    """Whether a value of numba type ``ty`` carries a reference count (an array, a struct)."""
    from numba.core.registry import cpu_target

    return bool(cpu_target.target_context.data_model_manager[ty].contains_nrt_meminfo())


def _checked(disp: Any, template: Any) -> Any:
    """Refuse a borrowing kernel that returns a counted value (its caller would release it)."""
    if disp.targetoptions.get("_nrt", True) is False:
        for sig in disp.nopython_signatures:
            if holds_reference(sig.return_type):
                raise errors.TypingError(
                    f"{disp.py_func.__qualname__} is compiled with refcount=False but returns "
                    f"{sig.return_type}: a borrowing kernel must not return an array"
                )
    return template


def _plain(ty: Any) -> Any:
    """The type a kernel is compiled for when another kernel passes it ``ty``.

    Literals lose their value; signed integers narrower than 64 bits are widened to int64,
    as numba's own arithmetic widens them (``int16 + int16`` is int64), so that a callee is
    compiled once whether its caller read an ``int16`` array, an ``int32`` one or did
    arithmetic. Unsigned integers keep their type: ``uint64`` mixed with ``int64`` would
    become a float.
    """
    ty = types.unliteral(ty)
    signed = isinstance(ty, types.Integer) and ty.signed  # type: ignore[attr-defined]
    if signed and ty.bitwidth < 64:  # (signed, bitwidth: set in Integer.__init__)
        return types.int64
    return ty


def _plain_calls(disp: Any) -> Any:
    """Make calls from other kernels to ``disp`` compile for non-literal argument types."""
    if not isinstance(disp, numba.core.dispatcher.Dispatcher):
        return disp  # NUMBA_DISABLE_JIT=1: a plain Python function
    literal = disp.get_call_template

    def get_call_template(args, kws):
        plain = tuple(_plain(a) for a in args)
        plain_kws = {k: _plain(v) for k, v in kws.items()}
        if plain != tuple(args) or plain_kws != kws:
            try:
                return _checked(disp, literal(plain, plain_kws))
            except errors.TypingError:
                pass
        return _checked(disp, literal(args, kws))

    setattr(disp, "get_call_template", get_call_template)  # noqa: B010 (an instance override)
    return disp


def njit(fn=None, *, refcount: bool = True, **kwargs):
    """Compile ``fn`` in nopython mode with an on-disk cache (``cache=True``).

    ``refcount=False``: the kernel borrows the arrays it is passed; it must neither
    allocate nor return an array (see the module docstring).
    """
    opts = {"cache": True, "nogil": True, "fastmath": False, "_nrt": refcount}
    opts.update(kwargs)

    def make(f):
        return _plain_calls(numba.njit(**opts)(f))

    return make if fn is None else make(fn)
