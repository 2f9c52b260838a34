/*
 * rouge_plus.meta._global_level: the global level's coefficient under each bootstrap resample,
 * without materialising the resample.
 *
 * A resample of a (systems x documents) pair of matrices is the original cells, cell (i, j)
 * weighted by w = a[i] * b[j] (how often system i and document j were drawn). The cells are
 * sorted once per pair (by meta/global_level.py); each resample is then a few passes over them:
 *   - Pearson: the weighted samples mapped onto [0, 1] (their own minimum and range), the means,
 *     then the centred sums, each summed in cell order (the Python twin sums with cumsum, in the
 *     same order, so the two agree to the last bit);
 *   - Spearman: a cell's average rank less the mean rank, doubled, is U = (weight below it) -
 *     (weight above it), a whole number read off the cumulative weights of the tie groups in
 *     sorted order; rho = sum w U V / sqrt(sum w U^2 * sum w V^2), the sums exact in int64;
 *   - Kendall: concordant minus discordant pairs in one pass in x order, a Fenwick tree of the
 *     weights inserted so far by z rank; each x tie group is queried before any of its cells is
 *     inserted (pairs tied in x count 0, and so do a cell's own copies). tau-b's tied pairs come
 *     from the sums of squared group weights, tau-c's classes from the groups with weight.
 * Cells of weight 0 are skipped. Every coefficient is NaN where SciPy's is: fewer than two
 * elements, or a constant side. The work runs without the GIL.
 */
#include "../_compiled/common.h"

#include <math.h>

enum { PEARSON = 0, SPEARMAN = 1, KENDALL_B = 2, KENDALL_C = 3 };

/* The rows of the int64 cells table: each present cell's system and document (flat order), the
 * cells in x order and whether each starts a tie group there, the same for z, and z's rank
 * (0-based dense rank among the cells' distinct z values). */
enum { ROW, COL, X_ORDER, X_START, Z_ORDER, Z_START, Z_RANK, CELL_FIELDS };

typedef struct {
    Py_ssize_t n_cells, m, n, ranks;
    const int64_t *f[CELL_FIELDS];
    const double *x, *z;
} Cells;

static inline int64_t weight_of(const Cells *c, const int64_t *a, const int64_t *b, Py_ssize_t k)
{
    return a[c->f[ROW][k]] * b[c->f[COL][k]];
}

static inline double clipped(double r) { return r > 1.0 ? 1.0 : (r < -1.0 ? -1.0 : r); }

static double pearson(const Cells *c, const int64_t *a, const int64_t *b)
{
    int64_t total = 0;
    double x_low = INFINITY, x_high = -INFINITY, z_low = INFINITY, z_high = -INFINITY;
    for (Py_ssize_t k = 0; k < c->n_cells; k++) {
        int64_t w = weight_of(c, a, b, k);
        if (!w)
            continue;
        total += w;
        x_low = fmin(x_low, c->x[k]), x_high = fmax(x_high, c->x[k]);
        z_low = fmin(z_low, c->z[k]), z_high = fmax(z_high, c->z[k]);
    }
    double x_span = x_high - x_low, z_span = z_high - z_low;
    if (total < 2 || x_span == 0 || z_span == 0)
        return NAN;
    double sx = 0.0, sz = 0.0;
    for (Py_ssize_t k = 0; k < c->n_cells; k++) {
        double w = (double)weight_of(c, a, b, k);
        if (w == 0)
            continue;
        sx += w * ((c->x[k] - x_low) / x_span);
        sz += w * ((c->z[k] - z_low) / z_span);
    }
    double x_mean = sx / (double)total, z_mean = sz / (double)total;
    double sxz = 0.0, sxx = 0.0, szz = 0.0;
    for (Py_ssize_t k = 0; k < c->n_cells; k++) {
        double w = (double)weight_of(c, a, b, k);
        if (w == 0)
            continue;
        double dx = (c->x[k] - x_low) / x_span - x_mean;
        double dz = (c->z[k] - z_low) / z_span - z_mean;
        sxz += w * dx * dz;
        sxx += w * dx * dx;
        szz += w * dz * dz;
    }
    return clipped(sxz / sqrt(sxx) / sqrt(szz));
}

/* Per cell 2 * (its average rank) - (total + 1): the weight of the cells below it in `order`
 * minus the weight of those above. */
static void rank_offsets(const Cells *c, const int64_t *a, const int64_t *b, const int64_t *order,
                         const int64_t *start, int64_t total, int64_t *out)
{
    int64_t below = 0;
    for (Py_ssize_t i = 0; i < c->n_cells;) {
        Py_ssize_t end = i + 1;
        while (end < c->n_cells && !start[end])
            end++;
        int64_t group = 0;
        for (Py_ssize_t s = i; s < end; s++)
            group += weight_of(c, a, b, order[s]);
        for (Py_ssize_t s = i; s < end; s++)
            out[order[s]] = 2 * below + group - total;
        below += group;
        i = end;
    }
}

static double spearman(const Cells *c, const int64_t *a, const int64_t *b, int64_t *u, int64_t *v)
{
    int64_t total = 0;
    for (Py_ssize_t k = 0; k < c->n_cells; k++)
        total += weight_of(c, a, b, k);
    if (total < 2)
        return NAN;
    rank_offsets(c, a, b, c->f[X_ORDER], c->f[X_START], total, u);
    rank_offsets(c, a, b, c->f[Z_ORDER], c->f[Z_START], total, v);
    int64_t suv = 0, suu = 0, svv = 0;
    for (Py_ssize_t k = 0; k < c->n_cells; k++) {
        int64_t w = weight_of(c, a, b, k);
        suv += w * u[k] * v[k];
        suu += w * u[k] * u[k];
        svv += w * v[k] * v[k];
    }
    if (suu == 0 || svv == 0)
        return NAN;
    return clipped((double)suv / sqrt((double)suu) / sqrt((double)svv));
}

/* The weight inserted at ranks below `rank` (Fenwick tree, 1-based, `tree[0]` unused). */
static inline int64_t below(const int64_t *tree, Py_ssize_t rank)
{
    int64_t sum = 0;
    for (Py_ssize_t i = rank; i > 0; i -= i & -i)
        sum += tree[i];
    return sum;
}

static double kendall(const Cells *c, const int64_t *a, const int64_t *b, int tau_c, int64_t *tree,
                      int64_t *at_rank)
{
    memset(tree, 0, (size_t)(c->ranks + 1) * sizeof(int64_t));
    memset(at_rank, 0, (size_t)c->ranks * sizeof(int64_t));
    const int64_t *order = c->f[X_ORDER], *start = c->f[X_START], *rank = c->f[Z_RANK];
    int64_t inserted = 0, balance = 0, x_squares = 0, z_squares = 0, x_groups = 0, z_groups = 0;
    for (Py_ssize_t i = 0; i < c->n_cells;) {
        Py_ssize_t end = i + 1;
        while (end < c->n_cells && !start[end])
            end++;
        int64_t group = 0;
        for (Py_ssize_t s = i; s < end; s++) {
            int64_t w = weight_of(c, a, b, order[s]);
            if (!w)
                continue;
            Py_ssize_t r = (Py_ssize_t)rank[order[s]];
            int64_t lower = below(tree, r), higher = inserted - below(tree, r + 1);
            balance += w * (lower - higher);
            group += w;
        }
        for (Py_ssize_t s = i; s < end; s++) {
            int64_t w = weight_of(c, a, b, order[s]);
            if (!w)
                continue;
            Py_ssize_t r = (Py_ssize_t)rank[order[s]];
            for (Py_ssize_t t = r + 1; t <= c->ranks; t += t & -t)
                tree[t] += w;
            z_groups += at_rank[r] == 0;
            z_squares += (2 * at_rank[r] + w) * w;
            at_rank[r] += w;
        }
        inserted += group;
        x_squares += group * group;
        x_groups += group > 0;
        i = end;
    }
    if (inserted < 2 || x_groups < 2 || z_groups < 2)
        return NAN;
    double count = (double)inserted;
    if (tau_c) {
        double classes = (double)(x_groups < z_groups ? x_groups : z_groups);
        return 2 * (double)balance / (count * count * (classes - 1) / classes);
    }
    double pairs = count * (count - 1) / 2;
    double x_tied = (double)((x_squares - inserted) / 2), z_tied = (double)((z_squares - inserted) / 2);
    return (double)balance / sqrt(pairs - x_tied) / sqrt(pairs - z_tied);
}

/* Checks that every index of the cells table is in range, so that no resample reads outside. */
static int cells_valid(const Cells *c)
{
    for (Py_ssize_t k = 0; k < c->n_cells; k++) {
        if (c->f[ROW][k] < 0 || c->f[ROW][k] >= c->m || c->f[COL][k] < 0 || c->f[COL][k] >= c->n ||
            c->f[X_ORDER][k] < 0 || c->f[X_ORDER][k] >= c->n_cells || c->f[Z_ORDER][k] < 0 ||
            c->f[Z_ORDER][k] >= c->n_cells || c->f[Z_RANK][k] < 0 || c->f[Z_RANK][k] >= c->ranks)
            return 0;
    }
    return 1;
}

PyDoc_STRVAR(coefficients_doc,
             "coefficients(method, cells, values, a, b, m, n, ranks, out)\n\n"
             "method: 0 Pearson, 1 Spearman, 2 Kendall tau-b, 3 tau-c; cells: int64 (7, N): each\n"
             "cell's row and column, the cells in x order, 1 where an x tie group starts there,\n"
             "the same for z, each cell's z rank (< ranks); values: float64 (2, N), x then z;\n"
             "a: int64 (R, m) weights of the rows, b: int64 (R, n) of the columns; writes the\n"
             "coefficient of each of the R resamples into out (float64, R).");

static PyObject *coefficients(PyObject *Py_UNUSED(module), PyObject *args)
{
    int method;
    PyObject *o_cells, *o_values, *o_a, *o_b, *o_out;
    Cells c;
    if (!PyArg_ParseTuple(args, "iOOOOnnnO", &method, &o_cells, &o_values, &o_a, &o_b, &c.m, &c.n,
                          &c.ranks, &o_out))
        return NULL;
    if (method < PEARSON || method > KENDALL_C || c.m < 1 || c.n < 1 || c.ranks < 0) {
        PyErr_SetString(PyExc_ValueError, "coefficients: bad method, m, n or ranks");
        return NULL;
    }
    Py_buffer cells = {0}, values = {0}, a = {0}, b = {0}, out = {0};
    PyObject *result = NULL;
    int64_t *work = NULL;
    if (get_buffer(o_cells, &cells, CELL_FIELDS * sizeof(int64_t), "cells") < 0 ||
        get_buffer(o_values, &values, 2 * sizeof(double), "values") < 0 ||
        get_buffer(o_a, &a, c.m * (Py_ssize_t)sizeof(int64_t), "a") < 0 ||
        get_buffer(o_b, &b, c.n * (Py_ssize_t)sizeof(int64_t), "b") < 0 ||
        get_buffer(o_out, &out, sizeof(double), "out") < 0)
        goto done;
    c.n_cells = cells.len / (Py_ssize_t)(CELL_FIELDS * sizeof(int64_t));
    Py_ssize_t n_resamples = out.len / (Py_ssize_t)sizeof(double);
    if (out.readonly || values.len != c.n_cells * 2 * (Py_ssize_t)sizeof(double) ||
        a.len / c.m != n_resamples * (Py_ssize_t)sizeof(int64_t) ||
        b.len / c.n != n_resamples * (Py_ssize_t)sizeof(int64_t)) {
        PyErr_SetString(PyExc_ValueError, "coefficients: buffers of inconsistent sizes");
        goto done;
    }
    for (int f = 0; f < CELL_FIELDS; f++)
        c.f[f] = (const int64_t *)cells.buf + f * c.n_cells;
    c.x = values.buf;
    c.z = (const double *)values.buf + c.n_cells;
    if (!cells_valid(&c)) {
        PyErr_SetString(PyExc_ValueError, "coefficients: an index of the cells is out of range");
        goto done;
    }
    Py_ssize_t scratch = 2 * (c.n_cells > c.ranks + 1 ? c.n_cells : c.ranks + 1);
    work = malloc((size_t)scratch * sizeof(int64_t));
    if (!work) {
        PyErr_NoMemory();
        goto done;
    }
    int64_t *first = work, *second = work + scratch / 2;
    double *r = out.buf;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t s = 0; s < n_resamples; s++) {
        const int64_t *rows = (const int64_t *)a.buf + s * c.m;
        const int64_t *cols = (const int64_t *)b.buf + s * c.n;
        if (method == PEARSON)
            r[s] = pearson(&c, rows, cols);
        else if (method == SPEARMAN)
            r[s] = spearman(&c, rows, cols, first, second);
        else
            r[s] = kendall(&c, rows, cols, method == KENDALL_C, first, second);
    }
    Py_END_ALLOW_THREADS
    result = Py_None;
    Py_INCREF(result);
done:
    free(work);
    Py_buffer *views[] = {&cells, &values, &a, &b, &out};
    for (int v = 0; v < 5; v++)
        if (views[v]->obj)
            PyBuffer_Release(views[v]);
    return result;
}

static PyMethodDef module_methods[] = {
    {"coefficients", coefficients, METH_VARARGS, coefficients_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef global_level_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "rouge_plus.meta._global_level",
    .m_doc = "The global level's coefficients under bootstrap weights (see meta/global_level.py).",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__global_level(void) { return PyModule_Create(&global_level_module); }
