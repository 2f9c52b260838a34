"""The package-wide switch between the compiled modules and their pure-Python twins.

Every stage that has compiled code (the kernels, the stemmers, the per-row scores, the synonym
matching, the tagger) asks :func:`compiled` for it, so that one switch covers them all: set
``ROUGE_PLUS_PURE_PYTHON=1`` to run the Python code even where the extensions are built (the
tests run both and require identical results). It imports nothing of rouge_plus, so that any
stage may use it. This folder also holds the C headers the compiled modules share:
``common.h``, which every C file includes, ``ascii_words.h``, the ASCII word rule, and
``fmeasure.h``, precision, recall and F from counts.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType


def compiled(module: str) -> ModuleType | None:
    """The compiled extension ``rouge_plus.<module>`` (e.g. ``"text._stemmers"``), or None when
    it is not built or ``ROUGE_PLUS_PURE_PYTHON=1`` selects the pure-Python twins."""
    if os.environ.get("ROUGE_PLUS_PURE_PYTHON") == "1":
        return None
    name = f"rouge_plus.{module}"
    try:  # __import__, not importlib: importing importlib costs a short script
        __import__(name)
    except ImportError:  # pragma: no cover - depends on the build
        return None
    return sys.modules[name]
