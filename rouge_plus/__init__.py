"""rouge_plus: the whole ROUGE family, exact, fast and Unicode-aware.

Every public name is imported on first use, so ``import rouge_plus`` costs a few milliseconds:
the scoring core (:class:`RougeScorer`, :func:`score`) loads its stages when it is first used,
and NumPy only when a call needs it (the common measures are scored without it); the Hugging
Face ``evaluate`` metric :class:`RougePlus` and the integrations (:func:`score_dataset`,
:func:`make_compute_metrics`) and the meta-evaluation (:func:`correlate`,
:func:`compare_correlations`, the shipped judgments :func:`realsumm`, :func:`summeval`,
:func:`rose`, :func:`rose_llm`; :func:`power_analysis`) load only when asked for.
:func:`kernels_in_use` says whether the compiled C kernels or their pure-Python twins score here.
See docs/ARCHITECTURE.md for the layout.
"""

from __future__ import annotations

import sys

from ._version import __version__

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType

    from ._compiled import KernelsInUse, PurePythonWarning, kernels_in_use
    from .all_pairs import dedupe, pairwise
    from .comparison import compare
    from .corpus.power import power_analysis
    from .environment import doctor
    from .integrations.hf_datasets import score_dataset
    from .integrations.trainer import make_compute_metrics
    from .meta import compare_correlations, correlate, realsumm, rose, rose_llm, summeval
    from .options import ScoreOptions
    from .results import ExampleScores
    from .rouge_plus import RougePlus, load
    from .scorer import RougeScorer, score

__all__ = [
    "ExampleScores",
    "KernelsInUse",
    "PurePythonWarning",
    "RougePlus",
    "RougeScorer",
    "ScoreOptions",
    "__version__",
    "compare",
    "compare_correlations",
    "correlate",
    "doctor",
    "load",
    "dedupe",
    "kernels_in_use",
    "make_compute_metrics",
    "pairwise",
    "power_analysis",
    "realsumm",
    "rose",
    "rose_llm",
    "score",
    "score_dataset",
    "summeval",
]

# Public names imported on first use: name -> module.
_LAZY = {
    "kernels_in_use": "._compiled",
    "KernelsInUse": "._compiled",
    "PurePythonWarning": "._compiled",
    "compare": ".comparison",
    "doctor": ".environment",
    "correlate": ".meta",
    "compare_correlations": ".meta",
    "realsumm": ".meta",
    "summeval": ".meta",
    "rose": ".meta",
    "rose_llm": ".meta",
    "power_analysis": ".corpus.power",
    "dedupe": ".all_pairs",
    "pairwise": ".all_pairs",
    "ExampleScores": ".results",
    "RougeScorer": ".scorer",
    "ScoreOptions": ".options",
    "score": ".scorer",
    "RougePlus": ".rouge_plus",
    "load": ".rouge_plus",
    "score_dataset": ".integrations.hf_datasets",
    "make_compute_metrics": ".integrations.trainer",
}


def __getattr__(name: str) -> object:
    if name in _LAZY:
        module = _submodule(__name__ + _LAZY[name])
        # Later look-ups skip this function (every public name of that module at once).
        globals().update({n: getattr(module, n) for n, m in _LAZY.items() if m == _LAZY[name]})
        return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _submodule(name: str) -> ModuleType:
    """The module ``name``, imported (with ``__import__``: ``importlib`` costs a short script
    more than this package's own start)."""
    __import__(name)
    return sys.modules[name]


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
