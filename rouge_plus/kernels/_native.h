/*
 * What the files of rouge_plus.kernels._native share: the vocabulary's type (its own file,
 * _native_vocabulary.c), and the counting kernels' types and the helpers of their hot loops, as
 * static inline functions so that every kernel file inlines them (_native.c calls the kernels;
 * _native_ngram.c, _native_skip_bigram.c, _native_lcs.c and _native_weighted_lcs.c are the
 * kernels, each the twin of the Python module of the same name).
 */
#ifndef ROUGE_PLUS_NATIVE_H
#define ROUGE_PLUS_NATIVE_H

#include "../_compiled/common.h"

/* ------------------------------------------------------------------ the vocabulary */

HIDDEN extern PyTypeObject VocabularyType;
typedef struct Vocabulary Vocabulary;

/* _native._weaken_hash: with a true flag, Vocabularies created from now on hash every word to 0
 * until they fall back to SipHash-1-3 (for the tests only). */
HIDDEN void vocabulary_weaken_hash(int weak);

/* Texts in token ids, as Vocabulary.encode returns them. */
typedef struct {
    Buffer ids;       /* int32 token ids */
    Buffer sentences; /* int64 token offset of each sentence start, plus the end */
    Buffer documents; /* int64 sentence offset of each document start, plus the end */
    Buffer word;      /* the current token, lowercased */
} Encoded;

/* For the one-pair scorer (_native_pair.c), with the GIL held throughout:
 *   - vocabulary_encode_strs: encode str texts, each a document, as Vocabulary.encode does,
 *     into e (emptied first); -1 with an exception set;
 *   - vocabulary_intern: the id of a UTF-8 word, added when new (-1 on memory error, no
 *     exception set); vocabulary_word: the UTF-8 bytes of a word by id;
 *   - vocabulary_clear: forget every word (in time linear in their number), keeping the memory;
 *   - vocabulary_size: how many words it holds. */
HIDDEN int vocabulary_encode_strs(Vocabulary *v, Encoded *e, PyObject *const *texts,
                                  Py_ssize_t n_texts, int split_newlines);
HIDDEN int32_t vocabulary_intern(Vocabulary *v, const char *s, Py_ssize_t n);
HIDDEN const char *vocabulary_word(const Vocabulary *v, int32_t id, Py_ssize_t *n);
HIDDEN void vocabulary_clear(Vocabulary *v);
HIDDEN Py_ssize_t vocabulary_size(const Vocabulary *v);
HIDDEN void encoded_free(Encoded *e);

/* ------------------------------------------------------------------ counting */

/* The codes of rouge_plus/kernels/spec.py's Kernel table; the module exports them as KIND_* and
 * the Python side refuses to load a build whose codes differ. */
enum {
    KIND_NGRAM = 0,
    KIND_LCS = 1,
    KIND_SUMMARY_LCS = 2,
    KIND_WEIGHTED_LCS = 3,
    KIND_SKIP_BIGRAM = 4,
};

typedef struct {
    const int32_t *ids;
    const int64_t *sentences;
    const int64_t *documents;
} Corpus;

/* One measure, as count_pairs takes it: (kind, n, x). */
typedef struct {
    int kind;
    int n;
    double x; /* ROUGE-W's weight; for skip-bigrams, 1.0 adds unigrams */
} MeasureSpec;

/* The measures of a list of (kind, n, x), checked, as a new array (free it); NULL with an
 * exception set. */
HIDDEN MeasureSpec *parse_measures(PyObject *measures, Py_ssize_t *n_measures);

/* count_pairs' work on a corpus: the hit, pred_base and ref_base of every
 * pair (pred_docs[k], ref_docs[k]) under each measure, into out, float64 (n_measures, 3,
 * n_pairs). Needs no GIL; 0, -1 on memory error, or COUNT_BAD_TOKEN when a document of a pair
 * holds a token id outside 0 .. vocab_size - 1 (only the pairs' documents are read). */
#define COUNT_BAD_TOKEN (-3)
HIDDEN int count_document_pairs(const Corpus *corpus, const int64_t *pred_docs,
                                const int64_t *ref_docs, Py_ssize_t n_pairs,
                                const MeasureSpec *specs, Py_ssize_t n_measures,
                                Py_ssize_t vocab_size, double *out);

/* _native_pair.c: PairScorer, one pair per call. */
HIDDEN extern PyTypeObject PairScorerType;

/* A pair of texts in ids of its own (see OwnIds in _native.c): document REF_DOC of `texts` is
 * the reference, PRED_DOC the prediction; ids run 0 .. n_ids - 1. */
typedef struct {
    Corpus texts;
    int32_t n_ids;
    const int32_t *ref_counts; /* occurrences of each id in the reference */
} Pair;

enum { REF_DOC = 0, PRED_DOC = 1 };

/* Bit masks of a text of at most 64 * MASK_DENSITY tokens are rows indexed by word id; a longer
 * text's words get full rows only where frequent enough (see build_masks in _native_lcs.c). */
#define MASK_DENSITY 4
/* Bigrams of a pair of at most this many ids squared are counted in a table indexed by both ids;
 * others in a hash table. */
#define BIGRAM_TABLE_IDS 256

typedef struct {
    /* Per-word scratch, valid where stamp[id] == current: reset in O(1) per use. */
    uint32_t *stamp;
    int32_t *value_a;
    int32_t *value_b;
    uint32_t current;
    /* Remaining unigram counts of both texts (clipped unigram hits, ROUGE-Lsum, ROUGE-W). */
    int32_t *left_ref;
    int32_t *left_pred;
    Py_ssize_t n_ids; /* the per-word tables' entries: a pair's own ids are below it */
    uint64_t *masks_by_id; /* MASK_DENSITY words per id, zero outside build_masks .. release_masks */
    int32_t *bigram_table; /* BIGRAM_TABLE_IDS ** 2 counts, zero outside bigram_hits */
    Buffer scratch_a; /* bit masks / n-gram hash tables */
    Buffer scratch_b; /* LCS column vectors */
    Buffer scratch_c; /* union_of_paths' tables and marks; skip-bigram positions */
    Buffer scratch_d; /* ROUGE-W's powers */
    /* The most bytes one table of a pair may take (skip-bigram pairs, an LCS or ROUGE-W
     * traceback) before the kernels switch to a method that needs less memory and more time. */
    Py_ssize_t table_budget;
} Workspace;

static inline void workspace_next(Workspace *w)
{
    w->current = next_stamp(w->stamp, (size_t)w->n_ids, w->current);
}

static inline int32_t *workspace_slot(Workspace *w, int32_t id, int32_t *value, int32_t initial)
{
    if (w->stamp[id] != w->current) {
        w->stamp[id] = w->current;
        w->value_a[id] = initial;
        w->value_b[id] = initial;
    }
    return value + id;
}

/* Stamp the words of tokens (value_a = 1, value_b = 0). */
static inline void stamp_words(Workspace *w, const int32_t *tokens, int64_t n)
{
    workspace_next(w);
    for (int64_t i = 0; i < n; i++)
        *workspace_slot(w, tokens[i], w->value_a, 0) = 1;
}

/* The tokens of a document, which are contiguous in ids. */
static inline const int32_t *document_tokens(const Corpus *c, int64_t doc, int64_t *n)
{
    int64_t start = c->sentences[c->documents[doc]], end = c->sentences[c->documents[doc + 1]];
    *n = end - start;
    return c->ids + start;
}

/* Clipped overlap of the unigrams of pred[0:n_pred] (the prediction's tokens, or the first of
 * them) and of the reference, less its last token when drop_last_ref (ROUGE-SU's unigrams). */
static inline int64_t unigram_hits(Workspace *w, const Pair *p, const int32_t *pred,
                                   int64_t n_pred, int drop_last_ref)
{
    int64_t n_ref;
    const int32_t *ref = document_tokens(&p->texts, REF_DOC, &n_ref);
    int32_t *left = w->left_ref;
    memcpy(left, p->ref_counts, (size_t)p->n_ids * sizeof(int32_t));
    if (drop_last_ref && n_ref > 0)
        left[ref[n_ref - 1]]--;
    int64_t hits = 0;
    for (int64_t j = 0; j < n_pred; j++) {
        if (left[pred[j]] > 0) {
            left[pred[j]]--;
            hits++;
        }
    }
    return hits;
}

/* Unigram counts of both texts, to clip ROUGE-Lsum and ROUGE-W hits. */
static inline void load_unigram_counts(Workspace *w, const Pair *p)
{
    int64_t n_pred;
    const int32_t *pred = document_tokens(&p->texts, PRED_DOC, &n_pred);
    memcpy(w->left_ref, p->ref_counts, (size_t)p->n_ids * sizeof(int32_t));
    memset(w->left_pred, 0, (size_t)p->n_ids * sizeof(int32_t));
    for (int64_t t = 0; t < n_pred; t++)
        w->left_pred[pred[t]]++;
}

/* 1 when both texts still have an unused occurrence of token (both are then used), else 0. */
static inline int take_unigram(Workspace *w, int32_t token)
{
    if (w->left_ref[token] <= 0 || w->left_pred[token] <= 0)
        return 0;
    w->left_ref[token]--;
    w->left_pred[token]--;
    return 1;
}

/*
 * Units made of two tokens (bigrams, skip-bigrams) packed in one 64-bit key, counted in an
 * open-addressing table: ref's units are added, then pred's are taken while they last. The table
 * starts from a per-process key (hash_key), as do the tables of n-grams: ids follow the order in
 * which words first appear, so a text could otherwise choose colliding units.
 */
typedef struct {
    uint64_t key; /* PAIR_EMPTY when free */
    int64_t left; /* unmatched occurrences */
} PairSlot;

#define PAIR_EMPTY UINT64_MAX /* no pair of ids < 2^31 packs to it */

typedef struct {
    PairSlot *slots;
    uint64_t mask;
} PairTable;

static inline uint64_t pair_key(int32_t first, int32_t second)
{
    return ((uint64_t)(uint32_t)first << 32) | (uint32_t)second;
}

static inline uint64_t pair_slot(uint64_t key, uint64_t mask)
{
    key ^= hash_key[1];
    key ^= key >> 31; /* splitmix64's finalizer: spreads both halves over the low bits */
    key *= 0xBF58476D1CE4E5B9ULL;
    key ^= key >> 27;
    return key & mask;
}

/* A table with room for `distinct` keys at load <= 1/2, in the workspace's scratch_a; -1 on
 * memory error. */
static inline int pair_table_init(Workspace *w, PairTable *t, int64_t distinct)
{
    int64_t n_slots = 16;
    while (n_slots < 2 * distinct)
        n_slots *= 2;
    t->slots = buffer_scratch(&w->scratch_a, (size_t)n_slots * sizeof(PairSlot));
    if (!t->slots)
        return -1;
    memset(t->slots, 0xff, (size_t)n_slots * sizeof(PairSlot)); /* key = PAIR_EMPTY */
    t->mask = (uint64_t)n_slots - 1;
    return 0;
}

static inline void pair_table_add(PairTable *t, uint64_t key)
{
    uint64_t s = pair_slot(key, t->mask);
    while (t->slots[s].key != key && t->slots[s].key != PAIR_EMPTY)
        s = (s + 1) & t->mask;
    if (t->slots[s].key == PAIR_EMPTY) {
        t->slots[s].key = key;
        t->slots[s].left = 0;
    }
    t->slots[s].left++;
}

/* 1 when `key` still has an unmatched occurrence (which it uses up), else 0. */
static inline int pair_table_take(PairTable *t, uint64_t key)
{
    uint64_t s = pair_slot(key, t->mask);
    while (t->slots[s].key != key) {
        if (t->slots[s].key == PAIR_EMPTY)
            return 0;
        s = (s + 1) & t->mask;
    }
    if (t->slots[s].left <= 0)
        return 0;
    t->slots[s].left--;
    return 1;
}

/* The kernels: 0 on success, -1 on memory error; hits (or hit and both bases) by pointer. */

/* _native_ngram.c: clipped overlap of bigrams, and of n-grams (n >= 2) of pred and ref. */
HIDDEN int bigram_hits(Workspace *w, const Pair *p, int64_t *hits_out);
HIDDEN int ngram_hits(Workspace *w, int n, const int32_t *pred, int64_t n_pred, const int32_t *ref,
                      int64_t n_ref, int64_t *hits_out);

/* _native_skip_bigram.c: ROUGE-S/SU (max_gap < 0: any distance). */
HIDDEN int skip_bigram_counts(Workspace *w, const Pair *p, int max_gap, int with_unigrams,
                              double *hit, double *pred_base, double *ref_base);

/* _native_lcs.c: the LCS length (ROUGE-L), and the summary-level union LCS hits (ROUGE-Lsum). */
HIDDEN int lcs_length(Workspace *w, const int32_t *ref, int64_t m, const int32_t *pred, int64_t n,
                      int64_t *out);
HIDDEN int summary_lcs_hits(Workspace *w, const Pair *p, int64_t *out);

/* The union of one ref sentence's positions on the paths walked: marks[i] once position i is on
 * some path; unmarked[local[i]] counts the positions of the word of position i not marked yet. */
typedef struct {
    unsigned char *marks;
    int32_t *local;
    int64_t *unmarked;
} Union;

static inline void union_mark(Union *u, int64_t i)
{
    if (!u->marks[i]) {
        u->marks[i] = 1;
        u->unmarked[u->local[i]]--;
    }
}

/* What union_of_paths walks (ROUGE-Lsum's LCS, ROUGE-W's weighted LCS): `walk` marks in u (with
 * union_mark) the ref positions on its path of ref vs pred, marking only matching positions;
 * `begin` and `end` (each may be NULL) come before and after the walks of one ref sentence. A
 * walker embeds this as its first member. Each returns -1 on memory error, else 0. */
typedef struct PathWalker PathWalker;
struct PathWalker {
    int (*begin)(PathWalker *self, Workspace *w, const int32_t *ref, int64_t m);
    int (*walk)(PathWalker *self, Workspace *w, const int32_t *ref, int64_t m,
                const int32_t *pred, int64_t n, Union *u);
    void (*end)(PathWalker *self, const int32_t *ref, int64_t m);
};

/* _native_lcs.c: the union over the pred sentences of each ref sentence's path positions, walking
 * only the pred sentences that can add to it; *marks_out gets a byte per reference token. */
HIDDEN int union_of_paths(Workspace *w, const Pair *p, PathWalker *walker,
                          const unsigned char **marks_out);

/* _native_weighted_lcs.c: ROUGE-W. */
HIDDEN int weighted_lcs_counts(Workspace *w, const Pair *p, double weight, double *hit,
                               double *pred_base, double *ref_base);

#endif /* ROUGE_PLUS_NATIVE_H */
