"""Hostile and unusual input: every case has a defined result or a clear error, in bounded time.

Each scoring call runs under a watchdog (``_bounded``): a worker thread that the test abandons,
failing, once its time limit passes, so no input can hang CI. The compiled kernels release the
GIL and pure-Python code yields it, so the watchdog always gets to run. The limits are about ten
times the times measured on a loaded 2-core machine (see docs/security.md, "Safe input sizes").
"""

from __future__ import annotations

import random
import re
import threading
import time
import unicodedata
import warnings
from collections.abc import Callable

import numpy as np
import pytest

from rouge_plus import RougeScorer, score

pytestmark = pytest.mark.filterwarnings("ignore:.*produced no tokens:UserWarning")

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
WORDS = [
    "the",
    "cat",
    "sat",
    "on",
    "a",
    "mat",
    "and",
    "dog",
    "ran",
    "far",
    "away",
    "with",
    "big",
    "red",
    "ball",
]


def _bounded(seconds: float, call: Callable[[], object]) -> object:
    """``call()``, failing the test if it takes longer than ``seconds``."""
    outcome: dict[str, object] = {}

    def run() -> None:
        try:
            outcome["value"] = call()
        except BaseException as error:  # handed to the test thread
            outcome["error"] = error

    worker = threading.Thread(target=run, daemon=True)
    start = time.perf_counter()
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        pytest.fail(f"still running after {seconds} s: the input is not handled in bounded time")
    elapsed = time.perf_counter() - start
    if "error" in outcome:
        raise outcome["error"]  # type: ignore[misc]
    outcome["elapsed"] = elapsed
    return outcome["value"]


def _words(n: int, seed: int = 0, sep: str = " ") -> str:
    rng = random.Random(seed)
    return sep.join(rng.choice(WORDS) for _ in range(n))


def _examples(predictions, references, **options) -> dict[str, np.ndarray]:
    return (
        RougeScorer(options.pop("rouge_types", TYPES), **options)
        .score_examples(predictions, references)
        .scores
    )


def _in_unit_interval(result: dict) -> None:
    for key, value in result.items():
        values = np.asarray(value, dtype=np.float64)
        assert np.all(np.isfinite(values)) and np.all((values >= 0) & (values <= 1)), key


# --- size ---------------------------------------------------------------------------------------


def test_one_megabyte_text_against_a_short_reference():
    text = _words(250_000)[:1_000_000]  # ~200,000 tokens (measured: 0.03 s)
    result = _bounded(30, lambda: score([text], ["the cat sat"], rouge_types=TYPES))
    _in_unit_interval(result)
    assert result["rouge1"] > 0
    reversed_roles = _bounded(30, lambda: score(["the cat sat"], [text], rouge_types=TYPES))
    assert reversed_roles["rouge1"] == result["rouge1"]


def test_one_megabyte_texts_on_both_sides_for_ngrams():
    """N-gram counting is linear: two 1 MB texts (measured: under 1 s)."""
    a, b = _words(250_000, seed=1)[:1_000_000], _words(250_000, seed=2)[:1_000_000]
    result = _bounded(60, lambda: score([a], [b], rouge_types=["rouge1", "rouge2", "rouge4"]))
    _in_unit_interval(result)
    assert result["rouge1"] > 0.99  # same 15-word vocabulary, same frequencies


def test_one_megabyte_of_short_lines_for_rouge_lsum():
    text = _words(200_000, seed=3, sep="\n")[:1_000_000]  # 200,000 one-word sentences
    result = _bounded(60, lambda: score([text], ["the cat\nsat on"], rouge_types=["rougeLsum"]))
    _in_unit_interval(result)
    assert result["rougeLsum"] > 0


def test_pair_of_100000_token_texts():
    """LCS is quadratic: 100,000 x 100,000 tokens (measured: about 3 s for all four types)."""
    a, b = _words(100_000, seed=4), _words(100_000, seed=5)
    result = _bounded(120, lambda: _examples([a], [b]))
    for name, values in result.items():
        assert np.all((values > 0.3) & (values <= 1)), (name, values)
    assert result["rougeL"][0, 0] <= result["rouge1"][0, 0]


@pytest.mark.parametrize("multi_ref", ["best", "pooled", "mean", "best_recall", "jackknife"])
def test_ten_thousand_references_for_one_prediction(multi_ref):
    references = [_words(30, seed=k) for k in range(10_000)] + ["the cat sat on a mat"]
    result = _bounded(
        60, lambda: _examples(["the cat sat on a mat"], [references], multi_ref=multi_ref)
    )
    _in_unit_interval(result)
    if multi_ref == "best":
        np.testing.assert_array_equal(result["rouge1"], [[1.0, 1.0, 1.0]])


# --- texts without words --------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, warns",
    [
        ("!!! ... ??? --- ;;; ,,,", True),  # only punctuation
        (" \t\n\r\n \u00a0\u3000\u2028 ", False),  # only whitespace: nothing to warn about
        ("😀🎉👍🏽🇫🇷👨‍👩‍👧", True),  # only emoji (with modifiers, flags, ZWJ sequences)
        ("\x00\x01\x07\x1b[;\x7f\x08", True),  # control characters and an escape sequence
        ("", False),
    ],
    ids=["punctuation", "whitespace", "emoji", "control", "empty"],
)
def test_texts_without_tokens_score_zero(text, warns):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = _bounded(10, lambda: _examples([text, "a cat"], ["a cat", text]))
    for name, values in result.items():
        np.testing.assert_array_equal(values, np.zeros((2, 3)), err_msg=name)
    assert len([w for w in caught if "produced no tokens" in str(w.message)]) == int(warns)


@pytest.mark.parametrize("tokenizer", ["default", "rouge_score"])
def test_lone_surrogates_are_separators_for_word_tokenizers(tokenizer):
    text = "the \ud800cat\udfff sat"
    result = _bounded(10, lambda: _examples([text], ["the cat sat"], tokenizer=tokenizer))
    for name, values in result.items():
        np.testing.assert_array_equal(values, [[1.0, 1.0, 1.0]], err_msg=name)


@pytest.mark.parametrize("tokenizer", ["whitespace", "char"])
def test_lone_surrogates_are_ordinary_characters_for_whitespace_and_char(tokenizer):
    text = "the \ud800cat\udfff sat"
    result = _bounded(10, lambda: _examples(["ok", text], ["x", text], tokenizer=tokenizer))
    for name, values in result.items():
        np.testing.assert_array_equal(values[1], [1.0, 1.0, 1.0], err_msg=name)


def test_nul_bytes_do_not_truncate_text():
    """A NUL is a separator; nothing after it is lost (no C-string truncation)."""
    result = _examples(["cat\x00dog\x00bird", "\x00dog"], ["cat dog bird", "dog"])
    np.testing.assert_array_equal(result["rouge1"], np.ones((2, 3)))
    np.testing.assert_array_equal(result["rouge2"], [[1.0, 1.0, 1.0], [0.0, 0.0, 0.0]])
    cut = _examples(["cat\x00dog"], ["cat"])["rouge1"]
    np.testing.assert_array_equal(cut, [[0.5, 1.0, 2 / 3]])


@pytest.mark.parametrize("suffix", ["", " é"], ids=["ascii", "non-ascii"])
@pytest.mark.parametrize(
    "separator, is_sentence_break",
    [("\n", True), ("\r\n", True), ("\r", False), ("\u2028", False), ("\u2029", False),
     ("\x85", False), ("\x0b", False)],
    ids=["LF", "CRLF", "CR", "LS", "PS", "NEL", "VT"],
)  # fmt: skip
def test_only_line_feed_breaks_sentences_for_rouge_lsum(separator, is_sentence_break, suffix):
    """The "newline" splitter is rouge_score's ``split("\\n")``, for ASCII and non-ASCII text
    alike; other line breaks are ordinary separators (use a callable splitter for them)."""
    prediction, reference = f"a b{separator}c d{suffix}", f"c d a b{suffix}"
    result = _examples([prediction], [reference], rouge_types=["rouge1", "rougeL", "rougeLsum"])
    np.testing.assert_array_equal(result["rouge1"], [[1.0, 1.0, 1.0]])
    expected_lsum = 1.0 if is_sentence_break else result["rougeL"][0, 0]
    assert result["rougeLsum"][0, 0] == expected_lsum
    assert result["rougeL"][0, 0] < 1.0


def test_combining_marks_and_normal_forms():
    nfc = "Café naïve Ångström résumé Việt"
    nfd = unicodedata.normalize("NFD", nfc)
    assert nfc != nfd
    for tokenizer in ("default", "char"):
        result = _examples([nfc], [nfd], tokenizer=tokenizer)
        for name, values in result.items():
            np.testing.assert_array_equal(values, [[1.0, 1.0, 1.0]], err_msg=(tokenizer, name))
    # rouge_score's rule keeps only ASCII letters: "é" vanishes but "e" + U+0301 keeps its "e".
    legacy = _examples(["café"], [unicodedata.normalize("NFD", "café")], tokenizer="rouge_score")
    np.testing.assert_array_equal(legacy["rouge1"], [[0.0, 0.0, 0.0]])
    # Stacked and unusual marks stay attached to their letter and never raise.
    zalgo = "t\u0336\u0301\u0320e\u0489s\u20dd\u0327t"
    np.testing.assert_array_equal(_examples([zalgo], [zalgo])["rouge1"], [[1.0, 1.0, 1.0]])


# --- container types and non-strings ------------------------------------------------------------


@pytest.mark.parametrize(
    "predictions, references, where",
    [
        (["a", 3], ["a", "b"], "predictions[1]"),
        (["a", "b"], ["a", 3.5], "references[1]"),
        (["a", "b"], [["a"], ["b", 7]], "references[1][1]"),
        (["a", None], ["a", "b"], "predictions[1]"),
        (["a", b"b"], ["a", "b"], "predictions[1]"),
        (np.array(["a", 1], dtype=object), ["a", "b"], "predictions[1]"),
    ],
    ids=["int", "float", "nested-int", "None", "bytes", "object-array"],
)
def test_non_strings_are_a_type_error_naming_the_row(predictions, references, where):
    with pytest.raises(TypeError, match=re.escape(where) + r"(?!\[)"):
        _examples(predictions, references)


def test_numbers_as_the_whole_argument_are_a_type_error():
    with pytest.raises(TypeError, match="predictions"):
        _examples(42, ["a"])
    with pytest.raises(TypeError, match="references"):
        _examples(["a"], 42)


EXPECTED_PREDICTIONS = ["the cat sat", "a dog ran far"]
EXPECTED_REFERENCES = [["the cat sat down"], ["a dog ran", "the dog ran far away"]]


@pytest.fixture(scope="module")
def expected():
    return _examples(EXPECTED_PREDICTIONS, EXPECTED_REFERENCES)


def _same(got: dict, want: dict) -> None:
    for name in want:
        np.testing.assert_array_equal(got[name], want[name], err_msg=name)


def test_numpy_string_arrays(expected):
    predictions = np.array(EXPECTED_PREDICTIONS)  # dtype <U13
    assert predictions.dtype.kind == "U"
    _same(_examples(predictions, [np.array(r) for r in EXPECTED_REFERENCES]), expected)
    _same(_examples(list(predictions), EXPECTED_REFERENCES), expected)  # np.str_ items
    square = np.array([["x y", "x"], ["y", "x y z"]])  # 2-D: one row of references per row
    by_list = _examples(["x y", "y z"], [["x y", "x"], ["y", "x y z"]])
    _same(_examples(np.array(["x y", "y z"]), square), by_list)


def test_pandas_series_with_any_index(expected):
    pd = pytest.importorskip("pandas")
    predictions = pd.Series(EXPECTED_PREDICTIONS, index=[10, 3])
    references = pd.Series(EXPECTED_REFERENCES, index=["b", "a"])
    _same(_examples(predictions, references), expected)
    with_missing = pd.Series(["the cat", None])
    with pytest.raises(TypeError, match=r"predictions\[1\]"):
        _examples(with_missing, ["a", "b"])


def test_generators(expected):
    predictions = (text for text in EXPECTED_PREDICTIONS)
    references = (refs for refs in EXPECTED_REFERENCES)
    _same(_examples(predictions, references), expected)
    result = score((p for p in ["a b"]), (r for r in ["a b"]), rouge_types=["rouge1"])
    assert result == {"rouge1": 1.0}


def test_datasets_columns_and_arrow_arrays(expected):
    datasets = pytest.importorskip("datasets")
    data = datasets.Dataset.from_dict(
        {"prediction": EXPECTED_PREDICTIONS, "references": EXPECTED_REFERENCES}
    )
    _same(_examples(data["prediction"], data["references"]), expected)
    _same(_examples(data.with_format("numpy")["prediction"], EXPECTED_REFERENCES), expected)
    column = data.data.column("prediction").combine_chunks()  # a pyarrow.Array
    _same(_examples(column, EXPECTED_REFERENCES), expected)


def test_pyarrow_chunked_arrays(expected):
    pa = pytest.importorskip("pyarrow")
    predictions = pa.chunked_array([EXPECTED_PREDICTIONS[:1], EXPECTED_PREDICTIONS[1:]])
    _same(_examples(predictions, pa.chunked_array([EXPECTED_REFERENCES])), expected)


def test_a_long_stream_of_small_rows():
    """50,000 rows through every chunk (measured: about 1 s)."""
    n = 50_000
    predictions = [_words(12, seed=k) for k in range(n)]
    references = [_words(12, seed=k + 1) for k in range(n)]
    result = _bounded(120, lambda: _examples(predictions, references))
    assert all(values.shape == (n, 3) for values in result.values())
    _in_unit_interval(result)
