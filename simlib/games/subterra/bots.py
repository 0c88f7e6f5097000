"""Sub Terra bots: scripted cavers that share one skeleton, tuned by a parameter vector.

Every decision the rules leave to the players goes through here (ST-051): which action
next, the rotation of a revealed tile, the first step of a horror among equally short
ones (the victim picks, ST-202), a tie between spawn tiles (ST-198).

The three bots are the same code with different parameters (``BOTS`` below):

- ``explorer``: pushes the frontier with Explore, exerts readily, heals only at 1 health,
  heads for the exit when the hazard deck says it is time.
- ``cautious``: reveals before stepping in and avoids dangerous tiles, heals at 2 health,
  goes further to rescue knocked-out cavers, hides from horrors sooner.
- ``racer``: explores like the explorer but everyone runs for the exit the moment it is
  revealed, and nobody turns back for the fallen.

Parameters (index, name): see ``PARAM_NAMES``.
"""

from __future__ import annotations

from simlib.core.jit import njit
from simlib.games.subterra.state import (
    ACTION,
    CFC,
    GFC,
    SCR,
    TFC,
    DX,
    DY,
    TILE,
    bfs_sources_nb,
    bfs_tiles_nb,
    can_leave_nb,
    cell_of_nb,
    needs_rope_nb,
    neighbour_cell_nb,
    side_to_nb,
)

P_HEAL_AT = 0
P_EXERT_HP = 1
P_RESCUE = 2
P_EXIT_MARGIN = 3
P_SAFE_REVEAL = 4
P_HIDE_AT = 5
P_RUSH = 6
P_AVOID = 7
P_EXERT_EXPLORE = 8
P_N = 9

PARAM_NAMES = ("heal_at", "exert_min_health", "rescue_range", "exit_margin", "safe_reveal",
               "hide_at", "rush_exit", "avoid_danger", "exert_to_explore")
PARAM_HELP = {
    "heal_at": "heal yourself when health is at or below this",
    "exert_min_health": "exert only with at least this much health",
    "rescue_range": "walk up to this many steps to heal a knocked-out caver (0 = never)",
    "exit_margin": "head for the exit this many rounds before it becomes urgent",
    "safe_reveal": "1 = Reveal and look before stepping in; 0 = Explore at once",
    "hide_at": "flee or hide when a horror is this many steps away (0 = never)",
    "rush_exit": "1 = everyone runs for the exit as soon as it is revealed",
    "avoid_danger": "1 = avoid active gas tiles when planning a route",
    "exert_to_explore": "1 = exert for an extra Explore (with enough health)",
}
PARAM_BOUNDS = {
    "heal_at": (0, 5), "exert_min_health": (1, 99), "rescue_range": (0, 64),
    "exit_margin": (-5, 20), "safe_reveal": (0, 1), "hide_at": (0, 7), "rush_exit": (0, 1),
    "avoid_danger": (0, 1), "exert_to_explore": (0, 1),
}

# name -> (id, defaults in PARAM_NAMES order, description)
BOTS = {
    "explorer": (0, (1.0, 3.0, 4.0, 2.0, 0.0, 2.0, 0.0, 1.0, 1.0),
                 "pushes the frontier with Explore; exerts readily; heals at 1 health"),
    "cautious": (1, (2.0, 3.0, 8.0, 3.0, 1.0, 3.0, 0.0, 1.0, 0.0),
                 "reveals before stepping in, avoids gas, heals at 2, rescues further"),
    "racer": (2, (1.0, 3.0, 0.0, 0.0, 0.0, 2.0, 1.0, 1.0, 1.0),
              "explores until the exit shows, then everyone runs for it; no rescues"),
}


@njit
def rotation_score_nb(tl, grid, gs, x, y, mask, ty, frontier_after, bot_id, bp):
    """Score a rotation of a revealed tile (higher is better; ties: lowest rotation).

    Keep the frontier wide (more places to explore) and connect to neighbours already
    laid (shorter routes); a horror tile is better with fewer connections.
    """
    connections = 0
    for d in range(4):
        if (mask >> d) & 1:
            u = grid[cell_of_nb(x + DX[d], y + DY[d])]
            if u >= 0 and (tl[u, TFC.OPEN] >> ((d + 2) & 3)) & 1:
                connections += 1
    if ty == TILE.HORROR:
        return frontier_after * 2 - connections * 3
    return frontier_after * 2 + connections


@njit
def horror_step_choice_nb(tl, nb, cv, gs, dist_from_victim, src, dv, victim, bot_id, bp):
    """The victim picks the horror's first step among equally short ones (ST-202).

    It sends the horror where the fewest cavers stand (so no one hidden is trampled),
    then by the lowest side number. ``dist_from_victim`` is a BFS from the victim's tile.
    """
    best = -1
    best_score = 1000
    for d in range(4):
        u = nb[src, d]
        if u < 0 or dist_from_victim[u] != dv - 1:
            continue
        score = 0
        for c in range(gs[GFC.N_CAVERS]):
            if c != victim and cv[c, CFC.REMOVED] == 0 and cv[c, CFC.TILE] == u:
                score += 1
        if score < best_score:
            best_score = score
            best = u
    return best


@njit
def spawn_choice_nb(tl, cv, gs, dist_to_victim, bot_id, bp):
    """The free horror tile nearest its closest victim (ST-196/197); ties: lowest tile
    index (the players' choice, ST-198). ``dist_to_victim`` is depth-limited to 7."""
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


@njit
def revealable_side_nb(tl, grid, cv, c, t, here, rope_ok):
    """A side of tile ``t`` through which a Reveal could be made, or -1.

    ``here``: the caver stands on ``t`` (then ledge/slide crossing limits apply);
    ``rope_ok``: a side that first needs a rope counts. Away from ``t``, an unroped ledge
    counts only with ``rope_ok``.
    """
    ty = tl[t, TFC.TYPE]
    crossing = (ty == TILE.LEDGE or ty == TILE.SLIDE) and tl[t, TFC.ROPE] == 0
    for d in range(4):
        if (tl[t, TFC.OPEN] >> d) & 1 == 0:
            continue
        if grid[neighbour_cell_nb(tl, t, d)] >= 0:
            continue
        if here:
            if not can_leave_nb(tl, cv, c, d) and not (rope_ok and needs_rope_nb(tl, cv, c, d)):
                continue
        elif crossing and ty == TILE.LEDGE and not rope_ok:
            continue
        return d
    return -1


@njit
def first_step_nb(parent, t, goal, path):
    """Walk ``parent`` back from ``goal`` to ``t``; write the route into ``path`` (first
    step at ``path[0]``) and return its length."""
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


@njit
def tile_danger_nb(tl, gs, hd, u):
    """How bad it is to end a turn on tile ``u`` (0 = safe; larger is worse).

    ``hd`` holds steps to the nearest horror (-1 = none near). Weights are rough expected
    losses at the next hazard phase: a horror within two steps, gas (2 health on a Gas
    card), an unburied cave-in tile (3 health on a 1-in-3 roll), water (flood damage).
    """
    if gs[GFC.EXIT_TILE] == u:
        return 0
    score = 0
    if hd[u] >= 0 and hd[u] <= 2:
        score += 60 - 20 * hd[u]
    ty = tl[u, TFC.TYPE]
    if ty == TILE.HORROR and gs[GFC.N_HORRORS] < 3:
        score += 10  # a Horror card spawns onto the nearest horror tile: this one
    elif ty == TILE.GAS:
        score += 4
    elif ty == TILE.CAVE_IN and tl[u, TFC.RUBBLE] == 0:
        score += 3
    elif ty == TILE.WATER:
        score += 2
    return score


@njit
def decide_nb(tl, nb, grid, cv, hz, gs, scratch, params, c, ap, exerted, bot_id, bp):
    """Caver ``c``'s next action: ``(action, arg, want_exert)``.

    ``arg`` is a side for moves and reveals, a caver for Heal, a tile for Dig, or three
    packed sides for Run. Writes ``scratch``.
    """
    t = cv[c, CFC.TILE]
    hp = cv[c, CFC.HP]
    ex = gs[GFC.EXIT_TILE]
    n = gs[GFC.N_TILES]
    if t == ex:
        return ACTION.END, 0, False
    dist = scratch[SCR.DIST]
    parent = scratch[SCR.PARENT]
    blocked = scratch[SCR.BLOCKED]
    hd = scratch[SCR.HDIST]
    # steps to the nearest horror (-1 = none within 8)
    if gs[GFC.N_HORRORS] > 0:
        srcs = scratch[SCR.PATH]
        ns = 0
        for h in range(hz.shape[0]):
            if hz[h] >= 0:
                srcs[ns] = hz[h]
                ns += 1
        bfs_sources_nb(nb, n, srcs, ns, 8, hd, scratch[SCR.QUEUE])
    else:
        for u in range(n):
            hd[u] = -1
    # plan routes around horrors (and active gas, for careful bots)
    # and through unroped ledges (a rope is a coin flip) unless nothing else is reachable
    avoid_gas = bp[P_AVOID] > 0 and gs[GFC.GAS_ACTIVE] > 0
    for u in range(n):
        b = 0
        if hd[u] >= 0 and hd[u] <= bp[P_HIDE_AT]:
            b = 1
        elif avoid_gas and tl[u, TFC.TYPE] == TILE.GAS:
            b = 1
        elif tl[u, TFC.TYPE] == TILE.LEDGE and tl[u, TFC.ROPE] == 0:
            b = 2
        blocked[u] = b
    bfs_tiles_nb(nb, n, t, blocked, True, -1, dist, parent, scratch[SCR.QUEUE])
    if ex >= 0 and dist[ex] < 0:
        for u in range(n):
            if blocked[u] == 2:
                blocked[u] = 0
        bfs_tiles_nb(nb, n, t, blocked, True, -1, dist, parent, scratch[SCR.QUEUE])
    can_exert = (not exerted) and hp >= bp[P_EXERT_HP]
    flee_exert = (not exerted) and (hp >= 2 or gs[GFC.OUT_OF_TIME] != 0)
    rounds_left = gs[GFC.DECK_N] - gs[GFC.DECK_POS] + 1
    if gs[GFC.OUT_OF_TIME] != 0:
        rounds_left = 0
    exit_turns = 1000
    if ex >= 0 and dist[ex] >= 0:
        exit_turns = (dist[ex] + 2) // 3
    urgent = ex >= 0 and exit_turns < 1000 and (
        bp[P_RUSH] > 0 or rounds_left <= exit_turns + bp[P_EXIT_MARGIN])
    n_cav = gs[GFC.N_CAVERS]

    # 1. heal a knocked-out caver on this tile, unless the exit cannot wait
    if (not urgent or rounds_left > exit_turns + 1) and tl[t, TFC.HORRORS] == 0:
        if bp[P_RESCUE] > 0 or bp[P_RUSH] == 0:
            for o in range(n_cav):
                if o != c and cv[o, CFC.REMOVED] == 0 and cv[o, CFC.TILE] == t \
                        and cv[o, CFC.HP] == 0:
                    return ACTION.HEAL, o, can_exert

    # 2. flee or hide from a nearby horror: run to the reachable tile furthest from
    #    every horror (the exit is safest), else hide
    if bp[P_HIDE_AT] > 0 and hd[t] >= 0 and hd[t] <= bp[P_HIDE_AT]:
        budget = 3 if ap >= 2 else ap + (1 if flee_exert else 0)
        dist2 = scratch[SCR.DIST2]
        parent2 = scratch[SCR.PARENT2]
        for u in range(n):
            blocked[u] = 1 if (hd[u] == 0 or tl[u, TFC.RUBBLE] != 0 or tl[u, TFC.FLOOD] != 0
                               or tl[u, TFC.TYPE] == TILE.SQUEEZE) else 0
        bfs_tiles_nb(nb, n, t, blocked, True, budget, dist2, parent2, scratch[SCR.QUEUE])
        best = -1
        best_h = hd[t]
        best_d = 99
        for u in range(n):
            du = dist2[u]
            if du <= 0 or blocked[u] != 0:
                continue
            hu = hd[u] if hd[u] >= 0 else 99
            if u == ex:
                hu = 100
            if hu > best_h or (hu == best_h and best >= 0 and du < best_d):
                best = u
                best_h = hu
                best_d = du
        if best >= 0:
            path = scratch[SCR.PATH]
            plen = first_step_nb(parent2, t, best, path)
            d = side_to_nb(tl, t, path[0])
            if plen >= 2 and ap >= 2:
                packed = d + 1
                u = path[0]
                for k in range(1, plen):
                    packed |= (side_to_nb(tl, u, path[k]) + 1) << (3 * k)
                    u = path[k]
                return ACTION.RUN, packed, False
            return ACTION.MOVE, d, flee_exert
        if ap >= 2 and cv[c, CFC.HIDDEN] == 0:
            return ACTION.HIDE, 0, False

    # 3. heal yourself
    if hp <= bp[P_HEAL_AT] and hp < cv[c, CFC.MAXHP] and not urgent and ap >= 2:
        return ACTION.HEAL, c, False

    # 4. choose a goal
    goal = -1
    if urgent:
        goal = ex
    if goal < 0 and bp[P_RESCUE] > 0:
        best = 1000
        for o in range(n_cav):
            if o != c and cv[o, CFC.REMOVED] == 0 and cv[o, CFC.HP] == 0:
                u = cv[o, CFC.TILE]
                if u != ex and dist[u] > 0 and dist[u] <= bp[P_RESCUE] and dist[u] < best \
                        and blocked[u] == 0:
                    best = dist[u]
                    goal = u
    if goal < 0 and gs[GFC.STACK_POS] < gs[GFC.STACK_N] and ex < 0:
        # the nearest tile to reveal from: first without a rope to place, then with one
        for with_rope in range(2):
            best = 1000
            for u in range(n):
                if dist[u] < 0 or dist[u] >= best or (blocked[u] == 1 and u != t):
                    continue
                if revealable_side_nb(tl, grid, cv, c, u, u == t, with_rope == 1) >= 0:
                    best = dist[u]
                    goal = u
            if goal >= 0:
                break
    if goal < 0 and ex >= 0 and dist[ex] >= 0:
        goal = ex
    if goal < 0:
        return ACTION.END, 0, False

    # 5. act towards the goal; exert to reach the exit in time or to keep exploring
    if goal == ex:
        can_exert = flee_exert and urgent
    elif goal == t:
        can_exert = can_exert and bp[P_EXERT_EXPLORE] > 0
    else:
        can_exert = False
    last_point = ap <= 1
    if goal == t:
        d = revealable_side_nb(tl, grid, cv, c, t, True, False)
        if d < 0:
            d = revealable_side_nb(tl, grid, cv, c, t, True, True)
        if d < 0:
            return ACTION.END, 0, False
        if needs_rope_nb(tl, cv, c, d):
            if gs[GFC.ROPES_LEFT] > 0 and tl[t, TFC.ROPE] == 0:
                return ACTION.ROPE, 0, can_exert
            return ACTION.END, 0, False
        # Reveal is as much progress as Explore; Explore only with a point to spare (to
        # step off a bad tile) or when standing here is no better than the unknown
        if bp[P_SAFE_REVEAL] > 0 or (last_point and tile_danger_nb(tl, gs, hd, t) < 3):
            return ACTION.REVEAL, d, can_exert
        return ACTION.EXPLORE, d, can_exert
    path = scratch[SCR.PATH]
    plen = first_step_nb(parent, t, goal, path)
    s = path[0]
    if tl[s, TFC.HORRORS] > 0:
        return ACTION.END, 0, False
    d = side_to_nb(tl, t, s)
    if needs_rope_nb(tl, cv, c, d):
        if gs[GFC.ROPES_LEFT] > 0 and tl[t, TFC.ROPE] == 0:
            return ACTION.ROPE, 0, can_exert
        return ACTION.END, 0, False
    if tl[s, TFC.RUBBLE] != 0:
        return ACTION.DIG, s, can_exert
    if tl[s, TFC.FLOOD] != 0:
        return ACTION.SWIM, d, can_exert
    if tl[s, TFC.TYPE] == TILE.SQUEEZE:
        return ACTION.SQUEEZE, d, can_exert
    if plen >= 3 and ap >= 2:
        packed = d + 1
        u = s
        k = 1
        while k < 3 and k < plen:
            v = path[k]
            if tl[v, TFC.RUBBLE] != 0 or tl[v, TFC.FLOOD] != 0 or \
                    tl[v, TFC.TYPE] == TILE.SQUEEZE or tl[v, TFC.HORRORS] > 0:
                break
            dd = side_to_nb(tl, u, v)
            ty = tl[u, TFC.TYPE]
            if (ty == TILE.LEDGE or ty == TILE.SLIDE) and tl[u, TFC.ROPE] == 0:
                break  # leave crossings to single moves, which check them
            packed |= (dd + 1) << (3 * k)
            u = v
            k += 1
        if k >= 3:
            return ACTION.RUN, packed, can_exert
    if last_point and goal != ex and tile_danger_nb(tl, gs, hd, s) >= 20 and \
            tile_danger_nb(tl, gs, hd, t) < 20 and not can_exert:
        return ACTION.END, 0, False  # wait on the safer tile rather than end on a bad one
    return ACTION.MOVE, d, can_exert
