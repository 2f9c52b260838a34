"""Where and how long a request's work runs: a small request's in the server at once; any
other's when its turn comes (:data:`~.limits.LARGE_AT_ONCE` at a time,
:data:`~.LARGE_WAITING` waiting), scoring and aggregation alike, in a process of its own
(:func:`within_budget`), which is killed the moment the request's time budget is spent or its
client has gone: one pair of long texts takes seconds on the pure-Python kernels, so looking at
the budget between pieces of work could not stop it in time.
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
from typing import TypeVar

from ..errors import ClientGone, LimitError, RougePlusError
from .limits import LARGE_AT_ONCE, LARGE_WAITING, TIME_BUDGET_S, Work

BUDGET_POLL_S = 0.1  # how often the budget of a request at work is looked at
WORKER_NICENESS = 10  # large work yields the processor to the server's small requests

__all__ = ["Budget", "ClientGone", "LimitError", "start_workers", "within_budget"]

Result = TypeVar("Result")


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


# What the workers' server imports once: the modules of the work functions, and SciPy's
# statistics, which the comparison's power analysis imports on first use (about a second).
# (Each worker imports the main script again, as multiprocessing does: app.py builds nothing
# then.)
_WORKER_PRELOAD = [
    *(f"rouge_plus.space.{name}" for name in ("workers", "limits", "scoring", "comparison", "api")),
    "scipy.stats",
]


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
