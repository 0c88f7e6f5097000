"""Terralore bots: scripted players sharing one greedy planner, tuned by a parameter vector.

Every choice the rules leave to a player goes through here (TL-002): which card to play
and into which lane (TL-019/039), which cards pay its cost (TL-013), and which creature
makes room in a full lane (TL-066). A bot sees its own hand and cards, and of the
opponent only what is face up (TL-040): their face-down cards and traps are invisible.

How a bot plays (``choose_play_nb``, asked again after every card it places): it prices
every card it can pay for, in each lane, and plays the best one if its price beats
``min_score``; it never goes below ``reserve`` cards left in hand.

- A creature is worth, in the defending lane, the part of its points that covers the
  opponent's face-up attack there (plus ``defend_margin``), times ``defend_weight``
  (doubled at or below ``panic_hp``); in the attacking lane, the damage it adds beyond the
  opponent's face-up defence plus a share of its points for later turns, times
  ``attack_weight``. A full lane costs the weakest creature there.
- Skills are priced by effect: damage x ``burn_weight``, healing actually gained x
  ``heal_weight``, removal of the best face-up target x ``removal_weight``, draws x
  ``draw_weight``, boosts by the creatures they reach; landmarks x ``landmark_weight``
  (less the landmark they replace); traps x ``trap_weight``.
- The price of paying is ``cost_weight`` times the worth of the cheapest cards in hand
  (points + effect amount + 1 each), which are the ones discarded. With
  ``hand_limit_aware``, the cards the next Draw Phase would push over the hand limit are
  discarded for free (they are lost anyway), and so is everything on the last turn (a deck
  too short for the next Draw Phase ends the match); draws count only the cards the hand
  can hold, and ``deck_race_weight`` prices falling behind in the deck-out race (drawing)
  or pulling ahead (milling the opponent).

The three bots (``BOTS``) are the same code with different parameters: ``aggressive``
fills its attacking lane and burns; ``defensive`` matches the opponent's attack first and
keeps a card in hand; ``value`` plays the best worth per card spent and uses removal,
healing and draws where they do most, and is the one that knows the hand limit and the
hand limit (``hand_limit_aware = 1``; the other two keep it off). ``deck_race_weight``
is off in all three: priced at 2, 4 or 8 it made ``value`` avoid its draw cards and lose
more matches than it saved from deck-out (README, Terralore).
"""

from __future__ import annotations

from simlib.core.jit import njit
from simlib.games.terralore.state import (
    AMT_AT,
    CFC,
    CTYPE,
    DECK,
    EFFECT,
    HAND_AT,
    HID_AT,
    INST_AT,
    LMAX,
    PS,
    PTS_AT,
    TMAX,
    TRIGGER,
    creature_points_nb,
    lane_total_nb,
    strongest_nb,
)

P_ATTACK = 0
P_DEFEND = 1
P_MARGIN = 2
P_PANIC = 3
P_COST = 4
P_MIN = 5
P_RESERVE = 6
P_REMOVAL = 7
P_BURN = 8
P_HEAL = 9
P_DRAW = 10
P_LANDMARK = 11
P_TRAP = 12
P_HAND_AWARE = 13
P_RACE = 14

PARAM_NAMES = ("attack_weight", "defend_weight", "defend_margin", "panic_hp", "cost_weight",
               "min_score", "reserve", "removal_weight", "burn_weight", "heal_weight",
               "draw_weight", "landmark_weight", "trap_weight", "hand_limit_aware",
               "deck_race_weight")
PARAM_HELP = {
    "attack_weight": "worth of a point of damage a creature adds in the attacking lane",
    "defend_weight": "worth of a point of the opponent's attack a creature covers",
    "defend_margin": "defence wanted beyond the opponent's face-up attack, in points",
    "panic_hp": "at or below this castle HP, defence counts double",
    "cost_weight": "price of discarding, per point of worth of the cards paid",
    "min_score": "a card is played only if its price beats this",
    "reserve": "cards always kept in hand",
    "removal_weight": "worth per point of an opponent's creature removed",
    "burn_weight": "worth per point of direct damage",
    "heal_weight": "worth per HP healed",
    "draw_weight": "worth per card drawn",
    "landmark_weight": "multiplier on the worth of a landmark",
    "trap_weight": "worth per point of a trap's amount",
    "hand_limit_aware": "1: a card the hand limit (or the match's end) takes anyway is free to "
                        "discard, and only draws the hand can hold count; 0: every kept card "
                        "and every draw counts",
    "deck_race_weight": "worth of being ahead in the deck-out race (more cards left than the "
                        "opponent), lost by drawing and won by milling; 0 ignores the race",
}
PARAM_BOUNDS = {
    "attack_weight": (0.0, 5.0), "defend_weight": (0.0, 5.0), "defend_margin": (0.0, 10.0),
    "panic_hp": (0.0, 99.0), "cost_weight": (0.0, 5.0), "min_score": (-10.0, 20.0),
    "reserve": (0.0, 16.0), "removal_weight": (0.0, 5.0), "burn_weight": (0.0, 5.0),
    "heal_weight": (0.0, 5.0), "draw_weight": (0.0, 5.0), "landmark_weight": (0.0, 5.0),
    "trap_weight": (0.0, 5.0), "hand_limit_aware": (0.0, 1.0), "deck_race_weight": (0.0, 20.0),
}

# name -> (id, defaults in PARAM_NAMES order, description)
BOTS = {
    "aggressive": (0, (1.5, 0.2, 0.0, 2.0, 0.3, 0.5, 0.0, 0.8, 1.5, 0.3, 0.5, 0.8, 0.3, 0.0,
                       0.0),
                   "fills its attacking lane, burns the castle, spends freely"),
    "defensive": (1, (0.7, 1.5, 2.0, 5.0, 0.5, 0.5, 1.0, 1.0, 0.7, 1.2, 0.8, 1.0, 1.2, 0.0,
                      0.0),
                  "matches the opponent's attack first, heals, sets traps, keeps a card"),
    "value": (2, (1.0, 1.0, 1.0, 4.0, 0.8, 0.8, 1.0, 1.2, 1.0, 0.8, 1.0, 1.0, 0.8, 1.0, 0.0),
              "best worth per card spent, knowing the hand limit takes surplus cards "
              "(discards free then; draws count only if the hand can hold them); removal, "
              "healing and draws where they pay"),
}

NEG = -1.0e9


@njit(inline="always")
def keep_value_nb(S, s, i):
    """Worth of keeping instance ``i`` in hand: points + effect amount + 1."""
    return float(S[s, PTS_AT + i] + S[s, AMT_AT + i] + 1)


@njit(inline="always")
def _cheapest_nb(S, s, i, last_v, last_k):
    """The hand slot after.

    (``last_v``, ``last_k``) in (keep-value, slot) order, skipping instance ``i``: returns (value,
    slot), slot -1 when none is left.
    """
    bv = 1.0e18
    bk = -1
    for k in range(S[s, PS.HAND_N]):
        j = S[s, HAND_AT + k]
        if j == i:
            continue
        v = keep_value_nb(S, s, j)
        if v < last_v or (v == last_v and k <= last_k):
            continue
        if v < bv:
            bv = v
            bk = k
    return bv, bk


@njit(refcount=False)
def pay_value_nb(S, s, i, cost):
    """Sum of the ``cost`` smallest keep-values among seat ``s``'s other hand cards."""
    total = 0.0
    last_v = -1.0
    last_k = -1
    for _ in range(cost):
        v, k = _cheapest_nb(S, s, i, last_v, last_k)
        if k < 0:
            return 1.0e18
        total += v
        last_v = v
        last_k = k
    return total


@njit(refcount=False)
def choose_payment_nb(S, cards, s, i, cost, bot_id, bp, pay):
    """Write into ``pay[:cost]`` the hand cards seat ``s`` discards to play instance ``i``.

    The cheapest to keep, earliest in hand on ties (TL-013).
    """
    last_v = -1.0
    last_k = -1
    for m in range(cost):
        v, k = _cheapest_nb(S, s, i, last_v, last_k)
        pay[m] = S[s, HAND_AT + k] if k >= 0 else i
        last_v = v
        last_k = k


@njit(refcount=False)
def choose_victim_nb(S, cards, s, p, bot_id, bp):
    """Slot of the creature seat ``s`` destroys to make room in lane ``p``.

    Its weakest (the earliest played on ties), TL-066.
    """
    best = -1
    bv = 1 << 30
    for k in range(S[s, PS.LANE_N + p]):
        v = creature_points_nb(S, cards, s, p, k)
        if v < bv:
            bv = v
            best = k
    return best


# slots of the per-call summary ``ctx`` (float64, C_N): lanes scanned once per decision
C_MY_DEF = 0  # my creatures' points in my defending lane (face-down ones included)
C_MY_ATK = 1  # ... in my attacking lane
C_OPP_ATK = 2  # the opponent's face-up points attacking me
C_OPP_DEF = 3  # the opponent's face-up points defending against me
C_WEAK_DEF = 4  # my weakest creature's points in my defending lane (room-making cost)
C_WEAK_ATK = 5
C_FULL_DEF = 6  # 1 if my defending lane is full
C_FULL_ATK = 7
C_ME_UP_DEF = 8  # my face-up creatures in my defending lane
C_ME_UP_ATK = 9
C_OPP_UP_DEF = 10  # the opponent's face-up creatures in my defending lane
C_OPP_UP_ATK = 11  # ... in my attacking lane
C_STRONG_DEF = 12  # points of the opponent's strongest face-up creature there (0 if none)
C_STRONG_ATK = 13
C_N = 14


@njit(inline="always")
def _weakest_points_nb(S, cards, s, p):
    bv = 1 << 30
    for k in range(S[s, PS.LANE_N + p]):
        v = creature_points_nb(S, cards, s, p, k)
        if v < bv:
            bv = v
    return bv


@njit(inline="always")
def _face_up_count_nb(S, s, p):
    n = 0
    for k in range(S[s, PS.LANE_N + p]):
        if S[s, HID_AT + p * LMAX + k] == 0:
            n += 1
    return n


@njit(refcount=False)
def summarize_nb(S, cards, lane_size, s, ctx):
    """Fill ``ctx`` (written) with what seat ``s`` can see of both lanes (slots ``C_*``)."""
    o = 1 - s
    ctx[C_MY_DEF] = lane_total_nb(S, cards, s, s, False)
    ctx[C_MY_ATK] = lane_total_nb(S, cards, s, o, False)
    ctx[C_OPP_ATK] = lane_total_nb(S, cards, o, s, True)
    ctx[C_OPP_DEF] = lane_total_nb(S, cards, o, o, True)
    ctx[C_FULL_DEF] = 1.0 if S[s, PS.LANE_N + s] >= lane_size else 0.0
    ctx[C_FULL_ATK] = 1.0 if S[s, PS.LANE_N + o] >= lane_size else 0.0
    ctx[C_WEAK_DEF] = _weakest_points_nb(S, cards, s, s) if ctx[C_FULL_DEF] > 0 else 0.0
    ctx[C_WEAK_ATK] = _weakest_points_nb(S, cards, s, o) if ctx[C_FULL_ATK] > 0 else 0.0
    ctx[C_ME_UP_DEF] = _face_up_count_nb(S, s, s)
    ctx[C_ME_UP_ATK] = _face_up_count_nb(S, s, o)
    ctx[C_OPP_UP_DEF] = _face_up_count_nb(S, o, s)
    ctx[C_OPP_UP_ATK] = _face_up_count_nb(S, o, o)
    kd = strongest_nb(S, cards, o, s)
    ka = strongest_nb(S, cards, o, o)
    ctx[C_STRONG_DEF] = creature_points_nb(S, cards, o, s, kd) if kd >= 0 else 0.0
    ctx[C_STRONG_ATK] = creature_points_nb(S, cards, o, o, ka) if ka >= 0 else 0.0


@njit(refcount=False)
def creature_value_nb(ctx, hp, v, defend, bp):
    """Worth of adding a creature of ``v`` points to the defending lane.

    (``defend``) or the attacking lane, from the summary ``ctx``.
    """
    if defend:
        need = ctx[C_OPP_ATK] + bp[P_MARGIN] - ctx[C_MY_DEF]
        cover = v if v < need else need
        if cover < 0:
            cover = 0.0
        w = bp[P_DEFEND]
        if hp <= bp[P_PANIC]:
            w *= 2.0
        val = w * (cover + 0.1 * v)
        if ctx[C_FULL_DEF] > 0:
            val -= ctx[C_WEAK_DEF]
    else:
        mine = ctx[C_MY_ATK]
        theirs = ctx[C_OPP_DEF]
        before = mine - theirs if mine > theirs else 0.0
        after = mine + v - theirs if mine + v > theirs else 0.0
        val = bp[P_ATTACK] * ((after - before) + 0.3 * v)
        if ctx[C_FULL_ATK] > 0:
            val -= ctx[C_WEAK_ATK]
    return val


@njit(inline="always")
def race_nb(mine, theirs):
    """Share of the deck-out race for a seat with ``mine`` cards left against ``theirs``.

    Both draw together, one card at a time (TL-016): fewer cards left runs out first.
    """
    if mine > theirs:
        return 1.0
    if mine == theirs:
        return 0.5
    return 0.0


@njit(refcount=False)
def draw_worth_nb(S, cards, hand_limit, draw, s, i, n, bp):
    """Worth of instance ``i``'s effect drawing ``n`` cards for seat ``s``.

    With ``hand_limit_aware``, only the cards the hand can still hold after this play and
    the next Draw Phase count (a card drawn into a full hand, or that pushes out a later
    draw, is only a card lost from the deck); with ``deck_race_weight``, falling behind in
    the deck-out race costs that weight per share of it lost.
    """
    left = DECK - S[s, PS.DECK_TOP]
    got = n if n < left else left
    useful = float(got)
    if bp[P_HAND_AWARE] > 0:
        after = S[s, PS.HAND_N] - 1 - cards[S[s, INST_AT + i], CFC.COST]
        rest = left - got
        nd = draw if draw < rest else rest
        room = hand_limit - after - nd
        if room < 0:
            room = 0
        useful = float(got if got < room else room)
    worth = bp[P_DRAW] * useful
    if bp[P_RACE] > 0:
        theirs = DECK - S[1 - s, PS.DECK_TOP]
        worth -= (bp[P_RACE] * lead_nb(S, s)
                  * (race_nb(left, theirs) - race_nb(left - got, theirs)))
    return worth


@njit(inline="always")
def lead_nb(S, s):
    """What a deck-out result is worth to seat ``s`` over the tiebreak it replaces.

    A match both players run out of together goes to the tiebreakers, castle HP first
    (TL-073/074): the race matters in full to the seat ahead on HP, half on equal HP, and
    not to the seat behind (it would lose the tiebreak anyway).
    """
    mine = S[s, PS.HP]
    theirs = S[1 - s, PS.HP]
    if mine > theirs:
        return 1.0
    if mine == theirs:
        return 0.5
    return 0.0


@njit(refcount=False)
def mill_race_nb(S, s, n, bp):
    """Deck-out race share seat ``s`` gains by milling ``n`` of the opponent's cards, weighted."""
    left = DECK - S[s, PS.DECK_TOP]
    theirs = DECK - S[1 - s, PS.DECK_TOP]
    m = n if n < theirs else theirs
    return bp[P_RACE] * (1.0 - lead_nb(S, 1 - s)) * (race_nb(left, theirs - m)
                                                     - race_nb(left, theirs))


@njit(refcount=False)
def card_value_nb(S, cards, castle_hp, hand_limit, draw, s, i, bp, ctx):
    """Best worth of playing instance ``i`` and the lane it goes to: (worth, lane).

    ``ctx`` is the summary of :func:`summarize_nb` for seat ``s``; ``hand_limit`` and
    ``draw`` (cards drawn a turn) price draws when ``hand_limit_aware`` is on.
    """
    new_draws = bp[P_HAND_AWARE] > 0 or bp[P_RACE] > 0
    o = 1 - s
    hp = S[s, PS.HP]
    c = S[s, INST_AT + i]
    kind = cards[c, CFC.ACTS]
    e = cards[c, CFC.EFFECT]
    n = S[s, AMT_AT + i]
    if kind == CTYPE.CREATURE:
        v = float(S[s, PTS_AT + i])
        bonus = 0.0
        if e == EFFECT.DAMAGE:
            bonus = bp[P_BURN] * n
        elif e == EFFECT.HEAL:
            gain = castle_hp - hp
            bonus = bp[P_HEAL] * (n if n < gain else gain)
        elif e == EFFECT.DRAW:
            if new_draws:
                bonus = draw_worth_nb(S, cards, hand_limit, draw, s, i, n, bp)
            else:
                bonus = bp[P_DRAW] * n
        a = creature_value_nb(ctx, hp, v, False, bp)
        d = creature_value_nb(ctx, hp, v, True, bp)
        # on-reveal effects that aim "here" pull the creature to the lane they reach
        if e == EFFECT.DESTROY or e == EFFECT.EXILE:
            a += bp[P_REMOVAL] * ctx[C_STRONG_ATK]
            d += bp[P_REMOVAL] * ctx[C_STRONG_DEF]
        elif e == EFFECT.BOOST:
            a += 0.8 * n * ctx[C_ME_UP_ATK]
            d += 0.8 * n * ctx[C_ME_UP_DEF]
        elif e == EFFECT.WEAKEN:
            a += 0.8 * n * ctx[C_OPP_UP_ATK]
            d += 0.8 * n * ctx[C_OPP_UP_DEF]
        elif e == EFFECT.SUMMON:
            tv = cards[cards[c, CFC.TOKEN], CFC.POINTS] * n
            a += 0.5 * bp[P_ATTACK] * tv
            d += 0.5 * bp[P_DEFEND] * tv
        if a >= d:
            return a + bonus, o
        return d + bonus, s
    if kind == CTYPE.SKILL:
        if e == EFFECT.DAMAGE:
            return bp[P_BURN] * n, s
        if e == EFFECT.HEAL:
            gain = castle_hp - hp
            return bp[P_HEAL] * (n if n < gain else gain), s
        if e == EFFECT.DESTROY or e == EFFECT.EXILE:
            if ctx[C_STRONG_ATK] > ctx[C_STRONG_DEF]:
                return bp[P_REMOVAL] * ctx[C_STRONG_ATK], o
            return bp[P_REMOVAL] * ctx[C_STRONG_DEF], s
        if e == EFFECT.BOOST:
            if ctx[C_ME_UP_ATK] >= ctx[C_ME_UP_DEF]:
                return 0.8 * n * ctx[C_ME_UP_ATK] * bp[P_ATTACK], o
            return 0.8 * n * ctx[C_ME_UP_DEF] * bp[P_DEFEND], s
        if e == EFFECT.WEAKEN:
            if ctx[C_OPP_UP_ATK] >= ctx[C_OPP_UP_DEF]:
                return 0.8 * n * ctx[C_OPP_UP_ATK] * bp[P_ATTACK], o
            return 0.8 * n * ctx[C_OPP_UP_DEF] * bp[P_DEFEND], s
        if e == EFFECT.DRAW:
            if new_draws:
                return draw_worth_nb(S, cards, hand_limit, draw, s, i, n, bp), s
            left = DECK - S[s, PS.DECK_TOP]
            return bp[P_DRAW] * (n if n < left else left), s
        if e == EFFECT.SUMMON:
            tv = float(cards[cards[c, CFC.TOKEN], CFC.POINTS])
            a = creature_value_nb(ctx, hp, tv, False, bp)
            d = creature_value_nb(ctx, hp, tv, True, bp)
            if a >= d:
                return a * n, o
            return d * n, s
        if e == EFFECT.MILL and bp[P_RACE] > 0:
            return 0.5 * bp[P_DRAW] * n + mill_race_nb(S, s, n, bp), s
        if e == EFFECT.MILL or e == EFFECT.RAISE:
            return 0.5 * bp[P_DRAW] * n, s
        if e == EFFECT.GIVE_TOKEN:
            return 0.8 * n, s
        return 0.0, s
    if kind == CTYPE.LANDMARK:
        lm = S[s, PS.LANDMARK]
        old = 0.0
        if lm >= 0:
            old = 2.0 + S[s, AMT_AT + lm]
        ca = ctx[C_ME_UP_ATK]
        cd = ctx[C_ME_UP_DEF]
        if e == EFFECT.LM_LANE_BOOST:
            if ca >= cd:
                return bp[P_LANDMARK] * (n * (ca + 1)) - old, o
            return bp[P_LANDMARK] * (n * (cd + 1)) - old, s
        if e == EFFECT.LM_AFFINITY_BOOST:
            return bp[P_LANDMARK] * n * (1 + 0.5 * (ca + cd)) - old, s
        if e == EFFECT.LM_HEAL:
            return bp[P_LANDMARK] * bp[P_HEAL] * 2.0 * n - old, s
        if e == EFFECT.LM_DAMAGE:
            return bp[P_LANDMARK] * bp[P_BURN] * 2.0 * n - old, s
        return -old, s
    if kind == CTYPE.TRAP:
        p = s
        if (cards[c, CFC.TRIGGER] == TRIGGER.ENEMY_CREATURE
                and ctx[C_OPP_UP_ATK] > ctx[C_OPP_UP_DEF]):
            p = o
        if S[s, PS.TRAP_N + p] >= TMAX:
            return NEG, p
        return bp[P_TRAP] * (n + 1), p
    return NEG, s


@njit(refcount=False)
def free_discards_nb(S, hand_limit, draw, s):
    """Cards seat ``s`` may discard at no loss before this turn's plays end.

    Cards the next Draw Phase would push over the hand limit are lost anyway (TL-008); and
    when either deck holds fewer than ``draw`` cards the next Draw Phase ends the match
    (TL-014/016, the literal ``short_draw`` reading, which the bot assumes under either),
    so nothing kept in hand is worth anything (returns a large number). Counts the card
    being played itself: the hand after it is ``HAND_N - 1``.
    """
    left = DECK - S[s, PS.DECK_TOP]
    theirs = DECK - S[1 - s, PS.DECK_TOP]
    if draw > 0 and (left < draw or theirs < draw):
        return 1 << 20
    over = S[s, PS.HAND_N] - 1 + draw - hand_limit
    return over if over > 0 else 0


@njit(refcount=False)
def choose_play_nb(S, cards, lane_size, castle_hp, hand_limit, draw, s, bot_id, bp, ctx):
    """The next card seat ``s`` plays: (hand slot, lane), or (-1, -1) to pass.

    ``hand_limit`` and ``draw`` (cards drawn a turn) are the settings; ``ctx`` is float64
    scratch of length ``C_N`` (written).
    """
    n = S[s, PS.HAND_N]
    best = bp[P_MIN]
    bk = -1
    bl = -1
    summarized = False
    free = 0
    if bp[P_HAND_AWARE] > 0:
        free = free_discards_nb(S, hand_limit, draw, s)
    for k in range(n):
        i = S[s, HAND_AT + k]
        cost = cards[S[s, INST_AT + i], CFC.COST]
        if cost > n - 1 or n - 1 - cost < bp[P_RESERVE]:
            continue
        if not summarized:
            summarize_nb(S, cards, lane_size, s, ctx)
            summarized = True
        val, p = card_value_nb(S, cards, castle_hp, hand_limit, draw, s, i, bp, ctx)
        if val <= NEG:
            continue
        paid = cost - free if cost > free else 0
        score = val - bp[P_COST] * pay_value_nb(S, s, i, paid)
        if score > best:
            best = score
            bk = k
            bl = p
    return bk, bl
