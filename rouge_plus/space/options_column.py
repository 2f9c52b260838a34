"""The page's options column: the ROUGE types and every option both tabs score with."""

from __future__ import annotations

import gradio as gr

from ..options import PROFILES
from ..scoring.multiref import MULTI_REF_MODES
from ..text.sentences import available_sentence_splitters
from ..text.tokenizers import available_tokenizers
from .events import PRIVATE
from .scoring import (
    DEFAULT_TOPIC_POS,
    DEFAULT_TYPES,
    TYPE_CHOICES,
    language_choices,
    profile_defaults,
    stopword_choices,
)

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


def options_column() -> dict[str, gr.components.Component]:
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
    profile.change(profile_defaults, profile, [tokenizer, multi_ref], **PRIVATE)
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
