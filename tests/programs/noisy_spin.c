/* noisy_spin: burns a random amount of CPU time (1 to 256 units of busy work, uniformly, from
 * /dev/urandom), so its native timings spread as no real benchmark's should: the robust spread
 * of a few runs is about 70%, far beyond what a loaded machine does to a real kernel. For the
 * calibration's noise refusal. */
#include <stdint.h>
#include <stdio.h>

int main(void) {
    unsigned char byte = 0;
    FILE* f = fopen("/dev/urandom", "rb");
    if (f == NULL || fread(&byte, 1, 1, f) != 1) return 1;
    fclose(f);
    volatile uint64_t x = 0;
    const uint64_t units = 1ULL + byte;
    for (uint64_t i = 0; i < units * 1000000; ++i)
        x += i;
    return x == 1 ? 1 : 0;
}
