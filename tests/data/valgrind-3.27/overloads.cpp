#include <cstdio>
#include <cstdlib>
namespace ns {
__attribute__((noipa)) long parse(const char* s) { long v = 0; while (*s) v = v * 31 + *s++; return v; }
__attribute__((noipa)) long parse(long x) { long v = 0; for (long i = 0; i < x; ++i) v += i ^ (v >> 3); return v; }
__attribute__((noipa)) double parse(double x) { double v = 0; for (int i = 0; i < 1000; ++i) v += x / (i + 1); return v; }
}
__attribute__((noipa)) static long unique_name(long n) { long v = 1; for (long i = 0; i < n; ++i) v = v * 7 % 1000003; return v; }
int main(int argc, char** argv) {
    long n = argc > 1 ? atol(argv[1]) : 20000;
    long a = 0;
    for (int i = 0; i < 100; ++i) a += ns::parse("hello world, a string to parse");
    a += ns::parse(n);
    double d = ns::parse(2.5);
    a += unique_name(n);
    printf("%ld %f\n", a, d);
    return 0;
}
