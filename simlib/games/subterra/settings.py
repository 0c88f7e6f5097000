"""Sub Terra settings, presets and their validation."""

from __future__ import annotations

from typing import Any

from simlib.core.game import Setting
from simlib.errors import SimlibInputError
from simlib.games.subterra.compile import (
    CAVE_TILE_TYPES,
    DIFFICULTIES,
    board_names,
    dealt_deck_size,
    deck_size,
    hazard_pool,
    load_data,
)
from simlib.games.subterra.state import DECK_MAX, MAX_CAVERS

SETTINGS = (
    Setting("difficulty", str, "normal", "Normal / Advanced / Expert: which hazard cards "
            "are removed and the deck size (the presets set it)", choices=DIFFICULTIES),
    Setting("cavers", int, 4, "number of cavers (the rulebook's 4, 5 or 6; others need "
            "hazard_cards)", lo=1, hi=MAX_CAVERS),
    Setting("hazard_cards", int, None, "hazard deck size before Out of Time (default: the "
            "rulebook table for cavers x difficulty)", lo=1, hi=DECK_MAX),
    Setting("first_game_bonus", bool, False, "deal the rulebook's 3 extra hazard cards"),
    Setting("exit_depth", int, 6, "the exit goes uniformly into this many bottom stack "
            "positions (rulebook: 6)", lo=1, hi=65),
    Setting("out_of_time_rule", str, "card", "'card': as the Out of Time card reads; "
            "'rulebook': as the rule text reads (ST-141)", choices=("card", "rulebook")),
    Setting("team", str, "default", "'default' (data team order), 'random' (a random team "
            "each game) or comma-separated board names"),
    Setting("health", int, None, "override every board's starting health", lo=1, hi=10),
    Setting("ropes", int, 6, "rope tokens in the supply (rulebook: 6)", lo=0, hi=64),
    Setting("explosives", int, 3, "explosives tokens in the supply (rulebook: 3)", lo=0,
            hi=64),
    Setting("start_seat", int, -1, "seat holding the first starting-caver marker "
            "(-1 = random, ST-044)", lo=-1, hi=MAX_CAVERS - 1),
    Setting("data", str, "default", "content tables: 'default' or a TOML file overriding "
            "them (illustrative defaults, see data/default.toml)", file=True),
    Setting("horror_order", str, "starting_caver", "the order horrors move in: "
            "'starting_caver' (the rulebook: the starting caver picks it; the bots move the "
            "horror farthest from its victim first) or 'slots' (a fixed order, the horrors' "
            "supply slots)", choices=("starting_caver", "slots"), reading="ST-203"),
    Setting("check_invariants", bool, False, "check state invariants after every step "
            "(slower; for tests)"),
)

PRESETS: dict[str, dict[str, Any]] = {
    "normal": {"difficulty": "normal"},
    "advanced": {"difficulty": "advanced"},
    "expert": {"difficulty": "expert"},
}


def validate(values: dict[str, Any]) -> None:
    """Check settings against each other and against the content tables."""
    data = load_data(values["data"])
    cavers = values["cavers"]
    difficulty = values["difficulty"]
    table = deck_size(data, difficulty, cavers)
    if table is None and values["hazard_cards"] is None:
        raise SimlibInputError(
            f"setting 'cavers': {cavers} is not in the rulebook's table; allowed: "
            f"{', '.join(str(c) for c in data['deck_size']['cavers'])}, or give "
            "hazard_cards too"
        )
    names = board_names(data)
    team = values["team"]
    if team not in ("default", "random"):
        chosen = [s.strip() for s in team.split(",")]
        for name in chosen:
            if name not in names:
                raise SimlibInputError(
                    f"setting 'team': '{name}' is not a caver board; allowed: "
                    f"{', '.join(names)}"
                )
        if len(set(chosen)) != len(chosen) or len(chosen) < cavers:
            raise SimlibInputError(
                f"setting 'team': needs {cavers} distinct board names, got '{team}'"
            )
    avail = len(data["team"]["default"]) if team == "default" else len(names)
    if team != "random" and team != "default":
        avail = cavers
    if avail < cavers:
        raise SimlibInputError(
            f"setting 'cavers': {cavers} cavers but the team has only {avail} boards"
        )
    stack = sum(sum(data["tiles"][name][1:]) for name in CAVE_TILE_TYPES)
    if values["exit_depth"] > stack + 1:
        raise SimlibInputError(
            f"setting 'exit_depth': {values['exit_depth']} is beyond the tile stack "
            f"({stack} cave tiles and the exit, data '{values['data']}'); allowed: 1 to "
            f"{stack + 1}"
        )
    pool_len = len(hazard_pool(data, difficulty))
    deck = dealt_deck_size(data, values)
    assert deck is not None  # checked above
    key = "first_game_bonus" if values["hazard_cards"] is None else "hazard_cards"
    if deck > pool_len:
        raise SimlibInputError(
            f"setting '{key}': a deck of {deck} cards needs more than the {pool_len} cards "
            f"left in the {difficulty} pool; allowed: at most {pool_len}"
        )


def derived(values: dict[str, Any]) -> dict[str, Any]:
    """The values of settings left to the tables: the hazard deck size dealt."""
    if values["hazard_cards"] is not None:
        return {}
    return {"hazard_cards": dealt_deck_size(load_data(values["data"]), values)}
