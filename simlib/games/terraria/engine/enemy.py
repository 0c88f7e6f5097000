"""Terraria enemy movement: how far an enemy moves, toward whom, and where it ends.

Rulebook: The Enemy Turn (Enemy Movement). Readings (also in the package docstring):

- How far (TR-319..321): an enemy with movement ``m >= 1`` that sees a character
  (:func:`simlib.games.terraria.engine.sight.sees_nb`) moves up to ``m`` squares; one that sees
  none but stands on a tile holding a character, or on a tile orthogonally beside one,
  moves up to 1 square; otherwise it stays.
- Toward whom (TR-322, open): the nearest character by squares (the larger of the row and
  column distances, as pieces move to any of the 8 neighbours); a tie goes to the lowest
  piece index (the players' choice, made by a fixed rule here).
- Characters inside a house (on a house square, ``sight.inside_house_nb``) do not count
  for enemies (TR-244, TR-245): enemies cannot enter there, see in or attack through the
  walls, so such a character makes no enemy move and is no enemy's target; an enemy whose
  characters are all inside stays.
- Where it ends (TR-323): among the squares it can reach in at most its allowed number of
  steps and may end in (empty, TR-119), the one nearest that character in squares; ties go
  to the shorter straight line (squared distance between square centres), then to fewer
  steps, then the topmost, then the leftmost square. Staying put is always a candidate, so
  an enemy never ends farther away than it started and may leave movement unused.
- Walking enemies (TR-325, TR-326) make the steps characters make
  (:func:`~simlib.games.terraria.engine.movement.can_step_nb`) and fall straight down after a step
  that leaves them unsupported, without fall damage; flying enemies (TR-327) step to any of
  the 8 neighbours that is not a full block (not up into a half block, not diagonally past
  a corner both squares beside it touch, TR-118), ignore platforms and never fall.
  Worms (TR-328, TR-329, open) step to any of the 8 neighbours through full and half
  blocks; they may enter an open square only from a block, so they cross a gap of one
  open square (a tunnel) but no wider; they end in a block or on a surface, never hanging
  in the air, and never fall. No enemy enters a house square (TR-244) or an undiscovered
  tile, and none discovers (TR-148). Left to the spawning and stacking rules (not settled
  here): where a worm is placed, and a worm resting on a piece that moves away, which the
  movement kernels drop like any stacked piece.

The plan is a breadth-first search over squares with scratch arrays the caller allocates
once per game (:func:`alloc_scratch`); :func:`move_enemy_nb` then carries it out through
the movement kernels, so stacks left behind fall as usual (TR-137).
"""

from __future__ import annotations

import numpy as np

from simlib.core.jit import njit
from simlib.games.terraria.engine.movement import (
    T,
    _collapse_nb,
    _leave_nb,
    _register_nb,
    _touches_nb,
    can_step_nb,
    step_nb,
    supported_nb,
)
from simlib.games.terraria.engine.sight import inside_house_nb, sees_memo_nb
from simlib.games.terraria.state import FEAT, KIND, LAYERS, PC, ROLE, SQ, TILE_COLS, P, on_table_nb

__all__ = [
    "DIRS",
    "alloc_scratch",
    "enemy_can_step_nb",
    "targetable_nb",
    "nearest_character_nb",
    "moves_allowed_nb",
    "plan_nb",
    "move_enemy_nb",
]

# the 8 step directions (dr, dc), in the order the search tries them: level, down, up (so a
# square reached both ways is reached by a walk rather than a hop that falls back)
DIRS = np.array(
    [[0, -1], [0, 1], [1, -1], [1, 0], [1, 1], [-1, -1], [-1, 0], [-1, 1]], dtype=np.int64
)


def alloc_scratch(rows: int, cols: int, max_steps: int = 64) -> tuple[np.ndarray, ...]:
    """``(dist, how, queue, path)`` for :func:`plan_nb` on a world of ``rows x cols``."""
    return (
        np.zeros((rows, cols), dtype=np.int16),
        np.zeros((rows, cols), dtype=np.int16),
        np.zeros((rows * cols, 2), dtype=np.int16),
        np.zeros(max_steps, dtype=np.int16),
    )


@njit(refcount=False)
def _solid_nb(grid, r, c):
    """A full or half block square (a worm burrows through both)."""
    s = grid[P.SQ, r, c]
    return s == SQ.BLOCK or s == SQ.HALF


@njit(refcount=False)
def _may_end_nb(grid, tiles, kind, r, c):
    """May an enemy of ``kind`` end its move in (r, c), occupants aside.

    Worms: in a block or on a surface (TR-329); others wherever their step put them.
    """
    if kind != KIND.WORM:
        return True
    return _solid_nb(grid, r, c) or supported_nb(grid, tiles, r, c)


@njit(refcount=False, llvm_inline=True)
def enemy_can_step_nb(grid, tiles, kind, r, c, dr, dc):
    """True when an enemy of ``kind`` in (r, c) may step by (dr, dc). Read only."""
    nr = r + dr
    nc = c + dc
    if not on_table_nb(grid, tiles, nr, nc):
        return False
    if grid[P.FEAT, nr, nc] & FEAT.HOUSE:
        return False  # TR-244
    if kind == KIND.WALKER:
        return can_step_nb(grid, tiles, r, c, dr, dc)
    if (dr == 0 and dc == 0) or dr < -1 or dr > 1 or dc < -1 or dc > 1:
        return False
    if kind == KIND.WORM:
        # through blocks; an open square only straight out of a solid one (a gap of 1)
        return _solid_nb(grid, nr, nc) or _solid_nb(grid, r, c)
    if kind != KIND.FLYER:
        return False
    s = grid[P.SQ, nr, nc]
    if s == SQ.BLOCK:
        return False
    if dr == -1 and s == SQ.HALF:
        return False
    if dr != 0 and dc != 0:
        if _touches_nb(grid, tiles, nr, c, dr == -1) and _touches_nb(grid, tiles, r, nc, dr == 1):
            return False
    return True


@njit(refcount=False)
def _boss_at_nb(grid, pieces, r, c):
    """True when a boss's piece stands in (r, c). Read only."""
    j = grid[P.OCC, r, c] - 1
    return j >= 0 and pieces[j, PC.ROLE] == ROLE.BOSS


@njit(refcount=False)
def _land_nb(grid, tiles, kind, r, c):
    """Row where an enemy stepping into (r, c) ends (only walkers fall; mover unregistered)."""
    if kind != KIND.WALKER:
        return r
    while not supported_nb(grid, tiles, r, c):
        r += 1
    return r


@njit(refcount=False, llvm_inline=True)
def targetable_nb(grid, tiles, pieces, j):
    """Is piece ``j`` a character enemies may target (move toward, head for)? Read only.

    A character inside a house (``sight.inside_house_nb``) is nobody's target: enemies
    cannot enter it, see it or attack it there (TR-244, TR-245).
    """
    if pieces[j, PC.KIND] != KIND.CHARACTER:
        return False
    if inside_house_nb(grid, tiles, pieces[j, PC.ROW], pieces[j, PC.COL]):
        return False  # TR-244, TR-245
    return True


@njit(refcount=False)
def nearest_character_nb(grid, tiles, pieces, k):
    """Index of the character nearest piece ``k`` (ties: lowest index), -1 if none.

    Only characters enemies may target count (:func:`targetable_nb`). Read only.
    """
    best = -1
    bd = 1 << 30
    r = pieces[k, PC.ROW]
    c = pieces[k, PC.COL]
    for j in range(pieces.shape[0]):
        if not targetable_nb(grid, tiles, pieces, j):
            continue
        d = max(abs(pieces[j, PC.ROW] - r), abs(pieces[j, PC.COL] - c))
        if d < bd:
            bd = d
            best = j
    return best


@njit(refcount=False)
def moves_allowed_nb(grid, tiles, pieces, k, movement, seen, epoch):
    """Squares enemy ``k`` with ``movement`` may move this turn (TR-319..321).

    Line of sight goes through the ``seen`` memo at ``epoch`` (``sight.sees_memo_nb``),
    the only array written. Nearness is looked at first: an enemy with movement 1 near a
    character moves 1 square whatever it sees, so no line of sight is asked for it (a
    third of the questions an enemy turn asked; the answer is the same).
    """
    if movement < 1:
        return 0
    r = pieces[k, PC.ROW]
    c = pieces[k, PC.COL]
    h = grid.shape[1] // LAYERS
    w = grid.shape[2] // TILE_COLS
    near = False
    for j in range(pieces.shape[0]):
        if not targetable_nb(grid, tiles, pieces, j):
            continue
        dr = abs(pieces[j, PC.ROW] - r)
        dc = abs(pieces[j, PC.COL] - c)
        if dr >= 2 * h or dc >= 2 * w:
            continue  # two tiles or more apart in a direction: no division needed to see it
        if abs(pieces[j, PC.ROW] // h - r // h) + abs(pieces[j, PC.COL] // w - c // w) <= 1:
            near = True
            break
    if movement > 1 or not near:  # else seeing would allow no more than nearness (1)
        for j in range(pieces.shape[0]):
            if targetable_nb(grid, tiles, pieces, j) and \
                    sees_memo_nb(seen, epoch, grid, tiles, r, c, pieces[j, PC.ROW],
                                 pieces[j, PC.COL]):
                return movement  # TR-320
    return 1 if near else 0  # TR-319, TR-321


@njit(refcount=False)
def plan_nb(grid, tiles, pieces, k, target, steps, dist, how, queue, end_on_pieces=False):
    """Breadth-first plan of enemy ``k`` toward piece ``target`` in at most ``steps`` steps.

    An enemy may pass through other pieces but not end on one (TR-119); with
    ``end_on_pieces`` (a boss, which displaces them, TR-138) it may end there too, but it
    neither crosses nor ends in a square another boss holds (only characters and enemy
    tokens are displaced, TR-139).
    Reads ``grid`` (OCC is restored before returning), ``pieces``; writes the scratch
    ``dist`` (steps to each square, -1 unseen), ``how`` (``8 * row + direction``: the row
    the step that first reached each square started from and its index into ``DIRS``) and
    ``queue``. Returns the chosen end square
    ``(row, col, steps used)``; ``(-1, -1, -1)`` for a piece that is not an enemy.
    """
    kind = pieces[k, PC.KIND]
    if kind != KIND.WALKER and kind != KIND.FLYER and kind != KIND.WORM:
        return -1, -1, -1
    r0 = pieces[k, PC.ROW]
    c0 = pieces[k, PC.COL]
    tr = pieces[target, PC.ROW]
    tc = pieces[target, PC.COL]
    was = grid[P.OCC, r0, c0] == k + 1
    if was:
        grid[P.OCC, r0, c0] = 0
    dist[:, :] = -1
    dist[r0, c0] = 0
    queue[0, 0] = r0
    queue[0, 1] = c0
    head = 0
    tail = 1
    br = r0
    bc = c0
    bd = max(abs(r0 - tr), abs(c0 - tc))
    be2 = (r0 - tr) * (r0 - tr) + (c0 - tc) * (c0 - tc)
    bs = 0
    while head < tail:
        r = queue[head, 0]
        c = queue[head, 1]
        head += 1
        d = dist[r, c]
        if d >= steps:
            continue
        for i in range(8):
            dr = DIRS[i, 0]
            dc = DIRS[i, 1]
            if not enemy_can_step_nb(grid, tiles, kind, r, c, dr, dc):
                continue
            nc = c + dc
            if end_on_pieces and _boss_at_nb(grid, pieces, r + dr, nc):
                continue
            nr = _land_nb(grid, tiles, kind, r + dr, nc)
            if dist[nr, nc] >= 0:
                continue
            dist[nr, nc] = d + 1
            how[nr, nc] = r * 8 + i
            queue[tail, 0] = nr
            queue[tail, 1] = nc
            tail += 1
            if grid[P.OCC, nr, nc] != 0 and not end_on_pieces:
                continue  # may pass through, may not end there (TR-119)
            if not _may_end_nb(grid, tiles, kind, nr, nc):
                continue
            e = max(abs(nr - tr), abs(nc - tc))
            e2 = (nr - tr) * (nr - tr) + (nc - tc) * (nc - tc)
            if e < bd or (
                e == bd
                and (
                    e2 < be2
                    or (
                        e2 == be2
                        and (d + 1 < bs or (d + 1 == bs and (nr < br or (nr == br and nc < bc))))
                    )
                )
            ):
                br = nr
                bc = nc
                bd = e
                be2 = e2
                bs = d + 1
    if was:
        grid[P.OCC, r0, c0] = k + 1
    return br, bc, bs


@njit(refcount=False)
def move_enemy_nb(
    grid, tiles, mini, pieces, k, movement, dist, how, queue, path, falls, disc, tally, seen,
    epoch
):
    """Enemy ``k`` (movement value ``movement``) takes its move of the enemy turn.

    Writes what :func:`~simlib.games.terraria.engine.movement.step_nb` writes (OCC, positions,
    falls, ``tally``) plus the scratch of :func:`plan_nb`, ``path`` and the sight memo
    ``seen`` (at ``epoch``, see :func:`moves_allowed_nb`). Returns the number of steps
    taken, or -1 (nothing changes) for a piece that is not an enemy.
    """
    kind = pieces[k, PC.KIND]
    if kind != KIND.WALKER and kind != KIND.FLYER and kind != KIND.WORM:
        return -1
    n = moves_allowed_nb(grid, tiles, pieces, k, movement, seen, epoch)
    target = nearest_character_nb(grid, tiles, pieces, k)
    if n == 0 or target < 0:
        return 0
    n = min(n, path.shape[0])
    er, ec, s = plan_nb(grid, tiles, pieces, k, target, n, dist, how, queue, False)
    # walk the plan backwards from the end square to recover the directions
    r = er
    c = ec
    for i in range(s - 1, -1, -1):
        d = how[r, c] % 8
        path[i] = d
        r = how[r, c] // 8
        c -= DIRS[d, 1]
    for i in range(s):
        dr = DIRS[path[i], 0]
        dc = DIRS[path[i], 1]
        if kind != KIND.WALKER:  # flyers and worms never fall
            r = pieces[k, PC.ROW]
            c = pieces[k, PC.COL]
            was = _leave_nb(grid, pieces, k)
            pieces[k, PC.ROW] = r + dr
            pieces[k, PC.COL] = c + dc
            tally[T.SQUARES] += 1
            _register_nb(grid, pieces, k)
            if was and r > 0 and not (dr == -1 and dc == 0):
                # the stack above the square left falls (TR-137); after a step straight
                # up it still rests on the mover
                _collapse_nb(grid, tiles, mini, pieces, r - 1, c, falls, disc, tally)
        elif not step_nb(grid, tiles, mini, pieces, k, dr, dc, falls, disc, tally):
            return i
    return s
