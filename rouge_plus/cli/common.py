"""What the subcommands of ``rouge-plus`` share: the parser class, the scoring flags (derived from
the options' metadata), writing the output atomically, and the reporting of errors.

A subcommand is a module of this package with ``HELP`` (its line in ``rouge-plus --help``),
``DESCRIPTION`` and ``EXAMPLES`` (its ``--help``'s first and last paragraphs),
``add_arguments(parser)`` and ``run(args) -> int`` (the exit status); ``main.SUBCOMMANDS`` lists
them.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import os
import stat
import sys
import tempfile
import warnings
from collections.abc import Callable, Collection, Iterator
from pathlib import Path
from typing import Any

from ..errors import OptionError, OptionFileError, RougePlusError
from ..options import OPTION_GROUPS, Option, ScoreOptions, option_keywords
from ..readers import STDIN

PROG = "rouge-plus"
DEST_PREFIX = "option_"
TEXT_FILES = (
    "Text files hold one text per line, each line ended by a newline (\\n or \\r\\n; no other "
    "character ends a line); inside a line, the two characters \\n mark a sentence break (for "
    "rougeLsum) and \\\\ a backslash. A blank line is an empty text (it scores 0; a warning "
    f"counts them). One input FILE may be {STDIN}, standard input."
)


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        """Usage errors: one line on stderr naming the help to read, exit status 2."""
        self.exit(2, f"{PROG}: error: {message} (see {self.prog} --help)\n")


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Descriptions and examples as written; every flag's help ends with its default."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        shown = "(default" in text or action.default is argparse.SUPPRESS
        if action.option_strings and not shown:
            text += " (default: %(default)s)"
        return text


def _parse_value(text: str) -> object:
    """A flag value of an option that takes several types: JSON if it parses, else the text."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


# The flag's value converter for the options' simple API types; other types are read as JSON.
_CONVERTERS: dict[Any, Callable[[str], object]] = {int | None: int, float | None: float}


def flag_of(name: str, option: Option) -> str:
    """The command-line flag of option ``name`` (``use_stemmer`` → ``--use-stemmer``)."""
    return option.flag or "--" + name.replace("_", "-")


def _flag_keywords(option: Option) -> dict[str, Any]:
    """argparse keywords of an option's flag, from its metadata."""
    described = {"help": f"{option.help} (default: {option.default})", "default": None}
    if option.choices:
        return {**described, "choices": option.choices}
    if option.api_type == bool | None:
        return {**described, "action": argparse.BooleanOptionalAction}
    if option.api_type == list[str] | None:
        return {**described, "nargs": "+", "metavar": option.metavar}
    if option.api_type == str | None:
        return {**described, "metavar": option.metavar}
    converter = _CONVERTERS.get(option.api_type, _parse_value)
    return {**described, "type": converter, "metavar": option.metavar}


def add_option_flags(
    parser: argparse.ArgumentParser, title: str, groups: Collection[str] = OPTION_GROUPS
) -> None:
    """A flag for every option of ``groups`` that the command line takes as a flag."""
    section = parser.add_argument_group(title)
    for name, option in option_keywords().items():
        if option.flag is not None and option.group in groups:
            flag, keywords = flag_of(name, option), _flag_keywords(option)
            section.add_argument(flag, dest=DEST_PREFIX + name, **keywords)


def given_options(args: argparse.Namespace) -> dict[str, object]:
    """The option flags given on the command line, as ``ScoreOptions`` keywords."""
    return {
        key.removeprefix(DEST_PREFIX): value
        for key, value in vars(args).items()
        if key.startswith(DEST_PREFIX) and value is not None
    }


def score_options(args: argparse.Namespace, parser: argparse.ArgumentParser) -> ScoreOptions:
    """The options the flags give; a bad one is a usage error, before any file is read."""
    try:
        return ScoreOptions.from_kwargs(**given_options(args))
    except RougePlusError as error:
        parser.error(str(error))
        raise  # parser.error exits


def write_replacing(path: Path, text: str) -> None:
    """Write ``text`` to a temporary file beside ``path``, then rename it to ``path``: an
    interrupted or failed run leaves the previous file as it was, and no partial file.

    The new file keeps the mode of the one it replaces (a new one gets the usual mode). What is
    not a regular file (``/dev/null``, a pipe) is written to as it is, never replaced.
    """
    if path.exists() and not path.is_file():
        with path.open("w", encoding="utf-8") as handle:
            handle.write(text)
        return
    target = path.resolve()
    if not target.parent.is_dir():
        if target.parent.exists():
            raise OptionError(f"{path.parent}: not a directory")
        raise OptionFileError(f"{path.parent}: no such directory")
    if target.exists() and not _writable(target):
        mode = f"{target.stat().st_mode & 0o777:o}"
        raise OptionError(f"{path}: read-only (mode {mode}), left as it is")
    descriptor, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
    try:
        with open(descriptor, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.chmod(temporary, _mode_for(target))
        os.replace(temporary, target)
    except BaseException:
        os.unlink(temporary)
        raise


def _writable(target: Path) -> bool:
    """Whether ``target`` may be written, as shell redirection would: its owner's write bit
    counts even for a user (root) whom the permissions do not stop."""
    return os.access(target, os.W_OK) and bool(target.stat().st_mode & stat.S_IWUSR)


def _mode_for(target: Path) -> int:
    """The permission bits of ``target``, or what a new file gets under the umask."""
    try:
        return target.stat().st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def run_and_write(produce: Callable[[], str], output: Path | None) -> int:
    """Run a command's work (``produce`` returns its text) and write the text to ``output`` or
    stdout; the exit status: 0 done, 1 a problem with what was given (one line on stderr),
    130 interrupted."""
    try:
        text = produce()
        if output is None:
            sys.stdout.write(text)
        else:
            write_replacing(output, text)
    except RougePlusError as error:
        return fail(str(error))
    except OSError as error:
        return fail(f"{error.filename}: {error.strerror}" if error.filename else str(error))
    except KeyboardInterrupt:
        return 130
    return 0


@contextlib.contextmanager
def warnings_to_stderr() -> Iterator[None]:
    """The warnings raised inside, one line each on stderr (a repeated one once) at the end."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    for message in dict.fromkeys(str(warning.message) for warning in caught):
        print(f"{PROG}: warning: {message}", file=sys.stderr)


def check_one_stdin(parser: argparse.ArgumentParser, files: Collection[object]) -> None:
    """Standard input can be read once: a usage error when several input files are ``-``."""
    if sum(str(name) == STDIN for name in files) > 1:
        parser.error(f"only one input file can be {STDIN} (standard input)")


def fail(message: str) -> int:
    """Report ``message`` as the command's error on stderr; the exit status 1."""
    print(f"{PROG}: error: {message}", file=sys.stderr)
    return 1


def quiet_core_logger() -> None:
    """The core logs what it also warns about; the command line shows the warnings only."""
    core = logging.getLogger("rouge_plus")
    if not any(isinstance(handler, logging.NullHandler) for handler in core.handlers):
        core.addHandler(logging.NullHandler())
