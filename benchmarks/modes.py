"""The benchmark's other modes: whole-process cold runs against the other implementations, and
the rouge_plus-only modes (worker scaling, peak memory, evaluate's overhead and the cost of the
other types: ROUGE-W, ROUGE-S/SU, ROUGE 2.0's synonym and topic measures). ``bench.py`` parses
the flags and prints the Markdown tables these functions return.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

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


# ------------------------------------------------------------------ cold

COLD_CHILD = Path(__file__).with_name("cold_child.py")
COLD_PEERS = ("rouge_plus", "rouge-score-rs", "rouge_score")
COLD_BASELINE = "rouge-score-rs"


def cold_environment(installed: bool) -> dict[str, str]:
    """The children's environment: every implementation on one thread (Rayon, and NumPy's
    BLAS), and this checkout's rouge_plus first on the path unless ``installed`` (then the
    interpreter's installed rouge_plus runs, as a user's script would run it)."""
    threads = ("RAYON_NUM_THREADS", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS")
    single = {name: "1" for name in threads}
    if installed:
        return {**os.environ, **single}
    repo = str(Path(__file__).resolve().parents[1])
    path = os.pathsep.join(p for p in (repo, os.environ.get("PYTHONPATH")) if p)
    return {**os.environ, **single, "PYTHONPATH": path}


def cold_data(source: Path, pairs: int, folder: Path) -> Path:
    """The first ``pairs`` rows of ``source`` (cycled when it has fewer) as a JSONL file."""
    rows = [line for line in source.open(encoding="utf-8") if line.strip()]
    path = folder / f"{pairs}.jsonl"
    lines = (rows[i % len(rows)].rstrip("\n") + "\n" for i in range(pairs))
    path.write_text("".join(lines), encoding="utf-8")
    return path


def own_peak_kib(fallback: float) -> float:
    """This process's peak RSS in KiB, from Linux's VmHWM: ``ru_maxrss`` also counts the
    memory of the parent the process was forked from (``fallback``, elsewhere)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            return float(next(line for line in status if line.startswith("VmHWM:")).split()[1])
    except (OSError, StopIteration):
        return fallback


def cold_run(
    peer: str, data: Path, stem: bool, env: dict[str, str], *extra: str
) -> tuple[float, float, str]:
    """CPU seconds (user + system, the operating system's account of the whole process by
    ``wait4``), peak RSS (MiB) and what it printed, of one child process."""
    command = [sys.executable, str(COLD_CHILD), peer, str(data), "yes" if stem else "no", *extra]
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        child = subprocess.Popen(command, stdout=out, stderr=err, env=env)
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        errors = err.read().decode()
        if child.returncode:
            raise SystemExit(f"cold run of {peer} failed:\n{errors}")
        out.seek(0)
        printed = out.read().decode()
    # The child's own peak (VmHWM, in kB) where Linux reports it: ru_maxrss would also count
    # this process's memory, which the child had before it started Python.
    peaks = [line.split()[1] for line in errors.splitlines() if line.startswith("VmHWM:")]
    peak_kib = float(peaks[-1]) if peaks else usage.ru_maxrss
    return usage.ru_utime + usage.ru_stime, peak_kib / 1024, printed


def cold_mode(args: argparse.Namespace, available: Callable[[str], bool]) -> list[Row]:
    """Mean CPU seconds and median peak RSS of ``args.rounds`` whole-process runs per
    implementation (runs alternate, so load changes hit them all alike), with and without
    stemming, on the first ``n`` pairs of the data for each ``n`` of ``args.cold_pairs``;
    "nothing" is Python reading the data, "import rouge_plus" adds the import. The checkout's
    bytecode is compiled first, as pip compiles an installed package's (``args.installed``: the
    installed rouge_plus runs instead). Scores are checked first: each implementation's mean
    P/R/F per type within 1e-9 of rouge_score's (or of rouge_plus's when rouge_score is not
    installed)."""
    # Installed packages hold their bytecode (pip compiles it); so must the checkout measured,
    # or every run would compile rouge_plus from source (PYTHONDONTWRITEBYTECODE stops Python
    # from saving it).
    if not args.installed:
        compileall.compile_dir(Path(__file__).resolve().parents[1] / "rouge_plus", quiet=1)
    env = cold_environment(args.installed)
    with tempfile.TemporaryDirectory() as folder:
        return [
            row
            for pairs in args.cold_pairs
            for row in _cold_size(args, available, cold_data(args.data, pairs, Path(folder)), env)
        ]


def _cold_size(
    args: argparse.Namespace, available: Callable[[str], bool], data: Path, env: dict[str, str]
) -> list[Row]:
    """The rows of :func:`cold_mode` for one data file."""
    peers = [p for p in COLD_PEERS if p in args.peers and available(p)]
    names = ["nothing", *(["import rouge_plus"] if "rouge_plus" in peers else []), *peers]
    results = []
    for use_stemmer in args.stemming:
        checks = {p: json.loads(cold_run(p, data, use_stemmer, env, "--check")[2]) for p in peers}
        oracle = checks.get("rouge_score") or checks[peers[0]]
        for peer, check in checks.items():
            worst = max(
                abs(a - b)
                for ours, theirs in zip(check["means"], oracle["means"], strict=True)
                for a, b in zip(ours, theirs, strict=True)
            )
            if worst > 1e-9:
                raise SystemExit(f"{peer} disagrees with the oracle by {worst:g}: not timing it")
        runs: dict[str, list[tuple[float, float]]] = {name: [] for name in names}
        for _ in range(args.rounds):
            for name in names:
                peer = "rouge_plus-import" if name == "import rouge_plus" else name
                runs[name].append(cold_run(peer, data, use_stemmer, env)[:2])
        # The mean, not the median: the kernel accounts a process's CPU time in scheduler ticks
        # (4 ms at 250 Hz), coarse beside a 30 ms process, so each run's figure is rounded to a
        # tick and a median jumps between ticks; the mean of many runs is not rounded.
        cpu = {name: statistics.fmean(c for c, _ in values) for name, values in runs.items()}
        error = {name: _standard_error([c for c, _ in values]) for name, values in runs.items()}
        rss = {name: statistics.median(m for _, m in values) for name, values in runs.items()}
        for name in names:
            results.append(
                {
                    "stemming": use_stemmer,
                    "peer": name,
                    "pairs": checks[peers[0]]["pairs"] if peers else None,
                    "runs": args.rounds,
                    "cpu_s": cpu[name],
                    "cpu_s_error": error[name],
                    "cpu_above_nothing": cpu[name] - cpu["nothing"],
                    "peak_mib": rss[name],
                    "rouge_plus_vs": (
                        cpu["rouge_plus"] / cpu[name]
                        if "rouge_plus" in cpu and name in peers
                        else None
                    ),
                }
            )
    return results


def _standard_error(values: list[float]) -> float:
    """The standard error of the mean of ``values`` (0 for fewer than two)."""
    return statistics.stdev(values) / len(values) ** 0.5 if len(values) > 1 else 0.0


def render_cold(results: list[Row]) -> str:
    lines = [
        "| pairs | stemming | process | CPU s (mean ± s.e.) | above Python + data "
        "| peak RSS (MiB, median) | rouge_plus CPU ÷ this |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in results:
        ratio = "—" if r["rouge_plus_vs"] is None else f"{r['rouge_plus_vs']:.2f}"
        pairs = "—" if r["pairs"] is None else f"{r['pairs']:,}"
        lines.append(
            f"| {pairs} | {'yes' if r['stemming'] else 'no'} | {r['peer']} "
            f"| {r['cpu_s']:.4f} ± {r['cpu_s_error']:.4f} | "
            f"{r['cpu_above_nothing']:+.4f} | {r['peak_mib']:.1f} | {ratio} |"
        )
    return "\n".join(lines)


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
    """RougePlus().compute against the core it wraps, on the same pairs: straight to compute,
    and through add_batch in batches of 32 (an evaluation loop's steps) then compute()."""
    from rouge_plus import RougePlus, RougeScorer

    options = {"rouge_types": types, "tokenizer": "rouge_score"}
    core = RougeScorer(**options)
    metric = RougePlus(**options)

    def in_batches() -> dict:  # one metric for every evaluation, as a training loop holds it
        for start in range(0, len(predictions), 32):
            stop = start + 32
            metric.add_batch(predictions=predictions[start:stop], references=references[start:stop])
        return metric.compute()

    runs = {
        "core: RougeScorer.score": lambda: core.score(predictions, references),
        "RougePlus().compute(predictions=..., references=...)": lambda: metric.compute(
            predictions=predictions, references=references
        ),
        "RougePlus().add_batch(...) in batches of 32, then compute()": in_batches,
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
    "rougeTopic+synonyms",
    "rougeTopicUniq+synonyms",
]


def types_mode(args: argparse.Namespace, predictions, references, long_pair) -> list[Row]:
    """Microseconds per pair of each type alone, on the corpus and on one long pair, and the
    corpus time as a multiple of rouge1's, rouge1 being timed in the same rounds (alternating
    with the type, so that load changes hit both). One untimed call first loads the data files
    and warms the caches a process keeps (the tagger's model, WordNet's keys per word)."""
    from rouge_plus import RougeScorer

    rouge1 = RougeScorer(["rouge1"], tokenizer="rouge_score")
    results = []
    for rouge_type in ["rouge1", *REFERENCE_TYPES, *ROUGE155_TYPES, *ROUGE2_TYPES]:
        scorer = RougeScorer([rouge_type], tokenizer="rouge_score")
        runs = {
            "corpus": lambda s=scorer: s.score_examples(predictions, references),
            "long": lambda s=scorer: s.score_examples([long_pair[0]], [long_pair[1]]),
            "rouge1": lambda: rouge1.score_examples(predictions, references),
        }
        for run in runs.values():
            run()
        medians = alternating_medians(runs, args.rounds)
        results.append(
            {
                "type": rouge_type,
                "us_per_pair": 1e6 * medians["corpus"] / len(predictions),
                "long_ms": 1e3 * medians["long"],
                "x_rouge1": medians["corpus"] / medians["rouge1"],
            }
        )
    return results


def render_types(results: list[Row], n_pairs: int, long_tokens: int) -> str:
    lines = [
        f"| type | µs per pair ({n_pairs:,} corpus pairs) | × rouge1 (same rounds) "
        f"| ms for one {long_tokens:,}-token pair |",
        "|---|---|---|---|",
    ]
    lines += [
        f"| {r['type']} | {r['us_per_pair']:.1f} | {r['x_rouge1']:.1f} | {r['long_ms']:.1f} |"
        for r in results
    ]
    return "\n".join(lines)


# ------------------------------------------------------------------ languages

LANGUAGE_TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def _test_texts() -> object:
    """The test suite's sentences in each language (tests/support/language_texts.py)."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    import support.language_texts

    return support.language_texts


def language_pairs(code: str, n_pairs: int) -> tuple[list[str], list[str]]:
    """``n_pairs`` distinct pairs from the test suite's sentences of ``code``: three shuffled
    sentences with a fifth of their words (characters, in unspaced scripts) dropped."""
    import random

    texts = _test_texts()
    unspaced = code in texts.UNSPACED
    rng = random.Random(code)

    def text() -> str:
        sentences = rng.sample(texts.SENTENCES[code], 3)
        units = [u for s in sentences for u in (s if unspaced else s.split())]
        return ("" if unspaced else " ").join(u for u in units if rng.random() > 0.2)

    return [text() for _ in range(n_pairs)], [text() for _ in range(n_pairs)]


def _cold_run(scorer: object, predictions: list[str], references: list[str]) -> Callable:
    """A run that first empties the segmenter's and stemmer's caches: every distinct text is
    segmented and every distinct word stemmed anew, as in a fresh process."""
    from rouge_plus.plan import get_stemmer
    from rouge_plus.text import segmenters

    choice = scorer.plan.language

    def run() -> object:
        if choice.segmenter:
            segmenters._cached_segmenter(choice.segmenter).cache_clear()
        if choice.stemmer:
            get_stemmer(choice.stemmer).cache_clear()
        return scorer.score_examples(predictions, references)

    return run


def languages_mode(args: argparse.Namespace) -> list[Row]:
    """µs per pair of each language's tokens (segmentation and stemming with cold caches)
    against the default tokens, and the XL-Sum scorer's loop over the first 200 pairs."""
    from rouge_plus import RougeScorer
    from rouge_plus.text.languages import LANGUAGES

    texts = _test_texts()
    from support.xlsum_oracle import ORACLE_LANGUAGES, oracle_scorer

    n = args.pairs or 1000
    results = []
    for code in sorted(texts.SENTENCES):
        language = LANGUAGES[code]
        predictions, references = language_pairs(code, n)
        scorers = {
            "default": RougeScorer(LANGUAGE_TYPES),
            "own": RougeScorer(LANGUAGE_TYPES, language=code),
        }
        if language.stemmer:
            scorers["stemmed"] = RougeScorer(LANGUAGE_TYPES, language=code, use_stemmer=True)
        for scorer in scorers.values():
            scorer.score_examples(predictions[:10], references[:10])  # load the packages
        runs = {name: _cold_run(s, predictions, references) for name, s in scorers.items()}
        if code in ORACLE_LANGUAGES:
            oracle = oracle_scorer(code, tuple(LANGUAGE_TYPES), language.stemmer is not None)
            pairs = list(zip(predictions[:200], references[:200], strict=True))
            runs["xlsum"] = lambda o=oracle, p=pairs: [o.score(r, q) for q, r in p]
        medians = alternating_medians(runs, args.rounds)
        row: Row = {"language": code, "segmenter": language.segmenter or "-"}
        for name, seconds in medians.items():
            row[name] = 1e6 * seconds / (200 if name == "xlsum" else n)
        results.append(row)
    return results


def render_languages(results: list[Row]) -> str:
    def cell(row: Row, name: str) -> str:
        return f"{row[name]:,.1f}" if name in row else "-"

    lines = [
        "| language | default tokens | language's tokens | + stemming | XL-Sum scorer | × |",
        "|---|---|---|---|---|---|",
    ]
    for r in results:
        ours = r.get("stemmed", r["own"])
        ratio = f"{r['xlsum'] / ours:.0f}" if "xlsum" in r else "-"
        lines.append(
            f"| {r['language']} | {cell(r, 'default')} | {cell(r, 'own')} "
            f"| {cell(r, 'stemmed')} | {cell(r, 'xlsum')} | {ratio} |"
        )
    return "\n".join(lines)
