"""Reducing the scores against several references to one score per prediction (SPEC §3).

Each mode receives, for one ROUGE type, the counts of every (prediction, reference) pair —
``hit``, ``pred_base``, ``ref_base`` — with ``owner[k]`` the row of pair ``k``; pairs of a row are
contiguous and in reference order. It returns precision, recall and F per row.
"""

from __future__ import annotations

from array import array

from .._compiled import compiled
from ..errors import OptionError
from .counting import PairCounts
from .fmeasure import FMeasure, rounded_prf
from .measures import Measure
from .tables import ScoreTable

TYPE_CHECKING = False
if TYPE_CHECKING:
    import numpy as np

MULTI_REF_MODES = ("best", "pooled", "mean", "mean_prf", "best_recall", "jackknife")

# The "best" reduction of hit / base measures without NumPy (scoring/_scores.c); None without
# the extension, or with ROUGE_PLUS_PURE_PYTHON=1.
_compiled = compiled("scoring._scores")
per_row_scores = _compiled and _compiled.per_row_scores
COMPILED_REDUCTION = per_row_scores is not None


def reduce_references(
    mode: str,
    counts: PairCounts,
    pair_rows: array,
    n_rows: int,
    fmeasure: FMeasure,
    round5_values: bool = False,
    compiled: bool = False,
) -> list[ScoreTable]:
    """For each measure of ``counts``, the per-row ``(precision, recall, f)`` table;
    ``pair_rows`` (int64) is the row of each pair.

    ``round5_values`` gives every value as ROUGE-1.5.5 prints it: precision and recall rounded to
    5 decimals (as Perl's ``%7.5f``), and F computed from the rounded values, then rounded.

    ``compiled`` reduces with the compiled ``per_row_scores`` (without NumPy, to the same
    floats), which computes precision and recall as ``hit / base``: the plan's
    :class:`~rouge_plus.plan.CompiledWork` says when it may; everything else is reduced by NumPy.
    """
    if compiled:
        form = fmeasure.compiled_form
        tables = per_row_scores(counts.buffer, len(counts.measures), pair_rows, n_rows, *form)
        return list(map(ScoreTable, tables))
    import numpy as np

    owner = np.frombuffer(pair_rows, dtype=np.int64)
    return [
        ScoreTable.of(_reduce(mode, counts[m], owner, n_rows, m, fmeasure, round5_values))
        for m in counts.measures
    ]


def _group_starts(owner: np.ndarray, n_rows: int) -> np.ndarray:
    import numpy as np

    return np.searchsorted(owner, np.arange(n_rows))


def _first_max(values: np.ndarray, owner: np.ndarray, n_rows: int) -> np.ndarray:
    """Index of the first pair of each row whose value equals the row's maximum."""
    import numpy as np

    starts = _group_starts(owner, n_rows)
    row_max = np.maximum.reduceat(values, starts)
    candidates = np.flatnonzero(values == row_max[owner])
    _, first = np.unique(owner[candidates], return_index=True)
    return candidates[first]


def _reduce(
    mode: str,
    counts: tuple[np.ndarray, np.ndarray, np.ndarray],
    owner: np.ndarray,
    n_rows: int,
    measure: Measure,
    fmeasure: FMeasure,
    round5_values: bool,
) -> np.ndarray:
    """One measure's per-row ``(precision, recall, f)`` as an ``(n_rows, 3)`` array."""
    import numpy as np

    hit, pred_base, ref_base = counts

    def prf(h: np.ndarray, p_base: np.ndarray, r_base: np.ndarray) -> np.ndarray:
        precision, recall = measure.precision_recall(h, p_base, r_base)
        if not round5_values:
            return np.stack([precision, recall, fmeasure(precision, recall)], axis=1)
        return np.stack(rounded_prf(precision, recall, fmeasure), axis=1)

    if mode == "pooled":
        starts = _group_starts(owner, n_rows)
        return prf(*(np.add.reduceat(c, starts) for c in (hit, pred_base, ref_base)))

    per_pair = prf(hit, pred_base, ref_base)
    if mode == "best":
        return per_pair[_first_max(per_pair[:, 2], owner, n_rows)]
    if mode == "best_recall":
        key = measure.best_recall_key(hit, ref_base, per_pair[:, 1])
        return per_pair[_first_max(key, owner, n_rows)]
    if mode in ("mean", "mean_prf"):
        starts = _group_starts(owner, n_rows)
        sizes = np.diff(np.append(starts, len(owner)))
        means = np.add.reduceat(per_pair, starts, axis=0) / sizes[:, None]
        if mode == "mean_prf":  # torchmetrics' accumulate="avg": F is averaged too
            return means
        return np.stack([means[:, 0], means[:, 1], fmeasure(means[:, 0], means[:, 1])], axis=1)
    if mode == "jackknife":
        return _jackknife(per_pair, owner, n_rows)
    raise OptionError(
        f"multi_ref: unknown mode {mode!r}; valid modes are: {', '.join(MULTI_REF_MODES)}"
    )


def _jackknife(per_pair: np.ndarray, owner: np.ndarray, n_rows: int) -> np.ndarray:
    """Lin (2004): best score over each leave-one-out reference set, averaged over the sets.

    A row with a single reference keeps that reference's score.
    """
    import numpy as np

    out = np.empty((n_rows, 3))
    starts = _group_starts(owner, n_rows)
    ends = np.append(starts[1:], len(owner))
    for row, (start, end) in enumerate(zip(starts, ends, strict=True)):
        scores = per_pair[start:end]
        if len(scores) == 1:
            out[row] = scores[0]
            continue
        # Leaving out any reference but the best keeps the best; leaving out the best picks the
        # first maximum of the others. That is O(K) instead of K argmaxes.
        best = int(np.argmax(scores[:, 2]))
        runner_up = int(np.argmax(np.where(np.arange(len(scores)) == best, -1.0, scores[:, 2])))
        picks = np.full(len(scores), best)
        picks[best] = runner_up
        out[row] = scores[picks].mean(axis=0)
    return out
