"""Candidate pairs of a thresholded similarity join, by prefix filtering (Chaudhuri et al. 2006;
Bayardo et al. 2007, AllPairs; Xiao et al. 2008, PPJoin), over token ids with NumPy.

A document is seen as the set of its *elements* ``(w, k)``, the k-th occurrence of word ``w``
(k = 1, 2, ...), so that the clipped unigram overlap of two documents,
U = Σ_w min(a_w, b_w), is the size of the intersection of their element sets. Elements are put in
one global order, the rarest word first (fewest documents), then by k.

**The prefix lemma.** If two documents x and y share at least α elements, then the first
``|x| − α + 1`` elements of x and the first ``|y| − α + 1`` elements of y (their prefixes, in
the global order) share one. Proof: let e be the first shared element in the global order. At
least α − 1 shared elements come after e, and each of them is in x after e, so e is among the
first ``|x| − (α − 1)`` elements of x; the same holds in y. A longer prefix (a smaller α) only
adds elements, so each document may take its own α, any lower bound on the overlap that a
pair of it needs: x with α_x and y with α_y share a prefix element whenever U ≥ max(α_x, α_y).

:func:`candidate_pairs` returns the pairs whose prefixes share an element, from an inverted
index of one side's prefixes, that pass PPJoin's positional filter and share at least the
overlap their score needs (:class:`Needs`, which the caller derives from its score bound); the
caller counts them exactly. Its loop over the index is compiled (``_similarity_join.c``), with
:func:`_first_visits` as its NumPy twin.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

import numpy as np

from .._compiled import compiled

_compiled = compiled("kernels._similarity_join")


def _popcount_by_bytes(values: np.ndarray) -> np.ndarray:
    """The number of 1 bits of each uint64, for NumPy versions without ``np.bitwise_count``."""
    per_byte = _BYTE_BITS[values.view(np.uint8)]
    return per_byte.reshape(*values.shape, 8).sum(axis=-1, dtype=np.uint8)


_BYTE_BITS = np.array([bin(byte).count("1") for byte in range(256)], dtype=np.uint8)
popcount = getattr(np, "bitwise_count", _popcount_by_bytes)


def _ranges(firsts: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """``firsts[k], firsts[k] + 1, ..., firsts[k] + sizes[k] - 1`` for every k, one after the
    other."""
    return np.repeat(firsts - np.cumsum(sizes) + sizes, sizes) + np.arange(sizes.sum())


def document_frequency(owner: np.ndarray, ids: np.ndarray, vocab: int) -> np.ndarray:
    """How many documents hold each word id ``0 .. vocab - 1``, from ``owner[t]`` and ``ids[t]``
    of every token (by sorting, which NumPy does faster than hashing for int64 keys)."""
    keys = np.sort(owner.astype(np.int64) * vocab + ids)
    first = np.ones(len(keys), dtype=bool)
    first[1:] = keys[1:] != keys[:-1]
    return np.bincount(keys[first] % vocab, minlength=vocab)


class Elements:
    """Every document's elements, as places in the global order (dense int64 keys), each
    document's run sorted: ``keys[starts[d]:starts[d + 1]]`` are document ``d``'s."""

    __slots__ = ("keys", "starts", "_by_document")

    def __init__(
        self, owner: np.ndarray, ids: np.ndarray, n_docs: int, frequency: np.ndarray
    ) -> None:
        """``owner[t]`` and ``ids[t]``: the document and word id of every token ``t``, tokens
        grouped by document in document order; ``frequency``: :func:`document_frequency`."""
        vocab = max(len(frequency), 1)
        rank = np.empty(vocab, dtype=np.int64)
        rank[np.argsort(frequency, kind="stable")] = np.arange(len(frequency))
        # Sorted by (document, word rank): the occurrences of a word are adjacent, k counts them.
        ordered = np.sort(owner.astype(np.int64) * vocab + rank[ids])
        doc, word = ordered // vocab, ordered % vocab
        new_run = np.ones(len(ordered), dtype=bool)
        new_run[1:] = ordered[1:] != ordered[:-1]
        run_start = np.maximum.accumulate(np.where(new_run, np.arange(len(ordered)), 0))
        occurrence = np.arange(len(ordered)) - run_start
        # Element (w, k) is the k-th place of w's block, blocks in rank order, each as wide as
        # the most occurrences of w in one document: dense keys in the global order.
        widest = np.zeros(vocab, dtype=np.int64)
        np.maximum.at(widest, word, occurrence + 1)
        self.keys = np.cumsum(widest)[word] - widest[word] + occurrence
        self.starts = np.zeros(n_docs + 1, dtype=np.int64)
        np.cumsum(np.bincount(doc, minlength=n_docs), out=self.starts[1:])
        self._by_document: np.ndarray | None = None

    def prefixes(
        self, docs: np.ndarray, sizes: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The first ``sizes[k]`` elements of each document ``docs[k]``: the document, key and
        place (0, 1, ...) in its document of each, documents in the order of ``docs``."""
        sizes = np.minimum(sizes, self.lengths(docs)).astype(np.int64)
        at = _ranges(self.starts[docs], sizes)
        return np.repeat(docs, sizes), self.keys[at], at - np.repeat(self.starts[docs], sizes)

    def lengths(self, docs: np.ndarray) -> np.ndarray:
        return self.starts[docs + 1] - self.starts[docs]

    def shared(self, docs: np.ndarray, others: np.ndarray) -> np.ndarray:
        """How many elements each document ``docs[k]`` shares with ``others[k]``: the clipped
        unigram overlap of the two."""
        sizes = self.lengths(docs)
        pair = np.repeat(np.arange(len(docs)), sizes)
        at = _ranges(self.starts[docs], sizes)
        n_keys = len(self.keys) + 1  # more than any key
        if self._by_document is None:  # sorted: by document, then by element
            owner = np.repeat(np.arange(len(self.starts) - 1), np.diff(self.starts))
            self._by_document = owner * n_keys + self.keys
        everything = self._by_document
        wanted = others[pair] * n_keys + self.keys[at]
        place = np.minimum(np.searchsorted(everything, wanted), len(everything) - 1)
        found = everything[place] == wanted if len(everything) else np.zeros(0, dtype=bool)
        return np.bincount(pair, weights=found, minlength=len(docs))


class Needs(NamedTuple):
    """need(p, q) = ``table[probe_profile[p], indexed_profile[q]]``: the least overlap at which
    the pair of documents p and q may reach the threshold (∞: never); and a quick upper bound
    on their overlap, ``popcount(present[p] & present[q]) + min(excess[p], excess[q])`` (the
    buckets of ``all_pairs._Bounds``)."""

    table: np.ndarray  # float64, (probe profiles, indexed profiles)
    probe_profile: np.ndarray  # int64 per document
    indexed_profile: np.ndarray
    present: np.ndarray  # uint64, (documents, words)
    excess: np.ndarray  # float64 per document
    # Each row of the table sorted, and the least and the greatest column among its first k
    # entries: the columns whose need is at most a rest r lie between the two at k = the
    # entries <= r, so the compiled loop reads only the groups of that range.
    sorted_table: np.ndarray
    least_column: np.ndarray
    greatest_column: np.ndarray

    @classmethod
    def of(
        cls,
        table: np.ndarray,
        probe_profile: np.ndarray,
        indexed_profile: np.ndarray,
        present: np.ndarray,
        excess: np.ndarray,
    ) -> Needs:
        table = np.ascontiguousarray(table, dtype=np.float64)
        order = np.argsort(table, axis=1, kind="stable")
        sorted_table = np.take_along_axis(table, order, axis=1)
        least, greatest = np.minimum.accumulate(order, axis=1), np.maximum.accumulate(order, axis=1)
        return cls(
            table, probe_profile, indexed_profile, present, excess, sorted_table, least, greatest
        )


def candidate_pairs(
    elements: Elements,
    probes: tuple[np.ndarray, np.ndarray],
    indexed: tuple[np.ndarray, np.ndarray],
    ordered: bool,
    chunk_pairs: int,
    needs: Needs,
) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Every pair ``(p, q)`` of a probe document ``p`` and an indexed document ``q`` whose
    prefixes share an element (with ``p < q`` when ``ordered``), that the positional filter
    admits and whose documents share at least need(p, q) elements, each pair once, in chunks
    (all pairs of one probe document are in one chunk; a chunk holds the postings of about
    ``chunk_pairs`` probe elements).

    ``probes`` and ``indexed`` are ``(documents, prefix sizes)``. Found through a shared element
    at place i of p and j of q, a pair whose FIRST shared element it is has an overlap of at
    most ``min(|p| − i, |q| − j)``, the two *rests* (no element before it is shared): the
    positional filter of PPJoin admits it there when need(p, q) is at most both rests. A pair
    that can reach the threshold passes at its first shared element, which both prefixes hold
    (the prefix lemma); a pair that passes at a later one only is admitted too, which loses
    nothing. Each element's postings are grouped by the indexed document's profile (its column
    of the need table) and sorted by rest within a group, so that the postings that pass are a
    tail of each group whose need the probe's rest allows: the compiled loop
    (``_similarity_join.c``) reads only those; :func:`_first_visits` is its twin.
    """
    index_doc, index_key, index_place = elements.prefixes(*indexed)
    index_rest = elements.lengths(index_doc) - index_place
    index_profile = needs.indexed_profile[index_doc]
    by_posting = np.lexsort((index_rest, index_profile, index_key))
    index_doc, index_key = index_doc[by_posting], index_key[by_posting]
    index_rest, index_profile = index_rest[by_posting], index_profile[by_posting]
    # Groups: the postings of one element and one profile.
    new_group = np.ones(len(by_posting), dtype=bool)
    new_group[1:] = (index_key[1:] != index_key[:-1]) | (index_profile[1:] != index_profile[:-1])
    group_first = np.flatnonzero(new_group)
    n_keys = len(elements.keys) + 1  # more than any key
    groups_of = np.bincount(index_key[group_first], minlength=n_keys)
    # The indexed documents numbered 0 .. k - 1 in order (their slots): what the loop reads of
    # them at random then lies in arrays of k entries, not of every document.
    docs = np.unique(indexed[0])
    slot_of = np.full(len(elements.starts) - 1, -1, dtype=np.int64)
    slot_of[docs] = np.arange(len(docs))
    postings = Postings(
        np.concatenate([[0], np.cumsum(groups_of)]),
        np.append(group_first, len(by_posting)),
        index_profile[group_first],
        slot_of[index_doc],
        index_rest,
        docs,
        None if _compiled is None else _records(docs, needs),
    )
    probe_doc, probe_key, probe_place = elements.prefixes(*probes)
    probe_rest = elements.lengths(probe_doc) - probe_place
    # Ordered, a probe document pairs with the indexed documents after it: the slots from the
    # first of those on.
    floor = np.searchsorted(docs, probe_doc, "right") if ordered else np.zeros_like(probe_doc)
    # Chunks end where a probe document ends (its elements are contiguous in probe_doc), after
    # the postings of about chunk_pairs elements.
    read = postings.read(probe_key)
    ends = np.flatnonzero(np.diff(probe_doc, append=-1) != 0) + 1
    chunk = np.cumsum(read)[ends - 1] // chunk_pairs
    start = 0
    for stop in ends[np.diff(chunk, append=-1) != 0].tolist():
        span = slice(start, stop)
        start = stop
        if read[span].any():
            span_probes = ProbeElements(
                probe_doc[span], probe_key[span], probe_rest[span], floor[span]
            )
            yield _first_visits(elements, span_probes, postings, needs)


class ProbeElements(NamedTuple):
    """Prefix elements of probe documents, each document's together and in the global order."""

    doc: np.ndarray
    key: np.ndarray
    rest: np.ndarray  # elements of the document from this one on
    floor: np.ndarray  # the first slot it may pair with


class Postings(NamedTuple):
    """The indexed documents' prefix elements: by element, then by the document's profile (in
    groups), then by rest; and per indexed document (by slot), the document."""

    groups: np.ndarray  # element k's groups: groups[k] .. groups[k + 1] - 1
    group_starts: np.ndarray  # group g's postings: group_starts[g] .. group_starts[g + 1] - 1
    group_profile: np.ndarray  # the documents' column of the need table
    slot: np.ndarray  # per posting
    rest: np.ndarray
    docs: np.ndarray  # per slot
    records: np.ndarray | None  # per slot, what the compiled loop reads: see :func:`_records`

    def read(self, keys: np.ndarray) -> np.ndarray:
        """The postings of each element ``keys[k]``."""
        return self.group_starts[self.groups[keys + 1]] - self.group_starts[self.groups[keys]]


def _records(docs: np.ndarray, needs: Needs) -> np.ndarray:
    """Per indexed document, what the compiled loop reads of it at random, in one cache line
    of 8 int64: the last probe document that admitted it (-1 at first), the document, its
    excess (the bits of a float64) and its present words (at most 5)."""
    records = np.zeros((len(docs), 8), dtype=np.int64)
    records[:, 0] = -1
    records[:, 1] = docs
    records[:, 2] = needs.excess[docs].astype(np.float64).view(np.int64)
    words = needs.present.shape[1]
    records[:, 3 : 3 + words] = needs.present[docs].view(np.int64)
    return records


def _first_visits(
    elements: Elements,
    probes: ProbeElements,
    postings: Postings,
    needs: Needs,
) -> tuple[np.ndarray, np.ndarray]:
    """The pairs of :func:`candidate_pairs` from some probe elements. A pair is admitted by the
    positional filter at any posting that passes it, then kept when the two documents share at
    least need(p, q) elements in all."""
    read = postings.read(probes.key)
    if _compiled is not None:
        # A probe document admits each indexed document once at most.
        probe_docs = 1 + int(np.count_nonzero(np.diff(probes.doc)))
        capacity = min(int(read.sum()), probe_docs * len(postings.docs))
        out_p, out_q = np.empty(capacity, dtype=np.int64), np.empty(capacity, dtype=np.int64)
        n = _compiled.first_visits(
            *(elements.keys, elements.starts),
            *(probes.doc, probes.key, probes.rest, probes.floor),
            *(postings.groups, postings.group_starts, postings.group_profile),
            *(postings.slot, postings.rest, postings.records),
            *(needs.probe_profile, needs.table, needs.table.shape[1]),
            *(needs.sorted_table, needs.least_column, needs.greatest_column),
            *(needs.present, needs.excess, out_p, out_q),
        )
        return out_p[:n], out_q[:n]
    posting = _ranges(postings.group_starts[postings.groups[probes.key]], read)
    group = np.searchsorted(postings.group_starts, posting, "right") - 1
    p, slot = np.repeat(probes.doc, read), postings.slot[posting]
    q = postings.docs[slot]
    most = np.minimum(np.repeat(probes.rest, read), postings.rest[posting])
    need = needs.table[needs.probe_profile[p], postings.group_profile[group]]
    passes = (need <= most) & (slot >= np.repeat(probes.floor, read))
    p, q, need = p[passes], q[passes], need[passes]
    n_docs = len(elements.starts) - 1
    pairs, first = np.unique(p * n_docs + q, return_index=True)
    p, q, need = pairs // n_docs, pairs % n_docs, need[first]
    hashed = popcount(needs.present[p] & needs.present[q]).sum(axis=1, dtype=np.int64)
    hashed = hashed + np.minimum(needs.excess[p], needs.excess[q])
    near = hashed >= need
    p, q, need = p[near], q[near], need[near]
    reaching = elements.shared(p, q) >= need
    return p[reaching], q[reaching]
