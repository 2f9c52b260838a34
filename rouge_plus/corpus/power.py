"""How many documents does a paired test need to detect a gap between two systems?

From a pilot's per-document scores of two systems (or their paired differences d), the power of
a two-sided paired test at ``alpha`` on n documents, and the smallest n whose power reaches the
target:

- ``"permutation"`` and ``"bootstrap"``, the tests of :func:`rouge_plus.compare`
  (:mod:`.significance`), by simulation: ``n_simulations`` test sets of n documents are drawn
  with replacement from the pilot's differences (so the gap to detect is the pilot's mean
  difference, with the pilot's spread), each is tested on ``n_resamples`` sign flips or
  bootstrap resamples, and the power is the share of test sets whose p-value is below
  ``alpha``. One matrix product per block of test sets gives every resampled mean at once; the
  resamples are shared by the test sets of one n, and every n restarts the same seeded streams
  (common random numbers), so the curve is smooth in n and the answer depends only on the
  pilot, the settings and the seed. The permutation test always draws its sign flips (no exact
  enumeration for tiny n, where :func:`rouge_plus.compare` enumerates).
- ``"t"``, the paired t-test, analytically: with effect size e = mean(d) / sd(d), power is
  P(|T| > t_{1-alpha/2, n-1}) for T noncentral t with n - 1 degrees of freedom and noncentrality
  e * sqrt(n) (SciPy's ``nct``; the ``stats`` extra).

The search starts from the normal approximation n = ((z_{1-alpha/2} + z_power) / e)^2, doubles
or halves n until the power crosses the target, then bisects (a simulated test costs
n_simulations x n_resamples x n operations per count it tries).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np
import numpy.typing as npt

from ..errors import InputError, MissingExtraError, OptionError
from .significance import TIE_RTOL

TESTS = ("permutation", "bootstrap", "t")

# Cells (test set x document) of one block of simulated test sets, and (resample x document) of
# one block of resamples: about 8 MB of float64 each, whatever the document count.
_CELLS = 1 << 20
_CURVE_POINTS = 12
_Z = NormalDist()


@dataclass(frozen=True)
class PowerAnalysis:
    """The documents a paired test needs (None when more than ``max_documents``) and the power
    curve: (documents, power) pairs."""

    documents: int | None
    test: str
    alpha: float
    power: float
    gap: float
    """The pilot's mean paired difference (a - b)."""
    sd: float
    """The standard deviation of the pilot's paired differences (ddof=1)."""
    pilot_documents: int
    curve: tuple[tuple[int, float], ...]

    @property
    def effect_size(self) -> float:
        """Cohen's d of the paired differences: gap / sd."""
        return self.gap / self.sd

    def to_dict(self) -> dict[str, object]:
        return {
            "documents": self.documents,
            "test": self.test,
            "alpha": self.alpha,
            "power": self.power,
            "gap": self.gap,
            "sd": self.sd,
            "effect_size": self.effect_size,
            "pilot_documents": self.pilot_documents,
            "curve": [{"documents": n, "power": p} for n, p in self.curve],
        }


def power_analysis(
    scores_a: npt.ArrayLike,
    scores_b: npt.ArrayLike | None = None,
    alpha: float = 0.05,
    power: float = 0.8,
    test: str = "permutation",
    *,
    n_simulations: int = 1000,
    n_resamples: int = 1000,
    seed: int = 0,
    max_documents: int = 100_000,
    curve: Sequence[int] | None = None,
) -> PowerAnalysis:
    """How many documents a two-sided paired ``test`` at ``alpha`` needs to detect the pilot's
    gap between system a and system b with probability ``power``, and the power at each number
    of documents of ``curve`` (by default 12 counts from 2 to twice the answer).

    ``scores_a`` and ``scores_b`` are the two systems' per-document scores on the same pilot
    documents; without ``scores_b``, ``scores_a`` are the paired differences a - b.
    """
    differences = _differences(scores_a, scores_b)
    _check_settings(alpha, power, test, n_simulations, n_resamples, seed, max_documents)
    sd = float(np.std(differences, ddof=1))
    gap = float(np.mean(differences))
    if gap == 0 or sd == 0:
        raise InputError(
            "the pilot's paired differences have mean 0 (there is no gap to detect)"
            if gap == 0
            else "the pilot's paired differences do not vary: any paired test detects the gap "
            "on the documents where it shows, and no power analysis applies"
        )
    power_at = _power_function(differences, alpha, test, n_simulations, n_resamples, seed)
    guess = ((_Z.inv_cdf(1 - alpha / 2) + _Z.inv_cdf(power)) * sd / gap) ** 2
    needed = _smallest_documents(power_at, power, max_documents, guess)
    counts = _curve_counts(curve, needed, max_documents)
    return PowerAnalysis(
        documents=needed,
        test=test,
        alpha=alpha,
        power=power,
        gap=gap,
        sd=sd,
        pilot_documents=len(differences),
        curve=tuple((n, power_at(n)) for n in counts),
    )


def _differences(scores_a: npt.ArrayLike, scores_b: npt.ArrayLike | None) -> np.ndarray:
    a = np.asarray(scores_a, dtype=np.float64)
    if scores_b is not None:
        b = np.asarray(scores_b, dtype=np.float64)
        if a.shape != b.shape:
            raise InputError(
                f"scores_a and scores_b must have the same shape, got {a.shape} and {b.shape}"
            )
        a = a - b
    if a.ndim != 1 or len(a) < 2:
        raise InputError(
            f"the pilot must give one score per document for at least 2 documents, got shape "
            f"{a.shape}"
        )
    bad = np.flatnonzero(~np.isfinite(a))
    if len(bad):
        raise InputError(f"the pilot's score of document {bad[0]} is not a finite number")
    return a


def _check_settings(
    alpha: float,
    power: float,
    test: str,
    n_simulations: int,
    n_resamples: int,
    seed: int,
    max_documents: int,
) -> None:
    if test not in TESTS:
        raise OptionError(f"test: unknown value {test!r}; valid values are: {', '.join(TESTS)}")
    for name, value in (("alpha", alpha), ("power", power)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < 1:
            raise OptionError(f"{name} must be in (0, 1), got {value!r}")
    if power <= alpha:
        raise OptionError(f"power ({power}) must exceed alpha ({alpha}): a test reaches alpha")
    for name, value, least in (
        ("n_simulations", n_simulations, 1),
        ("n_resamples", n_resamples, 1),
        ("seed", seed, 0),
        ("max_documents", max_documents, 2),
    ):
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise OptionError(f"{name} must be an int of at least {least}, got {value!r}")


def _power_function(
    differences: np.ndarray,
    alpha: float,
    test: str,
    n_simulations: int,
    n_resamples: int,
    seed: int,
) -> Callable[[int], float]:
    """The power of ``test`` on n documents, as a function of n."""
    if test == "t":
        return _t_power(float(np.mean(differences) / np.std(differences, ddof=1)), alpha)

    def simulated(n: int) -> float:
        return _simulated_power(differences, n, alpha, test, n_simulations, n_resamples, seed)

    return simulated


def _t_power(effect: float, alpha: float) -> Callable[[int], float]:
    try:
        from scipy import stats
    except ModuleNotFoundError:
        raise MissingExtraError("the paired t-test's power (test='t')", "stats") from None

    def power_at(n: int) -> float:
        df = n - 1
        critical = stats.t.ppf(1 - alpha / 2, df)
        shift = effect * math.sqrt(n)
        # P(T < -c) as P(T' > c) with T' of noncentrality -shift: SciPy's cdf far in the lower
        # tail of a large noncentrality is NaN, its sf there is 0.
        return float(stats.nct.sf(critical, df, shift) + stats.nct.sf(critical, df, -shift))

    return power_at


def _simulated_power(
    differences: np.ndarray,
    n: int,
    alpha: float,
    test: str,
    n_simulations: int,
    n_resamples: int,
    seed: int,
) -> float:
    """The share of ``n_simulations`` test sets of n documents drawn from the pilot on which the
    paired ``test`` rejects at ``alpha``."""
    sets_seed, resamples_seed = np.random.SeedSequence(seed).spawn(2)
    sets = np.random.default_rng(sets_seed)
    resamples = _resamples(test, n, n_resamples, np.random.default_rng(resamples_seed))
    rejected = 0
    block = max(1, _CELLS // n)
    for start in range(0, n_simulations, block):
        size = min(block, n_simulations - start)
        drawn = differences[sets.integers(0, len(differences), size=(size, n))]
        sums = drawn.sum(axis=1)
        tolerance = TIE_RTOL * np.abs(drawn).sum(axis=1)
        extreme = np.zeros(size, dtype=np.int64)
        for part in resamples:
            resampled = drawn @ part.T  # (test sets, resamples): each resample's sum
            if test == "permutation":
                far = np.abs(resampled) >= (np.abs(sums) - tolerance)[:, None]
            else:
                far = np.abs(resampled - sums[:, None]) >= (np.abs(sums) - tolerance)[:, None]
            extreme += far.sum(axis=1)
        rejected += int(np.count_nonzero((1 + extreme) / (1 + n_resamples) < alpha))
    return rejected / n_simulations


def _resamples(test: str, n: int, n_resamples: int, rng: np.random.Generator) -> list[np.ndarray]:
    """The resamples as (resamples x n) weights in blocks: signs of a sign flip, or the counts of
    each document in a bootstrap resample (a weighted sum is the resample's sum)."""
    block = max(1, _CELLS // n)
    parts = []
    for start in range(0, n_resamples, block):
        size = min(block, n_resamples - start)
        if test == "permutation":
            parts.append(rng.choice(np.array([-1.0, 1.0]), size=(size, n)))
        else:
            cells = rng.integers(0, n, size=(size, n)) + n * np.arange(size)[:, None]
            parts.append(np.bincount(cells.ravel(), minlength=size * n).reshape(size, n) + 0.0)
    return parts


def _smallest_documents(
    power_at: Callable[[int], float], target: float, max_documents: int, guess: float
) -> int | None:
    """The smallest n in [2, max_documents] whose power reaches ``target`` (None if none does),
    bracketed from ``guess`` by doubling or halving, then found by bisection."""
    start = min(max(2, math.ceil(guess)), max_documents)
    if power_at(start) >= target:
        high, low = start, start // 2
        while low >= 2 and power_at(low) >= target:
            high, low = low, low // 2
    else:
        low, high = start, min(2 * start, max_documents)
        while power_at(high) < target:
            if high >= max_documents:
                return None
            low, high = high, min(2 * high, max_documents)
    while high - low > 1:
        middle = (low + high) // 2
        if power_at(middle) >= target:
            high = middle
        else:
            low = middle
    return high


def _curve_counts(curve: Sequence[int] | None, needed: int | None, max_documents: int) -> list[int]:
    if curve is None:
        top = min(max_documents, 2 * needed) if needed else max_documents
        return sorted({int(n) for n in np.geomspace(2, max(top, 3), _CURVE_POINTS).round()})
    counts = list(curve)
    if not counts or any(isinstance(n, bool) or not isinstance(n, int) or n < 2 for n in counts):
        raise OptionError(f"curve must be document counts, ints of at least 2, got {curve!r}")
    return counts
