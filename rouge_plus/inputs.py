"""Checking and normalizing what users pass as predictions and references.

Everything that can be wrong with the input is caught here, with the row index in the message,
so the scoring code below only ever sees ``list[str]`` and ``list[list[str]]``.
"""

from __future__ import annotations

import bisect
import itertools
from array import array
from collections.abc import Callable, Iterable, Mapping

from .errors import InputError, InputTypeError


class Batch:
    """Validated input: one prediction and one or more references per row.

    Rows with one reference each (the common case) are kept as one flat list of texts, so
    building a batch costs no list per row; :attr:`references` makes those lists on demand."""

    __slots__ = ("predictions", "_references", "_one_each")

    def __init__(self, predictions: list[str], references: list[list[str]]) -> None:
        self.predictions = predictions
        self._references: list[list[str]] | None = references
        self._one_each: list[str] | None = None

    @classmethod
    def one_reference_each(cls, predictions: list[str], references: list[str]) -> Batch:
        """The batch whose row ``i`` has the single reference ``references[i]``."""
        batch = cls(predictions, None)  # type: ignore[arg-type]
        batch._one_each = references
        return batch

    def __len__(self) -> int:
        return len(self.predictions)

    @property
    def references(self) -> list[list[str]]:
        """The references of every row."""
        if self._references is None:
            self._references = [[text] for text in self._one_each]
        return self._references

    @property
    def n_pairs(self) -> int:
        if self._one_each is not None:
            return len(self._one_each)
        return sum(map(len, self._references))

    def pair_rows(self) -> array:
        """The row index of every (prediction, reference) pair, pairs in row order, as an
        int64 ``array``."""
        if self._one_each is not None:
            return array("q", range(len(self)))
        sizes = map(len, self._references)
        rows = map(itertools.repeat, range(len(self)), sizes)
        return array("q", itertools.chain.from_iterable(rows))

    @property
    def reference_texts(self) -> list[str]:
        """Every reference, in row order."""
        if self._one_each is not None:
            return self._one_each
        return list(itertools.chain.from_iterable(self._references))

    @property
    def texts(self) -> list[str]:
        """The predictions, then every reference in row order."""
        return self.predictions + self.reference_texts

    def rows(self, start: int, stop: int) -> Batch:
        if self._one_each is not None:
            return Batch.one_reference_each(
                self.predictions[start:stop], self._one_each[start:stop]
            )
        return Batch(self.predictions[start:stop], self._references[start:stop])

    def text_place(self, start: int = 0) -> Callable[[int], str]:
        """Names text ``i`` of :attr:`texts` in messages, counting rows from ``start`` (the first
        row of this batch within the user's input)."""
        first_pairs: list[int] = []  # each row's first reference among all; made when needed

        def place(i: int) -> str:
            if i < len(self):
                return f"predictions[{start + i}]"
            pair = i - len(self)
            if self._one_each is not None:
                return f"references[{start + pair}][0]"
            if not first_pairs:
                first_pairs.extend(itertools.accumulate(map(len, self._references), initial=0))
            row = bisect.bisect_right(first_pairs, pair) - 1
            return f"references[{start + row}][{pair - first_pairs[row]}]"

        return place


def _as_list(values: object, argument: str) -> list:
    if values is None:
        raise InputTypeError(f"{argument} is None; expected a list of strings")
    if isinstance(values, (str, bytes)):
        single = type(values).__name__
        raise InputTypeError(f"{argument} must be a list of texts, not a single {single}")
    if isinstance(values, Mapping) or hasattr(values, "columns"):
        # Iterating a dict or a DataFrame gives its keys or column labels, not its texts.
        kind = type(values).__name__
        raise InputTypeError(
            f"{argument} is a {kind}; expected a list of texts (for a table, pass one column)"
        )
    if hasattr(values, "tolist"):  # NumPy arrays, pandas Series, pyarrow arrays
        values = values.tolist()
    elif hasattr(values, "to_pylist"):  # pyarrow chunked arrays
        values = values.to_pylist()
    if not isinstance(values, Iterable):
        raise InputTypeError(f"{argument} must be a list of texts, got {type(values).__name__}")
    return list(values)


_STR = {str}


def _check_text(value: object, where: str) -> str:
    if isinstance(value, str):
        return value
    if value is None:
        raise InputTypeError(f"{where} is None; expected a str")
    raise InputTypeError(f"{where} is a {type(value).__name__}; expected a str")


def _texts(values: list, argument: str, first: int = 0) -> list[str]:
    if set(map(type, values)) == _STR:  # the common case, checked at C speed
        return values
    return [_check_text(value, f"{argument}[{i}]") for i, value in enumerate(values, first)]


def normalize_texts(values: object, argument: str, first: int = 0) -> list[str]:
    """Validate a list of texts (a list, an array or a column of str) and return it as a
    ``list[str]``; messages name the argument and the item (``argument[i]``, counting from
    ``first``)."""
    return _texts(_as_list(values, argument), argument, first)


def _reference_row(value: object, row: int) -> list[str]:
    if type(value) is list and value and all(type(ref) is str for ref in value):
        return value
    if isinstance(value, str):
        return [value]
    if value is None:
        raise InputTypeError(f"references[{row}] is None; expected a str or a list of str")
    if isinstance(value, bytes) or not isinstance(value, Iterable):
        raise InputTypeError(
            f"references[{row}] is a {type(value).__name__}; expected a str or a list of str"
        )
    refs = normalize_texts(value, f"references[{row}]")
    if not refs:
        raise InputError(f"references[{row}] is an empty list; every prediction needs a reference")
    return refs


def normalize_inputs(predictions: object, references: object, first_row: int = 0) -> Batch:
    """Validate predictions and references and bring them to one shape.

    ``references`` may hold one text per row or a list of texts per row (the two may be mixed).
    Messages number the rows from ``first_row`` (the place of these rows in a longer input).
    """
    preds = _texts(_as_list(predictions, "predictions"), "predictions", first_row)
    refs = _as_list(references, "references")
    if len(preds) != len(refs):
        raise InputError(
            f"predictions and references differ in length: {len(preds)} predictions, "
            f"{len(refs)} references"
        )
    if not preds:
        raise InputError("predictions and references are empty: there is nothing to score")
    if set(map(type, refs)) == _STR:
        return Batch.one_reference_each(preds, refs)
    if _lists_of_texts(refs):
        return Batch(preds, refs)
    return Batch(preds, [_reference_row(value, row) for row, value in enumerate(refs, first_row)])


def _lists_of_texts(rows: list) -> bool:
    """Whether every row is a non-empty list of str: the common multi-reference case, checked
    with C-level loops only."""
    return (
        set(map(type, rows)) == {list}
        and all(rows)
        and set(map(type, itertools.chain.from_iterable(rows))) == {str}
    )
