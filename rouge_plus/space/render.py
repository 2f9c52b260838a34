"""The page's HTML: score tables with bars, highlighted texts, legend, and its CSS.

Every text shown is escaped here; callers pass plain strings and numbers.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence

from .explain import TokenSpan
from .scoring import ReferenceExplanation

KIND_LABELS = {
    "ngram": "matched n-gram",
    "lcs": "on the LCS",
    "both": "n-gram and LCS",
    "synonym": "synonym match (rouge1+synonyms)",
}


def display_name(rouge_type: str) -> str:
    """``rouge1`` -> ``ROUGE-1``, ``rougeLsum`` -> ``ROUGE-Lsum``."""
    return re.sub(r"^rouge", "ROUGE-", rouge_type)


def format_score(value: float) -> str:
    return f"{value:.4f}"


def score_bar_html(value: float) -> str:
    """A score as its number beside a bar of proportional length."""
    return (
        f"<div class='rp-cell'><div class='rp-track'><div class='rp-bar' "
        f"style='width:{100 * value:.1f}%'></div></div><span>{format_score(value)}</span></div>"
    )


def _row_head(name: str) -> str:
    return f"<th scope='row'>{html.escape(display_name(name))}</th>"


def scores_table_html(scores: dict[str, tuple]) -> str:
    """P/R/F per ROUGE type as an HTML table, F drawn as a bar."""
    rows = "".join(
        f"<tr>{_row_head(name)}<td>{format_score(p)}</td><td>{format_score(r)}</td>"
        f"<td class='rp-f'>{score_bar_html(f)}</td></tr>"
        for name, (p, r, f) in scores.items()
    )
    return (
        "<table class='rp-table'><thead><tr><th>Type</th><th>Precision</th><th>Recall</th>"
        f"<th>F</th></tr></thead><tbody>{rows}</tbody></table>"
    )


def summary_table_html(summary: dict[str, float], rouge_types: Sequence[str], level: float) -> str:
    """Mean F, P and R per type (the command line's numbers), and F's bootstrap interval."""
    percent = f"{100 * level:g}%"
    rows = "".join(
        f"<tr>{_row_head(name)}"
        f"<td class='rp-f'>{score_bar_html(summary[f'{name}_mean'])}</td>"
        f"<td class='rp-ci'>{format_score(summary[f'{name}_low'])} – "
        f"{format_score(summary[f'{name}_high'])}</td>"
        f"<td>{format_score(summary[f'{name}_mean_precision'])}</td>"
        f"<td>{format_score(summary[f'{name}_mean_recall'])}</td></tr>"
        for name in rouge_types
    )
    headers = "".join(
        f"<th>{_label(long, short)}</th>"
        for long, short in [
            ("Type", "Type"),
            ("Mean F", "Mean F"),
            (f"{percent} CI of F (bootstrap)", f"{percent} CI"),
            ("Mean precision", "Mean P"),
            ("Mean recall", "Mean R"),
        ]
    )
    return (
        f"<table class='rp-table rp-corpus'><thead><tr>{headers}"
        f"</tr></thead><tbody>{rows}</tbody></table>"
        "<p><small>Means over the examples, as <code>rouge_plus.score</code> and the "
        "<code>rouge-plus</code> command line give them; the interval is the bootstrap's "
        "percentile interval of the mean F.</small></p>"
    )


def _label(long: str, short: str) -> str:
    """A column's header: ``long``, or on a phone's narrow screen ``short``."""
    if long == short:
        return html.escape(long)
    return (
        f"<span class='rp-long'>{html.escape(long)}</span>"
        f"<span class='rp-short' title='{html.escape(long)}'>{html.escape(short)}</span>"
    )


def highlight_html(text: str, spans: Sequence[TokenSpan]) -> str:
    """``text`` as HTML, each matched token wrapped in ``<mark class="rp-<kind>">``."""
    parts = []
    position = 0
    for span in spans:
        if span.kind is None:
            continue
        parts.append(html.escape(text[position : span.start]))
        parts.append(
            f"<mark class='rp-{span.kind}' title='{KIND_LABELS[span.kind]}'>"
            f"{html.escape(text[span.start : span.end])}</mark>"
        )
        position = span.end
    parts.append(html.escape(text[position:]))
    return "".join(parts)


def legend_html(ngram_n: int, with_synonyms: bool) -> str:
    """What each highlight colour means; the synonym colour only when synonyms are marked."""
    labels = dict(KIND_LABELS, ngram=f"matched {ngram_n}-gram", both=f"{ngram_n}-gram and LCS")
    kinds = ("ngram", "lcs", "both", "synonym") if with_synonyms else ("ngram", "lcs", "both")
    items = "".join(
        f"<span class='rp-legend-item'><mark class='rp-{kind}'>{kind}</mark> {labels[kind]}</span>"
        for kind in kinds
    )
    return f"<div class='rp-legend'>{items}</div>"


def explanation_html(
    prediction: str, explained: Sequence[ReferenceExplanation], ngram_n: int, with_synonyms: bool
) -> str:
    """The legend, then one card per reference: the pair's own F per type, both texts marked."""
    cards = []
    for number, item in enumerate(explained, start=1):
        badges = " ".join(
            f"<span class='rp-badge'>{html.escape(display_name(name))} F {format_score(f)}</span>"
            for name, (_, _, f) in item.scores.items()
        )
        cards.append(
            "<div class='rp-card'>"
            f"<div class='rp-card-head'><b>Reference {number}</b>{badges}</div>"
            "<div class='rp-label'>Prediction</div>"
            f"<div class='rp-text'>{highlight_html(prediction, item.explanation.prediction)}</div>"
            "<div class='rp-label'>Reference</div>"
            f"<div class='rp-text'>{highlight_html(item.reference, item.explanation.reference)}"
            "</div></div>"
        )
    return legend_html(ngram_n, with_synonyms) + "".join(cards)


CSS = """
.rp-table { width: 100%; border-collapse: collapse; font-variant-numeric: tabular-nums;
  margin: 0 0 8px !important; }
.rp-table, .rp-table thead, .rp-table tbody, .rp-table tr { border: none !important; }
.rp-table th, .rp-table td { padding: 7px 10px !important; text-align: right; white-space: nowrap;
  border: none !important; border-bottom: 1px solid var(--border-color-primary) !important;
  background: transparent !important; }
.rp-table thead th { font-size: .8em; text-transform: uppercase; letter-spacing: .04em;
  opacity: .7; }
.rp-table th:first-child { text-align: left; }
.rp-table td.rp-f { width: 40%; font-weight: 600; }
.rp-cell { display: flex; align-items: center; gap: 10px; }
.rp-track { flex: 1; height: 10px; border-radius: 5px;
  background: var(--background-fill-secondary); }
.rp-bar { height: 100%; border-radius: 5px; background: linear-gradient(90deg, #a5b4fc, #6366f1); }
.rp-legend { display: flex; flex-wrap: wrap; gap: 14px; margin: 4px 0 10px;
  font-size: .9em; }
.rp-card { border: 1px solid var(--border-color-primary); border-radius: 10px;
  padding: 10px 14px; margin-bottom: 12px; background: var(--block-background-fill); }
.rp-card-head { display: flex; flex-wrap: wrap; align-items: center; gap: 8px;
  margin-bottom: 6px; }
.rp-badge { font-size: .8em; padding: 1px 8px; border-radius: 999px;
  background: var(--background-fill-secondary); border: 1px solid var(--border-color-primary); }
.rp-label { font-size: .75em; text-transform: uppercase; letter-spacing: .05em;
  opacity: .65; margin-top: 6px; }
.rp-text { white-space: pre-wrap; line-height: 1.9; font-size: 1.05em; }
#pair-signature code, #corpus-status code { white-space: normal; word-break: break-all;
  font-size: .8em; }
mark.rp-ngram, mark.rp-lcs, mark.rp-both, mark.rp-synonym { color: #111827;
  border-radius: 4px; padding: 1px 2px; }
mark.rp-ngram { background: #fde68a; }
mark.rp-lcs { background: #bfdbfe; }
mark.rp-both { background: #86efac; }
mark.rp-synonym { background: #f5d0fe; }
/* A result kept on the page while the next one computes. */
.rp-stale { opacity: .35; transition: opacity .2s; }
.rp-short { display: none; }
/* A phone: the inputs and scores first, the options after them; the score tables fit the
   screen (short headers, intervals on two lines, the numbers without their bars); wider ones
   scroll. */
@media (max-width: 640px) {
  #options { order: 2; }
  #pair-scores, #corpus-summary, #corpus-comparison { overflow-x: auto; }
  .rp-table { font-size: .9em; }
  .rp-table th, .rp-table td { padding: 6px 3px !important; }
  .rp-long { display: none; }
  .rp-short { display: inline; }
  .rp-table thead th { white-space: normal; letter-spacing: 0; }
  .rp-table td.rp-f { width: auto; }
  .rp-table td.rp-ci { white-space: normal; }
  .rp-track { display: none; }
}
"""
