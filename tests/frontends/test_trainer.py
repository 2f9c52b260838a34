"""compute_metrics for Seq2SeqTrainer: with a real transformers tokenizer built from local files,
and in a real ``Seq2SeqTrainer.evaluate()`` of a tiny model built offline, in the Trainer's three
ways of handing over predictions (whole set, ``batch_eval_metrics``, ``eval_do_concat_batches``)."""

from __future__ import annotations

import os
import runpy
from pathlib import Path

import numpy as np
import pytest

import rouge_plus
from rouge_plus.integrations.trainer import make_compute_metrics

WORDS = ["[PAD]", "[UNK]", "</s>", "the", "cat", "sat", "on", "mat", ".", "a", "dog", "ran"]


@pytest.fixture(scope="module")
def tokenizer(tmp_path_factory):
    """A WordLevel tokenizer saved to tokenizer.json and loaded by PreTrainedTokenizerFast."""
    tokenizers = pytest.importorskip("tokenizers")
    transformers = pytest.importorskip("transformers")
    model = tokenizers.models.WordLevel({w: i for i, w in enumerate(WORDS)}, unk_token="[UNK]")
    backend = tokenizers.Tokenizer(model)
    backend.pre_tokenizer = tokenizers.pre_tokenizers.WhitespaceSplit()
    path = tmp_path_factory.mktemp("tok") / "tokenizer.json"
    backend.save(str(path))
    return transformers.PreTrainedTokenizerFast(
        tokenizer_file=str(path), pad_token="[PAD]", unk_token="[UNK]", eos_token="</s>"
    )


def ids(tokenizer, texts, width):
    """Token ids + eos, right-padded with ``pad`` to ``width``."""
    rows = [tokenizer(text)["input_ids"] + [tokenizer.eos_token_id] for text in texts]
    return np.array([row + [tokenizer.pad_token_id] * (width - len(row)) for row in rows])


PREDICTIONS = ["the cat sat on the mat .", "a dog ran"]
REFERENCES = ["the cat sat on a mat .", "the dog sat"]


def label_ids(tokenizer):
    labels = ids(tokenizer, REFERENCES, 10)
    return np.where(labels == tokenizer.pad_token_id, -100, labels)  # the collator's loss mask


def test_matches_score_on_decoded_text_in_percent(tokenizer):
    compute_metrics = make_compute_metrics(tokenizer)
    result = compute_metrics((ids(tokenizer, PREDICTIONS, 9), label_ids(tokenizer)))
    expected = rouge_plus.score(PREDICTIONS, REFERENCES, split_sentences="rules")
    assert set(result) == {*expected, "gen_len"}
    for key, value in expected.items():
        assert result[key] == round(value * 100, 4)
    assert result["gen_len"] == (8 + 4) / 2  # tokens + eos, pads not counted


def test_accepts_eval_prediction_and_minus_100_in_predictions(tokenizer):
    transformers = pytest.importorskip("transformers")
    generated = ids(tokenizer, PREDICTIONS, 9)
    generated[generated == tokenizer.pad_token_id] = -100  # padding across generate() batches
    compute_metrics = make_compute_metrics(tokenizer, rouge_types=["rouge1"], percent=False)
    result = compute_metrics(
        transformers.EvalPrediction(predictions=generated, label_ids=label_ids(tokenizer))
    )
    expected = rouge_plus.score(PREDICTIONS, REFERENCES, rouge_types=["rouge1"])
    assert result == {**expected, "gen_len": 6.0}


def test_options_reach_the_scorer(tokenizer):
    compute_metrics = make_compute_metrics(
        tokenizer, rouge_types="rouge2", return_precision_recall=True, percent=False
    )
    result = compute_metrics((ids(tokenizer, PREDICTIONS, 9), label_ids(tokenizer)))
    assert set(result) == {
        "rouge2",
        "rouge2_precision",
        "rouge2_recall",
        "rouge2_fmeasure",
        "gen_len",
    }


def test_logits_are_rejected_with_a_hint(tokenizer):
    compute_metrics = make_compute_metrics(tokenizer)
    logits = np.zeros((2, 9, len(WORDS)), dtype=np.float32)
    with pytest.raises(ValueError, match="predict_with_generate=True"):
        compute_metrics((logits, label_ids(tokenizer)))


def test_bad_options_fail_when_built(tokenizer):
    with pytest.raises(ValueError, match="unknown ROUGE type"):
        make_compute_metrics(tokenizer, rouge_types=["rouge0"])
    with pytest.raises(ValueError, match="use_aggregator"):
        make_compute_metrics(tokenizer, use_aggregator=False)


def test_batches_of_different_widths_as_eval_do_concat_batches_false_gives_them(tokenizer):
    compute_metrics = make_compute_metrics(tokenizer, percent=False)
    generated = ids(tokenizer, PREDICTIONS, 9)
    generated[generated == tokenizer.pad_token_id] = -100
    labels = label_ids(tokenizer)
    batches = (
        [generated[:1, :8], generated[1:, :5]],  # each batch as wide as its longest row
        [labels[:1], labels[1:, :6]],
    )
    assert compute_metrics(batches) == compute_metrics((generated, labels))


def test_compute_result_keeps_batches_until_the_last(tokenizer):
    """batch_eval_metrics=True: one call per batch, the corpus result on the last one."""
    compute_metrics = make_compute_metrics(tokenizer)
    generated, labels = ids(tokenizer, PREDICTIONS, 9), label_ids(tokenizer)
    whole = compute_metrics((generated, labels))
    assert compute_metrics((generated[:1], labels[:1]), compute_result=False) == {}
    assert compute_metrics((generated[1:], labels[1:]), compute_result=True) == whole
    assert compute_metrics((generated, labels), compute_result=True) == whole  # nothing left over


# --- a real Seq2SeqTrainer ----------------------------------------------------------------

SUPPORT = Path(__file__).resolve().parents[1] / "support"


@pytest.fixture(scope="module")
def tiny():
    """model, tokenizer and eval_dataset of support/tiny_seq2seq.py (the test setup of the
    Trainer example in docs/evaluate-and-trainer.md)."""
    pytest.importorskip("torch", reason="the Trainer needs torch: scripts/install_test_deps.sh")
    pytest.importorskip("accelerate", reason="transformers' Trainer needs accelerate")
    cwd = os.getcwd()
    try:
        return runpy.run_path(str(SUPPORT / "tiny_seq2seq.py"))
    finally:
        os.chdir(cwd)


def trainer_evaluate(tiny, tmp_path, **arguments) -> tuple[dict, list]:
    """``Seq2SeqTrainer.evaluate()`` with make_compute_metrics; also what it was handed."""
    import transformers

    compute_metrics = make_compute_metrics(tiny["tokenizer"])
    calls = []

    def recording(eval_pred, compute_result=None):
        calls.append((eval_pred.predictions, eval_pred.label_ids, compute_result))
        return compute_metrics(eval_pred, compute_result=compute_result)

    args = transformers.Seq2SeqTrainingArguments(
        output_dir=str(tmp_path), predict_with_generate=True, generation_max_length=12,
        per_device_eval_batch_size=2, report_to="none", use_cpu=True, **arguments,
    )  # fmt: skip
    trainer = transformers.Seq2SeqTrainer(
        model=tiny["model"],
        args=args,
        eval_dataset=tiny["eval_dataset"],
        processing_class=tiny["tokenizer"],
        data_collator=transformers.DataCollatorForSeq2Seq(tiny["tokenizer"], model=tiny["model"]),
        compute_metrics=recording,
    )
    return trainer.evaluate(), calls


def test_seq2seq_trainer_evaluate(tiny, tmp_path):
    metrics, calls = trainer_evaluate(tiny, tmp_path)
    [(predictions, labels, compute_result)] = calls
    assert compute_result is None
    tokenizer = tiny["tokenizer"]

    def decode(values):
        values = np.where(values == -100, tokenizer.pad_token_id, values)
        return [t.strip() for t in tokenizer.batch_decode(values, skip_special_tokens=True)]

    expected = rouge_plus.score(decode(predictions), decode(labels), split_sentences="rules")
    assert decode(labels)[0] == "the cat sat on the mat ."
    for key, value in expected.items():
        assert metrics[f"eval_{key}"] == round(value * 100, 4)
    assert 0 < metrics["eval_gen_len"] <= 12


@pytest.mark.parametrize(
    "arguments",
    [{"batch_eval_metrics": True}, {"eval_do_concat_batches": False}],
    ids=["batch_eval_metrics", "no_concat"],
)
def test_seq2seq_trainer_batch_modes_give_the_same_result(tiny, tmp_path, arguments):
    whole, _ = trainer_evaluate(tiny, tmp_path / "whole")
    metrics, calls = trainer_evaluate(tiny, tmp_path / "batches", **arguments)
    keys = [f"eval_{key}" for key in ("rouge1", "rouge2", "rougeL", "rougeLsum", "gen_len")]
    assert {key: metrics[key] for key in keys} == {key: whole[key] for key in keys}
    if arguments.get("batch_eval_metrics"):
        assert [c[2] for c in calls] == [False, False, True]  # 5 examples in batches of 2
    else:
        assert isinstance(calls[0][0], list) and len(calls[0][0]) == 3
