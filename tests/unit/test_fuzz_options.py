"""Every option against hostile text, with the compiled kernels and with their pure-Python twins:
each call gives floats in [0, 1] (the same with both backends) or a clear ValueError/TypeError.

Options: every tokenizer (and a user's returning ints), stemming, stopword lists, both
profiles, every multi-reference mode, sentence splitters, length limits, F weights, aggregation,
and every family of ROUGE types with edge parameters. Texts: NUL, lone surrogates, bidirectional
and zero-width marks, U+0085, U+2028/2029, decomposed marks, emoji, and, on a fixed set of
options, 1 MB without a space and 100,000 newlines. Bounded: a fixed seed and a fixed number of
draws (well under a minute).
"""

from __future__ import annotations

import contextlib
import math
import random
import warnings
from collections.abc import Iterator
from unittest import mock

import pytest

from rouge_plus import RougeScorer
from rouge_plus.kernels import native
from rouge_plus.kernels.python import PythonVocabulary, count_pairs_python
from rouge_plus.plan import ScoringPlan
from rouge_plus.text import encoding
from rouge_plus.text.stopwords import smart_words_file

HOSTILE = [
    "", " \t ", "\x00", "a\x00b c\x00", "\ud800", "a\udfffb \ud800c d", "\u202eabc\u202c def",
    "\u200fשלום עולם\u200e ok", "a\u200bb\u200cc\u200dd\ufeffe", "a\u0085b\u0085",
    "a\u2028b\u2029c", "\r\n\r", "e\u0301\u0301\u0301 cafe\u0301", "İK \u2adc \u212a",
    "🎉👍🏽 ok", "猫が\u3000好きです。", "The cat sat on the mat.\nThe dog ran.",
    "big large great big", "a " * 40 + "\n" * 30 + "b",
]  # fmt: skip
TYPES = [
    "rouge1", "rouge9", "rougeL", "rougeLsum", "rougeW-0.01", "rougeW-10", "rougeS0", "rougeS*",
    "rougeSU0", "rougeSU*", "rougeS1000", "rouge1+synonyms", "rouge9+synonyms", "rougeTopic",
    "rougeTopicUniq", "rougeTopic+synonyms", "rougeTopicUniq+synonyms",
]  # fmt: skip
TOKENIZERS = ["default", "rouge_score", "rouge155", "whitespace", "char", "ints"]
STOPWORDS = [None, True, ["a", "\x00", "the"]] + (["smart"] if smart_words_file() else [])
DRAWS = 150


def word_lengths(text: str) -> list[int]:
    """A user's tokenizer with int tokens."""
    return [len(word) for word in text.split()]


def draw_options(rng: random.Random) -> dict:
    tokenizer = rng.choice(TOKENIZERS)
    options = {
        "rouge_types": rng.sample(TYPES, rng.randint(1, 4)),
        "tokenizer": word_lengths if tokenizer == "ints" else tokenizer,
        "use_stemmer": rng.random() < 0.5,
        "remove_stopwords": rng.choice(STOPWORDS),
        "profile": rng.choice(["default", "rouge155"]),
        "multi_ref": rng.choice(["best", "pooled", "mean", "best_recall", "jackknife"]),
        "split_sentences": rng.choice(["newline", "rules", "none"]),
        "use_aggregator": rng.random() < 0.7,
        "return_precision_recall": True,
    }
    limit = rng.choice(
        [None, ("max_words", 1), ("max_words", 3), ("max_bytes", 1), ("max_bytes", 7)]
    )
    if limit:
        options[limit[0]] = limit[1]
    weight = rng.choice([None, ("beta", 0.01), ("beta", 100.0), ("alpha", 0.0), ("alpha", 1.0)])
    if weight:
        options[weight[0]] = weight[1]
    if rng.random() < 0.2:
        options.update(aggregation="bootstrap", n_resamples=20, confidence_level=0.5)
    return options


@contextlib.contextmanager
def pure_python() -> Iterator[None]:
    """The switch ROUGE_PLUS_PURE_PYTHON=1 makes at import time, in-process (as in
    test_properties.py)."""
    with (
        mock.patch.object(encoding, "Vocabulary", PythonVocabulary),
        mock.patch.object(native, "count_pairs_packed", count_pairs_python),
        # One pair per call has a direct path of compiled code only.
        mock.patch.object(ScoringPlan, "score_pair", lambda *args: None),
    ):
        yield


def outcome(options: dict, predictions: list[str], references: list) -> dict | str:
    """The result, or the class and message of a ValueError/TypeError (anything else fails)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return RougeScorer(**options).score(predictions, references)
    except (ValueError, TypeError) as error:
        message = str(error)
        assert message.strip(), f"{type(error).__name__} without a message for {options}"
        return f"{type(error).__name__}: {message}"


def check_values(result: dict | str, options: dict) -> None:
    if isinstance(result, str):
        return
    for key, value in result.items():
        values = value if isinstance(value, list) else [value]
        for number in values:
            assert type(number) is float, (key, number, options)
            assert math.isfinite(number) and 0.0 <= number <= 1.0, (key, number, options)


def both_backends(options: dict, predictions: list[str], references: list) -> None:
    compiled = outcome(options, predictions, references)
    check_values(compiled, options)
    if native.NATIVE:
        with pure_python():
            pure = outcome(options, predictions, references)
        assert pure == compiled, (options, predictions, references)


@pytest.mark.parametrize("part", range(3))
def test_random_options_on_hostile_text(part: int) -> None:
    rng = random.Random(part)
    for _ in range(DRAWS // 3):
        options = draw_options(rng)
        rows = rng.randint(1, 3)
        predictions = [rng.choice(HOSTILE) for _ in range(rows)]
        references = [rng.sample(HOSTILE, rng.randint(1, 3)) for _ in range(rows)]
        both_backends(options, predictions, references)


LINEAR = ["rouge1", "rouge9", "rougeS4", "rougeSU0", "rouge1+synonyms"]


@pytest.mark.parametrize("tokenizer", TOKENIZERS)
@pytest.mark.parametrize("text", ["x" * 1_000_000, "\n" * 100_000], ids=["1MB", "newlines"])
def test_every_tokenizer_on_a_megabyte_without_spaces_and_on_newlines(text, tokenizer) -> None:
    """Every family on these texts against short ones, except where "char" makes a million
    tokens of the megabyte: there the linear families run on both backends and ROUGE-L/Lsum on
    the compiled one only (the pure-Python LCS takes seconds on a million tokens, the quadratic
    ROUGE-S*/SU* and the tagger far longer)."""
    millions = tokenizer == "char" and len(text) == 1_000_000
    types = LINEAR if millions else [t for t in TYPES if tokenizer != "ints" or "Topic" not in t]
    rows = ([text, "a b"], [["a b c", "\x00"], [text, "b"]])
    for chosen in (types[: len(types) // 2], types[len(types) // 2 :]):
        options = {
            "rouge_types": chosen,
            "tokenizer": word_lengths if tokenizer == "ints" else tokenizer,
            "return_precision_recall": True,
            "use_stemmer": True,
        }
        both_backends(options, *rows)
        both_backends({**options, "profile": "rouge155", "max_bytes": 665}, [text], [text])
    if millions:
        lcs = {"rouge_types": ["rougeL", "rougeLsum"], "tokenizer": "char"}
        check_values(outcome(lcs, *rows), lcs)
