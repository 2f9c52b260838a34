/*
 * rouge_plus.kernels._native, one pair per call: PairScorer scores a prediction against one
 * reference in a single call, from the two str to precision, recall and F, for the callers that
 * score one pair at a time (harness loops, reward functions, the rouge_score drop-in, the Space).
 *
 * It does what Vocabulary.encode, count_pairs and scoring/_scores.c's per_row_scores do for one
 * row, with the same functions, so the numbers are the same; what it saves is their bookkeeping
 * between calls (a vocabulary, bytes objects, buffer requests, the measures parsed again): the
 * measures, the F-measure and the stemmer are resolved when the scorer is built, and its
 * vocabulary and buffers are kept from call to call and emptied after each. A stemming scorer
 * also keeps the stem of every word it has met (StemCache), so a word is stemmed once, not once
 * per call. It holds the GIL: a call that
 * finds the scorer busy (another thread inside it while a stemming callback runs) or texts
 * longer than PAIR_MAX_CHARS returns None, and the caller takes the general path, which
 * releases the GIL while it counts.
 */
#include "_native.h"

#include "../_compiled/fmeasure.h"

/* The longest pair (characters of both texts) scored while holding the GIL: about 10,000 words,
 * well under a millisecond. */
#define PAIR_MAX_CHARS ((Py_ssize_t)1 << 16)

/* The most words a StemCache holds: it is emptied when a pair would take it past this. */
#define STEM_CACHE_WORDS ((Py_ssize_t)1 << 16)

/* The words a stemming scorer has met, each with the id of its stem among the stems met. */
typedef struct {
    PyObject *words;  /* a Vocabulary */
    PyObject *stems;  /* a Vocabulary */
    Buffer stem_of;   /* int32 stem id of each word */
    Buffer pair_id;   /* int32 per stem: its id in the current pair, where stamped */
    Buffer stamp;     /* uint32 per stem */
    uint32_t current; /* the current pair's stamp */
} StemCache;

typedef struct {
    PyObject_HEAD
    MeasureSpec *specs;
    Py_ssize_t n_measures;
    FSpec f;
    PyObject *stem;       /* None, or a callable from a word (str) to its stem (str) */
    PyObject *vocabulary; /* a Vocabulary, empty between calls */
    Encoded encoded;      /* its buffers, kept between calls */
    Buffer stem_ids;      /* int32 per word of the pair: the pair id of its stem */
    StemCache cache;
    double *counts; /* hit, pred_base, ref_base of each measure */
    int busy;
} PairScorer;

static PyObject *new_vocabulary(void) { return PyObject_CallNoArgs((PyObject *)&VocabularyType); }

static void stem_cache_clear(StemCache *c)
{
    vocabulary_clear((Vocabulary *)c->words);
    vocabulary_clear((Vocabulary *)c->stems);
    c->stem_of.len = c->pair_id.len = c->stamp.len = 0;
    c->current = 0;
}

static void stem_cache_free(StemCache *c)
{
    Py_XDECREF(c->words);
    Py_XDECREF(c->stems);
    buffer_free(&c->stem_of);
    buffer_free(&c->pair_id);
    buffer_free(&c->stamp);
}

/* The id of the stem of the UTF-8 word s[0:n] among the stems met, stemming it when it is new;
 * -1 with an exception set. */
static int32_t stem_cache_stem_id(StemCache *c, PyObject *stem, const char *s, Py_ssize_t n)
{
    Vocabulary *words = (Vocabulary *)c->words;
    Py_ssize_t known = vocabulary_size(words);
    int32_t word_id = vocabulary_intern(words, s, n);
    if (word_id < 0) {
        PyErr_NoMemory();
        return -1;
    }
    if (word_id < known)
        return ((const int32_t *)c->stem_of.data)[word_id];
    /* A new word: its stem, added to the stems (the word stays known only with its stem). */
    int32_t stem_id = -1;
    PyObject *word = PyUnicode_DecodeUTF8(s, n, "surrogatepass");
    PyObject *stemmed = word ? PyObject_CallOneArg(stem, word) : NULL;
    Py_XDECREF(word);
    if (stemmed && !PyUnicode_Check(stemmed))
        PyErr_SetString(PyExc_TypeError, "the stemmer must return str");
    else if (stemmed) {
        PyObject *owner = NULL;
        Py_ssize_t length;
        const char *utf8 = utf8_of(stemmed, &length, &owner);
        stem_id = utf8 ? vocabulary_intern((Vocabulary *)c->stems, utf8, length) : -1;
        Py_XDECREF(owner);
        if (utf8 && (stem_id < 0 || buffer_push_i32(&c->stem_of, stem_id) < 0)) {
            stem_id = -1;
            PyErr_NoMemory();
        }
    }
    Py_XDECREF(stemmed);
    if (stem_id < 0)
        stem_cache_clear(c); /* the new word has no stem: forget everything */
    return stem_id;
}

/* Room for the per-stem arrays up to stem_id, new stamps zeroed; -1 on memory error. */
static int stem_cache_room(StemCache *c, int32_t stem_id)
{
    Py_ssize_t need = ((Py_ssize_t)stem_id + 1) * 4;
    if (c->stamp.len >= need)
        return 0;
    if (buffer_reserve(&c->stamp, need - c->stamp.len) < 0 ||
        buffer_reserve(&c->pair_id, need - c->pair_id.len) < 0)
        return -1;
    memset(c->stamp.data + c->stamp.len, 0, (size_t)(need - c->stamp.len));
    c->stamp.len = c->pair_id.len = need;
    return 0;
}

static int pair_scorer_init(PairScorer *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"measures", "f_kind", "c1", "c2", "stem", NULL};
    PyObject *measures, *stem = Py_None;
    FSpec f;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "Oidd|O", kwlist, &measures, &f.kind, &f.c1, &f.c2,
                                     &stem))
        return -1;
    if (!fspec_valid(&f)) {
        PyErr_SetString(PyExc_ValueError, "PairScorer: unknown f_kind");
        return -1;
    }
    if (stem != Py_None && !PyCallable_Check(stem)) {
        PyErr_SetString(PyExc_TypeError, "PairScorer: stem must be callable or None");
        return -1;
    }
    if (self->specs || self->vocabulary) {
        PyErr_SetString(PyExc_RuntimeError, "PairScorer is initialized once");
        return -1;
    }
    Py_ssize_t n_measures = 0;
    MeasureSpec *specs = parse_measures(measures, &n_measures);
    if (!specs)
        return -1;
    self->counts = calloc((size_t)(3 * n_measures + 1), sizeof(double));
    self->vocabulary = new_vocabulary();
    if (stem != Py_None) {
        self->cache.words = new_vocabulary();
        self->cache.stems = new_vocabulary();
    }
    if (!self->counts || !self->vocabulary ||
        (stem != Py_None && (!self->cache.words || !self->cache.stems))) {
        free(specs);
        if (!PyErr_Occurred())
            PyErr_NoMemory();
        return -1;
    }
    self->specs = specs;
    self->n_measures = n_measures;
    self->f = f;
    Py_INCREF(stem);
    self->stem = stem;
    return 0;
}

static void pair_scorer_dealloc(PairScorer *self)
{
    free(self->specs);
    free(self->counts);
    encoded_free(&self->encoded);
    buffer_free(&self->stem_ids);
    stem_cache_free(&self->cache);
    Py_XDECREF(self->stem);
    Py_XDECREF(self->vocabulary);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Replace the pair's word ids by ids of their stems, numbered from 0 in the pair; the pair's
 * vocabulary size becomes the number of its stems. -1 with an exception set. */
static int stem_ids(PairScorer *self, Py_ssize_t *vocab_size)
{
    StemCache *c = &self->cache;
    Vocabulary *pair_words = (Vocabulary *)self->vocabulary;
    Py_ssize_t n_words = vocabulary_size(pair_words);
    if (vocabulary_size((Vocabulary *)c->words) + n_words > STEM_CACHE_WORDS)
        stem_cache_clear(c);
    int32_t *stem_of_word = buffer_scratch(&self->stem_ids, (size_t)(n_words ? n_words : 1) * 4);
    if (!stem_of_word) {
        PyErr_NoMemory();
        return -1;
    }
    c->current = next_stamp((uint32_t *)c->stamp.data, (size_t)(c->stamp.len / 4), c->current);
    int32_t n_stems = 0;
    for (Py_ssize_t w = 0; w < n_words; w++) {
        Py_ssize_t length;
        const char *word = vocabulary_word(pair_words, (int32_t)w, &length);
        int32_t stem_id = stem_cache_stem_id(c, self->stem, word, length);
        if (stem_id < 0)
            return -1;
        if (stem_cache_room(c, stem_id) < 0) {
            PyErr_NoMemory();
            return -1;
        }
        uint32_t *stamp = (uint32_t *)c->stamp.data;
        int32_t *pair_id = (int32_t *)c->pair_id.data;
        if (stamp[stem_id] != c->current) {
            stamp[stem_id] = c->current;
            pair_id[stem_id] = n_stems++;
        }
        stem_of_word[w] = pair_id[stem_id];
    }
    int32_t *ids = (int32_t *)self->encoded.ids.data;
    for (Py_ssize_t t = 0; t < self->encoded.ids.len / 4; t++)
        ids[t] = stem_of_word[ids[t]];
    *vocab_size = n_stems;
    return 0;
}

/* Encode and count the pair into self->counts: 1, 0 when a text has no token, -1 with an
 * exception set. */
static int count_pair(PairScorer *self, PyObject *const *texts)
{
    Encoded *e = &self->encoded;
    Vocabulary *v = (Vocabulary *)self->vocabulary;
    if (vocabulary_encode_strs(v, e, texts, 2, 1) < 0)
        return -1;
    const int64_t *documents = (const int64_t *)e->documents.data;
    if (documents[1] == documents[0] || documents[2] == documents[1])
        return 0;
    Py_ssize_t vocab_size = vocabulary_size(v);
    if (self->stem != Py_None && stem_ids(self, &vocab_size) < 0)
        return -1;
    static const int64_t pred_doc = 0, ref_doc = 1;
    Corpus corpus = {(const int32_t *)e->ids.data, (const int64_t *)e->sentences.data, documents};
    if (count_document_pairs(&corpus, &pred_doc, &ref_doc, 1, self->specs, self->n_measures,
                             vocab_size, self->counts) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return 1;
}

PyDoc_STRVAR(pair_scorer_score_doc,
             "score(prediction, reference) -> list | None\n\n"
             "Precision, recall and F of each measure, one after the other, for the two str.\n"
             "None when a text has no token, when both are longer than the one-pair limit\n"
             "together, or when the scorer is in use by another thread: the general path scores\n"
             "those.");

static PyObject *pair_scorer_score(PairScorer *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "score(prediction, reference)");
        return NULL;
    }
    if (!self->specs) {
        PyErr_SetString(PyExc_RuntimeError, "PairScorer is not initialized");
        return NULL;
    }
    if (!PyUnicode_Check(args[0]) || !PyUnicode_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "score: prediction and reference must be str");
        return NULL;
    }
    if (self->busy || PyUnicode_GET_LENGTH(args[0]) + PyUnicode_GET_LENGTH(args[1]) > PAIR_MAX_CHARS)
        Py_RETURN_NONE;
    self->busy = 1;
    int counted = count_pair(self, args);
    vocabulary_clear((Vocabulary *)self->vocabulary);
    self->busy = 0;
    if (counted <= 0) {
        if (counted < 0)
            return NULL;
        Py_RETURN_NONE;
    }
    PyObject *values = PyList_New(3 * self->n_measures);
    for (Py_ssize_t m = 0; values && m < self->n_measures; m++) {
        const double *c = self->counts + 3 * m;
        double p = ratio(c[0], c[1]), r = ratio(c[0], c[2]);
        double prf[3] = {p, r, f_of(&self->f, p, r)};
        for (int k = 0; k < 3; k++) {
            PyObject *value = PyFloat_FromDouble(prf[k]);
            if (!value) {
                Py_CLEAR(values);
                break;
            }
            PyList_SET_ITEM(values, 3 * m + k, value);
        }
    }
    return values;
}

static PyMethodDef pair_scorer_methods[] = {
    {"score", (PyCFunction)(void (*)(void))pair_scorer_score, METH_FASTCALL, pair_scorer_score_doc},
    {NULL, NULL, 0, NULL},
};

PyTypeObject PairScorerType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "rouge_plus.kernels._native.PairScorer",
    .tp_doc = PyDoc_STR("PairScorer(measures, f_kind, c1, c2, stem=None): one pair per call, from "
                        "str to precision, recall and F (measures as count_pairs takes them, the "
                        "F-measure as per_row_scores does; stem maps a word to its stem)."),
    .tp_basicsize = sizeof(PairScorer),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)pair_scorer_init,
    .tp_dealloc = (destructor)pair_scorer_dealloc,
    .tp_methods = pair_scorer_methods,
};
