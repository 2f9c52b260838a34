"""The global level's coefficient under many bootstrap resamples, without materialising them.

A resample of a (systems x documents) pair of matrices is the original cells, cell (i, j)
weighted by ``a[i] * b[j]`` (how often system i and document j were drawn). The cells present in
both matrices are sorted once (:class:`Cells`); then each resample's coefficient comes from a few
passes over them (``_global_level.c`` states how; :func:`twin_coefficients` is its NumPy twin,
equal to the last bit). Spearman's and Kendall's sums are of whole numbers, exact in int64, as
long as a resample has fewer than :data:`EXACT_LIMIT` elements; Pearson's are summed in cell
order. The results are :func:`coefficients.coefficient`'s of the same weights.
"""

from __future__ import annotations

import itertools

import numpy as np

from .._compiled import compiled

EXACT_LIMIT = 2_000_000
"""Elements of a resample below which Spearman's sums (at most their cube) fit in int64."""

_CODES = {"pearson": 0, "spearman": 1, "kendall": 2, "kendall_c": 3}
# Elements of the twin's weights (resamples x cells) per chunk: few for Pearson and Spearman,
# whose temporaries then stay in cache, many for Kendall, whose loop over the cells is Python's.
_CHUNKS = {"pearson": 1 << 18, "spearman": 1 << 18, "kendall": 1 << 22, "kendall_c": 1 << 22}

_compiled = compiled("meta._global_level")


class Cells:
    """The cells present in both matrices in flat order, each side's sorted order and tie groups
    (``start``: 1 where a group starts in sorted order), and z's dense rank."""

    def __init__(self, metric: np.ndarray, human: np.ndarray) -> None:
        self.shape = metric.shape
        present = ~(np.isnan(metric) | np.isnan(human))
        row, col = np.nonzero(present)
        self.values = np.stack([metric[present], human[present]])
        orders, starts = [], []
        for side in self.values:
            order = np.argsort(side, kind="stable")
            ordered = side[order]
            start = np.ones(len(side), dtype=np.int64)
            start[1:] = ordered[1:] != ordered[:-1]
            orders.append(order)
            starts.append(start)
        self.ranks = int(starts[1].sum())
        z_rank = np.empty(len(row), dtype=np.int64)
        z_rank[orders[1]] = np.cumsum(starts[1]) - 1
        table = [row, col, orders[0], starts[0], orders[1], starts[1], z_rank]
        self.table = np.ascontiguousarray(np.stack(table), dtype=np.int64)


def exact(shape: tuple[int, int], rows: np.ndarray | None, cols: np.ndarray | None) -> bool:
    """Whether every resample that weights the systems of a ``shape`` matrix by ``rows`` and the
    documents by ``cols`` (None: every one once) has fewer than :data:`EXACT_LIMIT` elements."""
    most = [
        size if weights is None or not len(weights) else float(np.max(weights.sum(axis=1)))
        for size, weights in zip(shape, (rows, cols), strict=True)
    ]
    return most[0] * most[1] < EXACT_LIMIT


def coefficients(
    cells: Cells, method: str, rows: np.ndarray | None, cols: np.ndarray | None
) -> np.ndarray:
    """The ``method`` coefficient of each resample that weights the systems by ``rows``
    (``(R, m)``) and the documents by ``cols`` (``(R, n)``; None: every one once), where
    :func:`exact` holds."""
    m, n = cells.shape
    if rows is None and cols is None:
        rows = np.ones((1, m))
    count = len(rows if rows is not None else cols)
    a = np.ones((count, m), np.int64) if rows is None else np.asarray(rows, np.int64)
    b = np.ones((count, n), np.int64) if cols is None else np.asarray(cols, np.int64)
    if _compiled is None:
        return twin_coefficients(cells, method, a, b)
    out = np.empty(count)
    _compiled.coefficients(
        _CODES[method], cells.table, cells.values, np.ascontiguousarray(a),
        np.ascontiguousarray(b), m, n, cells.ranks, out,
    )  # fmt: skip
    return out


def twin_coefficients(cells: Cells, method: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The compiled ``coefficients`` in NumPy, the same operations in the same order, in chunks
    of resamples (weights int64 ``(R, m)`` and ``(R, n)``)."""
    step = max(1, _CHUNKS[method] // max(1, cells.table.shape[1]))
    row, col = cells.table[0], cells.table[1]
    out = [
        _TWINS[method](cells, a[s : s + step][:, row] * b[s : s + step][:, col], method)
        for s in range(0, len(a), step)
    ]
    return np.concatenate(out) if out else np.empty(0)


def _pearson(cells: Cells, w: np.ndarray, method: str) -> np.ndarray:
    w = np.ascontiguousarray(w.T)  # one column per resample, for _in_order
    weighted = w > 0
    total = w.sum(axis=0)
    w = w.astype(float)
    scaled, spans = [], []
    for side in cells.values[:, :, None]:
        low = np.where(weighted, side, np.inf).min(axis=0, initial=np.inf)
        span = np.where(weighted, side, -np.inf).max(axis=0, initial=-np.inf) - low
        with np.errstate(invalid="ignore"):
            scaled.append((side - low) / np.where(span > 0, span, 1.0))
        spans.append(span)
    with np.errstate(invalid="ignore", divide="ignore"):
        dx, dz = (v - _in_order(w * v) / total for v in scaled)
        r = (
            _in_order(w * dx * dz)
            / np.sqrt(_in_order(w * dx * dx))
            / np.sqrt(_in_order(w * dz * dz))
        )
    undefined = (total < 2) | (spans[0] == 0) | (spans[1] == 0)
    return np.where(undefined, np.nan, np.clip(r, -1.0, 1.0))


def _in_order(terms: np.ndarray) -> np.ndarray:
    """Each column's sum, added from the first row (cell) to the last, as the C loop adds them
    (terms of weight 0 are 0 and change nothing); NumPy's ``sum`` may add in pairs."""
    if not len(terms):
        return np.zeros(terms.shape[1])
    return np.cumsum(terms, axis=0)[-1]


def _rank_offsets(w: np.ndarray, order: np.ndarray, start: np.ndarray) -> np.ndarray:
    """Per cell the weight below it in ``order`` minus the weight above it (ties: half each)."""
    total = w.sum(axis=1, keepdims=True)
    group = np.cumsum(start) - 1
    starts = np.flatnonzero(start)
    if not len(starts):
        return np.zeros_like(w)
    weights = np.add.reduceat(w[:, order], starts, axis=1)  # per tie group
    below = np.cumsum(weights, axis=1) - weights
    out = np.empty_like(w)
    out[:, order] = 2 * below[:, group] + weights[:, group] - total
    return out


def _spearman(cells: Cells, w: np.ndarray, method: str) -> np.ndarray:
    table = cells.table
    u = _rank_offsets(w, table[2], table[3])
    v = _rank_offsets(w, table[4], table[5])
    sums = [(w * p * q).sum(axis=1) for p, q in ((u, v), (u, u), (v, v))]
    undefined = (w.sum(axis=1) < 2) | (sums[1] == 0) | (sums[2] == 0)
    with np.errstate(invalid="ignore", divide="ignore"):
        r = sums[0] / np.sqrt(sums[1].astype(float)) / np.sqrt(sums[2].astype(float))
    return np.where(undefined, np.nan, np.clip(r, -1.0, 1.0))


def _kendall(cells: Cells, w: np.ndarray, method: str) -> np.ndarray:
    """Concordant minus discordant pairs by a Fenwick tree over z ranks, every resample of the
    chunk at once (a cell's rank, and so its path in the tree, is the same in all of them)."""
    order, start, rank = cells.table[2], cells.table[3], cells.table[6]
    size = cells.ranks
    tree = np.zeros((len(w), size + 1), dtype=np.int64)
    at_rank = np.zeros((len(w), size), dtype=np.int64)
    inserted, balance, x_squares, z_squares, x_groups, z_groups = np.zeros((6, len(w)), np.int64)
    bounds = [*np.flatnonzero(start), len(order)]
    for first, end in itertools.pairwise(bounds):
        group = order[first:end]
        for cell in group:  # its pairs with the cells of lower x, before any is inserted
            r, weight = rank[cell], w[:, cell]
            lower = tree[:, _prefix(r)].sum(axis=1)
            balance += weight * (2 * lower + at_rank[:, r] - inserted)
        for cell in group:
            r, weight = rank[cell], w[:, cell]
            tree[:, _updates(r + 1, size)] += weight[:, None]
            z_groups += (at_rank[:, r] == 0) & (weight > 0)
            z_squares += (2 * at_rank[:, r] + weight) * weight
            at_rank[:, r] += weight
        weights = w[:, group].sum(axis=1)
        inserted += weights
        x_squares += weights * weights
        x_groups += weights > 0
    undefined = (inserted < 2) | (x_groups < 2) | (z_groups < 2)
    count = inserted.astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        if method == "kendall_c":
            classes = np.minimum(x_groups, z_groups).astype(float)
            tau = 2 * balance.astype(float) / (count * count * (classes - 1) / classes)
        else:
            pairs = count * (count - 1) / 2
            x_tied = ((x_squares - inserted) // 2).astype(float)
            z_tied = ((z_squares - inserted) // 2).astype(float)
            tau = balance.astype(float) / np.sqrt(pairs - x_tied) / np.sqrt(pairs - z_tied)
    return np.where(undefined, np.nan, tau)


def _prefix(index: int) -> list[int]:
    """The Fenwick tree's entries that sum the weights at indices 1..``index``."""
    path = []
    while index > 0:
        path.append(index)
        index -= index & -index
    return path


def _updates(index: int, size: int) -> list[int]:
    """The Fenwick tree's entries that hold index ``index``."""
    path = []
    while index <= size:
        path.append(index)
        index += index & -index
    return path


_TWINS = {"pearson": _pearson, "spearman": _spearman, "kendall": _kendall, "kendall_c": _kendall}
