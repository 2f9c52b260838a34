"""rouge_score's private helpers in the drop-in, against the real ones, and the dedupe loops of
Self-Instruct and Stanford Alpaca, which call them, run on both.

The two loops are re-created from their repositories, with their calls as written there:

- Self-Instruct (github.com/yizhongw/self-instruct, ``self_instruct/bootstrap_instructions.py``,
  Apache-2.0): ``p.map(partial(scorer.score, inst), seed_instructions + machine_instructions)``
  in a ``Pool(4)`` per new instruction, dropped when the largest ROUGE-L F exceeds 0.7.
- Stanford Alpaca (github.com/tatsu-lab/stanford_alpaca, ``generate_instruction.py``,
  Apache-2.0): the texts tokenized once with ``scorer._tokenizer.tokenize``, then
  ``p.map(partial(rouge_scorer._score_lcs, new_instruction_tokens), all_instruction_tokens)``.
"""

from __future__ import annotations

import multiprocessing
from functools import partial
from types import ModuleType

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_dedupe_rouge_score import instructions

from rouge_plus.compat.rouge_score import rouge_scorer

real_scorer = pytest.importorskip("rouge_score.rouge_scorer")

# Tokens of every kind rouge_score's helpers compare with ==: words, numbers, tuples.
token = st.sampled_from(["a", "b", "c", "the", "cat", 1, 1.0, 2, ("x",), "A"])
tokens = st.lists(token, max_size=25)
sentences = st.lists(tokens, max_size=5)
check = settings(deadline=None, max_examples=300)


@check
@given(tokens, tokens)
def test_lcs_helpers(ref, can):
    assert rouge_scorer._lcs_table(ref, can) == real_scorer._lcs_table(ref, can)
    assert rouge_scorer.lcs_ind(ref, can) == real_scorer.lcs_ind(ref, can)
    table = real_scorer._lcs_table(ref, can)
    assert rouge_scorer._backtrack_norec(table, ref, can) == real_scorer._backtrack_norec(
        table, ref, can
    )
    shim, real = rouge_scorer._score_lcs(ref, can), real_scorer._score_lcs(ref, can)
    assert tuple(shim) == tuple(real)
    assert [type(x) for x in shim] == [type(x) for x in real]  # ints 0 where rouge_score's are


@check
@given(tokens, sentences)
def test_union_lcs(ref, candidates):
    assert rouge_scorer._union_lcs(ref, candidates) == real_scorer._union_lcs(ref, candidates)


@check
@given(sentences, sentences)
def test_summary_level_lcs(ref, can):
    shim = rouge_scorer._summary_level_lcs(ref, can)
    assert tuple(shim) == tuple(real_scorer._summary_level_lcs(ref, can))


@check
@given(tokens, tokens, st.integers(-1, 4))
def test_ngram_helpers(target, prediction, n):
    shim = rouge_scorer._create_ngrams(target, n), rouge_scorer._create_ngrams(prediction, n)
    real = real_scorer._create_ngrams(target, n), real_scorer._create_ngrams(prediction, n)
    assert shim == real
    assert tuple(rouge_scorer._score_ngrams(*shim)) == tuple(real_scorer._score_ngrams(*real))


def test_scorer_tokenizer_is_rouge_scores():
    text = "Don't stop: the 3 CATS ran, running!"
    for stem in (False, True):
        shim = rouge_scorer.RougeScorer(["rougeL"], use_stemmer=stem)._tokenizer.tokenize(text)
        real = real_scorer.RougeScorer(["rougeL"], use_stemmer=stem)._tokenizer.tokenize(text)
        assert shim == real


def self_instruct_loop(module: ModuleType, seeds: list[str], new: list[str], pool) -> list:
    """Self-Instruct's filter (see the module docstring), one pool for the loop."""
    scorer = module.RougeScorer(["rougeL"], use_stemmer=False)
    machine_instructions: list[str] = []
    kept = []
    for inst in new:
        rouge_scores = pool.map(partial(scorer.score, inst), seeds + machine_instructions)
        rouge_scores = [score["rougeL"].fmeasure for score in rouge_scores]
        if max(rouge_scores) > 0.7:
            continue
        all_instructions = seeds + machine_instructions
        most_similar_instructions = {
            all_instructions[i]: rouge_scores[i] for i in np.argsort(rouge_scores)[-10:][::-1]
        }
        machine_instructions.append(inst)
        kept.append((inst, most_similar_instructions))
    return kept


def alpaca_loop(module: ModuleType, seeds: list[str], new: list[str], pool) -> list:
    """Stanford Alpaca's filter (see the module docstring), one pool for the loop."""
    scorer = module.RougeScorer(["rougeL"], use_stemmer=False)
    all_instructions = list(seeds)
    all_instruction_tokens = [scorer._tokenizer.tokenize(inst) for inst in all_instructions]
    kept = []
    for instruction in new:
        new_instruction_tokens = scorer._tokenizer.tokenize(instruction)
        rouge_scores = pool.map(
            partial(module._score_lcs, new_instruction_tokens), all_instruction_tokens
        )
        rouge_scores = [score.fmeasure for score in rouge_scores]
        most_similar_instructions = {
            all_instructions[i]: rouge_scores[i] for i in np.argsort(rouge_scores)[-10:][::-1]
        }
        if max(rouge_scores) > 0.7:
            continue
        kept.append((instruction, most_similar_instructions, float(np.mean(rouge_scores))))
        all_instructions.append(instruction)
        all_instruction_tokens.append(new_instruction_tokens)
    return kept


@pytest.mark.parametrize("loop", [self_instruct_loop, alpaca_loop])
def test_dedupe_loops_keep_the_same_instructions(loop):
    texts = instructions(160, seed=3)
    seeds, new = texts[:20], texts[20:]
    with multiprocessing.get_context("fork").Pool(2) as pool:
        shim = loop(rouge_scorer, seeds, new, pool)
        real = loop(real_scorer, seeds, new, pool)
    assert shim == real
    assert 0 < len(shim) < len(new)  # the rule dropped some and kept some
