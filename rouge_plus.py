"""The evaluate metric of a Hugging Face Space made from this repository.

``evaluate.load("<owner>/rouge_plus")`` fetches only ``rouge_plus.py`` from the Space's root and
imports it; every other import must already be installed. So this file holds no code of its own:
it re-exports the metric class of the installed package. When the package is missing, evaluate
says so and suggests ``pip install`` of the text after "From:" on the import line (the package is
not on PyPI yet). From the repository root, ``import rouge_plus`` still imports the package:
Python prefers the package directory ``rouge_plus/`` to this module of the same name.
"""

from rouge_plus.rouge_plus import RougePlus  # From: ".[evaluate]" in a clone of this Space

__all__ = ["RougePlus"]
