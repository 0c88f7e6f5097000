"""Sub Terra bots: scripted cavers that share one turn planner, tuned by a parameter vector.

Every decision the rules leave to the players goes through here (ST-051): which action
next, the rotation of a revealed tile, the first step of a horror among equally short
ones (the victim picks, ST-202), a tie between spawn tiles (ST-198).

How a caver plays (``decide_nb``, asked again before every action):

- It reads public state only: the cave, the pieces, health, the tiles and hazard cards
  still unseen as counts (the difficulty's card pool and the printed tile mix; never the
  order of the stack or the deck).
- It prices ending the turn on each tile: the expected health lost at this round's hazard
  phase (gas, flood, a cave-in roll on that tile's faces, a horror spawn on a horror
  tile, horrors within reach of the horror phase and a Horror card), plus a knock-out
  penalty, plus "Out of Time" for every tile but the exit.
- It knows where it is going: the nearest frontier tile it can reveal from (while the
  exit is hidden), the exit (once revealed), or a knocked-out caver it is the nearest
  rescuer of. A weighted search (swims, squeezes, digs and rope crossings cost more)
  gives the steps from every tile to that goal.
- It plans the rest of its turn: reveal here, move/run to a tile within reach and reveal
  there, explore (priced over the unseen tile mix, with what it would do after landing),
  heal itself or someone on the tile, dig, swim, squeeze, rope, hide, blast a wall with
  the Engineer's explosives (for a way to the goal at least ``BLAST_GAIN`` steps shorter,
  or for a side to reveal through when the frontier is 4 or more steps away or nearly
  gone), or exert for a third point, and takes the first action of the best plan: tiles
  revealed, minus the price of the tile it ends on, minus the steps left to its goal.
- Exerting at 1 health risks a knock-out (a failed check); the bots still do it where the
  plan says it pays. ``exert_at_one_health = 0`` exerts at 1 health only to step onto the
  exit (where the check costs nothing) or once Out of Time is the next hazard; measured
  paired against the default (explorer, 5,000 games a preset, seed 2026) it wins no more
  (Normal -0.1, Advanced -0.1, Expert -0.6 points), so it is not the default.

The three bots are the same code with different parameters (``BOTS`` below):

- ``explorer``: values each revealed tile highly, explores (reveal + step) eagerly and
  exerts for extra reveals at full health; rescues cavers close by.
- ``cautious``: prices every hazard higher and explores less eagerly than the explorer
  (a larger share of its tiles is revealed without stepping in, though it still explores
  more often than it reveals: ``reveals`` and ``explores`` in the records), heals early,
  never exerts to explore, walks far to rescue, pulls the team together when the exit is
  due and hides from horrors it cannot outrun.
- ``racer``: explores like the explorer but, once the exit is revealed, everyone runs for
  it and nobody turns back for the fallen.

Parameters (index, name): see ``PARAM_NAMES``.
"""

from __future__ import annotations

import numpy as np

from simlib.core.jit import njit
from simlib.games.subterra.state import (
    ABILITY,
    ACTION,
    BASE_COST,
    CFC,
    CHEAPENS,
    DX,
    DY,
    EFC,
    GFC,
    GRID,
    HAZARD,
    MAX_HORRORS,
    SCR,
    TFC,
    TILE,
    bfs_sources_nb,
    can_leave_nb,
    cell_of_nb,
    needs_rope_nb,
    neighbour_cell_nb,
    side_to_nb,
)

P_TILE = 0
P_KO = 1
P_WORK = 2
P_EXITW = 3
P_HEAL_AT = 4
P_HEAL1 = 5
P_HEAL2 = 6
P_EXERT_HP = 7
P_EXERT_EXPLORE = 8
P_RESCUE = 9
P_RUSH = 10
P_RISK = 11
P_HIDE = 12
P_REGROUP = 13
P_XBIAS = 14
P_LATE = 15
P_RADIUS = 16
P_XMARGIN = 17
P_COHESION = 18
P_EXERT_LAST = 19
P_BLAST = 20
P_EXIT_MARGIN = 21
P_N = 22

PARAM_NAMES = ("tile_value", "ko_penalty", "work_weight", "exit_weight", "heal_at",
               "heal_low", "heal_mid", "exert_min_health", "exert_to_explore",
               "rescue_range", "rush_exit", "risk", "hide", "regroup", "explore_bias",
               "regroup_from", "exit_radius", "exert_margin", "cohesion",
               "exert_at_one_health", "explosives", "exit_margin")
PARAM_HELP = {
    "tile_value": "worth of revealing one tile, in health points",
    "ko_penalty": "cost of being knocked out on top of the health lost, in health points",
    "work_weight": "cost per step between the turn's end and the nearest frontier tile",
    "exit_weight": "cost per step from the exit (or a rescue) once the exit is revealed",
    "heal_at": "heal yourself only at or below this health",
    "heal_low": "worth of healing a caver from 1 health",
    "heal_mid": "worth of healing a caver from 2 or more health",
    "exert_min_health": "exert for an extra reveal only with at least this much health",
    "exert_to_explore": "1 = may exert for an extra reveal (safety and the exit always may)",
    "rescue_range": "steps a caver goes to heal a knocked-out caver (0 = only on its tile)",
    "rush_exit": "1 = once the exit is revealed everyone runs for it, no rescues",
    "risk": "multiplier on the expected cost of hazards (above 1 = more careful)",
    "hide": "1 = hide from a horror that cannot be outrun",
    "regroup": "pull towards the rally tile when the exit is due (per step away)",
    "explore_bias": "added to the worth of Explore over Reveal (negative = look first)",
    "regroup_from": "start regrouping this many tiles before the exit can be drawn",
    "exit_radius": "once the exit can be drawn, reveal only this many steps from the rally",
    "exert_margin": "extra cost of exerting during the exploration, in health points",
    "cohesion": "pull towards the exploring buddy (per grid step beyond two)",
    "exert_at_one_health": "1 = may exert at 1 health (a failed check knocks the caver out); "
                           "0 = only when Out of Time is the next hazard or has come",
    "explosives": "1 = the Engineer blasts walls for a shorter way or a new side to reveal",
    "exit_margin": "rounds of margin when timing the walk to the exit (urgency)",
}
PARAM_BOUNDS = {
    "tile_value": (0.0, 5.0), "ko_penalty": (0.0, 20.0), "work_weight": (0.0, 3.0),
    "exit_weight": (0.0, 5.0), "heal_at": (0, 5), "heal_low": (0.0, 10.0),
    "heal_mid": (0.0, 10.0), "exert_min_health": (1, 99), "exert_to_explore": (0, 1),
    "rescue_range": (0, 64), "rush_exit": (0, 1), "risk": (0.0, 5.0), "hide": (0, 1),
    "regroup": (0.0, 3.0), "explore_bias": (-3.0, 3.0), "regroup_from": (0, 64),
    "exit_radius": (0, 64), "exert_margin": (0.0, 5.0), "cohesion": (0.0, 3.0),
    "exert_at_one_health": (0, 1), "explosives": (0, 1), "exit_margin": (0.0, 10.0),
}

# name -> (id, defaults in PARAM_NAMES order, description)
BOTS = {
    "explorer": (0, (0.57, 4.8, 0.41, 0.8, 2.0, 2.75, 0.59, 2.0, 1.0, 8.0, 0.0, 1.0, 1.0,
                     0.19, 0.1, 12.0, 5.0, 0.0, 0.05,
                     1.0, 1.0, 1.0),
                 "explores eagerly, exerts for extra reveals, rescues nearby"),
    "cautious": (1, (0.68, 5.98, 0.57, 0.95, 2.0, 1.65, 0.94, 99.0, 0.0, 11.0, 0.0, 1.22,
                     1.0, 0.35, -0.13, 8.0, 5.0, 0.53, 0.04,
                     1.0, 1.0, 1.0),
                 "prices hazards higher and explores less eagerly than explorer (still "
                 "more explores than reveals); heals early, exerts rarely, rescues far, "
                 "regroups, hides"),
    "racer": (2, (0.51, 5.34, 0.48, 0.57, 1.0, 1.33, 0.78, 2.0, 1.0, 6.0, 1.0, 0.78, 1.0,
                  0.44, 0.06, 6.0, 2.0, 0.24, 0.01,
                     1.0, 1.0, 1.0),
              "explores until the exit shows, then everyone runs for it; no rescues"),
}

# Not a designer's bot (not in ``BOTS``): replays the steps listed in its parameter vector,
# so tests can drive the turn structure action by action (see ``script_decide_nb``).
SCRIPT_BOT = 99
SCRIPT_LOG = 8

BIG = 1.0e9
ROPE_STEPS = 5  # extra steps a rope crossing is worth when planning routes
HORROR_STEPS = 3  # extra steps for a route through a horror's tile (it will move)
EXIT_BONUS = 1.5  # worth of standing on the exit at the end of a turn
ROT_CONN = 1
SIDE_EMPTY = 0.0
SIDE_LINK = 1.0
MEMO = 71  # scratch column past every tile index: the team's remembered rally tile


@njit(refcount=False)
def rotation_score_nb(tl, grid, gs, x, y, mask, ty, frontier_after, bot_id, bp):
    """Score a rotation of a revealed tile (higher is better; ties: lowest rotation).

    Keep the frontier wide (more places to explore) and connect to neighbours already
    laid (shorter routes). A horror tile is best with few connections, so a horror
    spawned there has a long way round to anyone; its open sides face the unknown
    rather than walls, so it is no dead end to be cornered in.
    """
    connections = 0
    own = 0
    for d in range(4):
        if (mask >> d) & 1:
            u = grid[cell_of_nb(x + DX[d], y + DY[d])]
            if u >= 0:
                if (tl[u, TFC.OPEN] >> ((d + 2) & 3)) & 1:
                    connections += 1
            else:
                own += 1
    if ty == TILE.HORROR:
        return own - 3 * connections
    return frontier_after * 2 + connections * ROT_CONN


@njit(refcount=False)
def horror_step_choice_nb(tl, nb, cv, gs, dist_from_victim, src, dv, victim, bot_id, bp):
    """The victim picks the horror's first step among equally short ones (ST-202).

    It sends the horror where no other caver stands, then where the fewest cavers are
    next to it, then by the lowest side number. ``dist_from_victim`` is a BFS from the
    victim's tile.
    """
    best = -1
    best_score = 1000000
    for d in range(4):
        u = nb[src, d]
        if u < 0 or dist_from_victim[u] != dv - 1:
            continue
        score = 0
        for c in range(gs[GFC.N_CAVERS]):
            if c == victim or cv[c, CFC.REMOVED] != 0 or cv[c, CFC.HP] <= 0:
                continue
            tc = cv[c, CFC.TILE]
            if tc == u:
                score += 100
            else:
                for e in range(4):
                    if nb[u, e] == tc:
                        score += 1
        if score < best_score:
            best_score = score
            best = u
    return best


@njit(refcount=False)
def horror_order_nb(steps, bot_id, bp):
    """The starting caver's order of the horror moves (ST-203), packed 2 bits a turn.

    ``steps[h]`` is horror ``h``'s steps to its closest victim (-1: no horror in slot
    ``h``; 99: none within reach). Every bot moves the farthest horror first and the one
    about to strike last (ties: slot order), so that horrors behind it spend their step
    chasing a victim it may knock out rather than turning on the next caver. Unused turns
    hold 3.
    """
    code = 0
    used = 0
    for k in range(MAX_HORRORS):
        best = -1
        for h in range(MAX_HORRORS):
            if steps[h] < 0 or (used >> h) & 1:
                continue
            if best < 0 or steps[h] > steps[best]:
                best = h
        if best < 0:
            best = 3
        else:
            used |= 1 << best
        code |= best << (2 * k)
    return code


@njit(refcount=False)
def spawn_choice_nb(tl, cv, gs, dist_to_victim, bot_id, bp):
    """The spawn tile for a new horror.

    The free horror tile nearest its closest victim (ST-196/197); ties: lowest tile
    index (the players' choice, ST-198). ``dist_to_victim`` is depth-limited to 7.
    """
    best = -1
    best_d = 1000
    for t in range(gs[GFC.N_TILES]):
        if tl[t, TFC.TYPE] != TILE.HORROR or tl[t, TFC.HORRORS] != 0:
            continue
        d = dist_to_victim[t]
        if d >= 0 and d < best_d:
            best_d = d
            best = t
    return best


# --- small helpers -------------------------------------------------------------------
# --- prices -------------------------------------------------------------------------
@njit(refcount=False)
def hp_cost_nb(d, h, lv):
    """Cost of losing ``d`` health at health ``h``: the worth of the points lost.

    ``lv`` = worth of a caver's 1st (last standing: 1 + ko_penalty), 2nd (``heal_low``),
    3rd (``heal_mid``) and further (half that) health points.
    """
    v = 0.0
    lo = h - d + 1
    if lo < 1:
        lo = 1
    for lvl in range(lo, h + 1):
        if lvl == 1:
            v += lv[0]
        elif lvl == 2:
            v += lv[1]
        elif lvl == 3:
            v += lv[2]
        else:
            v += lv[3]
    return v


@njit(refcount=False)
def cave_in_cost_n_nb(c0, c1, r0, r1, nf):
    """Expected cost of a cave-in card on a tile with ``nf`` faces.

    Expected cost of a cave-in card on a tile with ``nf`` faces (plain cost ``c0``
    with ``r0`` rolls, severe ``c1`` with ``r1``).
    """
    miss = 1.0 - nf / 6.0
    m0 = 1.0
    for _ in range(int(r0)):
        m0 *= miss
    m1 = 1.0
    for _ in range(int(r1)):
        m1 *= miss
    return c0 * (1.0 - m0) + c1 * (1.0 - m1)


@njit(refcount=False)
def hazard_costs_nb(gs, params, hp, lv):
    """Expected cost of this round's hazard phase, by where a caver stands.

    Expected cost of this round's hazard phase for a caver with ``hp`` health, by
    where it stands. The card is unknown: its chances are the difficulty's card pool
    (public; which pool cards were dealt is not). Returns a tuple:
    (everywhere but the exit, gas tile, water tile, cave-in cost plain, cave-in cost
    severe, cave-in rolls plain, severe, horror tile, a horror next to it, two steps
    away, three steps away, chance of a Horror card, a two-faced cave-in tile).
    """
    pc = params[7]  # pool cards by hazard type x severe
    eff = params[4]
    m = params[2].shape[0]
    pt0 = pc[HAZARD.TREMOR, 0]
    pt1 = pc[HAZARD.TREMOR, 1]
    pf0 = pc[HAZARD.FLOOD, 0]
    pf1 = pc[HAZARD.FLOOD, 1]
    pg0 = pc[HAZARD.GAS, 0]
    pg1 = pc[HAZARD.GAS, 1]
    pc0 = pc[HAZARD.CAVE_IN, 0]
    pc1 = pc[HAZARD.CAVE_IN, 1]
    ph0 = pc[HAZARD.HORROR, 0]
    ph1 = pc[HAZARD.HORROR, 1]
    inv = 1.0 / m if m > 0 else 0.0
    kocost = hp_cost_nb(hp, hp, lv)
    if gs[GFC.DECK_POS] >= gs[GFC.DECK_N]:
        # Out of Time: a failed check knocks out and removes; nothing else happens
        return (0.5 * (kocost + lv[0]), 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0, kocost, 0.0,
                0.0, 0.0, 0.0)
    base = 0.5 * inv * (pt0 * hp_cost_nb(eff[0, EFC.TREMOR_DAMAGE], hp, lv)
                        + pt1 * hp_cost_nb(eff[1, EFC.TREMOR_DAMAGE], hp, lv))
    c_gas = inv * (pg0 * hp_cost_nb(eff[0, EFC.GAS_DAMAGE], hp, lv)
                   + pg1 * hp_cost_nb(eff[1, EFC.GAS_DAMAGE], hp, lv))
    c_water = inv * (pf0 * hp_cost_nb(eff[0, EFC.FLOOD_DAMAGE], hp, lv)
                     + pf1 * hp_cost_nb(eff[1, EFC.FLOOD_DAMAGE], hp, lv))
    c_cave0 = inv * pc0 * hp_cost_nb(eff[0, EFC.CAVE_IN_DAMAGE], hp, lv)
    c_cave1 = inv * pc1 * hp_cost_nb(eff[1, EFC.CAVE_IN_DAMAGE], hp, lv)
    ph = (ph0 + ph1) * inv
    s0 = eff[0, EFC.HORROR_STEPS]
    s1 = eff[1, EFC.HORROR_STEPS]
    p2 = inv * ((ph0 if s0 >= 1 else 0.0) + (ph1 if s1 >= 1 else 0.0))
    p3 = inv * ((ph0 if s0 >= 2 else 0.0) + (ph1 if s1 >= 2 else 0.0))
    r0 = float(eff[0, EFC.CAVE_IN_ROLLS])
    r1 = float(eff[1, EFC.CAVE_IN_ROLLS])
    return (base, c_gas, c_water, c_cave0, c_cave1, r0, r1, ph * kocost, kocost,
            p2 * kocost, p3 * kocost, ph, cave_in_cost_n_nb(c_cave0, c_cave1, r0, r1, 2))


@njit(refcount=False)
def tile_cost_nb(tl, u, nh, cc):
    """Expected cost of the hazard phase on tile ``u`` from where it is and what it is.

    ``cc`` from ``hazard_costs_nb``; ``nh`` horrors in the cave (a horror tile spawns
    only while a piece is left). Horrors nearby are priced apart (``horror_cost_nb``).
    """
    cost = cc[0]
    ty = tl[u, TFC.TYPE]
    if ty == TILE.GAS:
        cost += cc[1]
    elif ty == TILE.WATER:
        cost += cc[2]
    elif ty == TILE.CAVE_IN:
        if tl[u, TFC.RUBBLE] == 0:
            f = tl[u, TFC.FACES]
            nf = ((f >> 1) & 1) + ((f >> 2) & 1) + ((f >> 3) & 1) + ((f >> 4) & 1) + \
                ((f >> 5) & 1) + ((f >> 6) & 1)
            if nf == 2:
                cost += cc[12]
            else:
                cost += cave_in_cost_n_nb(cc[3], cc[4], cc[5], cc[6], nf)
    elif ty == TILE.HORROR:
        if nh < MAX_HORRORS:
            cost += cc[7]
    return cost


@njit(refcount=False)
def horror_cost_nb(hpk, cc):
    """Cost of ending a turn at packed horror distance ``hpk``.

    Cost of ending a turn at packed horror distance ``hpk`` (see ``horror_runway_nb``;
    -1 = no horror within reach): caught this round (one step, or two with a Horror
    card), chased next turn, and cornered (little room to back away from it).
    """
    if hpk < 0:
        return 0.0
    h = hpk & 15
    rw = hpk >> 4
    cost = 0.0
    if h <= 4:
        cost += 0.15 * (5 - h)  # it will chase: next turn goes on running
        if h <= 1:
            cost += cc[8]
        elif h == 2:
            cost += cc[9]
        elif h == 3:
            cost += cc[10]
    horizon = h + rw
    if horizon <= 6:
        cost += (1.0 - horizon / 7.0) * cc[8]
    return cost


@njit(refcount=False)
def horror_runway_nb(tl, nb, grid, hd, queue, tail):
    """Pack the room to back away from the nearest horror into ``hd``.

    Pack into ``hd`` (steps to the nearest horror, from a BFS listed in ``queue``) the
    room to back away from it: steps further from the horrors before a dead end, 3 when
    the way stays open (frontier to explore, or beyond the search). ``hd[u]`` becomes
    ``steps | room << 4``.
    """
    for i in range(tail - 1, -1, -1):
        u = queue[i]
        h = hd[u]
        r = 0
        if tl[u, TFC.OPEN] & tl[u, TFC.FREE]:
            r = 3
        else:
            for d in range(4):
                v = nb[u, d]
                if v < 0:
                    continue
                hv = hd[v]
                if hv < 0:
                    r = 3
                    break
                if (hv & 15) == h + 1:
                    rv = (hv >> 4) + 1
                    if rv > r:
                        r = rv if rv < 3 else 3
        hd[u] = h | (r << 4)


@njit(refcount=False)
def end_cost_nb(tl, nb, gs, hd, u, cc, with_horrors):
    """Expected cost of ending the turn on tile ``u`` (not the exit), before ``risk``.

    The hazard card (``cc`` from ``hazard_costs_nb``), a horror spawning on a horror tile
    or next door, horrors within reach (``hd`` = steps to the nearest, -1 = none near).
    """
    nh = gs[GFC.N_HORRORS]
    cost = tile_cost_nb(tl, u, nh, cc)
    if nh < MAX_HORRORS:
        for d in range(4):
            v = nb[u, d]
            if v >= 0 and tl[v, TFC.TYPE] == TILE.HORROR and tl[v, TFC.HORRORS] == 0:
                cost += 0.3 * cc[11]  # a spawn next door: a turn spent running
                break
    if with_horrors:
        cost += horror_cost_nb(hd[u], cc)
    return cost


@njit(refcount=False)
def crossing_mask_nb(tl, cv, c, u, here, m):
    """Sides of ``m`` an unroped ledge or slide lets the caver reveal through.

    Keep the sides of ``m`` an unroped ledge/slide ``u`` lets the caver reveal
    through: standing on it, those it may leave by; away from it, none for a ledge and
    the arrow side for a slide (the other end is where one comes in).
    """
    out = 0
    for d in range(4):
        if (m >> d) & 1 == 0:
            continue
        if here:
            if not can_leave_nb(tl, cv, c, d):
                continue
        elif tl[u, TFC.TYPE] == TILE.LEDGE or d != tl[u, TFC.ARROW]:
            continue
        out |= 1 << d
    return out


@njit(refcount=False)
def free_sides_nb(tl, nb, grid, cv, c, u, here):
    """How many Reveals could be made from tile ``u``.

    How many Reveals could be made from tile ``u`` (open sides facing an empty cell
    that the caver may reveal through, see ``crossing_mask_nb``).
    """
    m = tl[u, TFC.OPEN] & tl[u, TFC.FREE]
    if m == 0:
        return 0
    ty = tl[u, TFC.TYPE]
    if (ty == TILE.LEDGE or ty == TILE.SLIDE) and tl[u, TFC.ROPE] == 0:
        m = crossing_mask_nb(tl, cv, c, u, here, m)
    return (m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1) + ((m >> 3) & 1)


@njit(refcount=False)
def work_goals_nb(tl, nb, grid, cv, gs, c, t, phi, rd, pull, od, ox, oy, coh):
    """Mark the frontier tiles as goals in ``phi`` (starting steps; -1 = not a goal).

    A tile is a goal when a Reveal can be made from it. Goals cost a step more when the
    tile is a bad place to end a turn, more when other cavers already stand there to
    reveal or next to it (``od`` = steps to the nearest other caver), and ``pull`` per
    step from the rally tile (``rd``, -1 = none), ``coh`` per grid step beyond 2 from the
    buddy (ox, oy). Returns whether
    any goal exists.
    """
    n = gs[GFC.N_TILES]
    n_cav = gs[GFC.N_CAVERS]
    any_goal = False
    for u in range(n):
        m = tl[u, TFC.OPEN] & tl[u, TFC.FREE]  # open sides facing an empty cell
        if m == 0:
            phi[u] = -1
            continue
        ty = tl[u, TFC.TYPE]
        if (ty == TILE.LEDGE or ty == TILE.SLIDE) and tl[u, TFC.ROPE] == 0:
            m = crossing_mask_nb(tl, cv, c, u, u == t, m)
            if m == 0:
                phi[u] = -1
                continue
        s = (m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1) + ((m >> 3) & 1)
        x = tl[u, TFC.X]
        y = tl[u, TFC.Y]
        off = 0
        if ty == TILE.GAS or ty == TILE.WATER or ty == TILE.HORROR or \
                (ty == TILE.CAVE_IN and tl[u, TFC.RUBBLE] == 0):
            off += 1
        if u != t:
            others = 0
            for o in range(n_cav):
                if o != c and cv[o, CFC.TILE] == u and cv[o, CFC.REMOVED] == 0 and \
                        cv[o, CFC.HP] > 0:
                    others += 1
            if others > 0:
                off += 3 if s <= 2 * others else 1
            elif od[u] == 1:
                off += 1
        if pull > 0.0 and rd[u] > 0:
            off += int(pull * rd[u])
        if coh > 0.0:
            far = abs(x - ox) + abs(y - oy) - 2.0
            if far > 0.0:
                off += int(coh * far)
        phi[u] = off
        any_goal = True
    return any_goal


@njit(refcount=False)
def forget_nb(scratch):
    """Clear the kept searches and the team's rally plan.

    Clear the kept searches and the team's rally plan (column ``MEMO`` of the scratch
    rows) before a game: the rows are reused from game to game. Writes ``scratch``.
    """
    for r in range(scratch.shape[0]):
        scratch[r, MEMO] = -1
    for i in range(scratch.shape[1]):
        scratch[SCR.KEYS, i] = -1


KEY_HORROR = 0  # slots of the ``keys`` scratch row
KEY_RALLY = 1
KEY_EXIT = 2


@njit(refcount=False)
def mix_key_nb(k, v):
    """Fold ``v`` into key ``k`` (keys stay >= 0; -1 means nothing kept)."""
    return (np.int64(k) * 1000003 + np.int64(v) + 7) & 0x3FFFFFFF


@njit(refcount=False)
def cave_key_nb(gs):
    """Key of the cave as the searches see it.

    It changes when a round passes (horrors, floods and rubble change only between
    rounds) or a tile, dig, rope or blast changes the way.
    """
    k = np.int64(17)
    for v in (gs[GFC.ROUND], gs[GFC.N_TILES], gs[GFC.DIGS], gs[GFC.ROPES_PLACED],
              gs[GFC.EXPLOSIVES_USED]):
        k = mix_key_nb(k, v)
    return k


@njit(refcount=False)
def decision_key_nb(gs, c, extra):
    """Key (>= 0) of the searches kept for caver ``c``'s turn (see ``decide_nb``)."""
    k = np.int64(17)
    for v in (gs[GFC.ROUND], np.int64(c), gs[GFC.N_TILES], gs[GFC.DIGS],
              gs[GFC.ROPES_PLACED], gs[GFC.EXPLOSIVES_USED], gs[GFC.HEALS],
              np.int64(extra)):
        k = (k * 1000003 + v + 7) & 0x3FFFFFFF
    return k


@njit(refcount=False)
def rally_tile_nb(tl, nb, grid, cv, gs, dist, parent, queue, inq, acc, w_swim, w_sq,
                  w_dig):
    """The rally tile: the frontier tile nearest the whole team.

    The frontier tile the conscious cavers off the exit can reach in the fewest steps
    all told (-1 if none). Writes ``dist``, ``parent``, ``queue``, ``inq`` and ``acc``.
    """
    n = gs[GFC.N_TILES]
    n_cav = gs[GFC.N_CAVERS]
    ex = gs[GFC.EXIT_TILE]
    for u in range(n):
        acc[u] = 0
    k = 0
    for o in range(n_cav):
        if cv[o, CFC.REMOVED] != 0 or cv[o, CFC.HP] <= 0 or cv[o, CFC.TILE] == ex:
            continue
        k += 1
        for u in range(n):
            dist[u] = -1
        dist[cv[o, CFC.TILE]] = 0
        # steps back to the caver (the search runs towards a goal); close enough to choose
        # a meeting place
        goal_search_nb(tl, nb, n, dist, parent, queue, inq, w_swim, w_sq, w_dig)
        for u in range(n):
            acc[u] += dist[u] if dist[u] >= 0 else 200
    if k == 0:
        return -1
    best = -1
    best_s = 1 << 30
    for u in range(n):
        if acc[u] >= best_s:
            continue
        ty = tl[u, TFC.TYPE]
        if ty == TILE.LEDGE or ty == TILE.SLIDE or ty == TILE.HORROR or ty == TILE.GAS or \
                ty == TILE.WATER or (ty == TILE.CAVE_IN and tl[u, TFC.RUBBLE] == 0):
            continue
        if tl[u, TFC.OPEN] & tl[u, TFC.FREE]:
            best_s = acc[u]
            best = u
    return best


@njit(refcount=False)
def frontier_within_nb(tl, nb, grid, n, rd, radius):
    """Whether a revealable tile lies within ``radius`` steps of the rally.

    Is there a tile with an open side facing an empty cell within ``radius`` steps
    (``rd``) of the rally?
    """
    for u in range(n):
        if rd[u] < 0 or rd[u] > radius:
            continue
        if tl[u, TFC.OPEN] & tl[u, TFC.FREE]:
            return True
    return False


@njit(refcount=False)
def window_credit_nb(rd, radius):
    """How much a reveal counts once the exit can be drawn.

    How much a reveal counts, once the exit can be drawn, ``rd`` steps from the rally:
    fully within ``radius``, then less and less (the exit would be far from the team).
    """
    if rd < 0:
        return 0.1
    if rd <= radius:
        return 1.0
    f = 1.0 - 0.15 * (rd - radius)
    return f if f > 0.1 else 0.1


@njit(refcount=False)
def pick_side_nb(tl, grid, cv, c, t, cx, cy, pull):
    """The side of the caver's tile to reveal through.

    The side of the caver's tile to reveal through: the empty cell that would join the
    most tiles already laid (loops make shorter ways), pulled towards (cx, cy) by ``pull``
    per grid step.
    """
    best = -1
    best_s = -1.0e9
    op = tl[t, TFC.OPEN]
    ty = tl[t, TFC.TYPE]
    crossing = (ty == TILE.LEDGE or ty == TILE.SLIDE) and tl[t, TFC.ROPE] == 0
    x0 = tl[t, TFC.X]
    y0 = tl[t, TFC.Y]
    for d in range(4):
        if (op >> d) & 1 == 0:
            continue
        x = x0 + DX[d]
        y = y0 + DY[d]
        if grid[y * GRID + x] >= 0:
            continue
        if crossing and not can_leave_nb(tl, cv, c, d):
            continue
        s = 0.0
        for e in range(4):
            u = grid[(y + DY[e]) * GRID + x + DX[e]]
            if u < 0:
                s += SIDE_EMPTY
            elif u != t and (tl[u, TFC.OPEN] >> ((e + 2) & 3)) & 1:
                s += SIDE_LINK
        if pull > 0.0:
            s -= pull * (abs(x - cx) + abs(y - cy))
        if s > best_s:
            best_s = s
            best = d
    return best


@njit(refcount=False)
def move_ap_nb(d, mvc, rc):
    """Action points to walk ``d`` plain steps with Move (``mvc``) and Run (``rc``)."""
    q = d // 3
    r = d % 3
    cost = q * rc
    if r > 0:
        cost += min(r * mvc, rc)
    return cost


@njit(refcount=False)
def enter_weight_nb(tl, a, w_swim, w_sq, w_dig):
    """Steps it is worth to enter tile ``a`` (swims, squeezes and digs cost more)."""
    if tl[a, TFC.RUBBLE] != 0:
        return w_dig
    if tl[a, TFC.FLOOD] != 0:
        return w_swim
    if tl[a, TFC.TYPE] == TILE.SQUEEZE:
        return w_sq
    return 1


@njit(refcount=False)
def goal_search_nb(tl, nb, n, dist, parent, queue, inq, w_swim, w_sq, w_dig):
    """Steps from every tile to the nearest goal tile (label-correcting search).

    ``dist`` holds each goal's starting steps (>= 0) and -1 elsewhere on entry. Entering
    a flooded, squeeze or buried tile is worth more steps; crossing an unroped ledge, or
    a slide against its arrow, costs ROPE_STEPS more, a tile a horror stands on
    HORROR_STEPS more.
    Writes ``dist``, ``parent`` (next tile towards the goal), ``queue``, ``inq``.
    """
    qn = queue.shape[0]
    head = 0
    cnt = 0
    for i in range(n):
        parent[i] = -1
        inq[i] = 0
    for i in range(n):
        if dist[i] >= 0:
            queue[cnt] = i
            cnt += 1
            inq[i] = 1
    while cnt > 0:
        a = queue[head]
        head += 1
        if head >= qn:
            head = 0
        cnt -= 1
        inq[a] = 0
        pa = parent[a]
        ty = tl[a, TFC.TYPE]
        w = 1
        if tl[a, TFC.RUBBLE] != 0:
            w = w_dig
        elif tl[a, TFC.FLOOD] != 0:
            w = w_swim
        elif ty == TILE.SQUEEZE:
            w = w_sq
        if tl[a, TFC.HORRORS] > 0:
            w += HORROR_STEPS  # it will have moved on, but wait or go round
        if pa >= 0 and (ty == TILE.LEDGE or ty == TILE.SLIDE) and tl[a, TFC.ROPE] == 0:
            if ty == TILE.LEDGE:
                w += ROPE_STEPS
            else:
                dx = tl[pa, TFC.X] - tl[a, TFC.X]
                dy = tl[pa, TFC.Y] - tl[a, TFC.Y]
                sd = 0 if dy < 0 else (1 if dx > 0 else (2 if dy > 0 else 3))
                if sd != tl[a, TFC.ARROW]:
                    w += ROPE_STEPS
        nd = dist[a] + w
        for d in range(4):
            v = nb[a, d]
            if v < 0 or v == pa:
                continue
            if dist[v] < 0 or nd < dist[v]:
                dist[v] = nd
                parent[v] = a
                if inq[v] == 0:
                    inq[v] = 1
                    pos = head + cnt
                    if pos >= qn:
                        pos -= qn
                    queue[pos] = v
                    cnt += 1


@njit(refcount=False)
def reach_bfs_nb(tl, nb, cv, gs, c, n, maxd, dist, parent, queue):
    """Tiles caver ``c`` can reach by plain steps (Move/Run) this turn.

    Plain steps (Move/Run) from caver ``c``'s tile, up to ``maxd``; returns the number
    of tiles reached, listed in ``queue``. Honours ledge/slide crossings; never enters a
    horror's, flooded, squeeze or buried tile; stops on rough terrain and active gas.
    """
    src = cv[c, CFC.TILE]
    for i in range(n):
        dist[i] = -1
        parent[i] = -1
    dist[src] = 0
    queue[0] = src
    head = 0
    tail = 1
    gas_on = gs[GFC.GAS_ACTIVE] > 0
    while head < tail:
        u = queue[head]
        head += 1
        du = dist[u]
        if du >= maxd:
            continue
        ty = tl[u, TFC.TYPE]
        if u != src and (ty == TILE.ROUGH or (gas_on and ty == TILE.GAS)):
            continue
        crossing = (ty == TILE.LEDGE or ty == TILE.SLIDE) and tl[u, TFC.ROPE] == 0
        for d in range(4):
            v = nb[u, d]
            if v < 0 or dist[v] >= 0:
                continue
            if u == src:
                if crossing and not can_leave_nb(tl, cv, c, d):
                    continue
            elif crossing and not (ty == TILE.SLIDE and d == tl[u, TFC.ARROW]):
                continue
            if tl[v, TFC.HORRORS] > 0 or tl[v, TFC.RUBBLE] != 0 or tl[v, TFC.FLOOD] != 0 \
                    or tl[v, TFC.TYPE] == TILE.SQUEEZE:
                continue
            dist[v] = du + 1
            parent[v] = u
            queue[tail] = v
            tail += 1
    return tail


@njit(refcount=False)
def tile_facts_nb(tl, nb, grid, cv, gs, hd, c, t, queue, n_reach, cc, risk, hp, lv,
                  can_reveal, buf):
    """Prices and Reveals of each tile the caver can reach this turn.

    For each tile the caver can reach this turn (``queue[:n_reach]``) write the price
    of ending the turn there (``buf[0]``, with ``risk``), of stepping onto it (``buf[1]``:
    active gas, rough terrain's check) and the Reveals it offers (``buf[2]``).
    """
    nh = gs[GFC.N_HORRORS]
    gas_on = gs[GFC.GAS_ACTIVE]
    e_rough = risk * 0.5 * hp_cost_nb(1, hp, lv)
    e_gas = risk * hp_cost_nb(gas_on, hp, lv) if gas_on > 0 else 0.0
    for qi in range(n_reach):
        u = queue[qi]
        ty = tl[u, TFC.TYPE]
        ec = tile_cost_nb(tl, u, nh, cc)
        # ways out of u (to flee a horror next turn)
        outs = 0
        spawn_next = False
        for d in range(4):
            v = nb[u, d]
            if v < 0:
                continue
            if tl[v, TFC.HORRORS] == 0 and tl[v, TFC.RUBBLE] == 0:
                outs += 1
            if nh < MAX_HORRORS and tl[v, TFC.TYPE] == TILE.HORROR and \
                    tl[v, TFC.HORRORS] == 0:
                spawn_next = True
        s = 0
        if can_reveal:
            m = tl[u, TFC.OPEN] & tl[u, TFC.FREE]
            if m != 0:
                if (ty == TILE.LEDGE or ty == TILE.SLIDE) and tl[u, TFC.ROPE] == 0:
                    m = crossing_mask_nb(tl, cv, c, u, u == t, m)
                s = (m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1) + ((m >> 3) & 1)
        buf[2, qi] = s
        if (ty == TILE.LEDGE or ty == TILE.SLIDE) and tl[u, TFC.ROPE] == 0 and outs > 1:
            outs = 1
        trapped = outs + s <= 1
        if spawn_next:
            ec += 0.3 * cc[11]  # a spawn next door: a turn spent running
            if trapped:
                ec += 0.5 * cc[7]
        ec += horror_cost_nb(hd[u], cc)
        buf[0, qi] = risk * ec
        e = 0.0
        if u != t:
            if ty == TILE.ROUGH:
                e = e_rough
            elif ty == TILE.GAS:
                e = e_gas
        buf[1, qi] = e


@njit(refcount=False)
def goal_steps_at_nb(tl, nb, phi, php, u, entry, w_swim, w_sq, w_dig):
    """Steps to the goal from ``u`` for a caver standing on it.

    Steps to the goal from ``u`` for a caver standing on it having entered through
    side ``entry`` (-1 = free to leave any way): an unroped ledge or slide may force a
    rope. Elsewhere this is just ``phi[u]``.
    """
    ty = tl[u, TFC.TYPE]
    if not ((ty == TILE.LEDGE or ty == TILE.SLIDE) and tl[u, TFC.ROPE] == 0) or entry < 0:
        return phi[u]
    best = -1
    for d in range(4):
        v = nb[u, d]
        if v < 0 or phi[v] < 0:
            continue
        s = phi[v] + enter_weight_nb(tl, v, w_swim, w_sq, w_dig)
        if d != entry and not (ty == TILE.SLIDE and d == tl[u, TFC.ARROW]):
            s += ROPE_STEPS
        if best < 0 or s < best:
            best = s
    if phi[u] >= 0 and php[u] < 0 and (best < 0 or phi[u] < best):
        best = phi[u]  # a goal itself
    return best


@njit(refcount=False)
def tile_mix_nb(tl, gs, params, cc, hp, lv, risk, cnt):
    """Chances and prices of the unseen tile an Explore would land on.

    Chances and prices of the unseen tile an Explore would land on, from the tile mix
    still in the stack (the printed mix minus the tiles laid; ``cnt`` is scratch).
    Returns (p_safe, p_ledge, p_rough, p_water, p_gas, p_cave, p_horror, cost on water,
    gas, cave-in, horror tile, entry cost of rough terrain, of gas).
    """
    mix = params[8]
    for k in range(11):
        left = mix[k] - gs[GFC.LAID + k]
        cnt[k] = left if left > 0 else 0
    tot = 0.0
    for ty in range(2, 11):
        tot += cnt[ty]
    if tot <= 0.0:
        tot = 1.0
    e_h = cc[7] if gs[GFC.N_HORRORS] < MAX_HORRORS else 0.0
    en_gas = 0.0
    if gs[GFC.GAS_ACTIVE] > 0:
        en_gas = risk * hp_cost_nb(gs[GFC.GAS_ACTIVE], hp, lv)
    return ((cnt[TILE.PLAIN] + cnt[TILE.SQUEEZE] + cnt[TILE.SLIDE]) / tot,
            cnt[TILE.LEDGE] / tot, cnt[TILE.ROUGH] / tot, cnt[TILE.WATER] / tot,
            cnt[TILE.GAS] / tot, cnt[TILE.CAVE_IN] / tot, cnt[TILE.HORROR] / tot,
            risk * cc[2], risk * cc[1], risk * cc[12], risk * e_h,
            risk * 0.5 * hp_cost_nb(1, hp, lv), en_gas)


@njit(refcount=False)
def explore_ev_nb(xm, r1, vt, base, back, p_exit):
    """Expected worth of an Explore.

    Expected worth of an Explore: one tile, landing on an unseen tile (mix ``xm``, see
    ``tile_mix_nb``; ``base`` = the price every landing tile shares, horrors near
    included), then the best of staying to reveal, stepping back (worth ``back``) or
    exploring on, with ``r1`` points left.
    """
    p_safe = xm[0]
    p_ledge = xm[1]
    p_rough = xm[2]
    p_water = xm[3]
    p_gas = xm[4]
    p_cave = xm[5]
    p_hor = xm[6]
    unk = base + p_water * xm[7] + p_gas * xm[8] + p_cave * xm[9] + p_hor * xm[10]
    if r1 <= 0:
        ev = -unk - p_rough * xm[11] - p_gas * xm[12]
    else:
        rv = 0.85 * vt * (1.0 + 0.5 * (r1 - 1))
        m = back
        again = vt * (1.0 + 0.5 * (r1 - 1)) - unk
        if again > m:
            m = again
        s = rv - base
        ev = (p_safe + p_rough) * max(s, m) + p_ledge * max(-base, m)
        ev += p_water * max(s - xm[7], m) + p_gas * max(s - xm[8], m)
        ev += p_cave * max(s - xm[9], m) + p_hor * max(s - xm[10], m)
        ev -= p_rough * xm[11] + p_gas * xm[12]
    ev += vt
    if p_exit > 0.0:
        ev = (1.0 - p_exit) * ev + p_exit * (vt + EXIT_BONUS + 2.0)
    return ev


@njit(refcount=False)
def run_packed_nb(tl, t, path, steps):
    """Pack the first ``steps`` sides of ``path`` (from tile ``t``) for a Run."""
    packed = 0
    u = t
    for k in range(steps):
        v = path[k]
        dx = tl[v, TFC.X] - tl[u, TFC.X]
        dy = tl[v, TFC.Y] - tl[u, TFC.Y]
        d = 0 if dy < 0 else (1 if dx > 0 else (2 if dy > 0 else 3))
        packed |= (d + 1) << (3 * k)
        u = v
    return packed


@njit(refcount=False)
def first_step_nb(parent, t, goal, path):
    """Walk ``parent`` back from ``goal`` to ``t`` and write the route.

    Walk ``parent`` back from ``goal`` to ``t``; write the route into ``path`` (first
    step at ``path[0]``) and return its length.
    """
    n = 0
    u = goal
    while u != t and u >= 0:
        n += 1
        u = parent[u]
    u = goal
    k = n - 1
    while u != t and u >= 0:
        path[k] = u
        k -= 1
        u = parent[u]
    return n


# plan kinds
K_END = 0
K_REVEAL = 1
K_GOTO = 2
K_EXPLORE = 3
K_HEAL = 4
K_DIG = 5
K_SWIM = 6
K_SQUEEZE = 7
K_ROPE = 8
K_HIDE = 9
K_BLAST = 10
BLAST_GAIN = 3  # steps a blast must save to be worth its 2 points and a token


@njit(refcount=False)
def goal_searches_nb(tl, nb, grid, cv, hz, gs, scratch, params, c, t, ex, n, n_cav,
                     late, in_window, allow_rescue, rounds_left, stack_left, w_swim, w_sq,
                     w_dig, ox, oy, coh, bp):
    """The searches of a decision, kept for the caver's turn.

    The searches of a decision: steps to the nearest horror and room to back away
    (``hd`` row), the rally tile once the exit is due (``path`` row: steps to it), the
    goal (a knocked-out caver to rescue, the exit, or the frontier) and the steps from
    every tile to it (``phi``/``php`` rows). Returns ``(mode, rally)``: mode 0 explore,
    1 exit, 2 rescue.
    """
    dist = scratch[SCR.DIST]
    parent = scratch[SCR.PARENT]
    queue = scratch[SCR.QUEUE]
    hd = scratch[SCR.HDIST]
    phi = scratch[SCR.DIST2]
    php = scratch[SCR.PARENT2]
    tmp = scratch[SCR.BLOCKED]
    path = scratch[SCR.PATH]
    keys = scratch[SCR.KEYS]
    # The horror field, the steps to the rally and to the exit are the same for every
    # caver with the same step weights until the cave changes: kept in their rows, keyed
    # in ``keys`` (cleared at every game start by ``forget_nb``).
    cave = cave_key_nb(gs)
    wk = w_swim + 16 * (w_sq + 16 * w_dig)
    # steps to the nearest horror (-1 = none within 6) and room to back away from it
    if keys[KEY_HORROR] != cave:
        keys[KEY_HORROR] = cave
        if gs[GFC.N_HORRORS] > 0:
            ns = 0
            for h in range(hz.shape[0]):
                if hz[h] >= 0:
                    parent[ns] = hz[h]
                    ns += 1
            tail = bfs_sources_nb(nb, n, parent, ns, 6, hd, queue)
            horror_runway_nb(tl, nb, grid, hd, queue, tail)
        else:
            for u in range(n):
                hd[u] = -1

    # when the exit is due, the team agrees on a rally tile and gathers round it, so that
    # the exit is revealed where everyone is near: the frontier tile the conscious cavers
    # reach in the fewest steps all told, chosen once and remembered (the team's plan);
    # ``path`` keeps the steps from every tile to it
    rally = -1
    if late:
        if hd[MEMO] == 1 and tmp[MEMO] >= 0 and tmp[MEMO] < n:
            rally = tmp[MEMO]
        for attempt in range(2):
            if rally < 0:
                rally = rally_tile_nb(tl, nb, grid, cv, gs, dist, parent, queue, tmp, path,
                                      w_swim, w_sq, w_dig)
                hd[MEMO] = 1  # chosen (a rally of -1: none could be agreed)
                tmp[MEMO] = rally
                keys[KEY_RALLY] = -1  # the search above used the ``path`` row
            if rally < 0:
                break
            pkey = mix_key_nb(mix_key_nb(cave, wk), rally)
            if keys[KEY_RALLY] != pkey:
                keys[KEY_RALLY] = pkey
                for u in range(n):
                    path[u] = -1
                path[rally] = 0
                goal_search_nb(tl, nb, n, path, parent, queue, tmp, w_swim, w_sq, w_dig)
            if attempt == 1 or frontier_within_nb(tl, nb, grid, n, path, bp[P_RADIUS]):
                break
            rally = -1  # no frontier left near the rally: agree on another
    pull = 0.0
    if rally >= 0:
        pull = bp[P_REGROUP] * (2.0 if in_window else 1.0)

    # --- the goal: a knocked-out caver to rescue, the exit, or the frontier
    mode = 0
    if ex >= 0:
        xd = scratch[SCR.EXIT_DIST]
        xp = scratch[SCR.EXIT_PARENT]
        ekey = mix_key_nb(cave, wk)
        if keys[KEY_EXIT] != ekey:
            keys[KEY_EXIT] = ekey
            for u in range(n):
                xd[u] = -1
            xd[ex] = 0
            goal_search_nb(tl, nb, n, xd, xp, queue, tmp, w_swim, w_sq, w_dig)
        for u in range(n):
            phi[u] = xd[u]
            php[u] = xp[u]
        mode = 1
    if allow_rescue and bp[P_RESCUE] > 0:
        for o in range(n_cav):
            if o == c or cv[o, CFC.REMOVED] != 0 or cv[o, CFC.HP] > 0:
                continue
            ko_tile = cv[o, CFC.TILE]
            if ko_tile == ex:
                continue
            # every step costs at least 1 and moves one cell: too far by the grid alone
            # is too far by the search (which would find my_d > P_RESCUE below)
            if abs(tl[ko_tile, TFC.X] - tl[t, TFC.X]) + \
                    abs(tl[ko_tile, TFC.Y] - tl[t, TFC.Y]) > bp[P_RESCUE]:
                continue
            d_ex = phi[ko_tile] if ex >= 0 else 0
            for u in range(n):
                dist[u] = -1
            dist[ko_tile] = 0
            goal_search_nb(tl, nb, n, dist, parent, queue, tmp, w_swim, w_sq, w_dig)
            my_d = dist[t]
            if my_d < 0 or my_d > bp[P_RESCUE]:
                continue
            mine = True
            my_key = my_d * 2 - (1 if cv[c, CFC.ABILITY] == ABILITY.EXTRA_HEAL else 0)
            for q in range(n_cav):
                if q == c or cv[q, CFC.REMOVED] != 0 or cv[q, CFC.HP] <= 0:
                    continue
                tq = cv[q, CFC.TILE]
                if tq == ex or dist[tq] < 0:
                    continue
                key = dist[tq] * 2 - (1 if cv[q, CFC.ABILITY] == ABILITY.EXTRA_HEAL else 0)
                if key < my_key or (key == my_key and q < c):
                    mine = False
                    break
            if not mine:
                continue
            if ex >= 0:
                if d_ex < 0:
                    continue
                turns = (my_d + 2) // 3 + 1 + (d_ex + 2) // 3 + 1
                if turns > rounds_left:
                    continue
            for u in range(n):
                phi[u] = dist[u]
                php[u] = parent[u]
            mode = 2
            break
    if mode == 0:
        any_goal = False
        if stack_left > 0:
            ns = 0
            for o in range(n_cav):
                if o != c and cv[o, CFC.REMOVED] == 0 and cv[o, CFC.HP] > 0 and \
                        cv[o, CFC.TILE] != ex:
                    parent[ns] = cv[o, CFC.TILE]
                    ns += 1
            if ns > 0:
                bfs_sources_nb(nb, n, parent, ns, 1, dist, queue)
            else:
                for u in range(n):
                    dist[u] = -1
            any_goal = work_goals_nb(tl, nb, grid, cv, gs, c, t, phi, path, pull, dist,
                                     ox, oy, coh)
        else:
            for u in range(n):
                phi[u] = -1
        if any_goal:
            goal_search_nb(tl, nb, n, phi, php, queue, tmp, w_swim, w_sq, w_dig)

    return mode, rally


@njit(refcount=False)
def script_decide_nb(gs, c, ap, bp):
    """The scripted test bot's next action: ``(action, arg, want_exert)``.

    ``bp`` = ``(k, then k steps of (caver, action, arg, want_exert))``. Asked for by the
    caver of the next step, it plays that step; asked for by any other caver, it ends
    that caver's turn. It writes what it saw when asked for step ``i`` (tiles in the cave,
    action points left, the round) into ``gs`` (``SCRIPT_TILES``, ``SCRIPT_AP``,
    ``SCRIPT_ROUND``).
    """
    pos = gs[GFC.SCRIPT_POS]
    if pos >= int(bp[0]):
        return ACTION.END, 0, False
    row = 1 + 4 * pos
    if int(bp[row]) != c:
        return ACTION.END, 0, False
    if pos < SCRIPT_LOG:
        gs[GFC.SCRIPT_TILES + pos] = gs[GFC.N_TILES]
        gs[GFC.SCRIPT_AP + pos] = ap
        gs[GFC.SCRIPT_ROUND + pos] = gs[GFC.ROUND]
    gs[GFC.SCRIPT_POS] = pos + 1
    return int(bp[row + 1]), int(bp[row + 2]), bp[row + 3] != 0.0


@njit(refcount=False)
def decide_nb(tl, nb, grid, cv, hz, gs, scratch, params, c, ap, exerted, bot_id, bp):
    """Caver ``c``'s next action: ``(action, arg, want_exert)``.

    ``arg`` is a side for moves and reveals, a caver for Heal, a tile for Dig, or three
    packed sides for Run. Writes ``scratch``.
    """
    if bot_id == SCRIPT_BOT:
        return script_decide_nb(gs, c, ap, bp)
    t = cv[c, CFC.TILE]
    ex = gs[GFC.EXIT_TILE]
    if t == ex:
        return ACTION.END, 0, False
    n = gs[GFC.N_TILES]
    hp = cv[c, CFC.HP]
    n_cav = gs[GFC.N_CAVERS]
    risk = bp[P_RISK]
    lv = (1.0 + bp[P_KO], bp[P_HEAL1], bp[P_HEAL2], 0.5 * bp[P_HEAL2])
    dist = scratch[SCR.DIST]
    parent = scratch[SCR.PARENT]
    queue = scratch[SCR.QUEUE]
    hd = scratch[SCR.HDIST]
    phi = scratch[SCR.DIST2]
    php = scratch[SCR.PARENT2]
    tmp = scratch[SCR.BLOCKED]
    path = scratch[SCR.PATH]
    rounds_left = gs[GFC.DECK_N] - gs[GFC.DECK_POS] + 1
    if gs[GFC.OUT_OF_TIME] != 0:
        rounds_left = 0
    stack_left = gs[GFC.STACK_N] - gs[GFC.STACK_POS]
    window = gs[GFC.STACK_N] - params[0][2]  # the exit lies in the bottom exit_depth tiles

    # action points by this caver's board
    ab = cv[c, CFC.ABILITY]
    abc = cv[c, CFC.AB_COST]
    cheap = CHEAPENS[ab] if ab > 0 else -1
    mvc = abc if cheap == ACTION.MOVE else BASE_COST[ACTION.MOVE]
    rc = abc if cheap == ACTION.RUN else BASE_COST[ACTION.RUN]
    hc = abc if cheap == ACTION.HEAL else BASE_COST[ACTION.HEAL]
    swc = abc if cheap == ACTION.SWIM else BASE_COST[ACTION.SWIM]
    sqc = abc if cheap == ACTION.SQUEEZE else BASE_COST[ACTION.SQUEEZE]
    dgc = abc if cheap == ACTION.DIG else BASE_COST[ACTION.DIG]
    rpc = abc if cheap == ACTION.ROPE else BASE_COST[ACTION.ROPE]
    hdc = abc if cheap == ACTION.HIDE else BASE_COST[ACTION.HIDE]
    w_swim = 1 + swc
    w_sq = 1 + sqc
    w_dig = 2 + dgc
    cc = hazard_costs_nb(gs, params, hp, lv)

    # the buddy system: cavers explore in pairs (seats 0+1, 2+3, ...), so that whoever
    # reveals the exit has someone near; a lone caver pairs with the nearest other
    ox = 0.0
    oy = 0.0
    buddy = c ^ 1
    if buddy >= n_cav or cv[buddy, CFC.REMOVED] != 0 or cv[buddy, CFC.HP] <= 0 or \
            cv[buddy, CFC.TILE] == ex:
        buddy = -1
        best_bd = 1 << 30
        for o in range(n_cav):
            if o == c or cv[o, CFC.REMOVED] != 0 or cv[o, CFC.HP] <= 0 or cv[o, CFC.TILE] == ex:
                continue
            to = cv[o, CFC.TILE]
            bd = abs(tl[to, TFC.X] - tl[t, TFC.X]) + abs(tl[to, TFC.Y] - tl[t, TFC.Y])
            if bd < best_bd:
                best_bd = bd
                buddy = o
    coh = 0.0
    if buddy >= 0 and ex < 0:
        coh = bp[P_COHESION]
        ox = float(tl[cv[buddy, CFC.TILE], TFC.X])
        oy = float(tl[cv[buddy, CFC.TILE], TFC.Y])

    late = ex < 0 and gs[GFC.STACK_POS] >= window - bp[P_LATE] and bp[P_REGROUP] > 0
    in_window = ex < 0 and gs[GFC.STACK_POS] >= window
    allow_rescue = not (ex >= 0 and bp[P_RUSH] > 0)

    # The searches below (horrors, goal, rally) depend on the cave, the pieces and the
    # goal, not on where this caver stands: within a turn they hold until a tile is laid
    # or a dig, rope, blast or heal changes things, so they are kept in the scratch rows
    # and reused (keyed in column MEMO).
    tyt = tl[t, TFC.TYPE]
    key = decision_key_nb(gs, c, t if (tyt == TILE.LEDGE or tyt == TILE.SLIDE) else -1)
    if phi[MEMO] == key:
        mode = php[MEMO] & 3
        rally = (php[MEMO] >> 2) - 1
    else:
        mode, rally = goal_searches_nb(tl, nb, grid, cv, hz, gs, scratch, params, c, t, ex,
                                       n, n_cav, late, in_window, allow_rescue,
                                       rounds_left, stack_left, w_swim, w_sq, w_dig, ox,
                                       oy, coh, bp)
        phi[MEMO] = key
        php[MEMO] = mode | ((rally + 1) << 2)
    cx = 0.0
    cy = 0.0
    pull = 0.0
    if rally >= 0:
        cx = float(tl[rally, TFC.X])
        cy = float(tl[rally, TFC.Y])
        pull = bp[P_REGROUP] * (2.0 if in_window else 1.0)

    vt = 0.0
    if mode == 0:
        # a tile is worth more when the tiles still to draw before the exit crowd the
        # rounds left (keeping three rounds to gather at the exit)
        need = window - gs[GFC.STACK_POS]
        if need < 0:
            need = 0
        avail = rounds_left - 3
        if avail < 1:
            avail = 1
        rate = (need + 3.0) / avail / 4.0
        if rate < 0.5:
            rate = 0.5
        elif rate > 4.0:
            rate = 4.0
        vt = bp[P_TILE] * rate
    wp = bp[P_WORK] if mode == 0 else bp[P_EXITW]
    can_reveal = stack_left > 0  # outside the exploration, only to get out of trouble
    p_exit = 0.0
    if ex < 0 and gs[GFC.STACK_POS] >= window and stack_left > 0:
        p_exit = 1.0 / stack_left
    xm = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    if can_reveal:
        xm = tile_mix_nb(tl, gs, params, cc, hp, lv, risk, tmp)

    # --- plan the rest of the turn
    can_exert = not exerted
    # a failed exert check at 1 health knocks the caver out: at 1 health exert only to
    # step onto the exit (where the check costs nothing, ST-149) or when time is up anyway
    exert_ok = hp >= 2 or bp[P_EXERT_LAST] > 0 or rounds_left <= 1
    ee_ok = bp[P_EXERT_EXPLORE] > 0 and hp >= bp[P_EXERT_HP]
    ex_pen = risk * 0.5 * hp_cost_nb(1, hp, lv)
    bmax = ap + (1 if can_exert else 0)
    maxd = 0
    while move_ap_nb(maxd + 1, mvc, rc) <= bmax and maxd < 12:
        maxd += 1
    n_reach = reach_bfs_nb(tl, nb, cv, gs, c, n, maxd, dist, parent, queue)
    buf = scratch[SCR.FBUF:SCR.FBUF + 6].view(np.float64).reshape(3, scratch.shape[1])
    tile_facts_nb(tl, nb, grid, cv, gs, hd, c, t, queue, n_reach, cc, risk, hp, lv,
                  can_reveal, buf)
    st = int(buf[2, 0])  # queue[0] is this tile
    ec_t = buf[0, 0]
    ph_t = goal_steps_at_nb(tl, nb, phi, php, t, np.int64(cv[c, CFC.SIDE]), w_swim, w_sq, w_dig)
    heal_amt = cv[c, CFC.AB_VALUE] if cv[c, CFC.ABILITY] == ABILITY.EXTRA_HEAL else 1
    unreach = 40.0
    base_t = cc[0] * risk

    # once the exit can be drawn, reveals count only near the rally tile; before that the
    # team drifts towards it (``gw`` per step)
    use_rd = mode == 0 and rally >= 0 and in_window
    radius = bp[P_RADIUS]
    ok_t = 1.0
    if use_rd:
        ok_t = window_credit_nb(path[t], radius)
    gw = 0.5 * pull if mode == 0 and rally >= 0 else 0.0
    x_margin = bp[P_XMARGIN] if mode == 0 else 0.0
    if mode != 0 and ph_t >= 0:
        # the exit (or a rescue) grows urgent as the rounds run out
        urg = (ph_t / 3.0 + bp[P_EXIT_MARGIN]) / (rounds_left if rounds_left > 0 else 0.5)
        if urg > 1.0:
            wp *= urg if urg < 4.0 else 4.0

    # a wounded caver does well to end its turn beside the Medic (who heals two)
    medic_t = -1
    medic_bonus = 0.0
    if hp <= 2 and hp < cv[c, CFC.MAXHP] and cv[c, CFC.ABILITY] != ABILITY.EXTRA_HEAL:
        for o in range(n_cav):
            if o != c and cv[o, CFC.ABILITY] == ABILITY.EXTRA_HEAL and \
                    cv[o, CFC.REMOVED] == 0 and cv[o, CFC.HP] > 0 and cv[o, CFC.TILE] != ex:
                medic_t = cv[o, CFC.TILE]
                top = hp + cv[o, CFC.AB_VALUE]
                if top > cv[c, CFC.MAXHP]:
                    top = cv[c, CFC.MAXHP]
                for lvl in range(hp + 1, top + 1):
                    medic_bonus += 0.6 * (lv[1] if lvl == 2 else (lv[2] if lvl == 3 else lv[3]))

    best_v = -BIG
    b_kind = K_END
    b_u = t
    b_arg = 0
    b_x = 0
    for qi in range(n_reach):
        u = queue[qi]
        du = dist[u]
        m = 0 if u == t else move_ap_nb(du, mvc, rc)
        if m > bmax:
            continue
        e_u = buf[1, qi]
        if u == ex:
            if mode != 2:
                val = EXIT_BONUS - e_u
                if val > best_v:
                    best_v = val
                    b_kind = K_GOTO
                    b_u = u
                    b_x = 0 if m <= ap else 1
            continue
        ec = buf[0, qi]
        su0 = int(buf[2, qi])
        if u == t:
            phu = ph_t
        else:
            phu = phi[u]
            tyu = tl[u, TFC.TYPE]
            if (tyu == TILE.LEDGE or tyu == TILE.SLIDE) and tl[u, TFC.ROPE] == 0:
                phu = goal_steps_at_nb(tl, nb, phi, php, u, side_to_nb(tl, u, parent[u]),
                                       w_swim, w_sq, w_dig)
        phf = float(phu) if phu >= 0 else unreach
        gpen = 0.0
        if gw > 0.0:
            gpen = gw * (path[u] if path[u] >= 0 else unreach)
        if coh > 0.0:
            far = abs(tl[u, TFC.X] - ox) + abs(tl[u, TFC.Y] - oy) - 2.0
            if far > 0.0:
                gpen += 0.5 * coh * far
        if u == medic_t:
            gpen -= medic_bonus
        ok_u = 1.0
        if use_rd:
            ok_u = window_credit_nb(path[u], radius)
        hx = base_t
        if hd[u] >= 0:
            hx += risk * horror_cost_nb((hd[u] & 15) + 1 + 48, cc)  # new tile: open
        n_heal = 0
        for o in range(n_cav):
            if cv[o, CFC.TILE] == u and cv[o, CFC.REMOVED] == 0 and \
                    cv[o, CFC.HP] < cv[o, CFC.MAXHP]:
                n_heal += 1
        # neighbours needing a dig, a swim or a squeeze
        n_special = 0
        for d in range(4):
            v = nb[u, d]
            if v >= 0 and (tl[v, TFC.RUBBLE] != 0 or tl[v, TFC.FLOOD] != 0 or
                           tl[v, TFC.TYPE] == TILE.SQUEEZE) and tl[v, TFC.HORRORS] == 0:
                n_special += 1
        for xb in range(2):
            if xb == 1 and not (can_exert and exert_ok):
                break
            bb = ap + xb
            if m > bb:
                continue
            xp = ex_pen + x_margin if xb == 1 else 0.0
            cap = 99
            if xb == 1 and not ee_ok:
                cap = ap - m
                if cap < 0:
                    cap = 0
            kmax = st if u != t else 0
            if kmax > bb - m:
                kmax = bb - m
            for k0 in range(kmax + 1):
                rem = bb - m - k0
                first = K_REVEAL if k0 > 0 else (K_GOTO if u != t else K_END)
                su = su0 - k0 if u == t else su0
                # (a) reveal (at t, then at u), end on u
                k1 = rem if rem < su else su
                if k1 < 0:
                    k1 = 0
                if mode != 0:
                    pa = phf
                elif su - k1 > 0:
                    pa = 0.0
                elif k1 > 0:
                    pa = 1.0
                elif k0 > 0:
                    pa = phf if phf < du + 1 else float(du + 1)
                else:
                    pa = phf
                cr = k0 * ok_t + k1 * ok_u
                if cr > cap:
                    cr = cap
                val = vt * cr - ec - wp * pa - e_u - xp - gpen
                if val > best_v:
                    best_v = val
                    b_kind = first if first != K_END else (K_REVEAL if k1 > 0 else K_END)
                    b_u = u
                    b_x = xb
                # (b) explore from u
                if can_reveal and k0 == 0 and rem >= 1 and su >= 1 and \
                        (xb == 0 or ee_ok or m + 1 <= ap):
                    r1 = rem - 1
                    back = -BIG
                    if r1 >= 1:
                        kb = r1 - 1
                        if kb > su - 1:
                            kb = su - 1
                        if mode != 0:
                            pb = phf
                        else:
                            pb = 0.0 if su - 1 - kb > 0 else 1.0
                        back = vt * kb - ec - wp * pb
                    val = explore_ev_nb(xm, r1, vt * ok_u, hx, back, p_exit) - e_u - xp + \
                        bp[P_XBIAS] - gpen
                    if mode != 0:
                        val -= wp * (phf + 1.0)
                    if val > best_v:
                        best_v = val
                        b_kind = K_GOTO if u != t else K_EXPLORE
                        b_u = u
                        b_x = xb
                # (c) heal someone on u (yourself included)
                if n_heal > 0 and rem >= hc:
                    k2 = rem - hc
                    if k2 > su:
                        k2 = su
                    if k2 < 0:
                        k2 = 0
                    if mode != 0:
                        pa2 = phf
                    elif su - k2 > 0:
                        pa2 = 0.0
                    elif k2 > 0:
                        pa2 = 1.0
                    else:
                        pa2 = phf
                    cr2 = k0 * ok_t + k2 * ok_u
                    if cr2 > cap:
                        cr2 = cap
                    rest = vt * cr2 - ec - wp * pa2 - e_u - xp - gpen
                    for o in range(n_cav):
                        if cv[o, CFC.REMOVED] != 0 or cv[o, CFC.TILE] != u:
                            continue
                        ho = cv[o, CFC.HP]
                        mo = cv[o, CFC.MAXHP]
                        if ho >= mo:
                            continue
                        if o == c:
                            if hp > bp[P_HEAL_AT]:
                                continue
                        elif ho == 0:
                            if not allow_rescue:
                                continue
                        elif ho > bp[P_HEAL_AT] and heal_amt < 2:
                            continue
                        top = ho + heal_amt
                        if top > mo:
                            top = mo
                        hv = 0.0
                        for lvl in range(ho + 1, top + 1):
                            hv += lv[0] if lvl == 1 else (lv[1] if lvl == 2 else (
                                lv[2] if lvl == 3 else lv[3]))
                        if ho == 0:
                            hv += 1.0  # back on their feet
                        val = hv + rest
                        if val > best_v:
                            best_v = val
                            b_kind = first if first != K_END else K_HEAL
                            b_u = u
                            b_arg = o
                            b_x = xb
            # (d) dig, swim or squeeze from u
            if n_special == 0:
                continue
            crossing = u != t and (tl[u, TFC.TYPE] == TILE.LEDGE or
                                   tl[u, TFC.TYPE] == TILE.SLIDE) and tl[u, TFC.ROPE] == 0
            for d in range(4):
                v = nb[u, d]
                if v < 0 or tl[v, TFC.HORRORS] > 0:
                    continue
                if u == t:
                    if not can_leave_nb(tl, cv, c, d):
                        continue
                elif crossing and v != parent[u] and not (
                        tl[u, TFC.TYPE] == TILE.SLIDE and d == tl[u, TFC.ARROW]):
                    continue
                pv = phi[v]
                if pv < 0:
                    continue
                gv = 0.0
                if gw > 0.0:
                    gv = gw * (path[v] if path[v] >= 0 else unreach)
                if tl[v, TFC.RUBBLE] != 0:
                    if m + dgc > bb:
                        continue
                    pnew = float(min(phu, pv + 1)) if phu >= 0 else float(pv + 1)
                    val = -ec - wp * pnew - xp - e_u - gpen
                    if m + dgc + mvc <= bb and v != ex:
                        ecv = risk * end_cost_nb(tl, nb, gs, hd, v, cc, True)
                        if tl[v, TFC.TYPE] == TILE.GAS and gs[GFC.GAS_ACTIVE] > 0:
                            ecv += risk * hp_cost_nb(gs[GFC.GAS_ACTIVE], hp, lv)
                        val2 = -ecv - wp * float(pv) - xp - e_u - gv
                        if val2 > val:
                            val = val2
                    if val > best_v:
                        best_v = val
                        b_kind = K_DIG if u == t else K_GOTO
                        b_u = v if u == t else u
                        b_x = xb
                elif tl[v, TFC.FLOOD] != 0 or tl[v, TFC.TYPE] == TILE.SQUEEZE:
                    sc = swc if tl[v, TFC.FLOOD] != 0 else sqc
                    if m + sc > bb:
                        continue
                    rem = bb - m - sc
                    sv = free_sides_nb(tl, nb, grid, cv, c, v, False) if can_reveal else 0
                    kv = float(rem if rem < sv else sv)
                    if mode == 0 and use_rd:
                        kv = kv * window_credit_nb(path[v], radius)
                    if mode != 0:
                        pvf = float(pv)
                    elif sv - kv > 0:
                        pvf = 0.0
                    elif kv > 0:
                        pvf = 1.0
                    else:
                        pvf = float(pv)
                    if v == ex:
                        val = EXIT_BONUS - e_u
                    else:
                        ecv = risk * end_cost_nb(tl, nb, gs, hd, v, cc, True)
                        val = vt * kv - ecv - wp * pvf - xp - e_u - gv
                    if val > best_v:
                        best_v = val
                        if u == t:
                            b_kind = K_SWIM if tl[v, TFC.FLOOD] != 0 else K_SQUEEZE
                            b_u = v
                            b_arg = d
                        else:
                            b_kind = K_GOTO
                            b_u = u
                        b_x = xb

    for xb in range(2):
        if xb == 1 and not (can_exert and exert_ok):
            break
        bb = ap + xb
        xp = ex_pen + x_margin if xb == 1 else 0.0
        # a rope across the ledge or slide this caver stands on
        tyt = tl[t, TFC.TYPE]
        if (tyt == TILE.LEDGE or tyt == TILE.SLIDE) and tl[t, TFC.ROPE] == 0 and \
                gs[GFC.ROPES_LEFT] > 0 and rpc <= bb:
            for d in range(4):
                if not needs_rope_nb(tl, cv, c, d):
                    continue
                v = nb[t, d]
                if v >= 0:
                    if phi[v] < 0:
                        continue
                    pc = float(phi[v] + enter_weight_nb(tl, v, w_swim, w_sq, w_dig))
                elif can_reveal and grid[neighbour_cell_nb(tl, t, d)] < 0:
                    pc = 0.0
                else:
                    continue
                pst = float(ph_t) if ph_t >= 0 else unreach
                val = -ec_t - wp * (0.5 * pc + 0.5 * pst) - xp
                if pc < pst and val > best_v:
                    best_v = val
                    b_kind = K_ROPE
                    b_x = xb
        # hide from a horror that would reach this tile
        if bp[P_HIDE] > 0 and hdc <= bb and cv[c, CFC.HIDDEN] == 0 and hd[t] >= 0 and \
                (hd[t] & 15) <= 5:
            calm = risk * end_cost_nb(tl, nb, gs, hd, t, cc, False)
            pst = float(ph_t) if ph_t >= 0 else unreach
            val = -(0.5 * ec_t + 0.5 * calm) - wp * pst - xp
            if val > best_v:
                best_v = val
                b_kind = K_HIDE
                b_x = xb

        # the Engineer's explosives (ST-178/179): a wall between this tile and a tile laid
        # beside that shortens the way to the goal, or a wall facing an empty cell when
        # the frontier is far (or nearly gone), to reveal through it
        if bp[P_BLAST] > 0 and ab == ABILITY.EXPLOSIVES and gs[GFC.EXPLOSIVES_LEFT] > 0 and \
                abc <= bb and tyt != TILE.LEDGE and tyt != TILE.SLIDE:
            pst = float(ph_t) if ph_t >= 0 else unreach
            for d in range(4):
                if nb[t, d] >= 0:
                    continue
                u = grid[neighbour_cell_nb(tl, t, d)]
                if u >= 0:
                    tyu = tl[u, TFC.TYPE]
                    if phi[u] < 0 or tl[u, TFC.HORRORS] > 0 or tyu == TILE.LEDGE or \
                            tyu == TILE.SLIDE:
                        continue
                    pc = float(phi[u] + enter_weight_nb(tl, u, w_swim, w_sq, w_dig))
                    if pc + BLAST_GAIN > pst:
                        continue
                    val = -ec_t - wp * pc - xp
                elif (tl[t, TFC.OPEN] >> d) & 1 == 0 and can_reveal and mode == 0:
                    if pst < 4.0 and gs[GFC.FRONTIER] > 1:
                        continue
                    k = 1 if bb - abc >= 1 else 0
                    val = vt * k * ok_t - ec_t - wp * (1.0 if k > 0 else 0.0) - xp
                else:
                    continue
                if val > best_v:
                    best_v = val
                    b_kind = K_BLAST
                    b_arg = d
                    b_x = xb

    # --- the first action of the best plan
    want = b_x == 1
    if b_kind == K_END:
        return ACTION.END, 0, False
    if b_kind == K_REVEAL or b_kind == K_EXPLORE:
        d = pick_side_nb(tl, grid, cv, c, t, cx, cy, 1.0 if in_window and rally >= 0 else 0.0)
        if d < 0:
            return ACTION.END, 0, False
        return (ACTION.REVEAL if b_kind == K_REVEAL else ACTION.EXPLORE), d, want
    if b_kind == K_HEAL:
        return ACTION.HEAL, b_arg, want
    if b_kind == K_DIG:
        return ACTION.DIG, b_u, want
    if b_kind == K_SWIM:
        return ACTION.SWIM, b_arg, want
    if b_kind == K_SQUEEZE:
        return ACTION.SQUEEZE, b_arg, want
    if b_kind == K_ROPE:
        return ACTION.ROPE, 0, want
    if b_kind == K_HIDE:
        return ACTION.HIDE, 0, want
    if b_kind == K_BLAST:
        return ACTION.EXPLOSIVES, b_arg, want
    # K_GOTO: walk towards b_u (the route goes in the queue row, done with)
    plen = first_step_nb(parent, t, b_u, queue)
    if plen <= 0:
        return ACTION.END, 0, False
    v0 = queue[0]
    dx = tl[v0, TFC.X] - tl[t, TFC.X]
    dy = tl[v0, TFC.Y] - tl[t, TFC.Y]
    d = 0 if dy < 0 else (1 if dx > 0 else (2 if dy > 0 else 3))
    if plen >= 3 or (plen == 2 and rc < 2 * mvc):
        steps = plen if plen < 3 else 3
        if rc <= ap + (1 if want else 0):
            return ACTION.RUN, run_packed_nb(tl, t, queue, steps), want
    return ACTION.MOVE, d, want
