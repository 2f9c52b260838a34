"""What one request to the public Space may ask for, and how much work that is.

Every limit is a named constant here; the page states them (:func:`limits_markdown`),
docs/space.md repeats them (a test holds the two together), and a request beyond one is refused
before any scoring with a message that names the limit. A request is sized by the work it asks
for (:class:`Work`: its characters, its scores of a pair under a type, its resampled values),
not by its characters alone: 10,000 rows of empty texts bootstrapped 10,000 times is a minute
of work in no characters. A small request is worked on at once; any other takes turns in a
worker process killed when its time is up (:mod:`.workers`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import ClientGone, LimitError
from ..inputs import Batch
from ..options import ScoreOptions
from ..text.tokenizers import get_tokenizer

MAX_UPLOAD_MB = 5  # an uploaded or pasted corpus; the texts of one API call
MAX_UPLOAD_BYTES = MAX_UPLOAD_MB * 1024 * 1024
# A request's body, refused before it is read (request_size.py): the texts twice over (JSON may
# escape each character of a text in two bytes or more), and 1 MB for the rest of the request.
MAX_REQUEST_MB = 2 * MAX_UPLOAD_MB + 1
MAX_REQUEST_BYTES = MAX_REQUEST_MB * 1024 * 1024
MAX_ROWS = 10_000  # rows of a corpus; predictions of one API call
MAX_REFERENCES = 10  # references per prediction
MAX_TEXT_CHARS = 20_000  # characters per text
MAX_TEXT_TOKENS = 5_000  # tokens per text, under the chosen tokenizer
MAX_SYNONYM_TOKENS = 1_000  # tokens per text when a +synonyms type is scored
MAX_TYPES = 8  # ROUGE types per request
SPACE_MAX_NGRAM = 4  # the n of rougeN
SPACE_MAX_SYNONYM_NGRAM = 2  # the n of rougeN+synonyms
SPACE_MAX_SKIP_GAP = 100  # the D of rougeS<D> and rougeSU<D> (rougeS* and rougeSU* are accepted)
ROUGE_W_WEIGHTS = (1.0, 3.0)  # the smallest and largest w of rougeW-<w>
MAX_RESAMPLES = 10_000  # bootstrap resamples
MAX_STOPWORDS = 10_000  # words of a stopword list given to the API
TIME_BUDGET_S = 30  # seconds a request may work, waiting for its turn included
CONCURRENT_REQUESTS = 8  # small requests of one kind (pair, corpus, compare, API) at once
QUEUE_SIZE = 32  # requests waiting for Gradio's queue, beyond which the Space says it is busy
LARGE_AT_ONCE = 2  # large requests working at once, the others waiting their turn
LARGE_WAITING = 24  # large requests waiting for their turn, beyond which the Space says busy
# A small request (worked on at once, in the server) asks for at most this much of each kind of
# work, which the pure-Python kernels do in a fraction of a second: characters in all its texts
# (so as many tokens; 8 types of the slowest kind take under a second), scores of a (prediction,
# reference) pair under one type (about 15 us each), and resampled values (rows x types x
# resamples of a bootstrap or a paired test, about 0.1 us each).
SMALL_REQUEST_CHARS = 2_000
SMALL_REQUEST_SCORES = 10_000
SMALL_REQUEST_RESAMPLED = 2_000_000
# The comparison's power analysis of one (system, type), counted as resampled values: the paired
# t-test's, tens of evaluations of SciPy's noncentral t whatever the number of rows, took at most
# 5 ms (so, at 0.1 us a value, 50,000 values).
POWER_ANALYSIS_RESAMPLED = 50_000


__all__ = ["ClientGone", "LimitError", "Work", "check_options", "check_sizes", "check_texts"]


@dataclass(frozen=True)
class Work:
    """The work a request asks for: the characters of its texts, its scores (a pair of
    prediction and reference under one ROUGE type) and its resampled values (a row under one
    type in one resample of a bootstrap or a paired test). Requests add up (``+``)."""

    characters: int = 0
    scores: int = 0
    resampled: int = 0

    @classmethod
    def of(cls, batch: Batch, options: ScoreOptions, resamples: int = 0) -> Work:
        """The work of scoring ``batch`` under ``options``, then of ``resamples`` resamples of
        its per-row scores (a bootstrap: ``options.n_resamples``)."""
        characters = sum(len(text) for text in batch.predictions) + sum(
            len(text) for refs in batch.references for text in refs
        )
        types = len(options.rouge_types)
        pairs = sum(len(refs) for refs in batch.references)
        return cls(characters, pairs * types, len(batch) * types * resamples)

    def __add__(self, other: Work) -> Work:
        return Work(
            self.characters + other.characters,
            self.scores + other.scores,
            self.resampled + other.resampled,
        )

    @property
    def is_small(self) -> bool:
        """Whether it is little enough to do at once, in the server's process."""
        return (
            self.characters <= SMALL_REQUEST_CHARS
            and self.scores <= SMALL_REQUEST_SCORES
            and self.resampled <= SMALL_REQUEST_RESAMPLED
        )


def check_options(options: ScoreOptions) -> None:
    """``LimitError`` for options beyond the Space's limits (types, their parameters,
    resamples, stopwords)."""
    if len(options.rouge_types) > MAX_TYPES:
        _refuse(f"{len(options.rouge_types)} ROUGE types", f"at most {MAX_TYPES} per request")
    for measure in options.rouge_types:
        n = measure.ngram_length
        if n is not None and n > (SPACE_MAX_SYNONYM_NGRAM if measure.synonyms else SPACE_MAX_NGRAM):
            largest = f"rouge{SPACE_MAX_SYNONYM_NGRAM}+synonyms" if measure.synonyms else ""
            _refuse(measure.name, f"n-grams up to {largest or f'rouge{SPACE_MAX_NGRAM}'}")
        if measure.is_weighted and not (ROUGE_W_WEIGHTS[0] <= measure.weight <= ROUGE_W_WEIGHTS[1]):
            low, high = ROUGE_W_WEIGHTS
            _refuse(measure.name, f"ROUGE-W weights from {low:g} to {high:g}")
        if measure.is_skip_bigram and (measure.max_gap or 0) > SPACE_MAX_SKIP_GAP:
            _refuse(measure.name, f"skip gaps up to {SPACE_MAX_SKIP_GAP} (or *)")
    if options.n_resamples > MAX_RESAMPLES:
        _refuse(f"{options.n_resamples:,} resamples", f"at most {MAX_RESAMPLES:,}")
    stopwords = options.remove_stopwords
    if isinstance(stopwords, (list, tuple, set, frozenset)) and len(stopwords) > MAX_STOPWORDS:
        _refuse(f"{len(stopwords):,} stopwords", f"at most {MAX_STOPWORDS:,}")


def check_sizes(batch: Batch) -> None:
    """``LimitError`` for rows, references, bytes or characters of ``batch`` beyond the Space's
    limits (no text is tokenized)."""
    if len(batch) > MAX_ROWS:
        _refuse(f"{len(batch):,} rows", f"at most {MAX_ROWS:,} per request")
    size = 0
    for row, refs in enumerate(batch.references):
        if len(refs) > MAX_REFERENCES:
            _refuse(f"row {row} has {len(refs)} references", f"at most {MAX_REFERENCES}")
        for text in (batch.predictions[row], *refs):
            if len(text) > MAX_TEXT_CHARS:
                what = f"a text of row {row} has {len(text):,} characters"
                _refuse(what, f"{MAX_TEXT_CHARS:,}")
            size += len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_UPLOAD_BYTES:
        _refuse(f"{size / 2**20:.1f} MB of text", f"{MAX_UPLOAD_MB} MB per request")


def count_tokens(batch: Batch, options: ScoreOptions) -> np.ndarray:
    """The number of tokens of each row (prediction and references), after ``LimitError`` for
    a text of more tokens than the Space takes."""
    most = MAX_SYNONYM_TOKENS if options.needs_synonyms else MAX_TEXT_TOKENS
    tokenize = get_tokenizer(options.tokenizer)
    tokens = np.zeros(len(batch), dtype=np.int64)
    for row, refs in enumerate(batch.references):
        for text in (batch.predictions[row], *refs):
            count = len(tokenize(text))
            if count > most:
                why = " with a +synonyms type" if options.needs_synonyms else ""
                _refuse(f"a text of row {row} has {count:,} tokens", f"{most:,}{why}")
            tokens[row] += count
    return tokens


def check_texts(batch: Batch, options: ScoreOptions) -> np.ndarray:
    """The number of tokens of each row (prediction and references), after ``LimitError`` for
    texts beyond the Space's limits: rows, references, bytes, characters and tokens."""
    check_sizes(batch)
    return count_tokens(batch, options)


def _refuse(what: str, limit: str) -> None:
    raise LimitError(f"{what}: the Space takes {limit}.")


def limits_markdown() -> str:
    """The limits as the page states them."""
    low, high = ROUGE_W_WEIGHTS
    return "\n".join(
        [
            f"- a corpus file or pasted text: up to {MAX_UPLOAD_MB} MB and {MAX_ROWS:,} rows "
            f"(the /score API: as much per call); a request's body up to {MAX_REQUEST_MB} MB, "
            "refused before it is read",
            f"- each row: up to {MAX_REFERENCES} references; each text: up to "
            f"{MAX_TEXT_CHARS:,} characters and {MAX_TEXT_TOKENS:,} tokens "
            f"({MAX_SYNONYM_TOKENS:,} with a +synonyms type)",
            f"- up to {MAX_TYPES} ROUGE types: n-grams up to rouge{SPACE_MAX_NGRAM} and "
            f"rouge{SPACE_MAX_SYNONYM_NGRAM}+synonyms, rougeS/SU gaps up to "
            f"{SPACE_MAX_SKIP_GAP} (or *), "
            f"ROUGE-W weights from {low:g} to {high:g}",
            f"- up to {MAX_RESAMPLES:,} bootstrap resamples",
            f"- {TIME_BUDGET_S} s of work per request, waiting included; work stops when the "
            "page is closed",
            f"- a request is small, and answered at once, when it asks for little work: up to "
            f"{SMALL_REQUEST_CHARS:,} characters of text, {SMALL_REQUEST_SCORES:,} scores (pairs "
            f"of prediction and reference times types) and {SMALL_REQUEST_RESAMPLED:,} resampled "
            "values (rows times types times bootstrap resamples, and "
            f"{POWER_ANALYSIS_RESAMPLED:,} for each power analysis of a comparison); larger "
            "requests take turns, "
            f"each in a worker process stopped when its time is up, {LARGE_AT_ONCE} at a time and "
            f"{LARGE_WAITING} waiting; beside them, {CONCURRENT_REQUESTS} small requests of each "
            f"kind (single pair, corpus, comparison, API) at once and {QUEUE_SIZE} waiting; "
            "beyond that the Space says it is busy",
        ]
    )
