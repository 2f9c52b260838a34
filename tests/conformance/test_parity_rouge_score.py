"""Differential tests against the real rouge_score package on 3,500 real summaries.

Every precision, recall and F of every row must equal rouge_score's within 1e-9, with and without
stemming, with the legacy tokenizer and with the default Unicode tokenizer (given to rouge_score
as its tokenizer, so both sides see the same tokens), for one reference and for several.
"""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from rouge_plus import RougeScorer
from rouge_plus.text.stemming import porter_stem
from rouge_plus.text.tokenizers import get_tokenizer

rouge_scorer = pytest.importorskip("rouge_score.rouge_scorer")

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


class _AsRougeScoreTokenizer:
    """Our tokenizer (plus rouge_score's stemming rule) in rouge_score's tokenizer interface."""

    def __init__(self, name: str, use_stemmer: bool):
        self._tokenize = get_tokenizer(name)
        self._use_stemmer = use_stemmer

    def tokenize(self, text: str) -> list[str]:
        tokens = self._tokenize(text)
        return [porter_stem(t) for t in tokens] if self._use_stemmer else tokens


def _oracle(predictions, references, tokenizer: str, use_stemmer: bool) -> dict[str, np.ndarray]:
    custom = None if tokenizer == "rouge_score" else _AsRougeScoreTokenizer(tokenizer, use_stemmer)
    scorer = rouge_scorer.RougeScorer(TYPES, use_stemmer=use_stemmer, tokenizer=custom)
    return _rouge_score_scores(scorer, predictions, references)


def _rouge_score_scores(scorer, predictions, references) -> dict[str, np.ndarray]:
    pairs = zip(predictions, references, strict=True)
    rows = [scorer.score_multi(refs, pred) for pred, refs in pairs]
    return {
        t: np.array([[r[t].precision, r[t].recall, r[t].fmeasure] for r in rows]) for t in TYPES
    }


def _assert_same(ours: dict[str, np.ndarray], oracle: dict[str, np.ndarray]) -> None:
    for rouge_type in TYPES:
        diff = np.abs(ours[rouge_type] - oracle[rouge_type])
        worst = int(diff.max(axis=1).argmax())
        assert diff.max() <= 1e-9, (
            f"{rouge_type}: row {worst} differs: ours {ours[rouge_type][worst]}, "
            f"rouge_score {oracle[rouge_type][worst]}"
        )


@pytest.mark.slow
@pytest.mark.parametrize("use_stemmer", [False, True], ids=["nostem", "stem"])
@pytest.mark.parametrize("tokenizer", ["rouge_score", "default"])
def test_single_reference_bench(bench_rows, tokenizer, use_stemmer):
    predictions = [row["prediction"] for row in bench_rows]
    references = [row["references"] for row in bench_rows]
    ours = RougeScorer(TYPES, tokenizer=tokenizer, use_stemmer=use_stemmer).score_examples(
        predictions, references
    )
    assert len(ours) == 3500
    _assert_same(ours.scores, _oracle(predictions, references, tokenizer, use_stemmer))


def _multi_reference_rows(bench_rows: list[dict]) -> tuple[list[str], list[list[str]]]:
    """Eight system summaries per document, each against the human reference plus two other
    systems' summaries of the same document (``line`` is the document's index)."""
    by_document: dict[int, list[str]] = {}
    reference_of: dict[int, str] = {}
    for row in bench_rows:
        by_document.setdefault(row["line"], []).append(row["prediction"])
        reference_of.setdefault(row["line"], row["references"][0])
    predictions, references = [], []
    for document, summaries in by_document.items():
        reference = reference_of[document]
        for k, prediction in enumerate(summaries[:8]):
            others = [summaries[(k + step) % len(summaries)] for step in (1, 2)]
            predictions.append(prediction)
            references.append(others[: k % 3] + [reference] + others[k % 3 :])
    return predictions, references


@pytest.mark.slow
@pytest.mark.parametrize("use_stemmer", [False, True], ids=["nostem", "stem"])
@pytest.mark.parametrize("tokenizer", ["rouge_score", "default"])
def test_multi_reference_matches_score_multi(bench_rows, tokenizer, use_stemmer):
    predictions, references = _multi_reference_rows(bench_rows)
    assert len(predictions) == 800 and {len(r) for r in references} == {3}
    ours = RougeScorer(TYPES, tokenizer=tokenizer, use_stemmer=use_stemmer).score_examples(
        predictions, references
    )
    _assert_same(ours.scores, _oracle(predictions, references, tokenizer, use_stemmer))


def test_default_tokenizer_equals_rouge_score_on_ascii_rows(bench_rows):
    ascii_rows = [
        r for r in bench_rows if r["prediction"].isascii() and r["references"][0].isascii()
    ]
    assert len(ascii_rows) > 3000
    predictions = [r["prediction"] for r in ascii_rows]
    references = [r["references"] for r in ascii_rows]
    legacy = RougeScorer(TYPES, tokenizer="rouge_score").score_examples(predictions, references)
    default = RougeScorer(TYPES).score_examples(predictions, references)
    for rouge_type in TYPES:
        np.testing.assert_array_equal(legacy.scores[rouge_type], default.scores[rouge_type])


class _HashableTokens:
    """A user's tokenizer whose tokens are not str: a small int per word (so unrelated words
    collide), a (first letter, length) tuple, or a mix of str and int, which must stay apart."""

    def __init__(self, kind: str):
        self.kind = kind

    def tokenize(self, text: str) -> list:
        words = text.lower().split()
        if self.kind == "int":
            return [zlib.crc32(word.encode()) % 40 for word in words]
        if self.kind == "tuple":
            return [(word[0], len(word)) for word in words]
        return [len(word) if len(word) % 2 else word for word in words]

    __call__ = tokenize


@pytest.mark.parametrize("kind", ["int", "tuple", "mixed"])
def test_tokenizers_returning_hashable_non_str_tokens_score_as_rouge_score(kind):
    rng = np.random.default_rng(5)
    words = ["the", "a", "cat", "dog", "sat", "ran", "on", "mat", "big", "small", "42", "x"]

    def text() -> str:
        lines = [" ".join(rng.choice(words, rng.integers(0, 9))) for _ in range(rng.integers(1, 4))]
        return "\n".join(lines)

    predictions = [text() for _ in range(150)]
    references = [[text() for _ in range(rng.integers(1, 4))] for _ in range(150)]
    tokenizer = _HashableTokens(kind)
    ours = RougeScorer(TYPES, tokenizer=tokenizer).score_examples(predictions, references)
    scorer = rouge_scorer.RougeScorer(TYPES, tokenizer=tokenizer)
    _assert_same(ours.scores, _rouge_score_scores(scorer, predictions, references))


def test_a_non_str_token_never_equals_a_str_token():
    """Non-str tokens get private names; a str token spelled like one stays a different token."""
    spellings = {"p": ["\x00#0", "\x00\x00#0", 0], "r": [0, "0", "\x00#0"]}
    result = RougeScorer(["rouge1"], tokenizer=lambda text: spellings[text]).score(["p"], ["r"])
    assert result == {"rouge1": pytest.approx(2 / 3)}  # 0 with 0, "\x00#0" with "\x00#0"
