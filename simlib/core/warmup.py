"""Compile a game's kernels ahead of its first run (``simlib warmup``).

Numba compiles a kernel on its first call and caches the machine code on disk; a game's
first run therefore spends from half a minute to a minute and a half compiling before
the first game is played. :func:`warmup` plays one game through every block kernel a
game's bots use (each kernel once: bots that share a kernel share its compile), so the
runs that follow load the kernels from the cache.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from simlib.games.registry import game_names, get_game

__all__ = ["Warmed", "warmup"]


@dataclass(frozen=True)
class Warmed:
    """One game warmed: how many block kernels it has and how long it took (seconds)."""

    game: str
    kernels: int
    seconds: float


def _kernels(game) -> dict[object, tuple[int, np.ndarray]]:
    """A bot (id, parameters) for each distinct block kernel of ``game``'s default preset.

    A search bot is warmed at budget 0: the same compiled kernel, one game in seconds.
    """
    compiled = game.compile(game.resolve(None, None))
    out: dict[object, tuple[int, np.ndarray]] = {}
    for bot in game.bots:
        params = {**bot.params, **({"budget": 0.0} if "budget" in bot.params else {})}
        bp = np.array(list(params.values()), dtype=np.float64)
        kernel = game.batch_kernel(compiled, bot.id, bp).kernel
        out.setdefault(kernel, (bot.id, bp))
    return out


def warmup(games: Iterable[str] | None = None) -> list[Warmed]:
    """Compile (or load from the cache) every block kernel of each game in ``games``.

    Parameters
    ----------
    games : iterable of str, optional
        Game names (default: every registered game).

    Returns
    -------
    list of Warmed
        Per game, the number of block kernels played and the seconds it took (a cold
        compile the first time, a cache load after).

    """
    names = list(game_names() if games is None else games)
    warmed = []
    for name in names:
        game = get_game(name)
        start = time.perf_counter()
        compiled = game.compile(game.resolve(None, None))
        kernels = _kernels(game)
        for bot_id, bp in kernels.values():
            game.play_batch(compiled, bot_id, bp, 0, 0, 1)
        warmed.append(Warmed(game.name, len(kernels), time.perf_counter() - start))
    return warmed
