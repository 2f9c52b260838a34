"""Per-example scores that carry their options, and the flat result dicts built from them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Union

from ._compiled import compiled
from .corpus.aggregation import Interval, bootstrap_interval, mean_scores, rouge155_interval
from .options import ScoreOptions

if TYPE_CHECKING:
    import numpy as np

# The columns of every per-example score array, in order.
SCORE_COLUMNS = ("precision", "recall", "fmeasure")

# A per-example table: an (n, 3) NumPy array, or the same float64 values row by row in a
# bytearray (what the NumPy-free lane of the scorer produces).
Table = Union["np.ndarray", bytearray]

# Column means of a row-major table without NumPy (scoring/_scores.c).
_compiled = compiled("scoring._scores")
_column_means = _compiled and _compiled.column_means


class ExampleScores:
    """Per-example scores: for each ROUGE type an ``(n, 3)`` array of precision, recall, F,
    with the options that produced them and their signature.

    Per-example scores do not depend on which other rows were scored with them, so the scores
    of chunks joined with :meth:`concatenate` equal those of one call over every row.

    The tables may arrive as bytearrays of float64 rows; :attr:`scores` turns them into NumPy
    arrays on first use (sharing their memory), while :meth:`aggregate` (mean),
    :meth:`per_example` and :meth:`columns` read them without importing NumPy.
    """

    __slots__ = ("_arrays", "_tables", "options", "signature")

    def __init__(self, scores: Mapping[str, Table], options: ScoreOptions, signature: str):
        self._tables = dict(scores)
        self._arrays: dict[str, np.ndarray] | None = None
        self.options = options
        self.signature = signature

    @property
    def scores(self) -> dict[str, np.ndarray]:
        """Per ROUGE type, the ``(n, 3)`` float64 array of precision, recall and F."""
        if self._arrays is None:
            self._arrays = {name: _as_array(table) for name, table in self._tables.items()}
        return self._arrays

    def __len__(self) -> int:
        return _rows(next(iter(self._tables.values())))

    def __repr__(self) -> str:
        return (
            f"ExampleScores({len(self)} rows, types={list(self._tables)}, "
            f"signature={self.signature!r})"
        )

    def result(self) -> dict[str, float] | dict[str, list[float]]:
        """What ``score()`` returns: the aggregate, or per-example lists when the options say
        ``use_aggregator=False``."""
        return self.aggregate() if self.options.use_aggregator else self.per_example()

    def aggregate(self, options: ScoreOptions | None = None) -> dict[str, float]:
        """The corpus result as a flat dict of Python floats (``result["rouge1"]`` is F).

        ``options`` overrides how to aggregate and which keys to report (by default, the
        options the scores were computed with).
        """
        options = options or self.options
        with_pr = options.return_precision_recall
        if options.aggregation != "bootstrap":
            return {
                key: float(value)
                for name, table in self._tables.items()
                for key, value in _flat_keys(name, _column_mean(table), with_pr).items()
            }
        result: dict[str, float] = {}
        for name, values in self.scores.items():
            interval = _interval(values, options)
            result.update(_flat_keys(name, interval.mid, with_pr))
            result.update(_flat_keys(name, interval.low, with_pr, "_low"))
            result.update(_flat_keys(name, interval.high, with_pr, "_high"))
        return {key: float(value) for key, value in result.items()}

    def per_example(self, options: ScoreOptions | None = None) -> dict[str, list[float]]:
        """Per-example lists of Python floats, keyed like :meth:`aggregate`."""
        with_pr = (options or self.options).return_precision_recall
        result: dict[str, list[float]] = {}
        for name, table in self._tables.items():
            result[name] = _column(table, 2)
            if with_pr:
                result.update(
                    {f"{name}_{col}": _column(table, i) for i, col in enumerate(SCORE_COLUMNS)}
                )
        return result

    def columns(self) -> dict[str, list[float]]:
        """Every ``<type>_precision``/``_recall``/``_fmeasure`` column as Python floats."""
        return {
            f"{name}_{column}": _column(table, i)
            for name, table in self._tables.items()
            for i, column in enumerate(SCORE_COLUMNS)
        }

    @classmethod
    def concatenate(cls, parts: Sequence[ExampleScores]) -> ExampleScores:
        """One :class:`ExampleScores` holding the rows of ``parts`` in order."""
        if not parts:
            raise ValueError("there is nothing to score: no rows")
        first = parts[0]
        if len(parts) == 1:
            return first
        scores = {
            name: join_tables([part._tables[name] for part in parts]) for name in first._tables
        }
        return cls(scores, first.options, first.signature)

    @classmethod
    def from_columns(
        cls, columns: Mapping[str, Sequence[float]], options: ScoreOptions
    ) -> ExampleScores:
        """Rebuild per-example arrays from ``<type>_precision``/``_recall``/``_fmeasure``
        columns (the inverse of :meth:`columns`)."""
        import numpy as np

        scores = {
            name: np.column_stack(
                [np.asarray(columns[f"{name}_{col}"], dtype=np.float64) for col in SCORE_COLUMNS]
            )
            for name in options.type_names
        }
        return cls(scores, options, options.signature())


def score_column_names(options: ScoreOptions) -> list[str]:
    """Names of the per-example columns, e.g. ``rouge1_precision``, in :meth:`columns` order."""
    return [f"{name}_{column}" for name in options.type_names for column in SCORE_COLUMNS]


def _rows(table: Table) -> int:
    return len(table) // 24 if isinstance(table, bytearray) else len(table)


def _as_array(table: Table) -> np.ndarray:
    import numpy as np

    if isinstance(table, bytearray):
        return np.frombuffer(table, dtype=np.float64).reshape(-1, 3)
    return table


def _column(table: Table, i: int) -> list[float]:
    """Column ``i`` of a table as Python floats."""
    if isinstance(table, bytearray):
        return memoryview(table).cast("d")[i::3].tolist()
    return table[:, i].tolist()


def _column_mean(table: Table) -> Sequence[float]:
    """The mean of each column: NumPy's ``mean(axis=0)``, or the same sums without NumPy."""
    if not isinstance(table, bytearray):
        return mean_scores(table)
    if _column_means is not None:
        return _column_means(table)
    values = memoryview(table).cast("d")
    sums = [0.0, 0.0, 0.0]
    for row in range(len(values) // 3):  # row by row, as NumPy sums a C-ordered array
        for column in range(3):
            sums[column] += values[3 * row + column]
    return [total / (len(values) // 3) for total in sums]


def join_tables(tables: list[Table]) -> Table:
    """The rows of ``tables`` in order, in one table."""
    if all(isinstance(table, bytearray) for table in tables):
        return bytearray().join(tables)
    import numpy as np

    return np.concatenate([_as_array(table) for table in tables])


def _flat_keys(name: str, values: Sequence[float], with_pr: bool, suffix: str = "") -> dict:
    keys = {f"{name}{suffix}": values[2]}
    if with_pr:
        keys.update({f"{name}_{col}{suffix}": values[i] for i, col in enumerate(SCORE_COLUMNS)})
    return keys


def _interval(values: np.ndarray, options: ScoreOptions) -> Interval:
    if options.rouge155:
        return rouge155_interval(
            values,
            alpha=options.fmeasure.as_alpha,
            confidence_level=options.confidence_level,
            n_resamples=options.n_resamples,
        )
    return bootstrap_interval(
        values,
        confidence_level=options.confidence_level,
        n_resamples=options.n_resamples,
        seed=options.seed,
    )
