"""Scoring the columns of a Hugging Face ``datasets`` dataset.

Per-example precision, recall and F are computed with ``Dataset.map(batched=True)`` (in parallel
with ``num_proc``); the corpus aggregate is then computed once from those columns with the core's
aggregation, so it equals :func:`rouge_plus.score` on the same columns, bootstrap included
(a bootstrap needs every row at once, which is why it is not done per batch). A streamed
``IterableDataset`` is read batch by batch for the aggregate.

Named ``hf_datasets`` so it does not shadow the ``datasets`` package.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from typing import Any

from ..errors import InputError, InputTypeError, OptionError
from ..options import ScoreOptions
from ..plan import signature_of
from ..results import ExampleScores, score_column_names
from ..scorer import score_examples


class _ColumnScorer:
    """The batched map function; a class (not a closure) so ``num_proc`` workers can pickle it."""

    def __init__(self, prediction_column: str, reference_column: str, options: ScoreOptions):
        self.prediction_column = prediction_column
        self.reference_column = reference_column
        self.options = options

    def __call__(self, batch: dict[str, list]) -> dict[str, list[float]]:
        predictions, references = batch[self.prediction_column], batch[self.reference_column]
        return score_examples(predictions, references, self.options).columns()


@contextlib.contextmanager
def _progress_bar_on_terminals_only(datasets: Any) -> Iterator[None]:
    """``map`` draws a progress bar; where stderr is not a terminal (a log file, a CI job) each
    update would be a line of its own, so the bars are off for the call and then as before."""
    if sys.stderr.isatty() or datasets.are_progress_bars_disabled():
        yield
        return
    datasets.disable_progress_bars()
    try:
        yield
    finally:
        datasets.enable_progress_bars()


def _check_columns(column_names: list[str] | None, wanted: tuple[str, str]) -> None:
    if column_names is None:  # a streamed dataset whose features are not known yet
        return
    for name in wanted:
        if name not in column_names:
            raise InputError(f"no column {name!r} in the dataset (columns: {column_names})")


def score_dataset(
    dataset: Any,
    prediction_column: str = "prediction",
    reference_column: str = "references",
    *,
    num_proc: int | None = None,
    batch_size: int = 1000,
    add_scores: bool = False,
    **options: object,
) -> dict[str, float] | tuple[dict[str, float], Any]:
    """Corpus ROUGE of a ``datasets.Dataset`` or ``IterableDataset``.

    ``reference_column`` holds one reference text or a list of texts per row; ``options`` are
    those of :func:`rouge_plus.score`. Returns the aggregate dict, or ``(aggregate, dataset)``
    when ``add_scores=True``, the dataset with ``<type>_precision``/``_recall``/``_fmeasure``
    columns added (map-style datasets only).
    """
    import datasets

    if isinstance(dataset, (datasets.DatasetDict, datasets.IterableDatasetDict)):
        raise InputTypeError(f"pass one split, e.g. dataset['test']; splits: {', '.join(dataset)}")
    settings = ScoreOptions.from_kwargs(**options)
    if not settings.use_aggregator:
        raise OptionError("use_aggregator=False: use add_scores=True for per-example scores")
    columns = (prediction_column, reference_column)
    _check_columns(dataset.column_names, columns)
    if isinstance(dataset, datasets.IterableDataset):
        if add_scores or (num_proc or 1) > 1:
            raise OptionError("add_scores and num_proc need a map-style Dataset, not a stream")
        return _aggregate_stream(dataset, columns, settings, batch_size)
    with _progress_bar_on_terminals_only(datasets):
        scored = dataset.map(
            _ColumnScorer(*columns, settings),
            batched=True,
            batch_size=batch_size,
            num_proc=num_proc,
            remove_columns=None if add_scores else dataset.column_names,
            desc="rouge_plus",
        )
    score_names = score_column_names(settings)
    # Arrow, not the "numpy" format: that one would hand back float32 and change the means.
    table = scored.select_columns(score_names).with_format("arrow")[:]
    score_table = {name: table.column(name).to_numpy() for name in score_names}
    result = ExampleScores.from_columns(score_table, settings, signature_of(settings)).aggregate()
    return (result, scored) if add_scores else result


def _aggregate_stream(
    dataset: Any, columns: tuple[str, str], options: ScoreOptions, batch_size: int
) -> dict[str, float]:
    prediction_column, reference_column = columns
    parts = [
        score_examples(batch[prediction_column], batch[reference_column], options)
        for batch in dataset.iter(batch_size=batch_size)
    ]
    return ExampleScores.concatenate(parts).aggregate()
