"""Reading predictions and references for the command line from text, JSONL, CSV or datasets.

Every reader returns ``(predictions, references)`` with one list of reference texts per row, and
raises :class:`InputError` with a message that names the file and the line or row at fault.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from importlib import resources
from pathlib import Path

from .jsonl import JsonlError, json_objects

Corpus = tuple[list[str], list[list[str]]]

# In plain-text files every line is one text; this two-character escape inside a line stands for
# a newline, i.e. a sentence break for rougeLsum. "\\" stands for one backslash.
SENTENCE_BREAK_ESCAPE = "\\n"


class InputError(Exception):
    """Input that cannot be read or does not have the expected shape."""


def unescape_line(line: str) -> str:
    r"""Turn the ``\n`` escape into a newline and ``\\`` into a backslash; keep others as is."""
    out = []
    i = 0
    while i < len(line):
        pair = line[i : i + 2]
        if pair in ("\\n", "\\\\"):
            out.append("\n" if pair == "\\n" else "\\")
            i += 2
        else:
            out.append(line[i])
            i += 1
    return "".join(out)


def _read_lines(path: Path) -> list[str]:
    with path.open(encoding="utf-8", newline="") as handle:
        text = handle.read()
    lines = text.splitlines()
    return [unescape_line(line) for line in lines]


def read_text_files(predictions: Path, references: Sequence[Path]) -> Corpus:
    """One text per line; several reference files give several references per row."""
    preds = _read_lines(predictions)
    columns = [_read_lines(path) for path in references]
    for path, column in zip(references, columns, strict=True):
        if len(column) != len(preds):
            raise InputError(
                f"{path} has {len(column)} lines but {predictions} has {len(preds)}; "
                "every file needs one line per example"
            )
    return preds, [list(row) for row in zip(*columns, strict=True)]


def _reference_cell(value: object, where: str) -> list[str]:
    """A reference cell: a text, or a list of texts (a JSON list when it comes as a string)."""
    if isinstance(value, str) and value.lstrip().startswith("["):
        try:
            value = json.loads(value)
        except json.JSONDecodeError:
            return [value]  # a text that happens to start with "["
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and value and all(isinstance(ref, str) for ref in value):
        return value
    raise InputError(f"{where}: references must be a text or a non-empty list of texts")


def _column(row: dict, name: str, where: str) -> object:
    if name not in row:
        raise InputError(f"{where}: no column {name!r} (columns: {', '.join(map(str, row))})")
    return row[name]


def _from_records(records: list[tuple[str, dict]], prediction: str, reference: str) -> Corpus:
    if not records:
        raise InputError("the input has no rows")
    preds, refs = [], []
    for where, row in records:
        text = _column(row, prediction, where)
        if not isinstance(text, str):
            raise InputError(f"{where}: {prediction!r} is a {type(text).__name__}, not a text")
        preds.append(text)
        refs.append(_reference_cell(_column(row, reference, where), where))
    return preds, refs


def read_jsonl(path: Path, prediction: str, reference: str) -> Corpus:
    """One JSON object per line; the reference column holds a text or a list of texts."""
    with path.open(encoding="utf-8") as handle:
        try:
            records = [(f"{path}:{number}", row) for number, row in json_objects(handle)]
        except JsonlError as error:
            raise InputError(f"{path}:{error.line}: {error.problem}") from None
    return _from_records(records, prediction, reference)


def read_csv(path: Path, prediction: str, reference: str) -> Corpus:
    """A CSV file with a header row; a reference cell may hold a JSON list of texts."""
    with path.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        records = [(f"{path}: row {number}", row) for number, row in enumerate(reader, start=1)]
    return _from_records(records, prediction, reference)


def read_saved_dataset(path: Path, split: str | None, prediction: str, reference: str) -> Corpus:
    """A ``datasets`` dataset saved with ``save_to_disk`` (a Dataset or a DatasetDict)."""
    try:
        import datasets
    except ImportError:
        raise InputError("--dataset needs the 'datasets' package: pip install datasets") from None
    if not path.exists():
        raise InputError(f"{path}: no such dataset directory")
    try:
        loaded = datasets.load_from_disk(str(path))
    except FileNotFoundError as error:
        raise InputError(f"{path}: not a dataset saved with save_to_disk ({error})") from None
    if isinstance(loaded, datasets.DatasetDict):
        if split is None and len(loaded) == 1:
            split = next(iter(loaded))
        if split not in loaded:
            wanted = "choose one with --split" if split is None else f"no split {split!r}"
            raise InputError(f"{path}: {wanted} (splits: {', '.join(loaded)})")
        loaded = loaded[split]
    for name in (prediction, reference):
        if name not in loaded.column_names:
            raise InputError(
                f"{path}: no column {name!r} (columns: {', '.join(loaded.column_names)})"
            )
    preds = loaded[prediction]
    refs = [_reference_cell(cell, f"{path}: row {i}") for i, cell in enumerate(loaded[reference])]
    return list(preds), refs


def read_demo() -> Corpus:
    """The bundled sample: short news-style summaries with one to three references."""
    sample = resources.files("rouge_plus") / "data" / "sample.jsonl"
    with resources.as_file(sample) as path:
        return read_jsonl(path, "prediction", "references")
