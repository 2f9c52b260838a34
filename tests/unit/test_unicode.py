"""Text in any script scores sensibly with the default tokenizer (values checked by hand)."""

from __future__ import annotations

import warnings

import pytest

from rouge_plus import score

ALL_TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]

SAME_TEXT = {
    "vietnamese": "Tiếng Việt là ngôn ngữ chính thức của Việt Nam.",
    "russian": "Кошка сидит на ковре.\nСобака спит.",
    "arabic": "القطة تجلس على السجادة.",
    "hindi": "बिल्ली चटाई पर बैठी है।",
    "chinese": "我喜欢吃苹果。今天天气很好。",
    "japanese": "私は猫が好きです。",
}


@pytest.mark.parametrize("language", sorted(SAME_TEXT))
def test_identical_text_scores_one(language):
    text = SAME_TEXT[language]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = score([text], [text], rouge_types=ALL_TYPES)
    assert result == {t: 1.0 for t in ALL_TYPES}


# (prediction, reference, expected F for rouge1, rouge2, rougeL), each worked out by hand:
PARTIAL = {
    # tokens [tôi, yêu, mèo] vs [tôi, yêu, chó, nhỏ]: 2 unigrams (P 2/3, R 1/2), 1 bigram (1/2, 1/3)
    "vietnamese": ("Tôi yêu mèo", "tôi yêu chó nhỏ", 4 / 7, 2 / 5, 4 / 7),
    # [кошка, сидит, на, ковре] vs [кошка, спит, на, ковре]: 3 of 4; bigram "на ковре" 1 of 3
    "russian": ("Кошка сидит на ковре", "Кошка спит на ковре", 3 / 4, 1 / 3, 3 / 4),
    # 3 tokens vs 4, all 3 match (P 1, R 3/4); bigram "على السجادة" (1/2, 1/3)
    "arabic": ("القطة على السجادة", "القطة نائمة على السجادة", 6 / 7, 2 / 5, 6 / 7),
    # vowel signs and viramas stay inside words: 4 of 4 vs 6 (P 1, R 2/3); 2 bigrams (2/3, 2/5)
    "hindi": ("बिल्ली चटाई पर है", "बिल्ली चटाई पर सो रही है", 4 / 5, 1 / 2, 4 / 5),
    # characters: 我喜欢猫 vs 我喜欢狗和猫: 4 of 4 vs 6; bigrams 我喜 喜欢 (2/3, 2/5); LCS 4
    "chinese": ("我喜欢猫", "我喜欢狗和猫", 4 / 5, 1 / 2, 4 / 5),
    # characters: 猫が好きです vs 私は猫が好き: 4 of 6 each; bigrams 猫が が好 好き (3/5); LCS 4
    "japanese": ("猫が好きです", "私は猫が好き", 2 / 3, 3 / 5, 2 / 3),
}


@pytest.mark.parametrize("language", sorted(PARTIAL))
def test_partial_overlap_hand_checked(language):
    prediction, reference, rouge1, rouge2, rouge_l = PARTIAL[language]
    result = score([prediction], [reference], rouge_types=["rouge1", "rouge2", "rougeL"])
    assert result == pytest.approx(
        {"rouge1": rouge1, "rouge2": rouge2, "rougeL": rouge_l}, abs=1e-12
    )


def test_legacy_tokenizer_warns_instead_of_silently_scoring_zero():
    with pytest.warns(UserWarning, match="2 non-empty text"):
        result = score(
            ["我喜欢猫"], ["我喜欢狗和猫"], tokenizer="rouge_score", rouge_types=["rouge1"]
        )
    assert result == {"rouge1": 0.0}


def test_composed_and_decomposed_accents_match():
    composed, decomposed = "caf\u00e9 na\u00efve", "cafe\u0301 nai\u0308ve"
    assert score([composed], [decomposed], rouge_types=["rouge1"]) == {"rouge1": 1.0}


def test_letters_newer_than_pythons_unicode_database_are_words():
    """Tangut ideographs (Unicode 13+) are letters to the tokenizer's regex module; the choice
    of the compiled ASCII path must ask the same database (a fresh clone scored these 1.0)."""
    result = score(["model \U00031350 output"], ["model \U00031351 output"], rouge_types=["rouge1"])
    assert result == pytest.approx({"rouge1": 2 / 3}, abs=1e-12)


def test_a_symbol_that_nfc_splits_into_a_mark_scores_the_same_on_both_paths():
    """U+2ADC is a math symbol whose NFC form ends in the combining mark U+0338, which joins the
    next word; an ASCII-only neighbour must not send the text down the compiled path."""
    alone = score(["a\u2adcb"], ["a b"], rouge_types=["rouge1"])
    with_letter = score(["a\u2adcb é"], ["a b é"], rouge_types=["rouge1"])
    assert alone == {"rouge1": 0.5}  # tokens [a, \u0338b] against [a, b]
    assert with_letter == pytest.approx({"rouge1": 2 / 3}, abs=1e-12)
