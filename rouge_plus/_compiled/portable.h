/*
 * Everything the C files need beyond standard C11, each written once for three compilers: GCC
 * and Clang (their builtins and attributes, as the kernels were tuned with), MSVC in /std:c11
 * mode (its intrinsics of <intrin.h>), and plain C for any other compiler. No other file of the
 * package names a compiler, a builtin or an attribute (tests/unit/test_portable_c.py checks it).
 *
 * Defining ROUGE_PLUS_PORTABLE_C (-DROUGE_PLUS_PORTABLE_C) takes the plain C of every helper
 * whatever the compiler, so that it is tested where GCC builds (MSVC runs the plain C of
 * popcount64 and add_with_carry itself, and is not at hand): scripts/check_portable_c.sh builds
 * the extensions so, with -std=c11 -pedantic-errors, and runs the tests that compare them with
 * their Python twins, and tests/unit/test_portable_c.py checks each helper against GCC's
 * builtins. Every branch computes the same bits; the compiler-specific ones are only faster.
 *
 * Included by common.h after Python.h (whose PY_BIG_ENDIAN says the byte order everywhere).
 */
#ifndef ROUGE_PLUS_PORTABLE_H
#define ROUGE_PLUS_PORTABLE_H

#include <stddef.h>
#include <stdint.h>

#if defined(ROUGE_PLUS_PORTABLE_C)
#define PORTABLE_MSVC 0
#define PORTABLE_GNU_C 0
#elif defined(_MSC_VER) && (defined(_M_X64) || defined(_M_ARM64))
#define PORTABLE_MSVC 1 /* MSVC, or clang-cl, which takes the same intrinsics */
#define PORTABLE_GNU_C 0
#include <intrin.h>
#elif defined(__GNUC__) || defined(__clang__)
#define PORTABLE_MSVC 0
#define PORTABLE_GNU_C 1
#else
#define PORTABLE_MSVC 0
#define PORTABLE_GNU_C 0
#endif

/* ------------------------------------------------------------------ attributes */

/* A function or variable that the files of one module share: kept out of the module's dynamic
 * symbol table, so that two modules (or any other library) never resolve to each other's. A
 * Windows DLL exports only what is declared so: nothing to say there. */
#if PORTABLE_GNU_C
#define HIDDEN __attribute__((visibility("hidden")))
#else
#define HIDDEN
#endif

/* A function the compiler must not inline (where inlining was measured to cost time). */
#if PORTABLE_GNU_C
#define NOINLINE __attribute__((noinline))
#elif PORTABLE_MSVC
#define NOINLINE __declspec(noinline)
#else
#define NOINLINE
#endif

/* A function compiled twice, for AVX2 and for any x86-64, the one the CPU runs chosen when the
 * module loads (GCC's ifuncs, on Linux only). The same operations in the same order in both. */
#if PORTABLE_GNU_C && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define CLONED_FOR_AVX2 __attribute__((target_clones("avx2", "default")))
#else
#define CLONED_FOR_AVX2
#endif

/* ------------------------------------------------------------------ bits of a 64-bit word */

/* The 1 bits of x in plain C: a few shifts and adds. */
static inline int popcount64_plain(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

/* Whether popcount64 is one instruction (the build targets POPCNT): without it, GCC's builtin is
 * a call to its library, which popcount64_plain beats in a hot loop. */
#if PORTABLE_GNU_C && defined(__POPCNT__)
#define POPCOUNT_INSTRUCTION 1
#else
#define POPCOUNT_INSTRUCTION 0
#endif

/* popcount64(x), the 1 bits of x; ctz64(x) and clz64(x), the 0 bits below its lowest 1 and above
 * its highest (x must not be 0). Under GCC and Clang the builtins themselves: wrapped in inline
 * functions, they changed GCC's inlining in lcs_length (_native_lcs.c), its code and speed. */
#if PORTABLE_GNU_C
#define popcount64(x) __builtin_popcountll(x)
#define ctz64(x) __builtin_ctzll(x)
#define clz64(x) __builtin_clzll(x)
#else
/* MSVC's __popcnt64 is the POPCNT instruction whatever the CPU: plain C there too. */
static inline int popcount64(uint64_t x) { return popcount64_plain(x); }

static inline int ctz64(uint64_t x)
{
#if PORTABLE_MSVC
    unsigned long index;
    _BitScanForward64(&index, x);
    return (int)index;
#else
    int n = 0;
    for (int half = 32; half; half /= 2)
        if (!(x & ((1ULL << half) - 1))) {
            x >>= half;
            n += half;
        }
    return n;
#endif
}

static inline int clz64(uint64_t x)
{
#if PORTABLE_MSVC
    unsigned long index;
    _BitScanReverse64(&index, x);
    return 63 - (int)index;
#else
    int n = 0;
    for (int half = 32; half; half /= 2)
        if (!(x >> (64 - half))) {
            x <<= half;
            n += half;
        }
    return n;
#endif
}
#endif

/* ------------------------------------------------------------------ 128-bit arithmetic */

/* The product a * b in 128 bits: its low 64 bits, and its high ones in *high. */
static inline uint64_t multiply_wide(uint64_t a, uint64_t b, uint64_t *high)
{
#if PORTABLE_GNU_C
    unsigned __int128 product = (unsigned __int128)a * b;
    *high = (uint64_t)(product >> 64);
    return (uint64_t)product;
#elif PORTABLE_MSVC
    *high = __umulh(a, b);
    return a * b;
#else
    uint64_t a_low = a & 0xffffffffULL, a_high = a >> 32;
    uint64_t b_low = b & 0xffffffffULL, b_high = b >> 32;
    uint64_t low_low = a_low * b_low, high_low = a_high * b_low;
    uint64_t low_high = a_low * b_high, high_high = a_high * b_high;
    /* At most (2^32 - 1) + (2^32 - 1) + (2^32 - 1)^2 = 2^64 - 1: no overflow. */
    uint64_t middle = (low_low >> 32) + (high_low & 0xffffffffULL) + low_high;
    *high = high_high + (high_low >> 32) + (middle >> 32);
    return (middle << 32) | (low_low & 0xffffffffULL);
#endif
}

/* a + b + carry (carry 0 or 1): the sum's low 64 bits, and its carry out (0 or 1) in *carry. */
static inline uint64_t add_with_carry(uint64_t a, uint64_t b, unsigned *carry)
{
#if PORTABLE_GNU_C
    unsigned __int128 sum = (unsigned __int128)a + b + *carry;
    *carry = (unsigned)(sum >> 64);
    return (uint64_t)sum;
#else
    uint64_t sum = a + b;
    unsigned out = sum < a;
    sum += *carry;
    *carry = out | (sum < *carry);
    return sum;
#endif
}

/* ------------------------------------------------------------------ an atomic pointer */

/* A pointer that threads exchange without a lock. C11's <stdatomic.h>, but under MSVC, whose C
 * atomics still need /experimental:c11atomics: its interlocked intrinsics there. */
#if PORTABLE_MSVC
typedef void *volatile AtomicPointer;

/* The pointer's value, replaced by value. */
static inline void *atomic_pointer_exchange(AtomicPointer *p, void *value)
{
    return _InterlockedExchangePointer(p, value);
}

/* Sets the pointer to value if it is NULL; whether it was. */
static inline int atomic_pointer_fill(AtomicPointer *p, void *value)
{
    return _InterlockedCompareExchangePointer(p, value, NULL) == NULL;
}
#else
#include <stdatomic.h>

typedef _Atomic(void *) AtomicPointer;

static inline void *atomic_pointer_exchange(AtomicPointer *p, void *value)
{
    return atomic_exchange(p, value);
}

static inline int atomic_pointer_fill(AtomicPointer *p, void *value)
{
    void *expected = NULL;
    return atomic_compare_exchange_strong(p, &expected, value);
}
#endif

#endif
