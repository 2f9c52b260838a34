"""rouge_score 0.1.2's API on rouge_plus: change one import line, keep every number.

::

    from rouge_plus.compat.rouge_score import rouge_scorer, scoring  # was: from rouge_score ...

    scorer = rouge_scorer.RougeScorer(["rouge1", "rougeL"], use_stemmer=True)
    scores = scorer.score(target, prediction)  # {"rouge1": Score(precision, recall, fmeasure)}

Modules: ``rouge_scorer`` (``RougeScorer``), ``scoring`` (``Score``, ``AggregateScore``,
``BaseScorer``, ``BootstrapAggregator``, ``fmeasure``), ``tokenize`` (``tokenize(text, stemmer)``)
and ``tokenizers`` (``Tokenizer``, ``DefaultTokenizer``). ``score``, ``score_multi`` and the
aggregator give rouge_score's numbers bit for bit, with or without stemming, with its tokenizer
or a custom one (whose tokens may be any hashable, as in rouge_score). What differs:

- ``split_summaries=True``: rouge_score splits sentences with NLTK's punkt model (a separate
  download); this splits them offline with rouge_plus's rule-based splitter
  (``split_sentences="rules"``). Both end a sentence at ". ", "! " and "? " and keep "Mr." or
  "e.g." inside one, but they can disagree on harder cases, and the rules also end a sentence at
  every line break, which punkt does not; where they split alike, ROUGE-Lsum is the same.
  ``split_summaries=False`` (the default, one sentence per line) is exactly rouge_score's.
- Added: ``RougeScorer.score_batch(targets, predictions)`` scores whole lists in one rouge_plus
  call, far faster than a loop over ``score``; ``BootstrapAggregator(seed=...)`` resamples from
  its own generator (see ``scoring``).
- rouge_score's private helpers that real code calls are in ``rouge_scorer`` too, with the same
  numbers: ``_score_lcs`` (Alpaca's dedupe loop), ``_lcs_table``, ``lcs_ind``, ``_find_union``,
  ``_union_lcs``, ``_summary_level_lcs``, ``_create_ngrams``, ``_score_ngrams``; and a scorer's
  ``_tokenizer``. Not provided: ``_backtrack_norec``, its ``io`` module (CSV files in and out)
  and its ``rouge`` command line (after ``rouge_plus.compat.install()``, ``import rouge_score.io``
  gives rouge_score's own, run on this drop-in, where rouge_score is installed).
- Bytes texts: rouge_score lowercases them before decoding for ``rouge1``..``rougeL`` (so "İ"
  and the Kelvin sign separate tokens) but decodes them first for ``rougeLsum`` (where they
  lowercase to "i" and "k"); the shim reads them the first way for every type, and hands them
  to a custom tokenizer decoded.
- With a custom tokenizer, texts that have characters but no tokens make rouge_plus log and
  emit one warning per call; rouge_score scores them 0 silently, as the shim does with its own
  tokenizer.
- A zero score is the float ``0.0`` where rouge_score sometimes gives the int ``0`` (equal).
"""
