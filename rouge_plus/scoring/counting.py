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

from .._compiled import compiled
from ..kernels.native import count_pairs, count_pairs_buffers
from ..text.encoding import Encoded, TextPipeline
from .measures import Measure

if TYPE_CHECKING:
    import numpy as np

Counts = tuple["np.ndarray", "np.ndarray", "np.ndarray"]

# The synonym matching of unigrams, compiled (_synonyms.c); None without the extension.
_compiled_synonyms = compiled("scoring._synonyms")

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
    topic_words: Callable[[list[str]], list[list[str] | str]] | None = None,
    describe: Callable[[int], str] = str,
) -> tuple[dict[Measure, Counts], list[int]]:
    """Encode ``texts`` as each measure needs them and count every pair ``(pred_docs[k],
    ref_docs[k])``; also the indexes of the texts without any token (for the no-tokens
    warning).

    Measures over sentences and measures over whole texts share one encoding when the pipeline
    allows it; topic measures count the topic words that ``topic_words`` picks from sentences.
    ``describe`` names text ``i`` in errors raised while tokenizing it.
    """
    import numpy as np

    # Each distinct text is read once (references repeat when several systems are scored).
    distinct = list(dict.fromkeys(texts))
    if len(distinct) < len(texts):
        number = {text: i for i, text in enumerate(distinct)}
        document = np.fromiter(map(number.__getitem__, texts), np.int64, len(texts))
        counts, tokenless = count_texts(
            measures,
            distinct,
            document[pred_docs],
            document[ref_docs],
            pipeline,
            synonyms=synonyms,
            topic_words=topic_words,
            describe=_describe_distinct(describe, texts, distinct),
        )
        return counts, _tokenless_among(texts, distinct, tokenless)
    regular = [m for m in measures if m.kind != "topic"]
    by_sentence = [m for m in regular if m.uses_sentences]
    whole = [m for m in regular if not m.uses_sentences]
    # Sentences read under their own limit are clipped by the counts of the whole texts.
    clipped = bool(by_sentence) and pipeline.limit_sentences is not None
    separate = clipped or bool(by_sentence and whole and not pipeline.sentence_safe)
    counts: dict[Measure, Counts] = {}
    if not regular:  # topic measures alone: no encoding of the whole texts
        tokenless = pipeline.tokenless(texts, describe=describe)
        counts.update(
            _count_topics(measures, texts, pred_docs, ref_docs, pipeline, synonyms, topic_words)
        )
        return counts, tokenless
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
            from ..kernels.python import count_pairs_clipped

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
    counts.update(
        _count_topics(measures, texts, pred_docs, ref_docs, pipeline, synonyms, topic_words)
    )
    return counts, np.flatnonzero(encoded.tokenized_counts[: len(texts)] == 0).tolist()


def _count_topics(
    measures: Sequence[Measure],
    texts: list[str],
    pred_docs: np.ndarray,
    ref_docs: np.ndarray,
    pipeline: TextPipeline,
    synonyms: SynonymMatcher | None,
    topic_words: Callable[[list[str]], list[list[str] | str]] | None,
) -> dict[Measure, Counts]:
    """The counts of the topic measures among ``measures``."""

    topic = [m for m in measures if m.kind == "topic"]
    if not topic:
        return {}
    if topic_words is None:
        raise ValueError("topic measures need a topic_words function")
    pred_topics, ref_topics = pred_docs, ref_docs  # the texts are distinct (see count_texts)
    topics = pipeline.encode_topics(texts, topic_words, keep_words=any(m.synonyms for m in topic))
    plain = [m for m in topic if not m.unique]
    unique = [m for m in topic if m.unique]
    counts = count_measures(plain, topics, pred_topics, ref_topics, synonyms)
    if unique:
        distinct = topics.unique_per_document()
        counts.update(count_measures(unique, distinct, pred_topics, ref_topics, synonyms))
    return counts


def counts_flat(measures: Sequence[Measure], pipeline: TextPipeline) -> bool:
    """Whether :func:`count_texts_flat` can count ``measures`` with ``pipeline``."""
    return (
        count_pairs_buffers is not None
        and pipeline.encodes_flat
        and all(m.kind in FLAT_KINDS and not m.synonyms for m in measures)
    )


def _describe_distinct(
    describe: Callable[[int], str], texts: list[str], distinct: list[str]
) -> Callable[[int], str]:
    """``describe`` for the texts numbered in ``distinct``: the place of each one's first copy."""
    return lambda i: describe(texts.index(distinct[i]))


def _tokenless_among(texts: list[str], distinct: list[str], tokenless: list[int]) -> list[int]:
    """The indexes among ``texts`` of the texts equal to one of ``distinct`` without a token
    (``tokenless``: indexes among ``distinct``)."""
    if not tokenless:
        return []
    empty = {distinct[i] for i in tokenless}
    return [i for i, text in enumerate(texts) if text in empty]


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
    # Each distinct reference is encoded once: references repeat when several systems are
    # scored against them.
    references = texts[n_rows:]
    distinct = list(dict.fromkeys(references))
    pred_docs = pair_rows
    if len(distinct) < len(references):
        number = {text: n_rows + i for i, text in enumerate(distinct)}
        ref_docs = array("q", map(number.__getitem__, references))
        encoded_texts = texts[:n_rows] + distinct
    else:
        number = None
        ref_docs = array("q", range(n_rows, n_rows + n_pairs))
        encoded_texts = texts
    flat = pipeline.encode_flat(
        encoded_texts,
        by_sentence=bool(by_sentence),
        whole_too=separate,
        describe=describe if number is None else _describe_distinct(describe, texts, encoded_texts),
    )
    tokenless = flat.tokenless(len(encoded_texts))
    if number is not None:
        tokenless = _tokenless_among(texts, encoded_texts, tokenless)

    def count(group: Sequence[Measure], shift: int) -> bytes:
        pred = pred_docs if not shift else array("q", [doc + shift for doc in pred_docs])
        ref = ref_docs if not shift else array("q", [doc + shift for doc in ref_docs])
        specs = [m.kernel_spec().packed() for m in group]
        return count_pairs_buffers(
            flat.ids, flat.sentences, flat.documents, pred, ref, specs, flat.vocab_size
        )

    if not separate:
        return count(measures, 0), tokenless
    block = 3 * n_pairs * 8  # the bytes of one measure's counts
    blocks = {}
    for group, shift in ((whole, 0), (by_sentence, len(encoded_texts))):
        raw = count(group, shift)
        blocks.update({m: raw[i * block : (i + 1) * block] for i, m in enumerate(group)})
    return b"".join(blocks[m] for m in measures), tokenless


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
    # The words of each id, looked up when needed: a list per word, built on every call, would
    # cost a garbage collection or two.
    id_words = None if encoded.word_ids is None else encoded.id_words()
    if id_words is None:  # one word per id
        keys_many = getattr(synonyms, "keys_many", None)
        words = encoded.words
        found = keys_many(words) if keys_many else map(synonyms.keys, words)
        keys = dict(enumerate(found))
    else:
        keys = {
            token: frozenset().union(*map(synonyms.keys, words))
            for token, words in id_words.items()
        }

    def words_of(token: int) -> Sequence[str]:
        return (encoded.words[token],) if id_words is None else id_words[token]

    @functools.cache
    def related(a: int, b: int) -> bool:
        if keys[a].isdisjoint(keys[b]):
            return False
        if synonyms.exact_keys:
            return True
        return any(synonyms.match(x, y) for x in words_of(a) for y in words_of(b))

    return related, keys


def _neighbours(
    related: Callable[[int, int], bool], keys: dict[int, frozenset], exact_keys: bool
) -> dict[int, frozenset[int]]:
    """For each id, the other ids it relates to (ids without any are left out). The
    pure-Python twin of ``_synonyms.neighbour_table``."""
    holders = defaultdict(list)  # key -> the ids that have it
    for token, token_keys in keys.items():
        for key in token_keys:
            holders[key].append(token)
    sharing = defaultdict(set)  # id -> the ids it shares a key with, itself included
    for group in holders.values():
        if len(group) > 1:
            for token in group:
                sharing[token].update(group)
    neighbours = {}
    for token, others in sharing.items():
        others.discard(token)
        if not exact_keys:
            others = {other for other in others if related(token, other)}
        if others:
            neighbours[token] = frozenset(others)
    return neighbours


def _interchangeable(
    tokens: frozenset[int], neighbours: dict[int, frozenset[int]]
) -> tuple[dict[int, int], dict[int, frozenset[int]]]:
    """A representative for each of ``tokens``, and the representatives each one matches.

    Tokens that are equal or related to exactly the same tokens can replace one another in any
    n-gram without changing what it matches, so n-grams that differ only by such tokens are one
    kind of unit: three words that are all synonyms of one another ("big", "large", "great")
    become one token, and 2,000 occurrences of them one kind of n-gram however they are
    arranged.
    """
    representative: dict[int, int] = {}
    group_of: dict[int, frozenset[int]] = {}
    by_group: dict[frozenset[int], int] = {}
    for token in sorted(tokens):
        group = (neighbours.get(token, frozenset()) & tokens).union((token,))
        representative[token] = by_group.setdefault(group, token)
        group_of[representative[token]] = group
    matches = {
        token: frozenset(representative[other] for other in group)
        for token, group in group_of.items()
    }
    return representative, matches


def synonym_counts(
    n: int, encoded: Encoded, pred_docs: np.ndarray, ref_docs: np.ndarray, synonyms: SynonymMatcher
) -> Counts:
    """Units are n-grams; two match when every position is the same word or synonyms, and the
    hit is a maximum one-to-one matching between the two texts' n-gram occurrences.

    Unigrams whose synonyms are meeting keys are matched in C first (see
    :func:`_compiled_unigram_counts`); the pairs it leaves, and all pairs otherwise, by
    :func:`~rouge_plus.kernels.matching.maximum_matching` here.
    """
    import numpy as np

    from ..kernels.matching import maximum_matching

    related, keys = _token_relation(encoded, synonyms)
    pred_list, ref_list = pred_docs.tolist(), ref_docs.tolist()
    if n == 1 and synonyms.exact_keys and _compiled_synonyms is not None:
        out, pairs, neighbours_of = _compiled_unigram_counts(encoded, pred_docs, ref_docs, keys)
        if not pairs:
            return out[0], out[1], out[2]
        documents = {doc for k in pairs for doc in (pred_list[k], ref_list[k])}
        tokens = frozenset(t for doc in documents for t in _ids_of(encoded, doc))
        neighbours = {t: neighbours_of(t) for t in tokens}
    else:
        out = np.zeros((3, len(pred_docs)))
        pairs = range(len(pred_docs))
        tokens = frozenset(encoded.ids.tolist())
        neighbours = _neighbours(related, keys, synonyms.exact_keys)
    representative, matches = _interchangeable(tokens, neighbours)

    def compatible(a: tuple, b: tuple) -> bool:
        return all(y in matches[x] for x, y in zip(a, b, strict=True))

    @functools.cache
    def grams(doc: int) -> Counter:
        kinds = [representative[t] for t in _ids_of(encoded, doc)]
        return Counter(zip(*(kinds[i:] for i in range(n)), strict=False))

    for k in pairs:
        pred, ref = grams(pred_list[k]), grams(ref_list[k])
        by_first = defaultdict(list)  # reference n-grams by their first token
        for gram in ref:
            by_first[gram[0]].append(gram)

        def candidates(gram: tuple, index: dict = by_first) -> Iterator[tuple]:
            for first in matches[gram[0]]:
                yield from index.get(first, ())

        out[:, k] = (maximum_matching(pred, ref, compatible, candidates), pred.total(), ref.total())
    return out[0], out[1], out[2]


def _ids_of(encoded: Encoded, document: int) -> list[int]:
    """The token ids of one document."""
    start, end = encoded.documents[document : document + 2]
    return encoded.ids[encoded.sentences[start] : encoded.sentences[end]].tolist()


def _compiled_unigram_counts(
    encoded: Encoded, pred_docs: np.ndarray, ref_docs: np.ndarray, keys: dict[int, frozenset]
) -> tuple[np.ndarray, list[int], Callable[[int], frozenset[int]]]:
    """Unigram synonym counts ``(3, n_pairs)`` from ``_synonyms.c``: the exact overlap, plus,
    per connected component of the matching graph that has a synonym edge, a greedy matching
    that reaches the smaller total (hence is maximum). Also the pairs where it falls short,
    whose hits the caller computes again, and each id's synonyms (the compiled twin of
    :func:`_neighbours`)."""
    import numpy as np

    from ..kernels.spec import Kernel, KernelSpec

    out = count_pairs(
        encoded.ids,
        encoded.sentences,
        encoded.documents,
        pred_docs,
        ref_docs,
        [KernelSpec(Kernel.NGRAM, n=1)],
        encoded.vocab_size,
    )[0].copy()
    at, ids = _compiled_synonyms.neighbour_table([keys[t] for t in range(encoded.vocab_size)])
    at, ids = np.frombuffer(at, dtype=np.int64), np.frombuffer(ids, dtype=np.int32)
    if not len(ids):
        return out, [], lambda token: frozenset()
    int32, int64 = (functools.partial(np.ascontiguousarray, dtype=d) for d in (np.int32, np.int64))
    gains, pairs = _compiled_synonyms.unigram_synonym_gains(
        int32(encoded.ids), int64(encoded.sentences), int64(encoded.documents), int64(pred_docs),
        int64(ref_docs), at, ids, encoded.vocab_size,
    )  # fmt: skip
    out[0] += np.frombuffer(gains, dtype=np.int64)
    return out, pairs, lambda token: frozenset(ids[at[token] : at[token + 1]].tolist())
