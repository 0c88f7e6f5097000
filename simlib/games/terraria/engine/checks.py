"""Terraria invariants: the checks run after every turn when ``check_invariants`` is set.

:func:`check_invariants_nb` raises on a state no rule can make (pieces and grid out of
step, a supply below zero, a remembered line of sight out of date).
"""

from __future__ import annotations

from simlib.core.jit import njit
from simlib.games.terraria.engine import bosses
from simlib.games.terraria.engine.attack import sight_epoch_nb
from simlib.games.terraria.engine.sight import sees_nb
from simlib.games.terraria.state import (
    BOSS_ROW,
    CF,
    CH,
    COIN_CAP,
    KIND,
    MAX_BOSSES,
    MAX_SLOTS,
    N_PIECES,
    PC,
    PILE,
    ROLE,
    SQ,
    SUP,
    G,
    P,
)

__all__ = [
    "check_invariants_nb",
]


@njit(refcount=False)
def check_invariants_nb(st, tab):
    """Raise (an exception in a kernel) when a state invariant is broken (tests)."""
    g = st.g
    for p in range(g[G.PLAYERS]):
        ch = st.chars[p]
        if ch[CH.HP] < 0 or ch[CH.HP] > ch[CH.MAXHP]:
            raise ValueError("health out of bounds")
        if ch[CH.MANA] < 0 or ch[CH.MANA] > ch[CH.MAXMANA]:
            raise ValueError("mana out of bounds")
        if ch[CH.COINS] < 0 or ch[CH.COINS] > COIN_CAP:
            raise ValueError("coins out of bounds")
        if ch[CH.SLOTS] < 4 or ch[CH.SLOTS] > MAX_SLOTS:
            raise ValueError("slots out of bounds")
        for s in range(MAX_SLOTS):
            if st.inv[p, s, 1] < 0 or st.inv[p, s, 1] > 5:
                raise ValueError("slot count out of bounds")
            if s >= ch[CH.SLOTS] and st.inv[p, s, 1] != 0:
                raise ValueError("resource in a locked slot")
        for s in range(ch[CH.SLOTS]):
            for t in range(s + 1, ch[CH.SLOTS]):
                if st.inv[p, s, 1] > 0 and st.inv[p, t, 1] > 0:
                    if st.inv[p, s, 0] == st.inv[p, t, 0] and st.inv[p, s, 1] < 5:
                        if st.inv[p, t, 1] < 5:
                            raise ValueError("two part-filled slots of one resource")
    # cards are conserved: every card is in a player's piles or the supply
    for c in range(tab.cards.shape[0]):
        n = st.supply[SUP.CARDS, c]
        for p in range(g[G.PLAYERS]):
            for pile in range(PILE.N):
                for i in range(st.npile[p, pile]):
                    if st.deck[p, pile, i] == c:
                        n += 1
            if st.ready[p] == c:
                n += 1
        start = 0
        for i in range(tab.start_deck.shape[0]):
            if tab.start_deck[i] == c:
                start += g[G.PLAYERS]
        # only debuff cards are ever scrapped here, and they return to their pile (TR-384)
        if n != tab.cards[c, CF.COPIES] + start:
            raise ValueError("action cards not conserved")
    for k in range(N_PIECES):
        if st.pieces[k, PC.KIND] != KIND.NONE:
            r = st.pieces[k, PC.ROW]
            c = st.pieces[k, PC.COL]
            if st.grid[P.SQ, r, c] == SQ.BLOCK and st.pieces[k, PC.KIND] != KIND.WORM:
                if st.pieces[k, PC.ROLE] != ROLE.BOSS:
                    raise ValueError("piece inside a block")
    for b in range(MAX_BOSSES):
        if bosses.in_play_nb(st, b) != (st.pieces[BOSS_ROW + b, PC.KIND] != KIND.NONE):
            raise ValueError("a boss piece without its boss in play, or the other way round")
    # every remembered line-of-sight answer of the current epoch is still the answer
    epoch = sight_epoch_nb(st)
    cols = st.grid.shape[2]
    for s in range(st.seen.shape[0]):
        if st.seen[s, 0] >= 0 and st.seen[s, 2] == epoch:
            a = st.seen[s, 0]
            b = st.seen[s, 1]
            ans = sees_nb(st.grid, st.tiles, a // cols, a % cols, b // cols, b % cols, False)
            if ans != (st.seen[s, 3] != 0):
                raise ValueError("a remembered line of sight is out of date")
