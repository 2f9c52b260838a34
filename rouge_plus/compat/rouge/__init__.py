"""pltrdy's ``rouge`` 1.0.1 API on rouge_plus: ``Rouge`` and ``FilesRouge`` with that package's
own numbers (see :mod:`rouge_plus.compat.rouge.rouge` for its conventions and what differs).

::

    from rouge_plus.compat.rouge import Rouge  # was: from rouge import Rouge

    scores = Rouge().get_scores(hyps, refs, avg=True)  # {"rouge-1": {"r": .., "p": .., "f": ..}}
"""

from .rouge import FilesRouge, Rouge

__version__ = "1.0.1"
__all__ = ["FilesRouge", "Rouge"]
