"""The Space's workarounds (rouge_plus.space.workarounds) against the installed Gradio: each
fails when Gradio renames or reshapes what a workaround relies on, and shows that the
workaround still takes effect."""

from __future__ import annotations

import asyncio
import contextvars
import inspect
import logging
import subprocess
import sys
import time
from pathlib import Path

import pytest

gr = pytest.importorskip("gradio", reason="the page needs gradio")

import starlette.requests  # noqa: E402
from gradio.context import LocalContext  # noqa: E402
from gradio.data_classes import FileData  # noqa: E402
from gradio.queueing import Event  # noqa: E402
from gradio.state_holder import SessionState  # noqa: E402

from rouge_plus.space import workarounds  # noqa: E402
from rouge_plus.space.request_size import ARRIVED  # noqa: E402


def parameter_names(function: object) -> list[str]:
    return list(inspect.signature(function).parameters)


def echo(text: str) -> str:
    return text


def echo_blocks(blocks_class: type[gr.Blocks]) -> tuple[gr.Blocks, gr.Textbox]:
    """A page of ``blocks_class`` with one event: a text box's value echoed."""
    with blocks_class() as demo:
        text = gr.Textbox()
        text.submit(echo, text, gr.Textbox())
    return demo, text


def preprocess(demo: gr.Blocks, inputs: list, state: SessionState) -> list:
    return asyncio.run(demo.preprocess_data(demo.fns[0], inputs, state))


def test_preprocess_data_is_still_the_coroutine_the_override_extends() -> None:
    assert inspect.iscoroutinefunction(gr.Blocks.preprocess_data)
    assert parameter_names(gr.Blocks.preprocess_data)[:4] == ["self", "block_fn", "inputs", "state"]
    assert parameter_names(SessionState._update_value_in_config) == ["self", "key", "value"]


def test_a_request_s_values_are_not_kept_in_the_session() -> None:
    """Gradio keeps each input's last value in the session's copy of the page; the override
    takes it out once the handler has it."""
    plain, plain_text = echo_blocks(gr.Blocks)
    plain_state = SessionState(plain)
    assert preprocess(plain, ["kept"], plain_state) == ["kept"]
    assert plain_state.config_values[plain_text._id]["props"]["value"] == "kept"  # the need

    demo, text = echo_blocks(workarounds.SpaceBlocks)
    state = SessionState(demo)
    assert preprocess(demo, ["not kept"], state) == ["not kept"]
    assert state.config_values[text._id]["props"]["value"] is None


def test_what_gradio_refuses_before_a_handler_is_a_message_and_one_log_line(caplog) -> None:
    caplog.set_level(logging.INFO, logger="rouge_plus.space")
    demo, _ = echo_blocks(workarounds.SpaceBlocks)
    with pytest.raises(gr.Error, match="didn't receive enough input values") as caught:
        preprocess(demo, [], SessionState(demo))
    assert caught.value.print_exception is False
    assert [r.getMessage() for r in caplog.records] == [f"refused: {caught.value.message}"]


def test_client_gone_and_event_arrival_read_the_queue_s_active_jobs() -> None:
    demo, _ = echo_blocks(gr.Blocks)
    demo.queue()
    assert isinstance(LocalContext.blocks, contextvars.ContextVar)
    assert isinstance(LocalContext.event_id, contextvars.ContextVar)
    assert parameter_names(Event)[:2] == ["session_hash", "fn"]
    request = starlette.requests.Request({"type": "http", "state": {}})
    event = Event(None, demo.fns[0], request, None)
    assert event.alive is True and event.request is request
    demo._queue.active_jobs = [None, [event]]

    def in_the_event(ask):
        LocalContext.blocks.set(demo)
        LocalContext.event_id.set(event._id)
        return ask()

    def asked(ask):
        return contextvars.copy_context().run(in_the_event, ask)

    assert asked(workarounds.client_gone) is False
    assert asked(workarounds.event_arrival) == event.enqueue_time <= time.monotonic()
    request.scope["state"][ARRIVED] = event.enqueue_time - 2  # stamped by request_size.py
    assert asked(workarounds.event_arrival) == event.enqueue_time - 2
    event.alive = False  # what Gradio does when the client disconnects
    assert asked(workarounds.client_gone) is True
    assert workarounds.client_gone() is False  # outside an event
    assert workarounds.event_arrival() is None


def test_the_file_component_is_patched_on_its_instance(tmp_path: Path, monkeypatch) -> None:
    assert parameter_names(gr.File._process_single_file) == ["self", "f"]
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text('{"prediction": "a", "references": "a"}', encoding="utf-8")
    cache = tmp_path / "cache"
    cache.mkdir()
    plain = gr.File(file_types=[".jsonl"])
    monkeypatch.setattr(plain, "GRADIO_CACHE", str(cache))
    assert plain.preprocess(FileData(path=str(corpus))) == str(corpus)
    assert len(list(cache.iterdir())) == 1  # the empty file the workaround avoids

    patched = workarounds.without_cache_files(gr.File(file_types=[".jsonl"]))
    monkeypatch.setattr(patched, "GRADIO_CACHE", str(cache))
    assert [patched.preprocess(FileData(path=str(corpus))) for _ in range(3)] == [str(corpus)] * 3
    assert len(list(cache.iterdir())) == 1
    with pytest.raises(gr.Error, match="Invalid file type"):
        patched.preprocess(FileData(path=str(tmp_path / "corpus.exe")))


@pytest.mark.skipif(workarounds.LIBC is None, reason="glibc's malloc_trim and mallopt")
def test_glibc_takes_the_arena_limit_and_returns_freed_memory() -> None:
    assert workarounds.LIBC.mallopt(workarounds.M_ARENA_MAX, workarounds.MALLOC_ARENAS) == 1
    # 200 MB in blocks below the mmap threshold, freed under a block that keeps the heap's top
    # in use (so glibc cannot give it back by itself), then released.
    script = (
        "from pathlib import Path\n"
        "from rouge_plus.space.workarounds import release_freed_memory\n"
        "def rss():\n"
        "    line = next(l for l in Path('/proc/self/status').read_text().splitlines()\n"
        "                if l.startswith('VmRSS:'))\n"
        "    return int(line.split()[1]) / 1024\n"
        "blocks = [bytes(100_000) for _ in range(2_000)]\n"
        "keeper = bytes(100_000)\n"
        "del blocks\n"
        "before = rss()\n"
        "release_freed_memory()\n"
        "print(before - rss())\n"
    )
    freed = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout
    assert float(freed) > 100


def test_the_objects_of_the_server_s_start_are_left_out_of_later_collections() -> None:
    """A full garbage collection after each request scanned every object of Gradio and the
    page (about a second on a busy machine, holding up every request); frozen, it scans only
    what came after."""
    script = (
        "import gc\n"
        "from rouge_plus.space import page, workarounds\n"
        "page.build_demo()\n"
        "before = len(gc.get_objects())\n"
        "workarounds.freeze_startup_objects()\n"
        "print(before, len(gc.get_objects()), gc.get_freeze_count())\n"
    )
    answer = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout.split()
    before, scanned, frozen = map(int, answer[-3:])
    assert before > 100_000 and scanned < 1_000 and frozen > before - 1_000
