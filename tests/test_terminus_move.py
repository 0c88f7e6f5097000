"""The Drakka advance-and-draw kernels against a plain-Python reading of the rules.

Random paths (1 to 16 squares), random Drakka on them (ground, flying, bosses, with Slow,
Poison, Apathy and damage) and random Battle decks; the reference below is written from
the rulebook's Advance and Draw phases (TB-066..089, TB-183..187), not from the kernel: it
keeps a plain list of Drakka and finds occupants by scanning it.
"""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from simlib.games.terminus import move
from simlib.games.terminus.state import DKC, GSC, PLC, WHERE, alloc

SLOW_DOWN = np.array([0, 0, 1, 2, 3], np.int32)  # TB-189 default ladder 4 -> 3 -> 2 -> 1 -> 0
BIG = 10**9


# --- the reference ------------------------------------------------------------------------
def ref_open(drakka, q, me):
    for o in drakka:
        if o is me or o["where"] != "path" or o["pos"] != q:
            continue
        if me["boss"] or o["boss"] or o["fly"] == me["fly"]:
            return False
    return True


def ref_move(drakka, me, speed, length, tally):
    p = me["pos"]
    if speed > length - 1 - p:
        me["where"], me["pos"] = "leaked", -1
        tally["panic"] += me["threat"]
        tally["leaks"] += 1
        return
    for q in range(p + speed, p, -1):
        if ref_open(drakka, q, me):
            me["pos"], me["where"] = q, "path"
            return
    if p < 0:
        if me["boss"]:
            me["where"] = "waiting"
        else:
            me["where"] = "trampled"
            tally["trampled"] += 1


def ref_advance(drakka, length, slow_down, credit, tally):
    order = sorted((o for o in drakka if o["where"] == "path"),
                   key=lambda o: (-o["pos"], o["fly"]))
    for me in order:
        if me["poison"]:
            me["dmg"] += me["poison"]
            if me["dmg"] >= me["tough"]:
                me["where"], me["pos"] = "dead", -1
                me["killer"] = me["poison_src"] if credit else -1
                me["poison"] = me["slow"] = me["apathy"] = 0  # a dead card keeps no tokens
                tally["kills"] += 1
                continue
        speed = me["speed"] + me["haste"]
        if me["slow"]:
            speed = max(1, speed - me["slow"])
            me["slow"] = slow_down[me["slow"]]
        if me["apathy"]:
            speed = 1
            me["apathy"] = 0
        me["haste"] = 0
        ref_move(drakka, me, speed, length, tally)


def ref_draw(drakka, deck, n_draw, boss, length, tally):
    if boss is not None:
        boss["pos"] = -1
        ref_move(drakka, boss, boss["speed"], length, tally)
    for me in deck[:n_draw]:
        me["pos"] = -1
        ref_move(drakka, me, me["speed"], length, tally)


# --- random situations --------------------------------------------------------------------
@st.composite
def situations(draw):
    length = draw(st.integers(1, 16))
    on_path = []
    for q in range(length):
        kind = draw(st.sampled_from(["", "", "g", "f", "gf", "boss"]))
        for k in ("g", "f") if kind != "boss" else ("b",):
            if k not in kind and kind != "boss":
                continue
            on_path.append(dict(
                pos=q, fly=int(k == "f"), boss=int(k == "b"), where="path",
                speed=draw(st.integers(1, 7)), tough=draw(st.integers(1, 12)),
                dmg=draw(st.integers(0, 5)), poison=draw(st.sampled_from([0, 0, 1, 3, 10])),
                slow=draw(st.sampled_from([0, 0, 1, 2, 3, 4])),
                apathy=int(k != "b" and draw(st.booleans())), haste=draw(st.sampled_from(
                    [0, 0, 0, 2])) if k == "b" else 0,
                threat=draw(st.integers(1, 4)), poison_src=draw(st.integers(0, 3)), killer=-1))
    n_deck = draw(st.integers(0, 14))
    deck = [dict(pos=-1, fly=int(draw(st.booleans())), boss=0, where="deck",
                 speed=draw(st.integers(1, 18)), tough=5, dmg=0, poison=0, slow=0, apathy=0,
                 haste=0, threat=draw(st.integers(1, 4)), poison_src=0, killer=-1)
            for _ in range(n_deck)]
    boss = None
    if draw(st.booleans()):
        boss = dict(pos=-1, fly=int(draw(st.booleans())), boss=1, where="deck",
                    speed=draw(st.integers(1, 6)), tough=50, dmg=0, poison=0, slow=0, apathy=0,
                    haste=0, threat=5, poison_src=0, killer=-1)
    n_draw = draw(st.integers(0, n_deck + 2))
    credit = draw(st.integers(0, 1))
    return length, on_path, deck, boss, n_draw, credit


def build(length, on_path, deck, boss):
    dk, occ, tw, bl, pl, hand, fdeck, deck_arr, gs, scr = alloc()
    everyone = on_path + deck + ([boss] if boss is not None else [])
    where = {"path": WHERE.PATH, "deck": WHERE.DECK}
    for d, o in enumerate(everyone):
        dk[d, DKC.WHERE] = where[o["where"]]
        dk[d, DKC.POS] = -1
        for key, col in (("fly", DKC.FLY), ("boss", DKC.BOSS), ("speed", DKC.SPEED),
                         ("tough", DKC.TOUGH), ("dmg", DKC.DMG), ("poison", DKC.POISON),
                         ("slow", DKC.SLOW), ("apathy", DKC.APATHY), ("haste", DKC.HASTE),
                         ("threat", DKC.THREAT), ("poison_src", DKC.POISON_SRC)):
            dk[d, col] = o[key]
        if o["where"] == "path":
            move.put_nb(dk, occ, d, o["pos"])
    for k in range(len(deck)):
        deck_arr[k] = len(on_path) + k
    gs[GSC.DECK_N] = len(deck)
    gs[GSC.DRAW_PTR] = 0
    gs[GSC.BATTLE] = 1
    gs[GSC.BOSS_WAIT] = -1
    gs[GSC.FIRST_LEAK_WAVE] = -1
    gs[GSC.N_DRAKKA] = len(everyone)
    return dk, occ, pl, gs, deck_arr, everyone


def check_occupancy(dk, occ, n, length):
    """Occupancy is never violated and ``occ`` agrees with the Drakka table (TB-068..070)."""
    seen = {}
    for d in range(n):
        if dk[d, DKC.WHERE] != WHERE.PATH:
            assert dk[d, DKC.POS] == -1
            continue
        q = int(dk[d, DKC.POS])
        assert 0 <= q < length
        kinds = (0, 1) if dk[d, DKC.BOSS] else (int(dk[d, DKC.FLY]),)
        for k in kinds:
            assert (q, k) not in seen, "two Drakka of one kind share a square"  # TB-068/069
            seen[(q, k)] = d
            assert occ[k, q] == d
    for k in range(2):
        for q in range(length):
            if occ[k, q] >= 0:
                assert seen.get((q, k)) == occ[k, q]


CODES = {WHERE.PATH: "path", WHERE.LEAKED: "leaked", WHERE.TRAMPLED: "trampled",
         WHERE.DEAD: "dead", WHERE.DECK: "deck", WHERE.WAITING: "waiting"}


@settings(max_examples=400, deadline=None)
@given(situations())
def test_advance_and_draw_match_the_reference(sit):
    # TB-066 TB-067 TB-071 TB-072 TB-073 TB-074 TB-075 TB-076 TB-086 TB-087 TB-089 TB-153
    length, on_path, deck, boss, n_draw, credit = sit
    dk, occ, pl, gs, deck_arr, everyone = build(length, on_path, deck, boss)
    n = len(everyone)
    check_occupancy(dk, occ, n, length)
    move.advance_all_nb(dk, occ, pl, gs, length, SLOW_DOWN, 0, credit, BIG)
    check_occupancy(dk, occ, n, length)
    boss_row = n - 1 if boss is not None else -1
    drawn = move.draw_moves_nb(dk, occ, gs, deck_arr, n_draw, boss_row, length, BIG)
    check_occupancy(dk, occ, n, length)
    assert drawn == min(n_draw, len(deck))  # TB-088

    tally = dict(panic=0, leaks=0, trampled=0, kills=0)
    ref_advance(everyone, length, SLOW_DOWN, credit, tally)
    ref_draw(everyone, deck, n_draw, boss, length, tally)
    for d, o in enumerate(everyone):
        assert CODES[int(dk[d, DKC.WHERE])] == o["where"], (d, o)
        assert dk[d, DKC.POS] == o["pos"], (d, o)
        assert dk[d, DKC.DMG] == o["dmg"] and dk[d, DKC.SLOW] == o["slow"]
        assert dk[d, DKC.APATHY] == o["apathy"] and dk[d, DKC.HASTE] == o["haste"]
        if o["where"] == "dead":
            assert dk[d, DKC.KILLER] == o["killer"]  # TB-077
    assert gs[GSC.PANIC] == tally["panic"] and gs[GSC.LEAKS] == tally["leaks"]  # TB-033
    assert gs[GSC.TRAMPLED] == tally["trampled"] and gs[GSC.KILLS] == tally["kills"]
    # conservation: every card is in exactly one pile, and the piles add up
    piles = np.bincount(dk[:n, DKC.WHERE], minlength=10)
    assert piles.sum() == n
    assert piles[WHERE.LEAKED] == tally["leaks"] and piles[WHERE.TRAMPLED] == tally["trampled"]
    assert piles[WHERE.DEAD] == tally["kills"]
    assert piles[WHERE.DECK] == len(deck) - drawn
    assert (piles[WHERE.PATH] + piles[WHERE.LEAKED] + piles[WHERE.TRAMPLED] + piles[WHERE.DEAD]
            + piles[WHERE.DECK] + piles[WHERE.WAITING]) == n
    # credited poison kills are in the poisoner's tally
    if credit:
        for s in range(4):
            assert pl[s, PLC.KILLS] == sum(1 for o in everyone if o["killer"] == s)


@settings(max_examples=300, deadline=None)
@given(situations())
def test_trample_exactly_when_no_square_is_open(sit):
    # TB-087: drawn one by one; before each entry, look at the squares within its Speed
    length, on_path, deck, boss, n_draw, credit = sit
    dk, occ, pl, gs, deck_arr, everyone = build(length, on_path, deck, None)
    n = len(everyone)
    for k in range(len(deck)):
        d = int(deck_arr[k])
        s = int(dk[d, DKC.SPEED])
        fly = int(dk[d, DKC.FLY])
        before = occ.copy()
        move.draw_moves_nb(dk, occ, gs, deck_arr, 1, -1, length, BIG)
        blocked = s <= length and all(before[fly, q] >= 0 for q in range(s))
        assert (dk[d, DKC.WHERE] == WHERE.TRAMPLED) == blocked
        if s > length:
            assert dk[d, DKC.WHERE] == WHERE.LEAKED
        elif not blocked:
            # TB-072: the furthest open square within reach, passing occupied ones (TB-071)
            q = int(dk[d, DKC.POS])
            assert before[fly, q] < 0
            assert all(before[fly, r] >= 0 for r in range(q + 1, s))
        check_occupancy(dk, occ, n, length)


def _one(length, placed, speed_of=None):
    """Build a hand-made path: ``placed`` is a list of (pos, fly, boss, speed)."""
    on_path = [dict(pos=p, fly=f, boss=b, where="path", speed=s, tough=10, dmg=0, poison=0,
                    slow=0, apathy=0, haste=0, threat=2, poison_src=0, killer=-1)
               for p, f, b, s in placed]
    return build(length, on_path, [], None)


def test_leap_frog_to_the_furthest_unoccupied_square():
    # TB-071 TB-072: a ground Drakka at 0 (speed 4) passes the ones at 1..3 and stops at 4;
    # with 4 taken by a ground Drakka it stops at 3 only if 3 is free, else further back
    dk, occ, pl, gs, _, _ = _one(10, [(0, 0, 0, 4), (2, 0, 0, 1), (4, 0, 0, 1)])
    move.advance_all_nb(dk, occ, pl, gs, 10, SLOW_DOWN, 0, 1, BIG)
    # front-most first (TB-066): 4 -> 5, 2 -> 3, then 0 -> 4 (furthest free within 4)
    assert list(dk[:3, DKC.POS]) == [4, 3, 5]


def test_two_flyers_never_share_a_square():
    # TB-069 TB-071 TB-072: the flying twin of the leap-frog test: a flyer at 0 (Speed 5)
    # passes the flyers at 2 and 4 (after they moved to 3 and 5) and stops on 4, the
    # furthest square within 5 without a flyer: not on the flyer at 5, and a ground Drakka
    # on 4 does not push it back (TB-070)
    dk, occ, pl, gs, _, _ = _one(10, [(0, 1, 0, 5), (2, 1, 0, 1), (4, 1, 0, 1), (3, 0, 0, 1)])
    move.advance_all_nb(dk, occ, pl, gs, 10, SLOW_DOWN, 0, 1, BIG)
    assert list(dk[:4, DKC.POS]) == [4, 3, 5, 4]
    # a flyer whose Speed reaches only squares holding flyers stays where it is (TB-073)
    dk, occ, pl, gs, _, _ = _one(4, [(0, 1, 0, 2), (1, 1, 0, 9), (2, 1, 0, 9)])
    r = move.advance_one_nb(dk, occ, pl, gs, 0, 4, SLOW_DOWN, 0, 1)
    assert r == move.STAYED and dk[0, DKC.POS] == 0


def test_front_most_moves_first():
    # TB-066: the back Drakka sees the square the front one left
    dk, occ, pl, gs, _, _ = _one(10, [(0, 0, 0, 2), (2, 0, 0, 1)])
    move.advance_all_nb(dk, occ, pl, gs, 10, SLOW_DOWN, 0, 1, BIG)
    assert list(dk[:2, DKC.POS]) == [2, 3]


def test_ground_and_flying_share_a_square_but_not_with_a_boss():
    # TB-068 TB-069 TB-070 TB-160 TB-161
    dk, occ, pl, gs, _, _ = _one(10, [(0, 0, 0, 3), (1, 1, 0, 2), (5, 0, 1, 1)])
    move.advance_all_nb(dk, occ, pl, gs, 10, SLOW_DOWN, 0, 1, BIG)
    # boss 5 -> 6; flying 1 -> 3; ground 0 -> 3 (shares with the flyer)
    assert list(dk[:3, DKC.POS]) == [3, 3, 6]
    # a ground Drakka cannot stop on the boss's square; a boss needs an empty square
    dk, occ, pl, gs, _, _ = _one(10, [(5, 0, 1, 1), (4, 0, 0, 2), (3, 1, 0, 3)])
    move.advance_all_nb(dk, occ, pl, gs, 10, SLOW_DOWN, 0, 1, BIG)
    assert dk[0, DKC.POS] == 6
    assert dk[1, DKC.POS] == 5  # 6 holds the boss
    assert dk[2, DKC.POS] == 5  # flying: 6 is the boss's, 5 holds only a ground Drakka
    dk, occ, pl, gs, _, _ = _one(10, [(1, 0, 1, 2), (3, 1, 0, 0)])
    dk[1, DKC.SPEED] = 1
    dk[1, DKC.POS] = 3
    move.advance_all_nb(dk, occ, pl, gs, 10, SLOW_DOWN, 0, 1, BIG)
    assert dk[1, DKC.POS] == 4 and dk[0, DKC.POS] == 3


def test_blocked_drakka_stays_and_leaks_raise_panic_by_threat():
    # TB-073: nothing open ahead -> stays; TB-074: speed > squares ahead -> leaks
    dk, occ, pl, gs, _, _ = _one(3, [(0, 0, 0, 2), (1, 0, 0, 0), (2, 0, 0, 0)])
    dk[1, DKC.SPEED] = 1
    dk[2, DKC.SPEED] = 1
    # front-most first: 2 leaks (speed 1 > 0 squares ahead), 1 -> 2, 0 -> 1
    move.advance_all_nb(dk, occ, pl, gs, 3, SLOW_DOWN, 0, 1, BIG)
    assert dk[2, DKC.WHERE] == WHERE.LEAKED and gs[GSC.PANIC] == 2 and gs[GSC.LEAKS] == 1
    assert list(dk[:2, DKC.POS]) == [1, 2]
    dk, occ, pl, gs, _, _ = _one(3, [(0, 0, 0, 2), (1, 0, 0, 9), (2, 0, 0, 9)])
    occ_before = occ.copy()
    r = move.advance_one_nb(dk, occ, pl, gs, 0, 3, SLOW_DOWN, 0, 1)
    assert r == move.STAYED and dk[0, DKC.POS] == 0
    np.testing.assert_array_equal(occ, occ_before)


def test_exactly_at_the_last_square_does_not_leak():
    # TB-074: only a Speed greater than the squares ahead gets through
    dk, occ, pl, gs, _, _ = _one(5, [(1, 0, 0, 3)])
    move.advance_all_nb(dk, occ, pl, gs, 5, SLOW_DOWN, 0, 1, BIG)
    assert dk[0, DKC.POS] == 4 and gs[GSC.LEAKS] == 0
    move.advance_all_nb(dk, occ, pl, gs, 5, SLOW_DOWN, 0, 1, BIG)
    assert dk[0, DKC.WHERE] == WHERE.LEAKED and gs[GSC.PANIC] == 2


def test_slow_minimum_one_then_downgrade_and_apathy():
    # TB-186 TB-187 TB-189: speed 3, Slow 4 -> moves 1, token 3; next: 3-3 -> 1, token 2
    dk, occ, pl, gs, _, _ = _one(20, [(0, 0, 0, 3)])
    dk[0, DKC.SLOW] = 4
    move.advance_all_nb(dk, occ, pl, gs, 20, SLOW_DOWN, 0, 1, BIG)
    assert dk[0, DKC.POS] == 1 and dk[0, DKC.SLOW] == 3
    move.advance_all_nb(dk, occ, pl, gs, 20, SLOW_DOWN, 0, 1, BIG)
    assert dk[0, DKC.POS] == 2 and dk[0, DKC.SLOW] == 2
    move.advance_all_nb(dk, occ, pl, gs, 20, SLOW_DOWN, 0, 1, BIG)
    assert dk[0, DKC.POS] == 3 and dk[0, DKC.SLOW] == 1
    move.advance_all_nb(dk, occ, pl, gs, 20, SLOW_DOWN, 0, 1, BIG)
    assert dk[0, DKC.POS] == 5 and dk[0, DKC.SLOW] == 0
    # the 4 -> 2 -> 1 ladder (TB-189 alternative)
    alt = np.array([0, 0, 1, 0, 2], np.int32)
    dk[0, DKC.SLOW] = 4
    move.advance_all_nb(dk, occ, pl, gs, 20, alt, 0, 1, BIG)
    assert dk[0, DKC.SLOW] == 2
    # TB-153/154: Apathy -> speed 1 whatever the Slow, which is still downgraded
    dk[0, DKC.APATHY] = 1
    dk[0, DKC.SPEED] = 6
    p = dk[0, DKC.POS]
    move.advance_all_nb(dk, occ, pl, gs, 20, SLOW_DOWN, 0, 1, BIG)
    assert dk[0, DKC.POS] == p + 1 and dk[0, DKC.SLOW] == 1 and dk[0, DKC.APATHY] == 0


def test_poison_once_per_advance_and_kills_before_moving():
    # TB-183 TB-184 TB-076 TB-077
    dk, occ, pl, gs, _, _ = _one(4, [(3, 0, 0, 5)])
    dk[0, DKC.POISON] = 3
    dk[0, DKC.POISON_SRC] = 2
    dk[0, DKC.TOUGH] = 3
    move.advance_all_nb(dk, occ, pl, gs, 4, SLOW_DOWN, 0, 1, BIG)
    assert dk[0, DKC.WHERE] == WHERE.DEAD and gs[GSC.PANIC] == 0  # killed, did not leak
    assert dk[0, DKC.KILLER] == 2 and dk[0, DKC.FACEUP] == 1 and pl[2, PLC.KILLS] == 1
    dk, occ, pl, gs, _, _ = _one(20, [(0, 0, 0, 5)])
    dk[0, DKC.POISON] = 1
    for k in range(3):
        move.advance_all_nb(dk, occ, pl, gs, 20, SLOW_DOWN, 0, 1, BIG)
        assert dk[0, DKC.DMG] == k + 1 and dk[0, DKC.POISON] == 1  # no wearing off
    # TB-030 alternative: damage must exceed Toughness
    dk, occ, pl, gs, _, _ = _one(20, [(0, 0, 0, 5)])
    dk[0, DKC.POISON] = 10
    move.advance_all_nb(dk, occ, pl, gs, 20, SLOW_DOWN, 1, 0, BIG)
    assert dk[0, DKC.WHERE] == WHERE.PATH
    move.advance_all_nb(dk, occ, pl, gs, 20, SLOW_DOWN, 1, 0, BIG)
    assert dk[0, DKC.WHERE] == WHERE.DEAD and dk[0, DKC.KILLER] == -1


def test_boss_waits_off_the_path_rather_than_being_trampled():
    # TB-089 TB-085: every square within the boss's Speed holds a Drakka
    on_path = [dict(pos=q, fly=1, boss=0, where="path", speed=1, tough=9, dmg=0, poison=0,
                    slow=0, apathy=0, haste=0, threat=1, poison_src=0, killer=-1)
               for q in range(3)]
    boss = dict(pos=-1, fly=0, boss=1, where="deck", speed=2, tough=50, dmg=0, poison=0,
                slow=0, apathy=0, haste=0, threat=5, poison_src=0, killer=-1)
    card = dict(boss, boss=0, fly=0, tough=5, speed=1)
    dk, occ, pl, gs, deck_arr, everyone = build(6, on_path, [card], boss)
    move.draw_moves_nb(dk, occ, gs, deck_arr, 1, 4, 6, BIG)
    assert dk[4, DKC.WHERE] == WHERE.WAITING and gs[GSC.BOSS_WAIT] == 4
    assert dk[3, DKC.WHERE] == WHERE.PATH and dk[3, DKC.POS] == 0  # ground shares with flyer
    assert gs[GSC.TRAMPLED] == 0
