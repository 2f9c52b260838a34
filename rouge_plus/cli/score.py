"""``rouge-plus score`` (also ``rouge-plus`` with no subcommand): score predictions against
references from text files, JSON Lines, CSV, a saved dataset or the bundled sample.

Examples::

    rouge-plus score --demo
    rouge-plus --predictions preds.txt --references refs_a.txt refs_b.txt --use-stemmer
    rouge-plus --jsonl data.jsonl --rouge-types rouge1 rougeLsum --format json
    rouge-plus --csv data.csv --reference-column summary --per-example --format csv -o scores.csv

Every option of :class:`~rouge_plus.options.ScoreOptions` that the command line takes is a flag,
derived from its field's metadata: a new option reaches the command line without changes here.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path

from tqdm import tqdm

from ..options import ScoreOptions
from ..readers import (
    Corpus,
    corpus_chunks,
    iter_records,
    read_demo,
    read_saved_dataset,
    read_text_files,
)
from ..results import ExampleScores
from ..scorer import score_stream
from .common import (
    PROG,
    TEXT_FILES,
    add_option_flags,
    check_one_stdin,
    quiet_core_logger,
    run_and_write,
    warnings_to_stderr,
)
from .common import score_options as read_score_options
from .report import FORMATS, render_aggregate, render_per_example

HELP = "score predictions against references (the default subcommand)"
DESCRIPTION = f"Score generated texts against references with the ROUGE family.\n\n{TEXT_FILES}"
EXAMPLES = """examples:
  rouge-plus --demo
  rouge-plus score --predictions preds.txt --references refs.txt --rouge-types rouge1 rougeLsum
  rouge-plus score --jsonl data.jsonl --use-stemmer --format json -o scores.json"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags of ``rouge-plus score``."""
    source = parser.add_argument_group("input (choose one)").add_mutually_exclusive_group(
        required=True
    )
    source.add_argument(
        "--predictions",
        type=Path,
        metavar="FILE",
        help="text file, one prediction per line (with --references); - reads stdin",
    )
    source.add_argument(
        "--jsonl", type=Path, metavar="FILE", help="JSON Lines file (- reads stdin)"
    )
    source.add_argument(
        "--csv", type=Path, metavar="FILE", help="CSV file with a header row (- reads stdin)"
    )
    source.add_argument(
        "--dataset", type=Path, metavar="PATH", help="a datasets dataset saved with save_to_disk"
    )
    source.add_argument("--demo", action="store_true", help="score the bundled sample")
    columns = parser.add_argument_group("input details")
    columns.add_argument(
        "--references",
        type=Path,
        nargs="+",
        action="extend",
        metavar="FILE",
        help="reference text file(s), one per reference per example",
    )
    columns.add_argument(
        "--prediction-column",
        default="prediction",
        metavar="NAME",
        help="JSON Lines, CSV or dataset column of the predictions (default: prediction)",
    )
    columns.add_argument(
        "--reference-column",
        default="references",
        metavar="NAME",
        help="column of the references: a text or a (JSON) list of texts per row "
        "(default: references)",
    )
    columns.add_argument("--split", metavar="NAME", help="split of a saved DatasetDict")

    add_option_flags(parser, "scoring options")

    output = parser.add_argument_group("output")
    output.add_argument(
        "--format",
        choices=FORMATS,
        default="table",
        help="table (rounded, with the signature), json or csv (full precision) (default: table)",
    )
    output.add_argument(
        "--per-example",
        action="store_true",
        help="one row per example (the option use_aggregator=False)",
    )
    output.add_argument("-o", "--output", type=Path, metavar="FILE", help="write here, not stdout")
    output.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="progress bar on stderr (default: when stderr is a terminal)",
    )
    output.add_argument(
        "--chunk-size",
        type=int,
        default=1000,
        metavar="N",
        help="rows scored at a time (default: 1000)",
    )


def _input_chunks(args: argparse.Namespace) -> tuple[Iterator[Corpus], int | None]:
    """The input in chunks of ``--chunk-size`` rows, and its number of rows when known.

    JSON Lines and CSV files are read as they are scored, so only a chunk of texts is in memory
    at a time (and the per-example scores), whatever the size of the file.
    """
    size = args.chunk_size
    columns = (args.prediction_column, args.reference_column)
    if args.jsonl is not None or args.csv is not None:
        jsonl = args.jsonl is not None
        records = iter_records(args.jsonl if jsonl else args.csv, jsonl=jsonl)
        return corpus_chunks(records, *columns, size), None
    if args.predictions is not None:
        with warnings_to_stderr():
            predictions, references = read_text_files(args.predictions, args.references)
    elif args.dataset is not None:
        predictions, references = read_saved_dataset(args.dataset, args.split, *columns)
    else:
        predictions, references = read_demo()
    starts = range(0, len(predictions), size)
    chunks = ((predictions[i : i + size], references[i : i + size]) for i in starts)
    return chunks, len(predictions)


def _score(
    chunks: Iterator[Corpus], total: int | None, options: ScoreOptions, args: argparse.Namespace
) -> ExampleScores:
    """Chunked scoring with a progress bar; the core's warnings become one line per chunk."""
    show = args.progress
    if show is None:
        show = sys.stderr.isatty() and (total is None or total > args.chunk_size)
    bar = tqdm(total=total, unit="ex", disable=not show, file=sys.stderr, desc=PROG)
    with warnings.catch_warnings(record=True) as caught, bar:
        warnings.simplefilter("always")

        def after_chunk(start: int, stop: int) -> None:
            for warning in caught:
                several = start > 0 or stop - start == args.chunk_size
                where = f"rows {start}-{stop - 1}: " if several else ""
                bar.write(f"{PROG}: warning: {where}{warning.message}", file=sys.stderr)
            caught.clear()
            bar.update(stop - start)

        return score_stream(chunks, options, on_chunk=after_chunk)


def _check_usage(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    """Flags that do not go with the chosen input: usage errors."""
    if args.chunk_size < 1:
        parser.error(f"--chunk-size must be at least 1, got {args.chunk_size}")
    if args.references and args.predictions is None:
        parser.error("--references goes with --predictions")
    if args.predictions is not None and not args.references:
        parser.error("--predictions needs at least one --references FILE")
    if args.predictions is not None:
        check_one_stdin(parser, [args.predictions, *args.references])


def run(args: argparse.Namespace) -> int:
    """Score the input and write the report; the exit status."""
    _check_usage(args, args.parser)
    options = read_score_options(args, args.parser)
    quiet_core_logger()

    def report() -> str:
        examples = _score(*_input_chunks(args), options, args)
        render = render_per_example if args.per_example else render_aggregate
        return render(examples, args.format) + "\n"

    return run_and_write(report, args.output)
