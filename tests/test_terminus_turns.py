"""Terminus Breach TD turn structure: initiative, setup build order, phase order, Lulls, the end.

Each test reads the rule from the rulebook in plain Python (the order of builds, the Lulls
that re-roll initiative, the dice of an initiative roll-off) and compares the engine with it
on forced dice: the generator state is copied and the same d6 values are fed to the reference.
"""

import numpy as np
import pytest
from terminus_helpers import GAME, compiled, drakka, empty, fresh, site_near, tower

from simlib.core.rng import d6_nb, new_state
from simlib.games.terminus import compile as tc
from simlib.games.terminus import engine
from simlib.games.terminus.move import put_nb
from simlib.games.terminus.state import BFX, DKC, GSC, LINE, PLC, TWC, WHERE, alloc

RACES = {"race0": "humans", "race1": "dwarves", "race2": "elves", "race3": "treefolk"}


# --- initiative (TB-053, TB-054) -----------------------------------------------------------
def ref_initiative(n, rng):
    """The rulebook's roll-off: all roll the d6, highest goes first; only the tied roll again.

    Rolls come from ``rng`` (a copy of the engine's state), seat by seat. Returns the winner
    and whether a tie happened in which some lower seat dropped out.
    """
    tied = list(range(n))
    dropped_with_tie = False
    while True:
        rolls = {s: int(d6_nb(rng)) for s in tied}
        best = max(rolls.values())
        still = [s for s in tied if rolls[s] == best]
        if 1 < len(still) < len(tied):
            dropped_with_tie = True
        tied = still
        if len(tied) == 1:
            return tied[0], dropped_with_tie


@pytest.mark.parametrize("n", [2, 3, 4])
def test_initiative_highest_d6_wins_and_only_the_tied_reroll(n):
    # TB-053 (highest roll goes first) TB-054 (only the players tied for highest roll again):
    # the engine's roll-off against the reference fed the very same d6 stream
    gs = alloc()[8]
    ties = 0
    for i in range(300):
        rng = new_state(77, i)
        mine = rng.copy()
        want, tie = ref_initiative(n, mine)
        ties += tie
        gs[:] = 0
        got = engine.initiative_nb(gs, n, rng)
        assert got == want and gs[GSC.FIRST] == want, (n, i)
        np.testing.assert_array_equal(rng, mine)  # the same number of dice were rolled
    if n > 2:
        assert ties > 0  # the tie-break path was exercised


def test_lull_rerolls_initiative_only_at_lulls_two_and_four():
    # TB-210: Lull step 4 re-rolls initiative at Lull 2 and Lull 4 only; TB-063: the new
    # winner is active in the next Wave
    for b in (1, 2, 3, 4):
        st = fresh(players=3, **RACES)
        st.gs[GSC.FIRST] = -1  # Wave 1 has begun: the setup roll is used up
        st.gs[GSC.ACTIVE] = 2
        engine.lull_nb(st.dk, st.tw, st.pl, st.deck, st.gs, st.params, b, st.bp, st.rng)
        assert st.gs[GSC.BATTLE] == b + 1
        if b in (2, 4):
            first = int(st.gs[GSC.FIRST])
            assert 0 <= first < 3
            engine.start_wave_nb(st.gs)
            assert st.gs[GSC.ACTIVE] == first
        else:
            assert st.gs[GSC.FIRST] == -1
            engine.start_wave_nb(st.gs)
            assert st.gs[GSC.ACTIVE] == 0  # rotation goes on clockwise from seat 2


def test_active_player_passes_clockwise_each_wave():
    # TB-062 TB-063: the initiative winner is active in Wave 1, then one seat clockwise a Wave
    st = fresh(players=4, seed=5, **RACES)
    first = int(st.gs[GSC.FIRST])
    seen = []
    for w in range(6):
        engine.start_wave_nb(st.gs)
        seen.append(int(st.gs[GSC.ACTIVE]))
        assert st.gs[GSC.WAVE_INDEX] == w
    assert seen == [(first + k) % 4 for k in range(6)]


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_first_player_record_is_the_setup_initiative_winner(n):
    # the record's first_player is the seat that won the setup roll (TB-053) and so built
    # first (TB-055): the same game set up on its own stream has that seat in gs[FIRST]
    b = GAME.bot("builder")
    p = GAME.compile(GAME.resolve("normal", {"players": n, **RACES}))
    r = GAME.play_batch(p, b.id, np.array(list(b.params.values())), 9, 0, 24)
    want = [int(fresh(players=n, seed=9, game_index=i, **RACES).gs[GSC.FIRST])
            for i in range(24)]
    assert r["first_player"].tolist() == want
    assert (set(want) == {0}) if n == 1 else (len(set(want)) >= 2)  # a roll, not a constant


# --- setup builds (TB-055..059) -----------------------------------------------------------
PRINTED_ORDER = {1: [1, 1, 1, 1], 2: [1, 2, 2, 1], 3: [1, 2, 3, 3], 4: [1, 2, 3, 4]}


def _replay(n, seed, seats, **settings):
    """The setup builds of ``seats`` replayed one at a time with the single-build kernel, on a
    copy of the state as it was before the builds (allowance only, TB-049..052, TB-060)."""
    ref = fresh(players=n, seed=seed, **settings)
    ref.tw[:, :] = 0
    ref.bl[:, :] = 0
    for s in range(n):
        ref.pl[s, PLC.GP] = 480 // n
        ref.pl[s, PLC.TOWERS_BUILT] = 0
    for i, seat in enumerate(seats):
        later = seats[i + 1:].count(seat)
        engine.setup_build_nb(ref.tw, ref.bl, ref.pl, ref.gs, ref.params, seat, later, ref.bp)
    return ref


def _replay_setup(n, seed):
    """The engine's setup, and the builds replayed in the printed order (players numbered
    from the first player, clockwise)."""
    st = fresh(players=n, seed=seed, **RACES)
    first = int(st.gs[GSC.FIRST])
    seats = [(first + k - 1) % n for k in PRINTED_ORDER[n]]
    return st, _replay(n, seed, seats, **RACES), seats


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_setup_builds_in_the_printed_order(n):
    # TB-055 one tower per build, clockwise from the first player; TB-056 solo: 4 builds;
    # TB-057 two players: first, second, second, first; TB-058 three: first, second, third,
    # third; TB-059 four: once each. The engine's setup equals the builds replayed in order.
    for seed in range(6):
        st, ref, seats = _replay_setup(n, seed)
        np.testing.assert_array_equal(st.tw, ref.tw)
        np.testing.assert_array_equal(st.pl[:n, PLC.GP], ref.pl[:n, PLC.GP])
        for s in range(n):
            assert st.pl[s, PLC.TOWERS_BUILT] == seats.count(s)


def test_two_player_order_decides_who_gets_the_third_spot():
    # TB-057: with two players the second player builds twice in a row, so the third tower
    # of the setup is the second player's; the 1-2-1-2 order would give it to the first.
    # Both players value sites alike when they play the same race, so the sites each ends
    # up with tell the orders apart (the count of towers, two each, does not).
    for seed in range(6):
        st = fresh(players=2, seed=seed, race0="humans", race1="humans",
                   distinct_races=False)
        first = int(st.gs[GSC.FIRST])
        second = 1 - first
        owners = [int(st.tw[s, TWC.OWNER]) for s in range(int(st.cfg[engine.CFG_SITES]))
                  if st.tw[s, TWC.ALIVE]]
        assert sorted(owners) == [0, 0, 1, 1]
        ref = _replay(2, seed, [first, second, second, first], race0="humans",
                      race1="humans", distinct_races=False)
        np.testing.assert_array_equal(st.tw, ref.tw)


# --- phase order (TB-005) and the end (TB-213) ----------------------------------------------
def _wave(st, draw=1):
    engine.play_wave_nb(st.dk, st.occ, st.tw, st.bl, st.pl, st.hand, st.fdeck, st.deck, st.gs,
                        st.params, draw, st.bot_id, st.bp, st.rng)


def _deck(st, rows):
    for k, d in enumerate(rows):
        st.dk[d, DKC.WHERE] = WHERE.DECK
        st.deck[k] = d
    st.gs[GSC.DECK_N] = len(rows)
    st.gs[GSC.DRAW_PTR] = 0


def test_advance_comes_before_draw():
    # TB-005: Advance then Draw. A Drakka on square 2 (Speed 1) advances to 3 first; the
    # drawn Drakka (Speed 4) then enters and stops on 2, the furthest square of its kind
    # left open within 4, and does not move again in this Wave (TB-028, TB-072).
    st = empty(race0="humans", race1="dwarves")
    st.pl[:2, PLC.GP] = 0  # nobody builds: only the moves happen
    old = drakka(st, 2, speed=1, tough=50)
    new = drakka(st, -1, speed=4, tough=50)
    _deck(st, [new])
    st.gs[GSC.WAVE] = 1
    _wave(st)
    assert st.dk[old, DKC.POS] == 3
    assert st.dk[new, DKC.WHERE] == WHERE.PATH and st.dk[new, DKC.POS] == 2
    assert st.gs[GSC.DRAW_PTR] == 1


def test_defend_resolve_develop_follow_in_order():
    # TB-005: Defend before Resolve (a kill made this Wave is paid this Wave), Resolve before
    # Develop (the Bounty is spent in the same Wave). Both players start with 0 GP, so the
    # only GP of the Wave is the 40 GP Bounty: with Develop before Resolve nothing is built
    # and the 40 GP are still in hand at the end of the Wave.
    st = empty(race0="humans", race1="dwarves", bot_name="killer")
    s = site_near(st, 12)
    tower(st, 0, s, LINE.AIR_GROUND, level=2)
    st.pl[:2, PLC.GP] = 0
    st.pl[:2, PLC.TOWERS_BUILT] = 0  # the setup's builds are gone with their towers
    prey = drakka(st, 10, speed=2, tough=3, bounty=40)
    _deck(st, [])
    st.gs[GSC.WAVE] = 1
    _wave(st)
    assert st.dk[prey, DKC.WHERE] == WHERE.DEAD and st.dk[prey, DKC.KILLER] == 0
    assert st.dk[prey, DKC.FACEUP] == 0  # collected in this Wave's Resolve
    assert st.pl[0, PLC.BOUNTY_GP] == 40
    assert st.pl[0, PLC.PETITIONS] == 0 and st.pl[1, PLC.PETITIONS] == 1  # TB-099/100
    # spent in Develop: one new tower, paid with the whole Bounty (a 40 GP Catapult)
    assert st.pl[0, PLC.TOWERS_BUILT] == 1 and st.pl[0, PLC.GP] == 0
    new = [t for t in range(int(st.cfg[engine.CFG_SITES])) if t != s and st.tw[t, TWC.ALIVE]]
    assert len(new) == 1 and st.tw[new[0], TWC.OWNER] == 0 and st.tw[new[0], TWC.PAID] == 40


def test_boss_d20_is_resolved_before_any_drakka_moves():
    # TB-065: the boss's d20 is rolled and applied at the start of the Advance phase, before
    # the moves, so a haste result speeds the boss in this very Advance. Every face of the
    # Battle 1 boss's table is made "haste:3": the boss (Speed 2) moves 2 + 3 squares, and
    # the haste ends with its move.
    st = empty()
    d20 = st.params[13]
    d20[0, :, 0] = BFX.HASTE
    d20[0, :, 1] = 3
    b = int(engine.boss_row_nb(st.gs, 1))
    speed = int(st.dk[b, DKC.SPEED])
    put_nb(st.dk, st.occ, b, 4)
    engine.advance_phase_nb(st.dk, st.occ, st.tw, st.pl, st.gs, st.params, st.rng)
    assert st.dk[b, DKC.POS] == 4 + speed + 3
    assert st.dk[b, DKC.HASTE] == 0


PRINTED_MODIFIER = (2, 2, 4, 4, 6)  # TB-079..083, the reading of the garbled table


def test_draw_phase_draws_the_d6_plus_the_battle_modifier():
    # TB-078: the active player rolls the d6 and draws that many Drakka plus the Battle's
    # modifier; the reference rolls the same d6 from a copy of the engine's dice. The deck
    # (18 cards) holds more than the 12 a Draw can ask for, so nothing is cut short.
    st = empty()
    rows = [int(d) for d in st.deck[:int(st.gs[GSC.DECK_N])]]
    assert len(rows) >= 6 + max(PRINTED_MODIFIER)
    seen = set()
    for b in range(1, 6):
        for i in range(12):
            for d in rows:
                st.dk[d, DKC.WHERE] = WHERE.DECK
                st.dk[d, DKC.POS] = -1
            st.occ[:, :] = -1
            st.gs[GSC.DRAW_PTR] = 0
            st.gs[GSC.BATTLE] = b
            st.gs[GSC.WAVE] = 1
            st.rng = new_state(5, 100 * b + i)
            roll = int(d6_nb(st.rng.copy()))
            seen.add(roll)
            drawn = engine.draw_phase_nb(st.dk, st.occ, st.gs, st.deck, st.params, st.rng)
            assert drawn == roll + PRINTED_MODIFIER[b - 1] == st.gs[GSC.DRAW_PTR], (b, i)
    assert seen == {1, 2, 3, 4, 5, 6}


def test_boss_enters_before_the_drawn_drakka_in_wave_three():
    # TB-085: in Wave 3 the Battle's boss goes onto the path before any Drakka is drawn.
    # The boss and the one card left in the deck both have Speed 2: the boss, first, takes
    # square 1 (a boss fills its square, TB-160), so the ground Drakka stops on square 0.
    # Drawn first, the Drakka would take square 1 and the boss, needing an empty square
    # (TB-161), square 0.
    st = empty()
    b = int(engine.boss_row_nb(st.gs, 1))
    assert st.dk[b, DKC.WHERE] == WHERE.DECK
    card = drakka(st, -1, speed=int(st.dk[b, DKC.SPEED]), fly=int(st.dk[b, DKC.FLY]))
    _deck(st, [card])
    st.gs[GSC.WAVE] = 3
    engine.draw_phase_nb(st.dk, st.occ, st.gs, st.deck, st.params, st.rng)
    speed = int(st.dk[b, DKC.SPEED])
    assert st.dk[b, DKC.WHERE] == WHERE.PATH and st.dk[b, DKC.POS] == speed - 1
    assert st.dk[card, DKC.WHERE] == WHERE.PATH and st.dk[card, DKC.POS] == speed - 2
    # in Waves 1 and 2 the boss stays in the deck
    for wave in (1, 2):
        st = empty()
        st.gs[GSC.WAVE] = wave
        engine.draw_phase_nb(st.dk, st.occ, st.gs, st.deck, st.params, st.rng)
        assert st.dk[int(engine.boss_row_nb(st.gs, 1)), DKC.WHERE] == WHERE.DECK


def test_retreat_ends_the_game_at_once():
    # TB-213: the game ends the moment the panic reaches 10: no Drakka moves after the leak
    # that reaches it, and the Wave's Draw never happens
    st = empty(start_panic=9)
    front = drakka(st, 33, speed=3, threat=1)
    back = drakka(st, 20, speed=3)
    waiting = drakka(st, -1, speed=2)
    _deck(st, [waiting])
    st.gs[GSC.WAVE] = 1
    _wave(st)
    assert st.dk[front, DKC.WHERE] == WHERE.LEAKED
    assert st.gs[GSC.OVER] == 1 and st.gs[GSC.RETREAT] == 1 and st.gs[GSC.PANIC] == 10
    assert st.dk[back, DKC.POS] == 20  # the game ended before it moved
    assert st.gs[GSC.DRAW_PTR] == 0 and st.dk[waiting, DKC.WHERE] == WHERE.DECK


def test_panic_below_the_limit_plays_on():
    # TB-213: 9 is not yet a retreat; TB-038: the game starts at panic 0
    st = empty(start_panic=8)
    assert empty().gs[GSC.PANIC] == 0
    drakka(st, 33, speed=3, threat=1)
    st.gs[GSC.WAVE] = 1
    _deck(st, [])
    _wave(st)
    assert st.gs[GSC.PANIC] == 9 and st.gs[GSC.OVER] == 0


# --- Lull tally (TB-199) and maps (TB-039, TB-223) ---------------------------------------
def test_lull_counts_only_the_kills_of_the_battle_just_ended():
    # TB-199: 1 VP per Drakka in the Dead Drakka area, i.e. per kill of the ended Battle;
    # those cards go to the Graveyard (TB-204) and score no VP at the next Lull
    st = empty(race0="humans", race1="dwarves")
    st.tw[:, :] = 0
    bp = st.bp.copy()
    bp[engine.bots.P_VP] = 0.0
    for q in (3, 5, 7):
        engine.kill_nb(st.dk, st.occ, st.pl, st.gs, drakka(st, q), 0, 1)
    engine.lull_nb(st.dk, st.tw, st.pl, st.deck, st.gs, st.params, 1, bp, st.rng)
    assert st.pl[0, PLC.VP] == 3 and st.pl[1, PLC.VP] == 0
    engine.kill_nb(st.dk, st.occ, st.pl, st.gs, drakka(st, 4), 0, 1)
    engine.lull_nb(st.dk, st.tw, st.pl, st.deck, st.gs, st.params, 2, bp, st.rng)
    assert st.pl[0, PLC.VP] == 3 + 1
    assert st.pl[0, PLC.KILLS] == 4  # TB-232: Kills still count the Graveyard


@pytest.mark.parametrize("name", list(tc.MAPS))
def test_each_preset_plays_its_own_map(name):
    # TB-039 TB-223 TB-224: the preset sets the map; its path and sites are that map's
    m = tc.parse_map(name, tc.load_data("default")["maps"][name]["grid"])
    p = compiled(name)
    assert p[0][engine.CFG_PATH_LEN] == len(m["path"])
    assert p[0][engine.CFG_SITES] == len(m["sites"])
    np.testing.assert_array_equal(p[2][:len(m["sites"])], np.array(m["sites"]))
