"""The typing information ships: the sdist holds ``py.typed`` and a stub beside every compiled
extension, and so does what a wheel built from it copies into the package (setuptools'
``build_py``, which a wheel holds next to the compiled modules; the full build is
test_distribution.py's).
"""

from __future__ import annotations

import subprocess
import sys
import tarfile
from pathlib import Path

import pytest
from support.repo_copy import copy_repository

pytest.importorskip("build", reason="the packaging tests need build (the test extra)")
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "unit"))
from test_typing import extension_names  # noqa: E402

TYPING_FILES = {"rouge_plus/py.typed"} | {
    name.replace(".", "/") + ".pyi" for name in extension_names()
}


def run(command: list[str], cwd: Path) -> None:
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]


@pytest.fixture(scope="module")
def sdist(tmp_path_factory) -> Path:
    source = copy_repository(tmp_path_factory.mktemp("checkout") / "rouge_plus")
    out = tmp_path_factory.mktemp("dist")
    run([sys.executable, "-m", "build", "--sdist", "--no-isolation", "--outdir", str(out), "."],
        source)  # fmt: skip
    [archive] = out.glob("rouge_plus-*.tar.gz")
    return archive


def test_sdist_holds_py_typed_and_every_stub(sdist):
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    assert names >= TYPING_FILES, sorted(TYPING_FILES - names)


def test_package_built_from_the_sdist_holds_py_typed_and_every_stub(sdist, tmp_path):
    with tarfile.open(sdist) as archive:
        archive.extractall(tmp_path, filter="data")
    [unpacked] = tmp_path.iterdir()
    run([sys.executable, "setup.py", "-q", "build_py", "--build-lib", str(tmp_path / "lib")],
        unpacked)  # fmt: skip
    built = {str(p.relative_to(tmp_path / "lib")) for p in (tmp_path / "lib").rglob("*")}
    assert built >= TYPING_FILES, sorted(TYPING_FILES - built)
