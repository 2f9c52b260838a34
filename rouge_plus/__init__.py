"""rouge_plus: the whole ROUGE family, exact, fast and Unicode-aware.

The scoring core (:class:`RougeScorer`, :func:`score`) needs only NumPy, NLTK and regex; the
Hugging Face ``evaluate`` metric :class:`RougePlus` (:func:`load` makes one) and the integrations
(:func:`score_dataset`, :func:`make_compute_metrics`) are imported on first use, so importing this
package stays cheap, and works without evaluate or datasets installed. See docs/ARCHITECTURE.md
for the layout.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from ._version import __version__
from .options import ScoreOptions
from .pairwise import dedupe, pairwise
from .results import ExampleScores
from .scorer import RougeScorer, score

if TYPE_CHECKING:
    from .comparison import compare
    from .integrations.hf_datasets import score_dataset
    from .integrations.trainer import make_compute_metrics
    from .rouge_plus import RougePlus, load

# A library's log records are the application's to show: without this, an application that has
# not configured logging would see every warning twice (once by logging's last-resort handler).
logging.getLogger(__name__).addHandler(logging.NullHandler())

__all__ = [
    "ExampleScores",
    "RougePlus",
    "RougeScorer",
    "ScoreOptions",
    "__version__",
    "compare",
    "load",
    "dedupe",
    "make_compute_metrics",
    "pairwise",
    "score",
    "score_dataset",
]

# Public names imported on first use: name -> module.
_LAZY = {
    "compare": ".comparison",
    "RougePlus": ".rouge_plus",
    "load": ".rouge_plus",
    "score_dataset": ".integrations.hf_datasets",
    "make_compute_metrics": ".integrations.trainer",
}


def __getattr__(name: str) -> object:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
