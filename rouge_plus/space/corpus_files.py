"""The corpus tab's data: an uploaded or pasted corpus (read with :mod:`rouge_plus.readers`),
the column pickers' guesses, and the per-example download.

Everything a user uploads is checked (size, encoding, syntax, columns), so that a problem
becomes an :class:`~rouge_plus.readers.InputError` naming the row or line instead of a trace.
"""

from __future__ import annotations

import atexit
import contextlib
import csv
import functools
import os
import shutil
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from ..errors import InputError
from ..readers import Record, column_names, decode, looks_like_jsonl, parse_records
from ..results import ExampleScores
from .limits import MAX_UPLOAD_BYTES, MAX_UPLOAD_MB

# How long a download stays in our folder: Gradio copies it into its own cache (which it empties
# itself, see page.DELETE_CACHE) as soon as the request returns.
DOWNLOAD_KEEP_S = 60

# Column names guessed for the pickers, case-insensitively, first match wins.
PREDICTION_COLUMNS = ("prediction", "predictions", "candidate", "summary", "hypothesis", "output")
REFERENCE_COLUMNS = ("references", "reference", "target", "gold", "label", "highlights")

SCORES_FILE_NAME = "rouge_plus_scores.csv"
PASTED = "pasted text"


def read_upload(path: str | os.PathLike) -> list[Record]:
    """Rows of an uploaded CSV or JSONL file; ``InputError`` for a large, non-UTF-8 or
    malformed file."""
    size = os.path.getsize(path)
    if size > MAX_UPLOAD_BYTES:  # checked before reading a byte
        raise InputError(
            f"The file is {size / 1024 / 1024:.1f} MB; the limit is {MAX_UPLOAD_MB} MB. "
            "Score larger corpora with the rouge-plus command line or Python API."
        )
    name = Path(path).name
    text = decode(Path(path).read_bytes(), name)
    return parse_records(text, name, jsonl=looks_like_jsonl(name, text))


def load_source(upload: str | None, pasted: str | None) -> list[Record]:
    """Rows from the uploaded file, else from the pasted JSON Lines."""
    if upload:
        return read_upload(upload)
    if pasted and pasted.strip():
        if len(pasted.encode("utf-8", "surrogatepass")) > MAX_UPLOAD_BYTES:
            raise InputError(f"The pasted text is larger than {MAX_UPLOAD_MB} MB.")
        return parse_records(pasted, PASTED, jsonl=True)
    raise InputError("Upload a CSV or JSONL file, or paste JSON Lines, first.")


def guess_column(columns: Sequence[str], preferred: Sequence[str]) -> str | None:
    """The first of ``preferred`` among ``columns`` (ignoring case), as spelled in ``columns``."""
    lowered = {column.lower(): column for column in columns}
    return next((lowered[name] for name in preferred if name in lowered), None)


def chosen_columns(
    records: Sequence[Record], prediction: str | None, references: Sequence[str] | None
) -> tuple[str, list[str]]:
    """The prediction and reference columns: as chosen, or where none is chosen yet (data
    pasted and scored before the pickers were filled), the guesses the pickers would show;
    ``InputError`` naming the data's columns when there is neither."""
    columns = column_names(records)
    prediction = prediction or guess_column(columns, PREDICTION_COLUMNS)
    guessed = guess_column(columns, REFERENCE_COLUMNS)
    references = list(references or ([guessed] if guessed else []))
    if not prediction or not references:
        missing = "prediction column" if not prediction else "reference column"
        raise InputError(
            f"Choose the {missing}: no column is named like one. {columns_note(columns)}"
        )
    return prediction, references


def columns_note(columns: Sequence[str]) -> str:
    """The data's columns, as the status line and the messages name them."""
    return f"The data's columns: {', '.join(columns)}." if columns else "The data has no columns."


@functools.cache
def _download_root() -> Path:
    root = Path(tempfile.mkdtemp(prefix="rouge_plus_downloads_"))
    atexit.register(shutil.rmtree, root, True)
    return root


def download_folder() -> Path:
    """A new folder for one request's download, in one folder per process that is removed at
    exit; the folders of earlier requests older than :data:`DOWNLOAD_KEEP_S` go now."""
    root = _download_root()
    cutoff = time.time() - DOWNLOAD_KEEP_S
    for old in root.iterdir():
        with contextlib.suppress(FileNotFoundError):
            if old.stat().st_mtime < cutoff:
                shutil.rmtree(old, ignore_errors=True)
    return Path(tempfile.mkdtemp(dir=root))


def write_scores_csv(examples: ExampleScores, directory: str | os.PathLike) -> Path:
    """Per-example ``<type>_precision``/``_recall``/``_fmeasure`` columns, after a ``row``
    number, as ``rouge_plus_scores.csv`` in ``directory``."""
    columns = examples.columns()
    path = Path(directory) / SCORES_FILE_NAME
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["row", *columns])
        for row, values in enumerate(zip(*columns.values(), strict=True)):
            writer.writerow([row, *map(repr, values)])
    return path
