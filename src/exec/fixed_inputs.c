/* libcgbench-fixed: what `cgbench run --fixed-clock` and `--fixed-random` show a program.
 *
 * Loaded with LD_PRELOAD (built as a shared library and embedded in cgbench, which writes it
 * into the sandbox), it replaces the C library's clock and entropy functions as CGBENCH_FIXED
 * ("clock", "random" or both, comma-separated) asks:
 *
 *   clock   time, gettimeofday, clock_gettime, clock, timespec_get: every read advances one
 *           counter shared by all clocks by 1 ms; the wall clock starts at
 *           2000-01-01T00:00:00Z, the other clocks at 1000 s. A loop that runs "for 50 ms"
 *           then runs 50 reads, in every run.
 *   random  getrandom, getentropy, arc4random*: a fixed splitmix64 stream.
 *
 * Each process starts both from the beginning (a forked child continues its parent's). What
 * is not asked for is passed to the C library's own functions. Programs that read the clock
 * or entropy without the C library (static Go binaries, the rdtsc instruction, the vDSO
 * called directly) are not affected.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/time.h>
#include <time.h>

#define EXPORT __attribute__((visibility("default")))

static int fixed_clock;
static int fixed_random;
static uint64_t clock_reads;
static uint64_t random_state = 0x6367626e63680002ULL;

static const int64_t kEpoch = 946684800; /* 2000-01-01T00:00:00Z */
static const int64_t kOtherClocksStart = 1000;
static const uint64_t kStepNs = 1000000; /* 1 ms per read */

static int (*real_clock_gettime)(clockid_t, struct timespec*);
static int (*real_gettimeofday)(struct timeval*, void*);
static time_t (*real_time)(time_t*);
static clock_t (*real_clock)(void);
static ssize_t (*real_getrandom)(void*, size_t, unsigned);
static int (*real_getentropy)(void*, size_t);

static int has_word(const char* list, const char* word) {
    const size_t n = strlen(word);
    for (const char* p = list; p != NULL && *p != '\0';) {
        if (strncmp(p, word, n) == 0 && (p[n] == ',' || p[n] == '\0')) return 1;
        p = strchr(p, ',');
        if (p != NULL) ++p;
    }
    return 0;
}

__attribute__((constructor)) static void init(void) {
    const char* what = getenv("CGBENCH_FIXED");
    fixed_clock = has_word(what, "clock");
    fixed_random = has_word(what, "random");
    real_clock_gettime = (int (*)(clockid_t, struct timespec*))dlsym(RTLD_NEXT, "clock_gettime");
    real_gettimeofday = (int (*)(struct timeval*, void*))dlsym(RTLD_NEXT, "gettimeofday");
    real_time = (time_t(*)(time_t*))dlsym(RTLD_NEXT, "time");
    real_clock = (clock_t(*)(void))dlsym(RTLD_NEXT, "clock");
    real_getrandom = (ssize_t(*)(void*, size_t, unsigned))dlsym(RTLD_NEXT, "getrandom");
    real_getentropy = (int (*)(void*, size_t))dlsym(RTLD_NEXT, "getentropy");
}

/* The next reading, in nanoseconds since the clock's start. */
static uint64_t next_reading(void) {
    return __atomic_add_fetch(&clock_reads, 1, __ATOMIC_RELAXED) * kStepNs;
}

static int is_wall_clock(clockid_t id) {
    return id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE || id == CLOCK_TAI;
}

EXPORT int clock_gettime(clockid_t id, struct timespec* ts) {
    if (!fixed_clock) return real_clock_gettime(id, ts);
    if (ts == NULL) {
        errno = EFAULT;
        return -1;
    }
    const uint64_t ns = next_reading();
    ts->tv_sec = (time_t)((is_wall_clock(id) ? kEpoch : kOtherClocksStart) + (int64_t)(ns / 1000000000));
    ts->tv_nsec = (long)(ns % 1000000000);
    return 0;
}

EXPORT int gettimeofday(struct timeval* tv, void* tz) {
    if (!fixed_clock) return real_gettimeofday(tv, tz);
    if (tv != NULL) {
        const uint64_t ns = next_reading();
        tv->tv_sec = (time_t)(kEpoch + (int64_t)(ns / 1000000000));
        tv->tv_usec = (suseconds_t)(ns % 1000000000 / 1000);
    }
    if (tz != NULL) memset(tz, 0, sizeof(struct timezone));
    return 0;
}

EXPORT time_t time(time_t* out) {
    if (!fixed_clock) return real_time(out);
    const time_t t = (time_t)(kEpoch + (int64_t)(next_reading() / 1000000000));
    if (out != NULL) *out = t;
    return t;
}

EXPORT clock_t clock(void) {
    if (!fixed_clock) return real_clock();
    return (clock_t)(next_reading() / (1000000000 / CLOCKS_PER_SEC));
}

EXPORT int timespec_get(struct timespec* ts, int base) {
    if (base != TIME_UTC) return 0;
    return clock_gettime(CLOCK_REALTIME, ts) == 0 ? base : 0;
}

static uint64_t next_random(void) {
    uint64_t z = __atomic_add_fetch(&random_state, 0x9e3779b97f4a7c15ULL, __ATOMIC_RELAXED);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void fill_random(void* buf, size_t n) {
    unsigned char* p = (unsigned char*)buf;
    while (n > 0) {
        const uint64_t v = next_random();
        const size_t k = n < sizeof v ? n : sizeof v;
        memcpy(p, &v, k);
        p += k;
        n -= k;
    }
}

EXPORT ssize_t getrandom(void* buf, size_t n, unsigned flags) {
    if (!fixed_random) return real_getrandom(buf, n, flags);
    fill_random(buf, n);
    return (ssize_t)n;
}

EXPORT int getentropy(void* buf, size_t n) {
    if (!fixed_random) return real_getentropy(buf, n);
    if (n > 256) {
        errno = EIO;
        return -1;
    }
    fill_random(buf, n);
    return 0;
}

EXPORT uint32_t arc4random(void) {
    uint32_t v;
    if (!fixed_random) {
        while (getrandom(&v, sizeof v, 0) != (ssize_t)sizeof v) {
        }
        return v;
    }
    return (uint32_t)next_random();
}

EXPORT void arc4random_buf(void* buf, size_t n) {
    if (fixed_random) {
        fill_random(buf, n);
        return;
    }
    for (unsigned char* p = (unsigned char*)buf; n > 0;) {
        const ssize_t got = real_getrandom(p, n, 0);
        if (got > 0) {
            p += got;
            n -= (size_t)got;
        }
    }
}

EXPORT uint32_t arc4random_uniform(uint32_t bound) {
    if (bound < 2) return 0;
    const uint32_t min = (uint32_t)(-bound) % bound; /* rejection keeps it uniform */
    for (;;) {
        const uint32_t r = arc4random();
        if (r >= min) return r % bound;
    }
}
