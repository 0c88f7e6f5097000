"""The jit factory: calls between kernels compile for plain (non-literal) argument types."""

from __future__ import annotations

import os

import numpy as np
import pytest

from simlib.core import _numba_compat, jit
from simlib.core.jit import njit

# cache=False below: a kernel loaded from the cache never compiles its callees, so their
# signatures would not show
JIT = os.environ.get("NUMBA_DISABLE_JIT") != "1"
TRICKS = JIT and _numba_compat.ACTIVE  # numba's private paths in use (a tested numba)


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


@pytest.mark.skipif(not TRICKS, reason="numba's private paths only")
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


@pytest.mark.skipif(not TRICKS, reason="numba's private paths only")
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


@pytest.mark.skipif(not TRICKS, reason="numba's private paths only")
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


@pytest.mark.skipif(not TRICKS, reason="numba's private paths only")
def test_a_borrowing_kernel_reads_struct_fields_without_counting():
    a = np.arange(4, dtype=np.float64)
    b = np.zeros(4)
    assert _calls_borrow_fields(_Pair(a, b)) == 1.0 + 6.0
    assert b.tolist() == [0.0, 2.0, 4.0, 6.0]  # wrote through the borrowed field
    (sig,) = _borrow_fields.inner.signatures
    ir = _borrow_fields.inner.overloads[sig].library.get_llvm_str()
    assert "NRT_incref" not in ir and "NRT_decref" not in ir
    counting = _calls_borrow_fields.outer.inspect_llvm(_calls_borrow_fields.outer.signatures[0])
    assert "NRT_incref" in counting or "NRT_decref" in counting  # the caller does count


def test_the_source_key_follows_every_edit_and_rename(tmp_path):
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


def _cached_twice(x):
    return x * 2


@pytest.mark.skipif(not JIT, reason="compiled kernels only")
def test_kernels_are_cached_per_source_version_and_numba_is_left_alone(tmp_path, monkeypatch):
    import numba

    public = "" if _numba_compat.ACTIVE else "-public"
    assert jit.cache_dir().endswith(f"simlib-{jit.source_key()}-numba{numba.__version__}{public}")
    monkeypatch.setattr(numba.config, "CACHE_DIR", "")
    kernel = njit(_cached_twice)
    monkeypatch.setattr(jit, "cache_dir", lambda: str(tmp_path))  # this test's own folder
    assert kernel(np.int64(4)) == 8
    assert list(tmp_path.glob("*/*._cached_twice-*.nbi"))  # cached in simlib's folder ...
    assert numba.config.CACHE_DIR == ""  # ... without numba's setting left changed


# Run in a fresh interpreter: what importing simlib and its games, then compiling, does to
# numba's process-wide state (a setting, the StructRef reader) and what it hashes.
_IMPORT_PROBE = r"""
import json, numba
from numba.experimental import structref
before = (numba.config.CACHE_DIR, structref._Utils.get_data_pointer)
import simlib
from simlib.core import jit
from simlib.games.registry import game_names, get_game
for name in game_names():
    get_game(name)
after_import = (numba.config.CACHE_DIR, structref._Utils.get_data_pointer)
hashed_at_import = jit.cache_dir.cache_info().currsize
import tests_probe_kernels as k
k.run()
after_compile = (numba.config.CACHE_DIR, structref._Utils.get_data_pointer)
print(json.dumps({"import": after_import == before, "compile": after_compile == before,
                  "hashed_at_import": hashed_at_import}))
"""

_PROBE_KERNELS = r"""
import numpy as np
from numba.core import types
from numba.experimental import structref
from simlib.core.jit import njit

@structref.register
class PairType(types.StructRef):
    def preprocess_fields(self, fields):
        return tuple((n, types.unliteral(t)) for n, t in fields)

class Pair(structref.StructRefProxy):
    pass

structref.define_proxy(Pair, PairType, ["a", "b"])

@njit(refcount=False)
def first_nb(p):
    return p.a[0] + p.b[0]

@njit
def run_nb(p):
    return first_nb(p)

def run():
    assert run_nb(Pair(np.ones(2), np.ones(2))) == 2.0
"""


@pytest.mark.skipif(not JIT, reason="compiled kernels only")
def test_importing_and_compiling_change_no_numba_setting(tmp_path):
    import json
    import subprocess
    import sys

    (tmp_path / "tests_probe_kernels.py").write_text(_PROBE_KERNELS)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONPATH=os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]))
    run = subprocess.run([sys.executable, "-c", _IMPORT_PROBE], env=env, capture_output=True,
                         text=True, check=False, cwd=tmp_path)
    assert run.returncode == 0, run.stderr[-3000:]
    seen = json.loads(run.stdout.strip().splitlines()[-1])
    assert seen == {"import": True, "compile": True, "hashed_at_import": 0}


# A callee and its caller in two modules of a copy of simlib, compiled in one process and
# run again in another after an edit to the callee's module only.
_CALLEE = "from simlib.core.jit import njit\n\n@njit\ndef value_nb():\n    return {}\n"
_CALLER = (
    "from simlib.core.jit import njit\n"
    "from simlib._probe_callee import value_nb\n\n"
    "@njit\ndef call_nb():\n    return value_nb()\n"
)


def _edit_callee_and_rerun(tmp_path, njit_import: str) -> list[int]:
    """The caller's result before and after an edit of its callee's module (fresh processes)."""
    import shutil
    import subprocess
    import sys
    from pathlib import Path

    src = tmp_path / "src"
    shutil.copytree(Path(jit.__file__).resolve().parents[1], src / "simlib",
                    ignore=shutil.ignore_patterns("__pycache__"))
    callee, caller = src / "simlib" / "_probe_callee.py", src / "simlib" / "_probe_caller.py"
    caller.write_text(_CALLER.replace("from simlib.core.jit import njit", njit_import))
    env = dict(os.environ, PYTHONPATH=str(src), NUMBA_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONDONTWRITEBYTECODE="1")  # the edit keeps the size: no stale .pyc either
    env.pop("NUMBA_DISABLE_JIT", None)
    seen = []
    for value in (1, 2):
        callee.write_text(_CALLEE.replace("from simlib.core.jit import njit", njit_import)
                          .format(value))
        run = subprocess.run([sys.executable, "-c", "import simlib._probe_caller as c; "
                              "print(c.call_nb())"], env=env, capture_output=True,
                             text=True, check=False, cwd=tmp_path)
        assert run.returncode == 0, run.stderr[-3000:]
        seen.append(int(run.stdout.split()[-1]))
    return seen


@pytest.mark.skipif(not JIT, reason="compiled kernels only")
def test_an_edit_to_a_callee_module_is_not_served_stale(tmp_path):
    assert _edit_callee_and_rerun(tmp_path, "from simlib.core.jit import njit") == [1, 2]


@pytest.mark.skipif(not JIT, reason="compiled kernels only")
def test_numba_alone_serves_the_caller_stale(tmp_path):
    # the hazard the per-version cache exists for (and what the test above would see
    # without it): numba checks a cached kernel against its own file only
    njit_import = "import numba\nnjit = numba.njit(cache=True)"
    assert _edit_callee_and_rerun(tmp_path, njit_import) == [1, 1]


@njit(cache=False)  # compiled in this process, so the signatures are visible
def _inner_only(x):
    return x + 1


@njit(cache=False)
def _calls_inner_only(x):
    return _inner_only(x) * 2


@pytest.mark.skipif(not TRICKS, reason="numba's private paths only")
def test_a_kernel_called_from_kernels_compiles_no_wrappers_and_no_machine_code():
    assert _calls_inner_only(np.int64(4)) == 10
    # the caller was compiled against the wrapper-less twin ...
    assert _inner_only.inner.targetoptions["no_cpython_wrapper"] is True
    assert _inner_only.inner.targetoptions["no_cfunc_wrapper"] is True
    assert [str(a) for a in _inner_only.inner.signatures[0]] == ["int64"]
    # ... whose library only links (no machine code: the caller's has it, and it runs)
    (cres,) = _inner_only.inner.overloads.values()
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


# A fresh interpreter that sees numba report a version outside the tested range.
_UNTESTED_NUMBA = r"""
import json, warnings, numba
numba.__version__ = "0.99.0"
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    from simlib.core import _numba_compat, jit
    import tests_probe_kernels as k
    k.run()
    from simlib.games.registry import game_names, get_game
    for name in game_names():
        get_game(name)
print(json.dumps({"active": _numba_compat.ACTIVE,
                  "warnings": [str(w.message) for w in caught
                               if "outside the tested range" in str(w.message)],
                  "twins": k.first_nb.inner is k.first_nb.outer,
                  "counts": k.first_nb.outer.targetoptions.get("_nrt", True)}))
"""


@pytest.mark.skipif(not JIT, reason="compiled kernels only")
def test_an_untested_numba_takes_the_public_path_with_one_warning(tmp_path):
    import json
    import subprocess
    import sys

    (tmp_path / "tests_probe_kernels.py").write_text(_PROBE_KERNELS)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONPATH=os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]))
    env.pop("SIMLIB_NUMBA_PUBLIC", None)
    run = subprocess.run([sys.executable, "-c", _UNTESTED_NUMBA], env=env, capture_output=True,
                         text=True, check=False, cwd=tmp_path)
    assert run.returncode == 0, run.stderr[-3000:]
    seen = json.loads(run.stdout.strip().splitlines()[-1])
    assert seen["active"] is False
    assert len(seen["warnings"]) == 1 and "0.99.0" in seen["warnings"][0]
    # one dispatcher per kernel, counting references: the borrowing kernel that reads a
    # StructRef's fields compiled (and ran: k.run() checks its result) without any trick
    assert seen["twins"] is True and seen["counts"] is True


REPLAY = os.environ.get("SIMLIB_REPLAY_PUBLIC") == "1"


@pytest.mark.slow
@pytest.mark.skipif(not TRICKS or not REPLAY,
                    reason="about ten CPU minutes (every game compiled without the tricks), "
                    "too long for CI: set SIMLIB_REPLAY_PUBLIC=1 when upgrading numba or "
                    "changing simlib/core/_numba_compat.py")
def test_the_public_path_plays_the_same_games(tmp_path):
    # every game, preset and bot on fixed seeds: the tricks (this process) and numba's
    # public API alone (a fresh process with SIMLIB_NUMBA_PUBLIC=1 and its own cache)
    import subprocess
    import sys
    from pathlib import Path

    import pandas as pd
    from all_games_frames import all_games_frames, assert_same

    here = Path(__file__).resolve().parent
    env = dict(os.environ, SIMLIB_NUMBA_PUBLIC="1", NUMBA_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONPATH=os.pathsep.join([str(here), os.environ.get("PYTHONPATH", "")]))
    out = tmp_path / "public.pkl"
    run = subprocess.run([sys.executable, str(here / "all_games_frames.py"), str(out)],
                         env=env, capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr[-3000:]
    assert_same(all_games_frames(), pd.read_pickle(out))


def test_the_replay_plays_the_games_simlib_ships_only():
    from all_games_frames import simlib_games
    from toygame import register_toy

    from simlib.games.registry import game_names

    register_toy()  # as test_runner does, in whichever worker runs both
    assert "toy" in game_names() and "toy" not in simlib_games()
    assert {"subterra", "terminus", "terralore", "terraria"} <= set(simlib_games())


def test_the_frame_comparison_can_fail():
    import pandas as pd
    from all_games_frames import assert_same

    a = {"g/p/b": pd.DataFrame({"win": [True, False]})}
    assert_same(a, {"g/p/b": a["g/p/b"].copy()})
    with pytest.raises(AssertionError, match="g/p/b"):
        assert_same(a, {"g/p/b": pd.DataFrame({"win": [True, True]})})
    with pytest.raises(AssertionError):
        assert_same(a, {"g/p/c": a["g/p/b"]})


def test_the_pinned_numba_range_is_the_tested_one():
    # pyproject's pin, the range _numba_compat uses numba's private code with, and the two
    # releases .ci/run installs must name the same range
    import re
    import sys
    from pathlib import Path

    if sys.version_info >= (3, 11):
        import tomllib
    else:
        import tomli as tomllib

    root = Path(__file__).resolve().parents[1]
    deps = tomllib.loads((root / "pyproject.toml").read_text())["project"]["dependencies"]
    (pin,) = [d for d in deps if d.startswith("numba")]
    lo, hi = _numba_compat.TESTED
    assert pin == f"numba>={lo[0]}.{lo[1]},<{hi[0]}.{hi[1] + 1}"
    ci = (root / ".ci" / "run").read_text()
    assert re.search(rf'^NUMBA_OLDEST="{lo[0]}\.{lo[1]}\.\*"$', ci, re.M)
    assert 'pip install -e ".[test]"\n' in ci  # the newest: what pip picks within the pin


def test_llvm_inline_marks_the_twin_callers_link_and_nothing_else():
    # njit(llvm_inline=True): the twin other kernels call carries LLVM's alwaysinline (so
    # the kernel that runs holds its code in place of each call); a kernel without the mark
    # does not. On the public path there is no twin and nothing is marked.
    import numba

    from simlib.core import _numba_compat
    from simlib.core.jit import njit

    @njit(refcount=False, llvm_inline=True)
    def marked_nb(x):
        return x * 3 + 1

    @njit(refcount=False)
    def plain_nb(x):
        return x * 3 + 2

    @njit
    def caller_nb(n):
        t = 0
        for i in range(n):
            t += marked_nb(i) + plain_nb(i)
        return t

    assert caller_nb(10) == sum(6 * i + 3 for i in range(10))
    def llvm(kernel):
        inner = kernel.inner
        return inner.overloads[inner.signatures[0]].library.get_llvm_str()

    if not _numba_compat.ACTIVE or numba.config.DISABLE_JIT:
        pytest.skip("numba's public path or plain Python: no twins to mark")
    if not _numba_compat.INLINES:  # an older numba: the mark is ignored, the code is called
        assert "alwaysinline" not in llvm(marked_nb)
        return
    assert "alwaysinline" in llvm(marked_nb)
    assert "alwaysinline" not in llvm(plain_nb)
