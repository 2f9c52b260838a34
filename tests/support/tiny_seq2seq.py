"""A tiny sequence-to-sequence model, tokenizer and evaluation set, built offline.

The Trainer example of docs/evaluate-and-trainer.md runs after this file
(``<!-- test-setup: tiny_seq2seq.py -->`` before its block), which defines what a user's script
would already have: ``model`` (a randomly initialised T5 of a few thousand weights), ``tokenizer``
(a ``PreTrainedTokenizerFast`` over a ``tokenizers`` WordLevel model) and ``eval_dataset``
(tokenized inputs and labels). It also moves into a fresh temporary directory, where the Trainer
may write its output directory.
"""

import os
import tempfile

import tokenizers
import torch
import transformers

os.chdir(tempfile.mkdtemp(prefix="rouge_plus_trainer_"))
torch.manual_seed(0)

WORDS = ["[PAD]", "[UNK]", "</s>", "the", "a", "cat", "dog", "sat", "ran", "on", "mat", "in"]
WORDS += ["park", ".", "it", "was", "sunny"]
_backend = tokenizers.Tokenizer(
    tokenizers.models.WordLevel({w: i for i, w in enumerate(WORDS)}, unk_token="[UNK]")
)
_backend.pre_tokenizer = tokenizers.pre_tokenizers.WhitespaceSplit()
_backend.post_processor = tokenizers.processors.TemplateProcessing(
    single="$A </s>", special_tokens=[("</s>", WORDS.index("</s>"))]
)
_backend.save("tokenizer.json")
tokenizer = transformers.PreTrainedTokenizerFast(
    tokenizer_file="tokenizer.json", pad_token="[PAD]", unk_token="[UNK]", eos_token="</s>"
)

model = transformers.T5ForConditionalGeneration(
    transformers.T5Config(
        vocab_size=len(WORDS),
        d_model=16,
        d_kv=8,
        d_ff=32,
        num_layers=1,
        num_heads=2,
        pad_token_id=tokenizer.pad_token_id,
        eos_token_id=tokenizer.eos_token_id,
        decoder_start_token_id=tokenizer.pad_token_id,
    )
)

_PAIRS = [
    ("the cat sat on the mat . it was sunny", "the cat sat on the mat ."),
    ("a dog ran in the park", "a dog ran ."),
    ("it was sunny in the park . the dog sat", "it was sunny ."),
    ("the cat ran", "a cat ran ."),
    ("the dog sat on a mat in the park", "the dog sat ."),
]
eval_dataset = [
    {**tokenizer(source), "labels": tokenizer(target)["input_ids"]} for source, target in _PAIRS
]
