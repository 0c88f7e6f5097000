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

Parameters: ``PARAM_NAMES``, slots ``BotParam`` (``bp[PARAM.RISK]``).

How ``decide_nb`` is put together, step by step:

1. ``read_turn_nb``: the caver's turn as the bot reads it (``Turn``: rounds and tiles
   left, its buddy, the step weights of its board).
2. ``kept_goal_searches_nb``: the goal (``GOAL``) and the searches towards it, kept while
   nothing changes (``goal_searches_nb``: the horror field, the rally tile, the routes to
   the exit, a rescue or the frontier; routes priced by ``simlib.core.paths``).
3. ``read_outlook_nb``: the prices and weights the plans are scored with (``Outlook``).
4. ``best_plan_nb``: every plan from every tile within reach (``plans_from_tile_nb``: reveal,
   explore, heal, dig/swim/squeeze) and on the caver's own tile (``plans_here_nb``: rope,
   hide, blast), the best kept as a ``Plan``.
5. ``first_action_nb``: the first action of the best plan.

The steps, and the small helpers the plan loop calls for every tile within reach, are
compiled into their callers (``njit(llvm_inline=True)``, see ``simlib.core.jit``): passed
from call to call, the decision's named tuples and arrays cost more than the work they
carry (without it the bots play about 12% fewer games a second). Numba's own
``inline="always"`` does the same before typing, and made the cold compile two thirds
longer.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from simlib.core.jit import njit
from simlib.core.paths import bfs_multi_nb, goal_routes_nb
from simlib.games.subterra.state import (
    ABILITY,
    ACTION,
    BASE_COST,
    CFC,
    CFG,
    CHEAPENS,
    DX,
    DY,
    EFC,
    GFC,
    GRID,
    HAZARD,
    MAX_HORRORS,
    N_TILE_TYPES,
    SCR,
    STACK_MAX,
    TFC,
    TILE,
    can_leave_nb,
    cell_of_nb,
    needs_rope_nb,
    neighbour_cell_nb,
    side_to_nb,
)


class BotParam(NamedTuple):
    """Slots of a scripted bot's parameter vector ``bp`` (``PARAM_NAMES``, in order)."""

    TILE_VALUE: int = 0
    KO_PENALTY: int = 1
    WORK_WEIGHT: int = 2
    EXIT_WEIGHT: int = 3
    HEAL_AT: int = 4
    HEAL_LOW: int = 5
    HEAL_MID: int = 6
    EXERT_MIN_HEALTH: int = 7
    EXERT_TO_EXPLORE: int = 8
    RESCUE_RANGE: int = 9
    RUSH_EXIT: int = 10
    RISK: int = 11
    HIDE: int = 12
    REGROUP: int = 13
    EXPLORE_BIAS: int = 14
    REGROUP_FROM: int = 15
    EXIT_RADIUS: int = 16
    EXERT_MARGIN: int = 17
    COHESION: int = 18
    EXERT_AT_ONE_HEALTH: int = 19
    EXPLOSIVES: int = 20
    EXIT_MARGIN: int = 21


PARAM = BotParam()
PARAM_NAMES = tuple(name.lower() for name in BotParam._fields)
N_PARAMS = len(PARAM_NAMES)
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

# --- weights of the plans --------------------------------------------------------------
# The rulebook prints none of these: they are the bots' own, tuned by hand with them
# (illustrative, like the bots' parameters).
NO_VALUE = -1.0e9  # below the worth of any plan
ROPE_STEPS = 5  # extra steps a rope crossing is worth when planning routes
HORROR_STEPS = 3  # extra steps for a route through a horror's tile (it will move)
EXIT_BONUS = 1.5  # worth of standing on the exit at the end of a turn
UNREACHABLE_STEPS = 40.0  # steps charged for a goal (or rally) no route reaches
FAIL_CHANCE = 0.5  # a skill check fails on 1-3 of a die (the rulebook: 4 or higher succeeds)
SUCCESS_CHANCE = 1.0 - FAIL_CHANCE
DIE_FACES = 6
RUN_STEPS = 3  # a Run moves up to three tiles for its points
MAX_PLAN_STEPS = 12  # plain steps a plan looks ahead (more than any turn can walk)
# rotations of a revealed tile: frontier sides and links to laid tiles; a horror tile is
# best with its open sides facing the unknown (its horror then has a long way round)
FRONTIER_SCORE = 2
LINK_SCORE = 1
HORROR_TILE_LINK_SCORE = -3
# picking the side to reveal through: the empty cell's sides facing laid tiles
SIDE_EMPTY = 0.0
SIDE_LINK = 1.0
ALL_SIDES = 0b1111
# the horror field: ``hd[u]`` packs the steps to the nearest horror (low bits) and the
# room to back away from it before a dead end (high bits)
HORROR_FIELD_DEPTH = 6  # horrors further away are not priced
STEP_BITS = 4
STEP_MASK = (1 << STEP_BITS) - 1
ROOM_OPEN = 3  # room to back away: the way stays open
CHASE_WITHIN = 4  # a horror this close will chase the caver next turn too
CHASE_COST = 0.15  # per step closer than CHASE_WITHIN + 1: a turn spent running
CORNERED_WITHIN = 6  # steps to a horror plus the room behind: fewer and it may corner
SPAWN_NEXT_DOOR = 0.3  # share of a Horror card's price for a free horror tile next door
TRAPPED_SHARE = 0.5  # share of a spawn's price for a tile with one way out or none
HIDE_WITHIN = 5  # hide only from a horror this many steps away or fewer
# exploring: the worth of the reveal after an Explore, and of each point after that
REVEAL_AFTER_EXPLORE = 0.85
FURTHER_POINT = 0.5
EXIT_AFTER_EXPLORE = 2.0  # extra worth of an Explore that may turn over the exit
# the worth of a tile as the rounds run out (see ``tile_worth_nb``)
GATHER_ROUNDS = 3  # rounds kept to gather at the exit
TILES_MARGIN = 3.0  # tiles of margin on the tiles still to draw before the exit
TILES_PER_ROUND = 4.0  # the pace at which a tile is worth ``tile_value``
PACE_MIN = 0.5
PACE_MAX = 4.0
# the urgency of the exit (or a rescue) as the rounds run out
STEPS_PER_ROUND = 3.0  # about what a caver walks in a round (a Run)
LAST_ROUND = 0.5  # rounds counted once Out of Time has come
URGENCY_MAX = 4.0
# the team: a rally tile once the exit is due, a buddy while exploring, the Medic
NO_ROUTE_STEPS = 200  # a caver's steps to a tile no route reaches, summing a rally
RALLY_IN_PLAN = 0.5  # share of the pull towards the rally a turn's plan feels
BUDDY_SLACK = 2.0  # grid steps from the buddy that cost nothing
COHESION_IN_PLAN = 0.5  # share of the buddy's pull a turn's plan feels
BAD_END_STEPS = 1  # a frontier tile that is a bad place to end a turn
CROWDED_STEPS = 3  # a frontier tile others stand on, who would reveal all its sides
NEAR_STEPS = 1  # a frontier tile others stand on or next to
WOUNDED_AT = 2  # health at which a caver looks for the Medic
MEDIC_SHARE = 0.6  # share of the Medic's heal that ending beside it is worth
BACK_ON_FEET = 1.0  # worth of a knocked-out caver standing again, on top of the health
# explosives: a way to the goal shorter by this much, or a side to reveal through when
# the frontier is this far (or down to one side)
BLAST_GAIN = 3
BLAST_FRONTIER_STEPS = 4.0
# the bots' memory lives in the scratch column past every tile index (a cave holds the
# start tile and at most STACK_MAX more): the team's rally and the kept decision's key
MEMO_COL = STACK_MAX + 1


class Goal(NamedTuple):
    """What a caver heads for (``goal_searches_nb``)."""

    FRONTIER: int = 0  # the nearest tile it can reveal from (the exit is hidden)
    EXIT: int = 1
    RESCUE: int = 2  # a knocked-out caver it is the nearest rescuer of


GOAL = Goal()


class PlanKind(NamedTuple):
    """The first action of a plan for the rest of the turn (``Plan.kind``)."""

    END: int = 0
    REVEAL: int = 1
    GOTO: int = 2  # walk (Move or Run) towards ``Plan.tile``
    EXPLORE: int = 3
    HEAL: int = 4
    DIG: int = 5
    SWIM: int = 6
    SQUEEZE: int = 7
    ROPE: int = 8
    HIDE: int = 9
    BLAST: int = 10


PLAN = PlanKind()


class Plan(NamedTuple):
    """The best plan so far: its worth and its first action."""

    value: float
    kind: int
    tile: int  # GOTO: the tile walked to; DIG: the tile dug
    arg: int  # HEAL: the caver healed; SWIM, SQUEEZE, BLAST: the side
    exert: int  # 1 = the plan needs the exert point


@njit(refcount=False, llvm_inline=True)
def better_plan_nb(best, value, kind, tile, arg, exert):
    """``best``, or the plan given when it is worth strictly more (ties: the first)."""
    if value > best.value:
        return plan_nb(value, kind, tile, arg, exert)
    return best


# --- choices the engine asks for ------------------------------------------------------
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
        return own + HORROR_TILE_LINK_SCORE * connections
    return frontier_after * FRONTIER_SCORE + connections * LINK_SCORE


@njit(refcount=False)
def horror_step_choice_nb(tl, nb, cv, gs, dist_from_victim, src, dv, victim, bot_id, bp):
    """The victim picks the horror's first step among equally short ones (ST-202).

    It sends the horror where no other caver stands, then where the fewest cavers are
    next to it, then by the lowest side number. ``dist_from_victim`` is a BFS from the
    victim's tile.
    """
    caver_on_tile = 100  # outweighs any number of cavers next to the tile
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
                score += caver_on_tile
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
    hold ``MAX_HORRORS`` (no slot).
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
            best = MAX_HORRORS
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


# --- prices ---------------------------------------------------------------------------
@njit(refcount=False, llvm_inline=True)
def point_worths_nb(bp):
    """Worth of a caver's 1st, 2nd, 3rd and further health points (``lv`` below).

    The last point standing is worth itself and the knock-out (1 + ``ko_penalty``), the
    2nd ``heal_low``, the 3rd ``heal_mid``, each further one half that.
    """
    return (1.0 + bp[PARAM.KO_PENALTY], bp[PARAM.HEAL_LOW], bp[PARAM.HEAL_MID],
            0.5 * bp[PARAM.HEAL_MID])


@njit(refcount=False, llvm_inline=True)
def point_worth_nb(lv, level):
    """Worth of a caver's ``level``-th health point (``lv`` from ``point_worths_nb``)."""
    if level == 1:
        return lv[0]
    if level == 2:
        return lv[1]
    if level == 3:
        return lv[2]
    return lv[3]


@njit(refcount=False)
def hp_cost_nb(d, h, lv):
    """Cost of losing ``d`` health at health ``h``: the worth of the points lost."""
    v = 0.0
    lo = h - d + 1
    if lo < 1:
        lo = 1
    for lvl in range(lo, h + 1):
        v += point_worth_nb(lv, lvl)
    return v


@njit(refcount=False)
def cave_in_cost_nb(c0, c1, r0, r1, nf):
    """Expected cost of a cave-in card on a tile with ``nf`` faces.

    A plain card costs ``c0`` if any of its ``r0`` rolls shows one of the tile's faces,
    a severe one ``c1`` with ``r1`` rolls.
    """
    miss = 1.0 - nf / float(DIE_FACES)
    m0 = 1.0
    for _ in range(int(r0)):
        m0 *= miss
    m1 = 1.0
    for _ in range(int(r1)):
        m1 *= miss
    return c0 * (1.0 - m0) + c1 * (1.0 - m1)


class HazardCosts(NamedTuple):
    """Expected cost of this round's hazard phase, by where a caver stands.

    Health points priced by ``point_worths_nb``; filled by ``hazard_costs_nb``.
    """

    anywhere: float  # every tile but the exit (a tremor; Out of Time)
    gas_tile: float
    water_tile: float
    cave_in: float  # a plain cave-in card if it hits the tile
    cave_in_severe: float
    cave_in_rolls: float  # dice a plain cave-in card rolls
    cave_in_severe_rolls: float
    horror_tile: float  # a horror spawning on a free horror tile
    horror_strike: float  # being knocked out by a horror (one step away)
    horror_two: float  # a horror two steps away (a Horror card moving it twice)
    horror_three: float  # three steps away
    horror_card: float  # the chance of a Horror card
    two_faced_cave_in: float  # a cave-in tile with two faces


@njit(refcount=False)
def hazard_costs_nb(gs, params, hp, lv):
    """Expected cost of this round's hazard phase for a caver with ``hp`` health.

    The card is unknown: its chances are the difficulty's card pool (public; which pool
    cards were dealt is not). Returns a ``HazardCosts``.
    """
    pool = params.pool_counts  # pool cards by hazard type x plain (0) / severe (1)
    effects = params.effects  # effect rows: plain (0), severe (1)
    n_pool = params.pool.shape[0]
    per_card = 1.0 / n_pool if n_pool > 0 else 0.0
    knock_out = hp_cost_nb(hp, hp, lv)
    if gs[GFC.DECK_POS] >= gs[GFC.DECK_N]:
        # Out of Time: a failed check knocks out and removes; nothing else happens
        return HazardCosts(FAIL_CHANCE * (knock_out + lv[0]), 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0,
                           knock_out, 0.0, 0.0, 0.0, 0.0)
    anywhere = FAIL_CHANCE * per_card * (
        pool[HAZARD.TREMOR, 0] * hp_cost_nb(effects[0, EFC.TREMOR_DAMAGE], hp, lv)
        + pool[HAZARD.TREMOR, 1] * hp_cost_nb(effects[1, EFC.TREMOR_DAMAGE], hp, lv))
    gas = per_card * (pool[HAZARD.GAS, 0] * hp_cost_nb(effects[0, EFC.GAS_DAMAGE], hp, lv)
                      + pool[HAZARD.GAS, 1] * hp_cost_nb(effects[1, EFC.GAS_DAMAGE], hp, lv))
    water = per_card * (pool[HAZARD.FLOOD, 0] * hp_cost_nb(effects[0, EFC.FLOOD_DAMAGE], hp, lv)
                        + pool[HAZARD.FLOOD, 1] * hp_cost_nb(effects[1, EFC.FLOOD_DAMAGE], hp, lv))
    cave_in = per_card * pool[HAZARD.CAVE_IN, 0] * \
        hp_cost_nb(effects[0, EFC.CAVE_IN_DAMAGE], hp, lv)
    cave_in_severe = per_card * pool[HAZARD.CAVE_IN, 1] * \
        hp_cost_nb(effects[1, EFC.CAVE_IN_DAMAGE], hp, lv)
    horrors = pool[HAZARD.HORROR, 0]
    horrors_severe = pool[HAZARD.HORROR, 1]
    horror_card = (horrors + horrors_severe) * per_card
    steps = effects[0, EFC.HORROR_STEPS]
    steps_severe = effects[1, EFC.HORROR_STEPS]
    two_steps = per_card * ((horrors if steps >= 1 else 0.0) +
                            (horrors_severe if steps_severe >= 1 else 0.0))
    three_steps = per_card * ((horrors if steps >= 2 else 0.0) +
                              (horrors_severe if steps_severe >= 2 else 0.0))
    rolls = float(effects[0, EFC.CAVE_IN_ROLLS])
    rolls_severe = float(effects[1, EFC.CAVE_IN_ROLLS])
    return HazardCosts(anywhere, gas, water, cave_in, cave_in_severe, rolls, rolls_severe,
                       horror_card * knock_out, knock_out, two_steps * knock_out,
                       three_steps * knock_out, horror_card,
                       cave_in_cost_nb(cave_in, cave_in_severe, rolls, rolls_severe, 2))


@njit(refcount=False, llvm_inline=True)
def count_sides_nb(mask):
    """Number of sides in a 4-bit side mask."""
    return (mask & 1) + ((mask >> 1) & 1) + ((mask >> 2) & 1) + ((mask >> 3) & 1)


@njit(refcount=False, llvm_inline=True)
def is_crossing_nb(tl, u):
    """Is tile ``u`` an unroped ledge or slide (leaving it may need a rope)?"""
    ty = tl[u, TFC.TYPE]
    return (ty == TILE.LEDGE or ty == TILE.SLIDE) and tl[u, TFC.ROPE] == 0


@njit(refcount=False)
def tile_cost_nb(tl, u, nh, cc):
    """Expected cost of the hazard phase on tile ``u`` from where it is and what it is.

    ``cc`` from ``hazard_costs_nb``; ``nh`` horrors in the cave (a horror tile spawns
    only while a piece is left). Horrors nearby are priced apart (``horror_cost_nb``).
    """
    cost = cc.anywhere
    ty = tl[u, TFC.TYPE]
    if ty == TILE.GAS:
        cost += cc.gas_tile
    elif ty == TILE.WATER:
        cost += cc.water_tile
    elif ty == TILE.CAVE_IN:
        if tl[u, TFC.RUBBLE] == 0:
            f = tl[u, TFC.FACES]
            nf = ((f >> 1) & 1) + ((f >> 2) & 1) + ((f >> 3) & 1) + ((f >> 4) & 1) + \
                ((f >> 5) & 1) + ((f >> 6) & 1)
            if nf == 2:
                cost += cc.two_faced_cave_in
            else:
                cost += cave_in_cost_nb(cc.cave_in, cc.cave_in_severe, cc.cave_in_rolls,
                                        cc.cave_in_severe_rolls, nf)
    elif ty == TILE.HORROR:
        if nh < MAX_HORRORS:
            cost += cc.horror_tile
    return cost


@njit(refcount=False)
def horror_cost_nb(packed, cc):
    """Cost of ending a turn at packed horror distance ``packed``.

    ``packed`` as ``horror_runway_nb`` packs it (-1 = no horror within reach): caught this
    round (one step, or two or three with a Horror card), chased next turn, and cornered
    (little room to back away from it).
    """
    if packed < 0:
        return 0.0
    steps = packed & STEP_MASK
    room = packed >> STEP_BITS
    cost = 0.0
    if steps <= CHASE_WITHIN:
        # it will chase: next turn goes on running
        cost += CHASE_COST * (CHASE_WITHIN + 1 - steps)
        if steps <= 1:
            cost += cc.horror_strike
        elif steps == 2:
            cost += cc.horror_two
        elif steps == 3:
            cost += cc.horror_three
    horizon = steps + room
    if horizon <= CORNERED_WITHIN:
        cost += (1.0 - horizon / (CORNERED_WITHIN + 1.0)) * cc.horror_strike
    return cost


@njit(refcount=False)
def horror_runway_nb(tl, nb, grid, hd, queue, tail):
    """Pack the room to back away from the nearest horror into ``hd``.

    ``hd`` holds the steps to the nearest horror, from a BFS listed in ``queue``; each
    tile gets the steps further from the horrors before a dead end, ``ROOM_OPEN`` when
    the way stays open (frontier to explore, or beyond the search): ``hd[u]`` becomes
    ``steps | room << STEP_BITS``.
    """
    for i in range(tail - 1, -1, -1):
        u = queue[i]
        steps = hd[u]
        room = 0
        if tl[u, TFC.OPEN] & tl[u, TFC.FREE]:
            room = ROOM_OPEN
        else:
            for d in range(4):
                v = nb[u, d]
                if v < 0:
                    continue
                next_packed = hd[v]
                if next_packed < 0:
                    room = ROOM_OPEN
                    break
                if (next_packed & STEP_MASK) == steps + 1:
                    next_room = (next_packed >> STEP_BITS) + 1
                    if next_room > room:
                        room = next_room if next_room < ROOM_OPEN else ROOM_OPEN
        hd[u] = steps | (room << STEP_BITS)


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
                cost += SPAWN_NEXT_DOOR * cc.horror_card  # a turn spent running
                break
    if with_horrors:
        cost += horror_cost_nb(hd[u], cc)
    return cost


@njit(refcount=False)
def crossing_mask_nb(tl, cv, c, u, here, m):
    """Sides of ``m`` an unroped ledge or slide lets the caver reveal through.

    Standing on it, those it may leave by; away from it, none for a ledge and the arrow
    side for a slide (the other end is where one comes in).
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


@njit(refcount=False, llvm_inline=True)
def revealable_sides_nb(tl, cv, c, u, here):
    """Sides of tile ``u`` caver ``c`` could reveal through (open, facing an empty cell).

    ``here``: the caver stands on ``u`` (see ``crossing_mask_nb``).
    """
    m = tl[u, TFC.OPEN] & tl[u, TFC.FREE]
    if m != 0 and is_crossing_nb(tl, u):
        m = crossing_mask_nb(tl, cv, c, u, here, m)
    return m


@njit(refcount=False, llvm_inline=True)
def free_sides_nb(tl, cv, c, u, here):
    """How many Reveals could be made from tile ``u`` (``revealable_sides_nb``)."""
    return count_sides_nb(revealable_sides_nb(tl, cv, c, u, here))


# --- the bots' memory: searches kept between decisions ---------------------------------
@njit(refcount=False)
def forget_nb(scratch):
    """Clear the kept searches and the team's rally plan before a game.

    The scratch rows are reused from game to game: column ``MEMO_COL`` of every row and
    the ``KEYS`` row. Writes ``scratch``.
    """
    for r in range(scratch.shape[0]):
        scratch[r, MEMO_COL] = -1
    for i in range(scratch.shape[1]):
        scratch[SCR.KEYS, i] = -1


@njit(refcount=False)
def forget_decision_nb(scratch):
    """Make the next decision search again (another bot's weights). Writes ``scratch``."""
    scratch[SCR.DIST2, MEMO_COL] = -1


KEY_HORROR = 0  # slots of the ``keys`` scratch row
KEY_RALLY = 1
KEY_EXIT = 2
KEY_PASS_COST = 3
KEY_HORROR_LAYOUT = 4  # the horror field's ``layout_key_nb``
KEY_HORROR_TILES = 5  # and the tiles laid when it was searched
KEY_PASS_LAYOUT = 6  # the pass costs' layout and step weights
KEY_PASS_TILES = 7  # and the tiles laid when they were filled


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
def layout_key_nb(gs):
    """Key of the cave but for the tiles laid this round (``cave_key_nb`` less them).

    While it holds, the tiles laid before stay as they were (a dig, rope or blast, or the
    rounds' horrors, floods and rubble change it) and new tiles are only added.
    """
    k = np.int64(17)
    for v in (gs[GFC.ROUND], gs[GFC.DIGS], gs[GFC.ROPES_PLACED], gs[GFC.EXPLOSIVES_USED]):
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


# --- routes ---------------------------------------------------------------------------
@njit(refcount=False, llvm_inline=True)
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
def fill_pass_costs_nb(tl, first, n, w_swim, w_sq, w_dig, node_cost, detour, detour_sides):
    """The steps a route pays through tiles ``first .. n-1`` (``goal_routes_nb``'s costs).

    Entering a flooded, squeeze or buried tile is worth more steps (``enter_weight_nb``),
    a tile a horror stands on HORROR_STEPS more (it will have moved on, but wait or go
    round); leaving an unroped ledge, or a slide against its arrow, ROPE_STEPS more (the
    detour, by the sides in ``detour_sides``). A tile's costs are its own: the rows of the
    other tiles are left as they are. Writes ``node_cost``, ``detour`` and
    ``detour_sides`` (int32 (MAX_TILES,)).
    """
    for a in range(first, n):
        w = enter_weight_nb(tl, a, w_swim, w_sq, w_dig)
        if tl[a, TFC.HORRORS] > 0:
            w += HORROR_STEPS
        node_cost[a] = w
        detour[a] = 0
        detour_sides[a] = 0
        if is_crossing_nb(tl, a):
            detour[a] = ROPE_STEPS
            detour_sides[a] = ALL_SIDES
            arrow = tl[a, TFC.ARROW]
            if tl[a, TFC.TYPE] == TILE.SLIDE and arrow >= 0:
                detour_sides[a] = ALL_SIDES & ~(1 << arrow)  # down the slide needs no rope


@njit(refcount=False, llvm_inline=True)
def kept_pass_costs_nb(tl, gs, scratch, n, route_key, w_swim, w_sq, w_dig):
    """The ``PASS_COST``, ``DETOUR`` and ``DETOUR_SIDES`` rows (``fill_pass_costs_nb``).

    Kept while the cave and the step weights stay the same (keyed by ``route_key``);
    while only tiles were laid since (``layout_key_nb``), only theirs are filled.
    Writes ``scratch``.
    """
    keys = scratch[SCR.KEYS]
    if keys[KEY_PASS_COST] == route_key:
        return
    keys[KEY_PASS_COST] = route_key
    layout = mix_key_nb(layout_key_nb(gs), w_swim + 16 * (w_sq + 16 * w_dig))
    first = keys[KEY_PASS_TILES]
    if keys[KEY_PASS_LAYOUT] != layout or first < 0 or first > n:
        first = 0
    keys[KEY_PASS_LAYOUT] = layout
    keys[KEY_PASS_TILES] = n
    fill_pass_costs_nb(tl, first, n, w_swim, w_sq, w_dig, scratch[SCR.PASS_COST],
                       scratch[SCR.DETOUR], scratch[SCR.DETOUR_SIDES])


@njit(refcount=False, llvm_inline=True)
def goal_search_nb(nb, scratch, n, dist, parent):
    """Steps from every tile to the nearest goal tile, routes priced by the tiles passed.

    ``dist`` holds each goal's starting steps (>= 0) and -1 elsewhere on entry; the
    pass-cost rows are filled (``kept_pass_costs_nb``). Writes ``dist``, ``parent``
    (next tile towards the goal) and the ``QUEUE`` and ``BLOCKED`` rows.
    """
    goal_routes_nb(nb, n, scratch[SCR.PASS_COST], scratch[SCR.DETOUR],
                   scratch[SCR.DETOUR_SIDES], dist, parent, scratch[SCR.QUEUE],
                   scratch[SCR.BLOCKED])


@njit(refcount=False, llvm_inline=True)
def is_hazard_tile_nb(tl, u):
    """Does tile ``u``'s own hazard strike at the hazard phase? A bad place to end a turn.

    Gas, water, a horror spawn, an unburied cave-in.
    """
    ty = tl[u, TFC.TYPE]
    return ty == TILE.GAS or ty == TILE.WATER or ty == TILE.HORROR or \
        (ty == TILE.CAVE_IN and tl[u, TFC.RUBBLE] == 0)


@njit(refcount=False, llvm_inline=True)
def in_play_nb(cv, o, ex):
    """Is caver ``o`` conscious, in the cave and off the exit (one the team waits for)?"""
    return cv[o, CFC.REMOVED] == 0 and cv[o, CFC.HP] > 0 and cv[o, CFC.TILE] != ex


@njit(refcount=False)
def rally_tile_nb(tl, nb, cv, gs, scratch, acc):
    """The rally tile: the frontier tile nearest the whole team.

    The frontier tile the conscious cavers off the exit can reach in the fewest steps
    all told (-1 if none). ``acc`` (int32 (MAX_TILES,), written) sums the steps. Writes
    the ``DIST``, ``PARENT``, ``QUEUE`` and ``BLOCKED`` rows.
    """
    n = gs[GFC.N_TILES]
    ex = gs[GFC.EXIT_TILE]
    dist = scratch[SCR.DIST]
    for u in range(n):
        acc[u] = 0
    k = 0
    for o in range(gs[GFC.N_CAVERS]):
        if not in_play_nb(cv, o, ex):
            continue
        k += 1
        for u in range(n):
            dist[u] = -1
        dist[cv[o, CFC.TILE]] = 0
        # steps back to the caver (the search runs towards a goal); close enough to choose
        # a meeting place
        goal_search_nb(nb, scratch, n, dist, scratch[SCR.PARENT])
        for u in range(n):
            acc[u] += dist[u] if dist[u] >= 0 else NO_ROUTE_STEPS
    if k == 0:
        return -1
    best = -1
    best_s = 1 << 30
    for u in range(n):
        if acc[u] >= best_s:
            continue
        ty = tl[u, TFC.TYPE]
        if ty == TILE.LEDGE or ty == TILE.SLIDE or is_hazard_tile_nb(tl, u):
            continue
        if tl[u, TFC.OPEN] & tl[u, TFC.FREE]:
            best_s = acc[u]
            best = u
    return best


@njit(refcount=False)
def frontier_within_nb(tl, n, rd, radius):
    """Whether a revealable tile lies within ``radius`` steps (``rd``) of the rally."""
    for u in range(n):
        if rd[u] < 0 or rd[u] > radius:
            continue
        if tl[u, TFC.OPEN] & tl[u, TFC.FREE]:
            return True
    return False


WINDOW_FADE = 0.15  # credit lost per step beyond the exit radius
WINDOW_FLOOR = 0.1  # a reveal far from the rally still counts this much


@njit(refcount=False)
def window_credit_nb(rd, radius):
    """How much a reveal counts, once the exit can be drawn, ``rd`` steps from the rally.

    Fully within ``radius``, then less and less (the exit would be far from the team).
    """
    if rd < 0:
        return WINDOW_FLOOR
    if rd <= radius:
        return 1.0
    f = 1.0 - WINDOW_FADE * (rd - radius)
    return f if f > WINDOW_FLOOR else WINDOW_FLOOR


@njit(refcount=False)
def pick_side_nb(tl, grid, cv, c, t, cx, cy, pull):
    """The side of the caver's tile to reveal through.

    The empty cell that would join the most tiles already laid (loops make shorter
    ways), pulled towards (cx, cy) by ``pull`` per grid step.
    """
    best = -1
    best_s = NO_VALUE
    op = tl[t, TFC.OPEN]
    crossing = is_crossing_nb(tl, t)
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
    q = d // RUN_STEPS
    r = d % RUN_STEPS
    cost = q * rc
    if r > 0:
        cost += min(r * mvc, rc)
    return cost


@njit(refcount=False, llvm_inline=True)
def plan_steps_nb(points, mvc, rc):
    """Plain steps within reach of ``points`` action points (at most MAX_PLAN_STEPS)."""
    steps = 0
    while move_ap_nb(steps + 1, mvc, rc) <= points and steps < MAX_PLAN_STEPS:
        steps += 1
    return steps


@njit(refcount=False)
def reachable_tiles_nb(tl, nb, cv, gs, c, n, maxd, dist, parent, queue):
    """Tiles caver ``c`` can reach by plain steps (Move/Run) this turn.

    Plain steps from caver ``c``'s tile, up to ``maxd``; returns the number of tiles
    reached, listed in ``queue`` (BFS order). Honours ledge/slide crossings; never enters
    a horror's, flooded, squeeze or buried tile; stops on rough terrain and active gas.
    Writes ``dist``, ``parent`` and ``queue``.

    Not ``core.paths.bfs_fill_nb``: which way a step may go depends on the caver (the
    side it entered its ledge by) and on the tile it leaves, so that kernel would need a
    filtered copy of the cave each decision, while this search stops after a few steps.
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
        crossing = is_crossing_nb(tl, u)
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
    n_horrors = gs[GFC.N_HORRORS]
    gas_on = gs[GFC.GAS_ACTIVE]
    rough_entry = risk * FAIL_CHANCE * hp_cost_nb(1, hp, lv)
    gas_entry = risk * hp_cost_nb(gas_on, hp, lv) if gas_on > 0 else 0.0
    for qi in range(n_reach):
        u = queue[qi]
        ty = tl[u, TFC.TYPE]
        end_cost = tile_cost_nb(tl, u, n_horrors, cc)
        # ways out of u (to flee a horror next turn)
        ways_out = 0
        spawn_next = False
        for d in range(4):
            v = nb[u, d]
            if v < 0:
                continue
            if tl[v, TFC.HORRORS] == 0 and tl[v, TFC.RUBBLE] == 0:
                ways_out += 1
            if n_horrors < MAX_HORRORS and tl[v, TFC.TYPE] == TILE.HORROR and \
                    tl[v, TFC.HORRORS] == 0:
                spawn_next = True
        sides = free_sides_nb(tl, cv, c, u, u == t) if can_reveal else 0
        buf[2, qi] = sides
        if is_crossing_nb(tl, u) and ways_out > 1:
            ways_out = 1
        trapped = ways_out + sides <= 1
        if spawn_next:
            end_cost += SPAWN_NEXT_DOOR * cc.horror_card  # a turn spent running
            if trapped:
                end_cost += TRAPPED_SHARE * cc.horror_tile
        end_cost += horror_cost_nb(hd[u], cc)
        buf[0, qi] = risk * end_cost
        entry_cost = 0.0
        if u != t:
            if ty == TILE.ROUGH:
                entry_cost = rough_entry
            elif ty == TILE.GAS:
                entry_cost = gas_entry
        buf[1, qi] = entry_cost


@njit(refcount=False)
def goal_steps_at_nb(tl, nb, phi, php, u, entry, w_swim, w_sq, w_dig):
    """Steps to the goal from ``u`` for a caver standing on it.

    The caver entered through side ``entry`` (-1 = free to leave any way): an unroped
    ledge or slide may force a rope. Elsewhere this is just ``phi[u]``.
    """
    ty = tl[u, TFC.TYPE]
    if not is_crossing_nb(tl, u) or entry < 0:
        return phi[u]
    best = -1
    for d in range(4):
        v = nb[u, d]
        if v < 0 or phi[v] < 0:
            continue
        steps = phi[v] + enter_weight_nb(tl, v, w_swim, w_sq, w_dig)
        if d != entry and not (ty == TILE.SLIDE and d == tl[u, TFC.ARROW]):
            steps += ROPE_STEPS
        if best < 0 or steps < best:
            best = steps
    if phi[u] >= 0 and php[u] < 0 and (best < 0 or phi[u] < best):
        best = phi[u]  # a goal itself
    return best


class TileMix(NamedTuple):
    """The unseen tile an Explore would land on: chances by kind, prices with ``risk``."""

    safe: float  # plain, squeeze or slide
    ledge: float
    rough: float
    water: float
    gas: float
    cave_in: float
    horror: float
    water_cost: float
    gas_cost: float
    cave_in_cost: float
    horror_cost: float
    rough_entry: float  # the rough terrain's check on entering
    gas_entry: float  # active gas on entering


NO_MIX = TileMix(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)


@njit(refcount=False)
def tile_mix_nb(gs, params, cc, hp, lv, risk, unseen):
    """Chances and prices of the unseen tile an Explore would land on (``TileMix``).

    From the tile mix still in the stack: the printed mix minus the tiles laid
    (``unseen`` is scratch, written).
    """
    mix = params.tile_mix
    for k in range(N_TILE_TYPES):
        n_left = mix[k] - gs[GFC.LAID + k]
        unseen[k] = n_left if n_left > 0 else 0
    total = 0.0
    for ty in range(TILE.PLAIN, N_TILE_TYPES):  # the cave tiles: not the start, not the exit
        total += unseen[ty]
    if total <= 0.0:
        total = 1.0
    horror_tile = cc.horror_tile if gs[GFC.N_HORRORS] < MAX_HORRORS else 0.0
    gas_entry = 0.0
    if gs[GFC.GAS_ACTIVE] > 0:
        gas_entry = risk * hp_cost_nb(gs[GFC.GAS_ACTIVE], hp, lv)
    return TileMix((unseen[TILE.PLAIN] + unseen[TILE.SQUEEZE] + unseen[TILE.SLIDE]) / total,
                   unseen[TILE.LEDGE] / total, unseen[TILE.ROUGH] / total,
                   unseen[TILE.WATER] / total, unseen[TILE.GAS] / total,
                   unseen[TILE.CAVE_IN] / total, unseen[TILE.HORROR] / total,
                   risk * cc.water_tile, risk * cc.gas_tile, risk * cc.two_faced_cave_in,
                   risk * horror_tile, risk * FAIL_CHANCE * hp_cost_nb(1, hp, lv), gas_entry)


@njit(refcount=False)
def explore_worth_nb(xm, points_left, tile_worth, base_cost, back, exit_chance):
    """Expected worth of an Explore.

    One tile, landing on an unseen tile (mix ``xm``, see ``tile_mix_nb``; ``base_cost`` =
    the price every landing tile shares, horrors near included), then the best of
    staying to reveal, stepping back (worth ``back``) or exploring on, with
    ``points_left`` points left; ``exit_chance`` the chance the tile is the exit.
    """
    landing_cost = base_cost + xm.water * xm.water_cost + xm.gas * xm.gas_cost + \
        xm.cave_in * xm.cave_in_cost + xm.horror * xm.horror_cost
    if points_left <= 0:
        worth = -landing_cost - xm.rough * xm.rough_entry - xm.gas * xm.gas_entry
    else:
        reveal_worth = REVEAL_AFTER_EXPLORE * tile_worth * \
            (1.0 + FURTHER_POINT * (points_left - 1))
        on = back  # the best of stepping back and exploring on
        again = tile_worth * (1.0 + FURTHER_POINT * (points_left - 1)) - landing_cost
        if again > on:
            on = again
        stay = reveal_worth - base_cost
        worth = (xm.safe + xm.rough) * max(stay, on) + xm.ledge * max(-base_cost, on)
        worth += xm.water * max(stay - xm.water_cost, on) + xm.gas * max(stay - xm.gas_cost, on)
        worth += xm.cave_in * max(stay - xm.cave_in_cost, on) + \
            xm.horror * max(stay - xm.horror_cost, on)
        worth -= xm.rough * xm.rough_entry + xm.gas * xm.gas_entry
    worth += tile_worth
    if exit_chance > 0.0:
        worth = (1.0 - exit_chance) * worth + \
            exit_chance * (tile_worth + EXIT_BONUS + EXIT_AFTER_EXPLORE)
    return worth


@njit(refcount=False)
def run_packed_nb(tl, t, path, steps):
    """Pack the first ``steps`` sides of ``path`` (from tile ``t``) for a Run."""
    packed = 0
    u = t
    for k in range(steps):
        v = path[k]
        packed |= (side_to_nb(tl, u, v) + 1) << (3 * k)
        u = v
    return packed


@njit(refcount=False)
def write_route_nb(parent, t, goal, path):
    """Write the route from ``t`` to ``goal`` into ``path``; return its length.

    The route follows ``parent`` back from ``goal``; its first step goes to ``path[0]``.
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


# --- step 1: the turn as the bot reads it -------------------------------------------------
class Turn(NamedTuple):
    """Caver ``caver``'s turn as its bot reads it before searching (``read_turn_nb``)."""

    caver: int
    tile: int
    exit_tile: int  # -1 while the exit is hidden
    n_tiles: int
    n_cavers: int
    health: int
    rounds_left: int  # hazard phases left before the end (0 once Out of Time has come)
    stack_left: int
    exit_window: int  # the stack position from which the exit may be drawn
    regroup: bool  # the exit is due soon: the team gathers round a rally tile
    in_window: bool  # the exit may be drawn now
    allow_rescue: bool
    swim_steps: int  # route steps worth entering a flooded, squeeze or buried tile
    squeeze_steps: int
    dig_steps: int
    buddy_x: float  # the buddy's grid position, pulled towards by ``cohesion`` (0: none)
    buddy_y: float
    cohesion: float


class ActionCosts(NamedTuple):
    """The action points caver ``c`` pays, by its board (``action_costs_nb``)."""

    move: int
    run: int
    heal: int
    swim: int
    squeeze: int
    dig: int
    rope: int
    hide: int
    blast: int  # the Engineer's explosives: the board's ability cost


@njit(refcount=False, llvm_inline=True)
def action_costs_nb(cv, c):
    """The action points caver ``c`` pays for each action (``ActionCosts``).

    As ``state.action_cost_nb``: the base cost, or the board's ability cost for the one
    action its ability cheapens (and for the Engineer's explosives).
    """
    ab = cv[c, CFC.ABILITY]
    ab_cost = np.int64(cv[c, CFC.AB_COST])
    cheap = CHEAPENS[ab] if ab > 0 else -1
    return ActionCosts(ab_cost if cheap == ACTION.MOVE else BASE_COST[ACTION.MOVE],
                       ab_cost if cheap == ACTION.RUN else BASE_COST[ACTION.RUN],
                       ab_cost if cheap == ACTION.HEAL else BASE_COST[ACTION.HEAL],
                       ab_cost if cheap == ACTION.SWIM else BASE_COST[ACTION.SWIM],
                       ab_cost if cheap == ACTION.SQUEEZE else BASE_COST[ACTION.SQUEEZE],
                       ab_cost if cheap == ACTION.DIG else BASE_COST[ACTION.DIG],
                       ab_cost if cheap == ACTION.ROPE else BASE_COST[ACTION.ROPE],
                       ab_cost if cheap == ACTION.HIDE else BASE_COST[ACTION.HIDE],
                       ab_cost)


@njit(refcount=False, llvm_inline=True)
def buddy_nb(tl, cv, gs, c, t, ex):
    """Caver ``c``'s buddy (-1: none).

    Cavers explore in pairs (seats 0+1, 2+3, ...), so that whoever reveals the exit has
    someone near; a caver whose partner is out of play pairs with the nearest other.
    """
    n_cav = gs[GFC.N_CAVERS]
    buddy = c ^ 1
    if buddy < n_cav and in_play_nb(cv, buddy, ex):
        return buddy
    buddy = -1
    best_bd = 1 << 30
    for o in range(n_cav):
        if o == c or not in_play_nb(cv, o, ex):
            continue
        to = cv[o, CFC.TILE]
        bd = abs(tl[to, TFC.X] - tl[t, TFC.X]) + abs(tl[to, TFC.Y] - tl[t, TFC.Y])
        if bd < best_bd:
            best_bd = bd
            buddy = o
    return buddy


@njit(refcount=False, llvm_inline=True)
def read_turn_nb(tl, cv, gs, params, c, costs, bp):
    """Caver ``c``'s turn as its bot reads it before any search (``Turn``).

    ``costs``: the caver's ``action_costs_nb``.
    """
    t = cv[c, CFC.TILE]
    ex = gs[GFC.EXIT_TILE]
    rounds_left = gs[GFC.DECK_N] - gs[GFC.DECK_POS] + 1
    if gs[GFC.OUT_OF_TIME] != 0:
        rounds_left = 0
    stack_pos = gs[GFC.STACK_POS]
    window = gs[GFC.STACK_N] - params.cfg[CFG.EXIT_DEPTH]
    regroup = ex < 0 and stack_pos >= window - bp[PARAM.REGROUP_FROM] and \
        bp[PARAM.REGROUP] > 0
    in_window = ex < 0 and stack_pos >= window
    allow_rescue = not (ex >= 0 and bp[PARAM.RUSH_EXIT] > 0)
    buddy = buddy_nb(tl, cv, gs, c, t, ex)
    buddy_x = 0.0
    buddy_y = 0.0
    cohesion = 0.0
    if buddy >= 0 and ex < 0:
        cohesion = bp[PARAM.COHESION]
        buddy_x = float(tl[cv[buddy, CFC.TILE], TFC.X])
        buddy_y = float(tl[cv[buddy, CFC.TILE], TFC.Y])
    # a tile entered by a swim or squeeze is worth a step and that action's points, a
    # buried one a step, the dig's points and the Move in
    swim_steps = 1 + costs.swim
    squeeze_steps = 1 + costs.squeeze
    dig_steps = 2 + costs.dig
    return Turn(np.int64(c), np.int64(t), ex, gs[GFC.N_TILES], gs[GFC.N_CAVERS],
                np.int64(cv[c, CFC.HP]), rounds_left, gs[GFC.STACK_N] - stack_pos, window,
                regroup, in_window, allow_rescue, swim_steps, squeeze_steps, dig_steps,
                buddy_x, buddy_y, cohesion)


# --- step 2: the goal and the searches towards it ----------------------------------------
@njit(refcount=False, llvm_inline=True)
def rally_pull_nb(bp, in_window):
    """Pull towards the rally tile per step away: doubled once the exit can be drawn."""
    return bp[PARAM.REGROUP] * (2.0 if in_window else 1.0)


@njit(refcount=False)
def laid_beyond_field_nb(tl, grid, hd, n0, n):
    """Do tiles ``n0 .. n-1``, laid since the horror field ``hd`` was searched, leave it be?

    True when no tile beside them (on the grid: a tile laid next door also closes its
    open side) lies within the field (``hd >= 0``). Then no way within
    HORROR_FIELD_DEPTH steps of a horror passes them (a tile beside them is further), no
    tile within it lost a side to back away through, and the field holds as it was, the
    new tiles outside it.
    """
    for w in range(n0, n):
        for d in range(4):
            u = grid[neighbour_cell_nb(tl, w, d)]
            if u >= 0 and u < n0 and hd[u] >= 0:
                return False
    return True


@njit(refcount=False, llvm_inline=True)
def kept_horror_field_nb(tl, nb, grid, hz, gs, scratch, n, cave):
    """Steps to the nearest horror and room to back away from it, in the ``HDIST`` row.

    The same for every caver until the cave changes, so it is kept, keyed by ``cave``
    in the ``KEYS`` row (cleared at every game start by ``forget_nb``); tiles laid since
    that leave it be (``laid_beyond_field_nb``) are added to it rather than searched
    again. -1: no horror within HORROR_FIELD_DEPTH steps. Writes ``scratch``.
    """
    keys = scratch[SCR.KEYS]
    if keys[KEY_HORROR] == cave:
        return
    keys[KEY_HORROR] = cave
    hd = scratch[SCR.HDIST]
    layout = layout_key_nb(gs)
    n0 = keys[KEY_HORROR_TILES]
    kept = keys[KEY_HORROR_LAYOUT] == layout and 0 <= n0 <= n
    keys[KEY_HORROR_LAYOUT] = layout
    keys[KEY_HORROR_TILES] = n
    if kept and laid_beyond_field_nb(tl, grid, hd, n0, n):
        for w in range(n0, n):
            hd[w] = -1
    elif gs[GFC.N_HORRORS] > 0:
        sources = scratch[SCR.PARENT]
        ns = 0
        for h in range(hz.shape[0]):
            if hz[h] >= 0:
                sources[ns] = hz[h]
                ns += 1
        queue = scratch[SCR.QUEUE]
        tail = bfs_multi_nb(nb, n, sources, ns, HORROR_FIELD_DEPTH, hd, queue)
        horror_runway_nb(tl, nb, grid, hd, queue, tail)
    else:
        for u in range(n):
            hd[u] = -1


@njit(refcount=False, llvm_inline=True)
def agreed_rally_nb(tl, nb, cv, gs, scratch, n, route_key, radius):
    """The team's rally tile once the exit is due (-1: none), steps to it in ``PATH``.

    When the exit is due, the team agrees on a rally tile and gathers round it, so that
    the exit is revealed where everyone is near: the frontier tile the conscious cavers
    reach in the fewest steps all told (``rally_tile_nb``), chosen once and remembered
    (the team's plan, in column ``MEMO_COL``), and chosen again when no frontier is left
    within ``radius`` steps of it. The steps to it are kept, keyed by ``route_key`` and
    the rally. Writes ``scratch``.
    """
    chosen = scratch[SCR.HDIST]  # MEMO_COL: 1 once the team has chosen
    memo = scratch[SCR.BLOCKED]  # MEMO_COL: the rally chosen (-1: none could be agreed)
    path = scratch[SCR.PATH]
    keys = scratch[SCR.KEYS]
    rally = -1
    if chosen[MEMO_COL] == 1 and memo[MEMO_COL] >= 0 and memo[MEMO_COL] < n:
        rally = memo[MEMO_COL]
    for attempt in range(2):
        if rally < 0:
            rally = rally_tile_nb(tl, nb, cv, gs, scratch, path)
            chosen[MEMO_COL] = 1
            memo[MEMO_COL] = rally
            keys[KEY_RALLY] = -1  # the search above used the ``path`` row
        if rally < 0:
            break
        key = mix_key_nb(route_key, rally)
        if keys[KEY_RALLY] != key:
            keys[KEY_RALLY] = key
            for u in range(n):
                path[u] = -1
            path[rally] = 0
            goal_search_nb(nb, scratch, n, path, scratch[SCR.PARENT])
        if attempt == 1 or frontier_within_nb(tl, n, path, radius):
            break
        rally = -1  # no frontier left near the rally: agree on another
    return rally


@njit(refcount=False, llvm_inline=True)
def exit_routes_nb(nb, gs, scratch, n, route_key):
    """Steps from every tile to the exit, into the goal rows (``DIST2``, ``PARENT2``).

    The search is the same for every caver with the same step weights until the cave
    changes: kept in the ``EXIT_*`` rows, keyed by ``route_key``. Writes ``scratch``.
    """
    exit_dist = scratch[SCR.EXIT_DIST]
    exit_next = scratch[SCR.EXIT_PARENT]
    keys = scratch[SCR.KEYS]
    if keys[KEY_EXIT] != route_key:
        keys[KEY_EXIT] = route_key
        for u in range(n):
            exit_dist[u] = -1
        exit_dist[gs[GFC.EXIT_TILE]] = 0
        goal_search_nb(nb, scratch, n, exit_dist, exit_next)
    phi = scratch[SCR.DIST2]
    php = scratch[SCR.PARENT2]
    for u in range(n):
        phi[u] = exit_dist[u]
        php[u] = exit_next[u]


@njit(refcount=False, llvm_inline=True)
def rounds_to_walk_nb(steps):
    """Rounds to walk ``steps`` route steps: RUN_STEPS a round, and a round of slack."""
    return (steps + RUN_STEPS - 1) // RUN_STEPS + 1


@njit(refcount=False, llvm_inline=True)
def is_nearest_rescuer_nb(cv, gs, dist, c):
    """Is caver ``c`` the nearest conscious caver by ``dist``?

    Ties go to the Medic (who heals two), then to the lower seat.
    """
    ex = gs[GFC.EXIT_TILE]
    mine = dist[cv[c, CFC.TILE]] * 2 - (1 if cv[c, CFC.ABILITY] == ABILITY.EXTRA_HEAL else 0)
    for q in range(gs[GFC.N_CAVERS]):
        if q == c or cv[q, CFC.REMOVED] != 0 or cv[q, CFC.HP] <= 0:
            continue
        tq = cv[q, CFC.TILE]
        if tq == ex or dist[tq] < 0:
            continue
        theirs = dist[tq] * 2 - (1 if cv[q, CFC.ABILITY] == ABILITY.EXTRA_HEAL else 0)
        if theirs < mine or (theirs == mine and q < c):
            return False
    return True


@njit(refcount=False, llvm_inline=True)
def rescue_routes_nb(tl, nb, cv, gs, scratch, turn, rescue_range):
    """Head for a knocked-out caver this caver is the nearest rescuer of?

    The first such caver within ``rescue_range`` steps, when there is time left to
    reach it and then the exit: the steps to it go into the goal rows (``DIST2``,
    ``PARENT2``) and the answer is True. Writes ``scratch``.
    """
    n = turn.n_tiles
    c = turn.caver
    t = turn.tile
    ex = turn.exit_tile
    dist = scratch[SCR.DIST]
    parent = scratch[SCR.PARENT]
    phi = scratch[SCR.DIST2]
    php = scratch[SCR.PARENT2]
    for o in range(turn.n_cavers):
        if o == c or cv[o, CFC.REMOVED] != 0 or cv[o, CFC.HP] > 0:
            continue
        ko_tile = cv[o, CFC.TILE]
        if ko_tile == ex:
            continue
        # every step costs at least 1 and moves one cell: too far by the grid alone
        # is too far by the search (which would find my_d > rescue_range below)
        if abs(tl[ko_tile, TFC.X] - tl[t, TFC.X]) + \
                abs(tl[ko_tile, TFC.Y] - tl[t, TFC.Y]) > rescue_range:
            continue
        d_ex = phi[ko_tile] if ex >= 0 else 0  # the goal rows hold the exit's routes
        # every step costs at least 1: a caver more than ``rescue_range`` steps away on
        # the map is more than that by the search too (most rescues end here, cheaply)
        parent[0] = ko_tile
        bfs_multi_nb(nb, n, parent, 1, int(rescue_range), dist, scratch[SCR.QUEUE])
        if dist[t] < 0:
            continue
        for u in range(n):
            dist[u] = -1
        dist[ko_tile] = 0
        goal_search_nb(nb, scratch, n, dist, parent)
        my_d = dist[t]
        if my_d < 0 or my_d > rescue_range:
            continue
        if not is_nearest_rescuer_nb(cv, gs, dist, c):
            continue
        if ex >= 0:
            if d_ex < 0:
                continue
            if rounds_to_walk_nb(my_d) + rounds_to_walk_nb(d_ex) > turn.rounds_left:
                continue
        for u in range(n):
            phi[u] = dist[u]
            php[u] = parent[u]
        return True
    return False


@njit(refcount=False)
def frontier_goals_nb(tl, cv, gs, c, t, start, rally_steps, pull, near_others, buddy_x,
                      buddy_y, cohesion):
    """Mark the frontier tiles as goals in ``start`` (starting steps; -1 = not a goal).

    A tile is a goal when a Reveal can be made from it. Goals cost a step more when the
    tile is a bad place to end a turn, more when other cavers already stand there to
    reveal or next to it (``near_others`` = steps to the nearest other caver), and
    ``pull`` per step from the rally tile (``rally_steps``, -1 = none), ``cohesion`` per
    grid step beyond BUDDY_SLACK from the buddy (``buddy_x``, ``buddy_y``). Returns
    whether any goal exists.
    """
    n = gs[GFC.N_TILES]
    n_cav = gs[GFC.N_CAVERS]
    any_goal = False
    for u in range(n):
        m = revealable_sides_nb(tl, cv, c, u, u == t)
        if m == 0:
            start[u] = -1
            continue
        sides = count_sides_nb(m)
        steps = 0
        if is_hazard_tile_nb(tl, u):
            steps += BAD_END_STEPS
        if u != t:
            others = 0
            for o in range(n_cav):
                if o != c and cv[o, CFC.TILE] == u and cv[o, CFC.REMOVED] == 0 and \
                        cv[o, CFC.HP] > 0:
                    others += 1
            if others > 0:
                steps += CROWDED_STEPS if sides <= 2 * others else NEAR_STEPS
            elif near_others[u] == 1:
                steps += NEAR_STEPS
        if pull > 0.0 and rally_steps[u] > 0:
            steps += int(pull * rally_steps[u])
        if cohesion > 0.0:
            far = abs(tl[u, TFC.X] - buddy_x) + abs(tl[u, TFC.Y] - buddy_y) - BUDDY_SLACK
            if far > 0.0:
                steps += int(cohesion * far)
        start[u] = steps
        any_goal = True
    return any_goal


@njit(refcount=False, llvm_inline=True)
def frontier_routes_nb(tl, nb, cv, gs, scratch, turn, pull):
    """Steps from every tile to the frontier (``frontier_goals_nb``), into the goal rows.

    None while the stack is empty (nothing left to reveal). Writes ``scratch``.
    """
    n = turn.n_tiles
    c = turn.caver
    phi = scratch[SCR.DIST2]
    any_goal = False
    if turn.stack_left > 0:
        # steps to the nearest other caver (0 or 1 is all that matters)
        others = scratch[SCR.PARENT]
        near = scratch[SCR.DIST]
        ns = 0
        for o in range(turn.n_cavers):
            if o != c and in_play_nb(cv, o, turn.exit_tile):
                others[ns] = cv[o, CFC.TILE]
                ns += 1
        if ns > 0:
            bfs_multi_nb(nb, n, others, ns, 1, near, scratch[SCR.QUEUE])
        else:
            for u in range(n):
                near[u] = -1
        any_goal = frontier_goals_nb(tl, cv, gs, c, turn.tile, phi, scratch[SCR.PATH], pull,
                                     near, turn.buddy_x, turn.buddy_y, turn.cohesion)
    else:
        for u in range(n):
            phi[u] = -1
    if any_goal:
        goal_search_nb(nb, scratch, n, phi, scratch[SCR.PARENT2])


@njit(refcount=False)
def goal_searches_nb(tl, nb, grid, cv, hz, gs, scratch, turn, bp):
    """The searches of a decision; returns ``(goal, rally)`` (``GOAL``; -1: no rally).

    The steps to the nearest horror and room to back away (``HDIST`` row), the rally
    tile once the exit is due (``PATH`` row: steps to it), the goal (a knocked-out caver
    to rescue, the exit, or the frontier) and the steps from every tile to it (``DIST2``
    / ``PARENT2`` rows). Writes ``scratch``.
    """
    n = turn.n_tiles
    # routes depend on the cave and on the step weights of the caver's board
    cave = cave_key_nb(gs)
    route_key = mix_key_nb(cave, turn.swim_steps + 16 * (turn.squeeze_steps + 16 *
                                                          turn.dig_steps))
    kept_pass_costs_nb(tl, gs, scratch, n, route_key, turn.swim_steps, turn.squeeze_steps,
                       turn.dig_steps)
    kept_horror_field_nb(tl, nb, grid, hz, gs, scratch, n, cave)
    rally = -1
    if turn.regroup:
        rally = agreed_rally_nb(tl, nb, cv, gs, scratch, n, route_key,
                                bp[PARAM.EXIT_RADIUS])
    pull = 0.0
    if rally >= 0:
        pull = rally_pull_nb(bp, turn.in_window)
    goal = GOAL.FRONTIER
    if turn.exit_tile >= 0:
        exit_routes_nb(nb, gs, scratch, n, route_key)
        goal = GOAL.EXIT
    if turn.allow_rescue and bp[PARAM.RESCUE_RANGE] > 0 and \
            rescue_routes_nb(tl, nb, cv, gs, scratch, turn, bp[PARAM.RESCUE_RANGE]):
        goal = GOAL.RESCUE
    if goal == GOAL.FRONTIER:
        frontier_routes_nb(tl, nb, cv, gs, scratch, turn, pull)
    return goal, rally


@njit(refcount=False, llvm_inline=True)
def kept_goal_searches_nb(tl, nb, grid, cv, hz, gs, scratch, turn, bp):
    """``goal_searches_nb``, kept for the rest of the caver's turn while nothing changes.

    The searches depend on the cave, the pieces and the goal, not on where this caver
    stands: within a turn they hold until a tile is laid or a dig, rope, blast or heal
    changes things (``decision_key_nb``; a caver on a ledge or slide also by its tile),
    so they are kept in the scratch rows and reused, the key and the result in column
    ``MEMO_COL``. Writes ``scratch``.
    """
    kept_key = scratch[SCR.DIST2]
    kept_goal = scratch[SCR.PARENT2]
    t = turn.tile
    ty = tl[t, TFC.TYPE]
    key = decision_key_nb(gs, turn.caver, t if (ty == TILE.LEDGE or ty == TILE.SLIDE) else -1)
    if kept_key[MEMO_COL] == key:
        packed = kept_goal[MEMO_COL]
        return packed & 3, (packed >> 2) - 1
    goal, rally = goal_searches_nb(tl, nb, grid, cv, hz, gs, scratch, turn, bp)
    kept_key[MEMO_COL] = key
    kept_goal[MEMO_COL] = goal | ((rally + 1) << 2)
    return goal, rally


# --- step 3: the prices and weights of the plans ------------------------------------------
class Outlook(NamedTuple):
    """What a caver weighs as it plans the rest of its turn (``read_outlook_nb``)."""

    goal: int
    rally: int
    points: int  # action points left
    max_points: int  # with the exert point while it is unused
    may_exert: bool
    exert_to_explore: bool  # may exert for a reveal (the exit and safety always may)
    exert_price: float  # a failed exert check's expected cost plus the margin asked
    tile_worth: float
    goal_weight: float  # cost per step between the turn's end and the goal
    can_reveal: bool  # the stack is not empty
    exit_chance: float  # the next tile drawn is the exit
    risk: float
    hazard_base: float  # the hazard price every tile shares, with ``risk``
    reveals_here: int
    end_cost_here: float
    goal_steps_here: int
    heal_amount: int
    use_window: bool  # reveals count by their steps from the rally (the exit is due)
    radius: float
    credit_here: float  # what a reveal here counts for
    rally_weight: float  # cost per step from the rally tile
    medic_tile: int
    medic_bonus: float


@njit(refcount=False, llvm_inline=True)
def tile_worth_nb(turn, gs, bp):
    """The worth of revealing a tile while exploring.

    A tile is worth more when the tiles still to draw before the exit crowd the rounds
    left (keeping GATHER_ROUNDS rounds to gather at the exit).
    """
    need = turn.exit_window - gs[GFC.STACK_POS]
    if need < 0:
        need = 0
    avail = turn.rounds_left - GATHER_ROUNDS
    if avail < 1:
        avail = 1
    rate = (need + TILES_MARGIN) / avail / TILES_PER_ROUND
    if rate < PACE_MIN:
        rate = PACE_MIN
    elif rate > PACE_MAX:
        rate = PACE_MAX
    return bp[PARAM.TILE_VALUE] * rate


@njit(refcount=False, llvm_inline=True)
def urgency_nb(steps, rounds_left, bp):
    """Factor on the goal weight as the rounds run out (1: no hurry, at most URGENCY_MAX).

    The rounds the walk to the exit (or a rescue) needs, with ``exit_margin`` rounds of
    margin, against the rounds left.
    """
    urg = (steps / STEPS_PER_ROUND + bp[PARAM.EXIT_MARGIN]) / \
        (rounds_left if rounds_left > 0 else LAST_ROUND)
    if urg > 1.0:
        return urg if urg < URGENCY_MAX else URGENCY_MAX
    return 1.0


@njit(refcount=False, llvm_inline=True)
def medic_nb(cv, gs, c, hp, lv):
    """``(tile, bonus)``: a wounded caver does well to end its turn beside the Medic.

    The Medic heals two; ending on its tile is worth MEDIC_SHARE of the points it would
    give back (tile -1: no Medic, or not wounded).
    """
    medic_t = -1
    medic_bonus = 0.0
    if hp <= WOUNDED_AT and hp < cv[c, CFC.MAXHP] and cv[c, CFC.ABILITY] != ABILITY.EXTRA_HEAL:
        ex = gs[GFC.EXIT_TILE]
        for o in range(gs[GFC.N_CAVERS]):
            if o != c and cv[o, CFC.ABILITY] == ABILITY.EXTRA_HEAL and in_play_nb(cv, o, ex):
                medic_t = cv[o, CFC.TILE]
                top = hp + cv[o, CFC.AB_VALUE]
                if top > cv[c, CFC.MAXHP]:
                    top = cv[c, CFC.MAXHP]
                for lvl in range(hp + 1, top + 1):
                    medic_bonus += MEDIC_SHARE * point_worth_nb(lv, lvl)
    return medic_t, medic_bonus


@njit(refcount=False, llvm_inline=True)
def read_outlook_nb(tl, nb, cv, gs, scratch, buf, turn, goal, rally, ap, exerted, cc, lv, bp):
    """The prices and weights the plans are scored with (``Outlook``).

    ``buf`` holds the facts of the reachable tiles (``tile_facts_nb``; this tile first).
    """
    c = turn.caver
    t = turn.tile
    hp = turn.health
    risk = bp[PARAM.RISK]
    exploring = goal == GOAL.FRONTIER
    tile_worth = tile_worth_nb(turn, gs, bp) if exploring else 0.0
    goal_weight = bp[PARAM.WORK_WEIGHT] if exploring else bp[PARAM.EXIT_WEIGHT]
    exit_chance = 0.0
    if turn.exit_tile < 0 and gs[GFC.STACK_POS] >= turn.exit_window and turn.stack_left > 0:
        exit_chance = 1.0 / turn.stack_left
    # a failed exert check at 1 health knocks the caver out: at 1 health exert only to
    # step onto the exit (where the check costs nothing, ST-149) or when time is up anyway
    may_exert = not exerted and (hp >= 2 or bp[PARAM.EXERT_AT_ONE_HEALTH] > 0 or
                                 turn.rounds_left <= 1)
    exert_to_explore = bp[PARAM.EXERT_TO_EXPLORE] > 0 and hp >= bp[PARAM.EXERT_MIN_HEALTH]
    exert_price = risk * FAIL_CHANCE * hp_cost_nb(1, hp, lv) + \
        (bp[PARAM.EXERT_MARGIN] if exploring else 0.0)
    goal_steps_here = goal_steps_at_nb(tl, nb, scratch[SCR.DIST2], scratch[SCR.PARENT2], t,
                                       np.int64(cv[c, CFC.SIDE]), turn.swim_steps,
                                       turn.squeeze_steps, turn.dig_steps)
    if not exploring and goal_steps_here >= 0:
        goal_weight *= urgency_nb(goal_steps_here, turn.rounds_left, bp)
    heal_amount = cv[c, CFC.AB_VALUE] if cv[c, CFC.ABILITY] == ABILITY.EXTRA_HEAL else 1
    # once the exit can be drawn, reveals count only near the rally tile; before that the
    # team drifts towards it
    use_window = exploring and rally >= 0 and turn.in_window
    radius = bp[PARAM.EXIT_RADIUS]
    credit_here = window_credit_nb(scratch[SCR.PATH, t], radius) if use_window else 1.0
    rally_weight = RALLY_IN_PLAN * rally_pull_nb(bp, turn.in_window) \
        if exploring and rally >= 0 else 0.0
    medic_t, medic_bonus = medic_nb(cv, gs, c, hp, lv)
    return Outlook(goal, rally, ap, ap + (0 if exerted else 1), may_exert, exert_to_explore,
                   exert_price, tile_worth, goal_weight, turn.stack_left > 0, exit_chance,
                   risk, cc.anywhere * risk, int(buf[2, 0]), buf[0, 0], goal_steps_here,
                   heal_amount, use_window, radius, credit_here, rally_weight, medic_t,
                   medic_bonus)


# --- step 4: the plans ----------------------------------------------------------------
NO_CAP = 99  # reveals a plan may count: no limit


@njit(refcount=False, llvm_inline=True)
def goal_steps_after_nb(goal, steps, sides_left, revealed, otherwise):
    """Steps to the goal a plan is charged at the turn's end.

    Heading for the exit or a rescue: ``steps``. Exploring, a caver that still has a
    side to reveal where it ends is at the frontier (0), one that has just revealed the
    last is a step from it (1); else ``otherwise``.
    """
    if goal != GOAL.FRONTIER:
        return steps
    if sides_left > 0:
        return 0.0
    if revealed > 0:
        return 1.0
    return otherwise


@njit(refcount=False, llvm_inline=True)
def plan_nb(value, kind, tile, arg, exert):
    """A ``Plan`` with its fields in their own types (so every plan has one type)."""
    return Plan(float(value), np.int64(kind), np.int64(tile), np.int64(arg), np.int64(exert))


@njit(refcount=False, llvm_inline=True)
def reveal_plan_nb(best, look, u, exert, first, k0, du, left, sides_left, steps, credit, cap,
                   end_cost, entry_cost, exert_price, team_pull):
    """Reveal ``k0`` tiles here, walk to ``u``, reveal there, end the turn on ``u``.

    ``left`` points are left after the walk. Returns the better of it and ``best``.
    """
    k1 = left if left < sides_left else sides_left
    if k1 < 0:
        k1 = 0
    # having revealed before walking, the caver is at most its walk from the frontier
    otherwise = steps
    if k0 > 0:
        otherwise = steps if steps < du + 1 else float(du + 1)
    after = goal_steps_after_nb(look.goal, steps, sides_left - k1, k1, otherwise)
    counted = k0 * look.credit_here + k1 * credit
    if counted > cap:
        counted = cap
    val = look.tile_worth * counted - end_cost - look.goal_weight * after - entry_cost - \
        exert_price - team_pull
    kind = first if first != PLAN.END else (PLAN.REVEAL if k1 > 0 else PLAN.END)
    return better_plan_nb(best, val, kind, u, 0, exert)


@njit(refcount=False, llvm_inline=True)
def explore_plan_nb(best, look, xm, u, t, exert, left, sides_left, steps, credit,
                    explore_base, end_cost, entry_cost, exert_price, team_pull, bp):
    """Walk to ``u`` and Explore from it (``explore_worth_nb``); the better plan."""
    r1 = left - 1
    back = NO_VALUE
    if r1 >= 1:
        kb = r1 - 1
        if kb > sides_left - 1:
            kb = sides_left - 1
        after = goal_steps_after_nb(look.goal, steps, sides_left - 1 - kb, 1, steps)
        back = look.tile_worth * kb - end_cost - look.goal_weight * after
    val = explore_worth_nb(xm, r1, look.tile_worth * credit, explore_base, back,
                           look.exit_chance) - entry_cost - exert_price + \
        bp[PARAM.EXPLORE_BIAS] - team_pull
    if look.goal != GOAL.FRONTIER:
        val -= look.goal_weight * (steps + 1.0)
    return better_plan_nb(best, val, PLAN.GOTO if u != t else PLAN.EXPLORE, u, 0, exert)


@njit(refcount=False, llvm_inline=True)
def heal_plan_nb(best, cv, gs, turn, look, lv, bp, u, exert, first, k0, left, heal_cost,
                 sides_left, steps, credit, cap, end_cost, entry_cost, exert_price,
                 team_pull):
    """Walk to ``u``, heal a caver there (itself included), reveal with what is left."""
    k2 = left - heal_cost
    if k2 > sides_left:
        k2 = sides_left
    if k2 < 0:
        k2 = 0
    after = goal_steps_after_nb(look.goal, steps, sides_left - k2, k2, steps)
    counted = k0 * look.credit_here + k2 * credit
    if counted > cap:
        counted = cap
    rest = look.tile_worth * counted - end_cost - look.goal_weight * after - entry_cost - \
        exert_price - team_pull
    c = turn.caver
    for o in range(turn.n_cavers):
        if cv[o, CFC.REMOVED] != 0 or cv[o, CFC.TILE] != u:
            continue
        ho = cv[o, CFC.HP]
        mo = cv[o, CFC.MAXHP]
        if ho >= mo:
            continue
        if o == c:
            if turn.health > bp[PARAM.HEAL_AT]:
                continue
        elif ho == 0:
            if not turn.allow_rescue:
                continue
        elif ho > bp[PARAM.HEAL_AT] and look.heal_amount < 2:
            continue  # a caver above ``heal_at`` is worth only the Medic's heal of two
        top = ho + look.heal_amount
        if top > mo:
            top = mo
        hv = 0.0
        for lvl in range(ho + 1, top + 1):
            hv += point_worth_nb(lv, lvl)
        if ho == 0:
            hv += BACK_ON_FEET
        best = better_plan_nb(best, hv + rest, first if first != PLAN.END else PLAN.HEAL, u,
                              o, exert)
    return best


@njit(refcount=False, llvm_inline=True)
def entry_plans_nb(best, tl, nb, cv, gs, scratch, turn, look, costs, cc, lv, u, steps_points,
                   exert, steps_on, end_cost, entry_cost, exert_price, team_pull):
    """From ``u``, dig out, swim or squeeze into a neighbour.

    ``u`` is walked to with ``steps_points``. Returns the better of those plans and
    ``best``.
    """
    t = turn.tile
    points = look.points + exert
    phi = scratch[SCR.DIST2]
    path = scratch[SCR.PATH]
    hd = scratch[SCR.HDIST]
    parent = scratch[SCR.PARENT]
    risk = look.risk
    # on an unroped ledge or slide walked to, the caver stands at the side it came in by
    crossing = u != t and is_crossing_nb(tl, u)
    for d in range(4):
        v = nb[u, d]
        if v < 0 or tl[v, TFC.HORRORS] > 0:
            continue
        if tl[v, TFC.RUBBLE] == 0 and tl[v, TFC.FLOOD] == 0 and tl[v, TFC.TYPE] != TILE.SQUEEZE:
            continue  # a plain step: ``plans_from_tile_nb``'s
        if u == t:
            if not can_leave_nb(tl, cv, turn.caver, d):
                continue
        elif crossing and v != parent[u] and not (
                tl[u, TFC.TYPE] == TILE.SLIDE and d == tl[u, TFC.ARROW]):
            continue
        pv = phi[v]
        if pv < 0:
            continue
        v_pull = 0.0
        if look.rally_weight > 0.0:
            v_pull = look.rally_weight * (path[v] if path[v] >= 0 else UNREACHABLE_STEPS)
        if tl[v, TFC.RUBBLE] != 0:
            # dig from u and end there, or dig and step in
            if steps_points + costs.dig > points:
                continue
            after = float(min(steps_on, pv + 1)) if steps_on >= 0 else float(pv + 1)
            val = -end_cost - look.goal_weight * after - exert_price - entry_cost - team_pull
            if steps_points + costs.dig + costs.move <= points and v != turn.exit_tile:
                end_v = risk * end_cost_nb(tl, nb, gs, hd, v, cc, True)
                if tl[v, TFC.TYPE] == TILE.GAS and gs[GFC.GAS_ACTIVE] > 0:
                    end_v += risk * hp_cost_nb(gs[GFC.GAS_ACTIVE], turn.health, lv)
                val_in = -end_v - look.goal_weight * float(pv) - exert_price - entry_cost - \
                    v_pull
                if val_in > val:
                    val = val_in
            best = better_plan_nb(best, val, PLAN.DIG if u == t else PLAN.GOTO,
                                  v if u == t else u, 0, exert)
        elif tl[v, TFC.FLOOD] != 0 or tl[v, TFC.TYPE] == TILE.SQUEEZE:
            # swim or squeeze into v, and reveal there with the points left
            swim = tl[v, TFC.FLOOD] != 0
            cost = costs.swim if swim else costs.squeeze
            if steps_points + cost > points:
                continue
            left = points - steps_points - cost
            sides = free_sides_nb(tl, cv, turn.caver, v, False) if look.can_reveal else 0
            revealed = float(left if left < sides else sides)
            if look.use_window:
                revealed = revealed * window_credit_nb(path[v], look.radius)
            after = goal_steps_after_nb(look.goal, float(pv), sides - revealed, revealed,
                                        float(pv))
            if v == turn.exit_tile:
                val = EXIT_BONUS - entry_cost
            else:
                end_v = risk * end_cost_nb(tl, nb, gs, hd, v, cc, True)
                val = look.tile_worth * revealed - end_v - look.goal_weight * after - \
                    exert_price - entry_cost - v_pull
            if u == t:
                best = better_plan_nb(best, val, PLAN.SWIM if swim else PLAN.SQUEEZE, v, d,
                                      exert)
            else:
                best = better_plan_nb(best, val, PLAN.GOTO, u, 0, exert)
    return best


@njit(refcount=False, llvm_inline=True)
def plans_from_tile_nb(best, tl, nb, cv, gs, scratch, buf, qi, turn, look, costs, cc, lv,
                       xm, bp):
    """Every plan that walks to the ``qi``-th tile within reach (this tile first).

    Reveal here first or not, exert or not; then reveal there, explore, heal, or dig,
    swim or squeeze on. Returns the better of the best of them and ``best``.
    """
    queue = scratch[SCR.QUEUE]
    path = scratch[SCR.PATH]
    t = turn.tile
    u = queue[qi]
    du = scratch[SCR.DIST, u]
    steps_points = 0 if u == t else move_ap_nb(du, costs.move, costs.run)
    if steps_points > look.max_points:
        return best
    entry_cost = buf[1, qi]
    if u == turn.exit_tile:
        if look.goal != GOAL.RESCUE:
            best = better_plan_nb(best, EXIT_BONUS - entry_cost, PLAN.GOTO, u, 0,
                                  0 if steps_points <= look.points else 1)
        return best
    end_cost = buf[0, qi]
    sides_there = int(buf[2, qi])
    # steps to the goal from u (an unroped ledge or slide counts the side walked in by)
    if u == t:
        steps_on = look.goal_steps_here
    else:
        steps_on = scratch[SCR.DIST2, u]
        if is_crossing_nb(tl, u):
            steps_on = goal_steps_at_nb(tl, nb, scratch[SCR.DIST2], scratch[SCR.PARENT2], u,
                                        side_to_nb(tl, u, scratch[SCR.PARENT, u]),
                                        turn.swim_steps, turn.squeeze_steps, turn.dig_steps)
    steps = float(steps_on) if steps_on >= 0 else UNREACHABLE_STEPS
    # the team's pulls: towards the rally, the buddy and the Medic
    team_pull = 0.0
    if look.rally_weight > 0.0:
        team_pull = look.rally_weight * (path[u] if path[u] >= 0 else UNREACHABLE_STEPS)
    if turn.cohesion > 0.0:
        far = abs(tl[u, TFC.X] - turn.buddy_x) + abs(tl[u, TFC.Y] - turn.buddy_y) - BUDDY_SLACK
        if far > 0.0:
            team_pull += COHESION_IN_PLAN * turn.cohesion * far
    if u == look.medic_tile:
        team_pull -= look.medic_bonus
    credit = 1.0
    if look.use_window:
        credit = window_credit_nb(path[u], look.radius)
    # an Explore lands a step further from the horrors, on a tile with open ways on
    explore_base = look.hazard_base
    hd = scratch[SCR.HDIST, u]
    if hd >= 0:
        explore_base += look.risk * horror_cost_nb(
            (hd & STEP_MASK) + 1 + (ROOM_OPEN << STEP_BITS), cc)
    n_heal = 0
    for o in range(turn.n_cavers):
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
    for exert in range(2):
        if exert == 1 and not look.may_exert:
            break
        points = look.points + exert
        if steps_points > points:
            continue
        exert_price = look.exert_price if exert == 1 else 0.0
        # the exert point pays for a reveal only with ``exert_to_explore``
        cap = NO_CAP
        if exert == 1 and not look.exert_to_explore:
            cap = look.points - steps_points
            if cap < 0:
                cap = 0
        most_here = look.reveals_here if u != t else 0
        if most_here > points - steps_points:
            most_here = points - steps_points
        for k0 in range(most_here + 1):  # reveals here before walking
            left = points - steps_points - k0
            first = PLAN.REVEAL if k0 > 0 else (PLAN.GOTO if u != t else PLAN.END)
            sides_left = sides_there - k0 if u == t else sides_there
            best = reveal_plan_nb(best, look, u, exert, first, k0, du, left, sides_left, steps,
                                  credit, cap, end_cost, entry_cost, exert_price, team_pull)
            if look.can_reveal and k0 == 0 and left >= 1 and sides_left >= 1 and \
                    (exert == 0 or look.exert_to_explore or steps_points + 1 <= look.points):
                best = explore_plan_nb(best, look, xm, u, t, exert, left, sides_left, steps,
                                       credit, explore_base, end_cost, entry_cost,
                                       exert_price, team_pull, bp)
            if n_heal > 0 and left >= costs.heal:
                best = heal_plan_nb(best, cv, gs, turn, look, lv, bp, u, exert, first, k0,
                                    left, costs.heal, sides_left, steps, credit, cap,
                                    end_cost, entry_cost, exert_price, team_pull)
        if n_special > 0:
            best = entry_plans_nb(best, tl, nb, cv, gs, scratch, turn, look, costs, cc, lv, u,
                                  steps_points, exert, steps_on, end_cost, entry_cost,
                                  exert_price, team_pull)
    return best


@njit(refcount=False, llvm_inline=True)
def plans_here_nb(best, tl, nb, grid, cv, gs, scratch, turn, look, costs, cc, bp, exert):
    """The plans on the caver's own tile with ``exert`` (0/1) extra points.

    A rope across the ledge or slide it stands on, hiding from a horror, the Engineer's
    explosives. Returns the better of them and ``best``.
    """
    c = turn.caver
    t = turn.tile
    phi = scratch[SCR.DIST2]
    hd = scratch[SCR.HDIST]
    points = look.points + exert
    exert_price = look.exert_price if exert == 1 else 0.0
    steps_here = float(look.goal_steps_here) if look.goal_steps_here >= 0 else \
        UNREACHABLE_STEPS
    ty = tl[t, TFC.TYPE]
    # a rope across the ledge or slide this caver stands on (the check may fail)
    if is_crossing_nb(tl, t) and gs[GFC.ROPES_LEFT] > 0 and costs.rope <= points:
        for d in range(4):
            if not needs_rope_nb(tl, cv, c, d):
                continue
            v = nb[t, d]
            if v >= 0:
                if phi[v] < 0:
                    continue
                steps_across = float(phi[v] + enter_weight_nb(tl, v, turn.swim_steps,
                                                              turn.squeeze_steps,
                                                              turn.dig_steps))
            elif look.can_reveal and grid[neighbour_cell_nb(tl, t, d)] < 0:
                steps_across = 0.0
            else:
                continue
            val = -look.end_cost_here - look.goal_weight * (
                SUCCESS_CHANCE * steps_across + FAIL_CHANCE * steps_here) - exert_price
            if steps_across < steps_here:
                best = better_plan_nb(best, val, PLAN.ROPE, t, 0, exert)
    # hide from a horror that would reach this tile (the check may fail)
    if bp[PARAM.HIDE] > 0 and costs.hide <= points and cv[c, CFC.HIDDEN] == 0 and \
            hd[t] >= 0 and (hd[t] & STEP_MASK) <= HIDE_WITHIN:
        calm = look.risk * end_cost_nb(tl, nb, gs, hd, t, cc, False)
        val = -(FAIL_CHANCE * look.end_cost_here + SUCCESS_CHANCE * calm) - \
            look.goal_weight * steps_here - exert_price
        best = better_plan_nb(best, val, PLAN.HIDE, t, 0, exert)
    # the Engineer's explosives (ST-178/179): a wall between this tile and a tile laid
    # beside that shortens the way to the goal, or a wall facing an empty cell when
    # the frontier is far (or nearly gone), to reveal through it
    if bp[PARAM.EXPLOSIVES] > 0 and cv[c, CFC.ABILITY] == ABILITY.EXPLOSIVES and \
            gs[GFC.EXPLOSIVES_LEFT] > 0 and costs.blast <= points and ty != TILE.LEDGE and \
            ty != TILE.SLIDE:
        for d in range(4):
            if nb[t, d] >= 0:
                continue
            u = grid[neighbour_cell_nb(tl, t, d)]
            if u >= 0:
                tyu = tl[u, TFC.TYPE]
                if phi[u] < 0 or tl[u, TFC.HORRORS] > 0 or tyu == TILE.LEDGE or \
                        tyu == TILE.SLIDE:
                    continue
                steps_through = float(phi[u] + enter_weight_nb(tl, u, turn.swim_steps,
                                                               turn.squeeze_steps,
                                                               turn.dig_steps))
                if steps_through + BLAST_GAIN > steps_here:
                    continue
                val = -look.end_cost_here - look.goal_weight * steps_through - exert_price
            elif (tl[t, TFC.OPEN] >> d) & 1 == 0 and look.can_reveal and \
                    look.goal == GOAL.FRONTIER:
                if steps_here < BLAST_FRONTIER_STEPS and gs[GFC.FRONTIER] > 1:
                    continue
                k = 1 if points - costs.blast >= 1 else 0
                val = look.tile_worth * k * look.credit_here - look.end_cost_here - \
                    look.goal_weight * (1.0 if k > 0 else 0.0) - exert_price
            else:
                continue
            best = better_plan_nb(best, val, PLAN.BLAST, t, d, exert)
    return best


@njit(refcount=False, llvm_inline=True)
def best_plan_nb(tl, nb, grid, cv, gs, scratch, buf, n_reach, turn, look, costs, cc, lv, xm,
                 bp):
    """The best plan for the rest of the turn (``Plan``; ties: the first found).

    A plan is worth the tiles it reveals, minus the price of the tile it ends on, minus
    the steps left to the goal, and the pulls of the team.
    """
    best = plan_nb(NO_VALUE, PLAN.END, turn.tile, 0, 0)
    for qi in range(n_reach):
        best = plans_from_tile_nb(best, tl, nb, cv, gs, scratch, buf, qi, turn, look, costs,
                                  cc, lv, xm, bp)
    for exert in range(2):
        if exert == 1 and not look.may_exert:
            break
        best = plans_here_nb(best, tl, nb, grid, cv, gs, scratch, turn, look, costs, cc, bp,
                             exert)
    return best


# --- step 5: the first action of the best plan --------------------------------------------
@njit(refcount=False, llvm_inline=True)
def first_action_nb(tl, grid, cv, scratch, turn, look, costs, best):
    """The first action of plan ``best``: ``(action, arg, want_exert)`` (see ``decide_nb``)."""
    want = best.exert == 1
    kind = best.kind
    c = turn.caver
    t = turn.tile
    if kind == PLAN.END:
        return ACTION.END, 0, False
    if kind == PLAN.REVEAL or kind == PLAN.EXPLORE:
        # once the exit can be drawn, reveal towards the rally tile
        rally = look.rally
        cx = float(tl[rally, TFC.X]) if rally >= 0 else 0.0
        cy = float(tl[rally, TFC.Y]) if rally >= 0 else 0.0
        d = pick_side_nb(tl, grid, cv, c, t, cx, cy,
                         1.0 if turn.in_window and rally >= 0 else 0.0)
        if d < 0:
            return ACTION.END, 0, False
        return (ACTION.REVEAL if kind == PLAN.REVEAL else ACTION.EXPLORE), d, want
    if kind == PLAN.HEAL:
        return ACTION.HEAL, best.arg, want
    if kind == PLAN.DIG:
        return ACTION.DIG, best.tile, want
    if kind == PLAN.SWIM:
        return ACTION.SWIM, best.arg, want
    if kind == PLAN.SQUEEZE:
        return ACTION.SQUEEZE, best.arg, want
    if kind == PLAN.ROPE:
        return ACTION.ROPE, 0, want
    if kind == PLAN.HIDE:
        return ACTION.HIDE, 0, want
    if kind == PLAN.BLAST:
        return ACTION.EXPLOSIVES, best.arg, want
    # GOTO: walk towards best.tile (the route goes in the queue row, done with)
    route = scratch[SCR.QUEUE]
    steps = write_route_nb(scratch[SCR.PARENT], t, best.tile, route)
    if steps <= 0:
        return ACTION.END, 0, False
    if steps >= RUN_STEPS or (steps == 2 and costs.run < 2 * costs.move):
        run = steps if steps < RUN_STEPS else RUN_STEPS
        if costs.run <= look.points + (1 if want else 0):
            return ACTION.RUN, run_packed_nb(tl, t, route, run), want
    return ACTION.MOVE, side_to_nb(tl, t, route[0]), want


# --- the decision ---------------------------------------------------------------------------
@njit(refcount=False)
def decide_nb(tl, nb, grid, cv, hz, gs, scratch, params, c, ap, exerted, bot_id, bp):
    """Caver ``c``'s next action: ``(action, arg, want_exert)``.

    ``arg`` is a side for moves and reveals, a caver for Heal, a tile for Dig, or three
    packed sides for Run. ``ap`` action points are left, ``exerted`` once the exert point
    is spent. Writes ``scratch``. The steps are in the module docstring.
    """
    if cv[c, CFC.TILE] == gs[GFC.EXIT_TILE]:
        return ACTION.END, 0, False  # out of the cave: the bots never leave the exit
    costs = action_costs_nb(cv, c)
    turn = read_turn_nb(tl, cv, gs, params, c, costs, bp)
    lv = point_worths_nb(bp)
    cc = hazard_costs_nb(gs, params, turn.health, lv)
    goal, rally = kept_goal_searches_nb(tl, nb, grid, cv, hz, gs, scratch, turn, bp)
    # the tiles within reach this turn, and their prices
    max_points = ap + (0 if exerted else 1)
    n_reach = reachable_tiles_nb(tl, nb, cv, gs, c, turn.n_tiles,
                                 plan_steps_nb(max_points, costs.move, costs.run),
                                 scratch[SCR.DIST], scratch[SCR.PARENT], scratch[SCR.QUEUE])
    buf = scratch[SCR.FBUF:SCR.FBUF + 6].view(np.float64).reshape(3, scratch.shape[1])
    can_reveal = turn.stack_left > 0  # outside the exploration, only to get out of trouble
    tile_facts_nb(tl, nb, grid, cv, gs, scratch[SCR.HDIST], c, turn.tile, scratch[SCR.QUEUE],
                  n_reach, cc, bp[PARAM.RISK], turn.health, lv, can_reveal, buf)
    look = read_outlook_nb(tl, nb, cv, gs, scratch, buf, turn, goal, rally, ap, exerted, cc,
                           lv, bp)
    xm = NO_MIX
    if can_reveal:
        xm = tile_mix_nb(gs, params, cc, turn.health, lv, look.risk, scratch[SCR.BLOCKED])
    best = best_plan_nb(tl, nb, grid, cv, gs, scratch, buf, n_reach, turn, look, costs, cc, lv,
                        xm, bp)
    return first_action_nb(tl, grid, cv, scratch, turn, look, costs, best)
