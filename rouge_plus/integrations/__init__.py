"""Scoring where the data already is: Hugging Face ``datasets`` columns (``hf_datasets``) and a
``Seq2SeqTrainer``'s ``compute_metrics`` (``trainer``)."""
