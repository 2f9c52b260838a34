/*
 * rouge_plus.kernels._native, the skip-bigram kernel: ROUGE-1.5.5's ROUGE-S/SU, as
 * kernels/skip_bigram.py counts them.
 */
#include "_native.h"

/* The widest distance of a skip-bigram of a text of n tokens: at most max_gap words between. */
static inline int64_t skip_widest(int64_t n, int max_gap)
{
    int64_t widest = n - 1;
    if (max_gap >= 0 && widest > (int64_t)max_gap + 1)
        widest = (int64_t)max_gap + 1;
    return widest > 0 ? widest : 0;
}

/* Skip-bigrams of a text of n tokens: pairs at each distance 1..widest. */
static inline int64_t skip_pairs(int64_t n, int64_t widest)
{
    return widest * n - widest * (widest + 1) / 2;
}

/*
 * Both texts of a pair reduced to the words they share (only those can form matching
 * skip-bigrams), as word indexes 0 .. shared - 1 with their positions in the full texts, so that
 * pairs keep their true distances. Side 0 is pred, side 1 is ref.
 */
typedef struct {
    int32_t shared;
    int64_t length[2];
    const int32_t *word[2];
    const int64_t *position[2];
} SharedTexts;

static int reduce_to_shared(Workspace *w, const int32_t *pred, int64_t n_pred, const int32_t *ref,
                            int64_t n_ref, SharedTexts *out)
{
    memset(out, 0, sizeof *out);
    stamp_words(w, ref, n_ref); /* ref's words get value_b = 0, then 1 + index among shared */
    int32_t shared = 0;
    for (int64_t j = 0; j < n_pred; j++)
        if (w->stamp[pred[j]] == w->current && w->value_b[pred[j]] == 0)
            w->value_b[pred[j]] = ++shared;
    out->shared = shared;
    if (shared == 0)
        return 0;
    size_t total = (size_t)(n_pred + n_ref);
    int64_t *positions = buffer_scratch(&w->scratch_c, total * (sizeof(int64_t) + sizeof(int32_t)));
    if (!positions)
        return -1;
    int32_t *words = (int32_t *)(positions + total);
    for (int side = 0; side < 2; side++) {
        const int32_t *tokens = side ? ref : pred;
        int64_t n = side ? n_ref : n_pred, kept = 0, offset = side ? out->length[0] : 0;
        for (int64_t t = 0; t < n; t++) {
            int32_t token = tokens[t];
            if (w->stamp[token] == w->current && w->value_b[token] > 0) {
                words[offset + kept] = w->value_b[token] - 1;
                positions[offset + kept] = t;
                kept++;
            }
        }
        out->word[side] = words + offset;
        out->position[side] = positions + offset;
        out->length[side] = kept;
    }
    return 0;
}

/* Pairs of shared tokens of one side at most `widest` positions apart. */
static int64_t shared_pairs(const SharedTexts *s, int side, int64_t widest)
{
    const int64_t *position = s->position[side];
    int64_t n = s->length[side], pairs = 0, next = 0;
    if (n < 2 || position[n - 1] - position[0] <= widest) /* every pair is in reach */
        return n * (n - 1) / 2;
    for (int64_t i = 0; i < n; i++) {
        if (next <= i)
            next = i + 1;
        while (next < n && position[next] - position[i] <= widest)
            next++;
        pairs += next - i - 1;
    }
    return pairs;
}

/* 1 when every pair of shared tokens of the side is within its reach. */
static int all_in_reach(const SharedTexts *s, int side, int64_t widest)
{
    const int64_t n = s->length[side];
    return n < 2 || s->position[side][n - 1] - s->position[side][0] <= widest;
}

/*
 * Skip-bigram hits per first word, in O(shared * (lengths + shared)) time and O(shared) memory
 * beyond the reduced texts: for each shared word a, one pass per text adds to
 * every token b the occurrences of a at most widest[side] positions before it, and the pairs
 * (a, b) are clipped from those counts.
 */
static int skip_hits_by_pass(Workspace *w, const SharedTexts *s, const int64_t widest[2],
                             int64_t *hits_out)
{
    const int32_t shared = s->shared;
    int64_t *pairs = buffer_scratch(&w->scratch_b, (size_t)shared * 2 * sizeof(int64_t));
    if (!pairs)
        return -1;
    int64_t hits = 0;
    for (int32_t first = 0; first < shared; first++) {
        memset(pairs, 0, (size_t)shared * 2 * sizeof(int64_t));
        for (int side = 0; side < 2; side++) {
            const int32_t *word = s->word[side];
            const int64_t *position = s->position[side];
            const int64_t n = s->length[side], reach = widest[side];
            int64_t *count = pairs + side * shared, before = 0; /* occurrences of first in reach */
            if (all_in_reach(s, side, reach)) {
                for (int64_t t = 0; t < n; t++) {
                    count[word[t]] += before;
                    before += word[t] == first;
                }
                continue;
            }
            for (int64_t t = 0, oldest = 0; t < n; t++) {
                while (position[t] - position[oldest] > reach)
                    before -= word[oldest++] == first;
                count[word[t]] += before;
                before += word[t] == first;
            }
        }
        for (int32_t second = 0; second < shared; second++)
            hits += pairs[second] < pairs[shared + second] ? pairs[second] : pairs[shared + second];
    }
    *hits_out = hits;
    return 0;
}

/*
 * The shared tokens of one side grouped by word: the tokens of word a are
 * order[start[a] .. start[a + 1]), in text order (a counting sort, O(length + shared)).
 */
static void tokens_by_word(const SharedTexts *s, int side, int64_t *start, int64_t *order)
{
    const int32_t *word = s->word[side];
    const int64_t n = s->length[side];
    memset(start, 0, ((size_t)s->shared + 1) * sizeof(int64_t));
    for (int64_t t = 0; t < n; t++)
        start[word[t] + 1]++;
    for (int32_t a = 0; a < s->shared; a++)
        start[a + 1] += start[a];
    for (int64_t t = 0; t < n; t++)
        order[start[word[t]]++] = t; /* start[a] ends where word a + 1 begins */
    memmove(start + 1, start, (size_t)s->shared * sizeof(int64_t));
    start[0] = 0;
}

/*
 * Skip-bigram hits per first word, in O(lengths + shared + pairs of shared tokens) time and
 * O(lengths + shared) memory: for each shared word a, the pairs that start at an occurrence of a
 * are enumerated on both sides into counts per second word, and clipped.
 */
static int skip_hits_by_occurrence(Workspace *w, const SharedTexts *s, const int64_t widest[2],
                                   int64_t *hits_out)
{
    const int32_t shared = s->shared;
    const int64_t n0 = s->length[0], n1 = s->length[1];
    int64_t *csr = buffer_scratch(&w->scratch_a,
                                  (size_t)(2 * ((int64_t)shared + 1) + n0 + n1) * sizeof(int64_t));
    int64_t *count = buffer_scratch(&w->scratch_b, (size_t)shared * (2 * sizeof(int64_t) +
                                                                      sizeof(int32_t)));
    if (!csr || !count)
        return -1;
    int64_t *start[2] = {csr, csr + shared + 1};
    int64_t *order[2] = {csr + 2 * ((int64_t)shared + 1), csr + 2 * ((int64_t)shared + 1) + n0};
    int32_t *touched = (int32_t *)(count + 2 * (int64_t)shared);
    memset(count, 0, (size_t)shared * 2 * sizeof(int64_t));
    for (int side = 0; side < 2; side++)
        tokens_by_word(s, side, start[side], order[side]);
    int64_t hits = 0;
    for (int32_t first = 0; first < shared; first++) {
        int32_t n_touched = 0;
        for (int side = 0; side < 2; side++) {
            const int32_t *word = s->word[side];
            const int64_t *position = s->position[side];
            const int64_t n = s->length[side], reach = widest[side];
            int64_t *side_count = count + side * (int64_t)shared;
            for (int64_t k = start[side][first]; k < start[side][first + 1]; k++) {
                const int64_t t = order[side][k];
                for (int64_t u = t + 1; u < n && position[u] - position[t] <= reach; u++) {
                    const int32_t second = word[u];
                    if (count[second] == 0 && count[shared + second] == 0)
                        touched[n_touched++] = second;
                    side_count[second]++;
                }
            }
        }
        for (int32_t k = 0; k < n_touched; k++) {
            const int32_t second = touched[k];
            const int64_t c0 = count[second], c1 = count[shared + second];
            hits += c0 < c1 ? c0 : c1;
            count[second] = count[shared + second] = 0;
        }
    }
    *hits_out = hits;
    return 0;
}

/*
 * Skip-bigram hits in O(lengths · log) when every pair of both sides is in reach and side `once`
 * holds each shared word once. Then `once` has each pair (a, b), a != b, at most once (and no
 * (a, a)), so a pair is a hit exactly when a precedes b in `once` and the other side has some a
 * before some b: its first a before its last b. Walking `once` in order, a Fenwick tree over the
 * other side's positions counts the earlier words whose first occurrence precedes b's last.
 */
static int skip_hits_by_order(Workspace *w, const SharedTexts *s, int once, int64_t *hits_out)
{
    const int other = 1 - once;
    const int32_t shared = s->shared;
    const int64_t n = s->length[other];
    int64_t *first = buffer_scratch(&w->scratch_a,
                                    (size_t)(2 * (int64_t)shared + n + 1) * sizeof(int64_t));
    if (!first)
        return -1;
    int64_t *last = first + shared, *tree = last + shared; /* tree[1 .. n]: a Fenwick tree */
    for (int32_t a = 0; a < shared; a++)
        first[a] = -1;
    for (int64_t t = 0; t < n; t++) {
        const int32_t a = s->word[other][t];
        if (first[a] < 0)
            first[a] = t;
        last[a] = t;
    }
    memset(tree, 0, (size_t)(n + 1) * sizeof(int64_t));
    int64_t hits = 0;
    for (int64_t t = 0; t < s->length[once]; t++) {
        const int32_t b = s->word[once][t];
        for (int64_t i = last[b]; i > 0; i -= i & -i) /* earlier words first before last[b] */
            hits += tree[i];
        for (int64_t i = first[b] + 1; i <= n; i += i & -i)
            tree[i]++;
    }
    *hits_out = hits;
    return 0;
}

/*
 * ROUGE-S/SU as kernels/skip_bigram.py counts them: ordered pairs at most max_gap words apart
 * (max_gap < 0: any distance) over the whole text, plus, with unigrams, every token but the last;
 * overlap clipped per unit. Two equal texts match every pair. Otherwise only pairs of words both
 * texts share can match; they are counted whichever way costs least, all exact: by the order of
 * words (O(n log n), when every pair is in reach and one text has each shared word once), per
 * occurrence of each first word (time in the pairs of shared tokens), or in one pass over both
 * texts per shared word (time in shared words times length; no memory per pair). A gap that
 * reaches across a whole text is no limit: rougeS999999 costs what rougeS* costs.
 */
int skip_bigram_counts(Workspace *w, const Pair *p, int max_gap, int with_unigrams,
                       double *hit, double *pred_base, double *ref_base)
{
    int64_t n_pred, n_ref;
    const int32_t *pred = document_tokens(&p->texts, PRED_DOC, &n_pred);
    const int32_t *ref = document_tokens(&p->texts, REF_DOC, &n_ref);
    int64_t widest_pred = skip_widest(n_pred, max_gap), widest_ref = skip_widest(n_ref, max_gap);
    int64_t pairs_pred = skip_pairs(n_pred, widest_pred), pairs_ref = skip_pairs(n_ref, widest_ref);
    int64_t hits = 0;
    if (pairs_pred > 0 && n_pred == n_ref && !memcmp(pred, ref, (size_t)n_pred * sizeof *pred)) {
        hits = pairs_pred;
    } else if (pairs_pred > 0 && pairs_ref > 0) {
        SharedTexts s;
        if (reduce_to_shared(w, pred, n_pred, ref, n_ref, &s) < 0)
            return -1;
        const int64_t widest[2] = {widest_pred, widest_ref};
        if (s.shared > 0) {
            const double lengths = (double)(s.length[0] + s.length[1] + s.shared);
            const double pass_ops = (double)s.shared * lengths;
            const double occurrence_ops = lengths + (double)shared_pairs(&s, 0, widest_pred) +
                                          (double)shared_pairs(&s, 1, widest_ref);
            int once = -1; /* a side with each shared word once, when every pair is in reach */
            if (all_in_reach(&s, 0, widest_pred) && all_in_reach(&s, 1, widest_ref))
                once = s.length[0] == s.shared ? 0 : s.length[1] == s.shared ? 1 : -1;
            double order_ops = 4.0 * lengths; /* times log2(lengths) */
            for (int64_t size = (int64_t)lengths; size > 1; size >>= 1)
                order_ops += 4.0 * lengths;
            int status;
            if (once >= 0 && order_ops < occurrence_ops && order_ops < pass_ops)
                status = skip_hits_by_order(w, &s, once, &hits);
            else if (occurrence_ops <= pass_ops)
                status = skip_hits_by_occurrence(w, &s, widest, &hits);
            else
                status = skip_hits_by_pass(w, &s, widest, &hits);
            if (status < 0)
                return -1;
        }
    }
    /* 1.5.5 adds a token as a unigram only while it has a pair partner to its right. */
    int64_t unigrams_pred = with_unigrams && n_pred > 1 ? n_pred - 1 : 0;
    int64_t unigrams_ref = with_unigrams && n_ref > 1 ? n_ref - 1 : 0;
    if (unigrams_pred && unigrams_ref)
        hits += unigram_hits(w, p, pred, unigrams_pred, 1);
    *hit = (double)hits;
    *pred_base = (double)(pairs_pred + unigrams_pred);
    *ref_base = (double)(pairs_ref + unigrams_ref);
    return 0;
}
