"""Terraria's open readings as settings: ``mob_debuff`` (TR-342 with TR-346).

The literal reading (default ``leader``): the strongest enemy of a mob attacks, the others
only add a die, so every health lost brings the leader's debuff card. The alternative
``each_die``: a health lost to a lent die brings that lender's debuff, the leader's own
hits counted first.
"""

from __future__ import annotations

import numpy as np
import pytest
from terraria_foes_helpers import Game, enemy_row, tables

import simlib
from simlib.errors import SimlibInputError
from simlib.games.terraria import GAME
from simlib.games.terraria.engine import foes
from simlib.games.terraria.state import CC, DEBUFF, ENEMY_ROW, PILE, G

E0 = ENEMY_ROW


def test_the_reading_is_listed_with_its_alternative():
    (r,) = [s for s in GAME.readings() if s.name == "mob_debuff"]
    assert r.reading == "TR-342" and r.default == "leader"
    assert "each_die" in r.help and set(r.choices) == {"leader", "each_die"}
    assert GAME.compile(GAME.resolve("medium", {}))[1][-1] == 0
    assert GAME.compile(GAME.resolve("medium", {"mob_debuff": "each_die"}))[1][-1] == 1


def test_a_bad_reading_is_one_line():
    with pytest.raises(SimlibInputError) as err:
        simlib.run("terraria", settings={"mob_debuff": "all"}, games=1, progress=False)
    assert "mob_debuff" in str(err.value) and "\n" not in str(err.value)


def _mob(reading):
    # every die hits (defence d1): the leader's 3 dice and the lender's smallest die, 4
    # health lost of 5; leader Frozen, lender Poisoned
    tab = tables(enemies=np.array([enemy_row([8, 8, 4], 1, debuff=DEBUFF.FROZEN),
                                   enemy_row([6, 6], 1, debuff=DEBUFF.POISONED)]))
    g = Game(["." * 12, "#" * 12], top=0, left=42, tab=tab)
    g.tab.characters[:, CC.DEF0] = 1
    g.character(0, 0, 5)
    g.enemy(E0, 0, 0, 4)  # leads
    g.enemy(E0 + 1, 1, 0, 6)  # lends a d6
    g.st.g[G.MOB_DEBUFF] = reading
    assert foes.enemy_attacks_nb(g.st, g.tab, 0, 0) == 4
    return g.st.deck[0, PILE.DRAW, : g.st.npile[0, PILE.DRAW]].tolist()


def test_leader_reading_gives_the_leaders_debuff_for_every_health():
    assert _mob(0) == [DEBUFF.FROZEN] * 4


def test_each_die_reading_gives_the_lenders_debuff_for_its_hit():
    assert sorted(_mob(1)) == sorted([DEBUFF.FROZEN] * 3 + [DEBUFF.POISONED])


def test_the_reading_changes_games_and_the_default_changes_none():
    kw = {"preset": "hard", "games": 40, "seed": 3, "progress": False}
    a = simlib.run("terraria", **kw).df
    b = simlib.run("terraria", settings={"mob_debuff": "leader"}, **kw).df
    c = simlib.run("terraria", settings={"mob_debuff": "each_die"}, **kw).df
    assert a.equals(b)
    assert not a.equals(c)
