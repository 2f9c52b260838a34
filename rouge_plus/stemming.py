"""Stemmers, chosen by name.

``"porter"`` is rouge_score's rule: NLTK's Porter stemmer in its default mode, applied only to
tokens longer than three characters. Every distinct token is stemmed once per process (the cache
is bounded), which makes stemming nearly free on a large corpus.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, lru_cache

Stemmer = Callable[[str], str]

_CACHE_SIZE = 1 << 18


@lru_cache(maxsize=1)
def _nltk_porter() -> Callable[[str], str]:
    from nltk.stem.porter import PorterStemmer

    return PorterStemmer().stem


@lru_cache(maxsize=_CACHE_SIZE)
def porter_stem(token: str) -> str:
    """rouge_score's stemming rule for one lowercased token."""
    return _nltk_porter()(token) if len(token) > 3 else token


def _rouge155_stemmer() -> Stemmer:
    from .rouge155_stemmer import Rouge155Stemmer

    return lru_cache(maxsize=_CACHE_SIZE)(Rouge155Stemmer())


_STEMMERS: dict[str, Callable[[], Stemmer]] = {
    "porter": lambda: porter_stem,
    "rouge155": _rouge155_stemmer,
}


def available_stemmers() -> list[str]:
    return sorted(_STEMMERS)


@cache
def get_stemmer(name: str) -> Stemmer:
    """The stemmer registered under ``name``; ``ValueError`` lists the valid names."""
    try:
        factory = _STEMMERS[name]
    except KeyError:
        valid = ", ".join(available_stemmers())
        message = f"stemmer: unknown stemmer {name!r}; valid stemmers are: {valid}"
        raise ValueError(message) from None
    return factory()
