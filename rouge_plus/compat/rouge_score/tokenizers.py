"""rouge_score's ``tokenizers`` module: the ``Tokenizer`` base class and ``DefaultTokenizer``.

A ``RougeScorer`` given this module's ``DefaultTokenizer`` (or no tokenizer) scores at rouge_plus's
full speed; any other object with a ``tokenize(text)`` method is called for every text, as
rouge_score does.
"""

from __future__ import annotations

import abc

from ...text.stemming import PorterStemmer
from . import tokenize as _tokenize


class Tokenizer(abc.ABC):
    """Abstract base class of tokenizers: subclasses implement ``tokenize(text)``."""

    @abc.abstractmethod
    def tokenize(self, text: str) -> list:
        raise NotImplementedError("Tokenizer must override tokenize() method")


class DefaultTokenizer(Tokenizer):
    """rouge_score's tokenizer, with NLTK's Porter stemmer when ``use_stemmer`` is true (its
    exact restatement in :mod:`rouge_plus.text.porter`: NLTK is not needed)."""

    def __init__(self, use_stemmer: bool = False):
        self._stemmer = PorterStemmer() if use_stemmer else None

    def tokenize(self, text: str | bytes) -> list[str]:
        return _tokenize.tokenize(text, self._stemmer)
