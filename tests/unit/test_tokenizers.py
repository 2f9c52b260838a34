"""Tokenizer registry: rouge_score parity, Unicode tokens, case law, adapters."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import tokenize as rouge_score_tokenize
from rouge_score.tokenizers import DefaultTokenizer

from rouge_plus.text.encoding import TextPipeline
from rouge_plus.text.protocols import Tokenizer
from rouge_plus.text.sentences import get_sentence_splitter
from rouge_plus.text.tokenizers import available_tokenizers, get_tokenizer

BUILTINS = available_tokenizers()

# Characters whose Unicode behaviour trips up tokenizers, mixed into generated text.
TRICKY = [
    "İ", "\u212a", "\x00", "\r\n", "\u2028", "\ud800", "\udfff", "e\u0301", "ß", "Σ", "ς",
    "ﬁ", "_", "'", "-", "\u200d", "\u00ad", "\u3000", "é", "Ⅻ", "²", "\U0001f600",
]  # fmt: skip
tricky_text = st.lists(st.one_of(st.sampled_from(TRICKY), st.text(max_size=6)), max_size=12).map(
    "".join
)
any_text = st.one_of(st.text(), tricky_text)
ascii_text = st.text(alphabet=st.characters(max_codepoint=127))


def rouge_score_tokens(text: str) -> list[str]:
    return rouge_score_tokenize.tokenize(text, None)


def test_registry_lists_the_builtins() -> None:
    assert BUILTINS == ["char", "default", "rouge155", "rouge_score", "whitespace"]
    for name in BUILTINS:
        tokenizer = get_tokenizer(name)
        assert isinstance(tokenizer, Tokenizer)
        assert tokenizer.name == name
        assert get_tokenizer(name, lowercase=False).name == f"{name}-cased"


def test_unknown_name_lists_the_valid_ones() -> None:
    with pytest.raises(ValueError, match="valid names are: char, default, rouge155, rouge_score"):
        get_tokenizer("moses")


def test_rouge155_lowercases_ascii_only() -> None:
    """ROUGE-1.5.5 lowercases bytes with Perl's lc: "İ" and the Kelvin sign stay separators."""
    text = "The \u0130stanbul CAT\u2019s \u212a caf\u00e9"
    assert get_tokenizer("rouge155")(text) == ["the", "stanbul", "cat", "s", "caf"]
    assert get_tokenizer("rouge_score")(text) == ["the", "i", "stanbul", "cat", "s", "k", "caf"]
    assert get_tokenizer("rouge155", lowercase=False)(text) == ["The", "stanbul", "CAT", "s", "caf"]


def test_bench_texts_match_rouge_score(bench_rows: list[dict]) -> None:
    rouge_score_rule, default = get_tokenizer("rouge_score"), get_tokenizer("default")
    texts = {text for row in bench_rows for text in [row["prediction"], *row["references"]]}
    for text in texts:
        expected = rouge_score_tokens(text)
        assert rouge_score_rule(text) == expected
        if text.isascii():
            assert default(text) == expected


@settings(max_examples=200)
@given(any_text)
def test_rouge_score_rule_is_bit_for_bit(text: str) -> None:
    assert get_tokenizer("rouge_score")(text) == rouge_score_tokens(text)


@settings(max_examples=150)
@given(ascii_text)
def test_default_equals_rouge_score_on_ascii(text: str) -> None:
    assert get_tokenizer("default")(text) == rouge_score_tokens(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("İstanbul", ["i", "stanbul"]),  # "İ".lower() is "i" + combining dot
        ("5 \u212am", ["5", "km"]),  # Kelvin sign lowercases to ASCII "k"
        ("café naïve", ["caf", "na", "ve"]),
        ("中文", []),
        ("state-of-the-art CAT's 3.14", ["state", "of", "the", "art", "cat", "s", "3", "14"]),
    ],
)
def test_rouge_score_quirks(text: str, expected: list[str]) -> None:
    assert get_tokenizer("rouge_score")(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Tiếng Việt rất hay", ["tiếng", "việt", "rất", "hay"]),
        ("Привет, мир! Ёлка", ["привет", "мир", "ёлка"]),
        ("Η ΟΔΟΣ", ["η", "οδος"]),
        ("مَرْحَبًا بِالْعَالَمِ", ["مَرْحَبًا", "بِالْعَالَمِ"]),  # harakat stay in the word
        ("שָׁלוֹם עולם", ["שָׁלוֹם", "עולם"]),
        ("हिन्दी भाषा सुंदर है।", ["हिन्दी", "भाषा", "सुंदर", "है"]),  # vowel signs, virama
        ("我爱北京", ["我", "爱", "北", "京"]),
        ("2024年5月", ["2024", "年", "5", "月"]),
        ("日本語を話す", ["日", "本", "語", "を", "話", "す"]),
        ("コーヒー", ["コ", "ー", "ヒ", "ー"]),
        ("ภาษาไทยที่", ["ภ", "า", "ษ", "า", "ไ", "ท", "ย", "ที่"]),  # marks stay on their letter
        ("한국어는 재미있다", ["한국어는", "재미있다"]),
        ("Straße İstanbul", ["straße", "i̇stanbul"]),
        ("co\u00adoperate", ["cooperate"]),  # soft hyphen is invisible, not a separator
        ("snake_case x²", ["snake", "case", "x"]),
    ],
)
def test_default_tokens_by_language(text: str, expected: list[str]) -> None:
    assert get_tokenizer("default")(text) == expected


def test_default_composed_and_decomposed_agree() -> None:
    composed = "café naïve Việt"
    decomposed = unicodedata.normalize("NFD", composed)
    assert composed != decomposed
    default = get_tokenizer("default")
    assert default(decomposed) == default(composed) == ["café", "naïve", "việt"]


def test_default_ascii_fast_path_agrees_with_unicode_path() -> None:
    # The same ASCII words with a non-ASCII separator take the Unicode path.
    default = get_tokenizer("default")
    ascii_text = "The U.S. GDP grew 3.5% in Q2, state-of-the-art_ish!"
    assert default(ascii_text.replace(" ", "\u3000")) == default(ascii_text)


def test_whitespace_keeps_punctuation() -> None:
    assert get_tokenizer("whitespace")("The cat, the MAT.\n") == ["the", "cat,", "the", "mat."]


def test_char_splits_every_non_space_character() -> None:
    assert get_tokenizer("char")("我爱 A\tb") == ["我", "爱", "a", "b"]
    assert get_tokenizer("char")("e\u0301") == ["é"]  # NFC first


@settings(max_examples=100)
@given(any_text)
def test_no_builtin_raises_and_tokens_are_clean(text: str) -> None:
    for name in BUILTINS:
        for lowercase in (True, False):
            tokens = get_tokenizer(name, lowercase=lowercase)(text)
            assert isinstance(tokens, list)
            assert all(isinstance(t, str) and t and not any(c.isspace() for c in t) for t in tokens)


@settings(max_examples=150)
@given(any_text)
def test_cased_variants_lowercase_to_the_default_variant(text: str) -> None:
    for name in BUILTINS:
        cased = get_tokenizer(name, lowercase=False)(text)
        assert [t.lower() for t in cased] == get_tokenizer(name)(text)


def test_cased_variant_keeps_case() -> None:
    assert get_tokenizer("default", lowercase=False)("Việt Nam, USA") == ["Việt", "Nam", "USA"]
    assert get_tokenizer("rouge_score", lowercase=False)("İzmir") == ["I", "zmir"]


def test_rouge_score_tokenizer_object_is_adapted() -> None:
    tokenizer = get_tokenizer(DefaultTokenizer(use_stemmer=True))
    assert tokenizer.name == "custom:DefaultTokenizer"
    assert tokenizer("The cats were running") == ["the", "cat", "were", "run"]


def test_callable_is_named_and_used_as_is() -> None:
    def split_on_bars(text: str) -> list[str]:
        return text.split("|")

    tokenizer = get_tokenizer(split_on_bars)
    assert tokenizer.name.startswith("custom:") and tokenizer.name.endswith("split_on_bars")
    assert tokenizer("A|b") == ["A", "b"]  # a user's tokens are not lowercased
    assert get_tokenizer(lambda text: tuple(text)).__call__("ab") == ["a", "b"]


def test_callable_with_a_name_attribute_keeps_it() -> None:
    class Named:
        name = "my-tok"

        def __call__(self, text: str) -> list[str]:
            return text.split()

    assert get_tokenizer(Named()).name == "my-tok"


@pytest.mark.parametrize("bad_output", ["a b", None, {"a"}, ["a", ["b"]], ("a", {"b": 1})])
def test_callable_with_wrong_output_raises_type_error(bad_output: object) -> None:
    tokenizer = get_tokenizer(lambda text: bad_output)
    with pytest.raises(TypeError, match="must return a list of hashable tokens"):
        tokenizer("some text")


def test_callable_may_return_any_hashable_tokens() -> None:
    tokens = ["a", 1, 2.5, (3, "b"), b"c", None]
    assert get_tokenizer(lambda text: tuple(tokens))("x") == tokens


def test_spec_of_wrong_type_raises_type_error() -> None:
    with pytest.raises(TypeError, match="tokenizer must be a name"):
        get_tokenizer(42)


def test_builtin_instance_is_reused_or_switched() -> None:
    default = get_tokenizer("default")
    assert get_tokenizer(default) is default
    assert get_tokenizer(default, lowercase=False).name == "default-cased"


# --- the compiled tokenizer's stand-in decision, on every code point ---------------------------

CODE_POINTS = 0x110000
SWEEP_BATCH = 0x10000
NATIVE_BUILTINS = [name for name in BUILTINS if get_tokenizer(name).native_when is not None]


def _compiled_tokens(name: str, text: str) -> list[str]:
    """The tokens ``text`` gets on the production path (the compiled tokenizer when the
    tokenizer's ``native_when`` allows it)."""
    pipeline = TextPipeline(get_tokenizer(name), get_sentence_splitter("none"), None)
    encoded = pipeline.encode([text], by_sentence=False, keep_words=True)
    return [encoded.words[i] for i in encoded.arrays()[0].tolist()]


@pytest.mark.parametrize("name", NATIVE_BUILTINS)
def test_native_decision_agrees_with_the_tokenizer_on_every_code_point(name: str) -> None:
    """For every one of the 0x110000 code points c (lone surrogates too) where the compiled
    ASCII rule may stand in for the tokenizer, both give the same tokens for c between ASCII
    letters: so a non-ASCII c is a separator for the tokenizer itself.

    The tokenizer asks its own Unicode database, whatever its version: a fresh clone once scored
    two different Tangut ideographs as equal because this decision used another database."""
    tokenizer = get_tokenizer(name)
    native_count = 0
    for start in range(0, CODE_POINTS, SWEEP_BATCH):
        characters = map(chr, range(start, min(start + SWEEP_BATCH, CODE_POINTS)))
        native = [c for c in characters if tokenizer.native_when(c)]
        native_count += len(native)
        text = "".join(f"A{c}" for c in native) + "A"
        assert tokenizer.native_when(text)
        if _compiled_tokens(name, text) != tokenizer(text):  # name the culprits
            wrong = [c for c in native if _compiled_tokens(name, f"A{c}A") != tokenizer(f"A{c}A")]
            assert [f"U+{ord(c):04X}" for c in wrong] == []
    assert native_count > CODE_POINTS * 3 // 4  # the fast path still serves most text
