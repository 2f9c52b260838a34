"""score_dataset on datasets.Dataset / IterableDataset equals rouge_plus.score on the columns."""

from __future__ import annotations

import pytest

import rouge_plus

datasets = pytest.importorskip("datasets")
from rouge_plus.integrations.hf_datasets import score_dataset  # noqa: E402

ROWS = 300  # enough rows for several batches and two worker processes, still quick


@pytest.fixture(scope="module")
def multi_ref_dataset(bench_rows):
    rows = bench_rows[:ROWS]
    return datasets.Dataset.from_dict(
        {
            "prediction": [row["prediction"] for row in rows],
            # a second reference on every other row: rows with one and with two references
            "references": [
                row["references"] + ([rows[i - 1]["references"][0]] if i % 2 else [])
                for i, row in enumerate(rows)
            ],
        }
    )


@pytest.fixture(scope="module")
def single_ref_dataset(bench_rows):
    rows = bench_rows[:ROWS]
    return datasets.Dataset.from_dict(
        {
            "summary": [row["prediction"] for row in rows],
            "highlights": [row["references"][0] for row in rows],
        }
    )


def test_list_of_references_per_row_with_two_processes(multi_ref_dataset):
    options = {"aggregation": "bootstrap", "n_resamples": 200, "return_precision_recall": True}
    result = score_dataset(multi_ref_dataset, num_proc=2, batch_size=64, **options)
    expected = rouge_plus.score(
        multi_ref_dataset["prediction"], multi_ref_dataset["references"], **options
    )
    assert result == expected  # exact floats: the same per-example rows, aggregated once
    assert "rouge1_low" in result


def test_one_reference_per_row_and_custom_columns(single_ref_dataset):
    result = score_dataset(
        single_ref_dataset,
        "summary",
        "highlights",
        rouge_types=["rouge2", "rougeLsum"],
        tokenizer="whitespace",
        batch_size=100,
    )
    expected = rouge_plus.score(
        single_ref_dataset["summary"],
        single_ref_dataset["highlights"],
        rouge_types=["rouge2", "rougeLsum"],
        tokenizer="whitespace",
    )
    assert result == expected
    assert list(result) == ["rouge2", "rougeLsum"]


def test_add_scores_returns_per_example_columns(multi_ref_dataset):
    result, scored = score_dataset(multi_ref_dataset, add_scores=True, rouge_types=["rougeL"])
    assert scored.column_names == [
        "prediction",
        "references",
        "rougeL_precision",
        "rougeL_recall",
        "rougeL_fmeasure",
    ]
    per_example = rouge_plus.score(
        multi_ref_dataset["prediction"],
        multi_ref_dataset["references"],
        rouge_types=["rougeL"],
        use_aggregator=False,
        return_precision_recall=True,
    )
    assert scored["rougeL_recall"] == per_example["rougeL_recall"]
    assert scored["rougeL_fmeasure"] == per_example["rougeL"]
    assert result == rouge_plus.score(
        multi_ref_dataset["prediction"], multi_ref_dataset["references"], rouge_types=["rougeL"]
    )


def test_iterable_dataset_is_read_in_batches(multi_ref_dataset):
    stream = multi_ref_dataset.to_iterable_dataset(num_shards=3)
    result = score_dataset(stream, batch_size=50, aggregation="bootstrap", n_resamples=200)
    expected = rouge_plus.score(
        multi_ref_dataset["prediction"],
        multi_ref_dataset["references"],
        aggregation="bootstrap",
        n_resamples=200,
    )
    assert result == expected


def test_iterable_dataset_refuses_add_scores(multi_ref_dataset):
    with pytest.raises(ValueError, match="map-style"):
        score_dataset(multi_ref_dataset.to_iterable_dataset(), add_scores=True)


def test_missing_column_and_dataset_dict_are_reported(multi_ref_dataset):
    with pytest.raises(ValueError, match="no column 'pred'"):
        score_dataset(multi_ref_dataset, "pred")
    with pytest.raises(TypeError, match="pass one split"):
        score_dataset(datasets.DatasetDict({"test": multi_ref_dataset}))


def test_bad_row_names_the_row():
    broken = datasets.Dataset.from_dict({"prediction": ["a b", None], "references": ["a", "b"]})
    with pytest.raises(TypeError, match=r"predictions\[1\] is None"):
        score_dataset(broken)


def test_no_progress_bar_where_stderr_is_not_a_terminal(single_ref_dataset, capfd):
    """Under pytest stderr is captured, not a terminal: map's bar would write a line per update
    there. It is off for the call, and as it was afterwards."""
    assert datasets.is_progress_bar_enabled()
    score_dataset(single_ref_dataset, "summary", "highlights")
    assert "rouge_plus" not in capfd.readouterr().err
    assert datasets.is_progress_bar_enabled()
