"""Build ``rouge_plus/data/pos_tagger_en.json.gz``: an English Penn Treebank POS tagger model.

Provenance of the shipped file
------------------------------
- Source: the averaged-perceptron model ``trontagger-0.1.0.pickle`` (Matthew Honnibal, 2013;
  trained on Wall Street Journal text with Penn Treebank tags) inside the PyPI wheel
  ``textblob_aptagger-0.2.0-py2.py3-none-any.whl`` (sha256 pinned below).
- Licence: MIT, "Copyright 2013 Matthew Honnibal" (the wheel's METADATA); written next to the
  data file as ``rouge_plus/data/LICENSE.pos_tagger``.
- Built on 2026-11-21 with ``python scripts/build_pos_tagger.py`` (it runs
  ``pip download --no-deps textblob-aptagger==0.2.0`` into a temporary directory).

The pickle is read once, here, with an unpickler that only allows the one global it needs
(``set``); the package itself never unpickles anything.

File format (JSON, gzip-compressed, format version 1)
-----------------------------------------------------
- ``classes``: the tag set; ``tagdict``: word -> tag for frequent unambiguous words.
- ``features``: the feature names, newline-separated; ``weights``: a parallel newline-separated
  string, each line ``TAG weight TAG weight ...`` for one feature. Two long strings parse in a
  few milliseconds, where a JSON object per feature takes most of a second;
  ``rouge_plus.rouge2.pos`` decodes a feature's weights when the tagger first needs them.
"""

from __future__ import annotations

import gzip
import io
import json
import pickle
import sys
import tempfile
import zipfile
from pathlib import Path

from pinned_download import download_pinned

REPO_ROOT = Path(__file__).resolve().parents[1]
DATA_DIR = REPO_ROOT / "rouge_plus" / "data"
OUTPUT_NAME = "pos_tagger_en.json.gz"
LICENSE_NAME = "LICENSE.pos_tagger"
FORMAT_NAME = "rouge_plus.pos-tagger"
FORMAT_VERSION = 1

WHEEL_REQUIREMENT = "textblob-aptagger==0.2.0"
WHEEL_NAME = "textblob_aptagger-0.2.0-py2.py3-none-any.whl"
WHEEL_SHA256 = "1ed281f37b3646475503ce77347d0ed92a5f4de176a63c6ab4d1064636067dcc"
PICKLE_MEMBER = "textblob_aptagger/trontagger-0.1.0.pickle"
METADATA_MEMBER = "textblob_aptagger-0.2.0.dist-info/METADATA"

MIT_LICENSE = """\
Part-of-speech tagger model (rouge_plus/data/pos_tagger_en.json.gz), converted from
trontagger-0.1.0.pickle in the PyPI package textblob-aptagger 0.2.0.

Copyright 2013 Matthew Honnibal

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in
all copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN
THE SOFTWARE.
"""


class _SetOnlyUnpickler(pickle.Unpickler):
    """Refuses every global except the builtin ``set`` the model pickle is made of."""

    def find_class(self, module: str, name: str) -> type:
        if (module, name) in {("__builtin__", "set"), ("builtins", "set")}:
            return set
        raise pickle.UnpicklingError(f"unexpected global {module}.{name} in the model pickle")


def download_wheel(directory: Path) -> Path:
    return download_pinned(WHEEL_REQUIREMENT, WHEEL_NAME, WHEEL_SHA256, directory, wheel=True)


def read_model(wheel: Path) -> tuple[dict, dict, set]:
    """Return ``(weights, tagdict, classes)`` from the wheel, checking its MIT licence text."""
    with zipfile.ZipFile(wheel) as archive:
        metadata = archive.read(METADATA_MEMBER).decode("utf-8")
        payload = archive.read(PICKLE_MEMBER)
    if "Copyright 2013 Matthew Honnibal" not in metadata or "Permission is hereby" not in metadata:
        sys.exit("the wheel's METADATA no longer carries the expected MIT licence")
    weights, tagdict, classes = _SetOnlyUnpickler(io.BytesIO(payload), encoding="latin1").load()
    return weights, tagdict, classes


def to_document(weights: dict, tagdict: dict, classes: set) -> dict:
    """The JSON document described in the module docstring (features without weights dropped)."""
    features = sorted(feature for feature, by_tag in weights.items() if by_tag)
    lines = [
        " ".join(f"{tag} {weight!r}" for tag, weight in sorted(weights[feature].items()))
        for feature in features
    ]
    if any("\n" in feature for feature in features):
        sys.exit("a feature name holds a newline; the line-based format cannot store it")
    return {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "source": f"{WHEEL_NAME} ({PICKLE_MEMBER}), MIT, Copyright 2013 Matthew Honnibal",
        "classes": sorted(classes),
        "tagdict": dict(sorted(tagdict.items())),
        "features": "\n".join(features),
        "weights": "\n".join(lines),
    }


def main() -> None:
    with tempfile.TemporaryDirectory() as scratch:
        document = to_document(*read_model(download_wheel(Path(scratch))))
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    output = DATA_DIR / OUTPUT_NAME
    payload = json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    # mtime=0 keeps the gzip bytes reproducible from one build to the next.
    with output.open("wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as gz:
        gz.write(payload)
    (DATA_DIR / LICENSE_NAME).write_text(MIT_LICENSE, encoding="utf-8")
    feature_count = document["features"].count("\n") + 1
    print(
        f"wrote {output.name}: {feature_count} features, {len(document['tagdict'])} tagdict "
        f"words, {len(document['classes'])} tags, {output.stat().st_size / 1e6:.2f} MB"
    )


if __name__ == "__main__":
    main()
