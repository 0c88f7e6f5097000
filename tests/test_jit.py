"""The jit factory: calls between kernels compile for plain (non-literal) argument types."""

from __future__ import annotations

import os

import numpy as np
import pytest

from simlib.core import jit
from simlib.core.jit import njit

# cache=False below: a kernel loaded from the cache never compiles its callees, so their
# signatures would not show
JIT = os.environ.get("NUMBA_DISABLE_JIT") != "1"


@njit(cache=False)  # compiled in this process, so the signatures are visible
def _scale(x, k):
    return x * k


@njit(cache=False)  # compiled in this process, so the signatures are visible
def _calls_with_constants(x):
    # two different constants: numba alone would compile _scale twice (Literal[int](2),
    # Literal[int](3)); the factory compiles it once for (int64, int64)
    return _scale(x, 2) + _scale(x, 3)


@njit(cache=False)  # compiled in this process, so the signatures are visible
def _pick(t, i):
    return t[i]  # a heterogeneous tuple can only be indexed by a literal


@njit(cache=False)  # compiled in this process, so the signatures are visible
def _calls_needing_a_literal(x):
    t = (x, 1.5)
    return _pick(t, 1)


@pytest.mark.skipif(not JIT, reason="compiled kernels only")
def test_constant_arguments_compile_one_plain_signature():
    assert _calls_with_constants(np.int64(5)) == 25
    sigs = [tuple(str(a) for a in s) for s in _scale.signatures]
    assert sigs == [("int64", "int64")]


@njit(cache=False)  # compiled in this process, so the signatures are visible
def _add(x, k):
    return x + k


@njit(cache=False)  # compiled in this process, so the signatures are visible
def _calls_with_narrow_ints(a16, a32, u):
    # int16, int32 and int64 values: numba alone would compile _add three times; the
    # factory compiles it once for int64 (unsigned values keep their type)
    return _add(a16[0], a32[0]) + _add(a16[0] + 1, a32[1]) + _add(a32[0], 7), _add(u, u)


@pytest.mark.skipif(not JIT, reason="compiled kernels only")
def test_narrow_signed_integers_compile_one_int64_signature():
    a16 = np.array([30000], np.int16)
    a32 = np.array([2, 3], np.int32)
    s, us = _calls_with_narrow_ints(a16, a32, np.uint64(2**63))
    assert s == (30000 + 2) + (30001 + 3) + (2 + 7)  # no int16 wrap-around either
    assert us == 0  # uint64 arithmetic wraps as before
    sigs = sorted(tuple(str(a) for a in sig) for sig in _add.signatures)
    assert sigs == [("int64", "int64"), ("uint64", "uint64")]


@pytest.mark.skipif(not JIT, reason="compiled kernels only")
def test_a_kernel_that_needs_a_literal_still_compiles():
    assert _calls_needing_a_literal(np.int64(5)) == 1.5
    assert all("Literal" in str(s[1]) for s in _pick.signatures)


def test_plain_python_mode_is_untouched():
    assert _scale(4, 3) == 12


@njit(cache=False, refcount=False)  # compiled in this process, so the check runs
def _borrow_pick(a):
    # numba itself refuses a new array or a view here, but allows an argument back: the
    # caller would then release a reference that was never taken
    return a


@njit(cache=False)
def _calls_borrow_pick(a):
    return _borrow_pick(a)[0]


@njit(cache=False, refcount=False)
def _borrow_sum(a):
    total = 0.0
    for x in a:
        total += x
    return total


@njit(cache=False)
def _calls_borrow_sum(a):
    return _borrow_sum(a[1:]) + _borrow_sum(a)


@pytest.mark.skipif(not JIT, reason="compiled kernels only")
def test_a_borrowing_kernel_that_returns_an_array_is_refused():
    from numba.core.errors import TypingError

    with pytest.raises(TypingError, match="refcount=False but returns"):
        _calls_borrow_pick(np.zeros(3))


def test_a_borrowing_kernel_reads_what_it_is_passed():
    a = np.arange(5, dtype=np.float64)
    assert _calls_borrow_sum(a) == 20.0


if JIT:
    from numba.core import types as nbtypes
    from numba.experimental import structref

    @structref.register
    class _PairType(nbtypes.StructRef):
        def preprocess_fields(self, fields):
            return tuple((n, nbtypes.unliteral(t)) for n, t in fields)

    class _Pair(structref.StructRefProxy):
        pass

    structref.define_proxy(_Pair, _PairType, ["a", "b"])


@njit(cache=False, refcount=False)
def _borrow_fields(p):
    for i in range(p.a.shape[0]):
        p.b[i] = 2.0 * p.a[i]
    return p.a[1] + p.b[-1]


@njit(cache=False)
def _calls_borrow_fields(p):
    return _borrow_fields(p)


@pytest.mark.skipif(not JIT, reason="compiled kernels only")
def test_a_borrowing_kernel_reads_struct_fields_without_counting():
    a = np.arange(4, dtype=np.float64)
    b = np.zeros(4)
    assert _calls_borrow_fields(_Pair(a, b)) == 1.0 + 6.0
    assert b.tolist() == [0.0, 2.0, 4.0, 6.0]  # wrote through the borrowed field
    (sig,) = _borrow_fields.inner.signatures
    ir = _borrow_fields.inner.overloads[sig].library.get_llvm_str()
    assert "NRT_incref" not in ir and "NRT_decref" not in ir
    assert "NRT_incref" in _calls_borrow_fields.outer.inspect_llvm(
        _calls_borrow_fields.outer.signatures[0])  # the counting caller does count


def test_the_numba_cache_is_kept_per_source_version(tmp_path):
    import numba

    from simlib.core import jit

    assert numba.config.CACHE_DIR == jit.CACHE_DIR
    assert jit.CACHE_DIR.endswith("simlib-" + jit.source_key())
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text("x = 1\n")
    (tmp_path / "pkg" / "b.py").write_text("y = 2\n")
    key = jit.source_key(tmp_path / "pkg")
    assert jit.source_key(tmp_path / "pkg") == key  # stable
    (tmp_path / "pkg" / "b.py").write_text("y = 3\n")  # an edit in any file
    assert jit.source_key(tmp_path / "pkg") != key
    (tmp_path / "pkg" / "b.py").write_text("y = 2\n")
    (tmp_path / "pkg" / "b.py").rename(tmp_path / "pkg" / "c.py")  # a file renamed
    assert jit.source_key(tmp_path / "pkg") != key


@njit(cache=False)  # compiled in this process, so the signatures are visible
def _inner_only(x):
    return x + 1


@njit(cache=False)
def _calls_inner_only(x):
    return _inner_only(x) * 2


@pytest.mark.skipif(not JIT, reason="compiled kernels only")
def test_a_kernel_called_from_kernels_compiles_no_wrappers_and_no_machine_code():
    assert _calls_inner_only(np.int64(4)) == 10
    # the caller was compiled against the wrapper-less twin ...
    assert _inner_only.inner.targetoptions["no_cpython_wrapper"] is True
    assert _inner_only.inner.targetoptions["no_cfunc_wrapper"] is True
    assert [str(a) for a in _inner_only.inner.signatures[0]] == ["int64"]
    # ... whose library only links (no machine code: the caller's has it, and it runs)
    (cres,) = _inner_only.inner.overloads.values()
    if jit.LINK_ONLY:
        assert type(cres.library).__name__ == "_LinkOnlyLibrary"
        assert cres.library.get_pointer_to_function(cres.fndesc.llvm_func_name) == 0
    (caller,) = _calls_inner_only.outer.overloads.values()
    assert caller.library.get_pointer_to_function(caller.fndesc.llvm_func_name) != 0
    # ... and Python never needed the wrapped one
    assert _inner_only._outer is None
    # the Python-facing twin compiles on first call, with its wrappers
    assert _inner_only(np.int64(4)) == 5
    assert "no_cpython_wrapper" not in _inner_only.outer.targetoptions
    # the twins are cached under different names (numba's cache key has no flags)
    assert _inner_only.inner.py_func.__qualname__ != _inner_only.outer.py_func.__qualname__
    assert _inner_only.inner.py_func.__code__ is _inner_only.outer.py_func.__code__
    assert _inner_only.__name__ == "_inner_only" and _inner_only.__doc__ is None


def _sum_of_squares(a):
    t = 0
    for v in a:
        t += v * v
    return t


# the same code twice, marked and not: the mark is the only difference between them
_summed_inline = njit(cache=False, llvm_inline=True)(_sum_of_squares)
_summed_plain = njit(cache=False)(_sum_of_squares)


@njit(cache=False)
def _calls_summed(a):
    return _summed_inline(a) + _summed_plain(a)


@pytest.mark.skipif(not JIT or not jit.LINK_ONLY, reason="link-only compiled kernels only")
def test_an_inline_kernel_is_compiled_into_its_callers():
    a = np.arange(5, dtype=np.int64)
    assert _calls_summed(a) == 60
    (inline,) = _summed_inline.inner.overloads.values()
    (plain,) = _summed_plain.inner.overloads.values()

    def attributes(cres):
        fn = cres.library._final_module.get_function(cres.fndesc.mangled_name)
        return {bytes(x).decode() for x in fn.attributes}

    assert "alwaysinline" in attributes(inline)
    assert "alwaysinline" not in attributes(plain)  # the mark is what makes the difference
    (caller,) = _calls_summed.outer.overloads.values()
    calls = [ln for ln in caller.library.get_llvm_str().splitlines() if " call " in ln]
    assert not any(inline.fndesc.mangled_name in ln for ln in calls)
    # called from Python, an inline kernel still runs as any other
    assert _summed_inline(a) == 30


def _times_three(x):
    return x * 3


@pytest.mark.skipif(not JIT, reason="compiled kernels only")
def test_threads_calling_a_kernel_first_share_one_compiled_twin(monkeypatch):
    # a run's first blocks call the block player from several threads at once: each
    # must get the same Python-facing dispatcher, or each would compile the whole kernel
    import threading
    import time

    import numba

    kernel = njit(cache=False)(_times_three)
    made = []
    real_njit = numba.njit

    def slow_njit(**opts):  # widen the window in which a second thread could slip in
        time.sleep(0.05)
        made.append(opts)
        return real_njit(**opts)

    monkeypatch.setattr(numba, "njit", slow_njit)
    barrier = threading.Barrier(8)
    seen = []

    def first_call():
        barrier.wait()
        seen.append(kernel.outer)

    threads = [threading.Thread(target=first_call) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(made) == 1  # one dispatcher made ...
    assert len(seen) == 8 and all(d is seen[0] for d in seen)  # ... and shared
    assert kernel(np.int64(2)) == 6


def _borrowing_kernels_assigning_fields(source: str, name: str) -> list[str]:
    """``file:line kernel`` for each ``njit(refcount=False)`` kernel that assigns an attribute."""
    import ast

    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.FunctionDef):
            continue
        borrowing = any(
            isinstance(d, ast.Call) and getattr(d.func, "id", "") == "njit"
            and any(k.arg == "refcount" and isinstance(k.value, ast.Constant)
                    and k.value.value is False for k in d.keywords)
            for d in node.decorator_list)
        if not borrowing:
            continue
        for sub in ast.walk(node):
            targets = sub.targets if isinstance(sub, ast.Assign) else (
                [sub.target] if isinstance(sub, (ast.AugAssign, ast.AnnAssign)) else [])
            for t in targets:
                for part in ast.walk(t):
                    if isinstance(part, ast.Attribute) and isinstance(part.ctx, ast.Store):
                        found.append(f"{name}:{part.lineno} {node.name}")
    return found


def test_no_borrowing_kernel_assigns_a_struct_field():
    # a borrowing kernel skips the counts an assignment to a StructRef field needs (the old
    # value's release, the new one's hold): the module docstring forbids it, this enforces it
    from pathlib import Path

    root = Path(jit.__file__).resolve().parents[1]
    found = []
    for path in sorted(root.rglob("*.py")):
        found += _borrowing_kernels_assigning_fields(path.read_text(), str(path.relative_to(root)))
    assert found == []


def test_the_field_assignment_check_can_fail():
    bad = (
        "@njit(refcount=False)\n"
        "def k(st, a):\n"
        "    st.grid = a\n"
        "@njit\n"
        "def fine(st, a):\n"
        "    st.grid = a\n"
    )
    assert _borrowing_kernels_assigning_fields(bad, "bad.py") == ["bad.py:3 k"]
