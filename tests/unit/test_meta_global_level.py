"""The global level's bootstrap on weights over the original cells (rouge_plus/meta/global_level.py
and its compiled twin): the compiled pass equals the NumPy twin to the last bit, every weighted
coefficient equals SciPy's on the materialised resample, and correlate's intervals equal those of
the cell-by-cell weighting it replaces; on hypothesis-generated matrices with ties and NaN."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from unittest import mock

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rouge_plus.meta import bootstrap_samples, compare_correlations, correlate, global_level
from rouge_plus.meta.coefficients import METHODS
from rouge_plus.meta.global_level import Cells, coefficients, twin_coefficients

stats = pytest.importorskip("scipy.stats")
native = global_level._compiled
# The implementation fixture holds for every example (it only selects the code under test).
SETTINGS = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@st.composite
def weighted_matrices(draw):
    """Two (systems x documents) matrices with ties (or continuous values) and NaN cells, and
    weights of the rows and of the columns (0 included) for a few resamples."""
    m, n, count = draw(st.integers(1, 6)), draw(st.integers(1, 6)), draw(st.integers(1, 5))
    tied = draw(st.booleans())
    values = (
        st.integers(0, 3).map(float)
        if tied
        else st.floats(0, 1, allow_nan=False, allow_subnormal=False)
    )
    cells = st.one_of(values, st.just(float("nan")))
    x, z = (
        np.array(draw(st.lists(cells, min_size=m * n, max_size=m * n))).reshape(m, n)
        for _ in range(2)
    )
    a = np.array(draw(st.lists(st.integers(0, 3), min_size=count * m, max_size=count * m)))
    b = np.array(draw(st.lists(st.integers(0, 3), min_size=count * n, max_size=count * n)))
    return x, z, a.reshape(count, m), b.reshape(count, n)


def scipy_coefficient(method: str, x: np.ndarray, z: np.ndarray) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if method == "pearson":
            return stats.pearsonr(x, z)[0] if len(x) > 1 else np.nan
        if method == "spearman":
            return stats.spearmanr(x, z)[0]
        return stats.kendalltau(x, z, variant="c" if method == "kendall_c" else "b")[0]


@pytest.fixture(params=["compiled", "twin"])
def implementation(request, monkeypatch):
    """``global_level.coefficients`` on the compiled pass or on its NumPy twin."""
    if request.param == "compiled" and native is None:
        pytest.skip("the compiled module is not built")
    if request.param == "twin":
        monkeypatch.setattr(global_level, "_compiled", None)
    return request.param


@pytest.mark.skipif(native is None, reason="the compiled module is not built")
@SETTINGS
@given(weighted_matrices(), st.sampled_from(METHODS))
def test_compiled_equals_the_twin(matrices, method):
    """To the last bit, and the twin in chunks of one resample as in one chunk."""
    x, z, a, b = matrices
    cells = Cells(x, z)
    compiled = coefficients(cells, method, a, b)
    np.testing.assert_array_equal(compiled, twin_coefficients(cells, method, a, b))
    with mock.patch.dict(global_level._CHUNKS, {method: 1}):
        np.testing.assert_array_equal(compiled, twin_coefficients(cells, method, a, b))


@pytest.mark.skipif(native is None, reason="the compiled module is not built")
@pytest.mark.parametrize("method", METHODS)
def test_compiled_equals_the_twin_over_many_resamples(method):
    """Resamples in several blocks (Kendall's pass takes 64 at a time) and a part block, on a
    human side with many distinct values."""
    rng = np.random.default_rng(3)
    x, z = rng.integers(0, 6, (9, 14)).astype(float), rng.random((9, 14)).round(2)
    x[rng.random(x.shape) < 0.1] = np.nan
    a, b = rng.integers(0, 3, (150, 9)), rng.integers(0, 3, (150, 14))
    cells = Cells(x, z)
    compiled = coefficients(cells, method, a, b)
    np.testing.assert_array_equal(compiled, twin_coefficients(cells, method, a, b))


@SETTINGS
@given(data=weighted_matrices(), method=st.sampled_from(METHODS))
def test_weighted_coefficients_equal_scipy_on_the_materialised_resample(
    implementation, data, method
):
    """Resample r holds cell (i, j) a[r, i] * b[r, j] times; SciPy's coefficient of those cells
    (present in both matrices) is the weighted one."""
    x, z, a, b = data
    result = coefficients(Cells(x, z), method, a, b)
    present = ~(np.isnan(x) | np.isnan(z))
    for r in range(len(a)):
        times = (a[r][:, None] * b[r][None, :])[present]
        x_r, z_r = (np.repeat(v[present], times) for v in (x, z))
        expected = scipy_coefficient(method, x_r, z_r)
        assert (np.isnan(result[r]) and np.isnan(expected)) or abs(result[r] - expected) < 1e-9


@pytest.mark.parametrize("resample", ["systems", "documents", "both"])
@pytest.mark.parametrize("method", METHODS)
def test_intervals_equal_the_cell_by_cell_weighting(implementation, method, resample):
    """On data with ties: the samples, intervals and paired bootstrap p-value of the pass over
    the cells equal those of the general weighting of every cell (forced by a limit of 0);
    Pearson's sums, added in another order, to 1e-12."""
    rng = np.random.default_rng(7)
    human = rng.integers(0, 5, (8, 12)).astype(float)
    human[rng.random(human.shape) < 0.1] = np.nan
    a, b = (np.round(human + rng.normal(0, 1.5, human.shape), 1) for _ in range(2))
    kwargs = {"resample": resample, "n_resamples": 200, "seed": 5}

    def outputs():
        return (
            bootstrap_samples(a, human, "global", method, **kwargs),
            correlate({"a": a, "b": b}, human, "global", method, **kwargs),
            compare_correlations(a, b, human, "global", method, test="bootstrap", **kwargs),
        )

    samples, intervals, comparison = outputs()
    with mock.patch.object(global_level, "EXACT_LIMIT", 0):
        general_samples, general_intervals, general_comparison = outputs()
    np.testing.assert_allclose(samples, general_samples, rtol=0, atol=1e-12)
    for name in intervals:
        np.testing.assert_allclose(intervals[name][:3], general_intervals[name][:3], atol=1e-12)
    assert comparison.difference == pytest.approx(general_comparison.difference, abs=1e-12)
    assert comparison.p_value == general_comparison.p_value


@pytest.mark.parametrize("resample", ["systems", "documents", "both"])
@pytest.mark.parametrize("method", METHODS)
def test_permutations_equal_the_permuted_matrices(implementation, method, resample):
    """The permutation test's four copies of each cell give the p-value of the permuted
    matrices themselves (forced by a limit of 0), with metrics tied and continuous."""
    rng = np.random.default_rng(11)
    human = rng.integers(0, 4, (7, 9)).astype(float)
    human[rng.random(human.shape) < 0.15] = np.nan
    a = np.where(np.isnan(human), np.nan, rng.integers(0, 5, human.shape))
    b = np.where(np.isnan(human), np.nan, rng.random(human.shape))
    kwargs = {"resample": resample, "n_resamples": 100, "seed": 3, "alternative": "two-sided"}
    result = compare_correlations(a, b, human, "global", method, **kwargs)
    with mock.patch.object(global_level, "EXACT_LIMIT", 0):
        general = compare_correlations(a, b, human, "global", method, **kwargs)
    assert result.difference == pytest.approx(general.difference, abs=1e-12)
    assert result.p_value == general.p_value


def test_the_same_numbers_in_every_process_compiled_or_not():
    """Intervals and p-values at the global level print the same under any PYTHONHASHSEED, on
    the compiled pass and on its twin."""
    code = (
        "import numpy as np; from rouge_plus.meta import correlate, compare_correlations;"
        "r = np.random.default_rng(0); h, a, b = r.random((3, 6, 9)).round(1);"
        "print([correlate(a, h, 'global', m, n_resamples=200, seed=9) for m in"
        " ('pearson', 'spearman', 'kendall', 'kendall_c')],"
        "compare_correlations(a, b, h, 'global', 'kendall', n_resamples=200, seed=9))"
    )
    outputs = set()
    for hash_seed, pure in (("0", "0"), ("1", "1"), ("random", "0")):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed, "ROUGE_PLUS_PURE_PYTHON": pure}
        outputs.add(
            subprocess.run(
                [sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True
            ).stdout
        )
    assert len(outputs) == 1


@pytest.mark.skipif(native is None, reason="the compiled module is not built")
def test_the_compiled_pass_refuses_bad_tables():
    cells = Cells(np.array([[1.0, 2.0], [3.0, 1.0]]), np.array([[2.0, 1.0], [1.0, 3.0]]))
    a, b, out = np.ones((1, 2), np.int64), np.ones((1, 2), np.int64), np.empty(1)
    bad = cells.table.copy()
    bad[0, 0] = 5  # a row out of range
    with pytest.raises(ValueError, match="out of range"):
        native.coefficients(2, bad, cells.values, a, b, 2, 2, cells.ranks, out)
    with pytest.raises(ValueError, match="inconsistent"):
        native.coefficients(2, cells.table, cells.values, a, b, 2, 2, cells.ranks, np.empty(2))
    with pytest.raises(ValueError, match="bad method"):
        native.coefficients(4, cells.table, cells.values, a, b, 2, 2, cells.ranks, out)
    for weights in ([[1, -1]], [[native.EXACT_LIMIT, 1]], [[600_000, 600_000]]):
        with pytest.raises(ValueError, match="too many elements"):
            native.coefficients(
                2, cells.table, cells.values, a, np.array(weights), 2, 2, cells.ranks, out
            )
    assert native.EXACT_LIMIT == global_level.EXACT_LIMIT
