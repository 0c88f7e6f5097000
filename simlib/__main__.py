"""``python -m simlib``: the ``simlib`` command (see :mod:`simlib.cli`)."""

from simlib.cli import main

raise SystemExit(main())
