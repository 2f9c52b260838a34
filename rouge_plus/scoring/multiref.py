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
    if mode == "pooled":
        starts = _group_starts(owner, n_rows)
        sums = (np.add.reduceat(c, starts) for c in (hit, pred_base, ref_base))
        return prf_rows(measure, *sums, fmeasure, round5_values)

    per_pair = prf_rows(measure, hit, pred_base, ref_base, fmeasure, round5_values)
    if mode in ("best", "best_recall"):
        return per_pair[_best_pairs(mode, counts, per_pair, owner, n_rows, measure)]
    if mode in ("mean", "mean_prf"):
        starts = _group_starts(owner, n_rows)
        sizes = np.diff(np.append(starts, len(owner)))
        means = np.add.reduceat(per_pair, starts, axis=0) / sizes[:, None]
        if mode == "mean_prf":  # torchmetrics' accumulate="avg": F is averaged too
            return means
        return np.stack([means[:, 0], means[:, 1], fmeasure(means[:, 0], means[:, 1])], axis=1)
    if mode == "jackknife":
        return _jackknife_means(per_pair, per_pair, owner, n_rows)
    raise OptionError(
        f"multi_ref: unknown mode {mode!r}; valid modes are: {', '.join(MULTI_REF_MODES)}"
    )


def prf_rows(
    measure: Measure,
    hit: np.ndarray,
    pred_base: np.ndarray,
    ref_base: np.ndarray,
    fmeasure: FMeasure,
    round5_values: bool = False,
) -> np.ndarray:
    """``(len(hit), 3)``: precision, recall and F of each set of counts (rounded as
    ROUGE-1.5.5 prints them when ``round5_values``)."""
    import numpy as np

    precision, recall = measure.precision_recall(hit, pred_base, ref_base)
    if not round5_values:
        return np.stack([precision, recall, fmeasure(precision, recall)], axis=1)
    return np.stack(rounded_prf(precision, recall, fmeasure), axis=1)


def _best_pairs(
    mode: str,
    counts: tuple[np.ndarray, np.ndarray, np.ndarray],
    per_pair: np.ndarray,
    owner: np.ndarray,
    n_rows: int,
    measure: Measure,
) -> np.ndarray:
    """The pair each row's "best" (highest F) or "best_recall" (ROUGE-1.5.5's ``-f B`` key)
    reference gives."""
    if mode == "best":
        return _first_max(per_pair[:, 2], owner, n_rows)
    hit, _, ref_base = counts
    return _first_max(measure.best_recall_key(hit, ref_base, per_pair[:, 1]), owner, n_rows)


def _jackknife_means(
    values: np.ndarray, per_pair: np.ndarray, owner: np.ndarray, n_rows: int
) -> np.ndarray:
    """Lin (2004): the best reference (by ``per_pair``'s F) of each leave-one-out reference
    set, and the mean over the sets of its row of ``values`` (its scores, or its counts).

    A row with a single reference keeps that reference's row.
    """
    import numpy as np

    out = np.empty((n_rows, values.shape[1]))
    starts = _group_starts(owner, n_rows)
    ends = np.append(starts[1:], len(owner))
    for row, (start, end) in enumerate(zip(starts, ends, strict=True)):
        scores = per_pair[start:end]
        if len(scores) == 1:
            out[row] = values[start]
            continue
        # Leaving out any reference but the best keeps the best; leaving out the best picks the
        # first maximum of the others. That is O(K) instead of K argmaxes.
        best = int(np.argmax(scores[:, 2]))
        runner_up = int(np.argmax(np.where(np.arange(len(scores)) == best, -1.0, scores[:, 2])))
        picks = np.full(len(scores), best)
        picks[best] = runner_up
        out[row] = values[start + picks].mean(axis=0)
    return out


def row_counts(
    mode: str,
    counts: PairCounts,
    pair_rows: array,
    n_rows: int,
    fmeasure: FMeasure,
    round5_values: bool = False,
) -> list[ScoreTable]:
    """For each measure of ``counts``, the per-row ``(hit, pred_base, ref_base)`` table behind
    the row's score under ``mode``: the counts of the reference "best" and "best_recall" chose,
    the sums over the references when "pooled"; "mean" and "mean_prf" have no single reference
    and give the mean counts over the references, "jackknife" the mean over the leave-one-out
    sets of the counts of the reference each set chose."""
    import numpy as np

    owner = np.frombuffer(pair_rows, dtype=np.int64)
    starts = _group_starts(owner, n_rows)
    tables = []
    for measure in counts.measures:
        measure_counts = counts[measure]
        by_pair = np.stack(measure_counts, axis=1)
        if mode == "pooled":
            rows = np.add.reduceat(by_pair, starts, axis=0)
        elif mode in ("mean", "mean_prf"):
            sizes = np.diff(np.append(starts, len(owner)))
            rows = np.add.reduceat(by_pair, starts, axis=0) / sizes[:, None]
        else:
            per_pair = prf_rows(measure, *measure_counts, fmeasure, round5_values)
            if mode == "jackknife":
                rows = _jackknife_means(by_pair, per_pair, owner, n_rows)
            else:
                rows = by_pair[_best_pairs(mode, measure_counts, per_pair, owner, n_rows, measure)]
        tables.append(ScoreTable.of(rows))
    return tables
