"""A wall-clock limit for tests that start clusters (Ray, Spark): past it, the test fails with
TimeoutError instead of hanging the suite."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def time_limit(seconds: int, what: str) -> Iterator[None]:
    """Raise TimeoutError in the main thread if the block runs longer than ``seconds``."""

    def expire(signum: int, frame: object) -> None:
        raise TimeoutError(f"{what} took longer than {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
