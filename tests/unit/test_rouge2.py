"""ROUGE 2.0's measures: N+Synonyms, Topic, TopicUniq and their +Synonyms forms (SPEC §5)."""

from __future__ import annotations

import random
import time
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rouge_plus import score
from rouge_plus.kernels.matching import maximum_matching

REFERENCE = "The phone is very lightweight.\nThe display is also very bright and clear."
SYSSUM1 = "Lightweight phone.\nBright screen.\nScreen is very clear."
SYSSUM2 = (
    "I really love this phone it is just superb, it is extremely lightweight.\n"
    "Hmmm, this was actually a gift to my girlfriend and I do feel that the screen is quite "
    "nice and extremely bright.\nIn terms of screen, the screen is really clear and crisp."
)
FIVE = ["rougeTopic", "rougeTopicUniq", "rouge1+synonyms", "rougeTopic+synonyms",
        "rougeTopicUniq+synonyms"]  # fmt: skip


def prf(result: dict, rouge_type: str) -> tuple[float, float, float]:
    return tuple(round(result[f"{rouge_type}_{k}"], 6) for k in ("recall", "precision", "fmeasure"))


def test_the_papers_phone_example():
    """ROUGE 2.0's README: stopwords removed, topics are nouns and adjectives (NN|JJ)."""
    result = score(
        [SYSSUM1], [REFERENCE], rouge_types=["rouge1", *FIVE], remove_stopwords=True,
        topic_pos="NN|JJ", return_precision_recall=True,
    )  # fmt: skip
    # reference words: phone lightweight display bright clear; SysSum1: lightweight phone
    # bright screen screen clear (6). Four match; "screen" is no WordNet synonym of "display".
    for rouge_type in ["rouge1", "rougeTopic", "rouge1+synonyms", "rougeTopic+synonyms"]:
        assert prf(result, rouge_type) == (0.8, 0.666667, 0.727273), rouge_type
    # distinct topic words: 5 on each side, 4 shared
    for rouge_type in ["rougeTopicUniq", "rougeTopicUniq+synonyms"]:
        assert prf(result, rouge_type) == (0.8, 0.8, 0.8), rouge_type


def test_the_papers_second_summary():
    result = score([SYSSUM2], [REFERENCE], rouge_types=["rouge1"], remove_stopwords=True)
    assert round(result["rouge1"], 6) == 0.285714


@pytest.mark.parametrize(
    ("prediction", "reference", "rouge_type", "expected"),
    [
        # car~automobile, fast~quick: every unigram and bigram matches
        ("the car is fast", "the automobile is quick", "rouge1+synonyms", (1.0, 1.0)),
        ("the car is fast", "the automobile is quick", "rouge2+synonyms", (1.0, 1.0)),
        # bought -> buy ~ purchase <- purchased; big~large: 5 of 5 (plain rouge1: 3 of 5)
        ("he bought a big house", "he purchased a large house", "rouge1+synonyms", (1.0, 1.0)),
        ("he bought a big house", "he purchased a large house", "rouge1", (0.6, 0.6)),
        # "car" may take "car" or "automobile", not both: P = 2/2 = 1, never 1.5; R = 2/5
        ("the car", "the car and the automobile", "rouge1+synonyms", (1.0, 0.4)),
        ("cars", "automobiles", "rouge1+synonyms", (1.0, 1.0)),
    ],
)
def test_hand_checked_synonym_cases(prediction, reference, rouge_type, expected):
    options = {"rouge_types": [rouge_type], "return_precision_recall": True}
    result = score([prediction], [reference], **options)
    assert (result[f"{rouge_type}_precision"], result[f"{rouge_type}_recall"]) == expected


def test_maximum_matching_beats_a_greedy_one():
    """big~large and huge~big, but huge is no synonym of large: greedy matches big-big and
    leaves huge alone (1 of 2); the maximum matching pairs big-large and huge-big (2 of 2)."""
    groups = {"big": ["large"], "huge": ["big"]}
    for prediction, reference in [("big huge", "big large"), ("big large", "big huge")]:
        result = score(
            [prediction], [reference], rouge_types=["rouge1+synonyms"], synonyms=groups,
            return_precision_recall=True,
        )  # fmt: skip
        assert result["rouge1+synonyms_precision"] == result["rouge1+synonyms_recall"] == 1.0


def test_a_users_vietnamese_synonym_file(tmp_path):
    path = tmp_path / "vi.txt"
    path.write_text("# nhóm từ đồng nghĩa\nto, lớn\nnhanh\tlẹ\n", encoding="utf-8")
    prediction, reference = ["con mèo to chạy nhanh"], ["con mèo lớn chạy lẹ"]
    plain = score(prediction, reference, rouge_types=["rouge1"])
    with_file = score(prediction, reference, rouge_types=["rouge1+synonyms"], synonyms=path)
    assert plain == {"rouge1": 0.6}
    assert with_file == {"rouge1+synonyms": 1.0}


def test_pretagged_input_and_a_callable_tagger():
    prediction = ["Bright/JJ screen/NN ./."]
    reference = ["The/DT display/NN is/VBZ bright/JJ ./."]
    result = score(prediction, reference, rouge_types=["rougeTopic"], pos_tagger="pretagged",
                   return_precision_recall=True)  # fmt: skip
    assert (result["rougeTopic_precision"], result["rougeTopic_recall"]) == (0.5, 0.5)

    def everything_is_a_noun(tokens):
        return ["NN"] * len(tokens)

    result = score(["a b"], ["a c d"], rouge_types=["rougeTopic"], pos_tagger=everything_is_a_noun,
                   return_precision_recall=True)  # fmt: skip
    assert (result["rougeTopic_precision"], result["rougeTopic_recall"]) == (0.5, 1 / 3)


def test_tagging_sees_case_and_duplicates_do_not_dilute():
    """Two identical references give the same topic score as one (the Java tool halves it)."""
    one = score([SYSSUM1], [[REFERENCE]], rouge_types=["rougeTopic"], multi_ref="mean")
    two = score([SYSSUM1], [[REFERENCE, REFERENCE]], rouge_types=["rougeTopic"], multi_ref="mean")
    assert one == two


units = st.dictionaries(st.integers(0, 5), st.integers(1, 3), max_size=5).map(Counter)


@settings(max_examples=300, deadline=None)
@given(units, units, st.sets(st.tuples(st.integers(0, 5), st.integers(0, 5)), max_size=10))
def test_matching_is_maximum_bounded_and_symmetric(left, right, pairs):
    nx = pytest.importorskip("networkx")
    edges = {frozenset(pair) for pair in pairs}

    def compatible(a, b):
        return frozenset((a, b)) in edges

    graph = nx.Graph()
    left_units = [("L", kind, i) for kind, count in left.items() for i in range(count)]
    right_units = [("R", kind, i) for kind, count in right.items() for i in range(count)]
    graph.add_nodes_from(left_units + right_units)
    graph.add_edges_from(
        (a, b) for a in left_units for b in right_units if a[1] == b[1] or compatible(a[1], b[1])
    )
    best = len(nx.bipartite.maximum_matching(graph, top_nodes=left_units)) // 2
    got = maximum_matching(left, right, compatible)
    assert got == best == maximum_matching(right, left, compatible)
    assert got <= min(left.total(), right.total())


def test_long_augmenting_paths_do_not_hit_the_recursion_limit():
    """Exact matches first leave w3000 and w0 apart; the only way to match everything shifts
    every word one synonym down: an augmenting path of 3,000 steps."""
    n = 3000
    chain = {f"w{i}": [f"w{i + 1}"] for i in range(n)}
    prediction = " ".join(f"w{i}" for i in range(1, n + 1))
    reference = " ".join(f"w{i}" for i in range(n))
    result = score([prediction], [reference], rouge_types=["rouge1+synonyms"], synonyms=chain)
    assert result == {"rouge1+synonyms": 1.0}


def test_thousands_of_repeated_synonyms_cost_next_to_nothing():
    """2,000 words drawn from three mutual synonyms on each side once took 325 s for
    rouge9+synonyms (an augmenting path per occurrence over thousands of distinct 9-grams);
    interchangeable words are one token and identical n-grams one node with a capacity."""
    rng = random.Random(9)
    words = ["big", "large", "great"]
    prediction, reference = (" ".join(rng.choices(words, k=2000)) for _ in range(2))
    started = time.process_time()
    result = score([prediction], [reference], rouge_types=["rouge1+synonyms", "rouge9+synonyms"])
    assert time.process_time() - started < 5
    assert result == {"rouge1+synonyms": 1.0, "rouge9+synonyms": 1.0}


CHAIN = {"a": ["b"], "b": ["c"], "c": ["d"]}  # a~b, b~c, c~d only: no two words interchangeable


def _max_flow_matches(prediction: str, reference: str, n: int) -> int:
    """The maximum matching of n-gram occurrences under CHAIN, as a networkx maximum flow from
    the prediction's n-grams (capacity: their counts) to the reference's."""
    nx = pytest.importorskip("networkx")
    related = {(a, b) for a, bs in CHAIN.items() for b in bs}

    def grams(text: str) -> Counter:
        tokens = text.split()
        return Counter(zip(*(tokens[i:] for i in range(n)), strict=False))

    def compatible(a: tuple, b: tuple) -> bool:
        pairs = zip(a, b, strict=True)
        return all(x == y or (x, y) in related or (y, x) in related for x, y in pairs)

    graph = nx.DiGraph()
    graph.add_nodes_from(["source", "sink"])
    left, right = grams(prediction), grams(reference)
    for gram, count in left.items():
        graph.add_edge("source", ("L", gram), capacity=count)
    for gram, count in right.items():
        graph.add_edge(("R", gram), "sink", capacity=count)
    for a in left:
        for b in right:
            if compatible(a, b):
                graph.add_edge(("L", a), ("R", b))  # no capacity: unbounded
    return int(nx.maximum_flow_value(graph, "source", "sink"))


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.sampled_from("abcd"), max_size=40),
    st.lists(st.sampled_from("abcd"), max_size=40),
    st.integers(1, 3),
)
def test_synonym_matching_equals_a_maximum_flow(prediction, reference, n):
    prediction, reference = " ".join(prediction), " ".join(reference)
    rouge_type = f"rouge{n}+synonyms"
    result = score(
        [prediction], [reference], rouge_types=[rouge_type], synonyms=CHAIN,
        return_precision_recall=True,
    )  # fmt: skip
    units = max(len(prediction.split()) - n + 1, 0)
    assert round(result[f"{rouge_type}_precision"] * units) == _max_flow_matches(
        prediction, reference, n
    )
