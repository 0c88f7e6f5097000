"""Which parameters matter: one-at-a-time effects and Sobol indices on the win rate.

:func:`sensitivity` moves settings, readings and bot parameters over ranges a designer
names and measures how much the win rate moves. Every configuration plays the same games
(one seed: common random numbers), so one-at-a-time effects are paired comparisons with
narrow intervals. ``method="sobol"`` varies all parameters together over the whole box and
apportions the win rate's variance (first-order and total Sobol indices); the sampling
(Sobol' sequence, Saltelli's scheme) and the estimators (Saltelli 2010, Jansen, with
bootstrap intervals) are SALib's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from simlib.core.checks import check_int, check_precision
from simlib.core.game import Game
from simlib.core.results import value_text
from simlib.core.runner import execute, resolve_run
from simlib.errors import SimlibInputError
from simlib.games.registry import get_game

__all__ = ["sensitivity", "Sensitivity", "sobol_indices", "METHODS"]

METHODS = ("oat", "sobol")


@dataclass
class Sensitivity:
    """The result of :func:`sensitivity`.

    Attributes
    ----------
    method : str
        ``"oat"`` or ``"sobol"``.
    table : pandas.DataFrame
        ``"oat"``: one row per parameter, largest effect first: ``param``, ``low``,
        ``high``, ``base`` (the value held while others move), ``rate_low``,
        ``rate_high``, ``rate_base``, ``effect = rate_high - rate_low`` with its paired
        interval ``effect_lo``, ``effect_hi`` (Newcombe, same games), ``p_value`` (exact
        McNemar) and ``p_holm`` (Holm-adjusted over the parameters).
        ``"sobol"``: one row per parameter, largest total index first: ``param``, ``low``,
        ``high``, ``S1``, ``S1_conf``, ``ST``, ``ST_conf`` (half-widths of SALib's
        bootstrap intervals).
    games : int
        Games per configuration.
    samples : pandas.DataFrame or None
        ``"sobol"``: every point played (the parameters' values and its ``win_rate``).
    meta : dict
        Game, preset, settings, bot, bot parameters, seed, points played.

    """

    method: str
    table: pd.DataFrame
    games: int
    samples: pd.DataFrame | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        """The table as text, with a line saying what was measured."""
        head = (
            f"{self.meta.get('game')}: {self.method} sensitivity of the win rate, "
            f"{self.meta.get('points')} configurations x {self.games:,} games, "
            f"seed {self.meta.get('seed')}"
        )
        return head + "\n" + format_table(self).to_string(index=False)


def format_table(result: Sensitivity) -> pd.DataFrame:
    """The result's table as display strings."""
    t = result.table
    if result.method == "oat":
        return pd.DataFrame(
            {
                "param": t["param"],
                "low": [value_text(v) for v in t["low"]],
                "high": [value_text(v) for v in t["high"]],
                "win at low": [f"{r:.1%}" for r in t["rate_low"]],
                "win at high": [f"{r:.1%}" for r in t["rate_high"]],
                "effect": [f"{100 * e:+.1f} pp" for e in t["effect"]],
                "95% CI (paired)": [
                    f"[{100 * a:+.1f}, {100 * b:+.1f}]"
                    for a, b in zip(t["effect_lo"], t["effect_hi"], strict=True)
                ],
                "Holm p": [f"{p:.2g}" for p in t["p_holm"]],
            }
        )
    return pd.DataFrame(
        {
            "param": t["param"],
            "range": [f"{value_text(a)}..{value_text(b)}"
                      for a, b in zip(t["low"], t["high"], strict=True)],
            "first-order S1": [
                f"{s:.3f} ± {c:.3f}" for s, c in zip(t["S1"], t["S1_conf"], strict=True)
            ],
            "total ST": [f"{s:.3f} ± {c:.3f}" for s, c in zip(t["ST"], t["ST_conf"], strict=True)],
        }
    )


@dataclass(frozen=True)
class _Param:
    name: str
    kind: type
    low: Any
    high: Any
    numeric: bool

    def at(self, u: float) -> Any:
        """The value at ``u`` in [0, 1] of the range (two-valued params: low below 1/2)."""
        if not self.numeric:
            return self.low if u < 0.5 else self.high
        value = self.low + u * (self.high - self.low)
        return int(round(value)) if self.kind is int else float(value)


def _resolve_params(g: Game, params: Any, bot: str | None) -> list[_Param]:
    from simlib.core.solve import resolve_param

    if not isinstance(params, dict) or not params:
        raise SimlibInputError(
            "params: expected a dict of name -> (low, high), e.g. {'hazard_cards': (14, 22)}"
        )
    out = []
    for name, rng in params.items():
        if not isinstance(rng, (tuple, list)) or len(rng) != 2:
            raise SimlibInputError(f"params: '{name}' needs a (low, high) pair, got {rng!r}")
        low, high = rng
        setting = None if str(name).startswith("bot.") else g.setting(name)
        if setting is not None and setting.kind not in (int, float):
            # a reading or any two-valued setting: its two values, in the given order
            low, high = setting.coerce(low), setting.coerce(high)
            if low == high:
                raise SimlibInputError(f"params: '{name}' has the same value at both ends")
            out.append(_Param(name, setting.kind, low, high, False))
            continue
        kind, lo, hi = resolve_param(g, name, bot, low, high, what="params")
        out.append(_Param(name, kind, int(lo) if kind is int else lo,
                          int(hi) if kind is int else hi, True))
    return out


def sensitivity(
    game: str | Game,
    params: dict[str, tuple[Any, Any]],
    method: str = "oat",
    *,
    preset: str | None = None,
    settings: dict[str, Any] | None = None,
    bot: str | None = None,
    bot_params: dict[str, Any] | None = None,
    seed: int = 0,
    precision: float = 0.01,
    games: int | None = None,
    samples: int = 64,
    **run_kwargs: Any,
) -> Sensitivity:
    """Rank parameters by how much they move the win rate.

    Parameters
    ----------
    game : str or Game
        The game.
    params : dict
        ``name -> (low, high)``: a numeric setting or ``bot.<name>`` over a range
        (``low < high``, within its bounds), or any other setting (a reading, a bool, a
        choice) between two of its values.
    method : {"oat", "sobol"}
        ``"oat"``: each parameter at ``low`` and at ``high`` with the others at their
        baseline values (the preset, ``settings`` and ``bot_params``); the effect is the
        paired difference of the two win rates. ``"sobol"``: first-order and total Sobol
        indices over the whole box, sampled and analysed by SALib (``samples`` base
        points, ``samples * (len(params) + 2)`` configurations; integers are rounded and
        two-valued parameters take their low value below the middle of the unit range).
    preset, settings, bot, bot_params, seed
        The baseline, as in :func:`simlib.run`; every configuration uses ``seed``.
    precision : float, default 0.01
        Games per configuration: the fixed-n Wilson count for ±``precision`` at 50%.
    games : int, optional
        Games per configuration, overriding ``precision``.
    samples : int, default 64
        Sobol only: SALib's base sample size ``N`` (a power of 2).
    **run_kwargs
        ``backend``, ``scheduler``, ``chunk_size``, ``progress``, ``threads``.

    Returns
    -------
    Sensitivity

    """
    from simlib.core import stats

    g = get_game(game)
    if method not in METHODS:
        raise SimlibInputError(f"method: {method!r} is not allowed; expected one of oat, sobol")
    precision = check_precision(precision)
    n = stats.games_needed(precision) if games is None else check_int("games", games, 1, 10**9)
    settings = dict(settings or {})
    bot_params = dict(bot_params or {})
    plist = _resolve_params(g, params, bot)
    for p in plist:
        fixed = bot_params if p.name.startswith("bot.") else settings
        if p.name.removeprefix("bot.") in fixed:
            raise SimlibInputError(f"params: '{p.name}' is varied; do not also fix it")
    base = resolve_run(g, preset=preset, settings=settings, bot=bot, bot_params=bot_params,
                       games=n, seed=seed)
    cache: dict[str, np.ndarray] = {}

    def play(values: dict[str, Any]) -> np.ndarray:
        label = value_text({k: values[k] for k in sorted(values)})
        if label not in cache:
            s = {**settings, **{k: v for k, v in values.items() if not k.startswith("bot.")}}
            b = {**bot_params, **{k[4:]: v for k, v in values.items() if k.startswith("bot.")}}
            plan = resolve_run(g, preset=preset, settings=s, bot=bot, bot_params=b, games=n,
                               seed=seed)
            cache[label] = execute(plan, desc=label, **run_kwargs).df["win"].to_numpy(bool)
        return cache[label]

    meta = {
        "game": g.name,
        "preset": base.preset,
        "settings": base.values,
        "bot": base.bot.name,
        "bot_params": base.params,
        "seed": base.seed,
        "games_per_point": n,
    }
    if method == "oat":
        table = _oat(plist, base, play)
        meta["points"] = len(cache)
        return Sensitivity("oat", table, n, None, meta)

    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 2 or (
        samples & (samples - 1)
    ):
        raise SimlibInputError(f"samples: {samples!r} is not allowed; expected a power of 2 >= 2")

    def model(u: np.ndarray) -> np.ndarray:
        return np.array(
            [play({p.name: p.at(x) for p, x in zip(plist, row, strict=True)}).mean() for row in u]
        )

    table, points = sobol_indices(model, [p.name for p in plist], samples, seed=seed)
    table.insert(1, "low", pd.Series([p.low for p in plist], dtype=object))
    table.insert(2, "high", pd.Series([p.high for p in plist], dtype=object))
    table = table.sort_values("ST", ascending=False, kind="stable").reset_index(drop=True)
    for p in plist:
        points[p.name] = [p.at(x) for x in points[p.name]]
    points = points.rename(columns={"output": "win_rate"})
    meta["points"] = len(points)
    return Sensitivity("sobol", table, n, points, meta)


def _base_value(base, p: _Param) -> Any:
    if p.name.startswith("bot."):
        return base.params[p.name[4:]]
    return base.values.get(p.name)


def _oat(plist: list[_Param], base, play: Callable[[dict[str, Any]], np.ndarray]) -> pd.DataFrame:
    from simlib.core import stats

    base_wins = play({})
    rows = []
    for p in plist:
        w_lo = play({p.name: p.low})
        w_hi = play({p.name: p.high})
        c = stats.compare_paired(w_hi, w_lo)
        rows.append(
            {
                "param": p.name,
                "low": p.low,
                "high": p.high,
                "base": _base_value(base, p),
                "rate_low": c.rate_b,
                "rate_high": c.rate_a,
                "rate_base": float(base_wins.mean()),
                "effect": c.diff,
                "effect_lo": c.diff_lo,
                "effect_hi": c.diff_hi,
                "p_value": c.p_value,
            }
        )
    table = pd.DataFrame(rows)
    for col in ("low", "high", "base"):
        table[col] = pd.Series([r[col] for r in rows], dtype=object)
    table["p_holm"] = stats.holm(table["p_value"].to_numpy(dtype=float))
    order = np.argsort(-np.abs(table["effect"].to_numpy()), kind="stable")
    return table.iloc[order].reset_index(drop=True)


def sobol_indices(
    model: Callable[[np.ndarray], np.ndarray],
    names: list[str],
    samples: int,
    *,
    bounds: list[tuple[float, float]] | None = None,
    seed: int = 0,
    confidence: float = 0.95,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """First-order and total Sobol indices of ``model`` over a box, by SALib.

    ``SALib.sample.sobol.sample`` draws ``samples * (D + 2)`` points (Saltelli's scheme on
    a scrambled Sobol' sequence, no second-order terms) and ``SALib.analyze.sobol.analyze``
    estimates the indices with bootstrap intervals.

    Parameters
    ----------
    model : callable
        ``model(X)`` with ``X`` of shape ``(points, D)`` returns the outputs, shape
        ``(points,)``.
    names : list of str
        The ``D`` parameter names.
    samples : int
        Base sample size ``N``, a power of 2.
    bounds : list of (low, high), optional
        The box; default the unit cube.
    seed : int, default 0
        Seeds the sampler's scrambling and the bootstrap.
    confidence : float, default 0.95
        Level of the bootstrap intervals.

    Returns
    -------
    table : pandas.DataFrame
        ``param, S1, S1_conf, ST, ST_conf`` in the order of ``names``.
    points : pandas.DataFrame
        The points (one column per name) and ``output``.

    """
    from SALib.analyze import sobol as sobol_analyze
    from SALib.sample import sobol as sobol_sample

    problem = {
        "num_vars": len(names),
        "names": list(names),
        "bounds": [list(b) for b in bounds] if bounds else [[0.0, 1.0]] * len(names),
    }
    x = sobol_sample.sample(problem, samples, calc_second_order=False, seed=seed % 2**32)
    y = np.asarray(model(x), dtype=float)
    si = sobol_analyze.analyze(
        problem, y, calc_second_order=False, conf_level=confidence, seed=seed % 2**32
    )
    table = pd.DataFrame(
        {
            "param": list(names),
            "S1": np.asarray(si["S1"], dtype=float),
            "S1_conf": np.asarray(si["S1_conf"], dtype=float),
            "ST": np.asarray(si["ST"], dtype=float),
            "ST_conf": np.asarray(si["ST_conf"], dtype=float),
        }
    )
    points = pd.DataFrame(x, columns=list(names))
    points["output"] = y
    return table, points
