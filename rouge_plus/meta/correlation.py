"""How well a metric agrees with human judgments, with intervals and paired tests.

Scores come as (systems x documents) matrices with NaN for a missing cell (nlpstats'
convention); every other score must be finite, else ``JudgmentsError`` (an infinite score makes
a system's mean and Pearson's sums infinite: the same data gave a value at one level and NaN at
another). The three levels of the meta-evaluation literature (Deutsch, Dror and Roth 2021):

- ``system``: each system's mean over its own present cells, then one correlation over the
  systems (a system with no cell is an error, as in nlpstats);
- ``summary`` (nlpstats' ``input``): per document, the correlation over the systems whose cell is
  present in both matrices, then the mean over the documents whose correlation is defined;
- ``global``: one correlation over every cell present in both matrices.

Intervals are percentile bootstraps over systems, documents or both; two metrics are compared by
a paired permutation test (nlpstats' ``permutation_test``, which standardizes the three matrices
and swaps the two metrics' scores of whole systems, whole documents, or both in turn) or a
paired bootstrap test (Berg-Kirkpatrick et al. 2012 as sacrerouge's ``bootstrap_diff_test``:
how often a resample's difference reaches twice the observed one). Everything is computed on
weights over the original matrices (see ``coefficients.py``) in blocks of resamples, so 10,000
resamples cost about as much as a few NumPy passes over 10,000 copies of the data; the global
level's resamples and permutations are weights over the cells, sorted once (``global_level.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple, overload

import numpy as np
import numpy.typing as npt

from ..errors import JudgmentsError, OptionError
from . import global_level
from .coefficients import METHODS, coefficient, column_coefficients, pairwise
from .resampling import bootstrap_weights, check_resamples, permutation_swaps, resampling

LEVELS = ("system", "summary", "global")
TESTS = ("permutation", "bootstrap")
ALTERNATIVES = ("greater", "two-sided", "less")
_LEVEL_ALIASES = {"input": "summary"}
_BLOCK = 1 << 22  # elements of the largest temporary array of one block of resamples
_TOLERANCE = 1e-12  # a resampled difference this close to the observed one counts as reaching it


class Correlation(NamedTuple):
    """One correlation with its bootstrap interval (NaN bounds when nothing was resampled)."""

    value: float
    lower: float
    upper: float
    level: str
    method: str
    resample: str | None
    n_resamples: int
    confidence_level: float


class Comparison(NamedTuple):
    """A paired test of whether metric A correlates better than metric B with the humans.

    ``difference`` is A's correlation minus B's; ``p_value`` is the test's for ``alternative``
    (``greater``: A correlates better).
    """

    difference: float
    p_value: float
    level: str
    method: str
    test: str
    resample: str
    alternative: str
    n_resamples: int


@overload
def correlate(
    metric: Mapping[str, npt.ArrayLike],
    human: npt.ArrayLike,
    level: str = ...,
    method: str = ...,
    *,
    resample: str | None = ...,
    n_resamples: int = ...,
    confidence_level: float = ...,
    seed: int = ...,
) -> dict[str, Correlation]: ...


@overload
def correlate(
    metric: npt.ArrayLike,
    human: npt.ArrayLike,
    level: str = ...,
    method: str = ...,
    *,
    resample: str | None = ...,
    n_resamples: int = ...,
    confidence_level: float = ...,
    seed: int = ...,
) -> Correlation: ...


def correlate(
    metric: npt.ArrayLike | Mapping[str, npt.ArrayLike],
    human: npt.ArrayLike,
    level: str = "system",
    method: str = "kendall",
    *,
    resample: str | None = "both",
    n_resamples: int = 1000,
    confidence_level: float = 0.95,
    seed: int = 0,
) -> Correlation | dict[str, Correlation]:
    """The ``level`` correlation of ``metric``'s scores with ``human``'s, with a percentile
    bootstrap interval over ``resample`` (``systems``, ``documents``, ``both`` or None).

    ``metric`` may be one matrix or a mapping of names to matrices (then a dict of results, every
    metric resampled with the same draws). With the same seed the interval is nlpstats'
    ``bootstrap`` after ``numpy.random.seed(seed)``; resamples whose correlation is undefined are
    left out, as there.
    """
    level, method = _settings(level, method)
    if not 0 < confidence_level < 1:
        raise OptionError(f"confidence_level must be between 0 and 1, not {confidence_level}")
    named = isinstance(metric, Mapping)
    metrics = dict(metric) if named else {"": metric}
    human = _human_matrix(human, level)
    if resample is not None:
        check_resamples(n_resamples)
        draws = bootstrap_weights(human.shape, resampling(resample), n_resamples, seed)
    results = {}
    for name, scores in metrics.items():
        scores = _matrix(scores, f"metric {name!r}" if named else "metric", human.shape)
        value = float(level_correlation(scores, human, level, method)[0])
        lower = upper = float("nan")
        if resample is not None:
            samples = _bootstrap(scores, human, level, method, draws)
            lower, upper = percentile_interval(samples, confidence_level)
        results[name] = Correlation(
            value,
            lower,
            upper,
            level,
            method,
            None if resample is None else resampling(resample),
            n_resamples if resample is not None else 0,
            confidence_level,
        )
    return results if named else results[""]


def compare_correlations(
    metric_a: npt.ArrayLike,
    metric_b: npt.ArrayLike,
    human: npt.ArrayLike,
    level: str = "system",
    method: str = "kendall",
    *,
    test: str = "permutation",
    resample: str = "both",
    n_resamples: int = 1000,
    alternative: str = "greater",
    seed: int = 0,
) -> Comparison:
    """Whether ``metric_a`` correlates better with ``human`` than ``metric_b`` does (Deutsch,
    Dror and Roth 2021): a paired ``permutation`` or ``bootstrap`` test over ``resample``.

    The permutation test is nlpstats' ``permutation_test`` (the same seed gives its p-value after
    ``numpy.random.seed(seed)``, but permutations whose difference is undefined are left out of
    the count); the bootstrap test uses :func:`correlate`'s resamples of both metrics.
    """
    level, method = _settings(level, method)
    if test not in TESTS:
        raise OptionError(f"unknown test {test!r}; expected one of {TESTS}")
    if alternative not in ALTERNATIVES:
        raise OptionError(f"unknown alternative {alternative!r}; expected one of {ALTERNATIVES}")
    what = resampling(resample)
    check_resamples(n_resamples)
    human = _human_matrix(human, level)
    a = _matrix(metric_a, "metric_a", human.shape)
    b = _matrix(metric_b, "metric_b", human.shape)
    if test == "bootstrap":
        observed = _difference(a, b, human, level, method)
        draws = bootstrap_weights(human.shape, what, n_resamples, seed)
        samples = _bootstrap(a, human, level, method, draws) - _bootstrap(
            b, human, level, method, draws
        )
        p_value = bootstrap_p_value(samples, observed, alternative)
    else:
        observed = _difference(a, b, human, level, method)
        # The test's own statistic is on the standardized matrices, as nlpstats': equal on
        # paper, though tied system means can round apart (or together) there.
        a, b, human = (_standardized(x) for x in (a, b, human))
        standardized = _difference(a, b, human, level, method)
        samples = _permutation_samples(a, b, human, level, method, what, n_resamples, seed)
        p_value = _share(_reaches(samples, standardized, alternative))
    return Comparison(float(observed), p_value, level, method, test, what, alternative, n_resamples)


def bootstrap_samples(
    metric: npt.ArrayLike,
    human: npt.ArrayLike,
    level: str = "system",
    method: str = "kendall",
    *,
    resample: str = "both",
    n_resamples: int = 1000,
    seed: int = 0,
) -> np.ndarray:
    """The correlation of each bootstrap resample (NaN where it is undefined), in draw order.

    Two metrics resampled with the same seed see the same resamples, so the difference of their
    samples is the paired bootstrap distribution of the difference of their correlations.
    """
    level, method = _settings(level, method)
    check_resamples(n_resamples)
    human = _human_matrix(human, level)
    metric = _matrix(metric, "metric", human.shape)
    draws = bootstrap_weights(human.shape, resampling(resample), n_resamples, seed)
    return _bootstrap(metric, human, level, method, draws)


def _bootstrap(
    metric: np.ndarray,
    human: np.ndarray,
    level: str,
    method: str,
    draws: tuple[np.ndarray | None, np.ndarray | None],
) -> np.ndarray:
    """The correlation of each resample of ``draws`` (:func:`bootstrap_weights`)."""
    rows, cols = draws
    n_resamples = len(rows if rows is not None else cols)
    # column_coefficients blocks its own products; the global level's pass needs no block
    if level == "summary" or (level == "global" and global_level.exact(human.shape, rows, cols)):
        block = n_resamples
    else:
        block = _block(human.shape, level, method, values_vary=level == "system")
    out = np.empty(n_resamples)
    for start in range(0, n_resamples, block):
        part = slice(start, start + block)
        out[part] = level_correlation(
            metric,
            human,
            level,
            method,
            rows=None if rows is None else rows[part],
            cols=None if cols is None else cols[part],
        )
    return out


def percentile_interval(samples: np.ndarray, confidence_level: float) -> tuple[float, float]:
    """The percentile interval of the defined samples (NaN if there are none)."""
    defined = samples[~np.isnan(samples)]
    if not len(defined):
        return float("nan"), float("nan")
    tail = (1 - confidence_level) / 2
    return (
        float(np.percentile(defined, tail * 100)),
        float(np.percentile(defined, (1 - tail) * 100)),
    )


def bootstrap_p_value(differences: np.ndarray, observed: float, alternative: str) -> float:
    """The paired bootstrap test's p-value: the share of the defined resampled differences that
    reach twice the observed one (in absolute value for ``two-sided``)."""
    return _share(_reaches(differences, 2 * observed, alternative))


def level_correlation(
    metric: np.ndarray,
    human: np.ndarray,
    level: str,
    method: str,
    rows: np.ndarray | None = None,
    cols: np.ndarray | None = None,
) -> np.ndarray:
    """The ``level`` correlation of each of a stack of matrix pairs (``(..., m, n)``), each
    system weighted by ``rows`` (``(R, m)``) and each document by ``cols`` (``(R, n)``)."""
    metric = np.asarray(metric, dtype=float)
    human = np.asarray(human, dtype=float)
    if metric.ndim == 2:
        metric, human = metric[None], human[None]
    if level == "system":
        x, z = _system_means(metric, cols), _system_means(human, cols)
        weights = np.ones(x.shape) if rows is None else rows
        return coefficient(x, z, weights, method)
    matrix = human.shape[-2:]
    one_pair = metric.shape[:-2] == (1,) and human.shape[:-2] in ((), (1,))
    if level == "global" and one_pair and global_level.exact(matrix, rows, cols):
        # one pair of matrices under many weightings: on its cells, sorted once
        cells = global_level.Cells(metric[0], human.reshape(matrix))
        return global_level.coefficients(cells, method, rows, cols)
    both = ~(np.isnan(metric) | np.isnan(human))
    if level == "summary":
        if metric.shape[:-2] == (1,):  # one pair of matrices, its documents under many weightings
            weights = np.ones((1, metric.shape[-2])) if rows is None else rows
            per_document = column_coefficients(metric[0], human[0], weights, method)
        else:
            weights = both.swapaxes(-1, -2) * (1.0 if rows is None else rows[:, None, :])
            per_document = coefficient(
                metric.swapaxes(-1, -2), human.swapaxes(-1, -2), weights, method
            )
        defined = ~np.isnan(per_document)
        documents = defined * (1.0 if cols is None else cols)
        total = (np.where(defined, per_document, 0.0) * documents).sum(axis=-1)
        with np.errstate(invalid="ignore", divide="ignore"):
            return total / documents.sum(axis=-1)
    cells = both * 1.0
    if rows is not None:
        cells = cells * rows[:, :, None]
    if cols is not None:
        cells = cells * cols[:, None, :]
    shape = (*cells.shape[:-2], -1)
    return coefficient(
        metric.reshape(*metric.shape[:-2], -1),
        human.reshape(*human.shape[:-2], -1),
        cells.reshape(shape),
        method,
    )


def _system_means(scores: np.ndarray, cols: np.ndarray | None) -> np.ndarray:
    present = ~np.isnan(scores)
    filled = np.where(present, scores, 0.0)
    if cols is None:
        sums, counts = filled.sum(axis=-1), present.sum(axis=-1)
    else:
        sums = np.matmul(filled, cols[:, :, None])[..., 0]
        counts = np.matmul(present * 1.0, cols[:, :, None])[..., 0]
    with np.errstate(invalid="ignore", divide="ignore"):
        return sums / counts


def _permutation_samples(
    a: np.ndarray,
    b: np.ndarray,
    human: np.ndarray,
    level: str,
    method: str,
    what: str,
    n_resamples: int,
    seed: int,
) -> np.ndarray:
    rows, cols = permutation_swaps(human.shape, what, n_resamples, seed)
    if level == "global":
        samples = _global_permutations(a, b, human, method, rows, cols)
        if samples is not None:
            return samples
    m, n = human.shape
    block = _block(human.shape, level, method, values_vary=True)
    out = np.empty(n_resamples)
    for start in range(0, n_resamples, block):
        part = slice(start, min(start + block, n_resamples))
        size = part.stop - part.start
        swap = np.zeros((size, m, n), dtype=bool)
        if rows is not None:
            swap ^= rows[part, :, None]
        if cols is not None:
            swap ^= cols[part, None, :]
        out[part] = level_correlation(
            np.where(swap, b, a), human, level, method
        ) - level_correlation(np.where(swap, a, b), human, level, method)
    return out


def _global_permutations(
    a: np.ndarray,
    b: np.ndarray,
    human: np.ndarray,
    method: str,
    rows: np.ndarray | None,
    cols: np.ndarray | None,
) -> np.ndarray | None:
    """Each permutation's difference at the global level, as bootstrap-like weights over four
    copies of each cell (None where :func:`global_level.exact` does not hold).

    Cell (i, j) takes B's score where exactly one of system i (``r``) and document j (``c``)
    swaps. In ``[[a, b], [b, a]]`` against the human scores repeated alike, rows weighted by
    ``[r, 1 - r]`` and columns by ``[c, 1 - c]``, exactly one copy of each cell has weight 1: A's
    where both or neither swap, else B's. Columns weighted by ``[1 - c, c]`` take the other copy.
    """
    count = len(rows if rows is not None else cols)
    r = np.zeros((count, a.shape[0])) if rows is None else rows * 1.0
    c = np.zeros((count, a.shape[1])) if cols is None else cols * 1.0
    systems, documents = np.hstack([r, 1 - r]), np.hstack([c, 1 - c])
    if not global_level.exact((2 * a.shape[0], 2 * a.shape[1]), systems, documents):
        return None
    cells = global_level.Cells(np.block([[a, b], [b, a]]), np.block([[human, human]] * 2))
    swapped = global_level.coefficients(cells, method, systems, documents)
    return swapped - global_level.coefficients(cells, method, systems, np.hstack([1 - c, c]))


def _difference(a: np.ndarray, b: np.ndarray, human: np.ndarray, level: str, method: str) -> float:
    """A's correlation minus B's."""
    first = level_correlation(a, human, level, method)[0]
    return float(first - level_correlation(b, human, level, method)[0])


def _reaches(samples: np.ndarray, bound: float, alternative: str) -> np.ndarray:
    """Per defined sample, whether it reaches ``bound`` in the direction of ``alternative``
    (within a rounding error, so that a resample equal to the data counts)."""
    samples = samples[~np.isnan(samples)]
    if alternative == "two-sided":
        return np.abs(samples) >= abs(bound) - _TOLERANCE
    if alternative == "greater":
        return samples >= bound - _TOLERANCE
    return samples <= bound + _TOLERANCE


def _share(hits: np.ndarray) -> float:
    return float(hits.mean()) if len(hits) else float("nan")


def _standardized(scores: np.ndarray) -> np.ndarray:
    """(scores - mean) / standard deviation over the whole matrix, as nlpstats' test does."""
    centred = scores - np.nanmean(scores)
    spread = np.nanstd(scores)
    return centred / spread if spread > 0 else centred


def _block(shape: tuple[int, int], level: str, method: str, values_vary: bool) -> int:
    """Resamples per block, so that no temporary array is much larger than ``_BLOCK``.

    Kendall's pair counts cost k² per sample when the values differ between resamples (system
    means, permuted matrices); under a bootstrap of fixed cells only the weights differ.
    """
    m, n = shape
    k = m * n if level == "global" else m
    per_sample = k * k if pairwise(method) and values_vary else 4 * k
    if level == "summary":
        per_sample *= n
    return max(1, _BLOCK // max(per_sample, m * n))


def _settings(level: str, method: str) -> tuple[str, str]:
    level = _LEVEL_ALIASES.get(level, level)
    if level not in LEVELS:
        raise OptionError(f"unknown level {level!r}; expected one of {LEVELS}")
    if method not in METHODS:
        raise OptionError(f"unknown correlation method {method!r}; expected one of {METHODS}")
    return level, method


def _matrix(scores: npt.ArrayLike, name: str, shape: tuple[int, ...] | None = None) -> np.ndarray:
    """``scores`` as a float (systems x documents) matrix of ``shape``: finite numbers, NaN
    for a missing cell, and at least one score per system."""
    try:
        matrix = np.array(scores, dtype=float)
    except (TypeError, ValueError) as error:
        raise JudgmentsError(
            f"{name} must be a (systems x documents) matrix of numbers ({error})"
        ) from None
    if matrix.ndim != 2 or 0 in matrix.shape:
        raise JudgmentsError(f"{name} must be a non-empty (systems x documents) matrix")
    if shape is not None and matrix.shape != shape:
        raise JudgmentsError(f"{name} has shape {matrix.shape}, the human scores {shape}")
    infinite = np.argwhere(np.isinf(matrix))
    if len(infinite):
        i, j = infinite[0]
        raise JudgmentsError(
            f"{name} has the non-finite score {matrix[i, j]} at system (row) {i}, document "
            f"(column) {j}: scores must be finite numbers (NaN marks a missing cell)"
        )
    if np.isnan(matrix).all(axis=1).any():
        raise JudgmentsError(f"{name} has a system (row) without a single score")
    return matrix


def _human_matrix(human: npt.ArrayLike, level: str) -> np.ndarray:
    """The human scores as a matrix (:func:`_matrix`) with enough of them for ``level``: two
    systems for the levels that correlate across systems, two cells for the global level."""
    matrix = _matrix(human, "human")
    if level != "global" and len(matrix) < 2:
        raise JudgmentsError(
            f"the {level} level correlates scores across systems, and the human scores have "
            "1 system (row): give at least 2 systems, or correlate at the global level"
        )
    if level == "global" and np.count_nonzero(~np.isnan(matrix)) < 2:
        raise JudgmentsError(
            "the global level correlates scores across cells, and the human scores have 1: "
            "give at least 2"
        )
    return matrix
