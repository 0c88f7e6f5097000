"""The scripted bots price a fall by the mode's fall rules (TR-435, TR-436).

``fall_penalty`` is the path search's price per square of a fall beyond the first where
falls can hurt; ``fall_safe`` where they cannot (Journey, Lucky Horseshoe). So changing
``fall_safe`` leaves every standard and Enchanted Sundial game as it was and changes games
in the modes without fall damage, and the other way round for ``fall_penalty``.
"""

from __future__ import annotations

import pandas as pd
import pytest

import simlib
from simlib.games.terraria import GAME, bots


def _df(mode, **params):
    return simlib.run("terraria", preset="hard", settings={"mode": mode}, bot="builder",
                      bot_params=params, games=24, seed=5, progress=False).df


def test_every_bot_has_both_prices():
    for name in ("explorer", "builder", "fighter"):
        p = GAME.bot(name).params
        assert p["fall_safe"] == bots.FALL_SAFE
        assert 0 <= p["fall_safe"] <= 10 and 0 <= p["fall_penalty"] <= 10


@pytest.mark.parametrize("mode", ["standard", "enchanted_sundial"])
def test_falls_that_hurt_are_priced_by_fall_penalty(mode):
    base = _df(mode)
    pd.testing.assert_frame_equal(base, _df(mode, fall_safe=0.0))
    pd.testing.assert_frame_equal(base, _df(mode, fall_safe=10.0))
    assert not base.equals(_df(mode, fall_penalty=0.0))


@pytest.mark.parametrize("mode", ["lucky_horseshoe", "journey"])
def test_falls_that_cannot_hurt_are_priced_by_fall_safe(mode):
    base = _df(mode)
    pd.testing.assert_frame_equal(base, _df(mode, fall_penalty=0.0))
    pd.testing.assert_frame_equal(base, _df(mode, fall_penalty=10.0))
    other = 0.0 if bots.FALL_SAFE > 0 else 6.0
    assert not base.equals(_df(mode, fall_safe=other))
