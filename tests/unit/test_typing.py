"""What a type checker sees of rouge_plus: the package says it is typed (``py.typed``), every
compiled extension has a stub beside it that names exactly what the built module exports, and
the examples, written against the public API, pass ``mypy --strict``.

Where an extension is not built, or mypy is not installed, the test skips (and fails under CI,
where the build and the test extra are there to be used: tests/support/ci_skips.py). The stubs
are read beside the package imported, so that the installed wheel's are checked there.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import os
import subprocess
import sys
from pathlib import Path

import pytest

import rouge_plus

REPO = Path(__file__).resolve().parents[2]
PACKAGE = Path(rouge_plus.__file__).resolve().parent  # the checkout's, or the installed copy


def extension_names() -> list[str]:
    """The extensions setup.py builds (the keys of its ``EXTENSIONS``), read without running it."""
    tree = ast.parse((REPO / "setup.py").read_text(encoding="utf-8"))
    [table] = [
        node.value
        for node in tree.body
        if isinstance(node, ast.Assign)
        and [getattr(target, "id", None) for target in node.targets] == ["EXTENSIONS"]
    ]
    return list(ast.literal_eval(table))


def _stub_path(extension: str) -> Path:
    return PACKAGE.parent.joinpath(*extension.split(".")).with_suffix(".pyi")


def _defined(body: list[ast.stmt]) -> set[str]:
    """The names a stub's block defines: functions, classes, annotated or assigned names
    (an ``@overload`` family counts once)."""
    names = set()
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return names


def _public(names: set[str] | list[str]) -> set[str]:
    """Names without the dunders every module and class has."""
    return {n for n in names if not (n.startswith("__") and n.endswith("__"))}


def _own_attributes(cls: type) -> set[str]:
    """What a compiled class adds to ``object``: its methods, members and properties."""
    return _public(set(dir(cls)) - set(dir(object)))


def test_package_is_typed():
    assert (PACKAGE / "py.typed").is_file()


def test_setup_lists_the_seven_extensions():
    # The test below is parametrized by this list: an extension added to setup.py needs a stub.
    assert len(extension_names()) == 7


@pytest.mark.parametrize("extension", extension_names())
def test_stub_names_exactly_what_the_extension_exports(extension):
    stub = _stub_path(extension)
    assert stub.is_file(), f"{extension} has no stub {stub}"
    if os.environ.get("ROUGE_PLUS_PURE_PYTHON") == "1":
        pytest.skip("ROUGE_PLUS_PURE_PYTHON=1 runs without the compiled extensions")
    try:
        module = importlib.import_module(extension)
    except ImportError as error:
        pytest.skip(f"{extension} is not built ({error}): python setup.py build_ext --inplace")
    assert Path(module.__file__).resolve().parent == stub.parent, "the stub is not beside it"
    tree = ast.parse(stub.read_text(encoding="utf-8"))
    assert _defined(tree.body) == _public(dir(module))
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            cls = getattr(module, node.name)
            assert inspect.isclass(cls), f"{extension}.{node.name} is not a class"
            assert _public(_defined(node.body)) == _own_attributes(cls), node.name


def test_examples_pass_mypy_strict():
    """The public API as a user's type checker sees it: mypy --strict on examples/ (and on
    the stubs themselves), rouge_plus's own modules followed silently, as an installed
    package's are."""
    try:
        import mypy  # noqa: F401
    except ImportError:
        pytest.skip("mypy is not installed (the test extra)")
    # The checkout's stubs and examples (the installed copy's stubs are checked above).
    stubs = [str(Path(*name.split(".")).with_suffix(".pyi")) for name in extension_names()]
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent",
         "--no-incremental", "examples", *stubs],
        cwd=REPO, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
