"""Where the page leans on Gradio's internals (6.x), all in one place.

Each workaround names what it relies on; ``tests/frontends/test_space_workarounds.py`` fails
when the installed Gradio renames or reshapes any of it, and checks that the workaround still
takes effect:

- :class:`SpaceBlocks` overrides ``Blocks.preprocess_data`` and ``Blocks.postprocess_data``:
  refusals without a traceback, and no copy of the page's configuration (with a request's
  values and answers) kept per session;
- :func:`without_cache_files` replaces ``gr.File._process_single_file`` on one instance: no empty
  file in Gradio's cache per event that reads the upload;
- :func:`client_gone` and :func:`event_arrival` read ``blocks._queue.active_jobs``: whether
  the client of the running event has left, and when its request arrived (``event.request``,
  the request that joined the queue) or joined the queue.
"""

from __future__ import annotations

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
    - a session keeps no copy of the page's configuration: Gradio builds one per session (for
      its deep links, which the page does not offer: 135 KB for this page) and writes each
      input's and output's last value into it, and keeps it for up to 10,000 sessions, so every
      page or API client left the server holding a copy of the page and its last texts (5 MB
      per request at the limits). What a session needs (its ``gr.State`` values, components an
      event changed) Gradio keeps elsewhere in the session.
    """

    async def preprocess_data(
        self, block_fn: BlockFunction, inputs: list, state: SessionState | None, *args: object
    ) -> list:
        try:
            processed = await super().preprocess_data(block_fn, inputs, state, *args)
        except (ValueError, TypeError) as error:
            refuse(str(error).splitlines()[0])
        finally:
            _forget_configuration(state)
        return processed

    async def postprocess_data(
        self, block_fn: BlockFunction, predictions: list | dict, state: SessionState | None
    ) -> list:
        try:
            return await super().postprocess_data(block_fn, predictions, state)
        finally:
            _forget_configuration(state)


def _forget_configuration(state: SessionState | None) -> None:
    """Drop the session's copy of the page's configuration (Gradio makes the entries it writes
    to again, from the page's)."""
    if state is not None:
        state.config_values.clear()


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
