/*
 * rouge_plus.kernels._native, the vocabulary: texts to token ids (Vocabulary.encode), the
 * pure-Python PythonVocabulary of kernels/python.py restated (the same ids, in order of first
 * appearance).
 *
 * A str item is tokenized here with rouge_score's rule, the ASCII word rule of
 * _compiled/ascii_words.h lowercased ("\n" ends a sentence): the caller only passes str items for
 * which that rule is the chosen tokenizer's result; anything else arrives pre-tokenized as a list
 * of sentences of str tokens. Runs of str items are tokenized without the GIL.
 */
#include "_native.h"

#include "../_compiled/ascii_words.h"
#include <structmember.h>

/* ------------------------------------------------------------------ the table of words */

/* A slot of the vocabulary's table: a word's hash, its first 8 bytes (zero-padded), its length
 * and id. A word of at most 8 bytes (most) is found without reading the words' text. */
typedef struct {
    uint64_t hash;
    uint64_t head;
    int32_t id; /* -1 marks an empty slot */
    int32_t length;
} Slot;

struct Vocabulary {
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
    Buffer slot_of; /* int32 slot of each word, by id: vocabulary_clear empties only those */
};

/*
 * The table's hash (_compiled/common.h) is the keyed fast hash, so no one can precompute words
 * that collide in it. A Vocabulary switches to SipHash-1-3 for good, rehashing its words, if
 * lookups ever inspect more than FLOOD_PROBES_PER_LOOKUP slots per lookup on average (plus
 * FLOOD_SLACK): whatever the words, probing then stays linear in the number of lookups. Ids are
 * assigned in order of first appearance, so results never depend on the keys.
 */
static int weak_hash_for_tests; /* _native._weaken_hash: new Vocabularies' fast hash is 0 */

void vocabulary_weaken_hash(int weak) { weak_hash_for_tests = weak; }

#define FLOOD_PROBES_PER_LOOKUP 3
#define FLOOD_SLACK 4096

/* The hash of a word under the vocabulary's current function. */
static uint64_t word_hash(const Vocabulary *v, const char *s, Py_ssize_t n)
{
    if (v->siphash)
        return siphash13(s, n);
    return v->weak ? 0 : fast_hash(s, n);
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

/* Put a slot into v's new table `slots` (which holds no slot of the same word). */
static void place_slot(Vocabulary *v, Slot *slots, Py_ssize_t n_slots, Slot slot)
{
    Py_ssize_t j = (Py_ssize_t)(slot.hash & (uint64_t)(n_slots - 1));
    while (slots[j].id >= 0)
        j = (j + 1) & (n_slots - 1);
    slots[j] = slot;
    ((int32_t *)v->slot_of.data)[slot.id] = (int32_t)j;
}

static int vocabulary_grow(Vocabulary *v)
{
    Py_ssize_t n_slots = v->n_slots ? v->n_slots * 2 : 1024;
    Slot *slots = empty_slots(n_slots);
    if (!slots)
        return -1;
    for (Py_ssize_t i = 0; i < v->n_slots; i++)
        if (v->slots[i].id >= 0)
            place_slot(v, slots, n_slots, v->slots[i]);
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
        place_slot(v, slots, v->n_slots, slot);
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
        if (buffer_append(&v->text, s, n) < 0 || buffer_push_i64(&v->offsets, v->text.len) < 0 ||
            buffer_push_i32(&v->slot_of, (int32_t)j) < 0)
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
    buffer_free(&self->slot_of);
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

/* ------------------------------------------------------------------ tokenizing */

/*
 * The ASCII word rule eight bytes at a time (SWAR): the high bit of each byte of the result is set
 * where the byte of x is a word character, [A-Za-z0-9] (bytes from 128 up are separators, as in
 * ascii_word_byte).
 * On the low 7 bits v of a byte, v + (128 - lo) reaches the high bit exactly when v >= lo, and
 * v + (127 - hi) when v > hi; no sum carries into the next byte. Letters are tested on v | 0x20,
 * which also lowercases them (digits already have that bit).
 */
#define BYTES(b) (0x0101010101010101ULL * (uint64_t)(b))
static inline uint64_t word_bytes(uint64_t x)
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
#if PY_BIG_ENDIAN
    return r ? ~0ULL << (64 - 8 * r) : 0;
#else
    return (1ULL << (8 * r)) - 1;
#endif
}

/* The number of leading bytes (in string order) of a chunk whose marks (word_bytes) are set. */
static inline int marked_prefix(uint64_t marks)
{
    uint64_t unmarked = ~marks & BYTES(0x80);
    if (!unmarked)
        return 8;
#if PY_BIG_ENDIAN
    return clz64(unmarked) / 8;
#else
    return ctz64(unmarked) / 8;
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

/* Pass over the separators from text[*i] (a str's kind and data), closing the sentence at a "\n"
 * when split_newlines: 1 when a word starts at *i, 0 at the text's end, -1 on memory error. */
static inline int next_word(Encoded *e, int kind, const void *data, Py_ssize_t n, Py_ssize_t *i,
                            int split_newlines, int64_t *sentence_start)
{
    int newline = 0;
    *i = ascii_skip_separators(kind, data, *i, n, &newline);
    if (newline && split_newlines && encoded_close_sentence(e, sentence_start) < 0)
        return -1;
    return *i < n;
}

/*
 * rouge_score's rule on a str: the ASCII word rule's words, lowercased; "\n" ends a sentence.
 * Each token is lowercased and hashed in the same pass. Needs no GIL: it touches no Python
 * object.
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
    int more;
    if (kind == PyUnicode_1BYTE_KIND) { /* most texts: one byte per code point, one table */
        const unsigned char *latin1 = data;
        while ((more = next_word(e, PyUnicode_1BYTE_KIND, data, n, &i, split_newlines,
                                 sentence_start)) > 0) {
            /* A word: eight bytes at a time while they lie inside the text (a branch per word,
             * not per byte), hashed as it is read: the chunks stay in registers (loading them
             * back from `word` right after storing them would stall the load). */
            Py_ssize_t length = 0;
            uint64_t state = fast_hash_start(), last = 0, head = 0;
            int run = 8;
            while (run == 8 && i + 8 <= n) {
                uint64_t raw = load64((const char *)latin1 + i), chunk = raw | BYTES(0x20);
                run = marked_prefix(word_bytes(raw)); /* chunk: lowercased */
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
                unsigned char lower;
                while (i < n && (lower = ascii_word_byte[latin1[i]]) != 0)
                    word[length++] = (char)lower, i++;
                last = partial_chunk(word + whole, length - whole);
                if (whole == 0)
                    head = last;
            }
            if (encode_word(v, e, word, length, fast_hash_finish(state, last, length), head) < 0)
                return -1;
        }
        return more < 0 ? -1 : encoded_close_sentence(e, sentence_start);
    }
    while ((more = next_word(e, kind, data, n, &i, split_newlines, sentence_start)) > 0) {
        Py_ssize_t length = ascii_word_end(kind, data, i, n) - i;
        for (Py_ssize_t k = 0; k < length; k++)
            word[k] = (char)ascii_word_char(PyUnicode_READ(kind, data, i + k));
        i += length;
        uint64_t head = partial_chunk(word, length < 8 ? length : 8);
        if (encode_word(v, e, word, length, fast_hash(word, length), head) < 0)
            return -1;
    }
    return more < 0 ? -1 : encoded_close_sentence(e, sentence_start);
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
            const char *utf8 = NULL;
            if (!PyUnicode_Check(token))
                PyErr_SetString(PyExc_TypeError, "tokens must be str");
            else
                utf8 = utf8_of(token, &length, &encoded);
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

int vocabulary_encode_strs(Vocabulary *v, Encoded *e, PyObject *const *texts, Py_ssize_t n_texts,
                           int split_newlines)
{
    e->ids.len = e->sentences.len = e->documents.len = 0;
    int64_t sentence_start = 0;
    if (buffer_push_i64(&e->sentences, 0) < 0 || buffer_push_i64(&e->documents, 0) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t d = 0; d < n_texts; d++) {
        PyObject *text = texts[d];
        if (!PyUnicode_Check(text)) {
            PyErr_SetString(PyExc_TypeError, "texts must be str");
            return -1;
        }
        if (PyUnicode_READY(text) < 0)
            return -1;
        TextView view = {PyUnicode_KIND(text), PyUnicode_DATA(text), PyUnicode_GET_LENGTH(text)};
        if (encode_text(v, e, view, split_newlines, &sentence_start) < 0 ||
            encoded_close_document(e) < 0) {
            PyErr_NoMemory();
            return -1;
        }
    }
    return 0;
}

int32_t vocabulary_intern(Vocabulary *v, const char *s, Py_ssize_t n)
{
    return vocabulary_id(v, s, n, word_hash(v, s, n), partial_chunk(s, n < 8 ? n : 8));
}

const char *vocabulary_word(const Vocabulary *v, int32_t id, Py_ssize_t *n)
{
    const int64_t *offsets = (const int64_t *)v->offsets.data;
    *n = (Py_ssize_t)(offsets[id + 1] - offsets[id]);
    return v->text.data + offsets[id];
}

void vocabulary_clear(Vocabulary *v)
{
    const int32_t *slot_of = (const int32_t *)v->slot_of.data;
    for (Py_ssize_t i = 0; i < v->n_words; i++)
        v->slots[slot_of[i]].id = -1;
    v->n_words = 0;
    v->text.len = 0;
    v->offsets.len = sizeof(int64_t); /* the leading 0 */
    v->slot_of.len = 0;
    v->siphash = 0;
    v->probes = v->lookups = 0;
}

Py_ssize_t vocabulary_size(const Vocabulary *v) { return v->n_words; }

void encoded_free(Encoded *e)
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

PyTypeObject VocabularyType = {
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
