"""The package-wide switch between the compiled modules and their pure-Python twins.

Every stage that has compiled code (the kernels, the stemmers, the per-row scores, the synonym
matching, the tagger) asks :func:`compiled` for it, so that one switch covers them all: set
``ROUGE_PLUS_PURE_PYTHON=1`` to run the Python code even where the extensions are built (the
tests run both and require identical results). Where an extension is missing and nobody asked
for the twins (an sdist installed where no C compiler ran, a source tree never built), the
first module that needs it warns once, with a :class:`PurePythonWarning` naming why and the
command that fixes it: the twins give the same scores, tens of times slower, and that must
never happen silently. :func:`kernels_in_use` says which kernels run, and why, to code and to
``rouge-plus --version``. It imports nothing of rouge_plus, so that any stage may use it. This
folder also holds the C headers the compiled modules share: ``common.h``, which every C file
includes, ``portable.h`` (which it includes), what the C needs beyond standard C11 for GCC,
Clang and MSVC, ``ascii_words.h``, the ASCII word rule, and ``fmeasure.h``, precision, recall
and F from counts.
"""

from __future__ import annotations

import os
import sys

# Nothing more is imported here: every scoring call goes through this module, and importlib,
# pathlib, warnings, collections or typing would cost a short script more than its scoring.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import FrameType, ModuleType

# Every compiled extension, as ``rouge_plus.<name>`` (setup.py builds exactly these).
EXTENSIONS = (
    "kernels._native",
    "kernels._similarity_join",
    "text._stemmers",
    "scoring._scores",
    "scoring._synonyms",
    "meta._global_level",
    "rouge2._tagger",
)
PURE_PYTHON_VARIABLE = "ROUGE_PLUS_PURE_PYTHON"
PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_warned = False


class PurePythonWarning(RuntimeWarning):
    """The compiled kernels are not in use, though nobody asked for the pure-Python ones."""


class KernelsInUse(tuple):
    """Which kernels score here, as a ``(compiled, reason, fix)`` tuple: ``compiled`` (True for
    the C extensions), ``reason`` (why), and ``fix`` (the command that brings the compiled
    kernels, or ``""`` when nothing needs fixing). ``str()`` gives the name, ``"compiled C
    kernels"`` or ``"pure Python"``."""

    __slots__ = ()

    def __new__(cls, compiled: bool, reason: str, fix: str) -> KernelsInUse:
        return tuple.__new__(cls, (compiled, reason, fix))

    @property
    def compiled(self) -> bool:
        return bool(self[0])

    @property
    def reason(self) -> str:
        return str(self[1])

    @property
    def fix(self) -> str:
        return str(self[2])

    def __str__(self) -> str:
        return "compiled C kernels" if self.compiled else "pure Python"


def _pure_python_chosen() -> bool:
    return os.environ.get(PURE_PYTHON_VARIABLE) == "1"


def _load(module: str) -> tuple[ModuleType | None, ImportError | None]:
    name = f"rouge_plus.{module}"
    try:  # __import__, not importlib: importing importlib costs a short script
        __import__(name)
    except ImportError as error:  # pragma: no cover - depends on the build
        return None, error
    return sys.modules[name], None


def _load_file(module: str) -> ImportError | None:
    """Load the extension ``rouge_plus.<module>`` from its file, without importing its
    package (``meta``'s imports NumPy): the error that stops it, or None when it loads."""
    import importlib.util
    from importlib import machinery

    name = f"rouge_plus.{module}"
    if name in sys.modules:
        return None
    folder, _, stem = module.rpartition(".")
    paths = [
        os.path.join(PACKAGE, folder, stem + suffix) for suffix in machinery.EXTENSION_SUFFIXES
    ]
    path = next((path for path in paths if os.path.isfile(path)), None)
    if path is None:
        return ModuleNotFoundError(f"No module named {name!r}", name=name)
    loader = machinery.ExtensionFileLoader(name, path)
    try:
        spec = machinery.ModuleSpec(name, loader, origin=path)
        loader.exec_module(importlib.util.module_from_spec(spec))
    except ImportError as error:
        return error
    return None


def _source_tree() -> str | None:
    """The checkout this package is imported from, if it is one (not an installed copy)."""
    root = os.path.dirname(PACKAGE)
    found = all(os.path.isfile(os.path.join(root, name)) for name in ("setup.py", "pyproject.toml"))
    return root if found else None


def _not_compiled(failed: dict[str, ImportError]) -> KernelsInUse:
    """Why the extensions in ``failed`` (name -> its import error) are missing, and the fix."""
    missing = [m for m, e in failed.items() if e.name == f"rouge_plus.{m}"]
    broken = {m: e for m, e in failed.items() if m not in missing}
    tree = _source_tree()
    if broken:
        module, error = next(iter(broken.items()))
        why = f"the C extension rouge_plus.{module} in {PACKAGE} does not load ({error})"
    elif tree is not None:
        why = f"the C extensions of the source tree {tree} are not built"
    else:
        why = (
            f"this installation ({PACKAGE}) has no C extensions: it was built from source where "
            "no C compiler ran"
        )
    if tree is not None:
        fix = f"python -m pip install -e {tree}"
    else:
        tag = f"cp{sys.version_info.major}{sys.version_info.minor}"
        fix = f"python -m pip install --force-reinstall rouge_plus-*-{tag}-*.whl"
    return KernelsInUse(False, why, fix)


def kernels_in_use() -> KernelsInUse:
    """Which kernels score in this process, and why: the compiled C kernels when every extension
    loads and ``ROUGE_PLUS_PURE_PYTHON`` is not ``1``, else the pure-Python twins."""
    if _pure_python_chosen():
        return KernelsInUse(False, f"{PURE_PYTHON_VARIABLE}=1 selects the pure-Python kernels", "")
    failed = {m: error for m in EXTENSIONS if (error := _load_file(m)) is not None}
    if failed:
        return _not_compiled(failed)
    return KernelsInUse(True, f"the C extensions in {PACKAGE} are built and load", "")


def _stacklevel_outside_package() -> int:
    """``warnings.warn``'s stacklevel, called from here, of the first frame outside rouge_plus
    and the import machinery (the code that started the scoring call). importlib's bootstrap
    frames are not counted, as warnings skips them."""
    level = 0
    frame: FrameType | None = sys._getframe(1)
    while frame is not None:
        filename = frame.f_code.co_filename
        if "importlib" in filename and "_bootstrap" in filename:
            frame = frame.f_back
            continue
        level += 1
        if not (filename.startswith(PACKAGE) or "importlib" in filename):
            break
        frame = frame.f_back
    return level


def _warn_pure_python(failed: dict[str, ImportError]) -> None:
    global _warned
    if _warned:
        return
    _warned = True
    import warnings

    state = _not_compiled(failed)
    warnings.warn(
        f"rouge_plus runs its pure-Python kernels, tens of times slower than the compiled ones "
        f"(same scores): {state.reason}. To run the compiled kernels: {state.fix}  (or set "
        f"{PURE_PYTHON_VARIABLE}=1 to choose the pure-Python kernels without this warning)",
        PurePythonWarning,
        stacklevel=_stacklevel_outside_package(),
    )


def compiled(module: str) -> ModuleType | None:
    """The compiled extension ``rouge_plus.<module>`` (e.g. ``"text._stemmers"``), or None when
    ``ROUGE_PLUS_PURE_PYTHON=1`` selects the pure-Python twins or it is not built (which warns
    once per process)."""
    if _pure_python_chosen():
        return None
    extension, error = _load(module)
    if error is not None:
        _warn_pure_python({module: error})
    return extension
