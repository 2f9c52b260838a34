"""Precision, recall and the F-measure, vectorized over NumPy arrays (imported on first use).

``beta`` weighs recall ``beta`` times as much as precision; ROUGE-1.5.5 expresses the same family
with ``alpha = 1 / (1 + beta**2)`` (its ``-p``). Each form is computed the way its reference
implementation writes it, so the floats agree to the last bit with rouge_score (beta = 1) and with
the Perl script (alpha).
"""

from __future__ import annotations

from .._records import record
from ..errors import OptionError

TYPE_CHECKING = False
if TYPE_CHECKING:
    import numpy as np


def safe_divide(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    """``numerator / denominator`` with 0 where the denominator is 0 (never NaN)."""
    import numpy as np

    numerator = np.asarray(numerator, dtype=np.float64)
    denominator = np.asarray(denominator, dtype=np.float64)
    out = np.zeros(np.broadcast(numerator, denominator).shape)
    np.divide(numerator, denominator, out=out, where=denominator != 0)
    return out


def _finite(value: float) -> bool:
    import math  # only for a given beta

    return math.isfinite(value)


@record
class FMeasure:
    """The F-measure family: give ``beta`` or ``alpha``, not both (default: beta = 1)."""

    beta: float | None = None
    alpha: float | None = None

    def __post_init__(self) -> None:
        beta, alpha = self.beta, self.alpha
        if beta is not None and alpha is not None:
            raise OptionError(
                "beta and alpha: give one of them, not both (alpha = 1 / (1 + beta**2))"
            )
        if beta is not None and not (
            isinstance(beta, (int, float)) and beta > 0 and _finite(beta * beta)
        ):
            raise OptionError(
                f"beta must be a positive number whose square is finite, got {beta!r} (as beta "
                "grows F tends to recall: report recall itself for that limit)"
            )
        if alpha is not None and not (isinstance(alpha, (int, float)) and 0 <= alpha <= 1):
            raise OptionError(f"alpha must be a number in [0, 1], got {alpha!r}")

    @property
    def as_alpha(self) -> float:
        """The same weighting as ROUGE-1.5.5's ``alpha`` (``-p``)."""
        if self.alpha is not None:
            return self.alpha
        beta = 1.0 if self.beta is None else self.beta
        return 1 / (1 + beta * beta)

    @property
    def label(self) -> str:
        if self.alpha is not None:
            return f"alpha={self.alpha:g}"
        return f"beta={1.0 if self.beta is None else self.beta:g}"

    @property
    def compiled_form(self) -> tuple[int, float, float]:
        """``(kind, c1, c2)`` for ``scoring/_scores.c``, which computes F as :meth:`__call__`
        does: kind 0 is 2PR / (P + R); 1 is PR / (c1 P + c2 R) with c1 = 1 − α, c2 = α; 2 is
        c1 PR / (c2 P + R) with c1 = 1 + β², c2 = β² (the constants computed here, in Python,
        as :meth:`__call__` computes them before NumPy sees them)."""
        if self.alpha is not None:
            return 1, float(1 - self.alpha), float(self.alpha)
        if self.beta is None or self.beta == 1:
            return 0, 1.0, 1.0
        beta2 = self.beta * self.beta
        return 2, float(1 + beta2), float(beta2)

    def __call__(self, precision: np.ndarray, recall: np.ndarray) -> np.ndarray:
        import numpy as np

        precision = np.asarray(precision, dtype=np.float64)
        recall = np.asarray(recall, dtype=np.float64)
        if self.alpha is not None:
            # ROUGE-1.5.5: F = P·R / ((1 − α)·P + α·R).
            numerator = precision * recall
            denominator = (1 - self.alpha) * precision + self.alpha * recall
        elif self.beta is None or self.beta == 1:
            # rouge_score: F = 2·P·R / (P + R).
            numerator = 2 * precision * recall
            denominator = precision + recall
        else:
            beta2 = self.beta * self.beta
            numerator = (1 + beta2) * precision * recall
            denominator = beta2 * precision + recall
        return safe_divide(numerator, denominator)


def round5(value: float | np.ndarray) -> float | np.ndarray:
    """``value`` as Perl's ``sprintf("%7.5f")`` prints it, read back as a float.

    Exact decimal rounding of the binary value (ties, such as 0.015625, go to even), unlike
    ``np.round``, which scales by 1e5 first and can land on the other side of a tie.
    """
    import numpy as np

    if isinstance(value, np.ndarray):
        flat = [float(f"{v:.5f}") for v in value.ravel().tolist()]
        return np.array(flat, dtype=np.float64).reshape(value.shape)
    return float(f"{value:.5f}")


def rounded_prf(
    precision: np.ndarray, recall: np.ndarray, fmeasure: FMeasure
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Precision, recall and F as ROUGE-1.5.5 prints them: P and R rounded to 5 decimals, and F
    computed from the rounded values, then rounded."""
    precision, recall = round5(precision), round5(recall)
    return precision, recall, round5(fmeasure(precision, recall))
