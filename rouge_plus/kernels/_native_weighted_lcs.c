/*
 * rouge_plus.kernels._native, the ROUGE-W kernel: ROUGE-1.5.5's weighted LCS, as
 * kernels/weighted_lcs.py computes it, with the same floating-point operations in the same
 * order.
 */
#include "_native.h"

#include <math.h>

/*
 * One row of 1.5.5's weighted-LCS programme: row i (ref token `token`) from row i - 1, on columns
 * 0 .. width - 1, with the same floating-point operations in the same order as _mark_lcs of
 * kernels/weighted_lcs.py (the comparisons then break ties identically). A cell's move is
 * diagonal exactly when its tokens match; otherwise bit j of `up` says up (1) or left (0).
 */
static inline void weighted_lcs_row(const double *powers, int32_t token, const int32_t *pred,
                                    int64_t width, const double *score_above,
                                    const int64_t *run_above, double *score, int64_t *run,
                                    uint64_t *up)
{
    score[0] = 0.0;
    run[0] = 0;
    uint64_t bits = 0;
    for (int64_t j = 1; j < width; j++) {
        if (pred[j - 1] == token) {
            int64_t k = run_above[j - 1];
            score[j] = score_above[j - 1] + powers[k + 1] - powers[k];
            run[j] = k + 1;
        } else if (score_above[j] >= score[j - 1]) {
            score[j] = score_above[j];
            run[j] = 0;
            bits |= 1ULL << (j % 64);
        } else {
            score[j] = score[j - 1];
            run[j] = 0;
        }
        if (j % 64 == 63) {
            up[j / 64] = bits;
            bits = 0;
        }
    }
    if ((width - 1) % 64 != 63)
        up[(width - 1) / 64] = bits;
}

/*
 * Mark the ref positions on 1.5.5's weighted-LCS traceback of ref vs pred (a match always goes
 * diagonally; otherwise up when the upper cell is >= the left one). The traceback needs one bit
 * per cell. When the m rows of bits fit in the workspace's budget they are all kept, from one
 * pass; otherwise the scores and runs of every block-th row are kept on a first pass, and the
 * walk recomputes the bits of one block of rows at a time from the row before it, only as far
 * right as it can still go (at most twice the time; memory for about 2 * sqrt(128 m) rows of
 * bits). powers[k] = k**weight.
 */
static int mark_weighted_lcs(Workspace *w, const double *powers, const int32_t *ref, int64_t m,
                             const int32_t *pred, int64_t n, Union *marks)
{
    const int64_t width = n + 1, row_words = width / 64 + 1;
    const size_t state_bytes = (size_t)width * (sizeof(double) + sizeof(int64_t));
    int64_t block = m;
    if ((double)m * (double)row_words * sizeof(uint64_t) > (double)w->table_budget) {
        block = 1; /* kept rows cost 128 times a row of bits: blocks of about sqrt(128 m) */
        while (block * block < 128 * m && block < m)
            block++;
    }
    const int64_t n_blocks = (m + block - 1) / block, last_start = (n_blocks - 1) * block;
    /* Two working rows, the kept rows (the one before each block but the first) and the bits. */
    size_t bytes = (size_t)(2 + n_blocks - 1) * state_bytes + (size_t)(block * row_words) * 8;
    char *area = buffer_scratch(&w->scratch_a, bytes);
    if (!area)
        return -1;
    double *score_above = (double *)area, *score = score_above + width;
    int64_t *run_above = (int64_t *)(score + width), *run = run_above + width;
    char *kept = (char *)(run + width); /* row b * block for b = 1 .. n_blocks - 1 */
    uint64_t *up = (uint64_t *)(kept + (size_t)(n_blocks - 1) * state_bytes);
    memset(score_above, 0, (size_t)width * sizeof(double));
    memset(run_above, 0, (size_t)width * sizeof(int64_t));
    /* First pass: every row, keeping the rows that start blocks and the last block's bits. */
    char *keep = kept;
    for (int64_t i = 0, next_kept = block; i < m; i++) {
        uint64_t *row_up = up + (i >= last_start ? (i - last_start) * row_words : 0);
        weighted_lcs_row(powers, ref[i], pred, width, score_above, run_above, score, run, row_up);
        double *swap_score = score_above;
        score_above = score, score = swap_score;
        int64_t *swap_run = run_above;
        run_above = run, run = swap_run;
        if (i + 1 == next_kept && next_kept < m) { /* row next_kept starts a block */
            memcpy(keep, score_above, (size_t)width * sizeof(double));
            memcpy(keep + (size_t)width * sizeof(double), run_above,
                   (size_t)width * sizeof(int64_t));
            keep += state_bytes;
            next_kept += block;
        }
    }
    int64_t i = m, j = n;
    for (int64_t b = n_blocks - 1; b >= 0 && i > 0 && j > 0; b--) {
        const int64_t start = b * block;
        if (b < n_blocks - 1) { /* recompute rows start + 1 .. i on columns 0 .. j */
            if (b == 0) {
                memset(score_above, 0, (size_t)(j + 1) * sizeof(double));
                memset(run_above, 0, (size_t)(j + 1) * sizeof(int64_t));
            } else {
                const char *row = kept + (size_t)(b - 1) * state_bytes;
                memcpy(score_above, row, (size_t)(j + 1) * sizeof(double));
                memcpy(run_above, row + (size_t)width * sizeof(double),
                       (size_t)(j + 1) * sizeof(int64_t));
            }
            for (int64_t r = start; r < i; r++) {
                weighted_lcs_row(powers, ref[r], pred, j + 1, score_above, run_above, score, run,
                                 up + (r - start) * row_words);
                double *swap_score = score_above;
                score_above = score, score = swap_score;
                int64_t *swap_run = run_above;
                run_above = run, run = swap_run;
            }
        }
        while (i > start && j > 0) {
            if (ref[i - 1] == pred[j - 1])
                union_mark(marks, --i), j--;
            else if ((up[(i - 1 - start) * row_words + j / 64] >> (j % 64)) & 1)
                i--;
            else
                j--;
        }
    }
    return 0;
}

/* The longest sentence of a document. */
static int64_t longest_sentence(const Corpus *c, int64_t doc)
{
    int64_t longest = 0;
    for (int64_t s = c->documents[doc]; s < c->documents[doc + 1]; s++)
        if (c->sentences[s + 1] - c->sentences[s] > longest)
            longest = c->sentences[s + 1] - c->sentences[s];
    return longest;
}

/* k**weight for k = 0 .. top, with libm's pow as Python's float ** float uses it. */
static double *weight_powers(Workspace *w, int64_t top, double weight)
{
    double *powers = buffer_scratch(&w->scratch_d, (size_t)(top + 1) * sizeof(double));
    if (powers)
        for (int64_t k = 0; k <= top; k++)
            powers[k] = pow((double)k, weight);
    return powers;
}

/* ROUGE-W's walker for union_of_paths: the weighted-LCS traceback. */
typedef struct {
    PathWalker base;
    const double *powers;
} WeightedWalker;

static int weighted_walker_walk(PathWalker *self, Workspace *w, const int32_t *ref, int64_t m,
                                const int32_t *pred, int64_t n, Union *u)
{
    return mark_weighted_lcs(w, ((WeightedWalker *)self)->powers, ref, m, pred, n, u);
}

/*
 * ROUGE-W as kernels/weighted_lcs.py's counts computes it: hit = sum of f(run) over the clipped
 * runs of each ref sentence's union of weighted-LCS tracebacks; pred_base = f(n); ref_base =
 * f(sum over ref sentences of f(|r|)), f(k) = k**weight.
 */
int weighted_lcs_counts(Workspace *w, const Pair *p, double weight, double *hit,
                        double *pred_base, double *ref_base)
{
    const Corpus *c = &p->texts;
    int64_t n_pred; /* for pred_base */
    document_tokens(c, PRED_DOC, &n_pred);
    int64_t longest = longest_sentence(c, PRED_DOC);
    if (longest_sentence(c, REF_DOC) > longest)
        longest = longest_sentence(c, REF_DOC);
    const double *powers = weight_powers(w, longest + 1, weight);
    if (!powers)
        return -1;
    WeightedWalker walker = {{NULL, weighted_walker_walk, NULL}, powers};
    const unsigned char *all_marks;
    if (union_of_paths(w, p, &walker.base, &all_marks) < 0)
        return -1;
    load_unigram_counts(w, p);
    const int64_t r_base = c->sentences[c->documents[REF_DOC]];
    double total = 0.0, ref_weight = 0.0;
    for (int64_t rs = c->documents[REF_DOC]; rs < c->documents[REF_DOC + 1]; rs++) {
        const int32_t *ref = c->ids + c->sentences[rs];
        int64_t m = c->sentences[rs + 1] - c->sentences[rs];
        const unsigned char *marks = all_marks + (c->sentences[rs] - r_base);
        ref_weight += pow((double)m, weight);
        int64_t run = 0;
        for (int64_t j = 0; j < m; j++) {
            if (!marks[j] || !take_unigram(w, ref[j]))
                continue; /* a clipped marked token neither scores nor closes the run */
            run++;
            if (j + 1 == m || !marks[j + 1]) {
                total += pow((double)run, weight);
                run = 0;
            }
        }
    }
    *hit = total;
    *pred_base = pow((double)n_pred, weight);
    *ref_base = pow(ref_weight, weight);
    return 0;
}
