"""Terraria attacks: whether a weapon reaches a target, and the attack action.

Rulebook: Attacking, Defending.

A weapon reaches an enemy or boss by its range and, for a line-of-sight weapon, sight
(``sight.py``; answers are remembered in ``st.seen`` while the sight epoch of
:func:`sight_epoch_nb` stands). The duel is ``simlib.core.dice.duel_nb``; wounds go to
``foes.wound_enemy_nb`` or ``bosses.wound_boss_nb``, and a defeated boss's Loot card is
handed out by :func:`boss_loot_nb`.
"""

from __future__ import annotations

import numpy as np

from simlib.core.dice import duel_nb
from simlib.core.jit import njit
from simlib.games.terraria.engine import bosses, foes, sight
from simlib.games.terraria.engine.actions import can_act_nb, settle_nb
from simlib.games.terraria.engine.rewards import check_objectives_nb, give_reward_nb
from simlib.games.terraria.engine.sight import reach_nb, sees_memo_nb, sees_nb
from simlib.games.terraria.state import (
    AR,
    BO,
    CH,
    EN,
    EQ,
    KIND,
    LAYERS,
    MAX_PLAYERS,
    PC,
    ROLE,
    TILE_COLS,
    G,
)

__all__ = [
    "attack_icons_nb",
    "target_defense_nb",
    "sight_epoch_nb",
    "sight_changed_nb",
    "can_attack_nb",
    "weapon_reaches_nb",
    "attack_action_nb",
    "boss_loot_nb",
]


@njit(refcount=False)
def attack_icons_nb(st, tab, p):
    """Attack icons of ``p``: cards in play, minion and worn armor (TR-276, TR-361)."""
    ch = st.chars[p]
    n = ch[CH.ATK]
    if ch[CH.MINION] >= 0:
        n += tab.minions[ch[CH.MINION]]
    if ch[CH.ARMOR] >= 0:
        n += tab.armor[ch[CH.ARMOR], AR.ATK]
    return n


@njit
def target_defense_nb(st, tab, k):
    """Defence dice of the enemy or boss piece ``k`` (a view)."""
    if st.pieces[k, PC.ROLE] == ROLE.BOSS:
        b = st.pieces[k, PC.TYPE]
        d0 = bosses.form_col_nb(BO.DEF0, st.g[G.FORM + b])
        return tab.bosses[b, d0 : d0 + bosses.boss_stat_nb(st, tab, b, BO.NDEF)]
    e = st.pieces[k, PC.TYPE]
    return tab.enemies[e, EN.DEF0 : EN.DEF0 + tab.enemies[e, EN.NDEF]]


@njit(refcount=False)
def sight_epoch_nb(st):
    """What line of sight depends on, as one number (the ``seen`` memo's epoch).

    Squares block by their kind and houses, on discovered tiles only (``sight``): the
    epoch changes with every block dug out or house built (``G.SIGHT``) and every tile
    discovered (``sight.sight_epoch_nb``). Read only.
    """
    return sight.sight_epoch_nb(st.tiles, st.g[G.SIGHT])


@njit(refcount=False)
def sight_changed_nb(st):
    """A new sight epoch: call after editing blocks or houses by hand (tests, tools).

    The engine's own digs and houses do this themselves; without it the ``seen`` memo
    would go on answering for the world as it was (``check_invariants_nb`` catches that).
    """
    st.g[G.SIGHT] += 1


@njit(refcount=False)
def can_attack_nb(st, tab, p, k):
    """True when ``p``'s weapon reaches enemy or boss ``k`` now (TR-258..272), costs aside."""
    return weapon_reaches_nb(
        st.pieces, st.chars, st.grid, st.tiles, tab.equip, st.seen, sight_epoch_nb(st), p, k
    )


@njit(refcount=False)
def weapon_reaches_nb(pieces, chars, grid, tiles, equip, seen, epoch, p, k):
    """:func:`can_attack_nb` on plain arrays (for loops over the pieces).

    Line of sight goes through the ``seen`` memo at ``epoch`` (``sight.sees_memo_nb``). A
    weapon without the line-of-sight icon needs no sight but cannot hit through a house
    (``sight.sees_nb`` with ``houses_only``): not from inside one at an enemy outside, nor
    across one (TR-243, TR-269).
    """
    role = pieces[k, PC.ROLE]
    if role != ROLE.ENEMY and role != ROLE.BOSS:
        return False
    if pieces[k, PC.KIND] == KIND.NONE:
        return False
    w = chars[p, CH.WEAPON]
    if w < 0:
        return False
    h = grid.shape[1] // LAYERS
    wd = grid.shape[2] // TILE_COLS
    ar = pieces[p, PC.ROW]
    ac = pieces[p, PC.COL]
    br = pieces[k, PC.ROW]
    bc = pieces[k, PC.COL]
    if not reach_nb(ar, ac, br, bc, h, wd) & equip[w, EQ.RANGE]:
        return False
    if equip[w, EQ.LOS] and not sees_memo_nb(seen, epoch, grid, tiles, ar, ac, br, bc):
        return False
    if not equip[w, EQ.LOS] and not sees_nb(grid, tiles, ar, ac, br, bc, True):
        return False  # no line-of-sight icon, but still not through a house (TR-243)
    return True


@njit(refcount=False)
def attack_action_nb(st, tab, p, k):
    """One attack with the top weapon on piece ``k`` (TR-258..283, TR-354, TR-412).

    Costs 1 action point, or the weapon's mana for a magic weapon. Attack icons all go onto
    one die (TR-277, via ``core.dice.duel_nb``). A defeated enemy leaves the world, and
    whoever stood on it falls (TR-126..133: :func:`settle_nb`). Returns the wounds
    inflicted, -1 if the attack is not allowed.
    """
    if not can_act_nb(st, p) or not can_attack_nb(st, tab, p, k):
        return -1
    ch = st.chars[p]
    w = ch[CH.WEAPON]
    mana = tab.equip[w, EQ.MANA]
    if mana > 0:
        if ch[CH.MANA] < mana:
            return -1
        ch[CH.MANA] -= mana
    else:
        if ch[CH.AP] < 1:
            return -1
        ch[CH.AP] -= 1
    dice = tab.equip[w, EQ.ATK0 : EQ.ATK0 + tab.equip[w, EQ.NATK]]
    wounds = duel_nb(dice, target_defense_nb(st, tab, k), attack_icons_nb(st, tab, p), 0, st.rng)
    ch[CH.DUELS] += 1
    if wounds > 0:
        if st.pieces[k, PC.ROLE] == ROLE.BOSS:
            b = st.pieces[k, PC.TYPE]
            if bosses.wound_boss_nb(st, tab, p, b, wounds) == 2:
                boss_loot_nb(st, tab, b)  # TR-417, TR-419
                settle_nb(st, tab, p)
        else:
            foes.wound_enemy_nb(st, tab, p, k, wounds)
            settle_nb(st, tab, p)
    check_objectives_nb(st, tab, p)
    return wounds


@njit
def boss_loot_nb(st, tab, b):
    """Hand out boss ``b``'s Loot card (``bosses.boss_loot_nb`` splits it, TR-417, TR-419)."""
    out = np.zeros((4 * 4, 4), np.int32)
    n = bosses.boss_loot_nb(st, tab, b, out)
    for i in range(n):
        give_reward_nb(st, tab, out[i, 0], out[i, 1], out[i, 2], out[i, 3])
    for q in range(MAX_PLAYERS):
        st.chars[q, CH.BOSS_TOKENS + b] = 0
