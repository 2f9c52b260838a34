"""Differential fuzzing against the real rouge_score package on 20,000 random ASCII cases.

Cases come from a seeded ``random.Random`` (so CI sees the same cases every run): punctuation,
digits, control characters, newline styles, repeated words, stemming-sensitive words, very short
and very long texts, one to three references. Each batch is scored by rouge_plus in one call and
by rouge_score pair by pair (``score_multi``); every precision, recall and F must agree within
1e-9, with stemming on and off, with ``tokenizer="rouge_score"`` and with the default tokenizer
(which on ASCII text must be rouge_score's own tokenizer, so the oracle is rouge_score unchanged).
"""

from __future__ import annotations

import random
import string

import numpy as np
import pytest

from rouge_plus import RougeScorer

rouge_scorer = pytest.importorskip("rouge_score.rouge_scorer")

pytestmark = pytest.mark.filterwarnings("ignore:.*produced no tokens:UserWarning")

TYPES = ["rouge1", "rouge2", "rouge3", "rougeL", "rougeLsum"]
CASES_PER_CONFIG = 5_000  # x 4 configurations = 20,000 cases
BATCH = 1_000

_WORD_LIST = """
the a an of to in and is was were be been cat cats dog dogs sat sit sitting mat on
running runs ran runner generalization generalize caresses ponies ties agreed
feed plastered motoring sing conflated happy happily relational hopeful goodness
president said says saying year years people police 1 2 10 2024 3.14 1,000 $5
50% U.S. e.g. don't CAT's state-of-the-art O'Neil NEW-YORK Dr. Mr. x y z I
"""
WORDS = _WORD_LIST.split()
PUNCTUATION = [".", ",", "!", "?", ";", ":", "--", "...", "(", ")", '"', "'", "``", "''", "@#$"]
SPACES = [" "] * 12 + ["  ", "\t", "\n", "\n", "\n\n", "\r\n", "\r", " \n ", "\x0b", "\x0c"]
CONTROL = [chr(c) for c in range(0, 32)] + ["\x7f"]


def _text(rng: random.Random) -> str:
    shape = rng.random()
    if shape < 0.03:  # raw ASCII noise, control characters included
        alphabet = string.printable + "".join(CONTROL)
        return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
    if shape < 0.06:  # only punctuation and spaces
        return "".join(rng.choice(PUNCTUATION + SPACES) for _ in range(rng.randint(0, 12)))
    if shape < 0.4:
        length = rng.randint(0, 4)  # very short, often shorter than an n-gram
    elif shape < 0.9:
        length = rng.randint(5, 20)
    elif shape < 0.992:
        length = rng.randint(21, 60)
    else:
        length = rng.randint(120, 200)  # long
    vocabulary = WORDS if rng.random() < 0.7 else rng.sample(WORDS, 6)  # small ones repeat
    parts: list[str] = []
    for _ in range(length):
        roll = rng.random()
        if parts and roll < 0.1:
            word = parts[-2] if len(parts) > 1 else parts[-1]  # repeated words
        elif roll < 0.2:
            word = rng.choice(PUNCTUATION)
        else:
            word = rng.choice(vocabulary)
            if rng.random() < 0.1:
                word = word.upper() if rng.random() < 0.5 else word.capitalize()
        parts += [word, rng.choice(SPACES)]
    return "".join(parts)


def _case(rng: random.Random) -> tuple[str, list[str]]:
    prediction = _text(rng)
    references = [_text(rng) for _ in range(rng.choice([1, 1, 1, 2, 3]))]
    roll = rng.random()
    if roll < 0.002:  # very long against short: a few thousand tokens on one side
        prediction = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1500, 2500)))
    elif roll < 0.004:
        references[0] = "\n".join(rng.choice(WORDS) for _ in range(rng.randint(1500, 2500)))
    elif roll < 0.02:
        references.append(prediction)  # exact copies among the references
    elif roll < 0.04:
        prediction = references[0].upper().replace(" ", "\n")
    return prediction, references


def _oracle(scorer, predictions, references) -> dict[str, np.ndarray]:
    rows = [
        scorer.score_multi(refs, pred) for pred, refs in zip(predictions, references, strict=True)
    ]
    return {t: np.array([tuple(r[t]) for r in rows], dtype=np.float64) for t in TYPES}


@pytest.mark.parametrize("use_stemmer", [False, True], ids=["nostem", "stem"])
@pytest.mark.parametrize("tokenizer", ["rouge_score", "default"])
def test_random_ascii_cases_equal_rouge_score(tokenizer, use_stemmer):
    seed = {"rouge_score": 1, "default": 2}[tokenizer] * 10 + use_stemmer
    rng = random.Random(seed)
    ours = RougeScorer(TYPES, tokenizer=tokenizer, use_stemmer=use_stemmer)
    oracle = rouge_scorer.RougeScorer(TYPES, use_stemmer=use_stemmer)
    checked = 0
    for _ in range(CASES_PER_CONFIG // BATCH):
        cases = [_case(rng) for _ in range(BATCH)]
        predictions, references = [c[0] for c in cases], [c[1] for c in cases]
        got = ours.score_examples(predictions, references).scores
        want = _oracle(oracle, predictions, references)
        for name in TYPES:
            diff = np.abs(got[name] - want[name]).max(axis=1)
            worst = int(diff.argmax())
            assert diff[worst] <= 1e-9, (
                f"{name} differs from rouge_score on case {worst} (seed {seed}): "
                f"ours {got[name][worst]}, rouge_score {want[name][worst]}, "
                f"prediction {predictions[worst]!r:.300}, references {references[worst]!r:.300}"
            )
        checked += len(cases)
    assert checked == CASES_PER_CONFIG


def test_generator_covers_the_hard_shapes():
    """The fuzz corpus really contains what it claims (guards against a generator regression)."""
    rng = random.Random(10)
    cases = [_case(rng) for _ in range(CASES_PER_CONFIG)]
    texts = [t for p, refs in cases for t in (p, *refs)]
    assert sum(len(t.split()) <= 2 for t in texts) > 1000
    assert sum(len(t.split()) >= 1500 for t in texts) >= 3
    assert sum("\r\n" in t for t in texts) > 100
    assert sum(any(c in t for c in CONTROL[:9]) for t in texts) > 20
    assert sum(p in refs for p, refs in cases) > 20
    assert sum(len(refs) > 1 for _, refs in cases) > 1000
