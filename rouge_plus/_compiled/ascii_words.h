/*
 * The ASCII word rule, the one rule by which the compiled code cuts a str into words without
 * Python: a word is a run of [A-Za-z0-9]; every other code point separates words, from 128 up
 * included. Its readers:
 *   - the vocabulary's tokenizer (kernels/_native_vocabulary.c), which is rouge_score's
 *     tokenizer: the words lowercased, and "\n" ends a sentence;
 *   - the tagger's ASCII word runs (rouge2/_tagger.c), which keep the words' case.
 * ascii_lower is the package's one ASCII lowercasing (the tagger's word shapes, the stemmers).
 */
#ifndef ROUGE_PLUS_ASCII_WORDS_H
#define ROUGE_PLUS_ASCII_WORDS_H

#include "common.h"

/* Per code point below 256 (the code points of a one-byte str): the lowercased character inside
 * a word, 0 for a separator. */
static const unsigned char ascii_word_byte[256] = {
    ['0'] = '0', ['1'] = '1', ['2'] = '2', ['3'] = '3', ['4'] = '4',
    ['5'] = '5', ['6'] = '6', ['7'] = '7', ['8'] = '8', ['9'] = '9',
    ['A'] = 'a', ['B'] = 'b', ['C'] = 'c', ['D'] = 'd', ['E'] = 'e', ['F'] = 'f', ['G'] = 'g',
    ['H'] = 'h', ['I'] = 'i', ['J'] = 'j', ['K'] = 'k', ['L'] = 'l', ['M'] = 'm', ['N'] = 'n',
    ['O'] = 'o', ['P'] = 'p', ['Q'] = 'q', ['R'] = 'r', ['S'] = 's', ['T'] = 't', ['U'] = 'u',
    ['V'] = 'v', ['W'] = 'w', ['X'] = 'x', ['Y'] = 'y', ['Z'] = 'z',
    ['a'] = 'a', ['b'] = 'b', ['c'] = 'c', ['d'] = 'd', ['e'] = 'e', ['f'] = 'f', ['g'] = 'g',
    ['h'] = 'h', ['i'] = 'i', ['j'] = 'j', ['k'] = 'k', ['l'] = 'l', ['m'] = 'm', ['n'] = 'n',
    ['o'] = 'o', ['p'] = 'p', ['q'] = 'q', ['r'] = 'r', ['s'] = 's', ['t'] = 't', ['u'] = 'u',
    ['v'] = 'v', ['w'] = 'w', ['x'] = 'x', ['y'] = 'y', ['z'] = 'z',
};

/* A code point's lowercased character when it is part of a word, else 0. */
static inline unsigned char ascii_word_char(Py_UCS4 c) { return c < 256 ? ascii_word_byte[c] : 0; }

/* c lowercased when it is an ASCII capital (str.lower on ASCII), else c. */
static inline Py_UCS4 ascii_lower(Py_UCS4 c) { return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c; }

/* The position of the first word character of text[i:n] (a str's kind and data), n when there is
 * none; *newline is set to 1 when a "\n" is among the separators passed over. */
static inline Py_ssize_t ascii_skip_separators(int kind, const void *data, Py_ssize_t i,
                                               Py_ssize_t n, int *newline)
{
    for (; i < n; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (ascii_word_char(c))
            break;
        if (c == '\n')
            *newline = 1;
    }
    return i;
}

/* The end of the word that starts at text[i] (its first position past i that is no word
 * character, or n). */
static inline Py_ssize_t ascii_word_end(int kind, const void *data, Py_ssize_t i, Py_ssize_t n)
{
    while (i < n && ascii_word_char(PyUnicode_READ(kind, data, i)))
        i++;
    return i;
}

#endif /* ROUGE_PLUS_ASCII_WORDS_H */
