"""Terralore content tables (TOML) and resolved settings -> the arrays the kernel reads."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from simlib.core.datafile import load_tables
from simlib.errors import SimlibInputError
from simlib.games.terralore import engine
from simlib.games.terralore.state import (
    AFFINITY_NAMES,
    CFC,
    CTYPE,
    DECK,
    EFFECT,
    EFFECT_NAMES,
    MAX_CARDS,
    RARITY_NAMES,
    SYNERGY,
    SYNERGY_NAMES,
    TRIGGER_NAMES,
    TYPE_NAMES,
)

DATA_DIR = Path(__file__).parent / "data"
DEFAULT_DATA = DATA_DIR / "default.toml"
CARD_KEYS = ("name", "type", "acts", "cost", "points", "affinity", "rarity", "effect",
             "amount", "token", "arg", "trigger", "synergy", "synergy_arg", "synergy_bonus",
             "text")
LANDMARK_EFFECTS = ("lm_lane_boost", "lm_affinity_boost", "lm_heal", "lm_damage")
TOKEN_EFFECTS = ("summon", "give_token")




RANGES = {"cost": (0, 7), "points": (0, 99), "amount": (0, 20), "synergy_bonus": (0, 20)}
TEXT_KEYS = ("name", "token", "text")


def load_data(path: str | None = "default") -> dict[str, Any]:
    """Return the validated card pool and decks.

    The defaults, with the ``cards`` and/or ``decks`` tables of ``path`` (if given) replacing
    theirs whole. Cached by the files' contents (:func:`simlib.core.datafile.load_tables`),
    so a file edited between two runs is read again.

    Raises a one-line ``SimlibInputError`` naming the file, the card or deck, the key and
    what is allowed on any bad entry.
    """
    return load_tables(DEFAULT_DATA, path, _validate, replace=("cards", "decks"))


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _validate(data: dict[str, Any], where: str) -> None:
    def need(cond: bool, msg: str) -> None:
        if not cond:
            raise SimlibInputError(f"{where}: {msg}")

    def choice(card: dict, key: str, names: tuple, at: str, default: Any = None) -> None:
        value = card.get(key, default)
        need(isinstance(value, str) and value in names,
             f"{at}.{key} is {value!r}; allowed: {', '.join(names)}")

    for key in data:
        need(key in ("cards", "decks"), f"unknown table '{key}'; allowed: cards, decks")
    cards = data.get("cards")
    need(isinstance(cards, list) and 1 <= len(cards) <= MAX_CARDS,
         f"cards must be a list of 1 to {MAX_CARDS} [[cards]] tables")
    assert isinstance(cards, list)  # checked just above
    names = []
    for idx, card in enumerate(cards):
        at = f"cards[{idx}]"
        need(isinstance(card, dict), f"{at} must be a table ([[cards]])")
        for key in card:
            need(key in CARD_KEYS, f"unknown key '{at}.{key}'; allowed: {', '.join(CARD_KEYS)}")
        for key in TEXT_KEYS:
            if key in card:
                need(isinstance(card[key], str), f"{at}.{key} is {card[key]!r}; allowed: text")
        need(isinstance(card.get("name"), str) and card["name"].strip() != "",
             f"{at}.name must be text (the card's name)")
        at = f"cards[{idx}] '{card['name']}'"
        names.append(card["name"])
        choice(card, "type", TYPE_NAMES, at)
        choice(card, "affinity", AFFINITY_NAMES, at)
        choice(card, "rarity", RARITY_NAMES, at)
        choice(card, "effect", EFFECT_NAMES, at, "none")
        for key, (lo, hi) in RANGES.items():
            v = card.get(key, 0)
            need(_is_int(v) and lo <= v <= hi,
                 f"{at}.{key} is {v!r}; allowed: an integer from {lo} to {hi}")
        ty = card["type"]
        eff = card.get("effect", "none")
        if ty == "token":
            choice(card, "acts", ("creature", "skill"), at)
        else:
            need("acts" not in card, f"{at}.acts is only for tokens")
        if ty == "landmark":
            need(eff in LANDMARK_EFFECTS + ("none",),
                 f"{at}.effect is {eff!r}; allowed for a landmark: "
                 f"{', '.join(LANDMARK_EFFECTS + ('none',))}")
        else:
            need(eff not in LANDMARK_EFFECTS, f"{at}.effect '{eff}' is only for landmarks")
        if ty == "trap":
            choice(card, "trigger", TRIGGER_NAMES[1:], at)
        else:
            need("trigger" not in card, f"{at}.trigger is only for traps")
        if eff == "lm_affinity_boost":
            choice(card, "arg", AFFINITY_NAMES, at)
        else:
            need("arg" not in card, f"{at}.arg is only for effect lm_affinity_boost")
        if eff not in TOKEN_EFFECTS:
            need("token" not in card, f"{at}.token is only for effects {', '.join(TOKEN_EFFECTS)}")
        syn = card.get("synergy", "none")
        choice(card, "synergy", SYNERGY_NAMES, at, "none")
        if syn == "affinity":
            choice(card, "synergy_arg", AFFINITY_NAMES, at)
        elif syn == "max_rarity":
            choice(card, "synergy_arg", RARITY_NAMES, at)
        elif syn == "max_cost":
            v = card.get("synergy_arg")
            lo, hi = RANGES["cost"]
            need(_is_int(v) and lo <= v <= hi,
                 f"{at}.synergy_arg is {v!r}; allowed: an integer from {lo} to {hi}")
        else:
            need("synergy_arg" not in card, f"{at}.synergy_arg is only for a synergy")
    dup = sorted({n for n in names if names.count(n) > 1})
    need(not dup, f"cards: names must be distinct; given twice: {', '.join(dup)}")
    by_name = {c["name"]: c for c in cards}
    for card in cards:
        eff = card.get("effect", "none")
        if eff in TOKEN_EFFECTS:
            tok = by_name.get(card.get("token"))
            need(tok is not None and tok["type"] == "token",
                 f"cards '{card['name']}'.token is {card.get('token')!r}; allowed: the name "
                 "of a card of type token")
            assert tok is not None  # checked just above
            if eff == "summon":
                need(tok.get("acts") == "creature",
                     f"cards '{card['name']}'.token: summon needs a token with acts = creature")
    decks = data.get("decks")
    need(isinstance(decks, dict), "decks must be a table of [decks.<id>] tables")
    assert isinstance(decks, dict)  # checked just above
    for d, v in decks.items():
        if d != "default":
            need(isinstance(v, dict), f"decks.{d} must be a table ([decks.{d}]) with cards = [...]")
            for key in v:
                need(key == "cards", f"unknown key 'decks.{d}.{key}'; allowed: cards")
    ids = deck_ids(data)
    need(len(ids) >= 1, "decks needs at least one [decks.<id>] table")
    need(decks.get("default") in ids,
         f"decks.default is {decks.get('default')!r}; allowed: one of the decks: {', '.join(ids)}")
    for d in ids:
        lst = decks[d].get("cards")
        need(isinstance(lst, list) and len(lst) > 0,
             f"decks.{d}.cards is empty or missing; allowed: a list of exactly {DECK} card names "
             "(TL-003)")
        assert isinstance(lst, list)  # checked just above
        need(len(lst) == DECK,
             f"decks.{d}.cards lists {len(lst)} cards; allowed: exactly {DECK} (TL-003)")
        for n in lst:
            need(isinstance(n, str), f"decks.{d}.cards: {n!r} is not a card name (text)")
        need(len(set(lst)) == DECK, f"decks.{d}.cards: a deck holds one copy of each card (TL-004)")
        for n in lst:
            need(n in by_name, f"decks.{d}.cards: '{n}' is not a card of the pool; allowed: the "
                 "names of the [[cards]] tables")
            need(by_name[n]["type"] != "token",
                 f"decks.{d}.cards: '{n}' is a token; tokens are not deck cards (TL-086)")


def deck_ids(data: dict[str, Any]) -> list[str]:
    """Ids of the ready-made decks, in file order (their codes in the results)."""
    return [k for k, v in data["decks"].items() if k != "default" and isinstance(v, dict)]


def card_names(data: dict[str, Any]) -> list[str]:
    """Card names in pool order (card id = position; bit of the played masks)."""
    return [c["name"] for c in data["cards"]]


def card_table(data: dict[str, Any]) -> np.ndarray:
    """The pool as int32 (n_cards, CF.N) in the layout of ``state.CF``."""
    cards = data["cards"]
    ids = {c["name"]: k for k, c in enumerate(cards)}
    out = np.zeros((len(cards), CFC.N), dtype=np.int32)
    for k, c in enumerate(cards):
        ty = TYPE_NAMES.index(c["type"])
        out[k, CFC.TYPE] = ty
        out[k, CFC.ACTS] = TYPE_NAMES.index(c["acts"]) if ty == CTYPE.TOKEN else ty
        out[k, CFC.COST] = c.get("cost", 0)
        out[k, CFC.POINTS] = c.get("points", 0)
        out[k, CFC.AFF] = AFFINITY_NAMES.index(c["affinity"])
        out[k, CFC.RARITY] = RARITY_NAMES.index(c["rarity"])
        out[k, CFC.EFFECT] = EFFECT_NAMES.index(c.get("effect", "none"))
        out[k, CFC.AMOUNT] = c.get("amount", 0)
        out[k, CFC.TOKEN] = ids[c["token"]] if "token" in c else -1
        out[k, CFC.ARG] = AFFINITY_NAMES.index(c["arg"]) if "arg" in c else -1
        out[k, CFC.TRIGGER] = TRIGGER_NAMES.index(c.get("trigger", "none"))
        syn = SYNERGY_NAMES.index(c.get("synergy", "none"))
        out[k, CFC.SYN_KIND] = syn
        arg = c.get("synergy_arg", 0)
        if syn == SYNERGY.AFFINITY:
            arg = AFFINITY_NAMES.index(arg)
        elif syn == SYNERGY.MAX_RARITY:
            arg = RARITY_NAMES.index(arg)
        out[k, CFC.SYN_ARG] = arg
        out[k, CFC.SYN_BONUS] = c.get("synergy_bonus", 0)
    return out


def synergy_holds(cards: np.ndarray, deck: np.ndarray, c: int) -> bool:
    """Whether card ``c``'s synergy requirement holds for the full deck list ``deck``.

    (TL-083: every card of the deck; TL-084: the 20-card list, not the cards left).
    """
    kind = cards[c, CFC.SYN_KIND]
    arg = cards[c, CFC.SYN_ARG]
    if kind == SYNERGY.NONE:
        return False
    if kind == SYNERGY.AFFINITY:
        return bool(np.all(cards[deck, CFC.AFF] == arg))
    if kind == SYNERGY.MAX_COST:
        return bool(np.all(cards[deck, CFC.COST] <= arg))
    if kind == SYNERGY.MAX_RARITY:
        return bool(np.all(cards[deck, CFC.RARITY] <= arg))
    return False


def deck_arrays(cards: np.ndarray, deck: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Points and effect amounts of each deck position with synergies applied."""
    pts = cards[deck, CFC.POINTS].astype(np.int32)
    amt = cards[deck, CFC.AMOUNT].astype(np.int32)
    for j, c in enumerate(deck):
        if synergy_holds(cards, deck, int(c)):
            if cards[c, CFC.ACTS] == CTYPE.CREATURE:
                pts[j] += cards[c, CFC.SYN_BONUS]
            elif cards[c, CFC.EFFECT] != EFFECT.NONE:
                amt[j] += cards[c, CFC.SYN_BONUS]
    return pts, amt


def deck_list(data: dict[str, Any], deck_id: str) -> np.ndarray:
    """Card ids of deck ``deck_id`` (int32, 20)."""
    ids = {c["name"]: k for k, c in enumerate(data["cards"])}
    return np.array([ids[n] for n in data["decks"][deck_id]["cards"]], dtype=np.int32)


def resolve_deck(data: dict[str, Any], value: str) -> str:
    """The deck id a ``deck0`` / ``deck1`` setting value stands for ("default" allowed)."""
    return data["decks"]["default"] if value in ("default", "") else value


def compile_settings(values: dict[str, Any]) -> tuple:
    """Resolved settings -> ``params`` tuple of arrays (layout in ``engine.py``)."""
    data = load_data(values["data"])
    cards = card_table(data)
    ids = deck_ids(data)
    decks = np.zeros((2, DECK), dtype=np.int32)
    dpts = np.zeros((2, DECK), dtype=np.int32)
    damt = np.zeros((2, DECK), dtype=np.int32)
    cfg = np.zeros(engine.CFG_N, dtype=np.int64)
    for s, key in enumerate(("deck0", "deck1")):
        d = resolve_deck(data, values[key])
        decks[s] = deck_list(data, d)
        dpts[s], damt[s] = deck_arrays(cards, decks[s])
        cfg[engine.CFG_DECK0 + s] = ids.index(d)
    cfg[engine.CFG_CASTLE_HP] = values["castle_hp"]
    cfg[engine.CFG_START_HAND] = values["start_hand"]
    cfg[engine.CFG_HAND_LIMIT] = values["hand_limit"]
    cfg[engine.CFG_DRAW] = values["draw_per_turn"]
    cfg[engine.CFG_LANE_SIZE] = values["lane_size"]
    cfg[engine.CFG_FIRST] = values["first_player"]
    cfg[engine.CFG_CHECK] = 1 if values["check_invariants"] else 0
    cfg[engine.CFG_SHORT_DRAW] = 1 if values["short_draw"] == "play_on" else 0
    cfg[engine.CFG_BOTH_FALL] = 1 if values["both_castles_fall"] == "overkill" else 0
    return (cfg, cards, decks, dpts, damt)
