/* print_env OUTFILE: writes argv, the environment and the working directory to OUTFILE. */
#include <stdio.h>
#include <unistd.h>

extern char** environ;

int main(int argc, char** argv) {
    if (argc < 2) return 2;
    FILE* f = fopen(argv[1], "w");
    if (!f) return 1;
    for (int i = 0; i < argc; ++i)
        fprintf(f, "argv[%d]=%s\n", i, argv[i]);
    for (char** e = environ; *e; ++e)
        fprintf(f, "env %s\n", *e);
    char cwd[4096];
    if (getcwd(cwd, sizeof cwd)) fprintf(f, "cwd=%s\n", cwd);
    fclose(f);
    return 0;
}
