/*
 * rouge_plus._native: the hot loops of rouge_plus, in C.
 *
 * Two pieces, both exact re-statements of the pure-Python reference code:
 *   - Vocabulary.encode: texts to token ids. A str item is tokenized here with rouge_score's rule
 *     (lowercased runs of [a-z0-9]; every other code point separates tokens; "\n" ends a
 *     sentence). The caller only passes str items for which that rule is the chosen tokenizer's
 *     result; anything else arrives pre-tokenized as a list of sentences of str tokens.
 *   - count_pairs: for every (prediction, reference) document pair and every requested measure,
 *     the hit count and the two bases (scoring/counting.py documents the contract). It runs
 *     without the GIL, on buffers only, reference by reference, each pair rewritten in ids of its
 *     own (OwnIds), so that per-word tables are as small as the pair.
 *
 * Mirrors: kernels/ngram.py (clipped n-gram overlap), kernels/lcs.py (bit-parallel LCS of
 * Allison-Dix/Hyyro, the traceback rouge_score walks, and the clipped summary-level union LCS),
 * kernels/weighted_lcs.py (ROUGE-1.5.5's ROUGE-W, same floating-point operation order) and
 * kernels/skip_bigram.py (ROUGE-1.5.5's ROUGE-S/SU).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ growable buffers */

typedef struct {
    char *data;
    Py_ssize_t len; /* bytes used */
    Py_ssize_t cap; /* bytes allocated */
} Buffer;

/* Room for `extra` more bytes. The buffer is allocated even when extra is 0, so that data is
 * never NULL after a successful call: a zero-size request is not a memory error, and memcpy,
 * memset or memcmp of 0 bytes always get a valid pointer. */
static int buffer_reserve(Buffer *b, Py_ssize_t extra)
{
    if (extra < 0 || extra > PY_SSIZE_T_MAX - b->len)
        return -1;
    if (b->data && b->len + extra <= b->cap)
        return 0;
    Py_ssize_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra)
        cap = cap <= PY_SSIZE_T_MAX / 2 ? cap * 2 : b->len + extra;
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
    if (n > 0)
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

/* A slot of the vocabulary's table: a word's hash, its first 8 bytes (zero-padded), its length
 * and id. A word of at most 8 bytes (most) is found without reading the words' text. */
typedef struct {
    uint64_t hash;
    uint64_t head;
    int32_t id; /* -1 marks an empty slot */
    int32_t length;
} Slot;

typedef struct {
    PyObject_HEAD
    Slot *slots;         /* open addressing, linear probing */
    Py_ssize_t n_slots;  /* a power of two */
    Py_ssize_t n_words;
    Buffer text;    /* the words' UTF-8 bytes, back to back */
    Buffer offsets; /* int64 start of each word in text, plus one end offset */
    int busy;       /* set while encode runs, part of it without the GIL */
    int siphash;       /* 0: the fast hash; 1: SipHash-1-3, after lookups probed too much */
    int weak;          /* the fast hash is 0 for every word (for the tests only) */
    Py_ssize_t probes;  /* slots inspected by all lookups so far */
    Py_ssize_t lookups; /* word lookups so far */
} Vocabulary;

/*
 * Word hashes. Both are keyed with secrets drawn from os.urandom when the module is imported, so
 * no one can precompute words that collide in the table (the unseeded FNV-1a used before let
 * 1.2 MB of crafted words cost rouge1 15 s instead of 20 ms):
 *   - the fast hash: the word's 8-byte chunks (in the machine's byte order, the last one
 *     zero-padded) folded with 64x64->128-bit multiplications by secret constants, and two
 *     rounds more;
 *   - SipHash-1-3 (CPython's hash for str), a keyed pseudorandom function. A Vocabulary switches
 *     to it for good, rehashing its words, if lookups ever inspect more than
 *     FLOOD_PROBES_PER_LOOKUP slots per lookup on average (plus FLOOD_SLACK): whatever the words,
 *     probing then stays linear in the number of lookups.
 * Ids are assigned in order of first appearance, so results never depend on the keys.
 */
static uint64_t hash_key[8]; /* SipHash's two words, then the fast hash's six */
static int weak_hash_for_tests; /* _native._weaken_hash: new Vocabularies' fast hash is 0 */

#define FLOOD_PROBES_PER_LOOKUP 3
#define FLOOD_SLACK 4096

static inline uint64_t mum(uint64_t a, uint64_t b)
{
    unsigned __int128 product = (unsigned __int128)a * b;
    return (uint64_t)product ^ (uint64_t)(product >> 64);
}

static inline uint64_t load64(const char *s)
{
    uint64_t chunk;
    memcpy(&chunk, s, sizeof chunk);
    return chunk;
}

/* Bytes s[0:n] (n <= 8) as the chunk load64 reads when zeros follow them. */
static inline uint64_t partial_chunk(const char *s, Py_ssize_t n)
{
    uint64_t chunk = 0;
    memcpy(&chunk, s, (size_t)n);
    return chunk;
}

/* The fast hash in three steps: start, absorb each whole chunk, finish with the last (partial,
 * zero-padded, possibly empty) chunk and the length. Two rounds at the end: one product by a
 * constant leaves the low bits (the table's slot) poorly mixed when words differ in a few bytes
 * (w1 .. w99999); the high half of a second product depends on every bit of the first. */
static inline uint64_t fast_hash_start(void) { return hash_key[2]; }

static inline uint64_t fast_hash_chunk(uint64_t state, uint64_t chunk)
{
    return mum(state ^ chunk, hash_key[3]);
}

static inline uint64_t fast_hash_finish(uint64_t state, uint64_t last, Py_ssize_t n)
{
    uint64_t first = mum(state ^ last ^ hash_key[4], (uint64_t)n ^ hash_key[5]);
    return mum(first ^ hash_key[6], hash_key[7]);
}

/* The fast hash of s[0:n]. */
static inline uint64_t fast_hash(const char *s, Py_ssize_t n)
{
    uint64_t state = fast_hash_start();
    Py_ssize_t whole = n & ~(Py_ssize_t)7;
    for (Py_ssize_t i = 0; i < whole; i += 8)
        state = fast_hash_chunk(state, load64(s + i));
    return fast_hash_finish(state, partial_chunk(s + whole, n - whole), n);
}

#define ROTL64(x, b) (uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))
#define SIPROUND(v0, v1, v2, v3)                                                                   \
    do {                                                                                           \
        v0 += v1;                                                                                  \
        v1 = ROTL64(v1, 13);                                                                       \
        v1 ^= v0;                                                                                  \
        v0 = ROTL64(v0, 32);                                                                       \
        v2 += v3;                                                                                  \
        v3 = ROTL64(v3, 16);                                                                       \
        v3 ^= v2;                                                                                  \
        v0 += v3;                                                                                  \
        v3 = ROTL64(v3, 21);                                                                       \
        v3 ^= v0;                                                                                  \
        v2 += v1;                                                                                  \
        v1 = ROTL64(v1, 17);                                                                       \
        v1 ^= v2;                                                                                  \
        v2 = ROTL64(v2, 32);                                                                       \
    } while (0)

static uint64_t siphash13(const char *s, Py_ssize_t n)
{
    uint64_t v0 = hash_key[0] ^ 0x736f6d6570736575ULL, v1 = hash_key[1] ^ 0x646f72616e646f6dULL;
    uint64_t v2 = hash_key[0] ^ 0x6c7967656e657261ULL, v3 = hash_key[1] ^ 0x7465646279746573ULL;
    const unsigned char *p = (const unsigned char *)s;
    Py_ssize_t whole = n & ~(Py_ssize_t)7;
    for (Py_ssize_t i = 0; i < whole; i += 8) {
        uint64_t m = 0;
        for (int k = 7; k >= 0; k--) /* little-endian, whatever the machine's order */
            m = (m << 8) | p[i + k];
        v3 ^= m;
        SIPROUND(v0, v1, v2, v3);
        v0 ^= m;
    }
    uint64_t last = (uint64_t)n << 56;
    for (Py_ssize_t k = n - whole - 1; k >= 0; k--)
        last |= (uint64_t)p[whole + k] << (8 * k);
    v3 ^= last;
    SIPROUND(v0, v1, v2, v3);
    v0 ^= last;
    v2 ^= 0xff;
    SIPROUND(v0, v1, v2, v3);
    SIPROUND(v0, v1, v2, v3);
    SIPROUND(v0, v1, v2, v3);
    return v0 ^ v1 ^ v2 ^ v3;
}

/* The hash of a word under the vocabulary's current function. */
static uint64_t word_hash(const Vocabulary *v, const char *s, Py_ssize_t n)
{
    if (v->siphash)
        return siphash13(s, n);
    return v->weak ? 0 : fast_hash(s, n);
}

/* The per-process keys, from os.urandom; -1 with an exception set on failure. */
static int init_hash_key(void)
{
    PyObject *os = PyImport_ImportModule("os");
    if (!os)
        return -1;
    PyObject *bytes = PyObject_CallMethod(os, "urandom", "i", (int)sizeof hash_key);
    Py_DECREF(os);
    if (!bytes)
        return -1;
    if (!PyBytes_Check(bytes) || PyBytes_GET_SIZE(bytes) != (Py_ssize_t)sizeof hash_key) {
        Py_DECREF(bytes);
        PyErr_SetString(PyExc_RuntimeError, "os.urandom returned an unexpected value");
        return -1;
    }
    memcpy(hash_key, PyBytes_AS_STRING(bytes), sizeof hash_key);
    Py_DECREF(bytes);
    hash_key[3] |= 1; /* odd multipliers: never 0 */
    hash_key[7] |= 1;
    hash_key[5] |= 1ULL << 63; /* above any length, so length ^ key is never 0 */
    return 0;
}

/* A table of n_slots empty slots, or NULL. */
static Slot *empty_slots(Py_ssize_t n_slots)
{
    Slot *slots = malloc(sizeof(Slot) * (size_t)n_slots);
    if (slots)
        for (Py_ssize_t i = 0; i < n_slots; i++)
            slots[i].id = -1;
    return slots;
}

/* Put a slot into a table without it (no slot holds the same word). */
static void place_slot(Slot *slots, Py_ssize_t n_slots, Slot slot)
{
    Py_ssize_t j = (Py_ssize_t)(slot.hash & (uint64_t)(n_slots - 1));
    while (slots[j].id >= 0)
        j = (j + 1) & (n_slots - 1);
    slots[j] = slot;
}

static int vocabulary_grow(Vocabulary *v)
{
    Py_ssize_t n_slots = v->n_slots ? v->n_slots * 2 : 1024;
    Slot *slots = empty_slots(n_slots);
    if (!slots)
        return -1;
    for (Py_ssize_t i = 0; i < v->n_slots; i++)
        if (v->slots[i].id >= 0)
            place_slot(slots, n_slots, v->slots[i]);
    free(v->slots);
    v->slots = slots;
    v->n_slots = n_slots;
    return 0;
}

/* Rehash every word with SipHash-1-3 into a fresh table of the same size; -1 on memory error. */
static int vocabulary_switch_to_siphash(Vocabulary *v)
{
    Slot *slots = empty_slots(v->n_slots);
    if (!slots)
        return -1;
    const int64_t *offsets = (const int64_t *)v->offsets.data;
    for (Py_ssize_t i = 0; i < v->n_slots; i++) {
        Slot slot = v->slots[i];
        if (slot.id < 0)
            continue;
        slot.hash = siphash13(v->text.data + offsets[slot.id], slot.length);
        place_slot(slots, v->n_slots, slot);
    }
    free(v->slots);
    v->slots = slots;
    v->siphash = 1;
    return 0;
}

/* The id of the word s[0:n], whose word_hash is h and whose first 8 bytes (zero-padded) are
 * head, adding it when new; -1 on memory error. */
static int32_t vocabulary_id(Vocabulary *v, const char *s, Py_ssize_t n, uint64_t h, uint64_t head)
{
    if (2 * (v->n_words + 1) > v->n_slots && vocabulary_grow(v) < 0)
        return -1;
    if (n > INT32_MAX)
        return -1;
    Py_ssize_t mask = v->n_slots - 1;
    Py_ssize_t j = (Py_ssize_t)(h & (uint64_t)mask);
    const int64_t *offsets = (const int64_t *)v->offsets.data;
    int32_t id = -1;
    v->lookups++;
    v->probes++;
    for (const Slot *slot = v->slots + j; slot->id >= 0; slot = v->slots + j) {
        v->probes++;
        if (slot->hash == h && slot->length == n && slot->head == head &&
            (n <= 8 || memcmp(v->text.data + offsets[slot->id] + 8, s + 8, (size_t)n - 8) == 0)) {
            id = slot->id;
            break;
        }
        j = (j + 1) & mask;
    }
    if (id < 0) {
        if (v->n_words >= INT32_MAX - 1)
            return -1;
        if (buffer_append(&v->text, s, n) < 0 || buffer_push_i64(&v->offsets, v->text.len) < 0)
            return -1;
        v->slots[j] = (Slot){h, head, (int32_t)v->n_words, (int32_t)n};
        id = (int32_t)v->n_words++;
    }
    if (!v->siphash && v->probes > FLOOD_PROBES_PER_LOOKUP * v->lookups + FLOOD_SLACK &&
        vocabulary_switch_to_siphash(v) < 0)
        return -1;
    return id;
}

static int vocabulary_init(Vocabulary *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "", kwlist))
        return -1;
    self->weak = weak_hash_for_tests;
    if (self->offsets.len == 0 && buffer_push_i64(&self->offsets, 0) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void vocabulary_dealloc(Vocabulary *self)
{
    free(self->slots);
    buffer_free(&self->text);
    buffer_free(&self->offsets);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int vocabulary_claim(Vocabulary *v)
{
    if (v->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this Vocabulary is in use by another thread");
        return -1;
    }
    v->busy = 1;
    return 0;
}

typedef struct {
    Buffer ids;       /* int32 token ids */
    Buffer sentences; /* int64 token offset of each sentence start, plus the end */
    Buffer documents; /* int64 sentence offset of each document start, plus the end */
    Buffer word;      /* the current token, lowercased */
} Encoded;

static int encoded_close_sentence(Encoded *e, int64_t *sentence_start)
{
    int64_t here = e->ids.len / (Py_ssize_t)sizeof(int32_t);
    if (here == *sentence_start)
        return 0; /* empty sentences carry no tokens and change no score */
    *sentence_start = here;
    return buffer_push_i64(&e->sentences, here);
}

static int encoded_close_document(Encoded *e)
{
    return buffer_push_i64(&e->documents, e->sentences.len / (Py_ssize_t)sizeof(int64_t) - 1);
}

/* rouge_score's rule per code point below 128: the lowercased character inside a token, 0 for a
 * separator. Every code point from 128 up separates tokens. */
static unsigned char token_byte[128];
/* The same for the code points of a one-byte (latin-1) str: 0 from 128 up. */
static unsigned char latin1_token_byte[256];

static void init_token_bytes(void)
{
    for (int c = 0; c < 128; c++) {
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
            token_byte[c] = (unsigned char)c;
        else if (c >= 'A' && c <= 'Z')
            token_byte[c] = (unsigned char)(c + 32);
        latin1_token_byte[c] = token_byte[c];
    }
}

static inline unsigned char token_char(Py_UCS4 c) { return c < 128 ? token_byte[c] : 0; }

/*
 * Eight bytes at a time (SWAR): the high bit of each byte of the result is set where the byte of
 * x is a token character, [A-Za-z0-9] (bytes from 128 up are separators, as in latin1_token_byte).
 * On the low 7 bits v of a byte, v + (128 - lo) reaches the high bit exactly when v >= lo, and
 * v + (127 - hi) when v > hi; no sum carries into the next byte. Letters are tested on v | 0x20,
 * which also lowercases them (digits already have that bit).
 */
#define BYTES(b) (0x0101010101010101ULL * (uint64_t)(b))
static inline uint64_t token_bytes(uint64_t x)
{
    const uint64_t high = BYTES(0x80), v = x & ~high, folded = v | BYTES(0x20);
    uint64_t letter = (folded + BYTES(128 - 'a')) & ~(folded + BYTES(127 - 'z'));
    uint64_t digit = (v + BYTES(128 - '0')) & ~(v + BYTES(127 - '9'));
    return (letter | digit) & ~x & high;
}

/* The mask of the first r bytes (in string order) of a chunk, 0 <= r <= 8. */
static inline uint64_t first_bytes(int r)
{
    if (r == 8)
        return ~0ULL;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return r ? ~0ULL << (64 - 8 * r) : 0;
#else
    return (1ULL << (8 * r)) - 1;
#endif
}

/* The number of leading bytes (in string order) of a chunk whose marks (token_bytes) are set. */
static inline int marked_prefix(uint64_t marks)
{
    uint64_t unmarked = ~marks & BYTES(0x80);
    if (!unmarked)
        return 8;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return __builtin_clzll(unmarked) / 8;
#else
    return __builtin_ctzll(unmarked) / 8;
#endif
}

/* A str item, as the tokenizer reads it without the GIL (the item itself stays referenced). */
typedef struct {
    int kind; /* PyUnicode_1BYTE_KIND, ... */
    const void *data;
    Py_ssize_t length;
} TextView;

/* Look a word up (adding it when new) and append its id; -1 on memory error. `hash` is its fast
 * hash and `head` its first 8 bytes, zero-padded. */
static inline int encode_word(Vocabulary *v, Encoded *e, const char *word, Py_ssize_t length,
                              uint64_t hash, uint64_t head)
{
    uint64_t h = v->siphash ? siphash13(word, length) : v->weak ? 0 : hash;
    int32_t id = vocabulary_id(v, word, length, h, head);
    if (id < 0)
        return -1;
    Buffer *ids = &e->ids;
    if (ids->data && ids->len + (Py_ssize_t)sizeof id <= ids->cap) { /* the common case */
        memcpy(ids->data + ids->len, &id, sizeof id);
        ids->len += sizeof id;
        return 0;
    }
    return buffer_push_i32(ids, id);
}

/*
 * rouge_score's rule on a str: lowercased ASCII letter/digit runs; "\n" ends a sentence. Each
 * token is lowercased and hashed in the same pass. Needs no GIL: it touches no Python object.
 */
static int encode_text(Vocabulary *v, Encoded *e, TextView text, int split_newlines,
                       int64_t *sentence_start)
{
    const Py_ssize_t n = text.length;
    const int kind = text.kind;
    const void *data = text.data;
    if (buffer_reserve(&e->word, n + 8) < 0) /* a word and 8 bytes of slack */
        return -1;
    char *word = e->word.data;
    Py_ssize_t i = 0;
    if (kind == PyUnicode_1BYTE_KIND) { /* most texts: one byte per code point, one table */
        const unsigned char *latin1 = data;
        while (i < n) {
            unsigned char lower = latin1_token_byte[latin1[i]];
            if (!lower) {
                if (latin1[i] == '\n' && split_newlines &&
                    encoded_close_sentence(e, sentence_start) < 0)
                    return -1;
                i++;
                continue;
            }
            /* A word: eight bytes at a time while they lie inside the text (a branch per word,
             * not per byte), hashed as it is read: the chunks stay in registers (loading them
             * back from `word` right after storing them would stall the load). */
            Py_ssize_t length = 0;
            uint64_t state = fast_hash_start(), last = 0, head = 0;
            int run = 8;
            while (run == 8 && i + 8 <= n) {
                uint64_t raw = load64((const char *)latin1 + i), chunk = raw | BYTES(0x20);
                run = marked_prefix(token_bytes(raw)); /* chunk: lowercased */
                memcpy(word + length, &chunk, 8); /* bytes past the word are overwritten later */
                last = chunk & first_bytes(run);
                if (length == 0)
                    head = last;
                if (run == 8)
                    state = fast_hash_chunk(state, chunk);
                length += run;
                i += run;
            }
            if (run == 8) { /* the text ends within 8 bytes: the rest byte by byte */
                Py_ssize_t whole = length;
                while (i < n && (lower = latin1_token_byte[latin1[i]]) != 0)
                    word[length++] = (char)lower, i++;
                last = partial_chunk(word + whole, length - whole);
                if (whole == 0)
                    head = last;
            }
            if (encode_word(v, e, word, length, fast_hash_finish(state, last, length), head) < 0)
                return -1;
        }
        return encoded_close_sentence(e, sentence_start);
    }
    while (i < n) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        unsigned char lower = token_char(c);
        if (!lower) {
            if (c == '\n' && split_newlines && encoded_close_sentence(e, sentence_start) < 0)
                return -1;
            i++;
            continue;
        }
        Py_ssize_t length = 0;
        do {
            word[length++] = (char)lower;
            i++;
            lower = i < n ? token_char(PyUnicode_READ(kind, data, i)) : 0;
        } while (lower);
        uint64_t head = partial_chunk(word, length < 8 ? length : 8);
        if (encode_word(v, e, word, length, fast_hash(word, length), head) < 0)
            return -1;
    }
    return encoded_close_sentence(e, sentence_start);
}

/*
 * A token's UTF-8 bytes. A str holding lone surrogates has no strict UTF-8 form; it is encoded
 * with "surrogatepass" (as words() decodes it) into *owner, which the caller releases.
 */
static const char *token_utf8(PyObject *token, Py_ssize_t *length, PyObject **owner)
{
    if (!PyUnicode_Check(token)) {
        PyErr_SetString(PyExc_TypeError, "tokens must be str");
        return NULL;
    }
    const char *utf8 = PyUnicode_AsUTF8AndSize(token, length);
    if (utf8 || !PyErr_ExceptionMatches(PyExc_UnicodeEncodeError))
        return utf8;
    PyErr_Clear();
    *owner = PyUnicode_AsEncodedString(token, "utf-8", "surrogatepass");
    if (!*owner)
        return NULL;
    *length = PyBytes_GET_SIZE(*owner);
    return PyBytes_AS_STRING(*owner);
}

/* A pre-tokenized item: a list of sentences, each a list of str tokens. Needs the GIL. */
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
            PyObject *encoded = NULL; /* owns the bytes of a token with lone surrogates */
            Py_ssize_t length;
            const char *utf8 = token_utf8(token, &length, &encoded);
            if (!utf8) {
                Py_DECREF(tokens);
                Py_DECREF(fast);
                return -1;
            }
            uint64_t head = partial_chunk(utf8, length < 8 ? length : 8);
            int32_t id = vocabulary_id(v, utf8, length, word_hash(v, utf8, length), head);
            Py_XDECREF(encoded);
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

/* Tokenize the str items items[first:last] (all str) without the GIL; -1 on memory error. */
static int encode_texts(Vocabulary *v, Encoded *e, PyObject *const *items, Py_ssize_t first,
                        Py_ssize_t last, int split_newlines, int64_t *sentence_start)
{
    TextView *views = malloc(sizeof(TextView) * (size_t)(last - first));
    if (!views)
        return -1;
    for (Py_ssize_t d = first; d < last; d++)
        views[d - first] = (TextView){PyUnicode_KIND(items[d]), PyUnicode_DATA(items[d]),
                                      PyUnicode_GET_LENGTH(items[d])};
    int status = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t d = first; d < last && status == 0; d++) {
        status = encode_text(v, e, views[d - first], split_newlines, sentence_start);
        if (status == 0)
            status = encoded_close_document(e);
    }
    Py_END_ALLOW_THREADS
    free(views);
    return status;
}

static PyObject *buffer_to_bytes(Buffer *b)
{
    return PyBytes_FromStringAndSize(b->data ? b->data : "", b->len);
}

static void encoded_free(Encoded *e)
{
    buffer_free(&e->ids);
    buffer_free(&e->sentences);
    buffer_free(&e->documents);
    buffer_free(&e->word);
}

PyDoc_STRVAR(vocabulary_encode_doc,
             "encode(items, split_newlines, prepare=None) -> (ids, sentence_offsets, "
             "document_offsets)\n\n"
             "Each item is a str (tokenized here with rouge_score's rule) or a list of sentences of\n"
             "str tokens. With prepare, every non-ASCII str item i is first replaced by\n"
             "prepare(i, item). Returns bytes of int32 token ids, int64 token offsets of sentences\n"
             "and int64 sentence offsets of documents. Empty sentences are dropped. Runs of str\n"
             "items are tokenized without the GIL.");

/* A new tuple of the items, each non-ASCII str item i replaced by prepare(i, item). */
static PyObject *prepared_items(PyObject *items, PyObject *prepare)
{
    PyObject *fast = PySequence_Fast(items, "items must be a sequence");
    if (!fast)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    PyObject *tuple = PyTuple_New(n);
    for (Py_ssize_t i = 0; tuple && i < n; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(fast, i);
        if (prepare != Py_None && PyUnicode_Check(item) && !PyUnicode_IS_ASCII(item)) {
            item = PyObject_CallFunction(prepare, "nO", i, item);
            if (!item)
                Py_CLEAR(tuple);
        } else {
            Py_INCREF(item);
        }
        if (tuple)
            PyTuple_SET_ITEM(tuple, i, item);
    }
    Py_DECREF(fast);
    return tuple;
}

/* Encode every item in order: runs of str items without the GIL, token lists with it. */
static int encode_items(Vocabulary *v, Encoded *e, PyObject *items, int split_newlines)
{
    /* A tuple: its str items stay referenced and in place while the GIL is released. */
    PyObject *const *item = &PyTuple_GET_ITEM(items, 0);
    Py_ssize_t n_items = PyTuple_GET_SIZE(items);
    int64_t sentence_start = 0;
    Py_ssize_t d = 0;
    while (d < n_items) {
        Py_ssize_t last = d;
        while (last < n_items && PyUnicode_Check(item[last])) {
            if (PyUnicode_READY(item[last]) < 0)
                return -1;
            last++;
        }
        if (last > d) {
            if (encode_texts(v, e, item, d, last, split_newlines, &sentence_start) < 0) {
                PyErr_NoMemory();
                return -1;
            }
            d = last;
            continue;
        }
        if (encode_tokens(v, e, item[d], &sentence_start) < 0)
            return -1;
        if (encoded_close_document(e) < 0) {
            PyErr_NoMemory();
            return -1;
        }
        d++;
    }
    return 0;
}

static PyObject *vocabulary_encode(Vocabulary *self, PyObject *args)
{
    PyObject *items, *prepare = Py_None;
    int split_newlines;
    if (!PyArg_ParseTuple(args, "Op|O", &items, &split_newlines, &prepare))
        return NULL;
    PyObject *tuple = prepared_items(items, prepare);
    if (!tuple)
        return NULL;
    if (vocabulary_claim(self) < 0) {
        Py_DECREF(tuple);
        return NULL;
    }
    Encoded e = {{0}, {0}, {0}, {0}};
    PyObject *result = NULL;
    if (buffer_push_i64(&e.sentences, 0) < 0 || buffer_push_i64(&e.documents, 0) < 0)
        PyErr_NoMemory();
    else if (encode_items(self, &e, tuple, split_newlines) == 0)
        result = Py_BuildValue("(NNN)", buffer_to_bytes(&e.ids), buffer_to_bytes(&e.sentences),
                               buffer_to_bytes(&e.documents));
    self->busy = 0;
    encoded_free(&e);
    Py_DECREF(tuple);
    return result;
}

PyDoc_STRVAR(vocabulary_words_doc, "words() -> list of the vocabulary's words, by id.");

static PyObject *vocabulary_words(Vocabulary *self, PyObject *Py_UNUSED(ignored))
{
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this Vocabulary is in use by another thread");
        return NULL;
    }
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

static PyMemberDef vocabulary_members[] = {
    {"probes", T_PYSSIZET, offsetof(Vocabulary, probes), READONLY,
     "Hash-table slots inspected by all word lookups so far (about 1.8 per lookup; many more\n"
     "would mean colliding words): a diagnostic for the tests."},
    {"lookups", T_PYSSIZET, offsetof(Vocabulary, lookups), READONLY, "Word lookups so far."},
    {"siphash", T_INT, offsetof(Vocabulary, siphash), READONLY,
     "1 once the table switched from the fast hash to SipHash-1-3 (lookups probed too many\n"
     "slots), else 0."},
    {NULL, 0, 0, 0, NULL},
};

static PySequenceMethods vocabulary_as_sequence = {.sq_length = (lenfunc)vocabulary_len};

static PyTypeObject VocabularyType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "rouge_plus.kernels._native.Vocabulary",
    .tp_doc = PyDoc_STR("Words to dense int32 ids, for one scoring call."),
    .tp_basicsize = sizeof(Vocabulary),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)vocabulary_init,
    .tp_dealloc = (destructor)vocabulary_dealloc,
    .tp_methods = vocabulary_methods,
    .tp_members = vocabulary_members,
    .tp_as_sequence = &vocabulary_as_sequence,
};

/* ------------------------------------------------------------------ counting */

/* The codes of rouge_plus/kernels/spec.py's Kernel table; the module exports them as KIND_* and
 * the Python side refuses to load a build whose codes differ. */
enum {
    KIND_NGRAM = 0,
    KIND_LCS = 1,
    KIND_SUMMARY_LCS = 2,
    KIND_WEIGHTED_LCS = 3,
    KIND_SKIP_BIGRAM = 4,
};

typedef struct {
    const int32_t *ids;
    const int64_t *sentences;
    const int64_t *documents;
} Corpus;

/* A pair of texts in ids of its own (see OwnIds below): document REF_DOC of `texts` is the
 * reference, PRED_DOC the prediction; ids run 0 .. n_ids - 1. */
typedef struct {
    Corpus texts;
    int32_t n_ids;
    const int32_t *ref_counts; /* occurrences of each id in the reference */
} Pair;

enum { REF_DOC = 0, PRED_DOC = 1 };

/*
 * The most bytes one table of a pair may take (skip-bigram pairs, an LCS or ROUGE-W traceback)
 * before the kernels switch to a method that needs less memory and more time; the tests lower it
 * (_native._set_table_budget) to run those methods on small inputs.
 */
static Py_ssize_t table_budget = (Py_ssize_t)32 << 20;
/* A hash-table probe of a skip-bigram costs about as much as this many steps of a pass. */
#define SKIP_PROBE_COST 4.0
/* Bit masks of a text of at most 64 * MASK_DENSITY tokens are rows indexed by word id; a longer
 * text's words get full rows only where frequent enough (see build_masks). */
#define MASK_DENSITY 4
/* Bigrams of a pair of at most this many ids squared are counted in a table indexed by both ids;
 * others in a hash table. */
#define BIGRAM_TABLE_IDS 256

typedef struct {
    /* Per-word scratch, valid where stamp[id] == current: reset in O(1) per use. */
    uint32_t *stamp;
    int32_t *value_a;
    int32_t *value_b;
    uint32_t current;
    /* Remaining unigram counts of both texts (clipped unigram hits, ROUGE-Lsum, ROUGE-W). */
    int32_t *left_ref;
    int32_t *left_pred;
    Py_ssize_t n_ids; /* the per-word tables' entries: a pair's own ids are below it */
    uint64_t *masks_by_id; /* MASK_DENSITY words per id, zero outside build_masks .. release_masks */
    int32_t *bigram_table; /* BIGRAM_TABLE_IDS ** 2 counts, zero outside bigram_hits */
    Buffer scratch_a; /* bit masks / n-gram hash tables */
    Buffer scratch_b; /* LCS column vectors */
    Buffer scratch_c; /* union marks */
    Buffer scratch_d; /* ROUGE-W's powers */
    Py_ssize_t table_budget; /* bytes: larger tables are avoided, at some cost in time */
} Workspace;

/* One spare zeroed bigram table, kept between calls: zeroing 256 KiB for every call cost more than
 * scoring one pair. A workspace takes it (or allocates its own when another thread holds it) and
 * gives it back zeroed, as bigram_hits leaves it. */
static _Atomic(int32_t *) spare_bigram_table = NULL;

static int32_t *take_bigram_table(void)
{
    int32_t *table = atomic_exchange(&spare_bigram_table, NULL);
    return table ? table : calloc(BIGRAM_TABLE_IDS * BIGRAM_TABLE_IDS, sizeof(int32_t));
}

static void give_back_bigram_table(int32_t *table)
{
    int32_t *expected = NULL;
    if (table && !atomic_compare_exchange_strong(&spare_bigram_table, &expected, table))
        free(table);
}

static int workspace_init(Workspace *w, Py_ssize_t n_ids, Py_ssize_t budget)
{
    memset(w, 0, sizeof *w);
    w->table_budget = budget;
    size_t n = (size_t)(n_ids > 0 ? n_ids : 1);
    w->n_ids = n_ids;
    w->stamp = calloc(n, sizeof(uint32_t));
    w->value_a = malloc(n * sizeof(int32_t));
    w->value_b = malloc(n * sizeof(int32_t));
    w->left_ref = malloc(n * sizeof(int32_t));
    w->left_pred = malloc(n * sizeof(int32_t));
    /* Zeroed pages that stay untouched until used. */
    w->masks_by_id = calloc(n * MASK_DENSITY, sizeof(uint64_t));
    w->bigram_table = take_bigram_table();
    return (w->stamp && w->value_a && w->value_b && w->left_ref && w->left_pred &&
            w->masks_by_id && w->bigram_table)
               ? 0
               : -1;
}

static void workspace_free(Workspace *w)
{
    free(w->stamp);
    free(w->value_a);
    free(w->value_b);
    free(w->left_ref);
    free(w->left_pred);
    free(w->masks_by_id);
    give_back_bigram_table(w->bigram_table);
    buffer_free(&w->scratch_a);
    buffer_free(&w->scratch_b);
    buffer_free(&w->scratch_c);
    buffer_free(&w->scratch_d);
}

static void workspace_next(Workspace *w)
{
    if (++w->current == 0) { /* wrapped: clear once every 2^32 uses */
        memset(w->stamp, 0, (size_t)w->n_ids * sizeof(uint32_t));
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

/* A scratch area of `bytes` bytes (its old content is dropped); never NULL on success, even for
 * 0 bytes, so callers can tell a memory error from an empty request. */
static void *scratch(Buffer *b, size_t bytes)
{
    b->len = 0;
    if (buffer_reserve(b, (Py_ssize_t)bytes) < 0)
        return NULL;
    return b->data;
}

/* The tokens of a document, which are contiguous in ids. */
static inline const int32_t *document_tokens(const Corpus *c, int64_t doc, int64_t *n)
{
    int64_t start = c->sentences[c->documents[doc]], end = c->sentences[c->documents[doc + 1]];
    *n = end - start;
    return c->ids + start;
}

/* Clipped overlap of the unigrams of pred[0:n_pred] (the prediction's tokens, or the first of
 * them) and of the reference, less its last token when drop_last_ref (ROUGE-SU's unigrams). */
static int64_t unigram_hits(Workspace *w, const Pair *p, const int32_t *pred, int64_t n_pred,
                            int drop_last_ref)
{
    int64_t n_ref;
    const int32_t *ref = document_tokens(&p->texts, REF_DOC, &n_ref);
    int32_t *left = w->left_ref;
    memcpy(left, p->ref_counts, (size_t)p->n_ids * sizeof(int32_t));
    if (drop_last_ref && n_ref > 0)
        left[ref[n_ref - 1]]--;
    int64_t hits = 0;
    for (int64_t j = 0; j < n_pred; j++) {
        if (left[pred[j]] > 0) {
            left[pred[j]]--;
            hits++;
        }
    }
    return hits;
}

/* The tables of n-grams and pairs of ids below start from the same per-process key: ids follow
 * the order in which words first appear, so a text could otherwise choose colliding n-grams. */
static inline uint64_t hash_ngram(const int32_t *gram, int n)
{
    uint64_t h = hash_key[0];
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
 * Units made of two tokens (bigrams, skip-bigrams) packed in one 64-bit key, counted in an
 * open-addressing table: ref's units are added, then pred's are taken while they last.
 */
typedef struct {
    uint64_t key; /* PAIR_EMPTY when free */
    int64_t left; /* unmatched occurrences */
} PairSlot;

#define PAIR_EMPTY UINT64_MAX /* no pair of ids < 2^31 packs to it */

typedef struct {
    PairSlot *slots;
    uint64_t mask;
} PairTable;

static inline uint64_t pair_key(int32_t first, int32_t second)
{
    return ((uint64_t)(uint32_t)first << 32) | (uint32_t)second;
}

static inline uint64_t pair_slot(uint64_t key, uint64_t mask)
{
    key ^= hash_key[1];
    key ^= key >> 31; /* splitmix64's finalizer: spreads both halves over the low bits */
    key *= 0xBF58476D1CE4E5B9ULL;
    key ^= key >> 27;
    return key & mask;
}

/* A table with room for `distinct` keys at load <= 1/2; -1 on memory error. */
static int pair_table_init(Workspace *w, PairTable *t, int64_t distinct)
{
    int64_t n_slots = 16;
    while (n_slots < 2 * distinct)
        n_slots *= 2;
    t->slots = scratch(&w->scratch_a, (size_t)n_slots * sizeof(PairSlot));
    if (!t->slots)
        return -1;
    memset(t->slots, 0xff, (size_t)n_slots * sizeof(PairSlot)); /* key = PAIR_EMPTY */
    t->mask = (uint64_t)n_slots - 1;
    return 0;
}

static inline void pair_table_add(PairTable *t, uint64_t key)
{
    uint64_t s = pair_slot(key, t->mask);
    while (t->slots[s].key != key && t->slots[s].key != PAIR_EMPTY)
        s = (s + 1) & t->mask;
    if (t->slots[s].key == PAIR_EMPTY) {
        t->slots[s].key = key;
        t->slots[s].left = 0;
    }
    t->slots[s].left++;
}

/* 1 when `key` still has an unmatched occurrence (which it uses up), else 0. */
static inline int pair_table_take(PairTable *t, uint64_t key)
{
    uint64_t s = pair_slot(key, t->mask);
    while (t->slots[s].key != key) {
        if (t->slots[s].key == PAIR_EMPTY)
            return 0;
        s = (s + 1) & t->mask;
    }
    if (t->slots[s].left <= 0)
        return 0;
    t->slots[s].left--;
    return 1;
}

/* Stamp the words of tokens (value_a = 1), so has_stamped_word can test sharing in O(n). */
static void stamp_words(Workspace *w, const int32_t *tokens, int64_t n)
{
    workspace_next(w);
    for (int64_t i = 0; i < n; i++)
        *workspace_slot(w, tokens[i], w->value_a, 0) = 1;
}

static int has_stamped_word(const Workspace *w, const int32_t *tokens, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        if (w->stamp[tokens[i]] == w->current)
            return 1;
    return 0;
}

/* Clipped overlap of bigrams: in the table indexed by both ids when the pair has few ids, else
 * in a hash table of packed keys. */
static int bigram_hits(Workspace *w, const Pair *p, int64_t *hits_out)
{
    int64_t n_pred, n_ref;
    const int32_t *pred = document_tokens(&p->texts, PRED_DOC, &n_pred);
    const int32_t *ref = document_tokens(&p->texts, REF_DOC, &n_ref);
    *hits_out = 0;
    if (n_ref < 2 || n_pred < 2)
        return 0;
    if (p->n_ids <= BIGRAM_TABLE_IDS) {
        int32_t *count = w->bigram_table, n_ids = p->n_ids;
        int64_t hits = 0;
        for (int64_t i = 0; i + 1 < n_ref; i++)
            count[ref[i] * n_ids + ref[i + 1]]++;
        for (int64_t j = 0; j + 1 < n_pred; j++) {
            int32_t *left = count + pred[j] * n_ids + pred[j + 1];
            hits += *left > 0;
            *left -= *left > 0;
        }
        for (int64_t i = 0; i + 1 < n_ref; i++)
            count[ref[i] * n_ids + ref[i + 1]] = 0;
        *hits_out = hits;
        return 0;
    }
    PairTable table;
    if (pair_table_init(w, &table, n_ref - 1) < 0)
        return -1;
    for (int64_t i = 0; i + 1 < n_ref; i++)
        pair_table_add(&table, pair_key(ref[i], ref[i + 1]));
    int64_t hits = 0;
    for (int64_t j = 0; j + 1 < n_pred; j++)
        hits += pair_table_take(&table, pair_key(pred[j], pred[j + 1]));
    *hits_out = hits;
    return 0;
}

/* The widest distance of a skip-bigram of a text of n tokens: at most max_gap words between. */
static inline int64_t skip_widest(int64_t n, int max_gap)
{
    int64_t widest = n - 1;
    if (max_gap >= 0 && widest > (int64_t)max_gap + 1)
        widest = (int64_t)max_gap + 1;
    return widest > 0 ? widest : 0;
}

/* Skip-bigrams of a text of n tokens: pairs at each distance 1..widest. */
static inline int64_t skip_pairs(int64_t n, int64_t widest)
{
    return widest * n - widest * (widest + 1) / 2;
}

/*
 * Both texts of a pair reduced to the words they share (only those can form matching
 * skip-bigrams), as word indexes 0 .. shared - 1 with their positions in the full texts, so that
 * pairs keep their true distances. Side 0 is pred, side 1 is ref.
 */
typedef struct {
    int32_t shared;
    int64_t length[2];
    const int32_t *word[2];
    const int64_t *position[2];
} SharedTexts;

static int reduce_to_shared(Workspace *w, const int32_t *pred, int64_t n_pred, const int32_t *ref,
                            int64_t n_ref, SharedTexts *out)
{
    memset(out, 0, sizeof *out);
    stamp_words(w, ref, n_ref); /* ref's words get value_b = 0, then 1 + index among shared */
    int32_t shared = 0;
    for (int64_t j = 0; j < n_pred; j++)
        if (w->stamp[pred[j]] == w->current && w->value_b[pred[j]] == 0)
            w->value_b[pred[j]] = ++shared;
    out->shared = shared;
    if (shared == 0)
        return 0;
    size_t total = (size_t)(n_pred + n_ref);
    int64_t *positions = scratch(&w->scratch_c, total * (sizeof(int64_t) + sizeof(int32_t)));
    if (!positions)
        return -1;
    int32_t *words = (int32_t *)(positions + total);
    for (int side = 0; side < 2; side++) {
        const int32_t *tokens = side ? ref : pred;
        int64_t n = side ? n_ref : n_pred, kept = 0, offset = side ? out->length[0] : 0;
        for (int64_t t = 0; t < n; t++) {
            int32_t token = tokens[t];
            if (w->stamp[token] == w->current && w->value_b[token] > 0) {
                words[offset + kept] = w->value_b[token] - 1;
                positions[offset + kept] = t;
                kept++;
            }
        }
        out->word[side] = words + offset;
        out->position[side] = positions + offset;
        out->length[side] = kept;
    }
    return 0;
}

/* Pairs of shared tokens of one side at most `widest` positions apart. */
static int64_t shared_pairs(const SharedTexts *s, int side, int64_t widest)
{
    const int64_t *position = s->position[side];
    int64_t n = s->length[side], pairs = 0, next = 0;
    if (n < 2 || position[n - 1] - position[0] <= widest) /* every pair is in reach */
        return n * (n - 1) / 2;
    for (int64_t i = 0; i < n; i++) {
        if (next <= i)
            next = i + 1;
        while (next < n && position[next] - position[i] <= widest)
            next++;
        pairs += next - i - 1;
    }
    return pairs;
}

/*
 * Skip-bigram hits per first word, in O(shared * (lengths + shared)) time and O(shared) memory
 * beyond the reduced texts (no table of pairs): for each shared word a, one pass per text adds to
 * every token b the occurrences of a at most widest[side] positions before it, and the pairs
 * (a, b) are clipped from those counts.
 */
static int skip_hits_by_first_word(Workspace *w, const SharedTexts *s, const int64_t widest[2],
                                   int64_t *hits_out)
{
    const int32_t shared = s->shared;
    int64_t *pairs = scratch(&w->scratch_b, (size_t)shared * 2 * sizeof(int64_t));
    if (!pairs)
        return -1;
    int64_t hits = 0;
    for (int32_t first = 0; first < shared; first++) {
        memset(pairs, 0, (size_t)shared * 2 * sizeof(int64_t));
        for (int side = 0; side < 2; side++) {
            const int32_t *word = s->word[side];
            const int64_t *position = s->position[side];
            const int64_t n = s->length[side], reach = widest[side];
            int64_t *count = pairs + side * shared, before = 0; /* occurrences of first in reach */
            if (n > 0 && position[n - 1] - position[0] <= reach) { /* every pair is in reach */
                for (int64_t t = 0; t < n; t++) {
                    count[word[t]] += before;
                    before += word[t] == first;
                }
                continue;
            }
            for (int64_t t = 0, oldest = 0; t < n; t++) {
                while (position[t] - position[oldest] > reach)
                    before -= word[oldest++] == first;
                count[word[t]] += before;
                before += word[t] == first;
            }
        }
        for (int32_t second = 0; second < shared; second++)
            hits += pairs[second] < pairs[shared + second] ? pairs[second] : pairs[shared + second];
    }
    *hits_out = hits;
    return 0;
}

/* Skip-bigram hits through a hash table of ref's pairs of shared words, taken by pred's. */
static int skip_hits_by_table(Workspace *w, const SharedTexts *s, const int64_t widest[2],
                              int64_t distinct, int64_t *hits_out)
{
    PairTable table;
    if (pair_table_init(w, &table, distinct) < 0)
        return -1;
    int64_t hits = 0;
    for (int side = 1; side >= 0; side--) { /* ref's pairs are added, then pred's taken */
        const int32_t *word = s->word[side];
        const int64_t *position = s->position[side];
        const int64_t n = s->length[side], reach = widest[side];
        for (int64_t i = 0; i < n; i++) {
            for (int64_t j = i + 1; j < n && position[j] - position[i] <= reach; j++) {
                uint64_t key = pair_key(word[i], word[j]);
                if (side)
                    pair_table_add(&table, key);
                else
                    hits += pair_table_take(&table, key);
            }
        }
    }
    *hits_out = hits;
    return 0;
}

/*
 * ROUGE-S/SU as kernels/skip_bigram.py counts them: ordered pairs at most max_gap words apart
 * (max_gap < 0: any distance) over the whole text, plus, with unigrams, every token but the last;
 * overlap clipped per unit. Only pairs of words both texts share can match; they are counted
 * either pair by pair in a hash table, which costs a table entry per distinct pair of ref, or per
 * first word, which needs no table but a pass over both texts per shared word: whichever costs
 * less, and never a table larger than the workspace's budget. A gap that reaches across a whole
 * text is no limit: rougeS999999 costs what rougeS* costs.
 */
static int skip_bigram_counts(Workspace *w, const Pair *p, int max_gap, int with_unigrams,
                              double *hit, double *pred_base, double *ref_base)
{
    int64_t n_pred, n_ref;
    const int32_t *pred = document_tokens(&p->texts, PRED_DOC, &n_pred);
    const int32_t *ref = document_tokens(&p->texts, REF_DOC, &n_ref);
    int64_t widest_pred = skip_widest(n_pred, max_gap), widest_ref = skip_widest(n_ref, max_gap);
    int64_t pairs_pred = skip_pairs(n_pred, widest_pred), pairs_ref = skip_pairs(n_ref, widest_ref);
    int64_t hits = 0;
    if (pairs_pred > 0 && pairs_ref > 0) {
        SharedTexts s;
        if (reduce_to_shared(w, pred, n_pred, ref, n_ref, &s) < 0)
            return -1;
        const int64_t widest[2] = {widest_pred, widest_ref};
        if (s.shared > 0) {
            int64_t distinct = shared_pairs(&s, 1, widest_ref);
            int64_t table_ops = shared_pairs(&s, 0, widest_pred) + distinct;
            if (distinct > (int64_t)s.shared * s.shared)
                distinct = (int64_t)s.shared * s.shared;
            /* A table probe costs about as much as SKIP_PROBE_COST steps of a pass. */
            double pass_ops = (double)s.shared * (double)(s.length[0] + s.length[1] + s.shared);
            int by_table = pass_ops > SKIP_PROBE_COST * (double)table_ops &&
                           (double)distinct * 2 * sizeof(PairSlot) <= (double)w->table_budget;
            int status = by_table ? skip_hits_by_table(w, &s, widest, distinct, &hits)
                                  : skip_hits_by_first_word(w, &s, widest, &hits);
            if (status < 0)
                return -1;
        }
    }
    /* 1.5.5 adds a token as a unigram only while it has a pair partner to its right. */
    int64_t unigrams_pred = with_unigrams && n_pred > 1 ? n_pred - 1 : 0;
    int64_t unigrams_ref = with_unigrams && n_ref > 1 ? n_ref - 1 : 0;
    if (unigrams_pred && unigrams_ref)
        hits += unigram_hits(w, p, pred, unigrams_pred, 1);
    *hit = (double)hits;
    *pred_base = (double)(pairs_pred + unigrams_pred);
    *ref_base = (double)(pairs_ref + unigrams_ref);
    return 0;
}

/*
 * Match masks of a text for the bit-parallel LCS: for each of its words, the set of its positions
 * as n_words 64-bit words. For a text of at most MASK_DENSITY words of 64 tokens (most texts and
 * sentences), the masks are rows of the workspace's masks_by_id, indexed by word id (ids are a
 * pair's own, so they are few), which release_masks zeroes again. A full mask per word would
 * otherwise take distinct * n_words words, quadratic in the length of a text of distinct words
 * (3 GB for 160,000 of them), so only words with at least n_words / MASK_DENSITY occurrences get a
 * full mask (at most MASK_DENSITY * m words in all); the others keep the list of their positions
 * and have their mask set in `match`, a zeroed column, for one step (at most n_words /
 * MASK_DENSITY extra writes per step). value_b[id] says which: >= 0 the row of a full mask, <= -2
 * the list -2 - value_b[id] of a listed word.
 */
typedef struct {
    int64_t n_words;
    int by_id;           /* the masks are masks_by_id's rows, not numbered through value_b */
    uint64_t *dense;     /* full masks, n_words words each */
    int64_t *list_start; /* where each listed word's positions start in `positions`, plus an end */
    int64_t *positions;
    uint64_t *match;     /* n_words words, zero between steps */
} Masks;

static int build_masks(Workspace *w, const int32_t *text, int64_t m, int64_t n_words, Masks *out)
{
    if (n_words <= MASK_DENSITY) {
        uint64_t *rows = w->masks_by_id;
        *out = (Masks){n_words, 1, rows, NULL, NULL, NULL};
        for (int64_t i = 0; i < m; i++)
            rows[(int64_t)text[i] * n_words + i / 64] |= 1ULL << (i % 64);
        return 0;
    }
    workspace_next(w);
    for (int64_t i = 0; i < m; i++) /* value_a: occurrences; value_b: -1 until classified */
        (*workspace_slot(w, text[i], w->value_a, -1))++;
    int64_t dense = 0, listed = 0, listed_positions = 0;
    for (int64_t i = 0; i < m; i++) {
        int32_t id = text[i];
        if (w->value_b[id] != -1)
            continue;
        int64_t count = (int64_t)w->value_a[id] + 1; /* value_a started at -1 */
        if (count * MASK_DENSITY >= n_words) {
            w->value_b[id] = (int32_t)dense++;
        } else {
            w->value_b[id] = (int32_t)(-2 - listed++);
            listed_positions += count;
        }
    }
    size_t words = (size_t)(dense * n_words + n_words) + (size_t)(listed + 1 + listed_positions);
    uint64_t *area = scratch(&w->scratch_a, words * sizeof(uint64_t));
    if (!area)
        return -1;
    out->n_words = n_words;
    out->by_id = 0;
    out->dense = area;
    out->match = area + dense * n_words;
    out->list_start = (int64_t *)(out->match + n_words);
    out->positions = out->list_start + listed + 1;
    memset(area, 0, (size_t)(dense * n_words + n_words) * sizeof(uint64_t));
    int64_t next = 0;
    for (int64_t i = 0; i < m; i++) { /* starts of the lists, in order of first occurrence */
        int32_t id = text[i], row = w->value_b[id];
        if (row <= -2 && w->value_a[id] >= 0) {
            out->list_start[-2 - row] = next;
            next += (int64_t)w->value_a[id] + 1;
            w->value_a[id] = -1; /* now the number of positions listed so far, less one */
        }
    }
    out->list_start[listed] = next;
    for (int64_t i = 0; i < m; i++) {
        int32_t id = text[i], row = w->value_b[id];
        if (row >= 0)
            out->dense[(int64_t)row * n_words + i / 64] |= 1ULL << (i % 64);
        else
            out->positions[out->list_start[-2 - row] + ++w->value_a[id]] = i;
    }
    return 0;
}

/* Zero the rows build_masks set for text (masks by id only: the others live in scratch). */
static void release_masks(const Masks *masks, const int32_t *text, int64_t m)
{
    if (masks->by_id)
        for (int64_t i = 0; i < m; i++)
            masks->dense[(int64_t)text[i] * masks->n_words + i / 64] = 0;
}

/* One Hyyro step on the first n_words words of a column: column = (column + u) | (column & ~u),
 * u = column & match, with carries. The low words never depend on the high ones. */
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

/* Advance a column over one token of the other text (a word absent from the masks' text changes
 * nothing), on its first n_words words. */
static inline void lcs_advance(const Workspace *w, const Masks *masks, uint64_t *column, int32_t id,
                               int64_t n_words)
{
    if (masks->by_id) {
        lcs_step(column, masks->dense + (int64_t)id * masks->n_words, n_words);
        return;
    }
    if (w->stamp[id] != w->current)
        return;
    int32_t row = w->value_b[id];
    if (row >= 0) {
        lcs_step(column, masks->dense + (int64_t)row * masks->n_words, n_words);
        return;
    }
    const int64_t *first = masks->positions + masks->list_start[-2 - row];
    const int64_t *last = masks->positions + masks->list_start[-1 - row];
    for (const int64_t *p = first; p < last; p++)
        masks->match[*p / 64] |= 1ULL << (*p % 64);
    lcs_step(column, masks->match, n_words);
    for (const int64_t *p = first; p < last; p++)
        masks->match[*p / 64] = 0;
}

/* The mask of a word for a text of at most 64 tokens (masks by id), 0 when absent. */
static inline uint64_t short_mask(const Masks *masks, int32_t id) { return masks->dense[id]; }

static inline uint64_t last_word_mask(int64_t m)
{
    return (m % 64) ? ((1ULL << (m % 64)) - 1) : ~0ULL;
}

/* LCS length, in O(m + n) memory and O(m * n / 64) time. */
static int lcs_length(Workspace *w, const int32_t *ref, int64_t m, const int32_t *pred, int64_t n,
                      int64_t *out)
{
    *out = 0;
    if (m == 0 || n == 0)
        return 0;
    /* Masks of the text of length a, steps over the other (length b): about b * (2 + a / 64)
     * + 4 * a operations. Either way round gives the same length. */
    double as_is = (double)n * (2 + (m + 63) / 64) + 4.0 * (double)m;
    double swapped = (double)m * (2 + (n + 63) / 64) + 4.0 * (double)n;
    if (swapped < as_is) {
        const int32_t *text = ref;
        ref = pred, pred = text;
        int64_t length = m;
        m = n, n = length;
    }
    int64_t n_words = (m + 63) / 64, ones = 0;
    Masks masks;
    if (build_masks(w, ref, m, n_words, &masks) < 0)
        return -1;
    if (n_words == 1) {
        uint64_t column = ~0ULL;
        for (int64_t j = 0; j < n; j++) {
            uint64_t u = column & short_mask(&masks, pred[j]);
            column = (column + u) | (column & ~u);
        }
        ones = __builtin_popcountll(column & last_word_mask(m));
    } else {
        uint64_t *column = scratch(&w->scratch_b, (size_t)n_words * sizeof(uint64_t));
        if (!column) {
            release_masks(&masks, ref, m);
            return -1;
        }
        memset(column, 0xff, (size_t)n_words * sizeof(uint64_t));
        for (int64_t j = 0; j < n; j++)
            lcs_advance(w, &masks, column, pred[j], n_words);
        column[n_words - 1] &= last_word_mask(m);
        for (int64_t k = 0; k < n_words; k++)
            ones += __builtin_popcountll(column[k]);
    }
    release_masks(&masks, ref, m);
    *out = m - ones;
    return 0;
}

/* columns[t] = the column after pred[0 .. first + t), t = 1 .. count, from columns[0] (the column
 * after pred[0 .. first)), on the first n_used of n_words words. */
static void fill_columns(const Workspace *w, const Masks *masks, const int32_t *pred, int64_t first,
                         int64_t count, int64_t n_words, int64_t n_used, uint64_t *columns)
{
    if (n_words == 1) { /* a ref sentence of at most 64 tokens (most): one register */
        uint64_t column = columns[0];
        for (int64_t t = 1; t <= count; t++) {
            uint64_t u = column & short_mask(masks, pred[first + t - 1]);
            column = (column + u) | (column & ~u);
            columns[t] = column;
        }
        return;
    }
    for (int64_t t = 1; t <= count; t++) {
        uint64_t *column = columns + t * n_words;
        memcpy(column, column - n_words, (size_t)n_used * sizeof(uint64_t));
        lcs_advance(w, masks, column, pred[first + t - 1], n_used);
    }
}

/*
 * Mark in `marks` the ref positions on the LCS path rouge_score's traceback walks: from (m, n), a
 * match goes diagonally; otherwise left when bit i - 1 of column j is 0 (the table grows at row i
 * of column j), else up. It needs column j at each step. When the n + 1 columns fit in the
 * workspace's budget they are all kept; otherwise every block-th column is kept on a first pass,
 * and the walk recomputes the columns of one block at a time from the column before it (twice the
 * time, memory for about 2 * sqrt(n) columns), only as far down as the rows it can still reach.
 */
static int mark_lcs_path(Workspace *w, const Masks *masks, const int32_t *ref, int64_t m,
                         const int32_t *pred, int64_t n, unsigned char *marks)
{
    const int64_t n_words = masks->n_words;
    const size_t column_bytes = (size_t)n_words * sizeof(uint64_t);
    if (n_words == 1 && (Py_ssize_t)((n + 1) * sizeof(uint64_t)) <= w->table_budget) {
        /* Most sentence pairs: a ref sentence of at most 64 tokens, every column kept. */
        uint64_t *columns = scratch(&w->scratch_b, (size_t)(n + 1) * sizeof(uint64_t));
        if (!columns)
            return -1;
        columns[0] = ~0ULL;
        fill_columns(w, masks, pred, 0, n, 1, 1, columns);
        for (int64_t i = m, j = n; i > 0 && j > 0;) {
            if (ref[i - 1] == pred[j - 1])
                marks[--i] = 1, j--;
            else if (!((columns[j] >> (i - 1)) & 1))
                j--; /* T grows at row i of column j: go left */
            else
                i--;
        }
        return 0;
    }
    int64_t block = n;
    if ((double)(n + 1) * (double)column_bytes > (double)w->table_budget) {
        block = 1;
        while (block * block < n)
            block++;
    }
    int64_t n_saved = block < n ? n / block + 1 : 0; /* columns 0, block, 2 * block, ... */
    uint64_t *area = scratch(&w->scratch_b, (size_t)(n_saved + block + 1) * column_bytes);
    if (!area)
        return -1;
    uint64_t *saved = area, *columns = area + n_saved * n_words;
    memset(columns, 0xff, column_bytes);
    if (n_saved) { /* first pass: keep every block-th column */
        memcpy(saved, columns, column_bytes);
        for (int64_t j = 1; j <= n; j++) {
            lcs_advance(w, masks, columns, pred[j - 1], n_words);
            if (j % block == 0)
                memcpy(saved + (j / block) * n_words, columns, column_bytes);
        }
    }
    int64_t i = m, j = n;
    while (i > 0 && j > 0) {
        /* The block of column j: columns start + 1 .. j, from the kept column start. */
        int64_t start = n_saved ? (j - 1) / block * block : 0;
        int64_t n_used = (i + 63) / 64;
        if (n_saved)
            memcpy(columns, saved + (start / block) * n_words, (size_t)n_used * sizeof(uint64_t));
        fill_columns(w, masks, pred, start, j - start, n_words, n_used, columns);
        while (i > 0 && j > start) {
            if (ref[i - 1] == pred[j - 1]) {
                marks[i - 1] = 1;
                i--;
                j--;
            } else if (!((columns[(j - start) * n_words + (i - 1) / 64] >> ((i - 1) % 64)) & 1)) {
                /* T grows at row i of column j, so T[i][j-1] = T[i][j] > T[i-1][j]: go left. */
                j--;
            } else {
                i--;
            }
        }
    }
    return 0;
}

/* Unigram counts of both texts, to clip ROUGE-Lsum and ROUGE-W hits. */
static void load_unigram_counts(Workspace *w, const Pair *p)
{
    int64_t n_pred;
    const int32_t *pred = document_tokens(&p->texts, PRED_DOC, &n_pred);
    memcpy(w->left_ref, p->ref_counts, (size_t)p->n_ids * sizeof(int32_t));
    memset(w->left_pred, 0, (size_t)p->n_ids * sizeof(int32_t));
    for (int64_t t = 0; t < n_pred; t++)
        w->left_pred[pred[t]]++;
}

/* 1 when both texts still have an unused occurrence of token (both are then used), else 0. */
static inline int take_unigram(Workspace *w, int32_t token)
{
    if (w->left_ref[token] <= 0 || w->left_pred[token] <= 0)
        return 0;
    w->left_ref[token]--;
    w->left_pred[token]--;
    return 1;
}

/* Summary-level union LCS hits, clipped by the unigram counts of both texts (ROUGE-Lsum). */
static int summary_lcs_hits(Workspace *w, const Pair *p, int64_t *out)
{
    *out = 0;
    const Corpus *c = &p->texts;
    int64_t p_first = c->documents[PRED_DOC], p_last = c->documents[PRED_DOC + 1];
    int64_t r_first = c->documents[REF_DOC], r_last = c->documents[REF_DOC + 1];
    const int32_t *ids = c->ids;
    int64_t hits = 0;
    load_unigram_counts(w, p);
    int status = 0;
    for (int64_t rs = r_first; rs < r_last; rs++) {
        const int32_t *ref = ids + c->sentences[rs];
        int64_t m = c->sentences[rs + 1] - c->sentences[rs];
        if (m == 0)
            continue;
        unsigned char *marks = scratch(&w->scratch_c, (size_t)m);
        Masks masks;
        if (!marks || build_masks(w, ref, m, (m + 63) / 64, &masks) < 0) {
            status = -1;
            break;
        }
        memset(marks, 0, (size_t)m);
        for (int64_t ps = p_first; ps < p_last; ps++) {
            const int32_t *pred = ids + c->sentences[ps];
            int64_t n = c->sentences[ps + 1] - c->sentences[ps];
            if (n > 0 && mark_lcs_path(w, &masks, ref, m, pred, n, marks) < 0) {
                status = -1;
                break;
            }
        }
        release_masks(&masks, ref, m);
        if (status < 0)
            break;
        for (int64_t i = 0; i < m; i++)
            if (marks[i])
                hits += take_unigram(w, ref[i]);
    }
    *out = hits;
    return status;
}

/* ------------------------------------------------------------------ ROUGE-W */

/*
 * One row of 1.5.5's weighted-LCS programme: row i (ref token `token`) from row i - 1, on columns
 * 0 .. width - 1, with the same floating-point operations in the same order as _mark_lcs of
 * kernels/weighted_lcs.py (the comparisons then break ties identically). A cell's move is
 * diagonal exactly when its tokens match; otherwise bit j of `up` says up (1) or left (0).
 */
static inline void weighted_lcs_row(const double *powers, int32_t token, const int32_t *pred,
                                    int64_t width, const double *score_above,
                                    const int64_t *run_above, double *score, int64_t *run,
                                    uint64_t *up)
{
    score[0] = 0.0;
    run[0] = 0;
    uint64_t bits = 0;
    for (int64_t j = 1; j < width; j++) {
        if (pred[j - 1] == token) {
            int64_t k = run_above[j - 1];
            score[j] = score_above[j - 1] + powers[k + 1] - powers[k];
            run[j] = k + 1;
        } else if (score_above[j] >= score[j - 1]) {
            score[j] = score_above[j];
            run[j] = 0;
            bits |= 1ULL << (j % 64);
        } else {
            score[j] = score[j - 1];
            run[j] = 0;
        }
        if (j % 64 == 63) {
            up[j / 64] = bits;
            bits = 0;
        }
    }
    if ((width - 1) % 64 != 63)
        up[(width - 1) / 64] = bits;
}

/*
 * Mark the ref positions on 1.5.5's weighted-LCS traceback of ref vs pred (a match always goes
 * diagonally; otherwise up when the upper cell is >= the left one). The traceback needs one bit
 * per cell. When the m rows of bits fit in the workspace's budget they are all kept, from one
 * pass; otherwise the scores and runs of every block-th row are kept on a first pass, and the
 * walk recomputes the bits of one block of rows at a time from the row before it, only as far
 * right as it can still go (at most twice the time; memory for about 2 * sqrt(128 m) rows of
 * bits). powers[k] = k**weight.
 */
static int mark_weighted_lcs(Workspace *w, const double *powers, const int32_t *ref, int64_t m,
                             const int32_t *pred, int64_t n, unsigned char *marks)
{
    const int64_t width = n + 1, row_words = width / 64 + 1;
    const size_t state_bytes = (size_t)width * (sizeof(double) + sizeof(int64_t));
    int64_t block = m;
    if ((double)m * (double)row_words * sizeof(uint64_t) > (double)w->table_budget) {
        block = 1; /* kept rows cost 128 times a row of bits: blocks of about sqrt(128 m) */
        while (block * block < 128 * m && block < m)
            block++;
    }
    const int64_t n_blocks = (m + block - 1) / block, last_start = (n_blocks - 1) * block;
    /* Two working rows, the kept rows (the one before each block but the first) and the bits. */
    size_t bytes = (size_t)(2 + n_blocks - 1) * state_bytes + (size_t)(block * row_words) * 8;
    char *area = scratch(&w->scratch_a, bytes);
    if (!area)
        return -1;
    double *score_above = (double *)area, *score = score_above + width;
    int64_t *run_above = (int64_t *)(score + width), *run = run_above + width;
    char *kept = (char *)(run + width); /* row b * block for b = 1 .. n_blocks - 1 */
    uint64_t *up = (uint64_t *)(kept + (size_t)(n_blocks - 1) * state_bytes);
    memset(score_above, 0, (size_t)width * sizeof(double));
    memset(run_above, 0, (size_t)width * sizeof(int64_t));
    /* First pass: every row, keeping the rows that start blocks and the last block's bits. */
    char *keep = kept;
    for (int64_t i = 0, next_kept = block; i < m; i++) {
        uint64_t *row_up = up + (i >= last_start ? (i - last_start) * row_words : 0);
        weighted_lcs_row(powers, ref[i], pred, width, score_above, run_above, score, run, row_up);
        double *swap_score = score_above;
        score_above = score, score = swap_score;
        int64_t *swap_run = run_above;
        run_above = run, run = swap_run;
        if (i + 1 == next_kept && next_kept < m) { /* row next_kept starts a block */
            memcpy(keep, score_above, (size_t)width * sizeof(double));
            memcpy(keep + (size_t)width * sizeof(double), run_above,
                   (size_t)width * sizeof(int64_t));
            keep += state_bytes;
            next_kept += block;
        }
    }
    int64_t i = m, j = n;
    for (int64_t b = n_blocks - 1; b >= 0 && i > 0 && j > 0; b--) {
        const int64_t start = b * block;
        if (b < n_blocks - 1) { /* recompute rows start + 1 .. i on columns 0 .. j */
            if (b == 0) {
                memset(score_above, 0, (size_t)(j + 1) * sizeof(double));
                memset(run_above, 0, (size_t)(j + 1) * sizeof(int64_t));
            } else {
                const char *row = kept + (size_t)(b - 1) * state_bytes;
                memcpy(score_above, row, (size_t)(j + 1) * sizeof(double));
                memcpy(run_above, row + (size_t)width * sizeof(double),
                       (size_t)(j + 1) * sizeof(int64_t));
            }
            for (int64_t r = start; r < i; r++) {
                weighted_lcs_row(powers, ref[r], pred, j + 1, score_above, run_above, score, run,
                                 up + (r - start) * row_words);
                double *swap_score = score_above;
                score_above = score, score = swap_score;
                int64_t *swap_run = run_above;
                run_above = run, run = swap_run;
            }
        }
        while (i > start && j > 0) {
            if (ref[i - 1] == pred[j - 1])
                marks[--i] = 1, j--;
            else if ((up[(i - 1 - start) * row_words + j / 64] >> (j % 64)) & 1)
                i--;
            else
                j--;
        }
    }
    return 0;
}

/* The longest sentence of a document. */
static int64_t longest_sentence(const Corpus *c, int64_t doc)
{
    int64_t longest = 0;
    for (int64_t s = c->documents[doc]; s < c->documents[doc + 1]; s++)
        if (c->sentences[s + 1] - c->sentences[s] > longest)
            longest = c->sentences[s + 1] - c->sentences[s];
    return longest;
}

/* k**weight for k = 0 .. top, with libm's pow as Python's float ** float uses it. */
static double *weight_powers(Workspace *w, int64_t top, double weight)
{
    double *powers = scratch(&w->scratch_d, (size_t)(top + 1) * sizeof(double));
    if (powers)
        for (int64_t k = 0; k <= top; k++)
            powers[k] = pow((double)k, weight);
    return powers;
}

/*
 * ROUGE-W as kernels/weighted_lcs.py's counts computes it: hit = sum of f(run) over the clipped
 * runs of each ref sentence's union of weighted-LCS tracebacks; pred_base = f(n); ref_base =
 * f(sum over ref sentences of f(|r|)), f(k) = k**weight.
 */
static int weighted_lcs_counts(Workspace *w, const Pair *p, double weight, double *hit,
                               double *pred_base, double *ref_base)
{
    const Corpus *c = &p->texts;
    int64_t n_pred; /* for pred_base */
    document_tokens(c, PRED_DOC, &n_pred);
    load_unigram_counts(w, p);
    int64_t longest = longest_sentence(c, PRED_DOC);
    if (longest_sentence(c, REF_DOC) > longest)
        longest = longest_sentence(c, REF_DOC);
    const double *powers = weight_powers(w, longest + 1, weight);
    if (!powers)
        return -1;
    double total = 0.0, ref_weight = 0.0;
    for (int64_t rs = c->documents[REF_DOC]; rs < c->documents[REF_DOC + 1]; rs++) {
        const int32_t *ref = c->ids + c->sentences[rs];
        int64_t m = c->sentences[rs + 1] - c->sentences[rs];
        ref_weight += pow((double)m, weight);
        unsigned char *marks = scratch(&w->scratch_c, (size_t)m);
        if (!marks)
            return -1;
        memset(marks, 0, (size_t)m);
        stamp_words(w, ref, m);
        for (int64_t ps = c->documents[PRED_DOC]; ps < c->documents[PRED_DOC + 1]; ps++) {
            const int32_t *pred = c->ids + c->sentences[ps];
            int64_t n = c->sentences[ps + 1] - c->sentences[ps];
            /* A pair of sentences with no word in common marks nothing. */
            if (has_stamped_word(w, pred, n) &&
                mark_weighted_lcs(w, powers, ref, m, pred, n, marks) < 0)
                return -1;
        }
        int64_t run = 0;
        for (int64_t j = 0; j < m; j++) {
            if (!marks[j] || !take_unigram(w, ref[j]))
                continue; /* a clipped marked token neither scores nor closes the run */
            run++;
            if (j + 1 == m || !marks[j + 1]) {
                total += pow((double)run, weight);
                run = 0;
            }
        }
    }
    *hit = total;
    *pred_base = pow((double)n_pred, weight);
    *ref_base = pow(ref_weight, weight);
    return 0;
}

typedef struct {
    int kind;
    int n;
    double x; /* ROUGE-W's weight; for skip-bigrams, 1.0 adds unigrams */
} MeasureSpec;

static int count_one(Workspace *w, const Pair *p, MeasureSpec spec, double *hit,
                     double *pred_base, double *ref_base)
{
    int64_t n_pred, n_ref, hits = 0;
    const int32_t *pred = document_tokens(&p->texts, PRED_DOC, &n_pred);
    const int32_t *ref = document_tokens(&p->texts, REF_DOC, &n_ref);
    int status = 0;
    switch (spec.kind) {
    case KIND_NGRAM:
        if (spec.n == 1)
            hits = unigram_hits(w, p, pred, n_pred, 0);
        else if (spec.n == 2)
            status = bigram_hits(w, p, &hits);
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
        status = summary_lcs_hits(w, p, &hits);
        *pred_base = (double)n_pred;
        *ref_base = (double)n_ref;
        break;
    case KIND_WEIGHTED_LCS:
        return weighted_lcs_counts(w, p, spec.x, hit, pred_base, ref_base);
    case KIND_SKIP_BIGRAM:
        return skip_bigram_counts(w, p, spec.n, spec.x == 1.0, hit, pred_base, ref_base);
    default:
        return -2;
    }
    *hit = (double)hits;
    return status;
}

/*
 * A pair rewritten in ids of its own: the reference's words are numbered 0 .. k - 1 in order of
 * first appearance, and every prediction word absent from the reference becomes k (no hit can
 * involve it). Every kernel gives the same counts on these ids as on the vocabulary's, since a
 * hit always pairs equal words of both texts; but their per-word scratch then stays within the
 * first k + 1 entries, in cache, instead of spreading over the vocabulary. Pairs are visited
 * reference by reference, so a reference shared by several predictions is rewritten once.
 * Document 0 is the reference, document 1 the prediction.
 */
typedef struct {
    uint32_t *stamp; /* per vocabulary word: == current when the reference holds it */
    int32_t *id;     /* its own id, where stamped */
    uint32_t current;
    Py_ssize_t vocab_size;
    int32_t absent;         /* the id of prediction words the reference lacks */
    Py_ssize_t ref_tokens;  /* ids of the reference, at the start of ids */
    Py_ssize_t ref_offsets; /* its sentence offsets (with the leading 0), at the start of offsets */
    Buffer ids;             /* int32 */
    Buffer offsets;         /* int64 token offsets of sentences */
    Buffer ref_counts;      /* int32 occurrences of each id in the reference */
    int64_t documents[3];   /* sentence offsets of the two documents */
} OwnIds;

static int own_ids_init(OwnIds *o, Py_ssize_t vocab_size)
{
    memset(o, 0, sizeof *o);
    o->vocab_size = vocab_size;
    o->stamp = calloc((size_t)(vocab_size > 0 ? vocab_size : 1), sizeof(uint32_t));
    /* Zeroed: the rewriting of a prediction reads every word's entry, then keeps it or not. */
    o->id = calloc((size_t)(vocab_size > 0 ? vocab_size : 1), sizeof(int32_t));
    return o->stamp && o->id ? 0 : -1;
}

static void own_ids_free(OwnIds *o)
{
    free(o->stamp);
    free(o->id);
    buffer_free(&o->ids);
    buffer_free(&o->offsets);
    buffer_free(&o->ref_counts);
}

/* Room for document doc in o (and its reference counts when is_ref), and the document's first
 * and last token; -1 on memory error. */
static int own_ids_reserve(OwnIds *o, const Corpus *c, int64_t doc, int is_ref, int64_t *first,
                           int64_t *last)
{
    *first = c->sentences[c->documents[doc]];
    *last = c->sentences[c->documents[doc + 1]];
    int64_t n_sentences = c->documents[doc + 1] - c->documents[doc];
    return buffer_reserve(&o->ids, (Py_ssize_t)((*last - *first) * 4)) < 0 ||
                   buffer_reserve(&o->offsets, (Py_ssize_t)(n_sentences * 8)) < 0 ||
                   (is_ref &&
                    buffer_reserve(&o->ref_counts, (Py_ssize_t)((*last - *first + 1) * 4)) < 0)
               ? -1
               : 0;
}

/* Append the sentence offsets of document doc, whose tokens were just appended to o->ids. */
static void own_ids_close(OwnIds *o, const Corpus *c, int64_t doc, int64_t first, int64_t last)
{
    int64_t *ends = (int64_t *)(o->offsets.data + o->offsets.len);
    const int64_t base = o->ids.len / 4 - first;
    for (int64_t s = c->documents[doc]; s < c->documents[doc + 1]; s++)
        *ends++ = c->sentences[s + 1] + base;
    o->offsets.len += (Py_ssize_t)((c->documents[doc + 1] - c->documents[doc]) * 8);
    o->ids.len += (Py_ssize_t)((last - first) * 4);
}

/* Start a new reference: rewrite it, numbering its words, and count them; -1 on memory error. */
static int own_ids_set_reference(OwnIds *o, const Corpus *c, int64_t ref_doc)
{
    if (++o->current == 0) { /* wrapped: clear once every 2^32 references */
        memset(o->stamp, 0, (size_t)(o->vocab_size > 0 ? o->vocab_size : 1) * sizeof(uint32_t));
        o->current = 1;
    }
    o->ids.len = 0;
    o->offsets.len = 0;
    int64_t first, last;
    if (buffer_push_i64(&o->offsets, 0) < 0 || own_ids_reserve(o, c, ref_doc, 1, &first, &last) < 0)
        return -1;
    int32_t *out = (int32_t *)o->ids.data, *counts = (int32_t *)o->ref_counts.data, k = 0;
    for (int64_t t = first; t < last; t++) {
        int32_t word = c->ids[t];
        if (o->stamp[word] != o->current) {
            o->stamp[word] = o->current;
            o->id[word] = k;
            counts[k++] = 0;
        }
        counts[o->id[word]]++;
        *out++ = o->id[word];
    }
    counts[k] = 0;
    o->absent = k;
    own_ids_close(o, c, ref_doc, first, last);
    o->ref_tokens = o->ids.len;
    o->ref_offsets = o->offsets.len;
    o->documents[0] = 0;
    o->documents[1] = o->offsets.len / 8 - 1;
    return 0;
}

/* Rewrite a prediction against the current reference; -1 on memory error. */
static int own_ids_set_prediction(OwnIds *o, const Corpus *c, int64_t pred_doc)
{
    o->ids.len = o->ref_tokens;
    o->offsets.len = o->ref_offsets;
    int64_t first, last;
    if (own_ids_reserve(o, c, pred_doc, 0, &first, &last) < 0)
        return -1;
    /* In locals: the stores through out could otherwise alias them, and reload them. */
    const uint32_t *stamp = o->stamp, current = o->current;
    const int32_t *own_id = o->id, absent = o->absent, *ids = c->ids;
    int32_t *out = (int32_t *)(o->ids.data + o->ids.len);
    for (int64_t t = first; t < last; t++) {
        int32_t word = ids[t], id = own_id[word];
        *out++ = stamp[word] == current ? id : absent; /* no branch */
    }
    own_ids_close(o, c, pred_doc, first, last);
    o->documents[2] = o->offsets.len / 8 - 1;
    return 0;
}

/* The pairs' indexes ordered by reference document (stable), or NULL on memory error. */
static Py_ssize_t *pairs_by_reference(const int64_t *ref_docs, Py_ssize_t n_pairs, Py_ssize_t n_docs)
{
    Py_ssize_t *order = malloc((size_t)(n_pairs ? n_pairs : 1) * sizeof(Py_ssize_t));
    Py_ssize_t *start = calloc((size_t)(n_docs > 0 ? n_docs : 0) + 1, sizeof(Py_ssize_t));
    if (!order || !start) {
        free(order);
        free(start);
        return NULL;
    }
    for (Py_ssize_t k = 0; k < n_pairs; k++)
        start[ref_docs[k] + 1]++;
    for (Py_ssize_t d = 0; d < n_docs; d++)
        start[d + 1] += start[d];
    for (Py_ssize_t k = 0; k < n_pairs; k++)
        order[start[ref_docs[k]]++] = k;
    free(start);
    return order;
}

static int measure_spec_valid(MeasureSpec spec)
{
    switch (spec.kind) {
    case KIND_NGRAM:
        return spec.n >= 1;
    case KIND_LCS:
    case KIND_SUMMARY_LCS:
    case KIND_SKIP_BIGRAM: /* n < 0: no limit on the gap */
        return 1;
    case KIND_WEIGHTED_LCS: /* 0 ** weight must stay finite, as in Python */
        return spec.x > 0 && isfinite(spec.x);
    default:
        return 0;
    }
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
             "(kind, n, x) with kind 0 = n-gram (n), 1 = LCS, 2 = summary-level LCS, 3 = weighted\n"
             "LCS (x = weight), 4 = skip-bigram (n = max gap or -1, x = 1.0 adds unigrams).\n"
             "Returns bytes of float64 shaped (len(measures), 3, n_pairs): hit, pred_base,\n"
             "ref_base.");

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
    if (vocab_size < 0 || vocab_size > INT32_MAX) { /* ids are int32; tables are sized by it */
        PyErr_SetString(PyExc_ValueError, "vocab_size out of range");
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
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, k), "iid", &specs[k].kind, &specs[k].n,
                              &specs[k].x)) {
            Py_DECREF(fast);
            goto release;
        }
        if (!measure_spec_valid(specs[k])) {
            PyErr_Format(PyExc_ValueError, "measure %zd: unknown kind, or bad n or x", k);
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
    Workspace w = {0};
    OwnIds own = {0};
    int status = 0;
    Py_ssize_t budget = table_budget;
    Py_BEGIN_ALLOW_THREADS
    Py_ssize_t *order = pairs_by_reference(ref_docs, n_pairs, n_docs);
    /* A pair's own ids number at most its reference's distinct words, plus one for the absent
     * ones: the per-word tables are sized by the longest reference, not the vocabulary. */
    int64_t most_words = 0;
    for (Py_ssize_t k = 0; k < n_pairs; k++) {
        int64_t n;
        document_tokens(&corpus, ref_docs[k], &n);
        if (n > most_words)
            most_words = n;
    }
    if (most_words > vocab_size)
        most_words = vocab_size;
    if (!order || workspace_init(&w, (Py_ssize_t)most_words + 1, budget) < 0 ||
        own_ids_init(&own, vocab_size) < 0) {
        status = -1;
    } else {
        for (Py_ssize_t i = 0; i < n_pairs && status == 0; i++) {
            Py_ssize_t k = order[i];
            if ((i == 0 || ref_docs[k] != ref_docs[order[i - 1]]) &&
                own_ids_set_reference(&own, &corpus, ref_docs[k]) < 0) {
                status = -1;
                break;
            }
            if (own_ids_set_prediction(&own, &corpus, pred_docs[k]) < 0) {
                status = -1;
                break;
            }
            Pair pair = {{(const int32_t *)own.ids.data, (const int64_t *)own.offsets.data,
                          own.documents},
                         own.absent + 1,
                         (const int32_t *)own.ref_counts.data};
            for (Py_ssize_t m = 0; m < n_measures && status == 0; m++) {
                double *row = out + m * 3 * n_pairs;
                status = count_one(&w, &pair, specs[m], row + k, row + n_pairs + k,
                                   row + 2 * n_pairs + k);
            }
        }
    }
    free(order);
    workspace_free(&w);
    own_ids_free(&own);
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

PyDoc_STRVAR(weaken_hash_doc,
             "_weaken_hash(flag) -> None\n\n"
             "For the tests only: with a true flag, Vocabularies created from now on hash every\n"
             "word to 0 until they fall back to SipHash-1-3 (all words collide at first).");

static PyObject *weaken_hash(PyObject *Py_UNUSED(module), PyObject *flag)
{
    int truth = PyObject_IsTrue(flag);
    if (truth < 0)
        return NULL;
    weak_hash_for_tests = truth;
    Py_RETURN_NONE;
}

PyDoc_STRVAR(set_table_budget_doc,
             "_set_table_budget(nbytes) -> previous\n\n"
             "The most bytes one table of a pair may take before count_pairs switches to a method\n"
             "that needs less memory (same results, more time). For the tests.");

static PyObject *set_table_budget(PyObject *Py_UNUSED(module), PyObject *arg)
{
    Py_ssize_t budget = PyNumber_AsSsize_t(arg, PyExc_OverflowError);
    if (budget == -1 && PyErr_Occurred())
        return NULL;
    if (budget < 0) {
        PyErr_SetString(PyExc_ValueError, "the budget must be >= 0");
        return NULL;
    }
    Py_ssize_t previous = table_budget;
    table_budget = budget;
    return PyLong_FromSsize_t(previous);
}

static PyMethodDef module_methods[] = {
    {"_set_table_budget", set_table_budget, METH_O, set_table_budget_doc},
    {"count_pairs", count_pairs, METH_VARARGS, count_pairs_doc},
    {"_weaken_hash", weaken_hash, METH_O, weaken_hash_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef native_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "rouge_plus.kernels._native",
    .m_doc = "Compiled kernels of rouge_plus (tokenizing ASCII text, counting overlaps).",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__native(void)
{
    init_token_bytes();
    if (init_hash_key() < 0)
        return NULL;
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
    if (PyModule_AddIntConstant(module, "KIND_NGRAM", KIND_NGRAM) < 0 ||
        PyModule_AddIntConstant(module, "KIND_LCS", KIND_LCS) < 0 ||
        PyModule_AddIntConstant(module, "KIND_SUMMARY_LCS", KIND_SUMMARY_LCS) < 0 ||
        PyModule_AddIntConstant(module, "KIND_WEIGHTED_LCS", KIND_WEIGHTED_LCS) < 0 ||
        PyModule_AddIntConstant(module, "KIND_SKIP_BIGRAM", KIND_SKIP_BIGRAM) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
