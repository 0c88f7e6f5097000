"""The Terraria world of one game: the world generator and discovery.

Rulebook: World Generation, Minimap, Discovering the World, Drawing and Placing Biome Tiles.
The tables are ``data/world.toml``.

How a world comes about
-----------------------
1. Compile time (Python, once per data file, ``compile.py``): ``load_world`` reads and
   validates the tables; ``compile_world`` draws the fixed set of biome tiles (the
   "printed" set) from ``world.tile_seed`` and the per-layer terrain and per-biome
   resource tables, adds the four drawn starting tiles, puts the boss trigger squares of
   ``[boss_squares]`` (the Bee Larva, the altars, Shadow Orbs and Crimson Hearts:
   ``FEAT.LARVA``, ``FEAT.ALTAR``, ``FEAT.ORB``) into the first tiles of their stocks, and
   returns arrays.
2. Per game (numba, :func:`generate_world_nb`): Crimson or Corruption is chosen (TR-040),
   the 4 minimap tokens are shuffled face down onto the '?' spaces (TR-043), and every tile
   position gets a tile drawn without replacement from the stock of its biome and layer.
   All of this is hidden: only the 4 starting tiles are known (TR-036, TR-037).
   Drawing every position at setup instead of when it is discovered does not change the
   game: the next draw from a stock is uniform over the tiles left whichever order the
   positions are filled in, and the players see a tile only once it is discovered.
3. During play (numba, :func:`discover_nb`): a character entering a tile discovers the
   positions above, below, left and right of it (TR-144..147); a position in a column whose
   minimap token is still face down flips that token first (TR-150, TR-151).

Ocean columns (0 and 16) draw from the ocean stock of their layer (TR-152).
"""

from __future__ import annotations

import numpy as np

from simlib.core.jit import njit
from simlib.core.rng import randint_nb, shuffle_nb
from simlib.games.terraria.state import (
    BIOME,
    COLUMN_SLOT,
    LAYERS,
    MINIMAP_SLOTS,
    START_LAYER_COLUMN,
    TILE_COLS,
    TP,
    TPL,
    P,
)

__all__ = [
    "generate_world_nb",
    "discover_nb",
]


# --- per game ---------------------------------------------------------------------------------
@njit(refcount=False)
def lay_tile_nb(tpl, t, layer, tcol, grid):
    h = tpl.shape[2]
    w = tpl.shape[3]
    r0 = layer * h
    c0 = tcol * w
    for i in range(h):
        for j in range(w):
            grid[P.SQ, r0 + i, c0 + j] = tpl[TPL.SQ, t, i, j]
            grid[P.RES, r0 + i, c0 + j] = tpl[TPL.RES, t, i, j]
            grid[P.FEAT, r0 + i, c0 + j] = tpl[TPL.FEAT, t, i, j]
            grid[P.VAL, r0 + i, c0 + j] = tpl[TPL.VAL, t, i, j]
            grid[P.PROG, r0 + i, c0 + j] = 0
            grid[P.OCC, r0 + i, c0 + j] = 0


@njit
def generate_world_nb(tpl, stock, stock_n, start, evil, grid, tiles, mini, drawn, state):
    """Lay out one game's world (hidden) and discover the 4 starting tiles.

    Parameters
    ----------
    tpl : int16 (4, T, h, w)
        Templates from :func:`compile_world` (read only).
    stock : int16 (7, 5, M)
        Template indices per biome x layer stock (read only).
    stock_n : int16 (7, 5)
        Stock sizes (read only).
    start : int16 (4,)
        The starting tiles (read only).
    evil : int
        ``BIOME.CORRUPTION``, ``BIOME.CRIMSON``, or -1 to draw one (TR-040).
    grid : int16 (P.N, 5 * h, 17 * w), written
        Every square of the world, laid out from the drawn templates; PROG and OCC cleared.
    tiles : int16 (TP.N, 5, 17), written
        Template, discovered flag and biome of each tile position.
    mini : int16 (2, 4), written
        Row 0: the biome token on each '?' space; row 1: face up (all 0 at setup).
    drawn : int16 (7, 5, M) scratch, written
        The stocks as drawn this game (a lazy Fisher-Yates per biome x layer).
    state : uint64 (4,), written
        Generator state. Draws, in order: the evil biome (one ``randint_nb(2)`` only when
        ``evil < 0``), the minimap shuffle (``shuffle_nb`` of 4 tokens), then one
        ``randint_nb`` per drawn tile, layers top to bottom, columns left to right.

    Returns
    -------
    int
        The evil biome of this game.

    """
    if evil < 0:
        evil = BIOME.CORRUPTION + randint_nb(2, state)
    # minimap: Jungle, Desert, Snow and the chosen evil biome (TR-042, TR-043)
    mini[0, 0] = BIOME.JUNGLE
    mini[0, 1] = BIOME.DESERT
    mini[0, 2] = BIOME.SNOW
    mini[0, 3] = evil
    shuffle_nb(mini[0], MINIMAP_SLOTS, state)
    for s in range(MINIMAP_SLOTS):
        mini[1, s] = 0
    for tc in range(TILE_COLS):
        slot = COLUMN_SLOT[tc]
        if tc == 0 or tc == TILE_COLS - 1:
            b = BIOME.OCEAN
        elif slot < 0:
            b = BIOME.FOREST
        else:
            b = mini[0, slot]
        for layer in range(LAYERS):
            tiles[TP.BIOME, layer, tc] = b
            tiles[TP.KNOWN, layer, tc] = 0
    for b in range(drawn.shape[0]):
        for layer in range(LAYERS):
            for k in range(stock_n[b, layer]):
                drawn[b, layer, k] = stock[b, layer, k]
    used = np.zeros((drawn.shape[0], LAYERS), dtype=np.int16)  # tiny, once per game
    for layer in range(LAYERS):
        for tc in range(TILE_COLS):
            b = tiles[TP.BIOME, layer, tc]
            if layer == 0 and b == BIOME.FOREST:
                t = start[tc - 7]  # the 3 Surface Forest tiles, as printed (TR-036)
            elif layer == 1 and tc == START_LAYER_COLUMN:
                t = start[3]  # the starting Underground tile (TR-037)
            else:
                k = used[b, layer]
                j = k + randint_nb(stock_n[b, layer] - k, state)
                t = drawn[b, layer, j]
                drawn[b, layer, j] = drawn[b, layer, k]
                drawn[b, layer, k] = t
                used[b, layer] = k + 1
            tiles[TP.TPL, layer, tc] = t
            lay_tile_nb(tpl, t, layer, tc, grid)
    for tc in range(7, 10):
        tiles[TP.KNOWN, 0, tc] = 1
    tiles[TP.KNOWN, 1, START_LAYER_COLUMN] = 1
    return evil


@njit(refcount=False)
def discover_nb(tiles, mini, layer, tcol, out):
    """The discovery check made when a character enters tile ``(layer, tcol)`` (TR-144).

    The four positions above, below, left and right (never diagonal, TR-147; nothing above
    the Surface, below the Underworld or beyond the ocean, TR-146) that are not yet
    discovered become discovered; a position in a column whose minimap token is face down
    flips that token first (TR-150, TR-151).

    Parameters
    ----------
    tiles : int16 (TP.N, 5, 17)
        Written (the KNOWN plane).
    mini : int16 (2, 4)
        Written (row 1, face-up flags).
    layer : int
        Layer of the tile entered.
    tcol : int
        Tile column of the tile entered.
    out : int16 (4, 2), written
        The newly discovered positions ``(layer, tile column)``, first the returned count.

    Returns
    -------
    int
        How many positions were discovered (0..4).

    """
    n = 0
    for k in range(4):
        dl = -1 if k == 0 else (1 if k == 1 else 0)
        dc = -1 if k == 2 else (1 if k == 3 else 0)
        nl = layer + dl
        nc = tcol + dc
        if nl < 0 or nl >= LAYERS or nc < 0 or nc >= TILE_COLS:
            continue
        if tiles[TP.KNOWN, nl, nc] != 0:
            continue
        slot = COLUMN_SLOT[nc]
        if slot >= 0 and mini[1, slot] == 0:
            mini[1, slot] = 1
        tiles[TP.KNOWN, nl, nc] = 1
        out[n, 0] = nl
        out[n, 1] = nc
        n += 1
    return n
