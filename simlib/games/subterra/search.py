"""Sub Terra's ``search`` bot: policy rollouts over the scripted bots' proposals.

The search bot plays every seat (the game is co-operative). At each decision of the caver
whose turn it is (``engine.advance_nb`` stops there) it:

1. collects the candidate actions: the proposals of the three scripted bots (``explorer``,
   ``cautious``, ``racer``) for this very decision, plus "end the turn" when a proposal
   would need the exert point; duplicates are merged;
2. plays each candidate forward from a copy of the state (``engine.copy_state_nb``): the
   candidate first, then the default bot ``explorer`` for every seat to the end of the game;
3. takes the candidate with the best mean value (ties: the earlier candidate, the
   explorer's proposal first).

The value of a rollout is ``win + 0.25 * escaped / cavers``: a win counts first, then the
share of cavers who got out (so a rollout that cannot win still prefers more cavers out).

``budget`` rollouts in all are spent per decision, by successive halving: in each round
every candidate still in the race gets the same number of rollouts (the budget left
shared over the rounds left), then the worse half is dropped. A round is played only when
the budget left gives every candidate in the race one rollout. Budget 0 (or a decision
with one candidate) plays exactly the explorer's proposal, so ``search`` at budget 0 is
``explorer`` game for game.

Rollouts see no hidden information: each copy's unseen stack order is shuffled again (the
exit uniformly among the bottom ``exit_depth`` positions not yet drawn, as the setup put
it) and its unseen hazard cards are drawn again from the difficulty's pool less the cards
already turned over. The candidates are compared on common random numbers: rollout ``j``
of every candidate uses the same generator state, seeded from the game's side stream 1
(``seed_stream_nb(seed, i, 1, state)``), so the game's own stream is never touched and
every other bot's games stay as they were. Every other choice of the game (rotations of
revealed tiles, the victim's pick of a horror's step, spawn ties) is the explorer's.
"""

from __future__ import annotations

import numpy as np

from simlib.core.jit import njit
from simlib.core.rng import next_u64_nb, randint_nb, seed_state_nb, seed_stream_nb
from simlib.games.subterra import bots, engine
from simlib.games.subterra.state import (
    ACTION,
    CFC,
    CFG,
    GFC,
    STACK_MAX,
    TILE,
    action_cost_nb,
    alloc_nb,
)

SEARCH_BOT = 3  # the bot id (the scripted bots are 0..2, see ``bots.BOTS``)
ROLLOUT_BOT = 0  # the default bot, ``explorer``: the rollout policy
BUDGET_MAX = 1024
ESCAPE_WEIGHT = 0.25
MAX_CANDIDATES = 4
PARAM_NAMES = ("budget",)
PARAMS = {"budget": 16.0}
PARAM_HELP = {"budget": "rollouts per decision in all (0 = play exactly as explorer)"}
PARAM_BOUNDS = {"budget": (0.0, float(BUDGET_MAX))}
DESCRIPTION = ("tries the scripted bots' proposals (and ending the turn instead of an "
               "exert) with explorer rollouts; plays every seat")

# parameter vectors of the scripted bots, in id order (explorer, cautious, racer)
SCRIPTED_BP = np.zeros((3, bots.N_PARAMS), np.float64)
for _name, (_bid, _defaults, _desc) in bots.BOTS.items():
    SCRIPTED_BP[_bid, :] = _defaults


@njit(refcount=False)
def resample_hidden_nb(gs, stack, deck, params, tmp_stack, tmp_cards, rng):
    """Deal the copy's unseen stack and hazard cards again, as the players know them.

    The stack below ``STACK_POS``: its tiles shuffled, the exit (while unseen) uniformly
    among the bottom ``exit_depth`` positions not yet drawn. The hazard cards below
    ``DECK_POS``: drawn again from the pool less the cards turned over. Writes ``stack``,
    ``deck``, ``tmp_stack``, ``tmp_cards`` and ``rng``.
    """
    p = gs[GFC.STACK_POS]
    n = gs[GFC.STACK_N]
    exit_hidden = gs[GFC.EXIT_TILE] < 0
    k = 0
    for pos in range(p, n):
        if stack[pos, 0] == TILE.EXIT and exit_hidden:
            continue
        tmp_stack[k, 0] = stack[pos, 0]
        tmp_stack[k, 1] = stack[pos, 1]
        tmp_stack[k, 2] = stack[pos, 2]
        k += 1
    for i in range(k - 1, 0, -1):
        j = randint_nb(i + 1, rng)
        for col in range(3):
            tmp = tmp_stack[i, col]
            tmp_stack[i, col] = tmp_stack[j, col]
            tmp_stack[j, col] = tmp
    exit_pos = -1
    if exit_hidden and n > p:
        lo = n - params.cfg[CFG.EXIT_DEPTH]
        if lo < p:
            lo = p
        exit_pos = lo + randint_nb(n - lo, rng)
    k = 0
    for pos in range(p, n):
        if pos == exit_pos:
            stack[pos, 0] = TILE.EXIT
            stack[pos, 1] = params.cfg[CFG.EXIT_SHAPE]
            stack[pos, 2] = 0
        else:
            stack[pos, 0] = tmp_stack[k, 0]
            stack[pos, 1] = tmp_stack[k, 1]
            stack[pos, 2] = tmp_stack[k, 2]
            k += 1
    # hazard cards: the pool less the cards seen (each seen card struck once)
    pool = params.pool
    m = 0
    for i in range(pool.shape[0]):
        tmp_cards[m] = pool[i]
        m += 1
    for s in range(gs[GFC.DECK_POS]):
        for i in range(m):
            if tmp_cards[i] == deck[s]:
                tmp_cards[i] = tmp_cards[m - 1]
                m -= 1
                break
    unseen = gs[GFC.DECK_N] - gs[GFC.DECK_POS]
    for i in range(unseen):
        j = i + randint_nb(m - i, rng)
        tmp = tmp_cards[i]
        tmp_cards[i] = tmp_cards[j]
        tmp_cards[j] = tmp
        deck[gs[GFC.DECK_POS] + i] = tmp_cards[i]


@njit(refcount=False)
def rollout_value_nb(cv, gs):
    """The value of a finished game: ``win + ESCAPE_WEIGHT * escaped / cavers``."""
    n = gs[GFC.N_CAVERS]
    ex = gs[GFC.EXIT_TILE]
    escaped = 0
    for c in range(n):
        if cv[c, CFC.REMOVED] == 0 and cv[c, CFC.TILE] == ex:
            escaped += 1
    win = 1.0 if n - escaped < 3 else 0.0
    return win + ESCAPE_WEIGHT * escaped / n


@njit(refcount=False)
def candidates_nb(tl, nb, grid, cv, hz, gs, scratch, params, c, aux, aux0, cand):
    """Fill ``cand`` (int64 (MAX_CANDIDATES, 3): action, arg, want_exert); return the count.

    The explorer's proposal comes first and is asked on the game's own ``scratch`` (so the
    explorer's kept plans evolve as in its own games); the other bots are asked on a copy
    (``aux``, written; ``aux0`` keeps the scratch as it stood) with the decision's kept
    searches cleared, so that each bot searches with its own weights. ``want_exert`` is
    kept only where the action needs the exert point.
    """
    ap = gs[GFC.TURN_AP]
    exerted = gs[GFC.TURN_EXERTED] != 0
    engine.copy_rows_nb(scratch, aux0)
    nc = 0
    for bid in range(3):
        if bid == 0:
            a, g, w = bots.decide_nb(tl, nb, grid, cv, hz, gs, scratch, params, c, ap,
                                     exerted, bid, SCRIPTED_BP[bid])
        else:
            engine.copy_rows_nb(aux0, aux)
            bots.forget_decision_nb(aux)
            a, g, w = bots.decide_nb(tl, nb, grid, cv, hz, gs, aux, params, c, ap,
                                     exerted, bid, SCRIPTED_BP[bid])
        a = np.int64(a)
        g = np.int64(g) if a != ACTION.END else np.int64(0)
        cost = action_cost_nb(cv, c, a)
        ww = np.int64(1) if (w and cost > ap) else np.int64(0)
        nc = add_candidate_nb(cand, nc, a, g, ww)
        if ww == 1:
            nc = add_candidate_nb(cand, nc, np.int64(ACTION.END), np.int64(0), np.int64(0))
    return nc


@njit(refcount=False)
def add_candidate_nb(cand, nc, a, g, w):
    """Append ``(a, g, w)`` to ``cand[:nc]`` unless it is there; return the new count."""
    for i in range(nc):
        if cand[i, 0] == a and cand[i, 1] == g and cand[i, 2] == w:
            return nc
    if nc >= cand.shape[0]:
        return nc
    cand[nc, 0] = a
    cand[nc, 1] = g
    cand[nc, 2] = w
    return nc + 1


@njit(refcount=False)
def rollout_nb(tl, nb, grid, cv, hz, gs, stack, deck, scratch, work, params, a, g, w,
               first, base, j, tmp_stack, tmp_cards, rng):
    """Rollout ``j`` of candidate ``(a, g, w)``: its value from a copy of the state.

    ``work`` is the copy's arrays (``alloc_nb`` order, written); ``first`` True copies the
    grid too (once a decision: afterwards each rollout empties the cells it laid).
    ``rng`` is seeded from ``(base, j)``, the same for every candidate.
    """
    tl2, nb2, grid2, cv2, hz2, gs2, stack2, deck2, scratch2 = work
    engine.copy_state_nb(tl, nb, grid, cv, hz, gs, stack, deck, scratch, tl2, nb2, grid2,
                         cv2, hz2, gs2, stack2, deck2, scratch2, first)
    seed_state_nb(base, j, rng)
    resample_hidden_nb(gs2, stack2, deck2, params, tmp_stack, tmp_cards, rng)
    bp0 = SCRIPTED_BP[ROLLOUT_BOT]
    engine.decide_act_nb(tl2, nb2, grid2, cv2, hz2, gs2, stack2, scratch2, params, a, g,
                         w != 0, ROLLOUT_BOT, bp0, rng)
    engine.play_rounds_nb(tl2, nb2, grid2, cv2, hz2, gs2, stack2, deck2, scratch2, params,
                          ROLLOUT_BOT, bp0, rng)
    v = rollout_value_nb(cv2, gs2)
    engine.undo_grid_nb(tl2, grid2, gs2, gs[GFC.N_TILES])
    return v


@njit(refcount=False)
def search_decide_nb(tl, nb, grid, cv, hz, gs, stack, deck, scratch, params, budget, work,
                     aux, aux0, cand, sums, alive, tmp_stack, tmp_cards, side, rng):
    """The search bot's decision for the caver ``engine.advance_nb`` stopped at.

    Returns ``(action, arg, want_exert)``. Draws one number from the side stream ``side``
    per decision with more than one candidate (written); every other array past ``budget``
    is scratch (written).
    """
    c = engine.turn_caver_nb(gs)
    if budget <= 0:
        return bots.decide_nb(tl, nb, grid, cv, hz, gs, scratch, params, c,
                              gs[GFC.TURN_AP], gs[GFC.TURN_EXERTED] != 0, ROLLOUT_BOT,
                              SCRIPTED_BP[ROLLOUT_BOT])
    nc = candidates_nb(tl, nb, grid, cv, hz, gs, scratch, params, c, aux, aux0, cand)
    best = 0
    if nc > 1:
        base = next_u64_nb(side)
        for i in range(nc):
            sums[i] = 0.0
            alive[i] = 1
        n_alive = nc
        left = budget
        played = 0  # rollouts each candidate in the race has played
        first = True
        while n_alive > 1:
            rounds = 0
            a_ = 1
            while a_ < n_alive:
                a_ *= 2
                rounds += 1
            q = (left // rounds) // n_alive
            if q < 1:
                q = 1
            if q * n_alive > left:
                break
            for i in range(nc):
                if alive[i] == 0:
                    continue
                for j in range(played, played + q):
                    sums[i] += rollout_nb(tl, nb, grid, cv, hz, gs, stack, deck, scratch,
                                          work, params, cand[i, 0], cand[i, 1], cand[i, 2],
                                          first, base, j, tmp_stack, tmp_cards, rng)
                    first = False
            played += q
            left -= q * n_alive
            # drop the worse half (ties keep the earlier candidate)
            keep = (n_alive + 1) // 2
            while n_alive > keep:
                worst = -1
                for i in range(nc):
                    if alive[i] != 0 and (worst < 0 or sums[i] <= sums[worst]):
                        worst = i
                alive[worst] = 0
                n_alive -= 1
        best = -1
        for i in range(nc):
            if alive[i] != 0 and (best < 0 or sums[i] > sums[best]):
                best = i
    return cand[best, 0], cand[best, 1], cand[best, 2] != 0


@njit(refcount=False)
def play_one_search_nb(tl, nb, grid, cv, hz, gs, stack, deck, scratch, params, budget, seed,
                       game_index, rec, work, aux, aux0, cand, sums, alive, tmp_stack,
                       tmp_cards, side, rng, rng2):
    """Play game ``game_index`` of run ``seed`` with the search bot; fill ``rec``."""
    seed_state_nb(seed, game_index, rng)
    seed_stream_nb(seed, game_index, 1, side)
    bots.forget_nb(scratch)
    engine.setup_nb(tl, nb, grid, cv, hz, gs, stack, deck, params, rng)
    bp0 = SCRIPTED_BP[ROLLOUT_BOT]
    while engine.advance_nb(tl, nb, grid, cv, hz, gs, stack, deck, scratch, params,
                            ROLLOUT_BOT, bp0, rng, True):
        a, g, w = search_decide_nb(tl, nb, grid, cv, hz, gs, stack, deck, scratch, params,
                                   budget, work, aux, aux0, cand, sums, alive, tmp_stack,
                                   tmp_cards, side, rng2)
        engine.decide_act_nb(tl, nb, grid, cv, hz, gs, stack, scratch, params, a, g, w,
                             ROLLOUT_BOT, bp0, rng)
    engine.write_record_nb(tl, cv, gs, rec, game_index)
    engine.clear_grid_nb(tl, grid, gs)


@njit
def play_block_search_nb(params, bp, seed, start, out):
    """Play games ``start .. start+len(out)-1`` with the search bot into ``out`` (written).

    ``bp`` = ``(budget,)``. State and rollout buffers are allocated once for the block.
    """
    budget = np.int64(bp[0])
    tl, nb, grid, cv, hz, gs, stack, deck, scratch = alloc_nb()
    work = alloc_nb()
    aux = np.zeros_like(scratch)
    aux0 = np.zeros_like(scratch)
    cand = np.zeros((MAX_CANDIDATES, 3), np.int64)
    sums = np.zeros(MAX_CANDIDATES, np.float64)
    alive = np.zeros(MAX_CANDIDATES, np.int64)
    tmp_stack = np.zeros((STACK_MAX, 3), np.int32)
    tmp_cards = np.zeros(params.pool.shape[0] + 1, np.int32)
    side = np.zeros(4, np.uint64)
    rng = np.zeros(4, np.uint64)
    rng2 = np.zeros(4, np.uint64)
    for i in range(out.shape[0]):
        play_one_search_nb(tl, nb, grid, cv, hz, gs, stack, deck, scratch, params, budget,
                           seed, start + i, out[i], work, aux, aux0, cand, sums, alive,
                           tmp_stack, tmp_cards, side, rng, rng2)
