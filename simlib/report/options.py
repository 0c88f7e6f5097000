"""What a game spec tells the report beyond its DataFrame (optional attributes, any game).

A game may declare ``matchup_columns`` (seat 0's and seat 1's entity columns and the
winner column), ``first_column`` (the seat that went first), ``card_mask_columns`` (per
seat, the bitmask columns of the items it used) and a ``card_names()`` method (item names
by id). Games without them get the plain report.
"""

from __future__ import annotations

from typing import Any


def two_seat_report_options(game: Any, values: dict[str, Any] | None = None) -> dict[str, Any]:
    """Keyword arguments for :func:`simlib.report.html.build_report` from ``game``.

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
