/* regions MODE [N]: a program marked with the region macros of include/cgbench/cgbench.h
 * (C99), one MODE per case the tests check. N (default 20000) scales the work.
 *   repeated  region "step" entered 3 times, each doing N units of work
 *   nested    "outer" does N, then "inner" (2N), then N again
 *   setup     100N units of setup, then region "tiny" with N units
 *   unended   region "open" begun and never ended
 *   overlap   "a" begins, "b" begins, "a" ends first
 *   none      no region at all
 *   empty     region "optimised" whose loop the compiler removes (its result is unused)
 *   ignored   regions "sum/100" and "sum/200", whose work ignores the parameter
 *   newline   region "a\nb", a name with a newline (unsupported) */
#include <cgbench/cgbench.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile unsigned long sink;

static void work(long n) {
    unsigned long acc = 0;
    for (long i = 0; i < n; ++i)
        acc += (unsigned long)(i * i) ^ (acc >> 3);
    sink += acc;
}

static unsigned long unused_sum(long n) {
    unsigned long acc = 0;
    for (long i = 0; i < n; ++i)
        acc += (unsigned long)i;
    return acc;
}

static void sum_ignoring(long parameter) {
    (void)parameter;
    work(1000);
}

int main(int argc, char** argv) {
    const char* mode = argc > 1 ? argv[1] : "repeated";
    const long n = argc > 2 ? atol(argv[2]) : 20000;
    if (strcmp(mode, "repeated") == 0) {
        for (int i = 0; i < 3; ++i) {
            CGBENCH_REGION_BEGIN("step");
            work(n);
            CGBENCH_REGION_END("step");
        }
    } else if (strcmp(mode, "nested") == 0) {
        CGBENCH_REGION_BEGIN("outer");
        work(n);
        CGBENCH_REGION_BEGIN("inner");
        work(2 * n);
        CGBENCH_REGION_END("inner");
        work(n);
        CGBENCH_REGION_END("outer");
    } else if (strcmp(mode, "setup") == 0) {
        work(100 * n);
        CGBENCH_REGION_BEGIN("tiny");
        work(n);
        CGBENCH_REGION_END("tiny");
    } else if (strcmp(mode, "unended") == 0) {
        CGBENCH_REGION_BEGIN("open");
        work(n);
    } else if (strcmp(mode, "overlap") == 0) {
        CGBENCH_REGION_BEGIN("a");
        CGBENCH_REGION_BEGIN("b");
        CGBENCH_REGION_END("a");
        CGBENCH_REGION_END("b");
    } else if (strcmp(mode, "empty") == 0) {
        work(n);
        CGBENCH_REGION_BEGIN("optimised");
        unused_sum(n);
        CGBENCH_REGION_END("optimised");
    } else if (strcmp(mode, "ignored") == 0) {
        CGBENCH_REGION_BEGIN("sum/100");
        sum_ignoring(100);
        CGBENCH_REGION_END("sum/100");
        CGBENCH_REGION_BEGIN("sum/200");
        sum_ignoring(200);
        CGBENCH_REGION_END("sum/200");
    } else if (strcmp(mode, "newline") == 0) {
        CGBENCH_REGION_BEGIN("a\nb");
        work(n);
        CGBENCH_REGION_END("a\nb");
    } else if (strcmp(mode, "none") != 0) {
        fprintf(stderr, "regions: unknown mode %s\n", mode);
        return 2;
    }
    printf("%lu\n", sink);
    return 0;
}
