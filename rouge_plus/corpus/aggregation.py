"""Corpus aggregation of per-example scores.

``mean`` is the plain mean of the per-example precision, recall and F. ``bootstrap`` adds a
percentile confidence interval from resampled means, drawn from a local generator seeded by the
caller, so the same input and seed always give the same numbers (rouge_score draws from NumPy's
global, unseeded generator, which is why evaluate's rouge changes from run to run).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    import numpy as np

AGGREGATIONS = ("mean", "bootstrap")

# Resampled rows drawn at once: bounds memory to about 50 MB for any corpus size.
_DRAW_BUDGET = 1 << 21


class Interval:
    """Per column (precision, recall, F): the point estimate and a confidence interval."""

    __slots__ = ("high", "low", "mid")

    def __init__(self, low: np.ndarray, mid: np.ndarray, high: np.ndarray) -> None:
        self.low, self.mid, self.high = low, mid, high


def bootstrap_means(scores: np.ndarray, n_resamples: int, seed: int) -> np.ndarray:
    """``(n_resamples, 3)`` means of rows resampled with replacement."""
    import numpy as np

    rng = np.random.default_rng(seed)
    n = len(scores)
    per_draw = max(1, _DRAW_BUDGET // n)
    means = np.empty((n_resamples, scores.shape[1]))
    for start in range(0, n_resamples, per_draw):
        stop = min(start + per_draw, n_resamples)
        rows = rng.integers(0, n, size=(stop - start, n))
        means[start:stop] = scores[rows].mean(axis=1)
    return means


def bootstrap_interval(
    scores: np.ndarray, *, confidence_level: float, n_resamples: int, seed: int
) -> Interval:
    """Percentile bootstrap: low/high at the tails, mid the median of the resample means.

    Reporting the median as mid is rouge_score's ``BootstrapAggregator`` convention.
    """
    import numpy as np

    means = bootstrap_means(scores, n_resamples, seed)
    tail = (1 - confidence_level) / 2
    low, mid, high = np.percentile(means, [100 * tail, 50, 100 * (1 - tail)], axis=0)
    return Interval(low, mid, high)


def rouge155_interval(
    scores: np.ndarray, *, alpha: float, confidence_level: float, n_resamples: int
) -> Interval:
    """ROUGE-1.5.5's corpus figures: mid is its "Average" (the mean of the resample means).

    Rows are resampled in the order the Perl script walks them, with its drand48 seeds.
    """
    import numpy as np

    from ..rouge155.bootstrap import rouge155_bootstrap, rouge155_order

    ordered = scores[rouge155_order(len(scores))]
    estimates = rouge155_bootstrap(
        ordered[:, 1], ordered[:, 0], alpha, confidence=confidence_level, n_resamples=n_resamples
    )
    columns = [estimates[key] for key in ("P", "R", "F")]
    return Interval(
        low=np.array([c.low for c in columns]),
        mid=np.array([c.average for c in columns]),
        high=np.array([c.high for c in columns]),
    )
