"""Counts for every (prediction, reference) pair and every ROUGE type.

For each measure this produces three arrays over the pairs — ``hit``, ``pred_base``,
``ref_base`` — from which precision and recall follow (``hit / pred_base``, ``hit / ref_base``),
and which add up over references for pooled scoring (each measure's ``precision_recall`` turns
them into scores).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .encoding import Encoded
from .kernels.python_backend import LCS, NGRAM, SKIP_BIGRAM, SUMMARY_LCS, WEIGHTED_LCS
from .native import count_pairs
from .rouge_types import Measure

Counts = tuple[np.ndarray, np.ndarray, np.ndarray]


def kernel_spec(measure: Measure) -> tuple[int, int, float]:
    """The ``(kind, n, x)`` spec the counting kernels take for a measure."""
    if measure.kind == "ngram":
        return NGRAM, measure.n, 0.0
    if measure.kind == "lcs":
        return LCS, 0, 0.0
    if measure.kind == "summary_lcs":
        return SUMMARY_LCS, 0, 0.0
    if measure.kind == "weighted_lcs":
        return WEIGHTED_LCS, 0, measure.weight
    if measure.kind == "skip_bigram":
        gap = -1 if measure.max_gap is None else measure.max_gap
        return SKIP_BIGRAM, gap, 1.0 if measure.unigrams else 0.0
    raise ValueError(f"no counting kernel for {measure.kind!r}")


def count_measures(
    measures: Sequence[Measure], encoded: Encoded, pred_docs: np.ndarray, ref_docs: np.ndarray
) -> dict[Measure, Counts]:
    """Counts of each measure over the pairs ``(pred_docs[k], ref_docs[k])`` of ``encoded``."""
    if not measures:
        return {}
    specs = [kernel_spec(m) for m in measures]
    raw = count_pairs(
        encoded.ids,
        encoded.sentences,
        encoded.documents,
        pred_docs,
        ref_docs,
        specs,
        encoded.vocab_size,
    )
    return {m: (raw[i, 0], raw[i, 1], raw[i, 2]) for i, m in enumerate(measures)}
