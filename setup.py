"""Build the optional C kernels and PyPI's long description; the rest is in pyproject.toml.

``optional=True``: where no C compiler is available the package installs without the extensions
and runs their pure-Python twins (same results, slower). Each extension is one stage's compiled
code: the counting kernels, the stemmers, the per-row scores, the synonym matching of
unigrams, the part-of-speech tagger.

README.md opens with the Hugging Face Space's YAML front matter, which PyPI would render as stray
text above the title; the long description is the README without it.
"""

import sys
from pathlib import Path

from setuptools import Extension, setup


def readme_without_front_matter() -> str:
    text = (Path(__file__).parent / "README.md").read_text(encoding="utf-8")
    if text.startswith("---\n"):
        text = text[4:].partition("\n---\n")[2].lstrip("\n")
    return text


# No fused multiply-add: the compiled scores must equal NumPy's (separate multiply and add) to
# the last bit on every CPU.
flags = [] if sys.platform == "win32" else ["-O3", "-std=c11", "-ffp-contract=off"]

setup(
    long_description=readme_without_front_matter(),
    long_description_content_type="text/markdown",
    ext_modules=[
        Extension(name, sources=[source], extra_compile_args=flags, optional=True)
        for name, source in (
            ("rouge_plus.kernels._native", "rouge_plus/kernels/_native.c"),
            ("rouge_plus.text._stemmers", "rouge_plus/text/_stemmers.c"),
            ("rouge_plus.scoring._scores", "rouge_plus/scoring/_scores.c"),
            ("rouge_plus.scoring._synonyms", "rouge_plus/scoring/_synonyms.c"),
            ("rouge_plus.rouge2._tagger", "rouge_plus/rouge2/_tagger.c"),
        )
    ],
)
