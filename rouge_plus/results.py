"""Per-example scores and the flat result dicts built from them."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .aggregation import Interval, bootstrap_interval, mean_scores, rouge155_interval
from .options import ScoreOptions

_COLUMNS = ("precision", "recall", "fmeasure")


@dataclass(frozen=True)
class ExampleScores:
    """Per-example scores: for each ROUGE type an ``(n, 3)`` array of precision, recall, F."""

    scores: dict[str, np.ndarray]
    signature: str

    def __len__(self) -> int:
        return len(next(iter(self.scores.values())))


def _flat_keys(name: str, values: np.ndarray, with_pr: bool, suffix: str = "") -> dict:
    keys = {f"{name}{suffix}": values[..., 2]}
    if with_pr:
        keys.update({f"{name}_{col}{suffix}": values[..., i] for i, col in enumerate(_COLUMNS)})
    return keys


def _interval(values: np.ndarray, options: ScoreOptions) -> Interval:
    if options.rouge155:
        return rouge155_interval(
            values,
            alpha=options.fmeasure.as_alpha,
            confidence_level=options.confidence_level,
            n_resamples=options.n_resamples,
        )
    return bootstrap_interval(
        values,
        confidence_level=options.confidence_level,
        n_resamples=options.n_resamples,
        seed=options.seed,
    )


def aggregate(examples: ExampleScores, options: ScoreOptions) -> dict[str, float]:
    """The corpus result as a flat dict of Python floats (``result["rouge1"]`` is F)."""
    result: dict[str, float] = {}
    for name, values in examples.scores.items():
        if options.aggregation == "bootstrap":
            interval = _interval(values, options)
            result.update(_flat_keys(name, interval.mid, options.return_precision_recall))
            for bound in ("low", "high"):
                result.update(
                    _flat_keys(
                        name, getattr(interval, bound), options.return_precision_recall, f"_{bound}"
                    )
                )
        else:
            result.update(_flat_keys(name, mean_scores(values), options.return_precision_recall))
    return {key: float(value) for key, value in result.items()}


def per_example(examples: ExampleScores, options: ScoreOptions) -> dict[str, list[float]]:
    """Per-example lists of Python floats, keyed like :func:`aggregate`."""
    result: dict[str, list[float]] = {}
    for name, values in examples.scores.items():
        result.update(_flat_keys(name, values, options.return_precision_recall))
    return {key: [float(v) for v in value] for key, value in result.items()}
