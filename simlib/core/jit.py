"""The single jit factory: every kernel in simlib is compiled through these decorators.

``NUMBA_DISABLE_JIT=1`` turns every kernel back into plain Python, which is how the
benchmarks measure the plain-Python baseline and how kernels are debugged.

Calls between kernels are compiled for plain argument types: numba would otherwise compile
a callee once more for every constant it is passed (``damage_nb(..., CAUSE_GAS)`` and
``damage_nb(..., CAUSE_FLOOD)`` become two compiled functions, and a value that starts as
a constant before a loop compiles its callees twice). Results are the same; a cold
compile is shorter. A kernel that needs a literal argument still gets one: if the plain
types do not compile, the literal ones are used.

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
"""

from __future__ import annotations

from typing import Any

import numba
from numba.core import errors, types

__all__ = ["holds_reference", "njit", "njit_parallel", "prange"]

prange = numba.prange


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


def _plain_calls(disp: Any) -> Any:
    """Make calls from other kernels to ``disp`` compile for non-literal argument types."""
    if not isinstance(disp, numba.core.dispatcher.Dispatcher):
        return disp  # NUMBA_DISABLE_JIT=1: a plain Python function
    literal = disp.get_call_template

    def get_call_template(args, kws):
        plain = tuple(types.unliteral(a) for a in args)
        plain_kws = {k: types.unliteral(v) for k, v in kws.items()}
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


def njit_parallel(fn=None, **kwargs):
    """Compile a batch kernel with ``parallel=True`` (``prange`` over games), cached."""
    opts = {"cache": True, "nogil": True, "parallel": True, "_nrt": True}
    opts.update(kwargs)
    if fn is None:
        return lambda f: _plain_calls(numba.njit(**opts)(f))
    return _plain_calls(numba.njit(**opts)(fn))
