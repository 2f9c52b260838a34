/*
 * rouge_plus.kernels._similarity_join: the candidate pairs of a prefix-filtered join, the inner
 * loop of similarity_join.candidate_pairs (whose NumPy code is its twin, to the same pairs).
 *
 * The probe elements come in order, each document's elements together and in the global order;
 * element e of probe document p, with rest[e] elements of p from it on, reads the postings
 * left[e] .. left[e] + counts[e] - 1: indexed documents q holding the same element, with their
 * rests. The FIRST posting of q met by p decides the pair (later ones are skipped): it is
 * admitted when need(p, q) <= min(rest of p, rest of q), need read from a table over the two
 * documents' profiles. Met first at their first shared element, a pair that can reach the
 * threshold is admitted there (the positional filter of PPJoin); met first later, the pair
 * could not reach it at its first shared element (which the window of postings skipped), so
 * admitting it or not loses nothing. `seen[q]` records the last probe document that met q, so
 * that no per-document table is cleared between probe documents. Runs without the GIL.
 */
#include "../_compiled/common.h"

#include <math.h>

typedef struct {
    const int64_t *probe_doc, *probe_rest, *left, *counts;
    const int64_t *posting_doc, *posting_rest;
    const int64_t *probe_profile, *indexed_profile;
    const double *need;
    int64_t *seen, *out_p, *out_q;
    Py_ssize_t n_elements, n_postings, n_docs, rows, columns, capacity;
    int ordered;
} Join;

/* The pairs written, or -1 when an index is out of range (nothing else is checked per posting). */
static Py_ssize_t first_visits_of(const Join *j)
{
    Py_ssize_t n = 0;
    for (Py_ssize_t e = 0; e < j->n_elements; e++) {
        const int64_t p = j->probe_doc[e], rest = j->probe_rest[e];
        const int64_t first = j->left[e], last = first + j->counts[e];
        if (p < 0 || p >= j->n_docs || first < 0 || j->counts[e] < 0 || last > j->n_postings)
            return -1;
        const int64_t row = j->probe_profile[p];
        if (row < 0 || row >= j->rows)
            return -1;
        const double *need = j->need + row * j->columns;
        for (int64_t k = first; k < last; k++) {
            const int64_t q = j->posting_doc[k];
            if (q < 0 || q >= j->n_docs)
                return -1;
            if (j->seen[q] == p || (j->ordered && q <= p))
                continue;
            j->seen[q] = p;
            const int64_t column = j->indexed_profile[q];
            if (column < 0 || column >= j->columns)
                return -1;
            const int64_t most = rest < j->posting_rest[k] ? rest : j->posting_rest[k];
            if (need[column] <= (double)most) {
                if (n == j->capacity)
                    return -1;
                j->out_p[n] = p;
                j->out_q[n] = q;
                n++;
            }
        }
    }
    return n;
}

PyDoc_STRVAR(first_visits_doc,
             "first_visits(probe_doc, probe_rest, left, counts, posting_doc, posting_rest,\n"
             "             probe_profile, indexed_profile, need, columns, seen, ordered, out_p,\n"
             "             out_q) -> n\n\n"
             "Writes the admitted pairs to out_p[:n], out_q[:n] and returns n. Every buffer is\n"
             "int64 and C-contiguous but need, float64 (profiles x columns, row-major); seen holds\n"
             "one entry per document (-1 at first) and is updated in place.");

static PyObject *first_visits(PyObject *Py_UNUSED(module), PyObject *args)
{
    enum { PROBE_DOC, PROBE_REST, LEFT, COUNTS, POSTING_DOC, POSTING_REST, PROBE_PROFILE,
           INDEXED_PROFILE, NEED, SEEN, OUT_P, OUT_Q, VIEWS };
    static const char *names[VIEWS] = {"probe_doc",     "probe_rest",      "left",
                                       "counts",        "posting_doc",     "posting_rest",
                                       "probe_profile", "indexed_profile", "need",
                                       "seen",          "out_p",           "out_q"};
    PyObject *objects[VIEWS];
    Py_ssize_t columns;
    int ordered;
    if (!PyArg_ParseTuple(args, "OOOOOOOOOnOpOO", &objects[PROBE_DOC], &objects[PROBE_REST],
                          &objects[LEFT], &objects[COUNTS], &objects[POSTING_DOC],
                          &objects[POSTING_REST], &objects[PROBE_PROFILE],
                          &objects[INDEXED_PROFILE], &objects[NEED], &columns, &objects[SEEN],
                          &ordered, &objects[OUT_P], &objects[OUT_Q]))
        return NULL;
    Py_buffer views[VIEWS] = {{0}};
    PyObject *result = NULL;
    int v = 0;
    for (; v < VIEWS; v++)
        if (get_buffer(objects[v], &views[v], 8, names[v]) < 0)
            goto done;
    Py_ssize_t n_elements = views[PROBE_DOC].len / 8, n_postings = views[POSTING_DOC].len / 8;
    Py_ssize_t n_docs = views[SEEN].len / 8, capacity = views[OUT_P].len / 8;
    Py_ssize_t n_need = views[NEED].len / 8;
    if (columns < 1 || n_need % columns || views[PROBE_REST].len / 8 != n_elements ||
        views[LEFT].len / 8 != n_elements || views[COUNTS].len / 8 != n_elements ||
        views[POSTING_REST].len / 8 != n_postings || views[PROBE_PROFILE].len / 8 != n_docs ||
        views[INDEXED_PROFILE].len / 8 != n_docs || views[OUT_Q].len / 8 != capacity ||
        views[SEEN].readonly || views[OUT_P].readonly || views[OUT_Q].readonly) {
        PyErr_SetString(PyExc_ValueError, "first_visits: buffers of inconsistent sizes");
        goto done;
    }
    Join join = {
        views[PROBE_DOC].buf,     views[PROBE_REST].buf,    views[LEFT].buf,
        views[COUNTS].buf,        views[POSTING_DOC].buf,   views[POSTING_REST].buf,
        views[PROBE_PROFILE].buf, views[INDEXED_PROFILE].buf, views[NEED].buf,
        views[SEEN].buf,          views[OUT_P].buf,         views[OUT_Q].buf,
        n_elements,               n_postings,               n_docs,
        n_need / columns,         columns,                  capacity,
        ordered,
    };
    Py_ssize_t n;
    Py_BEGIN_ALLOW_THREADS
    n = first_visits_of(&join);
    Py_END_ALLOW_THREADS
    if (n < 0)
        PyErr_SetString(PyExc_ValueError, "first_visits: an index is out of range");
    else
        result = PyLong_FromSsize_t(n);
done:
    for (int k = 0; k < v; k++)
        PyBuffer_Release(&views[k]);
    return result;
}

static PyMethodDef module_methods[] = {
    {"first_visits", first_visits, METH_VARARGS, first_visits_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef similarity_join_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "rouge_plus.kernels._similarity_join",
    .m_doc = "The candidate pairs of a prefix-filtered join (see kernels/similarity_join.py).",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__similarity_join(void) { return PyModule_Create(&similarity_join_module); }
