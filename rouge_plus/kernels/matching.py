"""Maximum one-to-one matching of units (n-gram occurrences) under a symmetric relation.

ROUGE 2.0's "+Synonyms" measures let a unit of the prediction match a unit of the reference when
every position holds the same word or synonyms. Counting each unit at most once on both sides
means finding a maximum matching in that bipartite graph: a greedy pass can undercount (a
prediction unit may take the one reference unit another prediction unit needed), so the exact
matches are taken first and then augmenting paths are searched: Kuhn's algorithm over classes
of identical units, with their counts as capacities. The result never exceeds either
side's number of units, and swapping the two sides gives the same count.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Hashable


def maximum_matching(
    left: Counter, right: Counter, compatible: Callable[[Hashable, Hashable], bool]
) -> int:
    """Size of a maximum matching between the units of ``left`` and ``right``.

    ``left``/``right`` count the units of each kind; a unit of kind ``a`` may be matched with one
    of kind ``b`` when ``a == b`` or ``compatible(a, b)``.
    """
    return matched_pairs(left, right, compatible).total()


def matched_pairs(
    left: Counter, right: Counter, compatible: Callable[[Hashable, Hashable], bool]
) -> Counter:
    """A maximum matching itself: ``{(a, b): units}``, how many units of left kind ``a`` are
    matched with units of right kind ``b`` (exact pairs ``(a, a)`` included).

    Its total is :func:`maximum_matching`; it says which kinds pair up, for highlighting.
    """
    options = {a: [b for b in right if a == b or compatible(a, b)] for a in left}
    taken: Counter = Counter()  # matched units of each right kind
    assigned: dict[Hashable, Counter] = defaultdict(Counter)  # right kind -> left kind -> units
    matched_left: Counter = Counter()  # matched units of each left kind
    for a, count in left.items():  # start from the exact matches
        k = min(count, right.get(a, 0))
        if k:
            taken[a] = assigned[a][a] = matched_left[a] = k

    def augment(a: Hashable, seen: set) -> bool:
        """Match one more unit of kind ``a``, moving others along an alternating path."""
        for b in options[a]:
            if b in seen:
                continue
            seen.add(b)
            if taken[b] < right[b]:
                taken[b] += 1
                assigned[b][a] += 1
                return True
            for other, units in list(assigned[b].items()):
                if units and augment(other, seen):
                    assigned[b][other] -= 1
                    assigned[b][a] += 1
                    return True
        return False

    # From any starting matching, augmenting paths reach a maximum one (Berge); a kind whose
    # search failed can never be augmented later, so each kind is searched until it fails.
    for a, count in left.items():
        while matched_left[a] < count and augment(a, set()):
            matched_left[a] += 1
    return Counter(
        {(a, b): units for b, row in assigned.items() for a, units in row.items() if units}
    )
