/*
 * rouge_plus.rouge2._tagger, the inference: Model.tag(tokens) is PerceptronTagger._tag of
 * rouge2/pos.py restated: the same Penn spellings, word shapes, fourteen features in the same
 * order, the same sums (per class, feature by feature, in float64: adding a missing weight, 0,
 * changes no sum) and the same tie-breaking (the last class with the highest score). Features
 * are looked up by their UTF-8 bytes (lone surrogates as "surrogatepass" writes them, which no
 * feature of the model holds); the word shapes call str.lower and read str.isdigit's digits for
 * non-ASCII words. The tests compare it with the Python code on every sentence of the bench
 * corpus.
 */
#include "_tagger.h"

#include "../_compiled/ascii_words.h"

/* ------------------------------------------------------------------ the word cache's types */

Py_ssize_t word_cache_limit = 1 << 20;

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
    Buffer keys;
    uint64_t epoch; /* how many times the cache started over */
    Py_ssize_t n_after_tag, n_after_tag_slots;
    AfterTagSlot *after_tag;
} WordCache;

void cache_free(WordCache *c)
{
    if (!c)
        return;
    PyMem_Free(c->slots);
    PyMem_Free(c->entries);
    buffer_free(&c->keys);
    PyMem_Free(c->after_tag);
    PyMem_Free(c);
}

/* ------------------------------------------------------------------ words */

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

/* The tag dictionary's entry for a word's bytes, or NULL. */
static const TagEntry *lookup_tag(const Model *m, const char *key, Py_ssize_t n)
{
    uint64_t h = key_hash(key, n), check = h >> 32;
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

/* ------------------------------------------------------------------ sentences */

static PyObject *S_OPEN_QUOTE, *S_CLOSE_QUOTE, *S_HYPHEN, *S_YEAR, *S_DIGITS, *S_LOWER;
static PyObject *S_START, *S_START2, *S_END, *S_END2;

int tagger_strings_init(void)
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
                return -1;
        }
    }
    return 0;
}

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

PyObject *lowered(PyObject *token)
{
    if (!PyUnicode_IS_ASCII(token))
        return PyObject_CallMethodNoArgs(token, S_LOWER);
    Py_ssize_t n = PyUnicode_GET_LENGTH(token);
    const unsigned char *s = PyUnicode_DATA(token);
    Py_ssize_t i = 0;
    while (i < n && ascii_lower(s[i]) == s[i])
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
        d[i] = (char)ascii_lower(s[i]);
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
    k->len = 0;
    if (reserve_or_raise(k, n) < 0) {
        *error = 1;
        return NULL;
    }
    char *key = k->data;
    put(key, prefix, prefix_len);
    put(key + prefix_len, a, a_len);
    if (b) {
        key[prefix_len + a_len] = ' ';
        put(key + prefix_len + a_len + 1, b, b_len);
    }
    return find_feature(m, key, n);
}

/* Per class, the same additions in the same order whatever the vector width. */
CLONED_FOR_AVX2
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

/* A new, empty word cache; NULL with MemoryError set on error. */
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
        uint64_t h = key_hash(c->keys.data + entry->key_at, entry->key_len);
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
        Py_ssize_t cap = grown_capacity(c->cap, c->n_entries + 1, 512);
        WordEntry *entries = PyMem_Realloc(c->entries, sizeof(WordEntry) * (size_t)cap);
        if (!entries) {
            PyErr_NoMemory();
            return -1;
        }
        c->entries = entries;
        c->cap = cap;
    }
    if (reserve_or_raise(&c->keys, n) < 0)
        return -1;
    found->index = c->n_entries;
    WordEntry *e = &c->entries[c->n_entries];
    *e = *found;
    e->key_at = c->keys.len;
    e->key_len = n;
    memcpy(c->keys.data + c->keys.len, key, (size_t)n);
    c->keys.len += n;
    uint64_t h = key_hash(key, n);
    Py_ssize_t j = (Py_ssize_t)(h & (uint64_t)(c->n_slots - 1));
    while (c->slots[j])
        j = (j + 1) & (c->n_slots - 1);
    c->slots[j] = (h >> 32) << 32 | (uint64_t)(++c->n_entries);
    return 0;
}

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
    uint64_t h = key_hash(word.s, word.n);
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

/* The tag features by tag number: the classes, then -START- (n_classes) and -START2-; the "bias"
 * and edge records; an empty word cache. */
int build_tag_tables(Model *m)
{
    Py_ssize_t n = m->n_classes + 2;
    m->tag_1 = PyMem_Calloc((size_t)n, sizeof(RecordHead *));
    m->tag_2 = PyMem_Calloc((size_t)n, sizeof(RecordHead *));
    m->tag_pair = PyMem_Calloc((size_t)(n * n), sizeof(RecordHead *));
    m->word_cache = cache_new();
    Key k = {0};
    if (!m->tag_1 || !m->tag_2 || !m->tag_pair) {
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
    buffer_free(&k);
    return error ? -1 : 0;
}

/* ------------------------------------------------------------------ predictions */

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

struct Prediction_ {
    uint32_t records[FEATURES];
    int32_t cls;
    uint32_t unused;
};

_Static_assert(sizeof(Prediction) == 64, "a memo entry is one cache line");

/* Slots of the memo: a fixed, direct-mapped table (a new prediction replaces the one in its
 * slot), small enough to stay in cache: a table sized to all of a call's predictions ran to
 * tens of megabytes, and its misses to memory cost more than the sums it saved. */
#define MEMO_SLOTS (1 << 15) /* 2 MiB */

static uint64_t hash_records(const uint32_t *records)
{
    uint64_t h = 0x9E3779B97F4A7C15ULL;
    for (int f = 0; f < FEATURES; f += 2)
        h = hash_mix(h, (uint64_t)records[f] << 32 | records[f + 1]);
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

/* ------------------------------------------------------------------ sentences' tags */

int tag_parts(Model *m, const Sentence *t, Key *k, double *scores, Shapes *shapes, Memo *memo,
              int *cls, const TagEntry **entry)
{
    if (t->n + 4 > shapes->cap) {
        Py_ssize_t cap = grown_capacity(shapes->cap, t->n + 4, 64);
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

/* Room for the results of n tokens; -1 on memory error. */
int tags_reserve(Tags *g, Py_ssize_t n)
{
    if (n <= g->cap)
        return 0;
    Py_ssize_t cap = grown_capacity(g->cap, n, 64);
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

void tags_free(Tags *g)
{
    PyMem_Free(g->cls);
    PyMem_Free((void *)g->entry);
    PyMem_Free(g->shapes.entries);
    PyMem_Free((void *)g->shapes.shape);
    PyMem_Free(g->memo.block);
}

PyObject *tag_sentence(Model *m, PyObject *tokens, Key *k, double *scores, Tags *g)
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
