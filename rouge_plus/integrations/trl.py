"""ROUGE as a reward for TRL's ``GRPOTrainer`` (and any trainer that calls
``reward_func(prompts=..., completions=..., **columns)``), one rouge_plus call per step.

::

    from trl import GRPOConfig, GRPOTrainer
    from rouge_plus.integrations.trl import RougeReward

    reward = RougeReward("rougeL", reference_column="summary", use_stemmer=True)
    trainer = GRPOTrainer(model=model, reward_funcs=reward, args=GRPOConfig(...),
                          train_dataset=dataset)  # dataset columns: "prompt", "summary"

The trainer passes the dataset's other columns as keyword arguments, repeated for each
generation; ``reference_column`` names the one with the references (a text, or a list of texts
per prompt: the best one counts, or as ``multi_ref=`` says). Completions are plain strings or,
for conversational datasets, lists of messages (the last message's content is scored; a last
message without text, such as a tool call whose ``content`` is None, scores 0.0). TRL is not
imported here: the reward is a plain callable.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..all_pairs import STATISTICS
from ..errors import InputError, InputTypeError, OptionError
from ..scorer import RougeScorer


def completion_text(completion: object) -> str:
    """A completion's text: a string, or the content of a list of messages' last message (its
    text parts joined when the content is a list of parts).

    A last message without text (``content`` None or missing, as in a tool call) is an empty
    completion: it scores 0.0, as a completion that says nothing does.
    """
    if isinstance(completion, str):
        return completion
    if isinstance(completion, Sequence) and completion and isinstance(completion[-1], dict):
        content = completion[-1].get("content")
        if content is None or isinstance(content, str):
            return content or ""
        if isinstance(content, Sequence):
            return "".join(part.get("text") or "" for part in content if isinstance(part, dict))
        raise InputTypeError(
            f"a chat message's content must be a string, a list of parts or None, got "
            f"{type(content).__name__}"
        )
    raise InputTypeError(
        f"a completion must be a string or a list of chat messages, got {type(completion).__name__}"
    )


class RougeReward:
    """``RougeReward(rouge_type="rougeL", reference_column="reference", statistic="f",
    **options)``: a reward function giving one float per completion, the ROUGE ``statistic``
    (``"f"``, ``"p"`` or ``"r"``) of ``rouge_type`` against the completion's references.

    ``options`` are rouge_plus's scoring options (``use_stemmer``, ``tokenizer``, ``language``,
    ``multi_ref``, ``fmeasure``, ...), as ``rouge_plus.RougeScorer`` takes them.
    """

    def __init__(
        self,
        rouge_type: str = "rougeL",
        reference_column: str = "reference",
        statistic: str = "f",
        **options: object,
    ):
        if statistic not in STATISTICS:
            raise OptionError(f"statistic must be one of {sorted(STATISTICS)}, got {statistic!r}")
        self._scorer = RougeScorer([rouge_type], **options)
        self._type = rouge_type
        self._column = reference_column
        self._statistic = STATISTICS[statistic]
        # Trainers name a reward function's logged metrics after it.
        self.__name__ = f"{rouge_type}_{statistic}"

    def __call__(self, completions: Sequence[object], **kwargs: object) -> list[float]:
        """One reward per completion; ``kwargs`` holds the reference column (and whatever else
        the trainer passes, ignored)."""
        if self._column not in kwargs:
            raise InputError(
                f"no {self._column!r} column among the trainer's arguments "
                f"({', '.join(sorted(kwargs))}): pass reference_column= naming the references"
            )
        references = kwargs[self._column]
        predictions = [completion_text(c) for c in completions]
        scores = self._scorer.score_examples(predictions, references).scores[self._type]
        return scores[:, self._statistic].tolist()
