"""The ``search`` bot: flat Monte Carlo over the scripted bots' proposals.

The search bot plays every seat of the table (the game is co-operative). Everything but
three kinds of choice is played as the default scripted bot ``builder`` plays it (setup
builds, shots and cards in the Defend phase, trades, Lull purchases, level-ups). At each
of these choices it searches:

- **buying a Favor** (Resolve phase, when the seat can pay for one and has not bought one
  this Wave): buy, or save the GP;
- **selling** (Develop phase, when the builder would sell a Heavy Ground tower to rebuild
  Air & Ground on its site): sell, or keep it;
- **each build or upgrade** (Develop phase, one at a time): the next build or upgrade
  each scripted bot (``builder``, ``killer``, ``petitioner``) would make with its own
  parameters, the same proposal counted once, or stop and save the GP.

A choice with a single distinct candidate is taken without a rollout. Otherwise every
candidate is played ``budget`` times: a copy of the state (:func:`state.copy_state_nb`)
takes the candidate and plays on to the end of the game with ``builder`` for every seat
and choice. The value of a rollout is the game's outcome: 1 if the table survives, 0 if
it retreats, plus ``VP_TIE`` times the mean VP of the seats (a tiebreak far below one
game: a few hundred VP add a few thousandths). The candidate with the highest mean value
is taken (ties: the earlier candidate, in the order above: the builder's own proposal
first, "save" last).

Rollouts never see hidden information: in each copy the undrawn part of the Battle's
Drakka deck and the Favor draw pile are shuffled afresh, and the later Battles' decks, all
dice and every draw come from the rollout's own generator. Rollout randomness comes from
the game's side stream 1 (``seed_stream_nb(seed, i, 1, ...)``): one 64-bit draw per
decision seeds rollout ``j`` as stream ``(draw, j)``, the same for every candidate
(common random numbers), so the game's own stream, and so every other bot's games, never
change. With ``budget`` 0 no choice is searched: the bot takes the builder's own choice
everywhere and plays exactly the builder's games.
"""

from __future__ import annotations

import numpy as np

from simlib.core.jit import njit
from simlib.core.rng import next_u64_nb, seed_state_nb, seed_stream_nb, shuffle_nb
from simlib.games.terminus import bots
from simlib.games.terminus.engine.batch import write_record_nb
from simlib.games.terminus.engine.config import CFG_CHECK
from simlib.games.terminus.engine.defend import defend_phase_nb
from simlib.games.terminus.engine.develop import (
    develop_act_nb,
    develop_after_nb,
    develop_cards_nb,
    develop_pick_nb,
    develop_seat_nb,
    develop_seats_nb,
    sell_pick_nb,
    sell_rebuild_nb,
)
from simlib.games.terminus.engine.lull import final_scoring_nb
from simlib.games.terminus.engine.resolve import (
    buy_favor_nb,
    favor_open_nb,
    favor_rule_nb,
    resolve_after_nb,
    resolve_cards_nb,
    resolve_seat_nb,
    resolve_seats_nb,
)
from simlib.games.terminus.engine.setup import setup_nb
from simlib.games.terminus.engine.wave import (
    check_invariants_nb,
    next_wave_nb,
    play_from_nb,
    wave_end_nb,
    wave_front_nb,
)
from simlib.games.terminus.state import (
    GSC,
    I64,
    PLC,
    WAVES_PER_BATTLE,
    alloc_nb,
    copy_state_nb,
)

SEARCH_ID = 3
"""The search bot's id (after the scripted bots' 0..2)."""
MAX_BUDGET = 1024
DEFAULT_BUDGET = 16
VP_TIE = 1e-5
"""Weight of the seats' mean VP in a rollout's value (survival counts 1)."""
MAX_CAND = 4

# the points a rollout starts from (the choice just made is applied first)
AT_FAVOR, AT_SELL, AT_BUILD = 0, 1, 2


@njit(refcount=False)  # borrows its arrays (see state.py)
def resample_hidden_nb(fdeck, deck, gs, rng):
    """Shuffle what no player has seen: the undrawn Drakka deck and the Favor draw pile."""
    lo = gs[GSC.DRAW_PTR]
    n = gs[GSC.DECK_N] - lo
    if n > 1:
        shuffle_nb(deck[lo:], n, rng)
    if gs[GSC.FD_N] > 1:
        shuffle_nb(fdeck[0], gs[GSC.FD_N], rng)


@njit(refcount=False)  # borrows its arrays (see state.py)
def finish_game_nb(dk, occ, tw, bl, pl, hand, fdeck, deck, gs, params, point, k, stage, bp,
                   rng):
    """Play on with ``builder`` (``bp``) from a choice of seat position ``k`` to the end.

    ``point`` AT_FAVOR: the Favor purchase is made; the rest of that seat's Resolve, the
    later seats' Resolve and every seat's Develop follow. AT_SELL / AT_BUILD: the rest of
    that seat's Develop phase from ``stage`` (see ``develop_seat_nb``), then the later
    seats'. Then the Wave ends and the game plays on; the final scoring is done.
    """
    n = gs[GSC.N_PLAYERS]
    seat = (gs[GSC.ACTIVE] + k) % n
    bid = I64(bots.BUILDER)
    if point == AT_FAVOR:
        resolve_seat_nb(dk, occ, tw, bl, pl, hand, fdeck, gs, params, seat, I64(1), bid, bp,
                        rng)
        resolve_seats_nb(dk, occ, tw, bl, pl, hand, fdeck, gs, params, k + 1, n, bid, bp, rng)
        develop_seats_nb(dk, occ, tw, bl, pl, hand, fdeck, gs, params, I64(0), n, bid, bp, rng)
    else:
        develop_seat_nb(dk, occ, tw, bl, pl, hand, fdeck, gs, params, seat, stage, bid, bp,
                        rng)
        develop_seats_nb(dk, occ, tw, bl, pl, hand, fdeck, gs, params, k + 1, n, bid, bp, rng)
    wave_end_nb(dk, occ, tw, bl, pl, gs, params)
    b, w = next_wave_nb(dk, tw, pl, deck, gs, params, gs[GSC.BATTLE], gs[GSC.WAVE], bp, rng)
    play_from_nb(dk, occ, tw, bl, pl, hand, fdeck, deck, gs, params, b, w, bid, bp, rng)
    final_scoring_nb(tw, pl, gs, params[0], bp)


@njit(refcount=False)  # borrows its arrays (see state.py)
def outcome_value_nb(pl, gs):
    """A finished game's value: survival (1 / 0) plus ``VP_TIE`` x the seats' mean VP."""
    n = gs[GSC.N_PLAYERS]
    vp = 0.0
    for s in range(n):
        vp += pl[s, PLC.VP]
    return (1.0 if gs[GSC.RETREAT] == 0 else 0.0) + VP_TIE * vp / n


@njit(refcount=False)  # borrows its arrays (see state.py)
def decide_nb(st, ro, rng, ro_rng, srng, params, point, k, cand, n_cand, budget, bp):
    """Index of the best of ``n_cand`` candidates ``cand[c] = (kind, site, line)``.

    ``st`` is the real state (10 arrays, ``alloc_nb``), ``ro`` the rollout copy (written).
    AT_FAVOR: kind 1 buys, 0 saves; AT_SELL: kind 1 sells site ``site``, 0 keeps;
    AT_BUILD: kind 0 stops, 1 / 2 builds / upgrades as ``develop_act_nb``. Each
    candidate's rollout ``j`` uses generator stream ``(base, j)``, ``base`` drawn once from
    ``srng`` for the choice.
    """
    base = next_u64_nb(srng)
    n = st[8][GSC.N_PLAYERS]
    seat = (st[8][GSC.ACTIVE] + k) % n
    cfg = params[0]
    best = -1.0
    best_c = 0
    for c in range(n_cand):
        kind = cand[c, 0]
        tot = 0.0
        for j in range(budget):
            copy_state_nb(st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7], st[8], rng,
                          ro[0], ro[1], ro[2], ro[3], ro[4], ro[5], ro[6], ro[7], ro[8],
                          ro_rng)
            seed_state_nb(base, j, ro_rng)
            dk, occ, tw, bl, pl, hand, fdeck, deck, gs = (ro[0], ro[1], ro[2], ro[3], ro[4],
                                                          ro[5], ro[6], ro[7], ro[8])
            resample_hidden_nb(fdeck, deck, gs, ro_rng)
            stage = I64(1)
            if point == AT_FAVOR:
                if kind == 1:
                    buy_favor_nb(hand, fdeck, pl, gs, cfg, seat, ro_rng)
            elif point == AT_SELL:
                if kind == 1:
                    sell_rebuild_nb(tw, bl, pl, gs, params, seat, cand[c, 1])
            elif kind == 0:
                stage = I64(2)
            else:
                develop_act_nb(tw, bl, pl, gs, params, seat, kind, cand[c, 1], cand[c, 2])
            finish_game_nb(dk, occ, tw, bl, pl, hand, fdeck, deck, gs, params, point, k, stage,
                           bp, ro_rng)
            tot += outcome_value_nb(pl, gs)
        mean = tot / budget
        if mean > best:
            best = mean
            best_c = c
    return best_c


@njit(refcount=False)  # borrows its arrays (see state.py)
def add_cand_nb(cand, n_cand, kind, site, line):
    """Append ``(kind, site, line)`` to ``cand`` unless it is there; returns the new count."""
    for c in range(n_cand):
        if cand[c, 0] == kind and cand[c, 1] == site and cand[c, 2] == line:
            return n_cand
    cand[n_cand, 0] = kind
    cand[n_cand, 1] = site
    cand[n_cand, 2] = line
    return n_cand + 1


@njit(refcount=False)  # borrows its arrays (see state.py)
def play_one_search_nb(st, ro, rng, ro_rng, srng, cand, params, budget, bp, pbp, seed,
                       game_index, rec):
    """Play game ``game_index`` of run ``seed`` with the search bot; fill ``rec``.

    ``st`` / ``ro``: the real and the rollout state (``alloc_nb`` tuples); ``bp``: the
    builder's parameters; ``pbp`` (3, n_params): the scripted bots' parameters, whose
    proposals are the build candidates; ``cand`` int64 (MAX_CAND, 3) scratch.
    """
    dk, occ, tw, bl, pl, hand, fdeck, deck, gs = (st[0], st[1], st[2], st[3], st[4], st[5],
                                                  st[6], st[7], st[8])
    cfg = params[0]
    bid = I64(bots.BUILDER)
    seed_state_nb(seed, game_index, rng)
    seed_stream_nb(seed, game_index, I64(1), srng)
    setup_nb(dk, occ, tw, bl, pl, hand, fdeck, deck, gs, params, bid, bp, rng)
    b = I64(1)
    w = I64(1)
    while b > 0:
        gs[GSC.WAVE] = w
        draw = I64(1) if w <= WAVES_PER_BATTLE else I64(0)
        if not wave_front_nb(dk, occ, tw, pl, deck, gs, params, draw, rng):
            defend_phase_nb(dk, occ, tw, bl, pl, hand, fdeck, gs, params, bid, bp, rng)
            n = gs[GSC.N_PLAYERS]
            for k in range(n):
                seat = (gs[GSC.ACTIVE] + k) % n
                resolve_cards_nb(dk, pl, hand, fdeck, gs, params, seat, bid, rng)
                if budget == 0 or not favor_open_nb(pl, gs, cfg, seat, 0.0):
                    favor_rule_nb(hand, fdeck, pl, gs, cfg, seat, bp, rng)
                else:
                    cand[0, 0] = 0
                    cand[1, 0] = 1
                    if decide_nb(st, ro, rng, ro_rng, srng, params, AT_FAVOR, k, cand, 2,
                                 budget, bp) == 1:
                        buy_favor_nb(hand, fdeck, pl, gs, cfg, seat, rng)
                resolve_after_nb(dk, occ, tw, bl, pl, hand, fdeck, gs, params, seat, bid, bp,
                                 rng)
            for k in range(n):
                seat = (gs[GSC.ACTIVE] + k) % n
                develop_cards_nb(tw, bl, pl, hand, fdeck, gs, params, seat)
                if bp[bots.P_SELL] > 0.0:
                    s = sell_pick_nb(tw, pl, params, seat, bp)
                    if s >= 0:
                        sell = True
                        if budget > 0:
                            cand[0, 0] = 0
                            cand[1, 0] = 1
                            cand[1, 1] = s
                            sell = decide_nb(st, ro, rng, ro_rng, srng, params, AT_SELL, k,
                                             cand, 2, budget, bp) == 1
                        if sell:
                            sell_rebuild_nb(tw, bl, pl, gs, params, seat, s)
                for _ in range(32):
                    kind, site, line = develop_pick_nb(tw, pl, gs, params, seat, bp)
                    if budget > 0:
                        nc = add_cand_nb(cand, 0, kind, site, line)
                        for j in range(1, pbp.shape[0]):
                            kj, sj, lj = develop_pick_nb(tw, pl, gs, params, seat, pbp[j])
                            nc = add_cand_nb(cand, nc, kj, sj, lj)
                        nc = add_cand_nb(cand, nc, 0, -1, -1)
                        if nc > 1:
                            c = decide_nb(st, ro, rng, ro_rng, srng, params, AT_BUILD, k,
                                          cand, nc, budget, bp)
                            kind = cand[c, 0]
                            site = cand[c, 1]
                            line = cand[c, 2]
                    if kind == 0:
                        break
                    develop_act_nb(tw, bl, pl, gs, params, seat, kind, site, line)
                develop_after_nb(dk, occ, tw, bl, pl, hand, fdeck, gs, params, seat, bid, bp,
                                 rng)
            wave_end_nb(dk, occ, tw, bl, pl, gs, params)
        b, w = next_wave_nb(dk, tw, pl, deck, gs, params, b, w, bp, rng)
    final_scoring_nb(tw, pl, gs, cfg, bp)
    if cfg[CFG_CHECK] != 0:
        check_invariants_nb(dk, occ, tw, bl, pl, gs, params)
    write_record_nb(dk, pl, gs, rec, game_index)


@njit
def play_search_block_nb(params, budget, bp, pbp, seed, start, out):
    """Play games ``start .. start+len(out)-1`` with the search bot into ``out`` (written).

    The real and the rollout state are allocated once for the block.
    """
    st = alloc_nb()
    ro = alloc_nb()
    rng = np.zeros(4, np.uint64)
    ro_rng = np.zeros(4, np.uint64)
    srng = np.zeros(4, np.uint64)
    cand = np.zeros((MAX_CAND, 3), np.int64)
    for i in range(out.shape[0]):
        play_one_search_nb(st, ro, rng, ro_rng, srng, cand, params, budget, bp, pbp, seed,
                           start + i, out[i])


AT_WAVE_END = 3


@njit(refcount=False)  # borrows its arrays (see state.py)
def scramble_nb(dk, occ, tw, bl, pl, hand, fdeck, deck, gs, rng):
    """Overwrite a state with junk (so a test shows a copy shares nothing with it)."""
    dk[:] = -7
    occ[:] = -7
    tw[:] = -7
    bl[:] = -7
    pl[:] = -7
    hand[:] = -7
    fdeck[:] = -7
    deck[:] = -7
    gs[:] = -7
    rng[:] = 12345


@njit
def split_game_nb(params, bp, seed, game_index, stop_wave, point, k, rec):
    """Play game ``game_index`` with ``builder``, copy it mid-game and finish the copy.

    The game is played as :func:`engine.batch.play_one_nb` plays it up to Wave number
    ``stop_wave`` (``gs[WAVE_INDEX]``, 0-based); there, at ``point`` of seat position ``k``
    (AT_FAVOR: after its Favor purchase; AT_BUILD: before its builds and upgrades;
    AT_WAVE_END: after the Wave), the state and its generator are copied
    (:func:`state.copy_state_nb`), the original is overwritten with junk, and the copy is
    played to the end (:func:`finish_game_nb` / :func:`engine.wave.play_from_nb`) into
    ``rec``. Returns True when the point was reached (else ``rec`` is the whole game).
    A test support kernel: the record must equal the uninterrupted game's.
    """
    dk, occ, tw, bl, pl, hand, fdeck, deck, gs, _ = alloc_nb()
    d2, o2, t2, b2, p2, h2, f2, k2, g2, _ = alloc_nb()
    rng = np.zeros(4, np.uint64)
    rng2 = np.zeros(4, np.uint64)
    cfg = params[0]
    bid = I64(bots.BUILDER)
    seed_state_nb(seed, game_index, rng)
    setup_nb(dk, occ, tw, bl, pl, hand, fdeck, deck, gs, params, bid, bp, rng)
    b = I64(1)
    w = I64(1)
    while b > 0:
        gs[GSC.WAVE] = w
        draw = I64(1) if w <= WAVES_PER_BATTLE else I64(0)
        here = gs[GSC.WAVE_INDEX] + 1 == stop_wave
        if not wave_front_nb(dk, occ, tw, pl, deck, gs, params, draw, rng):
            defend_phase_nb(dk, occ, tw, bl, pl, hand, fdeck, gs, params, bid, bp, rng)
            n = gs[GSC.N_PLAYERS]
            if here and point == AT_FAVOR:
                resolve_seats_nb(dk, occ, tw, bl, pl, hand, fdeck, gs, params, I64(0), k, bid,
                                 bp, rng)
                seat = (gs[GSC.ACTIVE] + k) % n
                resolve_cards_nb(dk, pl, hand, fdeck, gs, params, seat, bid, rng)
                favor_rule_nb(hand, fdeck, pl, gs, cfg, seat, bp, rng)
            elif here and point == AT_BUILD:
                resolve_seats_nb(dk, occ, tw, bl, pl, hand, fdeck, gs, params, I64(0), n, bid,
                                 bp, rng)
                develop_seats_nb(dk, occ, tw, bl, pl, hand, fdeck, gs, params, I64(0), k, bid,
                                 bp, rng)
                seat = (gs[GSC.ACTIVE] + k) % n
                develop_cards_nb(tw, bl, pl, hand, fdeck, gs, params, seat)
                s = sell_pick_nb(tw, pl, params, seat, bp)
                if s >= 0:
                    sell_rebuild_nb(tw, bl, pl, gs, params, seat, s)
            else:
                resolve_seats_nb(dk, occ, tw, bl, pl, hand, fdeck, gs, params, I64(0), n, bid,
                                 bp, rng)
                develop_seats_nb(dk, occ, tw, bl, pl, hand, fdeck, gs, params, I64(0), n, bid,
                                 bp, rng)
                wave_end_nb(dk, occ, tw, bl, pl, gs, params)
            if here:
                copy_state_nb(dk, occ, tw, bl, pl, hand, fdeck, deck, gs, rng,
                              d2, o2, t2, b2, p2, h2, f2, k2, g2, rng2)
                scramble_nb(dk, occ, tw, bl, pl, hand, fdeck, deck, gs, rng)
                if point == AT_WAVE_END:
                    b, w = next_wave_nb(d2, t2, p2, k2, g2, params, g2[GSC.BATTLE],
                                        g2[GSC.WAVE], bp, rng2)
                    play_from_nb(d2, o2, t2, b2, p2, h2, f2, k2, g2, params, b, w, bid, bp,
                                 rng2)
                    final_scoring_nb(t2, p2, g2, cfg, bp)
                else:
                    finish_game_nb(d2, o2, t2, b2, p2, h2, f2, k2, g2, params, point, k, I64(1),
                                   bp, rng2)
                if cfg[CFG_CHECK] != 0:
                    check_invariants_nb(d2, o2, t2, b2, p2, g2, params)
                write_record_nb(d2, p2, g2, rec, game_index)
                return True
        b, w = next_wave_nb(dk, tw, pl, deck, gs, params, b, w, bp, rng)
    final_scoring_nb(tw, pl, gs, cfg, bp)
    if cfg[CFG_CHECK] != 0:
        check_invariants_nb(dk, occ, tw, bl, pl, gs, params)
    write_record_nb(dk, pl, gs, rec, game_index)
    return False
