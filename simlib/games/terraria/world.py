"""The Terraria world: tile tables, compiled arrays, the world generator and discovery.

Rulebook: World Generation, Minimap, Discovering the World, Drawing and Placing Biome Tiles.
The tables are ``data/world.toml``.

How a world comes about
-----------------------
1. Compile time (Python, once per data file): :func:`load_world` reads and validates the
   tables; :func:`compile_world` draws the fixed set of biome tiles (the "printed" set) from
   ``world.tile_seed`` and the per-layer terrain and per-biome resource tables, adds the
   four drawn starting tiles, puts the boss trigger squares of ``[boss_squares]`` (the
   Bee Larva, the altars, Shadow Orbs and Crimson Hearts: ``FEAT.LARVA``, ``FEAT.ALTAR``,
   ``FEAT.ORB``) into the first tiles of their stocks, and returns arrays.
2. Per game (numba, :func:`generate_world_nb`): Crimson or Corruption is chosen (TR-040),
   the 4 minimap tokens are shuffled face down onto the '?' spaces (TR-043), and every tile
   position gets a tile drawn without replacement from the stock of its biome and layer.
   All of this is hidden: only the 4 starting tiles are known (TR-036, TR-037).
   Drawing every position at setup instead of when it is discovered does not change the
   game: the next draw from a stock is uniform over the tiles left whichever order the
   positions are filled in, and the players see a tile only once it is discovered.
3. During play (numba, :func:`discover_nb`): a character entering a tile discovers the
   positions above, below, left and right of it (TR-144..147); a position in a column whose
   minimap token is still face down flips that token first (TR-150, TR-151).

Ocean columns (0 and 16) draw from the ocean stock of their layer (TR-152).
"""

from __future__ import annotations

import copy
import functools
from pathlib import Path
from typing import Any

import numpy as np

from simlib.core.datafile import file_stamp, read_toml
from simlib.core.jit import njit
from simlib.core.rng import randint_nb, shuffle_nb
from simlib.errors import SimlibInputError
from simlib.games.terraria.content import ALL_TABLES, CONTENT_TABLES, DEFAULT_FILES, WORLD_TABLES
from simlib.games.terraria.state import (
    BIOME,
    BIOME_NAMES,
    COLUMN_SLOT,
    FEAT,
    LAYER_NAMES,
    LAYERS,
    MINIMAP_SLOTS,
    SQ,
    START_LAYER_COLUMN,
    TILE_COLS,
    TP,
    P,
)

__all__ = [
    "WORLD_FILE",
    "PHYSICAL_TILES",
    "load_world",
    "compile_world",
    "physical_tiles",
    "tile_text",
    "generate_world_nb",
    "discover_nb",
]

WORLD_FILE = Path(__file__).parent / "data" / "world.toml"
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
TPL_SQ, TPL_RES, TPL_FEAT, TPL_VAL = 0, 1, 2, 3  # planes of the template array


# --- loading and validation -------------------------------------------------------------------


def _need(cond: bool, msg: str) -> None:
    if not cond:
        raise SimlibInputError(msg)


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


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


def _validate(data: dict[str, Any], src: dict[str, str]) -> None:
    w = data["world"]
    where = f"{src['world']}: world"
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
    h, wd = w["tile_rows"], w["tile_cols"]
    st = data["stock"]
    where = f"{src['stock']}: stock"
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
    res = data["resources"]
    where = f"{src['resources']}: resources"
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
    ter = data["terrain"]
    where = f"{src['terrain']}: terrain"
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
    bt = data["biome_terrain"]
    where = f"{src['biome_terrain']}: biome_terrain"
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
    leg = data["legend"]
    where = f"{src['legend']}: legend"
    _need(isinstance(leg, dict), f"{where} must be a table")
    for ch, name in leg.items():
        _need(
            len(ch) == 1 and ch not in _RESERVED,
            f"{where}: key '{ch}' must be one character other than {''.join(sorted(_RESERVED))}",
        )
        _need(name in res, f"{where}.{ch}: '{name}' is not in [resources]")
    stt = data["start_tiles"]
    where = f"{src['start_tiles']}: start_tiles"
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
    pl = data["platforms"]
    where = f"{src['platforms']}: platforms"
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
    _validate_boss_squares(data["boss_squares"], f"{src['boss_squares']}: boss_squares", data)


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
def _load(path: str | None, stamp: Any = None) -> dict[str, Any]:
    # ``stamp`` (``file_stamp(path)``) is only part of the cache key: an edited file is reread
    base = read_toml(WORLD_FILE)
    data = {t: base.get(t) for t in WORLD_TABLES}
    src = {t: WORLD_FILE.name for t in WORLD_TABLES}
    if path is not None:
        over = read_toml(Path(path))
        for table, value in over.items():
            if table in DEFAULT_FILES or table in CONTENT_TABLES:
                continue  # content.py and content_tables.py read those
            if table not in WORLD_TABLES:
                raise SimlibInputError(
                    f"data file '{path}': unknown table '{table}'; allowed: {', '.join(ALL_TABLES)}"
                )
            data[table] = value
            src[table] = str(path)
    _validate(data, src)
    return data


def load_world(path: str | Path | None = None) -> dict[str, Any]:
    """Return the validated world tables, the defaults overridden by ``path``'s tables.

    The defaults are ``data/world.toml``; each world table the designer's file holds
    replaces the default one whole.

    Raises ``SimlibInputError`` (one line naming the file, table and key) on bad input.
    """
    key = None if path in (None, "", "default") else str(path)
    return copy.deepcopy(_load(key, file_stamp(key)))


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
    out = np.zeros((4, h, w), dtype=np.int16)
    sq = out[TPL_SQ]
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
                out[TPL_RES, i, j] = res_ids[names[rng.choice(len(names), p=weights)]]
            if sq[i, j] == SQ.AIR and rng.random() < t["cobweb"]:
                out[TPL_FEAT, i, j] |= FEAT.COBWEB
    feat = out[TPL_FEAT]

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
            out[TPL_VAL, i, j] = rng.integers(t["chest_value"][0], t["chest_value"][1] + 1)
    if bt["plant"] != "none":
        for _ in range(int(rng.integers(t["plants"][0], t["plants"][1] + 1))):
            spots = standing()
            if spots:
                i, j = spots[rng.integers(len(spots))]
                feat[i, j] |= FEAT.TREE
                out[TPL_VAL, i, j] = rng.integers(t["chop"][0], t["chop"][1] + 1)
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
                    sq, feat = t[TPL_SQ], t[TPL_FEAT]
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
                        t[TPL_RES, i, j] = 0
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
                        t[TPL_RES, i, j] = res_ids[e["resource"]]
                        t[TPL_VAL, i, j] = 0
                        feat[i, j] |= BOSS_SQUARES[kind]


def _parse_tile(
    rows: list[str], legend: dict[str, str], res_ids: dict[str, int], feats: dict[int, int]
) -> np.ndarray:
    h, w = len(rows), len(rows[0])
    out = np.zeros((4, h, w), dtype=np.int16)
    for i, row in enumerate(rows):
        for j, ch in enumerate(row):
            if ch == "#":
                out[TPL_SQ, i, j] = SQ.BLOCK
            elif ch == "/":
                out[TPL_SQ, i, j] = SQ.HALF
            elif ch == "~":
                out[TPL_SQ, i, j] = SQ.LAVA
            elif ch == "B":
                out[TPL_FEAT, i, j] = FEAT.BUTTERFLY
            elif ch == "S":
                out[TPL_FEAT, i, j] = FEAT.SPAWN
            elif ch == "=":
                out[TPL_FEAT, i, j] = FEAT.PLATFORM
            elif ch == "w":
                out[TPL_FEAT, i, j] = FEAT.COBWEB
            elif ch == "C":
                out[TPL_FEAT, i, j] = FEAT.CHEST
                out[TPL_VAL, i, j] = 1
            elif ch == "A":
                out[TPL_FEAT, i, j] = FEAT.ALTAR
            elif ch.isdigit():
                out[TPL_FEAT, i, j] = FEAT.TREE
                out[TPL_VAL, i, j] = int(ch)
            elif ch in legend:
                out[TPL_SQ, i, j] = SQ.BLOCK
                out[TPL_RES, i, j] = res_ids[legend[ch]]
                out[TPL_FEAT, i, j] = feats.get(res_ids[legend[ch]], 0)
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


# --- per game ---------------------------------------------------------------------------------
@njit(refcount=False)
def _lay_tile_nb(tpl, t, layer, tcol, grid):
    h = tpl.shape[2]
    w = tpl.shape[3]
    r0 = layer * h
    c0 = tcol * w
    for i in range(h):
        for j in range(w):
            grid[P.SQ, r0 + i, c0 + j] = tpl[TPL_SQ, t, i, j]
            grid[P.RES, r0 + i, c0 + j] = tpl[TPL_RES, t, i, j]
            grid[P.FEAT, r0 + i, c0 + j] = tpl[TPL_FEAT, t, i, j]
            grid[P.VAL, r0 + i, c0 + j] = tpl[TPL_VAL, t, i, j]
            grid[P.PROG, r0 + i, c0 + j] = 0
            grid[P.OCC, r0 + i, c0 + j] = 0


@njit
def generate_world_nb(tpl, stock, stock_n, start, evil, grid, tiles, mini, drawn, state):
    """Lay out one game's world (hidden) and discover the 4 starting tiles.

    Parameters
    ----------
    tpl : int16 (4, T, h, w)
        Templates from :func:`compile_world` (read only).
    stock : int16 (7, 5, M)
        Template indices per biome x layer stock (read only).
    stock_n : int16 (7, 5)
        Stock sizes (read only).
    start : int16 (4,)
        The starting tiles (read only).
    evil : int
        ``BIOME.CORRUPTION``, ``BIOME.CRIMSON``, or -1 to draw one (TR-040).
    grid : int16 (P.N, 5 * h, 17 * w), written
        Every square of the world, laid out from the drawn templates; PROG and OCC cleared.
    tiles : int16 (TP.N, 5, 17), written
        Template, discovered flag and biome of each tile position.
    mini : int16 (2, 4), written
        Row 0: the biome token on each '?' space; row 1: face up (all 0 at setup).
    drawn : int16 (7, 5, M) scratch, written
        The stocks as drawn this game (a lazy Fisher-Yates per biome x layer).
    state : uint64 (4,), written
        Generator state. Draws, in order: the evil biome (one ``randint_nb(2)`` only when
        ``evil < 0``), the minimap shuffle (``shuffle_nb`` of 4 tokens), then one
        ``randint_nb`` per drawn tile, layers top to bottom, columns left to right.

    Returns
    -------
    int
        The evil biome of this game.

    """
    if evil < 0:
        evil = BIOME.CORRUPTION + randint_nb(2, state)
    # minimap: Jungle, Desert, Snow and the chosen evil biome (TR-042, TR-043)
    mini[0, 0] = BIOME.JUNGLE
    mini[0, 1] = BIOME.DESERT
    mini[0, 2] = BIOME.SNOW
    mini[0, 3] = evil
    shuffle_nb(mini[0], MINIMAP_SLOTS, state)
    for s in range(MINIMAP_SLOTS):
        mini[1, s] = 0
    for tc in range(TILE_COLS):
        slot = COLUMN_SLOT[tc]
        if tc == 0 or tc == TILE_COLS - 1:
            b = BIOME.OCEAN
        elif slot < 0:
            b = BIOME.FOREST
        else:
            b = mini[0, slot]
        for layer in range(LAYERS):
            tiles[TP.BIOME, layer, tc] = b
            tiles[TP.KNOWN, layer, tc] = 0
    for b in range(drawn.shape[0]):
        for layer in range(LAYERS):
            for k in range(stock_n[b, layer]):
                drawn[b, layer, k] = stock[b, layer, k]
    used = np.zeros((drawn.shape[0], LAYERS), dtype=np.int16)  # tiny, once per game
    for layer in range(LAYERS):
        for tc in range(TILE_COLS):
            b = tiles[TP.BIOME, layer, tc]
            if layer == 0 and b == BIOME.FOREST:
                t = start[tc - 7]  # the 3 Surface Forest tiles, as printed (TR-036)
            elif layer == 1 and tc == START_LAYER_COLUMN:
                t = start[3]  # the starting Underground tile (TR-037)
            else:
                k = used[b, layer]
                j = k + randint_nb(stock_n[b, layer] - k, state)
                t = drawn[b, layer, j]
                drawn[b, layer, j] = drawn[b, layer, k]
                drawn[b, layer, k] = t
                used[b, layer] = k + 1
            tiles[TP.TPL, layer, tc] = t
            _lay_tile_nb(tpl, t, layer, tc, grid)
    for tc in range(7, 10):
        tiles[TP.KNOWN, 0, tc] = 1
    tiles[TP.KNOWN, 1, START_LAYER_COLUMN] = 1
    return evil


@njit(refcount=False)
def discover_nb(tiles, mini, layer, tcol, out):
    """The discovery check made when a character enters tile ``(layer, tcol)`` (TR-144).

    The four positions above, below, left and right (never diagonal, TR-147; nothing above
    the Surface, below the Underworld or beyond the ocean, TR-146) that are not yet
    discovered become discovered; a position in a column whose minimap token is face down
    flips that token first (TR-150, TR-151).

    Parameters
    ----------
    tiles : int16 (TP.N, 5, 17)
        Written (the KNOWN plane).
    mini : int16 (2, 4)
        Written (row 1, face-up flags).
    layer : int
        Layer of the tile entered.
    tcol : int
        Tile column of the tile entered.
    out : int16 (4, 2), written
        The newly discovered positions ``(layer, tile column)``, first the returned count.

    Returns
    -------
    int
        How many positions were discovered (0..4).

    """
    n = 0
    for k in range(4):
        dl = -1 if k == 0 else (1 if k == 1 else 0)
        dc = -1 if k == 2 else (1 if k == 3 else 0)
        nl = layer + dl
        nc = tcol + dc
        if nl < 0 or nl >= LAYERS or nc < 0 or nc >= TILE_COLS:
            continue
        if tiles[TP.KNOWN, nl, nc] != 0:
            continue
        slot = COLUMN_SLOT[nc]
        if slot >= 0 and mini[1, slot] == 0:
            mini[1, slot] = 1
        tiles[TP.KNOWN, nl, nc] = 1
        out[n, 0] = nl
        out[n, 1] = nc
        n += 1
    return n
