"""The single jit factory: every kernel in simlib is compiled through these decorators.

``NUMBA_DISABLE_JIT=1`` turns every kernel back into plain Python, which is how the
benchmarks measure the plain-Python baseline and how kernels are debugged.
"""

from __future__ import annotations

import numba

__all__ = ["njit", "njit_parallel", "prange"]

prange = numba.prange


def njit(fn=None, **kwargs):
    """Compile ``fn`` in nopython mode with an on-disk cache (``cache=True``)."""
    opts = {"cache": True, "nogil": True, "fastmath": False}
    opts.update(kwargs)
    if fn is None:
        return lambda f: numba.njit(**opts)(f)
    return numba.njit(**opts)(fn)


def njit_parallel(fn=None, **kwargs):
    """Compile a batch kernel with ``parallel=True`` (``prange`` over games), cached."""
    opts = {"cache": True, "nogil": True, "parallel": True}
    opts.update(kwargs)
    if fn is None:
        return lambda f: numba.njit(**opts)(f)
    return numba.njit(**opts)(fn)
