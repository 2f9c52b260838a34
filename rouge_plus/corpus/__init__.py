"""Corpus-level statistics: aggregation over examples, intervals and significance tests."""
