"""The C compiles beyond GCC: everything it needs past standard C11 is in
``rouge_plus/_compiled/portable.h`` (GCC and Clang builtins, MSVC intrinsics for the Windows
wheels, plain C), and the plain C computes what the builtins do.

MSVC cannot run here. What stands in for it: no other C file names a compiler or an extension;
with ``ROUGE_PLUS_PORTABLE_C`` every C file is standard C11 (``-pedantic-errors``); the plain C
helpers equal GCC's builtins and 128-bit integers on edge cases and random words; and
``scripts/check_portable_c.sh`` runs the twins' tests against a whole build of that plain C.
"""

from __future__ import annotations

import re
import runpy
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PORTABLE_H = "rouge_plus/_compiled/portable.h"

# What only some compilers know: GNU C's builtins, types, attributes and predefined target
# macros, MSVC's, and what MSVC's C lacks (C11 atomics without an experimental flag, complex
# numbers, alloca) or only it has.
COMPILER_SPECIFIC = re.compile(
    r"__int128|__builtin_\w+|__attribute__|__declspec|__extension__|__asm\w*|\btypeof\b"
    r"|__typeof\w*|#\s*pragma|_MSC_VER|__GNUC__|__clang__|__BYTE_ORDER__|__x86_64__|__linux__"
    r"|__POPCNT__|__AVX\w*|_M_X64|_M_ARM64|\b_Atomic\b|<stdatomic\.h>|<\w*intrin\.h>"
    r"|\b_Complex\b|<complex\.h>|<tgmath\.h>|\balloca\b|__thread\b"
)
# Python's Windows headers are MSVC's: there the Windows wheels' own build is the check.
COMPILER = None if sys.platform == "win32" else shutil.which("gcc") or shutil.which("clang")
needs_compiler = pytest.mark.skipif(COMPILER is None, reason="no gcc or clang here (or Windows)")
STRICT_C11 = ["-DROUGE_PLUS_PORTABLE_C", "-std=c11", "-pedantic-errors", "-Werror=vla"]


def compiler_specific_code(repo: Path) -> list[str]:
    """``file:line: name`` for each compiler-specific name in the C files of ``repo/rouge_plus``
    but portable.h (comments included: a name there is a copy waiting to happen)."""
    found = []
    for path in sorted((repo / "rouge_plus").rglob("*.[ch]")):
        where = path.relative_to(repo).as_posix()
        if where == PORTABLE_H:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            found += [f"{where}:{number}: {m.group()}" for m in COMPILER_SPECIFIC.finditer(line)]
    return found


def test_only_portable_h_names_a_compiler_or_an_extension():
    assert compiler_specific_code(REPO) == []


def test_the_check_sees_compiler_specific_code(tmp_path):
    kernels = tmp_path / "rouge_plus" / "kernels"
    kernels.mkdir(parents=True)
    (kernels / "_native_lcs.c").write_text(
        "static int f(unsigned long long x)\n{\n    return __builtin_ctzll(x);\n}\n",
        encoding="utf-8",
    )
    (kernels / "_native.h").write_text("#include <stdatomic.h>\n", encoding="utf-8")
    assert compiler_specific_code(tmp_path) == [
        "rouge_plus/kernels/_native.h:1: <stdatomic.h>",
        "rouge_plus/kernels/_native_lcs.c:3: __builtin_ctzll",
    ]


def _c_files() -> list[str]:
    extensions = runpy.run_path(str(REPO / "setup.py"), run_name="setup")["EXTENSIONS"]
    return [source for sources, _headers in extensions.values() for source in sources]


def _syntax_check(source: Path) -> subprocess.CompletedProcess:
    include = sysconfig.get_paths()["include"]
    command = [COMPILER, *STRICT_C11, "-fsyntax-only", f"-I{include}", str(source)]
    return subprocess.run(command, capture_output=True, text=True)


@pytest.fixture(scope="module")
def strict_python_headers(tmp_path_factory):
    """Skips where this Python's own headers are not strict C11: then no C file could be."""
    source = tmp_path_factory.mktemp("headers") / "python_only.c"
    source.write_text("#define PY_SSIZE_T_CLEAN\n#include <Python.h>\n", encoding="utf-8")
    if _syntax_check(source).returncode:
        pytest.skip("this Python's headers do not compile under -std=c11 -pedantic-errors")


@needs_compiler
@pytest.mark.parametrize("source", _c_files())
def test_every_c_file_is_standard_c11_with_the_plain_fallbacks(strict_python_headers, source):
    """Any GNU extension left outside portable.h's shims is an error under -pedantic-errors."""
    run = _syntax_check(REPO / source)
    assert run.returncode == 0, run.stderr


@needs_compiler
@pytest.mark.parametrize("seed", [0, 20260901])
def test_the_plain_fallbacks_equal_the_builtins(tmp_path, seed):
    """popcount64, ctz64, clz64, multiply_wide and add_with_carry in plain C, against GCC's
    builtins and unsigned __int128 (tests/support/portable_fallbacks.c)."""
    program = tmp_path / "portable_fallbacks"
    source = REPO / "tests" / "support" / "portable_fallbacks.c"
    subprocess.run([COMPILER, "-O2", "-std=c11", str(source), "-o", str(program)], check=True)
    run = subprocess.run([str(program), str(seed), "300000"], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout
    assert run.stdout.strip() == "0 differences"
