"""Terraria decks: draw, reshuffle, ready slot, play, gain, debuffs, scrap (engine/cards.py).

Scenario tests cite the checklist; a plain-Python model of the piles is held to the kernels
by a hypothesis property test over random sequences of deck operations.
"""

from __future__ import annotations

import functools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as hs

from simlib.core.rng import new_state, shuffle_nb
from simlib.games.terraria.compile import compile_tables
from simlib.games.terraria.engine import cards
from simlib.games.terraria.engine.setup import alloc_state_nb
from simlib.games.terraria.state import CF, CH, PILE, SHOP, SUP, replace

EXPLORE, DODGE, REST, GUIDE_CARD, POISON = range(5)


@functools.cache
def _base_tables():
    # the real State / Tables types (a test-local NamedTuple type would land in numba's
    # cache index, which every later process must then be able to import)
    return compile_tables()


def tables():
    c = np.zeros((5, CF.N), dtype=np.int16)
    c[EXPLORE, CF.AP] = 2
    c[DODGE, CF.AP] = 1
    c[DODGE, CF.CHOICE] = 1
    c[DODGE, CF.DEF_B] = 2  # "1 action point or 2 defence" (the printed Dodge)
    c[REST, CF.HEAL] = 2
    c[GUIDE_CARD, CF.AP] = 1
    c[GUIDE_CARD, CF.DRAW] = 1
    c[GUIDE_CARD, CF.COIN] = 3
    c[GUIDE_CARD, CF.SHOP] = SHOP.GUIDE
    c[GUIDE_CARD, CF.COPIES] = 3
    c[POISON, CF.SHOP] = SHOP.DEBUFF
    c[POISON, CF.HURT] = 1
    c[POISON, CF.COPIES] = 2
    start = np.array([EXPLORE] * 3 + [DODGE] * 2 + [REST] * 3, dtype=np.int16)
    return replace(_base_tables(), cards=c, start_deck=start)


def state(seed=1, players=1, max_cards=24):
    tab = tables()
    sup = np.zeros((SUP.N, 5), dtype=np.int16)
    sup[SUP.CARDS] = tab.cards[:, CF.COPIES]
    chars = np.zeros((players, CH.N), dtype=np.int32)
    chars[:, CH.HP] = 3
    chars[:, CH.MAXHP] = 5
    st = replace(
        alloc_state_nb(tab),
        deck=np.zeros((players, PILE.N, max_cards), dtype=np.int16),
        npile=np.zeros((players, PILE.N), dtype=np.int16),
        ready=np.full(players, -1, dtype=np.int16),
        supply=sup,
        chars=chars,
        rng=new_state(seed, 0),
    )
    for p in range(players):
        cards.setup_deck_nb(st, tab, p)
    return st, tab


def pile(st, p, which):
    return [int(x) for x in st.deck[p, which, : st.npile[p, which]]]


def test_setup_is_a_shuffled_deck_of_eight():  # TR-052
    st, tab = state()
    assert sorted(pile(st, 0, PILE.DRAW)) == sorted(tab.start_deck.tolist())
    assert st.ready[0] == -1 and st.npile[0, PILE.HAND] == 0
    orders = {tuple(pile(state(seed=s)[0], 0, PILE.DRAW)) for s in range(20)}
    assert len(orders) > 10  # shuffled per game


def test_draw_takes_the_top_and_reshuffles_the_discards_when_empty():  # TR-092, TR-093
    st, tab = state()
    top = pile(st, 0, PILE.DRAW)[::-1]
    assert cards.draw_hand_nb(st, 0, 4, False) == 4
    assert pile(st, 0, PILE.HAND) == top[:4]
    for _ in range(4):
        cards.play_card_nb(st, tab, 0, 0, False)
    cards.end_round_cards_nb(st, 0)
    assert st.npile[0, PILE.DISCARD] == 4 and st.npile[0, PILE.PLAY] == 0  # TR-105
    cards.draw_hand_nb(st, 0, 4, False)
    cards.end_round_cards_nb(st, 0)  # TR-112: unplayed cards do not stay in hand
    assert st.npile[0, PILE.DRAW] == 0 and st.npile[0, PILE.DISCARD] == 8
    assert cards.draw_hand_nb(st, 0, 4, False) == 4  # the discards were shuffled back
    assert st.npile[0, PILE.DRAW] == 4 and st.npile[0, PILE.DISCARD] == 0


def test_both_piles_empty_draws_what_exists():  # TR-094
    st, tab = state()
    assert cards.draw_hand_nb(st, 0, 10, False) == 8
    assert cards.draw_one_nb(st, 0) == -1


def test_the_ready_slot():  # TR-095, TR-108, TR-109, TR-110, TR-111
    st, tab = state()
    cards.draw_hand_nb(st, 0, 4, False)
    first = pile(st, 0, PILE.HAND)[0]
    cards.ready_card_nb(st, 0, 0)
    assert st.ready[0] == first and st.npile[0, PILE.HAND] == 3
    # a readied card gives nothing this turn: no icon taken, not in the play area
    assert (st.chars[0, CH.AP], st.chars[0, CH.DEF], st.chars[0, CH.HP]) == (0, 0, 3)
    assert st.npile[0, PILE.PLAY] == 0
    cards.end_round_cards_nb(st, 0)
    assert st.ready[0] == first  # stays across turns
    second = pile(st, 0, PILE.DRAW)[-1]
    cards.draw_hand_nb(st, 0, 1, False)
    discards = pile(st, 0, PILE.DISCARD)
    cards.ready_card_nb(st, 0, 0)  # a second card forces the first into the discards
    assert st.ready[0] == second and pile(st, 0, PILE.DISCARD) == discards + [first]
    assert cards.draw_hand_nb(st, 0, 4, True) == 4  # counts toward the hand limit
    assert pile(st, 0, PILE.HAND)[0] == second and st.ready[0] == -1


def test_a_choice_card_gives_one_option_only():  # TR-097, TR-102
    st, tab = state()
    for option_b, ap, de in ((False, 1, 0), (True, 0, 2)):
        st, tab = state()
        st.deck[0, PILE.HAND, 0] = DODGE
        st.npile[0, PILE.HAND] = 1
        st.npile[0, PILE.DRAW] -= 1  # keep the count of cards right
        cards.play_card_nb(st, tab, 0, 0, option_b)
        assert (st.chars[0, CH.AP], st.chars[0, CH.DEF]) == (ap, de)
        assert pile(st, 0, PILE.PLAY) == [DODGE]


def test_health_icons_never_heal_past_the_maximum():  # TR-100
    st, tab = state()
    for _ in range(2):
        st.deck[0, PILE.HAND, 0] = REST
        st.npile[0, PILE.HAND] = 1
        cards.play_card_nb(st, tab, 0, 0, False)
    assert st.chars[0, CH.HP] == 5 and st.chars[0, CH.HEALED] == 2


def test_coin_icons_are_this_turns_money():  # TR-101
    st, tab = state()
    st.deck[0, PILE.HAND, 0] = GUIDE_CARD
    st.npile[0, PILE.HAND] = 1
    cards.play_card_nb(st, tab, 0, 0, False)
    assert st.chars[0, CH.TCOIN] == 3 and st.chars[0, CH.COINS] == 0
    assert st.npile[0, PILE.HAND] == 1  # its draw icon drew a card at once


def test_gained_cards_go_to_the_discard_pile_debuffs_on_top_of_the_draw_pile():  # TR-096, TR-342
    st, tab = state()
    assert cards.gain_card_nb(st, 0, GUIDE_CARD)
    assert pile(st, 0, PILE.DISCARD) == [GUIDE_CARD]
    assert st.supply[SUP.CARDS, GUIDE_CARD] == 2
    assert cards.push_debuff_nb(st, 0, POISON)
    assert pile(st, 0, PILE.DRAW)[-1] == POISON
    assert cards.push_debuff_nb(st, 0, POISON)
    assert not cards.push_debuff_nb(st, 0, POISON)  # the pile of 2 is used up
    assert cards.draw_one_nb(st, 0) == POISON
    assert cards.play_card_nb(st, tab, 0, 0, False) == 1  # a debuff's HURT, data


def test_scrapping_debuffs_returns_them_to_their_pile():  # TR-371, TR-384
    st, tab = state()
    cards.push_debuff_nb(st, 0, POISON)
    cards.push_debuff_nb(st, 0, POISON)
    cards.draw_one_nb(st, 0)
    assert cards.scrap_debuffs_nb(st, tab, 0) == 2
    assert st.supply[SUP.CARDS, POISON] == 2
    assert cards.cards_held_nb(st, 0) == 8


def test_death_puts_hand_play_and_ready_into_the_shuffled_discards():  # TR-292, TR-293
    st, tab = state()
    cards.draw_hand_nb(st, 0, 4, False)
    cards.ready_card_nb(st, 0, 0)
    cards.play_card_nb(st, tab, 0, 0, False)
    cards.discard_all_nb(st, 0)
    assert st.ready[0] == -1 and st.npile[0, PILE.HAND] == 0 and st.npile[0, PILE.PLAY] == 0
    assert st.npile[0, PILE.DISCARD] == 4 and cards.cards_held_nb(st, 0) == 8


# --- plain-Python model of the piles -------------------------------------------------------
class Model:
    """Lists for the piles; the same shuffle (Python) and the same rng draws as the kernels."""

    def __init__(self, st, tab):
        self.tab = tab
        self.draw = pile(st, 0, PILE.DRAW)
        self.discard: list[int] = []
        self.hand: list[int] = []
        self.play: list[int] = []
        self.ready = -1
        self.supply = [int(x) for x in st.supply[SUP.CARDS]]
        self.rng = st.rng.copy()
        self.ap = 0

    def _shuffle(self, cards_):
        arr = np.array(cards_, dtype=np.int16)
        shuffle_nb(arr, len(arr), self.rng)
        return [int(x) for x in arr]

    def draw_one(self):
        if not self.draw:
            if not self.discard:
                return -1
            self.draw = self._shuffle(self.discard)
            self.discard = []
        c = self.draw.pop()
        self.hand.append(c)
        return c

    def draw_hand(self, limit, take):
        got = 0
        if take and self.ready >= 0 and limit > 0:
            self.hand.append(self.ready)
            self.ready = -1
            got = 1
        while got < limit and self.draw_one() >= 0:
            got += 1

    def play_card(self, i, b):
        c = self.hand.pop(i)
        self.play.append(c)
        row = self.tab.cards[c]
        off = CF.AP_B - CF.AP if b and row[CF.CHOICE] else 0
        self.ap += int(row[CF.AP + off])
        for _ in range(int(row[CF.DRAW + off])):
            if self.draw_one() < 0:
                break

    def ready_card(self, i):
        c = self.hand.pop(i)
        if self.ready >= 0:
            self.discard.append(self.ready)
        self.ready = c

    def end_round(self):
        self.discard += self.play + self.hand
        self.play, self.hand = [], []

    def gain(self, c):
        if self.supply[c] > 0 and self.count() < 24:
            self.supply[c] -= 1
            self.discard.append(c)

    def count(self):
        return (
            len(self.draw) + len(self.discard) + len(self.hand) + len(self.play) + (self.ready >= 0)
        )


OPS = hs.lists(
    hs.tuples(hs.integers(0, 5), hs.integers(0, 7), hs.booleans()), min_size=1, max_size=40
)


@settings(max_examples=150, deadline=None)
@given(seed=hs.integers(0, 10_000), ops=OPS)
def test_deck_kernels_match_the_plain_python_model(seed, ops):  # TR-093..112
    st, tab = state(seed)
    m = Model(st, tab)
    for op, x, flag in ops:
        if op == 0:
            cards.draw_hand_nb(st, 0, x % 5, flag)
            m.draw_hand(x % 5, flag)
        elif op == 1 and m.hand:
            i = x % len(m.hand)
            cards.play_card_nb(st, tab, 0, i, flag)
            m.play_card(i, flag)
        elif op == 2 and m.hand:
            i = x % len(m.hand)
            cards.ready_card_nb(st, 0, i)
            m.ready_card(i)
        elif op == 3:
            cards.end_round_cards_nb(st, 0)
            m.end_round()
        elif op == 4:
            cards.gain_card_nb(st, 0, GUIDE_CARD)
            m.gain(GUIDE_CARD)
        elif op == 5:
            cards.draw_one_nb(st, 0)
            m.draw_one()
        assert pile(st, 0, PILE.DRAW) == m.draw
        assert pile(st, 0, PILE.DISCARD) == m.discard
        assert pile(st, 0, PILE.HAND) == m.hand
        assert pile(st, 0, PILE.PLAY) == m.play
        assert int(st.ready[0]) == m.ready
        assert int(st.chars[0, CH.AP]) == m.ap
        assert cards.cards_held_nb(st, 0) == m.count()  # cards conserved
        assert np.array_equal(st.rng, m.rng)


def test_model_check_can_fail():
    # STYLE 8: the model rejects a kernel state that differs
    st, tab = state(3)
    m = Model(st, tab)
    cards.draw_hand_nb(st, 0, 2, False)
    assert pile(st, 0, PILE.HAND) != m.hand
