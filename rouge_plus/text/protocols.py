"""What the scorer asks of a tokenizer and of a sentence splitter, as ``typing`` protocols.

The registries (``tokenizers.py``, ``sentences.py``) return objects that satisfy these; they are
imported by type checkers and by code that checks an object with ``isinstance``, not by a
scoring call: ``typing`` costs a short script as much CPU as scoring a hundred pairs.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from .sentences import Cut


@runtime_checkable
class Tokenizer(Protocol):
    """What the scorer calls: ``tokenizer(text) -> list`` of tokens, labelled by ``name``.

    Built-in tokenizers return str tokens; a user's may return any hashable tokens."""

    name: str
    native_when: Callable[[str], bool] | None
    safe_cuts: Cut | None

    def __call__(self, text: str) -> list[Hashable]: ...


@runtime_checkable
class SentenceSplitter(Protocol):
    """What the scorer calls: ``splitter(text) -> list[str]``, labelled by ``name``.

    ``cuts`` says where it may end a sentence; ``by_lines`` that it is rouge_score's newline
    rule, which the compiled tokenizer applies by itself.
    """

    name: str
    cuts: Cut
    by_lines: bool

    def __call__(self, text: str) -> list[str]: ...
