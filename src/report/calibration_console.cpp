// `cgbench calibrate` on the console: how it was measured, every kernel, every weight set.

#include <fmt/format.h>

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
    return out + fmt::format("native {:.1f} s, Valgrind {:.1f} s", x.native_seconds,
                             x.simulated_seconds);
}

}  // namespace

std::string simulated_with(const Fingerprint& f) {
    const std::string all = provenance(f);
    return all.substr(0, all.find(" · weights "));
}

std::string relative_error(double predicted, double measured) {
    return fmt::format("{:+.1f}%", (predicted - measured) / measured * 100);
}

std::string describe_weights(const calibrate::WeightSet& set) {
    std::vector<std::string> parts;
    for (std::size_t i = 0; i < set.weights.size(); ++i) {
        parts.push_back((i == 3 ? "Ir " : "") + number(set.weights[i]));
    }
    return util::join(parts, " / ");
}

std::string render_calibration_console(const Calibration& c, bool color) {
    const auto& x = c.context;
    std::string out = "cgbench calibrate · " + simulated_with(x.fingerprint) + "\n";
    out += how_timed(x) + "\n" + conditions(x) + "\n\n";

    std::vector<std::pair<std::string, Align>> columns = {
        {"kernel", Align::Left},
        {fmt::format("time {}", calibrate::unit_of(x.native.clock)), Align::Right},
        {"spread", Align::Right},
        {"L1 hits", Align::Right},
        {"LL hits", Align::Right},
        {"RAM hits", Align::Right}};
    for (const auto& s : c.sets)
        columns.emplace_back(s.name, Align::Right);
    TextTable kernels(columns);
    for (std::size_t i = 0; i < c.kernels.size(); ++i) {
        const auto& k = c.kernels[i];
        std::vector<std::string> row = {util::printable(k.kernel.name),
                                        time_cell(k.timing, x.native.clock),
                                        spread(k.timing),
                                        util::with_commas(k.hits.l1_hits),
                                        util::with_commas(k.hits.ll_hits),
                                        util::with_commas(k.hits.ram_hits)};
        for (const auto& s : c.sets)
            row.push_back(relative_error(s.agreement.predicted[i], k.timing.median));
        kernels.add_row(std::move(row));
    }
    out += kernels.render(0, color);
    out += fmt::format(
        "(the last columns: each weight set's predicted time against the measured median; "
        "weights fitted and every set scaled by least squares of {} error)\n\n",
        calibrate::to_string(c.objective));

    TextTable sets({{"weights", Align::Left},
                    {"L1 / LL / RAM", Align::Right},
                    {"r", Align::Right},
                    {"R²", Align::Right},
                    {"median error", Align::Right}});
    for (const auto& s : c.sets) {
        sets.add_row({s.name, describe_weights(s), fmt::format("{:.3f}", s.agreement.pearson_r),
                      fmt::format("{:.3f}", s.agreement.r_squared),
                      fmt::format("{:.1f}%", s.agreement.median_abs_error * 100)});
    }
    out += sets.render(0, color);
    const auto& e = c.fitted_exact;
    out += fmt::format("fitted exactly: L1 {:.3g} / LL {:.3g} / RAM {:.3g}", e.at(0), e.at(1),
                       e.at(2));
    if (!c.fitted_exact_ir.empty()) {
        out += " · \"fitted + Ir\" adds a weight per instruction, which cgbench's cost does not "
               "have: shown for comparison only";
    }
    return out + "\n";
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
