"""``rouge_plus.compat.rouge`` against pltrdy's ``rouge`` 1.0.1 itself: every value equal, on
generated texts and on the 3,500 bench pairs; where rouge fails (an empty hypothesis or
reference, a sentence too long for its recursion), the defined results its docstring states."""

from __future__ import annotations

import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.material import BENCH, read_jsonl

from rouge_plus.compat import rouge as compat_rouge

real_rouge = pytest.importorskip("rouge")

ALL_METRICS = [f"rouge-{n}" for n in range(1, 6)] + ["rouge-l"]
word = st.sampled_from(["the", "The", "cat", "cat,", "sat", "on", "mat", "a", "dog", "", "x"])
separator = st.sampled_from([" ", " ", " ", "  ", ". ", ".", "\n", "\t", " . ", "..", "\xa0"])
texts = st.lists(st.tuples(word, separator), max_size=30).map(
    lambda parts: "".join(w + s for w, s in parts)
)
options = st.fixed_dictionaries(
    {
        "metrics": st.none() | st.lists(st.sampled_from(ALL_METRICS), min_size=1, unique=True),
        "stats": st.none() | st.lists(st.sampled_from(["r", "p", "f"]), min_size=1, unique=True),
        "return_lengths": st.booleans(),
        "raw_results": st.booleans(),
        "exclusive": st.booleans(),
    }
)


def _real_or_error(rouge: object, *args: object, **kwargs: object) -> object:
    try:
        return rouge.get_scores(*args, **kwargs)
    except ValueError as error:
        return error


@settings(deadline=None, max_examples=400)
@given(st.lists(st.tuples(texts, texts), min_size=1, max_size=4), options, st.booleans())
def test_equal_to_rouge_1_0_1(pairs, option_values, avg):
    hyps, refs = [h for h, _ in pairs], [r for _, r in pairs]
    avg = avg and not option_values["raw_results"]  # rouge raises KeyError for that pair
    real = _real_or_error(real_rouge.Rouge(**option_values), hyps, refs, avg=avg)
    ours = compat_rouge.Rouge(**option_values).get_scores(hyps, refs, avg=avg)
    if isinstance(real, ValueError):
        # rouge raised on a pair ("Hypothesis is empty.", "Reference is empty."): compare the
        # batch pair by pair, so that one such pair does not end the comparison of the others.
        _equal_pair_by_pair(option_values, pairs)
        return
    assert ours == real
    assert repr(ours) == repr(real)  # the same types and the same float bits


def _equal_pair_by_pair(option_values: dict, pairs: list[tuple[str, str]]) -> None:
    """Each pair alone: rouge's own values where it scores it, 0.0 here where it raises."""
    ours = compat_rouge.Rouge(**option_values).get_scores(*map(list, zip(*pairs, strict=True)))
    for (hyp, ref), row in zip(pairs, ours, strict=True):
        real = _real_or_error(real_rouge.Rouge(**option_values), [hyp], [ref])
        if isinstance(real, ValueError):
            assert not (compat_rouge.rouge._sentences(hyp) and compat_rouge.rouge._sentences(ref))
            assert all(value == 0.0 for value in _statistics(row)), row
        else:
            assert [row] == real
            assert repr([row]) == repr(real)


def _statistics(row: dict) -> list[float]:
    """The r, p and f values of one row of get_scores, whatever the options."""
    found = []
    for value in row.values():
        if isinstance(value, dict):
            found += [v for key, v in value.items() if key in ("r", "p", "f")]
    return found


@settings(deadline=None, max_examples=100)
@given(texts, texts)
def test_an_empty_side_scores_zero_where_rouge_raises(text, other):
    for hyp, ref in (("", other), (text, "..."), (" . ", "")):
        for exclusive in (True, False):
            with pytest.raises(ValueError, match="empty|at least 1 sentence"):
                real_rouge.Rouge(exclusive=exclusive).get_scores(hyp, ref)
            row = compat_rouge.Rouge(exclusive=exclusive).get_scores(hyp, ref)[0]
            assert all(v == 0.0 for scores in row.values() for v in scores.values())


def test_ignore_empty_and_errors():
    rouge = compat_rouge.Rouge()
    assert rouge.get_scores(["", "a b"], ["x", ""], ignore_empty=True) == []
    with pytest.raises(ValueError, match="no pair to average"):
        rouge.get_scores([""], ["x"], avg=True, ignore_empty=True)
    with pytest.raises(ValueError, match="2 hypotheses but 1 references"):
        rouge.get_scores(["a", "b"], ["a"])
    with pytest.raises(ValueError, match="Unknown metric 'rouge-9'"):
        compat_rouge.Rouge(metrics=["rouge-9"])
    real = real_rouge.Rouge().get_scores(["a b c", ""], ["a c", "x"], avg=True, ignore_empty=True)
    assert rouge.get_scores(("a b c", ""), ["a c", "x"], avg=True, ignore_empty=True) == real


def test_a_sentence_too_long_for_rouges_recursion():
    words = [f"w{i % 97}" for i in range(1100)]  # past the default recursion limit of 1,000
    hyp, ref = " ".join(words), " ".join(reversed(words))
    # Python's default limit: a test run before this one (or a library it loaded) may raise it.
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)
    try:
        with pytest.raises(RecursionError):
            real_rouge.Rouge(metrics=["rouge-l"]).get_scores(hyp, ref)
    finally:
        sys.setrecursionlimit(limit)
    row = compat_rouge.Rouge(metrics=["rouge-l"]).get_scores(hyp, ref)[0]
    assert 0 < row["rouge-l"]["f"] < 1


def test_files_rouge(tmp_path):
    hyp_file, ref_file = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp_file.write_text("the cat sat. on the mat\na dog\nlast line without newline")
    ref_file.write_text("the cat sat on a mat\nthe dog ran\nlast line")
    for avg in (False, True):
        ours = compat_rouge.FilesRouge().get_scores(str(hyp_file), str(ref_file), avg=avg)
        assert ours == real_rouge.FilesRouge().get_scores(str(hyp_file), str(ref_file), avg=avg)


@pytest.mark.slow
def test_the_bench_pairs():
    rows = read_jsonl(BENCH)
    hyps = [row["prediction"] for row in rows]
    refs = [row["references"][0] for row in rows]
    assert len(hyps) == 3500
    # All of them with the defaults; a slice with multiplicities (rouge's own ROUGE-L is slow).
    for exclusive, size in ((True, len(hyps)), (False, 500)):
        options = {"metrics": ALL_METRICS, "return_lengths": True, "exclusive": exclusive}
        ours = compat_rouge.Rouge(**options).get_scores(hyps[:size], refs[:size])
        assert ours == real_rouge.Rouge(**options).get_scores(hyps[:size], refs[:size])
