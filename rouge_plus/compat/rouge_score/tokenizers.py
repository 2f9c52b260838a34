"""rouge_score's ``tokenizers`` module: the ``Tokenizer`` base class and ``DefaultTokenizer``.

A ``RougeScorer`` given this module's ``DefaultTokenizer`` (or no tokenizer) scores at rouge_plus's
full speed; any other object with a ``tokenize(text)`` method is called for every text, as
rouge_score does.
"""

from __future__ import annotations

import abc

from . import tokenize as _tokenize


class Tokenizer(abc.ABC):
    """Abstract base class of tokenizers: subclasses implement ``tokenize(text)``."""

    @abc.abstractmethod
    def tokenize(self, text: str) -> list:
        raise NotImplementedError("Tokenizer must override tokenize() method")


class DefaultTokenizer(Tokenizer):
    """rouge_score's tokenizer, with NLTK's Porter stemmer when ``use_stemmer`` is true."""

    def __init__(self, use_stemmer: bool = False):
        if use_stemmer:
            from nltk.stem import porter  # imported only when needed: NLTK is slow to import

            self._stemmer = porter.PorterStemmer()
        else:
            self._stemmer = None

    def tokenize(self, text: str | bytes) -> list[str]:
        return _tokenize.tokenize(text, self._stemmer)
