"""A minimal local metric for combine() tests (evaluate's own metrics would need the Hub)."""

import datasets
import evaluate


class ExactMatch(evaluate.Metric):
    def _info(self):
        return evaluate.MetricInfo(
            description="exact match",
            citation="",
            inputs_description="",
            features=datasets.Features(
                {"predictions": datasets.Value("string"), "references": datasets.Value("string")}
            ),
        )

    def _compute(self, predictions, references):
        matches = sum(p == r for p, r in zip(predictions, references, strict=True))
        return {"exact_match": matches / len(predictions)}
