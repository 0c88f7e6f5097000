"""Horror movement and spawning: the kernels against a plain-Python reading of the rules.

Random caves (tiles with random openings on a small grid), random cavers and horrors;
the reference below is written from the rulebook's Horrors section, not from the kernel.
"""

from collections import deque

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from simlib.games.subterra import engine
from simlib.games.subterra.state import CENTER, CFC, GFC, MAX_HORRORS, TFC, TILE, alloc

HORROR_RANGE = 7


@st.composite
def caves(draw):
    n_tiles = draw(st.integers(2, 30))
    cells = draw(st.lists(st.tuples(st.integers(-4, 4), st.integers(-4, 4)), min_size=n_tiles,
                          max_size=n_tiles, unique=True))
    masks = draw(st.lists(st.integers(0, 15), min_size=n_tiles, max_size=n_tiles))
    types = draw(st.lists(st.sampled_from([TILE.PLAIN, TILE.HORROR, TILE.WATER, TILE.SQUEEZE]),
                          min_size=n_tiles, max_size=n_tiles))
    n_cav = draw(st.integers(1, 6))
    cav_tiles = draw(st.lists(st.integers(0, n_tiles - 1), min_size=n_cav, max_size=n_cav))
    cav_hp = draw(st.lists(st.integers(0, 3), min_size=n_cav, max_size=n_cav))
    hidden = draw(st.lists(st.booleans(), min_size=n_cav, max_size=n_cav))
    ranks = draw(st.permutations(range(1, 9)))[:n_cav]
    n_h = draw(st.integers(0, 3))
    horrors = draw(st.lists(st.integers(0, n_tiles - 1), min_size=n_h, max_size=n_h))
    exit_tile = draw(st.integers(-1, n_tiles - 1))
    return cells, masks, types, cav_tiles, cav_hp, hidden, ranks, horrors, exit_tile


def build(cave):
    cells, masks, types, cav_tiles, cav_hp, hidden, ranks, horrors, exit_tile = cave
    tl, nb, grid, cv, hz, gs, stack, deck, scratch = alloc()
    for (x, y), m, ty in zip(cells, masks, types, strict=True):
        engine.place_tile_nb(tl, nb, grid, gs, CENTER + x, CENTER + y, ty, m, 0, -1)
    gs[GFC.N_CAVERS] = len(cav_tiles)
    gs[GFC.EXIT_TILE] = exit_tile
    cv[:, CFC.REMOVED] = 1
    for c, (t, hp, hid, r) in enumerate(zip(cav_tiles, cav_hp, hidden, ranks, strict=True)):
        cv[c, CFC.TILE] = t
        cv[c, CFC.HP] = hp
        cv[c, CFC.MAXHP] = 3
        cv[c, CFC.HIDDEN] = int(hid)
        cv[c, CFC.RANK] = r
        cv[c, CFC.REMOVED] = 0
    for h, t in enumerate(horrors):
        hz[h] = t
        tl[t, TFC.HORRORS] += 1
    gs[GFC.N_HORRORS] = len(horrors)
    return tl, nb, grid, cv, hz, gs, scratch


def ref_dist(nb, n, src):
    dist = {src: 0}
    q = deque([src])
    while q:
        u = q.popleft()
        for d in range(4):
            v = int(nb[u, d])
            if v >= 0 and v not in dist:
                dist[v] = dist[u] + 1
                q.append(v)
    return dist


def victims(cv, gs):
    return [c for c in range(gs[GFC.N_CAVERS]) if cv[c, CFC.REMOVED] == 0 and cv[c, CFC.HP] > 0
            and cv[c, CFC.HIDDEN] == 0 and cv[c, CFC.TILE] != gs[GFC.EXIT_TILE]]


def strike(cv, gs, t):
    for c in range(gs[GFC.N_CAVERS]):
        if cv[c, CFC.REMOVED] == 0 and cv[c, CFC.TILE] == t and t != gs[GFC.EXIT_TILE]:
            cv[c, CFC.HP] = 0


def ref_move(tl, nb, cv, hz, gs, h):
    """Moving Horrors, steps 1-3, with the victim's documented choice among first steps."""
    n = int(gs[GFC.N_TILES])
    src = int(hz[h])
    dist = ref_dist(nb, n, src)
    cands = [(dist[cv[c, CFC.TILE]], cv[c, CFC.RANK], c) for c in victims(cv, gs)
             if cv[c, CFC.TILE] in dist]
    if not cands or min(cands)[0] > HORROR_RANGE:
        tl[src, TFC.HORRORS] -= 1
        hz[h] = -1
        gs[GFC.N_HORRORS] -= 1
        return
    dv, _, v = min(cands)
    if dv == 0:
        return
    back = ref_dist(nb, n, int(cv[v, CFC.TILE]))
    steps = []
    for d in range(4):
        u = int(nb[src, d])
        if u >= 0 and back.get(u) == dv - 1:
            others = sum(1 for c in range(gs[GFC.N_CAVERS]) if c != v
                         and cv[c, CFC.REMOVED] == 0 and cv[c, CFC.TILE] == u)
            steps.append((others, d, u))
    step = min(steps)[2]
    tl[src, TFC.HORRORS] -= 1
    tl[step, TFC.HORRORS] += 1
    hz[h] = step
    strike(cv, gs, step)


def ref_spawn(tl, nb, cv, hz, gs):
    """Spawning a Horror, steps 1-2; ties between tiles go to the lowest index."""
    if gs[GFC.N_HORRORS] >= MAX_HORRORS:
        return -1
    n = int(gs[GFC.N_TILES])
    best = None
    for t in range(n):
        if tl[t, TFC.TYPE] != TILE.HORROR or tl[t, TFC.HORRORS] != 0:
            continue
        dist = ref_dist(nb, n, t)
        ds = [dist[cv[c, CFC.TILE]] for c in victims(cv, gs) if cv[c, CFC.TILE] in dist]
        if ds and min(ds) <= HORROR_RANGE and (best is None or min(ds) < best[0]):
            best = (min(ds), t)
    if best is None:
        return -1
    t = best[1]
    for h in range(MAX_HORRORS):
        if hz[h] < 0:
            hz[h] = t
            break
    tl[t, TFC.HORRORS] += 1
    gs[GFC.N_HORRORS] += 1
    strike(cv, gs, t)
    return t


def snapshot(tl, cv, hz, gs):
    n = int(gs[GFC.N_TILES])
    return (tl[:n, TFC.HORRORS].copy(), cv[:, CFC.HP].copy(), hz.copy(),
            int(gs[GFC.N_HORRORS]))


def assert_same(a, b):
    for x, y in zip(a, b, strict=True):
        np.testing.assert_array_equal(x, y)


@settings(max_examples=400, deadline=None)
@given(caves())
def test_horror_moves_match_reference(cave):  # ST-114, ST-115, ST-187..193, ST-199..202
    tl, nb, grid, cv, hz, gs, scratch = build(cave)
    ref = [a.copy() for a in (tl, cv, hz, gs)]
    engine.move_all_horrors_nb(tl, nb, cv, hz, gs, scratch, 0, np.zeros(9))
    rtl, rcv, rhz, rgs = ref
    for h in range(MAX_HORRORS):
        if rhz[h] >= 0:
            ref_move(rtl, nb, rcv, rhz, rgs, h)
    assert_same(snapshot(tl, cv, hz, gs), snapshot(rtl, rcv, rhz, rgs))


@settings(max_examples=400, deadline=None)
@given(caves())
def test_horror_spawn_matches_reference(cave):  # ST-132, ST-157, ST-185, ST-194..198
    tl, nb, grid, cv, hz, gs, scratch = build(cave)
    ref = [a.copy() for a in (tl, cv, hz, gs)]
    got = engine.spawn_horror_nb(tl, nb, cv, hz, gs, scratch, 0, np.zeros(9))
    rtl, rcv, rhz, rgs = ref
    want = ref_spawn(rtl, nb, rcv, rhz, rgs)
    assert got == want
    assert_same(snapshot(tl, cv, hz, gs), snapshot(rtl, rcv, rhz, rgs))
    assert gs[GFC.N_HORRORS] <= MAX_HORRORS


def test_reference_comparison_can_fail():
    # the comparison helper rejects a state that differs in one caver's health
    a = (np.array([0, 1]), np.array([3, 3]), np.array([-1, -1, -1]), 0)
    b = (np.array([0, 1]), np.array([3, 0]), np.array([-1, -1, -1]), 0)
    try:
        assert_same(a, b)
    except AssertionError:
        return
    raise AssertionError("assert_same accepted unequal states")
