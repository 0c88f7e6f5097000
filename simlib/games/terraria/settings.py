"""Terraria settings, presets and their validation.

Rulebook: Winning the Game, Modifying Game Length and Difficulty (checklist TR-420..438).

Presets are the three printed difficulties; they set ``chains_needed`` (Easy 1, Medium 2,
Hard 3 objective chains of 10). ``mode`` picks one of the printed variants. The token
counts that a mode changes are derived when left unset (``None``); :func:`effective`
returns the numbers the engine uses.
"""

from __future__ import annotations

from typing import Any

from simlib.core.game import Game, Setting
from simlib.errors import SimlibInputError

__all__ = [
    "MODES",
    "BASE_MODES",
    "mode_parts",
    "EVIL_CHOICES",
    "MOB_DEBUFFS",
    "SETTINGS",
    "PRESETS",
    "MAX_PLAYERS",
    "TIME_TOKEN_SUPPLY",
    "TOMBSTONE_SUPPLY",
    "validate",
    "effective",
    "resolve",
]

#: The printed variants, in the rulebook's order.
BASE_MODES = ("journey", "lucky_horseshoe", "enchanted_sundial")
#: ``mode`` values: standard, one variant, or variants played together joined by "+" in
#: the rulebook's order (TR-438, open: "every mode works with every difficulty"; we read
#: the variants as combinable too, each keeping its own changes).
MODES = ("standard",) + tuple(
    "+".join(m for k, m in enumerate(BASE_MODES) if mask >> k & 1)
    for mask in range(1, 2 ** len(BASE_MODES))
)
EVIL_CHOICES = ("random", "corruption", "crimson")
MOB_DEBUFFS = ("leader", "each_die")  # the ``mob_debuff`` reading (TR-342 with TR-346)
MAX_PLAYERS = 4  # rulebook, Components: 4 character boards and pieces (TR-011, TR-027)
TIME_TOKEN_SUPPLY = 9  # "9 time limit tokens" (TR-007)
TOMBSTONE_SUPPLY = 8  # "8 tombstone tokens" (TR-022)
# "Place 7 time limit tokens" / Journey "from 7 to 9" / Enchanted Sundial "from 7 to 5".
_MODE_TIME_TOKENS = {"standard": 7, "journey": 9, "lucky_horseshoe": 7, "enchanted_sundial": 5}

SETTINGS = (
    Setting(
        "chains_needed",
        int,
        2,
        "objective chains of 10 to complete to win (the presets: "
        "easy 1, medium 2, hard 3; TR-420..423)",
        lo=1,
        hi=4,
    ),
    Setting(
        "mode",
        str,
        "standard",
        "rulebook variant: journey (no tombstones, 9 time "
        "tokens, iron tools, 2 ropes, no fall damage), lucky_horseshoe (no fall damage), "
        "enchanted_sundial (5 time tokens), or several joined by '+' in this order "
        "(TR-438; journey+enchanted_sundial needs time_limit_tokens, their counts conflict)",
        choices=MODES,
    ),
    Setting(
        "players", int, 2, "number of players, one character each (TR-027)", lo=1, hi=MAX_PLAYERS
    ),
    Setting(
        "time_limit_tokens",
        int,
        None,
        "time limit tokens at the start (default: 7; "
        "journey 9; enchanted_sundial 5); one is discarded each sunrise",
        lo=1,
        hi=TIME_TOKEN_SUPPLY,
    ),
    Setting(
        "tombstones_per_player",
        int,
        None,
        "tombstone tokens per player in the respawn "
        "pool (default: 2; journey uses none and respawns forever)",
        lo=0,
        hi=TOMBSTONE_SUPPLY,
    ),
    Setting(
        "evil_biome",
        str,
        "random",
        "Crimson or Corruption, chosen once per game (TR-040): 'random' draws it per game",
        choices=EVIL_CHOICES,
    ),
    Setting(
        "mob_debuff",
        str,
        "leader",
        "whose debuff a mob's lost health brings (TR-342, TR-346): 'leader' (literal: the "
        "strongest enemy attacks and the others only add a die, so every health lost brings "
        "the leader's debuff card); alternative 'each_die': a health lost to a die lent by "
        "another enemy brings that enemy's debuff (the leader's hits counted first)",
        choices=MOB_DEBUFFS,
        reading="TR-342",
    ),
    Setting(
        "data",
        str,
        "default",
        "content tables: 'default' or a TOML file whose tables "
        "replace the default ones (illustrative defaults, see data/*.toml)",
        file=True,
    ),
    Setting(
        "check_invariants",
        bool,
        False,
        "check state invariants after every step (slower; for tests)",
    ),
)

PRESETS: dict[str, dict[str, Any]] = {
    "easy": {"chains_needed": 1},
    "medium": {"chains_needed": 2},
    "hard": {"chains_needed": 3},
}


def validate(values: dict[str, Any]) -> None:
    """Check settings against each other and load (so validate) the content tables.

    Raises ``SimlibInputError`` with one line naming the setting and what is allowed.
    """
    parts = mode_parts(values["mode"])
    if "journey" in parts and "enchanted_sundial" in parts and values["time_limit_tokens"] is None:
        raise SimlibInputError(
            "setting 'mode': journey (9 time tokens) and enchanted_sundial (5) set conflicting "
            "token counts (TR-438); give time_limit_tokens too, e.g. --set time_limit_tokens=7"
        )
    if "journey" in parts and values["tombstones_per_player"] is not None:
        raise SimlibInputError(
            "setting 'tombstones_per_player': journey mode uses no tombstone tokens "
            "(respawns are infinite); leave it unset or choose another mode"
        )
    tomb = values["tombstones_per_player"]
    if tomb is not None and tomb * values["players"] > TOMBSTONE_SUPPLY:
        raise SimlibInputError(
            f"setting 'tombstones_per_player': {tomb} x {values['players']} players needs "
            f"{tomb * values['players']} tombstones but the game has {TOMBSTONE_SUPPLY}; "
            f"allowed: at most {TOMBSTONE_SUPPLY // values['players']}"
        )
    from simlib.games.terraria.compile import load_content, load_world

    path = None if values["data"] in ("default", "") else values["data"]
    load_content(path)
    load_world(path)


def mode_parts(mode: str) -> tuple[str, ...]:
    """The variants a ``mode`` value plays (``()`` for standard)."""
    return () if mode == "standard" else tuple(mode.split("+"))


def effective(values: dict[str, Any]) -> dict[str, Any]:
    """The numbers the engine uses, with the mode's derived defaults filled in.

    Returns a dict: ``time_limit_tokens``, ``tombstones`` (the whole respawn pool, ``-1`` for
    unlimited), ``fall_damage`` (bool), ``iron_tools`` (bool), ``start_ropes`` (per player),
    ``chains_needed``, ``players``.
    """
    parts = mode_parts(values["mode"])
    time_tokens = values["time_limit_tokens"]
    if time_tokens is None:
        # one variant sets the count at most (validate refuses journey with the sundial)
        base = _MODE_TIME_TOKENS["standard"]
        counts = [_MODE_TIME_TOKENS[m] for m in parts if _MODE_TIME_TOKENS[m] != base]
        time_tokens = counts[0] if counts else base
    journey = "journey" in parts
    per_player = values["tombstones_per_player"]
    if journey:
        tombstones = -1  # TR-430: "Do not use tombstone tokens (respawns are infinite)"
    else:
        tombstones = (2 if per_player is None else per_player) * values["players"]  # TR-067
    return {
        "time_limit_tokens": int(time_tokens),
        "tombstones": int(tombstones),
        "fall_damage": not (journey or "lucky_horseshoe" in parts),  # TR-435, TR-436
        "iron_tools": journey,  # TR-432
        "start_ropes": 2 if journey else 0,  # TR-434
        "chains_needed": int(values["chains_needed"]),
        "players": int(values["players"]),
    }


class _Spec(Game):
    """The settings half of the future Terraria game spec (no engine yet, not registered)."""

    name = "terraria"
    title = "Terraria: The Board Game"
    settings = SETTINGS
    presets = PRESETS
    default_preset = "medium"

    def validate(self, values: dict[str, Any]) -> None:
        """Check settings against each other and the content tables."""
        validate(values)


_SPEC = _Spec()


def resolve(preset: str | None = None, overrides: dict[str, Any] | None = None) -> dict[str, Any]:
    """Every setting's value: defaults, then the preset (default ``medium``), then overrides.

    Uses :meth:`simlib.core.game.Game.resolve`; raises ``SimlibInputError`` naming the key.
    """
    return _SPEC.resolve(preset, overrides)
