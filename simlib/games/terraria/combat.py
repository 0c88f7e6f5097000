"""Exact combat odds for Terraria: weapon x armor x enemy, and fall damage by armor.

Everything here is exact (``simlib.core.dice``: enumeration by conditioning, no
sampling). One row of :func:`combat_table` is one weapon, one armor set and one bestiary
enemy:

- ``dealt_k``: chance that one attack with the weapon inflicts exactly ``k`` wounds on
  the enemy (weapon attack dice vs the enemy's defence dice, TR-273..TR-279);
- ``p_defeat``: chance that this one attack inflicts at least the enemy's ``wounds``
  (wounds beyond that are wasted, TR-283);
- ``taken_k``: chance that one attack by this enemy alone costs the character exactly
  ``k`` health (enemy attack dice vs the armor's defence dice, TR-337..TR-341);
- ``expected_dealt`` / ``expected_taken``: the means of those distributions.

Attack and defence bonus icons (all on one die each, TR-277 / TR-286) are parameters.
Mobs are not in the table: their pool comes from ``simlib.core.dice.mob_attack``.

Experiment files: :func:`table_specs` declares the exact tables ``combat`` (this one) and
``fall`` (:func:`fall_table`) with their options, for the Terraria ``Game.tables()``; an
experiment file with ``table = "combat"`` then computes and reports it (see
``experiments/terraria_combat.toml`` and ``simlib.experiment``).

Command line, without the registry::

    python -m simlib.games.terraria.combat --out combat.csv [--data my.toml]
        [--attack-bonus N] [--defense-bonus N]

writes the table (``.csv`` or ``.parquet``); without ``--out`` it prints a summary.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from simlib.core import dice
from simlib.core.game import TableOption, TableSpec
from simlib.errors import SimlibInputError
from simlib.games.terraria.compile import load_content
from simlib.games.terraria.settings import MODES, mode_parts

__all__ = [
    "MODES",
    "NO_FALL_DAMAGE_MODES",
    "fall_damage_chance",
    "fall_table",
    "combat_table",
    "combat_table_spec",
    "fall_table_spec",
    "table_specs",
    "main",
]

# Rulebook, Modifying Game Length and Difficulty: Journey Mode "Players ignore fall
# damage"; Lucky Horseshoe Mode: "Players ignore fall damage" (TR-435, TR-436).
NO_FALL_DAMAGE_MODES = ("journey", "lucky_horseshoe")


def _content(content: Any) -> dict[str, Any]:
    if isinstance(content, dict):
        return content
    return load_content(content)


def _mode(mode: Any) -> str:
    if mode not in MODES:
        raise SimlibInputError(f"mode must be one of {', '.join(MODES)}; got {mode!r}")
    return mode


def fall_damage_chance(
    defense: Sequence[int], squares: int, cobweb: bool = False, mode: str = "standard"
) -> float:
    """Chance that a character with these defence dice loses 1 health from a fall.

    Parameters
    ----------
    defense : sequence of int
        The defence dice of the worn armor set, else of the character card (TR-128).
    squares : int >= 0
        Squares fallen; 1 or less never hurts (TR-127).
    cobweb : bool, default False
        The fall ends in a square with a cobweb: no fall damage (TR-130).
    mode : str, default "standard"
        One of ``MODES``; Journey and Lucky Horseshoe ignore fall damage (TR-435, TR-436).

    Returns
    -------
    float
        ``P(sum of defence dice <= squares)``, or 0.0 where the rules cancel the roll.
        Defence icons never enter the roll (TR-134, our reading).

    """
    mode = _mode(mode)
    if not isinstance(cobweb, (bool, np.bool_)):
        raise SimlibInputError(f"cobweb must be true or false, got {cobweb!r}")
    p = dice.fall_damage_probability(defense, squares)  # validates defense and squares
    if cobweb or set(mode_parts(mode)) & set(NO_FALL_DAMAGE_MODES):
        return 0.0
    return p


def fall_table(
    content: Any = None, squares: Iterable[int] = range(2, 13), mode: str = "standard"
) -> pd.DataFrame:
    """Fall damage chance per armor set (rows) and squares fallen (columns).

    ``content`` is a path to a designer's data file, an already loaded content dict, or
    ``None`` for the defaults. Returns a DataFrame indexed by armor id, one float column
    per number of squares.
    """
    data = _content(content)
    mode = _mode(mode)
    sq = list(squares)
    rows = {
        aid: [fall_damage_chance(a["defense"], s, mode=mode) for s in sq]
        for aid, a in data["armor"].items()
    }
    df = pd.DataFrame.from_dict(rows, orient="index", columns=sq)
    df.index.name = "armor"
    df.columns.name = "squares fallen"
    return df


def _select(table: dict, wanted: Iterable[str] | None, what: str) -> list[str]:
    if wanted is None:
        return list(table)
    wanted = [wanted] if isinstance(wanted, str) else list(wanted)
    if not wanted:
        raise SimlibInputError(f"the {what} list is empty; name at least one {what}")
    for w in wanted:
        if w not in table:
            raise SimlibInputError(f"{what} '{w}' is not in the data; allowed: {', '.join(table)}")
    return wanted


def combat_table(
    content: Any = None,
    attack_bonus: int = 0,
    defense_bonus: int = 0,
    weapons: Iterable[str] | None = None,
    armor: Iterable[str] | None = None,
    enemies: Iterable[str] | None = None,
) -> pd.DataFrame:
    """Exact wound chances for every weapon x armor x enemy (see the module docstring).

    Parameters
    ----------
    content : str, Path, dict or None
        A designer's data file, loaded content, or ``None`` for the illustrative defaults.
    attack_bonus, defense_bonus : int >= 0
        Attack icons the character adds to one attack die; defence icons the character
        adds to one defence die, on top of the armor set's own (its ``def`` key).
    weapons, armor, enemies : iterables of ids, optional
        Restrict the table to these entries (default: all, in data order).

    Returns
    -------
    pandas.DataFrame
        One row per (weapon, armor, enemy), in that nesting order; columns ``weapon``,
        ``armor``, ``enemy``, ``enemy_wounds``, ``dealt_0 .. dealt_W``, ``p_defeat``,
        ``expected_dealt``, ``taken_0 .. taken_T``, ``expected_taken``, where ``W`` and
        ``T`` are the most attack dice of any weapon and of any enemy. Probabilities of
        more wounds than a pool has dice are 0.

    """
    data = _content(content)
    w_ids = _select(data["weapons"], weapons, "weapon")
    a_ids = _select(data["armor"], armor, "armor")
    e_ids = _select(data["bestiary"], enemies, "enemy")
    n_dealt = max(len(data["weapons"][w]["attack"]) for w in w_ids) + 1
    n_taken = max(len(data["bestiary"][e]["attack"]) for e in e_ids) + 1

    dealt = np.zeros((len(w_ids), len(e_ids), n_dealt))
    for i, w in enumerate(w_ids):
        for j, e in enumerate(e_ids):
            p = dice.duel_distribution(
                data["weapons"][w]["attack"], data["bestiary"][e]["defense"], attack_bonus, 0
            )
            dealt[i, j, : p.shape[0]] = p
    taken = np.zeros((len(a_ids), len(e_ids), n_taken))
    for i, a in enumerate(a_ids):
        for j, e in enumerate(e_ids):
            p = dice.duel_distribution(
                data["bestiary"][e]["attack"], data["armor"][a]["defense"], 0,
                defense_bonus + int(data["armor"][a].get("def", 0)),  # the set's own icons
            )
            taken[i, j, : p.shape[0]] = p
    wounds = np.array([data["bestiary"][e]["wounds"] for e in e_ids])

    nw, na, ne = len(w_ids), len(a_ids), len(e_ids)
    wi, ai, ei = (
        g.ravel() for g in np.meshgrid(np.arange(nw), np.arange(na), np.arange(ne), indexing="ij")
    )
    d = dealt[wi, ei]  # (rows, n_dealt)
    t = taken[ai, ei]
    k_dealt = np.arange(n_dealt)
    cols: dict[str, Any] = {
        "weapon": pd.Categorical(np.array(w_ids, dtype=object)[wi], categories=w_ids),
        "armor": pd.Categorical(np.array(a_ids, dtype=object)[ai], categories=a_ids),
        "enemy": pd.Categorical(np.array(e_ids, dtype=object)[ei], categories=e_ids),
        "enemy_wounds": wounds[ei],
    }
    for k in range(n_dealt):
        cols[f"dealt_{k}"] = d[:, k]
    cols["p_defeat"] = np.where(k_dealt[None, :] >= wounds[ei][:, None], d, 0.0).sum(axis=1)
    cols["expected_dealt"] = d @ k_dealt
    for k in range(n_taken):
        cols[f"taken_{k}"] = t[:, k]
    cols["expected_taken"] = t @ np.arange(n_taken)
    return pd.DataFrame(cols)


# --- exact tables for experiment files (Game.tables) ------------------------------------------
_DATA_OPTION = TableOption(
    "data",
    str,
    None,
    "a TOML file whose [weapons], [armor] or [bestiary] tables replace the illustrative "
    "defaults (not set: the defaults); a relative path is relative to the current folder",
)


def _check_ids(values: dict[str, Any]) -> None:
    """Check the data file and the ids the options name; errors name the option."""
    try:
        data = load_content(values["data"])
    except SimlibInputError as err:
        raise SimlibInputError(f"option 'data': {err}") from None
    for key, table, what in (
        ("weapons", "weapons", "weapon"),
        ("armor", "armor", "armor"),
        ("enemies", "bestiary", "enemy"),
    ):
        if key in values:
            try:
                _select(data[table], values[key], what)
            except SimlibInputError as err:
                raise SimlibInputError(f"option '{key}': {err}") from None


def _combat_from_options(
    data: str | None,
    attack_bonus: int,
    defense_bonus: int,
    weapons: list[str] | None,
    armor: list[str] | None,
    enemies: list[str] | None,
) -> pd.DataFrame:
    return combat_table(data, attack_bonus, defense_bonus, weapons, armor, enemies)


def combat_table_spec() -> TableSpec:
    """The exact table ``combat`` (:func:`combat_table`) for experiment files.

    Options: ``data``, ``attack_bonus``, ``defense_bonus``, ``weapons``, ``armor``,
    ``enemies`` (the arguments of :func:`combat_table`, the content path named ``data``
    as in the settings and the command line).
    """
    return TableSpec(
        build=_combat_from_options,
        description=(
            "One row per weapon x armor set x bestiary enemy: dealt_k is the exact chance "
            "one attack with the weapon inflicts k wounds on the enemy, p_defeat that it "
            "defeats it, taken_k that one attack by the enemy alone costs k health through "
            "the armor; expected_dealt and expected_taken are the means."
        ),
        options=(
            _DATA_OPTION,
            TableOption(
                "attack_bonus", int, 0, "attack icons the character adds to one attack die",
                lo=0, hi=dice.MAX_SIDES,
            ),
            TableOption(
                "defense_bonus", int, 0, "defence icons the character adds to one defence die",
                lo=0, hi=dice.MAX_SIDES,
            ),
            TableOption(
                "weapons", str, None, "weapon ids (not set: every weapon, in data order)",
                many=True,
            ),
            TableOption(
                "armor", str, None, "armor ids (not set: every armor set, in data order)",
                many=True,
            ),
            TableOption(
                "enemies", str, None, "bestiary ids (not set: every enemy, in data order)",
                many=True,
            ),
        ),
        check=_check_ids,
    )


def _fall_from_options(data: str | None, squares: list[int], mode: str) -> pd.DataFrame:
    df = fall_table(data, squares, mode)
    df.columns = [f"fall_{s}" for s in df.columns]
    return df.reset_index()


def fall_table_spec() -> TableSpec:
    """The exact table ``fall`` (:func:`fall_table`) for experiment files.

    Options: ``data``, ``squares`` (default 2 to 12) and ``mode``. Columns: ``armor``, then
    ``fall_N`` per number of squares ``N``.
    """
    return TableSpec(
        build=_fall_from_options,
        description=(
            "One row per armor set: fall_N is the exact chance that a fall of N squares "
            "costs 1 health (the armor's defence dice total N or less; 0 in modes that "
            "ignore fall damage)."
        ),
        options=(
            _DATA_OPTION,
            TableOption(
                "squares", int, tuple(range(2, 13)), "numbers of squares fallen, one column each",
                lo=0, hi=1000, many=True,
            ),
            TableOption("mode", str, "standard", "game mode", choices=MODES),
        ),
        check=_check_ids,
    )


def table_specs() -> dict[str, TableSpec]:
    """Terraria's exact tables by name, what the Terraria ``Game.tables()`` returns."""
    return {"combat": combat_table_spec(), "fall": fall_table_spec()}


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry: write or summarise the combat table; exit 2 on bad input."""
    ap = argparse.ArgumentParser(
        prog="python -m simlib.games.terraria.combat",
        description="Exact Terraria combat odds: weapon x armor x enemy wound chances.",
    )
    ap.add_argument("--data", help="a TOML file replacing the weapons/armor/bestiary tables")
    ap.add_argument("--attack-bonus", type=int, default=0, help="attack icons on one die")
    ap.add_argument("--defense-bonus", type=int, default=0, help="defence icons on one die")
    ap.add_argument("--out", help="write the table to this .csv or .parquet file")
    args = ap.parse_args(argv)
    try:
        df = combat_table(args.data, args.attack_bonus, args.defense_bonus)
        if args.out:
            out = Path(args.out)
            if out.suffix not in (".csv", ".parquet"):
                raise SimlibInputError(f"--out must end in .csv or .parquet, got '{out.name}'")
            if out.suffix == ".csv":
                df.to_csv(out, index=False)
            else:
                df.to_parquet(out, index=False)
            print(f"wrote {len(df):,} rows to {out}")
        else:
            summary = df.pivot_table(
                index="weapon", columns="enemy", values="p_defeat", aggfunc="first", observed=True
            )
            with pd.option_context("display.width", 200, "display.max_columns", 12):
                print("chance that one attack defeats the enemy (rows: weapon)")
                print(summary.round(3))
    except SimlibInputError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
