"""The scoring core: predictions and references in, per-example and corpus scores out.

Usable without ``evaluate``::

    from rouge_plus import RougeScorer
    scorer = RougeScorer(["rouge1", "rougeL"], use_stemmer=True)
    scorer.score(["the cat sat"], [["a cat sat", "the cat is sitting"]])

The whole batch is encoded once (one vocabulary, one tokenization per text), every ROUGE type is
counted over all (prediction, reference) pairs, references are reduced per row, and only then are
scores aggregated.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .counting import count_measures
from .diagnostics import text_places, warn_wordless, wordless_places
from .encoding import TextPipeline
from .inputs import Batch, normalize_inputs
from .multiref import reduce_references
from .options import ScoreOptions
from .parallel import default_workers, map_in_workers
from .pipelines import text_pipeline, topic_words
from .results import ExampleScores, aggregate, per_example
from .synonyms import Synonyms, load_synonyms

# Rows scored at once: bounds the memory of the intermediate arrays for any corpus size.
CHUNK_ROWS = 4096


@dataclass(frozen=True)
class _Resources:
    """What every chunk of a call shares, resolved once per call: the text pipeline, the
    synonym source (a user's file or mapping is parsed once, not once per chunk) and the
    topic-word tagger."""

    pipeline: TextPipeline
    synonyms: Synonyms | None
    topic_words: Callable[[str], list[str]] | None

    @classmethod
    def for_options(cls, options: ScoreOptions) -> _Resources:
        has_topic = any(m.kind == "topic" for m in options.rouge_types)
        return cls(
            text_pipeline(options),
            load_synonyms(options.synonyms) if options.needs_synonyms else None,
            topic_words(options) if has_topic else None,
        )


def _count_chunk(
    texts: list[str],
    pred_docs: np.ndarray,
    ref_docs: np.ndarray,
    options: ScoreOptions,
    resources: _Resources,
    place: Callable[[int], str],
) -> tuple[dict, np.ndarray]:
    """Counts of every measure, and the token count of each text (for the wordless warning)."""
    pipeline, synonyms = resources.pipeline, resources.synonyms
    regular = [m for m in options.rouge_types if m.kind != "topic"]
    by_sentence = [m for m in regular if m.uses_sentences]
    whole = [m for m in regular if not m.uses_sentences]
    separate = bool(by_sentence and whole and not pipeline.sentence_safe)
    encoded = pipeline.encode(
        texts,
        by_sentence=bool(by_sentence),
        whole_too=separate,
        keep_words=any(m.synonyms for m in regular),
        describe=place,
    )
    if separate:
        shift = len(texts)
        counts = count_measures(whole, encoded, pred_docs, ref_docs, synonyms)
        counts.update(
            count_measures(by_sentence, encoded, pred_docs + shift, ref_docs + shift, synonyms)
        )
    else:
        counts = count_measures(regular, encoded, pred_docs, ref_docs, synonyms)
    topic = [m for m in options.rouge_types if m.kind == "topic"]
    if topic:
        topics = pipeline.encode_topics(
            texts, resources.topic_words, keep_words=any(m.synonyms for m in topic)
        )
        plain = [m for m in topic if not m.unique]
        unique = [m for m in topic if m.unique]
        counts.update(count_measures(plain, topics, pred_docs, ref_docs, synonyms))
        if unique:
            distinct = topics.unique_per_document()
            counts.update(count_measures(unique, distinct, pred_docs, ref_docs, synonyms))
    return counts, encoded.tokenized_counts[: len(texts)]


def _score_chunk(
    batch: Batch, start: int, options: ScoreOptions, resources: _Resources
) -> tuple[dict[str, np.ndarray], list[str]]:
    """Per-row scores of one chunk (rows ``start ..``), and where its wordless texts are."""
    n_rows = len(batch)
    texts = batch.texts
    owner = batch.pair_owner
    pred_docs, ref_docs = owner, np.arange(n_rows, n_rows + len(owner), dtype=np.int64)
    place = text_places(batch, start)
    counts, token_counts = _count_chunk(texts, pred_docs, ref_docs, options, resources, place)
    scores = {
        measure.name: reduce_references(
            options.multi_ref,
            counts[measure],
            owner,
            n_rows,
            measure,
            options.fmeasure,
            round5_values=options.rouge155,
        )
        for measure in options.rouge_types
    }
    return scores, wordless_places(texts, place, token_counts)


def _chunk_rows(n_rows: int, workers: int) -> int:
    """Rows per chunk: at most ``CHUNK_ROWS``, and for several workers a size that gives each
    of them the same number of chunks, so that they finish together."""
    if workers <= 1:
        return CHUNK_ROWS
    rounds = -(-n_rows // (workers * CHUNK_ROWS))
    return max(1, -(-n_rows // (workers * rounds)))


def score_examples(batch: Batch, options: ScoreOptions) -> ExampleScores:
    """Score every row of a validated batch under ``options``, chunk by chunk.

    Chunks are independent; with ``num_proc`` above 1 they run on that many threads, which
    score in parallel because the compiled kernels release the GIL.
    """
    resources = _Resources.for_options(options)
    workers = default_workers() if options.num_proc is None else options.num_proc
    size = _chunk_rows(len(batch), workers)

    def score_chunk(start: int) -> tuple[dict[str, np.ndarray], list[str]]:
        return _score_chunk(batch.rows(start, start + size), start, options, resources)

    results = map_in_workers(score_chunk, range(0, len(batch), size), workers)
    warn_wordless([place for _, places in results for place in places], options.tokenizer)
    return ExampleScores(
        {
            name: np.concatenate([scores[name] for scores, _ in results])
            for name in options.type_names
        },
        options.signature(),
    )


class RougeScorer:
    """Scores predictions against references with fixed options (see :class:`ScoreOptions`)."""

    def __init__(self, rouge_types: list[str] | str | None = None, **options: object):
        self.options = ScoreOptions.from_kwargs(rouge_types=rouge_types, **options)

    @property
    def signature(self) -> str:
        return self.options.signature()

    def score_examples(self, predictions: object, references: object) -> ExampleScores:
        return score_examples(normalize_inputs(predictions, references), self.options)

    def score(
        self, predictions: object, references: object
    ) -> dict[str, float] | dict[str, list[float]]:
        """Aggregated scores, or per-example lists when ``use_aggregator=False``."""
        examples = self.score_examples(predictions, references)
        if self.options.use_aggregator:
            return aggregate(examples, self.options)
        return per_example(examples, self.options)


def score(predictions: object, references: object, **options: object) -> dict:
    """One-call functional API: ``score(preds, refs, rouge_types=["rouge1"], use_stemmer=True)``."""
    return RougeScorer(**options).score(predictions, references)
