"""Throughput of rouge_plus against the ROUGE implementations people use, in one run.

    python benchmarks/bench.py                      # corpus mode on ../shared/bench (or tests/data)
    python benchmarks/bench.py --data pairs.jsonl   # any JSONL with "prediction" and "references"
    python benchmarks/bench.py --replicate 10       # the corpus repeated 10 times
    python benchmarks/bench.py --mode long          # single long pairs (1,000 to 20,000 tokens)
    python benchmarks/bench.py --mode scaling --replicate 10 --num-proc 2   # workers vs one
    python benchmarks/bench.py --mode memory --pairs 100000                  # peak RSS, 100k pairs
    python benchmarks/bench.py --mode evaluate      # RougePlus().compute vs the core, 5,000 pairs
    python benchmarks/bench.py --mode types         # per-pair cost of every other ROUGE type
    python benchmarks/bench.py --mode languages     # each language's segmentation and stemming
    python benchmarks/bench.py --mode dedupe        # Self-Instruct's dedup rule on 20,000 texts
    python benchmarks/bench.py --mode dedupe --dedupe-sizes 10000 100000 1000000  # growth
    python benchmarks/bench.py --mode cold          # whole processes: start, import, score once
    python benchmarks/bench.py --mode cold --cold-pairs 100 --installed  # the installed copy
    python benchmarks/bench.py --mode per-call      # one pair per score() call, as harnesses do
    python benchmarks/bench.py --mode truthfulqa    # lm-eval's TruthfulQA: an aggregator a pair
    python benchmarks/bench.py --mode harness       # lm-eval's metric code, with and without compat
    python benchmarks/bench.py --mode reward        # a GRPO step's ROUGE reward

Before anything is timed, every peer's per-example scores are checked against rouge_score's
(within 1e-9; evaluate's rouge returns F only, so only F is compared for it). Peers are then
timed in alternating rounds over the same data, and the median pairs/s of each, the ratio of
rouge_plus to each, and each peer's peak memory (measured in a child process of its own) are
reported as a Markdown table.

The cold mode times what a short script pays: whole processes (``cold_child.py``) that start Python,
import one implementation, read the pairs and score them once, every implementation on one thread;
it reports the mean CPU seconds (user + system, with the standard error of the mean: the kernel
counts a process's CPU in scheduler ticks, so one run's figure is coarse) and the median peak RSS of
``--rounds`` runs (41 by default), with and without stemming, for the first 100 and 3,500 pairs of
the data (``--cold-pairs``). With ``--installed`` the children run the rouge_plus installed in this
interpreter (``pip install .``, not editable, as a user has it) instead of this checkout.

The rouge_plus measured is this checkout's (its folder comes first on the path), compiled in
place (``python setup.py build_ext --inplace``) or, without that, its pure-Python twins; the
first line of the output says which.
"""

from __future__ import annotations

import argparse
import gzip
import itertools
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "benchmarks"), str(REPO)]
import dedupe_mode  # noqa: E402
import modes  # noqa: E402
import per_call_mode  # noqa: E402
import reach_modes  # noqa: E402
from peers import PEERS, available  # noqa: E402

# The shared bench beside the checkout, or in a clone without it the same rows in tests/data.
_SHARED = Path(__file__).resolve().parents[2] / "shared" / "bench" / "cnndm_realsumm.jsonl"
_BUNDLED = Path(__file__).resolve().parents[1] / "tests" / "data" / "cnndm_realsumm.jsonl.gz"
DEFAULT_DATA = _SHARED if _SHARED.exists() else _BUNDLED
TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
# Peers slower than this (pairs/s, from the agreement run) are timed on a 1,000-pair slice.
SLOW = 5000


def load_pairs(path: Path, replicate: int, pairs: int | None = None) -> tuple[list[str], list[str]]:
    """The corpus repeated ``replicate`` times, or cycled to exactly ``pairs`` pairs."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle if line.strip()]
    if pairs is not None:
        replicate = -(-pairs // len(rows))
    predictions = [row["prediction"] for row in rows] * replicate
    references = [row["references"][0] for row in rows] * replicate
    return predictions[:pairs], references[:pairs]


def check_agreement(name, scores, oracle) -> str:
    columns = [2] if name == "evaluate-rouge" else [0, 1, 2]
    worst = max(float(np.abs(scores[t][:, columns] - oracle[t][:, columns]).max()) for t in oracle)
    if worst > 1e-9:
        raise SystemExit(f"{name} disagrees with rouge_score by {worst:g}: not timing it")
    return f"{worst:.1e}"


def time_once(peer, predictions, references) -> float:
    start = time.perf_counter()
    peer(predictions, references)
    return time.perf_counter() - start


def peak_memory_mib(name: str, args: argparse.Namespace, use_stemmer: bool) -> float:
    """Peak RSS of a child process that loads the data and scores it once with one peer."""
    command = [
        sys.executable,
        __file__,
        "--child-memory",
        name,
        "--data",
        str(args.data),
        "--replicate",
        str(args.replicate),
    ]
    command += (["--stem"] if use_stemmer else []) + (
        ["--pairs", str(args.pairs)] if args.pairs else []
    )
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    return float(done.stdout.strip().splitlines()[-1])


def child_memory(args: argparse.Namespace) -> None:
    import resource

    predictions, references = load_pairs(args.data, args.replicate, args.pairs)
    if args.child_memory not in ("rouge_plus", "rouge-score-rs", "nothing"):
        predictions, references = predictions[:3500], references[:3500]  # too slow for more
    if args.child_memory != "nothing":  # "nothing": the baseline of Python + data
        PEERS[args.child_memory](TYPES, args.stem)(predictions, references)
    print(modes.own_peak_kib(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss) / 1024)


def corpus_mode(args: argparse.Namespace) -> list[dict]:
    predictions, references = load_pairs(args.data, args.replicate, args.pairs)
    n = len(predictions)
    names = [p for p in args.peers if available(p)]
    results = []
    for use_stemmer in args.stemming:
        peers = {name: PEERS[name](TYPES, use_stemmer) for name in names}
        base = args.replicate and n // args.replicate
        sample = slice(0, min(n, 1000 if "rouge_score" in names else base))
        oracle_peer = PEERS["rouge_score"](TYPES, use_stemmer)
        oracle = oracle_peer(predictions[sample], references[sample])
        agreement, speed_guess = {}, {}
        for name, peer in peers.items():
            start = time.perf_counter()
            agreement[name] = check_agreement(
                name, peer(predictions[sample], references[sample]), oracle
            )
            speed_guess[name] = (sample.stop - sample.start) / (time.perf_counter() - start)
        times: dict[str, list[float]] = {name: [] for name in peers}
        sizes = {name: n if speed_guess[name] >= SLOW else min(n, 1000) for name in peers}
        for _ in range(args.rounds):
            for name, peer in peers.items():
                k = sizes[name]
                times[name].append(k / time_once(peer, predictions[:k], references[:k]))
        speed = {name: statistics.median(values) for name, values in times.items()}
        for name in peers:
            results.append(
                {
                    "stemming": use_stemmer,
                    "peer": name,
                    "pairs": sizes[name],
                    "pairs_per_s": speed[name],
                    "rouge_plus_ratio": speed.get("rouge_plus", float("nan")) / speed[name],
                    "agreement": agreement[name],
                    "peak_mib": peak_memory_mib(name, args, use_stemmer) if args.memory else None,
                }
            )
    return results


def synthetic_pair(
    n_tokens: int, seed: int, vocabulary: list[str], shape: str = "related"
) -> tuple[str, str]:
    """Two texts of ``n_tokens`` words in sentences of about 20 words: ``"related"`` (each word
    of the reference kept with probability 0.6), or ``"near copy"`` (the reference shifted by
    three words: three dropped at its start, three new ones at its end)."""
    rng = random.Random(seed)

    def text(words: list[str]) -> str:
        return "\n".join(" ".join(words[i : i + 20]) + " ." for i in range(0, len(words), 20))

    reference = [rng.choice(vocabulary) for _ in range(n_tokens)]
    if shape == "near copy":
        prediction = reference[3:] + [rng.choice(vocabulary) for _ in range(3)]
    else:
        prediction = [w if rng.random() < 0.6 else rng.choice(vocabulary) for w in reference]
    return text(prediction), text(reference)


LONG_SHAPES = ("related", "near copy")


LONG_TOKENS = [1000, 5000, 20_000]
# A peer slower than this on one long pair (seconds) is not run on the next, longer one: the
# quadratic ones (rouge_score's full table) would take minutes and gigabytes at 20,000 tokens.
LONG_BUDGET = 1.0
# Each timed round of a long pair repeats the call until it has taken about this long (seconds).
LONG_ROUND = 0.02
LONG_SLOW = 0.1


def long_mode(args: argparse.Namespace) -> list[dict]:
    """Milliseconds per call on one long pair for each size and type: the best of ``--rounds``
    rounds in which the peers take turns, a round averaging enough calls to last
    ``LONG_ROUND``; a peer slower than ``LONG_SLOW`` is timed by its one first call."""
    predictions, _ = load_pairs(args.data, 1)
    words = sorted({w for text in predictions for w in text.split()})
    names = [p for p in args.peers if available(p)]
    results = []
    too_slow: dict[tuple[str, str, str], int] = {}
    for n_tokens, shape in itertools.product(args.long_tokens or LONG_TOKENS, LONG_SHAPES):
        prediction, reference = synthetic_pair(n_tokens, n_tokens, words, shape)
        for rouge_type in ("rougeL", "rougeLsum"):
            best, runs, calls = {}, {}, {}
            for name in names:
                if (name, rouge_type, shape) in too_slow:
                    results.append(
                        {"tokens": n_tokens, "shape": shape, "type": rouge_type, "peer": name,
                         "ms": None, "skipped_after": too_slow[name, rouge_type, shape]}
                    )  # fmt: skip
                    continue
                peer = PEERS[name]([rouge_type], False)
                best[name] = time_once(peer, [prediction], [reference])  # also a warm-up
                if best[name] > LONG_BUDGET:
                    too_slow[name, rouge_type, shape] = n_tokens
                if best[name] < LONG_SLOW:
                    runs[name] = peer
                    calls[name] = max(1, int(LONG_ROUND / max(best[name], 1e-9)))
            for _ in range(args.rounds):
                for name, peer in runs.items():
                    start = time.perf_counter()
                    for _ in range(calls[name]):
                        peer([prediction], [reference])
                    seconds = (time.perf_counter() - start) / calls[name]
                    best[name] = min(best[name], seconds)
            results += [
                {"tokens": n_tokens, "shape": shape, "type": rouge_type, "peer": name,
                 "ms": 1e3 * seconds,
                 "rouge_plus_time_ratio": best.get("rouge_plus", float("nan")) / seconds}
                for name, seconds in best.items()
            ]  # fmt: skip
    return results


def render_long(results: list[dict]) -> str:
    lines = [
        "| tokens | shape | type | implementation | ms per pair | rouge_plus's time ÷ this |",
        "|---|---|---|---|---|---|",
    ]
    for r in results:
        if r["ms"] is None:
            cells = f"over {LONG_BUDGET:g} s at {r['skipped_after']:,} tokens: not run | —"
        else:
            cells = f"{r['ms']:.3f} | {r['rouge_plus_time_ratio']:.3f}"
        lines.append(f"| {r['tokens']:,} | {r['shape']} | {r['type']} | {r['peer']} | {cells} |")
    return "\n".join(lines)


def render_corpus(results: list[dict]) -> str:
    lines = [
        "| stemming | implementation | pairs/s | rouge_plus is × faster | peak RSS (MiB) "
        "| max diff vs rouge_score |",
        "|---|---|---|---|---|---|",
    ]
    for r in results:
        memory = f"{r['peak_mib']:.0f}" if r["peak_mib"] is not None else "—"
        lines.append(
            f"| {'yes' if r['stemming'] else 'no'} | {r['peer']} | {r['pairs_per_s']:,.0f} | "
            f"{r['rouge_plus_ratio']:.2f} | {memory} | {r['agreement']} |"
        )
    return "\n".join(lines)


def run_mode(args: argparse.Namespace) -> tuple[list[dict], str]:
    """The results of the chosen mode and their Markdown table."""
    if args.mode == "corpus":
        results = corpus_mode(args)
        return results, render_corpus(results)
    if args.mode == "long":
        results = long_mode(args)
        return results, render_long(results)
    if args.mode == "languages":
        results = modes.languages_mode(args)
        return results, modes.render_languages(results)
    if args.mode == "memory":
        results = modes.memory_mode(args, peak_memory_mib)
        return results, modes.render_memory(results)
    if args.mode == "dedupe":
        rows = [json.loads(line) for line in args.data.open(encoding="utf-8") if line.strip()]
        sentences = [s for row in rows for s in row["prediction"].split("\n")]
        if args.dedupe_sizes:
            results = dedupe_mode.dedupe_scaling_mode(args, sentences)
            return results, dedupe_mode.render_dedupe_scaling(results)
        results = dedupe_mode.dedupe_mode(args, sentences)
        return results, dedupe_mode.render_dedupe(results)
    if args.mode == "cold":
        results = modes.cold_mode(args, available)
        return results, modes.render_cold(results)
    predictions, references = load_pairs(args.data, args.replicate, args.pairs)
    if args.mode == "scaling":
        results = modes.scaling_mode(args, predictions, references, TYPES)
        return results, modes.render_scaling(results)
    if args.mode == "evaluate":
        results = modes.evaluate_mode(args, predictions, references, TYPES)
        return results, modes.render_evaluate(results)
    if args.mode == "per-call":
        results = per_call_mode.per_call_mode(args, predictions, references)
        return results, per_call_mode.render_per_call(results, len(predictions))
    if args.mode == "truthfulqa":
        results = reach_modes.truthfulqa_mode(args, predictions, references)
        return results, reach_modes.render_truthfulqa(results)
    if args.mode == "harness":
        results = reach_modes.harness_mode(args, predictions, references)
        return results, reach_modes.render_harness(results)
    if args.mode == "reward":
        results = reach_modes.reward_mode(args, predictions, references)
        return results, reach_modes.render_reward(results)
    words = sorted({w for text in predictions for w in text.split()})
    long_tokens = (args.long_tokens or [5000])[-1]
    long_pair = synthetic_pair(long_tokens, long_tokens, words)
    results = modes.types_mode(args, predictions, references, long_pair)
    return results, modes.render_types(results, len(predictions), long_tokens)


def describe_rouge_plus() -> str:
    """Which rouge_plus is measured, and which of its compiled modules are in use."""
    import rouge_plus
    from rouge_plus._compiled import compiled

    modules = [
        "kernels._native",
        "text._stemmers",
        "scoring._scores",
        "scoring._synonyms",
        "rouge2._tagger",
    ]
    built = [name.rpartition(".")[2].lstrip("_") for name in modules if compiled(name)]
    where = Path(rouge_plus.__file__).resolve().parent
    origin = "this checkout" if where.is_relative_to(REPO) else str(where)
    compiled_list = ", ".join(built) or "none"
    return f"rouge_plus {rouge_plus.__version__} of {origin}, compiled: {compiled_list}"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--mode",
        choices=[
            "corpus",
            "long",
            "scaling",
            "memory",
            "evaluate",
            "types",
            "languages",
            "dedupe",
            "cold",
            "per-call",
            "truthfulqa",
            "harness",
            "reward",
        ],  # fmt: skip
        default="corpus",
    )
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--replicate", type=int, default=1)
    parser.add_argument("--pairs", type=int, help="cycle the corpus to exactly this many pairs")
    parser.add_argument(
        "--cold-pairs",
        type=int,
        nargs="+",
        default=[100, 3500],
        metavar="N",
        help="cold mode: score the first N pairs of the data (cycled), for each N",
    )
    parser.add_argument(
        "--installed",
        action="store_true",
        help="cold mode: run the rouge_plus installed in this interpreter, not this checkout",
    )
    parser.add_argument(
        "--rounds", type=int, help="timed rounds (default: 41 in cold mode, else 5)"
    )
    parser.add_argument("--peers", nargs="+", default=list(PEERS), choices=list(PEERS))
    parser.add_argument(
        "--stemming", nargs="+", type=lambda s: s == "yes", default=[False, True], metavar="yes|no"
    )
    parser.add_argument("--memory", action="store_true", help="measure peak RSS per peer")
    parser.add_argument("--num-proc", type=int, default=2, help="most workers (scaling, dedupe)")
    parser.add_argument(
        "--long-tokens",
        type=int,
        nargs="+",
        metavar="N",
        help="long mode: the pairs' sizes in tokens (default: 1000 5000 20000); types mode: the "
        "long pair's size (the last one given; default: 5000)",
    )
    parser.add_argument("--dedupe-texts", type=int, default=20_000, help="texts in dedupe mode")
    parser.add_argument(
        "--dedupe-sizes",
        type=int,
        nargs="+",
        metavar="N",
        help="dedupe mode: rouge_plus's CPU time and growth exponent over these sizes "
        "(for example 10000 100000 1000000) instead of the comparison on --dedupe-texts",
    )
    parser.add_argument(
        "--dedupe-peer-max", type=int, default=10_000, help="largest size rouge-score-rs runs"
    )
    parser.add_argument(
        "--dedupe-sample", type=int, default=1000, help="texts rouge_score runs in dedupe mode"
    )
    parser.add_argument("--json", type=Path, help="also write the results as JSON here")
    parser.add_argument("--child-memory", help=argparse.SUPPRESS)
    parser.add_argument("--stem", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if not args.data.exists() and args.mode != "languages":
        raise SystemExit(
            f"no data at {args.data}: pass --data with a JSONL of prediction/references"
        )
    if args.child_memory:
        child_memory(args)
        return
    if args.rounds is None:
        args.rounds = 41 if args.mode == "cold" else 5
    if args.pairs is None and args.mode in ("memory", "evaluate"):
        args.pairs = 100_000 if args.mode == "memory" else 5000
    if args.installed:  # describe the installed copy, not this checkout
        sys.path.remove(str(REPO))
    results, table = run_mode(args)
    size = f"{args.pairs:,} pairs" if args.pairs else f"x{args.replicate}"
    if args.mode == "cold":
        size = " and ".join(f"{n:,}" for n in args.cold_pairs) + " pairs"
    print(
        f"# {args.mode} mode, {args.data.name} {size}, {os.cpu_count()} CPUs, "
        f"Python {sys.version.split()[0]}, {describe_rouge_plus()}"
    )
    print(table)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
