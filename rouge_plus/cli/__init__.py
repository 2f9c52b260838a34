"""The ``rouge-plus`` command line (also ``python -m rouge_plus``): ``main`` parses the flags
and reads the input; ``report`` renders the scores."""

from .main import main

__all__ = ["main"]
