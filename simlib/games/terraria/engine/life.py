"""Terraria: inventories, death and respawn, and the fall damage of a game's fall events.

Rulebook: Inventories and Resource Sharing; Dying and Respawning; Falling (Fall Damage).
Every kernel takes the game's :class:`~simlib.games.terraria.state.State` ``st`` and the
compiled :class:`~simlib.games.terraria.state.Tables` ``tab`` first and says what it writes.

Readings (checklist ``shared/rules/terraria-checklist.md``; also in the package docstring)
------------------------------------------------------------------------------------
- Inventory (TR-188..194): a character uses its first ``CH.SLOTS`` slots; a slot holds one
  resource type, at most 5 units, and a slot at 0 is empty (TR-191). Units of a type go
  first into the slots already holding it, then into empty slots in slot order. A type not
  held, arriving when no slot is free, replaces the held type with the fewest units (ties:
  the type in the lowest slot), every slot of it (TR-194), but only when fewer units are
  lost than gained; otherwise the player declines (TR-192). Units of a type already held
  that do not fit are declined (the rulebook's replacement is for a new type). Taking
  units (crafting, donations) draws on the slot with the fewest units of that type first,
  so slots free up.
- Trading (TR-197, TR-199): resources and coins change hands at any time and any distance,
  only into the receiver's room: units of a resource go into its slots of that type with
  space and its empty slots (:func:`room_for_nb`; a receiver gives nothing up to take a
  trade) and coins up to its 25 (TR-195); what does not fit stays with the giver. Coin icons
  of the turn are not on the dial and serve only their owner (TR-079, TR-101), so only dial
  coins are given. Consumables are never traded (TR-199, open: the natural reading; no
  kernel moves them). When a player gains units or coins it has no room for, the rest goes
  to teammates with room before any is declined, replaced or lost
  (:func:`team_gain_nb`, :func:`team_gain_coins_nb`): a trade made at once, the same as the
  player first passing some of its own to make room; a cooperative team never throws away
  what a teammate could hold (the players' choice, a fixed rule). Equipment and armor change
  hands only before drawing (``crafting.give_equip_nb``, ``crafting.give_armor_nb``).
- Death (TR-290..298, TR-303, TR-363, TR-427, TR-430): the piece leaves the world (pieces
  stacked on it fall; their fall events are left in ``st.falls``), hand, ready slot and play
  area (TR-293) go to the discard pile, which is shuffled; half the coins (rounded down)
  are lost; the minion card is discarded; a tombstone leaves the respawn pool (Journey:
  ``g[G.TOMBS] == -1``, unlimited, TR-430), and with none left the game ends at once as
  ``OUT.OUT_OF_RESPAWNS`` (TR-296, TR-427). Icons of the turn are lost (it takes no more
  actions, TR-298). Debuffs of the killing attack go on the draw pile after this shuffle
  (TR-303: the caller adds them after :func:`die_nb`).
- Respawn (TR-299..302; TR-300 open): at the start of the next player turn the character
  returns with full health and unchanged mana (TR-302). Where (the players' choice, a fixed
  rule here): in the bed house lowest in the world (the deepest, so the least walking back
  to the work; ties: the house built first), on the first free square of its bottom row
  (then the rows above), left to right; with no bed house, or no free square in one, on
  the first free butterfly square of the central Surface Forest tile, then on the first
  free square on a surface (not on top of a piece) of any of the three Surface Forest
  tiles (TR-300: any of them),
  top to bottom and left to right. Being placed is entering a tile "by any means", so it
  makes the discovery check (TR-144); the new tiles are left in ``st.disc`` for the caller
  to spawn on, as after any action.
- Fall damage (:func:`resolve_falls_nb`): each character fall event is rolled with
  ``movement.fall_hurts_nb`` (defence dice of the worn armor, else the character card;
  never with icons, TR-134; never in Journey / Lucky Horseshoe, ``g[G.FALL_DAMAGE] == 0``)
  and a character brought to 0 dies at once (TR-133).
"""

from __future__ import annotations

from simlib.core.jit import njit
from simlib.core.rng import shuffle_nb
from simlib.games.terraria.engine.movement import (
    T,
    fall_hurts_nb,
    place_piece_nb,
    remove_piece_nb,
    supported_nb,
)
from simlib.games.terraria.state import (
    AR,
    CC,
    CH,
    COIN_CAP,
    FEAT,
    FOREST_COLUMNS,
    HA,
    HO,
    KIND,
    LAYERS,
    MAX_PLAYERS,
    OUT,
    PC,
    PILE,
    ROLE,
    SLOT_CAP,
    SQ,
    START_LAYER_COLUMN,
    STATION,
    TILE_COLS,
    G,
    P,
)

__all__ = [
    "inventory_add_nb",
    "inventory_count_nb",
    "count_units_nb",
    "inventory_take_nb",
    "add_coins_nb",
    "room_for_nb",
    "give_resources_nb",
    "give_coins_nb",
    "roomiest_teammate_nb",
    "team_gain_nb",
    "team_gain_coins_nb",
    "top_up_coins_nb",
    "defence_dice_nb",
    "die_nb",
    "respawn_nb",
    "resolve_falls_nb",
    "lose_health_nb",
]


# --- inventory ---------------------------------------------------------------------------------
@njit(refcount=False)
def inventory_count_nb(st, p, res):
    """Units of resource ``res`` (id >= 1) in player ``p``'s usable slots. Read only."""
    return count_units_nb(st.inv, st.chars, p, res)


@njit(refcount=False)
def count_units_nb(inv, chars, p, res):
    """:func:`inventory_count_nb` on the arrays (cheap to call in a loop)."""
    n = 0
    for s in range(chars[p, CH.SLOTS]):
        if inv[p, s, 0] == res and inv[p, s, 1] > 0:
            n += inv[p, s, 1]
    return n


@njit(refcount=False)
def inventory_add_nb(st, p, res, n):
    """Player ``p`` gains up to ``n`` units of resource ``res`` (TR-188..194).

    Writes ``st.inv[p]`` (see the module docstring for where units go and which type a new
    one replaces). Returns the units taken into the inventory (the rest are declined and
    go back to the supply, TR-192).
    """
    if n <= 0 or res <= 0:
        return 0
    slots = st.chars[p, CH.SLOTS]
    left = n
    # slots already holding the type
    for s in range(slots):
        if left == 0:
            break
        if st.inv[p, s, 0] == res and st.inv[p, s, 1] > 0:
            room = SLOT_CAP - st.inv[p, s, 1]
            put = min(room, left)
            st.inv[p, s, 1] += put
            left -= put
    held = left < n or inventory_count_nb(st, p, res) > 0
    # then empty slots (a slot at 0 is empty, TR-191)
    for s in range(slots):
        if left == 0:
            break
        if st.inv[p, s, 1] <= 0:
            put = min(SLOT_CAP, left)
            st.inv[p, s, 0] = res
            st.inv[p, s, 1] = put
            left -= put
    if left == 0 or held or left < n:
        return n - left
    # a new type and no free slot: replace the held type with the fewest units (TR-193)
    worst = -1
    worst_n = 1 << 30
    for s in range(slots):
        t = st.inv[p, s, 0]
        c = inventory_count_nb(st, p, t)
        if c < worst_n:
            worst_n = c
            worst = t
    if worst < 0 or worst_n >= n:
        return 0  # the player declines rather than lose as much as it gains (TR-192)
    for s in range(slots):
        if st.inv[p, s, 0] == worst:  # every slot of that type is emptied (TR-194)
            st.inv[p, s, 0] = 0
            st.inv[p, s, 1] = 0
    for s in range(slots):
        if left == 0:
            break
        if st.inv[p, s, 1] <= 0:
            put = min(SLOT_CAP, left)
            st.inv[p, s, 0] = res
            st.inv[p, s, 1] = put
            left -= put
    return n - left


@njit(refcount=False)
def inventory_take_nb(st, p, res, n):
    """Take up to ``n`` units of ``res`` from player ``p``; return the units taken.

    Slots with the fewest units go first (so slots free up); an emptied slot becomes free
    (id 0). Writes ``st.inv[p]``. Callers that need all ``n`` check
    :func:`inventory_count_nb` first.
    """
    left = n
    while left > 0:
        best = -1
        best_n = SLOT_CAP + 1
        for s in range(st.chars[p, CH.SLOTS]):
            if st.inv[p, s, 0] == res and 0 < st.inv[p, s, 1] < best_n:
                best = s
                best_n = st.inv[p, s, 1]
        if best < 0:
            break
        take = min(best_n, left)
        st.inv[p, best, 1] -= take
        left -= take
        if st.inv[p, best, 1] == 0:
            st.inv[p, best, 0] = 0
    return n - left


@njit(refcount=False)
def add_coins_nb(st, p, n):
    """Player ``p`` gains ``n`` coins up to the dial's 25 (TR-195; the excess is lost, TR-196).

    Writes ``st.chars[p, CH.COINS]``. Returns the coins actually gained.
    """
    have = st.chars[p, CH.COINS]
    got = min(n, COIN_CAP - have)
    if got < 0:
        got = 0
    st.chars[p, CH.COINS] = have + got
    return got


# --- trading (TR-197, TR-199) -------------------------------------------------------------------
@njit(refcount=False)
def room_for_nb(st, q, res):
    """Units of resource ``res`` player ``q`` can take without giving anything up. Read only.

    The room TR-197 asks of a receiver: the space left in ``q``'s usable slots holding
    ``res`` plus 5 for each empty usable slot (TR-188, TR-191). 0 for ``res <= 0``.
    """
    if res <= 0:
        return 0
    n = 0
    for s in range(st.chars[q, CH.SLOTS]):
        u = st.inv[q, s, 1]
        if u <= 0:
            n += SLOT_CAP
        elif st.inv[q, s, 0] == res:
            n += SLOT_CAP - u
    return n


@njit(refcount=False)
def give_resources_nb(st, p, q, res, n):
    """Player ``p`` gives player ``q`` up to ``n`` units of resource ``res`` (TR-197).

    Any time, any distance, only into ``q``'s room (:func:`room_for_nb`): ``k = min(n, units
    p holds, room of q)`` units move and the rest stay with ``p``. Writes ``st.inv[p]``
    (:func:`inventory_take_nb`: the smallest slot first), ``st.inv[q]``
    (:func:`inventory_add_nb`) and ``st.chars[p, CH.RES_TRADED]``. Returns ``k``; 0 when
    ``p == q`` or either is not a player of the game.
    """
    players = st.g[G.PLAYERS]
    if p == q or p < 0 or q < 0 or p >= players or q >= players or n <= 0 or res <= 0:
        return 0
    k = min(n, inventory_count_nb(st, p, res), room_for_nb(st, q, res))
    if k <= 0:
        return 0
    inventory_take_nb(st, p, res, k)
    inventory_add_nb(st, q, res, k)
    st.chars[p, CH.RES_TRADED] += k
    return k


@njit(refcount=False)
def give_coins_nb(st, p, q, n):
    """Player ``p`` gives player ``q`` up to ``n`` coins from its dial (TR-197, TR-195).

    ``k = min(n, p's dial, 25 - q's dial)`` coins move: ``q``'s dial never passes 25 and what
    does not fit stays with ``p`` (nothing is lost). Coin icons played this turn are not on
    the dial and are never given (TR-079). Writes ``st.chars[p]`` and ``st.chars[q]``
    (``COINS``; ``p``'s ``COINS_TRADED``). Returns ``k``; 0 when ``p == q`` or either is not
    a player of the game.
    """
    players = st.g[G.PLAYERS]
    if p == q or p < 0 or q < 0 or p >= players or q >= players or n <= 0:
        return 0
    k = min(n, st.chars[p, CH.COINS], COIN_CAP - st.chars[q, CH.COINS])
    if k <= 0:
        return 0
    st.chars[p, CH.COINS] -= k
    st.chars[q, CH.COINS] += k
    st.chars[p, CH.COINS_TRADED] += k
    return k


@njit(refcount=False)
def roomiest_teammate_nb(st, p, res):
    """``(q, room)``: the teammate of ``p`` with the most room for ``res``. Read only.

    Ties go to the lowest seat; ``(-1, 0)`` when no teammate has any room.
    """
    best = -1
    br = 0
    for q in range(st.g[G.PLAYERS]):
        if q != p:
            r = room_for_nb(st, q, res)
            if r > br:
                best = q
                br = r
    return best, br


@njit(refcount=False)
def team_gain_nb(st, p, res, n):
    """Player ``p`` gains ``n`` units of ``res``; what it has no room for goes to teammates.

    ``p``'s own room first (:func:`room_for_nb`), then the teammate with the most room for
    ``res``, then the next (a trade at once, TR-197, counted in ``p``'s ``CH.RES_TRADED``);
    only what no one has room for follows :func:`inventory_add_nb` for ``p`` (declined, or a
    new type replacing the type held in fewest units, TR-192..194). With one player this is
    :func:`inventory_add_nb`. Writes ``st.inv`` and ``st.chars[p, CH.RES_TRADED]``. Returns
    the units the team took.
    """
    if n <= 0 or res <= 0:
        return 0
    mine = min(n, room_for_nb(st, p, res))
    got = inventory_add_nb(st, p, res, mine) if mine > 0 else 0
    left = n - got
    while left > 0:
        best, br = roomiest_teammate_nb(st, p, res)
        if best < 0:
            break
        k = inventory_add_nb(st, best, res, min(left, br))
        st.chars[p, CH.RES_TRADED] += k
        left -= k
        got += k
    if left > 0:
        got += inventory_add_nb(st, p, res, left)
    return got


@njit(refcount=False)
def team_gain_coins_nb(st, p, n):
    """Player ``p`` gains ``n`` coins; what passes its 25 goes to teammates with room.

    ``p``'s dial first (:func:`add_coins_nb`), then the richest teammate below 25, then the
    next (a trade at once, TR-197, counted in ``p``'s ``CH.COINS_TRADED``; coins kept
    together reach the 15-coin purchases sooner); what no dial has room for is lost
    (TR-196). Writes ``st.chars`` (``COINS``, ``COINS_TRADED``). Returns the coins the team
    kept.
    """
    got = add_coins_nb(st, p, n)
    left = n - got
    while left > 0:
        best = -1
        bc = -1
        for q in range(st.g[G.PLAYERS]):
            c = st.chars[q, CH.COINS]
            if q != p and c < COIN_CAP and c > bc:
                best = q
                bc = c
        if best < 0:
            break
        k = min(left, COIN_CAP - bc)
        st.chars[best, CH.COINS] += k
        st.chars[p, CH.COINS_TRADED] += k
        left -= k
        got += k
    return got


@njit(refcount=False)
def top_up_coins_nb(st, p, need, ask):
    """Teammates give ``p`` the coins it lacks for a purchase of ``need`` (TR-197).

    ``p`` has its dial plus this turn's coin icons (TR-101). When it is short by at most
    ``ask`` coins, its dial has room for them and its teammates' dials hold them together,
    the richest teammate gives what it can, then the next richest, until ``p`` has ``need``;
    otherwise nothing moves. Writes ``st.chars`` (:func:`give_coins_nb`). Returns True when
    ``p`` now has ``need``.
    """
    ch = st.chars[p]
    short = need - ch[CH.COINS] - ch[CH.TCOIN]
    if short <= 0:
        return True
    if short > ask or ch[CH.COINS] + short > COIN_CAP:
        return False
    players = st.g[G.PLAYERS]
    total = 0
    for q in range(players):
        if q != p:
            total += st.chars[q, CH.COINS]
    if total < short:
        return False
    while short > 0:
        best = -1
        bc = 0
        for q in range(players):
            if q != p and st.chars[q, CH.COINS] > bc:
                best = q
                bc = st.chars[q, CH.COINS]
        if best < 0:
            break
        short -= give_coins_nb(st, best, p, short)
    return short <= 0


# --- defence dice ------------------------------------------------------------------------------
@njit
def defence_dice_nb(st, tab, p):
    """Player ``p``'s defence die sizes (a read-only view): the worn armor's, else its card's.

    TR-215, TR-284: ``tab.armor[CH.ARMOR]`` when ``CH.ARMOR >= 0``, else
    ``tab.characters[CH.CARD]``.
    """
    a = st.chars[p, CH.ARMOR]
    if a >= 0:
        return tab.armor[a, AR.DEF0 : AR.DEF0 + tab.armor[a, AR.NDEF]]
    c = st.chars[p, CH.CARD]
    return tab.characters[c, CC.DEF0 : CC.DEF0 + tab.characters[c, CC.NDEF]]


@njit(refcount=False)
def defence_icons_nb(st, tab, p):
    """Player ``p``'s defence icons: those of its cards in play and its worn armor set's.

    Rulebook, Defence Icons: "Some action cards, armor sets and consumables will provide
    defence icons": ``CH.DEF`` (cards and consumables in play) plus ``AR.DEF`` of the worn
    set (``tab.armor[CH.ARMOR]`` when ``CH.ARMOR >= 0``). Read only.
    """
    n = st.chars[p, CH.DEF]
    a = st.chars[p, CH.ARMOR]
    if a >= 0:
        n += tab.armor[a, AR.DEF]
    return n


# --- death and respawn -------------------------------------------------------------------------
@njit(refcount=False)
def _move_pile_nb(st, p, src, dst):
    n = st.npile[p, src]
    m = st.npile[p, dst]
    for i in range(n):
        if m < st.deck.shape[2]:
            st.deck[p, dst, m] = st.deck[p, src, i]
            m += 1
    st.npile[p, dst] = m
    st.npile[p, src] = 0


@njit(refcount=False)
def die_nb(st, tab, p):
    """Character ``p`` dies (TR-290..298, TR-363, TR-427, TR-430); see the module docstring.

    Writes ``st.pieces``/``grid`` OCC (the piece leaves; a stack above it falls, its events
    in ``st.falls``/``st.tally``), ``st.deck``/``npile``/``ready`` (hand, ready slot and play
    area to the discard pile, shuffled with ``st.rng``: one ``shuffle_nb``), ``st.chars[p]``
    (health 0, half the coins lost, minion, icons, ``IN_WORLD`` 0, ``DEATHS`` + 1),
    ``st.g`` (``DIED``, ``TOMBS``, ``OVER``). Returns 1 when this death ended the game,
    else 0; nothing happens (returns 0) for a character not in the world.
    """
    if st.chars[p, CH.IN_WORLD] == 0:
        return 0
    remove_piece_nb(st.grid, st.tiles, st.mini, st.pieces, p, st.falls, st.disc, st.tally)
    st.chars[p, CH.IN_WORLD] = 0
    st.chars[p, CH.HP] = 0
    # hand, ready slot and play area to the discard pile, then shuffle it (TR-292, TR-293)
    _move_pile_nb(st, p, PILE.HAND, PILE.DISCARD)
    _move_pile_nb(st, p, PILE.PLAY, PILE.DISCARD)
    if st.ready[p] >= 0:
        m = st.npile[p, PILE.DISCARD]
        if m < st.deck.shape[2]:
            st.deck[p, PILE.DISCARD, m] = st.ready[p]
            st.npile[p, PILE.DISCARD] = m + 1
        st.ready[p] = -1
    shuffle_nb(st.deck[p, PILE.DISCARD], st.npile[p, PILE.DISCARD], st.rng)
    st.chars[p, CH.COINS] -= st.chars[p, CH.COINS] // 2  # TR-294
    st.chars[p, CH.MINION] = -1  # TR-363
    for col in (CH.AP, CH.DEF, CH.ATK, CH.TCOIN, CH.DIG, CH.CHOP):
        st.chars[p, col] = 0  # TR-298: no more actions this round
    st.chars[p, CH.DEATHS] += 1
    st.g[G.DIED] = 1
    if st.g[G.TOMBS] < 0:
        return 0  # Journey: respawns are unlimited (TR-430)
    if st.g[G.TOMBS] > 0:
        st.g[G.TOMBS] -= 1  # TR-295
        return 0
    if st.g[G.OVER] == OUT.PLAYING:
        st.g[G.OVER] = OUT.OUT_OF_RESPAWNS  # TR-296, TR-427
    return 1


@njit(refcount=False)
def _free_nb(st, r, c):
    """May a character be placed in (r, c): not a block, no piece there."""
    if st.grid[P.SQ, r, c] == SQ.BLOCK or st.grid[P.OCC, r, c] != 0:
        return False
    for j in range(st.pieces.shape[0]):
        if (
            st.pieces[j, PC.KIND] != KIND.NONE
            and st.pieces[j, PC.ROW] == r
            and st.pieces[j, PC.COL] == c
        ):
            return False
    return True


@njit(refcount=False)
def place_character_nb(st, p, r, c):
    ok = place_piece_nb(
        st.grid, st.tiles, st.mini, st.pieces, p, KIND.CHARACTER, r, c, st.falls, st.disc,
        st.tally,
    )  # fmt: skip
    if ok:
        st.pieces[p, PC.ROLE] = ROLE.CHARACTER
        st.pieces[p, PC.TYPE] = 0
        st.pieces[p, PC.WOUNDS] = 0
        st.pieces[p, PC.SECTION] = -1
        st.pieces[p, PC.TSLOT] = -1
    return ok


@njit(refcount=False)
def respawn_square_nb(st, tab):
    """Where a character respawns now: ``(row, col)``, or ``(-1, -1)`` if nowhere. Read only.

    The rule is the module docstring's (deepest bed house, then the central tile's
    butterflies, then any free surface square of the three Surface Forest tiles).
    """
    h = st.grid.shape[1] // LAYERS
    w = st.grid.shape[2] // TILE_COLS
    best = -1
    best_row = -1
    for i in range(st.house_at.shape[0]):
        hid = st.house_at[i, HA.ID]
        if hid < 0 or not tab.houses[hid, HO.PROVIDES] & STATION.BED:
            continue
        bottom = st.house_at[i, HA.ROW] + tab.houses[hid, HO.H] - 1
        if bottom <= best_row:
            continue
        found = False
        for r in range(bottom, st.house_at[i, HA.ROW] - 1, -1):
            for c in range(st.house_at[i, HA.COL], st.house_at[i, HA.COL] + tab.houses[hid, HO.W]):
                if _free_nb(st, r, c):
                    found = True
        if found:
            best = i
            best_row = bottom
    if best >= 0:
        hid = st.house_at[best, HA.ID]
        for r in range(best_row, st.house_at[best, HA.ROW] - 1, -1):
            for c in range(
                st.house_at[best, HA.COL], st.house_at[best, HA.COL] + tab.houses[hid, HO.W]
            ):
                if _free_nb(st, r, c):
                    return r, c
    c0 = START_LAYER_COLUMN * w
    for r in range(h):
        for c in range(c0, c0 + w):
            if st.grid[P.FEAT, r, c] & FEAT.BUTTERFLY and _free_nb(st, r, c):
                return r, c
    for r in range(h):
        for c in range(FOREST_COLUMNS[0] * w, (FOREST_COLUMNS[2] + 1) * w):
            if (
                st.grid[P.SQ, r, c] != SQ.BLOCK
                and _free_nb(st, r, c)
                and (r + 1 >= st.grid.shape[1] or st.grid[P.OCC, r + 1, c] == 0)
                and supported_nb(st.grid, st.tiles, r, c)
            ):  # on the ground, not on top of another piece
                return r, c
    return -1, -1


@njit(refcount=False)
def respawn_nb(st, tab, p):
    """Character ``p``, dead, returns to the world at full health (TR-299..302).

    Writes ``st.pieces[p]``, OCC, ``st.chars[p]`` (``HP`` = ``MAXHP``, ``IN_WORLD`` 1; mana
    unchanged), and like any placement ``st.tiles``/``mini``/``disc``/``tally`` (discovery,
    TR-144; the caller spawns on new tiles) and ``st.falls``. Returns the piece row ``p``,
    or -1 when the character is in the world already, the game is over, or no square is
    free.
    """
    if st.chars[p, CH.IN_WORLD] != 0 or st.g[G.OVER] != OUT.PLAYING:
        return -1
    r, c = respawn_square_nb(st, tab)
    if r < 0 or not place_character_nb(st, p, r, c):
        return -1
    st.chars[p, CH.IN_WORLD] = 1
    st.chars[p, CH.HP] = st.chars[p, CH.MAXHP]
    return p


# --- fall damage -------------------------------------------------------------------------------
@njit(refcount=False)
def resolve_falls_nb(st, tab, first):
    """Roll fall damage for the character fall events ``first ..`` of ``st.falls``.

    Events are read up to ``st.tally[T.FALLS]`` (also those added meanwhile by the deaths
    this causes: a dying character's stack falls). For each fall of a character in the world:
    ``CH.FALLS`` + 1; a hurt (``movement.fall_hurts_nb``, TR-127..130, TR-134, TR-435,
    TR-436) costs 1 health and adds ``CH.FALL_DMG``; at 0 it dies at once (TR-133,
    :func:`die_nb`). Draws from ``st.rng``. Returns the index after the last event read
    (pass it as ``first`` next time).
    """
    i = first
    while i < st.tally[T.FALLS] and i < st.falls.shape[0]:
        k = st.falls[i, 0]
        i += 1
        if st.g[G.OVER] != OUT.PLAYING:
            continue
        if k >= MAX_PLAYERS or st.pieces[k, PC.KIND] != KIND.CHARACTER:
            continue
        if st.chars[k, CH.IN_WORLD] == 0:
            continue
        st.chars[k, CH.FALLS] += 1
        hurt = fall_hurts_nb(
            defence_dice_nb(st, tab, k),
            st.falls[i - 1, 1],
            st.falls[i - 1, 2] != 0,
            st.g[G.FALL_DAMAGE] != 0,
            st.rng,
        )
        if hurt and st.chars[k, CH.HP] > 0:
            st.chars[k, CH.HP] -= 1
            st.chars[k, CH.FALL_DMG] += 1
            if st.chars[k, CH.HP] == 0:
                st.chars[k, CH.FALL_DEATHS] += 1
                die_nb(st, tab, k)
    return i


@njit(refcount=False)
def lose_health_nb(st, tab, p, n):
    """``p`` loses ``n`` health (a debuff card played, data); at 0 it dies (TR-290)."""
    if n <= 0 or not st.chars[p, CH.IN_WORLD]:
        return
    st.chars[p, CH.HP] = max(0, st.chars[p, CH.HP] - n)
    if st.chars[p, CH.HP] == 0:
        die_nb(st, tab, p)
        resolve_falls_nb(st, tab, 0)
