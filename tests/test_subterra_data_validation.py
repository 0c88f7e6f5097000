"""Sub Terra data files: every value that cannot work is one line naming file, key, range."""

from __future__ import annotations

import pytest
from datafile_helpers import assert_refused_in_one_line

from simlib.cli import main
from simlib.errors import SimlibInputError
from simlib.games.subterra import GAME
from simlib.games.subterra.compile import BOARD_MAX, load_data

DATA = load_data("default")


def _cavers_toml(change: dict | None = None, index: int = 0, drop: str | None = None) -> str:
    lines = []
    for i, b in enumerate(DATA["cavers"]):
        b = dict(b)
        if i == index:
            b.update(change or {})
            if drop:
                b.pop(drop)
        lines.append("[[cavers]]")
        for k, v in b.items():
            lines.append(f"{k} = {_toml(v)}")
        lines.append("")
    return "\n".join(lines)


def _toml(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return f'"{v}"' if isinstance(v, str) else str(v)


CASES = [
    # (file body, fragments the message must hold)
    (_cavers_toml({"health": 10**20}), ["cavers[0].health", f"from 1 to {BOARD_MAX}"]),
    (_cavers_toml({"rank": 2**31}), ["cavers[0].rank", f"from 0 to {BOARD_MAX}"]),
    (_cavers_toml({"ability_cost": -1}), ["cavers[0].ability_cost", "from 0"]),
    (_cavers_toml({"ability_value": True}), ["cavers[0].ability_value", "integer"]),
    (_cavers_toml({"health": 0}), ["cavers[0].health", "from 1"]),
    (_cavers_toml(drop="name"), ["cavers[0].name", "string"]),
    (_cavers_toml({"ability": "flight"}), ["cavers[0].ability", "explosives"]),
    ("cavers = [1, 2]\n", ["cavers must list", "[[cavers]]"]),
    ("tiles = 3\n", ["'tiles' must be a table"]),
    ("[tiles]\nplain = [1, 1, 0, 0, 0]\n", ["tiles.plain", "6 integers"]),
    ("[tiles]\nplain = [100000000000, 100000000000, 0, 0, 0, 0]\n", ["tiles.plain", "from 0"]),
    ("[tiles]\nlava = [1, 1, 0, 0, 0, 0]\n", ["unknown key 'tiles.lava'", "plain"]),
    ("[tiles]\nstart_shape = \"hexagon\"\n", ["tiles.start_shape", "cross"]),
    ("[deck_size]\nnormal = [0, 1, 2]\n", ["deck_size.normal", "from 1 to"]),
    ("[deck_size]\nnormal = [10, 11]\n", ["deck_size.normal", "one entry per"]),
    ("[deck_size]\nfirst_game_bonus = 1e20\n", ["deck_size.first_game_bonus"]),
    ("[deck_size]\ncavers = [4, 4, 6]\n", ["deck_size.cavers", "twice"]),
    ("[cave_in_faces]\nfaces = [[7]]\n", ["cave_in_faces.faces", "one entry per cave_in"]),
    ("[hazards]\ncards = []\n", ["hazards.cards", "list"]),
    ("[hazards]\ncards = [[\"lava\", false, \"\"]]\n", ["hazards.cards[0]", "tremor"]),
    ("[effects.plain]\ngas_damage = 99\n", ["effects.plain.gas_damage", "from 0 to 20"]),
    ("[effects.plain]\ngas = 1\n", ["unknown key 'effects.plain.gas'", "gas_damage"]),
    (_cavers_toml({"speed": 3}), ["unknown key 'cavers[0].speed'", "health"]),
    ("[team]\ndefault = [\"Nobody\"]\n", ["team.default", "Engineer"]),
    ("[colour]\nx = 1\n", ["unknown table 'colour'", "tiles"]),
]


@pytest.mark.parametrize(("body", "fragments"), CASES, ids=[c[1][0] for c in CASES])
def test_bad_value_is_one_line_naming_file_and_key(tmp_path, body, fragments):
    assert_refused_in_one_line(
        lambda path: GAME.resolve("normal", {"data": path}), tmp_path / "bad.toml", body, fragments
    )


def test_good_override_passes(tmp_path):
    path = tmp_path / "ok.toml"
    path.write_text(_cavers_toml({"health": 5}))
    values = GAME.resolve("normal", {"data": str(path)})
    assert GAME.compile(values)[5][0, 1] == 5


def test_edited_file_is_read_again(tmp_path):
    """The cache keys on the content: an edit between two loads is seen."""
    path = tmp_path / "d.toml"
    path.write_text(_cavers_toml({"health": 5}))
    assert load_data(str(path))["cavers"][0]["health"] == 5
    path.write_text(_cavers_toml({"health": 6}))
    assert load_data(str(path))["cavers"][0]["health"] == 6
    path.write_text(_cavers_toml({"health": 10**20}))
    with pytest.raises(SimlibInputError, match="health"):
        load_data(str(path))


def test_cli_exit_status_2(tmp_path, capsys):
    path = tmp_path / "bad.toml"
    path.write_text(_cavers_toml({"health": 10**20}))
    code = main(["run", "subterra", "--set", f"data={path}", "--games", "5"])
    assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "cavers[0].health" in err[0] and str(path) in err[0]
