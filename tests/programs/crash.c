/* crash SIGNAL: raises the given signal number (default SIGSEGV). */
#include <signal.h>
#include <stdlib.h>

int main(int argc, char** argv) {
    raise(argc > 1 ? atoi(argv[1]) : SIGSEGV);
    return 0;
}
