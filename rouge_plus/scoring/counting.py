"""Counts for every (prediction, reference) pair and every ROUGE type.

For each measure this produces three arrays over the pairs — ``hit``, ``pred_base``,
``ref_base`` — from which precision and recall follow (``hit / pred_base``, ``hit / ref_base``),
and which add up over references for pooled scoring (each measure's ``precision_recall`` turns
them into scores).
"""

from __future__ import annotations

import functools
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Protocol

import numpy as np

from ..kernels.matching import maximum_matching
from ..kernels.native import count_pairs
from ..kernels.python import count_pairs_clipped
from ..text.encoding import Encoded, TextPipeline
from .measures import Measure

Counts = tuple[np.ndarray, np.ndarray, np.ndarray]


class SynonymMatcher(Protocol):
    """What synonym matching asks of a synonym source (see :mod:`rouge_plus.rouge2.synonyms`):
    two words can only be synonyms when their ``keys`` meet; with ``exact_keys`` meeting keys
    are enough, otherwise ``match`` decides."""

    exact_keys: bool

    def keys(self, word: str) -> frozenset: ...

    def match(self, a: str, b: str) -> bool: ...


def count_texts(
    measures: Sequence[Measure],
    texts: list[str],
    pred_docs: np.ndarray,
    ref_docs: np.ndarray,
    pipeline: TextPipeline,
    *,
    synonyms: SynonymMatcher | None = None,
    topic_words: Callable[[str], list[str]] | None = None,
    describe: Callable[[int], str] = str,
) -> tuple[dict[Measure, Counts], np.ndarray]:
    """Encode ``texts`` as each measure needs them and count every pair ``(pred_docs[k],
    ref_docs[k])``; also the number of tokens of each text (for the no-tokens warning).

    Measures over sentences and measures over whole texts share one encoding when the pipeline
    allows it; topic measures count the topic words that ``topic_words`` picks from a sentence.
    ``describe`` names text ``i`` in errors raised while tokenizing it.
    """
    regular = [m for m in measures if m.kind != "topic"]
    by_sentence = [m for m in regular if m.uses_sentences]
    whole = [m for m in regular if not m.uses_sentences]
    # Sentences read under their own limit are clipped by the counts of the whole texts.
    clipped = bool(by_sentence) and pipeline.limit_sentences is not None
    separate = clipped or bool(by_sentence and whole and not pipeline.sentence_safe)
    encoded = pipeline.encode(
        texts,
        by_sentence=bool(by_sentence),
        whole_too=separate,
        keep_words=any(m.synonyms for m in regular),
        describe=describe,
    )
    if separate:
        shift = len(texts)
        counts = count_measures(whole, encoded, pred_docs, ref_docs, synonyms)
        sentence_pairs = (pred_docs + shift, ref_docs + shift)
        if clipped:
            raw = count_pairs_clipped(
                encoded.ids,
                encoded.sentences,
                encoded.documents,
                sentence_pairs,
                (pred_docs, ref_docs),
                [m.kernel_spec().packed() for m in by_sentence],
            )
            counts.update({m: (raw[i, 0], raw[i, 1], raw[i, 2]) for i, m in enumerate(by_sentence)})
        else:
            counts.update(count_measures(by_sentence, encoded, *sentence_pairs, synonyms))
    else:
        counts = count_measures(regular, encoded, pred_docs, ref_docs, synonyms)
    topic = [m for m in measures if m.kind == "topic"]
    if topic:
        if topic_words is None:
            raise ValueError("topic measures need a topic_words function")
        topics = pipeline.encode_topics(
            texts, topic_words, keep_words=any(m.synonyms for m in topic)
        )
        plain = [m for m in topic if not m.unique]
        unique = [m for m in topic if m.unique]
        counts.update(count_measures(plain, topics, pred_docs, ref_docs, synonyms))
        if unique:
            distinct = topics.unique_per_document()
            counts.update(count_measures(unique, distinct, pred_docs, ref_docs, synonyms))
    return counts, encoded.tokenized_counts[: len(texts)]


def count_measures(
    measures: Sequence[Measure],
    encoded: Encoded,
    pred_docs: np.ndarray,
    ref_docs: np.ndarray,
    synonyms: SynonymMatcher | None = None,
) -> dict[Measure, Counts]:
    """Counts of each measure over the pairs ``(pred_docs[k], ref_docs[k])`` of ``encoded``.

    Measures with synonyms need ``synonyms`` and an ``encoded`` that kept its words.
    """
    with_synonyms = [m for m in measures if m.synonyms]
    counts = {m: synonym_counts(m.n, encoded, pred_docs, ref_docs, synonyms) for m in with_synonyms}
    measures = [m for m in measures if not m.synonyms]
    if not measures:
        return counts
    raw = count_pairs(
        encoded.ids,
        encoded.sentences,
        encoded.documents,
        pred_docs,
        ref_docs,
        [m.kernel_spec() for m in measures],
        encoded.vocab_size,
    )
    counts.update({m: (raw[i, 0], raw[i, 1], raw[i, 2]) for i, m in enumerate(measures)})
    return counts


def _token_relation(
    encoded: Encoded, synonyms: SynonymMatcher
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


def _interchangeable(
    tokens: Iterable[int], related: Callable[[int, int], bool], keys: dict[int, frozenset]
) -> tuple[dict[int, int], dict[int, frozenset[int]]]:
    """A representative for each token, and the representatives each one matches.

    Tokens that are equal or related to exactly the same tokens can replace one another in any
    n-gram without changing what it matches, so n-grams that differ only by such tokens are one
    kind of unit: three words that are all synonyms of one another ("big", "large", "great")
    become one token, and 2,000 occurrences of them one kind of n-gram however they are
    arranged. Two tokens can only be related when their keys meet.
    """
    tokens = sorted(set(tokens))
    by_key = defaultdict(list)
    for token in tokens:
        for key in keys[token]:
            by_key[key].append(token)
    representative: dict[int, int] = {}
    neighbours_of: dict[int, frozenset[int]] = {}
    by_neighbours: dict[frozenset[int], int] = {}
    for token in tokens:
        neighbours = frozenset(
            other for key in keys[token] for other in by_key[key] if related(token, other)
        ).union((token,))
        representative[token] = by_neighbours.setdefault(neighbours, token)
        neighbours_of[representative[token]] = neighbours
    matches = {
        token: frozenset(representative[other] for other in neighbours)
        for token, neighbours in neighbours_of.items()
    }
    return representative, matches


def synonym_counts(
    n: int, encoded: Encoded, pred_docs: np.ndarray, ref_docs: np.ndarray, synonyms: SynonymMatcher
) -> Counts:
    """Units are n-grams; two match when every position is the same word or synonyms, and the
    hit is a maximum one-to-one matching between the two texts' n-gram occurrences."""
    related, keys = _token_relation(encoded, synonyms)
    representative, matches = _interchangeable(encoded.ids.tolist(), related, keys)

    def compatible(a: tuple, b: tuple) -> bool:
        return all(y in matches[x] for x, y in zip(a, b, strict=True))

    documents = [[representative[t] for t in doc] for doc in encoded.document_tokens()]
    grams = functools.lru_cache(maxsize=None)(
        lambda doc: Counter(zip(*(documents[doc][i:] for i in range(n)), strict=False))
    )
    out = np.zeros((3, len(pred_docs)))
    for k, (p, r) in enumerate(zip(pred_docs.tolist(), ref_docs.tolist(), strict=True)):
        pred, ref = grams(p), grams(r)
        by_first = defaultdict(list)  # reference n-grams by their first token
        for gram in ref:
            by_first[gram[0]].append(gram)

        def candidates(gram: tuple, index: dict = by_first) -> Iterator[tuple]:
            for first in matches[gram[0]]:
                yield from index.get(first, ())

        out[:, k] = (maximum_matching(pred, ref, compatible, candidates), pred.total(), ref.total())
    return out[0], out[1], out[2]
