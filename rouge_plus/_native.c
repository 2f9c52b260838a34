/*
 * rouge_plus._native: the hot loops of rouge_plus, in C.
 *
 * Two pieces, both exact re-statements of the pure-Python reference code:
 *   - Vocabulary.encode: texts to token ids. A str item is tokenized here with rouge_score's rule
 *     (lowercased runs of [a-z0-9]; every other code point separates tokens; "\n" ends a
 *     sentence). The caller only passes str items for which that rule is the chosen tokenizer's
 *     result; anything else arrives pre-tokenized as a list of sentences of str tokens.
 *   - count_pairs: for every (prediction, reference) document pair and every requested measure,
 *     the hit count and the two bases (rouge_plus/counting.py documents the contract). It runs
 *     without the GIL, on buffers only.
 *
 * Mirrors: kernels/ngram.py (clipped n-gram overlap), kernels/lcs.py (bit-parallel LCS of
 * Allison-Dix/Hyyro, the traceback rouge_score walks, and the clipped summary-level union LCS).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ growable buffers */

typedef struct {
    char *data;
    Py_ssize_t len; /* bytes used */
    Py_ssize_t cap; /* bytes allocated */
} Buffer;

static int buffer_reserve(Buffer *b, Py_ssize_t extra)
{
    if (b->len + extra <= b->cap)
        return 0;
    Py_ssize_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra)
        cap *= 2;
    char *data = realloc(b->data, (size_t)cap);
    if (!data)
        return -1;
    b->data = data;
    b->cap = cap;
    return 0;
}

static int buffer_append(Buffer *b, const void *src, Py_ssize_t n)
{
    if (buffer_reserve(b, n) < 0)
        return -1;
    memcpy(b->data + b->len, src, (size_t)n);
    b->len += n;
    return 0;
}

static int buffer_push_i32(Buffer *b, int32_t v) { return buffer_append(b, &v, sizeof v); }
static int buffer_push_i64(Buffer *b, int64_t v) { return buffer_append(b, &v, sizeof v); }

static void buffer_free(Buffer *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

/* ------------------------------------------------------------------ Vocabulary */

typedef struct {
    PyObject_HEAD
    uint64_t *slot_hash; /* open addressing, linear probing */
    int32_t *slot_id;    /* -1 marks an empty slot */
    Py_ssize_t n_slots;  /* a power of two */
    Py_ssize_t n_words;
    Buffer text;    /* the words' UTF-8 bytes, back to back */
    Buffer offsets; /* int64 start of each word in text, plus one end offset */
} Vocabulary;

static uint64_t hash_bytes(const char *s, Py_ssize_t n)
{
    uint64_t h = 1469598103934665603ULL; /* FNV-1a */
    for (Py_ssize_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211ULL;
    }
    return h ^ (h >> 29);
}

static int vocabulary_grow(Vocabulary *v)
{
    Py_ssize_t n_slots = v->n_slots ? v->n_slots * 2 : 1024;
    uint64_t *hashes = malloc(sizeof(uint64_t) * (size_t)n_slots);
    int32_t *ids = malloc(sizeof(int32_t) * (size_t)n_slots);
    if (!hashes || !ids) {
        free(hashes);
        free(ids);
        return -1;
    }
    memset(ids, -1, sizeof(int32_t) * (size_t)n_slots);
    for (Py_ssize_t i = 0; i < v->n_slots; i++) {
        if (v->slot_id[i] < 0)
            continue;
        Py_ssize_t j = (Py_ssize_t)(v->slot_hash[i] & (uint64_t)(n_slots - 1));
        while (ids[j] >= 0)
            j = (j + 1) & (n_slots - 1);
        hashes[j] = v->slot_hash[i];
        ids[j] = v->slot_id[i];
    }
    free(v->slot_hash);
    free(v->slot_id);
    v->slot_hash = hashes;
    v->slot_id = ids;
    v->n_slots = n_slots;
    return 0;
}

/* The id of a word, adding it when new; -1 on memory error. */
static int32_t vocabulary_id(Vocabulary *v, const char *s, Py_ssize_t n)
{
    if (2 * (v->n_words + 1) > v->n_slots && vocabulary_grow(v) < 0)
        return -1;
    uint64_t h = hash_bytes(s, n);
    Py_ssize_t mask = v->n_slots - 1;
    Py_ssize_t j = (Py_ssize_t)(h & (uint64_t)mask);
    const int64_t *offsets = (const int64_t *)v->offsets.data;
    while (v->slot_id[j] >= 0) {
        if (v->slot_hash[j] == h) {
            int32_t id = v->slot_id[j];
            int64_t start = offsets[id], end = offsets[id + 1];
            if (end - start == n && memcmp(v->text.data + start, s, (size_t)n) == 0)
                return id;
        }
        j = (j + 1) & mask;
    }
    if (v->n_words >= INT32_MAX - 1)
        return -1;
    if (buffer_append(&v->text, s, n) < 0 || buffer_push_i64(&v->offsets, v->text.len) < 0)
        return -1;
    v->slot_hash[j] = h;
    v->slot_id[j] = (int32_t)v->n_words;
    return (int32_t)v->n_words++;
}

static int vocabulary_init(Vocabulary *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "", kwlist))
        return -1;
    if (self->offsets.len == 0 && buffer_push_i64(&self->offsets, 0) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void vocabulary_dealloc(Vocabulary *self)
{
    free(self->slot_hash);
    free(self->slot_id);
    buffer_free(&self->text);
    buffer_free(&self->offsets);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

typedef struct {
    Buffer ids;       /* int32 token ids */
    Buffer sentences; /* int64 token offset of each sentence start, plus the end */
    Buffer documents; /* int64 sentence offset of each document start, plus the end */
} Encoded;

static int encoded_close_sentence(Encoded *e, int64_t *sentence_start)
{
    int64_t here = e->ids.len / (Py_ssize_t)sizeof(int32_t);
    if (here == *sentence_start)
        return 0; /* empty sentences carry no tokens and change no score */
    *sentence_start = here;
    return buffer_push_i64(&e->sentences, here);
}

static inline int ascii_token_char(Py_UCS4 c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z');
}

/* rouge_score's rule on a str: lowercased ASCII letter/digit runs; "\n" ends a sentence. */
static int encode_text(Vocabulary *v, Encoded *e, PyObject *text, int split_newlines,
                       int64_t *sentence_start)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    char word[256];
    Buffer long_word = {0};
    Py_ssize_t i = 0;
    int status = 0;
    while (i < n) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (!ascii_token_char(c)) {
            if (c == '\n' && split_newlines && encoded_close_sentence(e, sentence_start) < 0)
                goto fail;
            i++;
            continue;
        }
        Py_ssize_t start = i;
        while (i < n && ascii_token_char(PyUnicode_READ(kind, data, i)))
            i++;
        Py_ssize_t length = i - start;
        char *out = word;
        if (length > (Py_ssize_t)sizeof word) {
            long_word.len = 0;
            if (buffer_reserve(&long_word, length) < 0)
                goto fail;
            out = long_word.data;
        }
        for (Py_ssize_t k = 0; k < length; k++) {
            Py_UCS4 ch = PyUnicode_READ(kind, data, start + k);
            out[k] = (char)(ch >= 'A' && ch <= 'Z' ? ch + 32 : ch);
        }
        int32_t id = vocabulary_id(v, out, length);
        if (id < 0 || buffer_push_i32(&e->ids, id) < 0)
            goto fail;
    }
    goto done;
fail:
    status = -1;
done:
    buffer_free(&long_word);
    return status;
}

/* A pre-tokenized item: a list of sentences, each a list of str tokens. */
static int encode_tokens(Vocabulary *v, Encoded *e, PyObject *sentences, int64_t *sentence_start)
{
    PyObject *fast = PySequence_Fast(sentences, "pre-tokenized text must be a list of sentences");
    if (!fast)
        return -1;
    for (Py_ssize_t s = 0; s < PySequence_Fast_GET_SIZE(fast); s++) {
        PyObject *tokens =
            PySequence_Fast(PySequence_Fast_GET_ITEM(fast, s), "a sentence must be a list of str");
        if (!tokens) {
            Py_DECREF(fast);
            return -1;
        }
        for (Py_ssize_t t = 0; t < PySequence_Fast_GET_SIZE(tokens); t++) {
            PyObject *token = PySequence_Fast_GET_ITEM(tokens, t);
            Py_ssize_t length;
            const char *utf8 = PyUnicode_Check(token) ? PyUnicode_AsUTF8AndSize(token, &length) : NULL;
            if (!utf8) {
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_TypeError, "tokens must be str");
                Py_DECREF(tokens);
                Py_DECREF(fast);
                return -1;
            }
            int32_t id = vocabulary_id(v, utf8, length);
            if (id < 0 || buffer_push_i32(&e->ids, id) < 0) {
                Py_DECREF(tokens);
                Py_DECREF(fast);
                PyErr_NoMemory();
                return -1;
            }
        }
        Py_DECREF(tokens);
        if (encoded_close_sentence(e, sentence_start) < 0) {
            Py_DECREF(fast);
            PyErr_NoMemory();
            return -1;
        }
    }
    Py_DECREF(fast);
    return 0;
}

static PyObject *buffer_to_bytes(Buffer *b)
{
    return PyBytes_FromStringAndSize(b->data ? b->data : "", b->len);
}

PyDoc_STRVAR(vocabulary_encode_doc,
             "encode(items, split_newlines) -> (ids, sentence_offsets, document_offsets)\n\n"
             "Each item is a str (tokenized here with rouge_score's rule) or a list of sentences of\n"
             "str tokens. Returns bytes of int32 token ids, int64 token offsets of sentences and\n"
             "int64 sentence offsets of documents. Empty sentences are dropped.");

static PyObject *vocabulary_encode(Vocabulary *self, PyObject *args)
{
    PyObject *items;
    int split_newlines;
    if (!PyArg_ParseTuple(args, "Op", &items, &split_newlines))
        return NULL;
    PyObject *fast = PySequence_Fast(items, "items must be a list");
    if (!fast)
        return NULL;
    Encoded e = {{0}, {0}, {0}};
    PyObject *result = NULL;
    int64_t sentence_start = 0;
    if (buffer_push_i64(&e.sentences, 0) < 0 || buffer_push_i64(&e.documents, 0) < 0)
        goto nomemory;
    for (Py_ssize_t d = 0; d < PySequence_Fast_GET_SIZE(fast); d++) {
        PyObject *item = PySequence_Fast_GET_ITEM(fast, d);
        if (PyUnicode_Check(item)) {
            if (encode_text(self, &e, item, split_newlines, &sentence_start) < 0)
                goto nomemory;
            if (encoded_close_sentence(&e, &sentence_start) < 0)
                goto nomemory;
        } else if (encode_tokens(self, &e, item, &sentence_start) < 0) {
            goto done;
        }
        if (buffer_push_i64(&e.documents, e.sentences.len / (Py_ssize_t)sizeof(int64_t) - 1) < 0)
            goto nomemory;
    }
    result = Py_BuildValue("(NNN)", buffer_to_bytes(&e.ids), buffer_to_bytes(&e.sentences),
                           buffer_to_bytes(&e.documents));
    goto done;
nomemory:
    PyErr_NoMemory();
done:
    buffer_free(&e.ids);
    buffer_free(&e.sentences);
    buffer_free(&e.documents);
    Py_DECREF(fast);
    return result;
}

PyDoc_STRVAR(vocabulary_words_doc, "words() -> list of the vocabulary's words, by id.");

static PyObject *vocabulary_words(Vocabulary *self, PyObject *Py_UNUSED(ignored))
{
    PyObject *words = PyList_New(self->n_words);
    if (!words)
        return NULL;
    const int64_t *offsets = (const int64_t *)self->offsets.data;
    for (Py_ssize_t i = 0; i < self->n_words; i++) {
        PyObject *word = PyUnicode_DecodeUTF8(self->text.data + offsets[i],
                                              (Py_ssize_t)(offsets[i + 1] - offsets[i]), "surrogatepass");
        if (!word) {
            Py_DECREF(words);
            return NULL;
        }
        PyList_SET_ITEM(words, i, word);
    }
    return words;
}

static Py_ssize_t vocabulary_len(Vocabulary *self) { return self->n_words; }

static PyMethodDef vocabulary_methods[] = {
    {"encode", (PyCFunction)vocabulary_encode, METH_VARARGS, vocabulary_encode_doc},
    {"words", (PyCFunction)vocabulary_words, METH_NOARGS, vocabulary_words_doc},
    {NULL, NULL, 0, NULL},
};

static PySequenceMethods vocabulary_as_sequence = {.sq_length = (lenfunc)vocabulary_len};

static PyTypeObject VocabularyType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "rouge_plus._native.Vocabulary",
    .tp_doc = PyDoc_STR("Words to dense int32 ids, for one scoring call."),
    .tp_basicsize = sizeof(Vocabulary),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)vocabulary_init,
    .tp_dealloc = (destructor)vocabulary_dealloc,
    .tp_methods = vocabulary_methods,
    .tp_as_sequence = &vocabulary_as_sequence,
};

/* ------------------------------------------------------------------ counting */

enum { KIND_NGRAM = 0, KIND_LCS = 1, KIND_SUMMARY_LCS = 2 };

typedef struct {
    const int32_t *ids;
    const int64_t *sentences;
    const int64_t *documents;
} Corpus;

typedef struct {
    /* Per-word scratch, valid where stamp[id] == current: reset in O(1) per use. */
    uint32_t *stamp;
    int32_t *value_a;
    int32_t *value_b;
    uint32_t current;
    /* Remaining unigram counts of both texts for ROUGE-Lsum, with a generation of their own. */
    uint32_t *count_stamp;
    int32_t *left_ref;
    int32_t *left_pred;
    uint32_t count_current;
    Py_ssize_t vocab_size;
    Buffer scratch_a; /* bit masks / n-gram hash tables */
    Buffer scratch_b; /* LCS column vectors */
    Buffer scratch_c; /* union marks */
} Workspace;

static int workspace_init(Workspace *w, Py_ssize_t vocab_size)
{
    memset(w, 0, sizeof *w);
    size_t n = (size_t)(vocab_size > 0 ? vocab_size : 1);
    w->vocab_size = vocab_size;
    w->stamp = calloc(n, sizeof(uint32_t));
    w->value_a = malloc(n * sizeof(int32_t));
    w->value_b = malloc(n * sizeof(int32_t));
    w->count_stamp = calloc(n, sizeof(uint32_t));
    w->left_ref = malloc(n * sizeof(int32_t));
    w->left_pred = malloc(n * sizeof(int32_t));
    return (w->stamp && w->value_a && w->value_b && w->count_stamp && w->left_ref && w->left_pred)
               ? 0
               : -1;
}

static void workspace_free(Workspace *w)
{
    free(w->stamp);
    free(w->value_a);
    free(w->value_b);
    free(w->count_stamp);
    free(w->left_ref);
    free(w->left_pred);
    buffer_free(&w->scratch_a);
    buffer_free(&w->scratch_b);
    buffer_free(&w->scratch_c);
}

static void workspace_next(Workspace *w)
{
    if (++w->current == 0) { /* wrapped: clear once every 2^32 uses */
        memset(w->stamp, 0, (size_t)w->vocab_size * sizeof(uint32_t));
        w->current = 1;
    }
}

static inline int32_t *workspace_slot(Workspace *w, int32_t id, int32_t *value, int32_t initial)
{
    if (w->stamp[id] != w->current) {
        w->stamp[id] = w->current;
        w->value_a[id] = initial;
        w->value_b[id] = initial;
    }
    return value + id;
}

static void *scratch(Buffer *b, size_t bytes)
{
    b->len = 0;
    if (buffer_reserve(b, (Py_ssize_t)bytes) < 0)
        return NULL;
    return b->data;
}

/* Clipped overlap of unigrams. */
static int64_t unigram_hits(Workspace *w, const int32_t *pred, int64_t n_pred, const int32_t *ref,
                            int64_t n_ref)
{
    workspace_next(w);
    for (int64_t i = 0; i < n_ref; i++)
        (*workspace_slot(w, ref[i], w->value_a, 0))++;
    int64_t hits = 0;
    for (int64_t j = 0; j < n_pred; j++) {
        int32_t *left = workspace_slot(w, pred[j], w->value_a, 0);
        if (*left > 0) {
            (*left)--;
            hits++;
        }
    }
    return hits;
}

static inline uint64_t hash_ngram(const int32_t *gram, int n)
{
    uint64_t h = 0x9E3779B97F4A7C15ULL;
    for (int k = 0; k < n; k++) {
        h ^= (uint64_t)(uint32_t)gram[k];
        h *= 0xBF58476D1CE4E5B9ULL;
        h ^= h >> 31;
    }
    return h;
}

typedef struct {
    int64_t start; /* position of the n-gram in ref; -1 when empty */
    int64_t left;  /* unmatched occurrences */
} GramSlot;

/* Clipped overlap of n-grams (n >= 2): ref's n-grams in a hash table, consumed by pred's. */
static int ngram_hits(Workspace *w, int n, const int32_t *pred, int64_t n_pred, const int32_t *ref,
                      int64_t n_ref, int64_t *hits_out)
{
    int64_t grams_ref = n_ref - n + 1, grams_pred = n_pred - n + 1;
    *hits_out = 0;
    if (grams_ref <= 0 || grams_pred <= 0)
        return 0;
    int64_t n_slots = 16;
    while (n_slots < 2 * grams_ref)
        n_slots *= 2;
    GramSlot *table = scratch(&w->scratch_a, (size_t)n_slots * sizeof(GramSlot));
    if (!table)
        return -1;
    for (int64_t s = 0; s < n_slots; s++)
        table[s].start = -1;
    const size_t gram_bytes = (size_t)n * sizeof(int32_t);
    for (int64_t i = 0; i < grams_ref; i++) {
        int64_t s = (int64_t)(hash_ngram(ref + i, n) & (uint64_t)(n_slots - 1));
        while (table[s].start >= 0 && memcmp(ref + table[s].start, ref + i, gram_bytes) != 0)
            s = (s + 1) & (n_slots - 1);
        if (table[s].start < 0) {
            table[s].start = i;
            table[s].left = 0;
        }
        table[s].left++;
    }
    int64_t hits = 0;
    for (int64_t j = 0; j < grams_pred; j++) {
        int64_t s = (int64_t)(hash_ngram(pred + j, n) & (uint64_t)(n_slots - 1));
        while (table[s].start >= 0) {
            if (memcmp(ref + table[s].start, pred + j, gram_bytes) == 0) {
                if (table[s].left > 0) {
                    table[s].left--;
                    hits++;
                }
                break;
            }
            s = (s + 1) & (n_slots - 1);
        }
    }
    *hits_out = hits;
    return 0;
}

/*
 * Match masks of ref for the bit-parallel LCS: for each distinct word of ref, the set of its
 * positions, as n_words 64-bit words. value_b[id] holds the word's row in the mask table.
 */
static uint64_t *build_masks(Workspace *w, const int32_t *ref, int64_t m, int64_t n_words)
{
    workspace_next(w);
    int32_t distinct = 0;
    for (int64_t i = 0; i < m; i++) {
        int32_t *row = workspace_slot(w, ref[i], w->value_b, -1);
        if (*row < 0)
            *row = distinct++;
    }
    uint64_t *masks = scratch(&w->scratch_a, (size_t)distinct * (size_t)n_words * sizeof(uint64_t));
    if (!masks)
        return NULL;
    memset(masks, 0, (size_t)distinct * (size_t)n_words * sizeof(uint64_t));
    for (int64_t i = 0; i < m; i++)
        masks[(int64_t)w->value_b[ref[i]] * n_words + i / 64] |= 1ULL << (i % 64);
    return masks;
}

/* One Hyyro step: column = (column + u) | (column & ~u), u = column & match, with carries. */
static inline void lcs_step(uint64_t *column, const uint64_t *match, int64_t n_words)
{
    unsigned carry = 0;
    for (int64_t k = 0; k < n_words; k++) {
        uint64_t v = column[k], u = v & match[k];
        unsigned __int128 sum = (unsigned __int128)v + u + carry;
        carry = (unsigned)(sum >> 64);
        column[k] = (uint64_t)sum | (v & ~u);
    }
}

static inline uint64_t last_word_mask(int64_t m)
{
    return (m % 64) ? ((1ULL << (m % 64)) - 1) : ~0ULL;
}

static inline const uint64_t *match_of(Workspace *w, const uint64_t *masks, int32_t id, int64_t n_words)
{
    if (w->stamp[id] != w->current || w->value_b[id] < 0)
        return NULL;
    return masks + (int64_t)w->value_b[id] * n_words;
}

static int lcs_length(Workspace *w, const int32_t *ref, int64_t m, const int32_t *pred, int64_t n,
                      int64_t *out)
{
    *out = 0;
    if (m == 0 || n == 0)
        return 0;
    int64_t n_words = (m + 63) / 64;
    uint64_t *masks = build_masks(w, ref, m, n_words);
    uint64_t *column = scratch(&w->scratch_b, (size_t)n_words * sizeof(uint64_t));
    if (!masks || !column)
        return -1;
    memset(column, 0xff, (size_t)n_words * sizeof(uint64_t));
    for (int64_t j = 0; j < n; j++) {
        const uint64_t *match = match_of(w, masks, pred[j], n_words);
        if (match)
            lcs_step(column, match, n_words);
    }
    column[n_words - 1] &= last_word_mask(m);
    int64_t ones = 0;
    for (int64_t k = 0; k < n_words; k++)
        ones += __builtin_popcountll(column[k]);
    *out = m - ones;
    return 0;
}

/* Mark in `marks` the ref positions on the LCS path rouge_score's traceback walks. */
static int mark_lcs_path(Workspace *w, const uint64_t *masks, const int32_t *ref, int64_t m,
                         const int32_t *pred, int64_t n, int64_t n_words, unsigned char *marks)
{
    uint64_t *columns = scratch(&w->scratch_b, (size_t)(n + 1) * (size_t)n_words * sizeof(uint64_t));
    if (!columns)
        return -1;
    memset(columns, 0xff, (size_t)n_words * sizeof(uint64_t));
    for (int64_t j = 1; j <= n; j++) {
        uint64_t *column = columns + j * n_words;
        memcpy(column, column - n_words, (size_t)n_words * sizeof(uint64_t));
        const uint64_t *match = match_of(w, masks, pred[j - 1], n_words);
        if (match)
            lcs_step(column, match, n_words);
    }
    int64_t i = m, j = n;
    while (i > 0 && j > 0) {
        if (ref[i - 1] == pred[j - 1]) {
            marks[i - 1] = 1;
            i--;
            j--;
        } else if (!((columns[j * n_words + (i - 1) / 64] >> ((i - 1) % 64)) & 1)) {
            /* T grows at row i of column j, so T[i][j-1] = T[i][j] > T[i-1][j]: go left. */
            j--;
        } else {
            i--;
        }
    }
    return 0;
}

/* Summary-level union LCS hits, clipped by the unigram counts of both texts (ROUGE-Lsum). */
static int summary_lcs_hits(Workspace *w, const Corpus *c, int64_t pred_doc, int64_t ref_doc,
                            int64_t *out)
{
    *out = 0;
    int64_t p_first = c->documents[pred_doc], p_last = c->documents[pred_doc + 1];
    int64_t r_first = c->documents[ref_doc], r_last = c->documents[ref_doc + 1];
    const int32_t *ids = c->ids;
    int64_t hits = 0;
    if (++w->count_current == 0) {
        memset(w->count_stamp, 0, (size_t)w->vocab_size * sizeof(uint32_t));
        w->count_current = 1;
    }
    int32_t *left_ref = w->left_ref, *left_pred = w->left_pred;
    int64_t r_start = c->sentences[r_first], r_end = c->sentences[r_last];
    int64_t p_start = c->sentences[p_first], p_end = c->sentences[p_last];
    for (int pass = 0; pass < 2; pass++) {
        int64_t start = pass ? p_start : r_start, end = pass ? p_end : r_end;
        for (int64_t t = start; t < end; t++) {
            int32_t token = ids[t];
            if (w->count_stamp[token] != w->count_current) {
                w->count_stamp[token] = w->count_current;
                left_ref[token] = 0;
                left_pred[token] = 0;
            }
            (pass ? left_pred : left_ref)[token]++;
        }
    }
    int status = 0;
    for (int64_t rs = r_first; rs < r_last; rs++) {
        const int32_t *ref = ids + c->sentences[rs];
        int64_t m = c->sentences[rs + 1] - c->sentences[rs];
        if (m == 0)
            continue;
        int64_t n_words = (m + 63) / 64;
        unsigned char *marks = scratch(&w->scratch_c, (size_t)m);
        uint64_t *masks = build_masks(w, ref, m, n_words);
        if (!marks || !masks) {
            status = -1;
            break;
        }
        memset(marks, 0, (size_t)m);
        for (int64_t ps = p_first; ps < p_last; ps++) {
            const int32_t *pred = ids + c->sentences[ps];
            int64_t n = c->sentences[ps + 1] - c->sentences[ps];
            if (n > 0 && mark_lcs_path(w, masks, ref, m, pred, n, n_words, marks) < 0) {
                status = -1;
                break;
            }
        }
        if (status < 0)
            break;
        for (int64_t i = 0; i < m; i++) {
            int32_t token = ref[i];
            if (marks[i] && left_ref[token] > 0 && left_pred[token] > 0) {
                hits++;
                left_ref[token]--;
                left_pred[token]--;
            }
        }
    }
    *out = hits;
    return status;
}

typedef struct {
    int kind;
    int n;
} MeasureSpec;

static int count_one(Workspace *w, const Corpus *c, MeasureSpec spec, int64_t pred_doc,
                     int64_t ref_doc, double *hit, double *pred_base, double *ref_base)
{
    int64_t p0 = c->sentences[c->documents[pred_doc]], p1 = c->sentences[c->documents[pred_doc + 1]];
    int64_t r0 = c->sentences[c->documents[ref_doc]], r1 = c->sentences[c->documents[ref_doc + 1]];
    const int32_t *pred = c->ids + p0, *ref = c->ids + r0;
    int64_t n_pred = p1 - p0, n_ref = r1 - r0, hits = 0;
    int status = 0;
    switch (spec.kind) {
    case KIND_NGRAM:
        if (spec.n == 1)
            hits = unigram_hits(w, pred, n_pred, ref, n_ref);
        else
            status = ngram_hits(w, spec.n, pred, n_pred, ref, n_ref, &hits);
        *pred_base = (double)(n_pred - spec.n + 1 > 0 ? n_pred - spec.n + 1 : 0);
        *ref_base = (double)(n_ref - spec.n + 1 > 0 ? n_ref - spec.n + 1 : 0);
        break;
    case KIND_LCS:
        status = lcs_length(w, ref, n_ref, pred, n_pred, &hits);
        *pred_base = (double)n_pred;
        *ref_base = (double)n_ref;
        break;
    case KIND_SUMMARY_LCS:
        status = summary_lcs_hits(w, c, pred_doc, ref_doc, &hits);
        *pred_base = (double)n_pred;
        *ref_base = (double)n_ref;
        break;
    default:
        return -2;
    }
    *hit = (double)hits;
    return status;
}

static int get_buffer(PyObject *obj, Py_buffer *view, Py_ssize_t item, const char *name)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS) < 0)
        return -1;
    if (view->len % item) {
        PyErr_Format(PyExc_ValueError, "%s: buffer size is not a multiple of %zd", name, item);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

PyDoc_STRVAR(count_pairs_doc,
             "count_pairs(ids, sentences, documents, pred_docs, ref_docs, measures, vocab_size)\n\n"
             "ids: int32 token ids; sentences: int64 token offsets; documents: int64 sentence\n"
             "offsets; pred_docs, ref_docs: int64 document index of each pair; measures: list of\n"
             "(kind, n) with kind 0 = n-gram, 1 = LCS, 2 = summary-level LCS. Returns bytes of\n"
             "float64 shaped (len(measures), 3, n_pairs): hit, pred_base, ref_base.");

static PyObject *count_pairs(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *o_ids, *o_sent, *o_docs, *o_pred, *o_ref, *o_measures;
    Py_ssize_t vocab_size;
    if (!PyArg_ParseTuple(args, "OOOOOOn", &o_ids, &o_sent, &o_docs, &o_pred, &o_ref, &o_measures,
                          &vocab_size))
        return NULL;
    Py_buffer ids = {0}, sent = {0}, docs = {0}, pred = {0}, ref = {0};
    PyObject *result = NULL;
    MeasureSpec *specs = NULL;
    if (get_buffer(o_ids, &ids, 4, "ids") < 0)
        return NULL;
    if (get_buffer(o_sent, &sent, 8, "sentences") < 0)
        goto release;
    if (get_buffer(o_docs, &docs, 8, "documents") < 0)
        goto release;
    if (get_buffer(o_pred, &pred, 8, "pred_docs") < 0)
        goto release;
    if (get_buffer(o_ref, &ref, 8, "ref_docs") < 0)
        goto release;
    Py_ssize_t n_pairs = pred.len / 8;
    if (ref.len / 8 != n_pairs) {
        PyErr_SetString(PyExc_ValueError, "pred_docs and ref_docs differ in length");
        goto release;
    }
    Py_ssize_t n_docs = docs.len / 8 - 1;
    const int64_t *pred_docs = pred.buf, *ref_docs = ref.buf;
    for (Py_ssize_t k = 0; k < n_pairs; k++) {
        if (pred_docs[k] < 0 || pred_docs[k] >= n_docs || ref_docs[k] < 0 || ref_docs[k] >= n_docs) {
            PyErr_Format(PyExc_IndexError, "pair %zd names a document out of range", k);
            goto release;
        }
    }
    const int32_t *id_data = ids.buf;
    for (Py_ssize_t t = 0; t < ids.len / 4; t++) {
        if (id_data[t] < 0 || id_data[t] >= vocab_size) {
            PyErr_Format(PyExc_ValueError, "token id %d out of range", id_data[t]);
            goto release;
        }
    }
    PyObject *fast = PySequence_Fast(o_measures, "measures must be a list");
    if (!fast)
        goto release;
    Py_ssize_t n_measures = PySequence_Fast_GET_SIZE(fast);
    specs = calloc((size_t)(n_measures ? n_measures : 1), sizeof(MeasureSpec));
    if (!specs) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        goto release;
    }
    for (Py_ssize_t k = 0; k < n_measures; k++) {
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, k), "ii", &specs[k].kind, &specs[k].n)) {
            Py_DECREF(fast);
            goto release;
        }
        if (specs[k].kind < 0 || specs[k].kind > 2 || (specs[k].kind == KIND_NGRAM && specs[k].n < 1)) {
            PyErr_Format(PyExc_ValueError, "measure %zd: unknown kind or n", k);
            Py_DECREF(fast);
            goto release;
        }
    }
    Py_DECREF(fast);
    result = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(n_measures * 3 * n_pairs * sizeof(double)));
    if (!result)
        goto release;
    double *out = (double *)PyBytes_AS_STRING(result);
    Corpus corpus = {ids.buf, sent.buf, docs.buf};
    Workspace w;
    int status = 0;
    Py_BEGIN_ALLOW_THREADS
    if (workspace_init(&w, vocab_size) < 0) {
        status = -1;
    } else {
        for (Py_ssize_t k = 0; k < n_pairs && status == 0; k++) {
            for (Py_ssize_t m = 0; m < n_measures && status == 0; m++) {
                double *row = out + m * 3 * n_pairs;
                status = count_one(&w, &corpus, specs[m], pred_docs[k], ref_docs[k], row + k,
                                   row + n_pairs + k, row + 2 * n_pairs + k);
            }
        }
    }
    workspace_free(&w);
    Py_END_ALLOW_THREADS
    if (status < 0) {
        Py_CLEAR(result);
        PyErr_NoMemory();
    }
release:
    free(specs);
    if (ids.obj)
        PyBuffer_Release(&ids);
    if (sent.obj)
        PyBuffer_Release(&sent);
    if (docs.obj)
        PyBuffer_Release(&docs);
    if (pred.obj)
        PyBuffer_Release(&pred);
    if (ref.obj)
        PyBuffer_Release(&ref);
    return result;
}

static PyMethodDef module_methods[] = {
    {"count_pairs", count_pairs, METH_VARARGS, count_pairs_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef native_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "rouge_plus._native",
    .m_doc = "Compiled kernels of rouge_plus (tokenizing ASCII text, counting overlaps).",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__native(void)
{
    if (PyType_Ready(&VocabularyType) < 0)
        return NULL;
    PyObject *module = PyModule_Create(&native_module);
    if (!module)
        return NULL;
    Py_INCREF(&VocabularyType);
    if (PyModule_AddObject(module, "Vocabulary", (PyObject *)&VocabularyType) < 0) {
        Py_DECREF(&VocabularyType);
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
