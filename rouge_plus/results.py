"""Per-example scores that carry their options, and the flat result dicts built from them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .corpus.aggregation import Interval, bootstrap_interval, rouge155_interval
from .errors import InputError
from .options import ScoreOptions
from .scoring.tables import ScoreTable

TYPE_CHECKING = False
if TYPE_CHECKING:
    import numpy as np

# The columns of every per-example score array, in order.
SCORE_COLUMNS = ("precision", "recall", "fmeasure")


class ExampleScores:
    """Per-example scores: for each ROUGE type an ``(n, 3)`` array of precision, recall, F,
    with the options that produced them and their signature.

    Per-example scores do not depend on which other rows were scored with them, so the scores
    of chunks joined with :meth:`concatenate` equal those of one call over every row.

    The scores are kept as :class:`~rouge_plus.scoring.tables.ScoreTable` buffers (``scores``
    may give tables, arrays, or bytearrays of float64 rows); :attr:`scores` views them as NumPy
    arrays on first use (sharing their memory), while :meth:`aggregate` (mean),
    :meth:`per_example` and :meth:`columns` read them without importing NumPy.
    """

    __slots__ = ("_arrays", "_tables", "options", "signature")

    def __init__(
        self,
        scores: Mapping[str, ScoreTable | np.ndarray | bytearray],
        options: ScoreOptions,
        signature: str,
    ):
        self._tables = {
            name: table if isinstance(table, ScoreTable) else ScoreTable.of(table)
            for name, table in scores.items()
        }
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
        if options.aggregation != "bootstrap":
            return {
                key: float(value)
                for name, table in self._tables.items()
                for key, value in _flat_keys(name, table.means(), with_pr).items()
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
            result[name] = table.column(2)
            if with_pr:
                result.update(
                    {f"{name}_{col}": table.column(i) for i, col in enumerate(SCORE_COLUMNS)}
                )
        return result

    def columns(self) -> dict[str, list[float]]:
        """Every ``<type>_precision``/``_recall``/``_fmeasure`` column as Python floats."""
        return {
            f"{name}_{column}": table.column(i)
            for name, table in self._tables.items()
            for i, column in enumerate(SCORE_COLUMNS)
        }

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
        return cls(scores, first.options, first.signature)

    @classmethod
    def from_columns(
        cls, columns: Mapping[str, Sequence[float]], options: ScoreOptions, signature: str
    ) -> ExampleScores:
        """Rebuild per-example arrays from ``<type>_precision``/``_recall``/``_fmeasure``
        columns (the inverse of :meth:`columns`), scored under ``options`` (whose
        ``signature`` the plan gives)."""
        import numpy as np

        scores = {
            name: np.column_stack(
                [np.asarray(columns[f"{name}_{col}"], dtype=np.float64) for col in SCORE_COLUMNS]
            )
            for name in options.type_names
        }
        return cls(scores, options, signature)


def score_column_names(options: ScoreOptions) -> list[str]:
    """Names of the per-example columns, e.g. ``rouge1_precision``, in :meth:`columns` order."""
    return [f"{name}_{column}" for name in options.type_names for column in SCORE_COLUMNS]


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
