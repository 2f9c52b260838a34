"""Every vector in ../shared/vectors whose oracle is rouge_score reproduces exactly."""

from __future__ import annotations

import pytest

from rouge_plus import RougeScorer


def _rouge_score_vectors(vectors: list[dict]) -> list[dict]:
    rows = [v for v in vectors if v["oracle"].startswith("rouge_score")]
    assert len(rows) == 30, "the vector file changed: recount the rouge_score rows"
    return rows


def test_rouge_score_vectors(reference_vectors):
    for vector in _rouge_score_vectors(reference_vectors):
        expected = vector["scores_precision_recall_f"]
        scorer = RougeScorer(list(expected), **vector["options"])
        scores = scorer.score_examples([vector["prediction"]], [vector["references"]]).scores
        for rouge_type, triple in expected.items():
            assert list(scores[rouge_type][0]) == pytest.approx(triple, abs=1e-12), (
                f"{vector['id']} {vector['options']} {rouge_type}"
            )
