/* forker CHILD PARENT [crash]: forks one child that runs CHILD iterations of a loop, runs
 * PARENT iterations itself, waits for the child and exits 0. With "crash" the child then
 * dies of SIGSEGV (the parent still exits 0). Used to check that every process is counted. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile unsigned long sink;

static void work(long n) {
    for (long i = 0; i < n; ++i)
        sink += (unsigned long)i;
}

int main(int argc, char** argv) {
    if (argc < 3) return 2;
    const pid_t child = fork();
    if (child < 0) return 1;
    if (child == 0) {
        work(atol(argv[1]));
        if (argc > 3 && strcmp(argv[3], "crash") == 0) raise(SIGSEGV);
        _exit(0);
    }
    work(atol(argv[2]));
    int status = 0;
    waitpid(child, &status, 0);
    return 0;
}
