"""``simlib warmup``: every block kernel of a game played once, so a first run loads them."""

import numba
import pytest

from simlib.cli import main
from simlib.core import jit
from simlib.core.warmup import _kernels, warmup
from simlib.games.registry import get_game


def test_every_distinct_block_kernel_is_played_once():
    game = get_game("terralore")
    kernels = _kernels(game)
    # the scripted bots share one kernel; the search bot has its own
    assert len(kernels) == 2
    (done,) = warmup(["terralore"])
    assert done.game == "terralore" and done.kernels == 2 and done.seconds > 0
    if not numba.config.DISABLE_JIT:
        assert not jit.cache_is_cold("simlib.games.terralore")


def test_cli_warmup_names_each_game_and_refuses_an_unknown_one(capsys):
    assert main(["warmup", "terralore"]) == 0
    out = capsys.readouterr().out
    assert "Terralore: compiling" in out and "2 block kernels ready in" in out
    assert main(["warmup", "terralore", "nope"]) == 2
    captured = capsys.readouterr()
    assert "game 'nope' is not known" in captured.err and captured.out == ""


@pytest.mark.parametrize("name", ["subterra", "terminus", "terraria"])
def test_search_bot_kernels_are_told_apart(name):
    kernels = _kernels(get_game(name))
    assert len(kernels) == 2  # scripted bots and the search bot
