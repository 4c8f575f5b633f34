/* flame: the program of the flame graph tests, built twice: HOT_REPS=1 (the base) and
 * HOT_REPS=3 (the head, whose hot() inner loop costs 3 times as much). steady() is the same
 * in both; walk() recurses, so the call graph holds a cycle. */
#include <stdio.h>

#ifndef HOT_REPS
#define HOT_REPS 1
#endif

static volatile unsigned long sink;

__attribute__((noinline)) static void hot(long n) {
    for (long i = 0; i < n * HOT_REPS; ++i) sink += (unsigned long)i * 2654435761UL;
}

__attribute__((noinline)) static void steady(long n) {
    for (long i = 0; i < n; ++i) sink ^= (unsigned long)i;
}

__attribute__((noinline)) static unsigned long walk(int depth) {
    sink += (unsigned long)depth;
    return depth == 0 ? 1 : 1 + walk(depth - 1);
}

int main(void) {
    hot(20000);
    steady(20000);
    printf("%lu\n", walk(50) + sink % 2);
    return 0;
}
