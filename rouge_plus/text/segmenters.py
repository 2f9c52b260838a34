"""Word segmenters for the scripts written without spaces, and the tokenizer of a language.

The tokenizer of a language with a segmenter is the default tokenizer except on *runs* of the
language's script: a run is letters and marks of that script, together with the spaces and
punctuation between them, never reaching past a digit, a letter of another script, a line
break or a sentence mark. Each run goes to the segmenter; each word it returns keeps its
letters, marks and digits, lowercased. Outside runs nothing changes, so ASCII text gets
exactly the default tokens ("U21" stays one token, where the XL-Sum scorer splits it), and
since no run contains a place where ``split_sentences="rules"`` may cut, tokenizing sentence by
sentence gives the tokens of the whole text.

A distinct run is segmented once per process (a bounded cache), so a reference shared by many
rows, or a sentence repeated across texts, costs one segmentation. Segmenters are called under
a lock: MeCab taggers and CRF models are not safe to share between threads.
"""

from __future__ import annotations

import functools
import os
import threading
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from .languages import ALL_HARD_MARKS, ALL_SOFT_MARKS, import_optional, package_version
from .sentences import HARD_TERMINATORS, SOFT_TERMINATORS, Cut
from .tokenizers import default_lowered, default_native

if TYPE_CHECKING:
    import regex  # imported when a segmenting tokenizer is built

Segment = Callable[[str], list[str]]

RUN_CACHE_SIZE = 1 << 16

# What may stand between two letters of a run: no word character, no line break (what
# str.splitlines splits at) and no sentence mark of any language.
_MARKS = HARD_TERMINATORS + SOFT_TERMINATORS + ALL_HARD_MARKS + ALL_SOFT_MARKS


@functools.cache
def _patterns() -> tuple[regex.Pattern, regex.Pattern, str]:
    """The invisible joiners, a word, and what may stand between two letters of a run."""
    import regex

    gap = rf"[^\p{{L}}\p{{M}}\p{{Nd}}\n\r\v\f\x1c-\x1e\x85\u2028\u2029{regex.escape(_MARKS)}]"
    return (
        regex.compile(r"[\u00ad\u200c\u200d\u2060]+"),
        regex.compile(r"[\p{L}\p{M}\p{Nd}]+"),
        gap,
    )


def _zh() -> Segment:
    rjieba = import_optional("rjieba", "language='zh' (Chinese word segmentation)", "zh")
    return rjieba.cut  # type: ignore[attr-defined, no-any-return]


def _ja() -> Segment:
    fugashi = import_optional("fugashi", "language='ja' (Japanese word segmentation)", "ja")
    unidic_lite = import_optional("unidic_lite", "language='ja' (the UniDic dictionary)", "ja")
    # The dictionary is named, so an installed but empty `unidic` package is never picked.
    dicdir = unidic_lite.DICDIR  # type: ignore[attr-defined]
    tagger = fugashi.Tagger(f'-d "{dicdir}" -r "{os.devnull}"')  # type: ignore[attr-defined]
    return lambda text: [word.surface for word in tagger(text)]


def _th() -> Segment:
    tokenize = import_optional("pythainlp.tokenize", "language='th' (Thai word segmentation)", "th")
    return functools.partial(
        tokenize.word_tokenize,  # type: ignore[attr-defined]
        engine="newmm",
        keep_whitespace=False,
    )


def _ko() -> Segment:
    kiwipiepy = import_optional("kiwipiepy", "language='ko' (Korean morphemes)", "ko")
    kiwi = kiwipiepy.Kiwi()  # type: ignore[attr-defined]
    return lambda text: [token.form for token in kiwi.tokenize(text)]


def _lo() -> Segment:
    tokenize = import_optional("laonlp.tokenize", "language='lo' (Lao word segmentation)", "lo")
    return tokenize.word_tokenize  # type: ignore[attr-defined, no-any-return]


def _km() -> Segment:
    import logging

    logging.getLogger("khmer-nltk").setLevel(logging.WARNING)  # it logs each model load
    khmernltk = import_optional("khmernltk", "language='km' (Khmer word segmentation)", "km")
    return khmernltk.word_tokenize  # type: ignore[attr-defined, no-any-return]


class Segmenter(NamedTuple):
    """A segmenter: its label, the pip packages whose versions the signature records, the
    letters it segments (a regex class) and how to build it."""

    label: str
    packages: tuple[str, ...]
    script: str
    build: Callable[[], Segment]

    @property
    def version_label(self) -> str:
        return "+".join(f"{package}-{package_version(package)}" for package in self.packages)


SEGMENTERS: dict[str, Segmenter] = {
    "zh": Segmenter("jieba", ("rjieba",), r"\p{scx=Han}", _zh),
    "ja": Segmenter(
        "mecab-unidic",
        ("fugashi", "unidic-lite"),
        r"\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}",
        _ja,
    ),
    "th": Segmenter("newmm", ("pythainlp",), r"\p{scx=Thai}", _th),
    "ko": Segmenter("kiwi", ("kiwipiepy", "kiwipiepy_model"), r"\p{scx=Hangul}", _ko),
    "lo": Segmenter("laonlp", ("laonlp",), r"\p{scx=Lao}", _lo),
    "km": Segmenter("khmer-nltk", ("khmer-nltk",), r"\p{scx=Khmer}", _km),
}


@functools.cache
def _cached_segmenter(key: str) -> Callable[[str], tuple[str, ...]]:
    segment = SEGMENTERS[key].build()
    word_pattern = _patterns()[1]
    lock = threading.Lock()

    @functools.lru_cache(maxsize=RUN_CACHE_SIZE)
    def segment_run(run: str) -> tuple[str, ...]:
        with lock:
            words = segment(run)
        return tuple(word.lower() for piece in words for word in word_pattern.findall(piece))

    return segment_run


@dataclass(frozen=True)
class SegmentingTokenizer:
    """The default tokenizer, with the runs of one script cut into words by a segmenter."""

    name: str
    _runs: regex.Pattern
    _segment: Callable[[str], tuple[str, ...]]
    native_when = staticmethod(default_native)
    safe_cuts = Cut.PUNCTUATION

    def __call__(self, text: str) -> list[str]:
        if text.isascii():
            return default_lowered(text)
        text = unicodedata.normalize("NFC", _patterns()[0].sub("", text))
        tokens: list[str] = []
        start = 0
        for run in self._runs.finditer(text):
            tokens += default_lowered(text[start : run.start()])
            tokens += self._segment(run.group())
            start = run.end()
        tokens += default_lowered(text[start:])
        return tokens


@functools.cache
def segmenting_tokenizer(key: str) -> SegmentingTokenizer:
    """The tokenizer of the language whose segmenter is ``key``; builds the segmenter now, so a
    missing package fails before scoring starts."""
    segmenter = SEGMENTERS[key]
    import regex

    letter = rf"[[\p{{L}}\p{{M}}]&&[{segmenter.script}]]"
    runs = regex.compile(rf"{letter}+(?:{_patterns()[2]}+{letter}+)*", flags=regex.V1)
    return SegmentingTokenizer(f"default+{segmenter.label}", runs, _cached_segmenter(key))
