#include "runner/function_costs.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <system_error>

#include "base/errors.hpp"
#include "core/result_json.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cgbench::runner {

namespace {

// Whether the cost under `weights` uses event `e`.
bool cost_needs(const metrics::EventInfo& e, const metrics::Weights& weights) {
    if (weights.instructions_only) return e.id == metrics::Event::Ir;
    if (e.source == metrics::EventSource::BranchSim) {
        return weights.mispredict > 0 && e.id == metrics::Event::Bcm;
    }
    return true;
}

// The events of `counts` the cost under `weights` needs.
metrics::EventCounts needed(const metrics::EventCounts& counts, const metrics::Weights& weights) {
    metrics::EventCounts out;
    for (const auto& e : metrics::kEvents) {
        if (counts.has(e.id) && cost_needs(e, weights)) out.set(e.id, counts.get(e.id));
    }
    return out;
}

// Source files larger than this are not read for their lines' text (a generated file).
constexpr std::uintmax_t kMaxSourceBytes = 16u << 20;
// How much of a line's text a result keeps.
constexpr std::size_t kMaxLineText = 160;

// Line `line` (1-based) of `text`, trimmed and bounded, valid UTF-8; empty when absent.
std::string line_of(std::string_view text, std::uint32_t line) {
    std::size_t at = 0;
    for (std::uint32_t n = 1; n < line; ++n) {
        at = text.find('\n', at);
        if (at == std::string_view::npos) return {};
        ++at;
    }
    auto end = text.find('\n', at);
    auto found = util::trim(text.substr(at, end == std::string_view::npos ? text.npos : end - at));
    if (found.size() > kMaxLineText) {
        found = found.substr(0, kMaxLineText);
        // Never cut a UTF-8 sequence in two.
        while (!found.empty() && (static_cast<unsigned char>(found.back()) & 0xC0) == 0x80)
            found.remove_suffix(1);
        if (!found.empty() && static_cast<unsigned char>(found.back()) >= 0xC0)
            found.remove_suffix(1);
    }
    return as_json_text(std::string(found));
}

// The text of each of `lines`, reading each source file once; a file that is missing, not
// a regular file or too large leaves its lines without text.
void read_texts(std::vector<LineResult>& lines) {
    std::map<std::string, std::optional<std::string>> files;
    for (auto& l : lines) {
        auto [it, added] = files.try_emplace(l.file);
        if (added) {
            std::error_code ec;
            const std::filesystem::path path(l.file);
            if (std::filesystem::is_regular_file(path, ec) &&
                std::filesystem::file_size(path, ec) <= kMaxSourceBytes && !ec) {
                try {
                    it->second = util::read_file(path);
                } catch (const Error&) {
                }
            }
        }
        if (it->second) l.text = line_of(*it->second, l.line);
    }
}

}  // namespace

void attach_lines(const metrics::Profile& profile, const metrics::Weights& weights,
                  BenchmarkResult& result, std::size_t limit) {
    result.lines.clear();
    result.line_info.reset();
    if (!profile.has_lines) return;
    result.line_info = !profile.lines.empty();
    for (const auto& l : profile.lines) {
        LineResult r{l.file, l.function, l.line, {}, needed(l.counts, weights), 0};
        r.cost = metrics::cost(r.events, weights);
        if (r.cost > 0) result.lines.push_back(std::move(r));
    }
    const auto costlier = [](const LineResult& a, const LineResult& b) {
        if (a.cost != b.cost) return a.cost > b.cost;
        if (a.file != b.file) return a.file < b.file;
        return a.function != b.function ? a.function < b.function : a.line < b.line;
    };
    const std::size_t kept = std::min(limit, result.lines.size());
    std::partial_sort(result.lines.begin(),
                      result.lines.begin() + static_cast<std::ptrdiff_t>(kept), result.lines.end(),
                      costlier);
    result.lines.resize(kept);
    read_texts(result.lines);
}

std::vector<FunctionResult> top_functions(const metrics::Profile& profile,
                                          const metrics::Weights& weights, std::size_t limit) {
    std::vector<FunctionResult> all;
    all.reserve(profile.functions.size());
    FunctionResult other{"", std::string(kOtherFunctions), {}, 0};
    for (const auto& f : profile.functions) {
        FunctionResult r{f.file, f.name, needed(f.counts, weights), 0};
        r.cost = metrics::cost(r.events, weights);
        if (f.file.empty() && f.name == kOtherFunctions) {
            other = std::move(r);  // the parser already summed the functions it did not keep
        } else if (r.cost > 0) {
            all.push_back(std::move(r));
        }
    }
    const auto costlier = [](const FunctionResult& a, const FunctionResult& b) {
        if (a.cost != b.cost) return a.cost > b.cost;
        return a.file != b.file ? a.file < b.file : a.name < b.name;
    };
    const std::size_t kept = std::min(limit, all.size());
    std::partial_sort(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(kept), all.end(),
                      costlier);
    if (kept == all.size() && other.cost == 0) return all;
    for (std::size_t i = kept; i < all.size(); ++i) {
        other.events.add(all[i].events);
        other.cost += all[i].cost;
    }
    all.resize(kept);
    all.push_back(std::move(other));
    return all;
}

metrics::ProfileRequest top_function_options(const metrics::Weights& weights) {
    metrics::ProfileRequest options;
    options.collect_functions = true;
    options.function_limit = kTopFunctions;
    options.collect_lines = true;
    options.line_limit = kTopLines;
    options.function_rank = [weights](const metrics::EventCounts& counts) {
        return metrics::cost(needed(counts, weights), weights);
    };
    return options;
}

}  // namespace cgbench::runner
