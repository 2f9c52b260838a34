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

from ..errors import OptionError

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
        raise OptionError(f"unknown correlation method {method!r}; expected one of {METHODS}")
    x, z, w = (np.asarray(a, dtype=float) for a in (x, z, w))
    shape = np.broadcast_shapes(x.shape, z.shape, w.shape)
    w = np.broadcast_to(w, shape)
    present = w > 0
    count = w.sum(axis=-1)
    undefined = (present & (np.isnan(x) | np.isnan(z))).any(axis=-1) | (count < 2)
    # Absent (and undefined) elements have weight 0 or an undefined result: any number will do.
    xv, zv = np.where(np.isnan(x), 0.0, x), np.where(np.isnan(z), 0.0, z)
    if method == "pearson":
        (xv, x_constant), (zv, z_constant) = _unit_range(xv, present), _unit_range(zv, present)
        undefined |= x_constant | z_constant
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


def column_coefficients(x: np.ndarray, z: np.ndarray, w: np.ndarray, method: str) -> np.ndarray:
    """The ``method`` coefficient of each column of ``x`` and ``z`` (``(k, n)``, NaN where an
    element is absent from a column) under each weighting ``w`` (``(R, k)``) of the rows, as
    ``(R, n)``: :func:`coefficient` of ``x.T`` and ``z.T`` with weights ``w[:, None, :]`` and
    weight 0 where a value is NaN (the summary level: documents' columns, resampled systems).

    The values are the same under every weighting, so each column's coefficient is read off
    products of the weights with matrices of that column's values, made once (:class:`_Columns`
    states the identities); a block of weightings takes one ``matmul`` for every column.
    """
    if method not in METHODS:
        raise OptionError(f"unknown correlation method {method!r}; expected one of {METHODS}")
    x, z, w = (np.asarray(a, dtype=float) for a in (x, z, w))
    columns = _Columns(x, z, method)
    step = max(1, _COLUMN_BLOCK // x.size)
    out = np.concatenate([columns(w[start : start + step]) for start in range(0, len(w), step)])
    if method == "pearson" and columns.fragile.any():
        # Differences too far apart for their squares on one scale: each sample on its own.
        keep = columns.fragile
        weights = np.where(columns.present[:, keep].T, w[:, None, :], 0.0)
        out[:, keep] = coefficient(x[:, keep].T, z[:, keep].T, weights, method)
    return out


_COLUMN_BLOCK = 1 << 18
"""Elements of one block of :func:`column_coefficients`'s largest temporary (per side): small,
so that it stays in cache and BLAS runs each column's small product on one thread."""


class _Columns:
    """Per column the matrices whose products with a block of weights ``w`` (``(B, k)``) give its
    coefficients (the weights of the absent elements are 0 throughout).

    With ``P[ij] = w_i w_j`` the weight of the pair of elements i < j (pairs of copies of one
    element are tied on both sides, so they only count in N = Σ w):

    - Pearson is ``Σ P dx dz / sqrt(Σ P dx² · Σ P dz²)`` with ``dx = x_i - x_j``: N times a
      weighted (co)variance is this sum over pairs of products of differences;
    - Kendall's balance (concordant minus discordant pairs) is ``Σ P sign(dx) sign(dz)`` and
      tau-b's denominator ``sqrt(Σ P [dx != 0] · Σ P [dz != 0])`` (the pairs untied in x, in z);
    - Spearman: an element's average rank less the mean rank (N + 1) / 2 is half of
      ``U_i = Σ_j w_j sign(x_i - x_j)`` (copies below it minus copies above), so rho is
      ``Σ w U V / sqrt(Σ w U² · Σ w V²)``, with ``U = w @ S`` (V likewise for z);
    - tau-c's number of classes on a side: the elements with weight that have no equal element
      with weight before them (``w > 0`` times the equal elements before each, 0).

    A side is constant, or has fewer than two elements, exactly where its sum of squares (tau-c:
    its number of classes less 1) is 0: the NaN rule. Kendall's and Spearman's sums are of whole
    numbers, exact in floating point.
    """

    def __init__(self, x: np.ndarray, z: np.ndarray, method: str) -> None:
        self.method = method
        self.present = ~(np.isnan(x) | np.isnan(z))
        if method == "spearman":
            self.signs = np.concatenate([self._signs(x), self._signs(z)])
            return
        if method == "pearson":
            x, z = _unit_range(x, self.present, axis=0)[0], _unit_range(z, self.present, axis=0)[0]
        k = len(x)
        self.first, self.second = np.triu_indices(k, 1)
        both = self.present[self.first] & self.present[self.second]
        dx = np.where(both, x[self.first] - x[self.second], 0.0).T
        dz = np.where(both, z[self.first] - z[self.second], 0.0).T
        if method == "pearson":
            self.fragile = _tiny(dx) | _tiny(dz)
        else:
            dx, dz = np.sign(dx), np.sign(dz)
        sums = [dx * dz] if method == "kendall_c" else [dx * dz, dx * dx, dz * dz]
        self.pair_sums = np.stack(sums, axis=-1)  # (n, pairs, sums)
        if method == "kendall_c":
            self.equal_before = np.concatenate([self._equal_before(x), self._equal_before(z)])

    def __call__(self, w: np.ndarray) -> np.ndarray:
        """The coefficients of the block of weightings ``w``, ``(B, n)``."""
        # One small product per column (matmul's leading axis), each on one thread.
        if self.method == "spearman":
            u, v = np.split(np.matmul(w, self.signs), 2)  # (n, B, k) each
            wu, wv = u * w, v * w
            covariance = np.einsum("dbi,dbi->db", wu, v)
            spread_x, spread_z = np.einsum("dbi,dbi->db", wu, u), np.einsum("dbi,dbi->db", wv, v)
        else:
            sums = np.matmul(w[:, self.first] * w[:, self.second], self.pair_sums)
            covariance = sums[..., 0]
        if self.method == "kendall_c":
            count = (w @ self.present).T
            weighted = (w > 0) * self.present.T[:, None, :]
            before = np.split(np.matmul(w > 0, self.equal_before), 2)
            classes = np.minimum(*((weighted * (side == 0)).sum(axis=-1) for side in before))
            with np.errstate(invalid="ignore", divide="ignore"):
                tau = 2 * covariance / (count**2 * (classes - 1) / classes)
            return np.where(classes < 2, np.nan, np.clip(tau, -1.0, 1.0)).T
        if self.method != "spearman":
            spread_x, spread_z = sums[..., 1], sums[..., 2]
        with np.errstate(invalid="ignore", divide="ignore"):
            r = covariance / np.sqrt(spread_x) / np.sqrt(spread_z)
        undefined = (spread_x == 0) | (spread_z == 0)
        return np.where(undefined, np.nan, np.clip(r, -1.0, 1.0)).T

    def _signs(self, x: np.ndarray) -> np.ndarray:
        """``S[d, j, i] = sign(x[i, d] - x[j, d])`` where both are present, else 0."""
        both = self.present.T[:, :, None] & self.present.T[:, None, :]
        return np.where(both, np.sign(x.T[:, None, :] - x.T[:, :, None]), 0.0)

    def _equal_before(self, x: np.ndarray) -> np.ndarray:
        """``E[d, j, i] = 1`` where ``j < i`` and both are present with equal values."""
        both = self.present.T[:, :, None] & self.present.T[:, None, :]
        k = len(x)
        return (both & (x.T[:, :, None] == x.T[:, None, :]) & np.tri(k, k, -1, bool).T) * 1.0


def _tiny(differences: np.ndarray) -> np.ndarray:
    """Per row whether a difference is so small beside the range (1) that its square underflows."""
    return ((differences != 0) & (np.abs(differences) < 1e-150)).any(axis=-1)


def _unit_range(
    x: np.ndarray, present: np.ndarray, axis: int = -1
) -> tuple[np.ndarray, np.ndarray]:
    """``x`` with each sample's present values mapped onto [0, 1], which leaves Pearson's r as it
    is and keeps squares of tiny differences from underflowing, and whether they are all equal
    (exactly, as SciPy checks)."""
    low = np.where(present, x, np.inf).min(axis=axis, keepdims=True)
    span = np.where(present, x, -np.inf).max(axis=axis, keepdims=True) - low
    with np.errstate(invalid="ignore"):
        scaled = (x - low) / np.where(span > 0, span, 1.0)
    return scaled, np.squeeze(span == 0, axis)


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
    else:
        weighted = np.matmul(w[..., None, :], concordance)[..., 0, :]
    balance = (weighted * w).sum(axis=-1) / 2
    with np.errstate(invalid="ignore", divide="ignore"):
        if tau_c:
            classes = np.minimum(xs.groups, zs.groups)
            return 2 * balance / (count**2 * (classes - 1) / classes)
        total = count * (count - 1) / 2
        return balance / np.sqrt(total - xs.tied_pairs) / np.sqrt(total - zs.tied_pairs)
