#pragma once
// Step detection made for exact counts. A benchmark measured at consecutive commits of a
// branch gives the same count again and again until something changes it; a step is a move
// that lasts (the next result does not return to the level before it). Each step is labelled:
// - environment: the fingerprint changed between the two results (a Valgrind, glibc, loader
//   cache, CPU baseline or compiler change...): never taken for a code change;
// - code: the fingerprint did not change and the move exceeds the benchmark's own wobble;
// - wobble: within that wobble.
// A benchmark's wobble bound is robust (Q3 + 3·IQR, as rustc-perf bounds relative changes) and
// comes from its own history: for each result between two comparable neighbours, how far it
// is from the nearer one (0 on a flat stretch and on either side of a lasting step; the size
// of the excursion for a one-result blip or for noise), and how far repeated measurements of
// one commit were apart. With exact counts it is 0, and every lasting move is a step.

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "history/explain.hpp"
#include "history/lines.hpp"
#include "history/model.hpp"

namespace cgbench::history {

enum class Label { Code, Environment, Wobble };
std::string_view to_string(Label label);

// Fewer samples than this say nothing about wobble: the bound is then 0.
inline constexpr std::size_t kMinWobbleSamples = 8;

struct WobbleBound {
    double bound = 0;          // relative; moves up to this are wobble
    std::size_t samples = 0;   // how many observations it rests on
};

// The wobble bound of one benchmark from all its lines.
WobbleBound wobble_bound(const History& h, const std::vector<Line>& lines,
                         const std::vector<std::size_t>& classes);

// A lasting move of one benchmark between two consecutive ok results of a line.
struct Step {
    std::size_t before = 0;  // index in the line's points
    std::size_t after = 0;
    double change = 0;  // (after - before) / before of the cost
    Label label = Label::Code;
    std::vector<std::string> environment;  // what changed, for Label::Environment
    // `after` is the line's newest ok result: whether the move lasts shows at the next one.
    bool pending = false;
};

// A move beyond the wobble bound that the next result undid: not a step.
struct Blip {
    std::size_t before = 0;
    std::size_t at = 0;
    double change = 0;
    bool environment = false;  // measured in another environment than its neighbours
};

struct LineSteps {
    std::vector<Step> steps;  // wobble steps too
    std::vector<Blip> blips;  // beyond the wobble bound
    // Every move between consecutive ok results in one environment; how many of them were
    // within the wobble bound (wobble steps, blips within it and the moves back); how many did
    // not last: within the bound, or a blip and its move back whatever their size.
    std::size_t moves = 0;
    std::size_t within = 0;
    std::size_t noise = 0;
};

// A wobble bound at least this wide (relative) hides changes compare reports (0.1%): when
// most of a benchmark's moves did not last, the benchmark is not repeatable.
inline constexpr double kWideWobble = 0.001;

// One benchmark's wobble on one branch: its bound and how its moves there fared against it.
struct BenchmarkWobble {
    std::string benchmark;
    WobbleBound wobble;
    std::size_t moves = 0;  // LineSteps::moves
    std::size_t noise = 0;  // LineSteps::noise
    // False when the bound is wide (kWideWobble) and most moves did not last: the
    // benchmark's moves are noise, and its steps say little.
    bool repeatable() const {
        return !(wobble.bound >= kWideWobble && moves > 0 && 2 * noise > moves);
    }
};

// The steps and blips of one line, given the benchmark's wobble bound.
LineSteps find_steps(const History& h, const Line& line, const std::vector<std::size_t>& classes,
                     const WobbleBound& wobble);

// A step of one benchmark, with the results on both sides.
struct BenchmarkStep {
    std::string benchmark;
    Result before;
    Result after;
    Step step;
    WobbleBound wobble;
    // What moved, when the results on both sides could be read (explain_step).
    std::optional<StepExplanation> explanation;
};

struct BenchmarkBlip {
    std::string benchmark;
    Result before;
    Result at;
    Blip blip;
};

// Benchmarks that stepped at one commit of one branch: one event.
struct StepEvent {
    std::size_t run = 0;  // the (earliest) run that measured the commit after the step
    std::vector<BenchmarkStep> steps;  // by benchmark name
};

// The steps of one branch, all benchmarks together.
struct BranchSteps {
    std::string branch;
    bool is_default = false;
    std::vector<std::size_t> runs;  // its runs that measured the benchmarks (clean), in order
    std::size_t commits = 0;        // distinct commits among them
    std::vector<Epoch> epochs;      // over `runs`
    std::size_t benchmarks = 0;     // benchmarks with results on the branch
    std::vector<StepEvent> events;  // oldest first
    std::vector<BenchmarkBlip> blips;  // when StepsOptions::list_blips
    std::size_t blip_count = 0;        // how many blips were found (listed or not)
    std::size_t wobble_steps = 0;      // how many steps were wobble (in `events` only when asked)
    std::size_t wobble_moves = 0;      // moves within the wobble bound, steps or not
    std::vector<BenchmarkWobble> wobble;  // each benchmark on the branch, in the order added
};

struct StepsOptions {
    std::string default_branch;         // listed first
    std::optional<std::string> branch;  // only this one
    bool include_wobble = false;        // list wobble steps in the events
    bool list_blips = true;             // list the blips (else only count them)
};

// The steps of every series of `h`, by branch (the default branch first).
std::vector<BranchSteps> find_all_steps(const History& h, const StepsOptions& options);

// find_all_steps one series at a time, for series read one after another and not kept
// (HistoryBackend::scan_series): add() each series over the runs of `h`, then finish().
// `h` must outlive the finder; its own series are not looked at.
class StepFinder {
  public:
    StepFinder(const History& h, StepsOptions options);
    ~StepFinder();
    StepFinder(const StepFinder&) = delete;
    StepFinder& operator=(const StepFinder&) = delete;

    void add(const Series& series);
    std::vector<BranchSteps> finish();

  private:
    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace cgbench::history
