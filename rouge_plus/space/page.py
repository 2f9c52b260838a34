"""rouge_plus in the browser: one pair with its matches highlighted, or a whole corpus file.

``app.py`` at the repository root launches :func:`main` (address from GRADIO_SERVER_NAME /
GRADIO_SERVER_PORT, default 127.0.0.1:7860); on a Hugging Face Space the same file is the app.
This module puts the page together from its parts (the options column, the two tabs) and
serves it; the logic lives in the other ``rouge_plus.space`` modules, which the tests call
without a browser. The API endpoint ``/score`` (see
:mod:`.api`) returns exactly what ``rouge_plus.score`` returns::

    Client(url).predict(predictions=[...], references=[...], api_name="/score")
"""

from __future__ import annotations

import functools
import logging
import os
import signal

import gradio as gr
from starlette.middleware import Middleware

from .._version import __version__
from ..data import read_bundled_text
from . import api
from .compiled import backend
from .corpus_tab import corpus_tab, wire_corpus_tab
from .events import SLOTS_PER_KIND, kind, scoring_event
from .limits import (
    CONCURRENT_REQUESTS,
    MAX_REQUEST_BYTES,
    MAX_UPLOAD_MB,
    QUEUE_SIZE,
    limits_markdown,
)
from .memory import freeze_startup_objects
from .options_column import options_column
from .pair_tab import pair_tab, wire_pair_tab
from .render import CSS
from .request_size import RequestSizeLimit
from .workarounds import SpaceBlocks
from .workers import Budget, start_workers

# Gradio's cache (uploads, downloads): every DELETE_CACHE[0] s, files older than
# DELETE_CACHE[1] s are deleted.
DELETE_CACHE = (300, 600)
# Threads for the handlers: every kind's slots, and the page's light events.
MAX_THREADS = 5 * SLOTS_PER_KIND

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

# The short answer and README's table, written by scripts/which_rouge.py (the one source).
WHICH_ROUGE = read_bundled_text("which_rouge.md")


@scoring_event
@functools.wraps(api.score_api)
def score_api(*args: object, budget: Budget, **kwargs: object) -> dict:
    return api.score_api(*args, budget=budget, **kwargs)


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
                settings = options_column()
            with gr.Column(scale=3), gr.Tabs():
                with gr.Tab("Single pair", id="single"):
                    single = pair_tab(settings["rouge_types"])
                with gr.Tab("Corpus", id="corpus"):
                    corpus = corpus_tab()
        wire_pair_tab(demo, single, settings)
        wire_corpus_tab(corpus, settings)
        gr.api(score_api, api_name="score", **kind("api"))
    return demo.queue(default_concurrency_limit=CONCURRENT_REQUESTS, max_size=QUEUE_SIZE)


def main(demo: gr.Blocks | None = None) -> None:
    """Serve the page (``demo``, or a new one) until interrupted; the console gets one line per
    refused request. SIGTERM stops it as Ctrl-C does, so that Gradio's cache and the downloads
    are deleted on the way out."""
    logging.basicConfig(format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger(__package__).setLevel(logging.INFO)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    start_workers()
    demo = demo or build_demo()
    freeze_startup_objects()
    demo.launch(
        server_name=os.environ.get("GRADIO_SERVER_NAME", "127.0.0.1"),
        server_port=int(os.environ.get("GRADIO_SERVER_PORT", "7860")),
        max_file_size=f"{MAX_UPLOAD_MB}mb",
        max_threads=MAX_THREADS,
        app_kwargs={"middleware": [Middleware(RequestSizeLimit, max_bytes=MAX_REQUEST_BYTES)]},
        theme=gr.themes.Soft(
            primary_hue="indigo",
            font=["ui-sans-serif", "system-ui", "sans-serif"],
            font_mono=["ui-monospace", "SFMono-Regular", "monospace"],
        ),
        css=CSS,
    )
