"""Terralore settings, presets and their validation."""

from __future__ import annotations

from typing import Any

from simlib.core.game import Setting
from simlib.errors import SimlibInputError
from simlib.games.terralore.bots import BOTS
from simlib.games.terralore.compile import deck_ids, load_data
from simlib.games.terralore.state import DECK, HMAX, LMAX

SEAT_BOT_CHOICES = ("run", *BOTS, "search")

SETTINGS = (
    Setting("deck0", str, "default", "seat 0's deck: a deck id of the data file, or "
            "'default' (its decks.default)"),
    Setting("deck1", str, "default", "seat 1's deck: a deck id of the data file, or "
            "'default' (its decks.default)"),
    Setting("bot0", str, "run", "seat 0's bot: 'run' (the run's bot and bot_params) or a "
            "bot name (with its default parameters; search at budget 16)",
            choices=SEAT_BOT_CHOICES),
    Setting("bot1", str, "run", "seat 1's bot: 'run' (the run's bot and bot_params) or a "
            "bot name (with its default parameters; search at budget 16)",
            choices=SEAT_BOT_CHOICES),
    Setting("first_player", int, -1, "seat that wins the round-1 die roll and opens the "
            "reveal order (-1 = roll the die, TL-043)", lo=-1, hi=1),
    Setting("castle_hp", int, 10, "castle HP at the start (rulebook: 10)", lo=1, hi=99),
    Setting("start_hand", int, 4, "cards in the opening hand (rulebook: 4)", lo=0, hi=DECK),
    Setting("hand_limit", int, 7, "most cards a hand holds; surplus draws go to the "
            "graveyard (rulebook: 7)", lo=1, hi=HMAX),
    Setting("draw_per_turn", int, 2, "cards drawn each turn from turn 2 (rulebook: 2)", lo=0,
            hi=DECK),
    Setting("lane_size", int, 4, "creatures a player may have in one lane (rulebook: 4)",
            lo=1, hi=LMAX),
    Setting("short_draw", str, "lose", "TL-016, a player who must draw 2 with 1 card left: "
            "'lose' draws it, then loses for being unable to draw the second (the literal "
            "reading); 'play_on' draws it and plays on, losing only at a Draw Phase that finds "
            "the deck empty", choices=("lose", "play_on"), reading="TL-016"),
    Setting("both_castles_fall", str, "tiebreak", "TL-062, both castles at 0 in one "
            "Counting Phase: 'tiebreak' (HP stops at 0, so the tiebreakers decide: field "
            "points, then a draw; the literal reading) or 'overkill' (the castle dealt more "
            "damage beyond 0 loses; equal overkill goes to the tiebreakers)",
            choices=("tiebreak", "overkill"), reading="TL-062"),
    Setting("data", str, "default", "card pool and decks: 'default' or a TOML file whose "
            "[[cards]] / [decks] replace the defaults (illustrative, see data/default.toml)",
            file=True),
    Setting("check_invariants", bool, False, "check that every card is accounted for after "
            "every phase (slower; for tests)"),
)

PRESETS: dict[str, dict[str, Any]] = {
    "standard": {},
}


def validate(values: dict[str, Any]) -> None:
    """Check the deck names against the data file."""
    data = load_data(values["data"])
    ids = deck_ids(data)
    for key in ("deck0", "deck1"):
        if values[key] not in ids and values[key] != "default":
            raise SimlibInputError(
                f"setting '{key}': '{values[key]}' is not a deck of the data file; allowed: "
                f"default, {', '.join(ids)}"
            )
