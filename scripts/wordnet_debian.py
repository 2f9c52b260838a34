"""WordNet 3.0 as Debian's ``wordnet-base`` package installs it, for the build scripts.

``apt-get update && apt-get install -y wordnet-base`` provides the database files; the scripts
that turn them into rouge_plus data files find them here and ship WordNet's licence beside them.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

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
    """Locate the directory holding ``data.noun`` from the Debian package's file list."""
    try:
        listing = subprocess.run(
            ["dpkg", "-L", "wordnet-base"], capture_output=True, text=True, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        listing = ""
    for line in listing.splitlines():
        if line.endswith("/data.noun"):
            return Path(line).parent
    sys.exit(
        "WordNet 3.0 database not found. Install it with "
        "'apt-get update && apt-get install -y wordnet-base' or pass --wordnet-dir."
    )


def debian_package_version() -> str:
    """The installed ``wordnet-base`` version, or ``"unknown"`` when dpkg cannot tell."""
    try:
        return subprocess.run(
            ["dpkg-query", "-W", "-f=${Version}", "wordnet-base"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def write_license(data_dir: Path) -> None:
    """Ship WordNet's licence next to the data built from it (kept when already there)."""
    path = data_dir / LICENSE_NAME
    if not path.exists():
        path.write_text(WORDNET_LICENSE, encoding="utf-8")
