"""``rouge-plus run -- COMMAND ...``: run a program unchanged, with its ``import rouge_score``
and ``import rouge`` (pltrdy's) served by rouge_plus's drop-ins (see
:mod:`rouge_plus.compat.run`)."""

from __future__ import annotations

import argparse
import shutil

from ..compat.run import run_command
from .common import fail

HELP = "run a command with rouge_score and rouge (pltrdy's) imports served by rouge_plus"
DESCRIPTION = (
    "Run a program unchanged, with its 'import rouge_score' and 'import rouge' (pltrdy's) served "
    "by rouge_plus's drop-ins, in the program and in the worker processes it starts. The exit "
    "status is the command's (127 when it cannot be found)."
)
EXAMPLES = """examples:
  rouge-plus run -- python evaluate_summaries.py --split test
  rouge-plus run -- lm_eval --model hf --tasks cnn_dailymail"""

# The shell's exit status of a command that cannot be found.
_NOT_FOUND = 127


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "command", nargs=argparse.REMAINDER, help="the command and its arguments, after --"
    )


def run(args: argparse.Namespace) -> int:
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        args.parser.error("give a command, e.g. rouge-plus run -- python x.py")
    if shutil.which(command[0]) is None:
        fail(f"no such command (or not executable): {command[0]}")
        return _NOT_FOUND
    return run_command(command)
