"""From token ids to scores: the measures (``measures``), their counts over (prediction,
reference) pairs (``counting``), precision, recall and F (``fmeasure``), and several references
reduced to one score per prediction (``multiref``)."""
