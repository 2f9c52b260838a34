"""rouge_plus as a Hugging Face ``evaluate`` metric.

A thin layer over :mod:`rouge_plus.scorer`: it declares the input features, merges options given
at load time with those given to ``compute``, and hands the columns to the core. When the inputs
are given to ``compute``, or added with ``add``/``add_batch``, in a single process, they are held in
memory and scored directly instead of making a round trip through evaluate's Arrow cache and file
locks, which would only add time; distributed evaluation keeps evaluate's protocol.
"""

from pathlib import Path

import datasets
import evaluate

from rouge_plus.errors import InputError
from rouge_plus.inputs import Batch, normalize_inputs
from rouge_plus.options import ScoreOptions, option_keywords
from rouge_plus.plan import ScoringPlan, signature_of
from rouge_plus.scorer import score_examples

_CITATION = """\
@inproceedings{lin-2004-rouge,
    title = "{ROUGE}: A Package for Automatic Evaluation of Summaries",
    author = "Lin, Chin-Yew",
    booktitle = "Text Summarization Branches Out",
    year = "2004",
    publisher = "Association for Computational Linguistics",
    url = "https://aclanthology.org/W04-1013",
    pages = "74--81",
}
@article{ganesan2018rouge,
    title = {ROUGE 2.0: Updated and Improved Measures for Evaluation of Summarization Tasks},
    author = {Ganesan, Kavita},
    journal = {arXiv preprint arXiv:1803.01937},
    year = {2018}
}
"""

_DESCRIPTION = """\
ROUGE (Recall-Oriented Understudy for Gisting Evaluation) compares generated text with one or more
human references. rouge_plus computes ROUGE-N, ROUGE-L and ROUGE-Lsum with numbers identical to
rouge_score (what evaluate's "rouge" runs) by default, scores text in any language, reports
precision, recall and F, and aggregates deterministically.
"""

# Every option as the metric takes it (``fmeasure`` is given as beta or alpha), from the help
# declared on its ScoreOptions field.
OPTION_DESCRIPTIONS = {
    name: f"{option.help} (default {option.default})." for name, option in option_keywords().items()
}


def _kwargs_description() -> str:
    options = "\n".join(f"    {name}: {text}" for name, text in OPTION_DESCRIPTIONS.items())
    return f"""
Args:
    predictions: list of texts to score.
    references: one reference text per prediction, or a list of reference texts per prediction.
Options (to evaluate.load(..., **options), to rouge_plus.load(**options) or to compute):
{options}
Returns:
    A flat dict of floats: result["rouge1"] is the F-measure of ROUGE-1.
Examples:
    >>> import rouge_plus
    >>> rouge = rouge_plus.load()  # or evaluate.load("<owner>/rouge_plus")
    >>> rouge.compute(predictions=["the cat sat"], references=[["the cat sat down"]])
    {{'rouge1': 0.857..., 'rouge2': 0.8, 'rougeL': 0.857..., 'rougeLsum': 0.857...}}
"""


_KWARGS_DESCRIPTION = _kwargs_description()

# Where the project lives (the package's name on PyPI) and its licence.
HOMEPAGE = "https://pypi.org/project/rouge-plus/"
LICENSE = "MIT"

# Constructor arguments that belong to evaluate.EvaluationModule itself.
_MODULE_ARGUMENTS = (
    "config_name",
    "keep_in_memory",
    "cache_dir",
    "num_process",
    "process_id",
    "experiment_id",
    "hash",
    "max_concurrent_cache_files",
    "timeout",
)


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class RougePlus(evaluate.Metric):
    """The rouge_plus metric; options given here are defaults for every ``compute``."""

    def __init__(self, **kwargs):
        module_kwargs = {k: kwargs.pop(k) for k in _MODULE_ARGUMENTS if k in kwargs}
        if "seed" in kwargs:  # both evaluate's seed and the bootstrap seed
            module_kwargs["seed"] = kwargs["seed"]
        ScoreOptions.from_kwargs(**kwargs)  # fail at load time on a bad option
        self._default_options = dict(kwargs)
        # Single process: the rows added, until a compute succeeds (references as texts, or
        # lists of texts for rows with several).
        self._plan: ScoringPlan | None = None
        self._predictions: list[str] = []
        self._references: list[str | list[str]] = []
        super().__init__(**module_kwargs)

    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=[
                datasets.Features(
                    {
                        "predictions": datasets.Value("string"),
                        "references": datasets.Sequence(datasets.Value("string")),
                    }
                ),
                datasets.Features(
                    {
                        "predictions": datasets.Value("string"),
                        "references": datasets.Value("string"),
                    }
                ),
            ],
            homepage=HOMEPAGE,
            license=LICENSE,
            codebase_urls=[HOMEPAGE],
            reference_urls=[
                "https://aclanthology.org/W04-1013",
                "https://arxiv.org/abs/1803.01937",
            ],
        )

    def _options(self, overrides: dict) -> ScoreOptions:
        return ScoreOptions.from_kwargs(**{**self._default_options, **overrides})

    def signature(self, **options) -> str:
        """The reproducibility signature of a ``compute`` call with these options."""
        return signature_of(self._options(options))

    def _score(self, predictions, references, options: ScoreOptions):
        """Score under ``options`` with the plan of the last call when they are the same, so
        that repeated computes (an evaluation loop's) resolve their resources once, as
        ``RougeScorer`` does."""
        if self._plan is None or self._plan.options != options:
            self._plan = ScoringPlan(options)
        return score_examples(predictions, references, self._plan).result()

    def compute(self, *, predictions=None, references=None, **kwargs):
        """Score the given inputs (and any added with ``add``/``add_batch``) under the merged
        options.

        In a single process the added rows are held in memory and scored here directly, with no
        round trip through evaluate's Arrow cache and file locks; a compute that fails (a
        stopword file that does not exist, a tokenizer that raises) keeps them for the next
        call. Distributed evaluation (``num_process > 1``) takes evaluate's own path, whose
        cache files are how the processes share their rows.
        """
        if self.num_process == 1:
            options = self._options(kwargs)
            rows_predictions, rows_references = self._predictions, self._references
            if predictions is not None or references is not None:
                batch = normalize_inputs(predictions, references)
                rows_predictions = rows_predictions + batch.predictions
                rows_references = rows_references + _reference_rows(batch)
            if not rows_predictions:
                raise InputError(
                    "nothing to compute: call add or add_batch at least once, or pass "
                    "predictions and references to compute"
                )
            result = self._score(rows_predictions, rows_references, options)
            self._predictions, self._references = [], []
            return result
        self._options(kwargs)  # reject bad options before evaluate touches its cache
        result = super().compute(predictions=predictions, references=references, **kwargs)
        self._remove_locks()
        return result

    def _remove_locks(self) -> None:
        """Remove the lock files evaluate 0.4 leaves behind after a distributed compute.

        Process 0 holds every rank's lock by now, and all ranks have passed the rendezvous, so
        nothing still waits on them.
        """
        if self.process_id == 0 and self.num_process > 1 and not self.keep_in_memory:
            pattern = f"{self.experiment_id}-{self.num_process}-*.lock"
            for lock in Path(self.data_dir).glob(pattern):
                lock.unlink(missing_ok=True)

    def add_batch(self, *, predictions=None, references=None, **kwargs):
        """Validate a batch, then hold it for a later ``compute`` (in memory in a single
        process, in evaluate's cache when distributed)."""
        batch = normalize_inputs(predictions, references)  # reject bad rows before keeping them
        if self.num_process == 1 and not kwargs:  # evaluate names unknown inputs otherwise
            self._predictions += batch.predictions
            self._references += _reference_rows(batch)
            return None
        return super().add_batch(
            predictions=batch.predictions, references=batch.references, **kwargs
        )

    def add(self, *, prediction=None, reference=None, **kwargs):
        """Validate one example, then hold it for a later ``compute``.

        ``evaluate.combine(...).add(prediction=..., reference=...)`` hands every module its
        inputs under the feature names (``predictions=``, ``references=``), as the base class
        accepts them; both spellings work here too.
        """
        prediction = kwargs.pop("predictions", prediction)
        reference = kwargs.pop("references", reference)
        batch = normalize_inputs([prediction], [reference])
        if self.num_process == 1 and not kwargs:
            self._predictions += batch.predictions
            self._references += _reference_rows(batch)
            return None
        return super().add(prediction=batch.predictions[0], reference=batch.references[0], **kwargs)

    def __len__(self) -> int:
        """The number of rows added and not yet computed."""
        if self.num_process == 1:
            return len(self._predictions)
        return super().__len__()

    def _compute(self, predictions, references, **kwargs):
        return self._score(predictions, references, self._options(kwargs))


def _reference_rows(batch: Batch) -> list[str] | list[list[str]]:
    """The references of ``batch``: one text per row when every row has one (the flat list
    scores fastest), else a list of texts per row."""
    return batch.reference_texts if batch.n_pairs == len(batch) else batch.references


def load(**options: object) -> RougePlus:
    """The evaluate metric with these default options, as ``evaluate.load`` would give it.

    Works offline from any directory where the package is installed, with no checkout and no
    Hub: ``rouge_plus.load(use_stemmer=True)``. The result is a regular ``evaluate`` module, so
    ``evaluate.combine([rouge_plus.load(), ...])`` accepts it.
    """
    return RougePlus(**options)
