"""The facade every front end calls: predictions and references in, per-example scores out.

Usable without ``evaluate``::

    from rouge_plus import RougeScorer
    scorer = RougeScorer(["rouge1", "rougeL"], use_stemmer=True)
    scorer.score(["the cat sat"], [["a cat sat", "the cat is sitting"]])

:func:`score_examples` validates its inputs, resolves the options' resources once, and scores
the rows chunk by chunk: each chunk is encoded once (one vocabulary, one tokenization per text),
every ROUGE type is counted over all its (prediction, reference) pairs, and references are
reduced per row. The :class:`~rouge_plus.results.ExampleScores` it returns carry their options,
so ``.aggregate()``, ``.per_example()`` and ``.columns()`` need nothing else.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, TypeVar

from .inputs import Batch, normalize_inputs
from .options import ScoreOptions
from .resources import Resources
from .results import ExampleScores, Table, join_tables
from .scoring.counting import count_texts, count_texts_flat, counts_flat
from .scoring.multiref import reduce_flat, reduce_references, reduces_flat
from .text.diagnostics import warn_once, warn_wordless, wordless_places

if TYPE_CHECKING:
    import numpy as np

# Rows scored at once: bounds the memory of the intermediate arrays for any corpus size.
CHUNK_ROWS = 4096

Chunk = TypeVar("Chunk")
Result = TypeVar("Result")


def score_examples(
    predictions: object,
    references: object,
    options: ScoreOptions,
    *,
    chunk_size: int | None = None,
    on_chunk: Callable[[int, int], None] | None = None,
) -> ExampleScores:
    """Per-example scores of every row under ``options``.

    With ``chunk_size``, rows are scored that many at a time and ``on_chunk(start, stop)`` is
    called after each chunk (rows ``start:stop``), e.g. to advance a progress bar or to stop
    the work by raising; the scores do not depend on it. Error messages count rows from 0 over
    the whole input.
    """
    if chunk_size is not None and (isinstance(chunk_size, bool) or chunk_size < 1):
        raise ValueError(f"chunk_size must be a positive int, got {chunk_size!r}")
    batch = normalize_inputs(predictions, references)
    size = chunk_size or len(batch)
    chunks = (batch.rows(start, start + size) for start in range(0, len(batch), size))
    return _score_batches(chunks, options, on_chunk)


def score_stream(
    chunks: Iterable[tuple[object, object]],
    options: ScoreOptions,
    *,
    on_chunk: Callable[[int, int], None] | None = None,
) -> ExampleScores:
    """Per-example scores of rows that arrive in chunks of ``(predictions, references)``, such
    as rows read from a file as they are needed: only the scores are kept, so memory follows
    the chunk, not the corpus. ``on_chunk`` and error messages as in :func:`score_examples`
    (rows counted over the whole stream)."""

    def batches() -> Iterator[Batch]:
        start = 0
        for predictions, references in chunks:
            batch = normalize_inputs(predictions, references, first_row=start)
            start += len(batch)
            yield batch

    return _score_batches(batches(), options, on_chunk)


def _score_batches(
    batches: Iterable[Batch], options: ScoreOptions, on_chunk: Callable[[int, int], None] | None
) -> ExampleScores:
    resources = Resources.for_options(options)
    parts = []
    start = 0
    for batch in batches:
        if start == 0 and options.use_stemmer and options.language is None:
            _warn_if_not_english(batch)
        stop = start + len(batch)
        scores = _score_rows(batch, start, options, resources)
        parts.append(ExampleScores(scores, options, resources.signature))
        if on_chunk is not None:
            on_chunk(start, stop)
        start = stop
    return ExampleScores.concatenate(parts)


def _warn_if_not_english(batch: Batch) -> None:
    """The English stemmer on text that is clearly not English: say which option fixes it."""
    from .text.languages import non_english_evidence

    evidence = non_english_evidence(batch.reference_texts)
    if evidence:
        warn_once(
            f"use_stemmer=True stems with the English Porter stemmer, but the references are "
            f"not English ({evidence}): pass language=<ISO 639-1 code> to stem, tokenize and "
            "split sentences in their language"
        )


def _score_rows(
    batch: Batch, first_row: int, options: ScoreOptions, resources: Resources
) -> dict[str, Table]:
    """Per-row scores of ``batch`` (rows ``first_row ..`` of the input), in chunks of at most
    ``CHUNK_ROWS`` rows, on ``options.num_proc`` threads; warns once about texts without tokens.

    Chunks are independent; on several threads they score in parallel because the compiled
    kernels release the GIL.
    """
    workers = default_workers() if options.num_proc is None else options.num_proc
    size = _chunk_rows(len(batch), workers)
    flat = counts_flat(options.rouge_types, resources.pipeline) and reduces_flat(
        options.multi_ref, options.rouge155
    )
    score = _score_chunk_flat if flat else _score_chunk

    def score_chunk(start: int) -> tuple[dict[str, Table], list[str]]:
        return score(batch.rows(start, start + size), first_row + start, options, resources)

    results = map_in_workers(score_chunk, range(0, len(batch), size), workers)
    warn_wordless([place for _, places in results for place in places], options.tokenizer)
    if len(results) == 1:
        return results[0][0]
    return {
        name: join_tables([scores[name] for scores, _ in results]) for name in options.type_names
    }


def _score_chunk_flat(
    batch: Batch, first_row: int, options: ScoreOptions, resources: Resources
) -> tuple[dict[str, bytearray], list[str]]:
    """:func:`_score_chunk` without NumPy, for the measures, pipeline and reduction of
    references that the compiled code covers (the common case): per-row tables as bytearrays."""
    texts = batch.texts
    place = batch.text_place(first_row)
    single = len(texts) == 2 * len(batch)  # one reference per row
    pair_rows = batch.pair_rows()
    counts, tokenless = count_texts_flat(
        options.rouge_types, texts, pair_rows, resources.pipeline, describe=place
    )
    tables = reduce_flat(
        counts,
        len(options.rouge_types),
        None if single else pair_rows,
        len(batch),
        options.fmeasure,
    )
    names = [measure.name for measure in options.rouge_types]
    scores = dict(zip(names, tables, strict=True))
    return scores, wordless_places(texts, place, tokenless)


def _score_chunk(
    batch: Batch, first_row: int, options: ScoreOptions, resources: Resources
) -> tuple[dict[str, np.ndarray], list[str]]:
    """Per-row scores of one chunk, and where its texts without tokens are."""
    import numpy as np

    n_rows = len(batch)
    texts = batch.texts
    owner = batch.pair_owner
    place = batch.text_place(first_row)
    counts, tokenless = count_texts(
        options.rouge_types,
        texts,
        owner,
        np.arange(n_rows, n_rows + len(owner), dtype=np.int64),
        resources.pipeline,
        synonyms=resources.synonyms,
        topic_words=resources.topic_words,
        describe=place,
    )
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
    return scores, wordless_places(texts, place, tokenless)


def _chunk_rows(n_rows: int, workers: int) -> int:
    """Rows per chunk: at most ``CHUNK_ROWS``, and for several workers a size that gives each
    of them the same number of chunks, so that they finish together."""
    if workers <= 1:
        return CHUNK_ROWS
    rounds = -(-n_rows // (workers * CHUNK_ROWS))
    return max(1, -(-n_rows // (workers * rounds)))


def default_workers() -> int:
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def map_in_workers(
    function: Callable[[Chunk], Result], chunks: Sequence[Chunk], num_workers: int = 1
) -> list[Result]:
    """``[function(chunk) for chunk in chunks]``, computed on up to ``num_workers`` threads.

    One worker (or a single chunk) runs inline in the calling thread. The first exception raised
    by a chunk, in chunk order, propagates.
    """
    workers = min(num_workers, len(chunks))
    if workers <= 1:
        return [function(chunk) for chunk in chunks]
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(function, chunks))


class RougeScorer:
    """Scores predictions against references with fixed options (see :class:`ScoreOptions`)."""

    def __init__(self, rouge_types: list[str] | str | None = None, **options: object):
        self.options = ScoreOptions.from_kwargs(rouge_types=rouge_types, **options)

    @property
    def signature(self) -> str:
        return self.options.signature()

    def score_examples(self, predictions: object, references: object) -> ExampleScores:
        return score_examples(predictions, references, self.options)

    def score(
        self, predictions: object, references: object
    ) -> dict[str, float] | dict[str, list[float]]:
        """Aggregated scores, or per-example lists when ``use_aggregator=False``."""
        return self.score_examples(predictions, references).result()


def score(predictions: object, references: object, **options: object) -> dict:
    """One-call functional API: ``score(preds, refs, rouge_types=["rouge1"], use_stemmer=True)``."""
    return RougeScorer(**options).score(predictions, references)
