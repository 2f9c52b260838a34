"""Maximum one-to-one matching of units (n-gram occurrences) under a symmetric relation.

ROUGE 2.0's "+Synonyms" measures let a unit of the prediction match a unit of the reference when
every position holds the same word or synonyms. Counting each unit at most once on both sides
means finding a maximum matching in that bipartite graph: a greedy pass can undercount (a
prediction unit may take the one reference unit another prediction unit needed).

Identical units form one kind, whose count is its capacity, so the graph has one node per kind,
not per occurrence: the matching is a maximum flow from the left kinds to the right ones. The
exact matches are taken first, then Dinic's algorithm augments along shortest paths, a whole
layer of them per breadth-first search, so the work stays near-linear in the number of edges
between kinds however many occurrences each kind has. The result never exceeds either side's
number of units, and swapping the two sides gives the same count.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable

Candidates = Callable[[Hashable], Iterable[Hashable]]

_DEAD = -2  # a node that no shortest augmenting path of the current phase can pass


def maximum_matching(
    left: Counter,
    right: Counter,
    compatible: Callable[[Hashable, Hashable], bool],
    candidates: Candidates | None = None,
) -> int:
    """Size of a maximum matching between the units of ``left`` and ``right``.

    ``left``/``right`` count the units of each kind; a unit of kind ``a`` may be matched with one
    of kind ``b`` when ``a == b`` or ``compatible(a, b)``. ``candidates(a)``, when given, lists
    the right kinds worth testing for ``a``, each once (a superset of its compatible ones),
    which spares comparing every pair of kinds on long texts.
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
    return _KindFlow(left, right, compatible, candidates).maximum()


class _KindFlow:
    """The flow network source -> left kind (its count) -> right kind (unbounded, when
    compatible) -> sink (its count), with its residual state."""

    def __init__(
        self,
        left: Counter,
        right: Counter,
        compatible: Callable[[Hashable, Hashable], bool],
        candidates: Candidates | None,
    ) -> None:
        self.left_kinds = [a for a, count in left.items() if count > 0]
        self.right_kinds = [b for b, count in right.items() if count > 0]
        right_number = {b: j for j, b in enumerate(self.right_kinds)}
        self.supply = [left[a] for a in self.left_kinds]  # left units not matched yet
        self.demand = [right[b] for b in self.right_kinds]  # right units not matched yet
        self.edge_left: list[int] = []
        self.edge_right: list[int] = []
        self.out_edges: list[list[int]] = [[] for _ in self.left_kinds]
        self.in_edges: list[list[int]] = [[] for _ in self.right_kinds]
        for i, a in enumerate(self.left_kinds):
            pool = self.right_kinds if candidates is None else candidates(a)
            for b in pool:
                j = right_number.get(b)
                if j is not None and (a == b or compatible(a, b)):
                    self._add_edge(i, j)
        self.flow = [0] * len(self.edge_left)

    def _add_edge(self, i: int, j: int) -> None:
        edge = len(self.edge_left)
        self.edge_left.append(i)
        self.edge_right.append(j)
        self.out_edges[i].append(edge)
        self.in_edges[j].append(edge)

    def maximum(self) -> Counter:
        for edge, (i, j) in enumerate(zip(self.edge_left, self.edge_right, strict=True)):
            if self.left_kinds[i] == self.right_kinds[j]:  # the exact matches first
                self._push([edge], [], min(self.supply[i], self.demand[j]))
        while self._layer():
            for start in range(len(self.left_kinds)):
                while self.supply[start] > 0 and self._augment(start):
                    pass
        return Counter(
            {
                (self.left_kinds[self.edge_left[e]], self.right_kinds[self.edge_right[e]]): units
                for e, units in enumerate(self.flow)
                if units
            }
        )

    def _layer(self) -> bool:
        """Breadth-first levels from the left kinds with units to spare, along unbounded left
        to right edges and right to left edges that carry flow; whether a right kind with
        units to spare is reachable (then its level bounds the search)."""
        self.level_left = [-1] * len(self.left_kinds)
        self.level_right = [-1] * len(self.right_kinds)
        queue = [i for i, units in enumerate(self.supply) if units > 0]
        for i in queue:
            self.level_left[i] = 0
        reached: int | None = None
        for i in queue:  # grows while it is read
            level = self.level_left[i] + 1
            if reached is not None and level > reached:
                break
            for edge in self.out_edges[i]:
                j = self.edge_right[edge]
                if self.level_right[j] >= 0:
                    continue
                self.level_right[j] = level
                if self.demand[j] > 0:
                    reached = level
                    continue
                for back in self.in_edges[j]:
                    other = self.edge_left[back]
                    if self.flow[back] > 0 and self.level_left[other] < 0:
                        self.level_left[other] = level + 1
                        queue.append(other)
        self.next_out = [0] * len(self.left_kinds)
        self.next_in = [0] * len(self.right_kinds)
        return reached is not None

    def _augment(self, start: int) -> bool:
        """Push flow along one shortest path from ``start`` (iterative depth-first search with
        the current-edge pointers of Dinic's algorithm, so dead ends are not searched twice)."""
        path: list[int] = [start]  # left kinds
        forward: list[int] = []  # edge from path[k] to a right kind
        backward: list[int] = []  # edge back from that right kind to path[k + 1]
        while path:
            i = path[-1]
            moved = False
            edges = self.out_edges[i]
            while self.next_out[i] < len(edges):
                edge = edges[self.next_out[i]]
                j = self.edge_right[edge]
                if self.level_right[j] != self.level_left[i] + 1:
                    self.next_out[i] += 1
                    continue
                if self.demand[j] > 0:
                    forward.append(edge)
                    amount = min(
                        self.supply[start], self.demand[j], *(self.flow[b] for b in backward)
                    )
                    self._push(forward, backward, amount)
                    return True
                back = self._next_back(j)
                if back is None:
                    self.level_right[j] = _DEAD
                    self.next_out[i] += 1
                    continue
                forward.append(edge)
                backward.append(back)
                path.append(self.edge_left[back])
                moved = True
                break
            if not moved:
                self.level_left[i] = _DEAD
                path.pop()
                if forward:
                    self.next_in[self.edge_right[forward.pop()]] += 1
                    backward.pop()
        return False

    def _next_back(self, j: int) -> int | None:
        """The next edge that carries flow from right kind ``j`` back to a left kind one
        level further, or None."""
        edges = self.in_edges[j]
        level = self.level_right[j] + 1
        while self.next_in[j] < len(edges):
            edge = edges[self.next_in[j]]
            if self.flow[edge] > 0 and self.level_left[self.edge_left[edge]] == level:
                return edge
            self.next_in[j] += 1
        return None

    def _push(self, forward: list[int], backward: list[int], amount: int) -> None:
        """Move ``amount`` units along a path: more on its forward edges, less on its backward
        ones; its first left kind and last right kind use up that many spare units."""
        for edge in forward:
            self.flow[edge] += amount
        for edge in backward:
            self.flow[edge] -= amount
        self.supply[self.edge_left[forward[0]]] -= amount
        self.demand[self.edge_right[forward[-1]]] -= amount
