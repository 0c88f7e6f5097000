"""Terralore data files: every value that cannot work is one line naming file, key, range."""

from __future__ import annotations

import pytest

from simlib.errors import SimlibInputError
from simlib.games.terralore import compile as tl_compile

DATA = tl_compile.load_data("default")
BALANCED = DATA["decks"]["balanced"]["cards"]


def _toml(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list):
        return "[" + ", ".join(_toml(x) for x in v) + "]"
    return f'"{v}"' if isinstance(v, str) else str(v)


def _cards_toml(change: dict | None = None, name: str = "Flame Hound",
                drop: str | None = None) -> str:
    lines = []
    for c in DATA["cards"]:
        c = dict(c)
        if c["name"] == name:
            c.update(change or {})
            if drop:
                c.pop(drop)
        lines.append("[[cards]]")
        lines += [f"{k} = {_toml(v)}" for k, v in c.items()]
        lines.append("")
    return "\n".join(lines)


def _deck_toml(cards, extra: str = "") -> str:
    return f"[decks]\ndefault = 'x'\n[decks.x]\ncards = {_toml(list(cards))}\n{extra}"


IDX = next(i for i, c in enumerate(DATA["cards"]) if c["name"] == "Flame Hound")
AT = f"cards[{IDX}] 'Flame Hound'"

CASES = [
    # (file body, fragments the message must hold)
    (_cards_toml({"cost": 10**20}), [f"{AT}.cost", "from 0 to 7"]),
    (_cards_toml({"cost": 2**31}), [f"{AT}.cost", "from 0 to 7"]),
    (_cards_toml({"cost": -1}), [f"{AT}.cost", "from 0 to 7"]),
    (_cards_toml({"cost": 1.5}), [f"{AT}.cost", "integer"]),
    (_cards_toml({"cost": True}), [f"{AT}.cost", "integer"]),
    (_cards_toml({"points": 2**40}), [f"{AT}.points", "from 0 to 99"]),
    (_cards_toml({"points": -3}), [f"{AT}.points", "from 0 to 99"]),
    (_cards_toml({"amount": 21}), [f"{AT}.amount", "from 0 to 20"]),
    (_cards_toml({"synergy_bonus": 10**12}), [f"{AT}.synergy_bonus", "from 0 to 20"]),
    (_cards_toml({"synergy": "max_cost", "synergy_arg": 2**31, "synergy_bonus": 1}),
     [f"{AT}.synergy_arg", "from 0 to 7"]),
    (_cards_toml({"synergy_arg": 3}), [f"{AT}.synergy_arg", "only for a synergy"]),
    (_cards_toml({"speed": 3}), [f"unknown key '{AT.split(' ')[0]}.speed'", "cost"]),
    (_cards_toml({"type": "spell"}), [f"{AT}.type", "creature"]),
    (_cards_toml({"affinity": "metal"}), [f"{AT}.affinity", "fire"]),
    (_cards_toml({"rarity": "mythic"}), [f"{AT}.rarity", "legendary"]),
    (_cards_toml({"effect": "explode"}), [f"{AT}.effect", "damage"]),
    (_cards_toml({"effect": "lm_heal"}), [f"{AT}.effect", "only for landmarks"]),
    (_cards_toml({"trigger": "attacked"}), [f"{AT}.trigger", "only for traps"]),
    (_cards_toml({"arg": "fire"}), [f"{AT}.arg", "lm_affinity_boost"]),
    (_cards_toml({"token": "Gale Token"}), [f"{AT}.token", "summon"]),
    (_cards_toml({"acts": "creature"}), [f"{AT}.acts", "only for tokens"]),
    (_cards_toml({"text": 5}), [f"cards[{IDX}].text", "allowed: text"]),
    (_cards_toml(drop="name"), [f"cards[{IDX}].name", "text"]),
    (_cards_toml({"name": "Ember Imp"}), ["names must be distinct", "Ember Imp"]),
    (_cards_toml({"effect": "summon", "amount": 1, "token": "Ember Imp"}),
     ["'Flame Hound'.token", "type token"]),
    ("cards = [1, 2]\n", ["cards[0] must be a table"]),
    ("cards = []\n", ["cards must be a list", "[[cards]]"]),
    ("[rules]\nx = 1\n", ["unknown table 'rules'", "cards, decks"]),
    (_deck_toml([]), ["decks.x.cards is empty", "exactly 20"]),
    ("[decks]\ndefault = 'x'\n[decks.x]\n", ["decks.x.cards is empty or missing"]),
    (_deck_toml(BALANCED[:19]), ["decks.x.cards lists 19", "exactly 20"]),
    (_deck_toml(BALANCED[:19] + ["Mystery Card"]),
     ["decks.x.cards", "'Mystery Card' is not a card of the pool"]),
    (_deck_toml(BALANCED[:19] + [BALANCED[0]]), ["decks.x.cards", "one copy"]),
    (_deck_toml(BALANCED[:19] + ["Gale Token"]), ["decks.x.cards", "token"]),
    (_deck_toml(BALANCED[:19] + [7]), ["decks.x.cards", "7 is not a card name"]),
    (_deck_toml(BALANCED, "size = 20\n"), ["unknown key 'decks.x.size'", "cards"]),
    (_deck_toml(BALANCED).replace("default = 'x'", "default = 'y'"),
     ["decks.default is 'y'", "x"]),
    ("[decks]\ndefault = 'x'\nx = 3\n", ["decks.x must be a table"]),
    ("decks = 3\n", ["decks must be a table"]),
]


@pytest.mark.parametrize("body,fragments", CASES, ids=[f[0] for _, f in CASES])
def test_a_bad_value_is_one_line_naming_file_key_and_allowed(tmp_path, body, fragments):
    path = tmp_path / "bad.toml"
    path.write_text(body)
    with pytest.raises(SimlibInputError) as err:
        tl_compile.load_data(str(path))
    msg = str(err.value)
    assert "\n" not in msg
    assert msg.startswith(f"data file '{path}': "), msg
    for frag in fragments:
        assert frag in msg, (frag, msg)


def test_a_bad_default_file_is_named_as_the_default(tmp_path, monkeypatch):
    bad = tmp_path / "default.toml"
    bad.write_text(_cards_toml({"cost": 99}) + _deck_toml(BALANCED))
    monkeypatch.setattr(tl_compile, "DEFAULT_DATA", bad)
    with pytest.raises(SimlibInputError, match=r"^the default data file .*cost is 99"):
        tl_compile.load_data("default")


def test_the_extremes_of_every_range_are_accepted_and_reach_the_card_table(tmp_path):
    path = tmp_path / "edge.toml"
    path.write_text(_cards_toml({"cost": 7, "points": 99}, name="Gaia Titan")
                    + _cards_toml({"amount": 20}, name="Fireball").split("[[cards]]", 1)[0])
    data = tl_compile.load_data(str(path))
    table = tl_compile.card_table(data)
    k = tl_compile.card_names(data).index("Gaia Titan")
    assert table[k, tl_compile.CFC.COST] == 7 and table[k, tl_compile.CFC.POINTS] == 99


def test_a_file_edited_between_two_loads_is_read_again(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(_cards_toml({"cost": 3}))
    first = tl_compile.load_data(str(path))
    path.write_text(_cards_toml({"cost": 4}))
    second = tl_compile.load_data(str(path))
    cost = {c["name"]: c["cost"] for c in first["cards"]}["Flame Hound"]
    assert cost == 3
    assert {c["name"]: c["cost"] for c in second["cards"]}["Flame Hound"] == 4


def test_a_designer_deck_table_replaces_the_default_decks_whole(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(_deck_toml(BALANCED))
    assert tl_compile.deck_ids(tl_compile.load_data(str(path))) == ["x"]
