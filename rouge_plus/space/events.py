"""What every event of the page shares: scoring events with their budget and limits, the
options read into a state first, outputs cleared after an error, and the queue's slots."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import TypeVar

import gradio as gr

from .limits import CONCURRENT_REQUESTS, LARGE_AT_ONCE, LARGE_WAITING, check_options
from .memory import release_freed_memory
from .refusals import user_errors
from .scoring import build_options, score_options
from .workarounds import client_gone, event_arrival
from .workers import Budget

Result = TypeVar("Result")

# Requests of one kind in Gradio's hands at once: the large ones at work or waiting for their
# turn (in all kinds together, at most LARGE_AT_ONCE + LARGE_WAITING) leave CONCURRENT_REQUESTS
# slots to small ones, which therefore never wait behind them in Gradio's queue.
SLOTS_PER_KIND = CONCURRENT_REQUESTS + LARGE_AT_ONCE + LARGE_WAITING
# The keywords of an event the page calls but the API does not list.
PRIVATE = {"api_visibility": "private"}


def scoring_event(handler: Callable[..., Result]) -> Callable[..., Result]:
    """``handler`` as a scoring event of the page: it is given the request's ``budget`` (the
    time limit, and whether its client is still there) as its keyword-only parameter ``budget``
    (Gradio passes the inputs by position), its errors become a message (:func:`user_errors`),
    and the memory it freed goes back to the system when it returns. Every event that scores
    is one, whoever calls it (the page, or a client calling the event by its number); a test
    holds the page to it."""
    parameters = inspect.signature(handler).parameters
    shown = inspect.Signature([p for name, p in parameters.items() if name != "budget"])

    @functools.wraps(handler)
    def event(*args: object, **kwargs: object) -> Result:
        try:
            with user_errors():
                budget = Budget(client_gone, arrived=event_arrival())
                return handler(*args, budget=budget, **kwargs)
        finally:
            release_freed_memory()

    event.__signature__ = shown.replace(  # type: ignore[attr-defined]
        return_annotation=inspect.signature(handler).return_annotation
    )
    event.scoring_event = True  # type: ignore[attr-defined]
    return event


def kind(name: str) -> dict:
    """The keywords of a scoring event of kind ``name``: its kind's slots (see
    :data:`SLOTS_PER_KIND`), shared by the kind's events."""
    return {"concurrency_id": name, "concurrency_limit": SLOTS_PER_KIND}


def read_options(**settings: object) -> dict:
    """The shared option inputs (``build_options``'s parameters) as ``rouge_plus.score``
    keywords, within the Space's limits; every scoring event starts here, so a bad option stops
    it with a message (and every scoring event checks them again: a client may skip this)."""
    with user_errors():
        options = build_options(**settings)
        check_options(score_options(options))
        return options


def options_reader(settings: dict[str, gr.components.Component]) -> Callable[[dict], dict]:
    """:func:`read_options` as an event handler over the option components (``settings``:
    ``build_options`` parameter name -> component), which Gradio passes as one dict."""
    names = {component: name for name, component in settings.items()}

    def read_option_components(values: dict) -> dict:
        return read_options(**{names[component]: value for component, value in values.items()})

    return read_option_components


def marking_stale(elem_ids: list[str], stale: bool) -> str:
    """A browser-side event (Gradio's ``js``) that marks the components of ``elem_ids`` as
    stale (dimmed, labelled as being recomputed) or current again: a result stays on the page
    while the next one computes, and must not look like its answer."""
    action = "add" if stale else "remove"
    selector = ", ".join(f"#{elem_id}" for elem_id in elem_ids)
    return (
        f"() => {{ document.querySelectorAll({selector!r})"
        f".forEach((e) => e.classList.{action}('rp-stale')); }}"
    )


def cleared(count: int) -> Callable[[], list[None]]:
    """An event handler that empties ``count`` outputs, so that after an error the scores of an
    earlier request no longer look like the answer."""

    def clear_outputs() -> list[None]:
        return [None] * count

    return clear_outputs
