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

from array import array
from collections.abc import Callable, Iterable, Iterator

from .errors import OptionError
from .inputs import Batch, normalize_inputs
from .options import ScoreOptions
from .plan import ScoringPlan, plan_for
from .results import ExampleScores, one_row_result
from .scoring.tables import ScoreTable

# typing is imported by type checkers only (it costs a short script more than its scoring).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal, overload


def score_examples(
    predictions: object,
    references: object,
    options: ScoreOptions | ScoringPlan,
    *,
    chunk_size: int | None = None,
    on_chunk: Callable[[int, int], None] | None = None,
) -> ExampleScores:
    """Per-example scores of every row under ``options`` (or a plan already built from them).

    With ``chunk_size``, rows are scored that many at a time and ``on_chunk(start, stop)`` is
    called after each chunk (rows ``start:stop``), e.g. to advance a progress bar or to stop
    the work by raising; the scores do not depend on it. Error messages count rows from 0 over
    the whole input.
    """
    if chunk_size is not None and (isinstance(chunk_size, bool) or chunk_size < 1):
        raise OptionError(f"chunk_size must be a positive int, got {chunk_size!r}")
    batch = normalize_inputs(predictions, references)
    size = chunk_size or len(batch)
    chunks = (batch.rows(start, start + size) for start in range(0, len(batch), size))
    return _score_batches(chunks, _as_plan(options), on_chunk)


def score_stream(
    chunks: Iterable[tuple[object, object]],
    options: ScoreOptions | ScoringPlan,
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

    return _score_batches(batches(), _as_plan(options), on_chunk)


def _as_plan(options: ScoreOptions | ScoringPlan) -> ScoringPlan:
    return options if isinstance(options, ScoringPlan) else ScoringPlan(options)


def _score_batches(
    batches: Iterable[Batch], plan: ScoringPlan, on_chunk: Callable[[int, int], None] | None
) -> ExampleScores:
    plan.warn_notices()
    parts = []
    start = 0
    for batch in batches:
        if start == 0:
            plan.check_language(batch.reference_texts)
        stop = start + len(batch)
        parts.append(ExampleScores(plan.score_rows(batch, start), plan.options, plan.signature))
        if on_chunk is not None:
            on_chunk(start, stop)
        start = stop
    return ExampleScores.concatenate(parts)


class RougeScorer:
    """Scores predictions against references with fixed options (see :class:`ScoreOptions`),
    resolved once when the scorer is built."""

    def __init__(self, rouge_types: list[str] | str | None = None, **options: object):
        self.plan = plan_for(rouge_types=rouge_types, **options)

    @property
    def options(self) -> ScoreOptions:
        return self.plan.options

    @property
    def signature(self) -> str:
        return self.plan.signature

    def score_examples(self, predictions: object, references: object) -> ExampleScores:
        plan = self.plan
        pair = _one_pair(predictions, references)
        values = None if pair is None else plan.score_pair(*pair)
        if values is None:
            return score_examples(predictions, references, plan)
        plan.warn_notices()
        scores = {
            name: ScoreTable(bytearray(array("d", values[3 * i : 3 * i + 3])))
            for i, name in enumerate(plan.names)
        }
        return ExampleScores(scores, plan.options, plan.signature)

    def score(
        self, predictions: object, references: object
    ) -> dict[str, float] | dict[str, list[float]]:
        """Aggregated scores, or per-example lists when ``use_aggregator=False``."""
        plan = self.plan
        pair = _one_pair(predictions, references)
        if pair is not None and plan.options.aggregation != "bootstrap":
            values = plan.score_pair(*pair)
            if values is not None:
                plan.warn_notices()
                return one_row_result(plan.result_keys, values, plan.options.use_aggregator)
        return self.score_examples(predictions, references).result()


def _one_pair(predictions: object, references: object) -> tuple[str, str] | None:
    """The prediction and reference of a call that scores one pair (a list of one str, and a
    list of one str or of one list of one str), or None."""
    if type(predictions) is not list or type(references) is not list:
        return None
    if len(predictions) != 1 or len(references) != 1:
        return None
    prediction, reference = predictions[0], references[0]
    if type(reference) is list and len(reference) == 1:
        reference = reference[0]
    if type(prediction) is not str or type(reference) is not str:
        return None
    return prediction, reference


if TYPE_CHECKING:

    @overload
    def score(
        predictions: object,
        references: object,
        *,
        use_aggregator: Literal[False],
        **options: object,
    ) -> dict[str, list[float]]: ...

    @overload
    def score(
        predictions: object,
        references: object,
        *,
        use_aggregator: Literal[True] = True,
        **options: object,
    ) -> dict[str, float]: ...

    @overload
    def score(
        predictions: object, references: object, *, use_aggregator: bool, **options: object
    ) -> dict[str, float] | dict[str, list[float]]: ...


def score(
    predictions: object, references: object, **options: object
) -> dict[str, float] | dict[str, list[float]]:
    """One-call functional API: ``score(preds, refs, rouge_types=["rouge1"], use_stemmer=True)``.

    The corpus scores, or per-example lists with ``use_aggregator=False``."""
    return RougeScorer(**options).score(predictions, references)
