"""Solve for a target win rate: the value of one numeric setting or bot parameter.

:func:`solve` plays a game at a few values of one parameter, every value on the same seed
(common random numbers: game ``i`` sees the same random stream at every value, so the
estimated win rate moves smoothly with the parameter instead of jumping with fresh noise),
and bisects on the estimated win rate until it brackets the target. It is stochastic root
finding by sample-path bisection: the root of the estimated curve, whose error comes from
the finite games per point (``precision`` sets them).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from simlib.core.checks import check_int, check_precision
from simlib.core.game import Game
from simlib.core.runner import execute, resolve_run
from simlib.errors import SimlibInputError
from simlib.games.registry import get_game

__all__ = ["solve", "Solution", "resolve_param"]

#: Most bisection steps for a real-valued parameter.
MAX_STEPS = 30


@dataclass
class Solution:
    """The value of a parameter whose win rate is closest to a target.

    Attributes
    ----------
    param : str
        The parameter (a setting name, or ``bot.<name>``).
    target : float
        The win rate sought.
    value : float or int
        The solution: for a real parameter the root of the estimated win-rate curve
        (interpolated between the two bracketing points); for an integer the bracketing
        value whose estimated rate is closer to the target.
    interval : (float, float)
        Values whose 95% Wilson interval on the win rate contains the target (pointwise,
        interpolated linearly between the points played; for an integer the smallest and
        largest such points played, at least the bracket).
    curve : pandas.DataFrame
        Every point played, sorted by value: the parameter's column, ``n``, ``wins``,
        ``win_rate``, ``win_lo``, ``win_hi``.
    bracket : tuple of dict
        The two adjacent points played whose estimated rates lie on either side of the
        target, each ``{value, win_rate, win_lo, win_hi}``.
    games : int
        Games per point (the same seed at every point).
    meta : dict
        Game, preset, settings, bot, bot parameters, seed, precision.

    """

    param: str
    target: float
    value: float | int
    interval: tuple[float, float]
    curve: pd.DataFrame
    bracket: tuple[dict[str, Any], dict[str, Any]]
    games: int
    meta: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        """One paragraph: the value, its interval, the bracket and the games."""
        a, b = self.bracket
        return (
            f"{self.param} = {_num(self.value)} gives a win rate closest to {self.target:.1%} "
            f"(values whose 95% interval holds the target: {_num(self.interval[0])} to "
            f"{_num(self.interval[1])}); bracket {_num(a['value'])}: {a['win_rate']:.1%} "
            f"[{a['win_lo']:.1%}, {a['win_hi']:.1%}], {_num(b['value'])}: {b['win_rate']:.1%} "
            f"[{b['win_lo']:.1%}, {b['win_hi']:.1%}]; {len(self.curve)} points x "
            f"{self.games:,} games, seed {self.meta.get('seed')}"
        )


def _num(x: Any) -> str:
    if isinstance(x, (int, np.integer)):
        return str(int(x))
    return f"{float(x):.4g}"


def resolve_param(
    game: Game, param: Any, bot: str | None, lo: Any = None, hi: Any = None, *, what: str = "param"
) -> tuple[type, float, float]:
    """Check that ``param`` is a numeric setting or ``bot.<name>``; return (kind, lo, hi).

    ``lo`` / ``hi`` default to the setting's or bot parameter's bounds; an open bound must
    be given. Raises ``SimlibInputError`` naming ``what``.
    """
    if not isinstance(param, str) or not param:
        raise SimlibInputError(f"{what}: expected a setting name or 'bot.<parameter>'")
    if param.startswith("bot."):
        b = game.bot(bot)
        key = param[4:]
        if key not in b.params:
            allowed = ", ".join(f"bot.{k}" for k in b.params) or "none"
            raise SimlibInputError(
                f"{what}: '{param}' is not a parameter of bot '{b.name}'; allowed: {allowed}"
            )
        kind: type = float
        blo, bhi = b.param_bounds.get(key, (-math.inf, math.inf))
    else:
        setting = game.setting(param)
        if setting.kind not in (int, float):
            raise SimlibInputError(
                f"{what}: '{param}' is not numeric ({setting.allowed()}); solve and ranges "
                "need an integer or real setting or a bot parameter"
            )
        kind = setting.kind
        blo = -math.inf if setting.lo is None else float(setting.lo)
        bhi = math.inf if setting.hi is None else float(setting.hi)
    out = []
    for name, given, bound in (("low", lo, blo), ("high", hi, bhi)):
        if given is None:
            if not math.isfinite(bound):
                raise SimlibInputError(
                    f"{what}: '{param}' has no {name} bound; give a range, e.g. lo:hi"
                )
            value = bound
        else:
            if isinstance(given, bool) or not isinstance(given, (int, float, np.number)):
                raise SimlibInputError(
                    f"{what}: the {name} end of '{param}' must be a number, got {given!r}"
                )
            value = float(given)
            if not math.isfinite(value) or value < blo or value > bhi:
                raise SimlibInputError(
                    f"{what}: the {name} end {given!r} of '{param}' is outside its bounds "
                    f"{blo:g} to {bhi:g}"
                )
        if kind is int and not float(value).is_integer():
            raise SimlibInputError(
                f"{what}: '{param}' is an integer setting; its {name} end {value:g} is not"
            )
        out.append(value)
    if out[0] >= out[1]:
        raise SimlibInputError(
            f"{what}: the range of '{param}' must have low < high, got {out[0]:g}:{out[1]:g}"
        )
    return kind, out[0], out[1]


def solve(
    game: str | Game,
    param: str,
    target: float = 0.5,
    *,
    preset: str | None = None,
    settings: dict[str, Any] | None = None,
    bot: str | None = None,
    bot_params: dict[str, Any] | None = None,
    seed: int = 0,
    precision: float = 0.01,
    lo: float | None = None,
    hi: float | None = None,
    games: int | None = None,
    **run_kwargs: Any,
) -> Solution:
    """Find the value of a numeric setting or bot parameter that gives a target win rate.

    Plays ``n`` games at each value tried, all on ``seed`` (common random numbers), with
    ``n`` the fixed-n Wilson count for ±``precision`` at a 50% rate
    (:func:`simlib.core.stats.games_needed`), or ``games`` if given. The ends of the range
    are played first; a target outside their two win rates is refused. Then bisection on
    the estimated rate: an integer parameter until the bracket is two adjacent values, a
    real one until both bracket ends are within ``precision`` of the target (or
    :data:`MAX_STEPS` steps).

    Parameters
    ----------
    game : str or Game
        The game.
    param : str
        A numeric setting (``"hazard_cards"``) or ``"bot.<name>"``.
    target : float, default 0.5
        The win rate sought, in (0, 1).
    preset, settings, bot, bot_params, seed
        As in :func:`simlib.run`; fixed at every point.
    precision : float, default 0.01
        Half-width of each point's 95% interval the games per point aim for, in (0, 0.5).
    lo, hi : float, optional
        The range searched; default the setting's or bot parameter's bounds.
    games : int, optional
        Games per point, overriding the count ``precision`` gives.
    **run_kwargs
        ``backend``, ``scheduler``, ``chunk_size``, ``progress``, ``threads``.

    Returns
    -------
    Solution

    Raises
    ------
    SimlibInputError
        Bad input (one line naming it), or a target the range cannot bracket (with the win
        rates at both ends).

    """
    from simlib.core import stats

    g = get_game(game)
    if isinstance(target, bool) or not isinstance(target, (int, float)) or not 0 < target < 1:
        raise SimlibInputError(
            f"target: {target!r} is not allowed; expected a win rate strictly between 0 and 1"
        )
    precision = check_precision(precision)
    settings = dict(settings or {})
    bot_params = dict(bot_params or {})
    kind, x_lo, x_hi = resolve_param(g, param, bot, lo, hi)
    is_bot = param.startswith("bot.")
    key = param[4:] if is_bot else param
    if (bot_params if is_bot else settings).get(key) is not None:
        raise SimlibInputError(f"param: '{param}' is solved for; do not also fix it")
    n = (
        stats.games_needed(precision)
        if games is None
        else check_int("games", games, 1, 10**9)
    )
    base = resolve_run(g, preset=preset, settings=settings, bot=bot, bot_params=bot_params,
                       games=n, seed=seed)
    points: dict[float, tuple[int, int]] = {}

    def rate(x: float) -> float:
        value = int(round(x)) if kind is int else float(x)
        if value not in points:
            if is_bot:
                plan = resolve_run(g, preset=preset, settings=settings, bot=bot,
                                   bot_params={**bot_params, key: value}, games=n, seed=seed)
            else:
                plan = resolve_run(g, preset=preset, settings={**settings, key: value},
                                   bot=bot, bot_params=bot_params, games=n, seed=seed)
            res = execute(plan, desc=f"{param}={_num(value)}", **run_kwargs)
            points[value] = (int(res.df["win"].sum()), len(res.df))
        k, m = points[value]
        return k / m

    a, b = (int(x_lo), int(x_hi)) if kind is int else (x_lo, x_hi)
    fa, fb = rate(a), rate(b)
    if not min(fa, fb) <= target <= max(fa, fb):
        raise SimlibInputError(
            f"target: {target:.1%} is not bracketed by {param} from {_num(a)} to {_num(b)}: "
            f"the win rate is {fa:.1%} at {_num(a)} and {fb:.1%} at {_num(b)} "
            f"({n:,} games each); widen the range or choose a target between them"
        )
    up = fb >= fa
    for _ in range(MAX_STEPS if kind is float else 64):
        if kind is int and b - a <= 1:
            break
        if kind is float and abs(fa - target) <= precision and abs(fb - target) <= precision:
            break
        mid: float = (a + b) // 2 if kind is int else (a + b) / 2.0
        fm = rate(mid)
        if (fm < target) == up:
            a, fa = mid, fm
        else:
            b, fb = mid, fm
    curve = _curve(points, param)
    if kind is int:
        value: float | int = int(a if abs(fa - target) <= abs(fb - target) else b)
        inside = curve[(curve["win_lo"] <= target) & (curve["win_hi"] >= target)][param]
        candidates = [*inside.tolist(), a, b]
        interval = (float(min(candidates)), float(max(candidates)))
    else:
        value = float(a + (target - fa) * (b - a) / (fb - fa)) if fb != fa else (a + b) / 2.0
        interval = _inverse_interval(curve, param, target, (float(a), float(b)))
    bracket = tuple(
        {
            "value": v,
            **curve.loc[curve[param] == v, ["win_rate", "win_lo", "win_hi"]].iloc[0].to_dict(),
        }
        for v in (a, b)
    )
    meta = {
        "game": g.name,
        "preset": base.preset,
        "settings": base.values,
        "bot": base.bot.name,
        "bot_params": base.params,
        "seed": base.seed,
        "precision": precision,
        "games_per_point": n,
    }
    return Solution(param, float(target), value, interval, curve, bracket, n, meta)  # type: ignore[arg-type]


def _curve(points: dict[float, tuple[int, int]], param: str) -> pd.DataFrame:
    from simlib.core import stats

    xs = sorted(points)
    k = np.array([points[x][0] for x in xs])
    n = np.array([points[x][1] for x in xs])
    lo, hi = stats.wilson_interval(k, n)
    return pd.DataFrame(
        {param: xs, "n": n, "wins": k, "win_rate": k / n, "win_lo": lo, "win_hi": hi}
    )


def _inverse_interval(
    curve: pd.DataFrame, param: str, target: float, bracket: tuple[float, float]
) -> tuple[float, float]:
    """Values whose interpolated 95% interval holds ``target`` (at least the bracket)."""
    xs = curve[param].to_numpy(dtype=float)
    grid = np.linspace(xs.min(), xs.max(), 20001)
    lo = np.interp(grid, xs, curve["win_lo"].to_numpy())
    hi = np.interp(grid, xs, curve["win_hi"].to_numpy())
    inside = grid[(lo <= target) & (hi >= target)]
    if inside.size == 0:
        return (min(bracket), max(bracket))
    return float(inside.min()), float(inside.max())
