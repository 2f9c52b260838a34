"""The compiled one-pair scorer (kernels/_native_pair.c) against the general path of many rows.

``ScoringPlan.score_pair`` hands a pair to ``PairScorer``, which keeps its vocabulary and
buffers between calls; every value it gives must be the rows path's, bit for bit, whatever came
before it, and every pair it declines (None) must be one the general path then scores.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rouge_plus.scorer
from rouge_plus import RougeScorer
from rouge_plus.kernels import native

pytestmark = pytest.mark.skipif(not native.NATIVE, reason="the C extension is not built")

# Every kernel whose precision and recall are hit / base, and each form of F (ROUGE-W and the
# 1.5.5 profile's rounded values take the general path: test_what_the_scorer_leaves_to_the_rows).
TYPES = ["rouge1", "rouge2", "rouge4", "rougeL", "rougeLsum", "rougeS4", "rougeSU*"]
F_FORMS = [{}, {"alpha": 0.3}, {"beta": 2.0}]

WORDS = ["the", "The", "cat", "cats", "sat", "on", "mat", "running", "runs", "a", "x1", "42"]
texts = st.lists(
    st.one_of(st.sampled_from(WORDS), st.sampled_from([" ", "\n", ", ", ". ", "--"])), max_size=40
).map("".join)

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _rows_path(plan, prediction: str, reference: str) -> list[float] | None:
    """What the general path gives for the pair, flattened as score_pair gives it."""
    scores = rouge_plus.scorer.score_examples([prediction], [reference], plan).scores
    return [value for name in plan.names for value in scores[name][0].tolist()]


@SETTINGS
@given(
    st.lists(st.tuples(texts, texts), min_size=1, max_size=5),
    st.sampled_from(F_FORMS),
    st.booleans(),
)
def test_each_pair_equals_the_rows_path_whatever_the_scorer_scored_before(pairs, form, stem):
    plan = RougeScorer(TYPES, use_stemmer=stem, **form).plan
    assert plan._pair_scorer is not None
    for prediction, reference in pairs:
        got = plan.score_pair(prediction, reference)
        if got is None:  # declined: a text without tokens
            assert not prediction.strip(" \n,.-") or not reference.strip(" \n,.-")
            continue
        assert got == _rows_path(plan, prediction, reference)


@pytest.mark.parametrize(
    "options",
    [{"rouge_types": ["rouge1", "rougeW-1.2"]}, {"profile": "rouge155"}, {"multi_ref": "mean"}],
)
def test_what_the_scorer_leaves_to_the_rows_path(options):
    scorer = RougeScorer(**options)
    assert scorer.plan._pair_scorer is None
    assert scorer.plan.score_pair("a cat sat", "the cat sat") is None


def _numbered(n: int, start: int = 0) -> str:
    return " ".join(f"w{i}" for i in range(start, start + n))


@pytest.mark.parametrize("weak_hash", [False, True])
def test_a_kept_vocabulary_is_emptied_after_a_pair_that_grew_it_or_rehashed_it(weak_hash):
    """3,000 distinct words grow the table past its first size; with every fast hash at 0 the
    vocabulary switches to SipHash-1-3. Either way the next pair starts from an empty table."""
    native._native._weaken_hash(weak_hash)
    try:
        plan = RougeScorer(["rouge1", "rouge2", "rougeL"]).plan
        plan = type(plan)(plan.options)  # a new plan: its scorer's vocabulary is made now
    finally:
        native._native._weaken_hash(False)
    big = (_numbered(3000), _numbered(2500, 500))
    small = ("w1 w2 w3 q", "w3 w2 w1 q")
    for prediction, reference in [big, small, big, small]:
        assert plan.score_pair(prediction, reference) == _rows_path(plan, prediction, reference)


def test_a_pair_too_long_to_hold_the_lock_takes_the_general_path():
    scorer = RougeScorer(["rouge1", "rougeL"])
    long_text = _numbered(12_000)  # over 65,536 characters with itself
    assert scorer.plan.score_pair(long_text, long_text) is None
    assert scorer.score([long_text], [long_text]) == {"rouge1": 1.0, "rougeL": 1.0}


def test_a_call_that_finds_the_scorer_busy_is_declined_not_corrupted():
    """The stemmer runs Python code, during which another thread may call the same scorer: that
    call gets None (the general path), and the outer call's values are intact."""
    inner = []

    def stem(word: str) -> str:
        inner.append(pair_scorer.score("a b", "b c"))
        return "s"  # every word has one stem

    pair_scorer = native.PairScorer([(0, 1, 0.0)], 0, 0.0, 0.0, stem)
    p, r = 2 / 3, 1.0  # 3 tokens against 2, all one stem
    assert pair_scorer.score("a b c", "d e") == [p, r, 2 * p * r / (p + r)]
    assert inner == [None] * 5  # once per new word
    assert pair_scorer.score("a b", "b c") == [1.0, 1.0, 1.0]


def test_a_word_is_stemmed_once_per_scorer_and_a_failed_stem_leaves_nothing_behind():
    calls = []

    def stem(word: str) -> str:
        calls.append(word)
        if word == "boom":
            raise KeyError(word)
        return word[:3]

    pair_scorer = native.PairScorer([(0, 1, 0.0)], 0, 0.0, 0.0, stem)
    assert pair_scorer.score("running runner", "runs") == [0.5, 1.0, 2 / 3]
    assert pair_scorer.score("runs running", "runner") == [0.5, 1.0, 2 / 3]
    assert calls == ["running", "runner", "runs"]
    with pytest.raises(KeyError):
        pair_scorer.score("runs boom", "runner")
    assert pair_scorer.score("runs running", "runner") == [0.5, 1.0, 2 / 3]
    with pytest.raises(TypeError, match="return str"):
        native.PairScorer([(0, 1, 0.0)], 0, 0.0, 0.0, lambda word: 3).score("a", "a")


def test_the_scorer_refuses_what_it_cannot_score():
    with pytest.raises(ValueError, match="kind"):
        native.PairScorer([(9, 1, 0.0)], 0, 0.0, 0.0)
    with pytest.raises(ValueError, match="f_kind"):
        native.PairScorer([(0, 1, 0.0)], 7, 0.0, 0.0)
    pair_scorer = native.PairScorer([(0, 1, 0.0)], 0, 0.0, 0.0)
    with pytest.raises(TypeError, match="str"):
        pair_scorer.score(b"a", "a")
    with pytest.raises(RuntimeError, match="once"):
        pair_scorer.__init__([(0, 1, 0.0)], 0, 0.0, 0.0)
    with pytest.raises(TypeError, match="callable"):
        native.PairScorer([(0, 1, 0.0)], 0, 0.0, 0.0, "porter")
    with pytest.raises(RuntimeError, match="not initialized"):
        native.PairScorer.__new__(native.PairScorer).score("a", "a")
