"""The single jit factory: every kernel in simlib is compiled through these decorators.

``NUMBA_DISABLE_JIT=1`` turns every kernel back into plain Python, which is how the
benchmarks measure the plain-Python baseline and how kernels are debugged.

Calls between kernels are compiled for plain argument types: numba would otherwise compile
a callee once more for every constant it is passed (``damage_nb(..., CAUSE_GAS)`` and
``damage_nb(..., CAUSE_FLOOD)`` become two compiled functions, and a value that starts as
a constant before a loop compiles its callees twice). Results are the same; a cold
compile is shorter. A kernel that needs a literal argument still gets one: if the plain
types do not compile, the literal ones are used.
"""

from __future__ import annotations

from typing import Any

import numba
from numba.core import errors, types

__all__ = ["njit", "njit_parallel", "prange"]

prange = numba.prange


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
                return literal(plain, plain_kws)
            except errors.TypingError:
                pass
        return literal(args, kws)

    setattr(disp, "get_call_template", get_call_template)  # noqa: B010 (an instance override)
    return disp


def njit(fn=None, **kwargs):
    """Compile ``fn`` in nopython mode with an on-disk cache (``cache=True``)."""
    opts = {"cache": True, "nogil": True, "fastmath": False}
    opts.update(kwargs)
    if fn is None:
        return lambda f: _plain_calls(numba.njit(**opts)(f))
    return _plain_calls(numba.njit(**opts)(fn))


def njit_parallel(fn=None, **kwargs):
    """Compile a batch kernel with ``parallel=True`` (``prange`` over games), cached."""
    opts = {"cache": True, "nogil": True, "parallel": True}
    opts.update(kwargs)
    if fn is None:
        return lambda f: _plain_calls(numba.njit(**opts)(f))
    return _plain_calls(numba.njit(**opts)(fn))
