"""pairwise() and dedupe(): the same numbers as score() on every pair, a threshold that never
loses a pair (the pruning bound is checked against every pair's score, for every type), the
same results on any number of threads or processes and any tile size."""

from __future__ import annotations

import random
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rouge_plus import RougeScorer, dedupe, pairwise
from rouge_plus.kernels import similarity_join

pytestmark = pytest.mark.filterwarnings("ignore:.*produced no tokens:UserWarning")

# The module, not the function of the same name that the package exports.
PAIRWISE = sys.modules["rouge_plus.all_pairs"]

WORDS = [
    *["the", "cat", "cats", "sat", "sitting", "on", "mat", "a", "dog", "runs", "running"],
    *["red", "quick", "brown", "fox", "jumps", "over", "lazy", "Café", "naïve", "42"],
]
SEPARATORS = [" ", " ", " ", " ", "\n", ". ", ", "]

texts_strategy = st.lists(
    st.tuples(st.sampled_from(WORDS), st.sampled_from(SEPARATORS)), max_size=14
).map(lambda parts: "".join(word + sep for word, sep in parts))
collections = st.lists(texts_strategy, min_size=1, max_size=7)
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Every kind of bound: overlap (N, L, Lsum, topic), weighted (w = 1 and above), sizes only.
ALL_TYPES = [
    ["rouge1"],
    ["rouge2"],
    ["rouge3"],
    ["rougeL"],
    ["rougeLsum"],
    ["rougeW"],
    ["rougeW-1"],
    ["rougeS4"],
    ["rougeSU*"],
    ["rouge1+synonyms"],
    ["rougeTopic"],
    ["rougeTopicUniq"],
]
OPTION_SETS = [
    {},
    {"tokenizer": "rouge_score", "use_stemmer": True},
    {"beta": 2.0},
    {"alpha": 0.2, "remove_stopwords": True},
    {"profile": "rouge155"},
    {"tokenizer": "char", "split_sentences": "none"},
]


def expected_matrix(rows, columns, rouge_type, statistic="f", **options) -> np.ndarray:
    """Every pair scored by the facade, one (prediction, reference) row per pair."""
    predictions = [text for text in rows for _ in columns]
    references = [text for _ in rows for text in columns]
    scores = RougeScorer([rouge_type], **options).score_examples(predictions, references)
    column = {"p": 0, "r": 1, "f": 2}[statistic]
    return scores.scores[rouge_type][:, column].reshape(len(rows), len(columns))


@FAST
@given(
    rows=collections,
    columns=st.one_of(st.none(), collections),
    rouge_type=st.sampled_from(["rouge1", "rouge2", "rougeL", "rougeLsum"]),
    statistic=st.sampled_from(["p", "r", "f"]),
    options=st.sampled_from(OPTION_SETS[:4]),
)
def test_the_matrix_is_score_on_every_pair(rows, columns, rouge_type, statistic, options):
    got = pairwise(rows, columns, rouge_type=rouge_type, statistic=statistic, **options)
    expected = expected_matrix(rows, columns or rows, rouge_type, statistic, **options)
    assert got.shape == expected.shape
    assert np.array_equal(got, expected)


def _kernel_can_count(rouge_type: str, options: dict) -> bool:
    """The compiled ROUGE-W kernel raises MemoryError on a sentence that stopword removal
    emptied (score() too); these tests leave that combination to the kernel's own fix."""
    return not (rouge_type.startswith("rougeW") and "remove_stopwords" in options)


def _filtered(matrix: np.ndarray, threshold: float) -> list[tuple[int, int, float]]:
    rows, columns = np.nonzero(matrix >= threshold)
    return [(int(i), int(j), float(matrix[i, j])) for i, j in zip(rows, columns, strict=True)]


@FAST
@given(
    rows=collections,
    columns=st.one_of(st.none(), collections),
    rouge_types=st.sampled_from(ALL_TYPES),
    statistic=st.sampled_from(["p", "r", "f"]),
    options=st.sampled_from(OPTION_SETS),
    pick=st.floats(0, 1),
)
def test_a_threshold_keeps_exactly_the_pairs_of_the_matrix(
    rows, columns, rouge_types, statistic, options, pick
):
    (rouge_type,) = rouge_types
    assume(_kernel_can_count(rouge_type, options))
    matrix = pairwise(rows, columns, rouge_type=rouge_type, statistic=statistic, **options)
    # A threshold equal to one of the scores: the boundary case of ">=".
    threshold = float(np.sort(matrix, axis=None)[int(pick * (matrix.size - 1))])
    got = pairwise(
        rows, columns, rouge_type=rouge_type, statistic=statistic, threshold=threshold, **options
    )
    assert got.dtype.names == ("i", "j", "score")
    assert got.tolist() == _filtered(matrix, threshold)


@FAST
@given(
    rows=collections,
    rouge_types=st.sampled_from(ALL_TYPES),
    statistic=st.sampled_from(["p", "r", "f"]),
    options=st.sampled_from(OPTION_SETS),
    buckets=st.sampled_from([4, 64, 256, 320]),
)
def test_the_bound_is_at_least_every_score(rows, rouge_types, statistic, options, buckets):
    """The pruning's premise, on every pair and every type: few buckets hash many words
    together (a looser bound that must stay a bound)."""
    (rouge_type,) = rouge_types
    assume(_kernel_can_count(rouge_type, options))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(PAIRWISE, "BUCKETS", buckets)
        scorer, _, _ = PAIRWISE._setup(
            rows, rouge_type, statistic, 1, "threads", dict(options), str, True
        )
    docs = np.arange(len(rows), dtype=np.int64)
    ceiling = scorer.ceiling(docs[:, None], docs[None, :])
    assert np.all(ceiling >= scorer.block(docs, docs) - PAIRWISE.PRUNE_MARGIN)


def test_the_bound_prunes_unrelated_pairs():
    rng = random.Random(5)
    vocabulary = [f"w{i}" for i in range(2000)]
    texts = [" ".join(rng.choices(vocabulary, k=12)) for _ in range(300)]
    scorer, _, _ = PAIRWISE._setup(texts, "rougeL", "f", 1, "threads", {}, str, True)
    docs = np.arange(len(texts), dtype=np.int64)
    passing = scorer.ceiling(docs[:, None], docs[None, :]) >= 0.5
    assert passing.diagonal().all()
    assert passing.sum() - len(texts) < 0.001 * len(texts) ** 2  # hashed words rarely collide


def test_popcount_without_bitwise_count():
    values = np.random.default_rng(0).integers(0, 2**63, size=(5, 7), dtype=np.uint64)
    expected = np.vectorize(lambda v: bin(int(v)).count("1"))(values)
    assert np.array_equal(similarity_join._popcount_by_bytes(values), expected)
    assert np.array_equal(similarity_join.popcount(values), expected)


def _corpus(n: int, seed: int = 0) -> list[str]:
    rng = random.Random(seed)
    texts: list[str] = []
    for _ in range(n):
        if texts and rng.random() < 0.4:
            words = rng.choice(texts).split()
            words[rng.randrange(len(words))] = rng.choice(WORDS)
        else:
            words = rng.choices(WORDS, k=rng.randint(3, 12))
        texts.append(" ".join(words))
    return texts


@pytest.mark.parametrize("backend", ["threads", "processes"])
def test_workers_and_tiles_change_nothing(monkeypatch, backend):
    texts = _corpus(90)
    others = _corpus(40, seed=1)
    expected = pairwise(texts, others)
    expected_pairs = pairwise(texts, others, threshold=0.5)
    monkeypatch.setattr(PAIRWISE, "TILE_PAIRS", 64)
    monkeypatch.setattr(PAIRWISE, "TILE_SIDE", 16)
    assert np.array_equal(pairwise(texts, others, num_proc=2, backend=backend), expected)
    got = pairwise(texts, others, threshold=0.5, num_proc=2, backend=backend)
    assert got.tolist() == expected_pairs.tolist()
    monkeypatch.setattr(PAIRWISE, "DEDUPE_BLOCK", 7)
    assert dedupe(texts, num_proc=2, backend=backend) == dedupe(texts)


def test_processes_reload_the_synonym_source():
    texts = ["the car was bought", "the automobile was purchased", "a dog"]
    expected = pairwise(texts, rouge_type="rouge1+synonyms")
    got = pairwise(texts, rouge_type="rouge1+synonyms", num_proc=2, backend="processes")
    assert np.array_equal(got, expected)
    assert got[0, 1] == 1.0


def _straightforward_dedupe(n: int, threshold: float, f) -> tuple[list[int], dict[int, int]]:
    """The rule, one pair at a time: ``f(j, k)`` is the F of kept text ``j`` (the prediction)
    against the new text ``k`` (the reference)."""
    kept: list[int] = []
    dropped: dict[int, int] = {}
    for k in range(n):
        cause = next((j for j in kept if f(j, k) > threshold), None)
        if cause is None:
            kept.append(k)
        else:
            dropped[k] = cause
    return kept, dropped


@pytest.mark.parametrize("block", [5, 1024])
@pytest.mark.parametrize("rouge_type", ["rougeL", "rouge2", "rougeLsum"])
def test_dedupe_follows_the_rule(monkeypatch, block, rouge_type):
    monkeypatch.setattr(PAIRWISE, "DEDUPE_BLOCK", block)
    texts = _corpus(150, seed=2)
    matrix = expected_matrix(texts, texts, rouge_type, tokenizer="rouge_score")
    for threshold in (0.5, 0.7):
        kept, dropped = dedupe(texts, threshold, rouge_type)
        expected = _straightforward_dedupe(len(texts), threshold, lambda j, k: matrix[j, k])
        assert (kept, dropped) == expected
        assert dropped  # the corpus has near-duplicates


def test_dedupe_drops_only_above_the_threshold():
    # LCS 3 of 4 tokens each way: F = 0.75 exactly.
    texts = ["a b c d", "a b c e", "a b c d"]
    assert dedupe(texts, threshold=0.75) == ([0, 1], {2: 0})
    assert dedupe(texts, threshold=0.7499) == ([0], {1: 0, 2: 0})


def test_dedupe_names_the_earliest_kept_text():
    texts = ["a b c", "d e f g h", "a b c d e f g h"]
    # Text 2 exceeds 0.5 with both kept texts (F = 6/11 with text 0, 10/13 with text 1): the
    # cause is the earliest, not the most similar.
    assert dedupe(texts, threshold=0.5) == ([0, 1], {2: 0})


def test_empty_inputs():
    assert pairwise([]).shape == (0, 0)
    assert pairwise(["a b"], []).shape == (1, 0)
    assert pairwise([], ["a"], threshold=0.1).tolist() == []
    assert dedupe([]) == ([], {})
    assert pairwise(["", "a"]).tolist() == [[0.0, 0.0], [0.0, 1.0]]


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"rouge_types": ["rouge1"]}, TypeError, "rouge_type="),
        ({"rouge_type": ["rouge1"]}, TypeError, "one ROUGE type"),
        ({"rouge_type": "rouge0"}, ValueError, "unknown ROUGE type"),
        ({"statistic": "fmeasure"}, ValueError, "statistic"),
        ({"backend": "gpu"}, ValueError, "backend"),
        ({"threshold": "0.7"}, TypeError, "threshold"),
        ({"threshold": float("nan")}, ValueError, "threshold"),
        ({"num_proc": 0}, ValueError, "num_proc"),
        ({"colour": "red"}, TypeError, "unknown option"),
        # Options that shape score()'s results, not one text against one: refused, not ignored.
        ({"return_counts": True}, ValueError, "return_counts: not an option of pairwise"),
        ({"use_aggregator": False}, ValueError, "use_aggregator: not an option of pairwise"),
        ({"aggregation": "bootstrap", "seed": 1}, ValueError, "aggregation, seed: not options"),
        ({"multi_ref": "mean"}, ValueError, "multi_ref: not an option"),
        ({"strip_reasoning": True}, ValueError, "strip_reasoning: not an option"),
    ],
)
def test_errors_name_the_argument(kwargs, error, message):
    with pytest.raises(error, match=message):
        pairwise(["a b"], **kwargs)


def test_dedupe_refuses_what_pairwise_refuses():
    with pytest.raises(ValueError, match="strip_reasoning: not an option of pairwise or dedupe"):
        dedupe(["a b", "a b"], strip_reasoning=True)


def test_texts_must_be_strings():
    with pytest.raises(TypeError, match=r"texts\[1\] is None"):
        pairwise(["a", None])
    with pytest.raises(TypeError, match=r"others\[0\] is a int"):
        pairwise(["a"], [3])
    with pytest.raises(TypeError, match="not a single str"):
        dedupe("a text")


def _without_prefix_filter(patch: pytest.MonkeyPatch) -> None:
    patch.setattr(PAIRWISE._PrefixFilter, "build", classmethod(lambda cls, *args: None))


@FAST
@given(
    texts=st.lists(texts_strategy, min_size=1, max_size=25),
    rouge_types=st.sampled_from([t for t in ALL_TYPES if t[0] != "rougeS4"]),
    options=st.sampled_from(OPTION_SETS),
    threshold=st.sampled_from([0.05, 0.3, 0.5, 0.7, 0.75, 0.9, 1.0]),
    block=st.sampled_from([2, 1024]),
)
def test_the_prefix_filter_keeps_the_rule_and_its_causes(
    texts, rouge_types, options, threshold, block
):
    """dedupe and pairwise through the prefix filter give what the tiled path (every pair's
    bound) gives: the same kept texts and causes, the same pairs and scores."""
    (rouge_type,) = rouge_types
    assume(_kernel_can_count(rouge_type, options))
    texts = texts + texts[: len(texts) // 2]  # exact duplicates
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(PAIRWISE, "DEDUPE_BLOCK", block)
        got = dedupe(texts, threshold, rouge_type, **options)
        got_pairs = pairwise(texts, rouge_type=rouge_type, threshold=threshold, **options)
        _without_prefix_filter(patch)
        assert got == dedupe(texts, threshold, rouge_type, **options)
        expected = pairwise(texts, rouge_type=rouge_type, threshold=threshold, **options)
        assert got_pairs.tolist() == expected.tolist()


def test_the_prefix_filter_is_used_where_it_holds_and_counts_few_pairs():
    rng = random.Random(3)
    vocabulary = [f"w{i}" for i in range(2000)]
    texts = [" ".join(rng.choices(vocabulary, k=rng.randint(1, 15))) for _ in range(300)]
    texts += [text + " w0" for text in texts[:50]]  # near-duplicates
    scorer, _, _ = PAIRWISE._setup(texts, "rougeL", "f", 1, "threads", {}, str, True)
    docs = np.arange(len(texts), dtype=np.int64)
    prefix = PAIRWISE._PrefixFilter.build(scorer, docs, docs, 0.7)
    candidates = {
        (int(p), int(q))
        for ps, qs in prefix.candidates(docs, docs, True)
        for p, q in zip(ps, qs, strict=True)
    }
    rows, columns = np.nonzero(np.triu(pairwise(texts) >= 0.7, k=1))
    assert len(rows) >= 40  # the near-duplicates, but for the shortest texts
    assert set(zip(rows.tolist(), columns.tolist(), strict=True)) <= candidates
    assert len(candidates) < 0.01 * len(texts) ** 2 / 2
    # ROUGE-L F, beta = 1: alpha = ceil(t|x| / (2 - t)), the prefix |x| - alpha + 1.
    _, sentences, documents = scorer.encoded.arrays()
    lengths = np.diff(sentences[documents])
    alpha = np.ceil(0.7 * lengths / 1.3 - 1e-9)
    assert np.array_equal(prefix.pred_prefix, (lengths - alpha + 1).astype(np.int64))
    for rouge_type, threshold in [("rougeS4", 0.7), ("rouge1+synonyms", 0.7), ("rougeL", 0.0)]:
        scorer, _, _ = PAIRWISE._setup(texts, rouge_type, "f", 1, "threads", {}, str, True)
        assert PAIRWISE._PrefixFilter.build(scorer, docs, docs, threshold) is None


def test_the_prefix_filter_gives_way_to_the_tiles_where_its_prefixes_meet_too_often():
    """At a low threshold over texts of common words the prefixes are nearly whole and every pair
    meets on many of their elements: 3,000 such texts took 81.7 s through the join against 30.2 s
    for every pair. The join is then not built, and the pairs are the same."""
    rng = random.Random(5)
    vocabulary = [f"w{i}" for i in range(200)]
    weights = [1 / (rank + 1) for rank in range(200)]
    texts = [" ".join(rng.choices(vocabulary, weights, k=rng.randint(80, 120))) for _ in range(120)]
    scorer, _, _ = PAIRWISE._setup(texts, "rougeL", "f", 1, "threads", {}, str, True)
    docs = np.arange(len(texts), dtype=np.int64)
    assert PAIRWISE._PrefixFilter.build(scorer, docs, docs, 0.8) is not None
    assert PAIRWISE._PrefixFilter.build(scorer, docs, docs, 0.3) is None
    matrix = pairwise(texts)
    for threshold in (0.3, 0.8):
        found = pairwise(texts, threshold=threshold)
        rows, columns = np.nonzero(matrix >= threshold)
        assert list(zip(found["i"], found["j"], strict=True)) == list(
            zip(rows, columns, strict=True)
        )
