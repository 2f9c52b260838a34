"""Clipped n-gram overlap (ROUGE-N)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence


def ngram_counts(tokens: Sequence[Hashable], n: int) -> Counter:
    """Count the n-grams of a token list; unigrams are counted as bare tokens."""
    if n == 1:
        return Counter(tokens)
    return Counter(zip(*(tokens[i:] for i in range(n)), strict=False))


def clipped_overlap(first: Counter, second: Counter) -> int:
    """``sum_g min(first[g], second[g])``: the matched n-grams, each clipped to its rarer side."""
    if len(first) > len(second):
        first, second = second, first
    return sum(min(count, second[gram]) for gram, count in first.items() if gram in second)
