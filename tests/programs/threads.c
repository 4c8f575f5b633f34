/* threads [N]: starts N threads (default 4) that each do the same small deterministic work on
 * their own buffer, joins them and prints a checksum. Under Valgrind the interleaving of the
 * threads, and so the cache counts, differ from run to run: cgbench marks such results. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

enum { kMaxThreads = 16, kWords = 4096 };

static void* work(void* arg) {
    unsigned long* out = arg;
    unsigned long* buf = malloc(kWords * sizeof *buf);
    if (!buf) return NULL;
    unsigned long x = 88172645463325252UL + *out;
    for (int i = 0; i < kWords; ++i) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        buf[i] = x;
    }
    unsigned long sum = 0;
    for (int i = 0; i < kWords; ++i)
        sum += buf[(i * 7) % kWords] >> 3;
    free(buf);
    *out = sum;
    return NULL;
}

int main(int argc, char** argv) {
    int n = argc > 1 ? atoi(argv[1]) : 4;
    if (n < 1 || n > kMaxThreads) return 2;
    pthread_t t[kMaxThreads];
    unsigned long r[kMaxThreads];
    for (int i = 0; i < n; ++i) {
        r[i] = (unsigned long)i;
        if (pthread_create(&t[i], NULL, work, &r[i]) != 0) return 1;
    }
    unsigned long all = 0;
    for (int i = 0; i < n; ++i) {
        pthread_join(t[i], NULL);
        all ^= r[i];
    }
    printf("%lu\n", all);
    return 0;
}
