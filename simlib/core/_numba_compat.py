"""Every use of numba beyond its public API, for the numba releases simlib is tested with.

:mod:`simlib.core.jit` compiles every kernel through numba's public API. The tricks below
reach into numba's internals; each is kept because it measured at least 10% faster (games/s
or cold compile; the figures are in ``docs/development.md``), and each falls back to
numba's public behaviour as a whole:

- **Kernels other kernels call compile without Python wrappers** (:func:`inner_options`:
  ``no_cpython_wrapper``, ``no_cfunc_wrapper``). Converting every argument to and from
  Python objects is code numba generates, optimises and emits for each of a game's
  hundreds of kernels, though only the few Python calls (a block player, the kernels the
  tests call) ever use it. Such a kernel is two dispatchers of the same code
  (:class:`simlib.core.jit.Kernel`).
- **Link-only libraries** (``_LinkOnlyLibrary``, made in :func:`_pipelines`). Numba
  finalizes every kernel's library: it links in its callees' code, optimises that whole
  module and emits machine code for it; a caller then does the same for its own whole
  tree, so a kernel was optimised and emitted again at every level of calls above it. A
  library of a kernel other kernels call only links its callees in; the one Python calls
  optimises and emits the whole tree once, as numba's top level did anyway.
- **Calls between kernels compile for plain types** (:func:`plain_calls`): a callee is
  compiled once for ``int64`` instead of once per literal value or narrow integer type
  its callers pass (a kernel that needs a literal still gets one).
- **Inlined small kernels** (``njit(llvm_inline=True)``: :func:`mark_always_inline`). A
  small kernel that hot loops call (a search's step, a plan's scoring step) gets LLVM's
  ``alwaysinline`` on its link-only twin, so the kernel that runs has its code in place
  of every call. LLVM's own inliner kept those calls: numba passes each array as a dozen
  scalars, and such a call in a loop cost more than its body. Numba's own
  ``inline="always"`` inlines its IR before typing instead, at every call site, and
  doubles the compile. On the public path the mark is ignored (the same code, called),
  and so it is before numba 0.68 (:data:`INLINES`): llvmlite 0.42 (numba 0.59) attaches
  the attribute to the function's return value, which LLVM refuses with an abort.
- **Borrowing kernels** (``njit(refcount=False)``: :func:`borrowing_options`, numba's
  private ``_nrt`` option): no reference counting. Numba counts references to every array
  and StructRef a kernel is passed, takes a view of or reads from a StructRef, with an
  atomic add and subtract each time. A borrowing kernel may read a StructRef's fields:
  numba's reader asks the counting runtime for the payload and refuses to compile without
  it, so :func:`_borrowed_data_pointer` loads it from the struct's MemInfo. That reader is
  swapped in only while simlib's own kernels are lowered (:func:`_borrowed_struct_reads`,
  under numba's compiler lock), and reads as numba's own wherever counting is on.

These depend on numba's private code (its code library, pass manager, StructRef lowering,
dispatcher typing), which changes between releases, so they are used only with a numba
in the range ``pyproject.toml`` pins and CI tests at both ends (:data:`TESTED`). With any
other numba, :data:`ACTIVE` is False, one warning says so when this module is imported, and
every kernel compiles through the public path: the same records (no trick changes any
arithmetic: ``fastmath`` is off), a slower compile and slower games.
``SIMLIB_NUMBA_PUBLIC=1`` chooses the public path on purpose (no warning): to check that
a suspected trick is not to blame, or to compare the two paths.

Nothing here changes numba when it is imported: the compiler passes are registered at the
first compile (:func:`_pipelines`), and numba's StructRef reader is only swapped while a
simlib kernel is lowered.
"""

from __future__ import annotations

import contextlib
import functools
import os
import warnings
from collections.abc import Iterator
from typing import Any

import numba
from numba.core import errors, types

__all__ = [
    "ACTIVE",
    "INLINES",
    "TESTED",
    "borrowing_options",
    "holds_reference",
    "inner_options",
    "mark_always_inline",
    "plain_calls",
]

#: The attribute of a twin function whose link-only library marks it ``alwaysinline``.
_ALWAYS_INLINE = "_simlib_always_inline"

TESTED = ((0, 60), (0, 68))
"""The oldest and newest numba (major, minor) the tricks are used with: the range
``pyproject.toml`` pins, whose two ends ``.ci/run`` tests."""


def _version(text: str) -> tuple[int, int]:
    major, minor = text.split(".")[:2]
    return int(major), int(minor)


def _active() -> bool:
    if os.environ.get("SIMLIB_NUMBA_PUBLIC", "") not in ("", "0"):
        return False
    try:
        version = _version(numba.__version__)
    except ValueError:
        version = (0, 0)
    if TESTED[0] <= version <= TESTED[1]:
        return True
    lo, hi = (".".join(map(str, v)) for v in TESTED)
    warnings.warn(
        f"simlib: numba {numba.__version__} is outside the tested range {lo} to {hi}; "
        "kernels compile through numba's public API only (same results, slower compile "
        f"and games). Install numba>={lo},<{TESTED[1][0]}.{TESTED[1][1] + 1} for full speed.",
        RuntimeWarning,
        stacklevel=2,
    )
    return False


ACTIVE: bool = _active()
"""Whether the tricks are used (a tested numba, and ``SIMLIB_NUMBA_PUBLIC`` not set)."""

INLINES: bool = ACTIVE and _version(numba.__version__) >= (0, 68)
"""Whether ``llvm_inline`` marks are applied (numba 0.68, llvmlite 0.50, and newer within
the tested range: see the module docstring)."""


def borrowing_options(refcount: bool) -> dict[str, Any]:
    """The numba options of a kernel with (``refcount=True``) or without reference counts.

    Every kernel states its choice outright, so that it never inherits the setting from
    whichever kernel happened to compile it first.
    """
    return {"_nrt": bool(refcount)}


def inner_options(opts: dict[str, Any]) -> dict[str, Any]:
    """``opts`` for the twin other kernels call: no wrappers, a link-only library, no cache.

    A link-only library holds no machine code, so there is nothing to cache: the twin
    Python calls is cached whole, with every callee's code in it.
    """
    link_only, _ = _pipelines()
    return dict(opts, no_cpython_wrapper=True, no_cfunc_wrapper=True, cache=False,
                pipeline_class=link_only)


def mark_always_inline(twin: Any) -> Any:
    """Mark ``twin`` (an ``inner`` twin's function) to be inlined into every caller.

    Its link-only lowering adds LLVM's ``alwaysinline`` to the compiled function; the
    kernel that runs then holds the code in place of each call. Nothing is marked where
    :data:`INLINES` is False. Returns ``twin``.
    """
    if INLINES:
        setattr(twin, _ALWAYS_INLINE, True)
    return twin


def outer_options(opts: dict[str, Any]) -> dict[str, Any]:
    """``opts`` for the twin Python calls: numba's pipeline, reading borrowed StructRefs."""
    _, reading = _pipelines()
    return dict(opts, pipeline_class=reading)


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


def plain_calls(disp: Any) -> Any:
    """Make calls from other kernels to ``disp`` compile for plain (non-literal) types.

    Numba would compile a callee once more for every constant it is passed
    (``damage_nb(..., CAUSE_GAS)`` and ``damage_nb(..., CAUSE_FLOOD)``), and once per
    integer width its callers happen to hold. If the plain types do not compile (a
    heterogeneous tuple indexed by a literal), the literal ones are used. A borrowing
    kernel that returns an array is refused here.
    """
    literal = disp.get_call_template

    def get_call_template(args: Any, kws: Any) -> Any:
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


def _borrowed_data_pointer(self: Any, val: Any) -> Any:
    """``structref._Utils.get_data_pointer`` that a kernel without reference counts may use.

    Numba reads a StructRef's payload through ``context.nrt.meminfo_data``, which refuses
    to compile where reference counting is off, so a borrowing kernel could not read
    ``st.grid``. The payload pointer is the MemInfo's fourth field, which is what
    ``NRT_MemInfo_data_fast`` loads; here it is loaded directly when counting is off (the
    caller holds the struct for the call, so its fields stay alive). Counting kernels
    read it as numba does.
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


@contextlib.contextmanager
def _borrowed_struct_reads() -> Iterator[None]:
    """Numba's StructRef reader replaced by :func:`_borrowed_data_pointer` for one lowering.

    Lowering runs under numba's global compiler lock, so no other compile sees the swap;
    nested lowerings restore in order.
    """
    from numba.core.compiler_lock import require_global_compiler_lock
    from numba.experimental import structref

    require_global_compiler_lock()
    utils = structref._Utils
    saved = utils.__dict__["get_data_pointer"]
    utils.get_data_pointer = _borrowed_data_pointer  # type: ignore[method-assign]
    try:
        yield
    finally:
        utils.get_data_pointer = saved  # type: ignore[method-assign]


@functools.cache
def _pipelines() -> tuple[Any, Any]:
    """The compiler classes (link-only, numba's own); both read borrowed StructRefs.

    Made, and their lowering passes registered with numba, at the first compile.
    """
    from numba.core import compiler, typed_passes
    from numba.core.codegen import JITCodeLibrary
    from numba.core.compiler_lock import require_global_compiler_lock
    from numba.core.compiler_machinery import register_pass

    class _EnvSink:
        """The codegen as a link-only library shows it: no machine code, no environment."""

        def __init__(self, codegen: Any) -> None:
            self._codegen = codegen

        def set_env(self, env_name: str, env: Any) -> None:
            pass

        def __getattr__(self, name: str) -> Any:
            return getattr(self._codegen, name)

    class _LinkOnlyLibrary(JITCodeLibrary):
        """A kernel's code that is only ever linked into its callers' (an ``inner`` twin's).

        Finalizing only links the callees in: the library that runs (the ``outer`` twin
        Python calls) optimises and emits the whole tree once.
        """

        def finalize(self) -> None:
            require_global_compiler_lock()
            self._raise_if_finalized()
            inherits = hasattr(self, "_reload_init")  # numba >= 0.60 carries it to callers
            seen = set()
            for library in self._linking_libraries:
                if library not in seen:
                    if inherits:
                        self._reload_init.update(library._reload_init)
                    seen.add(library)
                    self._final_module.link_in(library._get_module_for_linking(),
                                               preserve=True)
            self._finalized = True

        def get_pointer_to_function(self, name: str) -> int:
            return 0  # never called from Python (no wrapper): nothing to emit

        @property
        def codegen(self) -> Any:
            return _EnvSink(self._codegen)

    @register_pass(mutates_CFG=True, analysis_only=False)
    class _ReadingLowering(typed_passes.NativeLowering):
        """Numba's lowering, with borrowed StructRef reads."""

        _name = "simlib_reading_lowering"

        def run_pass(self, state: Any) -> bool:
            with _borrowed_struct_reads():
                return bool(super().run_pass(state))

    @register_pass(mutates_CFG=True, analysis_only=False)
    class _LinkOnlyLowering(typed_passes.NativeLowering):
        """Numba's lowering into a link-only library, with borrowed StructRef reads."""

        _name = "simlib_link_only_lowering"

        def run_pass(self, state: Any) -> bool:
            if state.library is None:
                state.library = _LinkOnlyLibrary(state.targetctx.codegen(),
                                                 state.func_id.func_qualname)
            with _borrowed_struct_reads():
                done = bool(super().run_pass(state))
            if getattr(state.func_id.func, _ALWAYS_INLINE, False):
                fn = state.library._final_module.get_function(state.cr.fndesc.mangled_name)
                fn.add_function_attribute("alwaysinline")
            return done

    def compiler_with(lowering: Any) -> Any:
        class _Compiler(compiler.CompilerBase):
            """Numba's nopython pipeline with its lowering pass replaced."""

            def define_pipelines(self) -> list[Any]:
                pm = compiler.DefaultPassBuilder.define_nopython_pipeline(self.state)
                pm.passes = [(lowering if cls is typed_passes.NativeLowering else cls, d)
                             for cls, d in pm.passes]
                pm.finalize()
                return [pm]

        _Compiler.__name__ = _Compiler.__qualname__ = f"_Compiler_{lowering._name}"
        return _Compiler

    return compiler_with(_LinkOnlyLowering), compiler_with(_ReadingLowering)
