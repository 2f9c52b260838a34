"""Counts for every (prediction, reference) pair and every ROUGE type.

For each measure this produces three arrays over the pairs — ``hit``, ``pred_base``,
``ref_base`` — from which precision and recall follow (``hit / pred_base``, ``hit / ref_base``),
and which add up over references for pooled scoring (each measure's ``precision_recall`` turns
them into scores).
"""

from __future__ import annotations

import functools
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence

import numpy as np

from .encoding import Encoded
from .kernels.matching import maximum_matching
from .kernels.python_backend import LCS, NGRAM, SKIP_BIGRAM, SUMMARY_LCS, WEIGHTED_LCS
from .native import count_pairs
from .rouge_types import Measure
from .synonyms import Synonyms

Counts = tuple[np.ndarray, np.ndarray, np.ndarray]


def kernel_spec(measure: Measure) -> tuple[int, int, float]:
    """The ``(kind, n, x)`` spec the counting kernels take for a measure."""
    if measure.kind in ("ngram", "topic"):  # topic: unigrams of the topic words
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
    measures: Sequence[Measure],
    encoded: Encoded,
    pred_docs: np.ndarray,
    ref_docs: np.ndarray,
    synonyms: Synonyms | None = None,
) -> dict[Measure, Counts]:
    """Counts of each measure over the pairs ``(pred_docs[k], ref_docs[k])`` of ``encoded``.

    Measures with synonyms need ``synonyms`` and an ``encoded`` that kept its words.
    """
    with_synonyms = [m for m in measures if m.synonyms]
    counts = {m: synonym_counts(m.n, encoded, pred_docs, ref_docs, synonyms) for m in with_synonyms}
    measures = [m for m in measures if not m.synonyms]
    if not measures:
        return counts
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
    counts.update({m: (raw[i, 0], raw[i, 1], raw[i, 2]) for i, m in enumerate(measures)})
    return counts


def _token_relation(
    encoded: Encoded, synonyms: Synonyms
) -> tuple[Callable[[int, int], bool], dict[int, frozenset]]:
    """Whether two token ids are synonyms (equal ids are handled by the caller), and each id's
    keys: two ids can only be synonyms when their keys meet."""
    words_of = encoded.id_words()
    keys = {
        token: frozenset().union(*map(synonyms.keys, words)) for token, words in words_of.items()
    }

    @functools.cache
    def related(a: int, b: int) -> bool:
        if keys[a].isdisjoint(keys[b]):
            return False
        if synonyms.exact_keys:
            return True
        return any(synonyms.match(x, y) for x in words_of[a] for y in words_of[b])

    return related, keys


def synonym_counts(
    n: int, encoded: Encoded, pred_docs: np.ndarray, ref_docs: np.ndarray, synonyms: Synonyms
) -> Counts:
    """Units are n-grams; two match when every position is the same word or synonyms, and the
    hit is a maximum one-to-one matching between the two texts' n-gram occurrences."""
    related, keys = _token_relation(encoded, synonyms)

    def first_keys(gram: tuple) -> Iterator:
        yield ("=", gram[0])
        yield from keys[gram[0]]

    def compatible(a: tuple, b: tuple) -> bool:
        return all(x == y or related(x, y) for x, y in zip(a, b, strict=True))

    documents = encoded.document_tokens()
    grams = functools.lru_cache(maxsize=None)(
        lambda doc: Counter(zip(*(documents[doc][i:] for i in range(n)), strict=False))
    )
    out = np.zeros((3, len(pred_docs)))
    for k, (p, r) in enumerate(zip(pred_docs.tolist(), ref_docs.tolist(), strict=True)):
        pred, ref = grams(p), grams(r)
        by_first_key = defaultdict(list)  # reference n-grams by the keys of their first word
        for gram in ref:
            for key in first_keys(gram):
                by_first_key[key].append(gram)

        def candidates(gram: tuple, index: dict = by_first_key) -> set:
            return {other for key in first_keys(gram) for other in index.get(key, ())}

        out[:, k] = (maximum_matching(pred, ref, compatible, candidates), pred.total(), ref.total())
    return out[0], out[1], out[2]
