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
 * full mask (at most MASK_DENSITY * m words in all); the others keep the ascending list of their
 * positions, and a step over one of them touches only the column's words near those positions
 * (lcs_step_listed). value_b[id] says which: >= 0 the row of a full mask, <= -2 the list
 * -2 - value_b[id] of a listed word.
 */
typedef struct {
    int64_t n_words;
    int by_id;           /* the masks are masks_by_id's rows, not numbered through value_b */
    uint64_t *dense;     /* full masks, n_words words each */
    int64_t *list_start; /* where each listed word's positions start in `positions`, plus an end */
    int64_t *positions;
} Masks;

static int build_masks(Workspace *w, const int32_t *text, int64_t m, int64_t n_words, Masks *out)
{
    if (n_words <= MASK_DENSITY) {
        uint64_t *rows = w->masks_by_id;
        *out = (Masks){n_words, 1, rows, NULL, NULL};
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
    size_t words = (size_t)(dense * n_words) + (size_t)(listed + 1 + listed_positions);
    uint64_t *area = buffer_scratch(&w->scratch_a, words * sizeof(uint64_t));
    if (!area)
        return -1;
    out->n_words = n_words;
    out->by_id = 0;
    out->dense = area;
    out->list_start = (int64_t *)(area + dense * n_words);
    out->positions = out->list_start + listed + 1;
    memset(area, 0, (size_t)(dense * n_words) * sizeof(uint64_t));
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
 * u = column & match, with carries. The low words never depend on the high ones. Returns the
 * column's top: one past its highest zero (0 for a column of ones). */
static inline int64_t lcs_step(uint64_t *column, const uint64_t *match, int64_t n_words)
{
    unsigned carry = 0;
    int64_t highest = -1; /* the highest word holding a zero */
    for (int64_t k = 0; k < n_words; k++) {
        uint64_t v = column[k], u = v & match[k];
        column[k] = add_with_carry(v, u, &carry) | (v & ~u);
        highest = ~column[k] ? k : highest;
    }
    return highest < 0 ? 0 : 64 * highest + 64 - clz64(~column[highest]);
}

/*
 * The step of lcs_step for a word whose mask holds only the ascending positions first .. last,
 * without reading the column's other words. Where u = column & match has bits, the sum clears the
 * lowest of them in each run of ones of the column and carries into the zero that ends the run
 * (out of the n_words words, if none), and the or with column & ~u sets the run's other bits
 * again: each run holding a position changes in those two bits only, and runs do not interact.
 * Runs are ordered as the positions, so the next position counts only past the zero just set.
 * Every bit of the column from top on is one (top is a bound, at most 64 * n_words): a position
 * there starts the run that carries out. Returns such a bound after the step, exact when top was.
 */
static inline int64_t lcs_step_listed(uint64_t *column, const int64_t *first, const int64_t *last,
                                      int64_t n_words, int64_t top)
{
    int64_t set = -1; /* the zero that ended the last run changed, now a one */
    for (const int64_t *p = first; p < last && *p < 64 * n_words; p++) {
        int64_t i = *p, k = i / 64;
        if (i <= set || !((column[k] >> (i % 64)) & 1))
            continue;
        column[k] &= ~(1ULL << (i % 64));
        if (i >= top)
            return i + 1; /* carried out: the later positions are in this run */
        uint64_t zeros = ~column[k] & (~1ULL << (i % 64)); /* the zeros above i in its word */
        const int64_t top_words = (top + 63) / 64;
        while (!zeros && ++k < top_words)
            zeros = ~column[k];
        if (!zeros)
            return i + 1; /* carried out (top was not exact) */
        set = 64 * k + ctz64(zeros);
        column[k] |= 1ULL << (set % 64);
        if (set == top - 1)
            top = i + 1; /* the run ended at the highest zero: i is the highest now */
    }
    return top;
}

/* Advance a column over one token of the other text (a word absent from the masks' text changes
 * nothing), on its first n_words words, and return its top (see lcs_step_listed) from a bound. */
static inline int64_t lcs_advance_top(const Workspace *w, const Masks *masks, uint64_t *column,
                                      int32_t id, int64_t n_words, int64_t top)
{
    if (masks->by_id)
        return lcs_step(column, masks->dense + (int64_t)id * masks->n_words, n_words);
    if (w->stamp[id] != w->current)
        return top;
    int32_t row = w->value_b[id];
    if (row >= 0)
        return lcs_step(column, masks->dense + (int64_t)row * masks->n_words, n_words);
    const int64_t *first = masks->positions + masks->list_start[-2 - row];
    return lcs_step_listed(column, first, masks->positions + masks->list_start[-1 - row], n_words,
                           top);
}

/* lcs_advance_top for a column whose top is not kept. */
static inline void lcs_advance(const Workspace *w, const Masks *masks, uint64_t *column, int32_t id,
                               int64_t n_words)
{
    lcs_advance_top(w, masks, column, id, n_words, 64 * n_words);
}

/* The mask of a word for a text of at most 64 tokens (masks by id), 0 when absent. */
static inline uint64_t short_mask(const Masks *masks, int32_t id) { return masks->dense[id]; }

static inline uint64_t last_word_mask(int64_t m)
{
    return (m % 64) ? ((1ULL << (m % 64)) - 1) : ~0ULL;
}

/* The LCS length of two texts that differ by at most max_d insertions and deletions, by Myers'
 * greedy algorithm (1986) in O((m + n) * D) time for D of them: v[k] is the furthest x reached on
 * diagonal k = x - y with d edits, and the first d that reaches (m, n) gives LCS = (m + n - d) / 2.
 * Diagonals are kept inside the grid (-n <= k <= m) and a move that would leave it is not taken.
 * Returns -1 when more than max_d edits are needed (or on memory failure: the caller then runs
 * the bit-parallel step, which reports it). */
static int64_t lcs_by_few_edits(Workspace *w, const int32_t *a, int64_t m, const int32_t *b,
                                int64_t n, int64_t max_d)
{
    int64_t offset = max_d + 1;
    int64_t *v = buffer_scratch(&w->scratch_b, (size_t)(2 * max_d + 3) * sizeof(int64_t));
    if (!v)
        return -1;
    for (int64_t k = 0; k < 2 * max_d + 3; k++)
        v[k] = -1;
    for (int64_t d = 0; d <= max_d; d++) {
        int64_t lo = d < n ? -d : -n, hi = d < m ? d : m;
        lo += (lo + d) & 1, hi -= (hi + d) & 1;
        for (int64_t k = lo; k <= hi; k += 2) {
            int64_t x = 0;
            if (d > 0) {
                /* Down from diagonal k + 1 (x stays, y + 1), or right from k - 1 (x + 1). */
                int64_t above = v[offset + k + 1], left = v[offset + k - 1];
                int64_t down = (above >= 0 && above - (k + 1) < n) ? above : -1;
                int64_t right = (left >= 0 && left < m) ? left + 1 : -1;
                x = down > right ? down : right;
                if (x < 0) {
                    v[offset + k] = -1;
                    continue;
                }
            }
            int64_t y = x - k;
            while (x < m && y < n && a[x] == b[y])
                x++, y++;
            v[offset + k] = x;
            if (x == m && y == n)
                return (m + n - d) / 2;
        }
    }
    return -1;
}

/* LCS length, in O(m + n) memory and O(m * n / 64) time. A common prefix and suffix are on some
 * longest common subsequence, so they are counted and cut first (as kernels/lcs.py does). Texts
 * that differ by few edits (a text against a near-copy of itself) take Myers' algorithm first,
 * with a budget of edits that keeps it cheaper than the bit-parallel step. */
int lcs_length(Workspace *w, const int32_t *ref, int64_t m, const int32_t *pred, int64_t n,
               int64_t *out)
{
    int64_t same = 0;
    while (same < m && same < n && ref[same] == pred[same])
        same++;
    ref += same, pred += same, m -= same, n -= same;
    while (m > 0 && n > 0 && ref[m - 1] == pred[n - 1])
        m--, n--, same++;
    *out = same;
    if (m == 0 || n == 0)
        return 0;
    /* Masks of the text of length a, steps over the other (length b): about b * (2 + a / 64)
     * + 4 * a operations. Either way round gives the same length. */
    double as_is = (double)n * (2 + (m + 63) / 64) + 4.0 * (double)m;
    double swapped = (double)m * (2 + (n + 63) / 64) + 4.0 * (double)n;
    double bit_parallel = as_is < swapped ? as_is : swapped;
    int64_t few = lcs_by_few_edits(w, ref, m, pred, n, (int64_t)(bit_parallel / (2.0 * (m + n))));
    if (few >= 0) {
        *out += few;
        return 0;
    }
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
        ones = popcount64(column & last_word_mask(m));
    } else {
        uint64_t *column = buffer_scratch(&w->scratch_b, (size_t)n_words * sizeof(uint64_t));
        if (!column) {
            release_masks(&masks, ref, m);
            return -1;
        }
        memset(column, 0xff, (size_t)n_words * sizeof(uint64_t));
        for (int64_t j = 0, top = 0; j < n; j++)
            top = lcs_advance_top(w, &masks, column, pred[j], n_words, top);
        column[n_words - 1] &= last_word_mask(m);
        for (int64_t k = 0; k < n_words; k++)
            ones += popcount64(column[k]);
    }
    release_masks(&masks, ref, m);
    *out += m - ones;
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
 * Mark in the union the ref positions on the LCS path rouge_score's traceback walks: from (m, n), a
 * match goes diagonally; otherwise left when bit i - 1 of column j is 0 (the table grows at row i
 * of column j), else up. It needs column j at each step. When the n + 1 columns fit in the
 * workspace's budget they are all kept; otherwise every block-th column is kept on a first pass,
 * and the walk recomputes the columns of one block at a time from the column before it (twice the
 * time, memory for about 2 * sqrt(n) columns), only as far down as the rows it can still reach.
 */
static int mark_lcs_path(Workspace *w, const Masks *masks, const int32_t *ref, int64_t m,
                         const int32_t *pred, int64_t n, Union *marks)
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
                union_mark(marks, --i), j--;
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
                union_mark(marks, i - 1);
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

/* A keyed hash of a sentence's tokens (collisions cost comparisons, never wrong results). */
static uint64_t sentence_hash(const int32_t *tokens, int64_t n)
{
    uint64_t h = hash_key[2] ^ (uint64_t)n;
    for (int64_t i = 0; i < n; i++)
        h = pair_slot(h ^ (uint32_t)tokens[i], UINT64_MAX) + hash_key[3];
    return h;
}

/* canon[s - first] = the first sentence of [first, last) with the same tokens as sentence s,
 * through a table of `slots` (a power of two above twice the sentences) of int64. */
static void same_sentences(const Corpus *c, int64_t first, int64_t last, int64_t *canon,
                           int64_t *slots, int64_t n_slots)
{
    for (int64_t k = 0; k < n_slots; k++)
        slots[k] = -1;
    for (int64_t s = first; s < last; s++) {
        const int32_t *tokens = c->ids + c->sentences[s];
        const int64_t n = c->sentences[s + 1] - c->sentences[s];
        uint64_t k = sentence_hash(tokens, n) & (uint64_t)(n_slots - 1);
        canon[s - first] = s;
        for (; slots[k] >= 0; k = (k + 1) & (uint64_t)(n_slots - 1)) {
            const int64_t t = slots[k];
            if (c->sentences[t + 1] - c->sentences[t] == n &&
                !memcmp(c->ids + c->sentences[t], tokens, (size_t)n * sizeof *tokens)) {
                canon[s - first] = t;
                break;
            }
        }
        if (canon[s - first] == s)
            slots[k] = s;
    }
}

static int64_t table_slots(int64_t count)
{
    int64_t n_slots = 16;
    while (n_slots < 2 * count)
        n_slots *= 2;
    return n_slots;
}

/*
 * The union of every ref sentence's positions on the paths walker->walk marks against the pred
 * sentences, for paths that mark only matching positions (ROUGE-Lsum's LCS, ROUGE-W's weighted
 * LCS), as kernels/lcs.py's union_of_paths: such a path marks only positions whose word the pred
 * sentence holds, so for each word of the ref sentence with unmarked positions, the distinct pred
 * sentences holding it are walked until the word's positions are all marked; a pred sentence is
 * walked once per ref sentence, equal pred sentences once in all, and equal ref sentences share
 * one union. One-word lines cost O(tokens), not sentences squared. *marks_out: one byte per
 * token of the reference, in the workspace's scratch_c (the walkers must not use it).
 */
int union_of_paths(Workspace *w, const Pair *p, PathWalker *walker,
                   const unsigned char **marks_out)
{
    const Corpus *c = &p->texts;
    const int64_t p_first = c->documents[PRED_DOC], p_last = c->documents[PRED_DOC + 1];
    const int64_t r_first = c->documents[REF_DOC], r_last = c->documents[REF_DOC + 1];
    const int64_t n_ps = p_last - p_first, n_rs = r_last - r_first;
    const int64_t r_base = c->sentences[r_first];
    const int64_t n_ref = c->sentences[r_last] - r_base;
    const int64_t n_pred = c->sentences[p_last] - c->sentences[p_first];
    const int64_t slots_p = table_slots(n_ps), slots_r = table_slots(n_rs);
    /* int64 arrays: pred canon, visited, table; ref canon, table; holders start (n_ids + 1),
     * holders (n_pred); first position and unmarked count per local word (n_ref); then int32
     * local words (n_ref) and the marks (n_ref bytes). */
    const int64_t n_int64 = 2 * n_ps + slots_p + n_rs + slots_r + (int64_t)p->n_ids + 1 + n_pred +
                            2 * n_ref;
    int64_t *area = buffer_scratch(&w->scratch_c, (size_t)n_int64 * sizeof(int64_t) +
                                                      (size_t)n_ref * (sizeof(int32_t) + 1));
    if (!area)
        return -1;
    int64_t *pred_canon = area, *visited = pred_canon + n_ps, *ref_canon = visited + n_ps + slots_p;
    int64_t *start = ref_canon + n_rs + slots_r, *holders = start + p->n_ids + 1;
    int64_t *first_pos = holders + n_pred, *unmarked = first_pos + n_ref;
    int32_t *local = (int32_t *)(unmarked + n_ref);
    unsigned char *all_marks = (unsigned char *)(local + n_ref);
    *marks_out = all_marks;
    same_sentences(c, p_first, p_last, pred_canon, visited + n_ps, slots_p);
    same_sentences(c, r_first, r_last, ref_canon, ref_canon + n_rs, slots_r);
    /* holders of each word: the distinct pred sentences that hold it, each once. */
    memset(start, 0, ((size_t)p->n_ids + 1) * sizeof(int64_t));
    for (int pass = 0; pass < 2; pass++) {
        workspace_next(w);
        for (int64_t ps = p_first; ps < p_last; ps++) {
            if (pred_canon[ps - p_first] != ps)
                continue;
            for (int64_t t = c->sentences[ps]; t < c->sentences[ps + 1]; t++) {
                const int32_t id = c->ids[t];
                int32_t *seen = workspace_slot(w, id, w->value_a, -1);
                if (*seen == (int32_t)(ps - p_first))
                    continue;
                *seen = (int32_t)(ps - p_first);
                if (pass == 0)
                    start[id + 1]++;
                else
                    holders[start[id]++] = ps;
            }
        }
        if (pass == 0)
            for (int32_t id = 0; id < p->n_ids; id++)
                start[id + 1] += start[id];
    }
    memmove(start + 1, start, (size_t)p->n_ids * sizeof(int64_t)); /* pass 1 moved each start */
    start[0] = 0;
    for (int64_t k = 0; k < n_ps; k++)
        visited[k] = -1;
    for (int64_t rs = r_first; rs < r_last; rs++) {
        const int32_t *ref = c->ids + c->sentences[rs];
        const int64_t m = c->sentences[rs + 1] - c->sentences[rs];
        unsigned char *marks = all_marks + (c->sentences[rs] - r_base);
        const int64_t canon = ref_canon[rs - r_first];
        if (m <= 0)
            continue;
        if (canon != rs) {
            memcpy(marks, all_marks + (c->sentences[canon] - r_base), (size_t)m);
            continue;
        }
        int64_t *first_of = first_pos + (c->sentences[rs] - r_base);
        Union u = {marks, local + (c->sentences[rs] - r_base),
                   unmarked + (c->sentences[rs] - r_base)};
        int32_t n_local = 0;
        workspace_next(w);
        for (int64_t i = 0; i < m; i++) {
            int32_t *k = workspace_slot(w, ref[i], w->value_a, -1);
            if (*k < 0) {
                first_of[n_local] = i;
                u.unmarked[n_local] = 0;
                *k = n_local++;
            }
            u.local[i] = *k;
            u.unmarked[*k]++;
        }
        memset(marks, 0, (size_t)m);
        if (walker->begin && walker->begin(walker, w, ref, m) < 0)
            return -1;
        int status = 0;
        for (int32_t k = 0; k < n_local && status == 0; k++) {
            const int32_t id = ref[first_of[k]];
            for (int64_t h = start[id]; h < start[id + 1] && u.unmarked[k] > 0; h++) {
                const int64_t ps = holders[h];
                if (visited[ps - p_first] == rs)
                    continue;
                visited[ps - p_first] = rs;
                const int32_t *pred = c->ids + c->sentences[ps];
                const int64_t n = c->sentences[ps + 1] - c->sentences[ps];
                if (walker->walk(walker, w, ref, m, pred, n, &u) < 0) {
                    status = -1;
                    break;
                }
            }
        }
        if (walker->end)
            walker->end(walker, ref, m);
        if (status < 0)
            return -1;
    }
    return 0;
}

/* ROUGE-Lsum's walker: the LCS traceback, with the ref sentence's masks built once. */
typedef struct {
    PathWalker base;
    Masks masks;
} LcsWalker;

static int lcs_walker_begin(PathWalker *self, Workspace *w, const int32_t *ref, int64_t m)
{
    return build_masks(w, ref, m, (m + 63) / 64, &((LcsWalker *)self)->masks);
}

static int lcs_walker_walk(PathWalker *self, Workspace *w, const int32_t *ref, int64_t m,
                           const int32_t *pred, int64_t n, Union *u)
{
    return mark_lcs_path(w, &((LcsWalker *)self)->masks, ref, m, pred, n, u);
}

static void lcs_walker_end(PathWalker *self, const int32_t *ref, int64_t m)
{
    release_masks(&((LcsWalker *)self)->masks, ref, m);
}

/* Summary-level union LCS hits, clipped by the unigram counts of both texts (ROUGE-Lsum). */
int summary_lcs_hits(Workspace *w, const Pair *p, int64_t *out)
{
    *out = 0;
    LcsWalker walker = {{lcs_walker_begin, lcs_walker_walk, lcs_walker_end}, {0}};
    const unsigned char *marks;
    if (union_of_paths(w, p, &walker.base, &marks) < 0)
        return -1;
    int64_t n_ref;
    const int32_t *ref = document_tokens(&p->texts, REF_DOC, &n_ref);
    load_unigram_counts(w, p);
    int64_t hits = 0;
    for (int64_t i = 0; i < n_ref; i++)
        if (marks[i])
            hits += take_unigram(w, ref[i]);
    *out = hits;
    return 0;
}
