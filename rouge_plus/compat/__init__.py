"""Drop-in replacements for other ROUGE packages' APIs, computed by rouge_plus.

``rouge_plus.compat.rouge_score`` mirrors Google's ``rouge_score`` 0.1.2: change
``from rouge_score import rouge_scorer, scoring`` to
``from rouge_plus.compat.rouge_score import rouge_scorer, scoring`` and the numbers stay the same.
``rouge_plus.compat.rouge`` mirrors pltrdy's ``rouge`` 1.0.1 (``Rouge``, ``FilesRouge``).

Without editing the imports: ``rouge_plus.compat.install()`` makes later ``import rouge_score``
and ``import rouge`` give these modules, and ``python -m rouge_plus.compat.run -- COMMAND ...``
runs an unmodified program (and its worker processes) that way.
"""

from ._aliases import install, installed, uninstall

__all__ = ["install", "installed", "uninstall"]
