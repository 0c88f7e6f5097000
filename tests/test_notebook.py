"""The worked notebook runs top to bottom on a small number of games."""

import os
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    ("name", "games"),
    [
        ("subterra_difficulty.ipynb", 1000),
        ("terralore_cards.ipynb", 1000),
        ("terminus_balance.ipynb", 1000),
        ("terraria_difficulty.ipynb", 60),  # the slowest game: fewer, still every cell runs
    ],
)
def test_notebook_executes(name, games, tmp_path, monkeypatch):
    monkeypatch.setenv("SIMLIB_NOTEBOOK_GAMES", str(games))
    monkeypatch.delenv("MPLBACKEND", raising=False)  # the kernel draws inline
    monkeypatch.setenv("SIMLIB_PROGRESS", "0")
    nb = nbformat.read(ROOT / "notebooks" / name, as_version=4)
    client = NotebookClient(nb, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if o.get("output_type") == "error"]
    assert not errors
    # the summary table and at least one chart were produced
    kinds = {k for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
             for k in o.get("data", {})}
    assert "image/png" in kinds and "text/html" in kinds
    assert os.environ.get("SIMLIB_NOTEBOOK_GAMES") == str(games)
