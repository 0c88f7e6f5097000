"""Execute the notebooks in place, so they are committed with their outputs.

A code host then shows each walk-through's tables and charts without running it. The
notebooks read ``SIMLIB_NOTEBOOK_GAMES`` (games per cell); the committed outputs use the
small counts below, so their intervals are wide: run a notebook yourself (its own default
is a full study) for the figures a decision needs. ``tests/test_notebook.py`` executes
every notebook again, with fewer games still.

Usage::

    python notebooks/execute.py                 # every notebook
    python notebooks/execute.py terraria_difficulty.ipynb --games 500
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

HERE = Path(__file__).resolve().parent
#: Games per cell for the committed outputs (Terraria is the slowest game).
GAMES = {
    "subterra_difficulty.ipynb": 5000,
    "terminus_balance.ipynb": 5000,
    "terralore_cards.ipynb": 5000,
    "terraria_difficulty.ipynb": 500,
}


def execute(name: str, games: int) -> None:
    """Run notebook ``name`` top to bottom with ``games`` per cell and save its outputs."""
    path = HERE / name
    nb = nbformat.read(path, as_version=4)
    os.environ["SIMLIB_NOTEBOOK_GAMES"] = str(games)
    os.environ["SIMLIB_PROGRESS"] = "0"
    os.environ.pop("MPLBACKEND", None)  # the kernel draws inline
    NotebookClient(nb, timeout=3600, kernel_name="python3",
                   resources={"metadata": {"path": str(HERE)}}).execute()
    nbformat.write(nb, path)
    print(f"{name}: executed with {games:,} games per cell", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    """Execute the notebooks named in ``argv`` (default: all) and save them."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="notebooks (default: all)")
    parser.add_argument("--games", type=int, help="games per cell instead of the defaults")
    args = parser.parse_args(argv)
    for name in args.names or sorted(GAMES):
        execute(name, args.games or GAMES.get(name, 1000))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
