"""rouge_plus in the browser: one pair with its matches highlighted, or a whole corpus file.

``app.py`` at the repository root launches :func:`main` (address from GRADIO_SERVER_NAME /
GRADIO_SERVER_PORT, default 127.0.0.1:7860); on a Hugging Face Space the same file is the app.
This module is the page's layout and wiring; the logic lives in the other ``rouge_plus.space``
modules, which the tests call without a browser. The API endpoint ``/score`` (see
:mod:`.api`) returns exactly what ``rouge_plus.score`` returns::

    Client(url).predict(predictions=[...], references=[...], api_name="/score")
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import functools
import gc
import inspect
import logging
import os
import signal
from collections.abc import Callable, Iterator
from typing import TypeVar

import gradio as gr
from gradio.block_function import BlockFunction
from gradio.context import LocalContext
from gradio.data_classes import FileData
from gradio.state_holder import SessionState
from gradio.utils import NamedString
from gradio_client.utils import is_valid_file
from matplotlib.figure import Figure

from .._version import __version__
from ..errors import InputError, RougePlusError
from ..inputs import Batch, normalize_inputs
from ..options import PROFILES
from ..readers import column_names, corpus_from_records, sample_text
from ..scoring.multiref import MULTI_REF_MODES
from ..text.sentences import available_sentence_splitters
from ..text.tokenizers import available_tokenizers
from . import api, comparison
from .compiled import backend
from .corpus_files import (
    PREDICTION_COLUMNS,
    REFERENCE_COLUMNS,
    chosen_columns,
    download_folder,
    guess_column,
    load_source,
    write_scores_csv,
)
from .histogram import histogram_figure
from .limits import (
    CONCURRENT_REQUESTS,
    LARGE_AT_ONCE,
    LARGE_WAITING,
    MAX_RESAMPLES,
    MAX_UPLOAD_MB,
    QUEUE_SIZE,
    Budget,
    check_options,
    check_sizes,
    limits_markdown,
    score_within_limits,
    start_workers,
    within_budget,
)
from .pair_input import check_pair, split_references
from .render import CSS, explanation_html, scores_table_html, summary_table_html
from .scoring import (
    DEFAULT_TOPIC_POS,
    DEFAULT_TYPES,
    TYPE_CHOICES,
    bootstrap_options,
    build_options,
    corpus_summary,
    language_choices,
    profile_defaults,
    report_pair,
    score_options,
    stopword_choices,
)

logger = logging.getLogger(__name__)
Result = TypeVar("Result")

# Gradio's cache (uploads, downloads): every DELETE_CACHE[0] s, files older than
# DELETE_CACHE[1] s are deleted.
DELETE_CACHE = (300, 600)

MULTI_REF_LABELS = {
    "best": "best F (rouge_score)",
    "pooled": "pooled (ROUGE-1.5.5 -f A)",
    "mean": "mean P, R (ROUGE 2.0)",
    "mean_prf": "mean P, R, F (torchmetrics avg)",
    "best_recall": "best recall (ROUGE-1.5.5 -f B)",
    "jackknife": "jackknife (Lin 2004)",
}
MULTI_REF_HELP = (
    "best: the reference with the highest F; pooled: counts summed over references; "
    "mean: mean precision and recall; jackknife: leave-one-out average."
)
PROFILE_LABELS = {"default": "default (rouge_score)", "rouge155": "rouge155 (ROUGE-1.5.5)"}
PROFILE_HELP = "rouge155 also switches the tokenizer and multi-reference mode to 1.5.5's."

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

INTRO = f"""
# ROUGE+ &nbsp;<small>rouge_plus {__version__}</small>
Score generated text against references with the whole ROUGE family — numbers identical to
`rouge_score` / `evaluate` by default. **Single pair** shows *why* a pair scores what it does;
**Corpus** scores a CSV or JSONL file (up to {MAX_UPLOAD_MB} MB) with bootstrap confidence
intervals. <small>Kernels here: {backend()}.</small>
"""

LIMITS = f"""
This public Space is shared, so each request has limits (the library and the `rouge-plus`
command line have none):

{limits_markdown()}
"""

WHICH_ROUGE = """
On REALSumm's human judgments of 24 CNN/DailyMail systems, ROUGE variants differ a lot in how
well they rank systems as people do: ROUGE-2 **recall** reaches a system-level Kendall tau of
0.85, ROUGE-2 **F** 0.27, and with 11 to 24 systems the 95% intervals are wide. The ranking of
every variant and option (types, P/R/F, stemming, stopwords, tokenizers, the 1.5.5 profile),
with intervals and paired tests, is `docs/WHICH_ROUGE.md` in the rouge_plus repository (the
"Which ROUGE?" section of its README); `rouge_plus.correlate` and `rouge-plus correlate` compute
the same for your own judgments.
"""

REFUSED = "Cannot score this input"

# Requests of one kind in Gradio's hands at once: the large ones at work or waiting for their
# turn (in all kinds together, at most LARGE_AT_ONCE + LARGE_WAITING) leave CONCURRENT_REQUESTS
# slots to small ones, which therefore never wait behind them in Gradio's queue.
SLOTS_PER_KIND = CONCURRENT_REQUESTS + LARGE_AT_ONCE + LARGE_WAITING
# Threads for the handlers: every kind's slots, and the page's light events.
MAX_THREADS = 5 * SLOTS_PER_KIND


def scoring_event(handler: Callable[..., Result]) -> Callable[..., Result]:
    """``handler`` as a scoring event of the page: it is given the request's ``budget`` (the
    time limit, and whether its client is still there) as its keyword-only parameter ``budget``
    (Gradio passes the inputs by position), its errors become a message
    (:func:`user_errors`), and the memory it freed goes back to the system when it returns
    (glibc keeps the freed heap of large requests otherwise: about 50 MB after four at the
    limits). Every event that scores is one, whoever calls it (the page, or a client calling
    the event by its number); a test holds the page to it."""
    parameters = inspect.signature(handler).parameters
    shown = inspect.Signature([p for name, p in parameters.items() if name != "budget"])

    @functools.wraps(handler)
    def event(*args: object, **kwargs: object) -> Result:
        try:
            with user_errors():
                return handler(*args, budget=Budget(client_gone), **kwargs)
        finally:
            gc.collect()
            if _LIBC is not None:
                _LIBC.malloc_trim(0)

    event.__signature__ = shown.replace(  # type: ignore[attr-defined]
        return_annotation=inspect.signature(handler).return_annotation
    )
    event.scoring_event = True  # type: ignore[attr-defined]
    return event


def _glibc() -> ctypes.CDLL | None:
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.malloc_trim  # noqa: B018 - present in glibc only
    except (OSError, AttributeError):
        return None
    return libc


_LIBC = _glibc()
# glibc gives each thread a heap of its own (up to 8 per core), and a heap that held one large
# request's texts keeps pages that malloc_trim cannot return: after 20 requests at the limits
# the server stayed 70 MB above its idle size; with two heaps, within 5%.
M_ARENA_MAX = -8  # mallopt's parameter number
MALLOC_ARENAS = 2


@contextlib.contextmanager
def user_errors() -> Iterator[None]:
    """Input problems become a message on the page and one line in the server's log, never a
    trace: rouge_plus's errors (the Space's limits among them), and input too large or nested
    too deeply for the server."""
    try:
        yield
    except RougePlusError as error:
        message = str(error)
    except MemoryError:
        message = "The server ran out of memory for this input: score fewer or shorter texts."
    except RecursionError:
        message = "The input is nested too deeply to be read."
    except OverflowError:
        message = "The input holds a number too large to be used."
    else:
        return
    logger.info("refused: %s", message)
    raise gr.Error(message, title=REFUSED, print_exception=False)


class SpaceBlocks(gr.Blocks):
    """The page's Blocks, with two changes to how Gradio (6.31) takes a request's values:

    - a request that Gradio refuses before any handler runs (too few values, a file that was
      not uploaded: what only a client skipping the page sends) is a message and one line in
      the log, as every refusal, not a traceback;
    - the values are not kept in the session's copy of the page once the handler has them:
      Gradio keeps every input's last value per session (up to 10,000 sessions), so each API
      client or page left the server holding its last texts (5 MB per request at the limits).
    """

    async def preprocess_data(
        self, block_fn: BlockFunction, inputs: list, state: SessionState | None, *args: object
    ) -> list:
        try:
            processed = await super().preprocess_data(block_fn, inputs, state, *args)
        except (ValueError, TypeError) as error:
            message = str(error).splitlines()[0]
        else:
            for block in block_fn.inputs if state is not None else ():
                if not block.stateful and block._id in state.config_values:
                    state._update_value_in_config(block._id, None)
            return processed
        logger.info("refused: %s", message)
        raise gr.Error(message, title=REFUSED, print_exception=False)


def client_gone() -> bool:
    """Whether the client of the running Gradio event has left (closed the page, dropped the
    connection): Gradio then marks the event dead but lets its function run on.

    Reads Gradio's queue (version 6.31); outside an event, or if Gradio changes, says False.
    """
    blocks, event_id = LocalContext.blocks.get(None), LocalContext.event_id.get(None)
    for job in getattr(getattr(blocks, "_queue", None), "active_jobs", None) or ():
        for event in job or ():
            if getattr(event, "_id", None) == event_id:
                return not getattr(event, "alive", True)
    return False


# --- event handlers -----------------------------------------------------------------------


def read_options(**settings: object) -> dict:
    """The shared option inputs (``build_options``'s parameters) as ``rouge_plus.score``
    keywords, within the Space's limits; every scoring event starts here, so a bad option stops
    it with a message (and every scoring event checks them again: a client may skip this)."""
    with user_errors():
        options = build_options(**settings)
        check_options(score_options(options))
        return options


def options_reader(settings: dict[str, gr.components.Component]) -> Callable[[dict], dict]:
    """:func:`read_options` as an event handler over the option components (``settings``:
    ``build_options`` parameter name -> component), which Gradio passes as one dict."""
    names = {component: name for name, component in settings.items()}

    def read_option_components(values: dict) -> dict:
        return read_options(**{names[component]: value for component, value in values.items()})

    return read_option_components


@scoring_event
def score_single(
    prediction: str, references_text: str, ngram_n: int, options: dict, *, budget: Budget
) -> tuple[str, str, str]:
    """The single-pair tab: (scores table, highlighted texts, signature) as HTML/Markdown."""
    references = split_references(references_text)
    check_pair(prediction, references)
    resolved = score_options(options)
    check_options(resolved)
    characters = check_sizes(Batch([prediction], [references]))
    pair = within_budget(budget, characters, report_pair, prediction, references, resolved,
                         int(ngram_n))  # fmt: skip
    highlights = explanation_html(prediction, pair.explained, int(ngram_n), resolved.needs_synonyms)
    summary = f"{len(references)} reference(s), combined with multi_ref=`{resolved.multi_ref}`"
    return scores_table_html(pair.scores), highlights, f"{summary}  \n`{pair.signature}`"


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
    return (
        gr.update(choices=columns, value=prediction),
        gr.update(choices=columns, value=[reference] if reference else []),
        f"{len(rows):,} rows · columns: {', '.join(columns)}",
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
    examples = score_within_limits(
        batch,
        score_options(options, return_counts=True),  # the download's count columns
        budget,
        on_chunk=lambda _, stop: progress((stop, len(batch)), desc="Scoring", unit="rows"),
    )
    progress(1.0, desc="Bootstrap confidence intervals")
    summary = corpus_summary(examples, bootstrap, budget)
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


def update_compare_columns(upload: str | None, pasted: str | None, prediction: str | None) -> dict:
    """Offer every column but the prediction column for comparison."""
    return gr.update(choices=comparison.system_choices(upload, pasted, prediction), value=[])


@scoring_event
@functools.wraps(api.score_api)
def score_api(*args: object, budget: Budget, **kwargs: object) -> dict:
    return api.score_api(*args, budget=budget, **kwargs)


def cleared(count: int) -> Callable[[], list[None]]:
    """An event handler that empties ``count`` outputs, so that after an error the scores of an
    earlier request no longer look like the answer."""

    def clear_outputs() -> list[None]:
        return [None] * count

    return clear_outputs


# --- page ----------------------------------------------------------------------------------


def build_demo() -> gr.Blocks:
    """The whole page; nothing runs until it is launched."""
    with SpaceBlocks(
        title="ROUGE+ · rouge_plus", analytics_enabled=False, delete_cache=DELETE_CACHE
    ) as demo:
        gr.Markdown(INTRO)
        with gr.Accordion("Limits of this Space", open=False, elem_id="limits"):
            gr.Markdown(LIMITS)
        with gr.Accordion("Which ROUGE?", open=False, elem_id="which-rouge"):
            gr.Markdown(WHICH_ROUGE)
        with gr.Row(equal_height=False):
            with gr.Column(scale=1, min_width=260, elem_id="options"):
                settings = _options_column()
            with gr.Column(scale=3), gr.Tabs():
                with gr.Tab("Single pair", id="single"):
                    single = _single_pair_tab(settings["rouge_types"])
                with gr.Tab("Corpus", id="corpus"):
                    corpus = _corpus_tab()
        _wire_single(demo, single, settings)
        _wire_corpus(corpus, settings)
        gr.api(score_api, api_name="score", **_kind("api"))
    return demo.queue(default_concurrency_limit=CONCURRENT_REQUESTS, max_size=QUEUE_SIZE)


def _kind(name: str) -> dict:
    """The keywords of a scoring event of kind ``name``: its kind's slots (see
    :data:`SLOTS_PER_KIND`), shared by the kind's events."""
    return {"concurrency_id": name, "concurrency_limit": SLOTS_PER_KIND}


def _options_column() -> dict[str, gr.components.Component]:
    """The shared option inputs, by ``build_options`` parameter name."""
    gr.Markdown("### Options")
    rouge_types = gr.Dropdown(
        list(TYPE_CHOICES),
        value=DEFAULT_TYPES,
        multiselect=True,
        allow_custom_value=True,
        label="ROUGE types",
        info="Type other names too, such as rougeW-1.5 or rougeSU9.",
        elem_id="rouge-types",
    )
    use_stemmer = gr.Checkbox(False, label="Stemming (use_stemmer)")
    language = gr.Dropdown(
        language_choices(),
        value="none",
        label="Language",
        info="Its word segmenter, stemmer, stopwords and sentence marks.",
        elem_id="language",
    )
    tokenizer = gr.Dropdown(available_tokenizers(), value="default", label="Tokenizer")
    multi_ref = gr.Dropdown(
        [(MULTI_REF_LABELS.get(mode, mode), mode) for mode in MULTI_REF_MODES],
        value="best",
        label="Several references",
        info=MULTI_REF_HELP,
    )
    with gr.Accordion("Advanced", open=False, elem_id="advanced"):
        profile = gr.Dropdown(
            [(PROFILE_LABELS.get(name, name), name) for name in PROFILES],
            value="default",
            label="Profile",
            info=PROFILE_HELP,
            elem_id="profile",
        )
        stopwords = gr.Dropdown(
            stopword_choices(), value="none", label="Remove stopwords", elem_id="stopwords"
        )
        topic_pos = gr.Textbox(
            DEFAULT_TOPIC_POS,
            label="Topic POS prefixes (ROUGE-Topic)",
            info="Penn Treebank tag prefixes separated by |, e.g. NN|JJ|VB",
            elem_id="topic-pos",
        )
        beta = gr.Number(1.0, minimum=0.01, step=0.1, label="F beta (recall weight)")
        split_sentences = gr.Dropdown(
            available_sentence_splitters(), value="newline", label="Sentence splitter (ROUGE-Lsum)"
        )
    # Show what the profile implies; the user may still change either picker.
    profile.change(profile_defaults, profile, [tokenizer, multi_ref], api_visibility="private")
    return {
        "rouge_types": rouge_types,
        "use_stemmer": use_stemmer,
        "tokenizer": tokenizer,
        "split_sentences": split_sentences,
        "multi_ref": multi_ref,
        "beta": beta,
        "profile": profile,
        "stopwords": stopwords,
        "topic_pos": topic_pos,
        "language": language,
    }


def _single_pair_tab(rouge_types: gr.Dropdown) -> dict:
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
    table = gr.HTML(elem_id="pair-scores")
    highlights = gr.HTML(elem_id="pair-highlights")
    signature = gr.Markdown(elem_id="pair-signature")
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


def _wire_single(demo: gr.Blocks, tab: dict, settings: dict) -> None:
    private = {"api_visibility": "private"}
    options = gr.State()  # each scoring event reads the settings into it first
    read_options = options_reader(settings)
    clear = cleared(len(tab["outputs"]))
    for trigger in [*tab["triggers"], demo.load]:
        read = trigger(read_options, set(settings.values()), options, **private)
        read.failure(clear, None, tab["outputs"], queue=False, **private)
        scored = read.success(
            score_single, [*tab["inputs"], options], tab["outputs"], **private, **_kind("pair")
        )
        scored.failure(clear, None, tab["outputs"], queue=False, **private)


def _without_cache_files(upload: gr.File) -> gr.File:
    """``upload``, whose file reaches an event as its path, as ``gr.File`` gives it, without the
    empty file ``gr.File`` (Gradio 6.31) creates in its cache every time an event reads it. The
    instance's method is replaced: a subclass of a Gradio component would make Gradio write a
    ``.pyi`` file beside this module when the class is defined."""
    process_single_file = upload._process_single_file

    def path_only(f: FileData) -> NamedString | bytes:
        if upload.type == "filepath" and (
            not upload.file_types or is_valid_file(f.path, upload.file_types)
        ):
            return NamedString(f.path)
        return process_single_file(f)  # bytes, or Gradio's own refusal of the type

    upload._process_single_file = path_only
    return upload


def _corpus_tab() -> dict:
    with gr.Row():
        upload = _without_cache_files(
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


def _wire_corpus(tab: dict, settings: dict) -> None:
    private = {"api_visibility": "private"}
    options = gr.State()  # each scoring event reads the settings into it first
    upload, pasted = source = tab["source"]
    column_outputs = [*tab["columns"], tab["status"]]
    upload.change(update_columns, source, column_outputs, **private)
    # On any change (a paste, typing), not only on leaving the box: a paste followed at once by
    # "Score corpus" then finds the pickers filled (and scoring guesses any left empty).
    pasted.change(update_columns, source, column_outputs, **private)
    tab["sample"].click(sample_text, None, pasted, **private).then(
        update_columns, source, column_outputs, **private
    )
    compare_columns, comparison_table = tab["compare"]
    tab["columns"][0].change(
        update_compare_columns, [*source, tab["columns"][0]], compare_columns, **private
    )
    outputs = [*tab["outputs"], comparison_table]
    clear = cleared(len(outputs))
    read = tab["button"].click(options_reader(settings), set(settings.values()), options, **private)
    read.failure(clear, None, outputs, queue=False, **private)
    scored = read.success(
        score_corpus,
        [*source, *tab["columns"], *tab["bootstrap"], options],
        tab["outputs"],
        **private,
        **_kind("corpus"),
    )
    scored.failure(clear, None, outputs, queue=False, **private)
    compared = scored.success(
        compare_corpus,
        [*source, *tab["columns"], compare_columns, *tab["bootstrap"], options],
        comparison_table,
        **private,
        **_kind("compare"),
    )
    compared.failure(clear, None, outputs, queue=False, **private)


def main(demo: gr.Blocks | None = None) -> None:
    """Serve the page (``demo``, or a new one) until interrupted; the console gets one line per
    refused request. SIGTERM stops it as Ctrl-C does, so that Gradio's cache and the downloads
    are deleted on the way out."""
    logging.basicConfig(format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger(__package__).setLevel(logging.INFO)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    if _LIBC is not None:  # the handler threads share a few heaps, which malloc_trim can empty
        _LIBC.mallopt(M_ARENA_MAX, MALLOC_ARENAS)
    start_workers()
    (demo or build_demo()).launch(
        server_name=os.environ.get("GRADIO_SERVER_NAME", "127.0.0.1"),
        server_port=int(os.environ.get("GRADIO_SERVER_PORT", "7860")),
        max_file_size=f"{MAX_UPLOAD_MB}mb",
        max_threads=MAX_THREADS,
        theme=gr.themes.Soft(
            primary_hue="indigo",
            font=["ui-sans-serif", "system-ui", "sans-serif"],
            font_mono=["ui-monospace", "SFMono-Regular", "monospace"],
        ),
        css=CSS,
    )
