"""The two Porter stemmers, compiled and in Python, against their oracles.

NLTK's ``PorterStemmer()`` (the oracle of rouge_score's stemming, a test dependency only) against
``text/porter.py`` and the compiled ``porter_stem``; ROUGE-1.5.5's ``porter_original.py`` against
the compiled ``porter_original``. Words: every lemma of the bundled WordNet data, every word of
the exception lists, every word of the bench corpus, and generated words of any script (the
stemmers receive the lowercased tokens of any tokenizer).
"""

from __future__ import annotations

import gzip
import json
import re
from functools import cache
from importlib import resources

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rouge_plus.rouge155 import porter_original
from rouge_plus.text import porter

porter_stemmer = pytest.importorskip("nltk.stem.porter", reason="NLTK is the oracle").PorterStemmer
compiled = pytest.importorskip("rouge_plus.text._stemmers", reason="the C extension is not built")
NLTK = porter_stemmer()


@cache
def wordnet_words() -> list[str]:
    data = resources.files("rouge_plus.data")
    with gzip.open(data.joinpath("wordnet30_synonyms.json.gz").open("rb"), "rt") as handle:
        document = json.load(handle)
    words = set()
    for columns in document["lemmas"].values():
        words.update(columns["words"].split("\n"))
    for forms in document["exceptions"].values():
        for inflected, bases in forms.items():
            words.add(inflected)
            words.update(bases)
    for line in data.joinpath("wordnet3_exceptions.tsv").read_text("utf-8").splitlines():
        if line and not line.startswith("#"):
            words.update(line.split("\t"))
    return sorted(words)


def bench_words(rows: list[dict]) -> list[str]:
    words = set()
    for row in rows:
        for text in [row["prediction"], *row["references"]]:
            words.update(re.findall(r"[a-z0-9]+", text.lower()))
            words.update(token.lower() for token in text.split())
    return sorted(words)


def _nltk_mismatches(words: list[str]) -> list[tuple[str, str, str, str]]:
    return [
        (word, NLTK.stem(word), porter.porter_stem(word), compiled.porter_stem(word))
        for word in words
        if not NLTK.stem(word) == porter.porter_stem(word) == compiled.porter_stem(word)
    ]


def _original_mismatches(words: list[str]) -> list[tuple[str, str, str | None]]:
    out = []
    for word in words:
        ours = compiled.porter_original(word)
        if ours is None:  # only for a word with a newline, which the Python code stems
            assert "\n" in word
        elif ours != porter_original.stem(word):
            out.append((word, porter_original.stem(word), ours))
    return out


def test_porter_equals_nltk_on_the_wordnet_vocabulary():
    words = wordnet_words()
    assert len(words) > 80_000
    assert _nltk_mismatches(words) == []


def test_porter_equals_nltk_on_the_bench_corpus(bench_rows):
    assert _nltk_mismatches(bench_words(bench_rows)) == []


def test_rouge155_porter_equals_python_on_wordnet_and_bench(bench_rows):
    assert _original_mismatches(wordnet_words() + bench_words(bench_rows)) == []


# Letters the rules look at, so that generated words reach every rule and its corner cases
# (NLTK's "*d" entry included), plus letters of other scripts, capitals, and the two
# characters whose lowercase changes length or is ASCII.
_RULE_LETTERS = "aeiouyyysstldzbcgmnprwx*İKÉßΣ\u0301"
rule_words = st.text(st.sampled_from(_RULE_LETTERS), max_size=14)
SUFFIXES = [
    "s", "ies", "ied", "eed", "ed", "ing", "ational", "tional", "enci", "anci", "izer", "bli",
    "alli", "entli", "eli", "ousli", "ization", "ation", "ator", "alism", "iveness", "fulness",
    "ousness", "aliti", "iviti", "biliti", "fulli", "logi", "icate", "ative", "alize", "iciti",
    "ical", "ful", "ness", "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement",
    "ment", "ent", "sion", "tion", "ou", "ism", "ate", "iti", "ous", "ive", "ize", "e", "ll", "y",
    "*d",
]  # fmt: skip
suffixed_words = st.builds(
    lambda stem, suffix: stem + suffix,
    st.text(st.sampled_from("bcdlmnprstvyaeiou"), min_size=1, max_size=8),
    st.sampled_from(SUFFIXES),
)
any_words = st.text(max_size=20)


@settings(max_examples=3000, deadline=None)
@given(st.one_of(rule_words, suffixed_words, any_words))
def test_porter_equals_nltk_on_generated_words(word):
    assert NLTK.stem(word) == porter.porter_stem(word) == compiled.porter_stem(word)


@pytest.mark.slow
@settings(max_examples=3000, deadline=None)
@given(st.one_of(rule_words, suffixed_words, any_words, st.text(st.sampled_from("ya\nse"))))
def test_rouge155_porter_equals_python_on_generated_words(word):
    assert _original_mismatches([word]) == []


def test_long_words_are_stemmed_in_linear_time():
    word = "y" * 200_000 + "ing"
    assert compiled.porter_stem(word) == porter.porter_stem(word) == NLTK.stem(word)
    assert compiled.porter_original("ab" * 100_000 + "ations") == porter_original.stem(
        "ab" * 100_000 + "ations"
    )


def test_number_stems_numbers_in_order_of_first_appearance():
    from array import array

    table, count = compiled.number_stems(["b", "a", "b", "c", "a"])
    assert array("i", bytes(table)).tolist() == [0, 1, 0, 2, 1] and count == 3
    assert compiled.number_stems([]) == (bytearray(), 0)
    with pytest.raises(TypeError):
        compiled.number_stems(("a",))


def test_remap_ids_gathers_and_checks_bounds():
    from array import array

    table = array("i", [5, 6, 7])
    assert array("i", bytes(compiled.remap_ids(array("i", [2, 0, 1, 2]), table))) == array(
        "i", [7, 5, 6, 7]
    )
    with pytest.raises(IndexError):
        compiled.remap_ids(array("i", [3]), table)
    with pytest.raises(ValueError):
        compiled.remap_ids(b"abc", table)
