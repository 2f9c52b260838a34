"""compute_metrics for Seq2SeqTrainer, with a real transformers tokenizer built from local files."""

from __future__ import annotations

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
