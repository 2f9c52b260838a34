"""ROUGE-S*D* and ROUGE-SU*D*: skip-bigram co-occurrence as ROUGE-1.5.5 counts it (``-2 D -u``).

Units of a text (its sentences joined into one token list ``t``, so pairs cross sentence
boundaries as in 1.5.5): every ordered pair ``(t[i], t[j])`` with ``i < j`` and at most ``D``
tokens between them (``j - i <= D + 1``; ``None`` or a negative ``D`` means no limit). With
unigrams (SU), each token also counts as a unit, except the text's very last token: 1.5.5 adds a
unigram only while it still has a pair partner to its right, so a one-token text has no unit at
all. Overlap is clipped per unit, as for ROUGE-N.

Cost: O(len·D) units per text for a bounded gap; ROUGE-S* (no limit) has len·(len-1)/2 pairs,
i.e. O(len²) time, which is why 1.5.5 users almost always pick S4 or SU4. Memory follows the
distinct units of words the two texts share: the other words are counted as one stand-in
(a 5,000-token text of distinct words took 1.6 GB when each pair was kept).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence

from .ngram import clipped_overlap

Sentences = Sequence[Sequence[Hashable]]


def _flatten(sentences: Sentences) -> list[Hashable]:
    return [token for sentence in sentences for token in sentence]


def skip_units(tokens: Sequence[Hashable], max_gap: int | None, with_unigrams: bool) -> Counter:
    """The skip-bigram (and, for SU, unigram) units of one token list, with their counts."""
    units: Counter = Counter()
    widest = len(tokens) - 1
    if max_gap is not None and max_gap >= 0:
        widest = min(widest, max_gap + 1)
    for distance in range(1, widest + 1):
        units.update(zip(tokens, tokens[distance:], strict=False))
    if with_unigrams:
        units.update((token,) for token in tokens[:-1])
    return units


class _Other:
    """The stand-in of the words one text has and the other not (no unit with it can match)."""


def _shared_units(
    tokens: list[Hashable], shared: set[Hashable], max_gap: int | None, with_unigrams: bool
) -> tuple[Counter, int]:
    """The units of ``tokens`` made only of ``shared`` words, and how many units it has."""
    other = _Other()
    units = skip_units([t if t in shared else other for t in tokens], max_gap, with_unigrams)
    total = units.total()
    for unit in [unit for unit in units if other in unit]:
        del units[unit]
    return units, total


def counts(
    pred_sents: Sentences,
    ref_sents: Sentences,
    max_gap: int | None,
    with_unigrams: bool,
) -> tuple[float, float, float]:
    """``(hit, pred_base, ref_base)``: clipped matching units, prediction units, reference units."""
    pred, ref = _flatten(pred_sents), _flatten(ref_sents)
    shared = set(pred).intersection(ref)
    pred_units, pred_base = _shared_units(pred, shared, max_gap, with_unigrams)
    ref_units, ref_base = _shared_units(ref, shared, max_gap, with_unigrams)
    return float(clipped_overlap(pred_units, ref_units)), float(pred_base), float(ref_base)
