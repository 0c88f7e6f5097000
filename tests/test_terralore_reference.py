"""The reveal-and-count step: a plain-Python reference against the kernel (hypothesis).

The reference below is written from the rulebook and the readings in the package
docstring, with lists and dicts instead of the kernel's packed array. Random boards (face-up
creatures with boosts, standing traps and landmarks, and this turn's face-down creatures,
skills, landmarks and traps in both lanes of both seats, any castle HP) are revealed and
counted by both; castle HP, every lane, trap row, landmark, graveyard and the exile and
banish counts must agree. Cards with effects that draw, mill, summon, raise or give tokens
are left out here (their scenarios are in ``test_terralore_rules.py``).
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from terralore_helpers import DATA, NAMES, Board, cid, face_down

from simlib.core.rng import new_state
from simlib.games.terralore import engine
from simlib.games.terralore.state import (
    BONUS_AT,
    CFC,
    CTYPE,
    DECK,
    EFFECT,
    GS,
    HID_AT,
    INST_AT,
    LANE_AT,
    LMAX,
    PS,
    PTS_AT,
    TMAX,
    TRAP_AT,
    TRIGGER,
)

CARDS = Board().cards
SIMPLE = {EFFECT.NONE, EFFECT.DAMAGE, EFFECT.HEAL, EFFECT.DESTROY, EFFECT.EXILE, EFFECT.BOOST,
          EFFECT.WEAKEN, EFFECT.LM_LANE_BOOST, EFFECT.LM_AFFINITY_BOOST, EFFECT.LM_HEAL,
          EFFECT.LM_DAMAGE}
POOL = [n for n, c in zip(NAMES, DATA["cards"], strict=True)
        if c["type"] != "token" and CARDS[cid(n), CFC.EFFECT] in SIMPLE]
CREATURES = [n for n in POOL if CARDS[cid(n), CFC.TYPE] == CTYPE.CREATURE]
TRAPS = [n for n in POOL if CARDS[cid(n), CFC.TYPE] == CTYPE.TRAP]
LANDMARKS = [n for n in POOL if CARDS[cid(n), CFC.TYPE] == CTYPE.LANDMARK]
CASTLE = 10


# --- the reference ------------------------------------------------------------------------------
class Seat:
    def __init__(self):
        self.hp = CASTLE
        self.lanes = [[], []]  # dicts: inst, card, pts, bonus, hid
        self.traps = [[], []]  # (inst, card)
        self.landmark = None  # (inst, card, lane)
        self.grave = []  # card names
        self.exiled = 0
        self.banished = 0
        self.plays = []  # (inst, card, lane, kind)


def ref_points(seat, p, cr):
    v = cr["pts"] + cr["bonus"]
    if seat.landmark is not None:
        _, lc, lane = seat.landmark
        e, n = CARDS[lc, CFC.EFFECT], CARDS[lc, CFC.AMOUNT]
        if e == EFFECT.LM_LANE_BOOST and lane == p:
            v += n
        if e == EFFECT.LM_AFFINITY_BOOST and CARDS[cr["card"], CFC.AFF] == CARDS[lc, CFC.ARG]:
            v += n
    return max(v, 0)


def ref_total(seat, p, face_up_only=False):
    return sum(ref_points(seat, p, cr) for cr in seat.lanes[p]
               if not (face_up_only and cr["hid"]))


def ref_strongest(seat, p):
    best, bv = -1, -1
    for k, cr in enumerate(seat.lanes[p]):
        if cr["hid"]:
            continue
        v = ref_points(seat, p, cr)
        if v > bv:
            best, bv = k, v
    return best


def ref_to_grave(seat, inst, card):
    if inst >= DECK:
        seat.banished += 1
    else:
        seat.grave.append(NAMES[card])


def ref_remove(seat, p, k, exile):
    cr = seat.lanes[p].pop(k)
    if cr["inst"] >= DECK:
        seat.banished += 1
    elif exile:
        seat.exiled += 1
    else:
        seat.grave.append(NAMES[cr["card"]])


def ref_effect(seats, s, p, card, src=-1, target=-1):
    me, opp = seats[s], seats[1 - s]
    e, n = CARDS[card, CFC.EFFECT], CARDS[card, CFC.AMOUNT]
    if e == EFFECT.DAMAGE:
        opp.hp = max(0, opp.hp - n)
    elif e == EFFECT.HEAL and me.hp > 0:  # TL-017: a fallen castle stays fallen
        me.hp = min(CASTLE, me.hp + n)
    elif e in (EFFECT.DESTROY, EFFECT.EXILE):
        k = target if target >= 0 else ref_strongest(opp, p)
        if k >= 0:
            ref_remove(opp, p, k, e == EFFECT.EXILE)
    elif e == EFFECT.BOOST:
        for k, cr in enumerate(me.lanes[p]):
            if k != src and not cr["hid"]:
                cr["bonus"] += n
    elif e == EFFECT.WEAKEN:
        for cr in opp.lanes[p]:
            if not cr["hid"]:
                cr["bonus"] -= n


def ref_reveal_and_count(seats, rng):
    h0, h1 = seats[0].hp, seats[1].hp
    if h0 != h1:
        opener = 0 if h0 < h1 else 1
    else:
        f0 = ref_total(seats[0], 0, True) + ref_total(seats[0], 1, True)
        f1 = ref_total(seats[1], 0, True) + ref_total(seats[1], 1, True)
        if f0 != f1:
            opener = 0 if f0 < f1 else 1
        else:
            opener = int(engine.die_roll_nb(np.zeros(GS.N, np.int64), rng))
    o = 1 - opener
    for s, p in ((opener, opener), (o, opener), (o, o), (opener, o)):
        if seats[0].hp == 0 or seats[1].hp == 0:
            return opener  # TL-017: a castle fallen in the reveal ends the match there
        seat = seats[s]
        for inst, card, lane, kind in seat.plays:
            if lane != p:
                continue
            if kind == CTYPE.CREATURE:
                ks = [k for k, cr in enumerate(seat.lanes[p]) if cr["inst"] == inst]
                if not ks:
                    continue
                k = ks[0]
                seat.lanes[p][k]["hid"] = 0
                if CARDS[card, CFC.EFFECT] != EFFECT.NONE:
                    ref_effect(seats, s, p, card, src=k)
                other = seats[1 - s]
                for t, (tinst, tcard) in enumerate(other.traps[p]):
                    if CARDS[tcard, CFC.TRIGGER] == TRIGGER.ENEMY_CREATURE:
                        ks = [k for k, cr in enumerate(seat.lanes[p]) if cr["inst"] == inst]
                        if ks:
                            other.traps[p].pop(t)
                            ref_effect(seats, 1 - s, p, tcard, target=ks[0])
                            ref_to_grave(other, tinst, tcard)
                        break
            elif kind == CTYPE.SKILL:
                ref_effect(seats, s, p, card)
                ref_to_grave(seat, inst, card)
            elif kind == CTYPE.LANDMARK:
                if seat.landmark is not None:
                    ref_to_grave(seat, seat.landmark[0], seat.landmark[1])
                seat.landmark = (inst, card, p)
        # traps placed this turn are already in their rows and stay hidden
    if seats[0].hp == 0 or seats[1].hp == 0:
        return opener
    for d in (opener, o):
        a = 1 - d
        if ref_total(seats[a], d) > ref_total(seats[d], d):
            for t, (tinst, tcard) in enumerate(seats[d].traps[d]):
                if CARDS[tcard, CFC.TRIGGER] == TRIGGER.ATTACKED:
                    seats[d].traps[d].pop(t)
                    ref_effect(seats, d, d, tcard)
                    ref_to_grave(seats[d], tinst, tcard)
                    break
    dmg = [max(0, ref_total(seats[1], 0) - ref_total(seats[0], 0)),
           max(0, ref_total(seats[0], 1) - ref_total(seats[1], 1))]
    for s in range(2):
        lm = seats[s].landmark
        if lm is not None and CARDS[lm[1], CFC.EFFECT] == EFFECT.LM_DAMAGE:
            dmg[1 - s] += CARDS[lm[1], CFC.AMOUNT]
    for s in range(2):
        seats[s].hp = max(0, seats[s].hp - dmg[s])
    for s in range(2):
        lm = seats[s].landmark
        if (lm is not None and seats[s].hp > 0
                and CARDS[lm[1], CFC.EFFECT] == EFFECT.LM_HEAL):
            seats[s].hp = min(CASTLE, seats[s].hp + CARDS[lm[1], CFC.AMOUNT])
    return opener


# --- random boards ------------------------------------------------------------------------------
play_st = st.tuples(st.sampled_from(POOL), st.integers(0, 1))
seat_st = st.fixed_dictionaries({
    "hp": st.integers(1, CASTLE),
    "up": st.tuples(*[st.lists(st.tuples(st.sampled_from(CREATURES), st.integers(-2, 2)),
                               max_size=3)] * 2),
    "traps": st.lists(st.tuples(st.sampled_from(TRAPS), st.integers(0, 1)), max_size=2),
    "landmark": st.one_of(st.none(), st.tuples(st.sampled_from(LANDMARKS), st.integers(0, 1))),
    "plays": st.lists(play_st, max_size=5),
})


def build(spec):
    b = Board()
    seats = [Seat(), Seat()]
    for s in range(2):
        d, seat = spec[s], seats[s]
        b.hp(s, d["hp"])
        seat.hp = d["hp"]
        for p in range(2):
            for name, bonus in d["up"][p]:
                i = b.creature(s, p, name, bonus=bonus)
                seat.lanes[p].append({"inst": i, "card": cid(name), "pts": int(
                    CARDS[cid(name), CFC.POINTS]), "bonus": bonus, "hid": 0})
        for name, p in d["traps"]:
            seat.traps[p].append((b.trap(s, p, name), cid(name)))
        if d["landmark"] is not None:
            name, p = d["landmark"]
            seat.landmark = (b.landmark(s, p, name), cid(name), p)
        for name, p in d["plays"]:
            kind = CARDS[cid(name), CFC.ACTS]
            if kind == CTYPE.CREATURE and len(seat.lanes[p]) >= 4:
                continue
            if kind == CTYPE.TRAP and len(seat.traps[p]) >= TMAX:
                continue
            i = face_down(b, s, p, name)
            seat.plays.append((i, cid(name), p, kind))
            if kind == CTYPE.CREATURE:
                seat.lanes[p].append({"inst": i, "card": cid(name), "pts": int(
                    CARDS[cid(name), CFC.POINTS]), "bonus": 0, "hid": 1})
            elif kind == CTYPE.TRAP:
                seat.traps[p].append((i, cid(name)))
    return b, seats


def kernel_view(b):
    S = b.S
    out = []
    for s in range(2):
        lanes = []
        for p in range(2):
            lanes.append([(NAMES[S[s, INST_AT + S[s, LANE_AT + p * LMAX + k]]],
                           int(S[s, PTS_AT + S[s, LANE_AT + p * LMAX + k]]),
                           int(S[s, BONUS_AT + p * LMAX + k]), int(S[s, HID_AT + p * LMAX + k]))
                          for k in range(S[s, PS.LANE_N + p])])
        traps = [[NAMES[S[s, INST_AT + S[s, TRAP_AT + p * TMAX + t]]]
                  for t in range(S[s, PS.TRAP_N + p])] for p in range(2)]
        lm = S[s, PS.LANDMARK]
        landmark = None if lm < 0 else (NAMES[S[s, INST_AT + lm]], int(S[s, PS.LM_LANE]))
        out.append((int(S[s, PS.HP]), lanes, traps, landmark, b.grave(s),
                    int(S[s, PS.EXILE_N]), int(S[s, PS.BANISH_N])))
    return out


def ref_view(seats):
    out = []
    for seat in seats:
        lanes = [[(NAMES[cr["card"]], cr["pts"], cr["bonus"], cr["hid"]) for cr in seat.lanes[p]]
                 for p in range(2)]
        traps = [[NAMES[c] for _, c in seat.traps[p]] for p in range(2)]
        landmark = None if seat.landmark is None else (NAMES[seat.landmark[1]],
                                                       seat.landmark[2])
        out.append((seat.hp, lanes, traps, landmark, seat.grave, seat.exiled, seat.banished))
    return out


@settings(max_examples=400, deadline=None)
@given(spec=st.tuples(seat_st, seat_st), seed=st.integers(0, 2**32))
def test_reveal_and_count_match_the_reference(spec, seed):
    b, seats = build(spec)
    assert kernel_view(b) == ref_view(seats)  # the boards start equal
    rng_k = new_state(seed, 0)
    rng_r = rng_k.copy()
    opener = b.reveal(rng_k)
    if not engine.castle_fallen_nb(b.S):  # the match loop counts only while both stand
        b.count(opener)
    assert ref_reveal_and_count(seats, rng_r) == opener
    assert kernel_view(b) == ref_view(seats)
    assert b.breaches() == 0


def test_reference_comparison_can_fail():
    # the same board, one side counted and the other not: the views must differ
    spec = ({"hp": 5, "up": ([], [("Gaia Titan", 0)]), "traps": [], "landmark": None,
             "plays": []},
            {"hp": 9, "up": ([], []), "traps": [], "landmark": None, "plays": []})
    b, seats = build(spec)
    b.count(0)
    assert kernel_view(b) != ref_view(seats)
