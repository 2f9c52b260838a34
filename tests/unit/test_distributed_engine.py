"""The body Ray Data and Spark share (``integrations/distributed.py``), under an engine of a
few lines whose data is a list of Arrow partitions, so the shared part is tested without a
cluster (tests/frontends/ start the real ones)."""

from __future__ import annotations

import random

import pytest
from support.score_rows import (
    COMPARISON_OPTIONS,
    COMPARISON_TEST,
    OPTIONS,
    one_process,
    one_process_comparison,
    rows,
)

from rouge_plus.integrations.distributed import BatchScorer, Engine

pa = pytest.importorskip("pyarrow")


class Partitions(Engine):
    """Data as a list of Arrow tables, each scored on its own; gathered in list order."""

    def scored(self, data: list, scorer: BatchScorer) -> list:
        return [scorer(part) for part in data]

    def gathered(self, data: list, scorer: BatchScorer, index_column: str | None):
        scored = self.scored(data, scorer)
        columns = scorer.column_names() + ([index_column] if index_column else [])
        return pa.concat_tables(scored).select(columns), index_column, scored


def partitions(data: list[dict], n: int, seed: int | None = None) -> list:
    """``data`` cut into ``n`` Arrow tables, in a shuffled order when ``seed`` is given."""
    data = list(data)
    if seed is not None:
        random.Random(seed).shuffle(data)
    size = -(-len(data) // n)
    return [pa.Table.from_pylist(data[i : i + size]) for i in range(0, len(data), size)]


def test_the_corpus_result_is_the_one_process_result_in_index_order():
    data = rows(90)
    result, scored = Partitions().score(
        partitions(data, 4, seed=3), "prediction", "references", "id", OPTIONS
    )
    assert result == one_process(data, **OPTIONS).aggregate()
    assert sum(map(len, scored)) == len(data)


def test_without_an_index_the_data_order_is_the_row_order():
    data = rows(60, seed=1)
    result, _ = Partitions().score(partitions(data, 3), "prediction", "references", None, OPTIONS)
    assert result == one_process(data, **OPTIONS).aggregate()


def test_with_scores_adds_the_one_process_columns():
    data = rows(30, seed=2)
    options = {"rouge_types": ["rougeL"], "use_stemmer": True}
    scored = Partitions().with_scores(partitions(data, 2), "prediction", "references", options)
    table = pa.concat_tables(scored)
    expected = one_process(data, **options).columns()
    assert {name: table.column(name).to_pylist() for name in expected} == expected


def test_comparisons_equal_one_process():
    data = rows(60, seed=4)
    got = Partitions().compare(
        partitions(data, 3, seed=5),
        "prediction",
        ["system"],
        "references",
        "id",
        COMPARISON_TEST,
        COMPARISON_OPTIONS,
    )
    assert got == one_process_comparison(data)


def test_errors_name_what_is_wrong():
    data = partitions(rows(4), 1)
    with pytest.raises(ValueError, match="no column 'text'"):
        Partitions().score(data, "text", "references", None, {})
    with pytest.raises(ValueError, match="use_aggregator=False"):
        Partitions().score(data, "prediction", "references", None, {"use_aggregator": False})
    duplicated = partitions([{**row, "id": 0} for row in rows(4)], 2)
    with pytest.raises(ValueError, match="must be unique"):
        Partitions().score(duplicated, "prediction", "references", "id", {})
