"""Terraria's exact tables as experiment tables: the specs of ``combat`` and ``fall``.

The specs are tested directly (``combat.table_specs()``), not through the game registry:
the Terraria ``Game`` class exposes them with ``tables()``. ``experiments/terraria_combat.toml``
is run against a stand-in game holding the same specs.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pandas as pd
import pytest

from simlib.core.game import Game, TableSpec
from simlib.errors import SimlibInputError
from simlib.experiment import TableExperiment, experiment_from_dict, run_experiment
from simlib.games import registry
from simlib.games.terraria import combat
from simlib.games.terraria.combat import combat_table, fall_table, table_specs
from simlib.games.terraria.compile import load_content

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

EXPERIMENT = Path(__file__).resolve().parent.parent / "experiments" / "terraria_combat.toml"
COMBAT_OPTIONS = ["data", "attack_bonus", "defense_bonus", "weapons", "armor", "enemies"]


def test_table_specs_declare_combat_and_fall():
    specs = table_specs()
    assert list(specs) == ["combat", "fall"]
    assert all(isinstance(s, TableSpec) and s.description for s in specs.values())
    assert [o.name for o in specs["combat"].options] == COMBAT_OPTIONS
    assert [o.name for o in specs["fall"].options] == ["data", "squares", "mode"]
    assert specs["combat"].resolve() == dict.fromkeys(COMBAT_OPTIONS) | {
        "attack_bonus": 0,
        "defense_bonus": 0,
    }
    assert specs["fall"].resolve() == {
        "data": None,
        "squares": list(range(2, 13)),
        "mode": "standard",
    }


def test_combat_spec_is_the_combat_table():
    # TR-273..TR-279 / TR-337..TR-341 are checked on combat_table itself
    # (test_terraria_combat.py); the spec must hand every option through unchanged
    spec = combat.combat_table_spec()
    pd.testing.assert_frame_equal(spec.compute(spec.resolve()), combat_table())
    chosen = {
        "attack_bonus": 2,  # TR-277: attack icons on one attack die
        "defense_bonus": 1,  # TR-286: defence icons on one defence die
        "weapons": ["wooden_bow", "copper_shortsword"],
        "armor": ["iron"],
        "enemies": ["zombie", "green_slime", "cave_bat"],
    }
    got = spec.compute(spec.resolve(chosen))
    pd.testing.assert_frame_equal(got, combat_table(None, **chosen))
    assert len(got) == 2 * 1 * 3
    assert list(got["weapon"].drop_duplicates()) == ["wooden_bow", "copper_shortsword"]
    # the bonuses really reach the table: one more icon never lowers the expected wounds
    plain = spec.compute(spec.resolve({k: v for k, v in chosen.items() if "bonus" not in k}))
    assert (got["expected_dealt"] >= plain["expected_dealt"]).all()
    assert (got["expected_dealt"] > plain["expected_dealt"]).any()
    assert (got["expected_taken"] < plain["expected_taken"]).any()


def test_fall_spec_is_the_fall_table():
    spec = combat.fall_table_spec()
    got = spec.compute(spec.resolve({"squares": [3, 7], "mode": "enchanted_sundial"}))
    want = fall_table(squares=[3, 7], mode="enchanted_sundial")
    assert list(got.columns) == ["armor", "fall_3", "fall_7"]
    assert list(got["armor"]) == list(want.index)
    pd.testing.assert_frame_equal(
        got[["fall_3", "fall_7"]], want.reset_index(drop=True).set_axis(["fall_3", "fall_7"],
                                                                        axis=1)
    )
    # TR-435: Journey ignores fall damage
    journey = spec.compute(spec.resolve({"mode": "journey"}))
    assert (journey.drop(columns="armor").to_numpy() == 0).all()


def test_designer_data_file_option(tmp_path):
    mine = tmp_path / "mine.toml"
    mine.write_text("[armor.plate]\nname='Plate'\ndefense=[12, 12]\n", encoding="utf-8")
    spec = combat.combat_table_spec()
    got = spec.compute(spec.resolve({"data": str(mine), "weapons": ["copper_shortsword"]}))
    assert set(got["armor"]) == {"plate"}
    pd.testing.assert_frame_equal(got, combat_table(mine, weapons=["copper_shortsword"]))
    fall = combat.fall_table_spec()
    assert list(fall.compute(fall.resolve({"data": str(mine)}))["armor"]) == ["plate"]


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"weapons": ["laser"]}, r"option 'weapons': weapon 'laser' is not in the data; "
                                 r"allowed: copper_shortsword"),
        ({"armor": ["tin"]}, r"option 'armor': armor 'tin' is not in the data"),
        ({"enemies": ["dragon"]}, r"option 'enemies': enemy 'dragon' is not in the data"),
        ({"weapons": []}, r"option 'weapons'.*a non-empty list of names"),
        ({"weapons": ["wooden_bow", "wooden_bow"]}, r"option 'weapons'.*listed twice"),
        ({"attack_bonus": -1}, r"option 'attack_bonus': -1 is not allowed; expected an "
                               r"integer from 0 to 1000"),
        ({"defense_bonus": 1.5}, r"option 'defense_bonus'"),
        ({"data": "no/such/file.toml"}, r"option 'data': .*no/such/file\.toml"),
        ({"mode": "standard"}, r"option 'mode' is not an option of this table; allowed: data, "
                               r"attack_bonus"),
    ],
)
def test_combat_spec_bad_options(options, match):
    with pytest.raises(SimlibInputError, match=match):
        combat.combat_table_spec().resolve(options)


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"mode": "hardcore"}, r"option 'mode'.*one of standard, journey"),
        ({"squares": [2, -1]}, r"option 'squares': item -1"),
        ({"squares": 4}, r"option 'squares'"),
    ],
)
def test_fall_spec_bad_options(options, match):
    with pytest.raises(SimlibInputError, match=match):
        combat.fall_table_spec().resolve(options)


class StandIn(Game):
    """Only what a table experiment reads of the Terraria game: its name and tables."""

    name = "terraria"
    title = "Terraria: The Board Game"

    def tables(self):
        return table_specs()


def _experiment_file(out: Path) -> dict:
    data = tomllib.loads(EXPERIMENT.read_text(encoding="utf-8"))
    assert data["out"] == "../results/terraria_combat"  # read from the file's own folder
    return {**data, "out": str(out)}


def test_terraria_combat_experiment_file(tmp_path, monkeypatch):
    monkeypatch.setitem(registry._LOADED, "terraria", StandIn())
    data = _experiment_file(tmp_path / "combat")
    exp = experiment_from_dict(data, path=EXPERIMENT)
    assert isinstance(exp, TableExperiment) and exp.table == "combat"
    df = run_experiment(exp)
    pd.testing.assert_frame_equal(df, combat_table())
    assert len(df) == len(load_content()["weapons"]) * len(load_content()["armor"]) * len(
        load_content()["bestiary"]
    )
    record = json.loads((tmp_path / "combat" / "experiment.json").read_text())
    assert record["command"] == f"simlib experiment {EXPERIMENT}"
    assert record["experiment"]["options"]["attack_bonus"] == 0
    page = (tmp_path / "combat" / "report.html").read_text()
    assert "Terraria: combat table (exact wound chances)" in page and "p_defeat" in page


def test_terraria_combat_experiment_file_with_the_registered_game(tmp_path):
    # Once the Terraria Game is registered and exposes the tables, the file runs as it is.
    try:
        game = registry.get_game("terraria")
    except SimlibInputError:
        pytest.skip("Terraria is not in the game registry yet")
    if "combat" not in game.tables():
        pytest.skip("the Terraria Game does not expose its tables yet (tables())")
    exp = experiment_from_dict(_experiment_file(tmp_path / "combat"), path=EXPERIMENT)
    pd.testing.assert_frame_equal(run_experiment(exp), combat_table())
