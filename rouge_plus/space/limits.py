"""What one request to the public Space may ask for, and how long it may work.

Every limit is a named constant here; the page states them (:func:`limits_markdown`),
docs/space.md repeats them (a test holds the two together), and a request beyond one is refused
before any scoring with a message that names the limit. Scoring then runs in chunks of rows and
stops between two chunks when the request's time budget is spent or its client has gone. Large
requests take turns (:data:`LARGE_AT_ONCE` at a time), so a small one never waits behind them.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import numpy as np

from ..errors import ClientGone, LimitError
from ..inputs import Batch
from ..options import ScoreOptions
from ..results import ExampleScores
from ..scorer import score_stream
from ..text.tokenizers import get_tokenizer

MAX_UPLOAD_MB = 5  # an uploaded or pasted corpus; the texts of one API call
MAX_UPLOAD_BYTES = MAX_UPLOAD_MB * 1024 * 1024
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
CONCURRENT_REQUESTS = 8  # requests of one kind (pair, corpus, API) running at once
QUEUE_SIZE = 32  # requests waiting for their turn, beyond which the Space says it is busy
LARGE_AT_ONCE = 2  # large requests working at once, the others waiting their turn
SMALL_REQUEST_TOKENS = 5_000  # a request with at most this many tokens in all is small
CHUNK_TOKENS = 20_000  # tokens scored between two looks at the time budget


__all__ = ["Budget", "ClientGone", "LimitError", "check_options", "check_texts"]


@dataclass
class Budget:
    """How long a request may still work: a deadline, and a way to ask whether its client is
    still there (the page asks Gradio; nothing is asked by default)."""

    client_gone: Callable[[], bool] = lambda: False
    seconds: float = TIME_BUDGET_S
    deadline: float = field(init=False)

    def __post_init__(self) -> None:
        self.deadline = time.monotonic() + self.seconds

    def check(self) -> None:
        """``ClientGone`` or ``LimitError`` once the request should stop working."""
        if self.client_gone():
            raise ClientGone("stopped: the client left before the scores were ready")
        if time.monotonic() > self.deadline:
            raise LimitError(
                f"This request needs more than {TIME_BUDGET_S} s of work, the Space's limit per "
                "request (or waited that long for the large requests before it): score fewer "
                "or shorter texts at a time, or use the rouge-plus command line."
            )


_LARGE_TURNS = threading.BoundedSemaphore(LARGE_AT_ONCE)


@contextlib.contextmanager
def turn(tokens: int, budget: Budget) -> Iterator[None]:
    """Wait for a large request's turn (small requests go at once), within the budget."""
    if tokens <= SMALL_REQUEST_TOKENS:
        yield
        return
    while not _LARGE_TURNS.acquire(timeout=0.25):
        budget.check()
    try:
        yield
    finally:
        _LARGE_TURNS.release()


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
        if measure.is_weighted and not (
            ROUGE_W_WEIGHTS[0] <= measure.weight <= ROUGE_W_WEIGHTS[1]
        ):
            low, high = ROUGE_W_WEIGHTS
            _refuse(measure.name, f"ROUGE-W weights from {low:g} to {high:g}")
        if measure.is_skip_bigram and (measure.max_gap or 0) > SPACE_MAX_SKIP_GAP:
            _refuse(measure.name, f"skip gaps up to {SPACE_MAX_SKIP_GAP} (or *)")
    if options.n_resamples > MAX_RESAMPLES:
        _refuse(f"{options.n_resamples:,} resamples", f"at most {MAX_RESAMPLES:,}")
    stopwords = options.remove_stopwords
    if isinstance(stopwords, (list, tuple, set, frozenset)) and len(stopwords) > MAX_STOPWORDS:
        _refuse(f"{len(stopwords):,} stopwords", f"at most {MAX_STOPWORDS:,}")


def check_texts(batch: Batch, options: ScoreOptions) -> np.ndarray:
    """The number of tokens of each row (prediction and references), after ``LimitError`` for
    texts beyond the Space's limits: rows, references, bytes, characters and tokens."""
    if len(batch) > MAX_ROWS:
        _refuse(f"{len(batch):,} rows", f"at most {MAX_ROWS:,} per request")
    size = 0
    for row, refs in enumerate(batch.references):
        if len(refs) > MAX_REFERENCES:
            _refuse(f"row {row} has {len(refs)} references", f"at most {MAX_REFERENCES}")
        for text in (batch.predictions[row], *refs):
            if len(text) > MAX_TEXT_CHARS:
                characters = f"{len(text):,} characters"
                _refuse(f"a text of row {row} has {characters}", f"{MAX_TEXT_CHARS:,}")
            size += len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_UPLOAD_BYTES:
        _refuse(f"{size / 2**20:.1f} MB of text", f"{MAX_UPLOAD_MB} MB per request")
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


def score_within_limits(
    batch: Batch,
    options: ScoreOptions,
    budget: Budget,
    on_chunk: Callable[[int, int], None] | None = None,
) -> ExampleScores:
    """Per-example scores of ``batch``, checked against the limits first, scored in chunks of
    about :data:`CHUNK_TOKENS` tokens with a look at ``budget`` after each (and ``on_chunk``),
    when its turn comes."""
    check_options(options)
    tokens = check_texts(batch, options)

    def after_chunk(start: int, stop: int) -> None:
        budget.check()
        if on_chunk is not None:
            on_chunk(start, stop)

    with turn(int(tokens.sum()), budget):
        budget.check()
        return score_stream(_chunks(batch, tokens), options, on_chunk=after_chunk)


def aggregate_within(
    examples: ExampleScores, options: ScoreOptions, budget: Budget
) -> dict[str, float]:
    """``examples.aggregate(options)``, one ROUGE type at a time with a look at ``budget``
    in between (a bootstrap of 10,000 resamples over 10,000 rows takes a second per type)."""
    result: dict[str, float] = {}
    for name, values in examples.scores.items():
        budget.check()
        one = ExampleScores({name: values}, examples.options, examples.signature)
        result.update(one.aggregate(options))
    return result


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


def _refuse(what: str, limit: str) -> None:
    raise LimitError(f"{what}: the Space takes {limit}.")


def limits_markdown() -> str:
    """The limits as the page states them."""
    low, high = ROUGE_W_WEIGHTS
    return "\n".join(
        [
            f"- a corpus file or pasted text: up to {MAX_UPLOAD_MB} MB and {MAX_ROWS:,} rows "
            f"(the /score API: as much per call)",
            f"- each row: up to {MAX_REFERENCES} references; each text: up to "
            f"{MAX_TEXT_CHARS:,} characters and {MAX_TEXT_TOKENS:,} tokens "
            f"({MAX_SYNONYM_TOKENS:,} with a +synonyms type)",
            f"- up to {MAX_TYPES} ROUGE types: n-grams up to rouge{SPACE_MAX_NGRAM} and "
            f"rouge{SPACE_MAX_SYNONYM_NGRAM}+synonyms, rougeS/SU gaps up to "
            f"{SPACE_MAX_SKIP_GAP} (or *), "
            f"ROUGE-W weights from {low:g} to {high:g}",
            f"- up to {MAX_RESAMPLES:,} bootstrap resamples",
            f"- {TIME_BUDGET_S} s of work per request; large requests take turns, "
            f"{LARGE_AT_ONCE} at a time; work stops when the page is closed",
            f"- {CONCURRENT_REQUESTS} requests of each kind (single pair, corpus, API) at once "
            f"and {QUEUE_SIZE} waiting; beyond that the Space says it is busy",
        ]
    )
