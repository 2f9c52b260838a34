/*
 * rouge_plus.kernels._native, the skip-bigram kernel: ROUGE-1.5.5's ROUGE-S/SU, as
 * kernels/skip_bigram.py counts them.
 */
#include "_native.h"

/* A hash-table probe of a skip-bigram costs about as much as this many steps of a pass. */
#define SKIP_PROBE_COST 4.0

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

/*
 * Skip-bigram hits per first word, in O(shared * (lengths + shared)) time and O(shared) memory
 * beyond the reduced texts (no table of pairs): for each shared word a, one pass per text adds to
 * every token b the occurrences of a at most widest[side] positions before it, and the pairs
 * (a, b) are clipped from those counts.
 */
static int skip_hits_by_first_word(Workspace *w, const SharedTexts *s, const int64_t widest[2],
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
            if (n > 0 && position[n - 1] - position[0] <= reach) { /* every pair is in reach */
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

/* Skip-bigram hits through a hash table of ref's pairs of shared words, taken by pred's. */
static int skip_hits_by_table(Workspace *w, const SharedTexts *s, const int64_t widest[2],
                              int64_t distinct, int64_t *hits_out)
{
    PairTable table;
    if (pair_table_init(w, &table, distinct) < 0)
        return -1;
    int64_t hits = 0;
    for (int side = 1; side >= 0; side--) { /* ref's pairs are added, then pred's taken */
        const int32_t *word = s->word[side];
        const int64_t *position = s->position[side];
        const int64_t n = s->length[side], reach = widest[side];
        for (int64_t i = 0; i < n; i++) {
            for (int64_t j = i + 1; j < n && position[j] - position[i] <= reach; j++) {
                uint64_t key = pair_key(word[i], word[j]);
                if (side)
                    pair_table_add(&table, key);
                else
                    hits += pair_table_take(&table, key);
            }
        }
    }
    *hits_out = hits;
    return 0;
}

/*
 * ROUGE-S/SU as kernels/skip_bigram.py counts them: ordered pairs at most max_gap words apart
 * (max_gap < 0: any distance) over the whole text, plus, with unigrams, every token but the last;
 * overlap clipped per unit. Only pairs of words both texts share can match; they are counted
 * either pair by pair in a hash table, which costs a table entry per distinct pair of ref, or per
 * first word, which needs no table but a pass over both texts per shared word: whichever costs
 * less, and never a table larger than the workspace's budget. A gap that reaches across a whole
 * text is no limit: rougeS999999 costs what rougeS* costs.
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
    if (pairs_pred > 0 && pairs_ref > 0) {
        SharedTexts s;
        if (reduce_to_shared(w, pred, n_pred, ref, n_ref, &s) < 0)
            return -1;
        const int64_t widest[2] = {widest_pred, widest_ref};
        if (s.shared > 0) {
            int64_t distinct = shared_pairs(&s, 1, widest_ref);
            int64_t table_ops = shared_pairs(&s, 0, widest_pred) + distinct;
            if (distinct > (int64_t)s.shared * s.shared)
                distinct = (int64_t)s.shared * s.shared;
            /* A table probe costs about as much as SKIP_PROBE_COST steps of a pass. */
            double pass_ops = (double)s.shared * (double)(s.length[0] + s.length[1] + s.shared);
            int by_table = pass_ops > SKIP_PROBE_COST * (double)table_ops &&
                           (double)distinct * 2 * sizeof(PairSlot) <= (double)w->table_budget;
            int status = by_table ? skip_hits_by_table(w, &s, widest, distinct, &hits)
                                  : skip_hits_by_first_word(w, &s, widest, &hits);
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
