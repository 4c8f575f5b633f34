/* nondeterministic: does a random amount of work (seeded from /dev/urandom), the kind of
 * program --verify exists to catch. */
#include <stdio.h>

int main(void) {
    unsigned seed = 0;
    FILE* f = fopen("/dev/urandom", "rb");
    if (!f || fread(&seed, sizeof seed, 1, f) != 1) return 1;
    fclose(f);
    volatile unsigned long acc = 0;
    for (unsigned i = 0; i < 1000 + seed % 1000; ++i)
        acc += i;
    printf("%lu\n", (unsigned long)acc);
    return 0;
}
