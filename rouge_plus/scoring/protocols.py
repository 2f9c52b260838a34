"""What synonym matching asks of a synonym source, as a ``typing`` protocol.

Imported by type checkers and by the synonym sources (``rouge2/synonyms.py``), not by a
scoring call without synonyms: ``typing`` costs a short script as much CPU as scoring a hundred
pairs.
"""

from __future__ import annotations

from typing import Protocol


class SynonymMatcher(Protocol):
    """What synonym matching asks of a synonym source (see :mod:`rouge_plus.rouge2.synonyms`):
    two words can only be synonyms when their ``keys`` meet; with ``exact_keys`` meeting keys
    are enough, otherwise ``match`` decides."""

    exact_keys: bool

    def keys(self, word: str) -> frozenset: ...

    def match(self, a: str, b: str) -> bool: ...
