"""A tiny but real game for fast tests of the runner, experiments and the command line.

Rules: a game lasts up to ``max_rounds`` rounds; the player needs ``max_rounds // 2 + 1``
round wins. Each round draws one uniform ``u``; the round is won when ``u < threshold``
where ``threshold = p * (1 + boost * risk)`` (capped at 1). The bold bot can also bust: a
round with ``u >= 1 - 0.1 * risk`` ends the game as a loss. Each round draws exactly one
number, so the same ``(seed, game_index)`` under a higher ``p`` wins a superset of rounds:
sweeps over ``p`` are coupled and a game's win is monotone in ``p``.

The game also declares one exact table, ``win_chance`` (:func:`win_chance_table`): the
exact chance of a win (and of a bust) for each ``p`` x ``max_rounds``, for one bot.

The ladder toy (``LadderToyGame``, "toyladder") adds a choice between two actions, a
``search`` bot whose win chance is known exactly for every budget, and an open reading
(``majority``, rule TOY-001), for the skill ladder and readings tests.

Importable as ``toygame`` (pytest puts ``tests/`` on ``sys.path``) and usable from the
command line with ``SIMLIB_EXTRA_GAMES=toygame:GAME`` and ``tests/`` on ``PYTHONPATH``.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import pandas as pd

from simlib.core.game import BatchKernel, Bot, Game, Setting, TableOption, TableSpec
from simlib.core.jit import njit
from simlib.core.rng import seed_state_nb, seed_stream_nb, uniform_nb
from simlib.games.registry import register

OUTCOMES = ("win", "loss")
WIN = 0
LOSS = 1
STEADY = 0
BOLD = 1

toy_dt = np.dtype(
    [
        ("game_index", np.int64),
        ("win", np.bool_),
        ("outcome", np.int8),
        ("rounds", np.int16),
        ("rounds_won", np.int16),
    ],
    align=True,
)


@njit
def play_one_nb(p, max_rounds, bot_id, risk, state):
    """Play one game; return ``(win, rounds, rounds_won)``. ``state`` (uint64[4]) advances."""
    need = max_rounds // 2 + 1
    boost = 0.1 if bot_id == STEADY else 0.2
    threshold = min(1.0, p * (1.0 + boost * risk))
    bust = 1.0 - 0.1 * risk if bot_id == BOLD else 2.0
    won = 0
    for r in range(max_rounds):
        u = uniform_nb(state)
        if u >= bust:
            return False, r + 1, won
        if u < threshold:
            won += 1
            if won >= need:
                return True, r + 1, won
    return False, max_rounds, won


@njit
def play_batch_nb(p, max_rounds, bot_id, params, seed, start, out):
    """Fill ``out`` (toy_dt[n], written) with games ``start .. start+n-1`` of run ``seed``."""
    state = np.empty(4, dtype=np.uint64)
    for i in range(out.shape[0]):
        seed_state_nb(seed, start + i, state)
        win, rounds, won = play_one_nb(p, max_rounds, bot_id, params[0], state)
        out[i].game_index = start + i
        out[i].win = win
        out[i].outcome = WIN if win else LOSS
        out[i].rounds = rounds
        out[i].rounds_won = won


def round_chances(p: float, bot: str, risk: float) -> tuple[float, float]:
    """Chance that one round is won, and that it busts, for ``bot`` (as ``play_one_nb``)."""
    boost = 0.1 if bot == "steady" else 0.2
    threshold = min(1.0, p * (1.0 + boost * risk))
    bust = 1.0 - 0.1 * risk if bot == "bold" else 2.0
    # u ~ U[0, 1): the bust test comes first, so a round won needs u < min(threshold, bust)
    return min(threshold, bust, 1.0), max(0.0, 1.0 - bust)


def exact_win_chance(p: float, max_rounds: int, bot: str, risk: float) -> tuple[float, float]:
    """Exact ``(P(win), P(bust))`` of one game, by dynamic programming over rounds won."""
    need = max_rounds // 2 + 1
    win_round, bust = round_chances(p, bot, risk)
    other = 1.0 - win_round - bust
    alive = np.zeros(need)  # alive[k]: still playing with k rounds won
    alive[0] = 1.0
    won = busted = 0.0
    for _ in range(max_rounds):
        busted += bust * alive.sum()
        won += win_round * alive[need - 1]
        nxt = other * alive
        nxt[1:] += win_round * alive[:-1]
        alive = nxt
    return won, busted


def win_chance_table(p: list[float], max_rounds: list[int], bot: str, risk: float | None):
    """Exact win and bust chances, one row per ``p`` x ``max_rounds`` (in that order)."""
    risk = GAME.bot(bot).params["risk"] if risk is None else risk
    rows = []
    for pv in p:
        for n in max_rounds:
            won, busted = exact_win_chance(pv, n, bot, risk)
            rows.append(
                {"p": pv, "max_rounds": n, "bot": bot, "risk": risk, "win_chance": won,
                 "bust_chance": busted}
            )
    return pd.DataFrame(rows)


WIN_CHANCE = TableSpec(
    build=win_chance_table,
    description="One row per p x max_rounds: the exact chance that the bot wins, and busts.",
    options=(
        TableOption("p", float, (0.4, 0.5, 0.6), "chances a round is won", lo=0.0, hi=1.0,
                    many=True),
        TableOption("max_rounds", int, (5, 9), "game lengths", lo=1, hi=50, many=True),
        TableOption("bot", str, "steady", "the bot", choices=("steady", "bold")),
        TableOption("risk", float, None, "the bot's risk (not set: its default)", lo=0.0,
                    hi=1.0),
    ),
)


# --- a toy game with a search bot, for the skill ladder ------------------------------------
#
# Each round the player picks one of two actions and then draws one uniform ``u`` from the
# game's own stream: "steady" wins the round when ``u < p``, "gamble" when ``u < gamble``.
# The scripted bots always take one action (``steady``, the default, or ``gambler``). The
# ``search`` bot runs a flat Monte Carlo search of ``budget`` rollouts per action from its
# own side stream (stream 1): each rollout of an action is one uniform, a success when it is
# below that action's chance; it takes the gamble only when the gamble's successes beat the
# steady action's (ties keep the default action). So at budget 0 it plays exactly like
# ``steady``, and its chance of taking the gamble is P(Bin(b, gamble) > Bin(b, p)), known
# exactly (:func:`search_gamble_chance`). The search never moves the game's own stream.

STEADY_ACTION = 0
GAMBLE_ACTION = 1
SEARCH = 2
#: Largest budget of the toy search bot.
MAX_BUDGET = 64


@njit
def play_ladder_one_nb(p, gamble, max_rounds, need, bot_id, budget, state, side):
    """Play one game of the ladder toy; return ``(win, rounds, rounds_won, gambles)``.

    ``state`` (the game's stream) and ``side`` (the search bot's stream) advance.
    """
    won = 0
    gambles = 0
    for r in range(max_rounds):
        action = STEADY_ACTION if bot_id == STEADY_ACTION else GAMBLE_ACTION
        if bot_id == SEARCH:
            hits_steady = 0
            hits_gamble = 0
            for _ in range(budget):
                if uniform_nb(side) < p:
                    hits_steady += 1
                if uniform_nb(side) < gamble:
                    hits_gamble += 1
            action = GAMBLE_ACTION if hits_gamble > hits_steady else STEADY_ACTION
        if action == GAMBLE_ACTION:
            gambles += 1
        u = uniform_nb(state)
        if u < (p if action == STEADY_ACTION else gamble):
            won += 1
            if won >= need:
                return True, r + 1, won, gambles
    return False, max_rounds, won, gambles


@njit
def play_ladder_batch_nb(p, gamble, max_rounds, need, bot_id, params, seed, start, out):
    """Fill ``out`` (ladder_dt[n], written) with games ``start .. start+n-1`` of run ``seed``."""
    state = np.empty(4, dtype=np.uint64)
    side = np.empty(4, dtype=np.uint64)
    budget = int(params[0]) if bot_id == SEARCH else 0
    for i in range(out.shape[0]):
        seed_state_nb(seed, start + i, state)
        seed_stream_nb(seed, start + i, 1, side)
        win, rounds, won, gambles = play_ladder_one_nb(
            p, gamble, max_rounds, need, bot_id, budget, state, side
        )
        out[i].game_index = start + i
        out[i].win = win
        out[i].outcome = WIN if win else LOSS
        out[i].rounds = rounds
        out[i].rounds_won = won
        out[i].gambles = gambles


ladder_dt = np.dtype(
    [
        ("game_index", np.int64),
        ("win", np.bool_),
        ("outcome", np.int8),
        ("rounds", np.int16),
        ("rounds_won", np.int16),
        ("gambles", np.int16),
    ],
    align=True,
)


def need_for(max_rounds: int, majority: bool) -> int:
    """Round wins a game needs: more than half (``majority``) or half rounded up."""
    return max_rounds // 2 + 1 if majority else (max_rounds + 1) // 2


def search_gamble_chance(p: float, gamble: float, budget: int) -> float:
    """Exact chance that the search bot takes the gamble: P(Bin(b, gamble) > Bin(b, p))."""
    from scipy.stats import binom

    if budget == 0:
        return 0.0
    k = np.arange(budget + 1)
    steady = binom.pmf(k, budget, p)
    gam = binom.pmf(k, budget, gamble)
    # P(G > S) = sum_j P(G = j) P(S < j)
    below = np.concatenate([[0.0], np.cumsum(steady)[:-1]])
    return float(np.sum(gam * below))


def ladder_round_chance(p: float, gamble: float, bot: str, budget: int = 0) -> float:
    """Chance that one round is won by ``bot`` (the search bot at ``budget``)."""
    if bot == "steady":
        return p
    if bot == "gambler":
        return gamble
    q = search_gamble_chance(p, gamble, budget)
    return (1.0 - q) * p + q * gamble


def ladder_win_chance(p: float, gamble: float, max_rounds: int, majority: bool, bot: str,
                      budget: int = 0) -> float:
    """Exact chance that ``bot`` wins one game of the ladder toy (rounds are independent)."""
    from scipy.stats import binom

    r = ladder_round_chance(p, gamble, bot, budget)
    # won within max_rounds rounds <=> at least `need` round wins among max_rounds
    return float(binom.sf(need_for(max_rounds, majority) - 1, max_rounds, r))


class LadderToyGame(Game):
    """The ladder toy: ``steady`` and ``gambler`` scripted bots and a ``search`` bot."""

    name = "toyladder"
    title = "Toy ladder game"
    engine_version = "1"
    settings = (
        Setting("p", float, 0.5, "chance the steady action wins a round", lo=0.0, hi=1.0),
        Setting("gamble", float, 0.6, "chance the gamble wins a round", lo=0.0, hi=1.0),
        Setting("max_rounds", int, 9, "rounds before the game is lost", lo=1, hi=50),
        Setting(
            "majority",
            bool,
            True,
            "a win needs more than half of max_rounds round wins (the literal reading); "
            "false: half, rounded up",
            reading="TOY-001",
        ),
    )
    presets = {
        "normal": {},
        "hard": {"p": 0.4, "gamble": 0.45},
        "trap": {"p": 0.5, "gamble": 0.4},
    }
    default_preset = "normal"
    bots = (
        Bot("steady", STEADY_ACTION, "always the steady action"),
        Bot("gambler", GAMBLE_ACTION, "always the gamble"),
        Bot(
            "search",
            SEARCH,
            "flat Monte Carlo: budget rollouts per action, the gamble when it scores more",
            {"budget": 0.0},
            {"budget": "rollouts per action and round"},
            {"budget": (0.0, float(MAX_BUDGET))},
        ),
    )
    default_bot = "steady"
    outcomes = OUTCOMES
    measure_columns = ("rounds_won", "gambles")

    def compile(self, values: dict[str, Any]) -> tuple:
        return (
            np.float64(values["p"]),
            np.float64(values["gamble"]),
            np.int64(values["max_rounds"]),
            np.int64(need_for(values["max_rounds"], values["majority"])),
        )

    record_dt = ladder_dt

    def batch_kernel(self, compiled, bot_id, bot_params):
        bp = bot_params if bot_params.size else np.zeros(1)
        return BatchKernel(play_ladder_batch_nb, (*compiled, np.int64(bot_id), bp), 500)


LADDER_GAME = LadderToyGame()


def register_ladder_toy() -> LadderToyGame:
    """Register the ladder toy under "toyladder" and return it."""
    register(LADDER_GAME)
    return LADDER_GAME


class ToyGame(Game):
    """The toy game spec: settings ``p`` and ``max_rounds``, bots ``steady`` and ``bold``."""

    name = "toy"
    title = "Toy coin game"
    engine_version = "1"
    settings = (
        Setting("p", float, 0.5, "chance a round is won", lo=0.0, hi=1.0),
        Setting("max_rounds", int, 10, "rounds before the game is lost", lo=1, hi=50),
    )
    presets = {"normal": {}, "easy": {"p": 0.6}, "hard": {"p": 0.4}}
    default_preset = "normal"
    bots = (
        Bot("steady", STEADY, "never busts", {"risk": 0.0}, {"risk": "push"}, {"risk": (0.0, 1.0)}),
        Bot(
            "bold",
            BOLD,
            "pushes harder, may bust",
            {"risk": 0.5},
            {"risk": "push"},
            {"risk": (0.0, 1.0)},
        ),
    )
    default_bot = "steady"
    outcomes = OUTCOMES
    measure_columns = ("rounds_won",)

    def tables(self) -> dict[str, TableSpec]:
        return {"win_chance": WIN_CHANCE}

    def compile(self, values: dict[str, Any]) -> tuple:
        return (np.float64(values["p"]), np.int64(values["max_rounds"]))

    record_dt = toy_dt

    def batch_kernel(self, compiled, bot_id, bot_params):
        p, max_rounds = compiled
        return BatchKernel(play_batch_nb, (p, max_rounds, np.int64(bot_id), bot_params), 500)


GAME = ToyGame()


def register_toy() -> ToyGame:
    """Register the toy game under "toy" and return it."""
    register(GAME)
    return GAME


class HandicapToyGame(ToyGame):
    """The toy game plus an integer setting ``handicap``: each point takes 0.01 off ``p``.

    Its win chance falls in ``handicap``, a planted integer root for ``simlib.solve``; it
    is registered as "toy_handicap" so the toy game's own settings stay as they are.
    """

    name = "toy_handicap"
    title = "Toy coin game with a handicap"
    settings = (
        *ToyGame.settings,
        Setting("handicap", int, 0, "each point takes 0.01 off p (floored at 0)", lo=0, hi=100),
    )

    def compile(self, values: dict[str, Any]) -> tuple:
        p = max(0.0, values["p"] - 0.01 * values["handicap"])
        return (np.float64(p), np.int64(values["max_rounds"]))


HANDICAP_GAME = HandicapToyGame()


def register_handicap_toy() -> HandicapToyGame:
    """Register the handicap toy game under "toy_handicap" and return it."""
    register(HANDICAP_GAME)
    return HANDICAP_GAME


class DataToyGame(ToyGame):
    """The toy game with ``p`` read from a data file (setting ``data``, ``Setting.file``).

    ``data = "default"`` means ``p = 0.5``; otherwise the TOML file's ``p``. The parsed file
    is cached by its path, as a game's loader might: the runner must still play the bytes
    it recorded (it compiles from a content-addressed copy).
    """

    name = "toy_data"
    title = "Toy coin game with a data file"
    settings = (
        Setting("data", str, "default", "'default' (p = 0.5) or a TOML file with p", file=True),
        Setting("max_rounds", int, 10, "rounds before the game is lost", lo=1, hi=50),
    )
    presets = {"normal": {}}

    def compile(self, values: dict[str, Any]) -> tuple:
        p = 0.5 if values["data"] == "default" else _toy_data_p(values["data"])
        return (np.float64(p), np.int64(values["max_rounds"]))


@functools.lru_cache(maxsize=8)
def _toy_data_p(path: str) -> float:
    from simlib.core.datafile import read_toml

    return float(read_toml(path)["p"])


DATA_GAME = DataToyGame()


def register_data_toy() -> DataToyGame:
    """Register the data-file toy game under "toy_data" and return it."""
    register(DATA_GAME)
    return DATA_GAME
