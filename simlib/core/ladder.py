"""The skill ladder: the same games played by the scripted bots and a search bot at rising budgets.

A balance figure is a product of the bot that played it. The ladder measures how much: for
each preset it plays the same seeds (so the same game indices, common random numbers) with
every scripted bot and with the game's ``search`` bot at each budget, and reports

* :meth:`Ladder.table` - per rung: bot, budget, games, wins, win rate with its 95% Wilson
  interval, and seconds per game (measured after a warm-up, so compiling is excluded);
* :meth:`Ladder.steps` - paired differences between consecutive search budgets and of every
  rung against the default bot, with Newcombe's interval and the exact McNemar p-value
  (:func:`simlib.compare`);
* :meth:`Ladder.headroom` - per preset: the default bot's rate, the best search rung's rate
  and their paired difference (how much of a difficulty figure is the bot), plus the rate at
  the largest budget (which, unlike the best rung, is not picked on the same games).

A game has a ladder when it declares a bot named ``search`` with a parameter ``budget``
(bounded by ``Bot.param_bounds``; budget 0 plays like the default bot). Every rung runs
exactly as ``simlib.run(game, preset=p, settings={**game.ladder_settings(), **settings},
bot=..., bot_params={"budget": b}, games=N, seed=seed)`` would.

Ladder folder (``out=DIR``)::

    DIR/ladder.json                 identity (game, engine version, presets, budgets, bots,
                                    seed, settings), games, per-rung timing, the three tables
    DIR/rungs/<rung>/               one resumable run folder per rung (simlib.core.runner),
                                    named like ``preset=normal,bot=search,budget=16``

Calling :func:`ladder` again with the same ``out`` resumes every rung; more ``games``
extends them. A folder holding another ladder (or anything else) is refused untouched.
"""

from __future__ import annotations

import math
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from simlib.core.checks import RUN_KWARGS, check_int, check_run_kwargs, check_seed
from simlib.core.cluster import shared_cluster
from simlib.core.game import Game
from simlib.core.outdir import existing_record, same_identity
from simlib.core.results import (
    RUN_FILE,
    Results,
    atomic_write_json,
    jsonable,
    list_chunks,
    present_ranges,
    read_json,
    value_label,
    value_text,
)
from simlib.core.runner import (
    RunPlan,
    check_out,
    compare,
    execute,
    resolve_run,
)
from simlib.errors import SimlibInputError
from simlib.games.registry import get_game

__all__ = [
    "ladder",
    "run_ladder",
    "resolve_ladder",
    "check_ladder_out",
    "Ladder",
    "LadderPlan",
    "Rung",
    "SEARCH_BOT",
    "BUDGET_PARAM",
    "DEFAULT_BUDGETS",
]

#: The bot every game with a ladder names ``search``.
SEARCH_BOT = "search"
#: Its parameter: rollouts (or plans tried) per decision; 0 plays like the default bot.
BUDGET_PARAM = "budget"
DEFAULT_BUDGETS = (0, 4, 16)
LADDER_FILE = "ladder.json"
RUNG_DIR = "rungs"
LADDER_FORMAT = 1
#: Games of the untimed warm-up before each rung (compiles or loads the kernels).
WARMUP_GAMES = 2
# What must match for a rerun to reuse a ladder folder (games may change: rungs extend).
IDENTITY_KEYS = (
    "game",
    "engine_version",
    "presets",
    "budgets",
    "bots",
    "seed",
    "settings",
    "ladder_settings",
)


@dataclass(frozen=True)
class RungPlan:
    """One rung, resolved: a preset and a bot (the search bot with a budget)."""

    preset: str
    bot: str
    budget: int | None
    plan: RunPlan

    @property
    def label(self) -> str:
        """``"steady"`` for a scripted bot, ``"search@16"`` for the search bot."""
        return self.bot if self.budget is None else f"{self.bot}@{self.budget}"

    @property
    def folder_name(self) -> str:
        """The rung's run folder under ``DIR/rungs/``."""
        name = f"preset={value_label(self.preset)},bot={value_label(self.bot)}"
        return name if self.budget is None else f"{name},budget={self.budget}"


@dataclass
class LadderPlan:
    """A validated ladder: every rung's run resolved before anything plays."""

    game: Game
    presets: list[str]
    budgets: list[int]
    bots: list[str]
    games: int
    seed: int
    settings: dict[str, Any]
    rungs: list[RungPlan]

    def identity(self) -> dict[str, Any]:
        """What a ladder folder must match to be resumed (JSON types)."""
        return jsonable(
            {
                "game": self.game.name,
                "engine_version": self.game.engine_version,
                "presets": self.presets,
                "budgets": self.budgets,
                "bots": self.bots,
                "seed": self.seed,
                "settings": self.settings,
                "ladder_settings": self.game.ladder_settings(),
            }
        )


@dataclass
class Rung:
    """One rung's games and timing.

    ``seconds`` is the wall time of the games played after the warm-up, ``games_timed``
    how many they were (a resumed rung adds to both; 0 when every game came from disk and
    no timing was stored).
    """

    preset: str
    bot: str
    budget: int | None
    results: Results
    seconds: float = 0.0
    games_timed: int = 0

    @property
    def label(self) -> str:
        """``"steady"`` for a scripted bot, ``"search@16"`` for the search bot."""
        return self.bot if self.budget is None else f"{self.bot}@{self.budget}"

    @property
    def seconds_per_game(self) -> float:
        """Mean wall time of one game (``nan`` when none was timed)."""
        return self.seconds / self.games_timed if self.games_timed else math.nan


# --- validation -----------------------------------------------------------------------------
def search_bounds(game: Game) -> tuple[int, int]:
    """The budgets ``game``'s search bot allows, or raise: a game without one has no ladder."""
    names = [b.name for b in game.bots]
    if SEARCH_BOT not in names:
        raise SimlibInputError(
            f"{game.name} has no '{SEARCH_BOT}' bot, so no skill ladder; its bots: "
            f"{', '.join(names)}"
        )
    bot = game.bot(SEARCH_BOT)
    if BUDGET_PARAM not in bot.params:
        raise SimlibInputError(
            f"{game.name}'s '{SEARCH_BOT}' bot has no '{BUDGET_PARAM}' parameter, so no "
            "skill ladder"
        )
    lo, hi = bot.param_bounds.get(BUDGET_PARAM, (0.0, math.inf))
    return max(0, math.ceil(lo)), (math.floor(hi) if math.isfinite(hi) else 2**31 - 1)


def check_budgets(game: Game, budgets: Any) -> list[int]:
    """Return ``budgets`` as distinct integers in ascending order, or raise naming them."""
    lo, hi = search_bounds(game)
    allowed = (
        f"a non-empty list of distinct integers from {lo} to {hi} (the {SEARCH_BOT} bot's "
        f"{BUDGET_PARAM})"
    )
    if isinstance(budgets, (str, bytes)) or not hasattr(budgets, "__iter__"):
        raise SimlibInputError(f"budgets: {budgets!r} is not allowed; expected {allowed}")
    values = list(budgets)
    if not values:
        raise SimlibInputError(f"budgets: none given; expected {allowed}")
    out = []
    for v in values:
        ok = isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))
        if not ok and isinstance(v, (float, np.floating)) and float(v).is_integer():
            v, ok = int(v), True
        if not ok or not lo <= int(v) <= hi:
            raise SimlibInputError(f"budgets: {v!r} is not allowed; expected {allowed}")
        out.append(int(v))
    dup = [v for v in out if out.count(v) > 1]
    if dup:
        raise SimlibInputError(f"budgets: {dup[0]} is listed twice; expected {allowed}")
    return sorted(out)


def _names(value: Any, key: str, known: list[str], what: str) -> list[str]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, (list, tuple)) or not value:
        raise SimlibInputError(f"{key}: expected a non-empty list of {what} names")
    out = []
    for v in value:
        if v not in known:
            raise SimlibInputError(
                f"{key}: {v!r} is not a {what} here; allowed: {', '.join(known)}"
            )
        if v in out:
            raise SimlibInputError(f"{key}: {v!r} is listed twice")
        out.append(v)
    return out


def resolve_ladder(
    game: str | Game,
    *,
    presets: Any = None,
    budgets: Any = DEFAULT_BUDGETS,
    games: Any,
    seed: Any = 0,
    settings: dict[str, Any] | None = None,
    bots: Any = None,
) -> LadderPlan:
    """Validate a ladder and resolve every rung's run; raise ``SimlibInputError`` on bad input."""
    g = get_game(game)
    budget_list = check_budgets(g, budgets)
    games = check_int("games", games, 1)
    seed = check_seed(seed)
    if settings is not None and not isinstance(settings, dict):
        raise SimlibInputError(
            f"settings: expected a dict of setting name -> value, not {type(settings).__name__}"
        )
    preset_list = (
        [g.default_preset]
        if presets is None
        else _names(presets, "presets", list(g.presets), "preset")
    )
    scripted = [b.name for b in g.bots if b.name != SEARCH_BOT]
    if bots is None:
        bot_list = scripted
    else:
        if bots == SEARCH_BOT or (isinstance(bots, (list, tuple)) and SEARCH_BOT in bots):
            raise SimlibInputError(
                f"bots: '{SEARCH_BOT}' is the ladder's own rung (see budgets); list scripted "
                f"bots only: {', '.join(scripted)}"
            )
        bot_list = _names(bots, "bots", scripted, "scripted bot")
    # the default bot is every ladder's reference rung
    bot_list = [g.default_bot] + [b for b in bot_list if b != g.default_bot]
    overrides = {**g.ladder_settings(), **dict(settings or {})}
    rungs = []
    for preset in preset_list:
        climb = [*((b, None) for b in bot_list), *((SEARCH_BOT, b) for b in budget_list)]
        for bot, budget in climb:
            plan = resolve_run(
                g,
                preset=preset,
                settings=overrides,
                bot=bot,
                bot_params=None if budget is None else {BUDGET_PARAM: budget},
                games=games,
                seed=seed,
            )
            rungs.append(RungPlan(preset, bot, budget, plan))
    return LadderPlan(
        g, preset_list, budget_list, bot_list, games, seed, dict(settings or {}), rungs
    )


# --- the folder -----------------------------------------------------------------------------
def _check_ladder_folder(folder: Path, plan: LadderPlan) -> dict | None:
    """Return the stored ``ladder.json`` when ``folder`` holds this ladder, ``None`` when new."""
    stored = existing_record(folder, LADDER_FILE, "skill ladder")
    if stored is None:
        return None
    if stored.get("simlib_ladder") != LADDER_FORMAT:
        raise SimlibInputError(f"'{folder / LADDER_FILE}' is not a ladder file written by simlib")
    same_identity(folder, stored, plan.identity(), IDENTITY_KEYS, "ladder")
    return stored


def check_ladder_out(plan: LadderPlan, out: str | os.PathLike) -> dict | None:
    """Check that ``out`` may hold ``plan``'s ladder, touching nothing (see :func:`ladder`).

    Returns the stored ``ladder.json`` when resuming, ``None`` for a new folder; raises
    ``SimlibInputError`` for a folder holding anything else.
    """
    folder = Path(out)
    stored = _check_ladder_folder(folder, plan)
    for r in plan.rungs:
        check_out(folder / RUNG_DIR / r.folder_name, r.plan)
    return stored


def _games_on_disk(folder: Path, games: int) -> int:
    if not (folder / RUN_FILE).is_file():
        return 0
    return sum(b - a for a, b in present_ranges(list_chunks(folder), games))


# --- running --------------------------------------------------------------------------------
def ladder(
    game: str | Game,
    *,
    presets: Any = None,
    budgets: Any = DEFAULT_BUDGETS,
    games: int,
    seed: int = 0,
    settings: dict[str, Any] | None = None,
    bots: Any = None,
    out: str | os.PathLike | None = None,
    **run_kwargs: Any,
) -> Ladder:
    """Play the skill ladder of ``game``: scripted bots and the search bot on the same seeds.

    Parameters
    ----------
    game : str or Game
        A game with a ``search`` bot (``simlib games GAME`` lists its bots).
    presets : list of str, optional
        Presets to climb; default the game's default preset.
    budgets : list of int, default (0, 4, 16)
        Search budgets, each within the search bot's ``budget`` bounds; played in
        ascending order.
    games : int
        Games per rung (game indices ``0 .. games-1``, the same for every rung).
    seed : int, default 0
        Run seed of every rung (common random numbers: the comparisons are paired).
    settings : dict, optional
        Setting overrides for every rung, over :meth:`Game.ladder_settings`.
    bots : list of str, optional
        Scripted bots to play; default every bot except ``search``. The default bot is
        always a rung (every step is measured against it).
    out : path, optional
        Ladder folder (resumable; see the module docstring).
    **run_kwargs
        ``backend``, ``scheduler``, ``chunk_size``, ``progress``, ``threads`` as in
        :func:`simlib.run`. On dask one cluster serves every rung.

    Returns
    -------
    Ladder
        Seconds per game are the wall time of each rung's run (settings compiled, records
        framed) after an untimed warm-up of a few games that compiles the kernels. On the
        dask backend there is no warm-up: the first rungs include the workers' compiling.

    Raises
    ------
    SimlibInputError
        A game without a search bot, a budget outside its bounds, an unknown preset, bot or
        setting, or an ``out`` folder holding something else (nothing is played then).

    """
    unknown = set(run_kwargs) - set(RUN_KWARGS)
    if unknown:
        raise SimlibInputError(
            f"ladder: unexpected argument '{sorted(unknown)[0]}'; allowed extra arguments: "
            + ", ".join(RUN_KWARGS)
        )
    plan = resolve_ladder(
        game, presets=presets, budgets=budgets, games=games, seed=seed, settings=settings,
        bots=bots,
    )
    return run_ladder(plan, out=out, **run_kwargs)


def run_ladder(
    plan: LadderPlan, out: str | os.PathLike | None = None, **run_kwargs: Any
) -> Ladder:
    """Play a resolved :class:`LadderPlan` (see :func:`ladder` for the arguments)."""
    check_run_kwargs(run_kwargs)
    folder = Path(out) if out is not None else None
    stored = check_ladder_out(plan, folder) if folder is not None else None
    rung_dirs = [
        folder / RUNG_DIR / r.folder_name if folder is not None else None for r in plan.rungs
    ]
    timing: dict[str, dict] = {
        str(t.get("name")): t for t in (stored or {}).get("rungs", []) if isinstance(t, dict)
    }
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
        _write_file(folder, plan, timing, complete=False)

    local = run_kwargs.get("backend", "local") == "local"
    with shared_cluster(run_kwargs) as shared:  # one cluster for every rung
        rungs = _play_rungs(plan, folder, rung_dirs, timing, local, shared)
    result = Ladder.from_plan(plan, rungs, str(folder) if folder is not None else None)
    if folder is not None:
        _write_file(folder, plan, timing, complete=True, ladder_obj=result)
    return result


def _play_rungs(
    plan: LadderPlan,
    folder: Path | None,
    rung_dirs: list[Path | None],
    timing: dict[str, dict],
    local: bool,
    run_kwargs: dict[str, Any],
) -> list[Rung]:
    """Play every rung in order (each resumable), timing the games played after a warm-up."""
    rungs: list[Rung] = []
    for i, (r, d) in enumerate(zip(plan.rungs, rung_dirs, strict=True)):
        before = _games_on_disk(d, plan.games) if d is not None else 0
        todo = plan.games - before
        if todo and local:
            # untimed warm-up: compiles (or loads) the kernels this rung uses
            warm = resolve_run(
                plan.game, preset=r.preset, settings=r.plan.values, bot=r.bot,
                bot_params=r.plan.params, games=min(WARMUP_GAMES, plan.games), seed=plan.seed,
            )
            execute(warm, progress=False, threads=run_kwargs.get("threads"))
        t0 = time.perf_counter()
        res = execute(
            r.plan, out=d, desc=f"[{i + 1}/{len(plan.rungs)}] {r.preset} {r.label}",
            **run_kwargs,
        )
        elapsed = time.perf_counter() - t0
        old = timing.get(r.folder_name, {})
        seconds, timed = float(old.get("seconds", 0.0)), int(old.get("games_timed", 0))
        if before == 0:  # a new (or emptied) rung folder: earlier timing is of other games
            seconds, timed = 0.0, 0
        if todo:
            seconds, timed = seconds + elapsed, timed + todo
        rung = Rung(r.preset, r.bot, r.budget, res, seconds, timed)
        rungs.append(rung)
        timing[r.folder_name] = {"name": r.folder_name, "seconds": seconds, "games_timed": timed}
        if folder is not None:
            _write_file(folder, plan, timing, complete=False)
    return rungs


def _write_file(
    folder: Path,
    plan: LadderPlan,
    timing: dict[str, dict],
    *,
    complete: bool,
    ladder_obj: Ladder | None = None,
) -> None:
    from simlib.core.results import simlib_version

    record: dict[str, Any] = {
        "simlib_ladder": LADDER_FORMAT,
        **plan.identity(),
        "title": plan.game.title or plan.game.name,
        "default_bot": plan.game.default_bot,
        "games": plan.games,
        "rungs": [
            {
                "name": r.folder_name,
                "preset": r.preset,
                "bot": r.bot,
                "budget": r.budget,
                "folder": f"{RUNG_DIR}/{r.folder_name}",
                "seconds": timing.get(r.folder_name, {}).get("seconds", 0.0),
                "games_timed": timing.get(r.folder_name, {}).get("games_timed", 0),
            }
            for r in plan.rungs
        ],
        "complete": complete,
        "simlib_version": simlib_version(),
    }
    if ladder_obj is not None:
        record["table"] = _records(ladder_obj.table())
        record["steps"] = _records(ladder_obj.steps())
        record["headroom"] = _records(ladder_obj.headroom())
    atomic_write_json(folder / LADDER_FILE, record)


def _records(df: pd.DataFrame) -> list[dict[str, Any]]:
    rows = []
    for row in df.to_dict(orient="records"):
        clean = {}
        for k, v in row.items():
            if v is pd.NA or (isinstance(v, float) and math.isnan(v)):
                v = None
            elif isinstance(v, np.generic):
                v = v.item()
            clean[str(k)] = v
        rows.append(clean)
    return jsonable(rows)


# --- the result -----------------------------------------------------------------------------
@dataclass
class Ladder:
    """A played skill ladder: its rungs and the tables that summarise them.

    Attributes
    ----------
    game : str
    title : str
    engine_version : str
    presets, budgets, bots : list
        As played (``bots`` are the scripted ones, the default bot first).
    default_bot : str
    games, seed : int
    settings : dict
        The overrides given (``ladder_settings`` holds the game's own ladder overrides).
    rungs : list of Rung
        In order: per preset, the scripted bots, then the search bot by ascending budget.
    readings : list of dict
        The open readings every rung used: ``name``, ``rule``, ``value`` (``values`` per
        preset when presets differ).
    out : str or None
        The ladder folder.

    """

    game: str
    title: str
    engine_version: str
    presets: list[str]
    budgets: list[int]
    bots: list[str]
    default_bot: str
    games: int
    seed: int
    settings: dict[str, Any]
    ladder_settings: dict[str, Any]
    rungs: list[Rung]
    readings: list[dict[str, Any]] = field(default_factory=list)
    out: str | None = None

    @classmethod
    def from_plan(cls, plan: LadderPlan, rungs: list[Rung], out: str | None) -> Ladder:
        """Build the ladder of ``plan``'s played ``rungs``."""
        g = plan.game
        return cls(
            game=g.name,
            title=g.title or g.name,
            engine_version=g.engine_version,
            presets=list(plan.presets),
            budgets=list(plan.budgets),
            bots=list(plan.bots),
            default_bot=g.default_bot,
            games=plan.games,
            seed=plan.seed,
            settings=dict(plan.settings),
            ladder_settings=dict(g.ladder_settings()),
            rungs=rungs,
            readings=_ladder_readings(g, plan),
            out=out,
        )

    @classmethod
    def load(cls, path: str | os.PathLike) -> Ladder:
        """Read a ladder folder written by :func:`ladder` (every rung must be present)."""
        folder = Path(path)
        if not (folder / LADDER_FILE).is_file():
            raise SimlibInputError(f"'{path}' is not a ladder folder (no {LADDER_FILE})")
        stored = read_json(folder / LADDER_FILE, "ladder file")
        if stored.get("simlib_ladder") != LADDER_FORMAT:
            raise SimlibInputError(
                f"'{folder / LADDER_FILE}' is not a ladder file written by simlib"
            )
        plan = resolve_ladder(
            stored["game"], presets=stored["presets"], budgets=stored["budgets"],
            games=stored["games"], seed=stored["seed"], settings=stored["settings"],
            bots=stored["bots"],
        )
        timing = {t["name"]: t for t in stored.get("rungs", [])}
        rungs = []
        for r in plan.rungs:
            d = folder / RUNG_DIR / r.folder_name
            if not (d / RUN_FILE).is_file():
                raise SimlibInputError(
                    f"ladder folder '{folder}' is unfinished (rung {r.folder_name} missing); "
                    "run the ladder again to finish it"
                )
            t = timing.get(r.folder_name, {})
            rungs.append(
                Rung(r.preset, r.bot, r.budget, Results.load(d), float(t.get("seconds", 0.0)),
                     int(t.get("games_timed", 0)))
            )
        lad = cls.from_plan(plan, rungs, str(folder))
        lad.engine_version = str(stored.get("engine_version", lad.engine_version))
        return lad

    @property
    def complete(self) -> bool:
        """True when every rung holds all ``games`` games (False for an interrupted ladder)."""
        return all(len(r.results.df) >= self.games for r in self.rungs)

    # --- lookups --------------------------------------------------------------------------
    def rung(self, preset: str, bot: str, budget: int | None = None) -> Rung:
        """Return the rung of ``bot`` (with ``budget`` for the search bot) on ``preset``."""
        for r in self.rungs:
            if r.preset == preset and r.bot == bot and r.budget == budget:
                return r
        raise SimlibInputError(
            f"rung {bot if budget is None else f'{bot}@{budget}'} on preset '{preset}' is "
            f"not in this ladder; rungs: {', '.join(sorted({r.label for r in self.rungs}))}"
        )

    def _of(self, preset: str) -> list[Rung]:
        return [r for r in self.rungs if r.preset == preset]

    # --- tables ---------------------------------------------------------------------------
    def table(self) -> pd.DataFrame:
        """One row per preset and rung, in ladder order.

        Columns ``preset, rung, bot, budget`` (``<NA>`` for a scripted bot), ``games, wins,
        win_rate, win_lo, win_hi`` (95% Wilson), ``sec_per_game`` (after a warm-up;
        ``NaN`` when not timed) and ``games_per_sec``.
        """
        from simlib.core.stats import wilson_interval

        rows = []
        for r in self.rungs:
            wins = int(r.results.df["win"].sum())
            n = len(r.results.df)
            lo, hi = wilson_interval(wins, n) if n else (math.nan, math.nan)
            spg = r.seconds_per_game
            rows.append(
                {
                    "preset": r.preset,
                    "rung": r.label,
                    "bot": r.bot,
                    "budget": r.budget,
                    "games": n,
                    "wins": wins,
                    "win_rate": wins / n if n else math.nan,
                    "win_lo": lo,
                    "win_hi": hi,
                    "sec_per_game": spg,
                    "games_per_sec": 1.0 / spg if spg > 0 else math.nan,
                }
            )
        df = pd.DataFrame(rows)
        df["budget"] = df["budget"].astype("Int64")
        df.attrs["confidence"] = 0.95
        return df

    def steps(self) -> pd.DataFrame:
        """Paired differences: each budget against the one below, every rung against the default.

        One row per comparison: ``preset, kind`` (``"next budget"`` or ``"vs default"``),
        ``rung`` and ``against`` (the rungs compared), ``rate, against_rate``, ``diff``
        (``rate - against_rate``), ``diff_lo, diff_hi`` (95%, Newcombe paired), ``p_value``
        (exact McNemar), ``discordant`` (games the rung won and the other lost) and
        ``discordant_against``.
        """
        rows = []
        for preset in self.presets:
            rungs = self._of(preset)
            default = next(r for r in rungs if r.bot == self.default_bot and r.budget is None)
            search = [r for r in rungs if r.budget is not None]
            pairs = [
                (r, default, "vs default")
                for r in rungs
                if r.budget is None and r is not default
            ]
            for k, r in enumerate(search):
                if k:
                    pairs.append((r, search[k - 1], "next budget"))
                pairs.append((r, default, "vs default"))
            for a, b, kind in pairs:
                c = compare(a.results, b.results)
                rows.append(
                    {
                        "preset": preset,
                        "kind": kind,
                        "rung": a.label,
                        "against": b.label,
                        "rate": c.rate_a,
                        "against_rate": c.rate_b,
                        "diff": c.diff,
                        "diff_lo": c.diff_lo,
                        "diff_hi": c.diff_hi,
                        "p_value": c.p_value,
                        "discordant": c.discordant_a,
                        "discordant_against": c.discordant_b,
                    }
                )
        return pd.DataFrame(rows, columns=[
            "preset", "kind", "rung", "against", "rate", "against_rate", "diff", "diff_lo",
            "diff_hi", "p_value", "discordant", "discordant_against",
        ])

    def headroom(self) -> pd.DataFrame:
        """Per preset: the default bot's rate, the best search rung's, and their difference.

        Columns ``preset, default_bot, default_rate, default_lo, default_hi, best_budget,
        best_rate, best_lo, best_hi, diff, diff_lo, diff_hi, p_value`` (paired, best minus
        default), then ``top_budget, top_rate, top_diff, top_diff_lo, top_diff_hi`` for the
        largest budget. The best rung is picked on the same games it is measured on, so its
        difference leans high when rungs are close; the largest budget's is not picked.
        """
        from simlib.core.stats import wilson_interval

        rows = []
        for preset in self.presets:
            rungs = self._of(preset)
            default = next(r for r in rungs if r.bot == self.default_bot and r.budget is None)
            search = [r for r in rungs if r.budget is not None]
            rates = [float(r.results.df["win"].mean()) for r in search]
            best = search[int(np.argmax(rates))]  # first (smallest budget) among ties
            top = search[-1]
            cb = compare(best.results, default.results)
            ct = compare(top.results, default.results)
            n = len(default.results.df)
            d_lo, d_hi = wilson_interval(int(default.results.df["win"].sum()), n)
            b_lo, b_hi = wilson_interval(int(best.results.df["win"].sum()), n)
            rows.append(
                {
                    "preset": preset,
                    "default_bot": default.bot,
                    "default_rate": cb.rate_b,
                    "default_lo": d_lo,
                    "default_hi": d_hi,
                    "best_budget": best.budget,
                    "best_rate": cb.rate_a,
                    "best_lo": b_lo,
                    "best_hi": b_hi,
                    "diff": cb.diff,
                    "diff_lo": cb.diff_lo,
                    "diff_hi": cb.diff_hi,
                    "p_value": cb.p_value,
                    "top_budget": top.budget,
                    "top_rate": ct.rate_a,
                    "top_diff": ct.diff,
                    "top_diff_lo": ct.diff_lo,
                    "top_diff_hi": ct.diff_hi,
                }
            )
        return pd.DataFrame(rows)

    def meta(self) -> dict[str, Any]:
        """How to reproduce the ladder, as plain data (for reports)."""
        return jsonable(
            {
                "game": self.game,
                "engine version": self.engine_version,
                "presets": self.presets,
                "bots": self.bots,
                "search budgets": self.budgets,
                "games per rung": self.games,
                "seed": self.seed,
                "settings": self.settings,
                "ladder settings": self.ladder_settings,
                "command": self.command(),
            }
        )

    def command(self) -> str:
        """The command line that plays (or resumes) this ladder."""
        parts = ["simlib", "ladder", self.game]
        for p in self.presets:
            parts += ["--preset", p]
        parts += ["--budgets", ",".join(map(str, self.budgets)), "--games", str(self.games),
                  "--seed", str(self.seed)]
        for k, v in self.settings.items():
            parts += ["--set", f"{k}={value_text(v)}"]
        if self.out:
            parts += ["--out", str(self.out)]
        return " ".join(parts)


def _ladder_readings(game: Game, plan: LadderPlan) -> list[dict[str, Any]]:
    """The readings the ladder's rungs used (one value, or one per preset when they differ)."""
    per_preset: dict[str, dict[str, Any]] = {}
    for r in plan.rungs:
        per_preset.setdefault(r.preset, r.plan.values)
    out = []
    for entry in game.readings_used(game.context(next(iter(per_preset.values())))):
        values = {p: v.get(entry["name"]) for p, v in per_preset.items()}
        if len({value_text(v) for v in values.values()}) > 1:
            shown = "; ".join(f"{p}: {value_text(v)}" for p, v in values.items())
            entry = {**entry, "value": shown}
        out.append(entry)
    return out
