/*
 * rouge_plus.kernels._native: the hot loops of rouge_plus, in C, as exact re-statements of the
 * pure-Python reference code. This file is the module and the counting's driver; the other files
 * of the module (_native.h says which) hold
 *   - Vocabulary.encode: texts to token ids (_native_vocabulary.c);
 *   - PairScorer: one pair per call, from two str to precision, recall and F (_native_pair.c);
 *   - the counting kernels, each the twin of a Python module of kernels/: kernels/ngram.py
 *     (clipped n-gram overlap), kernels/lcs.py (bit-parallel LCS of Allison-Dix/Hyyro, the
 *     traceback rouge_score walks, and the clipped summary-level union LCS),
 *     kernels/weighted_lcs.py (ROUGE-1.5.5's ROUGE-W, same floating-point operation order) and
 *     kernels/skip_bigram.py (ROUGE-1.5.5's ROUGE-S/SU).
 * count_pairs: for every (prediction, reference) document pair and every requested measure, the
 * hit count and the two bases (scoring/counting.py documents the contract). It runs without the
 * GIL, on buffers only, reference by reference, each pair rewritten in ids of its own (OwnIds),
 * so that per-word tables are as small as the pair.
 */
#include "_native.h"

#include <math.h>

/* The per-process keys of the vocabulary's hashes and of the kernels' tables (common.h). */
uint64_t hash_key[8];

/*
 * The most bytes one table of a pair may take (skip-bigram pairs, an LCS or ROUGE-W traceback)
 * before the kernels switch to a method that needs less memory and more time; the tests lower it
 * (_native._set_table_budget) to run those methods on small inputs.
 */
static Py_ssize_t table_budget = (Py_ssize_t)32 << 20;

/* One spare zeroed bigram table, kept between calls: zeroing 256 KiB for every call cost more than
 * scoring one pair. A workspace takes it (or allocates its own when another thread holds it) and
 * gives it back zeroed, as bigram_hits leaves it. */
static AtomicPointer spare_bigram_table = NULL;

static int32_t *take_bigram_table(void)
{
    int32_t *table = atomic_pointer_exchange(&spare_bigram_table, NULL);
    return table ? table : calloc(BIGRAM_TABLE_IDS * BIGRAM_TABLE_IDS, sizeof(int32_t));
}

static void give_back_bigram_table(int32_t *table)
{
    if (table && !atomic_pointer_fill(&spare_bigram_table, table))
        free(table);
}

static int workspace_init(Workspace *w, Py_ssize_t n_ids, Py_ssize_t budget)
{
    memset(w, 0, sizeof *w);
    w->table_budget = budget;
    size_t n = (size_t)(n_ids > 0 ? n_ids : 1);
    w->n_ids = n_ids;
    w->stamp = calloc(n, sizeof(uint32_t));
    w->value_a = malloc(n * sizeof(int32_t));
    w->value_b = malloc(n * sizeof(int32_t));
    w->left_ref = malloc(n * sizeof(int32_t));
    w->left_pred = malloc(n * sizeof(int32_t));
    /* Zeroed pages that stay untouched until used. */
    w->masks_by_id = calloc(n * MASK_DENSITY, sizeof(uint64_t));
    w->bigram_table = take_bigram_table();
    return (w->stamp && w->value_a && w->value_b && w->left_ref && w->left_pred &&
            w->masks_by_id && w->bigram_table)
               ? 0
               : -1;
}

static void workspace_free(Workspace *w)
{
    free(w->stamp);
    free(w->value_a);
    free(w->value_b);
    free(w->left_ref);
    free(w->left_pred);
    free(w->masks_by_id);
    give_back_bigram_table(w->bigram_table);
    buffer_free(&w->scratch_a);
    buffer_free(&w->scratch_b);
    buffer_free(&w->scratch_c);
    buffer_free(&w->scratch_d);
}

/* The counts of one measure for one pair. Not inlined: inside count_pairs' loop over the pairs
 * it costs the cheap kernels (ROUGE-1, -2, -L) about 5% more time (measured on the bench
 * corpus), the loop's registers being shared with it. */
NOINLINE static int count_one(Workspace *w, const Pair *p, MeasureSpec spec, double *hit,
                     double *pred_base, double *ref_base)
{
    int64_t n_pred, n_ref, hits = 0;
    const int32_t *pred = document_tokens(&p->texts, PRED_DOC, &n_pred);
    const int32_t *ref = document_tokens(&p->texts, REF_DOC, &n_ref);
    int status = 0;
    switch (spec.kind) {
    case KIND_NGRAM:
        if (spec.n == 1)
            hits = unigram_hits(w, p, pred, n_pred, 0);
        else if (spec.n == 2)
            status = bigram_hits(w, p, &hits);
        else
            status = ngram_hits(w, spec.n, pred, n_pred, ref, n_ref, &hits);
        *pred_base = (double)(n_pred - spec.n + 1 > 0 ? n_pred - spec.n + 1 : 0);
        *ref_base = (double)(n_ref - spec.n + 1 > 0 ? n_ref - spec.n + 1 : 0);
        break;
    case KIND_LCS:
        status = lcs_length(w, ref, n_ref, pred, n_pred, &hits);
        *pred_base = (double)n_pred;
        *ref_base = (double)n_ref;
        break;
    case KIND_SUMMARY_LCS:
        status = summary_lcs_hits(w, p, &hits);
        *pred_base = (double)n_pred;
        *ref_base = (double)n_ref;
        break;
    case KIND_WEIGHTED_LCS:
        return weighted_lcs_counts(w, p, spec.x, hit, pred_base, ref_base);
    case KIND_SKIP_BIGRAM:
        return skip_bigram_counts(w, p, spec.n, spec.x == 1.0, hit, pred_base, ref_base);
    default:
        return -2;
    }
    *hit = (double)hits;
    return status;
}

/*
 * A pair rewritten in ids of its own: the reference's words are numbered 0 .. k - 1 in order of
 * first appearance, and every prediction word absent from the reference becomes k (no hit can
 * involve it). Every kernel gives the same counts on these ids as on the vocabulary's, since a
 * hit always pairs equal words of both texts; but their per-word scratch then stays within the
 * first k + 1 entries, in cache, instead of spreading over the vocabulary. Pairs are visited
 * reference by reference, so a reference shared by several predictions is rewritten once.
 * Document 0 is the reference, document 1 the prediction.
 */
typedef struct {
    uint32_t *stamp; /* per vocabulary word: == current when the reference holds it */
    int32_t *id;     /* its own id, where stamped */
    uint32_t current;
    Py_ssize_t vocab_size;
    int32_t absent;         /* the id of prediction words the reference lacks */
    Py_ssize_t ref_tokens;  /* ids of the reference, at the start of ids */
    Py_ssize_t ref_offsets; /* its sentence offsets (with the leading 0), at the start of offsets */
    Buffer ids;             /* int32 */
    Buffer offsets;         /* int64 token offsets of sentences */
    Buffer ref_counts;      /* int32 occurrences of each id in the reference */
    int64_t documents[3];   /* sentence offsets of the two documents */
} OwnIds;

static int own_ids_init(OwnIds *o, Py_ssize_t vocab_size)
{
    memset(o, 0, sizeof *o);
    o->vocab_size = vocab_size;
    o->stamp = calloc((size_t)(vocab_size > 0 ? vocab_size : 1), sizeof(uint32_t));
    /* Zeroed: the rewriting of a prediction reads every word's entry, then keeps it or not. */
    o->id = calloc((size_t)(vocab_size > 0 ? vocab_size : 1), sizeof(int32_t));
    return o->stamp && o->id ? 0 : -1;
}

static void own_ids_free(OwnIds *o)
{
    free(o->stamp);
    free(o->id);
    buffer_free(&o->ids);
    buffer_free(&o->offsets);
    buffer_free(&o->ref_counts);
}

/* Room for document doc in o (and its reference counts when is_ref), and the document's first
 * and last token; -1 on memory error. */
static int own_ids_reserve(OwnIds *o, const Corpus *c, int64_t doc, int is_ref, int64_t *first,
                           int64_t *last)
{
    *first = c->sentences[c->documents[doc]];
    *last = c->sentences[c->documents[doc + 1]];
    int64_t n_sentences = c->documents[doc + 1] - c->documents[doc];
    return buffer_reserve(&o->ids, (Py_ssize_t)((*last - *first) * 4)) < 0 ||
                   buffer_reserve(&o->offsets, (Py_ssize_t)(n_sentences * 8)) < 0 ||
                   (is_ref &&
                    buffer_reserve(&o->ref_counts, (Py_ssize_t)((*last - *first + 1) * 4)) < 0)
               ? -1
               : 0;
}

/* Append the sentence offsets of document doc, whose tokens were just appended to o->ids. */
static void own_ids_close(OwnIds *o, const Corpus *c, int64_t doc, int64_t first, int64_t last)
{
    int64_t *ends = (int64_t *)(o->offsets.data + o->offsets.len);
    const int64_t base = o->ids.len / 4 - first;
    for (int64_t s = c->documents[doc]; s < c->documents[doc + 1]; s++)
        *ends++ = c->sentences[s + 1] + base;
    o->offsets.len += (Py_ssize_t)((c->documents[doc + 1] - c->documents[doc]) * 8);
    o->ids.len += (Py_ssize_t)((last - first) * 4);
}

/* Start a new reference: rewrite it, numbering its words, and count them; -1 on memory error,
 * COUNT_BAD_TOKEN on a token id outside the vocabulary. */
static int own_ids_set_reference(OwnIds *o, const Corpus *c, int64_t ref_doc)
{
    size_t n_stamps = (size_t)(o->vocab_size > 0 ? o->vocab_size : 1);
    o->current = next_stamp(o->stamp, n_stamps, o->current); /* one per reference */
    o->ids.len = 0;
    o->offsets.len = 0;
    int64_t first, last;
    if (buffer_push_i64(&o->offsets, 0) < 0 || own_ids_reserve(o, c, ref_doc, 1, &first, &last) < 0)
        return -1;
    int32_t *out = (int32_t *)o->ids.data, *counts = (int32_t *)o->ref_counts.data, k = 0;
    for (int64_t t = first; t < last; t++) {
        int32_t word = c->ids[t];
        if ((uint32_t)word >= (uint64_t)o->vocab_size)
            return COUNT_BAD_TOKEN;
        if (o->stamp[word] != o->current) {
            o->stamp[word] = o->current;
            o->id[word] = k;
            counts[k++] = 0;
        }
        counts[o->id[word]]++;
        *out++ = o->id[word];
    }
    counts[k] = 0;
    o->absent = k;
    own_ids_close(o, c, ref_doc, first, last);
    o->ref_tokens = o->ids.len;
    o->ref_offsets = o->offsets.len;
    o->documents[0] = 0;
    o->documents[1] = o->offsets.len / 8 - 1;
    return 0;
}

/* Rewrite a prediction against the current reference; -1 on memory error, COUNT_BAD_TOKEN on a
 * token id outside the vocabulary. */
static int own_ids_set_prediction(OwnIds *o, const Corpus *c, int64_t pred_doc)
{
    o->ids.len = o->ref_tokens;
    o->offsets.len = o->ref_offsets;
    int64_t first, last;
    if (own_ids_reserve(o, c, pred_doc, 0, &first, &last) < 0)
        return -1;
    /* In locals: the stores through out could otherwise alias them, and reload them. */
    const uint32_t *stamp = o->stamp, current = o->current;
    const int32_t *own_id = o->id, absent = o->absent, *ids = c->ids;
    const uint64_t vocab_size = (uint64_t)o->vocab_size;
    int32_t *out = (int32_t *)(o->ids.data + o->ids.len);
    for (int64_t t = first; t < last; t++) {
        int32_t word = ids[t];
        if ((uint32_t)word >= vocab_size)
            return COUNT_BAD_TOKEN;
        *out++ = stamp[word] == current ? own_id[word] : absent; /* no branch */
    }
    own_ids_close(o, c, pred_doc, first, last);
    o->documents[2] = o->offsets.len / 8 - 1;
    return 0;
}

/* A pair's reference and index, to sort by both (the index keeps the sort stable). */
typedef struct {
    int64_t ref;
    Py_ssize_t index;
} PairPlace;

static int compare_pair_places(const void *a, const void *b)
{
    const PairPlace *x = a, *y = b;
    if (x->ref != y->ref)
        return (x->ref > y->ref) - (x->ref < y->ref);
    return (x->index > y->index) - (x->index < y->index);
}

/* The pairs' indexes ordered by reference document (stable), or NULL on memory error. Its time
 * depends on the pairs only, not on the corpus, which may be far larger (a thresholded join
 * counts a few thousand pairs of a million documents at a time). */
static Py_ssize_t *pairs_by_reference(const int64_t *ref_docs, Py_ssize_t n_pairs)
{
    size_t n = (size_t)(n_pairs ? n_pairs : 1);
    Py_ssize_t *order = malloc(n * sizeof(Py_ssize_t));
    if (!order)
        return NULL;
    int in_order = 1;
    for (Py_ssize_t k = 0; k < n_pairs; k++) {
        order[k] = k;
        in_order = in_order && (k == 0 || ref_docs[k] >= ref_docs[k - 1]);
    }
    /* Already in order (one pair per reference in a batch, a tile's references): nothing to do. */
    if (in_order)
        return order;
    PairPlace *places = malloc(n * sizeof(PairPlace));
    if (!places) {
        free(order);
        return NULL;
    }
    for (Py_ssize_t k = 0; k < n_pairs; k++)
        places[k] = (PairPlace){ref_docs[k], k};
    qsort(places, (size_t)n_pairs, sizeof(PairPlace), compare_pair_places);
    for (Py_ssize_t k = 0; k < n_pairs; k++)
        order[k] = places[k].index;
    free(places);
    return order;
}

static int measure_spec_valid(MeasureSpec spec)
{
    switch (spec.kind) {
    case KIND_NGRAM:
        return spec.n >= 1;
    case KIND_LCS:
    case KIND_SUMMARY_LCS:
    case KIND_SKIP_BIGRAM: /* n < 0: no limit on the gap */
        return 1;
    case KIND_WEIGHTED_LCS: /* 0 ** weight must stay finite, as in Python */
        return spec.x > 0 && isfinite(spec.x);
    default:
        return 0;
    }
}

MeasureSpec *parse_measures(PyObject *measures, Py_ssize_t *n_measures)
{
    PyObject *fast = PySequence_Fast(measures, "measures must be a list");
    if (!fast)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    MeasureSpec *specs = calloc((size_t)(n ? n : 1), sizeof(MeasureSpec));
    if (!specs) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, k), "iid", &specs[k].kind, &specs[k].n,
                              &specs[k].x)) {
            free(specs);
            Py_DECREF(fast);
            return NULL;
        }
        if (!measure_spec_valid(specs[k])) {
            PyErr_Format(PyExc_ValueError, "measure %zd: unknown kind, or bad n or x", k);
            free(specs);
            Py_DECREF(fast);
            return NULL;
        }
    }
    Py_DECREF(fast);
    *n_measures = n;
    return specs;
}

int count_document_pairs(const Corpus *corpus, const int64_t *pred_docs,
                         const int64_t *ref_docs, Py_ssize_t n_pairs, const MeasureSpec *specs,
                         Py_ssize_t n_measures, Py_ssize_t vocab_size, double *out)
{
    Workspace w = {0};
    OwnIds own = {0};
    int status = 0;
    Py_ssize_t *order = pairs_by_reference(ref_docs, n_pairs);
    /* A pair's own ids number at most its reference's distinct words, plus one for the absent
     * ones: the per-word tables are sized by the longest reference, not the vocabulary. */
    int64_t most_words = 0;
    for (Py_ssize_t k = 0; k < n_pairs; k++) {
        int64_t n;
        document_tokens(corpus, ref_docs[k], &n);
        if (n > most_words)
            most_words = n;
    }
    if (most_words > vocab_size)
        most_words = vocab_size;
    if (!order || workspace_init(&w, (Py_ssize_t)most_words + 1, table_budget) < 0 ||
        own_ids_init(&own, vocab_size) < 0) {
        status = -1;
    } else {
        for (Py_ssize_t i = 0; i < n_pairs && status == 0; i++) {
            Py_ssize_t k = order[i];
            if (i == 0 || ref_docs[k] != ref_docs[order[i - 1]])
                status = own_ids_set_reference(&own, corpus, ref_docs[k]);
            if (status == 0)
                status = own_ids_set_prediction(&own, corpus, pred_docs[k]);
            if (status < 0)
                break;
            Pair pair = {{(const int32_t *)own.ids.data, (const int64_t *)own.offsets.data,
                          own.documents},
                         own.absent + 1,
                         (const int32_t *)own.ref_counts.data};
            for (Py_ssize_t m = 0; m < n_measures && status == 0; m++) {
                double *row = out + m * 3 * n_pairs;
                status = count_one(&w, &pair, specs[m], row + k, row + n_pairs + k,
                                   row + 2 * n_pairs + k);
            }
        }
    }
    free(order);
    workspace_free(&w);
    own_ids_free(&own);
    return status;
}

PyDoc_STRVAR(count_pairs_doc,
             "count_pairs(ids, sentences, documents, pred_docs, ref_docs, measures, vocab_size)\n\n"
             "ids: int32 token ids; sentences: int64 token offsets; documents: int64 sentence\n"
             "offsets; pred_docs, ref_docs: int64 document index of each pair; measures: list of\n"
             "(kind, n, x) with kind 0 = n-gram (n), 1 = LCS, 2 = summary-level LCS, 3 = weighted\n"
             "LCS (x = weight), 4 = skip-bigram (n = max gap or -1, x = 1.0 adds unigrams).\n"
             "Returns bytes of float64 shaped (len(measures), 3, n_pairs): hit, pred_base,\n"
             "ref_base.");

static PyObject *count_pairs(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *o_ids, *o_sent, *o_docs, *o_pred, *o_ref, *o_measures;
    Py_ssize_t vocab_size, n_measures = 0;
    if (!PyArg_ParseTuple(args, "OOOOOOn", &o_ids, &o_sent, &o_docs, &o_pred, &o_ref, &o_measures,
                          &vocab_size))
        return NULL;
    Py_buffer ids = {0}, sent = {0}, docs = {0}, pred = {0}, ref = {0};
    PyObject *result = NULL;
    MeasureSpec *specs = NULL;
    if (get_buffer(o_ids, &ids, 4, "ids") < 0)
        return NULL;
    if (get_buffer(o_sent, &sent, 8, "sentences") < 0)
        goto release;
    if (get_buffer(o_docs, &docs, 8, "documents") < 0)
        goto release;
    if (get_buffer(o_pred, &pred, 8, "pred_docs") < 0)
        goto release;
    if (get_buffer(o_ref, &ref, 8, "ref_docs") < 0)
        goto release;
    Py_ssize_t n_pairs = pred.len / 8;
    if (ref.len / 8 != n_pairs) {
        PyErr_SetString(PyExc_ValueError, "pred_docs and ref_docs differ in length");
        goto release;
    }
    if (vocab_size < 0 || vocab_size > INT32_MAX) { /* ids are int32; tables are sized by it */
        PyErr_SetString(PyExc_ValueError, "vocab_size out of range");
        goto release;
    }
    Py_ssize_t n_docs = docs.len / 8 - 1;
    const int64_t *pred_docs = pred.buf, *ref_docs = ref.buf;
    for (Py_ssize_t k = 0; k < n_pairs; k++) {
        if (pred_docs[k] < 0 || pred_docs[k] >= n_docs || ref_docs[k] < 0 || ref_docs[k] >= n_docs) {
            PyErr_Format(PyExc_IndexError, "pair %zd names a document out of range", k);
            goto release;
        }
    }
    specs = parse_measures(o_measures, &n_measures);
    if (!specs)
        goto release;
    result = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(n_measures * 3 * n_pairs * sizeof(double)));
    if (!result)
        goto release;
    Corpus corpus = {ids.buf, sent.buf, docs.buf};
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = count_document_pairs(&corpus, pred_docs, ref_docs, n_pairs, specs, n_measures,
                                  vocab_size, (double *)PyBytes_AS_STRING(result));
    Py_END_ALLOW_THREADS
    if (status < 0) {
        Py_CLEAR(result);
        if (status == COUNT_BAD_TOKEN)
            PyErr_SetString(PyExc_ValueError, "a document of a pair holds a token id out of range");
        else
            PyErr_NoMemory();
    }
release:
    free(specs);
    if (ids.obj)
        PyBuffer_Release(&ids);
    if (sent.obj)
        PyBuffer_Release(&sent);
    if (docs.obj)
        PyBuffer_Release(&docs);
    if (pred.obj)
        PyBuffer_Release(&pred);
    if (ref.obj)
        PyBuffer_Release(&ref);
    return result;
}

PyDoc_STRVAR(weaken_hash_doc,
             "_weaken_hash(flag) -> None\n\n"
             "For the tests only: with a true flag, Vocabularies created from now on hash every\n"
             "word to 0 until they fall back to SipHash-1-3 (all words collide at first).");

static PyObject *weaken_hash(PyObject *Py_UNUSED(module), PyObject *flag)
{
    int truth = PyObject_IsTrue(flag);
    if (truth < 0)
        return NULL;
    vocabulary_weaken_hash(truth);
    Py_RETURN_NONE;
}

PyDoc_STRVAR(set_table_budget_doc,
             "_set_table_budget(nbytes) -> previous\n\n"
             "The most bytes one table of a pair may take before count_pairs switches to a method\n"
             "that needs less memory (same results, more time). For the tests.");

static PyObject *set_table_budget(PyObject *Py_UNUSED(module), PyObject *arg)
{
    Py_ssize_t budget = PyNumber_AsSsize_t(arg, PyExc_OverflowError);
    if (budget == -1 && PyErr_Occurred())
        return NULL;
    if (budget < 0) {
        PyErr_SetString(PyExc_ValueError, "the budget must be >= 0");
        return NULL;
    }
    Py_ssize_t previous = table_budget;
    table_budget = budget;
    return PyLong_FromSsize_t(previous);
}

static PyMethodDef module_methods[] = {
    {"_set_table_budget", set_table_budget, METH_O, set_table_budget_doc},
    {"count_pairs", count_pairs, METH_VARARGS, count_pairs_doc},
    {"_weaken_hash", weaken_hash, METH_O, weaken_hash_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef native_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "rouge_plus.kernels._native",
    .m_doc = "Compiled kernels of rouge_plus (tokenizing ASCII text, counting overlaps).",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__native(void)
{
    if (init_hash_key() < 0)
        return NULL;
    if (PyType_Ready(&VocabularyType) < 0 || PyType_Ready(&PairScorerType) < 0)
        return NULL;
    PyObject *module = PyModule_Create(&native_module);
    if (!module)
        return NULL;
    if (PyModule_AddType(module, &VocabularyType) < 0 ||
        PyModule_AddType(module, &PairScorerType) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    if (PyModule_AddIntConstant(module, "KIND_NGRAM", KIND_NGRAM) < 0 ||
        PyModule_AddIntConstant(module, "KIND_LCS", KIND_LCS) < 0 ||
        PyModule_AddIntConstant(module, "KIND_SUMMARY_LCS", KIND_SUMMARY_LCS) < 0 ||
        PyModule_AddIntConstant(module, "KIND_WEIGHTED_LCS", KIND_WEIGHTED_LCS) < 0 ||
        PyModule_AddIntConstant(module, "KIND_SKIP_BIGRAM", KIND_SKIP_BIGRAM) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
