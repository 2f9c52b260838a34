"""Evidence that texts are not English: the English stemmer's check, when no ``language`` is
given, that the references are English (``ScoringPlan.check_language``).

It reads the texts' letters and function words only, so that a call which stems English text
does not import the table of languages (``languages.py``, imported here only to name the
language it suggests).
"""

from __future__ import annotations

import collections
import functools
import itertools
import re
from collections.abc import Iterable

# Frequent function words of languages written in Latin letters that are not English words;
# a few of them in a text are strong evidence (hand-picked, no list is copied).
# fmt: off
_FUNCTION_WORDS = {
    "de": "der die und nicht ist das ein eine mit sich auf für dem den von zu im auch wird",
    "es": "el la los las y que del en por para con una es se su al lo como más pero",
    "fr": "le la les et est une des du en que qui dans pour pas sur au avec ce il sont",
    "it": "il la di che e è per una del della con non sono gli le anche nel alla",
    "pt": "o os da do das dos e que em um uma para com não se por mais como foi",
    "nl": "de het een en van is dat niet op te zijn met voor er maar ook bij",
    "tr": "ve bir bu da de için ile olarak çok daha gibi ama olan en ne",
    "sv": "och att det som en på är av för med till den inte har om ett",
    "id": "dan yang di ini itu dengan untuk dari dalam tidak akan pada ke juga",
    "pl": "i w na z się nie że do jest to jak po o od za ale",
}
# fmt: on
_ASCII_WORD = re.compile(r"[A-Za-z]+")
_WORD_CHARACTERS = re.compile(r"[^\W\d_]+")
_NON_ASCII_WORD_CHARACTER = re.compile(r"[^\W\x00-\x7f]")
_SAMPLE_TEXTS = 200
_SAMPLE_CHARACTERS = 1000  # of one text
# Of all texts: hundreds of words, plenty for either kind of evidence (a share of letters, a
# share of function words), and cheap beside scoring a hundred pairs, which a short script does.
_SAMPLE_TOTAL = 5000


@functools.cache
def _foreign_words() -> dict[str, frozenset[str]]:
    from .stopwords import builtin_english_stopwords

    english = builtin_english_stopwords()
    return {code: frozenset(words.split()) - english for code, words in _FUNCTION_WORDS.items()}


def _words(text: str) -> list[str]:
    """The runs of letters (``str.isalpha``: Unicode category L, as Python's Unicode database
    has it) of ``text``, without the regex module (tens of milliseconds to import): runs of
    word characters other than digits and "_", split where one is not a letter ("½")."""
    if text.isascii():
        return _ASCII_WORD.findall(text)
    words = []
    for run in _WORD_CHARACTERS.findall(text):
        if run.isalpha():
            words.append(run)
        else:
            words += ["".join(g) for alpha, g in itertools.groupby(run, str.isalpha) if alpha]
    return words


def _lowered_words(text: str) -> list[str]:
    """:func:`_words` lowercased. A text whose word characters are all ASCII (such as an
    English text with curly quotes) is lowercased first: the same runs, found at once."""
    if text.isascii() or _NON_ASCII_WORD_CHARACTER.search(text) is None:
        return _ASCII_WORD.findall(text.lower())
    return [word.lower() for word in _words(text)]


def _script(letter: str) -> str:
    import unicodedata

    name = unicodedata.name(letter, "")
    return name.split(" ", 1)[0] if name else "UNKNOWN"


# The language most texts of a script are in, to suggest a code.
_SCRIPT_LANGUAGE = {
    "ARABIC": "ar", "BENGALI": "bn", "CJK": "zh", "CYRILLIC": "ru", "DEVANAGARI": "hi",
    "GREEK": "el", "HANGUL": "ko", "HEBREW": "he", "HIRAGANA": "ja", "KATAKANA": "ja",
    "KHMER": "km", "LAO": "lo", "MYANMAR": "my", "TAMIL": "ta", "THAI": "th",
}  # fmt: skip


def non_english_evidence(texts: Iterable[str]) -> str | None:
    """Why the texts are clearly not English, with a suggested ``language``, or ``None``:
    most of their letters are of another script than Latin, or another language's function
    words outnumber English stopwords. Reads at most the first 200 texts, 1,000 characters
    of each and 5,000 in all."""
    sample, read = [], 0
    for text in itertools.islice(texts, _SAMPLE_TEXTS):
        sample.append(text[: min(_SAMPLE_CHARACTERS, _SAMPLE_TOTAL - read)])
        read += len(sample[-1])
        if read >= _SAMPLE_TOTAL:
            break
    words = [word for text in sample for word in _lowered_words(text)]
    letters = "".join(words)
    if not letters:
        return None
    # Letters of another script than Latin are among the non-ASCII ones: unless those are most
    # letters, no script is looked up.
    if (len(letters) - len(letters.encode("ascii", "ignore"))) * 2 > len(letters):
        other = [c for c in letters if not ("a" <= c <= "z" or _script(c) == "LATIN")]
        if len(other) * 2 > len(letters):
            script = collections.Counter(map(_script, other)).most_common(1)[0][0]
            code = _SCRIPT_LANGUAGE.get(script)
            return f"most letters are {script.title()}" + (f"; language={code!r}?" if code else "")
    from .stopwords import builtin_english_stopwords

    frequency = collections.Counter(words)
    english = sum(frequency[word] for word in builtin_english_stopwords() if word in frequency)
    counts = {
        code: sum(frequency[word] for word in function_words if word in frequency)
        for code, function_words in _foreign_words().items()
    }
    code, hits = max(counts.items(), key=lambda item: item[1])
    if hits >= max(3, len(words) // 10) and hits > english:
        from .languages import LANGUAGES

        return f"{LANGUAGES[code].name} function words outnumber English ones; language={code!r}?"
    return None
