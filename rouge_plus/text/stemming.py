"""rouge_score's stemming rule: NLTK's Porter stemmer in its default mode, applied only to
tokens longer than three characters.

The stemmer is :mod:`rouge_plus.text.porter`'s restatement of NLTK's ``PorterStemmer()`` (NLTK
itself is not needed), compiled in ``_stemmers.c`` when the extension is built;
``ROUGE_PLUS_PURE_PYTHON=1`` selects the Python code, as for the kernels. Every distinct token is
stemmed once per process (the cache is bounded), which makes stemming nearly free on a large
corpus. Stemmers are chosen by name in :mod:`rouge_plus.plan`.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from .._compiled import compiled

Stemmer = Callable[[str], str]

CACHE_SIZE = 1 << 18

_compiled = compiled("text._stemmers")
if _compiled is not None:
    nltk_porter_stem: Stemmer = _compiled.porter_stem  # PorterStemmer().stem, default mode
else:
    from .porter import porter_stem as nltk_porter_stem


class PorterStemmer:
    """The interface of NLTK's ``PorterStemmer()`` (``.stem(word)``), without NLTK."""

    def stem(self, word: str) -> str:
        return nltk_porter_stem(word)


def _rouge_score_stem(token: str) -> str:
    """rouge_score's stemming rule for one lowercased token."""
    return nltk_porter_stem(token) if len(token) > 3 else token


# rouge_score's rule, compiled when it can be (no Python frame per word), each token once.
porter_stem = lru_cache(maxsize=CACHE_SIZE)(
    _compiled.rouge_score_stem if _compiled is not None else _rouge_score_stem
)
