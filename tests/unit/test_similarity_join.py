"""The candidate pairs of the prefix-filtered join: the compiled loop and its NumPy twin find the
same pairs, and no pair that reaches the threshold is missing from them."""

from __future__ import annotations

import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rouge_plus import pairwise
from rouge_plus.kernels import similarity_join

PAIRWISE = sys.modules["rouge_plus.all_pairs"]
COMPILED = similarity_join._compiled

# Few words, so that texts share many of them, several times over, in any order.
WORDS = ["a", "b", "c", "d", "e", "f", "g", "h"]
texts_strategy = st.lists(st.sampled_from(WORDS), min_size=1, max_size=16).map(" ".join)


def _candidates(texts: list[str], rouge_type: str, threshold: float, ordered: bool, beta: float):
    scorer, _, _ = PAIRWISE._setup(texts, rouge_type, "f", 1, "threads", {"beta": beta}, str, True)
    docs = np.arange(len(texts), dtype=np.int64)
    prefix = PAIRWISE._PrefixFilter.build(scorer, docs, docs, threshold)
    if prefix is None:
        return None
    return sorted(
        (int(p), int(q))
        for ps, qs in prefix.candidates(docs, docs, ordered)
        for p, q in zip(ps, qs, strict=True)
    )


@pytest.mark.skipif(COMPILED is None, reason="the compiled join is not built")
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    texts=st.lists(texts_strategy, min_size=1, max_size=40),
    rouge_type=st.sampled_from(["rougeL", "rouge1", "rouge2", "rougeLsum", "rougeW"]),
    threshold=st.sampled_from([0.3, 0.5, 0.7, 0.9, 1.0]),
    ordered=st.booleans(),
    beta=st.sampled_from([1.0, 0.5, 3.0]),
    chunk=st.sampled_from([1, 7, 1 << 20]),
)
def test_compiled_and_twin_find_the_same_pairs_and_miss_none(
    texts, rouge_type, threshold, ordered, beta, chunk
):
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(PAIRWISE, "JOIN_CHUNK_PAIRS", chunk)
        found = _candidates(texts, rouge_type, threshold, ordered, beta)
        patch.setattr(similarity_join, "_compiled", None)
        assert _candidates(texts, rouge_type, threshold, ordered, beta) == found
    if found is None:
        return
    assert len(set(found)) == len(found)  # each pair once
    scores = pairwise(texts, rouge_type=rouge_type, beta=beta)
    reaching = {
        (p, q)
        for p, q in zip(*np.nonzero(scores >= threshold - PAIRWISE.PRUNE_MARGIN), strict=True)
        if p < q or not ordered
    }
    assert reaching <= set(found)


@pytest.mark.skipif(COMPILED is None, reason="the compiled join is not built")
def test_the_compiled_loop_checks_its_buffers():
    """Two documents of one element each (key 0), both of profile 0, need 1: document 0 probes
    the one posting (one group), of document 1 (slot 0)."""
    zero, one = np.zeros(1, dtype=np.int64), np.ones(1, dtype=np.int64)

    def call(starts=(0, 1, 2), slot=zero, group_starts=(0, 1), key=zero, room=1, **more):
        out = np.empty(room, dtype=np.int64)
        present = more.get("present", np.ones((2, 1), dtype=np.uint64))
        # Slot 0: not seen, document 1, excess 0.0, its present word.
        record = [-1, more.get("indexed", 1), 0, int(present[1, 0])] + [0] * 4
        return COMPILED.first_visits(
            *(np.zeros(2, dtype=np.int64), np.array(starts, dtype=np.int64)),
            # The probe element: document, key, rest, first slot.
            *(zero, key, one + more.get("shorter", 0), more.get("floor", zero)),
            *(np.array([0, 1]), np.array(group_starts), zero),  # groups: starts, column
            *(slot, one + more.get("shorter", 0)),  # postings: slot, rest
            more.get("records", np.array([record], dtype=np.int64)),
            *(np.zeros(2, dtype=np.int64), np.ones((1, 1)), 1),  # profiles, need, columns
            *(np.ones((1, 1)), np.zeros((1, 1), np.int64), np.zeros((1, 1), np.int64)),
            *(present, np.zeros(2), out, out.copy()),
        )

    assert call() == 1
    assert call(starts=(0, 1, 1)) == 0  # document 1 has no element to share
    assert call(present=np.array([[1], [2]], dtype=np.uint64)) == 0  # no bucket in common
    assert call(shorter=-1) == 0  # rests of 0: below the need
    assert call(floor=one) == 0  # slot 0 comes before the probe's first
    for bad in [
        {"slot": one},  # a slot past the indexed documents
        {"indexed": 9},  # an indexed document past the documents
        {"group_starts": (0, 5)},  # postings past the end
        {"group_starts": (1, 0)},  # a group that ends before it starts
        {"key": one},  # an element past the groups
        {"starts": (0, 1, 7)},  # elements past the keys
        {"starts": (0, 2, 1)},  # a run that ends before it starts
        {"room": 0},  # no room for the pair
    ]:
        with pytest.raises(ValueError, match="out of range"):
            call(**bad)
    for bad in [
        {"key": np.zeros(2, dtype=np.int64)},  # probe arrays of different lengths
        {"starts": (0, 1)},  # one document less than the profiles
        {"records": np.zeros((1, 7), dtype=np.int64)},  # a record of 7 words
        {"present": np.ones((2, 6), dtype=np.uint64)},  # more words than a record holds
    ]:
        with pytest.raises(ValueError, match="inconsistent sizes"):
            call(**bad)
