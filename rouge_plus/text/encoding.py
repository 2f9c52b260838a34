"""Texts to token-id arrays: split sentences, tokenize, stem, map words to dense integers.

The result of a batch is three flat arrays (see :class:`Encoded`), the shape the counting kernels
read. Texts that the built-in rule can tokenize (ASCII text, for the default and rouge_score
tokenizers) are tokenized by the compiled kernel straight from the ``str``; every other text is
tokenized in Python and handed over as tokens. Stemming maps each distinct word once, through
the vocabulary, instead of once per occurrence.
"""

from __future__ import annotations

import functools
import itertools
import re
from array import array
from collections.abc import Callable, Hashable, Sequence

from .._compiled import compiled
from ..kernels.native import Vocabulary
from ..kernels.spec import int_list
from .tokenizers import CheckedTokenizer

TYPE_CHECKING = False
if TYPE_CHECKING:
    import numpy as np

    from ..kernels.spec import Buffer
    from .protocols import SentenceSplitter, Tokenizer

# Word ids to stem ids on buffers, compiled (text/_stemmers.c); None without the extension.
_compiled = compiled("text._stemmers")

Item = str | list[list[Hashable]]

# What makes a token under the compiled tokenizer's rule.
_ASCII_LETTER_OR_DIGIT = re.compile(r"[A-Za-z0-9]")


class Encoded:
    """Token ids of many documents, in three buffers: ``ids`` (int32), ``sentences`` and
    ``documents`` (int64), as the compiled vocabulary returns them (bytes) or as NumPy arrays
    where NumPy changed them (stopwords removed); :meth:`arrays` views them as NumPy arrays.

    ``ids[sentences[s]:sentences[s + 1]]`` are the tokens of sentence ``s``; documents are runs
    of sentences, ``documents[d]:documents[d + 1]``. Empty sentences are dropped, so a document
    without a token has no sentence.

    The classes of this module are plain classes, not dataclasses: creating a dataclass costs
    about a millisecond at import, which every short-lived process would pay.
    """

    __slots__ = ("documents", "ids", "sentences", "vocab_size", "word_ids", "words")

    def __init__(
        self,
        ids: Buffer,  # int32
        sentences: Buffer,  # int64, len n_sentences + 1
        documents: Buffer,  # int64, len n_documents + 1
        vocab_size: int,
        words: list[str] | None = None,  # when kept: the words, by word number
        word_ids: Buffer | None = None,  # int32, the id of each word when they differ (stemming)
    ) -> None:
        self.ids, self.sentences, self.documents = ids, sentences, documents
        self.vocab_size = vocab_size
        self.words = [] if words is None else words
        self.word_ids = word_ids

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``ids``, ``sentences`` and ``documents`` as NumPy arrays (views, not copies)."""
        import numpy as np

        return (
            np.frombuffer(self.ids, dtype=np.int32),
            np.frombuffer(self.sentences, dtype=np.int64),
            np.frombuffer(self.documents, dtype=np.int64),
        )

    def tokenless(self, n_texts: int) -> list[int]:
        """The indexes among the first ``n_texts`` documents of those without a token (with
        stopwords removed: without a token before their removal)."""
        starts = int_list(self.documents, "q")[: n_texts + 1]
        if len(set(starts)) == len(starts):  # the common case: every document has a token
            return []
        return [d for d in range(n_texts) if starts[d] == starts[d + 1]]

    def id_words(self) -> dict[int, list[str]]:
        """The words behind each id (several when stemming merged them)."""
        ids = range(len(self.words)) if self.word_ids is None else int_list(self.word_ids, "i")
        out: dict[int, list[str]] = {}
        for word, token_id in zip(self.words, ids, strict=True):
            out.setdefault(token_id, []).append(word)
        return out

    def unique_per_document(self) -> Encoded:
        """The same documents with each id kept once (first occurrence), as one sentence."""
        import numpy as np

        ids, sentences, documents = self.arrays()
        n_docs = len(documents) - 1
        starts = sentences[documents]
        document = np.repeat(np.arange(n_docs, dtype=np.int64), np.diff(starts))
        # The first occurrence of each (document, id), kept in reading order.
        keep = np.unique(document * max(self.vocab_size, 1) + ids, return_index=True)[1]
        keep.sort()
        lengths = np.bincount(document[keep], minlength=n_docs).astype(np.int64)
        return Encoded(
            ids[keep],
            np.concatenate([[0], np.cumsum(lengths)]),
            np.arange(n_docs + 1, dtype=np.int64),
            self.vocab_size,
            self.words,
            self.word_ids,
        )


class TextPipeline:
    """How texts become tokens.

    ``limit_text`` cuts each text before anything else (ROUGE-1.5.5's ``-l``/``-b``);
    ``limit_sentences``, when given, cuts the texts that are encoded by sentence instead (1.5.5
    reads its sentence-level measures under ``-b`` its own way); ``stopwords`` are removed
    before stemming, as 1.5.5's ``-s`` does.
    """

    __slots__ = (
        "limit_sentences",
        "limit_text",
        "split_sentences",
        "stem",
        "stopwords",
        "tokenizer",
    )

    def __init__(
        self,
        tokenizer: Tokenizer,
        split_sentences: SentenceSplitter,
        stem: Callable[[str], str] | None,
        stopwords: frozenset[str] | None = None,
        limit_text: Callable[[str], str] | None = None,
        limit_sentences: Callable[[str], str] | None = None,
    ) -> None:
        self.tokenizer, self.split_sentences, self.stem = tokenizer, split_sentences, stem
        self.stopwords, self.limit_text = stopwords, limit_text
        self.limit_sentences = limit_sentences

    @property
    def sentence_safe(self) -> bool:
        """Whether tokenizing sentence by sentence yields the tokens of the whole text, so that
        one encoding serves every ROUGE type."""
        safe_cuts = self.tokenizer.safe_cuts
        return safe_cuts is not None and self.split_sentences.cuts <= safe_cuts

    def _native_reads_whole(self, by_sentence: bool) -> bool:
        """Whether the compiled tokenizer reads the texts as they are (it splits lines itself)."""
        return self.tokenizer.native_when is not None and (
            not by_sentence or self.split_sentences.by_lines
        )

    def _item(self, text: str, by_sentence: bool) -> Item:
        """What the vocabulary encodes for one text (``encode`` skips this for the texts the
        compiled tokenizer reads as they are)."""
        native_when = self.tokenizer.native_when
        if native_when is not None and native_when(text):
            if self._native_reads_whole(by_sentence):
                return text  # whole-text documents are read as one run of tokens
            return "\n".join(s.replace("\n", " ") for s in self.split_sentences(text))
        if not by_sentence:
            return [self.tokenizer(text)]
        return [self.tokenizer(sentence) for sentence in self.split_sentences(text)]

    def _limited(self, texts: Sequence[str], by_sentence: bool = False) -> Sequence[str]:
        limit = self.limit_text
        if by_sentence and self.limit_sentences is not None:
            limit = self.limit_sentences
        return texts if limit is None else list(map(limit, texts))

    def encode(
        self,
        texts: Sequence[str],
        *,
        by_sentence: bool,
        whole_too: bool = False,
        keep_words: bool = False,
        describe: Callable[[int], str] = str,
    ) -> Encoded:
        """Encode ``texts``: by sentence or as whole texts; with ``whole_too``, both (the whole
        texts come first, then the same texts by sentence, as documents ``n .. 2n-1``).
        ``keep_words`` keeps the words behind each id (for synonym matching). ``describe``
        names text ``i`` in the note added to an error raised while tokenizing it."""
        if whole_too:
            whole = self._items(self._limited(texts), False, describe)
            sentences = self._items(self._limited(texts, by_sentence=True), True, describe)
            return self._encode_items(whole + sentences, keep_words)
        texts = self._limited(texts, by_sentence)
        if self._native_reads_whole(by_sentence):
            # The common case: the compiled tokenizer reads ASCII texts as they are; only the
            # others are prepared here (the loop over texts runs in C, mostly without the GIL).
            prepare = functools.partial(self._prepared, by_sentence=by_sentence, describe=describe)
            return self._encode_items(texts, keep_words, prepare)
        return self._encode_items(self._items(texts, by_sentence, describe), keep_words)

    def _prepared(
        self, index: int, text: str, *, by_sentence: bool, describe: Callable[[int], str]
    ) -> Item:
        try:
            return self._item(text, by_sentence)
        except Exception as error:
            error.add_note(f"(while tokenizing {describe(index)})")
            raise

    def _items(
        self, texts: Sequence[str], by_sentence: bool, describe: Callable[[int], str]
    ) -> list[Item]:
        return [
            self._prepared(index, text, by_sentence=by_sentence, describe=describe)
            for index, text in enumerate(texts)
        ]

    def tokenless(self, texts: Sequence[str], *, describe: Callable[[int], str] = str) -> list[int]:
        """The indexes of the texts in which the tokenizer finds no token (as the whole texts
        :meth:`encode` reads them). A text the compiled tokenizer reads has a token exactly
        when it holds an ASCII letter or digit; the others are tokenized."""
        texts = self._limited(texts)
        native_when = self.tokenizer.native_when
        search = _ASCII_LETTER_OR_DIGIT.search
        out = []
        for index, text in enumerate(texts):
            # The compiled tokenizer reads every ASCII text (native_when holds for them all).
            if native_when is not None and (text.isascii() or native_when(text)):
                if search(text) is None:
                    out.append(index)
            elif not self._prepared(index, text, by_sentence=False, describe=describe)[0]:
                out.append(index)
        return out

    def encode_topics(
        self,
        texts: Sequence[str],
        topic_words: Callable[[list[str]], list[list[str] | str]],
        keep_words: bool,
    ) -> Encoded:
        """Encode the topic words of each text, sentence by sentence (``topic_words`` tags
        sentences, all of them in one call, and returns the lowercased topic words of each: a
        list, or a str of lowercase ASCII words separated by spaces, which the compiled
        tokenizer reads as they are)."""
        texts = self._limited(texts)
        if self.split_sentences.by_lines and texts:
            # rouge_score's rule, every text split at once: empty lines stay (they have no topic
            # word, and empty sentences are dropped when encoding).
            sentences = "\n".join(texts).split("\n")
            counts = [lines + 1 for lines in map(str.count, texts, itertools.repeat("\n"))]
        else:
            split = [self.split_sentences(text) for text in texts]
            sentences = [sentence for text_sentences in split for sentence in text_sentences]
            counts = list(map(len, split))
        found = topic_words(sentences)
        words = iter(found)
        if set(map(type, found)) <= {str}:
            items: list[Item] = ["\n".join(itertools.islice(words, n)) for n in counts]
        else:
            items = [
                [s.split() if type(s) is str else s for s in itertools.islice(words, n)]
                for n in counts
            ]
        return self._encode_items(items, keep_words)

    def _encode_items(
        self,
        items: Sequence[Item],
        keep_words: bool,
        prepare: Callable[[int, str], Item] | None = None,
    ) -> Encoded:
        if isinstance(self.tokenizer, CheckedTokenizer):
            items = _name_other_tokens(items, self.stopwords or frozenset())
        vocabulary = Vocabulary()
        ids, sentences, documents = vocabulary.encode(items, True, prepare)
        vocab_size = len(vocabulary)
        need_words = keep_words or self.stopwords or self.stem
        words = vocabulary.words() if need_words and vocab_size else []
        if self.stopwords and words:
            ids, sentences = _drop_words(ids, sentences, words, self.stopwords)
        word_ids = None
        if self.stem is not None and words:
            word_ids, vocab_size = _stem_ids(words, self.stem)
            ids = _remap(ids, word_ids)
        return Encoded(
            ids,
            sentences,
            documents,
            vocab_size,
            words if keep_words else [],
            word_ids if keep_words else None,
        )


def _name_other_tokens(items: Sequence[Item], reserved: frozenset[str]) -> Sequence[Item]:
    """The items with each distinct token that is not a str (a user's tokenizer may return ints
    or tuples) replaced by a str name of its own, which no str token of this call, stopword or
    stem of one can equal: the names start with a prefix that none of those starts with.

    Names are per call, like the vocabulary they enter; equal tokens (``1 == 1.0``) share one.
    """
    names: dict[Hashable, str] = {}
    words: set[str] = set(reserved)
    for item in items:
        for sentence in item:
            for token in sentence:
                if type(token) is str:
                    words.add(token)
                else:
                    names.setdefault(token, "")
    if not names:
        return items
    prefix = "\x00#"
    while any(word.startswith(prefix) for word in words):
        prefix = "\x00" + prefix
    for number, token in enumerate(names):
        names[token] = f"{prefix}{number}"
    return [
        [[token if type(token) is str else names[token] for token in sentence] for sentence in item]
        for item in items
    ]


def _drop_words(
    ids: Buffer, sentences: Buffer, words: list[str], dropped: frozenset[str]
) -> tuple[np.ndarray, np.ndarray]:
    """Remove the tokens whose word is in ``dropped``; sentences keep their places."""
    import numpy as np

    ids, sentences = np.frombuffer(ids, dtype=np.int32), np.frombuffer(sentences, dtype=np.int64)
    keep = np.fromiter((word not in dropped for word in words), dtype=bool, count=len(words))[ids]
    kept_before = np.concatenate([[0], np.cumsum(keep)])
    return ids[keep], kept_before[sentences]


def _stem_ids(words: list[str], stem: Callable[[str], str]) -> tuple[Buffer, int]:
    """The int32 id of each word's stem (stems numbered in the order they first appear, so
    that words with the same stem share one id), and how many there are."""
    stems = list(map(stem, words))
    if _compiled is not None:
        return _compiled.number_stems(stems)
    stem_id = {s: i for i, s in enumerate(dict.fromkeys(stems))}
    return array("i", map(stem_id.__getitem__, stems)), len(stem_id)


def _remap(ids: Buffer, table: Buffer) -> Buffer:
    """``table[ids]`` for int32 buffers."""
    if _compiled is not None:
        return _compiled.remap_ids(ids, table)
    import numpy as np

    return np.frombuffer(table, dtype=np.int32)[np.frombuffer(ids, dtype=np.int32)]
