"""Per-example scores that carry their options, and the flat result dicts built from them."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from .corpus.aggregation import Interval, bootstrap_interval, rouge155_interval
from .errors import InputError, OptionError
from .options import ScoreOptions
from .scoring.tables import ScoreTable

TYPE_CHECKING = False
if TYPE_CHECKING:
    import numpy as np

# The columns of every per-example score array, in order.
SCORE_COLUMNS = ("precision", "recall", "fmeasure")
# The columns of every per-example count table (return_counts=True), in order: the units the
# prediction and the reference share (the LCS-based hit of ROUGE-L/Lsum/W, the skip-bigrams of
# ROUGE-S), and the units of each.
COUNT_COLUMNS = ("matches", "prediction_total", "reference_total")


class ExampleScores:
    """Per-example scores: for each ROUGE type an ``(n, 3)`` array of precision, recall, F,
    with the options that produced them and their signature.

    Per-example scores do not depend on which other rows were scored with them, so the scores
    of chunks joined with :meth:`concatenate` equal those of one call over every row.

    The scores are kept as :class:`~rouge_plus.scoring.tables.ScoreTable` buffers (``scores``
    may give tables, arrays, or bytearrays of float64 rows); :attr:`scores` views them as NumPy
    arrays on first use (sharing their memory), while :meth:`aggregate` (mean),
    :meth:`per_example` and :meth:`columns` read them without importing NumPy.

    ``counts``, kept when the options ask for them (``return_counts``, ``aggregation="micro"``),
    holds per type the table of each row's :data:`COUNT_COLUMNS`.
    """

    __slots__ = ("_arrays", "_tables", "counts", "options", "signature")

    def __init__(
        self,
        scores: Mapping[str, ScoreTable | np.ndarray | bytearray],
        options: ScoreOptions,
        signature: str,
        counts: Mapping[str, ScoreTable | np.ndarray | bytearray] | None = None,
    ):
        self._tables = _tables_of(scores)
        self.counts = None if counts is None else _tables_of(counts)
        self._arrays: dict[str, np.ndarray] | None = None
        self.options = options
        self.signature = signature

    @property
    def scores(self) -> dict[str, np.ndarray]:
        """Per ROUGE type, the ``(n, 3)`` float64 array of precision, recall and F."""
        if self._arrays is None:
            self._arrays = {name: table.array() for name, table in self._tables.items()}
        return self._arrays

    def __len__(self) -> int:
        return len(next(iter(self._tables.values())))

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
        result: dict[str, float] = {}
        if options.aggregation == "micro":
            for name, totals in self._count_sums("micro").items():
                result.update(_flat_keys(name, self._micro(name, totals, options), with_pr))
        elif options.aggregation == "mean":
            for name, table in self._tables.items():
                result.update(_flat_keys(name, table.means(), with_pr))
        else:
            for name, values in self.scores.items():
                interval = _interval(values, options)
                result.update(_flat_keys(name, interval.mid, with_pr))
                result.update(_flat_keys(name, interval.low, with_pr, "_low"))
                result.update(_flat_keys(name, interval.high, with_pr, "_high"))
        if options.return_counts:
            for name, totals in self._count_sums("return_counts=True").items():
                result.update(_count_keys(name, totals))
        return {key: float(value) for key, value in result.items()}

    def _kept_counts(self, wanted: str) -> dict[str, ScoreTable]:
        """The count tables, or an error naming ``wanted`` (what needs them) and the fix."""
        if self.counts is None:
            raise OptionError(
                f"{wanted}: these scores were computed without their counts; score with "
                'return_counts=True or aggregation="micro"'
            )
        return self.counts

    def _count_sums(self, wanted: str) -> dict[str, list[float]]:
        """Per type, each count column summed over the rows (exactly rounded)."""
        return {
            name: [math.fsum(column) for column in _count_columns(table)]
            for name, table in self._kept_counts(wanted).items()
        }

    def _micro(self, name: str, totals: list[float], options: ScoreOptions) -> list[float]:
        """Precision, recall and F of the corpus's summed counts, by the type's own formula
        (ROUGE-W: f⁻¹ of the summed weighted counts, as its pooled references)."""
        from .scoring.multiref import prf_rows

        measure = dict(zip(options.type_names, options.rouge_types, strict=True))[name]
        sums = _arrays(*([total] for total in totals))
        return prf_rows(measure, *sums, options.fmeasure, options.rouge155)[0].tolist()

    def per_example(self, options: ScoreOptions | None = None) -> dict[str, list[float]]:
        """Per-example lists of Python floats, keyed like :meth:`aggregate`."""
        options = options or self.options
        with_pr = options.return_precision_recall
        counts = self._kept_counts("return_counts=True") if options.return_counts else None
        result: dict[str, list[float]] = {}
        for name, table in self._tables.items():
            result[name] = table.column(2)
            if with_pr:
                result.update(
                    {f"{name}_{col}": table.column(i) for i, col in enumerate(SCORE_COLUMNS)}
                )
            if counts is not None:
                result.update(_count_keys(name, _count_columns(counts[name])))
        return result

    def columns(self) -> dict[str, list[float]]:
        """Every ``<type>_precision``/``_recall``/``_fmeasure`` column as Python floats, and
        the count columns when the counts were kept."""
        columns = {}
        for name, table in self._tables.items():
            columns.update(
                {f"{name}_{col}": table.column(i) for i, col in enumerate(SCORE_COLUMNS)}
            )
            if self.counts is not None:
                columns.update(_count_keys(name, _count_columns(self.counts[name])))
        return columns

    @classmethod
    def concatenate(cls, parts: Sequence[ExampleScores]) -> ExampleScores:
        """One :class:`ExampleScores` holding the rows of ``parts`` in order."""
        if not parts:
            raise InputError("there is nothing to score: no rows")
        first = parts[0]
        if len(parts) == 1:
            return first
        scores = {
            name: ScoreTable.join([part._tables[name] for part in parts]) for name in first._tables
        }
        counts = None
        if all(part.counts is not None for part in parts):
            counts = {
                name: ScoreTable.join([part.counts[name] for part in parts])  # type: ignore[index]
                for name in first._tables
            }
        return cls(scores, first.options, first.signature, counts)

    @classmethod
    def from_columns(
        cls, columns: Mapping[str, Sequence[float]], options: ScoreOptions, signature: str
    ) -> ExampleScores:
        """Rebuild per-example arrays from ``<type>_precision``/``_recall``/``_fmeasure``
        columns, and the count columns when they are there (the inverse of :meth:`columns`),
        scored under ``options`` (whose ``signature`` the plan gives)."""
        import numpy as np

        def table(name: str, names: Sequence[str]) -> np.ndarray:
            keys = [f"{name}_{col}" for col in names]
            return np.column_stack([np.asarray(columns[key], dtype=np.float64) for key in keys])

        names = options.type_names
        scores = {name: table(name, SCORE_COLUMNS) for name in names}
        counts = None
        if all(f"{name}_{COUNT_COLUMNS[0]}" in columns for name in names):
            counts = {name: table(name, COUNT_COLUMNS) for name in names}
        return cls(scores, options, signature, counts)


def score_column_names(options: ScoreOptions) -> list[str]:
    """Names of the per-example columns, e.g. ``rouge1_precision`` (and ``rouge1_matches``...
    when the options keep the counts), in :meth:`ExampleScores.columns` order."""
    columns = SCORE_COLUMNS + (COUNT_COLUMNS if options.needs_counts else ())
    return [f"{name}_{column}" for name in options.type_names for column in columns]


def one_row_keys(names: Sequence[str], options: ScoreOptions) -> tuple[tuple[str, int], ...]:
    """The keys of one row's result, each with where its value lies in the row's precision,
    recall and F of each measure, one measure after the other (what
    :meth:`ScoringPlan.score_pair` gives)."""
    keys: dict[str, int] = {}
    for i, name in enumerate(names):
        keys.update(_flat_keys(name, range(3 * i, 3 * i + 3), options.return_precision_recall))
    return tuple(keys.items())


def one_row_result(
    keys: Sequence[tuple[str, int]], values: Sequence[float], use_aggregator: bool
) -> dict[str, float] | dict[str, list[float]]:
    """What :meth:`ExampleScores.result` gives for one row (the mean of one row is that row),
    from the row's values and :func:`one_row_keys`; not for ``aggregation="bootstrap"``."""
    if use_aggregator:
        return {key: values[at] for key, at in keys}
    return {key: [values[at]] for key, at in keys}


def _flat_keys(name: str, values: Sequence[float], with_pr: bool, suffix: str = "") -> dict:
    keys = {f"{name}{suffix}": values[2]}
    if with_pr:
        keys.update({f"{name}_{col}{suffix}": values[i] for i, col in enumerate(SCORE_COLUMNS)})
    return keys


def _tables_of(
    tables: Mapping[str, ScoreTable | np.ndarray | bytearray],
) -> dict[str, ScoreTable]:
    return {
        name: table if isinstance(table, ScoreTable) else ScoreTable.of(table)
        for name, table in tables.items()
    }


def _count_columns(table: ScoreTable) -> list[list[float]]:
    return [table.column(i) for i in range(len(COUNT_COLUMNS))]


def _count_keys(name: str, values: Sequence) -> dict:
    """``<type>_matches``, ``<type>_prediction_total`` and ``<type>_reference_total``."""
    return {f"{name}_{column}": values[i] for i, column in enumerate(COUNT_COLUMNS)}


def _arrays(*values: list[float]) -> list[np.ndarray]:
    import numpy as np

    return [np.asarray(value, dtype=np.float64) for value in values]


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
