"""The searches the bots keep between decisions give what a fresh search gives (hypothesis).

The horror field (steps to the nearest horror and room to back away, ``HDIST``) is kept
while tiles are only laid (``bots.laid_beyond_field_nb``): the kept field must equal the
field searched afresh on the grown cave, whichever way the kernel took.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from test_subterra_horrors import build, caves

from simlib.games.subterra import bots, engine
from simlib.games.subterra.state import CENTER, GFC, SCR, TILE

EAST_WEST = 0b1010  # open to the east (side 1) and the west (side 3)
UNTOUCHED = -7


def grow_field(cave, n0):
    """Search the field on the first ``n0`` tiles of ``cave``, lay the rest, keep it.

    Returns the kept field, the fresh field of the grown cave, the tile count, and
    whether the field was kept without searching (the ``QUEUE`` row untouched).
    """
    cells, masks, types, _, _, _, _, horrors, _ = cave
    n = len(cells)
    first = (cells[:n0], masks[:n0], types[:n0], [0], [3], [False], [1],
             [h for h in horrors if h < n0], -1)
    tl, nb, grid, cv, hz, gs, scratch = build(first)
    bots.forget_nb(scratch)
    bots.kept_horror_field_nb(tl, nb, grid, hz, gs, scratch, n0, bots.cave_key_nb(gs))
    for (x, y), m, ty in zip(cells[n0:], masks[n0:], types[n0:], strict=True):
        engine.place_tile_nb(tl, nb, grid, gs, CENTER + x, CENTER + y, ty, m, 0, -1)
    assert gs[GFC.N_TILES] == n
    fresh = scratch.copy()
    scratch[SCR.QUEUE, :] = UNTOUCHED
    bots.kept_horror_field_nb(tl, nb, grid, hz, gs, scratch, n, bots.cave_key_nb(gs))
    kept_without_search = bool((scratch[SCR.QUEUE] == UNTOUCHED).all())
    bots.forget_nb(fresh)
    bots.kept_horror_field_nb(tl, nb, grid, hz, gs, fresh, n, bots.cave_key_nb(gs))
    return scratch[SCR.HDIST, :n].copy(), fresh[SCR.HDIST, :n].copy(), n, kept_without_search


@settings(max_examples=300, deadline=None)
@given(caves(), st.integers(1, 30))
def test_kept_horror_field_is_the_fresh_one(cave, split):
    n0 = min(split, len(cave[0]))
    kept, fresh, _, _ = grow_field(cave, n0)
    np.testing.assert_array_equal(kept, fresh)


def test_horror_field_kept_only_while_new_tiles_lie_beyond_it():
    # a corridor of 10 tiles, a horror at its west end: the field reaches 6 steps east
    row = [(x, 0) for x in range(10)]
    base = (row, [EAST_WEST] * 10, [TILE.PLAIN] * 10, [0], [3], [False], [1], [0], -1)
    far = ([*row, (10, 0)], [EAST_WEST] * 11, [TILE.PLAIN] * 11, *base[3:])
    kept, fresh, n, searched_not = grow_field(far, 10)
    assert searched_not  # tile 9 beside the new tile is 9 steps from the horror
    np.testing.assert_array_equal(kept, fresh)
    assert kept[10] == -1 and (kept[7:] == -1).all() and (kept[:7] >= 0).all()
    # a tile laid beside tile 3, within the field (walled off from it here, but a tile
    # next door may close an open side): searched again
    near = ([*row, (3, -1)], [EAST_WEST] * 11, [TILE.PLAIN] * 11, *base[3:])
    kept, fresh, n, searched_not = grow_field(near, 10)
    assert not searched_not
    np.testing.assert_array_equal(kept, fresh)
