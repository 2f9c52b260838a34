"""Paired significance tests over per-example scores: is a system really better than a baseline?

Pure NumPy over per-example score arrays (one column per ROUGE type); nothing here scores text.
The statistic is the mean over examples of the per-example difference d = system - baseline.

- ``"permutation"`` (default): paired approximate randomization (Riezler & Maxwell 2005). Under
  the null hypothesis the two systems are exchangeable on every example, so each d_i may have its
  sign flipped. When all 2^n sign assignments fit in ``n_resamples`` the test is exact: p is the
  share of the 2^n assignments, the identity included, whose |sum of signed d| is at least the
  observed |sum of d|. Otherwise ``n_resamples`` assignments are drawn at random and
  p = (1 + count) / (1 + n_resamples), the add-one estimate that counts the observed assignment
  once, so that p is never 0 and the test keeps its level (Phipson & Smyth 2010).
- ``"bootstrap"``: paired bootstrap resampling (Koehn 2004): ``n_resamples`` resamples of the
  examples with replacement, both systems on the same rows. p is two-sided and shifted to the
  null: p = (1 + #{|delta* - delta| >= |delta|}) / (1 + n_resamples), how often a resample's
  delta strays from the observed delta by at least the observed distance from 0. With a single
  example there is nothing to resample and p is 1.0.

For both methods the interval (``ci_low``, ``ci_high``) is the paired bootstrap percentile
interval of delta at ``confidence_level``.

Ties: a resampled statistic counts as at least as extreme as the observed one when it falls
short of it by less than ``TIE_RTOL * sum(|d_i|)`` (in sum units). Sums of the same numbers in
another order differ by rounding far below that (at most about n * 1.1e-16 times sum(|d_i|)), so
scores that tie exactly, as ROUGE's ratios of small counts often do, still tie in floating point;
a real difference smaller than a billionth of sum(|d_i|) would change no conclusion.

Randomness comes only from local generators built from ``np.random.SeedSequence(seed)``: one
stream for the sign flips, one for the bootstrap, each restarted for every call and every group of
types, so results depend only on the scores, the seed and ``n_resamples`` (not on which or how many
other types or systems are tested, and never on global random state). Work is done in blocks of at
most ``_CELLS`` (resample, example) cells, so memory stays bounded for any size.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import InputError, OptionError

METHODS = ("permutation", "bootstrap")

TIE_RTOL = 1e-9

# Cells (resample x example) of one block; a block holds this many int64 indices and this many
# gathered rows of at most _COLUMNS floats: about 9 MB, whatever the corpus or resample count.
_CELLS = 1 << 17
# Types tested in one pass; more are tested in groups, each replaying the same random streams.
_COLUMNS = 8
# Examples per permutation lookup table: 128 groups of 8 examples, 256 signed sums each (about
# 256 KB per type, so the lookups stay in cache).
_TABLE_EXAMPLES = 1 << 10
# Sign assignments are coded 8 examples to a byte: bit i set flips example i of the group.
_BYTE_BITS = 8


@dataclass(frozen=True)
class PairedTestResult:
    """One paired test per column: arrays shaped like one row of the input (0-d for 1-d input)."""

    delta: np.ndarray
    ci_low: np.ndarray
    ci_high: np.ndarray
    p_value: np.ndarray
    exact: bool


def paired_test(
    system: np.ndarray,
    baseline: np.ndarray,
    *,
    method: str = "permutation",
    n_resamples: int = 10_000,
    seed: int = 0,
    confidence_level: float = 0.95,
) -> PairedTestResult:
    """Test whether ``system`` differs from ``baseline`` on the same examples.

    Both are ``(n,)`` or ``(n, k)`` arrays of per-example scores (row i of each is example i;
    column j is one ROUGE type and is tested on its own, all columns on the same resamples).
    """
    check_test_settings(method, n_resamples, seed, confidence_level)
    differences = _differences(system, baseline)
    shape = differences.shape[1:]
    d = differences.reshape(len(differences), -1)
    n = len(d)
    delta = _column_sums(d) / n
    tolerance = TIE_RTOL * _column_sums(np.abs(d))
    flip_seed, bootstrap_seed = np.random.SeedSequence(seed).spawn(2)
    means = _in_column_groups(d, lambda part: _bootstrap_means(part, n_resamples, bootstrap_seed))
    tail = 100 * (1 - confidence_level) / 2
    ci_low, ci_high = np.percentile(means, [tail, 100 - tail], axis=0)
    exact = method == "permutation" and _enumerable(n, n_resamples)
    if method == "permutation":
        p_value = _in_column_groups(d, lambda part: _permutation_p(part, n_resamples, flip_seed))
    elif n == 1:
        p_value = np.ones(d.shape[1])
    else:
        extreme = np.abs(means - delta) >= np.abs(delta) - tolerance / n
        p_value = (1 + extreme.sum(axis=0)) / (1 + n_resamples)
    return PairedTestResult(
        *(np.asarray(a + 0.0).reshape(shape) for a in (delta, ci_low, ci_high, p_value)),
        exact=exact,
    )


def holm(p_values: np.ndarray | list[float]) -> np.ndarray:
    """Holm's step-down adjustment: p-values that keep the family-wise error rate of m tests.

    Reject every hypothesis whose adjusted p-value is below alpha; uniformly more powerful than
    Bonferroni (which multiplies every p by m).
    """
    p = np.asarray(p_values, dtype=np.float64)
    flat = p.ravel()
    order = np.argsort(flat, kind="stable")
    m = len(flat)
    stepped = np.maximum.accumulate((m - np.arange(m)) * flat[order])
    adjusted = np.empty_like(flat)
    adjusted[order] = np.minimum(stepped, 1.0)
    return adjusted.reshape(p.shape)


def check_test_settings(method: str, n_resamples: int, seed: int, confidence_level: float) -> None:
    """Reject bad test settings with a message naming the setting."""
    if method not in METHODS:
        raise OptionError(
            f"method: unknown value {method!r}; valid values are: {', '.join(METHODS)}"
        )
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, int) or n_resamples < 1:
        raise OptionError(f"n_resamples must be a positive int, got {n_resamples!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise OptionError(f"seed must be a non-negative int, got {seed!r}")
    if (
        isinstance(confidence_level, bool)
        or not isinstance(confidence_level, (int, float))
        or not 0 < confidence_level < 1
    ):
        raise OptionError(f"confidence_level must be in (0, 1), got {confidence_level!r}")


def _differences(system: np.ndarray, baseline: np.ndarray) -> np.ndarray:
    system = np.asarray(system, dtype=np.float64)
    baseline = np.asarray(baseline, dtype=np.float64)
    if system.shape != baseline.shape or system.ndim not in (1, 2):
        raise InputError(
            "system and baseline must be (n,) or (n, k) arrays of the same shape, got "
            f"{system.shape} and {baseline.shape}"
        )
    if len(system) == 0:
        raise InputError("no examples to compare")
    if not (np.isfinite(system).all() and np.isfinite(baseline).all()):
        raise InputError("scores must be finite numbers (no NaN or infinity)")
    return system - baseline


def _enumerable(n: int, n_resamples: int) -> bool:
    """All 2^n sign assignments fit in the resample budget (and in a uint64 code)."""
    return n < 64 and (1 << n) <= n_resamples


def _in_column_groups(d: np.ndarray, run) -> np.ndarray:
    """``run`` over at most ``_COLUMNS`` columns at a time; every group sees the same draws."""
    return np.concatenate(
        [run(d[:, start : start + _COLUMNS]) for start in range(0, d.shape[1], _COLUMNS)], axis=-1
    )


def _sum_cells(cells: np.ndarray) -> np.ndarray:
    """Sum a ``(rows, cells, k)`` array over its cells by pairwise halving, in place.

    Pairwise sums are as accurate as NumPy's own sum, and this is several times faster than
    ``sum(axis=1)`` on a short last axis; it uses no BLAS, so results never depend on threads.
    """
    width = cells.shape[1]
    while width > 1:
        half = width // 2
        np.add(cells[:, :half], cells[:, width - half : width], out=cells[:, :half])
        width -= half
    return cells[:, 0]


def _column_sums(values: np.ndarray) -> np.ndarray:
    """Pairwise sums of the columns of ``(n, k)`` values: the same bits for a column whatever
    the other columns are (NumPy's ``sum(axis=0)`` adds row by row when k > 1)."""
    return _sum_cells(values[None].copy())[0]


def _bootstrap_means(d: np.ndarray, n_resamples: int, seed: np.random.SeedSequence) -> np.ndarray:
    """``(n_resamples, k)`` means of d over rows drawn with replacement (the paired bootstrap)."""
    n, k = d.shape
    rng = np.random.default_rng(seed)
    rows = max(1, _CELLS // n)
    width = min(n, _CELLS)
    means = np.empty((n_resamples, k))
    for start in range(0, n_resamples, rows):
        stop = min(start + rows, n_resamples)
        total = np.zeros((stop - start, k))
        for first in range(0, n, width):
            picks = rng.integers(0, n, size=(stop - start, min(width, n - first)))
            total += _sum_cells(np.take(d, picks, axis=0, mode="clip"))
        means[start:stop] = total / n
    return means


def _signed_sums(d: np.ndarray) -> np.ndarray:
    """For each group of 8 examples, the 256 sums of +-d, indexed by a byte of sign flips.

    Row ``256 * g + code`` holds sum over i of (-1)^bit_i(code) * d[8g + i]; examples beyond
    ``len(d)`` count as 0. One lookup then applies 8 sign flips at once.
    """
    n, k = d.shape
    groups = np.zeros((-(-n // _BYTE_BITS), _BYTE_BITS, k))
    groups.reshape(-1, k)[:n] = d
    sums = np.zeros((len(groups), 1 << _BYTE_BITS, k))
    for bit in range(_BYTE_BITS):
        low = 1 << bit
        value = groups[:, bit][:, None]
        sums[:, low : 2 * low] = sums[:, :low] - value
        sums[:, :low] += value
    return sums.reshape(-1, k)


def _flipped_sums(table: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """``(rows, k)`` sums of the signed d for each row of ``(rows, groups)`` sign-flip bytes."""
    index = codes.astype(np.intp) + (np.arange(codes.shape[1]) << _BYTE_BITS)
    return _sum_cells(np.take(table, index, axis=0, mode="clip"))


def _permutation_p(d: np.ndarray, n_resamples: int, seed: np.random.SeedSequence) -> np.ndarray:
    """Two-sided p-value of the mean difference under random sign flips, one per column."""
    n, k = d.shape
    threshold = np.abs(_column_sums(d)) - TIE_RTOL * _column_sums(np.abs(d))
    if _enumerable(n, n_resamples):
        table = _signed_sums(d)
        groups = len(table) >> _BYTE_BITS
        count = np.zeros(k, dtype=np.int64)
        rows = max(1, _CELLS // groups)
        for start in range(0, 1 << n, rows):
            # The little-endian bytes of assignment number a: bit i of a flips example i.
            assignments = np.arange(start, min(start + rows, 1 << n), dtype="<u8")
            codes = assignments.view(np.uint8).reshape(-1, 8)[:, :groups]
            count += (np.abs(_flipped_sums(table, codes)) >= threshold).sum(axis=0)
        return count / (1 << n)
    rng = np.random.default_rng(seed)
    sums = np.zeros((n_resamples, k))
    for first in range(0, n, _TABLE_EXAMPLES):
        table = _signed_sums(d[first : first + _TABLE_EXAMPLES])
        groups = len(table) >> _BYTE_BITS
        rows = max(1, _CELLS // groups)
        for start in range(0, n_resamples, rows):
            stop = min(start + rows, n_resamples)
            codes = np.frombuffer(rng.bytes((stop - start) * groups), dtype=np.uint8)
            sums[start:stop] += _flipped_sums(table, codes.reshape(stop - start, groups))
    count = (np.abs(sums) >= threshold).sum(axis=0)
    return (1 + count) / (1 + n_resamples)
