"""The Gradio Space: ``page`` builds the page (``app.py`` at the repository root launches it)
from ``options_column``, ``pair_tab`` and ``corpus_tab``, with what their events share in
``events``, ``refusals`` and ``workarounds`` (every reliance on Gradio's internals). The other
modules are its logic, importable and tested without Gradio:

- :mod:`.api`: the ``/score`` endpoint, whose parameters come from the options dataclass;
- :mod:`.pair_input`: the single-pair text boxes (references separated by ``---``);
- :mod:`.corpus_files`: an uploaded or pasted corpus, the column pickers, the download;
- :mod:`.limits`: what a request may ask for, and how much work it asks for;
- :mod:`.workers`: where and how long that work runs (the time budget, turns, worker processes);
- :mod:`.memory`: the server's memory given back once a request has ended;
- :mod:`.scoring`: the options the page offers, and scoring a pair or a corpus with them;
- :mod:`.render`: HTML tables, highlighted texts and the page's CSS;
- :mod:`.histogram`: the per-example F histogram (matplotlib).

Problems with what the user gave raise :class:`~rouge_plus.readers.InputError`, whose message
is shown as is.
"""
