"""Counter-based random streams usable inside numba kernels.

A playthrough's stream is derived from ``(seed, game_index)`` alone: both numbers are mixed
with splitmix64 into the 256-bit state of a xoshiro256** generator held in a local
``uint64[4]`` array. The outcome of game ``i`` therefore never depends on chunking, thread
count, backend or machine, and two settings run with the same seed see the same stream for
the same game index (common random numbers).

All functions take the state array last and advance it in place.
"""

from __future__ import annotations

import numpy as np

from simlib.core.jit import njit

__all__ = [
    "new_state",
    "seed_state_nb",
    "next_u64_nb",
    "uniform_nb",
    "randint_nb",
    "d6_nb",
    "skill_check_nb",
    "shuffle_nb",
]

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_STREAM = np.uint64(0xD1B54A32D192ED03)
_MASK32 = np.uint64(0xFFFFFFFF)


@njit(refcount=False)
def _mix64_nb(z):
    z = np.uint64(z)
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@njit(refcount=False)
def _rotl_nb(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit(refcount=False)
def seed_state_nb(seed, game_index, state):
    """Seed ``state`` (uint64[4], written) for playthrough ``game_index`` of run ``seed``."""
    key = _mix64_nb(np.uint64(seed) + _GOLDEN)
    key = _mix64_nb(key ^ (np.uint64(game_index) * _STREAM + _GOLDEN))
    for j in range(4):
        key = key + _GOLDEN
        state[j] = _mix64_nb(key)
    if state[0] == 0 and state[1] == 0 and state[2] == 0 and state[3] == 0:
        state[0] = _GOLDEN


@njit(refcount=False)
def seed_stream_nb(seed, game_index, stream, state):
    """Seed ``state`` for side stream ``stream`` of playthrough ``game_index`` of run ``seed``.

    Stream 0 is the playthrough's own stream (exactly :func:`seed_state_nb`). A bot that
    needs random numbers of its own (a search bot's rollouts) draws them from stream 1 or
    higher, so the game's own draws, and so every other bot's games, never change.
    """
    seed_state_nb(seed, game_index, state)
    if stream != 0:
        key = _mix64_nb(state[0] ^ (np.uint64(stream) * _STREAM + _GOLDEN))
        for j in range(4):
            key = key + _GOLDEN
            state[j] = _mix64_nb(key ^ state[j])
        if state[0] == 0 and state[1] == 0 and state[2] == 0 and state[3] == 0:
            state[0] = _GOLDEN


@njit(refcount=False)
def next_u64_nb(state):
    """Return the next 64 random bits of xoshiro256** and advance ``state``."""
    result = _rotl_nb(state[1] * np.uint64(5), 7) * np.uint64(9)
    t = state[1] << np.uint64(17)
    state[2] ^= state[0]
    state[3] ^= state[1]
    state[1] ^= state[2]
    state[0] ^= state[3]
    state[2] ^= t
    state[3] = _rotl_nb(state[3], 45)
    return result


@njit(refcount=False)
def uniform_nb(state):
    """Return a float64 uniform on [0, 1) with 53 random bits."""
    return float(next_u64_nb(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(refcount=False)
def randint_nb(n, state):
    """Return an unbiased int uniform on ``0 .. n-1`` (``1 <= n < 2**32``), Lemire's method."""
    nn = np.uint64(n)
    m = (next_u64_nb(state) >> np.uint64(32)) * nn
    low = m & _MASK32
    if low < nn:
        threshold = (np.uint64(4294967296) - nn) % nn
        while low < threshold:
            m = (next_u64_nb(state) >> np.uint64(32)) * nn
            low = m & _MASK32
    return np.int64(m >> np.uint64(32))


@njit(refcount=False)
def d6_nb(state):
    """Roll a fair six-sided die: 1..6."""
    return randint_nb(6, state) + 1


@njit(refcount=False)
def skill_check_nb(state):
    """A skill check: a d6 roll of 4 or more succeeds (probability 1/2)."""
    return d6_nb(state) >= 4


@njit(refcount=False)
def shuffle_nb(arr, n, state):
    """Shuffle ``arr[:n]`` in place (Fisher-Yates); ``arr`` is written."""
    for i in range(n - 1, 0, -1):
        j = randint_nb(i + 1, state)
        tmp = arr[i]
        arr[i] = arr[j]
        arr[j] = tmp


def new_state(seed: int, game_index: int) -> np.ndarray:
    """Return a freshly seeded generator state for ``(seed, game_index)`` (Python helper)."""
    state = np.zeros(4, dtype=np.uint64)
    seed_state_nb(seed, game_index, state)
    return state
