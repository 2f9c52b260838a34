"""ROUGE-1.5.5's corpus aggregate: the bootstrap behind its "Average" and confidence interval.

What the Perl script does for ``-c C -r R`` (sentence-level averaging, its default ``-t 0``):

- every instance's R and P are printed to 5 decimals (``%7.5f``) and F is computed from those
  rounded values, then printed to 5 decimals too; the rounded numbers are what it averages;
- resample ``s = 0 .. R-1`` reseeds Perl's ``drand48`` with ``srand(s)`` and draws N indices
  ``int(N · rand())`` into the instances sorted by their id *as strings*; the resample mean is
  the sum in draw order divided by N;
- "Average" is the mean of the R resample means (summed in ascending order), and the interval
  is read from the sorted means at ``δ = R·(100 - C)/200`` from each end, interpolating between
  neighbours when ``δ`` is fractional (for C = 95, R = 1000: sorted[25] .. sorted[974]).

Every operation is done in the Perl script's order, so the printed 5 decimals agree.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

import numpy as np

from ..errors import InputError, OptionError
from ..scoring.fmeasure import FMeasure, round5, rounded_prf

_DRAND48_A = 0x5DEECE66D
_DRAND48_C = 0xB
_DRAND48_MASK = (1 << 48) - 1
_TWO_TO_48 = float(1 << 48)


class Estimate(NamedTuple):
    average: float
    low: float
    high: float


# Draws computed at once: bounds the memory of the bootstrap to a few tens of MB for any
# number of instances and resamples (all at once, 10,000 of each took 2.4 GB).
_DRAW_BUDGET = 1 << 20


def drand48_indices(n_items: int, n_resamples: int) -> np.ndarray:
    """``(n_items, n_resamples)``: draw ``i`` of resample ``s`` is ``int(n_items · rand())``
    after Perl's ``srand(s)``."""
    return np.concatenate([*_drand48_blocks(n_items, n_resamples), np.empty((0, n_resamples))])


def _drand48_blocks(n_items: int, n_resamples: int) -> Iterator[np.ndarray]:
    """:func:`drand48_indices` a block of draws at a time (draws ``0 ..`` in order), each block
    holding at most about ``_DRAW_BUDGET`` indices.

    drand48 starts from ``x = s·2^16 + 0x330E`` and steps ``x = a·x + c mod 2^48``, returning
    ``x / 2^48``; step ``i`` is the affine map ``x -> A_i·x + C_i``, so all resamples are drawn
    at once (uint64 products wrap mod 2^64, which keeps them right mod 2^48).
    """
    seeds = (np.arange(n_resamples, dtype=np.uint64) << np.uint64(16)) | np.uint64(0x330E)
    block = max(1, _DRAW_BUDGET // max(n_resamples, 1))
    a_i, c_i = 1, 0
    for first in range(0, n_items, block):
        multipliers, increments = [], []
        for _ in range(first, min(first + block, n_items)):
            a_i, c_i = (
                (_DRAND48_A * a_i) & _DRAND48_MASK,
                (_DRAND48_A * c_i + _DRAND48_C) & _DRAND48_MASK,
            )
            multipliers.append(a_i)
            increments.append(c_i)
        states = np.array(multipliers, dtype=np.uint64)[:, None] * seeds[None, :]
        states += np.array(increments, dtype=np.uint64)[:, None]
        states &= np.uint64(_DRAND48_MASK)
        yield (n_items * (states.astype(np.float64) / _TWO_TO_48)).astype(np.int64)


def rouge155_order(n_rows: int, peer_id: str = "X") -> np.ndarray:
    """Row indices in the order 1.5.5 walks instances named ``"{row + 1}.{peer_id}"``.

    Those are the names the Perl script gives rows of an ``-z`` file list (``X`` is its default
    system id); it sorts them as strings: ``1.X, 10.X, 100.X, ..., 2.X, 20.X, ...``.
    """
    return np.array(sorted(range(n_rows), key=lambda row: f"{row + 1}.{peer_id}"), dtype=np.int64)


def _perl_element(values: np.ndarray, index: int) -> float:
    """``$array[index]``: negative counts from the end; out of range reads as 0 (undef)."""
    if index < 0:
        index += len(values)
    return float(values[index]) if 0 <= index < len(values) else 0.0


def _estimate(means: np.ndarray, confidence_percent: float) -> Estimate:
    ranked = np.sort(means)
    n = len(ranked)
    average = float(np.cumsum(ranked)[-1]) / n
    delta = n * ((100 - confidence_percent) / 2.0) / 100.0
    upper = int(n - delta - 1)
    lower = int(delta)
    ratio = n - delta - 1 - upper

    def interpolate(index: int) -> float:
        below = _perl_element(ranked, index)
        return below + (_perl_element(ranked, index + 1) - below) * ratio

    return Estimate(round5(average), round5(interpolate(lower)), round5(interpolate(upper)))


def rouge155_bootstrap(
    recall: np.ndarray,
    precision: np.ndarray,
    alpha: float,
    *,
    confidence: float = 0.95,
    n_resamples: int = 1000,
) -> dict[str, Estimate]:
    """``{"R", "P", "F"}`` -> (average, low, high) exactly as 1.5.5 prints them.

    ``recall`` and ``precision`` are per-instance values, already in 1.5.5's instance order
    (see :func:`rouge155_order`); they are rounded to 5 decimals here, and F is derived from them
    with ``alpha`` (1.5.5's ``-p``). ``confidence`` is a fraction (0.95 for ``-c 95``).
    """
    precision, recall, f = rounded_prf(
        np.asarray(precision, dtype=np.float64),
        np.asarray(recall, dtype=np.float64),
        FMeasure(alpha=alpha),
    )
    n_items = len(recall)
    if len(precision) != n_items:
        raise InputError("recall and precision must have one value per instance each")
    if n_resamples < 1:
        raise OptionError("n_resamples must be at least 1")
    if not 0 <= confidence <= 1:
        raise OptionError("confidence is a fraction between 0 and 1 (0.95 for -c 95)")
    values = np.stack([recall, precision, f], axis=1)
    totals = np.zeros((3, n_resamples))
    for draws in _drand48_blocks(n_items, n_resamples):
        for k in range(3):
            for row in values[:, k][draws]:  # Perl's left-to-right sum, over all resamples
                totals[k] += row
    means = (totals / max(n_items, 1)).T
    confidence_percent = round(confidence * 100, 9)
    return {
        name: _estimate(means[:, k], confidence_percent) for k, name in enumerate(("R", "P", "F"))
    }
