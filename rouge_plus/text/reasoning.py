"""Reasoning traces removed from predictions before scoring (the ``strip_reasoning`` option).

Reasoning models write a trace before their answer: DeepSeek-R1 and Qwen3 in ``<think>``,
others in ``<thinking>``, ``<thought>``, ``<reasoning>`` or ``<reflection>``. With
``strip_reasoning=True`` a prediction loses, in this order (tags in any case):

1. every closed block ``<tag>...</tag>`` (the first closing tag of the same name ends it);
2. everything up to a closing tag left without its opening tag, as chat templates that open the
   trace in the prompt (Qwen3's) leave it: the text before it was the trace;
3. everything from an opening tag left unclosed: the answer never came (a warning counts them).

What is left is stripped of the whitespace around it. The result has no tag of the list left, so
stripping again changes nothing. A pattern of one's own (a regular expression) instead removes
every match, as ``re.sub(pattern, "", text)``, and the whitespace around what is left when it
matched; no rule for unclosed traces applies to it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from ..errors import OptionError, OptionTypeError

REASONING_TAGS = ("think", "thinking", "thought", "reasoning", "reflection")

_NAMES = "|".join(REASONING_TAGS)
_CLOSED = re.compile(rf"<({_NAMES})\s*>.*?</\1\s*>", re.IGNORECASE | re.DOTALL)
_CLOSING = re.compile(rf"</(?:{_NAMES})\s*>", re.IGNORECASE)
_OPENING = re.compile(rf"<(?:{_NAMES})\s*>", re.IGNORECASE)


# Predictions with their traces removed, and how many of them had a trace left unclosed.
Stripped = tuple[list[str], int]


def strip_tagged_traces(text: str) -> tuple[str, bool]:
    """``text`` without its tagged reasoning traces (the module's three rules), and whether it
    had a trace left unclosed."""
    if "<" not in text:  # no tag: the common answer costs one scan
        return text, False
    stripped = _CLOSED.sub("", text)
    orphans = list(_CLOSING.finditer(stripped))
    if orphans:
        stripped = stripped[orphans[-1].end() :]
    unclosed = _OPENING.search(stripped)
    if unclosed is not None:
        stripped = stripped[: unclosed.start()]
    if stripped == text:
        return text, False
    return stripped.strip(), unclosed is not None


def check_reasoning_spec(spec: object) -> None:
    """``strip_reasoning`` is True, False or a regular expression that compiles."""
    if isinstance(spec, bool):
        return
    if not isinstance(spec, str):
        raise OptionTypeError(
            f"strip_reasoning must be True, False or a regular expression (str), got {spec!r}"
        )
    if not spec:
        raise OptionError("strip_reasoning: the pattern is empty; give True for the usual tags")
    _compiled_pattern(spec)


@functools.lru_cache(maxsize=16)
def _compiled_pattern(pattern: str) -> re.Pattern:
    try:
        return re.compile(pattern)
    except re.error as error:
        raise OptionError(
            f"strip_reasoning: {pattern!r} is not a regular expression ({error})"
        ) from None


def reasoning_stripper(spec: bool | str) -> Callable[[list[str]], Stripped] | None:
    """What removes the traces ``spec`` (a ``strip_reasoning`` value) names from a list of
    predictions; None when it is off."""
    if spec is False:
        return None
    if spec is True:

        def strip_tagged(texts: list[str]) -> Stripped:
            results = list(map(strip_tagged_traces, texts))
            return [text for text, _ in results], sum(unclosed for _, unclosed in results)

        return strip_tagged
    pattern = _compiled_pattern(spec)

    def strip_match(text: str) -> str:
        stripped = pattern.sub("", text)
        return text if stripped == text else stripped.strip()

    def strip_matches(texts: list[str]) -> Stripped:
        return list(map(strip_match, texts)), 0

    return strip_matches


def unclosed_notice(count: int) -> str:
    """The warning for predictions whose trace was never closed."""
    return (
        f"strip_reasoning: {count} prediction(s) open a reasoning trace they never close; "
        "everything from the opening tag on was removed (the answer never came)"
    )
