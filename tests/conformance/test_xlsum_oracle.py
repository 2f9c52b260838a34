"""rouge_plus's languages against the XL-Sum multilingual scorer (``multilingual-rouge``).

Per example, precision, recall and F agree wherever the two define tokens alike: on texts
without letters glued to digits or symbols, with the same segmenter and stemmer. Every place
where they differ (docs/languages.md) has a test below that shows it.
"""

from __future__ import annotations

import unicodedata
import warnings

import pytest
from support.language_texts import SENTENCES, UNSPACED, pairs
from support.xlsum_oracle import (
    ORACLE_LANGUAGES,
    SNOWBALL,
    oracle_module,
    oracle_scorer,
    oracle_scores,
    oracle_tokens,
)

from rouge_plus import score
from rouge_plus.options import ScoreOptions
from rouge_plus.plan import text_pipeline

TYPES = ("rouge1", "rouge2", "rougeL")
STEMMED = sorted(SNOWBALL & set(SENTENCES) | {"hi", "tr"})


@pytest.fixture(autouse=True)
def _oracle_installed() -> None:
    oracle_module()


def ours(predictions: list[str], references: list[str], **options: object) -> dict:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "no stemmer for this language"
        return score(
            predictions,
            references,
            use_aggregator=False,
            return_precision_recall=True,
            **options,
        )


def assert_agree(code: str, rouge_types: tuple[str, ...], oracle, **options: object) -> None:
    rows = pairs(code, multi_sentence="rougeLsum" in rouge_types)
    mine = ours([p for p, _ in rows], [r for _, r in rows], rouge_types=list(rouge_types),
                language=code, **options)  # fmt: skip
    for k, (prediction, reference) in enumerate(rows):
        expected = oracle_scores(oracle, prediction, reference)
        for name in rouge_types:
            got = tuple(mine[f"{name}_{part}"][k] for part in ("precision", "recall", "fmeasure"))
            assert got == pytest.approx(expected[name], abs=1e-9), (code, name, prediction)


@pytest.mark.parametrize("code", sorted(SENTENCES))
def test_same_scores_without_stemming(code: str) -> None:
    assert_agree(code, TYPES, oracle_scorer(code, TYPES))


@pytest.mark.parametrize("code", STEMMED)
def test_same_scores_with_the_oracles_own_stemmer(code: str) -> None:
    assert_agree(code, TYPES, oracle_scorer(code, TYPES, True), use_stemmer=True)


@pytest.mark.parametrize("code", STEMMED)
def test_same_scores_with_the_same_stemmer(code: str) -> None:
    stem = text_pipeline(ScoreOptions.from_kwargs(language=code, use_stemmer=True)).stem
    assert_agree(code, TYPES, oracle_scorer(code, TYPES, True, stem), use_stemmer=True)


@pytest.mark.parametrize("code", sorted(set(SENTENCES) - UNSPACED))
def test_same_rouge_lsum_where_the_oracle_needs_no_segmenter(code: str) -> None:
    types = ("rougeLsum",)
    assert_agree(code, types, oracle_scorer(code, types, code in STEMMED),
                 use_stemmer=code in STEMMED)  # fmt: skip


# ---- the documented differences ---------------------------------------------------------------


def tokens(code: str, text: str, **options: object) -> list[str]:
    return text_pipeline(ScoreOptions.from_kwargs(language=code, **options)).tokenizer(text)


@pytest.mark.parametrize(
    ("code", "text", "oracle_split", "kept"),
    [
        ("de", "Das U21 Team", ["das", "u", "21", "team"], ["das", "u21", "team"]),
        ("hi", "भारत की U21 टीम", ["भारत", "की", "u", "21", "टीम"], ["भारत", "की", "u21", "टीम"]),
        ("ja", "U21の試合", ["u", "21", "の", "試合"], ["u21", "の", "試合"]),
    ],
)
def test_letters_glued_to_digits_stay_one_token(code, text, oracle_split, kept) -> None:
    assert oracle_tokens(oracle_scorer(code, TYPES), text) == oracle_split
    assert tokens(code, text) == kept


def test_symbols_are_not_tokens() -> None:
    assert oracle_tokens(oracle_scorer("de", TYPES), "Es kostet zehn €") == [
        "es", "kostet", "zehn", "€",
    ]  # fmt: skip
    assert tokens("de", "Es kostet zehn €") == ["es", "kostet", "zehn"]


@pytest.mark.parametrize("code", ["zh", "th"])
def test_the_oracle_counts_spaces_as_tokens(code: str) -> None:
    text = {"zh": "我爱北京，今天天气很好", "th": "ฉันรักภาษาไทย วันนี้อากาศดีมาก"}[code]
    raw = oracle_tokens(oracle_scorer(code, TYPES, raw=True), text)
    assert " " in raw
    assert [t for t in raw if t != " "] == tokens(code, text)


@pytest.mark.parametrize("code", ["zh", "ja", "th"])
def test_the_oracles_rouge_lsum_ignores_the_segmenter(code: str) -> None:
    from multilingual_rouge import tokenization_wrapper

    first, second = SENTENCES[code][:2]
    # ROUGE-Lsum's sentences go through no segmenter there: a sentence is one token.
    assert tokenization_wrapper.tokenize(first) == [first.rstrip("。")]
    reference = f"{first}\n{second}"
    changed = f"{second}\n{first[:-2]}{first[-1]}"  # one character less
    oracle = oracle_scores(oracle_scorer(code, ("rougeLsum",)), changed, reference)
    mine = ours([changed], [reference], rouge_types=["rougeLsum"], language=code)
    assert oracle["rougeLsum"][1] < 0.7
    assert mine["rougeLsum_recall"][0] > 0.8


def test_decomposed_accents_match_composed_ones() -> None:
    composed = "Le gouvernement a annoncé de nouvelles mesures économiques."
    decomposed = unicodedata.normalize("NFD", composed)
    oracle = oracle_scores(oracle_scorer("fr", TYPES), decomposed, composed)
    assert oracle["rouge1"][2] < 1.0
    assert ours([decomposed], [composed], rouge_types=["rouge1"], language="fr")["rouge1"] == [1.0]


def test_snowball_needs_nltks_stopword_corpus_in_the_oracle() -> None:
    try:
        oracle_scorer("de", TYPES, True, raw=True)
    except LookupError:  # NLTK's stopwords corpus is not installed
        pass
    else:
        pytest.skip("NLTK's stopwords corpus is installed here")


@pytest.mark.parametrize(
    ("code", "word", "oracle_stem", "our_stem"),
    [
        ("nl", "speelden", "speeld", "speel"),  # NLTK's Snowball is an older Dutch algorithm
        ("hi", "जाएगा", "जाएग", "ज"),  # the oracle's own suffix list against Snowball's Hindi
        ("tr", "oyuncular", "oyunç", "oyuncu"),  # the TurkishStemmer package against Snowball's
    ],
)
def test_stemmers_differ_on_some_words(code, word, oracle_stem, our_stem) -> None:
    oracle = oracle_scorer(code, TYPES, True)
    assert oracle_tokens(oracle, word) == [oracle_stem]
    stem = text_pipeline(ScoreOptions.from_kwargs(language=code, use_stemmer=True)).stem
    assert stem(word) == our_stem


def test_english_keeps_rouge_scores_porter_where_the_oracle_uses_snowball() -> None:
    assert oracle_tokens(oracle_scorer("en", TYPES, True), "generously") == ["generous"]
    stem = text_pipeline(ScoreOptions.from_kwargs(language="en", use_stemmer=True)).stem
    assert stem("generously") == "gener"


def test_bengali_stemming_fails_in_the_oracle_and_is_absent_here() -> None:
    with pytest.raises(FileNotFoundError):
        oracle_scorer("bn", TYPES, True, raw=True)
    with pytest.warns(UserWarning, match="no stemmer for language 'bn'"):
        score(["সরকার ঘোষণা করেছে"], ["সরকার ঘোষণা করেছেন"], language="bn", use_stemmer=True)


def test_burmese_syllables_there_letters_here() -> None:
    text = "မြန်မာနိုင်ငံ"
    assert oracle_tokens(oracle_scorer("my", TYPES), text) == ["မြန်", "မာ", "နိုင်", "ငံ"]
    # No offline Burmese segmenter is packaged: each letter with its marks is a token.
    assert tokens("my", text) == ["မြ", "န်", "မာ", "နို", "င်", "ငံ"]


def test_korean_is_words_there_morphemes_here() -> None:
    assert "ko" not in ORACLE_LANGUAGES  # the oracle has no Korean segmenter
    assert tokens("ko", "학교에 갔다") == ["학교", "에", "가", "었", "다"]
