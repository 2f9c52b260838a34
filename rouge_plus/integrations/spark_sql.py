"""Scoring a Spark DataFrame where it is.

:func:`with_scores` adds per-example ``<type>_precision``/``_recall``/``_fmeasure`` columns with
``mapInArrow`` on the executors (Arrow record batches, the batch core of
:func:`rouge_plus.scorer.score_examples`). :func:`score_spark_dataframe` and
:func:`compare_spark_dataframe` then collect only the score columns, in row order, and compute
the corpus result once on the driver, so it equals :func:`rouge_plus.score` (bootstrap included)
on the same rows in that order: the order of ``index_column`` when given, else the DataFrame's
own order (partition by partition, numbered with ``monotonically_increasing_id``).

Named ``spark_sql`` so it does not shadow ``pyspark``; needs ``rouge-plus[distributed]``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .distributed import BatchScorer, Engine, missing_extra

# The row number added when no index column is given.
ROW_NUMBER = "__rouge_plus_row"


def _spark_sql() -> Any:
    try:
        from pyspark.sql import functions, types
    except ImportError as error:
        raise missing_extra("PySpark") from error
    return functions, types


def _numbered(dataframe: Any, index_column: str | None) -> tuple[Any, str]:
    """The DataFrame and the column that orders its rows (a row number added if none)."""
    if index_column is not None:
        return dataframe, index_column
    functions, _ = _spark_sql()
    return dataframe.withColumn(ROW_NUMBER, functions.monotonically_increasing_id()), ROW_NUMBER


class _SparkSQL(Engine):
    """Partitions scored by ``mapInArrow``; the rows ordered by the index column or a row
    number."""

    def scored(self, data: Any, scorer: BatchScorer) -> Any:
        _, types = _spark_sql()
        scorer.check(data.columns)
        schema = types.StructType(
            [*data.schema.fields]
            + [types.StructField(name, types.DoubleType(), False) for name in scorer.column_names()]
        )
        return data.mapInArrow(scorer.each, schema)

    def gathered(
        self, data: Any, scorer: BatchScorer, index_column: str | None
    ) -> tuple[Any, str | None, Any]:
        numbered, index = _numbered(data, index_column)
        scored = self.scored(numbered, scorer)
        return scored.select(index, *scorer.column_names()).toArrow(), index, scored


_SPARK = _SparkSQL()


def with_scores(
    dataframe: Any,
    prediction_column: str = "prediction",
    reference_column: str = "references",
    **options: object,
) -> Any:
    """``dataframe`` (a ``pyspark.sql.DataFrame``) with ``<type>_precision``/``_recall``/
    ``_fmeasure`` double columns, computed lazily on the executors; ``options`` are those of
    :func:`rouge_plus.score`. ``reference_column`` holds a string or an array of strings."""
    return _SPARK.with_scores(dataframe, prediction_column, reference_column, options)


def score_spark_dataframe(
    dataframe: Any,
    prediction_column: str = "prediction",
    reference_column: str = "references",
    *,
    index_column: str | None = None,
    **options: object,
) -> dict[str, float]:
    """Corpus ROUGE of a ``pyspark.sql.DataFrame``, equal to :func:`rouge_plus.score` on the
    same rows in the order of ``index_column`` (unique values; default: the DataFrame's order).
    """
    return _SPARK.score(dataframe, prediction_column, reference_column, index_column, options)[0]


def compare_spark_dataframe(
    dataframe: Any,
    baseline_column: str,
    system_columns: list[str],
    reference_column: str = "references",
    *,
    index_column: str | None = None,
    test: Mapping[str, object] | None = None,
    **options: object,
) -> Any:
    """Paired significance tests of each system column against the baseline column on the same
    references (``rouge_plus.comparison.compare_scores`` with the settings ``test``), from
    per-example scores computed on the executors and collected in row order as in
    :func:`score_spark_dataframe`."""
    return _SPARK.compare(
        dataframe, baseline_column, system_columns, reference_column, index_column, test, options
    )
