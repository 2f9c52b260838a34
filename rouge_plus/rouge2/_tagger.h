/*
 * What the files of rouge_plus.rouge2._tagger share: the model's types and the look-up of a
 * feature's record (inlined where it is hot). _tagger_model.c loads the model; _tagger_inference.c
 * tags (features, caches, the perceptron's sums); _tagger.c is the module: the Model type's
 * methods, the topic filter and the ASCII word runs.
 */
#ifndef ROUGE_PLUS_TAGGER_H
#define ROUGE_PLUS_TAGGER_H

#include "../_compiled/common.h"

/* buffer_reserve with MemoryError set on failure (the tagger always holds the GIL). */
static inline int reserve_or_raise(Buffer *b, Py_ssize_t extra)
{
    if (buffer_reserve(b, extra) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ the model */

/*
 * The hash of a feature's key or of a word, for the model's tables and the word cache: 8 bytes
 * at a time, mixed as the hashes of integers are (common.h), then finished. Unkeyed: the keyed
 * fast hash of common.h costs the tagger about 5% more time (measured on the bench corpus).
 */
static inline uint64_t key_hash(const char *s, Py_ssize_t n)
{
    uint64_t h = 0x243F6A8885A308D3ULL ^ ((uint64_t)n * 0x9E3779B97F4A7C15ULL);
    Py_ssize_t whole = n & ~(Py_ssize_t)7;
    for (Py_ssize_t i = 0; i < whole; i += 8)
        h = hash_mix(h, load64(s + i));
    h = (h ^ partial_chunk(s + whole, n - whole)) * 0x94D049BB133111EBULL;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ULL;
    return h ^ (h >> 32);
}

typedef struct {
    const char *s;
    Py_ssize_t n;
} View;

/*
 * Feature records, back to back in one block, each 8-byte aligned: a RecordHead, the key's bytes
 * (padded), then either the weights (float64) and their classes (uint16), or, for a feature with
 * many weights (DENSE), one float64 per class, zeros included, which adds faster (and gives the
 * same sums: adding 0.0 changes no score). A slot of the hash table holds the high 32 bits of the
 * key's hash and the record's offset / 8 + 1 (0: empty), so that a look-up reads one slot and
 * one record.
 */
typedef struct RecordHead_ {
    uint32_t key_len;
    uint32_t n_weights; /* DENSE: n_classes weights */
} RecordHead;

#define DENSE 0xFFFFFFFFu
#define DENSE_FROM 12 /* weights above which a feature is stored dense */

static inline Py_ssize_t pad8(Py_ssize_t n) { return (n + 7) & ~(Py_ssize_t)7; }

/*
 * A cache of look-ups by spelled word (_tagger_inference.c): its tag dictionary entry, and the
 * records of the features built from the word alone: those of its shape seen from each
 * neighbour (the shape follows from the spelled word), then "i suffix" and "i pref1".
 */
enum { I_WORD, I1_WORD, I2_WORD, J1_WORD, J2_WORD, I1_SUFFIX, J1_SUFFIX, SHAPE_RECORDS };
enum { SUFFIX = SHAPE_RECORDS, PREF1, WORD_RECORDS };

struct TagEntry_;

typedef struct {
    Py_ssize_t key_at, key_len;
    Py_ssize_t index; /* its place in the cache's entries */
    const struct TagEntry_ *tag;
    const RecordHead *records[WORD_RECORDS];
} WordEntry;

typedef struct WordCache_ WordCache;

/* Entries of a word cache; it starts over beyond (the tests lower it: _set_word_cache_limit). */
HIDDEN extern Py_ssize_t word_cache_limit;

/* A word of the tag dictionary (a tag that is not a class has cls -1). */
typedef struct TagEntry_ {
    Py_ssize_t key_at, key_len;
    PyObject *tag; /* held by the model's copy of the dictionary */
    int cls;
    View view; /* the tag's bytes */
} TagEntry;

typedef struct {
    PyObject_HEAD
    Py_ssize_t n_classes;
    PyObject *classes; /* tuple of str, sorted */
    View *class_names; /* their bytes */
    PyObject *tagdict; /* a copy of the dict word -> tag */
    Py_ssize_t n_slots; /* a power of two */
    uint64_t *slots;
    Buffer records;
    /* the tag dictionary's words, looked up by their bytes like the features */
    Py_ssize_t n_tag_slots;
    uint64_t *tag_slots; /* 0: empty; else hash high 32 bits << 32 | entry + 1 */
    TagEntry *tag_entries;
    Buffer tag_keys;
    /* Look-ups made once: "bias"; the tag features by tag number (the classes, then -START-
     * and -START2-); and, cached by word, the features of a spelled word and of a word shape. */
    const RecordHead *bias;
    const RecordHead **tag_1, **tag_2, **tag_pair;
    const RecordHead *edge_records[4][SHAPE_RECORDS]; /* -START-, -START2-, -END-, -END2- */
    WordCache *word_cache;
} Model;

/* The slot of a key: its record's, or the empty slot where it would go. */
static inline Py_ssize_t slot_of(const Model *m, const char *key, Py_ssize_t n, uint64_t h)
{
    Py_ssize_t mask = m->n_slots - 1, j = (Py_ssize_t)(h & (uint64_t)mask);
    uint64_t check = h >> 32;
    for (;;) {
        uint64_t slot = m->slots[j];
        if (!slot)
            return j;
        if (slot >> 32 == check) {
            const RecordHead *r =
                (const RecordHead *)(m->records.data + 8 * ((slot & 0xFFFFFFFFu) - 1));
            if ((Py_ssize_t)r->key_len == n && memcmp(r + 1, key, (size_t)n) == 0)
                return j;
        }
        j = (j + 1) & mask;
    }
}

/* The record of a feature, or NULL when the model does not have it. */
static inline const RecordHead *find_feature(const Model *m, const char *key, Py_ssize_t n)
{
    uint64_t slot = m->slots[slot_of(m, key, n, key_hash(key, n))];
    return slot ? (const RecordHead *)(m->records.data + 8 * ((slot & 0xFFFFFFFFu) - 1)) : NULL;
}

/* _tagger_model.c: Model.__init__ (the model's text into records), and its release. */
HIDDEN int model_init(Model *m, PyObject *args, PyObject *kwds);
HIDDEN void model_dealloc(Model *m);

/* ------------------------------------------------------------------ tagging */

/* A word's bytes, with where its last three code points start (Python's word[-3:]). */
typedef struct {
    const char *s;
    Py_ssize_t n, tail;
} Part;

/* A sentence ready to tag: its tokens' spellings and the word shapes of its context. */
typedef struct {
    Py_ssize_t n;          /* tokens */
    PyObject **spelled;    /* n new references */
    PyObject **shape;      /* n + 4 new references: the context, START and END included */
    PyObject **owners;     /* n + 4 byte strings for lone surrogates, or NULL */
    PyObject **word_owner; /* n */
    Part *word;            /* n: the spelled tokens */
    Py_ssize_t *head;      /* n: bytes of each spelled token's first code point */
    Part *context;         /* n + 4 */
} Sentence;

/* A feature key being built: "<prefix><a>[ <b>]". */
typedef Buffer Key;

typedef struct Prediction_ Prediction;

/* The predictions of one call (see Prediction in _tagger_inference.c). */
typedef struct {
    Prediction *slots; /* records[0] == 0 marks an empty slot ("bias" is never NULL) */
    void *block;       /* the allocation slots lie in, aligned to 64 bytes */
    int active;        /* memoising needs a non-NULL bias record and records within 2**35 bytes */
} Memo;

/* Room for the cache entries of a sentence's tokens and the shape records of its context. */
typedef struct {
    Py_ssize_t cap;
    WordEntry *entries;
    const RecordHead *const **shape;
} Shapes;

/* Per-token results of tag_parts, grown as needed. */
typedef struct {
    Py_ssize_t cap;
    int *cls;
    const TagEntry **entry;
    Shapes shapes;
    Memo memo; /* the call's predictions */
} Tags;

/* _tagger_inference.c */

/* The strings the tagger compares tokens with and builds shapes from, interned once; -1 with
 * an exception set on error. */
HIDDEN int tagger_strings_init(void);
/* token.lower(), ASCII without a method call (a new reference, NULL on error). */
HIDDEN PyObject *lowered(PyObject *token);
/* The tag tables and the word cache of a loaded model. */
HIDDEN int build_tag_tables(Model *m);
HIDDEN void cache_free(WordCache *c);
/* Tag a prepared sentence: for each token, its tag dictionary entry (entry[i], or NULL when the
 * tag is predicted) and its class (cls[i]; -1 for a dictionary tag that is no class). */
HIDDEN int tag_parts(Model *m, const Sentence *t, Key *k, double *scores, Shapes *shapes,
                     Memo *memo, int *cls, const TagEntry **entry);
/* tag(tokens): the tags of a list of str, as a new list (NULL on error). */
HIDDEN PyObject *tag_sentence(Model *m, PyObject *tokens, Key *k, double *scores, Tags *g);
HIDDEN int tags_reserve(Tags *g, Py_ssize_t n);
HIDDEN void tags_free(Tags *g);

#endif /* ROUGE_PLUS_TAGGER_H */
