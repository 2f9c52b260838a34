"""``rouge_plus.integrations.trl.RougeReward``: TRL's ``GRPOTrainer`` trains a tiny causal LM
(built offline, no download) for a few steps with it, and the reward equals rouge_score's."""

from __future__ import annotations

import pytest
from support.time_limit import time_limit

from rouge_plus.errors import InputError, InputTypeError, OptionError
from rouge_plus.integrations.trl import RougeReward, completion_text

WORDS = ["[PAD]", "[UNK]", "</s>", "the", "a", "cat", "dog", "sat", "ran", "on", "mat", "in"]
WORDS += ["park", ".", "it", "was", "sunny", "summarize:"]
# Several references per prompt (a list column): the best one counts.
PAIRS = [
    ("summarize: the cat sat on the mat . it was sunny", ["the cat sat on the mat ."]),
    ("summarize: a dog ran in the park", ["a dog ran .", "a dog ran in the park ."]),
    ("summarize: it was sunny in the park . the dog sat", ["it was sunny ."]),
    ("summarize: the cat ran", ["a cat ran .", "the cat ran ."]),
]


def test_reward_matches_rouge_score_per_completion():
    rouge_scorer = pytest.importorskip("rouge_score.rouge_scorer")
    reward = RougeReward("rougeL", reference_column="summary")
    completions = ["the cat sat", [{"role": "assistant", "content": "a dog ran in it"}], ""]
    references = ["the cat sat on the mat .", "a dog ran .", "it was sunny"]
    got = reward(completions, prompts=["p"] * 3, summary=references, trainer_state=None)
    scorer = rouge_scorer.RougeScorer(["rougeL"])
    expected = [
        scorer.score(ref, completion_text(c))["rougeL"].fmeasure
        for c, ref in zip(completions, references, strict=True)
    ]
    assert got == pytest.approx(expected, abs=1e-12)
    assert reward.__name__ == "rougeL_f"
    several = RougeReward("rouge1", statistic="r")(["a b"], reference=[["a x", "a b c"]])
    assert several == [pytest.approx(2 / 3)]


def test_reward_errors():
    with pytest.raises(InputError, match="reference_column"):
        RougeReward()(["a"], summary=["a"])
    with pytest.raises(OptionError, match="statistic"):
        RougeReward(statistic="x")
    with pytest.raises(InputTypeError, match="chat messages"):
        RougeReward()([3], reference=["a"])
    with pytest.raises(InputTypeError, match="content must be a string, a list of parts or None"):
        RougeReward()([[{"role": "assistant", "content": 3}]], reference=["a"])


def test_a_message_without_text_is_an_empty_completion_scoring_zero():
    """A tool call ends the completion with ``content: None`` (or no content at all)."""
    tool_call = {"role": "assistant", "content": None, "tool_calls": [{"type": "function"}]}
    completions = [
        [{"role": "user", "content": "the cat"}, tool_call],
        [{"role": "assistant"}],
        [{"role": "assistant", "content": [{"type": "text", "text": None}]}],
        [{"role": "assistant", "content": "the cat sat"}],
    ]
    assert [completion_text(c) for c in completions] == ["", "", "", "the cat sat"]
    rewards = RougeReward("rouge1")(completions, reference=["the cat sat"] * 4)
    assert rewards == [0.0, 0.0, 0.0, 1.0]


def _tiny_causal_lm(directory):
    tokenizers = pytest.importorskip("tokenizers")
    transformers = pytest.importorskip("transformers")
    backend = tokenizers.Tokenizer(
        tokenizers.models.WordLevel({w: i for i, w in enumerate(WORDS)}, unk_token="[UNK]")
    )
    backend.pre_tokenizer = tokenizers.pre_tokenizers.WhitespaceSplit()
    backend.decoder = tokenizers.decoders.WordPiece(prefix="##")  # words joined by spaces
    path = str(directory / "tokenizer.json")
    backend.save(path)
    tokenizer = transformers.PreTrainedTokenizerFast(
        tokenizer_file=path, pad_token="[PAD]", unk_token="[UNK]", eos_token="</s>"
    )
    config = transformers.GPT2Config(
        vocab_size=len(WORDS),
        n_positions=64,
        n_embd=16,
        n_layer=2,
        n_head=2,
        pad_token_id=tokenizer.pad_token_id,
        eos_token_id=tokenizer.eos_token_id,
        bos_token_id=tokenizer.eos_token_id,
    )
    return transformers.GPT2LMHeadModel(config), tokenizer


@pytest.mark.slow  # a GRPO training run: over a minute
def test_grpo_trainer_trains_with_the_reward(tmp_path):
    trl = pytest.importorskip("trl")
    datasets = pytest.importorskip("datasets")
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    model, tokenizer = _tiny_causal_lm(tmp_path)
    dataset = datasets.Dataset.from_dict(
        {"prompt": [p for p, _ in PAIRS], "summary": [s for _, s in PAIRS]}
    )
    calls = []

    class Counted(RougeReward):
        def __call__(self, completions, **kwargs):
            calls.append(len(completions))
            return super().__call__(completions, **kwargs)

    config = trl.GRPOConfig(
        output_dir=str(tmp_path / "out"),
        per_device_train_batch_size=4,
        num_generations=4,
        max_completion_length=6,
        max_steps=3,
        learning_rate=1e-2,
        logging_steps=1,
        save_strategy="no",
        report_to="none",
        use_cpu=True,
        bf16=False,
        seed=0,
    )
    with time_limit(120, "three GRPO steps"):
        trainer = trl.GRPOTrainer(
            model=model,
            reward_funcs=Counted("rougeL", reference_column="summary"),
            args=config,
            train_dataset=dataset,
            processing_class=tokenizer,
        )
        trainer.train()
    assert trainer.state.global_step == 3
    assert calls and all(n == 4 for n in calls)  # one call per batch of generations
    logged = [entry for entry in trainer.state.log_history if "rewards/rougeL_f/mean" in entry]
    assert logged, trainer.state.log_history
    assert all(0.0 <= entry["rewards/rougeL_f/mean"] <= 1.0 for entry in logged)
