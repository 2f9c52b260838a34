/*
 * rouge_plus.scoring._synonyms: the synonym matching of n-grams (rouge1+synonyms,
 * rouge2+synonyms, the topic measures +synonyms), pair by pair, in C.
 *
 * synonym_gains gives, for every pair, the hits of scoring/counting.py's synonym_counts (a
 * maximum matching) without the general matching: the synonym edges between the two texts'
 * kinds of unit, the connected components that hold one (a kind found in both texts ties its
 * two nodes), and per component the maximum matching minus its exact matches. A component with
 * one kind on a side matches the smaller total; otherwise a greedy matching (exact pairs first)
 * that reaches the smaller total is maximum. When it does not, the pair is returned to the
 * caller, which solves it with the maximum matching in Python. The tests compare the two.
 * Units are tokens for n = 1; for n >= 2 each pair is first rewritten as a pair of unigrams
 * (NgramKinds): its distinct n-grams numbered, each with the reference's n-grams it may match.
 */
#include "../_compiled/common.h"

/* The per-process keys of the n-gram kinds' hash table (common.h). */
HIDDEN uint64_t hash_key[8];

/* Per-id scratch, valid where stamp[id] equals the current stamp (no clearing between pairs). */
typedef struct {
    Py_ssize_t vocab;
    uint32_t now;
    uint32_t *stamp;
    int64_t *pred_count, *ref_count;
    int32_t *left_node, *right_node; /* node number of the id on each side, or -1 */
    /* per pair, grown as needed */
    int32_t *pred_ids, *ref_ids; /* distinct ids of each text */
    int32_t *edge_a, *edge_b;    /* synonym edges (pred id, ref id) */
    int32_t *parent;             /* union-find over nodes */
    int64_t *node_count;         /* units of a node */
    int32_t *node_id;            /* token id of a node */
    int8_t *node_side;           /* 0: prediction, 1: reference */
    int64_t *free_units;         /* the greedy matching's free reference units, by node */
    int64_t *comp_left, *comp_right, *comp_matched, *comp_exact;
    int32_t *degree;   /* synonym edges of a node */
    int64_t *edge_key; /* the second greedy's edge order */
    int32_t *comp_left_kinds, *comp_right_kinds;
    Py_ssize_t cap_ids, cap_edges, cap_nodes;
} Work;

static void work_free(Work *w)
{
    void *all[] = {w->stamp,     w->pred_count,   w->ref_count,     w->left_node,
                   w->right_node, w->pred_ids,     w->ref_ids,       w->edge_a,
                   w->edge_b,    w->parent,       w->node_count,    w->node_id,
                   w->node_side, w->free_units,   w->comp_left,     w->comp_right,
                   w->comp_matched, w->comp_exact, w->comp_left_kinds, w->comp_right_kinds,
                   w->degree,    w->edge_key};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        free(all[i]);
}

#define GROW(array, count)                                                                      \
    do {                                                                                        \
        void *grown = realloc((void *)(array), sizeof *(array) * (size_t)(count));              \
        if (!grown)                                                                             \
            return -1;                                                                          \
        (array) = grown;                                                                        \
    } while (0)

/* The per-id arrays for ids below vocab (those already there when large enough); -1 on memory
 * error. */
static int work_reserve_vocab(Work *w, Py_ssize_t vocab)
{
    if (w->stamp && vocab <= w->vocab)
        return 0;
    Py_ssize_t n = vocab ? vocab : 1;
    free(w->stamp);
    w->stamp = calloc((size_t)n, sizeof *w->stamp);
    w->now = 0;
    if (!w->stamp)
        return -1;
    GROW(w->pred_count, n);
    GROW(w->ref_count, n);
    GROW(w->left_node, n);
    GROW(w->right_node, n);
    w->vocab = vocab;
    return 0;
}

static int work_init(Work *w, Py_ssize_t vocab)
{
    memset(w, 0, sizeof *w);
    return work_reserve_vocab(w, vocab);
}

static int reserve_ids(Work *w, Py_ssize_t n)
{
    if (n <= w->cap_ids)
        return 0;
    Py_ssize_t cap = grown_capacity(w->cap_ids, n, 256);
    GROW(w->pred_ids, cap);
    GROW(w->ref_ids, cap);
    w->cap_ids = cap;
    return 0;
}

static int reserve_edges(Work *w, Py_ssize_t n)
{
    if (n <= w->cap_edges)
        return 0;
    Py_ssize_t cap = grown_capacity(w->cap_edges, n, 256);
    GROW(w->edge_a, cap);
    GROW(w->edge_b, cap);
    GROW(w->edge_key, cap);
    w->cap_edges = cap;
    return 0;
}

static int reserve_nodes(Work *w, Py_ssize_t n)
{
    if (n <= w->cap_nodes)
        return 0;
    Py_ssize_t cap = grown_capacity(w->cap_nodes, n, 256);
    GROW(w->parent, cap);
    GROW(w->node_count, cap);
    GROW(w->node_id, cap);
    GROW(w->node_side, cap);
    GROW(w->free_units, cap);
    GROW(w->comp_left, cap);
    GROW(w->comp_right, cap);
    GROW(w->comp_matched, cap);
    GROW(w->comp_exact, cap);
    GROW(w->comp_left_kinds, cap);
    GROW(w->comp_right_kinds, cap);
    GROW(w->degree, cap);
    w->cap_nodes = cap;
    return 0;
}

static int compare_keys(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static int32_t find(int32_t *parent, int32_t x)
{
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

static void unite(int32_t *parent, int32_t a, int32_t b)
{
    a = find(parent, a);
    b = find(parent, b);
    if (a != b)
        parent[a] = b;
}

typedef struct {
    const int32_t *ids;
    const int64_t *sentences, *documents;
    const int64_t *nbr_at;
    const int32_t *nbr;
} Data;

/* Count a document's tokens by id into counts; list its distinct ids. */
static Py_ssize_t count_document(Work *w, const Data *d, int64_t doc, int64_t *counts,
                                 int32_t *distinct)
{
    int64_t from = d->sentences[d->documents[doc]], to = d->sentences[d->documents[doc + 1]];
    Py_ssize_t n = 0;
    for (int64_t t = from; t < to; t++) {
        int32_t id = d->ids[t];
        if (w->stamp[id] != w->now) {
            w->stamp[id] = w->now;
            w->pred_count[id] = w->ref_count[id] = 0;
            w->left_node[id] = w->right_node[id] = -1;
        }
        if (counts[id]++ == 0)
            distinct[n++] = id;
    }
    return n;
}

static inline int64_t count_of(const Work *w, const int64_t *counts, int32_t id)
{
    return w->stamp[id] == w->now ? counts[id] : 0;
}

static int32_t add_node(Work *w, Py_ssize_t *n_nodes, int32_t id, int side, int64_t count)
{
    int32_t node = (int32_t)(*n_nodes)++;
    w->parent[node] = node;
    w->node_id[node] = id;
    w->node_side[node] = (int8_t)side;
    w->node_count[node] = count;
    if (side == 0)
        w->left_node[id] = node;
    else
        w->right_node[id] = node;
    return node;
}

/*
 * The gain of one pair: sum over its components with a synonym edge of (maximum matching -
 * exact matches); 1 in *unsolved when a component needs the full maximum matching. -1 on
 * memory error.
 */
static int pair_gain(Work *w, const Data *d, int64_t pred_doc, int64_t ref_doc, int64_t *gain,
                     int *unsolved)
{
    *gain = 0;
    *unsolved = 0;
    w->now = next_stamp(w->stamp, (size_t)(w->vocab ? w->vocab : 1), w->now);
    int64_t pred_len = d->sentences[d->documents[pred_doc + 1]] - d->sentences[d->documents[pred_doc]];
    int64_t ref_len = d->sentences[d->documents[ref_doc + 1]] - d->sentences[d->documents[ref_doc]];
    if (reserve_ids(w, (Py_ssize_t)(pred_len > ref_len ? pred_len : ref_len)) < 0)
        return -1;
    Py_ssize_t n_pred = count_document(w, d, pred_doc, w->pred_count, w->pred_ids);
    Py_ssize_t n_ref = count_document(w, d, ref_doc, w->ref_count, w->ref_ids);

    /* synonym edges, prediction kind -> reference kind, in the order of _synonym_edges */
    Py_ssize_t n_edges = 0;
    for (Py_ssize_t i = 0; i < n_pred; i++) {
        int32_t a = w->pred_ids[i];
        for (int64_t j = d->nbr_at[a]; j < d->nbr_at[a + 1]; j++) {
            int32_t b = d->nbr[j];
            if (count_of(w, w->ref_count, b) > 0) {
                if (reserve_edges(w, n_edges + 1) < 0)
                    return -1;
                w->edge_a[n_edges] = a;
                w->edge_b[n_edges++] = b;
            }
        }
    }
    if (!n_edges)
        return 0;

    /* nodes: both ends of every synonym edge, and the other side of a kind in both texts; at
     * most one node per distinct id of each text */
    if (reserve_nodes(w, n_pred + n_ref) < 0)
        return -1;
    Py_ssize_t n_nodes = 0;
    for (Py_ssize_t e = 0; e < n_edges; e++) {
        int32_t a = w->edge_a[e], b = w->edge_b[e];
        if (w->left_node[a] < 0)
            add_node(w, &n_nodes, a, 0, w->pred_count[a]);
        if (w->right_node[b] < 0)
            add_node(w, &n_nodes, b, 1, w->ref_count[b]);
        unite(w->parent, w->left_node[a], w->right_node[b]);
    }
    for (Py_ssize_t v = 0, first = n_nodes; v < first; v++) {
        int32_t id = w->node_id[v];
        if (w->node_side[v] == 0 && w->right_node[id] < 0 && count_of(w, w->ref_count, id) > 0)
            add_node(w, &n_nodes, id, 1, w->ref_count[id]);
        else if (w->node_side[v] == 1 && w->left_node[id] < 0 &&
                 count_of(w, w->pred_count, id) > 0)
            add_node(w, &n_nodes, id, 0, w->pred_count[id]);
    }
    for (Py_ssize_t v = 0; v < n_nodes; v++) {
        int32_t id = w->node_id[v];
        if (w->left_node[id] >= 0 && w->right_node[id] >= 0)
            unite(w->parent, w->left_node[id], w->right_node[id]);
    }

    /* per component: totals, kinds and exact matches */
    for (Py_ssize_t v = 0; v < n_nodes; v++) {
        w->comp_left[v] = w->comp_right[v] = w->comp_exact[v] = 0;
        w->comp_left_kinds[v] = w->comp_right_kinds[v] = w->degree[v] = 0;
    }
    for (Py_ssize_t v = 0; v < n_nodes; v++) {
        int32_t root = find(w->parent, (int32_t)v);
        if (w->node_side[v] == 0) {
            w->comp_left[root] += w->node_count[v];
            w->comp_left_kinds[root]++;
            int32_t twin = w->right_node[w->node_id[v]];
            if (twin >= 0)
                w->comp_exact[root] += w->node_count[v] < w->node_count[twin] ? w->node_count[v]
                                                                               : w->node_count[twin];
        } else {
            w->comp_right[root] += w->node_count[v];
            w->comp_right_kinds[root]++;
        }
    }
    /* Greedy matchings over the node edges (the exact ties first, then the synonym edges in
     * the order they were found; if that falls short somewhere, every edge by how few edges its
     * ends have, fewest first). */
    Py_ssize_t n_syn = n_edges;
    for (Py_ssize_t v = 0; v < n_nodes; v++)
        if (w->node_side[v] == 0 && w->right_node[w->node_id[v]] >= 0)
            n_edges++;
    if (reserve_edges(w, 2 * n_edges) < 0)
        return -1;
    /* node edges in edge_a/edge_b[n_edges .. 2 n_edges): exact ties, then synonym edges */
    int32_t *from = w->edge_a + n_edges, *to = w->edge_b + n_edges;
    Py_ssize_t m = 0;
    for (Py_ssize_t v = 0; v < n_nodes; v++) {
        int32_t twin = w->node_side[v] == 0 ? w->right_node[w->node_id[v]] : -1;
        if (twin >= 0) {
            from[m] = (int32_t)v;
            to[m++] = twin;
        }
    }
    for (Py_ssize_t e = 0; e < n_syn; e++) {
        from[m] = w->left_node[w->edge_a[e]];
        to[m++] = w->right_node[w->edge_b[e]];
    }
    for (Py_ssize_t e = 0; e < n_edges; e++) {
        w->degree[from[e]]++;
        w->degree[to[e]]++;
    }
    for (Py_ssize_t e = 0; e < n_edges; e++) {
        /* degrees clamped to their fields: only the order of the heuristic depends on them */
        uint64_t da = (uint64_t)w->degree[from[e]], db = (uint64_t)w->degree[to[e]];
        uint64_t low = da < db ? da : db, sum = da + db;
        low = low < (1u << 19) ? low : (1u << 19) - 1;
        sum = sum < (1u << 20) ? sum : (1u << 20) - 1;
        w->edge_key[e] = (int64_t)((low << 44) | (sum << 24) | (uint64_t)e);
    }
    for (int attempt = 0; attempt < (n_edges < (1 << 24) ? 2 : 1); attempt++) {
        if (attempt == 1)
            qsort(w->edge_key, (size_t)n_edges, sizeof(int64_t), compare_keys);
        for (Py_ssize_t v = 0; v < n_nodes; v++) {
            w->comp_matched[v] = 0;
            w->free_units[v] = w->node_count[v];
        }
        for (Py_ssize_t i = 0; i < n_edges; i++) {
            Py_ssize_t e = attempt ? (Py_ssize_t)(w->edge_key[i] & 0xFFFFFF) : i;
            int32_t a = from[e], b = to[e];
            int64_t take = w->free_units[a] < w->free_units[b] ? w->free_units[a] : w->free_units[b];
            if (take > 0) {
                w->free_units[a] -= take;
                w->free_units[b] -= take;
                w->comp_matched[find(w->parent, a)] += take;
            }
        }
        int settled = 1;
        int64_t total = 0;
        for (Py_ssize_t v = 0; v < n_nodes && settled; v++) {
            if (find(w->parent, (int32_t)v) != v)
                continue;
            int64_t bound =
                w->comp_left[v] < w->comp_right[v] ? w->comp_left[v] : w->comp_right[v];
            settled = w->comp_matched[v] == bound || w->comp_left_kinds[v] == 1 ||
                      w->comp_right_kinds[v] == 1;
            total += bound - w->comp_exact[v];
        }
        if (settled) {
            *gain = total;
            return 0;
        }
    }
    *unsolved = 1;
    return 0;
}

/*
 * A pair of documents rewritten as a pair of unigram documents for n-grams (n >= 2): its units
 * (the prediction's n-grams, then the reference's) as kinds, numbered in order of first
 * occurrence, and for each kind of the prediction the reference's kinds it may match other than
 * itself (every position the same word or synonyms): pair_gain on that pair is the n-gram
 * matching's gain.
 */
typedef struct {
    int n;
    Py_ssize_t vocab;
    int32_t *units;    /* the pair's units as kinds */
    int64_t *first;   /* per kind: the position in Data.ids of its first unit */
    int32_t *next_ref; /* per kind: the next reference kind of the same first word, -1 at the end,
                          -2 before the reference is indexed */
    int64_t *nbr_at;   /* per kind, plus an end */
    int32_t *slots;    /* open addressing over the kinds: kind + 1, 0 for empty */
    Buffer nbr;        /* int32 */
    /* per vocabulary id, valid where stamp[id] == now (word_entry) */
    uint32_t *stamp;
    uint32_t now;
    int32_t *ref_head; /* the first reference kind starting with the word, or -1 */
    int8_t *in_ref;    /* the word is in the reference */
    int8_t *near_ref;  /* a synonym of the word is in the reference; -1 not known yet */
    Py_ssize_t cap_units, cap_slots;
    Work work; /* pair_gain's scratch, over kinds */
} NgramKinds;

static int ngram_kinds_init(NgramKinds *g, int n, Py_ssize_t vocab)
{
    memset(g, 0, sizeof *g);
    g->n = n;
    g->vocab = vocab;
    size_t size = (size_t)(vocab ? vocab : 1);
    g->stamp = calloc(size, sizeof *g->stamp);
    g->ref_head = malloc(sizeof *g->ref_head * size);
    g->in_ref = malloc(size);
    g->near_ref = malloc(size);
    return work_init(&g->work, 0) == 0 && buffer_reserve(&g->nbr, 0) == 0 && g->stamp &&
                   g->ref_head && g->in_ref && g->near_ref
               ? 0
               : -1;
}

static void ngram_kinds_free(NgramKinds *g)
{
    void *all[] = {g->units, g->first,    g->next_ref, g->nbr_at,  g->slots,
                   g->stamp, g->ref_head, g->in_ref,   g->near_ref};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        free(all[i]);
    buffer_free(&g->nbr);
    work_free(&g->work);
}

static int reserve_units(NgramKinds *g, Py_ssize_t n_units, Py_ssize_t n_slots)
{
    if (n_units > g->cap_units) {
        Py_ssize_t cap = grown_capacity(g->cap_units, n_units, 256);
        GROW(g->units, cap);
        GROW(g->first, cap);
        GROW(g->next_ref, cap);
        GROW(g->nbr_at, cap + 1);
        g->cap_units = cap;
    }
    if (n_slots > g->cap_slots) {
        GROW(g->slots, n_slots);
        g->cap_slots = n_slots;
    }
    return 0;
}

static inline void word_entry(NgramKinds *g, int32_t id)
{
    if (g->stamp[id] != g->now) {
        g->stamp[id] = g->now;
        g->ref_head[id] = -1;
        g->in_ref[id] = 0;
        g->near_ref[id] = -1;
    }
}

/* Whether b is among a's synonyms. */
static int synonyms_of(const Data *d, int32_t a, int32_t b)
{
    for (int64_t j = d->nbr_at[a]; j < d->nbr_at[a + 1]; j++)
        if (d->nbr[j] == b)
            return 1;
    return 0;
}

/* Whether a word has a synonym in the reference (whose words are marked). */
static int near_reference(NgramKinds *g, const Data *d, int32_t id)
{
    word_entry(g, id);
    if (g->near_ref[id] < 0) {
        g->near_ref[id] = 0;
        for (int64_t j = d->nbr_at[id]; j < d->nbr_at[id + 1] && !g->near_ref[id]; j++)
            g->near_ref[id] = g->stamp[d->nbr[j]] == g->now && g->in_ref[d->nbr[j]];
    }
    return g->near_ref[id];
}

/*
 * Rewrite the pair (pred_doc, ref_doc) of d as kinds into *out, whose sentences and documents are
 * the given arrays of 3: 0 when a side has no n-gram (no gain), 1 when rewritten, -1 on memory
 * error.
 */
static int ngram_pair(NgramKinds *g, const Data *d, int64_t pred_doc, int64_t ref_doc, Data *out,
                      int64_t *sentences, int64_t *documents)
{
    const int n = g->n;
    const int32_t *ids = d->ids;
    int64_t p_first = d->sentences[d->documents[pred_doc]];
    int64_t p_units = d->sentences[d->documents[pred_doc + 1]] - p_first - n + 1;
    int64_t r_first = d->sentences[d->documents[ref_doc]];
    int64_t r_units = d->sentences[d->documents[ref_doc + 1]] - r_first - n + 1;
    if (p_units <= 0 || r_units <= 0)
        return 0;
    Py_ssize_t n_units = (Py_ssize_t)(p_units + r_units), n_slots = 64;
    while (n_slots < 2 * n_units)
        n_slots *= 2;
    if (reserve_units(g, n_units, n_slots) < 0)
        return -1;
    memset(g->slots, 0, sizeof *g->slots * (size_t)n_slots);
    int32_t n_kinds = 0, n_pred_kinds = 0;
    for (Py_ssize_t u = 0; u < n_units; u++) {
        int64_t at = u < p_units ? p_first + u : r_first + (u - p_units);
        uint64_t s = hash_ngram(ids + at, n) & (uint64_t)(n_slots - 1);
        while (g->slots[s] &&
               memcmp(ids + g->first[g->slots[s] - 1], ids + at, sizeof *ids * (size_t)n))
            s = (s + 1) & (uint64_t)(n_slots - 1);
        if (!g->slots[s]) {
            g->first[n_kinds] = at;
            g->next_ref[n_kinds] = -2;
            g->slots[s] = ++n_kinds;
        }
        g->units[u] = g->slots[s] - 1;
        if (u == p_units - 1)
            n_pred_kinds = n_kinds; /* the prediction's kinds are 0 .. n_pred_kinds - 1 */
    }
    /* the reference's words, and its kinds by first word */
    g->now = next_stamp(g->stamp, (size_t)(g->vocab ? g->vocab : 1), g->now);
    for (int64_t t = r_first; t < r_first + r_units + n - 1; t++) {
        word_entry(g, ids[t]);
        g->in_ref[ids[t]] = 1;
    }
    for (Py_ssize_t u = (Py_ssize_t)p_units; u < n_units; u++) {
        int32_t kind = g->units[u], word = ids[g->first[kind]];
        if (g->next_ref[kind] == -2) {
            g->next_ref[kind] = g->ref_head[word];
            g->ref_head[word] = kind;
        }
    }
    /* each prediction kind's matches among the reference's kinds, when one of its words has a
     * synonym there (else it matches only itself): those starting with its first word or a
     * synonym of it (j = the start - 1 stands for the word itself), the same or synonyms after */
    g->nbr.len = 0;
    for (int32_t kind = 0; kind < n_kinds; kind++) {
        g->nbr_at[kind] = g->nbr.len / 4;
        const int32_t *gram = ids + g->first[kind];
        int near = 0;
        for (int i = 0; i < n && !near && kind < n_pred_kinds; i++)
            near = near_reference(g, d, gram[i]);
        for (int64_t j = d->nbr_at[gram[0]] - 1; near && j < d->nbr_at[gram[0] + 1]; j++) {
            int32_t word = j < d->nbr_at[gram[0]] ? gram[0] : d->nbr[j];
            if (g->stamp[word] != g->now)
                continue; /* not in the reference */
            for (int32_t other = g->ref_head[word]; other >= 0; other = g->next_ref[other]) {
                const int32_t *match = ids + g->first[other];
                int fits = other != kind;
                for (int i = 1; i < n && fits; i++)
                    fits = gram[i] == match[i] || synonyms_of(d, gram[i], match[i]);
                if (fits && buffer_push_i32(&g->nbr, other) < 0)
                    return -1;
            }
        }
    }
    g->nbr_at[n_kinds] = g->nbr.len / 4;
    sentences[0] = 0, sentences[1] = p_units, sentences[2] = n_units;
    documents[0] = 0, documents[1] = 1, documents[2] = 2;
    *out = (Data){g->units, sentences, documents, g->nbr_at, (const int32_t *)g->nbr.data};
    return work_reserve_vocab(&g->work, n_kinds) < 0 ? -1 : 1;
}

PyDoc_STRVAR(synonym_gains_doc,
             "synonym_gains(ids, sentences, documents, pred_docs, ref_docs, neighbour_at,\n"
             "              neighbours, vocab_size, n) -> (bytearray, list)\n\n"
             "For every pair, what synonym matches add to the exact overlap of n-grams (int64),\n"
             "and the pairs left unsolved (a component the greedy matching cannot prove maximum).\n"
             "neighbour_at (int64, vocab_size + 1) and neighbours (int32): each id's synonyms.");

static PyObject *synonym_gains(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *o[7];
    Py_ssize_t vocab;
    int n;
    if (!PyArg_ParseTuple(args, "OOOOOOOni", &o[0], &o[1], &o[2], &o[3], &o[4], &o[5], &o[6],
                          &vocab, &n))
        return NULL;
    if (n < 1) {
        PyErr_SetString(PyExc_ValueError, "synonym_gains: n must be positive");
        return NULL;
    }
    static const Py_ssize_t item[7] = {4, 8, 8, 8, 8, 8, 4};
    static const char *names[7] = {"ids", "sentences", "documents", "pred_docs", "ref_docs",
                                   "neighbour_at", "neighbours"};
    Py_buffer b[7];
    int got = 0;
    PyObject *result = NULL, *unsolved_pairs = NULL, *gains = NULL;
    for (; got < 7; got++)
        if (get_buffer(o[got], &b[got], item[got], names[got]) < 0)
            goto release;
    Py_ssize_t n_ids = b[0].len / 4, n_sentences = b[1].len / 8, n_docs = b[2].len / 8 - 1;
    Py_ssize_t n_pairs = b[3].len / 8, n_nbr = b[6].len / 4;
    const int64_t *sentences = b[1].buf, *documents = b[2].buf, *pred = b[3].buf, *ref = b[4].buf;
    const int64_t *nbr_at = b[5].buf;
    const int32_t *ids = b[0].buf, *nbr = b[6].buf;
    /* check every index the loops will follow */
    int bad = vocab < 0 || b[4].len / 8 != n_pairs || b[5].len / 8 != vocab + 1 || n_docs < 0;
    for (Py_ssize_t i = 0; !bad && i < n_ids; i++)
        bad = ids[i] < 0 || ids[i] >= vocab;
    for (Py_ssize_t i = 0; !bad && i <= vocab; i++)
        bad = nbr_at[i] < (i ? nbr_at[i - 1] : 0) || nbr_at[i] > n_nbr;
    for (Py_ssize_t i = 0; !bad && i < n_nbr; i++)
        bad = nbr[i] < 0 || nbr[i] >= vocab;
    for (Py_ssize_t i = 0; !bad && i <= n_docs; i++)
        bad = documents[i] < 0 || documents[i] >= n_sentences || (i && documents[i] < documents[i - 1]);
    for (Py_ssize_t i = 0; !bad && i < n_sentences; i++)
        bad = sentences[i] < 0 || sentences[i] > n_ids || (i && sentences[i] < sentences[i - 1]);
    for (Py_ssize_t k = 0; !bad && k < n_pairs; k++)
        bad = pred[k] < 0 || pred[k] >= n_docs || ref[k] < 0 || ref[k] >= n_docs;
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "synonym_gains: inconsistent buffers");
        goto release;
    }
    gains = PyByteArray_FromStringAndSize(NULL, 8 * n_pairs);
    unsolved_pairs = PyList_New(0);
    if (!gains || !unsolved_pairs)
        goto release;
    int64_t *out = (int64_t *)PyByteArray_AS_STRING(gains);
    Data d = {ids, sentences, documents, nbr_at, nbr};
    Work w;
    NgramKinds g;
    int status = n == 1 ? work_init(&w, vocab) : ngram_kinds_init(&g, n, vocab);
    for (Py_ssize_t k = 0; status == 0 && k < n_pairs; k++) {
        int unsolved = 0;
        if (n == 1) {
            status = pair_gain(&w, &d, pred[k], ref[k], &out[k], &unsolved);
        } else {
            Data kinds;
            int64_t kind_sentences[3], kind_documents[3];
            out[k] = 0;
            status = ngram_pair(&g, &d, pred[k], ref[k], &kinds, kind_sentences, kind_documents);
            if (status == 1)
                status = pair_gain(&g.work, &kinds, 0, 1, &out[k], &unsolved);
        }
        if (status == 0 && unsolved) {
            out[k] = 0;
            PyObject *index = PyLong_FromSsize_t(k);
            if (!index || PyList_Append(unsolved_pairs, index) < 0)
                status = -2;
            Py_XDECREF(index);
        }
    }
    if (n == 1)
        work_free(&w);
    else
        ngram_kinds_free(&g);
    if (status == -1)
        PyErr_NoMemory();
    if (status == 0)
        result = Py_BuildValue("(OO)", gains, unsolved_pairs);
release:
    Py_XDECREF(gains);
    Py_XDECREF(unsolved_pairs);
    for (int i = 0; i < got; i++)
        PyBuffer_Release(&b[i]);
    return result;
}

PyDoc_STRVAR(neighbour_table_doc,
             "neighbour_table(keys) -> (bytes, bytes)\n\n"
             "keys: for each id, an iterable of hashable keys (two ids are synonyms when their\n"
             "keys meet). Returns the int64 offsets (len(keys) + 1) and the int32 ids of each id's\n"
             "synonyms: the other ids sharing a key with it, in the order they are first met.");

static PyObject *neighbour_table(PyObject *Py_UNUSED(module), PyObject *keys)
{
    PyObject *fast = PySequence_Fast(keys, "neighbour_table: keys must be a sequence");
    if (!fast)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    PyObject *group_of = PyDict_New(); /* key -> group number */
    PyObject *result = NULL;
    /* the memberships (id, group), id by id; the members each group has (int32 each) */
    Buffer member_id = {0}, member_group = {0}, group_size = {0}, out = {0};
    Py_ssize_t *id_start = malloc(sizeof(Py_ssize_t) * (size_t)(n + 1));
    int32_t *group_start = NULL, *group_members = NULL, *stamp = NULL;
    int64_t *at = NULL;
    if (!group_of || !id_start || buffer_reserve(&member_id, 0) < 0 ||
        buffer_reserve(&member_group, 0) < 0 || buffer_reserve(&group_size, 0) < 0 ||
        buffer_reserve(&out, 0) < 0)
        goto memory;
    for (Py_ssize_t i = 0; i < n; i++) {
        id_start[i] = member_id.len / 4;
        PyObject *iterator = PyObject_GetIter(PySequence_Fast_GET_ITEM(fast, i));
        if (!iterator)
            goto fail;
        PyObject *key;
        while ((key = PyIter_Next(iterator))) {
            PyObject *number = PyDict_GetItemWithError(group_of, key);
            Py_ssize_t g;
            if (number) {
                g = PyLong_AsSsize_t(number);
            } else if (PyErr_Occurred()) {
                g = -1;
            } else {
                g = group_size.len / 4; /* a new group */
                number = PyLong_FromSsize_t(g);
                if (!number || PyDict_SetItem(group_of, key, number) < 0)
                    g = -1;
                Py_XDECREF(number);
            }
            Py_DECREF(key);
            if (g > INT32_MAX || member_id.len / 4 >= INT32_MAX) {
                PyErr_SetString(PyExc_OverflowError, "neighbour_table: more than 2**31 keys");
                g = -1;
            }
            if (g < 0) {
                Py_DECREF(iterator);
                goto fail;
            }
            if ((g == group_size.len / 4 && buffer_push_i32(&group_size, 0) < 0) ||
                buffer_push_i32(&member_id, (int32_t)i) < 0 ||
                buffer_push_i32(&member_group, (int32_t)g) < 0) {
                Py_DECREF(iterator);
                goto memory;
            }
            ((int32_t *)group_size.data)[g]++;
        }
        Py_DECREF(iterator);
        if (PyErr_Occurred())
            goto fail;
    }
    Py_ssize_t used = member_id.len / 4, n_groups = group_size.len / 4;
    id_start[n] = used;
    const int32_t *ids = (const int32_t *)member_id.data;
    const int32_t *groups = (const int32_t *)member_group.data;
    int32_t *sizes = (int32_t *)group_size.data;
    /* the members of each group, in id order */
    group_start = malloc(sizeof(int32_t) * (size_t)(n_groups + 1));
    group_members = malloc(sizeof(int32_t) * (size_t)(used ? used : 1));
    stamp = malloc(sizeof(int32_t) * (size_t)(n ? n : 1));
    at = malloc(sizeof(int64_t) * (size_t)(n + 1));
    if (!group_start || !group_members || !stamp || !at)
        goto memory;
    group_start[0] = 0;
    for (Py_ssize_t g = 0; g < n_groups; g++)
        group_start[g + 1] = group_start[g] + sizes[g];
    memset(sizes, 0, sizeof(int32_t) * (size_t)n_groups);
    for (Py_ssize_t m = 0; m < used; m++) {
        int32_t g = groups[m];
        group_members[group_start[g] + sizes[g]++] = ids[m];
    }
    for (Py_ssize_t i = 0; i < n; i++)
        stamp[i] = -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        at[i] = out.len / 4;
        stamp[i] = (int32_t)i; /* not its own neighbour */
        for (Py_ssize_t m = id_start[i]; m < id_start[i + 1]; m++) {
            int32_t g = groups[m];
            for (int32_t j = group_start[g]; j < group_start[g + 1]; j++) {
                int32_t other = group_members[j];
                if (stamp[other] == (int32_t)i)
                    continue;
                stamp[other] = (int32_t)i;
                if (buffer_push_i32(&out, other) < 0)
                    goto memory;
            }
        }
    }
    at[n] = out.len / 4;
    result = Py_BuildValue("(y#y#)", (const char *)at, (Py_ssize_t)(8 * (n + 1)), out.data,
                           out.len);
    goto fail; /* release everything */
memory:
    PyErr_NoMemory();
fail:
    Py_DECREF(fast);
    Py_XDECREF(group_of);
    buffer_free(&member_id);
    buffer_free(&member_group);
    buffer_free(&group_size);
    buffer_free(&out);
    free(id_start);
    free(group_start);
    free(group_members);
    free(stamp);
    free(at);
    return result;
}

static PyMethodDef module_methods[] = {
    {"neighbour_table", neighbour_table, METH_O, neighbour_table_doc},
    {"synonym_gains", synonym_gains, METH_VARARGS, synonym_gains_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef synonyms_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "rouge_plus.scoring._synonyms",
    .m_doc = "The synonym matching of n-grams, compiled (see scoring/counting.py).",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__synonyms(void)
{
    if (init_hash_key() < 0) /* the n-gram kinds' table */
        return NULL;
    return PyModule_Create(&synonyms_module);
}
