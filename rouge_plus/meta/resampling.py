"""The random draws of the bootstrap and the permutation test, as nlpstats makes them.

The draws come from ``numpy.random.RandomState(seed)`` in the order nlpstats 0.0.1 makes them
from NumPy's global state (per resample: the systems, then the documents), so a seed gives the
intervals and p-values nlpstats gives after ``numpy.random.seed(seed)``; RandomState's stream is
frozen across NumPy versions, so a seed also gives the same numbers on every machine. The draws
are returned as weights and masks over the original matrix, never as resampled copies.
"""

from __future__ import annotations

import numpy as np

from ..errors import OptionError, OptionTypeError

RESAMPLING = ("systems", "documents", "both")
"""What is resampled: the rows (systems), the columns (documents, nlpstats' "inputs"), or both."""

_ALIASES = {"inputs": "documents", "docs": "documents", "system": "systems"}


def resampling(name: str) -> str:
    """``name`` checked, with nlpstats' ``inputs`` accepted for ``documents``."""
    name = _ALIASES.get(name, name)
    if name not in RESAMPLING:
        raise OptionError(f"unknown resampling {name!r}; expected one of {RESAMPLING}")
    return name


def check_resamples(n_resamples: int) -> None:
    """A positive whole number of resamples."""
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, (int, np.integer)):
        raise OptionTypeError(f"n_resamples must be an integer, not {type(n_resamples).__name__}")
    if n_resamples < 1:
        raise OptionError(f"n_resamples must be at least 1, not {n_resamples}")


def _draw(
    shape: tuple[int, int], what: str, n_resamples: int, seed: int, draw
) -> tuple[np.ndarray | None, np.ndarray | None]:
    """One draw per axis resampled per resample, in nlpstats' order (rows, then columns)."""
    state = np.random.RandomState(seed)
    m, n = shape
    rows: list[np.ndarray] = []
    cols: list[np.ndarray] = []
    for _ in range(n_resamples):
        if what != "documents":
            rows.append(draw(state, m))
        if what != "systems":
            cols.append(draw(state, n))
    return (np.array(rows) if rows else None), (np.array(cols) if cols else None)


def bootstrap_weights(
    shape: tuple[int, int], what: str, n_resamples: int, seed: int
) -> tuple[np.ndarray | None, np.ndarray | None]:
    """How often each system (``(n_resamples, m)``) and each document (``(n_resamples, n)``) is
    drawn in each bootstrap resample; None for an axis that is not resampled.

    nlpstats draws ``np.random.choice(k, k, replace=True)``, which is ``randint(0, k, k)``.
    """
    rows, cols = _draw(shape, what, n_resamples, seed, lambda s, k: s.randint(0, k, k))
    return _counts(rows, shape[0]), _counts(cols, shape[1])


def _counts(indices: np.ndarray | None, k: int) -> np.ndarray | None:
    if indices is None:
        return None
    flat = (np.arange(len(indices))[:, None] * k + indices).ravel()
    return np.bincount(flat, minlength=len(indices) * k).reshape(len(indices), k).astype(float)


def permutation_swaps(
    shape: tuple[int, int], what: str, n_resamples: int, seed: int
) -> tuple[np.ndarray | None, np.ndarray | None]:
    """Which systems and which documents swap the two metrics' scores in each permutation
    (boolean, shapes as :func:`bootstrap_weights`); a cell swaps when exactly one of its system
    and its document does (nlpstats swaps the systems, then the documents of the result)."""
    return _draw(shape, what, n_resamples, seed, lambda s, k: s.rand(k) > 0.5)
