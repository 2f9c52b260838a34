/*
 * What every compiled module of rouge_plus shares. Every C file of the package includes this
 * header first; it is header-only (static functions, compiled into each module that uses them),
 * so each helper is written once here and never copied into a module:
 *   - portable.h: what the C files need beyond standard C11 (HIDDEN, for what one module's files
 *     share with each other and with no other library; bit counts, 128-bit products...);
 *   - growable byte buffers (Buffer) and the doubling rule of every growable array;
 *   - per-id stamps, reset in O(1) per use;
 *   - the buffer protocol: get_buffer, a C-contiguous view of whole items;
 *   - a str's UTF-8 bytes, lone surrogates written as "surrogatepass" writes them;
 *   - hashing: 8-byte chunks of bytes, a fast hash of bytes and SipHash-1-3 (CPython's hash
 *     for str), both keyed with secrets from os.urandom, and the mixing step of the hashes of
 *     integers.
 * Those that make Python objects (get_buffer, utf8_of, buffer_to_bytes, init_hash_key) need the
 * GIL and set an exception on error; the others need no GIL and set none: a failed reservation
 * returns -1, and the caller raises MemoryError once it holds the GIL.
 */
#ifndef ROUGE_PLUS_COMMON_H
#define ROUGE_PLUS_COMMON_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "portable.h"

/* ------------------------------------------------------------------ growable arrays */

/* The capacity, in items, of an array that must hold n: cap doubled (first when cap is 0) until
 * it does (n itself where doubling would overflow). Every growable array of the package grows
 * by this rule. */
static inline Py_ssize_t grown_capacity(Py_ssize_t cap, Py_ssize_t n, Py_ssize_t first)
{
    if (!cap)
        cap = first;
    while (cap < n)
        cap = cap <= PY_SSIZE_T_MAX / 2 ? cap * 2 : n;
    return cap;
}

typedef struct {
    char *data;
    Py_ssize_t len; /* bytes used */
    Py_ssize_t cap; /* bytes allocated */
} Buffer;

/* Room for `extra` more bytes; -1 on memory error (the buffer is unchanged). The buffer is
 * allocated even when extra is 0, so that data is never NULL after a successful call: a
 * zero-size request is not a memory error, and memcpy, memset or memcmp of 0 bytes always get a
 * valid pointer. */
static inline int buffer_reserve(Buffer *b, Py_ssize_t extra)
{
    if (extra < 0 || extra > PY_SSIZE_T_MAX - b->len)
        return -1;
    if (b->data && b->len + extra <= b->cap)
        return 0;
    Py_ssize_t cap = grown_capacity(b->cap, b->len + extra, 256);
    char *data = realloc(b->data, (size_t)cap);
    if (!data)
        return -1;
    b->data = data;
    b->cap = cap;
    return 0;
}

static inline int buffer_append(Buffer *b, const void *src, Py_ssize_t n)
{
    if (buffer_reserve(b, n) < 0)
        return -1;
    if (n > 0)
        memcpy(b->data + b->len, src, (size_t)n);
    b->len += n;
    return 0;
}

static inline int buffer_push_i32(Buffer *b, int32_t v) { return buffer_append(b, &v, sizeof v); }
static inline int buffer_push_i64(Buffer *b, int64_t v) { return buffer_append(b, &v, sizeof v); }

/* A scratch area of `bytes` bytes (the buffer's old content is dropped); never NULL on success,
 * even for 0 bytes, so callers can tell a memory error from an empty request. */
static inline void *buffer_scratch(Buffer *b, size_t bytes)
{
    b->len = 0;
    if (bytes > (size_t)PY_SSIZE_T_MAX || buffer_reserve(b, (Py_ssize_t)bytes) < 0)
        return NULL;
    return b->data;
}

static inline void buffer_free(Buffer *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

/* The used bytes as a new bytes object (needs the GIL). */
static inline PyObject *buffer_to_bytes(const Buffer *b)
{
    return PyBytes_FromStringAndSize(b->data ? b->data : "", b->len);
}

/* ------------------------------------------------------------------ stamps */

/*
 * Per-id scratch tables are valid where stamp[id] equals the current stamp, so that starting
 * over costs one increment, not a clearing: next_stamp returns the stamp after `current`,
 * clearing the n stamps once every 2^32 uses, when it wraps to 0.
 */
static inline uint32_t next_stamp(uint32_t *stamp, size_t n, uint32_t current)
{
    if (++current == 0) {
        memset(stamp, 0, n * sizeof(uint32_t));
        current = 1;
    }
    return current;
}

/* ------------------------------------------------------------------ Python objects */

/* A C-contiguous view of obj, whose size must be a multiple of `item` bytes (name says which
 * argument in the error); -1 with an exception set on error, else release it with
 * PyBuffer_Release. */
static inline int get_buffer(PyObject *obj, Py_buffer *view, Py_ssize_t item, const char *name)
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

/* A str's UTF-8 bytes (*n of them). A str holding lone surrogates has no strict UTF-8 form: it
 * is encoded with "surrogatepass" into *owner, which keeps the bytes alive (release it with
 * Py_XDECREF; it is NULL otherwise). NULL with an exception set on error. */
static inline const char *utf8_of(PyObject *text, Py_ssize_t *n, PyObject **owner)
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

/* ------------------------------------------------------------------ hashing */

/*
 * Both hashes of bytes are keyed with secrets drawn from os.urandom when a module is imported,
 * so no one can precompute words that collide in a table (the unseeded FNV-1a the vocabulary
 * used before let 1.2 MB of crafted words cost rouge1 15 s instead of 20 ms):
 *   - the fast hash: the bytes' 8-byte chunks (in the machine's byte order, the last one
 *     zero-padded) folded with 64x64->128-bit multiplications by secret constants, and two
 *     rounds more;
 *   - SipHash-1-3 (CPython's hash for str), a keyed pseudorandom function, for a table that
 *     must stay fast whatever its keys (the vocabulary switches to it when its lookups probe
 *     too much).
 * hash_key holds SipHash's two words, then the fast hash's six. A module that uses them defines
 * it once (`HIDDEN uint64_t hash_key[8];`, in the file of its PyInit: kernels/_native.c,
 * scoring/_synonyms.c) and fills it with init_hash_key() when it is imported; its tables of integers (n-grams, pairs
 * of ids) start from its words too.
 */
HIDDEN extern uint64_t hash_key[8];

/* The per-process keys, from os.urandom; -1 with an exception set on failure. */
static inline int init_hash_key(void)
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

static inline uint64_t mum(uint64_t a, uint64_t b)
{
    uint64_t high, low = multiply_wide(a, b, &high);
    return low ^ high;
}

static inline uint64_t load64(const char *s)
{
    uint64_t chunk;
    memcpy(&chunk, s, sizeof chunk);
    return chunk;
}

/* Bytes s[0:n] (n <= 8) as the chunk load64 reads when zeros follow them. Byte by byte: a
 * memcpy of a variable size is a call to the C library's memcpy, which costs more than the few
 * bytes of a word's last chunk. */
static inline uint64_t partial_chunk(const char *s, Py_ssize_t n)
{
    uint64_t chunk = 0;
    for (Py_ssize_t i = 0; i < n; i++)
#if PY_BIG_ENDIAN
        chunk |= (uint64_t)(unsigned char)s[i] << (56 - 8 * i);
#else
        chunk |= (uint64_t)(unsigned char)s[i] << (8 * i);
#endif
    return chunk;
}

/* The fast hash in three steps: start, absorb each whole chunk, finish with the last (partial,
 * zero-padded, possibly empty) chunk and the length. Two rounds at the end: one product by a
 * constant leaves the low bits (the table's slot) poorly mixed when words differ in a few bytes
 * (w1 .. w99999); the high half of a second product depends on every bit of the first. A caller
 * that reads the bytes 8 at a time anyway (the vocabulary's tokenizer) hashes them as it goes. */
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

/* SipHash-1-3 of s[0:n], keyed with hash_key[0:2]. */
static inline uint64_t siphash13(const char *s, Py_ssize_t n)
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

/* One step of the hashes of integers (n-grams of ids, the tagger's memo of feature records) and
 * of the tagger's unkeyed hash of bytes: absorb x, multiply by an odd constant, fold the high
 * bits down (splitmix64's mixing). */
static inline uint64_t hash_mix(uint64_t h, uint64_t x)
{
    h = (h ^ x) * 0xBF58476D1CE4E5B9ULL;
    return h ^ (h >> 31);
}

/* The hash of an n-gram of ids, from the per-process key (the kernels' n-gram tables, the synonym
 * matching's n-gram kinds). */
static inline uint64_t hash_ngram(const int32_t *gram, int n)
{
    uint64_t h = hash_key[0];
    for (int k = 0; k < n; k++)
        h = hash_mix(h, (uint64_t)(uint32_t)gram[k]);
    return h;
}

#endif /* ROUGE_PLUS_COMMON_H */
