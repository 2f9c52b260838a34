"""The bundled Penn Treebank tagger, custom taggers and the ROUGE-Topic token filter."""

from __future__ import annotations

import gzip
import json
import re
from importlib import resources

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rouge_plus.rouge2 import pos
from rouge_plus.rouge2.pos import Tagger, load_tagger, topic_filter

TAGGER = load_tagger()


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        # the paper's reference summary: "lightweight" is a predicative adjective
        ("The phone is very lightweight .", "DT NN VBZ RB JJ ."),
        ("The display is also very bright and clear .", "DT NN VBZ RB RB JJ CC JJ ."),
        ("Screen is very clear .", "NN VBZ RB JJ ."),
        ("Bright screen .", "JJ NN ."),
        ("He bought two cars in 2019 .", "PRP VBD CD NNS IN CD ."),
    ],
)
def test_hand_checked_sentences(sentence: str, expected: str) -> None:
    assert TAGGER(sentence.split()) == expected.split()


def test_brackets_and_quotes_get_penn_spellings() -> None:
    tokens = ["He", "said", '"', "fine", '"', "(", "twice", ")", "."]
    tags = TAGGER(tokens)
    assert tags[2] == "``" and tags[4] == "''"
    assert tags[5] == "-LRB-" and tags[7] == "-RRB-"
    assert tags[:2] == ["PRP", "VBD"]


def test_empty_input_and_name() -> None:
    assert TAGGER([]) == []
    assert TAGGER.name == pos.DEFAULT_TAGGER_NAME
    assert load_tagger() is load_tagger("en")  # read once per process


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(max_size=12), max_size=25))
def test_one_known_tag_per_token(tokens: list[str]) -> None:
    tags = TAGGER(tokens)
    assert len(tags) == len(tokens)
    assert set(tags) <= set(TAGGER._classes)


def _nltk_tagger_from_bundled_json():
    """NLTK's own PerceptronTagger filled from the shipped JSON (never from a pickle)."""
    perceptron = pytest.importorskip("nltk.tag.perceptron")
    resource = resources.files("rouge_plus") / "data" / pos.TAGGER_DATA_FILE
    document = json.loads(gzip.decompress(resource.read_bytes()))
    weights = {}
    for feature, line in zip(
        document["features"].split("\n"), document["weights"].split("\n"), strict=True
    ):
        fields = line.split(" ")
        weights[feature] = {fields[i]: float(fields[i + 1]) for i in range(0, len(fields), 2)}
    tagger = perceptron.PerceptronTagger(load=False)
    tagger.decode_json_params((weights, document["tagdict"], document["classes"]))
    return tagger


@pytest.mark.slow
def test_same_tags_as_nltk_perceptron_tagger(bench_rows: list[dict]) -> None:
    nltk_tagger = _nltk_tagger_from_bundled_json()
    token_pattern = re.compile(r"\w+(?:'\w+)?|[^\w\s]")
    compared = 0
    for row in bench_rows[:30]:
        for sentence in row["references"][0].split("\n"):
            tokens = pos._penn_spellings(token_pattern.findall(sentence))
            for variant in (tokens, [token.lower() for token in tokens]):
                assert TAGGER(variant) == [tag for _, tag in nltk_tagger.tag(variant)]
                compared += len(variant)
    assert compared > 1000


def test_topic_filter_prefixes() -> None:
    tags = ["NN", "NNS", "NNP", "NNPS", "JJ", "JJR", "JJS", "VB", "RB", "DT"]
    tokens = [f"w{i}" for i in range(len(tags))]
    assert topic_filter(tokens, tags) == [0, 1, 2, 3, 4, 5, 6]
    assert topic_filter(tokens, tags, "NN|JJ") == [0, 1, 2, 3, 4, 5, 6]
    assert topic_filter(tokens, tags, ("NN",)) == [0, 1, 2, 3]
    assert topic_filter(tokens, tags, ["JJS", "VB"]) == [6, 7]
    assert topic_filter([], []) == []


def test_topic_filter_on_paper_example() -> None:
    tokens = ["The", "display", "is", "also", "very", "bright", "and", "clear", "."]
    assert [tokens[i] for i in topic_filter(tokens, TAGGER(tokens))] == [
        "display",
        "bright",
        "clear",
    ]


@pytest.mark.parametrize("topic_pos", [(), "", ("NN", ""), "NN|"])
def test_topic_filter_rejects_empty_prefixes(topic_pos) -> None:
    with pytest.raises(ValueError, match="prefix"):
        topic_filter(["a"], ["NN"], topic_pos)


def test_topic_filter_needs_one_tag_per_token() -> None:
    with pytest.raises(ValueError, match="2 tokens but 1 tags"):
        topic_filter(["a", "b"], ["NN"])


def test_callable_taggers() -> None:
    def all_nouns(tokens: list[str]) -> list[str]:
        return ["NN"] * len(tokens)

    tagger = load_tagger(all_nouns)
    assert tagger(["a", "b"]) == ["NN", "NN"]
    assert tagger.name.startswith("callable:") and tagger.name.endswith("all_nouns")
    assert load_tagger(tagger) is tagger

    class NamedTagger:
        name = "my-tagger-1.0"

        def __call__(self, tokens: list[str]) -> list[str]:
            return ["X"] * len(tokens)

    assert load_tagger(NamedTagger()).name == "my-tagger-1.0"


def test_tagger_returning_wrong_length_is_an_error() -> None:
    tagger = Tagger(lambda tokens: ["NN"], "broken")
    with pytest.raises(ValueError, match="returned 1 tags for 2 tokens"):
        tagger(["a", "b"])


def test_unusable_spec() -> None:
    with pytest.raises(TypeError, match="POS tagger"):
        load_tagger("fr")
