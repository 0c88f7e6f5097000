"""The Defend phase: cards played as a turn starts, Sabotage, tower fire and hits.

Part of the Terminus Breach TD engine (see ``engine/__init__.py``).
"""

from __future__ import annotations

from simlib.core.jit import njit
from simlib.core.rng import uniform_nb
from simlib.games.terminus import bots
from simlib.games.terminus.engine.cards import (
    carnage_nb,
    countered_nb,
    play_nb,
    playable_nb,
    spy_execute_nb,
)
from simlib.games.terminus.engine.config import (
    CFG_CRYSTAL_KEEP,
    CFG_PATH_LEN,
    CFG_SITES,
    CFG_SLOW_SET,
    CFG_TOUGH_RULE,
    POISON_STEP,
)
from simlib.games.terminus.engine.levels import spend_held_nb
from simlib.games.terminus.move import is_dead_nb, kill_nb
from simlib.games.terminus.state import (
    DKC,
    GSC,
    I64,
    IMP,
    LINE,
    MAX_HAND,
    PLC,
    TWC,
)
from simlib.games.terminus.towers import (
    tower_stats_nb,
)


@njit(refcount=False)  # borrows its arrays (see state.py)
def hit_nb(dk, occ, pl, gs, d, seat, dmg, poison, slow, pup, tough_rule, cfg):
    """A shot of ``seat``'s tower hits Drakka ``d``.

    A shot of ``seat``'s tower hits ``d``: damage counters (TB-096), Poison and Slow tokens
    (TB-179..182, TB-185..189), and the kill (TB-097). Returns True on a kill.
    """
    dk[d, DKC.DMG] += dmg
    if is_dead_nb(dk[d, DKC.DMG], dk[d, DKC.TOUGH], tough_rule):
        kill_nb(dk, occ, pl, gs, d, seat, I64(1))
        return True
    cur = dk[d, DKC.POISON]
    new = cur
    if poison > cur:
        new = poison  # TB-180: a higher value replaces the token
    if pup != 0 and (poison > 0 or cur > 0):
        up = POISON_STEP[cur] if cur > 0 else poison
        if up > new:
            new = up  # TB-182: a blessed hit raises the token one step
    if new != cur:
        dk[d, DKC.POISON] = new
        dk[d, DKC.POISON_SRC] = seat
    if slow > 0:
        v = cfg[CFG_SLOW_SET + slow]
        if v > dk[d, DKC.SLOW]:
            dk[d, DKC.SLOW] = v  # TB-188/189: replenished to the hit's value if higher
    return False


@njit(refcount=False)  # borrows its arrays (see state.py)
def fire_tower_nb(dk, occ, tw, bl, pl, gs, cfg, near, cover, sdist, lv, bless, s, bp):
    """Tower ``s`` fires its shots.

    Tower ``s`` fires every shot its Rate allows while a legal target is left (TB-091..093, TB-098).
    Returns the shots fired. Takes the few tables it reads, not ``params``: it runs for every
    tower in every Wave, and a call copies its arguments.
    """
    dmg, rng_, rate, poison, slow, fly, pup = tower_stats_nb(
        tw, bl, lv, bless, s, gs[GSC.BATTLE], gs[GSC.WAVE_INDEX])
    seat = tw[s, TWC.OWNER]
    shots = 0
    for _ in range(rate):
        d = bots.target_nb(dk, occ, near, cover, sdist, s, rng_, fly, dmg, cfg[CFG_PATH_LEN],
                           cfg[CFG_TOUGH_RULE], bp)
        if d < 0:
            break
        hit_nb(dk, occ, pl, gs, d, seat, dmg, poison, slow, pup, cfg[CFG_TOUGH_RULE], cfg)
        shots += 1
    return shots


@njit(refcount=False)  # borrows its arrays (see state.py)
def defend_cards_nb(dk, occ, tw, bl, pl, hand, fdeck, gs, params, seat, bot_id, bp, rng):
    """Cards ``seat`` plays as its Defend turn starts.

    Cards ``seat`` plays as its Defend turn starts: Carnage, Spy (Execute or Sabotage), Combust,
    Falconry (TB-124).
    """
    cfg = params[0]
    sdist = params[3]
    lv = params[5]
    wi = gs[GSC.WAVE_INDEX]
    path_len = cfg[CFG_PATH_LEN]
    n_sites = cfg[CFG_SITES]
    i = playable_nb(hand, pl, seat, IMP.CARNAGE, wi)
    if i >= 0:
        a, w = bots.carnage_window_nb(dk, occ, path_len, I64(3))
        if a >= 0 and (w >= 4.0 or bots.danger_nb(dk, occ, path_len) > 0):
            play_nb(hand, fdeck, pl, gs, seat, i)
            carnage_nb(dk, occ, pl, gs, seat, a, I64(3), path_len, cfg[CFG_TOUGH_RULE])
    for _ in range(MAX_HAND):
        i = playable_nb(hand, pl, seat, IMP.SPY, wi)
        if i < 0:
            break
        d = bots.spy_target_nb(dk, occ, tw, sdist, n_sites, path_len, seat)
        if d < 0:
            break
        play_nb(hand, fdeck, pl, gs, seat, i)
        if not countered_nb(hand, fdeck, pl, gs, I64(-1), seat, wi):
            spy_execute_nb(dk, occ, pl, gs, seat, d, cfg[CFG_TOUGH_RULE])
    for card in (IMP.COMBUST, IMP.FALCONRY):
        i = playable_nb(hand, pl, seat, card, wi)
        if i >= 0:
            s = bots.boost_tower_nb(tw, dk, occ, sdist, lv, n_sites, path_len, seat)
            if s >= 0:
                play_nb(hand, fdeck, pl, gs, seat, i)
                tw[s, TWC.COMBUST if card == IMP.COMBUST else TWC.FALCONRY] = 1


@njit(refcount=False)  # borrows its arrays (see state.py)
def holds_defend_card_nb(hand, pl, seat, wave_index):
    """True when ``seat`` holds a playable Carnage, Spy, Combust or Falconry."""
    for i in range(pl[seat, PLC.HAND_N]):
        c = hand[seat, i, 0]
        if hand[seat, i, 1] < wave_index and (c == IMP.SPY or c == IMP.COMBUST or
                                              c == IMP.FALCONRY or c == IMP.CARNAGE):
            return True
    return False


@njit(refcount=False)  # borrows its arrays (see state.py)
def sabotage_nb(dk, occ, tw, pl, hand, fdeck, gs, params, victim, bot_id, bp, rng):
    """Rivals' Sabotage before ``victim`` fires.

    Before ``victim`` fires, each rival may Sabotage one of its towers that could fire
    (TB-129..131), with the bot's ``sabotage`` chance; the victim may counter (TB-132).
    """
    cfg = params[0]
    sdist = params[3]
    lv = params[5]
    if bp[bots.P_SABOTAGE] <= 0.0:
        return
    n = gs[GSC.N_PLAYERS]
    wi = gs[GSC.WAVE_INDEX]
    for k in range(1, n):
        spy = (victim + k) % n
        i = playable_nb(hand, pl, spy, IMP.SPY, wi)
        if i < 0 or uniform_nb(rng) >= bp[bots.P_SABOTAGE]:
            continue
        s = bots.sabotage_target_nb(tw, dk, occ, sdist, lv, cfg[CFG_SITES], cfg[CFG_PATH_LEN],
                                    victim)
        if s < 0:
            continue
        play_nb(hand, fdeck, pl, gs, spy, i)
        if not countered_nb(hand, fdeck, pl, gs, victim, spy, wi):
            tw[s, TWC.SABOTAGED] = 1


@njit(refcount=False)  # borrows its arrays (see state.py)
def defend_phase_nb(dk, occ, tw, bl, pl, hand, fdeck, gs, params, bot_id, bp, rng):
    """The Defend phase.

    Defend: from the active player clockwise, each player plays cards and fires all their towers
    (TB-090, TB-095: in site order); tokens of one Defend phase then end.
    """
    cfg = params[0]
    near = params[1]
    sdist = params[3]
    cover = params[4]
    lv = params[5]
    bless = params[8]
    n = gs[GSC.N_PLAYERS]
    n_sites = cfg[CFG_SITES]
    for k in range(n):
        seat = (gs[GSC.ACTIVE] + k) % n
        if cfg[CFG_CRYSTAL_KEEP] != 0 and pl[seat, PLC.HELD] + pl[seat, PLC.HELD + 1] + \
                pl[seat, PLC.HELD + 2] > 0:
            spend_held_nb(dk, occ, tw, bl, pl, hand, fdeck, gs, params, seat, bot_id, bp, rng)
        if bp[bots.P_SABOTAGE] > 0.0:
            sabotage_nb(dk, occ, tw, pl, hand, fdeck, gs, params, seat, bot_id, bp, rng)
        if holds_defend_card_nb(hand, pl, seat, gs[GSC.WAVE_INDEX]):
            defend_cards_nb(dk, occ, tw, bl, pl, hand, fdeck, gs, params, seat, bot_id, bp,
                            rng)
        for s in range(n_sites):
            if tw[s, TWC.ALIVE] != 0 and tw[s, TWC.OWNER] == seat and \
                    tw[s, TWC.LINE] != LINE.HOLY:
                fire_tower_nb(dk, occ, tw, bl, pl, gs, cfg, near, cover, sdist, lv, bless, s,
                              bp)
    for s in range(n_sites):  # TB-150, TB-152, TB-175
        tw[s, TWC.FEAR] = 0
        tw[s, TWC.PETRIFY] = 0
        tw[s, TWC.COMBUST] = 0
        tw[s, TWC.FALCONRY] = 0

