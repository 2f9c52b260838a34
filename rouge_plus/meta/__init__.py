"""Meta-evaluation: which ROUGE agrees with human judgments, and by how much more than another.

``correlation.py`` (the three levels, bootstrap intervals, paired tests), ``coefficients.py``
(the correlation coefficients over many weighted samples at once), ``global_level.py`` (the
global level under many resamples, on the cells sorted once), ``resampling.py`` (the random
draws, as nlpstats makes them), ``data.py`` (the shipped judgments: REALSumm, SummEval, RoSE;
judged records to :class:`Judgments`; records to matrices).
"""

from __future__ import annotations

from .correlation import (
    Comparison,
    Correlation,
    bootstrap_samples,
    compare_correlations,
    correlate,
)
from .data import (
    Judgments,
    judgments_from_records,
    matrices,
    realsumm,
    rose,
    rose_llm,
    summeval,
)

__all__ = [
    "Comparison",
    "Correlation",
    "Judgments",
    "bootstrap_samples",
    "compare_correlations",
    "correlate",
    "judgments_from_records",
    "matrices",
    "realsumm",
    "rose",
    "rose_llm",
    "summeval",
]
