"""The single jit factory: every kernel in simlib is compiled through these decorators.

``NUMBA_DISABLE_JIT=1`` turns every kernel back into plain Python, which is how the
benchmarks measure the plain-Python baseline and how kernels are debugged.

Calls between kernels are compiled for plain argument types: numba would otherwise compile
a callee once more for every constant it is passed (``damage_nb(..., CAUSE_GAS)`` and
``damage_nb(..., CAUSE_FLOOD)`` become two compiled functions, and a value that starts as
a constant before a loop compiles its callees twice). Signed integers narrower than 64
bits are passed on as int64 for the same reason: a callee handed a square's row read from
an ``int16`` array in one place and a computed ``int64`` in another was compiled for both
(a game's kernels were compiled again for each such pair of types; records are the same
either way). Numba's arithmetic widens them anyway
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
registered game allocate and free the same number of blocks. A borrowing kernel may read
a StructRef's fields (``st.grid``) too: numba's reader asks the counting runtime for the
struct's payload and refuses to compile without it, so :func:`_borrowed_data_pointer`
loads the payload pointer from the struct's MemInfo itself where counting is off. It
must not assign a field (the counts of the old and new value would be skipped;
``tests/test_jit.py`` checks that none does). Every kernel that reads ``st`` / ``tab`` and
neither allocates nor returns an array borrows this way. Every other kernel states
``_nrt=True`` outright, so that it never inherits the setting from whichever kernel
happened to compile it first.

Each kernel is two numba dispatchers of the same code (:class:`Kernel`). Python calls
``outer``, compiled as numba compiles any kernel, when Python first calls it: a game's
block player, the kernels the tests call directly. Every other kernel calls ``inner``,
which numba compiles without two things that only a kernel Python calls ever uses:

- the wrappers that convert arguments from and to Python objects (``no_cpython_wrapper``);
- machine code. Numba finalizes every kernel's library: it links in the code of the
  kernels it calls, optimises that whole module and emits machine code for it. Its caller
  then does the same for its own whole tree, and so on up, so a kernel was optimised and
  emitted again at every level of calls above it. An ``inner`` library only links its
  callees in (:class:`_LinkOnlyLibrary`); the ``outer`` one that runs optimises and emits
  the whole tree once, as numba's top level did anyway.

``inner`` is not cached on disk (there is no machine code to cache); ``outer`` is, whole.
The link-only library uses numba's private code-library internals, so it is switched on
for the numba release it was tested with (0.68, :data:`LINK_ONLY`); with another, the
``inner`` twins compile and cache as numba's own do (still without the wrappers).
Cold compile, empty cache, records unchanged (same sha1 over every bot and two presets of
each game): Sub Terra 27.9 -> 18.1 s, Terraria 83.6 -> 37.2 s (twins without the wrappers
alone: 22.6 and 70.0 s). Games/s unchanged within the noise (Terraria 2-6% faster).

``njit(llvm_inline=True)`` marks a small kernel that hot loops call (a path search's step
check, a square's value, a line of sight's walk) with LLVM's ``alwaysinline``: the kernel
that runs gets its code in place of every call. LLVM's own inliner left these calls in:
numba passes each array as a dozen scalars, and a call of a small kernel in a loop that
runs millions of times a second spent much of its time passing them (Terraria: a third of
its time was in six such kernels). The mark is set on the ``inner`` twin's function in its
link-only library (without :data:`LINK_ONLY` it is not set: the same code, not inlined);
a kernel Python calls directly compiles as any other. It is not numba's own
``inline="always"``, which inlines numba IR before typing and costs compile time at every
call site. Records are unchanged (inlining changes no arithmetic: ``fastmath`` is off).
The gain is measured by ``benchmarks/bench_terraria.py`` (games/s with and without the
mark); raising LLVM's inline threshold for every kernel instead helped less and slowed
larger kernels.

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

import functools
import hashlib
import os
import threading
import types as pytypes
from pathlib import Path
from typing import Any

import numba
from numba.core import compiler, errors, typed_passes, types
from numba.core.codegen import JITCodeLibrary
from numba.core.compiler_lock import require_global_compiler_lock
from numba.core.compiler_machinery import register_pass
from numba.experimental import structref as _structref

__all__ = [
    "LINK_ONLY",
    "Kernel",
    "cache_is_cold",
    "holds_reference",
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


def _cache_root() -> Path:
    user = os.environ.get("NUMBA_CACHE_DIR")
    if user:
        return Path(user)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "simlib" / "numba"


CACHE_DIR = str(_cache_root() / f"simlib-{source_key()}")
"""Where this version of simlib's kernels are cached (see the module docstring)."""
numba.config.CACHE_DIR = CACHE_DIR  # type: ignore[attr-defined]  # read as each kernel is declared


def cache_is_cold(module: str) -> bool:
    """Whether no kernel of package ``module`` (``simlib.games.subterra``) is cached yet.

    Numba caches a source folder's kernels in ``CACHE_DIR/<folder>_<hash>/*.nbi``; none for
    the game's folder (or a subfolder) means its first run compiles them all. Always False
    under ``NUMBA_DISABLE_JIT=1`` (nothing is compiled).
    """
    if numba.config.DISABLE_JIT:  # type: ignore[attr-defined]
        return False
    leaf = module.rsplit(".", 1)[-1]
    root = Path(CACHE_DIR)
    return not root.is_dir() or not any(root.glob(f"{leaf}_*/*.nbi"))


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


def _twin(f: Any) -> Any:
    """A copy of ``f`` (same code and globals) under its own name, so its cache files differ."""
    g = pytypes.FunctionType(f.__code__, f.__globals__, f.__name__, f.__defaults__,
                             f.__closure__)
    g.__kwdefaults__ = f.__kwdefaults__
    g.__module__ = f.__module__
    g.__doc__ = f.__doc__
    g.__qualname__ = f"{f.__qualname__}__inner"
    return g


def _numba_version() -> tuple[int, int]:
    major, minor = numba.__version__.split(".")[:2]
    return int(major), int(minor)


LINK_ONLY = _numba_version() == (0, 68)
"""Whether ``inner`` twins compile link-only (:class:`_LinkOnlyLibrary` reaches into numba's
private code library, so it is used with the numba it was written and tested against;
under any other numba, kernels compile as numba compiles them: the same code, slower)."""


class _EnvSink:
    """The codegen as a link-only library shows it: no machine code, so no environment to set."""

    def __init__(self, codegen: Any) -> None:
        self._codegen = codegen

    def set_env(self, env_name: str, env: Any) -> None:
        pass

    def __getattr__(self, name: str) -> Any:
        return getattr(self._codegen, name)


class _LinkOnlyLibrary(JITCodeLibrary):
    """A kernel's code that is only ever linked into its callers' (an ``inner`` twin's).

    Numba finalizes every kernel's library: it links in its callees' code, optimises the
    whole module and emits machine code for it. A caller then links that code in again,
    optimises and emits its own whole tree, and so on up: a game's kernels were optimised
    and emitted once per level of calls above them. Here finalizing only links the callees
    in; the one library that runs (the ``outer`` twin Python calls) optimises and emits the
    whole tree once, as numba's does at the top.
    """

    def finalize(self) -> None:
        require_global_compiler_lock()
        self._raise_if_finalized()
        seen = set()
        for library in self._linking_libraries:
            if library not in seen:
                self._reload_init.update(library._reload_init)
                seen.add(library)
                self._final_module.link_in(library._get_module_for_linking(), preserve=True)
        self._finalized = True

    def get_pointer_to_function(self, name: str) -> int:
        return 0  # never called from Python (no wrapper): nothing to emit

    @property
    def codegen(self) -> Any:
        return _EnvSink(self._codegen)


_ALWAYS_INLINE = "_simlib_always_inline"  # on an ``inner`` twin built with llvm_inline=True


@register_pass(mutates_CFG=True, analysis_only=False)
class _LinkOnlyLowering(typed_passes.NativeLowering):
    """Numba's lowering into a :class:`_LinkOnlyLibrary`."""

    _name = "simlib_link_only_lowering"

    def run_pass(self, state: Any) -> bool:
        if state.library is None:
            state.library = _LinkOnlyLibrary(state.targetctx.codegen(),
                                             state.func_id.func_qualname)
        done = bool(super().run_pass(state))
        if getattr(state.func_id.func, _ALWAYS_INLINE, False):
            fn = state.library._final_module.get_function(state.cr.fndesc.mangled_name)
            fn.add_function_attribute("alwaysinline")
        return done


class _LinkOnlyCompiler(compiler.CompilerBase):
    """Numba's nopython pipeline, lowering into a :class:`_LinkOnlyLibrary`."""

    def define_pipelines(self) -> list[Any]:
        pm = compiler.DefaultPassBuilder.define_nopython_pipeline(self.state)
        pm.passes = [(_LinkOnlyLowering if cls is typed_passes.NativeLowering else cls, d)
                     for cls, d in pm.passes]
        return [pm]


def _borrowed_data_pointer(self: Any, val: Any) -> Any:
    """``structref._Utils.get_data_pointer`` that a kernel without reference counts may use.

    Numba reads a StructRef's payload through ``context.nrt.meminfo_data``, which refuses
    to compile where reference counting is off, so a borrowing kernel could not read
    ``st.grid``. The payload pointer is the MemInfo's fourth field, which is what
    ``NRT_MemInfo_data_fast`` loads; here it is loaded directly when counting is off (the
    caller holds the struct for the call, so its fields stay alive). Counting kernels
    read it as before.
    """
    from llvmlite import ir
    from numba.core import cgutils
    from numba.core.runtime.nrtdynmod import _meminfo_struct_type

    context = self.context
    builder = self.builder
    meminfo = self.get_struct_ref(val).meminfo
    if context.enable_nrt:
        data_ptr = context.nrt.meminfo_data(builder, meminfo)
    else:
        mi = builder.bitcast(meminfo, _meminfo_struct_type.as_pointer())
        data_ptr = builder.load(cgutils.gep(builder, mi, 0, 3))
    valtype = self.struct_type.get_data_type()
    alloc_type = context.data_model_manager[valtype].get_value_type()
    return builder.bitcast(data_ptr, ir.PointerType(alloc_type))


_structref._Utils.get_data_pointer = _borrowed_data_pointer  # type: ignore[method-assign]


_OUTER_LOCK = threading.Lock()


class Kernel:
    """A compiled kernel, as two numba dispatchers of the same code.

    Another kernel that calls it is compiled against ``inner``: numba sees this object as
    that dispatcher (``_numba_type_``). ``inner`` is built without the wrappers that let
    Python call a kernel (``no_cpython_wrapper``, ``no_cfunc_wrapper``): converting every
    argument to and from Python objects is code numba would otherwise generate, optimise
    and emit for every one of a game's hundreds of kernels, though only the few that
    Python calls (a game's block player, the kernels the tests call) ever use it.
    Called from Python, the kernel compiles (once, lazily) and runs ``outer``, the same
    code with the wrappers. Attributes (``signatures``, ``py_func``, ...) are ``inner``'s.
    """

    def __init__(self, f: Any, opts: dict[str, Any], llvm_inline: bool = False) -> None:
        functools.update_wrapper(self, f)
        self._opts = opts
        inner_opts = dict(opts, no_cpython_wrapper=True, no_cfunc_wrapper=True)
        twin = _twin(f)
        if LINK_ONLY:
            inner_opts.update(cache=False, pipeline_class=_LinkOnlyCompiler)
            setattr(twin, _ALWAYS_INLINE, llvm_inline)
        self.inner = _plain_calls(numba.njit(**inner_opts)(twin))
        self._outer: Any = None

    @property
    def _numba_type_(self) -> Any:
        return types.Dispatcher(self.inner)

    @property
    def outer(self) -> Any:
        """The dispatcher Python calls (compiled with the wrappers, on first use).

        Made once under a lock: a run's first blocks call it from several threads at once,
        and two dispatchers would each compile the whole kernel.
        """
        if self._outer is None:
            with _OUTER_LOCK:
                if self._outer is None:
                    self._outer = numba.njit(**self._opts)(self.__wrapped__)
        return self._outer

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Run the kernel from Python (``outer``)."""
        return self.outer(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.inner, name)

    def __repr__(self) -> str:
        return f"<simlib kernel {self.__qualname__}>"


def njit(fn=None, *, refcount: bool = True, llvm_inline: bool = False, **kwargs):
    """Compile ``fn`` in nopython mode with an on-disk cache (``cache=True``).

    ``refcount=False``: the kernel borrows the arrays it is passed; it must neither
    allocate nor return an array (see the module docstring). ``llvm_inline=True``: every kernel
    that calls it gets its code in place of the call (LLVM's ``alwaysinline``; see the
    module docstring). Returns a :class:`Kernel` (or ``fn`` itself under
    ``NUMBA_DISABLE_JIT=1``).
    """
    opts = {"cache": True, "nogil": True, "fastmath": False, "_nrt": refcount}
    opts.update(kwargs)

    def make(f):
        if numba.config.DISABLE_JIT:
            return f
        return Kernel(f, opts, llvm_inline=llvm_inline)

    return make if fn is None else make(fn)
