"""Scoring from typed code: what a type checker sees of rouge_plus's scoring API.

``tests/unit/test_typing.py`` runs ``mypy --strict`` on this file (and the other examples), so
each annotation below is one a user can write and rely on::

    python examples/typed_scoring.py
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

import rouge_plus
from rouge_plus import ExampleScores, RougeScorer, ScoreOptions

PREDICTIONS = ["the cat sat on the mat", "a dog barked at the moon"]
REFERENCES = [["a cat sat on the mat", "the cat is sitting"], ["the dog barks"]]


def corpus_f(predictions: list[str], references: list[list[str]]) -> dict[str, float]:
    """Corpus F of each type, from the one-call API."""
    return rouge_plus.score(predictions, references, rouge_types=["rouge1", "rougeL"])


def per_example(predictions: list[str], references: list[list[str]]) -> dict[str, list[float]]:
    """One F per prediction, from the one-call API."""
    return rouge_plus.score(predictions, references, use_aggregator=False, use_stemmer=True)


def precision_recall_f(
    predictions: list[str], references: list[list[str]]
) -> dict[str, list[float]]:
    """Precision, recall and F of each prediction, from a scorer whose options are resolved
    once (``score`` gives the corpus scores or these, as ``use_aggregator`` says)."""
    scorer = RougeScorer(["rouge1", "rouge2"], use_stemmer=True)
    return scorer.score_examples(predictions, references).per_example()


def arrays(predictions: list[str], references: list[list[str]]) -> npt.NDArray[np.float64]:
    """Precision, recall and F of every prediction under ROUGE-L, as a (n, 3) array."""
    scores: ExampleScores = RougeScorer(["rougeL"]).score_examples(predictions, references)
    options: ScoreOptions = scores.options
    assert options.use_aggregator
    return scores.scores["rougeL"]


def similarity(texts: list[str]) -> npt.NDArray[np.float64]:
    """ROUGE-L F of every text against every other."""
    return rouge_plus.pairwise(texts, rouge_type="rougeL")


def main() -> None:
    print(corpus_f(PREDICTIONS, REFERENCES))
    print(per_example(PREDICTIONS, REFERENCES))
    print(precision_recall_f(PREDICTIONS, REFERENCES))
    print(arrays(PREDICTIONS, REFERENCES).round(3))
    print(similarity([p for p in PREDICTIONS]).round(3))
    kept = rouge_plus.dedupe(["the cat sat", "the cat sat!", "a dog"], threshold=0.7).kept
    print(f"kept {list(kept)} of 3 texts; rouge_plus {rouge_plus.__version__}")


if __name__ == "__main__":
    main()
