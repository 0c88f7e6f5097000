"""Sub Terra content tables (TOML) and resolved settings -> the arrays the kernel reads."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from simlib.core.datafile import load_tables
from simlib.errors import SimlibInputError
from simlib.games.subterra.state import (
    ABILITY_NAMES,
    CFG,
    EFFECT_NAMES,
    HAZARD_NAMES,
    MAX_CAVERS,
    SHAPE,
    SHAPE_NAMES,
    STACK_MAX,
    TILE,
    TILE_NAMES,
    Compiled,
)

DATA_DIR = Path(__file__).parent / "data"
DEFAULT_DATA = DATA_DIR / "default.toml"
SHAPE_MASKS = (SHAPE.CROSS, SHAPE.T, SHAPE.STRAIGHT, SHAPE.CORNER, SHAPE.DEAD_END)
CAVE_TILE_TYPES = TILE_NAMES[2:]  # every type but start and exit
DIFFICULTIES = ("normal", "advanced", "expert")
REMOVED_BY = {"normal": ("normal",), "advanced": ("advanced",),
              "expert": ("advanced", "expert")}  # ST-023..026


#: Upper bound of every caver-board number (rank, health, ability cost and value): far
#: above any printed board, and safe for the kernel's 32-bit counters.
BOARD_MAX = 100
#: Upper bound of a deck_size entry and of the first-game bonus.
DECK_MAX = 1000


def load_data(path: str | None = "default") -> dict[str, Any]:
    """Return the validated content tables: the defaults, overridden by ``path`` if given.

    A designer's file may hold only the tables or keys it changes. Raises a one-line
    ``SimlibInputError`` naming the file, the key and what is allowed on any bad entry.
    Cached by the files' contents (:func:`simlib.core.datafile.load_tables`).
    """
    return load_tables(DEFAULT_DATA, path, _validate)


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _int_in(x: Any, lo: int, hi: int) -> bool:
    return _is_int(x) and lo <= x <= hi


def _validate(data: dict[str, Any], where: str) -> None:
    def need(cond: bool, msg: str) -> None:
        if not cond:
            raise SimlibInputError(f"{where}: {msg}")

    def table(key: str) -> dict[str, Any]:
        value = data.get(key, {})
        need(isinstance(value, dict), f"'{key}' must be a table ([{key}])")
        return value

    def only(value: dict[str, Any], allowed: Sequence[str], prefix: str) -> None:
        for key in value:
            need(key in allowed, f"unknown key '{prefix}{key}'; allowed: {', '.join(allowed)}")

    known = {"deck_size", "tiles", "cave_in_faces", "hazards", "effects", "cavers", "team"}
    for key in data:
        need(key in known, f"unknown table '{key}'; allowed: {', '.join(sorted(known))}")
    only(table("deck_size"), ("cavers", *DIFFICULTIES, "first_game_bonus"), "deck_size.")
    only(table("tiles"), (*CAVE_TILE_TYPES, "start_shape", "exit_shape"), "tiles.")
    only(table("cave_in_faces"), ("faces",), "cave_in_faces.")
    only(table("hazards"), ("cards",), "hazards.")
    only(table("effects"), ("plain", "severe"), "effects.")
    only(table("team"), ("default",), "team.")
    ds = table("deck_size")
    for key in ("cavers", *DIFFICULTIES):
        hi = MAX_CAVERS if key == "cavers" else DECK_MAX
        need(isinstance(ds.get(key), list) and len(ds[key]) >= 1
             and all(_int_in(v, 1, hi) for v in ds[key]),
             f"deck_size.{key} must be a list of integers from 1 to {hi}")
        need(len(ds[key]) == len(ds["cavers"]),
             f"deck_size.{key} must have one entry per deck_size.cavers entry "
             f"({len(ds['cavers'])})")
    need(len(set(ds["cavers"])) == len(ds["cavers"]), "deck_size.cavers lists a count twice")
    need(_int_in(ds.get("first_game_bonus"), 0, DECK_MAX),
         f"deck_size.first_game_bonus must be an integer from 0 to {DECK_MAX}")
    tiles = table("tiles")
    total = 0
    for name in CAVE_TILE_TYPES:
        row = tiles.get(name)
        need(isinstance(row, list) and len(row) == 6
             and all(_int_in(v, 0, STACK_MAX) for v in row),
             f"tiles.{name} must be 6 integers from 0 to {STACK_MAX}: count, cross, t, "
             "straight, corner, dead_end")
        assert isinstance(row, list)  # checked just above
        need(sum(row[1:]) == row[0],
             f"tiles.{name}: the shape counts add up to {sum(row[1:])}, not {row[0]}")
        if name in ("ledge", "slide"):
            need(row[0] == row[3], f"tiles.{name} tiles must all be straight")
        total += row[0]
    need(1 <= total <= STACK_MAX - 1, f"tiles: {total} cave tiles; allowed 1 to "
         f"{STACK_MAX - 1}")
    for key in ("start_shape", "exit_shape"):
        need(tiles.get(key) in SHAPE_NAMES, f"tiles.{key} must be one of {', '.join(SHAPE_NAMES)}")
    faces = table("cave_in_faces").get("faces")
    need(isinstance(faces, list) and len(faces) == tiles["cave_in"][0],
         f"cave_in_faces.faces needs one entry per cave_in tile ({tiles['cave_in'][0]})")
    assert isinstance(faces, list)  # checked just above
    for i, f in enumerate(faces):
        need(isinstance(f, list) and 1 <= len(f) <= 6 and all(_int_in(v, 1, 6) for v in f),
             f"cave_in_faces.faces[{i}] must be a list of 1 to 6 die numbers 1..6")
    cards = table("hazards").get("cards")
    need(isinstance(cards, list) and len(cards) >= 1,
         "hazards.cards must be a list of [type, severe, removal] cards")
    assert isinstance(cards, list)  # checked just above
    for i, card in enumerate(cards):
        need(isinstance(card, list) and len(card) == 3 and card[0] in HAZARD_NAMES
             and isinstance(card[1], bool) and card[2] in ("", "normal", "advanced", "expert"),
             f"hazards.cards[{i}] must be [type, severe, removal] with type one of "
             f"{', '.join(HAZARD_NAMES)}, severe true/false, removal '', 'normal', "
             "'advanced' or 'expert'")
    effects = table("effects")
    for kind in ("plain", "severe"):
        eff = effects.get(kind, {})
        need(isinstance(eff, dict), f"effects.{kind} must be a table")
        only(eff, EFFECT_NAMES, f"effects.{kind}.")
        for name in EFFECT_NAMES:
            need(_int_in(eff.get(name), 0, 20),
                 f"effects.{kind}.{name} must be an integer from 0 to 20")
    cavers = data.get("cavers")
    need(isinstance(cavers, list) and 1 <= len(cavers) <= MAX_CAVERS
         and all(isinstance(b, dict) for b in cavers),
         f"cavers must list 1 to {MAX_CAVERS} caver boards ([[cavers]] tables)")
    assert isinstance(cavers, list)  # checked just above
    names = []
    for i, b in enumerate(cavers):
        only(b, ("name", "rank", "health", "ability", "ability_cost", "ability_value"),
             f"cavers[{i}].")
        for key in ("rank", "health", "ability_cost", "ability_value"):
            lo = 1 if key == "health" else 0
            need(_int_in(b.get(key), lo, BOARD_MAX),
                 f"cavers[{i}].{key} must be an integer from {lo} to {BOARD_MAX}")
        need(b.get("ability") in ABILITY_NAMES,
             f"cavers[{i}].ability must be one of {', '.join(ABILITY_NAMES)}")
        need(isinstance(b.get("name"), str) and b["name"] != "",
             f"cavers[{i}].name must be a non-empty string")
        names.append(b["name"])
    ranks = [b["rank"] for b in cavers]
    need(len(set(ranks)) == len(ranks), "cavers: ranks must be distinct (ST-013)")
    need(len(set(names)) == len(names), "cavers: names must be distinct")
    team = table("team").get("default")
    need(isinstance(team, list) and all(isinstance(t, str) and t in names for t in team)
         and len(set(team)) == len(team) and len(team) >= 1,
         f"team.default must list distinct caver names from the cavers tables; allowed: "
         f"{', '.join(names)}")


def board_names(data: dict[str, Any]) -> list[str]:
    """Names of the caver boards, in data order."""
    return [b["name"] for b in data["cavers"]]


def deck_size(data: dict[str, Any], difficulty: str, cavers: int) -> int | None:
    """The printed hazard deck size for ``cavers`` x ``difficulty`` (None if not tabled)."""
    ds = data["deck_size"]
    if cavers not in ds["cavers"]:
        return None
    return int(ds[difficulty][ds["cavers"].index(cavers)])


def dealt_deck_size(data: dict[str, Any], values: dict[str, Any]) -> int | None:
    """The hazard deck a game deals.

    ``hazard_cards`` when set, else the printed table (plus the first game's bonus cards);
    None when the table has no entry for the cavers.
    """
    if values["hazard_cards"] is not None:
        return int(values["hazard_cards"])
    deck = deck_size(data, values["difficulty"], values["cavers"])
    if deck is None:
        return None
    return deck + (data["deck_size"]["first_game_bonus"] if values["first_game_bonus"] else 0)


def hazard_pool(data: dict[str, Any], difficulty: str) -> np.ndarray:
    """Ids of the hazard cards left in the pool at ``difficulty`` (ST-023..026)."""
    removed = REMOVED_BY[difficulty]
    return np.array([i for i, card in enumerate(data["hazards"]["cards"])
                     if card[2] not in removed], dtype=np.int32)


def team_boards(data: dict[str, Any], team: str, cavers: int) -> np.ndarray:
    """Board index per seat for ``team`` ("default", "random" or comma-separated names)."""
    names = board_names(data)
    if team == "random":
        return np.full(cavers, -1, dtype=np.int32)
    chosen = data["team"]["default"] if team == "default" else [
        s.strip() for s in team.split(",")]
    return np.array([names.index(n) for n in chosen[:cavers]], dtype=np.int32)


def compile_settings(values: dict[str, Any]) -> Compiled:
    """Resolved settings -> the ``params`` the kernels read (``state.Compiled``)."""
    data = load_data(values["data"])
    cavers = values["cavers"]
    difficulty = values["difficulty"]
    pool = hazard_pool(data, difficulty)
    deck = dealt_deck_size(data, values)
    assert deck is not None  # settings.validate refuses cavers the table lacks
    cfg = np.zeros(CFG.N, dtype=np.int64)
    cfg[CFG.CAVERS] = cavers
    cfg[CFG.DECK] = deck
    cfg[CFG.EXIT_DEPTH] = values["exit_depth"]
    cfg[CFG.OOT_RULE] = 0 if values["out_of_time_rule"] == "card" else 1
    tiles = data["tiles"]
    cfg[CFG.START_SHAPE] = SHAPE_MASKS[SHAPE_NAMES.index(tiles["start_shape"])]
    cfg[CFG.EXIT_SHAPE] = SHAPE_MASKS[SHAPE_NAMES.index(tiles["exit_shape"])]
    cfg[CFG.EXPLOSIVES] = values["explosives"]
    cfg[CFG.ROPES] = values["ropes"]
    cfg[CFG.START_SEAT] = values["start_seat"]
    cfg[CFG.CHECK] = 1 if values["check_invariants"] else 0
    cfg[CFG.HORROR_ORDER] = 1 if values["horror_order"] == "starting_caver" else 0
    rows = []
    faces = iter(data["cave_in_faces"]["faces"])
    for name in CAVE_TILE_TYPES:
        ty = TILE_NAMES.index(name)
        counts = tiles[name]
        for shape_i, k in enumerate(counts[1:]):
            for _ in range(k):
                f = 0
                if ty == TILE.CAVE_IN:
                    for v in next(faces):
                        f |= 1 << v
                rows.append((ty, SHAPE_MASKS[shape_i], f))
    stack_base = np.array(rows, dtype=np.int32).reshape(-1, 3)
    cards = np.array([(HAZARD_NAMES.index(c[0]), int(c[1])) for c in data["hazards"]["cards"]],
                     dtype=np.int32)
    effects = np.array([[data["effects"][k][e] for e in EFFECT_NAMES]
                        for k in ("plain", "severe")], dtype=np.int32)
    boards = np.array([(b["rank"], values["health"] or b["health"],
                        ABILITY_NAMES.index(b["ability"]), b["ability_cost"], b["ability_value"])
                       for b in data["cavers"]], dtype=np.int32)
    team = team_boards(data, values["team"], cavers)
    pool_counts = np.zeros((len(HAZARD_NAMES), 2), dtype=np.float64)
    for cid in pool:
        pool_counts[cards[cid, 0], 1 if cards[cid, 1] else 0] += 1.0
    mix = np.bincount(stack_base[:, 0], minlength=len(TILE_NAMES)).astype(np.int64)
    return Compiled(cfg=cfg, stack_base=stack_base, pool=pool, cards=cards, effects=effects,
                    boards=boards, team=team, pool_counts=pool_counts, tile_mix=mix)
