"""The one "no tokens" warning per call: texts that have words but yield no tokens."""

from __future__ import annotations

import logging
import os
import sys
import warnings
from collections.abc import Callable

import numpy as np

logger = logging.getLogger(__name__)


def wordless_places(
    texts: list[str], place: Callable[[int], str], token_counts: np.ndarray
) -> list[str]:
    """Where the texts with words but no tokens are."""
    return [
        place(i)
        for i in np.flatnonzero(token_counts == 0).tolist()
        if texts[i] and not texts[i].isspace()
    ]


def warn_wordless(places: list[str], tokenizer: object) -> None:
    if not places:
        return
    message = (
        f"{len(places)} non-empty text(s) produced no tokens with this tokenizer "
        f"(first: {places[0]}); they score 0."
    )
    if tokenizer != "default":
        message += " The default tokenizer keeps the letters of every script."
    logger.warning(message)
    warnings.warn(message, UserWarning, stacklevel=_stacklevel_outside_package())


def warn_once(message: str) -> None:
    """A warning about the whole call, logged and attributed to the caller's line."""
    logger.warning(message)
    warnings.warn(message, UserWarning, stacklevel=_stacklevel_outside_package())


def _stacklevel_outside_package() -> int:
    """The ``stacklevel`` that attributes a warning to the first caller outside rouge_plus."""
    package = os.path.dirname(os.path.dirname(__file__)) + os.sep
    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_code.co_filename.startswith(package):
        frame, level = frame.f_back, level + 1
    return level
