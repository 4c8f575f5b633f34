/* attrib [MODE] [N]: two functions with the same amount of work, alpha and beta, called
 * from main. MODE "slow-beta" makes beta do 10% more iterations and leaves alpha alone, so
 * a comparison of the two modes must put beta first among the functions that moved. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile unsigned long sink;

__attribute__((noinline)) static unsigned long alpha(long n) {
    unsigned long acc = 1;
    for (long i = 0; i < n; ++i)
        acc = acc * 6364136223846793005UL + (unsigned long)i;
    return acc;
}

__attribute__((noinline)) static unsigned long beta(long n) {
    unsigned long acc = 7;
    for (long i = 0; i < n; ++i)
        acc = acc * 2862933555777941757UL + (unsigned long)i;
    return acc;
}

int main(int argc, char** argv) {
    const char* mode = argc > 1 ? argv[1] : "normal";
    const long n = argc > 2 ? atol(argv[2]) : 100000;
    const long beta_n = strcmp(mode, "slow-beta") == 0 ? n + n / 10 : n;
    sink = alpha(n) + beta(beta_n);
    printf("%lu\n", sink);
    return 0;
}
