"""Rows for the distributed front ends' tests: predictions, one or several references each, an
id column, and a single-process oracle to compare with."""

from __future__ import annotations

import random

from rouge_plus import RougeScorer

WORDS = [
    *["the", "cat", "sat", "on", "mat", "dogs", "ran", "across", "green", "fields"],
    *["children", "laughed", "at", "old", "man", "who", "sold", "red", "apples", "Café"],
]
OPTIONS = {
    "rouge_types": ["rouge1", "rouge2", "rougeL", "rougeLsum"],
    "aggregation": "bootstrap",
    "n_resamples": 200,
    "seed": 7,
    "return_precision_recall": True,
}


def rows(n: int, seed: int = 0) -> list[dict]:
    """``n`` rows with ids 0 .. n - 1 and a baseline and a system prediction each."""
    rng = random.Random(seed)

    def text() -> str:
        sentences = [" ".join(rng.choices(WORDS, k=rng.randint(0, 9))) for _ in range(2)]
        return "\n".join(sentences)

    return [
        {
            "id": i,
            "prediction": text(),
            "system": text(),
            "references": [text() for _ in range(rng.randint(1, 3))],
        }
        for i in range(n)
    ]


def one_process(data: list[dict], column: str = "prediction", **options):
    """What rouge_plus computes on the same rows in one process: ``ExampleScores``."""
    predictions = [row[column] for row in data]
    references = [row["references"] for row in data]
    return RougeScorer(**options).score_examples(predictions, references)


# The comparison both distributed front ends are checked against.
COMPARISON_TEST = {"method": "bootstrap", "n_resamples": 300, "seed": 1}
COMPARISON_OPTIONS = {"rouge_types": ["rouge1", "rougeL"]}


def one_process_comparison(data: list[dict]):
    """The "system" column against "prediction" under ``COMPARISON_TEST``, in one process."""
    from rouge_plus.comparison import compare_scores

    baseline = one_process(data, **COMPARISON_OPTIONS)
    system = one_process(data, "system", **COMPARISON_OPTIONS)
    return compare_scores(
        baseline.scores,
        {"system": system.scores},
        signature=baseline.signature,
        baseline_name="prediction",
        **COMPARISON_TEST,
    )
