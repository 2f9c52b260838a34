"""``install()``: later imports of other ROUGE packages' names get rouge_plus's drop-ins.

After ``install()``, ``import rouge_score`` (and ``rouge_score.rouge_scorer``, ``.scoring``,
``.tokenize``, ``.tokenizers``) and ``import rouge`` (pltrdy's package) return the modules of
:mod:`rouge_plus.compat`, so code that imports them runs unchanged on rouge_plus. Nothing
happens on import of rouge_plus itself: it is opt-in, per process (``rouge-plus run`` installs
it in a program and its worker processes). ``installed()`` says whether it is on,
``uninstall()`` turns it off for imports that follow.
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


class _AliasLoader(importlib.abc.Loader):
    """Hands the import system the drop-in module, imported under its own name."""

    def __init__(self, target: str):
        self._target = target

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        return importlib.import_module(self._target)

    def exec_module(self, module: ModuleType) -> None:
        """Nothing: the drop-in ran when ``create_module`` imported it."""


class _AliasFinder(importlib.abc.MetaPathFinder):
    """First on ``sys.meta_path`` while installed: finds the aliased names."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        drop_in = _target(fullname)
        if drop_in is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, _AliasLoader(drop_in))


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
            del sys.modules[name]
    if _FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _FINDER)


def uninstall() -> None:
    """Undo ``install()`` for the imports that follow: the names go back to the real packages."""
    if _FINDER in sys.meta_path:
        sys.meta_path.remove(_FINDER)
    for name in [n for n, m in sys.modules.items() if _target(n) is not None]:
        if getattr(sys.modules[name], "__name__", "").startswith("rouge_plus."):
            del sys.modules[name]


def installed() -> bool:
    """Whether ``import rouge_score`` and ``import rouge`` give rouge_plus's drop-ins."""
    return _FINDER in sys.meta_path
