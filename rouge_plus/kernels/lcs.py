"""Longest common subsequences: ROUGE-L and the summary-level union LCS of ROUGE-Lsum.

Lengths use the bit-parallel algorithm of Allison & Dix / Hyyrö on Python integers: after
reading ``j`` tokens of the prediction, bit ``i`` of the column vector is 0 exactly where the LCS
table grows from row ``i`` to ``i + 1``. Keeping every column vector lets the traceback decide each
step from one bit: the union LCS costs O(n·m/64) plus a linear walk, not a full table.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence


def lcs_columns(ref: Sequence[Hashable], pred: Sequence[Hashable]) -> Iterator[int]:
    """The column vector before the first prediction token and after each one (bit ``i`` is 0
    where the LCS table grows from row ``i`` to ``i + 1``): the drop-ins' tracebacks read them."""
    masks: dict[Hashable, int] = {}
    for i, token in enumerate(ref):
        masks[token] = masks.get(token, 0) | (1 << i)
    full = (1 << len(ref)) - 1
    column = full
    yield column
    for token in pred:
        match = masks.get(token)
        if match:
            low = column & match
            column = ((column + low) | (column - low)) & full
        yield column


def lcs_length(ref: Sequence[Hashable], pred: Sequence[Hashable]) -> int:
    """Length of the longest common subsequence of two token lists.

    A common prefix and suffix are on some longest common subsequence, so they are counted and
    cut first. The length is symmetric, so the shorter rest is the bit vector: the masks of a list
    of ``m`` distinct tokens take O(m**2) bits (one token against 160,000 distinct ones took
    1.6 GB).
    """
    m, n, start = len(ref), len(pred), 0
    while start < m and start < n and ref[start] == pred[start]:
        start += 1
    while m > start and n > start and ref[m - 1] == pred[n - 1]:
        m, n = m - 1, n - 1
    same = start + len(ref) - m
    ref, pred = ref[start:m], pred[start:n]
    if not ref or not pred:
        return same
    if len(ref) > len(pred):
        ref, pred = pred, ref
    *_, last = lcs_columns(ref, pred)
    return same + len(ref) - last.bit_count()


def lcs_path(ref: Sequence[Hashable], pred: Sequence[Hashable]) -> list[tuple[int, int]]:
    """``(reference position, prediction position)`` of every match on the LCS path that
    ROUGE's traceback picks, left to right.

    From the bottom-right cell: a match moves diagonally; otherwise move left when
    ``T[i][j-1] > T[i-1][j]`` and up on ties. Both reference implementations walk this path, and
    the union in ROUGE-Lsum depends on it. Off a match, ``T[i][j]`` is the larger of the two
    neighbours, so going left is right exactly when the table grows at row ``i`` of column ``j``:
    one bit of the stored column decides.
    """
    if not ref or not pred:
        return []
    columns = list(lcs_columns(ref, pred))
    pairs = []
    i, j = len(ref), len(pred)
    while i > 0 and j > 0:
        if ref[i - 1] == pred[j - 1]:
            pairs.append((i - 1, j - 1))
            i -= 1
            j -= 1
        elif not (columns[j] >> (i - 1)) & 1:
            # T grows at row i of column j, so T[i][j-1] = T[i][j] > T[i-1][j]: go left.
            j -= 1
        else:
            i -= 1
    pairs.reverse()
    return pairs


class PredSentences:
    """The distinct non-empty sentences of a prediction, and for each token the indexes of those
    that hold it: what a union of LCS paths needs to walk only the sentences that can add to it."""

    def __init__(self, sentences: Sequence[Sequence[Hashable]]) -> None:
        self.distinct = list(dict.fromkeys(tuple(sentence) for sentence in sentences if sentence))
        self.holders: dict[Hashable, list[int]] = {}
        for k, sentence in enumerate(self.distinct):
            for token in dict.fromkeys(sentence):
                self.holders.setdefault(token, []).append(k)


def union_of_paths(
    ref: Sequence[Hashable],
    pred: PredSentences,
    path: Callable[[Sequence[Hashable], Sequence[Hashable]], Iterable[int]],
) -> set[int]:
    """The union of ``ref``'s positions on ``path(ref, sentence)`` over every pred sentence, for
    a path that marks only matching positions (ROUGE-Lsum's LCS, ROUGE-W's weighted LCS).

    Such a path marks only positions whose token the pred sentence holds, so for each token of
    ``ref`` with unmarked positions, the sentences holding it are walked until the token's
    positions are all marked, each sentence once: one-word lines cost O(tokens), not sentences
    squared. The union is a set, so the order of the walks does not matter.
    """
    union: set[int] = set()
    unmarked = Counter(ref)
    walked: set[int] = set()
    for token in dict.fromkeys(ref):
        for k in pred.holders.get(token, ()):
            if not unmarked[token]:
                break
            if k in walked:
                continue
            walked.add(k)
            for i in path(ref, pred.distinct[k]):
                if i not in union:
                    union.add(i)
                    unmarked[ref[i]] -= 1
    return union


def _lcs_positions(ref: Sequence[Hashable], pred: Sequence[Hashable]) -> list[int]:
    return [i for i, _ in lcs_path(ref, pred)]


def summary_lcs_hits(
    ref_sentences: Sequence[Sequence[Hashable]],
    pred_sentences: Sequence[Sequence[Hashable]],
    ref_counts: Counter,
    pred_counts: Counter,
) -> int:
    """Summary-level LCS hits (Lin 2004 §3.2) with ROUGE-1.5.5's clipping.

    For each reference sentence, the union of its LCS positions against every prediction
    sentence is walked left to right; a token counts while both texts still have an unused
    occurrence of it, so the hits never exceed the unigram overlap. ``ref_counts`` and
    ``pred_counts`` are the unigram counts of the whole texts; they are not modified. Equal
    sentences share their work (the union is a set, so the order of the paths does not matter).
    """
    pred = PredSentences(pred_sentences)
    unions: dict[tuple[Hashable, ...], list[int]] = {}
    remaining_ref = Counter(ref_counts)
    remaining_pred = Counter(pred_counts)
    hits = 0
    for ref in ref_sentences:
        key = tuple(ref)
        if key not in unions:
            unions[key] = sorted(union_of_paths(ref, pred, _lcs_positions))
        for position in unions[key]:
            token = ref[position]
            if remaining_ref[token] > 0 and remaining_pred[token] > 0:
                hits += 1
                remaining_ref[token] -= 1
                remaining_pred[token] -= 1
    return hits
