// Marks a region with the installed header's scope object; prints "consumer ok".
#include <cgbench/cgbench.h>

#include <cstdio>

int main() {
    volatile int x = 0;
    {
        cgbench::Region region("consumer");
        x = x + 1;
    }
    std::printf("consumer ok\n");
    return x == 1 ? 0 : 1;
}
