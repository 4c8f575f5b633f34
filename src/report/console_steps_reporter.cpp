// Console rendering of `cgbench steps`: a heading per branch with its epochs, then one block
// per event (a commit where benchmarks stepped) with a table of its benchmarks.

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "history/environment.hpp"
#include "report/history_text.hpp"
#include "report/steps_reporter.hpp"
#include "report/text_table.hpp"
#include "util/strings.hpp"

namespace cgbench::report {

namespace {

using history::BenchmarkStep;
using history::BranchSteps;
using history::Label;
using history::StepEvent;

std::string signed_count(std::int64_t v) {
    const auto magnitude = v < 0 ? -static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
    return (v > 0 ? "+" : v < 0 ? "-" : "") + util::with_commas(magnitude);
}

// The functions that moved most, on one line: "tk_search +3,899,000 (99.9%), main -12".
std::string functions_cell(const BenchmarkStep& s, std::size_t top) {
    if (!s.explanation || s.explanation->functions.empty()) return "-";
    const auto& functions = s.explanation->functions;
    std::vector<std::string> parts;
    for (const auto& f : functions) {
        if (parts.size() == top) break;
        const bool twin = std::count_if(functions.begin(), functions.end(),
                                        [&f](const auto& g) { return g.name == f.name; }) > 1;
        std::string part = util::printable(f.name);
        if (twin)
            part += " in " + util::printable(std::filesystem::path(f.file).filename().string());
        part += " " + signed_count(f.delta);
        if (f.share) part += fmt::format(" ({:.1f}%)", 100.0 * *f.share);
        parts.push_back(std::move(part));
    }
    return util::join(parts, ", ");
}

std::string label_cell(const BenchmarkStep& s, bool color) {
    const auto text = std::string(to_string(s.step.label)) + (s.step.pending ? "*" : "");
    const char* style = s.step.label == Label::Code          ? "1"
                        : s.step.label == Label::Environment ? "33"
                                                             : "2";
    return ansi(color, style, text);
}

std::string change_cell(double change, bool color) {
    return ansi(color, change > 0 ? "31" : "32", util::precise_percent(change));
}

class Renderer {
  public:
    Renderer(const StepsReport& r, const RenderOptions& o) : r_(r), h_(*r.history), o_(o) {}

    std::string branch(const BranchSteps& b) {
        std::string out = heading(b) + epochs(b);
        for (const auto& e : b.events)
            out += "\n" + event(e);
        if (r_.verbose && !b.blips.empty()) out += "\n" + blips(b);
        return out + "\n" + totals(b) + noise(b);
    }

  private:
    std::string heading(const BranchSteps& b) const {
        std::string out = util::printable(b.branch) + (b.is_default ? " (default branch)" : "");
        out += fmt::format(": {} commit{} measured", b.commits, b.commits == 1 ? "" : "s");
        if (!b.runs.empty()) {
            const auto& first = h_.runs[b.runs.front()];
            const auto& last = h_.runs[b.runs.back()];
            const bool committed = !commit_date(first).empty() && !commit_date(last).empty();
            out += fmt::format(", {}{} .. {}", committed ? "committed " : "",
                               committed ? commit_date(first) : short_time(first.started),
                               committed ? commit_date(last) : short_time(last.started));
        }
        out += fmt::format(", {} benchmark{}\n", b.benchmarks, b.benchmarks == 1 ? "" : "s");
        if (b.branch == history::kNoBranch) out += "  " + std::string(kDetachedNote) + "\n";
        return out;
    }

    std::string epochs(const BranchSteps& b) const {
        TextTable t({{"epoch", Align::Right},
                     {"from", Align::Left},
                     {"runs", Align::Right},
                     {"fingerprint", Align::Left},
                     {"measured with", Align::Left}});
        for (std::size_t i = 0; i < b.epochs.size(); ++i) {
            const auto& e = b.epochs[i];
            const auto& first = h_.runs[b.runs[e.first]];
            std::string with = history::describe(h_.fingerprints[e.fingerprint]);
            if (i > 0) {
                const auto& prev = h_.runs[b.runs[b.epochs[i - 1].last]];
                with = util::join(history::environment_changes(h_.fingerprints[prev.fingerprint],
                                                               h_.fingerprints[e.fingerprint]),
                                  "; ");
            }
            t.add_row({std::to_string(i + 1),
                       short_commit(first.git.commit) + " " + run_date(first),
                       std::to_string(e.last - e.first + 1),
                       util::printable(h_.keys[e.fingerprint]), util::printable(with)});
        }
        return t.render(2, o_.color);
    }

    std::string event(const StepEvent& e) const {
        const auto& run = h_.runs[e.run];
        std::string out = ansi(o_.color, "33", short_commit(run.git.commit)) + "  " + run_date(run);
        if (run.git.commit) {
            if (const auto it = r_.commits.find(*run.git.commit); it != r_.commits.end()) {
                out += "  " + util::printable(it->second.subject);
            }
        }
        const auto& before = h_.runs[e.steps.front().before.run];
        out += fmt::format("  (previous: {}", short_commit(before.git.commit));
        if (!commit_date(run).empty()) out += "; measured " + short_time(run.started);
        out += ")\n";
        if (const auto& env = e.steps.front().step.environment; !env.empty()) {
            out += "  environment changed: " + util::printable(util::join(env, "; ")) + "\n";
        }
        TextTable t({{"benchmark", Align::Left},
                     {"label", Align::Left},
                     {"before", Align::Right},
                     {"after", Align::Right},
                     {"change", Align::Right},
                     {"moved", Align::Left},
                     {"functions that moved most", Align::Left}});
        for (const auto& s : e.steps) {
            t.add_row({util::printable(s.benchmark), label_cell(s, o_.color),
                       util::with_commas(*s.before.cost), util::with_commas(*s.after.cost),
                       change_cell(s.step.change, o_.color),
                       s.explanation ? history::summarize(*s.explanation) : "-",
                       functions_cell(s, r_.verbose ? 5 : 2)});
        }
        return out + t.render(2, o_.color);
    }

    std::string blips(const BranchSteps& b) const {
        TextTable t({{"benchmark", Align::Left},
                     {"at", Align::Left},
                     {"before", Align::Right},
                     {"blip", Align::Right},
                     {"change", Align::Right}});
        for (const auto& bl : b.blips) {
            const auto& at = h_.runs[bl.at.run];
            t.add_row({util::printable(bl.benchmark),
                       short_commit(at.git.commit) + " " + run_date(at),
                       util::with_commas(*bl.before.cost), util::with_commas(*bl.at.cost),
                       util::precise_percent(bl.blip.change) +
                           (bl.blip.environment ? " (other environment)" : "")});
        }
        return "One-commit blips (undone by the next result; not steps):\n" + t.render(2, o_.color);
    }

    std::string totals(const BranchSteps& b) const {
        std::size_t steps = 0;
        std::size_t code = 0;
        std::size_t environment = 0;
        bool pending = false;
        for (const auto& e : b.events) {
            for (const auto& s : e.steps) {
                ++steps;
                code += s.step.label == Label::Code ? 1 : 0;
                environment += s.step.label == Label::Environment ? 1 : 0;
                pending = pending || s.step.pending;
            }
        }
        std::string out =
            fmt::format("{}: {} step{} at {} commit{} ({} code, {} environment",
                        util::printable(b.branch), steps, steps == 1 ? "" : "s", b.events.size(),
                        b.events.size() == 1 ? "" : "s", code, environment);
        out += r_.verbose ? fmt::format(", {} wobble); {} moves within wobble", b.wobble_steps,
                                        b.wobble_moves)
                          : fmt::format("); {} moves within wobble", b.wobble_moves);
        out += fmt::format("; {} one-commit blip{}", b.blip_count, b.blip_count == 1 ? "" : "s");
        if (!r_.verbose && (b.wobble_steps > 0 || b.blip_count > 0)) out += " (-v lists them)";
        out += "\n";
        if (pending) {
            out += "* at the newest measured commit: whether it lasts shows at the next one\n";
        }
        return out;
    }

    // The benchmarks whose moves are mostly wobble; with -v every benchmark's bound.
    std::string noise(const BranchSteps& b) const {
        std::string out;
        for (const auto& w : b.wobble) {
            if (w.repeatable()) continue;
            out += fmt::format(
                "{}: {}: {} of its {} moves were within that or undone by the next "
                "result, so its moves are noise, not steps\n",
                util::printable(w.benchmark), noise_note(w), w.noise, w.moves);
        }
        if (!r_.verbose || b.wobble.empty()) return out;
        TextTable t({{"benchmark", Align::Left},
                     {"wobble", Align::Right},
                     {"samples", Align::Right},
                     {"moves", Align::Right},
                     {"noise", Align::Right},
                     {"", Align::Left}});
        for (const auto& w : b.wobble) {
            t.add_row(
                {util::printable(w.benchmark),
                 w.wobble.samples < history::kMinWobbleSamples
                     ? "-"
                     : "±" +
                           util::precise_percent(w.wobble.bound).substr(w.wobble.bound > 0 ? 1 : 0),
                 std::to_string(w.wobble.samples), std::to_string(w.moves), std::to_string(w.noise),
                 noise_note(w)});
        }
        return out + "Wobble bounds (fewer than " + std::to_string(history::kMinWobbleSamples) +
               " samples: none, every lasting move is a step):\n" + t.render(2, o_.color);
    }

    const StepsReport& r_;
    const history::History& h_;
    const RenderOptions& o_;
};

class ConsoleStepsReporter final : public StepsReporter {
  public:
    std::string render(const StepsReport& r, const RenderOptions& o) const override {
        if (r.branches.empty()) return "no results on any branch\n";
        Renderer renderer(r, o);
        std::string out;
        for (std::size_t i = 0; i < r.branches.size(); ++i) {
            if (i > 0) out += "\n";
            out += renderer.branch(r.branches[i]);
        }
        const auto notes = ordering_notes(r.history->ordering);
        if (!notes.empty()) out += "\n";
        for (const auto& n : notes)
            out += "note: " + n + "\n";
        return out;
    }
};

}  // namespace

std::unique_ptr<StepsReporter> make_console_steps_reporter() {
    return std::make_unique<ConsoleStepsReporter>();
}

}  // namespace cgbench::report
