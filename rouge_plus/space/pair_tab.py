"""The single-pair tab: one prediction against its references, scored and highlighted."""

from __future__ import annotations

import gradio as gr

from ..inputs import Batch
from .events import PRIVATE, cleared, kind, marking_stale, options_reader, scoring_event
from .limits import Work, check_options, check_sizes
from .pair_input import check_pair, split_references
from .render import explanation_html, scores_table_html
from .scoring import DEFAULT_TYPES, report_pair, score_options
from .workers import Budget, within_budget

# Prediction, references (separated by ---), ROUGE types.
EXAMPLES = [
    ["The cat and the dog.", "The cat is on the mat.", DEFAULT_TYPES],
    [
        "Water spinach is a leaf vegetable commonly eaten in tropical areas of Asia.",
        "Water spinach is a green leafy vegetable grown in the tropics.\n---\n"
        "Water spinach is a semi-aquatic tropical plant grown as a vegetable.\n---\n"
        "Water spinach is a commonly eaten leaf vegetable of Asia.",
        DEFAULT_TYPES,
    ],
    [
        "Lightweight phone.\nBright screen.\nScreen is very clear.",
        "The phone is very lightweight.\nThe display is also very bright and clear.",
        [*DEFAULT_TYPES, "rouge1+synonyms"],
    ],
    [
        "The car is fast and cheap to run.",
        "This automobile is quick and inexpensive to operate.\n---\n"
        "A fast auto that is economical to drive.",
        ["rouge1", "rouge1+synonyms", "rougeL"],
    ],
]


# The tab's outputs: the scores table, the highlighted texts, the signature.
OUTPUT_IDS = ["pair-scores", "pair-highlights", "pair-signature"]


@scoring_event
def score_single(
    prediction: str, references_text: str, ngram_n: int, options: dict, *, budget: Budget
) -> tuple[str, str, str]:
    """The single-pair tab: (scores table, highlighted texts, signature) as HTML/Markdown."""
    references = split_references(references_text)
    check_pair(prediction, references)
    resolved = score_options(options)
    check_options(resolved)
    batch = Batch([prediction], [references])
    check_sizes(batch)
    work = Work.of(batch, resolved)
    pair = within_budget(budget, work, report_pair, prediction, references, resolved, int(ngram_n))
    highlights = explanation_html(prediction, pair.explained, int(ngram_n), resolved.needs_synonyms)
    summary = f"{len(references)} reference(s), combined with multi_ref=`{resolved.multi_ref}`"
    return scores_table_html(pair.scores), highlights, f"{summary}  \n`{pair.signature}`"


def pair_tab(rouge_types: gr.Dropdown) -> dict:
    """The tab's components (``rouge_types``: the options column's picker, which the examples
    set): its inputs, the events that score, its outputs."""
    prediction = gr.Textbox(EXAMPLES[0][0], lines=3, label="Prediction", elem_id="prediction")
    references = gr.Textbox(
        EXAMPLES[0][1],
        lines=5,
        label="Reference(s) — separate several with a line holding only ---",
        elem_id="references",
    )
    with gr.Row():
        ngram_n = gr.Slider(1, 4, value=1, step=1, label="Highlight n-grams of size n", scale=2)
        button = gr.Button("Score", variant="primary", scale=1, elem_id="score-pair")
    table = gr.HTML(elem_id=OUTPUT_IDS[0])
    highlights = gr.HTML(elem_id=OUTPUT_IDS[1])
    signature = gr.Markdown(elem_id=OUTPUT_IDS[2])
    examples = gr.Examples(
        EXAMPLES,
        inputs=[prediction, references, rouge_types],
        label="Examples (click one to score it)",
        elem_id="pair-examples",
    )
    return {
        "inputs": [prediction, references, ngram_n],
        "triggers": [button.click, ngram_n.release, examples.load_input_event.then],
        "outputs": [table, highlights, signature],
    }


def wire_pair_tab(demo: gr.Blocks, tab: dict, settings: dict) -> None:
    """Each trigger (and the page's load) reads the options, then scores the pair."""
    options = gr.State()  # each scoring event reads the settings into it first
    read_options = options_reader(settings)
    clear = cleared(len(tab["outputs"]))
    for trigger in [*tab["triggers"], demo.load]:
        trigger(None, js=marking_stale(OUTPUT_IDS, stale=True), queue=False, **PRIVATE)
        read = trigger(read_options, set(settings.values()), options, **PRIVATE)
        read.failure(clear, None, tab["outputs"], queue=False, **PRIVATE)
        scored = read.success(
            score_single, [*tab["inputs"], options], tab["outputs"], **PRIVATE, **kind("pair")
        )
        scored.failure(clear, None, tab["outputs"], queue=False, **PRIVATE)
        scored.then(None, js=marking_stale(OUTPUT_IDS, stale=False), queue=False, **PRIVATE)
