/* undecodable: executes an AVX-512 instruction (vpaddd zmm0, zmm0, zmm0) under Valgrind, and
 * natively only where the CPU has AVX-512F. Valgrind decodes no AVX-512: like Go 1.19's
 * RDTSCP on Valgrind 3.19, the program runs natively but meets "unhandled instruction" and
 * SIGILL under Valgrind. */
#include <cpuid.h>
#include <valgrind/valgrind.h>

int main(void) {
    unsigned a = 0, b = 0, c = 0, d = 0;
    const int has = __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & (1u << 16)) != 0;
    if (has || RUNNING_ON_VALGRIND) __asm__ volatile(".byte 0x62,0xf1,0x7d,0x48,0xfe,0xc0");
    return 0;
}
