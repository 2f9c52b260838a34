"""The benchmark's rouge_plus-only modes: worker scaling, peak memory, evaluate's overhead and
the cost of the other types (ROUGE-W, ROUGE-S/SU, ROUGE 2.0's synonym and topic measures).
``bench.py`` parses the flags and prints the Markdown tables these functions return.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import numpy as np

Row = dict[str, object]


def alternating_medians(runs: dict[object, Callable[[], object]], rounds: int) -> dict:
    """Median seconds of each run, the runs taking turns so load changes hit them all alike."""
    seconds: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(rounds):
        for name, run in runs.items():
            start = time.perf_counter()
            run()
            seconds[name].append(time.perf_counter() - start)
    return {name: statistics.median(values) for name, values in seconds.items()}


# ------------------------------------------------------------------ scaling


def scaling_mode(args: argparse.Namespace, predictions, references, types) -> list[Row]:
    """Pairs/s of ``RougeScorer(num_proc=k)`` for k = 1 .. ``--num-proc``, checked identical."""
    from rouge_plus import RougeScorer

    results = []
    for use_stemmer in args.stemming:
        scorers = {
            workers: RougeScorer(
                types, use_stemmer=use_stemmer, tokenizer="rouge_score", num_proc=workers
            )
            for workers in range(1, args.num_proc + 1)
        }
        reference = scorers[1].score_examples(predictions, references).scores
        for workers, scorer in scorers.items():
            got = scorer.score_examples(predictions, references).scores
            if any(not np.array_equal(got[t], reference[t]) for t in reference):
                raise SystemExit(f"num_proc={workers} changed the scores")
        runs = {
            workers: (lambda s=scorer: s.score_examples(predictions, references))
            for workers, scorer in scorers.items()
        }
        medians = alternating_medians(runs, args.rounds)
        for workers, seconds in medians.items():
            results.append(
                {
                    "stemming": use_stemmer,
                    "workers": workers,
                    "pairs_per_s": len(predictions) / seconds,
                    "speedup": medians[1] / seconds,
                }
            )
    return results


def render_scaling(results: list[Row]) -> str:
    lines = ["| stemming | num_proc | pairs/s | speed-up vs 1 |", "|---|---|---|---|"]
    lines += [
        f"| {'yes' if r['stemming'] else 'no'} | {r['workers']} | "
        f"{r['pairs_per_s']:,.0f} | {r['speedup']:.2f}× |"
        for r in results
    ]
    return "\n".join(lines)


# ------------------------------------------------------------------ memory


def memory_mode(args: argparse.Namespace, peak_memory_mib: Callable) -> list[Row]:
    """Peak RSS of scoring ``args.pairs`` pairs once, each peer in a child process of its own;
    "nothing" loads Python and the data only, the baseline the peers add to."""
    from peers import available

    names = ["nothing"] + [p for p in ("rouge_plus", "rouge-score-rs") if available(p)]
    results = []
    for use_stemmer in args.stemming:
        peaks = {name: peak_memory_mib(name, args, use_stemmer) for name in names}
        for name, peak in peaks.items():
            results.append(
                {
                    "stemming": use_stemmer,
                    "peer": name,
                    "pairs": args.pairs,
                    "peak_mib": peak,
                    "above_baseline": peak - peaks["nothing"],
                }
            )
    return results


def render_memory(results: list[Row]) -> str:
    lines = [
        "| stemming | implementation | pairs | peak RSS (MiB) | above Python + data (MiB) |",
        "|---|---|---|---|---|",
    ]
    lines += [
        f"| {'yes' if r['stemming'] else 'no'} | {r['peer']} | {r['pairs']:,} | "
        f"{r['peak_mib']:.0f} | {r['above_baseline']:.0f} |"
        for r in results
    ]
    return "\n".join(lines)


# ------------------------------------------------------------------ evaluate


def evaluate_mode(args: argparse.Namespace, predictions, references, types) -> list[Row]:
    """RougePlus().compute against the core it wraps, on the same pairs: straight to compute
    (evaluate's cache bypassed) and through add_batch (evaluate's Arrow cache and locks)."""
    from rouge_plus import RougePlus, RougeScorer

    options = {"rouge_types": types, "tokenizer": "rouge_score"}
    core = RougeScorer(**options)
    metric = RougePlus(**options)

    def through_cache() -> dict:
        cached = RougePlus(**options)
        cached.add_batch(predictions=predictions, references=references)
        return cached.compute()

    runs = {
        "core: RougeScorer.score": lambda: core.score(predictions, references),
        "RougePlus().compute(predictions=..., references=...)": lambda: metric.compute(
            predictions=predictions, references=references
        ),
        "RougePlus().add_batch(...) then compute()": through_cache,
    }
    expected = runs["core: RougeScorer.score"]()
    if any(run() != expected for run in runs.values()):
        raise SystemExit("the metric and the core disagree")
    medians = alternating_medians(runs, args.rounds)
    core_seconds = medians["core: RougeScorer.score"]
    return [
        {"call": name, "ms": 1e3 * s, "overhead": s / core_seconds - 1, "pairs": len(predictions)}
        for name, s in medians.items()
    ]


def render_evaluate(results: list[Row]) -> str:
    lines = ["| call | pairs | ms (median) | overhead vs core |", "|---|---|---|---|"]
    lines += [
        f"| {r['call']} | {r['pairs']:,} | {r['ms']:.1f} | {100 * r['overhead']:+.1f}% |"
        for r in results
    ]
    return "\n".join(lines)


# ------------------------------------------------------------------ cost per type

ROUGE155_TYPES = ["rougeW", "rougeW-1.5", "rougeS4", "rougeSU4", "rougeS*", "rougeSU*"]
REFERENCE_TYPES = ["rouge2", "rougeL", "rougeLsum"]
ROUGE2_TYPES = [
    "rouge1+synonyms",
    "rouge2+synonyms",
    "rougeTopic",
    "rougeTopicUniq",
    "rougeTopicUniq+synonyms",
]


def types_mode(args: argparse.Namespace, predictions, references, long_pair) -> list[Row]:
    """Microseconds per pair of each type alone, on the corpus and on one long pair."""
    from rouge_plus import RougeScorer

    results = []
    for rouge_type in REFERENCE_TYPES + ROUGE155_TYPES + ROUGE2_TYPES:
        scorer = RougeScorer([rouge_type], tokenizer="rouge_score")
        runs = {
            "corpus": lambda s=scorer: s.score_examples(predictions, references),
            "long": lambda s=scorer: s.score_examples([long_pair[0]], [long_pair[1]]),
        }
        medians = alternating_medians(runs, args.rounds)
        results.append(
            {
                "type": rouge_type,
                "us_per_pair": 1e6 * medians["corpus"] / len(predictions),
                "long_ms": 1e3 * medians["long"],
            }
        )
    return results


def render_types(results: list[Row], n_pairs: int, long_tokens: int) -> str:
    lines = [
        f"| type | µs per pair ({n_pairs:,} corpus pairs) "
        f"| ms for one {long_tokens:,}-token pair |",
        "|---|---|---|",
    ]
    lines += [f"| {r['type']} | {r['us_per_pair']:.1f} | {r['long_ms']:.1f} |" for r in results]
    return "\n".join(lines)
