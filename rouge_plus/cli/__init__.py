"""The ``rouge-plus`` command line (also ``python -m rouge_plus``): ``main`` dispatches to the
subcommands (``score``, ``compare``), ``common`` holds what they share, ``report`` renders the
scores."""

from .main import main

__all__ = ["main"]
