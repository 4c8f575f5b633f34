/* spawn_and_sleep PIDFILE SECONDS [exit]: forks a child that sleeps SECONDS, writes the
 * child's pid to PIDFILE, then sleeps SECONDS itself (or exits at once with "exit"), leaving
 * the child behind. Used to check that timeouts and exits leave no process running. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char** argv) {
    if (argc < 3) return 2;
    const unsigned seconds = (unsigned)atoi(argv[2]);
    const pid_t child = fork();
    if (child == 0) {
        sleep(seconds);
        return 0;
    }
    FILE* f = fopen(argv[1], "w");
    if (!f) return 1;
    fprintf(f, "%d\n", (int)child);
    fclose(f);
    if (argc > 3 && strcmp(argv[3], "exit") == 0) return 0;
    sleep(seconds);
    return 0;
}
