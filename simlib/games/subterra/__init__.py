"""Sub Terra: the co-op cave escape, played rule by rule (``rules/sub-terra.txt``).

Module layout: ``state.py`` (array layouts, geometry), ``engine.py`` (rules, phases, the
batch kernel), ``bots.py`` (scripted cavers), ``compile.py`` (content tables -> arrays),
``settings.py`` (settings and presets), ``data/default.toml`` (illustrative content).

Readings of the checklist's open items (``shared/rules/sub-terra-checklist.md``)
------------------------------------------------------------------------------------
- ST-044: the first starting caver is random (setting ``start_seat`` fixes it); seats
  take turns in index order, which is the clockwise seating order.
- ST-054/055: cavers on the exit are out of the cave; the game ends as soon as no
  conscious caver is off the exit, checked after every action and every phase. Unconscious
  cavers elsewhere are then left behind.
- ST-056: the exit is an ordinary tile for movement; the bots never leave it.
- ST-077: unspent action points are lost at the end of the turn.
- ST-109: a rope stays for the rest of the game; a tile holds one (from a supply of 6).
- ST-112: a hidden caver still loses all health when a horror moves onto their tile.
- ST-136: severe cards are in the pool and may or may not be dealt.
- ST-141: Out of Time follows the card (setting ``out_of_time_rule = "rulebook"`` for the
  rule text).
- ST-144: the starting-caver marker skips removed cavers.
- ST-170/171: a caver on a ledge or slide stands on the side they entered by; leaving the
  other way is a crossing, limited for every kind of movement; horrors ignore it.
- ST-175: a tile is discarded only when no legal rotation leaves an open side facing an
  empty cell anywhere in the cave; the exit is never discarded.
- ST-176: with the stack empty, Reveal and Explore cannot be taken.
- ST-183: explosives on a wall facing a gap open that edge on the tile later laid there.
  The Engineer blasts a side of their own tile: the shared side with a neighbour not yet
  connected (the wall may be on either tile), or their own wall facing an empty cell.
- ST-190: lowest rank = the smallest rank number.
- ST-198: a tie between spawn tiles goes to the lowest tile index (the players' choice).
- ST-203: the starting caver orders the horror moves (setting ``horror_order``, default
  ``starting_caver``: the bots move the horror farthest from its victim first; ``slots``
  is a fixed order).
- ST-204: horrors may share a tile after moving.

Other readings: the Engineer's explosives action costs its board's ``ability_cost`` (2);
Run steps are plain Moves (no Swim or Squeeze, ST-096); a Reveal needs the caver able to
leave through that side (a ledge cannot be revealed across without a rope, ST-163);
health lost to gas entry is counted with gas damage. Hide lasts until the End Phase.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from simlib.core.game import BatchKernel, Bot, Game, RunContext
from simlib.errors import SimlibInputError
from simlib.games.subterra import bots as _bots
from simlib.games.subterra import compile as _compile
from simlib.games.subterra import engine as _engine
from simlib.games.subterra import search as _search
from simlib.games.subterra import settings as _settings
from simlib.games.subterra.state import MAX_CAVERS

__all__ = ["GAME", "SubTerra"]

BLOCK = 64  # games per block: a thread plays a block on state allocated once (core.blocks)
SEARCH_BLOCK = 4  # the search bot's games are slow: small blocks share them evenly

MEASURES = (
    "escaped", "left_behind", "tiles_revealed", "exit_revealed_round", "knockouts",
    "horror_knockouts", "exertions", "out_of_time_deaths", "dmg_tremor", "dmg_flood",
    "dmg_gas", "dmg_cave_in", "dmg_horror", "dmg_exert", "dmg_rough", "heals",
)


class SearchBot(Bot):
    """The ``search`` bot: its ``budget`` is a whole number of rollouts."""

    def resolve_params(self, overrides: dict[str, Any] | None) -> dict[str, float]:
        """Return the parameters (see :meth:`Bot.resolve_params`); ``budget`` is whole."""
        out = super().resolve_params(overrides)
        budget = out["budget"]
        if budget != int(budget):
            raise SimlibInputError(
                f"bot parameter 'budget': {budget:g} is not allowed; expected a whole "
                f"number from 0 to {_search.BUDGET_MAX}"
            )
        return out


class SubTerra(Game):
    """The Sub Terra game spec (see the module docstring for the readings)."""

    name = "subterra"
    title = "Sub Terra"
    engine_version = "2"
    settings = _settings.SETTINGS
    presets = _settings.PRESETS
    default_preset = "normal"
    bots = tuple(
        Bot(name, bid, desc, dict(zip(_bots.PARAM_NAMES, defaults, strict=True)),
            dict(_bots.PARAM_HELP), dict(_bots.PARAM_BOUNDS))
        for name, (bid, defaults, desc) in _bots.BOTS.items()
    ) + (SearchBot("search", _search.SEARCH_BOT, _search.DESCRIPTION, dict(_search.PARAMS),
             dict(_search.PARAM_HELP), dict(_search.PARAM_BOUNDS)),)
    default_bot = "explorer"
    #: A cold compile of the default bot's kernels, in seconds (benchmarks/bench_compile.py).
    compile_seconds = 40
    outcomes = _engine.OUTCOME_NAMES
    record_dt = _engine.record_dt
    leave_columns = tuple(f"leave_round_{i}" for i in range(MAX_CAVERS))
    measure_columns = MEASURES
    remaining_label = "cavers still in the cave"
    causes = (("health lost, by hazard", None,
               ("dmg_tremor", "dmg_flood", "dmg_gas", "dmg_cave_in", "dmg_horror", "dmg_exert",
                "dmg_rough")),)

    def validate(self, values: dict[str, Any]) -> None:
        """Check settings against each other and the content tables."""
        _settings.validate(values)

    def derived(self, values: dict[str, Any]) -> dict[str, Any]:
        """The hazard deck size the rulebook table gives when ``hazard_cards`` is unset."""
        return _settings.derived(values)

    def compile(self, values: dict[str, Any]) -> tuple:
        """Resolved settings -> the kernel's ``params`` tuple."""
        return _compile.compile_settings(values)

    def batch_kernel(self, compiled, bot_id, bot_params):
        """The block kernel of ``bot_id``: the search bot's or the scripted bots' one."""
        if bot_id == _search.SEARCH_BOT:
            return BatchKernel(_search.play_block_search_nb, (compiled, bot_params),
                               SEARCH_BLOCK)
        return BatchKernel(_engine.play_block_nb, (compiled, bot_id, bot_params), BLOCK)

    def frame_field(self, name: str, values: np.ndarray, ctx: RunContext):
        """``exit_revealed_round`` is missing (``<NA>``) when the exit was never revealed."""
        if name != "exit_revealed_round":
            return None
        col = pd.array(np.where(values < 0, 0, values), dtype="Int16")
        col[values < 0] = pd.NA
        return {name: col}


GAME = SubTerra()
