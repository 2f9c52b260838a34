"""pltrdy's ``rouge.rouge_score`` 1.0.1: the metric functions ``Rouge`` calls, with its numbers.

``rouge_n`` and ``rouge_l_summary_level`` take lists of sentences (rouge's: the pieces of a text
between dots, whitespace runs made one space; words are a sentence's pieces between single
spaces) and give ``{"f", "p", "r"}`` or, with ``raw_results``, the counts ``{"hyp", "ref",
"overlap"}``; ``f_r_p_rouge_n`` turns counts into scores, ``multi_rouge_n`` scores pairs of a list
of sequences, and ``Ngrams`` is rouge's set (``exclusive``) or list of n-grams. The conventions,
and where this departs from rouge 1.0.1 (no ``RecursionError`` on long sentences; a side without
a sentence scores 0.0 instead of raising), are those of :mod:`rouge_plus.compat.rouge.rouge`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence

from ...errors import OptionError
from ...kernels.lcs import lcs_columns, lcs_length

Sentences = list[str]
Counts = dict[str, int]


class Ngrams:
    """rouge's n-grams: a set with ``exclusive`` (distinct n-grams), else a list (with their
    multiplicity)."""

    def __init__(self, ngrams: Iterable[Hashable] = (), exclusive: bool = True) -> None:
        self._ngrams: set | list = set(ngrams) if exclusive else list(ngrams)
        self.exclusive = exclusive

    def add(self, o: Hashable) -> None:
        if self.exclusive:
            self._ngrams.add(o)
        else:
            self._ngrams.append(o)

    def __len__(self) -> int:
        return len(self._ngrams)

    def intersection(self, o: Ngrams) -> Ngrams:
        """The n-grams of both: as sets, or each occurrence of this list matched to one of
        ``o``'s, in this list's order."""
        if self.exclusive:
            return Ngrams(self._ngrams.intersection(o._ngrams), exclusive=True)
        left = Counter(o._ngrams)
        kept = []
        for ngram in self._ngrams:
            if left[ngram] > 0:
                left[ngram] -= 1
                kept.append(ngram)
        return Ngrams(kept, exclusive=False)

    def union(self, *ngrams: Ngrams) -> Ngrams:
        if self.exclusive:
            return Ngrams(self._ngrams.union(*(o._ngrams for o in ngrams)), exclusive=True)
        return Ngrams([*self._ngrams, *(g for o in ngrams for g in o._ngrams)], exclusive=False)


def _words(sentences: Sequence[str]) -> list[str]:
    return [word for sentence in sentences for word in sentence.split(" ")]


def _ngrams(words: list[str], n: int) -> list[tuple[str, ...]]:
    return list(zip(*(words[i:] for i in range(n)), strict=False))


def _checked_n(n: int) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise OptionError(f"n must be a whole number of at least 1, got {n!r}")
    return n


def _rouge_n_counts(hyp: Sentences, ref: Sentences, n: int, exclusive: bool) -> Counts:
    if not hyp or not ref:
        return _empty_counts(hyp, ref, lambda s: _ngram_count(s, n, exclusive))
    hyp_ngrams, ref_ngrams = _ngrams(_words(hyp), n), _ngrams(_words(ref), n)
    if exclusive:
        hyp_set, ref_set = set(hyp_ngrams), set(ref_ngrams)
        return {"hyp": len(hyp_set), "ref": len(ref_set), "overlap": len(hyp_set & ref_set)}
    overlap = sum((Counter(hyp_ngrams) & Counter(ref_ngrams)).values())
    return {"hyp": len(hyp_ngrams), "ref": len(ref_ngrams), "overlap": overlap}


def _ngram_count(sentences: Sentences, n: int, exclusive: bool) -> int:
    ngrams = _ngrams(_words(sentences), n)
    return len(set(ngrams)) if exclusive else len(ngrams)


def _lcs_words(ref: list[str], hyp: list[str]) -> list[str]:
    """The words of the LCS that rouge's ``_recon_lcs(ref, hyp)`` reads out, last first.

    Off a match it moves up (to ``i - 1``) when ``T[i-1][j] > T[i][j-1]``, else left; then
    ``T[i][j] = T[i-1][j] > T[i][j-1]``, so it moves up exactly when the table grows from column
    ``j - 1`` to ``j`` at row ``i``. ``T[i][j]`` is the number of 0 bits below bit ``i`` of
    column ``j`` (see :mod:`rouge_plus.kernels.lcs`).
    """
    columns = list(lcs_columns(ref, hyp))
    words = []
    i, j = len(ref), len(hyp)
    while i and j:
        if ref[i - 1] == hyp[j - 1]:
            words.append(ref[i - 1])
            i -= 1
            j -= 1
        else:
            below = (1 << i) - 1
            if (columns[j] & below).bit_count() < (columns[j - 1] & below).bit_count():
                i -= 1
            else:
                j -= 1
    return words


def _rouge_l_counts(hyp: Sentences, ref: Sentences, exclusive: bool) -> Counts:
    if not hyp or not ref:
        return _empty_counts(hyp, ref, lambda s: _word_count(s, exclusive))
    hyp_words = [sentence.split(" ") for sentence in hyp]
    ref_words = [sentence.split(" ") for sentence in ref]
    if exclusive:
        union = {word for r in ref_words for h in hyp_words for word in _lcs_words(r, h)}
        overlap = len(union)
    else:
        overlap = sum(lcs_length(r, h) for r in ref_words for h in hyp_words)
    hyp_count, ref_count = _word_count(hyp, exclusive), _word_count(ref, exclusive)
    return {"hyp": hyp_count, "ref": ref_count, "overlap": overlap}


def _word_count(sentences: Sentences, exclusive: bool) -> int:
    words = _words(sentences)
    return len(set(words)) if exclusive else len(words)


def _empty_counts(hyp: Sentences, ref: Sentences, size: Callable[[Sentences], int]) -> Counts:
    """The counts of a pair with an empty side (rouge raises there): no overlap."""
    return {"hyp": size(hyp) if hyp else 0, "ref": size(ref) if ref else 0, "overlap": 0}


def f_r_p_rouge_n(
    evaluated_count: int, reference_count: int, overlapping_count: int
) -> dict[str, float]:
    """P, R, and rouge's F with ``1e-8`` in the denominator (0.0 over a count of 0)."""
    precision = overlapping_count / evaluated_count if evaluated_count else 0.0
    recall = overlapping_count / reference_count if reference_count else 0.0
    f1_score = 2.0 * ((precision * recall) / (precision + recall + 1e-8))
    return {"f": f1_score, "p": precision, "r": recall}


def _result(counts: Counts, raw_results: bool) -> dict:
    if raw_results:
        return counts
    return f_r_p_rouge_n(counts["hyp"], counts["ref"], counts["overlap"])


def rouge_n(
    evaluated_sentences: Sentences,
    reference_sentences: Sentences,
    n: int = 2,
    raw_results: bool = False,
    exclusive: bool = True,
) -> dict:
    """ROUGE-N of a hypothesis and a reference, each a list of sentences."""
    counts = _rouge_n_counts(evaluated_sentences, reference_sentences, _checked_n(n), exclusive)
    return _result(counts, raw_results)


def rouge_l_summary_level(
    evaluated_sentences: Sentences,
    reference_sentences: Sentences,
    raw_results: bool = False,
    exclusive: bool = True,
    **_: object,
) -> dict:
    """rouge's summary-level ROUGE-L of a hypothesis and a reference, each a list of
    sentences."""
    counts = _rouge_l_counts(evaluated_sentences, reference_sentences, exclusive)
    return _result(counts, raw_results)


def multi_rouge_n(
    sequences: Sequence[Sentences],
    scores_ids: Iterable[tuple[int, int]],
    n: int = 2,
    exclusive: bool = True,
) -> list[dict[str, float]]:
    """ROUGE-N of each ``(hyp_id, ref_id)`` pair of ``sequences`` (each a list of sentences),
    every sequence's n-grams counted once."""
    n = _checked_n(n)
    ngrams = [Ngrams(_ngrams(_words(sequence), n), exclusive=exclusive) for sequence in sequences]
    scores = []
    for hyp_id, ref_id in scores_ids:
        hyp, ref = ngrams[hyp_id], ngrams[ref_id]
        scores.append(f_r_p_rouge_n(len(hyp), len(ref), len(hyp.intersection(ref))))
    return scores
