"""Path kernels against plain-Python references on random graphs (property tests)."""

import heapq
from collections import deque

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simlib.core.paths import (
    bfs_distances,
    bfs_fill_nb,
    bfs_multi_nb,
    goal_route_costs,
    goal_routes_nb,
)


def reference_bfs(neighbors, source):
    """Textbook BFS with a deque and a dict: the oracle for the kernels."""
    n = len(neighbors)
    dist = {source: 0}
    queue = deque([source])
    while queue:
        u = queue.popleft()
        for v in neighbors[u]:
            if v >= 0 and v not in dist:
                dist[v] = dist[u] + 1
                queue.append(v)
    return np.array([dist.get(i, -1) for i in range(n)], dtype=np.int32)


@st.composite
def graphs(draw):
    n = draw(st.integers(1, 40))
    k = draw(st.integers(1, 5))
    rows = draw(st.lists(st.lists(st.integers(-1, n - 1), min_size=k, max_size=k),
                         min_size=n, max_size=n))
    source = draw(st.integers(0, n - 1))
    return np.array(rows, dtype=np.int32), source


@settings(max_examples=300, deadline=None)
@given(graphs())
def test_bfs_distances_matches_reference(graph):
    neighbors, source = graph
    np.testing.assert_array_equal(bfs_distances(neighbors, source),
                                  reference_bfs(neighbors.tolist(), source))


@settings(max_examples=200, deadline=None)
@given(graphs(), st.integers(-1, 6))
def test_depth_limit_and_first_step(graph, max_depth):
    neighbors, source = graph
    n = neighbors.shape[0]
    dist = np.empty(n, np.int32)
    first = np.empty(n, np.int32)
    queue = np.empty(n, np.int32)
    bfs_fill_nb(neighbors, n, source, np.zeros(0, np.bool_), max_depth, dist, first, queue)
    ref = reference_bfs(neighbors.tolist(), source)
    expected = ref.copy()
    if max_depth >= 0:
        expected[ref > max_depth] = -1
    np.testing.assert_array_equal(dist, expected)
    # the first step of a shortest path is one step from the source and on a shortest path
    for v in range(n):
        if dist[v] > 0:
            f = first[v]
            assert f in neighbors[source]
            assert reference_bfs(neighbors.tolist(), f)[v] == dist[v] - 1


@settings(max_examples=200, deadline=None)
@given(graphs(), st.lists(st.integers(0, 39), min_size=1, max_size=5))
def test_multi_source_is_min_over_sources(graph, sources):
    neighbors, _ = graph
    n = neighbors.shape[0]
    srcs = np.array([s % n for s in sources], np.int32)
    dist = np.empty(n, np.int32)
    queue = np.empty(n, np.int32)
    bfs_multi_nb(neighbors, n, srcs, len(srcs), -1, dist, queue)
    refs = np.array([reference_bfs(neighbors.tolist(), int(s)) for s in srcs])
    big = np.where(refs < 0, 10**6, refs).min(axis=0)
    np.testing.assert_array_equal(dist, np.where(big == 10**6, -1, big))


def test_blocked_nodes_are_reached_but_not_passed():
    # a path 0-1-2: blocking 1 leaves 2 unreachable while 1 keeps its distance
    nbrs = np.array([[1, -1], [0, 2], [1, -1]], np.int32)
    dist = np.empty(3, np.int32)
    first = np.empty(3, np.int32)
    queue = np.empty(3, np.int32)
    bfs_fill_nb(nbrs, 3, 0, np.array([False, True, False]), -1, dist, first, queue)
    np.testing.assert_array_equal(dist, [0, 1, -1])


def test_reference_rejects_a_wrong_answer():
    # the oracle itself can fail: a path graph has distances 0,1,2, not 0,1,1
    nbrs = [[1], [0, 2], [1]]
    with pytest.raises(AssertionError):
        np.testing.assert_array_equal(reference_bfs(nbrs, 0), [0, 1, 1])


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="source"):
        bfs_distances(np.array([[-1]], np.int32), 3)
    with pytest.raises(ValueError, match="node numbers"):
        bfs_distances(np.array([[1], [2]], np.int32), 0)


# --- routes to the nearest goal, nodes priced to pass through and by the way left --------


def through_cost(neighbors, a, after, node_cost, detour, slots):
    """What a route pays to pass through ``a`` on to ``after`` (-1: it ends at ``a``)."""
    cost = node_cost[a]
    if after >= 0 and detour[a] != 0 and after in neighbors[a]:
        if (slots[a] >> neighbors[a].index(after)) & 1:
            cost += detour[a]
    return cost


def reference_goal_routes(neighbors, start, node_cost, detour, slots):
    """The label-correcting search written with a deque and dicts (same FIFO order)."""
    n = len(neighbors)
    dist = {u: c for u, c in enumerate(start) if c >= 0}
    after = {}
    queue = deque(u for u in range(n) if u in dist)
    waiting = set(queue)
    while queue:
        a = queue.popleft()
        waiting.discard(a)
        nxt = after.get(a, -1)
        through = dist[a] + through_cost(neighbors, a, nxt, node_cost, detour, slots)
        for v in neighbors[a]:
            if v < 0 or v >= n or v == nxt:
                continue
            if v not in dist or through < dist[v]:
                dist[v] = through
                after[v] = a
                if v not in waiting:
                    waiting.add(v)
                    queue.append(v)
    return ([dist.get(u, -1) for u in range(n)], [after.get(u, -1) for u in range(n)])


def dijkstra_goal_routes(neighbors, start, node_cost):
    """Cheapest routes when passing through a node costs the same whichever way."""
    best = {u: c for u, c in enumerate(start) if c >= 0}
    heap = [(c, u) for u, c in best.items()]
    heapq.heapify(heap)
    while heap:
        d, a = heapq.heappop(heap)
        if d != best[a]:
            continue
        for v in neighbors[a]:
            if 0 <= v < len(neighbors) and (v not in best or d + node_cost[a] < best[v]):
                best[v] = d + node_cost[a]
                heapq.heappush(heap, (best[v], v))
    return [best.get(u, -1) for u in range(len(neighbors))]


@st.composite
def routed_graphs(draw, undirected=False):
    """A random graph (undirected on request: each edge listed at both ends), goals with
    starting costs, node costs and detours on random slots."""
    n = draw(st.integers(1, 30))
    k = draw(st.integers(1, 4))
    rows = draw(st.lists(st.lists(st.integers(-1, n - 1), min_size=k, max_size=k),
                         min_size=n, max_size=n))
    if undirected:
        rows = [[-1] * k for _ in range(n)]
        for _ in range(draw(st.integers(0, n * k))):
            a, b = draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1))
            free_a = [j for j in range(k) if rows[a][j] < 0]
            free_b = [j for j in range(k) if rows[b][j] < 0]
            if a != b and b not in rows[a] and free_a and free_b:
                rows[a][free_a[0]] = b
                rows[b][free_b[0]] = a

    def per_node(values):
        return draw(st.lists(values, min_size=n, max_size=n))

    start = per_node(st.sampled_from([-1, -1, -1, 0, 0, 1, 3, 7]))
    node_cost = per_node(st.integers(0, 9))
    detour = per_node(st.sampled_from([0, 0, 0, 1, 5, 9]))
    slots = per_node(st.integers(0, (1 << k) - 1))
    return rows, start, node_cost, detour, slots


def run_goal_routes(rows, start, node_cost, detour, slots):
    """The kernel on preallocated arrays a little longer than the graph (as games pass)."""
    n = len(rows)
    pad = 3

    def padded(values, fill=0):
        out = np.full(n + pad, fill, np.int32)
        out[:n] = values
        return out

    neighbors = np.full((n + pad, len(rows[0])), -1, np.int32)
    neighbors[:n] = rows
    dist = padded(start, -7)
    next_node = np.full(n + pad, -7, np.int32)
    # scratch left dirty by an earlier search: the kernel must clear what it reads
    queue = np.full(n + pad, 5, np.int32)
    queued = np.ones(n + pad, np.int32)
    goal_routes_nb(neighbors, n, padded(node_cost), padded(detour), padded(slots), dist,
                   next_node, queue, queued)
    assert (dist[n:] == -7).all() and (next_node[n:] == -7).all()  # nothing past n written
    return dist[:n].tolist(), next_node[:n].tolist()


@settings(max_examples=300, deadline=None)
@given(st.booleans().flatmap(routed_graphs))
def test_goal_routes_match_reference(graph):
    assert run_goal_routes(*graph) == reference_goal_routes(*graph)


@settings(max_examples=200, deadline=None)
@given(st.booleans().flatmap(routed_graphs))
def test_goal_routes_are_cheapest_without_detours(graph):
    rows, start, node_cost, _, slots = graph
    dist, after = run_goal_routes(rows, start, node_cost, [0] * len(rows), slots)
    assert dist == dijkstra_goal_routes(rows, start, node_cost)
    for v, a in enumerate(after):  # each next node is on a cheapest route
        if a >= 0:
            assert v in rows[a] and dist[v] == dist[a] + node_cost[a]


@settings(max_examples=200, deadline=None)
@given(routed_graphs(undirected=True))
def test_goal_routes_leave_no_cheaper_step(graph):
    # at the end no neighbour could be priced lower through a node at that node's price
    rows, start, node_cost, detour, slots = graph
    dist, after = run_goal_routes(*graph)
    for a, row in enumerate(rows):
        if dist[a] < 0:
            continue
        through = dist[a] + through_cost(rows, a, after[a], node_cost, detour, slots)
        for v in row:
            if v >= 0 and v != after[a]:
                assert 0 <= dist[v] <= through
    # and a node is reachable exactly when the BFS from the goals reaches it
    goals = [u for u, c in enumerate(start) if c >= 0]
    if goals:
        bfs = np.empty(len(rows), np.int32)
        bfs_multi_nb(np.array(rows, np.int32), len(rows), np.array(goals, np.int32),
                     len(goals), -1, bfs, np.empty(len(rows), np.int32))
        assert [d >= 0 for d in dist] == [d >= 0 for d in bfs.tolist()]


@settings(max_examples=100, deadline=None)
@given(graphs(), st.lists(st.integers(0, 39), min_size=1, max_size=5))
def test_unit_costs_count_steps_like_the_bfs(graph, sources):
    neighbors, _ = graph
    n = neighbors.shape[0]
    srcs = sorted({s % n for s in sources})
    start = np.full(n, -1, np.int32)
    start[srcs] = 0
    dist, _ = goal_route_costs(neighbors, start, np.ones(n, np.int32))
    bfs = np.empty(n, np.int32)
    bfs_multi_nb(neighbors, n, np.array(srcs, np.int32), len(srcs), -1, bfs,
                 np.empty(n, np.int32))
    np.testing.assert_array_equal(dist, bfs)


def test_goal_routes_by_hand():
    # a row 0-1-2-3 (slot 0 west, slot 1 east), the goal at 3; each node costs 1
    rows = np.array([[-1, 1], [0, 2], [1, 3], [2, -1]])
    start = np.array([-1, -1, -1, 0])
    dist, after = goal_route_costs(rows, start, np.ones(4))
    assert dist.tolist() == [3, 2, 1, 0] and after.tolist() == [1, 2, 3, -1]
    # leaving 2 eastwards (its slot 1) now costs 4 more: 1 and 0 pay it, 2 does not
    dist, _ = goal_route_costs(rows, start, np.ones(4), [0, 0, 4, 0], [0, 0, 0b10, 0])
    assert dist.tolist() == [7, 6, 1, 0]
    # westwards costs nothing more
    dist, _ = goal_route_costs(rows, start, np.ones(4), [0, 0, 4, 0], [0, 0, 0b01, 0])
    assert dist.tolist() == [3, 2, 1, 0]


def test_goal_route_reference_rejects_a_wrong_answer():
    rows = [[1], [0]]
    with pytest.raises(AssertionError):
        assert reference_goal_routes(rows, [0, -1], [2, 3], [0, 0], [0, 0]) == ([0, 3], [-1, 0])


def test_goal_route_bad_input_is_refused():
    nbrs = np.array([[1], [0]], np.int32)
    with pytest.raises(ValueError, match="node_cost must have one entry per node"):
        goal_route_costs(nbrs, np.array([0, -1]), np.ones(3))
    with pytest.raises(ValueError, match="start_cost"):
        goal_route_costs(nbrs, np.array([0]), np.ones(2))
    with pytest.raises(ValueError, match=">= 0"):
        goal_route_costs(nbrs, np.array([0, -1]), -np.ones(2))
    with pytest.raises(ValueError, match="node numbers"):
        goal_route_costs(np.array([[1], [2]]), np.array([0, -1]), np.ones(2))
