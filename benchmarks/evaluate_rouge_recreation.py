"""A local stand-in for evaluate's "rouge" metric, for machines without Hub access.

evaluate's rouge is a metric script fetched from the Hub: rouge_score's scorer inside an
``evaluate.Metric``, with evaluate's Arrow cache, and BootstrapAggregator when aggregating. This
class does the same work with the same libraries, so its cost is the same; the benchmark labels
its rows as the re-creation when it is used.
"""

import datasets
import evaluate
from rouge_score import rouge_scorer, scoring


class EvaluateRouge(evaluate.Metric):
    def _info(self):
        return evaluate.MetricInfo(
            description="rouge_score inside evaluate (re-creation of evaluate's rouge)",
            citation="",
            inputs_description="",
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
        )

    def _compute(
        self, predictions, references, rouge_types=None, use_aggregator=True, use_stemmer=False
    ):
        rouge_types = rouge_types or ["rouge1", "rouge2", "rougeL", "rougeLsum"]
        scorer = rouge_scorer.RougeScorer(rouge_types=rouge_types, use_stemmer=use_stemmer)
        aggregator = scoring.BootstrapAggregator() if use_aggregator else None
        scores = []
        for ref, pred in zip(references, predictions, strict=True):
            score = (
                scorer.score_multi(ref, pred) if isinstance(ref, list) else scorer.score(ref, pred)
            )
            if aggregator:
                aggregator.add_scores(score)
            else:
                scores.append(score)
        if aggregator:
            return {key: value.mid.fmeasure for key, value in aggregator.aggregate().items()}
        return {key: [score[key].fmeasure for score in scores] for key in rouge_types}
