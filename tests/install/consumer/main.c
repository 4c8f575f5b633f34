/* Marks a region with the installed header; prints "consumer ok" outside Valgrind. */
#include <cgbench/cgbench.h>
#include <stdio.h>

int main(void) {
    volatile int x = 0;
    CGBENCH_REGION_BEGIN("consumer");
    x = x + 1;
    CGBENCH_REGION_END("consumer");
    printf("consumer ok\n");
    return x == 1 ? 0 : 1;
}
