"""dedupe() against Self-Instruct's rule run with the real rouge_score, pair by pair.

Self-Instruct (``bootstrap_instructions.py``) scores each new instruction against every kept one
with ``RougeScorer(["rougeL"], use_stemmer=False).score(new, kept)`` and drops it when the
maximum F exceeds 0.7; Stanford Alpaca does the same with ``_score_lcs`` on tokens.
"""

from __future__ import annotations

import random

import pytest

from rouge_plus import dedupe

rouge_scorer = pytest.importorskip("rouge_score.rouge_scorer")

TEMPLATES = [
    "Write a short story about {}.",
    "Explain why {}.",
    "Give three reasons why {}.",
    "Rewrite the sentence: {}",
    "What would happen if {}?",
    "Classify the sentiment of: {}",
]
SENTENCE = (
    "the cat sat on a mat while dogs ran across green fields and children laughed at "
    "the old man who sold bright red apples near the river bank during summer afternoons "
    "in Paris, and 42 people watched; it's a well-known fact that birds can't swim"
)
WORDS = SENTENCE.split(" ")


def instructions(n: int, seed: int) -> list[str]:
    """Instruction-like texts, about a third of them near-duplicates of an earlier one."""
    rng = random.Random(seed)
    texts: list[str] = []
    for _ in range(n):
        if texts and rng.random() < 0.35:
            words = rng.choice(texts).split()
            for _ in range(rng.randint(1, 3)):
                position = rng.randrange(len(words))
                if rng.random() < 0.5:
                    words[position] = rng.choice(WORDS)
                elif len(words) > 3:
                    del words[position]
            texts.append(" ".join(words))
        else:
            start = rng.randrange(len(WORDS) - 12)
            topic = " ".join(WORDS[start : start + rng.randint(3, 12)])
            texts.append(rng.choice(TEMPLATES).format(topic))
    return texts


def self_instruct_rule(texts: list[str], threshold: float) -> tuple[list[int], dict[int, int]]:
    scorer = rouge_scorer.RougeScorer(["rougeL"], use_stemmer=False)
    kept: list[int] = []
    dropped: dict[int, int] = {}
    for k, text in enumerate(texts):
        scores = [scorer.score(text, texts[j])["rougeL"].fmeasure for j in kept]
        if scores and max(scores) > threshold:
            dropped[k] = kept[next(i for i, f in enumerate(scores) if f > threshold)]
        else:
            kept.append(k)
    return kept, dropped


@pytest.mark.parametrize("threshold", [0.7, 0.5])
def test_dedupe_equals_the_self_instruct_rule(threshold):
    texts = instructions(400, seed=threshold == 0.7)
    expected = self_instruct_rule(texts, threshold)
    assert dedupe(texts, threshold) == expected
    assert min(len(expected[0]), len(expected[1])) >= 30  # the rule had work to do
