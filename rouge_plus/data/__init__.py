"""Reading the gzip-compressed JSON data files shipped in ``rouge_plus/data``.

Plain data only (never pickle). A missing, damaged or outdated file raises the caller's error
type with a message that says how to get a good one back.
"""

from __future__ import annotations

import gzip
import json
from importlib import resources


def load_bundled_json(
    filename: str, expected_format: tuple[str, int], error: type[Exception], rebuild: str
) -> dict:
    """The document in ``rouge_plus/data/<filename>``, whose ``format``/``version`` must match.

    ``rebuild`` names the command that rebuilds the file, for the error message.
    """
    hint = f"rouge_plus/data/{filename} is {{}}; reinstall rouge_plus, or {rebuild}"
    resource = resources.files("rouge_plus") / "data" / filename
    try:
        with resource.open("rb") as raw, gzip.open(raw, "rt", encoding="utf-8") as text:
            document = json.load(text)
    except FileNotFoundError as cause:
        raise error(hint.format("missing")) from cause
    except (OSError, EOFError, ValueError) as cause:
        raise error(hint.format(f"unreadable ({cause})")) from cause
    if not isinstance(document, dict) or (
        document.get("format"),
        document.get("version"),
    ) != tuple(expected_format):
        raise error(hint.format("of an unknown format version"))
    return document
