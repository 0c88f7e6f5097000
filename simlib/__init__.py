"""simlib: Monte Carlo playthroughs of tabletop games and the tables a designer tunes with.

The public API::

    import simlib
    res = simlib.run("subterra", preset="expert", games=100_000, seed=7)
    res.summary()
    sw = simlib.sweep("subterra", "hazard_cards", range(12, 25), games=100_000, seed=1)
    simlib.compare(res_a, res_b)      # or a baseline against runs, sweeps, experiments
    simlib.run("subterra", games=100_000, precision=0.01)   # stop at +-1 point (anytime)
    simlib.compare_to_precision("subterra", {"preset": "normal"}, {"preset": "advanced"}, 0.01)
    simlib.solve("subterra", "hazard_cards", target=0.5)
    simlib.sensitivity("subterra", {"hazard_cards": (14, 22), "bot.risk": (0.2, 0.8)})
    exp = simlib.load_experiment("experiments/subterra_difficulty.toml")
    simlib.run_experiment(exp)
    simlib.games()                    # names of the known games
    lad = simlib.ladder("subterra", budgets=[0, 4, 16], games=400)  # skill ladder
    lad.table(); lad.steps(); lad.headroom()
    simlib.report.html.build_report   # tables, charts and HTML reports (imported on use)

Submodules are imported on first use, so ``import simlib`` stays quick and has no side
effects.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

__all__ = [
    "run",
    "sweep",
    "compare",
    "compare_to_precision",
    "solve",
    "sensitivity",
    "Results",
    "load_experiment",
    "run_experiment",
    "games",
    "ladder",
    "report",
    "SimlibInputError",
    "SimlibRunError",
    "__version__",
]

if TYPE_CHECKING:  # pragma: no cover - for type checkers and editors only
    from simlib import report
    from simlib.core.ladder import ladder
    from simlib.core.results import Results
    from simlib.core.runner import compare, compare_to_precision, run, sweep
    from simlib.core.sensitivity import sensitivity
    from simlib.core.solve import solve
    from simlib.errors import SimlibInputError
    from simlib.experiment import load_experiment, run_experiment

_LAZY = {
    "run": ("simlib.core.runner", "run"),
    "sweep": ("simlib.core.runner", "sweep"),
    "compare": ("simlib.core.runner", "compare"),
    "compare_to_precision": ("simlib.core.runner", "compare_to_precision"),
    "solve": ("simlib.core.solve", "solve"),
    "sensitivity": ("simlib.core.sensitivity", "sensitivity"),
    "Results": ("simlib.core.results", "Results"),
    "load_experiment": ("simlib.experiment", "load_experiment"),
    "run_experiment": ("simlib.experiment", "run_experiment"),
    "SimlibInputError": ("simlib.errors", "SimlibInputError"),
    "SimlibRunError": ("simlib.errors", "SimlibRunError"),
    "ladder": ("simlib.core.ladder", "ladder"),
}


def games() -> list[str]:
    """Return the names of every known game (``simlib.run``'s first argument)."""
    from simlib.games.registry import game_names

    return game_names()


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        module, attr = _LAZY[name]
        value = getattr(importlib.import_module(module), attr)
    elif name == "report":
        value = importlib.import_module("simlib.report")
    else:
        raise AttributeError(f"module 'simlib' has no attribute '{name}'")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
