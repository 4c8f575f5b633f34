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
 * How it works. cgbench measures regions with one of two Valgrind tools:
 *
 * - Cachegrind (Valgrind 3.22 and later, the default there). The macros issue Cachegrind's
 *   own start/stop requests (CACHEGRIND_START_INSTRUMENTATION / STOP, --instr-at-start=no),
 *   so only the region is simulated; the rest of the program runs almost as fast as under
 *   no tool at all. Cachegrind sums everything instrumented into one profile, so cgbench
 *   runs the program once per region name, choosing the region through the environment:
 *   CGBENCH_REGION=NAME instruments only NAME; set but empty, it instruments the first
 *   region begun. While CGBENCH_REGION is set, every BEGIN and END outside the chosen
 *   region writes a marker to Valgrind's log ("cgbench:begin:LENGTH:NAME"), from which
 *   cgbench learns the names, checks that regions nest and counts entries; inside it only
 *   a notice that regions began there ("cgbench:nested", at its END), upon which cgbench
 *   runs the program once more with CGBENCH_REGION set to a newline (a name no region can
 *   have: nothing chosen, every marker written). Without CGBENCH_REGION every outermost
 *   region is instrumented (a plain `valgrind --tool=cachegrind --instr-at-start=no`).
 *   Each start and stop makes Valgrind retranslate the program's code (about a
 *   millisecond each), so a region entered very often is slow to measure.
 *   Between two entries of a region the simulated caches keep what the region left: the
 *   code in between is not simulated.
 * - Callgrind (any Valgrind; below 3.22 the only one), with --collect-atstart=no. Every
 *   BEGIN and END asks Callgrind for a dump (CALLGRIND_DUMP_STATS_AT "cgbench:begin:NAME" /
 *   "cgbench:end:NAME"); each dump holds the costs since the previous one, and cgbench adds
 *   each dump to every region that was open during it, all in one run. The outermost BEGIN
 *   switches collection on after its dump, the outermost END switches it off after its
 *   dump (CALLGRIND_TOGGLE_COLLECT). The whole program's caches are simulated.
 *
 * Either way a region counts its own code plus about 15 instructions of the macros and
 * nothing of the setup around it (under Cachegrind, a region nested in it adds a few
 * instructions per byte of its name: telling the chosen region apart). Each tool silently
 * ignores the other's requests. Results of the two tools are never compared.
 *
 * Outside Valgrind the macros do nothing but read a thread-local flag (set by one
 * RUNNING_ON_VALGRIND request per thread) and branch: a BEGIN/END pair costs well under a
 * nanosecond (bench/region_overhead.cpp).
 *
 * Limits:
 * - Regions must nest (END the inner one before the outer one) and every BEGIN needs its END
 *   before the program exits; cgbench fails the benchmark (exit 3) otherwise, naming it.
 * - The nesting depth is kept per thread, and Callgrind switches collection per thread, but a
 *   dump holds the costs of every thread, and Cachegrind instruments every thread while a
 *   region is open: measure regions from one thread at a time.
 * - Each BEGIN and END writes a dump file (Callgrind) or retranslates the code (Cachegrind),
 *   so put a region around a hot loop, not inside it.
 * - Cachegrind: regions nested more than 64 deep cannot be chosen; two regions whose names
 *   have the same length and 64-bit hash would be measured together (names are told apart
 *   by FNV-1a, so that END needs no string comparison inside the region).
 * - Names must not contain newlines; cgbench::Region keeps the first 200 bytes of a name.
 * - The toggles assume --collect-atstart=no, which `cgbench run --regions` passes; under a
 *   plain `valgrind --tool=callgrind` they invert what is collected.
 * - Needs GCC or Clang (weak thread-local symbol, so that every translation unit and shared
 *   library of the program shares one depth counter).
 */
#ifndef CGBENCH_CGBENCH_H
#define CGBENCH_CGBENCH_H

#include <stdlib.h>
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

/* Cachegrind's choice of region (CGBENCH_REGION), per process: -1 not read yet, 0 unset
 * (every outermost region, no markers), 1 set; the chosen name's length and FNV-1a hash
 * (length 0: the first region begun is chosen when it begins); whether a region began
 * inside the chosen one since the last notice; per thread, which open regions are the chosen
 * one (bit d: the region entered at depth d) and how many of them are open. */
extern int cgbench_cg_mode_;
extern unsigned long cgbench_cg_length_;
extern unsigned long long cgbench_cg_hash_;
extern int cgbench_cg_nested_;
extern __thread unsigned long long cgbench_cg_chosen_bits_;
extern __thread unsigned cgbench_cg_chosen_open_;
__attribute__((weak)) int cgbench_cg_mode_ = -1;
__attribute__((weak)) unsigned long cgbench_cg_length_ = 0;
__attribute__((weak)) unsigned long long cgbench_cg_hash_ = 0;
__attribute__((weak)) int cgbench_cg_nested_ = 0;
__attribute__((weak)) __thread unsigned long long cgbench_cg_chosen_bits_ = 0;
__attribute__((weak)) __thread unsigned cgbench_cg_chosen_open_ = 0;

/* The length of `name` and its 64-bit FNV-1a hash. */
static __inline__ unsigned long long cgbench_name_hash_(const char* name, unsigned long* length) {
    unsigned long long h = 14695981039346656037ULL;
    unsigned long n = 0;
    for (; name[n] != '\0'; ++n) {
        h = (h ^ (unsigned char)name[n]) * 1099511628211ULL;
    }
    *length = n;
    return h;
}

/* Whether requests reach a Valgrind tool. Asked once per thread, so that outside Valgrind
 * a region costs a load and a branch instead of six requests. The first thread to ask also
 * reads CGBENCH_REGION. */
static __inline__ int cgbench_under_valgrind_(void) {
    if (__builtin_expect(cgbench_on_valgrind_ < 0, 0)) {
        cgbench_on_valgrind_ = RUNNING_ON_VALGRIND ? 1 : 0;
        if (cgbench_on_valgrind_ && cgbench_cg_mode_ < 0) {
            const char* chosen = getenv("CGBENCH_REGION");
            cgbench_cg_mode_ = chosen != 0;
            if (chosen != 0) cgbench_cg_hash_ = cgbench_name_hash_(chosen, &cgbench_cg_length_);
        }
    }
    return cgbench_on_valgrind_;
}

/* Cachegrind with CGBENCH_REGION set, BEGIN of `name` at depth `depth`. Inside the chosen
 * region (instrumented) it only notes that a region began there. Outside, it writes the
 * marker, then starts instrumenting (last, so none of this is counted) when this is the
 * chosen region. */
static __inline__ void cgbench_cg_enter_(const char* name, unsigned depth) {
    unsigned long length = 0;
    const unsigned long long hash = cgbench_name_hash_(name, &length);
    if (cgbench_cg_length_ == 0) { /* the first region begun is the chosen one */
        cgbench_cg_hash_ = hash;
        cgbench_cg_length_ = length;
    }
    const int chosen = depth < 64 && length == cgbench_cg_length_ && hash == cgbench_cg_hash_;
    if (cgbench_cg_chosen_open_ > 0) {
        cgbench_cg_nested_ = 1;
        if (chosen) {
            cgbench_cg_chosen_bits_ |= 1ULL << depth;
            ++cgbench_cg_chosen_open_;
        }
        return;
    }
    VALGRIND_PRINTF("cgbench:begin:%lu:%s\n", length, name);
    if (chosen) {
        cgbench_cg_chosen_bits_ |= 1ULL << depth;
        cgbench_cg_chosen_open_ = 1;
        VALGRIND_DO_CLIENT_REQUEST_STMT(CGBENCH_CG_START_INSTRUMENTATION_, 0, 0, 0, 0, 0);
    }
}

/* Cachegrind with CGBENCH_REGION set, END of `name` entered at depth `depth`: instrumentation
 * off first when this ends the chosen region's outermost entry, then the marker (and a
 * notice when regions began inside it, whose markers were not written); nothing inside the
 * chosen region. */
static __inline__ void cgbench_cg_leave_(const char* name, unsigned depth) {
    const unsigned long long bit = depth < 64 ? 1ULL << depth : 0;
    if ((cgbench_cg_chosen_bits_ & bit) != 0) {
        cgbench_cg_chosen_bits_ &= ~bit;
        if (--cgbench_cg_chosen_open_ > 0) return;
        VALGRIND_DO_CLIENT_REQUEST_STMT(CGBENCH_CG_STOP_INSTRUMENTATION_, 0, 0, 0, 0, 0);
    } else if (cgbench_cg_chosen_open_ > 0) {
        return;
    }
    unsigned long length = 0;
    cgbench_name_hash_(name, &length);
    VALGRIND_PRINTF("cgbench:end:%lu:%s\n", length, name);
    if (cgbench_cg_nested_) {
        VALGRIND_PRINTF("cgbench:nested\n");
        cgbench_cg_nested_ = 0;
    }
}

/* Begins a region; `begin_tag` is "cgbench:begin:NAME". Callgrind: dumps first, then
 * switches collection on, so the interval before the region holds nothing of it.
 * Cachegrind: starts instrumenting last (every outermost region when none is chosen). */
static __inline__ void cgbench_region_enter_(const char* begin_tag) {
    if (!cgbench_under_valgrind_()) return;
    CALLGRIND_DUMP_STATS_AT(begin_tag);
    const unsigned depth = cgbench_region_depth_++;
    if (depth == 0) CALLGRIND_TOGGLE_COLLECT;
    if (cgbench_cg_mode_ > 0) {
        cgbench_cg_enter_(begin_tag + 14, depth); /* the name, after "cgbench:begin:" */
    } else if (depth == 0) {
        VALGRIND_DO_CLIENT_REQUEST_STMT(CGBENCH_CG_START_INSTRUMENTATION_, 0, 0, 0, 0, 0);
    }
}

/* Ends a region; `end_tag` is "cgbench:end:NAME". Cachegrind with CGBENCH_REGION set:
 * stops instrumenting first. Callgrind: dumps, then switches collection off when no region
 * is left open. An END without a BEGIN leaves the depth at zero. */
static __inline__ void cgbench_region_leave_(const char* end_tag) {
    if (!cgbench_under_valgrind_()) return;
    if (cgbench_cg_mode_ > 0) {
        const unsigned depth = cgbench_region_depth_ > 0 ? cgbench_region_depth_ - 1 : 0;
        cgbench_cg_leave_(end_tag + 12, depth); /* the name, after "cgbench:end:" */
    }
    CALLGRIND_DUMP_STATS_AT(end_tag);
    if (cgbench_region_depth_ > 0 && --cgbench_region_depth_ == 0) {
        if (cgbench_cg_mode_ == 0) {
            VALGRIND_DO_CLIENT_REQUEST_STMT(CGBENCH_CG_STOP_INSTRUMENTATION_, 0, 0, 0, 0, 0);
        }
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
