/* nondeterministic [BASE [RANGE]]: does BASE + a random amount below RANGE of work (seeded
 * from /dev/urandom; defaults 1000 and 1000), the kind of program --verify exists to catch.
 * A large BASE with a small RANGE gives a spread of a few parts per million. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
    const unsigned long base = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000;
    const unsigned long range = argc > 2 ? strtoul(argv[2], NULL, 10) : 1000;
    unsigned seed = 0;
    FILE* f = fopen("/dev/urandom", "rb");
    if (!f || fread(&seed, sizeof seed, 1, f) != 1 || range == 0) return 1;
    fclose(f);
    volatile unsigned long acc = 0;
    for (unsigned long i = 0; i < base + seed % range; ++i)
        acc += i;
    printf("%lu\n", (unsigned long)acc);
    return 0;
}
