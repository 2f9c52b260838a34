/*
 * rouge_plus.rouge2._tagger: the averaged-perceptron part-of-speech tagger's inference, in C.
 *
 * Model(features, weights, classes, tagdict) holds the bundled model (rouge2/pos.py documents
 * the file); Model.tag(tokens) is PerceptronTagger._tag of pos.py restated: the same Penn
 * spellings, word shapes, fourteen features in the same order, the same sums (per class, feature
 * by feature, in float64: adding a missing weight, 0, changes no sum) and the same tie-breaking
 * (the last class with the highest score). Features are looked up by their UTF-8 bytes
 * (lone surrogates as "surrogatepass" writes them, which no feature of the model holds);
 * the word shapes call str.lower and read str.isdigit's digits for non-ASCII words.
 * Model.tag_many(sentences) tags a list of token lists at once. The tests compare it with the
 * Python code on every sentence of the bench corpus.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* ------------------------------------------------------------------ byte strings */

typedef struct {
    char *data;
    Py_ssize_t len, cap;
} Bytes;

static int bytes_reserve(Bytes *b, Py_ssize_t extra)
{
    if (b->len + extra <= b->cap)
        return 0;
    Py_ssize_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra)
        cap *= 2;
    char *data = PyMem_Realloc(b->data, (size_t)cap);
    if (!data) {
        PyErr_NoMemory();
        return -1;
    }
    b->data = data;
    b->cap = cap;
    return 0;
}

/* A 64-bit hash of a feature key, eight bytes at a time. */
static inline uint64_t hash_key(const char *s, Py_ssize_t n)
{
    uint64_t h = 0x243F6A8885A308D3ULL ^ ((uint64_t)n * 0x9E3779B97F4A7C15ULL);
    while (n >= 8) {
        uint64_t w;
        memcpy(&w, s, 8);
        h = (h ^ w) * 0xBF58476D1CE4E5B9ULL;
        h ^= h >> 31;
        s += 8;
        n -= 8;
    }
    uint64_t w = 0;
    for (Py_ssize_t i = 0; i < n; i++)
        w |= (uint64_t)(unsigned char)s[i] << (8 * i);
    h = (h ^ w) * 0x94D049BB133111EBULL;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ULL;
    return h ^ (h >> 32);
}

/* A str's UTF-8 bytes, lone surrogates written as "surrogatepass" does; *owner keeps them
 * alive when they had to be encoded apart (release it with Py_XDECREF). */
static const char *utf8_of(PyObject *text, Py_ssize_t *n, PyObject **owner)
{
    *owner = NULL;
    const char *utf8 = PyUnicode_AsUTF8AndSize(text, n);
    if (utf8 || !PyErr_ExceptionMatches(PyExc_UnicodeEncodeError))
        return utf8;
    PyErr_Clear();
    *owner = PyUnicode_AsEncodedString(text, "utf-8", "surrogatepass");
    if (!*owner)
        return NULL;
    *n = PyBytes_GET_SIZE(*owner);
    return PyBytes_AS_STRING(*owner);
}

/* The bytes of the last `count` code points (count = 3: Python's s[-3:]) of UTF-8 text. */
static Py_ssize_t tail_start(const char *s, Py_ssize_t n, int count)
{
    Py_ssize_t i = n;
    while (i > 0 && count > 0) {
        i--;
        if (((unsigned char)s[i] & 0xC0) != 0x80)
            count--;
    }
    return i;
}

/* The bytes of the first code point (s[:1]). */
static Py_ssize_t head_length(const char *s, Py_ssize_t n)
{
    if (n == 0)
        return 0;
    Py_ssize_t i = 1;
    while (i < n && ((unsigned char)s[i] & 0xC0) == 0x80)
        i++;
    return i;
}

/* ------------------------------------------------------------------ the model */

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

/*
 * A cache of look-ups by spelled word: its tag dictionary entry, and the records of the
 * features built from the word alone: those of its shape seen from each neighbour (the shape
 * follows from the spelled word), then "i suffix" and "i pref1".
 */
enum { I_WORD, I1_WORD, I2_WORD, J1_WORD, J2_WORD, I1_SUFFIX, J1_SUFFIX, SHAPE_RECORDS };
enum { SUFFIX = SHAPE_RECORDS, PREF1, WORD_RECORDS };
/* Entries; the cache starts over beyond (the tests lower it: _set_word_cache_limit). */
static Py_ssize_t word_cache_limit = 1 << 20;

struct TagEntry_;

typedef struct {
    Py_ssize_t key_at, key_len;
    Py_ssize_t index; /* its place in the cache's entries */
    const struct TagEntry_ *tag;
    const RecordHead *records[WORD_RECORDS];
} WordEntry;

/* A record of "i-1 tag+i word" cached by (word entry, previous tag): key (entry << 8 | tag) + 1,
 * 0 marking an empty slot. */
typedef struct {
    uint64_t key;
    const RecordHead *record;
} AfterTagSlot;

#define AFTER_TAG_LIMIT (1 << 22) /* slots; the table starts over beyond */

typedef struct WordCache_ {
    Py_ssize_t n_slots, n_entries, cap;
    uint64_t *slots; /* 0: empty; else hash high 32 bits << 32 | entry + 1 */
    WordEntry *entries;
    Bytes keys;
    uint64_t epoch; /* how many times the cache started over */
    Py_ssize_t n_after_tag, n_after_tag_slots;
    AfterTagSlot *after_tag;
} WordCache;

static void cache_free(WordCache *c)
{
    if (!c)
        return;
    PyMem_Free(c->slots);
    PyMem_Free(c->entries);
    PyMem_Free(c->keys.data);
    PyMem_Free(c->after_tag);
    PyMem_Free(c);
}

#define DENSE 0xFFFFFFFFu
#define DENSE_FROM 12 /* weights above which a feature is stored dense */

static inline Py_ssize_t pad8(Py_ssize_t n) { return (n + 7) & ~(Py_ssize_t)7; }

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
    Bytes records;
    /* the tag dictionary's words, looked up by their bytes like the features */
    Py_ssize_t n_tag_slots;
    uint64_t *tag_slots; /* 0: empty; else hash high 32 bits << 32 | entry + 1 */
    TagEntry *tag_entries;
    Bytes tag_keys;
    /* Look-ups made once: "bias"; the tag features by tag number (the classes, then -START-
     * and -START2-); and, cached by word, the features of a spelled word and of a word shape. */
    const struct RecordHead_ *bias;
    const struct RecordHead_ **tag_1, **tag_2, **tag_pair;
    const struct RecordHead_ *edge_records[4][SHAPE_RECORDS]; /* -START-, -START2-, -END-, -END2- */
    struct WordCache_ *word_cache;
} Model;

static void model_clear(Model *m)
{
    Py_CLEAR(m->classes);
    Py_CLEAR(m->tagdict);
    PyMem_Free(m->class_names);
    PyMem_Free(m->slots);
    PyMem_Free(m->records.data);
    PyMem_Free(m->tag_slots);
    PyMem_Free(m->tag_entries);
    PyMem_Free(m->tag_keys.data);
    PyMem_Free((void *)m->tag_1);
    PyMem_Free((void *)m->tag_2);
    PyMem_Free((void *)m->tag_pair);
    cache_free(m->word_cache);
    m->tag_1 = m->tag_2 = m->tag_pair = NULL;
    m->word_cache = NULL;
    m->bias = NULL;
    m->class_names = NULL;
    m->slots = m->tag_slots = NULL;
    m->tag_entries = NULL;
    m->records.data = m->tag_keys.data = NULL;
    m->records.len = m->records.cap = m->tag_keys.len = m->tag_keys.cap = 0;
}

/* The tag dictionary's entry for a word's bytes, or NULL. */
static const TagEntry *lookup_tag(const Model *m, const char *key, Py_ssize_t n)
{
    uint64_t h = hash_key(key, n), check = h >> 32;
    Py_ssize_t mask = m->n_tag_slots - 1, j = (Py_ssize_t)(h & (uint64_t)mask);
    for (;;) {
        uint64_t slot = m->tag_slots[j];
        if (!slot)
            return NULL;
        if (slot >> 32 == check) {
            const TagEntry *e = &m->tag_entries[(slot & 0xFFFFFFFFu) - 1];
            if (e->key_len == n && memcmp(m->tag_keys.data + e->key_at, key, (size_t)n) == 0)
                return e;
        }
        j = (j + 1) & mask;
    }
}

static int build_tag_entries(Model *m)
{
    Py_ssize_t n = PyDict_GET_SIZE(m->tagdict);
    m->n_tag_slots = 64;
    while (m->n_tag_slots < 2 * n)
        m->n_tag_slots *= 2;
    m->tag_slots = PyMem_Calloc((size_t)m->n_tag_slots, sizeof(uint64_t));
    m->tag_entries = PyMem_Calloc((size_t)n + 1, sizeof(TagEntry));
    if (!m->tag_slots || !m->tag_entries) {
        PyErr_NoMemory();
        return -1;
    }
    Py_ssize_t position = 0, count = 0;
    PyObject *word, *tag;
    while (PyDict_Next(m->tagdict, &position, &word, &tag)) {
        /* `tagdict.get(word) or predict(...)`: a word whose tag is falsy is predicted */
        int truth = PyObject_IsTrue(tag);
        if (truth < 0)
            return -1;
        if (!truth || !PyUnicode_Check(word) || !PyUnicode_Check(tag))
            continue;
        PyObject *word_owner, *tag_owner;
        Py_ssize_t word_n;
        const char *word_s = utf8_of(word, &word_n, &word_owner);
        if (!word_s)
            return -1;
        TagEntry *e = &m->tag_entries[count];
        e->key_at = m->tag_keys.len;
        e->key_len = word_n;
        int failed = bytes_reserve(&m->tag_keys, word_n) < 0;
        if (!failed) {
            memcpy(m->tag_keys.data + m->tag_keys.len, word_s, (size_t)word_n);
            m->tag_keys.len += word_n;
        }
        Py_XDECREF(word_owner);
        if (failed)
            return -1;
        e->tag = tag;
        e->view.s = utf8_of(tag, &e->view.n, &tag_owner);
        if (!e->view.s || tag_owner) { /* a tag is text the model was trained on */
            Py_XDECREF(tag_owner);
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "tagger: a tag holds a lone surrogate");
            return -1;
        }
        e->cls = -1;
        for (Py_ssize_t c = 0; c < m->n_classes; c++)
            if (m->class_names[c].n == e->view.n &&
                memcmp(m->class_names[c].s, e->view.s, (size_t)e->view.n) == 0)
                e->cls = (int)c;
        count++;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        const char *key = m->tag_keys.data + m->tag_entries[i].key_at;
        Py_ssize_t key_len = m->tag_entries[i].key_len;
        uint64_t h = hash_key(key, key_len);
        Py_ssize_t mask = m->n_tag_slots - 1, j = (Py_ssize_t)(h & (uint64_t)mask);
        while (m->tag_slots[j])
            j = (j + 1) & mask;
        m->tag_slots[j] = (h >> 32) << 32 | (uint64_t)(i + 1);
    }
    return 0;
}

static void model_dealloc(Model *m)
{
    model_clear(m);
    Py_TYPE(m)->tp_free((PyObject *)m);
}

/* The slot of a key: its record's, or the empty slot where it would go. */
static Py_ssize_t slot_of(const Model *m, const char *key, Py_ssize_t n, uint64_t h)
{
    Py_ssize_t mask = m->n_slots - 1, j = (Py_ssize_t)(h & (uint64_t)mask);
    uint64_t check = h >> 32;
    for (;;) {
        uint64_t slot = m->slots[j];
        if (!slot)
            return j;
        if (slot >> 32 == check) {
            const RecordHead *r = (const RecordHead *)(m->records.data + 8 * ((slot & 0xFFFFFFFFu) - 1));
            if ((Py_ssize_t)r->key_len == n && memcmp(r + 1, key, (size_t)n) == 0)
                return j;
        }
        j = (j + 1) & mask;
    }
}

static inline const RecordHead *find_feature(const Model *m, const char *key, Py_ssize_t n)
{
    uint64_t slot = m->slots[slot_of(m, key, n, hash_key(key, n))];
    return slot ? (const RecordHead *)(m->records.data + 8 * ((slot & 0xFFFFFFFFu) - 1)) : NULL;
}

/* The class number of a tag name (the classes are few: a linear search at load time, on the
 * names' first eight bytes packed in an integer, then on their whole bytes). */
static inline uint64_t packed_name(const char *s, Py_ssize_t n)
{
    uint64_t packed = (uint64_t)n << 56;
    for (Py_ssize_t i = 0; i < n && i < 7; i++)
        packed |= (uint64_t)(unsigned char)s[i] << (8 * i);
    return packed;
}

static int class_of(const View *names, const uint64_t *packed, Py_ssize_t n_classes,
                    const char *name, Py_ssize_t n)
{
    uint64_t key = packed_name(name, n);
    for (Py_ssize_t c = 0; c < n_classes; c++)
        if (packed[c] == key && names[c].n == n &&
            (n <= 7 || memcmp(names[c].s, name, (size_t)n) == 0))
            return (int)c;
    return -1;
}

/* Split text at '\n' into at most `max_lines` lines; returns how many. */
static Py_ssize_t split_lines(const char *s, Py_ssize_t n, const char **line, Py_ssize_t *length,
                              Py_ssize_t max_lines)
{
    Py_ssize_t count = 0, start = 0;
    for (Py_ssize_t i = 0; i <= n; i++) {
        if (i == n || s[i] == '\n') {
            if (count == max_lines)
                return -1;
            line[count] = s + start;
            length[count++] = i - start;
            start = i + 1;
        }
    }
    return count;
}

/* Parse one weights line "TAG w TAG w ..." into dense/seen; a class given twice keeps its
 * last weight, as the Python decoder's assignment does. Returns how many classes are listed. */
static int parse_weights(const View *names, const uint64_t *packed, Py_ssize_t n_classes,
                         const char *s, Py_ssize_t n, double *dense, int *seen)
{
    Py_ssize_t i = 0;
    int listed = 0;
    char number[64];
    while (i < n) {
        Py_ssize_t tag = i;
        while (i < n && s[i] != ' ')
            i++;
        Py_ssize_t tag_length = i - tag;
        if (i >= n) {
            PyErr_SetString(PyExc_ValueError, "tagger weights: a tag without its weight");
            return -1;
        }
        Py_ssize_t value = ++i;
        while (i < n && s[i] != ' ')
            i++;
        Py_ssize_t value_length = i - value;
        i++;
        int c = class_of(names, packed, n_classes, s + tag, tag_length);
        if (c < 0 || value_length == 0 || value_length >= (Py_ssize_t)sizeof number) {
            PyErr_SetString(PyExc_ValueError, "tagger weights: unknown tag or malformed weight");
            return -1;
        }
        memcpy(number, s + value, (size_t)value_length);
        number[value_length] = '\0';
        char *end;
        double w = PyOS_string_to_double(number, &end, NULL);
        if (w == -1.0 && PyErr_Occurred())
            return -1;
        if (*end) {
            PyErr_SetString(PyExc_ValueError, "tagger weights: malformed weight");
            return -1;
        }
        if (!seen[c]) {
            seen[c] = 1;
            listed++;
        }
        dense[c] = w;
    }
    return listed;
}

/* Append a feature's record; returns its offset, -1 on error. */
static Py_ssize_t add_record(Model *m, const char *key, Py_ssize_t key_len, const double *dense,
                             int *seen, int listed)
{
    int is_dense = listed > DENSE_FROM;
    Py_ssize_t size = 8 + pad8(key_len) +
                      (is_dense ? 8 * m->n_classes : 8 * listed + pad8(2 * (Py_ssize_t)listed));
    Py_ssize_t at = m->records.len;
    if (bytes_reserve(&m->records, size) < 0)
        return -1;
    char *base = m->records.data + at;
    memset(base, 0, (size_t)size);
    RecordHead head = {(uint32_t)key_len, is_dense ? DENSE : (uint32_t)listed};
    memcpy(base, &head, sizeof head);
    memcpy(base + 8, key, (size_t)key_len);
    double *weights = (double *)(base + 8 + pad8(key_len));
    uint16_t *classes = (uint16_t *)(weights + listed);
    int k = 0;
    for (Py_ssize_t c = 0; c < m->n_classes; c++) {
        if (!seen[c])
            continue;
        if (is_dense) {
            weights[c] = dense[c];
        } else {
            weights[k] = dense[c];
            classes[k++] = (uint16_t)c;
        }
        seen[c] = 0;
    }
    m->records.len += size;
    return at;
}

static int build_tag_tables(Model *m);

static int model_init(Model *m, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"features", "weights", "classes", "tagdict", NULL};
    PyObject *features, *weights, *classes, *tagdict;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "UUOO!", kwlist, &features, &weights, &classes,
                                     &PyDict_Type, &tagdict))
        return -1;
    model_clear(m);
    m->classes = PySequence_Tuple(classes);
    if (!m->classes)
        return -1;
    m->n_classes = PyTuple_GET_SIZE(m->classes);
    if (m->n_classes == 0 || m->n_classes > 32767) {
        PyErr_SetString(PyExc_ValueError, "tagger: between 1 and 32767 classes are needed");
        return -1;
    }
    for (Py_ssize_t c = 0; c < m->n_classes; c++) {
        if (!PyUnicode_Check(PyTuple_GET_ITEM(m->classes, c))) {
            PyErr_SetString(PyExc_TypeError, "tagger: classes must be str");
            return -1;
        }
    }
    m->tagdict = PyDict_Copy(tagdict);
    if (!m->tagdict)
        return -1;
    m->class_names = PyMem_Calloc((size_t)m->n_classes, sizeof(View));
    if (!m->class_names) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t c = 0; c < m->n_classes; c++) {
        PyObject *owner;
        m->class_names[c].s = utf8_of(PyTuple_GET_ITEM(m->classes, c), &m->class_names[c].n, &owner);
        if (!m->class_names[c].s || owner) {
            Py_XDECREF(owner);
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "tagger: a class holds a lone surrogate");
            return -1;
        }
    }
    if (build_tag_entries(m) < 0)
        return -1;

    PyObject *f_owner, *w_owner;
    Py_ssize_t f_n, w_n;
    const char *f_text = utf8_of(features, &f_n, &f_owner);
    if (!f_text)
        return -1;
    const char *w_text = utf8_of(weights, &w_n, &w_owner);
    if (!w_text) {
        Py_XDECREF(f_owner);
        return -1;
    }
    int status = -1;
    Py_ssize_t n_lines = 1;
    for (Py_ssize_t i = 0; i < f_n; i++)
        n_lines += f_text[i] == '\n';
    const char **f_line = PyMem_Malloc(sizeof(char *) * (size_t)n_lines);
    const char **w_line = PyMem_Malloc(sizeof(char *) * (size_t)n_lines);
    Py_ssize_t *f_len = PyMem_Malloc(sizeof(Py_ssize_t) * (size_t)n_lines);
    Py_ssize_t *w_len = PyMem_Malloc(sizeof(Py_ssize_t) * (size_t)n_lines);
    double *dense = PyMem_Calloc((size_t)m->n_classes, sizeof(double));
    int *seen = PyMem_Calloc((size_t)m->n_classes, sizeof(int));
    const View *names = m->class_names;
    uint64_t *packed = PyMem_Calloc((size_t)m->n_classes, sizeof(uint64_t));
    if (!f_line || !w_line || !f_len || !w_len || !dense || !seen || !packed) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t c = 0; c < m->n_classes; c++) {
        packed[c] = packed_name(names[c].s, names[c].n);
    }
    if (split_lines(f_text, f_n, f_line, f_len, n_lines) != n_lines ||
        split_lines(w_text, w_n, w_line, w_len, n_lines) != n_lines) {
        PyErr_SetString(PyExc_ValueError, "tagger: one weights line per feature is needed");
        goto done;
    }
    m->n_slots = 1024;
    while (m->n_slots < 2 * n_lines)
        m->n_slots *= 2;
    m->slots = PyMem_Calloc((size_t)m->n_slots, sizeof(uint64_t));
    if (!m->slots) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t f = 0; f < n_lines; f++) {
        int listed =
            parse_weights(names, packed, m->n_classes, w_line[f], w_len[f], dense, seen);
        if (listed < 0)
            goto done;
        Py_ssize_t at = add_record(m, f_line[f], f_len[f], dense, seen, listed);
        if (at < 0)
            goto done;
        if (at / 8 + 1 > 0xFFFFFFFF) {
            PyErr_SetString(PyExc_ValueError, "tagger: the model is too large");
            goto done;
        }
        /* a feature listed twice: the later line wins, as in the Python dict */
        uint64_t h = hash_key(f_line[f], f_len[f]);
        m->slots[slot_of(m, f_line[f], f_len[f], h)] = (h >> 32) << 32 | (uint64_t)(at / 8 + 1);
    }
    if (build_tag_tables(m) < 0)
        goto done;
    status = 0;
done:
    PyMem_Free(f_line);
    PyMem_Free(w_line);
    PyMem_Free(f_len);
    PyMem_Free(w_len);
    PyMem_Free(dense);
    PyMem_Free(seen);
    PyMem_Free(packed);
    Py_XDECREF(f_owner);
    Py_XDECREF(w_owner);
    if (status < 0)
        model_clear(m);
    return status;
}

/* ------------------------------------------------------------------ tagging */

static PyObject *S_OPEN_QUOTE, *S_CLOSE_QUOTE, *S_HYPHEN, *S_YEAR, *S_DIGITS, *S_LOWER;

/* pos.PENN_SPELLINGS for a one-character token, or NULL. */
static const char *penn_spelling(Py_UCS4 ch)
{
    switch (ch) {
    case '(': case '[': return "-LRB-";
    case ')': case ']': return "-RRB-";
    case '{': return "-LCB-";
    case '}': return "-RCB-";
    case 0x201C: return "``";
    case 0x201D: return "''";
    case 0x2018: return "`";
    case 0x2019: return "'";
    case 0x2014: case 0x2013: return "--";
    default: return NULL;
    }
}

/* token.lower(), ASCII without a method call. */
static PyObject *lowered(PyObject *token)
{
    if (!PyUnicode_IS_ASCII(token))
        return PyObject_CallMethodNoArgs(token, S_LOWER);
    Py_ssize_t n = PyUnicode_GET_LENGTH(token);
    const char *s = (const char *)PyUnicode_DATA(token);
    Py_ssize_t i = 0;
    while (i < n && !(s[i] >= 'A' && s[i] <= 'Z'))
        i++;
    if (i == n) {
        Py_INCREF(token);
        return token;
    }
    PyObject *out = PyUnicode_New(n, 127);
    if (!out)
        return NULL;
    char *d = (char *)PyUnicode_DATA(out);
    for (i = 0; i < n; i++)
        d[i] = (char)(s[i] >= 'A' && s[i] <= 'Z' ? s[i] + 32 : s[i]);
    return out;
}

/* pos._normalise: the word shape the model was trained on (a new reference). */
static PyObject *normalise(PyObject *word)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(word);
    int kind = PyUnicode_KIND(word);
    const void *data = PyUnicode_DATA(word);
    if (n > 0 && PyUnicode_READ(kind, data, 0) != '-' && PyUnicode_FindChar(word, '-', 0, n, 1) >= 0) {
        Py_INCREF(S_HYPHEN);
        return S_HYPHEN;
    }
    if (n == 4) {
        int digits = 1;
        for (Py_ssize_t i = 0; i < n && digits; i++)
            digits = Py_UNICODE_ISDIGIT(PyUnicode_READ(kind, data, i));
        if (digits) {
            Py_INCREF(S_YEAR);
            return S_YEAR;
        }
    }
    if (n > 0 && Py_UNICODE_ISDIGIT(PyUnicode_READ(kind, data, 0))) {
        Py_INCREF(S_DIGITS);
        return S_DIGITS;
    }
    return lowered(word);
}

/* A word's bytes, with where its last three code points start (Python's word[-3:]). */
typedef struct {
    const char *s;
    Py_ssize_t n, tail;
} Part;

typedef struct {
    Py_ssize_t n;         /* tokens */
    PyObject **spelled;   /* n new references */
    PyObject **shape;     /* n + 4 new references: the context, START and END included */
    PyObject **owners;    /* n + 4 byte strings for lone surrogates, or NULL */
    PyObject **word_owner; /* n */
    Part *word;           /* n: the spelled tokens */
    Py_ssize_t *head;     /* n: bytes of each spelled token's first code point */
    Part *context;        /* n + 4 */
} Sentence;

static void sentence_free(Sentence *t)
{
    for (Py_ssize_t i = 0; i < t->n; i++) {
        Py_XDECREF(t->spelled ? t->spelled[i] : NULL);
        Py_XDECREF(t->word_owner ? t->word_owner[i] : NULL);
    }
    for (Py_ssize_t i = 0; i < t->n + 4; i++) {
        Py_XDECREF(t->shape ? t->shape[i] : NULL);
        Py_XDECREF(t->owners ? t->owners[i] : NULL);
    }
    PyMem_Free(t->spelled);
    PyMem_Free(t->shape);
    PyMem_Free(t->owners);
    PyMem_Free(t->word_owner);
    PyMem_Free(t->word);
    PyMem_Free(t->head);
    PyMem_Free(t->context);
}

static PyObject *S_START, *S_START2, *S_END, *S_END2;

static int part_of(PyObject *text, Part *part, PyObject **owner)
{
    part->s = utf8_of(text, &part->n, owner);
    if (!part->s)
        return -1;
    part->tail = tail_start(part->s, part->n, 3);
    return 0;
}

static int sentence_prepare(Sentence *t, PyObject *tokens)
{
    Py_ssize_t n = t->n = PyList_GET_SIZE(tokens);
    t->spelled = PyMem_Calloc((size_t)n + 1, sizeof(PyObject *));
    t->word_owner = PyMem_Calloc((size_t)n + 1, sizeof(PyObject *));
    t->word = PyMem_Calloc((size_t)n + 1, sizeof(Part));
    t->head = PyMem_Calloc((size_t)n + 1, sizeof(Py_ssize_t));
    t->shape = PyMem_Calloc((size_t)n + 4, sizeof(PyObject *));
    t->owners = PyMem_Calloc((size_t)n + 4, sizeof(PyObject *));
    t->context = PyMem_Calloc((size_t)n + 4, sizeof(Part));
    if (!t->spelled || !t->word_owner || !t->word || !t->head || !t->shape || !t->owners ||
        !t->context) {
        PyErr_NoMemory();
        return -1;
    }
    int open_quote = 1;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *token = PyList_GET_ITEM(tokens, i);
        if (!PyUnicode_Check(token)) {
            PyErr_SetString(PyExc_TypeError, "tagger: tokens must be str");
            return -1;
        }
        PyObject *spelled = token;
        if (PyUnicode_GET_LENGTH(token) == 1) {
            Py_UCS4 ch = PyUnicode_READ_CHAR(token, 0);
            const char *penn = ch == '"' ? NULL : penn_spelling(ch);
            if (ch == '"') {
                spelled = open_quote ? S_OPEN_QUOTE : S_CLOSE_QUOTE;
                open_quote = !open_quote;
            } else if (penn) {
                spelled = PyUnicode_FromString(penn);
                if (!spelled)
                    return -1;
                t->spelled[i] = spelled;
            }
        }
        if (!t->spelled[i]) {
            Py_INCREF(spelled);
            t->spelled[i] = spelled;
        }
        if (part_of(t->spelled[i], &t->word[i], &t->word_owner[i]) < 0)
            return -1;
        t->head[i] = head_length(t->word[i].s, t->word[i].n);
        t->shape[i + 2] = normalise(t->spelled[i]);
        if (!t->shape[i + 2])
            return -1;
    }
    PyObject *edges[4] = {S_START, S_START2, S_END, S_END2};
    Py_ssize_t where[4] = {0, 1, n + 2, n + 3};
    for (int e = 0; e < 4; e++) {
        Py_INCREF(edges[e]);
        t->shape[where[e]] = edges[e];
    }
    for (Py_ssize_t i = 0; i < n + 4; i++)
        if (part_of(t->shape[i], &t->context[i], &t->owners[i]) < 0)
            return -1;
    return 0;
}

/* A feature key being built: "<prefix><a>[ <b>]". */
typedef struct {
    char *buffer;
    Py_ssize_t cap;
} Key;

static inline void put(char *to, const char *from, Py_ssize_t n)
{
    for (Py_ssize_t i = 0; i < n; i++)
        to[i] = from[i];
}

/* The record of the feature prefix + a (+ " " + b), or NULL; *error set on memory error. */
static const RecordHead *lookup_feature(const Model *m, Key *k, const char *prefix,
                                        Py_ssize_t prefix_len, const char *a, Py_ssize_t a_len,
                                        const char *b, Py_ssize_t b_len, int *error)
{
    Py_ssize_t n = prefix_len + a_len + (b ? 1 + b_len : 0);
    if (n > k->cap) {
        char *buffer = PyMem_Realloc(k->buffer, (size_t)n);
        if (!buffer) {
            PyErr_NoMemory();
            *error = 1;
            return NULL;
        }
        k->buffer = buffer;
        k->cap = n;
    }
    char *key = k->buffer;
    put(key, prefix, prefix_len);
    put(key + prefix_len, a, a_len);
    if (b) {
        key[prefix_len + a_len] = ' ';
        put(key + prefix_len + a_len + 1, b, b_len);
    }
    return find_feature(m, key, n);
}

/* Per class, the same additions in the same order whatever the vector width. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
__attribute__((target_clones("avx2", "default")))
#endif
static void add_dense(double *restrict scores, const double *restrict w, Py_ssize_t n)
{
    for (Py_ssize_t i = 0; i < n; i++)
        scores[i] += w[i];
}

/* Add a feature's weights to the scores (nothing for a feature the model does not have). */
static inline void add_weights(const Model *m, const RecordHead *r, double *scores)
{
    if (!r)
        return;
    const double *w = (const double *)((const char *)(r + 1) + pad8(r->key_len));
    if (r->n_weights == DENSE) {
        add_dense(scores, w, m->n_classes);
        return;
    }
    const uint16_t *c = (const uint16_t *)(w + r->n_weights);
    for (uint32_t i = 0; i < r->n_weights; i++)
        scores[c[i]] += w[i];
}

#define PREFIX(text) text, (Py_ssize_t)(sizeof(text) - 1)
#define WHOLE(part) (part).s, (part).n
#define TAIL(part) (part).s + (part).tail, (part).n - (part).tail

/* ------------------------------------------------------------------ look-ups by word */

static WordCache *cache_new(void)
{
    WordCache *c = PyMem_Calloc(1, sizeof(WordCache));
    if (!c)
        PyErr_NoMemory();
    return c;
}

static int cache_rehash(WordCache *c, Py_ssize_t n_slots)
{
    uint64_t *slots = PyMem_Calloc((size_t)n_slots, sizeof(uint64_t));
    if (!slots) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t e = 0; e < c->n_entries; e++) {
        const WordEntry *entry = &c->entries[e];
        uint64_t h = hash_key(c->keys.data + entry->key_at, entry->key_len);
        Py_ssize_t j = (Py_ssize_t)(h & (uint64_t)(n_slots - 1));
        while (slots[j])
            j = (j + 1) & (n_slots - 1);
        slots[j] = (h >> 32) << 32 | (uint64_t)(e + 1);
    }
    PyMem_Free(c->slots);
    c->slots = slots;
    c->n_slots = n_slots;
    return 0;
}

/* The cached entry of a word, copied to out; 0 when the word is not cached yet. */
static int cache_get(const WordCache *c, const char *key, Py_ssize_t n, uint64_t h,
                     WordEntry *out)
{
    if (!c->n_slots)
        return 0;
    Py_ssize_t mask = c->n_slots - 1, j = (Py_ssize_t)(h & (uint64_t)mask);
    uint64_t check = h >> 32;
    for (;;) {
        uint64_t slot = c->slots[j];
        if (!slot)
            return 0;
        if (slot >> 32 == check) {
            const WordEntry *e = &c->entries[(slot & 0xFFFFFFFFu) - 1];
            if (e->key_len == n && memcmp(c->keys.data + e->key_at, key, (size_t)n) == 0) {
                *out = *e;
                return 1;
            }
        }
        j = (j + 1) & mask;
    }
}

/* Cache a word's entry; found->index is set to its place. -1 on memory error. */
static int cache_put(WordCache *c, const char *key, Py_ssize_t n, WordEntry *found)
{
    if (c->n_entries >= word_cache_limit) { /* start over: the cache only saves look-ups */
        c->n_entries = 0;
        c->keys.len = 0;
        memset(c->slots, 0, sizeof(uint64_t) * (size_t)c->n_slots);
        c->n_after_tag = 0; /* its keys name entries */
        if (c->after_tag)
            memset(c->after_tag, 0, sizeof(AfterTagSlot) * (size_t)c->n_after_tag_slots);
        c->epoch++;
    }
    if (2 * (c->n_entries + 1) > c->n_slots &&
        cache_rehash(c, c->n_slots ? 2 * c->n_slots : 1024) < 0)
        return -1;
    if (c->n_entries == c->cap) {
        Py_ssize_t cap = c->cap ? 2 * c->cap : 512;
        WordEntry *entries = PyMem_Realloc(c->entries, sizeof(WordEntry) * (size_t)cap);
        if (!entries) {
            PyErr_NoMemory();
            return -1;
        }
        c->entries = entries;
        c->cap = cap;
    }
    if (bytes_reserve(&c->keys, n) < 0)
        return -1;
    found->index = c->n_entries;
    WordEntry *e = &c->entries[c->n_entries];
    *e = *found;
    e->key_at = c->keys.len;
    e->key_len = n;
    memcpy(c->keys.data + c->keys.len, key, (size_t)n);
    c->keys.len += n;
    uint64_t h = hash_key(key, n);
    Py_ssize_t j = (Py_ssize_t)(h & (uint64_t)(c->n_slots - 1));
    while (c->slots[j])
        j = (j + 1) & (c->n_slots - 1);
    c->slots[j] = (h >> 32) << 32 | (uint64_t)(++c->n_entries);
    return 0;
}

static const TagEntry *lookup_tag(const Model *m, const char *key, Py_ssize_t n);

/* The shape records of a word shape, in the order of the enum. */
static void shape_lookups(const Model *m, Key *k, Part shape, const RecordHead **out, int *error)
{
    out[I_WORD] = lookup_feature(m, k, PREFIX("i word "), WHOLE(shape), NULL, 0, error);
    out[I1_WORD] = lookup_feature(m, k, PREFIX("i-1 word "), WHOLE(shape), NULL, 0, error);
    out[I2_WORD] = lookup_feature(m, k, PREFIX("i-2 word "), WHOLE(shape), NULL, 0, error);
    out[J1_WORD] = lookup_feature(m, k, PREFIX("i+1 word "), WHOLE(shape), NULL, 0, error);
    out[J2_WORD] = lookup_feature(m, k, PREFIX("i+2 word "), WHOLE(shape), NULL, 0, error);
    out[I1_SUFFIX] = lookup_feature(m, k, PREFIX("i-1 suffix "), TAIL(shape), NULL, 0, error);
    out[J1_SUFFIX] = lookup_feature(m, k, PREFIX("i+1 suffix "), TAIL(shape), NULL, 0, error);
}

/* The cache entry of a spelled word (its shape given), looked up or made; -1 on error. */
static int word_entry(Model *m, Key *k, Part word, Py_ssize_t head, Part shape, WordEntry *out)
{
    uint64_t h = hash_key(word.s, word.n);
    if (cache_get(m->word_cache, word.s, word.n, h, out))
        return 0;
    int error = 0;
    out->tag = lookup_tag(m, word.s, word.n);
    shape_lookups(m, k, shape, out->records, &error);
    out->records[SUFFIX] = lookup_feature(m, k, PREFIX("i suffix "), TAIL(word), NULL, 0, &error);
    out->records[PREF1] = lookup_feature(m, k, PREFIX("i pref1 "), word.s, head, NULL, 0, &error);
    if (error || cache_put(m->word_cache, word.s, word.n, out) < 0)
        return -1;
    return 0;
}

static inline uint64_t after_tag_hash(uint64_t key)
{
    key *= 0x9E3779B97F4A7C15ULL;
    return key ^ (key >> 29);
}

/* The slot of key in the cache's "i-1 tag+i word" table: its own, or the empty one for it. */
static AfterTagSlot *after_tag_slot(const WordCache *c, uint64_t key)
{
    Py_ssize_t mask = c->n_after_tag_slots - 1, j = (Py_ssize_t)(after_tag_hash(key) & (uint64_t)mask);
    while (c->after_tag[j].key && c->after_tag[j].key != key)
        j = (j + 1) & mask;
    return &c->after_tag[j];
}

/* Room for one more entry in the "i-1 tag+i word" table; -1 on memory error. */
static int after_tag_reserve(WordCache *c)
{
    if (2 * (c->n_after_tag + 1) <= c->n_after_tag_slots)
        return 0;
    if (c->n_after_tag_slots >= AFTER_TAG_LIMIT) { /* start over: it only saves look-ups */
        memset(c->after_tag, 0, sizeof(AfterTagSlot) * (size_t)c->n_after_tag_slots);
        c->n_after_tag = 0;
        return 0;
    }
    Py_ssize_t n_slots = c->n_after_tag_slots ? 2 * c->n_after_tag_slots : 4096;
    AfterTagSlot *old = c->after_tag, *slots = PyMem_Calloc((size_t)n_slots, sizeof(AfterTagSlot));
    if (!slots) {
        PyErr_NoMemory();
        return -1;
    }
    Py_ssize_t old_n = c->n_after_tag_slots;
    c->after_tag = slots;
    c->n_after_tag_slots = n_slots;
    for (Py_ssize_t j = 0; j < old_n; j++)
        if (old[j].key)
            *after_tag_slot(c, old[j].key) = old[j];
    PyMem_Free(old);
    return 0;
}

/* The tag features by tag number: the classes, then -START- (n_classes) and -START2-. */
static int build_tag_tables(Model *m)
{
    Py_ssize_t n = m->n_classes + 2;
    m->tag_1 = PyMem_Calloc((size_t)n, sizeof(RecordHead *));
    m->tag_2 = PyMem_Calloc((size_t)n, sizeof(RecordHead *));
    m->tag_pair = PyMem_Calloc((size_t)(n * n), sizeof(RecordHead *));
    m->word_cache = cache_new();
    Key k = {PyMem_Malloc(256), 256};
    if (!m->tag_1 || !m->tag_2 || !m->tag_pair || !k.buffer) {
        PyMem_Free(k.buffer);
        if (!PyErr_Occurred())
            PyErr_NoMemory();
        return -1;
    }
    int error = !m->word_cache;
    View names[2] = {{"-START-", 7}, {"-START2-", 8}};
    m->bias = lookup_feature(m, &k, PREFIX("bias"), "", 0, NULL, 0, &error);
    const char *edges[4] = {"-START-", "-START2-", "-END-", "-END2-"};
    for (int e = 0; e < 4 && !error; e++) {
        Py_ssize_t n_edge = (Py_ssize_t)strlen(edges[e]);
        Part shape = {edges[e], n_edge, n_edge > 3 ? n_edge - 3 : 0};
        shape_lookups(m, &k, shape, m->edge_records[e], &error);
    }
    for (Py_ssize_t a = 0; a < n && !error; a++) {
        View x = a < m->n_classes ? m->class_names[a] : names[a - m->n_classes];
        m->tag_1[a] = lookup_feature(m, &k, PREFIX("i-1 tag "), x.s, x.n, NULL, 0, &error);
        m->tag_2[a] = lookup_feature(m, &k, PREFIX("i-2 tag "), x.s, x.n, NULL, 0, &error);
        for (Py_ssize_t b = 0; b < n && !error; b++) {
            View y = b < m->n_classes ? m->class_names[b] : names[b - m->n_classes];
            m->tag_pair[a * n + b] =
                lookup_feature(m, &k, PREFIX("i tag+i-2 tag "), x.s, x.n, y.s, y.n, &error);
        }
    }
    PyMem_Free(k.buffer);
    return error ? -1 : 0;
}

/* A previous tag: its number in the tag tables (-1 for a dictionary tag that is no class,
 * looked up by its bytes), and its bytes. */
typedef struct {
    int number;
    Part part;
} PrevTag;

static const RecordHead *tag_record(const Model *m, Key *k, const RecordHead **table,
                                    const char *prefix, Py_ssize_t prefix_len, PrevTag tag,
                                    int *error)
{
    if (tag.number >= 0)
        return table[tag.number];
    return lookup_feature(m, k, prefix, prefix_len, WHOLE(tag.part), NULL, 0, error);
}

/*
 * The predictions of one call, by the records of their fourteen features: the class follows
 * from those records alone, and a text repeats many contexts (in the bench corpus, 7 in 10
 * predictions of distinct sentences repeat one made before in the same call). A record is kept
 * as its place in the model's block of records (offset / 8 + 1; 0 for none), so that an entry
 * fills one 64-byte cache line.
 */
#define FEATURES 14

typedef struct {
    uint32_t records[FEATURES];
    int32_t cls;
    uint32_t unused;
} Prediction;

_Static_assert(sizeof(Prediction) == 64, "a memo entry is one cache line");

/* Slots of the memo: a fixed, direct-mapped table (a new prediction replaces the one in its
 * slot), small enough to stay in cache: a table sized to all of a call's predictions ran to
 * tens of megabytes, and its misses to memory cost more than the sums it saved. */
#define MEMO_SLOTS (1 << 15) /* 2 MiB */

typedef struct {
    Prediction *slots;     /* records[0] == 0 marks an empty slot ("bias" is never NULL) */
    void *block;           /* the allocation slots lie in, aligned to 64 bytes */
    int active;            /* memoising needs a non-NULL bias record and records within 2**35 bytes */
} Memo;

static uint64_t hash_records(const uint32_t *records)
{
    uint64_t h = 0x9E3779B97F4A7C15ULL;
    for (int f = 0; f < FEATURES; f += 2) {
        h = (h ^ ((uint64_t)records[f] << 32 | records[f + 1])) * 0xBF58476D1CE4E5B9ULL;
        h ^= h >> 31;
    }
    return h;
}

/* The slot of these records: it holds their prediction, or is where it goes; -1 on memory
 * error (the table is allocated on first use). */
static Prediction *memo_slot(Memo *memo, const uint32_t *records)
{
    if (!memo->slots) {
        memo->block = PyMem_Calloc((size_t)MEMO_SLOTS + 1, sizeof(Prediction));
        if (!memo->block) {
            PyErr_NoMemory();
            return NULL;
        }
        memo->slots = (Prediction *)(((uintptr_t)memo->block + 63) & ~(uintptr_t)63);
    }
    return &memo->slots[hash_records(records) & (MEMO_SLOTS - 1)];
}

/* A record's place in the model's block (see Prediction). */
static inline uint32_t record_place(const Model *m, const RecordHead *r)
{
    return r ? (uint32_t)(((const char *)r - m->records.data) / 8 + 1) : 0;
}

/* The record of "i-1 tag+i word" for the token at context position p (its word cache entry
 * given) after the tag prev: from the word cache's table when `cache` is given (NULL when the
 * cache started over since the entry was read), else looked up. */
static const RecordHead *after_tag_record(Model *m, Key *k, WordCache *cache,
                                          const WordEntry *entry, PrevTag prev, Part word,
                                          int *error)
{
    if (!cache || prev.number < 0 || prev.number > 0xFF)
        return lookup_feature(m, k, PREFIX("i-1 tag+i word "), WHOLE(prev.part), WHOLE(word),
                              error);
    uint64_t key = ((uint64_t)entry->index << 8 | (uint64_t)prev.number) + 1;
    if (after_tag_reserve(cache) < 0) {
        *error = 1;
        return NULL;
    }
    AfterTagSlot *slot = after_tag_slot(cache, key);
    if (!slot->key) {
        const RecordHead *record = lookup_feature(m, k, PREFIX("i-1 tag+i word "),
                                                  WHOLE(prev.part), WHOLE(word), error);
        if (*error)
            return NULL; /* a failed look-up is not cached */
        *slot = (AfterTagSlot){key, record};
        cache->n_after_tag++;
    }
    return slot->record;
}

/* The class of the token at context position p (tokens from 2), given the two previous tags,
 * the shape records of every context position and the token's word cache entry; -1 on memory
 * error. The features are added in the order of pos._features. */
static int predict(Model *m, const Sentence *t, Py_ssize_t p, PrevTag prev, PrevTag prev2,
                   const RecordHead *const *const *shape, const WordEntry *entry,
                   WordCache *cache, Key *k, double *scores, Memo *memo)
{
    const Part *c = t->context;
    const RecordHead *const *own = entry->records;
    int error = 0;
    Py_ssize_t n_tags = m->n_classes + 2;
    const RecordHead *pair =
        prev.number >= 0 && prev2.number >= 0
            ? m->tag_pair[prev.number * n_tags + prev2.number]
            : lookup_feature(m, k, PREFIX("i tag+i-2 tag "), WHOLE(prev.part), WHOLE(prev2.part),
                             &error);
    const RecordHead *records[FEATURES] = {
        m->bias,
        own[SUFFIX],
        own[PREF1],
        tag_record(m, k, m->tag_1, PREFIX("i-1 tag "), prev, &error),
        tag_record(m, k, m->tag_2, PREFIX("i-2 tag "), prev2, &error),
        pair,
        shape[p][I_WORD],
        after_tag_record(m, k, cache, entry, prev, c[p], &error),
        shape[p - 1][I1_WORD],
        shape[p - 1][I1_SUFFIX],
        shape[p - 2][I2_WORD],
        shape[p + 1][J1_WORD],
        shape[p + 1][J1_SUFFIX],
        shape[p + 2][J2_WORD],
    };
    if (error)
        return -1;
    Prediction *known = NULL;
    uint32_t places[FEATURES];
    if (memo->active) {
        for (int f = 0; f < FEATURES; f++)
            places[f] = record_place(m, records[f]);
        known = memo_slot(memo, places);
        if (!known)
            return -1;
        if (memcmp(known->records, places, sizeof places) == 0)
            return known->cls;
    }
    memset(scores, 0, sizeof(double) * (size_t)m->n_classes);
    for (int f = 0; f < FEATURES; f++)
        add_weights(m, records[f], scores);
    Py_ssize_t best = 0;
    for (Py_ssize_t i = 1; i < m->n_classes; i++)
        if (scores[i] >= scores[best]) /* ties: the last class */
            best = i;
    if (known) {
        memcpy(known->records, places, sizeof known->records);
        known->cls = (int)best;
    }
    return (int)best;
}

/* Room for the cache entries of a sentence's tokens and the shape records of its context. */
typedef struct {
    Py_ssize_t cap;
    WordEntry *entries;
    const RecordHead *const **shape;
} Shapes;

/* Tag a prepared sentence: for each token, its tag dictionary entry (entry[i], or NULL when
 * the tag is predicted) and its class (cls[i]; -1 for a dictionary tag that is no class). */
static int tag_parts(Model *m, const Sentence *t, Key *k, double *scores, Shapes *shapes,
                     Memo *memo, int *cls, const TagEntry **entry)
{
    if (t->n + 4 > shapes->cap) {
        Py_ssize_t cap = shapes->cap ? shapes->cap : 64;
        while (cap < t->n + 4)
            cap *= 2;
        WordEntry *entries = PyMem_Realloc(shapes->entries, sizeof(WordEntry) * (size_t)cap);
        if (entries)
            shapes->entries = entries;
        void *shape = PyMem_Realloc((void *)shapes->shape, sizeof *shapes->shape * (size_t)cap);
        if (shape)
            shapes->shape = shape;
        if (!entries || !shape) {
            PyErr_NoMemory();
            return -1;
        }
        shapes->cap = cap;
    }
    const RecordHead *const **shape = shapes->shape;
    const uint64_t epoch = m->word_cache->epoch;
    for (Py_ssize_t i = 0; i < t->n; i++) {
        if (word_entry(m, k, t->word[i], t->head[i], t->context[i + 2], &shapes->entries[i]) < 0)
            return -1;
        shape[i + 2] = shapes->entries[i].records;
    }
    shape[0] = m->edge_records[0];
    shape[1] = m->edge_records[1];
    shape[t->n + 2] = m->edge_records[2];
    shape[t->n + 3] = m->edge_records[3];
    /* The cache's entries keep their places unless it started over while they were read. */
    WordCache *cache = m->word_cache->epoch == epoch ? m->word_cache : NULL;
    PrevTag prev = {(int)m->n_classes, t->context[0]};      /* -START- */
    PrevTag prev2 = {(int)m->n_classes + 1, t->context[1]}; /* -START2- */
    for (Py_ssize_t i = 0; i < t->n; i++) {
        const TagEntry *e = shapes->entries[i].tag;
        entry[i] = e;
        PrevTag tag = {0, {NULL, 0, 0}};
        if (e) {
            cls[i] = e->cls;
            tag.number = e->cls;
            tag.part.s = e->view.s;
            tag.part.n = e->view.n;
        } else {
            int c = predict(m, t, i + 2, prev, prev2, shape, &shapes->entries[i], cache, k,
                            scores, memo);
            if (c < 0)
                return -1;
            cls[i] = c;
            tag.number = c;
            tag.part.s = m->class_names[c].s;
            tag.part.n = m->class_names[c].n;
        }
        prev2 = prev;
        prev = tag;
    }
    return 0;
}

/* Per-token results of tag_parts, grown as needed. */
typedef struct {
    Py_ssize_t cap;
    int *cls;
    const TagEntry **entry;
    Shapes shapes;
    Memo memo; /* the call's predictions */
} Tags;

static int tags_reserve(Tags *g, Py_ssize_t n)
{
    if (n <= g->cap)
        return 0;
    Py_ssize_t cap = g->cap ? g->cap : 64;
    while (cap < n)
        cap *= 2;
    int *cls = PyMem_Realloc(g->cls, sizeof(int) * (size_t)cap);
    if (cls)
        g->cls = cls;
    const TagEntry **entry = PyMem_Realloc((void *)g->entry, sizeof(TagEntry *) * (size_t)cap);
    if (entry)
        g->entry = entry;
    if (!cls || !entry) {
        PyErr_NoMemory();
        return -1;
    }
    g->cap = cap;
    return 0;
}

static void tags_free(Tags *g)
{
    PyMem_Free(g->cls);
    PyMem_Free((void *)g->entry);
    PyMem_Free(g->shapes.entries);
    PyMem_Free((void *)g->shapes.shape);
    PyMem_Free(g->memo.block);
}

static PyObject *tag_sentence(Model *m, PyObject *tokens, Key *k, double *scores, Tags *g)
{
    if (!PyList_Check(tokens)) {
        PyErr_SetString(PyExc_TypeError, "tagger: a sentence must be a list of str");
        return NULL;
    }
    Sentence t = {0};
    PyObject *tags = NULL;
    if (sentence_prepare(&t, tokens) < 0 || tags_reserve(g, t.n) < 0 ||
        tag_parts(m, &t, k, scores, &g->shapes, &g->memo, g->cls, g->entry) < 0)
        goto done;
    tags = PyList_New(t.n);
    for (Py_ssize_t i = 0; tags && i < t.n; i++) {
        PyObject *tag = g->entry[i] ? g->entry[i]->tag : PyTuple_GET_ITEM(m->classes, g->cls[i]);
        Py_INCREF(tag);
        PyList_SET_ITEM(tags, i, tag);
    }
done:
    sentence_free(&t);
    return tags;
}

typedef struct {
    Key key;
    double *scores;
    Tags tags;
    Bytes chars, shapes;       /* the ASCII path: tokens' bytes, their shapes' bytes */
    Py_ssize_t cap;            /* the ASCII path: tokens the arrays below hold */
    Py_ssize_t *start, *shape_start, *shape_len, *head;
    Part *word, *context;
} Scratch;

static int scratch_init(Scratch *s, const Model *m)
{
    memset(s, 0, sizeof *s);
    s->key.cap = 256;
    s->key.buffer = PyMem_Malloc((size_t)s->key.cap);
    s->scores = PyMem_Malloc(sizeof(double) * (size_t)m->n_classes);
    s->tags.memo.active = m->bias != NULL && m->records.len / 8 < UINT32_MAX;
    if (!s->key.buffer || !s->scores) {
        PyMem_Free(s->key.buffer);
        PyMem_Free(s->scores);
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void scratch_free(Scratch *s)
{
    PyMem_Free(s->key.buffer);
    PyMem_Free(s->scores);
    tags_free(&s->tags);
    PyMem_Free(s->chars.data);
    PyMem_Free(s->shapes.data);
    PyMem_Free(s->start);
    PyMem_Free(s->shape_start);
    PyMem_Free(s->shape_len);
    PyMem_Free(s->head);
    PyMem_Free(s->word);
    PyMem_Free(s->context);
}

static int model_ready(const Model *m)
{
    if (!m->slots) {
        PyErr_SetString(PyExc_ValueError, "tagger: the model is not loaded");
        return 0;
    }
    return 1;
}

PyDoc_STRVAR(tag_doc, "tag(tokens) -> list of tags (tokens: a list of str, with their case).");

static PyObject *model_tag(Model *m, PyObject *tokens)
{
    Scratch s;
    if (!model_ready(m) || scratch_init(&s, m) < 0)
        return NULL;
    PyObject *tags = tag_sentence(m, tokens, &s.key, s.scores, &s.tags);
    scratch_free(&s);
    return tags;
}

PyDoc_STRVAR(tag_many_doc,
             "tag_many(sentences) -> list of tag lists (sentences: a list of lists of str).");

static PyObject *model_tag_many(Model *m, PyObject *sentences)
{
    if (!PyList_Check(sentences)) {
        PyErr_SetString(PyExc_TypeError, "tag_many: sentences must be a list");
        return NULL;
    }
    Scratch s;
    if (!model_ready(m) || scratch_init(&s, m) < 0)
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(sentences);
    PyObject *out = PyList_New(n);
    for (Py_ssize_t i = 0; out && i < n; i++) {
        PyObject *tags = tag_sentence(m, PyList_GET_ITEM(sentences, i), &s.key, s.scores, &s.tags);
        if (!tags)
            Py_CLEAR(out);
        else
            PyList_SET_ITEM(out, i, tags);
    }
    scratch_free(&s);
    return out;
}

/* Which classes are topic tags for these prefixes (a tuple of str); NULL on error. */
static char *topic_classes(const Model *m, PyObject *prefixes)
{
    for (Py_ssize_t p = 0; p < PyTuple_GET_SIZE(prefixes); p++) {
        if (!PyUnicode_Check(PyTuple_GET_ITEM(prefixes, p))) {
            PyErr_SetString(PyExc_TypeError, "topic words: prefixes must be str");
            return NULL;
        }
    }
    char *topic = PyMem_Calloc((size_t)m->n_classes, 1);
    if (!topic) {
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t c = 0; c < m->n_classes; c++) {
        for (Py_ssize_t p = 0; !topic[c] && p < PyTuple_GET_SIZE(prefixes); p++) {
            Py_ssize_t match = PyUnicode_Tailmatch(PyTuple_GET_ITEM(m->classes, c),
                                                   PyTuple_GET_ITEM(prefixes, p), 0,
                                                   PY_SSIZE_T_MAX, -1);
            if (match < 0) {
                PyMem_Free(topic);
                return NULL;
            }
            topic[c] = (char)match;
        }
    }
    return topic;
}

/* Whether token i's tag starts with a prefix: -1 on error. */
static int is_topic(const Model *m, const char *topic, PyObject *prefixes, int cls,
                    const TagEntry *entry)
{
    if (cls >= 0)
        return topic[cls];
    for (Py_ssize_t p = 0; p < PyTuple_GET_SIZE(prefixes); p++) {
        Py_ssize_t match =
            PyUnicode_Tailmatch(entry->tag, PyTuple_GET_ITEM(prefixes, p), 0, PY_SSIZE_T_MAX, -1);
        if (match)
            return (int)match;
    }
    (void)m;
    return 0;
}

PyDoc_STRVAR(topic_words_doc,
             "topic_words(sentences, prefixes, lowercase) -> list of lists of str\n\n"
             "For each sentence (a list of cased tokens), the tokens whose tag starts with one of\n"
             "the prefixes (a tuple of str), lowercased with str.lower if lowercase is true:\n"
             "pos.topic_filter over tag(tokens), in one call.");

static PyObject *model_topic_words(Model *m, PyObject *args)
{
    PyObject *sentences, *prefixes;
    int lowercase;
    if (!PyArg_ParseTuple(args, "O!O!p", &PyList_Type, &sentences, &PyTuple_Type, &prefixes,
                          &lowercase))
        return NULL;
    char *topic = model_ready(m) ? topic_classes(m, prefixes) : NULL;
    Scratch s;
    if (!topic || scratch_init(&s, m) < 0) {
        PyMem_Free(topic);
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(sentences);
    PyObject *out = PyList_New(n);
    for (Py_ssize_t i = 0; out && i < n; i++) {
        PyObject *tokens = PyList_GET_ITEM(sentences, i);
        PyObject *tags = tag_sentence(m, tokens, &s.key, s.scores, &s.tags);
        PyObject *kept = tags ? PyList_New(0) : NULL;
        for (Py_ssize_t t = 0; kept && t < PyList_GET_SIZE(tags); t++) {
            int keep = is_topic(m, topic, prefixes, s.tags.cls[t], s.tags.entry[t]);
            if (keep <= 0) {
                if (keep < 0)
                    Py_CLEAR(kept);
                continue;
            }
            PyObject *token = PyList_GET_ITEM(tokens, t);
            PyObject *word = lowercase ? lowered(token) : (Py_INCREF(token), token);
            if (!word || PyList_Append(kept, word) < 0)
                Py_CLEAR(kept);
            Py_XDECREF(word);
        }
        Py_XDECREF(tags);
        if (!kept)
            Py_CLEAR(out);
        else
            PyList_SET_ITEM(out, i, kept);
    }
    scratch_free(&s);
    PyMem_Free(topic);
    return out;
}

/* ------------------------------------------------------------------ ASCII word runs */

static int ascii_reserve(Scratch *s, Py_ssize_t n)
{
    if (tags_reserve(&s->tags, n) < 0)
        return -1;
    if (n + 4 <= s->cap)
        return 0;
    Py_ssize_t cap = s->cap ? s->cap : 64;
    while (cap < n + 4)
        cap *= 2;
    Py_ssize_t **arrays[] = {&s->start, &s->shape_start, &s->shape_len, &s->head};
    for (size_t a = 0; a < sizeof arrays / sizeof *arrays; a++) {
        Py_ssize_t *grown = PyMem_Realloc(*arrays[a], sizeof(Py_ssize_t) * (size_t)cap);
        if (!grown) {
            PyErr_NoMemory();
            return -1;
        }
        *arrays[a] = grown;
    }
    Part *word = PyMem_Realloc(s->word, sizeof(Part) * (size_t)cap);
    if (word)
        s->word = word;
    Part *context = PyMem_Realloc(s->context, sizeof(Part) * (size_t)cap);
    if (context)
        s->context = context;
    if (!word || !context) {
        PyErr_NoMemory();
        return -1;
    }
    s->cap = cap;
    return 0;
}

static inline int ascii_word_char(Py_UCS4 c)
{
    return c < 128 && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'));
}

static Part constant_part(const char *text)
{
    Py_ssize_t n = (Py_ssize_t)strlen(text);
    Part part = {text, n, n > 3 ? n - 3 : 0};
    return part;
}

/* The runs of [A-Za-z0-9] of a str as a prepared sentence (tokens without Python objects). */
static int ascii_sentence(Scratch *s, PyObject *text, Sentence *t)
{
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    Py_ssize_t length = PyUnicode_GET_LENGTH(text), n = 0;
    s->chars.len = s->shapes.len = 0;
    if (bytes_reserve(&s->chars, length) < 0)
        return -1;
    Py_ssize_t i = 0;
    while (i < length) {
        if (!ascii_word_char(PyUnicode_READ(kind, data, i))) {
            i++;
            continue;
        }
        if (n + 1 > s->cap - 4 && ascii_reserve(s, n + 1) < 0)
            return -1;
        s->start[n] = s->chars.len;
        while (i < length) {
            Py_UCS4 c = PyUnicode_READ(kind, data, i);
            if (!ascii_word_char(c))
                break;
            s->chars.data[s->chars.len++] = (char)c;
            i++;
        }
        n++;
    }
    if (ascii_reserve(s, n) < 0 || bytes_reserve(&s->shapes, s->chars.len) < 0)
        return -1;
    for (Py_ssize_t k = 0; k < n; k++) {
        Py_ssize_t end = k + 1 < n ? s->start[k + 1] : s->chars.len;
        const char *w = s->chars.data + s->start[k];
        Py_ssize_t len = end - s->start[k];
        s->word[k].s = w;
        s->word[k].n = len;
        s->word[k].tail = len > 3 ? len - 3 : 0;
        s->head[k] = 1;
        /* pos._normalise: no hyphen in a run; "!YEAR", "!DIGITS" or the lowercased word */
        int digits = len == 4;
        for (Py_ssize_t j = 0; digits && j < len; j++)
            digits = w[j] >= '0' && w[j] <= '9';
        if (digits) {
            s->context[k + 2] = constant_part("!YEAR");
        } else if (w[0] >= '0' && w[0] <= '9') {
            s->context[k + 2] = constant_part("!DIGITS");
        } else {
            char *shape = s->shapes.data + s->shapes.len;
            for (Py_ssize_t j = 0; j < len; j++)
                shape[j] = (char)(w[j] >= 'A' && w[j] <= 'Z' ? w[j] + 32 : w[j]);
            s->context[k + 2].s = shape;
            s->context[k + 2].n = len;
            s->context[k + 2].tail = len > 3 ? len - 3 : 0;
            s->shapes.len += len;
        }
    }
    s->context[0] = constant_part("-START-");
    s->context[1] = constant_part("-START2-");
    s->context[n + 2] = constant_part("-END-");
    s->context[n + 3] = constant_part("-END2-");
    memset(t, 0, sizeof *t);
    t->n = n;
    t->word = s->word;
    t->head = s->head;
    t->context = s->context;
    return 0;
}

PyDoc_STRVAR(ascii_topic_words_doc,
             "ascii_topic_words(texts, prefixes, lowercase, joined=False) -> list\n\n"
             "topic_words for texts whose cased tokens are their runs of [A-Za-z0-9] (any other\n"
             "character separates tokens), tokenized here. With joined, each text's topic words\n"
             "come as one str, separated by spaces.");

static PyObject *model_ascii_topic_words(Model *m, PyObject *args)
{
    PyObject *texts, *prefixes;
    int lowercase, joined = 0;
    if (!PyArg_ParseTuple(args, "O!O!p|p", &PyList_Type, &texts, &PyTuple_Type, &prefixes,
                          &lowercase, &joined))
        return NULL;
    char *topic = model_ready(m) ? topic_classes(m, prefixes) : NULL;
    Scratch s;
    if (!topic || scratch_init(&s, m) < 0) {
        PyMem_Free(topic);
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(texts);
    PyObject *out = PyList_New(n);
    for (Py_ssize_t i = 0; out && i < n; i++) {
        PyObject *text = PyList_GET_ITEM(texts, i);
        Sentence t;
        if (!PyUnicode_Check(text)) {
            PyErr_SetString(PyExc_TypeError, "ascii_topic_words: texts must be str");
            Py_CLEAR(out);
            break;
        }
        if (ascii_sentence(&s, text, &t) < 0 ||
            tag_parts(m, &t, &s.key, s.scores, &s.tags.shapes, &s.tags.memo, s.tags.cls,
                      s.tags.entry) < 0) {
            Py_CLEAR(out);
            break;
        }
        if (joined) { /* the topic words in one str, separated by spaces */
            Py_ssize_t length = 0, count = 0;
            for (Py_ssize_t k = 0; k < t.n; k++) {
                int keep = is_topic(m, topic, prefixes, s.tags.cls[k], s.tags.entry[k]);
                if (keep < 0)
                    break;
                s.tags.cls[k] = keep ? s.tags.cls[k] : -2; /* -2: not kept */
                if (keep) {
                    length += t.word[k].n;
                    count++;
                }
            }
            PyObject *words = PyErr_Occurred() ? NULL : PyUnicode_New(length + count - (count > 0), 127);
            if (!words) {
                Py_CLEAR(out);
                break;
            }
            char *d = (char *)PyUnicode_DATA(words);
            for (Py_ssize_t k = 0; k < t.n; k++) {
                if (s.tags.cls[k] == -2)
                    continue;
                if (d != (char *)PyUnicode_DATA(words))
                    *d++ = ' ';
                const char *w = t.word[k].s;
                for (Py_ssize_t j = 0; j < t.word[k].n; j++)
                    *d++ = (char)(lowercase && w[j] >= 'A' && w[j] <= 'Z' ? w[j] + 32 : w[j]);
            }
            PyList_SET_ITEM(out, i, words);
            continue;
        }
        PyObject *kept = PyList_New(0);
        for (Py_ssize_t k = 0; kept && k < t.n; k++) {
            int keep = is_topic(m, topic, prefixes, s.tags.cls[k], s.tags.entry[k]);
            if (keep <= 0) {
                if (keep < 0)
                    Py_CLEAR(kept);
                continue;
            }
            PyObject *word = PyUnicode_New(t.word[k].n, 127);
            if (word) {
                char *d = (char *)PyUnicode_DATA(word);
                const char *w = t.word[k].s;
                for (Py_ssize_t j = 0; j < t.word[k].n; j++)
                    d[j] = (char)(lowercase && w[j] >= 'A' && w[j] <= 'Z' ? w[j] + 32 : w[j]);
            }
            if (!word || PyList_Append(kept, word) < 0)
                Py_CLEAR(kept);
            Py_XDECREF(word);
        }
        if (!kept)
            Py_CLEAR(out);
        else
            PyList_SET_ITEM(out, i, kept);
    }
    scratch_free(&s);
    PyMem_Free(topic);
    return out;
}

static PyMethodDef model_methods[] = {
    {"tag", (PyCFunction)model_tag, METH_O, tag_doc},
    {"tag_many", (PyCFunction)model_tag_many, METH_O, tag_many_doc},
    {"topic_words", (PyCFunction)model_topic_words, METH_VARARGS, topic_words_doc},
    {"ascii_topic_words", (PyCFunction)model_ascii_topic_words, METH_VARARGS,
     ascii_topic_words_doc},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject ModelType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "rouge_plus.rouge2._tagger.Model",
    .tp_doc = PyDoc_STR("Model(features, weights, classes, tagdict): the tagger's weights."),
    .tp_basicsize = sizeof(Model),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)model_init,
    .tp_dealloc = (destructor)model_dealloc,
    .tp_methods = model_methods,
};

PyDoc_STRVAR(set_word_cache_limit_doc,
             "_set_word_cache_limit(entries) -> previous\n\n"
             "How many words a model's cache of look-ups holds before it starts over (results do\n"
             "not change). For the tests.");

static PyObject *set_word_cache_limit(PyObject *Py_UNUSED(module), PyObject *arg)
{
    Py_ssize_t limit = PyNumber_AsSsize_t(arg, PyExc_OverflowError);
    if (limit == -1 && PyErr_Occurred())
        return NULL;
    if (limit < 1 || limit > INT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "the limit must be between 1 and 2**31 - 1");
        return NULL;
    }
    Py_ssize_t previous = word_cache_limit;
    word_cache_limit = limit;
    return PyLong_FromSsize_t(previous);
}

static PyMethodDef module_methods[] = {
    {"_set_word_cache_limit", set_word_cache_limit, METH_O, set_word_cache_limit_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef tagger_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "rouge_plus.rouge2._tagger",
    .m_doc = "The part-of-speech tagger's inference, compiled (see rouge2/pos.py).",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__tagger(void)
{
    struct {
        PyObject **slot;
        const char *text;
    } constants[] = {{&S_OPEN_QUOTE, "``"}, {&S_CLOSE_QUOTE, "''"}, {&S_HYPHEN, "!HYPHEN"},
                     {&S_YEAR, "!YEAR"},    {&S_DIGITS, "!DIGITS"},  {&S_LOWER, "lower"},
                     {&S_START, "-START-"}, {&S_START2, "-START2-"}, {&S_END, "-END-"},
                     {&S_END2, "-END2-"}};
    for (size_t i = 0; i < sizeof constants / sizeof *constants; i++) {
        if (!*constants[i].slot) {
            *constants[i].slot = PyUnicode_InternFromString(constants[i].text);
            if (!*constants[i].slot)
                return NULL;
        }
    }
    if (PyType_Ready(&ModelType) < 0)
        return NULL;
    PyObject *module = PyModule_Create(&tagger_module);
    if (!module)
        return NULL;
    Py_INCREF(&ModelType);
    if (PyModule_AddObject(module, "Model", (PyObject *)&ModelType) < 0) {
        Py_DECREF(&ModelType);
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
