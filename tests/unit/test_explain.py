"""Token spans and match labels of rouge_plus.space.explain."""

from __future__ import annotations

import time
import unicodedata
from collections import Counter

import pytest
from support.explain_pair import explain_pair

from rouge_plus import ScoreOptions, score
from rouge_plus.kernels.lcs import lcs_length, lcs_path
from rouge_plus.kernels.matching import matched_pairs, maximum_matching
from rouge_plus.plan import ScoringPlan
from rouge_plus.rouge2.synonyms import load_synonyms
from rouge_plus.space.explain import (
    _aligned_spans,
    explain_with_plan,
    matched_ngram_positions,
    token_spans,
)
from rouge_plus.space.render import KIND_LABELS
from rouge_plus.text.tokenizers import available_tokenizers, get_tokenizer

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

TEXTS = [
    "The cat is on the mat.",
    "State-of-the-art CAT's 3.14 results!",
    "Water spinach is a semi-aquatic tropical plant.\nGrown as a vegetable.",
    "  leading and trailing spaces  ",
    "",
    "Café déjà-vu à Paris, naïve façade.",
    "Tiếng Việt có dấu: người đọc.",
    "中文分词没有空格。日本語のテキスト",
    "नमस्ते दुनिया",
    "Ελληνικά ΣΊΣΥΦΟΣ",
    "emoji 🎉 and tabs\tand\u00a0nbsp",
]


def _visible(text: str) -> str:
    """What the tokenizers compare: NFC text without the invisible joiners, lowercased."""
    for joiner in "\u00ad\u200c\u200d\u2060":
        text = text.replace(joiner, "")
    return unicodedata.normalize("NFC", text).lower()


@pytest.mark.parametrize("name", available_tokenizers())
@pytest.mark.parametrize("text", TEXTS)
def test_spans_reproduce_the_tokenizer(name: str, text: str) -> None:
    spans = token_spans(text, name)
    assert [s.token for s in spans] == get_tokenizer(name)(text)
    assert [text[s.start : s.end].lower() for s in spans] == [s.token for s in spans]


def test_spans_of_decomposed_and_joined_text_point_at_the_original_characters() -> None:
    text = "cafe\u0301 co\u00adop"
    spans = token_spans(text, "default")
    assert [s.token for s in spans] == ["café", "coop"]
    assert [text[s.start : s.end] for s in spans] == ["cafe\u0301", "co\u00adop"]


def _aligned_one_character_at_a_time(word: str, tokens: list[str], tokenize) -> list[tuple]:
    """The alignment as it was first written: slices grown one character at a time."""
    spans, position = [], 0
    for token in tokens:
        start = position
        while start < len(word) and not tokenize(word[position : start + 1]):
            start += 1
        end = start + 1
        while end < len(word) and tokenize(word[start:end])[:1] != [token]:
            end += 1
        end = min(end, len(word))
        spans.append((start, end, token))
        position = end
    return spans


MARKS = ["e\u0301", "\u0301", "\u00ad", "\u200d", "İ", "ς", "ß", "a", "«", "猫", "\u2adc", "1"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(MARKS), min_size=1, max_size=30).map("".join))
def test_galloping_alignment_equals_one_character_at_a_time(word: str) -> None:
    for name in available_tokenizers():
        tokenize = get_tokenizer(name)
        tokens = tokenize(word)
        spans = [(s.start, s.end, s.token) for s in _aligned_spans(word, 0, tokens, tokenize)]
        assert spans == _aligned_one_character_at_a_time(word, tokens, tokenize), name


def test_a_long_decomposed_word_is_aligned_in_a_fraction_of_a_second() -> None:
    """20,000 characters of decomposed "é" are one NFC token: 28 s when every slice grew by
    one character and was tokenized again."""
    word = "e\u0301" * 10_000
    started = time.process_time()
    spans = token_spans(word, "default")
    assert time.process_time() - started < 2
    assert [(s.start, s.end) for s in spans] == [(0, 20_000)]


def test_rouge_score_tokenizer_drops_non_ascii_letters_inside_spans() -> None:
    spans = token_spans("Café au lait", "rouge_score")
    expected = [(0, 3, "caf"), (5, 7, "au"), (8, 12, "lait")]
    assert [(s.start, s.end, s.token) for s in spans] == expected


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40))
def test_spans_are_ordered_and_cover_their_tokens(text: str) -> None:
    for name in available_tokenizers():
        spans = token_spans(text, name)
        assert [s.token for s in spans] == get_tokenizer(name)(text)
        ends = [0] + [s.end for s in spans]
        assert all(previous <= s.start < s.end for previous, s in zip(ends, spans, strict=False))
        assert all(s.end <= len(text) for s in spans)
        if name == "default" and "\u0130" not in text:
            assert all(_visible(text[s.start : s.end]) == s.token for s in spans)


def test_cat_example_marks_the_three_shared_unigrams_as_both() -> None:
    explained = explain_pair("The cat and the dog.", "The cat is on the mat.")
    assert [(s.token, s.kind) for s in explained.prediction] == [
        ("the", "both"),
        ("cat", "both"),
        ("and", None),
        ("the", "both"),
        ("dog", None),
    ]
    assert [s.kind for s in explained.reference] == ["both", "both", None, None, "both", None]
    assert explained.ngram_n == 1


def test_bigram_and_lcs_labels_differ_where_the_orders_differ() -> None:
    explained = explain_pair("b a c", "a b c", tokenizer="whitespace", ngram_n=1)
    # Unigrams all match; the LCS (length 2) keeps "a c" on the prediction side.
    assert [s.kind for s in explained.prediction] == ["ngram", "both", "both"]
    bigrams = explain_pair("x a b y", "a b z", ngram_n=2)
    assert [s.kind for s in bigrams.prediction] == [None, "both", "both", None]
    assert [s.kind for s in bigrams.reference] == ["both", "both", None]


def test_clipping_marks_only_as_many_occurrences_as_match_preferring_the_lcs() -> None:
    explained = explain_pair("the the the cat", "the cat", ngram_n=1)
    # One "the" matches; the LCS path takes the last one, and the unigram mark follows it.
    assert [s.kind for s in explained.prediction] == [None, None, "both", "both"]
    assert matched_ngram_positions(["a", "a", "b"], ["a", "b"], 1) == ({0, 2}, {0, 1})


def test_stemming_matches_inflected_forms() -> None:
    plain = explain_pair("cats running", "cat runs")
    stemmed = explain_pair("cats running", "cat runs", use_stemmer=True)
    assert [s.kind for s in plain.prediction] == [None, None]
    assert [s.kind for s in stemmed.prediction] == ["both", "both"]
    assert [s.token for s in stemmed.prediction] == ["cats", "running"]


def test_synonyms_are_marked_only_where_no_exact_match_is() -> None:
    plain = explain_pair("the car is fast", "the automobile is quick")
    explained = explain_pair(
        "the car is fast", "the automobile is quick", synonyms=load_synonyms(None)
    )
    assert [s.kind for s in plain.prediction] == ["both", None, "both", None]
    assert [(s.token, s.kind) for s in explained.prediction] == [
        ("the", "both"), ("car", "synonym"), ("is", "both"), ("fast", "synonym")
    ]  # fmt: skip
    assert [(s.token, s.kind) for s in explained.reference] == [
        ("the", "both"), ("automobile", "synonym"), ("is", "both"), ("quick", "synonym")
    ]  # fmt: skip


def test_synonyms_of_stemmed_words_and_repeated_words() -> None:
    synonyms = load_synonyms({"car": ["automobile"]})
    explained = explain_pair("cars car", "automobile car", use_stemmer=True, synonyms=synonyms)
    # Both words stem to "car": one matches exactly, the other only through the synonym.
    assert [s.kind for s in explained.prediction] == ["synonym", "both"]
    assert [s.kind for s in explained.reference] == ["synonym", "both"]


def test_removed_stopwords_are_never_marked() -> None:
    explained = explain_pair("The cat and the dog.", "The cat sat.", remove_stopwords=True)
    assert [(s.token, s.kind) for s in explained.prediction] == [
        ("the", None), ("cat", "both"), ("and", None), ("the", None), ("dog", None)
    ]  # fmt: skip


def test_options_choose_tokenizer_stemmer_stopwords_and_synonyms() -> None:
    options = ScoreOptions.from_kwargs(
        rouge_types=["rouge1+synonyms"], use_stemmer=True, remove_stopwords=True
    )
    explained = explain_with_plan(
        "The cars are fast", "An automobile is quick", ScoringPlan(options)
    )
    assert [s.kind for s in explained.prediction] == [None, "synonym", None, "synonym"]
    without = explain_with_plan(
        "The cars are fast", "An automobile is quick", ScoringPlan(ScoreOptions.from_kwargs())
    )
    assert {s.kind for s in without.prediction} == {None}


def test_labels_are_kinds_the_page_can_show() -> None:
    explained = explain_pair("a b c d", "d c b a x", ngram_n=2)
    kinds = {s.kind for s in explained.prediction + explained.reference}
    assert kinds <= set(KIND_LABELS) | {None}


def test_ngram_n_must_be_positive() -> None:
    with pytest.raises(ValueError, match="ngram_n"):
        explain_pair("a", "a", ngram_n=0)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from("abcd"), max_size=12),
    st.lists(st.sampled_from("abcd"), max_size=12),
    st.integers(1, 3),
)
def test_marks_agree_with_the_scorer(pred: list[str], ref: list[str], n: int) -> None:
    result = score(
        [" ".join(pred)], [" ".join(ref)], rouge_types=[f"rouge{n}"], return_precision_recall=True
    )
    pred_marked, ref_marked = matched_ngram_positions(pred, ref, n)
    if n == 1:
        # Every marked unigram is one hit: the marks are the precision and recall numerators.
        assert len(pred_marked) == pytest.approx(result["rouge1_precision"] * len(pred))
        assert len(ref_marked) == pytest.approx(result["rouge1_recall"] * len(ref))
    assert bool(pred_marked) == bool(ref_marked) == (result[f"rouge{n}"] > 0)
    ref_grams = {tuple(ref[i : i + n]) for i in range(len(ref) - n + 1)}
    for position in pred_marked:
        windows = range(max(0, position - n + 1), min(position, len(pred) - n) + 1)
        assert any(tuple(pred[s : s + n]) in ref_grams for s in windows)

    pairs = lcs_path(ref, pred)
    assert len(pairs) == lcs_length(ref, pred)
    assert pairs == _table_traceback(ref, pred)
    assert all(ref[i] == pred[j] for i, j in pairs)
    assert [j for _, j in pairs] == sorted({j for _, j in pairs})


def _table_traceback(ref: list, pred: list) -> list[tuple[int, int]]:
    """ROUGE's traceback on the full LCS table: diagonal on a match, left when
    T[i][j-1] > T[i-1][j], up on ties."""
    table = [[0] * (len(pred) + 1) for _ in range(len(ref) + 1)]
    for i in range(1, len(ref) + 1):
        for j in range(1, len(pred) + 1):
            if ref[i - 1] == pred[j - 1]:
                table[i][j] = table[i - 1][j - 1] + 1
            else:
                table[i][j] = max(table[i - 1][j], table[i][j - 1])
    pairs, i, j = [], len(ref), len(pred)
    while i > 0 and j > 0:
        if ref[i - 1] == pred[j - 1]:
            pairs.append((i - 1, j - 1))
            i, j = i - 1, j - 1
        elif table[i][j - 1] > table[i - 1][j]:
            j -= 1
        else:
            i -= 1
    return pairs[::-1]


SYNONYM_GROUPS = {"a": ["b"], "c": ["d", "a"]}


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from("abcde"), max_size=10),
    st.lists(st.sampled_from("abcde"), max_size=10),
)
def test_synonym_marks_count_rouge1_synonyms_hits(pred: list[str], ref: list[str]) -> None:
    synonyms = load_synonyms(SYNONYM_GROUPS)
    explained = explain_pair(" ".join(pred), " ".join(ref), synonyms=synonyms)
    result = score(
        [" ".join(pred)], [" ".join(ref)], rouge_types=["rouge1+synonyms"],
        synonyms=SYNONYM_GROUPS, return_precision_recall=True,
    )  # fmt: skip
    # With ngram_n=1 every marked token is one unit of the maximum matching.
    marked_pred = sum(s.kind is not None for s in explained.prediction)
    marked_ref = sum(s.kind is not None for s in explained.reference)
    assert marked_pred == pytest.approx(result["rouge1+synonyms_precision"] * len(pred))
    assert marked_ref == pytest.approx(result["rouge1+synonyms_recall"] * len(ref))

    pairs = matched_pairs(Counter(pred), Counter(ref), synonyms.match)
    assert pairs.total() == maximum_matching(Counter(pred), Counter(ref), synonyms.match)
    assert all(a == b or synonyms.match(a, b) for a, b in pairs)
    assert all(sum(n for (a, _), n in pairs.items() if a == w) <= pred.count(w) for w in pred)
    assert all(sum(n for (_, b), n in pairs.items() if b == w) <= ref.count(w) for w in ref)
