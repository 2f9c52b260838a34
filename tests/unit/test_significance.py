"""The paired tests of rouge_plus.corpus.significance, checked against plain enumerations.

The exact permutation p-value is compared with a hand enumeration in rational arithmetic (so its
ties are real ties), the sampled one with the exact value within its Monte Carlo error, and the
bootstrap's edge cases, determinism, block sizes and global random state are pinned.
"""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rouge_plus.corpus import significance
from rouge_plus.corpus.significance import holm, paired_test

# ROUGE-like scores (ratios of small counts) with repeated differences: 1/7 twice, 1/4 twice and
# three zeros, so many sign assignments tie with the observed sum exactly.
SYSTEM = [Fraction(*f) for f in [(3, 7), (1, 2), (2, 5), (5, 9), (1, 3), (4, 7), (2, 3), (1, 4),
                                 (3, 8), (1, 2)]]  # fmt: skip
BASELINE = [Fraction(*f) for f in [(2, 7), (1, 2), (3, 5), (4, 9), (1, 3), (3, 7), (1, 3), (1, 4),
                                   (1, 8), (1, 4)]]  # fmt: skip


def hand_enumeration(system: list[Fraction], baseline: list[Fraction]) -> Fraction:
    """Share of all 2^n sign assignments whose |sum of signed differences| >= the observed one."""
    differences = [s - b for s, b in zip(system, baseline, strict=True)]
    observed = abs(sum(differences))
    at_least = 0
    for signs in itertools.product([1, -1], repeat=len(differences)):
        if abs(sum(sign * d for sign, d in zip(signs, differences, strict=True))) >= observed:
            at_least += 1
    return Fraction(at_least, 2 ** len(differences))


def floats(values: list[Fraction]) -> np.ndarray:
    return np.array([float(v) for v in values])


@pytest.mark.parametrize("n", [1, 2, 5, 8, 10])
def test_exact_permutation_p_value_equals_hand_enumeration(n):
    result = paired_test(floats(SYSTEM[:n]), floats(BASELINE[:n]), n_resamples=10_000)
    assert result.exact
    assert float(result.p_value) == hand_enumeration(SYSTEM[:n], BASELINE[:n])
    assert float(result.delta) == pytest.approx(float(sum(SYSTEM[:n]) - sum(BASELINE[:n])) / n)


def test_exact_enumeration_in_small_blocks(monkeypatch):
    """Blocks of a few assignments (what bounds memory) count the same assignments."""
    monkeypatch.setattr(significance, "_CELLS", 3)
    result = paired_test(floats(SYSTEM), floats(BASELINE), n_resamples=1024)
    assert result.exact and float(result.p_value) == hand_enumeration(SYSTEM, BASELINE)


def test_exact_only_when_every_assignment_fits_the_budget():
    system, baseline = floats(SYSTEM), floats(BASELINE)
    assert paired_test(system, baseline, n_resamples=1024).exact
    sampled = paired_test(system, baseline, n_resamples=1023)
    assert not sampled.exact
    assert float(sampled.p_value) * 1024 == pytest.approx(round(float(sampled.p_value) * 1024))
    assert not paired_test(system, baseline, method="bootstrap", n_resamples=1024).exact


def _sixteen_examples() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(2024)
    baseline = rng.integers(0, 30, size=16) / 30
    system = np.clip(baseline + rng.normal(0.04, 0.12, size=16), 0, 1)
    return system, baseline


def test_sampled_p_value_agrees_with_exact_within_monte_carlo_error():
    system, baseline = _sixteen_examples()
    differences = system - baseline
    signs = np.array(list(itertools.product([1, -1], repeat=len(differences))))
    exact = np.mean(np.abs(signs @ differences) >= abs(differences.sum()) - 1e-12)
    assert 0.05 < exact < 0.95, "pick data whose p-value is not at an extreme"
    for seed in range(3):
        result = paired_test(system, baseline, n_resamples=10_000, seed=seed)
        assert not result.exact
        standard_error = math.sqrt(exact * (1 - exact) / 10_000)
        assert abs(float(result.p_value) - exact) < 4 * standard_error + 1 / 10_001
    assert float(paired_test(system, baseline, n_resamples=1 << 16).p_value) == exact


def test_sampled_p_value_with_many_tables_and_blocks(monkeypatch):
    """Lookup tables over 8 examples and blocks of 4 resamples: the same test, still unbiased."""
    monkeypatch.setattr(significance, "_TABLE_EXAMPLES", 8)
    monkeypatch.setattr(significance, "_CELLS", 8)
    system, baseline = _sixteen_examples()
    differences = system - baseline
    signs = np.array(list(itertools.product([1, -1], repeat=len(differences))))
    exact = np.mean(np.abs(signs @ differences) >= abs(differences.sum()) - 1e-12)
    result = paired_test(system, baseline, n_resamples=10_000)
    assert abs(float(result.p_value) - exact) < 4 * math.sqrt(exact * (1 - exact) / 10_000) + 1e-4


def test_bootstrap_in_column_chunks_matches_the_sampling_distribution(monkeypatch):
    """Rows resampled 5 columns at a time (as for huge corpora) still give the bootstrap law."""
    monkeypatch.setattr(significance, "_CELLS", 5)
    system, baseline = _sixteen_examples()
    d = system - baseline
    means = significance._bootstrap_means(d[:, None], 20_000, np.random.SeedSequence(1))[:, 0]
    spread = d.std() / math.sqrt(len(d))  # the standard deviation of a resample's mean
    assert means.mean() == pytest.approx(d.mean(), abs=4 * spread / math.sqrt(20_000))
    assert means.std() == pytest.approx(spread, rel=0.03)


def test_identical_systems():
    scores = np.random.default_rng(0).random((50, 4))
    for method in ("permutation", "bootstrap"):
        result = paired_test(scores, scores.copy(), method=method)
        for values in (result.delta, result.ci_low, result.ci_high):
            assert np.array_equal(values, np.zeros(4)) and not np.signbit(values).any()
        assert np.array_equal(result.p_value, np.ones(4))


def test_a_single_example():
    for method in ("permutation", "bootstrap"):
        result = paired_test(np.array([0.5]), np.array([0.25]), method=method)
        assert float(result.p_value) == 1.0
        assert float(result.delta) == float(result.ci_low) == float(result.ci_high) == 0.25
        assert result.exact == (method == "permutation")


def test_zero_mean_difference_is_not_significant():
    system, baseline = np.array([0.2, 0.6, 0.4]), np.array([0.6, 0.2, 0.4])
    for method in ("permutation", "bootstrap"):
        assert float(paired_test(system, baseline, method=method).p_value) == 1.0


def test_a_clear_difference_gets_the_smallest_p_value():
    rng = np.random.default_rng(3)
    baseline = rng.random(200) * 0.5
    system = baseline + 0.2 + rng.random(200) * 0.1
    for method in ("permutation", "bootstrap"):
        result = paired_test(system, baseline, method=method, n_resamples=999)
        assert float(result.p_value) == 1 / 1000
        assert 0.2 < float(result.ci_low) < float(result.delta) < float(result.ci_high) < 0.3


def test_same_seed_same_result_and_seeds_matter():
    rng = np.random.default_rng(4)
    system, baseline = rng.random((300, 3)), rng.random((300, 3))
    for method in ("permutation", "bootstrap"):
        first = paired_test(system, baseline, method=method, seed=7)
        again = paired_test(system, baseline, method=method, seed=7)
        other = paired_test(system, baseline, method=method, seed=8)
        for field in ("delta", "ci_low", "ci_high", "p_value"):
            assert np.array_equal(getattr(first, field), getattr(again, field))
        assert not np.array_equal(first.ci_low, other.ci_low)


def test_interval_is_the_same_for_both_methods():
    rng = np.random.default_rng(5)
    system, baseline = rng.random((120, 2)), rng.random((120, 2))
    permutation = paired_test(system, baseline, method="permutation")
    bootstrap = paired_test(system, baseline, method="bootstrap")
    assert np.array_equal(permutation.ci_low, bootstrap.ci_low)
    assert np.array_equal(permutation.ci_high, bootstrap.ci_high)


def test_a_column_does_not_depend_on_the_other_columns():
    """Each type sees the same draws alone or with others, also beyond 8 types (column groups)."""
    rng = np.random.default_rng(6)
    system, baseline = rng.random((70, 11)), rng.random((70, 11))
    for method in ("permutation", "bootstrap"):
        together = paired_test(system, baseline, method=method, n_resamples=500)
        for j in (0, 7, 8, 10):
            alone = paired_test(system[:, j], baseline[:, j], method=method, n_resamples=500)
            for field in ("delta", "ci_low", "ci_high", "p_value"):
                assert getattr(alone, field) == getattr(together, field)[j], (method, j, field)


def test_no_global_random_state_is_touched():
    np.random.seed(123)
    random.seed(123)
    numpy_state, python_state = np.random.get_state(), random.getstate()
    rng = np.random.default_rng(7)
    for method in ("permutation", "bootstrap"):
        paired_test(rng.random(40), rng.random(40), method=method, n_resamples=300)
        paired_test(rng.random(5), rng.random(5), method=method, n_resamples=300)
    after = np.random.get_state()
    assert all(np.array_equal(a, b) for a, b in zip(numpy_state, after, strict=True))
    assert random.getstate() == python_state


def paired_scores(n: int) -> st.SearchStrategy:
    """Two lists of n ROUGE-like scores (multiples of 1/20, so ties are common)."""
    column = st.lists(st.integers(0, 20).map(lambda k: k / 20), min_size=n, max_size=n)
    return st.tuples(column, column)


@settings(max_examples=60, deadline=None)
@given(pairs=st.integers(1, 24).flatmap(paired_scores),
       method=st.sampled_from(["permutation", "bootstrap"]))  # fmt: skip
def test_swapping_baseline_and_system_negates_delta_and_keeps_p(pairs, method):
    """Exact for n <= 8 (2^8 <= 300 assignments), sampled above."""
    system, baseline = np.array(pairs[0]), np.array(pairs[1])
    forward = paired_test(system, baseline, method=method, n_resamples=300)
    backward = paired_test(baseline, system, method=method, n_resamples=300)
    assert float(backward.delta) == -float(forward.delta)
    assert float(backward.p_value) == float(forward.p_value)
    assert float(backward.ci_low) == pytest.approx(-float(forward.ci_high), abs=1e-12)
    assert float(backward.ci_high) == pytest.approx(-float(forward.ci_low), abs=1e-12)
    assert 0 < float(forward.p_value) <= 1


def test_holm_adjustment():
    # Sorted: 0.005*4 = 0.02, 0.01*3 = 0.03, 0.03*2 = 0.06, 0.04*1 -> max(0.06, 0.04) = 0.06.
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm([0.5, 0.9]).tolist() == [1.0, 1.0]
    assert holm(np.array([[0.01], [0.02]])).shape == (2, 1)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"method": "t-test"}, "method: unknown value 't-test'; valid values are: permutation"),
        ({"n_resamples": 0}, "n_resamples must be a positive int"),
        ({"seed": -1}, "seed must be a non-negative int"),
        ({"confidence_level": 95}, "confidence_level must be in (0, 1)"),
    ],
)
def test_bad_settings(kwargs, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        paired_test(np.ones(3), np.zeros(3), **kwargs)


def test_bad_inputs():
    with pytest.raises(ValueError, match="same shape"):
        paired_test(np.ones(3), np.zeros(4))
    with pytest.raises(ValueError, match="no examples"):
        paired_test(np.ones(0), np.zeros(0))
    with pytest.raises(ValueError, match="finite"):
        paired_test(np.array([0.5, np.nan]), np.zeros(2))
