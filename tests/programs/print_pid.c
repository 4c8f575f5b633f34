/* print_pid [N]: prints its pid and those of N forked children (default 3), each formatted
 * through printf: the work grows with the number of digits, so a pid of 4 digits and one of 5
 * cost different counts unless every run sees the same pids. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char** argv) {
    const int n = argc > 1 ? atoi(argv[1]) : 3;
    char line[64];
    for (int i = 0; i < n; ++i) {
        const pid_t child = fork();
        if (child == 0) _exit(0);
        waitpid(child, NULL, 0);
        snprintf(line, sizeof line, "child %d\n", (int)child);
        fputs(line, stdout);
    }
    printf("pid %d parent %d\n", (int)getpid(), (int)getppid());
    return 0;
}
