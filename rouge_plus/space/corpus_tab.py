"""The corpus tab: a CSV or JSONL file (or pasted JSON Lines) scored with bootstrap intervals,
a histogram and a per-example download, and the prediction column compared with others."""

from __future__ import annotations

import functools

import gradio as gr
from matplotlib.figure import Figure

from ..errors import InputError
from ..inputs import normalize_inputs
from ..readers import column_names, corpus_from_records, sample_text
from . import comparison
from .corpus_files import (
    PREDICTION_COLUMNS,
    REFERENCE_COLUMNS,
    chosen_columns,
    download_folder,
    guess_column,
    load_source,
    write_scores_csv,
)
from .events import PRIVATE, cleared, kind, options_reader, scoring_event
from .histogram import histogram_figure
from .limits import MAX_RESAMPLES, MAX_UPLOAD_MB, check_options
from .render import summary_table_html
from .scoring import bootstrap_options, corpus_summary, score_options, score_within_limits
from .workarounds import without_cache_files
from .workers import Budget


def update_columns(upload: str | None, pasted: str | None) -> tuple[dict, dict, str]:
    """Fill the column pickers from the data; report the row count or what is wrong."""
    if not upload and not (pasted and pasted.strip()):
        return gr.update(choices=[], value=None), gr.update(choices=[], value=[]), ""
    try:
        rows = load_source(upload, pasted)
    except InputError as error:
        gr.Warning(str(error))
        return gr.update(choices=[], value=None), gr.update(choices=[], value=[]), f"⚠️ {error}"
    columns = column_names(rows)
    prediction = guess_column(columns, PREDICTION_COLUMNS)
    reference = guess_column(columns, REFERENCE_COLUMNS)
    status = f"{len(rows):,} rows · columns: {', '.join(columns)}"
    unguessed = [
        f"{name} column (none is named {' or '.join(repr(c) for c in names[:3])})"
        for name, names, guess in [
            ("prediction", PREDICTION_COLUMNS, prediction),
            ("reference", REFERENCE_COLUMNS, reference),
        ]
        if guess is None
    ]
    if unguessed:
        status = f"⚠️ {status} · choose the {' and the '.join(unguessed)}"
    return (
        gr.update(choices=columns, value=prediction),
        gr.update(choices=columns, value=[reference] if reference else []),
        status,
    )


@scoring_event
def score_corpus(
    upload: str | None,
    pasted: str | None,
    prediction_column: str,
    reference_columns: list[str],
    confidence_level: float,
    n_resamples: int,
    seed: int,
    options: dict,
    progress: gr.Progress = gr.Progress(),  # noqa: B008 - Gradio's way to request a progress bar
    *,
    budget: Budget,
) -> tuple[str, Figure, str, str]:
    """The corpus tab: (aggregate table, histogram, per-example CSV path, status line)."""
    rows = load_source(upload, pasted)
    columns = chosen_columns(rows, prediction_column, reference_columns)
    predictions, references = corpus_from_records(rows, *columns)
    batch = normalize_inputs(predictions, references)
    bootstrap = bootstrap_options(options, confidence_level, n_resamples, seed)
    check_options(bootstrap)
    progress((0, len(batch)), desc="Scoring", unit="rows")

    def scored_rows(_: int, stop: int) -> None:
        if stop < len(batch):
            progress((stop, len(batch)), desc="Scoring", unit="rows")
        else:
            progress(1.0, desc="Bootstrap confidence intervals")

    scored = score_within_limits(
        batch,
        score_options(options, return_counts=True),  # the download's count columns
        budget,
        scored_rows,
        summarize=functools.partial(corpus_summary, bootstrap=bootstrap),
        resamples=bootstrap.n_resamples,
    )
    examples, summary = scored.examples, scored.summary
    csv_path = write_scores_csv(examples, download_folder())
    status = (
        f"Scored {len(examples):,} examples · {bootstrap.n_resamples:,} bootstrap resamples, "
        f"seed {bootstrap.seed}  \n`{examples.signature}`"
    )
    return (
        summary_table_html(summary, options["rouge_types"], bootstrap.confidence_level),
        histogram_figure(examples),
        str(csv_path),
        status,
    )


compare_corpus = scoring_event(comparison.compare_corpus)


def update_compare_columns(
    upload: str | None, pasted: str | None, prediction: str | None, references: list[str] | None
) -> dict:
    """Offer every column but the prediction and reference columns for comparison."""
    choices = comparison.system_choices(upload, pasted, prediction, references)
    return gr.update(choices=choices, value=[])


def corpus_tab() -> dict:
    """The tab's components: the data, the column pickers, the bootstrap settings, the outputs."""
    with gr.Row():
        upload = without_cache_files(
            gr.File(
                label=f"CSV or JSONL file (up to {MAX_UPLOAD_MB} MB, UTF-8)",
                file_types=[".csv", ".jsonl", ".json"],
                elem_id="corpus-file",
            )
        )
        pasted = gr.Textbox(
            lines=6,
            max_lines=12,
            label="…or paste JSON Lines",
            placeholder='{"prediction": "…", "references": ["…", "…"]}',
            elem_id="corpus-paste",
        )
    with gr.Row():
        sample = gr.Button("Load the sample corpus", size="sm", visible=bool(sample_text()))
        status = gr.Markdown(elem_id="corpus-status")
    with gr.Row():
        prediction_column = gr.Dropdown([], label="Prediction column", elem_id="prediction-column")
        reference_columns = gr.Dropdown(
            [], multiselect=True, label="Reference column(s)", elem_id="reference-columns"
        )
    compare_columns = gr.Dropdown(
        [], multiselect=True, label="Compare with column(s)", elem_id="compare-columns"
    )
    with gr.Accordion("Bootstrap", open=False), gr.Row():
        confidence = gr.Slider(0.5, 0.99, value=0.95, step=0.01, label="Confidence level")
        n_resamples = gr.Number(
            1000, minimum=1, maximum=MAX_RESAMPLES, precision=0, label="Resamples"
        )
        seed = gr.Number(0, precision=0, label="Seed")
    button = gr.Button("Score corpus", variant="primary", elem_id="score-corpus")
    summary = gr.HTML(elem_id="corpus-summary")
    comparison_table = gr.HTML(elem_id="corpus-comparison")
    with gr.Row(equal_height=False):
        histogram = gr.Plot(label="Per-example F", scale=3)
        download = gr.File(label="Per-example scores (CSV)", scale=2, elem_id="corpus-download")
    return {
        "source": [upload, pasted],
        "sample": sample,
        "columns": [prediction_column, reference_columns],
        "bootstrap": [confidence, n_resamples, seed],
        "button": button,
        "status": status,
        "outputs": [summary, histogram, download, status],
        "compare": (compare_columns, comparison_table),
    }


def wire_corpus_tab(tab: dict, settings: dict) -> None:
    """The pickers follow the data; "Score corpus" reads the options, scores, then compares."""
    options = gr.State()  # each scoring event reads the settings into it first
    upload, pasted = source = tab["source"]
    column_outputs = [*tab["columns"], tab["status"]]
    upload.change(update_columns, source, column_outputs, **PRIVATE)
    # On any change (a paste, typing), not only on leaving the box: a paste followed at once by
    # "Score corpus" then finds the pickers filled (and scoring guesses any left empty).
    pasted.change(update_columns, source, column_outputs, **PRIVATE)
    tab["sample"].click(sample_text, None, pasted, **PRIVATE).then(
        update_columns, source, column_outputs, **PRIVATE
    )
    compare_columns, comparison_table = tab["compare"]
    for picker in tab["columns"]:
        picker.change(
            update_compare_columns, [*source, *tab["columns"]], compare_columns, **PRIVATE
        )
    outputs = [*tab["outputs"], comparison_table]
    clear = cleared(len(outputs))
    read = tab["button"].click(options_reader(settings), set(settings.values()), options, **PRIVATE)
    read.failure(clear, None, outputs, queue=False, **PRIVATE)
    scored = read.success(
        score_corpus,
        [*source, *tab["columns"], *tab["bootstrap"], options],
        tab["outputs"],
        **PRIVATE,
        **kind("corpus"),
    )
    scored.failure(clear, None, outputs, queue=False, **PRIVATE)
    compared = scored.success(
        compare_corpus,
        [*source, *tab["columns"], compare_columns, *tab["bootstrap"], options],
        comparison_table,
        **PRIVATE,
        **kind("compare"),
    )
    compared.failure(clear, None, outputs, queue=False, **PRIVATE)
