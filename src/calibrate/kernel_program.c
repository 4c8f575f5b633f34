/* cgbench-kernels: the workloads of `cgbench calibrate`, and its native timer.
 *
 *   cgbench-kernels probe [--cpu N]
 *       which clock the timed runs use ("timer cycles", or "timer cpu" and why cycles are
 *       unavailable) and whether pinning to CPU N works ("pin ok" / "pin failed: ...").
 *   cgbench-kernels run KERNEL PARAM STEPS WARMUPS REPS [--time [--cpu N]]
 *       sets KERNEL up for PARAM, then runs its loop of STEPS steps WARMUPS + REPS times.
 *       With --time each of the REPS loops is timed and printed as
 *       "sample cycles=C cpu_ns=T wall_ns=W" (C is "-" without a cycle counter); without it
 *       nothing is timed, so under Valgrind the program makes no timer calls at all.
 *   cgbench-kernels exec WARMUPS REPS [--cpu N] -- PROGRAM [ARGS...]
 *       runs PROGRAM WARMUPS + REPS times and prints a sample line for each of the REPS runs
 *       (cycles of the process and its children, their user + system CPU time, wall time),
 *       or "failed exit=N" / "failed signal=N" for a run that did not exit with 0. The
 *       program's stdout goes to /dev/null; its stderr is ours; every run reads stdin from
 *       its start when stdin is a file.
 *
 * Kernels (the same instructions whatever PARAM is, apart from the loop bounds):
 *   walk-linear BYTES, walk-random BYTES
 *       seed 002's memory-cache walk: an index array and four arrays of uint32_t, 20 bytes
 *       per element, BYTES in all. Each step reads the index array in order and updates the
 *       four arrays at the step's own index (linear) or at the index read, a random one
 *       (random), so both loops execute the same instructions and differ only in where they
 *       land in memory.
 *       Each loop continues where the previous one stopped (wrapping around), so a working
 *       set larger than one loop covers is still streamed through, not revisited.
 *   compute-latency, compute-throughput
 *       register arithmetic: one dependent multiply-add chain per step, or four independent
 *       chains (no memory access in the loop).
 *   branch-predictable, branch-random
 *       one branch per step on a bit of a xorshift sequence: masked to always go the same
 *       way, or random (about half of them mispredicted); no memory access in the loop.
 *
 * Cost under Cachegrind of one loop = (run with REPS=1) - (run with REPS=0): the setup and
 * the warm-up loops cancel out. Exit status: 0 ok, 2 usage, 1 anything else. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint32_t next_random(void) {
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 0x2545F4914F6CDD1Dull) >> 32);
}

static int usage(const char* why) {
    fprintf(stderr,
            "cgbench-kernels: %s\n"
            "usage: cgbench-kernels probe [--cpu N]\n"
            "       cgbench-kernels run KERNEL PARAM STEPS WARMUPS REPS [--time [--cpu N]]\n"
            "       cgbench-kernels exec WARMUPS REPS [--cpu N] -- PROGRAM [ARGS...]\n",
            why);
    return 2;
}

static int parse_u64(const char* text, uint64_t* out) {
    char* end = NULL;
    if (text == NULL || *text < '0' || *text > '9') return 0;
    errno = 0;
    const unsigned long long v = strtoull(text, &end, 10);
    if (errno != 0 || *end != '\0') return 0;
    *out = (uint64_t)v;
    return 1;
}

/* ---- timing ---------------------------------------------------------------------------- */

struct timer {
    int cycles_fd; /* -1: no cycle counter */
    int cycles_errno;
};

static int open_cycles(pid_t pid, int enable_on_exec) {
    struct perf_event_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.size = sizeof attr;
    attr.type = PERF_TYPE_HARDWARE;
    attr.config = PERF_COUNT_HW_CPU_CYCLES;
    attr.exclude_kernel = 1;
    attr.exclude_hv = 1;
    attr.inherit = enable_on_exec ? 1 : 0;
    attr.disabled = enable_on_exec ? 1 : 0;
    attr.enable_on_exec = enable_on_exec ? 1 : 0;
    return (int)syscall(SYS_perf_event_open, &attr, pid, -1, -1, 0);
}

static struct timer timer_open(void) {
    struct timer t = {open_cycles(0, 0), 0};
    if (t.cycles_fd < 0) t.cycles_errno = errno;
    return t;
}

static int64_t read_counter(int fd) {
    uint64_t v = 0;
    if (fd < 0 || read(fd, &v, sizeof v) != (ssize_t)sizeof v) return -1;
    return (int64_t)v;
}

static int64_t clock_ns(clockid_t id) {
    struct timespec ts;
    clock_gettime(id, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

struct stamp {
    int64_t cycles, cpu_ns, wall_ns;
};

static struct stamp stamp_now(const struct timer* t) {
    struct stamp s;
    s.cycles = read_counter(t->cycles_fd);
    s.cpu_ns = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    s.wall_ns = clock_ns(CLOCK_MONOTONIC);
    return s;
}

static void print_sample(int64_t cycles, int64_t cpu_ns, int64_t wall_ns) {
    if (cycles >= 0)
        printf("sample cycles=%lld cpu_ns=%lld wall_ns=%lld\n", (long long)cycles,
               (long long)cpu_ns, (long long)wall_ns);
    else
        printf("sample cycles=- cpu_ns=%lld wall_ns=%lld\n", (long long)cpu_ns, (long long)wall_ns);
}

/* Pins the process to CPU `cpu` (-1: leave it). Returns 0 or an errno. */
static int pin(long cpu) {
    if (cpu < 0) return 0;
    if (cpu >= CPU_SETSIZE) return EINVAL;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET((int)cpu, &set);
    return sched_setaffinity(0, sizeof set, &set) == 0 ? 0 : errno;
}

/* ---- kernels --------------------------------------------------------------------------- */

struct walk {
    size_t n;
    size_t pos; /* where the next loop starts: each loop continues the walk */
    uint32_t* perm;
    uint32_t* a[4];
    uint32_t random_mask;
};

static int walk_setup(struct walk* w, uint64_t bytes, int random) {
    w->n = (size_t)(bytes / 20);
    if (w->n < 2) w->n = 2;
    if (w->n > UINT32_MAX) return 0;
    w->random_mask = random ? 0xFFFFFFFFu : 0;
    w->perm = malloc(w->n * sizeof(uint32_t));
    if (w->perm == NULL) return 0;
    for (int k = 0; k < 4; ++k) {
        w->a[k] = malloc(w->n * sizeof(uint32_t));
        if (w->a[k] == NULL) return 0;
        for (size_t i = 0; i < w->n; ++i)
            w->a[k][i] = (uint32_t)(i * (unsigned)(k + 1));
    }
    /* Random indices (with repeats; cheaper than a shuffle, and as random for the caches) or
     * the identity. The setup need not cost the same in both walks: the measured loop is
     * what differs between a run with it and one without. */
    for (size_t i = 0; i < w->n; ++i)
        w->perm[i] = random ? (uint32_t)(next_random() % w->n) : (uint32_t)i;
    return 1;
}

static uint64_t walk_loop(struct walk* w, uint64_t steps) {
    const uint32_t rmask = w->random_mask, lmask = ~w->random_mask;
    const uint32_t* perm = w->perm;
    uint32_t *a0 = w->a[0], *a1 = w->a[1], *a2 = w->a[2], *a3 = w->a[3];
    size_t i = w->pos;
    for (uint64_t s = 0; s < steps; ++s) {
        const uint32_t j = (perm[i] & rmask) | ((uint32_t)i & lmask);
        a0[j] += (uint32_t)s;
        a1[j] ^= a0[j];
        a2[j] += a1[j] >> 1;
        a3[j] = a2[j] + 7;
        if (++i == w->n) i = 0;
    }
    w->pos = i;
    return a3[w->n / 2];
}

static uint64_t latency_loop(uint64_t steps) {
    uint64_t x = 1;
    for (uint64_t s = 0; s < steps; ++s) {
        x = x * 0x5851F42D4C957F2Dull + s;
        __asm__ volatile("" : "+r"(x));
    }
    return x;
}

static uint64_t throughput_loop(uint64_t steps) {
    uint64_t a = 1, b = 2, c = 3, d = 4;
    for (uint64_t s = 0; s < steps; ++s) {
        a += s;
        b ^= s;
        c += s << 1;
        d ^= s >> 1;
        __asm__ volatile("" : "+r"(a), "+r"(b), "+r"(c), "+r"(d));
    }
    return a + b + c + d;
}

/* One branch per step on a bit of a xorshift sequence (which never repeats): with mask 1 it
 * goes either way at random, with mask 0 always the same way. Same instructions either way. */
static uint64_t branch_loop(uint64_t steps, uint64_t mask) {
    uint64_t x = 0, r = 0x9E3779B97F4A7C15ull;
    __asm__ volatile("" : "+r"(mask)); /* unknown to the compiler: the same code for 0 and 1 */
    for (uint64_t s = 0; s < steps; ++s) {
        r ^= r << 13;
        r ^= r >> 7;
        r ^= r << 17;
        if (r & mask) {
            x += s;
            __asm__ volatile("" : "+r"(x));
        } else {
            x ^= s;
            __asm__ volatile("" : "+r"(x));
        }
    }
    return x;
}

enum kind { WALK_LINEAR, WALK_RANDOM, LATENCY, THROUGHPUT, BRANCH_PREDICTABLE, BRANCH_RANDOM };

static int kind_of(const char* name, enum kind* out) {
    static const char* const names[] = {"walk-linear",        "walk-random",
                                        "compute-latency",    "compute-throughput",
                                        "branch-predictable", "branch-random"};
    for (int k = 0; k < 6; ++k) {
        if (strcmp(name, names[k]) == 0) {
            *out = (enum kind)k;
            return 1;
        }
    }
    return 0;
}

static uint64_t loop_once(enum kind k, struct walk* w, uint64_t steps) {
    switch (k) {
        case WALK_LINEAR:
        case WALK_RANDOM:
            return walk_loop(w, steps);
        case LATENCY:
            return latency_loop(steps);
        case THROUGHPUT:
            return throughput_loop(steps);
        case BRANCH_PREDICTABLE:
            return branch_loop(steps, 0);
        default:
            return branch_loop(steps, 1);
    }
}

static int run_kernel(int argc, char** argv) {
    enum kind k;
    uint64_t param = 0, steps = 0, warmups = 0, reps = 0;
    if (argc < 7 || !kind_of(argv[2], &k)) return usage("unknown kernel or missing arguments");
    if (!parse_u64(argv[3], &param) || !parse_u64(argv[4], &steps) ||
        !parse_u64(argv[5], &warmups) || !parse_u64(argv[6], &reps))
        return usage("PARAM, STEPS, WARMUPS and REPS are non-negative integers");
    int timed = 0;
    long cpu = -1;
    for (int i = 7; i < argc; ++i) {
        uint64_t v = 0;
        if (strcmp(argv[i], "--time") == 0) {
            timed = 1;
        } else if (strcmp(argv[i], "--cpu") == 0 && i + 1 < argc && parse_u64(argv[i + 1], &v)) {
            cpu = (long)v;
            ++i;
        } else {
            return usage("unknown option");
        }
    }
    if (timed) {
        const int err = pin(cpu);
        if (err != 0) {
            fprintf(stderr, "cgbench-kernels: cannot pin to CPU %ld: %s\n", cpu, strerror(err));
            return 1;
        }
    }
    struct walk w;
    memset(&w, 0, sizeof w);
    if (k == WALK_LINEAR || k == WALK_RANDOM) {
        if (!walk_setup(&w, param, k == WALK_RANDOM)) {
            fprintf(stderr, "cgbench-kernels: cannot allocate %llu bytes\n",
                    (unsigned long long)param);
            return 1;
        }
    }
    uint64_t checksum = 0;
    for (uint64_t r = 0; r < warmups; ++r)
        checksum += loop_once(k, &w, steps);
    struct timer t = {-1, 0};
    if (timed) t = timer_open();
    for (uint64_t r = 0; r < reps; ++r) {
        if (!timed) {
            checksum += loop_once(k, &w, steps);
            continue;
        }
        const struct stamp a = stamp_now(&t);
        checksum += loop_once(k, &w, steps);
        const struct stamp b = stamp_now(&t);
        print_sample(t.cycles_fd >= 0 ? b.cycles - a.cycles : -1, b.cpu_ns - a.cpu_ns,
                     b.wall_ns - a.wall_ns);
    }
    printf("checksum %020llu\n", (unsigned long long)checksum); /* fixed width: same epilogue */
    return 0;
}

/* ---- exec: a whole program --------------------------------------------------------------- */

static int run_program_once(char** argv, int timed) {
    int go[2];
    if (pipe(go) != 0) return -1;
    const pid_t child = fork();
    if (child < 0) return -1;
    if (child == 0) {
        char c;
        close(go[1]);
        if (read(go[0], &c, 1) != 1) _exit(127); /* wait until the counter is attached */
        /* Every run reads its stdin file from the start: the runs share one open file, whose
         * offset the previous run left at the end (a pipe or a device cannot rewind). */
        lseek(STDIN_FILENO, 0, SEEK_SET);
        const int null = open("/dev/null", O_WRONLY);   /* our stdout carries the samples */
        if (null < 0 || dup2(null, STDOUT_FILENO) < 0) _exit(127);
        execvp(argv[0], argv);
        fprintf(stderr, "cgbench-kernels: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    close(go[0]);
    const int fd = timed ? open_cycles(child, 1) : -1;
    const int64_t wall0 = clock_ns(CLOCK_MONOTONIC);
    if (write(go[1], "x", 1) != 1) return -1;
    close(go[1]);
    int status = 0;
    struct rusage ru;
    while (wait4(child, &status, 0, &ru) < 0) {
        if (errno != EINTR) return -1;
    }
    const int64_t wall = clock_ns(CLOCK_MONOTONIC) - wall0;
    const int64_t cycles = read_counter(fd);
    if (fd >= 0) close(fd);
    if (WIFSIGNALED(status)) {
        printf("failed signal=%d\n", WTERMSIG(status));
        return 1;
    }
    if (WEXITSTATUS(status) != 0) {
        printf("failed exit=%d\n", WEXITSTATUS(status));
        return 1;
    }
    if (timed) {
        const int64_t cpu = ((int64_t)ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000 +
                            ((int64_t)ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000;
        print_sample(cycles, cpu, wall);
    }
    return 0;
}

static int exec_program(int argc, char** argv) {
    uint64_t warmups = 0, reps = 0;
    if (argc < 4 || !parse_u64(argv[2], &warmups) || !parse_u64(argv[3], &reps))
        return usage("WARMUPS and REPS are non-negative integers");
    long cpu = -1;
    int i = 4;
    for (; i < argc && strcmp(argv[i], "--") != 0; ++i) {
        uint64_t v = 0;
        if (strcmp(argv[i], "--cpu") != 0 || i + 1 >= argc || !parse_u64(argv[i + 1], &v))
            return usage("unknown option");
        cpu = (long)v;
        ++i;
    }
    if (i + 1 >= argc) return usage("no program after --");
    const int err = pin(cpu);
    if (err != 0) {
        fprintf(stderr, "cgbench-kernels: cannot pin to CPU %ld: %s\n", cpu, strerror(err));
        return 1;
    }
    fflush(stdout);
    for (uint64_t r = 0; r < warmups + reps; ++r) {
        const int rc = run_program_once(argv + i + 1, r >= warmups);
        fflush(stdout);
        if (rc != 0) return 1;
    }
    return 0;
}

static int probe(int argc, char** argv) {
    uint64_t cpu = 0;
    int has_cpu = 0;
    if (argc == 4 && strcmp(argv[2], "--cpu") == 0 && parse_u64(argv[3], &cpu))
        has_cpu = 1;
    else if (argc != 2)
        return usage("probe takes only --cpu N");
    const struct timer t = timer_open();
    if (t.cycles_fd >= 0)
        printf("timer cycles\n");
    else
        printf("timer cpu %s\n", strerror(t.cycles_errno));
    if (has_cpu) {
        const int err = pin((long)cpu);
        if (err == 0)
            printf("pin ok\n");
        else
            printf("pin failed %s\n", strerror(err));
    }
    return 0;
}

int main(int argc, char** argv) {
    if (argc < 2) return usage("no mode");
    if (strcmp(argv[1], "probe") == 0) return probe(argc, argv);
    if (strcmp(argv[1], "run") == 0) return run_kernel(argc, argv);
    if (strcmp(argv[1], "exec") == 0) return exec_program(argc, argv);
    return usage("unknown mode");
}
