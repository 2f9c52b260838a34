"""Put rouge_score 0.1.2's own test files into .test-data/ for tests/conformance.

``tests/conformance/test_rouge_score_suite.py`` runs them against ``rouge_plus.compat.rouge_score``;
nothing is downloaded at test time. The files come from rouge_score's sdist on PyPI, pinned by
sha256. That sdist has no ``testdata/`` folder (the texts several of the tests read live only in
rouge_score's source repository); a copy of that folder placed in
``.test-data/rouge_score-0.1.2/rouge_score/testdata`` makes those tests run too.

Run: ``python scripts/fetch_rouge_score_tests.py`` (``scripts/install_test_deps.sh`` does).
"""

from __future__ import annotations

import sys
import tarfile
import tempfile
from pathlib import Path, PurePosixPath

from pinned_download import download_pinned

REQUIREMENT = "rouge-score==0.1.2"
SDIST = "rouge_score-0.1.2.tar.gz"
SHA256 = "c7d4da2683e68c9abf0135ef915d63a46643666f848e558a1b9f7ead17ff0f04"
DESTINATION = Path(__file__).resolve().parents[1] / ".test-data" / "rouge_score-0.1.2"


def _is_test_file(name: str) -> bool:
    """``rouge_score-0.1.2/rouge_score/<x>_test.py`` and ``.../test_util.py``."""
    parts = PurePosixPath(name).parts
    return (
        len(parts) == 3
        and parts[1] == "rouge_score"
        and (parts[2].endswith("_test.py") or parts[2] == "test_util.py")
    )


def main() -> None:
    package = DESTINATION / "rouge_score"
    package.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as directory:
        sdist = download_pinned(REQUIREMENT, SDIST, SHA256, Path(directory), wheel=False)
        with tarfile.open(sdist) as archive:
            members = [m for m in archive.getmembers() if m.isfile() and _is_test_file(m.name)]
            for member in members:
                source = archive.extractfile(member)
                assert source is not None
                (package / PurePosixPath(member.name).name).write_bytes(source.read())
    if not any(m.name.endswith("rouge_scorer_test.py") for m in members):
        sys.exit(f"{SDIST}: no rouge_score/rouge_scorer_test.py inside")
    print(f"rouge_score 0.1.2 tests: {len(members)} files in {DESTINATION}")


if __name__ == "__main__":
    main()
