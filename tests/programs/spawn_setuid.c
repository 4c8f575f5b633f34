/* spawn_setuid PROGRAM [ARGS...]: forks a child that execs PROGRAM (a setuid helper, in the
 * tests) and exits 0.3 s later without waiting for it, leaving the child to the keeper. */
#include <stdio.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char** argv) {
    if (argc < 2) return 2;
    const pid_t child = fork();
    if (child == 0) {
        execv(argv[1], argv + 1);
        _exit(127);
    }
    const struct timespec pause = {0, 300000000};
    nanosleep(&pause, NULL);
    printf("started %d\n", (int)child);
    return 0;
}
