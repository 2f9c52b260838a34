"""The Gradio app's event handlers without a browser, and its API through gradio_client.

The logic behind them (rouge_plus.space) is tested in test_space.py.
"""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import pytest

gr = pytest.importorskip("gradio", reason="the app needs gradio")
pytest.importorskip("matplotlib", reason="the app draws histograms with matplotlib")

from support.app_server import running_app  # noqa: E402

import rouge_plus  # noqa: E402
from rouge_plus.readers import sample_text  # noqa: E402
from rouge_plus.space import (  # noqa: E402
    corpus_tab,
    events,
    page,
    pair_tab,
    scoring,
)
from rouge_plus.space.api import API_SIGNATURE  # noqa: E402
from rouge_plus.space.pair_input import split_references  # noqa: E402

CAT = ("The cat and the dog.", "The cat is on the mat.")
ROWS = [
    {"prediction": "the cat sat", "references": ["a cat sat", "the cat is sitting"]},
    {"prediction": "it rained", "references": ["rain fell all day"]},
    {"prediction": "the team won", "references": "the team won the final"},
]


def settings(rouge_types: list[str]) -> dict:
    """What the options column gives the scoring events (advanced options left as shown)."""
    return events.read_options(
        rouge_types=rouge_types,
        use_stemmer=False,
        tokenizer="default",
        split_sentences="newline",
        multi_ref="best",
        beta=1.0,
    )


def no_progress(*args: object, **kwargs: object) -> None:
    return None


def test_single_pair_shows_table_highlights_and_signature() -> None:
    table, highlights, signature = pair_tab.score_single(
        CAT[0], CAT[1], 1, settings(["rouge1", "rouge2", "rougeL"])
    )
    assert "<th scope='row'>ROUGE-1</th><td>0.6000</td><td>0.5000</td>" in table
    assert "np.float64" not in table + highlights
    assert highlights.count("<mark class='rp-both' title=") == 6
    assert "rp-legend" in highlights and "rp-synonym" not in highlights
    assert "types:rouge1,rouge2,rougeL" in signature


@pytest.mark.parametrize("n_references", [1, 4])
def test_a_single_pair_request_resolves_its_options_once(monkeypatch, n_references) -> None:
    """One request: one parse of the options and one plan, whatever the number of references."""
    from rouge_plus import options, plan

    chosen = settings(["rouge1", "rougeL", "rouge1+synonyms"])
    counts = {"parse": 0, "plan": 0}
    real_parse, real_plan_init = options.ScoreOptions.from_kwargs, plan.ScoringPlan.__init__

    def counting_parse(**kwargs):
        counts["parse"] += 1
        return real_parse(**kwargs)

    def counting_plan_init(self, *args):
        counts["plan"] += 1
        real_plan_init(self, *args)

    monkeypatch.setattr(options.ScoreOptions, "from_kwargs", staticmethod(counting_parse))
    monkeypatch.setattr(plan.ScoringPlan, "__init__", counting_plan_init)
    references = "\n".join(CAT[1] + f" {k}" for k in range(n_references))
    table, _, _ = pair_tab.score_single(CAT[0], references, 1, chosen)
    assert "ROUGE-1" in table
    assert counts == {"parse": 1, "plan": 1}


def test_synonym_example_marks_synonyms_in_pink() -> None:
    prediction, references, types = pair_tab.EXAMPLES[3]
    _, highlights, signature = pair_tab.score_single(prediction, references, 1, settings(types))
    assert "<mark class='rp-synonym'>synonym</mark>" in highlights  # the legend entry
    # car/automobile, fast/quick, cheap/inexpensive, run/operate; then car/auto.
    assert highlights.count("<mark class='rp-synonym' title=") == 8 + 2
    assert "syn:wordnet-3.0" in signature


def test_bad_input_becomes_a_gradio_message() -> None:
    with pytest.raises(gr.Error, match="prediction is empty"):
        pair_tab.score_single("", "ref", 1, settings(["rouge1"]))
    with pytest.raises(gr.Error, match="at least one ROUGE type"):
        settings([])
    with pytest.raises(gr.Error, match="unknown ROUGE type"):
        settings(["rouge1", "rougeQ"])


def test_examples_are_the_documented_ones() -> None:
    predictions = [example[0] for example in pair_tab.EXAMPLES]
    assert "The cat and the dog." in predictions
    spinach = split_references(pair_tab.EXAMPLES[1][1])
    assert len(spinach) == 3 and spinach[2].endswith("leaf vegetable of Asia.")
    phone = pair_tab.EXAMPLES[2]
    assert phone[0] == "Lightweight phone.\nBright screen.\nScreen is very clear."
    assert phone[1] == "The phone is very lightweight.\nThe display is also very bright and clear."
    assert "rouge1+synonyms" in phone[2]
    for _, _, types in pair_tab.EXAMPLES:
        settings(types)


def test_score_corpus_returns_table_plot_and_csv(monkeypatch) -> None:
    monkeypatch.setattr(scoring, "CHUNK_TOKENS", 16)  # rows 0-1 hold 16 tokens, row 2 holds 8
    steps: list[object] = []
    pasted = "\n".join(json.dumps(row) for row in ROWS)
    table, figure, csv_path, status = corpus_tab.score_corpus(
        None, pasted, "prediction", ["references"], 0.95, 100, 0,
        settings(["rouge1", "rougeL"]), progress=lambda step, **kwargs: steps.append(step),
    )  # fmt: skip
    assert steps == [(0, 3), (2, 3), 1.0]  # then the bootstrap
    assert "ROUGE-1" in table and "95% CI" in table
    assert len(figure.axes) == 2
    lines = Path(csv_path).read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("row,rouge1_precision,rouge1_recall,rouge1_fmeasure,")
    per_example = rouge_plus.score(
        [r["prediction"] for r in ROWS], [r["references"] for r in ROWS],
        rouge_types=["rouge1"], use_aggregator=False,
    )  # fmt: skip
    assert [float(line.split(",")[3]) for line in lines[1:]] == per_example["rouge1"]
    header = lines[0].split(",")
    assert header[4:7] == ["rouge1_matches", "rouge1_prediction_total", "rouge1_reference_total"]
    counts = rouge_plus.score(
        [r["prediction"] for r in ROWS], [r["references"] for r in ROWS],
        rouge_types=["rouge1"], use_aggregator=False, return_counts=True,
    )  # fmt: skip
    assert [float(line.split(",")[4]) for line in lines[1:]] == counts["rouge1_matches"]
    assert status.startswith("Scored 3 examples")


def test_score_corpus_without_data_shows_a_message() -> None:
    with pytest.raises(gr.Error, match="Upload a CSV or JSONL file"):
        corpus_tab.score_corpus(
            None, "  ", "prediction", ["references"], 0.95, 100, 0, settings(["rouge1"]),
            progress=no_progress,
        )  # fmt: skip


def test_sample_corpus_fills_the_column_pickers() -> None:
    sample = sample_text()
    if not sample:
        pytest.skip("this rouge_plus install has no data/sample.jsonl")
    prediction, references, status = corpus_tab.update_columns(None, sample)
    assert prediction["value"] == "prediction"
    assert references["value"] == ["references"]
    assert "rows" in status


def test_bad_paste_is_reported_in_the_status_line() -> None:
    with pytest.warns(UserWarning, match="not valid JSON"):  # gr.Warning outside a request
        prediction, references, status = corpus_tab.update_columns(None, "{oops")
    assert prediction["choices"] == [] and references["value"] == []
    assert status.startswith("⚠️ pasted text:1: not valid JSON")


def test_data_without_a_prediction_column_is_told_its_columns() -> None:
    pasted = json.dumps({"summary_a": "the cat sat", "gold": "a cat sat"})
    prediction, references, status = corpus_tab.update_columns(None, pasted)
    assert prediction["value"] is None and references["value"] == ["gold"]
    assert "columns: summary_a, gold" in status and "choose the prediction column" in status
    with pytest.raises(gr.Error, match="Choose the prediction column") as caught:
        corpus_tab.score_corpus(
            None, pasted, None, ["gold"], 0.95, 100, 0, settings(["rouge1"]), progress=no_progress
        )
    assert "The data's columns: summary_a, gold." in caught.value.message


# --- API -----------------------------------------------------------------------------------


def test_score_api_is_rouge_plus_score() -> None:
    kwargs = {"rouge_types": ["rouge2", "rougeLsum"], "multi_ref": "pooled", "beta": 2.0}
    assert page.score_api([CAT[0]], [[CAT[1]]], **kwargs) == rouge_plus.score(
        [CAT[0]], [[CAT[1]]], **kwargs
    )
    rouge155 = {"rouge_types": ["rouge1", "rougeL"], "profile": "rouge155"}
    assert page.score_api([CAT[0]], [[CAT[1]]], **rouge155) == rouge_plus.score(
        [CAT[0]], [[CAT[1]]], **rouge155
    )


def test_score_api_gives_counts_and_micro_as_the_library() -> None:
    kwargs = {"rouge_types": ["rouge1", "rougeL"], "return_counts": True, "aggregation": "micro"}
    result = page.score_api([CAT[0], CAT[1]], [[CAT[1]], [CAT[0]]], **kwargs)
    assert result == rouge_plus.score([CAT[0], CAT[1]], [[CAT[1]], [CAT[0]]], **kwargs)
    assert "rougeL_matches" in result


def test_score_api_strips_reasoning_but_refuses_a_pattern() -> None:
    kwargs = {"rouge_types": ["rouge1"], "strip_reasoning": True}
    assert page.score_api(["<think>x</think>" + CAT[0]], [CAT[0]], **kwargs)["rouge1"] == 1.0
    with pytest.raises(gr.Error, match="strip_reasoning: give true or false.*ReDoS"):
        page.score_api([CAT[0]], [CAT[1]], strip_reasoning="(a+)+$")


def test_score_api_refuses_server_side_stopword_files() -> None:
    with pytest.raises(gr.Error, match="remove_stopwords"):
        page.score_api([CAT[0]], [CAT[1]], remove_stopwords="/etc/passwd")


@pytest.fixture(scope="module")
def client():
    gradio_client = pytest.importorskip("gradio_client")
    with running_app() as url:
        yield gradio_client.Client(url, verbose=False)


def test_api_endpoint_returns_the_library_numbers(client) -> None:
    predictions = [pair_tab.EXAMPLES[1][0], pair_tab.EXAMPLES[3][0]]
    references = [split_references(pair_tab.EXAMPLES[1][1]), pair_tab.EXAMPLES[3][1]]
    for kwargs in [
        {},
        {"rouge_types": ["rouge1", "rougeL", "rougeLsum"], "use_stemmer": True,
         "multi_ref": "pooled", "return_precision_recall": True},
        {"aggregation": "bootstrap", "n_resamples": 200, "seed": 7},
        {"use_aggregator": False, "tokenizer": "whitespace"},
        {"rouge_types": ["rougeW", "rougeSU4", "rouge1+synonyms", "rougeTopic"],
         "remove_stopwords": True, "topic_pos": "NN"},
        {"profile": "rouge155", "remove_stopwords": True, "max_words": 8},
    ]:  # fmt: skip
        result = client.predict(predictions, references, **kwargs, api_name="/score")
        assert result == rouge_plus.score(predictions, references, **kwargs)


def test_api_reports_bad_input_as_an_error_message(client) -> None:
    from gradio_client.exceptions import AppError

    with pytest.raises(AppError, match="differ in length"):
        client.predict(["a", "b"], ["a"], api_name="/score")


# --- the server: refusals, shutdown ----------------------------------------------------------


@pytest.mark.slow
def test_refusals_are_one_log_line_and_sigterm_leaves_no_files(tmp_path) -> None:
    """What only a client skipping the page sends (too few values, a file it did not upload,
    a column its pickers do not offer) is refused with one line in the log, not a traceback;
    and a server stopped with SIGTERM, as a Space stops it, leaves no upload or download behind,
    nor the empty file Gradio 6.31's ``gr.File`` leaves in its cache per event that reads it."""
    pytest.importorskip("gradio_client")
    from support.app_server import app_process
    from support.raw_events import RawSession

    gradio_dir, temp_dir = tmp_path / "gradio", tmp_path / "tmp"
    temp_dir.mkdir()
    env = {**os.environ, "GRADIO_TEMP_DIR": str(gradio_dir), "TMPDIR": str(temp_dir)}
    rows = "\n".join(json.dumps(row) for row in ROWS).encode()
    with (tmp_path / "server.log").open("w+") as log:
        with app_process(env=env, log=log) as (url, process):
            session = RawSession(url)
            assert not session.call("score", [["a"], [["a"]]])["success"]  # 2 of the values
            not_uploaded = {"path": __file__, "meta": {"_type": "gradio.FileData"}}
            corpus = [None, "prediction", ["references"], 0.95, 100, 0]
            assert not session.call("score_corpus", [not_uploaded, *corpus, None])["success"]
            upload = session.upload("corpus.jsonl", rows)
            assert not session.call("score_corpus", [upload, *corpus, None])["success"]
            assert session.call("update_columns", [upload, None])["success"]  # the pickers
            read_corpus_options = max(session.fn_index, key=lambda name: (  # the corpus tab's
                name.startswith("read_option"), session.fn_index[name]))  # fmt: skip
            read = session.call(read_corpus_options, session.default_inputs(read_corpus_options))
            assert read["success"]
            scored = session.call("score_corpus", [upload, *corpus, None])
            assert scored["success"], scored["output"]
            assert any(gradio_dir.rglob("*.jsonl")) and any(temp_dir.rglob("*.csv"))
            process.send_signal(signal.SIGTERM)
            assert process.wait(timeout=30) is not None
        log.seek(0)
        output = log.read()
    assert "Traceback" not in output, output
    refusals = [line for line in output.splitlines() if "refused:" in line]
    assert len(refusals) == 3, output
    needed = len(API_SIGNATURE.parameters)  # predictions, references and the options it takes
    assert f"didn't receive enough input values (needed: {needed}, got: 2)" in refusals[0]
    assert "was not uploaded by a user" in refusals[1]
    assert "not in the list of choices" in refusals[2]
    assert [path for path in gradio_dir.rglob("*") if path.is_file()] == []
    assert list(temp_dir.iterdir()) == []


def test_reading_the_corpus_file_leaves_no_file_in_gradios_cache(tmp_path, monkeypatch) -> None:
    """The corpus tab's file reaches an event as its path, with nothing left in Gradio's cache
    (gr.File left one empty file there per event); a file of another type is still refused."""
    from gradio.data_classes import FileData
    from gradio.exceptions import Error

    demo = page.build_demo()
    upload = next(block for block in demo.blocks.values() if block.elem_id == "corpus-file")
    cache = tmp_path / "cache"
    cache.mkdir()
    monkeypatch.setattr(upload, "GRADIO_CACHE", str(cache))
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text(json.dumps(ROWS[0]), encoding="utf-8")
    assert [upload.preprocess(FileData(path=str(corpus))) for _ in range(3)] == [str(corpus)] * 3
    assert list(cache.iterdir()) == []
    with pytest.raises(Error, match="Invalid file type"):
        upload.preprocess(FileData(path=str(tmp_path / "corpus.exe")))
    # A subclass of a Gradio component would have Gradio write a stub beside its module.
    assert list(Path(page.__file__).parent.glob("*.pyi")) == []


def test_pasted_rows_fill_the_pickers_on_change_and_are_scored_before_they_are_filled() -> None:
    """A paste followed at once by "Score corpus": the pickers are filled on the textarea's
    change (not only when it loses focus), and scoring guesses the columns left empty."""
    demo = page.build_demo()
    pasted = next(block for block in demo.blocks.values() if block.elem_id == "corpus-paste")
    triggers = {
        (trigger_id, event): fn.fn.__name__
        for fn in demo.fns.values()
        if fn.fn is not None  # not an event of the browser alone
        for trigger_id, event in fn.targets
    }
    assert triggers[(pasted._id, "change")] == "update_columns"
    pasted_rows = "\n".join(json.dumps(row) for row in ROWS)
    chosen = settings(["rouge1"])
    guessed = corpus_tab.score_corpus(None, pasted_rows, None, [], 0.95, 100, 0, chosen,
                               progress=no_progress)  # fmt: skip
    picked = corpus_tab.score_corpus(None, pasted_rows, "prediction", ["references"], 0.95, 100, 0,
                              chosen, progress=no_progress)  # fmt: skip
    assert guessed[0] == picked[0] and guessed[3].startswith("Scored 3 examples")
