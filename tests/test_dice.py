"""Dice kernels (simlib.core.dice): exact against hand counts and brute force, kernels
against plain-Python references, sampled frequencies against the exact distributions.

Terraria checklist ids (``shared/rules/terraria-checklist.md``) are cited beside the rule
each test checks. Every statistical assertion states its false-alarm rate; seeds are fixed.
"""

import itertools
import json
import os
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy import stats

from simlib.core import dice
from simlib.core.dice import (
    duel_distribution,
    duel_fractions,
    duel_nb,
    duel_pmf_nb,
    duel_wounds_nb,
    fall_damage_fraction,
    fall_damage_nb,
    fall_damage_probability,
    mob_attack,
    mob_attack_nb,
    mob_leader_nb,
    mob_leaders,
    pack_enemies,
    sample_duels,
    sample_falls,
)
from simlib.core.rng import new_state, randint_nb
from simlib.errors import SimlibInputError

SIZES = [1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 20]
ALPHA = 1e-6  # false-alarm rate of each statistical check below


# --- oracles ------------------------------------------------------------------------------------
def brute_force_counts(attack, defense, attack_bonus=0, defense_bonus=0, order="defender"):
    """Count outcomes per wound number by enumerating every roll, bonus placed by choice.

    Written independently of the module's closed form: the attacker tries the bonus on
    every attack die (or none) and keeps the most wounds; the defender tries the bonus on
    every defence die and keeps the fewest wounds the attacker can then reach. ``order``
    says who places first; the module claims both orders give the same result.
    """
    n = len(attack)
    grids = np.indices([*attack, *defense]).reshape(len(attack) + len(defense), -1) + 1
    a_rolls = grids[:n].T
    d_rolls = grids[n:].T
    total = a_rolls.shape[0] if n else d_rolls.shape[0]

    def attacker_best(high):  # high: (N,) highest defence after the defender's placement
        base = (a_rolls >= high[:, None]).sum(axis=1) if n else np.zeros(total, np.int64)
        best = base.copy()
        for i in range(n):
            lifted = a_rolls.copy()
            lifted[:, i] += attack_bonus
            best = np.maximum(best, (lifted >= high[:, None]).sum(axis=1))
        return best

    def highs():
        for j in range(len(defense)):
            lifted = d_rolls.copy()
            lifted[:, j] += defense_bonus
            yield lifted.max(axis=1)

    if order == "defender":  # defender places, then the attacker answers
        wounds = np.min([attacker_best(h) for h in highs()], axis=0)
    else:  # attacker places first (a fixed die), then the defender answers
        per_choice = []
        choices = [None, *range(n)]
        for i in choices:
            lifted = a_rolls.copy()
            if i is not None:
                lifted[:, i] += attack_bonus
            per_choice.append(
                np.min(
                    [
                        (lifted >= h[:, None]).sum(axis=1) if n else np.zeros(total, np.int64)
                        for h in highs()
                    ],
                    axis=0,
                )
            )
        wounds = np.max(per_choice, axis=0)
    counts = np.bincount(wounds, minlength=n + 1)
    return counts.tolist(), int(np.prod([*attack, *defense]))


def reference_duel(attack, defense, attack_bonus, defense_bonus, state):
    """Plain-Python duel roll: the kernel's documented stream use (defence dice first)."""
    d = [int(randint_nb(s, state)) + 1 for s in defense]
    a = [int(randint_nb(s, state)) + 1 for s in attack]
    high = max(d) + defense_bonus
    wounds = sum(x >= high for x in a)
    best = max(
        [wounds]
        + [
            sum((x + (attack_bonus if i == k else 0)) >= high for i, x in enumerate(a))
            for k in range(len(a))
        ]
    )
    return best


def reference_mob(enemies, leader=None):
    """Plain-Python mob from the rulebook's sentence, by sorting on (largest die, its count)."""
    if not enemies:
        return []
    key = [(max(p), p.count(max(p))) for p in enemies]
    strongest = [e for e in range(len(enemies)) if key[e] == max(key)]
    lead = strongest[0] if leader is None else leader
    return list(enemies[lead]) + [min(p) for e, p in enumerate(enemies) if e != lead]


def gof_pvalue(counts, probs):
    """Chi-square goodness of fit; cells expected below 5 are pooled; impossible cells must
    be empty (else p = 0)."""
    counts = np.asarray(counts, np.float64)
    probs = np.asarray(probs, np.float64)
    if np.any(counts[probs == 0] > 0):
        return 0.0
    n = counts.sum()
    exp = n * probs
    live = probs > 0
    big = live & (exp >= 5)
    small = live & ~big
    obs_bins = list(counts[big])
    exp_bins = list(exp[big])
    if small.any():
        if exp[small].sum() >= 5 or not exp_bins:
            obs_bins.append(counts[small].sum())
            exp_bins.append(exp[small].sum())
        else:
            k = int(np.argmin(exp_bins))
            obs_bins[k] += counts[small].sum()
            exp_bins[k] += exp[small].sum()
    if len(obs_bins) < 2:
        return 1.0
    return float(
        stats.chisquare(obs_bins, np.array(exp_bins) * (sum(obs_bins) / sum(exp_bins))).pvalue
    )


def test_gof_helper_can_fail():
    rng = np.random.default_rng(0)
    counts = np.bincount(rng.random(200_000) < 0.5, minlength=2)
    assert gof_pvalue(counts, [0.5, 0.5]) > ALPHA
    assert gof_pvalue(counts, [0.45, 0.55]) < ALPHA  # a 5-point error is caught
    assert gof_pvalue([10, 0, 1], [0.5, 0.5, 0.0]) == 0.0  # an impossible outcome seen
    assert gof_pvalue([3, 4, 0], [1.0, 0.0, 0.0]) == 0.0


def test_brute_force_oracle_can_fail():
    # the oracle is itself checked on a case counted by hand: 1d6 vs 1d6 hits 21 of 36
    assert brute_force_counts([6], [6]) == ([15, 21], 36)
    assert brute_force_counts([6], [6], 1) == ([10, 26], 36)


# --- exact duels: hand-computed cases ---------------------------------------------------------
def frac(xs, total):
    return [Fraction(x, total) for x in xs]


HAND = [
    # TR-001 fair dice; TR-278 each attack die >= the highest defence die wounds;
    # TR-279 ties go to the attacker: a d6 against a d6 hits on 21 of 36 rolls.
    (([6], [6], 0, 0), frac([15, 21], 36)),
    # two d6 against a d6: for defence h each die hits with (7-h)/6, so P(2) = sum m^2 / 216
    (([6, 6], [6], 0, 0), frac([55, 70, 91], 216)),
    # TR-278 "highest defence die": a d6 against 2d6 (P(max = h) = (2h-1)/36) hits 91/216
    (([6], [6, 6], 0, 0), frac([125, 91], 216)),
    # a d4 against a d8: (1/8)(4+3+2+1)/4 = 5/16
    (([4], [8], 0, 0), frac([11, 5], 16)),
    # a d20 against a d20: 210 of 400; a d10 against a d12: 55 of 120
    (([20], [20], 0, 0), frac([190, 210], 400)),
    (([10], [12], 0, 0), frac([65, 55], 120)),
    # TR-276: +1 on a d6 against a d6 misses only when d >= a + 2: 10 of 36
    (([6], [6], 1, 0), frac([10, 26], 36)),
    # TR-277 the bonus is not split: +5 on one of two d6 against a d6 guarantees one wound,
    # and a second wound only when the other die reaches the defence unaided: both dice
    # missing unaided is the 55 of 216 of the no-bonus case, which now gives 1 wound
    (([6, 6], [6], 5, 0), frac([0, 55, 161], 216)),
    # TR-285 / TR-340: +1 defence on a d6 against a d6 attack: the attack needs a >= d + 1
    (([6], [6], 0, 1), frac([21, 15], 36)),
    # TR-286 all defence icons on one die, the highest: d6 vs d4+d4 with +2 -> max(d)+2
    # P(hit) = sum_h P(max=h) P(a >= h+2) = (1*4 + 3*3 + 5*2 + 7*1) / (16*6) = 30/96
    (([6], [4, 4], 0, 2), frac([66, 30], 96)),
    # attack and defence bonus together: d8+3 against d6+2 -> wound iff a+3 >= d+2
    # misses: a + 1 < d, i.e. d >= a + 2: sum_{a=1..4} (5 - a) = 10 of 48
    (([8], [6], 3, 2), frac([10, 38], 48)),
    # no attack dice: certainly no wound
    (([], [6], 3, 0), [Fraction(1)]),
]


@pytest.mark.parametrize(("args", "expected"), HAND)
def test_hand_computed_duels(args, expected):
    assert duel_fractions(*args) == expected
    np.testing.assert_allclose(
        duel_distribution(*args), [float(x) for x in expected], rtol=0, atol=1e-15
    )
    counts, total = brute_force_counts(*args)
    assert frac(counts, total) == expected


def test_distribution_shape_and_dtype():
    p = duel_distribution([4, 6, 8, 10, 12, 20], [12, 20], 2, 1)
    assert p.shape == (7,) and p.dtype == np.float64
    assert abs(p.sum() - 1) < 1e-12 and (p >= 0).all()


# --- exact duels: brute force -----------------------------------------------------------------
pools = st.lists(st.sampled_from(SIZES), min_size=0, max_size=4)
defences = st.lists(st.sampled_from(SIZES), min_size=1, max_size=3)
bonuses = st.integers(0, 7)


@settings(max_examples=250, deadline=None)
@given(pools, defences, bonuses, bonuses)
def test_exact_matches_brute_force(attack, defense, ab, db):
    # TR-276/TR-277 (attack icons on one die, placed to turn a miss into a hit) and
    # TR-285/TR-286 (defence icons on one die): the oracle lets each side try every die
    assume(np.prod([*attack, *defense]) <= 60_000)
    counts, total = brute_force_counts(attack, defense, ab, db)
    exact = duel_fractions(attack, defense, ab, db)
    assert exact == frac(counts, total)
    np.testing.assert_allclose(
        duel_distribution(attack, defense, ab, db),
        [float(x) for x in exact],
        rtol=1e-12,
        atol=1e-15,
    )


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.sampled_from([2, 3, 4, 6]), min_size=1, max_size=3),
    st.lists(st.sampled_from([2, 3, 4, 6]), min_size=1, max_size=3),
    bonuses,
    bonuses,
)
def test_bonus_placement_order_does_not_matter(attack, defense, ab, db):
    # the module's claim: defender-first and attacker-first placements give the same duel
    assert brute_force_counts(attack, defense, ab, db, "defender") == brute_force_counts(
        attack, defense, ab, db, "attacker"
    )


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(1, 20), min_size=0, max_size=6),
    st.lists(st.integers(1, 20), min_size=1, max_size=4),
    bonuses,
    bonuses,
)
def test_wound_rule_on_rolled_values(a_rolls, d_rolls, ab, db):
    # TR-278/TR-341: wounds = attack dice >= highest defence die, bonus on the best die
    high = max(d_rolls) + db
    want = max(
        [sum(x >= high for x in a_rolls)]
        + [
            sum(x + ab * (i == k) >= high for i, x in enumerate(a_rolls))
            for k in range(len(a_rolls))
        ]
    )
    got = duel_wounds_nb(np.array(a_rolls, np.int64), np.array(d_rolls, np.int64), ab, db)
    assert got == want


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.sampled_from([4, 6, 8, 10, 12, 20]), min_size=5, max_size=14),
    st.lists(st.sampled_from([4, 6, 8, 10, 12, 20]), min_size=1, max_size=6),
    bonuses,
    bonuses,
)
def test_float_kernel_matches_integer_twin_on_large_pools(attack, defense, ab, db):
    # pools too large to enumerate: the float64 kernel against the exact integer version
    exact = [float(x) for x in duel_fractions(attack, defense, ab, db)]
    np.testing.assert_allclose(
        duel_distribution(attack, defense, ab, db), exact, rtol=1e-11, atol=1e-15
    )


def test_pmf_kernel_writes_out():
    out = np.full(3, -1.0)
    duel_pmf_nb(np.array([6, 6]), np.array([6]), 0, 0, out)
    np.testing.assert_allclose(out, np.array([55, 70, 91]) / 216, atol=1e-15)


# --- sampled duels against the exact ones ------------------------------------------------------
SAMPLED = [
    ([6], [6], 0, 0),
    ([6, 6], [8], 2, 0),
    ([4, 8, 12], [6, 6], 1, 1),
    ([20, 10], [12], 0, 3),
    ([8, 8, 8, 8], [20], 4, 0),
    ([4, 4], [12, 12, 12], 0, 0),
]


@pytest.mark.parametrize("case", SAMPLED)
def test_sampled_duels_match_exact(case):
    # TR-001 fair independent dice: 200,000 sampled duels fit the exact distribution
    # (chi-square, false-alarm rate ALPHA per case, fixed seed)
    n = 200_000
    counts = sample_duels(*case, n=n, seed=12345)
    assert counts.sum() == n
    assert gof_pvalue(counts, duel_distribution(*case)) > ALPHA


def test_sampling_is_reproducible():
    a = sample_duels([6, 8], [6], 1, 0, n=5000, seed=3)
    np.testing.assert_array_equal(a, sample_duels([6, 8], [6], 1, 0, n=5000, seed=3))
    assert not np.array_equal(a, sample_duels([6, 8], [6], 1, 0, n=5000, seed=4))


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(SIZES), min_size=0, max_size=5),
    defences,
    bonuses,
    bonuses,
    st.integers(0, 2**32),
    st.integers(0, 1000),
)
def test_duel_kernel_matches_python_reference(attack, defense, ab, db, seed, index):
    s1 = new_state(seed, index)
    s2 = s1.copy()
    got = duel_nb(np.array(attack, np.int64), np.array(defense, np.int64), ab, db, s1)
    assert got == reference_duel(attack, defense, ab, db, s2)
    np.testing.assert_array_equal(s1, s2)  # same number of draws


# --- mobbing ---------------------------------------------------------------------------------
MOBS = [
    # TR-343/TR-344: the largest single die leads, even against more dice
    ([[8], [6, 6]], [8, 6]),
    ([[6, 6], [8]], [8, 6]),
    # TR-344: among equal largest dice, the one with more dice of that size leads
    ([[8, 4], [8, 8]], [8, 8, 4]),
    # TR-344: count only dice of the largest size: [8, 8] beats [8, 6, 6, 6]
    ([[8, 6, 6, 6], [8, 8]], [8, 8, 6]),
    # TR-346: the smallest die of each other enemy in short range joins
    ([[12], [10, 4], [6, 6]], [12, 4, 6]),
    ([[6, 6], [8, 4], [4, 4]], [8, 4, 6, 4]),
    # a lone enemy rolls its own dice; no enemy, no dice
    ([[10, 4]], [10, 4]),
    ([], []),
]


@pytest.mark.parametrize(("enemies", "expected"), MOBS)
def test_mob_cases_from_the_rulebook(enemies, expected):
    assert mob_attack(enemies) == expected
    dice_, offsets = pack_enemies(enemies)
    out = np.zeros(16, np.int64)
    n = mob_attack_nb(dice_, offsets, -1, out)
    assert out[:n].tolist() == expected


def test_mob_full_tie_is_the_callers_choice():
    # TR-345 (open): a full tie (same largest die, same count) is the players' choice.
    # Our reading: the caller names the leader; by default the first listed leads.
    enemies = [[8, 8, 6, 6], [8, 8, 4]]
    assert mob_leaders(enemies) == [0, 1]
    assert mob_attack(enemies) == [8, 8, 6, 6, 4]
    assert mob_attack(enemies, leader=1) == [8, 8, 4, 6]
    assert mob_attack(enemies[::-1]) == [8, 8, 4, 6]  # order decides the default
    dice_, offsets = pack_enemies(enemies)
    out = np.zeros(8, np.int64)
    assert mob_leader_nb(dice_, offsets) == 0
    n = mob_attack_nb(dice_, offsets, 1, out)
    assert out[:n].tolist() == [8, 8, 4, 6]
    # the choice matters: the defender's odds differ between the two leaders
    a = duel_distribution(mob_attack(enemies), [8])
    b = duel_distribution(mob_attack(enemies, leader=1), [8])
    assert a @ np.arange(6) != pytest.approx(b @ np.arange(5))
    with pytest.raises(SimlibInputError, match="leader must be the index of one of the strongest"):
        mob_attack([[8], [6]], leader=1)  # not strongest
    with pytest.raises(SimlibInputError, match="leader"):
        mob_attack([[8], [8]], leader=True)


enemy_lists = st.lists(
    st.lists(st.sampled_from([4, 6, 8, 10, 12, 20]), min_size=1, max_size=4), min_size=0, max_size=6
)


@settings(max_examples=300, deadline=None)
@given(enemy_lists, st.data())
def test_mob_kernel_matches_reference(enemies, data):
    # TR-343/TR-344/TR-346 against the sentence-level reference, every possible leader
    assert mob_attack(enemies) == reference_mob(enemies)
    dice_, offsets = pack_enemies(enemies)
    out = np.zeros(32, np.int64)
    n = mob_attack_nb(dice_, offsets, -1, out)
    assert out[:n].tolist() == reference_mob(enemies)
    if enemies:
        leader = data.draw(st.sampled_from(mob_leaders(enemies)))
        n = mob_attack_nb(dice_, offsets, leader, out)
        assert out[:n].tolist() == mob_attack(enemies, leader) == reference_mob(enemies, leader)
        assert n == len(enemies[leader]) + len(enemies) - 1


# --- fall damage ------------------------------------------------------------------------------
def brute_force_fall(defense, squares):
    if squares <= 1:
        return Fraction(0)
    totals = [sum(r) for r in itertools.product(*[range(1, s + 1) for s in defense])]
    return Fraction(sum(t <= squares for t in totals), len(totals))


@pytest.mark.parametrize(
    ("defense", "squares", "expected"),
    [
        # TR-127: a fall of 1 square or less never rolls, even with a d1 that would always hurt
        ([1], 1, Fraction(0)),
        ([6], 0, Fraction(0)),
        ([6], 1, Fraction(0)),
        # TR-128/TR-129: total of the defence dice <= squares fallen loses a health
        ([6], 2, Fraction(2, 6)),
        ([6], 3, Fraction(1, 2)),
        ([6], 6, Fraction(1)),
        ([6], 9, Fraction(1)),
        ([6, 6], 2, Fraction(1, 36)),
        ([4, 4], 4, Fraction(6, 16)),
        ([12], 4, Fraction(4, 12)),
        ([8, 4], 5, Fraction(10, 32)),
    ],
)
def test_fall_damage_hand_cases(defense, squares, expected):
    assert fall_damage_fraction(defense, squares) == expected
    assert fall_damage_probability(defense, squares) == pytest.approx(float(expected), abs=1e-15)
    assert brute_force_fall(defense, squares) == expected


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(SIZES), min_size=1, max_size=4), st.integers(0, 50))
def test_fall_damage_matches_brute_force(defense, squares):
    # TR-128/TR-129, and TR-134 (open; our reading): no bonus enters the roll, the plain sum
    assume(np.prod(defense) <= 20_000)
    assert fall_damage_fraction(defense, squares) == brute_force_fall(defense, squares)


def test_fall_kernel_draws_nothing_for_short_falls():
    # TR-127: no roll at all for a fall of 1
    s = new_state(1, 2)
    before = s.copy()
    assert fall_damage_nb(np.array([1]), 1, s) == 0
    np.testing.assert_array_equal(s, before)
    # TR-129: exactly 1 health: the kernel returns 0 or 1
    assert fall_damage_nb(np.array([1, 1]), 2, s) == 1


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(SIZES), min_size=1, max_size=5),
    st.integers(0, 40),
    st.integers(0, 2**32),
    st.integers(0, 1000),
)
def test_fall_kernel_matches_python_reference(defense, squares, seed, index):
    # TR-127..TR-129 in plain Python, fed the same stream as the kernel
    s1 = new_state(seed, index)
    s2 = s1.copy()
    got = fall_damage_nb(np.array(defense, np.int64), squares, s1)
    want = 0
    if squares > 1:
        want = int(sum(int(randint_nb(s, s2)) + 1 for s in defense) <= squares)
    assert got == want
    np.testing.assert_array_equal(s1, s2)


@pytest.mark.parametrize(("defense", "squares"), [([6], 3), ([4, 4], 4), ([8, 12], 7), ([6], 2)])
def test_sampled_falls_match_exact(defense, squares):
    # 200,000 sampled falls: exact binomial test, two-sided, false-alarm rate ALPHA
    n = 200_000
    hurt = sample_falls(defense, squares, n=n, seed=99)
    p = fall_damage_probability(defense, squares)
    assert stats.binomtest(hurt, n, p).pvalue > ALPHA


# --- input validation -------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: duel_distribution("66", [6]), "attack must be a list of die sizes"),
        (lambda: duel_distribution([6, 0], [6]), r"attack\[1\] \(sides of a die\) must be a whole"),
        (lambda: duel_distribution([6.5], [6]), r"attack\[0\]"),
        (lambda: duel_distribution([True], [6]), r"attack\[0\]"),
        (lambda: duel_distribution([6], []), "defense must name at least 1 die"),
        (lambda: duel_distribution([6], [2000]), "from 1 to 1000"),
        (lambda: duel_distribution([6], [6], -1), "attack_bonus must be a whole number from 0"),
        (lambda: duel_distribution([6], [6], 0, 1.5), "defense_bonus"),
        (lambda: duel_distribution(np.ones((2, 2), int), [6]), "flat list"),
        (lambda: duel_distribution([6] * 101, [6]), "at most 100 dice"),
        (lambda: fall_damage_probability([6], -1), "squares must be a whole number >= 0"),
        (lambda: fall_damage_probability([], 3), "defense must name at least 1 die"),
        (lambda: mob_attack([[8], []]), r"enemies\[1\] must name at least 1 die"),
        (lambda: mob_attack(8), "enemies must be a list of attack pools"),
        (lambda: mob_attack([], leader=0), "no enemies"),
        (lambda: sample_duels([6], [6], n=-5), "n must be"),
    ],
)
def test_bad_input_gets_one_clear_message(call, match):
    with pytest.raises(SimlibInputError, match=match) as err:
        call()
    assert "\n" not in str(err.value)


def test_numpy_inputs_accepted():
    np.testing.assert_allclose(
        duel_distribution(np.array([6, 6]), (np.int32(6),)), duel_distribution([6, 6], [6])
    )


# --- plain Python (NUMBA_DISABLE_JIT=1) gives the same numbers ---------------------------------
PLAIN = """
import json, warnings
warnings.filterwarnings("ignore")
import numpy as np
from simlib.core import dice
out = {
  "duels": dice.sample_duels([6, 8, 12], [6, 4], 2, 1, n=3000, seed=5).tolist(),
  "falls": dice.sample_falls([6, 6], 5, n=3000, seed=6),
  "pmf": dice.duel_distribution([20, 4, 4], [12, 8], 3, 2).tolist(),
  "mob": dice.mob_attack([[6, 6], [8, 4], [4, 4], [8, 6]]),
}
d, o = dice.pack_enemies([[6, 6], [8, 4], [4, 4], [8, 6]])
buf = np.zeros(8, np.int64)
out["mob_nb"] = buf[:dice.mob_attack_nb(d, o, -1, buf)].tolist()
print(json.dumps(out))
"""


def test_plain_python_matches_numba():
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    res = subprocess.run(
        [sys.executable, "-c", PLAIN],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    plain = json.loads(res.stdout.strip().splitlines()[-1])
    assert plain["duels"] == dice.sample_duels([6, 8, 12], [6, 4], 2, 1, n=3000, seed=5).tolist()
    assert plain["falls"] == dice.sample_falls([6, 6], 5, n=3000, seed=6)
    np.testing.assert_allclose(
        plain["pmf"], duel_distribution([20, 4, 4], [12, 8], 3, 2), rtol=0, atol=1e-15
    )
    assert plain["mob"] == plain["mob_nb"] == [8, 4, 6, 4, 6]
