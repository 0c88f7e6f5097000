"""Terminus Breach TD settings, presets and their validation."""

from __future__ import annotations

from typing import Any

from simlib.core.game import Setting
from simlib.errors import SimlibInputError
from simlib.games.terminus.compile import (
    ALLOWANCE,
    MAPS,
    PANIC_LIMIT,
    TAX,
    load_data,
    parse_draw_modifier,
)
from simlib.games.terminus.state import CLASS_NAMES, MAX_PLAYERS, RACE_NAMES

DEFAULT_RACES = ("humans", "dwarves", "elves", "treefolk")
DEFAULT_CLASSES = ("military", "spiritual", "political", "military")

SETTINGS = (
    Setting("map", str, "normal", "the map (the presets set it): Normal, Heroic or Legendary "
            "(data/default.toml, illustrative)", choices=MAPS),
    Setting("players", int, 2, "number of players (TB-001)", lo=1, hi=MAX_PLAYERS),
    *(Setting(f"race{s}", str, DEFAULT_RACES[s], f"race of seat {s}", choices=RACE_NAMES)
      for s in range(MAX_PLAYERS)),
    *(Setting(f"class{s}", str, DEFAULT_CLASSES[s], f"class of seat {s}", choices=CLASS_NAMES)
      for s in range(MAX_PLAYERS)),
    Setting("distinct_races", bool, True, "each race at most once per game (TB-041)"),
    Setting("lineup", str, "fixed", "'fixed': the race and class settings above; 'random': "
            "each game deals distinct races and random classes to the seats",
            choices=("fixed", "random")),
    Setting("draw_modifier", str, "2,2,4,4,6", "Draw modifier per Battle, five comma-separated "
            "integers (TB-079..084; alternatives 2,4,6,8,10 or 1,2,3,4,5)"),
    Setting("tax_battle5", int, TAX[4], "Tax Collector GP in Battle 5 (printed 400, TB-143)",
            lo=0, hi=10_000),
    Setting("toughness_rule", str, "reach", "'reach': damage >= Toughness kills; 'exceed': "
            "damage > Toughness (TB-030)", choices=("reach", "exceed")),
    Setting("poison_kill", str, "poisoner", "who takes a Drakka poison kills: 'poisoner' "
            "(kill and Bounty) or 'nobody' (TB-077)", choices=("poisoner", "nobody")),
    Setting("slow_ladder", str, "4321", "Slow token steps: '4321' (4 -> 3 -> 2 -> 1) or '421' "
            "(the Glossary's 1, 2, 4 tokens), TB-189", choices=("4321", "421")),
    Setting("treefolk_holy_delay", int, 2, "Waves before a Treefolk Holy tower blesses "
            "(TB-025)", lo=0, hi=15),
    Setting("human_clear_fee", int, 25, "GP a Human pays to clear terrain for a Holy tower "
            "(TB-023/026)", lo=0, hi=1000),
    Setting("sell_value", str, "cost", "a tower's current value: 'cost' of its level or the "
            "total 'paid' (TB-114)", choices=("cost", "paid")),
    Setting("clear_board", bool, False, "false (literal: 'Play continues until ... Players "
            "have survived all 5 Battles', End Game; ruling TB-212): the game ends with Battle "
            "5; true (the overview's 'clear the board'): Waves without a Draw follow until the "
            "path is clear", reading="TB-214"),
    Setting("final_vp_buy", str, "share", "VP bought with GP at the final tally: 'share' "
            "(literal: 'You can buy VPs for 100GP/VP', a choice as at every Lull, TB-203; the "
            "bots buy their vp_buy share and the GP left breaks ties, TB-221) or 'all' (all "
            "GP converted)", choices=("share", "all"), reading="TB-211"),
    Setting("crystals", str, "at_once", "when Charged Crystals are spent: 'at_once' (literal: "
            "'Can be used immediately', spent as received) or 'keep' (held until Drakka "
            "threaten to get through, then spent as the holder's Defend turn starts)",
            choices=("at_once", "keep"), reading="TB-191"),
    Setting("start_panic", int, 0, "starting Panic Level (TB-038)", lo=0, hi=99),
    Setting("panic_limit", int, PANIC_LIMIT, "Panic Level that forces the retreat (printed "
            "10, TB-213)", lo=1, hi=999),
    Setting("war_allowance", int, ALLOWANCE, "war allowance split between the players "
            "(printed 480, TB-049)", lo=0, hi=100_000),
    Setting("data", str, "default", "content tables: 'default' or a TOML file overriding them "
            "(illustrative defaults, see data/default.toml)", file=True),
    Setting("check_invariants", bool, False, "check state invariants after every phase "
            "(slower; for tests)"),
)

PRESETS: dict[str, dict[str, Any]] = {
    "normal": {"map": "normal"},
    "heroic": {"map": "heroic"},
    "legendary": {"map": "legendary"},
}


def validate(values: dict[str, Any]) -> None:
    """Check settings against each other and against the content tables."""
    load_data(values["data"])
    parse_draw_modifier(values["draw_modifier"])
    n = values["players"]
    races = [values[f"race{s}"] for s in range(n)]
    if values["lineup"] == "fixed" and values["distinct_races"] and \
            len(set(races)) != len(races):
        dup = next(r for r in races if races.count(r) > 1)
        raise SimlibInputError(
            f"setting 'race{races.index(dup, races.index(dup) + 1)}': '{dup}' is already "
            "taken by another seat; races are distinct per game (TB-041), or set "
            "distinct_races=false")
