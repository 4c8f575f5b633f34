/* workers: a small multi-process program, the shape of a test driver or a build tool.
 *
 *   workers K N        K worker processes, each sorting N pseudo-random numbers
 *
 * The parent starts each worker by running this program again (fork, then exec with
 * "worker I N"), collects the checksum every worker writes to a pipe, and prints their sum.
 * cgbench counts every process: the result is the parent plus its K workers, and the result
 * file lists each of them (`"processes"`), so `cgbench compare` can say which one moved. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int compare(const void* a, const void* b) {
    const uint32_t x = *(const uint32_t*)a, y = *(const uint32_t*)b;
    return (x > y) - (x < y);
}

/* Sorts n numbers seeded by `id`; returns a checksum of the sorted order. */
static uint64_t work(unsigned id, size_t n) {
    uint32_t* v = malloc(n * sizeof *v);
    if (v == NULL) return 0;
    uint64_t state = 0x9E3779B97F4A7C15ull ^ id;
    for (size_t i = 0; i < n; ++i) {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        v[i] = (uint32_t)((state * 0x2545F4914F6CDD1Dull) >> 32);
    }
    qsort(v, n, sizeof *v, compare);
    uint64_t sum = 0;
    for (size_t i = 0; i < n; ++i)
        sum = sum * 31 + v[i];
    free(v);
    return sum;
}

int main(int argc, char** argv) {
    if (argc == 4 && strcmp(argv[1], "worker") == 0) {
        printf("%llu\n", (unsigned long long)work((unsigned)atoi(argv[2]), strtoull(argv[3], NULL, 10)));
        return 0;
    }
    if (argc != 3) {
        fprintf(stderr, "usage: %s K N\n", argv[0]);
        return 2;
    }
    const int k = atoi(argv[1]);
    uint64_t total = 0;
    for (int i = 0; i < k; ++i) {
        int p[2];
        if (pipe(p) != 0) return 1;
        const pid_t pid = fork();
        if (pid == 0) {
            char id[16];
            snprintf(id, sizeof id, "%d", i);
            dup2(p[1], 1);
            close(p[0]);
            close(p[1]);
            execl(argv[0], argv[0], "worker", id, argv[2], (char*)NULL);
            _exit(127);
        }
        close(p[1]);
        char buf[64] = {0};
        const ssize_t got = read(p[0], buf, sizeof buf - 1);
        close(p[0]);
        int status = 0;
        waitpid(pid, &status, 0);
        if (got <= 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return 1;
        total += strtoull(buf, NULL, 10);
    }
    printf("%d workers, checksum %llu\n", k, (unsigned long long)total);
    return 0;
}
