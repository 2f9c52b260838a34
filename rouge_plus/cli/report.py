"""Rendering scores for the command line: an aligned table, JSON or CSV.

The JSON and CSV numbers are exactly what :func:`rouge_plus.score` returns for the same options,
each float written as its shortest round-trip form (Python's ``repr``: ``0.2``, and
``0.20000000000000004`` for the float next to it, such as the mean of three 0.2); CSV leaves out
the column ``<type>`` when ``<type>_fmeasure`` holds the same values. The table rounds to four
decimals for reading and always shows precision, recall and F (and the summed counts with
``--counts``), plus the reproducibility
signature.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Collection

from .._records import replace
from ..results import COUNT_COLUMNS, SCORE_COLUMNS, ExampleScores

FORMATS = ("table", "json", "csv")
_DECIMALS = 4


def _number(value: float) -> str:
    return f"{value:.{_DECIMALS}f}"


def aligned(rows: list[list[str]], right: Collection[int] | None = None) -> str:
    """Columns padded to a common width: those of ``right`` right-aligned (by default all but the
    first), the others left-aligned."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    right = range(1, len(widths)) if right is None else right
    lines = []
    for row in rows:
        cells = [
            cell.rjust(width) if i in right else cell.ljust(width)
            for i, (cell, width) in enumerate(zip(row, widths, strict=True))
        ]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def _csv_keys(keys: list[str]) -> list[str]:
    """The columns of a CSV: ``<type>`` only where no ``<type>_fmeasure`` repeats it."""
    present = set(keys)
    return [key for key in keys if f"{key}_fmeasure" not in present]


def _csv(rows: list[list[object]]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    return buffer.getvalue().rstrip("\n")


def _summary_table(examples: ExampleScores) -> str:
    options = examples.options
    full = examples.aggregate(replace(options, return_precision_recall=True))
    bootstrap = options.aggregation == "bootstrap"
    title = f"F ({options.fmeasure.label})"
    header = ["ROUGE", "Precision", "Recall", title]
    if bootstrap:
        level = f"{options.confidence_level:.0%}"
        header = ["ROUGE"] + [f"{name} [{level} CI]" for name in header[1:]]
    if options.return_counts:
        header += ["Matches", "Prediction total", "Reference total"]
    rows = [header]
    for name in options.type_names:
        cells = [name]
        for column in SCORE_COLUMNS:
            key = f"{name}_{column}"
            cell = _number(full[key])
            if bootstrap:
                cell += f" [{_number(full[key + '_low'])}, {_number(full[key + '_high'])}]"
            cells.append(cell)
        if options.return_counts:
            cells += [f"{full[f'{name}_{column}']:,.6g}" for column in COUNT_COLUMNS]
        rows.append(cells)
    noun = "example" if len(examples) == 1 else "examples"
    footer = f"{len(examples):,} {noun} · {examples.signature}"
    return f"{aligned(rows)}\n\n{footer}"


def render_aggregate(examples: ExampleScores, fmt: str) -> str:
    """The corpus scores in ``fmt`` (one of :data:`FORMATS`)."""
    if fmt == "table":
        return _summary_table(examples)
    result = examples.aggregate()
    if fmt == "json":
        document = {"n_examples": len(examples), "signature": examples.signature, "scores": result}
        return json.dumps(document, indent=2, ensure_ascii=False)
    keys = _csv_keys(list(result))
    return _csv([keys, [result[key] for key in keys]])


def render_per_example(examples: ExampleScores, fmt: str) -> str:
    """One row per example (keys as in ``score(..., use_aggregator=False)``) in ``fmt``."""
    columns = examples.per_example()
    keys = _csv_keys(list(columns)) if fmt == "csv" else list(columns)
    rows = [[index, *(columns[key][index] for key in keys)] for index in range(len(examples))]
    if fmt == "json":
        records = [dict(zip(["index", *keys], row, strict=True)) for row in rows]
        document = {"signature": examples.signature, "examples": records}
        return json.dumps(document, indent=2, ensure_ascii=False)
    if fmt == "csv":
        return _csv([["index", *keys], *rows])
    text_rows = [["#", *keys]] + [[str(row[0]), *map(_number, row[1:])] for row in rows]
    return f"{aligned(text_rows)}\n\n{examples.signature}"
