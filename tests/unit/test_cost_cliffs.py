"""Cost cliffs at the edges (issue 24): shapes of input whose cost once jumped far beyond what the
tables of docs/security.md promise. Each test runs the shape in a fresh interpreter under a time
limit far above today's cost and far below the old one, and checks the numbers it gives.
"""

from __future__ import annotations

from collections import Counter
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.kernel_arrays import corpus_arrays
from support.peak_memory import peak_growth

from rouge_plus.kernels import weighted_lcs
from rouge_plus.kernels.lcs import lcs_path
from rouge_plus.kernels.python import count_pairs_python

native = pytest.importorskip("rouge_plus.kernels._native", reason="the C extension is not built")

# Seconds: today's costs are well under a second; the old ones were minutes.
GUARD = 60


def test_skip_bigrams_of_a_text_against_its_own_copy():
    # rougeS4 of 300,000 tokens against the same text took over 490 s (a pass per shared word once
    # the table of pairs outgrew its budget); rougeS* of 200,000 distinct words against a copy with
    # two words swapped took 161 s (quadratic). Exact now: per occurrence, and by word order.
    setup = "\n".join(
        [
            "import random, rouge_plus",
            "rng = random.Random(1)",
            "text = ' '.join(f'w{rng.randrange(20000)}' for _ in range(300_000))",
            "words = [f'w{i}' for i in range(200_000)]",
            "words[10], words[20] = words[20], words[10]",
            "swapped = ' '.join(words)",
            "distinct = ' '.join(sorted(words, key=lambda w: int(w[1:])))",
        ]
    )
    call = (
        "[rouge_plus.score([text], [t], rouge_types=['rougeS4', 'rougeSU4'])"
        " for t in (text, text + ' w1')]"
        " + [rouge_plus.score([swapped], [distinct], rouge_types=['rougeS*'])]"
    )
    _, (same, longer, swapped) = peak_growth(setup, call, timeout=GUARD)
    assert same == {"rougeS4": 1.0, "rougeSU4": 1.0}
    pairs = 5 * 300_000 - 15  # pairs at most 4 words apart
    recall = pairs / (pairs + 5)  # the added word closes 5 more pairs of the reference
    assert longer["rougeS4"] == pytest.approx(2 * recall / (1 + recall), abs=1e-15)
    n = 200_000
    inversions = 2 * (20 - 10 - 1) + 1
    assert swapped["rougeS*"] == pytest.approx(1 - inversions / (n * (n - 1) // 2), abs=1e-15)


def test_pure_python_skip_bigrams_keep_only_the_units_of_shared_words():
    # The pure-Python rougeS* of two texts of 5,000 distinct words each kept each text's 12.5
    # million pairs: 3 GB. Units of words the other text lacks cannot match, and now share one
    # stand-in: texts that share 100 words keep their pairs only.
    setup = "\n".join(
        [
            "import os",
            "os.environ['ROUGE_PLUS_PURE_PYTHON'] = '1'",
            "import rouge_plus",
            "words = lambda prefix, n: ' '.join(f'{prefix}{i}' for i in range(n))",
            "a = words('a', 2_900) + ' ' + words('s', 100)",
            "b = words('s', 100) + ' ' + words('b', 2_900)",
        ]
    )
    call = "rouge_plus.score([a], [b], rouge_types=['rougeS*', 'rougeSU*'])"
    growth, scores = peak_growth(setup, call, timeout=GUARD)
    assert growth < 100, growth  # MiB; each text's 4.5 million distinct pairs took about 600
    n = 3_000
    recall = (100 * 99 // 2) / (n * (n - 1) // 2)  # the shared words' pairs, in the same order
    assert scores["rougeS*"] == pytest.approx(recall, rel=1e-12)


# --- ROUGE-Lsum's union LCS ---------------------------------------------------------------------


def _summary_hits_by_definition(ref_sentences, pred_sentences) -> int:
    """Lin's union LCS as first written: every ref sentence against every pred sentence."""
    remaining_ref = Counter(t for s in ref_sentences for t in s)
    remaining_pred = Counter(t for s in pred_sentences for t in s)
    hits = 0
    for ref in ref_sentences:
        union = {i for pred in pred_sentences if ref and pred for i, _ in lcs_path(ref, pred)}
        for position in sorted(union):
            token = ref[position]
            if remaining_ref[token] > 0 and remaining_pred[token] > 0:
                hits += 1
                remaining_ref[token] -= 1
                remaining_pred[token] -= 1
    return hits


# Short sentences of few words, often repeated: the shapes where equal sentences share work and a
# word's holders run out early; a few long ones cross 64-token words.
_sentence = st.lists(st.integers(0, 7), max_size=6) | st.lists(st.integers(0, 30), max_size=140)
_text = st.lists(st.sampled_from([[1], [2, 1], [3, 2, 1]]) | _sentence, max_size=12)


def _counts_in_both_backends(pairs, measure: tuple, budget: int) -> np.ndarray:
    """The compiled counts of one measure over the pairs, under a table budget (0 bytes makes
    a traceback recompute its columns or rows in blocks), checked equal to the Python twin's."""
    docs = [doc for pair in pairs for doc in pair]
    ids, sentences, bounds = corpus_arrays(docs)
    pred_docs = np.arange(0, len(docs), 2, dtype=np.int64)
    args = (ids, sentences, bounds, pred_docs, pred_docs + 1, [measure], 31)
    previous = native._set_table_budget(budget)
    try:
        raw = native.count_pairs(*args)
    finally:
        native._set_table_budget(previous)
    ours = np.frombuffer(raw, dtype=np.float64).reshape(1, 3, -1)
    np.testing.assert_array_equal(ours, count_pairs_python(*args))
    return ours


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(_text, _text), min_size=1, max_size=3), st.sampled_from([0, 1 << 30]))
def test_union_lcs_equals_its_definition_in_both_backends(pairs, budget):
    ours = _counts_in_both_backends(pairs, (2, 0, 0.0), budget)
    expected = [
        _summary_hits_by_definition([s for s in ref if s], [s for s in pred if s])
        for pred, ref in pairs
    ]
    assert list(ours[0, 0]) == expected


def _every_sentence(ref, pred, path):
    """1.5.5's union as it runs: the path of ref against every pred sentence."""
    return {i for sentence in pred.distinct for i in path(ref, sentence)}


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(_text, _text), min_size=1, max_size=3), st.sampled_from([0, 1 << 30]))
def test_rouge_w_union_equals_its_definition_in_both_backends(pairs, budget):
    ours = _counts_in_both_backends(pairs, (3, 0, 1.2), budget)
    with mock.patch.object(weighted_lcs, "union_of_paths", _every_sentence):
        expected = [weighted_lcs.counts(pred, ref, 1.2) for pred, ref in pairs]
    np.testing.assert_array_equal(ours[0].T, expected)


@pytest.mark.parametrize(("lines", "pure"), [(200_000, "0"), (10_000, "1")], ids=["C", "Python"])
def test_union_lcs_of_one_word_lines(lines, pure):
    # ROUGE-Lsum of 50,000 one-word lines took 15.8 s (each ref line against each pred line, when
    # one sentence takes 0.03 s), and 2,000 lines took 6.1 s with the pure-Python kernels: four
    # and twenty-five times as many lines now take well under a second.
    setup = "\n".join(
        [
            "import os",
            f"os.environ['ROUGE_PLUS_PURE_PYTHON'] = '{pure}'",
            "import random, rouge_plus",
            "rng = random.Random(1)",
            f"n = {lines}",
            "a, b = ('\\n'.join(f'w{rng.randrange(n // 10)}' for _ in range(n)) for _ in 'ab')",
        ]
    )
    call = "rouge_plus.score([a], [b], rouge_types=['rougeLsum', 'rouge1'])"
    _, scores = peak_growth(setup, call, timeout=GUARD / 2)
    # One-word lines: a line's LCS with a line of the same word is that word, so the union takes
    # every shared word, as many times as both texts have it.
    assert scores["rougeLsum"] == scores["rouge1"] > 0.8


def test_compiled_rouge_w_of_one_word_lines():
    # The compiled ROUGE-W (the 1.5.5 profile's) walked each ref line against each pred line:
    # 30,000 one-word lines took 2.6 s and 200,000 would take about two minutes.
    setup = "\n".join(
        [
            "import os",
            "os.environ['ROUGE_PLUS_PURE_PYTHON'] = '0'",
            "import random, rouge_plus",
            "rng = random.Random(1)",
            "n = 200_000",
            "a, b = ('\\n'.join(f'w{rng.randrange(n // 10)}' for _ in range(n)) for _ in 'ab')",
        ]
    )
    call = "rouge_plus.score([a], [b], rouge_types=['rougeW', 'rouge1'], profile='rouge155')"
    _, scores = peak_growth(setup, call, timeout=GUARD / 2)
    # Each shared word is a run of one, as many times as both texts have it: hit = h, the unigram
    # hits, and every line weighs 1, so P = R = (h / n ** 1.2) ** (1 / 1.2) (scores to 5 places).
    n = 200_000
    h = scores["rouge1"] * n
    assert scores["rougeW"] == pytest.approx((h / n**1.2) ** (1 / 1.2), abs=2e-5)


def test_rouge155_byte_limit_over_many_short_sentences():
    # py-rouge's all_input_output case under -b 665 (13,141 short sentences in one pair) took
    # 1,006 s: under -b, ROUGE-L and ROUGE-W read sentences apart from their clipping counts, in
    # the Python kernels, each ref sentence against each pred sentence (173 million walks).
    setup = "\n".join(
        [
            "import random, rouge_plus",
            "rng = random.Random(1)",
            "vocab = [f'w{i}' for i in range(300)]",
            "n = 13141",
            "def text():",
            "    lines = (' '.join(rng.choices(vocab, k=rng.randrange(3, 9))) for _ in range(n))",
            "    return '\\n'.join(line + ' .' for line in lines)",
            "a, b = text(), text()",
            "kinds = ['rougeL', 'rougeW', 'rouge1']",
        ]
    )
    call = "rouge_plus.score([a], [b], rouge_types=kinds, profile='rouge155', max_bytes=665)"
    _, scores = peak_growth(setup, call, timeout=GUARD)
    assert 0 < scores["rougeW"] < scores["rougeL"] < scores["rouge1"]
