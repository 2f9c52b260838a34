"""The single-pair text boxes: several references in one box, and size limits."""

from __future__ import annotations

import re

from ..readers import InputError

MAX_PAIR_CHARS = 20_000

REFERENCE_SEPARATOR = re.compile(r"^[ \t]*-{3,}[ \t]*$", flags=re.MULTILINE)


def split_references(text: str) -> list[str]:
    """References from one text box: several are separated by a line holding only ``---``."""
    references = [part.strip("\n") for part in REFERENCE_SEPARATOR.split(text or "")]
    return [ref for ref in references if ref.strip()]


def check_pair(prediction: str, references: list[str]) -> None:
    """``InputError`` for an empty prediction, no reference, or a text too long for the page."""
    if not (prediction or "").strip():
        raise InputError("The prediction is empty: type or paste the generated text.")
    if not references:
        raise InputError("There is no reference: type at least one reference text.")
    longest = max([prediction, *references], key=len)
    if len(longest) > MAX_PAIR_CHARS:
        raise InputError(
            f"A text has {len(longest):,} characters; single-pair mode takes up to "
            f"{MAX_PAIR_CHARS:,}. Use the Corpus tab for long documents."
        )
