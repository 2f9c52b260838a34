/*
 * rouge_plus.kernels._native, the n-gram kernels: clipped n-gram overlap, as kernels/ngram.py
 * counts it (unigrams, the simplest, are counted by unigram_hits in _native.h).
 */
#include "_native.h"

typedef struct {
    int64_t start; /* position of the n-gram in ref; -1 when empty */
    int64_t left;  /* unmatched occurrences */
} GramSlot;

/* Clipped overlap of n-grams (n >= 2): ref's n-grams in a hash table, consumed by pred's. */
int ngram_hits(Workspace *w, int n, const int32_t *pred, int64_t n_pred, const int32_t *ref,
               int64_t n_ref, int64_t *hits_out)
{
    int64_t grams_ref = n_ref - n + 1, grams_pred = n_pred - n + 1;
    *hits_out = 0;
    if (grams_ref <= 0 || grams_pred <= 0)
        return 0;
    int64_t n_slots = 16;
    while (n_slots < 2 * grams_ref)
        n_slots *= 2;
    GramSlot *table = buffer_scratch(&w->scratch_a, (size_t)n_slots * sizeof(GramSlot));
    if (!table)
        return -1;
    for (int64_t s = 0; s < n_slots; s++)
        table[s].start = -1;
    const size_t gram_bytes = (size_t)n * sizeof(int32_t);
    for (int64_t i = 0; i < grams_ref; i++) {
        int64_t s = (int64_t)(hash_ngram(ref + i, n) & (uint64_t)(n_slots - 1));
        while (table[s].start >= 0 && memcmp(ref + table[s].start, ref + i, gram_bytes) != 0)
            s = (s + 1) & (n_slots - 1);
        if (table[s].start < 0) {
            table[s].start = i;
            table[s].left = 0;
        }
        table[s].left++;
    }
    int64_t hits = 0;
    for (int64_t j = 0; j < grams_pred; j++) {
        int64_t s = (int64_t)(hash_ngram(pred + j, n) & (uint64_t)(n_slots - 1));
        while (table[s].start >= 0) {
            if (memcmp(ref + table[s].start, pred + j, gram_bytes) == 0) {
                if (table[s].left > 0) {
                    table[s].left--;
                    hits++;
                }
                break;
            }
            s = (s + 1) & (n_slots - 1);
        }
    }
    *hits_out = hits;
    return 0;
}

/* Clipped overlap of bigrams: in the table indexed by both ids when the pair has few ids, else
 * in a hash table of packed keys. */
int bigram_hits(Workspace *w, const Pair *p, int64_t *hits_out)
{
    int64_t n_pred, n_ref;
    const int32_t *pred = document_tokens(&p->texts, PRED_DOC, &n_pred);
    const int32_t *ref = document_tokens(&p->texts, REF_DOC, &n_ref);
    *hits_out = 0;
    if (n_ref < 2 || n_pred < 2)
        return 0;
    if (p->n_ids <= BIGRAM_TABLE_IDS) {
        int32_t *count = w->bigram_table, n_ids = p->n_ids;
        int64_t hits = 0;
        for (int64_t i = 0; i + 1 < n_ref; i++)
            count[ref[i] * n_ids + ref[i + 1]]++;
        for (int64_t j = 0; j + 1 < n_pred; j++) {
            int32_t *left = count + pred[j] * n_ids + pred[j + 1];
            hits += *left > 0;
            *left -= *left > 0;
        }
        for (int64_t i = 0; i + 1 < n_ref; i++)
            count[ref[i] * n_ids + ref[i + 1]] = 0;
        *hits_out = hits;
        return 0;
    }
    PairTable table;
    if (pair_table_init(w, &table, n_ref - 1) < 0)
        return -1;
    for (int64_t i = 0; i + 1 < n_ref; i++)
        pair_table_add(&table, pair_key(ref[i], ref[i + 1]));
    int64_t hits = 0;
    for (int64_t j = 0; j + 1 < n_pred; j++)
        hits += pair_table_take(&table, pair_key(pred[j], pred[j + 1]));
    *hits_out = hits;
    return 0;
}

