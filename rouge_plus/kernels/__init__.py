"""Counting kernels over token ids: each counts hits and bases for (prediction, reference) pairs.

``native`` picks the compiled kernels or their pure-Python twins (``python``) as a whole;
``spec`` is the table of kernels; the other modules are the algorithms, one per measure family.
"""
