"""Terralore rules.

Setup, draws, paying and placing, the reveal order, effects, traps, counting, the end of the match
and the batch kernel.

Every helper takes the state (``S``, and ``gs`` / ``played`` where it needs them; layout
in ``state.py``), then the card table ``cards`` and the scalar settings ``cfg``, then its
own arguments, with the generator state ``rng`` last, and says what it writes. Rule ids
(TL-nnn) refer to ``shared/rules/terralore-checklist.md``; readings of open items are in
``__init__.py``.
"""

from __future__ import annotations

import numpy as np

from simlib.core.jit import njit
from simlib.core.rng import d6_nb, seed_state_nb, shuffle_nb
from simlib.games.terralore import bots
from simlib.games.terralore.state import (
    AMT_AT,
    BONUS_AT,
    CAUSE,
    CAUSE_NAMES,
    CFC,
    CTYPE,
    DECK,
    DECK_AT,
    EFFECT,
    GRAVE_AT,
    GS,
    HAND_AT,
    HID_AT,
    HMAX,
    INST_AT,
    LANE_AT,
    LMAX,
    MAX_TOKENS,
    MAX_TURNS,
    NI,
    NW,
    PLAYS_AT,
    PMAX,
    PS,
    PTS_AT,
    TMAX,
    TRAP_AT,
    TRIGGER,
    ZONE,
    ZONE_AT,
    alloc_nb,
    field_points_nb,
    lane_total_nb,
    strongest_nb,
)

# --- compiled settings: the tuple ``params`` --------------------------------------------
# params = (cfg, cards, decks, dpts, damt)
#   cfg   int64 (CFG_N,)        scalar settings, slots below
#   cards int32 (n_cards, CF.N) the card pool (columns ``state.CF``)
#   decks int32 (2, 20)         card id of each deck position, per seat
#   dpts  int32 (2, 20)         printed points of each deck position, synergy applied
#   damt  int32 (2, 20)         effect amount of each deck position, synergy applied
CFG_CASTLE_HP = 0
CFG_START_HAND = 1
CFG_HAND_LIMIT = 2
CFG_DRAW = 3
CFG_LANE_SIZE = 4
CFG_FIRST = 5  # -1: die roll (TL-043); 0/1: that seat wins the round-1 roll
CFG_CHECK = 6
CFG_DECK0 = 7
CFG_DECK1 = 8
CFG_SHORT_DRAW = 9  # TL-016: 0 'lose' (draw what is left, then lose), 1 'play_on'
CFG_BOTH_FALL = 10  # TL-062: 0 'tiebreak' (HP stops at 0), 1 'overkill'
CFG_N = 11

OUTCOME_NAMES = CAUSE_NAMES
STILL_PLAYING = -2


# --- moving cards ------------------------------------------------------------------------
@njit(refcount=False)
def to_grave_nb(S, s, i):
    """Send seat ``s``'s instance ``i`` to its graveyard; a token is banished (TL-087).

    Writes ``S`` (graveyard, zone, banish count).
    """
    if i >= DECK:
        S[s, ZONE_AT + i] = ZONE.BANISHED
        S[s, PS.BANISH_N] += 1
    else:
        S[s, ZONE_AT + i] = ZONE.GRAVE
        S[s, GRAVE_AT + S[s, PS.GRAVE_N]] = i
        S[s, PS.GRAVE_N] += 1


@njit(refcount=False)
def exile_nb(S, s, i):
    """Remove seat ``s``'s instance ``i`` from the game (TL-069/082). Writes ``S``."""
    if i >= DECK:
        S[s, ZONE_AT + i] = ZONE.BANISHED
        S[s, PS.BANISH_N] += 1
    else:
        S[s, ZONE_AT + i] = ZONE.EXILE
        S[s, PS.EXILE_N] += 1


@njit(refcount=False)
def add_to_hand_nb(S, cfg, s, i):
    """Put instance ``i`` into seat ``s``'s hand.

    Over the limit it goes to the graveyard instead (TL-007/008). Returns True if it reached the
    hand. Writes ``S``.
    """
    n = S[s, PS.HAND_N]
    if n >= cfg[CFG_HAND_LIMIT]:
        to_grave_nb(S, s, i)
        return False
    S[s, HAND_AT + n] = i
    S[s, PS.HAND_N] = n + 1
    S[s, ZONE_AT + i] = ZONE.HAND
    return True


@njit(refcount=False)
def draw_card_nb(S, cfg, s):
    """Seat ``s`` draws one card; returns False (nothing drawn) if the deck is empty.

    A card drawn into a full hand still leaves the deck and goes to the graveyard
    (TL-008). Writes ``S``.
    """
    top = S[s, PS.DECK_TOP]
    if top >= DECK:
        return False
    S[s, PS.DECK_TOP] = top + 1
    add_to_hand_nb(S, cfg, s, S[s, DECK_AT + top])
    return True


@njit(refcount=False)
def remove_from_hand_nb(S, s, k):
    """Take the card in hand slot ``k`` out of seat ``s``'s hand (order kept); returns it.

    Writes ``S`` (the caller sets the card's new zone).
    """
    i = S[s, HAND_AT + k]
    n = S[s, PS.HAND_N]
    for j in range(k, n - 1):
        S[s, HAND_AT + j] = S[s, HAND_AT + j + 1]
    S[s, PS.HAND_N] = n - 1
    return i


@njit(refcount=False)
def hand_slot_nb(S, s, i):
    """Hand slot of instance ``i`` of seat ``s``, -1 if it is not in hand."""
    for k in range(S[s, PS.HAND_N]):
        if S[s, HAND_AT + k] == i:
            return k
    return -1


@njit(refcount=False)
def remove_creature_nb(S, s, p, k, exile):
    """Take seat ``s``'s creature in slot ``k`` of lane ``p`` off the field.

    To the graveyard (destroy, TL-079), or out of the game if ``exile``; tokens are banished.

    Slots after ``k`` move down one (play order kept). Writes ``S``.
    """
    base = p * LMAX
    i = S[s, LANE_AT + base + k]
    n = S[s, PS.LANE_N + p]
    for j in range(k, n - 1):
        S[s, LANE_AT + base + j] = S[s, LANE_AT + base + j + 1]
        S[s, BONUS_AT + base + j] = S[s, BONUS_AT + base + j + 1]
        S[s, HID_AT + base + j] = S[s, HID_AT + base + j + 1]
    S[s, PS.LANE_N + p] = n - 1
    if exile:
        exile_nb(S, s, i)
    else:
        to_grave_nb(S, s, i)


@njit(refcount=False)
def new_token_nb(S, cards, s, c):
    """Create an instance of token card ``c`` for seat ``s``.

    Returns it or -1 when the seat's token supply is used up. Writes ``S``.
    """
    t = S[s, PS.TOKENS]
    if t >= MAX_TOKENS:
        return -1
    S[s, PS.TOKENS] = t + 1
    i = DECK + t
    S[s, INST_AT + i] = c
    S[s, PTS_AT + i] = cards[c, CFC.POINTS]
    S[s, AMT_AT + i] = cards[c, CFC.AMOUNT]
    return i


@njit(refcount=False)
def put_creature_nb(S, s, p, i, face_down):
    """Put instance ``i`` into the next free slot of seat ``s``'s lane ``p``; returns the slot.

    The caller makes room first. Writes ``S``.
    """
    k = S[s, PS.LANE_N + p]
    S[s, LANE_AT + p * LMAX + k] = i
    S[s, BONUS_AT + p * LMAX + k] = 0
    S[s, HID_AT + p * LMAX + k] = 1 if face_down else 0
    S[s, PS.LANE_N + p] = k + 1
    S[s, ZONE_AT + i] = ZONE.LANE
    return k


# --- castles -----------------------------------------------------------------------------
@njit(refcount=False)
def damage_nb(S, s, n):
    """Seat ``s``'s castle loses ``n`` HP, never below 0 (TL-017). Writes ``S``."""
    if n <= 0:
        return
    hp = S[s, PS.HP]
    lost = n if n < hp else hp
    S[s, PS.HP] = hp - lost
    S[s, PS.DAMAGE_TAKEN] += lost
    S[s, PS.OVERKILL] += n - lost  # only the TL-062 'overkill' reading reads it


@njit(refcount=False)
def heal_nb(S, cfg, s, n):
    """Seat ``s``'s castle gains ``n`` HP, never above ``castle_hp`` (TL-063).

    A castle at 0 has fallen and its player has lost (TL-017): it is never healed back.
    """
    if S[s, PS.HP] <= 0:
        return
    hp = S[s, PS.HP] + n
    S[s, PS.HP] = hp if hp < cfg[CFG_CASTLE_HP] else cfg[CFG_CASTLE_HP]


# --- effects -----------------------------------------------------------------------------
@njit(refcount=False)
def apply_effect_nb(S, cards, cfg, s, p, e, n, token, src_slot, target_slot):
    """Resolve effect ``e`` with amount ``n`` for seat ``s``, "here" being lane ``p``.

    ``src_slot`` is the slot of the creature the effect comes from (-1 for skills and
    traps), which BOOST skips; ``target_slot`` is the opponent's creature a trap aims at
    (-1: the strongest face-up one, TL-023). Writes whatever the effect changes in ``S``.
    """
    o = 1 - s
    if e == EFFECT.DAMAGE:
        damage_nb(S, o, n)
    elif e == EFFECT.HEAL:
        heal_nb(S, cfg, s, n)
    elif e == EFFECT.DESTROY or e == EFFECT.EXILE:
        k = target_slot if target_slot >= 0 else strongest_nb(S, cards, o, p)
        if k >= 0:
            remove_creature_nb(S, o, p, k, e == EFFECT.EXILE)
    elif e == EFFECT.BOOST:
        for k in range(S[s, PS.LANE_N + p]):
            if k != src_slot and S[s, HID_AT + p * LMAX + k] == 0:
                S[s, BONUS_AT + p * LMAX + k] += n
    elif e == EFFECT.WEAKEN:
        for k in range(S[o, PS.LANE_N + p]):
            if S[o, HID_AT + p * LMAX + k] == 0:
                S[o, BONUS_AT + p * LMAX + k] -= n
    elif e == EFFECT.DRAW:
        for _ in range(n):
            if not draw_card_nb(S, cfg, s):
                break  # an effect's draw from an empty deck draws nothing (see readings)
    elif e == EFFECT.SUMMON:
        for _ in range(n):
            if S[s, PS.LANE_N + p] >= cfg[CFG_LANE_SIZE]:
                break  # a created creature does not push one out of a full lane
            i = new_token_nb(S, cards, s, token)
            if i < 0:
                break
            put_creature_nb(S, s, p, i, False)
    elif e == EFFECT.MILL:
        for _ in range(n):
            top = S[o, PS.DECK_TOP]
            if top >= DECK:
                break
            S[o, PS.DECK_TOP] = top + 1
            to_grave_nb(S, o, S[o, DECK_AT + top])
    elif e == EFFECT.RAISE:
        for _ in range(n):
            if S[s, PS.HAND_N] >= cfg[CFG_HAND_LIMIT]:
                break
            best = -1
            bv = -1
            for g in range(S[s, PS.GRAVE_N]):
                i = S[s, GRAVE_AT + g]
                if (cards[S[s, INST_AT + i], CFC.ACTS] == CTYPE.CREATURE
                        and S[s, PTS_AT + i] > bv):
                    bv = S[s, PTS_AT + i]
                    best = g
            if best < 0:
                break
            i = S[s, GRAVE_AT + best]
            for g in range(best, S[s, PS.GRAVE_N] - 1):
                S[s, GRAVE_AT + g] = S[s, GRAVE_AT + g + 1]
            S[s, PS.GRAVE_N] -= 1
            add_to_hand_nb(S, cfg, s, i)
    elif e == EFFECT.GIVE_TOKEN:
        for _ in range(n):
            i = new_token_nb(S, cards, s, token)
            if i < 0:
                break
            add_to_hand_nb(S, cfg, s, i)  # over the limit: banished (TL-087)


@njit(refcount=False)
def spring_trap_nb(S, cards, cfg, s, p, t, target_slot):
    """Seat ``s``'s trap in slot ``t`` of lane ``p`` is revealed and takes effect.

    Then goes to the graveyard (TL-085). Writes ``S``.
    """
    base = TRAP_AT + p * TMAX
    i = S[s, base + t]
    n = S[s, PS.TRAP_N + p]
    for j in range(t, n - 1):
        S[s, base + j] = S[s, base + j + 1]
    S[s, PS.TRAP_N + p] = n - 1
    S[s, ZONE_AT + i] = ZONE.LIMBO
    c = S[s, INST_AT + i]
    apply_effect_nb(S, cards, cfg, s, p, cards[c, CFC.EFFECT], S[s, AMT_AT + i],
                    cards[c, CFC.TOKEN], -1, target_slot)
    to_grave_nb(S, s, i)


@njit(refcount=False)
def find_trap_nb(S, cards, s, p, trigger):
    """Slot of seat ``s``'s first face-down trap in lane ``p`` with ``trigger`` (-1 if none)."""
    for t in range(S[s, PS.TRAP_N + p]):
        if cards[S[s, INST_AT + S[s, TRAP_AT + p * TMAX + t]], CFC.TRIGGER] == trigger:
            return t
    return -1


# --- setup and draws -----------------------------------------------------------------------
@njit(refcount=False)
def reset_nb(S, gs, played, params):
    """Empty every zone and load both decks in list order (unshuffled). Writes all state."""
    cfg, cards, decks, dpts, damt = params
    S[:, :] = 0
    gs[:] = 0
    played[:, :] = 0
    for s in range(2):
        S[s, PS.HP] = cfg[CFG_CASTLE_HP]
        S[s, PS.LANDMARK] = -1
        for i in range(DECK):
            S[s, DECK_AT + i] = i
            S[s, INST_AT + i] = decks[s, i]
            S[s, PTS_AT + i] = dpts[s, i]
            S[s, AMT_AT + i] = damt[s, i]
            S[s, ZONE_AT + i] = ZONE.DECK
    gs[GS.WINNER] = STILL_PLAYING
    gs[GS.CHECK] = cfg[CFG_CHECK]
    gs[GS.BOTH_FALL] = cfg[CFG_BOTH_FALL]


@njit(refcount=False)
def setup_nb(S, gs, played, params, rng):
    """Shuffle both decks and deal the opening hands (TL-006). Writes the state, ``rng``."""
    cfg = params[0]
    reset_nb(S, gs, played, params)
    for s in range(2):
        shuffle_nb(S[s, DECK_AT:DECK_AT + DECK], DECK, rng)
    for _ in range(cfg[CFG_START_HAND]):
        for s in range(2):
            draw_card_nb(S, cfg, s)


@njit(refcount=False)
def draw_phase_nb(S, cfg):
    """Both players draw ``draw_per_turn`` cards, one draw at a time (TL-010/038).

    A player who has to draw from an empty deck is out (TL-014/015/016); both out on the
    same draw means a tiebreak (TL-073). Returns True when the match ended. Writes ``S``.
    """
    first = True
    for _ in range(cfg[CFG_DRAW]):
        out0 = S[0, PS.DECK_TOP] >= DECK
        out1 = S[1, PS.DECK_TOP] >= DECK
        if out0 or out1:
            if not first and cfg[CFG_SHORT_DRAW] != 0:
                # TL-016 'play_on': the deck ran out during this phase; only a Draw Phase
                # that finds it empty loses
                if not out0:
                    draw_card_nb(S, cfg, 0)
                if not out1:
                    draw_card_nb(S, cfg, 1)
                continue
            S[0, PS.OUT] = 1 if out0 else 0
            S[1, PS.OUT] = 1 if out1 else 0
            return True
        draw_card_nb(S, cfg, 0)
        draw_card_nb(S, cfg, 1)
        first = False
    return False


# --- the Play Phase --------------------------------------------------------------------------
@njit(refcount=False)
def can_place_nb(S, cards, cfg, s, k, p):
    """True when seat ``s`` may play its hand card in slot ``k`` into lane ``p`` now.

    It holds ``cost`` other cards to pay with (TL-012) and a trap has a free trap slot.
    """
    if k < 0 or k >= S[s, PS.HAND_N] or p < 0 or p > 1:
        return False
    if S[s, PS.N_PLAYS] >= PMAX:
        return False
    c = S[s, INST_AT + S[s, HAND_AT + k]]
    if cards[c, CFC.COST] > S[s, PS.HAND_N] - 1:
        return False
    if cards[c, CFC.ACTS] == CTYPE.TRAP and S[s, PS.TRAP_N + p] >= TMAX:
        return False
    return True


@njit(refcount=False)
def place_card_nb(S, played, cards, cfg, s, i, p, pay, n_pay, victim):
    """Seat ``s`` plays instance ``i`` (in hand) face-down into lane ``p`` (TL-039).

    ``pay[:n_pay]`` are the instances discarded to pay the cost (TL-011/013), ``victim``
    the slot of the creature destroyed when lane ``p`` is full (TL-065/066). Skills and
    landmarks wait face-down until the reveal; creatures take a lane slot; traps a trap
    slot. Writes ``S`` and ``played``.
    """
    remove_from_hand_nb(S, s, hand_slot_nb(S, s, i))
    for j in range(n_pay):
        remove_from_hand_nb(S, s, hand_slot_nb(S, s, pay[j]))
        to_grave_nb(S, s, pay[j])  # TL-080: discarded cards go to the graveyard
    c = S[s, INST_AT + i]
    kind = cards[c, CFC.ACTS]
    if kind == CTYPE.CREATURE:
        if S[s, PS.LANE_N + p] >= cfg[CFG_LANE_SIZE]:
            remove_creature_nb(S, s, p, victim, False)
        put_creature_nb(S, s, p, i, True)
    elif kind == CTYPE.TRAP:
        t = S[s, PS.TRAP_N + p]
        S[s, TRAP_AT + p * TMAX + t] = i
        S[s, PS.TRAP_N + p] = t + 1
        S[s, ZONE_AT + i] = ZONE.TRAP
    else:
        S[s, ZONE_AT + i] = ZONE.LIMBO
    n = S[s, PS.N_PLAYS]
    S[s, PLAYS_AT + 2 * n] = i
    S[s, PLAYS_AT + 2 * n + 1] = p
    S[s, PS.N_PLAYS] = n + 1
    if i < DECK:
        S[s, PS.PLAYED_N] += 1
        played[s, c >> 6] |= np.uint64(1) << np.uint64(c & 63)


@njit(refcount=False)
def play_phase_nb(S, played, cards, cfg, s, bot_id, bp, pay, ctx):
    """Seat ``s``'s bot places cards until it passes (TL-002/041).

    ``pay`` (int32, >= HMAX) and ``ctx`` (float64, ``bots.C_N``) are scratch. Writes ``S``,
    ``played``, ``pay`` and ``ctx``.
    """
    for _ in range(PMAX):
        k, p = bots.choose_play_nb(S, cards, cfg[CFG_LANE_SIZE], cfg[CFG_CASTLE_HP],
                                   cfg[CFG_HAND_LIMIT], cfg[CFG_DRAW], s, bot_id, bp, ctx)
        if not play_choice_nb(S, played, cards, cfg, s, k, p, bot_id, bp, pay):
            return


@njit(refcount=False)
def play_choice_nb(S, played, cards, cfg, s, k, p, bot_id, bp, pay):
    """Seat ``s`` plays its hand card in slot ``k`` into lane ``p``, if it may.

    The bot picks the payment (TL-013) and the creature that makes room (TL-066). Returns
    False (nothing placed: the seat passes) for ``k < 0`` or a play the rules refuse.
    Writes ``S``, ``played`` and ``pay``.
    """
    if k < 0 or not can_place_nb(S, cards, cfg, s, k, p):
        return False
    i = S[s, HAND_AT + k]
    c = S[s, INST_AT + i]
    cost = cards[c, CFC.COST]
    bots.choose_payment_nb(S, cards, s, i, cost, bot_id, bp, pay)
    victim = -1
    if cards[c, CFC.ACTS] == CTYPE.CREATURE and S[s, PS.LANE_N + p] >= cfg[CFG_LANE_SIZE]:
        victim = bots.choose_victim_nb(S, cards, s, p, bot_id, bp)
        if victim < 0 or victim >= S[s, PS.LANE_N + p]:
            return False
    for j in range(cost):
        if pay[j] == i or hand_slot_nb(S, s, pay[j]) < 0:
            return False
    place_card_nb(S, played, cards, cfg, s, i, p, pay, cost, victim)
    return True


# --- the Reveal Phase ------------------------------------------------------------------------
@njit(refcount=False)
def die_roll_nb(gs, rng):
    """Both players roll a d6, rerolling ties; returns the winner (TL-052). Writes ``gs``."""
    while True:
        a = d6_nb(rng)
        b = d6_nb(rng)
        gs[GS.DIE_ROLLS] += 1
        if a != b:
            return 0 if a > b else 1


@njit(refcount=False)
def opener_nb(S, gs, cards, cfg, rng):
    """The seat that opens this turn's reveal order (the "losing player").

    Turn 1: the die winner, or ``first_player`` when set (TL-043/051). Later turns: the
    lower castle HP, then the fewer face-up field points (TL-045/050); a perfect tie rolls
    the die again (TL-044). Writes ``gs`` (first player on turn 1) and ``rng``.
    """
    if gs[GS.TURN] == 1:
        f = cfg[CFG_FIRST]
        if f < 0:
            f = die_roll_nb(gs, rng)
        gs[GS.FIRST] = f
        return f
    h0 = S[0, PS.HP]
    h1 = S[1, PS.HP]
    if h0 != h1:
        return 0 if h0 < h1 else 1
    # the order is settled before anything is turned up: face-up points only
    f0 = lane_total_nb(S, cards, 0, 0, True) + lane_total_nb(S, cards, 0, 1, True)
    f1 = lane_total_nb(S, cards, 1, 0, True) + lane_total_nb(S, cards, 1, 1, True)
    if f0 != f1:
        return 0 if f0 < f1 else 1
    return die_roll_nb(gs, rng)


@njit(refcount=False)
def lane_slot_nb(S, s, p, i):
    """Slot of instance ``i`` in seat ``s``'s lane ``p``, -1 if it is not there."""
    for j in range(S[s, PS.LANE_N + p]):
        if S[s, LANE_AT + p * LMAX + j] == i:
            return j
    return -1


@njit(refcount=False)
def reveal_creature_nb(S, cards, cfg, s, p, i):
    """Turn seat ``s``'s face-down creature ``i`` in lane ``p`` face up.

    Resolve its effect, then let the opponent's first ENEMY_CREATURE trap in that lane spring on it.
    """
    k = lane_slot_nb(S, s, p, i)
    if k < 0:
        return  # destroyed before its reveal (its owner made room over it)
    S[s, HID_AT + p * LMAX + k] = 0
    c = S[s, INST_AT + i]
    e = cards[c, CFC.EFFECT]
    if e != EFFECT.NONE:
        apply_effect_nb(S, cards, cfg, s, p, e, S[s, AMT_AT + i], cards[c, CFC.TOKEN], k, -1)
    o = 1 - s
    t = find_trap_nb(S, cards, o, p, TRIGGER.ENEMY_CREATURE)
    if t >= 0:
        k = lane_slot_nb(S, s, p, i)
        if k >= 0:
            spring_trap_nb(S, cards, cfg, o, p, t, k)


@njit(refcount=False)
def reveal_step_nb(S, cards, cfg, s, p):
    """Reveal seat ``s``'s cards placed this turn in lane ``p``.

    In the order they were placed (TL-053), resolving each (TL-055). Traps stay hidden (TL-042).
    Writes ``S``.
    """
    for j in range(S[s, PS.N_PLAYS]):
        if S[s, PLAYS_AT + 2 * j + 1] != p:
            continue
        i = S[s, PLAYS_AT + 2 * j]
        c = S[s, INST_AT + i]
        kind = cards[c, CFC.ACTS]
        if kind == CTYPE.CREATURE:
            reveal_creature_nb(S, cards, cfg, s, p, i)
        elif kind == CTYPE.SKILL:
            apply_effect_nb(S, cards, cfg, s, p, cards[c, CFC.EFFECT], S[s, AMT_AT + i],
                            cards[c, CFC.TOKEN], -1, -1)
            to_grave_nb(S, s, i)  # TL-024 / TL-088
        elif kind == CTYPE.LANDMARK:
            old = S[s, PS.LANDMARK]
            if old >= 0:
                to_grave_nb(S, s, old)  # TL-027
            S[s, PS.LANDMARK] = i
            S[s, PS.LM_LANE] = p
            S[s, ZONE_AT + i] = ZONE.LANDMARK


@njit(refcount=False)
def reveal_phase_nb(S, gs, cards, cfg, rng):
    """Reveal in order (TL-046..049).

    The opener's defending lane, the opponent's attacking lane, the opponent's defending lane, the
    opener's attacking lane. A castle brought to 0 by a revealed card ends the match there
    (TL-017): the steps after it are not revealed (:func:`castle_fallen_nb`). Returns the
    opener. Writes ``S``, ``gs`` and ``rng``.
    """
    L = opener_nb(S, gs, cards, cfg, rng)
    gs[GS.OPENER] = L
    opp = 1 - L
    reveal_step_nb(S, cards, cfg, L, L)
    if not castle_fallen_nb(S):
        reveal_step_nb(S, cards, cfg, opp, L)
    if not castle_fallen_nb(S):
        reveal_step_nb(S, cards, cfg, opp, opp)
    if not castle_fallen_nb(S):
        reveal_step_nb(S, cards, cfg, L, opp)
        # the plays are all revealed; when the match ended first, those left stay listed
        S[0, PS.N_PLAYS] = 0
        S[1, PS.N_PLAYS] = 0
    return L


@njit(refcount=False)
def castle_fallen_nb(S):
    """True when a castle is at 0: its player has lost (TL-017)."""
    return S[0, PS.HP] <= 0 or S[1, PS.HP] <= 0


# --- the Counting Phase ----------------------------------------------------------------------
@njit(refcount=False)
def counting_phase_nb(S, cards, cfg, opener):
    """Count both attacks and damage both castles together (TL-054..061).

    First, in reveal order, a defender whose defence is beaten may spring an ATTACKED trap
    in its defending lane. Then each attack total beyond the defence it meets is dealt to
    that castle; landmarks then deal and heal. Writes ``S``.
    """
    for j in range(2):
        d = opener if j == 0 else 1 - opener
        a = 1 - d
        if lane_total_nb(S, cards, a, d, False) > lane_total_nb(S, cards, d, d, False):
            t = find_trap_nb(S, cards, d, d, TRIGGER.ATTACKED)
            if t >= 0:
                spring_trap_nb(S, cards, cfg, d, d, t, -1)
    dmg0 = lane_total_nb(S, cards, 1, 0, False) - lane_total_nb(S, cards, 0, 0, False)
    dmg1 = lane_total_nb(S, cards, 0, 1, False) - lane_total_nb(S, cards, 1, 1, False)
    if dmg0 < 0:
        dmg0 = 0  # TL-059
    if dmg1 < 0:
        dmg1 = 0
    for s in range(2):
        lm = S[s, PS.LANDMARK]
        if lm >= 0 and cards[S[s, INST_AT + lm], CFC.EFFECT] == EFFECT.LM_DAMAGE:
            if s == 0:
                dmg1 += S[s, AMT_AT + lm]
            else:
                dmg0 += S[s, AMT_AT + lm]
    damage_nb(S, 0, dmg0)
    damage_nb(S, 1, dmg1)
    for s in range(2):
        lm = S[s, PS.LANDMARK]
        if (lm >= 0 and S[s, PS.HP] > 0
                and cards[S[s, INST_AT + lm], CFC.EFFECT] == EFFECT.LM_HEAL):
            heal_nb(S, cfg, s, S[s, AMT_AT + lm])


# --- the end ---------------------------------------------------------------------------------
@njit(refcount=False)
def tiebreak_nb(S, gs, cards):
    """Decide an ended match by the tiebreakers (TL-073..076). Writes ``gs``."""
    h0 = S[0, PS.HP]
    h1 = S[1, PS.HP]
    if h0 != h1:
        gs[GS.WINNER] = 0 if h0 > h1 else 1
        gs[GS.CAUSE] = CAUSE.TIEBREAK
        return
    f0 = field_points_nb(S, cards, 0)
    f1 = field_points_nb(S, cards, 1)
    if f0 != f1:
        gs[GS.WINNER] = 0 if f0 > f1 else 1
        gs[GS.CAUSE] = CAUSE.TIEBREAK
        return
    gs[GS.WINNER] = -1
    gs[GS.CAUSE] = CAUSE.DRAW


@njit(refcount=False)
def end_by_deck_out_nb(S, gs, cards):
    """Settle a match after a failed draw (TL-014/071/073). Writes ``gs``."""
    if S[0, PS.OUT] != 0 and S[1, PS.OUT] != 0:
        tiebreak_nb(S, gs, cards)
    else:
        gs[GS.WINNER] = 1 if S[0, PS.OUT] != 0 else 0
        gs[GS.CAUSE] = CAUSE.DECK_OUT


@njit(refcount=False)
def end_by_castle_nb(S, gs, cards):
    """After the reveal or the counting.

    A castle at 0 ends the match (TL-017/070); both at 0 go to the tiebreakers (TL-062). Returns
    True if the match ended. Writes ``gs``.
    """
    z0 = S[0, PS.HP] <= 0
    z1 = S[1, PS.HP] <= 0
    if z0 and z1 and gs[GS.BOTH_FALL] != 0 and S[0, PS.OVERKILL] != S[1, PS.OVERKILL]:
        # TL-062 'overkill': the castle dealt more damage beyond 0 falls first
        gs[GS.WINNER] = 0 if S[0, PS.OVERKILL] < S[1, PS.OVERKILL] else 1
        gs[GS.CAUSE] = CAUSE.TIEBREAK
        return True
    if z0 and z1:
        tiebreak_nb(S, gs, cards)
        return True
    if z0 or z1:
        gs[GS.WINNER] = 1 if z0 else 0
        gs[GS.CAUSE] = CAUSE.CASTLE
        return True
    return False


# --- invariants ------------------------------------------------------------------------------
@njit
def count_breaches_nb(S, cfg):
    """Number of invariant breaches in the state.

    Every deck card in exactly one zone and every zone list agreeing with the zones (TL-003), hand
    and lane limits, tokens never in the graveyard and banished when gone (TL-087), HP within
    0..castle_hp.
    """
    bad = 0
    seen = np.zeros(NI, np.int32)
    for s in range(2):
        seen[:] = 0
        for j in range(S[s, PS.DECK_TOP], DECK):
            i = S[s, DECK_AT + j]
            seen[i] += 1
            bad += S[s, ZONE_AT + i] != ZONE.DECK
        for j in range(S[s, PS.HAND_N]):
            i = S[s, HAND_AT + j]
            seen[i] += 1
            bad += S[s, ZONE_AT + i] != ZONE.HAND
        for p in range(2):
            for j in range(S[s, PS.LANE_N + p]):
                i = S[s, LANE_AT + p * LMAX + j]
                seen[i] += 1
                bad += S[s, ZONE_AT + i] != ZONE.LANE
            for j in range(S[s, PS.TRAP_N + p]):
                i = S[s, TRAP_AT + p * TMAX + j]
                seen[i] += 1
                bad += S[s, ZONE_AT + i] != ZONE.TRAP
        for j in range(S[s, PS.N_PLAYS]):  # placed face-down, never revealed (TL-017)
            i = S[s, PLAYS_AT + 2 * j]
            if S[s, ZONE_AT + i] == ZONE.LIMBO:
                seen[i] += 1
        lm = S[s, PS.LANDMARK]
        if lm >= 0:
            seen[lm] += 1
            bad += S[s, ZONE_AT + lm] != ZONE.LANDMARK
        for j in range(S[s, PS.GRAVE_N]):
            i = S[s, GRAVE_AT + j]
            seen[i] += 1
            bad += S[s, ZONE_AT + i] != ZONE.GRAVE
            bad += i >= DECK  # TL-087: a token never reaches the graveyard
        n_exile = 0
        n_banish = 0
        for i in range(NI):
            z = S[s, ZONE_AT + i]
            if z == ZONE.EXILE:
                seen[i] += 1
                n_exile += 1
                bad += i >= DECK
            elif z == ZONE.BANISHED:
                seen[i] += 1
                n_banish += 1
                bad += i < DECK
        for i in range(DECK):
            bad += seen[i] != 1  # all 20 deck cards accounted for, once each
        for i in range(DECK, NI):
            bad += seen[i] != (1 if i < DECK + S[s, PS.TOKENS] else 0)
        bad += n_exile != S[s, PS.EXILE_N]
        bad += n_banish != S[s, PS.BANISH_N]
        bad += S[s, PS.HAND_N] > cfg[CFG_HAND_LIMIT]
        for p in range(2):
            bad += S[s, PS.LANE_N + p] > cfg[CFG_LANE_SIZE]
        bad += S[s, PS.HP] < 0 or S[s, PS.HP] > cfg[CFG_CASTLE_HP]
    return bad


# --- the match -------------------------------------------------------------------------------
@njit(refcount=False)
def play_turns_nb(S, gs, played, params, bot_ids, bp, pay, ctx, rng):
    """Play turns until the match ends (TL-037): Draw, Play, Reveal, Counting.

    Writes the state, ``pay`` and ``rng``.
    """
    cfg, cards, decks, dpts, damt = params
    while gs[GS.TURN] < MAX_TURNS:
        if begin_turn_nb(S, gs, cards, cfg):
            break
        for s in range(2):
            play_phase_nb(S, played, cards, cfg, s, bot_ids[s], bp[s], pay, ctx)
        if end_turn_nb(S, gs, cards, cfg, rng):
            break
    if gs[GS.WINNER] == STILL_PLAYING:
        tiebreak_nb(S, gs, cards)  # only with draw_per_turn = 0: the turn cap ends it


@njit(refcount=False)
def begin_turn_nb(S, gs, cards, cfg):
    """Start the next turn: its Draw Phase (none on turn 1, TL-009).

    Returns True when the match ended for want of a card (TL-014). Writes ``S``, ``gs``.
    """
    gs[GS.TURN] += 1
    if gs[GS.TURN] > 1:  # TL-009
        if draw_phase_nb(S, cfg):
            end_by_deck_out_nb(S, gs, cards)
            return True
    if gs[GS.CHECK] != 0:
        gs[GS.VIOL] += count_breaches_nb(S, cfg)
    return False


@njit(refcount=False)
def end_turn_nb(S, gs, cards, cfg, rng):
    """Finish a turn whose Play Phase is done: Reveal, Counting, the castle check.

    Returns True when the match ended. Writes ``S``, ``gs`` and ``rng``.
    """
    opener = reveal_phase_nb(S, gs, cards, cfg, rng)
    if not castle_fallen_nb(S):  # a castle fallen in the reveal ends the match there
        counting_phase_nb(S, cards, cfg, opener)
    if gs[GS.CHECK] != 0:
        gs[GS.VIOL] += count_breaches_nb(S, cfg)
    return end_by_castle_nb(S, gs, cards)


record_dt = np.dtype(
    [
        ("game_index", np.int64),
        ("win", np.bool_),
        ("outcome", np.int8),
        ("rounds", np.int16),
        ("winner", np.int8),
        ("first_player", np.int8),
        ("hp0", np.int16),
        ("hp1", np.int16),
        ("deck0", np.int16),
        ("deck1", np.int16),
        ("bot0", np.int8),
        ("bot1", np.int8),
        ("field0", np.int16),
        ("field1", np.int16),
        ("cards_played0", np.int16),
        ("cards_played1", np.int16),
        ("graveyard0", np.int16),
        ("graveyard1", np.int16),
        ("exiled0", np.int16),
        ("exiled1", np.int16),
        ("die_rolls", np.int16),
        ("invariant_violations", np.int32),
        ("played", np.uint64, (2, NW)),
    ],
    align=True,
)


@njit(refcount=False)
def write_record_nb(S, gs, played, params, bot_ids, rec, game_index):
    """Fill one record of ``record_dt`` from the final state."""
    cfg, cards, decks, dpts, damt = params
    w = gs[GS.WINNER]
    rec["game_index"] = game_index
    rec["win"] = w == 0
    rec["outcome"] = gs[GS.CAUSE]
    rec["rounds"] = gs[GS.TURN]
    rec["winner"] = w
    rec["first_player"] = gs[GS.FIRST]
    rec["hp0"] = S[0, PS.HP]
    rec["hp1"] = S[1, PS.HP]
    rec["deck0"] = cfg[CFG_DECK0]
    rec["deck1"] = cfg[CFG_DECK1]
    rec["bot0"] = bot_ids[0]
    rec["bot1"] = bot_ids[1]
    rec["field0"] = field_points_nb(S, cards, 0)
    rec["field1"] = field_points_nb(S, cards, 1)
    rec["cards_played0"] = S[0, PS.PLAYED_N]
    rec["cards_played1"] = S[1, PS.PLAYED_N]
    rec["graveyard0"] = S[0, PS.GRAVE_N]
    rec["graveyard1"] = S[1, PS.GRAVE_N]
    rec["exiled0"] = S[0, PS.EXILE_N]
    rec["exiled1"] = S[1, PS.EXILE_N]
    rec["die_rolls"] = gs[GS.DIE_ROLLS]
    rec["invariant_violations"] = gs[GS.VIOL]
    for s in range(2):
        for k in range(NW):
            rec["played"][s, k] = played[s, k]


@njit(refcount=False)
def play_one_nb(S, gs, played, params, bot_ids, bp, seed, game_index, rec, pay, ctx, rng):
    """Play match ``game_index`` of run ``seed`` on preallocated state; fill ``rec``.

    ``bot_ids`` int64 (2,) and ``bp`` float64 (2, n_params) give each seat's bot.
    """
    seed_state_nb(seed, game_index, rng)
    setup_nb(S, gs, played, params, rng)
    play_turns_nb(S, gs, played, params, bot_ids, bp, pay, ctx, rng)
    write_record_nb(S, gs, played, params, bot_ids, rec, game_index)


@njit
def play_block_nb(params, bot_ids, bp, seed, start, out):
    """Play matches ``start .. start+len(out)-1`` into ``out`` (written), one after another.

    The state is allocated once for the block and reused. Each match's stream depends on
    (seed, index) only. Blocks run on threads (``core.blocks``).
    """
    S, gs, played = alloc_nb()
    pay = np.zeros(HMAX, np.int32)
    ctx = np.zeros(bots.C_N, np.float64)
    rng = np.zeros(4, np.uint64)
    for i in range(out.shape[0]):
        play_one_nb(S, gs, played, params, bot_ids, bp, seed, start + i, out[i], pay, ctx, rng)
