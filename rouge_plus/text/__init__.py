"""From text to token ids: tokenizers and sentence splitters chosen by name, stemming,
stopwords, the encoding into the arrays the kernels read, and the no-tokens warning."""
