"""``rouge-plus run -- COMMAND ...``: run a program unchanged, with its ``import rouge_score``
and ``import rouge`` (pltrdy's) served by rouge_plus's drop-ins (see
:mod:`rouge_plus.compat.run`)."""

from __future__ import annotations

import argparse

from ..compat.run import run_command

HELP = "run a command with rouge_score and rouge (pltrdy's) imports served by rouge_plus"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "command", nargs=argparse.REMAINDER, help="the command and its arguments, after --"
    )


def run(args: argparse.Namespace) -> int:
    return run_command(args.command)
