/* timed_loop [MS]: works in rounds until MS milliseconds (default 30) of the monotonic clock
 * have passed, reading the clock after every round, as a benchmark that times itself does:
 * how many rounds run depends on how fast the machine (and Valgrind) is. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long long now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char** argv) {
    const long long budget = (argc > 1 ? atoll(argv[1]) : 30) * 1000000LL;
    const long long start = now_ns();
    unsigned long acc = 0, rounds = 0;
    do {
        for (unsigned i = 0; i < 200; ++i) acc = acc * 6364136223846793005UL + i;
        ++rounds;
    } while (now_ns() - start < budget);
    printf("%lu rounds (%lu)\n", rounds, acc & 0xff);
    return 0;
}
