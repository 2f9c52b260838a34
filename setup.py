"""Build the optional C kernels and PyPI's long description; the rest is in pyproject.toml.

``optional=True``: where no C compiler is available the package installs without the extensions
and runs their pure-Python twins (same results, slower). Each extension is one stage's compiled
code: the counting kernels (with the vocabulary that encodes texts for them), the stemmers, the
per-row scores, the synonym matching of unigrams, the part-of-speech tagger. An extension may be
built from several C files; all of them include the headers of ``rouge_plus/_compiled/`` (what
every extension shares), and ``depends`` names the headers, so that a change to one rebuilds the
extensions that include it and the sdist ships them.

README.md opens with the Hugging Face Space's YAML front matter, which PyPI would render as stray
text above the title; the long description is the README without it.

``setup()`` runs only when this file is the program (as pip's build backend runs it): the Space
(``rouge_plus/space/compiled.py``) reads :func:`extensions` alone, to compile them with whatever
setuptools its image has.
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
# the last bit on every CPU (MSVC's /fp:precise contracts nothing unless /fp:contract is given).
# MSVC compiles C11 with /std:c11 (Visual Studio 2019 16.8 or later); what the C needs beyond C11
# is in rouge_plus/_compiled/portable.h.
flags = (
    ["/std:c11", "/fp:precise"]
    if sys.platform == "win32"
    else ["-O3", "-std=c11", "-ffp-contract=off"]
)

# Every extension: its C files, and the headers of its own that they include.
EXTENSIONS = {
    "rouge_plus.kernels._native": (
        [
            "rouge_plus/kernels/_native.c",
            "rouge_plus/kernels/_native_vocabulary.c",
            "rouge_plus/kernels/_native_pair.c",
            "rouge_plus/kernels/_native_ngram.c",
            "rouge_plus/kernels/_native_skip_bigram.c",
            "rouge_plus/kernels/_native_lcs.c",
            "rouge_plus/kernels/_native_weighted_lcs.c",
        ],
        ["rouge_plus/kernels/_native.h"],
    ),
    "rouge_plus.text._stemmers": (["rouge_plus/text/_stemmers.c"], []),
    "rouge_plus.scoring._scores": (["rouge_plus/scoring/_scores.c"], []),
    "rouge_plus.scoring._synonyms": (["rouge_plus/scoring/_synonyms.c"], []),
    "rouge_plus.meta._global_level": (["rouge_plus/meta/_global_level.c"], []),
    "rouge_plus.kernels._similarity_join": (["rouge_plus/kernels/_similarity_join.c"], []),
    "rouge_plus.rouge2._tagger": (
        [
            "rouge_plus/rouge2/_tagger.c",
            "rouge_plus/rouge2/_tagger_model.c",
            "rouge_plus/rouge2/_tagger_inference.c",
        ],
        ["rouge_plus/rouge2/_tagger.h"],
    ),
}
SHARED_HEADERS = [
    "rouge_plus/_compiled/portable.h",
    "rouge_plus/_compiled/common.h",
    "rouge_plus/_compiled/ascii_words.h",
    "rouge_plus/_compiled/fmeasure.h",
]


def extensions() -> list[Extension]:
    """The C extensions, each optional."""
    return [
        Extension(
            name,
            sources=sources,
            depends=headers + SHARED_HEADERS,
            extra_compile_args=flags,
            optional=True,
        )
        for name, (sources, headers) in EXTENSIONS.items()
    ]


if __name__ == "__main__":
    setup(
        long_description=readme_without_front_matter(),
        long_description_content_type="text/markdown",
        ext_modules=extensions(),
    )
