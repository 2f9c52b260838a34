"""The ``rouge-plus`` command line (also ``python -m rouge_plus``): one subcommand per module.

Examples::

    rouge-plus --demo                      # rouge-plus score --demo
    rouge-plus score --jsonl data.jsonl --format json
    rouge-plus compare --baseline base.txt --systems new.txt --references refs.txt

Each subcommand is a module of this package named in :data:`SUBCOMMANDS`, with ``HELP`` (its
line in ``rouge-plus --help``), ``DESCRIPTION`` and ``EXAMPLES`` (its ``--help``),
``add_arguments(parser)`` and ``run(args) -> int``; what they
share is in :mod:`.common`. Flags given without a subcommand go to ``score``, the first one.
"""

from __future__ import annotations

import argparse
import difflib
import importlib
import sys
import textwrap
from collections.abc import Sequence

from .._version import __version__
from .common import PROG, HelpFormatter, Parser

SUBCOMMANDS = ("score", "compare", "correlate", "power", "run", "doctor")

# What the top-level parser answers itself; any other first argument goes to "score".
_TOP_LEVEL = ("-h", "--help", "--version")


def build_parser() -> argparse.ArgumentParser:
    """The parser of ``rouge-plus`` with a subparser per subcommand."""
    parser = Parser(
        prog=PROG,
        description="Score generated texts against references with the ROUGE family. Without "
        f"a subcommand, the flags go to {SUBCOMMANDS[0]!r}: {PROG} --demo is {PROG} "
        f"{SUBCOMMANDS[0]} --demo.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(title="subcommands", metavar="COMMAND", required=True)
    for name in SUBCOMMANDS:
        module = importlib.import_module(f".{name}", __package__)
        subparser = commands.add_parser(
            name,
            help=module.HELP,
            prog=f"{PROG} {name}",
            description="\n\n".join(
                textwrap.fill(paragraph, 88) for paragraph in module.DESCRIPTION.split("\n\n")
            ),
            epilog=module.EXAMPLES,
            formatter_class=HelpFormatter,
        )
        module.add_arguments(subparser)
        subparser.set_defaults(run=module.run, parser=subparser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 1 bad input, 2 bad usage)."""
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser()
    if argv and not argv[0].startswith("-") and argv[0] not in SUBCOMMANDS:
        parser.error(_unknown_subcommand(argv[0]))
    if not argv or (argv[0] not in SUBCOMMANDS and argv[0] not in _TOP_LEVEL):
        argv = [SUBCOMMANDS[0], *argv]
    args, unknown = parser.parse_known_args(argv)
    if unknown:  # said by the subcommand, whose help lists its flags
        args.parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    return args.run(args)


def _unknown_subcommand(name: str) -> str:
    """The usage error of a first argument that is neither a flag nor a subcommand (``score``
    takes no positional argument), with the nearest subcommand when one is close."""
    close = difflib.get_close_matches(name, SUBCOMMANDS, n=1)
    hint = f"did you mean {close[0]!r}?" if close else f"subcommands: {', '.join(SUBCOMMANDS)}"
    return f"unknown subcommand {name!r}; {hint}"


if __name__ == "__main__":
    sys.exit(main())
