"""Dice pools: exact distributions and the numba kernels that roll them inside engines.

The mechanics here are generic dice mechanics (no game's rules beyond them):

Duel
    An attack pool of dice is rolled against a defence pool. Each attack die showing at
    least the highest defence die scores one wound (ties go to the attacker), so an attack
    of ``n`` dice scores 0 .. ``n`` wounds. Bonus icons are never split: the whole attack
    bonus goes onto one attack die, chosen to add a wound when it can (a die below the
    highest defence that the bonus lifts to it), and the whole defence bonus goes onto one
    defence die, chosen to raise the highest. Raising the highest defence die is the
    defender's best placement whatever the attacker does (only the highest defence value
    matters), so the order in which the two sides place their bonus does not change the
    result: with ``H = max(defence) + defense_bonus`` the wounds are
    ``#{a >= H} + [some a has H - attack_bonus <= a < H]``.
Mob
    When several enemies (each a pool of attack die sizes) attack together, only the
    strongest rolls: the one with the largest single die, ties broken by the most dice of
    that size. It adds the smallest die of every other enemy to its own dice. When two or
    more enemies tie on both counts the choice is left to the caller (the rulebooks hand
    it to the players): pass ``leader``; by default the first listed of them leads (an
    engine's bot orders the enemies, or picks the leader, to make its choice).
Fall
    A character falling ``squares`` squares rolls its defence dice and loses one health
    when their total is at most ``squares``; a fall of 1 square or less rolls nothing.
    No bonus icons enter the fall roll (Terraria, TR-134); cobwebs and game modes that
    cancel fall damage are game rules and live in the game's package.

Exact functions (``duel_distribution``, ``duel_fractions``, ``fall_damage_probability``)
enumerate by conditioning, never by sampling: for a duel they condition on the highest
defence value ``h`` (``P(max = h) = prod_j F_j(h) - prod_j F_j(h - 1)``), split every
attack die into hit / near (hit only with the bonus) / miss, and run a small dynamic
programme over the attack dice, O(max defence size x n_attack^2). ``duel_fractions`` does
the same with Python integers and returns exact rationals. Tests hold both to a
brute-force enumeration of every outcome.

Kernels (``*_nb``) sample the same things inside an engine. Dice are int arrays of die
sizes; the generator state is the ``uint64[4]`` array of :mod:`simlib.core.rng`, passed
last and advanced in place. Stream use is documented per kernel so a plain-Python
reference fed the same state reproduces a kernel's result exactly.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from simlib.core.jit import njit
from simlib.core.rng import randint_nb, seed_state_nb
from simlib.errors import SimlibInputError

__all__ = [
    "MAX_SIDES",
    "MAX_DICE",
    "duel_distribution",
    "duel_fractions",
    "mob_leaders",
    "mob_attack",
    "pack_enemies",
    "fall_damage_probability",
    "fall_damage_fraction",
    "sample_duels",
    "sample_falls",
    "roll_nb",
    "duel_wounds_nb",
    "duel_nb",
    "duel_pmf_nb",
    "mob_leader_nb",
    "mob_attack_nb",
    "fall_damage_nb",
    "sample_duels_nb",
    "sample_falls_nb",
]

MAX_SIDES = 1000  # largest die accepted (the sampler needs < 2**32; exact work grows with it)
MAX_DICE = 100  # largest pool accepted


# --- kernels: rules on rolled values ---------------------------------------------------------
@njit
def duel_wounds_nb(attack_rolls, defense_rolls, attack_bonus, defense_bonus):
    """Wounds scored by rolled attack values against rolled defence values.

    Parameters
    ----------
    attack_rolls : int array (n_attack,)
        The rolled attack values (read only).
    defense_rolls : int array (n_defense,), n_defense >= 1
        The rolled defence values (read only).
    attack_bonus, defense_bonus : int >= 0
        Bonus icons, each all on one die (see the module docstring).

    Returns
    -------
    int
        The number of wounds, ``0 .. n_attack``.

    """
    high = defense_rolls[0]
    for j in range(1, defense_rolls.shape[0]):
        if defense_rolls[j] > high:
            high = defense_rolls[j]
    high += defense_bonus
    wounds = 0
    near = False
    for i in range(attack_rolls.shape[0]):
        a = attack_rolls[i]
        if a >= high:
            wounds += 1
        elif a + attack_bonus >= high:
            near = True
    if near:
        wounds += 1
    return wounds


@njit
def roll_nb(sides, state):
    """Roll one fair die of ``sides`` faces (1 .. sides); uses one ``randint_nb`` draw."""
    return randint_nb(sides, state) + 1


@njit
def duel_nb(attack, defense, attack_bonus, defense_bonus, state):
    """Roll one duel and return the wounds the attack scores.

    Parameters
    ----------
    attack : int array (n_attack,)
        Attack die sizes (read only); may be empty (no wounds, no draws).
    defense : int array (n_defense,), n_defense >= 1
        Defence die sizes (read only).
    attack_bonus, defense_bonus : int >= 0
        Bonus icons, each all on one die.
    state : uint64 array (4,), written
        Generator state. The defence dice are rolled first, in order, then the attack dice
        in order: one ``randint_nb`` draw per die. Nothing is allocated.

    Returns
    -------
    int
        Wounds, ``0 .. n_attack``.

    """
    high = 0
    for j in range(defense.shape[0]):
        d = randint_nb(defense[j], state) + 1
        if d > high:
            high = d
    high += defense_bonus
    wounds = 0
    near = False
    for i in range(attack.shape[0]):
        a = randint_nb(attack[i], state) + 1
        if a >= high:
            wounds += 1
        elif a + attack_bonus >= high:
            near = True
    if near:
        wounds += 1
    return wounds


@njit
def fall_damage_nb(defense, squares, state):
    """Roll a fall of ``squares`` squares; return 1 if it costs a health, else 0.

    ``defense`` (int array of die sizes, read only) is rolled in order, one ``randint_nb``
    draw per die, only when ``squares > 1``; a shorter fall draws nothing and returns 0.
    ``state`` (uint64[4]) is written.
    """
    if squares <= 1:
        return 0
    total = 0
    for j in range(defense.shape[0]):
        total += randint_nb(defense[j], state) + 1
    return 1 if total <= squares else 0


@njit
def mob_leader_nb(dice, offsets):
    """Index of the enemy that leads a mob: largest single die, then most dice of it.

    Parameters
    ----------
    dice : int array (total,)
        Every enemy's attack die sizes, packed: enemy ``e`` owns
        ``dice[offsets[e]:offsets[e + 1]]`` (each enemy at least one die).
    offsets : int array (n_enemies + 1,)
        Start of each enemy's dice; ``offsets[0] == 0``.

    Returns
    -------
    int
        The first listed of the strongest enemies; ``-1`` when there are none.

    """
    best = -1
    best_top = 0
    best_count = 0
    for e in range(offsets.shape[0] - 1):
        top = 0
        count = 0
        for k in range(offsets[e], offsets[e + 1]):
            if dice[k] > top:
                top = dice[k]
                count = 1
            elif dice[k] == top:
                count += 1
        if best < 0 or top > best_top or (top == best_top and count > best_count):
            best = e
            best_top = top
            best_count = count
    return best


@njit
def mob_attack_nb(dice, offsets, leader, out):
    """Write the mob's attack dice into ``out``; return how many were written.

    Parameters
    ----------
    dice, offsets : int arrays
        The enemies' packed attack dice (see :func:`mob_leader_nb`).
    leader : int
        The leading enemy's index, which must be one of the strongest (the caller's choice
        among tied enemies); ``-1`` picks :func:`mob_leader_nb`'s.
    out : int array (>= leader's dice + n_enemies - 1,), written
        The leader's dice in their order, then the smallest die of each other enemy in
        enemy order.

    Returns
    -------
    int
        Number of dice written (0 when there are no enemies).

    """
    n_enemies = offsets.shape[0] - 1
    if n_enemies <= 0:
        return 0
    if leader < 0:
        leader = mob_leader_nb(dice, offsets)
    n = 0
    for k in range(offsets[leader], offsets[leader + 1]):
        out[n] = dice[k]
        n += 1
    for e in range(n_enemies):
        if e == leader:
            continue
        small = dice[offsets[e]]
        for k in range(offsets[e] + 1, offsets[e + 1]):
            if dice[k] < small:
                small = dice[k]
        out[n] = small
        n += 1
    return n


# --- kernels: exact ---------------------------------------------------------------------------
@njit
def duel_pmf_nb(attack, defense, attack_bonus, defense_bonus, out):
    """Exact duel distribution in float64, by conditioning on the highest defence die.

    Parameters
    ----------
    attack : int array (n_attack,)
        Attack die sizes (read only).
    defense : int array (n_defense,), n_defense >= 1
        Defence die sizes (read only).
    attack_bonus, defense_bonus : int >= 0
        Bonus icons, each all on one die.
    out : float64 array (n_attack + 1,), written
        ``out[k]`` = probability of exactly ``k`` wounds.

    Notes
    -----
    Allocates two work vectors of length ``n_attack + 1`` per call; meant for tables and
    bots' look-ups, not for a per-step inner loop.

    """
    n = attack.shape[0]
    for k in range(n + 1):
        out[k] = 0.0
    clean = np.empty(n + 1, np.float64)  # P(k hits, no near die so far)
    nearv = np.empty(n + 1, np.float64)  # P(k hits, at least one near die)
    top = 0
    for j in range(defense.shape[0]):
        if defense[j] > top:
            top = defense[j]
    below = 0.0  # P(max <= h - 1)
    for h in range(1, top + 1):
        upto = 1.0
        for j in range(defense.shape[0]):
            s = defense[j]
            upto *= (h if h < s else s) / s
        p_h = upto - below
        below = upto
        if p_h <= 0.0:
            continue
        high = h + defense_bonus
        for k in range(n + 1):
            clean[k] = 0.0
            nearv[k] = 0.0
        clean[0] = 1.0
        for i in range(n):
            s = attack[i]
            hit = s - high + 1  # faces >= high
            if hit < 0:
                hit = 0
            if hit > s:
                hit = s
            lo = high - attack_bonus  # faces in [lo, high - 1] are near
            if lo < 1:
                lo = 1
            hi = high - 1
            if hi > s:
                hi = s
            near = hi - lo + 1
            if near < 0:
                near = 0
            ph = hit / s
            pn = near / s
            pm = (s - hit - near) / s
            for k in range(i + 1, -1, -1):
                c = clean[k] * pm
                m = nearv[k] * (pm + pn) + clean[k] * pn
                if k > 0:
                    c += clean[k - 1] * ph
                    m += nearv[k - 1] * ph
                clean[k] = c
                nearv[k] = m
        out[0] += p_h * clean[0]
        for k in range(1, n + 1):
            out[k] += p_h * (clean[k] + nearv[k - 1])
    return out


@njit
def sample_duels_nb(attack, defense, attack_bonus, defense_bonus, seed, n, counts):
    """Roll ``n`` duels from the stream ``(seed, 0)``; ``counts[k]`` += duels with k wounds.

    ``counts`` is an int64 array of length ``len(attack) + 1`` (written).
    """
    state = np.zeros(4, np.uint64)
    seed_state_nb(seed, 0, state)
    for _ in range(n):
        counts[duel_nb(attack, defense, attack_bonus, defense_bonus, state)] += 1
    return counts


@njit
def sample_falls_nb(defense, squares, seed, n):
    """Roll ``n`` falls from the stream ``(seed, 0)``; return how many cost a health."""
    state = np.zeros(4, np.uint64)
    seed_state_nb(seed, 0, state)
    hurt = 0
    for _ in range(n):
        hurt += fall_damage_nb(defense, squares, state)
    return hurt


# --- Python layer: validation -----------------------------------------------------------------
def _whole(name: str, value, lo: int, hi: int | None = None) -> int:
    ok = isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_))
    if ok and value >= lo and (hi is None or value <= hi):
        return int(value)
    allowed = f"a whole number from {lo} to {hi}" if hi is not None else f"a whole number >= {lo}"
    raise SimlibInputError(f"{name} must be {allowed}, got {value!r}")


def _pool(name: str, dice, min_len: int = 0) -> np.ndarray:
    """Validate a sequence of die sizes and return it as an int64 array."""
    if isinstance(dice, (str, bytes)) or not isinstance(dice, (Sequence, np.ndarray)):
        raise SimlibInputError(
            f"{name} must be a list of die sizes such as [6, 6] or [8], got {dice!r}"
        )
    if isinstance(dice, np.ndarray) and dice.ndim != 1:
        raise SimlibInputError(f"{name} must be a flat list of die sizes, got shape {dice.shape}")
    if len(dice) < min_len:
        raise SimlibInputError(f"{name} must name at least {min_len} die, got {list(dice)!r}")
    if len(dice) > MAX_DICE:
        raise SimlibInputError(f"{name} may hold at most {MAX_DICE} dice, got {len(dice)}")
    sizes = [_whole(f"{name}[{i}] (sides of a die)", d, 1, MAX_SIDES) for i, d in enumerate(dice)]
    return np.array(sizes, dtype=np.int64)


def _duel_args(attack, defense, attack_bonus, defense_bonus):
    return (
        _pool("attack", attack),
        _pool("defense", defense, 1),
        _whole("attack_bonus", attack_bonus, 0, MAX_SIDES),
        _whole("defense_bonus", defense_bonus, 0, MAX_SIDES),
    )


# --- Python layer: exact ----------------------------------------------------------------------
def duel_distribution(attack, defense, attack_bonus=0, defense_bonus=0) -> np.ndarray:
    """Exact probability of each number of wounds in one duel.

    Parameters
    ----------
    attack : sequence of int
        Attack die sizes, e.g. ``[6, 6]``; may be empty. Each from 1 to ``MAX_SIDES``.
    defense : sequence of int
        Defence die sizes, at least one, e.g. ``[8]``.
    attack_bonus : int, default 0
        Attack icons, all on one attack die, placed to add a wound when they can.
    defense_bonus : int, default 0
        Defence icons, all on one defence die, placed to raise the highest.

    Returns
    -------
    numpy.ndarray
        float64 array of shape ``(len(attack) + 1,)``: entry ``k`` is the probability of
        exactly ``k`` wounds (an attack die scores when it is >= the highest defence die).

    Raises
    ------
    SimlibInputError
        A pool that is not a list of whole die sizes from 1 to ``MAX_SIDES``, an empty
        defence, or a negative bonus.

    Examples
    --------
    >>> duel_distribution([6], [6])  # a d6 hits a d6 with chance 21/36
    array([0.41666667, 0.58333333])

    """
    a, d, ab, db = _duel_args(attack, defense, attack_bonus, defense_bonus)
    out = np.empty(a.shape[0] + 1, np.float64)
    duel_pmf_nb(a, d, ab, db, out)
    return out


def _duel_counts(a: list[int], d: list[int], ab: int, db: int) -> tuple[list[int], int]:
    """Integer version of :func:`duel_pmf_nb`: (outcome counts per wound number, total)."""
    n = len(a)
    total = 1
    for s in a + d:
        total *= s
    num = [0] * (n + 1)
    prev = 0  # outcomes of the defence with max <= h - 1
    for h in range(1, max(d) + 1):
        upto = 1
        for s in d:
            upto *= min(h, s)
        w_h = upto - prev
        prev = upto
        if w_h == 0:
            continue
        high = h + db
        clean = [1] + [0] * n
        nearv = [0] * (n + 1)
        for i, s in enumerate(a):
            hit = min(max(s - high + 1, 0), s)
            near = max(min(high - 1, s) - max(high - ab, 1) + 1, 0)
            miss = s - hit - near
            for k in range(i + 1, -1, -1):
                c = clean[k] * miss
                m = nearv[k] * (miss + near) + clean[k] * near
                if k > 0:
                    c += clean[k - 1] * hit
                    m += nearv[k - 1] * hit
                clean[k] = c
                nearv[k] = m
        num[0] += w_h * clean[0]
        for k in range(1, n + 1):
            num[k] += w_h * (clean[k] + nearv[k - 1])
    return num, total


def duel_fractions(attack, defense, attack_bonus=0, defense_bonus=0) -> list[Fraction]:
    """The same distribution as :func:`duel_distribution`, as exact fractions.

    Returns
    -------
    list of fractions.Fraction
        Length ``len(attack) + 1``; entry ``k`` is the exact probability of ``k`` wounds.
        Computed with Python integers (no rounding), so it is slower than the float version.

    """
    a, d, ab, db = _duel_args(attack, defense, attack_bonus, defense_bonus)
    num, total = _duel_counts(a.tolist(), d.tolist(), ab, db)
    return [Fraction(c, total) for c in num]


def _sum_counts(dice: list[int]) -> list[int]:
    """Number of outcomes giving each total 0 .. sum(dice) (exact integer convolution)."""
    counts = [1]
    for s in dice:
        new = [0] * (len(counts) + s)
        for t, c in enumerate(counts):
            if c:
                for face in range(1, s + 1):
                    new[t + face] += c
        counts = new
    return counts


def fall_damage_fraction(defense, squares) -> Fraction:
    """Exact chance (a fraction) that a fall of ``squares`` squares costs a health.

    See :func:`fall_damage_probability`.
    """
    d = _pool("defense", defense, 1)
    sq = _whole("squares", squares, 0)
    if sq <= 1:
        return Fraction(0)
    counts = _sum_counts(d.tolist())
    total = 1
    for s in d.tolist():
        total *= s
    return Fraction(sum(counts[: sq + 1]), total)


def fall_damage_probability(defense, squares) -> float:
    """Chance that a fall of ``squares`` squares costs 1 health with these defence dice.

    The defence dice are rolled and summed; the fall hurts when the total is at most
    ``squares``. A fall of 1 square or less rolls nothing and never hurts. Bonus icons do
    not enter the roll; cobwebs and modes that cancel fall damage are the game's business.

    Parameters
    ----------
    defense : sequence of int
        Defence die sizes, at least one.
    squares : int >= 0
        Squares fallen.

    Returns
    -------
    float
        ``P(sum of defence dice <= squares)`` when ``squares > 1``, else 0.0.

    Examples
    --------
    >>> fall_damage_probability([6], 3)  # a d6 shows 1, 2 or 3
    0.5

    """
    return float(fall_damage_fraction(defense, squares))


# --- Python layer: mobs -----------------------------------------------------------------------
def _enemies(enemies) -> list[np.ndarray]:
    if isinstance(enemies, (str, bytes)) or not isinstance(enemies, (Sequence, np.ndarray)):
        raise SimlibInputError(
            f"enemies must be a list of attack pools such as [[8], [6, 6]], got {enemies!r}"
        )
    return [_pool(f"enemies[{e}]", pool, 1) for e, pool in enumerate(enemies)]


def _strength(pool: np.ndarray) -> tuple[int, int]:
    top = int(pool.max())
    return top, int((pool == top).sum())


def mob_leaders(enemies) -> list[int]:
    """Indices of the enemies strong enough to lead a mob (more than one on a full tie).

    The strongest has the largest single die; among equals, the most dice of that size.

    Parameters
    ----------
    enemies : sequence of sequences of int
        Each enemy's attack die sizes (at least one die each).

    Returns
    -------
    list of int
        Indices in listed order; empty when there are no enemies.

    """
    pools = _enemies(enemies)
    if not pools:
        return []
    strengths = [_strength(p) for p in pools]
    best = max(strengths)
    return [e for e, s in enumerate(strengths) if s == best]


def mob_attack(enemies, leader: int | None = None) -> list[int]:
    """The attack dice a mob of enemies rolls against one character.

    Parameters
    ----------
    enemies : sequence of sequences of int
        Each enemy's attack die sizes, e.g. ``[[8], [6, 6], [4]]``; at least one die each.
    leader : int, optional
        Which of the strongest enemies leads when several tie on both the largest die and
        its count (the players' choice in the rules). It must be one of
        :func:`mob_leaders`. By default the first listed of them leads.

    Returns
    -------
    list of int
        The leader's dice in their order, then the smallest die of every other enemy in
        listed order. ``[]`` for no enemies; a lone enemy's own dice.

    Raises
    ------
    SimlibInputError
        A malformed pool, or a ``leader`` that is not one of the strongest enemies.

    Examples
    --------
    >>> mob_attack([[6, 6], [8, 4], [4, 4]])
    [8, 4, 6, 4]

    """
    pools = _enemies(enemies)
    if not pools:
        if leader is not None:
            raise SimlibInputError("leader given but there are no enemies")
        return []
    leaders = mob_leaders(enemies)
    if leader is None:
        leader = leaders[0]
    elif (
        isinstance(leader, bool)
        or not isinstance(leader, numbers.Integral)
        or (int(leader) not in leaders)
    ):
        raise SimlibInputError(
            f"leader must be the index of one of the strongest enemies "
            f"({', '.join(map(str, leaders))}), got {leader!r}"
        )
    leader = int(leader)
    out = [int(x) for x in pools[leader]]
    out += [int(p.min()) for e, p in enumerate(pools) if e != leader]
    return out


def pack_enemies(enemies) -> tuple[np.ndarray, np.ndarray]:
    """Validate enemy pools and pack them for the kernels: ``(dice, offsets)`` int64 arrays."""
    pools = _enemies(enemies)
    offsets = np.zeros(len(pools) + 1, np.int64)
    for e, p in enumerate(pools):
        offsets[e + 1] = offsets[e] + p.shape[0]
    dice = np.concatenate(pools) if pools else np.zeros(0, np.int64)
    return dice.astype(np.int64), offsets


# --- Python layer: sampling -------------------------------------------------------------------
def sample_duels(attack, defense, attack_bonus=0, defense_bonus=0, n=100_000, seed=0):
    """Roll ``n`` duels with :func:`duel_nb`; return the count of each number of wounds.

    Returns
    -------
    numpy.ndarray
        int64 array of shape ``(len(attack) + 1,)`` summing to ``n``. The same ``seed``
        gives the same counts, jitted or as plain Python.

    """
    a, d, ab, db = _duel_args(attack, defense, attack_bonus, defense_bonus)
    n = _whole("n", n, 0)
    seed = _whole("seed", seed, 0, 2**64 - 1)
    counts = np.zeros(a.shape[0] + 1, np.int64)
    sample_duels_nb(a, d, ab, db, np.uint64(seed), n, counts)
    return counts


def sample_falls(defense, squares, n=100_000, seed=0) -> int:
    """Roll ``n`` falls with :func:`fall_damage_nb`; return how many cost a health."""
    d = _pool("defense", defense, 1)
    sq = _whole("squares", squares, 0)
    n = _whole("n", n, 0)
    seed = _whole("seed", seed, 0, 2**64 - 1)
    return int(sample_falls_nb(d, sq, np.uint64(seed), n))
