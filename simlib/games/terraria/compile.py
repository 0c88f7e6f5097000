"""Terraria settings and data files -> the arrays the kernels read (every file validated).

:func:`compile_settings` turns resolved settings into ``(tab, cfg)``: ``tab`` the compiled
content (:func:`compile_tables`, a :class:`~simlib.games.terraria.state.Tables` of int16
numpy arrays) and ``cfg`` the int64 settings the kernels read (columns ``state.CFG``, from
``settings.effective``). The data are TOML files in ``data/``, all illustrative except the
numbers they quote from the rulebook; a designer's file (setting ``data``) may hold any of
their tables, and each table it holds replaces the default one whole. A bad entry is
refused with one line naming the file, the table, the entry, the key and what is allowed
(``SimlibInputError``). In the order they are read:

1. The combat tables (:func:`load_content`): ``[weapons]``, ``[armor]``, ``[bestiary]``
   and ``[enemy_dice]`` (``data/weapons.toml``, ``armor.toml``, ``bestiary.toml``), read
   and validated; the exact tables (``combat.py``) read only these. Their optional keys
   that only the compiled tables use (recipes, copies, tray copies, loot, ...) are checked
   for type here and for meaning when the content tables compile.
2. The world tables (:func:`load_world`, :func:`compile_world`; ``data/world.toml``,
   ``WORLD_TABLES``): validated in named steps, then the fixed set of biome tiles (the
   "printed" set) is drawn from ``world.tile_seed`` and the per-layer terrain and
   per-biome resource tables, the four starting tiles are added, and the boss trigger
   squares of ``[boss_squares]`` (the Bee Larva, the altars, Shadow Orbs and Crimson
   Hearts: ``FEAT.LARVA``, ``FEAT.ALTAR``, ``FEAT.ORB``) go into the first tiles of their
   stocks. How each game lays these tiles out is ``engine/world.py``.
3. The content tables (:func:`compile_tables`, ``CONTENT_TABLES``): cards, gear,
   characters, consumables, houses, objectives, chests, bosses, rules, the time track and
   the tray, every name resolved to an id; :func:`table_names` lists the ids.
4. The settings (:func:`compile_settings`): the ``cfg`` array, after checking that the
   supply can give every player its starting equipment (:func:`check_start_equipment`).

Ids (the row of an entry in its compiled table) follow the order of the entries in their
table:

- resources: the world's ``[resources]`` (ids 1..R, ``world.toml`` order) then
  ``[loot_resources]`` (wood, gel, cobweb, lens ...); id 0 is "no resource";
- equipment: ``[weapons]`` (weapons.toml) then ``[gear]`` (gear.toml);
- armor: ``[armor]`` without ``none`` (the bare character card, kept in ``armor.toml`` for
  the combat tables: the compiled characters carry their own defence dice);
- cards, minions, characters, consumables, houses, bestiary, chests, bosses: their tables.

Tray sections are ``biome * 5 + layer`` (biomes in :data:`BIOMES` order, layers
Surface..Underworld). A section's tokens are its day tokens then its night tokens
(``tray_night``); each pool lists the bestiary entries with their copies, then life
crystals (``TOKEN.CRYSTAL``), then fallen stars (``TOKEN.STAR``).

Readings settled here (the package docstring repeats them):

- TR-012: weapons and armor roll character dice, so their pools use sizes 4, 6, 8 and 12
  only, at most 3 of each; the enemy dice set is not printed: the bestiary file declares
  it (illustrative: 4, 6, 8, 10, 12, 20).
- TR-153 (open): the world loader refuses a stock that cannot fill its positions.
- ``EN.NIGHT`` is 0 for an entry with day tokens only, 1 for night tokens only and 2 for
  one with tokens in both pools; whether a token in the world is a night token (removed
  at sunrise, TR-083) is ``tray_night`` of the token it was drawn as.
- Debuff cards are ordinary cards of ``SHOP.DEBUFF`` whose effects are data: Poisoned
  costs 1 health when played (``CF.HURT``); On Fire! and Frozen are dead cards.
- The starting deck's Explore More is the same card as the Guide's (its ``COPIES`` are the
  Guide pile; the 4 starting decks are extra).
- TR-051, TR-432: each player's three starting cards (``[start_equipment]``: the copper
  set, or Journey Mode's iron set) come out of the equipment supply, so a game needs a
  copy of each per player (:func:`check_start_equipment`).
"""

from __future__ import annotations

import copy
import functools
from pathlib import Path
from typing import Any

import numpy as np

from simlib.core.datafile import file_stamp, read_toml
from simlib.errors import SimlibInputError
from simlib.games.terraria.settings import MOB_DEBUFFS, effective
from simlib.games.terraria.state import (
    AR,
    BH,
    BIOME,
    BIOME_NAMES,
    BO,
    BOSS_SPAWN,
    CC,
    CF,
    CFG,
    CHAINS,
    CO,
    COUNTER_NAMES,
    DEBUFF,
    DICE,
    EN,
    EQ,
    FEAT,
    HO,
    KIND,
    LAYER_NAMES,
    LAYERS,
    MAX_CARDS,
    MAX_HOUSES,
    MAX_ROUNDS,
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
    SQ,
    STATION_NAMES,
    TOKEN,
    TPL,
    TT,
    Tables,
    TablesFields,
    TablesRef,
)

__all__ = [
    "compile_settings",
    "check_start_equipment",
    "load_content",
    "load_world",
    "physical_tiles",
    "tile_text",
    "compile_world",
    "load_tables",
    "compile_tables",
    "table_names",
]


# === 1. the combat tables: weapons, armor, the bestiary =====================================
DATA_DIR = Path(__file__).parent / "data"
DEFAULT_FILES = {
    "weapons": "weapons.toml",
    "armor": "armor.toml",
    "bestiary": "bestiary.toml",
    "enemy_dice": "bestiary.toml",
}
# Rulebook, Components: "12 character dice (3 D4, 3 D6, 3 D8, 3 D12)" (TR-012).
CHARACTER_DICE = {4: 3, 6: 3, 8: 3, 12: 3}
RANGES = ("short", "medium", "long")
BIOMES = ("forest", "desert", "snow", "jungle", "corruption", "crimson")
TIMES = ("day", "night", "both")
MOVES = ("walking", "flying", "worm")
DEBUFFS = ("none", "poisoned", "on_fire", "frozen")
# Tables of a designer's file that the content tables read (section 3, skipped by the
# combat tables' loader), with their default files.
CONTENT_TABLES = {
    "cards": "cards.toml",
    "start_deck": "cards.toml",
    "gear": "gear.toml",
    "minions": "gear.toml",
    "start_equipment": "gear.toml",
    "characters": "characters.toml",
    "consumables": "consumables.toml",
    "houses": "houses.toml",
    "food": "houses.toml",
    "objectives": "objectives.toml",
    "still_hungry": "objectives.toml",
    "chests": "chests.toml",
    "bosses": "bosses.toml",
    "rules": "rules.toml",
    "time_track": "rules.toml",
    "loot_resources": "rules.toml",
    "tray": "bestiary.toml",
}
# Tables of a designer's file that the world tables read (section 2).
WORLD_TABLES = (
    "world",
    "stock",
    "resources",
    "terrain",
    "biome_terrain",
    "start_tiles",
    "legend",
    "platforms",
    "boss_squares",
)

_KEYS: dict[str, dict[str, type]] = {
    "weapons": {"name": str, "attack": list, "ranges": list, "los": bool, "source": str},
    "armor": {"name": str, "defense": list, "source": str},
    "bestiary": {
        "name": str,
        "biome": str,
        "layer": str,
        "time": str,
        "attack": list,
        "ranges": list,
        "defense": list,
        "wounds": int,
        "movement": int,
        "move": str,
        "debuff": str,
        "slime": bool,
        "coins": int,
    },
}
ALL_TABLES = (*DEFAULT_FILES, *WORLD_TABLES, *CONTENT_TABLES)
_OPTIONAL = {"source"}
# Optional keys read only by the content tables (type checked here, meaning checked there).
_CRAFT: dict[str, type] = {
    "recipe": list,
    "station": list,
    "craftable": bool,
    "copies": int,
    "tier": int,
    "evil": str,
}
_EXTRA: dict[str, dict[str, type]] = {
    "weapons": {**_CRAFT, "mana": int, "draw": int},
    "armor": {**_CRAFT, "hp": int, "atk": int, "draw": int, "mana": int, "immune": list,
              "mana_regen": int, "def": int},
    "bestiary": {"copies": int, "loot": list, "voodoo": bool},
}
# bestiary keys that may also be a list of names (the entry's tokens lie in each section)
_LISTABLE = {"biome", "layer"}
_CHOICES: dict[str, tuple[str, ...]] = {
    "biome": BIOMES,
    "layer": LAYER_NAMES,
    "time": TIMES,
    "move": MOVES,
    "debuff": DEBUFFS,
}
_BOUNDS = {
    "wounds": (1, 99),
    "movement": (0, 20),
    "coins": (0, 25),  # the coin dial tops at 25
    "copies": (0, 99),
    "tier": (0, 99),
    "mana": (0, 20),
    "mana_regen": (0, 20),
    "draw": (0, 9),
    "hp": (0, 20),
    "atk": (0, 20),
    "def": (0, 20),
}
EVILS = ("any", "corruption", "crimson")
_CHOICES["evil"] = EVILS


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _check_dice(where: str, dice: Any, sizes: tuple[int, ...] | None, limits: dict | None):
    if not isinstance(dice, list) or not dice or not all(_is_int(d) for d in dice):
        raise SimlibInputError(f"{where} must be a non-empty list of die sizes, e.g. [6, 4]")
    allowed: list[int] = sorted(limits) if limits else list(sizes or ())
    for d in dice:
        if d not in allowed:
            raise SimlibInputError(
                f"{where}: a d{d} is not allowed; die sizes: {', '.join(map(str, allowed))}"
            )
    if limits:
        for size, most in limits.items():
            if dice.count(size) > most:
                raise SimlibInputError(
                    f"{where}: {dice.count(size)} d{size}, but the character dice hold only "
                    f"{most} d{size} (3 D4, 3 D6, 3 D8, 3 D12)"
                )


def _validate_content(data: dict[str, Any], src: dict[str, str]) -> None:
    ed = data["enemy_dice"]
    where = f"{src['enemy_dice']}: enemy_dice"
    if not isinstance(ed, dict) or set(ed) != {"sizes"}:
        raise SimlibInputError(f"{where} must be a table with the one key 'sizes'")
    sizes = ed["sizes"]
    if (
        not isinstance(sizes, list)
        or not sizes
        or not all(_is_int(s) and 1 <= s <= 1000 for s in sizes)
    ):
        raise SimlibInputError(f"{where}.sizes must be a non-empty list of die sizes 1 to 1000")
    for table, keys in _KEYS.items():
        entries = data[table]
        if not isinstance(entries, dict) or not entries:
            raise SimlibInputError(
                f"{src[table]}: [{table}] must hold at least one entry, e.g. [{table}.some_id]"
            )
        for ident, entry in entries.items():
            where = f"{src[table]}: {table}.{ident}"
            if not isinstance(entry, dict):
                raise SimlibInputError(f"{where} must be a table ([{table}.{ident}])")
            extra = _EXTRA.get(table, {})
            for key in entry:
                if key not in keys and key not in extra:
                    raise SimlibInputError(
                        f"{where}: unknown key '{key}'; allowed: {', '.join((*keys, *extra))}"
                    )
            for key, kind in (*keys.items(), *extra.items()):
                if key not in entry:
                    if key in _OPTIONAL or key in extra:
                        continue
                    raise SimlibInputError(f"{where}: missing key '{key}'")
                value = entry[key]
                if table == "bestiary" and key in _LISTABLE and isinstance(value, list):
                    if not value or not all(isinstance(v, str) for v in value):
                        raise SimlibInputError(
                            f"{where}.{key} must be a name or a non-empty list of names"
                        )
                    values = value
                else:
                    ok = _is_int(value) if kind is int else isinstance(value, kind)
                    if not ok:
                        raise SimlibInputError(
                            f"{where}.{key} must be {kind.__name__}, got {value!r}"
                        )
                    values = [value]
                for v in values if key in _CHOICES else ():
                    if v not in _CHOICES[key]:
                        raise SimlibInputError(
                            f"{where}.{key}: '{v}' is not allowed; one of "
                            f"{', '.join(_CHOICES[key])}"
                        )
                if key in _BOUNDS:
                    lo, hi = _BOUNDS[key]
                    if not lo <= value <= hi:
                        raise SimlibInputError(f"{where}.{key} must be from {lo} to {hi}")
            if "ranges" in keys:
                r = entry["ranges"]
                if not r or any(x not in RANGES for x in r) or len(set(r)) != len(r):
                    raise SimlibInputError(
                        f"{where}.ranges must list distinct ranges from {', '.join(RANGES)}"
                    )
            if table == "bestiary":
                _check_dice(f"{where}.attack", entry["attack"], tuple(sizes), None)
                _check_dice(f"{where}.defense", entry["defense"], tuple(sizes), None)
            elif table == "weapons":
                _check_dice(f"{where}.attack", entry["attack"], None, CHARACTER_DICE)
            else:
                _check_dice(f"{where}.defense", entry["defense"], None, CHARACTER_DICE)


@functools.lru_cache(maxsize=16)
def _load_content(path: str | None, stamp: Any = None) -> dict[str, Any]:
    # ``stamp`` (``file_stamp(path)``) is only part of the cache key: an edited file is reread
    data: dict[str, Any] = {}
    src: dict[str, str] = {}
    for table, name in DEFAULT_FILES.items():
        data[table] = read_toml(DATA_DIR / name).get(table)
        src[table] = name
    if path is not None:
        over = read_toml(Path(path))
        for table, value in over.items():
            if table in WORLD_TABLES or table in CONTENT_TABLES:
                continue
            if table not in DEFAULT_FILES:
                raise SimlibInputError(
                    f"data file '{path}': unknown table '{table}'; allowed: {', '.join(ALL_TABLES)}"
                )
            data[table] = value
            src[table] = str(path)
    _validate_content(data, src)
    return data


def load_content(path: str | Path | None = None) -> dict[str, Any]:
    """Return the validated content tables, the defaults overridden by ``path``'s tables.

    Parameters
    ----------
    path : str or Path, optional
        A designer's TOML file holding any of ``[weapons]``, ``[armor]``, ``[bestiary]``,
        ``[enemy_dice]``; each table given replaces the default table whole.

    Returns
    -------
    dict
        ``{"weapons": {id: entry}, "armor": {...}, "bestiary": {...},
        "enemy_dice": {"sizes": [...]}}``, a fresh copy the caller may change.

    Raises
    ------
    SimlibInputError
        A missing or malformed file, an unknown table or key, or a bad value: one line
        naming the file, the entry and the key.

    """
    key = None if path is None else str(path)
    return copy.deepcopy(_load_content(key, file_stamp(key)))


# === 2. the world tables ======================================================================
WORLD_FILE = DATA_DIR / "world.toml"
PHYSICAL_TILES = 86  # rulebook, Components: "86 biome tiles" (TR-006)
START_KEYS = ("surface_left", "surface_centre", "surface_right", "underground")
_TERRAIN_KEYS = {
    "ground": int,
    "bumps": float,
    "block": float,
    "half": float,
    "resource": float,
    "cobweb": float,
    "chest": float,
    "chest_value": list,
    "spawn": list,
    "plants": list,
    "chop": list,
    "lava": int,
}
_RESERVED = set(".#/~BS=wCA123456789")
# [boss_squares] kinds and the FEAT flag each puts on its square (larva, orb, heart: blocks
# of their ``resource``; an altar: an open square standing on a block)
BOSS_SQUARES = {"larva": FEAT.LARVA, "altar": FEAT.ALTAR, "orb": FEAT.ORB, "heart": FEAT.ORB}
_PLANTS = ("tree", "cactus", "none")
NEEDED = np.array([3, 3, 3, 3, 3, 3, 2], dtype=np.int16)  # positions per biome and layer


# --- loading and validation -------------------------------------------------------------------
def _need(cond: bool, msg: str) -> None:
    if not cond:
        raise SimlibInputError(msg)


def _is_num(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _pair(where: str, v: Any, lo: int, hi: int) -> None:
    _need(
        isinstance(v, list)
        and len(v) == 2
        and all(_is_int(x) for x in v)
        and lo <= v[0] <= v[1] <= hi,
        f"{where} must be [lo, hi], integers {lo} <= lo <= hi <= {hi}",
    )


def _validate_world(data: dict[str, Any], src: dict[str, str]) -> None:
    """Check every world table, in a fixed order (``src``: the file each table came from).

    Raises ``SimlibInputError`` naming the file, table and key of the first bad value.
    """
    h, wd = _check_world_size(data["world"], f"{src['world']}: world")
    _check_stock(data["stock"], f"{src['stock']}: stock")
    res = data["resources"]
    _check_resources(res, f"{src['resources']}: resources")
    _check_terrain(data["terrain"], f"{src['terrain']}: terrain", h, wd)
    _check_biome_terrain(data["biome_terrain"], f"{src['biome_terrain']}: biome_terrain", res)
    leg = data["legend"]
    _check_legend(leg, f"{src['legend']}: legend", res)
    _check_start_tiles(data["start_tiles"], f"{src['start_tiles']}: start_tiles", h, wd, leg)
    _check_platforms(data["platforms"], f"{src['platforms']}: platforms")
    _validate_boss_squares(data["boss_squares"], f"{src['boss_squares']}: boss_squares", data)


def _check_world_size(w: Any, where: str) -> tuple[int, int]:
    """``[world]``: tile rows, tile columns and the tile seed. Returns ``(rows, cols)``."""
    _need(isinstance(w, dict), f"{where} must be a table")
    key: str
    for key, lo, hi in (("tile_rows", 3, 20), ("tile_cols", 3, 20), ("tile_seed", 0, 2**62)):
        _need(
            _is_int(w.get(key)) and lo <= w[key] <= hi,
            f"{where}.{key} must be an integer from {lo} to {hi}",
        )
    extra = set(w) - {"tile_rows", "tile_cols", "tile_seed"}
    _need(
        not extra,
        f"{where}: unknown key '{sorted(extra)[0] if extra else ''}'; allowed: "
        "tile_rows, tile_cols, tile_seed",
    )
    return w["tile_rows"], w["tile_cols"]


def _check_stock(st: Any, where: str) -> None:
    """``[stock]``: tiles per biome and layer, enough to fill every position (TR-153)."""
    _need(
        isinstance(st, dict) and set(st) == set(BIOME_NAMES),
        f"{where} must have exactly the keys {', '.join(BIOME_NAMES)}",
    )
    for b, name in enumerate(BIOME_NAMES):
        row = st[name]
        _need(
            isinstance(row, list) and len(row) == LAYERS and all(_is_int(x) for x in row),
            f"{where}.{name} must be 5 integers, one per layer (surface .. underworld)",
        )
        for layer, n in enumerate(row):
            need = int(NEEDED[b]) - (1 if (b == BIOME.FOREST and layer == 1) else 0)
            _need(
                need <= n <= 64,
                f"{where}.{name}: {LAYER_NAMES[layer]} holds {n} tiles; "
                f"allowed {need} to 64 (TR-153: every position must be fillable)",
            )
    _need(
        st["forest"][0] == 3,
        f"{where}.forest: the surface holds exactly the 3 starting "
        "tiles ([start_tiles]); set it to 3",
    )
    _need(
        st["corruption"] == st["crimson"],
        f"{where}: crimson must equal corruption (the "
        "crimson tiles are the reverse faces of the corruption tiles)",
    )


def _check_resources(res: Any, where: str) -> None:
    """``[resources]``: each resource's dig cost and whether it is structural."""
    _need(
        isinstance(res, dict) and 1 <= len(res) <= 100,
        f"{where} must hold 1 to 100 entries, e.g. [resources.copper]",
    )
    for name, r in res.items():
        _need(
            isinstance(r, dict) and set(r) == {"dig", "structural"},
            f"{where}.{name} must have exactly the keys dig, structural",
        )
        _need(_is_int(r["dig"]) and 1 <= r["dig"] <= 9, f"{where}.{name}.dig must be 1 to 9")
        _need(isinstance(r["structural"], bool), f"{where}.{name}.structural must be true or false")


def _check_terrain(ter: Any, where: str, h: int, wd: int) -> None:
    """``[terrain]``: the per-layer odds and ranges tiles are drawn from (``h x wd`` tiles)."""
    _need(
        isinstance(ter, dict) and set(ter) == set(LAYER_NAMES),
        f"{where} must have exactly the keys {', '.join(LAYER_NAMES)}",
    )
    for lname in LAYER_NAMES:
        t = ter[lname]
        wl = f"{where}.{lname}"
        _need(
            isinstance(t, dict) and set(t) == set(_TERRAIN_KEYS),
            f"{wl} must have exactly the keys {', '.join(_TERRAIN_KEYS)}",
        )
        for key in ("bumps", "block", "half", "resource", "cobweb", "chest"):
            _need(
                _is_num(t[key]) and 0.0 <= t[key] <= 1.0,
                f"{wl}.{key} must be a probability from 0 to 1",
            )
        _need(
            _is_int(t["ground"]) and 0 <= t["ground"] <= h - 1,
            f"{wl}.ground must be an integer from 0 to {h - 1}",
        )
        _need(
            _is_int(t["lava"]) and 0 <= t["lava"] <= h - 1,
            f"{wl}.lava must be an integer from 0 to {h - 1}",
        )
        _pair(f"{wl}.chest_value", t["chest_value"], 1, 9)
        _pair(f"{wl}.spawn", t["spawn"], 0, 4)
        _pair(f"{wl}.plants", t["plants"], 0, wd)
        _pair(f"{wl}.chop", t["chop"], 1, 9)
    _need(ter["surface"]["ground"] >= 1, f"{where}.surface.ground must be at least 1")


def _check_biome_terrain(bt: Any, where: str, res: dict[str, Any]) -> None:
    """``[biome_terrain]``: each biome's plant and per-layer resource mix (of ``res``)."""
    _need(
        isinstance(bt, dict) and set(bt) == set(BIOME_NAMES),
        f"{where} must have exactly the keys {', '.join(BIOME_NAMES)}",
    )
    for name in BIOME_NAMES:
        b = bt[name]
        wb = f"{where}.{name}"
        _need(
            isinstance(b, dict) and set(b) == {"plant", *LAYER_NAMES},
            f"{wb} must have exactly the keys plant, {', '.join(LAYER_NAMES)}",
        )
        _need(b["plant"] in _PLANTS, f"{wb}.plant must be one of {', '.join(_PLANTS)}")
        for lname in LAYER_NAMES:
            mix = b[lname]
            _need(
                isinstance(mix, list)
                and len(mix) >= 1
                and all(
                    isinstance(m, list)
                    and len(m) == 2
                    and m[0] in res
                    and _is_num(m[1])
                    and m[1] > 0
                    for m in mix
                ),
                f"{wb}.{lname} must be a list of [resource, weight > 0] with resources from "
                "[resources]",
            )


def _check_legend(leg: Any, where: str, res: dict[str, Any]) -> None:
    """``[legend]``: one letter per resource block of the starting tiles' drawings."""
    _need(isinstance(leg, dict), f"{where} must be a table")
    for ch, name in leg.items():
        _need(
            len(ch) == 1 and ch not in _RESERVED,
            f"{where}: key '{ch}' must be one character other than {''.join(sorted(_RESERVED))}",
        )
        _need(name in res, f"{where}.{ch}: '{name}' is not in [resources]")


def _check_start_tiles(stt: Any, where: str, h: int, wd: int, leg: dict[str, str]) -> None:
    """``[start_tiles]``: the four drawn starting tiles (butterflies, platform, spawns)."""
    _need(
        isinstance(stt, dict) and set(stt) == set(START_KEYS),
        f"{where} must have exactly the keys {', '.join(START_KEYS)}",
    )
    spawns = 0
    for key in START_KEYS:
        rows = stt[key]
        _need(
            isinstance(rows, list)
            and len(rows) == h
            and all(isinstance(r, str) and len(r) == wd for r in rows),
            f"{where}.{key} must be {h} strings of {wd} characters (world.tile_rows x "
            "world.tile_cols)",
        )
        for r in rows:
            for ch in r:
                _need(
                    ch in _RESERVED or ch in leg,
                    f"{where}.{key}: '{ch}' is not a square "
                    "code ('.', '#', '/', '~', 'B', 'S', '=', 'w', 'C', 'A', '1'..'9' or a "
                    "[legend] letter)",
                )
        text = "".join(rows)
        spawns += text.count("S")
        if key == "surface_centre":
            _need(text.count("B") == 4, f"{where}.{key} must have 4 butterfly squares 'B' (TR-053)")
            _need(text.count("=") == 1, f"{where}.{key} must have 1 platform '=' (TR-038)")
        else:
            _need("B" not in text, f"{where}.{key}: butterflies belong on surface_centre")
    _need(
        spawns == 2,
        f"{where}: the starting tiles must hold 2 spawn points 'S' (TR-039), not {spawns}",
    )


def _check_platforms(pl: Any, where: str) -> None:
    """``[platforms]``: the offsets a platform may be placed at (TR-222)."""
    _need(
        isinstance(pl, dict) and set(pl) == {"positions"},
        f"{where} must be a table with the one key 'positions'",
    )
    pos = pl["positions"]
    _need(
        isinstance(pos, list)
        and 1 <= len(pos) <= 9
        and all(
            isinstance(p, list) and len(p) == 2 and all(_is_int(x) and -1 <= x <= 1 for x in p)
            for p in pos
        )
        and len({tuple(p) for p in pos}) == len(pos),
        f"{where}.positions must list 1 to 9 distinct [rows down, columns right] offsets, "
        "each -1, 0 or 1",
    )


def _validate_boss_squares(bs: Any, where: str, data: dict[str, Any]) -> None:
    _need(
        isinstance(bs, dict) and set(bs) <= set(BOSS_SQUARES),
        f"{where} must be a table whose entries are among {', '.join(BOSS_SQUARES)}",
    )
    for kind, e in bs.items():
        wk = f"{where}.{kind}"
        keys = {"biomes", "layers", "per_stock"} | ({"resource"} if kind != "altar" else set())
        _need(
            isinstance(e, dict) and set(e) == keys,
            f"{wk} must have exactly the keys {', '.join(sorted(keys))}",
        )
        if kind != "altar":
            _need(
                e["resource"] in data["resources"],
                f"{wk}.resource: '{e['resource']}' is not in [resources]",
            )
        for key, allowed in (("biomes", BIOME_NAMES), ("layers", LAYER_NAMES)):
            _need(
                isinstance(e[key], list) and len(e[key]) >= 1 and set(e[key]) <= set(allowed),
                f"{wk}.{key} must be a list of {', '.join(allowed)}",
            )
        low = min(
            data["stock"][b][LAYER_NAMES.index(la)] for b in e["biomes"] for la in e["layers"]
        )
        _need(
            _is_int(e["per_stock"]) and 0 <= e["per_stock"] <= low,
            f"{wk}.per_stock must be an integer from 0 to {low} (the smallest listed stock)",
        )


@functools.lru_cache(maxsize=16)
def _load_world(path: str | None, stamp: Any = None) -> dict[str, Any]:
    # ``stamp`` (``file_stamp(path)``) is only part of the cache key: an edited file is reread
    base = read_toml(WORLD_FILE)
    data = {t: base.get(t) for t in WORLD_TABLES}
    src = {t: WORLD_FILE.name for t in WORLD_TABLES}
    if path is not None:
        over = read_toml(Path(path))
        for table, value in over.items():
            if table in DEFAULT_FILES or table in CONTENT_TABLES:
                continue  # the combat and content tables' loaders read those
            if table not in WORLD_TABLES:
                raise SimlibInputError(
                    f"data file '{path}': unknown table '{table}'; allowed: {', '.join(ALL_TABLES)}"
                )
            data[table] = value
            src[table] = str(path)
    _validate_world(data, src)
    return data


def load_world(path: str | Path | None = None) -> dict[str, Any]:
    """Return the validated world tables, the defaults overridden by ``path``'s tables.

    The defaults are ``data/world.toml``; each world table the designer's file holds
    replaces the default one whole.

    Raises ``SimlibInputError`` (one line naming the file, table and key) on bad input.
    """
    key = None if path in (None, "", "default") else str(path)
    return copy.deepcopy(_load_world(key, file_stamp(key)))


def physical_tiles(data: dict[str, Any]) -> int:
    """Number of physical biome tiles the tables describe (crimson = corruption's backs)."""
    st = data["stock"]
    return sum(sum(st[b]) for b in BIOME_NAMES if b != "crimson") + 1  # + starting tile


# --- compile: the fixed tile set --------------------------------------------------------------
def _draw_tile(
    rng: np.random.Generator, data: dict[str, Any], biome: str, layer: int, res_ids: dict[str, int]
) -> np.ndarray:
    """One tile template drawn from the terrain tables: int16 (4, h, w)."""
    h, w = data["world"]["tile_rows"], data["world"]["tile_cols"]
    t = data["terrain"][LAYER_NAMES[layer]]
    bt = data["biome_terrain"][biome]
    out = np.zeros((TPL.N, h, w), dtype=np.int16)
    sq = out[TPL.SQ]
    if layer == 0:
        for j in range(w):
            top = h - t["ground"]
            if rng.random() < t["bumps"]:
                top += 1 if rng.random() < 0.5 else -1
            top = min(max(top, 1), h - 1)
            sq[top:, j] = SQ.BLOCK
    else:
        sq[:, :] = np.where(rng.random((h, w)) < t["block"], SQ.BLOCK, SQ.AIR)
        if t["lava"] > 0:
            sq[h - 1, :] = SQ.BLOCK  # the floor under the lava
            for i in range(h - 1 - t["lava"], h - 1):
                sq[i, sq[i] == SQ.AIR] = SQ.LAVA
    for i in range(h - 1):
        for j in range(w):
            if sq[i, j] == SQ.AIR and sq[i + 1, j] == SQ.BLOCK and rng.random() < t["half"]:
                sq[i, j] = SQ.HALF
    mix = bt[LAYER_NAMES[layer]]
    names = [m[0] for m in mix]
    weights = np.array([m[1] for m in mix], dtype=float)
    weights /= weights.sum()
    for i in range(h):
        for j in range(w):
            if sq[i, j] == SQ.BLOCK and rng.random() < t["resource"]:
                out[TPL.RES, i, j] = res_ids[names[rng.choice(len(names), p=weights)]]
            if sq[i, j] == SQ.AIR and rng.random() < t["cobweb"]:
                out[TPL.FEAT, i, j] |= FEAT.COBWEB
    feat = out[TPL.FEAT]

    def standing() -> list[tuple[int, int]]:
        # free air squares on top of a block (or on the tile's floor)
        return [
            (i, j)
            for i in range(h)
            for j in range(w)
            if sq[i, j] == SQ.AIR
            and feat[i, j] & (FEAT.CHEST | FEAT.TREE | FEAT.SPAWN) == 0
            and (i == h - 1 or sq[i + 1, j] == SQ.BLOCK)
        ]

    if rng.random() < t["chest"]:
        spots = standing()
        if spots:
            i, j = spots[rng.integers(len(spots))]
            feat[i, j] |= FEAT.CHEST
            out[TPL.VAL, i, j] = rng.integers(t["chest_value"][0], t["chest_value"][1] + 1)
    if bt["plant"] != "none":
        for _ in range(int(rng.integers(t["plants"][0], t["plants"][1] + 1))):
            spots = standing()
            if spots:
                i, j = spots[rng.integers(len(spots))]
                feat[i, j] |= FEAT.TREE
                out[TPL.VAL, i, j] = rng.integers(t["chop"][0], t["chop"][1] + 1)
    for _ in range(int(rng.integers(t["spawn"][0], t["spawn"][1] + 1))):
        air = [
            (i, j)
            for i in range(h)
            for j in range(w)
            if sq[i, j] == SQ.AIR and feat[i, j] & (FEAT.SPAWN | FEAT.CHEST | FEAT.TREE) == 0
        ]
        if air:
            i, j = air[rng.integers(len(air))]
            feat[i, j] |= FEAT.SPAWN
    return out


def _trigger_feats(data: dict[str, Any], res_ids: dict[str, int]) -> dict[int, int]:
    """Resource id + 1 -> the FEAT flag of a boss trigger block of that resource."""
    return {
        res_ids[e["resource"]]: BOSS_SQUARES[kind]
        for kind, e in data["boss_squares"].items()
        if kind != "altar"
    }


def _add_boss_squares(
    tpls: list[np.ndarray], stock: np.ndarray, data: dict[str, Any], res_ids: dict[str, int]
) -> None:
    """Put the [boss_squares] into the first ``per_stock`` tiles of their stocks (in place).

    Drawn from their own generator (``tile_seed``, 1) after every tile is drawn, so the rest
    of each tile is the same with or without them.
    """
    rng = np.random.default_rng([data["world"]["tile_seed"], 1])
    for kind, e in data["boss_squares"].items():
        for bname in e["biomes"]:
            for lname in e["layers"]:
                b, layer = BIOME_NAMES.index(bname), LAYER_NAMES.index(lname)
                for k in range(e["per_stock"]):
                    t = tpls[int(stock[b, layer, k])]
                    sq, feat = t[TPL.SQ], t[TPL.FEAT]
                    h, w = sq.shape
                    if kind == "altar":
                        # an open square with no feature, standing on a block
                        spots = [
                            (i, j) for i in range(h - 1) for j in range(w)
                            if sq[i, j] == SQ.AIR and feat[i, j] == 0 and sq[i + 1, j] == SQ.BLOCK
                        ]  # fmt: skip
                        if not spots:  # make one: clear a square above a block
                            spots = [
                                (i, j) for i in range(h - 1) for j in range(w)
                                if feat[i, j] == 0 and feat[i + 1, j] == 0
                            ]  # fmt: skip
                        i, j = spots[rng.integers(len(spots))]
                        sq[i, j] = SQ.AIR
                        t[TPL.RES, i, j] = 0
                        if sq[i + 1, j] != SQ.BLOCK:
                            sq[i + 1, j] = SQ.BLOCK
                        feat[i, j] |= FEAT.ALTAR
                    else:
                        spots = [
                            (i, j) for i in range(h) for j in range(w)
                            if sq[i, j] == SQ.BLOCK and feat[i, j] == 0
                        ]  # fmt: skip
                        if not spots:  # make one out of a square with no feature
                            spots = [(i, j) for i in range(h) for j in range(w) if feat[i, j] == 0]
                        i, j = spots[rng.integers(len(spots))]
                        sq[i, j] = SQ.BLOCK
                        t[TPL.RES, i, j] = res_ids[e["resource"]]
                        t[TPL.VAL, i, j] = 0
                        feat[i, j] |= BOSS_SQUARES[kind]


def _parse_tile(
    rows: list[str], legend: dict[str, str], res_ids: dict[str, int], feats: dict[int, int]
) -> np.ndarray:
    h, w = len(rows), len(rows[0])
    out = np.zeros((TPL.N, h, w), dtype=np.int16)
    for i, row in enumerate(rows):
        for j, ch in enumerate(row):
            if ch == "#":
                out[TPL.SQ, i, j] = SQ.BLOCK
            elif ch == "/":
                out[TPL.SQ, i, j] = SQ.HALF
            elif ch == "~":
                out[TPL.SQ, i, j] = SQ.LAVA
            elif ch == "B":
                out[TPL.FEAT, i, j] = FEAT.BUTTERFLY
            elif ch == "S":
                out[TPL.FEAT, i, j] = FEAT.SPAWN
            elif ch == "=":
                out[TPL.FEAT, i, j] = FEAT.PLATFORM
            elif ch == "w":
                out[TPL.FEAT, i, j] = FEAT.COBWEB
            elif ch == "C":
                out[TPL.FEAT, i, j] = FEAT.CHEST
                out[TPL.VAL, i, j] = 1
            elif ch == "A":
                out[TPL.FEAT, i, j] = FEAT.ALTAR
            elif ch.isdigit():
                out[TPL.FEAT, i, j] = FEAT.TREE
                out[TPL.VAL, i, j] = int(ch)
            elif ch in legend:
                out[TPL.SQ, i, j] = SQ.BLOCK
                out[TPL.RES, i, j] = res_ids[legend[ch]]
                out[TPL.FEAT, i, j] = feats.get(res_ids[legend[ch]], 0)
    return out


def tile_text(tpl: np.ndarray, letters: dict[int, str] | None = None) -> list[str]:
    """Draw a template (int16 (4, h, w)) back as strings (for tests and debugging).

    ``letters`` maps resource id + 1 to its letter; by default resource 1 is 'a', 2 'b'...
    """
    rows = []
    for i in range(tpl.shape[1]):
        row = ""
        for j in range(tpl.shape[2]):
            s, r, f, v = (int(tpl[k, i, j]) for k in range(4))
            if s == SQ.BLOCK:
                if r == 0:
                    row += "#"
                elif letters is not None and r in letters:
                    row += letters[r]
                else:
                    row += chr(ord("a") + r - 1)
            elif s == SQ.HALF:
                row += "/"
            elif s == SQ.LAVA:
                row += "~"
            elif f & FEAT.BUTTERFLY:
                row += "B"
            elif f & FEAT.SPAWN:
                row += "S"
            elif f & FEAT.PLATFORM:
                row += "="
            elif f & FEAT.CHEST:
                row += "C"
            elif f & FEAT.ALTAR:
                row += "A"
            elif f & FEAT.TREE:
                row += str(v)
            elif f & FEAT.COBWEB:
                row += "w"
            else:
                row += "."
        rows.append(row)
    return rows


def compile_world(data: dict[str, Any]) -> tuple:
    """World tables -> the arrays the kernels read.

    Returns
    -------
    tuple
        ``(tpl, stock, stock_n, start, res_dig, res_struct, plat_pos)``:
        ``tpl`` int16 (4, T, h, w): planes square kind, resource id + 1, feature flags,
        value of every tile template; ``stock`` int16 (7, 5, M): the template indices of
        each biome x layer stock (``stock_n`` int16 (7, 5) of them); ``start`` int16 (4,):
        the starting tiles (surface left, centre, right, underground); ``res_dig`` int16
        (R + 1,): dig cost by resource id + 1 (index 0, a plain block: 1 dig, TR-172);
        ``res_struct`` int16 (R + 1,): 1 for structural resources; ``plat_pos`` int16
        (K, 2): where a platform may be placed, offsets of the square whose floor gets it.

    """
    res_names = list(data["resources"])
    res_ids = {n: i + 1 for i, n in enumerate(res_names)}
    rng = np.random.default_rng(data["world"]["tile_seed"])
    feats = _trigger_feats(data, res_ids)
    tpls: list[np.ndarray] = []
    for key in START_KEYS:
        tpls.append(_parse_tile(data["start_tiles"][key], data["legend"], res_ids, feats))
    start = np.arange(4, dtype=np.int16)
    st = data["stock"]
    m = max(max(st[b]) for b in BIOME_NAMES)
    stock = np.full((len(BIOME_NAMES), LAYERS, m), -1, dtype=np.int16)
    stock_n = np.zeros((len(BIOME_NAMES), LAYERS), dtype=np.int16)
    for b, name in enumerate(BIOME_NAMES):
        for layer in range(LAYERS):
            n = st[name][layer]
            for k in range(n):
                if b == BIOME.FOREST and layer == 0:
                    idx = (0, 1, 2)[k]  # the three starting surface tiles
                else:
                    idx = len(tpls)
                    tpls.append(_draw_tile(rng, data, name, layer, res_ids))
                stock[b, layer, k] = idx
            stock_n[b, layer] = n
    _add_boss_squares(tpls, stock, data, res_ids)
    tpl = np.ascontiguousarray(np.stack(tpls, axis=1))
    res_dig = np.array([1] + [data["resources"][n]["dig"] for n in res_names], dtype=np.int16)
    res_struct = np.array(
        [0] + [int(data["resources"][n]["structural"]) for n in res_names], dtype=np.int16
    )
    plat_pos = np.array(data["platforms"]["positions"], dtype=np.int16).reshape(-1, 2)
    return tpl, stock, stock_n, start, res_dig, res_struct, plat_pos


# === 3. the content tables ====================================================================
CHAIN_LEN = 10  # "10 Dig objective cards, 10 Fight objective cards, ..." (TR-008)
N_LAYERS = len(LAYER_NAMES)
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
def _load_tables(path: str | None, stamp: Any = None) -> tuple[dict[str, Any], dict[str, str]]:
    # ``stamp`` (``file_stamp(path)``) is only part of the cache key: an edited file is reread
    data = load_content(path)
    over = read_toml(Path(path)) if path is not None else {}
    src = {t: (str(path) if t in over else n) for t, n in DEFAULT_FILES.items()}
    files: dict[str, dict] = {}
    for table, name in CONTENT_TABLES.items():
        if name not in files:
            files[name] = read_toml(DATA_DIR / name)
        data[table] = copy.deepcopy(files[name].get(table))
        src[table] = name
    for table, value in over.items():
        if table in CONTENT_TABLES:
            data[table] = value
            src[table] = str(path)
    for table in CONTENT_TABLES:
        if data[table] is None:
            _fail(f"{src[table]}: the table [{table}] is missing")
    return data, src


def load_tables(content: str | Path | None = None) -> dict[str, Any]:
    """Return every content table (a fresh copy), the defaults overridden by ``content``.

    The tables are validated only by :func:`compile_tables` (names need the world's
    resources); :func:`load_content` checks the combat ones.
    """
    key = _key(content)
    data, _ = _load_tables(key, file_stamp(key))
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
    weapons = data["weapons"]  # checked by load_content
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
            _dice(f"{where}.attack", w["attack"], sorted(CHARACTER_DICE), CHARACTER_DICE),
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
                f"{where}.defense", a["defense"], sorted(CHARACTER_DICE), CHARACTER_DICE
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
                f"{where}.defense", c["defense"], sorted(CHARACTER_DICE), CHARACTER_DICE
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
                s = BIOMES.index(b) * N_LAYERS + LAYER_NAMES.index(la)
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
            b = BIOMES[s // N_LAYERS]
            _fail(
                f"{src['bestiary']}: [bestiary] puts {len(allt)} tokens in the {b} "
                f"{LAYER_NAMES[la]} tray section; at most {MAX_TOKENS}"
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
        b = _choice(f"{where}.biome", c["biome"], BIOMES)
        biome[i] = BIOMES.index(b)
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
def _compile_data(
    content: str | None, world: str | None, stamps: Any = None
) -> tuple[TablesFields, dict[str, list[str]]]:
    # ``stamps`` (the files' ``file_stamp``) are only part of the cache key
    data, src = _load_tables(content, file_stamp(content))
    wdata = load_world(world)
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
    tpl, stock, stock_n, start, res_dig, res_struct, plat_pos = compile_world(wdata)
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
        (``ALL_TABLES`` lists them). ``None``: the defaults in ``data/``.
    world : str or Path, optional
        The file whose world tables (``WORLD_TABLES``) to use; by default
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
    tables, _ = _compile_data(c, w, (file_stamp(c), file_stamp(w)))
    return Tables(*(np.array(a, copy=True) for a in tables))


def table_names(content: str | Path | None = None, world: str | Path | None = None) -> dict:
    """The entry ids of each compiled table in id order (``resources[0]`` is "none").

    Keys: resources, cards, equipment, armor, minions, characters, consumables, houses,
    bestiary, chests, bosses.
    """
    c = _key(content)
    w = _key(world) if world is not None else c
    return copy.deepcopy(_compile_data(c, w, (file_stamp(c), file_stamp(w)))[1])


# === 4. the settings ==========================================================================
def _data_path(data: str) -> str | None:
    """The ``data`` setting as a path (``None``: the default tables)."""
    return None if data in ("default", "") else data


def check_start_equipment(tab: Any, eff: dict[str, Any], data: str) -> None:
    """Refuse a game whose starting equipment the supply cannot give every player.

    Each player's three starting cards (``[start_equipment]``: the copper set, or Journey
    Mode's iron set, TR-051, TR-432) are taken out of the equipment supply at setup, so
    each needs at least one copy per player. ``tab`` is :func:`compile_tables`'s (a
    ``TablesRef``, whose fields numba adds at run time, hence ``Any``), ``eff`` is
    ``settings.effective``'s, ``data`` the setting (named in the message).
    """
    path = _data_path(data)
    names = table_names(path, path)["equipment"]
    key = "journey" if eff["iron_tools"] else "standard"
    for e in tab.start_equip[1 if eff["iron_tools"] else 0]:
        copies = int(tab.equip[e, EQ.COPIES])
        if copies < eff["players"]:
            raise SimlibInputError(
                f"data {data!r}: start_equipment.{key} gives each of {eff['players']} "
                f"players a {names[e]!r} but it has {copies} copies; allowed: copies of at "
                f"least {eff['players']}, or fewer players"
            )


def compile_settings(values: dict[str, Any]) -> tuple[TablesRef, np.ndarray]:
    """Resolved settings -> ``(tab, cfg)``: the compiled tables and the ``cfg`` array.

    ``tab`` is a fresh :class:`~simlib.games.terraria.state.Tables` of the run's data file
    (:func:`compile_tables`); ``cfg`` int64 (``CFG.N``,) the numbers of
    ``settings.effective`` and the readings, columns ``state.CFG``.
    """
    path = _data_path(values["data"])
    tab = compile_tables(path, path)
    eff = effective(values)
    check_start_equipment(tab, eff, values["data"])
    cfg = np.zeros(CFG.N, dtype=np.int64)
    cfg[CFG.PLAYERS] = eff["players"]
    cfg[CFG.CHAINS] = eff["chains_needed"]
    cfg[CFG.TOKENS] = eff["time_limit_tokens"]
    cfg[CFG.TOMBS] = eff["tombstones"]
    cfg[CFG.FALL_DAMAGE] = int(eff["fall_damage"])
    cfg[CFG.IRON] = int(eff["iron_tools"])
    cfg[CFG.ROPES] = eff["start_ropes"]
    cfg[CFG.EVIL] = {"random": -1, "corruption": BIOME.CORRUPTION,
                     "crimson": BIOME.CRIMSON}[values["evil_biome"]]
    cfg[CFG.CHECK] = int(values["check_invariants"])
    cfg[CFG.MAX_ROUNDS] = MAX_ROUNDS
    cfg[CFG.MOB_DEBUFF] = MOB_DEBUFFS.index(values["mob_debuff"])
    return tab, cfg
