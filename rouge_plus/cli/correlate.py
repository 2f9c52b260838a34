"""``rouge-plus correlate``: which ROUGE agrees with your human judgments, and how surely?

Reads a JSON Lines or CSV file of rows ``system, document, human[, prediction, references]``,
scores each prediction against its references with the ROUGE types asked for, and prints the
correlation of each ROUGE score (precision, recall and F) with the human scores at each level
asked for, with a bootstrap interval (:func:`rouge_plus.correlate`). Columns that already hold
metric scores can be correlated too (``--metric-columns``). Examples::

    rouge-plus correlate --input judged.jsonl --rouge-types rouge1 rouge2 rougeL --use-stemmer
    rouge-plus correlate --input judged.csv --human-column pyramid --level system summary \\
        --method kendall pearson --resample both --n-resamples 10000 --format json

Scoring flags (passed to :func:`rouge_plus.score`): ``--rouge-types``, ``--use-stemmer``,
``--profile``, ``--tokenizer``, ``--remove-stopwords``.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys
from pathlib import Path

from ..meta import correlate, matrices
from ..meta.coefficients import METHODS
from ..meta.correlation import LEVELS
from ..meta.resampling import RESAMPLING
from ..options import RUNTIME, SCORING
from ..readers import InputError, iter_records, looks_like_jsonl, reference_cell
from ..scorer import score_examples
from .common import add_option_flags, score_options

HELP = "correlate ROUGE scores with human judgments, with bootstrap intervals"
FORMATS = ("table", "json", "csv")
_NUMBER = ("precision", "recall", "fmeasure")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags of ``rouge-plus correlate``."""
    columns = parser.add_argument_group("input")
    columns.add_argument("--input", type=Path, required=True, help="JSON Lines or CSV file")
    columns.add_argument("--system-column", default="system")
    columns.add_argument("--document-column", default="document")
    columns.add_argument("--human-column", default="human")
    columns.add_argument("--prediction-column", default="prediction")
    columns.add_argument("--reference-column", default="references")
    columns.add_argument(
        "--metric-columns",
        nargs="*",
        default=[],
        help="columns of precomputed metric scores to correlate as well",
    )
    add_option_flags(parser, "scoring options (when the rows hold predictions)", (SCORING, RUNTIME))
    stats = parser.add_argument_group("correlation")
    stats.add_argument("--level", nargs="+", choices=LEVELS, default=["system", "summary"])
    stats.add_argument("--method", nargs="+", choices=METHODS, default=["kendall"])
    stats.add_argument(
        "--resample", choices=(*RESAMPLING, "none"), default="both", help="bootstrap over"
    )
    stats.add_argument("--n-resamples", type=int, default=1000)
    stats.add_argument("--confidence-level", type=float, default=0.95)
    stats.add_argument("--seed", type=int, default=0)
    parser.add_argument("--format", choices=FORMATS, default="table")


def run(args: argparse.Namespace) -> int:
    """Score, correlate and print; 0, or 2 with a message on a bad input."""
    try:
        rows = _rows(args)
    except (InputError, KeyError, ValueError, TypeError) as error:
        print(f"rouge-plus correlate: error: {error}", file=sys.stderr)
        return 2
    names = [name for name in rows[0] if name not in ("system", "document", "human")]
    systems, documents, found = matrices(rows, ["human", *names])
    human = found.pop("human")
    table = []
    for level in args.level:
        for method in args.method:
            results = correlate(
                found,
                human,
                level,
                method,
                resample=None if args.resample == "none" else args.resample,
                n_resamples=args.n_resamples,
                confidence_level=args.confidence_level,
                seed=args.seed,
            )
            table += [
                {"metric": name, **{k: _plain(v) for k, v in result._asdict().items()}}
                for name, result in results.items()
            ]
    sys.stdout.write(render(table, args.format, len(systems), len(documents)))
    return 0


def _rows(args: argparse.Namespace) -> list[dict]:
    """Per input row: system, document, human score, and every metric score asked for."""
    records = list(iter_records(args.input, jsonl=looks_like_jsonl(str(args.input), "")))
    rows = []
    for where, record in records:
        row = {
            "system": record[args.system_column],
            "document": record[args.document_column],
            "human": _number(record[args.human_column], where),
        }
        row.update({name: _number(record[name], where) for name in args.metric_columns})
        rows.append(row)
    if records and args.prediction_column in records[0][1]:
        options = score_options(args, args.parser)
        predictions = [str(record[args.prediction_column]) for _, record in records]
        references = [
            reference_cell(record[args.reference_column], where) for where, record in records
        ]
        columns = score_examples(predictions, references, options).columns()
        for name in options.type_names:
            for number in _NUMBER:
                for row, value in zip(rows, columns[f"{name}_{number}"], strict=True):
                    row[f"{name}_{number}"] = value
    return rows


def _number(value: object, where: str) -> float:
    if value is None or value == "":
        return float("nan")
    try:
        return float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise InputError(f"{where}: {value!r} is not a number") from None


def _plain(value: object) -> object:
    return None if isinstance(value, float) and value != value else value


def render(table: list[dict], form: str, n_systems: int, n_documents: int) -> str:
    """The correlations as an aligned table, JSON or CSV."""
    if form == "json":
        return (
            json.dumps(
                {"systems": n_systems, "documents": n_documents, "correlations": table}, indent=2
            )
            + "\n"
        )
    if form == "csv":
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=list(table[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(table)
        return out.getvalue()
    lines = [f"{n_systems} systems x {n_documents} documents"]
    header = f"{'metric':<22} {'level':<8} {'method':<10} {'r':>7}  interval"
    lines += [header, "-" * len(header)]
    for row in table:
        interval = "" if row["lower"] is None else f"[{row['lower']:.3f}, {row['upper']:.3f}]"
        value = "nan" if row["value"] is None else f"{row['value']:.3f}"
        lines.append(
            f"{row['metric']:<22} {row['level']:<8} {row['method']:<10} {value:>7}  {interval}"
        )
    return "\n".join(lines) + "\n"
