"""ROUGE-1.5.5's length limits ``-l N`` (words) and ``-b N`` (bytes), on raw text.

1.5.5 applies a limit to the prediction and to every reference alike, while reading a text and
before tokenizing it. The text is read as lines (sentences): empty lines are skipped, lines are
not stripped. Sentences are kept whole while the running total stays *below* the limit; the
sentence that reaches it is cut and reading stops.

- Words are whitespace-separated pieces of the raw line, so punctuation such as ``.`` counts as a
  word even though the tokenizer later drops it, and a line that starts with whitespace counts
  one extra, empty word (Perl's ``split``). Whitespace is ASCII only.
- Bytes are UTF-8 bytes of each line; the spaces that later join sentences are not counted. A
  cut inside a multi-byte character leaves a fragment that the tokenizer drops anyway. A lone
  surrogate (which no UTF-8 file holds, but a Python ``str`` may) counts as the 3 bytes that
  ``surrogatepass`` gives it, and a cut keeps it whole or drops it.
- Quirk: for the sentence-level measures (ROUGE-L and ROUGE-W), 1.5.5 never adds up the bytes of
  the kept sentences: it keeps every sentence shorter than ``N`` bytes and cuts the first one
  that is not. ``limit_bytes_lcs`` reproduces that; the unigram counts that clip their hits
  and the prediction length of both still come from ``limit_bytes`` (1.5.5 reads each text
  twice), which ``profile="rouge155"`` follows.

Each function returns the kept sentences joined by newlines.
"""

from __future__ import annotations

import re

_ASCII_WHITESPACE = re.compile(r"[ \t\n\r\f\v]+")


def _lines(text: str) -> list[str]:
    return [line for line in text.split("\n") if line]


def _perl_words(line: str) -> list[str]:
    """Perl's ``split(/\\s+/, line)``: a leading empty field is kept, trailing ones are not."""
    words = _ASCII_WHITESPACE.split(line)
    while words and not words[-1]:
        words.pop()
    return words


def limit_words(text: str, max_words: int) -> str:
    """The first ``max_words`` words (``-l``); ``max_words <= 0`` means no limit."""
    if max_words <= 0:
        return text
    kept: list[str] = []
    total = 0
    for line in _lines(text):
        words = _perl_words(line)
        if total + len(words) < max_words:
            kept.append(line)
            total += len(words)
        else:
            kept.append(" ".join(words[: max_words - total]))
            break
    return "\n".join(kept)


def _size(line: str) -> int:
    return len(_utf8(line))


def _utf8(line: str) -> bytes:
    return line.encode("utf-8", "surrogatepass")


def _first_bytes(line: str, size: int) -> str:
    """The characters of ``line`` whose UTF-8 bytes fit in ``size``: only the last character
    can be cut, and a cut character is dropped."""
    head = _utf8(line)[:size]
    try:
        return head.decode("utf-8", "surrogatepass")
    except UnicodeDecodeError as error:  # a character cut at the end
        return head[: error.start].decode("utf-8", "surrogatepass")


def limit_bytes(text: str, max_bytes: int) -> str:
    """The first ``max_bytes`` bytes (``-b``) as ROUGE-N, -S and -SU see them; ``<= 0``: none."""
    if max_bytes <= 0:
        return text
    kept: list[str] = []
    total = 0
    for line in _lines(text):
        size = _size(line)
        if total + size < max_bytes:
            kept.append(line)
            total += size
        else:
            kept.append(_first_bytes(line, max_bytes - total))
            break
    return "\n".join(kept)


def limit_bytes_lcs(text: str, max_bytes: int) -> str:
    """``-b`` as 1.5.5 applies it to the sentences of ROUGE-L and ROUGE-W (see the module doc)."""
    if max_bytes <= 0:
        return text
    kept: list[str] = []
    for line in _lines(text):
        if _size(line) < max_bytes:
            kept.append(line)
        else:
            kept.append(_first_bytes(line, max_bytes))
            break
    return "\n".join(kept)
