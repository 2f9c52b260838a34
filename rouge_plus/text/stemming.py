"""Stemmers by name, and rouge_score's rule among them: NLTK's Porter stemmer in its default
mode, applied only to tokens longer than three characters.

The stemmer is :mod:`rouge_plus.text.porter`'s restatement of NLTK's ``PorterStemmer()`` (NLTK
itself is not needed), compiled in ``_stemmers.c`` when the extension is built;
``ROUGE_PLUS_PURE_PYTHON=1`` selects the Python code, as for the kernels. Every distinct token is
stemmed once per process (the cache is bounded), which makes stemming nearly free on a large
corpus. :func:`get_stemmer` gives a stemmer by the name the plan resolves a language to; the plan
imports this module only when it stems.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from .._compiled import compiled
from ..errors import OptionError

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
porter_stem = functools.lru_cache(maxsize=CACHE_SIZE)(
    _compiled.rouge_score_stem if _compiled is not None else _rouge_score_stem
)


def _rouge155_stemmer() -> Stemmer:
    from ..rouge155.stemmer import Rouge155Stemmer

    return functools.lru_cache(maxsize=CACHE_SIZE)(Rouge155Stemmer())


# Stemmers by the name resolve_language gives; built on first use, once per process.
_STEMMERS: dict[str, Callable[[], Stemmer]] = {
    "porter": lambda: porter_stem,
    "rouge155": _rouge155_stemmer,
}


@functools.cache
def _snowball_stemmers() -> dict[str, Callable[[], Stemmer]]:
    """The Snowball stemmers of the languages (PyStemmer), by the names ScoreOptions gives them
    (the languages table is imported for them only)."""
    from .languages import LANGUAGES, snowball_stemmer

    return {
        f"snowball:{language.stemmer}": functools.partial(snowball_stemmer, language.stemmer)
        for language in LANGUAGES.values()
        if language.stemmer and language.stemmer != "porter"
    }


@functools.cache
def get_stemmer(name: str) -> Stemmer:
    """The stemmer registered under ``name``; an ``OptionError`` lists the valid names."""
    factory = _STEMMERS.get(name) or _snowball_stemmers().get(name)
    if factory is None:
        valid = ", ".join(sorted({**_STEMMERS, **_snowball_stemmers()}))
        raise OptionError(f"stemmer: unknown stemmer {name!r}; valid stemmers are: {valid}")
    return factory()
