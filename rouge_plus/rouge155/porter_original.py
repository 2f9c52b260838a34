"""Porter's original suffix-stripping algorithm as ROUGE-1.5.5's ``-m`` runs it.

Porter (1980), "An algorithm for suffix stripping", in the form of Martin Porter's "Release 1"
Perl implementation that ROUGE-1.5.5 embeds. That release expresses the measure ``m`` and the
``*o`` condition as regular expressions, and this module evaluates the same expressions, so the
corner cases (``y``, words without a leading consonant) come out as in the Perl. It is not NLTK's
Porter stemmer (whose default mode adds later extensions).

ROUGE-1.5.5 changed step 4 (its author's note is dated 02/14/2004): instead of one longest-suffix
rule, the suffix list without ``-ment``/``-ent``/``-ion`` is tried first, then ``-ment``, then
``-ent`` or else ``-(s|t)ion``, each on the result of the previous one, so a word can lose up to
three suffixes in step 4 (``agreement`` → ``agreem``).
"""

from __future__ import annotations

import re

_CONSONANT = "[^aeiou]"
_VOWEL = "[aeiouy]"
_CONSONANTS = f"{_CONSONANT}[^aeiouy]*"
_VOWELS = f"{_VOWEL}[aeiou]*"

_M_ABOVE_0 = re.compile(f"^({_CONSONANTS})?{_VOWELS}{_CONSONANTS}")
_M_EQUALS_1 = re.compile(f"^({_CONSONANTS})?{_VOWELS}{_CONSONANTS}({_VOWELS})?$")
_M_ABOVE_1 = re.compile(f"^({_CONSONANTS})?{_VOWELS}{_CONSONANTS}{_VOWELS}{_CONSONANTS}")
_HAS_VOWEL = re.compile(f"^({_CONSONANTS})?{_VOWEL}")
_SHORT_CVC = re.compile(f"^{_CONSONANTS}{_VOWEL}[^aeiouwxy]$")

_STEP2 = {
    "ational": "ate", "tional": "tion", "enci": "ence", "anci": "ance", "izer": "ize",
    "bli": "ble", "alli": "al", "entli": "ent", "eli": "e", "ousli": "ous", "ization": "ize",
    "ation": "ate", "ator": "ate", "alism": "al", "iveness": "ive", "fulness": "ful",
    "ousness": "ous", "aliti": "al", "iviti": "ive", "biliti": "ble", "logi": "log",
}  # fmt: skip
_STEP3 = {
    "icate": "ic", "ative": "", "alize": "al", "iciti": "ic", "ical": "ic", "ful": "", "ness": "",
}  # fmt: skip
_STEP4_FIRST = (
    "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ou", "ism", "ate", "iti",
    "ous", "ive", "ize",
)  # fmt: skip


def _suffix_pattern(suffixes) -> re.Pattern[str]:
    return re.compile("(" + "|".join(suffixes) + ")$")


_STEP2_SUFFIX = _suffix_pattern(_STEP2)
_STEP3_SUFFIX = _suffix_pattern(_STEP3)
_STEP4_FIRST_SUFFIX = _suffix_pattern(_STEP4_FIRST)


def _split(word: str, pattern: re.Pattern[str]) -> tuple[str, str] | None:
    """``(stem, suffix)`` at the leftmost match of a ``...$`` pattern, as Perl's ``$``` sees it."""
    match = pattern.search(word)
    return None if match is None else (word[: match.start()], match.group(0))


def _step1(word: str) -> str:
    if (match := re.search("(ss|i)es$", word)) or (match := re.search("([^s])s$", word)):
        word = word[: match.start()] + match.group(1)

    if word.endswith("eed"):
        if _M_ABOVE_0.search(word[:-3]):
            word = word[:-1]
    elif match := re.search("(ed|ing)$", word):
        stem = word[: match.start()]
        if _HAS_VOWEL.search(stem):
            word = stem
            if re.search("(at|bl|iz)$", word):
                word += "e"
            elif re.search(r"([^aeiouylsz])\1$", word):
                word = word[:-1]
            elif _SHORT_CVC.search(word):
                word += "e"

    if word.endswith("y") and _HAS_VOWEL.search(word[:-1]):
        word = word[:-1] + "i"
    return word


def _replace_suffix(word: str, pattern: re.Pattern[str], table: dict[str, str]) -> str:
    if (parts := _split(word, pattern)) and _M_ABOVE_0.search(parts[0]):
        return parts[0] + table[parts[1]]
    return word


def _drop_if_m_above_1(word: str, pattern: re.Pattern[str] | str) -> tuple[str, bool]:
    """Remove the suffix matched by ``pattern`` when m(stem) > 1; also say whether it matched."""
    match = re.search(pattern, word)
    if match is None:
        return word, False
    stem = word[: match.start()]
    return (stem if _M_ABOVE_1.search(stem) else word), True


def _step4(word: str) -> str:
    word, _ = _drop_if_m_above_1(word, _STEP4_FIRST_SUFFIX)
    word, _ = _drop_if_m_above_1(word, "ment$")
    word, matched_ent = _drop_if_m_above_1(word, "ent$")
    if not matched_ent and (match := re.search("(s|t)(ion)$", word)):
        stem = word[: match.start()] + match.group(1)
        if _M_ABOVE_1.search(stem):
            word = stem
    return word


def _step5(word: str) -> str:
    if word.endswith("e"):
        stem = word[:-1]
        if _M_ABOVE_1.search(stem) or (_M_EQUALS_1.search(stem) and not _SHORT_CVC.search(stem)):
            word = stem
    if word.endswith("ll") and _M_ABOVE_1.search(word):
        word = word[:-1]
    return word


def stem(word: str) -> str:
    """Stem one lowercase word; words shorter than 3 characters come back unchanged."""
    if len(word) < 3:
        return word
    # An initial y is a consonant: upper-case it so that no pattern takes it for a vowel.
    initial_y = word[0] == "y"
    if initial_y:
        word = "Y" + word[1:]
    word = _step1(word)
    word = _replace_suffix(word, _STEP2_SUFFIX, _STEP2)
    word = _replace_suffix(word, _STEP3_SUFFIX, _STEP3)
    word = _step5(_step4(word))
    return "y" + word[1:] if initial_y else word
