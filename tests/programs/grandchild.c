/* grandchild PIDFILE SECONDS: forks a child that calls setsid() (leaving the process group),
 * forks a grandchild that sleeps SECONDS, writes the grandchild's pid to PIDFILE, and exits;
 * the program itself exits at once. Used to check that nothing outlives a measurement. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char** argv) {
    if (argc < 3) return 2;
    const pid_t child = fork();
    if (child == 0) {
        setsid();
        const pid_t grandchild = fork();
        if (grandchild == 0) {
            sleep((unsigned)atoi(argv[2]));
            _exit(0);
        }
        FILE* f = fopen(argv[1], "w");
        if (!f) _exit(1);
        fprintf(f, "%d\n", (int)grandchild);
        fclose(f);
        _exit(0);
    }
    waitpid(child, NULL, 0);
    return 0;
}
