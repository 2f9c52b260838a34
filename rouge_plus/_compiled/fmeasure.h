/*
 * Precision, recall and F from counts, as scoring/measures.py and scoring/fmeasure.py compute
 * them with NumPy, with the same floating-point operations in the same order (so the same bits):
 * precision = hit / pred_base and recall = hit / ref_base (0 where the base is 0), then F by one
 * of FMeasure's three forms (FMeasure.compiled_form gives the kind and its two constants).
 * Shared by the per-row reduction (scoring/_scores.c) and the one-pair scorer
 * (kernels/_native_pair.c).
 */
#ifndef ROUGE_PLUS_FMEASURE_H
#define ROUGE_PLUS_FMEASURE_H

enum { F_BETA1 = 0, F_ALPHA = 1, F_BETA = 2 };

typedef struct {
    int kind;
    double c1, c2; /* F_ALPHA: 1 - alpha, alpha; F_BETA: 1 + beta**2, beta**2 */
} FSpec;

static inline int fspec_valid(const FSpec *f) { return f->kind >= F_BETA1 && f->kind <= F_BETA; }

static inline double ratio(double numerator, double denominator)
{
    return denominator != 0 ? numerator / denominator : 0.0;
}

static inline double f_of(const FSpec *f, double p, double r)
{
    switch (f->kind) {
    case F_ALPHA: /* ROUGE-1.5.5: P*R / ((1 - alpha)*P + alpha*R) */
        return ratio(p * r, f->c1 * p + f->c2 * r);
    case F_BETA: /* (1 + beta2)*P*R / (beta2*P + R) */
        return ratio(f->c1 * p * r, f->c2 * p + r);
    default: /* rouge_score: 2*P*R / (P + R) */
        return ratio(2 * p * r, p + r);
    }
}

#endif
