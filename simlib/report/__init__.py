"""Tables, charts and HTML reports over playthrough DataFrames; no game knowledge here."""

from simlib.report import charts, html, tables

__all__ = ["tables", "charts", "html"]
