/* cgbench.h: mark the regions of a program that `cgbench run --regions` measures.
 *
 *   #include <cgbench/cgbench.h>
 *
 *   CGBENCH_REGION_BEGIN("parse");      C99 and C++; the name must be a string literal
 *   parse(input);
 *   CGBENCH_REGION_END("parse");
 *
 *   { cgbench::Region r("parse");       C++: ends when `r` goes out of scope; any name
 *     parse(input); }
 *
 * cgbench reports one result per region, named BENCH/REGION. A region entered many times is
 * summed; nested regions are each reported (the outer one includes the inner one).
 *
 * How it works (Valgrind 3.19 and later). cgbench runs the program under Callgrind with
 * --collect-atstart=no, so nothing is counted until a region begins. Every BEGIN and END
 * asks Callgrind for a dump (CALLGRIND_DUMP_STATS_AT "cgbench:begin:NAME" /
 * "cgbench:end:NAME"); each dump holds the costs since the previous one, and cgbench adds
 * each dump to every region that was open during it. The outermost BEGIN switches
 * collection on after its dump, the outermost END switches it off after its dump
 * (CALLGRIND_TOGGLE_COLLECT), so a region counts its own code plus about 15 instructions of
 * the macros and nothing of the setup around it. The same macros also issue Cachegrind's
 * start/stop requests (Valgrind 3.22+, --instr-at-start=no); each tool silently ignores the
 * other's requests (checked with Valgrind 3.19: nothing in the log).
 *
 * Outside Valgrind the macros do nothing but read a thread-local flag (set by one
 * RUNNING_ON_VALGRIND request per thread) and branch: a BEGIN/END pair costs well under a
 * nanosecond (bench/region_overhead.cpp).
 *
 * Limits:
 * - Regions must nest (END the inner one before the outer one) and every BEGIN needs its END
 *   before the program exits; cgbench fails the benchmark (exit 3) otherwise, naming it.
 * - The nesting depth is kept per thread, and Callgrind switches collection per thread, but a
 *   dump holds the costs of every thread: measure regions from one thread at a time.
 * - Each BEGIN and END writes a dump file, so put a region around a hot loop, not inside it.
 * - Names must not contain newlines; cgbench::Region keeps the first 200 bytes of a name.
 * - The toggles assume --collect-atstart=no, which `cgbench run --regions` passes; under a
 *   plain `valgrind --tool=callgrind` they invert what is collected.
 * - Needs GCC or Clang (weak thread-local symbol, so that every translation unit and shared
 *   library of the program shares one depth counter).
 */
#ifndef CGBENCH_CGBENCH_H
#define CGBENCH_CGBENCH_H

#include <valgrind/callgrind.h>

#if !defined(__GNUC__)
#error "cgbench.h needs GCC or Clang (weak thread-local symbols)"
#endif

/* Cachegrind's own requests (valgrind/cachegrind.h, Valgrind >= 3.22), spelled out here so
 * that the header builds against every Valgrind: VG_USERREQ_TOOL_BASE('C','G') + 0 / + 1. */
#define CGBENCH_CG_START_INSTRUMENTATION_ (VG_USERREQ_TOOL_BASE('C', 'G') + 0)
#define CGBENCH_CG_STOP_INSTRUMENTATION_ (VG_USERREQ_TOOL_BASE('C', 'G') + 1)

#ifdef __cplusplus
extern "C" {
#endif

/* Per thread: open regions, and whether the program runs under Valgrind (-1: not asked
 * yet). Weak, so the definitions of every translation unit merge into one. */
extern __thread unsigned cgbench_region_depth_;
extern __thread int cgbench_on_valgrind_;
__attribute__((weak)) __thread unsigned cgbench_region_depth_ = 0;
__attribute__((weak)) __thread int cgbench_on_valgrind_ = -1;

/* Whether requests reach a Valgrind tool. Asked once per thread, so that outside Valgrind
 * a region costs a load and a branch instead of six requests. */
static __inline__ int cgbench_under_valgrind_(void) {
    if (__builtin_expect(cgbench_on_valgrind_ < 0, 0)) {
        cgbench_on_valgrind_ = RUNNING_ON_VALGRIND ? 1 : 0;
    }
    return cgbench_on_valgrind_;
}

/* Begins a region; `begin_tag` is "cgbench:begin:NAME". Dumps first, then switches
 * collection on, so the interval before the region holds nothing of it. */
static __inline__ void cgbench_region_enter_(const char* begin_tag) {
    if (!cgbench_under_valgrind_()) return;
    CALLGRIND_DUMP_STATS_AT(begin_tag);
    if (cgbench_region_depth_++ == 0) {
        CALLGRIND_TOGGLE_COLLECT;
        VALGRIND_DO_CLIENT_REQUEST_STMT(CGBENCH_CG_START_INSTRUMENTATION_, 0, 0, 0, 0, 0);
    }
}

/* Ends a region; `end_tag` is "cgbench:end:NAME". Dumps first, then switches collection off
 * when no region is left open. An END without a BEGIN leaves the depth at zero. */
static __inline__ void cgbench_region_leave_(const char* end_tag) {
    if (!cgbench_under_valgrind_()) return;
    CALLGRIND_DUMP_STATS_AT(end_tag);
    if (cgbench_region_depth_ > 0 && --cgbench_region_depth_ == 0) {
        VALGRIND_DO_CLIENT_REQUEST_STMT(CGBENCH_CG_STOP_INSTRUMENTATION_, 0, 0, 0, 0, 0);
        CALLGRIND_TOGGLE_COLLECT;
    }
}

#ifdef __cplusplus
}
#endif

/* Begins / ends the region NAME (a string literal). */
#define CGBENCH_REGION_BEGIN(name) cgbench_region_enter_("cgbench:begin:" name)
#define CGBENCH_REGION_END(name) cgbench_region_leave_("cgbench:end:" name)

#ifdef __cplusplus
namespace cgbench {

/* A region that begins when constructed and ends when destroyed. The name may be built at
 * run time; outside Valgrind the tags are not even formatted. */
class Region {
  public:
    explicit Region(const char* name) noexcept {
        if (!cgbench_under_valgrind_()) return;
        char begin_tag[kTagSize];
        tag(begin_tag, "cgbench:begin:", name);
        tag(end_tag_, "cgbench:end:", name);
        cgbench_region_enter_(begin_tag);
    }
    ~Region() { cgbench_region_leave_(end_tag_); }
    Region(const Region&) = delete;
    Region& operator=(const Region&) = delete;

  private:
    static constexpr unsigned kNameMax = 200;
    static constexpr unsigned kTagSize = kNameMax + 16;

    /* out = prefix + the first kNameMax bytes of name. */
    static void tag(char* out, const char* prefix, const char* name) noexcept {
        unsigned n = 0;
        while (*prefix != '\0')
            out[n++] = *prefix++;
        for (unsigned i = 0; i < kNameMax && name[i] != '\0'; ++i)
            out[n++] = name[i];
        out[n] = '\0';
    }

    char end_tag_[kTagSize];
};

}  // namespace cgbench
#endif

#endif /* CGBENCH_CGBENCH_H */
