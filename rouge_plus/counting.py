"""Counts for every (prediction, reference) pair and every ROUGE type.

For each measure this produces three arrays over the pairs — ``hit``, ``pred_base``,
``ref_base`` — from which precision and recall follow (``hit / pred_base``, ``hit / ref_base``),
and which add up over references for pooled scoring.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .encoding import Encoded
from .fmeasure import safe_divide
from .kernels.python_backend import LCS, NGRAM, SUMMARY_LCS
from .native import count_pairs
from .rouge_types import Measure

Counts = tuple[np.ndarray, np.ndarray, np.ndarray]

_KIND_CODES = {"ngram": NGRAM, "lcs": LCS, "summary_lcs": SUMMARY_LCS}


def count_measures(
    measures: Sequence[Measure], encoded: Encoded, pred_docs: np.ndarray, ref_docs: np.ndarray
) -> dict[Measure, Counts]:
    """Counts of each measure over the pairs ``(pred_docs[k], ref_docs[k])`` of ``encoded``."""
    if not measures:
        return {}
    specs = [(_KIND_CODES[m.kind], m.n) for m in measures]
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


def precision_recall(
    hit: np.ndarray, pred_base: np.ndarray, ref_base: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Precision and recall of plain counts; a zero base gives 0."""
    return safe_divide(hit, pred_base), safe_divide(hit, ref_base)
