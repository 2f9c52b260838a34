"""The language option: segmentation, stemming, stopwords and sentence marks per language,
hand-checked on native sentence pairs, and what stays exactly as it was without a language."""

from __future__ import annotations

import re
import sys
import unicodedata
import warnings

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rouge_plus import RougeScorer, score
from rouge_plus.options import ScoreOptions
from rouge_plus.plan import resolve_language, signature_of, text_pipeline
from rouge_plus.text import evidence, segmenters
from rouge_plus.text.evidence import non_english_evidence
from rouge_plus.text.languages import LANGUAGES

SEGMENTED = {"zh": "rjieba", "ja": "fugashi", "th": "pythainlp", "ko": "kiwipiepy",
             "lo": "laonlp", "km": "khmernltk"}  # fmt: skip


def pipeline(code: str | None, **options: object):
    return text_pipeline(ScoreOptions.from_kwargs(language=code, **options))


def units(code: str, text: str, **options: object) -> list[str]:
    """The tokens of ``text`` as compared: tokenized, then stemmed when stemming."""
    p = pipeline(code, **options)
    tokens = p.tokenizer(text)
    return [p.stem(t) for t in tokens] if p.stem else tokens


def rouge1(prediction: str, reference: str, code: str, **options: object) -> tuple:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = score([prediction], [reference], rouge_types=["rouge1"], language=code,
                       return_precision_recall=True, **options)  # fmt: skip
    return tuple(round(result[f"rouge1_{k}"], 6) for k in ("precision", "recall", "fmeasure"))


@pytest.fixture(params=sorted(SEGMENTED))
def segmented(request: pytest.FixtureRequest) -> str:
    pytest.importorskip(SEGMENTED[request.param], reason="pip install rouge-plus[languages]")
    return request.param


# Native pairs, their tokens as each segmenter/stemmer gives them (checked by hand), and
# ROUGE-1 (P, R, F).
# fmt: off
HAND_CHECKED = {
    "zh": ("我们明天去北京开会。", "我们今天在北京开会。", {},
           ["我们", "明天", "去", "北京", "开会"], ["我们", "今天", "在", "北京", "开会"],
           (0.6, 0.6, 0.6)),
    "ja": ("私は毎朝コーヒーを飲みます。", "私は毎晩お茶を飲みます。", {},
           ["私", "は", "毎朝", "コーヒー", "を", "飲み", "ます"],
           ["私", "は", "毎晩", "お", "茶", "を", "飲み", "ます"], (0.714286, 0.625, 0.666667)),
    "th": ("ฉันชอบกินข้าวผัด", "ฉันชอบกินก๋วยเตี๋ยว", {},
           ["ฉัน", "ชอบ", "กิน", "ข้าวผัด"], ["ฉัน", "ชอบ", "กิน", "ก๋วยเตี๋ยว"], (0.75, 0.75, 0.75)),
    "ko": ("나는 학교에 갑니다", "나는 회사에 갑니다", {},
           ["나", "는", "학교", "에", "가", "ᆸ니다"], ["나", "는", "회사", "에", "가", "ᆸ니다"],
           (0.833333, 0.833333, 0.833333)),
    "lo": ("ຂ້ອຍຮັກພາສາລາວ", "ຂ້ອຍຮຽນພາສາລາວ", {},
           ["ຂ້ອຍ", "ຮັກ", "ພາສາລາວ"], ["ຂ້ອຍ", "ຮຽນ", "ພາສາລາວ"], (0.666667, 0.666667, 0.666667)),
    "km": ("ខ្ញុំស្រឡាញ់ភាសាខ្មែរ", "ខ្ញុំរៀនភាសាខ្មែរ", {},
           ["ខ្ញុំ", "ស្រឡាញ់", "ភាសា", "ខ្មែរ"], ["ខ្ញុំ", "រៀន", "ភាសា", "ខ្មែរ"], (0.75, 0.75, 0.75)),
    "de": ("Die Kinder spielten im Garten", "Das Kind spielt im Garten", {"use_stemmer": True},
           ["die", "kind", "spielt", "im", "gart"], ["das", "kind", "spielt", "im", "gart"],
           (0.8, 0.8, 0.8)),
    "es": ("Los niños jugaban en el parque", "El niño juega en el parque", {"use_stemmer": True},
           ["los", "niñ", "jug", "en", "el", "parqu"], ["el", "niñ", "jueg", "en", "el", "parqu"],
           (0.666667, 0.666667, 0.666667)),
    "hi": ("लड़कियाँ स्कूल जाती हैं", "लड़की स्कूल जाती है", {"use_stemmer": True},
           ["लड़क", "स्कूल", "ज", "हैं"], ["लड़क", "स्कूल", "ज", "है"], (0.75, 0.75, 0.75)),
    "tr": ("Çocuklar parkta oynuyorlar", "Çocuk parkta oynuyor", {"use_stemmer": True},
           ["çocuk", "park", "oynuyor"], ["çocuk", "park", "oynuyor"], (1.0, 1.0, 1.0)),
    "ru": ("Дети играли в саду", "Ребёнок играет в саду", {"use_stemmer": True},
           ["дет", "игра", "в", "сад"], ["ребенок", "игра", "в", "сад"], (0.75, 0.75, 0.75)),
    "ar": ("ذهب الأولاد إلى المدرسة", "ذهب الولد إلى المدرسة", {"use_stemmer": True},
           ["ذهب", "اولاد", "إلى", "مدرس"], ["ذهب", "ولد", "إلى", "مدرس"], (0.75, 0.75, 0.75)),
}
# fmt: on


@pytest.mark.parametrize("code", sorted(HAND_CHECKED))
def test_hand_checked_pair(code: str) -> None:
    prediction, reference, options, pred_units, ref_units, expected = HAND_CHECKED[code]
    if code in SEGMENTED:
        pytest.importorskip(SEGMENTED[code])
    else:
        pytest.importorskip("Stemmer")
    assert units(code, prediction, **options) == pred_units
    assert units(code, reference, **options) == ref_units
    assert rouge1(prediction, reference, code, **options) == expected


@pytest.mark.parametrize("code", sorted(HAND_CHECKED))
def test_identity_scores_one(code: str) -> None:
    text = HAND_CHECKED[code][1]
    pytest.importorskip(SEGMENTED.get(code, "Stemmer"))
    result = score([text], [text], language=code, use_stemmer=code not in SEGMENTED)
    assert set(result.values()) == {1.0}


@pytest.mark.parametrize("code", sorted(HAND_CHECKED))
def test_decomposed_text_scores_as_composed(code: str) -> None:
    prediction, reference, options, *_ = HAND_CHECKED[code]
    pytest.importorskip(SEGMENTED.get(code, "Stemmer"))
    nfd = unicodedata.normalize("NFD", prediction)
    assert rouge1(nfd, reference, code, **options) == rouge1(prediction, reference, code, **options)
    assert units(code, nfd, **options) == units(code, prediction, **options)


# Two sentences without line breaks (Thai, which has no sentence mark, with one), split by the
# rules and each language's marks: ROUGE-Lsum matches the sentences whatever their order.
# fmt: off
LSUM = {
    "zh": ("我们明天去北京开会。天气很好。", "天气很好。我们今天在北京开会。", (0.75, 0.375, 0.75)),
    "ja": ("私は毎朝コーヒーを飲みます。明日は雨です。", "明日は雨です。私は毎晩お茶を飲みます。",
           (18 / 23, 10 / 23, 18 / 23)),
    "th": ("ฉันชอบกินข้าวผัด\nวันนี้อากาศดีมาก", "วันนี้อากาศดีมาก\nฉันชอบกินก๋วยเตี๋ยว", (6 / 7, 3 / 7, 6 / 7)),
    "hi": ("लड़की स्कूल जाती है। आज बारिश हुई।", "आज बारिश हुई। लड़की घर जाती है।", (6 / 7, 3 / 7, 6 / 7)),
}
# fmt: on


@pytest.mark.parametrize("code", sorted(LSUM))
def test_rouge_lsum_on_several_sentences(code: str) -> None:
    pytest.importorskip(SEGMENTED.get(code, "regex"))
    prediction, reference, expected = LSUM[code]
    types = ["rouge1", "rougeL", "rougeLsum"]
    result = score([prediction], [reference], rouge_types=types, language=code,
                   split_sentences="rules")  # fmt: skip
    assert tuple(result[t] for t in types) == pytest.approx(expected)


def test_sentence_by_sentence_tokens_are_the_whole_texts(segmented: str) -> None:
    p = pipeline(segmented, split_sentences="rules")
    text = "".join(pair[0] + pair[1] for code, pair in HAND_CHECKED.items() if code in SEGMENTED)
    text += " U21 café. 東京。"
    assert p.sentence_safe
    assert [t for s in p.split_sentences(text) for t in p.tokenizer(s)] == p.tokenizer(text)


def test_ascii_text_gets_the_default_tokens(segmented: str) -> None:
    text = "The U21 team won 3-1, didn't it?"
    assert pipeline(segmented).tokenizer(text) == pipeline(None).tokenizer(text)


def test_a_distinct_run_is_segmented_once(segmented: str) -> None:
    reference = HAND_CHECKED[segmented][1]
    segment = segmenters._cached_segmenter(segmented)
    segment.cache_clear()
    predictions = [HAND_CHECKED[segmented][0] + "。" * (i % 2) for i in range(50)]
    score(predictions, [reference] * 50, language=segmented)
    assert segment.cache_info().misses == 2  # one prediction run, one reference run


def test_threads_give_the_same_scores(segmented: str) -> None:
    prediction, reference, *_ = HAND_CHECKED[segmented]
    rows = [prediction[: len(prediction) - i % 3] for i in range(40)]
    one = score(rows, [reference] * 40, language=segmented, use_aggregator=False)
    two = score(rows, [reference] * 40, language=segmented, use_aggregator=False, num_proc=2)
    assert one == two


@pytest.mark.parametrize(
    ("code", "text", "sentences"),
    [
        ("my", "မြန်မာ။နိုင်ငံ", ["မြန်မာ။", "နိုင်ငံ"]),
        ("km", "ខ្ញុំ។ភាសា", ["ខ្ញុំ។", "ភាសា"]),
        ("el", "Τι κάνεις; Καλά.", ["Τι κάνεις;", "Καλά."]),
        ("hi", "यह है। वह है।", ["यह है।", "वह है।"]),
    ],
)
def test_rules_know_the_languages_sentence_marks(code: str, text: str, sentences: list) -> None:
    assert pipeline(code, split_sentences="rules").split_sentences(text) == sentences
    assert len(pipeline(None, split_sentences="rules").split_sentences(text)) == (
        2 if code == "hi" else 1
    )


def test_stopwords_of_the_language() -> None:
    pytest.importorskip("stopwordsiso")
    assert units("de", "der Hund und die Katze", remove_stopwords=True) == [
        "der",
        "hund",
        "und",
        "die",
        "katze",
    ]  # fmt: skip  (the tokenizer keeps them; the pipeline drops them)
    kept = pipeline("de", remove_stopwords=True).stopwords
    assert {"der", "und", "die"} <= kept and "hund" not in kept
    assert rouge1("der Hund", "die Katze und der Hund", "de", remove_stopwords=True) == (
        1.0, 0.5, 0.666667
    )  # fmt: skip
    assert (
        pipeline("en", remove_stopwords=True).stopwords
        == pipeline(None, remove_stopwords=True).stopwords
    )
    with pytest.raises(ValueError, match="no stopword list for language 'lo'"):
        ScoreOptions.from_kwargs(language="lo", remove_stopwords=True)


def test_english_keeps_rouge_scores_porter() -> None:
    assert units("en", "running generously", use_stemmer=True) == ["run", "gener"]
    assert units(None, "running generously", use_stemmer=True) == ["run", "gener"]


def test_no_language_is_exactly_todays_behaviour() -> None:
    options = ScoreOptions.from_kwargs(use_stemmer=True, split_sentences="rules")
    assert "lang:" not in signature_of(options)
    assert "stem:porter" in signature_of(options)
    p = text_pipeline(options)
    assert p.tokenizer("東京タワー U21") == ["東", "京", "タ", "ワ", "ー", "u21"]
    assert p.split_sentences("မြန်မာ။နိုင်ငံ") == ["မြန်မာ။နိုင်ငံ"]


def test_the_signature_names_language_segmenter_stemmer_and_versions() -> None:
    signature = RougeScorer(language="ja", use_stemmer=False).signature
    assert "lang:ja,seg:mecab-unidic(fugashi-" in signature and "unidic-lite-" in signature
    signature = RougeScorer(language="de", use_stemmer=True, remove_stopwords=True).signature
    assert "stem:snowball-german(PyStemmer-" in signature
    assert "stop:iso-de(stopwordsiso-" in signature and "lang:de" in signature
    # An explicit tokenizer wins over the language's segmenter.
    assert "seg:" not in RougeScorer(language="zh", tokenizer="char").signature


def test_an_unknown_language_lists_the_codes() -> None:
    with pytest.raises(ValueError, match="unknown language 'xx'.*de, el, en"):
        RougeScorer(language="xx")


def test_a_missing_segmenter_names_its_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "rjieba", None)  # makes `import rjieba` fail
    segmenters.segmenting_tokenizer.cache_clear()
    segmenters._cached_segmenter.cache_clear()
    try:
        with pytest.raises(ModuleNotFoundError, match=r"pip install \"\.\[zh\]\"") as error:
            score(["我们"], ["我们"], language="zh")
        assert "\n" not in str(error.value)
    finally:
        segmenters.segmenting_tokenizer.cache_clear()
        segmenters._cached_segmenter.cache_clear()


def test_a_language_without_a_stemmer_warns_once() -> None:
    with pytest.warns(UserWarning, match="no stemmer for language 'zh'") as caught:
        score(["我们"] * 3, ["我们"] * 3, language="zh", use_stemmer=True)
    assert len(caught) == 1


@pytest.mark.parametrize(
    ("texts", "suggestion"),
    [
        (["Die Regierung hat die neuen Maßnahmen und das Gesetz nicht angekündigt."], "'de'"),
        (["El gobierno anunció que las nuevas medidas de la ley no son para el país."], "'es'"),
        (["सरकार ने नई आर्थिक नीतियों की घोषणा की।"], "'hi'"),
        (["我们明天去北京开会。"], "'zh'"),
    ],
)
def test_stemming_text_that_is_not_english_warns(texts: list[str], suggestion: str) -> None:
    assert suggestion in non_english_evidence(texts)
    with pytest.warns(UserWarning, match="language=<ISO 639-1 code>") as caught:
        score(texts * 5, texts * 5, use_stemmer=True)
    assert len(caught) == 1


@given(st.text() | st.text(st.sampled_from("aZ1_ ’\u0130\u212a\u00bdß\u0660\u2160Ⓐé")))
def test_evidence_reads_the_words_of_any_text_lowercased(text: str) -> None:
    """The shortcut for texts whose word characters are ASCII finds the same words."""
    assert evidence._lowered_words(text) == [word.lower() for word in evidence._words(text)]


def test_english_text_does_not_warn() -> None:
    english = ["The government said on Monday that the new measures would not be delayed."]
    assert non_english_evidence(english) is None
    assert non_english_evidence(["Der Spiegel reported that the team won the final."]) is None
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        score(english, english, use_stemmer=True)
        score(["Die Häuser"], ["Die Häuser"], use_stemmer=True, language="de")


def test_every_language_resolves() -> None:
    for code, language in LANGUAGES.items():
        choice = resolve_language(ScoreOptions.from_kwargs(language=code, use_stemmer=True))
        assert choice.segmenter == language.segmenter
        assert (choice.stemmer is None) == (language.stemmer is None)


def test_one_pair_per_call_checks_the_language_of_its_first_pair() -> None:
    """The direct path of one pair per call warns on the first pair its plan scores, not on
    every call (the check costs more than scoring the pair); ASCII text, which that path takes."""
    text = "Die Regierung hat die neuen Gesetze nicht angekuendigt und das ist nicht gut."
    with pytest.warns(UserWarning, match="language=<ISO 639-1 code>") as caught:
        for _ in range(3):
            RougeScorer(["rouge1"], use_stemmer=True).score([text], [text])
    assert len(caught) == 1


def test_a_missing_extra_is_named_when_the_plan_is_built_not_deep_in_the_first_text(
    monkeypatch,
) -> None:
    """language='zh' without its extra once raised a 25-line traceback from inside the
    tokenizer; the plan checks the installed packages first, so the error comes from there."""
    import importlib.metadata
    import traceback

    from rouge_plus.errors import MissingExtraError

    real_version = importlib.metadata.version

    def without(*missing: str):
        def version(name: str) -> str:
            if name in missing:
                raise importlib.metadata.PackageNotFoundError(name)
            return real_version(name)

        return version

    cases = [
        ({"language": "zh"}, ("rjieba",), 'pip install ".[zh]"'),
        ({"language": "de", "use_stemmer": True}, ("PyStemmer",), 'pip install ".[stem]"'),
        ({"language": "de", "remove_stopwords": True}, ("stopwordsiso",), '".[stopwords]"'),
    ]
    for options, missing, hint in cases:
        monkeypatch.setattr(importlib.metadata, "version", without(*missing))
        with pytest.raises(MissingExtraError, match=re.escape(hint)) as caught:
            score(["你好 Welt"], ["你好 Welt"], **options)
        frames = [frame.name for frame in traceback.extract_tb(caught.value.__traceback__)]
        assert "_require_extras" in frames and len(frames) <= 10, frames
