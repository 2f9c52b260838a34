"""Build the optional C kernels; everything else is declared in pyproject.toml.

``optional=True``: where no C compiler is available the package installs without the extension
and runs the pure-Python kernels (same results, slower).
"""

import sys

from setuptools import Extension, setup

flags = [] if sys.platform == "win32" else ["-O3", "-std=c11"]

setup(
    ext_modules=[
        Extension(
            "rouge_plus._native",
            sources=["rouge_plus/_native.c"],
            extra_compile_args=flags,
            optional=True,
        )
    ]
)
