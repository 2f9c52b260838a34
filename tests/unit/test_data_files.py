"""A missing, damaged or outdated bundled data file is an error that says how to fix it."""

from __future__ import annotations

import gzip

import pytest

from rouge_plus import data as data_files
from rouge_plus.rouge2 import pos, synonyms

RESOURCES = [
    (pos._bundled_tagger, pos.TAGGER_DATA_FILE, pos.TaggerDataError, "build_pos_tagger.py"),
    (
        synonyms._bundled_wordnet,
        synonyms.WORDNET_DATA_FILE,
        synonyms.SynonymDataError,
        "build_wordnet_synonyms.py",
    ),
]


@pytest.mark.parametrize(("loader", "filename", "error", "script"), RESOURCES)
@pytest.mark.parametrize(
    ("payload", "message"),
    [
        (None, "missing"),
        (b"not gzip", "unreadable"),
        (gzip.compress(b'{"format": "something else", "version": 99}'), "unknown format"),
        (gzip.compress(b"[1, 2]"), "unknown format"),
    ],
)
def test_broken_bundled_file(
    monkeypatch, tmp_path, loader, filename, error, script, payload, message
):
    (tmp_path / "data").mkdir()
    if payload is not None:
        (tmp_path / "data" / filename).write_bytes(payload)
    monkeypatch.setattr(data_files, "DATA_DIR", str(tmp_path / "data"))
    loader.cache_clear()
    try:
        with pytest.raises(error, match=message) as raised:
            loader()
        assert script in str(raised.value) and "reinstall rouge_plus" in str(raised.value)
    finally:
        loader.cache_clear()
