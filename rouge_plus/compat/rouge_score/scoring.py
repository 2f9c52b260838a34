"""rouge_score's ``scoring`` module: score tuples, the scorer base class and bootstrap aggregation.

``BootstrapAggregator`` computes what rouge_score 0.1.2's does: for each score type, the 2.5th,
50th and 97.5th percentiles (for ``confidence_interval=0.95``) of ``n_samples`` means of
resamples drawn with replacement; ``mid`` is the median of those means. With the default
``seed=None`` the resamples come from NumPy's global generator exactly as rouge_score draws them,
so after ``np.random.seed(s)`` both give the same numbers to the last bit. With an integer
``seed`` they come from a fresh ``np.random.default_rng(seed)`` on every ``aggregate()`` call:
reproducible without touching global state, but a different sequence from rouge_score's, so the
intervals differ from its (by resampling noise only).

rouge_score draws the resamples one NumPy call at a time (``n_samples`` calls per score type).
Both generators give the same integers whether they are asked for ``k`` rows of ``n`` at once or
``k`` times for ``n``, and leave the same state behind, so this draws many resamples per call:
the same numbers and the same global random state as rouge_score, at a small fraction of the
cost (an aggregator built for a single pair, as lm-evaluation-harness's TruthfulQA metric
builds one, costs about a millisecond instead of a hundred).
"""

from __future__ import annotations

import abc
import collections
from collections.abc import Callable, Mapping

import numpy as np

from ...errors import OptionError

# Resampled scores gathered per draw at most (float64s): 16 MiB.
_BLOCK = 1 << 21


class Score(collections.namedtuple("Score", ["precision", "recall", "fmeasure"])):
    """Tuple containing precision, recall, and f-measure values."""


class AggregateScore(collections.namedtuple("AggregateScore", ["low", "mid", "high"])):
    """Tuple containing confidence intervals for scores."""


class BaseScorer(abc.ABC):
    """Base class for Scorer objects."""

    @abc.abstractmethod
    def score(self, target: str, prediction: str) -> dict[str, Score]:
        """A dict mapping each score type to a ``Score`` for one (target, prediction) pair."""


class BootstrapAggregator:
    """Aggregates per-example scores into confidence intervals (see the module docstring)."""

    def __init__(
        self, confidence_interval: float = 0.95, n_samples: int = 1000, seed: int | None = None
    ):
        if confidence_interval < 0 or confidence_interval > 1:
            raise OptionError("confidence_interval must be in range [0, 1]")
        if n_samples <= 0:
            raise OptionError("n_samples must be positive")
        self._n_samples = n_samples
        self._confidence_interval = confidence_interval
        self._seed = seed
        self._scores: dict[str, list[tuple]] = collections.defaultdict(list)

    def add_scores(self, scores: Mapping[str, tuple]) -> None:
        """Add one example's scores: a dict mapping score types to ``Score``-like tuples."""
        for score_type, score in scores.items():
            self._scores[score_type].append(score)

    def aggregate(self) -> dict[str, AggregateScore]:
        """For each score type, ``AggregateScore(low, mid, high)`` of the added scores' class."""
        draw = self._resample_indices()
        result = {}
        for score_type, scores in self._scores.items():
            percentiles = self._bootstrap_resample(np.vstack(tuple(scores)), draw)
            low, mid, high = (scores[0].__class__(*percentiles[j, :]) for j in range(3))
            result[score_type] = AggregateScore(low=low, mid=mid, high=high)
        return result

    def _resample_indices(self) -> Callable[[int, int], np.ndarray]:
        """``draw(k, n)``: ``k`` rows of ``n`` row indices drawn with replacement, the stream that
        ``k`` calls of ``n`` draws give."""
        if self._seed is None:
            # rouge_score's np.random.choice(np.arange(n), size=n) is this call's draw of n.
            return lambda k, n: np.random.randint(0, n, size=(k, n))
        rng = np.random.default_rng(self._seed)
        return lambda k, n: rng.integers(0, n, size=(k, n))

    def _bootstrap_resample(
        self, matrix: np.ndarray, draw: Callable[[int, int], np.ndarray]
    ) -> np.ndarray:
        """(low, mid, high) rows of percentiles of the resample means, one column per measure."""
        n, width = matrix.shape
        sample_mean = np.zeros((self._n_samples, width))
        step = max(1, _BLOCK // (n * width))  # resamples per draw, to bound the memory
        for start in range(0, self._n_samples, step):
            stop = min(start + step, self._n_samples)
            # The mean over axis 1 of (k, n, width) sums each column in rouge_score's order.
            sample_mean[start:stop, :] = np.mean(matrix[draw(stop - start, n), :], axis=1)
        percentile_delta = (1 - self._confidence_interval) / 2
        q = 100 * np.array([percentile_delta, 0.5, 1 - percentile_delta])
        return np.percentile(sample_mean, q, axis=0)


def fmeasure(precision: float, recall: float) -> float:
    """The F1-measure of ``precision`` and ``recall`` (0.0 when both are 0)."""
    if precision + recall > 0:
        return 2 * precision * recall / (precision + recall)
    return 0.0
