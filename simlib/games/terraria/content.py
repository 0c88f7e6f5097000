"""Terraria content tables (TOML): weapons, armor sets, the bestiary; read and validated.

The defaults are ``data/weapons.toml``, ``data/armor.toml`` and ``data/bestiary.toml``
(illustrative, see their headers). A designer's file may hold any of the tables
``[weapons]``, ``[armor]``, ``[bestiary]`` and ``[enemy_dice]``; each table it holds
replaces the default table whole (copy the default file to extend it), the others keep
their defaults. Every entry is validated; a bad one is refused with one line naming the
file, the table, the entry and the key.

The same file may also hold the tables of :mod:`~simlib.games.terraria.world`
(``WORLD_TABLES``) and of :mod:`~simlib.games.terraria.content_tables` (``CONTENT_TABLES``:
cards, gear, characters, consumables, houses, objectives, chests, bosses, rules, ...);
this loader skips those, their own loaders read them. The optional keys of weapons,
armor and bestiary entries that only the compiled tables use (recipes, copies, tray
copies, loot, ...) are checked for type here and for meaning in ``content_tables``.
"""

from __future__ import annotations

import copy
import functools
from pathlib import Path
from typing import Any

from simlib.core.datafile import file_stamp, read_toml
from simlib.errors import SimlibInputError

__all__ = [
    "DATA_DIR",
    "DEFAULT_FILES",
    "CHARACTER_DICE",
    "RANGES",
    "BIOMES",
    "LAYERS",
    "TIMES",
    "MOVES",
    "DEBUFFS",
    "EVILS",
    "WORLD_TABLES",
    "CONTENT_TABLES",
    "ALL_TABLES",
    "load_content",
]

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
LAYERS = ("surface", "underground", "upper_cavern", "lower_cavern", "underworld")
TIMES = ("day", "night", "both")
MOVES = ("walking", "flying", "worm")
DEBUFFS = ("none", "poisoned", "on_fire", "frozen")
# Tables of a designer's file that :mod:`simlib.games.terraria.content_tables` reads
# (skipped here), with their default files.
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
# Tables of a designer's file that :mod:`simlib.games.terraria.world` reads (skipped here).
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
# Optional keys read only by ``content_tables`` (type checked here, meaning checked there).
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
    "layer": LAYERS,
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


def _validate(data: dict[str, Any], src: dict[str, str]) -> None:
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
def _load(path: str | None, stamp: Any = None) -> dict[str, Any]:
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
    _validate(data, src)
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
    return copy.deepcopy(_load(key, file_stamp(key)))
