"""Helpers for the Terminus Breach TD tests: compiled settings and hand-made states."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from simlib.core.rng import new_state
from simlib.games.registry import get_game
from simlib.games.terminus import engine
from simlib.games.terminus.move import put_nb
from simlib.games.terminus.state import DKC, GSC, PLC, TWC, WHERE, alloc

GAME = get_game("terminus")


def compiled(preset="normal", **settings):
    """The ``params`` tuple of ``preset`` with ``settings``."""
    return GAME.compile(GAME.resolve(preset, settings))


def bot(name=None, **over):
    """(bot id, parameter vector) of bot ``name`` with parameter overrides."""
    b = GAME.bot(name)
    params = dict(b.params)
    params.update(over)
    return b.id, np.array(list(params.values()), np.float64)


def fresh(preset="normal", seed=1, game_index=0, bot_name=None, bot_over=None, **settings):
    """A state right after setup (allowance, initiative, setup builds, Battle 1 deck)."""
    st = SimpleNamespace()
    st.params = compiled(preset, **settings)
    st.cfg = st.params[0]
    st.bot_id, st.bp = bot(bot_name, **(bot_over or {}))
    (st.dk, st.occ, st.tw, st.bl, st.pl, st.hand, st.fdeck, st.deck, st.gs,
     st.scr) = alloc()
    st.rng = new_state(seed, game_index)
    engine.setup_nb(st.dk, st.occ, st.tw, st.bl, st.pl, st.hand, st.fdeck, st.deck, st.gs,
                    st.params, st.bot_id, st.bp, st.rng)
    return st


def empty(preset="normal", **settings):
    """A state after setup with every tower removed and no Drakka on the path."""
    st = fresh(preset, **settings)
    st.tw[:, :] = 0
    st.bl[:, :] = 0
    st.gs[GSC.WAVE_INDEX] = 0
    return st


def tower(st, seat, site, line, level=1):
    """Stand a tower of ``seat``'s race on ``site`` (no GP paid)."""
    st.tw[site, :] = 0
    st.tw[site, TWC.ALIVE] = 1
    st.tw[site, TWC.OWNER] = seat
    st.tw[site, TWC.RACE] = st.pl[seat, PLC.RACE]
    st.tw[site, TWC.LINE] = line
    st.tw[site, TWC.LEVEL] = level
    st.tw[site, TWC.READY] = -1
    return site


def drakka(st, pos, speed=2, tough=10, fly=0, boss=0, bounty=10, threat=1, dmg=0):
    """Put a fresh Drakka (a reused row of an unused card) on square ``pos``; its row."""
    n = int(st.gs[GSC.N_DRAKKA])
    for d in range(n - 5):
        if st.dk[d, DKC.WHERE] == WHERE.UNUSED and st.dk[d, DKC.BATTLE] == 5:
            break
    else:
        raise AssertionError("no unused card row left")
    st.dk[d, :] = 0
    st.dk[d, DKC.KILLER] = -1
    st.dk[d, DKC.POISON_SRC] = -1
    st.dk[d, DKC.POS] = -1
    st.dk[d, DKC.BATTLE] = 5
    st.dk[d, DKC.SPEED] = speed
    st.dk[d, DKC.TOUGH] = tough
    st.dk[d, DKC.FLY] = fly
    st.dk[d, DKC.BOSS] = boss
    st.dk[d, DKC.BOUNTY] = bounty
    st.dk[d, DKC.THREAT] = threat
    st.dk[d, DKC.DMG] = dmg
    if pos >= 0:
        put_nb(st.dk, st.occ, d, pos)
    return d


def site_near(st, q, dist=1, kind=0):
    """The first site of ``kind`` (0 spot, 1 rock, 2 tree) at Chebyshev distance exactly
    ``dist`` from path square ``q``."""
    sites, sdist = st.params[2], st.params[3]
    n = int(st.cfg[engine.CFG_SITES])
    near = [s for s in range(n) if sites[s, 2] == kind and sdist[s, q] == dist]
    assert near, f"no site of kind {kind} at distance {dist} of square {q}"
    return near[0]


def pile(st, where):
    """Rows of the Drakka in pile ``where``."""
    n = int(st.gs[GSC.N_DRAKKA])
    return [d for d in range(n) if st.dk[d, DKC.WHERE] == where]
