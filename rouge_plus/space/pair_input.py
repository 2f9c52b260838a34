"""The single-pair text boxes: several references in one box, and size limits."""

from __future__ import annotations

import re

from ..errors import InputError
from .limits import MAX_REFERENCES, MAX_TEXT_CHARS

REFERENCE_SEPARATOR = re.compile(r"^[ \t]*-{3,}[ \t]*$", flags=re.MULTILINE)


def split_references(text: str) -> list[str]:
    """References from one text box: several are separated by a line holding only ``---``."""
    references = [part.strip("\n") for part in REFERENCE_SEPARATOR.split(text or "")]
    return [ref for ref in references if ref.strip()]


def check_pair(prediction: str, references: list[str]) -> None:
    """``InputError`` for an empty prediction, no reference, or more references or a longer text
    than the Space takes (the token limits are checked with the options, in :mod:`.limits`)."""
    if not (prediction or "").strip():
        raise InputError("The prediction is empty: type or paste the generated text.")
    if not references:
        raise InputError("There is no reference: type at least one reference text.")
    if len(references) > MAX_REFERENCES:
        raise InputError(
            f"There are {len(references)} references; the Space takes up to {MAX_REFERENCES}."
        )
    longest = max([prediction, *references], key=len)
    if len(longest) > MAX_TEXT_CHARS:
        raise InputError(
            f"A text has {len(longest):,} characters; the Space takes up to "
            f"{MAX_TEXT_CHARS:,} per text. Score longer documents with the rouge-plus command line."
        )
