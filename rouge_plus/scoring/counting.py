"""Counts for every (prediction, reference) pair and every ROUGE type.

For each measure this produces three arrays over the pairs — ``hit``, ``pred_base``,
``ref_base`` — from which precision and recall follow (``hit / pred_base``, ``hit / ref_base``),
and which add up over references for pooled scoring (each measure's ``precision_recall`` turns
them into scores).
"""

from __future__ import annotations

import functools
from array import array
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Protocol

from ..kernels.native import count_pairs, count_pairs_buffers
from ..text.encoding import Encoded, TextPipeline
from .measures import Measure

if TYPE_CHECKING:
    import numpy as np

Counts = tuple["np.ndarray", "np.ndarray", "np.ndarray"]

# The kinds of measure the compiled kernels count alone, whose precision and recall are
# hit / base: what count_texts_flat takes.
FLAT_KINDS = frozenset({"ngram", "lcs", "summary_lcs", "skip_bigram"})


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
    separate = bool(by_sentence and whole and not pipeline.sentence_safe)
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
        counts.update(
            count_measures(by_sentence, encoded, pred_docs + shift, ref_docs + shift, synonyms)
        )
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


def counts_flat(measures: Sequence[Measure], pipeline: TextPipeline) -> bool:
    """Whether :func:`count_texts_flat` can count ``measures`` with ``pipeline``."""
    return (
        count_pairs_buffers is not None
        and pipeline.encodes_flat
        and all(m.kind in FLAT_KINDS and not m.synonyms for m in measures)
    )


def count_texts_flat(
    measures: Sequence[Measure],
    texts: list[str],
    pair_rows: array,
    pipeline: TextPipeline,
    *,
    describe: Callable[[int], str] = str,
) -> tuple[bytes, list[int]]:
    """:func:`count_texts` without NumPy, where :func:`counts_flat` allows it.

    ``texts`` are the predictions, then the references of every pair, in pair order;
    ``pair_rows`` (int64) is the row, hence the prediction, of each pair. Returns the counts as
    bytes of float64 shaped ``(len(measures), 3, n_pairs)`` (hit, pred_base, ref_base), and
    the indexes of the texts without tokens.
    """
    n_pairs = len(pair_rows)
    n_rows = len(texts) - n_pairs
    by_sentence = [m for m in measures if m.uses_sentences]
    whole = [m for m in measures if not m.uses_sentences]
    separate = bool(by_sentence and whole and not pipeline.sentence_safe)
    flat = pipeline.encode_flat(
        texts, by_sentence=bool(by_sentence), whole_too=separate, describe=describe
    )
    ref_docs = array("q", range(n_rows, n_rows + n_pairs))

    def count(group: Sequence[Measure], shift: int) -> bytes:
        pred = pair_rows if not shift else array("q", [row + shift for row in pair_rows])
        ref = ref_docs if not shift else array("q", range(n_rows + shift, len(texts) + shift))
        specs = [m.kernel_spec().packed() for m in group]
        return count_pairs_buffers(
            flat.ids, flat.sentences, flat.documents, pred, ref, specs, flat.vocab_size
        )

    if not separate:
        return count(measures, 0), flat.tokenless(len(texts))
    block = 3 * n_pairs * 8  # the bytes of one measure's counts
    blocks = {}
    for group, shift in ((whole, 0), (by_sentence, len(texts))):
        raw = count(group, shift)
        blocks.update({m: raw[i * block : (i + 1) * block] for i, m in enumerate(group)})
    return b"".join(blocks[m] for m in measures), flat.tokenless(len(texts))


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


def synonym_counts(
    n: int, encoded: Encoded, pred_docs: np.ndarray, ref_docs: np.ndarray, synonyms: SynonymMatcher
) -> Counts:
    """Units are n-grams; two match when every position is the same word or synonyms, and the
    hit is a maximum one-to-one matching between the two texts' n-gram occurrences."""
    import numpy as np

    from ..kernels.matching import maximum_matching

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
