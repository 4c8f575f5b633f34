/* spawner N [tree]: starts N short-lived children one after another (each exits at once), or
 * with "tree" a binary tree of processes N levels deep (2^N processes, a bounded fork bomb).
 * Used to check that the number of processes a run may start is limited. */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char** argv) {
    if (argc < 2) return 2;
    const int n = atoi(argv[1]);
    if (argc > 2 && strcmp(argv[2], "tree") == 0) {
        for (int level = 0; level < n; ++level) {
            if (fork() < 0) break;
        }
        while (wait(NULL) > 0) {
        }
        return 0;
    }
    for (int i = 0; i < n; ++i) {
        const pid_t pid = fork();
        if (pid == 0) _exit(0);
        if (pid > 0) waitpid(pid, NULL, 0);
    }
    return 0;
}
