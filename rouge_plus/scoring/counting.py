"""Counts for every (prediction, reference) pair and every ROUGE type.

For each measure this produces three rows over the pairs — ``hit``, ``pred_base``, ``ref_base``
— from which precision and recall follow (``hit / pred_base``, ``hit / ref_base``), and which add
up over references for pooled scoring (each measure's ``precision_recall`` turns them into
scores). All measures' rows are one float64 buffer, a :class:`PairCounts`: the compiled kernels
write it and the compiled reduction reads it without NumPy; the other stages view it as NumPy
arrays.
"""

from __future__ import annotations

import functools
from array import array
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence

from .._compiled import compiled
from ..errors import OptionError
from ..kernels.native import count_pairs
from ..kernels.spec import int_list
from ..text.encoding import Encoded, TextPipeline
from .measures import Measure

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType

    import numpy as np

    from ..kernels.native import Buffer
    from .protocols import SynonymMatcher

Counts = tuple["np.ndarray", "np.ndarray", "np.ndarray"]

@functools.cache
def _compiled_synonyms() -> ModuleType | None:
    """The synonym matching of unigrams, compiled (_synonyms.c), loaded by the first call that
    matches synonyms; None without the extension."""
    return compiled("scoring._synonyms")


class PairCounts:
    """``hit``, ``pred_base`` and ``ref_base`` of every pair under each of ``measures``: one
    C-contiguous float64 buffer shaped ``(len(measures), 3, n_pairs)`` (bytes from the compiled
    kernels, a NumPy array otherwise). ``counts[measure]`` views one measure's three rows as
    NumPy arrays."""

    __slots__ = ("buffer", "measures", "n_pairs")

    def __init__(self, measures: Sequence[Measure], buffer: Buffer, n_pairs: int) -> None:
        self.measures = tuple(measures)
        self.buffer = buffer
        self.n_pairs = n_pairs

    def __getitem__(self, measure: Measure) -> Counts:
        import numpy as np

        shape = (len(self.measures), 3, self.n_pairs)
        rows = np.frombuffer(self.buffer, dtype=np.float64).reshape(shape)
        hit, pred_base, ref_base = rows[self.measures.index(measure)]
        return hit, pred_base, ref_base

    def _block(self, measure: Measure) -> memoryview:
        """The bytes of one measure's counts."""
        size = 3 * 8 * self.n_pairs
        start = self.measures.index(measure) * size
        return memoryview(self.buffer).cast("B")[start : start + size]

    @classmethod
    def gather(cls, measures: Sequence[Measure], parts: Sequence[PairCounts]) -> PairCounts:
        """The counts of ``measures``, in that order, from ``parts`` (counts of the same pairs
        whose measures, together, are ``measures``)."""
        if len(parts) == 1 and parts[0].measures == tuple(measures):
            return parts[0]
        part_of = {measure: part for part in parts for measure in part.measures}
        buffer = b"".join(part_of[measure]._block(measure) for measure in measures)
        return cls(measures, buffer, parts[0].n_pairs)


def count_texts(
    measures: Sequence[Measure],
    texts: list[str],
    pair_rows: array,
    pipeline: TextPipeline,
    *,
    synonyms: SynonymMatcher | None = None,
    topic_words: Callable[[list[str]], list[list[str] | str]] | None = None,
    describe: Callable[[int], str] = str,
) -> tuple[PairCounts, list[int]]:
    """Encode ``texts`` as each measure needs them and count every (prediction, reference)
    pair; also the indexes of the texts without any token (for the no-tokens warning).

    ``texts`` are the predictions, then the reference of every pair, in pair order;
    ``pair_rows`` (int64) is the row, hence the prediction, of each pair. Measures over
    sentences and measures over whole texts share one encoding when the pipeline allows it;
    topic measures count the topic words that ``topic_words`` picks from sentences.
    ``describe`` names text ``i`` in errors raised while tokenizing it.
    """
    n_pairs = len(pair_rows)
    n_rows = len(texts) - n_pairs
    # Each distinct reference is read once: references repeat when several systems are scored.
    references = texts[n_rows:]
    distinct = list(dict.fromkeys(references))
    if len(distinct) == n_pairs:
        ref_docs = array("q", range(n_rows, n_rows + n_pairs))
        return _count_documents(
            measures, texts, pair_rows, ref_docs, pipeline, synonyms, topic_words, describe
        )
    number = dict(zip(distinct, range(n_rows, n_rows + len(distinct)), strict=True))
    ref_docs = array("q", map(number.__getitem__, references))
    read = texts[:n_rows] + distinct
    counts, tokenless = _count_documents(
        measures,
        read,
        pair_rows,
        ref_docs,
        pipeline,
        synonyms,
        topic_words,
        _describe_distinct(describe, texts, read),
    )
    return counts, _tokenless_among(texts, read, tokenless)


def _count_documents(
    measures: Sequence[Measure],
    texts: list[str],
    pred_docs: array,
    ref_docs: array,
    pipeline: TextPipeline,
    synonyms: SynonymMatcher | None,
    topic_words: Callable[[list[str]], list[list[str] | str]] | None,
    describe: Callable[[int], str],
) -> tuple[PairCounts, list[int]]:
    """:func:`count_texts` of the pairs ``(pred_docs[k], ref_docs[k])`` of ``texts``."""
    regular = [m for m in measures if not m.is_topic]
    by_sentence = [m for m in regular if m.uses_sentences]
    whole = [m for m in regular if not m.uses_sentences]
    # Sentences read under their own limit are clipped by the counts of the whole texts.
    clipped = bool(by_sentence) and pipeline.limit_sentences is not None
    separate = clipped or bool(by_sentence and whole and not pipeline.sentence_safe)
    topic_args = (texts, pred_docs, ref_docs, pipeline, synonyms, topic_words)
    if not regular:  # topic measures alone: no encoding of the whole texts
        tokenless = pipeline.tokenless(texts, describe=describe)
        return PairCounts.gather(measures, _count_topics(measures, *topic_args)), tokenless
    encoded = pipeline.encode(
        texts,
        by_sentence=bool(by_sentence),
        whole_too=separate,
        keep_words=any(m.synonyms for m in regular),
        describe=describe,
    )
    if not separate:
        parts = [count_measures(regular, encoded, pred_docs, ref_docs, synonyms)]
    else:
        # The texts by sentence are documents n .. 2n - 1 (see TextPipeline.encode).
        shift = len(texts).__add__
        sentence_pairs = [array("q", map(shift, docs)) for docs in (pred_docs, ref_docs)]
        parts = [count_measures(whole, encoded, pred_docs, ref_docs, synonyms)] if whole else []
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
            parts.append(PairCounts(by_sentence, raw, len(pred_docs)))
        else:
            parts.append(count_measures(by_sentence, encoded, *sentence_pairs, synonyms))
    parts += _count_topics(measures, *topic_args)
    return PairCounts.gather(measures, parts), encoded.tokenless(len(texts))


def _count_topics(
    measures: Sequence[Measure],
    texts: list[str],
    pred_docs: array,
    ref_docs: array,
    pipeline: TextPipeline,
    synonyms: SynonymMatcher | None,
    topic_words: Callable[[list[str]], list[list[str] | str]] | None,
) -> list[PairCounts]:
    """The counts of the topic measures among ``measures`` (none when there are none)."""
    topic = [m for m in measures if m.is_topic]
    if not topic:
        return []
    if topic_words is None:
        raise OptionError("topic measures need a topic_words function")
    topics = pipeline.encode_topics(texts, topic_words, keep_words=any(m.synonyms for m in topic))
    plain = [m for m in topic if not m.unique]
    unique = [m for m in topic if m.unique]
    counts = []
    if plain:
        counts.append(count_measures(plain, topics, pred_docs, ref_docs, synonyms))
    if unique:
        distinct = topics.unique_per_document()
        counts.append(count_measures(unique, distinct, pred_docs, ref_docs, synonyms))
    return counts


def _describe_distinct(
    describe: Callable[[int], str], texts: list[str], read: list[str]
) -> Callable[[int], str]:
    """``describe`` for the texts numbered in ``read``: the place of each one's first copy."""
    return lambda i: describe(texts.index(read[i]))


def _tokenless_among(texts: list[str], read: list[str], tokenless: list[int]) -> list[int]:
    """The indexes among ``texts`` of the texts equal to one of ``read`` without a token
    (``tokenless``: indexes among ``read``)."""
    if not tokenless:
        return []
    empty = {read[i] for i in tokenless}
    return [i for i, text in enumerate(texts) if text in empty]


def count_measures(
    measures: Sequence[Measure],
    encoded: Encoded,
    pred_docs: Buffer,
    ref_docs: Buffer,
    synonyms: SynonymMatcher | None = None,
) -> PairCounts:
    """Counts of each of ``measures`` (at least one) over the pairs ``(pred_docs[k],
    ref_docs[k])`` of ``encoded`` (int64 buffers of document indexes).

    Measures with synonyms need ``synonyms`` and an ``encoded`` that kept its words.
    """
    n_pairs = len(pred_docs)
    parts = [
        PairCounts((m,), synonym_counts(m.n, encoded, pred_docs, ref_docs, synonyms), n_pairs)
        for m in measures
        if m.synonyms
    ]
    plain = [m for m in measures if not m.synonyms]
    if plain:
        raw = count_pairs(
            encoded.ids,
            encoded.sentences,
            encoded.documents,
            pred_docs,
            ref_docs,
            [m.kernel_spec() for m in plain],
            encoded.vocab_size,
        )
        parts.append(PairCounts(plain, raw, n_pairs))
    return PairCounts.gather(measures, parts)


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
    n: int, encoded: Encoded, pred_docs: Buffer, ref_docs: Buffer, synonyms: SynonymMatcher
) -> np.ndarray:
    """``(3, n_pairs)``: hit, pred_base and ref_base. Units are n-grams; two match when every
    position is the same word or synonyms, and the hit is a maximum one-to-one matching between
    the two texts' n-gram occurrences.

    N-grams whose words' synonyms are meeting keys are matched in C first (see
    :func:`_compiled_counts`); the pairs it leaves, and all pairs otherwise, by
    :func:`~rouge_plus.kernels.matching.maximum_matching` here.
    """
    import numpy as np

    from ..kernels.matching import maximum_matching

    related, keys = _token_relation(encoded, synonyms)
    pred_list, ref_list = pred_docs.tolist(), ref_docs.tolist()
    if synonyms.exact_keys and _compiled_synonyms() is not None:
        out, pairs, neighbours_of = _compiled_counts(n, encoded, pred_docs, ref_docs, keys)
        if not pairs:
            return out
        documents = {doc for k in pairs for doc in (pred_list[k], ref_list[k])}
        tokens = frozenset(t for doc in documents for t in _ids_of(encoded, doc))
        neighbours = {t: neighbours_of(t) for t in tokens}
    else:
        out = np.zeros((3, len(pred_docs)))
        pairs = range(len(pred_docs))
        tokens = frozenset(int_list(encoded.ids, "i"))
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
    return out


def _ids_of(encoded: Encoded, document: int) -> list[int]:
    """The token ids of one document."""
    ids, sentences, documents = encoded.arrays()
    start, end = documents[document : document + 2]
    return ids[sentences[start] : sentences[end]].tolist()


def _compiled_counts(
    n: int, encoded: Encoded, pred_docs: Buffer, ref_docs: Buffer, keys: dict[int, frozenset]
) -> tuple[np.ndarray, list[int], Callable[[int], frozenset[int]]]:
    """N-gram synonym counts ``(3, n_pairs)`` from ``_synonyms.c``: the exact overlap, plus,
    per connected component of the matching graph (over the pair's kinds of n-gram) that has a
    synonym edge, a greedy matching that reaches the smaller total (hence is maximum). Also the
    pairs where it falls short, whose hits the caller computes again, and each id's synonyms
    (the compiled twin of :func:`_neighbours`)."""
    import numpy as np

    from ..kernels.spec import Kernel, KernelSpec

    exact = count_pairs(
        encoded.ids,
        encoded.sentences,
        encoded.documents,
        pred_docs,
        ref_docs,
        [KernelSpec(Kernel.NGRAM, n=n)],
        encoded.vocab_size,
    )
    out = np.frombuffer(exact, dtype=np.float64).reshape(3, len(pred_docs)).copy()
    at, ids = _compiled_synonyms().neighbour_table([keys[t] for t in range(encoded.vocab_size)])
    at, ids = np.frombuffer(at, dtype=np.int64), np.frombuffer(ids, dtype=np.int32)
    if not len(ids):
        return out, [], lambda token: frozenset()
    gains, pairs = _compiled_synonyms().synonym_gains(
        encoded.ids,
        encoded.sentences,
        encoded.documents,
        pred_docs,
        ref_docs,
        at,
        ids,
        encoded.vocab_size,
        n,
    )
    out[0] += np.frombuffer(gains, dtype=np.int64)
    return out, pairs, lambda token: frozenset(ids[at[token] : at[token + 1]].tolist())
