"""Is system A really better than B? Paired significance tests of ROUGE differences.

:func:`compare` scores a baseline and each system once on the same references and tests every
(system, ROUGE type) difference with :func:`rouge_plus.corpus.significance.paired_test`;
:func:`compare_scores` does the same from per-example arrays already computed, e.g. gathered
from the ranks of a distributed run. Both return a :class:`Comparison`, plain data that renders
as a text table, dicts, JSON or CSV for the command line and the Space.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from .corpus.significance import check_test_settings, paired_test
from .errors import InputError, InputTypeError, OptionError
from .scorer import RougeScorer

# Which column of the (n, 3) per-example arrays each statistic is.
STATISTICS = {"p": 0, "r": 1, "f": 2}
_STATISTIC_NAMES = {"p": "precision", "r": "recall", "f": "F-measure"}
_METHOD_NAMES = {"permutation": "paired approximate randomization", "bootstrap": "paired bootstrap"}


@dataclass(frozen=True)
class ComparisonRow:
    """One system against the baseline on one ROUGE type (scores are corpus means)."""

    system: str
    rouge_type: str
    baseline_score: float
    score: float
    delta: float
    ci_low: float
    ci_high: float
    p_value: float


@dataclass(frozen=True)
class Comparison:
    """Every (system, type) test of one comparison, with the settings that reproduce it."""

    rows: tuple[ComparisonRow, ...]
    baseline: str
    signature: str
    method: str
    n_resamples: int
    seed: int
    statistic: str
    confidence_level: float
    n_examples: int
    exact: bool

    def to_dicts(self) -> list[dict[str, object]]:
        """One dict per row (the fields of :class:`ComparisonRow`), e.g. for a data frame."""
        return [dataclasses.asdict(row) for row in self.rows]

    def to_json(self, indent: int | None = 2) -> str:
        """The settings, the signature and the rows as one JSON object."""
        settings = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        return json.dumps({**settings, "rows": self.to_dicts()}, indent=indent)

    def to_csv(self) -> str:
        """The rows as CSV with a header line; floats at full precision."""
        out = io.StringIO()
        writer = csv.DictWriter(
            out, fieldnames=[f.name for f in dataclasses.fields(ComparisonRow)], lineterminator="\n"
        )
        writer.writeheader()
        writer.writerows(self.to_dicts())
        return out.getvalue()

    def to_table(self) -> str:
        """A text table like sacrebleu's paired output: the baseline first, then each system."""
        return _render_table(self)


def compare(
    baseline: Sequence[str],
    systems: Mapping[str, Sequence[str]],
    references: Sequence[str] | Sequence[Sequence[str]],
    *,
    method: str = "permutation",
    n_resamples: int = 10_000,
    seed: int = 0,
    statistic: str = "f",
    confidence_level: float = 0.95,
    baseline_name: str = "baseline",
    **options: object,
) -> Comparison:
    """Test whether each system's ROUGE differs from the baseline's on the same references.

    ``baseline`` and every value of ``systems`` are predictions, one per reference (a list, or
    any sequence ``RougeScorer`` takes); ``options`` are any :class:`rouge_plus.RougeScorer`
    options. ``statistic`` picks precision,
    recall or F (``"p"``, ``"r"``, ``"f"``) of every type.
    """
    _check_settings(method, n_resamples, seed, statistic, confidence_level)
    _check_systems(systems)
    n = len(references)
    if len(baseline) != n:
        raise InputError(
            f"the baseline ({baseline_name!r}) has {len(baseline)} predictions but there are {n} "
            "references"
        )
    for name, predictions in systems.items():
        if len(predictions) != n:
            raise InputError(
                f"system {name!r} has {len(predictions)} predictions but there are {n} references"
            )
    scorer = RougeScorer(**options)
    return compare_scores(
        scorer.score_examples(baseline, references).scores,
        {name: scorer.score_examples(p, references).scores for name, p in systems.items()},
        method=method,
        n_resamples=n_resamples,
        seed=seed,
        statistic=statistic,
        confidence_level=confidence_level,
        signature=scorer.signature,
        baseline_name=baseline_name,
    )


def compare_scores(
    baseline: Mapping[str, np.ndarray],
    systems: Mapping[str, Mapping[str, np.ndarray]],
    *,
    method: str = "permutation",
    n_resamples: int = 10_000,
    seed: int = 0,
    statistic: str = "f",
    confidence_level: float = 0.95,
    signature: str = "",
    baseline_name: str = "baseline",
) -> Comparison:
    """:func:`compare` from per-example scores: ``{type: (n, 3) array}`` per system.

    The arrays are what ``RougeScorer.score_examples(...).scores`` returns; a distributed run
    concatenates each system's shards in row order and passes them here. Each system is tested
    with the same seed, so its rows do not depend on which other systems are compared.
    """
    _check_settings(method, n_resamples, seed, statistic, confidence_level)
    _check_systems(systems)
    types = list(baseline)
    if not types:
        raise InputError("the baseline has no ROUGE types")
    base = _columns(baseline_name, baseline, types, statistic, n=None)
    base_means = _means(baseline, types, statistic)
    rows = []
    for name, scores in systems.items():
        values = _columns(name, scores, types, statistic, n=len(base))
        means = _means(scores, types, statistic)
        test = paired_test(
            values,
            base,
            method=method,
            n_resamples=n_resamples,
            seed=seed,
            confidence_level=confidence_level,
        )
        rows += [
            ComparisonRow(
                system=name,
                rouge_type=rouge_type,
                baseline_score=base_means[j],
                score=means[j],
                delta=float(test.delta[j]),
                ci_low=float(test.ci_low[j]),
                ci_high=float(test.ci_high[j]),
                p_value=float(test.p_value[j]),
            )
            for j, rouge_type in enumerate(types)
        ]
    return Comparison(
        rows=tuple(rows),
        baseline=baseline_name,
        signature=signature,
        method=method,
        n_resamples=n_resamples,
        seed=seed,
        statistic=statistic,
        confidence_level=float(confidence_level),
        n_examples=len(base),
        exact=test.exact,
    )


def _check_settings(
    method: str, n_resamples: int, seed: int, statistic: str, confidence_level: float
) -> None:
    check_test_settings(method, n_resamples, seed, confidence_level)
    if statistic not in STATISTICS:
        raise OptionError(
            f"statistic: unknown value {statistic!r}; valid values are: {', '.join(STATISTICS)}"
        )


def _check_systems(systems: object) -> None:
    if not isinstance(systems, Mapping):
        raise InputTypeError(f"systems must be a dict of name -> predictions, got {type(systems)}")
    if not systems:
        raise InputError("systems is empty: give at least one system to compare with the baseline")
    for name in systems:
        if not isinstance(name, str):
            raise InputTypeError(f"system names must be strings, got {name!r}")


def _columns(
    name: str, scores: Mapping[str, np.ndarray], types: list[str], statistic: str, n: int | None
) -> np.ndarray:
    """``(n, len(types))`` per-example values of ``statistic``, checked against the baseline."""
    if set(scores) != set(types):
        raise InputError(
            f"system {name!r} has types {sorted(scores)}, the baseline has {sorted(types)}"
        )
    columns = []
    for rouge_type in types:
        values = np.asarray(scores[rouge_type], dtype=np.float64)
        if values.ndim != 2 or values.shape[1] != 3:
            raise InputError(
                f"system {name!r}, {rouge_type}: expected an (n, 3) array of precision, recall, "
                f"F, got shape {values.shape}"
            )
        if n is not None and len(values) != n:
            raise InputError(
                f"system {name!r}, {rouge_type}: {len(values)} examples, the baseline has {n}"
            )
        columns.append(values[:, STATISTICS[statistic]])
    return np.stack(columns, axis=1)


def _means(scores: Mapping[str, np.ndarray], types: list[str], statistic: str) -> list[float]:
    """Corpus means exactly as ``RougeScorer.score`` reports them (column means of each array)."""
    column = STATISTICS[statistic]
    return [float(np.asarray(scores[t], dtype=np.float64).mean(axis=0)[column]) for t in types]


def format_p_value(p: float) -> str:
    """A p-value as the tables show it: four decimals, or two significant digits below 0.0001."""
    text = f"{p:.4f}"
    return text if text != "0.0000" else f"{p:.1e}"


def _render_table(result: Comparison) -> str:
    alpha = 1 - result.confidence_level
    types = list(dict.fromkeys(row.rouge_type for row in result.rows))
    level = f"{100 * result.confidence_level:g}%"
    header = ["system", "type", "score", "delta", f"{level} CI of delta", "p-value"]
    baseline = [
        [f"Baseline: {result.baseline}" if j == 0 else "", row.rouge_type]
        + [f"{row.baseline_score:.4f}", "", "", ""]
        for j, row in enumerate(result.rows[: len(types)])
    ]
    systems = [
        [row.system if j % len(types) == 0 else "", row.rouge_type, f"{row.score:.4f}"]
        + [f"{row.delta:+.4f}", f"[{row.ci_low:+.4f}, {row.ci_high:+.4f}]"]
        + [format_p_value(row.p_value) + (" *" if row.p_value < alpha else "")]
        for j, row in enumerate(result.rows)
    ]
    widths = [max(map(len, column)) for column in zip(header, *baseline, *systems, strict=True)]

    def line(cells: list[str]) -> str:
        return "  ".join(
            cell.ljust(width) if i < 2 else cell.rjust(width)
            for i, (cell, width) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    rule = "  ".join("-" * width for width in widths)
    resamples = f"{result.n_resamples:,} resamples (seed {result.seed})"
    if result.exact:
        draws = f"exact over all 2^{result.n_examples} sign assignments"
    elif result.method == "permutation":
        draws = f"{result.n_resamples:,} random sign assignments (seed {result.seed})"
    else:
        draws = resamples
    notes = [
        f"p-value: two-sided {_METHOD_NAMES[result.method]}, {draws}.",
        f"score: mean {_STATISTIC_NAMES[result.statistic]} over {result.n_examples:,} examples;"
        " delta: system - baseline.",
        f"CI: paired bootstrap percentile interval of delta, {resamples}.",
        f"* p < {alpha:.2g}"
        + (
            f", not corrected for multiple comparisons ({len(result.rows)} tests here; consider"
            " Holm's correction)."
            if len(result.rows) > 1
            else "."
        ),
    ]
    table = [line(header), rule, *map(line, baseline), rule, *map(line, systems)]
    return "\n".join([*table, "", *notes, *([result.signature] if result.signature else [])])
