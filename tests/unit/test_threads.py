"""Scoring from several threads at once gives exactly the sequential results.

The compiled kernels release the GIL while counting, so threads really overlap; nothing in a
call may depend on shared mutable state (vocabularies, caches, stemmer memo, chunk buffers).
"""

from __future__ import annotations

import random
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from rouge_plus import RougePlus, RougeScorer

pytestmark = pytest.mark.filterwarnings("ignore:.*produced no tokens:UserWarning")

WORDS = [
    *["the", "cat", "cats", "sat", "sitting", "on", "mat", "running", "runs", "dog"],
    *["Café", "cafe\u0301", "naïve", "猫", "が", "tiếng", "Việt", "नमस्ते", "😀", "42"],
]
SEPARATORS = [" ", " ", " ", "\n", ". ", ", ", "-"]

OPTION_SETS = [
    {},
    {"tokenizer": "rouge_score", "use_stemmer": True, "multi_ref": "pooled"},
    {"use_stemmer": True, "split_sentences": "rules", "multi_ref": "jackknife"},
    {"tokenizer": "whitespace", "multi_ref": "mean", "beta": 2.0},
    {"tokenizer": "char", "multi_ref": "best_recall", "rouge_types": ["rouge1", "rouge4"]},
    {"aggregation": "bootstrap", "n_resamples": 300, "seed": 3, "return_precision_recall": True},
    {"split_sentences": "none", "alpha": 0.2, "rouge_types": ["rougeL", "rougeLsum"]},
]


def _corpus(seed: int, n_rows: int = 120) -> tuple[list[str], list[list[str]]]:
    rng = random.Random(seed)

    def text() -> str:
        n = rng.choice([0, 1, 3, 10, 40, 120])
        return "".join(rng.choice(WORDS) + rng.choice(SEPARATORS) for _ in range(n))

    predictions = [text() for _ in range(n_rows)]
    return predictions, [[text() for _ in range(rng.randint(1, 4))] for _ in range(n_rows)]


def _jobs() -> list[tuple[dict, list[str], list[list[str]]]]:
    return [
        (options, *_corpus(seed=100 * k + repeat))
        for repeat in range(2)
        for k, options in enumerate(OPTION_SETS)
    ]


def _examples(options: dict, predictions, references) -> dict[str, np.ndarray]:
    return RougeScorer(**options).score_examples(predictions, references).scores


def _assert_equal(got: dict, want: dict, what: str) -> None:
    assert got.keys() == want.keys(), what
    for key in want:
        np.testing.assert_array_equal(got[key], want[key], err_msg=f"{what}: {key}")


@pytest.mark.parametrize("workers", [4, 8])
def test_core_scoring_from_threads_equals_sequential(workers):
    jobs = _jobs()
    sequential = [_examples(*job) for job in jobs]
    aggregated = [RougeScorer(**options).score(p, r) for options, p, r in jobs]
    start = threading.Barrier(workers)  # make the first calls really start together

    def run(job):
        if threading.current_thread().name not in started:
            started.add(threading.current_thread().name)
            start.wait(timeout=60)
        options, predictions, references = job
        return _examples(*job), RougeScorer(**options).score(predictions, references)

    started: set[str] = set()
    with ThreadPoolExecutor(max_workers=workers) as pool:
        results = list(pool.map(run, jobs * 2))  # every job twice, interleaved
    for i, (examples, corpus) in enumerate(results):
        job = i % len(jobs)
        _assert_equal(examples, sequential[job], f"job {job} ({jobs[job][0]})")
        assert corpus == aggregated[job], f"job {job} ({jobs[job][0]})"


def test_one_shared_scorer_from_threads_equals_sequential():
    scorer = RougeScorer(use_stemmer=True, split_sentences="rules", return_precision_recall=True)
    corpora = [_corpus(seed) for seed in range(8)]
    sequential = [scorer.score_examples(p, r).scores for p, r in corpora]
    with ThreadPoolExecutor(max_workers=6) as pool:
        results = list(pool.map(lambda c: scorer.score_examples(*c).scores, corpora))
    for k, (got, want) in enumerate(zip(results, sequential, strict=True)):
        _assert_equal(got, want, f"corpus {k}")


def test_evaluate_compute_on_separate_objects_from_threads():
    jobs = [job for job in _jobs() if job[0].get("aggregation") != "bootstrap"][:8]
    kwargs = [options for options, _, _ in jobs]
    sequential = [
        RougePlus().compute(predictions=p, references=r, **o)
        for o, (_, p, r) in zip(kwargs, jobs, strict=True)
    ]
    metrics = [RougePlus(**o) for o in kwargs]  # options given at load time this time

    def run(k: int) -> dict:
        _, predictions, references = jobs[k]
        return metrics[k].compute(predictions=predictions, references=references)

    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(run, range(len(jobs))))
    assert results == sequential
