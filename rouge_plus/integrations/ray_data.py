"""Scoring a Ray Dataset where it is.

:func:`with_scores` adds per-example ``<type>_precision``/``_recall``/``_fmeasure`` columns with
``map_batches`` on the cluster's workers (Arrow batches, the batch core of
:func:`rouge_plus.scorer.score_examples`). :func:`score_ray_dataset` and
:func:`compare_ray_dataset` then gather only the score columns to the driver, in row order, and
compute the corpus result once, so it equals :func:`rouge_plus.score` (bootstrap included) on
the same rows in that order: the order of ``index_column`` when given, else the dataset's own
order (kept for the call as Ray's ``preserve_order`` keeps it).

Named ``ray_data`` so it does not shadow the ``ray`` package; needs ``rouge-plus[distributed]``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from .distributed import BatchScorer, Engine, missing_extra

BATCH_SIZE = 1024


def _ray() -> Any:
    try:
        import ray
        import ray.data
    except ImportError as error:
        raise missing_extra("Ray Data") from error
    return ray


@contextmanager
def _in_order(dataset: Any, keep_order: bool) -> Iterator[None]:
    """Ray's ``preserve_order`` for executions of ``dataset`` within the block (the setting
    lives in the context the dataset shares with its parents; it is restored after)."""
    options = dataset.context.execution_options
    previous = options.preserve_order
    options.preserve_order = previous or keep_order
    try:
        yield
    finally:
        options.preserve_order = previous


class _RayData(Engine):
    """Batches of ``batch_size`` rows scored by ``map_batches``; the scored dataset kept in the
    object store when ``materialize``."""

    def __init__(self, batch_size: int, materialize: bool = False) -> None:
        self.batch_size = batch_size
        self.materialize = materialize

    def scored(self, data: Any, scorer: BatchScorer) -> Any:
        _ray()
        schema = data.schema(fetch_if_missing=False)  # None when only an execution would tell
        if schema is not None:
            scorer.check(schema.names)
        return data.map_batches(scorer, batch_format="pyarrow", batch_size=self.batch_size)

    def gathered(
        self, data: Any, scorer: BatchScorer, index_column: str | None
    ) -> tuple[Any, str | None, Any]:
        import pyarrow as pa

        ray = _ray()
        scored = self.scored(data, scorer)
        columns = scorer.column_names() + ([index_column] if index_column else [])
        with _in_order(scored, index_column is None):
            if self.materialize:
                scored = scored.materialize()
            table = pa.concat_tables(ray.get(scored.select_columns(columns).to_arrow_refs()))
        return table, index_column, scored


def with_scores(
    dataset: Any,
    prediction_column: str = "prediction",
    reference_column: str = "references",
    *,
    batch_size: int = BATCH_SIZE,
    **options: object,
) -> Any:
    """``dataset`` (a ``ray.data.Dataset``) with ``<type>_precision``/``_recall``/``_fmeasure``
    columns, computed lazily on the workers; ``options`` are those of :func:`rouge_plus.score`.
    ``reference_column`` holds one reference text or a list of texts per row."""
    return _RayData(batch_size).with_scores(dataset, prediction_column, reference_column, options)


def score_ray_dataset(
    dataset: Any,
    prediction_column: str = "prediction",
    reference_column: str = "references",
    *,
    index_column: str | None = None,
    batch_size: int = BATCH_SIZE,
    add_scores: bool = False,
    **options: object,
) -> dict[str, float] | tuple[dict[str, float], Any]:
    """Corpus ROUGE of a ``ray.data.Dataset``, equal to :func:`rouge_plus.score` on the same
    rows in the order of ``index_column`` (unique values; default: the dataset's order).

    Returns the aggregate dict, or with ``add_scores=True`` ``(aggregate, dataset)``, the
    materialized dataset with the per-example columns of :func:`with_scores`.
    """
    engine = _RayData(batch_size, materialize=add_scores)
    result, scored = engine.score(
        dataset, prediction_column, reference_column, index_column, options
    )
    return (result, scored) if add_scores else result


def compare_ray_dataset(
    dataset: Any,
    baseline_column: str,
    system_columns: list[str],
    reference_column: str = "references",
    *,
    index_column: str | None = None,
    batch_size: int = BATCH_SIZE,
    test: Mapping[str, object] | None = None,
    **options: object,
) -> Any:
    """Paired significance tests of each system column against the baseline column on the same
    references (``rouge_plus.comparison.compare_scores`` with the settings ``test``, e.g.
    ``{"method": "bootstrap", "n_resamples": 1000}``), from per-example scores computed on the
    workers and gathered in row order as in :func:`score_ray_dataset`."""
    return _RayData(batch_size).compare(
        dataset, baseline_column, system_columns, reference_column, index_column, test, options
    )
