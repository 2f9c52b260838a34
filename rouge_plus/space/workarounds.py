"""Where the page leans on Gradio's internals (6.x) and on glibc's allocator, all in one place.

Each workaround names what it relies on; ``tests/frontends/test_space_workarounds.py`` fails
when the installed Gradio renames or reshapes any of it, and checks that the workaround still
takes effect:

- :class:`SpaceBlocks` overrides ``Blocks.preprocess_data``: refusals without a traceback, and
  no copy of a request's values kept per session;
- :func:`without_cache_files` replaces ``gr.File._process_single_file`` on one instance: no empty
  file in Gradio's cache per event that reads the upload;
- :func:`client_gone` and :func:`event_arrival` read ``blocks._queue.active_jobs``: whether
  the client of the running event has left, and when its request arrived (``event.request``,
  the request that joined the queue) or joined the queue;
- :func:`release_freed_memory` and :func:`share_few_heaps` call glibc's ``malloc_trim`` and
  ``mallopt`` through ctypes: the freed heap of large requests goes back to the system (and
  :func:`freeze_startup_objects` keeps the garbage collection it starts with short).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc

import gradio as gr
from gradio.block_function import BlockFunction
from gradio.context import LocalContext
from gradio.data_classes import FileData
from gradio.queueing import Event
from gradio.state_holder import SessionState
from gradio.utils import NamedString
from gradio_client.utils import is_valid_file

from .refusals import refuse
from .request_size import ARRIVED


class SpaceBlocks(gr.Blocks):
    """The page's Blocks, with two changes to how Gradio takes a request's values:

    - a request that Gradio refuses before any handler runs (too few values, a file that was
      not uploaded: what only a client skipping the page sends) is a message and one line in
      the log, as every refusal, not a traceback;
    - the values are not kept in the session's copy of the page once the handler has them:
      Gradio keeps every input's last value per session (up to 10,000 sessions), so each API
      client or page left the server holding its last texts (5 MB per request at the limits).
    """

    async def preprocess_data(
        self, block_fn: BlockFunction, inputs: list, state: SessionState | None, *args: object
    ) -> list:
        try:
            processed = await super().preprocess_data(block_fn, inputs, state, *args)
        except (ValueError, TypeError) as error:
            refuse(str(error).splitlines()[0])
        for block in block_fn.inputs if state is not None else ():
            if not block.stateful and block._id in state.config_values:
                state._update_value_in_config(block._id, None)
        return processed


def _running_event() -> Event | None:
    """The Gradio event this thread is running (None outside an event)."""
    blocks, event_id = LocalContext.blocks.get(None), LocalContext.event_id.get(None)
    if blocks is None or event_id is None:
        return None
    for job in blocks._queue.active_jobs:
        for event in job or ():  # a free slot is None
            if event._id == event_id:
                return event
    return None


def client_gone() -> bool:
    """Whether the client of the running Gradio event has left (closed the page, dropped the
    connection): Gradio then marks the event dead but lets its function run on. Outside an
    event, says False."""
    event = _running_event()
    return event is not None and not event.alive


def event_arrival() -> float | None:
    """When (``time.monotonic()``) the request of the running Gradio event arrived (as
    :mod:`.request_size` stamped it), or else joined the queue, so that its time budget counts
    its upload and the wait for the queue too; None outside an event."""
    event = _running_event()
    if event is None:
        return None
    return event.request.scope.get("state", {}).get(ARRIVED, event.enqueue_time)


def without_cache_files(upload: gr.File) -> gr.File:
    """``upload``, whose file reaches an event as its path, as ``gr.File`` gives it, without the
    empty file ``gr.File`` creates in its cache every time an event reads it. The instance's
    method is replaced: a subclass of a Gradio component would make Gradio write a ``.pyi``
    file beside this module when the class is defined."""
    process_single_file = upload._process_single_file

    def path_only(f: FileData) -> NamedString | bytes:
        if upload.type == "filepath" and (
            not upload.file_types or is_valid_file(f.path, upload.file_types)
        ):
            return NamedString(f.path)
        return process_single_file(f)  # bytes, or Gradio's own refusal of the type

    upload._process_single_file = path_only
    return upload


def _glibc() -> ctypes.CDLL | None:
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.malloc_trim  # noqa: B018 - present in glibc only
    except (OSError, AttributeError):
        return None
    return libc


LIBC = _glibc()
# glibc gives each thread a heap of its own (up to 8 per core), and a heap that held one large
# request's texts keeps pages that malloc_trim cannot return: after 20 requests at the limits
# the server stayed 70 MB above its idle size; with two heaps, within 5%.
M_ARENA_MAX = -8  # mallopt's parameter number
MALLOC_ARENAS = 2


def release_freed_memory() -> None:
    """Give the memory a request freed back to the system (glibc keeps the freed heap of large
    requests otherwise: about 50 MB after four at the limits)."""
    gc.collect()
    if LIBC is not None:
        LIBC.malloc_trim(0)


def freeze_startup_objects() -> None:
    """Leave every object the server holds at its start (Gradio, the page, the scoring
    modules) out of the later garbage collections, so that :func:`release_freed_memory`
    scans only what requests allocated: a full collection of them took about a second,
    holding up every request, after each request."""
    gc.collect()
    gc.freeze()


def share_few_heaps() -> None:
    """Have the handler threads share :data:`MALLOC_ARENAS` heaps, which ``malloc_trim`` can
    empty (where glibc is the allocator)."""
    if LIBC is not None:
        LIBC.mallopt(M_ARENA_MAX, MALLOC_ARENAS)
