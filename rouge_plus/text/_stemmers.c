/*
 * rouge_plus.text._stemmers: the two Porter stemmers of rouge_plus, and the stem-id remap.
 *
 *   - porter_stem(word): NLTK's PorterStemmer().stem(word) in its default NLTK_EXTENSIONS mode,
 *     rule for rule as text/porter.py restates it (rouge_score's stemmer); rouge_score_stem(token)
 *     applies it as rouge_score does, to tokens longer than 3 characters only.
 *   - porter_original(word): Porter's original algorithm as ROUGE-1.5.5 embeds it, as
 *     rouge155/porter_original.py computes it with regular expressions: the measure and *o
 *     patterns are evaluated here by simulating the same patterns over all positions at once,
 *     so every backtracking choice of the regular expressions is covered. Returns None for a
 *     word holding "\n" (where "$" of a Python pattern may match before the newline), which the
 *     caller then stems in Python.
 *   - number_stems(stems) and remap_ids(ids, table): word ids to stem ids, stems numbered in
 *     the order they first appear.
 *
 * Both stemmers work on the word's code points, so any str (any script, lone surrogates) is
 * stemmed as the Python code does: only a/e/i/o/u/y and a few ASCII letters are special, every
 * other code point is a consonant. NLTK lowercases with str.lower, which this calls for a
 * non-ASCII word. The tests compare both with their Python twins and porter_stem with NLTK.
 */
#include "../_compiled/common.h"

#include "../_compiled/ascii_words.h"

/* A word being stemmed: code points with room to grow at the end. */
typedef struct {
    Py_UCS4 *c;
    Py_ssize_t n;
} Word;

#define STACK_LETTERS 64
#define SLACK 8 /* the most any rule adds to a word is 2 code points; steps never grow it twice */

static inline int is_vowel(Py_UCS4 ch)
{
    return ch == 'a' || ch == 'e' || ch == 'i' || ch == 'o' || ch == 'u';
}

static int ends(const Word *w, const char *suffix)
{
    Py_ssize_t k = (Py_ssize_t)strlen(suffix);
    if (k > w->n)
        return 0;
    const Py_UCS4 *tail = w->c + w->n - k;
    for (Py_ssize_t i = 0; i < k; i++)
        if (tail[i] != (Py_UCS4)(unsigned char)suffix[i])
            return 0;
    return 1;
}

/* Replace the last `drop` code points by the ASCII string `add`. */
static void replace_end(Word *w, Py_ssize_t drop, const char *add)
{
    w->n -= drop;
    for (; *add; add++)
        w->c[w->n++] = (Py_UCS4)(unsigned char)*add;
}

/* ------------------------------------------------------------------ NLTK's Porter */

/* Consonant flag of the next letter given the previous flag (NLTK's _consonant_flags). */
static inline int next_consonant(Py_UCS4 ch, Py_ssize_t i, int previous)
{
    if (is_vowel(ch))
        return 0;
    if (ch == 'y')
        return i == 0 ? 1 : !previous;
    return 1;
}

static int consonant_at(const Py_UCS4 *c, Py_ssize_t i)
{
    int flag = 0;
    for (Py_ssize_t k = 0; k <= i; k++)
        flag = next_consonant(c[k], k, flag);
    return flag;
}

/* Porter's m of c[0:n]: vowel-to-consonant transitions. */
static Py_ssize_t measure(const Py_UCS4 *c, Py_ssize_t n)
{
    Py_ssize_t m = 0;
    int flag = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        int next = next_consonant(c[k], k, flag);
        if (k > 0 && next && !flag)
            m++;
        flag = next;
    }
    return m;
}

static int contains_vowel(const Py_UCS4 *c, Py_ssize_t n)
{
    int flag = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        flag = next_consonant(c[k], k, flag);
        if (!flag)
            return 1;
    }
    return 0;
}

static int ends_double_consonant(const Py_UCS4 *c, Py_ssize_t n)
{
    return n >= 2 && c[n - 1] == c[n - 2] && consonant_at(c, n - 1);
}

static int ends_cvc(const Py_UCS4 *c, Py_ssize_t n)
{
    if (n >= 3) {
        int c3 = consonant_at(c, n - 3);
        int c2 = next_consonant(c[n - 2], n - 2, c3);
        int c1 = next_consonant(c[n - 1], n - 1, c2);
        Py_UCS4 last = c[n - 1];
        if (c3 && !c2 && c1 && last != 'w' && last != 'x' && last != 'y')
            return 1;
    }
    return n == 2 && !consonant_at(c, 0) && consonant_at(c, 1);
}

/* Conditions of the rule tables, on the word and the length of its stem. */
enum {
    ALWAYS,
    M_ABOVE_0, /* m(stem) > 0 */
    M_ABOVE_1, /* m(stem) > 1 */
    ION,       /* m(stem) > 1 and the stem ends in s or t */
    LOGI,      /* m(word minus "ogi") > 0 */
};

typedef struct {
    const char *suffix;
    const char *replacement;
    int condition;
} Rule;

static int holds(const Word *w, Py_ssize_t stem, int condition)
{
    switch (condition) {
    case M_ABOVE_0:
        return measure(w->c, stem) > 0;
    case M_ABOVE_1:
        return measure(w->c, stem) > 1;
    case ION:
        return measure(w->c, stem) > 1 && (w->c[stem - 1] == 's' || w->c[stem - 1] == 't');
    case LOGI:
        return measure(w->c, w->n - 3) > 0;
    default:
        return 1;
    }
}

/* NLTK's _apply_rule_list for tables without "*d" or "": the first matching suffix decides. */
static void apply_rules(Word *w, const Rule *rules, size_t n_rules)
{
    for (size_t r = 0; r < n_rules; r++) {
        if (!ends(w, rules[r].suffix))
            continue;
        Py_ssize_t stem = w->n - (Py_ssize_t)strlen(rules[r].suffix);
        if (holds(w, stem, rules[r].condition))
            replace_end(w, w->n - stem, rules[r].replacement);
        return;
    }
}

static void step1a(Word *w)
{
    static const Rule rules[] = {
        {"sses", "ss", ALWAYS}, {"ies", "i", ALWAYS}, {"ss", "ss", ALWAYS}, {"s", "", ALWAYS}};
    if (w->n == 4 && ends(w, "ies")) {
        replace_end(w, 3, "ie");
        return;
    }
    apply_rules(w, rules, sizeof rules / sizeof *rules);
}

static void step1b(Word *w)
{
    if (ends(w, "ied")) {
        replace_end(w, 3, w->n == 4 ? "ie" : "i");
        return;
    }
    if (ends(w, "eed")) {
        if (measure(w->c, w->n - 3) > 0)
            replace_end(w, 3, "ee");
        return;
    }
    Py_ssize_t stem;
    if (ends(w, "ed") && contains_vowel(w->c, w->n - 2))
        stem = w->n - 2;
    else if (ends(w, "ing") && contains_vowel(w->c, w->n - 3))
        stem = w->n - 3;
    else
        return;
    w->n = stem; /* the intermediate stem, never empty: it holds a vowel */
    static const Rule first[] = {{"at", "ate", ALWAYS}, {"bl", "ble", ALWAYS}, {"iz", "ize", ALWAYS}};
    for (size_t r = 0; r < sizeof first / sizeof *first; r++) {
        if (ends(w, first[r].suffix)) {
            replace_end(w, 2, first[r].replacement);
            return;
        }
    }
    /* NLTK's ("*d", last letter, last letter not in l/s/z): a double consonant, or a word that
     * literally ends in "*d" (then the last letter is "d" and the rule always applies). */
    Py_UCS4 last = w->c[w->n - 1];
    if (ends_double_consonant(w->c, w->n)) {
        if (last != 'l' && last != 's' && last != 'z')
            w->n -= 1; /* stem[:-2] + last letter */
        return;
    }
    if (ends(w, "*d")) {
        w->c[w->n - 2] = last;
        w->n -= 1;
        return;
    }
    /* ("", "e", m == 1 and *o) */
    if (measure(w->c, w->n) == 1 && ends_cvc(w->c, w->n))
        replace_end(w, 0, "e");
}

static void step1c(Word *w)
{
    if (ends(w, "y") && w->n - 1 > 1 && consonant_at(w->c, w->n - 2))
        w->c[w->n - 1] = 'i';
}

static void step2(Word *w)
{
    static const Rule rules[] = {
        {"ational", "ate", M_ABOVE_0}, {"tional", "tion", M_ABOVE_0}, {"enci", "ence", M_ABOVE_0},
        {"anci", "ance", M_ABOVE_0},   {"izer", "ize", M_ABOVE_0},    {"bli", "ble", M_ABOVE_0},
        {"alli", "al", M_ABOVE_0},     {"entli", "ent", M_ABOVE_0},   {"eli", "e", M_ABOVE_0},
        {"ousli", "ous", M_ABOVE_0},   {"ization", "ize", M_ABOVE_0}, {"ation", "ate", M_ABOVE_0},
        {"ator", "ate", M_ABOVE_0},    {"alism", "al", M_ABOVE_0},    {"iveness", "ive", M_ABOVE_0},
        {"fulness", "ful", M_ABOVE_0}, {"ousness", "ous", M_ABOVE_0}, {"aliti", "al", M_ABOVE_0},
        {"iviti", "ive", M_ABOVE_0},   {"biliti", "ble", M_ABOVE_0},  {"fulli", "ful", M_ABOVE_0},
        {"logi", "log", LOGI}};
    /* NLTK: "-alli" with m > 0 becomes "-al" and step 2 starts again (the new word ends in
     * "al", so this happens at most once). */
    while (ends(w, "alli") && measure(w->c, w->n - 4) > 0)
        replace_end(w, 4, "al");
    apply_rules(w, rules, sizeof rules / sizeof *rules);
}

static void step3(Word *w)
{
    static const Rule rules[] = {
        {"icate", "ic", M_ABOVE_0}, {"ative", "", M_ABOVE_0}, {"alize", "al", M_ABOVE_0},
        {"iciti", "ic", M_ABOVE_0}, {"ical", "ic", M_ABOVE_0}, {"ful", "", M_ABOVE_0},
        {"ness", "", M_ABOVE_0}};
    apply_rules(w, rules, sizeof rules / sizeof *rules);
}

static void step4(Word *w)
{
    static const Rule rules[] = {
        {"al", "", M_ABOVE_1},   {"ance", "", M_ABOVE_1}, {"ence", "", M_ABOVE_1},
        {"er", "", M_ABOVE_1},   {"ic", "", M_ABOVE_1},   {"able", "", M_ABOVE_1},
        {"ible", "", M_ABOVE_1}, {"ant", "", M_ABOVE_1},  {"ement", "", M_ABOVE_1},
        {"ment", "", M_ABOVE_1}, {"ent", "", M_ABOVE_1},  {"ion", "", ION},
        {"ou", "", M_ABOVE_1},   {"ism", "", M_ABOVE_1},  {"ate", "", M_ABOVE_1},
        {"iti", "", M_ABOVE_1},  {"ous", "", M_ABOVE_1},  {"ive", "", M_ABOVE_1},
        {"ize", "", M_ABOVE_1}};
    apply_rules(w, rules, sizeof rules / sizeof *rules);
}

static void step5(Word *w)
{
    if (ends(w, "e")) {
        Py_ssize_t m = measure(w->c, w->n - 1);
        if (m > 1 || (m == 1 && !ends_cvc(w->c, w->n - 1)))
            w->n -= 1;
    }
    if (ends(w, "ll") && measure(w->c, w->n - 1) > 1)
        w->n -= 1;
}

/* NLTK's irregular forms, looked up on the lowercased word before any rule. */
static const char *const IRREGULAR[][2] = {
    {"sky", "sky"},           {"skies", "sky"},     {"dying", "die"},
    {"lying", "lie"},         {"tying", "tie"},     {"news", "news"},
    {"innings", "inning"},    {"inning", "inning"}, {"outings", "outing"},
    {"outing", "outing"},     {"cannings", "canning"}, {"canning", "canning"},
    {"howe", "howe"},         {"proceed", "proceed"}, {"exceed", "exceed"},
    {"succeed", "succeed"}};

static const char *irregular_stem(const Word *w)
{
    for (size_t i = 0; i < sizeof IRREGULAR / sizeof *IRREGULAR; i++) {
        const char *form = IRREGULAR[i][0];
        if ((Py_ssize_t)strlen(form) == w->n && ends(w, form))
            return IRREGULAR[i][1];
    }
    return NULL;
}

static void nltk_porter(Word *w)
{
    step1a(w);
    step1b(w);
    step1c(w);
    step2(w);
    step3(w);
    step4(w);
    step5(w);
}

/* ------------------------------------------------------------------ ROUGE-1.5.5's Porter */

/*
 * The regular expressions of porter_original.py are sequences of atoms "one letter of class X,
 * then any number of class Y" (Y may be empty), some optional. Which end positions a sequence
 * can reach from the start is computed for all positions at once: reach[j] says that the atoms
 * so far can match word[0:j].
 */
typedef int (*LetterClass)(Py_UCS4);

static int not_aeiou(Py_UCS4 ch) { return !is_vowel(ch); }
static int not_aeiouy(Py_UCS4 ch) { return !is_vowel(ch) && ch != 'y'; }
static int aeiouy(Py_UCS4 ch) { return is_vowel(ch) || ch == 'y'; }
static int aeiou(Py_UCS4 ch) { return is_vowel(ch); }
static int nothing(Py_UCS4 ch)
{
    (void)ch;
    return 0;
}
static int not_aeiouwxy(Py_UCS4 ch)
{
    return !is_vowel(ch) && ch != 'w' && ch != 'x' && ch != 'y';
}

typedef struct {
    LetterClass first, rest;
    int optional;
} Atom;

/* C = [^aeiou][^aeiouy]*, V = [aeiouy][aeiou]* (porter_original._CONSONANTS, _VOWELS). */
#define C_ATOM {not_aeiou, not_aeiouy, 0}
#define C_OPTIONAL {not_aeiou, not_aeiouy, 1}
#define V_ATOM {aeiouy, aeiou, 0}
#define V_OPTIONAL {aeiouy, aeiou, 1}

static const Atom M_ABOVE_0_ATOMS[] = {C_OPTIONAL, V_ATOM, C_ATOM};      /* ^(C)?VC */
static const Atom M_EQUALS_1_ATOMS[] = {C_OPTIONAL, V_ATOM, C_ATOM, V_OPTIONAL}; /* ^(C)?VC(V)?$ */
static const Atom M_ABOVE_1_ATOMS[] = {C_OPTIONAL, V_ATOM, C_ATOM, V_ATOM, C_ATOM}; /* ^(C)?VCVC */
static const Atom HAS_VOWEL_ATOMS[] = {C_OPTIONAL, {aeiouy, nothing, 0}};  /* ^(C)?[aeiouy] */
static const Atom SHORT_CVC_ATOMS[] = {C_ATOM, {aeiouy, nothing, 0}, {not_aeiouwxy, nothing, 0}};

/*
 * Whether the atoms match word[0:n] from its start: at its end (anchored, "$") or anywhere
 * (a search). `reach` and `next` are scratch arrays of n + 1 flags.
 */
static int atoms_match(const Py_UCS4 *c, Py_ssize_t n, const Atom *atoms, size_t n_atoms,
                       int anchored, unsigned char *reach, unsigned char *next)
{
    memset(reach, 0, (size_t)n + 1);
    reach[0] = 1;
    for (size_t a = 0; a < n_atoms; a++) {
        next[0] = 0;
        for (Py_ssize_t j = 0; j < n; j++) /* next[j + 1]: an atom ends after c[j] */
            next[j + 1] = (reach[j] && atoms[a].first(c[j])) || (next[j] && atoms[a].rest(c[j]));
        for (Py_ssize_t j = 0; j <= n; j++)
            reach[j] = atoms[a].optional ? (reach[j] | next[j]) : next[j];
    }
    if (anchored)
        return reach[n];
    for (Py_ssize_t j = 0; j <= n; j++)
        if (reach[j])
            return 1;
    return 0;
}

typedef struct {
    unsigned char *reach, *next;
} Scratch;

#define MATCH(c, n, atoms, anchored, s)                                                         \
    atoms_match((c), (n), (atoms), sizeof(atoms) / sizeof *(atoms), (anchored), (s)->reach,   \
                (s)->next)

/* The longest of `suffixes` that ends the word (the leftmost match of "(a|b|...)$"), or -1. */
static int longest_suffix(const Word *w, const char *const *suffixes, size_t n_suffixes)
{
    int best = -1;
    size_t best_length = 0;
    for (size_t i = 0; i < n_suffixes; i++) {
        size_t length = strlen(suffixes[i]);
        if ((best < 0 || length > best_length) && ends(w, suffixes[i])) {
            best = (int)i;
            best_length = length;
        }
    }
    return best;
}

static void original_step1(Word *w, Scratch *s)
{
    if (ends(w, "sses") || ends(w, "ies"))
        w->n -= 2;
    else if (w->n >= 2 && w->c[w->n - 1] == 's' && w->c[w->n - 2] != 's')
        w->n -= 1;

    if (ends(w, "eed")) {
        if (MATCH(w->c, w->n - 3, M_ABOVE_0_ATOMS, 0, s))
            w->n -= 1;
    } else if (ends(w, "ed") || ends(w, "ing")) {
        Py_ssize_t stem = w->n - (ends(w, "ed") ? 2 : 3);
        if (MATCH(w->c, stem, HAS_VOWEL_ATOMS, 0, s)) {
            w->n = stem;
            if (ends(w, "at") || ends(w, "bl") || ends(w, "iz")) {
                replace_end(w, 0, "e");
            } else if (w->n >= 2 && w->c[w->n - 1] == w->c[w->n - 2] &&
                       !aeiouy(w->c[w->n - 1]) && w->c[w->n - 1] != 'l' &&
                       w->c[w->n - 1] != 's' && w->c[w->n - 1] != 'z') {
                w->n -= 1;
            } else if (MATCH(w->c, w->n, SHORT_CVC_ATOMS, 1, s)) {
                replace_end(w, 0, "e");
            }
        }
    }

    if (ends(w, "y") && MATCH(w->c, w->n - 1, HAS_VOWEL_ATOMS, 0, s))
        w->c[w->n - 1] = 'i';
}

static void original_replace(Word *w, Scratch *s, const char *const (*table)[2], size_t n)
{
    int best = -1;
    size_t best_length = 0;
    for (size_t i = 0; i < n; i++) {
        size_t length = strlen(table[i][0]);
        if ((best < 0 || length > best_length) && ends(w, table[i][0])) {
            best = (int)i;
            best_length = length;
        }
    }
    if (best < 0)
        return;
    Py_ssize_t stem = w->n - (Py_ssize_t)best_length;
    if (MATCH(w->c, stem, M_ABOVE_0_ATOMS, 0, s))
        replace_end(w, (Py_ssize_t)best_length, table[best][1]);
}

static const char *const STEP2_TABLE[][2] = {
    {"ational", "ate"}, {"tional", "tion"}, {"enci", "ence"},   {"anci", "ance"},
    {"izer", "ize"},    {"bli", "ble"},     {"alli", "al"},     {"entli", "ent"},
    {"eli", "e"},       {"ousli", "ous"},   {"ization", "ize"}, {"ation", "ate"},
    {"ator", "ate"},    {"alism", "al"},    {"iveness", "ive"}, {"fulness", "ful"},
    {"ousness", "ous"}, {"aliti", "al"},    {"iviti", "ive"},   {"biliti", "ble"},
    {"logi", "log"}};
static const char *const STEP3_TABLE[][2] = {
    {"icate", "ic"}, {"ative", ""}, {"alize", "al"}, {"iciti", "ic"},
    {"ical", "ic"},  {"ful", ""},   {"ness", ""}};
static const char *const STEP4_FIRST[] = {"al",   "ance", "ence", "er",  "ic",  "able",
                                          "ible", "ant",  "ement", "ou", "ism", "ate",
                                          "iti",  "ous",  "ive",  "ize"};

/* Drop the suffix (index `which` of a match, or a fixed one) when m(stem) > 1. */
static void drop_if_m_above_1(Word *w, Scratch *s, Py_ssize_t suffix_length)
{
    if (MATCH(w->c, w->n - suffix_length, M_ABOVE_1_ATOMS, 0, s))
        w->n -= suffix_length;
}

static void original_step4(Word *w, Scratch *s)
{
    int first = longest_suffix(w, STEP4_FIRST, sizeof STEP4_FIRST / sizeof *STEP4_FIRST);
    if (first >= 0)
        drop_if_m_above_1(w, s, (Py_ssize_t)strlen(STEP4_FIRST[first]));
    if (ends(w, "ment"))
        drop_if_m_above_1(w, s, 4);
    if (ends(w, "ent"))
        drop_if_m_above_1(w, s, 3);
    else if (ends(w, "sion") || ends(w, "tion"))
        drop_if_m_above_1(w, s, 3);
}

static void original_step5(Word *w, Scratch *s)
{
    if (ends(w, "e")) {
        Py_ssize_t stem = w->n - 1;
        if (MATCH(w->c, stem, M_ABOVE_1_ATOMS, 0, s) ||
            (MATCH(w->c, stem, M_EQUALS_1_ATOMS, 1, s) && !MATCH(w->c, stem, SHORT_CVC_ATOMS, 1, s)))
            w->n = stem;
    }
    if (ends(w, "ll") && MATCH(w->c, w->n, M_ABOVE_1_ATOMS, 0, s))
        w->n -= 1;
}

static void original_porter(Word *w, Scratch *s)
{
    int initial_y = w->c[0] == 'y'; /* a consonant: upper-cased so no pattern takes it for a vowel */
    if (initial_y)
        w->c[0] = 'Y';
    original_step1(w, s);
    original_replace(w, s, STEP2_TABLE, sizeof STEP2_TABLE / sizeof *STEP2_TABLE);
    original_replace(w, s, STEP3_TABLE, sizeof STEP3_TABLE / sizeof *STEP3_TABLE);
    original_step4(w, s);
    original_step5(w, s);
    if (initial_y)
        w->c[0] = 'y';
}

/* ------------------------------------------------------------------ Python interface */

/* The code points of `text` into a buffer with SLACK spare places: `stack` when it fits. */
static Py_UCS4 *letters_of(PyObject *text, Py_UCS4 *stack, Py_ssize_t *n)
{
    *n = PyUnicode_GET_LENGTH(text);
    Py_UCS4 *buffer = stack;
    if (*n + SLACK > STACK_LETTERS) {
        buffer = PyMem_Malloc(sizeof(Py_UCS4) * (size_t)(*n + SLACK));
        if (!buffer) {
            PyErr_NoMemory();
            return NULL;
        }
    }
    if (!PyUnicode_AsUCS4(text, buffer, *n + SLACK, 0)) {
        if (buffer != stack)
            PyMem_Free(buffer);
        return NULL;
    }
    return buffer;
}

static PyObject *word_str(const Word *w)
{
    return PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, w->c, w->n);
}

PyDoc_STRVAR(porter_stem_doc,
             "porter_stem(word) -> str\n\n"
             "nltk.stem.porter.PorterStemmer().stem(word) (NLTK_EXTENSIONS mode).");

static PyObject *porter_stem(PyObject *Py_UNUSED(module), PyObject *word)
{
    if (!PyUnicode_Check(word)) {
        PyErr_SetString(PyExc_TypeError, "porter_stem: word must be a str");
        return NULL;
    }
    Py_ssize_t original_length = PyUnicode_GET_LENGTH(word);
    PyObject *lowered;
    if (PyUnicode_IS_ASCII(word)) {
        lowered = word; /* lowercased below, letter by letter */
        Py_INCREF(lowered);
    } else {
        lowered = PyObject_CallMethod(word, "lower", NULL);
        if (!lowered)
            return NULL;
        if (!PyUnicode_Check(lowered)) {
            PyErr_Format(PyExc_TypeError, "porter_stem: lower() gave a %.50s, not a str",
                         Py_TYPE(lowered)->tp_name);
            Py_DECREF(lowered);
            return NULL;
        }
    }
    Py_UCS4 stack[STACK_LETTERS];
    Word w;
    w.c = letters_of(lowered, stack, &w.n);
    Py_DECREF(lowered);
    if (!w.c)
        return NULL;
    if (PyUnicode_IS_ASCII(word))
        for (Py_ssize_t i = 0; i < w.n; i++)
            w.c[i] = ascii_lower(w.c[i]);
    PyObject *result;
    const char *irregular = irregular_stem(&w);
    if (irregular) {
        result = PyUnicode_FromString(irregular);
    } else {
        if (original_length > 2)
            nltk_porter(&w);
        result = word_str(&w);
    }
    if (w.c != stack)
        PyMem_Free(w.c);
    return result;
}

PyDoc_STRVAR(rouge_score_stem_doc,
             "rouge_score_stem(token) -> str\n\n"
             "porter_stem(token) for a token longer than 3 characters, else the token itself.");

static PyObject *rouge_score_stem(PyObject *module, PyObject *token)
{
    if (PyUnicode_Check(token) && PyUnicode_GET_LENGTH(token) <= 3) {
        Py_INCREF(token);
        return token;
    }
    return porter_stem(module, token);
}

PyDoc_STRVAR(porter_original_doc,
             "porter_original(word) -> str | None\n\n"
             "rouge155.porter_original.stem(word), or None for a word holding a newline.");

static PyObject *porter_original(PyObject *Py_UNUSED(module), PyObject *word)
{
    if (!PyUnicode_Check(word)) {
        PyErr_SetString(PyExc_TypeError, "porter_original: word must be a str");
        return NULL;
    }
    Py_ssize_t n = PyUnicode_GET_LENGTH(word);
    if (n < 3) {
        Py_INCREF(word);
        return word;
    }
    Py_UCS4 stack[STACK_LETTERS];
    unsigned char flags[2 * (STACK_LETTERS + 1)];
    Word w;
    w.c = letters_of(word, stack, &w.n);
    if (!w.c)
        return NULL;
    PyObject *result = NULL;
    Scratch s = {flags, flags + STACK_LETTERS + 1};
    if (w.n + SLACK > STACK_LETTERS) {
        s.reach = PyMem_Malloc(2 * ((size_t)w.n + SLACK + 1));
        if (!s.reach) {
            PyErr_NoMemory();
            goto done;
        }
        s.next = s.reach + w.n + SLACK + 1;
    }
    for (Py_ssize_t i = 0; i < w.n; i++) {
        if (w.c[i] == '\n') {
            result = Py_None;
            Py_INCREF(result);
            goto done;
        }
    }
    original_porter(&w, &s);
    result = word_str(&w);
done:
    if (s.reach != flags)
        PyMem_Free(s.reach);
    if (w.c != stack)
        PyMem_Free(w.c);
    return result;
}

PyDoc_STRVAR(remap_ids_doc,
             "remap_ids(ids, table) -> bytearray\n\n"
             "table[ids] for int32 buffers: each id replaced by its entry in table.");

static PyObject *remap_ids(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "remap_ids(ids, table) takes two buffers");
        return NULL;
    }
    Py_buffer ids, table;
    if (get_buffer(args[0], &ids, 4, "remap_ids: ids") < 0)
        return NULL;
    if (get_buffer(args[1], &table, 4, "remap_ids: table") < 0) {
        PyBuffer_Release(&ids);
        return NULL;
    }
    PyObject *result = NULL;
    Py_ssize_t n = ids.len / 4, size = table.len / 4;
    const int32_t *in = ids.buf, *map = table.buf;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (in[i] < 0 || in[i] >= size) {
            PyErr_Format(PyExc_IndexError, "remap_ids: id %d is outside the table", in[i]);
            goto release;
        }
    }
    result = PyByteArray_FromStringAndSize(NULL, ids.len);
    if (!result)
        goto release;
    int32_t *out = (int32_t *)PyByteArray_AS_STRING(result);
    for (Py_ssize_t i = 0; i < n; i++)
        out[i] = map[in[i]];
release:
    PyBuffer_Release(&ids);
    PyBuffer_Release(&table);
    return result;
}

PyDoc_STRVAR(number_stems_doc,
             "number_stems(stems) -> (bytearray, int)\n\n"
             "For a list of str (the stem of each word, by word id): the int32 id of each word's\n"
             "stem, stems numbered in the order they first appear, and how many there are.");

static PyObject *number_stems(PyObject *Py_UNUSED(module), PyObject *stems)
{
    if (!PyList_Check(stems)) {
        PyErr_SetString(PyExc_TypeError, "number_stems: stems must be a list");
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(stems);
    PyObject *numbers = PyDict_New();
    PyObject *table = numbers ? PyByteArray_FromStringAndSize(NULL, 4 * n) : NULL;
    if (!table) {
        Py_XDECREF(numbers);
        return NULL;
    }
    int32_t *out = (int32_t *)PyByteArray_AS_STRING(table);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *stem = PyList_GET_ITEM(stems, i);
        PyObject *number = PyDict_GetItemWithError(numbers, stem);
        if (!number) {
            if (PyErr_Occurred() || PyDict_Size(numbers) >= INT32_MAX)
                goto fail;
            number = PyLong_FromSsize_t(PyDict_GET_SIZE(numbers));
            if (!number || PyDict_SetItem(numbers, stem, number) < 0) {
                Py_XDECREF(number);
                goto fail;
            }
            Py_DECREF(number); /* the dict holds it */
        }
        out[i] = (int32_t)PyLong_AsLong(number);
    }
    Py_ssize_t count = PyDict_GET_SIZE(numbers);
    Py_DECREF(numbers);
    return Py_BuildValue("(Nn)", table, count);
fail:
    Py_DECREF(numbers);
    Py_DECREF(table);
    return NULL;
}

static PyMethodDef module_methods[] = {
    {"porter_stem", porter_stem, METH_O, porter_stem_doc},
    {"rouge_score_stem", rouge_score_stem, METH_O, rouge_score_stem_doc},
    {"porter_original", porter_original, METH_O, porter_original_doc},
    {"number_stems", number_stems, METH_O, number_stems_doc},
    {"remap_ids", (PyCFunction)(void (*)(void))remap_ids, METH_FASTCALL, remap_ids_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef stemmers_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "rouge_plus.text._stemmers",
    .m_doc = "Compiled Porter stemmers (NLTK's and ROUGE-1.5.5's) and the stem-id remap.",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__stemmers(void) { return PyModule_Create(&stemmers_module); }
