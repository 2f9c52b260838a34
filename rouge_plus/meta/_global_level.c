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
 *     sorted order (x's, then z's for V); rho = sum w U V / sqrt(sum w U^2 * sum w V^2), the
 *     sums exact in int64;
 *   - Kendall: concordant minus discordant pairs in one pass in x order, a Fenwick tree of the
 *     weights inserted so far by z rank; each x tie group is queried before any of its cells is
 *     inserted (pairs tied in x count 0, and so do a cell's own copies). tau-b's tied pairs come
 *     from the sums of squared group weights, tau-c's classes from the groups with weight.
 * Pearson takes a resample at a time and skips the cells of weight 0. Spearman and Kendall take
 * up to LANES resamples at once, as the twin takes a chunk: the cells are visited in sorted order
 * once for all of them (a cell's place, tie group and z rank are the same in every resample) and
 * every step is a loop over the lanes, which the compiler vectorizes. Every coefficient is NaN
 * where SciPy's is: fewer than two elements, or a constant side. The work runs without the GIL.
 */
#include "../_compiled/common.h"

#include <math.h>

enum { PEARSON = 0, SPEARMAN = 1, KENDALL_B = 2, KENDALL_C = 3 };

/* A resample holds fewer elements than this (the product of its sums of row and column
 * weights), so that every sum of Spearman's (at most the cube of the elements) fits in int64;
 * global_level.py's EXACT_LIMIT. */
#define EXACT_LIMIT 2000000

/* The rows of the int64 cells table: each present cell's system and document (flat order), the
 * cells in x order and whether each starts a tie group there, the same for z, and z's rank
 * (0-based dense rank among the cells' distinct z values). */
enum { ROW, COL, X_ORDER, X_START, Z_ORDER, Z_START, Z_RANK, CELL_FIELDS };

/* Resamples per lane pass, fewer where the lanes' arrays would pass LANE_BUDGET entries (a cell
 * count, or a count of distinct z values, in the millions). Weights, rank offsets and the sums
 * of the Fenwick tree stay below 2 * EXACT_LIMIT: int32. */
enum { LANES = 64, LANE_BUDGET = 1 << 22 };

typedef struct {
    Py_ssize_t n_cells, m, n, ranks;
    const int64_t *f[CELL_FIELDS];
    const double *x, *z;
} Cells;

/* Per call: the cells' systems and documents in x order and in z order, and z's ranks in x
 * order; Pearson's weighted cells of one resample; per lane pass the weight of each system and
 * document in every lane, and Spearman's rank offsets per cell or Kendall's tree and weight per
 * z rank, `lanes` entries each. */
typedef struct {
    int64_t *x_row, *x_col, *x_rank, *z_row, *z_col, *kept_w, *kept_cell;
    double *kept_weight, *kept_x, *kept_z;
    Py_ssize_t lanes;
    int32_t *lane_a, *lane_b, *lane_more;
} Work;

static inline double clipped(double r) { return r > 1.0 ? 1.0 : (r < -1.0 ? -1.0 : r); }

static double pearson(const Cells *c, Work *k, const int64_t *a, const int64_t *b)
{
    /* The weighted cells, in cell order; branch-free: every cell is written, and the next one
     * overwrites it where its weight is 0. */
    Py_ssize_t kept = 0;
    for (Py_ssize_t i = 0; i < c->n_cells; i++) {
        int64_t w = a[c->f[ROW][i]] * b[c->f[COL][i]];
        k->kept_w[kept] = w, k->kept_cell[kept] = i;
        kept += w != 0;
    }
    int64_t total = 0;
    double x_low = INFINITY, x_high = -INFINITY, z_low = INFINITY, z_high = -INFINITY;
    for (Py_ssize_t i = 0; i < kept; i++) {
        double x = c->x[k->kept_cell[i]], z = c->z[k->kept_cell[i]]; /* never NaN */
        total += k->kept_w[i];
        k->kept_weight[i] = (double)k->kept_w[i];
        x_low = x < x_low ? x : x_low, x_high = x > x_high ? x : x_high;
        z_low = z < z_low ? z : z_low, z_high = z > z_high ? z : z_high;
        k->kept_x[i] = x, k->kept_z[i] = z;
    }
    double x_span = x_high - x_low, z_span = z_high - z_low;
    if (total < 2 || x_span == 0 || z_span == 0)
        return NAN;
    /* Each sample mapped onto [0, 1] (a tiny difference's square does not underflow). */
    double sx = 0.0, sz = 0.0;
    for (Py_ssize_t i = 0; i < kept; i++) {
        k->kept_x[i] = (k->kept_x[i] - x_low) / x_span;
        k->kept_z[i] = (k->kept_z[i] - z_low) / z_span;
        sx += k->kept_weight[i] * k->kept_x[i];
        sz += k->kept_weight[i] * k->kept_z[i];
    }
    double x_mean = sx / (double)total, z_mean = sz / (double)total;
    double sxz = 0.0, sxx = 0.0, szz = 0.0;
    for (Py_ssize_t i = 0; i < kept; i++) {
        double w = k->kept_weight[i], dx = k->kept_x[i] - x_mean, dz = k->kept_z[i] - z_mean;
        sxz += w * dx * dz;
        sxx += w * dx * dx;
        szz += w * dz * dz;
    }
    return clipped(sxz / sqrt(sxx) / sqrt(szz));
}

/* Each system's and document's weight in each of `lanes` resamples (rows a, lanes x m; columns
 * b, lanes x n), k->lanes apart; 0 in the lanes not used. */
static void lane_weights(const Cells *c, Work *k, const int64_t *a, const int64_t *b,
                         Py_ssize_t lanes)
{
    const Py_ssize_t L = k->lanes;
    memset(k->lane_a, 0, (size_t)(c->m * L) * sizeof(int32_t));
    memset(k->lane_b, 0, (size_t)(c->n * L) * sizeof(int32_t));
    for (Py_ssize_t l = 0; l < lanes; l++) {
        for (Py_ssize_t i = 0; i < c->m; i++)
            k->lane_a[i * L + l] = (int32_t)a[l * c->m + i];
        for (Py_ssize_t j = 0; j < c->n; j++)
            k->lane_b[j * L + l] = (int32_t)b[l * c->n + j];
    }
}

/* The weight of the cell of system `row` and document `col` in every lane, into w. */
static inline void cell_weights(const Work *k, int64_t row, int64_t col, int32_t *w)
{
    const Py_ssize_t L = k->lanes;
    const int32_t *ra = k->lane_a + row * L, *cb = k->lane_b + col * L;
    for (Py_ssize_t l = 0; l < L; l++)
        w[l] = ra[l] * cb[l];
}

/* The end of the tie group that starts at sorted position i. */
static inline Py_ssize_t group_end(const Cells *c, const int64_t *start, Py_ssize_t i)
{
    Py_ssize_t end = i + 1;
    while (end < c->n_cells && !start[end])
        end++;
    return end;
}

/* rho of `lanes` resamples (after lane_weights) into out. */
static void spearman(const Cells *c, Work *k, Py_ssize_t lanes, double *out)
{
    const Py_ssize_t L = k->lanes;
    int32_t *offsets = k->lane_more; /* per cell and lane: 2 * below + group, in x order */
    int32_t below[LANES] = {0}, group[LANES], w[LANES];
    const int64_t *x_order = c->f[X_ORDER], *z_order = c->f[Z_ORDER];
    for (Py_ssize_t i = 0; i < c->n_cells;) {
        Py_ssize_t end = group_end(c, c->f[X_START], i);
        memset(group, 0, sizeof group);
        for (Py_ssize_t s = i; s < end; s++) {
            cell_weights(k, k->x_row[s], k->x_col[s], w);
            for (Py_ssize_t l = 0; l < L; l++)
                group[l] += w[l];
        }
        for (Py_ssize_t s = i; s < end; s++) {
            int32_t *u = offsets + x_order[s] * L;
            for (Py_ssize_t l = 0; l < L; l++)
                u[l] = 2 * below[l] + group[l];
        }
        for (Py_ssize_t l = 0; l < L; l++)
            below[l] += group[l];
        i = end;
    }
    int32_t total[LANES], z_below[LANES] = {0};
    memcpy(total, below, sizeof total);
    int64_t suv[LANES] = {0}, suu[LANES] = {0}, svv[LANES] = {0};
    for (Py_ssize_t i = 0; i < c->n_cells;) {
        Py_ssize_t end = group_end(c, c->f[Z_START], i);
        memset(group, 0, sizeof group);
        for (Py_ssize_t s = i; s < end; s++) {
            cell_weights(k, k->z_row[s], k->z_col[s], w);
            for (Py_ssize_t l = 0; l < L; l++)
                group[l] += w[l];
        }
        for (Py_ssize_t s = i; s < end; s++) {
            const int32_t *u = offsets + z_order[s] * L;
            cell_weights(k, k->z_row[s], k->z_col[s], w);
            for (Py_ssize_t l = 0; l < L; l++) {
                int64_t du = u[l] - total[l], dv = 2 * z_below[l] + group[l] - total[l];
                suv[l] += w[l] * du * dv;
                suu[l] += w[l] * du * du;
                svv[l] += w[l] * dv * dv;
            }
        }
        for (Py_ssize_t l = 0; l < L; l++)
            z_below[l] += group[l];
        i = end;
    }
    for (Py_ssize_t l = 0; l < lanes; l++)
        out[l] = total[l] < 2 || suu[l] == 0 || svv[l] == 0
                     ? NAN
                     : clipped((double)suv[l] / sqrt((double)suu[l]) / sqrt((double)svv[l]));
}

typedef struct {
    int64_t inserted, balance, x_squares, z_squares, x_groups, z_groups;
} Counts;

static double tau(const Counts *t, int tau_c)
{
    if (t->inserted < 2 || t->x_groups < 2 || t->z_groups < 2)
        return NAN;
    double count = (double)t->inserted;
    if (tau_c) {
        double classes = (double)(t->x_groups < t->z_groups ? t->x_groups : t->z_groups);
        return 2 * (double)t->balance / (count * count * (classes - 1) / classes);
    }
    double pairs = count * (count - 1) / 2;
    double x_tied = (double)((t->x_squares - t->inserted) / 2);
    double z_tied = (double)((t->z_squares - t->inserted) / 2);
    return (double)t->balance / sqrt(pairs - x_tied) / sqrt(pairs - z_tied);
}

/* tau-b (tau-c) of `lanes` resamples (after lane_weights) into out. */
static void kendall(const Cells *c, Work *k, Py_ssize_t lanes, int tau_c, double *out)
{
    const Py_ssize_t L = k->lanes;
    int32_t *tree = k->lane_more, *at = tree + (c->ranks + 1) * L; /* Fenwick tree, 1-based */
    memset(tree, 0, (size_t)((2 * c->ranks + 1) * L) * sizeof(int32_t));
    int32_t inserted[LANES] = {0}, group[LANES], w[LANES], lower[LANES];
    int64_t balance[LANES] = {0}, x_squares[LANES] = {0}, z_squares[LANES] = {0};
    int64_t x_groups[LANES] = {0}, z_groups[LANES] = {0};
    for (Py_ssize_t i = 0; i < c->n_cells;) {
        Py_ssize_t end = group_end(c, c->f[X_START], i);
        /* The group's pairs with the cells of lower x, before any of the group is inserted. */
        memset(group, 0, sizeof group);
        for (Py_ssize_t s = i; s < end; s++) {
            Py_ssize_t r = (Py_ssize_t)k->x_rank[s];
            const int32_t *at_r = at + r * L;
            const int32_t *ra = k->lane_a + k->x_row[s] * L, *cb = k->lane_b + k->x_col[s] * L;
            memset(lower, 0, sizeof lower); /* the weight inserted at ranks below r */
            for (Py_ssize_t t = r; t > 0; t -= t & -t)
                for (Py_ssize_t l = 0; l < L; l++)
                    lower[l] += tree[t * L + l];
            for (Py_ssize_t l = 0; l < L; l++) {
                int32_t weight = ra[l] * cb[l];
                balance[l] += (int64_t)weight * (2 * lower[l] + at_r[l] - inserted[l]);
                group[l] += weight;
            }
        }
        for (Py_ssize_t s = i; s < end; s++) {
            Py_ssize_t r = (Py_ssize_t)k->x_rank[s];
            int32_t *at_r = at + r * L;
            cell_weights(k, k->x_row[s], k->x_col[s], w);
            for (Py_ssize_t t = r + 1; t <= c->ranks; t += t & -t)
                for (Py_ssize_t l = 0; l < L; l++)
                    tree[t * L + l] += w[l];
            for (Py_ssize_t l = 0; l < L; l++) {
                z_groups[l] += (at_r[l] == 0) & (w[l] != 0);
                z_squares[l] += (int64_t)(2 * at_r[l] + w[l]) * w[l];
                at_r[l] += w[l];
            }
        }
        for (Py_ssize_t l = 0; l < L; l++) {
            inserted[l] += group[l];
            x_squares[l] += (int64_t)group[l] * group[l];
            x_groups[l] += group[l] != 0;
        }
        i = end;
    }
    for (Py_ssize_t l = 0; l < lanes; l++) {
        Counts t = {inserted[l], balance[l], x_squares[l], z_squares[l], x_groups[l], z_groups[l]};
        out[l] = tau(&t, tau_c);
    }
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

/* Checks that the weights are whole numbers >= 0 and each resample holds fewer than EXACT_LIMIT
 * elements, so that no product or sum overflows. */
static int weights_valid(const int64_t *a, const int64_t *b, Py_ssize_t m, Py_ssize_t n,
                         Py_ssize_t n_resamples)
{
    for (Py_ssize_t s = 0; s < n_resamples; s++) {
        int64_t rows = 0, cols = 0;
        for (Py_ssize_t i = 0; i < m; i++) {
            if (a[s * m + i] < 0 || a[s * m + i] >= EXACT_LIMIT)
                return 0;
            rows += a[s * m + i];
            if (rows >= EXACT_LIMIT)
                return 0;
        }
        for (Py_ssize_t j = 0; j < n; j++) {
            if (b[s * n + j] < 0 || b[s * n + j] >= EXACT_LIMIT)
                return 0;
            cols += b[s * n + j];
            if (cols >= EXACT_LIMIT)
                return 0;
        }
        if (rows * cols >= EXACT_LIMIT)
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
    if (method < PEARSON || method > KENDALL_C || c.m < 1 || c.n < 1 || c.ranks < 0 ||
        c.m > PY_SSIZE_T_MAX / 8 || c.n > PY_SSIZE_T_MAX / 8) {
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
    if (!weights_valid(a.buf, b.buf, c.m, c.n, n_resamples)) {
        PyErr_SetString(PyExc_ValueError,
                        "coefficients: a weight is negative or a resample holds too many elements");
        goto done;
    }
    Py_ssize_t cells_n = c.n_cells ? c.n_cells : 1;
    Work k;
    int64_t **longs[] = {&k.x_row, &k.x_col, &k.x_rank, &k.z_row, &k.z_col, &k.kept_w,
                         &k.kept_cell};
    double **doubles[] = {&k.kept_weight, &k.kept_x, &k.kept_z};
    enum { LONGS = sizeof longs / sizeof *longs, DOUBLES = sizeof doubles / sizeof *doubles };
    /* Per lane: the systems' and documents' weights, then Spearman's offsets (one per cell) or
     * Kendall's tree and weight per rank. */
    Py_ssize_t per_lane = c.m + c.n + (method == SPEARMAN ? cells_n : 2 * c.ranks + 1);
    k.lanes = LANE_BUDGET / per_lane;
    k.lanes = k.lanes < 1 ? 1 : (k.lanes > LANES ? LANES : k.lanes);
    work = malloc((size_t)((LONGS + DOUBLES) * cells_n) * sizeof(int64_t));
    k.lane_a = malloc((size_t)(per_lane * k.lanes) * sizeof(int32_t));
    if (!work || !k.lane_a) {
        free(k.lane_a);
        PyErr_NoMemory();
        goto done;
    }
    k.lane_b = k.lane_a + c.m * k.lanes;
    k.lane_more = k.lane_b + c.n * k.lanes;
    for (int i = 0; i < LONGS; i++)
        *longs[i] = work + i * cells_n;
    for (int i = 0; i < DOUBLES; i++)
        *doubles[i] = (double *)(work + (LONGS + i) * cells_n);
    for (Py_ssize_t s = 0; s < c.n_cells; s++) {
        int64_t x_cell = c.f[X_ORDER][s], z_cell = c.f[Z_ORDER][s];
        k.x_row[s] = c.f[ROW][x_cell], k.x_col[s] = c.f[COL][x_cell];
        k.x_rank[s] = c.f[Z_RANK][x_cell];
        k.z_row[s] = c.f[ROW][z_cell], k.z_col[s] = c.f[COL][z_cell];
    }
    double *r = out.buf;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t s = 0; s < n_resamples;) {
        const int64_t *rows = (const int64_t *)a.buf + s * c.m;
        const int64_t *cols = (const int64_t *)b.buf + s * c.n;
        if (method == PEARSON) {
            r[s] = pearson(&c, &k, rows, cols);
            s++;
            continue;
        }
        Py_ssize_t lanes = n_resamples - s < k.lanes ? n_resamples - s : k.lanes;
        lane_weights(&c, &k, rows, cols, lanes);
        if (method == SPEARMAN)
            spearman(&c, &k, lanes, r + s);
        else
            kendall(&c, &k, lanes, method == KENDALL_C, r + s);
        s += lanes;
    }
    Py_END_ALLOW_THREADS
    free(k.lane_a);
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

PyMODINIT_FUNC PyInit__global_level(void)
{
    PyObject *module = PyModule_Create(&global_level_module);
    if (module && PyModule_AddIntConstant(module, "EXACT_LIMIT", EXACT_LIMIT) < 0)
        Py_CLEAR(module);
    return module;
}
