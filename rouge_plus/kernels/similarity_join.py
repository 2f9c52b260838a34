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

import numpy as np


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

    __slots__ = ("keys", "starts")

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


Admit = Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]


def candidate_pairs(
    elements: Elements,
    probes: tuple[np.ndarray, np.ndarray],
    indexed: tuple[np.ndarray, np.ndarray],
    ordered: bool,
    chunk_pairs: int,
    admit: Admit,
) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Every pair ``(p, q)`` of a probe document ``p`` and an indexed document ``q`` whose
    prefixes share an element (with ``p < q`` when ``ordered``) and that ``admit`` admits, each
    pair once, in chunks of about ``chunk_pairs`` pairs (all pairs of one probe document are in
    one chunk, so a pair found through several shared elements is returned once).

    ``probes`` and ``indexed`` are ``(documents, prefix sizes)``. ``admit(p, q, most)`` says
    which pairs may reach the threshold when their overlap is at most ``most``: found through
    a shared element at place i of p and j of q, a pair whose FIRST shared element it is has an
    overlap of at most ``min(|p| − i, |q| − j)`` (no element before it is shared), the
    positional filter of PPJoin. A pair that reaches the threshold is admitted at its first
    shared element, which both prefixes hold (the prefix lemma); at a later one it may be
    refused, which loses nothing.
    """
    index_doc, index_key, index_place = elements.prefixes(*indexed)
    by_key = np.lexsort((index_doc, index_key))
    index_doc, index_key = index_doc[by_key], index_key[by_key]
    index_rest = elements.lengths(index_doc) - index_place[by_key]
    n_docs = len(elements.starts) - 1
    combined = index_key * n_docs + index_doc  # sorted: postings by key, documents ascending
    probe_doc, probe_key, probe_place = elements.prefixes(*probes)
    probe_rest = elements.lengths(probe_doc) - probe_place
    floor = probe_key * n_docs + (probe_doc + 1 if ordered else 0)
    left = np.searchsorted(combined, floor)
    counts = np.searchsorted(combined, probe_key * n_docs + n_docs) - left
    # Chunks end where a probe document ends (its elements are contiguous in probe_doc), after
    # about chunk_pairs pairs.
    ends = np.flatnonzero(np.diff(probe_doc, append=-1) != 0) + 1
    chunk = np.cumsum(counts)[ends - 1] // chunk_pairs
    start = 0
    for stop in ends[np.diff(chunk, append=-1) != 0].tolist():
        span = slice(start, stop)
        start = stop
        sizes = counts[span]
        total = int(sizes.sum())
        if not total:
            continue
        posting = np.repeat(left[span] - np.cumsum(sizes) + sizes, sizes) + np.arange(total)
        p, q = np.repeat(probe_doc[span], sizes), index_doc[posting]
        most = np.minimum(np.repeat(probe_rest[span], sizes), index_rest[posting])
        pairs = p * n_docs + q
        pairs = np.sort(pairs[admit(p, q, most)])
        pairs = pairs[np.diff(pairs, prepend=-1) != 0]
        yield pairs // n_docs, pairs % n_docs
