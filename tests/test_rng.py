"""The counter-based generator: stream identity, independence, exact die frequencies."""

import numpy as np
from scipy import stats

from simlib.core.jit import njit
from simlib.core.rng import d6_nb, new_state, next_u64_nb, randint_nb, seed_state_nb


@njit
def _rolls_nb(seed, index, count):
    state = np.zeros(4, np.uint64)
    seed_state_nb(seed, index, state)
    out = np.empty(count, np.int64)
    for i in range(count):
        out[i] = d6_nb(state)
    return out


def test_stream_depends_only_on_seed_and_index():
    a = _rolls_nb(7, 123, 50)
    b = _rolls_nb(7, 123, 50)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, _rolls_nb(7, 124, 50))
    assert not np.array_equal(a, _rolls_nb(8, 123, 50))


def test_python_and_kernel_states_agree():
    s = new_state(3, 9)
    t = np.zeros(4, np.uint64)
    seed_state_nb(3, 9, t)
    np.testing.assert_array_equal(s, t)
    assert next_u64_nb(s) == next_u64_nb(t)


def test_d6_is_uniform():
    # chi-square goodness of fit; fixed seed, false-alarm rate 1e-4 if the die were fair
    rolls = _rolls_nb(1, 0, 600_000)
    counts = np.bincount(rolls, minlength=7)[1:]
    assert counts.sum() == 600_000
    p = stats.chisquare(counts).pvalue
    assert p > 1e-4


def test_neighbouring_streams_are_uncorrelated():
    # first rolls of 20,000 consecutive game indices: uniform, and no lag-1 correlation
    first = np.array([_rolls_nb(5, i, 1)[0] for i in range(0, 20_000)])
    counts = np.bincount(first, minlength=7)[1:]
    assert stats.chisquare(counts).pvalue > 1e-4
    r = np.corrcoef(first[:-1], first[1:])[0, 1]
    # |r| < 4.5 / sqrt(n): false-alarm rate about 7e-6 under independence
    assert abs(r) < 4.5 / np.sqrt(len(first))


def test_randint_range_and_uniformity():
    state = new_state(11, 0)
    vals = np.array([randint_nb(3, state) for _ in range(30_000)])
    assert vals.min() == 0 and vals.max() == 2
    assert stats.chisquare(np.bincount(vals)).pvalue > 1e-4


def test_side_stream_zero_is_the_playthrough_stream_and_others_differ():
    from simlib.core.rng import seed_stream_nb

    own = new_state(7, 3)
    side0 = np.zeros(4, dtype=np.uint64)
    seed_stream_nb(7, 3, 0, side0)
    assert (own == side0).all()
    draws = {}
    for stream in (0, 1, 2):
        st = np.zeros(4, dtype=np.uint64)
        seed_stream_nb(7, 3, stream, st)
        draws[stream] = tuple(int(next_u64_nb(st)) for _ in range(4))
    assert len(set(draws.values())) == 3
    # a side stream of game 3 is not any nearby game's own stream
    for g in range(10):
        st = new_state(7, g)
        assert tuple(int(next_u64_nb(st)) for _ in range(4)) not in (draws[1], draws[2])
