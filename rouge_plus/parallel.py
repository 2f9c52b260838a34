"""Work spread over threads: how many cores this process may use, and a map over chunks."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TypeVar

    Chunk = TypeVar("Chunk")
    Result = TypeVar("Result")


def default_workers() -> int:
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def map_in_workers(
    function: Callable[[Chunk], Result], chunks: Sequence[Chunk], num_workers: int = 1
) -> list[Result]:
    """``[function(chunk) for chunk in chunks]``, computed on up to ``num_workers`` threads.

    One worker (or a single chunk) runs inline in the calling thread. The first exception raised
    by a chunk, in chunk order, propagates.
    """
    workers = min(num_workers, len(chunks))
    if workers <= 1:
        return [function(chunk) for chunk in chunks]
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(function, chunks))
