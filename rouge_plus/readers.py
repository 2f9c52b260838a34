"""Reading predictions and references from files: text files, JSON Lines, CSV, saved datasets.

One set of rules for the command line and the Space. A row gives one prediction (a text) and
its references: a reference cell holds a text, a list of texts, or (in CSV and text cells) a JSON
list of texts; several reference columns add up. Every problem raises :class:`InputError` with a
message that names the file and the line or row at fault.

A file is read a line at a time, never more than :data:`MAX_LINE_BYTES` of one line (an endless
line, such as ``/dev/zero``, is refused there); ``-`` names standard input.
"""

from __future__ import annotations

import contextlib
import csv
import io
import itertools
import json
import re
import sys
import warnings
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO

from .data import read_bundled_text
from .errors import InputError, MissingExtraError

Corpus = tuple[list[str], list[list[str]]]
Record = tuple[str, dict]  # (where: file and line or row, the row's columns)

# The longest line (with its line end) of a file, and the longest CSV cell, in bytes.
MAX_LINE_BYTES = 64 * 2**20
STDIN = "-"  # the file name that reads standard input

_ESCAPE = re.compile(r"\\([n\\])")
_UNESCAPED = {"n": "\n", "\\": "\\"}


def unescape_line(line: str) -> str:
    r"""In a plain-text file every line is one text: turn the ``\n`` escape into a newline (a
    sentence break for rougeLsum) and ``\\`` into a backslash; keep others as is."""
    if "\\" not in line:
        return line
    return _ESCAPE.sub(lambda match: _UNESCAPED[match[1]], line)


def source_name(path: Path) -> str:
    """How messages name the file ``path``: ``stdin`` for ``-``."""
    return "stdin" if str(path) == STDIN else str(path)


@contextlib.contextmanager
def open_input(path: Path) -> Iterator[IO[bytes]]:
    """The file ``path`` open for reading bytes; ``-`` is standard input (left open after)."""
    if str(path) == STDIN:
        yield sys.stdin.buffer
    else:
        with Path(path).open("rb") as handle:
            yield handle


def decode(raw: bytes, source: str) -> str:
    """UTF-8 text (a byte-order mark is dropped); ``InputError`` naming ``source`` otherwise."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InputError(
            f"{source}: not UTF-8 text (byte {error.start} cannot be decoded); save it as UTF-8"
        ) from None


def json_records(lines: Iterable[str], source: str) -> Iterator[Record]:
    """One JSON object per non-blank line, each named ``source:line``."""
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = f"{source}:{number}"
        try:
            row = json.loads(line)
        except json.JSONDecodeError as error:
            raise InputError(f"{where}: not valid JSON ({error.msg})") from None
        except RecursionError:
            raise InputError(f"{where}: JSON nested too deeply") from None
        except ValueError as error:  # e.g. an integer too long to convert
            raise InputError(f"{where}: not valid JSON ({error})") from None
        if not isinstance(row, dict):
            raise InputError(f"{where}: not a JSON object (got {type(row).__name__})")
        yield where, row


def csv_records(lines: Iterable[str], source: str) -> Iterator[Record]:
    """Rows of CSV lines with a header line, each named ``source: row N``; a header that names
    a column twice, or a row with fewer cells than the header, is refused."""
    lines = iter(lines)
    first = next(lines, "")
    if first.lstrip().startswith("{"):
        raise InputError(f"{source}: this looks like JSON Lines, not CSV: use --jsonl")
    # A cell may be as long as a line (the module's default is 131,072 characters); the limit
    # is the csv module's own, only ever raised here.
    csv.field_size_limit(max(csv.field_size_limit(), MAX_LINE_BYTES))
    try:
        reader = csv.DictReader(itertools.chain([first], lines))
        header = reader.fieldnames or []
        repeated = [name for name in dict.fromkeys(header) if name and header.count(name) > 1]
        if repeated:
            raise InputError(f"{source}: the header names the column {repeated[0]!r} twice")
        for number, row in enumerate(reader, start=1):
            missing = [name for name in header if row[name] is None]
            if missing:
                cells = len(header) - len(missing)
                raise InputError(
                    f"{source}: row {number} has {cells} cell{'s' * (cells != 1)} but the header "
                    f"has {len(header)} columns: no {', '.join(map(repr, missing))}"
                )
            yield f"{source}: row {number}", row
    except csv.Error as error:
        raise InputError(f"{source}: cannot be read as CSV ({error})") from None


def looks_like_jsonl(name: str, text: str) -> bool:
    """JSON Lines when the name ends in .jsonl/.json or the text starts with ``{``."""
    return Path(name).suffix.lower() in (".jsonl", ".json") or text.lstrip().startswith("{")


def _records(lines: Iterable[str], source: str, jsonl: bool) -> Iterator[Record]:
    """The rows of JSON Lines or CSV lines; ``InputError`` when there are none."""
    empty = True
    for record in json_records(lines, source) if jsonl else csv_records(lines, source):
        empty = False
        yield record
    if empty:
        raise InputError(f"{source}: no rows")


def parse_records(text: str, source: str, *, jsonl: bool) -> list[Record]:
    """The rows of a JSON Lines or CSV text; ``InputError`` when there are none."""
    return list(_records(io.StringIO(text, newline=""), source, jsonl))


def iter_records(path: Path, *, jsonl: bool) -> Iterator[Record]:
    """The rows of a JSON Lines or CSV file (``-``: standard input), read as they are needed (a
    corpus larger than memory streams through); ``InputError`` names the file and the line or
    row at fault."""
    source = source_name(path)
    with open_input(path) as handle:
        yield from _records(_utf8_lines(handle, source), source, jsonl)


def _utf8_lines(handle: IO[bytes], source: str) -> Iterator[str]:
    """The lines of a UTF-8 file with their line ends (a byte-order mark is dropped), split at
    ``\\n`` only; ``InputError`` naming ``source`` and the byte or line at fault otherwise.

    No more than :data:`MAX_LINE_BYTES` of a line is ever read: a longer one is refused."""
    offset = 0
    for number in itertools.count():
        raw = handle.readline(MAX_LINE_BYTES + 1)
        if not raw:
            return
        if len(raw) > MAX_LINE_BYTES:
            raise InputError(
                f"{source}:{number + 1}: a line longer than {MAX_LINE_BYTES // 2**20} MiB; "
                "is this a text file?"
            )
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            raise InputError(
                f"{source}: not UTF-8 text (byte {offset + error.start} cannot be decoded); "
                "save it as UTF-8"
            ) from None
        offset += len(raw)
        yield line.removeprefix("\ufeff") if number == 0 else line


def column_names(records: Sequence[Record]) -> list[str]:
    """Every column of any row, in order of first appearance."""
    return list(dict.fromkeys(key for _, row in records for key in row if key is not None))


def reference_cell(value: object, where: str) -> list[str]:
    """A reference cell: a text, or a non-empty list of texts (a JSON list when it comes as
    text)."""
    if isinstance(value, str) and value.lstrip().startswith("["):
        try:
            value = json.loads(value)
        except (ValueError, RecursionError):  # also a number too long to convert
            return [value]  # a text that happens to start with "["
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and value and all(isinstance(ref, str) for ref in value):
        return value
    raise InputError(f"{where}: references must be a text or a non-empty list of texts")


def corpus_from_records(
    records: Sequence[Record], prediction: str, references: str | Sequence[str]
) -> Corpus:
    """Predictions and reference lists from the chosen columns of each row."""
    if not records:
        raise InputError("the input has no rows")
    reference_columns = [references] if isinstance(references, str) else list(references)
    if not prediction or not reference_columns:
        raise InputError("choose the prediction column and at least one reference column")
    preds, refs = [], []
    for where, row in records:
        text = _cell(row, prediction, where)
        if not isinstance(text, str):
            raise InputError(f"{where}: {prediction!r} is a {type(text).__name__}, not a text")
        preds.append(text)
        refs.append(
            [
                ref
                for name in reference_columns
                for ref in reference_cell(_cell(row, name, where), where)
            ]
        )
    return preds, refs


def corpus_chunks(
    records: Iterable[Record], prediction: str, references: str | Sequence[str], size: int
) -> Iterator[Corpus]:
    """:func:`corpus_from_records` over ``size`` records at a time, read as they are needed."""
    records = iter(records)
    while chunk := list(itertools.islice(records, size)):
        yield corpus_from_records(chunk, prediction, references)


def column_value(row: dict, name: str, where: str) -> object:
    """The cell of column ``name`` of the row at ``where``; ``InputError`` listing the row's
    columns when it has none of that name."""
    if name not in row:
        columns = ", ".join(str(key) for key in row if key is not None)
        raise InputError(f"{where}: no column {name!r} (columns: {columns})")
    return row[name]


def _cell(row: dict, name: str, where: str) -> object:
    value = column_value(row, name, where)
    if value is None:
        raise InputError(f"{where}: {name!r} is null, not a text")
    return value


def read_text_lines(paths: Sequence[Path]) -> list[list[str]]:
    r"""The texts of plain-text files, one list per file: one text per ``\n``-terminated line
    (``\r\n`` too), unescaped; ``InputError`` when the files differ in length or have no lines.

    Blank lines are empty texts, which score 0: one warning counts them."""
    columns = []
    for path in paths:
        with open_input(path) as handle:
            lines = _utf8_lines(handle, source_name(path))
            columns.append([unescape_line(_without_line_end(line)) for line in lines])
    first = paths[0]
    for path, column in zip(paths[1:], columns[1:], strict=True):
        if len(column) != len(columns[0]):
            raise InputError(
                f"{source_name(path)} has {len(column)} lines but {source_name(first)} has "
                f"{len(columns[0])}; every file needs one line per example"
            )
    if not columns[0]:
        raise InputError(f"{source_name(first)}: no lines")
    _warn_blank_lines(paths, columns)
    return columns


def _without_line_end(line: str) -> str:
    return line[:-1].removesuffix("\r") if line.endswith("\n") else line


def _warn_blank_lines(paths: Sequence[Path], columns: Sequence[list[str]]) -> None:
    """One warning counting the blank lines of every file, with the first of each."""
    counts, total = [], 0
    for path, column in zip(paths, columns, strict=True):
        blank = [number for number, text in enumerate(column, start=1) if not text.strip()]
        if blank:
            counts.append(f"{source_name(path)} has {len(blank)} (the first: line {blank[0]})")
            total += len(blank)
    if counts:
        noun = "line" if total == 1 else "lines"
        message = f"{total} blank {noun}, scored as empty texts (0): {'; '.join(counts)}"
        warnings.warn(message, UserWarning, stacklevel=2)


def read_text_files(predictions: Path, references: Sequence[Path]) -> Corpus:
    """One text per line; several reference files give several references per row."""
    preds, *columns = read_text_lines([predictions, *references])
    return preds, [list(row) for row in zip(*columns, strict=True)]


def read_saved_dataset(path: Path, split: str | None, prediction: str, reference: str) -> Corpus:
    """A ``datasets`` dataset saved with ``save_to_disk`` (a Dataset or a DatasetDict)."""
    try:
        import datasets
    except ImportError:
        raise MissingExtraError("reading a saved dataset", "evaluate") from None
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
    elif split is not None:
        raise InputError(f"{path}: --split {split!r} given, but this dataset has no splits")
    for name in (prediction, reference):
        if name not in loaded.column_names:
            raise InputError(
                f"{path}: no column {name!r} (columns: {', '.join(loaded.column_names)})"
            )
    preds = loaded[prediction]
    refs = [reference_cell(cell, f"{path}: row {i}") for i, cell in enumerate(loaded[reference])]
    return list(preds), refs


def sample_text() -> str:
    """The bundled sample corpus as JSON Lines: short news-style summaries with one to three
    references."""
    return read_bundled_text("sample.jsonl")


def read_demo() -> Corpus:
    """The bundled sample corpus."""
    records = parse_records(sample_text(), "sample.jsonl", jsonl=True)
    return corpus_from_records(records, "prediction", "references")
