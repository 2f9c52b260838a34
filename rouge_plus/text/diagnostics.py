"""The one "no tokens" warning per call: texts that have words but yield no tokens."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable

TYPE_CHECKING = False
if TYPE_CHECKING:
    import logging  # imported when there is something to log

LOGGER_NAME = "rouge_plus.text.diagnostics"


def wordless_places(
    texts: list[str], place: Callable[[int], str], tokenless: Iterable[int]
) -> list[str]:
    """Where the texts with words but no tokens are (``tokenless``: the indexes of the texts
    that yielded no token)."""
    return [place(i) for i in tokenless if texts[i] and not texts[i].isspace()]


def warn_wordless(places: list[str], tokenizer: object) -> None:
    if not places:
        return
    message = (
        f"{len(places)} non-empty text(s) produced no tokens with this tokenizer "
        f"(first: {places[0]}); they score 0."
    )
    if tokenizer != "default":
        message += " The default tokenizer keeps the letters of every script."
    _warn(message)


def warn_once(message: str) -> None:
    """A warning about the whole call, logged and attributed to the caller's line."""
    _warn(message)


def _warn(message: str) -> None:
    import warnings  # imported when there is something to say

    _logger().warning(message)
    warnings.warn(message, UserWarning, stacklevel=_stacklevel_outside_package())


def _logger() -> logging.Logger:
    import logging

    # A library's log records are the application's to show: without this, an application that
    # has not configured logging would see every warning twice (once by logging's last-resort
    # handler).
    package = logging.getLogger("rouge_plus")
    if not any(isinstance(handler, logging.NullHandler) for handler in package.handlers):
        package.addHandler(logging.NullHandler())
    return logging.getLogger(LOGGER_NAME)


def _stacklevel_outside_package() -> int:
    """The ``stacklevel`` that attributes a warning to the first caller outside rouge_plus."""
    package = os.path.dirname(os.path.dirname(__file__)) + os.sep
    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_code.co_filename.startswith(package):
        frame, level = frame.f_back, level + 1
    return level
