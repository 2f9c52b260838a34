/*
 * rouge_plus.scoring._scores: counts to per-row scores without NumPy, for the common options.
 *
 * The NumPy code of scoring/measures.py, fmeasure.py and multiref.py ("best") and of
 * corpus/aggregation.py (the mean) restated on plain buffers, with the same floating-point
 * operations in the same order, so the results are the same to the last bit (the tests compare
 * the two on every bench row):
 *   - per_row_scores: precision = hit / pred_base and recall = hit / ref_base (0 where the base
 *     is 0), F by beta or alpha as FMeasure writes it, then per row the first reference with the
 *     highest F;
 *   - column_means: the mean of each column of an (n, 3) row-major table, summed row by row as
 *     NumPy's ``mean(axis=0)`` does for a C-ordered array.
 */
#include "../_compiled/common.h"

#include "../_compiled/fmeasure.h"

PyDoc_STRVAR(per_row_scores_doc,
             "per_row_scores(counts, n_measures, pair_rows, n_rows, f_kind, c1, c2) -> list\n\n"
             "counts: float64 (n_measures, 3, n_pairs) as count_pairs returns them (hit,\n"
             "pred_base, ref_base); pair_rows: int64 row of each pair (rows contiguous, in order),\n"
             "or None when pair k is row k; f_kind 0: F = 2PR/(P+R), 1: PR/(c1 P + c2 R),\n"
             "2: c1 P R/(c2 P + R). Returns one bytearray per measure: float64 (n_rows, 3) of\n"
             "precision, recall, F, each row the pair with the first highest F.");

static PyObject *per_row_scores(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *o_counts, *o_rows;
    Py_ssize_t n_measures, n_rows;
    FSpec f;
    if (!PyArg_ParseTuple(args, "OnOnidd", &o_counts, &n_measures, &o_rows, &n_rows, &f.kind, &f.c1,
                          &f.c2))
        return NULL;
    if (n_measures < 0 || n_measures > PY_SSIZE_T_MAX / 3 || n_rows < 0 || !fspec_valid(&f)) {
        PyErr_SetString(PyExc_ValueError, "per_row_scores: bad n_measures, n_rows or f_kind");
        return NULL;
    }
    Py_buffer counts = {0}, rows = {0};
    PyObject *result = NULL;
    if (get_buffer(o_counts, &counts, sizeof(double), "counts") < 0)
        return NULL;
    Py_ssize_t n_values = counts.len / (Py_ssize_t)sizeof(double);
    Py_ssize_t n_pairs = n_measures ? n_values / (3 * n_measures) : 0;
    if (n_pairs * 3 * n_measures != n_values) {
        PyErr_SetString(PyExc_ValueError, "per_row_scores: counts do not hold n_measures x 3 rows");
        goto release;
    }
    const int64_t *pair_rows = NULL;
    if (o_rows != Py_None) {
        if (get_buffer(o_rows, &rows, sizeof(int64_t), "pair_rows") < 0)
            goto release;
        if (rows.len / (Py_ssize_t)sizeof(int64_t) != n_pairs) {
            PyErr_SetString(PyExc_ValueError, "per_row_scores: one row per pair is needed");
            goto release;
        }
        pair_rows = rows.buf;
        for (Py_ssize_t k = 0; k < n_pairs; k++) {
            /* rows start at 0, never decrease, and grow by at most one: no row is left out */
            int64_t previous = k ? pair_rows[k - 1] : -1;
            if (pair_rows[k] != previous + 1 && (k == 0 || pair_rows[k] != previous)) {
                PyErr_SetString(PyExc_ValueError, "per_row_scores: pair_rows must run 0, 1, ...");
                goto release;
            }
        }
        if ((n_pairs ? pair_rows[n_pairs - 1] + 1 : 0) != n_rows) {
            PyErr_SetString(PyExc_ValueError, "per_row_scores: pair_rows do not cover n_rows");
            goto release;
        }
    } else if (n_pairs != n_rows) {
        PyErr_SetString(PyExc_ValueError, "per_row_scores: n_rows differs from the pairs");
        goto release;
    }
    result = PyList_New(n_measures);
    if (!result)
        goto release;
    const double *all = counts.buf;
    for (Py_ssize_t m = 0; m < n_measures; m++) {
        PyObject *table = PyByteArray_FromStringAndSize(NULL, 3 * n_rows * (Py_ssize_t)sizeof(double));
        if (!table) {
            Py_CLEAR(result);
            goto release;
        }
        PyList_SET_ITEM(result, m, table);
        double *out = (double *)PyByteArray_AS_STRING(table);
        const double *hit = all + m * 3 * n_pairs, *pred_base = hit + n_pairs,
                     *ref_base = pred_base + n_pairs;
        Py_ssize_t row = -1;
        double best_f = 0.0;
        for (Py_ssize_t k = 0; k < n_pairs; k++) {
            double p = ratio(hit[k], pred_base[k]), r = ratio(hit[k], ref_base[k]);
            double f1 = f_of(&f, p, r);
            Py_ssize_t this_row = pair_rows ? (Py_ssize_t)pair_rows[k] : k;
            if (this_row != row || f1 > best_f) { /* the first pair of a row, or a higher F */
                row = this_row;
                best_f = f1;
                out[3 * row] = p;
                out[3 * row + 1] = r;
                out[3 * row + 2] = f1;
            }
        }
    }
release:
    PyBuffer_Release(&counts);
    if (rows.obj)
        PyBuffer_Release(&rows);
    return result;
}

PyDoc_STRVAR(column_means_doc,
             "column_means(table) -> (mean0, mean1, mean2)\n\n"
             "The mean of each column of a float64 (n, 3) row-major table, n > 0, summed row by\n"
             "row from the first (NumPy's mean(axis=0) of a C-ordered array).");

static PyObject *column_means(PyObject *Py_UNUSED(module), PyObject *arg)
{
    Py_buffer table;
    if (get_buffer(arg, &table, 3 * sizeof(double), "table") < 0)
        return NULL;
    Py_ssize_t n = table.len / (Py_ssize_t)(3 * sizeof(double));
    if (n == 0) {
        PyBuffer_Release(&table);
        PyErr_SetString(PyExc_ValueError, "column_means: the table has no row");
        return NULL;
    }
    const double *v = table.buf;
    double s0 = 0.0, s1 = 0.0, s2 = 0.0;
    for (Py_ssize_t i = 0; i < n; i++) {
        s0 += v[3 * i];
        s1 += v[3 * i + 1];
        s2 += v[3 * i + 2];
    }
    PyBuffer_Release(&table);
    double count = (double)n;
    return Py_BuildValue("(ddd)", s0 / count, s1 / count, s2 / count);
}

static PyMethodDef module_methods[] = {
    {"per_row_scores", per_row_scores, METH_VARARGS, per_row_scores_doc},
    {"column_means", column_means, METH_O, column_means_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef scores_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "rouge_plus.scoring._scores",
    .m_doc = "Per-row scores and column means from counts, without NumPy (see scoring/multiref.py and results.py).",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__scores(void) { return PyModule_Create(&scores_module); }
