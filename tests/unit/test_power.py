"""power_analysis: the paired t-test's answer equals statsmodels', the simulated permutation and
bootstrap tests agree with it on normal data, and every answer moves the right way with the gap
and with alpha."""

from __future__ import annotations

import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rouge_plus import power_analysis
from rouge_plus.errors import InputError, MissingExtraError, OptionError

power_module = pytest.importorskip("statsmodels.stats.power")


def normal_differences(effect: float, n: int = 200, seed: int = 1) -> np.ndarray:
    """Paired differences drawn from a normal law, rescaled to mean ``effect`` and sd 1."""
    d = np.random.default_rng(seed).normal(size=n)
    return (d - d.mean()) / d.std(ddof=1) + effect


@pytest.mark.parametrize("effect", [0.15, 0.3, 0.6, 1.2])
@pytest.mark.parametrize("alpha", [0.01, 0.05, 0.1])
@pytest.mark.parametrize("power", [0.7, 0.8, 0.95])
def test_the_t_test_equals_statsmodels(effect, alpha, power):
    d = np.random.default_rng(7).normal(effect, 1.0, size=60)
    expected = power_module.TTestPower().solve_power(
        effect_size=d.mean() / d.std(ddof=1), alpha=alpha, power=power
    )
    result = power_analysis(d, alpha=alpha, power=power, test="t")
    # The least whole number of documents that reaches the power: statsmodels' real-valued
    # answer rounded up (within 5% once it is 20 or more).
    assert expected <= result.documents < expected + 1
    if expected >= 20:
        assert result.documents == pytest.approx(expected, rel=0.05)


@pytest.mark.parametrize("test", ["permutation", "bootstrap"])
@pytest.mark.parametrize("effect", [0.25, 0.5])
def test_the_simulated_tests_agree_with_the_t_test_on_normal_data(test, effect):
    d = normal_differences(effect)
    analytic = power_analysis(d, test="t").documents
    assert power_analysis(d, test=test).documents == pytest.approx(analytic, rel=0.10)


@pytest.mark.parametrize("test", ["permutation", "bootstrap", "t"])
def test_a_larger_gap_needs_fewer_documents(test):
    needed = [
        power_analysis(normal_differences(effect), test=test, n_simulations=400).documents
        for effect in (0.3, 0.45, 0.7, 1.0)
    ]
    assert needed == sorted(needed, reverse=True) and needed[0] > needed[-1]


@pytest.mark.parametrize("test", ["permutation", "bootstrap", "t"])
def test_a_smaller_alpha_needs_more_documents(test):
    d = normal_differences(0.4)
    needed = [
        power_analysis(d, alpha=alpha, test=test, n_simulations=400).documents
        for alpha in (0.01, 0.05, 0.1, 0.2)
    ]
    assert needed == sorted(needed, reverse=True) and needed[0] > needed[-1]


def test_two_systems_or_their_differences_and_the_curve():
    rng = np.random.default_rng(3)
    b = rng.uniform(0.2, 0.5, size=80)
    a = b + rng.normal(0.02, 0.05, size=80)
    both = power_analysis(a, b, test="permutation", n_simulations=300)
    assert both == power_analysis(a - b, test="permutation", n_simulations=300)
    assert both.gap == pytest.approx(np.mean(a - b)) and both.pilot_documents == 80
    counts = [n for n, _ in both.curve]
    assert counts[0] == 2 and counts[-1] == 2 * both.documents and counts == sorted(counts)
    at = dict(both.curve)
    assert at[counts[-1]] >= 0.8
    asked = power_analysis(a, b, test="t", curve=[10, 50, both.documents])
    assert [n for n, _ in asked.curve] == [10, 50, both.documents]
    report = asked.to_dict()
    assert report["effect_size"] == pytest.approx(asked.gap / asked.sd)
    assert report["curve"][0] == {"documents": 10, "power": asked.curve[0][1]}


def test_seeded():
    d = normal_differences(0.4, n=50)
    assert power_analysis(d, seed=3) == power_analysis(d, seed=3)
    runs = {
        power_analysis(d, test="bootstrap", seed=s, n_simulations=200).documents for s in (0, 1, 2)
    }
    assert len(runs) > 1


def test_a_gap_beyond_max_documents():
    result = power_analysis(normal_differences(0.01), test="t", max_documents=500)
    assert result.documents is None and result.curve[-1][0] == 500


@settings(max_examples=50, deadline=None)
@given(
    effect=st.floats(0.02, 3.0),
    alpha=st.sampled_from([0.001, 0.01, 0.05, 0.1]),
    counts=st.lists(st.integers(2, 5000), min_size=2, max_size=8, unique=True),
)
def test_the_t_power_rises_with_documents_and_stays_between_alpha_and_1(effect, alpha, counts):
    d = normal_differences(effect, n=30)
    result = power_analysis(d, alpha=alpha, test="t", curve=sorted(counts))
    powers = [p for _, p in result.curve]
    assert all(alpha * 0.999 <= p <= 1 for p in powers)
    assert powers == sorted(powers)


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "match"),
    [
        (([0.1, np.nan, 0.3],), {}, InputError, "document 1 is not a finite"),
        (([0.1, 0.2], [0.1]), {}, InputError, "same shape"),
        (([0.1],), {}, InputError, "at least 2 documents"),
        (([[0.1, 0.2]],), {}, InputError, "at least 2 documents"),
        (([0.1, -0.1],), {}, InputError, "mean 0"),
        (([0.1, 0.1],), {}, InputError, "do not vary"),
        (([0.1, 0.3],), {"test": "wilcoxon"}, OptionError, "test: unknown value 'wilcoxon'"),
        (([0.1, 0.3],), {"alpha": 1.5}, OptionError, "alpha must be in"),
        (([0.1, 0.3],), {"power": 0.01}, OptionError, "must exceed alpha"),
        (([0.1, 0.3],), {"n_simulations": 0}, OptionError, "n_simulations"),
        (([0.1, 0.3],), {"curve": [1]}, OptionError, "curve must be"),
    ],
)
def test_bad_input(args, kwargs, error, match):
    with pytest.raises(error, match=match):
        power_analysis(*args, **kwargs)


def test_the_t_test_without_scipy_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "scipy", None)
    with pytest.raises(MissingExtraError, match=r"\.\[stats\]"):
        power_analysis([0.1, 0.3, 0.2], test="t")
