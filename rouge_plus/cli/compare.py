"""``rouge-plus compare``: is a system's ROUGE really better than a baseline's?

Examples::

    rouge-plus compare --baseline base.txt --systems new.txt tuned=tuned.txt --references refs.txt
    rouge-plus compare --jsonl data.jsonl --baseline-column base --system-columns new tuned \\
        --reference-column references --format json

Every scoring flag of ``rouge-plus score`` applies (all systems are scored with the same
options), but the corpus reporting's: here ``--n-resamples``, ``--seed`` and
``--confidence-level`` set the paired test of :func:`rouge_plus.compare`, which this command runs
and prints.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ..comparison import STATISTICS, Comparison, compare
from ..corpus.significance import METHODS, check_test_settings
from ..errors import RougePlusError
from ..options import RUNTIME, SCORING
from ..readers import STDIN, corpus_from_records, iter_records, read_text_lines, source_name
from .common import (
    TEXT_FILES,
    add_option_flags,
    check_one_stdin,
    given_options,
    quiet_core_logger,
    run_and_write,
    score_options,
    warnings_to_stderr,
)

HELP = "test whether systems' ROUGE differs from a baseline's (paired tests)"
DESCRIPTION = (
    "Test whether each system's ROUGE differs from a baseline's on the same references "
    "(paired approximate randomization or paired bootstrap).\n\n"
    f"{TEXT_FILES} A system named NAME=FILE is shown as NAME, otherwise by its file's stem."
)
EXAMPLES = """examples:
  rouge-plus compare --baseline base.txt --systems new.txt tuned=tuned.txt --references refs.txt
  rouge-plus compare --jsonl data.jsonl --baseline-column base --system-columns new tuned \\
      --reference-column references --format json"""
FORMATS = ("table", "json", "csv")

System = tuple[str, list[str]]  # (name, one prediction per example)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags of ``rouge-plus compare``."""
    source = parser.add_argument_group("input (choose one)").add_mutually_exclusive_group(
        required=True
    )
    source.add_argument(
        "--baseline",
        metavar="[NAME=]FILE",
        help="text file, one baseline prediction per line (with --systems and --references)",
    )
    source.add_argument(
        "--jsonl", type=Path, metavar="FILE", help="JSON Lines file (- reads stdin)"
    )
    source.add_argument(
        "--csv", type=Path, metavar="FILE", help="CSV file with a header row (- reads stdin)"
    )
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
        "--baseline-column",
        default="prediction",
        metavar="COL",
        help="column of the baseline's predictions (default: prediction)",
    )
    columns.add_argument(
        "--system-columns", nargs="+", metavar="COL", help="column(s) of the systems, one each"
    )
    columns.add_argument(
        "--reference-column",
        nargs="+",
        default=["references"],
        metavar="COL",
        help="a text or a (JSON) list of texts per row; several columns add up "
        "(default: references)",
    )

    test = parser.add_argument_group("the paired test")
    test.add_argument(
        "--method",
        choices=METHODS,
        default="permutation",
        help="paired approximate randomization (permutation) or paired bootstrap "
        "(default: permutation)",
    )
    test.add_argument(
        "--n-resamples",
        type=int,
        default=10_000,
        metavar="N",
        help="permutations or bootstrap resamples of the test (default: 10000)",
    )
    test.add_argument(
        "--seed", type=int, default=0, metavar="SEED", help="seed of the test (default: 0)"
    )
    test.add_argument(
        "--statistic",
        choices=tuple(STATISTICS),
        default="f",
        help="the score compared: precision, recall or F (default: f)",
    )
    test.add_argument(
        "--confidence-level",
        type=float,
        default=0.95,
        metavar="LEVEL",
        help="level of the interval of each delta; p below 1 - LEVEL is starred (default: 0.95)",
    )

    # The corpus reporting's options do not apply: the paired test reports.
    add_option_flags(parser, "scoring options (the same for every system)", (SCORING, RUNTIME))

    output = parser.add_argument_group("output")
    output.add_argument(
        "--format",
        choices=FORMATS,
        default="table",
        help="table (rounded, with the signature), json or csv (default: table)",
    )
    output.add_argument("-o", "--output", type=Path, metavar="FILE", help="write here, not stdout")


def _named(spec: str) -> tuple[str, Path]:
    """``NAME=FILE`` or ``FILE`` (named by its stem, ``-`` as ``stdin``)."""
    name, equals, path = spec.partition("=")
    if equals and name and path:
        return name, Path(path)
    return source_name(Path(spec)) if spec == STDIN else Path(spec).stem, Path(spec)


def _read_text_systems(args: argparse.Namespace) -> tuple[System, list[System], list[list[str]]]:
    """The baseline, the systems and the references from text files."""
    named = [_named(spec) for spec in [args.baseline, *args.systems]]
    with warnings_to_stderr():
        columns = read_text_lines([path for _, path in named] + list(args.references))
    texts = [(name, column) for (name, _), column in zip(named, columns, strict=False)]
    references = [list(row) for row in zip(*columns[len(named) :], strict=True)]
    return texts[0], texts[1:], references


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
        files = [_named(spec)[1] for spec in [args.baseline, *args.systems]]
        check_one_stdin(parser, [*files, *args.references])
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
    except RougePlusError as error:
        parser.error(str(error))
    score_options(args, parser)  # bad options fail now, before any file is read


def render(result: Comparison, output_format: str) -> str:
    """The comparison as a table, JSON or CSV, ending in a newline."""
    text = {"table": result.to_table, "json": result.to_json, "csv": result.to_csv}[output_format]()
    return text if text.endswith("\n") else text + "\n"


def run(args: argparse.Namespace) -> int:
    """Compare the systems and write the report; the exit status."""
    _check_usage(args, args.parser)
    quiet_core_logger()
    read = _read_text_systems if args.baseline is not None else _read_column_systems

    def report() -> str:
        (baseline_name, baseline), systems, references = read(args)
        with warnings_to_stderr():
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
                **given_options(args),
            )
        return render(result, args.format)

    return run_and_write(report, args.output)
