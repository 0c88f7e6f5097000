"""Terraria game state: the layout of every array a playthrough reads or writes.

Everything a playthrough reads or writes is a numpy array; this module names their columns
so the engine (``engine/``), the bots (``bots.py``) and the compiler (``compile.py``) agree
on them, and holds the record of a game (:data:`record_dt`, its outcomes
:data:`OUTCOME_NAMES`) and the ``cfg`` array of the compiled settings (:data:`CFG`).

The world of one game is three small int arrays, allocated once per game (or once per block
of games) and refilled by ``world.generate_world_nb``:

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

Compiled content (``compile.compile_tables``; every table is data, see the TOML files in
``data/``): one int16 row per entry, columns named below. Dice are listed as up to 3 die
sizes (``0`` = no die) with a count column first.

Per-game state (allocated once per block of games by ``engine.setup.alloc_state_nb``,
refilled by ``engine.setup.setup_nb``):

- ``g`` int32 (G.N,): the table's shared state (time track, tokens, pools, bosses, ...).
- ``chars`` int32 (MAX_PLAYERS, CH.N): one row per player/character.
- ``inv`` int16 (MAX_PLAYERS, MAX_SLOTS, 2): per inventory slot ``(resource id, count)``;
  resource ids start at 1 (0 = empty slot); a slot at count 0 is empty (TR-191).
- ``deck`` int16 (MAX_PLAYERS, PILE.N, MAX_CARDS): each player's piles of card ids;
  ``npile`` int16 (MAX_PLAYERS, PILE.N) how many each pile holds (the top of the draw pile
  is its last entry); ``ready`` int16 (MAX_PLAYERS,) the ready slot's card or -1.
- ``owned`` int16 (MAX_PLAYERS, n_equipment + n_armor): copies of each equipment card
  and armor set a player owns (the worn / top ones are in ``chars``).
- ``held`` int16 (MAX_PLAYERS, n_consumables): consumable cards held.
- ``supply`` int16 (SUP.N, K): what is left in the shared supplies (see :class:`Supply`).
- ``cnt`` int32 (CNT.N,): the team's counters that objectives and NPC criteria read.
- ``tray`` int16 (SECTIONS, MAX_TOKENS): per tray token: 0 in the tray, 1 in the world,
  2 in the section's discard area (the section's tokens are in ``tray_tok``).

The kernels take ``st`` (:class:`StateRef`) and ``tab`` (:class:`TablesRef`), numba
StructRefs of these arrays (:func:`State`, :func:`Tables` build them from Python).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numba
import numpy as np
from numba import types
from numba.experimental import structref

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


class TemplatePlanes(NamedTuple):
    """Planes of a tile template (``tab.tpl`` int16 (TPL.N, T, tile_rows, tile_cols))."""

    SQ: int = 0  # ``SQ`` kind
    RES: int = 1  # resource id + 1 of an icon block, 0 for none
    FEAT: int = 2  # ``FEAT`` flags
    VAL: int = 3  # chest value or chop value
    N: int = 4


TPL = TemplatePlanes()


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
    ROLE: int = 4  # ``state.ROLE``: character, enemy, life crystal, fallen star, boss
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


MAX_PLAYERS = 4
MAX_SLOTS = 6  # 4 at the start, slots 5 and 6 bought (TR-185, TR-186)
SLOT_CAP = 5  # units per slot (TR-188)
COIN_CAP = 25  # the coin dial (TR-195)
MAX_CARDS = 64  # cards one player can hold across all piles
MAX_ENEMIES = 40  # enemy, life crystal and fallen star tokens in the world at once
MAX_BOSSES = 8  # boss ids a boss table may hold (per-boss columns of ``g``, ``chars``, ``cnt``)
ENEMY_ROW = MAX_PLAYERS  # first ``pieces`` row of an enemy token
BOSS_ROW = MAX_PLAYERS + MAX_ENEMIES  # the ``pieces`` row of boss 0; boss ``b`` is ``BOSS_ROW + b``
N_PIECES = BOSS_ROW + MAX_BOSSES
SECTIONS = 30  # the enemy tray: 6 biomes x 5 layers (TR-029); section = biome * 5 + layer
MAX_TOKENS = 24  # tray tokens one section can hold (day and night together)
DICE = 3  # die columns per dice list
REWARD_SLOTS = 4  # reward entries per loot or chest list


# --- per-game state -----------------------------------------------------------------------
class Globals(NamedTuple):
    """Columns of ``g``."""

    ROUND: int = 0  # rounds begun (1 in the first round)
    TIME: int = 1  # the time token's space on the track
    DAY: int = 2  # days begun (1 on the first day)
    TOKENS: int = 3  # time limit tokens left
    TOMBS: int = 4  # tombstones left in the respawn pool (-1: Journey, unlimited)
    EVIL: int = 5  # 0 Corruption world, 1 Crimson world
    SLIMES: int = 6  # the slimes slain meter
    STATIONS: int = 7  # crafting stations standing (``STATION`` bits)
    HOUSES: int = 8  # houses built (count)
    FREE_HOUSES: int = 9  # houses with no NPC living in them
    NPCS: int = 10  # spawned NPCs (bit ``1 << NPC.x``)
    DIED: int = 11  # 1 once any character has died (Nurse criterion, TR-367)
    CHAINS: int = 12  # objective chains completed
    OBJ: int = 13  # 4 columns: objectives completed in each chain (13..16)
    IN_PLAY: int = 17  # bosses in play (bit per boss id; several at once, TR-316, TR-398)
    # 18..23 and 44 are free (a boss's own state is in the per-boss columns at the end)
    SPAWNED: int = 24  # bosses that have spawned (bit per boss id, TR-400)
    DEFEATED: int = 25  # bosses defeated (bit per boss id)
    PENDING: int = 26  # bosses whose criterion is met, spawning at the next enemy turn
    DRYAD_DIE: int = 27  # 1 while the Dryad's die waits on her space
    BOTTLE: int = 28  # 1 once the placed bottle was used today
    COOKED: int = 29  # players who ate from the cooking pot today (bit per player)
    COOK_LEFT: int = 30  # food buff tokens still uneaten today (bits)
    OVER: int = 31  # 0 while playing, else an ``OUT`` code
    PLAYERS: int = 32
    CHAINS_NEEDED: int = 33  # 1 Easy, 2 Medium, 3 Hard
    FALL_DAMAGE: int = 34  # 0 in Journey and Lucky Horseshoe modes
    BEDS: int = 35  # bed houses built
    # bosses (``bosses.py``)
    TRIGGER: int = 36  # 8 columns (36..43): per boss id, the square where its criterion was
    #                    met, ``row * 4096 + col + 1`` (0: none, e.g. King Slime's meter)
    DRAWN: int = 45  # players who have drawn this round (bit per player; cleared as a round
    #                  starts): gear changes hands only between two who have not (TR-209, TR-210)
    SIGHT: int = 46  # blocks dug out and houses built this game: with the tiles discovered,
    #                  what line of sight depends on (the ``seen`` memo's epoch)
    MOB_DEBUFF: int = 48  # the ``mob_debuff`` reading: 0 the leader's debuff, 1 each die's
    # each boss's own state, ``MAX_BOSSES`` columns each, indexed by boss id (``bosses.py``)
    FORM: int = 49  # 49..56: 0 Form A, 1 Form B
    BOSS_LEFT: int = 57  # 57..64: wound tokens left on its current form
    BEHAV: int = 65  # 65..88: its behaviour deck order, 3 columns a boss (``BEHAV + 3 * id``)
    BEHAV_AT: int = 89  # 89..96: index of its face-up behaviour card in that order
    BOSS_EXTRA: int = 97  # 97..104: extra squares it moves this enemy turn (``SPECIAL.CHARGE``)
    N: int = 105


G = Globals()


class Outcome(NamedTuple):
    """``g[G.OVER]`` and the recorded ``outcome`` (TR-428)."""

    PLAYING: int = 0
    WON_OBJECTIVES: int = 1
    WON_WALL_OF_FLESH: int = 2
    OUT_OF_TIME: int = 3
    OUT_OF_RESPAWNS: int = 4


OUT = Outcome()
#: The recorded ``outcome`` categories, in code order: ``outcome = g[G.OVER] - 1`` (0 is a
#: game still playing, never recorded).
OUTCOME_NAMES = tuple(name.lower() for name in Outcome._fields[1:])


class Char(NamedTuple):
    """Columns of ``chars``."""

    HP: int = 0
    MAXHP: int = 1
    MANA: int = 2
    MAXMANA: int = 3
    COINS: int = 4  # on the coin dial (cap 25)
    SLOTS: int = 5  # inventory slots usable (4..6)
    CARD: int = 6  # character card id
    WEAPON: int = 7  # equipment id on top of the Sword slot, -1 none
    AXE: int = 8
    PICK: int = 9
    OTHER: int = 10
    ARMOR: int = 11  # armor set worn, -1: the character card's defence
    MINION: int = 12  # minion id summoned, -1 none
    IN_WORLD: int = 13  # 1 while the piece is on the world, 0 dead and waiting to respawn
    ROPES: int = 14  # rope tokens held, to be placed as if just crafted (Journey, TR-434)
    # this turn (cleared at the start of the player turn, lost at its end: TR-104)
    AP: int = 15  # action points left
    DEF: int = 16  # defence icons in play (TR-105, TR-106: they last through the enemy turn)
    ATK: int = 17  # attack icons in play
    TCOIN: int = 18  # coin icons played, spendable this turn only (TR-101)
    DIG: int = 19  # dig converted and not yet spent
    CHOP: int = 20  # chop converted and not yet spent
    # per game measures
    DEATHS: int = 21
    FALLS: int = 22
    FALL_DMG: int = 23
    DUELS: int = 24  # attacks made plus enemy attacks received
    WOUNDS_TAKEN: int = 25  # health lost to enemy attacks
    MOBBED: int = 26  # enemy attacks received that were mobs (2+ enemies)
    KILLS: int = 27
    HEALED: int = 28
    FALL_DEATHS: int = 29  # deaths caused by a fall
    MOB_DMG: int = 30  # health lost to mobbed attacks (2+ enemies in short range)
    MOB_DEATHS: int = 31  # deaths caused by a mobbed attack
    BOSS_TOKENS: int = 32  # 32..39: wound tokens taken from each boss in play, by boss id
    #                        (``BOSS_TOKENS + id``; TR-412, TR-419: that boss's battle)
    GIFTS: int = 40  # equipment cards and armor sets given to another player (TR-209, TR-219)
    COINS_TRADED: int = 41  # coins given to another player (TR-197)
    RES_TRADED: int = 42  # resource units given to another player (TR-197)
    BOTTLED: int = 43  # potions taken from the placed bottle house (TR-253)
    EATEN: int = 44  # food buff tokens eaten at the cooking pot house (TR-255)
    # this turn, like AP..CHOP above (kept after the measures so their columns stay put)
    MIRROR: int = 45  # Magic Mirror recalls played and not yet used (TR-389; lost at cleanup)
    N: int = 46


CH = Char()


class Pile(NamedTuple):
    """Piles of ``deck``."""

    DRAW: int = 0
    DISCARD: int = 1
    HAND: int = 2
    PLAY: int = 3  # the play area (cards stay there until the end of the round, TR-105)
    N: int = 4


PILE = Pile()


class Supply(NamedTuple):
    """Rows of ``supply`` (int16 (SUP.N, K), K the largest table)."""

    CARDS: int = 0  # copies of each action card left to buy / gain
    EQUIP: int = 1  # copies of each equipment card left
    ARMOR: int = 2
    CONSUMABLE: int = 3
    CHEST: int = 4  # 1 while each chest card is in its chest deck
    N: int = 5


SUP = Supply()


class Counters(NamedTuple):
    """Columns of ``cnt``: the vocabulary objective data is written in (TR-057).

    Counters cover the whole game (TR-065). ``RES`` + resource id counts units of that
    resource ever collected; ``BOSS`` + boss id is 1 once that boss is defeated; ``HOUSE`` +
    house id counts houses of that kind built; ``NPC`` + npc id is 1 once spawned.
    """

    BLOCKS_DUG: int = 0
    ENEMIES: int = 1  # enemies defeated (bosses not counted)
    SLIMES: int = 2
    BOSSES: int = 3
    TILES: int = 4  # tile positions discovered (the 4 starting tiles count)
    LAYER: int = 5  # deepest layer any character stood on, 1 (Surface) .. 5 (Underworld)
    HOUSES: int = 6
    CRAFTED: int = 7  # equipment cards crafted
    ARMORS: int = 8  # armor sets crafted
    NPCS: int = 9  # NPCs spawned besides the Guide
    CHESTS: int = 10
    TREES: int = 11  # trees and cacti chopped down
    PLATFORMS: int = 12
    ROPES: int = 13
    BIOMES: int = 14  # minimap tokens flipped
    CARDS_BOUGHT: int = 15
    CRYSTALS: int = 16  # life crystals collected
    STARS: int = 17  # fallen stars collected
    COINS: int = 18  # coins ever gained
    RES: int = 24  # 32 columns: units collected by resource id (24..55)
    BOSS: int = 56  # 8 columns: boss defeated (56..63)
    HOUSE: int = 64  # 16 columns: houses built by house id (64..79)
    NPC: int = 80  # 8 columns: NPC spawned (80..87)
    N: int = 88


CNT = Counters()
COUNTER_NAMES = {
    "blocks_dug": CNT.BLOCKS_DUG,
    "enemies_defeated": CNT.ENEMIES,
    "slimes_defeated": CNT.SLIMES,
    "bosses_defeated": CNT.BOSSES,
    "tiles_discovered": CNT.TILES,
    "layer_reached": CNT.LAYER,
    "houses_built": CNT.HOUSES,
    "equipment_crafted": CNT.CRAFTED,
    "armor_crafted": CNT.ARMORS,
    "npcs_spawned": CNT.NPCS,
    "chests_opened": CNT.CHESTS,
    "trees_chopped": CNT.TREES,
    "platforms_placed": CNT.PLATFORMS,
    "ropes_placed": CNT.ROPES,
    "biomes_revealed": CNT.BIOMES,
    "cards_bought": CNT.CARDS_BOUGHT,
    "life_crystals": CNT.CRYSTALS,
    "fallen_stars": CNT.STARS,
    "coins_gained": CNT.COINS,
    # these take a ``param`` (a resource, boss, house or NPC id) added to the base column
    "resource_collected": CNT.RES,
    "boss_defeated": CNT.BOSS,
    "house_built": CNT.HOUSE,
    "npc_spawned": CNT.NPC,
}
PARAM_COUNTERS = {
    "resource_collected": 32,
    "boss_defeated": MAX_BOSSES,
    "house_built": 16,
    "npc_spawned": 8,
}


class Npc(NamedTuple):
    """NPC ids (bits of ``g[G.NPCS]``), rulebook NPC table (TR-369..383)."""

    GUIDE: int = 0
    NURSE: int = 1
    MERCHANT: int = 2
    DRYAD: int = 3
    GOBLIN: int = 4
    DEMOLITIONIST: int = 5
    N: int = 6


NPC = Npc()
NPC_NAMES = ("guide", "nurse", "merchant", "dryad", "goblin_tinkerer", "demolitionist")


class Station(NamedTuple):
    """Crafting station bits (``g[G.STATIONS]``, recipe and house ``STATION`` columns)."""

    WORKBENCH: int = 1
    ANVIL: int = 2  # the anvil/furnace house gives ANVIL | FURNACE
    FURNACE: int = 4
    LOOM: int = 8
    HELLFORGE: int = 16
    BOTTLE: int = 32  # placed bottle
    COOKING_POT: int = 64
    BED: int = 128


STATION = Station()
STATION_NAMES = {
    "workbench": STATION.WORKBENCH,
    "anvil": STATION.ANVIL,
    "furnace": STATION.FURNACE,
    "loom": STATION.LOOM,
    "hellforge": STATION.HELLFORGE,
    "placed_bottle": STATION.BOTTLE,
    "cooking_pot": STATION.COOKING_POT,
    "bed": STATION.BED,
}


# --- compiled content tables -------------------------------------------------------------------
class Range(NamedTuple):
    """Range bits of weapons, enemies and bosses."""

    SHORT: int = 1
    MEDIUM: int = 2
    LONG: int = 4


RANGE = Range()


class Debuff(NamedTuple):
    """Debuff card types (bestiary ``debuff``, TR-342)."""

    NONE: int = 0
    POISONED: int = 1
    ON_FIRE: int = 2
    FROZEN: int = 3


DEBUFF = Debuff()


class Slot(NamedTuple):
    """Equipment slots (``EQ.SLOT``), in ``CH`` order from ``CH.WEAPON``."""

    WEAPON: int = 0
    AXE: int = 1
    PICK: int = 2
    OTHER: int = 3


SLOT = Slot()


class CardCols(NamedTuple):
    """``cards`` int16 (n_cards, CF.N): action cards (start, Guide, Merchant, chest, debuff).

    A card gives option A's icons, or (when ``CHOICE``) option A or option B, never both
    (TR-102). ``HURT`` is health lost when the card is played (debuff effects are data).
    """

    AP: int = 0
    DEF: int = 1
    HEAL: int = 2
    COIN: int = 3
    ATK: int = 4
    DRAW: int = 5  # extra cards drawn at once when played
    MANA: int = 6
    AP_B: int = 7
    DEF_B: int = 8
    HEAL_B: int = 9
    COIN_B: int = 10
    ATK_B: int = 11
    DRAW_B: int = 12
    MANA_B: int = 13
    CHOICE: int = 14
    PRICE: int = 15  # coins to buy (Guide and Merchant cards)
    SHOP: int = 16  # ``SHOP`` code
    LEVEL: int = 17  # chest action card level 1..5
    COPIES: int = 18
    DEBUFF: int = 19  # ``DEBUFF`` type of a debuff card
    HURT: int = 20
    RECALL: int = 21  # 1: returns the character to the Surface Forest or a bed (Magic Mirror)
    N: int = 22


CF = CardCols()


class Shop(NamedTuple):
    """Where an action card comes from (``CF.SHOP``)."""

    START: int = 0
    GUIDE: int = 1
    MERCHANT_8: int = 2
    MERCHANT_15: int = 3
    CHEST: int = 4
    DEBUFF: int = 5


SHOP = Shop()


class EquipCols(NamedTuple):
    """``equip`` int16 (n_equipment, EQ.N); recipes in ``equip_recipe`` (n, 4, 2)."""

    SLOT: int = 0  # ``SLOT``
    NATK: int = 1  # attack dice per attack
    ATK0: int = 2
    ATK1: int = 3
    ATK2: int = 4
    RANGE: int = 5  # ``RANGE`` bits
    LOS: int = 6
    CHOP: int = 7  # chop per action point (axes)
    DIG: int = 8  # dig per action point (pickaxes)
    MANA: int = 9  # mana per attack (magic weapons, TR-354) or per summon (minion)
    MINION: int = 10  # minion id summoned, -1 none
    DRAW: int = 11  # hand limit bonus while on top of its slot (TR-207)
    STATION: int = 12  # ``STATION`` bits needed to craft
    CRAFTABLE: int = 13
    COPIES: int = 14
    TIER: int = 15  # 0 starting .. higher is better (bots' ranking)
    GATE: int = 16  # 1: the Deathbringer / Nightmare pickaxe that gates the hellforge
    EVIL: int = 17  # 0 any world, 1 Corruption only, 2 Crimson only
    N: int = 18


EQ = EquipCols()


class ArmorCols(NamedTuple):
    """``armor`` int16 (n_armor, AR.N); recipes in ``armor_recipe`` (n, 4, 2)."""

    NDEF: int = 0
    DEF0: int = 1
    DEF1: int = 2
    DEF2: int = 3
    HP: int = 4  # maximum health bonus while worn
    ATK: int = 5  # attack icons while worn
    DRAW: int = 6  # hand limit bonus
    MANA: int = 7  # maximum mana bonus
    IMMUNE: int = 8  # debuff immunity bits (1 << DEBUFF type)
    STATION: int = 9
    CRAFTABLE: int = 10
    COPIES: int = 11
    TIER: int = 12
    EVIL: int = 13
    REGEN: int = 14  # mana regained at the start of each of the wearer's turns (TR-357)
    DEF: int = 15  # defence icons while worn (rulebook, Defence Icons; TR-286)
    N: int = 16


AR = ArmorCols()


class CharacterCols(NamedTuple):
    """``characters`` int16 (n_character_cards, CC.N): the 8 character cards."""

    HAND: int = 0  # hand limit (4 printed, TR-092)
    NDEF: int = 1  # base defence dice (1 die printed, TR-284)
    DEF0: int = 2
    DEF1: int = 3
    DEF2: int = 4
    HP: int = 5  # starting maximum health (5 printed, TR-287)
    MANA: int = 6  # starting maximum mana
    N: int = 7


CC = CharacterCols()


class ConsumableCols(NamedTuple):
    """``consumables`` int16 (n, CO.N): effects when discarded (TR-386)."""

    HEAL: int = 0
    MANA: int = 1
    DEF: int = 2  # defence icons for this round
    ATK: int = 3
    AP: int = 4
    DIG: int = 5  # dig granted at once (bomb)
    RECALL: int = 6
    VOODOO: int = 7  # the Guide Voodoo Doll (spawns Wall of Flesh next to lava)
    CURE: int = 8  # scraps debuff cards from hand
    COPIES: int = 9
    BOTTLE: int = 10  # 1: may come from the placed bottle house
    DEMOLITION: int = 11  # 10 or 15: the Demolitionist's price for it (0: not sold)
    N: int = 12


CO = ConsumableCols()


class RewardCols(NamedTuple):
    """A reward ``(KIND, ID, AMOUNT)``: chest cards, objective rewards, loot."""

    KIND: int = 0
    ID: int = 1
    AMOUNT: int = 2
    N: int = 3


RW = RewardCols()


class RewardKind(NamedTuple):
    """``RW.KIND`` codes."""

    NONE: int = 0
    COINS: int = 1
    RESOURCE: int = 2  # ID resource id, AMOUNT units
    EQUIP: int = 3  # ID equipment id
    ARMOR: int = 4
    CONSUMABLE: int = 5
    CHEST_CARD: int = 6  # ID = level: the top chest action card of that level
    HEAL: int = 7  # AMOUNT health
    MAXHP: int = 8  # health meter extensions
    MAXMANA: int = 9
    ROPE: int = 10  # rope tokens to place
    MANA: int = 11  # AMOUNT mana regained, up to the maximum (TR-357)


RK = RewardKind()


class ObjectiveCols(NamedTuple):
    """``objectives`` int16 (40, OB.N), chain order: Dig, Fight, Explore, Build, 10 each.

    Done when ``cnt[COUNTER + PARAM] >= AMOUNT`` (TR-065). The reward is a ``RW`` triple in
    columns ``REWARD..REWARD+2``; ``SHARED`` 1 gives it once (the bots split it), 0 to ALL.
    """

    CHAIN: int = 0
    COUNTER: int = 1  # a ``CNT`` base column
    PARAM: int = 2
    AMOUNT: int = 3
    REWARD: int = 4  # 3 columns
    SHARED: int = 7
    N: int = 8


OB = ObjectiveCols()
CHAINS = ("dig", "fight", "explore", "build")


class HouseCols(NamedTuple):
    """``houses`` int16 (n_houses, HO.N); build costs in ``house_recipe`` (n, 4, 2)."""

    W: int = 0  # footprint in squares
    H: int = 1
    PROVIDES: int = 2  # ``STATION`` bits
    NEEDS: int = 3  # ``STATION`` bits that must stand (TR-249..252)
    GATED: int = 4  # 1: needs the hellforge pickaxe crafted (TR-252)
    COPIES: int = 5  # 4 bed houses, 1 of each other (TR-234)
    N: int = 6


HO = HouseCols()


class EnemyCols(NamedTuple):
    """``enemies`` int16 (n_bestiary, EN.N): the bestiary (tray tokens in ``tray_tok``)."""

    NATK: int = 0
    ATK0: int = 1
    ATK1: int = 2
    ATK2: int = 3
    RANGE: int = 4
    NDEF: int = 5
    DEF0: int = 6
    DEF1: int = 7
    DEF2: int = 8
    WOUNDS: int = 9
    MOVEMENT: int = 10
    KIND: int = 11  # ``state.KIND`` WALKER, FLYER or WORM
    DEBUFF: int = 12
    SLIME: int = 13
    COINS: int = 14
    LOOT_RES: int = 15  # resource id dropped (0 none), e.g. Gel, Lens
    LOOT_N: int = 16
    VOODOO: int = 17  # 1: drops the Guide Voodoo Doll
    NIGHT: int = 18  # 0 day tokens only, 1 night tokens only, 2 both (see ``tray_night``)
    N: int = 19


EN = EnemyCols()


class Token(NamedTuple):
    """Special ``tray_tok`` entries (ordinary tokens are bestiary ids >= 0)."""

    CRYSTAL: int = -2  # a life crystal (TR-304)
    STAR: int = -3  # a fallen star (TR-358)


TOKEN = Token()


class PieceRole(NamedTuple):
    """``pieces[:, PC.ROLE]``."""

    CHARACTER: int = 0
    ENEMY: int = 1
    CRYSTAL: int = 2
    STAR: int = 3
    BOSS: int = 4


ROLE = PieceRole()


class BossCols(NamedTuple):
    """``bosses`` int16 (n_bosses, BO.N): Form A columns then Form B at ``+ BO.FORM_B``."""

    SPAWN: int = 0  # ``BOSS_SPAWN`` criterion
    EVIL: int = 1  # 0 any world, 1 Corruption only, 2 Crimson only
    WIN: int = 2  # 1: defeating it wins the game (Wall of Flesh, TR-425)
    WOUNDS: int = 3  # form A wound tokens
    NATK: int = 4
    ATK0: int = 5
    ATK1: int = 6
    ATK2: int = 7
    RANGE: int = 8
    NDEF: int = 9
    DEF0: int = 10
    DEF1: int = 11
    DEF2: int = 12
    MOVEMENT: int = 13
    KIND: int = 14
    SPECIAL: int = 15  # ``SPECIAL`` ability code
    SPECIAL_N: int = 16  # its amount (enemies spawned, health healed, ...)
    DEBUFF: int = 17
    FORM_B: int = 18  # columns WOUNDS..DEBUFF again for Form B start here (+0..+14)
    N: int = 33


BO = BossCols()


class BossSpawn(NamedTuple):
    """Boss spawn criteria (``BO.SPAWN``), rulebook Bosses table."""

    SLIMES: int = 0  # King Slime: the slimes slain meter reaches 8 (TR-391)
    BEE_LARVA: int = 1  # Queen Bee (TR-392)
    LENSES: int = 2  # Eye of Cthulhu: 3 lenses at an altar (TR-393)
    SHADOW_ORB: int = 3  # Eater of Worlds (TR-394)
    CRIMSON_HEART: int = 4  # Brain of Cthulhu (TR-395)
    VOODOO: int = 5  # Wall of Flesh (TR-396)


BOSS_SPAWN = BossSpawn()


class BehaviourCols(NamedTuple):
    """``behaviour`` int16 (n_bosses, 3, BH.N): each boss's 3 Behaviour cards."""

    SPECIAL: int = 0  # 1: the special ability fires
    MOVE: int = 1  # 1: moves (0: N/A)
    SHORT: int = 2  # 1: short range attack
    RANGED: int = 3  # 1: medium/long attack; 2: spawns an enemy instead (TR-408)
    N: int = 4


BH = BehaviourCols()


class Special(NamedTuple):
    """Boss special abilities (``BO.SPECIAL``; illustrative vocabulary, data picks)."""

    NONE: int = 0
    SPAWN: int = 1  # spawn SPECIAL_N enemies of the boss's tray section next to it
    HEAL: int = 2  # put SPECIAL_N wound tokens back (not above the form's count)
    CHARGE: int = 3  # moves SPECIAL_N extra squares this turn
    BURN: int = 4  # every character on the boss's tile loses SPECIAL_N health


SPECIAL = Special()


class TimeCols(NamedTuple):
    """``time_track`` int16 (n_spaces, TT.N): the day/night tracker (data, TR-0xx)."""

    SUNRISE: int = 0
    SKULL: int = 1
    NIGHT: int = 2
    N: int = 3


TT = TimeCols()


class RuleCols(NamedTuple):
    """``rules`` int16 (RU.N,): single numbers of the rules, printed or illustrative (data)."""

    NURSE_PRICE: int = 0  # 15 printed (TR-371)
    MERCHANT_COINS: int = 1  # 10 printed: Merchant criterion (TR-372)
    NURSE_HP: int = 2  # 6 printed: Nurse criterion (TR-370)
    SLOT5_PRICE: int = 3  # 15 printed (TR-186)
    SLOT6_PRICE: int = 4  # 25 printed
    KING_SLIME: int = 5  # 8 printed (TR-391)
    LENSES: int = 6  # 3 printed (TR-393)
    DRYAD_DIE: int = 7  # the Dryad's die size (data, TR-378)
    CRYSTAL_HP: int = 8  # maximum health per life crystal (data, TR-306)
    STAR_MANA: int = 9  # maximum mana per fallen star (data)
    MAX_HP: int = 10  # how high health extensions can take the maximum (data)
    MAX_MANA: int = 11
    LENS: int = 12  # resource id of the Lens
    WOOD: int = 13  # resource id of Wood (platforms, chopping)
    COBWEB: int = 14  # resource id of Cobweb (ropes)
    GEL: int = 15
    N: int = 16


RU = RuleCols()
MAX_HOUSES = 10  # house tiles (TR-018)
MAX_WEIGHTS = 32  # room for a bot's per-turn weights (bots.BP.N)
SEEN_SLOTS = 256  # line-of-sight answers remembered (``seen``, ``sight.sees_memo_nb``)
# index of the bots' ``coin_ask`` parameter (``bots.BP.COIN_ASK``): the one bot parameter the
# engine reads (the Demolitionist's sale at sunrise, ``preparation.from_bots_sunrise_nb``)
BP_COIN_ASK = 14


class HouseAt(NamedTuple):
    """Columns of ``house_at`` int16 (MAX_HOUSES, HA.N): the houses built, in order."""

    ID: int = 0  # house id, -1 for an unused row
    ROW: int = 1  # top-left square of its footprint
    COL: int = 2
    NPC: int = 3  # NPC living there, -1 free
    N: int = 4


HA = HouseAt()


class TablesFields(NamedTuple):
    """The fields of :data:`Tables` as a plain NamedTuple (pickling, caching, iterating).

    World (``compile.compile_world``): ``tpl``, ``stock``, ``stock_n``, ``start``, ``res_dig``,
    ``res_struct``, ``plat_pos``. Content (``compile.compile_tables``): the rest; the
    column layouts are the classes above.
    """

    tpl: Any
    stock: Any
    stock_n: Any
    start: Any
    res_dig: Any
    res_struct: Any
    plat_pos: Any
    rules: Any  # int16 (RU.N,)
    cards: Any  # int16 (n_cards, CF.N)
    start_deck: Any  # int16 (8,) card ids of one starting deck (TR-046)
    equip: Any  # int16 (n_equip, EQ.N)
    equip_recipe: Any  # int16 (n_equip, 4, 2): (resource id, units), id 0 = unused
    start_equip: Any  # int16 (2, 3): standard and Journey starting (weapon, axe, pickaxe)
    armor: Any  # int16 (n_armor, AR.N)
    armor_recipe: Any  # int16 (n_armor, 4, 2)
    minions: Any  # int16 (n_minions,): attack icons of each minion card
    characters: Any  # int16 (n_characters, CC.N)
    consumables: Any  # int16 (n_consumables, CO.N)
    houses: Any  # int16 (n_houses, HO.N)
    house_recipe: Any  # int16 (n_houses, 4, 2)
    food: Any  # int16 (4, RW.N): the cooking pot's food buff tokens
    objectives: Any  # int16 (40, OB.N)
    enemies: Any  # int16 (n_bestiary, EN.N)
    tray_tok: Any  # int16 (SECTIONS, MAX_TOKENS): bestiary id or ``TOKEN``, -1 unused
    tray_night: Any  # int16 (SECTIONS, MAX_TOKENS): 1 for a night token
    tray_n: Any  # int16 (SECTIONS,)
    chest_biome: Any  # int16 (n_chest_cards,): ``state.BIOME`` of each chest card
    chest_reward: Any  # int16 (n_chest_cards, 5, RW.N): reward by layer
    bosses: Any  # int16 (n_bosses, BO.N)
    behaviour: Any  # int16 (n_bosses, 3, BH.N)
    boss_loot: Any  # int16 (n_bosses, REWARD_SLOTS, RW.N)
    time_track: Any  # int16 (n_spaces, TT.N)
    minion_copies: Any = None  # int16 (n_minions,): minion cards of each kind (TR-018)


class StateFields(NamedTuple):
    """The fields of :data:`State` as a plain NamedTuple (see the module docstring)."""

    grid: Any
    tiles: Any
    mini: Any
    pieces: Any  # int16 (N_PIECES, PC.N)
    g: Any
    chars: Any
    inv: Any
    deck: Any
    npile: Any
    ready: Any
    owned: Any
    held: Any
    supply: Any
    cnt: Any
    tray: Any  # int16 (SECTIONS, MAX_TOKENS)
    house_at: Any  # int16 (MAX_HOUSES, HA.N)
    falls: Any  # int16 (F, 3) movement fall events
    disc: Any  # int16 (D, 2) tiles discovered by the last action
    tally: Any  # int32 (movement.T.N,)
    dist: Any  # enemy-plan scratch (``enemy.alloc_scratch``)
    how: Any
    queue: Any
    path: Any
    rng: Any  # uint64 (4,): the game's generator state
    drawn: Any = None  # int16 (7, 5, M): world generation scratch (``world.generate_world_nb``)
    bdist: Any = None  # int32 (rows, cols): the bots' path search scratch
    bfrom: Any = None  # int32 (rows, cols)
    bqueue: Any = None  # int32 (rows * cols * 4,)
    wts: Any = None  # float64 (MAX_WEIGHTS,): the bot's weights for the turn
    seen: Any = None  # int32 (SEEN_SLOTS, 4): remembered line-of-sight answers (all -1: none)


# --- the compiled settings ----------------------------------------------------------------------
class Cfg(NamedTuple):
    """Columns of the int64 ``cfg`` array: the compiled settings (``settings.effective``)."""

    PLAYERS: int = 0
    CHAINS: int = 1
    TOKENS: int = 2
    TOMBS: int = 3  # whole pool, -1 unlimited (Journey)
    FALL_DAMAGE: int = 4
    IRON: int = 5  # Journey starting equipment
    ROPES: int = 6  # rope tokens per player at the start
    EVIL: int = 7  # BIOME.CORRUPTION, BIOME.CRIMSON or -1 (drawn per game)
    CHECK: int = 8  # check invariants after every action
    MAX_ROUNDS: int = 9  # a safety cap (never reached by a game that follows the time track)
    MOB_DEBUFF: int = 10  # 0: a mob's leader's debuff for every health lost; 1: each die's
    N: int = 11


CFG = Cfg()
MAX_ROUNDS = 400  # ``CFG.MAX_ROUNDS``: a safety cap far past any time track's end


# --- the record of a game -----------------------------------------------------------------------
#: The record's measures after ``game_index, win, outcome, rounds`` (``engine.batch.record_nb``).
MEASURES = (
    "chains",
    "objectives",
    "objectives_dig",
    "objectives_fight",
    "objectives_explore",
    "objectives_build",
    "day",
    "deaths",
    "fall_deaths",
    "mob_deaths",
    "falls",
    "fall_damage",
    "duels",
    "wounds_taken",
    "mobbed",
    "mob_damage",
    "kills",
    "bosses",
    "deepest_layer",
    "tiles",
    "houses",
    "npcs",
    "crafted",
    "blocks_dug",
    "chests",
    "gifts",
    "coins_traded",
    "resources_traded",
    "bottle_potions",
    "food_eaten",
)

record_dt = np.dtype(
    [("game_index", np.int64), ("win", np.bool_), ("outcome", np.int8), ("rounds", np.int32)]
    + [(m, np.int32) for m in MEASURES]
)


# --- the kernels' structs ---------------------------------------------------------------------
# Kernels take ``st`` and ``tab`` as numba StructRefs, not NamedTuples: a NamedTuple of ~30
# arrays is passed by value, so every call of a function that numba does not inline copies
# and reference-counts all its arrays (measured: ~0.9-2.4 us a call); a StructRef is one
# pointer (~20 ns). Attribute access (``st.grid``, ``tab.enemies``) reads the same in both.
@structref.register
class StateType(types.StructRef):
    """Numba type of :class:`StateRef`."""

    def preprocess_fields(self, fields):
        """Store field types without literal values."""
        return tuple((n, types.unliteral(t)) for n, t in fields)


class StateRef(structref.StructRefProxy):
    """One game's arrays as a numba StructRef (fields of :class:`StateFields`)."""


structref.define_proxy(StateRef, StateType, list(StateFields._fields))


@structref.register
class TablesType(types.StructRef):
    """Numba type of :class:`TablesRef`."""

    def preprocess_fields(self, fields):
        """Store field types without literal values."""
        return tuple((n, types.unliteral(t)) for n, t in fields)


class TablesRef(structref.StructRefProxy):
    """The compiled content as a numba StructRef (fields of :class:`TablesFields`)."""


structref.define_proxy(TablesRef, TablesType, list(TablesFields._fields))


def _getter_property(getter: Any) -> Any:
    def get(self: Any) -> Any:
        return getter(self)

    return get


def _add_python_getters(proxy: type, names: tuple[str, ...]) -> None:
    """Python attribute access on a proxy (``st.grid`` in tests and reports).

    Each field gets a property reading it through a small jitted getter (numba's proxies
    have none of their own); the getters compile on first use, uncached.
    """
    for name in names:
        ns: dict[str, Any] = {}
        exec(f"def get(s):\n    return s.{name}\n", ns)  # noqa: S102 - field names only
        getter = numba.njit(cache=False)(ns["get"])
        setattr(proxy, name, property(_getter_property(getter)))


if numba.config.DISABLE_JIT:  # type: ignore[attr-defined]  # plain Python: the NamedTuples themselves stand in
    StateRef = StateFields  # type: ignore[misc, assignment]
    TablesRef = TablesFields  # type: ignore[misc, assignment]
else:
    _add_python_getters(StateRef, StateFields._fields)
    _add_python_getters(TablesRef, TablesFields._fields)

# dtype and ndim of the State fields that may be left out (scratch only some kernels use)
_STATE_SCRATCH = {
    "drawn": (np.int16, (1, 1, 1)),
    "bdist": (np.int32, (1, 1)),
    "bfrom": (np.int32, (1, 1)),
    "bqueue": (np.int32, (1,)),
    "wts": (np.float64, (MAX_WEIGHTS,)),
    "seen": (np.int32, (1, 4)),
}


def State(*args: Any, **kwargs: Any) -> StateRef:
    """Build a :class:`StateRef` from arrays, by position or by field name.

    The scratch fields ``drawn``, ``bdist``, ``bfrom``, ``bqueue``, ``wts`` and ``seen`` may
    be left out (dummies of the right type are used; ``wts`` at its full size, ``seen`` one
    empty slot). Inside kernels use ``StateRef(...)`` positionally.
    """
    vals = dict(zip(StateFields._fields, args, strict=False))
    vals.update(kwargs)
    for name, (dt, shape) in _STATE_SCRATCH.items():
        if vals.get(name) is None:
            vals[name] = np.full(shape, -1 if name == "seen" else 0, dtype=dt)
    return StateRef(*(vals[f] for f in StateFields._fields))


def Tables(*args: Any, **kwargs: Any) -> TablesRef:
    """Build a :class:`TablesRef` from arrays, by position or by field name.

    ``minion_copies`` may be left out: each minion kind then has ``MAX_PLAYERS`` cards, as
    many as there are characters to hold one, so its supply never runs out.
    """
    vals = dict(zip(TablesFields._fields, args, strict=False))
    vals.update(kwargs)
    if vals.get("minion_copies") is None:
        vals["minion_copies"] = np.full(len(vals["minions"]), MAX_PLAYERS, dtype=np.int16)
    return TablesRef(*(vals[f] for f in TablesFields._fields))


def fields_of(obj: Any) -> dict[str, Any]:
    """The arrays of a :class:`StateRef` or :class:`TablesRef` by field name."""
    names = StateFields._fields if isinstance(obj, StateRef) else TablesFields._fields
    return {n: getattr(obj, n) for n in names}


def replace(obj: Any, **kwargs: Any) -> Any:
    """A new struct like ``obj`` with some fields replaced (``NamedTuple._replace``).

    A new ``minions`` table given without ``minion_copies`` gets the default copies
    (:func:`Tables`): the old counts belong to the old table.
    """
    vals = fields_of(obj)
    if "minions" in kwargs and "minion_copies" not in kwargs:
        vals["minion_copies"] = None
    vals.update(kwargs)
    return State(**vals) if isinstance(obj, StateRef) else Tables(**vals)
