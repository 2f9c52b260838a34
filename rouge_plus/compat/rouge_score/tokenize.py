"""rouge_score's ``tokenize`` module: the tokenizer of ROUGE-1.5.5 as rouge_score 0.1.2 has it.

Lowercase, make every run of characters outside ``[a-z0-9]`` a space, split, stem the tokens
longer than 3 characters if a stemmer is given, and keep the tokens that are ``[a-z0-9]+``.
Scoring does not call this function (rouge_plus tokenizes with the same rule in bulk); it is here
for code that calls ``tokenize.tokenize(text, stemmer)`` directly.
"""

from __future__ import annotations

import re
from typing import Protocol

from ._text import ensure_str

NON_ALPHANUM_PATTERN = r"[^a-z0-9]+"
NON_ALPHANUM_RE = re.compile(NON_ALPHANUM_PATTERN)
SPACES_PATTERN = r"\s+"
SPACES_RE = re.compile(SPACES_PATTERN)
VALID_TOKEN_PATTERN = r"^[a-z0-9]+$"
VALID_TOKEN_RE = re.compile(VALID_TOKEN_PATTERN)


class Stemmer(Protocol):
    def stem(self, word: str) -> str: ...


def tokenize(text: str | bytes, stemmer: Stemmer | None) -> list[str]:
    """The tokens of ``text``, stemmed with ``stemmer`` (e.g. NLTK's ``PorterStemmer()``) if given.

    Bytes are lowercased before they are decoded, as in rouge_score, so only their ASCII letters
    change case.
    """
    text = NON_ALPHANUM_RE.sub(" ", ensure_str(text.lower()))
    tokens = SPACES_RE.split(text)
    if stemmer:
        tokens = [ensure_str(stemmer.stem(x)) if len(x) > 3 else x for x in tokens]
    return [x for x in tokens if VALID_TOKEN_RE.match(x)]
