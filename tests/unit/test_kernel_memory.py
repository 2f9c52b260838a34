"""Memory of the LCS kernels: linear in the texts' lengths, whatever the texts.

ROUGE-L needs an LCS length only; ROUGE-Lsum and ROUGE-W also need tracebacks, per pair of
sentences. Each used to keep a table quadratic in the lengths: 3 GB for ROUGE-L of one token
against 160,000 distinct ones, 6 GB for ROUGE-L and ROUGE-Lsum of two 1.36 MB one-line texts,
1.6 GB for ROUGE-W of two 40,000-token lines. The peak memory of such calls is measured in a child
process; the equality tests lower the workspace's table budget to 0 bytes so that even small
inputs take the low-memory paths (tracebacks recomputed block by block from kept columns or rows),
and compare them with the Python twins.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.kernel_arrays import corpus_arrays
from support.peak_memory import peak_growth

from rouge_plus.kernels.python import count_pairs_python

native = pytest.importorskip("rouge_plus.kernels._native", reason="the C extension is not built")

LCS_MEASURES = [(1, 0, 0.0), (2, 0, 0.0), (3, 0, 1.2), (3, 0, 1.0), (3, 0, 5.0)]
MIB = 256  # the most any call below may add to the peak resident set, in MiB


def _compare(docs, measures, vocab_size, budget):
    ids, sentences, bounds = corpus_arrays(docs)
    pred_docs = np.arange(0, len(docs), 2, dtype=np.int64)
    args = (ids, sentences, bounds, pred_docs, pred_docs + 1, measures, vocab_size)
    previous = native._set_table_budget(budget)
    try:
        raw = native.count_pairs(*args)
    finally:
        native._set_table_budget(previous)
    ours = np.frombuffer(raw, dtype=np.float64).reshape(len(measures), 3, -1)
    np.testing.assert_array_equal(ours, count_pairs_python(*args))


# Sentences of up to 200 tokens (several 64-bit words), from small and larger alphabets.
def _documents(alphabet: int):
    sentence = st.lists(st.integers(0, alphabet - 1), max_size=200)
    return st.lists(sentence, min_size=1, max_size=3)


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from([3, 12, 400]).flatmap(
        lambda a: st.tuples(
            st.just(a), st.lists(st.tuples(_documents(a), _documents(a)), min_size=1, max_size=3)
        )
    ),
    st.sampled_from([0, 1 << 30]),
)
def test_lcs_measures_equal_python_with_and_without_a_table_budget(case, budget):
    alphabet, pairs = case
    _compare([doc for pair in pairs for doc in pair], LCS_MEASURES, alphabet, budget)


def test_long_sentences_with_recomputed_tracebacks_equal_python():
    # Blocks of about sqrt(n) columns (Lsum) or rows (ROUGE-W) across several 64-bit words.
    rng = np.random.default_rng(5)
    docs = []
    for alphabet in (2, 30, 3000):
        for length in (300, 600):
            docs.append([rng.integers(0, alphabet, length).tolist()])
            docs.append([rng.integers(0, alphabet, length + 77).tolist()])
    _compare(docs, LCS_MEASURES, 3000, 0)


SETUP = "\n".join(
    [
        "import random, rouge_plus",
        "D = lambda n: ' '.join(f'w{i}' for i in range(n))",
        "rng = random.Random(0)",
    ]
)


def _assert_small(growth: float) -> None:
    assert growth < MIB, f"peak memory grew by {growth:.0f} MiB"


def test_rouge_l_of_one_token_against_160000():
    # 3 GB before: a full mask of 2,500 words for each of the 160,000 distinct words.
    growth, result = peak_growth(
        SETUP, "rouge_plus.score(['w1'], [D(160000)], rouge_types=['rougeL'])"
    )
    assert result["rougeL"] == pytest.approx(2 / 160001)
    _assert_small(growth)


def test_rouge_l_and_lsum_of_two_long_lines():
    # Two one-line texts of 100,000 tokens (0.7 MB each): 2.4 GB before (masks for ROUGE-L, all
    # n + 1 columns of the traceback for ROUGE-Lsum).
    setup = SETUP + "\nwords = [f'w{rng.randrange(50000)}' for _ in range(100000)]"
    setup += "\na, b = ' '.join(words), ' '.join(reversed(words))"
    call = "rouge_plus.score([a], [b], rouge_types=['rougeL', 'rougeLsum'])"
    growth, result = peak_growth(setup, call)
    assert result["rougeL"] == result["rougeLsum"] > 0
    _assert_small(growth)


def test_rouge_w_of_two_long_lines():
    # 24,000 tokens against the same in reverse order: a move table of 576 MB before.
    setup = SETUP + "\na, b = D(24000), ' '.join(reversed(D(24000).split()))"
    growth, result = peak_growth(setup, "rouge_plus.score([a], [b], rouge_types=['rougeW'])")
    assert 0 < result["rougeW"] < 1e-4
    _assert_small(growth)
