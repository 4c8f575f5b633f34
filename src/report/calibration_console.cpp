// `cgbench calibrate` on the console: how it was measured, every kernel, every weight set.

#include <fmt/format.h>

#include <algorithm>

#include "report/calibration_report.hpp"
#include "report/run_summary.hpp"
#include "report/text_table.hpp"
#include "util/strings.hpp"

namespace cgbench::report {

namespace {

using calibrate::Calibration;
using calibrate::Clock;

std::string number(double v) {
    if (v == 0) return "0";
    if (v >= 100 || v == static_cast<double>(static_cast<long long>(v))) {
        return fmt::format("{:.0f}", v);
    }
    return v >= 10 ? fmt::format("{:.1f}", v) : fmt::format("{:.2f}", v);
}

std::string spread(const calibrate::Timing& t) {
    return fmt::format("±{:.1f}%", t.spread * 100);
}

std::string time_cell(const calibrate::Timing& t, Clock clock) {
    return fmt::format("{:.3f}", calibrate::in_units(clock, t.median));
}

std::string how_timed(const calibrate::CalibrationContext& x) {
    const auto& n = x.native;
    std::string clock = n.clock == Clock::Cycles ? "CPU cycles"
                        : n.clock == Clock::Cpu  ? "CPU time"
                                                 : "wall time";
    if (n.clock != Clock::Cycles && !x.cycles_unavailable.empty()) {
        clock += fmt::format(" (no cycle counter: {})", util::printable(x.cycles_unavailable));
    }
    const std::string pinned = x.pinned_cpu ? fmt::format("pinned to CPU {}", *x.pinned_cpu)
                               : x.pin_failure.empty()
                                   ? std::string("not pinned")
                                   : fmt::format("not pinned ({})", util::printable(x.pin_failure));
    return fmt::format(
        "native: {} · {} · median of {} runs ({} rounds × {}, after {} warm-up loop{}) · {} "
        "steps per loop",
        clock, pinned, n.rounds * n.repeat, n.rounds, n.repeat, n.warmups,
        n.warmups == 1 ? "" : "s", util::with_commas(x.steps));
}

std::string conditions(const calibrate::CalibrationContext& x) {
    std::string out = x.cpu_model.empty() ? std::string() : util::printable(x.cpu_model) + " · ";
    out += fmt::format("{} CPU{} · ", x.cpus, x.cpus == 1 ? "" : "s");
    if (x.load_before && x.load_after) {
        out += fmt::format("load average {:.2f} before the native runs, {:.2f} after · ",
                           *x.load_before, *x.load_after);
    }
    out += fmt::format("native {:.1f} s, Valgrind {:.1f} s", x.native_seconds, x.simulated_seconds);
    if (!x.l2.empty()) out += fmt::format(" (L2 hits from a second run with LL={})", x.l2);
    return out;
}

}  // namespace

std::string simulated_with(const Fingerprint& f) {
    const std::string all = provenance(f);
    return all.substr(0, all.find(" · weights ")) + (f.branch_sim ? " · branch simulation" : "");
}

std::string relative_error(double predicted, double measured) {
    return fmt::format("{:+.1f}%", (predicted - measured) / measured * 100);
}

std::string describe_weights(const calibrate::WeightSet& set) {
    // L1 / LL / RAM first, unlabelled, as the column's title says; the other terms labelled.
    std::vector<std::string> base, extra;
    for (const auto t : {calibrate::Term::L1, calibrate::Term::LL, calibrate::Term::Ram}) {
        for (std::size_t i = 0; i < set.terms.size(); ++i) {
            if (set.terms[i] == t) base.push_back(number(set.weights[i]));
        }
    }
    for (std::size_t i = 0; i < set.terms.size(); ++i) {
        if (!calibrate::in_cost(set.terms[i]) || set.terms[i] == calibrate::Term::Mispredicts) {
            extra.push_back(
                fmt::format("{} {}", calibrate::to_string(set.terms[i]), number(set.weights[i])));
        }
    }
    base.insert(base.end(), extra.begin(), extra.end());
    return util::join(base, " / ");
}

namespace {

// The kernels (or programs) with their counts and each weight set's error, `predicted` giving
// a set's prediction for row i.
template <typename Predicted>
std::string kernel_table(const Calibration& c, const std::vector<calibrate::KernelResult>& rows,
                         std::string_view first, Predicted predicted, bool color) {
    const auto& x = c.context;
    std::vector<std::pair<std::string, Align>> columns = {
        {std::string(first), Align::Left},
        {fmt::format("time {}", calibrate::unit_of(x.native.clock)), Align::Right},
        {"spread", Align::Right},
        {"L1 hits", Align::Right},
        {"LL hits", Align::Right},
        {"RAM hits", Align::Right}};
    if (c.model.l2) columns.emplace_back("L2 hits", Align::Right);
    if (c.model.mispredicts) columns.emplace_back("mispredicts", Align::Right);
    for (const auto& s : c.sets)
        columns.emplace_back(s.name, Align::Right);
    TextTable table(columns);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& k = rows[i];
        std::vector<std::string> row = {util::printable(k.kernel.name),
                                        time_cell(k.timing, x.native.clock),
                                        spread(k.timing),
                                        util::with_commas(k.hits.l1_hits),
                                        util::with_commas(k.hits.ll_hits),
                                        util::with_commas(k.hits.ram_hits)};
        if (c.model.l2) row.push_back(util::with_commas(k.l2_hits.value_or(0)));
        if (c.model.mispredicts) row.push_back(util::with_commas(k.mispredicts.value_or(0)));
        for (const auto& s : c.sets)
            row.push_back(relative_error(predicted(s, i), k.timing.median));
        table.add_row(std::move(row));
    }
    return table.render(0, color);
}

void agreement_cells(const calibrate::Agreement& a, std::vector<std::string>& row) {
    row.push_back(fmt::format("{:.3f}", a.pearson_r));
    row.push_back(fmt::format("{:.3f}", a.r_squared));
    row.push_back(fmt::format("{:.1f}%", a.median_abs_error * 100));
}

std::string sets_table(const Calibration& c, bool color) {
    std::vector<std::pair<std::string, Align>> columns = {{"weights", Align::Left},
                                                          {"L1 / LL / RAM", Align::Right},
                                                          {"r", Align::Right},
                                                          {"R²", Align::Right},
                                                          {"median error", Align::Right}};
    const bool programs = !c.programs.empty();
    if (programs) {
        for (const char* title : {"programs: r", "R²", "median error"})
            columns.emplace_back(title, Align::Right);
    }
    TextTable sets(columns);
    for (const auto& s : c.sets) {
        std::vector<std::string> row = {s.name, describe_weights(s)};
        agreement_cells(s.agreement, row);
        if (programs && s.programs) agreement_cells(*s.programs, row);
        sets.add_row(std::move(row));
    }
    return sets.render(0, color);
}

std::string notes(const Calibration& c) {
    const calibrate::WeightSet* chosen = nullptr;
    calibrate::usable_fit(c.sets, &chosen);
    std::vector<std::string> exact;
    for (std::size_t i = 0; i < chosen->terms.size() && i < c.fitted_exact.size(); ++i) {
        exact.push_back(
            fmt::format("{} {:.3g}", calibrate::to_string(chosen->terms[i]), c.fitted_exact[i]));
    }
    std::string out = fmt::format("{} exactly: {}", chosen->name, util::join(exact, " / "));
    if (std::any_of(c.sets.begin(), c.sets.end(), [](const auto& s) { return !s.usable; })) {
        out +=
            " · the sets with Ir or L2 weigh terms cgbench's cost does not have: shown for "
            "comparison only";
    }
    if (!c.programs.empty()) {
        out +=
            "\nprograms: held out of every fit; each set predicts their times with the scale "
            "it has on the sweep";
    }
    return out + "\n";
}

}  // namespace

std::string render_calibration_console(const Calibration& c, bool color) {
    const auto& x = c.context;
    std::string out = "cgbench calibrate · " + simulated_with(x.fingerprint) + "\n";
    out += how_timed(x) + "\n" + conditions(x) + "\n\n";
    out += kernel_table(
        c, c.kernels, "kernel",
        [](const calibrate::WeightSet& s, std::size_t i) { return s.agreement.predicted[i]; },
        color);
    out += fmt::format(
        "(the last columns: each weight set's predicted time against the measured median; "
        "weights fitted and every set scaled by least squares of {} error)\n\n",
        calibrate::to_string(c.model.objective));
    if (!c.programs.empty()) {
        out += kernel_table(
            c, c.programs, "program (held out)",
            [](const calibrate::WeightSet& s, std::size_t i) { return s.programs->predicted[i]; },
            color);
        out += "\n";
    }
    out += sets_table(c, color);
    return out + notes(c);
}

std::string render_timings_console(const std::vector<calibrate::Kernel>& kernels,
                                   const std::vector<calibrate::Timing>& timings, Clock clock,
                                   double max_noise) {
    TextTable t({{"kernel", Align::Left},
                 {fmt::format("time {}", calibrate::unit_of(clock)), Align::Right},
                 {"spread", Align::Right},
                 {"median ±", Align::Right},
                 {"runs", Align::Right},
                 {"", Align::Left}});
    for (std::size_t i = 0; i < timings.size() && i < kernels.size(); ++i) {
        const auto& tm = timings[i];
        t.add_row({util::printable(kernels[i].name), time_cell(tm, clock), spread(tm),
                   fmt::format("±{:.1f}%", tm.uncertainty * 100), std::to_string(tm.values.size()),
                   tm.median <= 0 || tm.uncertainty > max_noise ? "too noisy" : ""});
    }
    return t.render();
}

namespace {

class ConsoleCalibrationReporter final : public CalibrationReporter {
  public:
    std::string render(const Calibration& c, const RenderOptions& o) const override {
        return render_calibration_console(c, o.color);
    }
};

}  // namespace

std::unique_ptr<CalibrationReporter> make_console_calibration_reporter() {
    return std::make_unique<ConsoleCalibrationReporter>();
}

}  // namespace cgbench::report
