"""One pair per call: how harness loops, reward functions, the Space and the rouge_score drop-in
call ROUGE. Each implementation scores the bench pairs one ``score`` call at a time, with one
scorer for the whole loop and with a new scorer for every call; the figure is CPU microseconds
per call (``time.process_time``), the median of alternating rounds.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

TYPES = ["rouge1", "rouge2", "rougeL"]
# rouge_score takes about 1 ms a pair: it is timed on this many pairs.
SLOW_PAIRS = 300

Loop = Callable[[list[str], list[str]], None]


def _loops(stem: bool) -> dict[str, tuple[Loop, bool]]:
    """Each implementation's per-call loop, and whether it is slow (timed on fewer pairs)."""
    from rouge_score import rouge_scorer as original
    from rouge_score_rs import rouge_scorer as rust

    from rouge_plus import RougeScorer
    from rouge_plus.compat.rouge_score import rouge_scorer as drop_in

    def reused(scorer_class: type) -> Loop:
        scorer = scorer_class(TYPES, use_stemmer=stem)
        return lambda preds, refs: [scorer.score(r, p) for p, r in zip(preds, refs, strict=True)]

    def new_each(scorer_class: type) -> Loop:
        return lambda preds, refs: [
            scorer_class(TYPES, use_stemmer=stem).score(r, p)
            for p, r in zip(preds, refs, strict=True)
        ]

    core = RougeScorer(TYPES, use_stemmer=stem, tokenizer="rouge_score")
    return {
        "rouge_plus RougeScorer.score([p], [r])": (
            lambda preds, refs: [core.score([p], [r]) for p, r in zip(preds, refs, strict=True)],
            False,
        ),
        "rouge_plus new RougeScorer per call": (
            lambda preds, refs: [
                RougeScorer(TYPES, use_stemmer=stem, tokenizer="rouge_score").score([p], [r])
                for p, r in zip(preds, refs, strict=True)
            ],
            False,
        ),
        "rouge_plus compat.rouge_score score(r, p)": (reused(drop_in.RougeScorer), False),
        "rouge_plus compat new scorer per call": (new_each(drop_in.RougeScorer), False),
        "rouge-score-rs score(r, p)": (reused(rust.RougeScorer), False),
        "rouge-score-rs new scorer per call": (new_each(rust.RougeScorer), False),
        "rouge_score score(r, p)": (reused(original.RougeScorer), True),
        "rouge_score new scorer per call": (new_each(original.RougeScorer), True),
    }


def per_call_mode(args: argparse.Namespace, predictions: list[str], references: list[str]) -> list:
    """Median CPU µs per call of every loop, with and without stemming."""
    results = []
    for stem in args.stemming:
        loops = _loops(stem)
        micros: dict[str, list[float]] = {name: [] for name in loops}
        for _ in range(args.rounds):
            for name, (loop, slow) in loops.items():
                preds = predictions[:SLOW_PAIRS] if slow else predictions
                refs = references[:SLOW_PAIRS] if slow else references
                start = time.process_time()
                loop(preds, refs)
                micros[name].append((time.process_time() - start) / len(preds) * 1e6)
        medians = {name: statistics.median(values) for name, values in micros.items()}
        reused_rs = medians["rouge-score-rs score(r, p)"]
        new_rs = medians["rouge-score-rs new scorer per call"]
        for name, value in medians.items():
            baseline = new_rs if "new" in name else reused_rs
            results.append(
                {"stemming": stem, "call": name, "us_per_call": value, "vs_rs": value / baseline}
            )
    return results


def render_per_call(results: list[dict], n_pairs: int) -> str:
    lines = [
        f"One pair per call over {n_pairs:,} bench pairs ({', '.join(TYPES)}; rouge_score on "
        f"{SLOW_PAIRS}); CPU µs per call, median of the rounds; ratio to rouge-score-rs's same "
        "pattern (reused scorer or new scorer per call)",
        "",
        "| stemming | call | µs per call | × rouge-score-rs |",
        "|---|---|---:|---:|",
    ]
    for r in results:
        stem = "yes" if r["stemming"] else "no"
        lines.append(f"| {stem} | {r['call']} | {r['us_per_call']:.1f} | {r['vs_rs']:.2f} |")
    return "\n".join(lines)
