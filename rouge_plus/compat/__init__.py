"""Drop-in replacements for other ROUGE packages' APIs, computed by rouge_plus.

``rouge_plus.compat.rouge_score`` mirrors Google's ``rouge_score`` 0.1.2: change
``from rouge_score import rouge_scorer, scoring`` to
``from rouge_plus.compat.rouge_score import rouge_scorer, scoring`` and the numbers stay the same.
"""
