"""A hypothesis test that fails on purpose after many texts without tokens; run explicitly by
test_errors_and_warnings.py to check what its failure report looks like (the name keeps it out
of ordinary collection)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rouge_plus import score

pytestmark = pytest.mark.filterwarnings("ignore:.*produced no tokens:UserWarning")


@settings(max_examples=300, database=None, deadline=None)
@given(st.text(alphabet="!?.", min_size=1, max_size=5), st.integers(0, 10_000))
def test_fails_after_many_texts_without_tokens(text, number):
    score([text], [text], rouge_types=["rouge1"])
    assert number < 9_000
