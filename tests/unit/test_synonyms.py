"""Synonym sources: bundled WordNet 3.0, its wider ROUGE 2.0 relation, user dictionaries."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rouge_plus import score
from rouge_plus.rouge2 import synonyms
from rouge_plus.rouge2.synonyms import (
    CallableSynonyms,
    SynonymDataError,
    Synonyms,
    load_synonyms,
    parse_synonym_file,
)
from rouge_plus.text.stopwords import builtin_english_stopwords

WORDNET = load_synonyms("wordnet")
RELATED = load_synonyms("wordnet+related")
VOCABULARY = sorted(WORDNET.vocabulary())
SUFFIXES = ("", "s", "es", "ed", "ing", "er", "est")


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("car", "automobile"),
        ("fast", "quick"),
        ("bought", "purchased"),  # verb exception list, then -ed detachment
        ("big", "large"),
        ("cars", "automobiles"),  # noun -s detachment on both sides
        ("houses", "house"),
        ("mice", "mouse"),  # noun exception list
        ("went", "go"),
        ("better", "good"),  # adjective exception list
        ("Car", "AUTOMOBILE"),  # WordNet lookups ignore case
    ],
)
def test_wordnet_synonyms(a: str, b: str) -> None:
    assert WORDNET.match(a, b)
    assert WORDNET.match(b, a)


@pytest.mark.parametrize(
    ("a", "b"), [("car", "banana"), ("big", "small"), ("fast", "slow"), ("dog", "canine")]
)
def test_wordnet_non_synonyms(a: str, b: str) -> None:
    assert not WORDNET.match(a, b)


# Through WordNet's morphology, function words were synonyms: as ~ a (the noun "A", "As" for
# arsenic), was ~ is ~ been ~ follows (be), just ~ but (adverbs), has ~ have, I ~ one (issue 24).
@pytest.mark.parametrize(
    ("a", "b"),
    [("as", "a"), ("was", "is"), ("been", "was"), ("was", "follows"), ("just", "but"),
     ("has", "have"), ("i", "one"), ("has", "made")],
)  # fmt: skip
@pytest.mark.parametrize("source", [WORDNET, RELATED], ids=["wordnet", "wordnet+related"])
def test_closed_class_words_match_only_themselves(source: Synonyms, a: str, b: str) -> None:
    assert not source.match(a, b)
    assert not source.match(b.upper(), a)
    assert source.match(a, a)


@given(st.sampled_from(sorted(builtin_english_stopwords() - synonyms.OPEN_CLASS_STOPWORDS)))
def test_a_closed_class_word_has_no_synonym_keys(word: str) -> None:
    assert WORDNET.keys(word) == RELATED.keys(word.title()) == frozenset()


def test_open_class_words_of_the_stopword_list_keep_their_synonyms() -> None:
    assert builtin_english_stopwords() >= synonyms.OPEN_CLASS_STOPWORDS
    assert WORDNET.match("went", "go") and WORDNET.match("fire", "dismiss")


def test_a_closed_class_word_scores_as_itself() -> None:
    # "was" no longer takes "is": 2 of 3 unigrams match, as without synonyms.
    result = score(["it was red"], ["it is red"], rouge_types=["rouge1+synonyms", "rouge1"])
    assert result["rouge1+synonyms"] == result["rouge1"] == pytest.approx(2 / 3)


def test_base_forms_follow_wordnet_morphy() -> None:
    assert WORDNET.base_forms("bought") == {"v": frozenset({"buy"})}
    assert WORDNET.base_forms("houses") == {"n": frozenset({"house"}), "v": frozenset({"house"})}
    # adj.exc maps "owner" to itself: an exception entry stops the -er rule ("own").
    assert "a" not in WORDNET.base_forms("owner")
    assert WORDNET.base_forms("qwxzv") == {}


@pytest.mark.parametrize(
    ("a", "b", "relation"),
    [
        ("dog", "canine", "noun hypernym"),
        ("house", "building", "noun hypernym"),
        ("walk", "stroll", "verb troponym"),
        ("wet", "damp", "adjective similar-to"),
        ("big", "huge", "adjective similar-to"),
    ],
)
def test_related_mode_adds_rouge2_relations(a: str, b: str, relation: str) -> None:
    assert not WORDNET.match(a, b), relation
    assert RELATED.match(a, b) and RELATED.match(b, a), relation


def test_related_mode_links_only_direct_neighbours() -> None:
    assert not RELATED.match("car", "vehicle")  # car -> motor vehicle -> ... -> vehicle
    assert not RELATED.match("big", "small")


def test_names_and_caching() -> None:
    assert WORDNET.name == "wordnet-3.0:content"
    assert RELATED.name == "wordnet-3.0+related:content"
    assert load_synonyms() is WORDNET
    assert load_synonyms(None) is WORDNET
    assert load_synonyms(WORDNET) is WORDNET
    assert isinstance(WORDNET, Synonyms)
    assert WORDNET.exact_keys and RELATED.exact_keys


inflected_words = st.builds(
    lambda word, suffix: word + suffix, st.sampled_from(VOCABULARY), st.sampled_from(SUFFIXES)
)


@settings(max_examples=300, deadline=None)
@given(a=inflected_words, b=inflected_words, source=st.sampled_from([WORDNET, RELATED]))
def test_relation_is_reflexive_symmetric_and_keyed(a: str, b: str, source: Synonyms) -> None:
    assert source.match(a, a)
    assert source.match(a, b) == source.match(b, a)
    assert source.match(a, b) == (a == b or bool(source.keys(a) & source.keys(b)))


@settings(max_examples=100, deadline=None)
@given(word=st.sampled_from(VOCABULARY))
def test_related_mode_only_widens(word: str) -> None:
    assert WORDNET.keys(word) <= RELATED.keys(word)


def test_mapping_source() -> None:
    source = load_synonyms({"phone": ["telephone", "mobile"], "screen": "display"})
    assert source.match("mobile", "phone") and source.match("display", "screen")
    # groups are not merged: two synonyms of "phone" are synonyms of each other only
    # because they sit in the same group
    assert source.match("telephone", "mobile")
    assert not source.match("phone", "display")
    assert source.name.startswith("mapping:")
    same = load_synonyms({"screen": ["display"], "phone": ["telephone", "mobile"]})
    assert same.name == source.name
    assert load_synonyms({"phone": ["cellphone"]}).name != source.name


def test_groups_are_not_transitive() -> None:
    source = load_synonyms({"a": ["b"], "b": ["c"]})
    assert source.match("a", "b") and source.match("b", "c")
    assert not source.match("a", "c")


VIETNAMESE_FILE = """\
# Từ đồng nghĩa tiếng Việt: one group per line
xe hơi, ô tô, xe_con
đẹp\txinh\t xinh đẹp
điện thoại, dế

  # indented comment
to, lớn, bự
"""


def test_vietnamese_synonym_file(tmp_path) -> None:
    path = tmp_path / "dong_nghia.txt"
    path.write_text(VIETNAMESE_FILE, encoding="utf-8")
    source = load_synonyms(path)
    assert source.match("đẹp", "xinh") and source.match("xinh_đẹp", "đẹp")
    assert source.match("lớn", "bự") and source.match("điện_thoại", "dế")
    # multi-word entries are stored with underscores, as word segmenters write them
    assert source.match("xe_hơi", "ô_tô") and source.match("ô_tô", "xe_con")
    assert not source.match("xe", "ô")
    assert not source.match("đẹp", "lớn")
    assert source.name.startswith("file:")
    assert load_synonyms(str(path)).name == source.name


def test_synonym_file_is_lowercased_and_deduplicated() -> None:
    assert parse_synonym_file("Car, AUTOMOBILE, car\n") == [["car", "automobile"]]


def test_callable_source_is_symmetric() -> None:
    def brand_names(word: str) -> list[str]:
        return {"iphone": ["phone"], "kleenex": ["tissue"]}.get(word, [])

    source = load_synonyms(brand_names)
    assert isinstance(source, CallableSynonyms)
    assert source.match("iphone", "phone") and source.match("phone", "iphone")
    assert source.match("phone", "phone")
    assert not source.match("phone", "tissue")
    assert not source.exact_keys
    assert source.keys("iphone") & source.keys("phone")  # keys are a sound pre-filter
    assert source.name.startswith("callable:") and source.name.endswith("brand_names")


def test_missing_file(tmp_path) -> None:
    with pytest.raises(FileNotFoundError, match="synonym file"):
        load_synonyms(tmp_path / "absent.txt")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"car automobile\n", "line 1"),  # spaces do not separate words
        (b"car, automobile\nlonely\n", "line 2"),
        (b"# only a comment\n\n", "no group"),
        ("xe hơi, ô tô".encode("utf-16"), "not UTF-8"),
    ],
)
def test_malformed_file(tmp_path, content: bytes, message: str) -> None:
    path = tmp_path / "synonyms.txt"
    path.write_bytes(content)
    with pytest.raises(SynonymDataError, match=message):
        load_synonyms(path)


def test_unusable_spec() -> None:
    with pytest.raises(TypeError, match="synonym source"):
        load_synonyms(42)


def test_nltk_source_works_or_says_what_to_install() -> None:
    nltk = pytest.importorskip("nltk")
    try:
        nltk.data.find("corpora/wordnet")
    except LookupError:
        with pytest.raises(SynonymDataError, match="nltk.downloader wordnet"):
            synonyms.NltkWordNetSynonyms()
        return
    source = synonyms.NltkWordNetSynonyms()
    assert source.name == "nltk-wordnet:content"
    assert source.match("cars", "automobiles") and not source.match("car", "banana")
