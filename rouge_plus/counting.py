"""Counts for every (prediction, reference) pair and every ROUGE type.

For each measure this produces three arrays over the pairs — ``hit``, ``pred_base``,
``ref_base`` — from which precision and recall follow (``hit / pred_base``, ``hit / ref_base``),
and which add up over references for pooled scoring. Per-document n-gram and unigram counts are
computed once and shared by all the pairs a document takes part in.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np

from .encoding import Document
from .fmeasure import safe_divide
from .kernels.lcs import lcs_length, summary_lcs_hits
from .kernels.ngram import clipped_overlap, ngram_counts
from .rouge_types import Measure

Counts = tuple[np.ndarray, np.ndarray, np.ndarray]


class _NgramCache:
    def __init__(self, documents: Sequence[Document]):
        self._documents = documents
        self._cache: dict[tuple[int, int], Counter] = {}

    def __call__(self, doc: int, n: int) -> Counter:
        key = (doc, n)
        counts = self._cache.get(key)
        if counts is None:
            counts = self._cache[key] = ngram_counts(self._documents[doc].tokens, n)
        return counts


def count_pairs(
    measures: Sequence[Measure],
    documents: Sequence[Document],
    pairs: Sequence[tuple[int, int]],
) -> dict[Measure, Counts]:
    """Counts for each measure over ``pairs`` of (prediction document, reference document)."""
    ngrams = _NgramCache(documents)
    result = {}
    for measure in measures:
        hits = np.zeros(len(pairs))
        pred_base = np.zeros(len(pairs))
        ref_base = np.zeros(len(pairs))
        for k, (p, r) in enumerate(pairs):
            pred, ref = documents[p], documents[r]
            if measure.kind == "ngram":
                n = measure.n
                hits[k] = clipped_overlap(ngrams(p, n), ngrams(r, n))
                pred_base[k] = max(len(pred.tokens) - n + 1, 0)
                ref_base[k] = max(len(ref.tokens) - n + 1, 0)
            elif measure.kind == "lcs":
                hits[k] = lcs_length(ref.tokens, pred.tokens)
                pred_base[k] = len(pred.tokens)
                ref_base[k] = len(ref.tokens)
            elif measure.kind == "summary_lcs":
                pred_counts = Counter(t for s in pred.sentences for t in s)
                ref_counts = Counter(t for s in ref.sentences for t in s)
                hits[k] = summary_lcs_hits(ref.sentences, pred.sentences, ref_counts, pred_counts)
                pred_base[k] = pred_counts.total()
                ref_base[k] = ref_counts.total()
            else:  # pragma: no cover - parse_rouge_type only builds known kinds
                raise AssertionError(measure.kind)
        result[measure] = (hits, pred_base, ref_base)
    return result


def precision_recall(
    hit: np.ndarray, pred_base: np.ndarray, ref_base: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Precision and recall of plain counts; a zero base gives 0."""
    return safe_divide(hit, pred_base), safe_divide(hit, ref_base)
