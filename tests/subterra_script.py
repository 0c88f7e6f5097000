"""A scripted caver for the Sub Terra turn tests: it replays a list of steps.

The designer's bots choose their own actions, so the turn's rules are only observable
through a player that replays a script and notes what it saw when asked for each step.
That player lives here, not in the package: :class:`Script` answers the engine's questions
from Python, and :func:`play_turn` / :func:`play_game` ask them the way the engine's own
loops do (``engine.take_turn_nb``, and ``engine.advance_nb`` stopping at every decision as
the search bot plays). Every other choice (rotations, horror steps) is the explorer's.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from subterra_helpers import BOT_ID, BP, Cave

from simlib.core.rng import seed_state_nb
from simlib.games.subterra import bots, engine, state
from simlib.games.subterra.state import ACTION, CFC, GFC


class Seen(NamedTuple):
    """What the caver saw when asked for a step of the script."""

    tiles: int  # tiles in the cave
    ap: int  # action points left in the turn
    round: int


class Script:
    """Replays steps ``(caver, action, arg, exert)`` in order.

    Asked by the caver of the next step, it plays that step; asked by any other caver (or
    once the script is done), it ends that caver's turn. ``seen`` lists what it saw at
    each step it played.
    """

    def __init__(self, *steps: tuple[int, int, int, bool]):
        self.steps = list(steps)
        self.pos = 0
        self.seen: list[Seen] = []

    def decide(self, gs: np.ndarray, c: int) -> tuple[int, int, bool]:
        """The next action of caver ``c``: ``(action, arg, want_exert)``."""
        if self.pos >= len(self.steps) or self.steps[self.pos][0] != c:
            return ACTION.END, 0, False
        _, action, arg, exert = self.steps[self.pos]
        self.seen.append(Seen(int(gs[GFC.N_TILES]), int(gs[GFC.TURN_AP]), int(gs[GFC.ROUND])))
        self.pos += 1
        return action, arg, bool(exert)

    @property
    def ap_seen(self) -> list[int]:
        return [s.ap for s in self.seen]


def play_turn(cave: Cave, c: int, script: Script, rng: np.ndarray) -> None:
    """Caver ``c``'s whole turn on ``cave``, the steps of ``engine.take_turn_nb``."""
    tl, nb, grid, cv, hz, gs = cave.tl, cave.nb, cave.grid, cave.cv, cave.hz, cave.gs
    if cv[c, CFC.REMOVED] != 0 or cv[c, CFC.HP] <= 0:
        return
    engine.begin_turn_nb(gs)
    while engine.turn_goes_on_nb(cv, gs, c):
        action, arg, want_exert = script.decide(gs, c)
        if not engine.act_nb(tl, nb, grid, cv, hz, gs, cave.stack, cave.scratch, cave.params,
                             c, action, arg, want_exert, BOT_ID, BP, rng):
            break
    engine.end_turn_nb(tl, cv, gs, c, rng)


def play_game(params, script: Script, seed: int, game_index: int) -> tuple:
    """Game ``game_index`` of run ``seed`` from setup to its end, ``script`` deciding.

    Returns the final state arrays (``state.alloc_nb`` order).
    """
    arrays = state.alloc_nb()
    tl, nb, grid, cv, hz, gs, stack, deck, scratch = arrays
    rng = np.zeros(4, np.uint64)
    seed_state_nb(seed, game_index, rng)
    bots.forget_nb(scratch)
    engine.setup_nb(tl, nb, grid, cv, hz, gs, stack, deck, params, rng)
    while engine.advance_nb(tl, nb, grid, cv, hz, gs, stack, deck, scratch, params, BOT_ID, BP,
                            rng, True):
        action, arg, want_exert = script.decide(gs, int(engine.turn_caver_nb(gs)))
        engine.decide_act_nb(tl, nb, grid, cv, hz, gs, stack, scratch, params, action, arg,
                             want_exert, BOT_ID, BP, rng)
    return arrays
