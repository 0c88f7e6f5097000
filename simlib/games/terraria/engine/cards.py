"""Terraria decks: draw pile, discard, hand, play area and ready slot (Player Turn: Drawing).

Each player's piles are rows of ``st.deck`` (``state.PILE``), ``st.npile`` their sizes and
``st.ready`` the ready slot. The top of the draw pile is its last entry. Readings:

- TR-093 / TR-094: an empty draw pile is refilled by shuffling the discard pile; when both
  are empty the hand is simply smaller.
- TR-095: a card in the ready slot may be drawn as one of the hand's cards (the bots decide
  whether to take it; :func:`draw_hand_nb` takes it first when asked).
- TR-101: coin icons played are spendable this turn only (``CH.TCOIN``), spent before the
  coin dial; they never go onto the dial.
- TR-102: a card with a choice gives option A or option B, picked when played.
- TR-105 / TR-106 / TR-107: played cards stay in the play area through the enemy turn (their
  defence icons protect against every attack of the round) and go to the discard pile in
  the cleanup; attack icons apply to every attack of the turn.
- TR-096: gained action cards go to the discard pile; debuff cards go on top of the draw
  pile (TR-342). A debuff card played costs its ``HURT`` health (data, illustrative).
- TR-384: a scrapped card leaves the game (a scrapped debuff goes back to its pile).
"""

from __future__ import annotations

from simlib.core.jit import njit
from simlib.core.rng import shuffle_nb
from simlib.games.terraria.state import AR, CC, CF, CH, EQ, PILE, SHOP, SUP, G

__all__ = [
    "setup_deck_nb",
    "draw_one_nb",
    "draw_hand_nb",
    "play_card_nb",
    "ready_card_nb",
    "end_round_cards_nb",
    "gain_card_nb",
    "push_debuff_nb",
    "scrap_card_nb",
    "scrap_debuffs_nb",
    "discard_all_nb",
    "cards_held_nb",
    "hand_limit_nb",
]


@njit(refcount=False)
def setup_deck_nb(st, tab, p):
    """Player ``p``'s starting deck of 8, shuffled into the draw pile (TR-046, TR-052)."""
    n = tab.start_deck.shape[0]
    for i in range(n):
        st.deck[p, PILE.DRAW, i] = tab.start_deck[i]
    st.npile[p, :] = 0
    st.npile[p, PILE.DRAW] = n
    st.ready[p] = -1
    shuffle_nb(st.deck[p, PILE.DRAW], n, st.rng)


@njit(refcount=False)
def _move_nb(st, p, src, i, dst):
    """Move the card at index ``i`` of pile ``src`` to the top of pile ``dst``."""
    n = st.npile[p, src]
    card = st.deck[p, src, i]
    for j in range(i, n - 1):
        st.deck[p, src, j] = st.deck[p, src, j + 1]
    st.npile[p, src] = n - 1
    m = st.npile[p, dst]
    st.deck[p, dst, m] = card
    st.npile[p, dst] = m + 1
    return card


@njit(refcount=False)
def draw_one_nb(st, p):
    """Draw the top card of ``p``'s draw pile into hand; reshuffle the discards if empty.

    Returns the card id, or -1 when both piles are empty (TR-094).
    """
    if st.npile[p, PILE.DRAW] == 0:
        n = st.npile[p, PILE.DISCARD]
        if n == 0:
            return -1
        for i in range(n):
            st.deck[p, PILE.DRAW, i] = st.deck[p, PILE.DISCARD, i]
        st.npile[p, PILE.DISCARD] = 0
        st.npile[p, PILE.DRAW] = n
        shuffle_nb(st.deck[p, PILE.DRAW], n, st.rng)  # TR-093
    return _move_nb(st, p, PILE.DRAW, st.npile[p, PILE.DRAW] - 1, PILE.HAND)


@njit(refcount=False)
def draw_hand_nb(st, p, limit, take_ready):
    """Draw up to ``limit`` cards; the ready slot's card first when ``take_ready`` (TR-095).

    Marks ``p`` as having drawn this round (``g[G.DRAWN]``): its equipment and armor are
    fixed until its next turn (TR-210, TR-220). Returns the number of cards drawn.
    """
    st.g[G.DRAWN] |= 1 << p
    got = 0
    if take_ready and st.ready[p] >= 0 and limit > 0:
        m = st.npile[p, PILE.HAND]
        st.deck[p, PILE.HAND, m] = st.ready[p]
        st.npile[p, PILE.HAND] = m + 1
        st.ready[p] = -1
        got = 1
    while got < limit:
        if draw_one_nb(st, p) < 0:
            break
        got += 1
    return got


@njit(refcount=False)
def play_card_nb(st, tab, p, i, option_b):
    """Play hand card ``i`` of player ``p`` into the play area and take its icons.

    ``option_b`` picks the second option of a card with a choice (TR-102). Action points,
    defence, attack and coin icons are added to this turn's pools in ``st.chars``; health
    icons heal at once up to the maximum (TR-100); mana up to its maximum; draw icons draw
    at once. Returns the health the card costs (a debuff's ``HURT``): the caller applies it
    (it may kill).
    """
    card = _move_nb(st, p, PILE.HAND, i, PILE.PLAY)
    c = tab.cards[card]
    off = 0
    if option_b and c[CF.CHOICE] != 0:
        off = CF.AP_B - CF.AP
    ch = st.chars[p]
    ch[CH.AP] += c[CF.AP + off]
    ch[CH.DEF] += c[CF.DEF + off]
    ch[CH.ATK] += c[CF.ATK + off]
    ch[CH.TCOIN] += c[CF.COIN + off]
    heal = min(c[CF.HEAL + off], ch[CH.MAXHP] - ch[CH.HP])
    if heal > 0:
        ch[CH.HP] += heal
        ch[CH.HEALED] += heal
    ch[CH.MANA] = min(ch[CH.MAXMANA], ch[CH.MANA] + c[CF.MANA + off])
    ch[CH.MIRROR] += c[CF.RECALL]  # used when the player chooses (magic.use_mirror_nb)
    for _ in range(c[CF.DRAW + off]):
        if draw_one_nb(st, p) < 0:
            break
    return c[CF.HURT]


@njit(refcount=False)
def ready_card_nb(st, p, i):
    """Put hand card ``i`` into the ready slot (TR-108..110); an old card there is discarded."""
    n = st.npile[p, PILE.HAND]
    card = st.deck[p, PILE.HAND, i]
    for j in range(i, n - 1):
        st.deck[p, PILE.HAND, j] = st.deck[p, PILE.HAND, j + 1]
    st.npile[p, PILE.HAND] = n - 1
    if st.ready[p] >= 0:
        m = st.npile[p, PILE.DISCARD]
        st.deck[p, PILE.DISCARD, m] = st.ready[p]
        st.npile[p, PILE.DISCARD] = m + 1
    st.ready[p] = card


@njit(refcount=False)
def end_round_cards_nb(st, p):
    """The play area (and any card left in hand) goes to the discard pile (TR-105, TR-112)."""
    for src in (PILE.PLAY, PILE.HAND):
        n = st.npile[p, src]
        m = st.npile[p, PILE.DISCARD]
        for j in range(n):
            st.deck[p, PILE.DISCARD, m + j] = st.deck[p, src, j]
        st.npile[p, PILE.DISCARD] = m + n
        st.npile[p, src] = 0


@njit(refcount=False)
def discard_all_nb(st, p):
    """Death step 2 (TR-292, TR-293): hand, play area and ready slot to the discard pile.

    The discard pile is then shuffled.
    """
    end_round_cards_nb(st, p)
    if st.ready[p] >= 0:
        m = st.npile[p, PILE.DISCARD]
        st.deck[p, PILE.DISCARD, m] = st.ready[p]
        st.npile[p, PILE.DISCARD] = m + 1
        st.ready[p] = -1
    shuffle_nb(st.deck[p, PILE.DISCARD], st.npile[p, PILE.DISCARD], st.rng)


@njit(refcount=False)
def cards_held_nb(st, p):
    """Cards player ``p`` owns across every pile and the ready slot."""
    n = st.npile[p, PILE.DRAW] + st.npile[p, PILE.DISCARD]
    n += st.npile[p, PILE.HAND] + st.npile[p, PILE.PLAY]
    return n + (1 if st.ready[p] >= 0 else 0)


@njit(refcount=False)
def gain_card_nb(st, p, card):
    """Player ``p`` gains ``card`` from the supply into the discard pile (TR-096).

    Returns False (nothing happens) when no copy is left or the player's piles are full.
    """
    if card < 0 or st.supply[SUP.CARDS, card] <= 0:
        return False
    if cards_held_nb(st, p) >= st.deck.shape[2]:
        return False
    st.supply[SUP.CARDS, card] -= 1
    m = st.npile[p, PILE.DISCARD]
    st.deck[p, PILE.DISCARD, m] = card
    st.npile[p, PILE.DISCARD] = m + 1
    return True


@njit(refcount=False)
def push_debuff_nb(st, p, card):
    """A debuff card on top of ``p``'s draw pile (TR-342); False when none is left."""
    if st.supply[SUP.CARDS, card] <= 0 or cards_held_nb(st, p) >= st.deck.shape[2]:
        return False
    st.supply[SUP.CARDS, card] -= 1
    m = st.npile[p, PILE.DRAW]
    st.deck[p, PILE.DRAW, m] = card
    st.npile[p, PILE.DRAW] = m + 1
    return True


@njit(refcount=False)
def scrap_card_nb(st, tab, p, pile, i):
    """Remove card ``i`` of ``pile`` from the game (TR-384); a debuff returns to its pile."""
    n = st.npile[p, pile]
    card = st.deck[p, pile, i]
    for j in range(i, n - 1):
        st.deck[p, pile, j] = st.deck[p, pile, j + 1]
    st.npile[p, pile] = n - 1
    if tab.cards[card, CF.SHOP] == SHOP.DEBUFF:
        st.supply[SUP.CARDS, card] += 1
    return card


@njit(refcount=False)
def scrap_debuffs_nb(st, tab, p):
    """Scrap every debuff card from ``p``'s hand, discard and draw piles (Nurse, TR-371).

    Returns how many were scrapped.
    """
    k = 0
    for pile in (PILE.HAND, PILE.DISCARD, PILE.DRAW):
        i = 0
        while i < st.npile[p, pile]:
            if tab.cards[st.deck[p, pile, i], CF.SHOP] == SHOP.DEBUFF:
                scrap_card_nb(st, tab, p, pile, i)
                k += 1
            else:
                i += 1
    return k


@njit(refcount=False)
def hand_limit_nb(st, tab, p):
    """Character card's hand limit plus the bonuses of top equipment and worn armor (TR-092)."""
    ch = st.chars[p]
    n = tab.characters[ch[CH.CARD], CC.HAND]
    for s in range(4):
        e = ch[CH.WEAPON + s]
        if e >= 0:
            n += tab.equip[e, EQ.DRAW]
    if ch[CH.ARMOR] >= 0:
        n += tab.armor[ch[CH.ARMOR], AR.DRAW]
    return n
