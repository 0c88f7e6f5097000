"""Terraria bosses: spawn criteria, spawning, behaviour cards, moving with displacement, wounds.

Rulebook: Bosses (Spawning, Behaviour and Forms, Boss Loot); Falling, Stacking and
Displacing (Displacing, Bosses Only). Every kernel takes ``(st, tab, ...)``: ``st`` a
:class:`~simlib.games.terraria.state.State`, ``tab`` a
:class:`~simlib.games.terraria.state.Tables`; the kernels of one boss take its id ``b``.
Boss ``b`` in play is piece ``BOSS_ROW + b`` (``PC.ROLE`` = ``ROLE.BOSS``, ``PC.TYPE`` =
``b``), bit ``b`` of ``g[G.IN_PLAY]``, and its own state is in the per-boss columns of
``g`` (``G.FORM + b``, ``G.BOSS_LEFT + b``, ``G.BEHAV + 3 * b``, ``G.BEHAV_AT + b``,
``G.BOSS_EXTRA + b``) and of ``chars`` (``CH.BOSS_TOKENS + b``).

Readings (the rulebook leaves these open; the checklist id says which)
--------------------------------------------------------------------
- Criteria (TR-391..396). The slimes slain meter is state, checked by :func:`check_boss_criteria_nb`
  (King Slime once ``g[G.SLIMES] >= rules[RU.KING_SLIME]``); ``foes.slime_slain_nb`` (called for
  every slime defeated) advances the meter and stops it once King Slime is pending, in play or
  defeated (TR-400). The other criteria are events, each made pending the moment it happens:
  breaking a trigger block (:func:`broke_block_nb`, called by the dig action with every block it
  finishes and its flags: the Bee Larva, ``FEAT.LARVA``, gives Queen Bee; a Shadow Orb / Crimson
  Heart, ``FEAT.ORB``, gives Eater of Worlds in a Corruption world and Brain of Cthulhu in a Crimson
  world); spending lenses (:func:`spend_lenses_nb`: the spender stands on or next to an altar,
  ``FEAT.ALTAR``, and holds ``rules[RU.LENSES]`` units of the Lens resource ``rules[RU.LENS]`` in
  their inventory, TR-397); discarding the Guide Voodoo Doll (:func:`use_voodoo_nb`: the consumable
  with ``CO.VOODOO``, next to a lava square; the caller discards it). Which boss a criterion spawns
  is data (``BO.SPAWN``, ``BO.EVIL``). The square where a criterion was met is kept in
  ``g[G.TRIGGER + id]`` as ``row * PACK + col + 1`` (0: none, e.g. the slimes meter).
- Each boss spawns at most once (TR-400): a criterion of a boss already pending, in play
  or defeated does nothing (lenses and the doll are then not spent; a broken trigger block
  is still broken).
- Timing (TR-398, TR-399): :func:`spawn_pending_bosses_nb` is called at the start of the
  enemy turn and spawns every pending boss (a criterion met later in the round, caught by
  :func:`check_boss_criteria_nb` at cleanup step 4, spawns at the start of the next enemy
  turn, where it first acts).
- Several bosses in play (TR-316, TR-398): nothing limits the bosses in play; two
  criteria met in one round put both in play at the next enemy turn, each with its own
  piece, form, wound tokens, Behaviour deck and face-up card, wound tokens taken by each
  player (its loot is split by its own, TR-419), loot and Fight-objective counter. Their
  order is open (reading, TR-406 and TR-317, TR-335: the rulebook orders no two bosses,
  the players choose): the bosses act in boss id order, which is the rulebook's boss
  table order (King Slime, Queen Bee, Eye of Cthulhu, Eater of Worlds, Brain of Cthulhu,
  Wall of Flesh; the data order of ``bosses.toml``): they spawn in that order (each next
  to its trigger square, the earlier ones already placed), all their special abilities
  fire first thing in the enemy turn in that order before any other enemy acts (TR-406),
  they move after the other enemies in that order, attack last within each range band in
  that order (TR-335), and turn their Behaviour cards in that order (TR-409).
- Spawn position (TR-403): the nearest empty square (by squares, i.e. Chebyshev distance;
  ties: topmost, then leftmost) to the square where the criterion was met (the broken
  block, now a tunnel; the altar; the lava square), for King Slime to the square of the
  lowest-numbered character on the world. Empty: on a discovered tile, not a full block,
  no piece, no house. The boss is then placed like any piece (a walking boss falls).
- Spawning (TR-401, TR-402): Form A with its ``BO.WOUNDS`` wound tokens, the 3 Behaviour
  cards shuffled (``shuffle_nb``: 2 draws), the top one face up; no player holds any of its
  wound tokens yet.
- Behaviour (TR-405..410): :func:`boss_flags_nb` gives the face-up card's move / short /
  ranged attack flags (0 = N/A, TR-407). A card that spawns an enemy instead of the ranged
  attack (``BH.RANGED`` 2, TR-408) has no ranged attack; :func:`boss_ranged_spawn_nb`
  spawns that enemy (the enemy turn calls it where the ranged attacks begin: just before
  the attacks). :func:`boss_special_nb` fires the special ability first thing in the enemy
  turn when the face-up card says so (TR-406): ``SPECIAL.SPAWN`` spawns ``SPECIAL_N``
  enemies next to the boss; ``HEAL`` puts wound tokens back (not above the form's count);
  ``CHARGE`` adds squares to this turn's move; ``BURN`` costs every character on the boss's
  tile health. An enemy "next to the boss" is drawn from the tray section of the first
  free square around it (rows top down, columns left to right) by ``foes.spawn_at_nb``.
  :func:`boss_end_turn_nb` discards the face-up card and turns the next (TR-409); after the
  third the 3 discards are shuffled into a new deck (TR-410).
- Moving (TR-405): a boss moves like an enemy of its kind (``BO.KIND``) with its form's
  movement (how far: :func:`~simlib.games.terraria.engine.enemy.moves_allowed_nb`, toward the
  nearest character), but as it displaces pieces it may end in an occupied square, so "as
  close as possible" is the target's own square when it can reach it; ties as
  :func:`~simlib.games.terraria.engine.enemy.plan_nb`. The plan is made once and carried out step
  by step; a step no longer allowed (the world changed under it) ends the move.
- Displacing (TR-138..142): a piece in a square the boss steps into (only bosses displace)
  goes to an empty square horizontally or diagonally next to its own (left, right, up-left,
  up-right, down-left, down-right; empty as above, except that a character may go into a
  house square; the square the boss just left counts as empty). The players' choice
  (TR-003, TR-139): for a character, first a square it would not risk fall damage from
  (a fall of at most 1 square or ending in a cobweb), then the shortest fall, then the
  order listed; an enemy, the shortest fall, then the order listed. It then falls (flying
  enemies excepted, TR-140) and a character rolls fall damage as normal. With no empty
  square the piece is killed: a character dies; an enemy token goes to its tray section's
  discard area with no loot and no slime counted (TR-142). Characters displaced make
  discovery checks (TR-144); the tiles discovered are left in ``st.disc`` for the caller.
- Wounds (TR-412..415): :func:`wound_boss_nb` applies wounds one at a time, each giving its
  wound token to the attacker (``CH.BOSS_TOKENS + b``); the one that empties Form A flips the
  card to Form B's count and the rest come off Form B (TR-414); the last Form B token
  defeats the boss; extra wounds are lost.
- Defeat (TR-417, TR-425): ``g[G.DEFEATED]``, ``cnt[CNT.BOSS + id]`` (the Fight objective
  tied to a boss reads it whenever it is current, TR-418) and ``cnt[CNT.BOSSES]``; the
  boss leaves the world (the other bosses in play stay); a boss with ``BO.WIN`` (Wall of
  Flesh) ends the game won. :func:`boss_loot_nb` splits the Loot card (TR-419): coins
  evenly (the remainder one each in order), every other entry dealt in turn, in order of
  wound tokens taken from this boss (most first: the player with the final say picks
  first; ties: lower player number).

Death: a character killed here (displacement, fall damage, ``BURN``) dies through
``life.die_nb`` (TR-141: "follows the dying steps"); a fall that kills counts in
``CH.FALL_DEATHS``.
"""

from __future__ import annotations

from simlib.core.jit import njit
from simlib.core.rng import shuffle_nb
from simlib.games.terraria.engine import foes, life
from simlib.games.terraria.engine.enemy import (
    DIRS,
    enemy_can_step_nb,
    moves_allowed_nb,
    nearest_character_nb,
    plan_nb,
)
from simlib.games.terraria.engine.movement import (
    T,
    _collapse_nb,
    _enter_nb,
    _fall_nb,
    _leave_nb,
    _record_fall_nb,
    _register_nb,
    fall_hurts_nb,
    place_piece_nb,
    remove_piece_nb,
    supported_nb,
)
from simlib.games.terraria.engine.sight import sight_epoch_nb
from simlib.games.terraria.state import (
    BH,
    BO,
    BOSS_ROW,
    BOSS_SPAWN,
    CH,
    CNT,
    CO,
    FEAT,
    KIND,
    LAYERS,
    MAX_BOSSES,
    MAX_PLAYERS,
    OUT,
    PC,
    RK,
    ROLE,
    RU,
    RW,
    SPECIAL,
    SQ,
    START_LAYER_COLUMN,
    TILE_COLS,
    G,
    P,
    on_table_nb,
)

__all__ = [
    "PACK",
    "DISPLACE",
    "form_col_nb",
    "boss_stat_nb",
    "check_boss_criteria_nb",
    "broke_block_nb",
    "spend_lenses_nb",
    "use_voodoo_nb",
    "in_play_nb",
    "spawn_boss_nb",
    "spawn_pending_bosses_nb",
    "boss_flags_nb",
    "boss_special_nb",
    "boss_ranged_spawn_nb",
    "boss_summon_nb",
    "boss_move_nb",
    "boss_step_nb",
    "displace_nb",
    "boss_end_turn_nb",
    "wound_boss_nb",
    "boss_loot_nb",
]

PACK = 4096  # ``g[G.TRIGGER + id] = row * PACK + col + 1`` (0: no square)
# where a displaced piece may go, in the order the players' rule tries them (TR-139)
DISPLACE = ((0, -1), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1))


# --- small helpers ----------------------------------------------------------------------------
@njit(refcount=False)
def form_col_nb(col, form):
    """Column of ``tab.bosses`` holding per-form column ``col`` (``BO.WOUNDS..DEBUFF``)."""
    if form == 0:
        return col
    return col - BO.WOUNDS + BO.FORM_B


@njit(refcount=False)
def boss_stat_nb(st, tab, b, col):
    """Value of per-form column ``col`` for boss ``b`` in its current form (read only).

    E.g. ``boss_stat_nb(st, tab, b, BO.NATK)``; the attack dice are the columns ``BO.ATK0`` on.
    """
    return tab.bosses[b, form_col_nb(col, st.g[G.FORM + b])]


@njit(refcount=False)
def in_play_nb(st, b):
    """True while boss ``b`` is in play (spawned, not yet defeated). Read only."""
    return 0 <= b < MAX_BOSSES and (st.g[G.IN_PLAY] >> b) & 1 != 0


@njit(refcount=False)
def _available_nb(st, b):
    """True when boss ``b`` is not pending, in play or defeated (TR-400)."""
    bit = 1 << b
    return (st.g[G.SPAWNED] | st.g[G.PENDING] | st.g[G.DEFEATED]) & bit == 0


@njit(refcount=False)
def _boss_for_nb(st, tab, code):
    """Boss id whose criterion is ``code`` (``BOSS_SPAWN``) in this world, -1 none."""
    for b in range(tab.bosses.shape[0]):
        if tab.bosses[b, BO.SPAWN] != code:
            continue
        ev = tab.bosses[b, BO.EVIL]
        if ev == 0 or ev == st.g[G.EVIL] + 1:
            return b
    return -1


@njit(refcount=False)
def _set_pending_nb(st, b, r, c):
    st.g[G.PENDING] |= 1 << b
    # int(): rows and columns may come from int16 arrays (plain Python would overflow)
    st.g[G.TRIGGER + b] = int(r) * PACK + int(c) + 1 if r >= 0 else 0


@njit(refcount=False)
def _empty_nb(grid, tiles, r, c, character):
    """An empty square (TR-119) a piece may be put in; houses only for characters."""
    if not on_table_nb(grid, tiles, r, c):
        return False
    if grid[P.SQ, r, c] == SQ.BLOCK or grid[P.OCC, r, c] != 0:
        return False
    return character or grid[P.FEAT, r, c] & FEAT.HOUSE == 0


@njit(refcount=False)
def _near_nb(grid, tiles, r, c, what):
    """First square within 1 square of (r, c) holding ``what``; ``(-1, -1)`` for none.

    ``what`` is a ``FEAT`` flag (the square itself counts) or ``-1`` for lava (a neighbour).
    Order: the square itself, then rows top down, columns left to right; discovered tiles
    only. Read only.
    """
    for dr in (0, -1, 1):
        for dc in (0, -1, 1):
            rr = r + dr
            cc = c + dc
            if not on_table_nb(grid, tiles, rr, cc):
                continue
            if what < 0:
                if grid[P.SQ, rr, cc] == SQ.LAVA and (dr != 0 or dc != 0):
                    return rr, cc
            elif grid[P.FEAT, rr, cc] & what:
                return rr, cc
    return -1, -1


@njit(refcount=False)
def _in_world_nb(st, p):
    return st.chars[p, CH.IN_WORLD] != 0 and st.pieces[p, PC.KIND] == KIND.CHARACTER


# --- health, death and falls ----------------------------------------------------------------
@njit(refcount=False)
def _hurt_nb(st, tab, p, n):
    """Character ``p`` loses ``n`` health (not below 0); at 0 it dies."""
    if n <= 0 or st.chars[p, CH.HP] <= 0:
        return
    st.chars[p, CH.HP] = max(st.chars[p, CH.HP] - n, 0)
    if st.chars[p, CH.HP] == 0:
        life.die_nb(st, tab, p)


@njit(refcount=False)
def _settle_falls_nb(st, tab, n0):
    """Fall damage for the character falls recorded since ``tally[T.FALLS] == n0``.

    Each fall of a character in the world counts in ``CH.FALLS``; a hurt (its defence dice,
    ``life.defence_dice_nb``) costs 1 health (``CH.FALL_DMG``) and may kill (TR-133,
    ``CH.FALL_DEATHS``). The events are consumed: ``tally[T.FALLS]`` is set back to ``n0``.
    """
    i = n0
    while i < min(st.tally[T.FALLS], st.falls.shape[0]):  # a death may drop a stack: more
        k = st.falls[i, 0]
        i += 1
        if k >= MAX_PLAYERS or st.pieces[k, PC.KIND] != KIND.CHARACTER:
            continue
        if st.chars[k, CH.IN_WORLD] == 0 or st.g[G.OVER] != OUT.PLAYING:
            continue
        st.chars[k, CH.FALLS] += 1
        hurt = fall_hurts_nb(
            life.defence_dice_nb(st, tab, k),
            st.falls[i - 1, 1],
            st.falls[i - 1, 2] != 0,
            st.g[G.FALL_DAMAGE] != 0,
            st.rng,
        )
        if hurt and st.chars[k, CH.HP] > 0:
            st.chars[k, CH.FALL_DMG] += 1
            if st.chars[k, CH.HP] == 1:
                st.chars[k, CH.FALL_DEATHS] += 1
            _hurt_nb(st, tab, k, 1)
    st.tally[T.FALLS] = n0


# --- criteria ---------------------------------------------------------------------------------
@njit(refcount=False)
def check_boss_criteria_nb(st, tab):
    """Make King Slime pending once the slimes slain meter reaches its number (TR-391).

    Called before the enemy turn and at cleanup step 4 (TR-399). The event criteria are made
    pending by :func:`broke_trigger_nb`, :func:`spend_lenses_nb` and :func:`use_voodoo_nb`.
    Writes ``g[G.PENDING]``, ``g[G.TRIGGER + id]``; returns ``g[G.PENDING]``.
    """
    b = _boss_for_nb(st, tab, BOSS_SPAWN.SLIMES)
    if b >= 0 and st.g[G.SLIMES] >= tab.rules[RU.KING_SLIME] and _available_nb(st, b):
        _set_pending_nb(st, b, -1, -1)
    return st.g[G.PENDING]


@njit(refcount=False)
def broke_block_nb(st, tab, p, r, c, feat):
    """Player ``p`` just dug away the block at (r, c), whose ``P.FEAT`` flags were ``feat``.

    The dig action calls this for every block it finishes. A Bee Larva (``FEAT.LARVA``)
    makes Queen Bee pending (TR-392), a Shadow Orb / Crimson Heart (``FEAT.ORB``) Eater of
    Worlds in a Corruption world and Brain of Cthulhu in a Crimson one (TR-394, TR-395),
    with (r, c) as the trigger square. The square's trigger flag is cleared. Returns the
    boss id made pending, -1 none. Writes ``grid`` (FEAT), ``g``.
    """
    if feat & FEAT.LARVA:
        code = BOSS_SPAWN.BEE_LARVA
    elif feat & FEAT.ORB:
        code = BOSS_SPAWN.SHADOW_ORB if st.g[G.EVIL] == 0 else BOSS_SPAWN.CRIMSON_HEART
    else:
        return -1
    st.grid[P.FEAT, r, c] &= ~(FEAT.LARVA | FEAT.ORB)
    b = _boss_for_nb(st, tab, code)
    if b < 0 or not _available_nb(st, b):
        return -1
    _set_pending_nb(st, b, r, c)
    return b


@njit(refcount=False)
def spend_lenses_nb(st, tab, p):
    """Player ``p`` spends lenses at an altar to summon Eye of Cthulhu (TR-393, TR-397).

    Allowed when ``p`` is on the world on or next to an altar square, holds at least
    ``rules[RU.LENSES]`` Lens units (resource ``rules[RU.LENS]``) across its inventory slots
    and the boss is available. Takes them from the slots in slot order (a slot left at 0
    is emptied). Returns True when spent. Writes ``inv[p]``, ``g``.
    """
    if not _in_world_nb(st, p):
        return False
    b = _boss_for_nb(st, tab, BOSS_SPAWN.LENSES)
    if b < 0 or not _available_nb(st, b):
        return False
    ar, ac = _near_nb(st.grid, st.tiles, st.pieces[p, PC.ROW], st.pieces[p, PC.COL], FEAT.ALTAR)
    if ar < 0:
        return False
    lens = tab.rules[RU.LENS]
    need = tab.rules[RU.LENSES]
    have = 0
    for s in range(st.inv.shape[1]):
        if st.inv[p, s, 0] == lens:
            have += st.inv[p, s, 1]
    if have < need or lens <= 0:
        return False
    for s in range(st.inv.shape[1]):
        if need == 0:
            break
        if st.inv[p, s, 0] == lens:
            k = min(need, st.inv[p, s, 1])
            st.inv[p, s, 1] -= k
            need -= k
            if st.inv[p, s, 1] == 0:
                st.inv[p, s, 0] = 0
    _set_pending_nb(st, b, ar, ac)
    return True


@njit(refcount=False)
def use_voodoo_nb(st, tab, p):
    """Player ``p`` discards the Guide Voodoo Doll next to lava: Wall of Flesh (TR-396).

    Allowed when ``p`` is on the world with a lava square among its 8 neighbours (lava lies
    only in the Underworld), holds a consumable with ``CO.VOODOO`` and the boss is
    available. Returns True when the boss is made pending; the caller then discards the
    doll to the consumables deck (TR-387, ``magic.use_consumable_nb``). Writes ``g``.
    """
    if not _in_world_nb(st, p):
        return False
    b = _boss_for_nb(st, tab, BOSS_SPAWN.VOODOO)
    if b < 0 or not _available_nb(st, b):
        return False
    doll = -1
    for i in range(tab.consumables.shape[0]):
        if tab.consumables[i, CO.VOODOO] != 0 and st.held[p, i] > 0:
            doll = i
            break
    if doll < 0:
        return False
    lr, lc = _near_nb(st.grid, st.tiles, st.pieces[p, PC.ROW], st.pieces[p, PC.COL], -1)
    if lr < 0:
        return False
    _set_pending_nb(st, b, lr, lc)
    return True


# --- spawning ---------------------------------------------------------------------------------
@njit(refcount=False)
def _nearest_empty_nb(grid, tiles, ar, ac):
    """Nearest empty square to (ar, ac) by squares; ties topmost, then leftmost."""
    rows = grid.shape[1]
    cols = grid.shape[2]
    for d in range(max(rows, cols)):
        for r in range(ar - d, ar + d + 1):
            for c in range(ac - d, ac + d + 1):
                if max(abs(r - ar), abs(c - ac)) != d:
                    continue
                if _empty_nb(grid, tiles, r, c, False):
                    return r, c
    return -1, -1


@njit(refcount=False)
def spawn_boss_nb(st, tab, b):
    """Spawn pending boss ``b`` (TR-398..403); True when it entered play.

    Places piece ``BOSS_ROW + b`` (kind ``BO.KIND``, role ``ROLE.BOSS``, type ``b``) at the
    spawn position (module docstring), Form A with its wound tokens, its behaviour deck
    shuffled (2 ``randint_nb`` draws from ``st.rng``) with its top card face up, every
    player's ``CH.BOSS_TOKENS + b`` cleared. Writes ``g``, ``pieces``, ``grid`` (OCC),
    ``chars``, ``rng``, and ``falls``/``tally`` for a walking boss that falls. False (nothing
    written) when ``b`` is not pending, the game is over or no square is empty.
    """
    g = st.g
    if g[G.OVER] != 0 or b < 0 or b >= MAX_BOSSES or not (g[G.PENDING] >> b) & 1:
        return False
    trig = g[G.TRIGGER + b]
    w = st.grid.shape[2] // TILE_COLS
    ar = 0
    ac = START_LAYER_COLUMN * w + w // 2
    if trig > 0:
        ar = (trig - 1) // PACK
        ac = (trig - 1) % PACK
    else:
        for p in range(MAX_PLAYERS):
            if _in_world_nb(st, p):
                ar = st.pieces[p, PC.ROW]
                ac = st.pieces[p, PC.COL]
                break
    r, c = _nearest_empty_nb(st.grid, st.tiles, ar, ac)
    if r < 0:
        return False
    kind = tab.bosses[b, BO.KIND]
    k = BOSS_ROW + b
    place_piece_nb(
        st.grid, st.tiles, st.mini, st.pieces, k, kind, r, c, st.falls, st.disc, st.tally
    )
    st.pieces[k, PC.ROLE] = ROLE.BOSS
    st.pieces[k, PC.TYPE] = b
    st.pieces[k, PC.WOUNDS] = 0
    st.pieces[k, PC.SECTION] = -1
    st.pieces[k, PC.TSLOT] = -1
    g[G.FORM + b] = 0
    g[G.BOSS_LEFT + b] = tab.bosses[b, BO.WOUNDS]
    deck = G.BEHAV + 3 * b
    for i in range(3):
        g[deck + i] = i
    shuffle_nb(g[deck : deck + 3], 3, st.rng)
    g[G.BEHAV_AT + b] = 0
    g[G.BOSS_EXTRA + b] = 0
    g[G.IN_PLAY] |= 1 << b
    g[G.SPAWNED] |= 1 << b
    g[G.PENDING] &= ~(1 << b)
    for p in range(MAX_PLAYERS):
        st.chars[p, CH.BOSS_TOKENS + b] = 0
    return True


@njit(refcount=False)
def spawn_pending_bosses_nb(st, tab):
    """Spawn every pending boss, in boss id order (TR-398..403; several in play, TR-316).

    Each by :func:`spawn_boss_nb` (so the later ones are placed around the earlier ones);
    a boss with no empty square to go to stays pending. Writes what it writes. Returns the
    bosses spawned (bit per boss id), 0 for none.
    """
    out = 0
    for b in range(min(tab.bosses.shape[0], MAX_BOSSES)):
        if (st.g[G.PENDING] >> b) & 1 and spawn_boss_nb(st, tab, b):
            out |= 1 << b
    return out


# --- behaviour --------------------------------------------------------------------------------
@njit(refcount=False)
def _face_up_nb(st, b):
    """The face-up Behaviour card of boss ``b`` (0..2). Read only."""
    return st.g[G.BEHAV + 3 * b + st.g[G.BEHAV_AT + b]]


@njit(refcount=False)
def boss_flags_nb(st, tab, b):
    """``(move, short, ranged)`` of boss ``b``'s face-up Behaviour card (1 or 0).

    Zeros when ``b`` is not in play. 0 is N/A (TR-407). A card that spawns an enemy instead
    of its ranged attack (``BH.RANGED`` 2, TR-408) gives ``ranged`` 0 (see
    :func:`boss_ranged_spawn_nb`). Read only.
    """
    if not in_play_nb(st, b):
        return 0, 0, 0
    card = _face_up_nb(st, b)
    bh = tab.behaviour
    move = 1 if bh[b, card, BH.MOVE] != 0 else 0
    short = 1 if bh[b, card, BH.SHORT] != 0 else 0
    ranged = 1 if bh[b, card, BH.RANGED] == 1 else 0
    return move, short, ranged


@njit(refcount=False)
def boss_summon_nb(st, tab, b, n):
    """Spawn ``n`` enemies next to boss ``b`` (``SPECIAL.SPAWN``, TR-408); how many spawned.

    Each is drawn by ``foes.spawn_at_nb`` from the tray section of the first free square
    among the boss's 8 neighbours (rows top down, columns left to right); none spawns when
    no neighbour is free or the section has no token. Writes what ``spawn_at_nb`` writes.
    """
    if not in_play_nb(st, b):
        return 0
    r = st.pieces[BOSS_ROW + b, PC.ROW]
    c = st.pieces[BOSS_ROW + b, PC.COL]
    got = 0
    for _ in range(n):
        done = False
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                if done or (dr == 0 and dc == 0):
                    continue
                if not _empty_nb(st.grid, st.tiles, r + dr, c + dc, False):
                    continue
                if foes.spawn_at_nb(st, tab, r + dr, c + dc) >= 0:
                    done = True
        if not done:
            break
        got += 1
    return got


@njit(refcount=False)
def boss_ranged_spawn_nb(st, tab, b):
    """Boss ``b``'s face-up card spawns an enemy instead of its ranged attack (TR-408).

    Call it in the enemy turn where the ranged attacks begin (before the attacks). Returns
    how many spawned (0 or 1). Writes what :func:`boss_summon_nb` writes.
    """
    if not in_play_nb(st, b) or st.g[G.OVER] != 0:
        return 0
    if tab.behaviour[b, _face_up_nb(st, b), BH.RANGED] != 2:
        return 0
    return boss_summon_nb(st, tab, b, 1)


@njit(refcount=False)
def boss_special_nb(st, tab, b):
    """Boss ``b``'s special ability, first thing in the enemy turn (TR-406).

    Fires only when its face-up Behaviour card's ``BH.SPECIAL`` is set. ``SPECIAL.SPAWN``
    spawns enemies next to the boss (:func:`boss_summon_nb`), ``HEAL`` writes
    ``g[G.BOSS_LEFT + b]``, ``CHARGE`` ``g[G.BOSS_EXTRA + b]``, ``BURN`` the health of the
    characters on the boss's tile (``chars``; a death through ``life.die_nb``).

    Returns
    -------
    int
        How many enemies ``SPECIAL.SPAWN`` spawned, else 0.

    """
    if not in_play_nb(st, b) or st.g[G.OVER] != 0:
        return 0
    if tab.behaviour[b, _face_up_nb(st, b), BH.SPECIAL] == 0:
        return 0
    form = st.g[G.FORM + b]
    sp = tab.bosses[b, form_col_nb(BO.SPECIAL, form)]
    n = tab.bosses[b, form_col_nb(BO.SPECIAL_N, form)]
    if sp == SPECIAL.SPAWN:
        return boss_summon_nb(st, tab, b, n)
    if sp == SPECIAL.HEAL:
        left = st.g[G.BOSS_LEFT + b] + n
        st.g[G.BOSS_LEFT + b] = min(left, tab.bosses[b, form_col_nb(BO.WOUNDS, form)])
    elif sp == SPECIAL.CHARGE:
        st.g[G.BOSS_EXTRA + b] += n
    elif sp == SPECIAL.BURN:
        h = st.grid.shape[1] // LAYERS
        w = st.grid.shape[2] // TILE_COLS
        br = st.pieces[BOSS_ROW + b, PC.ROW] // h
        bc = st.pieces[BOSS_ROW + b, PC.COL] // w
        for p in range(MAX_PLAYERS):
            if _in_world_nb(st, p):
                if st.pieces[p, PC.ROW] // h == br and st.pieces[p, PC.COL] // w == bc:
                    _hurt_nb(st, tab, p, n)
    return 0


@njit(refcount=False)
def boss_end_turn_nb(st, tab, b):
    """After all enemy attacks: boss ``b`` discards its face-up card, turns the next (TR-409).

    After the third card the 3 discards are shuffled (2 ``randint_nb`` draws) into a new
    deck whose top card is turned (TR-410). Writes ``g[G.BEHAV + 3 * b ..]``,
    ``g[G.BEHAV_AT + b]``, ``rng``.
    """
    if not in_play_nb(st, b):
        return
    st.g[G.BEHAV_AT + b] += 1
    if st.g[G.BEHAV_AT + b] >= 3:
        deck = G.BEHAV + 3 * b
        shuffle_nb(st.g[deck : deck + 3], 3, st.rng)
        st.g[G.BEHAV_AT + b] = 0


# --- displacement and the boss's move ---------------------------------------------------------
@njit(refcount=False)
def _drop_rows_nb(grid, tiles, r, c):
    """Squares a piece put in (r, c) would fall (occupants below stop it)."""
    n = 0
    while not supported_nb(grid, tiles, r + n, c):
        n += 1
    return n


@njit(refcount=False)
def displace_nb(st, tab, j):
    """Displace piece ``j`` from its square (the boss is stepping in; TR-139..142).

    ``j`` must already be taken out of ``P.OCC`` and the boss be unregistered. Moves ``j``
    to the chosen empty neighbour (module docstring), lets it fall (flying enemies
    excepted, TR-140) recording the fall in ``falls``, or kills it when no square is empty
    (TR-141, TR-142). Writes ``pieces``, ``grid`` (OCC), ``tiles``/``mini``/``disc``
    (discovery by characters), ``falls``/``tally``, ``tray`` for a killed token, and for a
    killed character what ``life.die_nb`` writes. Returns the index into :data:`DISPLACE`
    of the square chosen, -1 when ``j`` was killed.
    """
    g = st.grid
    kind = st.pieces[j, PC.KIND]
    r = st.pieces[j, PC.ROW]
    c = st.pieces[j, PC.COL]
    character = kind == KIND.CHARACTER
    best = -1
    bkey = 1 << 30
    for i in range(len(DISPLACE)):
        nr = r + DISPLACE[i][0]
        nc = c + DISPLACE[i][1]
        if not _empty_nb(g, st.tiles, nr, nc, character):
            continue
        fall = 0 if kind == KIND.FLYER else _drop_rows_nb(g, st.tiles, nr, nc)
        key = fall
        if character:
            cob = g[P.FEAT, nr + fall, nc] & FEAT.COBWEB
            risky = fall >= 2 and cob == 0
            key = fall + (1 << 20 if risky else 0)
        if key < bkey:
            bkey = key
            best = i
    st.pieces[j, PC.ROPE] = 0
    if best < 0:
        if character:
            life.die_nb(st, tab, j)  # j is unregistered: nothing is stacked on it any more
        else:
            sec = st.pieces[j, PC.SECTION]
            if sec >= 0:
                st.tray[sec, st.pieces[j, PC.TSLOT]] = 2  # the section's discard area
            st.pieces[j, PC.KIND] = KIND.NONE
        return -1
    nr = r + DISPLACE[best][0]
    nc = c + DISPLACE[best][1]
    _enter_nb(g, st.tiles, st.mini, st.pieces, j, nr, nc, st.disc, st.tally)
    if kind != KIND.FLYER:
        n = _fall_nb(g, st.tiles, st.mini, st.pieces, j, st.disc, st.tally)
        _record_fall_nb(g, st.pieces, j, n, st.falls, st.tally)
    _register_nb(g, st.pieces, j)
    return best


@njit(refcount=False)
def boss_step_nb(st, tab, b, dr, dc):
    """Boss ``b`` makes one step (dr, dc), displacing a piece in the square it enters.

    The step must be one an enemy of the boss's kind may make
    (:func:`~simlib.games.terraria.engine.enemy.enemy_can_step_nb`) into a square no other boss
    holds (only characters and enemy tokens are displaced, TR-139); a walking boss then
    falls (no fall damage), stopping on any piece below. Pieces stacked on the square the
    boss left fall (TR-137). Writes what :func:`displace_nb` writes and the boss's piece.
    Returns False (nothing changes) when the step is not allowed.
    """
    k = BOSS_ROW + b
    kind = st.pieces[k, PC.KIND]
    r = st.pieces[k, PC.ROW]
    c = st.pieces[k, PC.COL]
    if not enemy_can_step_nb(st.grid, st.tiles, kind, r, c, dr, dc):
        return False
    nr = r + dr
    nc = c + dc
    j = st.grid[P.OCC, nr, nc] - 1
    if j >= 0 and st.pieces[j, PC.ROLE] == ROLE.BOSS:
        return False  # another boss is no token to displace (TR-139)
    was = _leave_nb(st.grid, st.pieces, k)
    if j >= 0:
        st.grid[P.OCC, nr, nc] = 0
        displace_nb(st, tab, j)
    st.pieces[k, PC.ROW] = nr
    st.pieces[k, PC.COL] = nc
    st.tally[T.SQUARES] += 1
    if kind == KIND.WALKER:
        _fall_nb(st.grid, st.tiles, st.mini, st.pieces, k, st.disc, st.tally)
    _register_nb(st.grid, st.pieces, k)
    if was and r > 0:
        _collapse_nb(st.grid, st.tiles, st.mini, st.pieces, r - 1, c, st.falls, st.disc, st.tally)
    if j >= 0 and nr > 0:
        _collapse_nb(st.grid, st.tiles, st.mini, st.pieces, nr - 1, nc, st.falls, st.disc, st.tally)
    return True


@njit(refcount=False)
def boss_move_nb(st, tab, b):
    """Boss ``b``'s move in the enemy turn (TR-405, TR-138..141), when its card says move.

    Squares allowed: :func:`~simlib.games.terraria.engine.enemy.moves_allowed_nb` with the form's
    movement, plus this turn's ``CHARGE`` (``g[G.BOSS_EXTRA + b]``, cleared here), toward
    the nearest character; squares other bosses hold are neither crossed nor ended in.
    Carries the plan out with :func:`boss_step_nb`, then settles the fall damage of the
    characters it made fall (displaced, or dropped off a stack), which consumes those fall
    events. Writes ``g``, ``pieces``, ``grid``, ``chars``, ``falls``,
    ``tally``, ``disc``, ``tiles``/``mini``, ``tray``, ``rng`` and the search scratch
    (``dist``, ``how``, ``queue``, ``path``). Returns the steps taken.
    """
    if not in_play_nb(st, b) or st.g[G.OVER] != 0:
        return 0
    extra = st.g[G.BOSS_EXTRA + b]
    st.g[G.BOSS_EXTRA + b] = 0
    move, short, ranged = boss_flags_nb(st, tab, b)
    if move == 0:
        return 0
    k = BOSS_ROW + b
    movement = tab.bosses[b, form_col_nb(BO.MOVEMENT, st.g[G.FORM + b])]
    epoch = sight_epoch_nb(st.tiles, st.g[G.SIGHT])
    n = moves_allowed_nb(st.grid, st.tiles, st.pieces, k, movement, st.seen, epoch) + extra
    target = nearest_character_nb(st.grid, st.tiles, st.pieces, k)
    if n <= 0 or target < 0:
        return 0
    n = min(n, st.path.shape[0])
    er, ec, s = plan_nb(st.grid, st.tiles, st.pieces, k, target, n, st.dist, st.how, st.queue,
                        True)
    r = er
    c = ec
    for i in range(s - 1, -1, -1):
        d = st.how[r, c] % 8
        st.path[i] = d
        r = st.how[r, c] // 8
        c -= DIRS[d, 1]
    n0 = st.tally[T.FALLS]
    done = 0
    for i in range(s):
        if not boss_step_nb(st, tab, b, DIRS[st.path[i], 0], DIRS[st.path[i], 1]):
            break
        done += 1
    _settle_falls_nb(st, tab, n0)
    return done


# --- wounds, defeat and loot ------------------------------------------------------------------
@njit(refcount=False)
def wound_boss_nb(st, tab, p, b, wounds):
    """Player ``p`` inflicts ``wounds`` wounds on boss ``b`` (TR-412..415, TR-425).

    Writes ``g`` (``BOSS_LEFT + b``, ``FORM + b``; on defeat ``IN_PLAY``, ``DEFEATED``,
    ``OVER`` for a ``BO.WIN`` boss), ``chars[p, CH.BOSS_TOKENS + b]``, ``cnt`` (BOSS + id,
    BOSSES) and, on defeat, ``pieces``/``grid`` (the boss leaves the world; pieces stacked
    on it fall, their events left in ``falls`` for the caller). The Loot card is the
    caller's to hand out with :func:`boss_loot_nb`.

    Returns
    -------
    int
        2 when the boss was defeated, 1 when it flipped to Form B, else 0 (also when ``b``
        is not in play).

    """
    if not in_play_nb(st, b):
        return 0
    out = 0
    for _ in range(wounds):
        st.g[G.BOSS_LEFT + b] -= 1
        st.chars[p, CH.BOSS_TOKENS + b] += 1
        if st.g[G.BOSS_LEFT + b] > 0:
            continue
        if st.g[G.FORM + b] == 0:
            st.g[G.FORM + b] = 1
            st.g[G.BOSS_LEFT + b] = tab.bosses[b, form_col_nb(BO.WOUNDS, 1)]
            out = 1
            if st.g[G.BOSS_LEFT + b] > 0:
                continue
        st.g[G.DEFEATED] |= 1 << b
        st.g[G.IN_PLAY] &= ~(1 << b)
        st.cnt[CNT.BOSS + b] = 1
        st.cnt[CNT.BOSSES] += 1
        remove_piece_nb(
            st.grid, st.tiles, st.mini, st.pieces, BOSS_ROW + b, st.falls, st.disc, st.tally
        )
        st.g[G.FORM + b] = 0
        st.g[G.BOSS_LEFT + b] = 0
        st.g[G.BOSS_EXTRA + b] = 0
        if tab.bosses[b, BO.WIN] != 0 and st.g[G.OVER] == 0:
            st.g[G.OVER] = OUT.WON_WALL_OF_FLESH
        return 2
    return out


@njit
def boss_loot_nb(st, tab, b, out):
    """Split boss ``b``'s Loot card among the players (TR-417, TR-419).

    Players ``0 .. g[G.PLAYERS] - 1`` are ranked by the wound tokens each took from ``b``
    (``CH.BOSS_TOKENS + b``; most first, ties:
    lower number). A ``COINS`` entry is split evenly, the remainder one coin each in rank
    order; every other entry goes to the next player in rank order (dealt in turn).

    Parameters
    ----------
    st : State
        Read only (``g[G.PLAYERS]``, ``chars[:, CH.BOSS_TOKENS + b]``).
    tab : Tables
        Read only (``boss_loot``).
    b : int
        The boss defeated.
    out : int array (>= REWARD_SLOTS * MAX_PLAYERS, 4), written
        Rows ``(player, RW.KIND, RW.ID, RW.AMOUNT)`` for the caller's reward routine.

    Returns
    -------
    int
        Rows written.

    """
    n = max(1, min(st.g[G.PLAYERS], MAX_PLAYERS))
    rank = [0, 1, 2, 3]
    col = CH.BOSS_TOKENS + b
    for i in range(n):  # insertion sort, stable: most tokens first, then lower number
        j = i
        while j > 0 and st.chars[rank[j], col] > st.chars[rank[j - 1], col]:
            t = rank[j]
            rank[j] = rank[j - 1]
            rank[j - 1] = t
            j -= 1
    rows = 0
    turn = 0
    loot = tab.boss_loot
    for s in range(loot.shape[1]):
        kind = loot[b, s, RW.KIND]
        if kind == RK.NONE:
            continue
        amount = loot[b, s, RW.AMOUNT]
        if kind == RK.COINS:
            for i in range(n):
                share = amount // n + (1 if i < amount % n else 0)
                if share > 0 and rows < out.shape[0]:
                    out[rows, 0] = rank[i]
                    out[rows, 1] = kind
                    out[rows, 2] = loot[b, s, RW.ID]
                    out[rows, 3] = share
                    rows += 1
        elif rows < out.shape[0]:
            out[rows, 0] = rank[turn % n]
            out[rows, 1] = kind
            out[rows, 2] = loot[b, s, RW.ID]
            out[rows, 3] = amount
            rows += 1
            turn += 1
    return rows
