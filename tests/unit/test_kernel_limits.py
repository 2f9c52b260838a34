"""Limits of the counting kernels: empty sizes and out-of-range parameters.

Each test pins a case the compiled kernels once got wrong: a zero-size scratch request taken for
a memory error (ROUGE-W on a sentence that stopword removal emptied), and parameters outside the
range where a ROUGE type means anything (a ROUGE-W weight below 1 or so large that its powers
overflow, a skip gap too large for a C int).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.kernel_arrays import corpus_arrays
from support.peak_memory import peak_growth

import rouge_plus
import rouge_plus.kernels.native
from rouge_plus.kernels.python import PythonVocabulary, count_pairs_python
from rouge_plus.scoring.measures import Measure, parse_rouge_type

native = pytest.importorskip("rouge_plus.kernels._native", reason="the C extension is not built")


def _both_backends(call):
    """``call(count_pairs)`` with the compiled kernel and with its Python twin."""

    def compiled(*args):
        raw = native.count_pairs(*args)
        return np.frombuffer(raw, dtype=np.float64).reshape(len(args[5]), 3, -1)

    return call(compiled), call(count_pairs_python)


# --- zero-size requests -------------------------------------------------------------------------


@pytest.mark.parametrize("earlier_rows", [0, 1], ids=["first-row", "after-another-row"])
def test_rouge_w_on_a_sentence_emptied_by_stopword_removal(earlier_rows):
    # "And then." loses every token to the stopword list: an empty reference sentence whose
    # marks need zero bytes. The result must not depend on what ran before it in the batch.
    predictions = ["a b"] * earlier_rows + ["the cat sat on the mat"]
    references = ["a b"] * earlier_rows + ["And then.\nThe cat sat on the mat."]
    options = {"rouge_types": ["rougeW"], "remove_stopwords": True, "use_aggregator": False}
    got = rouge_plus.score(predictions, references, **options)
    assert got["rougeW"][-1] == pytest.approx(0.8905786373243858, abs=1e-12)


def test_empty_sentences_for_every_measure_equal_python():
    # Documents whose sentences are all empty, or empty next to non-empty ones (the encoders drop
    # empty sentences, but count_pairs takes any offsets).
    ids = np.array([3, 1, 2, 1, 2, 3], dtype=np.int32)
    sentences = np.array([0, 0, 3, 3, 3, 6, 6], dtype=np.int64)
    documents = np.array([0, 1, 2, 3, 4, 6], dtype=np.int64)
    # The first pair's reference is one empty sentence: the first scratch request is for 0 bytes.
    pred_docs = np.array([1, 0, 2, 3, 4, 0], dtype=np.int64)
    ref_docs = np.array([0, 1, 4, 2, 3, 0], dtype=np.int64)
    measures = [(0, 1, 0.0), (0, 2, 0.0), (0, 3, 0.0), (1, 0, 0.0), (2, 0, 0.0), (3, 0, 1.2)]
    measures += [(4, 0, 0.0), (4, -1, 1.0)]

    def run(count_pairs):
        return count_pairs(ids, sentences, documents, pred_docs, ref_docs, measures, 4)

    ours, python = _both_backends(run)
    np.testing.assert_array_equal(ours, python)


def test_empty_tokens_in_the_vocabulary():
    # The first word of a fresh vocabulary is the empty token: zero bytes to copy and compare.
    items = [[["", "a", ""]], [[""], ["b", ""]], "x y"]
    c_vocab, py_vocab = native.Vocabulary(), PythonVocabulary()
    assert c_vocab.encode(items, True) == py_vocab.encode(items, True)
    assert c_vocab.words() == py_vocab.words() == ["", "a", "b", "x", "y"]
    assert native.Vocabulary().encode([], True) == PythonVocabulary().encode([], True)


# --- parameters ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["rougeW-0", "rougeW-0.5", "rougeW-0.999", "rougeW-5.01", "rougeW-400"]
)
def test_rouge_w_weights_out_of_range_are_rejected_by_name(name):
    with pytest.raises(ValueError, match=rf"{name}.*weight.*between 1 and 5"):
        parse_rouge_type(name)
    with pytest.raises(ValueError, match=name):
        rouge_plus.score(["a b"], ["a b"], rouge_types=[name])


@pytest.mark.parametrize("name", ["rougeW-1", "rougeW-1.0", "rougeW", "rougeW-2", "rougeW-5"])
def test_rouge_w_weights_in_range_give_scores_in_the_unit_interval(name):
    # w = 1 is f(k) = k: consecutive matches earn no bonus, the plain (union) LCS ratio.
    # w = 5 keeps f(sum f(|r|)) = 100000**25 finite for a 100,000-token sentence.
    long_text = " ".join(f"w{i % 977}" for i in range(100_000))
    texts = ["the cat sat on the mat", long_text]
    refs = ["the cat was on a mat", long_text[::-1]]
    got = rouge_plus.score(
        texts, refs, rouge_types=[name], use_aggregator=False, return_precision_recall=True
    )
    for values in got.values():
        values = np.asarray(values)
        assert np.all(np.isfinite(values)) and np.all((values >= 0) & (values <= 1))


def test_rouge_w_1_is_the_union_lcs_ratio():
    got = rouge_plus.score(
        ["a b c d"], ["a x c d"], rouge_types=["rougeW-1"], return_precision_recall=True
    )
    assert got["rougeW-1_recall"] == pytest.approx(3 / 4)
    assert got["rougeW-1_precision"] == pytest.approx(3 / 4)


@pytest.mark.parametrize("gap", ["2147483646", "2147483647", "2147483648", "99999999999999999999"])
@pytest.mark.parametrize("pure", [False, True], ids=["native", "python"])
def test_skip_gaps_beyond_a_c_int_count_as_no_limit(gap, pure, monkeypatch):
    if pure:  # every measure through the Python twins
        monkeypatch.setattr(rouge_plus.kernels.native, "count_pairs_packed", count_pairs_python)
    predictions = ["the cat sat on the mat today", "a b c"]
    references = ["the cat was on a mat", "c b a"]
    for unigrams in ("", "U"):
        bounded, unlimited = f"rougeS{unigrams}{gap}", f"rougeS{unigrams}*"
        got = rouge_plus.score(
            predictions,
            references,
            rouge_types=[bounded, unlimited],
            use_aggregator=False,
            return_precision_recall=True,
        )
        for suffix in ("_precision", "_recall", "_fmeasure"):
            assert got[bounded + suffix] == got[unlimited + suffix]


def test_measures_validate_their_parameters_at_construction():
    with pytest.raises(ValueError, match="rougeS-1.*gap"):
        Measure("rougeS-1", "skip_bigram", max_gap=-1)
    with pytest.raises(ValueError, match="gap"):
        Measure("rougeSx", "skip_bigram", max_gap=2.5)
    with pytest.raises(ValueError, match="gap"):
        Measure("rougeSx", "skip_bigram", max_gap=True)
    for weight in (0.0, 0.5, float("nan"), float("inf"), 6.0):
        with pytest.raises(ValueError, match="weight"):
            Measure("rougeWx", "weighted_lcs", weight=weight)
    for n in (0, 10):
        with pytest.raises(ValueError, match="n-gram"):
            Measure("rougeN", "ngram", n=n)
    with pytest.raises(ValueError, match="kind"):
        Measure("rougeQ", "quantum")
    assert Measure("rougeS4", "skip_bigram", max_gap=4).max_gap == 4
    assert Measure("rougeS0", "skip_bigram", max_gap=0).max_gap == 0
    assert parse_rouge_type("rougeS2147483648").max_gap is None
    assert parse_rouge_type("rougeSU2147483646").max_gap == 2147483646


# --- skip gaps ----------------------------------------------------------------------------------

# Texts from a small alphabet, long enough that pairs span many positions.
long_documents = st.lists(st.lists(st.integers(0, 9), max_size=120), min_size=1, max_size=3)
GAPS = [0, 1, 3, 7, 20, 60, 118, 119, 200, 2**31 - 1]


def _skip_bigrams_both_backends(pairs: list[tuple[list[list[int]], list[list[int]]]], vocab: int):
    docs = [doc for pair in pairs for doc in pair]
    ids, sentences, bounds = corpus_arrays(docs)
    pred_docs = np.arange(0, len(docs), 2, dtype=np.int64)
    measures = [(4, gap, unigrams) for gap in GAPS for unigrams in (0.0, 1.0)] + [(4, -1, 0.0)]
    args = (ids, sentences, bounds, pred_docs, pred_docs + 1, measures, vocab)
    return _both_backends(lambda count_pairs: count_pairs(*args))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(long_documents, long_documents), min_size=1, max_size=3))
def test_skip_bigrams_equal_python_per_occurrence_and_per_pass(pairs):
    # Ten words over long texts: short gaps are counted per occurrence of each first word, long
    # ones in a pass per shared word (the cheaper method runs); both must equal the Python twin.
    ours, python = _skip_bigrams_both_backends(pairs, 10)
    np.testing.assert_array_equal(ours, python)


@st.composite
def _distinct_word_pairs(draw):
    """A text of distinct words and a shuffled, cut, or repeated version of it: where one side
    has each shared word once, the compiled kernel counts long-gap pairs by word order."""
    n = draw(st.integers(100, 260))
    first = draw(st.permutations(range(n)))
    second = draw(st.lists(st.sampled_from(range(n + 20)), min_size=1, max_size=2 * n))
    second = draw(st.sampled_from([second, list(first), first[: n // 2] + first[n // 2 + 1 :]]))
    swap = draw(st.integers(0, n - 1))
    if second is not first:
        second = second[:]
        second[swap % len(second)], second[0] = second[0], second[swap % len(second)]
    cut = draw(st.integers(0, 3))
    pair = ([first[: n // 2], first[n // 2 :]], [second[:cut], second[cut:]])
    return pair if draw(st.booleans()) else pair[::-1]


@pytest.mark.slow
@settings(max_examples=120, deadline=None)
@given(st.lists(_distinct_word_pairs(), min_size=1, max_size=2))
def test_skip_bigrams_equal_python_by_word_order(pairs):
    ours, python = _skip_bigrams_both_backends(pairs, 300)
    np.testing.assert_array_equal(ours, python)


def test_a_gap_across_the_whole_text_costs_what_no_limit_costs():
    # rougeS999999 on two 6,000-token texts counted every pair in a hash table: 1 GB and seconds,
    # where rougeS* (same units) needs a few MB. Both now take the same path.
    setup = "\n".join(
        [
            "import random, rouge_plus",
            "rng = random.Random(1)",
            "a, b = (' '.join(f'w{rng.randrange(20000)}' for _ in range(6000)) for _ in 'ab')",
            "kinds = ['rougeS999999', 'rougeS*', 'rougeSU999999', 'rougeSU*']",
        ]
    )
    growth, result = peak_growth(setup, "rouge_plus.score([a], [b], rouge_types=kinds)")
    assert result["rougeS999999"] == result["rougeS*"] > 0
    assert result["rougeSU999999"] == result["rougeSU*"]
    assert growth < 256, f"peak memory grew by {growth:.0f} MiB"
