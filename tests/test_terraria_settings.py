"""Terraria settings, presets and modes (rulebook: Winning the Game, Modifying Game Length
and Difficulty). Checklist ids are cited beside each rule tested."""

import pytest

from simlib.errors import SimlibInputError
from simlib.games.terraria import settings as ts
from simlib.games.terraria.settings import effective, resolve


@pytest.mark.parametrize("preset, chains", [("easy", 1), ("medium", 2), ("hard", 3)])
def test_presets_set_chains_needed(preset, chains):
    # TR-420 difficulty chosen before the game; TR-421 easy 1, TR-422 medium 2, TR-423 hard 3
    values = resolve(preset)
    assert values["chains_needed"] == chains
    assert effective(values)["chains_needed"] == chains


def test_default_preset_is_medium_two_players():
    values = resolve()
    assert values["chains_needed"] == 2 and values["players"] == 2
    assert values["mode"] == "standard"


def test_standard_counts():
    # TR-067: 2 tombstones per player; TR-068: 7 time limit tokens; falls hurt
    for players in (1, 2, 3, 4):
        eff = effective(resolve("medium", {"players": players}))
        assert eff["tombstones"] == 2 * players
        assert eff["time_limit_tokens"] == 7
        assert eff["fall_damage"] and not eff["iron_tools"] and eff["start_ropes"] == 0


def test_journey_mode():
    # TR-430 no tombstones (unlimited), TR-431 9 tokens, TR-432 iron tools, TR-434 2 ropes,
    # TR-435 no fall damage
    eff = effective(resolve("hard", {"mode": "journey"}))
    assert eff["tombstones"] == -1
    assert eff["time_limit_tokens"] == 9
    assert eff["iron_tools"] and eff["start_ropes"] == 2
    assert not eff["fall_damage"]
    assert eff["chains_needed"] == 3  # TR-438: modes combine with every difficulty


def test_lucky_horseshoe_only_removes_fall_damage():
    # TR-436: nothing else changes
    std = effective(resolve("easy"))
    lucky = effective(resolve("easy", {"mode": "lucky_horseshoe"}))
    assert not lucky["fall_damage"]
    assert {k: v for k, v in lucky.items() if k != "fall_damage"} == {
        k: v for k, v in std.items() if k != "fall_damage"
    }


def test_enchanted_sundial_only_changes_time_tokens():
    # TR-437: 5 time limit tokens, nothing else changes
    std = effective(resolve("easy"))
    dial = effective(resolve("easy", {"mode": "enchanted_sundial"}))
    assert dial["time_limit_tokens"] == 5 and dial["fall_damage"]
    assert {k: v for k, v in dial.items() if k != "time_limit_tokens"} == {
        k: v for k, v in std.items() if k != "time_limit_tokens"
    }


def test_combined_modes_keep_each_variants_changes():
    # TR-438 (open; our reading): variants played together each keep their own changes
    std = effective(resolve("hard"))
    both = effective(resolve("hard", {"mode": "lucky_horseshoe+enchanted_sundial"}))
    assert both["time_limit_tokens"] == 5 and not both["fall_damage"]
    assert {k: v for k, v in both.items() if k not in ("time_limit_tokens", "fall_damage")} == {
        k: v for k, v in std.items() if k not in ("time_limit_tokens", "fall_damage")
    }
    journey = effective(resolve("hard", {"mode": "journey"}))
    assert effective(resolve("hard", {"mode": "journey+lucky_horseshoe"})) == journey
    dial_journey = effective(
        resolve("hard", {"mode": "journey+enchanted_sundial", "time_limit_tokens": 6})
    )
    assert dial_journey == {**journey, "time_limit_tokens": 6}


def test_journey_with_the_sundial_needs_a_token_count():
    # their printed counts (9 and 5) conflict: refused unless the count is given (TR-438)
    with pytest.raises(SimlibInputError, match="conflicting token counts .* time_limit_tokens"):
        resolve("easy", {"mode": "journey+enchanted_sundial"})
    with pytest.raises(SimlibInputError, match="setting 'mode'"):
        resolve("easy", {"mode": "enchanted_sundial+journey"})  # one name per combination


def test_explicit_counts_override_the_mode():
    eff = effective(
        resolve(
            "medium",
            {
                "mode": "enchanted_sundial",
                "time_limit_tokens": 6,
                "tombstones_per_player": 1,
                "players": 3,
            },
        )
    )
    assert eff["time_limit_tokens"] == 6 and eff["tombstones"] == 3


@pytest.mark.parametrize(
    "overrides, words",
    [
        ({"players": 5}, "setting 'players'"),  # TR-027: 1 to 4
        ({"players": 0}, "setting 'players'"),
        ({"mode": "creative"}, "setting 'mode'"),
        ({"time_limit_tokens": 10}, "setting 'time_limit_tokens'"),  # TR-007: a supply of 9
        ({"tombstones_per_player": -1}, "setting 'tombstones_per_player'"),
        ({"mode": "journey", "tombstones_per_player": 2}, "journey mode uses no tombstone"),
        ({"players": 4, "tombstones_per_player": 3}, "the game has 8"),  # TR-022: 8 tombstones
        ({"evil_biome": "hallow"}, "setting 'evil_biome'"),
        ({"colour": "red"}, "'colour' is not a setting"),
        ({"data": "/nonexistent/world.toml"}, "does not exist"),
    ],
)
def test_bad_settings_give_one_clear_line(overrides, words):
    with pytest.raises(SimlibInputError) as err:
        resolve("medium", overrides)
    msg = str(err.value)
    assert words in msg and "\n" not in msg


def test_bad_preset():
    with pytest.raises(SimlibInputError, match="preset 'nightmare' is not a preset"):
        resolve("nightmare")


def test_settings_are_documented():
    names = {s.name for s in ts.SETTINGS}
    assert {
        "chains_needed",
        "mode",
        "players",
        "time_limit_tokens",
        "tombstones_per_player",
        "data",
    } <= names
    assert ts.BASE_MODES == ("journey", "lucky_horseshoe", "enchanted_sundial")
    assert ts.MODES[:3] == ("standard", "journey", "lucky_horseshoe") and len(ts.MODES) == 8
    assert "lucky_horseshoe+enchanted_sundial" in ts.MODES
    assert set(ts.PRESETS) == {"easy", "medium", "hard"}
