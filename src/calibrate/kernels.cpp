#include "calibrate/kernels.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include "base/errors.hpp"
#include "util/strings.hpp"

namespace cgbench::calibrate {

namespace fs = std::filesystem;

namespace {

constexpr std::uint64_t kMinSize = 64;
constexpr std::uint64_t kMaxSize = 64ULL << 30;
constexpr std::string_view kProgramName = "cgbench-kernels";

std::uint64_t parse_size(std::string_view entry) {
    const auto bad = [&] {
        return UsageError(
            fmt::format("invalid working-set size '{}' in --sizes", util::printable(entry)),
            fmt::format("give sizes from {} to {} bytes with an optional K, M or G (powers of "
                        "1024), separated by commas, e.g. 1K,64K,4M",
                        kMinSize, size_label(kMaxSize)));
    };
    std::string_view digits = util::trim(entry);
    std::uint64_t unit = 1;
    if (!digits.empty()) {
        switch (digits.back()) {
            case 'K':
            case 'k':
                unit = 1ULL << 10;
                break;
            case 'M':
            case 'm':
                unit = 1ULL << 20;
                break;
            case 'G':
            case 'g':
                unit = 1ULL << 30;
                break;
            default:
                break;
        }
        if (unit != 1) digits.remove_suffix(1);
    }
    const auto n = util::parse_u64(digits);
    if (!n || *n > kMaxSize / unit || *n * unit < kMinSize) throw bad();
    return *n * unit;
}

}  // namespace

std::vector<std::uint64_t> default_sizes() {
    std::vector<std::uint64_t> out;
    for (std::uint64_t s = 1ULL << 10; s <= 256ULL << 20; s *= 2)
        out.push_back(s);
    return out;
}

std::vector<std::uint64_t> parse_sizes(std::string_view text) {
    std::vector<std::uint64_t> out;
    for (const auto entry : util::split(text, ',')) {
        const auto size = parse_size(entry);
        for (const auto seen : out) {
            if (seen == size) {
                throw UsageError(fmt::format("working-set size {} is given twice in --sizes",
                                             size_label(size)));
            }
        }
        out.push_back(size);
    }
    return out;
}

std::string size_label(std::uint64_t bytes) {
    for (const auto& [shift, suffix] : {std::pair{30, "G"}, {20, "M"}, {10, "K"}}) {
        const std::uint64_t unit = 1ULL << shift;
        if (bytes >= unit && bytes % unit == 0) return fmt::format("{}{}", bytes / unit, suffix);
    }
    return std::to_string(bytes);
}

std::vector<Kernel> builtin_kernels(const std::vector<std::uint64_t>& sizes) {
    std::vector<Kernel> out;
    for (const std::string_view order : {"linear", "random"}) {
        for (const auto size : sizes) {
            out.push_back({fmt::format("walk/{}/{}", order, size_label(size)),
                           fmt::format("walk/{}", order),
                           size,
                           {fmt::format("walk-{}", order), std::to_string(size)},
                           std::nullopt});
        }
    }
    for (const auto& [family, kind] :
         {std::pair{"compute", "latency"}, {"compute", "throughput"}, {"branch", "predictable"},
          {"branch", "random"}}) {
        out.push_back({fmt::format("{}/{}", family, kind), family, std::nullopt,
                       {fmt::format("{}-{}", family, kind), "0"}, std::nullopt});
    }
    return out;
}

fs::path locate_kernel_program(const exec::EnvMap& env) {
    std::vector<fs::path> candidates;
    if (const auto it = env.find("CGBENCH_KERNELS"); it != env.end() && !it->second.empty()) {
        candidates.emplace_back(it->second);
    } else {
        std::error_code ec;
        const fs::path self = fs::read_symlink("/proc/self/exe", ec);
        if (!ec) {
            candidates.push_back(self.parent_path() / kProgramName);
            candidates.push_back(self.parent_path().parent_path() / "libexec" / "cgbench" /
                                 kProgramName);
        }
    }
    std::vector<std::string> looked;
    for (const auto& c : candidates) {
        if (::access(c.c_str(), X_OK) == 0) return c;
        looked.push_back(c.string());
    }
    throw EnvironmentError(
        fmt::format("cannot find the calibration kernels program {} (looked at {})", kProgramName,
                    looked.empty() ? std::string("nothing") : util::join(looked, ", ")),
        "install cgbench completely (cmake --install), or set CGBENCH_KERNELS to the program");
}

}  // namespace cgbench::calibrate
