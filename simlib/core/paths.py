"""Breadth-first search kernels on small graphs given as padded neighbour arrays.

A graph of ``n`` nodes is an int array ``neighbors`` of shape ``(n, k)``: row ``u`` lists
the nodes one step from ``u``, padded with ``-1``. Games keep such arrays up to date as
their boards grow (Sub Terra's cave, say) and call these kernels in their hot loops with
preallocated scratch, so nothing here allocates except the public wrapper.
"""

from __future__ import annotations

import numpy as np

from simlib.core.jit import njit

__all__ = ["bfs_distances", "bfs_fill_nb", "bfs_multi_nb"]


@njit(refcount=False)
def bfs_fill_nb(neighbors, n, source, blocked, max_depth, dist, first, queue):
    """Single-source BFS over the first ``n`` nodes.

    Parameters
    ----------
    neighbors : int array (n_max, k)
        Padded neighbour lists (``-1`` = none).
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
        for j in range(k):
            v = neighbors[u, j]
            if v < 0 or v >= n or dist[v] >= 0:
                continue
            dist[v] = du + 1
            first[v] = v if u == source else fu
            queue[tail] = v
            tail += 1
    return tail


@njit(refcount=False)
def bfs_multi_nb(neighbors, n, sources, n_sources, max_depth, dist, queue):
    """Multi-source BFS: ``dist[v]`` is the steps from ``v`` to the nearest source.

    ``sources[:n_sources]`` are the start nodes (duplicates allowed). ``dist`` (written)
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
        for j in range(k):
            v = neighbors[u, j]
            if v < 0 or v >= n or dist[v] >= 0:
                continue
            dist[v] = du + 1
            queue[tail] = v
            tail += 1
    return tail


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
    if not 0 <= int(source) < n:
        raise ValueError(f"source must be in 0..{n - 1}, got {source}")
    dist = np.empty(n, np.int32)
    first = np.empty(n, np.int32)
    queue = np.empty(max(n, 1), np.int32)
    bfs_fill_nb(nbrs, n, int(source), np.zeros(0, np.bool_), -1, dist, first, queue)
    return dist
