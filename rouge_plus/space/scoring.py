"""The options the page offers, turned into ``rouge_plus.score`` keywords, and scoring with them
(a pair with its explanation, or rows in chunks, within the Space's limits and time budget).

Options travel as the keyword dict a user would pass to :func:`rouge_plus.score`, so the page's
numbers and its signature line are those of the library called with the same keywords.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

import numpy as np

from .._records import replace
from ..errors import InputError, RougePlusError
from ..inputs import Batch
from ..options import ScoreOptions
from ..plan import ScoringPlan
from ..results import SCORE_COLUMNS, ExampleScores
from ..scorer import score_examples, score_stream
from ..scoring.measures import DEFAULT_ROUGE_TYPES
from ..text.languages import LANGUAGES
from ..text.stopwords import smart_words_file
from .explain import PairExplanation, explain_with_plan
from .limits import Work, check_options, check_sizes, count_tokens
from .workers import Budget, within_budget

Summary = TypeVar("Summary")
CHUNK_TOKENS = 20_000  # tokens scored between two progress reports

DEFAULT_TYPES = list(DEFAULT_ROUGE_TYPES)

# The type picker's list; other valid names (rougeW-1.5, rougeS9, ...) can be typed in.
TYPE_CHOICES = (
    "rouge1", "rouge2", "rouge3", "rouge4", "rougeL", "rougeLsum",
    "rougeW", "rougeS4", "rougeSU4", "rougeS*", "rougeSU*",
    "rouge1+synonyms", "rouge2+synonyms",
    "rougeTopic", "rougeTopicUniq", "rougeTopic+synonyms", "rougeTopicUniq+synonyms",
)  # fmt: skip

# Stopword picker value -> the ``remove_stopwords`` option.
STOPWORD_OPTIONS: dict[str, bool | str | None] = {"none": None, "english": True, "smart": "smart"}
STOPWORD_LABELS = {
    "none": "keep all words",
    "english": "English list (318 words)",
    "smart": "ROUGE-1.5.5 SMART list (-s)",
}
DEFAULT_TOPIC_POS = "NN|JJ"


def stopword_choices() -> list[tuple[str, str]]:
    """(label, value) pairs of the stopword picker; SMART only when its list is installed."""
    available = [name for name in STOPWORD_OPTIONS if name != "smart" or smart_words_file()]
    return [(STOPWORD_LABELS[name], name) for name in available]


def language_choices() -> list[tuple[str, str]]:
    """(label, value) pairs of the language picker: none, then every language by name."""
    named = sorted(LANGUAGES.values(), key=lambda language: language.name)
    return [("none (rouge_score's conventions)", "none")] + [
        (f"{language.name} ({language.code})", language.code) for language in named
    ]


def profile_defaults(profile: str) -> tuple[str, str]:
    """The tokenizer and multi-reference mode ``profile`` implies when they are not given."""
    options = ScoreOptions.from_kwargs(profile=profile)
    return str(options.tokenizer), options.multi_ref


def build_options(
    rouge_types: Sequence[str] | None,
    use_stemmer: bool,
    tokenizer: str,
    split_sentences: str,
    multi_ref: str,
    beta: float | None,
    profile: str = "default",
    stopwords: str = "none",
    topic_pos: str = DEFAULT_TOPIC_POS,
    language: str = "none",
) -> dict:
    """Keyword options for ``rouge_plus.score``, validated; ``InputError`` says what is wrong.

    ``stopwords`` is a key of :data:`STOPWORD_OPTIONS`; ``topic_pos`` lists tag prefixes
    separated by ``|``, commas or spaces; ``language`` is an ISO 639-1 code or ``"none"``.
    """
    if not rouge_types:
        raise InputError("Pick at least one ROUGE type.")
    if stopwords not in STOPWORD_OPTIONS:
        raise InputError(f"Unknown stopword list {stopwords!r}.")
    options = {
        "rouge_types": list(rouge_types),
        "use_stemmer": bool(use_stemmer),
        "tokenizer": tokenizer,
        "split_sentences": split_sentences,
        "multi_ref": multi_ref,
        "beta": None if beta is None else float(beta),
        "profile": profile,
        "remove_stopwords": STOPWORD_OPTIONS[stopwords],
        "topic_pos": "|".join(re.split(r"[|,\s]+", (topic_pos or "").strip())),
        "language": None if language in ("none", "", None) else language,
    }
    score_options(options)  # validates
    return options


def score_options(options: dict, **overrides: object) -> ScoreOptions:
    """``options`` (and ``overrides``) as a :class:`ScoreOptions`; ``InputError`` if invalid."""
    if not isinstance(options, dict):  # a client called a scoring event without reading them
        raise InputError("No options were given: read the options first.")
    try:
        return ScoreOptions.from_kwargs(**options, **overrides)
    except RougePlusError as error:
        raise InputError(str(error)) from error


def pair_scores(prediction: str, references: list[str], plan: ScoringPlan) -> dict[str, tuple]:
    """``{rouge_type: (precision, recall, f)}`` for one prediction and its references."""
    columns = score_examples([prediction], [references], plan).columns()
    return {
        name: tuple(columns[f"{name}_{column}"][0] for column in SCORE_COLUMNS)
        for name in plan.names
    }


@dataclass(frozen=True)
class ReferenceExplanation:
    """One reference of a pair: its highlighted tokens and the pair's own scores against it."""

    reference: str
    explanation: PairExplanation
    scores: dict[str, tuple]


def explain_references(
    prediction: str, references: list[str], plan: ScoringPlan, ngram_n: int
) -> list[ReferenceExplanation]:
    """The prediction against each reference on its own, highlighted and scored."""
    return [
        ReferenceExplanation(
            reference,
            explain_with_plan(prediction, reference, plan, ngram_n=ngram_n),
            pair_scores(prediction, [reference], plan),
        )
        for reference in references
    ]


@dataclass(frozen=True)
class PairReport:
    """What the single-pair tab shows: the pair's scores, each reference explained, and the
    signature of the options."""

    scores: dict[str, tuple]
    explained: list[ReferenceExplanation]
    signature: str


def report_pair(
    prediction: str, references: list[str], options: ScoreOptions, ngram_n: int
) -> PairReport:
    """The single-pair tab's work (in a worker process for a large pair: its plan is built
    there, since a plan holds what cannot be sent)."""
    plan = ScoringPlan(options)
    return PairReport(
        pair_scores(prediction, references, plan),
        explain_references(prediction, references, plan, ngram_n),
        plan.signature,
    )


def bootstrap_options(
    options: dict, confidence_level: float, n_resamples: int, seed: int
) -> ScoreOptions:
    """The options of the corpus tab's bootstrap (with P/R); ``InputError`` if invalid."""
    try:
        settings = {
            "confidence_level": float(confidence_level),
            "n_resamples": int(n_resamples),
            "seed": int(seed),
        }
    except (TypeError, ValueError):
        raise InputError("Give the confidence level, resamples and seed as numbers.") from None
    return score_options(options, aggregation="bootstrap", return_precision_recall=True, **settings)


def corpus_summary(examples: ExampleScores, bootstrap: ScoreOptions) -> dict[str, float]:
    """``rouge_plus.score``'s bootstrap result under ``bootstrap`` (with P/R), plus the plain
    means the command line and ``rouge_plus.score`` give by default: ``<type>_mean`` (F),
    ``<type>_mean_precision`` and ``<type>_mean_recall``."""
    summary = examples.aggregate(bootstrap)
    means = examples.aggregate(replace(bootstrap, aggregation="mean"))
    for name in examples.scores:
        summary[f"{name}_mean"] = means[f"{name}_fmeasure"]
        summary[f"{name}_mean_precision"] = means[f"{name}_precision"]
        summary[f"{name}_mean_recall"] = means[f"{name}_recall"]
    return summary


def score_rows(
    batch: Batch, options: ScoreOptions, progress: Callable[[int, int], None] | None = None
) -> ExampleScores:
    """Per-example scores of ``batch`` after its tokens are counted against the limits, in
    chunks of about :data:`CHUNK_TOKENS` tokens, ``progress(start, stop)`` after each."""
    tokens = count_tokens(batch, options)
    return score_stream(_chunks(batch, tokens), options, on_chunk=progress)


@dataclass(frozen=True)
class Scored(Generic[Summary]):
    """A request's per-example scores, and what its ``summarize`` made of them (or None)."""

    examples: ExampleScores
    summary: Summary | None


def score_and_summarize(
    batch: Batch,
    options: ScoreOptions,
    summarize: Callable[[ExampleScores], Summary] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Scored[Summary]:
    """:func:`score_rows`, then ``summarize`` of the scores: a request's whole work."""
    examples = score_rows(batch, options, progress)
    return Scored(examples, None if summarize is None else summarize(examples))


def score_within_limits(
    batch: Batch,
    options: ScoreOptions,
    budget: Budget,
    on_chunk: Callable[[int, int], None] | None = None,
    *,
    summarize: Callable[[ExampleScores], Summary] | None = None,
    resamples: int = 0,
) -> Scored[Summary]:
    """Per-example scores of ``batch`` and ``summarize`` of them (which resamples the scores
    ``resamples`` times, as a bootstrap does), checked against the limits first, all within
    ``budget`` (:func:`within_budget`: in a worker process unless the work is small);
    ``on_chunk(start, stop)`` after each chunk of rows. ``summarize`` must be picklable."""
    check_options(options)
    check_sizes(batch)

    def after_chunk(start: int, stop: int) -> None:
        budget.check()
        if on_chunk is not None:
            on_chunk(start, stop)

    work = Work.of(batch, options, resamples)
    return within_budget(
        budget, work, score_and_summarize, batch, options, summarize, on_progress=after_chunk
    )


def _chunks(batch: Batch, tokens: np.ndarray) -> Iterator[tuple[list[str], list[list[str]]]]:
    """Consecutive rows of ``batch`` holding about :data:`CHUNK_TOKENS` tokens (a row at
    least)."""
    start = 0
    ends = np.cumsum(tokens)
    while start < len(batch):
        base = ends[start - 1] if start else 0
        stop = max(start + 1, int(np.searchsorted(ends, base + CHUNK_TOKENS, side="right")))
        part = batch.rows(start, stop)
        yield part.predictions, part.references
        start = stop
