"""What a game spec tells the report beyond its DataFrame (optional attributes, any game).

:func:`report_options` gathers them for :func:`simlib.report.html.build_report`. A game
may declare ``leave_columns`` and ``remaining_label`` (the "still in play by round" chart),
``measure_columns`` (the means table), ``time_column`` (the "When games end" section;
default ``rounds``), ``causes`` (``(label, total column or None, part columns)`` triples
for the "What causes it" section); a two-seat game ``matchup_columns`` (seat 0's and
seat 1's entity columns and the winner column), ``first_column`` (the seat that went
first), ``card_mask_columns`` (per seat, the bitmask columns of the items it used) and a
``card_names()`` method (item names by id). Games without them get the plain report.
:func:`readings_used` lists the open readings a run used (``Game.readings()``).
"""

from __future__ import annotations

from typing import Any


def report_options(game: Any, values: dict[str, Any] | None = None) -> dict[str, Any]:
    """Keyword arguments for :func:`simlib.report.html.build_report` from ``game``.

    ``values`` (the run's resolved settings, if known) reach ``card_names`` (see
    :func:`two_seat_report_options`).
    """
    if game is None:
        return {}
    out: dict[str, Any] = {
        "leave_columns": tuple(getattr(game, "leave_columns", ()) or ()),
        "measure_columns": tuple(getattr(game, "measure_columns", ()) or ()),
        "time_column": getattr(game, "time_column", "rounds"),
        "causes": tuple(getattr(game, "causes", ()) or ()),
    }
    label = getattr(game, "remaining_label", None)
    if label:
        out["remaining_label"] = label
    out.update(two_seat_report_options(game, values))
    readings = readings_used(game, values)
    if readings:
        out["readings"] = readings
    return out


def two_seat_report_options(game: Any, values: dict[str, Any] | None = None) -> dict[str, Any]:
    """The two-seat part of :func:`report_options`.

    ``values`` (the run's resolved settings, if known) are passed to ``card_names`` so a
    game whose item names depend on a setting (a data file) labels them right.
    """
    if game is None:
        return {}
    out: dict[str, Any] = {}
    matchup = getattr(game, "matchup_columns", None)
    if matchup:
        out["matchup"] = tuple(matchup)
    first = getattr(game, "first_column", None)
    if first:
        out["first_column"] = first
    masks = getattr(game, "card_mask_columns", None)
    if masks:
        out["card_masks"] = tuple(tuple(seat) for seat in masks)
        names = getattr(game, "card_names", None)
        if callable(names):
            out["card_labels"] = list(names(values) if values is not None else names())
    return out


def readings_used(game: Any, values: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """The open readings (``Game.readings()``) a run used: ``name, rule, value, help``.

    ``value`` is the run's resolved value when ``values`` holds it, else the setting's
    default (the rulebook's most literal reading). A reading that varies across the cells
    of combined results is a column of their DataFrame: the report shows its values there.
    """
    if game is None or not hasattr(game, "readings"):
        return []
    values = values or {}
    return [
        {
            "name": s.name,
            "rule": s.reading,
            "value": values.get(s.name, s.default),
            "help": s.help,
        }
        for s in game.readings()
    ]
