"""Build ``rouge_plus/data/english_stopwords.txt``, the built-in English stopword list.

Provenance of the shipped file
------------------------------
- Source: scikit-learn's ``sklearn.feature_extraction.text.ENGLISH_STOP_WORDS`` (318 words),
  which scikit-learn took from the Glasgow Information Retrieval Group's stop word list.
  Built from scikit-learn 1.9.1 (PyPI) on 2026-11-21 with::

      pip install scikit-learn
      python scripts/build_english_stopwords.py

- Licence: BSD-3-Clause (scikit-learn); its licence text is copied next to the list as
  ``rouge_plus/data/LICENSE.english_stopwords`` by this script. scikit-learn is needed only to
  run this script, never by rouge_plus.

Format: UTF-8, ``#`` comment lines, then one lowercase word a line, sorted.
"""

from __future__ import annotations

from pathlib import Path

DATA_DIR = Path(__file__).resolve().parents[1] / "rouge_plus" / "data"
OUTPUT_NAME = "english_stopwords.txt"
LICENSE_NAME = "LICENSE.english_stopwords"


def scikit_learn_license() -> str:
    """The BSD-3-Clause text of the installed scikit-learn (its own part only)."""
    from importlib.metadata import distribution

    dist = distribution("scikit-learn")
    license_file = next(f for f in dist.files if f.name == "COPYING")
    text = Path(dist.locate_file(license_file)).read_text(encoding="utf-8")
    return text.split("\n----\n")[0].rstrip() + "\n"


def main() -> None:
    import sklearn
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    header = [
        f"# English stopwords: scikit-learn {sklearn.__version__} ENGLISH_STOP_WORDS"
        " (Glasgow IR Group list).",
        "# Licence: BSD-3-Clause, see LICENSE.english_stopwords."
        " Built by scripts/build_english_stopwords.py.",
    ]
    words = sorted(ENGLISH_STOP_WORDS)
    (DATA_DIR / OUTPUT_NAME).write_text("\n".join(header + words) + "\n", encoding="utf-8")
    (DATA_DIR / LICENSE_NAME).write_text(scikit_learn_license(), encoding="utf-8")
    print(f"wrote {len(words)} words to {OUTPUT_NAME}")


if __name__ == "__main__":
    main()
