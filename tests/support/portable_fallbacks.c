/*
 * The plain C of rouge_plus/_compiled/portable.h against GCC's builtins and unsigned __int128, the
 * code the GCC and Clang builds run: edge cases, then random words (splitmix64, seeded from the
 * command line). Built and run by tests/unit/test_portable_c.py with gcc or clang; prints each
 * difference and exits 1 if there is one.
 */
#define ROUGE_PLUS_PORTABLE_C
#include "../../rouge_plus/_compiled/portable.h"

#include <stdio.h>
#include <stdlib.h>

static uint64_t state;

static uint64_t next_word(void)
{
    uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* A random word of a random kind: any bits, a few bits, one bit, or a run of ones. */
static uint64_t next_input(void)
{
    uint64_t word = next_word(), shift = next_word() % 64;
    switch (next_word() % 4) {
    case 0:
        return word;
    case 1:
        return word & next_word() & next_word();
    case 2:
        return 1ULL << shift;
    default:
        return ~0ULL >> shift;
    }
}

static long failures;

static void check_one(uint64_t a, uint64_t b, unsigned carry_in)
{
    if (popcount64(a) != __builtin_popcountll(a) || popcount64_plain(a) != __builtin_popcountll(a))
        failures++, printf("popcount64(%#llx)\n", (unsigned long long)a);
    if (a && (ctz64(a) != __builtin_ctzll(a) || clz64(a) != __builtin_clzll(a)))
        failures++, printf("ctz64 or clz64(%#llx)\n", (unsigned long long)a);
    uint64_t high, low = multiply_wide(a, b, &high);
    unsigned __int128 product = (unsigned __int128)a * b;
    if (low != (uint64_t)product || high != (uint64_t)(product >> 64))
        failures++, printf("multiply_wide(%#llx, %#llx)\n", (unsigned long long)a,
                           (unsigned long long)b);
    unsigned carry = carry_in;
    uint64_t sum = add_with_carry(a, b, &carry);
    unsigned __int128 wide = (unsigned __int128)a + b + carry_in;
    if (sum != (uint64_t)wide || carry != (unsigned)(wide >> 64))
        failures++, printf("add_with_carry(%#llx, %#llx, %u)\n", (unsigned long long)a,
                           (unsigned long long)b, carry_in);
}

int main(int argc, char **argv)
{
    state = argc > 1 ? strtoull(argv[1], NULL, 10) : 0;
    long rounds = argc > 2 ? strtol(argv[2], NULL, 10) : 1000000;
    const uint64_t edges[] = {0, 1, 2, 3, 0x7fffffffffffffffULL, 0x8000000000000000ULL,
                              0xffffffffULL, 0x100000000ULL, 0xffffffff00000000ULL, ~0ULL,
                              ~0ULL - 1};
    const int n_edges = (int)(sizeof edges / sizeof edges[0]);
    for (int i = 0; i < n_edges; i++)
        for (int j = 0; j < n_edges; j++)
            for (unsigned carry = 0; carry < 2; carry++)
                check_one(edges[i], edges[j], carry);
    for (long r = 0; r < rounds; r++)
        check_one(next_input(), next_input(), (unsigned)(next_word() & 1));
    printf("%ld differences\n", failures);
    return failures ? 1 : 0;
}
