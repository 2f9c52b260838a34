"""rouge_score's stemming rule: NLTK's Porter stemmer in its default mode, applied only to
tokens longer than three characters.

Every distinct token is stemmed once per process (the cache is bounded), which makes stemming
nearly free on a large corpus. Stemmers are chosen by name in :mod:`rouge_plus.resources`.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

Stemmer = Callable[[str], str]

CACHE_SIZE = 1 << 18


@lru_cache(maxsize=1)
def _nltk_porter() -> Callable[[str], str]:
    from nltk.stem.porter import PorterStemmer

    return PorterStemmer().stem


@lru_cache(maxsize=CACHE_SIZE)
def porter_stem(token: str) -> str:
    """rouge_score's stemming rule for one lowercased token."""
    return _nltk_porter()(token) if len(token) > 3 else token
