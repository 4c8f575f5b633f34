#include "config/suite.hpp"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <optional>
#include <map>

#include "base/errors.hpp"
#include "compare/threshold.hpp"
#include "config/weights_file.hpp"
#include "core/result.hpp"
#include "metrics/score.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"
#include "valgrind/command.hpp"
#include "valgrind/cpu_baseline.hpp"
#include "valgrind/geometry.hpp"

namespace cgbench::config {

namespace fs = std::filesystem;

namespace {

using Keys = std::vector<std::string_view>;
const Keys kDefaultsKeys = {"geometry",  "weights",     "cpu_baseline", "branch_sim",
                            "region_tool", "threshold", "timeout",   "env",
                            "processes", "warmup",      "allow_child_crash", "max_processes",
                            "fixed_clock", "fixed_random", "verify"};
const Keys kBenchKeys = {"name",      "command",       "cwd",     "stdin",
                         "env",       "threshold",     "timeout", "regions",
                         "processes", "warmup",        "allow_child_crash",
                         "max_processes", "verify"};
const Keys kGbenchKeys = {"name",      "binary",  "filter", "args",
                          "cwd",       "env",     "threshold", "timeout",
                          "warmup",    "verify"};
const Keys kTopKeys = {"defaults", "bench", "gbench"};
// Bounds checked before toml++ parses a suite, whose parser recurses once per dotted key
// part (a key of 40,000 parts overflowed the stack) and holds the whole file in memory.
constexpr std::size_t kMaxKeyParts = 64;
constexpr std::uintmax_t kMaxSuiteBytes = 64u << 20;
// Settings that decide the fingerprint: one value for the whole run.
const Keys kRunWideKeys = {"geometry",    "weights",     "cpu_baseline", "branch_sim",
                           "region_tool", "fixed_clock", "fixed_random"};

int line_of(const toml::source_region& r) {
    return static_cast<int>(r.begin.line);
}

std::string_view type_name(const toml::node& n) {
    switch (n.type()) {
        case toml::node_type::string:
            return "a string";
        case toml::node_type::integer:
            return "an integer";
        case toml::node_type::floating_point:
            return "a float";
        case toml::node_type::boolean:
            return "a boolean";
        case toml::node_type::array:
            return "an array";
        case toml::node_type::table:
            return "a table";
        default:
            return "a date or time";
    }
}

bool contains(const Keys& keys, std::string_view key) {
    return std::find(keys.begin(), keys.end(), key) != keys.end();
}

// Reads one suite; every failure names the file, the line and the key.
class Reader {
  public:
    explicit Reader(const Suite& suite) : suite_(suite) {}

    [[noreturn]] void fail(int line, const std::string& message, std::string hint = {}) const {
        throw UsageError(fmt::format("{}: {}", suite_.origin(line), message), std::move(hint));
    }

    // Rejects keys outside `allowed`, suggesting the closest known one.
    void check_keys(const toml::table& t, const Keys& allowed, const std::string& where) const {
        for (const auto& [key, node] : t) {
            if (contains(allowed, key.str())) continue;
            const int line = line_of(key.source());
            if (&allowed != &kDefaultsKeys && &allowed != &kTopKeys &&
                contains(kRunWideKeys, key.str())) {
                fail(line,
                     fmt::format("'{}' cannot be set in {}: it is one value for the whole run "
                                 "(it decides the fingerprint)",
                                 key.str(), where),
                     "set it in [defaults], in the environment or on the command line");
            }
            if (&allowed == &kTopKeys &&
                (contains(kDefaultsKeys, key.str()) || contains(kBenchKeys, key.str()) ||
                 contains(kGbenchKeys, key.str()))) {
                fail(line, fmt::format("key '{}' outside any section", key.str()),
                     "settings go under [defaults], a [[bench]] or a [[gbench]] entry");
            }
            const std::string guess = util::closest(key.str(), allowed);
            fail(line, fmt::format("unknown key '{}' in {}", util::printable(key.str()), where),
                 (guess.empty() ? std::string() : fmt::format("did you mean '{}'? ", guess)) +
                     "known keys: " +
                     util::join(std::vector<std::string>(allowed.begin(), allowed.end()), ", "));
        }
    }

    std::string string(const toml::node& n, std::string_view key, const std::string& where) const {
        if (const auto* s = n.as_string()) return s->get();
        fail(line_of(n.source()),
             fmt::format("'{}' in {} must be a string, not {}", key, where, type_name(n)));
    }

    // A string checked by `validate`, whose UsageError gains the position.
    template <class Validate>
    SuiteValue checked(const toml::node& n, std::string_view key, const std::string& where,
                       Validate validate) const {
        SuiteValue v{string(n, key, where), line_of(n.source())};
        try {
            validate(v.text);
        } catch (const UsageError& e) {
            fail(v.line, fmt::format("'{}' in {}: {}", key, where, e.what()), e.hint());
        }
        return v;
    }

    SuiteValue timeout(const toml::node& n, const std::string& where) const {
        const int line = line_of(n.source());
        std::optional<double> seconds;
        std::string text;
        if (const auto* i = n.as_integer()) {
            seconds = static_cast<double>(i->get());
            text = std::to_string(i->get());
        } else if (const auto* f = n.as_floating_point()) {
            seconds = f->get();
            text = fmt::format("{}", f->get());
        } else {
            fail(line,
                 fmt::format("'timeout' in {} must be a number of seconds, not {}", where,
                             type_name(n)),
                 "e.g. timeout = 600");
        }
        if (!(*seconds > 0) || !std::isfinite(*seconds)) {
            fail(line, fmt::format("'timeout' in {} must be a positive number of seconds", where));
        }
        return {text, line};
    }

    // A whole number of at least `min`.
    SuiteValue count(const toml::node& n, std::string_view key, const std::string& where,
                     std::int64_t min) const {
        const auto* i = n.as_integer();
        if (i == nullptr || i->get() < min) {
            fail(line_of(n.source()),
                 fmt::format("'{}' in {} must be a whole number of at least {}", key, where, min));
        }
        return {std::to_string(i->get()), line_of(n.source())};
    }

    SuiteValue processes(const toml::node& n, const std::string& where) const {
        return checked(n, "processes", where, [](const std::string& v) {
            if (!process_mode_from(v)) {
                throw UsageError(fmt::format("'{}' is not tree or main", util::printable(v)));
            }
        });
    }

    // Settings of whole-program runs that [defaults] and [[bench]] share.
    void process_settings(const toml::table& t, const std::string& where,
                          ProcessSettings& p) const {
        if (const auto* n = t.get("processes")) p.processes = processes(*n, where);
        if (const auto* n = t.get("allow_child_crash")) {
            p.allow_child_crash = boolean(*n, "allow_child_crash", where);
        }
        if (const auto* n = t.get("max_processes")) {
            p.max_processes = count(*n, "max_processes", where, 1);
        }
    }

    SuiteValue boolean(const toml::node& n, std::string_view key, const std::string& where) const {
        if (const auto* b = n.as_boolean()) return {b->get() ? "on" : "off", line_of(n.source())};
        fail(line_of(n.source()),
             fmt::format("'{}' in {} must be true or false, not {}", key, where, type_name(n)));
    }

    SuiteEnv env(const toml::node& n, const std::string& where) const {
        SuiteEnv out{{}, line_of(n.source())};
        const auto add = [&](const std::string& text, const toml::node& at) {
            try {
                out.requests.push_back(exec::parse_env_request(text));
            } catch (const UsageError&) {
                fail(line_of(at.source()),
                     fmt::format("invalid env entry '{}' in {}", util::printable(text), where),
                     "names are letters, digits and _ (not first a digit); cgbench sets _ itself");
            }
        };
        if (const auto* t = n.as_table()) {
            for (const auto& [key, value] : *t) {
                add(std::string(key.str()) + "=" +
                        string(value, "env." + std::string(key.str()), where),
                    value);
            }
        } else if (const auto* a = n.as_array()) {
            for (const auto& item : *a)
                add(string(item, "env", where), item);
        } else {
            fail(
                out.line,
                fmt::format("'env' in {} must be a table or an array, not {}", where, type_name(n)),
                "e.g. env = { MODE = \"fast\" } or env = [\"MODE=fast\", \"HOME\"]");
        }
        return out;
    }

    std::vector<std::string> command(const toml::node& n, const std::string& where) const {
        const auto* a = n.as_array();
        std::vector<std::string> out;
        if (a != nullptr) {
            for (const auto& item : *a) {
                if (!item.is_string()) break;
                out.push_back(item.as_string()->get());
            }
        }
        if (a == nullptr || a->empty() || out.size() != a->size() || out.front().empty()) {
            fail(line_of(n.source()),
                 fmt::format("'command' in {} must be a non-empty array of strings", where),
                 "cgbench never runs a shell: write the program and each argument as separate "
                 "strings, e.g. command = [\"./prog\", \"--size\", \"10\"]");
        }
        return out;
    }

    SuiteDefaults defaults(const toml::table& t) const {
        const std::string where = "[defaults]";
        check_keys(t, kDefaultsKeys, where);
        SuiteDefaults d;
        if (const auto* n = t.get("geometry")) {
            d.geometry = checked(*n, "geometry", where, valgrind::parse_geometry);
        }
        if (const auto* n = t.get("weights")) {
            // A weights file is relative to the suite, like every path in it.
            d.weights = checked(*n, "weights", where, [&](const std::string& w) {
                return resolve_weights(w, suite_.dir);
            });
            d.weights->text = anchor_weights(d.weights->text, suite_.dir);
        }
        if (const auto* n = t.get("cpu_baseline")) {
            d.cpu_baseline = checked(*n, "cpu_baseline", where, valgrind::parse_cpu_baseline);
        }
        if (const auto* n = t.get("branch_sim")) d.branch_sim = boolean(*n, "branch_sim", where);
        if (const auto* n = t.get("fixed_clock")) d.fixed_clock = boolean(*n, "fixed_clock", where);
        if (const auto* n = t.get("fixed_random")) {
            d.fixed_random = boolean(*n, "fixed_random", where);
        }
        if (const auto* n = t.get("region_tool")) {
            d.region_tool = checked(*n, "region_tool", where, valgrind::parse_region_tool);
        }
        if (const auto* n = t.get("threshold")) {
            d.threshold = checked(*n, "threshold", where, compare::validate_threshold);
        }
        if (const auto* n = t.get("timeout")) d.timeout = timeout(*n, where);
        if (const auto* n = t.get("env")) d.env = env(*n, where);
        if (const auto* n = t.get("warmup")) d.warmup = count(*n, "warmup", where, 0);
        if (const auto* n = t.get("verify")) d.verify = count(*n, "verify", where, 1);
        process_settings(t, where, d.process);
        return d;
    }

    // Settings [[bench]] and [[gbench]] share.
    void common(const toml::table& t, const std::string& where, SuiteEntry& e) const {
        if (const auto* n = t.get("cwd"))
            e.cwd = SuiteValue{string(*n, "cwd", where), line_of(n->source())};
        if (const auto* n = t.get("threshold")) {
            e.threshold = checked(*n, "threshold", where, compare::validate_threshold);
        }
        if (const auto* n = t.get("timeout")) e.timeout = timeout(*n, where);
        if (const auto* n = t.get("env")) e.env = env(*n, where);
        if (const auto* n = t.get("warmup")) e.warmup = count(*n, "warmup", where, 0);
        if (const auto* n = t.get("verify")) e.verify = count(*n, "verify", where, 1);
    }

    SuiteEntry gbench_entry(const toml::table& t, std::size_t number) const {
        SuiteEntry e;
        e.gbench = true;
        e.line = line_of(t.source());
        const std::string anonymous = fmt::format("[[gbench]] #{}", number);
        const auto* binary = t.get("binary");
        if (binary == nullptr) {
            fail(e.line, anonymous + " has no 'binary'", "add binary = \"./path/to/bench\"");
        }
        e.command = {string(*binary, "binary", anonymous)};
        if (util::trim(e.command.front()).empty()) {
            fail(line_of(binary->source()), anonymous + " has an empty 'binary'");
        }
        e.name = fs::path(e.command.front()).filename().string();
        if (const auto* name = t.get("name")) {
            e.name = string(*name, "name", anonymous);
            if (util::trim(e.name).empty()) {
                fail(line_of(name->source()), anonymous + " has an empty name");
            }
        }
        const std::string where = fmt::format("[[gbench]] '{}'", util::printable(e.name));
        check_keys(t, kGbenchKeys, where);
        if (const auto* n = t.get("filter")) {
            e.filter = SuiteValue{string(*n, "filter", where), line_of(n->source())};
        }
        if (const auto* n = t.get("args")) {
            const auto* a = n->as_array();
            if (a == nullptr) {
                fail(line_of(n->source()), "'args' in " + where + " must be an array of strings",
                     "e.g. args = [\"--size=2\"]");
            }
            for (const auto& item : *a)
                e.command.push_back(string(item, "args", where));
        }
        common(t, where, e);
        return e;
    }

    SuiteEntry entry(const toml::table& t, std::size_t number) const {
        SuiteEntry e;
        e.line = line_of(t.source());
        const auto* name = t.get("name");
        const std::string anonymous = fmt::format("[[bench]] #{}", number);
        if (name == nullptr) fail(e.line, anonymous + " has no 'name'", "add name = \"...\"");
        e.name = string(*name, "name", anonymous);
        if (util::trim(e.name).empty())
            fail(line_of(name->source()), anonymous + " has an empty name");
        const std::string where = fmt::format("[[bench]] '{}'", util::printable(e.name));
        check_keys(t, kBenchKeys, where);
        const auto* command_node = t.get("command");
        if (command_node == nullptr) fail(e.line, where + " has no 'command'");
        e.command = command(*command_node, where);
        const auto text = [&](std::string_view key) -> std::optional<SuiteValue> {
            const auto* n = t.get(key);
            if (n == nullptr) return std::nullopt;
            return SuiteValue{string(*n, key, where), line_of(n->source())};
        };
        e.stdin_path = text("stdin");
        if (const auto* n = t.get("regions")) e.regions = boolean(*n, "regions", where);
        process_settings(t, where, e.process);
        common(t, where, e);
        return e;
    }

    // The entries of the `key` array ("bench" or "gbench").
    void entries(const toml::node& node, std::string_view key, std::vector<SuiteEntry>& out) const {
        const auto* array = node.as_array();
        if (array == nullptr || !array->is_array_of_tables()) {
            fail(line_of(node.source()), fmt::format("'{}' must be an array of tables", key),
                 fmt::format("start each entry with [[{}]] (two brackets)", key));
        }
        std::size_t number = 0;
        for (const auto& table : *array) {
            ++number;
            out.push_back(key == "gbench" ? gbench_entry(*table.as_table(), number)
                                          : entry(*table.as_table(), number));
        }
    }

    // Sorts `out` into file order and rejects duplicate names.
    void finish_entries(std::vector<SuiteEntry>& out) const {
        std::stable_sort(out.begin(), out.end(),
                         [](const SuiteEntry& a, const SuiteEntry& b) { return a.line < b.line; });
        std::map<std::string, int> seen;
        for (const auto& e : out) {
            if (const auto [it, fresh] = seen.emplace(e.name, e.line); !fresh) {
                fail(e.line,
                     fmt::format("duplicate benchmark name '{}' (first at line {})",
                                 util::printable(e.name), it->second),
                     "names identify results in reports and history; make them unique");
            }
        }
    }

  private:
    const Suite& suite_;
};

// The first line holding a key of more than kMaxKeyParts dotted parts ("a.b.c" has three),
// counted outside strings and comments; nullopt when there is none.
std::optional<int> too_deep_key(std::string_view text) {
    int line = 1;
    std::size_t parts = 1;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '"' || c == '\'') {  // a string (or a quoted key part): skipped whole
            const std::string_view quote = text.substr(i, 3) == std::string(3, c)
                                               ? text.substr(i, 3)
                                               : text.substr(i, 1);
            std::size_t j = i + quote.size();
            while (j < text.size() && text.substr(j, quote.size()) != quote) {
                if (text[j] == '\n') ++line;
                j += c == '"' && text[j] == '\\' ? 2 : 1;
            }
            i = j + quote.size() - 1;
        } else if (c == '#') {
            while (i + 1 < text.size() && text[i + 1] != '\n')
                ++i;
        } else if (c == '.') {
            if (++parts > kMaxKeyParts) return line;
        } else if (c == '\n') {
            ++line;
            parts = 1;
        } else if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' ||
                     c == ' ' || c == '\t')) {
            parts = 1;  // '[', '=', ',' ...: whatever followed was not one key
        }
    }
    return std::nullopt;
}

}  // namespace

std::string Suite::origin(int line) const {
    return line > 0 ? fmt::format("{}:{}", path.string(), line) : path.string();
}

Suite parse_suite(std::string_view text, const fs::path& path) {
    Suite suite;
    suite.path = path;
    suite.dir = util::absolute_lexical(path).parent_path();
    const Reader reader(suite);
    if (const auto deep = too_deep_key(text)) {
        // toml++ recurses once per dotted part: tens of thousands overflow the stack.
        reader.fail(*deep, fmt::format("a key of more than {} dotted parts", kMaxKeyParts),
                    "the keys of a suite have one or two parts ([defaults], env.NAME); check "
                    "the file");
    }
    toml::table root;
    try {
        root = toml::parse(text, path.string());
    } catch (const toml::parse_error& e) {
        reader.fail(line_of(e.source()), std::string(e.description()),
                    "fix the TOML syntax (https://toml.io)");
    }
    reader.check_keys(root, kTopKeys, "the top level of the suite");
    if (const auto* d = root.get("defaults")) {
        if (!d->is_table()) {
            reader.fail(line_of(d->source()), "'defaults' must be a table", "write [defaults]");
        }
        suite.defaults = reader.defaults(*d->as_table());
    }
    if (const auto* bench = root.get("bench")) reader.entries(*bench, "bench", suite.entries);
    if (const auto* g = root.get("gbench")) reader.entries(*g, "gbench", suite.entries);
    reader.finish_entries(suite.entries);
    if (suite.entries.empty()) {
        reader.fail(0, "the suite has no [[bench]] or [[gbench]] entries",
                    "add one: [[bench]] name = \"...\" command = [\"./prog\"]");
    }
    return suite;
}

Suite load_suite(const fs::path& path) {
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) {
        throw UsageError(fmt::format("suite file {} {}", path.string(),
                                     fs::exists(path, ec) ? "is not a file" : "does not exist"),
                         "check the path given to --suite");
    }
    if (const auto size = fs::file_size(path, ec); !ec && size > kMaxSuiteBytes) {
        throw UsageError(fmt::format("suite file {} is {} bytes, more than the {} a suite may "
                                     "have",
                                     path.string(), util::with_commas(size),
                                     util::with_commas(kMaxSuiteBytes)),
                         "a suite of 10,000 benchmarks takes about 1 MB; check the path");
    }
    std::string text;
    try {
        text = util::read_file(path);
    } catch (const Error& e) {
        throw UsageError(e.what(), "check the permissions of the suite file");
    }
    return parse_suite(text, path);
}

fs::path discover_suite() {
    std::error_code ec;
    const fs::path candidate(kSuiteFileName);
    return fs::is_regular_file(candidate, ec) ? candidate : fs::path();
}

const std::vector<std::string_view>& known_suite_keys(std::string_view table) {
    static const Keys none;
    if (table == "defaults") return kDefaultsKeys;
    if (table == "bench") return kBenchKeys;
    if (table == "gbench") return kGbenchKeys;
    return none;
}

}  // namespace cgbench::config
