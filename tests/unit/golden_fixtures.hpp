#pragma once
// The models of the golden-file tests (test_report_golden.cpp), one per model a format can
// render, whose names attack every format: quotes, < > &, Markdown pipes and backticks,
// newlines and control characters, bytes that are not UTF-8, a very long name. Fixed numbers
// and dates, so each rendering is the same on every machine.

#include <cstdint>
#include <string>
#include <vector>

#include "calibrate/calibration.hpp"
#include "compare/comparison.hpp"
#include "history/steps.hpp"
#include "history_fixtures.hpp"
#include "report/backfill_reporter.hpp"
#include "report/bisect_reporter.hpp"
#include "report/history_reporter.hpp"
#include "report/steps_reporter.hpp"
#include "run_fixtures.hpp"

namespace cgbench::testing_fixtures {

// Names that try to break out of each format's quoting, one attack each.
inline std::vector<std::string> hostile_names() {
    return {
        "quote \"double\" 'single'",
        "<img src=x onerror=alert(1)> & &amp; </testcase>]]>",
        "pipe | **bold** _em_ [link](javascript:alert(1)) #7",
        "tick `code` ```fence``` ~~gone~~ <!-- c -->",
        "line\nbreak\r\ttab \x1b[2Jclear \x7f\x01 \xc2\x9b"
        "2J C1",
        "bytes \xff\xfe \xc3( \xe2\x82 end",
        "long/" + std::string(200, 'x') + "/end",
    };
}

// Text a failed program could print on stderr: a Markdown fence, HTML, an XML end tag.
inline std::string hostile_stderr() {
    return "```\n</details><img src=x onerror=alert(1)>\n]]></failure>\x1b[31m\xff\n~~~ end";
}

// Functions of a result costing `cost` in all: two named after `names`, then "(other)".
inline std::vector<FunctionResult> hostile_functions(const std::vector<std::string>& names,
                                                     std::uint64_t cost) {
    std::vector<FunctionResult> out;
    out.push_back(FunctionResult{names.at(1) + ".c", names.at(0), {}, cost / 2});
    out.push_back(FunctionResult{names.at(3), names.at(2), {}, cost / 4});
    out.push_back(FunctionResult{"", std::string(kOtherFunctions), {}, cost - cost / 2 - cost / 4});
    for (auto& f : out)
        f.events.set(metrics::Event::Ir, f.cost / 2);
    return out;
}

// Three processes named to attack, the second a failed child.
inline std::vector<ProcessResult> hostile_processes(std::uint64_t cost) {
    const auto names = hostile_names();
    std::vector<ProcessResult> out(3);
    out[0].command = "./" + names[0];
    out[1].command = names[1] + " --child";
    out[1].parent = 0;
    out[1].signal = 11;
    out[2].command = names[4];
    out[2].parent = 0;
    out[2].forked = true;
    for (std::size_t i = 0; i < out.size(); ++i) {
        out[i].cost = cost / 4 * (i + 1);
        out[i].events.set(metrics::Event::Ir, out[i].cost / 2);
    }
    return out;
}

// A run of one benchmark per hostile name (the first ran three processes, the third differed
// across runs), then one that failed with hostile stderr; warnings quote the names.
inline RunResult hostile_run(std::uint64_t scale = 1000) {
    const auto names = hostile_names();
    std::vector<BenchmarkResult> benchmarks;
    for (std::size_t i = 0; i < names.size(); ++i) {
        auto b = bench(names[i], scale * (i + 1));
        b.functions = hostile_functions(names, b.cost);
        benchmarks.push_back(std::move(b));
    }
    benchmarks[0].processes = hostile_processes(benchmarks[0].cost);
    benchmarks[2].runs = 3;
    benchmarks[2].spread = {{metrics::Event::Ir, 3000, 3004}};
    benchmarks[3].warnings = {"region '" + names[3] + "' executed only 22 instructions"};
    auto failed = failed_bench(names[1] + " (failed)");
    failed.error = "exited with status 3: " + names[4];
    failed.stderr_tail = hostile_stderr();
    failed.warnings = {"warning about " + names[1]};
    benchmarks.push_back(std::move(failed));
    auto r = run("run-\"1\"<&>", std::move(benchmarks));
    r.git.branch = names[2];
    r.warnings = {"ASLR could not be disabled: " + names[4]};
    return r;
}

// HEAD against BASE: the first names regress (functions and processes moved), one improves,
// one is added, one removed, the failed one still fails; labels, notes and warnings attack.
inline compare::Comparison hostile_comparison() {
    const auto names = hostile_names();
    auto base = hostile_run(1000);
    auto head = hostile_run(1000);
    for (const std::size_t i : std::vector<std::size_t>{0, 1, 5, 6}) {
        auto& b = head.benchmarks[i];
        b = bench(b.name, (i < 2 ? 2000 : 1100) * (i + 1));
        b.functions = hostile_functions(names, b.cost);
        b.functions[1].cost += 7;  // moves beyond the others
        b.functions[2].cost -= 7;
    }
    head.benchmarks[0].processes = hostile_processes(head.benchmarks[0].cost);
    head.benchmarks[2] = bench(names[2], 1500);
    head.benchmarks[4].name = names[3] + " (new)";
    base.benchmarks[4].name = names[4] + " (gone)";
    auto c = compare::compare_runs(base, compare::side_of(base, "base " + names[0]), head,
                                   compare::side_of(head, "head " + names[2]), {});
    c.notes = {"a note about " + names[4]};
    c.warnings = {"a warning about " + names[4]};
    return c;
}

// Three runs, the last with uncommitted changes and a new fingerprint, of one benchmark
// named `name`, on a branch with a hostile name.
inline history::History hostile_history(const std::string& name) {
    const auto names = hostile_names();
    HistoryBuilder b;
    std::vector<std::size_t> runs;
    for (int i = 0; i < 6; ++i)
        runs.push_back(b.add_run(i < 3 ? "main" : names[2]));
    b.change_fingerprint([](Fingerprint& f) { f.cpu_baseline = "native"; });
    runs.push_back(b.add_run(names[2], true));
    b.series(name, runs, {1000, 1000, 1200, 1200, std::nullopt, 1210, 1500});
    auto h = b.take();
    h.runs[2].id = "run-\"2\"<&>";
    // What git said of the commits when they were measured (the first run has nothing: an
    // older cgbench's), one run a bisect probe, and what ordering them found.
    for (std::size_t i = 1; i < h.runs.size(); ++i) {
        auto& git = h.runs[i].git;
        git.commit_time = fmt::format("2020-05-0{}T12:00:00+02:00", i);
        git.author_time = "2020-04-30T09:00:00-07:00";
        git.subject = "subject " + names[i % names.size()];
        git.parents = {HistoryBuilder::commit_of(i - 1)};
        git.first_parent_depth = i + 1;
    }
    h.runs[3].recorded_by = "bisect";
    const history::LineConflict rewrite{names[2], h.runs[4].git.commit.value_or(""),
                                        h.runs[5].git.commit.value_or(""), 5, true};
    h.ordering = {true, 6, 0, 1, {rewrite}, 2};
    return h;
}

// The runs of `cgbench history` without a name: ids, branches and keys attack.
inline std::vector<history::RunRow> hostile_run_rows() {
    const auto names = hostile_names();
    std::vector<history::RunRow> rows;
    for (std::size_t i = 0; i < 3; ++i) {
        history::RunRow r;
        r.id = "run-" + names[i];
        r.started = "2026-11-0" + std::to_string(i + 1) + "T03:15:00Z";
        r.git.commit = HistoryBuilder::commit_of(i);
        r.git.branch = names[i + 2];
        r.git.dirty = i == 1;
        r.benchmarks = 7;
        r.failed = i;
        r.fingerprint_key = "key " + names[1];
        rows.push_back(std::move(r));
    }
    return rows;
}

// The steps of two hostile series over a history like hostile_history's, the code step
// explained by functions with hostile names, commit subjects that attack.
inline report::StepsReport hostile_steps(const history::History& h) {
    const auto names = hostile_names();
    report::StepsReport r;
    r.database = "/tmp/" + names[0] + ".db";
    r.history = &h;
    r.branches = history::find_all_steps(h, {names[2], std::nullopt, true, true});
    for (std::size_t i = 0; i < h.runs.size(); ++i) {
        r.commits[h.runs[i].git.commit.value_or("")] = {
            "subject " + names[i % names.size()], "author " + names[1], "2026-11-01T00:00:00Z"};
    }
    for (auto& branch : r.branches) {
        branch.wobble.push_back({"timed " + names[1], {0.4213, 12}, 11, 9});
        for (auto& event : branch.events) {
            for (auto& step : event.steps) {
                step.explanation = history::StepExplanation{
                    {{metrics::Metric::event(metrics::Event::Ir), 800, 960}},
                    true,
                    {{names[1], names[0], "", 100, 260, 160, 0.8},
                     {"b.c", names[3], "", 50, 90, 40, 0.2}}};
            }
        }
    }
    return r;
}

// Two series named to attack on a branch named to attack, for hostile_steps: a code step, an
// environment step of both and a one-commit blip.
inline history::History hostile_steps_history() {
    const auto names = hostile_names();
    HistoryBuilder b;
    std::vector<std::size_t> runs;
    for (int i = 0; i < 5; ++i)
        runs.push_back(b.add_run(names[2]));
    b.change_fingerprint([](Fingerprint& f) { f.cpu_baseline = "native"; });
    for (int i = 0; i < 3; ++i)
        runs.push_back(b.add_run(names[2]));
    b.series(names[0], runs,
             flat(3, 1000) + flat(2, 1200) + flat(1, 1300) + flat(1, 1900) + flat(1, 1300));
    b.series(names[4], runs, flat(5, 5000) + flat(3, 5100));
    return b.take();
}

// A bisect that found its commit after skipping one, with hostile details and subjects and
// the change at the commit it found.
inline report::BisectReport hostile_bisect() {
    const auto names = hostile_names();
    report::BisectReport r;
    r.good = HistoryBuilder::commit_of(0);
    r.bad = HistoryBuilder::commit_of(8);
    r.commits = 9;
    r.gate = names[2] + ":cost 1%|1000, " + names[4] + ":Ir 0%|0";
    r.probes = {{r.bad, "measured", history::Verdict::Moved, names[0] + " +10.00%", 12.5},
                {HistoryBuilder::commit_of(4), "history", history::Verdict::Moved, names[1], 0},
                {HistoryBuilder::commit_of(2), "build failed", std::nullopt, names[4], 3.25},
                {HistoryBuilder::commit_of(1), "measured", history::Verdict::Unmoved, "", 10}};
    r.moved = true;
    r.first_moved = HistoryBuilder::commit_of(3);
    r.last_unmoved = HistoryBuilder::commit_of(1);
    r.skipped = {HistoryBuilder::commit_of(2)};
    r.change = hostile_comparison();
    for (const auto& c : {r.good, r.bad, *r.first_moved, *r.last_unmoved}) {
        r.commit_info[c] = {"subject " + names[3], "author " + names[5], "2026-11-02T10:20:30Z"};
    }
    r.from_history = 1;
    r.measured = 2;
    return r;
}

// A bisect whose BAD stayed within the gate: its largest move and the threshold offered.
inline report::BisectReport hostile_bisect_within() {
    auto r = hostile_bisect();
    r.moved = false;
    r.first_moved.reset();
    r.last_unmoved.reset();
    r.skipped.clear();
    r.change.reset();
    r.largest = report::LargestMove{hostile_names()[0], 0.0039, 4000, "0.3%"};
    return r;
}

// A backfill of five commits with every outcome, subjects and details that attack.
inline report::BackfillReport hostile_backfill() {
    const auto names = hostile_names();
    report::BackfillReport r;
    r.range = "v1.0.." + names[2];
    r.branch = names[2];
    r.database = "/tmp/" + names[0] + ".db";
    r.fingerprint = "9baeb72204302898";
    r.in_range = 57;
    r.shallow = true;
    r.seconds = 42.25;
    const report::BackfillOutcome outcomes[] = {
        report::BackfillOutcome::Measured, report::BackfillOutcome::Stored,
        report::BackfillOutcome::BuildFailed, report::BackfillOutcome::BenchmarkFailed,
        report::BackfillOutcome::CannotMeasure};
    for (std::size_t i = 0; i < 5; ++i) {
        r.commits.push_back({HistoryBuilder::commit_of(i), "subject " + names[i],
                             fmt::format("2021-0{}-01T10:00:00+01:00", i + 1), outcomes[i],
                             i >= 2 ? "detail " + names[5] : "", i == 2 || i == 4 ? "" : "run-1",
                             i == 1 ? 0 : 3.5 + static_cast<double>(i)});
    }
    return r;
}

// What `cgbench annotate` shows: the first hostile benchmark of hostile_run.
inline BenchmarkResult hostile_functions_result() {
    auto b = hostile_run().benchmarks.at(0);
    b.functions.insert(b.functions.begin() + 1, FunctionResult{"", hostile_names()[5], {}, 0});
    return b;
}

// A calibration of two kernels and a suite benchmark named to attack, with mispredicts and a
// held-out program also named to attack, with fixed timings and weight sets (no fit: the
// numbers must not depend on the machine's floating point).
inline calibrate::Calibration hostile_calibration() {
    calibrate::Calibration c;
    const auto names = hostile_names();
    const std::vector<std::string> kernels = {"walk/linear/1K", "walk/random/64M",
                                              names[1] + names[4]};
    for (std::size_t i = 0; i < kernels.size(); ++i) {
        calibrate::KernelResult k;
        k.kernel.name = kernels[i];
        k.kernel.family = i == 2 ? "suite" : i == 0 ? "walk/linear" : "walk/random";
        if (i < 2) k.kernel.working_set = i == 0 ? 1024 : 64 << 20;
        const double n = i == 0 ? 1.0 : i == 1 ? 2.0 : 3.0;
        k.timing = {{1000.0 * n, 1010.0 * n}, 1005.0 * n, 0.01, 0.005};
        k.hits = {2'000'000 * (i + 1), 100'000 * i, 10'000 * i * i};
        k.ir = 1'000'000 * (i + 1);
        k.mispredicts = 1'000 * i;
        c.kernels.push_back(std::move(k));
    }
    calibrate::KernelResult program;
    program.kernel.name = "program " + names[2];
    program.kernel.family = "program";
    program.timing = {{50000.0, 50500.0}, 50250.0, 0.01, 0.005};
    program.hits = {90'000'000, 2'000'000, 300'000};
    program.ir = 60'000'000;
    program.mispredicts = 400'000;
    c.programs.push_back(std::move(program));
    c.model.mispredicts = true;
    using calibrate::Term;
    const std::vector<Term> hits = {Term::L1, Term::LL, Term::Ram};
    const std::vector<Term> branchy = {Term::L1, Term::LL, Term::Ram, Term::Mispredicts};
    const auto set = [](std::string name, std::vector<Term> terms, std::vector<double> weights,
                        bool fitted, calibrate::Agreement sweep, calibrate::Agreement programs) {
        calibrate::WeightSet s;
        s.name = std::move(name);
        s.terms = std::move(terms);
        s.weights = std::move(weights);
        if (fitted) s.exact = {1, 4.02, 59.7, 12.3};
        s.exact.resize(s.terms.size() * fitted);
        s.fitted = fitted;
        s.agreement = std::move(sweep);
        s.programs = std::move(programs);
        return s;
    };
    c.sets = {set("pythonspeed", hits, {1, 5, 35}, false,
                  {0.0005, 0.99, 0.98, 0.05, {1000, 2100, 2950}}, {0.0005, 1, 1, 0.4, {30000}}),
              set("kcachegrind", hits, {1, 10, 100}, false,
                  {0.0004, 0.97, 0.93, 0.08, {990, 2200, 3300}}, {0.0004, 1, 1, 0.3, {35000}}),
              set("fitted", hits, {1, 4, 60}, true, {0.0005, 0.995, 0.99, 0.02, {1004, 2020, 3010}},
                  {0.0005, 1, 1, 0.2, {40000}}),
              set("pythonspeed + mispredicts", branchy, {1, 5, 35, 20}, false,
                  {0.0005, 0.991, 0.98, 0.04, {1002, 2110, 2960}}, {0.0005, 1, 1, 0.25, {37500}}),
              set("kcachegrind + mispredicts", branchy, {1, 10, 100, 10}, false,
                  {0.0004, 0.972, 0.94, 0.07, {991, 2210, 3310}}, {0.0004, 1, 1, 0.2, {40000}}),
              set("fitted + mispredicts", branchy, {1, 4, 60, 12}, true,
                  {0.0005, 0.998, 0.995, 0.01, {1005, 2015, 3012}}, {0.0005, 1, 1, 0.05, {47700}})};
    c.fitted = metrics::Weights{"calibrated", 1, 4, 60, false, 12};
    c.fitted_exact = {1, 4.02, 59.7, 12.3};
    c.context.fingerprint = run("x", {}).fingerprint;
    c.context.fingerprint.branch_sim = true;
    c.context.started = "2026-11-22T03:15:00Z";
    c.context.cpu_model = "CPU " + names[1] + names[4];
    c.context.steps = 2097152;
    c.context.native.clock = calibrate::Clock::Cpu;
    c.context.cycles_unavailable = names[4];
    c.context.pin_failure = names[0];
    c.context.cpus = 2;
    return c;
}

}  // namespace cgbench::testing_fixtures
