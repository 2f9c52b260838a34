"""ROUGE type names and what each one measures.

A type name such as ``"rouge2"`` or ``"rougeLsum"`` is parsed once into a :class:`Measure`, a small
immutable description that the counting kernels and the precision/recall formulas dispatch on.
Names are matched against a registry of patterns, so an unknown name fails with the list of
valid forms instead of deep inside the scorer.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

MAX_NGRAM = 9


@dataclass(frozen=True)
class Measure:
    """One ROUGE variant.

    ``kind`` selects the counting kernel: ``"ngram"`` (clipped n-gram overlap over the whole
    token list), ``"lcs"`` (one longest common subsequence over the whole token lists) or
    ``"summary_lcs"`` (Lin's summary-level union LCS over sentences).
    """

    name: str
    kind: str
    n: int = 0

    @property
    def uses_sentences(self) -> bool:
        return self.kind == "summary_lcs"


_PATTERNS: list[tuple[re.Pattern[str], str, Callable[[re.Match[str]], Measure]]] = [
    (
        re.compile(r"rouge([1-9])"),
        f"rouge1 .. rouge{MAX_NGRAM}",
        lambda m: Measure(m.group(0), "ngram", n=int(m.group(1))),
    ),
    (re.compile(r"rougeL"), "rougeL", lambda m: Measure("rougeL", "lcs")),
    (re.compile(r"rougeLsum"), "rougeLsum", lambda m: Measure("rougeLsum", "summary_lcs")),
]

DEFAULT_ROUGE_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")


def valid_forms() -> list[str]:
    """Human-readable list of the accepted ROUGE type names."""
    return [form for _, form, _ in _PATTERNS]


def parse_rouge_type(name: object) -> Measure:
    """Parse one ROUGE type name, raising ``ValueError`` that lists the valid names."""
    if not isinstance(name, str):
        raise TypeError(f"rouge_types: every entry must be a str, got {type(name).__name__}")
    for pattern, _, build in _PATTERNS:
        match = pattern.fullmatch(name)
        if match:
            return build(match)
    raise ValueError(
        f"rouge_types: unknown ROUGE type {name!r}; valid types are: {', '.join(valid_forms())}"
    )


def parse_rouge_types(names: Iterable[str] | str | None) -> tuple[Measure, ...]:
    """Parse a list of names, keeping the user's order and dropping exact duplicates."""
    if names is None:
        names = DEFAULT_ROUGE_TYPES
    if isinstance(names, str):
        names = [names]
    measures = tuple(dict.fromkeys(parse_rouge_type(name) for name in names))
    if not measures:
        raise ValueError("rouge_types: at least one ROUGE type is required")
    return measures
