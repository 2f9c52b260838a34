"""What the Ray Data and Spark front ends share: Arrow batches scored where they are, and corpus
results computed once from the per-example columns gathered back in row order.

:class:`Engine` is the whole body of both front ends; ``ray_data.py`` and ``spark_sql.py`` each
subclass it with the two things their engine does its own way (scoring the data lazily where it
is, and gathering the score columns with the column that orders the rows), and publish its
methods under their names.

Per-example scores do not depend on the other rows of a batch, so any partitioning gives the
same columns; a corpus result (a mean's last bits, a bootstrap's resamples, a paired test)
depends on the row order, which is why the gathered rows are sorted by an index column first.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np

from ..comparison import compare_scores
from ..errors import InputError, MissingExtraError, OptionError
from ..options import ScoreOptions
from ..plan import signature_of
from ..results import SCORE_COLUMNS, ExampleScores, score_column_names
from ..scorer import score_examples


def missing_extra(package: str) -> MissingExtraError:
    """The error raised when a front end's package is not installed."""
    return MissingExtraError(package, "distributed")


def checked_options(options: Mapping[str, object]) -> ScoreOptions:
    """Scoring options for a front end that returns corpus results."""
    settings = ScoreOptions.from_kwargs(**options)
    if not settings.use_aggregator:
        raise OptionError("use_aggregator=False: use with_scores() for per-example columns")
    return settings


class BatchScorer:
    """Adds ``<prefix><type>_precision``/``_recall``/``_fmeasure`` float64 columns to an Arrow
    table or record batch, one set per prediction column (``predictions`` maps each prefix to
    its column). A class, not a closure, so Ray and Spark can ship it to their workers."""

    def __init__(
        self, predictions: Mapping[str, str], reference_column: str, options: ScoreOptions
    ):
        self.predictions = dict(predictions)
        self.reference_column = reference_column
        self.options = options

    def column_names(self) -> list[str]:
        names = score_column_names(self.options)
        return [prefix + name for prefix in self.predictions for name in names]

    def check(self, names: list[str]) -> None:
        """Fail on data with columns ``names`` that lacks a text column or has score columns."""
        for column in [*self.predictions.values(), self.reference_column]:
            if column not in names:
                raise InputError(f"no column {column!r} in the data (columns: {names})")
        clashes = [name for name in self.column_names() if name in names]
        if clashes:
            raise InputError(f"the data already has score columns: {', '.join(clashes)}")

    def __call__(self, batch: Any) -> Any:
        import pyarrow as pa

        names = batch.schema.names
        self.check(names)
        added = self.column_names()

        arrays = []
        for column in self.predictions.values():
            tables = self._tables(batch.column(column), batch.column(self.reference_column))
            arrays += [
                pa.array(table[:, i], type=pa.float64())
                for name in self.options.type_names
                for table in tables[name]
                for i in range(len(SCORE_COLUMNS))
            ]
        return type(batch).from_arrays([*batch.columns, *arrays], names=[*names, *added])

    def each(self, batches: Iterator[Any]) -> Iterator[Any]:
        """Every batch of ``batches`` scored (Spark's ``mapInArrow`` calls this)."""
        return map(self, batches)

    def _tables(self, predictions: Any, references: Any) -> dict[str, list[np.ndarray]]:
        """Per type, its ``(n, 3)`` scores, then its ``(n, 3)`` counts when they are kept (the
        order of ``score_column_names``)."""
        kept = 2 if self.options.needs_counts else 1
        if len(predictions) == 0:  # an empty batch or partition
            empty = np.zeros((0, len(SCORE_COLUMNS)))
            return {name: [empty] * kept for name in self.options.type_names}
        examples = score_examples(predictions.to_pylist(), references.to_pylist(), self.options)
        counts = examples.counts or {}
        return {
            name: [scores, *([counts[name].array()] if name in counts else [])]
            for name, scores in examples.scores.items()
        }


def gathered_scores(
    table: Any, options: ScoreOptions, index_column: str | None, prefix: str = ""
) -> ExampleScores:
    """Per-example scores from a gathered Arrow table of score columns (named with ``prefix``),
    its rows put in the order of ``index_column`` (unique) when given."""
    order = None
    if index_column is not None:
        index = table.column(index_column).to_numpy()
        if len(np.unique(index)) != len(index):
            raise InputError(f"index_column {index_column!r} must be unique: it orders the rows")
        order = np.argsort(index, kind="stable")
    columns = {}
    for name in score_column_names(options):
        values = table.column(prefix + name).to_numpy()
        columns[name] = values if order is None else values[order]
    return ExampleScores.from_columns(columns, options, signature_of(options))


def compare_gathered(
    table: Any,
    options: ScoreOptions,
    index_column: str | None,
    baseline: str,
    systems: list[str],
    test: Mapping[str, object],
) -> Any:
    """The paired tests of each system column against the baseline column, from the gathered
    per-example columns of each (prefixed ``<column>_``), with the settings ``test`` of
    ``compare_scores``."""

    def arrays(column: str) -> dict[str, np.ndarray]:
        return gathered_scores(table, options, index_column, f"{column}_").scores

    return compare_scores(
        arrays(baseline),
        {column: arrays(column) for column in systems},
        signature=signature_of(options),
        baseline_name=baseline,
        **test,
    )


class Engine(ABC):
    """A distributed data engine's front end: per-example columns added where the data is, and
    corpus results and paired tests computed once from the columns gathered in row order."""

    @abstractmethod
    def scored(self, data: Any, scorer: BatchScorer) -> Any:
        """``data`` with ``scorer``'s columns, computed lazily where the data is."""

    @abstractmethod
    def gathered(
        self, data: Any, scorer: BatchScorer, index_column: str | None
    ) -> tuple[Any, str | None, Any]:
        """``data`` scored, and ``(table, order, scored)``: the score columns as one Arrow table
        on the driver, the column of ``table`` that orders its rows (``None`` when the rows
        already are in the data's order), and the scored data."""

    def with_scores(
        self, data: Any, prediction_column: str, reference_column: str, options: Mapping
    ) -> Any:
        settings = ScoreOptions.from_kwargs(**options)
        return self.scored(data, BatchScorer({"": prediction_column}, reference_column, settings))

    def score(
        self,
        data: Any,
        prediction_column: str,
        reference_column: str,
        index_column: str | None,
        options: Mapping,
    ) -> tuple[dict[str, float], Any]:
        """The corpus result and the scored data."""
        settings = checked_options(options)
        scorer = BatchScorer({"": prediction_column}, reference_column, settings)
        table, order, scored = self.gathered(data, scorer, index_column)
        return gathered_scores(table, settings, order).aggregate(), scored

    def compare(
        self,
        data: Any,
        baseline_column: str,
        system_columns: list[str],
        reference_column: str,
        index_column: str | None,
        test: Mapping[str, object] | None,
        options: Mapping,
    ) -> Any:
        settings = checked_options(options)
        predictions = {f"{column}_": column for column in [baseline_column, *system_columns]}
        scorer = BatchScorer(predictions, reference_column, settings)
        table, order, _ = self.gathered(data, scorer, index_column)
        return compare_gathered(
            table, settings, order, baseline_column, list(system_columns), test or {}
        )
