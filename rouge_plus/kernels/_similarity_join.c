/*
 * rouge_plus.kernels._similarity_join: the candidate pairs of a prefix-filtered join, the inner
 * loop of similarity_join.candidate_pairs (whose NumPy code, _first_visits, is its twin, to the
 * same pairs).
 *
 * The probe elements come in order, each document's elements together and in the global order.
 * Element e of probe document p, with rest[e] elements of p from it on, reads the postings of
 * its element: indexed documents q holding it, with their rests, in groups of one profile of q,
 * sorted by rest within a group. The positional filter of PPJoin admits a pair at a posting when
 * need(p, q) <= min(rest of p, rest of q), need read from a table over the two documents'
 * profiles: a group passes the probe's side whole or not at all, and the posting's side from
 * its last posting back to the last of rest < need; only those postings are read. A pair
 * is admitted once (a record's `seen`: the last probe document that admitted it, so that
 * nothing is cleared between probe documents), then kept when the two documents share at
 * least need(p, q) elements in all, the least overlap at which the pair's score bound reaches
 * the threshold: first by the bound of their buckets (a few words of bits), then exactly (their
 * whole runs of elements merged). What the loop reads at random of an indexed document is one
 * record of its slot, a cache line, in an array of the indexed documents only. Runs without
 * the GIL. */
#include "../_compiled/common.h"

/* What the loop reads at random of an indexed document, in one cache line: the last probe
 * document that admitted it (-1 at first), the document, and its buckets. */
enum { MOST_WORDS = 5 };
typedef struct {
    int64_t seen, doc;
    double excess;
    uint64_t present[MOST_WORDS];
} Record;

typedef struct {
    const int64_t *keys, *starts; /* every document's elements, each run sorted */
    const int64_t *probe_doc, *probe_key, *probe_rest, *probe_floor; /* floor: the first slot */
    /* Element k's groups are groups[k] .. groups[k + 1] - 1; group g's postings (sorted by rest)
     * group_starts[g] .. group_starts[g + 1] - 1, of documents of profile group_profile[g]. */
    const int64_t *groups, *group_starts, *group_profile;
    const int64_t *posting_slot, *posting_rest;
    Record *records; /* per indexed document (slot) */
    /* Per document: its row of the need table, its buckets. */
    const int64_t *probe_profile;
    const double *need;
    /* Per row of need: the row sorted, and the least and greatest column among its first k. */
    const double *sorted_need;
    const int64_t *least_column, *greatest_column;
    const uint64_t *present; /* `words` words of bits: the buckets it fills */
    const double *excess;    /* its tokens in a bucket already filled */
    int64_t *out_p, *out_q;
    Py_ssize_t n_keys, n_elements, n_posting_keys, n_groups, n_postings, n_docs, n_indexed, rows,
        columns, words, capacity;
} Join;

/* The 1 bits of x: the instruction where the build targets it, else a few shifts and adds (which
 * beat the library call that popcount64 becomes without it). */
static inline int64_t bit_count(uint64_t x)
{
    return POPCOUNT_INSTRUCTION ? popcount64(x) : popcount64_plain(x);
}

/* At least the overlap of probe document p and indexed document `slot`, from their buckets
 * (all_pairs._Bounds). */
static double hashed_overlap(const Join *j, int64_t p, int64_t slot)
{
    const uint64_t *a = j->present + p * j->words, *b = j->records[slot].present;
    int64_t bits = 0;
    for (Py_ssize_t w = 0; w < j->words; w++)
        bits += bit_count(a[w] & b[w]);
    double ea = j->excess[p], eb = j->records[slot].excess;
    return (double)bits + (ea < eb ? ea : eb);
}

/* Whether documents p and q share at least `need` elements (a merge of their sorted runs that
 * stops as soon as the answer is known); -1 when their runs are out of range. */
static int shares_at_least(const Join *j, int64_t p, int64_t q, double need)
{
    int64_t a = j->starts[p], a_end = j->starts[p + 1], b = j->starts[q], b_end = j->starts[q + 1];
    if (a < 0 || a > a_end || a_end > j->n_keys || b < 0 || b > b_end || b_end > j->n_keys)
        return -1;
    int64_t least = (int64_t)need, shared = 0;
    least += (double)least < need;
    /* Invariant: each side has at least least - shared elements left, so neither runs out while
     * shared < least; a step that breaks it ends the merge. A match keeps it (both sides lose
     * one element, shared gains one). */
    if (a_end - a < least || b_end - b < least)
        return 0;
    const int64_t *keys = j->keys;
    while (shared < least) {
        if (keys[a] == keys[b]) {
            shared++;
            a++;
            b++;
        } else if (keys[a] < keys[b]) {
            if (shared + (a_end - ++a) < least)
                return 0;
        } else if (shared + (b_end - ++b) < least) {
            return 0;
        }
    }
    return 1;
}

/* Admit the pair of probe document p and indexed document `slot` unless already admitted, and
 * keep it if the documents share at least `need` elements: 1 when kept, 0 when not, -1 when an
 * index is out of range. */
static int admit(const Join *j, int64_t p, int64_t slot, double need)
{
    if (slot < 0 || slot >= j->n_indexed)
        return -1;
    Record *record = &j->records[slot];
    if (record->seen == p)
        return 0;
    record->seen = p;
    const int64_t q = record->doc;
    if (q < 0 || q >= j->n_docs)
        return -1;
    if (hashed_overlap(j, p, slot) < need)
        return 0;
    return shares_at_least(j, p, q, need);
}

/* The pairs written, or -1 when an index is out of range. */
static Py_ssize_t first_visits_of(const Join *j)
{
    Py_ssize_t n = 0;
    for (Py_ssize_t e = 0; e < j->n_elements; e++) {
        const int64_t p = j->probe_doc[e], key = j->probe_key[e], rest = j->probe_rest[e];
        const int64_t floor = j->probe_floor[e];
        if (p < 0 || p >= j->n_docs || key < 0 || key >= j->n_posting_keys)
            return -1;
        const int64_t row = j->probe_profile[p];
        const int64_t g_first = j->groups[key], g_last = j->groups[key + 1];
        if (row < 0 || row >= j->rows || g_first < 0 || g_first > g_last || g_last > j->n_groups)
            return -1;
        const double *need = j->need + row * j->columns;
        /* The columns whose need is <= rest lie between least and greatest (groups are sorted
         * by column): a binary search for the first group of the range. */
        const double *sorted = j->sorted_need + row * j->columns;
        Py_ssize_t below = 0, above = j->columns;
        while (below < above) {
            Py_ssize_t middle = below + (above - below) / 2;
            if (sorted[middle] <= (double)rest)
                below = middle + 1;
            else
                above = middle;
        }
        if (below == 0)
            continue;
        const int64_t least = j->least_column[row * j->columns + below - 1];
        const int64_t greatest = j->greatest_column[row * j->columns + below - 1];
        int64_t low = g_first, high = g_last;
        while (low < high) {
            int64_t middle = low + (high - low) / 2;
            if (j->group_profile[middle] < least)
                low = middle + 1;
            else
                high = middle;
        }
        for (int64_t g = low; g < g_last && j->group_profile[g] <= greatest; g++) {
            const int64_t column = j->group_profile[g];
            int64_t first = j->group_starts[g], last = j->group_starts[g + 1];
            if (column < 0 || column >= j->columns || first < 0 || first > last ||
                last > j->n_postings)
                return -1;
            /* The positional filter: need <= the probe's rest, and <= the posting's (the group's
             * tail, read from its end, as every posting read then passes). */
            if (need[column] > (double)rest)
                continue;
            for (int64_t k = last - 1; k >= first && (double)j->posting_rest[k] >= need[column];
                 k--) {
                if (j->posting_slot[k] < floor)
                    continue;
                int kept = admit(j, p, j->posting_slot[k], need[column]);
                if (kept < 0 || (kept && n == j->capacity))
                    return -1;
                if (kept) {
                    j->out_p[n] = p;
                    j->out_q[n] = j->records[j->posting_slot[k]].doc;
                    n++;
                }
            }
        }
    }
    return n;
}

PyDoc_STRVAR(first_visits_doc,
             "first_visits(keys, starts, probe_doc, probe_key, probe_rest, probe_floor, groups,\n"
             "             group_starts, group_profile, posting_slot, posting_rest, records,\n"
             "             probe_profile, need, columns, sorted_need, least_column,\n"
             "             greatest_column, present, excess, out_p, out_q) -> n\n\n"
             "Writes the admitted pairs to out_p[:n], out_q[:n] and returns n. Every buffer is\n"
             "C-contiguous and int64 but need, sorted_need and excess, float64 (need: profiles x\n"
             "columns, row-major), and present, uint64 (documents x words, at most 5 words);\n"
             "records holds 8 int64 per indexed document: the last probe document that admitted\n"
             "it (-1 at first; updated in place), the document, its excess (float64) and its\n"
             "present words. A probe element pairs only with the slots from its floor on.");

static PyObject *first_visits(PyObject *Py_UNUSED(module), PyObject *args)
{
    enum { KEYS, STARTS, PROBE_DOC, PROBE_KEY, PROBE_REST, PROBE_FLOOR, GROUPS, GROUP_STARTS,
           GROUP_PROFILE, POSTING_SLOT, POSTING_REST, RECORDS, PROBE_PROFILE, NEED, SORTED_NEED,
           LEAST_COLUMN, GREATEST_COLUMN, PRESENT, EXCESS, OUT_P, OUT_Q, VIEWS };
    static const char *names[VIEWS] = {
        "keys",          "starts",       "probe_doc",       "probe_key",    "probe_rest",
        "probe_floor",
        "groups",        "group_starts", "group_profile",   "posting_slot", "posting_rest",
        "records",       "probe_profile", "need",           "sorted_need",  "least_column",
        "greatest_column", "present",    "excess",          "out_p",        "out_q"};
    PyObject *objects[VIEWS];
    Py_ssize_t columns;
    if (!PyArg_ParseTuple(args, "OOOOOOOOOOOOOOnOOOOOOO", &objects[KEYS], &objects[STARTS],
                          &objects[PROBE_DOC], &objects[PROBE_KEY], &objects[PROBE_REST],
                          &objects[PROBE_FLOOR],
                          &objects[GROUPS], &objects[GROUP_STARTS], &objects[GROUP_PROFILE],
                          &objects[POSTING_SLOT], &objects[POSTING_REST], &objects[RECORDS],
                          &objects[PROBE_PROFILE], &objects[NEED], &columns,
                          &objects[SORTED_NEED], &objects[LEAST_COLUMN], &objects[GREATEST_COLUMN],
                          &objects[PRESENT], &objects[EXCESS], &objects[OUT_P],
                          &objects[OUT_Q]))
        return NULL;
    Py_buffer views[VIEWS] = {{0}};
    PyObject *result = NULL;
    int v = 0;
    for (; v < VIEWS; v++)
        if (get_buffer(objects[v], &views[v], 8, names[v]) < 0)
            goto done;
    Py_ssize_t n_elements = views[PROBE_DOC].len / 8, n_postings = views[POSTING_SLOT].len / 8;
    Py_ssize_t n_docs = views[STARTS].len / 8 - 1;
    Py_ssize_t n_indexed = views[RECORDS].len / (Py_ssize_t)sizeof(Record);
    Py_ssize_t n_need = views[NEED].len / 8, n_posting_keys = views[GROUPS].len / 8 - 1;
    Py_ssize_t n_groups = views[GROUP_STARTS].len / 8 - 1;
    Py_ssize_t capacity = views[OUT_P].len / 8;
    Py_ssize_t words = n_docs > 0 ? views[PRESENT].len / 8 / n_docs : 0;
    int consistent = columns >= 1 && n_need % columns == 0 && n_posting_keys >= 0 && n_docs >= 0 &&
                     n_groups >= 0 && views[GROUP_PROFILE].len / 8 == n_groups &&
                     views[SORTED_NEED].len == views[NEED].len &&
                     views[LEAST_COLUMN].len == views[NEED].len &&
                     views[GREATEST_COLUMN].len == views[NEED].len &&
                     views[PRESENT].len / 8 == n_docs * words && views[EXCESS].len / 8 == n_docs &&
                     views[PROBE_PROFILE].len / 8 == n_docs &&
                     words <= MOST_WORDS &&
                     views[RECORDS].len == n_indexed * (Py_ssize_t)sizeof(Record) &&
                     views[POSTING_REST].len / 8 == n_postings &&
                     views[OUT_Q].len / 8 == capacity &&
                     !views[RECORDS].readonly && !views[OUT_P].readonly && !views[OUT_Q].readonly;
    for (int k = PROBE_KEY; k <= PROBE_FLOOR; k++)
        consistent = consistent && views[k].len / 8 == n_elements;
    if (!consistent) {
        PyErr_SetString(PyExc_ValueError, "first_visits: buffers of inconsistent sizes");
        goto done;
    }
    Join join = {
        .keys = views[KEYS].buf,
        .starts = views[STARTS].buf,
        .probe_doc = views[PROBE_DOC].buf,
        .probe_key = views[PROBE_KEY].buf,
        .probe_rest = views[PROBE_REST].buf,
        .probe_floor = views[PROBE_FLOOR].buf,
        .groups = views[GROUPS].buf,
        .group_starts = views[GROUP_STARTS].buf,
        .group_profile = views[GROUP_PROFILE].buf,
        .posting_slot = views[POSTING_SLOT].buf,
        .posting_rest = views[POSTING_REST].buf,
        .records = views[RECORDS].buf,
        .probe_profile = views[PROBE_PROFILE].buf,
        .need = views[NEED].buf,
        .sorted_need = views[SORTED_NEED].buf,
        .least_column = views[LEAST_COLUMN].buf,
        .greatest_column = views[GREATEST_COLUMN].buf,
        .present = views[PRESENT].buf,
        .excess = views[EXCESS].buf,
        .out_p = views[OUT_P].buf,
        .out_q = views[OUT_Q].buf,
        .n_keys = views[KEYS].len / 8,
        .n_elements = n_elements,
        .n_posting_keys = n_posting_keys,
        .n_groups = n_groups,
        .n_postings = n_postings,
        .n_docs = n_docs,
        .n_indexed = n_indexed,
        .rows = n_need / columns,
        .columns = columns,
        .words = words,
        .capacity = capacity,
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
