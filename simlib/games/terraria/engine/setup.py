"""Terraria setup (rulebook: Setup, Character Generation): one game's arrays and its first state.

:func:`alloc_state_nb` allocates a game's arrays once per block of games, :func:`copy_state_nb`
copies one state into another (the search bot's rollouts), and :func:`setup_nb` deals a new
game into them: the world (``world.generate_world_nb``), the enemy tray, the decks, the
characters and their starting equipment, the time track.
"""

from __future__ import annotations

import numpy as np

from simlib.core.jit import njit
from simlib.core.rng import seed_state_nb
from simlib.games.terraria.engine import cards, foes
from simlib.games.terraria.engine.movement import (
    T,
    place_piece_nb,
)
from simlib.games.terraria.engine.world import generate_world_nb
from simlib.games.terraria.state import (
    AR,
    BIOME,
    CC,
    CF,
    CFG,
    CH,
    CNT,
    CO,
    EQ,
    FEAT,
    FOREST_COLUMNS,
    HA,
    KIND,
    LAYERS,
    MAX_CARDS,
    MAX_HOUSES,
    MAX_PLAYERS,
    MAX_SLOTS,
    MAX_WEIGHTS,
    N_PIECES,
    NPC,
    PC,
    PILE,
    ROLE,
    SECTIONS,
    SEEN_SLOTS,
    SQ,
    SUP,
    TILE_COLS,
    TP,
    G,
    P,
    StateRef,
)

__all__ = [
    "alloc_state_nb",
    "copy_state_nb",
    "setup_nb",
]


@njit
def alloc_state_nb(tab):
    """One game's arrays, sized from the compiled tables (see ``state.State``)."""
    h = tab.tpl.shape[2]
    w = tab.tpl.shape[3]
    rows = LAYERS * h
    cols = TILE_COLS * w
    n_eq = tab.equip.shape[0]
    n_ar = tab.armor.shape[0]
    k = max(tab.cards.shape[0], n_eq, n_ar, tab.consumables.shape[0], tab.chest_biome.shape[0])
    return StateRef(
        np.zeros((P.N, rows, cols), np.int16),
        np.zeros((TP.N, LAYERS, TILE_COLS), np.int16),
        np.zeros((2, 4), np.int16),
        np.zeros((N_PIECES, PC.N), np.int16),
        np.zeros(G.N, np.int32),
        np.zeros((MAX_PLAYERS, CH.N), np.int32),
        np.zeros((MAX_PLAYERS, MAX_SLOTS, 2), np.int16),
        np.zeros((MAX_PLAYERS, PILE.N, MAX_CARDS), np.int16),
        np.zeros((MAX_PLAYERS, PILE.N), np.int16),
        np.full(MAX_PLAYERS, -1, np.int16),
        np.zeros((MAX_PLAYERS, n_eq + n_ar), np.int16),
        np.zeros((MAX_PLAYERS, tab.consumables.shape[0]), np.int16),
        np.zeros((SUP.N, k), np.int16),
        np.zeros(CNT.N, np.int32),
        np.zeros((SECTIONS, tab.tray_tok.shape[1]), np.int16),
        np.full((MAX_HOUSES, HA.N), -1, np.int16),
        np.zeros((64, 3), np.int16),
        np.zeros((64, 2), np.int16),
        np.zeros(T.N, np.int32),
        np.zeros((rows, cols), np.int16),
        np.zeros((rows, cols), np.int16),
        np.zeros((rows * cols, 2), np.int16),
        np.zeros(64, np.int16),
        np.zeros(4, np.uint64),
        np.zeros((tab.stock.shape[0], tab.stock.shape[1], tab.stock.shape[2]), np.int16),
        np.zeros((rows, cols), np.int32),
        np.zeros((rows, cols), np.int32),
        np.zeros(rows * cols * 4, np.int32),
        np.zeros(MAX_WEIGHTS, np.float64),
        np.full((SEEN_SLOTS, 4), -1, np.int32),
    )


@njit
def copy_state_nb(src, dst):
    """Copy every array of game state ``src`` into ``dst`` (written; same table shapes).

    ``dst`` comes from :func:`alloc_state_nb` for the same tables. The copy holds the whole
    game, the generator state ``rng`` and the scratch included, so ``play.play_on_nb`` from
    a turn boundary plays the copy on exactly as it would the original; a search bot gives
    the copy a generator of its own (and resamples what the players cannot see) first.
    """
    dst.grid[...] = src.grid
    dst.tiles[...] = src.tiles
    dst.mini[...] = src.mini
    dst.pieces[...] = src.pieces
    dst.g[...] = src.g
    dst.chars[...] = src.chars
    dst.inv[...] = src.inv
    dst.deck[...] = src.deck
    dst.npile[...] = src.npile
    dst.ready[...] = src.ready
    dst.owned[...] = src.owned
    dst.held[...] = src.held
    dst.supply[...] = src.supply
    dst.cnt[...] = src.cnt
    dst.tray[...] = src.tray
    dst.house_at[...] = src.house_at
    dst.falls[...] = src.falls
    dst.disc[...] = src.disc
    dst.tally[...] = src.tally
    dst.dist[...] = src.dist
    dst.how[...] = src.how
    dst.queue[...] = src.queue
    dst.path[...] = src.path
    dst.rng[...] = src.rng
    dst.drawn[...] = src.drawn
    dst.bdist[...] = src.bdist
    dst.bfrom[...] = src.bfrom
    dst.bqueue[...] = src.bqueue
    dst.wts[...] = src.wts
    dst.seen[...] = src.seen


@njit(refcount=False)
def setup_nb(st, tab, cfg, seed, index):
    """Set up game ``index``: world, table state, characters, decks (rulebook Setup)."""
    seed_state_nb(seed, index, st.rng)
    players = cfg[CFG.PLAYERS]
    evil = generate_world_nb(
        tab.tpl,
        tab.stock,
        tab.stock_n,
        tab.start,
        cfg[CFG.EVIL],
        st.grid,
        st.tiles,
        st.mini,
        st.drawn,
        st.rng,
    )
    st.pieces[:, :] = 0
    st.pieces[:, PC.SECTION] = -1
    st.g[:] = 0
    st.seen[:, :] = -1  # a new world: nothing seen yet
    g = st.g
    g[G.PLAYERS] = players
    g[G.CHAINS_NEEDED] = cfg[CFG.CHAINS]
    g[G.TOKENS] = cfg[CFG.TOKENS]  # TR-068, TR-431, TR-437
    g[G.TOMBS] = cfg[CFG.TOMBS]  # TR-067, TR-430
    g[G.FALL_DAMAGE] = cfg[CFG.FALL_DAMAGE]
    g[G.MOB_DEBUFF] = cfg[CFG.MOB_DEBUFF]
    g[G.EVIL] = 0 if evil == BIOME.CORRUPTION else 1
    g[G.DAY] = 1
    g[G.ROUND] = 0
    g[G.TIME] = 0  # the sunrise space (TR-041)
    st.cnt[:] = 0
    st.cnt[CNT.TILES] = 4
    st.cnt[CNT.LAYER] = 1
    # the Guide is always spawned (TR-069): his bit and his own counter from the start;
    # ``CNT.NPCS`` counts the NPCs the players spawn, so it leaves him out
    g[G.NPCS] = 1 << NPC.GUIDE
    st.cnt[CNT.NPC + NPC.GUIDE] = 1
    st.house_at[:, :] = -1
    # supplies
    st.supply[:, :] = 0
    for c in range(tab.cards.shape[0]):
        st.supply[SUP.CARDS, c] = tab.cards[c, CF.COPIES]
    for e in range(tab.equip.shape[0]):
        st.supply[SUP.EQUIP, e] = tab.equip[e, EQ.COPIES]
    for a in range(tab.armor.shape[0]):
        st.supply[SUP.ARMOR, a] = tab.armor[a, AR.COPIES]
    for c in range(tab.consumables.shape[0]):
        st.supply[SUP.CONSUMABLE, c] = tab.consumables[c, CO.COPIES]
    for c in range(tab.chest_biome.shape[0]):
        st.supply[SUP.CHEST, c] = 1
    foes.reset_tray_nb(st, tab)
    # characters (TR-046..049): a character card each (the players' choice: cards in order)
    st.chars[:, :] = 0
    st.inv[:, :, :] = 0
    st.owned[:, :] = 0
    st.held[:, :] = 0
    st.npile[:, :] = 0
    st.ready[:] = -1
    iron = 1 if cfg[CFG.IRON] else 0
    for p in range(players):
        ch = st.chars[p]
        card = p % tab.characters.shape[0]
        ch[CH.CARD] = card
        ch[CH.MAXHP] = tab.characters[card, CC.HP]
        ch[CH.HP] = ch[CH.MAXHP]
        ch[CH.MAXMANA] = tab.characters[card, CC.MANA]
        ch[CH.MANA] = ch[CH.MAXMANA]
        ch[CH.SLOTS] = 4  # TR-185
        ch[CH.ARMOR] = -1
        ch[CH.MINION] = -1
        ch[CH.OTHER] = -1
        for s in range(3):  # weapon, axe, pickaxe (TR-051; Journey: iron, TR-432, TR-433)
            e = tab.start_equip[iron, s]
            ch[CH.WEAPON + s] = e
            st.owned[p, e] += 1
            # the card comes out of the supply (``compile`` checks there are enough): a
            # Journey player's Iron Axe is one fewer left to craft
            st.supply[SUP.EQUIP, e] -= 1
        ch[CH.ROPES] = cfg[CFG.ROPES]  # TR-434
        cards.setup_deck_nb(st, tab, p)
    # the starting enemies: one Forest Surface day token on each of the 2 spawn squares of
    # the Surface Forest tiles (TR-036..037), then the characters on butterfly squares (TR-053)
    h = st.grid.shape[1] // LAYERS
    w = st.grid.shape[2] // TILE_COLS
    c0 = FOREST_COLUMNS[1] * w
    for r in range(h):  # the spawn squares of the 3 Surface Forest tiles
        for c in range(FOREST_COLUMNS[0] * w, (FOREST_COLUMNS[2] + 1) * w):
            if st.grid[P.FEAT, r, c] & FEAT.SPAWN and st.grid[P.OCC, r, c] == 0:
                foes.spawn_at_nb(st, tab, r, c)
    placed = 0
    for r in range(h):
        for c in range(c0, c0 + w):
            if placed < players and st.grid[P.FEAT, r, c] & FEAT.BUTTERFLY:
                if st.grid[P.OCC, r, c] == 0:
                    st.pieces[placed, PC.ROLE] = ROLE.CHARACTER
                    _place_character_nb(st, tab, placed, r, c)
                    st.chars[placed, CH.IN_WORLD] = 1
                    placed += 1
    r = 0
    while placed < players and r < h:  # fewer free butterflies than players: any square
        for c in range(c0, c0 + w):
            if placed < players and st.grid[P.SQ, r, c] == SQ.AIR and st.grid[P.OCC, r, c] == 0:
                st.pieces[placed, PC.ROLE] = ROLE.CHARACTER
                _place_character_nb(st, tab, placed, r, c)
                st.chars[placed, CH.IN_WORLD] = 1
                placed += 1
        r += 1
    _clear_events_nb(st)


@njit(refcount=False)
def _clear_events_nb(st):
    st.tally[:] = 0


@njit(refcount=False)
def _place_character_nb(st, tab, p, r, c):
    place_piece_nb(
        st.grid,
        st.tiles,
        st.mini,
        st.pieces,
        p,
        KIND.CHARACTER,
        r,
        c,
        st.falls,
        st.disc,
        st.tally,
    )
