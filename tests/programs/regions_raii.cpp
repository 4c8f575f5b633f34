// regions_raii [N]: the C++ scope form of the region macros (cgbench::Region), with names
// built at run time, nested across two functions: "load" holds "load/parse".
#include <cgbench/cgbench.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

volatile unsigned long sink;

void work(long n) {
    unsigned long acc = 0;
    for (long i = 0; i < n; ++i)
        acc += static_cast<unsigned long>(i * i) ^ (acc >> 3);
    sink = sink + acc;
}

void parse(long n) {
    const std::string name = std::string("load") + "/parse";
    cgbench::Region region(name.c_str());
    work(n);
}

}  // namespace

int main(int argc, char** argv) {
    const long n = argc > 1 ? std::atol(argv[1]) : 20000;
    work(10 * n);  // setup, outside every region
    {
        cgbench::Region region("load");
        work(n);
        parse(2 * n);
    }
    std::printf("%lu\n", sink);
    return 0;
}
