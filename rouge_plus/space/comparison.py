"""The corpus tab's comparison: the prediction column as the baseline against other columns.

:func:`comparison_html` runs what :func:`rouge_plus.compare` runs (paired approximate
randomization, the tab's bootstrap settings as the test's) over columns of the loaded rows,
within the Space's limits like any request, and renders its table, with the examples each
measured gap needs (:func:`rouge_plus.power_analysis`); :func:`compare_corpus` is the page's
handler around it.

The examples needed are the paired t-test's, computed analytically (SciPy): it answers in
milliseconds whatever the gap, where the simulated permutation test, which the p-values come
from, costs simulations x resamples x examples for each count it tries (billions for a gap
that needs tens of thousands of examples). On differences close to normal the two agree within
a few examples (docs/power.md).
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

import numpy as np

from ..comparison import STATISTICS, Comparison, compare_scores, format_p_value
from ..corpus.power import PowerAnalysis, power_analysis
from ..errors import InputError, OptionError, RougePlusError
from ..inputs import Batch, normalize_inputs
from ..options import ScoreOptions
from ..readers import Record, column_names, corpus_from_records
from .corpus_files import chosen_columns, load_source
from .limits import POWER_ANALYSIS_RESAMPLED, Work, check_options, check_sizes
from .render import display_name, score_bar_html
from .scoring import score_options, score_rows
from .workers import Budget, within_budget

POWER = 0.8  # the power the examples needed are for
MAX_DOCUMENTS = 100_000  # the most examples the power analysis considers


def system_choices(
    upload: str | None,
    pasted: str | None,
    prediction_column: str | None,
    reference_columns: Sequence[str] | None = (),
) -> list:
    """The columns that can be compared with the prediction column: every column but it and
    the reference columns (none if the data is unreadable)."""
    if not upload and not (pasted and pasted.strip()):
        return []
    try:
        records = load_source(upload, pasted)
    except InputError:
        return []
    taken = {prediction_column, *(reference_columns or ())}
    return [column for column in column_names(records) if column not in taken]


def comparison_html(
    records: Sequence[Record],
    baseline_column: str,
    system_columns: Sequence[str],
    reference_columns: Sequence[str],
    options: dict,
    *,
    confidence_level: float = 0.95,
    n_resamples: int = 1000,
    seed: int = 0,
    budget: Budget | None = None,
) -> str:
    """Each system column against the baseline column as an HTML table ("" when none is given);
    ``options`` are ``rouge_plus.score`` keywords. ``InputError`` names a bad cell,
    ``LimitError`` a limit of the Space (the systems' texts count towards the request's)."""
    systems = [column for column in dict.fromkeys(system_columns) if column != baseline_column]
    if not systems:
        return ""
    for column in systems:
        if column in reference_columns:
            raise InputError(f"{column!r} is a reference column: compare other prediction columns")
    try:
        resamples = int(n_resamples)
    except (TypeError, ValueError):
        raise InputError("Give the resamples as a number.") from None
    resolved = score_options(options, n_resamples=resamples)
    check_options(resolved)
    baseline, references = corpus_from_records(records, baseline_column, reference_columns)
    batches = {
        column: normalize_inputs(corpus_from_records(records, column, reference_columns)[0],
                                 references)
        for column in [baseline_column, *systems]
    }  # fmt: skip
    work = Work()
    for batch in batches.values():
        check_sizes(batch)
        work += Work.of(batch, resolved)
    # Each system: a paired approximate randomization and a paired bootstrap, then a power
    # analysis of each type.
    work += Work(resampled=2 * len(systems) * len(baseline) * len(resolved.rouge_types) * resamples)
    work += Work(resampled=len(systems) * len(resolved.rouge_types) * POWER_ANALYSIS_RESAMPLED)
    settings = (float(confidence_level), resamples, int(seed))
    return within_budget(budget or Budget(), work, compared_html, batches, resolved, *settings)


def compared_html(
    batches: dict[str, Batch],
    options: ScoreOptions,
    confidence_level: float,
    n_resamples: int,
    seed: int,
) -> str:
    """:func:`comparison_html`'s work: every column scored (the first is the baseline), then
    compared, and each gap's examples needed."""
    scored = {column: score_rows(batch, options) for column, batch in batches.items()}
    scores = {column: examples.scores for column, examples in scored.items()}
    baseline_name, *systems = scores
    try:
        result = compare_scores(
            scores[baseline_name],
            {name: scores[name] for name in systems},
            n_resamples=n_resamples,
            seed=seed,
            confidence_level=confidence_level,
            signature=scored[baseline_name].signature,
            baseline_name=baseline_name,
        )
    except RougePlusError as error:
        raise InputError(str(error)) from error
    return comparison_table_html(result, power_analyses(result, scores))


def power_analyses(
    result: Comparison, scores: Mapping[str, Mapping[str, np.ndarray]]
) -> list[PowerAnalysis | RougePlusError]:
    """For each row of ``result``: how many examples a two-sided paired t-test at the table's
    significance level needs to detect the row's gap with power :data:`POWER`
    (:func:`rouge_plus.power_analysis` on the two columns' per-example scores, ``scores``:
    column -> ``{type: (n, 3) array}``, with the power on the examples at hand as its curve), or
    why none can be said (no gap, the same gap on every example, a single example, a
    significance level above the power)."""
    column = STATISTICS[result.statistic]
    analyses: list[PowerAnalysis | RougePlusError] = []
    for row in result.rows:
        try:
            analysis = power_analysis(
                scores[row.system][row.rouge_type][:, column],
                scores[result.baseline][row.rouge_type][:, column],
                alpha=1 - result.confidence_level,
                power=POWER,
                test="t",
                max_documents=MAX_DOCUMENTS,
                curve=(result.n_examples,),
            )
        except (InputError, OptionError) as error:
            analyses.append(error)
        else:
            analyses.append(analysis)
    return analyses


def comparison_table_html(
    result: Comparison, analyses: Sequence[PowerAnalysis | RougePlusError]
) -> str:
    """The baseline's mean scores, then each system's with its delta, interval, p-value and
    the examples needed to detect its delta (``analyses``, one per row of ``result``)."""
    alpha = 1 - result.confidence_level
    types = list(dict.fromkeys(row.rouge_type for row in result.rows))
    blank = "<td></td>" * 4
    rows = [
        _row(f"Baseline: {result.baseline}" if j == 0 else "", row.rouge_type, row.baseline_score)
        + f"{blank}</tr>"
        for j, row in enumerate(result.rows[: len(types)])
    ]
    for j, (row, analysis) in enumerate(zip(result.rows, analyses, strict=True)):
        starred = row.p_value < alpha
        p_text = format_p_value(row.p_value)
        rows.append(
            _row(row.system if j % len(types) == 0 else "", row.rouge_type, row.score)
            + f"<td>{row.delta:+.4f}</td>"
            + f"<td class='rp-ci'>{row.ci_low:+.4f} – {row.ci_high:+.4f}</td>"
            + (f"<td><b>{p_text} *</b></td>" if starred else f"<td>{p_text}</td>")
            + _examples_needed_cell(analysis, row.delta, result.n_examples)
            + "</tr>"
        )
    level = f"{100 * result.confidence_level:g}%"
    draws = (
        f"exact over all 2^{result.n_examples} sign assignments"
        if result.exact
        else f"{result.n_resamples:,} random sign assignments (seed {result.seed})"
    )
    note = (
        f"Mean F over {result.n_examples:,} examples; Δ = system − baseline. p: two-sided paired "
        f"approximate randomization, {draws}; CI: paired bootstrap. * p &lt; {alpha:.2g}, not "
        f"corrected for multiple comparisons ({len(result.rows)} tests). "
        + _examples_needed_note(result, analyses)
    )
    return (
        "<table class='rp-table rp-compare'><thead><tr><th>System</th><th>Type</th>"
        f"<th>Mean F</th><th>Δ</th><th>{level} CI of Δ</th><th>p-value</th>"
        f"<th>Examples for power {POWER:g}</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table><p><small>{note}</small></p>"
    )


def _examples_needed_cell(analysis: PowerAnalysis | RougePlusError, delta: float, n: int) -> str:
    """The examples needed, ✓ when the ``n`` examples at hand suffice, or why there is no
    answer ("no gap" for a delta of 0, else "—", which the note explains)."""
    if isinstance(analysis, RougePlusError):
        return f"<td>{_no_answer(delta)}</td>"
    ((_, power_here),) = analysis.curve
    title = f"power on these {n:,} examples: {power_here:.2f}"
    if analysis.documents is None:
        text = f"&gt; {MAX_DOCUMENTS:,}"
    else:
        text = f"{analysis.documents:,}" + (" ✓" if analysis.documents <= n else "")
    return f"<td title='{title}'>{text}</td>"


def _no_answer(delta: float) -> str:
    """A row's examples needed when the power analysis has no answer."""
    return "no gap" if delta == 0 else "—"


def _examples_needed_note(
    result: Comparison, analyses: Sequence[PowerAnalysis | RougePlusError]
) -> str:
    """What the examples needed are, and why a row has none."""
    alpha = 1 - result.confidence_level
    why_not = dict.fromkeys(
        f"{_no_answer(row.delta)}: {html.escape(str(analysis))}"
        for row, analysis in zip(result.rows, analyses, strict=True)
        if isinstance(analysis, RougePlusError)
    )
    return (
        f"Examples for power {POWER:g}: how many examples a two-sided paired t-test needs to "
        f"find Δ significant (p &lt; {alpha:.2g}) {POWER:.0%} of the time, with the spread of "
        "these examples' differences (rouge_plus.power_analysis); ✓ these "
        f"{result.n_examples:,} suffice; &gt; {MAX_DOCUMENTS:,}: more than that."
        + "".join(f" {reason}." for reason in why_not)
    )


def _row(system: str, rouge_type: str, score: float) -> str:
    """The start of a table row: system, type and score; the caller closes it."""
    return (
        f"<tr><th scope='row'>{html.escape(system)}</th>"
        f"<td>{html.escape(display_name(rouge_type))}</td>"
        f"<td class='rp-f'>{score_bar_html(score)}</td>"
    )


def compare_corpus(
    upload: str | None,
    pasted: str | None,
    prediction_column: str,
    reference_columns: list[str],
    system_columns: list[str] | None,
    confidence_level: float,
    n_resamples: int,
    seed: int,
    options: dict,
    *,
    budget: Budget | None = None,
) -> str:
    """The corpus tab's comparison table (empty when no column is chosen to compare with)."""
    if not system_columns:
        return ""
    records = load_source(upload, pasted)
    prediction_column, reference_columns = chosen_columns(
        records, prediction_column, reference_columns
    )
    return comparison_html(
        records,
        prediction_column,
        system_columns,
        reference_columns,
        options,
        confidence_level=confidence_level,
        n_resamples=n_resamples,
        seed=seed,
        budget=budget,
    )
