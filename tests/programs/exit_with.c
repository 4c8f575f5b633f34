/* exit_with CODE [MESSAGE]: writes MESSAGE (and a few lines before it) to stderr, exits CODE. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
    const int code = argc > 1 ? atoi(argv[1]) : 0;
    for (int i = 1; i <= 30; ++i)
        fprintf(stderr, "noise line %d\n", i);
    if (argc > 2) fprintf(stderr, "%s\n", argv[2]);
    return code;
}
