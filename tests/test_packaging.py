"""What a regular install ships: every game's data files are package data."""

from __future__ import annotations

from pathlib import Path

import tomllib

ROOT = Path(__file__).parents[1]


def test_every_game_data_folder_is_package_data():
    # a wheel left out Terminus's data/default.toml: only the editable install worked
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    shipped = config["tool"]["setuptools"]["package-data"]
    folders = sorted(p.parent for p in (ROOT / "simlib" / "games").glob("*/data/*.toml"))
    assert folders
    for folder in set(folders):
        package = ".".join(folder.parent.relative_to(ROOT).parts)
        assert "data/*.toml" in shipped.get(package, []), f"{package} data is not package data"
