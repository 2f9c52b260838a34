"""Distributed evaluation as evaluate defines it: N real processes share one experiment.

Each process loads the metric with ``num_process=N, process_id=i``, adds its shard and calls
``compute()``; process 0 gathers every shard through evaluate's cache files and must return
exactly the single-process result, the others return None.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

import rouge_plus

pytest.importorskip("evaluate")

REPO = Path(__file__).resolve().parents[2]
WORKER = Path(__file__).resolve().parents[1] / "support" / "distributed_worker.py"
ROWS = 120


def start_experiment(
    rows: list[dict], num_process: int, options: dict, tmp_path: Path
) -> list[subprocess.Popen]:
    """Start ``num_process`` workers at once, one per rank."""
    experiment_id = uuid.uuid4().hex
    cache_dir = tmp_path / "cache"
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])),
        "HF_MODULES_CACHE": str(tmp_path / "modules"),
        "HF_HUB_OFFLINE": "1",
        "HF_DATASETS_OFFLINE": "1",
    }
    shard_size = -(-len(rows) // num_process)
    workers = []
    for rank in range(num_process):
        # contiguous shards: process 0 sees the rows in their original order
        shard = rows[rank * shard_size : (rank + 1) * shard_size]
        job = tmp_path / f"job-{experiment_id}-{rank}.json"
        job.write_text(
            json.dumps(
                {
                    "metric_path": str(REPO / "rouge_plus"),
                    "num_process": num_process,
                    "process_id": rank,
                    "experiment_id": experiment_id,
                    "cache_dir": str(cache_dir),
                    "predictions": [row["prediction"] for row in shard],
                    "references": [row["references"] for row in shard],
                    "options": options,
                }
            )
        )
        workers.append(
            subprocess.Popen(
                [sys.executable, str(WORKER), str(job)],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                env=env,
            )
        )
    return workers


def results_of(workers: list[subprocess.Popen]) -> list:
    """The parsed ``compute()`` result of every worker, rank order."""
    results = []
    for worker in workers:
        out, err = worker.communicate(timeout=180)
        assert worker.returncode == 0, err
        results.append(json.loads(out))
    return results


def leftovers(tmp_path: Path) -> list[str]:
    return sorted(p.name for p in (tmp_path / "cache").rglob("*") if p.is_file())


@pytest.fixture(scope="module")
def rows(bench_rows):
    return bench_rows[:ROWS]


EXPERIMENTS = {  # number of processes -> compute options
    2: {"aggregation": "bootstrap", "n_resamples": 300, "seed": 7},
    4: {"rouge_types": ["rouge1", "rougeLsum"], "return_precision_recall": True},
}


@pytest.fixture(scope="module")
def runs(rows, tmp_path_factory) -> dict[int, tuple[dict, list, Path]]:
    """Both experiments run at the same time (separate experiment ids and cache dirs)."""
    started = {}
    for num_process, options in EXPERIMENTS.items():
        tmp_path = tmp_path_factory.mktemp(f"n{num_process}")
        started[num_process] = (
            options,
            start_experiment(rows, num_process, options, tmp_path),
            tmp_path,
        )
    return {
        n: (options, results_of(workers), tmp) for n, (options, workers, tmp) in started.items()
    }


@pytest.mark.slow  # the six processes of `runs` take over a minute
@pytest.mark.parametrize("num_process", sorted(EXPERIMENTS))
def test_process_zero_returns_the_single_process_result(num_process, rows, runs):
    options, results, _ = runs[num_process]
    expected = rouge_plus.score(
        [row["prediction"] for row in rows], [row["references"] for row in rows], **options
    )
    assert results[0] == expected
    assert results[1:] == [None] * (len(results) - 1)


@pytest.mark.slow
@pytest.mark.parametrize("num_process", sorted(EXPERIMENTS))
def test_no_cache_or_lock_file_is_left_behind(num_process, runs):
    _, _, tmp_path = runs[num_process]
    assert leftovers(tmp_path) == []


def test_gather_example_equals_one_process():
    example = REPO / "examples" / "distributed_reduce.py"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    completed = subprocess.run(
        [sys.executable, str(example), "--world-size", "3"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert completed.returncode == 0, completed.stderr  # the example asserts the equality
    assert completed.stdout.splitlines()[0].split()[0] == "rouge1"
