"""Terralore's ``search`` bot: flat Monte Carlo over the card it plays next.

At every Play Phase decision (play a card and where, or pass) the bot lists candidate
actions, plays the match forward from a copy of the state once per rollout for each of
them, and takes the one with the best mean result for its seat (win 1, draw 0.5, loss 0).
A rollout plays the rest of the match with the default scripted bot ``value`` (its default
parameters) at both seats: the searching seat finishes its Play Phase after the candidate,
the opponent plays its Play Phase, and the turns go on to the end.

Candidates: the play ``value`` would make (first, so that it wins every tie), passing,
and either every legal (card, lane) pair when there are at most ``ALL_LEGAL`` of them, or
each playable card in the lane ``value`` prices best for it. The payment and the creature
that makes room are ``value``'s (cheapest to keep; weakest).

Hidden information (TL-040): a rollout never starts from the true state. Its copy takes the
opponent's row as it stood before either Play Phase of this turn (so a seat that places
second in the engine's order sees nothing of the first seat's face-down placements), then
is determinized: the searching seat's own deck is shuffled, and the opponent's hand, deck
and face-down traps are dealt again at random from the opponent's unseen cards (a trap
slot gets one of the unseen trap cards, since a card that stays face-down after a reveal is
known to be a trap). Tokens in a hand stay where they are (their creation was seen).

Randomness: the bot draws from side stream 1 of the match (``seed_stream_nb``), never from
the match's own stream, so every other bot's games are unchanged and a search game still
depends only on settings, budget, seed and game index. Rollout ``j`` of a decision is seeded
from the ``j``-th key drawn for that decision and is the same for every candidate (common
random numbers: the same determinization and the same dice).

``budget`` is the number of rollouts per candidate; budget 0 plays exactly as ``value``.
"""

from __future__ import annotations

import numpy as np

from simlib.core.jit import njit
from simlib.core.rng import next_u64_nb, randint_nb, seed_state_nb, seed_stream_nb, shuffle_nb
from simlib.games.terralore import bots, engine
from simlib.games.terralore.state import (
    CFC,
    CTYPE,
    DECK,
    DECK_AT,
    GS,
    HAND_AT,
    HMAX,
    INST_AT,
    MAX_TURNS,
    PMAX,
    PS,
    TMAX,
    TRAP_AT,
    ZONE,
    ZONE_AT,
    alloc_nb,
)

SEARCH_ID = 3  # bot id of ``search`` (after the scripted bots of ``bots.BOTS``)
VALUE_ID = bots.BOTS["value"][0]
DEFAULT_BUDGET = 16
MAX_BUDGET = 1024
ALL_LEGAL = 8  # up to this many legal (card, lane) pairs, every one is a candidate
MAX_CAND = 2 * HMAX + 2
SEARCH_STREAM = 1


@njit(refcount=False)
def sort_nb(a, n):
    """Sort ``a[:n]`` in place (insertion sort; n <= 20)."""
    for i in range(1, n):
        x = a[i]
        j = i - 1
        while j >= 0 and a[j] > x:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = x


@njit(refcount=False)
def determinize_nb(V, cards, s, pool, rng):
    """Deal seat ``s``'s unknowns in the copy ``V`` again at random (written, with ``rng``).

    Seat ``s``'s remaining deck is shuffled; the opponent's deck cards in hand, in the
    deck and in trap rows are pooled, each trap slot takes a random trap card of the pool,
    and the rest are shuffled into the hand slots and the deck. Both pools are sorted
    first, so the deal depends on which cards are unseen and on ``rng`` only. ``pool`` is
    int32 scratch of length >= 20.
    """
    top = V[s, PS.DECK_TOP]
    own = V[s, DECK_AT + top:DECK_AT + DECK]
    sort_nb(own, DECK - top)
    shuffle_nb(own, DECK - top, rng)
    o = 1 - s
    n = 0
    for k in range(V[o, PS.HAND_N]):
        i = V[o, HAND_AT + k]
        if i < DECK:
            pool[n] = i
            n += 1
    for j in range(V[o, PS.DECK_TOP], DECK):
        pool[n] = V[o, DECK_AT + j]
        n += 1
    for p in range(2):
        for t in range(V[o, PS.TRAP_N + p]):
            pool[n] = V[o, TRAP_AT + p * TMAX + t]
            n += 1
    sort_nb(pool, n)  # the deal depends on which cards are unseen, never on where they are
    used = 0  # pool[:used] are dealt
    for p in range(2):
        for t in range(V[o, PS.TRAP_N + p]):
            m = 0
            for j in range(used, n):
                if cards[V[o, INST_AT + pool[j]], CFC.ACTS] == CTYPE.TRAP:
                    m += 1
            r = randint_nb(m, rng)
            for j in range(used, n):
                if cards[V[o, INST_AT + pool[j]], CFC.ACTS] == CTYPE.TRAP:
                    if r == 0:
                        i = pool[j]
                        pool[j] = pool[used]
                        pool[used] = i
                        break
                    r -= 1
            V[o, TRAP_AT + p * TMAX + t] = pool[used]
            V[o, ZONE_AT + pool[used]] = ZONE.TRAP
            used += 1
    shuffle_nb(pool[used:n], n - used, rng)
    for k in range(V[o, PS.HAND_N]):
        if V[o, HAND_AT + k] < DECK:
            V[o, HAND_AT + k] = pool[used]
            V[o, ZONE_AT + pool[used]] = ZONE.HAND
            used += 1
    for j in range(V[o, PS.DECK_TOP], DECK):
        V[o, DECK_AT + j] = pool[used]
        V[o, ZONE_AT + pool[used]] = ZONE.DECK
        used += 1


@njit(refcount=False)
def rollout_nb(V, g, played, params, s, k, p, rids, rbp, pay, ctx, rng):
    """Play the copy (``V``, ``g``) to the end from seat ``s``'s play of slot ``k``.

    Seat ``s`` plays hand slot ``k`` into lane ``p`` (``k < 0``: it passes); both seats
    then play as ``rids``/``rbp`` (``value``).

    Returns the result for seat ``s``: 1 win, 0.5 draw, 0 loss. Writes the copy, ``played``,
    ``pay``, ``ctx`` and ``rng``.
    """
    cfg, cards, decks, dpts, damt = params
    if engine.play_choice_nb(V, played, cards, cfg, s, k, p, rids[s], rbp[s], pay):
        engine.play_phase_nb(V, played, cards, cfg, s, rids[s], rbp[s], pay, ctx)
    o = 1 - s
    engine.play_phase_nb(V, played, cards, cfg, o, rids[o], rbp[o], pay, ctx)
    if not engine.end_turn_nb(V, g, cards, cfg, rng):
        engine.play_turns_nb(V, g, played, params, rids, rbp, pay, ctx, rng)
        if g[GS.WINNER] == engine.STILL_PLAYING:
            engine.tiebreak_nb(V, g, cards)
    w = g[GS.WINNER]
    if w == s:
        return 1.0
    if w < 0:
        return 0.5
    return 0.0


@njit(refcount=False)
def candidates_nb(S, params, s, vk, vl, rbp, ctx, cand):
    """Write seat ``s``'s candidate plays into ``cand`` and return how many.

    ``cand`` is int32 (MAX_CAND, 2): hand slot, lane; -1 = pass. ``value``'s own choice
    (``vk``, ``vl``) is first.
    """
    cfg, cards, decks, dpts, damt = params
    cand[0, 0] = vk
    cand[0, 1] = vl
    n = 1
    if vk >= 0:
        cand[1, 0] = -1
        cand[1, 1] = -1
        n = 2
    legal = 0
    for k in range(S[s, PS.HAND_N]):
        for p in range(2):
            if engine.can_place_nb(S, cards, cfg, s, k, p):
                legal += 1
    if legal == 0:
        return n
    if legal > ALL_LEGAL:
        bots.summarize_nb(S, cards, cfg[engine.CFG_LANE_SIZE], s, ctx)
    for k in range(S[s, PS.HAND_N]):
        for p in range(2):
            if not engine.can_place_nb(S, cards, cfg, s, k, p):
                continue
            if legal > ALL_LEGAL:
                v, best = bots.card_value_nb(S, cards, cfg[engine.CFG_CASTLE_HP],
                                             cfg[engine.CFG_HAND_LIMIT], cfg[engine.CFG_DRAW],
                                             s, S[s, HAND_AT + k], rbp[s], ctx)
                if p != best and engine.can_place_nb(S, cards, cfg, s, k, best):
                    continue
            if k == vk and p == vl:
                continue
            cand[n, 0] = k
            cand[n, 1] = p
            n += 1
    return n


@njit(refcount=False)
def choose_search_nb(S, S_pre, params, gs, s, budget, rids, rbp, pay, ctx, srng, scr):
    """The next play of a searching seat ``s``: (hand slot, lane), or (-1, -1) to pass.

    ``S_pre`` is the state before this turn's Play Phases; ``scr`` the search scratch of
    :func:`alloc_search_nb`. Writes ``srng``, ``pay``, ``ctx`` and the scratch.
    """
    cfg, cards, decks, dpts, damt = params
    V, g, played, pool, keys, rr, cand, total = scr
    vk, vl = bots.choose_play_nb(S, cards, cfg[engine.CFG_LANE_SIZE], cfg[engine.CFG_CASTLE_HP],
                                 cfg[engine.CFG_HAND_LIMIT], cfg[engine.CFG_DRAW], s, rids[s],
                                 rbp[s], ctx)
    if budget <= 0:
        return vk, vl
    nc = candidates_nb(S, params, s, vk, vl, rbp, ctx, cand)
    if nc <= 1:
        return vk, vl
    for j in range(budget):
        keys[j] = next_u64_nb(srng)
    o = 1 - s
    for c in range(nc):
        total[c] = 0.0
        for j in range(budget):
            seed_state_nb(keys[j], 0, rr)
            for x in range(S.shape[1]):
                V[s, x] = S[s, x]
                V[o, x] = S_pre[o, x]
            for x in range(gs.shape[0]):
                g[x] = gs[x]
            g[GS.CHECK] = 0
            determinize_nb(V, cards, s, pool, rr)
            total[c] += rollout_nb(V, g, played, params, s, cand[c, 0], cand[c, 1], rids, rbp,
                                   pay, ctx, rr)
    best = 0
    for c in range(1, nc):
        if total[c] > total[best]:
            best = c
    return cand[best, 0], cand[best, 1]


@njit
def alloc_search_nb():
    """Scratch of one searching block: the rollout copy and the candidate tables."""
    V, g, played = alloc_nb()
    return (V, g, played, np.zeros(2 * DECK, np.int32), np.zeros(MAX_BUDGET, np.uint64),
            np.zeros(4, np.uint64), np.zeros((MAX_CAND, 2), np.int32),
            np.zeros(MAX_CAND, np.float64))


@njit(refcount=False)
def search_phase_nb(S, S_pre, played, params, gs, s, budget, rids, rbp, pay, ctx, srng, scr):
    """Seat ``s``'s Play Phase, each card chosen by :func:`choose_search_nb`.

    Writes ``S``, ``played``, ``srng`` and the scratch.
    """
    cfg, cards, decks, dpts, damt = params
    for _ in range(PMAX):
        k, p = choose_search_nb(S, S_pre, params, gs, s, budget, rids, rbp, pay, ctx, srng, scr)
        if not engine.play_choice_nb(S, played, cards, cfg, s, k, p, rids[s], rbp[s], pay):
            return


@njit(refcount=False)
def play_one_search_nb(S, S_pre, gs, played, params, bot_ids, bp, budgets, rids, rbp, seed,
                       game_index, rec, pay, ctx, rng, srng, scr):
    """Play match ``game_index`` with a searching seat; fill ``rec``.

    The match's own stream (``rng``) is drawn exactly as in ``engine.play_one_nb``; the
    searching seats draw from side stream 1 (``srng``). ``rids``/``rbp`` are the rollout
    bots (``value`` at both seats); a seat whose ``bot_ids`` entry is not ``SEARCH_ID``
    plays its own bot.
    """
    cfg, cards, decks, dpts, damt = params
    seed_state_nb(seed, game_index, rng)
    seed_stream_nb(seed, game_index, SEARCH_STREAM, srng)
    engine.setup_nb(S, gs, played, params, rng)
    while gs[GS.TURN] < MAX_TURNS:
        if engine.begin_turn_nb(S, gs, cards, cfg):
            break
        for s in range(2):
            for x in range(S.shape[1]):
                S_pre[s, x] = S[s, x]
        for s in range(2):
            if bot_ids[s] == SEARCH_ID:
                search_phase_nb(S, S_pre, played, params, gs, s, budgets[s], rids, rbp, pay, ctx,
                                srng, scr)
            else:
                engine.play_phase_nb(S, played, cards, cfg, s, bot_ids[s], bp[s], pay, ctx)
        if engine.end_turn_nb(S, gs, cards, cfg, rng):
            break
    if gs[GS.WINNER] == engine.STILL_PLAYING:
        engine.tiebreak_nb(S, gs, cards)
    engine.write_record_nb(S, gs, played, params, bot_ids, rec, game_index)


@njit
def play_block_search_nb(params, bot_ids, bp, budgets, rbp, seed, start, out):
    """Play matches ``start .. start+len(out)-1`` into ``out`` (written) with searching seats.

    ``budgets`` int64 (2,) gives each searching seat's rollouts per candidate; ``rbp``
    float64 (2, n_params) the rollout bot's (``value``'s) parameters at each seat, also the
    parameters a searching seat plays with at budget 0.
    """
    S, gs, played = alloc_nb()
    S_pre = np.zeros_like(S)
    pay = np.zeros(HMAX, np.int32)
    ctx = np.zeros(bots.C_N, np.float64)
    rng = np.zeros(4, np.uint64)
    srng = np.zeros(4, np.uint64)
    rids = np.full(2, VALUE_ID, np.int64)
    scr = alloc_search_nb()
    for i in range(out.shape[0]):
        play_one_search_nb(S, S_pre, gs, played, params, bot_ids, bp, budgets, rids, rbp, seed,
                           start + i, out[i], pay, ctx, rng, srng, scr)
