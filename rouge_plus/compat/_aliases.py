"""``install()``: later imports of other ROUGE packages' names get rouge_plus's drop-ins.

After ``install()``, ``import rouge_score`` (and ``rouge_score.rouge_scorer``, ``.scoring``,
``.tokenize``, ``.tokenizers``) and ``import rouge`` (pltrdy's package, and ``rouge.rouge``,
``rouge.rouge_score``) return the modules of :mod:`rouge_plus.compat`, so code that imports
them runs unchanged on rouge_plus. A submodule the drop-in does not have (rouge_score's ``io``,
its ``rouge`` command line, its tests) is the real package's, when that is installed, run on the
drop-ins: its own ``from rouge_score import rouge_scorer`` gets rouge_plus's. Nothing happens on
import of rouge_plus itself: it is opt-in, per process (``rouge-plus run`` installs it in a
program and its worker processes). ``installed()`` says whether it is on, ``uninstall()`` turns
it off for imports that follow.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import warnings
from collections.abc import Sequence
from types import ModuleType

# Each package name and the drop-in that replaces it; a submodule maps to the same submodule.
ALIASES = {
    "rouge_score": "rouge_plus.compat.rouge_score",
    "rouge": "rouge_plus.compat.rouge",
}


def _target(fullname: str) -> str | None:
    """The drop-in module for an import of ``fullname``, or None if it is not an alias."""
    top, dot, rest = fullname.partition(".")
    package = ALIASES.get(top)
    return None if package is None else package + dot + rest


def _alias_of(fullname: str) -> str | None:
    """The aliased name of a submodule of a drop-in package (``rouge_score.io`` for
    ``rouge_plus.compat.rouge_score.io``), or None."""
    for alias, package in ALIASES.items():
        if fullname.startswith(package + "."):
            return alias + fullname[len(package) :]
    return None


def _drop_in_has(name: str) -> bool:
    """Whether the drop-in module ``name`` exists (looked up past the aliases)."""
    parent = importlib.import_module(name.rpartition(".")[0])
    locations = getattr(parent, "__path__", None)
    finder = importlib.machinery.PathFinder
    return locations is not None and finder.find_spec(name, locations) is not None


class _AliasLoader(importlib.abc.Loader):
    """Hands the import system a module imported under another name: the drop-in, or for a
    name the drop-in lacks (``from rouge_score import io``) the aliased module."""

    def __init__(self, target: str):
        self._target = target

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        return importlib.import_module(self._target)

    def exec_module(self, module: ModuleType) -> None:
        """Nothing: the drop-in ran when ``create_module`` imported it."""


def _real_spec(fullname: str) -> importlib.machinery.ModuleSpec | None:
    """The spec of module ``fullname`` of the real, installed package (looked up on
    ``sys.path``, past the aliases), or None when the package or the module is not there."""
    spec, found = None, ""
    for part in fullname.split("."):
        locations = None if spec is None else spec.submodule_search_locations
        if spec is not None and locations is None:  # a module, not a package
            return None
        found = f"{found}.{part}" if found else part
        spec = importlib.machinery.PathFinder.find_spec(found, locations)
        if spec is None:
            return None
    return spec


class _AliasFinder(importlib.abc.MetaPathFinder):
    """First on ``sys.meta_path`` while installed: finds the aliased names."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        alias = _alias_of(fullname)
        if alias is not None:  # asked for by the drop-in's name, as ``from rouge_score import``
            if _drop_in_has(fullname) or _real_spec(alias) is None:
                return None
            return importlib.machinery.ModuleSpec(fullname, _AliasLoader(alias))
        drop_in = _target(fullname)
        if drop_in is None:
            return None
        if "." not in fullname or _drop_in_has(drop_in):
            return importlib.machinery.ModuleSpec(fullname, _AliasLoader(drop_in))
        real = _real_spec(fullname)
        if real is not None:
            _REAL_MODULES.add(fullname)
        return real


# The aliased names whose module is the real package's (run on the drop-ins).
_REAL_MODULES: set[str] = set()

# The modules uninstall() took out of sys.modules, kept alive: a module imported again afterwards
# must not reuse the address of the one it replaces, since absl's flags (rouge_score's command
# line modules define some) tell a re-import from a second definition by the module's id().
_RETIRED: list[ModuleType] = []


_FINDER = _AliasFinder()


def install() -> None:
    """Make later ``import rouge_score`` and ``import rouge`` give rouge_plus's drop-ins.

    A package already imported stays what it is for the code holding it: a warning names it
    (install before the program imports it, as ``rouge-plus run`` does).
    """
    already = sorted(
        name
        for name, module in list(sys.modules.items())
        if _target(name) is not None
        and module is not None
        and not getattr(module, "__name__", "").startswith("rouge_plus.")
    )
    if already:
        warnings.warn(
            f"rouge_plus.compat.install(): {', '.join(already)} already imported; code that "
            "imported it keeps the original",
            RuntimeWarning,
            stacklevel=2,
        )
        for name in already:
            _RETIRED.append(sys.modules.pop(name))
    if _FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _FINDER)


def uninstall() -> None:
    """Undo ``install()`` for the imports that follow: the names go back to the real packages."""
    if _FINDER in sys.meta_path:
        sys.meta_path.remove(_FINDER)
    for name, module in list(sys.modules.items()):
        served = getattr(module, "__name__", "")
        if served in _REAL_MODULES or (_target(name) and served.startswith("rouge_plus.")):
            _RETIRED.append(sys.modules.pop(name))
    for name in _REAL_MODULES:  # set on the drop-in package by ``import rouge_score.io``
        package, _, child = _target(name).rpartition(".")
        vars(sys.modules[package]).pop(child, None)
    _REAL_MODULES.clear()


def installed() -> bool:
    """Whether ``import rouge_score`` and ``import rouge`` give rouge_plus's drop-ins."""
    return _FINDER in sys.meta_path
