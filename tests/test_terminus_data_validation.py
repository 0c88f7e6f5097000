"""Terminus data files: every value that cannot work is one line naming file, key, range."""

from __future__ import annotations

import pytest
from datafile_helpers import assert_refused_in_one_line

from simlib.cli import main
from simlib.errors import SimlibInputError
from simlib.games.terminus import GAME
from simlib.games.terminus.compile import (
    BOUNTY_MAX,
    COST_MAX,
    DRAW_MOD_MAX,
    MAX_DECK,
    THREAT_MAX,
    TOUGH_MAX,
    load_data,
)

DATA = load_data("default")
GOBLIN = DATA["drakka"]["goblin_runner"]


def _drakka(stats, name="goblin_runner", faction="Troop", extra="") -> str:
    return f"[drakka]\n{name} = {{ faction = \"{faction}\", stats = {stats}{extra} }}\n"


CASES = [
    # (file body, fragments the message must hold)
    (_drakka("[3, 1e20, 8, 1, 0]"), ["drakka.goblin_runner.stats", f"toughness 1 to {TOUGH_MAX}"]),
    (_drakka("[3, 100000000000000000000, 8, 1, 0]"), ["drakka.goblin_runner.stats",
                                                      f"toughness 1 to {TOUGH_MAX}"]),
    (_drakka("[0, 2, 8, 1, 0]"), ["drakka.goblin_runner.stats", "speed 1 to"]),
    (_drakka(f"[3, 2, {2**31}, 1, 0]"), ["drakka.goblin_runner.stats",
                                          f"bounty 0 to {BOUNTY_MAX}"]),
    (_drakka(f"[3, 2, 8, {THREAT_MAX + 1}, 0]"), ["drakka.goblin_runner.stats", "threat"]),
    (_drakka("[3, 2, 8, 1, 2]"), ["drakka.goblin_runner.stats", "flying 0 or 1"]),
    (_drakka("[3, 2, 8, 1, true]"), ["drakka.goblin_runner.stats"]),
    (_drakka("[3, 2, 8, 1]"), ["drakka.goblin_runner.stats"]),
    (_drakka("[3, 2, 8, 1, 0]", extra=", armour = 2"),
     ["unknown key 'drakka.goblin_runner.armour'", "faction, stats"]),
    ("[drakka]\ngoblin_runner = 3\n", ["'drakka.goblin_runner' must be a table"]),
    ("[decks]\nbattle1 = { goblin_runner = 3, gobbo = 2 }\n",
     ["decks.battle1", "'gobbo' is not a drakka card", "goblin_runner"]),
    ("[decks]\nbattle6 = { goblin_runner = 3 }\n", ["unknown key 'decks.battle6'", "battle5"]),
    ("[decks.battle2]\ngoblin_runner = 0\norc_grunt = 0\nwarg_rider = 0\nharpy = 0\n",
     ["decks.battle2 has 0 cards", f"allowed 1 to {MAX_DECK}"]),
    ("[decks]\nbattle1 = { goblin_runner = 1e20 }\n", ["decks.battle1.goblin_runner",
                                                       f"0 to {MAX_DECK}"]),
    ("[decks]\nbattle1 = { goblin_runner = 40, bat_swarm = 40 }\n",
     ["decks.battle1 has", f"allowed 1 to {MAX_DECK}"]),
    ("[towers.humans.air_ground]\nlevels = [[1e20, 1, 1, 2, 0, 0]]\n",
     ["towers.humans.air_ground.levels[0]", f"cost 1 to {COST_MAX}"]),
    ("[towers.humans.air_ground]\nlevels = [[25, 1, 1, 0, 0, 0]]\n",
     ["towers.humans.air_ground.levels[0]", "rate 1 to"]),
    ("[towers.elves.heavy_ground]\nlevels = [[25, 1, 1, 1, 2, 0]]\n",
     ["towers.elves.heavy_ground.levels[0]", "poison must be 0, 1, 3 or 10"]),
    ("[towers.dwarves.holy]\nlevels = [[50, 1, 1]]\n", ["towers.dwarves.holy.levels[0]",
                                                        "[cost, blessings]"]),
    ("[towers.dwarves.holy]\ncopies = 99999999999\n", ["towers.dwarves.holy.copies",
                                                       "from 0 to"]),
    ("[towers.dwarves.holy]\nwidth = 1\n", ["unknown key 'towers.dwarves.holy.width'",
                                            "levels"]),
    ("[towers.orcs.holy]\ncopies = 1\n", ["unknown key 'towers.orcs'", "dwarves"]),
    ("[blessings]\nelves = { name = \"x\", damage_per_battle = -1, range = 1, rate = 0, "
     "poison_up = 0 }\n", ["blessings.elves.damage_per_battle", "from 0 to"]),
    ("[blessings.elves]\npoison_up = 2\n", ["blessings.elves.poison_up", "from 0 to 1"]),
    ("[blessings.elves]\nglow = 2\n", ["unknown key 'blessings.elves.glow'", "rate"]),
    ("[bosses.lich_king]\nbattle = 1\n", ["bosses.lich_king.battle", "Battle 1 already has",
                                          "one boss per Battle"]),
    ("[bosses.lich_king]\nbattle = 9\n", ["bosses.lich_king.battle", "from 1 to 5"]),
    ("[bosses.lich_king]\nspy = 1e20\n", ["bosses.lich_king.spy", f"0 to {TOUGH_MAX}"]),
    ("[bosses.lich_king]\nstats = [2, 0, 100, 2, 0]\n", ["bosses.lich_king.stats",
                                                         "toughness 1 to"]),
    ("[bosses.lich_king]\nd20 = [\"none\"]\n", ["bosses.lich_king.d20", "20 results"]),
    ("[bosses.lich_king]\nd20 = [" + ", ".join(['"fear:²"'] * 20) + "]\n",
     ["bosses.lich_king.d20", "'fear:²' is not allowed", "fear:N"]),
    ("[bosses.lich_king]\nd20 = [" + ", ".join(['"heal:99999999999999999999"'] * 20) + "]\n",
     ["bosses.lich_king.d20", "heal:N (0 to"]),
    ("[bosses.lich_king]\nd20 = [" + ", ".join(['"none:3"'] * 20) + "]\n",
     ["bosses.lich_king.d20", "'none:3' is not allowed"]),
    ("[bosses.lich_king]\nmood = 1\n", ["unknown key 'bosses.lich_king.mood'", "d20"]),
    ("[favors]\nspy = 26\n", ["favors.spy", "from 0 to 25"]),
    ("[favors]\nbribe = 2\n", ["unknown key 'favors.bribe'", "apathy"]),
    ("[classes.military]\nthresholds = [40, 30, 220]\n", ["classes.military.thresholds",
                                                          "increasing"]),
    ("[classes.military]\nthresholds = [40, 110, 1e20]\n", ["classes.military.thresholds"]),
    ("[classes.military.weights]\nkills = 100000000000\n", ["classes.military.weights.kills",
                                                            "from 0 to"]),
    ("[classes.military.weights]\nsmiles = 1\n", ["unknown key 'classes.military.weights."
                                                  "smiles'", "kills"]),
    ("[classes.military]\ncrystals = [[1, 0, 0], [0, 1, 0], [0, 0, 99]]\n",
     ["classes.military.crystals[2]", "[white, pink, red]"]),
    ("[classes.rogue]\nthresholds = [1, 2, 3]\n", ["unknown key 'classes.rogue'", "military"]),
    ("[maps.normal]\ngrid = [\"A#X\"]\n", ["maps.normal.grid row 0", "'X'"]),
    ("[maps.normal]\nlength = 3\n", ["unknown key 'maps.normal.length'", "grid"]),
    ("[maps.epic]\ngrid = [\"A#Z\"]\n", ["unknown key 'maps.epic'", "legendary"]),
    ("version = 0\n", ["version must be an integer from 1"]),
    ("[dragons]\nx = 1\n", ["unknown table 'dragons'", "drakka"]),
    ("favors = 3\n", ["'favors' must be a table"]),
]


@pytest.mark.parametrize(("body", "fragments"), CASES, ids=[c[1][0] for c in CASES])
def test_bad_value_is_one_line_naming_file_and_key(tmp_path, body, fragments):
    assert_refused_in_one_line(
        lambda path: GAME.resolve("normal", {"data": path}), tmp_path / "bad.toml", body, fragments
    )


def test_good_override_passes_and_is_used(tmp_path):
    path = tmp_path / "ok.toml"
    path.write_text(_drakka(f"[3, {TOUGH_MAX}, 8, 1, 0]"))
    values = GAME.resolve("normal", {"data": str(path)})
    cards = GAME.compile(values)[9]
    assert cards[list(DATA["drakka"]).index("goblin_runner"), 1] == TOUGH_MAX


def test_edited_file_is_read_again(tmp_path):
    """The cache keys on the content: an edit between two loads is seen."""
    path = tmp_path / "d.toml"
    path.write_text(_drakka("[3, 5, 8, 1, 0]"))
    assert load_data(str(path))["drakka"]["goblin_runner"]["stats"][1] == 5
    path.write_text(_drakka("[3, 6, 8, 1, 0]"))
    assert load_data(str(path))["drakka"]["goblin_runner"]["stats"][1] == 6
    path.write_text(_drakka("[3, 1e20, 8, 1, 0]"))
    with pytest.raises(SimlibInputError, match="drakka.goblin_runner.stats"):
        load_data(str(path))


def test_default_file_is_valid_and_versioned():
    assert DATA["version"] >= 2  # version 2: the calibrated Drakka
    assert GOBLIN["stats"][0] >= 1


@pytest.mark.parametrize("text", ["2,2,4,4,²", "2,2,4,4,٣", "1,2,3,4,99999999999999999999",
                                  f"{DRAW_MOD_MAX + 1},2,4,4,6", "2,2,4,4,-1", "2,2,4,4,+6",
                                  "2,2,4,4", "2,2,4,4,6,8", "2,2,,4,6", "2, 2, 4, 4, 6.0",
                                  "9" * 5000 + ",2,4,4,6"])
def test_draw_modifier_is_ascii_digits_in_range(text):
    with pytest.raises(SimlibInputError) as err:
        GAME.resolve("normal", {"draw_modifier": text})
    message = str(err.value)
    assert "\n" not in message and "setting 'draw_modifier'" in message
    assert f"from 0 to {DRAW_MOD_MAX}" in message


def test_draw_modifier_accepts_the_range_edges():
    for text in ("0,0,0,0,0", f"{DRAW_MOD_MAX},1,2,3,4", " 2, 2 ,4,4,6"):
        GAME.resolve("normal", {"draw_modifier": text})


def test_cli_exit_status_2(tmp_path, capsys):
    path = tmp_path / "bad.toml"
    path.write_text(_drakka("[3, 1e20, 8, 1, 0]"))
    code = main(["run", "terminus", "--set", f"data={path}", "--games", "5"])
    assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "drakka.goblin_runner.stats" in err[0] and str(path) in err[0]
