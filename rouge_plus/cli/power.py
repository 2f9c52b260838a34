"""``rouge-plus power``: how many documents does a paired test need to detect a gap?

From a pilot's per-document scores of two systems (two files of one number a line), their
differences (one file), or two systems of a shipped judged set scored here, prints the documents
each paired test needs to detect the pilot's gap at ``--significance`` with ``--power``, and the
power curve (:func:`rouge_plus.power_analysis`).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from ..corpus.power import TESTS, PowerAnalysis, power_analysis
from ..errors import InputError, OptionError
from ..meta.data import DATASETS, load
from ..options import RUNTIME, SCORING, ScoreOptions
from ..scorer import score_examples
from .common import add_option_flags, run_and_write, score_options

HELP = "the documents a paired test needs to detect a gap between two systems (power analysis)"
DESCRIPTION = (
    "How many documents does a paired test need to detect the gap between two systems that a "
    "pilot shows, at the tests' level --significance? Give the pilot's per-document scores of "
    "the two systems (--scores), their paired differences (--differences), or two systems of a "
    "shipped judged set to score here (--dataset and --systems, with the scoring flags; the "
    "first ROUGE type is used). The "
    "permutation and bootstrap tests of 'rouge-plus compare' are simulated on test sets drawn "
    "from the pilot; the paired t-test's power is analytic (needs SciPy)."
)
EXAMPLES = """examples:
  rouge-plus power --scores system_a.txt system_b.txt --power 0.9
  rouge-plus power --differences deltas.txt --test t --significance 0.01 --format json
  rouge-plus power --dataset realsumm --systems pnbert_out_bert_lstm_pn_rl \\
      bart_out --rouge-types rouge2 --number fmeasure"""
FORMATS = ("table", "json")
NUMBERS = ("precision", "recall", "fmeasure")
CURVE = (25, 50, 100, 200, 400, 800, 1600, 3200)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags of ``rouge-plus power``."""
    pilot = parser.add_argument_group("the pilot (one of)").add_mutually_exclusive_group(
        required=True
    )
    pilot.add_argument(
        "--scores",
        nargs=2,
        type=Path,
        metavar=("A", "B"),
        help="two files of one score a line: systems A and B on the same documents",
    )
    pilot.add_argument(
        "--differences", type=Path, metavar="FILE", help="a file of paired differences A - B"
    )
    pilot.add_argument(
        "--dataset", choices=sorted(DATASETS), help="a shipped judged set whose systems to score"
    )
    parser.add_argument(
        "--systems", nargs=2, metavar=("A", "B"), help="with --dataset: the two systems' names"
    )
    parser.add_argument(
        "--number", choices=NUMBERS, default="fmeasure", help="with --dataset: which score"
    )
    add_option_flags(parser, "scoring options (with --dataset)", (SCORING, RUNTIME))
    stats = parser.add_argument_group("power analysis")
    stats.add_argument(
        "--significance",
        type=float,
        default=0.05,
        metavar="ALPHA",
        help="the tests' level alpha, two-sided (--alpha is the F-measure's)",
    )
    stats.add_argument("--power", type=float, default=0.8, help="the power to reach")
    stats.add_argument(
        "--test", nargs="+", choices=TESTS, default=list(TESTS), help="the paired tests"
    )
    stats.add_argument(
        "--n-simulations", type=int, default=1000, help="simulated test sets per document count"
    )
    stats.add_argument(
        "--n-resamples", type=int, default=1000, help="resamples of each simulated test"
    )
    stats.add_argument("--seed", type=int, default=0, help="seed of the simulations")
    stats.add_argument(
        "--max-documents", type=int, default=100_000, help="search no further than this"
    )
    stats.add_argument(
        "--curve", nargs="+", type=int, default=list(CURVE), help="document counts of the curve"
    )
    parser.add_argument("--format", choices=FORMATS, default="table", help="output format")


def run(args: argparse.Namespace) -> int:
    """Read or score the pilot, analyse and print."""
    options = score_options(args, args.parser)
    if (args.dataset is None) != (args.systems is None):
        args.parser.error("--dataset and --systems go together")
    return run_and_write(lambda: _report(args, options), None)


def _report(args: argparse.Namespace, options: ScoreOptions) -> str:
    scores = _pilot(args, options)
    results = [
        power_analysis(
            *scores,
            alpha=args.significance,
            power=args.power,
            test=test,
            n_simulations=args.n_simulations,
            n_resamples=args.n_resamples,
            seed=args.seed,
            max_documents=args.max_documents,
            curve=args.curve,
        )
        for test in args.test
    ]
    if args.format == "json":
        return json.dumps([result.to_dict() for result in results], indent=2) + "\n"
    return render(results)


def _pilot(args: argparse.Namespace, options: ScoreOptions) -> list[np.ndarray]:
    """The pilot's scores of A and B, or their differences."""
    if args.differences is not None:
        return [_numbers(args.differences)]
    if args.scores is not None:
        return [_numbers(path) for path in args.scores]
    data = load(args.dataset)
    rows = []
    for name in args.systems:
        if name not in data.systems:
            raise OptionError(f"{args.dataset} has no system {name!r}; systems: {data.systems}")
        rows.append(data.systems.index(name))
    predictions = [data.summaries[i][j] for i in rows for j in range(len(data.documents))]
    references = [list(refs) for _ in rows for refs in data.references]
    column = f"{options.type_names[0]}_{args.number}"
    scores = np.array(score_examples(predictions, references, options).columns()[column])
    return list(scores.reshape(2, len(data.documents)))


def _numbers(path: Path) -> np.ndarray:
    """One number a line (blank lines skipped)."""
    numbers = []
    with path.open(encoding="utf-8") as lines:
        for line_number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                numbers.append(float(line))
            except ValueError:
                message = f"{path}:{line_number}: {line.strip()!r} is not a number"
                raise InputError(message) from None
    return np.array(numbers)


def render(results: list[PowerAnalysis]) -> str:
    """The answers and the power curves as an aligned table."""
    first = results[0]
    lines = [
        f"pilot: {first.pilot_documents} documents, gap {first.gap:+.4f} (A - B), "
        f"sd {first.sd:.4f}, effect size {first.effect_size:.3f}",
        f"two-sided paired tests at alpha {first.alpha:g}, power {first.power:g}",
        "",
    ]
    counts = [n for n, _ in first.curve]
    header = f"{'test':<12} {'documents':>10}  " + " ".join(f"{'n=' + str(n):>7}" for n in counts)
    lines += [header, "-" * len(header)]
    for result in results:
        needed = "more" if result.documents is None else str(result.documents)
        curve = " ".join(f"{p:>7.2f}" for _, p in result.curve)
        lines.append(f"{result.test:<12} {needed:>10}  {curve}")
    if any(result.documents is None for result in results):
        lines.append("more: more documents than --max-documents")
    return "\n".join(lines) + "\n"
