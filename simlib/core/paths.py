"""Search kernels on small graphs given as padded neighbour arrays.

A graph of ``n`` nodes is an int array ``neighbors`` of shape ``(n, k)``: row ``u`` lists
the nodes one step from ``u``, padded with ``-1``. The kernels search the first ``n`` rows
of a longer array, so a game's arrays can outgrow its graph; a live node must list live
nodes only (the kernels do not check, the public wrappers do). Games keep such arrays up to date as
their boards grow (Sub Terra's cave, say) and call these kernels in their hot loops with
preallocated scratch, so nothing here allocates except the public wrappers.

Breadth-first searches count steps (:func:`bfs_fill_nb` from one node, :func:`bfs_multi_nb`
from the nearest of several); :func:`goal_routes_nb` prices routes to the nearest goal when
passing through some nodes, or leaving them some ways, costs more than others.
"""

from __future__ import annotations

import numpy as np

from simlib.core.jit import njit

__all__ = ["bfs_distances", "bfs_fill_nb", "bfs_multi_nb", "goal_route_costs", "goal_routes_nb"]


@njit(refcount=False, inline="always")
def _visit_nb(neighbors, n, u, j, du, source, fu, dist, first, queue, tail):
    """Reach neighbour slot ``j`` of ``u`` (``du`` steps out) if it is new; return the tail.

    ``first`` gets the first step of its path (``source`` >= 0; with ``source`` -1 it is
    not written: pass ``dist`` itself).
    """
    v = neighbors[u, j]
    if v < 0 or dist[v] >= 0:
        return tail
    dist[v] = du + 1
    if source >= 0:
        first[v] = v if u == source else fu
    queue[tail] = v
    return tail + 1


@njit(refcount=False)
def bfs_fill_nb(neighbors, n, source, blocked, max_depth, dist, first, queue):
    """Single-source BFS over the first ``n`` nodes.

    Parameters
    ----------
    neighbors : int array (n_max, k)
        Padded neighbour lists (``-1`` = none); a live node lists live nodes only.
    n : int
        Number of live nodes; only ``0 .. n-1`` are visited.
    source : int
        Start node.
    blocked : bool array (n_max,) or length 0
        Nodes that may be reached but not passed through (their own distance is set, they
        are never expanded); a length-0 array blocks nothing. The source is always expanded.
    max_depth : int
        Stop expanding at this distance (``-1`` = no limit).
    dist : int32 array (n_max,), written
        Steps from ``source``; ``-1`` for unreachable (and beyond ``max_depth``).
    first : int32 array (n_max,), written
        The first node on one shortest path from ``source`` (``source`` itself for the
        source, ``-1`` unreachable). Among equal paths, the lowest neighbour slot wins.
    queue : int32 array (n_max,), written
        Scratch.

    Returns
    -------
    int
        The number of nodes reached (the source included).

    """
    for i in range(n):
        dist[i] = -1
        first[i] = -1
    dist[source] = 0
    first[source] = source
    queue[0] = source
    head = 0
    tail = 1
    k = neighbors.shape[1]
    check_blocked = blocked.shape[0] > 0
    while head < tail:
        u = queue[head]
        head += 1
        du = dist[u]
        if max_depth >= 0 and du >= max_depth:
            continue
        if check_blocked and u != source and blocked[u]:
            continue
        fu = first[u]
        if k == 4:  # square grids: a fixed count lets the compiler unroll the loop
            for j in range(4):
                tail = _visit_nb(neighbors, n, u, j, du, source, fu, dist, first, queue, tail)
        else:
            for j in range(k):
                tail = _visit_nb(neighbors, n, u, j, du, source, fu, dist, first, queue, tail)
    return tail


@njit(refcount=False)
def bfs_multi_nb(neighbors, n, sources, n_sources, max_depth, dist, queue):
    """Multi-source BFS: ``dist[v]`` is the steps from ``v`` to the nearest source.

    ``neighbors`` and ``n`` as for :func:`bfs_fill_nb`; ``sources[:n_sources]`` are the
    start nodes (duplicates allowed). ``dist`` (written)
    is ``-1`` where unreachable or beyond ``max_depth`` (``-1`` = no limit); ``queue`` is
    scratch. Returns the number of nodes reached.
    """
    for i in range(n):
        dist[i] = -1
    tail = 0
    for s in range(n_sources):
        u = sources[s]
        if dist[u] < 0:
            dist[u] = 0
            queue[tail] = u
            tail += 1
    head = 0
    k = neighbors.shape[1]
    while head < tail:
        u = queue[head]
        head += 1
        du = dist[u]
        if max_depth >= 0 and du >= max_depth:
            continue
        if k == 4:  # square grids: a fixed count lets the compiler unroll the loop
            for j in range(4):
                tail = _visit_nb(neighbors, n, u, j, du, -1, -1, dist, dist, queue, tail)
        else:
            for j in range(k):
                tail = _visit_nb(neighbors, n, u, j, du, -1, -1, dist, dist, queue, tail)
    return tail


@njit(refcount=False, inline="always")
def _relax_nb(neighbors, a, j, after, through, dist, next_node, queue, queued, head, waiting):
    """Price neighbour slot ``j`` of ``a`` at ``through``; queue it if it got cheaper.

    Returns the new count of waiting nodes (see :func:`goal_routes_nb`).
    """
    v = neighbors[a, j]
    if v < 0 or v == after:
        return waiting
    if dist[v] < 0 or through < dist[v]:
        dist[v] = through
        next_node[v] = a
        if queued[v] == 0:
            queued[v] = 1
            tail = head + waiting
            if tail >= queue.shape[0]:
                tail -= queue.shape[0]
            queue[tail] = v
            return waiting + 1
    return waiting


@njit(refcount=False)
def goal_routes_nb(neighbors, n, node_cost, detour, detour_slots, dist, next_node, queue,
                   queued):
    """Route costs from every node to the nearest goal, where nodes cost to pass through.

    A route from ``v`` to a goal pays ``node_cost`` for every node after ``v`` on it (the
    goal's included) and the goal's starting cost, plus ``detour[a]`` where it leaves a
    node ``a`` through one of the neighbour slots marked in ``detour_slots[a]`` (a one-way
    passage taken against its way, a turn that needs a rope). The search runs outward from
    the goals along the neighbour lists, so on an undirected graph (each node lists the
    nodes that list it) ``dist[v]`` is the cost of ``v``'s route. It is label-correcting
    with a FIFO queue: a node passes its cost on with the detour of its current next node
    and is queued again whenever its cost falls. Without detours the costs are the
    cheapest routes' (Dijkstra's); with them, a node is passed on at the price of its own
    best way on, which follows the queue order (a dearer way on through it may make a
    cheaper route for a neighbour, and is not looked at).

    Parameters
    ----------
    neighbors : int array (n_max, k), k <= 64
        Padded neighbour lists (``-1`` = none); a live node lists live nodes only.
    n : int
        Number of live nodes; only ``0 .. n-1`` are searched.
    node_cost : int array (n_max,)
        The cost of passing through (or ending at) each node, ``>= 0``.
    detour : int array (n_max,)
        The extra cost of leaving each node through a slot in ``detour_slots``, ``>= 0``.
    detour_slots : int array (n_max,)
        Bit ``j`` set: leaving through neighbour slot ``j`` costs the detour.
    dist : int array (n_max,), read and written
        On entry each goal's starting cost (``>= 0``) and ``-1`` elsewhere; on exit each
        node's route cost, ``-1`` where no goal can be reached.
    next_node : int array (n_max,), written
        The next node on each node's route (``-1``: a goal reached by no cheaper route,
        or unreachable).
    queue, queued : int arrays (at least n,), written
        Scratch: a ring of the nodes waiting to be expanded and whether each waits.

    """
    ring = queue.shape[0]
    k = neighbors.shape[1]
    head = 0
    waiting = 0
    # one pass: clear the node's scratch and queue it if it is a goal (in node order)
    for i in range(n):
        next_node[i] = -1
        if dist[i] >= 0:
            queue[waiting] = i
            waiting += 1
            queued[i] = 1
        else:
            queued[i] = 0
    while waiting > 0:
        a = queue[head]
        head += 1
        if head >= ring:
            head = 0
        waiting -= 1
        queued[a] = 0
        after = next_node[a]
        through = dist[a] + node_cost[a]
        if after >= 0 and detour[a] != 0:
            for j in range(k):
                if neighbors[a, j] == after:
                    if (detour_slots[a] >> j) & 1:
                        through += detour[a]
                    break
        if k == 4:
            # square grids: a fixed count lets the compiler unroll the loop (the search
            # runs about a tenth faster)
            for j in range(4):
                waiting = _relax_nb(neighbors, a, j, after, through, dist, next_node, queue,
                                    queued, head, waiting)
        else:
            for j in range(k):
                waiting = _relax_nb(neighbors, a, j, after, through, dist, next_node, queue,
                                    queued, head, waiting)


def goal_route_costs(
    neighbors: np.ndarray,
    start_cost: np.ndarray,
    node_cost: np.ndarray,
    detour: np.ndarray | None = None,
    detour_slots: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Return each node's route cost to the nearest goal and its next node on that route.

    Parameters
    ----------
    neighbors : int array of shape (n, k)
        Row ``u`` lists the neighbours of node ``u``, padded with ``-1``.
    start_cost : int array of shape (n,)
        A goal's starting cost (``>= 0``); ``-1`` for a node that is no goal.
    node_cost : int array of shape (n,)
        The cost of passing through each node (see :func:`goal_routes_nb`).
    detour, detour_slots : int arrays of shape (n,), optional
        The extra cost of leaving a node through the slots marked in its bit mask
        (default: none).

    Returns
    -------
    tuple of numpy.ndarray
        ``(dist, next_node)``, int32 arrays of length ``n`` (``-1``: no route / none).

    """
    nbrs = np.ascontiguousarray(neighbors, dtype=np.int32)
    if nbrs.ndim != 2:
        raise ValueError("neighbors must be a 2-D array of shape (n, k)")
    n, k = nbrs.shape
    if k > 64:
        raise ValueError(f"neighbors may have at most 64 slots (detour_slots is a bit mask), "
                         f"got {k}")
    if (nbrs >= n).any() or (nbrs < -1).any():
        raise ValueError(f"neighbors must hold node numbers 0..{n - 1} or -1 (none)")

    def per_node(name: str, values: np.ndarray | None, default: int) -> np.ndarray:
        out = np.full(n, default, np.int64) if values is None else \
            np.array(values, dtype=np.int64).reshape(-1)
        if out.shape[0] != n:
            raise ValueError(f"{name} must have one entry per node ({n}), got {out.shape[0]}")
        return out

    dist = per_node("start_cost", start_cost, -1).astype(np.int32)
    dist[dist < 0] = -1
    cost = per_node("node_cost", node_cost, 0)
    extra = per_node("detour", detour, 0)
    slots = per_node("detour_slots", detour_slots, 0)
    if (cost < 0).any() or (extra < 0).any():
        raise ValueError("node_cost and detour must be >= 0")
    next_node = np.empty(n, np.int32)
    queue = np.empty(max(n, 1), np.int32)
    queued = np.empty(max(n, 1), np.int32)
    goal_routes_nb(nbrs, n, cost, extra, slots, dist, next_node, queue, queued)
    return dist, next_node


def bfs_distances(neighbors: np.ndarray, source: int) -> np.ndarray:
    """Return the BFS step count from ``source`` to every node (``-1`` = unreachable).

    Parameters
    ----------
    neighbors : int32 array of shape (n, k)
        Row ``u`` lists the neighbours of node ``u``, padded with ``-1``.
    source : int
        The start node, ``0 <= source < n``.

    Returns
    -------
    numpy.ndarray
        int32 array of length ``n``.

    """
    nbrs = np.ascontiguousarray(neighbors, dtype=np.int32)
    if nbrs.ndim != 2:
        raise ValueError("neighbors must be a 2-D array of shape (n, k)")
    n = nbrs.shape[0]
    if (nbrs >= n).any() or (nbrs < -1).any():
        raise ValueError(f"neighbors must hold node numbers 0..{n - 1} or -1 (none)")
    if not 0 <= int(source) < n:
        raise ValueError(f"source must be in 0..{n - 1}, got {source}")
    dist = np.empty(n, np.int32)
    first = np.empty(n, np.int32)
    queue = np.empty(max(n, 1), np.int32)
    bfs_fill_nb(nbrs, n, int(source), np.zeros(0, np.bool_), -1, dist, first, queue)
    return dist
