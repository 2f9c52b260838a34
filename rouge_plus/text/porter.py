"""Porter's stemmer exactly as NLTK's ``PorterStemmer()`` runs it, without NLTK.

rouge_score stems with ``nltk.stem.porter.PorterStemmer()`` in its default mode,
``NLTK_EXTENSIONS``: Porter (1980), "An algorithm for suffix stripping", with Martin Porter's
later changes and NLTK's own (a pool of irregular forms, ``-ies``/``-ied`` in four-letter words,
``y -> i`` only after a consonant, ``-alli``, ``-fulli``, ``-logi``, and a two-letter ``*o``).
This module restates that code rule for rule (NLTK 3.x, Apache License 2.0), so stems equal
NLTK's on every word, quirks included: the condition words are evaluated on the same strings,
and the step 1b rule table carries NLTK's ``"*d"`` entry, which also matches a word that
literally ends in ``*d``. The tests compare it with NLTK on the bundled WordNet vocabulary, the
bench corpus and generated words of any script.

It is the pure-Python twin of the compiled ``porter_stem`` in ``_stemmers.c`` and the fallback
where that is not built; :mod:`rouge_plus.text.stemming` chooses.
"""

from __future__ import annotations

from collections.abc import Callable

_VOWELS = frozenset("aeiou")

# NLTK's irregular forms: form -> stem, looked up before any rule.
IRREGULAR_FORMS = {
    "sky": "sky",
    "skies": "sky",
    "dying": "die",
    "lying": "lie",
    "tying": "tie",
    "news": "news",
    "innings": "inning",
    "inning": "inning",
    "outings": "outing",
    "outing": "outing",
    "cannings": "canning",
    "canning": "canning",
    "howe": "howe",
    "proceed": "proceed",
    "exceed": "exceed",
    "succeed": "succeed",
}

Condition = Callable[[str], bool] | None


def _consonants(word: str) -> list[bool]:
    """Whether each letter is a consonant: not a vowel, and a ``y`` only at the start or after
    a vowel (NLTK's ``_consonant_flags``, equal to its ``_is_consonant`` at every position)."""
    flags: list[bool] = []
    for i, letter in enumerate(word):
        if letter in _VOWELS:
            flags.append(False)
        elif letter == "y":
            flags.append(True if i == 0 else not flags[i - 1])
        else:
            flags.append(True)
    return flags


def _is_consonant(word: str, i: int) -> bool:
    return _consonants(word[: i + 1])[i]


def _measure(stem: str) -> int:
    """Porter's m: the number of vowel-consonant transitions."""
    flags = _consonants(stem)
    return sum(1 for i in range(1, len(flags)) if flags[i] and not flags[i - 1])


def _positive_measure(stem: str) -> bool:
    return _measure(stem) > 0


def _measure_above_1(stem: str) -> bool:
    return _measure(stem) > 1


def _contains_vowel(stem: str) -> bool:
    return not all(_consonants(stem))


def _ends_double_consonant(word: str) -> bool:
    return len(word) >= 2 and word[-1] == word[-2] and _is_consonant(word, len(word) - 1)


def _ends_cvc(word: str) -> bool:
    """``*o``, with NLTK's extension to two-letter words."""
    if len(word) >= 3:
        flags = _consonants(word)
        if flags[-3] and not flags[-2] and flags[-1] and word[-1] not in "wxy":
            return True
    if len(word) == 2:
        flags = _consonants(word)
        return not flags[0] and flags[1]
    return False


def _apply_rules(word: str, rules: list[tuple[str, str, Condition]]) -> str:
    """NLTK's ``_apply_rule_list``: the first rule whose suffix ends ``word`` decides."""
    for suffix, replacement, condition in rules:
        if suffix == "*d" and _ends_double_consonant(word):
            stem = word[:-2]
            return stem + replacement if condition is None or condition(stem) else word
        if word.endswith(suffix):
            stem = word[: -len(suffix)] if suffix else word
            return stem + replacement if condition is None or condition(stem) else word
    return word


def _step1a(word: str) -> str:
    if word.endswith("ies") and len(word) == 4:
        return word[:-3] + "ie"
    return _apply_rules(word, [("sses", "ss", None), ("ies", "i", None), ("ss", "ss", None),
                               ("s", "", None)])  # fmt: skip


def _step1b(word: str) -> str:
    if word.endswith("ied"):
        return word[:-3] + ("ie" if len(word) == 4 else "i")
    if word.endswith("eed"):
        stem = word[:-3]
        return stem + "ee" if _measure(stem) > 0 else word
    for suffix in ("ed", "ing"):
        if word.endswith(suffix) and _contains_vowel(word[: -len(suffix)]):
            stem = word[: -len(suffix)]
            break
    else:
        return word
    last = stem[-1]
    return _apply_rules(
        stem,
        [
            ("at", "ate", None),
            ("bl", "ble", None),
            ("iz", "ize", None),
            ("*d", last, lambda _: last not in ("l", "s", "z")),
            ("", "e", lambda s: _measure(s) == 1 and _ends_cvc(s)),
        ],
    )


def _step1c(word: str) -> str:
    return _apply_rules(
        word, [("y", "i", lambda stem: len(stem) > 1 and _is_consonant(stem, len(stem) - 1))]
    )


_STEP2_RULES: list[tuple[str, str, Condition]] = [
    (suffix, replacement, _positive_measure)
    for suffix, replacement in (
        ("ational", "ate"), ("tional", "tion"), ("enci", "ence"), ("anci", "ance"),
        ("izer", "ize"), ("bli", "ble"), ("alli", "al"), ("entli", "ent"), ("eli", "e"),
        ("ousli", "ous"), ("ization", "ize"), ("ation", "ate"), ("ator", "ate"),
        ("alism", "al"), ("iveness", "ive"), ("fulness", "ful"), ("ousness", "ous"),
        ("aliti", "al"), ("iviti", "ive"), ("biliti", "ble"), ("fulli", "ful"),
    )
]  # fmt: skip


def _step2(word: str) -> str:
    if word.endswith("alli") and _positive_measure(word[:-4]):
        return _step2(word[:-4] + "al")
    # NLTK's "logi" rule measures the word minus "ogi", not the stem minus "logi".
    logi = ("logi", "log", lambda _: _positive_measure(word[:-3]))
    return _apply_rules(word, [*_STEP2_RULES, logi])


_STEP3_RULES: list[tuple[str, str, Condition]] = [
    (suffix, replacement, _positive_measure)
    for suffix, replacement in (
        ("icate", "ic"), ("ative", ""), ("alize", "al"), ("iciti", "ic"), ("ical", "ic"),
        ("ful", ""), ("ness", ""),
    )
]  # fmt: skip

_STEP4_RULES: list[tuple[str, str, Condition]] = [
    (suffix, "", _measure_above_1)
    for suffix in ("al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent")
]
_STEP4_RULES.append(("ion", "", lambda stem: _measure(stem) > 1 and stem[-1] in ("s", "t")))
_STEP4_RULES += [
    (suffix, "", _measure_above_1) for suffix in ("ou", "ism", "ate", "iti", "ous", "ive", "ize")
]


def _step5a(word: str) -> str:
    if word.endswith("e"):
        stem = word[:-1]
        measure = _measure(stem)
        if measure > 1 or (measure == 1 and not _ends_cvc(stem)):
            return stem
    return word


def _step5b(word: str) -> str:
    return _apply_rules(word, [("ll", "l", lambda _: _measure(word[:-1]) > 1)])


def porter_stem(word: str) -> str:
    """``nltk.stem.porter.PorterStemmer().stem(word)``."""
    stem = word.lower()
    if stem in IRREGULAR_FORMS:
        return IRREGULAR_FORMS[stem]
    if len(word) <= 2:
        return stem
    stem = _step2(_step1c(_step1b(_step1a(stem))))
    stem = _apply_rules(_apply_rules(stem, _STEP3_RULES), _STEP4_RULES)
    return _step5b(_step5a(stem))
