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

import itertools
from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Iterable, Iterator

Candidates = Callable[[Hashable], Iterable[Hashable]]


def maximum_matching(
    left: Counter,
    right: Counter,
    compatible: Callable[[Hashable, Hashable], bool],
    candidates: Candidates | None = None,
) -> int:
    """Size of a maximum matching between the units of ``left`` and ``right``.

    ``left``/``right`` count the units of each kind; a unit of kind ``a`` may be matched with one
    of kind ``b`` when ``a == b`` or ``compatible(a, b)``. ``candidates(a)``, when given, lists
    the right kinds worth testing for ``a`` (a superset of its compatible ones), which spares
    comparing every pair of kinds on long texts.
    """
    return matched_pairs(left, right, compatible, candidates).total()


def matched_pairs(
    left: Counter,
    right: Counter,
    compatible: Callable[[Hashable, Hashable], bool],
    candidates: Candidates | None = None,
) -> Counter:
    """A maximum matching itself: ``{(a, b): units}``, how many units of left kind ``a`` are
    matched with units of right kind ``b`` (exact pairs ``(a, a)`` included).

    Its total is :func:`maximum_matching`; it says which kinds pair up, for highlighting.
    """
    options = {
        a: [
            b
            for b in (right if candidates is None else candidates(a))
            if b in right and (a == b or compatible(a, b))
        ]
        for a in left
    }
    taken: Counter = Counter()  # matched units of each right kind
    assigned: dict[Hashable, Counter] = defaultdict(Counter)  # right kind -> left kind -> units
    matched_left: Counter = Counter()  # matched units of each left kind
    for a, count in left.items():  # start from the exact matches
        k = min(count, right.get(a, 0))
        if k:
            taken[a] = assigned[a][a] = matched_left[a] = k

    def augment(start: Hashable) -> bool:
        """Match one more unit of kind ``start`` along an alternating path (iterative depth-first
        search: paths can be longer than Python's recursion limit on long texts)."""
        seen: set = set()

        def steps(a: Hashable) -> Iterator[tuple[Hashable, Hashable | None]]:
            for b in options[a]:
                if b in seen:
                    continue
                seen.add(b)
                if taken[b] < right[b]:
                    yield b, None
                    return
                for other, units in list(assigned[b].items()):
                    if units:
                        yield b, other

        stack = [(start, steps(start), None)]  # (left kind, its steps, right kind it came by)
        while stack:
            a, pending, _ = stack[-1]
            step = next(pending, None)
            if step is None:
                stack.pop()
            elif step[1] is None:  # a free unit of kind b: shift one unit along the path
                b = step[0]
                taken[b] += 1
                assigned[b][a] += 1
                for (previous, _, _), (moved, _, via) in itertools.pairwise(stack):
                    assigned[via][moved] -= 1
                    assigned[via][previous] += 1
                return True
            else:
                stack.append((step[1], steps(step[1]), step[0]))
        return False

    # From any starting matching, augmenting paths reach a maximum one (Berge); a kind whose
    # search failed can never be augmented later, so each kind is searched until it fails.
    for a, count in left.items():
        while matched_left[a] < count and augment(a):
            matched_left[a] += 1
    return Counter(
        {(a, b): units for b, row in assigned.items() for a, units in row.items() if units}
    )
