"""Terraria game state: array layouts and constants shared by the world and movement kernels.

The world of one game is three small int arrays, allocated once per game (or once per block
of games) by :func:`alloc_world` and refilled by ``world.generate_world_nb``:

- ``grid`` int16 (P.N, rows, cols): one plane per square attribute (planes ``P``), rows
  counted from the top of the Surface layer, ``rows = 5 * tile_rows`` and
  ``cols = 17 * tile_cols``.
- ``tiles`` int16 (TP.N, 5, 17): per tile position (layer, tile column): the template laid
  there, whether it has been discovered, its biome.
- ``mini`` int16 (2, 4): the minimap: the biome token on each '?' space (left outer, left
  inner, right inner, right outer) and whether it has been flipped face up.

Pieces (characters and enemies) are rows of ``pieces`` int16 (n, PC.N); the ``P.OCC`` plane
holds ``piece index + 1`` of the piece in each square (0: none), so a square holds at most
one piece (stacks are pieces in squares above each other, TR-136).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from simlib.core.jit import njit

LAYERS = 5  # "The world contains 5 layers" (TR-033, TR-143)
TILE_COLS = 17  # "5 biomes capped at each end by a single ocean tile", 3 tiles each
BIOME_WIDTH = 3  # "Each biome is a column 3 biome tiles wide"
MINIMAP_SLOTS = 4  # "add 1 token face-down to each of the '?' minimap spaces"
LAYER_NAMES = ("surface", "underground", "upper_cavern", "lower_cavern", "underworld")


class Sq(NamedTuple):
    """Square kinds (plane ``P.SQ``)."""

    AIR: int = 0
    BLOCK: int = 1  # a full block; a resource icon block has ``P.RES > 0``
    HALF: int = 2  # a half block: its lower half is solid, its slope is a surface
    LAVA: int = 3  # not a block, cannot be dug (TR-184)


SQ = Sq()


class Feat(NamedTuple):
    """Bit flags of plane ``P.FEAT`` (several may share a square)."""

    PLATFORM: int = 1  # a platform on the floor (lower edge) of this square
    COBWEB: int = 2
    SPAWN: int = 4
    BUTTERFLY: int = 8
    CHEST: int = 16  # value in ``P.VAL``
    TREE: int = 32  # the chop-value square of a tree or cactus; value in ``P.VAL``
    ROPE: int = 64  # a rope token
    TUNNEL: int = 128  # a dug block
    OPENED: int = 256  # opened-chest token
    ACORN: int = 512  # a chopped tree (removed at sunrise)
    HOUSE: int = 1024  # covered by a house tile: blocks line of sight (TR-246)
    # boss trigger squares (``bosses.py``; where they go is ``world.toml`` [boss_squares])
    LARVA: int = 2048  # the Bee Larva block in the Underground Jungle hive (TR-392)
    ALTAR: int = 4096  # a Demon Altar / Crimson Altar (an open square, TR-393)
    ORB: int = 8192  # a Shadow Orb / Crimson Heart block in an evil cavern (TR-394, TR-395)


FEAT = Feat()


class Planes(NamedTuple):
    """Planes of ``grid``."""

    SQ: int = 0  # ``SQ`` kind
    RES: int = 1  # resource id + 1 of an icon block, 0 for none
    FEAT: int = 2  # ``FEAT`` flags
    VAL: int = 3  # chest value or chop value
    PROG: int = 4  # dig or chop spent so far on a partly dug block / partly chopped tree
    OCC: int = 5  # piece index + 1, 0 when no piece is here
    N: int = 6


P = Planes()


class TilePlanes(NamedTuple):
    """Planes of ``tiles``."""

    TPL: int = 0  # template index laid at this position
    KNOWN: int = 1  # 1 once discovered (face up on the table)
    BIOME: int = 2  # ``BIOME`` id of this position
    N: int = 3


TP = TilePlanes()


class Biome(NamedTuple):
    """Biome ids (the first six follow ``content.BIOMES``)."""

    FOREST: int = 0
    DESERT: int = 1
    SNOW: int = 2
    JUNGLE: int = 3
    CORRUPTION: int = 4
    CRIMSON: int = 5
    OCEAN: int = 6
    N: int = 7


BIOME = Biome()
BIOME_NAMES = ("forest", "desert", "snow", "jungle", "corruption", "crimson", "ocean")


class Kind(NamedTuple):
    """Piece kinds (column ``PC.KIND``)."""

    NONE: int = 0  # an unused row (piece removed)
    CHARACTER: int = 1
    WALKER: int = 2  # enemy with no icon: walks and falls like a character
    FLYER: int = 3  # never falls (TR-137)
    WORM: int = 4
    TOKEN: int = 5  # a life crystal or fallen star token: never moves (TR-307)


KIND = Kind()


class PieceCols(NamedTuple):
    """Columns of ``pieces``."""

    KIND: int = 0
    ROW: int = 1
    COL: int = 2
    ROPE: int = 3  # 1 while holding a rope (does not fall)
    ROLE: int = 4  # ``layout.ROLE``: character, enemy, life crystal, fallen star, boss
    TYPE: int = 5  # bestiary id of an enemy, boss id of a boss
    WOUNDS: int = 6  # wounds inflicted so far (TR-280)
    SECTION: int = 7  # enemy tray section the token came from (-1: none)
    TSLOT: int = 8  # its index in that section (``layout`` tray arrays)
    N: int = 9


PC = PieceCols()

# Tile columns of the four minimap '?' positions (-1: forest or ocean, no token).
COLUMN_SLOT = np.array([-1, 0, 0, 0, 1, 1, 1, -1, -1, -1, 2, 2, 2, 3, 3, 3, -1], dtype=np.int16)
FOREST_COLUMNS = (7, 8, 9)  # the 3 central tile columns (TR-034)
START_LAYER_COLUMN = 8  # the central Surface Forest tile and the starting Underground tile


def alloc_world(tile_rows: int, tile_cols: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Allocate ``(grid, tiles, mini)`` for tiles of ``tile_rows x tile_cols`` squares."""
    grid = np.zeros((P.N, LAYERS * tile_rows, TILE_COLS * tile_cols), dtype=np.int16)
    tiles = np.zeros((TP.N, LAYERS, TILE_COLS), dtype=np.int16)
    mini = np.zeros((2, MINIMAP_SLOTS), dtype=np.int16)
    return grid, tiles, mini


@njit(refcount=False)
def on_table_nb(grid, tiles, r, c):
    """True when square (r, c) is in the world and its tile has been discovered. Read only.

    The tile's position is found by unsigned division (the square is known to be in the
    world by then): numba's signed floor division adds sign fix-ups, and this check runs
    for every square the bots' path search and every line of sight looks at (measured:
    5% of a Terraria game's time).
    """
    rows = grid.shape[1]
    cols = grid.shape[2]
    if r < 0 or r >= rows or c < 0 or c >= cols:
        return False
    la = np.uint32(r) // np.uint32(rows // LAYERS)
    tc = np.uint32(c) // np.uint32(cols // TILE_COLS)
    return tiles[TP.KNOWN, la, tc] != 0
