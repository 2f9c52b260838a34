"""Which ROUGE packages import here, from which file, and which installed distribution that file
belongs to: a module found first on the path but owned by no distribution that claims its name
shadows the package (a stray ``rouge/`` folder, another project's ``rouge``), and one served by
:func:`rouge_plus.compat.install` is rouge_plus's drop-in."""

from __future__ import annotations

import importlib
import importlib.metadata
import sys
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType


@dataclass(frozen=True)
class Package:
    """A ROUGE implementation people import: its import name and the distribution that should
    provide it."""

    name: str  # as ``rouge-plus doctor --expect`` and the report name it
    module: str  # the import name
    distribution: str  # the PyPI project that should own the module
    description: str


PACKAGES = (
    Package("rouge_score", "rouge_score", "rouge-score", "Google's rouge-score"),
    Package("rouge", "rouge", "rouge", "pltrdy's rouge"),
    Package("rouge_chinese", "rouge_chinese", "rouge-chinese", "rouge-chinese (pltrdy's fork)"),
    Package("rouge_metric", "rouge_metric", "rouge-metric", "rouge-metric's PyRouge"),
    Package("torchmetrics", "torchmetrics", "torchmetrics", "torchmetrics' ROUGEScore"),
    Package("rouge_score_rs", "rouge_score_rs", "rouge-score-rs", "rouge-score-rs (Rust)"),
    Package("evaluate", "evaluate", "evaluate", 'evaluate\'s "rouge" metric script'),
)


def _canonical(name: str) -> str:
    return name.lower().replace("_", "-").replace(".", "-")


def import_within(module: str, seconds: float) -> tuple[ModuleType | None, float, str | None]:
    """``module`` imported on a thread given ``seconds`` (an import cannot be interrupted: one
    that takes longer finishes in the background, unused); the module, the seconds taken and
    the error."""
    outcome: dict[str, object] = {}

    def load() -> None:
        try:
            outcome["module"] = importlib.import_module(module)
        except BaseException as error:  # noqa: BLE001 - any failure of another package's import
            outcome["error"] = f"{type(error).__name__}: {error}"

    start = time.perf_counter()
    worker = threading.Thread(target=load, name=f"doctor-import-{module}", daemon=True)
    worker.start()
    worker.join(seconds)
    taken = time.perf_counter() - start
    if worker.is_alive():
        return None, taken, f"import took over {seconds:g} s; not checked"
    return outcome.get("module"), taken, outcome.get("error")  # type: ignore[return-value]


def provenance(
    package: Package, module: ModuleType, claims: Mapping[str, list[str]]
) -> dict[str, object]:
    """Where ``package``'s module comes from: its file, the distribution that owns the file and
    its version, and a note when it is not ``package.distribution``'s own module (``claims``:
    :func:`importlib.metadata.packages_distributions`, read once for all packages)."""
    location = getattr(module, "__file__", None)
    found: dict[str, object] = {
        "file": location,
        "distribution": None,
        "version": None,
        "shadowing": False,
        "note": "",
    }
    name = getattr(module, "__name__", "")
    if name.startswith("rouge_plus."):
        found["note"] = f"served by rouge_plus.compat (install() is active): {name}"
        return found
    if location is None:  # a folder without __init__.py on the path, imported as a namespace
        folders = ", ".join(getattr(module, "__path__", []))
        return {
            **found,
            "shadowing": True,
            "note": f"shadowing: a folder, not a package: {folders}",
        }
    claimants = claims.get(package.module, [])
    owner = _owner(Path(location).resolve(), claimants)
    if owner is not None:
        found["distribution"], found["version"] = owner.metadata["Name"], owner.version
        if _canonical(owner.metadata["Name"]) != _canonical(package.distribution):
            found["shadowing"] = True
            found["note"] = (
                f"'import {package.module}' gives {owner.metadata['Name']} {owner.version}, "
                f"not {package.distribution}"
            )
        return found
    found["shadowing"] = True
    installed = ", ".join(f"{d.metadata['Name']} {d.version}" for d in _distributions(claimants))
    found["note"] = f"shadowing: {location} belongs to no installed distribution" + (
        f" (the installed {installed} is hidden behind it)" if installed else ""
    )
    return found


def _owner(path: Path, claimants: list[str]) -> importlib.metadata.Distribution | None:
    """The distribution, among those that claim the module's name, whose files hold ``path``."""
    for distribution in _distributions(claimants):
        for file in distribution.files or ():
            if file.name == path.name and Path(distribution.locate_file(file)).resolve() == path:
                return distribution
    return None


def _distributions(names: list[str]) -> list[importlib.metadata.Distribution]:
    """The installed distributions of ``names`` (one whose metadata cannot be found by its
    name, as a hand-made dist-info, is left out)."""
    found = []
    for name in dict.fromkeys(names):
        try:
            found.append(importlib.metadata.distribution(name))
        except importlib.metadata.PackageNotFoundError:
            continue
    return found


def compat_installed() -> bool:
    """Whether :func:`rouge_plus.compat.install` is active, without importing it if it is not
    loaded (then it cannot be)."""
    aliases = sys.modules.get("rouge_plus.compat._aliases")
    return bool(aliases and aliases.installed())
