"""Comparing systems and meta-evaluating ROUGE from typed code: ``compare`` (paired tests of
systems against a baseline) and ``correlate`` (agreement with human judgments), as a type
checker sees them. ``tests/unit/test_typing.py`` runs ``mypy --strict`` on this file::

    python examples/typed_evaluation.py
"""

from __future__ import annotations

import rouge_plus
from rouge_plus.comparison import Comparison, ComparisonRow
from rouge_plus.meta import Correlation, Judgments

REFERENCES = ["the cat sat on the mat", "the dog barked", "it rained all day", "birds sang"]
BASELINE = ["a cat on a mat", "a dog", "rain", "a bird"]
SYSTEM = ["the cat sat on a mat", "the dog barked loudly", "it rained", "birds sang at dawn"]


def significant_gains(comparison: Comparison, alpha: float = 0.05) -> list[ComparisonRow]:
    """The (system, type) rows whose difference from the baseline is significant."""
    return [row for row in comparison.rows if row.p_value < alpha and row.delta > 0]


def system_level_kendall(judgments: Judgments) -> Correlation:
    """How well ROUGE-1.5.5's stored ROUGE-1 recall ranks REALSumm's systems."""
    metric = judgments.metrics["rouge_1_recall"]
    return rouge_plus.correlate(
        metric, judgments.human[judgments.primary], level="system", n_resamples=200
    )


def by_name(judgments: Judgments) -> dict[str, Correlation]:
    """Every stored metric's summary-level correlation, one draw of resamples for all."""
    return rouge_plus.correlate(
        dict(judgments.metrics), judgments.human[judgments.primary], level="summary", resample=None
    )


def main() -> None:
    comparison = rouge_plus.compare(
        BASELINE, {"system": SYSTEM}, REFERENCES, n_resamples=500, rouge_types=["rouge1"]
    )
    print(comparison.to_table())
    print([(row.system, row.rouge_type) for row in significant_gains(comparison)])
    judgments = rouge_plus.realsumm()
    print(system_level_kendall(judgments))
    print({name: round(c.value, 3) for name, c in by_name(judgments).items()})
    difference = rouge_plus.compare_correlations(
        judgments.metrics["rouge_2_recall"],
        judgments.metrics["rouge_1_recall"],
        judgments.human[judgments.primary],
        n_resamples=100,
    )
    print(f"ROUGE-2 recall - ROUGE-1 recall: {difference.difference:+.3f}")


if __name__ == "__main__":
    main()
