"""Texts to token-id documents: split sentences, tokenize, stem, map words to integers.

Every text of a call (predictions and references alike) goes through one vocabulary, so the
counting kernels compare small integers instead of strings. The vocabulary lives only for the
call; nothing is left behind but the bounded stemming cache.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

Tokenizer = Callable[[str], list[str]]


@dataclass(frozen=True)
class Document:
    """A tokenized text: its token ids, and the same ids grouped by sentence when needed."""

    tokens: list[int]
    sentences: list[list[int]]


@dataclass(frozen=True)
class TextPipeline:
    """How one text becomes tokens.

    ``sentence_safe`` says that tokenizing sentence by sentence yields exactly the tokens of the
    whole text (true for the built-in tokenizers and splitters, which only split at whitespace);
    then each text is tokenized once. Otherwise the whole text and each sentence are tokenized
    separately, as rouge_score does.
    """

    tokenizer: Tokenizer
    split_sentences: Callable[[str], list[str]]
    stem: Callable[[str], str] | None
    need_sentences: bool
    sentence_safe: bool

    def _tokens(self, text: str) -> list[str]:
        tokens = self.tokenizer(text)
        if self.stem is not None:
            tokens = list(map(self.stem, tokens))
        return tokens

    def encode(self, texts: Sequence[str]) -> tuple[list[Document], list[int]]:
        """Encode ``texts``; also return the indexes of texts that have words but no tokens."""
        word_id = defaultdict(itertools.count().__next__).__getitem__
        documents = []
        wordless: list[int] = []
        for index, text in enumerate(texts):
            sentences: list[list[int]] = []
            if self.need_sentences:
                sentences = [
                    list(map(word_id, self._tokens(s))) for s in self.split_sentences(text)
                ]
            if self.need_sentences and self.sentence_safe:
                tokens = [token for sentence in sentences for token in sentence]
            else:
                tokens = list(map(word_id, self._tokens(text)))
            if not tokens and text and not text.isspace():
                wordless.append(index)
            documents.append(Document(tokens, sentences))
        return documents, wordless
