"""Corpus files: reading and validating an uploaded CSV/JSONL corpus, writing the download.

Everything a user uploads is checked here (size, encoding, syntax, columns), so that a problem
becomes an :class:`InputError` naming the row or line instead of a trace.
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Sequence
from importlib import resources
from pathlib import Path

from ..chunked import example_columns
from ..jsonl import JsonlError, json_objects
from ..results import ExampleScores
from .errors import InputError

MAX_UPLOAD_MB = 5
MAX_UPLOAD_BYTES = MAX_UPLOAD_MB * 1024 * 1024

# Column names guessed for the pickers, case-insensitively, first match wins.
PREDICTION_COLUMNS = ("prediction", "predictions", "candidate", "summary", "hypothesis", "output")
REFERENCE_COLUMNS = ("references", "reference", "target", "gold", "label", "highlights")

SCORES_FILE_NAME = "rouge_plus_scores.csv"


def read_rows(path: str | os.PathLike) -> list[dict]:
    """Rows of a CSV or JSONL file (JSON Lines when the name ends in .jsonl/.json or the
    first character is ``{``); ``InputError`` for a large, non-UTF-8 or malformed file."""
    size = os.path.getsize(path)
    if size > MAX_UPLOAD_BYTES:  # checked before reading a byte
        raise InputError(
            f"The file is {size / 1024 / 1024:.1f} MB; the limit is {MAX_UPLOAD_MB} MB. "
            "Score larger corpora with the rouge-plus command line or Python API."
        )
    raw = Path(path).read_bytes()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InputError(
            f"The file is not UTF-8 text (byte {error.start} cannot be decoded). "
            "Save it as UTF-8 and upload it again."
        ) from None
    if Path(path).suffix.lower() in (".jsonl", ".json") or text.lstrip().startswith("{"):
        return parse_jsonl(text)
    return parse_csv(text)


def parse_jsonl(text: str) -> list[dict]:
    """One JSON object per non-blank line."""
    try:
        rows = [row for _, row in json_objects(text.splitlines())]
    except JsonlError as error:
        raise InputError(f"Line {error.line} is {error.problem}.") from None
    if not rows:
        raise InputError("The JSONL text has no rows.")
    return rows


def parse_csv(text: str) -> list[dict]:
    """Rows of a CSV text with a header line."""
    try:
        rows = list(csv.DictReader(io.StringIO(text)))
    except csv.Error as error:
        raise InputError(f"The CSV file cannot be read: {error}.") from None
    if not rows:
        raise InputError("The CSV file has no data rows (a header line and one row at least).")
    return rows


def load_source(upload: str | None, pasted: str | None) -> list[dict]:
    """Rows from the uploaded file, else from the pasted JSON Lines."""
    if upload:
        return read_rows(upload)
    if pasted and pasted.strip():
        if len(pasted.encode("utf-8")) > MAX_UPLOAD_BYTES:
            raise InputError(f"The pasted text is larger than {MAX_UPLOAD_MB} MB.")
        return parse_jsonl(pasted)
    raise InputError("Upload a CSV or JSONL file, or paste JSON Lines, first.")


def sample_corpus_text() -> str:
    """The small JSONL corpus shipped with rouge_plus (empty if this install lacks it)."""
    sample = resources.files("rouge_plus") / "data" / "sample.jsonl"
    return sample.read_text(encoding="utf-8") if sample.is_file() else ""


def column_names(rows: list[dict]) -> list[str]:
    """Every column of any row, in order of first appearance."""
    return list(dict.fromkeys(key for row in rows for key in row if key is not None))


def guess_column(columns: Sequence[str], preferred: Sequence[str]) -> str | None:
    """The first of ``preferred`` among ``columns`` (ignoring case), as spelled in ``columns``."""
    lowered = {column.lower(): column for column in columns}
    return next((lowered[name] for name in preferred if name in lowered), None)


def extract_pairs(
    rows: list[dict], prediction_column: str | None, reference_columns: Sequence[str]
) -> tuple[list[str], list[list[str]]]:
    """Predictions and reference lists from the chosen columns.

    A reference cell may hold one text or (JSONL) a list of texts; several reference columns
    give several references per row.
    """
    if not prediction_column or not reference_columns:
        raise InputError("Choose the prediction column and at least one reference column.")
    predictions: list[str] = []
    references: list[list[str]] = []
    for number, row in enumerate(rows, start=1):
        missing = [c for c in (prediction_column, *reference_columns) if row.get(c) is None]
        if missing:
            raise InputError(f"Row {number} has no column {missing[0]!r}.")
        prediction = row[prediction_column]
        if not isinstance(prediction, str):
            raise InputError(f"Row {number}: {prediction_column!r} must be text.")
        row_refs: list[str] = []
        for column in reference_columns:
            cell = row[column]
            cell_refs = [cell] if isinstance(cell, str) else cell
            if not isinstance(cell_refs, list) or not all(isinstance(r, str) for r in cell_refs):
                raise InputError(f"Row {number}: {column!r} must be a text or a list of texts.")
            row_refs.extend(cell_refs)
        if not row_refs:
            raise InputError(f"Row {number} has an empty list of references.")
        predictions.append(prediction)
        references.append(row_refs)
    return predictions, references


def write_scores_csv(examples: ExampleScores, directory: str | os.PathLike) -> Path:
    """Per-example ``<type>_precision``/``_recall``/``_fmeasure`` columns, after a ``row``
    number, as ``rouge_plus_scores.csv`` in ``directory``."""
    columns = example_columns(examples)
    path = Path(directory) / SCORES_FILE_NAME
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["row", *columns])
        for row, values in enumerate(zip(*columns.values(), strict=True)):
            writer.writerow([row, *map(repr, values)])
    return path
