"""Cost of the paired significance tests beyond scoring: resamples x examples x types.

    python benchmarks/bench_significance.py                    # 10,000 examples, 10,000 resamples
    python benchmarks/bench_significance.py --examples 100000 --rounds 3
    python benchmarks/bench_significance.py --data pairs.jsonl # any JSONL of the bench's shape

The bench's 3,500 summaries (35 systems x 100 CNN/DailyMail documents) are cycled to
``--examples`` rows; each row's baseline is the next system's summary of the same document, so
the two differ as real systems do. Both are scored once (timed apart), then ``compare_scores``
runs each method ``--rounds`` times on the per-example arrays. Printed as a Markdown table: the
median wall-clock and CPU seconds of each method (the permutation method includes its bootstrap
interval; CPU time, this process's alone, is what to read on a machine shared with other work)
and the peak memory the test allocates, measured in a separate run with ``tracemalloc`` (which
sees NumPy's buffers).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
import tracemalloc
from pathlib import Path

from rouge_plus import RougeScorer
from rouge_plus.comparison import compare_scores

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "bench" / "cnndm_realsumm.jsonl"
TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def paired_rows(path: Path, examples: int) -> tuple[list[str], list[str], list[str]]:
    """System predictions, baseline predictions (another system, same document), references."""
    if not path.exists():
        raise SystemExit(f"{path} not found: pass --data with a JSONL of the bench's fields")
    documents: dict[int, list[dict]] = {}
    for line in path.open(encoding="utf-8"):
        if line.strip():
            row = json.loads(line)
            documents.setdefault(row["line"], []).append(row)
    ordered = [documents[key] for key in sorted(documents)]
    system, baseline, references = [], [], []
    for i in range(examples):
        summaries = ordered[i % len(ordered)]
        k = (i // len(ordered)) % len(summaries)
        system.append(summaries[k]["prediction"])
        baseline.append(summaries[(k + 1) % len(summaries)]["prediction"])
        references.append(summaries[k]["references"][0])
    return system, baseline, references


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--examples", type=int, default=10_000)
    parser.add_argument("--resamples", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()

    system, baseline, references = paired_rows(args.data, args.examples)
    scorer = RougeScorer(TYPES)
    start = time.perf_counter()
    base_scores = scorer.score_examples(baseline, references).scores
    system_scores = {"system": scorer.score_examples(system, references).scores}
    scoring = time.perf_counter() - start

    def run(method: str) -> None:
        compare_scores(base_scores, system_scores, method=method, n_resamples=args.resamples)

    lines = [
        f"Scoring both systems ({args.examples:,} examples each, {len(TYPES)} types): "
        f"{scoring:.2f} s, not included below.",
        "",
        f"| method | examples | resamples | types | wall s (median of {args.rounds}) | CPU s "
        "(median) | CPU s (min) | peak MiB |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for method in ("permutation", "bootstrap"):
        wall, cpu = [], []
        for _ in range(args.rounds):
            start, start_cpu = time.perf_counter(), time.process_time()
            run(method)
            wall.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
        tracemalloc.start()
        run(method)
        peak = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
        lines.append(
            f"| {method} | {args.examples:,} | {args.resamples:,} | {len(TYPES)} | "
            f"{statistics.median(wall):.3f} | {statistics.median(cpu):.3f} | {min(cpu):.3f} | "
            f"{peak:.0f} |"
        )
    print("\n".join(lines))


if __name__ == "__main__":
    main()
