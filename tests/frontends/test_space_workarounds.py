"""The Space's workarounds (rouge_plus.space.workarounds) against the installed Gradio: each
fails when Gradio renames or reshapes what a workaround relies on, and shows that the
workaround still takes effect."""

from __future__ import annotations

import asyncio
import contextvars
import inspect
import logging
import time
import tracemalloc
from pathlib import Path

import pytest

gr = pytest.importorskip("gradio", reason="the page needs gradio")

import starlette.requests  # noqa: E402
from gradio.context import LocalContext  # noqa: E402
from gradio.data_classes import FileData  # noqa: E402
from gradio.queueing import Event  # noqa: E402
from gradio.state_holder import SessionState  # noqa: E402

from rouge_plus.space import page, workarounds  # noqa: E402
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


def postprocess(demo: gr.Blocks, output: object, state: SessionState) -> list:
    return asyncio.run(demo.postprocess_data(demo.fns[0], output, state))


def test_pre_and_postprocess_data_are_still_the_coroutines_the_override_extends() -> None:
    assert inspect.iscoroutinefunction(gr.Blocks.preprocess_data)
    assert parameter_names(gr.Blocks.preprocess_data)[:4] == ["self", "block_fn", "inputs", "state"]
    assert inspect.iscoroutinefunction(gr.Blocks.postprocess_data)
    assert parameter_names(gr.Blocks.postprocess_data) == [
        "self",
        "block_fn",
        "predictions",
        "state",
    ]
    assert isinstance(SessionState(gr.Blocks()).config_values, dict)


def test_a_session_keeps_no_copy_of_the_page_s_configuration() -> None:
    """Gradio copies the page's configuration into each session and writes each input's and
    output's last value into it; the override drops the copy once the values are through."""
    plain, plain_text = echo_blocks(gr.Blocks)
    plain_state = SessionState(plain)
    assert preprocess(plain, ["kept"], plain_state) == ["kept"]
    assert plain_state.config_values[plain_text._id]["props"]["value"] == "kept"  # the need
    assert postprocess(plain, "answer", plain_state) == ["answer"]
    assert "answer" in [config["props"].get("value") for config in plain_state.components]

    demo, _ = echo_blocks(workarounds.SpaceBlocks)
    state = SessionState(demo)
    assert state.config_values  # what Gradio builds for every session
    assert preprocess(demo, ["not kept"], state) == ["not kept"]
    assert state.config_values == {}
    assert postprocess(demo, "answer", state) == ["answer"]
    assert state.config_values == {}


def test_a_session_of_the_page_holds_a_few_kilobytes() -> None:
    """135 KB per session (each page or API client), kept for up to 10,000 sessions, before."""
    demo = page.build_demo()
    tracemalloc.start()
    try:
        states = [SessionState(demo) for _ in range(20)]
        for state in states:
            workarounds._forget_configuration(state)
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert held / len(states) < 20_000


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
