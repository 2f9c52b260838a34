"""The package's shape: folders that follow the pipeline, imports that only run downward, a thin
Space launcher, and an API that exposes every option (docs/ARCHITECTURE.md describes it)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from rouge_plus._records import fields as record_fields
from rouge_plus.options import ScoreOptions

REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "rouge_plus"

# Each part of the package and its stage: an import may only go to the same or a lower stage.
# Folders are pipeline stages; each top-level module has the stage of what it does.
STAGES = {
    "_compiled": -1,  # the switch of every compiled module: below everything, imports nothing
    "_records": 0,  # records without typing or dataclasses: imports errors.py alone
    "_version": 0,
    "errors": 0,
    "data": 0,
    "kernels": 0,
    "text": 1,
    "scoring": 2,
    "rouge155": 3,
    "rouge2": 3,
    "corpus": 4,
    "meta": 4,  # correlations with human judgments, on NumPy
    "inputs": 5,  # predictions and references, validated
    "parallel": 5,  # chunks on threads
    "options": 6,  # every option, validated
    "signature": 7,  # every setting that changes a score, as resolved by the plan
    "results": 7,  # per-example scores and their aggregates
    "plan": 8,  # options resolved into what scores
    "scorer": 9,  # the facade
    "all_pairs": 10,  # every text against every other, on the plan
    "comparison": 10,  # systems against a baseline, on the facade
    "readers": 10,  # rows from files, for the front ends
    "rouge_plus": 11,
    "cli": 11,
    "integrations": 11,
    "space": 11,
    "compat": 11,
    "environment": 11,  # the ROUGE packages installed here, checked against rouge_plus
    "__init__": 11,
    "__main__": 11,
}


def _part(module: str) -> str:
    """The top-level part of ``rouge_plus.<part>...``."""
    return module.split(".")[1] if module.count(".") else "__init__"


def _module_name(path: Path, repo: Path) -> str:
    relative = path.relative_to(repo).with_suffix("")
    parts = list(relative.parts)
    if parts[-1] == "__init__" and len(parts) > 1:
        parts = parts[:-1]
        return ".".join(parts) if len(parts) > 1 else "rouge_plus"
    return ".".join(parts)


def _imported_names(path: Path, repo: Path) -> Iterator[tuple[str, str | None]]:
    """``(module, name)`` of every import in ``path``, wherever it is (at the top, in a
    function, under ``TYPE_CHECKING``): ``(X, a)`` for ``from X import a``, ``(X, None)`` for
    ``import X``; relative imports made absolute."""
    module = _module_name(path, repo)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                name = ".".join([*base, node.module] if node.module else base)
            else:
                name = node.module or ""
            yield from ((name, alias.name) for alias in node.names)
        elif isinstance(node, ast.Import):
            yield from ((alias.name, None) for alias in node.names)


def _imports(path: Path, repo: Path) -> list[str]:
    """Absolute names of the rouge_plus modules ``path`` imports: ``from package import
    module`` names the module, ``from module import name`` the module."""
    found = []
    for module, name in _imported_names(path, repo):
        target = (name and _existing(f"{module}.{name}", repo)) or module
        if target.startswith("rouge_plus.") or target == "rouge_plus":
            found.append(target)
    return found


def _existing(name: str, repo: Path) -> str | None:
    """``name`` if it is a module or package of rouge_plus (not a name imported from one)."""
    path = repo / Path(*name.split("."))
    if path.with_suffix(".py").exists() or (path / "__init__.py").exists():
        return name
    return None


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles of ``graph`` (each node to the nodes it imports): its strongly
    connected components of two nodes or more, and the nodes that import themselves, each
    sorted (Tarjan's algorithm)."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(node: str) -> None:
        order[node] = low[node] = len(order)
        stack.append(node)
        for other in graph.get(node, ()):
            if other not in order:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], order[other])
        if low[node] == order[node]:
            component = []
            while not component or component[-1] != node:
                component.append(stack.pop())
            if len(component) > 1 or node in graph.get(node, ()):
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in order:
            visit(node)
    return sorted(found)


def import_graph(repo: Path) -> dict[str, set[str]]:
    """Each module of ``repo/rouge_plus`` and the modules of the package it imports."""
    return {
        _module_name(path, repo): {
            name for name in _imports(path, repo) if _existing(name, repo) is not None
        }
        for path in (repo / "rouge_plus").rglob("*.py")
    }


INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.MULTILINE)


def include_graph(repo: Path) -> dict[str, set[str]]:
    """Each C file (``.c``, ``.h``) of ``repo/rouge_plus``, by its path in the repository, and
    the files it includes with ``#include "..."``."""
    graph = {}
    for path in sorted((repo / "rouge_plus").rglob("*.[ch]")):
        text = path.read_text(encoding="utf-8")
        graph[path.relative_to(repo).as_posix()] = {
            (path.parent / name).resolve().relative_to(repo.resolve()).as_posix()
            for name in INCLUDE.findall(text)
        }
    return graph


def upward_imports(repo: Path) -> list[str]:
    """``importer -> imported`` for every import of ``repo/rouge_plus`` that runs upward."""
    upward = []
    for path in (repo / "rouge_plus").rglob("*.py"):
        importer = _module_name(path, repo)
        for name in _imports(path, repo):
            imported = _existing(name, repo)
            if imported is None:
                continue
            if STAGES[_part(imported)] > STAGES[_part(importer)]:
                upward.append(f"{importer} -> {imported}")
    return sorted(upward)


def private_imports(repo: Path) -> list[str]:
    """``importer -> module.name`` for every private name (``_name``, not a module) that a module
    of ``repo/rouge_plus`` imports from another: what a module shares is public, with a
    docstring."""
    found = []
    for path in (repo / "rouge_plus").rglob("*.py"):
        importer = _module_name(path, repo)
        for module, name in _imported_names(path, repo):
            if not (module.startswith("rouge_plus") and name and module != importer):
                continue
            private = name.startswith("_") and not name.startswith("__")
            if private and _existing(f"{module}.{name}", repo) is None:
                found.append(f"{importer} -> {module}.{name}")
    return sorted(found)


def test_at_most_fifteen_modules_at_the_top():
    """The top level holds the core API's stages and the package's faces; anything else belongs
    in a stage's folder."""
    modules = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(modules) <= 15, modules


# A declaration at the top of a C file: an ``extern`` object, or a function's return type, name,
# parameters and semicolon (``static`` ones are the file's own).
DECLARATION = re.compile(
    r"^(?:extern\b[^;]*|(?!static\b|return\b)\w[\w \t]*[\s*]\w+\([^;{}()]*\));", re.MULTILINE
)


def ad_hoc_sharing(repo: Path) -> list[str]:
    """The C files of ``repo/rouge_plus`` that include another C file or declare what another
    defines, where a header should."""
    found = []
    for path in sorted((repo / "rouge_plus").rglob("*.c")):
        text = path.read_text(encoding="utf-8")
        where = path.relative_to(repo).as_posix()
        included = INCLUDE.findall(text)
        found += [f"{where} includes {name}" for name in included if name.endswith(".c")]
        found += [
            f"{where} declares {' '.join(declaration.group().split())}"
            for declaration in DECLARATION.finditer(text)
        ]
    return found


def test_no_python_module_imports_itself_through_others():
    """Not even from a function or under ``TYPE_CHECKING``: what two modules share lives in a
    third that both import (``kernels/spec.py`` for ``native.py`` and ``python.py``)."""
    assert cycles(import_graph(REPO)) == []


def test_no_c_file_includes_itself_through_others():
    assert cycles(include_graph(REPO)) == []


def test_c_files_share_through_headers_only():
    """What the files of an extension share is declared in its header (``_native.h``,
    ``_tagger.h``) and defined once."""
    assert ad_hoc_sharing(REPO) == []


def test_the_header_check_sees_ad_hoc_sharing(tmp_path):
    kernels = tmp_path / "rouge_plus" / "kernels"
    kernels.mkdir(parents=True)
    (kernels / "_native.c").write_text(
        '#include "_native.h"\nPyDoc_STRVAR(doc, "f(x)");\nstatic int g(void);\n',
        encoding="utf-8",
    )
    assert ad_hoc_sharing(tmp_path) == []
    (kernels / "_native_lcs.c").write_text('#include "_native.c"\n', encoding="utf-8")
    (kernels / "_tagger.c").write_text(
        "extern Py_ssize_t word_cache_limit;\nHIDDEN int tag_parts(Model *m,\n    int n);\n",
        encoding="utf-8",
    )
    assert ad_hoc_sharing(tmp_path) == [
        "rouge_plus/kernels/_native_lcs.c includes _native.c",
        "rouge_plus/kernels/_tagger.c declares extern Py_ssize_t word_cache_limit;",
        "rouge_plus/kernels/_tagger.c declares HIDDEN int tag_parts(Model *m, int n);",
    ]


def test_the_cycle_checks_see_a_cycle(tmp_path):
    """The checks above can fail: a function-level import back, and headers that include each
    other, are cycles; a chain is none."""
    kernels = tmp_path / "rouge_plus" / "kernels"
    kernels.mkdir(parents=True)
    for package in (tmp_path / "rouge_plus", kernels):
        (package / "__init__.py").write_text("", encoding="utf-8")
    (kernels / "spec.py").write_text("", encoding="utf-8")
    (kernels / "native.py").write_text("from . import python, spec\n", encoding="utf-8")
    (kernels / "python.py").write_text(
        "from .spec import Kernel\n\n\ndef f():\n    from .native import Buffer\n",
        encoding="utf-8",
    )
    assert cycles(import_graph(tmp_path)) == [
        ["rouge_plus.kernels.native", "rouge_plus.kernels.python"]
    ]
    (kernels / "a.h").write_text('#include "b.h"\n', encoding="utf-8")
    (kernels / "b.h").write_text('#include "../kernels/a.h"\n', encoding="utf-8")
    (kernels / "a.c").write_text('#include "a.h"\n#include <Python.h>\n', encoding="utf-8")
    assert cycles(include_graph(tmp_path)) == [["rouge_plus/kernels/a.h", "rouge_plus/kernels/b.h"]]
    (kernels / "python.py").write_text("from .spec import Kernel\n", encoding="utf-8")
    assert cycles(import_graph(tmp_path)) == []


def test_the_command_line_has_no_import_cycle():
    """Subcommands share cli/common.py; none imports main.py, which imports them by name."""
    for path in (PACKAGE / "cli").glob("*.py"):
        if path.name not in ("main.py", "__init__.py"):
            assert "rouge_plus.cli.main" not in _imports(path, REPO), path.name


def test_every_part_has_a_stage():
    parts = {p.stem for p in PACKAGE.glob("*.py")} | {
        p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists()
    }
    assert parts <= set(STAGES), parts - set(STAGES)


def test_imports_only_run_to_the_same_or_a_lower_stage():
    assert upward_imports(REPO) == []


def test_the_layering_check_sees_an_upward_import(tmp_path):
    """The check above can fail: a kernel that imports the scorer is reported."""
    kernels = tmp_path / "rouge_plus" / "kernels"
    kernels.mkdir(parents=True)
    for package in (tmp_path / "rouge_plus", kernels):
        (package / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "rouge_plus" / "scorer.py").write_text("", encoding="utf-8")
    (kernels / "bad.py").write_text("from ..scorer import score\n", encoding="utf-8")
    assert upward_imports(tmp_path) == ["rouge_plus.kernels.bad -> rouge_plus.scorer"]


def test_an_import_of_the_package_face_is_seen(tmp_path):
    """``from . import name`` reaches the package's lazy ``__init__``, the top stage."""
    package = tmp_path / "rouge_plus"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "comparison.py").write_text("from . import RougeScorer\n", encoding="utf-8")
    assert upward_imports(tmp_path) == ["rouge_plus.comparison -> rouge_plus"]


def test_no_module_imports_a_private_name_of_another():
    assert private_imports(REPO) == []


def test_the_private_name_check_sees_one(tmp_path):
    """The check above can fail; a private submodule (``from . import _native``) is no
    private name."""
    package = tmp_path / "rouge_plus"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "_native.py").write_text("", encoding="utf-8")
    (package / "inputs.py").write_text("def _texts(): pass\n", encoding="utf-8")
    (package / "all_pairs.py").write_text(
        "from . import _native\nfrom .inputs import _texts\n", encoding="utf-8"
    )
    assert private_imports(tmp_path) == ["rouge_plus.all_pairs -> rouge_plus.inputs._texts"]


def test_app_py_is_a_short_launcher():
    lines = (REPO / "app.py").read_text(encoding="utf-8").splitlines()
    assert len(lines) < 40


def test_architecture_doc_names_every_part():
    doc = (REPO / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    for path in PACKAGE.rglob("*.py"):
        relative = path.relative_to(PACKAGE)
        if path.name != "__init__.py":
            assert str(relative) in doc or path.name in doc, f"{relative} is not described"
    for part in STAGES:
        if (PACKAGE / part).is_dir():
            assert f"{part}/" in doc, f"{part}/ is not described"


def test_space_api_exposes_every_option_but_the_documented_few():
    gradio = pytest.importorskip("gradio", reason="the Space needs gradio")
    del gradio
    from rouge_plus.space import api, page

    fields = {field.name for field in record_fields(ScoreOptions)}
    assert set(api.OMITTED_OPTIONS) <= fields
    info = page.build_demo().get_api_info()
    served = {
        parameter["parameter_name"] for parameter in info["named_endpoints"]["/score"]["parameters"]
    }
    missing = fields - served - set(api.OMITTED_OPTIONS)
    assert not missing, f"ScoreOptions fields neither served by /score nor omitted: {missing}"
    assert {"predictions", "references", "beta", "alpha"} <= served
    guide = (REPO / "docs" / "space.md").read_text(encoding="utf-8")
    for name in api.OMITTED_OPTIONS:
        assert f"`{name}`" in guide


def test_under_ci_a_skip_fails_but_for_the_listed_ones(tmp_path):
    """An oracle that is missing under CI fails the run (tests/support/ci_skips.py)."""
    import os
    import subprocess
    import sys

    (tmp_path / "test_skips.py").write_text(
        "import pytest\n"
        "def test_oracle():\n    pytest.skip('rouge_score is not installed')\n"
        "@pytest.mark.skipif(True, reason='the C extension is not built')\n"
        "def test_marked():\n    pass\n"
        'def test_listed():\n    pytest.skip("evaluate\'s rouge script is absent")\n'
    )
    command = [
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-p",
        "support.ci_skips",
        "-p",
        "no:cacheprovider",
    ]
    env = {**os.environ, "PYTHONPATH": str(REPO / "tests")}
    for ci, expected in [("true", "1 failed, 1 skipped, 1 error"), ("", "3 skipped")]:
        done = subprocess.run(
            [*command, str(tmp_path)],
            cwd=tmp_path,
            env={**env, "CI": ci},
            capture_output=True,
            text=True,
        )
        assert expected in done.stdout.splitlines()[-1], done.stdout
