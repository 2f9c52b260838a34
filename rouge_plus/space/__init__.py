"""The logic behind the Gradio app (``app.py``), importable without Gradio.

- :mod:`.pair_input`: the single-pair text boxes (references separated by ``---``);
- :mod:`.corpus_files`: reading and validating an uploaded CSV/JSONL corpus, writing the
  per-example download;
- :mod:`.scoring`: the options the page offers, and scoring a pair or a corpus with them;
- :mod:`.render`: HTML tables, highlighted texts and the page's CSS;
- :mod:`.histogram`: the per-example F histogram (matplotlib).

Problems with what the user gave raise :class:`InputError`, whose message is shown as is.
"""

from .errors import InputError

__all__ = ["InputError"]
