#include "core/result.hpp"

#include <fmt/format.h>

#include "util/hash.hpp"
#include "util/strings.hpp"

namespace cgbench {

std::string_view to_string(BenchStatus s) {
    switch (s) {
        case BenchStatus::Ok:
            return "ok";
        case BenchStatus::Failed:
            return "failed";
        case BenchStatus::Timeout:
            return "timeout";
    }
    return "failed";
}

std::optional<BenchStatus> bench_status_from(std::string_view s) {
    for (const auto st : {BenchStatus::Ok, BenchStatus::Failed, BenchStatus::Timeout}) {
        if (to_string(st) == s) return st;
    }
    return std::nullopt;
}

std::optional<std::uint64_t> metric_value(const BenchmarkResult& b, metrics::Metric metric) {
    if (b.status != BenchStatus::Ok) return std::nullopt;
    return metric.value(b.events, b.derived, b.cost);
}

std::string_view to_string(ProcessMode m) {
    return m == ProcessMode::Main ? "main" : "tree";
}

std::optional<ProcessMode> process_mode_from(std::string_view s) {
    if (s == "tree") return ProcessMode::Tree;
    if (s == "main") return ProcessMode::Main;
    return std::nullopt;
}

namespace {

struct KeyField {
    std::string_view label;
    std::string value;
};

std::vector<KeyField> key_fields(const Fingerprint& f) {
    std::vector<KeyField> fields = {
        {"tool", f.tool},
        {"valgrind", f.valgrind_version},
        {"glibc", f.glibc_version},
        {"arch", f.arch},
        {"geometry", f.geometry.describe()},
        {"cache simulation", f.cache_sim ? "on" : "off"},
        {"branch simulation", f.branch_sim ? "on" : "off"},
        {"weights", f.weights.describe()},
        {"CPU baseline", f.cpu_baseline},
        {"glibc selection", f.selection.id.empty() ? "unknown" : f.selection.id},
    };
    // Only when set, so the key of every run without them stays what it was.
    if (!f.loader_env.empty()) {
        fields.push_back({"loader environment (--env)", util::join(f.loader_env, " ")});
    }
    if (!f.isolation.empty()) fields.push_back({"isolation", f.isolation});
    if (!f.fixed_inputs.empty()) fields.push_back({"fixed inputs", f.fixed_inputs});
    return fields;
}

}  // namespace

std::string Fingerprint::comparison_key() const {
    std::string all;
    for (const auto& k : key_fields(*this))
        all += fmt::format("{}={};", k.label, k.value);
    return util::hex64(util::fnv1a64(all));
}

std::vector<std::string> Fingerprint::differences(const Fingerprint& other) const {
    std::vector<std::string> out;
    const auto mine = key_fields(*this);
    const auto theirs = key_fields(other);
    // Optional fields (set on one side only) compare against "none", matched by label.
    const auto value_in = [](const std::vector<KeyField>& fields, std::string_view label) {
        for (const auto& f : fields) {
            if (f.label == label) return f.value;
        }
        return std::string("none");
    };
    for (const auto& f : mine) {
        const std::string other_value = value_in(theirs, f.label);
        if (f.value != other_value) {
            out.push_back(fmt::format("{}: {} vs {}", f.label, f.value, other_value));
        }
    }
    for (const auto& f : theirs) {
        if (value_in(mine, f.label) == "none" && f.value != "none") {
            out.push_back(fmt::format("{}: none vs {}", f.label, f.value));
        }
    }
    return out;
}

std::vector<FunctionResult> fold_functions(const std::vector<FunctionResult>& functions,
                                           std::size_t keep) {
    std::vector<FunctionResult> out;
    FunctionResult other{"", std::string(kOtherFunctions), {}, 0};
    bool folded = false;
    std::uint64_t other_ir = 0;
    for (const auto& f : functions) {
        const bool has_ir = f.events.has(metrics::Event::Ir);
        if (f.name != kOtherFunctions && out.size() < keep) {
            FunctionResult kept{f.file, f.name, {}, f.cost};
            if (has_ir) kept.events.set(metrics::Event::Ir, f.events.get(metrics::Event::Ir));
            out.push_back(std::move(kept));
            continue;
        }
        folded = true;
        other.cost += f.cost;
        if (has_ir) other_ir += f.events.get(metrics::Event::Ir);
    }
    if (folded) {
        other.events.set(metrics::Event::Ir, other_ir);
        out.push_back(std::move(other));
    }
    return out;
}

std::vector<std::string> without_line_info(const RunResult& run) {
    std::vector<std::string> out;
    for (const auto& b : run.benchmarks) {
        if (b.line_info == false) out.push_back(b.name);
    }
    return out;
}

std::string no_line_info_hint(const std::vector<std::string>& names) {
    constexpr std::size_t kShown = 5;  // names listed before "N more"
    if (names.empty()) return {};
    std::string shown;
    for (std::size_t i = 0; i < std::min(names.size(), kShown); ++i)
        shown += (i == 0 ? "" : ", ") + names[i];
    if (names.size() > kShown) shown += fmt::format(" and {} more", names.size() - kShown);
    return fmt::format(
        "no line information in {}: the measured program was built without debug info (or "
        "stripped), so its functions' files show as ??? and none of its lines are kept; "
        "compile with -g (CMake: -DCMAKE_BUILD_TYPE=RelWithDebInfo) to see them",
        shown);
}

}  // namespace cgbench
