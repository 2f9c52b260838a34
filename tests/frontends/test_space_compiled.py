"""The Space builds the C kernels at start-up where it has a C compiler, once, into the app
directory; elsewhere (or with ``ROUGE_PLUS_PURE_PYTHON=1``) it runs the pure-Python kernels."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rouge_plus.space import compiled

REPO = Path(__file__).resolve().parents[2]


def _app_copy(directory: Path) -> Path:
    """The files a Space gets that the build reads: setup.py, README.md and the package."""
    for name in ("setup.py", "README.md", "pyproject.toml", "LICENSE"):
        shutil.copy2(REPO / name, directory / name)
    shutil.copytree(
        REPO / "rouge_plus",
        directory / "rouge_plus",
        ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"),
    )
    return directory


def _refuse(*args: object, **kwargs: object) -> None:
    raise AssertionError("no build expected")


@pytest.mark.slow  # compiles every C extension: over 30 s
def test_builds_once_where_there_is_a_compiler(tmp_path, monkeypatch):
    if compiled.compiler() is None:
        pytest.skip("no C compiler here")
    app = _app_copy(tmp_path)
    code = (
        "from pathlib import Path; from rouge_plus.space.compiled import build_kernels, backend; "
        "print(build_kernels(Path('.').resolve()), backend())"
    )
    environment = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    environment["PATH"] = str(Path(sys.executable).parent) + ":" + environment["PATH"]
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=app, capture_output=True, text=True, timeout=300,
        env=environment,
    )  # fmt: skip
    assert done.stdout.split() == ["True", "compiled", "C", "kernels"], done.stderr[-2000:]
    assert compiled.built(app)
    monkeypatch.setattr(subprocess, "run", _refuse)
    assert compiled.build_kernels(app)  # built already: no second build


def test_pure_python_without_a_compiler_or_when_asked(tmp_path, monkeypatch):
    (tmp_path / "setup.py").write_text("raise SystemExit('not to be run')\n")
    monkeypatch.setattr(subprocess, "run", _refuse)
    monkeypatch.setattr(compiled, "compiler", lambda: None)
    assert not compiled.build_kernels(tmp_path)
    monkeypatch.setattr(compiled, "compiler", lambda: "/usr/bin/cc")
    monkeypatch.setenv("ROUGE_PLUS_PURE_PYTHON", "1")
    assert not compiled.build_kernels(tmp_path)


def test_a_failed_build_leaves_pure_python(tmp_path, monkeypatch):
    (tmp_path / "setup.py").write_text("raise SystemExit('broken')\n")
    monkeypatch.delenv("ROUGE_PLUS_PURE_PYTHON", raising=False)
    monkeypatch.setattr(compiled, "compiler", lambda: "/usr/bin/cc")
    assert not compiled.build_kernels(tmp_path)


def test_the_page_says_which_kernels_run():
    pytest.importorskip("gradio")
    from rouge_plus.space import page

    assert f"Kernels here: {compiled.backend()}." in page.INTRO
    assert compiled.backend() in ("compiled C kernels", "pure Python")
