/*
 * rouge_plus.kernels._native, the LCS kernels, as kernels/lcs.py computes them: the
 * bit-parallel LCS length of Allison-Dix/Hyyro (ROUGE-L), and the traceback rouge_score walks,
 * whose union over a summary's sentences, clipped, is ROUGE-Lsum's hit count.
 */
#include "_native.h"

/*
 * Match masks of a text for the bit-parallel LCS: for each of its words, the set of its positions
 * as n_words 64-bit words. For a text of at most MASK_DENSITY words of 64 tokens (most texts and
 * sentences), the masks are rows of the workspace's masks_by_id, indexed by word id (ids are a
 * pair's own, so they are few), which release_masks zeroes again. A full mask per word would
 * otherwise take distinct * n_words words, quadratic in the length of a text of distinct words
 * (3 GB for 160,000 of them), so only words with at least n_words / MASK_DENSITY occurrences get a
 * full mask (at most MASK_DENSITY * m words in all); the others keep the list of their positions
 * and have their mask set in `match`, a zeroed column, for one step (at most n_words /
 * MASK_DENSITY extra writes per step). value_b[id] says which: >= 0 the row of a full mask, <= -2
 * the list -2 - value_b[id] of a listed word.
 */
typedef struct {
    int64_t n_words;
    int by_id;           /* the masks are masks_by_id's rows, not numbered through value_b */
    uint64_t *dense;     /* full masks, n_words words each */
    int64_t *list_start; /* where each listed word's positions start in `positions`, plus an end */
    int64_t *positions;
    uint64_t *match;     /* n_words words, zero between steps */
} Masks;

static int build_masks(Workspace *w, const int32_t *text, int64_t m, int64_t n_words, Masks *out)
{
    if (n_words <= MASK_DENSITY) {
        uint64_t *rows = w->masks_by_id;
        *out = (Masks){n_words, 1, rows, NULL, NULL, NULL};
        for (int64_t i = 0; i < m; i++)
            rows[(int64_t)text[i] * n_words + i / 64] |= 1ULL << (i % 64);
        return 0;
    }
    workspace_next(w);
    for (int64_t i = 0; i < m; i++) /* value_a: occurrences; value_b: -1 until classified */
        (*workspace_slot(w, text[i], w->value_a, -1))++;
    int64_t dense = 0, listed = 0, listed_positions = 0;
    for (int64_t i = 0; i < m; i++) {
        int32_t id = text[i];
        if (w->value_b[id] != -1)
            continue;
        int64_t count = (int64_t)w->value_a[id] + 1; /* value_a started at -1 */
        if (count * MASK_DENSITY >= n_words) {
            w->value_b[id] = (int32_t)dense++;
        } else {
            w->value_b[id] = (int32_t)(-2 - listed++);
            listed_positions += count;
        }
    }
    size_t words = (size_t)(dense * n_words + n_words) + (size_t)(listed + 1 + listed_positions);
    uint64_t *area = buffer_scratch(&w->scratch_a, words * sizeof(uint64_t));
    if (!area)
        return -1;
    out->n_words = n_words;
    out->by_id = 0;
    out->dense = area;
    out->match = area + dense * n_words;
    out->list_start = (int64_t *)(out->match + n_words);
    out->positions = out->list_start + listed + 1;
    memset(area, 0, (size_t)(dense * n_words + n_words) * sizeof(uint64_t));
    int64_t next = 0;
    for (int64_t i = 0; i < m; i++) { /* starts of the lists, in order of first occurrence */
        int32_t id = text[i], row = w->value_b[id];
        if (row <= -2 && w->value_a[id] >= 0) {
            out->list_start[-2 - row] = next;
            next += (int64_t)w->value_a[id] + 1;
            w->value_a[id] = -1; /* now the number of positions listed so far, less one */
        }
    }
    out->list_start[listed] = next;
    for (int64_t i = 0; i < m; i++) {
        int32_t id = text[i], row = w->value_b[id];
        if (row >= 0)
            out->dense[(int64_t)row * n_words + i / 64] |= 1ULL << (i % 64);
        else
            out->positions[out->list_start[-2 - row] + ++w->value_a[id]] = i;
    }
    return 0;
}

/* Zero the rows build_masks set for text (masks by id only: the others live in scratch). */
static void release_masks(const Masks *masks, const int32_t *text, int64_t m)
{
    if (masks->by_id)
        for (int64_t i = 0; i < m; i++)
            masks->dense[(int64_t)text[i] * masks->n_words + i / 64] = 0;
}

/* One Hyyro step on the first n_words words of a column: column = (column + u) | (column & ~u),
 * u = column & match, with carries. The low words never depend on the high ones. */
static inline void lcs_step(uint64_t *column, const uint64_t *match, int64_t n_words)
{
    unsigned carry = 0;
    for (int64_t k = 0; k < n_words; k++) {
        uint64_t v = column[k], u = v & match[k];
        unsigned __int128 sum = (unsigned __int128)v + u + carry;
        carry = (unsigned)(sum >> 64);
        column[k] = (uint64_t)sum | (v & ~u);
    }
}

/* Advance a column over one token of the other text (a word absent from the masks' text changes
 * nothing), on its first n_words words. */
static inline void lcs_advance(const Workspace *w, const Masks *masks, uint64_t *column, int32_t id,
                               int64_t n_words)
{
    if (masks->by_id) {
        lcs_step(column, masks->dense + (int64_t)id * masks->n_words, n_words);
        return;
    }
    if (w->stamp[id] != w->current)
        return;
    int32_t row = w->value_b[id];
    if (row >= 0) {
        lcs_step(column, masks->dense + (int64_t)row * masks->n_words, n_words);
        return;
    }
    const int64_t *first = masks->positions + masks->list_start[-2 - row];
    const int64_t *last = masks->positions + masks->list_start[-1 - row];
    for (const int64_t *p = first; p < last; p++)
        masks->match[*p / 64] |= 1ULL << (*p % 64);
    lcs_step(column, masks->match, n_words);
    for (const int64_t *p = first; p < last; p++)
        masks->match[*p / 64] = 0;
}

/* The mask of a word for a text of at most 64 tokens (masks by id), 0 when absent. */
static inline uint64_t short_mask(const Masks *masks, int32_t id) { return masks->dense[id]; }

static inline uint64_t last_word_mask(int64_t m)
{
    return (m % 64) ? ((1ULL << (m % 64)) - 1) : ~0ULL;
}

/* LCS length, in O(m + n) memory and O(m * n / 64) time. */
int lcs_length(Workspace *w, const int32_t *ref, int64_t m, const int32_t *pred, int64_t n,
               int64_t *out)
{
    *out = 0;
    if (m == 0 || n == 0)
        return 0;
    /* Masks of the text of length a, steps over the other (length b): about b * (2 + a / 64)
     * + 4 * a operations. Either way round gives the same length. */
    double as_is = (double)n * (2 + (m + 63) / 64) + 4.0 * (double)m;
    double swapped = (double)m * (2 + (n + 63) / 64) + 4.0 * (double)n;
    if (swapped < as_is) {
        const int32_t *text = ref;
        ref = pred, pred = text;
        int64_t length = m;
        m = n, n = length;
    }
    int64_t n_words = (m + 63) / 64, ones = 0;
    Masks masks;
    if (build_masks(w, ref, m, n_words, &masks) < 0)
        return -1;
    if (n_words == 1) {
        uint64_t column = ~0ULL;
        for (int64_t j = 0; j < n; j++) {
            uint64_t u = column & short_mask(&masks, pred[j]);
            column = (column + u) | (column & ~u);
        }
        ones = __builtin_popcountll(column & last_word_mask(m));
    } else {
        uint64_t *column = buffer_scratch(&w->scratch_b, (size_t)n_words * sizeof(uint64_t));
        if (!column) {
            release_masks(&masks, ref, m);
            return -1;
        }
        memset(column, 0xff, (size_t)n_words * sizeof(uint64_t));
        for (int64_t j = 0; j < n; j++)
            lcs_advance(w, &masks, column, pred[j], n_words);
        column[n_words - 1] &= last_word_mask(m);
        for (int64_t k = 0; k < n_words; k++)
            ones += __builtin_popcountll(column[k]);
    }
    release_masks(&masks, ref, m);
    *out = m - ones;
    return 0;
}

/* columns[t] = the column after pred[0 .. first + t), t = 1 .. count, from columns[0] (the column
 * after pred[0 .. first)), on the first n_used of n_words words. */
static void fill_columns(const Workspace *w, const Masks *masks, const int32_t *pred, int64_t first,
                         int64_t count, int64_t n_words, int64_t n_used, uint64_t *columns)
{
    if (n_words == 1) { /* a ref sentence of at most 64 tokens (most): one register */
        uint64_t column = columns[0];
        for (int64_t t = 1; t <= count; t++) {
            uint64_t u = column & short_mask(masks, pred[first + t - 1]);
            column = (column + u) | (column & ~u);
            columns[t] = column;
        }
        return;
    }
    for (int64_t t = 1; t <= count; t++) {
        uint64_t *column = columns + t * n_words;
        memcpy(column, column - n_words, (size_t)n_used * sizeof(uint64_t));
        lcs_advance(w, masks, column, pred[first + t - 1], n_used);
    }
}

/*
 * Mark in `marks` the ref positions on the LCS path rouge_score's traceback walks: from (m, n), a
 * match goes diagonally; otherwise left when bit i - 1 of column j is 0 (the table grows at row i
 * of column j), else up. It needs column j at each step. When the n + 1 columns fit in the
 * workspace's budget they are all kept; otherwise every block-th column is kept on a first pass,
 * and the walk recomputes the columns of one block at a time from the column before it (twice the
 * time, memory for about 2 * sqrt(n) columns), only as far down as the rows it can still reach.
 */
static int mark_lcs_path(Workspace *w, const Masks *masks, const int32_t *ref, int64_t m,
                         const int32_t *pred, int64_t n, unsigned char *marks)
{
    const int64_t n_words = masks->n_words;
    const size_t column_bytes = (size_t)n_words * sizeof(uint64_t);
    if (n_words == 1 && (Py_ssize_t)((n + 1) * sizeof(uint64_t)) <= w->table_budget) {
        /* Most sentence pairs: a ref sentence of at most 64 tokens, every column kept. */
        uint64_t *columns = buffer_scratch(&w->scratch_b, (size_t)(n + 1) * sizeof(uint64_t));
        if (!columns)
            return -1;
        columns[0] = ~0ULL;
        fill_columns(w, masks, pred, 0, n, 1, 1, columns);
        for (int64_t i = m, j = n; i > 0 && j > 0;) {
            if (ref[i - 1] == pred[j - 1])
                marks[--i] = 1, j--;
            else if (!((columns[j] >> (i - 1)) & 1))
                j--; /* T grows at row i of column j: go left */
            else
                i--;
        }
        return 0;
    }
    int64_t block = n;
    if ((double)(n + 1) * (double)column_bytes > (double)w->table_budget) {
        block = 1;
        while (block * block < n)
            block++;
    }
    int64_t n_saved = block < n ? n / block + 1 : 0; /* columns 0, block, 2 * block, ... */
    uint64_t *area = buffer_scratch(&w->scratch_b, (size_t)(n_saved + block + 1) * column_bytes);
    if (!area)
        return -1;
    uint64_t *saved = area, *columns = area + n_saved * n_words;
    memset(columns, 0xff, column_bytes);
    if (n_saved) { /* first pass: keep every block-th column */
        memcpy(saved, columns, column_bytes);
        for (int64_t j = 1; j <= n; j++) {
            lcs_advance(w, masks, columns, pred[j - 1], n_words);
            if (j % block == 0)
                memcpy(saved + (j / block) * n_words, columns, column_bytes);
        }
    }
    int64_t i = m, j = n;
    while (i > 0 && j > 0) {
        /* The block of column j: columns start + 1 .. j, from the kept column start. */
        int64_t start = n_saved ? (j - 1) / block * block : 0;
        int64_t n_used = (i + 63) / 64;
        if (n_saved)
            memcpy(columns, saved + (start / block) * n_words, (size_t)n_used * sizeof(uint64_t));
        fill_columns(w, masks, pred, start, j - start, n_words, n_used, columns);
        while (i > 0 && j > start) {
            if (ref[i - 1] == pred[j - 1]) {
                marks[i - 1] = 1;
                i--;
                j--;
            } else if (!((columns[(j - start) * n_words + (i - 1) / 64] >> ((i - 1) % 64)) & 1)) {
                /* T grows at row i of column j, so T[i][j-1] = T[i][j] > T[i-1][j]: go left. */
                j--;
            } else {
                i--;
            }
        }
    }
    return 0;
}

/* Summary-level union LCS hits, clipped by the unigram counts of both texts (ROUGE-Lsum). */
int summary_lcs_hits(Workspace *w, const Pair *p, int64_t *out)
{
    *out = 0;
    const Corpus *c = &p->texts;
    int64_t p_first = c->documents[PRED_DOC], p_last = c->documents[PRED_DOC + 1];
    int64_t r_first = c->documents[REF_DOC], r_last = c->documents[REF_DOC + 1];
    const int32_t *ids = c->ids;
    int64_t hits = 0;
    load_unigram_counts(w, p);
    int status = 0;
    for (int64_t rs = r_first; rs < r_last; rs++) {
        const int32_t *ref = ids + c->sentences[rs];
        int64_t m = c->sentences[rs + 1] - c->sentences[rs];
        if (m == 0)
            continue;
        unsigned char *marks = buffer_scratch(&w->scratch_c, (size_t)m);
        Masks masks;
        if (!marks || build_masks(w, ref, m, (m + 63) / 64, &masks) < 0) {
            status = -1;
            break;
        }
        memset(marks, 0, (size_t)m);
        for (int64_t ps = p_first; ps < p_last; ps++) {
            const int32_t *pred = ids + c->sentences[ps];
            int64_t n = c->sentences[ps + 1] - c->sentences[ps];
            if (n > 0 && mark_lcs_path(w, &masks, ref, m, pred, n, marks) < 0) {
                status = -1;
                break;
            }
        }
        release_masks(&masks, ref, m);
        if (status < 0)
            break;
        for (int64_t i = 0; i < m; i++)
            if (marks[i])
                hits += take_unigram(w, ref[i]);
    }
    *out = hits;
    return status;
}
