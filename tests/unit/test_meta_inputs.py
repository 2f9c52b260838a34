"""What the meta-evaluation refuses, and what it takes as missing: NaN is a missing cell, an
infinite score is an error naming where it is (it made the same data give a value at one level
and NaN at another), and so is a level that the matrices' shape leaves without a correlation."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rouge_plus.errors import InputError, JudgmentsError
from rouge_plus.meta import bootstrap_samples, compare_correlations, correlate
from rouge_plus.meta.correlation import LEVELS

HUMAN = np.array([[1.0, 2.0, 3.0], [2.0, 1.0, 4.0], [3.0, 5.0, 1.0], [4.0, 3.0, 2.0]])
METRIC = np.array([[0.1, 0.4, 0.2], [0.3, 0.1, 0.5], [0.2, 0.6, 0.1], [0.5, 0.2, 0.3]])

# Every entry point that reads matrices, called with (metric, human, level).
ENTRY_POINTS = {
    "correlate": lambda metric, human, level: correlate(metric, human, level, n_resamples=5),
    "compare_correlations": lambda metric, human, level: compare_correlations(
        metric, METRIC, human, level, n_resamples=5
    ),
    "bootstrap_samples": lambda metric, human, level: bootstrap_samples(
        metric, human, level, n_resamples=5
    ),
}


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(sorted(ENTRY_POINTS)),
    st.sampled_from(LEVELS),
    st.booleans(),
    st.integers(0, HUMAN.size - 1),
    st.sampled_from([np.inf, -np.inf]),
)
def test_an_infinite_score_is_refused_naming_its_cell(entry, level, in_human, cell, value):
    human, metric = HUMAN.copy(), METRIC.copy()
    row, column = divmod(cell, HUMAN.shape[1])
    (human if in_human else metric)[row, column] = value
    with pytest.raises(
        JudgmentsError, match=f"system \\(row\\) {row}, document \\(column\\) {column}"
    ):
        ENTRY_POINTS[entry](metric, human, level)


def test_the_refusal_is_an_input_error_and_a_value_error():
    with pytest.raises(InputError, match="non-finite score inf") as raised:
        correlate([[1.0, np.inf], [2.0, 3.0]], [[1.0, 2.0], [3.0, 4.0]])
    assert isinstance(raised.value, ValueError)


@pytest.mark.parametrize("level", LEVELS)
def test_nan_stays_a_missing_cell(level):
    """A NaN cell is left out: of its system's mean at the system level, of the pairs of cells
    present in both matrices at the others."""
    metric = METRIC.copy()
    metric[1, 2] = np.nan
    if level == "system":
        means = [np.nanmean(metric, axis=1)[:, None], HUMAN.mean(axis=1)[:, None]]
        expected = correlate(*means, level, resample=None).value
    else:
        human = HUMAN.copy()
        human[1, 2] = np.nan
        expected = correlate(metric, human, level, resample=None).value
    assert np.isfinite(expected)
    assert correlate(metric, HUMAN, level, resample=None).value == expected


@pytest.mark.parametrize("level", ["system", "summary"])
def test_one_system_is_refused_at_the_levels_across_systems(level):
    with pytest.raises(JudgmentsError, match=f"the {level} level correlates scores across systems"):
        correlate(METRIC[:1], HUMAN[:1], level)


def test_one_system_is_enough_at_the_global_level_but_one_cell_is_not():
    value = correlate(METRIC[:1], HUMAN[:1], "global", resample=None).value
    assert value == pytest.approx(1 / 3)  # tau-b of (0.1, 0.4, 0.2) with (1, 2, 3)
    with pytest.raises(JudgmentsError, match="global level correlates scores across cells"):
        correlate([[0.5, np.nan]], [[1.0, np.nan]], "global")


@pytest.mark.parametrize(
    "scores, message",
    [
        ([[1.0, "x"], [2.0, 3.0]], "documents\\) matrix of numbers"),
        ([[1.0, 2.0], [3.0]], "documents\\) matrix of numbers"),
        ([1.0, 2.0], "non-empty \\(systems x documents\\) matrix"),
    ],
)
def test_a_matrix_that_is_not_one_of_numbers_is_named(scores, message):
    with pytest.raises(JudgmentsError, match=f"^metric must be a .*{message}"):
        correlate(scores, [[1.0, 2.0], [3.0, 4.0]])
