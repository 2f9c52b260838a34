"""rouge_score 0.1.2's private helpers of ``rouge_scorer``, which real code calls directly.

Stanford Alpaca's dedupe loop maps ``rouge_scorer._score_lcs`` over tokenized instructions in a
process pool; other code reads ``_lcs_table``, ``_union_lcs``, ``_create_ngrams`` or
``_score_ngrams``. They take and return what rouge_score's do (tokens are any hashable values
compared with ``==``), with the same numbers; LCS lengths and paths come from rouge_plus's
bit-parallel LCS (:mod:`rouge_plus.kernels.lcs`) instead of a full Python table, and
``_lcs_table`` fills its table from those bit columns with NumPy.
"""

from __future__ import annotations

import collections
from collections.abc import Hashable, Mapping, Sequence

import numpy as np

from ...kernels.lcs import lcs_columns, lcs_length, lcs_path, summary_lcs_hits
from .scoring import Score, fmeasure

__all__ = [
    "_backtrack_norec",
    "_create_ngrams",
    "_find_union",
    "_lcs_table",
    "_score_lcs",
    "_score_ngrams",
    "_summary_level_lcs",
    "_union_lcs",
    "lcs_ind",
]

Tokens = Sequence[Hashable]


def _create_ngrams(tokens: Tokens, n: int) -> collections.Counter:
    """A Counter of the ``n``-grams of ``tokens``, each a tuple."""
    if n <= 0:  # rouge_score's slices, whatever they give for such an n
        return collections.Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))
    return collections.Counter(zip(*(tokens[i:] for i in range(n)), strict=False))


def _score_ngrams(target_ngrams: Mapping, prediction_ngrams: Mapping) -> Score:
    """Precision, recall and F of two n-gram Counters (rouge_score's ``_score_ngrams``)."""
    overlap = sum(min(count, prediction_ngrams[g]) for g, count in target_ngrams.items())
    precision = overlap / max(sum(prediction_ngrams.values()), 1)
    recall = overlap / max(sum(target_ngrams.values()), 1)
    return Score(precision=precision, recall=recall, fmeasure=fmeasure(precision, recall))


def _score_lcs(target_tokens: Tokens, prediction_tokens: Tokens) -> Score:
    """ROUGE-L of two token lists; ``Score(0, 0, 0)`` (ints, as rouge_score) if one is empty."""
    if not target_tokens or not prediction_tokens:
        return Score(precision=0, recall=0, fmeasure=0)
    length = lcs_length(target_tokens, prediction_tokens)
    precision = length / len(prediction_tokens)
    recall = length / len(target_tokens)
    return Score(precision=precision, recall=recall, fmeasure=fmeasure(precision, recall))


def _lcs_table(ref: Tokens, can: Tokens) -> list[list[int]]:
    """The ``(len(ref) + 1) x (len(can) + 1)`` LCS table: ``[i][j]`` is the LCS length of
    ``ref[:i]`` and ``can[:j]``.

    Bit ``i`` of column ``j``'s vector is 0 exactly where the table grows from row ``i`` to
    ``i + 1``, so each column is the running count of its zero bits.
    """
    rows = len(ref)
    if rows == 0:
        return [[0] * (len(can) + 1)]
    width = (rows + 7) // 8
    packed = np.frombuffer(
        b"".join(column.to_bytes(width, "little") for column in lcs_columns(ref, can)), np.uint8
    ).reshape(-1, width)
    grows = 1 - np.unpackbits(packed, axis=1, count=rows, bitorder="little").astype(np.int64)
    table = np.zeros((rows + 1, len(can) + 1), dtype=np.int64)
    np.cumsum(grows.T, axis=0, out=table[1:])
    return table.tolist()


def _backtrack_norec(t: Sequence[Sequence[int]], ref: Tokens, can: Tokens) -> list[int]:
    """The positions in ``ref`` of the LCS read out of an :func:`_lcs_table` ``t`` from its
    last cell: a match steps diagonally; otherwise the step keeps the larger neighbour, going
    up (to a shorter ``ref``) when the two are equal."""
    i, j = len(ref), len(can)
    positions = []
    while i > 0 and j > 0:
        if ref[i - 1] == can[j - 1]:
            positions.append(i - 1)
            i, j = i - 1, j - 1
        elif t[i][j - 1] > t[i - 1][j]:
            j -= 1
        else:
            i -= 1
    return positions[::-1]


def lcs_ind(ref: Tokens, can: Tokens) -> list[int]:
    """The positions in ``ref`` of the LCS that rouge_score's traceback reads out."""
    return [i for i, _ in lcs_path(ref, can)]


def _find_union(lcs_list: Sequence[Sequence[int]]) -> list[int]:
    """The sorted union of several lists of positions."""
    return sorted(set().union(*lcs_list))


def _union_lcs(ref: Tokens, c_list: Sequence[Tokens]) -> list[Hashable]:
    """The tokens of ``ref`` on the union of its LCS with each candidate sentence of
    ``c_list``, in ``ref``'s order."""
    return [ref[i] for i in _find_union([lcs_ind(ref, c) for c in c_list])]


def _summary_level_lcs(ref_sent: Sequence[Tokens], can_sent: Sequence[Tokens]) -> Score:
    """ROUGE-Lsum of two tokenized summaries (lists of sentences, each a list of tokens)."""
    m = sum(map(len, ref_sent))
    n = sum(map(len, can_sent))
    if not ref_sent or not can_sent or not n or not m:
        return Score(precision=0, recall=0, fmeasure=0)
    ref_counts = collections.Counter(t for s in ref_sent for t in s)
    can_counts = collections.Counter(t for s in can_sent for t in s)
    hits = summary_lcs_hits(ref_sent, can_sent, ref_counts, can_counts)
    recall = hits / m
    precision = hits / n
    return Score(precision=precision, recall=recall, fmeasure=fmeasure(precision, recall))
