"""The compiled parts of ROUGE 2.0 equal their pure-Python twins.

The part-of-speech tagger (``rouge2/_tagger*.c``: every sentence of the bench corpus, tokenized
several ways, and generated token lists of any script), its fused ASCII path (the tokens of a
text read in C), and the synonym matching of unigrams (``scoring/_synonyms.c``: every bench row
under three synonym sources, and generated texts over a small vocabulary with synonym groups).
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rouge_plus.scoring.synonym_counting as synonym_counting
from rouge_plus import RougeScorer
from rouge_plus._compiled import compiled
from rouge_plus.kernels.spec import ASCII_WORD
from rouge_plus.rouge2 import pos
from rouge_plus.rouge2.pos import load_tagger
from rouge_plus.text.tokenizers import get_tokenizer

# Every bench sentence and row, through both twins: minutes on 2 CPUs.
pytestmark = pytest.mark.slow

tagger_module = compiled("rouge2._tagger")
synonyms_module = compiled("scoring._synonyms")
TAGGER = load_tagger()
needs_tagger = pytest.mark.skipif(tagger_module is None, reason="the C extension is not built")
needs_synonyms = pytest.mark.skipif(synonyms_module is None, reason="the C extension is not built")
PREFIXES = ("NN", "JJ")


def _python_topic_words(sentences: list[list[str]], prefixes=PREFIXES) -> list[list[str]]:
    return pos.Tagger.topic_words(TAGGER, sentences, prefixes, True)


def _bench_sentences(rows: list[dict]) -> list[str]:
    texts = [text for row in rows for text in (row["prediction"], *row["references"])]
    return list(dict.fromkeys(s for text in texts for s in text.split("\n") if s))


@needs_tagger
def test_tagger_equals_python_on_every_bench_sentence(bench_rows):
    punctuated = re.compile(r"\w+(?:'\w+)?|[^\w\s]")
    tokenizations = [
        get_tokenizer("rouge_score", lowercase=False),
        get_tokenizer("default", lowercase=False),
        punctuated.findall,
        str.split,
    ]
    sentences = _bench_sentences(bench_rows)
    compared = 0
    for tokenize in tokenizations:
        token_lists = [tokenize(sentence) for sentence in sentences]
        tags = TAGGER._model.tag_many(token_lists)
        for tokens, ours in zip(token_lists, tags, strict=True):
            assert ours == TAGGER._tag(list(tokens)), tokens
            compared += len(tokens)
    assert compared > 900_000


@needs_tagger
@pytest.mark.parametrize("limit", [1, 7, 50])
def test_tagger_equals_python_when_its_word_cache_starts_over(bench_rows, limit):
    """The model caches look-ups by word, and by word and previous tag; when the word cache
    starts over (here every few words, often within a sentence), tags do not change."""
    sentences = _bench_sentences(bench_rows)[:300]
    cased = get_tokenizer("rouge_score", lowercase=False)
    token_lists = [cased(sentence) for sentence in sentences]
    fresh = pos.PerceptronTagger(TAGGER._document)  # a model of its own: an empty cache
    previous = tagger_module._set_word_cache_limit(limit)
    try:
        for _ in range(2):  # the second pass meets entries cached by the first
            tags = fresh._model.tag_many(token_lists)
            expected = [TAGGER._tag(list(tokens)) for tokens in token_lists]
            assert tags == expected
            assert fresh._model.ascii_topic_words(sentences, PREFIXES, True) == (
                _python_topic_words(token_lists)
            )
    finally:
        tagger_module._set_word_cache_limit(previous)


@needs_tagger
def test_fused_ascii_path_equals_python_on_every_bench_sentence(bench_rows):
    sentences = _bench_sentences(bench_rows)
    cased = get_tokenizer("rouge_score", lowercase=False)
    ascii_runs = [s for s in sentences if "\u0130" not in s and "\u212a" not in s]
    for prefixes in (PREFIXES, ("VB", "RB", "NNP")):
        expected = _python_topic_words([cased(s) for s in ascii_runs], prefixes)
        assert TAGGER._model.ascii_topic_words(ascii_runs, prefixes, True) == expected
        kept = TAGGER._model.ascii_topic_words(ascii_runs, prefixes, False)
        assert [[w.lower() for w in words] for words in kept] == expected


tokens = st.lists(
    st.one_of(
        st.sampled_from(['"', "(", ")", "[", "]", "{", "}", "\u201c", "\u201d", "\u2014", "--"]),
        st.sampled_from(["The", "cat", "sat", "1999", "3rd", "well-known", "-x", "Paris", "I"]),
        st.text(max_size=8),
    ),
    max_size=30,
)


@needs_tagger
@settings(max_examples=400, deadline=None)
@given(st.lists(tokens, max_size=4))
def test_tagger_equals_python_on_generated_tokens(sentences):
    assert TAGGER._model.tag_many(sentences) == [TAGGER._tag(list(s)) for s in sentences]
    assert TAGGER.topic_words(sentences, PREFIXES, True) == _python_topic_words(sentences)


texts = st.text(st.sampled_from("The cat sat 1999 on mats-x İK\u00e9 .,\"()\n"), max_size=80)


@needs_tagger
@settings(max_examples=400, deadline=None)
@given(st.lists(texts, max_size=5))
def test_fused_ascii_path_equals_python_on_generated_texts(sentences):
    runs = [ASCII_WORD.findall(sentence) for sentence in sentences]
    expected = _python_topic_words(runs)
    assert TAGGER._model.ascii_topic_words(sentences, PREFIXES, True) == expected
    joined = TAGGER._model.ascii_topic_words(sentences, PREFIXES, True, True)
    assert joined == [" ".join(words) for words in expected]


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=60), st.sampled_from(["default", "rouge_score", "rouge155"]))
def test_natively_read_texts_have_ascii_runs_as_cased_tokens(text, name):
    """What the fused path assumes: where the compiled tokenizer reads a text for a built-in
    tokenizer, the cased tokens are the text's runs of [A-Za-z0-9]."""
    native_when = get_tokenizer(name).native_when
    if native_when(text):
        assert get_tokenizer(name, lowercase=False)(text) == ASCII_WORD.findall(text)


def _pure_synonym_scores(scorer, predictions, references, monkeypatch):
    with monkeypatch.context() as patch:
        patch.setattr(synonym_counting, "_compiled_synonyms", lambda: None)
        return scorer.score_examples(predictions, references).scores


@needs_synonyms
@pytest.mark.parametrize(
    "options",
    [{}, {"use_stemmer": True}, {"synonyms": "wordnet+related"}, {"tokenizer": "rouge_score"}],
    ids=["wordnet", "stemmed", "related", "rouge_score"],
)
def test_synonym_matching_equals_python_on_the_bench(bench_rows, options, monkeypatch):
    predictions = [row["prediction"] for row in bench_rows]
    references = [row["references"][0] for row in bench_rows]
    scorer = RougeScorer(
        ["rouge1+synonyms", "rouge2+synonyms", "rougeTopicUniq+synonyms"], **options
    )
    ours = scorer.score_examples(predictions, references).scores
    python = _pure_synonym_scores(scorer, predictions, references, monkeypatch)
    for name, values in python.items():
        np.testing.assert_array_equal(ours[name], values)


GROUPS = {"car": ["auto", "automobile"], "big": ["large", "huge"], "auto": ["motor"]}
words = st.lists(
    st.sampled_from(["car", "auto", "automobile", "motor", "big", "large", "huge", "red", "a"]),
    max_size=25,
).map(" ".join)


@needs_synonyms
@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(words, words), min_size=1, max_size=6))
def test_synonym_matching_equals_python_on_generated_texts(pairs):
    predictions = [p for p, _ in pairs]
    references = [r for _, r in pairs]
    scorer = RougeScorer(["rouge1+synonyms", "rouge2+synonyms", "rouge3+synonyms"], synonyms=GROUPS)
    ours = scorer.score_examples(predictions, references).scores
    with pytest.MonkeyPatch.context() as patch:
        python = _pure_synonym_scores(scorer, predictions, references, patch)
    for name, values in python.items():
        np.testing.assert_array_equal(ours[name], values)


def _pairs_handed_back(monkeypatch) -> list[int]:
    """The pairs the compiled synonym matching hands back to the Python maximum matching, as
    the calls made under ``monkeypatch`` record them."""
    left_over: list[int] = []
    compiled_counts = synonym_counting._compiled_counts

    def spy(*arguments):
        counts, pairs, neighbours = compiled_counts(*arguments)
        left_over.extend(pairs)
        return counts, pairs, neighbours

    monkeypatch.setattr(synonym_counting, "_compiled_counts", spy)
    return left_over


@needs_synonyms
@pytest.mark.parametrize(
    ("rouge_type", "prediction", "reference", "expected"),
    [
        # "car" matches "car" and "auto", "auto" matches "car" and "motor": the greedy pass of
        # _synonyms.c (exact pairs first) cannot prove its matching maximum here and hands the
        # pair back; the maximum matching (car-car, auto-motor) is 2 of 3 tokens on each side.
        ("rouge1+synonyms", "car car auto", "car motor motor", 2 / 3),
        # The same between the bigrams "car z" (twice), "auto z" and "car z", "motor z" (twice),
        # with "z auto" matching "z motor" besides: 3 of 5 bigrams on each side.
        ("rouge2+synonyms", "car z car z auto z", "car z motor z motor z", 3 / 5),
    ],
)
def test_a_pair_the_greedy_matching_cannot_settle_gets_the_maximum_matching(
    rouge_type, prediction, reference, expected, monkeypatch
):
    left_over = _pairs_handed_back(monkeypatch)
    scorer = RougeScorer([rouge_type], synonyms=GROUPS, return_precision_recall=True)
    ours = scorer.score_examples([prediction], [reference]).per_example()
    assert left_over == [0]
    assert ours[f"{rouge_type}_precision"] == ours[f"{rouge_type}_recall"] == [expected]
    python = _pure_synonym_scores(scorer, [prediction], [reference], monkeypatch)
    np.testing.assert_array_equal(python[rouge_type][0], [expected] * 3)


@needs_synonyms
def test_bigrams_of_synonyms_are_settled_in_c(monkeypatch):
    """A pair whose bigrams match through synonyms at either position, or both, is settled by
    the compiled matching: nothing is handed back."""
    left_over = _pairs_handed_back(monkeypatch)
    scorer = RougeScorer(["rouge2+synonyms"], synonyms=GROUPS, return_precision_recall=True)
    ours = scorer.score_examples(["a big car red", "big car"], ["a large auto red", "huge motor"])
    assert left_over == []
    # a-big~a-large, big-car~large-auto, car-red~auto-red; big-car~huge-motor fails at "motor"
    np.testing.assert_array_equal(ours.scores["rouge2+synonyms"][:, 0], [1, 0])


@needs_synonyms
@settings(max_examples=300, deadline=None)
@given(st.lists(st.frozensets(st.integers(0, 12), max_size=4), max_size=30))
def test_neighbour_table_equals_python(keys):
    at, ids = synonyms_module.neighbour_table(keys)
    at, ids = np.frombuffer(at, dtype=np.int64), np.frombuffer(ids, dtype=np.int32)
    python = synonym_counting._neighbours(lambda a, b: True, dict(enumerate(keys)), True)
    for token in range(len(keys)):
        assert frozenset(ids[at[token] : at[token + 1]].tolist()) == python.get(token, frozenset())
        assert len(set(ids[at[token] : at[token + 1]].tolist())) == at[token + 1] - at[token]


def test_keys_many_equals_keys_word_by_word(bench_rows):
    from rouge_plus.rouge2.synonyms import load_synonyms

    words = sorted({w for row in bench_rows[:200] for w in row["prediction"].split()})
    for name in ("wordnet", "wordnet+related"):
        source = load_synonyms(name)
        assert source.keys_many(words) == [source.keys(word) for word in words]
