"""Sub Terra readings and data checks: the horror move order (ST-203), exit_depth vs stack."""

from __future__ import annotations

import numpy as np
import pytest
from subterra_helpers import Cave

import simlib
from simlib.errors import SimlibInputError
from simlib.games.registry import get_game
from simlib.games.subterra import bots
from simlib.games.subterra.state import GFC, MAX_HORRORS, TILE

GAME = get_game("subterra")


def order(steps):
    code = bots.horror_order_nb(np.array(steps, np.int32), 0, np.zeros(bots.N_PARAMS))
    return [(code >> (2 * k)) & 3 for k in range(MAX_HORRORS)]


def test_starting_caver_moves_the_farthest_horror_first():
    # ST-203: the order is the starting caver's; the bots move the one about to strike last
    assert order([1, 4, 2]) == [1, 2, 0]
    assert order([2, -1, 2]) == [0, 2, 3]  # ties keep slot order; an empty slot is skipped
    assert order([-1, 99, 3]) == [1, 2, 3]  # 99: no victim within reach (it will be removed)


def junction(horror_order):
    # H1 on a junction J: X (rank 1) two steps north, Y (rank 2) three steps east; H0 one
    # step beyond X. In slot order H0 knocks X out first and H1 turns east after Y; moved
    # by the starting caver (farthest first) H1 steps north after X before H0 strikes.
    cave = Cave(2)
    cave.gs[GFC.HORROR_ORDER] = horror_order
    j = cave.tile(0, 0, TILE.PLAIN)
    n1 = cave.tile(0, -1, TILE.PLAIN)
    x = cave.tile(0, -2, TILE.PLAIN)
    h0 = cave.tile(0, -3, TILE.PLAIN)
    e1 = cave.tile(1, 0, TILE.PLAIN)
    cave.tile(2, 0, TILE.PLAIN)
    y = cave.tile(3, 0, TILE.PLAIN)
    cave.caver(0, x, rank=1)
    cave.caver(1, y, rank=2)
    cave.horror(h0)
    cave.horror(j)
    cave.move_horrors()
    return cave, n1, e1


@pytest.mark.parametrize("horror_order", [0, 1])
def test_horror_order_setting_decides_who_is_chased(horror_order):
    # ST-203 ST-199: the same cave, the two readings
    cave, n1, e1 = junction(horror_order)
    assert cave.hp(0) == 0  # H0 knocks X out either way
    assert int(cave.hz[1]) == (e1 if horror_order == 0 else n1)


def test_horror_order_is_a_listed_reading():
    names = {r.name: r for r in GAME.settings}
    s = names["horror_order"]
    assert s.default == "starting_caver" and s.reading == "ST-203"
    assert set(s.choices) == {"starting_caver", "slots"}
    for value in ("starting_caver", "slots"):
        res = simlib.run("subterra", settings={"horror_order": value}, games=20, seed=1,
                         progress=False)
        assert len(res.df) == 20


def test_exit_depth_beyond_the_stack_is_one_line(tmp_path):
    small = tmp_path / "small.toml"
    small.write_text(
        "[tiles]\n"
        + "".join(f"{name} = [1, 1, 0, 0, 0, 0]\n" for name in
                  ("plain", "water", "gas", "cave_in", "horror", "rough"))
        + "".join(f"{name} = [1, 0, 0, 1, 0, 0]\n" for name in ("squeeze", "ledge", "slide"))
        + "[cave_in_faces]\nfaces = [[1, 2]]\n"
    )
    GAME.resolve("normal", {"data": str(small), "exit_depth": 10})  # 9 tiles + the exit
    with pytest.raises(SimlibInputError) as err:
        GAME.resolve("normal", {"data": str(small), "exit_depth": 11})
    msg = str(err.value)
    assert "exit_depth" in msg and "1 to 10" in msg and "\n" not in msg


def test_cautious_description_matches_what_it_does():
    # "explores less eagerly than explorer (still more explores than reveals)": a larger
    # share of its tiles revealed without stepping in, yet more explores than reveals
    # (fixed seed, so exact; 200 games put both shares within about 0.01 of their means,
    # against a gap of about 0.1)
    share = {}
    for bot in ("explorer", "cautious"):
        df = simlib.run("subterra", bot=bot, games=200, seed=8, progress=False).df
        r, x = df.reveals.sum(), df.explores.sum()
        assert x > r
        share[bot] = r / (r + x)
    assert share["cautious"] > share["explorer"] + 0.05, share
    assert "explores less eagerly" in GAME.bot("cautious").help


@pytest.mark.parametrize("bot", ["explorer", "cautious", "racer"])
def test_the_engineer_uses_the_explosives(bot):
    # ST-178: the scripted bots blast walls (the team has the Engineer in the default
    # team); with the parameter off they never do
    on = simlib.run("subterra", bot=bot, games=60, seed=4, progress=False).df
    off = simlib.run("subterra", bot=bot, bot_params={"explosives": 0}, games=60, seed=4,
                     progress=False).df
    assert on.explosives_used.sum() > 20 and off.explosives_used.sum() == 0
