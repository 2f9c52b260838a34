"""Sentence splitter registry: rouge_score's newline rule, the rule-based splitter, adapters."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rouge_plus.text.protocols import SentenceSplitter
from rouge_plus.text.sentences import available_sentence_splitters, get_sentence_splitter
from rouge_plus.text.tokenizers import available_tokenizers, get_tokenizer

rules = get_sentence_splitter("rules")

TRICKY = [
    ".", ". ", "?", "!", "…", "...", "。", "।", "\n", "\r\n", "\u2028", "\x00", "\ud800",
    '"', "'", ")", " Mr. ", " U.S. ", " 3.14", " e.g. ", " A. ", "  ",
]  # fmt: skip
tricky_text = st.lists(
    st.one_of(st.sampled_from(TRICKY), st.text(max_size=5)), max_size=15
).map("".join)  # fmt: skip
any_text = st.one_of(st.text(), tricky_text)


def rouge_score_lsum_sentences(text: str) -> list[str]:
    """rouge_score 0.1.2's rougeLsum rule (rouge_scorer.py, get_sents), restated."""
    return [x for x in text.split("\n") if len(x)]


def test_registry_lists_the_builtins() -> None:
    assert available_sentence_splitters() == ["newline", "none", "rules"]
    for name in available_sentence_splitters():
        splitter = get_sentence_splitter(name)
        assert isinstance(splitter, SentenceSplitter)
        assert splitter.name == name


def test_unknown_name_lists_the_valid_ones() -> None:
    with pytest.raises(ValueError, match="valid names are: newline, none, rules"):
        get_sentence_splitter("punkt")


@pytest.mark.parametrize(
    "text", ["", "a", "a\nb", "\n\na\n\n", "a\n \nb", "a\r\nb", "a\u2028b\n", " \n", "x\n\ty"]
)
def test_newline_equals_rouge_score_rule(text: str) -> None:
    assert get_sentence_splitter("newline")(text) == rouge_score_lsum_sentences(text)


@settings(max_examples=150)
@given(any_text)
def test_newline_equals_rouge_score_rule_for_all_text(text: str) -> None:
    assert get_sentence_splitter("newline")(text) == rouge_score_lsum_sentences(text)


def test_newline_keeps_whitespace_only_lines() -> None:
    assert get_sentence_splitter("newline")("a\n  \nb") == ["a", "  ", "b"]


def test_none_is_one_sentence() -> None:
    none = get_sentence_splitter("none")
    assert none("One. Two.\nThree") == ["One. Two.\nThree"]
    assert none("") == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Mr. Smith met Dr. Jones in St. Louis. They talked.",
            ["Mr. Smith met Dr. Jones in St. Louis.", "They talked."],
        ),
        ("J. K. Rowling wrote it. It sold.", ["J. K. Rowling wrote it.", "It sold."]),
        (
            "Prices rose 3.14 percent. See e.g. the table, i.e. row 2.",
            ["Prices rose 3.14 percent.", "See e.g. the table, i.e. row 2."],
        ),
        (
            "It was No. 1 in Jan. 2020. Then it fell.",
            ["It was No. 1 in Jan. 2020.", "Then it fell."],
        ),
        (
            "He moved to the U.S. The move was hard. U.S. troops left.",
            ["He moved to the U.S.", "The move was hard.", "U.S. troops left."],
        ),
        (
            "Apple Inc. said so. They sell fruit, veg, etc. and more.",
            ["Apple Inc. said so.", "They sell fruit, veg, etc. and more."],
        ),
        ("Wait... what? Yes!", ["Wait... what?", "Yes!"]),
        ("He paused… Then he spoke.", ["He paused…", "Then he spoke."]),
        ('He said "Stop." She did.', ['He said "Stop."', "She did."]),
        ('"Why?" he asked. "Because!" she said.', ['"Why?" he asked.', '"Because!" she said.']),
        ("(It was late.) We left.", ["(It was late.)", "We left."]),
        ("Visit cnn.com for more.", ["Visit cnn.com for more."]),
        ("the cat sat . the dog ran .", ["the cat sat .", "the dog ran ."]),
        ("it ended . '' then more .", ["it ended . ''", "then more ."]),
        ("1. First point\n2. Second point", ["1. First point", "2. Second point"]),
        ("no terminator\nsecond line\n\n", ["no terminator", "second line"]),
        ("他来了。她走了！真的吗？是的", ["他来了。", "她走了！", "真的吗？", "是的"]),
        ("「行こう。」と言った。", ["「行こう。」", "と言った。"]),
        ("यह अच्छा है। वह भी।", ["यह अच्छा है।", "वह भी।"]),
        ("  ", []),
    ],
)
def test_rules_splitter_cases(text: str, expected: list[str]) -> None:
    assert rules(text) == expected


@settings(max_examples=200)
@given(any_text)
def test_rules_keeps_every_non_space_character_in_order(text: str) -> None:
    sentences = rules(text)
    assert all(s and s == s.strip() for s in sentences)
    assert "".join("".join(sentences).split()) == "".join(text.split())


@settings(max_examples=100)
@given(any_text)
def test_builtins_never_raise(text: str) -> None:
    for name in available_sentence_splitters():
        assert all(isinstance(s, str) for s in get_sentence_splitter(name)(text))


# The scorer tokenizes each text once when sentence tokens concatenate to the text's tokens.
SENTENCE_SAFE = [
    (tokenizer, splitter)
    for tokenizer in available_tokenizers()
    for splitter in available_sentence_splitters()
    if (tokenizer, splitter) != ("whitespace", "rules")
]


@settings(max_examples=100)
@given(any_text)
def test_sentence_tokens_concatenate_to_text_tokens(text: str) -> None:
    for tokenizer_name, splitter_name in SENTENCE_SAFE:
        tokenizer = get_tokenizer(tokenizer_name)
        sentences = get_sentence_splitter(splitter_name)(text)
        assert [t for s in sentences for t in tokenizer(s)] == tokenizer(text)


def test_rules_splits_inside_a_whitespace_token() -> None:
    # Why ("whitespace", "rules") is not sentence-safe: CJK sentences end without a space.
    assert rules("他来了。她走了") == ["他来了。", "她走了"]
    assert get_tokenizer("whitespace")("他来了。她走了") == ["他来了。她走了"]


def test_rules_is_linear_on_a_megabyte() -> None:
    paragraph = (
        "Mr. J. Smith paid $3.14 at 5 p.m. on Jan. 5 in the U.S. It rained... "
        '"Really?" she asked. 他来了。 ' + "x" * 200 + ". " + "." * 50 + " "
    )
    text = paragraph * (1_000_000 // len(paragraph))
    started = time.perf_counter()
    sentences = rules(text)
    # Typically ~0.1 s; the bound is loose so a busy CI machine does not fail it.
    assert time.perf_counter() - started < 2.0
    assert len(sentences) > 10_000


def test_callable_is_wrapped_and_named() -> None:
    def on_semicolons(text: str) -> list[str]:
        return text.split(";")

    splitter = get_sentence_splitter(on_semicolons)
    assert splitter.name.startswith("custom:") and splitter.name.endswith("on_semicolons")
    assert splitter("a;b") == ["a", "b"]
    assert get_sentence_splitter(splitter) is splitter


@pytest.mark.parametrize("bad_output", ["a b", None, ("a", "b"), ["a", 1]])
def test_callable_with_wrong_output_raises_type_error(bad_output: object) -> None:
    splitter = get_sentence_splitter(lambda text: bad_output)
    with pytest.raises(TypeError, match="must return a list of str"):
        splitter("some text")


def test_spec_of_wrong_type_raises_type_error() -> None:
    with pytest.raises(TypeError, match="sentence splitter must be a name"):
        get_sentence_splitter(3)
