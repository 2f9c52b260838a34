"""ROUGE-1.5.5's own conventions, reproduced without Perl: its stemmer (``-m``), length limits
(``-l``/``-b``) and the bootstrap behind its corpus averages and intervals."""
