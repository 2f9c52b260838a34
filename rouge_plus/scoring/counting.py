"""Counts for every (prediction, reference) pair and every ROUGE type.

For each measure this produces three rows over the pairs — ``hit``, ``pred_base``, ``ref_base``
— from which precision and recall follow (``hit / pred_base``, ``hit / ref_base``), and which add
up over references for pooled scoring (each measure's ``precision_recall`` turns them into
scores). All measures' rows are one float64 buffer, a :class:`PairCounts`: the compiled kernels
write it and the compiled reduction reads it without NumPy; the other stages view it as NumPy
arrays.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence

from ..errors import OptionError
from ..kernels.native import count_pairs
from ..text.encoding import Encoded, TextPipeline
from .measures import Measure

TYPE_CHECKING = False
if TYPE_CHECKING:

    import numpy as np

    from ..kernels.native import Buffer
    from .protocols import SynonymMatcher

Counts = tuple["np.ndarray", "np.ndarray", "np.ndarray"]

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
    parts = []
    if any(m.synonyms for m in measures):
        from .synonym_counting import synonym_counts

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
