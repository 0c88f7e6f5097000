"""Terraria crafting and houses: recipes paid by the team, gifts of gear, building houses.

Rulebook: Inventories and Resource Sharing, Crafting Equipment, Crafting Armor Sets, Houses.

A recipe is paid from the inventories of the team within reach (:func:`team_has_nb`), at
the crafting stations a character stands by; equipment and armor can be given to a
teammate (:func:`give_equip_nb`, :func:`give_armor_nb`); a house needs a free place of its
shape (:func:`house_fits_nb`) and its recipe.
"""

from __future__ import annotations

from simlib.core.jit import njit
from simlib.games.terraria.engine import life
from simlib.games.terraria.engine.actions import can_act_nb
from simlib.games.terraria.engine.rewards import (
    check_objectives_nb,
    take_armor_nb,
    take_equip_nb,
    wear_armor_nb,
)
from simlib.games.terraria.state import (
    AR,
    CH,
    CNT,
    EQ,
    FEAT,
    HA,
    HO,
    MAX_HOUSES,
    PC,
    SQ,
    STATION,
    SUP,
    G,
    P,
    on_table_nb,
)

__all__ = [
    "team_has_nb",
    "can_craft_nb",
    "best_owned_equip_nb",
    "can_give_gear_nb",
    "give_equip_nb",
    "give_armor_nb",
    "craft_nb",
    "house_fits_nb",
    "can_build_nb",
    "build_house_nb",
]


@njit(refcount=False)
def _team_has_nb(st, tab, p, recipe):
    """True when ``p`` plus donations from the others can pay ``recipe`` (TR-198)."""
    return team_has_nb(st.inv, st.chars, st.g[G.PLAYERS], recipe)


@njit(refcount=False)
def team_has_nb(inv, chars, players, recipe):
    """:func:`_team_has_nb` on the arrays (cheap to call in a loop)."""
    for i in range(recipe.shape[0]):
        res = recipe[i, 0]
        if res <= 0:
            continue
        have = 0
        for q in range(players):
            have += life.count_units_nb(inv, chars, q, res)
        if have < recipe[i, 1]:
            return False
    return True


@njit(refcount=False)
def _team_pay_nb(st, tab, p, recipe):
    """Pay ``recipe``: from ``p`` first, then from the others in seat order (TR-198)."""
    for i in range(recipe.shape[0]):
        res = recipe[i, 0]
        need = recipe[i, 1]
        if res <= 0:
            continue
        q = p
        for _ in range(st.g[G.PLAYERS]):
            if need <= 0:
                break
            take = min(need, life.inventory_count_nb(st, q, res))
            if take > 0:
                life.inventory_take_nb(st, q, res, take)
                need -= take
            q = (q + 1) % st.g[G.PLAYERS]


@njit(refcount=False)
def _stations_ok_nb(st, need):
    return (st.g[G.STATIONS] & need) == need


@njit(refcount=False)
def can_craft_nb(st, tab, p, kind, item):
    """True when ``p`` may craft equipment (kind 0) or armor (kind 1) ``item`` now."""
    if kind == 0:
        row = tab.equip[item]
        if not row[EQ.CRAFTABLE] or st.supply[SUP.EQUIP, item] <= 0:  # TR-203
            return False
        if not _stations_ok_nb(st, row[EQ.STATION]):  # TR-201
            return False
        ev = row[EQ.EVIL]
        if ev != 0 and ev - 1 != st.g[G.EVIL]:
            return False
        return _team_has_nb(st, tab, p, tab.equip_recipe[item])
    row = tab.armor[item]
    if not row[AR.CRAFTABLE] or st.supply[SUP.ARMOR, item] <= 0:
        return False
    if not _stations_ok_nb(st, row[AR.STATION]):  # TR-212
        return False
    ev = row[AR.EVIL]
    if ev != 0 and ev - 1 != st.g[G.EVIL]:
        return False
    return _team_has_nb(st, tab, p, tab.armor_recipe[item])


@njit(refcount=False)
def best_owned_equip_nb(st, tab, p, slot):
    """The best equipment card of ``slot`` that ``p`` owns, -1 when none. Read only.

    The highest tier; ties: the lowest id.
    """
    best = -1
    bt = -1
    for e in range(tab.equip.shape[0]):
        if st.owned[p, e] > 0 and tab.equip[e, EQ.SLOT] == slot and tab.equip[e, EQ.TIER] > bt:
            best = e
            bt = tab.equip[e, EQ.TIER]
    return best


@njit(refcount=False)
def can_give_gear_nb(st, p, q):
    """True while ``p`` may give ``q`` an equipment card or an armor set. Read only.

    The game is on, ``p`` and ``q`` are two different players of it, and neither has drawn
    this round (``g[G.DRAWN]``): gifts happen at the start of the turn, before either
    player draws, and once a player has drawn its gear is fixed until its next turn
    (TR-209, TR-210, TR-219, TR-220).
    """
    g = st.g
    players = g[G.PLAYERS]
    if g[G.OVER] != 0 or p == q or p < 0 or q < 0 or p >= players or q >= players:
        return False
    return (g[G.DRAWN] & ((1 << p) | (1 << q))) == 0


@njit(refcount=False)
def give_equip_nb(st, tab, p, q, e):
    """Player ``p`` gives player ``q`` one copy of equipment card ``e`` (TR-209, TR-210).

    Refused (returns 0, nothing changes) outside the gift window (:func:`can_give_gear_nb`)
    or when ``p`` owns no copy. ``p`` loses the copy; when it was on top of its slot and
    ``p`` has no other copy, ``p``'s best other card of that slot (:func:`best_owned_equip_nb`)
    comes to the top, or the slot is empty (-1). ``q`` owns it and, as any new card, it goes
    on top of ``q``'s slot (TR-206; ``q`` may swap before drawing, TR-208). A minion already
    summoned stays (TR-363: only death or another summon ends it). Writes ``st.owned``,
    ``st.chars`` (the slots, ``p``'s ``CH.GIFTS``). Returns 1 when given.
    """
    if not can_give_gear_nb(st, p, q) or e < 0 or st.owned[p, e] <= 0:
        return 0
    st.owned[p, e] -= 1
    slot = tab.equip[e, EQ.SLOT]
    if st.chars[p, CH.WEAPON + slot] == e and st.owned[p, e] == 0:
        st.chars[p, CH.WEAPON + slot] = best_owned_equip_nb(st, tab, p, slot)
    take_equip_nb(st, tab, q, e)
    st.chars[p, CH.GIFTS] += 1
    return 1


@njit(refcount=False)
def give_armor_nb(st, tab, p, q, a):
    """Player ``p`` gives player ``q`` one copy of armor set ``a`` (TR-219, TR-220).

    Refused (returns 0, nothing changes) outside the gift window (:func:`can_give_gear_nb`)
    or when ``p`` owns no copy. ``p`` loses the copy; when ``p`` wore it and has no other
    copy, ``p`` wears no armor (the character card's defence and maxima; ``p`` may put on
    another set it owns before drawing, TR-218). ``q`` owns it and wears it, as any new set
    (TR-214: the set it wore is set aside, still owned). Writes ``st.owned``, ``st.chars``
    (armor, maxima, health and mana capped, ``p``'s ``CH.GIFTS``). Returns 1 when given.
    """
    col = tab.equip.shape[0] + a
    if not can_give_gear_nb(st, p, q) or a < 0 or st.owned[p, col] <= 0:
        return 0
    st.owned[p, col] -= 1
    if st.chars[p, CH.ARMOR] == a and st.owned[p, col] == 0:
        wear_armor_nb(st, tab, p, -1)
    take_armor_nb(st, tab, q, a)
    st.chars[p, CH.GIFTS] += 1
    return 1


@njit(refcount=False)
def craft_nb(st, tab, p, kind, item):
    """Craft equipment (kind 0, TR-200..211) or an armor set (kind 1, TR-212..216)."""
    if not can_act_nb(st, p) or not can_craft_nb(st, tab, p, kind, item):
        return False
    if kind == 0:
        _team_pay_nb(st, tab, p, tab.equip_recipe[item])
        st.supply[SUP.EQUIP, item] -= 1
        take_equip_nb(st, tab, p, item)
        st.cnt[CNT.CRAFTED] += 1
    else:
        _team_pay_nb(st, tab, p, tab.armor_recipe[item])
        st.supply[SUP.ARMOR, item] -= 1
        take_armor_nb(st, tab, p, item)
        st.cnt[CNT.ARMORS] += 1
    check_objectives_nb(st, tab, p)
    return True


@njit(refcount=False)
def house_fits_nb(st, tab, p, hid, r, c):
    """True when house ``hid`` can stand with its top-left square at (r, c) (TR-235, TR-239).

    Every square it covers is on a discovered tile and empty in the rulebook's sense: no
    full block, character or enemy (TR-119); half blocks, lava, tunnels, chests, ropes,
    cobwebs, trees and platforms may be covered, another house may not (tiles do not
    overlap). One square is adjacent to ``p``. Nothing need be under it: the rulebook asks
    only for room (TR-239). Read only.
    """
    wd = tab.houses[hid, HO.W]
    ht = tab.houses[hid, HO.H]
    rows = st.grid.shape[1]
    cols = st.grid.shape[2]
    if r < 0 or c < 0 or r + ht > rows or c + wd > cols:
        return False
    pr = st.pieces[p, PC.ROW]
    pc = st.pieces[p, PC.COL]
    near = False
    for i in range(r, r + ht):
        for j in range(c, c + wd):
            if not on_table_nb(st.grid, st.tiles, i, j):
                return False
            if st.grid[P.SQ, i, j] == SQ.BLOCK or st.grid[P.OCC, i, j] != 0:
                return False
            if st.grid[P.FEAT, i, j] & FEAT.HOUSE:
                return False
            if max(abs(i - pr), abs(j - pc)) == 1:
                near = True
    return near


@njit(refcount=False)
def can_build_nb(st, tab, p, hid):
    """True when house ``hid`` may be built now, placement aside (TR-233, TR-234, TR-252)."""
    built = st.cnt[CNT.HOUSE + hid]
    if built >= tab.houses[hid, HO.COPIES]:
        return False
    if not _stations_ok_nb(st, tab.houses[hid, HO.NEEDS]):
        return False
    if tab.houses[hid, HO.GATED]:
        ok = False
        n_eq = tab.equip.shape[0]
        for q in range(st.g[G.PLAYERS]):
            for e in range(n_eq):
                if tab.equip[e, EQ.GATE] and st.owned[q, e] > 0:
                    ok = True
        if not ok:
            return False
    if st.g[G.HOUSES] >= MAX_HOUSES:
        return False
    return _team_has_nb(st, tab, p, tab.house_recipe[hid])


@njit(refcount=False)
def build_house_nb(st, tab, p, hid, r, c):
    """Build house ``hid`` with its top-left square at (r, c) (TR-233..257).

    The house squares get ``FEAT.HOUSE`` (they block sight and enemies, TR-243..246) and a
    floor on every square and on the square above its roof (walkable like platforms,
    TR-241, TR-242); covered platforms and Acorns go back (TR-236, TR-238). A covered half
    block is under the tile for good (TR-240): its square becomes open air like the rest of
    the house (``SQ.AIR``, no dig progress), so it is walked through and no longer dug.
    """
    if not can_act_nb(st, p) or not can_build_nb(st, tab, p, hid):
        return False
    if not house_fits_nb(st, tab, p, hid, r, c):
        return False
    _team_pay_nb(st, tab, p, tab.house_recipe[hid])
    wd = tab.houses[hid, HO.W]
    ht = tab.houses[hid, HO.H]
    for i in range(r, r + ht):
        for j in range(c, c + wd):
            f = st.grid[P.FEAT, i, j]
            f &= ~FEAT.ACORN
            st.grid[P.FEAT, i, j] = f | FEAT.HOUSE | FEAT.PLATFORM
            if st.grid[P.SQ, i, j] == SQ.HALF:  # covered (TR-235 reading)
                st.grid[P.SQ, i, j] = SQ.AIR
                st.grid[P.PROG, i, j] = 0
    if r > 0:
        for j in range(c, c + wd):
            if st.grid[P.SQ, r - 1, j] == SQ.AIR:
                st.grid[P.FEAT, r - 1, j] |= FEAT.PLATFORM
    n = st.g[G.HOUSES]
    st.house_at[n, HA.ID] = hid
    st.house_at[n, HA.ROW] = r
    st.house_at[n, HA.COL] = c
    st.house_at[n, HA.NPC] = -1
    st.g[G.HOUSES] = n + 1
    st.g[G.SIGHT] += 1  # house squares block sight (``sight_epoch_nb``)
    st.g[G.FREE_HOUSES] += 1
    prov = tab.houses[hid, HO.PROVIDES]
    st.g[G.STATIONS] |= prov
    if prov & STATION.BED:
        st.g[G.BEDS] += 1
    if prov & STATION.COOKING_POT:
        st.g[G.COOK_LEFT] = 15
    st.cnt[CNT.HOUSES] += 1
    st.cnt[CNT.HOUSE + hid] += 1
    check_objectives_nb(st, tab, p)
    return True
