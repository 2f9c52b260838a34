"""Limits of the counting kernels: empty sizes and out-of-range parameters.

Each test pins a case the compiled kernels once got wrong: a zero-size scratch request taken for
a memory error (ROUGE-W on a sentence that stopword removal emptied), and parameters outside the
range where a ROUGE type means anything (a ROUGE-W weight below 1 or so large that its powers
overflow, a skip gap too large for a C int).
"""

from __future__ import annotations

import numpy as np
import pytest

import rouge_plus
from rouge_plus.kernels.python_backend import PythonVocabulary, count_pairs_python

native = pytest.importorskip("rouge_plus._native", reason="the C extension is not built")


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
