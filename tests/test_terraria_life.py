"""Terraria inventories, death, respawn and fall damage (``simlib.games.terraria.engine.life``).

Checklist ids (``shared/rules/terraria-checklist.md``) are cited beside each rule tested. The
inventory is checked against a plain-Python model written from the rules (hypothesis).
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from terraria_foes_helpers import GEL, LENS, ORE, SLIME, STONE, WOOD, Game

from simlib.core.rng import randint_nb
from simlib.games.terraria.engine import life
from simlib.games.terraria.engine.movement import T
from simlib.games.terraria.state import AR, CC, CH, FEAT, HA, KIND, OUT, PC, PILE, G, P

FLOOR = [".........", "#########"]


def inv(game, p=0):
    return [tuple(int(v) for v in s) for s in game.st.inv[p]]


# --- inventory ---------------------------------------------------------------------------------
def test_a_slot_holds_five_of_one_type_and_more_needs_more_slots():  # TR-188, TR-189
    g = Game(FLOOR)
    assert life.inventory_add_nb(g.st, 0, WOOD, 7) == 7
    assert inv(g)[:3] == [(WOOD, 5), (WOOD, 2), (0, 0)]
    assert life.inventory_count_nb(g.st, 0, WOOD) == 7
    assert life.inventory_add_nb(g.st, 0, WOOD, 2) == 2  # the part-filled slot first
    assert inv(g)[:3] == [(WOOD, 5), (WOOD, 4), (0, 0)]


def test_only_four_slots_at_the_start_and_bought_slots_count():  # TR-185, TR-186
    g = Game(FLOOR)
    assert life.inventory_add_nb(g.st, 0, STONE, 30) == 20  # 4 slots x 5, the rest declined
    assert inv(g)[4:] == [(0, 0), (0, 0)]
    g.st.chars[0, CH.SLOTS] = 6
    assert life.inventory_add_nb(g.st, 0, STONE, 30) == 10
    assert life.inventory_count_nb(g.st, 0, STONE) == 30


def test_any_slot_takes_any_type_and_an_empty_die_frees_its_slot():  # TR-190, TR-191
    g = Game(FLOOR)
    g.st.inv[0, 0] = (WOOD, 0)  # printed Wood, showing 0: free
    g.st.inv[0, 1] = (GEL, 3)
    assert life.inventory_add_nb(g.st, 0, ORE, 2) == 2
    assert inv(g)[:2] == [(ORE, 2), (GEL, 3)]


def test_a_new_type_replaces_the_type_with_fewest_units_all_its_slots():  # TR-193, TR-194
    g = Game(FLOOR)
    g.st.inv[0, :4] = [(WOOD, 5), (GEL, 1), (STONE, 4), (GEL, 1)]
    assert life.inventory_add_nb(g.st, 0, ORE, 3) == 3  # Gel (2 units in 2 slots) goes
    assert inv(g)[:4] == [(WOOD, 5), (ORE, 3), (STONE, 4), (0, 0)]
    assert life.inventory_count_nb(g.st, 0, GEL) == 0


def test_a_player_declines_a_new_type_that_would_cost_as_much_as_it_brings():  # TR-192
    g = Game(FLOOR)
    g.st.inv[0, :4] = [(WOOD, 5), (GEL, 2), (STONE, 4), (LENS, 5)]
    before = inv(g)
    assert life.inventory_add_nb(g.st, 0, ORE, 2) == 0
    assert inv(g) == before
    # a type already held whose slots are full: the extra is declined, nothing is replaced
    assert life.inventory_add_nb(g.st, 0, LENS, 1) == 0
    assert inv(g) == before


def test_taking_empties_the_smallest_slot_first():
    g = Game(FLOOR)
    g.st.inv[0, :3] = [(WOOD, 5), (WOOD, 2), (GEL, 1)]
    assert life.inventory_take_nb(g.st, 0, WOOD, 3) == 3
    assert inv(g)[:3] == [(WOOD, 4), (0, 0), (GEL, 1)]
    assert life.inventory_take_nb(g.st, 0, WOOD, 9) == 4
    assert life.inventory_count_nb(g.st, 0, WOOD) == 0


class RefInventory:
    """The inventory rules on a list of [type, units] slots (module docstring of ``life``)."""

    def __init__(self, slots, n):
        self.s = [list(x) for x in slots]
        self.n = n

    def count(self, t):
        return sum(u for typ, u in self.s[: self.n] if typ == t and u > 0)

    def add(self, t, n):
        if n <= 0:
            return 0
        left = n
        had = self.count(t) > 0
        for s in self.s[: self.n]:
            if s[0] == t and s[1] > 0:
                put = min(5 - s[1], left)
                s[1] += put
                left -= put
        for s in self.s[: self.n]:
            if s[1] <= 0 and left:
                s[0], s[1] = t, min(5, left)
                left -= s[1]
        if had or left < n:
            return n - left
        counts = [(self.count(s[0]), i, s[0]) for i, s in enumerate(self.s[: self.n])]
        lost, _, worst = min(counts)
        if lost >= n:
            return 0
        for s in self.s[: self.n]:
            if s[0] == worst:
                s[0], s[1] = 0, 0
        for s in self.s[: self.n]:
            if s[1] <= 0 and left:
                s[0], s[1] = t, min(5, left)
                left -= s[1]
        return n - left

    def take(self, t, n):
        left = n
        while left:
            cands = [(s[1], i) for i, s in enumerate(self.s[: self.n]) if s[0] == t and s[1] > 0]
            if not cands:
                break
            u, i = min(cands)
            k = min(u, left)
            self.s[i][1] -= k
            left -= k
            if self.s[i][1] == 0:
                self.s[i][0] = 0
        return n - left


@settings(max_examples=150, deadline=None)
@given(
    st.integers(4, 6),
    st.lists(st.tuples(st.booleans(), st.integers(1, 6), st.integers(0, 8)), max_size=25),
)
def test_inventory_kernels_agree_with_the_reference(n_slots, ops):
    g = Game(FLOOR)
    g.st.chars[0, CH.SLOTS] = n_slots
    ref = RefInventory(inv(g), n_slots)
    for take, t, n in ops:
        if take:
            assert life.inventory_take_nb(g.st, 0, t, n) == ref.take(t, n)
        else:
            assert life.inventory_add_nb(g.st, 0, t, n) == ref.add(t, n)
        assert inv(g) == [tuple(s) for s in ref.s]
        assert all(0 <= u <= 5 for _, u in ref.s)


def test_coins_stop_at_25_and_the_excess_is_lost():  # TR-195, TR-196
    g = Game(FLOOR)
    g.st.chars[0, CH.COINS] = 22
    assert life.add_coins_nb(g.st, 0, 5) == 3
    assert g.st.chars[0, CH.COINS] == 25


# --- death -------------------------------------------------------------------------------------
def dying_game(tombs=2):
    g = Game(FLOOR, tombs=tombs)
    g.character(0, 0, 2, hp=1)
    g.character(1, 0, 5)
    st = g.st
    for pile, cards in ((PILE.DRAW, [0, 0]), (PILE.HAND, [1, 2]), (PILE.PLAY, [3]),
                        (PILE.DISCARD, [4, 4, 0])):  # fmt: skip
        st.deck[0, pile, : len(cards)] = cards
        st.npile[0, pile] = len(cards)
    st.ready[0] = 2
    st.chars[0, CH.COINS] = 7
    st.chars[0, CH.MINION] = 1
    st.chars[0, CH.WEAPON] = 3
    st.chars[0, CH.ARMOR] = 0
    st.chars[0, CH.MAXHP] = 7
    st.chars[0, CH.AP] = 2
    st.inv[0, 0] = (WOOD, 4)
    return g


def test_death_follows_the_steps():  # TR-290, TR-291, TR-292, TR-293, TR-294, TR-295, TR-363
    g = dying_game()
    st = g.st
    r, c = int(st.pieces[0, PC.ROW]), int(st.pieces[0, PC.COL])
    assert life.die_nb(st, g.tab, 0) == 0
    assert st.pieces[0, PC.KIND] == KIND.NONE and st.grid[P.OCC, r, c] == 0  # off the world
    assert st.chars[0, CH.IN_WORLD] == 0 and st.chars[0, CH.HP] == 0
    assert st.npile[0, PILE.HAND] == 0 and st.npile[0, PILE.PLAY] == 0 and st.ready[0] == -1
    discard = sorted(st.deck[0, PILE.DISCARD, : st.npile[0, PILE.DISCARD]].tolist())
    assert discard == sorted([4, 4, 0, 1, 2, 3, 2])
    assert list(st.deck[0, PILE.DRAW, :2]) == [0, 0] and st.npile[0, PILE.DRAW] == 2
    assert st.chars[0, CH.COINS] == 4  # 7 coins: loses 3
    assert st.g[G.TOMBS] == 1  # one tombstone taken from the pool
    assert st.chars[0, CH.MINION] == -1  # the minion card is discarded
    assert st.chars[0, CH.AP] == 0
    assert st.g[G.DIED] == 1 and st.chars[0, CH.DEATHS] == 1
    assert st.g[G.OVER] == OUT.PLAYING


def test_the_death_shuffle_mixes_the_discard_pile():  # TR-292
    orders = set()
    for seed in range(12):
        g = dying_game()
        g.st.rng[:] = np.random.default_rng(seed).integers(1, 2**63, 4, dtype=np.uint64)
        life.die_nb(g.st, g.tab, 0)
        orders.add(tuple(g.st.deck[0, PILE.DISCARD, :7].tolist()))
    assert len(orders) > 6  # 7 cards (two pairs): 1260 orders; 12 shuffles repeat rarely


def test_a_dead_character_keeps_its_equipment_inventory_deck_and_maximum():  # TR-297
    g = dying_game()
    life.die_nb(g.st, g.tab, 0)
    st = g.st
    assert st.chars[0, CH.WEAPON] == 3 and st.chars[0, CH.ARMOR] == 0
    assert st.chars[0, CH.MAXHP] == 7 and inv(g)[0] == (WOOD, 4)
    assert st.npile[0].sum() == 9  # every card still owned


def test_a_death_with_no_tombstone_left_ends_the_game():  # TR-296, TR-427
    g = dying_game(tombs=0)
    assert life.die_nb(g.st, g.tab, 0) == 1
    assert g.st.g[G.OVER] == OUT.OUT_OF_RESPAWNS


def test_journey_deaths_never_end_the_game():  # TR-430
    g = dying_game(tombs=-1)
    for _ in range(3):
        assert life.die_nb(g.st, g.tab, 0) == 0
        g.st.chars[0, CH.IN_WORLD] = 1  # as if respawned (the piece is not needed here)
    assert g.st.g[G.OVER] == OUT.PLAYING and g.st.g[G.TOMBS] == -1


def test_a_dead_character_cannot_die_again():  # TR-298
    g = dying_game()
    life.die_nb(g.st, g.tab, 0)
    assert life.die_nb(g.st, g.tab, 0) == 0
    assert g.st.g[G.TOMBS] == 1 and g.st.chars[0, CH.DEATHS] == 1


def test_a_stack_on_a_dying_character_falls():  # TR-137, TR-291
    g = Game([".", ".", ".", ".", "#"], left=31)
    g.character(0, 3, 0, hp=1)
    g.character(1, 0, 0)  # falls onto character 0 and stands on it
    assert g.where(1) == (2, 0)
    g.st.tally[T.FALLS] = 0
    life.die_nb(g.st, g.tab, 0)
    assert g.st.tally[T.FALLS] == 1 and g.where(1) == (3, 0)
    assert list(g.st.falls[0]) == [1, 1, 0]
    assert life.resolve_falls_nb(g.st, g.tab, 0) == 1  # 1 square: no roll, no harm
    assert g.st.chars[1, CH.FALLS] == 1 and g.st.chars[1, CH.HP] == 5


def test_fall_damage_to_zero_kills_at_once():  # TR-133
    for seed in range(40):
        g = Game([".", ".", ".", ".", ".", "#"], left=31, seed=seed)
        g.character(0, 4, 0, hp=1)
        g.st.tally[T.FALLS] = 0
        g.st.falls[0] = (0, 5, 0)  # a 5-square fall: a d4 always totals at most 5
        g.st.tally[T.FALLS] = 1
        assert life.resolve_falls_nb(g.st, g.tab, 0) == 1
        assert g.st.chars[0, CH.HP] == 0 and g.st.chars[0, CH.IN_WORLD] == 0
        assert g.st.chars[0, CH.FALL_DMG] == 1 and g.st.chars[0, CH.DEATHS] == 1


def test_no_fall_damage_when_the_mode_ignores_it_or_into_a_cobweb():  # TR-130, TR-435, TR-436
    g = Game([".", ".", ".", ".", ".", "#"], left=31)
    g.character(0, 4, 0, hp=1)
    g.st.falls[0] = (0, 5, 1)  # ends in a cobweb
    g.st.tally[T.FALLS] = 1
    life.resolve_falls_nb(g.st, g.tab, 0)
    assert g.st.chars[0, CH.HP] == 1
    g.st.g[G.FALL_DAMAGE] = 0
    g.st.falls[1] = (0, 5, 0)
    g.st.tally[T.FALLS] = 2
    life.resolve_falls_nb(g.st, g.tab, 1)
    assert g.st.chars[0, CH.HP] == 1 and g.st.chars[0, CH.FALLS] == 2


def ref_falls(g, events):
    """Fall damage from the rulebook, on copies: what the kernel should leave.

    Rulebook, Fall Damage: a fall of more than 1 square rolls the defence dice of the worn
    armor set, else of the character card, and a total at most the squares fallen loses 1
    health; a fall ending in a cobweb never hurts; modes may ignore fall damage. Dice come
    from a copy of the game's generator, one draw per die in order (the roll ``movement.
    fall_hurts_nb`` documents). Decks are empty, so a death shuffles nothing.
    """
    st, tab = g.st, g.tab
    rng = st.rng.copy()
    hp = [int(x) for x in st.chars[:, CH.HP]]
    alive = [bool(x) for x in st.chars[:, CH.IN_WORLD]]
    falls, hurt = [0] * 4, [0] * 4
    tombs, over = int(st.g[G.TOMBS]), int(st.g[G.OVER])
    for k, squares, cobweb in events:
        if over or not alive[k]:
            continue
        falls[k] += 1
        if not st.g[G.FALL_DAMAGE] or cobweb or squares <= 1:
            continue
        a = int(st.chars[k, CH.ARMOR])
        if a >= 0:
            dice = tab.armor[a, AR.DEF0 : AR.DEF0 + tab.armor[a, AR.NDEF]]
        else:
            c = int(st.chars[k, CH.CARD])
            dice = tab.characters[c, CC.DEF0 : CC.DEF0 + tab.characters[c, CC.NDEF]]
        total = sum(int(randint_nb(int(d), rng)) + 1 for d in dice)
        if total <= squares:
            hp[k] -= 1
            hurt[k] += 1
            if hp[k] == 0:
                alive[k] = False
                if tombs == 0:
                    over = OUT.OUT_OF_RESPAWNS
                else:
                    tombs -= 1
    return hp, alive, falls, hurt, tombs, over, rng


def test_fall_damage_matches_the_printed_rule():  # TR-127, TR-128, TR-129, TR-130, TR-133
    # random fall events (squares 0..9, cobweb landings, 4 characters with and without
    # armor, fall damage on or off) against the rule read in plain Python, same dice
    seen = set()
    for seed in range(60):
        pick = np.random.default_rng(seed)
        g = Game(FLOOR, seed=seed, tombs=int(pick.integers(0, 3)))
        g.st.g[G.FALL_DAMAGE] = int(pick.random() < 0.85)
        for p in range(4):
            g.character(p, 0, 2 * p, hp=int(pick.integers(1, 4)), card=int(pick.integers(0, 2)),
                        armor=int(pick.integers(-1, 2)))  # fmt: skip
        events = [
            (int(pick.integers(0, 4)), int(pick.integers(0, 10)), int(pick.random() < 0.2))
            for _ in range(int(pick.integers(1, 12)))
        ]
        g.st.tally[T.FALLS] = len(events)
        for i, e in enumerate(events):
            g.st.falls[i] = e
        hp, alive, falls, hurt, tombs, over, rng = ref_falls(g, events)
        assert life.resolve_falls_nb(g.st, g.tab, 0) == len(events)
        st = g.st
        assert st.chars[:, CH.HP].tolist() == hp, seed
        assert [bool(x) for x in st.chars[:, CH.IN_WORLD]] == alive
        assert st.chars[:, CH.FALLS].tolist() == falls
        assert st.chars[:, CH.FALL_DMG].tolist() == hurt
        assert (st.g[G.TOMBS], st.g[G.OVER]) == (tombs, over)
        np.testing.assert_array_equal(st.rng, rng)
        seen.update(("hurt" if sum(hurt) else "unhurt", "death" if not all(alive) else "alive"))
    assert seen == {"hurt", "unhurt", "death", "alive"}


# --- respawn -----------------------------------------------------------------------------------
SURFACE = ["." * 18] * 4 + ["#" * 18]  # the three Surface Forest tiles (tile columns 7..9)


def test_respawn_on_a_free_butterfly_of_the_central_tile_at_full_health():
    # TR-299, TR-302
    g = Game(SURFACE + ["#" * 18] * 5, top=0, left=42)
    bf = [g.sq(3, 7), g.sq(3, 9)]
    for r, c in bf:
        g.st.grid[P.FEAT, r, c] |= FEAT.BUTTERFLY
    g.character(1, 3, 7)  # the first butterfly is taken
    g.st.chars[0, CH.MAXHP] = 6
    g.st.chars[0, CH.MANA] = 1
    g.st.chars[0, CH.MAXMANA] = 3
    assert life.respawn_nb(g.st, g.tab, 0) == 0
    assert g.where(0) == (3, 9)
    assert g.st.chars[0, CH.HP] == 6 and g.st.chars[0, CH.IN_WORLD] == 1
    assert g.st.chars[0, CH.MANA] == 1  # mana unchanged
    assert g.st.grid[P.OCC, bf[1][0], bf[1][1]] == 1
    assert life.respawn_nb(g.st, g.tab, 0) == -1  # already in the world


def test_respawn_anywhere_free_on_the_surface_forest_without_butterflies():  # TR-300
    g = Game(SURFACE + ["#" * 18] * 5, top=0, left=42)
    g.character(1, 3, 0)
    assert life.respawn_nb(g.st, g.tab, 0) == 0
    assert g.where(0) == (3, 1)  # the first free square standing on a surface


def test_respawn_in_the_deepest_bed_house():  # TR-256, TR-299
    pocket = "#" * 10 + "..." + "#" * 5  # a dug room for a house, rows 7 and 8
    g = Game(SURFACE + ["#" * 18] * 2 + [pocket] * 2 + ["#" * 18], top=0, left=42)
    r, c = g.sq(3, 7)
    g.st.grid[P.FEAT, r, c] |= FEAT.BUTTERFLY
    g.st.house_at[0] = (0, 7, 52, -1)  # a workbench house as deep does not count
    g.st.house_at[1] = (1, 2, 44, -1)  # bed house, bottom row 3
    g.st.house_at[2] = (1, 7, 52, -1)  # bed house, bottom row 8 (deeper)
    g.character(1, 8, 10)  # (row 8, col 52): its first square is taken
    assert life.respawn_nb(g.st, g.tab, 0) == 0
    assert g.where(0) == (8, 11)
    assert g.st.house_at[2, HA.ID] == 1
    g.st.house_at[2] = -1  # without it: the shallower bed house, bottom row first
    g.st.chars[2, CH.MAXHP] = 5
    assert life.respawn_nb(g.st, g.tab, 2) == 2
    assert g.where(2) == (3, 2)


def test_no_respawn_once_the_game_is_over():
    g = Game(SURFACE, top=0, left=42)
    g.st.g[G.OVER] = OUT.OUT_OF_RESPAWNS
    assert life.respawn_nb(g.st, g.tab, 0) == -1


def test_defence_dice_come_from_the_armor_else_the_character_card():  # TR-215, TR-284
    g = Game(FLOOR)
    g.st.chars[0, CH.CARD] = 1
    assert life.defence_dice_nb(g.st, g.tab, 0).tolist() == [6]
    g.st.chars[0, CH.ARMOR] = 0
    assert life.defence_dice_nb(g.st, g.tab, 0).tolist() == [6, 4]


def test_helpers_reject_unequal_inventories():  # the reference comparison can fail
    g = Game(FLOOR)
    ref = RefInventory(inv(g), 4)
    ref.add(SLIME + 1, 2)
    assert inv(g) != [tuple(s) for s in ref.s]
