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
 * admitting it or not loses nothing. An admitted pair is kept when the two documents share at
 * least need(p, q) elements in all, the least overlap at which the pair's score bound reaches
 * the threshold: first by the bound of their buckets (a few words of bits), then exactly (their
 * whole runs of elements merged). `seen[q]` records the last probe document that met q, so
 * that no per-document table is cleared between probe documents. Runs without the GIL.
 */
#include "../_compiled/common.h"

#include <math.h>

typedef struct {
    const int64_t *keys, *starts; /* every document's elements, each run sorted */
    const int64_t *probe_doc, *probe_rest, *left, *counts;
    const int64_t *posting_doc, *posting_rest;
    const int64_t *probe_profile, *indexed_profile;
    const double *need;
    const uint64_t *present; /* per document, `words` words of bits: the buckets it fills */
    const double *excess;    /* per document, its tokens in a bucket already filled */
    int64_t *seen, *out_p, *out_q;
    Py_ssize_t n_keys, n_elements, n_postings, n_docs, rows, columns, words, capacity;
    int ordered;
} Join;

/* At least the overlap of documents p and q, from their buckets (all_pairs._Bounds). */
static double hashed_overlap(const Join *j, int64_t p, int64_t q)
{
    const uint64_t *a = j->present + p * j->words, *b = j->present + q * j->words;
    int64_t bits = 0;
    for (Py_ssize_t w = 0; w < j->words; w++)
        bits += __builtin_popcountll(a[w] & b[w]);
    return (double)bits + (j->excess[p] < j->excess[q] ? j->excess[p] : j->excess[q]);
}

/* Whether documents p and q share at least `need` elements (a merge of their sorted runs that
 * stops as soon as the answer is known); -1 when their runs are out of range. */
static int shares_at_least(const Join *j, int64_t p, int64_t q, double need)
{
    int64_t a = j->starts[p], a_end = j->starts[p + 1], b = j->starts[q], b_end = j->starts[q + 1];
    if (a < 0 || a > a_end || a_end > j->n_keys || b < 0 || b > b_end || b_end > j->n_keys)
        return -1;
    int64_t shared = 0;
    while ((double)shared < need) {
        int64_t left = a_end - a < b_end - b ? a_end - a : b_end - b;
        if ((double)(shared + left) < need)
            return 0;
        if (j->keys[a] == j->keys[b]) {
            shared++;
            a++;
            b++;
        } else if (j->keys[a] < j->keys[b]) {
            a++;
        } else {
            b++;
        }
    }
    return 1;
}

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
            if (need[column] > (double)most || hashed_overlap(j, p, q) < need[column])
                continue;
            int shares = shares_at_least(j, p, q, need[column]);
            if (shares < 0)
                return -1;
            if (shares) {
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
             "first_visits(keys, starts, probe_doc, probe_rest, left, counts, posting_doc,\n"
             "             posting_rest, probe_profile, indexed_profile, need, columns, present,\n"
             "             excess, seen, ordered, out_p, out_q) -> n\n\n"
             "Writes the admitted pairs to out_p[:n], out_q[:n] and returns n. Every buffer is\n"
             "C-contiguous and int64 but need, float64 (profiles x columns, row-major), present,\n"
             "uint64 (documents x words), and excess, float64 (one per document); seen holds one\n"
             "entry per document (-1 at first) and is updated in place.");

static PyObject *first_visits(PyObject *Py_UNUSED(module), PyObject *args)
{
    enum { KEYS, STARTS, PROBE_DOC, PROBE_REST, LEFT, COUNTS, POSTING_DOC, POSTING_REST,
           PROBE_PROFILE, INDEXED_PROFILE, NEED, PRESENT, EXCESS, SEEN, OUT_P, OUT_Q, VIEWS };
    static const char *names[VIEWS] = {
        "keys",          "starts",          "probe_doc", "probe_rest", "left",  "counts",
        "posting_doc",   "posting_rest",    "probe_profile", "indexed_profile", "need",
        "present",       "excess",          "seen",      "out_p",      "out_q"};
    PyObject *objects[VIEWS];
    Py_ssize_t columns;
    int ordered;
    if (!PyArg_ParseTuple(args, "OOOOOOOOOOOnOOOpOO", &objects[KEYS], &objects[STARTS],
                          &objects[PROBE_DOC], &objects[PROBE_REST], &objects[LEFT],
                          &objects[COUNTS], &objects[POSTING_DOC], &objects[POSTING_REST],
                          &objects[PROBE_PROFILE], &objects[INDEXED_PROFILE], &objects[NEED],
                          &columns, &objects[PRESENT], &objects[EXCESS], &objects[SEEN], &ordered,
                          &objects[OUT_P], &objects[OUT_Q]))
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
    Py_ssize_t words = n_docs ? views[PRESENT].len / 8 / n_docs : 0;
    if (columns < 1 || n_need % columns || views[STARTS].len / 8 != n_docs + 1 ||
        views[PRESENT].len / 8 != n_docs * words || views[EXCESS].len / 8 != n_docs || views[PROBE_REST].len / 8 != n_elements ||
        views[LEFT].len / 8 != n_elements || views[COUNTS].len / 8 != n_elements ||
        views[POSTING_REST].len / 8 != n_postings || views[PROBE_PROFILE].len / 8 != n_docs ||
        views[INDEXED_PROFILE].len / 8 != n_docs || views[OUT_Q].len / 8 != capacity ||
        views[SEEN].readonly || views[OUT_P].readonly || views[OUT_Q].readonly) {
        PyErr_SetString(PyExc_ValueError, "first_visits: buffers of inconsistent sizes");
        goto done;
    }
    Join join = {
        .keys = views[KEYS].buf,
        .starts = views[STARTS].buf,
        .probe_doc = views[PROBE_DOC].buf,
        .probe_rest = views[PROBE_REST].buf,
        .left = views[LEFT].buf,
        .counts = views[COUNTS].buf,
        .posting_doc = views[POSTING_DOC].buf,
        .posting_rest = views[POSTING_REST].buf,
        .probe_profile = views[PROBE_PROFILE].buf,
        .indexed_profile = views[INDEXED_PROFILE].buf,
        .need = views[NEED].buf,
        .present = views[PRESENT].buf,
        .excess = views[EXCESS].buf,
        .seen = views[SEEN].buf,
        .out_p = views[OUT_P].buf,
        .out_q = views[OUT_Q].buf,
        .n_keys = views[KEYS].len / 8,
        .n_elements = n_elements,
        .n_postings = n_postings,
        .n_docs = n_docs,
        .rows = n_need / columns,
        .columns = columns,
        .words = words,
        .capacity = capacity,
        .ordered = ordered,
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
