"""Scoring where the data already is: Hugging Face ``datasets`` columns (``hf_datasets``), a
``Seq2SeqTrainer``'s ``compute_metrics`` (``trainer``), a Ray Dataset (``ray_data``) and a Spark
DataFrame (``spark_sql``)."""
