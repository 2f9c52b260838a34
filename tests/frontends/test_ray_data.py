"""Ray Data: per-example columns and corpus results on a local cluster of 2 CPUs equal a
single-process run on the same rows, exactly (bootstrap and paired tests included)."""

from __future__ import annotations

import os
import sys
import time
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

from rouge_plus.integrations import ray_data

ray = pytest.importorskip("ray")
pytest.importorskip("ray.data")

# A local cluster of 2 CPUs: its start and first job take over 20 s.
pytestmark = [
    pytest.mark.slow,
    pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::FutureWarning"),
]

REPO = Path(__file__).resolve().parents[2]
START_LIMIT = 240  # seconds to start the local cluster
TEST_LIMIT = 300  # seconds per test


@pytest.fixture(scope="module")
def cluster():
    """A local Ray cluster with 2 CPUs whose workers import this checkout."""
    path = os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))
    with time_limit(START_LIMIT, "starting Ray"):
        ray.init(
            num_cpus=2,
            include_dashboard=False,
            log_to_driver=False,
            runtime_env={"env_vars": {"PYTHONPATH": path}},
        )
    ray.data.DataContext.get_current().enable_progress_bars = False
    yield ray
    ray.shutdown()


@pytest.fixture
def limited():
    with time_limit(TEST_LIMIT, "the test"):
        yield


def _sorted_columns(dataset, names: list[str]) -> dict[str, list[float]]:
    table = dataset.to_pandas().sort_values("id")
    return {name: table[name].tolist() for name in names}


def test_columns_and_corpus_results_equal_one_process(cluster, limited):
    data = rows(300)
    dataset = cluster.data.from_items(data, override_num_blocks=6).random_shuffle(seed=3)
    result, scored = ray_data.score_ray_dataset(
        dataset, index_column="id", add_scores=True, **OPTIONS
    )
    expected = one_process(data, **OPTIONS)
    assert result == expected.aggregate()
    columns = expected.columns()
    assert _sorted_columns(scored, list(columns)) == columns


def test_without_an_index_the_dataset_order_is_kept(cluster, limited):
    def slow_first_block(batch: dict) -> dict:
        """Delays the block holding row 0, so that it finishes last (nested, so that Ray
        ships the function itself: its workers cannot import this test module)."""
        if batch["id"][0] == 0:
            time.sleep(2)
        return batch

    data = rows(200, seed=1)
    dataset = cluster.data.from_items(data, override_num_blocks=5)
    dataset = dataset.map_batches(slow_first_block, batch_size=None)
    expected = one_process(data, **OPTIONS).aggregate()
    # One block per scoring task: without the order kept, row 0's block would come back last.
    assert ray_data.score_ray_dataset(dataset, batch_size=40, **OPTIONS) == expected


def test_with_scores_on_single_references(cluster, limited):
    data = [{**row, "references": row["references"][0]} for row in rows(50, seed=2)]
    options = {"rouge_types": ["rougeL"], "tokenizer": "rouge_score", "use_stemmer": True}
    scored = ray_data.with_scores(cluster.data.from_items(data, override_num_blocks=3), **options)
    expected = one_process(data, **options).columns()
    assert _sorted_columns(scored, list(expected)) == expected


def test_errors_name_what_is_wrong(cluster, limited):
    dataset = cluster.data.from_items(rows(4))
    with pytest.raises(ValueError, match="no column 'text'"):
        ray_data.score_ray_dataset(dataset, "text")
    scored = ray_data.with_scores(dataset, rouge_types=["rougeL"])
    with pytest.raises(ValueError, match="already has score columns: rougeL_precision"):
        ray_data.score_ray_dataset(scored.materialize(), rouge_types=["rougeL"])
    with pytest.raises(Exception, match="already has score columns"):  # found on a worker
        ray_data.score_ray_dataset(scored, rouge_types=["rougeL"])
    with pytest.raises(ValueError, match="must be unique"):
        duplicated = cluster.data.from_items([{**row, "id": 0} for row in rows(4)])
        ray_data.score_ray_dataset(duplicated, index_column="id")
    with pytest.raises(ValueError, match="use_aggregator=False"):
        ray_data.score_ray_dataset(dataset, use_aggregator=False)


def test_comparisons(cluster, limited):
    data = rows(120, seed=4)
    dataset = cluster.data.from_items(data, override_num_blocks=4).random_shuffle(seed=5)
    got = ray_data.compare_ray_dataset(
        dataset,
        "prediction",
        ["system"],
        index_column="id",
        test=COMPARISON_TEST,
        **COMPARISON_OPTIONS,
    )
    assert got == one_process_comparison(data)


def test_a_missing_extra_names_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(ImportError, match=r"pip install \"\.\[distributed\]\""):
        ray_data.with_scores(object())
