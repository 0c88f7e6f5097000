"""BFS kernels against a plain-Python reference on random graphs (property tests)."""

from collections import deque

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simlib.core.paths import bfs_distances, bfs_fill_nb, bfs_multi_nb


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
