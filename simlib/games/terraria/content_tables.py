"""Terraria content compiled for the kernels: every table of ``state.Tables`` from data.

:func:`compile_tables` reads the content data files (``data/*.toml``, all illustrative
except the numbers they quote from the rulebook), validates them, resolves every name to
an id and returns a :class:`~simlib.games.terraria.state.Tables` of int16 numpy arrays
(plus the world arrays of :func:`simlib.games.terraria.world.compile_world`).

A designer's file may hold any table of the defaults (``content.ALL_TABLES``); each table
it holds replaces the default one whole. A bad entry is refused with one line naming the
file, the table, the entry, the key and what is allowed (``SimlibInputError``).

Ids (the row of an entry in its compiled table) follow the order of the entries in their
table; :func:`table_names` lists them:

- resources: the world's ``[resources]`` (ids 1..R, ``world.toml`` order) then
  ``[loot_resources]`` (wood, gel, cobweb, lens ...); id 0 is "no resource";
- equipment: ``[weapons]`` (weapons.toml) then ``[gear]`` (gear.toml);
- armor: ``[armor]`` without ``none`` (the bare character card, kept in ``armor.toml`` for
  the combat tables: the compiled characters carry their own defence dice);
- cards, minions, characters, consumables, houses, bestiary, chests, bosses: their tables.

Tray sections are ``biome * 5 + layer`` (biomes in ``content.BIOMES`` order, layers
Surface..Underworld). A section's tokens are its day tokens then its night tokens
(``tray_night``); each pool lists the bestiary entries with their copies, then life
crystals (``TOKEN.CRYSTAL``), then fallen stars (``TOKEN.STAR``).

Readings settled here (the package docstring repeats them):

- ``EN.NIGHT`` is 0 for an entry with day tokens only, 1 for night tokens only and 2 for
  one with tokens in both pools; whether a token in the world is a night token (removed
  at sunrise, TR-083) is ``tray_night`` of the token it was drawn as.
- Debuff cards are ordinary cards of ``SHOP.DEBUFF`` whose effects are data: Poisoned
  costs 1 health when played (``CF.HURT``); On Fire! and Frozen are dead cards.
- The starting deck's Explore More is the same card as the Guide's (its ``COPIES`` are the
  Guide pile; the 4 starting decks are extra).
"""

from __future__ import annotations

import copy
import functools
from pathlib import Path
from typing import Any

import numpy as np

from simlib.core.datafile import file_stamp, read_toml
from simlib.errors import SimlibInputError
from simlib.games.terraria import content as cmod
from simlib.games.terraria import world as wmod
from simlib.games.terraria.state import (
    AR,
    BH,
    BO,
    BOSS_SPAWN,
    CC,
    CF,
    CHAINS,
    CO,
    COUNTER_NAMES,
    DEBUFF,
    DICE,
    EN,
    EQ,
    HO,
    KIND,
    MAX_CARDS,
    MAX_HOUSES,
    MAX_TOKENS,
    NPC_NAMES,
    OB,
    PARAM_COUNTERS,
    RANGE,
    REWARD_SLOTS,
    RK,
    RU,
    RW,
    SECTIONS,
    SHOP,
    SLOT,
    SPECIAL,
    STATION_NAMES,
    TOKEN,
    TT,
    Tables,
    TablesFields,
    TablesRef,
)

__all__ = ["load_tables", "compile_tables", "table_names", "REWARD_KINDS", "CHAIN_LEN"]

CHAIN_LEN = 10  # "10 Dig objective cards, 10 Fight objective cards, ..." (TR-008)
N_LAYERS = len(cmod.LAYERS)
REWARD_KINDS = {
    "none": RK.NONE,
    "coins": RK.COINS,
    "resource": RK.RESOURCE,
    "equip": RK.EQUIP,
    "armor": RK.ARMOR,
    "consumable": RK.CONSUMABLE,
    "chest_card": RK.CHEST_CARD,
    "heal": RK.HEAL,
    "maxhp": RK.MAXHP,
    "maxmana": RK.MAXMANA,
    "rope": RK.ROPE,
    "mana": RK.MANA,
}
_SHOPS = {
    "start": SHOP.START,
    "guide": SHOP.GUIDE,
    "merchant_8": SHOP.MERCHANT_8,
    "merchant_15": SHOP.MERCHANT_15,
    "chest": SHOP.CHEST,
    "debuff": SHOP.DEBUFF,
}
_DEBUFF_CODES = {
    "none": DEBUFF.NONE,
    "poisoned": DEBUFF.POISONED,
    "on_fire": DEBUFF.ON_FIRE,
    "frozen": DEBUFF.FROZEN,
}
_RANGE_BITS = {"short": RANGE.SHORT, "medium": RANGE.MEDIUM, "long": RANGE.LONG}
_MOVE_KIND = {"walking": KIND.WALKER, "flying": KIND.FLYER, "worm": KIND.WORM}
_EVIL_CODES = {"any": 0, "corruption": 1, "crimson": 2}
_SPAWNS = {
    "slimes": BOSS_SPAWN.SLIMES,
    "bee_larva": BOSS_SPAWN.BEE_LARVA,
    "lenses": BOSS_SPAWN.LENSES,
    "shadow_orb": BOSS_SPAWN.SHADOW_ORB,
    "crimson_heart": BOSS_SPAWN.CRIMSON_HEART,
    "voodoo": BOSS_SPAWN.VOODOO,
}
_SPECIALS = {
    "none": SPECIAL.NONE,
    "spawn": SPECIAL.SPAWN,
    "heal": SPECIAL.HEAL,
    "charge": SPECIAL.CHARGE,
    "burn": SPECIAL.BURN,
}
_STEPS = ("special", "move", "short", "ranged", "spawn")
_ICONS = ("ap", "def", "heal", "coin", "atk", "draw", "mana")
_ICON_COLS_A = (CF.AP, CF.DEF, CF.HEAL, CF.COIN, CF.ATK, CF.DRAW, CF.MANA)
_ICON_COLS_B = (CF.AP_B, CF.DEF_B, CF.HEAL_B, CF.COIN_B, CF.ATK_B, CF.DRAW_B, CF.MANA_B)
_RULE_KEYS = {
    "nurse_price": (RU.NURSE_PRICE, 0, 25),
    "merchant_coins": (RU.MERCHANT_COINS, 0, 25),
    "nurse_health": (RU.NURSE_HP, 1, 99),
    "slot5_price": (RU.SLOT5_PRICE, 0, 25),
    "slot6_price": (RU.SLOT6_PRICE, 0, 25),
    "king_slime": (RU.KING_SLIME, 1, 99),
    "lenses": (RU.LENSES, 1, 5),
    "dryad_die": (RU.DRYAD_DIE, 1, 1000),
    "crystal_health": (RU.CRYSTAL_HP, 0, 9),
    "star_mana": (RU.STAR_MANA, 0, 9),
    "max_health": (RU.MAX_HP, 1, 99),
    "max_mana": (RU.MAX_MANA, 0, 99),
}
# resource names the rules need by id
_RULE_RESOURCES = {"lens": RU.LENS, "wood": RU.WOOD, "cobweb": RU.COBWEB, "gel": RU.GEL}


# --- small validators --------------------------------------------------------------------------
def _fail(msg: str) -> None:
    raise SimlibInputError(msg)


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _int(where: str, v: Any, lo: int, hi: int) -> int:
    if not _is_int(v) or not lo <= v <= hi:
        _fail(f"{where} must be an integer from {lo} to {hi}, got {v!r}")
    return int(v)


def _bool(where: str, v: Any) -> bool:
    if not isinstance(v, bool):
        _fail(f"{where} must be true or false, got {v!r}")
    return bool(v)


def _str(where: str, v: Any) -> str:
    if not isinstance(v, str) or not v:
        _fail(f"{where} must be a non-empty string, got {v!r}")
    return str(v)


def _choice(where: str, v: Any, choices: Any) -> Any:
    if not isinstance(v, str) or v not in choices:
        _fail(f"{where}: {v!r} is not allowed; one of {', '.join(choices)}")
    return v


def _names(where: str, v: Any, choices: Any, most: int = 99) -> list[str]:
    if not isinstance(v, list) or len(v) > most:
        _fail(f"{where} must be a list of at most {most} names from {', '.join(choices)}")
    for x in v:
        _choice(where, x, choices)
    if len(set(v)) != len(v):
        _fail(f"{where} lists a name twice")
    return list(v)


def _entries(data: dict, src: dict, table: str, lo: int = 1, hi: int = 999) -> dict:
    entries = data[table]
    where = f"{src[table]}: [{table}]"
    if not isinstance(entries, dict) or not lo <= len(entries) <= hi:
        _fail(f"{where} must hold {lo} to {hi} entries, e.g. [{table}.some_id]")
    for ident, entry in entries.items():
        if not isinstance(entry, dict):
            _fail(f"{src[table]}: {table}.{ident} must be a table ([{table}.{ident}])")
    return entries


def _keys(where: str, entry: dict, required: tuple, optional: tuple) -> None:
    allowed = (*required, *optional)
    for key in entry:
        if key not in allowed:
            _fail(f"{where}: unknown key '{key}'; allowed: {', '.join(allowed)}")
    for key in required:
        if key not in entry:
            _fail(f"{where}: missing key '{key}'")


def _table(data: dict, src: dict, table: str, required: tuple, optional: tuple = ()) -> dict:
    t = data[table]
    if not isinstance(t, dict):
        _fail(f"{src[table]}: [{table}] must be a table")
    _keys(f"{src[table]}: {table}", t, required, optional)
    return t


def _dice(where: str, v: Any, sizes: Any, limits: dict | None = None) -> list[int]:
    if not isinstance(v, list) or not 1 <= len(v) <= DICE or not all(_is_int(d) for d in v):
        _fail(f"{where} must be a list of 1 to {DICE} die sizes, e.g. [6, 4]")
    for d in v:
        if d not in sizes:
            _fail(f"{where}: a d{d} is not allowed; die sizes: {', '.join(map(str, sizes))}")
    if limits:
        for size, most in limits.items():
            if v.count(size) > most:
                _fail(f"{where}: {v.count(size)} d{size}, but the dice hold only {most} d{size}")
    return list(v)


def _put_dice(row: np.ndarray, ncol: int, dice: list[int]) -> None:
    row[ncol] = len(dice)
    for k, d in enumerate(dice):
        row[ncol + 1 + k] = d


def _ranges(where: str, v: Any) -> int:
    if not isinstance(v, list) or not v or len(set(v)) != len(v):
        _fail(f"{where} must list distinct ranges from {', '.join(_RANGE_BITS)}")
    bits = 0
    for r in v:
        bits |= _RANGE_BITS[_choice(where, r, _RANGE_BITS)]
    return bits


def _stations(where: str, v: Any) -> int:
    bits = 0
    for s in _names(where, v, STATION_NAMES):
        bits |= STATION_NAMES[s]
    return bits


# --- loading ----------------------------------------------------------------------------------
@functools.lru_cache(maxsize=16)
def _load(path: str | None, stamp: Any = None) -> tuple[dict[str, Any], dict[str, str]]:
    # ``stamp`` (``file_stamp(path)``) is only part of the cache key: an edited file is reread
    data = cmod.load_content(path)
    over = read_toml(Path(path)) if path is not None else {}
    src = {t: (str(path) if t in over else n) for t, n in cmod.DEFAULT_FILES.items()}
    files: dict[str, dict] = {}
    for table, name in cmod.CONTENT_TABLES.items():
        if name not in files:
            files[name] = read_toml(cmod.DATA_DIR / name)
        data[table] = copy.deepcopy(files[name].get(table))
        src[table] = name
    for table, value in over.items():
        if table in cmod.CONTENT_TABLES:
            data[table] = value
            src[table] = str(path)
    for table in cmod.CONTENT_TABLES:
        if data[table] is None:
            _fail(f"{src[table]}: the table [{table}] is missing")
    return data, src


def load_tables(content: str | Path | None = None) -> dict[str, Any]:
    """Return every content table (a fresh copy), the defaults overridden by ``content``.

    The tables are validated only by :func:`compile_tables` (names need the world's
    resources); :func:`simlib.games.terraria.content.load_content` checks the combat ones.
    """
    key = _key(content)
    data, _ = _load(key, file_stamp(key))
    return copy.deepcopy(data)


# --- compiling ----------------------------------------------------------------------------------
class _Ids:
    """Name -> id maps of one compile, for references between tables."""

    def __init__(self) -> None:
        self.res: dict[str, int] = {}
        self.structural: set[str] = set()
        self.equip: dict[str, int] = {}
        self.armor: dict[str, int] = {}
        self.cons: dict[str, int] = {}
        self.minions: dict[str, int] = {}
        self.houses: dict[str, int] = {}
        self.bosses: dict[str, int] = {}
        self.cards: dict[str, int] = {}
        self.chest_levels: set[int] = set()


def _reward(where: str, r: Any, ids: _Ids) -> tuple[int, int, int]:
    """``[kind, ...]`` -> ``(RW.KIND, RW.ID, RW.AMOUNT)``."""
    if not isinstance(r, list) or not r or not isinstance(r[0], str):
        _fail(f"{where} must be a reward [kind, ...] with kind one of {', '.join(REWARD_KINDS)}")
    kind = _choice(where, r[0], REWARD_KINDS)
    code = REWARD_KINDS[kind]
    args = r[1:]

    def nargs(lo: int, hi: int, form: str) -> None:
        if not lo <= len(args) <= hi:
            _fail(f"{where} must be {form}")

    if kind == "none":
        nargs(0, 0, '["none"]')
        return (code, 0, 0)
    if kind in ("coins", "heal", "maxhp", "maxmana", "rope", "mana"):
        nargs(1, 1, f'["{kind}", n]')
        return (code, 0, _int(f"{where} ({kind} amount)", args[0], 1, 25))
    if kind == "chest_card":
        nargs(1, 1, '["chest_card", level] with level 1 to 5')
        level = _int(f"{where} (chest card level)", args[0], 1, 5)
        if level not in ids.chest_levels:
            _fail(f"{where}: no chest action card has level {level} (cards.toml)")
        return (code, level, 1)
    names = {
        "resource": ids.res,
        "equip": ids.equip,
        "armor": ids.armor,
        "consumable": ids.cons,
    }[kind]
    if kind == "resource":
        nargs(2, 2, '["resource", name, n]')
    else:
        nargs(1, 2, f'["{kind}", id] or ["{kind}", id, n]')
    name = args[0]
    if name not in names:
        _fail(f"{where}: {kind} {name!r} does not exist; one of {', '.join(names)}")
    if kind == "resource" and name in ids.structural:
        _fail(f"{where}: {name!r} is structural and never enters an inventory (TR-177)")
    n = _int(f"{where} (amount)", args[1], 1, 25) if len(args) == 2 else 1
    return (code, names[name], n)


def _recipe(where: str, v: Any, ids: _Ids) -> list[tuple[int, int]]:
    if not isinstance(v, list) or len(v) > 4:
        _fail(f"{where} must be a list of up to 4 [resource, units] pairs")
    out = []
    for pair in v:
        if (
            not isinstance(pair, list)
            or len(pair) != 2
            or not isinstance(pair[0], str)
            or not _is_int(pair[1])
        ):
            _fail(f"{where} must be a list of up to 4 [resource, units] pairs, got {pair!r}")
        name, n = pair
        if name not in ids.res:
            _fail(f"{where}: resource {name!r} does not exist; one of {', '.join(ids.res)}")
        if name in ids.structural:
            _fail(f"{where}: {name!r} is structural and can't be used for crafting (TR-177)")
        out.append((ids.res[name], _int(f"{where} ({name} units)", n, 1, 30)))
    if len({r for r, _ in out}) != len(out):
        _fail(f"{where} lists a resource twice")
    return out


def _craft(where: str, e: dict, ids: _Ids, row: np.ndarray, cols: Any, rec: np.ndarray) -> None:
    """Recipe, station, craftable, copies, tier and evil of an equipment or armor entry."""
    craftable = e.get("craftable", True)
    recipe = _recipe(f"{where}.recipe", e.get("recipe", []), ids)
    stations = _stations(f"{where}.station", e.get("station", []))
    if craftable and not recipe:
        _fail(f"{where}.recipe: a craftable card needs a recipe (or set craftable = false)")
    if not craftable and (recipe or stations):
        _fail(f"{where}: craftable = false, so it takes no recipe or station")
    for k, (r, n) in enumerate(recipe):
        rec[k] = (r, n)
    row[cols.STATION] = stations
    row[cols.CRAFTABLE] = int(craftable)
    row[cols.COPIES] = e.get("copies", 1)
    row[cols.TIER] = e.get("tier", 0)
    row[cols.EVIL] = _EVIL_CODES[e.get("evil", "any")]


def _resources(data, src, wdata, ids: _Ids) -> None:
    names = list(wdata["resources"])
    for n in names:
        ids.res[n] = len(ids.res) + 1
        if wdata["resources"][n]["structural"]:
            ids.structural.add(n)
    lr = _table(data, src, "loot_resources", ("names",))
    where = f"{src['loot_resources']}: loot_resources.names"
    extra = lr["names"]
    if not isinstance(extra, list) or not all(isinstance(x, str) and x for x in extra):
        _fail(f"{where} must be a list of resource names")
    for n in extra:
        if n in ids.res:
            _fail(f"{where}: {n!r} is already a world resource ([resources]) or listed twice")
        ids.res[n] = len(ids.res) + 1
    most = PARAM_COUNTERS["resource_collected"] - 1
    if len(ids.res) > most:
        _fail(f"{where}: {len(ids.res)} resources in all; at most {most} (counter columns)")
    for n in _RULE_RESOURCES:
        if n not in ids.res:
            _fail(f"{where} must include {n!r} (the rules need its id)")


def _compile_cards(data, src, ids: _Ids):
    entries = _entries(data, src, "cards", 1, MAX_CARDS * 4)
    cards = np.zeros((len(entries), CF.N), dtype=np.int16)
    optional = ("price", "level", "copies", *_ICONS, "or", "debuff", "hurt", "recall")
    debuff_cards: dict[str, str] = {}
    for i, (cid, e) in enumerate(entries.items()):
        where = f"{src['cards']}: cards.{cid}"
        _keys(where, e, ("name", "shop"), optional)
        _str(f"{where}.name", e["name"])
        shop = _choice(f"{where}.shop", e["shop"], _SHOPS)
        row = cards[i]
        row[CF.SHOP] = _SHOPS[shop]
        for key, col in zip(_ICONS, _ICON_COLS_A, strict=True):
            row[col] = _int(f"{where}.{key}", e.get(key, 0), 0, 9)
        if "or" in e:
            alt = e["or"]
            if not isinstance(alt, dict) or not alt:
                _fail(f"{where}.or must be a table of icons, e.g. {{ def = 2 }}")
            for key in alt:
                if key not in _ICONS:
                    _fail(f"{where}.or: unknown key '{key}'; allowed: {', '.join(_ICONS)}")
            for key, col in zip(_ICONS, _ICON_COLS_B, strict=True):
                row[col] = _int(f"{where}.or.{key}", alt.get(key, 0), 0, 9)
            row[CF.CHOICE] = 1
        priced = shop in ("guide", "merchant_8", "merchant_15")
        if priced:
            if "price" not in e:
                _fail(f"{where}: missing key 'price' (a {shop} card is bought)")
            price = _int(f"{where}.price", e["price"], 0, 25)
            fixed = {"merchant_8": 8, "merchant_15": 15}.get(shop)
            if fixed is not None and price != fixed:
                _fail(f"{where}.price must be {fixed}: the {shop} pile costs {fixed} (TR-010)")
            row[CF.PRICE] = price
        elif "price" in e:
            _fail(f"{where}: a {shop} card is not bought, so it takes no price")
        if shop == "chest":
            if "level" not in e:
                _fail(f"{where}: missing key 'level' (a chest action card has a level 1 to 5)")
            row[CF.LEVEL] = _int(f"{where}.level", e["level"], 1, 5)
            ids.chest_levels.add(int(row[CF.LEVEL]))
        elif "level" in e:
            _fail(f"{where}: only chest action cards take a level")
        row[CF.COPIES] = _int(
            f"{where}.copies",
            e.get("copies", 0 if shop == "start" else 1),
            0 if shop == "start" else 1,
            99,
        )
        if shop == "debuff":
            if "debuff" not in e:
                _fail(f"{where}: missing key 'debuff' (poisoned, on_fire or frozen)")
            d = _choice(f"{where}.debuff", e["debuff"], ("poisoned", "on_fire", "frozen"))
            if d in debuff_cards:
                _fail(f"{where}.debuff: {d} already has a card ({debuff_cards[d]}); one per type")
            debuff_cards[d] = cid
            row[CF.DEBUFF] = _DEBUFF_CODES[d]
        elif "debuff" in e:
            _fail(f"{where}: only debuff cards (shop = 'debuff') take a debuff")
        row[CF.HURT] = _int(f"{where}.hurt", e.get("hurt", 0), 0, 9)
        row[CF.RECALL] = int(_bool(f"{where}.recall", e.get("recall", False)))
        ids.cards[cid] = i
    missing = [d for d in ("poisoned", "on_fire", "frozen") if d not in debuff_cards]
    if missing:
        _fail(f"{src['cards']}: [cards] needs a debuff card (shop = 'debuff') for {missing[0]}")
    sd = _table(data, src, "start_deck", ("cards",))
    where = f"{src['start_deck']}: start_deck.cards"
    deck = sd["cards"]
    if not isinstance(deck, list) or not 1 <= len(deck) <= 20:
        _fail(f"{where} must list 1 to 20 card ids")
    for c in deck:
        if c not in ids.cards:
            _fail(f"{where}: card {c!r} does not exist; one of {', '.join(ids.cards)}")
        if cards[ids.cards[c], CF.SHOP] in (SHOP.DEBUFF, SHOP.CHEST):
            _fail(f"{where}: {c!r} is a chest or debuff card, not a starting card")
    start_deck = np.array([ids.cards[c] for c in deck], dtype=np.int16)
    return cards, start_deck


def _compile_equipment(data, src, ids: _Ids):
    weapons = data["weapons"]  # checked by content.load_content
    gear = _entries(data, src, "gear")
    minions = _entries(data, src, "minions", 1, 32)
    mins = np.zeros(len(minions), dtype=np.int16)
    min_copies = np.zeros(len(minions), dtype=np.int16)
    for i, (mid, m) in enumerate(minions.items()):
        where = f"{src['minions']}: minions.{mid}"
        _keys(where, m, ("name", "attack"), ("copies",))
        _str(f"{where}.name", m["name"])
        mins[i] = _int(f"{where}.attack", m["attack"], 0, 20)
        min_copies[i] = _int(f"{where}.copies", m.get("copies", 1), 0, 99)
        ids.minions[mid] = i
    for gid in gear:
        if gid in weapons:
            _fail(f"{src['gear']}: gear.{gid}: the id is already a weapon (weapons.toml)")
    n = len(weapons) + len(gear)
    eq = np.zeros((n, EQ.N), dtype=np.int16)
    rec = np.zeros((n, 4, 2), dtype=np.int16)
    eq[:, EQ.MINION] = -1
    for i, wid in enumerate(weapons):
        ids.equip[wid] = i
    for j, gid in enumerate(gear):
        ids.equip[gid] = len(weapons) + j
    for i, (wid, w) in enumerate(weapons.items()):
        where = f"{src['weapons']}: weapons.{wid}"
        row = eq[i]
        row[EQ.SLOT] = SLOT.WEAPON
        _put_dice(
            row,
            EQ.NATK,
            _dice(f"{where}.attack", w["attack"], sorted(cmod.CHARACTER_DICE), cmod.CHARACTER_DICE),
        )
        row[EQ.RANGE] = _ranges(f"{where}.ranges", w["ranges"])
        row[EQ.LOS] = int(w["los"])
        row[EQ.MANA] = w.get("mana", 0)
        row[EQ.DRAW] = w.get("draw", 0)
        _craft(where, w, ids, row, EQ, rec[i])
    slots = {"axe": SLOT.AXE, "pickaxe": SLOT.PICK, "other": SLOT.OTHER}
    optional = (
        "chop",
        "dig",
        "draw",
        "minion",
        "mana",
        "gate",
        "recipe",
        "station",
        "craftable",
        "copies",
        "tier",
        "evil",
    )
    for j, (gid, g) in enumerate(gear.items()):
        i = len(weapons) + j
        where = f"{src['gear']}: gear.{gid}"
        _keys(where, g, ("name", "slot"), optional)
        _str(f"{where}.name", g["name"])
        row = eq[i]
        slot = _choice(f"{where}.slot", g["slot"], slots)
        row[EQ.SLOT] = slots[slot]
        row[EQ.CHOP] = _int(f"{where}.chop", g.get("chop", 0), 0, 9)
        row[EQ.DIG] = _int(f"{where}.dig", g.get("dig", 0), 0, 9)
        if slot == "axe" and row[EQ.CHOP] < 1:
            _fail(f"{where}.chop: an axe converts 1 action point into 1 to 9 chop")
        if slot == "pickaxe" and row[EQ.DIG] < 1:
            _fail(f"{where}.dig: a pickaxe converts 1 action point into 1 to 9 dig")
        if slot != "axe" and row[EQ.CHOP]:
            _fail(f"{where}.chop: only axes chop")
        if slot != "pickaxe" and row[EQ.DIG]:
            _fail(f"{where}.dig: only pickaxes dig")
        row[EQ.DRAW] = _int(f"{where}.draw", g.get("draw", 0), 0, 9)
        row[EQ.MANA] = _int(f"{where}.mana", g.get("mana", 0), 0, 20)
        if "minion" in g:
            m = _choice(f"{where}.minion", g["minion"], ids.minions)
            row[EQ.MINION] = ids.minions[m]
        gate = _bool(f"{where}.gate", g.get("gate", False))
        if gate and slot != "pickaxe":
            _fail(f"{where}.gate: only a pickaxe gates the hellforge (TR-252)")
        row[EQ.GATE] = int(gate)
        _int(f"{where}.copies", g.get("copies", 1), 0, 99)
        _int(f"{where}.tier", g.get("tier", 0), 0, 99)
        _choice(f"{where}.evil", g.get("evil", "any"), _EVIL_CODES)
        _bool(f"{where}.craftable", g.get("craftable", True))
        _craft(where, g, ids, row, EQ, rec[i])
    se = _table(data, src, "start_equipment", ("standard", "journey"))
    start = np.zeros((2, 3), dtype=np.int16)
    want = (SLOT.WEAPON, SLOT.AXE, SLOT.PICK)
    for k, key in enumerate(("standard", "journey")):
        where = f"{src['start_equipment']}: start_equipment.{key}"
        v = se[key]
        if not isinstance(v, list) or len(v) != 3:
            _fail(f"{where} must be 3 equipment ids: [weapon, axe, pickaxe]")
        for s, (name, slot) in enumerate(zip(v, want, strict=True)):
            if name not in ids.equip:
                _fail(f"{where}: equipment {name!r} does not exist; one of {', '.join(ids.equip)}")
            if eq[ids.equip[name], EQ.SLOT] != slot:
                _fail(f"{where}: {name!r} is not a {('weapon', 'axe', 'pickaxe')[s]}")
            start[k, s] = ids.equip[name]
    return eq, rec, start, mins, min_copies


def _compile_armor(data, src, ids: _Ids):
    entries = {k: v for k, v in data["armor"].items() if k != "none"}
    if not entries:
        _fail(f"{src['armor']}: [armor] must hold an armor set besides 'none'")
    ar = np.zeros((len(entries), AR.N), dtype=np.int16)
    rec = np.zeros((len(entries), 4, 2), dtype=np.int16)
    for i, aid in enumerate(entries):
        ids.armor[aid] = i
    for i, (aid, a) in enumerate(entries.items()):
        where = f"{src['armor']}: armor.{aid}"
        row = ar[i]
        _put_dice(
            row,
            AR.NDEF,
            _dice(
                f"{where}.defense", a["defense"], sorted(cmod.CHARACTER_DICE), cmod.CHARACTER_DICE
            ),
        )
        row[AR.HP] = a.get("hp", 0)
        row[AR.ATK] = a.get("atk", 0)
        row[AR.DEF] = a.get("def", 0)  # no icons unless the data gives some
        row[AR.DRAW] = a.get("draw", 0)
        row[AR.MANA] = a.get("mana", 0)
        row[AR.REGEN] = a.get("mana_regen", 0)
        bits = 0
        for d in _names(f"{where}.immune", a.get("immune", []), ("poisoned", "on_fire", "frozen")):
            bits |= 1 << _DEBUFF_CODES[d]
        row[AR.IMMUNE] = bits
        _craft(where, a, ids, row, AR, rec[i])
        if row[AR.CRAFTABLE] and not row[AR.STATION]:
            _fail(f"{where}.station: every craftable armor set needs a crafting station (TR-212)")
    return ar, rec


def _compile_characters(data, src):
    entries = _entries(data, src, "characters", 1, 16)
    cc = np.zeros((len(entries), CC.N), dtype=np.int16)
    for i, (cid, c) in enumerate(entries.items()):
        where = f"{src['characters']}: characters.{cid}"
        _keys(where, c, ("name", "hand", "defense", "health", "mana"), ())
        _str(f"{where}.name", c["name"])
        cc[i, CC.HAND] = _int(f"{where}.hand", c["hand"], 1, 12)
        _put_dice(
            cc[i],
            CC.NDEF,
            _dice(
                f"{where}.defense", c["defense"], sorted(cmod.CHARACTER_DICE), cmod.CHARACTER_DICE
            ),
        )
        cc[i, CC.HP] = _int(f"{where}.health", c["health"], 1, 99)
        cc[i, CC.MANA] = _int(f"{where}.mana", c["mana"], 0, 99)
    return cc


def _compile_consumables(data, src, ids: _Ids):
    entries = _entries(data, src, "consumables", 1, 64)
    co = np.zeros((len(entries), CO.N), dtype=np.int16)
    ints = {
        "heal": CO.HEAL,
        "mana": CO.MANA,
        "def": CO.DEF,
        "atk": CO.ATK,
        "ap": CO.AP,
        "dig": CO.DIG,
    }
    flags = {"recall": CO.RECALL, "voodoo": CO.VOODOO, "cure": CO.CURE, "bottle": CO.BOTTLE}
    for i, (cid, c) in enumerate(entries.items()):
        where = f"{src['consumables']}: consumables.{cid}"
        _keys(where, c, ("name", "copies"), (*ints, *flags, "demolition"))
        _str(f"{where}.name", c["name"])
        co[i, CO.COPIES] = _int(f"{where}.copies", c["copies"], 0, 64)
        for key, col in ints.items():
            co[i, col] = _int(f"{where}.{key}", c.get(key, 0), 0, 9)
        for key, col in flags.items():
            co[i, col] = int(_bool(f"{where}.{key}", c.get(key, False)))
        co[i, CO.DEMOLITION] = _int(f"{where}.demolition", c.get("demolition", 0), 0, 25)
        ids.cons[cid] = i
    return co


def _compile_houses(data, src, ids: _Ids):
    entries = _entries(data, src, "houses", 1, MAX_HOUSES)
    ho = np.zeros((len(entries), HO.N), dtype=np.int16)
    rec = np.zeros((len(entries), 4, 2), dtype=np.int16)
    provided = 0
    for i, (hid, h) in enumerate(entries.items()):
        where = f"{src['houses']}: houses.{hid}"
        _keys(where, h, ("name", "size", "cost", "needs", "provides"), ("gated", "copies"))
        _str(f"{where}.name", h["name"])
        size = h["size"]
        if not isinstance(size, list) or len(size) != 2:
            _fail(f"{where}.size must be [width, height] in squares")
        ho[i, HO.W] = _int(f"{where}.size (width)", size[0], 1, 6)
        ho[i, HO.H] = _int(f"{where}.size (height)", size[1], 1, 5)
        for k, (r, n) in enumerate(_recipe(f"{where}.cost", h["cost"], ids)):
            rec[i, k] = (r, n)
        ho[i, HO.NEEDS] = _stations(f"{where}.needs", h["needs"])
        ho[i, HO.PROVIDES] = _stations(f"{where}.provides", h["provides"])
        ho[i, HO.GATED] = int(_bool(f"{where}.gated", h.get("gated", False)))
        ho[i, HO.COPIES] = _int(f"{where}.copies", h.get("copies", 1), 1, MAX_HOUSES)
        provided |= int(ho[i, HO.PROVIDES])
        ids.houses[hid] = i
    for i, hid in enumerate(entries):
        lacking = int(ho[i, HO.NEEDS]) & ~provided
        if lacking:
            name = next(n for n, b in STATION_NAMES.items() if b & lacking)
            _fail(f"{src['houses']}: houses.{hid}.needs: no house provides {name!r}")
    total = int(ho[:, HO.COPIES].sum())
    if total > MAX_HOUSES:
        _fail(f"{src['houses']}: [houses] copies sum to {total}; at most {MAX_HOUSES} tiles")
    fd = _table(data, src, "food", ("tokens",))
    where = f"{src['food']}: food.tokens"
    toks = fd["tokens"]
    if not isinstance(toks, list) or len(toks) != 4:
        _fail(f"{where} must be 4 rewards, one per food buff token (TR-255)")
    food = np.array([_reward(f"{where}[{k}]", r, ids) for k, r in enumerate(toks)], dtype=np.int16)
    return ho, rec, food


def _compile_bestiary(data, src, ids: _Ids):
    best = data["bestiary"]
    sizes = sorted(data["enemy_dice"]["sizes"])
    en = np.zeros((len(best), EN.N), dtype=np.int16)
    pools: list[list[list[int]]] = [[[], []] for _ in range(SECTIONS)]
    for i, (eid, e) in enumerate(best.items()):
        where = f"{src['bestiary']}: bestiary.{eid}"
        row = en[i]
        _put_dice(row, EN.NATK, _dice(f"{where}.attack", e["attack"], sizes))
        _put_dice(row, EN.NDEF, _dice(f"{where}.defense", e["defense"], sizes))
        row[EN.RANGE] = _ranges(f"{where}.ranges", e["ranges"])
        row[EN.WOUNDS] = e["wounds"]
        row[EN.MOVEMENT] = e["movement"]
        row[EN.KIND] = _MOVE_KIND[e["move"]]
        row[EN.DEBUFF] = _DEBUFF_CODES[e["debuff"]]
        row[EN.SLIME] = int(e["slime"])
        row[EN.COINS] = e["coins"]
        if "loot" in e:
            lt = e["loot"]
            if not isinstance(lt, list) or len(lt) != 2:
                _fail(f"{where}.loot must be [resource, units]")
            code, rid, n = _reward(f"{where}.loot", ["resource", *lt], ids)
            row[EN.LOOT_RES], row[EN.LOOT_N] = rid, n
        row[EN.VOODOO] = int(e.get("voodoo", False))
        row[EN.NIGHT] = {"day": 0, "night": 1, "both": 2}[e["time"]]
        copies = e.get("copies", 1)
        if copies < 1:
            _fail(f"{where}.copies must be from 1 to 99 (tokens per pool and section)")
        biomes = e["biome"] if isinstance(e["biome"], list) else [e["biome"]]
        layers = e["layer"] if isinstance(e["layer"], list) else [e["layer"]]
        for key, v in (("biome", biomes), ("layer", layers)):
            if len(set(v)) != len(v):
                _fail(f"{where}.{key} lists a name twice")
        times = {"day": (0,), "night": (1,), "both": (0, 1)}[e["time"]]
        for b in biomes:
            for la in layers:
                s = cmod.BIOMES.index(b) * N_LAYERS + cmod.LAYERS.index(la)
                for t in times:
                    pools[s][t] += [i] * copies
    tr = _table(data, src, "tray", ("crystals_day", "crystals_night", "stars_night"))
    extra = {}
    for key in ("crystals_day", "crystals_night", "stars_night"):
        where = f"{src['tray']}: tray.{key}"
        v = tr[key]
        if not isinstance(v, list) or len(v) != N_LAYERS:
            _fail(f"{where} must be 5 integers, one per layer (surface .. underworld)")
        extra[key] = [_int(f"{where}[{k}]", x, 0, 9) for k, x in enumerate(v)]
    if extra["crystals_day"][0] or extra["crystals_night"][0]:
        _fail(
            f"{src['tray']}: tray: life crystals lie below the Surface only (TR-304); "
            "set the surface entries of crystals_day and crystals_night to 0"
        )
    tok = np.full((SECTIONS, MAX_TOKENS), -1, dtype=np.int16)
    night = np.zeros((SECTIONS, MAX_TOKENS), dtype=np.int16)
    count = np.zeros(SECTIONS, dtype=np.int16)
    for s in range(SECTIONS):
        la = s % N_LAYERS
        day_pool = pools[s][0] + [TOKEN.CRYSTAL] * extra["crystals_day"][la]
        night_pool = (
            pools[s][1]
            + [TOKEN.CRYSTAL] * extra["crystals_night"][la]
            + [TOKEN.STAR] * extra["stars_night"][la]
        )
        allt = day_pool + night_pool
        if len(allt) > MAX_TOKENS:
            b = cmod.BIOMES[s // N_LAYERS]
            _fail(
                f"{src['bestiary']}: [bestiary] puts {len(allt)} tokens in the {b} "
                f"{cmod.LAYERS[la]} tray section; at most {MAX_TOKENS}"
            )
        tok[s, : len(allt)] = allt
        night[s, len(day_pool) : len(allt)] = 1
        count[s] = len(allt)
    return en, tok, night, count


def _compile_chests(data, src, ids: _Ids, equip_evil, armor_evil):
    entries = _entries(data, src, "chests", 1, 99)
    biome = np.zeros(len(entries), dtype=np.int16)
    reward = np.zeros((len(entries), N_LAYERS, RW.N), dtype=np.int16)
    for i, (cid, c) in enumerate(entries.items()):
        where = f"{src['chests']}: chests.{cid}"
        _keys(where, c, ("biome", "rewards"), ())
        b = _choice(f"{where}.biome", c["biome"], cmod.BIOMES)
        biome[i] = cmod.BIOMES.index(b)
        rws = c["rewards"]
        if not isinstance(rws, list) or len(rws) != N_LAYERS:
            _fail(f"{where}.rewards must be 5 rewards, one per layer (surface .. underworld)")
        for la, r in enumerate(rws):
            reward[i, la] = _reward(f"{where}.rewards[{la}]", r, ids)
            _evil_ok(f"{where}.rewards[{la}]", reward[i, la], b, equip_evil, armor_evil)
    return biome, reward


def _evil_ok(where, rw, biome_or_evil, equip_evil, armor_evil) -> None:
    """A chest of the Corruption (Crimson) or a Corruption-only boss gives no Crimson item."""
    other = {"corruption": 2, "crimson": 1}.get(biome_or_evil)
    if other is None:
        return
    kind, rid = int(rw[RW.KIND]), int(rw[RW.ID])
    evil = equip_evil[rid] if kind == RK.EQUIP else armor_evil[rid] if kind == RK.ARMOR else 0
    if evil == other:
        _fail(f"{where}: that card exists only in {('', 'corruption', 'crimson')[other]} worlds")


def _compile_bosses(data, src, ids: _Ids, equip_evil, armor_evil):
    entries = _entries(data, src, "bosses", 1, PARAM_COUNTERS["boss_defeated"])
    sizes = sorted(data["enemy_dice"]["sizes"])
    bo = np.zeros((len(entries), BO.N), dtype=np.int16)
    bh = np.zeros((len(entries), 3, BH.N), dtype=np.int16)
    loot = np.zeros((len(entries), REWARD_SLOTS, RW.N), dtype=np.int16)
    form_keys = (
        "wounds",
        "attack",
        "ranges",
        "defense",
        "movement",
        "move",
        "special",
        "special_n",
        "debuff",
    )
    for i, (bid, b) in enumerate(entries.items()):
        where = f"{src['bosses']}: bosses.{bid}"
        _keys(
            where, b, ("name", "spawn", "evil", "win", "form_a", "form_b", "behaviour", "loot"), ()
        )
        _str(f"{where}.name", b["name"])
        bo[i, BO.SPAWN] = _SPAWNS[_choice(f"{where}.spawn", b["spawn"], _SPAWNS)]
        evil = _choice(f"{where}.evil", b["evil"], _EVIL_CODES)
        bo[i, BO.EVIL] = _EVIL_CODES[evil]
        bo[i, BO.WIN] = int(_bool(f"{where}.win", b["win"]))
        for base, key in ((0, "form_a"), (BO.FORM_B - BO.WOUNDS, "form_b")):
            f = b[key]
            wf = f"{where}.{key}"
            if not isinstance(f, dict):
                _fail(f"{wf} must be a table ([bosses.{bid}.{key}])")
            _keys(wf, f, form_keys, ())
            row = bo[i]
            o = base
            # "12 wound tokens" (Components): a form cannot take more
            row[BO.WOUNDS + o] = _int(f"{wf}.wounds", f["wounds"], 1, 12)
            _put_dice(row, BO.NATK + o, _dice(f"{wf}.attack", f["attack"], sizes))
            row[BO.RANGE + o] = _ranges(f"{wf}.ranges", f["ranges"])
            _put_dice(row, BO.NDEF + o, _dice(f"{wf}.defense", f["defense"], sizes))
            row[BO.MOVEMENT + o] = _int(f"{wf}.movement", f["movement"], 0, 20)
            row[BO.KIND + o] = _MOVE_KIND[_choice(f"{wf}.move", f["move"], _MOVE_KIND)]
            row[BO.SPECIAL + o] = _SPECIALS[_choice(f"{wf}.special", f["special"], _SPECIALS)]
            row[BO.SPECIAL_N + o] = _int(f"{wf}.special_n", f["special_n"], 0, 9)
            row[BO.DEBUFF + o] = _DEBUFF_CODES[_choice(f"{wf}.debuff", f["debuff"], _DEBUFF_CODES)]
        cards = b["behaviour"]
        if not isinstance(cards, list) or len(cards) != 3:
            _fail(
                f"{where}.behaviour must be 3 Behaviour cards, each a list of steps from "
                f"{', '.join(_STEPS)}"
            )
        for k, card in enumerate(cards):
            wc = f"{where}.behaviour[{k}]"
            steps = _names(wc, card, _STEPS)
            if "ranged" in steps and "spawn" in steps:
                _fail(f"{wc}: 'ranged' and 'spawn' are the same attack step; pick one (TR-408)")
            bh[i, k, BH.SPECIAL] = int("special" in steps)
            bh[i, k, BH.MOVE] = int("move" in steps)
            bh[i, k, BH.SHORT] = int("short" in steps)
            bh[i, k, BH.RANGED] = 1 if "ranged" in steps else 2 if "spawn" in steps else 0
        lt = b["loot"]
        if not isinstance(lt, list) or len(lt) > REWARD_SLOTS:
            _fail(f"{where}.loot must be a list of up to {REWARD_SLOTS} rewards")
        for k, r in enumerate(lt):
            loot[i, k] = _reward(f"{where}.loot[{k}]", r, ids)
            _evil_ok(f"{where}.loot[{k}]", loot[i, k], evil, equip_evil, armor_evil)
        ids.bosses[bid] = i
    if not (bo[:, BO.WIN] == 1).any():
        _fail(f"{src['bosses']}: [bosses] needs a boss with win = true (Wall of Flesh, TR-425)")
    return bo, bh, loot


def _compile_objectives(data, src, ids: _Ids):
    obj = data["objectives"]
    where = f"{src['objectives']}: objectives"
    if not isinstance(obj, dict) or set(obj) != set(CHAINS):
        _fail(f"{where} must have exactly the chains {', '.join(CHAINS)} ([[objectives.dig]] ...)")
    out = np.zeros((len(CHAINS) * CHAIN_LEN, OB.N), dtype=np.int16)
    for c, chain in enumerate(CHAINS):
        cards = obj[chain]
        if not isinstance(cards, list) or len(cards) != CHAIN_LEN:
            _fail(
                f"{where}.{chain} must hold exactly {CHAIN_LEN} objectives (TR-008), "
                "objective 1 first"
            )
        for k, o in enumerate(cards):
            wo = f"{where}.{chain}[{k + 1}]"
            if not isinstance(o, dict):
                _fail(f"{wo} must be a table ([[objectives.{chain}]])")
            _keys(wo, o, ("counter", "amount", "reward", "shared"), ("text", "param"))
            row = out[c * CHAIN_LEN + k]
            row[OB.CHAIN] = c
            col, param = _counter(wo, o, ids)
            row[OB.COUNTER], row[OB.PARAM] = col, param
            hi = 5 if o["counter"] == "layer_reached" else 999
            row[OB.AMOUNT] = _int(f"{wo}.amount", o["amount"], 1, hi)
            row[OB.REWARD : OB.REWARD + RW.N] = _reward(f"{wo}.reward", o["reward"], ids)
            row[OB.SHARED] = int(_bool(f"{wo}.shared", o["shared"]))
    sh = _table(data, src, "still_hungry", ("counter", "amount"), ("text", "param"))
    _counter(f"{src['still_hungry']}: still_hungry", sh, ids)
    _int(f"{src['still_hungry']}: still_hungry.amount", sh["amount"], 1, 999)
    return out


def _counter(where: str, o: dict, ids: _Ids) -> tuple[int, int]:
    name = _choice(f"{where}.counter", o["counter"], COUNTER_NAMES)
    if "text" in o:
        _str(f"{where}.text", o["text"])
    if name not in PARAM_COUNTERS:
        if "param" in o:
            _fail(f"{where}.param: the counter {name!r} takes no param")
        return COUNTER_NAMES[name], 0
    if "param" not in o:
        _fail(f"{where}: missing key 'param' (the counter {name!r} needs one)")
    names = {
        "resource_collected": ids.res,
        "boss_defeated": ids.bosses,
        "house_built": ids.houses,
        "npc_spawned": {n: i for i, n in enumerate(NPC_NAMES)},
    }[name]
    p = _choice(f"{where}.param", o["param"], names)
    return COUNTER_NAMES[name], names[p]


def _compile_rules(data, src, ids: _Ids):
    ru = _table(data, src, "rules", tuple(_RULE_KEYS))
    rules = np.zeros(RU.N, dtype=np.int16)
    for key, (col, lo, hi) in _RULE_KEYS.items():
        rules[col] = _int(f"{src['rules']}: rules.{key}", ru[key], lo, hi)
    for name, col in _RULE_RESOURCES.items():
        rules[col] = ids.res[name]
    tt = _table(data, src, "time_track", ("spaces",))
    where = f"{src['time_track']}: time_track.spaces"
    spaces = tt["spaces"]
    if not isinstance(spaces, list) or not 2 <= len(spaces) <= 32:
        _fail(f'{where} must list 2 to 32 spaces, e.g. ["day", "sunrise"]')
    track = np.zeros((len(spaces), TT.N), dtype=np.int16)
    for k, sp in enumerate(spaces):
        marks = _names(f"{where}[{k}]", sp, ("day", "night", "sunrise", "skull"))
        if ("day" in marks) == ("night" in marks):
            _fail(f"{where}[{k}] must be a day or a night space (one of them)")
        track[k] = (int("sunrise" in marks), int("skull" in marks), int("night" in marks))
    if track[0, TT.SUNRISE] != 1 or track[:, TT.SUNRISE].sum() != 1:
        _fail(f"{where}: the first space, and only it, shows the sunrise (TR-041, TR-353)")
    if track[0, TT.NIGHT]:
        _fail(f"{where}[0]: the sunrise space is a day space")
    return rules, track


@functools.lru_cache(maxsize=8)
def _compile(
    content: str | None, world: str | None, stamps: Any = None
) -> tuple[TablesFields, dict[str, list[str]]]:
    # ``stamps`` (the files' ``file_stamp``) are only part of the cache key
    data, src = _load(content, file_stamp(content))
    wdata = wmod.load_world(world)
    ids = _Ids()
    _resources(data, src, wdata, ids)
    cards, start_deck = _compile_cards(data, src, ids)
    eq, eq_rec, start_equip, minions, minion_copies = _compile_equipment(data, src, ids)
    ar, ar_rec = _compile_armor(data, src, ids)
    characters = _compile_characters(data, src)
    consumables = _compile_consumables(data, src, ids)
    houses, house_rec, food = _compile_houses(data, src, ids)
    enemies, tray_tok, tray_night, tray_n = _compile_bestiary(data, src, ids)
    chest_biome, chest_reward = _compile_chests(data, src, ids, eq[:, EQ.EVIL], ar[:, AR.EVIL])
    bosses, behaviour, boss_loot = _compile_bosses(data, src, ids, eq[:, EQ.EVIL], ar[:, AR.EVIL])
    objectives = _compile_objectives(data, src, ids)
    rules, time_track = _compile_rules(data, src, ids)
    if enemies[:, EN.VOODOO].any() and not consumables[:, CO.VOODOO].any():
        _fail(
            f"{src['consumables']}: [consumables] needs a card with voodoo = true: the "
            "bestiary drops the Guide Voodoo Doll (TR-390)"
        )
    tpl, stock, stock_n, start, res_dig, res_struct, plat_pos = wmod.compile_world(wdata)
    tables = TablesFields(
        tpl=tpl,
        stock=stock,
        stock_n=stock_n,
        start=start,
        res_dig=res_dig,
        res_struct=res_struct,
        plat_pos=plat_pos,
        rules=rules,
        cards=cards,
        start_deck=start_deck,
        equip=eq,
        equip_recipe=eq_rec,
        start_equip=start_equip,
        armor=ar,
        armor_recipe=ar_rec,
        minions=minions,
        characters=characters,
        consumables=consumables,
        houses=houses,
        house_recipe=house_rec,
        food=food,
        objectives=objectives,
        enemies=enemies,
        tray_tok=tray_tok,
        tray_night=tray_night,
        tray_n=tray_n,
        chest_biome=chest_biome,
        chest_reward=chest_reward,
        bosses=bosses,
        behaviour=behaviour,
        boss_loot=boss_loot,
        time_track=time_track,
        minion_copies=minion_copies,
    )
    names = {
        "resources": ["none", *ids.res],
        "cards": list(ids.cards),
        "equipment": list(ids.equip),
        "armor": list(ids.armor),
        "minions": list(ids.minions),
        "characters": list(data["characters"]),
        "consumables": list(ids.cons),
        "houses": list(ids.houses),
        "bestiary": list(data["bestiary"]),
        "chests": list(data["chests"]),
        "bosses": list(ids.bosses),
    }
    return tables, names


def _key(path: str | Path | None) -> str | None:
    return None if path in (None, "", "default") else str(path)


def compile_tables(content: str | Path | None = None, world: str | Path | None = None) -> TablesRef:
    """Compile the content and world data into the arrays the kernels read.

    Parameters
    ----------
    content : str or Path, optional
        A designer's TOML file; each table it holds replaces the default table whole
        (``content.ALL_TABLES`` lists them). ``None``: the defaults in ``data/``.
    world : str or Path, optional
        The file whose world tables (``world.WORLD_TABLES``) to use; by default
        ``content`` (one designer file may hold both).

    Returns
    -------
    Tables
        A fresh :class:`~simlib.games.terraria.state.Tables` of numpy arrays (int16 for
        every content table; shapes in ``state``), safe to change.

    Raises
    ------
    SimlibInputError
        A missing or malformed file, an unknown table or key, a bad value or a name that
        refers to nothing: one line naming the file, table, entry and key.

    """
    c = _key(content)
    w = _key(world) if world is not None else c
    tables, _ = _compile(c, w, (file_stamp(c), file_stamp(w)))
    return Tables(*(np.array(a, copy=True) for a in tables))


def table_names(content: str | Path | None = None, world: str | Path | None = None) -> dict:
    """The entry ids of each compiled table in id order (``resources[0]`` is "none").

    Keys: resources, cards, equipment, armor, minions, characters, consumables, houses,
    bestiary, chests, bosses.
    """
    c = _key(content)
    w = _key(world) if world is not None else c
    return copy.deepcopy(_compile(c, w, (file_stamp(c), file_stamp(w)))[1])
