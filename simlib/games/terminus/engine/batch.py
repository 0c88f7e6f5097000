"""The record of one playthrough, one game, and the parallel batch over games.

Part of the Terminus Breach TD engine (see ``engine/__init__.py``).
"""

from __future__ import annotations

import numpy as np

from simlib.core.jit import njit
from simlib.core.rng import seed_state_nb
from simlib.games.terminus.engine.config import (
    CFG_CHECK,
)
from simlib.games.terminus.engine.lull import (
    final_scoring_nb,
    winners_nb,
)
from simlib.games.terminus.engine.setup import (
    setup_nb,
)
from simlib.games.terminus.engine.wave import (
    check_invariants_nb,
    on_path_nb,
    play_battles_nb,
)
from simlib.games.terminus.state import (
    GSC,
    MAX_PLAYERS,
    N_BATTLES,
    PLC,
    alloc_nb,
)

# --- records ------------------------------------------------------------------------
record_dt = np.dtype(
    [
        ("game_index", np.int64),
        ("win", np.bool_),
        ("outcome", np.int8),
        ("rounds", np.int16),
        ("battle_reached", np.int8),
        ("wave_reached", np.int8),
        ("players", np.int8),
        ("first_player", np.int8),
        ("panic", np.int16),
        ("leaks", np.int16),
        ("trampled", np.int16),
        ("kills", np.int16),
        ("boss_kills", np.int8),
        ("poison_kills", np.int16),
        ("carnage_kills", np.int16),
        ("spy_kills", np.int16),
        ("favors_played", np.int16),
        ("sanctions_played", np.int16),
        ("extra_waves", np.int16),
        ("towers_sold", np.int16),
        ("first_leak_wave", np.int16),
        ("drakka_left", np.int16),
        ("vp_winner", np.int8),
        ("shared_win", np.bool_),
        ("advance_steps", np.int32),
        ("invariant_violations", np.int32),
        ("panic_b", np.int16, (N_BATTLES,)),
        ("leaks_b", np.int16, (N_BATTLES,)),
        ("trampled_b", np.int16, (N_BATTLES,)),
        ("race", np.int8, (MAX_PLAYERS,)),
        ("klass", np.int8, (MAX_PLAYERS,)),
        ("vp", np.int32, (MAX_PLAYERS,)),
        ("gp", np.int32, (MAX_PLAYERS,)),
        ("towers", np.int16, (MAX_PLAYERS,)),
        ("level", np.int8, (MAX_PLAYERS,)),
        ("seat_kills", np.int16, (MAX_PLAYERS,)),
    ],
    align=True,
)


@njit(refcount=False)  # borrows its arrays (see state.py)
def write_record_nb(dk, pl, gs, rec, game_index):
    """Fill one record from the final state. ``rec`` is a record of ``record_dt``."""
    n = gs[GSC.N_PLAYERS]
    retreat = gs[GSC.RETREAT] != 0
    rec["game_index"] = game_index
    rec["win"] = not retreat
    rec["outcome"] = 1 if retreat else 0
    rec["rounds"] = gs[GSC.WAVE_INDEX] + 1
    rec["battle_reached"] = gs[GSC.BATTLE]
    rec["wave_reached"] = gs[GSC.WAVE]
    rec["players"] = n
    rec["first_player"] = gs[GSC.OPENER]
    rec["panic"] = gs[GSC.PANIC]
    rec["leaks"] = gs[GSC.LEAKS]
    rec["trampled"] = gs[GSC.TRAMPLED]
    rec["kills"] = gs[GSC.KILLS]
    rec["boss_kills"] = gs[GSC.BOSS_KILLS]
    rec["poison_kills"] = gs[GSC.POISON_KILLS]
    rec["carnage_kills"] = gs[GSC.CARNAGE_KILLS]
    rec["spy_kills"] = gs[GSC.SPY_KILLS]
    rec["favors_played"] = gs[GSC.FAVORS_PLAYED]
    rec["sanctions_played"] = gs[GSC.SANCTIONS_PLAYED]
    rec["extra_waves"] = gs[GSC.EXTRA_WAVES]
    rec["towers_sold"] = gs[GSC.SOLD]
    rec["first_leak_wave"] = gs[GSC.FIRST_LEAK_WAVE]
    rec["drakka_left"] = on_path_nb(dk, gs)
    mask = winners_nb(pl, n)
    first = -1
    count = 0
    for s in range(n):
        if (mask >> s) & 1:
            count += 1
            if first < 0:
                first = s
    rec["vp_winner"] = first
    rec["shared_win"] = count > 1
    rec["advance_steps"] = gs[GSC.ADV_STEPS]
    rec["invariant_violations"] = gs[GSC.VIOLATIONS]
    for b in range(N_BATTLES):
        rec["panic_b"][b] = gs[GSC.PANIC_B + b]
        rec["leaks_b"][b] = gs[GSC.LEAKS_B + b]
        rec["trampled_b"][b] = gs[GSC.TRAMPLED_B + b]
    for s in range(MAX_PLAYERS):
        if s < n:
            rec["race"][s] = pl[s, PLC.RACE]
            rec["klass"][s] = pl[s, PLC.CLASS]
            rec["vp"][s] = pl[s, PLC.VP]
            rec["gp"][s] = pl[s, PLC.GP]
            rec["towers"][s] = pl[s, PLC.TOWERS_BUILT]
            rec["level"][s] = pl[s, PLC.LEVEL]
            rec["seat_kills"][s] = pl[s, PLC.KILLS]
        else:
            rec["race"][s] = -1
            rec["klass"][s] = -1
            rec["vp"][s] = -1
            rec["gp"][s] = -1
            rec["towers"][s] = -1
            rec["level"][s] = -1
            rec["seat_kills"][s] = -1


@njit(refcount=False)  # borrows its arrays (see state.py)
def play_one_nb(dk, occ, tw, bl, pl, hand, fdeck, deck, gs, params, bot_id, bp, seed,
                game_index, rec, rng):
    """Play game ``game_index`` of run ``seed`` on preallocated state; fill ``rec``."""
    seed_state_nb(seed, game_index, rng)
    setup_nb(dk, occ, tw, bl, pl, hand, fdeck, deck, gs, params, bot_id, bp, rng)
    play_battles_nb(dk, occ, tw, bl, pl, hand, fdeck, deck, gs, params, bot_id, bp, rng)
    final_scoring_nb(tw, pl, gs, params[0], bp)
    if params[0][CFG_CHECK] != 0:
        check_invariants_nb(dk, occ, tw, bl, pl, gs, params)
    write_record_nb(dk, pl, gs, rec, game_index)


@njit
def play_block_nb(params, bot_id, bp, seed, start, out):
    """Play games ``start .. start+len(out)-1`` into ``out`` (written), one after another.

    The state is allocated once for the block and reused, so no game allocates. Each game's
    stream depends on (seed, index) only. Blocks run on threads (``core.blocks``).
    """
    dk, occ, tw, bl, pl, hand, fdeck, deck, gs, scr = alloc_nb()
    rng = np.zeros(4, np.uint64)
    for i in range(out.shape[0]):
        play_one_nb(dk, occ, tw, bl, pl, hand, fdeck, deck, gs, params, bot_id, bp, seed,
                    start + i, out[i], rng)

