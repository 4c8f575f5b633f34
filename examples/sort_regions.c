/* sort_regions: measure two phases of a program and nothing else, with the region markers of
 * include/cgbench/cgbench.h.
 *
 *   sort_regions [N]      N pseudo-random integers (default 100000)
 *
 * Generating the input is setup and stays outside every region; "sort" (qsort) and "search"
 * (N binary searches in the sorted array) are measured by `cgbench run --regions`. */
#include <cgbench/cgbench.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint32_t next_random(void) {
    /* xorshift64*: deterministic, no libc randomness. */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 0x2545F4914F6CDD1Dull) >> 32);
}

static int compare(const void* a, const void* b) {
    const uint32_t x = *(const uint32_t*)a, y = *(const uint32_t*)b;
    return (x > y) - (x < y);
}

int main(int argc, char** argv) {
    const size_t n = argc > 1 ? (size_t)strtoull(argv[1], NULL, 10) : 100000;
    uint32_t* values = malloc(n * sizeof *values);
    uint32_t* keys = malloc(n * sizeof *keys);
    if (values == NULL || keys == NULL) return 1;
    for (size_t i = 0; i < n; ++i)
        values[i] = next_random();
    for (size_t i = 0; i < n; ++i)
        keys[i] = values[next_random() % n];

    CGBENCH_REGION_BEGIN("sort");
    qsort(values, n, sizeof *values, compare);
    CGBENCH_REGION_END("sort");

    size_t found = 0;
    CGBENCH_REGION_BEGIN("search");
    for (size_t i = 0; i < n; ++i)
        found += bsearch(&keys[i], values, n, sizeof *values, compare) != NULL;
    CGBENCH_REGION_END("search");

    printf("%zu of %zu found\n", found, n);
    free(values);
    free(keys);
    return found == n ? 0 : 1;
}
