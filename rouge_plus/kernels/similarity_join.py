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

:func:`candidate_pairs` returns every pair whose prefixes share an element, from an inverted
index of one side's prefixes; the caller derives the α of each document from its score bound,
filters the candidates by that bound and counts the rest exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
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
        sizes = np.minimum(sizes, self.starts[docs + 1] - self.starts[docs]).astype(np.int64)
        owner = np.repeat(docs, sizes)
        before = np.cumsum(sizes) - sizes
        place = np.arange(len(owner)) - np.repeat(before, sizes)
        return owner, self.keys[np.repeat(self.starts[docs], sizes) + place], place

    def lengths(self, docs: np.ndarray) -> np.ndarray:
        return self.starts[docs + 1] - self.starts[docs]

    def shared(self, docs: np.ndarray, others: np.ndarray) -> np.ndarray:
        """How many elements each document ``docs[k]`` shares with ``others[k]``: the clipped
        unigram overlap of the two."""
        sizes = self.lengths(docs)
        pair = np.repeat(np.arange(len(docs)), sizes)
        at = np.repeat(self.starts[docs] - np.cumsum(sizes) + sizes, sizes) + np.arange(len(pair))
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


Window = Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]


def candidate_pairs(
    elements: Elements,
    probes: tuple[np.ndarray, np.ndarray],
    indexed: tuple[np.ndarray, np.ndarray],
    ordered: bool,
    chunk_pairs: int,
    needs: Needs,
    window: Window,
) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Every pair ``(p, q)`` of a probe document ``p`` and an indexed document ``q`` whose
    prefixes share an element (with ``p < q`` when ``ordered``) and that the positional filter
    admits, each pair once, in chunks of about ``chunk_pairs`` pairs at most (all pairs of one
    probe document are in one chunk).

    ``probes`` and ``indexed`` are ``(documents, prefix sizes)``; each probe document's elements
    are read in the global order. Found through a shared element at place i of p and j of q, a
    pair whose FIRST shared element it is has an overlap of at most ``min(|p| − i, |q| − j)``,
    the two *rests* (no element before it is shared): the positional filter of PPJoin admits it
    there when ``needs`` allows that overlap. ``window(p, rest)`` bounds, for a probe element of
    p with that rest, the rests of the postings the filter could admit with it (``(lo, hi)``,
    inclusive), and only those postings are read: each element's postings are sorted by rest.
    The first posting of q that p reads decides the pair. A pair that can reach the threshold
    is read first at its first shared element, which both prefixes hold (the prefix lemma), so
    it is admitted; a pair read first later could not pass there, so whatever the later
    decision, nothing is lost. The loop over the postings is compiled (``_similarity_join.c``),
    with :func:`_first_visits` as its twin.
    """
    index_doc, index_key, index_place = elements.prefixes(*indexed)
    index_rest = elements.lengths(index_doc) - index_place
    width = int(index_rest.max()) + 1 if len(index_rest) else 1
    combined = index_key * width + index_rest
    by_posting = np.argsort(combined, kind="stable")  # postings by element, then by rest
    combined, index_doc = combined[by_posting], index_doc[by_posting]
    index_rest = index_rest[by_posting]
    probe_doc, probe_key, probe_place = elements.prefixes(*probes)
    probe_rest = elements.lengths(probe_doc) - probe_place
    lo, hi = window(probe_doc, probe_rest)
    left = np.searchsorted(combined, probe_key * width + np.clip(lo, 0, width))
    right = np.searchsorted(combined, probe_key * width + np.clip(hi, -1, width - 1), "right")
    counts = np.maximum(right - left, 0)
    postings = (index_doc, index_rest)
    seen = np.full(len(elements.starts) - 1, -1, dtype=np.int64)
    # Chunks end where a probe document ends (its elements are contiguous in probe_doc), after
    # about chunk_pairs postings.
    ends = np.flatnonzero(np.diff(probe_doc, append=-1) != 0) + 1
    chunk = np.cumsum(counts)[ends - 1] // chunk_pairs
    start = 0
    for stop in ends[np.diff(chunk, append=-1) != 0].tolist():
        span = slice(start, stop)
        start = stop
        if counts[span].any():
            span_probes = (probe_doc[span], probe_rest[span], left[span], counts[span])
            yield _first_visits(elements, span_probes, postings, needs, seen, ordered)


def _first_visits(
    elements: Elements,
    probes: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    postings: tuple[np.ndarray, np.ndarray],
    needs: Needs,
    seen: np.ndarray,
    ordered: bool,
) -> tuple[np.ndarray, np.ndarray]:
    """The pairs of :func:`candidate_pairs` from the probe elements ``(document, rest, first
    posting, number of postings)``, with the postings ``(document, rest)``; ``seen``: the last
    probe document that read each document (updated). A pair the positional filter admits
    is kept when the two documents share at least need(p, q) elements in all."""
    probe_doc, probe_rest, left, counts = probes
    total = int(counts.sum())
    if _compiled is not None:
        out_p, out_q = np.empty(total, dtype=np.int64), np.empty(total, dtype=np.int64)
        table = np.ascontiguousarray(needs.table, dtype=np.float64)
        n = _compiled.first_visits(
            elements.keys,
            elements.starts,
            *probes,
            *postings,
            needs.probe_profile,
            needs.indexed_profile,
            table,
            table.shape[1],
            needs.present,
            needs.excess,
            seen,
            ordered,
            out_p,
            out_q,
        )
        return out_p[:n], out_q[:n]
    posting = np.repeat(left - np.cumsum(counts) + counts, counts) + np.arange(total)
    p, q = np.repeat(probe_doc, counts), postings[0][posting]
    most = np.minimum(np.repeat(probe_rest, counts), postings[1][posting])
    # The documents read before, by an earlier probe document (as the compiled loop skips).
    fresh = (seen[q] != p) & (q > p if ordered else True)
    p, q, most = p[fresh], q[fresh], most[fresh]
    n_docs = len(seen)
    pairs, first = np.unique(p * n_docs + q, return_index=True)  # the first posting of each
    p, q = pairs // n_docs, pairs % n_docs
    seen[q] = p
    need = needs.table[needs.probe_profile[p], needs.indexed_profile[q]]
    hashed = popcount(needs.present[p] & needs.present[q]).sum(axis=1, dtype=np.int64)
    hashed = hashed + np.minimum(needs.excess[p], needs.excess[q])
    admitted = (need <= most[first]) & (hashed >= need)
    p, q, need = p[admitted], q[admitted], need[admitted]
    reaching = elements.shared(p, q) >= need
    return p[reaching], q[reaching]
