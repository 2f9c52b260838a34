/*
 * rouge_plus.rouge2._tagger, the model: Model(features, weights, classes, tagdict) loads the
 * bundled averaged-perceptron model (rouge2/pos.py documents the file) into one block of feature
 * records, looked up by their keys' bytes, and a table of the tag dictionary's words.
 */
#include "_tagger.h"

static void model_clear(Model *m)
{
    Py_CLEAR(m->classes);
    Py_CLEAR(m->tagdict);
    PyMem_Free(m->class_names);
    PyMem_Free(m->slots);
    PyMem_Free(m->tag_slots);
    PyMem_Free(m->tag_entries);
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
    buffer_free(&m->records);
    buffer_free(&m->tag_keys);
}

/* The tag dictionary's words: their bytes back to back in tag_keys, a TagEntry each, and a table
 * of them by hash (looked up by lookup_tag in _tagger_inference.c). */
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
        int failed = reserve_or_raise(&m->tag_keys, word_n) < 0;
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
        uint64_t h = key_hash(key, key_len);
        Py_ssize_t mask = m->n_tag_slots - 1, j = (Py_ssize_t)(h & (uint64_t)mask);
        while (m->tag_slots[j])
            j = (j + 1) & mask;
        m->tag_slots[j] = (h >> 32) << 32 | (uint64_t)(i + 1);
    }
    return 0;
}

void model_dealloc(Model *m)
{
    model_clear(m);
    Py_TYPE(m)->tp_free((PyObject *)m);
}

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
    if (reserve_or_raise(&m->records, size) < 0)
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

int model_init(Model *m, PyObject *args, PyObject *kwds)
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
        uint64_t h = key_hash(f_line[f], f_len[f]);
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
