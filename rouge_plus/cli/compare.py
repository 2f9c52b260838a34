"""``rouge-plus compare``: is a system's ROUGE really better than a baseline's?

Examples::

    rouge-plus compare --baseline base.txt --systems new.txt tuned=tuned.txt --references refs.txt
    rouge-plus compare --jsonl data.jsonl --baseline-column base --system-columns new tuned \\
        --reference-column references --format json

Every scoring flag of ``rouge-plus`` applies (all systems are scored with the same options), but
the corpus aggregation's: here ``--n-resamples``, ``--seed`` and ``--confidence-level`` set the
paired test of :func:`rouge_plus.compare`, which this command runs and prints.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path

from ..comparison import STATISTICS, Comparison, compare
from ..corpus.significance import METHODS, check_test_settings
from ..readers import InputError, corpus_from_records, iter_records, read_text_files
from .main import (
    _DEST_PREFIX,
    PROG,
    _given_options,
    _option_flags,
    _Parser,
    _quiet_core_logger,
    _score_options,
    run_and_write,
)

# Scoring flags that configure the corpus aggregation, not the scores being compared; the names
# of the first three are the paired test's settings here.
_NOT_COMPARE_FLAGS = {
    "aggregation",
    "confidence_level",
    "n_resamples",
    "seed",
    "return_precision_recall",
}
FORMATS = ("table", "json", "csv")

System = tuple[str, list[str]]  # (name, one prediction per example)


class _CompareParser(_Parser):
    def error(self, message: str) -> None:  # type: ignore[override]
        """Usage errors: one line naming this subcommand's help, exit status 2."""
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """The flags of ``rouge-plus compare``."""
    parser = _CompareParser(
        prog=f"{PROG} compare",
        description="Test whether each system's ROUGE differs from a baseline's on the same "
        "references (paired approximate randomization or paired bootstrap).",
        epilog="Text files hold one text per line; inside a line, the two characters \\n mark "
        "a sentence break (for rougeLsum) and \\\\ a backslash. A system named NAME=FILE is "
        "shown as NAME, otherwise by its file's stem.",
    )
    source = parser.add_argument_group("input (choose one)").add_mutually_exclusive_group(
        required=True
    )
    source.add_argument(
        "--baseline",
        metavar="[NAME=]FILE",
        help="text file, one baseline prediction per line (with --systems and --references)",
    )
    source.add_argument("--jsonl", type=Path, metavar="FILE", help="JSON Lines file")
    source.add_argument("--csv", type=Path, metavar="FILE", help="CSV file with a header row")
    files = parser.add_argument_group("text files")
    files.add_argument(
        "--systems", nargs="+", metavar="[NAME=]FILE", help="text file(s), one per system"
    )
    files.add_argument(
        "--references",
        type=Path,
        nargs="+",
        metavar="FILE",
        help="reference text file(s), one per reference per example",
    )
    columns = parser.add_argument_group("columns (with --jsonl or --csv)")
    columns.add_argument(
        "--baseline-column", default="prediction", metavar="COL", help="(default: prediction)"
    )
    columns.add_argument("--system-columns", nargs="+", metavar="COL", help="one per system")
    columns.add_argument(
        "--reference-column",
        nargs="+",
        default=["references"],
        metavar="COL",
        help="a text or a (JSON) list of texts per row; several columns add up "
        "(default: references)",
    )

    test = parser.add_argument_group("the paired test")
    test.add_argument("--method", choices=METHODS, default="permutation")
    test.add_argument("--n-resamples", type=int, default=10_000, metavar="N")
    test.add_argument("--seed", type=int, default=0, metavar="SEED")
    test.add_argument(
        "--statistic", choices=tuple(STATISTICS), default="f", help="precision, recall or F"
    )
    test.add_argument(
        "--confidence-level",
        type=float,
        default=0.95,
        metavar="LEVEL",
        help="level of the interval of each delta; p below 1 - LEVEL is starred",
    )

    scoring = parser.add_argument_group("scoring options (the same for every system)")
    for name, (flag, keywords) in _option_flags().items():
        if name not in _NOT_COMPARE_FLAGS:
            scoring.add_argument(flag, dest=_DEST_PREFIX + name, **{"default": None, **keywords})

    output = parser.add_argument_group("output")
    output.add_argument("--format", choices=FORMATS, default="table")
    output.add_argument("-o", "--output", type=Path, metavar="FILE", help="write here, not stdout")
    return parser


def _named(spec: str) -> tuple[str, Path]:
    """``NAME=FILE`` or ``FILE`` (named by its stem)."""
    name, equals, path = spec.partition("=")
    if equals and name and path:
        return name, Path(path)
    return Path(spec).stem, Path(spec)


def _read_text_systems(args: argparse.Namespace) -> tuple[System, list[System], list[list[str]]]:
    """The baseline, the systems and the references from text files."""
    baseline_name, baseline_path = _named(args.baseline)
    baseline, references = read_text_files(baseline_path, args.references)
    systems = []
    for name, path in map(_named, args.systems):
        predictions, _ = read_text_files(path, [])
        if len(predictions) != len(baseline):
            raise InputError(
                f"{path} has {len(predictions)} lines but {baseline_path} has {len(baseline)}; "
                "every file needs one line per example"
            )
        systems.append((name, predictions))
    return (baseline_name, baseline), systems, references


def _read_column_systems(args: argparse.Namespace) -> tuple[System, list[System], list[list[str]]]:
    """The baseline, the systems and the references from columns of a JSONL or CSV file."""
    path = args.jsonl if args.jsonl is not None else args.csv
    records = list(iter_records(path, jsonl=args.jsonl is not None))
    baseline, references = corpus_from_records(records, args.baseline_column, args.reference_column)
    systems = [
        (column, corpus_from_records(records, column, args.reference_column)[0])
        for column in args.system_columns
    ]
    return (args.baseline_column, baseline), systems, references


def _check_usage(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    """Flags that do not go with the chosen input, and bad test settings: usage errors."""
    if args.baseline is not None:
        if not args.systems or not args.references:
            parser.error("--baseline needs --systems FILE [FILE ...] and --references FILE")
        if args.system_columns:
            parser.error("--system-columns goes with --jsonl or --csv, not --baseline")
        names = [_named(spec)[0] for spec in args.systems]
    else:
        if args.systems or args.references:
            parser.error("--systems and --references go with --baseline, not --jsonl or --csv")
        if not args.system_columns:
            parser.error("--jsonl and --csv need --system-columns COL [COL ...]")
        names = args.system_columns
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        parser.error(f"two systems are named {repeated[0]!r}; name them with NAME=FILE")
    try:
        check_test_settings(args.method, args.n_resamples, args.seed, args.confidence_level)
        _score_options(args)  # bad options fail now, before any file is read
    except (TypeError, ValueError) as error:
        parser.error(str(error))


def render(result: Comparison, output_format: str) -> str:
    """The comparison as a table, JSON or CSV, ending in a newline."""
    text = {"table": result.to_table, "json": result.to_json, "csv": result.to_csv}[output_format]()
    return text if text.endswith("\n") else text + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``rouge-plus compare``; returns the exit status (0 ok, 1 bad input, 2 bad usage)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    _check_usage(args, parser)
    _quiet_core_logger()
    read = _read_text_systems if args.baseline is not None else _read_column_systems

    def report() -> str:
        (baseline_name, baseline), systems, references = read(args)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = compare(
                baseline,
                dict(systems),
                references,
                method=args.method,
                n_resamples=args.n_resamples,
                seed=args.seed,
                statistic=args.statistic,
                confidence_level=args.confidence_level,
                baseline_name=baseline_name,
                **_given_options(args),
            )
        for message in dict.fromkeys(str(warning.message) for warning in caught):
            print(f"{PROG}: warning: {message}", file=sys.stderr)
        return render(result, args.format)

    return run_and_write(report, args.output)
