"""``rouge_plus.compat.rouge.rouge_score`` against pltrdy's ``rouge.rouge_score`` 1.0.1: the
metric functions ``Rouge`` calls, and ``Ngrams``, equal on generated sentences (where rouge
does not raise: both sides have a sentence)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rouge_plus.compat.rouge import rouge_score as ours

pytest.importorskip("rouge")
real = pytest.importorskip("rouge.rouge_score")

sentence = st.lists(st.sampled_from(["the", "cat", "sat", "on", "a", "mat", "The", ""]), min_size=1)
sentences = st.lists(sentence.map(" ".join), min_size=1, max_size=4)
ngrams = st.lists(st.tuples(st.sampled_from("abc"), st.sampled_from("ab")), max_size=8)


@settings(deadline=None, max_examples=300)
@given(sentences, sentences, st.integers(1, 4), st.booleans(), st.booleans())
def test_rouge_n_and_rouge_l_equal_rouge_1_0_1(hyp, ref, n, raw_results, exclusive):
    options = {"raw_results": raw_results, "exclusive": exclusive}
    assert repr(ours.rouge_n(hyp, ref, n, **options)) == repr(real.rouge_n(hyp, ref, n, **options))
    assert repr(ours.rouge_l_summary_level(hyp, ref, **options)) == repr(
        real.rouge_l_summary_level(hyp, ref, **options)
    )


@settings(deadline=None, max_examples=100)
@given(
    st.lists(sentences, min_size=1, max_size=4).flatmap(
        lambda seqs: st.tuples(
            st.just(seqs),
            st.lists(st.tuples(*[st.integers(0, len(seqs) - 1)] * 2), max_size=6),
        )
    ),
    st.integers(1, 3),
    st.booleans(),
)
def test_multi_rouge_n_equals_rouge_1_0_1(sequences_and_ids, n, exclusive):
    sequences, ids = sequences_and_ids
    assert repr(ours.multi_rouge_n(sequences, ids, n, exclusive)) == repr(
        real.multi_rouge_n(sequences, ids, n, exclusive)
    )
    assert ours.f_r_p_rouge_n(3, 0, 0) == real.f_r_p_rouge_n(3, 0, 0)


@settings(deadline=None, max_examples=200)
@given(ngrams, ngrams, ngrams, st.booleans())
def test_ngrams_equal_rouge_1_0_1(a, b, c, exclusive):
    mine = [ours.Ngrams(x, exclusive=exclusive) for x in (a, b, c)]
    theirs = [real.Ngrams(x, exclusive=exclusive) for x in (a, b, c)]
    mine[0].add(("z", "z"))
    theirs[0].add(("z", "z"))
    for got, want in [
        (mine[0].intersection(mine[1]), theirs[0].intersection(theirs[1])),
        (mine[0].union(mine[1], mine[2]), theirs[0].union(theirs[1], theirs[2])),
    ]:
        assert len(got) == len(want)
        assert got._ngrams == want._ngrams


def test_n_below_one_is_refused():
    with pytest.raises(ValueError, match="n must be a whole number of at least 1, got 0"):
        ours.rouge_n(["a"], ["a"], 0)
