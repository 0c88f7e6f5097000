"""Terralore rule scenarios, one or more per checklist line (TL-nnn).

Boards are built by hand (``terralore_helpers.Board``) and the engine's own helpers are
called on them; whole matches use the batch kernel with chosen bots.
"""

import numpy as np
import pytest
from terralore_helpers import DATA, GAME, NAMES, PASSIVE, Board, bot_params, cid, face_down

from simlib.core.rng import new_state
from simlib.errors import SimlibInputError
from simlib.games.terralore import compile as tl_compile
from simlib.games.terralore import engine
from simlib.games.terralore.state import (
    AFFINITY_NAMES,
    CAUSE,
    CFC,
    DECK,
    GRAVE_AT,
    GS,
    HAND_AT,
    PS,
    RARITY_NAMES,
    TYPE_NAMES,
    ZONE,
)

ATK0, DEF0 = 1, 0  # seat 0 attacks in lane 1, defends in lane 0 (TL-033/034)


def play(settings=None, bot="value", bp=None, games=200, seed=3, start=0):
    g = GAME
    values = g.resolve(None, settings or {})
    compiled = g.compile(values)
    b = g.bot(bot)
    bp = np.array(list(b.params.values())) if bp is None else bp
    return g.records_to_frame(g.play_batch(compiled, b.id, bp, seed, start, games),
                              g.context(values))


# --- deck composition and setup ---------------------------------------------------------------
def test_tl001_two_seats_and_tl072_record_columns():
    df = play(games=50)
    # TL-001: two seats; TL-072: winner, first player, turns, both HPs, cause, decks
    for col in ("winner", "first_player", "rounds", "hp0", "hp1", "outcome", "deck0", "deck1",
                "bot0", "bot1"):
        assert col in df.columns
    assert set(df["winner"].unique()) <= {-1, 0, 1}
    assert set(df["first_player"].unique()) <= {0, 1}
    assert (df["win"] == (df["winner"] == 0)).all()
    assert set(df["outcome"].cat.categories) == {"castle", "deck_out", "tiebreak", "draw"}


def test_tl003_tl004_default_decks_are_20_distinct_cards():
    for d in tl_compile.deck_ids(DATA):
        lst = DATA["decks"][d]["cards"]
        assert len(lst) == 20 and len(set(lst)) == 20


def _data_file(tmp_path, decks_text):
    path = tmp_path / "d.toml"
    path.write_text(decks_text)
    return str(path)


def test_tl003_a_deck_of_19_is_refused(tmp_path):
    names = DATA["decks"]["balanced"]["cards"][:19]
    text = "[decks]\ndefault = 'x'\n[decks.x]\ncards = [" + ", ".join(
        f'"{n}"' for n in names) + "]\n"
    with pytest.raises(SimlibInputError, match="exactly 20"):
        tl_compile.load_data(_data_file(tmp_path, text))


def test_tl004_a_second_copy_is_refused(tmp_path):
    names = DATA["decks"]["balanced"]["cards"][:19] + [DATA["decks"]["balanced"]["cards"][0]]
    text = "[decks]\ndefault = 'x'\n[decks.x]\ncards = [" + ", ".join(
        f'"{n}"' for n in names) + "]\n"
    with pytest.raises(SimlibInputError, match="one copy"):
        tl_compile.load_data(_data_file(tmp_path, text))


def test_tl086_a_token_is_not_a_deck_card(tmp_path):
    names = DATA["decks"]["balanced"]["cards"][:19] + ["Gale Token"]
    text = "[decks]\ndefault = 'x'\n[decks.x]\ncards = [" + ", ".join(
        f'"{n}"' for n in names) + "]\n"
    with pytest.raises(SimlibInputError, match="token"):
        tl_compile.load_data(_data_file(tmp_path, text))


def test_tl005_every_card_has_type_cost_points_affinity_rarity_effect(tmp_path):
    cards = tl_compile.card_table(DATA)
    assert cards.shape == (len(NAMES), CFC.N) and len(NAMES) >= 60
    assert set(cards[:, CFC.TYPE]) == set(range(len(TYPE_NAMES)))  # all five types used
    bad = tmp_path / "bad.toml"
    bad.write_text('[[cards]]\nname = "X"\ntype = "spell"\ncost = 0\npoints = 0\n'
                   'affinity = "fire"\nrarity = "common"\n[decks]\ndefault = "a"\n')
    with pytest.raises(SimlibInputError, match="type"):
        tl_compile.load_data(str(bad))


def test_tl030_tl031_eight_affinities_five_rarities_in_the_pool():
    cards = tl_compile.card_table(DATA)
    assert len(AFFINITY_NAMES) == 8 and len(RARITY_NAMES) == 5
    assert set(cards[:, CFC.AFF]) == set(range(8))
    assert set(cards[:, CFC.RARITY]) == set(range(5))


def test_tl032_rarity_alone_changes_nothing(tmp_path):
    # every rarity set to common: no synergy of the default decks reads rarity, so the
    # same seed plays the same matches
    text = (tl_compile.DEFAULT_DATA.read_text()
            .replace('rarity = "uncommon"', 'rarity = "common"')
            .replace('rarity = "rare"', 'rarity = "common"')
            .replace('rarity = "epic"', 'rarity = "common"')
            .replace('rarity = "legendary"', 'rarity = "common"'))
    path = tmp_path / "rar.toml"
    path.write_text(text)
    a = play(games=300)
    b = play({"data": str(path)}, games=300)
    np.testing.assert_array_equal(a["winner"], b["winner"])
    np.testing.assert_array_equal(a["hp0"], b["hp0"])


def test_tl006_opening_hands_of_four_from_a_shuffled_deck():
    b = Board()
    orders = {0: [], 1: []}
    for seed in range(3):
        engine.setup_nb(b.S, b.gs, b.played, b.params, new_state(seed, 0))
        for s in range(2):
            assert b.ps(s, "HAND_N") == 4 and b.ps(s, "DECK_TOP") == 4
            assert b.breaches() == 0
            orders[s].append(tuple(b.S[s, PS.N:PS.N + DECK]))
            # the hand is the top four of the deck as shuffled
            assert b.S[s, HAND_AT:HAND_AT + 4].tolist() == list(orders[s][-1][:4])
    for s in range(2):  # each player shuffles their own deck, differently per game
        assert len(set(orders[s])) == 3, s
        assert sorted(orders[s][0]) == list(range(DECK))  # a permutation of the 20 cards


def test_tl007_tl008_a_draw_into_a_full_hand_goes_to_the_graveyard():
    b = Board()
    b.hand(0, *["Sprout"] * 7)
    b.next_draws(0, "Gaia Titan")
    top = b.ps(0, "DECK_TOP")
    assert engine.draw_card_nb(b.S, b.cfg, 0)
    assert b.ps(0, "HAND_N") == 7  # TL-007
    assert b.grave(0) == ["Gaia Titan"] and b.ps(0, "DECK_TOP") == top + 1  # TL-008
    assert b.breaches() == 0


def test_tl009_tl010_tl038_tl078_passive_players_draw_two_a_turn_and_deck_out_on_turn_10():
    # bots that never play: 4 + 8 x 2 = 20 cards drawn by turn 9, both fail on turn 10
    df = play({"check_invariants": True}, bp=PASSIVE, games=20)
    assert (df["rounds"] == 10).all()  # TL-078
    assert (df["outcome"] == "draw").all() and (df["winner"] == -1).all()  # TL-075, TL-077
    assert (df["graveyard0"] == 20 - 7).all()  # hand limit 7: the rest drawn to the graveyard
    assert (df["invariant_violations"] == 0).all()


def test_tl010_tl038_the_draw_phase_draws_two_for_each_player():
    b = Board()
    engine.setup_nb(b.S, b.gs, b.played, b.params, new_state(0, 0))
    assert b.ps(0, "HAND_N") == 4 and b.ps(1, "HAND_N") == 4
    assert not engine.draw_phase_nb(b.S, b.cfg)
    assert b.ps(0, "HAND_N") == 6 and b.ps(1, "HAND_N") == 6  # TL-010: two each


def _one_turn(b, turn=2):
    """Play the match loop's turn ``turn`` on a board, both seats passing.

    Each deck keeps the cards that turn draws (none on turn 1, else 2), so the next turn
    both players fail to draw on the same draw and the tiebreakers end the match. The cards
    the test placed face-down are revealed in that turn.
    """
    for s in range(2):
        b.deck_left(s, 0 if turn == 1 else 2)
    b.gs[GS.TURN] = turn - 1
    bp = np.stack([PASSIVE, PASSIVE])
    engine.play_turns_nb(b.S, b.gs, b.played, b.params, np.array([2, 2], np.int64), bp, b.pay,
                         b.ctx, new_state(5, 0))


def test_tl009_turn_one_has_no_draw_phase():
    b = Board()
    face_down(b, 0, ATK0, "Rock Giant")  # 3 against no defence
    _one_turn(b, turn=1)  # empty decks: a turn-1 draw would end the match at once
    assert b.gs[GS.TURN] == 2  # turn 1 was played; turn 2's draw failed for both
    assert b.lane(0, ATK0) == ["Rock Giant"] and b.hidden(0, ATK0) == [0]
    assert b.hp(1) == 7 and b.gs[GS.WINNER] == 0 and b.gs[GS.CAUSE] == CAUSE.TIEBREAK


def test_tl037_tl055_a_turn_reveals_before_it_counts():
    b = Board()
    b.creature(0, ATK0, "Rock Giant")  # 3 attacking seat 1
    b.creature(1, 1, "Gaia Titan")  # 6 defending seat 1's castle
    face_down(b, 0, ATK0, "Doom Blade")  # this turn's play: destroys the Titan when revealed
    _one_turn(b)
    assert b.gs[GS.TURN] == 3
    assert b.hand_names(0) != [] and b.ps(0, "HAND_N") == 2  # TL-038: the turn-2 draw
    assert b.lane(1, 1) == [] and "Gaia Titan" in b.grave(1)
    # TL-037/055: revealed (Titan gone) before counting: 3 against no defence
    assert b.hp(1) == 7 and b.hp(0) == 10
    assert b.gs[GS.WINNER] == 0 and b.gs[GS.CAUSE] == CAUSE.TIEBREAK  # TL-073 on turn 3
    assert b.breaches() == 0


def test_tl011_tl013_tl080_cost_paid_by_discarding_other_cards():
    b = Board()
    titan, a, c, d = b.hand(0, "Gaia Titan", "Sprout", "Wolf", "Shade")
    b.place(0, titan, ATK0, pay=[a, c, d])
    assert b.hand_names(0) == []
    assert b.grave(0) == ["Sprout", "Wolf", "Shade"]  # TL-080: discards go to the graveyard
    assert b.lane(0, ATK0) == ["Gaia Titan"] and b.zone(0, titan) == ZONE.LANE
    assert b.breaches() == 0


def test_tl012_cost_zero_needs_no_discard_and_too_few_cards_cannot_pay():
    b = Board()
    (sprout,) = b.hand(0, "Sprout")
    assert engine.can_place_nb(b.S, b.cards, b.cfg, 0, 0, ATK0)
    b.place(0, sprout, ATK0)
    assert b.grave(0) == [] and b.lane(0, ATK0) == ["Sprout"]
    b.hand(0, "Gaia Titan", "Wolf")  # cost 3, only 1 other card
    assert not engine.can_place_nb(b.S, b.cards, b.cfg, 0, 0, ATK0)
    b.hand(0, "Shade")  # 3 cards in hand, but only 2 besides the Titan itself
    assert not engine.can_place_nb(b.S, b.cards, b.cfg, 0, 0, ATK0)
    b.hand(0, "Ghoul")  # 3 others: enough
    assert engine.can_place_nb(b.S, b.cards, b.cfg, 0, 0, ATK0)


def test_tl012_a_bot_never_plays_what_it_cannot_pay_for():
    b = Board()
    b.hand(0, "Gaia Titan", "Sprout")
    b.play_phase(0, bot_params("aggressive"), bot=0)
    assert "Gaia Titan" in b.hand_names(0) and b.breaches() == 0


def test_tl014_tl015_tl016_draw_the_last_card_then_lose_on_the_second():
    b = Board()
    b.deck_left(0, 1)
    assert engine.draw_phase_nb(b.S, b.cfg)  # the match ends in this draw phase
    assert b.ps(0, "DECK_TOP") == DECK  # TL-016: the last card was drawn first
    assert b.ps(0, "OUT") == 1 and b.ps(1, "OUT") == 0
    engine.end_by_deck_out_nb(b.S, b.gs, b.cards)
    assert b.gs[GS.WINNER] == 1 and b.gs[GS.CAUSE] == CAUSE.DECK_OUT  # TL-071


def test_tl016_reading_play_on_draws_the_last_card_and_plays_on():
    b = Board(short_draw="play_on")
    b.deck_left(0, 1)
    n = b.ps(0, "HAND_N")
    top1 = b.ps(1, "DECK_TOP")
    assert not engine.draw_phase_nb(b.S, b.cfg)  # the last card drawn, the match goes on
    assert b.ps(0, "DECK_TOP") == DECK and b.ps(0, "HAND_N") == n + 1
    assert b.ps(1, "DECK_TOP") == top1 + 2  # the opponent drew both of its cards
    assert engine.draw_phase_nb(b.S, b.cfg)  # the next Draw Phase finds the deck empty
    assert b.ps(0, "OUT") == 1 and b.ps(1, "OUT") == 0
    # both decks empty on the same first draw: the tiebreakers (TL-073), in either reading
    b2 = Board(short_draw="play_on")
    b2.deck_left(0, 0)
    b2.deck_left(1, 0)
    assert engine.draw_phase_nb(b2.S, b2.cfg)
    assert b2.ps(0, "OUT") == 1 and b2.ps(1, "OUT") == 1


def test_tl016_readings_move_whole_matches():
    lit = play({"deck0": "balanced", "deck1": "nature_swarm"}, games=400, seed=8)
    alt = play({"deck0": "balanced", "deck1": "nature_swarm", "short_draw": "play_on"},
               games=400, seed=8)
    assert (lit["outcome"] == "deck_out").sum() > 0
    assert not lit["rounds"].equals(alt["rounds"])


def test_tl015_an_empty_deck_alone_does_not_lose():
    b = Board()
    b.deck_left(0, 0)
    b.deck_left(1, 5)
    assert b.gs[GS.WINNER] == engine.STILL_PLAYING
    engine.counting_phase_nb(b.S, b.cards, b.cfg, 0)
    assert not engine.end_by_castle_nb(b.S, b.gs, b.cards)  # still playing until a draw
    assert engine.draw_phase_nb(b.S, b.cfg)
    # through the match loop: turn 2's draw empties both decks; turn 3's draw fails
    b2 = Board()
    _one_turn(b2, turn=2)
    assert b2.ps(0, "DECK_TOP") == DECK and b2.ps(1, "DECK_TOP") == DECK
    assert b2.gs[GS.TURN] == 3 and b2.gs[GS.CAUSE] == CAUSE.DRAW


def test_tl073_both_out_on_the_same_draw_higher_hp_wins():
    b = Board()
    b.deck_left(0, 1)
    b.deck_left(1, 1)
    b.hp(0, 4)
    b.hp(1, 6)
    assert engine.draw_phase_nb(b.S, b.cfg)
    engine.end_by_deck_out_nb(b.S, b.gs, b.cards)
    assert b.gs[GS.WINNER] == 1 and b.gs[GS.CAUSE] == CAUSE.TIEBREAK


def test_tl074_tied_hp_more_field_points_wins_tl076_both_lanes_count():
    b = Board()
    b.creature(0, 0, "Sprout")
    b.creature(0, 1, "Wolf")  # 1 + 2 = 3 over both lanes
    b.creature(1, 1, "Blaze Knight", bonus=-1)  # 3 - 1 = 2 (effects count, TL-076)
    b.trap(1, 1, "Whirlpool")
    b.landmark(1, 0, "Volcano")  # traps and landmarks score nothing
    engine.tiebreak_nb(b.S, b.gs, b.cards)
    assert b.field(0) == 3 and b.field(1) == 2
    assert b.gs[GS.WINNER] == 0 and b.gs[GS.CAUSE] == CAUSE.TIEBREAK


def test_tl075_tl077_all_tied_is_a_draw():
    b = Board()
    b.creature(0, 0, "Wolf")
    b.creature(1, 0, "Squire")
    engine.tiebreak_nb(b.S, b.gs, b.cards)
    assert b.gs[GS.WINNER] == -1 and b.gs[GS.CAUSE] == CAUSE.DRAW


def test_tl017_tl070_castle_at_zero_loses():
    b = Board()
    b.creature(0, ATK0, "Gaia Titan")
    b.hp(1, 5)
    b.count()
    assert b.hp(1) == 0  # HP stops at 0
    assert engine.end_by_castle_nb(b.S, b.gs, b.cards)
    assert b.gs[GS.WINNER] == 0 and b.gs[GS.CAUSE] == CAUSE.CASTLE


def test_tl017_a_castle_fallen_in_the_reveal_loses_there_and_is_not_healed_back():
    # TL-017: reaching 0 HP loses. Seat 1 (fewer HP) opens; seat 0's Fireball (step 2)
    # brings it to 0, so seat 1's Healing Rain (step 4) is never revealed to heal it back,
    # and no counting follows (seat 1's Rock Giant would have struck seat 0's castle)
    b = Board()
    b.hp(1, 2)
    fb, p = b.hand(0, "Fireball", "Sprout")
    b.place(0, fb, ATK0, pay=[p])
    hr, q = b.hand(1, "Healing Rain", "Shade")
    b.place(1, hr, 0, pay=[q])
    b.creature(1, 0, "Rock Giant")  # 3 attacking seat 0's empty defence
    _one_turn(b)
    assert b.hp(1) == 0 and b.hp(0) == 10
    assert b.gs[GS.WINNER] == 0 and b.gs[GS.CAUSE] == CAUSE.CASTLE
    assert b.zone(1, hr) != ZONE.GRAVE  # never revealed (a resolved skill is in the graveyard)
    # a castle at 0 is never healed back, whoever heals it
    b = Board()
    b.hp(0, 0)
    engine.heal_nb(b.S, b.cfg, 0, 3)
    assert b.hp(0) == 0


def test_tl062_both_castles_fall_together_go_to_the_tiebreakers():
    b = Board()
    b.creature(0, ATK0, "Gaia Titan")  # 6 into seat 1's empty defence
    b.creature(1, 0, "Mountain King")  # 5 into seat 0's empty defence
    b.hp(0, 3)
    b.hp(1, 3)
    b.count()
    assert b.hp(0) == 0 and b.hp(1) == 0
    assert engine.end_by_castle_nb(b.S, b.gs, b.cards)
    assert b.gs[GS.WINNER] == 0 and b.gs[GS.CAUSE] == CAUSE.TIEBREAK  # 6 field points to 5


def test_tl062_reading_overkill_the_castle_dealt_more_beyond_zero_loses():
    for reading, winner in (("tiebreak", 0), ("overkill", 1)):
        b = Board(both_castles_fall=reading)
        b.creature(0, ATK0, "Gaia Titan")  # 6 into seat 1's empty defence: 3 beyond 0
        b.creature(1, 0, "Mountain King")  # 5 into seat 0's empty defence: 4 beyond 0
        b.hp(0, 1)
        b.hp(1, 3)
        b.count()
        assert b.hp(0) == 0 and b.hp(1) == 0
        assert engine.end_by_castle_nb(b.S, b.gs, b.cards)
        # tiebreak: HP stop at 0, field points 6 to 5; overkill: seat 0 took 4 beyond 0, 3
        assert b.gs[GS.WINNER] == winner and b.gs[GS.CAUSE] == CAUSE.TIEBREAK, reading
    b = Board(both_castles_fall="overkill")  # equal overkill: the tiebreakers again
    b.creature(0, ATK0, "Gaia Titan")
    b.creature(1, 0, "Mountain King")
    b.hp(0, 2)
    b.hp(1, 3)
    b.count()
    assert engine.end_by_castle_nb(b.S, b.gs, b.cards)
    assert b.gs[GS.WINNER] == 0


def test_tl016_tl062_are_listed_readings():
    names = {s.name: s.reading for s in GAME.readings()}
    assert names["short_draw"] == "TL-016" and names["both_castles_fall"] == "TL-062"
    assert GAME.setting("short_draw").default == "lose"
    assert GAME.setting("both_castles_fall").default == "tiebreak"


# --- creatures, skills, landmarks -------------------------------------------------------------
def test_tl018_tl019_a_creature_goes_to_either_lane_at_its_owners_choice():
    b = Board()
    w1, w2, pay = b.hand(0, "Wolf", "Wolf", "Sprout")
    b.place(0, w1, DEF0, pay=[pay])
    (pay2,) = b.hand(0, "Shade")
    b.place(0, w2, ATK0, pay=[pay2])
    assert b.lane(0, DEF0) == ["Wolf"] and b.lane(0, ATK0) == ["Wolf"]
    assert b.cards[cid("Wolf"), CFC.COST] == 1 and b.cards[cid("Wolf"), CFC.POINTS] == 2


def test_tl020_tl021_tl061_creatures_stay_and_count_every_turn():
    b = Board()
    b.creature(0, ATK0, "Rock Giant")  # 3
    b.creature(1, 1, "Wolf")  # 2: seat 1's defence
    for turn in range(3):
        b.count()
        assert b.lane(0, ATK0) == ["Rock Giant"] and b.lane(1, 1) == ["Wolf"]  # TL-021
        assert b.hp(1) == 10 - (turn + 1)  # TL-061: counted again each turn


def test_tl022_tl024_a_skill_scores_nothing_resolves_and_goes_to_the_graveyard():
    b = Board()
    fb, pay = b.hand(0, "Fireball", "Sprout")
    b.place(0, fb, ATK0, pay=[pay])
    assert b.lane(0, ATK0) == [] and b.zone(0, fb) == ZONE.LIMBO  # no creature slot
    b.reveal()
    assert b.hp(1) == 8  # damage 2 (TL-023: aims at a castle)
    assert b.grave(0) == ["Sprout", "Fireball"] and b.total(0, ATK0) == 0
    assert b.breaches() == 0


def test_tl023_a_skill_aims_at_a_creature():
    b = Board()
    b.creature(1, 1, "Gaia Titan")
    b.creature(1, 1, "Wolf")
    db, pay = b.hand(0, "Doom Blade", "Sprout")
    b.place(0, db, 1, pay=[pay])
    b.reveal()
    assert b.lane(1, 1) == ["Wolf"] and "Gaia Titan" in b.grave(1)  # the strongest


def test_tl025_tl026_tl027_tl028_tl029_landmarks():
    b = Board()
    for _ in range(4):
        b.creature(0, ATK0, "Sprout")
    wt, pay = b.hand(0, "Wind Temple", "Shade")
    assert engine.can_place_nb(b.S, b.cards, b.cfg, 0, 0, ATK0)  # TL-028: the full lane
    b.place(0, wt, ATK0, pay=[pay])
    b.reveal()
    assert b.ps(0, "LANDMARK") == wt and b.zone(0, wt) == ZONE.LANDMARK
    assert len(b.lane(0, ATK0)) == 4  # TL-028: a full lane and a landmark beside it
    assert b.total(0, ATK0) == 4 * 2 and b.total(0, DEF0) == 0  # +1 here only (TL-081)
    b.count()
    assert b.ps(0, "LANDMARK") == wt  # TL-025: still standing after counting
    cat, p1, p2 = b.hand(0, "Cathedral", "Shade", "Shade")
    b.place(0, cat, DEF0, pay=[p1, p2])
    b.reveal()
    assert b.ps(0, "LANDMARK") == cat  # TL-026: one at a time
    assert b.grave(0)[-1] == "Wind Temple"  # TL-027: the old one destroyed
    assert b.field(0) == 4  # TL-029: landmarks have no points; Cathedral boosts lane 0 only
    assert b.breaches() == 0


def test_tl025_tl059_a_damage_landmark_hits_the_opponent_at_every_counting():
    b = Board()
    b.landmark(0, DEF0, "Volcano")  # 1 damage to the opponent's castle at each counting
    b.creature(0, ATK0, "Sprout")  # attack 1 ...
    b.creature(1, 1, "Gaia Titan")  # ... against defence 6: the surplus stops the attack only
    for turn in range(2):
        b.count()
        assert b.hp(1) == 10 - (turn + 1) and b.hp(0) == 10
        assert b.grave(0) == [] and b.zone(0, int(b.S[0, PS.LANDMARK])) == ZONE.LANDMARK


def test_tl081_boost_and_weaken_reach_the_face_up_creatures_here():
    b = Board()
    b.creature(0, ATK0, "Wolf")  # 2, face up
    b.creature(0, DEF0, "Squire")  # 2, the other lane
    b.creature(1, 1, "Rock Giant")  # 3: seat 1's defence against seat 0
    zd, p1 = b.hand(0, "Zephyr Dancer", "Sprout")  # my other face-up creatures here +1
    b.place(0, zd, ATK0, pay=[p1])
    gh, p2 = b.hand(0, "Ghoul", "Shade")  # placed after the Dancer: still face-down then
    b.place(0, gh, ATK0, pay=[p2])
    ud, p3 = b.hand(0, "Undertow", "Spark Imp")  # the opponent's face-up creatures here -2
    b.place(0, ud, ATK0, pay=[p3])
    b.reveal()
    assert b.lane(0, ATK0) == ["Wolf", "Zephyr Dancer", "Ghoul"]
    assert b.total(0, ATK0) == (2 + 1) + 1 + 2  # Wolf boosted; not the Dancer nor the Ghoul
    assert b.total(0, DEF0) == 2  # not here: unchanged
    assert b.total(1, 1) == 3 - 2


def test_tl032_affinity_matters_through_effects_only():
    b = Board()
    b.creature(0, 0, "Wolf")  # nature
    b.creature(0, 1, "Ghoul")  # darkness, same printed points
    b.landmark(0, 0, "Sacred Grove")  # nature creatures +1
    assert b.total(0, 0) == 3 and b.total(0, 1) == 2


# --- the board --------------------------------------------------------------------------------
def test_tl033_tl034_tl035_lanes_and_damage_direction():
    b = Board()
    b.creature(0, 1, "Gaia Titan")  # seat 0 attacks in lane 1 = seat 1's defending lane
    b.creature(1, 1, "Wolf")  # seat 1 defends there
    b.creature(1, 0, "Rock Giant")  # seat 1 attacks in lane 0 = seat 0's defending lane
    b.creature(0, 0, "Blaze Knight")  # seat 0 defends with 3 against 3
    b.count()
    assert b.hp(1) == 10 - (6 - 2) and b.hp(0) == 10


def test_tl036_castles_start_at_10():
    b = Board()
    assert b.hp(0) == 10 and b.hp(1) == 10
    assert GAME.setting("castle_hp").default == 10


# --- phases -----------------------------------------------------------------------------------
def test_tl039_tl040_cards_are_placed_face_down_and_bots_do_not_see_them():
    b = Board()
    w, pay = b.hand(1, "Gaia Titan", "Sprout")
    b.hand(1, "Shade", "Shade")
    bp = bot_params("defensive")
    b.hand(0, "Wolf", "Rock Giant", "Sprout", "Shade")
    before = b.S.copy()
    from simlib.games.terralore import bots as tl_bots

    choice = tl_bots.choose_play_nb(b.S, b.cards, 4, 10, 7, 2, 0, 1, bp, b.ctx)
    b.S[:] = before
    b.place(1, w, 0, pay=[pay, b.S[1, HAND_AT]])  # seat 1 attacks seat 0's lane face-down
    assert b.hidden(1, 0) == [1]  # TL-039
    assert b.total(1, 0, face_up_only=True) == 0
    assert tl_bots.choose_play_nb(b.S, b.cards, 4, 10, 7, 2, 0, 1, bp, b.ctx) == choice  # TL-040


def test_tl041_several_cards_in_one_turn_each_paying_its_cost():
    b = Board()
    b.hand(0, "Wolf", "Squire", "Sprout", "Shade", "Ghoul", "Pebble Golem")
    b.play_phase(0, bot_params("aggressive"), bot=0)
    assert b.ps(0, "N_PLAYS") >= 2
    assert b.ps(0, "HAND_N") + b.ps(0, "GRAVE_N") + b.ps(0, "N_PLAYS") == 6
    assert b.breaches() == 0


def test_tl042_tl085_traps_stay_hidden_until_their_trigger():
    b = Board()
    wp, pay = b.hand(1, "Whirlpool", "Sprout")
    b.place(1, wp, 1, pay=[pay])
    b.reveal()
    assert b.traps(1, 1) == ["Whirlpool"] and b.zone(1, wp) == ZONE.TRAP  # TL-042
    b.creature(1, 1, "Gaia Titan")  # seat 1's defence 6 beats seat 0's attack: no trigger
    b.creature(0, 1, "Rock Giant")
    b.count()
    assert b.traps(1, 1) == ["Whirlpool"]
    b.creature(0, 1, "Mountain King")  # attack 3 + 5 = 8 > 6: the trap springs
    b.count()
    assert b.traps(1, 1) == []
    assert b.lane(0, 1) == ["Rock Giant"]  # it destroyed the strongest attacker
    assert b.hp(1) == 10  # 3 < 6 after the trap
    assert b.grave(1)[-1] == "Whirlpool"


def test_tl085_an_attacked_trap_needs_the_defence_beaten_not_tied():
    b = Board()
    b.trap(1, 1, "Overload")  # attacked: 3 damage to seat 0's castle
    b.creature(1, 1, "Rock Giant")  # seat 1's defence 3
    b.creature(0, 1, "Blaze Knight")  # seat 0's attack 3: a tie does not beat it
    b.count()
    assert b.traps(1, 1) == ["Overload"] and b.hp(0) == 10 and b.hp(1) == 10
    b.creature(0, 1, "Sprout")  # 4 > 3: now it springs, then 1 excess damage
    b.count()
    assert b.traps(1, 1) == [] and b.grave(1) == ["Overload"]
    assert b.hp(0) == 7 and b.hp(1) == 9


def test_tl085_enemy_creature_trap_aims_at_the_creature_revealed():
    b = Board()
    b.trap(1, 1, "Quicksand")  # exile the creature revealed here
    b.creature(0, 1, "Gaia Titan")
    w, pay = b.hand(0, "Sprout", "Shade")
    b.place(0, w, 1)
    b.reveal()
    assert b.lane(0, 1) == ["Gaia Titan"]  # Sprout was the one revealed: exiled
    assert b.zone(0, w) == ZONE.EXILE and b.traps(1, 1) == []
    _ = pay


def test_tl043_tl051_turn_one_die_winner_opens_and_is_the_first_player():
    b = Board(first_player=1)
    b.gs[GS.TURN] = 1
    assert b.reveal() == 1 and b.gs[GS.FIRST] == 1
    b = Board()
    b.gs[GS.TURN] = 1
    seen = {b.reveal(new_state(7, k)) for k in range(40)}
    assert seen == {0, 1} and b.gs[GS.DIE_ROLLS] >= 40


def test_tl052_die_roll_is_fair_with_rerolls():
    # exact: P(seat 0 wins) = 1/2; P(decided on the first roll) = 30/36
    b = Board()
    n = 20000
    wins = 0
    rolls = 0
    rng = new_state(11, 0)
    for _ in range(n):
        b.gs[GS.DIE_ROLLS] = 0
        wins += engine.die_roll_nb(b.gs, rng) == 0
        rolls += b.gs[GS.DIE_ROLLS] == 1
    # 4.5 sigma bounds: false-alarm rate below 1e-5 each (fixed seed: deterministic)
    assert abs(wins / n - 0.5) < 4.5 * np.sqrt(0.25 / n)
    p = 30 / 36
    assert abs(rolls / n - p) < 4.5 * np.sqrt(p * (1 - p) / n)


def test_tl044_perfect_tie_rolls_again_tl045_tl050_otherwise_the_losing_player_opens():
    b = Board()
    b.hp(0, 6)
    assert engine.opener_nb(b.S, b.gs, b.cards, b.cfg, new_state(0, 0)) == 0  # TL-045
    b.hp(0, 10)
    b.creature(1, 0, "Wolf")
    assert engine.opener_nb(b.S, b.gs, b.cards, b.cfg, new_state(0, 0)) == 0  # TL-050
    b.creature(0, 0, "Squire")  # 2 field points each, HP equal: a die roll (TL-044)
    b.gs[GS.DIE_ROLLS] = 0
    seen = {int(engine.opener_nb(b.S, b.gs, b.cards, b.cfg, new_state(3, k)))
            for k in range(30)}
    assert seen == {0, 1} and b.gs[GS.DIE_ROLLS] >= 30
    b.creature(0, 1, "Gaia Titan", face_down=True)  # placed this turn: not yet seen
    b.gs[GS.DIE_ROLLS] = 0
    engine.opener_nb(b.S, b.gs, b.cards, b.cfg, new_state(3, 0))
    assert b.gs[GS.DIE_ROLLS] >= 1  # still a perfect tie on face-up points


def test_tl046_tl047_tl048_tl049_reveal_order():
    # opener L = 0 (lower HP). Steps: L's lane 0, O's lane 0, O's lane 1, L's lane 1.
    b = Board()
    b.hp(0, 5)
    # step 1 vs 2: L's Doom Blade in lane 0 is revealed before O's creature there, so it
    # finds nothing face up; O's Doom Blade in lane 1 (step 3) is revealed before L's
    # creature in lane 1 (step 4), so it finds nothing either.
    db0, p0 = b.hand(0, "Doom Blade", "Sprout")
    b.place(0, db0, 0, pay=[p0])
    t1, = b.hand(1, "Gaia Titan")
    g1 = b.hand(1, "Shade", "Shade", "Shade")
    b.place(1, t1, 0, pay=g1)
    db1, p1 = b.hand(1, "Doom Blade", "Sprout")
    b.place(1, db1, 1, pay=[p1])
    t0, = b.hand(0, "Gaia Titan")
    g0 = b.hand(0, "Shade", "Shade", "Shade")
    b.place(0, t0, 1, pay=g0)
    assert b.reveal() == 0
    assert b.lane(1, 0) == ["Gaia Titan"] and b.lane(0, 1) == ["Gaia Titan"]
    # O's two skills resolve step 2 (lane 0) before step 3 (lane 1): graveyard order
    b2 = Board()
    b2.hp(0, 5)
    fb, pa = b2.hand(1, "Fireball", "Sprout")
    hr, pb = b2.hand(1, "Healing Rain", "Shade")
    b2.place(1, hr, 1, pay=[pb])  # placed first, but in the later step
    b2.place(1, fb, 0, pay=[pa])
    tw, = b2.hand(0, "Tailwind")
    sf, = b2.hand(0, "Static Field")
    b2.place(0, sf, 1)  # step 4
    b2.place(0, tw, 0)  # step 1
    b2.reveal()
    assert b2.grave(1)[-2:] == ["Fireball", "Healing Rain"]  # TL-047 before TL-048
    assert b2.grave(0)[-2:] == ["Tailwind", "Static Field"]  # TL-046 first, TL-049 last
    # across seats in lane 1: O's creature (step 3) is face up when L's skill (step 4) comes
    b3 = Board()
    b3.hp(0, 5)
    w, = b3.hand(1, "Wolf")
    b3.place(1, w, 1)  # step 3: O's defending lane
    db, p = b3.hand(0, "Doom Blade", "Sprout")
    b3.place(0, db, 1, pay=[p])  # step 4: L's attacking lane, same physical lane
    b3.reveal()
    assert b3.lane(1, 1) == []  # revealed in step 3, destroyed in step 4


def test_tl053_cards_in_one_step_resolve_in_the_order_placed():
    b = Board()
    b.hp(0, 5)
    fb, pa = b.hand(0, "Fireball", "Sprout")
    hr, pb = b.hand(0, "Healing Rain", "Shade")
    b.place(0, hr, 0, pay=[pb])
    b.place(0, fb, 0, pay=[pa])
    b.reveal()
    assert b.grave(0)[-2:] == ["Healing Rain", "Fireball"]


def test_tl054_tl055_effects_resolve_in_reveal_order_before_counting():
    b = Board()
    b.creature(1, 1, "Gaia Titan")  # seat 1's defence: 6
    b.creature(0, 1, "Rock Giant")  # seat 0's attack: 3
    db, p = b.hand(0, "Doom Blade", "Sprout")
    b.place(0, db, 1, pay=[p])
    opener = b.reveal()
    b.count(opener)
    assert b.hp(1) == 7  # the defender was destroyed before lane totals were worked out


def test_tl056_tl057_tl058_tl059_tl060_counting():
    b = Board()
    b.creature(0, 1, "Rock Giant")  # 3
    b.creature(0, 1, "Wolf")  # +2 = 5 attack (TL-056)
    b.creature(1, 1, "Squire")  # 2 defence (TL-057)
    b.creature(1, 0, "Sprout")  # 1 attack on seat 0
    b.creature(0, 0, "Gaia Titan")  # 6 defence: no harm back to seat 1 (TL-059)
    b.count()
    assert b.hp(1) == 7 and b.hp(0) == 10  # TL-058: excess 3
    b2 = Board()
    b2.creature(0, 1, "Rock Giant")
    b2.creature(1, 0, "Rock Giant")
    b2.hp(0, 3)
    b2.hp(1, 3)
    b2.count()
    assert b2.hp(0) == 0 and b2.hp(1) == 0  # TL-060: both attacks, damage together


def test_tl023_draw_effect_draws_its_amount_into_the_hand():
    b = Board()
    hv, p = b.hand(0, "Harvest", "Sprout")  # draw 2
    b.next_draws(0, "Wolf", "Squire", "Ghoul")
    top = b.ps(0, "DECK_TOP")
    b.place(0, hv, DEF0, pay=[p])
    b.reveal()
    assert b.hand_names(0) == ["Wolf", "Squire"] and b.ps(0, "DECK_TOP") == top + 2
    assert b.ps(1, "DECK_TOP") == 0 and b.ps(1, "HAND_N") == 0
    assert b.grave(0) == ["Sprout", "Harvest"]


def test_tl023_mill_effect_sends_the_opponents_top_cards_to_their_graveyard():
    b = Board()
    sc, p = b.hand(0, "Scatter", "Sprout")  # mill 2
    b.next_draws(1, "Wolf", "Squire", "Ghoul")
    mine = b.ps(0, "DECK_TOP")
    b.place(0, sc, ATK0, pay=[p])
    b.reveal()
    assert b.grave(1) == ["Wolf", "Squire"] and b.ps(1, "DECK_TOP") == 2
    assert b.ps(0, "DECK_TOP") == mine and b.grave(0) == ["Sprout", "Scatter"]
    assert b.breaches() == 0


def test_tl063_healing_stops_at_the_starting_hp():
    b = Board()
    b.hp(0, 9)
    hr, p = b.hand(0, "Healing Rain", "Sprout")
    b.place(0, hr, 0, pay=[p])
    b.reveal()
    assert b.hp(0) == 10


# --- lanes ------------------------------------------------------------------------------------
def test_tl064_tl065_tl066_a_fifth_creature_destroys_one_of_the_four():
    b = Board()
    for name in ("Wolf", "Sprout", "Rock Giant", "Squire"):
        b.creature(0, 1, name)
    for name in ("Wolf", "Wolf", "Wolf", "Wolf"):
        b.creature(1, 1, name)  # TL-064: the opponent's four do not count toward mine
    b.hand(0, "Ghoul", "Shade")
    b.play_phase(0, bot_params("aggressive"), bot=0)
    lane = b.lane(0, 1)
    assert len(lane) == 4 and "Ghoul" in lane  # TL-065
    assert "Sprout" not in lane and "Sprout" in b.grave(0)  # TL-066: the bot's weakest
    assert b.breaches() == 0


def test_tl064_lane_size_setting():
    b = Board(lane_size=2)
    b.creature(0, 1, "Wolf")
    b.creature(0, 1, "Wolf")
    gt, = b.hand(0, "Ghoul")
    pay = b.hand(0, "Shade")
    b.place(0, gt, 1, pay=pay, victim=0)
    assert b.lane(0, 1) == ["Wolf", "Ghoul"]


def test_tl067_creatures_leave_only_to_effects_or_to_make_room():
    # a lane with free slots: the bot plays a creature there and destroys none of its own
    b = Board()
    b.creature(0, 1, "Wolf")
    b.creature(0, 0, "Squire")
    b.hand(0, "Sprout")
    b.play_phase(0, bot_params("aggressive"), bot=0)
    assert b.ps(0, "N_PLAYS") == 1 and b.hand_names(0) == []  # the Sprout was played
    assert sorted(b.lane(0, 0) + b.lane(0, 1)) == ["Sprout", "Squire", "Wolf"]
    assert b.grave(0) == []
    # whole matches with invariant checks: whatever leaves the field lands in exactly one
    # zone (this does not tell why it left; the scenario above does)
    df = play({"check_invariants": True, "deck0": "shadow_control", "deck1": "nature_swarm"},
              games=300)
    assert (df["invariant_violations"] == 0).all()


# --- graveyard, exile, banish, tokens ---------------------------------------------------------
def test_tl068_tl079_destroy_to_graveyard_tl069_tl082_exile_out_of_the_game():
    b = Board()
    w = b.creature(1, 1, "Wolf")
    db, p = b.hand(0, "Doom Blade", "Sprout")
    b.place(0, db, 1, pay=[p])
    b.reveal()
    assert b.zone(1, w) == ZONE.GRAVE and b.grave(1) == ["Wolf"]
    b2 = Board()
    w2 = b2.creature(1, 1, "Wolf")
    cy, pa, pb = b2.hand(0, "Cyclone", "Sprout", "Shade")
    b2.place(0, cy, 1, pay=[pa, pb])
    b2.reveal()
    assert b2.zone(1, w2) == ZONE.EXILE and b2.grave(1) == [] and b2.ps(1, "EXILE_N") == 1
    assert b2.breaches() == 0


def test_tl081_here_means_the_lane_played_in():
    b = Board()
    b.creature(0, 0, "Wolf")
    b.creature(0, 1, "Wolf")
    tw, = b.hand(0, "Tailwind")
    b.place(0, tw, 1)
    b.reveal()
    assert b.total(0, 1) == 3 and b.total(0, 0) == 2


def test_tl083_tl084_synergy_reads_the_whole_deck_list():
    cards = tl_compile.card_table(DATA)
    swarm = tl_compile.deck_list(DATA, "nature_swarm")  # every card costs <= 2
    pts, _ = tl_compile.deck_arrays(cards, swarm)
    j = list(swarm).index(cid("Dawn Herald"))
    assert pts[j] == cards[cid("Dawn Herald"), CFC.POINTS] + 2
    other = swarm.copy()
    other[0] = cid("Gaia Titan")  # one card of cost 3 breaks it
    pts2, _ = tl_compile.deck_arrays(cards, other)
    assert pts2[j] == cards[cid("Dawn Herald"), CFC.POINTS]
    # TL-083: every card of the deck, never "enough of them": fire_rush holds 9 fire cards
    # of 20, so Inferno Titan's "every card is fire" synergy does not hold there ...
    rush = tl_compile.deck_list(DATA, "fire_rush")
    titan = list(rush).index(cid("Inferno Titan"))
    assert 5 < int(np.sum(cards[rush, CFC.AFF] == cards[cid("Inferno Titan"), CFC.AFF])) < DECK
    pts3, _ = tl_compile.deck_arrays(cards, rush)
    assert pts3[titan] == 4
    # ... and holds in a list whose every card is fire (a made-up list: the rule test needs
    # only the affinities), and one non-fire card breaks it again
    fire = [c for c in range(len(cards)) if cards[c, CFC.AFF] == cards[cid("Inferno Titan"),
                                                                         CFC.AFF]
            and cards[c, CFC.TYPE] != 4]
    mono = np.array([cid("Inferno Titan")] + (fire * DECK)[:DECK - 1], dtype=rush.dtype)
    assert pts3[titan] + 2 == tl_compile.deck_arrays(cards, mono)[0][0]
    mono[5] = cid("Wolf")
    assert tl_compile.deck_arrays(cards, mono)[0][0] == 4
    # TL-084: the list, not what is left: the compiled deck is fixed for the whole match


def test_tl086_tl087_token_creature_is_banished_when_it_leaves():
    b = Board()
    og, p = b.hand(1, "Overgrowth", "Sprout")
    b.place(1, og, 1, pay=[p])
    b.reveal()
    assert b.lane(1, 1) == ["Sapling Token", "Sapling Token"]
    assert b.ps(1, "TOKENS") == 2
    db, p2 = b.hand(0, "Doom Blade", "Shade")
    b.place(0, db, 1, pay=[p2])
    b.reveal()
    assert b.lane(1, 1) == ["Sapling Token"]
    assert "Sapling Token" not in b.grave(1) and b.ps(1, "BANISH_N") == 1  # TL-087
    assert b.breaches() == 0


def test_tl088_token_skill_is_banished_once_played():
    b = Board()
    sc, pa, pb = b.hand(0, "Storm Caller", "Sprout", "Shade")
    b.place(0, sc, 1, pay=[pa, pb])
    b.reveal()
    assert "Spark Token" in b.hand_names(0)
    k = b.hand_names(0).index("Spark Token")
    i = int(b.S[0, HAND_AT + k])
    b.place(0, i, 1)
    b.reveal()
    assert b.hp(1) == 9  # its damage 1
    assert b.zone(0, i) == ZONE.BANISHED and "Spark Token" not in b.grave(0)
    assert b.breaches() == 0


def test_invariant_checker_can_fail():
    b = Board()
    b.hand(0, "Wolf")
    assert b.breaches() == 0
    b.S[0, PS.HAND_N] = 0  # the card vanishes from every list
    assert b.breaches() > 0
    b2 = Board()
    b2.creature(0, 1, "Wolf")
    b2.S[0, GRAVE_AT] = 19  # a deck card listed in the graveyard while still in the deck
    b2.S[0, PS.GRAVE_N] = 1
    assert b2.breaches() > 0


# --- bots ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("b0", ["aggressive", "defensive", "value"])
@pytest.mark.parametrize("b1", ["aggressive", "defensive", "value"])
def test_tl002_any_bot_in_either_seat(b0, b1):
    df = play({"bot0": b0, "bot1": b1, "check_invariants": True}, games=60)
    assert (df["bot0"] == b0).all() and (df["bot1"] == b1).all()
    assert (df["invariant_violations"] == 0).all()
    assert (df["cards_played0"] > 0).mean() > 0.5


def test_tl002_bot_parameters_change_play():
    a = play(bp=bot_params("value", attack_weight=3.0, defend_weight=0.0), games=300)
    b = play(bp=bot_params("value", attack_weight=0.2, defend_weight=3.0), games=300)
    assert a["rounds"].mean() < b["rounds"].mean()


def test_bad_deck_name_is_one_clear_error():
    with pytest.raises(SimlibInputError, match="deck0.*allowed"):
        GAME.resolve(None, {"deck0": "nope"})
    with pytest.raises(SimlibInputError, match="bot1"):
        GAME.resolve(None, {"bot1": "nope"})


def test_zone_names_cover_reading_functions():
    # played masks record deck cards played from hand, by card id
    df = play(games=50)
    for s in range(2):
        m = df[f"played{s}_0"].to_numpy().view(np.uint64)
        counts = np.array([bin(int(x)).count("1") for x in m]) + np.array(
            [bin(int(x)).count("1") for x in df[f"played{s}_1"].to_numpy().view(np.uint64)])
        np.testing.assert_array_equal(counts, df[f"cards_played{s}"])


def test_designer_data_file_decks_are_named_in_the_results(tmp_path):
    swarm = DATA["decks"]["nature_swarm"]["cards"]
    rush = DATA["decks"]["fire_rush"]["cards"]
    path = tmp_path / "mine.toml"
    path.write_text("[decks]\ndefault = 'mine'\n[decks.mine]\ncards = [" + ", ".join(
        f'"{n}"' for n in swarm) + "]\n[decks.other]\ncards = [" + ", ".join(
        f'"{n}"' for n in rush) + "]\n")
    df = play({"data": str(path), "deck1": "other"}, games=20)
    assert (df["deck0"] == "mine").all() and (df["deck1"] == "other").all()
    # the run's context names them, whatever data file this process compiled last
    values = GAME.resolve(None, {"data": str(path), "deck1": "other"})
    mine = GAME.compile(values)
    GAME.compile(GAME.resolve(None, {}))
    bot = GAME.bot(None)
    rec = GAME.play_batch(mine, bot.id, np.array(list(bot.params.values())), 1, 0, 5)
    df = GAME.records_to_frame(rec, GAME.context(values))
    assert (df["deck0"] == "mine").all() and (df["deck1"] == "other").all()
    assert GAME.item_labels(GAME.context(values)) == tuple(
        tl_compile.card_names(tl_compile.load_data(str(path))))


@pytest.mark.parametrize("settings", [
    {"hand_limit": 1, "lane_size": 1},
    {"draw_per_turn": 0},  # no deck-out: the 60-turn cap ends it by the tiebreakers
    {"castle_hp": 1, "start_hand": 20},
    {"draw_per_turn": 5, "hand_limit": 16, "lane_size": 8, "castle_hp": 99},
])
def test_extreme_settings_keep_every_card_accounted_for(settings):
    for bot in ("aggressive", "defensive", "value"):
        df = play({**settings, "check_invariants": True}, bot=bot, games=40)
        assert (df["invariant_violations"] == 0).all()
        assert df["rounds"].between(1, 60).all()
        top = settings.get("castle_hp", 10)  # HP stays within 0..castle_hp (TL-062/063)
        assert df["hp0"].between(0, top).all() and df["hp1"].between(0, top).all()


def test_tl006_opening_hand_probability_is_exact():
    # a fair shuffle puts a given card in the 4-card opening hand with probability 4/20,
    # and two given cards together with probability (4*3)/(20*19)
    b = Board()
    n = 20000
    one = both = 0
    for k in range(n):
        engine.setup_nb(b.S, b.gs, b.played, b.params, new_state(99, k))
        hand = set(int(x) for x in b.S[0, HAND_AT:HAND_AT + 4])
        one += 0 in hand
        both += 0 in hand and 1 in hand
    # 4.5-sigma bounds: false-alarm rate below 1e-5 each (fixed seed: deterministic)
    for hits, p in ((one, 4 / 20), (both, 12 / 380)):
        assert abs(hits / n - p) < 4.5 * np.sqrt(p * (1 - p) / n), (hits / n, p)
