"""The compiled part-of-speech tagger and its topic filter (``_tagger.c``, see rouge2/pos.py)."""

from typing import Literal, overload

class Model:
    """The tagger's weights: the features and weights as the model file's text lines."""

    def __init__(
        self, features: str, weights: str, classes: list[str], tagdict: dict[str, str]
    ) -> None: ...
    def tag(self, tokens: list[str], /) -> list[str]: ...
    def tag_many(self, sentences: list[list[str]], /) -> list[list[str]]: ...
    def topic_words(
        self, sentences: list[list[str]], prefixes: tuple[str, ...], lowercase: bool, /
    ) -> list[list[str]]: ...
    @overload
    def ascii_topic_words(
        self,
        texts: list[str],
        prefixes: tuple[str, ...],
        lowercase: bool,
        joined: Literal[False] = False,
        /,
    ) -> list[list[str]]: ...
    @overload
    def ascii_topic_words(
        self, texts: list[str], prefixes: tuple[str, ...], lowercase: bool, joined: Literal[True], /
    ) -> list[str]: ...
    @overload
    def ascii_topic_words(
        self, texts: list[str], prefixes: tuple[str, ...], lowercase: bool, joined: bool, /
    ) -> list[list[str]] | list[str]: ...

def _set_word_cache_limit(entries: int, /) -> int: ...
