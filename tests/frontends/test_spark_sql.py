"""Spark: per-example columns and corpus results on ``local[2]`` equal a single-process run on
the same rows, exactly (bootstrap and paired tests included). Needs a Java runtime."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest
from support.score_rows import (
    COMPARISON_OPTIONS,
    COMPARISON_TEST,
    OPTIONS,
    one_process,
    one_process_comparison,
    rows,
)
from support.time_limit import time_limit

from rouge_plus.integrations import spark_sql

pytest.importorskip("pyspark")
if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
    pytest.skip("Spark needs a Java runtime (openjdk-17-jre-headless)", allow_module_level=True)

# A local Spark session of 2 CPUs: its start and first job take over a minute.
pytestmark = [
    pytest.mark.slow,
    pytest.mark.filterwarnings(
        "ignore::DeprecationWarning", "ignore::FutureWarning", "ignore::ResourceWarning"
    ),
]

REPO = Path(__file__).resolve().parents[2]
START_LIMIT = 300  # seconds to start the JVM and the session
TEST_LIMIT = 300  # seconds per test


@pytest.fixture(scope="module")
def spark():
    """A ``local[2]`` session whose Python workers run this interpreter on this checkout."""
    from pyspark.sql import SparkSession

    saved = {name: os.environ.get(name) for name in ("PYSPARK_PYTHON", "PYTHONPATH")}
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), saved["PYTHONPATH"]]))
    with time_limit(START_LIMIT, "starting Spark"):
        session = (
            SparkSession.builder.master("local[2]")
            .appName("rouge_plus tests")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "2")
            .config("spark.sql.execution.arrow.maxRecordsPerBatch", "64")
            .getOrCreate()
        )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()
    for name, value in saved.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


@pytest.fixture
def limited():
    with time_limit(TEST_LIMIT, "the test"):
        yield


def _frame(spark, data: list[dict], partitions: int = 3):
    columns = list(data[0])
    return spark.createDataFrame(
        [tuple(row[c] for c in columns) for row in data], columns
    ).repartition(partitions)


def test_columns_and_corpus_results_equal_one_process(spark, limited):
    data = rows(300)
    frame = _frame(spark, data)  # repartitioned: rows come back in another order
    assert spark_sql.score_spark_dataframe(frame, index_column="id", **OPTIONS) == (
        one_process(data, **OPTIONS).aggregate()
    )
    expected = one_process(data, **OPTIONS).columns()
    table = spark_sql.with_scores(frame, **OPTIONS).toPandas().sort_values("id")
    assert {name: table[name].tolist() for name in expected} == expected


def test_without_an_index_the_dataframe_order_is_kept(spark, limited):
    data = [{**row, "references": row["references"][0]} for row in rows(200, seed=1)]
    frame = spark.createDataFrame(
        [(row["prediction"], row["references"]) for row in data], ["prediction", "references"]
    )
    options = {**OPTIONS, "tokenizer": "rouge_score", "use_stemmer": True}
    assert (
        spark_sql.score_spark_dataframe(frame, **options)
        == one_process(data, **options).aggregate()
    )


def test_errors_name_what_is_wrong(spark, limited):
    frame = _frame(spark, rows(4), partitions=1)
    with pytest.raises(ValueError, match="no column 'text'"):
        spark_sql.score_spark_dataframe(frame, "text")
    scored = spark_sql.with_scores(frame, rouge_types=["rougeL"])
    with pytest.raises(ValueError, match="already has score columns: rougeL_precision"):
        spark_sql.with_scores(scored, rouge_types=["rougeL"])
    duplicated = _frame(spark, [{**row, "id": 0} for row in rows(4)], partitions=1)
    with pytest.raises(ValueError, match="must be unique"):
        spark_sql.score_spark_dataframe(duplicated, index_column="id")
    with pytest.raises(ValueError, match="use_aggregator=False"):
        spark_sql.score_spark_dataframe(frame, use_aggregator=False)


def test_comparisons(spark, limited):
    data = rows(120, seed=4)
    frame = _frame(spark, data)
    got = spark_sql.compare_spark_dataframe(
        frame,
        "prediction",
        ["system"],
        index_column="id",
        test=COMPARISON_TEST,
        **COMPARISON_OPTIONS,
    )
    assert got == one_process_comparison(data)


def test_a_missing_extra_names_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyspark.sql", None)
    with pytest.raises(ImportError, match=r"pip install \"\.\[distributed\]\""):
        spark_sql.with_scores(object())
