"""Tokenizers chosen by name (like sacrebleu's ``tokenize=``), and adapters for user tokenizers.

A tokenizer is a callable ``str -> list[str]`` with a ``name`` attribute; the name goes into the
reproducibility signature. Built-in tokenizers (see ``available_tokenizers()``):

``"rouge_score"``
    Bit for bit the rule of Google's rouge_score (and of ROUGE-1.5.5): lowercase the text with
    ``str.lower``, then every run of characters outside ``[a-z0-9]`` is a separator. Non-ASCII
    letters vanish ("café" -> ``caf``, Chinese -> no tokens), except the two characters whose
    lowercase is ASCII: "İ" lowercases to "i" + a combining dot (so it yields "i" and then a
    split) and the Kelvin sign "K" lowercases to "k".
``"default"``
    Unicode-aware. On ASCII text it gives exactly the tokens of ``"rouge_score"``. Otherwise the
    text is NFC-normalized (so composed and decomposed "café" agree), the invisible joiners
    U+00AD, U+200C, U+200D and U+2060 are deleted, and a token is a run of letters, combining
    marks and decimal digits of any script: "tiếng Việt" -> ``tiếng việt``, and Devanagari vowel
    signs and viramas or Arabic harakat stay inside their word. Letters of scripts written
    without spaces (Han, Hiragana, Katakana, Thai, Lao, Khmer, Myanmar) are one token each,
    together with the combining marks that follow them; Hangul keeps its space-separated words.
    As in rouge_score, apostrophes, hyphens, underscores and other punctuation are separators
    ("state-of-the-art" -> 4 tokens, "CAT's" -> ``cat s``, "3.14" -> ``3 14``).
    Tokens are lowercased with ``str.lower``, not ``str.casefold``: casefolding would also
    rewrite spellings ("ß" -> "ss", "ς" -> "σ"), which a lowercase comparison does not need, and
    ``str.lower`` is what rouge_score applies to ASCII.
``"rouge155"``
    The ROUGE-1.5.5 Perl script's rule: the same runs of ASCII letters and digits, but only ASCII
    letters are lowercased (Perl's ``lc`` on bytes), so "İ" and the Kelvin sign are separators.
    The default tokenizer of ``profile="rouge155"``.
``"whitespace"``
    ``text.split()`` with each token lowercased; punctuation stays part of the token
    ("mat." and "mat" differ).
``"char"``
    Every non-whitespace character (code point, after NFC) is a token, lowercased; for languages
    without word segmentation. Combining marks that have no precomposed form become tokens of
    their own; ``"default"`` keeps them with their base letter.

With ``lowercase=False`` each built-in keeps the case of the text (for part-of-speech tagging);
for every text, ``[t.lower() for t in cased(text)] == lowered(text)``. For this law to hold,
non-ASCII tokens are lowercased one by one (which also makes Greek final sigma depend only on
the token), and the cased ``"rouge_score"`` variant reads "İ" as "I" followed by a separator
and the Kelvin sign as "K".
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable, Hashable, Sequence

from ..errors import OptionError, OptionTypeError
from ..kernels.spec import ASCII_WORD
from .sentences import Cut

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NamedTuple

    import regex  # imported on first use: it costs tens of milliseconds

    from .protocols import Tokenizer
else:
    from .._records import NamedTuple


_ASCII_LOWER_RUN = re.compile(r"[a-z0-9]+")
_ASCII_MIXED_RUN = ASCII_WORD

# The only non-ASCII characters whose str.lower() contains [a-z0-9]; see the module docstring.
_LEGACY_CASED_TRANSLATION = str.maketrans({"\u0130": "I\u0307", "\u212a": "K"})

_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")

# Letters of scripts written without spaces between words; Script_Extensions also brings in
# marks shared by those scripts such as the prolonged sound mark "ー" and the iteration mark "々".
_UNSPACED_LETTER = (
    r"[\p{L}&&[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}"
    r"\p{scx=Thai}\p{scx=Lao}\p{scx=Khmer}\p{scx=Myanmar}]]"
)


@functools.cache
def _unicode_patterns() -> tuple[regex.Pattern, regex.Pattern, regex.Pattern]:
    """The Unicode patterns of the default tokenizer: the invisible joiners, a token, and a
    non-ASCII word character (a letter, mark or decimal digit, or an invisible joiner, which
    is deleted inside words). The last is asked of the same Unicode database as the tokenizer
    itself (the regex module's), so the two never disagree on a character."""
    import regex

    joiners = regex.compile(r"[\u00ad\u200c\u200d\u2060]+")
    token = regex.compile(
        rf"{_UNSPACED_LETTER}\p{{M}}*|[[\p{{L}}\p{{M}}\p{{Nd}}]--{_UNSPACED_LETTER}]+",
        flags=regex.V1,
    )
    word_character = regex.compile(
        r"[[\p{L}\p{M}\p{Nd}\u00ad\u200c\u200d\u2060]--[\x00-\x7f]]", flags=regex.V1
    )
    return joiners, token, word_character


# Non-ASCII characters common in English text that are separators in every Unicode version
# (spaces, dashes, quotes, currency signs); a text whose other characters are ASCII needs no
# Unicode look-up, and no import of the regex module.
_NON_ASCII_RUNS = re.compile(r"[^\x00-\x7f]+")
_COMMON_SEPARATORS = frozenset(
    "\u00a0\u00a3\u00b0\u2013\u2014\u2018\u2019\u201c\u201d\u2022\u2026\u20ac"
)


def _default_native(text: str) -> bool:
    """Whether the compiled ASCII rule gives the default tokenizer's tokens: the text has no
    non-ASCII word character and NFC leaves it as it is (its other characters are then
    separators either way). NFC can make a word character out of a separator: U+2ADC, a math
    symbol, becomes U+2ADD and the combining mark U+0338, which joins the next word."""
    if text.isascii():
        return True
    if not unicodedata.is_normalized("NFC", text):
        return False
    if _COMMON_SEPARATORS.issuperset("".join(_NON_ASCII_RUNS.findall(text))):
        return True
    return _unicode_patterns()[2].search(text) is None


def _rouge_score_native(text: str) -> bool:
    """rouge_score's rule is the compiled one except on "İ" and the Kelvin sign."""
    return text.isascii() or ("\u0130" not in text and "\u212a" not in text)


def _always(text: str) -> bool:
    return True


def _lower_each(tokens: list[str]) -> list[str]:
    return [token.lower() for token in tokens]


def _rouge_score_lowered(text: str) -> list[str]:
    return _ASCII_LOWER_RUN.findall(text.lower())


def _rouge_score_cased(text: str) -> list[str]:
    if not text.isascii():
        text = text.translate(_LEGACY_CASED_TRANSLATION)
    return _ASCII_MIXED_RUN.findall(text)


def _default_cased(text: str) -> list[str]:
    if text.isascii():
        return _ASCII_MIXED_RUN.findall(text)
    joiners, token, _ = _unicode_patterns()
    return token.findall(unicodedata.normalize("NFC", joiners.sub("", text)))


def _default_lowered(text: str) -> list[str]:
    if text.isascii():
        return _ASCII_LOWER_RUN.findall(text.lower())
    return _lower_each(_default_cased(text))


def _rouge155_lowered(text: str) -> list[str]:
    lowered = text.lower() if text.isascii() else text.translate(_ASCII_LOWER)
    return _ASCII_MIXED_RUN.findall(lowered)


def _rouge155_cased(text: str) -> list[str]:
    return _ASCII_MIXED_RUN.findall(text)


def _whitespace_cased(text: str) -> list[str]:
    return text.split()


def _whitespace_lowered(text: str) -> list[str]:
    if text.isascii():
        return text.lower().split()
    return _lower_each(text.split())


def _char_cased(text: str) -> list[str]:
    return list("".join(unicodedata.normalize("NFC", text).split()))


def _char_lowered(text: str) -> list[str]:
    if text.isascii():
        return list("".join(text.lower().split()))
    return _lower_each(_char_cased(text))


# The default rule, for the language tokenizers that segment some scripts (text/segmenters.py).
default_lowered = _default_lowered
default_native = _default_native


class _Rule(NamedTuple):
    """A built-in tokenizer: its two variants, the texts the compiled ASCII tokenizer reads
    for it (lowercased variant only), and the sentence cuts that never fall inside a token."""

    lowered: Callable[[str], list[str]]
    cased: Callable[[str], list[str]]
    native_when: Callable[[str], bool] | None
    safe_cuts: Cut


_BUILTINS: dict[str, _Rule] = {
    "default": _Rule(_default_lowered, _default_cased, _default_native, Cut.PUNCTUATION),
    "rouge_score": _Rule(
        _rouge_score_lowered, _rouge_score_cased, _rouge_score_native, Cut.PUNCTUATION
    ),
    "rouge155": _Rule(_rouge155_lowered, _rouge155_cased, _always, Cut.PUNCTUATION),
    "whitespace": _Rule(_whitespace_lowered, _whitespace_cased, None, Cut.LINES),
    "char": _Rule(_char_lowered, _char_cased, None, Cut.PUNCTUATION),
}

_CASED_SUFFIX = "-cased"


class BuiltinTokenizer(NamedTuple):
    """One of the registry's tokenizers; ``name`` ends in ``-cased`` when it keeps case.

    ``native_when(text)`` says whether the compiled tokenizer may read ``text`` in its place;
    ``safe_cuts`` names the sentence cuts that never fall inside one of its tokens. (Immutable
    records are NamedTuples here: a dataclass costs a millisecond to create at import.)
    """

    name: str
    lowercase: bool
    function: Callable[[str], list[str]]
    native_when: Callable[[str], bool] | None
    safe_cuts: Cut

    def __call__(self, text: str) -> list[str]:
        return self.function(text)


class CheckedTokenizer(NamedTuple):
    """A user's tokenizer, with its output checked on every call.

    ``lowercase`` does not apply: the user's tokens are used as returned, as rouge_score does
    with a custom tokenizer. Tokens may be any hashable values (str, int, tuple, ...), as in
    rouge_score; equal tokens match. Nothing is known of where its tokens end, so no sentence
    cut is safe and the compiled tokenizer never stands in for it.
    """

    name: str
    function: Callable[[str], object]
    native_when = None
    safe_cuts = None

    def __call__(self, text: str) -> list[Hashable]:
        tokens = self.function(text)
        if isinstance(tokens, (list, tuple)):
            if all(type(t) is str for t in tokens):  # the common case
                return list(tokens)
            wrong = _first_unhashable(tokens)
            if wrong is None:
                return list(tokens)
            described = f"a {type(tokens).__name__} containing {type(wrong).__name__} {wrong!r:.60}"
        else:
            described = f"{type(tokens).__name__} {tokens!r:.60}"
        raise OptionTypeError(
            f"tokenizer {self.name!r} must return a list of hashable tokens (str, int, tuple, "
            f"...), got {described} for input {text[:40]!r}"
        )


def _first_unhashable(tokens: Sequence[object]) -> object | None:
    for token in tokens:
        try:
            hash(token)
        except TypeError:
            return token
    return None


def available_tokenizers() -> list[str]:
    """Names accepted by ``get_tokenizer``."""
    return sorted(_BUILTINS)


def get_tokenizer(
    spec: str | Callable[[str], Sequence[str]] | object, *, lowercase: bool = True
) -> Tokenizer:
    """Return the tokenizer ``spec`` names or wraps.

    ``spec`` is a registry name, a callable ``str -> list[str]`` (named by its ``name``
    attribute if it has one, else ``custom:<qualified name>``), or an object with a
    ``tokenize(text)`` method such as a rouge_score tokenizer (named ``custom:<class name>``).
    ``lowercase=False`` selects the case-keeping variant of a built-in tokenizer.
    """
    if isinstance(spec, str):
        return _builtin(spec, lowercase)
    if isinstance(spec, BuiltinTokenizer):
        base = spec.name.removesuffix(_CASED_SUFFIX)
        return spec if spec.lowercase == lowercase else _builtin(base, lowercase)
    if callable(spec):
        name = getattr(spec, "name", None)
        if not isinstance(name, str):
            name = f"custom:{getattr(spec, '__qualname__', type(spec).__qualname__)}"
        return CheckedTokenizer(name, spec)
    tokenize = getattr(spec, "tokenize", None)
    if callable(tokenize):
        return CheckedTokenizer(f"custom:{type(spec).__qualname__}", tokenize)
    raise OptionTypeError(
        "tokenizer must be a name, a callable str -> list[str], or an object with a "
        f"tokenize(text) method; got {type(spec).__name__}"
    )


def _builtin(name: str, lowercase: bool) -> BuiltinTokenizer:
    if name not in _BUILTINS:
        raise OptionError(
            f"unknown tokenizer {name!r}; valid names are: {', '.join(available_tokenizers())}"
        )
    rule = _BUILTINS[name]
    if lowercase:
        return BuiltinTokenizer(name, True, rule.lowered, rule.native_when, rule.safe_cuts)
    return BuiltinTokenizer(name + _CASED_SUFFIX, False, rule.cased, None, rule.safe_cuts)
