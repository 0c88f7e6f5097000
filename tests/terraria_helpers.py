"""Test helpers for Terraria: hand-drawn worlds and a plain-Python reference of movement.

The reference is written from the rules (rulebook text and the readings in
``simlib/games/terraria/engine/movement.py``'s docstring), not from the kernels: positions are
tuples, the world is lists, geometry is done with coordinates (a corner is a point, a block
a closed rectangle).
"""

from __future__ import annotations

import numpy as np

from simlib.core.rng import new_state
from simlib.games.terraria.compile import compile_world, load_world
from simlib.games.terraria.engine import world
from simlib.games.terraria.state import (
    COLUMN_SLOT,
    FEAT,
    KIND,
    LAYERS,
    PC,
    SQ,
    TILE_COLS,
    TP,
    P,
    alloc_world,
)

DATA = load_world()
WC = compile_world(DATA)
TPL, STOCK, STOCK_N, START, RES_DIG, RES_STRUCT, PLAT_POS = WC
H, W = DATA["world"]["tile_rows"], DATA["world"]["tile_cols"]
ROWS, COLS = LAYERS * H, TILE_COLS * W


def generated(seed, index, reveal_all=False):
    """A generated world ``(grid, tiles, mini)``."""
    grid, tiles, mini = alloc_world(H, W)
    drawn = np.zeros_like(STOCK)
    world.generate_world_nb(
        TPL, STOCK, STOCK_N, START, -1, grid, tiles, mini, drawn, new_state(seed, index)
    )
    if reveal_all:
        tiles[TP.KNOWN] = 1
        mini[1] = 1
    return grid, tiles, mini


def drawn_world(rows, top=0, left=0, known=True):
    """An all-air world, every tile known, with ``rows`` drawn at (top, left).

    Codes: '.' air, '#' block, '/' half block, '=' platform floor, 'w' cobweb, 'T' tree
    (chop value 3), 'c' a copper block, 'g' a gold block, 'R' a rope token.
    """
    grid, tiles, mini = alloc_world(H, W)
    tiles[TP.KNOWN] = 1 if known else 0
    mini[1] = 1 if known else 0
    names = list(DATA["resources"])
    for i, line in enumerate(rows):
        for j, ch in enumerate(line):
            r, c = top + i, left + j
            if ch == "#":
                grid[P.SQ, r, c] = SQ.BLOCK
            elif ch == "/":
                grid[P.SQ, r, c] = SQ.HALF
            elif ch == "=":
                grid[P.FEAT, r, c] |= FEAT.PLATFORM
            elif ch == "w":
                grid[P.FEAT, r, c] |= FEAT.COBWEB
            elif ch == "T":
                grid[P.FEAT, r, c] |= FEAT.TREE
                grid[P.VAL, r, c] = 3
            elif ch in "cg":
                grid[P.SQ, r, c] = SQ.BLOCK
                grid[P.RES, r, c] = names.index("copper" if ch == "c" else "gold") + 1
            elif ch == "R":
                grid[P.FEAT, r, c] |= FEAT.ROPE
    return grid, tiles, mini


def buffers(n_pieces=8):
    """``(pieces, falls, disc, tally)`` as the kernels take them."""
    return (
        np.zeros((n_pieces, PC.N), dtype=np.int16),
        np.zeros((64, 3), dtype=np.int16),
        np.zeros((64, 2), dtype=np.int16),
        np.zeros(4, dtype=np.int32),
    )


class Ref:
    """Plain-Python movement rules on a copy of a world."""

    def __init__(self, grid, tiles, mini, pieces):
        self.sq = grid[P.SQ].tolist()
        self.res = grid[P.RES].tolist()
        self.feat = grid[P.FEAT].tolist()
        self.val = grid[P.VAL].tolist()
        self.prog = grid[P.PROG].tolist()
        self.known = {
            (la, tc) for la in range(LAYERS) for tc in range(TILE_COLS) if tiles[TP.KNOWN, la, tc]
        }
        self.faceup = [bool(x) for x in mini[1]]
        # piece: [kind, row, col, rope]; None when unused
        self.pieces = [
            None
            if p[PC.KIND] == KIND.NONE
            else [int(p[PC.KIND]), int(p[PC.ROW]), int(p[PC.COL]), int(p[PC.ROPE])]
            for p in pieces
        ]
        self.standing = {}  # (r, c) -> piece index of the piece standing (registered) there
        for i, p in enumerate(self.pieces):
            if p is not None and grid[P.OCC, p[1], p[2]] == i + 1:
                self.standing[(p[1], p[2])] = i
        self.cobwebs = 0
        self.squares = 0
        self.falls = []  # (piece, squares, cobweb landing)
        self.disc = []

    # -- geometry
    def on_table(self, r, c):
        return 0 <= r < ROWS and 0 <= c < COLS and (r // H, c // W) in self.known

    def on_surface(self, r, c):
        if self.sq[r][c] == SQ.HALF or self.feat[r][c] & FEAT.PLATFORM:
            return True
        if r == ROWS - 1:
            return True
        if self.sq[r + 1][c] == SQ.BLOCK or (r + 1, c) in self.standing:
            return True
        return not self.on_table(r + 1, c)  # the edge of the placed tiles

    def touches(self, r, c, x, y):
        """Does the solid part of square (r, c) contain the point (x, y)?"""
        if not self.on_table(r, c):
            return False
        if self.sq[r][c] == SQ.BLOCK:
            top = r
        elif self.sq[r][c] == SQ.HALF:
            top = r + 0.5
        else:
            return False
        return c <= x <= c + 1 and top <= y <= r + 1

    def step_ok(self, r, c, dr, dc):
        if (dr, dc) in ((0, 0), (1, 0)) or abs(dr) > 1 or abs(dc) > 1:
            return False
        nr, nc = r + dr, c + dc
        if not self.on_table(nr, nc) or self.sq[nr][nc] == SQ.BLOCK:
            return False
        if dr == -1 and self.sq[nr][nc] == SQ.HALF:
            return False
        if dr and dc:
            x = c + (1 if dc > 0 else 0)
            y = r + (1 if dr > 0 else 0)
            if self.touches(nr, c, x, y) and self.touches(r, nc, x, y):
                return False
            if dr == 1 and self.feat[r][nc] & FEAT.PLATFORM:
                return False
        return True

    # -- pieces
    def enter(self, k, r, c):
        p = self.pieces[k]
        old = (p[1] // H, p[2] // W)
        p[1], p[2] = r, c
        if p[0] != KIND.CHARACTER:
            return
        if self.feat[r][c] & FEAT.COBWEB:
            self.cobwebs += 1
        if (r // H, c // W) != old:
            self.discover(r // H, c // W)

    def discover(self, la, tc):
        for dl, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            pos = (la + dl, tc + dc)
            if 0 <= pos[0] < LAYERS and 0 <= pos[1] < TILE_COLS and pos not in self.known:
                if COLUMN_SLOT[pos[1]] >= 0:
                    self.faceup[COLUMN_SLOT[pos[1]]] = True
                self.known.add(pos)
                self.disc.append(pos)

    def drop(self, k):
        n = 0
        while not self.on_surface(self.pieces[k][1], self.pieces[k][2]):
            self.enter(k, self.pieces[k][1] + 1, self.pieces[k][2])
            n += 1
        return n

    def settle(self, k, n):
        p = self.pieces[k]
        self.standing.setdefault((p[1], p[2]), k)
        if n:
            self.falls.append((k, n, int(bool(self.feat[p[1]][p[2]] & FEAT.COBWEB))))

    def unstand(self, k):
        p = self.pieces[k]
        if self.standing.get((p[1], p[2])) == k:
            del self.standing[(p[1], p[2])]
            return True
        return False

    def topple(self, r, c):
        """Pieces standing in the column above (r + 1, c), lowest first, fall if they must."""
        while r >= 0 and (r, c) in self.standing:
            j = self.standing[(r, c)]
            if self.pieces[j][0] == KIND.FLYER or self.pieces[j][3]:
                return
            if self.on_surface(r, c):
                return
            del self.standing[(r, c)]
            self.settle(j, self.drop(j))
            r -= 1

    def place(self, k, kind, r, c):
        if not self.on_table(r, c) or self.sq[r][c] == SQ.BLOCK or (r, c) in self.standing:
            return False
        self.pieces[k] = [kind, r, c, 0]
        if kind == KIND.CHARACTER:
            self.discover(r // H, c // W)
        n = 0 if kind == KIND.FLYER else self.drop(k)
        self.settle(k, n)
        return True

    def step(self, k, dr, dc):
        p = self.pieces[k]
        r, c = p[1], p[2]
        if not self.step_ok(r, c, dr, dc):
            return False
        was = self.unstand(k)
        p[3] = 0
        self.enter(k, r + dr, c + dc)
        self.squares += 1
        n = 0 if p[0] == KIND.FLYER else self.drop(k)
        self.settle(k, n)
        if was:
            self.topple(r - 1, c)
        return True

    def rope_end(self, rr, cc):
        r = rr
        while r + 1 < ROWS and self.sq[r + 1][cc] not in (SQ.BLOCK, SQ.HALF):
            r += 1
        return r

    def climb(self, k, rr, cc, target):
        p = self.pieces[k]
        r, c = p[1], p[2]
        if c != cc or not self.feat[rr][cc] & FEAT.ROPE:
            return -1
        end = self.rope_end(rr, cc)
        if not (rr <= r <= end and rr <= target <= end) or target == r:
            return -1
        if any(not self.on_table(q, cc) for q in range(min(r, target), max(r, target) + 1)):
            return -1
        if self.standing.get((target, cc), k) != k:
            return -1
        was = self.unstand(k)
        for q in range(r + 1, target + 1) if target > r else range(r - 1, target - 1, -1):
            self.enter(k, q, cc)
        self.squares += abs(target - r)
        p[3] = 1
        self.settle(k, 0)
        if was:
            self.topple(r - 1, c)
        return -(-abs(target - r) // 2)

    def let_go(self, k):
        p = self.pieces[k]
        if not p[3]:
            return 0
        p[3] = 0
        r, c = p[1], p[2]
        if self.on_surface(r, c):
            return 0
        self.unstand(k)
        n = self.drop(k)
        self.settle(k, n)
        self.topple(r - 1, c)
        return n

    def rope(self, k, rr, cc):
        p = self.pieces[k]
        if max(abs(rr - p[1]), abs(cc - p[2])) != 1 or not self.on_table(rr, cc):
            return False
        if self.sq[rr][cc] in (SQ.BLOCK, SQ.HALF) or (rr, cc) in self.standing:
            return False
        if self.feat[rr][cc] & FEAT.ROPE:
            return False
        self.feat[rr][cc] |= FEAT.ROPE
        return True

    def platform(self, k, slot):
        p = self.pieces[k]
        tr, tc = p[1] + int(PLAT_POS[slot, 0]), p[2] + int(PLAT_POS[slot, 1])
        if not self.on_table(tr, tc) or tr + 1 >= ROWS:
            return False
        # not the lower edge of a full or half block, not the upper edge of a full block
        if self.sq[tr][tc] in (SQ.BLOCK, SQ.HALF) or self.sq[tr + 1][tc] == SQ.BLOCK:
            return False
        if self.feat[tr][tc] & FEAT.PLATFORM:
            return False
        self.feat[tr][tc] |= FEAT.PLATFORM
        return True

    def dig(self, k, tr, tc, amount):
        p = self.pieces[k]
        if max(abs(tr - p[1]), abs(tc - p[2])) != 1 or amount <= 0:
            return (-1, 0, 0)
        if not self.on_table(tr, tc) or self.sq[tr][tc] not in (SQ.BLOCK, SQ.HALF):
            return (-1, 0, 0)
        res = self.res[tr][tc]
        cost = int(RES_DIG[res]) if self.sq[tr][tc] == SQ.BLOCK else 1
        need = cost - self.prog[tr][tc]
        if amount < need:
            self.prog[tr][tc] += amount
            return (amount, 0, 0)
        self.sq[tr][tc] = SQ.AIR
        self.res[tr][tc] = 0
        self.prog[tr][tc] = 0
        self.feat[tr][tc] |= FEAT.TUNNEL
        self.topple(tr - 1, tc)
        return (need, 1, res)

    def chop(self, k, tr, tc, amount):
        p = self.pieces[k]
        if max(abs(tr - p[1]), abs(tc - p[2])) != 1 or amount <= 0:
            return (-1, 0)
        if not self.on_table(tr, tc):
            return (-1, 0)
        f = self.feat[tr][tc]
        if not f & FEAT.TREE or f & (FEAT.ACORN | FEAT.HOUSE) or (tr, tc) in self.standing:
            return (-1, 0)  # TR-164, TR-237: a chop square under a piece or a house
        need = self.val[tr][tc] - self.prog[tr][tc]
        if amount < need:
            self.prog[tr][tc] += amount
            return (amount, 0)
        self.prog[tr][tc] = 0
        self.feat[tr][tc] |= FEAT.ACORN
        return (need, self.val[tr][tc])

    # -- comparison
    def check(self, grid, tiles, mini, pieces, falls, disc, tally):
        np.testing.assert_array_equal(grid[P.SQ], np.array(self.sq))
        np.testing.assert_array_equal(grid[P.RES], np.array(self.res))
        np.testing.assert_array_equal(grid[P.FEAT], np.array(self.feat))
        np.testing.assert_array_equal(grid[P.PROG], np.array(self.prog))
        occ = np.zeros((ROWS, COLS), dtype=int)
        for (r, c), k in self.standing.items():
            occ[r, c] = k + 1
        np.testing.assert_array_equal(grid[P.OCC], occ)
        for k, p in enumerate(self.pieces):
            if p is None:
                assert pieces[k, PC.KIND] == KIND.NONE
            else:
                assert list(pieces[k, :4]) == p, (k, list(pieces[k, :4]), p)
        known = {
            (la, tc) for la in range(LAYERS) for tc in range(TILE_COLS) if tiles[TP.KNOWN, la, tc]
        }
        assert known == self.known
        assert [bool(x) for x in mini[1]] == self.faceup
        assert tally[0] == self.cobwebs and tally[3] == self.squares
        assert [tuple(int(v) for v in f) for f in falls[: tally[2]]] == self.falls
        assert [tuple(int(v) for v in d) for d in disc[: tally[1]]] == self.disc
