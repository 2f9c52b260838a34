"""The server's memory back where it was once a request has ended.

A request at the Space's limits has the server hold megabytes for a few seconds (its body, the
parsed JSON, the texts, the pickles sent to its worker); once it has ended, CPython and glibc
keep what it freed unless told otherwise:

- glibc gives each thread a heap of its own (up to eight per core), and ``malloc_trim`` gives
  back the free pages inside a heap but never the free top of a thread's heap;
- glibc raises its threshold for allocating a block on its own pages (``mmap``) to the size of
  the largest such block freed so far (up to 32 MiB), so after one large request every later
  large block is cut from a heap, where the small blocks allocated around it keep its pages;
- a garbage collection after each request would scan every object of Gradio and the page (about
  a second on a busy machine, holding up every request).

:func:`configure_allocator` (at the server's start, before its threads allocate) has every
thread share the main heap, whose free top ``malloc_trim`` does give back, and keeps the
threshold at glibc's starting 128 KiB, so that large blocks go back to the system when freed;
:func:`freeze_startup_objects` leaves the objects of the server's start out of later
collections; :func:`release_freed_memory` (after each scoring event) collects what a request
left in cycles and gives the freed heap back. Where glibc is not the allocator (musl, macOS),
the allocator's calls do nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc

# mallopt's parameter numbers (glibc's malloc.h).
M_MMAP_THRESHOLD = -3
M_ARENA_MAX = -8
MALLOC_ARENAS = 1
MMAP_THRESHOLD_BYTES = 128 * 1024


def _glibc() -> ctypes.CDLL | None:
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.malloc_trim  # noqa: B018 - present in glibc only
    except (OSError, AttributeError):
        return None
    return libc


LIBC = _glibc()


def configure_allocator() -> bool:
    """Have the server's threads share one heap and keep glibc's threshold for blocks on their
    own pages at :data:`MMAP_THRESHOLD_BYTES`; whether glibc took both (False off glibc).
    Takes effect for heaps not made yet: call it before the server starts its threads."""
    if LIBC is None:
        return False
    arenas = LIBC.mallopt(M_ARENA_MAX, MALLOC_ARENAS)
    threshold = LIBC.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES)
    return arenas == 1 and threshold == 1


def freeze_startup_objects() -> None:
    """Leave every object the server holds at its start (Gradio, the page, the scoring
    modules) out of the later garbage collections, so that :func:`release_freed_memory`
    scans only what requests allocated."""
    gc.collect()
    gc.freeze()


def release_freed_memory() -> None:
    """Collect what a request left in reference cycles and give the memory freed back to the
    system."""
    gc.collect()
    if LIBC is not None:
        LIBC.malloc_trim(0)
