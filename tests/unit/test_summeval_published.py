"""SummEval's published ROUGE correlations reproduced: ``profile="rouge155"`` with stemming, one
reference and all eleven (ROUGE-1.5.5's own multi-reference average, the profile's default
``multi_ref``), against the experts' relevance."""

from __future__ import annotations

import numpy as np
import pytest

import rouge_plus
from rouge_plus.meta.correlation import level_correlation

# Source: sacrerouge, doc/datasets/fabbri2020.md (danieldeutsch/sacrerouge, commit 5ad13ea),
# "Correlations" tables: ROUGE-1.5.5 with stemming against SummEval's expert relevance, Pearson r
# and Kendall k, rounded to 2 decimals there. (references, level) -> measure -> (r, k).
PUBLISHED = {
    (1, "summary"): {
        "rouge1_precision": (0.13, 0.09),
        "rouge1_recall": (0.31, 0.23),
        "rouge1_fmeasure": (0.28, 0.20),
        "rouge2_precision": (0.15, 0.09),
        "rouge2_recall": (0.26, 0.18),
        "rouge2_fmeasure": (0.23, 0.14),
    },
    (1, "system"): {
        "rouge1_precision": (0.29, 0.03),
        "rouge1_recall": (0.55, 0.42),
        "rouge1_fmeasure": (0.61, 0.50),
        "rouge2_precision": (0.49, 0.25),
        "rouge2_recall": (0.65, 0.57),
        "rouge2_fmeasure": (0.64, 0.43),
    },
    (11, "summary"): {
        "rouge1_precision": (0.13, 0.10),
        "rouge1_recall": (0.33, 0.23),
        "rouge1_fmeasure": (0.36, 0.25),
        "rouge2_precision": (0.20, 0.16),
        "rouge2_recall": (0.34, 0.24),
        "rouge2_fmeasure": (0.33, 0.22),
    },
    (11, "system"): {
        "rouge1_precision": (0.03, 0.02),
        "rouge1_recall": (0.38, 0.23),
        "rouge1_fmeasure": (0.55, 0.58),
        "rouge2_precision": (0.34, 0.13),
        "rouge2_recall": (0.41, 0.23),
        "rouge2_fmeasure": (0.57, 0.43),
    },
}
# The bar at the system level; the summary level, over 100 documents, is held closer.
TOLERANCE = {"system": (0.02, 0.05), "summary": (0.02, 0.02)}


@pytest.fixture(scope="module")
def scores():
    data = rouge_plus.summeval()
    out = {}
    for references in (1, 11):
        predictions, refs = data.pairs(references)
        found = rouge_plus.score(
            predictions,
            refs,
            rouge_types=["rouge1", "rouge2"],
            profile="rouge155",
            use_stemmer=True,
            use_aggregator=False,
            return_precision_recall=True,
        )
        shape = data.human["relevance"].shape
        out[references] = {name: np.array(found[name]).reshape(shape) for name in found}
    return data.human["relevance"], out


@pytest.mark.parametrize(("references", "level"), sorted(PUBLISHED))
def test_summeval_correlations_equal_the_published_ones(scores, references, level):
    human, by_references = scores
    pearson_tolerance, kendall_tolerance = TOLERANCE[level]
    for measure, (r, k) in PUBLISHED[references, level].items():
        metric = by_references[references][measure]
        ours_r = float(level_correlation(metric, human, level, "pearson")[0])
        ours_k = float(level_correlation(metric, human, level, "kendall")[0])
        assert ours_r == pytest.approx(r, abs=pearson_tolerance), (measure, "pearson")
        assert ours_k == pytest.approx(k, abs=kendall_tolerance), (measure, "kendall")


def test_eleven_references_turn_the_ranking_towards_f(scores):
    """Fabbri et al.'s finding: with 11 references ROUGE-1 F overtakes ROUGE-2 recall at the
    system level (Kendall), which one reference has the other way round."""
    human, by_references = scores

    def tau(references, measure):
        metric = by_references[references][measure]
        return float(level_correlation(metric, human, "system", "kendall")[0])

    assert tau(1, "rouge2_recall") > tau(1, "rouge1_fmeasure")
    assert tau(11, "rouge1_fmeasure") > tau(11, "rouge2_recall")
