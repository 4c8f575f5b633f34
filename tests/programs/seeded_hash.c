/* seeded_hash [N]: a string-keyed hash table whose hash is seeded from getrandom(), as Rust's
 * HashMap seeds RandomState: the probe sequences, and so the instructions, differ from run
 * to run unless the entropy is fixed (cgbench --fixed-random). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

static uint64_t hash(const char* s, uint64_t seed) {
    uint64_t h = seed ^ 0xcbf29ce484222325ULL;
    for (; *s != '\0'; ++s) h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
    return h ^ (h >> 29);
}

int main(int argc, char** argv) {
    const unsigned n = argc > 1 ? (unsigned)atoi(argv[1]) : 4000;
    uint64_t seed = 0;
    if (getrandom(&seed, sizeof seed, 0) != (ssize_t)sizeof seed) return 2;
    const unsigned size = 2 * n + 1;  /* open addressing, linear probing */
    char** slots = calloc(size, sizeof *slots);
    unsigned long probes = 0;
    char key[32];
    for (unsigned i = 0; i < n; ++i) {
        snprintf(key, sizeof key, "key-%u", i * 7919u);
        unsigned at = (unsigned)(hash(key, seed) % size);
        while (slots[at] != NULL) {
            at = (at + 1) % size;
            ++probes;
        }
        slots[at] = strdup(key);
    }
    printf("%u keys, %lu extra probes\n", n, probes);
    return 0;
}
