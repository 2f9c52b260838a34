"""The call patterns of code that already uses rouge_score, timed per call against its peers.

- ``truthfulqa``: lm-evaluation-harness's TruthfulQA metric, a scorer and a
  ``BootstrapAggregator`` built for every single pair and aggregated at once (three types);
  checked for the same values and the same NumPy global random state after every call.
- ``harness``: lm-evaluation-harness's own TruthfulQA and LongBench metric code, in processes
  with and without ``rouge_plus.compat.install()`` (``harness_child.py``).
- ``reward``: a GRPO step's ROUGE reward, ``RougeReward`` against a hand-written rouge_score loop.

In ``truthfulqa``, each implementation is reached through its ``rouge_scorer``/``scoring``
modules, so the same code runs against rouge_score, rouge_plus's drop-in, rouge-score-rs and
rapidrouge. One pair per ``score`` call is ``--mode per-call`` (``per_call_mode.py``).
"""

from __future__ import annotations

import argparse
import importlib
import json
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import numpy as np

Row = dict[str, object]
TRUTHFULQA_TYPES = ["rouge1", "rouge2", "rougeLsum"]

# An implementation's name and the package whose rouge_scorer and scoring modules it has.
PACKAGES = {
    "rouge_plus": "rouge_plus.compat.rouge_score",
    "rouge_score": "rouge_score",
    "rouge-score-rs": "rouge_score_rs",
    "rapidrouge": "rapidrouge",
}


def _modules(name: str) -> tuple[ModuleType, ModuleType | None] | None:
    """``(rouge_scorer, scoring)`` of an implementation (``scoring`` None if it has none), or
    None when it is not installed."""
    try:
        scorer = importlib.import_module(f"{PACKAGES[name]}.rouge_scorer")
    except ImportError:
        return None
    try:
        scoring = importlib.import_module(f"{PACKAGES[name]}.scoring")
    except ImportError:
        scoring = None
    return scorer, scoring


def truthfulqa_metric(rouge_scorer: ModuleType, scoring: ModuleType) -> Callable:
    """lm-evaluation-harness's ``tasks/truthfulqa/utils.py`` ``rouge(refs, preds)``, as it is
    written there (MIT licence), on the given modules."""

    def rouge(refs: list[str], preds: list[str]) -> dict[str, float]:
        scorer = rouge_scorer.RougeScorer(TRUTHFULQA_TYPES)

        def _prepare_summary(summary: str) -> str:
            return summary.replace(" . ", ".\n")

        aggregator = scoring.BootstrapAggregator()
        for ref, pred in zip(refs, preds, strict=True):
            aggregator.add_scores(scorer.score(_prepare_summary(ref), _prepare_summary(pred)))
        result = aggregator.aggregate()
        return {t: result[t].mid.fmeasure * 100 for t in TRUTHFULQA_TYPES}

    return rouge


def _state_key(state: tuple) -> tuple:
    return tuple(x.tobytes() if isinstance(x, np.ndarray) else x for x in state)


def truthfulqa_mode(args: argparse.Namespace, predictions, references) -> list[Row]:
    """ms per call of the TruthfulQA metric on single pairs (TruthfulQA calls it once per
    (answer, reference) pair), every implementation checked against rouge_score first."""
    n = min(len(predictions), args.pairs or 200)
    pairs = list(zip(references[:n], predictions[:n], strict=True))
    metrics = {}
    for name in PACKAGES:
        modules = _modules(name)
        if modules and modules[1] is not None and hasattr(modules[1], "BootstrapAggregator"):
            metrics[name] = truthfulqa_metric(*modules)

    def run(metric: Callable, k: int) -> list:
        np.random.seed(0)
        return [(metric([r], [p]), _state_key(np.random.get_state())) for r, p in pairs[:k]]

    check = min(n, 20)
    oracle = run(metrics["rouge_score"], check)
    agreement = {name: run(metric, check) == oracle for name, metric in metrics.items()}
    results = []
    ms = {}
    for name, metric in metrics.items():
        k = n if name == "rouge_plus" else min(n, 20)  # the others cost ~100 ms a call
        times = []
        for _ in range(args.rounds):
            start = time.perf_counter()
            run(metric, k)
            times.append((time.perf_counter() - start) / k)
        ms[name] = 1e3 * min(times)
    for name in metrics:
        results.append(
            {
                "peer": name,
                "ms_per_call": ms[name],
                "rouge_plus_ratio": ms[name] / ms["rouge_plus"],
                "same_values_and_state": agreement[name],
            }
        )
    return results


def render_truthfulqa(results: list[Row]) -> str:
    lines = [
        "| implementation | ms per call | rouge_plus is × faster | same values and RNG state |",
        "|---|---|---|---|",
    ]
    lines += [
        f"| {r['peer']} | {r['ms_per_call']:.3f} | {r['rouge_plus_ratio']:.1f} | "
        f"{'yes' if r['same_values_and_state'] else 'NO'} |"
        for r in results
    ]
    return "\n".join(lines)


def _child(mode: str, task: str, payload: object) -> dict:
    """One run of ``harness_child.py`` (its own process, so that the drop-ins are installed or
    not from the start)."""
    child = Path(__file__).resolve().parent / "harness_child.py"
    done = subprocess.run(
        [sys.executable, str(child), mode, task],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout.splitlines()[-1])


def harness_mode(args: argparse.Namespace, predictions, references) -> list[Row]:
    """ms per document of lm-evaluation-harness's own metric code, plain and under
    ``rouge_plus.compat.install()``: TruthfulQA's ``process_results_gen`` (rouge_score, an
    aggregator per reference; each document has 2 correct and 2 incorrect answers here) and
    LongBench's ``get_rouge_score`` (pltrdy's rouge, 1 answer)."""
    n = min(len(predictions), args.pairs or 100)
    docs = {
        "truthfulqa": [
            (
                {
                    "correct_answers": [references[i], references[(i + 1) % n]],
                    "incorrect_answers": [predictions[(i + 2) % n], references[(i + 3) % n]],
                },
                predictions[i],
            )
            for i in range(n)
        ],
        "longbench": [({"answers": [references[i]]}, predictions[i]) for i in range(n)],
    }
    results = []
    for task, payload in docs.items():
        runs = {mode: [_child(mode, task, payload) for _ in range(args.rounds)] for mode in MODES}
        same = all(
            (r["results"], r["state"]) == (runs["plain"][0]["results"], runs["plain"][0]["state"])
            for r in runs["accelerated"]
        )
        ms = {mode: 1e3 * min(r["seconds"] for r in rs) / n for mode, rs in runs.items()}
        results.append(
            {
                "task": task,
                "docs": n,
                "plain_ms": ms["plain"],
                "accelerated_ms": ms["accelerated"],
                "speedup": ms["plain"] / ms["accelerated"],
                "same": same,
            }
        )
    return results


MODES = ("plain", "accelerated")


def render_harness(results: list[Row]) -> str:
    lines = [
        "| lm-evaluation-harness metric | docs | ms per doc, plain | with rouge_plus.compat "
        "| × faster | same values and RNG state |",
        "|---|---|---|---|---|---|",
    ]
    lines += [
        f"| {r['task']} | {r['docs']} | {r['plain_ms']:.2f} | {r['accelerated_ms']:.2f} | "
        f"{r['speedup']:.1f} | {'yes' if r['same'] else 'NO'} |"
        for r in results
    ]
    return "\n".join(lines)


def reward_mode(args: argparse.Namespace, predictions, references) -> list[Row]:
    """ms per GRPO step (a batch of ``--pairs`` completions, 64 by default: 8 prompts x 8
    generations) of ``RougeReward`` against the usual hand-written reward, a rouge_score loop."""
    from rouge_score import rouge_scorer

    from rouge_plus.integrations.trl import RougeReward

    n = min(len(predictions), args.pairs or 64)
    completions, refs = list(predictions[:n]), list(references[:n])
    scorer = rouge_scorer.RougeScorer(["rougeL"], use_stemmer=True)

    def hand_written(completions, reference, **kwargs):
        pairs = zip(completions, reference, strict=True)
        return [scorer.score(r, c)["rougeL"].fmeasure for c, r in pairs]

    ours = RougeReward("rougeL", use_stemmer=True, tokenizer="rouge_score")
    rewards = {"rouge_score loop": hand_written, "RougeReward": ours}
    values = {name: f(completions, reference=refs, prompts=[""] * n) for name, f in rewards.items()}
    worst = max(abs(a - b) for a, b in zip(*values.values(), strict=True))
    ms = {}
    for name, reward in rewards.items():
        seconds = []
        for _ in range(args.rounds):
            start = time.perf_counter()
            reward(completions, reference=refs, prompts=[""] * n)
            seconds.append(time.perf_counter() - start)
        ms[name] = 1e3 * min(seconds)
    return [
        {
            "reward": name,
            "completions": n,
            "ms_per_step": ms[name],
            "speedup": ms["rouge_score loop"] / ms[name],
            "max_diff": worst,
        }
        for name in rewards
    ]


def render_reward(results: list[Row]) -> str:
    lines = [
        "| reward (rougeL, stemmed) | completions per step | ms per step | × faster "
        "| max diff |",
        "|---|---|---|---|---|",
    ]
    lines += [
        f"| {r['reward']} | {r['completions']} | {r['ms_per_step']:.2f} | {r['speedup']:.1f} | "
        f"{r['max_diff']:.1e} |"
        for r in results
    ]
    return "\n".join(lines)
