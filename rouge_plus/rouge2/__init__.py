"""ROUGE 2.0's resources: synonym sources for the "+synonyms" types and the part-of-speech
tagger that picks topic words."""
