"""benchmarks/profile_kernels.py names numba's machine code for perf, so it cannot rot.

The pieces that do not need perf: the symbol names it reads back from a kernel compiled
here, the map it writes, the report lines it parses and its input errors. A whole profile
needs a cold compile of a game and perf's permission, so it is not run here.
"""

import os
import subprocess
import sys
from pathlib import Path

import numba
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import profile_kernels as pk  # noqa: E402


@numba.njit  # no cache: the LLVM module stays in memory, as in a profiling run
def _tiny_sum_nb(a):
    s = 0
    for x in a:
        s += x
    return s


def test_symbols_of_a_compiled_kernel_are_found_and_named():
    _tiny_sum_nb(np.arange(4))
    symbols = pk.kernel_symbols([_tiny_sum_nb])
    names = [pk.demangle(name) for _, name in symbols]
    assert "test_benchmarks_profile._tiny_sum_nb" in names
    addresses = [a for a, _ in symbols]
    assert addresses == sorted(addresses) and all(a > 0 for a in addresses)


def test_demangle_takes_the_module_and_function():
    assert pk.demangle("_ZN6simlib5games8subterra4bots9decide_nbB2v1E5ArrayIiLi2E") == \
        "bots.decide_nb"
    assert pk.demangle("_ZN6simlib4core5paths21goal_routes_nb__innerB2v3E") == \
        "paths.goal_routes_nb__inner"
    assert pk.demangle("_ZN7cpython6simlib4core5paths14goal_routes_nbB2v3E") == \
        "Python wrapper of paths.goal_routes_nb"
    assert pk.demangle("cfunc._ZN6simlib4core5paths14goal_routes_nbB2v3E") == \
        "cfunc wrapper of paths.goal_routes_nb"
    assert pk.demangle("PyObject_GetAttr") == "PyObject_GetAttr"


def test_map_lines_give_each_function_up_to_the_next(tmp_path):
    path = tmp_path / "perf.map"
    pk.write_map([(0x1000, "_ZN1a4f_nbE"), (0x1040, "_ZN1a4g_nbE")], str(path))
    assert path.read_text().splitlines() == ["1000 40 a.f_nb", "1040 10000 a.g_nb"]


def test_report_lines_split_into_kernels_and_the_rest():
    text = """# Samples: 1K of event 'cpu-clock'
#
    40.00%  [.] bots.decide_nb__inner
    25.50%  python3.12  [.] _PyEval_EvalFrameDefault
    20.00%  [.] paths.goal_routes_nb__inner
    10.00%  [k] exc_page_fault
     4.50%  [.] bots.decide_nb__inner
"""
    kernels, other = pk.parse_report(text, {"bots.decide_nb__inner",
                                            "paths.goal_routes_nb__inner"})
    assert kernels == {"bots.decide_nb__inner": 44.5, "paths.goal_routes_nb__inner": 20.0}
    assert other == 35.5


def test_an_unknown_game_is_one_line_and_exit_2():
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "profile_kernels.py"),
                          "chess"], capture_output=True, text=True, env=env, timeout=300)
    assert out.returncode == 2
    assert "unknown game 'chess'; allowed:" in out.stderr
    assert "Traceback" not in out.stderr
