#include "config/weights_file.hpp"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <sstream>

#include "base/errors.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cgbench::config {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kSchema = "cgbench-weights/1";
constexpr std::string_view kForms =
    "use pythonspeed, kcachegrind, ir, three non-negative integers L1,LL,RAM such as 1,6,80 "
    "(and a fourth for mispredicted conditional branches, with --branch-sim), or a weights file written by "
    "`cgbench calibrate --out FILE`";

bool is_preset(std::string_view text) {
    const auto& presets = metrics::weight_presets();
    return std::any_of(presets.begin(), presets.end(),
                       [&](const auto& p) { return p.name == text; });
}

// "1,6,80" and the like (also when malformed): parse_weights gives the precise error.
bool looks_like_numbers(std::string_view text) {
    return !text.empty() && text.find_first_not_of("0123456789,.-+ ") == std::string_view::npos;
}

fs::path file_path(std::string_view text, const fs::path& base) {
    const fs::path p{std::string(text)};
    return p.is_absolute() || base.empty() ? p : base / p;
}

[[noreturn]] void fail(const fs::path& path, int line, const std::string& message) {
    throw UsageError(fmt::format("weights file {}{}: {}", path.string(),
                                 line > 0 ? fmt::format(":{}", line) : std::string(), message),
                     "`cgbench calibrate --out FILE` writes one; keys: schema, name, l1, ll, "
                     "ram, mispredict, [calibration]");
}

int line_of(const toml::node& n) {
    return static_cast<int>(n.source().begin.line);
}

std::uint64_t weight(const toml::table& t, std::string_view key, const fs::path& path) {
    const auto* n = t.get(key);
    if (n == nullptr) fail(path, 0, fmt::format("'{}' is missing", key));
    const auto* i = n->as_integer();
    if (i == nullptr || i->get() < 0) {
        fail(path, line_of(*n),
             fmt::format("'{}' must be a non-negative integer (cgbench's cost is exact integer "
                         "arithmetic)",
                         key));
    }
    // As for weights on the command line: refused before measuring, not found as an
    // overflowing cost after it.
    if (static_cast<std::uint64_t>(i->get()) > metrics::kMaxWeight) {
        fail(path, line_of(*n),
             fmt::format("'{}' is above {}: the cost could overflow 64 bits (the weights' ratios "
                         "are what matters)",
                         key, util::with_commas(metrics::kMaxWeight)));
    }
    return static_cast<std::uint64_t>(i->get());
}

std::string name_of(const toml::table& t, const fs::path& path) {
    const auto* n = t.get("name");
    if (n == nullptr) return path.stem().string();
    const auto* s = n->as_string();
    if (s == nullptr || s->get().empty() || s->get().size() > 64) {
        fail(path, line_of(*n), "'name' must be a string of 1 to 64 characters");
    }
    // The name is printed in every run's header: no escape sequence reaches a terminal.
    if (util::printable(s->get()) != s->get()) {
        fail(path, line_of(*n), "'name' holds a control character");
    }
    if (is_preset(s->get())) {
        fail(path, line_of(*n),
             fmt::format("'name' is the preset '{}'; give these weights a name of their own",
                         s->get()));
    }
    return s->get();
}

}  // namespace

metrics::Weights load_weights_file(const fs::path& path) {
    toml::table t;
    try {
        t = toml::parse(util::read_file(path), path.string());
    } catch (const toml::parse_error& e) {
        fail(path, static_cast<int>(e.source().begin.line), std::string(e.description()));
    } catch (const Error& e) {
        throw UsageError(fmt::format("cannot read weights file {}: {}", path.string(), e.what()),
                         "check the path given to --weights");
    }
    for (const auto& [key, node] : t) {
        const std::string_view k = key.str();
        if (k == "schema" || k == "name" || k == "l1" || k == "ll" || k == "ram" ||
            k == "mispredict" || (k == "calibration" && node.is_table())) {
            continue;
        }
        fail(path, static_cast<int>(key.source().begin.line),
             fmt::format("unknown key '{}'", util::printable(k)));
    }
    if (const auto* s = t.get("schema")) {
        if (!s->is_string() || s->as_string()->get() != kSchema) {
            fail(path, line_of(*s), fmt::format("'schema' must be \"{}\"", kSchema));
        }
    }
    metrics::Weights w{name_of(t, path), weight(t, "l1", path), weight(t, "ll", path),
                       weight(t, "ram", path), false};
    if (w.l1 == 0 && w.ll == 0 && w.ram == 0) fail(path, 0, "all three weights are 0");
    if (t.contains("mispredict")) w.mispredict = weight(t, "mispredict", path);
    return w;
}

metrics::Weights resolve_weights(std::string_view text, const fs::path& base) {
    if (is_preset(text) || looks_like_numbers(text)) return metrics::parse_weights(text);
    const fs::path path = file_path(text, base);
    std::error_code ec;
    if (text.empty() || !fs::is_regular_file(path, ec)) {
        throw UsageError(fmt::format("invalid weights '{}': not a preset, not L1,LL,RAM, and no "
                                     "file {}",
                                     util::printable(text), path.string()),
                         std::string(kForms));
    }
    return load_weights_file(path);
}

std::string anchor_weights(std::string_view text, const fs::path& base) {
    if (is_preset(text) || looks_like_numbers(text)) return std::string(text);
    return util::absolute_lexical(file_path(text, base)).string();
}

namespace {

// A TOML float with 6 significant digits (always with a point or an exponent, so it reads
// back as a float).
std::string toml_float(double v) {
    std::string out = fmt::format("{:.6g}", v);
    if (out.find_first_of(".eEni") == std::string::npos) out += ".0";
    return out;
}

std::string toml_value(const CalibrationValue& value) {
    if (const auto* s = std::get_if<std::string>(&value)) {
        std::ostringstream out;
        out << toml::value<std::string>(*s);
        return out.str();
    }
    if (const auto* d = std::get_if<double>(&value)) return toml_float(*d);
    if (const auto* i = std::get_if<std::int64_t>(&value)) return std::to_string(*i);
    std::vector<std::string> items;
    for (const double v : std::get<std::vector<double>>(value))
        items.push_back(toml_float(v));
    return "[" + util::join(items, ", ") + "]";
}

}  // namespace

std::string format_weights_file(const WeightsFile& f) {
    std::string out;
    for (const auto& c : f.comments)
        out += "# " + util::printable(c) + "\n";
    // In this order, which toml++ would sort.
    out += "schema = " + toml_value(std::string(kSchema)) + "\n";
    out += "name = " + toml_value(f.weights.name) + "\n";
    out += fmt::format("l1 = {}\nll = {}\nram = {}\n", f.weights.l1, f.weights.ll, f.weights.ram);
    if (f.weights.mispredict > 0) out += fmt::format("mispredict = {}\n", f.weights.mispredict);
    if (!f.calibration.empty()) out += "\n[calibration]\n";
    for (const auto& [key, value] : f.calibration)
        out += key + " = " + toml_value(value) + "\n";
    return out;
}

}  // namespace cgbench::config
