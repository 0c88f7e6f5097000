"""Terraria line of sight and range on the square grid.

Rulebook: Attacking (Range, Line of Sight); The Enemy Turn (Enemy Attacks).

Line of sight (TR-266, readings of TR-270 in the package docstring)
-----------------------------------------------------------------
Square ``(r, c)`` is the closed unit square ``[c, c + 1] x [r, r + 1]`` (x to the right, y
down). A piece sees another when some straight segment from one of the 4 corners of its
square to one of the 4 corners of the other's square has no point in the *interior of the
union* of the blocking regions:

- a full block fills its square; a half block fills the lower half of its square (TR-116);
  a square under a house tile (``FEAT.HOUSE``) is filled (TR-246);
- the two pieces' own squares never block (a character standing in a half block, a worm
  inside a block, sees out of its square and is seen in it);
- squares of undiscovered tiles never block (nothing is on the table there); lava,
  platforms, cobwebs, trees and pieces never block.

So touching a corner of a block or running along its outer edge does not block, but running
along the seam between two blocking regions does (the seam is inside their union). The
segment set is symmetric, so sight is symmetric (TR-267, TR-268). The kernel works in
doubled coordinates (corners and the half-block line are integers), walks each slanted
segment through the squares it passes inside (exact integer arithmetic), and checks the
seams for segments along a grid line.

Inside a house (TR-243, TR-245, TR-246)
---------------------------------------
"You cannot attack enemies through walls or doors. Enemies cannot enter buildings and
cannot attack through walls or doors." A piece on a house square (``FEAT.HOUSE``, see
:func:`inside_house_nb`) is inside the building, behind its walls and doors, and its own
square's exemption does not let it look out: a square inside a house and a square outside
every house never see each other, whatever the geometry. So no enemy sees (nor, since every
enemy attack needs sight, attacks) a character inside, and a character inside attacks no
enemy outside, with any weapon (:func:`sees_nb` with ``houses_only``); it may still move,
dig, chop, craft and build from there. Two squares both under houses (no enemy ever stands
in one, TR-244) see each other by the geometry alone.

Weapons without the line-of-sight icon (TR-269, TR-243)
------------------------------------------------------
They hit enemies in range "even if your character can't see the enemy", but still not
"through walls or doors": ``sees_nb(..., houses_only=True)`` is the same test where a
segment is stopped only inside a house or on the seam between a house and another blocking
region (blocks do not stop such a weapon, a house does, and a house standing on the ground
leaves no gap along its floor).

Range (TR-260..264, TR-333, TR-124)
----------------------------------
:func:`reach_nb` gives the bit set of ranges that reach from one square to another:
``SHORT`` when the squares are adjacent (one of the 8 neighbours, across tile borders);
``MEDIUM`` when they are not adjacent and their tiles are the same or one of the 8 tiles
around (TR-264, open); ``LONG`` when they are not adjacent. The same square is reached by
no range (two pieces never share a square).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from simlib.core.jit import njit
from simlib.games.terraria.state import FEAT, SQ, TP, P, on_table_nb

__all__ = [
    "R",
    "blocker_nb",
    "inside_house_nb",
    "segment_clear_nb",
    "sees_nb",
    "sight_epoch_nb",
    "sees_memo_nb",
    "reach_nb",
]


class Ranges(NamedTuple):
    """Range bits returned by :func:`reach_nb` (a weapon's ranges are the same bits)."""

    SHORT: int = 1
    MEDIUM: int = 2
    LONG: int = 4


R = Ranges()

HOUSE = 3  # :func:`blocker_nb`'s value for a square under a house


@njit(refcount=False, llvm_inline=True)
def inside_house_nb(grid, tiles, r, c):
    """True when square (r, c) is inside a house: under a house tile on the table. Read only."""
    return on_table_nb(grid, tiles, r, c) and grid[P.FEAT, r, c] & FEAT.HOUSE != 0


@njit(refcount=False)
def blocker_nb(grid, tiles, r, c, ar, ac, br, bc):
    """Blocking region of square (r, c): 0 none, 1 lower half, 2 whole square, 3 a house.

    ``HOUSE`` (3) fills the whole square as 2 does. Squares (ar, ac) and (br, bc) are the
    two pieces' own squares and never block; squares outside the world or on undiscovered
    tiles never block. Read only.
    """
    if (r == ar and c == ac) or (r == br and c == bc):
        return 0
    if not on_table_nb(grid, tiles, r, c):
        return 0
    if grid[P.FEAT, r, c] & FEAT.HOUSE:
        return HOUSE
    s = grid[P.SQ, r, c]
    if s == SQ.BLOCK:
        return 2
    if s == SQ.HALF:
        return 1
    return 0


@njit(refcount=False, llvm_inline=True)
def segment_clear_nb(grid, tiles, x0, y0, x1, y1, ar, ac, br, bc, houses_only=False):
    """True when the segment between two corners passes inside no blocking region.

    Corners (x0, y0), (x1, y1) are in doubled coordinates (the top left corner of square
    (r, c) is (2c, 2r)); the blocking regions are :func:`blocker_nb`'s with own squares
    (ar, ac), (br, bc), and the segment must have no point inside their union. With
    ``houses_only`` only its points inside a house or on the seam between a house and
    another blocking region count (a house standing on the ground leaves no gap under its
    floor). Read only.

    A slanted segment is walked column by column: over the open strip of column c it runs
    through the open heights (ya, yb), kept exactly as fractions over ``d = |x1 - x0|``, and
    passes inside exactly the squares of rows floor(ya / 2) to ceil(yb / 2) - 1 (inside a
    half block's lower half when (ya, yb) meets (2r + 1, 2r + 2)). Only those squares are
    read, not the whole box the segment spans. A segment along a grid line passes inside
    no square; only the seams between regions can block it.
    """
    dx = x1 - x0
    dy = y1 - y0
    if dx != 0 and dy != 0:
        d = dx if dx > 0 else -dx
        sgn = 1 if dx > 0 else -1
        m = 2 * d
        c0 = min(x0, x1) // 2
        # the height at x = 2c, times d, and its quotient and remainder by 2d, carried
        # from column to column by one step (no division in the loop). At the left end
        # (x = 2 * c0, a corner) the height is that corner's y, so the first quotient needs
        # no division either: y * d over 2d is y over 2
        ys = y0 if x0 < x1 else y1
        na = ys * d
        step = sgn * dy * 2
        qa = ys >> 1
        ra = (ys & 1) * d
        if 0 <= step < m:  # a shallow slope: no division
            qs = 0
        elif -m <= step < 0:
            qs = -1
        else:
            qs = step // m
        rs = step - qs * m
        for c in range(c0, max(x0, x1) // 2):
            nz = na + step  # at x = 2c + 2, times d
            qz = qa + qs
            rz = ra + rs
            if rz >= m:
                rz -= m
                qz += 1
            if na <= nz:  # rows floor(lo / 2d) to ceil(hi / 2d) - 1
                lo = na
                hi = nz
                r_lo = qa
                r_end = qz + (1 if rz != 0 else 0)
            else:
                lo = nz
                hi = na
                r_lo = qz
                r_end = qa + (1 if ra != 0 else 0)
            for r in range(r_lo, r_end):
                b = blocker_nb(grid, tiles, r, c, ar, ac, br, bc)
                if houses_only:
                    if b == HOUSE:
                        return False
                elif b >= 2:
                    return False
                elif b == 1 and lo < (2 * r + 2) * d and (2 * r + 1) * d < hi:
                    return False
            na = nz
            qa = qz
            ra = rz
        return True
    cmin = min(x0, x1) // 2
    cmax = (max(x0, x1) - 1) // 2
    rmin = min(y0, y1) // 2
    rmax = (max(y0, y1) - 1) // 2
    if x0 == x1 and y0 != y1:
        # along the vertical grid line x0: blocked where regions on both sides overlap
        c = x0 // 2
        for r in range(rmin, rmax + 1):
            bl = blocker_nb(grid, tiles, r, c - 1, ar, ac, br, bc)
            rt = blocker_nb(grid, tiles, r, c, ar, ac, br, bc)
            if bl != 0 and rt != 0 and (not houses_only or bl == HOUSE or rt == HOUSE):
                return False  # both regions cover at least the lower half of row r
    elif y0 == y1 and x0 != x1:
        # along the horizontal grid line y0: the region above always reaches its floor;
        # the one below must fill its whole square to reach this line
        r = y0 // 2
        for c in range(cmin, cmax + 1):
            up = blocker_nb(grid, tiles, r - 1, c, ar, ac, br, bc)
            down = blocker_nb(grid, tiles, r, c, ar, ac, br, bc)
            if up != 0 and down >= 2 and (not houses_only or up == HOUSE or down == HOUSE):
                return False
    return True


@njit(refcount=False)
def sees_nb(grid, tiles, ar, ac, br, bc, houses_only=False):
    """True when square (ar, ac) sees square (br, bc) (TR-266; symmetric, TR-267). Read only.

    A square inside a house and one outside never see each other (TR-243, TR-245). With
    ``houses_only`` only the houses block (and their seams with other blocking regions):
    may a weapon without the line-of-sight icon hit from (ar, ac) at (br, bc) (TR-269,
    TR-243)?
    """
    if inside_house_nb(grid, tiles, ar, ac) != inside_house_nb(grid, tiles, br, bc):
        return False  # walls and doors between them (TR-243, TR-245)
    for i in range(4):
        x0 = 2 * (ac + i % 2)
        y0 = 2 * (ar + i // 2)
        for j in range(4):
            x1 = 2 * (bc + j % 2)
            y1 = 2 * (br + j // 2)
            if segment_clear_nb(grid, tiles, x0, y0, x1, y1, ar, ac, br, bc, houses_only):
                return True
    return False


@njit(refcount=False)
def sight_epoch_nb(tiles, changes):
    """What line of sight depends on, as one number (the ``seen`` memo's epoch).

    Squares block by their kind and houses, on discovered tiles only: ``changes`` counts
    the blocks dug out and houses built so far (``state.G.SIGHT``), and the tiles
    discovered are counted from ``tiles`` itself. Read only.
    """
    known = 0
    for la in range(tiles.shape[1]):
        for tc in range(tiles.shape[2]):
            if tiles[TP.KNOWN, la, tc] != 0:
                known += 1
    return changes * 128 + known


@njit(refcount=False)
def sees_memo_nb(seen, epoch, grid, tiles, ar, ac, br, bc):
    """:func:`sees_nb`, remembered in ``seen`` while the world's ``epoch`` stands.

    ``seen`` int32 (slots, 4) rows ``(square a, square b, epoch, answer)`` (-1: empty) are
    a direct-mapped memo of answers; ``epoch`` must change whenever a square's blocking or
    a tile's discovery may have changed (:func:`sight_epoch_nb`). The pair is keyed in
    a fixed order (sight is symmetric, TR-267) and asked of :func:`sees_nb` in that order,
    so an answer never depends on the memo. Writes ``seen``.
    """
    cols = grid.shape[2]
    a = np.int64(ar) * cols + ac  # np.int64: no int16 overflow in plain-Python mode
    b = np.int64(br) * cols + bc
    if a > b:
        a, b = b, a
        ar, ac, br, bc = br, bc, ar, ac
    # unsigned: the key is never negative for squares in the world, and numba's signed
    # remainder adds sign fix-ups (a square off the world only lands in another slot)
    slot = np.uint64(a * 31 + b * 17) % np.uint64(seen.shape[0])
    if seen[slot, 0] == a and seen[slot, 1] == b and seen[slot, 2] == epoch:
        return seen[slot, 3] != 0
    ans = sees_nb(grid, tiles, ar, ac, br, bc, False)
    seen[slot, 0] = a
    seen[slot, 1] = b
    seen[slot, 2] = epoch
    seen[slot, 3] = 1 if ans else 0
    return ans


@njit(refcount=False, llvm_inline=True)
def reach_nb(ar, ac, br, bc, tile_rows, tile_cols):
    """Bit set of ranges (``R``) that reach square (br, bc) from square (ar, ac)."""
    dr = abs(ar - br)
    dc = abs(ac - bc)
    if dr == 0 and dc == 0:
        return 0
    if dr <= 1 and dc <= 1:
        return R.SHORT
    out = R.LONG
    if dr >= 2 * tile_rows or dc >= 2 * tile_cols:
        return out  # two tiles or more apart in a direction (floor division is monotone)
    if abs(ar // tile_rows - br // tile_rows) <= 1 and abs(ac // tile_cols - bc // tile_cols) <= 1:
        out |= R.MEDIUM
    return out
