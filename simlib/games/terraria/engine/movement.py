"""Terraria movement with gravity: steps, falls, stacks, rope, platforms, digging, chopping.

Rulebook: Player Turn: Exploring; Falling, Stacking and Displacing; Chopping and Digging;
Crafting (and Using) Platforms and Rope.

Geometry (readings of the checklist, also in the package docstring)
-------------------------------------------------------------------
Squares are ``grid[P.SQ]`` kinds. A full block fills its square; a half block fills the
lower half of its square and its slope is a surface a piece stands on *inside* that square
(TR-117). A piece in square ``(r, c)`` stands on a horizontal or diagonal surface (TR-116)
when: its square is a half block; or the square below is a full block; or a platform lies
on the floor of its square (TR-224); or a piece is in the square below (a stack, TR-123,
TR-136); or it is on the bottom row of the world. A piece holding a rope never falls
(TR-229).

A step (1 action point, TR-113) goes to one of the 8 neighbours except straight down
(TR-114, TR-115): sideways, up, or diagonally up or down. It may not enter a full block
(TR-122), nor an undiscovered tile (no tile is on the table there). An upward step may not
enter a half block (its solid half is in the way); a diagonal step down may not pass through
a platform on the floor of the square beside the mover (platforms are stepped up through,
never dropped through, TR-115). A diagonal step passes the corner shared by the mover's
square, the target and the two squares beside both; it is refused when both of those two
squares touch that corner (TR-118): a full block touches all its corners, a half block only
its two lower ones.

After every step a piece that is not on a surface falls straight down until it is (TR-125),
for free. Pieces stacked on a piece that leaves, or on a block that is dug away, fall too
(TR-126, TR-137), flying enemies excepted. Each fall is reported as an event
``(piece, squares, landed in a cobweb)``; the engine rolls fall damage for characters with
:func:`fall_hurts_nb` (defence dice total <= squares fallen, only for falls of 2 or more,
never into a cobweb, never in Journey or Lucky Horseshoe mode: TR-127..130, TR-435, TR-436),
which uses :func:`simlib.core.dice.fall_damage_nb`.

Pieces may move through squares holding other pieces (TR-121) but a movement must end in an
empty square (TR-119); ``P.OCC`` records a piece only while it stands in an empty square, so
a step that stops inside another piece's square leaves the mover "passing through":
:func:`can_end_nb` tells the bot whether it may stop there. Characters collect a Cobweb for
every cobweb square they move or fall into (TR-232, TR-135) and make a discovery check for
every tile they enter by any means (TR-144); enemies do neither (TR-148).

Helpers take ``(grid, tiles, mini, pieces, ...)`` in that order and say what they write.
"""

from __future__ import annotations

from typing import NamedTuple

from simlib.core.dice import fall_damage_nb
from simlib.core.jit import njit
from simlib.games.terraria.engine.world import discover_nb
from simlib.games.terraria.state import FEAT, KIND, LAYERS, PC, SQ, TILE_COLS, P, on_table_nb

__all__ = [
    "T",
    "supported_nb",
    "can_step_nb",
    "can_end_nb",
    "step_nb",
    "fall_hurts_nb",
    "place_piece_nb",
    "remove_piece_nb",
    "rope_bottom_nb",
    "place_rope_nb",
    "rope_move_nb",
    "let_go_nb",
    "can_place_platform_nb",
    "place_platform_nb",
    "dig_nb",
    "chop_nb",
    "sunrise_trees_nb",
    "butterfly_squares_nb",
    "apply_fall_damage_nb",
]


class Tally(NamedTuple):
    """Counters in ``tally`` (int32 array), added to by the movement kernels."""

    COBWEBS: int = 0  # Cobwebs collected by characters
    DISCOVERED: int = 1  # tile positions written to ``disc``
    FALLS: int = 2  # fall events written to ``falls``
    SQUARES: int = 3  # squares moved by steps and ropes (not falls)
    N: int = 4


T = Tally()


# --- geometry ---------------------------------------------------------------------------------
@njit(refcount=False)
def supported_nb(grid, tiles, r, c):
    """True when a piece in square (r, c) stands on a horizontal or diagonal surface.

    ``grid`` and ``tiles`` are read only. See the module docstring for the surfaces
    (TR-116, TR-117, TR-123, TR-136, TR-224). Holding a rope is the caller's check. The
    edge of the tiles on the table holds a piece up too: an enemy on a discovered tile
    never falls into one not yet placed (characters discover the tile below them first).
    """
    if grid[P.SQ, r, c] == SQ.HALF:
        return True
    if grid[P.FEAT, r, c] & FEAT.PLATFORM:
        return True
    if r + 1 >= grid.shape[1]:
        return True
    if grid[P.SQ, r + 1, c] == SQ.BLOCK:
        return True
    if grid[P.OCC, r + 1, c] != 0:
        return True
    return not on_table_nb(grid, tiles, r + 1, c)


@njit(refcount=False)
def _touches_nb(grid, tiles, r, c, corner_below):
    """Does square (r, c) touch a corner on its lower (``corner_below``) or upper edge?"""
    if not on_table_nb(grid, tiles, r, c):
        return False
    s = grid[P.SQ, r, c]
    if s == SQ.BLOCK:
        return True
    return s == SQ.HALF and corner_below


@njit(refcount=False, llvm_inline=True)
def can_step_nb(grid, tiles, r, c, dr, dc):
    """True when a piece in (r, c) may make the single step (dr, dc) (occupants ignored).

    ``dr`` in -1 (up), 0, 1 (down), ``dc`` in -1, 0, 1; read only. Straight down and
    staying put are never steps (TR-115).
    """
    if dr == 1 and dc == 0:
        return False
    if dr == 0 and dc == 0:
        return False
    if dr < -1 or dr > 1 or dc < -1 or dc > 1:
        return False
    nr = r + dr
    nc = c + dc
    if not on_table_nb(grid, tiles, nr, nc):
        return False
    s = grid[P.SQ, nr, nc]
    if s == SQ.BLOCK:
        return False  # TR-122
    if dr == -1 and s == SQ.HALF:
        return False  # its solid lower half is in the way
    if dc != 0 and dr != 0:
        # TR-118: the corner passed is on the lower edge of the square above/below the
        # mover when stepping up, on the lower edge of the square beside it when stepping down
        if _touches_nb(grid, tiles, nr, c, dr == -1) and _touches_nb(grid, tiles, r, nc, dr == 1):
            return False
        if dr == 1 and grid[P.FEAT, r, nc] & FEAT.PLATFORM:
            return False  # never dropped through (TR-115)
    return True


@njit(refcount=False)
def can_end_nb(grid, pieces, k):
    """True when piece ``k`` may end its movement where it is: no other piece there (TR-119)."""
    occ = grid[P.OCC, pieces[k, PC.ROW], pieces[k, PC.COL]]
    return occ == 0 or occ == k + 1


# --- moving pieces ----------------------------------------------------------------------------
@njit(refcount=False)
def _enter_nb(grid, tiles, mini, pieces, k, nr, nc, disc, tally):
    """Put piece ``k`` in square (nr, nc): cobweb and discovery for characters."""
    r = pieces[k, PC.ROW]
    c = pieces[k, PC.COL]
    pieces[k, PC.ROW] = nr
    pieces[k, PC.COL] = nc
    if pieces[k, PC.KIND] != KIND.CHARACTER:
        return
    if grid[P.FEAT, nr, nc] & FEAT.COBWEB:
        tally[T.COBWEBS] += 1  # TR-232 / TR-135: moving or falling into a cobweb square
    h = grid.shape[1] // LAYERS
    w = grid.shape[2] // TILE_COLS
    if r // h != nr // h or c // w != nc // w:
        n = tally[T.DISCOVERED]
        at = min(n, disc.shape[0] - 4)  # a full buffer keeps overwriting its last 4 rows
        tally[T.DISCOVERED] += discover_nb(tiles, mini, nr // h, nc // w, disc[at:])


@njit(refcount=False)
def _register_nb(grid, pieces, k):
    r = pieces[k, PC.ROW]
    c = pieces[k, PC.COL]
    if grid[P.OCC, r, c] == 0:
        grid[P.OCC, r, c] = k + 1


@njit(refcount=False)
def _fall_nb(grid, tiles, mini, pieces, k, disc, tally):
    """Drop piece ``k`` (not registered in OCC) until it stands on a surface; squares fallen."""
    n = 0
    while not supported_nb(grid, tiles, pieces[k, PC.ROW], pieces[k, PC.COL]):
        _enter_nb(
            grid, tiles, mini, pieces, k, pieces[k, PC.ROW] + 1, pieces[k, PC.COL], disc, tally
        )
        n += 1
    return n


@njit(refcount=False)
def _record_fall_nb(grid, pieces, k, n, falls, tally):
    if n <= 0:
        return
    i = tally[T.FALLS]
    if i < falls.shape[0]:
        falls[i, 0] = k
        falls[i, 1] = n
        falls[i, 2] = 1 if grid[P.FEAT, pieces[k, PC.ROW], pieces[k, PC.COL]] & FEAT.COBWEB else 0
    tally[T.FALLS] = i + 1


@njit(refcount=False)
def _collapse_nb(grid, tiles, mini, pieces, r, c, falls, disc, tally):
    """Pieces stacked above square (r, c), which just lost its support, fall (TR-137)."""
    rr = r
    while rr >= 0:
        j = grid[P.OCC, rr, c] - 1
        if j < 0:
            return
        if pieces[j, PC.KIND] == KIND.FLYER or pieces[j, PC.ROPE] != 0:
            return  # flying enemies stay put, and hold up whatever stands on them
        if supported_nb(grid, tiles, rr, c):
            return
        grid[P.OCC, rr, c] = 0
        n = _fall_nb(grid, tiles, mini, pieces, j, disc, tally)
        _register_nb(grid, pieces, j)
        _record_fall_nb(grid, pieces, j, n, falls, tally)
        rr -= 1


@njit(refcount=False)
def _leave_nb(grid, pieces, k):
    """Unregister piece ``k`` from its square; True if it was registered there."""
    r = pieces[k, PC.ROW]
    c = pieces[k, PC.COL]
    if grid[P.OCC, r, c] == k + 1:
        grid[P.OCC, r, c] = 0
        return True
    return False


@njit(refcount=False)
def step_nb(grid, tiles, mini, pieces, k, dr, dc, falls, disc, tally):
    """One movement action: piece ``k`` steps by (dr, dc), then falls if it must.

    Parameters
    ----------
    grid : int16 (P.N, rows, cols)
        Written: OCC (the mover and any stack that falls).
    tiles : int16 (TP.N, 5, 17)
        Written: KNOWN (discovery by characters).
    mini : int16 (2, 4)
        Written: minimap tokens flipped by discovery.
    pieces : int16 (n, PC.N)
        Written: positions of the mover and of fallen pieces; the mover lets go of a rope.
    k : int
        The moving piece.
    dr : int
        -1 up, 0 level, 1 down (diagonal only).
    dc : int
        -1 left, 0, 1 right.
    falls : int16 (F, 3)
        Written from ``tally[T.FALLS]`` on: ``(piece, squares, landed in a cobweb)`` for
        every fall (mover first, then the stack above its old square, lowest first).
    disc : int16 (D, 2), D >= 4
        Written from ``tally[T.DISCOVERED]`` on: newly discovered tile positions. The
        engine empties it after each action; a full buffer overwrites its last 4 rows.
    tally : int32 (T.N,)
        Added to (see :class:`Tally`).

    Returns
    -------
    bool
        False (and nothing changes) when the step is not allowed.

    """
    r = pieces[k, PC.ROW]
    c = pieces[k, PC.COL]
    if not can_step_nb(grid, tiles, r, c, dr, dc):
        return False
    was = _leave_nb(grid, pieces, k)
    pieces[k, PC.ROPE] = 0
    _enter_nb(grid, tiles, mini, pieces, k, r + dr, c + dc, disc, tally)
    tally[T.SQUARES] += 1
    if pieces[k, PC.KIND] != KIND.FLYER:
        n = _fall_nb(grid, tiles, mini, pieces, k, disc, tally)
        _record_fall_nb(grid, pieces, k, n, falls, tally)
    _register_nb(grid, pieces, k)
    if was and r > 0:
        _collapse_nb(grid, tiles, mini, pieces, r - 1, c, falls, disc, tally)
    return True


@njit(refcount=False)
def fall_hurts_nb(defense, squares, cobweb, fall_damage, state):
    """Roll fall damage for a character's fall: 1 if it loses a health, else 0.

    ``defense`` int array of die sizes (the worn armor's, else the character card's, TR-128;
    read only); ``squares`` fallen; ``cobweb`` true when the fall ended in a cobweb square
    (never hurts, TR-130); ``fall_damage`` false in Journey and Lucky Horseshoe modes
    (TR-435, TR-436). Dice are rolled (through :func:`simlib.core.dice.fall_damage_nb`, one
    ``randint_nb`` per die) only for a fall of 2 or more squares that can hurt (TR-127);
    the total at most ``squares`` loses 1 health (TR-129). Defence icons do not count
    (TR-134). ``state`` (uint64[4]) is written.
    """
    if not fall_damage or cobweb:
        return 0
    return fall_damage_nb(defense, squares, state)


@njit(refcount=False)
def place_piece_nb(grid, tiles, mini, pieces, k, kind, r, c, falls, disc, tally):
    """Put piece ``k`` of ``kind`` into square (r, c) (setup, spawn, respawn) and let it fall.

    Walking enemies spawned over a tunnel fall (TR-126); a character placed makes the
    discovery check for the tile it is placed on (TR-144: moving into a tile by any means)
    and for tiles it falls into. Writes ``pieces[k]``, OCC, ``tiles``/``mini`` by
    discovery, ``disc``, ``falls``/``tally`` for a fall. Returns False when the square is
    not on a discovered tile, is a full block or holds a piece.
    """
    if not on_table_nb(grid, tiles, r, c):
        return False
    if grid[P.SQ, r, c] == SQ.BLOCK or grid[P.OCC, r, c] != 0:
        return False
    pieces[k, PC.KIND] = kind
    pieces[k, PC.ROW] = r
    pieces[k, PC.COL] = c
    pieces[k, PC.ROPE] = 0
    if kind == KIND.CHARACTER:
        h = grid.shape[1] // LAYERS
        w = grid.shape[2] // TILE_COLS
        n = tally[T.DISCOVERED]
        at = min(n, disc.shape[0] - 4)
        tally[T.DISCOVERED] += discover_nb(tiles, mini, r // h, c // w, disc[at:])
    if kind != KIND.FLYER:
        n = _fall_nb(grid, tiles, mini, pieces, k, disc, tally)
        _record_fall_nb(grid, pieces, k, n, falls, tally)
    _register_nb(grid, pieces, k)
    return True


@njit(refcount=False)
def remove_piece_nb(grid, tiles, mini, pieces, k, falls, disc, tally):
    """Take piece ``k`` off the world (death, defeat); pieces stacked on it fall (TR-137).

    Writes ``pieces[k]`` (kind NONE), OCC and the falls of the stack above.
    """
    r = pieces[k, PC.ROW]
    c = pieces[k, PC.COL]
    was = _leave_nb(grid, pieces, k)
    pieces[k, PC.KIND] = KIND.NONE
    pieces[k, PC.ROPE] = 0
    if was and r > 0:
        _collapse_nb(grid, tiles, mini, pieces, r - 1, c, falls, disc, tally)


# --- rope -------------------------------------------------------------------------------------
@njit(refcount=False)
def rope_bottom_nb(grid, rr, cc):
    """Lowest square of the rope hanging from a rope token at (rr, cc) (TR-227).

    "An imaginary rope extends vertically downwards from this token as far as the first
    solid block"; a half block counts as solid. ``grid`` is read only.
    """
    r = rr
    while (
        r + 1 < grid.shape[1]
        and grid[P.SQ, r + 1, cc] != SQ.BLOCK
        and grid[P.SQ, r + 1, cc] != SQ.HALF
    ):
        r += 1
    return r


@njit(refcount=False)
def place_rope_nb(grid, tiles, pieces, k, rr, cc):
    """Place a rope token (1 Cobweb, paid by the caller, TR-225) next to piece ``k``.

    The square must be empty and adjacent (TR-226; TR-124: any of the 8 neighbours).
    Writes ``FEAT.ROPE`` at (rr, cc). Returns False (nothing changes) when not allowed: not
    adjacent, not on a discovered tile, a block or half block, a piece there, a rope there.
    """
    r = pieces[k, PC.ROW]
    c = pieces[k, PC.COL]
    if abs(rr - r) > 1 or abs(cc - c) > 1 or (rr == r and cc == c):
        return False
    if not on_table_nb(grid, tiles, rr, cc):
        return False
    if grid[P.SQ, rr, cc] == SQ.BLOCK or grid[P.SQ, rr, cc] == SQ.HALF:
        return False
    if grid[P.OCC, rr, cc] != 0 or grid[P.FEAT, rr, cc] & FEAT.ROPE:
        return False
    grid[P.FEAT, rr, cc] |= FEAT.ROPE
    return True


@njit(refcount=False)
def rope_move_nb(grid, tiles, mini, pieces, k, rr, cc, target, falls, disc, tally):
    """Piece ``k``, in the rope's column below the token at (rr, cc), climbs to row ``target``.

    The rope costs 1 action point per 2 squares, rounded up (TR-228, TR-231); the piece may
    stop anywhere on the rope and holds it there (TR-229). Cobwebs and discovery as for
    steps. The target square must be empty (TR-119); the squares passed may hold pieces.
    Writes ``pieces``, OCC, ``tiles``/``mini`` by discovery, ``tally``, and the falls of a
    stack left behind.

    Returns
    -------
    int
        Action points spent, or -1 (nothing changes) when the move is not allowed.

    """
    r = pieces[k, PC.ROW]
    c = pieces[k, PC.COL]
    if c != cc or not grid[P.FEAT, rr, cc] & FEAT.ROPE:
        return -1
    bottom = rope_bottom_nb(grid, rr, cc)
    if r < rr or r > bottom or target < rr or target > bottom or target == r:
        return -1
    for q in range(min(r, target), max(r, target) + 1):
        if not on_table_nb(grid, tiles, q, cc):
            return -1
    occ = grid[P.OCC, target, cc]
    if occ != 0 and occ != k + 1:
        return -1
    was = _leave_nb(grid, pieces, k)
    d = 1 if target > r else -1
    q = r
    while q != target:
        q += d
        _enter_nb(grid, tiles, mini, pieces, k, q, cc, disc, tally)
    tally[T.SQUARES] += abs(target - r)
    pieces[k, PC.ROPE] = 1
    _register_nb(grid, pieces, k)
    if was and r > 0:
        _collapse_nb(grid, tiles, mini, pieces, r - 1, c, falls, disc, tally)
    return (abs(target - r) + 1) // 2


@njit(refcount=False)
def let_go_nb(grid, tiles, mini, pieces, k, falls, disc, tally):
    """Piece ``k`` lets go of its rope and falls as normal (TR-230).

    Writes ``pieces``, OCC, ``falls`` (one event if it fell), ``tally``. Returns the
    squares fallen (0 when it was standing on a surface or held no rope).
    """
    if pieces[k, PC.ROPE] == 0:
        return 0
    pieces[k, PC.ROPE] = 0
    r = pieces[k, PC.ROW]
    c = pieces[k, PC.COL]
    if supported_nb(grid, tiles, r, c):
        return 0
    _leave_nb(grid, pieces, k)
    n = _fall_nb(grid, tiles, mini, pieces, k, disc, tally)
    _record_fall_nb(grid, pieces, k, n, falls, tally)
    _register_nb(grid, pieces, k)
    if r > 0:
        _collapse_nb(grid, tiles, mini, pieces, r - 1, c, falls, disc, tally)
    return n


# --- platforms --------------------------------------------------------------------------------
@njit(refcount=False)
def can_place_platform_nb(grid, tiles, pieces, k, plat_pos, slot):
    """True when piece ``k`` may place a platform at position ``slot`` of ``plat_pos``.

    ``plat_pos`` int16 (K, 2) (from ``compile.compile_world``): the square whose floor gets
    the platform, relative to the piece (TR-222). Not on the upper or lower edge of a full
    block, nor the lower edge of a half block (TR-223); not where a platform already is;
    only on discovered tiles. Read only.
    """
    tr = pieces[k, PC.ROW] + plat_pos[slot, 0]
    tc = pieces[k, PC.COL] + plat_pos[slot, 1]
    if not on_table_nb(grid, tiles, tr, tc) or tr + 1 >= grid.shape[1]:
        return False
    s = grid[P.SQ, tr, tc]
    if s == SQ.BLOCK or s == SQ.HALF:
        return False
    if grid[P.SQ, tr + 1, tc] == SQ.BLOCK:
        return False
    return not grid[P.FEAT, tr, tc] & FEAT.PLATFORM


@njit(refcount=False)
def place_platform_nb(grid, tiles, pieces, k, plat_pos, slot):
    """Place a platform (1 Wood, paid by the caller, TR-221) at ``slot``; writes ``grid``.

    Returns False (nothing changes) when :func:`can_place_platform_nb` refuses.
    """
    if not can_place_platform_nb(grid, tiles, pieces, k, plat_pos, slot):
        return False
    tr = pieces[k, PC.ROW] + plat_pos[slot, 0]
    tc = pieces[k, PC.COL] + plat_pos[slot, 1]
    grid[P.FEAT, tr, tc] |= FEAT.PLATFORM
    return True


# --- digging and chopping ---------------------------------------------------------------------
@njit(refcount=False)
def dig_nb(grid, tiles, mini, pieces, k, tr, tc, amount, res_dig, falls, disc, tally):
    """Piece ``k`` spends up to ``amount`` dig on the block at (tr, tc) (TR-170..182).

    The block must be a full or half block adjacent to the piece (any of the 8 neighbours,
    TR-171, TR-124) on a discovered tile. It needs ``res_dig[res]`` dig (a plain or half
    block 1, TR-172; an icon block its resource's cost, TR-173); dig already spent on it by
    anyone is kept in ``P.PROG`` (TR-175). Only the dig needed is spent, so the rest can go
    elsewhere (TR-182). A finished block becomes a tunnel (TR-178); digging never moves the
    digger (TR-179), but pieces standing on the block fall into the tunnel and on (TR-180,
    TR-126). Writes ``grid``, and ``pieces``/``falls``/``disc``/``tally`` for falls.

    Returns
    -------
    tuple of int
        ``(spent, done, res)``: dig spent (-1: not allowed, nothing changes), 1 when the
        block was finished, its resource id + 1 (0: none; structural resources are the
        caller's to discard, TR-177).

    """
    r = pieces[k, PC.ROW]
    c = pieces[k, PC.COL]
    if abs(tr - r) > 1 or abs(tc - c) > 1 or (tr == r and tc == c) or amount <= 0:
        return -1, 0, 0
    if not on_table_nb(grid, tiles, tr, tc):
        return -1, 0, 0
    s = grid[P.SQ, tr, tc]
    if s != SQ.BLOCK and s != SQ.HALF:
        return -1, 0, 0
    res = grid[P.RES, tr, tc]
    cost = res_dig[res] if s == SQ.BLOCK else 1
    spent = min(amount, cost - grid[P.PROG, tr, tc])
    if grid[P.PROG, tr, tc] + spent < cost:
        grid[P.PROG, tr, tc] += spent
        return spent, 0, 0
    grid[P.SQ, tr, tc] = SQ.AIR
    grid[P.RES, tr, tc] = 0
    grid[P.PROG, tr, tc] = 0
    grid[P.FEAT, tr, tc] |= FEAT.TUNNEL
    if tr > 0:
        _collapse_nb(grid, tiles, mini, pieces, tr - 1, tc, falls, disc, tally)
    return spent, 1, res


@njit(refcount=False)
def chop_nb(grid, tiles, pieces, k, tr, tc, amount):
    """Piece ``k`` spends up to ``amount`` chop on the tree or cactus shown at (tr, tc).

    (TR-161..169) The piece must be adjacent to that square (TR-162); a square covered by a
    piece or a house cannot be chopped (TR-164, TR-237), nor a tree already chopped (an
    Acorn, TR-166). Chop
    spent by anyone is kept in ``P.PROG`` (TR-167); only the chop needed is spent (TR-168).
    When finished the tree gets an Acorn and yields Wood equal to its chop value (TR-163).
    Writes ``grid``.

    Returns
    -------
    tuple of int
        ``(spent, wood)``: chop spent (-1: not allowed), Wood gained (0 until finished).

    """
    r = pieces[k, PC.ROW]
    c = pieces[k, PC.COL]
    if abs(tr - r) > 1 or abs(tc - c) > 1 or (tr == r and tc == c) or amount <= 0:
        return -1, 0
    if not on_table_nb(grid, tiles, tr, tc):
        return -1, 0
    f = grid[P.FEAT, tr, tc]
    if not f & FEAT.TREE or f & (FEAT.ACORN | FEAT.HOUSE) or grid[P.OCC, tr, tc] != 0:
        return -1, 0
    need = grid[P.VAL, tr, tc]
    spent = min(amount, need - grid[P.PROG, tr, tc])
    if grid[P.PROG, tr, tc] + spent < need:
        grid[P.PROG, tr, tc] += spent
        return spent, 0
    grid[P.PROG, tr, tc] = 0
    grid[P.FEAT, tr, tc] |= FEAT.ACORN
    return spent, need


@njit(refcount=False)
def sunrise_trees_nb(grid):
    """Sunrise step 2: every Acorn is removed, with any partial chop it tracked (TR-082).

    Writes ``grid`` (FEAT and PROG of tree squares).
    """
    for r in range(grid.shape[1]):
        for c in range(grid.shape[2]):
            if grid[P.FEAT, r, c] & FEAT.TREE:
                grid[P.FEAT, r, c] &= ~FEAT.ACORN
                grid[P.PROG, r, c] = 0


# --- setup and fall damage --------------------------------------------------------------------
@njit(refcount=False)
def butterfly_squares_nb(grid, out):
    """The butterfly starting squares, top to bottom and left to right (TR-053).

    ``grid`` is read only; ``out`` int16 (M, 2) is written with ``(row, col)`` of each.
    Returns how many there are (at most M). The rulebook puts 4 on the central Surface
    Forest tile; which one each player takes is the players' choice (a bot's).
    """
    n = 0
    for r in range(grid.shape[1] // LAYERS):  # the Surface layer
        for c in range(grid.shape[2]):
            if grid[P.FEAT, r, c] & FEAT.BUTTERFLY and n < out.shape[0]:
                out[n, 0] = r
                out[n, 1] = c
                n += 1
    return n


@njit(refcount=False)
def apply_fall_damage_nb(
    falls, n_falls, pieces, defense, n_defense, health, fall_damage, state, counts
):
    """Roll fall damage for the characters among ``n_falls`` fall events and apply it.

    Parameters
    ----------
    falls : int16 (F, 3)
        Fall events ``(piece, squares, landed in a cobweb)`` from the movement kernels (read
        only); the first ``n_falls`` are used, in order.
    n_falls : int
        How many events to use (``tally[T.FALLS]``).
    pieces : int16 (n, PC.N)
        Read only: only ``KIND.CHARACTER`` pieces can be hurt (TR-131); character ``k`` is
        piece ``k``.
    defense : int64 (players, D)
        Each character's defence dice (worn armor's, else the character card's, TR-128);
        read only, the first ``n_defense[k]`` of row ``k`` are used.
    n_defense : int64 (players,)
        Number of defence dice of each character.
    health : int64 (players,), written
        Each hurt loses exactly 1 health (TR-129), never below 0; fall damage adds no debuff
        (TR-132).
    fall_damage : bool
        False in Journey and Lucky Horseshoe modes (TR-435, TR-436).
    state : uint64 (4,), written
        One ``randint_nb`` per defence die of every fall of 2 or more squares that can hurt,
        in event order.
    counts : int64 (3,), added to
        Character falls, health lost to falls, characters brought to 0 health by a fall
        (they die, even in the player turn: TR-133; dying is the engine's).

    Returns
    -------
    int
        How many characters this brought to 0 health.

    """
    dead = 0
    for i in range(min(n_falls, falls.shape[0])):
        k = falls[i, 0]
        if pieces[k, PC.KIND] != KIND.CHARACTER:
            continue
        counts[0] += 1
        if health[k] <= 0:
            continue
        hurt = fall_hurts_nb(
            defense[k, : n_defense[k]], falls[i, 1], falls[i, 2] != 0, fall_damage, state
        )
        if hurt:
            health[k] -= 1
            counts[1] += 1
            if health[k] == 0:
                counts[2] += 1
                dead += 1
    return dead
