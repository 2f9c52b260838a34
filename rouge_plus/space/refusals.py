"""How the page refuses a request: a message on the page and one line in the server's log,
never a traceback."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from typing import NoReturn

import gradio as gr

from ..errors import RougePlusError

logger = logging.getLogger(__name__)

REFUSED = "Cannot score this input"


def refuse(message: str) -> NoReturn:
    """Log ``message`` as one line and show it on the page (Gradio's error toast)."""
    logger.info("refused: %s", message)
    raise gr.Error(message, title=REFUSED, print_exception=False)


@contextlib.contextmanager
def user_errors() -> Iterator[None]:
    """Input problems become a message on the page and one line in the server's log, never a
    trace: rouge_plus's errors (the Space's limits among them), and input too large or nested
    too deeply for the server."""
    try:
        yield
    except RougePlusError as error:
        message = str(error)
    except MemoryError:
        message = "The server ran out of memory for this input: score fewer or shorter texts."
    except RecursionError:
        message = "The input is nested too deeply to be read."
    except OverflowError:
        message = "The input holds a number too large to be used."
    else:
        return
    refuse(message)
