"""rouge_plus.meta against independent implementations: nlpstats (Deutsch's own library) for the
levels, intervals and permutation test, SciPy for the coefficients, and a loop restating
sacrerouge's paired bootstrap test; on hypothesis-generated matrices with ties and NaN cells."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from unittest import mock

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rouge_plus.errors import JudgmentsError, OptionError
from rouge_plus.meta import bootstrap_samples, coefficients, compare_correlations, correlate
from rouge_plus.meta.coefficients import METHODS, coefficient, column_coefficients

stats = pytest.importorskip("scipy.stats")
nlp = pytest.importorskip("nlpstats.correlations")

NLP_LEVEL = {"system": "system", "summary": "input", "global": "global"}
NLP_RESAMPLE = {"systems": "systems", "documents": "inputs", "both": "both"}
SETTINGS = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


def scipy_coefficient(method: str):
    """SciPy's coefficient as nlpstats takes one (a callable of two vectors)."""
    if method == "pearson":
        return lambda x, z: stats.pearsonr(x, z)[0] if len(x) > 1 else np.nan
    if method == "spearman":
        return lambda x, z: stats.spearmanr(x, z)[0]
    variant = "c" if method == "kendall_c" else "b"
    return lambda x, z: stats.kendalltau(x, z, variant=variant)[0]


@st.composite
def score_matrices(draw, count: int = 2, tied: bool = True):
    """``count`` (systems x documents) matrices with NaN in the same cells, every system and
    document with at least two cells; values from a few levels (ties) or continuous."""
    m = draw(st.integers(3, 7))
    n = draw(st.integers(2, 6))
    missing = np.array(draw(st.lists(st.booleans(), min_size=m * n, max_size=m * n)))
    missing = missing.reshape(m, n) & (np.arange(m)[:, None] >= 2)  # two full systems
    missing[:, 0] = False  # a full document, so no system is empty
    # Scores as metrics give them: no subnormal floats (below 2.2e-308), whose squares vanish
    # in the weighted sums of products while SciPy rescales first (docs/significance.md).
    values = (
        st.integers(0, 3).map(float)
        if tied
        else st.floats(0, 1, allow_nan=False, allow_subnormal=False)
    )
    matrices = []
    for _ in range(count):
        cells = np.array(draw(st.lists(values, min_size=m * n, max_size=m * n)), dtype=float)
        cells = cells.reshape(m, n)
        cells[missing] = np.nan
        matrices.append(cells)
    return matrices


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def close(a: float, b: float) -> bool:
    return (np.isnan(a) and np.isnan(b)) or bool(np.isclose(a, b, rtol=0, atol=1e-9))


@SETTINGS
@given(st.data(), st.sampled_from(METHODS))
def test_coefficients_equal_scipy_on_weighted_samples(data, method):
    """A weighted sample's coefficient is SciPy's on the sample with each element repeated."""
    k = data.draw(st.integers(1, 8))
    x = np.array(data.draw(st.lists(st.integers(0, 3), min_size=k, max_size=k)), dtype=float)
    z = np.array(data.draw(st.lists(st.integers(0, 2), min_size=k, max_size=k)), dtype=float)
    w = np.array(data.draw(st.lists(st.integers(0, 3), min_size=k, max_size=k)))
    expected = scipy_coefficient(method)(np.repeat(x, w), np.repeat(z, w))
    assert close(coefficient(x, z, w, method), expected)


@SETTINGS
@given(st.data(), st.sampled_from(METHODS), st.booleans())
def test_column_coefficients_equal_scipy(data, method, one_per_block):
    """Each column's coefficient under each weighting of the rows (the summary level under a
    resample of the systems) is SciPy's on the column's present cells, each row repeated as often
    as its weight; in blocks of one weighting or all at once."""
    x, z = data.draw(score_matrices(tied=data.draw(st.booleans())))
    rows = st.lists(st.integers(0, 3), min_size=len(x), max_size=len(x))
    w = np.array(data.draw(st.lists(rows, min_size=1, max_size=4)))
    block = x.size if one_per_block else coefficients._COLUMN_BLOCK
    with mock.patch.object(coefficients, "_COLUMN_BLOCK", block):
        result = column_coefficients(x, z, w, method)
    assert result.shape == (len(w), x.shape[1])
    for r, weights in enumerate(w):
        for d in range(x.shape[1]):
            keep = ~(np.isnan(x[:, d]) | np.isnan(z[:, d]))
            sample = (np.repeat(v[keep, d], weights[keep]) for v in (x, z))
            assert close(result[r, d], scipy_coefficient(method)(*sample))


@pytest.mark.parametrize("method", METHODS)
def test_column_coefficients_of_tiny_differences_equal_scipy(method):
    """Differences whose squares underflow (1e-170) still correlate (Pearson is scale-free), also
    where a resample leaves out the far value (column 0 without system 0)."""
    x = np.array([[1.0, 1.0], [1e-170, 2.0], [3e-170, 2.0], [np.nan, 5.0]])
    z = np.array([[1.0, 0.0], [3.0, 1e-170], [2.0, 2e-170], [4.0, np.nan]])
    w = np.array([[1, 1, 1, 1], [2, 0, 1, 1], [0, 1, 1, 1]])
    result = column_coefficients(x, z, w, method)
    for r, weights in enumerate(w):
        for d in range(2):
            keep = ~(np.isnan(x[:, d]) | np.isnan(z[:, d]))
            sample = (np.repeat(v[keep, d], weights[keep]) for v in (x, z))
            assert close(result[r, d], scipy_coefficient(method)(*sample))


@SETTINGS
@given(score_matrices(), st.sampled_from(sorted(NLP_LEVEL)), st.sampled_from(METHODS))
def test_correlations_equal_nlpstats(matrices, level, method):
    metric, human = matrices
    expected = nlp.correlate(metric, human, NLP_LEVEL[level], scipy_coefficient(method))
    assert close(correlate(metric, human, level, method, resample=None).value, expected)


@SETTINGS
@given(
    score_matrices(),
    st.sampled_from(sorted(NLP_LEVEL)),
    st.sampled_from(METHODS),
    st.sampled_from(sorted(NLP_RESAMPLE)),
    st.integers(0, 2**31),
)
def test_bootstrap_intervals_equal_nlpstats(matrices, level, method, resample, seed):
    metric, human = matrices
    np.random.seed(seed)
    try:
        expected = nlp.bootstrap(
            metric,
            human,
            NLP_LEVEL[level],
            scipy_coefficient(method),
            NLP_RESAMPLE[resample],
            n_resamples=60,
        )
    except (ValueError, IndexError):  # nlpstats refuses an empty system or no defined resample
        assume(False)
    assume(len(expected.samples) > 0)
    samples = bootstrap_samples(
        metric, human, level, method, resample=resample, n_resamples=60, seed=seed
    )
    np.testing.assert_allclose(samples[~np.isnan(samples)], expected.samples, atol=1e-9)
    result = correlate(metric, human, level, method, resample=resample, n_resamples=60, seed=seed)
    assert close(result.lower, expected.lower) and close(result.upper, expected.upper)


@SETTINGS
@given(
    st.data(),
    st.sampled_from(sorted(NLP_LEVEL)),
    st.sampled_from(["pearson", "spearman", "kendall"]),
    st.sampled_from(sorted(NLP_RESAMPLE)),
    st.sampled_from(["greater", "two-sided", "less"]),
    st.integers(0, 2**31),
)
def test_permutation_test_equals_nlpstats(data, level, method, resample, alternative, seed):
    """The permuted differences equal nlpstats' on tied data; the p-value equals nlpstats' where
    no permuted difference equals the observed one up to rounding (nlpstats then compares the
    rounding errors; we count it, as SciPy's permutation_test does)."""
    a, b, human = data.draw(score_matrices(count=3, tied=data.draw(st.booleans())))
    standardize = nlp.permutation._standardize
    np.random.seed(seed)
    try:  # nlpstats fails on a constant matrix (its standardization divides by 0)
        expected = nlp.permutation_test(
            a,
            b,
            human,
            NLP_LEVEL[level],
            method,
            NLP_RESAMPLE[resample],
            alternative=alternative,
            n_resamples=60,
        )
        statistic = nlp.correlate(
            standardize(a), standardize(human), NLP_LEVEL[level], method
        ) - nlp.correlate(standardize(b), standardize(human), NLP_LEVEL[level], method)
    except ValueError:
        assume(False)
    samples = np.array(expected.samples)
    assume(not np.isnan(samples).any())
    result = compare_correlations(
        a,
        b,
        human,
        level,
        method,
        resample=resample,
        n_resamples=60,
        alternative=alternative,
        seed=seed,
    )
    observed = nlp.correlate(a, human, NLP_LEVEL[level], method) - nlp.correlate(
        b, human, NLP_LEVEL[level], method
    )
    assert close(result.difference, observed)
    near = np.isclose(np.abs(samples), abs(statistic), rtol=0, atol=1e-9)
    if not near.any():
        assert result.p_value == pytest.approx(expected.pvalue, abs=1e-12)


def sacrerouge_bootstrap_test(a, b, human, level, method, resample, n, alternative, seed):
    """sacrerouge's ``bootstrap_diff_test`` restated with nlpstats' resampling and levels."""
    np.random.seed(seed)
    coefficient_ = scipy_coefficient(method)

    def corr(x, z):
        return nlp.correlate(x, z, NLP_LEVEL[level], coefficient_)

    observed = corr(a, human) - corr(b, human)
    hits = trials = 0
    for _ in range(n):
        a_s, b_s, h_s = nlp.resample((a, b, human), NLP_RESAMPLE[resample])
        delta = corr(a_s, h_s) - corr(b_s, h_s)
        if np.isnan(delta):
            continue
        trials += 1
        if alternative == "two-sided":
            hits += abs(delta) >= 2 * abs(observed) - 1e-12
        elif alternative == "greater":
            hits += delta >= 2 * observed - 1e-12
        else:
            hits += delta <= 2 * observed + 1e-12
    return observed, hits / trials


@SETTINGS
@given(
    score_matrices(count=3, tied=False),
    st.sampled_from(sorted(NLP_LEVEL)),
    st.sampled_from(METHODS),
    st.sampled_from(["systems", "documents", "both"]),
    st.sampled_from(["greater", "two-sided", "less"]),
    st.integers(0, 2**31),
)
def test_bootstrap_test_equals_sacrerouge(matrices, level, method, resample, alternative, seed):
    a, b, human = matrices
    try:
        observed, p_value = sacrerouge_bootstrap_test(
            a, b, human, level, method, resample, 40, alternative, seed
        )
    except (ValueError, ZeroDivisionError):
        assume(False)
    result = compare_correlations(
        a,
        b,
        human,
        level,
        method,
        test="bootstrap",
        resample=resample,
        n_resamples=40,
        alternative=alternative,
        seed=seed,
    )
    assert close(result.difference, observed)
    assert result.p_value == pytest.approx(p_value, abs=1e-12)


def test_a_metric_equal_to_the_humans_beats_noise():
    rng = np.random.default_rng(0)
    human = rng.random((12, 30))
    noise = rng.random((12, 30))
    for test in ("permutation", "bootstrap"):
        result = compare_correlations(human, noise, human, "summary", "pearson", test=test)
        assert result.difference > 0.9 and result.p_value < 0.01
        reverse = compare_correlations(noise, human, human, "summary", "pearson", test=test)
        assert reverse.difference == pytest.approx(-result.difference)
        assert reverse.p_value > 0.9


def test_identical_metrics_are_never_significantly_different():
    rng = np.random.default_rng(1)
    human, metric = rng.random((8, 10)), rng.random((8, 10))
    for test in ("permutation", "bootstrap"):
        result = compare_correlations(metric, metric, human, test=test, alternative="two-sided")
        assert result.difference == 0 and result.p_value == 1


def test_several_metrics_share_the_draws():
    rng = np.random.default_rng(2)
    human = rng.random((6, 9))
    metrics = {"a": rng.random((6, 9)), "b": rng.random((6, 9))}
    together = correlate(metrics, human, "system", "spearman", n_resamples=200, seed=3)
    for name, scores in metrics.items():
        assert together[name] == correlate(
            scores, human, "system", "spearman", n_resamples=200, seed=3
        )


def test_the_same_numbers_in_every_process():
    code = (
        "import numpy as np; from rouge_plus.meta import correlate, compare_correlations;"
        "r = np.random.default_rng(0); h, a, b = r.random((3, 7, 11));"
        "print(correlate(a, h, 'summary', 'kendall', n_resamples=300, seed=9),"
        "compare_correlations(a, b, h, 'system', n_resamples=300, seed=9))"
    )
    outputs = set()
    for hash_seed in ("0", "1", "random"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        outputs.add(
            subprocess.run(
                [sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True
            ).stdout
        )
    assert len(outputs) == 1


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"level": "document"}, "unknown level"),
        ({"method": "tau"}, "unknown correlation method"),
        ({"resample": "rows"}, "unknown resampling"),
        ({"confidence_level": 1.0}, "confidence_level"),
        ({"n_resamples": 0}, "n_resamples"),
    ],
)
def test_bad_settings_are_refused(kwargs, message):
    with pytest.raises(OptionError, match=message):
        correlate(np.ones((3, 2)), np.ones((3, 2)), **kwargs)


def test_bad_matrices_are_refused():
    with pytest.raises(JudgmentsError, match="shape"):
        correlate(np.ones((3, 2)), np.ones((2, 3)))
    with pytest.raises(JudgmentsError, match="without a single score"):
        correlate([[1.0, np.nan], [np.nan, np.nan]], [[1.0, 2.0], [3.0, 4.0]])
