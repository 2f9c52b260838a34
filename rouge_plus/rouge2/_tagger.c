/*
 * rouge_plus.rouge2._tagger: the averaged-perceptron part-of-speech tagger, in C (see
 * rouge2/pos.py), and the topic filter of ROUGE 2.0's topic types over it.
 *
 * Model(features, weights, classes, tagdict) holds the bundled model (_tagger_model.c);
 * Model.tag(tokens) tags a list of cased str tokens as PerceptronTagger._tag of pos.py does
 * (_tagger_inference.c), and Model.tag_many(sentences) a list of them at once. This file is the
 * module: those methods, the topic filter (topic_words: the tokens whose tag starts with a
 * prefix) and, for texts whose tokens are their ASCII word runs, the same filter with the
 * tokenizing done here too (ascii_topic_words).
 */
#include "_tagger.h"

#include "../_compiled/ascii_words.h"

/* ------------------------------------------------------------------ tagging */

/* What one call of a method needs besides the model. */
typedef struct {
    Key key;
    double *scores;
    Tags tags;
    Buffer chars, shapes; /* the ASCII path: tokens' bytes, their shapes' bytes */
    Py_ssize_t cap;       /* the ASCII path: tokens the arrays below hold */
    Py_ssize_t *start, *head;
    Part *word, *context;
} Scratch;

static int scratch_init(Scratch *s, const Model *m)
{
    memset(s, 0, sizeof *s);
    s->scores = PyMem_Malloc(sizeof(double) * (size_t)m->n_classes);
    s->tags.memo.active = m->bias != NULL && m->records.len / 8 < UINT32_MAX;
    if (!s->scores) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void scratch_free(Scratch *s)
{
    buffer_free(&s->key);
    PyMem_Free(s->scores);
    tags_free(&s->tags);
    buffer_free(&s->chars);
    buffer_free(&s->shapes);
    PyMem_Free(s->start);
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

/* Room for the words of a text of n tokens and its context; -1 on memory error. */
static int ascii_reserve(Scratch *s, Py_ssize_t n)
{
    if (tags_reserve(&s->tags, n) < 0)
        return -1;
    if (n + 4 <= s->cap)
        return 0;
    Py_ssize_t cap = grown_capacity(s->cap, n + 4, 64);
    Py_ssize_t **arrays[] = {&s->start, &s->head};
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

static Part constant_part(const char *text)
{
    Py_ssize_t n = (Py_ssize_t)strlen(text);
    Part part = {text, n, n > 3 ? n - 3 : 0};
    return part;
}

/* The ASCII word runs of a str, with their case (_compiled/ascii_words.h), as a prepared
 * sentence (tokens without Python objects). */
static int ascii_sentence(Scratch *s, PyObject *text, Sentence *t)
{
    int kind = PyUnicode_KIND(text), newline = 0;
    const void *data = PyUnicode_DATA(text);
    Py_ssize_t length = PyUnicode_GET_LENGTH(text), n = 0;
    s->chars.len = s->shapes.len = 0;
    if (reserve_or_raise(&s->chars, length) < 0)
        return -1;
    for (Py_ssize_t i = ascii_skip_separators(kind, data, 0, length, &newline); i < length;
         i = ascii_skip_separators(kind, data, i, length, &newline)) {
        if (n + 1 > s->cap - 4 && ascii_reserve(s, n + 1) < 0)
            return -1;
        s->start[n++] = s->chars.len;
        for (Py_ssize_t end = ascii_word_end(kind, data, i, length); i < end; i++)
            s->chars.data[s->chars.len++] = (char)PyUnicode_READ(kind, data, i);
    }
    if (ascii_reserve(s, n) < 0 || reserve_or_raise(&s->shapes, s->chars.len) < 0)
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
                shape[j] = (char)ascii_lower((unsigned char)w[j]);
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

/* A word's bytes copied to d, lowercased when lowercase is true; returns where they end. */
static char *copy_word(char *d, Part word, int lowercase)
{
    for (Py_ssize_t j = 0; j < word.n; j++)
        d[j] = lowercase ? (char)ascii_lower((unsigned char)word.s[j]) : word.s[j];
    return d + word.n;
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
                d = copy_word(d, t.word[k], lowercase);
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
            if (word)
                copy_word((char *)PyUnicode_DATA(word), t.word[k], lowercase);
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
    .m_doc = "The part-of-speech tagger and its topic filter, compiled (see rouge2/pos.py).",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__tagger(void)
{
    if (tagger_strings_init() < 0)
        return NULL;
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
