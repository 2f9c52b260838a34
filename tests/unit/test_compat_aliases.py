"""``rouge_plus.compat.install()``: ``import rouge_score`` and ``import rouge`` and every real
submodule of rouge_score 0.1.2 and of pltrdy's rouge 1.0.1 under them: the drop-in's module where
it has one (with the real module's public names), else the real package's module run on the
drop-ins. Each case runs in a fresh interpreter, as the import hook changes the process."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

# Every module of the real packages, and those the drop-ins provide.
REAL_SUBMODULES = {
    "rouge_score": (
        *("create_pyrouge_files", "io", "io_test", "rouge", "rouge_scorer", "rouge_scorer_test"),
        *("scoring", "scoring_test", "test_util", "tokenize", "tokenize_test", "tokenizers"),
        "tokenizers_test",
    ),
    "rouge": ("rouge", "rouge_score"),
}
DROP_IN_SUBMODULES = {
    "rouge_score": ("rouge_scorer", "scoring", "tokenize", "tokenizers"),
    "rouge": ("rouge", "rouge_score"),
}
DROP_INS = [
    (package, module) for package, modules in DROP_IN_SUBMODULES.items() for module in modules
]

PUBLIC_NAMES = """
import __future__, types

def public_names(module):
    # What a module defines and others may use: not private, not a module it imports, not a
    # __future__ feature, not a name it imports (a class or function of another module).
    return sorted(
        name
        for name, value in vars(module).items()
        if not name.startswith("_")
        and not isinstance(value, (types.ModuleType, __future__._Feature))
        and getattr(value, "__module__", module.__name__) == module.__name__
    )
"""


def _run(code: str, *, path: Path | None = None) -> dict:
    """The JSON that ``code`` prints in a fresh interpreter (``path`` first on ``sys.path``)."""
    prefix = f"import sys; sys.path.insert(0, {str(path)!r})\n" if path else ""
    done = subprocess.run(
        [sys.executable, "-c", prefix + textwrap.dedent(code)],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def test_install_maps_import_rouge_and_import_rouge_score():
    """Without either real package needed: the names are served by the drop-ins."""
    got = _run(
        """
        import json, rouge_plus.compat
        rouge_plus.compat.install()
        import rouge, rouge_score
        from rouge import Rouge, FilesRouge
        from rouge_score import rouge_scorer
        import rouge_plus.compat.rouge as drop_in
        print(json.dumps([rouge.__name__, rouge_score.__name__, rouge_scorer.__name__,
                          Rouge is drop_in.Rouge and FilesRouge is drop_in.FilesRouge]))
        """
    )
    assert got == [
        "rouge_plus.compat.rouge",
        "rouge_plus.compat.rouge_score",
        "rouge_plus.compat.rouge_score.rouge_scorer",
        True,
    ]


@pytest.mark.parametrize(("package", "module"), DROP_INS)
def test_a_submodule_the_drop_in_has_is_the_drop_ins(package, module):
    """``import package.module`` and ``from package import module`` alike."""
    got = _run(
        f"""
        import importlib, json, sys, rouge_plus.compat
        rouge_plus.compat.install()
        from {package} import {module} as imported
        import {package}.{module}
        drop_in = importlib.import_module("rouge_plus.compat.{package}.{module}")
        print(json.dumps([imported is drop_in, sys.modules["{package}.{module}"] is drop_in]))
        """
    )
    assert got == [True, True]


@pytest.mark.parametrize("package", sorted(DROP_IN_SUBMODULES))
def test_the_drop_in_has_the_public_names_of_the_real_modules(package):
    pytest.importorskip(package)
    code = (
        PUBLIC_NAMES
        + f"""
import importlib, json
lacking = {{}}
for name in {DROP_IN_SUBMODULES[package]!r}:
    real = importlib.import_module("{package}." + name)
    drop_in = importlib.import_module("rouge_plus.compat.{package}." + name)
    assert public_names(real), name
    lacking[name] = sorted(set(public_names(real)) - set(vars(drop_in)))
print(json.dumps(lacking))
"""
    )
    assert _run(code) == dict.fromkeys(DROP_IN_SUBMODULES[package], [])


@pytest.mark.parametrize("package", sorted(REAL_SUBMODULES))
def test_every_real_submodule_imports_under_the_alias(package):
    """Those the drop-in lacks are the real package's, run on the drop-ins; ``uninstall()``
    gives the real package back, submodules included."""
    pytest.importorskip(package)
    got = _run(
        f"""
        import importlib, importlib.util, json, pkgutil, sys, types, rouge_plus.compat
        real = importlib.util.find_spec("{package}").submodule_search_locations
        names = sorted(m.name for m in pkgutil.iter_modules(real))
        rouge_plus.compat.install()
        served = {{}}
        for name in names:
            module = importlib.import_module("{package}." + name)
            served[name] = module.__name__.startswith("rouge_plus.compat.{package}.")
        runs_on = {{}}
        for name in names:
            module = sys.modules["{package}." + name]
            runs_on[name] = sorted(
                value.__name__ for value in vars(module).values()
                if isinstance(value, types.ModuleType)
                and value.__name__.split(".")[0] in ("{package}", "rouge_plus")
            )
        rouge_plus.compat.uninstall()
        after = [importlib.import_module("{package}." + name).__name__ for name in names]
        print(json.dumps([names, served, runs_on, after]))
        """
    )
    names, served, runs_on, after = got
    assert names == sorted(REAL_SUBMODULES[package])
    assert sorted(name for name in names if served[name]) == sorted(DROP_IN_SUBMODULES[package])
    # A real module's imports of its own package reach the drop-ins, never the real ones.
    real_ones = {f"{package}.{name}" for name in DROP_IN_SUBMODULES[package]}
    for name in set(names) - set(DROP_IN_SUBMODULES[package]):
        assert not real_ones & set(runs_on[name]), runs_on[name]
    if package == "rouge_score":
        assert "rouge_plus.compat.rouge_score.rouge_scorer" in runs_on["rouge"]
    assert after == [f"{package}.{name}" for name in names]


def test_a_module_imported_again_after_uninstall_is_a_new_object():
    """Modules taken out of ``sys.modules`` by ``install()``/``uninstall()`` stay alive, so a
    re-import never reuses their address: absl (rouge_score's command-line modules define flags)
    takes a module at the address of the one that defined a flag for a second definition and
    raises ``DuplicateFlagError``. Twenty round trips, each importing the module twice."""
    pytest.importorskip("rouge_score")
    got = _run(
        """
        import importlib, json, warnings, rouge_plus.compat
        warnings.simplefilter("ignore")  # install() names the real package imported before it
        seen = []
        for _ in range(20):
            rouge_plus.compat.install()
            seen.append(id(importlib.import_module("rouge_score.create_pyrouge_files")))
            rouge_plus.compat.uninstall()
            seen.append(id(importlib.import_module("rouge_score.create_pyrouge_files")))
        print(json.dumps(len(set(seen))))
        """
    )
    assert got == 40


def test_rouge_scores_io_runs_on_the_drop_in(tmp_path):
    """rouge_score's ``io`` (not in the drop-in) writes its CSV with the drop-in's scorer."""
    pytest.importorskip("rouge_score")
    (tmp_path / "target.txt").write_text("the cat sat\na dog ran\n")
    (tmp_path / "prediction.txt").write_text("the cat sat down\nno dog\n")
    got = _run(
        f"""
        import json, rouge_plus.compat
        rouge_plus.compat.install()
        from rouge_score import io, rouge_scorer, scoring
        scorer = rouge_scorer.RougeScorer(["rouge1"])
        io.compute_scores_and_write_to_csv(
            {str(tmp_path / "target.txt")!r}, {str(tmp_path / "prediction.txt")!r},
            {str(tmp_path / "out.csv")!r}, scorer, None)
        print(json.dumps([type(scorer).__module__, open({str(tmp_path / "out.csv")!r}).read()]))
        """
    )
    module, csv = got
    assert module == "rouge_plus.compat.rouge_score.rouge_scorer"
    rows = ["0,0.750000,1.000000,0.857143", "1,0.500000,0.333333,0.400000"]
    assert csv.splitlines()[1:] == rows


def test_a_submodule_neither_has_is_not_found(tmp_path):
    """Where the real package lacks it too (here a bare ``rouge_score`` first on the path), the
    import fails as any missing module does, naming it."""
    (tmp_path / "rouge_score").mkdir()
    (tmp_path / "rouge_score" / "__init__.py").write_text("")
    got = _run(
        """
        import json, rouge_plus.compat
        rouge_plus.compat.install()
        found = []
        for statement in ("import rouge_score.io", "from rouge_score import io",
                          "import rouge_score.rouge_scorer"):
            try:
                exec(statement)
                found.append("ok")
            except ImportError as error:
                found.append(type(error).__name__ + ": " + str(error))
        print(json.dumps(found))
        """,
        path=tmp_path,
    )
    assert got[0] == "ModuleNotFoundError: No module named 'rouge_score.io'"
    assert got[1].startswith("ImportError: cannot import name 'io'")
    assert got[2] == "ok"
