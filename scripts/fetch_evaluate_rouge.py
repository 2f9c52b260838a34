"""Put evaluate's own "rouge" metric script into .test-data/ for the tests that run it.

evaluate keeps its metric scripts on the Hub and in its source repository, not in its PyPI
packages (no sdist or wheel of evaluate ships ``metrics/rouge/rouge.py``). This fetches the file
from the repository (huggingface/evaluate, Apache-2.0) at a pinned commit and checks its sha256;
``tests/frontends/test_reach.py`` loads it with ``evaluate.load(path)``, with and without
``rouge_plus.compat.install()``, and skips when it is absent. Nothing is downloaded at test time.

Run: ``python scripts/fetch_evaluate_rouge.py`` (``scripts/install_test_deps.sh`` does).
"""

from __future__ import annotations

import hashlib
import sys
import urllib.request
from pathlib import Path

COMMIT = "eef130d7d5c01d99adda0c6c9001683bec2cdc3f"
URL = f"https://raw.githubusercontent.com/huggingface/evaluate/{COMMIT}/metrics/rouge/rouge.py"
SHA256 = "6ad9936457b2d8b3ec00df4348dec4f1be8154f4f9cb2cae887454ab73ba3f96"
DESTINATION = Path(__file__).resolve().parents[1] / ".test-data" / "evaluate-rouge" / "rouge.py"


def main() -> None:
    try:
        with urllib.request.urlopen(URL, timeout=60) as response:
            content = response.read()
    except OSError as error:  # no route to the repository from this machine
        sys.exit(f"{URL}: {error}")
    digest = hashlib.sha256(content).hexdigest()
    if digest != SHA256:
        sys.exit(f"{URL}: sha256 {digest} differs from the pinned {SHA256}")
    DESTINATION.parent.mkdir(parents=True, exist_ok=True)
    DESTINATION.write_bytes(content)
    print(f"evaluate's rouge metric script (commit {COMMIT[:12]}): {DESTINATION}")


if __name__ == "__main__":
    main()
