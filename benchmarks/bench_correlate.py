"""Cost of the meta-evaluation: bootstrap intervals of many metrics' correlations with humans.

    python benchmarks/bench_correlate.py                 # 20 metrics, 10,000 resamples
    python benchmarks/bench_correlate.py --levels global --resamples systems documents both

REALSumm's 24 x 100 human scores (shipped) against 20 metrics: its 14 stored ones and 6 more made
from them by noise, so that no two are equal. Per level, coefficient and resampling (systems and
documents by default), ``correlate`` of all metrics at once (the draws shared), ``--rounds``
times; printed as a Markdown table of the median wall-clock and CPU seconds (CPU time, this
process's alone, is what to read on a machine shared with other work). The last column is a
digest of the intervals, the same in every process and under every ``PYTHONHASHSEED``.
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import time

import numpy as np

from rouge_plus import correlate, realsumm


def metrics(count: int) -> dict[str, np.ndarray]:
    data = realsumm()
    stored = dict(data.metrics)
    noise = np.random.default_rng(0)
    names = list(stored)
    while len(stored) < count:
        base = names[len(stored) % len(names)]
        stored[f"{base}+noise{len(stored)}"] = stored[base] + noise.normal(
            0, 0.05, data.human[data.primary].shape
        )
    return dict(list(stored.items())[:count])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--metrics", type=int, default=20)
    parser.add_argument("--n-resamples", type=int, default=10_000)
    parser.add_argument("--levels", nargs="+", default=["system", "summary", "global"])
    parser.add_argument("--methods", nargs="+", default=["kendall", "pearson", "spearman"])
    parser.add_argument("--resamples", nargs="+", default=["both"])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    data = realsumm()
    human = data.human[data.primary]
    scores = metrics(args.metrics)
    print(
        f"{len(scores)} metrics x {human.shape[0]} systems x {human.shape[1]} documents, "
        f"{args.n_resamples:,} resamples, seed 0\n"
    )
    print("| level | coefficient | resampled | wall s | CPU s | digest |")
    print("|---|---|---|---|---|---|")
    for level in args.levels:
        for method in args.methods:
            for resample in args.resamples:
                walls, cpus = [], []
                for _ in range(args.rounds):
                    wall, cpu = time.perf_counter(), time.process_time()
                    results = correlate(
                        scores,
                        human,
                        level,
                        method,
                        resample=resample,
                        n_resamples=args.n_resamples,
                    )
                    walls.append(time.perf_counter() - wall)
                    cpus.append(time.process_time() - cpu)
                digest = hashlib.sha256(repr(sorted(results.items())).encode()).hexdigest()[:12]
                print(
                    f"| {level} | {method} | {resample} | {statistics.median(walls):.2f} | "
                    f"{statistics.median(cpus):.2f} | {digest} |"
                )


if __name__ == "__main__":
    main()
