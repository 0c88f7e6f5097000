"""Where a game's compiled code spends its time: Linux ``perf`` samples, named by kernel.

Usage::

    python benchmarks/profile_kernels.py GAME [--games N] [--preset P] [--bot B] [--top K]

``perf`` alone cannot name numba's code: the machine code lives in memory the JIT wrote,
with no symbol table. This script compiles the game into an empty numba cache (so every
kernel's LLVM module is in memory; a cold compile, a minute or so), writes
``/tmp/perf-PID.map`` with the address and name of every function the top-level kernels
hold (the map perf reads for JIT code), then attaches ``perf record`` to itself while it
plays ``N`` games on one thread, and prints each kernel's share of the samples taken in
compiled code. Kernels LLVM inlined count in their caller (``llvm_inline=True`` kernels
and small helpers): the table names the functions that remain in the machine code.

The shares are of samples, not exact times (about 2,000 a second); the line above the
table gives how many samples the compiled code took and their share of the process (the
rest: Python around the batches, the DataFrame). Linux only, with ``perf`` installed
(Debian: ``linux-perf``) and ``kernel.perf_event_paranoid`` at 2 or lower.
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable

#: perf's sampling frequency (Hz).
FREQUENCY = 1999


def demangle(name: str) -> str:
    """``module.function`` of a numba symbol (``_ZN`` + length-prefixed parts), else the name.

    Numba names a function ``_ZN<len><part>...<len><function><args>``; the last two parts
    before the arguments are the module's last part and the function. A kernel's twin with
    no Python wrapper (``simlib.core.jit``) ends in ``__inner``; the wrappers numba adds
    for calls from Python and C are named as such.
    """
    if name.startswith("cfunc."):
        return "cfunc wrapper of " + demangle(name[6:])
    if not name.startswith("_ZN"):
        return name
    i = 3
    parts: list[str] = []
    while i < len(name) and name[i].isdigit():
        j = i
        while j < len(name) and name[j].isdigit():
            j += 1
        k = int(name[i:j])
        parts.append(name[j:j + k])
        i = j + k
    if not parts:
        return name
    if parts[0] == "cpython" and len(parts) > 2:
        return "Python wrapper of " + ".".join(parts[-2:])
    return ".".join(parts[-2:])


def kernel_symbols(dispatchers: Iterable) -> list[tuple[int, str]]:
    """``(address, symbol)`` of every function defined in the dispatchers' compiled code.

    Only libraries compiled in this process hold their LLVM module (a kernel loaded from
    numba's cache has machine code only), hence the empty cache. Sorted by address. Reads
    numba's private code library and JIT engine (``_final_module``, ``_codegen._engine``):
    a tool for developers, kept out of ``simlib``, whose one such module is
    ``simlib.core._numba_compat``.
    """
    found = set()
    seen = set()
    for disp in dispatchers:
        for cres in list(disp.overloads.values()):
            lib = cres.library
            if id(lib) in seen:
                continue
            seen.add(id(lib))
            module = getattr(lib, "_final_module", None)
            if module is None:
                continue
            engine = lib._codegen._engine  # numba's JIT engine: resolves a symbol's address
            for fn in module.functions:
                if fn.is_declaration:
                    continue
                address = engine.get_function_address(fn.name)
                if address:
                    found.add((address, fn.name))
    return sorted(found)


def write_map(symbols: list[tuple[int, str]], path: str) -> None:
    """Write perf's JIT map: ``address size name`` a line, sizes up to the next function."""
    with open(path, "w") as fh:
        for i, (address, name) in enumerate(symbols):
            size = symbols[i + 1][0] - address if i + 1 < len(symbols) else 1 << 16
            fh.write(f"{address:x} {min(size, 1 << 20):x} {demangle(name)}\n")


_LINE = re.compile(r"^\s*([\d.]+)%\s+(?:\S+\s+)*?\[[.k]\]\s+(.+?)\s*$")


def parse_report(text: str, names: set[str]) -> tuple[dict[str, float], float]:
    """Shares of ``perf report --sort sym`` lines: ``({kernel: percent}, other percent)``.

    ``names``: the kernel names written to the map; every other symbol counts as other.
    """
    kernels: dict[str, float] = {}
    other = 0.0
    for line in text.splitlines():
        m = _LINE.match(line)
        if not m:
            continue
        share, sym = float(m.group(1)), m.group(2)
        if sym in names:
            kernels[sym] = kernels.get(sym, 0.0) + share
        else:
            other += share
    return kernels, other


def main(argv: list[str]) -> int:
    from simlib.games.registry import game_names

    ap = argparse.ArgumentParser(
        description="Each compiled kernel's share of a game's time (perf samples).")
    ap.add_argument("game", help=f"one of {', '.join(game_names())}")
    ap.add_argument("--games", type=int, default=20000, help="games to profile (default 20000)")
    ap.add_argument("--preset", default=None, help="preset (default: the game's default)")
    ap.add_argument("--bot", default=None, help="bot (default: the game's default)")
    ap.add_argument("--top", type=int, default=30, help="kernels to list (default 30)")
    args = ap.parse_args(argv)
    if args.game not in game_names():
        ap.error(f"unknown game {args.game!r}; allowed: {', '.join(game_names())}")
    if args.games < 1 or args.top < 1:
        ap.error("--games and --top must be at least 1")
    perf = shutil.which("perf")
    if perf is None:
        ap.error("perf not found on PATH; install it (Debian: linux-perf)")

    # an empty cache before numba is imported: every kernel compiles here, LLVM module kept
    cache = tempfile.mkdtemp(prefix="simlib-profile-")
    os.environ["NUMBA_CACHE_DIR"] = cache
    from numba.core.registry import CPUDispatcher

    import simlib

    kw = dict(preset=args.preset, bot=args.bot, threads=1, progress=False)
    print(f"compiling {args.game} into an empty cache (a cold compile) ...", file=sys.stderr,
          flush=True)
    simlib.run(args.game, games=10, seed=1, **kw)
    symbols = kernel_symbols(o for o in gc.get_objects() if isinstance(o, CPUDispatcher))
    map_path = f"/tmp/perf-{os.getpid()}.map"
    write_map(symbols, map_path)
    data = os.path.join(cache, "perf.data")
    rec = subprocess.Popen([perf, "record", "-q", "-F", str(FREQUENCY), "-p", str(os.getpid()),
                            "-o", data], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    time.sleep(1.0)  # perf attaches
    try:
        if rec.poll() is not None:
            raise SystemExit(f"perf record failed: {rec.stderr.read().decode().strip()}")
        t = time.perf_counter()
        simlib.run(args.game, games=args.games, seed=2026, **kw)
        seconds = time.perf_counter() - t
    finally:
        rec.send_signal(signal.SIGINT)
        rec.wait()
    report = subprocess.run([perf, "report", "-i", data, "--no-children", "--sort", "sym",
                             "--stdio"], capture_output=True, text=True)
    os.unlink(map_path)
    shutil.rmtree(cache, ignore_errors=True)
    kernels, other = parse_report(report.stdout, {demangle(n) for _, n in symbols})
    jitted = sum(kernels.values())
    if jitted <= 0:
        print("no samples in compiled code (is perf allowed to read this process?)",
              file=sys.stderr)
        return 1
    print(f"{args.game}: {args.games:,} games in {seconds:.1f} s, one thread; compiled code "
          f"took {jitted:.1f}% of the samples (the rest: Python and pandas around them)")
    modules: dict[str, float] = {}
    for name, share in kernels.items():
        modules[name.split(".")[0]] = modules.get(name.split(".")[0], 0.0) + share
    ranked = sorted(modules.items(), key=lambda kv: -kv[1])
    shown = [(m, s) for m, s in ranked if s >= 0.01 * jitted]
    rest = jitted - sum(s for _, s in shown)
    print("by module: " + ", ".join(f"{m} {100 * s / jitted:.0f}%" for m, s in shown)
          + (f", others {100 * rest / jitted:.0f}%" if rest > 0 else ""))
    print(f"{'share of compiled code':>22}  kernel")
    for name, share in sorted(kernels.items(), key=lambda kv: -kv[1])[:args.top]:
        print(f"{100 * share / jitted:21.1f}%  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
