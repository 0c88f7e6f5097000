"""Sub Terra rules: setup, the eleven actions with exert, horrors, hazards, the round.

Every helper takes the state arrays it reads or writes (see ``state.py``), then the
compiled settings, then the generator state ``rng`` last, and says what it writes.
Rule ids (ST-nnn) refer to ``shared/rules/sub-terra-checklist.md``; the readings of open
items are in this package's docstring (``__init__.py``).
"""

from __future__ import annotations

import numpy as np

from simlib.core.jit import njit
from simlib.core.paths import bfs_fill_nb, bfs_multi_nb
from simlib.core.rng import randint_nb, seed_state_nb, shuffle_nb, skill_check_nb
from simlib.games.subterra import bots
from simlib.games.subterra.state import (
    ABILITY,
    ACTION,
    CAUSE_CAVE_IN,
    CAUSE_EXERT,
    CAUSE_FLOOD,
    CAUSE_GAS,
    CAUSE_HORROR,
    CAUSE_OUT_OF_TIME,
    CAUSE_ROUGH,
    CAUSE_TREMOR,
    CENTER,
    CFC,
    CFG,
    DX,
    DY,
    EFC,
    GFC,
    HAZARD,
    HORROR_RANGE,
    MAX_CAVERS,
    MAX_HORRORS,
    MAX_ROUNDS,
    SCR,
    TFC,
    TILE,
    action_cost_nb,
    alloc_nb,
    can_leave_nb,
    cell_of_nb,
    is_victim_nb,
    neighbour_cell_nb,
    opp_nb,
    rotate_mask_nb,
)

# The compiled settings ``params`` are a ``state.Compiled`` (``compile.compile_settings``):
# ``params.cfg`` holds the scalar settings in the slots of ``state.Cfg``
# (``params.cfg[CFG.EXIT_DEPTH]``), the other fields the content tables.


# --- small rules helpers ------------------------------------------------------------------
@njit(refcount=False)
def check_invariants_nb(tl, cv, hz, gs):
    """Count invariant breaches into ``gs[VIOLATIONS]`` (health, horrors, markers)."""
    bad = 0
    for c in range(gs[GFC.N_CAVERS]):
        if cv[c, CFC.HP] < 0 or cv[c, CFC.HP] > cv[c, CFC.MAXHP]:
            bad += 1
    nh = 0
    for h in range(MAX_HORRORS):
        if hz[h] >= 0:
            nh += 1
    if nh != gs[GFC.N_HORRORS] or nh > MAX_HORRORS:
        bad += 1
    nflood = 0
    nrubble = 0
    for t in range(gs[GFC.N_TILES]):
        nflood += tl[t, TFC.FLOOD]
        nrubble += tl[t, TFC.RUBBLE]
        if tl[t, TFC.FLOOD] != 0 and tl[t, TFC.TYPE] != TILE.WATER:
            bad += 1
        if tl[t, TFC.RUBBLE] != 0 and tl[t, TFC.TYPE] != TILE.CAVE_IN:
            bad += 1
    if nflood != gs[GFC.N_FLOODED] or nflood > 8 or nrubble != gs[GFC.N_RUBBLE] or nrubble > 12:
        bad += 1
    if gs[GFC.ROPES_LEFT] < 0 or gs[GFC.EXPLOSIVES_LEFT] < 0:
        bad += 1
    gs[GFC.VIOLATIONS] += bad


@njit(refcount=False)
def damage_nb(tl, cv, gs, c, amount, cause):
    """Caver ``c`` loses up to ``amount`` health; returns the health actually lost.

    Writes ``cv`` (health) and ``gs`` (the tally of ``cause``, knock-outs). Cavers on the
    exit tile lose nothing (ST-149); health never goes below 0 (ST-064).
    """
    if cv[c, CFC.REMOVED] != 0 or cv[c, CFC.TILE] == gs[GFC.EXIT_TILE]:
        return 0
    hp = cv[c, CFC.HP]
    lost = amount if amount < hp else hp
    if lost <= 0:
        return 0
    cv[c, CFC.HP] = hp - lost
    gs[cause] += lost
    if hp - lost == 0:
        gs[GFC.KNOCKOUTS] += 1
        if cause == CAUSE_HORROR:
            gs[GFC.HORROR_KOS] += 1
    return lost


@njit(refcount=False)
def horror_strikes_tile_nb(tl, cv, gs, t):
    """Every caver on tile ``t`` loses all health (a horror shares the tile, ST-116)."""
    for c in range(gs[GFC.N_CAVERS]):
        if cv[c, CFC.REMOVED] == 0 and cv[c, CFC.TILE] == t and cv[c, CFC.HP] > 0:
            damage_nb(tl, cv, gs, c, cv[c, CFC.HP], CAUSE_HORROR)


@njit(refcount=False)
def enter_tile_nb(tl, cv, gs, c, t, from_side, rng):
    """Put caver ``c`` on tile ``t``, entered through ``t``'s side ``from_side``.

    Applies entry effects in order: a horror on the tile (ST-116), gas while a Gas card is
    in force (ST-125), rough terrain's skill check (ST-173). Writes ``cv``, ``gs``, ``rng``.
    """
    cv[c, CFC.TILE] = t
    ty = tl[t, TFC.TYPE]
    cv[c, CFC.SIDE] = from_side if (ty == TILE.LEDGE or ty == TILE.SLIDE) else -1
    # the round a caver reached the exit (for "cavers still in the cave by round")
    cv[c, CFC.LEAVE] = gs[GFC.ROUND] if t == gs[GFC.EXIT_TILE] else -1
    if tl[t, TFC.HORRORS] > 0:
        damage_nb(tl, cv, gs, c, cv[c, CFC.HP], CAUSE_HORROR)
    if ty == TILE.GAS and gs[GFC.GAS_ACTIVE] > 0:
        damage_nb(tl, cv, gs, c, gs[GFC.GAS_ACTIVE], CAUSE_GAS)
    if ty == TILE.ROUGH:
        if not skill_check_nb(rng):
            damage_nb(tl, cv, gs, c, 1, CAUSE_ROUGH)


@njit(refcount=False)
def link_tile_nb(tl, nb, grid, gs, t):
    """Connect tile ``t`` with its placed neighbours and update the frontier count.

    Writes ``nb`` (both directions), ``tl[FREE]`` of ``t`` and its neighbours, and
    ``gs[FRONTIER]``.
    """
    free = 0
    for d in range(4):
        cell = neighbour_cell_nb(tl, t, d)
        u = grid[cell]
        mine = (tl[t, TFC.OPEN] >> d) & 1
        if u < 0:
            free |= 1 << d
            if mine:
                gs[GFC.FRONTIER] += 1
            continue
        tl[u, TFC.FREE] &= ~(1 << opp_nb(d))
        theirs = (tl[u, TFC.OPEN] >> opp_nb(d)) & 1
        if theirs:
            gs[GFC.FRONTIER] -= 1  # their open side no longer faces an empty cell
        if mine and theirs:
            nb[t, d] = u
            nb[u, opp_nb(d)] = t
    tl[t, TFC.FREE] = free


@njit(refcount=False)
def place_tile_nb(tl, nb, grid, gs, x, y, ty, mask, faces, arrow):
    """Lay a tile of type ``ty`` with open-side ``mask`` at grid (x, y); returns its index.

    Explosives tokens on neighbours' walls facing this cell open the matching side here
    too (ST-183). Writes ``tl``, ``nb``, ``grid``, ``gs``.
    """
    t = gs[GFC.N_TILES]
    gs[GFC.N_TILES] = t + 1
    tl[t, TFC.TYPE] = ty
    gs[GFC.LAID + ty] += 1
    tl[t, TFC.X] = x
    tl[t, TFC.Y] = y
    tl[t, TFC.BLAST] = 0
    tl[t, TFC.FLOOD] = 0
    tl[t, TFC.RUBBLE] = 0
    tl[t, TFC.ROPE] = 0
    tl[t, TFC.FACES] = faces
    tl[t, TFC.ARROW] = arrow
    tl[t, TFC.HORRORS] = 0
    nb[t, 0] = -1
    nb[t, 1] = -1
    nb[t, 2] = -1
    nb[t, 3] = -1
    for d in range(4):
        u = grid[cell_of_nb(x + DX[d], y + DY[d])]
        if u >= 0 and (tl[u, TFC.BLAST] >> opp_nb(d)) & 1:
            mask |= 1 << d
    tl[t, TFC.OPEN] = mask
    grid[cell_of_nb(x, y)] = t
    link_tile_nb(tl, nb, grid, gs, t)
    return t


@njit(refcount=False)
def frontier_after_nb(tl, grid, gs, x, y, mask):
    """The frontier count if a tile with ``mask`` were laid at (x, y) (ST-174)."""
    f = gs[GFC.FRONTIER]
    for d in range(4):
        u = grid[cell_of_nb(x + DX[d], y + DY[d])]
        if u < 0:
            if (mask >> d) & 1:
                f += 1
        elif (tl[u, TFC.OPEN] >> opp_nb(d)) & 1:
            f -= 1  # explosives on that side opened it too
    return f


@njit(refcount=False)
def reveal_nb(tl, nb, grid, cv, hz, gs, stack, scratch, params, c, d, bot_id, bp, rng):
    """Reveal: lay the top stack tile beside caver ``c``'s tile through side ``d``.

    Returns the new tile's index, or -1 if the stack is empty (ST-176). The new tile's
    side facing the revealer must be open; the bot picks the rotation among legal ones
    (ST-085/086); ledges and slides are laid along ``d`` with the arrow pointing away
    (ST-160/166); a tile that would leave no open side facing an empty cell in any legal
    rotation is discarded and the next is drawn, the exit never (ST-174/175).
    Writes ``tl``, ``nb``, ``grid``, ``gs``.
    """
    t0 = cv[c, CFC.TILE]
    x = tl[t0, TFC.X] + DX[d]
    y = tl[t0, TFC.Y] + DY[d]
    need = opp_nb(d)
    forced = (tl[t0, TFC.BLAST] >> d) & 1
    while gs[GFC.STACK_POS] < gs[GFC.STACK_N]:
        k = gs[GFC.STACK_POS]
        gs[GFC.STACK_POS] = k + 1
        ty = np.int64(stack[k, 0])  # int64 like setup_nb: place_tile_nb compiles once
        base = stack[k, 1]
        faces = np.int64(stack[k, 2])
        if ty == TILE.LEDGE or ty == TILE.SLIDE:
            # straight along the arrow: open towards the revealer and away from it
            mask = (1 << d) | (1 << need)
            if ty != TILE.EXIT and frontier_after_nb(tl, grid, gs, x, y, mask) <= 0:
                gs[GFC.DISCARDS] += 1
                continue
            t = place_tile_nb(tl, nb, grid, gs, x, y, ty, mask, faces, d)
        else:
            best_r = -1
            best_score = -1000000
            for r in range(4):
                mask = rotate_mask_nb(base, r)
                if (mask >> need) & 1 == 0 and forced == 0:
                    continue
                dup = False
                for r2 in range(r):
                    if rotate_mask_nb(base, r2) == mask:
                        dup = True
                if dup:
                    continue
                f = frontier_after_nb(tl, grid, gs, x, y, mask | (forced << need))
                if f <= 0 and ty != TILE.EXIT:
                    continue
                score = bots.rotation_score_nb(tl, grid, gs, x, y, mask, ty, f, bot_id, bp)
                if score > best_score:
                    best_score = score
                    best_r = r
            if best_r < 0:
                gs[GFC.DISCARDS] += 1
                continue
            t = place_tile_nb(tl, nb, grid, gs, x, y, ty, rotate_mask_nb(base, best_r),
                              faces, -1)
        if ty == TILE.EXIT:
            gs[GFC.EXIT_TILE] = t
            gs[GFC.EXIT_ROUND] = gs[GFC.ROUND]
        return t
    return -1


@njit(refcount=False)
def step_nb(tl, nb, cv, gs, c, d, rng):
    """Caver ``c`` crosses into the connected neighbour through side ``d``."""
    t = np.int64(nb[cv[c, CFC.TILE], d])  # int64 like Explore: enter_tile_nb compiles once
    enter_tile_nb(tl, cv, gs, c, t, opp_nb(d), rng)


@njit(refcount=False)
def entry_action_nb(tl, t):
    """The action needed to enter tile ``t``: MOVE, SWIM, SQUEEZE, or END if blocked."""
    if tl[t, TFC.RUBBLE] != 0:
        return ACTION.END
    if tl[t, TFC.FLOOD] != 0:
        return ACTION.SWIM
    if tl[t, TFC.TYPE] == TILE.SQUEEZE:
        return ACTION.SQUEEZE
    return ACTION.MOVE


@njit(refcount=False)
def can_step_nb(tl, nb, cv, c, d, action):
    """May caver ``c`` take ``action`` (MOVE, SWIM or SQUEEZE) through side ``d``?"""
    t0 = cv[c, CFC.TILE]
    t = nb[t0, d]
    if t < 0 or not can_leave_nb(tl, cv, c, d):
        return False
    return entry_action_nb(tl, t) == action


# --- horrors --------------------------------------------------------------------------
# Horrors move through connected sides and nothing else stops them (ST-187, ST-170/171):
# their searches block no tile.
NO_BLOCKS = np.zeros(0, np.bool_)


@njit(refcount=False)
def closest_victim_nb(tl, nb, cv, gs, scratch, src):
    """The closest victim of a horror on tile ``src``: ``(caver, steps)`` or ``(-1, -1)``.

    BFS through connected sides only (ST-187); victims are conscious, not hidden, not on
    the exit (ST-191..193); ties go to the lowest rank (ST-189); beyond 7 steps is none.
    Writes ``scratch[DIST]``, ``scratch[PARENT]``, ``scratch[QUEUE]``.
    """
    dist = scratch[SCR.DIST]
    bfs_fill_nb(nb, gs[GFC.N_TILES], src, NO_BLOCKS, HORROR_RANGE, dist, scratch[SCR.PARENT],
                scratch[SCR.QUEUE])
    best = -1
    best_d = 1000
    best_rank = 1000
    for c in range(gs[GFC.N_CAVERS]):
        if not is_victim_nb(cv, gs, c):
            continue
        dc = dist[cv[c, CFC.TILE]]
        if dc < 0:
            continue
        if dc < best_d or (dc == best_d and cv[c, CFC.RANK] < best_rank):
            best = c
            best_d = dc
            best_rank = cv[c, CFC.RANK]
    if best < 0:
        return -1, -1
    return best, best_d


@njit(refcount=False)
def remove_horror_nb(tl, hz, gs, h):
    """Return horror ``h`` to the supply (ST-186)."""
    tl[hz[h], TFC.HORRORS] -= 1
    hz[h] = -1
    gs[GFC.N_HORRORS] -= 1


@njit(refcount=False)
def move_horror_nb(tl, nb, cv, hz, gs, scratch, h, bot_id, bp):
    """One step of horror ``h`` towards its closest victim, or its removal (ST-199..202).

    The victim picks among equally short first steps (a bot decision).
    Writes ``tl``, ``cv``, ``hz``, ``gs``, ``scratch``.
    """
    src = hz[h]
    v, dv = closest_victim_nb(tl, nb, cv, gs, scratch, src)
    if v < 0:
        remove_horror_nb(tl, hz, gs, h)
        return
    if dv == 0:
        return
    # distances from the victim, to find every first step on a shortest path
    dist = scratch[SCR.DIST2]
    bfs_fill_nb(nb, gs[GFC.N_TILES], cv[v, CFC.TILE], NO_BLOCKS, dv, dist, scratch[SCR.PARENT2],
                scratch[SCR.QUEUE])
    step = bots.horror_step_choice_nb(tl, nb, cv, gs, dist, src, dv, v, bot_id, bp)
    tl[src, TFC.HORRORS] -= 1
    tl[step, TFC.HORRORS] += 1
    hz[h] = step
    horror_strikes_tile_nb(tl, cv, gs, step)


@njit(refcount=False)
def move_all_horrors_nb(tl, nb, cv, hz, gs, scratch, bot_id, bp):
    """Every horror in the cave takes one step, one at a time (ST-199, ST-203).

    The order: the starting caver's choice (``gs[HORROR_ORDER]`` 1, a bot decision, see
    ``bots.horror_order_nb``) or the horrors' slot order (0).
    """
    if gs[GFC.HORROR_ORDER] == 0 or gs[GFC.N_HORRORS] < 2:
        for h in range(MAX_HORRORS):
            if hz[h] >= 0:
                move_horror_nb(tl, nb, cv, hz, gs, scratch, h, bot_id, bp)
        return
    # the order is chosen before any horror moves; the slot code packs it in base 4
    code = horror_order_code_nb(tl, nb, cv, hz, gs, scratch, bot_id, bp)
    for k in range(MAX_HORRORS):
        h = (code >> (2 * k)) & 3
        if h < MAX_HORRORS and hz[h] >= 0:
            move_horror_nb(tl, nb, cv, hz, gs, scratch, h, bot_id, bp)


@njit(refcount=False)
def horror_order_code_nb(tl, nb, cv, hz, gs, scratch, bot_id, bp):
    """The starting caver's order of the horror moves, packed 2 bits a slot (3 = none).

    Each horror's steps to its closest victim go to ``bots.horror_order_nb`` (in the
    first cells of the ``PATH`` scratch row, which only spawning and the bots' searches of
    an earlier round use). Writes ``scratch``.
    """
    steps = scratch[SCR.PATH]
    for h in range(MAX_HORRORS):
        steps[h] = -1
        if hz[h] >= 0:
            v, dv = closest_victim_nb(tl, nb, cv, gs, scratch, hz[h])
            steps[h] = dv if v >= 0 else 99
    return bots.horror_order_nb(steps, bot_id, bp)


@njit(refcount=False)
def spawn_horror_nb(tl, nb, cv, hz, gs, scratch, bot_id, bp):
    """Spawn a horror per the Spawning procedure (ST-194..198); returns its tile or -1.

    One multi-source BFS from every eligible victim gives each horror tile its distance
    to its own closest victim; the nearest free horror tile within 7 steps gets the horror.
    """
    if gs[GFC.N_HORRORS] >= MAX_HORRORS:
        return -1
    n = gs[GFC.N_TILES]
    srcs = scratch[SCR.PATH]
    ns = 0
    for c in range(gs[GFC.N_CAVERS]):
        if is_victim_nb(cv, gs, c):
            srcs[ns] = cv[c, CFC.TILE]
            ns += 1
    if ns == 0:
        return -1
    dist = scratch[SCR.DIST2]
    bfs_multi_nb(nb, n, srcs, ns, HORROR_RANGE, dist, scratch[SCR.QUEUE])
    t = bots.spawn_choice_nb(tl, cv, gs, dist, bot_id, bp)
    if t < 0:
        return -1
    for h in range(MAX_HORRORS):
        if hz[h] < 0:
            hz[h] = t
            break
    tl[t, TFC.HORRORS] += 1
    gs[GFC.N_HORRORS] += 1
    gs[GFC.HORRORS_SPAWNED] += 1
    if gs[GFC.N_HORRORS] > gs[GFC.MAX_HORRORS_SEEN]:
        gs[GFC.MAX_HORRORS_SEEN] = gs[GFC.N_HORRORS]
    horror_strikes_tile_nb(tl, cv, gs, t)
    return t


# --- hazards ----------------------------------------------------------------------------
@njit(refcount=False)
def hazard_tremor_nb(tl, cv, gs, damage, rng):
    """Tremor: every conscious caver makes a skill check; a failure loses ``damage``."""
    for c in range(gs[GFC.N_CAVERS]):
        if cv[c, CFC.REMOVED] == 0 and cv[c, CFC.HP] > 0:
            if not skill_check_nb(rng):
                damage_nb(tl, cv, gs, c, damage, CAUSE_TREMOR)


@njit(refcount=False)
def hazard_flood_nb(tl, cv, gs, damage):
    """Flood: flood every water tile, then cavers on flooded tiles lose ``damage``."""
    for t in range(gs[GFC.N_TILES]):
        if tl[t, TFC.TYPE] == TILE.WATER and tl[t, TFC.FLOOD] == 0:
            tl[t, TFC.FLOOD] = 1
            gs[GFC.N_FLOODED] += 1
    for c in range(gs[GFC.N_CAVERS]):
        if cv[c, CFC.REMOVED] == 0 and tl[cv[c, CFC.TILE], TFC.FLOOD] != 0:
            damage_nb(tl, cv, gs, c, damage, CAUSE_FLOOD)


@njit(refcount=False)
def hazard_gas_nb(tl, cv, gs, damage, entry_damage):
    """Gas: cavers on gas tiles lose ``damage``, then entry costs ``entry_damage``.

    Entering a gas tile costs ``entry_damage`` until the next hazard phase (ST-124..126).
    """
    for c in range(gs[GFC.N_CAVERS]):
        if cv[c, CFC.REMOVED] == 0 and tl[cv[c, CFC.TILE], TFC.TYPE] == TILE.GAS:
            damage_nb(tl, cv, gs, c, damage, CAUSE_GAS)
    gs[GFC.GAS_ACTIVE] = entry_damage


@njit(refcount=False)
def hazard_cave_in_nb(tl, cv, gs, roll, damage):
    """Cave-in for one die ``roll``: bury matching unburied cave-in tiles.

    Cavers on the newly buried tiles lose ``damage`` (ST-128..130).
    """
    bit = 1 << roll
    for t in range(gs[GFC.N_TILES]):
        if tl[t, TFC.TYPE] == TILE.CAVE_IN and tl[t, TFC.RUBBLE] == 0 and tl[t, TFC.FACES] & bit:
            tl[t, TFC.RUBBLE] = 1
            gs[GFC.N_RUBBLE] += 1
            for c in range(gs[GFC.N_CAVERS]):
                if cv[c, CFC.REMOVED] == 0 and cv[c, CFC.TILE] == t:
                    damage_nb(tl, cv, gs, c, damage, CAUSE_CAVE_IN)


@njit(refcount=False)
def out_of_time_nb(tl, cv, gs, rule, rng):
    """Out of Time (ST-139..141).

    ``rule`` 0: as the card says (conscious cavers off the exit roll, failures lose all
    health, then all unconscious cavers are removed); 1: as the rule text says (every
    caver off the exit rolls, failures are removed).
    """
    ex = gs[GFC.EXIT_TILE]
    for c in range(gs[GFC.N_CAVERS]):
        if cv[c, CFC.REMOVED] != 0 or cv[c, CFC.TILE] == ex:
            continue
        if rule == 0:
            if cv[c, CFC.HP] > 0 and not skill_check_nb(rng):
                damage_nb(tl, cv, gs, c, cv[c, CFC.HP], CAUSE_OUT_OF_TIME)
        else:
            if not skill_check_nb(rng):
                cv[c, CFC.REMOVED] = 1
                cv[c, CFC.LEAVE] = gs[GFC.ROUND]
                gs[GFC.OOT_REMOVED] += 1
    if rule == 0:
        for c in range(gs[GFC.N_CAVERS]):
            if cv[c, CFC.REMOVED] == 0 and cv[c, CFC.HP] == 0 and cv[c, CFC.TILE] != ex:
                cv[c, CFC.REMOVED] = 1
                cv[c, CFC.LEAVE] = gs[GFC.ROUND]
                gs[GFC.OOT_REMOVED] += 1


@njit(refcount=False)
def resolve_card_nb(tl, nb, cv, hz, gs, scratch, params, card, bot_id, bp, rng):
    """Resolve hazard card ``card`` (an id into ``params`` cards) with its effect row."""
    cards = params.cards
    effects = params.effects
    kind = cards[card, 0]
    sev = cards[card, 1]
    if sev:
        gs[GFC.SEVERE_DRAWN] += 1
    e = effects[sev]
    if kind == HAZARD.TREMOR:
        hazard_tremor_nb(tl, cv, gs, e[EFC.TREMOR_DAMAGE], rng)
    elif kind == HAZARD.FLOOD:
        hazard_flood_nb(tl, cv, gs, e[EFC.FLOOD_DAMAGE])
    elif kind == HAZARD.GAS:
        hazard_gas_nb(tl, cv, gs, e[EFC.GAS_DAMAGE], e[EFC.GAS_ENTRY_DAMAGE])
    elif kind == HAZARD.CAVE_IN:
        for _ in range(e[EFC.CAVE_IN_ROLLS]):
            roll = randint_nb(6, rng) + 1
            hazard_cave_in_nb(tl, cv, gs, roll, e[EFC.CAVE_IN_DAMAGE])
    else:
        for _ in range(e[EFC.HORROR_STEPS]):
            move_all_horrors_nb(tl, nb, cv, hz, gs, scratch, bot_id, bp)
        for _ in range(e[EFC.HORROR_SPAWNS]):
            spawn_horror_nb(tl, nb, cv, hz, gs, scratch, bot_id, bp)


@njit(refcount=False)
def hazard_phase_nb(tl, nb, cv, hz, gs, deck, scratch, params, bot_id, bp, rng):
    """Turn over the top hazard card and resolve it; Out of Time once the deck is spent."""
    gs[GFC.GAS_ACTIVE] = 0  # the gas of the previous card lasts until this phase
    if gs[GFC.DECK_POS] < gs[GFC.DECK_N]:
        card = deck[gs[GFC.DECK_POS]]
        gs[GFC.DECK_POS] += 1
        resolve_card_nb(tl, nb, cv, hz, gs, scratch, params, card, bot_id, bp, rng)
    else:
        gs[GFC.OUT_OF_TIME] = 1
        out_of_time_nb(tl, cv, gs, params.cfg[CFG.OOT_RULE], rng)


# --- actions ----------------------------------------------------------------------------
@njit(refcount=False)
def do_action_nb(tl, nb, grid, cv, hz, gs, stack, scratch, params, c, action, arg, bot_id,
                 bp, rng):
    """Carry out ``action`` for caver ``c``; return True when it was carried out.

    ``arg`` is a side, a caver or a tile (see ``bots.decide_nb``). The bot has checked the
    action points; an illegal request returns False. A failed skill check still counts.
    """
    t = cv[c, CFC.TILE]
    if action == ACTION.MOVE or action == ACTION.SWIM or action == ACTION.SQUEEZE:
        if not can_step_nb(tl, nb, cv, c, arg, action):
            return False
        step_nb(tl, nb, cv, gs, c, arg, rng)
        return True
    if action == ACTION.REVEAL or action == ACTION.EXPLORE:
        if not can_leave_nb(tl, cv, c, arg):
            return False
        if grid[neighbour_cell_nb(tl, t, arg)] >= 0:
            return False
        nt = reveal_nb(tl, nb, grid, cv, hz, gs, stack, scratch, params, c, arg, bot_id, bp,
                       rng)
        if nt < 0:
            return False
        if action == ACTION.EXPLORE:
            # the move part always happens, squeeze included (ST-093); the link exists
            # because the new tile opens towards the revealer
            enter_tile_nb(tl, cv, gs, c, nt, opp_nb(arg), rng)
        return True
    if action == ACTION.RUN:
        # arg: up to three sides packed 3 bits each (side + 1; 0 ends the run)
        moved = False
        for k in range(3):
            d = ((arg >> (3 * k)) & 7) - 1
            if d < 0 or cv[c, CFC.HP] <= 0:
                break
            if not can_step_nb(tl, nb, cv, c, d, ACTION.MOVE):
                break
            step_nb(tl, nb, cv, gs, c, d, rng)
            moved = True
        return moved
    if action == ACTION.HEAL:
        target = arg
        if cv[target, CFC.TILE] != t or cv[target, CFC.REMOVED] != 0:
            return False
        amount = 1
        if cv[c, CFC.ABILITY] == ABILITY.EXTRA_HEAL:
            amount = cv[c, CFC.AB_VALUE]
        hp = cv[target, CFC.HP] + amount
        if hp > cv[target, CFC.MAXHP]:
            hp = cv[target, CFC.MAXHP]
        cv[target, CFC.HP] = hp
        gs[GFC.HEALS] += 1
        return True
    if action == ACTION.DIG:
        target = arg
        if target != t:
            d = -1
            for s in range(4):
                if nb[t, s] == target:
                    d = s
            if d < 0:
                return False
        if tl[target, TFC.RUBBLE] == 0:
            return False
        tl[target, TFC.RUBBLE] = 0
        gs[GFC.N_RUBBLE] -= 1
        gs[GFC.DIGS] += 1
        return True
    if action == ACTION.ROPE:
        ty = tl[t, TFC.TYPE]
        if (ty != TILE.LEDGE and ty != TILE.SLIDE) or tl[t, TFC.ROPE] != 0:
            return False
        if gs[GFC.ROPES_LEFT] <= 0:
            return False
        if skill_check_nb(rng):
            tl[t, TFC.ROPE] = 1
            gs[GFC.ROPES_LEFT] -= 1
            gs[GFC.ROPES_PLACED] += 1
        return True
    if action == ACTION.HIDE:
        gs[GFC.HIDES] += 1
        if skill_check_nb(rng):
            cv[c, CFC.HIDDEN] = 1
        return True
    if action == ACTION.EXPLOSIVES:
        if cv[c, CFC.ABILITY] != ABILITY.EXPLOSIVES or gs[GFC.EXPLOSIVES_LEFT] <= 0:
            return False
        # ST-178/179: blast the shared side of two tiles not yet connected (a wall on
        # either side), or a wall of this tile facing an empty cell
        d = arg
        u = grid[neighbour_cell_nb(tl, t, d)]
        own_open = (tl[t, TFC.OPEN] >> d) & 1
        if nb[t, d] >= 0 or (u < 0 and own_open):
            return False
        tl[t, TFC.BLAST] |= 1 << d
        tl[t, TFC.OPEN] |= 1 << d
        gs[GFC.EXPLOSIVES_LEFT] -= 1
        gs[GFC.EXPLOSIVES_USED] += 1
        if u < 0:
            gs[GFC.FRONTIER] += 1  # a new open side facing an empty cell
        else:
            # neither side faced an empty cell, so the frontier count is unchanged
            od = opp_nb(d)
            tl[u, TFC.BLAST] |= 1 << od
            tl[u, TFC.OPEN] |= 1 << od
            nb[t, d] = u
            nb[u, od] = t
        return True
    return False


@njit(refcount=False)
def game_over_nb(cv, gs):
    """True when no conscious caver is left in the cave off the exit (ST-052..054)."""
    ex = gs[GFC.EXIT_TILE]
    for c in range(gs[GFC.N_CAVERS]):
        if cv[c, CFC.REMOVED] == 0 and cv[c, CFC.HP] > 0 and cv[c, CFC.TILE] != ex:
            return False
    return True


# --- the turn, one decision at a time ------------------------------------------------------
MAX_DECISIONS = 12  # decisions asked for in one turn at most (a guard; no turn needs so many)


@njit(refcount=False)
def begin_turn_nb(gs):
    """Start a turn: 2 action points, no exert yet (ST-072). Writes ``gs`` (turn slots)."""
    gs[GFC.TURN_AP] = 2
    gs[GFC.TURN_EXERTED] = 0
    gs[GFC.TURN_ITER] = 0


@njit(refcount=False)
def turn_goes_on_nb(cv, gs, c):
    """May caver ``c`` be asked for another action this turn?

    Not once knocked out (a caver knocked out mid-turn passes at once, ST-067), not once
    the game is over, and not past ``MAX_DECISIONS``.
    """
    if cv[c, CFC.HP] <= 0 or gs[GFC.OVER] != 0:
        return False
    return gs[GFC.TURN_ITER] < MAX_DECISIONS


@njit(refcount=False)
def act_nb(tl, nb, grid, cv, hz, gs, stack, scratch, params, c, action, arg, want_exert,
           bot_id, bp, rng):
    """Carry out one decision of caver ``c``'s turn; return True while the turn goes on.

    ``(action, arg, want_exert)`` is what the bot decided (``bots.decide_nb``). An action
    costing more than the points left takes the exert point if the bot wants it, once a
    turn, combined with a normal point for a 2-point action (ST-078..080). Writes every
    state array (``gs``: the turn slots, the tallies, the game-over flag) and ``rng``.
    """
    gs[GFC.TURN_ITER] += 1
    if action == ACTION.END:
        return False
    ap = gs[GFC.TURN_AP]
    exerted = gs[GFC.TURN_EXERTED] != 0
    cost = action_cost_nb(cv, c, action)
    if cost > ap:
        if exerted or not want_exert or cost > ap + 1:
            return False
        exerted = True
        ap += 1
        gs[GFC.TURN_EXERTED] = 1
        gs[GFC.TURN_AP] = ap
        gs[GFC.EXERTIONS] += 1
    done = do_action_nb(tl, nb, grid, cv, hz, gs, stack, scratch, params, c, action, arg,
                        bot_id, bp, rng)
    if not done:
        return False  # a bot asking for an illegal action ends its turn rather than loop
    gs[GFC.ACTIONS + action] += 1
    ap -= cost
    gs[GFC.TURN_AP] = ap
    if gs[GFC.CHECK] != 0:
        check_invariants_nb(tl, cv, hz, gs)
    if game_over_nb(cv, gs):
        gs[GFC.OVER] = 1
    if ap <= 0 and exerted:
        return False
    return True


@njit(refcount=False)
def end_turn_nb(tl, cv, gs, c, rng):
    """End caver ``c``'s turn: an exerted caver makes the check, failing loses 1 (ST-081)."""
    if gs[GFC.TURN_EXERTED] != 0 and cv[c, CFC.HP] > 0:
        if not skill_check_nb(rng):
            damage_nb(tl, cv, gs, c, 1, CAUSE_EXERT)
    if game_over_nb(cv, gs):
        gs[GFC.OVER] = 1


@njit(refcount=False)
def take_turn_nb(tl, nb, grid, cv, hz, gs, stack, scratch, params, c, bot_id, bp, rng):
    """Caver ``c``'s whole turn: 2 action points, an optional exert for a third (ST-072..081).

    The bot picks each action after seeing the last (ST-074); a caver knocked out
    mid-turn passes at once (ST-067); an exerted caver makes the end-of-turn check.
    The same steps as the turns of :func:`play_rounds_nb`. Writes every state array.
    """
    if cv[c, CFC.REMOVED] != 0 or cv[c, CFC.HP] <= 0:
        return
    begin_turn_nb(gs)
    while turn_goes_on_nb(cv, gs, c):
        action, arg, want_exert = bots.decide_nb(tl, nb, grid, cv, hz, gs, scratch, params,
                                                 c, gs[GFC.TURN_AP],
                                                 gs[GFC.TURN_EXERTED] != 0, bot_id, bp)
        if not act_nb(tl, nb, grid, cv, hz, gs, stack, scratch, params, c, action, arg,
                      want_exert, bot_id, bp, rng):
            break
    end_turn_nb(tl, cv, gs, c, rng)


# --- setup and the whole game -------------------------------------------------------------
@njit
def setup_nb(tl, nb, grid, cv, hz, gs, stack, deck, params, rng):
    """Lay the start tile, seat the cavers, build the tile stack and the hazard deck."""
    cfg = params.cfg
    stack_base = params.stack_base
    pool = params.pool
    boards = params.boards
    team = params.team
    n_cav = cfg[CFG.CAVERS]
    for i in range(gs.shape[0]):
        gs[i] = 0
    gs[GFC.CHECK] = cfg[CFG.CHECK]
    gs[GFC.N_CAVERS] = n_cav
    gs[GFC.EXIT_TILE] = -1
    gs[GFC.EXIT_ROUND] = -1
    gs[GFC.EXPLOSIVES_LEFT] = cfg[CFG.EXPLOSIVES]
    gs[GFC.ROPES_LEFT] = cfg[CFG.ROPES]
    gs[GFC.HORROR_ORDER] = cfg[CFG.HORROR_ORDER]
    for h in range(MAX_HORRORS):
        hz[h] = -1
    # the cave: the start tile in the centre
    start = place_tile_nb(tl, nb, grid, gs, CENTER, CENTER, TILE.START, cfg[CFG.START_SHAPE],
                          0, -1)
    # cavers (ST-015, ST-018); a random team draws distinct boards
    order = np.arange(boards.shape[0])
    if team[0] < 0:
        shuffle_nb(order, boards.shape[0], rng)
    for c in range(MAX_CAVERS):
        for j in range(CFC.N):
            cv[c, j] = 0
        cv[c, CFC.REMOVED] = 1
        cv[c, CFC.LEAVE] = -2
    for c in range(n_cav):
        b = team[c] if team[0] >= 0 else order[c]
        cv[c, CFC.BOARD] = b
        cv[c, CFC.RANK] = boards[b, 0]
        cv[c, CFC.HP] = boards[b, 1]
        cv[c, CFC.MAXHP] = boards[b, 1]
        cv[c, CFC.ABILITY] = boards[b, 2]
        cv[c, CFC.AB_COST] = boards[b, 3]
        cv[c, CFC.AB_VALUE] = boards[b, 4]
        cv[c, CFC.TILE] = start
        cv[c, CFC.SIDE] = -1
        cv[c, CFC.REMOVED] = 0
        cv[c, CFC.LEAVE] = -1
    # the tile stack: shuffle the cave tiles, then the exit into the bottom positions
    n_st = stack_base.shape[0]
    perm = np.arange(n_st)
    shuffle_nb(perm, n_st, rng)
    depth = cfg[CFG.EXIT_DEPTH]
    exit_pos = n_st + 1 - depth + randint_nb(depth, rng)
    k = 0
    for pos in range(n_st + 1):
        if pos == exit_pos:
            stack[pos, 0] = TILE.EXIT
            stack[pos, 1] = cfg[CFG.EXIT_SHAPE]
            stack[pos, 2] = 0
        else:
            src = perm[k]
            k += 1
            stack[pos, 0] = stack_base[src, 0]
            stack[pos, 1] = stack_base[src, 1]
            stack[pos, 2] = stack_base[src, 2]
    gs[GFC.STACK_N] = n_st + 1
    # the hazard deck: a random hand of the pool; Out of Time is implied beneath it
    m = pool.shape[0]
    cards = np.empty(m, np.int32)
    for i in range(m):
        cards[i] = pool[i]
    shuffle_nb(cards, m, rng)
    n_deck = cfg[CFG.DECK]
    for i in range(n_deck):
        deck[i] = cards[i]
    gs[GFC.DECK_N] = n_deck
    # the first starting caver (ST-043/044)
    if cfg[CFG.START_SEAT] >= 0:
        gs[GFC.START] = cfg[CFG.START_SEAT] % n_cav
    else:
        gs[GFC.START] = randint_nb(n_cav, rng)
    return start


@njit(refcount=False)
def clear_grid_nb(tl, grid, gs):
    """Empty the grid cells used by the last game (cheaper than refilling the grid)."""
    for t in range(gs[GFC.N_TILES]):
        grid[cell_of_nb(tl[t, TFC.X], tl[t, TFC.Y])] = -1


@njit(refcount=False)
def next_seat_nb(cv, gs, seat):
    """The next seat clockwise still in the game (ST-143/144)."""
    n = gs[GFC.N_CAVERS]
    for k in range(1, n + 1):
        s = (seat + k) % n
        if cv[s, CFC.REMOVED] == 0:
            return s
    return seat


# Where a game stands (slot ``GFC.PHASE``): a game is a sequence of these steps, so it can
# stop before any caver's decision and go on later, or from a copy (``copy_state_nb``).
PH_ROUND = 0  # a new round begins (setup leaves a game here)
PH_TURN = 1  # the action phase: the turn of the ``TURN_K``-th caver from the marker begins
PH_ACT = 2  # mid-turn: the caver is about to decide its next action
PH_TURN_END = 3  # the turn is over: the exert check
PH_AFTER = 4  # the action phase is over: the horror, hazard and end phases


@njit(refcount=False)
def turn_caver_nb(gs):
    """The caver whose turn the action phase is at (from the marker clockwise, ST-071)."""
    return (gs[GFC.START] + gs[GFC.TURN_K]) % gs[GFC.N_CAVERS]


@njit(refcount=False)
def advance_nb(tl, nb, grid, cv, hz, gs, stack, deck, scratch, params, bot_id, bp, rng,
               stop):
    """Play on from where ``gs[PHASE]`` stands; return True at a caver's decision.

    With ``stop`` False the bot ``bot_id`` decides every action and the game is played to
    its end (returns False). With ``stop`` True it returns True whenever a caver is to
    decide an action (``turn_caver_nb``, with ``gs[TURN_AP]`` points left and
    ``gs[TURN_EXERTED]``): the caller decides and carries it out with :func:`decide_act_nb`,
    then calls again. Every other choice (rotations, horror steps) is ``bot_id``'s.
    Rounds follow ST-050 and ST-052..055. Writes every state array and ``rng``.
    """
    n_cav = gs[GFC.N_CAVERS]
    while True:
        ph = gs[GFC.PHASE]
        if ph == PH_ROUND:
            if gs[GFC.OVER] != 0 or gs[GFC.ROUND] >= MAX_ROUNDS:
                return False
            gs[GFC.ROUND] += 1
            gs[GFC.TURN_K] = 0
            gs[GFC.PHASE] = PH_TURN
        elif ph == PH_TURN:
            # 1. action phase, from the starting caver clockwise
            if gs[GFC.OVER] != 0:
                return False
            if gs[GFC.TURN_K] >= n_cav:
                gs[GFC.PHASE] = PH_AFTER
                continue
            c = turn_caver_nb(gs)
            if cv[c, CFC.REMOVED] != 0 or cv[c, CFC.HP] <= 0:
                gs[GFC.TURN_K] += 1
                continue
            begin_turn_nb(gs)
            gs[GFC.PHASE] = PH_ACT
        elif ph == PH_ACT:
            c = turn_caver_nb(gs)
            if not turn_goes_on_nb(cv, gs, c):
                gs[GFC.PHASE] = PH_TURN_END
                continue
            if stop:
                return True
            action, arg, want_exert = bots.decide_nb(tl, nb, grid, cv, hz, gs, scratch,
                                                     params, c, gs[GFC.TURN_AP],
                                                     gs[GFC.TURN_EXERTED] != 0, bot_id, bp)
            decide_act_nb(tl, nb, grid, cv, hz, gs, stack, scratch, params, action, arg,
                          want_exert, bot_id, bp, rng)
        elif ph == PH_TURN_END:
            end_turn_nb(tl, cv, gs, turn_caver_nb(gs), rng)
            gs[GFC.TURN_K] += 1
            gs[GFC.PHASE] = PH_TURN
        else:
            # 2. horror phase
            move_all_horrors_nb(tl, nb, cv, hz, gs, scratch, bot_id, bp)
            if game_over_nb(cv, gs):
                gs[GFC.OVER] = 1
                return False
            # 3. hazard phase
            hazard_phase_nb(tl, nb, cv, hz, gs, deck, scratch, params, bot_id, bp, rng)
            if gs[GFC.CHECK] != 0:
                check_invariants_nb(tl, cv, hz, gs)
            if game_over_nb(cv, gs):
                gs[GFC.OVER] = 1
                return False
            # 4. end phase: hiding lasts this round; the marker passes on
            for c in range(n_cav):
                cv[c, CFC.HIDDEN] = 0
            gs[GFC.START] = next_seat_nb(cv, gs, gs[GFC.START])
            gs[GFC.PHASE] = PH_ROUND


@njit(refcount=False)
def decide_act_nb(tl, nb, grid, cv, hz, gs, stack, scratch, params, action, arg, want_exert,
                  bot_id, bp, rng):
    """Carry out the decision of the caver :func:`advance_nb` stopped at (see ``act_nb``)."""
    c = turn_caver_nb(gs)
    if not act_nb(tl, nb, grid, cv, hz, gs, stack, scratch, params, c, action, arg,
                  want_exert, bot_id, bp, rng):
        gs[GFC.PHASE] = PH_TURN_END


@njit(refcount=False)
def play_rounds_nb(tl, nb, grid, cv, hz, gs, stack, deck, scratch, params, bot_id, bp, rng):
    """Play on until the game ends (ST-050, ST-052..055), bot ``bot_id`` deciding.

    From a new round after setup, or from wherever ``gs[PHASE]`` stands (a copy taken
    mid-turn goes on from that decision). Writes every state array.
    """
    advance_nb(tl, nb, grid, cv, hz, gs, stack, deck, scratch, params, bot_id, bp, rng, False)


@njit(refcount=False)
def copy_rows_nb(a, b):
    """Copy the 2-D array ``a`` into ``b`` (same shape, written) without allocating."""
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            b[i, j] = a[i, j]


@njit(refcount=False)
def copy_state_nb(tl, nb, grid, cv, hz, gs, stack, deck, scratch, tl2, nb2, grid2, cv2, hz2,
                  gs2, stack2, deck2, scratch2, with_grid):
    """Copy a game's state into the second set of arrays (written), to play on from it.

    Everything a game goes on from is copied: the cave, the pieces, the stack and the
    deck, where the turn stands, and the bots' kept searches and team plan in ``scratch``
    (so the copy's bots decide as the original's would). The generator state is the
    caller's to copy or to replace. ``with_grid`` False skips the grid (large): the caller
    keeps ``grid2`` equal to ``grid`` itself (e.g. by emptying the cells of the tiles a
    copy laid, see ``undo_grid_nb``).
    """
    copy_rows_nb(tl, tl2)
    copy_rows_nb(nb, nb2)
    copy_rows_nb(cv, cv2)
    copy_rows_nb(stack, stack2)
    copy_rows_nb(scratch, scratch2)
    for i in range(hz.shape[0]):
        hz2[i] = hz[i]
    for i in range(gs.shape[0]):
        gs2[i] = gs[i]
    for i in range(deck.shape[0]):
        deck2[i] = deck[i]
    if with_grid:
        for i in range(grid.shape[0]):
            grid2[i] = grid[i]


@njit(refcount=False)
def undo_grid_nb(tl, grid, gs, n0):
    """Empty the grid cells of the tiles laid after the first ``n0`` (``grid`` written)."""
    for t in range(n0, gs[GFC.N_TILES]):
        grid[cell_of_nb(tl[t, TFC.X], tl[t, TFC.Y])] = -1


# --- records --------------------------------------------------------------------------
OUTCOME_NAMES = ("gold", "silver", "bronze", "defeat")

record_dt = np.dtype(
    [
        ("game_index", np.int64),
        ("win", np.bool_),
        ("outcome", np.int8),
        ("rounds", np.int16),
        ("cavers", np.int8),
        ("escaped", np.int8),
        ("left_behind", np.int8),
        ("tiles_revealed", np.int16),
        ("exit_revealed_round", np.int16),
        ("hazard_cards", np.int16),
        ("out_of_time", np.bool_),
        ("dmg_tremor", np.int16),
        ("dmg_flood", np.int16),
        ("dmg_gas", np.int16),
        ("dmg_cave_in", np.int16),
        ("dmg_horror", np.int16),
        ("dmg_exert", np.int16),
        ("dmg_rough", np.int16),
        ("dmg_out_of_time", np.int16),
        ("knockouts", np.int16),
        ("horror_knockouts", np.int16),
        ("exertions", np.int16),
        ("out_of_time_deaths", np.int8),
        ("heals", np.int16),
        ("digs", np.int16),
        ("ropes_placed", np.int8),
        ("hides", np.int16),
        ("explosives_used", np.int8),
        ("horrors_spawned", np.int16),
        ("max_horrors", np.int8),
        ("severe_cards", np.int8),
        ("tiles_discarded", np.int8),
        ("invariant_violations", np.int32),
        ("leave_round", np.int16, (MAX_CAVERS,)),
        ("reveals", np.int16),
        ("explores", np.int16),
    ],
    align=True,
)


@njit(refcount=False)
def write_record_nb(tl, cv, gs, rec, game_index):
    """Fill one record from the final state. ``rec`` is a record of ``record_dt``."""
    n = gs[GFC.N_CAVERS]
    ex = gs[GFC.EXIT_TILE]
    escaped = 0
    for c in range(n):
        if cv[c, CFC.REMOVED] == 0 and cv[c, CFC.TILE] == ex:
            escaped += 1
            if cv[c, CFC.LEAVE] < 0:  # placed there without entering (hand-made states)
                cv[c, CFC.LEAVE] = gs[GFC.ROUND]
    left = n - escaped
    rec["game_index"] = game_index
    outcome = left if left < 3 else 3
    rec["outcome"] = outcome
    rec["win"] = outcome < 3
    rec["rounds"] = gs[GFC.ROUND]
    rec["cavers"] = n
    rec["escaped"] = escaped
    rec["left_behind"] = left
    rec["tiles_revealed"] = gs[GFC.N_TILES] - 1
    rec["exit_revealed_round"] = gs[GFC.EXIT_ROUND]
    rec["hazard_cards"] = gs[GFC.DECK_N]
    rec["out_of_time"] = gs[GFC.OUT_OF_TIME] != 0
    rec["dmg_tremor"] = gs[GFC.DMG_TREMOR]
    rec["dmg_flood"] = gs[GFC.DMG_FLOOD]
    rec["dmg_gas"] = gs[GFC.DMG_GAS]
    rec["dmg_cave_in"] = gs[GFC.DMG_CAVE_IN]
    rec["dmg_horror"] = gs[GFC.DMG_HORROR]
    rec["dmg_exert"] = gs[GFC.DMG_EXERT]
    rec["dmg_rough"] = gs[GFC.DMG_ROUGH]
    rec["dmg_out_of_time"] = gs[GFC.DMG_OUT_OF_TIME]
    rec["knockouts"] = gs[GFC.KNOCKOUTS]
    rec["horror_knockouts"] = gs[GFC.HORROR_KOS]
    rec["exertions"] = gs[GFC.EXERTIONS]
    rec["out_of_time_deaths"] = gs[GFC.OOT_REMOVED]
    rec["heals"] = gs[GFC.HEALS]
    rec["digs"] = gs[GFC.DIGS]
    rec["ropes_placed"] = gs[GFC.ROPES_PLACED]
    rec["hides"] = gs[GFC.HIDES]
    rec["explosives_used"] = gs[GFC.EXPLOSIVES_USED]
    rec["horrors_spawned"] = gs[GFC.HORRORS_SPAWNED]
    rec["max_horrors"] = gs[GFC.MAX_HORRORS_SEEN]
    rec["severe_cards"] = gs[GFC.SEVERE_DRAWN]
    rec["tiles_discarded"] = gs[GFC.DISCARDS]
    rec["invariant_violations"] = gs[GFC.VIOLATIONS]
    rec["reveals"] = gs[GFC.ACTIONS + ACTION.REVEAL]
    rec["explores"] = gs[GFC.ACTIONS + ACTION.EXPLORE]
    for c in range(MAX_CAVERS):
        if c < n:
            # escaped: the round they stepped onto the exit for good; removed by Out of
            # Time: the round of removal; left behind in the cave: -1
            rec["leave_round"][c] = cv[c, CFC.LEAVE] if (cv[c, CFC.REMOVED] != 0 or
                                                       cv[c, CFC.TILE] == ex) else -1
        else:
            rec["leave_round"][c] = -2


@njit(inline="always")  # one level less to link and emit again (a shorter cold compile)
def play_one_nb(tl, nb, grid, cv, hz, gs, stack, deck, scratch, params, bot_id, bp, seed,
                game_index, rec, rng):
    """Play game ``game_index`` of run ``seed`` on preallocated state; fill ``rec``.

    ``grid`` must be empty on entry (it is emptied again on exit).
    """
    seed_state_nb(seed, game_index, rng)
    bots.forget_nb(scratch)  # the scratch rows outlive a game: nothing carries over
    setup_nb(tl, nb, grid, cv, hz, gs, stack, deck, params, rng)
    play_rounds_nb(tl, nb, grid, cv, hz, gs, stack, deck, scratch, params, bot_id, bp, rng)
    write_record_nb(tl, cv, gs, rec, game_index)
    clear_grid_nb(tl, grid, gs)


@njit
def play_block_nb(params, bot_id, bp, seed, start, out):
    """Play games ``start .. start+len(out)-1`` into ``out`` (written), one after another.

    The state is allocated once for the block and reused, so no game allocates. Each game's
    stream depends on (seed, index) only. Blocks run on threads (``core.blocks``).
    """
    tl, nb, grid, cv, hz, gs, stack, deck, scratch = alloc_nb()
    rng = np.zeros(4, np.uint64)
    for i in range(out.shape[0]):
        play_one_nb(tl, nb, grid, cv, hz, gs, stack, deck, scratch, params, bot_id, bp, seed,
                    start + i, out[i], rng)
