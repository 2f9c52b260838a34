"""Build ``rouge_plus/data/wordnet30_synonyms.json.gz`` from the WordNet 3.0 database files.

Provenance of the shipped file
------------------------------
- Source: Princeton WordNet 3.0, database files ``data.{noun,verb,adj,adv}`` and
  ``{noun,verb,adj,adv}.exc`` as packaged by Debian 12 (bookworm),
  package ``wordnet-base`` version ``1:3.0-37``.
- Built on 2026-11-21 with::

      apt-get update && apt-get install -y wordnet-base
      python scripts/build_wordnet_synonyms.py

- Licence: the WordNet 3.0 licence (permissive, BSD-like), copied next to the data file as
  ``rouge_plus/data/LICENSE.WordNet`` by this script.

What the file holds (JSON, gzip-compressed, format version 1)
-------------------------------------------------------------
- ``lemmas``: per part of speech (``n``, ``v``, ``a`` with satellites, ``r``), the sorted lemmas
  as one newline-separated string ``words`` (lowercased, adjective markers like ``(p)``
  removed) and a parallel list ``synsets`` giving each lemma's synset id, or list of ids when
  it has several; two words are synonyms when they share a synset id. Synset ids are numbered
  0 .. ``synset_count`` - 1 over the data files in the order n, v, a, r. Multi-word lemmas
  (``motor_vehicle``) are left out: a token is one word, so they could never match. (Plain
  strings and lists parse several times faster than a JSON object per lemma.)
- ``exceptions``: WordNet's morphological exception lists (``mice`` -> ``["mouse"]``), per part
  of speech, with base forms that are not single-word lemmas removed (possibly leaving an
  empty list, which still blocks the suffix rules as in WordNet's morphy).
- ``related``: a flat list of global synset id pairs ``[i0, j0, i1, j1, ...]``: noun
  hypernym/hyponym links, verb hypernym/troponym links and adjective similar-to links (the
  relations ROUGE 2.0 adds to plain synonymy), each pair once.

The WordNet directory is found with ``--wordnet-dir``, else through ``dpkg -L wordnet-base``.
"""

from __future__ import annotations

import argparse
import gzip
import json
from pathlib import Path

from wordnet_debian import debian_package_version, find_wordnet_dir, write_license

REPO_ROOT = Path(__file__).resolve().parents[1]
DATA_DIR = REPO_ROOT / "rouge_plus" / "data"
OUTPUT_NAME = "wordnet30_synonyms.json.gz"
FORMAT_NAME = "rouge_plus.wordnet-synonyms"
FORMAT_VERSION = 1

POS_FILES = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}
# Pointer symbols kept for the wider ("+related") relation, per part of speech. Hyponym "~" is
# the inverse of hypernym "@", so storing "@" links undirected covers both directions (for
# verbs "~" is the troponym relation).
RELATED_POINTERS = {"n": {"@"}, "v": {"@"}, "a": {"&"}, "r": set()}


def clean_lemma(raw: str) -> str:
    """Lowercase a lemma and drop an adjective position marker such as ``(p)``."""
    return raw.split("(", 1)[0].lower()


def parse_data_file(path: Path, pos: str) -> list[tuple[int, list[str], list[tuple[int, str]]]]:
    """Return ``(offset, lemmas, related pointers as (offset, pos))`` for each synset."""
    synsets = []
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            if line.startswith("  "):  # licence header
                continue
            fields = line.split(" | ", 1)[0].split()
            offset = int(fields[0])
            word_count = int(fields[3], 16)
            words = fields[4 : 4 + 2 * word_count : 2]
            position = 4 + 2 * word_count
            pointer_count = int(fields[position])
            pointers = []
            for k in range(pointer_count):
                symbol, target, target_pos, _ = fields[position + 1 + 4 * k : position + 5 + 4 * k]
                if symbol in RELATED_POINTERS[pos]:
                    pointers.append((int(target), "a" if target_pos == "s" else target_pos))
            lemmas = []
            for word in words:
                lemma = clean_lemma(word)
                if "_" not in lemma and lemma not in lemmas:
                    lemmas.append(lemma)
            synsets.append((offset, lemmas, pointers))
    return synsets


def parse_exceptions(path: Path, lemmas: set[str]) -> dict[str, list[str]]:
    """Map inflected forms to their single-word base forms found in WordNet.

    An entry whose base forms are all missing stays, with an empty list: an exception entry
    stops the suffix rules (adj.exc maps "owner" to itself, so it must not become "own").
    """
    exceptions = {}
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            inflected, *bases = line.split()
            if "_" not in inflected:
                exceptions[inflected] = [base for base in bases if base in lemmas]
    return exceptions


def build(wordnet_dir: Path) -> dict:
    """Assemble the JSON document described in the module docstring."""
    global_id: dict[tuple[str, int], int] = {}
    pending_links: list[tuple[int, str, int]] = []
    exceptions: dict[str, dict[str, list[str]]] = {}
    lemma_columns: dict[str, dict] = {}
    for pos, file_stem in POS_FILES.items():
        index: dict[str, list[int]] = {}
        for offset, lemmas, pointers in parse_data_file(wordnet_dir / f"data.{file_stem}", pos):
            synset_id = len(global_id)
            global_id[(pos, offset)] = synset_id
            for lemma in lemmas:
                index.setdefault(lemma, []).append(synset_id)
            pending_links.extend((synset_id, target_pos, target) for target, target_pos in pointers)
        words = sorted(index)
        lemma_columns[pos] = {
            "words": "\n".join(words),
            "synsets": [index[w][0] if len(index[w]) == 1 else index[w] for w in words],
        }
        exceptions[pos] = parse_exceptions(wordnet_dir / f"{file_stem}.exc", set(index))
    links = {
        tuple(sorted((source, global_id[(target_pos, target)])))
        for source, target_pos, target in pending_links
    }
    return {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "source": f"Princeton WordNet 3.0 (Debian wordnet-base {debian_package_version()})",
        "synset_count": len(global_id),
        "lemmas": lemma_columns,
        "exceptions": exceptions,
        "related": [synset_id for pair in sorted(links) for synset_id in pair],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--wordnet-dir", type=Path, help="directory holding data.noun etc.")
    parser.add_argument("--output-dir", type=Path, default=DATA_DIR)
    args = parser.parse_args()
    wordnet_dir = args.wordnet_dir or find_wordnet_dir()
    document = build(wordnet_dir)
    args.output_dir.mkdir(parents=True, exist_ok=True)
    output = args.output_dir / OUTPUT_NAME
    payload = json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    # mtime=0 keeps the gzip bytes reproducible from one build to the next.
    with output.open("wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as gz:
        gz.write(payload)
    write_license(args.output_dir)
    link_count = len(document["related"]) // 2
    print(
        f"wrote {output.name}: {document['synset_count']} synsets, {link_count} related links, "
        f"{output.stat().st_size / 1e6:.2f} MB (from {wordnet_dir})"
    )


if __name__ == "__main__":
    main()
