"""``rouge-plus correlate``: which ROUGE agrees with your human judgments, and how surely?

Reads a JSON Lines or CSV file of rows ``system, document, human[, prediction, references]``
(or takes a shipped judged set, ``--dataset``), scores each prediction against its references
with the ROUGE types asked for, and prints the correlation of each ROUGE score (precision,
recall and F) with the human scores at each level asked for, with a bootstrap interval
(:func:`rouge_plus.correlate`). Columns that already hold metric scores can be correlated too
(``--metric-columns``). Examples::

    rouge-plus correlate --input judged.jsonl --rouge-types rouge1 rouge2 rougeL --use-stemmer
    rouge-plus correlate --dataset summeval --references 1 --human-dimension coherence
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
import math
from pathlib import Path

from ..errors import InputError, OptionError
from ..meta import correlate, matrices
from ..meta.coefficients import METHODS
from ..meta.correlation import LEVELS
from ..meta.data import DATASETS, load
from ..meta.resampling import RESAMPLING
from ..options import RUNTIME, SCORING, ScoreOptions
from ..readers import column_value, corpus_from_records, iter_records, looks_like_jsonl
from ..scorer import score_examples
from .common import add_option_flags, run_and_write, score_options

HELP = "correlate ROUGE scores with human judgments, with bootstrap intervals"
DESCRIPTION = (
    "Score each prediction of a file of human judgments (or of a shipped judged set: "
    "REALSumm, SummEval, RoSE, RoSE's LLM summaries) against its references and print the "
    "correlation of each ROUGE score (precision, recall, F) with the human scores at each "
    "level, with a bootstrap interval. The file has one row per (system, document): the "
    "system, the document, the human score, and the prediction and its references (or columns "
    "of scores already computed, --metric-columns)."
)
EXAMPLES = """examples:
  rouge-plus correlate --dataset realsumm --rouge-types rouge1 rouge2 --use-stemmer
  rouge-plus correlate --dataset summeval --references 1 --human-dimension coherence
  rouge-plus correlate --input judged.jsonl --rouge-types rouge1 rouge2 rougeL --use-stemmer
  rouge-plus correlate --input judged.csv --human-column pyramid --level system summary \\
      --method kendall pearson --resample both --n-resamples 10000 --format json"""
FORMATS = ("table", "json", "csv")
_NUMBER = ("precision", "recall", "fmeasure")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags of ``rouge-plus correlate``."""
    source = parser.add_argument_group("input (one of)").add_mutually_exclusive_group(
        required=True
    )
    source.add_argument("--input", type=Path, help="JSON Lines or CSV file of judgments")
    source.add_argument("--dataset", choices=sorted(DATASETS), help="a shipped judged set")
    shipped = parser.add_argument_group("with --dataset")
    shipped.add_argument(
        "--human-dimension",
        metavar="NAME",
        help="the human scores to correlate with (default: the set's first: REALSumm's "
        "litepyramid, SummEval's relevance, RoSE's acu)",
    )
    shipped.add_argument(
        "--references",
        type=int,
        metavar="N",
        help="score against each document's first N references (default: all of them)",
    )
    columns = parser.add_argument_group("columns (with --input)")
    columns.add_argument("--system-column", default="system", help="the system's name")
    columns.add_argument("--document-column", default="document", help="the document's id")
    columns.add_argument("--human-column", default="human", help="the human score")
    columns.add_argument(
        "--prediction-column", default="prediction", help="the text to score (if present)"
    )
    columns.add_argument(
        "--reference-column", default="references", help="its reference or list of references"
    )
    columns.add_argument(
        "--metric-columns",
        nargs="*",
        default=[],
        help="columns of precomputed metric scores to correlate as well (with --dataset: "
        "names of the set's stored scores)",
    )
    add_option_flags(parser, "scoring options (when the rows hold predictions)", (SCORING, RUNTIME))
    stats = parser.add_argument_group("correlation")
    stats.add_argument(
        "--level",
        nargs="+",
        choices=LEVELS,
        default=["system", "summary"],
        help="system: of systems' mean scores; summary: per document, then averaged; global: "
        "of all cells",
    )
    stats.add_argument(
        "--method", nargs="+", choices=METHODS, default=["kendall"], help="correlation coefficient"
    )
    stats.add_argument(
        "--resample",
        choices=(*RESAMPLING, "none"),
        default="both",
        help="what the bootstrap interval resamples (none: no interval)",
    )
    stats.add_argument("--n-resamples", type=int, default=1000, help="bootstrap resamples")
    stats.add_argument(
        "--confidence-level", type=float, default=0.95, help="of the bootstrap interval"
    )
    stats.add_argument("--seed", type=int, default=0, help="seed of the resampling")
    parser.add_argument("--format", choices=FORMATS, default="table", help="output format")


def run(args: argparse.Namespace) -> int:
    """Score, correlate and print; the exit status of :func:`.common.run_and_write` (a bad flag
    is a usage error before the file is read)."""
    options = score_options(args, args.parser)
    if args.dataset is None and (args.human_dimension or args.references):
        args.parser.error("--human-dimension and --references go with --dataset")
    return run_and_write(lambda: _report(args, options), None)


def _report(args: argparse.Namespace, options: ScoreOptions) -> str:
    """The correlations of every metric at every level and method asked for, rendered."""
    rows = _rows(args, options)
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
    return render(table, args.format, len(systems), len(documents))


def _rows(args: argparse.Namespace, options: ScoreOptions) -> list[dict]:
    """Per input row: system, document, human score, and every metric score asked for."""
    if args.dataset is not None:
        return _dataset_rows(args, options)
    records = list(iter_records(args.input, jsonl=looks_like_jsonl(str(args.input), "")))
    rows = [
        {
            "system": _label(record, args.system_column, where),
            "document": _label(record, args.document_column, where),
            "human": _number(record, args.human_column, where),
            **{name: _number(record, name, where) for name in args.metric_columns},
        }
        for where, record in records
    ]
    if args.prediction_column in records[0][1]:
        corpus = corpus_from_records(records, args.prediction_column, args.reference_column)
        _add_scores(rows, *corpus, options)
    return rows


def _dataset_rows(args: argparse.Namespace, options: ScoreOptions) -> list[dict]:
    """The rows of a shipped judged set, each summary scored against its references."""
    data = load(args.dataset)
    dimension = args.human_dimension or data.primary
    if dimension not in data.human:
        raise OptionError(
            f"{args.dataset} has no human dimension {dimension!r}; it has {', '.join(data.human)}"
        )
    unknown = [name for name in args.metric_columns if name not in data.metrics]
    if unknown:
        stored = ", ".join(sorted(data.metrics)) or "none"
        raise OptionError(f"{args.dataset} stores no score {unknown[0]!r}; it stores: {stored}")
    rows = [
        {
            "system": system,
            "document": document,
            "human": data.human[dimension][i, j],
            **{name: data.metrics[name][i, j] for name in args.metric_columns},
        }
        for i, system in enumerate(data.systems)
        for j, document in enumerate(data.documents)
    ]
    _add_scores(rows, *data.pairs(args.references), options)
    return rows


def _add_scores(
    rows: list[dict], predictions: list[str], references: list, options: ScoreOptions
) -> None:
    """Every ROUGE score asked for of each row's prediction, into the row."""
    columns = score_examples(predictions, references, options).columns()
    for name in options.type_names:
        for number in _NUMBER:
            for row, value in zip(rows, columns[f"{name}_{number}"], strict=True):
                row[f"{name}_{number}"] = value


def _label(record: dict, column: str, where: str) -> object:
    """A system's or a document's name."""
    value = column_value(record, column, where)
    if value is None:
        raise InputError(f"{where}: {column!r} is null, not the name of a system or document")
    return value


def _number(record: dict, column: str, where: str) -> float:
    """A score; an empty cell is a missing one (NaN)."""
    value = column_value(record, column, where)
    if value is None or value == "":
        return float("nan")
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise InputError(f"{where}: {column!r} is {value!r}, not a number") from None
    if math.isinf(number):
        raise InputError(f"{where}: {column!r} is {value!r}, not a finite number")
    return number


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
