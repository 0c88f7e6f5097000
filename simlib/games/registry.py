"""Name -> game spec. Games are imported lazily so ``simlib games`` stays quick."""

from __future__ import annotations

import importlib

from simlib.core.game import Game
from simlib.errors import SimlibInputError

__all__ = ["get_game", "game_names", "register"]

_LAZY = {
    "subterra": ("simlib.games.subterra", "GAME"),
    "terminus": ("simlib.games.terminus", "GAME"),
    "terralore": ("simlib.games.terralore", "GAME"),
    "terraria": ("simlib.games.terraria", "GAME"),
}
_LOADED: dict[str, Game] = {}


def register(game: Game) -> None:
    """Register a game object under ``game.name`` (used by tests for toy games)."""
    _LOADED[game.name] = game


def game_names() -> list[str]:
    """Names of every known game."""
    return sorted(set(_LAZY) | set(_LOADED))


def get_game(name: str | Game) -> Game:
    """Return the game spec called ``name`` (a ``Game`` passes through)."""
    if isinstance(name, Game):
        return name
    if name in _LOADED:
        return _LOADED[name]
    if name not in _LAZY:
        raise SimlibInputError(
            f"game '{name}' is not known; allowed: {', '.join(game_names())}"
        )
    module, attr = _LAZY[name]
    game = getattr(importlib.import_module(module), attr)
    _LOADED[name] = game
    return game
