"""``strip_reasoning``: reasoning traces removed from the predictions before scoring, by the
documented rules (rouge_plus/text/reasoning.py), recorded in the signature, off by default."""

from __future__ import annotations

import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rouge_plus.scorer
from rouge_plus import RougeScorer, score
from rouge_plus.errors import OptionError, OptionTypeError
from rouge_plus.options import ScoreOptions
from rouge_plus.plan import signature_of
from rouge_plus.text.reasoning import REASONING_TAGS, strip_tagged_traces


def strip(text: str) -> str:
    return strip_tagged_traces(text)[0]


def test_the_acceptance_example():
    result = score(["<think>x y z</think>a dog sat"], ["a dog sat"], strip_reasoning=True)
    assert result["rouge1"] == 1.0
    assert score(["<think>x y z</think>a dog sat"], ["a dog sat"])["rouge1"] == pytest.approx(
        6 / 11
    )
    signature = RougeScorer(strip_reasoning=True).signature
    assert "|strip:tags|" in signature


def test_the_default_signature_does_not_change():
    plain = signature_of(ScoreOptions.from_kwargs())
    assert "strip" not in plain
    assert signature_of(ScoreOptions.from_kwargs(strip_reasoning=False)) == plain
    pattern = signature_of(ScoreOptions.from_kwargs(strip_reasoning=r"<x>.*?</x>"))
    assert "|strip:pattern:" in pattern and "<x>" not in pattern


@pytest.mark.parametrize(
    ("text", "answer"),
    [
        ("<think>\nlet me see\n</think>\n\nParis", "Paris"),
        ("<THINK>a</Think> Paris", "Paris"),
        ("<thinking>a</thinking>Paris<reasoning>b</reasoning> is it", "Paris is it"),
        ("<reflection>r</reflection><thought>t</thought>Paris", "Paris"),
        # Qwen3's template opens the trace in the prompt: the output starts inside it.
        ("okay, the capital...\n</think>\n\nParis", "Paris"),
        ("<think>a</think>b</think>Paris", "Paris"),
        # The first closing tag of the same name ends a block; other tags inside are trace.
        ("<think>a <reasoning> b</think>Paris", "Paris"),
        ("Paris <b>bold</b> 1 < 2", "Paris <b>bold</b> 1 < 2"),  # no trace: unchanged
    ],
)
def test_the_tags_reasoning_models_write(text, answer):
    assert strip(text) == answer


def test_an_unclosed_trace_removes_the_rest_and_warns_once_per_call():
    predictions = ["<think>still thinking about the cat", "Paris <think>hmm", "a cat"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = score(predictions, ["a cat"] * 3, rouge_types=["rouge1"], use_aggregator=False,
                       strip_reasoning=True)  # fmt: skip
    assert result["rouge1"] == [0.0, 0.0, 1.0]
    messages = [str(w.message) for w in caught if "strip_reasoning" in str(w.message)]
    assert messages == [
        "strip_reasoning: 2 prediction(s) open a reasoning trace they never close; everything "
        "from the opening tag on was removed (the answer never came)"
    ]
    assert strip("Paris <think>hmm") == "Paris"


def test_references_are_not_stripped():
    result = score(["a dog"], ["<think>a dog</think>"], rouge_types=["rouge1"],
                   strip_reasoning=True, return_precision_recall=True)  # fmt: skip
    assert result["rouge1_precision"] == 1.0 and result["rouge1_recall"] == 0.5


def test_a_pattern_of_ones_own_removes_its_matches():
    pattern = r"(?s)\[scratchpad\].*?\[/scratchpad\]"
    prediction = "[scratchpad]x y[/scratchpad] a dog sat"
    assert score([prediction], ["a dog sat"], strip_reasoning=pattern)["rouge1"] == 1.0
    # The built-in tags are not removed by a pattern that does not name them.
    assert score(["<think>x</think>a"], ["a"], strip_reasoning="zzz")["rouge1"] < 1.0


@pytest.mark.parametrize(
    ("value", "error", "message"),
    [
        ("(", OptionError, r"strip_reasoning: '\(' is not a regular expression"),
        ("", OptionError, "strip_reasoning: the pattern is empty"),
        (1, OptionTypeError, "strip_reasoning must be True, False or a regular expression"),
    ],
)
def test_bad_values_are_named(value, error, message):
    with pytest.raises(error, match=message):
        score(["a"], ["a"], strip_reasoning=value)


def test_one_pair_per_call_strips_as_the_rows_path():
    scorer = RougeScorer(["rouge1", "rougeL"], strip_reasoning=True)
    prediction, reference = "<think>no cat</think>the cat sat", "the cat sat down"
    rows_path = rouge_plus.scorer.score_examples([prediction], [reference], scorer.plan)
    assert scorer.score([prediction], [reference]) == rows_path.result()
    assert rows_path.result()["rouge1"] == pytest.approx(6 / 7)


# --- laws over all texts ----------------------------------------------------------------------

PIECES = [f"<{t}>" for t in REASONING_TAGS] + [f"</{t}>" for t in REASONING_TAGS]
PIECES += ["<THINK>", "</Thinking>", "<think >", "<", ">", "</", "think", " ", "\n", "a", "b c"]
with_tags = st.lists(st.sampled_from(PIECES), max_size=12).map("".join)
without_tags = st.text(st.characters(blacklist_categories=["Cs"]), max_size=40).filter(
    lambda text: (
        not any(f"<{t}" in text.lower() or f"</{t}" in text.lower() for t in REASONING_TAGS)
    )
)


@settings(max_examples=300, deadline=None)
@given(text=with_tags)
def test_stripping_is_idempotent(text):
    once = strip(text)
    assert strip(once) == once
    lowered = once.lower()
    assert not any(f"<{t}>" in lowered or f"</{t}>" in lowered for t in REASONING_TAGS)


@settings(max_examples=300, deadline=None)
@given(text=without_tags)
def test_text_without_traces_is_unchanged(text):
    assert strip(text) == text
    assert strip_tagged_traces(text) == (text, False)
