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

import functools
import logging
import os
import sys
import warnings
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .aggregation import Interval, bootstrap_interval, mean_scores, rouge155_interval
from .counting import count_measures
from .encoding import TextPipeline
from .inputs import Batch, normalize_inputs
from .length_limit import limit_bytes, limit_words
from .multiref import reduce_references
from .options import ScoreOptions
from .parallel import default_workers, map_in_workers
from .pos import load_tagger, topic_filter
from .sentences import available_sentence_splitters, get_sentence_splitter
from .stemming import get_stemmer
from .stopwords import resolve_stopwords
from .synonyms import load_synonyms
from .tokenizers import available_tokenizers, get_tokenizer

logger = logging.getLogger(__name__)

_COLUMNS = ("precision", "recall", "fmeasure")


@dataclass(frozen=True)
class ExampleScores:
    """Per-example scores: for each ROUGE type an ``(n, 3)`` array of precision, recall, F."""

    scores: dict[str, np.ndarray]
    signature: str

    def __len__(self) -> int:
        return len(next(iter(self.scores.values())))


def _pipeline(options: ScoreOptions) -> TextPipeline:
    tokenizer, splitter = options.tokenizer, options.split_sentences
    return TextPipeline(
        tokenizer=get_tokenizer(tokenizer),
        tokenizer_name=tokenizer if tokenizer in available_tokenizers() else None,
        split_sentences=get_sentence_splitter(splitter),
        splitter_name=splitter if splitter in available_sentence_splitters() else None,
        stem=get_stemmer(options.stemmer_name) if options.stemmer_name else None,
        stopwords=resolve_stopwords(options.remove_stopwords),
        limit_text=_length_limit(options),
    )


def _topic_words(options: ScoreOptions) -> Callable[[str], list[str]]:
    """Tag one sentence and keep its topic words (ROUGE 2.0), lowercased like other tokens.

    Tagging sees the words with their case: taggers are far less accurate on lowercased text.
    """
    prefixes = options.topic_prefixes
    if options.pos_tagger == "pretagged":

        def topic_words(sentence: str) -> list[str]:
            pairs = [token.rpartition("/") for token in sentence.split()]
            return [word.lower() for word, _, tag in pairs if tag.startswith(prefixes)]

        return topic_words
    tagger = load_tagger(options.pos_tagger)
    builtin = isinstance(options.tokenizer, str)
    cased = get_tokenizer(options.tokenizer, lowercase=False)

    def topic_words(sentence: str) -> list[str]:
        tokens = cased(sentence)
        kept = [tokens[i] for i in topic_filter(tokens, tagger(tokens), prefixes)]
        return [token.lower() for token in kept] if builtin else kept

    return topic_words


def _length_limit(options: ScoreOptions) -> Callable[[str], str] | None:
    if options.max_words:
        return functools.partial(limit_words, max_words=options.max_words)
    if options.max_bytes:
        return functools.partial(limit_bytes, max_bytes=options.max_bytes)
    return None


# Rows scored at once: bounds the memory of the intermediate arrays for any corpus size.
CHUNK_ROWS = 4096


def _place(batch: Batch, start: int) -> Callable[[int], str]:
    """Names text ``i`` of a chunk (its predictions, then its references) for messages."""

    def place(i: int) -> str:
        if i < len(batch):
            return f"predictions[{start + i}]"
        row, k = batch.reference_position(i - len(batch))
        return f"references[{start + row}][{k}]"

    return place


def _wordless(texts: list[str], place: Callable[[int], str], token_counts: np.ndarray) -> list[str]:
    """Where the texts with words but no tokens are."""
    return [
        place(i)
        for i in np.flatnonzero(token_counts == 0).tolist()
        if texts[i] and not texts[i].isspace()
    ]


def _warn_wordless(places: list[str], tokenizer: object) -> None:
    if not places:
        return
    message = (
        f"{len(places)} non-empty text(s) produced no tokens with this tokenizer "
        f"(first: {places[0]}); they score 0."
    )
    if tokenizer != "default":
        message += " The default tokenizer keeps the letters of every script."
    logger.warning(message)
    warnings.warn(message, UserWarning, stacklevel=_stacklevel_outside_package())


def _stacklevel_outside_package() -> int:
    """The ``stacklevel`` that attributes a warning to the first caller outside rouge_plus."""
    package = os.path.dirname(__file__) + os.sep
    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_code.co_filename.startswith(package):
        frame, level = frame.f_back, level + 1
    return level


def _count_chunk(
    texts: list[str],
    pred_docs: np.ndarray,
    ref_docs: np.ndarray,
    options: ScoreOptions,
    pipeline: TextPipeline,
    place: Callable[[int], str],
) -> tuple[dict, np.ndarray]:
    """Counts of every measure, and the token count of each text (for the wordless warning)."""
    synonyms = load_synonyms(options.synonyms) if options.needs_synonyms else None
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
            texts, _topic_words(options), keep_words=any(m.synonyms for m in topic)
        )
        plain = [m for m in topic if not m.unique]
        unique = [m for m in topic if m.unique]
        counts.update(count_measures(plain, topics, pred_docs, ref_docs, synonyms))
        if unique:
            distinct = topics.unique_per_document()
            counts.update(count_measures(unique, distinct, pred_docs, ref_docs, synonyms))
    return counts, encoded.tokenized_counts[: len(texts)]


def _score_chunk(
    batch: Batch, start: int, options: ScoreOptions, pipeline: TextPipeline
) -> tuple[dict[str, np.ndarray], list[str]]:
    """Per-row scores of one chunk (rows ``start ..``), and where its wordless texts are."""
    n_rows = len(batch)
    texts = batch.texts
    owner = batch.pair_owner
    pred_docs, ref_docs = owner, np.arange(n_rows, n_rows + len(owner), dtype=np.int64)
    place = _place(batch, start)
    counts, token_counts = _count_chunk(texts, pred_docs, ref_docs, options, pipeline, place)
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
    return scores, _wordless(texts, place, token_counts)


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
    pipeline = _pipeline(options)
    workers = default_workers() if options.num_proc is None else options.num_proc
    size = _chunk_rows(len(batch), workers)

    def score_chunk(start: int) -> tuple[dict[str, np.ndarray], list[str]]:
        return _score_chunk(batch.rows(start, start + size), start, options, pipeline)

    results = map_in_workers(score_chunk, range(0, len(batch), size), workers)
    _warn_wordless([place for _, places in results for place in places], options.tokenizer)
    return ExampleScores(
        {
            name: np.concatenate([scores[name] for scores, _ in results])
            for name in options.type_names
        },
        options.signature(),
    )


def _flat_keys(name: str, values: np.ndarray, with_pr: bool, suffix: str = "") -> dict:
    keys = {f"{name}{suffix}": values[..., 2]}
    if with_pr:
        keys.update({f"{name}_{col}{suffix}": values[..., i] for i, col in enumerate(_COLUMNS)})
    return keys


def _interval(values: np.ndarray, options: ScoreOptions) -> Interval:
    if options.rouge155:
        return rouge155_interval(
            values,
            alpha=options.fmeasure.as_alpha,
            confidence_level=options.confidence_level,
            n_resamples=options.n_resamples,
        )
    return bootstrap_interval(
        values,
        confidence_level=options.confidence_level,
        n_resamples=options.n_resamples,
        seed=options.seed,
    )


def aggregate(examples: ExampleScores, options: ScoreOptions) -> dict[str, float]:
    """The corpus result as a flat dict of Python floats (``result["rouge1"]`` is F)."""
    result: dict[str, float] = {}
    for name, values in examples.scores.items():
        if options.aggregation == "bootstrap":
            interval = _interval(values, options)
            result.update(_flat_keys(name, interval.mid, options.return_precision_recall))
            for bound in ("low", "high"):
                result.update(
                    _flat_keys(
                        name, getattr(interval, bound), options.return_precision_recall, f"_{bound}"
                    )
                )
        else:
            result.update(_flat_keys(name, mean_scores(values), options.return_precision_recall))
    return {key: float(value) for key, value in result.items()}


def per_example(examples: ExampleScores, options: ScoreOptions) -> dict[str, list[float]]:
    """Per-example lists of Python floats, keyed like :func:`aggregate`."""
    result: dict[str, list[float]] = {}
    for name, values in examples.scores.items():
        result.update(_flat_keys(name, values, options.return_precision_recall))
    return {key: [float(v) for v in value] for key, value in result.items()}


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
