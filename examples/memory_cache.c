/* memory_cache: linear vs random walk over four arrays (the program behind the cache table of
 * "CI for performance: reliable benchmarking in noisy environments").
 *
 *   memory_cache linear|random [N]     N elements per array (default 1000000)
 *
 * Both modes execute the same instructions: the walk always reads a shuffled index
 * permutation and selects the linear or the shuffled index with a mask, so Ir is (almost)
 * identical while the random walk misses the caches on nearly every access. With N = 1000000
 * the arrays take 16 MB, twice the simulated 8 MB last-level cache. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint32_t next_random(void) {
    /* xorshift64*: deterministic, no libc randomness. */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 0x2545F4914F6CDD1Dull) >> 32);
}

int main(int argc, char** argv) {
    if (argc < 2 || (strcmp(argv[1], "linear") != 0 && strcmp(argv[1], "random") != 0)) {
        fprintf(stderr, "usage: %s linear|random [N]\n", argv[0]);
        return 2;
    }
    const size_t n = argc > 2 ? (size_t)strtoull(argv[2], NULL, 10) : 1000000;
    if (n == 0) {
        fprintf(stderr, "N must be positive\n");
        return 2;
    }
    const uint32_t random_mask = strcmp(argv[1], "random") == 0 ? 0xFFFFFFFFu : 0;
    const uint32_t linear_mask = ~random_mask;

    uint32_t* perm = malloc(n * sizeof *perm);
    uint32_t* arrays[4];
    for (int k = 0; k < 4; ++k)
        arrays[k] = calloc(n, sizeof(uint32_t));
    if (!perm || !arrays[0] || !arrays[1] || !arrays[2] || !arrays[3]) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    for (size_t i = 0; i < n; ++i)
        perm[i] = (uint32_t)i;
    for (size_t i = n - 1; i > 0; --i) { /* Fisher-Yates, same work in both modes */
        const size_t j = next_random() % (i + 1);
        const uint32_t t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }

    for (size_t i = 0; i < n; ++i) {
        const uint32_t j = (perm[i] & random_mask) | ((uint32_t)i & linear_mask);
        arrays[0][j] += (uint32_t)i;
        arrays[1][j] ^= arrays[0][j];
        arrays[2][j] += arrays[1][j] >> 1;
        arrays[3][j] = arrays[2][j] + 7;
    }

    uint64_t checksum = 0;
    for (int k = 0; k < 4; ++k)
        checksum += arrays[k][n / 2];
    printf("%s %zu checksum %llu\n", argv[1], n, (unsigned long long)checksum);
    for (int k = 0; k < 4; ++k)
        free(arrays[k]);
    free(perm);
    return 0;
}
