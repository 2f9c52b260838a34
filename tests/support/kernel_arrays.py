"""Documents given as sentences of token ids, as the flat arrays the counting kernels read."""

from __future__ import annotations

import numpy as np


def corpus_arrays(docs: list[list[list[int]]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Flat ids (int32), sentence offsets and document offsets (int64); empty sentences are
    dropped, as the encoder drops them."""
    ids, sentences, bounds = [], [0], [0]
    for doc in docs:
        for sentence in doc:
            if sentence:
                ids += sentence
                sentences.append(len(ids))
        bounds.append(len(sentences) - 1)
    return (
        np.array(ids, dtype=np.int32),
        np.array(sentences, dtype=np.int64),
        np.array(bounds, dtype=np.int64),
    )
