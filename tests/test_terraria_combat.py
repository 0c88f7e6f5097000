"""Terraria content tables, the exact combat table and fall damage with cobwebs and modes.

Checklist ids (``shared/rules/terraria-checklist.md``) are cited beside each rule tested.
"""

import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from simlib.core.dice import duel_distribution, duel_fractions, fall_damage_probability
from simlib.errors import SimlibInputError
from simlib.games.terraria import combat
from simlib.games.terraria.combat import combat_table, fall_damage_chance, fall_table
from simlib.games.terraria.compile import CHARACTER_DICE, DATA_DIR, load_content

RULEBOOK = (
    Path(__file__).resolve().parent.parent
    / ".."
    / "shared"
    / "rules"
    / "terraria-the-board-game.txt"
)


# --- content tables ---------------------------------------------------------------------------
def _comments(name):
    """The comment text of a data file, '#' marks removed and whitespace joined."""
    text = (DATA_DIR / name).read_text(encoding="utf-8")
    parts = [line.split("#", 1)[1] for line in text.splitlines() if "#" in line]
    return " ".join(" ".join(parts).split())


def test_default_content_loads_and_is_marked_illustrative():
    # TR-004: content the rulebook does not print comes from data files saying so
    data = load_content()
    assert set(data) == {"weapons", "armor", "bestiary", "enemy_dice"}
    assert len(data["weapons"]) >= 10 and len(data["armor"]) >= 8 and len(data["bestiary"]) >= 20
    for name in ("weapons.toml", "armor.toml", "bestiary.toml"):
        head = _comments(name)[:1200]
        assert "ILLUSTRATIVE DEFAULTS" in head and "NOT the publisher's numbers" in head
    # every entry says where its values come from
    for table in ("weapons", "armor"):
        for entry in data[table].values():
            assert entry["source"] == "illustrative" or entry["source"].startswith("rulebook:")


def test_rulebook_quotes_in_the_data_are_in_the_rulebook():
    # every passage a data file quotes from the rulebook must really be there: double
    # quotes in comments, single quotes inside `source` values
    if not RULEBOOK.is_file():
        pytest.skip(f"rulebook not found at {RULEBOOK}")
    book = " ".join(RULEBOOK.read_text(encoding="utf-8").split())
    data = load_content()
    quotes = []
    for name in ("weapons.toml", "armor.toml", "bestiary.toml"):
        quotes += [q for q in re.findall(r'"([^"]+)"', _comments(name)) if len(q) >= 19]
    for table in ("weapons", "armor"):
        for entry in data[table].values():
            quotes += re.findall(r"'([^']+)'", entry.get("source", ""))
    assert len(quotes) >= 8
    for q in quotes:
        assert q in book, q
    # and the check can fail
    assert "converts 1 action point into 2 attack dice" not in book


def test_character_dice_limit_weapons_and_armor():
    # TR-012: character dice are exactly 3 D4, 3 D6, 3 D8, 3 D12; weapons (TR-273) and
    # armor (TR-284, TR-338) roll character dice, so no pool can exceed that
    assert CHARACTER_DICE == {4: 3, 6: 3, 8: 3, 12: 3}
    data = load_content()
    pools = [w["attack"] for w in data["weapons"].values()]
    pools += [a["defense"] for a in data["armor"].values()]
    for pool in pools:
        assert all(pool.count(s) <= CHARACTER_DICE.get(s, 0) for s in pool)
    # TR-284: the bare character card has a base defence of 1 die
    assert len(data["armor"]["none"]["defense"]) == 1
    # TR-258: the Copper Shortsword converts 1 action point into 1 attack die
    assert len(data["weapons"]["copper_shortsword"]["attack"]) == 1


def test_bestiary_flags_from_the_rulebook():
    data = load_content()
    # TR-075: slimes are flagged in the bestiary data; TR-390: the Voodoo Demon exists
    assert any(e["slime"] for e in data["bestiary"].values())
    assert "voodoo_demon" in data["bestiary"]
    sizes = set(data["enemy_dice"]["sizes"])
    for e in data["bestiary"].values():
        assert set(e["attack"]) <= sizes and set(e["defense"]) <= sizes


BAD = [
    (
        "[weapons.x]\nname='X'\nattack=[6,6,6,6]\nranges=['short']\nlos=true\n",
        r"weapons\.x\.attack: 4 d6, but the character dice hold only 3 d6",
    ),
    (
        "[weapons.x]\nname='X'\nattack=[10]\nranges=['short']\nlos=true\n",
        r"weapons\.x\.attack: a d10 is not allowed; die sizes: 4, 6, 8, 12",
    ),
    (
        "[weapons.x]\nname='X'\nattack=[6]\nranges=['far']\nlos=true\n",
        r"weapons\.x\.ranges must list distinct ranges from short, medium, long",
    ),
    (
        "[weapons.x]\nname='X'\nattack=[6]\nranges=['short']\nlos=true\ncolor=1\n",
        r"weapons\.x: unknown key 'color'",
    ),
    ("[armor.x]\nname='X'\n", r"armor\.x: missing key 'defense'"),
    ("[armor.x]\nname='X'\ndefense=[]\n", r"armor\.x\.defense must be a non-empty list"),
    ("[armor]\n", r"\[armor\] must hold at least one entry"),
    (
        "[bestiary.x]\nname='X'\nbiome='ocean'\nlayer='surface'\ntime='day'\nattack=[6]\n"
        "ranges=['short']\ndefense=[6]\nwounds=1\nmovement=1\nmove='walking'\ndebuff='none'\n"
        "slime=false\ncoins=1\n",
        r"bestiary\.x\.biome: 'ocean' is not allowed",
    ),
    (
        "[bestiary.x]\nname='X'\nbiome='forest'\nlayer='surface'\ntime='day'\nattack=[7]\n"
        "ranges=['short']\ndefense=[6]\nwounds=1\nmovement=1\nmove='walking'\ndebuff='none'\n"
        "slime=false\ncoins=1\n",
        r"bestiary\.x\.attack: a d7 is not allowed",
    ),
    (
        "[bestiary.x]\nname='X'\nbiome='forest'\nlayer='surface'\ntime='day'\nattack=[6]\n"
        "ranges=['short']\ndefense=[6]\nwounds=0\nmovement=1\nmove='walking'\ndebuff='none'\n"
        "slime=false\ncoins=1\n",
        r"bestiary\.x\.wounds must be from 1 to 99",
    ),
    ("[enemy_dice]\nsizes=[]\n", r"enemy_dice\.sizes must be a non-empty list"),
    ("[tiles]\nx=1\n", r"unknown table 'tiles'"),
    ("[weapons\n", r"is not valid TOML"),
]


@pytest.mark.parametrize(("text", "match"), BAD)
def test_bad_content_is_refused_with_one_line(tmp_path, text, match):
    # TR-004: the data file is validated like any other input
    f = tmp_path / "mine.toml"
    f.write_text(text, encoding="utf-8")
    with pytest.raises(SimlibInputError, match=match) as err:
        load_content(f)
    assert "\n" not in str(err.value) and "mine.toml" in str(err.value)


def test_missing_file_is_refused(tmp_path):
    with pytest.raises(SimlibInputError, match="does not exist"):
        load_content(tmp_path / "nope.toml")


def test_designer_table_replaces_the_default_whole(tmp_path):
    f = tmp_path / "mine.toml"
    f.write_text("[armor.plate]\nname='Plate'\ndefense=[12, 12]\n", encoding="utf-8")
    data = load_content(f)
    assert list(data["armor"]) == ["plate"]
    assert data["weapons"] == load_content()["weapons"]  # untouched tables keep defaults
    data["armor"]["plate"]["defense"].append(4)  # a fresh copy: the cache is not changed
    assert load_content(f)["armor"]["plate"]["defense"] == [12, 12]


# --- the combat table -------------------------------------------------------------------------
@pytest.fixture(scope="module")
def table():
    return combat_table()


def test_table_shape_and_rows(table):
    data = load_content()
    nw, na, ne = len(data["weapons"]), len(data["armor"]), len(data["bestiary"])
    assert len(table) == nw * na * ne
    assert not table.duplicated(["weapon", "armor", "enemy"]).any()
    dealt = table.filter(regex=r"^dealt_\d+$").to_numpy()
    taken = table.filter(regex=r"^taken_\d+$").to_numpy()
    np.testing.assert_allclose(dealt.sum(axis=1), 1, atol=1e-12)
    np.testing.assert_allclose(taken.sum(axis=1), 1, atol=1e-12)
    assert dealt.shape[1] == max(len(w["attack"]) for w in data["weapons"].values()) + 1
    assert taken.shape[1] == max(len(e["attack"]) for e in data["bestiary"].values()) + 1


def test_copper_shortsword_against_green_slime_by_hand(table):
    # TR-278/TR-279: a d4 against a d4 wounds on 10 of 16 rolls (ties to the attacker);
    # TR-281: one wound defeats a 1-wound enemy. TR-341: a d4 slime attack against the
    # bare d4 defence costs 1 health on 10 of 16 rolls (ties favour the enemy).
    row = table[
        (table.weapon == "copper_shortsword")
        & (table.armor == "none")
        & (table.enemy == "green_slime")
    ].iloc[0]
    assert row["dealt_1"] == pytest.approx(10 / 16, abs=1e-15)
    assert row["p_defeat"] == pytest.approx(10 / 16, abs=1e-15)
    assert row["taken_1"] == pytest.approx(10 / 16, abs=1e-15)
    assert row["dealt_2"] == 0 and row["taken_2"] == 0


def test_every_row_matches_the_exact_duels(table):
    # TR-273/TR-274 (weapon dice vs the enemy's defence dice), TR-337/TR-338 (enemy attack
    # dice vs the armor's defence dice): each row is the exact duel, as fractions
    data = load_content()
    for _, row in table.sample(60, random_state=1).iterrows():
        w = data["weapons"][row.weapon]
        a = data["armor"][row.armor]
        e = data["bestiary"][row.enemy]
        dealt = duel_fractions(w["attack"], e["defense"])
        taken = duel_fractions(e["attack"], a["defense"])
        for k, p in enumerate(dealt):
            assert row[f"dealt_{k}"] == pytest.approx(float(p), abs=1e-14)
        for k, p in enumerate(taken):
            assert row[f"taken_{k}"] == pytest.approx(float(p), abs=1e-14)
        # TR-281/TR-283: defeated when the wounds reach the wound value; extra is wasted
        want = sum((p for k, p in enumerate(dealt) if k >= e["wounds"]), Fraction(0))
        assert row.p_defeat == pytest.approx(float(want), abs=1e-14)
        assert row.expected_dealt == pytest.approx(float(sum(k * p for k, p in enumerate(dealt))))


def test_bonus_icons_enter_the_table():
    # TR-276/TR-277 attack icons on one attack die; TR-285/TR-286 defence icons on one die
    t = combat_table(
        attack_bonus=2,
        defense_bonus=1,
        weapons=["iron_broadsword"],
        armor=["iron"],
        enemies=["zombie"],
    )
    assert len(t) == 1
    np.testing.assert_allclose(
        t.filter(regex="^dealt_").to_numpy()[0], duel_distribution([6, 4], [6], 2, 0), atol=1e-15
    )
    np.testing.assert_allclose(
        t.filter(regex="^taken_").to_numpy()[0], duel_distribution([6], [6, 6], 0, 1), atol=1e-15
    )
    base = combat_table(weapons=["iron_broadsword"], armor=["iron"], enemies=["zombie"])
    assert t.expected_dealt[0] > base.expected_dealt[0]
    assert t.expected_taken[0] < base.expected_taken[0]


def test_dealt_does_not_depend_on_armor(table):
    cols = [c for c in table.columns if c.startswith("dealt_")]
    spread = table.groupby(["weapon", "enemy"], observed=True)[cols].agg(lambda s: np.ptp(s))
    assert (spread.to_numpy() == 0).all()


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"weapons": ["excalibur"]}, "weapon 'excalibur' is not in the data"),
        ({"armor": []}, "armor list is empty"),
        ({"attack_bonus": -1}, "attack_bonus must be a whole number"),
    ],
)
def test_table_bad_input(kwargs, match):
    with pytest.raises(SimlibInputError, match=match):
        combat_table(**kwargs)


# --- fall damage: cobwebs and modes -----------------------------------------------------------
def test_fall_damage_rules():
    # TR-127: 1 square or less never hurts; TR-128/TR-129: total <= squares loses 1 health
    assert fall_damage_chance([6], 1) == 0.0
    assert fall_damage_chance([6], 3) == 0.5
    assert fall_damage_chance([6, 6], 4) == pytest.approx(6 / 36)
    # TR-130: a fall ending in a cobweb never hurts, however far
    assert fall_damage_chance([6], 12, cobweb=True) == 0.0
    # TR-435 Journey and TR-436 Lucky Horseshoe ignore fall damage
    assert fall_damage_chance([6], 6, mode="journey") == 0.0
    assert fall_damage_chance([6], 6, mode="lucky_horseshoe") == 0.0
    # TR-437: the Enchanted Sundial changes only the time-limit tokens
    for sq in range(0, 14):
        assert (
            fall_damage_chance([4, 6], sq, mode="enchanted_sundial")
            == fall_damage_chance([4, 6], sq)
            == fall_damage_probability([4, 6], sq)
        )


def test_fall_table_uses_the_worn_armor():
    # TR-215/TR-128: the worn armor's defence dice (else the character card's) are rolled
    data = load_content()
    t = fall_table(squares=[2, 5, 9])
    assert list(t.index) == list(data["armor"])
    for aid, a in data["armor"].items():
        for sq in (2, 5, 9):
            assert t.loc[aid, sq] == fall_damage_probability(a["defense"], sq)
    assert (fall_table(mode="lucky_horseshoe").to_numpy() == 0).all()  # TR-436
    # more dice -> a larger total -> never more fall damage than the bare character card
    assert (t.loc["iron"] <= t.loc["none"]).all()


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"mode": "hardcore"}, "mode must be one of standard, journey"),
        ({"cobweb": "yes"}, "cobweb must be true or false"),
        ({"squares": -2}, "squares must be a whole number >= 0"),
    ],
)
def test_fall_bad_input(kwargs, match):
    args = {"defense": [6], "squares": 3, **kwargs}
    with pytest.raises(SimlibInputError, match=match):
        fall_damage_chance(**args)


# --- command line ------------------------------------------------------------------------------
def test_cli_writes_the_table(tmp_path, capsys):
    out = tmp_path / "combat.csv"
    assert combat.main(["--out", str(out), "--attack-bonus", "1"]) == 0
    df = pd.read_csv(out)
    pd.testing.assert_series_equal(
        df["expected_dealt"], combat_table(attack_bonus=1)["expected_dealt"], check_names=False
    )
    assert "wrote" in capsys.readouterr().out


def test_cli_summary_and_bad_input(tmp_path, capsys):
    assert combat.main([]) == 0
    assert "chance that one attack defeats the enemy" in capsys.readouterr().out
    assert combat.main(["--defense-bonus", "-1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "defense_bonus must be a whole number" in err
    assert combat.main(["--out", str(tmp_path / "x.txt")]) == 2
    assert combat.main(["--data", str(tmp_path / "missing.toml")]) == 2
