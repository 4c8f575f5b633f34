// Runs every file of the given corpus directories (or files) through the fuzz target's
// LLVMFuzzerTestOneInput once: the libFuzzer targets' seed corpus as an ordinary test, with
// any compiler. Prints how many inputs ran; a crash or an uncaught exception fails it.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "base/errors.hpp"
#include "util/fs.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

int main(int argc, char** argv) {
    namespace fs = std::filesystem;
    std::vector<fs::path> inputs;
    for (int i = 1; i < argc; ++i) {
        if (fs::is_directory(argv[i])) {
            for (const auto& entry : fs::recursive_directory_iterator(argv[i])) {
                if (entry.is_regular_file()) inputs.push_back(entry.path());
            }
        } else {
            inputs.emplace_back(argv[i]);
        }
    }
    if (inputs.empty()) {
        std::fprintf(stderr, "replay: no inputs (usage: replay CORPUS_DIR|FILE...)\n");
        return 2;
    }
    for (const auto& path : inputs) {
        std::string bytes;
        try {
            bytes = cgbench::util::read_file(path);
        } catch (const cgbench::Error& e) {
            std::fprintf(stderr, "replay: %s\n", e.what());
            return 2;
        }
        LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
    }
    std::printf("replay: %zu inputs ran\n", inputs.size());
    return 0;
}
