"""Terralore: the two-player lane card game, played rule by rule (``rules/terralore.txt``).

Module layout: ``state.py`` (array layouts, card-table columns, effect vocabulary),
``engine.py`` (draws, play, reveal, effects, traps, counting, the end, the batch kernel),
``bots.py`` (scripted players), ``search.py`` (the search bot), ``compile.py`` (card pool
and decks -> arrays), ``settings.py`` (settings), ``data/default.toml`` (an illustrative
card pool and decks).

Seats, bots and results
-----------------------
Seat 0 plays ``deck0`` with ``bot0``, seat 1 ``deck1`` with ``bot1``; a seat bot of
``"run"`` (the default at both seats) is the run's ``bot`` with its ``bot_params`` (so
``simlib.run("terralore")`` is a mirror match of the default deck and bot, and a sweep of
``bot.<param>`` tunes every seat that plays the run's bot); a seat bot named in the
settings plays with its default parameters, whatever ``bot_params`` say. The skill
ladder's overrides (:meth:`Terralore.ladder_settings`) set ``bot1 = "value"``, so each
rung's bot and parameters play seat 0 against the default bot at seat 1.

Bots: the scripted ``aggressive``, ``defensive`` and ``value`` (``bots.py``), and
``search`` (``search.py``): flat Monte Carlo over each card it plays, with ``value``
rollouts from a copy of the state whose unseen cards are dealt again at random, and
``budget`` rollouts per candidate (budget 0 plays exactly as ``value``). It may sit at
either seat or both; its rollouts draw from side stream 1 of the match, so the match's
own stream, and every scripted game, is unchanged.

One row per match: ``winner`` (0, 1, -1 draw), ``win``
(seat 0 won), ``outcome`` (how it ended: castle, deck_out, tiebreak, draw), ``rounds``
(turns played), ``first_player``, ``hp0``/``hp1``, ``deck0``/``deck1``, ``bot0``/``bot1``,
``field0``/``field1`` (final field points), cards played, graveyard and exile sizes, and
``played{seat}_{w}``: bit ``b`` of word ``w`` (int64) is set when that seat played the card
of id ``64 w + b`` (its position in the data file's ``[[cards]]``) from hand; see
``card_names``. ``simlib.report`` turns these into matchup tables and per-card win rates.

Readings of the checklist's open items (``shared/rules/terralore-checklist.md``)
------------------------------------------------------------------------------------
- TL-013: the cost is paid with other cards from hand (never the card itself) when the
  card is placed in the Play Phase; the bot picks which.
- TL-016 (setting ``short_draw``): a player who must draw 2 with 1 card left draws it,
  then loses for being unable to draw the second (``lose``, the default); ``play_on``
  draws it and plays on, losing only at a Draw Phase that finds the deck empty. Draws
  are made one at a time by both players together, so both failing on the same draw is
  "running out at the same time" (TL-073); a failure on an earlier draw loses outright.
  A card effect that draws from an empty deck draws nothing (only the Draw Phase's draws
  are ones a player "has to" make).
- TL-024: a skill resolves when revealed, then goes to its owner's graveyard; it takes no
  creature slot.
- TL-029: a landmark scores no points; it is placed face-down in a lane like every card
  (TL-039), and "here" is that lane. It replaces the old landmark when revealed.
- TL-041: both players place at the same time and may play any number of cards, each
  paying its own cost. Bots see only face-up cards of the opponent.
- TL-050: equal HP but unequal field points: the player with fewer field points opens.
  The order is settled before the reveal, so only face-up creatures count here (this
  turn's face-down cards are unknown); a perfect tie is equal HP and equal face-up points.
- TL-051: the die winner takes the losing player's place (its defending lane first).
- TL-052: each player rolls a d6, the higher roll wins, equal rolls are rerolled.
- TL-053: several cards in one reveal step are revealed in the order their owner placed
  them.
- TL-055: effects resolve in reveal order, one card at a time, before lane totals are
  counted; a revealed card's effect sees only face-up creatures (a "strongest creature"
  target is the highest-points face-up one, the earliest played on ties). ATTACKED traps
  spring in the Counting Phase before damage, the reveal opener's first.
- TL-017: a castle reaching 0 loses at once. A card revealed in the Reveal Phase that
  brings a castle to 0 ends the match after its reveal step: the later steps are not
  revealed and no counting follows; a castle at 0 is never healed back.
- TL-062 (setting ``both_castles_fall``): castle HP stops at 0; both castles at 0 in one
  Counting Phase go to the tiebreakers (equal HP, so field points, then a draw:
  ``tiebreak``, the default); ``overkill`` lets the castle dealt more damage beyond 0 lose
  first (equal overkill: the tiebreakers).
- TL-063: healing never raises a castle above its starting HP (``castle_hp``).
- TL-076: field points are the points of all of a player's creatures in both lanes,
  with boosts, weakens and landmark boosts applied (never below 0 per creature); skills,
  traps and landmarks score nothing.
- TL-084: a synergy is checked against the full 20-card deck list (at compile time).
- TL-088: a token skill is banished once it resolves; a token creature stays on the field
  and is banished when it leaves. A token that would go to the graveyard from anywhere
  (discarded, drawn into a full hand) is banished.

Other readings: creatures destroyed to make room (TL-065) go at placement, before any
reveal; a summon into a full lane fizzles (creating a creature is not playing one); the
fifth-creature choice and all payments are bot decisions; a landmark's heal works only
while its castle stands; draws with ``draw_per_turn = 0`` end at a 60-turn cap by the
tiebreakers. A trap is armed from the moment it is placed: one set this turn may spring on
a creature revealed later in the same Reveal Phase. One trap springs per event (the owner's
earliest set of the right trigger in that lane); a seat keeps at most 4 traps a lane (an
engine limit; the bots never try a fifth).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from simlib.core.game import BatchKernel, Bot, Game, RunContext
from simlib.games.terralore import bots as _bots
from simlib.games.terralore import compile as _compile
from simlib.games.terralore import engine as _engine
from simlib.games.terralore import search as _search
from simlib.games.terralore import settings as _settings
from simlib.games.terralore.state import NW

__all__ = ["GAME", "Terralore"]

BLOCK = 256  # matches per block: a thread plays a block on state allocated once (core.blocks)

MEASURES = ("hp0", "hp1", "field0", "field1", "cards_played0", "cards_played1",
            "graveyard0", "graveyard1", "exiled0", "exiled1")
PLAYED_COLUMNS = tuple(tuple(f"played{s}_{w}" for w in range(NW)) for s in range(2))


class Terralore(Game):
    """The Terralore game spec (see the module docstring for the readings)."""

    name = "terralore"
    title = "Terralore"
    engine_version = "4"
    settings = _settings.SETTINGS
    presets = _settings.PRESETS
    default_preset = "standard"
    bots = (*(
        Bot(name, bid, desc, dict(zip(_bots.PARAM_NAMES, defaults, strict=True)),
            dict(_bots.PARAM_HELP), dict(_bots.PARAM_BOUNDS))
        for name, (bid, defaults, desc) in _bots.BOTS.items()
    ), Bot("search", _search.SEARCH_ID,
           "flat Monte Carlo over each card it plays: rollouts of value from a copy of the "
           "state with the unseen cards dealt again at random",
           {"budget": float(_search.DEFAULT_BUDGET)},
           {"budget": "rollouts per candidate play (whole number; 0 plays exactly as value)"},
           {"budget": (0.0, float(_search.MAX_BUDGET))}))
    default_bot = "value"
    #: A cold compile of the default bot's kernels, in seconds (benchmarks/bench_compile.py).
    compile_seconds = 30
    outcomes = _engine.OUTCOME_NAMES
    record_dt = _engine.record_dt
    measure_columns = MEASURES
    # the matchup table and per-card win rates of the report
    matchup_columns = ("deck0", "deck1", "winner")
    card_mask_columns = PLAYED_COLUMNS
    first_column = "first_player"

    def validate(self, values: dict[str, Any]) -> None:
        """Check the deck names against the data file."""
        _settings.validate(values)

    def compile(self, values: dict[str, Any]) -> tuple:
        """Resolved settings -> (kernel params, seat bot ids, seat bot parameters, budgets).

        A seat bot id of -1 means "the run's bot" (filled in by :meth:`batch_kernel`).
        """
        params = _compile.compile_settings(values)
        ids = np.full(2, -1, dtype=np.int64)
        bp = np.zeros((2, len(_bots.PARAM_NAMES)), dtype=np.float64)
        budgets = np.zeros(2, dtype=np.int64)
        for s, key in enumerate(("bot0", "bot1")):
            if values[key] != "run":
                b = self.bot(values[key])
                ids[s] = b.id
                if b.id == _search.SEARCH_ID:
                    budgets[s] = int(b.params["budget"])
                else:
                    bp[s] = list(b.params.values())
        return (params, ids, bp, budgets)

    def ladder_settings(self) -> dict[str, Any]:
        """Every rung of a skill ladder plays seat 0 against ``value`` at seat 1.

        ``bot0`` stays ``"run"``, so the rung's bot and its parameters play seat 0.
        """
        return {"bot1": "value"}

    def batch_kernel(self, compiled, bot_id, bot_params):
        """The block kernel of a match: the search one when a seat searches.

        A seat set to ``"run"`` plays the run's bot with ``bot_params``; a searching seat's
        ``budget`` is the whole part of its parameter. Matches with a searching seat run in
        ``search.play_block_search_nb``, every other match in ``engine.play_block_nb``.
        """
        params, seat_ids, seat_bp, seat_budgets = compiled
        ids = seat_ids.copy()
        bp = seat_bp.copy()
        budgets = seat_budgets.copy()
        for s in range(2):
            if ids[s] < 0:
                ids[s] = bot_id
                if ids[s] == _search.SEARCH_ID:
                    budgets[s] = int(bot_params[0])
                else:
                    bp[s] = bot_params
        if (ids == _search.SEARCH_ID).any():
            value = np.array(_bots.BOTS["value"][1], dtype=np.float64)
            rbp = np.ascontiguousarray(np.broadcast_to(value, (2, value.size)))
            return BatchKernel(_search.play_block_search_nb, (params, ids, bp, budgets, rbp),
                               BLOCK)
        return BatchKernel(_engine.play_block_nb, (params, ids, bp), BLOCK)

    def item_labels(self, ctx: RunContext) -> tuple[str, ...]:
        """Card names by card id (the bit positions of the ``played*`` columns)."""
        return tuple(self.card_names(ctx.get("data", "default")))

    def card_names(self, data: str = "default") -> list[str]:
        """Card names by card id in the data file ``data`` (a path or ``"default"``)."""
        return _compile.card_names(_compile.load_data(data))

    def deck_names(self, data: str = "default") -> list[str]:
        """Deck ids by code (the ``deck0`` / ``deck1`` categories) in the data file ``data``."""
        return _compile.deck_ids(_compile.load_data(data))

    def frame_field(self, name: str, values: np.ndarray, ctx: RunContext):
        """Decks and seat bots as categories; the ``played`` bitmasks spread per seat and word.

        The deck names come from the run's data file (``ctx``), so the codes are named
        right whatever file was played.
        """
        if name in ("deck0", "deck1"):
            decks = self.deck_names(ctx.get("data", "default"))
            return {name: pd.Categorical.from_codes(values.astype(np.int64), categories=decks)}
        if name in ("bot0", "bot1"):
            bot_names = [b.name for b in sorted(self.bots, key=lambda b: b.id)]
            return {name: pd.Categorical.from_codes(values.astype(np.int64),
                                                    categories=bot_names)}
        if name == "played":
            return {f"played{s}_{w}": np.ascontiguousarray(values[:, s, w]).view(np.int64)
                    for s in range(2) for w in range(NW)}
        return None


GAME = Terralore()
