"""What this environment's ROUGE really is: :func:`doctor`.

For each ROUGE package people import (``rouge_score``, pltrdy's ``rouge``, ``rouge_chinese``,
``rouge_metric``, ``torchmetrics``, ``rouge_score_rs``, evaluate's "rouge"), whether it imports,
from which file, which installed distribution and version own that file (``packages.py``: a
module that no distribution claiming its name owns is flagged as shadowing), and the named
conformance cases run through the package's own API (``cases.py``, ``implementations.py``).
Packages are imported here, lazily, each in its own try and under a time budget; nothing is
downloaded.
"""

from __future__ import annotations

import importlib.metadata
import os
import time
import warnings
from collections.abc import Callable, Collection, Mapping
from pathlib import Path
from types import ModuleType

from .._version import __version__
from ..errors import OptionError
from .cases import CASES, run_all
from .implementations import Implementation, builders
from .packages import PACKAGES, Package, compat_installed, import_within, provenance

NAMES = tuple(package.name for package in PACKAGES)

# Where a copy of evaluate's "rouge" script may already be on disk (it is on the Hub, not in
# evaluate's packages): a checkout's test data (scripts/fetch_evaluate_rouge.py) and evaluate's
# cache of the modules it loaded from the Hub.
_CHECKOUT_SCRIPT = Path(".test-data") / "evaluate-rouge" / "rouge.py"
_CACHED_SCRIPTS = "evaluate_modules/metrics/evaluate-metric--rouge/*/rouge.py"


def find_evaluate_script() -> Path | None:
    """A local copy of evaluate's "rouge" metric script, or None."""
    checkouts = [Path.cwd(), Path(__file__).resolve().parents[2]]
    for root in checkouts:
        if (root / _CHECKOUT_SCRIPT).is_file():
            return root / _CHECKOUT_SCRIPT
    hf_home = Path(os.environ.get("HF_HOME", Path.home() / ".cache" / "huggingface"))
    modules = Path(os.environ.get("HF_MODULES_CACHE", hf_home / "modules"))
    cached = sorted(modules.glob(_CACHED_SCRIPTS)) if modules.is_dir() else []
    return cached[-1] if cached else None


def doctor(
    packages: Collection[str] = NAMES,
    *,
    evaluate_script: str | os.PathLike[str] | None = None,
    import_timeout: float = 120.0,
) -> dict[str, object]:
    """The report: rouge_plus's version, whether ``rouge_plus.compat.install()`` is active, and
    per package (``packages``: one name of :data:`NAMES` or several) where it comes from and
    each case's expected and actual number, with ``conforms`` (None when it was not checked).

    ``evaluate_script``: evaluate's "rouge" script on disk (found in a checkout's
    ``.test-data`` or evaluate's module cache when not given); without one that package is
    reported "not available offline". An import that takes over ``import_timeout`` seconds is
    reported and not checked.
    """
    packages = [packages] if isinstance(packages, str) else list(packages)
    unknown = [name for name in packages if name not in NAMES]
    if unknown:
        raise OptionError(f"doctor: unknown package(s) {unknown}; known: {', '.join(NAMES)}")
    if not import_timeout > 0:
        raise OptionError(f"import_timeout: {import_timeout!r} seconds; give a positive number")
    script = Path(evaluate_script) if evaluate_script is not None else find_evaluate_script()
    if script is not None and not script.is_file():
        raise OptionError(f"evaluate_script: {script} is not a file")
    adapters = builders(script)
    expected = [case.expected() for case in CASES]
    claims = importlib.metadata.packages_distributions()
    report = [
        _examine(package, adapters[package.name], expected, claims, import_timeout, script)
        for package in PACKAGES
        if package.name in packages
    ]
    return {
        "rouge_plus": __version__,
        "compat_installed": compat_installed(),
        "packages": report,
    }


def _examine(
    package: Package,
    adapter: Callable[[ModuleType], Implementation],
    expected: list[float],
    claims: Mapping[str, list[str]],
    import_timeout: float,
    script: Path | None,
) -> dict[str, object]:
    """One package: where it comes from, and the cases when it imports."""
    row: dict[str, object] = {
        "package": package.name,
        "description": package.description,
        "module": package.module,
        "expected_distribution": package.distribution,
    }
    if package.name == "evaluate" and script is None:
        absent = _absent("not available offline: no local copy of its rouge script")
        return {**row, **absent, **_installed(package.distribution)}
    module, seconds, error = import_within(package.module, import_timeout)
    row["import_seconds"] = round(seconds, 4)
    if module is None:
        return {**row, **_absent(error or "does not import")}
    row.update(provenance(package, module, claims), imports=True, error=None)
    if package.name == "evaluate":
        row["file"] = str(script)
    start = time.perf_counter()
    try:
        implementation = adapter(module)
    except Exception as error:  # noqa: BLE001 - the package's API is not what it should be
        return {**row, "cases": [], "conforms": False, "error": f"{type(error).__name__}: {error}"}
    with warnings.catch_warnings():  # a package's warnings are beside its report
        warnings.simplefilter("ignore")
        cases = run_all(implementation, expected)
    row["cases_seconds"] = round(time.perf_counter() - start, 4)
    row["cases"] = cases
    row["conforms"] = not row["shadowing"] and all(
        case["status"] in ("ok", "unsupported") for case in cases
    )
    return row


def _absent(error: str) -> dict[str, object]:
    return {
        "imports": False,
        "error": error,
        "file": None,
        "distribution": None,
        "version": None,
        "shadowing": False,
        "note": "",
        "cases": [],
        "conforms": None,
    }


def _installed(distribution: str) -> dict[str, object]:
    """The distribution and version installed, without importing it."""
    try:
        return {"distribution": distribution, "version": importlib.metadata.version(distribution)}
    except importlib.metadata.PackageNotFoundError:
        return {}
