/* sleeper SECONDS [PIDFILE]: writes its pid to PIDFILE, becomes root when it is a setuid-root
 * copy (setuid(0) fails harmlessly otherwise) and sleeps; a helper that outlives its parent. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char** argv) {
    if (argc > 2) {
        FILE* f = fopen(argv[2], "w");
        if (f != NULL) {
            fprintf(f, "%d\n", (int)getpid());
            fclose(f);
        }
    }
    if (setuid(0) != 0) {
        /* not setuid-root: sleep as the caller */
    }
    sleep((unsigned)(argc > 1 ? atoi(argv[1]) : 10));
    return 0;
}
