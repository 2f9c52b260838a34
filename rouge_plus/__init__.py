"""rouge_plus: the whole ROUGE family, exact, fast and Unicode-aware.

The scoring core (:class:`RougeScorer`, :func:`score`) needs only NumPy and NLTK; the Hugging Face
``evaluate`` metric :class:`RougePlus` is imported on first use, so importing this package stays
cheap when ``evaluate`` is not wanted.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from ._version import __version__
from .options import ScoreOptions
from .results import ExampleScores
from .scorer import RougeScorer, score

if TYPE_CHECKING:
    from .rouge_plus import RougePlus

# A library's log records are the application's to show: without this, an application that has
# not configured logging would see every warning twice (once by logging's last-resort handler).
logging.getLogger(__name__).addHandler(logging.NullHandler())

__all__ = ["ExampleScores", "RougePlus", "RougeScorer", "ScoreOptions", "__version__", "score"]


def __getattr__(name: str) -> object:
    if name == "RougePlus":
        from .rouge_plus import RougePlus

        return RougePlus
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
