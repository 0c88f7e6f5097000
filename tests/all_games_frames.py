"""The rows of every registered game, preset and bot on fixed seeds, to compare two builds.

Used by ``tests/test_jit.py`` (numba's public path against the tricks of
``simlib.core._numba_compat``) and by hand across a change that must not move a record::

    PYTHONPATH=/path/to/old/tree python tests/all_games_frames.py /tmp/old.parquet
    PYTHONPATH=/path/to/new/tree python tests/all_games_frames.py /tmp/new.parquet
    python tests/all_games_frames.py --compare /tmp/old.parquet /tmp/new.parquet
"""

from __future__ import annotations

import sys

import pandas as pd

GAMES = 30
SEED = 20240611


def simlib_games() -> list[str]:
    """The games simlib ships (not those a test registered in this process, like the toy)."""
    from simlib.games.registry import game_names, get_game

    return [n for n in game_names() if type(get_game(n)).__module__.startswith("simlib.games.")]


def all_games_frames(games: int = GAMES, seed: int = SEED) -> dict[str, pd.DataFrame]:
    """``{"game/preset/bot": rows}`` for every game, preset and bot (search at budget 2)."""
    import simlib
    from simlib.games.registry import get_game

    out = {}
    for name in simlib_games():
        g = get_game(name)
        for preset in g.presets:
            for bot in g.bots:
                search = bot.name == "search" and "budget" in bot.params
                params = {"budget": 2.0} if search else None  # a few rollouts: seconds
                res = simlib.run(name, preset=preset, bot=bot.name, bot_params=params,
                                 games=games, seed=seed, threads=1, progress=False)
                out[f"{name}/{preset}/{bot.name}"] = res.df
    return out


def save(frames: dict[str, pd.DataFrame], path: str) -> None:
    """One pickle of every frame (dtypes and column order kept exactly)."""
    pd.to_pickle(frames, path)


def assert_same(a: dict[str, pd.DataFrame], b: dict[str, pd.DataFrame]) -> None:
    """Every game, preset and bot of ``a`` and ``b`` has the same rows (``assert_frame_equal``)."""
    assert sorted(a) == sorted(b), (sorted(a), sorted(b))
    for key in a:
        try:
            pd.testing.assert_frame_equal(a[key], b[key])
        except AssertionError as e:
            raise AssertionError(f"{key}: {e}") from None


def main(argv: list[str]) -> int:
    if argv[:1] == ["--compare"]:
        a, b = (pd.read_pickle(p) for p in argv[1:3])
        assert_same(a, b)
        print(f"identical: {len(a)} frames, {sum(len(f) for f in a.values())} rows")
        return 0
    save(all_games_frames(), argv[0])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
