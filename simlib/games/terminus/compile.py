"""Terminus Breach TD content tables (TOML) and resolved settings -> the kernel's arrays.

The compiled ``params`` tuple (layout documented in ``engine/config.py``) holds the map (path
squares, sites, distances), the tower level tables, blessings, the Drakka cards and
decks, bosses and their d20 tables, the Favor deck, the class charts and the seats.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import numpy as np

from simlib.core.datafile import merge_tables, read_toml
from simlib.errors import SimlibInputError
from simlib.games.terminus.state import (
    BOSS_FX_NAMES,
    BSC,
    CARD,
    CLASS_NAMES,
    IMP_NAMES,
    LINE_NAMES,
    MAX_DECK,
    MAX_LEVEL,
    MAX_PATH,
    MAX_PLAYERS,
    MAX_SITES,
    N_BATTLES,
    RACE_NAMES,
    SITE,
    TSC,
)

DATA_DIR = Path(__file__).parent / "data"
DEFAULT_DATA = DATA_DIR / "default.toml"
MAPS = ("normal", "heroic", "legendary")
COUNTERS = ("kills", "bounty_tens", "petitions", "favors", "spy_networks", "war_chests",
            "tower_levels")
MAX_COVER = 16  # coverage table: path squares within range r, r = 0 .. MAX_COVER - 1

# --- printed rulebook figures (used as printed) ------------------------------------------
ALLOWANCE = 480  # TB-049..052: "Evenly Split the War Allowance of 480GP"
FAVOR_PRICE = 25  # TB-117: "25GP/Battle"
VP_PRICE = 100  # TB-203: "100GP/VP"
TAX = (50, 100, 150, 200, 400)  # TB-138..142 (Battle 5: setting tax_battle5, TB-143)
NETWORK_CARDS = (3, 5, 7)  # TB-134..136 and TB-144..146
NETWORK_VP = (10, 15, 20)  # TB-134..136
CHEST_GP = (150, 250, 400)  # TB-144..146
LEVEL_VP = (25, 50, 75)  # TB-215..217
SANCTION_COPIES = 2  # TB-122
PANIC_LIMIT = 10  # TB-213
CLEAR_FEE = 25  # TB-023
COMBUST = (2, 1)  # TB-148/149: per Battle, other races / Humans






def _need(cond: Any, msg: str) -> None:
    if not cond:
        raise SimlibInputError(msg)


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _ints(x: Any, n: int | None = None, lo: int = 0) -> bool:
    return (isinstance(x, list) and (n is None or len(x) == n)
            and all(_is_int(v) and v >= lo for v in x))


@functools.lru_cache(maxsize=16)
def load_data(path: str = "default") -> dict[str, Any]:
    """Return the validated content tables: the defaults, overridden by ``path`` if given.

    Raises ``SimlibInputError`` naming the table and key on any bad entry.
    """
    data = read_toml(DEFAULT_DATA, "data file")
    if path not in ("default", "", None):
        data = merge_tables(data, read_toml(Path(path), "data file"))
    _validate(data)
    return data


def parse_map(name: str, grid: Any) -> dict[str, Any]:
    """Read a map picture: the ordered path squares and the sites beside it (TB-224)."""
    _need(isinstance(grid, list) and grid and all(isinstance(r, str) for r in grid),
          f"data: maps.{name}.grid must be a list of text rows")
    cells = {}
    for y, row in enumerate(grid):
        for x, ch in enumerate(row):
            _need(ch in "A#Zo RT.".replace(" ", ""),
                  f"data: maps.{name}.grid row {y}: '{ch}' is not one of A # Z o R T .")
            cells[(x, y)] = ch
    starts = [c for c, ch in cells.items() if ch == "A"]
    ends = [c for c, ch in cells.items() if ch == "Z"]
    _need(len(starts) == 1 and len(ends) == 1,
          f"data: maps.{name}.grid needs exactly one A (entrance) and one Z (last square)")
    on_path = {c for c, ch in cells.items() if ch in "A#Z"}
    path = [starts[0]]
    seen = {starts[0]}
    while cells[path[-1]] != "Z":
        x, y = path[-1]
        nxt = [(x + dx, y + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
               if (x + dx, y + dy) in on_path and (x + dx, y + dy) not in seen]
        _need(len(nxt) == 1, f"data: maps.{name}.grid: the path must be one chain of "
              f"side-connected squares from A to Z; square ({x}, {y}) has {len(nxt)} ways on")
        path.append(nxt[0])
        seen.add(nxt[0])
    _need(len(path) == len(on_path), f"data: maps.{name}.grid: {len(on_path) - len(path)} "
          "path squares are not on the chain from A to Z")
    _need(2 <= len(path) <= MAX_PATH, f"data: maps.{name}: the path has {len(path)} squares; "
          f"allowed 2 to {MAX_PATH}")
    kinds = {"o": SITE.SPOT, "R": SITE.ROCK, "T": SITE.TREE}
    sites = [(x, y, kinds[ch]) for (x, y), ch in sorted(cells.items(), key=lambda c: (
        c[0][1], c[0][0])) if ch in kinds]
    _need(1 <= len(sites) <= MAX_SITES, f"data: maps.{name}: {len(sites)} build spots and "
          f"terrain squares; allowed 1 to {MAX_SITES}")
    return {"path": path, "sites": sites}


def _validate(data: dict[str, Any]) -> None:
    known = {"maps", "towers", "blessings", "drakka", "decks", "bosses", "favors", "classes"}
    for key in data:
        _need(key in known, f"data: unknown table '{key}'; allowed: {', '.join(sorted(known))}")
    for name in MAPS:
        _need(name in data.get("maps", {}), f"data: maps.{name} is missing")
        parse_map(name, data["maps"][name].get("grid"))
    for race in RACE_NAMES:
        t = data.get("towers", {}).get(race)
        _need(isinstance(t, dict), f"data: towers.{race} is missing")
        for li, line in enumerate(LINE_NAMES):
            row = t.get(line)
            _need(isinstance(row, dict), f"data: towers.{race}.{line} is missing")
            levels = row.get("levels")
            width = 2 if li == 2 else 6
            _need(isinstance(levels, list) and 1 <= len(levels) <= MAX_LEVEL
                  and all(_ints(lv, width) for lv in levels),
                  f"data: towers.{race}.{line}.levels must be 1 to {MAX_LEVEL} lists of "
                  f"{width} integers >= 0")
            _need(all(lv[0] >= 1 for lv in levels),
                  f"data: towers.{race}.{line}: every level costs at least 1 GP")
            if li < 2:
                _need(all(lv[3] >= 1 and lv[1] >= 0 for lv in levels),
                      f"data: towers.{race}.{line}: every level needs a rate >= 1")
                _need(all(lv[4] in (0, 1, 3, 10) and lv[5] <= 4 for lv in levels),
                      f"data: towers.{race}.{line}: poison must be 0, 1, 3 or 10 (TB-178) "
                      "and slow 0 to 4")
            _need(_is_int(row.get("copies")) and 0 <= row["copies"] <= MAX_SITES,
                  f"data: towers.{race}.{line}.copies must be an integer >= 0")
    for race in RACE_NAMES:
        b = data.get("blessings", {}).get(race)
        _need(isinstance(b, dict) and all(_is_int(b.get(k)) and b[k] >= 0 for k in (
            "damage_per_battle", "range", "rate", "poison_up")),
            f"data: blessings.{race} needs integers damage_per_battle, range, rate, poison_up")
    cards = data.get("drakka", {})
    _need(isinstance(cards, dict) and cards, "data: drakka must name at least one card")
    for name, c in cards.items():
        _need(isinstance(c, dict) and _ints(c.get("stats"), 5)
              and c["stats"][0] >= 1 and c["stats"][1] >= 1 and c["stats"][4] in (0, 1),
              f"data: drakka.{name}.stats must be [speed >= 1, toughness >= 1, bounty, "
              "threat, flying 0/1]")
    for b in range(1, N_BATTLES + 1):
        deck = data.get("decks", {}).get(f"battle{b}")
        _need(isinstance(deck, dict), f"data: decks.battle{b} is missing")
        for name, k in deck.items():
            _need(name in cards, f"data: decks.battle{b}: '{name}' is not a drakka card")
            _need(_is_int(k) and k >= 0, f"data: decks.battle{b}.{name} must be an integer")
        _need(sum(deck.values()) <= MAX_DECK,
              f"data: decks.battle{b} has {sum(deck.values())} cards; allowed at most {MAX_DECK}")
    bosses = data.get("bosses", {})
    battles = sorted(v["battle"] if _is_int(v.get("battle")) else 0
                     for v in bosses.values() if isinstance(v, dict))
    _need(battles == list(range(1, N_BATTLES + 1)),
          "data: bosses must hold one boss for each battle 1 to 5")
    for name, v in bosses.items():
        _need(_ints(v.get("stats"), 5) and v["stats"][0] >= 1 and v["stats"][1] >= 1,
              f"data: bosses.{name}.stats must be [speed, toughness, bounty, threat, flying]")
        _need(_is_int(v.get("spy")) and _is_int(v.get("carnage")),
              f"data: bosses.{name} needs integer spy and carnage damage")
        d20 = v.get("d20")
        _need(isinstance(d20, list) and len(d20) == 20,
              f"data: bosses.{name}.d20 must list 20 results")
        for r in d20:
            _parse_fx(name, r)
    fav = data.get("favors", {})
    for name in IMP_NAMES[:5]:
        _need(_is_int(fav.get(name)) and 0 <= fav[name] <= 25,
              f"data: favors.{name} must be an integer from 0 to 25")
    for cname in CLASS_NAMES:
        c = data.get("classes", {}).get(cname)
        _need(isinstance(c, dict), f"data: classes.{cname} is missing")
        w = c.get("weights", {})
        _need(all(_is_int(w.get(k)) and w[k] >= 0 for k in COUNTERS),
              f"data: classes.{cname}.weights needs integers {', '.join(COUNTERS)}")
        _need(_ints(c.get("thresholds"), 3, 1) and sorted(c["thresholds"]) == c["thresholds"],
              f"data: classes.{cname}.thresholds must be 3 increasing integers >= 1")
        _need(isinstance(c.get("crystals"), list) and len(c["crystals"]) == 3
              and all(_ints(x, 3) for x in c["crystals"]),
              f"data: classes.{cname}.crystals must be 3 lists [white, pink, red]")


def _parse_fx(name: str, text: Any) -> tuple[int, int]:
    ok = isinstance(text, str)
    kind, _, val = (text if ok else "").partition(":")
    ok = ok and kind in BOSS_FX_NAMES and (kind == "none" or val.isdigit())
    _need(ok, f"data: bosses.{name}.d20: '{text}' must be none, fear:N, petrify:N, heal:N "
          "or haste:N")
    return BOSS_FX_NAMES.index(kind), int(val) if val else 0


def compile_data(data: dict[str, Any], map_name: str) -> dict[str, Any]:
    """Content tables -> named arrays (the map ``map_name``)."""
    m = parse_map(map_name, data["maps"][map_name]["grid"])
    path = np.zeros((MAX_PATH, 2), np.int32)
    for i, (x, y) in enumerate(m["path"]):
        path[i] = (x, y)
    n_path = len(m["path"])
    sites = np.zeros((MAX_SITES, 3), np.int32)
    sdist = np.full((MAX_SITES, MAX_PATH), 1 << 20, np.int32)
    cover = np.zeros((MAX_SITES, MAX_COVER), np.int32)
    near = np.zeros((MAX_SITES, MAX_COVER, MAX_PATH), np.int32)
    for s, (x, y, kind) in enumerate(m["sites"]):
        sites[s] = (x, y, kind)
        for q, (px, py) in enumerate(m["path"]):
            sdist[s, q] = max(abs(px - x), abs(py - y))  # TB-014: Chebyshev
        for r in range(MAX_COVER):
            inside = [q for q in range(n_path - 1, -1, -1) if sdist[s, q] <= r]
            cover[s, r] = len(inside)
            near[s, r, :len(inside)] = inside
    lv = np.zeros((4, 3, MAX_LEVEL, TSC.N), np.int32)
    nlv = np.zeros((4, 3), np.int32)
    copies = np.zeros((4, 3), np.int32)
    for r, race in enumerate(RACE_NAMES):
        for li, line in enumerate(LINE_NAMES):
            row = data["towers"][race][line]
            nlv[r, li] = len(row["levels"])
            copies[r, li] = row["copies"]
            for k, lev in enumerate(row["levels"]):
                if li == 2:
                    lv[r, li, k, TSC.COST] = lev[0]
                    lv[r, li, k, TSC.BLESS] = lev[1]
                else:
                    cost, dmg, rng, rate, poison, slow = lev
                    lv[r, li, k, TSC.COST] = cost
                    lv[r, li, k, TSC.DMG] = dmg
                    lv[r, li, k, TSC.RANGE] = rng
                    lv[r, li, k, TSC.RATE] = rate
                    lv[r, li, k, TSC.FLY] = 1 if li == 0 else 0
                    lv[r, li, k, TSC.POISON] = poison
                    lv[r, li, k, TSC.SLOW] = slow
    bless = np.zeros((4, BSC.N), np.int32)
    for r, race in enumerate(RACE_NAMES):
        b = data["blessings"][race]
        bless[r] = (b["damage_per_battle"], b["range"], b["rate"], b["poison_up"])
    names = list(data["drakka"])
    boss_names = sorted(data["bosses"], key=lambda n: data["bosses"][n]["battle"])
    cards = np.zeros((len(names) + N_BATTLES, CARD.N), np.int32)
    for i, name in enumerate(names):
        sp, tough, bounty, threat, fly = data["drakka"][name]["stats"]
        cards[i, :5] = (sp, tough, bounty, threat, fly)
    boss_card = np.zeros(N_BATTLES, np.int32)
    boss_d20 = np.zeros((N_BATTLES, 20, 2), np.int32)
    for b, name in enumerate(boss_names):
        v = data["bosses"][name]
        i = len(names) + b
        cards[i, :5] = v["stats"]
        cards[i, CARD.BOSS] = 1
        cards[i, CARD.SPY_DMG] = v["spy"]
        cards[i, CARD.CARNAGE_DMG] = v["carnage"]
        boss_card[b] = i
        for k, text in enumerate(v["d20"]):
            boss_d20[b, k] = _parse_fx(name, text)
    decks = np.zeros((N_BATTLES, MAX_DECK), np.int32)
    deck_len = np.zeros(N_BATTLES, np.int32)
    for b in range(N_BATTLES):
        k = 0
        for name, n in data["decks"][f"battle{b + 1}"].items():
            for _ in range(n):
                decks[b, k] = names.index(name)
                k += 1
        deck_len[b] = k
    favors = np.array([data["favors"][n] for n in IMP_NAMES[:5]], np.int32)
    cls = np.zeros((3, len(COUNTERS) + 3), np.int32)
    crystals = np.zeros((3, 3, 3), np.int32)
    for c, cname in enumerate(CLASS_NAMES):
        row = data["classes"][cname]
        cls[c, :len(COUNTERS)] = [row["weights"][k] for k in COUNTERS]
        cls[c, len(COUNTERS):] = row["thresholds"]
        crystals[c] = row["crystals"]
    return dict(path=path, n_path=n_path, sites=sites, n_sites=len(m["sites"]), sdist=sdist,
                cover=cover, near=near, lv=lv, nlv=nlv, copies=copies, bless=bless, cards=cards,
                decks=decks, deck_len=deck_len, boss_card=boss_card, boss_d20=boss_d20,
                favors=favors, cls=cls, crystals=crystals)


def parse_draw_modifier(text: str) -> list[int]:
    """``"2,2,4,4,6"`` -> five non-negative ints (TB-079..084)."""
    parts = [p.strip() for p in str(text).split(",")]
    ok = len(parts) == N_BATTLES and all(p.isdigit() for p in parts)
    _need(ok, f"setting 'draw_modifier': {text!r} is not allowed; expected five "
          "comma-separated integers >= 0, one per Battle (rulebook reading: 2,2,4,4,6)")
    return [int(p) for p in parts]


def compile_settings(values: dict[str, Any]) -> tuple:
    """Resolved settings -> ``params`` tuple of arrays (layout in ``engine/config.py``)."""
    from simlib.games.terminus import engine

    data = load_data(values["data"])
    a = compile_data(data, values["map"])
    n = values["players"]
    cfg = np.zeros(engine.CFG_N, np.int64)
    cfg[engine.CFG_PLAYERS] = n
    cfg[engine.CFG_PATH_LEN] = a["n_path"]
    cfg[engine.CFG_SITES] = a["n_sites"]
    cfg[engine.CFG_TOUGH_RULE] = 0 if values["toughness_rule"] == "reach" else 1
    cfg[engine.CFG_POISON_CREDIT] = 1 if values["poison_kill"] == "poisoner" else 0
    cfg[engine.CFG_PANIC_START] = values["start_panic"]
    cfg[engine.CFG_PANIC_LIMIT] = values["panic_limit"]
    cfg[engine.CFG_CLEAR_BOARD] = 1 if values["clear_board"] else 0
    cfg[engine.CFG_FINAL_ALL] = 1 if values["final_vp_buy"] == "all" else 0
    cfg[engine.CFG_CRYSTAL_KEEP] = 1 if values["crystals"] == "keep" else 0
    cfg[engine.CFG_SELL_RULE] = 0 if values["sell_value"] == "cost" else 1
    cfg[engine.CFG_HOLY_DELAY] = values["treefolk_holy_delay"]
    cfg[engine.CFG_CLEAR_FEE] = values["human_clear_fee"]
    cfg[engine.CFG_ALLOWANCE] = values["war_allowance"]
    cfg[engine.CFG_FAVOR_PRICE] = FAVOR_PRICE
    cfg[engine.CFG_VP_PRICE] = VP_PRICE
    cfg[engine.CFG_SANCTIONS] = SANCTION_COPIES
    cfg[engine.CFG_CHECK] = 1 if values["check_invariants"] else 0
    cfg[engine.CFG_SHARED_TIE] = 1
    cfg[engine.CFG_LINEUP] = 1 if values["lineup"] == "random" else 0
    mods = parse_draw_modifier(values["draw_modifier"])
    tax = list(TAX)
    tax[4] = values["tax_battle5"]
    for b in range(N_BATTLES):
        cfg[engine.CFG_DRAW_MOD + b] = mods[b]
        cfg[engine.CFG_TAX + b] = tax[b]
    for k in range(3):
        cfg[engine.CFG_NET_CARDS + k] = NETWORK_CARDS[k]
        cfg[engine.CFG_NET_VP + k] = NETWORK_VP[k]
        cfg[engine.CFG_CHEST_GP + k] = CHEST_GP[k]
        cfg[engine.CFG_LEVEL_VP + k] = LEVEL_VP[k]
    if values["slow_ladder"] == "4321":  # TB-189
        down, keep = (0, 0, 1, 2, 3), (0, 1, 2, 3, 4)
    else:
        down, keep = (0, 0, 1, 0, 2), (0, 1, 2, 2, 4)
    for v in range(5):
        cfg[engine.CFG_SLOW_DOWN + v] = down[v]
        cfg[engine.CFG_SLOW_SET + v] = keep[v]
    worth, bcost = worth_table(a, values["human_clear_fee"])
    min_build = np.full((4, 3), 1 << 30, np.int32)
    for r in range(4):
        for li in range(3):
            allowed = bcost[r, li][bcost[r, li] >= 0]
            if allowed.size:
                min_build[r, li] = allowed.min()
    for r in range(4):
        cfg[engine.CFG_CHEAP + r] = min(int(a["lv"][r, li, k, TSC.COST]) for li in range(3)
                                        for k in range(a["nlv"][r, li]))
    seats = np.full((MAX_PLAYERS, 2), -1, np.int32)
    for s in range(n):
        seats[s, 0] = RACE_NAMES.index(values[f"race{s}"])
        seats[s, 1] = CLASS_NAMES.index(values[f"class{s}"])
    slow_down = np.array(down, np.int32)
    return (cfg, a["near"], a["sites"], a["sdist"], a["cover"], a["lv"], a["nlv"],
            a["copies"], a["bless"], a["cards"], a["decks"], a["deck_len"], a["boss_card"],
            a["boss_d20"], a["favors"], a["cls"], a["crystals"], seats, slow_down, worth, bcost,
            min_build)


def worth_table(a: dict[str, Any], clear_fee: int) -> tuple[np.ndarray, np.ndarray]:
    """Static tables for the Develop bots, computed once per setting.

    ``worth[race, line, k, site]``: a shooting tower's (damage + poison + slow) x rate x
    path squares within its range at level k + 1 on that site, or 8 x blessings for a Holy
    tower; ``bcost[race, line, site]``: GP to build level 1 there, -1 where not allowed.
    """
    from simlib.games.terminus import bots
    from simlib.games.terminus.towers import build_cost_nb, site_allows_nb

    worth = np.zeros((4, 3, MAX_LEVEL, MAX_SITES), np.float64)
    bcost = np.full((4, 3, MAX_SITES), -1, np.int32)
    lv, nlv, cover, sites = a["lv"], a["nlv"], a["cover"], a["sites"]
    for r in range(4):
        for li in range(3):
            for s in range(a["n_sites"]):
                if site_allows_nb(sites, s, r, li):
                    bcost[r, li, s] = build_cost_nb(lv, sites, r, li, s, clear_fee)
                for k in range(nlv[r, li]):
                    if li == 2:
                        worth[r, li, k, s] = 8.0 * lv[r, li, k, TSC.BLESS]
                    else:
                        worth[r, li, k, s] = bots.tower_value_nb(lv, cover[s], r, li, k + 1)
    return worth, bcost
