"""The plan of the Space's option dict (``rouge_plus.score`` keywords), as a request builds it."""

from __future__ import annotations

from rouge_plus.plan import ScoringPlan
from rouge_plus.space.scoring import score_options


def scoring_plan(options: dict) -> ScoringPlan:
    """The plan of ``options``, resolved once; ``InputError`` if invalid."""
    return ScoringPlan(score_options(options))
