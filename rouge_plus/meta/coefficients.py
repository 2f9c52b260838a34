"""Pearson, Spearman and Kendall (tau-b, tau-c) over many weighted samples at once.

Every function takes values ``x`` and ``z`` and integer weights ``w`` of shape ``(..., k)`` and
returns one coefficient per leading index: the coefficient of the sample in which element ``i``
appears ``w[..., i]`` times (0: absent, whatever its value). One representation serves every
case: a missing cell has weight 0, and a bootstrap resample is the original sample with each
element weighted by how often it was drawn, so the resampled values are never gathered.

The coefficients are SciPy's (``pearsonr``, ``spearmanr`` with average ranks, ``kendalltau``
with ``variant="b"`` or ``"c"``) of the expanded sample, including their NaN: fewer than two
elements, a constant side, or a NaN among the present values gives NaN.
"""

from __future__ import annotations

import numpy as np

METHODS = ("pearson", "spearman", "kendall", "kendall_c")
"""The coefficients: ``kendall`` is tau-b (SciPy's default), ``kendall_c`` tau-c."""


def pairwise(method: str) -> bool:
    """Whether ``method`` costs k² per sample (Kendall's pair counts) rather than k log k."""
    return method.startswith("kendall")


def coefficient(x: np.ndarray, z: np.ndarray, w: np.ndarray, method: str) -> np.ndarray:
    """The ``method`` coefficient of each weighted sample (see the module's docstring).

    ``x`` and ``z`` may have fewer leading indices than ``w`` (the same values under many
    weightings, as in a bootstrap): what depends on the values alone is computed once.
    """
    if method not in METHODS:
        raise ValueError(f"unknown correlation method {method!r}; expected one of {METHODS}")
    x, z, w = (np.asarray(a, dtype=float) for a in (x, z, w))
    shape = np.broadcast_shapes(x.shape, z.shape, w.shape)
    w = np.broadcast_to(w, shape)
    present = w > 0
    count = w.sum(axis=-1)
    undefined = (present & (np.isnan(x) | np.isnan(z))).any(axis=-1) | (count < 2)
    # Absent (and undefined) elements have weight 0 or an undefined result: any number will do.
    xv, zv = np.where(np.isnan(x), 0.0, x), np.where(np.isnan(z), 0.0, z)
    if method == "pearson":
        undefined |= _constant(x, present) | _constant(z, present)
        result = _pearson(xv, zv, w, count)
    else:
        ranked = method == "spearman"
        xs, zs = _ties(x, w, ranked), _ties(z, w, ranked)
        undefined |= (xs.groups < 2) | (zs.groups < 2)
        if method == "spearman":
            result = _pearson(xs.ranks, zs.ranks, w, count)
        else:
            result = _kendall(xv, zv, w, count, xs, zs, tau_c=method == "kendall_c")
    return np.where(undefined, np.nan, result)


def _constant(x: np.ndarray, present: np.ndarray) -> np.ndarray:
    """Whether the present values of each sample are all equal (exactly, as SciPy checks)."""
    return np.where(present, x, -np.inf).max(axis=-1) == np.where(present, x, np.inf).min(axis=-1)


class _Ties:
    """Per element its average rank in the weighted sample; per sample the number of distinct
    present values and the number of tied pairs of elements."""

    __slots__ = ("groups", "ranks", "tied_pairs")

    def __init__(
        self, ranks: np.ndarray | None, groups: np.ndarray, tied_pairs: np.ndarray
    ) -> None:
        self.ranks, self.groups, self.tied_pairs = ranks, groups, tied_pairs


def _ties(x: np.ndarray, w: np.ndarray, ranked: bool) -> _Ties:
    """Average ranks (1-based, as ``scipy.stats.rankdata``; only if ``ranked``) with weights,
    by one sort of the values (not of their broadcast copies)."""
    k = x.shape[-1]
    order = np.argsort(x, axis=-1, kind="stable")
    xs = np.take_along_axis(x, order, axis=-1)
    starts = np.ones(xs.shape, dtype=bool)
    starts[..., 1:] = xs[..., 1:] != xs[..., :-1]
    ends = np.ones(xs.shape, dtype=bool)
    ends[..., :-1] = starts[..., 1:]
    index = np.arange(k)
    first = np.maximum.accumulate(np.where(starts, index, 0), axis=-1)
    last = np.flip(np.minimum.accumulate(np.flip(np.where(ends, index, k - 1), -1), -1), -1)
    order, starts, first, last = np.broadcast_arrays(order, starts, first, last, w)[:4]
    ws = np.take_along_axis(w, order, axis=-1)
    cumulative = np.cumsum(ws, axis=-1)
    less = np.take_along_axis(cumulative - ws, first, axis=-1)
    equal = np.take_along_axis(cumulative, last, axis=-1) - less
    ranks = None
    if ranked:
        ranks = np.empty(w.shape)
        np.put_along_axis(ranks, order, less + (equal + 1) / 2, axis=-1)
    groups = (starts & (equal > 0)).sum(axis=-1)
    # Pairs of distinct elements of the expanded sample with equal values: sum over groups of
    # t(t-1)/2, as sum over elements of w * (group weight) minus the elements themselves.
    tied_pairs = ((ws * equal).sum(axis=-1) - ws.sum(axis=-1)) / 2
    return _Ties(ranks, groups, tied_pairs)


def _pearson(x: np.ndarray, z: np.ndarray, w: np.ndarray, count: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        dx = x - ((w * x).sum(axis=-1) / count)[..., None]
        dz = z - ((w * z).sum(axis=-1) / count)[..., None]
        r = (
            (w * dx * dz).sum(axis=-1)
            / np.sqrt((w * dx * dx).sum(axis=-1))
            / np.sqrt((w * dz * dz).sum(axis=-1))
        )
    return np.clip(r, -1.0, 1.0)


def _kendall(
    x: np.ndarray,
    z: np.ndarray,
    w: np.ndarray,
    count: np.ndarray,
    xs: _Ties,
    zs: _Ties,
    tau_c: bool,
) -> np.ndarray:
    if x.ndim > 1 and x.shape[:-1] == (1,) * (x.ndim - 1) == z.shape[:-1]:
        x, z = x.reshape(-1), z.reshape(-1)
    concordance = np.sign(x[..., :, None] - x[..., None, :])
    concordance *= np.sign(z[..., :, None] - z[..., None, :])
    # Concordant minus discordant pairs: each unordered pair counted once.
    if concordance.ndim == 2:  # one set of values under many weightings: one product
        weighted = (w.reshape(-1, w.shape[-1]) @ concordance).reshape(w.shape)
    elif concordance.ndim == 4 and concordance.shape[0] == 1 and w.ndim == 3:
        # Columns of fixed values under many weightings: one product per column.
        weighted = np.matmul(w.transpose(1, 0, 2), concordance[0]).transpose(1, 0, 2)
    else:
        weighted = np.matmul(w[..., None, :], concordance)[..., 0, :]
    balance = (weighted * w).sum(axis=-1) / 2
    with np.errstate(invalid="ignore", divide="ignore"):
        if tau_c:
            classes = np.minimum(xs.groups, zs.groups)
            return 2 * balance / (count**2 * (classes - 1) / classes)
        total = count * (count - 1) / 2
        return balance / np.sqrt(total - xs.tied_pairs) / np.sqrt(total - zs.tied_pairs)
