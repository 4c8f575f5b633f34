/* workload [N] [MODE]: a small deterministic computation with a little libc use (string
 * functions, formatted output), the typical shape of a benchmarked program. MODE "slow" does
 * 10% more work in the inner loop. Also reads stdin when MODE is "stdin". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long mix(unsigned long x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdUL;
    x ^= x >> 33;
    return x;
}

int main(int argc, char** argv) {
    const long n = argc > 1 ? atol(argv[1]) : 20000;
    const char* mode = argc > 2 ? argv[2] : "normal";
    const long extra = strcmp(mode, "slow") == 0 ? n / 10 : 0;
    unsigned long acc = 0;
    char buf[64];
    for (long i = 0; i < n + extra; ++i) {
        acc += mix((unsigned long)i);
        if (i % 1000 == 0) {
            snprintf(buf, sizeof buf, "%lu", acc);
            acc += strlen(buf);
        }
    }
    if (strcmp(mode, "stdin") == 0) {
        int c;
        while ((c = getchar()) != EOF)
            acc += (unsigned long)c;
    }
    printf("%lu\n", acc);
    return 0;
}
