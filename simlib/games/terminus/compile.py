"""Terminus Breach TD content tables (TOML) and resolved settings -> the kernel's arrays.

The compiled ``params`` tuple (layout documented in ``engine/config.py``) holds the map (path
squares, sites, distances), the tower level tables, blessings, the Drakka cards and
decks, bosses and their d20 tables, the Favor deck, the class charts and the seats.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from simlib.core.datafile import load_tables
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






#: Upper bounds of the content numbers: far above any sensible card, and safe for the
#: kernel's 32-bit counters (a game adds at most a few hundred of each).
COST_MAX = 100_000  # a tower level's GP cost
DAMAGE_MAX = 10_000  # a tower's Damage, a blessing's damage per Battle
RATE_MAX = 100  # shots per Defend phase (and a blessing's extra rate)
RANGE_MAX = MAX_PATH  # squares (a blessing's extra range too)
BLESS_MAX = 100  # blessings a Holy tower level bestows
TOUGH_MAX = 1_000_000  # a Drakka's or a boss's Toughness; a boss's spy/carnage damage, heal
BOUNTY_MAX = 100_000  # GP
THREAT_MAX = 1_000  # Panic Level steps
WEIGHT_MAX = 1_000  # a class chart weight
THRESHOLD_MAX = 1_000_000  # a class chart threshold
CRYSTALS_MAX = 10  # Charged Crystals of one colour at one level
FAVOR_MAX = 25  # copies of one Favor in the Favor deck
VERSION_MAX = 1_000_000
DRAW_MOD_MAX = MAX_DECK  # a Draw modifier (a Draw never draws more than the deck)
#: Most squares a boss's fear / petrify (towers), haste (squares) or heal (damage) names.
FX_MAX = {"fear": MAX_SITES, "petrify": MAX_SITES, "haste": MAX_PATH, "heal": TOUGH_MAX}


def _need(cond: Any, msg: str) -> None:
    if not cond:
        raise SimlibInputError(msg)


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _int_in(x: Any, lo: int, hi: int) -> bool:
    return _is_int(x) and lo <= x <= hi


def _number_upto(text: str, hi: int) -> bool:
    """True when ``text`` is an integer from 0 to ``hi`` in ASCII digits.

    ``str.isdigit`` also takes '²' or '٣', which ``int`` then refuses or reads; a long
    string is refused before ``int`` reads it.
    """
    return (0 < len(text) <= 12 and all("0" <= ch <= "9" for ch in text)
            and int(text) <= hi)


def load_data(path: str | None = "default") -> dict[str, Any]:
    """Return the validated content tables: the defaults, overridden by ``path`` if given.

    A designer's file may hold only the tables or keys it changes. Raises a one-line
    ``SimlibInputError`` naming the file, the key and what is allowed on any bad entry.
    Cached by the files' contents (:func:`simlib.core.datafile.load_tables`).
    """
    return load_tables(DEFAULT_DATA, path, _validate)


def parse_map(name: str, grid: Any, where: str = "data") -> dict[str, Any]:
    """Read a map picture: the ordered path squares and the sites beside it (TB-224)."""
    _need(isinstance(grid, list) and grid and all(isinstance(r, str) for r in grid),
          f"{where}: maps.{name}.grid must be a list of text rows")
    cells = {}
    for y, row in enumerate(grid):
        for x, ch in enumerate(row):
            _need(ch in "A#ZoRT.",
                  f"{where}: maps.{name}.grid row {y}: '{ch}' is not one of A # Z o R T .")
            cells[(x, y)] = ch
    starts = [c for c, ch in cells.items() if ch == "A"]
    ends = [c for c, ch in cells.items() if ch == "Z"]
    _need(len(starts) == 1 and len(ends) == 1,
          f"{where}: maps.{name}.grid needs exactly one A (entrance) and one Z (last square)")
    on_path = {c for c, ch in cells.items() if ch in "A#Z"}
    path = [starts[0]]
    seen = {starts[0]}
    while cells[path[-1]] != "Z":
        x, y = path[-1]
        nxt = [(x + dx, y + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
               if (x + dx, y + dy) in on_path and (x + dx, y + dy) not in seen]
        _need(len(nxt) == 1, f"{where}: maps.{name}.grid: the path must be one chain of "
              f"side-connected squares from A to Z; square ({x}, {y}) has {len(nxt)} ways on")
        path.append(nxt[0])
        seen.add(nxt[0])
    _need(len(path) == len(on_path), f"{where}: maps.{name}.grid: "
          f"{len(on_path) - len(path)} path squares are not on the chain from A to Z")
    _need(2 <= len(path) <= MAX_PATH, f"{where}: maps.{name}: the path has {len(path)} "
          f"squares; allowed 2 to {MAX_PATH}")
    kinds = {"o": SITE.SPOT, "R": SITE.ROCK, "T": SITE.TREE}
    sites = [(x, y, kinds[ch]) for (x, y), ch in sorted(cells.items(), key=lambda c: (
        c[0][1], c[0][0])) if ch in kinds]
    _need(1 <= len(sites) <= MAX_SITES, f"{where}: maps.{name}: {len(sites)} build spots "
          f"and terrain squares; allowed 1 to {MAX_SITES}")
    return {"path": path, "sites": sites}


def _validate(data: dict[str, Any], where: str) -> None:
    """Every key known, every number in range, every name defined; else one line."""
    chk = _Checker(where)
    known = ("version", "maps", "towers", "blessings", "drakka", "decks", "bosses", "favors",
             "classes")
    for key in data:
        chk.need(key in known, f"unknown table '{key}'; allowed: {', '.join(known)}")
    chk.need(_int_in(data.get("version"), 1, VERSION_MAX),
           f"version must be an integer from 1 to {VERSION_MAX}")
    _check_maps(chk, data)
    _check_towers(chk, data)
    _check_blessings(chk, data)
    cards = _check_drakka(chk, data)
    _check_decks(chk, data, cards)
    _check_bosses(chk, data)
    _check_favors(chk, data)
    _check_classes(chk, data)


class _Checker:
    """The checks a data file's tables share; each failure is one line naming ``where``."""

    def __init__(self, where: str) -> None:
        self.where = where

    def need(self, cond: Any, msg: str) -> None:
        """Refuse the file with ``msg`` unless ``cond``."""
        if not cond:
            raise SimlibInputError(f"{self.where}: {msg}")

    def table(self, value: Any, key: str) -> dict[str, Any]:
        """``value`` as the TOML table ``[key]``."""
        self.need(isinstance(value, dict), f"'{key}' must be a table ([{key}])")
        return value

    def only(self, value: dict[str, Any], allowed: Any, prefix: str) -> None:
        """Refuse a key of ``value`` not in ``allowed``."""
        for key in value:
            self.need(key in allowed,
                      f"unknown key '{prefix}{key}'; allowed: {', '.join(allowed)}")

    def ints(self, value: Any, key: str, bounds: Any, what: str) -> None:
        """``value`` a list of integers, each within its ``(lo, hi)`` of ``bounds``."""
        self.need(isinstance(value, list) and len(value) == len(bounds)
                  and all(_int_in(v, lo, hi) for v, (lo, hi) in zip(value, bounds, strict=True)),
                  f"{key} must be {what}")


def _span(lo: int, hi: int) -> str:
    return f"{lo} to {hi}"


#: A Drakka's or a boss's ``stats`` bounds, and how a message says them.
_STATS = ((1, MAX_PATH), (1, TOUGH_MAX), (0, BOUNTY_MAX), (0, THREAT_MAX), (0, 1))
_STATS_TEXT = (f"[speed, toughness, bounty, threat, flying]: speed {_span(1, MAX_PATH)}, "
               f"toughness {_span(1, TOUGH_MAX)}, bounty {_span(0, BOUNTY_MAX)}, threat "
               f"{_span(0, THREAT_MAX)}, flying 0 or 1")


def _check_maps(chk: _Checker, data: dict[str, Any]) -> None:
    """``[maps.NAME]``: a description and a grid that parses (one path, spots, terrain)."""
    maps = chk.table(data.get("maps", {}), "maps")
    chk.only(maps, MAPS, "maps.")
    for name in MAPS:
        m = chk.table(maps.get(name), f"maps.{name}")
        chk.only(m, ("description", "grid"), f"maps.{name}.")
        chk.need(isinstance(m.get("description", ""), str),
             f"maps.{name}.description must be a string")
        parse_map(name, m.get("grid"), chk.where)


def _check_towers(chk: _Checker, data: dict[str, Any]) -> None:
    """``[towers.RACE.LINE]``: 1 to MAX_LEVEL levels in range, names, copies."""
    towers = chk.table(data.get("towers", {}), "towers")
    chk.only(towers, RACE_NAMES, "towers.")
    shoot = ((1, COST_MAX), (0, DAMAGE_MAX), (0, RANGE_MAX), (1, RATE_MAX), (0, 10), (0, 4))
    holy = ((1, COST_MAX), (0, BLESS_MAX))
    for race in RACE_NAMES:
        t = chk.table(towers.get(race), f"towers.{race}")
        chk.only(t, LINE_NAMES, f"towers.{race}.")
        for li, line in enumerate(LINE_NAMES):
            key = f"towers.{race}.{line}"
            row = chk.table(t.get(line), key)
            chk.only(row, ("names", "copies", "levels"), f"{key}.")
            levels: Any = row.get("levels")
            chk.need(isinstance(levels, list) and 1 <= len(levels) <= MAX_LEVEL,
                 f"{key}.levels must list 1 to {MAX_LEVEL} levels")
            for k, lev in enumerate(levels):
                if li == 2:
                    chk.ints(lev, f"{key}.levels[{k}]", holy, "[cost, blessings]: cost "
                         f"{_span(1, COST_MAX)}, blessings {_span(0, BLESS_MAX)}")
                else:
                    chk.ints(lev, f"{key}.levels[{k}]", shoot,
                         f"[cost, damage, range, rate, poison, slow]: cost {_span(1, COST_MAX)}, "
                         f"damage {_span(0, DAMAGE_MAX)}, range {_span(0, RANGE_MAX)}, rate "
                         f"{_span(1, RATE_MAX)}, poison 0/1/3/10, slow 0 to 4")
                    chk.need(lev[4] in (0, 1, 3, 10),
                         f"{key}.levels[{k}]: poison must be 0, 1, 3 or 10 (TB-178)")
            names = row.get("names", [])
            chk.need(isinstance(names, list) and all(isinstance(n, str) for n in names)
                 and len(names) in (0, len(levels)),
                 f"{key}.names must list one name per level ({len(levels)})")
            chk.need(_int_in(row.get("copies"), 0, MAX_SITES),
                 f"{key}.copies must be an integer from 0 to {MAX_SITES}")


def _check_blessings(chk: _Checker, data: dict[str, Any]) -> None:
    """``[blessings.RACE]``: a Holy tower's blessing per race, each field in range."""
    blessings = chk.table(data.get("blessings", {}), "blessings")
    chk.only(blessings, RACE_NAMES, "blessings.")
    bounds = {"damage_per_battle": DAMAGE_MAX, "range": RANGE_MAX, "rate": RATE_MAX,
              "poison_up": 1}
    for race in RACE_NAMES:
        b = chk.table(blessings.get(race), f"blessings.{race}")
        chk.only(b, ("name", *bounds), f"blessings.{race}.")
        chk.need(isinstance(b.get("name", ""), str), f"blessings.{race}.name must be a string")
        for field, hi in bounds.items():
            chk.need(_int_in(b.get(field), 0, hi),
                 f"blessings.{race}.{field} must be an integer from 0 to {hi}")


def _check_drakka(chk: _Checker, data: dict[str, Any]) -> dict[str, Any]:
    """``[drakka.NAME]``: at least one card, each with a faction and its stats; the cards."""
    cards = chk.table(data.get("drakka", {}), "drakka")
    chk.need(cards, "drakka must name at least one card")
    for name, c in cards.items():
        c = chk.table(c, f"drakka.{name}")
        chk.only(c, ("faction", "stats"), f"drakka.{name}.")
        chk.need(isinstance(c.get("faction", ""), str), f"drakka.{name}.faction must be a string")
        chk.ints(c.get("stats"), f"drakka.{name}.stats", _STATS, _STATS_TEXT)
    return cards


def _check_decks(chk: _Checker, data: dict[str, Any], cards: dict[str, Any]) -> None:
    """``[decks.battleN]``: known Drakka cards, 1 to MAX_DECK cards a Battle."""
    decks = chk.table(data.get("decks", {}), "decks")
    battles = [f"battle{b}" for b in range(1, N_BATTLES + 1)]
    chk.only(decks, battles, "decks.")
    for key in battles:
        deck = chk.table(decks.get(key), f"decks.{key}")
        for name, k in deck.items():
            chk.need(name in cards, f"decks.{key}: '{name}' is not a drakka card; allowed: "
                 f"{', '.join(cards)}")
            chk.need(_int_in(k, 0, MAX_DECK),
                 f"decks.{key}.{name} must be an integer from 0 to {MAX_DECK}")
        total = sum(deck.values())
        chk.need(1 <= total <= MAX_DECK,
             f"decks.{key} has {total} cards; allowed 1 to {MAX_DECK}")


def _check_bosses(chk: _Checker, data: dict[str, Any]) -> None:
    """``[bosses.NAME]``: one boss per Battle 1-5, stats, spy and carnage, 20 d20 results."""
    bosses = chk.table(data.get("bosses", {}), "bosses")
    seen: dict[int, str] = {}
    for name, v in bosses.items():
        key = f"bosses.{name}"
        v = chk.table(v, key)
        chk.only(v, ("battle", "spy", "carnage", "stats", "d20"), f"{key}.")
        chk.need(_int_in(v.get("battle"), 1, N_BATTLES),
             f"{key}.battle must be an integer from 1 to {N_BATTLES}")
        chk.need(v["battle"] not in seen,
             f"{key}.battle: Battle {v['battle']} already has {seen.get(v['battle'])}; one "
             "boss per Battle")
        seen[v["battle"]] = name
        for field in ("spy", "carnage"):
            chk.need(_int_in(v.get(field), 0, TOUGH_MAX),
                 f"{key}.{field} must be an integer from 0 to {TOUGH_MAX}")
        chk.ints(v.get("stats"), f"{key}.stats", _STATS, _STATS_TEXT)
        d20: Any = v.get("d20")
        chk.need(isinstance(d20, list) and len(d20) == 20, f"{key}.d20 must list 20 results")
        for r in d20:
            _parse_fx(name, r, chk.where)
    missing = [b for b in range(1, N_BATTLES + 1) if b not in seen]
    chk.need(not missing, f"bosses: no boss for Battle {', '.join(map(str, missing))}; "
         "one boss for each Battle 1 to 5")


def _check_favors(chk: _Checker, data: dict[str, Any]) -> None:
    """``[favors]``: each Imperial Favour's price."""
    fav = chk.table(data.get("favors", {}), "favors")
    chk.only(fav, IMP_NAMES[:5], "favors.")
    for name in IMP_NAMES[:5]:
        chk.need(_int_in(fav.get(name), 0, FAVOR_MAX),
             f"favors.{name} must be an integer from 0 to {FAVOR_MAX}")


def _check_classes(chk: _Checker, data: dict[str, Any]) -> None:
    """``[classes.CLASS]``: counter weights, 3 increasing thresholds, crystals per level."""
    classes = chk.table(data.get("classes", {}), "classes")
    chk.only(classes, CLASS_NAMES, "classes.")
    for cname in CLASS_NAMES:
        key = f"classes.{cname}"
        c = chk.table(classes.get(cname), key)
        chk.only(c, ("weights", "thresholds", "crystals"), f"{key}.")
        w = chk.table(c.get("weights", {}), f"{key}.weights")
        chk.only(w, COUNTERS, f"{key}.weights.")
        for field in COUNTERS:
            chk.need(_int_in(w.get(field), 0, WEIGHT_MAX),
                 f"{key}.weights.{field} must be an integer from 0 to {WEIGHT_MAX}")
        th: Any = c.get("thresholds")
        chk.ints(th, f"{key}.thresholds", [(1, THRESHOLD_MAX)] * 3,
             f"3 increasing integers from 1 to {THRESHOLD_MAX}")
        chk.need(sorted(th) == th, f"{key}.thresholds must be 3 increasing integers from 1 to "
             f"{THRESHOLD_MAX}")
        cr: Any = c.get("crystals")
        chk.need(isinstance(cr, list) and len(cr) == 3,
             f"{key}.crystals must be 3 lists [white, pink, red]")
        for k, x in enumerate(cr):
            chk.ints(x, f"{key}.crystals[{k}]", [(0, CRYSTALS_MAX)] * 3,
                 f"[white, pink, red], each an integer from 0 to {CRYSTALS_MAX}")


def _parse_fx(name: str, text: Any, where: str = "data") -> tuple[int, int]:
    ok = isinstance(text, str)
    kind, sep, val = (text if ok else "").partition(":")
    if ok and kind == "none":
        ok = sep == ""
    else:
        ok = ok and kind in FX_MAX and _number_upto(val, FX_MAX[kind])
    _need(ok, f"{where}: bosses.{name}.d20: {text!r} is not allowed; expected none, "
          f"fear:N or petrify:N (N 0 to {MAX_SITES} towers), heal:N (0 to {TOUGH_MAX}) or "
          f"haste:N (0 to {MAX_PATH} squares)")
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
    """``"2,2,4,4,6"`` -> five ints from 0 to ``DRAW_MOD_MAX`` (TB-079..084), ASCII digits."""
    parts = [p.strip() for p in str(text).split(",")]
    ok = len(parts) == N_BATTLES and all(_number_upto(p, DRAW_MOD_MAX) for p in parts)
    _need(ok, f"setting 'draw_modifier': {text!r} is not allowed; expected five "
          f"comma-separated integers from 0 to {DRAW_MOD_MAX}, one per Battle (rulebook "
          "reading: 2,2,4,4,6)")
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
