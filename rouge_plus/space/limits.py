"""What one request to the public Space may ask for, and how long it may work.

Every limit is a named constant here; the page states them (:func:`limits_markdown`),
docs/space.md repeats them (a test holds the two together), and a request beyond one is refused
before any scoring with a message that names the limit. A request is sized by the work it asks
for (:class:`Work`: its characters, its scores of a pair under a type, its resampled values),
not by its characters alone: 10,000 rows of empty texts bootstrapped 10,000 times is a minute
of work in no characters. A small request is worked on at once; any other waits for its turn
(:data:`LARGE_AT_ONCE` at a time, :data:`LARGE_WAITING` waiting) and is worked on, scoring and
aggregation alike, in a process of its own (:func:`within_budget`), which is killed the moment
the request's time budget is spent or its client has gone: one pair of long texts takes
seconds on the pure-Python kernels, so looking at the budget between pieces of work could not
stop it in time.
"""

from __future__ import annotations

import contextlib
import functools
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Generic, TypeVar

import numpy as np

from ..errors import ClientGone, LimitError, RougePlusError
from ..inputs import Batch
from ..options import ScoreOptions
from ..results import ExampleScores
from ..scorer import score_stream
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
CHUNK_TOKENS = 20_000  # tokens scored between two progress reports
BUDGET_POLL_S = 0.1  # how often the budget of a request at work is looked at
WORKER_NICENESS = 10  # large work yields the processor to the server's small requests


__all__ = ["Budget", "ClientGone", "LimitError", "check_options", "check_texts", "within_budget"]

Result = TypeVar("Result")
Summary = TypeVar("Summary")


@dataclass
class Budget:
    """How long a request may still work: a deadline, ``seconds`` after it ``arrived`` (a
    ``time.monotonic()``; by default, now), and a way to ask whether its client is still there
    (the page asks Gradio; nothing is asked by default)."""

    client_gone: Callable[[], bool] = lambda: False
    seconds: float = TIME_BUDGET_S
    arrived: float | None = None
    deadline: float = field(init=False)

    def __post_init__(self) -> None:
        self.deadline = (time.monotonic() if self.arrived is None else self.arrived) + self.seconds

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


_LARGE_TURNS = threading.BoundedSemaphore(LARGE_AT_ONCE)
_waiting = [0]  # large requests waiting for their turn
_waiting_lock = threading.Lock()


@contextlib.contextmanager
def turn(work: Work, budget: Budget) -> Iterator[None]:
    """Wait for a large request's turn (small requests go at once), within the budget;
    ``LimitError`` at once when :data:`LARGE_WAITING` large requests already wait."""
    if work.is_small:
        yield
        return
    if not _LARGE_TURNS.acquire(blocking=False):
        with _waiting_lock:
            if _waiting[0] >= LARGE_WAITING:
                raise LimitError(
                    f"The Space is busy: {LARGE_WAITING} large requests are waiting for their "
                    "turn. Try again in a minute, or score fewer or shorter texts at a time."
                )
            _waiting[0] += 1
        try:
            while not _LARGE_TURNS.acquire(timeout=BUDGET_POLL_S):
                budget.check()
        finally:
            with _waiting_lock:
                _waiting[0] -= 1
    try:
        yield
    finally:
        _LARGE_TURNS.release()


def within_budget(
    budget: Budget,
    work: Work,
    task: Callable[..., Result],
    *args: object,
    on_progress: Callable[..., None] | None = None,
) -> Result:
    """``task(*args)`` (with ``progress=on_progress`` when given), a request's ``work``: a small
    request's here and now; any other's when its turn comes, in a worker process that is killed
    as soon as ``budget`` says stop, so that no unit of work, however long, runs on past the
    budget.

    ``task`` must be importable by name (a module-level function, or a ``functools.partial``
    of one) and its arguments and result picklable; its errors are raised here.
    """
    progress = {} if on_progress is None else {"progress": on_progress}
    with turn(work, budget):
        budget.check()
        if work.is_small:
            return task(*args, **progress)
        return _in_worker(budget, task, args, on_progress)


def _in_worker(
    budget: Budget,
    work: Callable[..., Result],
    args: tuple,
    on_progress: Callable[..., None] | None,
) -> Result:
    context = _worker_context()
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(
        target=_work_in_worker, args=(sender, work, args, on_progress is not None), daemon=True
    )
    try:
        process.start()
    except OSError as error:  # the workers' server is gone; it is started again next time
        receiver.close()
        raise LimitError(f"The Space could not start a worker ({error}): try again.") from None
    finally:
        sender.close()
    try:
        while True:
            while not receiver.poll(BUDGET_POLL_S):
                budget.check()
                if not process.is_alive() and not receiver.poll():
                    raise LimitError(
                        "The worker scoring this request stopped (out of memory?): score fewer "
                        "or shorter texts at a time."
                    )
            kind, value = receiver.recv()
            if kind == "progress" and on_progress is not None:
                on_progress(*value)
            elif kind == "error":
                raise value
            elif kind == "result":
                return value
    finally:
        if process.is_alive():
            process.kill()
        process.join()
        receiver.close()


def _work_in_worker(sender: Connection, work: Callable, args: tuple, reports: bool) -> None:
    """The worker process: ``work(*args)``, its progress, its result or its error, sent back."""

    def report(*value: object) -> None:
        sender.send(("progress", value))

    if hasattr(os, "nice"):
        os.nice(WORKER_NICENESS)
    try:
        result = work(*args, **({"progress": report} if reports else {}))
    except (RougePlusError, MemoryError, RecursionError, OverflowError) as error:
        sender.send(("error", error))
    else:
        sender.send(("result", result))
    finally:
        sender.close()


# What the workers' server imports once: the modules of the work functions. (Each worker
# imports the main script again, as multiprocessing does: app.py builds nothing then.)
_WORKER_PRELOAD = [f"rouge_plus.space.{name}" for name in ("limits", "scoring", "comparison")]


@functools.cache
def _worker_context() -> multiprocessing.context.BaseContext:
    """The workers' start method: forked from a server process that imported the scoring
    modules once (a worker starts in milliseconds), or spawned where there is none."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(_WORKER_PRELOAD)
    return context


def start_workers() -> None:
    """Start the workers' server now, so that the first large request does not wait for it."""
    context = _worker_context()
    if context.get_start_method() == "forkserver":
        from multiprocessing import forkserver

        forkserver.ensure_running()


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
            "values (rows times types times bootstrap resamples); larger requests take turns, "
            f"each in a worker process stopped when its time is up, {LARGE_AT_ONCE} at a time and "
            f"{LARGE_WAITING} waiting; beside them, {CONCURRENT_REQUESTS} small requests of each "
            f"kind (single pair, corpus, comparison, API) at once and {QUEUE_SIZE} waiting; "
            "beyond that the Space says it is busy",
        ]
    )
