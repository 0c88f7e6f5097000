"""Terraria enemies: the tray, spawning, sunrise, the enemy turn, wounds, loot and tokens.

Rulebook: Preparing the Enemy Tray; Enemy Spawning and the Enemy Turn (Enemy Movement,
Enemy Attacks, Mobbing); Attacking (wounds, loot); Life Crystals; Fallen Stars; Preparation
(sunrise). Every kernel takes the game's :class:`~simlib.games.terraria.state.State`
``st`` and the compiled :class:`~simlib.games.terraria.state.Tables` ``tab`` first and
says what it writes; every random draw comes from ``st.rng`` in the order stated.

The tray
--------
Section ``s = biome * LAYERS + layer`` (:func:`section_index`; biomes in ``state.BIOME``
order, layers top to bottom) holds the tokens ``tab.tray_tok[s, :tab.tray_n[s]]``, each a
bestiary id or a ``TOKEN`` (life crystal, fallen star), day or night by
``tab.tray_night``. ``st.tray[s, i]`` is 0 while token ``i`` is in the tray, 1 in the world,
2 in the section's discard area (TR-028..032).

Readings (checklist ``shared/rules/terraria-checklist.md``; also in the package docstring)
------------------------------------------------------------------------------------
- Spawning (TR-310..314): the section is that of the square's tile (its biome and layer);
  a day token by day, a night token by night (``tab.time_track[g[G.TIME], TT.NIGHT]``),
  drawn uniformly among that section's tokens of that time still in the tray (one
  ``randint_nb``). With none left, the section's discards all go back first (TR-311); if
  there is still none, nothing spawns (TR-312). Ocean tiles have no tray section (the tray
  has 6 biome columns), so nothing spawns on them. A square that is a block, holds a piece
  or is under a house spawns nothing (TR-313, the spawn point is not visible), and neither
  does a full world (all ``MAX_ENEMIES`` enemy rows in use: the component limit, TR-026).
  The token is placed with ``movement.place_piece_nb``: walking enemies over a tunnel fall
  (TR-314); worms and life crystal / fallen star tokens drop to the surface below in the
  same way (a worm never hangs in the air, TR-329; a token lies on what is under it);
  flyers stay where they spawn.
- Spawning on discovery (TR-308): every spawn point of each newly discovered tile, tiles
  in discovery order, squares top to bottom then left to right. Skull spawning (TR-309):
  on every visible spawn point of the discovered tiles holding a character or
  orthogonally beside one, tiles top to bottom then left to right.
- Sunrise (TR-083..085): night enemies and fallen stars go to their section's discard
  area with their wounds cleared; life crystals (which are not enemies) stay, whatever
  the time of their token.
- Enemy moves (TR-317, open; the players' choice, a fixed rule here): the enemy nearest a
  character (in squares, as ``enemy.nearest_character_nb`` measures) moves first, ties to
  the lowest piece row: the pack closes in front first, the way a table plays it and the
  players' worst case. Each move is ``enemy.move_enemy_nb`` with the bestiary's movement;
  the bosses (rows ``BOSS_ROW + id``) are moved by ``bosses.py``. Characters falling
  because an enemy under them moved take fall damage here (``life.resolve_falls_nb``).
- Enemy attacks (TR-332..348): an enemy attacks each character in the world it sees
  (``sight.sees_nb``: houses block, TR-245) and reaches with one of its ranges, once
  (TR-332); an adjacent character only with short range (mobbing), a farther one with
  long (band 1) or, without long, medium (band 2) range (TR-336). Bands run long, medium,
  short (TR-334); within a band enemies attack in piece-row order, each against characters
  0..3 in turn, the bosses last in boss id order (TR-335, players' choice: a fixed rule). In
  the short band each character in turn (TR-347) is attacked by the mob of the enemies
  adjacent to it that see it and have short range (TR-348): the strongest leads (largest
  die, then most dice of that size, TR-344); on a full tie (TR-345) the players pick the
  leader giving the weakest pool (the smallest sum of die sizes), then the lowest row. The
  leader adds the smallest die of each other member (TR-346) and, by default, its debuff
  alone applies (setting ``mob_debuff``, reading TR-342: ``each_die`` gives a health lost to a
  lent die that lender's debuff, the leader's own hits counted first).
- A roll (TR-337..341): the defender's dice (worn armor, else character card, TR-338) are
  rolled first, then the Dryad's die if used, then the attack dice in pool order, one
  ``randint_nb`` each; all defence icons (``CH.DEF``) go onto the highest defence die
  (TR-286); each attack die at least that loses 1 health (ties to the enemy, TR-341),
  never below 0. The Dryad's die (``g[G.DRYAD_DIE] == 1``, size ``RU.DRYAD_DIE``, TR-377,
  TR-378 open) is rolled as one extra defence die in the first enemy roll of the turn whose
  attack dice are at least the defender's health (a roll that can kill), then it is used up.
- Debuffs (TR-342, TR-217, TR-026): one card of the enemy's debuff type per health lost,
  on top of the draw pile, unless the worn armor is immune (``AR.IMMUNE`` bit
  ``1 << type``), while copies are left in ``st.supply[SUP.CARDS]``; added after the death
  shuffle when the attack kills (TR-303). A character at 0 health dies at once
  (``life.die_nb``) and is not attacked again; the game may end there (TR-427).
- Stats: ``CH.DUELS`` + 1 per enemy roll received, ``CH.WOUNDS_TAKEN`` + health lost,
  ``CH.MOBBED`` + 1 per roll by 2 or more enemies.
- Wounds and loot (TR-280..283, TR-195, TR-196, TR-075, TR-390): wounds stay on an enemy;
  at its wound value it is defeated, extra wounds wasted, its token goes to its section's
  discard area, and the attacker gets its coins (up to 25; the rest to teammates with room,
  ``life.team_gain_coins_nb``, TR-197), its resource drop (through ``life.team_gain_nb``:
  what it has no room for goes to teammates with room first) and the Guide Voodoo Doll
  when it drops one (while a copy is
  in the supply, TR-388). A slime advances the slimes slain meter until King Slime is
  pending, in play or defeated (TR-400 reading); reaching its last space marks King Slime
  pending (``g[G.PENDING]``, TR-076). Life crystals, fallen stars and the boss cannot be wounded
  here (-1; the boss is ``bosses.py``'s).
- Collecting (TR-305, TR-306, TR-359): a character adjacent to a life crystal or fallen
  star collects it for free: the token goes to the discard area, maximum health
  (``RU.CRYSTAL_HP``) or mana (``RU.STAR_MANA``) rises, capped by ``RU.MAX_HP`` /
  ``RU.MAX_MANA``, and health or mana refills to the maximum.
"""

from __future__ import annotations

from simlib.core.jit import njit
from simlib.core.rng import randint_nb
from simlib.games.terraria import state
from simlib.games.terraria.engine import life
from simlib.games.terraria.engine.enemy import move_enemy_nb, targetable_nb
from simlib.games.terraria.engine.movement import T, place_piece_nb, remove_piece_nb
from simlib.games.terraria.engine.sight import (
    reach_nb,
    sees_memo_nb,
    sight_epoch_nb,
)
from simlib.games.terraria.state import (
    AR,
    BIOME,
    BO,
    BOSS_ROW,
    BOSS_SPAWN,
    CF,
    CH,
    CNT,
    CO,
    EN,
    ENEMY_ROW,
    FEAT,
    KIND,
    LAYERS,
    MAX_PLAYERS,
    N_PIECES,
    OUT,
    PC,
    PILE,
    RANGE,
    ROLE,
    RU,
    SHOP,
    SQ,
    SUP,
    TILE_COLS,
    TOKEN,
    TP,
    TT,
    G,
    P,
)

__all__ = [
    "IN_TRAY",
    "IN_WORLD",
    "DISCARDED",
    "section_index",
    "section_nb",
    "reset_tray_nb",
    "spawn_at_nb",
    "spawn_discovered_nb",
    "skull_spawn_nb",
    "sunrise_foes_nb",
    "remove_token_nb",
    "enemy_moves_nb",
    "enemy_attacks_nb",
    "wound_enemy_nb",
    "slime_slain_nb",
    "collect_token_nb",
]

IN_TRAY = 0
IN_WORLD = 1
DISCARDED = 2


def section_index(biome: int, layer: int) -> int:
    """Tray section of a biome (``state.BIOME`` id, not ocean) and layer (0 = Surface)."""
    return biome * LAYERS + layer


# --- the tray and spawning ---------------------------------------------------------------------
@njit(refcount=False)
def section_nb(st, r, c):
    """Tray section of square (r, c)'s tile, -1 for an ocean tile. Read only."""
    h = st.grid.shape[1] // LAYERS
    w = st.grid.shape[2] // TILE_COLS
    b = st.tiles[TP.BIOME, r // h, c // w]
    if b < 0 or b >= BIOME.OCEAN:
        return -1
    return b * LAYERS + r // h


@njit(refcount=False)
def reset_tray_nb(st, tab):
    """Every token back in its tray section (setup, TR-030). Writes ``st.tray``."""
    for s in range(st.tray.shape[0]):
        for i in range(st.tray.shape[1]):
            st.tray[s, i] = IN_TRAY


@njit(refcount=False)
def _free_row_nb(st):
    for k in range(ENEMY_ROW, BOSS_ROW):
        if st.pieces[k, PC.KIND] == KIND.NONE:
            return k
    return -1


@njit(refcount=False)
def _visible_nb(st, r, c):
    """A square a token may be placed on: discovered, no block, no house, no piece."""
    if not state.on_table_nb(st.grid, st.tiles, r, c):
        return False
    if st.grid[P.SQ, r, c] == SQ.BLOCK or st.grid[P.FEAT, r, c] & FEAT.HOUSE:
        return False
    if st.grid[P.OCC, r, c] != 0:
        return False
    for j in range(st.pieces.shape[0]):
        if (
            st.pieces[j, PC.KIND] != KIND.NONE
            and st.pieces[j, PC.ROW] == r
            and st.pieces[j, PC.COL] == c
        ):
            return False  # a piece passing through (not registered) covers it too
    return True


@njit(refcount=False)
def _count_nb(st, tab, s, night):
    n = 0
    for i in range(tab.tray_n[s]):
        if st.tray[s, i] == IN_TRAY and tab.tray_night[s, i] == night:
            n += 1
    return n


@njit(refcount=False)
def spawn_at_nb(st, tab, r, c):
    """Draw a token from the tray section of square (r, c) and place it there (TR-310..314).

    Writes ``st.tray`` (the draw, a reshuffle of discards), ``st.pieces`` (a free row in
    ``ENEMY_ROW .. BOSS_ROW - 1``: ``KIND``, position, ``ROLE``, ``TYPE`` (bestiary id, or the
    ``TOKEN`` code), ``WOUNDS`` 0, ``SECTION``, ``TSLOT``), OCC, ``st.falls``/``st.tally``
    (a fall), ``st.rng`` (one ``randint_nb`` when a token is drawn). Returns the piece row,
    or -1 when nothing spawns (see the module docstring).
    """
    if st.g[G.OVER] != OUT.PLAYING:
        return -1
    if not _visible_nb(st, r, c):
        return -1
    s = section_nb(st, r, c)
    if s < 0:
        return -1
    k = _free_row_nb(st)
    if k < 0:
        return -1
    night = 1 if tab.time_track[st.g[G.TIME], TT.NIGHT] != 0 else 0
    n = _count_nb(st, tab, s, night)
    if n == 0:
        for i in range(tab.tray_n[s]):  # TR-311: the section's discards go back
            if st.tray[s, i] == DISCARDED:
                st.tray[s, i] = IN_TRAY
        n = _count_nb(st, tab, s, night)
        if n == 0:
            return -1  # TR-312
    j = randint_nb(n, st.rng)
    slot = -1
    for i in range(tab.tray_n[s]):
        if st.tray[s, i] == IN_TRAY and tab.tray_night[s, i] == night:
            if j == 0:
                slot = i
                break
            j -= 1
    tok = tab.tray_tok[s, slot]
    if tok >= 0:
        kind = tab.enemies[tok, EN.KIND]
        role = ROLE.ENEMY
    else:
        kind = KIND.TOKEN
        role = ROLE.CRYSTAL if tok == TOKEN.CRYSTAL else ROLE.STAR
    place_piece_nb(
        st.grid, st.tiles, st.mini, st.pieces, k, kind, r, c, st.falls, st.disc, st.tally
    )
    st.pieces[k, PC.ROLE] = role
    st.pieces[k, PC.TYPE] = tok
    st.pieces[k, PC.WOUNDS] = 0
    st.pieces[k, PC.SECTION] = s
    st.pieces[k, PC.TSLOT] = slot
    st.tray[s, slot] = IN_WORLD
    return k


@njit(refcount=False)
def _spawn_tile_nb(st, tab, layer, tcol):
    h = st.grid.shape[1] // LAYERS
    w = st.grid.shape[2] // TILE_COLS
    n = 0
    for r in range(layer * h, layer * h + h):
        for c in range(tcol * w, tcol * w + w):
            if st.grid[P.FEAT, r, c] & FEAT.SPAWN and spawn_at_nb(st, tab, r, c) >= 0:
                n += 1
    return n


@njit(refcount=False)
def spawn_discovered_nb(st, tab, n):
    """Spawn on the spawn points of the first ``n`` tile positions of ``st.disc`` (TR-308).

    Writes what :func:`spawn_at_nb` writes. Returns how many tokens spawned.
    """
    out = 0
    for i in range(min(n, st.disc.shape[0])):
        out += _spawn_tile_nb(st, tab, st.disc[i, 0], st.disc[i, 1])
    return out


@njit(refcount=False)
def skull_spawn_nb(st, tab):
    """The skull space's spawning (TR-309, TR-313, TR-090); nothing off a skull space.

    Every visible spawn point of a discovered tile that holds a character in the world or is
    orthogonally beside such a tile spawns. Writes what :func:`spawn_at_nb` writes.
    Returns how many tokens spawned.
    """
    if tab.time_track[st.g[G.TIME], TT.SKULL] == 0:
        return 0
    h = st.grid.shape[1] // LAYERS
    w = st.grid.shape[2] // TILE_COLS
    out = 0
    for layer in range(LAYERS):
        for tcol in range(TILE_COLS):
            if st.tiles[TP.KNOWN, layer, tcol] == 0:
                continue
            near = False
            for p in range(MAX_PLAYERS):
                if st.chars[p, CH.IN_WORLD] == 0 or st.pieces[p, PC.KIND] != KIND.CHARACTER:
                    continue
                d = abs(st.pieces[p, PC.ROW] // h - layer) + abs(st.pieces[p, PC.COL] // w - tcol)
                if d <= 1:
                    near = True
            if near:
                out += _spawn_tile_nb(st, tab, layer, tcol)
    return out


@njit(refcount=False)
def remove_token_nb(st, tab, k):
    """Token ``k`` leaves the world for its section's discard area, wounds cleared.

    Writes ``st.tray``, ``st.pieces[k]`` (kind NONE, role/type/wounds cleared), OCC, and the
    fall events of pieces stacked on it (``st.falls``/``st.tally``; the caller resolves
    them). Returns 1, or 0 for a row holding no token.
    """
    if k < ENEMY_ROW or k >= BOSS_ROW or st.pieces[k, PC.KIND] == KIND.NONE:
        return 0
    s = st.pieces[k, PC.SECTION]
    i = st.pieces[k, PC.TSLOT]
    if s >= 0 and i >= 0:
        st.tray[s, i] = DISCARDED
    remove_piece_nb(st.grid, st.tiles, st.mini, st.pieces, k, st.falls, st.disc, st.tally)
    st.pieces[k, PC.ROLE] = ROLE.ENEMY
    st.pieces[k, PC.TYPE] = -1
    st.pieces[k, PC.WOUNDS] = 0
    st.pieces[k, PC.SECTION] = -1
    st.pieces[k, PC.TSLOT] = -1
    return 1


@njit(refcount=False)
def sunrise_foes_nb(st, tab):
    """Sunrise step 3: night enemies and fallen stars leave the world (TR-083..085).

    Writes what :func:`remove_token_nb` writes. Returns how many tokens were removed.
    """
    n = 0
    for k in range(ENEMY_ROW, BOSS_ROW):
        if st.pieces[k, PC.KIND] == KIND.NONE:
            continue
        role = st.pieces[k, PC.ROLE]
        s = st.pieces[k, PC.SECTION]
        i = st.pieces[k, PC.TSLOT]
        night = s >= 0 and i >= 0 and tab.tray_night[s, i] != 0
        if role == ROLE.STAR or (role == ROLE.ENEMY and night):
            n += remove_token_nb(st, tab, k)
    return n


# --- the enemy turn: moves ---------------------------------------------------------------------
@njit(refcount=False)
def _targets_nb(st):
    """Bit per character that enemies may target (``enemy.targetable_nb``)."""
    out = 0
    for p in range(MAX_PLAYERS):
        if targetable_nb(st.grid, st.tiles, st.pieces, p):
            out |= 1 << p
    return out


@njit(refcount=False, llvm_inline=True)
def _nearest_distance_nb(st, k, targets):
    """Squares from piece ``k`` to the nearest character of the bit set ``targets``."""
    best = 1 << 30
    for p in range(MAX_PLAYERS):
        if not (targets >> p) & 1:
            continue
        d = max(
            abs(st.pieces[p, PC.ROW] - st.pieces[k, PC.ROW]),
            abs(st.pieces[p, PC.COL] - st.pieces[k, PC.COL]),
        )
        best = min(best, d)
    return best


@njit(refcount=False)
def enemy_moves_nb(st, tab):
    """Every enemy on the world moves once (TR-317..331), nearest a character first.

    Writes what ``enemy.move_enemy_nb`` writes (``st.pieces``, OCC, the scratch
    ``st.dist``/``how``/``queue``/``path``, ``st.falls``/``st.tally``), and resolves the fall
    damage of characters toppled by a move (``life.resolve_falls_nb``: ``st.chars``,
    ``st.rng``, deaths). Returns the squares moved in all.
    """
    if st.g[G.OVER] != OUT.PLAYING:
        return 0
    first = st.tally[T.FALLS]
    moved = 0  # bit per enemy row already moved (40 rows < 64 bits)
    total = 0
    n_enemies = BOSS_ROW - ENEMY_ROW
    # the characters enemies may target and the sight epoch, found again only after a move
    # that made anything fall: otherwise only the mover moved (an enemy), no character went
    # in or out of a house, and no block, house or tile changed (a house test a character
    # and one epoch a turn, not one per enemy and character and one per enemy)
    targets = 0
    epoch = 0
    stale = True
    for _ in range(n_enemies):
        if stale:
            targets = _targets_nb(st)
            epoch = sight_epoch_nb(st.tiles, st.g[G.SIGHT])
            stale = False
        best = -1
        best_d = 1 << 30
        for k in range(ENEMY_ROW, BOSS_ROW):
            if (moved >> (k - ENEMY_ROW)) & 1:
                continue
            if st.pieces[k, PC.KIND] == KIND.NONE or st.pieces[k, PC.ROLE] != ROLE.ENEMY:
                continue
            d = _nearest_distance_nb(st, k, targets)
            if d < best_d:
                best_d = d
                best = k
        if best < 0:
            break  # no enemy left to move, or no character to target (TR-244)
        moved |= 1 << (best - ENEMY_ROW)
        falls = st.tally[T.FALLS]
        n = move_enemy_nb(
            st.grid, st.tiles, st.mini, st.pieces, best,
            tab.enemies[st.pieces[best, PC.TYPE], EN.MOVEMENT],
            st.dist, st.how, st.queue, st.path, st.falls, st.disc, st.tally, st.seen, epoch,
        )  # fmt: skip
        if n > 0:
            total += n
        first = life.resolve_falls_nb(st, tab, first)
        stale = st.tally[T.FALLS] != falls
        if st.g[G.OVER] != OUT.PLAYING:
            break
    return total


# --- the enemy turn: attacks -------------------------------------------------------------------
@njit(refcount=False)
def _boss_col_nb(st, k, col):
    """Column of the boss table for ``col`` (a Form A column) in boss row ``k``'s form."""
    if st.g[G.FORM + k - BOSS_ROW] != 0:
        return col - BO.WOUNDS + BO.FORM_B
    return col


@njit(refcount=False)
def _natk_nb(st, tab, k):
    if k >= BOSS_ROW:
        return tab.bosses[st.pieces[k, PC.TYPE], _boss_col_nb(st, k, BO.NATK)]
    return tab.enemies[st.pieces[k, PC.TYPE], EN.NATK]


@njit(refcount=False)
def _die_nb(st, tab, k, j):
    """Attack die ``j`` of enemy (or boss) row ``k``."""
    if k >= BOSS_ROW:
        return tab.bosses[st.pieces[k, PC.TYPE], _boss_col_nb(st, k, BO.ATK0) + j]
    return tab.enemies[st.pieces[k, PC.TYPE], EN.ATK0 + j]


@njit(refcount=False)
def _ranges_nb(st, tab, k):
    if k >= BOSS_ROW:
        return tab.bosses[st.pieces[k, PC.TYPE], _boss_col_nb(st, k, BO.RANGE)]
    return tab.enemies[st.pieces[k, PC.TYPE], EN.RANGE]


@njit(refcount=False)
def _debuff_nb(st, tab, k):
    if k >= BOSS_ROW:
        return tab.bosses[st.pieces[k, PC.TYPE], _boss_col_nb(st, k, BO.DEBUFF)]
    return tab.enemies[st.pieces[k, PC.TYPE], EN.DEBUFF]


@njit(refcount=False)
def _attacker_nb(st, k, boss_short, boss_ranged):
    """Is row ``k`` an enemy (or a boss in play whose card attacks) that can attack now?"""
    if st.pieces[k, PC.KIND] == KIND.NONE:
        return False
    if k >= BOSS_ROW:
        b = k - BOSS_ROW
        return (st.g[G.IN_PLAY] >> b) & 1 != 0 and ((boss_short | boss_ranged) >> b) & 1 != 0
    return st.pieces[k, PC.ROLE] == ROLE.ENEMY


@njit(refcount=False)
def _band_nb(st, tab, k, p, boss_short, boss_ranged, epoch):
    """Band in which row ``k`` attacks character ``p``: 1 long, 2 medium, 3 short, 0 none.

    Line of sight through the ``st.seen`` memo at the sight ``epoch``.
    """
    h = st.grid.shape[1] // LAYERS
    w = st.grid.shape[2] // TILE_COLS
    er = st.pieces[k, PC.ROW]
    ec = st.pieces[k, PC.COL]
    cr = st.pieces[p, PC.ROW]
    cc = st.pieces[p, PC.COL]
    reach = reach_nb(er, ec, cr, cc, h, w) & _ranges_nb(st, tab, k)
    if reach == 0:
        return 0
    band = 0
    if reach & RANGE.SHORT:
        band = 3
    elif reach & RANGE.LONG:
        band = 1
    elif reach & RANGE.MEDIUM:
        band = 2
    if k >= BOSS_ROW:
        b = k - BOSS_ROW
        if band == 3 and not (boss_short >> b) & 1:
            return 0
        if band != 3 and not (boss_ranged >> b) & 1:
            return 0
    if not sees_memo_nb(st.seen, epoch, st.grid, st.tiles, er, ec, cr, cc):
        return 0
    return band


@njit(refcount=False)
def _debuff_card_nb(tab, kind):
    for i in range(tab.cards.shape[0]):
        if tab.cards[i, CF.SHOP] == SHOP.DEBUFF and tab.cards[i, CF.DEBUFF] == kind:
            return i
    return -1


@njit(refcount=False)
def _add_debuffs_nb(st, tab, p, kind, n):
    """``n`` debuff cards of ``kind`` on top of ``p``'s draw pile (TR-342, TR-217, TR-026)."""
    if kind <= 0 or n <= 0:
        return 0
    a = st.chars[p, CH.ARMOR]
    if a >= 0 and tab.armor[a, AR.IMMUNE] & (1 << kind):
        return 0
    card = _debuff_card_nb(tab, kind)
    if card < 0:
        return 0
    added = 0
    for _ in range(n):
        m = st.npile[p, PILE.DRAW]
        if st.supply[SUP.CARDS, card] <= 0 or m >= st.deck.shape[2]:
            break
        st.supply[SUP.CARDS, card] -= 1
        st.deck[p, PILE.DRAW, m] = card
        st.npile[p, PILE.DRAW] = m + 1
        added += 1
    return added


@njit(refcount=False)
def _roll_nb(st, tab, p, leader, mask):
    """Roll the pool of ``leader`` plus the smallest die of each row in ``mask`` against ``p``.

    Returns ``(health lost, hits of the leader's own dice, mask of the rows in ``mask``
    whose lent die hit)`` (see the module docstring for the order of the draws).
    """
    n_pool = _natk_nb(st, tab, leader)
    for k in range(ENEMY_ROW, N_PIECES):
        if (mask >> (k - ENEMY_ROW)) & 1:
            n_pool += 1
    defence = life.defence_dice_nb(st, tab, p)
    high = 0
    for j in range(defence.shape[0]):
        d = randint_nb(defence[j], st.rng) + 1
        if d > high:
            high = d
    if st.g[G.DRYAD_DIE] != 0 and n_pool >= st.chars[p, CH.HP]:
        st.g[G.DRYAD_DIE] = 0  # one roll, then used up (TR-377)
        d = randint_nb(tab.rules[RU.DRYAD_DIE], st.rng) + 1
        if d > high:
            high = d
    high += life.defence_icons_nb(st, tab, p)  # all icons on the highest die (TR-286)
    hits = 0
    for j in range(_natk_nb(st, tab, leader)):
        if randint_nb(_die_nb(st, tab, leader, j), st.rng) + 1 >= high:
            hits += 1
    own = hits
    lent = 0
    for k in range(ENEMY_ROW, N_PIECES):
        if (mask >> (k - ENEMY_ROW)) & 1:
            if randint_nb(_smallest_nb(st, tab, k), st.rng) + 1 >= high:
                hits += 1
                lent |= 1 << (k - ENEMY_ROW)
    return min(hits, st.chars[p, CH.HP]), own, lent


@njit(refcount=False)
def _mob_debuffs_nb(st, tab, p, leader, lost, own, lent):
    """The debuff cards of ``lost`` health (TR-342), by the ``mob_debuff`` reading.

    ``g[G.MOB_DEBUFF]`` 0 (literal): all of them the leader's. 1: the leader's own hits
    first, then one card of each lender whose die hit (row order), while health lost is
    left to pay them. Writes what :func:`_add_debuffs_nb` writes.
    """
    if st.g[G.MOB_DEBUFF] == 0 or lent == 0:
        _add_debuffs_nb(st, tab, p, _debuff_nb(st, tab, leader), lost)
        return
    left = lost - min(own, lost)
    _add_debuffs_nb(st, tab, p, _debuff_nb(st, tab, leader), min(own, lost))
    for k in range(ENEMY_ROW, N_PIECES):
        if left <= 0:
            break
        if (lent >> (k - ENEMY_ROW)) & 1:
            _add_debuffs_nb(st, tab, p, _debuff_nb(st, tab, k), 1)
            left -= 1


@njit(refcount=False)
def _resolve_nb(st, tab, p, leader, mask, mob):
    """One enemy roll against ``p``: health, stats, death, debuffs. Returns health lost."""
    lost, own, lent = _roll_nb(st, tab, p, leader, mask)
    st.chars[p, CH.DUELS] += 1
    if mob:
        st.chars[p, CH.MOBBED] += 1
        st.chars[p, CH.MOB_DMG] += lost
    st.chars[p, CH.WOUNDS_TAKEN] += lost
    st.chars[p, CH.HP] -= lost
    if st.chars[p, CH.HP] <= 0:
        if mob:
            st.chars[p, CH.MOB_DEATHS] += 1
        first = st.tally[T.FALLS]
        life.die_nb(st, tab, p)  # TR-290
        _mob_debuffs_nb(st, tab, p, leader, lost, own, lent)  # after the death shuffle (TR-303)
        life.resolve_falls_nb(st, tab, first)
    else:
        _mob_debuffs_nb(st, tab, p, leader, lost, own, lent)
    return lost


@njit(refcount=False)
def _strength_nb(st, tab, k):
    top = 0
    count = 0
    for j in range(_natk_nb(st, tab, k)):
        d = _die_nb(st, tab, k, j)
        if d > top:
            top = d
            count = 1
        elif d == top:
            count += 1
    return top, count


@njit(refcount=False)
def _smallest_nb(st, tab, k):
    small = 1 << 30
    for j in range(_natk_nb(st, tab, k)):
        small = min(small, _die_nb(st, tab, k, j))
    return small


@njit(refcount=False)
def _extra_nb(st, tab, k):
    """A leader's pool beyond what it would lend: the sum of its dice less its smallest."""
    s = 0
    for j in range(_natk_nb(st, tab, k)):
        s += _die_nb(st, tab, k, j)
    return s - _smallest_nb(st, tab, k)


@njit(refcount=False)
def _mob_nb(st, tab, p):
    """The mob against character ``p`` in the short band: ``(leader, others, members)``.

    Members are the rows whose cached band against ``p`` is 3 (:func:`_bands_nb`). ``others``
    has bit ``k - ENEMY_ROW`` set for every member but the leader (leader -1: no mob).
    """
    leader = -1
    lt = 0
    lc = 0
    lx = 0
    members = 0
    mask = 0
    for k in range(ENEMY_ROW, N_PIECES):
        if st.dist[p, k - ENEMY_ROW] != 3:
            continue
        members += 1
        mask |= 1 << (k - ENEMY_ROW)
        t, c = _strength_nb(st, tab, k)
        x = _extra_nb(st, tab, k)
        if leader < 0 or t > lt or (t == lt and (c > lc or (c == lc and x < lx))):
            leader = k
            lt = t
            lc = c
            lx = x
    if leader >= 0:
        mask &= ~(1 << (leader - ENEMY_ROW))
    return leader, mask, members


@njit(refcount=False)
def _bands_nb(st, tab, boss_short, boss_ranged, refresh):
    """Cache in ``st.dist[p, k - ENEMY_ROW]`` the band in which row ``k`` attacks ``p``.

    The enemy turn's scratch ``st.dist`` (free once the moves are done) holds, for the 4
    characters and the enemy and boss rows, :func:`_band_nb`'s answer (0 none), so each
    line of sight is checked once; -1 marks a pair whose attack is done. Pieces move during
    the attack step only when a death drops a stack; then the caller refreshes
    (``refresh``: pairs already done stay done, so no enemy attacks a character twice).
    """
    epoch = sight_epoch_nb(st.tiles, st.g[G.SIGHT])  # nothing here changes what blocks sight
    for p in range(MAX_PLAYERS):
        alive = st.chars[p, CH.IN_WORLD] != 0 and st.pieces[p, PC.KIND] == KIND.CHARACTER
        for k in range(ENEMY_ROW, N_PIECES):
            if refresh and st.dist[p, k - ENEMY_ROW] < 0:
                continue
            b = 0
            if alive and _attacker_nb(st, k, boss_short, boss_ranged):
                if _natk_nb(st, tab, k) > 0:
                    b = _band_nb(st, tab, k, p, boss_short, boss_ranged, epoch)
            st.dist[p, k - ENEMY_ROW] = b


@njit(refcount=False)
def enemy_attacks_nb(st, tab, boss_short, boss_ranged):
    """The enemy attack step (TR-332..348): long, then medium, then short (mobs).

    ``boss_short`` / ``boss_ranged`` (int, a bit per boss id): the bosses in play (row
    ``BOSS_ROW + id``, their dice from ``tab.bosses`` by ``g[G.FORM + id]``) that make their
    short (joining the mobs) and their medium/long attacks this turn (each boss's face-up
    Behaviour card decides, ``bosses.boss_flags_nb``). Writes
    ``st.chars`` (health, ``DUELS``, ``WOUNDS_TAKEN``, ``MOBBED``), ``st.deck``/``npile``
    and ``st.supply[SUP.CARDS]`` (debuffs), ``st.g`` (``DRYAD_DIE``; deaths), ``st.rng``,
    the scratch ``st.dist`` (the bands, :func:`_bands_nb`), and what ``life.die_nb`` /
    ``life.resolve_falls_nb`` write. Returns the health lost.
    """
    if st.g[G.OVER] != OUT.PLAYING:
        return 0
    _bands_nb(st, tab, boss_short, boss_ranged, False)
    lost = 0
    for band in range(1, 3):
        for k in range(ENEMY_ROW, N_PIECES):
            for p in range(MAX_PLAYERS):
                if st.dist[p, k - ENEMY_ROW] != band:
                    continue
                if st.g[G.OVER] != OUT.PLAYING:
                    return lost
                st.dist[p, k - ENEMY_ROW] = -1
                if st.chars[p, CH.IN_WORLD] == 0:
                    continue
                lost += _resolve_nb(st, tab, p, k, 0, False)
                if st.chars[p, CH.IN_WORLD] == 0:
                    _bands_nb(st, tab, boss_short, boss_ranged, True)  # a stack may drop
    for p in range(MAX_PLAYERS):
        if st.g[G.OVER] != OUT.PLAYING:
            return lost
        if st.chars[p, CH.IN_WORLD] == 0:
            continue
        leader, mask, members = _mob_nb(st, tab, p)
        if leader < 0:
            continue
        lost += _resolve_nb(st, tab, p, leader, mask, members > 1)
        if st.chars[p, CH.IN_WORLD] == 0:
            _bands_nb(st, tab, boss_short, boss_ranged, True)
    return lost


# --- wounds, loot, collecting ------------------------------------------------------------------
@njit(refcount=False)
def _king_slime_nb(tab):
    for b in range(tab.bosses.shape[0]):
        if tab.bosses[b, BO.SPAWN] == BOSS_SPAWN.SLIMES:
            return b
    return -1


@njit(refcount=False)
def slime_slain_nb(st, tab):
    """A slime was defeated: advance the slimes slain meter (TR-075).

    The meter stops once King Slime is pending, in play or defeated (TR-400); the slime
    that reaches its last space makes King Slime pending (TR-076, TR-391). Counting
    ``cnt[CNT.SLIMES]`` (every slime, for objectives) is the caller's. Returns 1 when the
    meter advanced. Writes ``g[G.SLIMES]``, ``g[G.PENDING]``.
    """
    ks = _king_slime_nb(tab)
    if ks < 0 or (st.g[G.SPAWNED] | st.g[G.PENDING] | st.g[G.DEFEATED]) >> ks & 1:
        return 0
    st.g[G.SLIMES] += 1
    if st.g[G.SLIMES] >= tab.rules[RU.KING_SLIME]:
        st.g[G.PENDING] |= 1 << ks
        st.g[G.TRIGGER + ks] = 0
    return 1


@njit(refcount=False)
def _voodoo_nb(tab):
    for i in range(tab.consumables.shape[0]):
        if tab.consumables[i, CO.VOODOO] != 0:
            return i
    return -1


@njit(refcount=False)
def wound_enemy_nb(st, tab, p, k, wounds):
    """Player ``p`` inflicts ``wounds`` on enemy row ``k`` (TR-280..283); loot on defeat.

    Writes ``st.pieces[k, PC.WOUNDS]``; on defeat what :func:`remove_token_nb` writes, and
    ``st.chars[p]`` (``COINS``, ``KILLS``, ``COINS_TRADED``, ``RES_TRADED``), ``st.inv[p]``
    (and teammates' ``COINS`` and ``inv`` for what ``p`` has no room for), ``st.held[p]``,
    ``st.supply[SUP.CONSUMABLE]``, ``st.g`` (``SLIMES``, ``PENDING``), ``st.cnt``
    (``ENEMIES``, ``SLIMES``, ``COINS``, ``RES`` + id). Returns 1 when defeated, 0 when not,
    -1 for a row that is not an enemy (the boss, a life crystal, a fallen star, nothing).
    """
    if k < ENEMY_ROW or k >= BOSS_ROW:
        return -1
    if st.pieces[k, PC.KIND] == KIND.NONE or st.pieces[k, PC.ROLE] != ROLE.ENEMY:
        return -1
    e = st.pieces[k, PC.TYPE]
    st.pieces[k, PC.WOUNDS] += wounds
    if st.pieces[k, PC.WOUNDS] < tab.enemies[e, EN.WOUNDS]:
        return 0
    remove_token_nb(st, tab, k)  # TR-281; extra wounds are wasted (TR-283)
    got = life.team_gain_coins_nb(st, p, tab.enemies[e, EN.COINS])
    st.cnt[CNT.COINS] += got
    res = tab.enemies[e, EN.LOOT_RES]
    if res > 0 and tab.enemies[e, EN.LOOT_N] > 0:
        st.cnt[CNT.RES + res] += life.team_gain_nb(st, p, res, tab.enemies[e, EN.LOOT_N])
    if tab.enemies[e, EN.VOODOO] != 0:
        v = _voodoo_nb(tab)
        if v >= 0 and st.supply[SUP.CONSUMABLE, v] > 0:
            st.supply[SUP.CONSUMABLE, v] -= 1
            st.held[p, v] += 1
    if tab.enemies[e, EN.SLIME] != 0:
        st.cnt[CNT.SLIMES] += 1
        slime_slain_nb(st, tab)
    st.cnt[CNT.ENEMIES] += 1
    st.chars[p, CH.KILLS] += 1
    return 1


@njit(refcount=False)
def collect_token_nb(st, tab, p, k):
    """Character ``p`` collects the life crystal or fallen star in row ``k`` (TR-305, TR-359).

    It must be in the world and adjacent (any of the 8 neighbours, TR-124); it costs
    nothing (TR-306). Writes ``st.chars[p]`` (``MAXHP``/``HP`` or ``MAXMANA``/``MANA``),
    ``st.cnt`` (``CRYSTALS`` / ``STARS``) and what :func:`remove_token_nb` writes. Returns 1
    when collected, -1 when not allowed.
    """
    if k < ENEMY_ROW or k >= BOSS_ROW or st.pieces[k, PC.KIND] == KIND.NONE:
        return -1
    role = st.pieces[k, PC.ROLE]
    if role != ROLE.CRYSTAL and role != ROLE.STAR:
        return -1
    if st.chars[p, CH.IN_WORLD] == 0 or st.pieces[p, PC.KIND] != KIND.CHARACTER:
        return -1
    dr = abs(st.pieces[p, PC.ROW] - st.pieces[k, PC.ROW])
    dc = abs(st.pieces[p, PC.COL] - st.pieces[k, PC.COL])
    if dr > 1 or dc > 1 or (dr == 0 and dc == 0):
        return -1
    remove_token_nb(st, tab, k)
    if role == ROLE.CRYSTAL:
        st.chars[p, CH.MAXHP] = min(
            st.chars[p, CH.MAXHP] + tab.rules[RU.CRYSTAL_HP],
            max(tab.rules[RU.MAX_HP], st.chars[p, CH.MAXHP]),
        )
        st.chars[p, CH.HP] = st.chars[p, CH.MAXHP]
        st.cnt[CNT.CRYSTALS] += 1
    else:
        st.chars[p, CH.MAXMANA] = min(
            st.chars[p, CH.MAXMANA] + tab.rules[RU.STAR_MANA],
            max(tab.rules[RU.MAX_MANA], st.chars[p, CH.MAXMANA]),
        )
        st.chars[p, CH.MANA] = st.chars[p, CH.MAXMANA]
        st.cnt[CNT.STARS] += 1
    return 1
